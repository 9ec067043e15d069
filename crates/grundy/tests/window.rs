//! Issue 18: the windowed sparse engine against the full-table one, and its
//! value stream (checksums, damage, resuming).

use std::path::{Path, PathBuf};
use std::time::Duration;

use grundy::analysis::PeriodWindow;
use grundy::solve::{
    Pipeline, SparseSolver, ValueStream, WindowOptions, WindowOutcome, WindowSizes,
};
use grundy::{TakeBreak, ValueTable};
use proptest::prelude::*;

/// A scratch directory for one test, removed when it ends.
struct Scratch(PathBuf);

impl Scratch {
    fn new(test: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("grundy-window-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn file(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Tiny windows, so that a few thousand heaps drop their tail, scan past
/// the front and the tail, and read the stream back in several pieces.
const TINY: WindowSizes = WindowSizes {
    front: 40,
    keep: 100,
    far: 256,
};

fn options(game: &str, stream: &Path, sizes: WindowSizes) -> WindowOptions {
    WindowOptions {
        width: 1,
        widen: false,
        game: game.to_owned(),
        stream: stream.to_owned(),
        checkpoint: None,
        resume: false,
        memory_limit: 1 << 30,
        sizes,
        threads: 1,
    }
}

fn windowed(code: &TakeBreak, to: u64, options: &WindowOptions) -> WindowOutcome {
    SparseSolver::new(code)
        .unwrap()
        .extend_windowed(to, options, &mut |_| true)
        .unwrap()
}

fn full(code: &TakeBreak, to: u64) -> ValueTable {
    let mut values = ValueTable::new();
    SparseSolver::new(code)
        .unwrap()
        .extend(&mut values, to, &mut |_| true)
        .unwrap();
    values
}

/// The counts of heaps `1..` of a table.
fn histogram(values: &ValueTable) -> Vec<u64> {
    let mut counts = vec![0u64; values.max().map_or(0, |m| m.get() as usize + 1)];
    for v in values.iter().skip(1) {
        counts[v.get() as usize] += 1;
    }
    counts
}

/// The first heap where the stream and the table differ, if any.
fn first_difference(stream: &Path, values: &ValueTable) -> Option<usize> {
    let read = ValueStream::open(stream).unwrap();
    assert_eq!(read.heaps, values.len() as u64);
    let got = read.values(0, read.heaps - 1).unwrap();
    (0..values.len()).find(|&n| got[n] != values.at(n).get())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    /// Also at two bytes a value where one would do: two-byte values
    /// below 512 are scanned and gathered through their folded bytes.
    fn windowed_runs_equal_full_tables_on_random_codes(
        d0 in prop_oneof![Just(0u8), Just(4u8)],
        digits in prop::collection::vec(0u8..8, 1..5),
        unequal in any::<bool>(),
        wide in any::<bool>(),
    ) {
        let rest: String = digits.iter().map(|d| d.to_string()).collect();
        let mark = if unequal && d0 == 4 { "!" } else { "" };
        let code: TakeBreak = format!("{d0}{mark}.{rest}").parse().unwrap();
        let expected = full(&code, 3000);
        // Windowed runs store one or two bytes per value.
        prop_assume!(expected.width() <= 2);
        let scratch = Scratch::new(&format!("random-{code}"));
        let stream = scratch.file("values");
        let mut options = options(&code.to_string(), &stream, TINY);
        options.width = if wide { 2 } else { expected.width() as u8 };
        let outcome = windowed(&code, 3000, &options);
        prop_assert_eq!(first_difference(&stream, &expected), None, "{}", code);
        let mut counts = outcome.histogram.clone();
        while counts.last() == Some(&0) { counts.pop(); }
        prop_assert_eq!(counts, histogram(&expected), "{}", code);
    }
}

#[test]
fn grundys_game_windowed_equals_the_full_table_and_reads_far_values_back() {
    let code: TakeBreak = "4!.0".parse().unwrap();
    let scratch = Scratch::new("grundy");
    let stream = scratch.file("values");
    let outcome = windowed(&code, 12_000, &options("4!.0", &stream, TINY));
    let expected = full(&code, 12_000);
    assert_eq!(first_difference(&stream, &expected), None);
    assert!(
        outcome.far_scans > 0 && outcome.values_read > 0,
        "{outcome:?}"
    );
    // The same run with the default window never leaves memory.
    let near = windowed(
        &code,
        12_000,
        &options("4!.0", &stream, WindowSizes::default()),
    );
    assert_eq!(near.far_scans, 0);
    assert_eq!(
        (near.root, near.histogram),
        (outcome.root, outcome.histogram)
    );
}

#[test]
fn the_stream_reads_back_its_histogram_and_refuses_damage() {
    let code: TakeBreak = "0.167".parse().unwrap();
    let scratch = Scratch::new("damage");
    let path = scratch.file("values");
    // Three chunks of 2^16 heaps, the last one short.
    let outcome = windowed(
        &code,
        150_000,
        &options("0.167", &path, WindowSizes::default()),
    );
    let stream = ValueStream::open(&path).unwrap();
    assert_eq!(
        (stream.game.as_str(), stream.heaps, stream.chunks()),
        ("0.167", 150_001, 3)
    );
    assert_eq!(stream.root, outcome.root);
    let mut counts = stream.histogram(150_000).unwrap();
    counts.resize(outcome.histogram.len(), 0);
    assert_eq!(counts, outcome.histogram);
    let clean = std::fs::read(&path).unwrap();
    let refused = |bytes: &[u8]| -> String {
        std::fs::write(&path, bytes).unwrap();
        match ValueStream::open(&path).and_then(|s| s.histogram(u64::MAX)) {
            Err(grundy::Error::Stream { reason, .. }) => reason,
            other => panic!("damage not refused: {other:?}"),
        }
    };
    for at in [10, clean.len() / 2, clean.len() - 20, clean.len() - 1] {
        let mut bytes = clean.clone();
        bytes[at] ^= 0x04;
        let reason = refused(&bytes);
        assert!(
            reason.contains("damaged")
                || reason.contains("not a value stream")
                || reason.contains("root")
                || reason.contains("truncated"),
            "byte {at}: {reason}"
        );
    }
    for len in [0, 30, clean.len() - 16, clean.len() - 1] {
        assert!(!refused(&clean[..len]).is_empty(), "{len} bytes");
    }
    // Cut among its values, as a run that stopped leaves it: refused as
    // unfinished, not with a heap count read from the values.
    let cut = refused(&clean[..clean.len() / 2]);
    assert!(cut.contains("did not finish"), "{cut}");
    // A root checksum that is not the chunks' is refused by a read of
    // any part, not only by one of every chunk.
    let mut bytes = clean.clone();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x01;
    std::fs::write(&path, &bytes).unwrap();
    let stream = ValueStream::open(&path).unwrap();
    for read in [
        stream.values(0, 10),
        stream.histogram(100).map(|_| Vec::new()),
    ] {
        match read {
            Err(grundy::Error::Stream { reason, .. }) => {
                assert!(reason.contains("root"), "{reason}")
            }
            other => panic!("a wrong root not refused: {other:?}"),
        }
    }
}

#[test]
fn a_two_byte_run_whose_values_pass_512_drops_its_folded_bytes() {
    // 0.6045's values pass 512 within 3000 heaps: the folded bytes kept
    // while they were below it must end there, not fold a value past it.
    let code: TakeBreak = "0.6045".parse().unwrap();
    let expected = full(&code, 3000);
    assert!(expected.iter().any(|v| v.get() >= 512));
    let scratch = Scratch::new("past-512");
    let stream = scratch.file("values");
    let mut options = options("0.6045", &stream, TINY);
    options.width = 2;
    windowed(&code, 3000, &options);
    assert_eq!(first_difference(&stream, &expected), None);
}

#[test]
fn a_game_whose_rare_heaps_are_not_sparse_is_refused_by_the_window_s_limit() {
    // Dawson's Kayles: about a third of the heaps are rare, so past the
    // tiny tail every new rare heap needs a reader of its own.
    let code: TakeBreak = "0.07".parse().unwrap();
    let scratch = Scratch::new("not-sparse");
    let mut options = options("0.07", &scratch.file("values"), TINY);
    options.memory_limit = 1 << 20;
    let refused = SparseSolver::new(&code)
        .unwrap()
        .extend_windowed(20_000, &options, &mut |_| true);
    match refused {
        Err(e @ grundy::Error::MemoryLimit { .. }) => {
            let text = e.to_string();
            assert!(
                text.contains("rare heaps past its tail")
                    && text.contains("over the limit of 1,048,576 bytes"),
                "{text}"
            );
        }
        other => panic!("not refused: {other:?}"),
    }
}

#[test]
fn a_run_whose_rare_heaps_are_not_sparse_is_refused_at_heap_2_16_not_at_its_limit() {
    // Dawson's Kayles to 2^21 with the default window (a tail of 2^20
    // heaps): a third of the heaps are rare, so the run would meet the
    // limit near heap 1.8M, the heaps before it each gathering over all the
    // rare heaps before them. Foreseen at heap 2^16.
    let code: TakeBreak = "0.07".parse().unwrap();
    let scratch = Scratch::new("foreseen");
    let options = options("0.07", &scratch.file("values"), WindowSizes::default());
    let mut last = 0;
    let refused =
        SparseSolver::new(&code)
            .unwrap()
            .extend_windowed(1 << 21, &options, &mut |report| {
                last = report.heaps;
                true
            });
    match refused {
        Err(e @ grundy::Error::MemoryLimit { .. }) => {
            let text = e.to_string();
            assert!(text.contains("of heaps 32768..65536 are rare"), "{text}");
            assert!(
                text.contains("5.2 GiB") && text.contains("1.0 GiB"),
                "{text}"
            );
        }
        other => panic!("not refused: {other:?}"),
    }
    assert!(last <= 1 << 16, "refused only at heap {last}");
}

#[test]
fn an_interrupted_windowed_run_resumes_to_the_same_stream() {
    let code: TakeBreak = "4!.0".parse().unwrap();
    let scratch = Scratch::new("resume");
    let stream = scratch.file("values");
    let whole = windowed(&code, 15_000, &options("4!.0", &stream, TINY));
    let mut resumable = options("4!.0", &stream, TINY);
    resumable.checkpoint = Some((scratch.file("window.ckpt"), Duration::from_secs(3600)));
    let solver = SparseSolver::new(&code).unwrap();
    // Stopped three times, as Ctrl-C does, each resumed from its checkpoint.
    for stop in [4_000, 8_000, 12_000] {
        let stopped = solver.extend_windowed(15_000, &resumable, &mut |p| p.heaps < stop);
        assert!(
            matches!(stopped, Err(grundy::Error::Interrupted { .. })),
            "{stopped:?}"
        );
        resumable.resume = true;
    }
    let resumed = solver
        .extend_windowed(15_000, &resumable, &mut |_| true)
        .unwrap();
    assert_eq!(resumed.root, whole.root);
    assert_eq!(resumed.histogram, whole.histogram);
    assert_eq!(ValueStream::open(&stream).unwrap().root, whole.root);
}

#[test]
fn a_value_past_the_width_is_refused_and_two_bytes_hold_it() {
    // 0.034 reaches 256 at heap 26376.
    let code: TakeBreak = "0.034".parse().unwrap();
    let scratch = Scratch::new("wide");
    let stream = scratch.file("values");
    let mut narrow = options("0.034", &stream, WindowSizes::default());
    let refused = SparseSolver::new(&code)
        .unwrap()
        .extend_windowed(30_000, &narrow, &mut |_| true);
    assert!(
        matches!(
            refused,
            Err(grundy::Error::ValueTooWide {
                heap: 26_376,
                value: 256,
                width: 1
            })
        ),
        "{refused:?}"
    );
    narrow.width = 2;
    windowed(&code, 30_000, &narrow);
    assert_eq!(first_difference(&stream, &full(&code, 30_000)), None);
}

#[test]
fn a_run_that_widens_writes_the_two_byte_stream_and_resumes_across_the_widening() {
    // 0.014 reaches 256 at heap 11058.
    let code: TakeBreak = "0.014".parse().unwrap();
    let scratch = Scratch::new("widen");
    let mut two_bytes = options("0.014", &scratch.file("wide-from-the-start"), TINY);
    two_bytes.width = 2;
    let expected = windowed(&code, 16_000, &two_bytes);
    let stream = scratch.file("values");
    let mut widening = options("0.014", &stream, TINY);
    widening.widen = true;
    let whole = windowed(&code, 16_000, &widening);
    assert_eq!(
        (whole.root, whole.width, &whole.histogram),
        (expected.root, 2, &expected.histogram)
    );
    assert_eq!(first_difference(&stream, &full(&code, 16_000)), None);
    // Stopped before the widening (at heap 8192) and after it (12288)...
    let solver = SparseSolver::new(&code).unwrap();
    widening.checkpoint = Some((scratch.file("window.ckpt"), Duration::from_secs(3600)));
    let narrow = scratch.file("narrow-copy");
    for stop in [8_000, 12_000] {
        let stopped = solver.extend_windowed(16_000, &widening, &mut |p| p.heaps < stop);
        assert!(
            matches!(stopped, Err(grundy::Error::Interrupted { .. })),
            "{stopped:?}"
        );
        if stop == 8_000 {
            std::fs::copy(&stream, &narrow).unwrap();
        }
        widening.resume = true;
    }
    // ...then put as a run killed between saving the widened checkpoint and
    // renaming the widened stream over the narrow one leaves them.
    let pending = scratch.file("values.wide");
    std::fs::rename(&stream, &pending).unwrap();
    std::fs::copy(&narrow, &stream).unwrap();
    let resumed = solver
        .extend_windowed(16_000, &widening, &mut |_| true)
        .unwrap();
    assert!(!pending.exists());
    assert_eq!(
        (resumed.root, resumed.width, &resumed.histogram),
        (expected.root, 2, &expected.histogram)
    );
    assert_eq!(ValueStream::open(&stream).unwrap().root, expected.root);
}

/// The analysis report of `code` to heap `to` (adaptively when `None`):
/// by the full table of the sparse engine, and by a windowed run with tiny
/// windows searching its last `period_window` heaps for a period, without
/// the windowed run's own fields.
fn both_reports(
    code: &str,
    to: Option<u64>,
    period_window: PeriodWindow,
) -> (serde_json::Value, serde_json::Value) {
    use grundy::analysis::{Limits, analyze, analyze_record};
    use grundy::report::AnalysisReport;
    let game: grundy::HeapGame = code.parse().unwrap();
    // Every heap, as the windowed run's stream holds every value.
    let limits = Limits {
        to,
        tabulate: true,
        ..Limits::default()
    };
    // The sparse engine on one thread, whose statistics the windowed run's
    // must equal (a second thread's speculative scans count apart).
    let solver = grundy::TableSolver::new()
        .with_engine(grundy::solve::Engine::Sparse)
        .with_threads(1);
    let table = analyze(&game, &limits, &solver, &mut |_| true).unwrap();
    let full = serde_json::to_value(AnalysisReport::new(code, &table)).unwrap();
    let scratch = Scratch::new(&format!("period-{code}-{to:?}-{}", period_window.first()));
    let stream = scratch.file("values");
    let record = analyze_record(
        &game,
        &limits,
        &options(&game.to_string(), &stream, TINY),
        period_window,
        &mut |_| true,
    )
    .unwrap();
    // An adaptive run leaves no scratch checkpoint behind.
    assert_eq!(std::fs::read_dir(&scratch.0).unwrap().count(), 1);
    let mut windowed =
        serde_json::to_value(AnalysisReport::of_record(code, &record, None)).unwrap();
    let own = windowed.as_object_mut().unwrap().remove("record").unwrap();
    let searched = own["period_window"].as_u64().unwrap() as usize;
    match period_window {
        PeriodWindow::Fixed(heaps) => assert_eq!(searched, heaps.min(record.computed_to() + 1)),
        PeriodWindow::Growing(heaps) => assert!(searched >= heaps.min(record.computed_to() + 1)),
    }
    let mut full = full;
    assert_eq!(
        full.as_object_mut().unwrap().remove("record"),
        Some(serde_json::Value::Null)
    );
    (full, windowed)
}

/// [`both_reports`], which must be equal: the windowed one. The pairs the
/// scans counted may differ: each run's scans probe pairs from a point it
/// learns by timing its own heaps (see `solve/probe.rs`).
fn same_reports(code: &str, to: Option<u64>, period_window: PeriodWindow) -> serde_json::Value {
    let (full, windowed) = both_reports(code, to, period_window);
    let differ: Vec<String> = full
        .as_object()
        .unwrap()
        .iter()
        .filter(|&(key, _)| key != "sparse_scan_pairs")
        .filter(|&(key, value)| windowed.get(key) != Some(value))
        .map(|(key, value)| format!("{key}: {value} (windowed: {:?})", windowed.get(key)))
        .collect();
    assert!(differ.is_empty(), "{code} to {to:?}: {differ:#?}");
    windowed
}

/// Issue 18: windowed runs find, check and prove periods in bounded memory.
/// Their period window (the last heaps searched) is far shorter than the
/// pre-period, so the pre-period is found by the pass over the stream.
#[test]
fn windowed_runs_find_and_prove_the_full_tables_periods() {
    // Code, last heap, period window; pre-period and period from
    // testdata/octal/periods.tsv. 0.127 runs under the position-parity
    // split.
    for (code, to, period_window, n0, p) in [
        ("0.77", 300, 64, 71, 12),
        ("0.156", 8_000, 1_024, 3_479, 349),
        ("0.165", 14_000, 4_096, 5_181, 1_550),
        ("0.127", 95_000, 256, 46_578, 4),
    ] {
        let windowed = same_reports(code, Some(to), PeriodWindow::Fixed(period_window));
        assert_eq!(
            (
                &windowed["support"],
                &windowed["preperiod"],
                &windowed["period"]
            ),
            (&"theorem".into(), &n0.into(), &p.into()),
            "{code}"
        );
    }
}

#[test]
fn windowed_runs_report_observed_periods_and_none_as_full_tables_do() {
    // 0.165 to 12000: the period shows, its proof needs g(0..=13464).
    let windowed = same_reports("0.165", Some(12_000), PeriodWindow::Fixed(4_096));
    assert_eq!(
        (&windowed["support"], &windowed["heaps_needed_for_proof"]),
        (&"observed".into(), &13_464.into())
    );
    // Grundy's game has no period (and no theorem) in range.
    let windowed = same_reports("4!.0", Some(6_000), PeriodWindow::Fixed(2_048));
    assert_eq!(windowed["support"], "none");
    // A window shorter than two periods cannot see 0.165's 1550: none,
    // where the full table proves it (so the reports differ).
    let (full, windowed) = both_reports("0.165", Some(14_000), PeriodWindow::Fixed(3_000));
    assert_eq!(full["support"], "theorem");
    assert_eq!(
        (
            &windowed["support"],
            &windowed["period"],
            &windowed["exceptions"]
        ),
        (
            &"none".into(),
            &serde_json::Value::Null,
            &serde_json::json!([])
        )
    );
}

/// Without `--to`, a windowed analysis takes the full table's steps and
/// stops where it does, at the first proof (each step going on from the
/// last one's checkpoint).
#[test]
fn adaptive_windowed_runs_stop_where_full_tables_do() {
    for (code, period_window) in [("0.77", 64), ("0.156", 1_024)] {
        let windowed = same_reports(code, None, PeriodWindow::Fixed(period_window));
        assert_eq!(windowed["support"], "theorem", "{code}");
    }
}

/// An adaptive windowed run stopped mid-step (as Ctrl-C stops it) goes on
/// from its checkpoint and proves the same period.
#[test]
fn an_interrupted_adaptive_windowed_run_resumes_and_proves_the_period() {
    use grundy::analysis::{Limits, analyze_record};
    let game: grundy::HeapGame = "0.156".parse().unwrap();
    let scratch = Scratch::new("adaptive-resume");
    let mut options = options("0.156", &scratch.file("values"), TINY);
    options.checkpoint = Some((scratch.file("window.ckpt"), Duration::from_secs(3600)));
    let limits = Limits::default();
    let window = PeriodWindow::Fixed(1_024);
    let stopped = analyze_record(&game, &limits, &options, window, &mut |p| p.heaps < 5_000);
    assert!(
        matches!(stopped, Err(grundy::Error::Interrupted { .. })),
        "{stopped:?}"
    );
    options.resume = true;
    let resumed = analyze_record(&game, &limits, &options, window, &mut |_| true).unwrap();
    let found = resumed.claim.periodicity.unwrap();
    assert!(resumed.claim.is_proven());
    assert_eq!((found.preperiod, found.period), (3_479, 349));
}

/// Issue 53: a growing period window (the default) doubles while it shows
/// no period and the theorem could prove a longer one, so it finds the
/// periods a fixed window half their length misses, and the reports equal
/// the full table's, to a range and adaptively.
#[test]
fn a_growing_period_window_finds_periods_longer_than_its_first_size() {
    for (code, to, first, n0, p) in [
        ("0.165", Some(14_000), 64, 5_181, 1_550),
        ("0.156", Some(8_000), 16, 3_479, 349),
        ("0.77", None, 4, 71, 12),
        ("0.156", None, 32, 3_479, 349),
    ] {
        let windowed = same_reports(code, to, PeriodWindow::Growing(first));
        assert_eq!(
            (
                &windowed["support"],
                &windowed["preperiod"],
                &windowed["period"]
            ),
            (&"theorem".into(), &n0.into(), &p.into()),
            "{code} to {to:?}"
        );
    }
    // No period to find, no theorem: the window stays as it was.
    let windowed = same_reports("4!.0", Some(6_000), PeriodWindow::Growing(2_048));
    assert_eq!(windowed["support"], "none");
}

/// The analysis of `code` through the front door, windowed or by a full
/// table, with its certificate.
fn certified(code: &str, window: bool) -> grundy::analysis::Certificate {
    use grundy::session::{AnalyzeQuery, HeapRules, RecordQuery, analyze};
    use grundy::spec::{GameSpec, Question};
    let game = HeapRules::from_spec(
        &GameSpec::parse(code).unwrap(),
        Question::Analyze,
        &Default::default(),
    )
    .unwrap();
    let query = AnalyzeQuery {
        certificate: true,
        record: RecordQuery {
            window,
            ..RecordQuery::default()
        },
        ..AnalyzeQuery::default()
    };
    let found = analyze(&game, &query, &grundy::TableSolver::new(), &mut |_| true).unwrap();
    assert_eq!(
        matches!(found.answer, grundy::session::AnalyzeAnswer::Record(_)),
        window
    );
    found.certificate.expect("a certificate")
}

/// Issue 53: a windowed run's certificate, its values read back from the
/// stream, is the full table's, and the checker accepts it.
#[test]
fn a_windowed_run_writes_the_full_tables_certificate() {
    for code in ["0.77", "0.156", "0.137", "0.165"] {
        let windowed = certified(code, true);
        assert_eq!(windowed, certified(code, false), "{code}");
        if windowed.last_heap_needed < 10_000 {
            windowed.check().unwrap();
        }
    }
}

/// A stream of `values`, of a game the windowed engine does not compute,
/// written at `path`.
fn write_stream(path: &Path, game: &str, values: impl IntoIterator<Item = u32>) {
    let mut writer = grundy::solve::StreamWriter::create(path, game, 1).unwrap();
    for v in values {
        writer.push(v).unwrap();
    }
    writer.finish().unwrap();
}

/// A stream written with reads back and syncs between its values (each
/// hands what is pending to the file: whole chunks with their checksums,
/// four at a time, and the rest of a chunk hashed so far) is the stream
/// written without them, byte for byte, and verifies.
#[test]
fn a_stream_is_the_same_whatever_reads_back_and_syncs_come_between() {
    use grundy::session::stream_verify;
    let scratch = Scratch::new("writer-drains");
    let chunk = grundy::solve::CHUNK_HEAPS as u64;
    let heaps = 9 * chunk + 1234;
    let value = |n: u64| ((n * 2_654_435_761) >> 7) as u32 % 200;
    let plain = scratch.file("plain.values");
    write_stream(&plain, "nim", (0..heaps).map(value));
    let drained = scratch.file("drained.values");
    let mut writer = grundy::solve::StreamWriter::create(&drained, "nim", 1).unwrap();
    let drains = [
        1,
        chunk - 1,
        chunk + 5,
        2 * chunk,
        6 * chunk,
        6 * chunk + 7,
        7 * chunk + 3,
    ];
    let mut back = Vec::new();
    for n in 0..heaps {
        if drains.contains(&n) {
            if n % 2 == 0 {
                writer.sync().unwrap();
            } else {
                writer.read(n / 2, n, &mut back).unwrap();
                let expected: Vec<u8> = (n / 2..n).map(|k| value(k) as u8).collect();
                assert_eq!(back, expected, "read back at {n}");
            }
        }
        writer.push(value(n)).unwrap();
    }
    writer.finish().unwrap();
    assert!(std::fs::read(&plain).unwrap() == std::fs::read(&drained).unwrap());
    let report = stream_verify(&drained, None, None, &mut |_| true).unwrap();
    assert_eq!(report.heaps, heaps);
}

/// Issue 53: `stream verify` checks every chunk against its checksum and
/// the root without computing anything (so it checks a stream of a game
/// the engine does not compute), names the damaged chunk, and recomputes
/// only when asked.
#[test]
fn stream_verify_checks_checksums_without_recomputing() {
    use grundy::session::{RecomputeQuery, stream_verify};
    let scratch = Scratch::new("verify-checksums");
    let path = scratch.file("nim.values");
    let chunk = grundy::solve::CHUNK_HEAPS;
    // Five chunks: four checked together, then one alone.
    write_stream(&path, "nim", (0..5 * chunk as u32).map(|n| n % 251));
    let mut heard = Vec::new();
    let report = stream_verify(&path, None, None, &mut |heaps| {
        heard.push(heaps);
        true
    })
    .unwrap();
    assert_eq!(
        (report.checked, report.recomputed, report.heaps),
        ([0, 5], None, 5 * chunk as u64)
    );
    assert_eq!(heard.last(), Some(&(5 * chunk as u64)));
    let recompute = RecomputeQuery {
        memory_limit: 1 << 30,
        from: None,
    };
    let refused = stream_verify(&path, None, Some(recompute), &mut |_| true);
    assert!(
        matches!(&refused, Err(grundy::Error::Stream { reason, .. }) if reason.contains("not a game")),
        "{refused:?}"
    );
    // One byte of chunk 2 changed: that chunk is refused, by name; chunks
    // 0 and 1 alone still check (the root from the checksums the chunks
    // store).
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 4;
    std::fs::write(&path, &bytes).unwrap();
    let damaged = stream_verify(&path, None, None, &mut |_| true);
    assert!(
        matches!(&damaged, Err(grundy::Error::Stream { reason, .. }) if reason.contains("(chunk 2) are damaged")),
        "{damaged:?}"
    );
    stream_verify(&path, Some(0..2), None, &mut |_| true).unwrap();
}

/// Issue 53: `stream verify --recompute --from CHECKPOINT` goes on from a
/// checkpoint the run saved, and finds a value the run wrote wrong (with
/// checksums that match it, which the checksums alone cannot find).
#[test]
fn stream_verify_recomputes_from_a_checkpoint() {
    use grundy::session::{RecomputeQuery, stream_verify};
    let code: TakeBreak = "0.161".parse().unwrap();
    let scratch = Scratch::new("verify-checkpoint");
    let stream = scratch.file("values");
    // The recomputation's window is the default one: so is the run's.
    let mut run = options("0.161", &stream, WindowSizes::default());
    run.checkpoint = Some((scratch.file("ckpt"), Duration::from_secs(3600)));
    let chunk = grundy::solve::CHUNK_HEAPS as u64;
    windowed(&code, chunk + 999, &run);
    let kept = scratch.file("ckpt.at");
    std::fs::copy(scratch.file("ckpt"), &kept).unwrap();
    run.resume = true;
    windowed(&code, 3 * chunk - 1, &run);
    let recompute = |from: Option<PathBuf>| {
        Some(RecomputeQuery {
            memory_limit: 1 << 30,
            from,
        })
    };
    let report = stream_verify(
        &stream,
        Some(1..3),
        recompute(Some(kept.clone())),
        &mut |_| true,
    )
    .unwrap();
    assert_eq!(
        (
            report.recomputed,
            report.heaps_recomputed,
            report.recomputed_from
        ),
        (
            Some([1, 3]),
            Some([chunk + 1000, 3 * chunk]),
            Some(chunk + 1000)
        )
    );
    // Chunk 0 ends before the checkpoint: nothing of it can be recomputed
    // from there.
    let early = stream_verify(
        &stream,
        Some(0..1),
        recompute(Some(kept.clone())),
        &mut |_| true,
    );
    assert!(
        matches!(early, Err(grundy::Error::InvalidRange { .. })),
        "{early:?}"
    );
    // A stream with g(2 * chunk + 5) off by one, written whole (its
    // checksums match): the checksums pass, the recomputation does not.
    let game: grundy::HeapGame = "0.161".parse().unwrap();
    let values = grundy::TableSolver::new()
        .values(&game, 3 * chunk - 1)
        .unwrap();
    let forged = scratch.file("forged");
    let wrong = 2 * chunk as usize + 5;
    write_stream(
        &forged,
        "0.161",
        values
            .iter()
            .enumerate()
            .map(|(n, v)| v.get() ^ u32::from(n == wrong)),
    );
    stream_verify(&forged, None, None, &mut |_| true).unwrap();
    let caught = stream_verify(&forged, Some(2..3), recompute(Some(kept)), &mut |_| true);
    assert!(
        matches!(&caught, Err(grundy::Error::Stream { reason, .. }) if reason.contains(&format!("g({wrong})"))),
        "{caught:?}"
    );
}

/// A solver whose windowed runs compute every block on `threads` threads
/// (the crew, see `solve/crew.rs`), from the first heap on.
fn crew(code: &TakeBreak, threads: usize) -> SparseSolver {
    SparseSolver::new(code)
        .unwrap()
        .with_pipeline(Pipeline::Always)
        .with_threads(threads)
}

/// Issue 53: windowed runs on several threads write the full table's
/// values, heap for heap, with tiny windows (so that blocks end at new
/// rare heaps, far rare heaps get readers slid for a block, the tail is
/// dropped between blocks and scans run past the window in the committer)
/// and with the default one.
#[test]
fn windowed_runs_on_several_threads_equal_full_tables() {
    for (code, to) in [
        ("4!.0", 6_000),
        ("0.137", 3_000),
        ("0.6", 3_000),
        ("0.376", 3_000),
    ] {
        let code: TakeBreak = code.parse().unwrap();
        let expected = full(&code, to);
        let scratch = Scratch::new(&format!("crew-{code}"));
        let stream = scratch.file("values");
        for threads in [2, 3] {
            for sizes in [TINY, WindowSizes::default()] {
                let options = options(&code.to_string(), &stream, sizes);
                let outcome = crew(&code, threads)
                    .extend_windowed(to, &options, &mut |_| true)
                    .unwrap();
                assert_eq!(
                    first_difference(&stream, &expected),
                    None,
                    "{code} on {threads} threads, {sizes:?}"
                );
                let mut counts = outcome.histogram.clone();
                while counts.last() == Some(&0) {
                    counts.pop();
                }
                assert_eq!(counts, histogram(&expected), "{code}");
                if sizes == TINY && code.to_string() == "4!.0" {
                    assert!(outcome.far_scans > 0, "{outcome:?}");
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    /// [`windowed_runs_equal_full_tables_on_random_codes`] on two and
    /// three threads.
    fn windowed_runs_on_several_threads_equal_full_tables_on_random_codes(
        d0 in prop_oneof![Just(0u8), Just(4u8)],
        digits in prop::collection::vec(0u8..8, 1..5),
        unequal in any::<bool>(),
        wide in any::<bool>(),
        threads in 2usize..4,
    ) {
        let rest: String = digits.iter().map(|d| d.to_string()).collect();
        let mark = if unequal && d0 == 4 { "!" } else { "" };
        let code: TakeBreak = format!("{d0}{mark}.{rest}").parse().unwrap();
        let expected = full(&code, 3000);
        prop_assume!(expected.width() <= 2);
        let scratch = Scratch::new(&format!("crew-random-{code}"));
        let stream = scratch.file("values");
        let mut options = options(&code.to_string(), &stream, TINY);
        options.width = if wide { 2 } else { expected.width() as u8 };
        crew(&code, threads).extend_windowed(3000, &options, &mut |_| true).unwrap();
        prop_assert_eq!(first_difference(&stream, &expected), None, "{} on {}", code, threads);
    }
}

/// Issue 53: a windowed run on two threads, stopped at a block's end (of
/// 16384 heaps on several threads, 4096 on one) and resumed from its
/// checkpoint on one thread, stopped again and resumed on three, ends with
/// the stream of an uninterrupted run on one thread, across its widening
/// to two bytes; and a run on two threads that widens writes the full
/// table's values.
#[test]
fn windowed_runs_on_several_threads_resume_and_widen() {
    let code: TakeBreak = "0.6".parse().unwrap();
    let scratch = Scratch::new("crew-resume");
    let stream = scratch.file("values");
    // Officers' values pass 255 at heap 10344: the runs widen. A small
    // window, whose tail drops heaps and whose far rare heaps get readers,
    // but larger than TINY: far scans and readers cost these runs seconds.
    let sizes = WindowSizes {
        front: 1024,
        keep: 4096,
        far: 4096,
    };
    let mut resumable = options("0.6", &stream, sizes);
    resumable.widen = true;
    let whole = windowed(&code, 24_000, &resumable);
    resumable.checkpoint = Some((scratch.file("window.ckpt"), Duration::from_secs(3600)));
    for (stop, threads) in [(10_000, 2), (18_000, 1)] {
        let solver = match threads {
            1 => SparseSolver::new(&code).unwrap(),
            _ => crew(&code, threads),
        };
        let stopped = solver.extend_windowed(24_000, &resumable, &mut |p| p.heaps < stop);
        assert!(
            matches!(stopped, Err(grundy::Error::Interrupted { .. })),
            "{stop}: {stopped:?}"
        );
        resumable.resume = true;
    }
    let resumed = crew(&code, 3)
        .extend_windowed(24_000, &resumable, &mut |_| true)
        .unwrap();
    assert_eq!(
        (resumed.root, &resumed.histogram),
        (whole.root, &whole.histogram)
    );
    // 0.014 reaches 256 at heap 11058.
    let code: TakeBreak = "0.014".parse().unwrap();
    let mut widening = options("0.014", &stream, sizes);
    widening.widen = true;
    let widened = crew(&code, 2)
        .extend_windowed(11_500, &widening, &mut |_| true)
        .unwrap();
    assert_eq!(widened.width, 2);
    assert_eq!(first_difference(&stream, &full(&code, 11_500)), None);
}
