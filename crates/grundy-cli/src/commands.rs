//! One function per subcommand: parse what the user typed, call the library,
//! hand the result to [`crate::output`].

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use grundy::report::{
    AnalysisReport, ComparisonReport, FormulaReport, GeneraReport, LoopyHeapsReport,
    MisereSumReport, NimFieldReport, PairValuesReport, ProgressLine, QuotientReport, ValuesReport,
};
use grundy::session::{
    self, AnalyzeAnswer, AnalyzeQuery, ByFormula, CensusLimits, CensusRun, Certificate,
    CoinsAnswer, CoinsQuestion, CountEnd, CountQuery, Counted, Defines, Engine, GraphAnswer,
    HackenbushAnswer, HeapRules, HeapValues, Histogram, MovesGame, MovesQuery, OutcomesQuery,
    Partitions, PeriodWindow, Picture, RecomputeQuery, RecordQuery, ScriptAnswer, ScriptLimits,
    Stage, SumAnswer, SumItem, SumQuery, TupleBudget, Tuples, count_ranges,
};
use grundy::spec::{CATALOGUE, GameSpec, Question, parse_size};
use grundy::{Cancel, TableSolver, ValueTable};

use crate::cli::{
    AnalyzeArgs, CensusArgs, CensusCommand, CheckArgs, CoinsArgs, CompareArgs, CountArgs,
    EngineArg, FibonacciNimArgs, GamesArgs, GraphArgs, GuessArgs, HackenbushArgs, MazeArgs,
    MisereArgs, MovesArgs, NimArgs, NimOp, OrderArg, OutcomesArgs, PlotArgs, ResumeArgs,
    ScriptArgs, StreamAction, StreamArgs, SumArgs, TableArgs, ValuesArgs,
};
use crate::{Failure, output, progress};

/// `grundy values GAME --to N`, or `grundy values FILE.rhai --position P`.
pub fn values(args: &ValuesArgs, out: &mut impl Write) -> Result<(), Failure> {
    let spec = GameSpec::parse(&args.game)?;
    defines_need_a_script(&args.script, &[&spec])?;
    let name = args.game.trim();
    if !args.position.is_empty() {
        return script_positions(&spec, args, out);
    }
    let Some(to) = &args.to else {
        return Err(Failure::Input(
            "give --to N (or --position P for a script)".into(),
        ));
    };
    let to = parse_size(to)?;
    if let GameSpec::Pair(game) = &spec {
        let table = game.table(to, parse_bytes(&args.table.memory_limit)?)?;
        let values = table.into_iter().collect();
        return output::print(
            out,
            args.format,
            &PairValuesReport {
                game: game.to_string(),
                values,
            },
        );
    }
    let game = HeapRules::from_spec(&spec, Question::Values, &script_limits(&args.script)?)?;
    let (solver, resumed) = resumable(solver(&args.table)?, &game, &args.resumable)?;
    let bar = progress::heaps(to.saturating_add(1), "values");
    let mut progress = |n: usize| {
        bar.set_position(n as u64);
        true
    };
    let found = match resumed {
        // A resumed run goes on from its saved table.
        Some(mut values) => {
            values.truncate(usize::try_from(to).unwrap_or(usize::MAX).saturating_add(1));
            solver
                .extend(&game, &mut values, to, &mut progress)
                .map(|_| HeapValues::Finite(values))
        }
        None => game.values(to, &solver, &mut progress),
    };
    bar.finish_and_clear();
    match found.map_err(|e| interruption(e, &args.resumable))? {
        HeapValues::Finite(values) => {
            let report = ValuesReport::new(name, game.to_string(), &values);
            if args.star {
                output::print(out, args.format, &output::Starred(&report))
            } else {
                output::print(out, args.format, &report)
            }
        }
        HeapValues::Loopy(values) => {
            output::print(out, args.format, &LoopyHeapsReport::new(name, values))
        }
    }
}

/// `grundy values FILE.rhai --position P...`: positions of a script (heaps
/// or tuples) played together, with every winning move; generalized values
/// when play can cycle.
fn script_positions(
    spec: &GameSpec,
    args: &ValuesArgs,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let GameSpec::Script(path) = spec else {
        return Err(Failure::Input(
            "--position is for game scripts (FILE.rhai); for other games use `grundy sum`".into(),
        ));
    };
    let limits = script_limits(&args.script)?;
    match session::script_positions(path, limits, &args.position)? {
        ScriptAnswer::Finite(report) => output::print(out, args.format, &report),
        ScriptAnswer::Loopy(report) => output::print(out, args.format, &report),
    }
}

/// The solver with checkpoints as asked, and the values to start from
/// when resuming ([`session::resumable`]).
fn resumable(
    solver: TableSolver,
    game: &impl std::fmt::Display,
    args: &ResumeArgs,
) -> Result<(TableSolver, Option<ValueTable>), Failure> {
    let query = AnalyzeQuery {
        resume: args.resume.clone(),
        checkpoint: args.checkpoint.clone(),
        ..AnalyzeQuery::default()
    };
    let (solver, values) = session::resumable(solver, game, &query)?;
    Ok((solver, args.resume.as_ref().map(|_| values)))
}

/// A run stopped by Ctrl-C (which cancels the token every command runs
/// under; see `main`) says where its finished heaps were saved: the
/// checkpointing solver saves them however a chunk ends.
fn interruption(error: grundy::Error, args: &ResumeArgs) -> Failure {
    let saved = args.checkpoint.as_ref().or(args.resume.as_ref());
    match (error, saved) {
        (grundy::Error::Cancelled | grundy::Error::Interrupted { .. }, Some(path)) => {
            Failure::Interrupted(format!(
                "interrupted; the finished heaps are saved to {p} (continue with --resume {p})",
                p = path.display()
            ))
        }
        (error, _) => error.into(),
    }
}

/// `grundy analyze GAME [--to N | --max N] [--certificate FILE]`: the
/// arguments as an [`AnalyzeQuery`], answered by the session (through a
/// proven period, a table, or a windowed record run).
pub fn analyze(args: &AnalyzeArgs, out: &mut impl Write) -> Result<(), Failure> {
    let game = heap_game(&args.game, Question::Analyze, &args.script)?;
    let record = &args.record;
    let seconds = |flag: &str, s: f64| {
        if s.is_finite() && s > 0.0 {
            Ok(Duration::from_secs_f64(s))
        } else {
            Err(Failure::Input(format!(
                "{flag} must be a positive number of seconds, not {s}"
            )))
        }
    };
    let every = record
        .log_every
        .map(|s| seconds("--log-every", s))
        .transpose()?;
    let query = AnalyzeQuery {
        to: args.to.as_deref().map(parse_size).transpose()?,
        max: args.max.as_deref().map(parse_size).transpose()?,
        resume: args.resumable.resume.clone(),
        checkpoint: args.resumable.checkpoint.clone(),
        record: RecordQuery {
            window: record.window,
            table: record.table,
            values_out: record.values_out.clone(),
            values_width: record.values_width,
            checkpoint_every: seconds("--checkpoint-every", record.checkpoint_every)?,
            period_window: record
                .period_window
                .map_or_else(PeriodWindow::default, |heaps| {
                    PeriodWindow::Fixed(usize::try_from(heaps).unwrap_or(usize::MAX))
                }),
            overwrite: record.force,
        },
        certificate: args.certificate.is_some(),
    };
    let total = query
        .to
        .unwrap_or(query.max.unwrap_or(game.default_max()))
        .saturating_add(1);
    let bar = progress::heaps(total, "analyze");
    // Ctrl-C cancels the command's token (see main.rs); a run stops at its
    // next progress report with its checkpoint (and stream) in order.
    let token = Cancel::current();
    let mut started = Instant::now();
    let (mut first, mut logged, mut stage) = (None, Instant::now(), Stage::Compute);
    let found = session::analyze(&game, &query, &solver(&args.table)?, &mut |p| {
        // A check reads the stream back from heap 0 to its own end.
        let stage_total = p.checks.unwrap_or(total);
        if p.stage != stage {
            // Each stage's rate and ETA are its own.
            let from = p.checks.map(|_| 0);
            (stage, first, started) = (p.stage, from, Instant::now());
            bar.reset();
            bar.set_length(stage_total);
        }
        bar.set_position(p.heaps);
        if p.rare > 0 || p.stage == Stage::Check {
            bar.set_message(match p.stage {
                Stage::Compute => format!("record: {} rare, largest {}", p.rare, p.largest),
                Stage::Check => "checking the period on every heap".to_owned(),
            });
        }
        let first = *first.get_or_insert(p.heaps);
        if let Some(every) = every
            && logged.elapsed() >= every
        {
            logged = Instant::now();
            let line = ProgressLine::new(
                p,
                stage_total,
                p.heaps - first,
                started.elapsed().as_secs_f64(),
            );
            if let Ok(json) = serde_json::to_string(&line) {
                eprintln!("{json}");
            }
        }
        token.as_ref().is_none_or(|t| t.check().is_ok())
    });
    bar.finish_and_clear();
    let found = found.map_err(|e| interruption(e, &args.resumable))?;
    if let (Some(path), Some(certificate)) = (&args.certificate, &found.certificate) {
        let json = serde_json::to_string_pretty(certificate).map_err(std::io::Error::other)?;
        std::fs::write(path, json + "\n").map_err(|e| {
            Failure::Input(format!("cannot write certificate {}: {e}", path.display()))
        })?;
    }
    let report = match &found.answer {
        AnalyzeAnswer::Table(found) => AnalysisReport::new(&args.game, found),
        AnalyzeAnswer::Record(found) => {
            let kept = record.values_out.as_ref().map(|p| p.display().to_string());
            AnalysisReport::of_record(&args.game, found, kept)
        }
    };
    output::print(out, args.format, &report)
}

/// `grundy stream verify|cat|hist FILE`.
pub fn stream(args: &StreamArgs, out: &mut impl Write) -> Result<(), Failure> {
    match &args.action {
        StreamAction::Verify {
            file,
            chunks,
            recompute,
            from,
            memory_limit,
            format,
        } => {
            let chunks = chunks.as_deref().map(parse_chunks).transpose()?;
            let recompute = recompute
                .then(|| {
                    Ok::<_, Failure>(RecomputeQuery {
                        memory_limit: parse_bytes(memory_limit)?,
                        from: from.clone(),
                    })
                })
                .transpose()?;
            let bar = progress::heaps(session::stream_heaps(file)?, "verify");
            let report = session::stream_verify(file, chunks, recompute, &mut |heaps| {
                bar.set_position(heaps);
                true
            });
            bar.finish_and_clear();
            output::print(out, *format, &report?)
        }
        StreamAction::Cat {
            file,
            from,
            to,
            format,
        } => output::print(out, *format, &session::stream_values(file, *from, *to)?),
        StreamAction::Hist { file, to, format } => {
            output::print(out, *format, &session::stream_histogram(file, *to)?)
        }
    }
}

/// `A..B`: a range of chunks.
fn parse_chunks(text: &str) -> Result<std::ops::Range<u64>, Failure> {
    let bad = || Failure::Input(format!("--chunks takes A..B (chunk numbers), not '{text}'"));
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let (a, b) = (
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    );
    if a >= b {
        return Err(bad());
    }
    Ok(a..b)
}

/// The heap game `text` names, ready for `question`: built in or a script
/// (compiled with the limits given).
fn heap_game(text: &str, question: Question, args: &ScriptArgs) -> Result<HeapRules, Failure> {
    let spec = GameSpec::parse(text)?;
    defines_need_a_script(args, &[&spec])?;
    Ok(HeapRules::from_spec(
        &spec,
        question,
        &script_limits(args)?,
    )?)
}

/// Refuses `--define` for games none of which is a script: its values are
/// for a script's constants.
fn defines_need_a_script(args: &ScriptArgs, specs: &[&GameSpec]) -> Result<(), Failure> {
    if args.define.is_empty() || specs.iter().any(|s| matches!(s, GameSpec::Script(_))) {
        return Ok(());
    }
    Err(Failure::Input(
        "--define gives values to a script's constants, and no game here is a script (FILE.rhai)"
            .into(),
    ))
}

/// The script limits asked for, with the values `--define` gives.
fn script_limits(args: &ScriptArgs) -> Result<ScriptLimits, Failure> {
    let time = Duration::try_from_secs_f64(args.time_limit)
        .ok()
        .filter(|t| !t.is_zero())
        .ok_or_else(|| {
            Failure::Input("--time-limit must be a positive number of seconds".into())
        })?;
    let mut defines = Defines::new();
    for define in &args.define {
        defines.add(define)?;
    }
    Ok(ScriptLimits {
        operations: args.ops_limit,
        time,
        defines,
        ..ScriptLimits::default()
    })
}

/// `grundy guess GAME` or `grundy guess --file F`.
pub fn guess(args: &GuessArgs, out: &mut impl Write) -> Result<(), Failure> {
    let (name, report) = match (&args.game, &args.file) {
        (Some(spec), _) => {
            let game = heap_game(spec, Question::Guess, &args.script)?;
            let to = args.to.as_deref().map(parse_size).transpose()?;
            let report = session::guess(&game, to, &solver(&args.table)?)?;
            (spec.trim().to_owned(), report)
        }
        (None, Some(path)) => {
            let values = session::read_sequence(&read(path)?)
                .map_err(|e| Failure::Input(format!("{}: {e}", path.display())))?;
            (path.display().to_string(), session::guess_sequence(&values))
        }
        (None, None) => return Err(Failure::Input("give a GAME or --file".into())),
    };
    output::print(out, args.format, &FormulaReport::new(&name, &report))
}

/// `grundy graph FILE`.
pub fn graph(args: &GraphArgs, out: &mut impl Write) -> Result<(), Failure> {
    match session::graph(&read(&args.file)?, &args.sum)? {
        GraphAnswer::Values(report) => output::print(out, args.format, &report),
        GraphAnswer::Sum(report) => output::print(out, args.format, &report),
        GraphAnswer::LoopyValues(report) => output::print(out, args.format, &report),
        GraphAnswer::LoopySum(report) => output::print(out, args.format, &report),
    }
}

/// `grundy maze FILE`.
pub fn maze(args: &MazeArgs, out: &mut impl Write) -> Result<(), Failure> {
    let report = session::maze(&read(&args.file)?, parse_bytes(&args.memory_limit)?)?;
    output::print(out, args.format, &report)
}

/// `grundy check FILE`: exit 0 when the certificate is valid, 1 when it is
/// not (saying exactly what fails), 2 when the file cannot be read.
pub fn check(args: &CheckArgs, out: &mut impl Write) -> Result<(), Failure> {
    let path = args.file.display();
    let text = read(&args.file)?;
    let certificate: Certificate = serde_json::from_str(&text)
        .map_err(|e| Failure::Input(format!("{path} is not a certificate: {e}")))?;
    let max = usize::try_from(parse_size(&args.max)?).unwrap_or(usize::MAX);
    match certificate.check_within(max) {
        Ok(()) => {
            writeln!(
                out,
                "valid: {} is periodic from heap {} with minimal period {} (checked g(0..={}) \
                 with the plain solver)",
                certificate.game,
                certificate.preperiod,
                certificate.period,
                certificate.last_heap_needed
            )?;
            Ok(())
        }
        Err(grundy::Error::InvalidCertificate { reason }) => Err(Failure::Rejected(reason)),
        Err(grundy::Error::InvalidRange { reason }) => {
            Err(Failure::Input(format!("{reason} (raise it with --max)")))
        }
        Err(other) => Err(other.into()),
    }
}

/// `grundy compare A B --to N`.
pub fn compare(args: &CompareArgs, out: &mut impl Write) -> Result<(), Failure> {
    // `--define` is for the script among the two: a built-in game beside
    // it takes none.
    let specs = [
        GameSpec::parse(&args.first)?,
        GameSpec::parse(&args.second)?,
    ];
    defines_need_a_script(&args.script, &[&specs[0], &specs[1]])?;
    let limits = script_limits(&args.script)?;
    let first = HeapRules::from_spec(&specs[0], Question::Compare, &limits)?;
    let second = HeapRules::from_spec(&specs[1], Question::Compare, &limits)?;
    let to = parse_size(&args.to)?;
    // Both games' tables count towards one bar.
    let reach = session::compare_reach(&first, &second, to);
    let bar = progress::heaps(reach.saturating_add(1).saturating_mul(2), "compare");
    let reached = [AtomicUsize::new(0), AtomicUsize::new(0)];
    let progress = |game: usize, n: usize| {
        reached[game].fetch_max(n, Ordering::Relaxed);
        bar.set_position(
            reached
                .iter()
                .map(|r| r.load(Ordering::Relaxed) as u64)
                .sum(),
        );
        true
    };
    let time = script_limits(&args.script)?.time;
    let compared = session::compare(&first, &second, to, &solver(&args.table)?, time, &progress);
    bar.finish_and_clear();
    let comparison = match compared {
        Err(grundy::Error::TimeLimit { .. }) => {
            // The game still being tabulated is the one further on (the
            // other may have finished with its period proven).
            let heap = reached.iter().map(|r| r.load(Ordering::Relaxed)).max();
            return Err(Failure::Input(format!(
                "compare stopped at the time limit of {} s, at heap {} of the {reach} it may \
                 reach to prove a period (raise it with --time-limit)",
                time.as_secs_f64(),
                heap.unwrap_or(0),
            )));
        }
        other => other?,
    };
    output::print(
        out,
        args.format,
        &ComparisonReport::new([&args.first, &args.second], &comparison),
    )
}

/// `grundy sum [GAME] COMPONENT...`: components of any kinds (see
/// [`session::SumQuery`]) played together.
pub fn sum(args: &SumArgs, out: &mut impl Write) -> Result<(), Failure> {
    let query = SumQuery {
        game: Some(&args.game),
        items: args.heaps.iter().cloned().map(SumItem::Written).collect(),
        script: script_limits(&args.script)?,
        solver: &solver(&args.table)?,
        max_options: args.max_options,
        work_limit: args.work_limit,
        files: true,
    };
    match progress::tables(|progress| session::sum(&query, progress))? {
        SumAnswer::Heaps(report) => output::print(out, args.format, &report),
        SumAnswer::Pairs(report) => output::print(out, args.format, &report),
        SumAnswer::Parts(report) => output::print(out, args.format, &report),
    }
}

/// `grundy moves GAME --to N`: every heap's (or pair's) winning moves; a
/// script's positions with `--position`.
pub fn moves(args: &MovesArgs, out: &mut impl Write) -> Result<(), Failure> {
    let spec = GameSpec::parse(&args.game)?;
    defines_need_a_script(&args.script, &[&spec])?;
    let game = MovesGame::from_spec(&spec, &script_limits(&args.script)?)?;
    let solver = solver(&args.table)?;
    let query = MovesQuery {
        from: args.from,
        to: args.to,
        positions: &args.position,
        rows: !args.by_value,
        max_rows: None,
        solver: &solver,
        max_options: args.max_options,
        work_limit: args.work_limit,
    };
    let report = progress::tables(|progress| session::moves(&args.game, &game, &query, progress))?;
    output::print(out, args.format, &report)
}

/// `grundy count`: the arguments as a [`CountQuery`], counted by the
/// library.
pub fn count(args: &CountArgs, out: &mut impl Write) -> Result<(), Failure> {
    let solver = solver(&args.table)?;
    let spec = args.game.as_deref().unwrap_or("").trim();
    // With --partitions, --distinct asks for distinct parts.
    let partitions = Partitions::from_options(
        args.partitions,
        args.parts.as_deref(),
        args.partitions.is_some() && args.distinct,
    )?;
    let distinct_heaps = partitions.is_none() && args.distinct;
    let order = match (args.order, args.unordered, distinct_heaps) {
        (Some(OrderArg::Ordered), ..) | (None, false, false) => Tuples::Ordered,
        (Some(OrderArg::OrderedDistinct), ..) | (None, false, true) => Tuples::OrderedDistinct,
        (Some(OrderArg::Unordered), ..) | (None, true, false) => Tuples::Unordered,
        (Some(OrderArg::Distinct), ..) | (None, true, true) => Tuples::Distinct,
    };
    let query = CountQuery {
        from: parse_size(&args.from)?,
        to: args.to.as_deref().map(CountEnd::parse).transpose()?,
        heaps: args.heaps,
        order,
        modulus: args.modulus,
        nim_sum: args.nim_sum,
        all: args.all,
        by_formula: match (&args.formula, args.by_formula) {
            (Some(formula), _) => ByFormula::Given(formula.parse()?),
            (None, true) => ByFormula::Guessed,
            (None, false) => ByFormula::No,
        },
        max: args.max.as_deref().map(parse_size).transpose()?,
        budget: TupleBudget {
            max_heaps: args.max_heaps,
            work: args.work_limit,
        },
        partitions,
    };
    let limits = script_limits(&args.script)?;
    if !args.moves.is_empty() {
        let query = SumQuery {
            game: Some(spec),
            items: args.moves.iter().cloned().map(SumItem::Written).collect(),
            script: limits,
            solver: &solver,
            max_options: args.max_options,
            work_limit: args.work_limit,
            files: true,
        };
        let counted = progress::tables(|progress| session::count_moves(&query, progress))?;
        return output::print(out, args.format, &counted);
    }
    if !args.ranges.is_empty() {
        let mut ranges = Vec::new();
        for written in &args.ranges {
            let (name, range) = written.rsplit_once(':').ok_or_else(|| {
                Failure::Input(format!("'{written}': write a range as GAME:FROM..TO"))
            })?;
            let (from, to) = range.split_once("..").ok_or_else(|| {
                Failure::Input(format!("'{written}': write a range as GAME:FROM..TO"))
            })?;
            let game = Counted::from_spec(&GameSpec::parse(name)?, &limits)?;
            ranges.push((name.to_owned(), game, parse_size(from)?, parse_size(to)?));
        }
        return output::print(out, args.format, &count_ranges(&ranges, &query, &solver)?);
    }
    let (name, game) = match &args.histogram {
        Some(path) => (
            path.display().to_string(),
            Counted::Given(Histogram::parse(&read(path)?)?),
        ),
        None => {
            let game = Counted::from_spec(&GameSpec::parse(spec)?, &limits)?;
            // A script with defines is named with them: `rules.rhai(K=3)`.
            let name = match &game {
                Counted::Heaps(rules) if !limits.defines.is_empty() => rules.to_string(),
                _ => spec.to_owned(),
            };
            (name, game)
        }
    };
    let (total, what) = match (query.to, &query.partitions) {
        (_, Some(partitions)) => (partitions.of, "partitions"),
        (Some(CountEnd::Grid(x, y)), None) => (x.max(y), "coins"),
        (Some(CountEnd::Last(n)), None) => (n, "coins"),
        (None, None) => (0, "coins"),
    };
    let bar = progress::heaps(total, what);
    let answer = session::count(&name, &game, &query, &solver, &mut |n| {
        bar.set_position(n as u64);
        true
    });
    bar.finish_and_clear();
    output::print(out, args.format, &answer?)
}

/// `grundy nim OP A [B]`.
pub fn nim(args: &NimArgs, out: &mut impl Write) -> Result<(), Failure> {
    use grundy::nim_field;
    let unary = matches!(args.op, NimOp::Inv | NimOp::Sqrt);
    let (a, b) = match (args.operands.as_slice(), unary) {
        (&[a], true) => (a, None),
        (&[a, b], false) => (a, Some(b)),
        _ => {
            return Err(Failure::Input(format!(
                "{} takes {} operand(s)",
                format!("{:?}", args.op).to_lowercase(),
                if unary { 1 } else { 2 }
            )));
        }
    };
    let b = b.unwrap_or_default();
    let (symbol, result) = match args.op {
        NimOp::Add => (format!("{a} + {b}"), a ^ b),
        NimOp::Mul => (format!("{a} * {b}"), nim_field::mul(a, b)),
        NimOp::Pow => (format!("pow({a}, {b})"), nim_field::pow(a, b)),
        NimOp::Inv => (
            format!("1 / {a}"),
            nim_field::inverse(a).ok_or_else(|| Failure::Input("0 has no nim-inverse".into()))?,
        ),
        NimOp::Sqrt => (format!("sqrt({a})"), nim_field::sqrt(a)),
    };
    let report = NimFieldReport {
        expression: symbol,
        result,
    };
    output::print(out, args.format, &report)
}

/// `grundy coins RULE [HEADS...]`: coin values, or a row or grid of coins.
pub fn coins(args: &CoinsArgs, out: &mut impl Write) -> Result<(), Failure> {
    let limit = parse_bytes(&args.memory_limit)?;
    let grid = args.rule.contains('*');
    let question = if let Some(to) = &args.to {
        CoinsQuestion::Values(parse_size(to)?)
    } else if grid {
        if args.row.is_some() {
            return Err(Failure::Input(
                "--row is for a row of coins; give a product's heads as X,Y or --grid FILE".into(),
            ));
        }
        let mut heads = Vec::new();
        for written in &args.heads {
            let (x, y) = written.split_once(',').ok_or_else(|| {
                Failure::Input(format!("'{written}': write a head of a grid as X,Y"))
            })?;
            heads.push((parse_coin(x)?, parse_coin(y)?));
        }
        if let Some(path) = &args.grid {
            let text = if path.as_os_str() == "-" {
                std::io::read_to_string(std::io::stdin())?
            } else {
                read(path)?
            };
            for (y, line) in text.lines().enumerate() {
                heads.extend(heads_of_row(line, &format!("line {}", y + 1))?.map(|x| (x, y + 1)));
            }
        }
        if heads.is_empty() {
            return Err(Failure::Input(
                "give the heads as X,Y, --grid FILE or --to N for the table of values".into(),
            ));
        }
        CoinsQuestion::Grid(heads)
    } else {
        let mut heads = args
            .heads
            .iter()
            .map(|h| parse_coin(h))
            .collect::<Result<Vec<usize>, Failure>>()?;
        if let Some(row) = &args.row {
            heads.extend(heads_of_row(row, "--row")?);
        }
        if heads.is_empty() {
            return Err(Failure::Input(
                "give the heads (coin numbers), --row HT... or --to N for the values".into(),
            ));
        }
        CoinsQuestion::Row(heads)
    };
    let bar = progress::heaps(
        match question {
            CoinsQuestion::Values(to) if !grid => to,
            _ => 0,
        },
        "coins",
    );
    let answer = session::coins(&args.rule, question, limit, args.work_limit, &mut |n| {
        bar.set_position(n as u64);
        true
    });
    bar.finish_and_clear();
    match answer? {
        CoinsAnswer::Values(report) => output::print(out, args.format, &report),
        CoinsAnswer::Table(report) => output::print(out, args.format, &report),
        CoinsAnswer::Row(report) => output::print(out, args.format, &report),
        CoinsAnswer::Grid(report) => output::print(out, args.format, &report),
    }
}

/// `grundy hackenbush TREES... --graph FILE...`.
pub fn hackenbush(args: &HackenbushArgs, out: &mut impl Write) -> Result<(), Failure> {
    let mut pictures = Vec::new();
    for (i, tree) in args.trees.iter().enumerate() {
        // A tree of a million edges is not echoed back.
        let name = if tree.len() <= 64 {
            tree.to_owned()
        } else {
            format!("tree {} ({} characters)", i + 1, tree.len())
        };
        pictures.push(Picture {
            name,
            text: tree.to_owned(),
        });
    }
    for path in &args.graph {
        pictures.push(Picture {
            name: path.display().to_string(),
            text: read(path)?,
        });
    }
    if pictures.is_empty() {
        return Err(Failure::Input(
            "give one or more trees, e.g. '(()())', or --graph FILE".into(),
        ));
    }
    match session::hackenbush(&pictures, args.count_moves, Some(args.work_limit))? {
        HackenbushAnswer::Sum(report) => output::print(out, args.format, &report),
        HackenbushAnswer::Moves(report) => output::print(out, args.format, &report),
    }
}

/// `grundy fibonacci-nim N [--limit K] [--ratio C]`.
pub fn fibonacci_nim(args: &FibonacciNimArgs, out: &mut impl Write) -> Result<(), Failure> {
    let heap = parse_size(&args.heap)?;
    let limit = args.limit.as_deref().map(parse_size).transpose()?;
    let report = session::fibonacci_nim(heap, limit, &args.ratio, Some(args.work_limit))?;
    output::print(out, args.format, &report)
}

/// `grundy outcomes FILE.rhai --states N [--position S]...`.
pub fn outcomes(args: &OutcomesArgs, out: &mut impl Write) -> Result<(), Failure> {
    let query = OutcomesQuery {
        states: parse_size(&args.states)?,
        positions: args
            .position
            .iter()
            .map(|p| parse_size(p))
            .collect::<Result<Vec<u64>, _>>()?,
        memory_limit: parse_bytes(&args.memory_limit)?,
        threads: args.threads.map(|t| t as usize),
    };
    let bar = progress::heaps(query.states, "outcomes");
    let limits = script_limits(&args.script_limits)?;
    let report = session::script_outcomes(&args.script, limits, &query, &mut |s| {
        bar.set_position(s);
    });
    bar.finish_and_clear();
    output::print(out, args.format, &report?)
}

/// `grundy misere GAME --to N` or `grundy misere GAME HEAPS...`.
pub fn misere(args: &MisereArgs, out: &mut impl Write) -> Result<(), Failure> {
    let game = heap_game(&args.game, Question::Misere, &args.script)?;
    game.start();
    let result = misere_report(&game, args, out);
    // A script's own error explains a failure better than whatever the
    // search made of the options it did not get.
    game.checked(Ok(()))?;
    result
}

/// [`misere`] for a game ready to play.
fn misere_report(game: &HeapRules, args: &MisereArgs, out: &mut impl Write) -> Result<(), Failure> {
    let budget = usize::try_from(parse_size(&args.budget)?).unwrap_or(usize::MAX);
    let terms = args.terms as usize;
    if let Some(bound) = &args.quotient {
        let bound = usize::try_from(parse_size(bound)?).unwrap_or(usize::MAX);
        let heaps = misere_heaps(args)?;
        let (quotient, played) = session::misere_quotient(game, bound, args.fold, budget, &heaps)
            .map_err(budget_flag)?;
        let played = played.map(|(loses, moves)| (heaps, loses, moves));
        let report = QuotientReport::new(game.to_string(), &quotient, played);
        return output::print(out, args.format, &report);
    }
    if let Some(to) = &args.to {
        let to = usize::try_from(parse_size(to)?).unwrap_or(usize::MAX);
        let genera = session::genera(game, to, terms, budget).map_err(budget_flag)?;
        let report = GeneraReport::new(game.to_string(), &genera);
        let written = &args.game;
        return output::print(
            out,
            args.format,
            &output::Genera {
                report: &report,
                written,
            },
        );
    }
    if args.heaps.is_empty() {
        return Err(Failure::Input(
            "give heaps to play, or --to N for the genera".into(),
        ));
    }
    let heaps = misere_heaps(args)?;
    let (value, moves) = session::misere_sum(game, &heaps, terms, budget).map_err(budget_flag)?;
    let report = MisereSumReport::new(game.to_string(), &heaps, value, &moves);
    output::print(out, args.format, &report)
}

/// A misère search stopped by its budget names the flag that raises it.
fn budget_flag(error: grundy::Error) -> Failure {
    match error {
        grundy::Error::PositionBudget { .. } => {
            Failure::Input(format!("{error} (raise it with --budget)"))
        }
        other => other.into(),
    }
}

/// The heaps `grundy misere` plays, parsed.
fn misere_heaps(args: &MisereArgs) -> Result<Vec<usize>, Failure> {
    Ok(args
        .heaps
        .iter()
        .map(|h| parse_size(h).map(|h| usize::try_from(h).unwrap_or(usize::MAX)))
        .collect::<Result<Vec<usize>, _>>()?)
}

/// `grundy plot GAME --to N -o FILE`.
pub fn plot(args: &PlotArgs, out: &mut impl Write) -> Result<(), Failure> {
    let game = heap_game(&args.game, Question::Plot, &args.script)?;
    let to = parse_size(&args.to)?;
    let solver = solver(&args.table)?;
    let bar = progress::heaps(to.saturating_add(1), "values");
    let found = session::analyze_range(
        &game,
        ValueTable::new(),
        Some(to),
        None,
        &solver,
        &mut |n| {
            bar.set_position(n as u64);
            true
        },
    );
    bar.finish_and_clear();
    let found = found?;
    let values = found.values_to_end()?;
    let title = format!("{} ({}), g(0..={to})", args.game.trim(), found.game);
    let picture = crate::plot::Picture::of(title, &found, &values);
    let style = crate::plot::Style {
        view: args.view,
        columns: args.columns.map(|c| c as usize),
        log: args.log,
        size: (args.width, args.height),
    };
    let drawn = crate::plot::draw(&args.output, &picture, style).map_err(Failure::Input)?;
    let report = output::Plotted {
        file: args.output.display().to_string(),
        heaps: picture.values.len(),
        points: drawn.points,
        p_marks: drawn.p_marks,
        rare_marks: drawn.rare_marks,
        p_positions: found.p_positions().count(),
        rare_mask: picture.description.rare_mask,
        period: picture.description.period.clone(),
    };
    output::print(out, args.format, &report)
}

/// A coin number (from 1).
fn parse_coin(text: &str) -> Result<usize, Failure> {
    match text.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(Failure::Input(format!(
            "'{}' is not a coin: coins are numbered 1, 2, 3, ...",
            text.trim()
        ))),
    }
}

/// The coins showing heads in a row written as H and T (coin 1 first;
/// spaces ignored).
fn heads_of_row<'a>(
    row: &'a str,
    place: &'a str,
) -> Result<impl Iterator<Item = usize> + 'a, Failure> {
    let marks: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
    if let Some(bad) = marks.iter().find(|c| !matches!(c, 'H' | 'h' | 'T' | 't')) {
        return Err(Failure::Input(format!(
            "{place}: '{bad}' is not a coin; write H for heads and T for tails"
        )));
    }
    Ok(marks
        .into_iter()
        .enumerate()
        .filter(|(_, c)| c.eq_ignore_ascii_case(&'h'))
        .map(|(i, _)| i + 1))
}

/// `grundy games`.
pub fn games(args: &GamesArgs, out: &mut impl Write) -> Result<(), Failure> {
    let Some(text) = &args.script else {
        return output::catalogue(out, args.format, CATALOGUE);
    };
    let spec = GameSpec::parse(text)?;
    let GameSpec::Script(path) = &spec else {
        return Err(Failure::Input(format!(
            "'{}' is {}, not a script: `grundy games FILE.rhai` lists a script's parameters, \
             `grundy games` every game",
            text.trim(),
            spec.kind().name()
        )));
    };
    let report = session::script_parameters(path, script_limits(&args.limits)?)?;
    output::print(out, args.format, &report)
}

/// The text of a file the user named ([`grundy::spec::read_input`]: at
/// most 256 MiB; `/dev/zero` is refused, not read forever).
fn read(path: &std::path::Path) -> Result<String, Failure> {
    Ok(grundy::spec::read_input(path)?)
}

fn solver(args: &TableArgs) -> Result<TableSolver, Failure> {
    let engine = match args.engine {
        EngineArg::Auto => Engine::Auto,
        EngineArg::Dense => Engine::Dense,
        EngineArg::Sparse => Engine::Sparse,
    };
    let solver = TableSolver::new()
        .with_memory_limit(parse_bytes(&args.memory_limit)?)
        .with_engine(engine);
    Ok(match args.threads {
        Some(threads) => solver.with_threads(threads as usize),
        None => solver,
    })
}

/// Parses a memory size: `1048576`, `512M`, `16G`, `1.5GiB`.
fn parse_bytes(text: &str) -> Result<u64, Failure> {
    let invalid = || {
        Failure::Input(format!(
            "invalid memory size '{text}': expected a number with an optional unit K, M, G or T"
        ))
    };
    let trimmed = text.trim();
    let split = trimmed
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(split);
    let scale: u64 = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 1,
        "K" | "KB" | "KIB" => 1 << 10,
        "M" | "MB" | "MIB" => 1 << 20,
        "G" | "GB" | "GIB" => 1 << 30,
        "T" | "TB" | "TIB" => 1 << 40,
        _ => return Err(invalid()),
    };
    let bytes = number.parse::<f64>().map_err(|_| invalid())? * scale as f64;
    if bytes.is_finite() && bytes >= 0.0 && bytes <= u64::MAX as f64 {
        Ok(bytes as u64)
    } else {
        Err(invalid())
    }
}

/// `grundy census FAMILY... [--max N] [--time-per-game S] [--jobs N]
/// [--shard K/N] [--output FILE]`, or `grundy census merge FILES...`.
///
/// Games run on `--jobs` threads, costliest first, each game on one; the
/// library's [`CensusRun`] appends each row to `--output` as it finishes,
/// so a killed census loses only the games in flight, and a rerun skips
/// the games the file holds. At the end the rows are classified and the
/// file rewritten with classes.
pub fn census(args: &CensusArgs, out: &mut impl Write) -> Result<(), Failure> {
    if let Some(CensusCommand::Merge(merge)) = &args.merge {
        return output::census(out, &merge.print, session::census_merge(&merge.files)?);
    }
    let time_per_game = args
        .time_per_game
        .map(|s| {
            Duration::try_from_secs_f64(s).map_err(|_| {
                Failure::Input(format!(
                    "invalid --time-per-game {s}: expected a non-negative number of seconds"
                ))
            })
        })
        .transpose()?;
    let limits = CensusLimits {
        max: args.max,
        time_per_game,
    };
    let run = CensusRun::new(
        session::census_games(&args.families)?,
        args.shard,
        args.output.as_deref(),
    )?;
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |j| j as usize,
    );
    let bar = progress::games((run.done() + run.todo().len()) as u64);
    bar.set_position(run.done() as u64);
    let report = session::census(
        run,
        &limits,
        parse_bytes(&args.memory_limit)?,
        jobs,
        &mut |p| {
            bar.set_position(p.done as u64);
            bar.set_message(format!("{} running, {} left", p.running, p.left));
        },
    );
    bar.finish_and_clear();
    output::census(out, &args.print, report?)
}

#[cfg(test)]
mod tests {
    use super::parse_bytes;

    #[test]
    fn memory_sizes_parse_with_units() {
        assert_eq!(parse_bytes("4G").unwrap(), 4 << 30);
        assert_eq!(parse_bytes("512 MiB").unwrap(), 512 << 20);
        assert_eq!(parse_bytes("1.5k").unwrap(), 1536);
        assert_eq!(parse_bytes("100").unwrap(), 100);
        for bad in ["", "G", "-1G", "4X", "1..2G", "99999999999999999999T"] {
            assert!(parse_bytes(bad).is_err(), "{bad}");
        }
    }
}
