//! The sparse-space solver against the dense one, and against published
//! value histograms at scale.

use grundy::solve::{Checkpoint, Engine, Pipeline, SparseSolver};
use grundy::{HeapGame, TableSolver, TakeBreak, ValueTable};
use proptest::prelude::*;

mod common;
use common::testdata;

fn sparse(code: &TakeBreak, to: u64) -> ValueTable {
    sparse_with(code, to, Pipeline::Off)
}

fn sparse_with(code: &TakeBreak, to: u64, pipeline: Pipeline) -> ValueTable {
    let mut values = ValueTable::new();
    SparseSolver::new(code)
        .expect("the method applies")
        .with_pipeline(pipeline)
        .extend(&mut values, to, &mut |_| true)
        .unwrap();
    values
}

/// Panics naming the first heap where two tables differ (a plain
/// `assert_eq!` would print both tables).
fn assert_same(got: &ValueTable, expected: &ValueTable, what: &str) {
    assert_eq!(got.len(), expected.len(), "{what}: lengths");
    if let Some(n) = (0..got.len()).find(|&n| got.at(n) != expected.at(n)) {
        panic!(
            "{what}: g({n}) is {}, expected {}",
            got.at(n),
            expected.at(n)
        );
    }
}

fn dense(code: &TakeBreak, to: u64) -> ValueTable {
    TableSolver::new()
        .with_engine(Engine::Dense)
        .values(&HeapGame::TakeBreak(code.clone()), to)
        .unwrap()
}

#[test]
fn trivial_games_agree_to_20000() {
    let table = testdata("octal/tczajka/TrivialGames.md");
    let mut checked = 0;
    for row in table.lines().filter(|l| l.contains('(')) {
        let code = row.split('|').next().unwrap().trim();
        let Ok(code) = code.parse::<TakeBreak>() else {
            continue;
        };
        let expected = dense(&code, 20_000);
        assert_same(&sparse(&code, 20_000), &expected, &code.to_string());
        let pipelined = sparse_with(&code, 20_000, Pipeline::Always);
        assert_same(&pipelined, &expected, &format!("{code}, two threads"));
        checked += 1;
    }
    assert_eq!(checked, 82);
}

/// Which engine `auto` ends on is decided by timing samples of both, so it
/// depends on the machine and its load (bench/engine_choice.sh measures
/// it); what a test can hold it to is the values, whichever engine it
/// picks, on games where each engine leads.
#[test]
fn auto_gives_the_values_of_the_forced_engines_and_forced_sparse_refuses_what_it_cannot_do() {
    for (code, to) in [("0.77", 50_000), ("0.137", 100_000), ("4!.0", 20_000)] {
        let game: HeapGame = code.parse().unwrap();
        let mut auto = ValueTable::new();
        TableSolver::new()
            .extend(&game, &mut auto, to, &mut |_| true)
            .unwrap();
        let dense = TableSolver::new()
            .with_engine(Engine::Dense)
            .values(&game, to)
            .unwrap();
        assert_same(&auto, &dense, &format!("{code} to {to}"));
    }
    let lasker: HeapGame = "lasker".parse().unwrap();
    let stats = TableSolver::new()
        .extend(&lasker, &mut ValueTable::new(), 100, &mut |_| true)
        .unwrap();
    assert!(stats.is_none(), "a closed form beats any search");
    let squares: HeapGame = "sub(squares)".parse().unwrap();
    let forced = TableSolver::new().with_engine(Engine::Sparse).extend(
        &squares,
        &mut ValueTable::new(),
        100,
        &mut |_| true,
    );
    assert!(forced.is_err());
}

#[test]
fn the_position_parity_split_is_found_where_it_pays() {
    // 0.106 has 15 rare heaps under the position-parity split, thousands
    // under any plain one (DESIGN.md; tczajka's SolvedGames lists .127 with
    // mask "1+pos" as well).
    for (game, rare) in [("0.106", 15), ("0.127", 693)] {
        let code: TakeBreak = game.parse().unwrap();
        let solver = SparseSolver::new(&code).unwrap();
        let mut values = ValueTable::new();
        let stats = solver.extend(&mut values, 60_000, &mut |_| true).unwrap();
        assert!(stats.position_parity, "{game}: {stats:?}");
        assert_eq!(stats.rare_count, rare, "{game}: {stats:?}");
        assert_same(&values, &dense(&code, 60_000), game);
    }
}

#[test]
fn grundys_game_agrees() {
    let code: TakeBreak = "4!.0".parse().unwrap();
    let expected = dense(&code, 20_000);
    assert_same(&sparse(&code, 20_000), &expected, "4!.0");
    let pipelined = sparse_with(&code, 20_000, Pipeline::Always);
    assert_same(&pipelined, &expected, "4!.0, two threads");
}

#[test]
fn two_threads_choose_the_masks_one_thread_does() {
    // Each committing thread counts the values it commits on its own and
    // the counts meet when a block ends; the masks, chosen from the counts
    // at every doubling, show whether they met whole.
    for code in ["0.6", "0.161", "0.376", "0.07"] {
        let code: TakeBreak = code.parse().unwrap();
        let stats = |pipeline| {
            let mut values = ValueTable::new();
            let stats = SparseSolver::new(&code)
                .unwrap()
                .with_pipeline(pipeline)
                .extend(&mut values, 1 << 15, &mut |_| true)
                .unwrap();
            (stats.mask, stats.mask_choices, stats.rare_count, values)
        };
        let (one, two) = (stats(Pipeline::Off), stats(Pipeline::Always));
        assert_eq!((one.0, one.1, one.2), (two.0, two.1, two.2), "{code}");
        assert_same(&two.3, &one.3, &code.to_string());
    }
}

#[test]
fn two_threads_agree_where_both_options_are_deferred_and_the_table_widens() {
    // 4.777...: heap n + 1 reaches heap n both by taking one token and by
    // the split (1, n); values pass 255, so the table widens mid-run.
    for code in [
        "4.7777777777777777777777777777777777",
        "0.7777777777777777777777777777777777777777",
    ] {
        let code: TakeBreak = code.parse().unwrap();
        let pipelined = sparse_with(&code, 3000, Pipeline::Always);
        assert!(pipelined.width() == 2, "{code} widens");
        assert_same(&pipelined, &dense(&code, 3000), &code.to_string());
    }
}

/// Officers' values pass 255 at heap 10,344 (256) and stay below 512 (319
/// at heap 1,274,955 is the largest to 2^22), its rare heaps (1,583 to
/// 2^22) all below heap 20,628: a table filled value by value keeps them
/// folded to a byte a heap, reads them back, and the sparse engine goes on
/// from it as from the two-byte table.
#[test]
fn officers_values_past_255_stay_at_a_byte_a_heap() {
    let code: TakeBreak = "0.6".parse().unwrap();
    let wide = sparse(&code, 1_400_000);
    assert_eq!(wide.width(), 2);
    assert!(wide.iter().take(10_344).all(|v| v.get() < 256));
    assert_eq!(wide.at(10_344).get(), 256);
    assert_eq!(wide.at(1_274_955).get(), 319);
    let mut folded: ValueTable = wide.iter().take(1_300_000).collect();
    assert!(matches!(folded.as_slice(), grundy::ValueSlice::Folded(_)));
    assert_eq!(folded.width(), 1);
    assert!(folded.iter().eq(wide.iter().take(1_300_000)));
    SparseSolver::new(&code)
        .unwrap()
        .extend(&mut folded, 1_400_000, &mut |_| true)
        .unwrap();
    assert_same(&folded, &wide, "0.6 resumed from a folded table");
}

#[test]
fn two_threads_stop_when_asked_and_resume_exactly() {
    let code: TakeBreak = "4!.0".parse().unwrap();
    let solver = SparseSolver::new(&code)
        .unwrap()
        .with_pipeline(Pipeline::Always);
    let mut values = ValueTable::new();
    let stopped = solver.extend(&mut values, 20_000, &mut |n| n < 9000);
    assert!(matches!(stopped, Err(grundy::Error::Interrupted { .. })));
    assert!(values.len() >= 9000 && values.len() < 20_001);
    solver.extend(&mut values, 20_000, &mut |_| true).unwrap();
    assert_same(&values, &dense(&code, 20_000), "4!.0 stopped and resumed");
}

#[test]
fn extending_in_steps_equals_one_run() {
    let code: TakeBreak = "0.165".parse().unwrap();
    let solver = SparseSolver::new(&code).unwrap();
    let mut stepped = ValueTable::new();
    for to in [0, 5, 700, 1500, 9000] {
        solver.extend(&mut stepped, to, &mut |_| true).unwrap();
    }
    assert_same(&stepped, &dense(&code, 9000), "0.165 in steps");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_codes_agree(d0 in prop_oneof![Just(0u8), Just(4u8)],
                          digits in prop::collection::vec(0u8..8, 1..5),
                          unequal in any::<bool>()) {
        let rest: String = digits.iter().map(|d| d.to_string()).collect();
        let mark = if unequal && d0 == 4 { "!" } else { "" };
        let code: TakeBreak = format!("{d0}{mark}.{rest}").parse().unwrap();
        let expected = dense(&code, 3000);
        // Five threads on a machine with fewer cores: workers are
        // descheduled mid-heap, so heaps are taken over and late answers
        // arrive after their heap is committed. A table of two-byte cells
        // from the start has its scans test folded bytes (every value is
        // below 512).
        for (pipeline, threads) in [(Pipeline::Off, 1), (Pipeline::Always, 2), (Pipeline::Always, 5)] {
            for width in [1, 2] {
                let mut got = ValueTable::new();
                if width == 2 {
                    got.push(grundy::Nimber::new(256));
                    got.truncate(0);
                }
                SparseSolver::new(&code)
                    .expect("the method applies")
                    .with_pipeline(pipeline)
                    .with_threads(threads)
                    .extend(&mut got, 3000, &mut |_| true)
                    .unwrap();
                prop_assert!(got.width() >= width);
                let first_difference = (0..got.len()).find(|&n| got.at(n) != expected.at(n));
                prop_assert_eq!(first_difference, None, "{} {:?} {} threads, width {}", code, pipeline, threads, width);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Tables long enough for scans to probe pairs far from `a = 1` first
    /// (the heaps that try the candidates: probes from `a = 257` to
    /// `4097`), on one thread and on two.
    #[test]
    fn random_codes_agree_where_scans_probe(digits in prop::collection::vec(0u8..8, 1..4),
                                            unequal in any::<bool>()) {
        let rest: String = digits.iter().map(|d| d.to_string()).collect();
        let mark = if unequal { "!" } else { "" };
        let code: TakeBreak = format!("4{mark}.{rest}").parse().unwrap();
        let expected = dense(&code, 14_000);
        for pipeline in [Pipeline::Off, Pipeline::Always] {
            let got = sparse_with(&code, 14_000, pipeline);
            let first_difference = (0..got.len()).find(|&n| got.at(n) != expected.at(n));
            prop_assert_eq!(first_difference, None, "{} {:?}", code, pipeline);
        }
    }
}

/// `value count` lines over heaps 1..=N, as published.
fn published_histogram(game: &str, heaps: u64) -> Vec<(u32, u64)> {
    testdata(&format!("octal/rogalski/histograms/{game}/{heaps}"))
        .lines()
        .map(|line| {
            let mut cells = line.split_whitespace();
            let mut next = || cells.next().unwrap().parse::<u64>().unwrap();
            (next() as u32, next())
        })
        .filter(|&(_, count)| count > 0)
        .collect()
}

#[test]
fn histograms_to_2_20_match_rogalski() {
    for game in ["0.161", "0.014", "0.034", "0.167", "0.172"] {
        let code: TakeBreak = game.parse().unwrap();
        let values = sparse(&code, 1 << 20);
        let mut counts = std::collections::BTreeMap::new();
        for v in values.iter().skip(1) {
            *counts.entry(v.get()).or_insert(0u64) += 1;
        }
        let counts: Vec<(u32, u64)> = counts.into_iter().collect();
        assert_eq!(counts, published_histogram(game, 1 << 20), "{game}");
    }
}

#[test]
fn an_interrupted_run_resumes_to_the_same_table() {
    let dir = std::env::temp_dir().join(format!("grundy-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (game, engine) in [("0.354", Engine::Sparse), ("0.137", Engine::Dense)] {
        let code: HeapGame = game.parse().unwrap();
        let path = dir.join(format!("{game}.ckpt"));
        let solver = TableSolver::new().with_engine(engine).with_checkpoint(
            path.clone(),
            game.to_owned(),
            std::time::Duration::from_secs(60),
        );
        let mut values = ValueTable::new();
        // Stop from inside the run, as Ctrl-C does.
        let stopped = solver.extend(&code, &mut values, 200_000, &mut |n| n < 100_000);
        assert!(
            matches!(stopped, Err(grundy::Error::Interrupted { .. })),
            "{game}"
        );
        let saved = Checkpoint::load(&path).unwrap();
        assert_eq!(saved.values, values, "{game}: what was finished is saved");
        assert!(saved.values.len() >= 100_000 && saved.values.len() < 200_001);
        let mut resumed = saved.values;
        solver
            .extend(&code, &mut resumed, 200_000, &mut |_| true)
            .unwrap();
        let direct = TableSolver::new()
            .with_engine(engine)
            .values(&code, 200_000)
            .unwrap();
        assert_same(&resumed, &direct, game);
        assert_eq!(Checkpoint::load(&path).unwrap().values, direct);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
