//! Coin rules of runs of any length (`runs(1..100)`, `runs(3,200)`, issue
//! 52 item 2): values against a mex written from the definition, and whole
//! rows against a search of every position.

use grundy::analysis::analyze_coins;
use grundy::rules::CoinRule;
use grundy::{Error, Nimber};

const MEMORY: u64 = 1 << 30;

fn rule(spec: &str) -> CoinRule {
    spec.parse()
        .unwrap_or_else(|e| panic!("{spec} should parse: {e}"))
}

/// `g(1..=to)` from the definition: coin `n` is worth the mex of the
/// nim-sums of the coins left of `n` in each allowed run ending at `n`,
/// each summed coin by coin.
fn by_definition(allowed: impl Fn(usize) -> bool, to: usize) -> Vec<u32> {
    let mut g = vec![0u32; to + 1];
    for n in 1..=to {
        let mut reached = Vec::new();
        for length in (1..=n).filter(|&l| allowed(l)) {
            reached.push((n + 1 - length..n).fold(0, |sum, coin| sum ^ g[coin]));
        }
        g[n] = (0..).find(|v| !reached.contains(v)).unwrap();
    }
    g
}

fn table(spec: &str, to: usize) -> Vec<u32> {
    let values = rule(spec)
        .table(to as u64, &[], MEMORY, u64::MAX)
        .unwrap()
        .values;
    values.iter().map(|v| v.get()).collect()
}

#[test]
fn long_runs_follow_the_definition() {
    let in_any = |ranges: &'static [(usize, usize)]| {
        move |l: usize| ranges.iter().any(|&(a, b)| a <= l && l <= b)
    };
    for (spec, allowed) in [
        ("runs(1..100)", in_any(&[(1, 100)])),
        ("runs(3,200)", in_any(&[(3, 3), (200, 200)])),
        ("runs(2,70..90)", in_any(&[(2, 2), (70, 90)])),
        (
            "runs(1,65,129..131)",
            in_any(&[(1, 1), (65, 65), (129, 131)]),
        ),
        ("ruler(150)", in_any(&[(1, 150)])),
    ] {
        assert_eq!(table(spec, 400), by_definition(allowed, 400), "{spec}");
    }
}

#[test]
fn runs_of_every_length_up_to_k_are_the_ruler_game_up_to_k() {
    // ruler(k) = runs(1..k); on coins up to k every run fits, so the values
    // are the ruler game's: the largest power of 2 dividing n.
    for k in [3, 64, 65, 100, 1000] {
        let ranged = rule(&format!("runs(1..{k})"));
        assert_eq!(ranged, rule(&format!("ruler({k})")));
        assert_eq!(ranged.to_string(), format!("ruler({k})"));
        let values = table(&format!("ruler({k})"), k);
        for (n, &value) in values.iter().enumerate().skip(1) {
            assert_eq!(value as usize, n & n.wrapping_neg(), "ruler({k}) coin {n}");
        }
    }
}

#[test]
fn run_lengths_print_back_as_they_parse() {
    for (spec, shown) in [
        ("runs(1..100)", "ruler(100)"),
        ("runs(1,2,3,4)", "ruler(4)"),
        ("runs(3,200)", "runs(3,200)"),
        ("runs(2..5)", "runs(2..5)"),
        ("runs(2..4)", "runs(2,3,4)"),
        ("runs(1..3,5..9)", "runs(1,2,3,5..9)"),
        ("runs(7, 5..6, 200..100000)", "runs(5,6,7,200..100000)"),
        ("runs(65)", "runs(65)"),
        ("runs(4..8,6..12)", "runs(4..12)"),
    ] {
        let parsed = rule(spec);
        assert_eq!(parsed.to_string(), shown, "{spec}");
        assert_eq!(rule(shown), parsed, "{shown} reads back");
    }
    for bad in [
        "runs(0,2)",
        "runs(5..2)",
        "runs(1..)",
        "runs(..3)",
        "runs(1..2..3)",
        "runs()",
        "runs(1,)",
        "runs(99999999999999999999)",
        "ruler(0)",
        "turn(65)",
    ] {
        assert!(
            matches!(bad.parse::<CoinRule>(), Err(Error::InvalidCoinRule { .. })),
            "{bad}"
        );
    }
    // A rule of runs names a coin game, not a take-and-break code.
    assert_eq!(
        grundy::spec::GameSpec::parse("runs(1..100)")
            .unwrap()
            .kind(),
        grundy::spec::SpecKind::Coins
    );
}

/// Whether the player to move wins a row of `coins` coins with heads
/// `heads` (bit `i` for coin `i + 1`), by trying every move: a run of an
/// allowed length whose rightmost coin is a head, every coin of it turned.
fn wins(
    heads: u32,
    coins: usize,
    allowed: &dyn Fn(usize) -> bool,
    memo: &mut Vec<Option<bool>>,
) -> bool {
    if let Some(known) = memo[heads as usize] {
        return known;
    }
    let mut found = false;
    for right in (1..=coins).filter(|&c| heads >> (c - 1) & 1 == 1) {
        for length in (1..=right).filter(|&l| allowed(l)) {
            let run = ((1u32 << length) - 1) << (right - length);
            if !wins(heads ^ run, coins, allowed, memo) {
                found = true;
                break;
            }
        }
        if found {
            break;
        }
    }
    memo[heads as usize] = Some(found);
    found
}

#[test]
fn whole_rows_are_won_as_the_nim_sum_of_their_heads_says() {
    const COINS: usize = 12;
    for (spec, ranges) in [
        ("runs(1,3..5)", &[(1usize, 1usize), (3, 5)][..]),
        ("runs(2..7,10)", &[(2, 7), (10, 10)][..]),
        ("ruler(9)", &[(1, 9)][..]),
    ] {
        let allowed = |l: usize| ranges.iter().any(|&(a, b)| a <= l && l <= b);
        let values = table(spec, COINS);
        let mut memo = vec![None; 1 << COINS];
        for heads in 0u32..1 << COINS {
            let nim_sum = (0..COINS)
                .filter(|i| heads >> i & 1 == 1)
                .fold(0, |sum, i| sum ^ values[i + 1]);
            assert_eq!(
                wins(heads, COINS, &allowed, &mut memo),
                nim_sum != 0,
                "{spec}, heads {heads:b}"
            );
        }
        // The winning moves a row lists leave nim-sum 0.
        let heads: Vec<usize> = vec![2, 5, 11, 12];
        let row = analyze_coins(&rule(spec), &heads, MEMORY, u64::MAX).unwrap();
        for m in &row.winning_moves {
            let sum: Nimber = m.also.iter().map(|&c| Nimber::new(values[c])).sum();
            assert_eq!(
                sum ^ Nimber::new(values[m.coin]) ^ row.nim_sum,
                Nimber::ZERO
            );
        }
    }
}

#[test]
fn long_runs_have_proven_periods_and_listed_work_is_counted() {
    // runs(3,200): the theorem's window reaches past coin 200, and the
    // period found there covers every coin.
    let long = rule("runs(3,200)");
    let found = long
        .proven_period(1 << 16, MEMORY, &mut |_| true)
        .unwrap()
        .expect("a proven period");
    assert!(found.last_coin_needed >= 200);
    let values = table("runs(3,200)", 5000);
    for n in found.periodicity.preperiod.max(1)..=5000 - found.periodicity.period {
        assert_eq!(values[n], values[n + found.periodicity.period], "coin {n}");
    }
    // A table of a million lengths to a million coins lists about 5 * 10^11
    // runs: refused before it starts.
    assert!(matches!(
        rule("runs(1..1000000)").table(1_000_000, &[], MEMORY, 1_000_000_000),
        Err(Error::WorkLimit { .. })
    ));
    // runs(3,10^9) lists two runs a coin at most, whatever the gap.
    assert!(
        rule("runs(3,1000000000)")
            .table(200_000, &[], MEMORY, 1_000_000)
            .is_ok()
    );
}
