//! The plot description every door draws: whole-number ticks, the period
//! it shades, and the rare/common split checked against its definition.

use grundy::report::{PlotDescription, ValueClass};
use grundy::session::{HeapRules, analyze_range};
use grundy::spec::{GameSpec, Question};
use grundy::{TableSolver, ValueTable};

fn described(game: &str, to: u64) -> (PlotDescription, ValueTable) {
    let rules = HeapRules::from_spec(
        &GameSpec::parse(game).unwrap(),
        Question::Plot,
        &Default::default(),
    )
    .unwrap();
    let found = analyze_range(
        &rules,
        ValueTable::new(),
        Some(to),
        None,
        &TableSolver::new(),
        &mut |_| true,
    )
    .unwrap();
    let values = found.values_to_end().unwrap();
    (PlotDescription::new(game.into(), &found), values)
}

#[test]
fn the_value_axis_is_labelled_at_whole_numbers() {
    // sub(1,2): values 0, 1, 2 (a plot once labelled them 0 0 1 2 2 2 3).
    let (description, _) = described("sub(1,2)", 100);
    assert_eq!(description.value_ticks, [0, 1, 2]);
    let period = description.period.unwrap();
    assert_eq!((period.preperiod, period.period), (0, 3));
    let (description, _) = described("grundy", 10_000);
    let ticks = &description.value_ticks;
    assert!(ticks.len() <= grundy::report::VALUE_TICKS);
    assert!(*ticks.last().unwrap() >= description.largest);
    let step = ticks[1] - ticks[0];
    assert!(ticks.windows(2).all(|w| w[1] - w[0] == step));
}

#[test]
fn rare_values_are_few_and_match_the_masks_parity() {
    let (description, values) = described("0.16", 20_000);
    let mask = description.rare_mask.expect("0.16 has rare values");
    let mut rare_heaps = 0u64;
    for v in values.iter() {
        let rare = (v.get() & mask).count_ones() % 2 == 0;
        let class = description.class_of(v);
        if v.is_zero() {
            assert_eq!(class, ValueClass::P);
        } else {
            assert_eq!(class == ValueClass::Rare, rare, "value {v}");
        }
        rare_heaps += u64::from(rare);
    }
    assert!(
        rare_heaps * 8 <= values.len() as u64,
        "{rare_heaps} rare heaps"
    );
    // The histogram's classes agree, and count every heap.
    let total: u64 = description.values.iter().map(|v| v.heaps).sum();
    assert_eq!(total, values.len() as u64);
    // No mask makes fewer heaps rare (by brute force over the masks).
    let top = description.largest.next_power_of_two() * 2;
    for other in 1..top {
        let heaps = values
            .iter()
            .filter(|v| (v.get() & other).count_ones() % 2 == 0)
            .count() as u64;
        assert!(heaps >= rare_heaps, "mask {other}: {heaps} < {rare_heaps}");
    }
    // Nim's values show no such split.
    assert_eq!(described("nim", 1000).0.rare_mask, None);
}
