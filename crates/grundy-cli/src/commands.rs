//! One function per subcommand: parse what the user typed, call the library,
//! hand the result to [`crate::output`].

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use grundy::analysis::{
    self, Arithmetic, Certificate, Limits, Misere, MisereQuotient, Tuples, count_ordered,
    count_tuples, value_histogram,
};
use grundy::rules::{
    CATALOGUE, CoinRule, FibonacciNim, GameGraph, Hackenbush, Maze, PairGame, ScriptGame,
    ScriptLimits, ScriptPosition, analyze_coins, analyze_grid, analyze_hackenbush, parse_size,
    script_loopy, script_sum, tartan_table,
};
use grundy::solve::{Checkpoint, Engine, analyze_loopy_sum, retrograde, sum_retrograde};
use grundy::{Component, HeapGame, TableSolver, ValueTable, analyze_sum, move_counts};

use crate::cli::{
    AnalyzeArgs, CheckArgs, CoinsArgs, CompareArgs, CountArgs, EngineArg, FibonacciNimArgs, Format,
    GamesArgs, GraphArgs, GuessArgs, HackenbushArgs, MazeArgs, MisereArgs, NimArgs, NimOp,
    OutcomesArgs, PlotArgs, ResumeArgs, ScriptArgs, SumArgs, SumFormat, TableArgs, ValuesArgs,
};
use crate::{Failure, output, progress};

/// `grundy values GAME --to N`, or `grundy values FILE.rhai --position P`.
pub fn values(args: &ValuesArgs, out: &mut impl Write) -> Result<(), Failure> {
    let spec = args.game.trim();
    if spec.ends_with(".rhai") {
        return script_values(args, out);
    }
    let Some(to) = &args.to else {
        return Err(Failure::Input(
            "--position is for game scripts (FILE.rhai); give --to N".into(),
        ));
    };
    let to = parse_size(to)?;
    if let Some(game) = PairGame::parse(spec) {
        let game = game?;
        let table = game.table(to, parse_bytes(&args.table.memory_limit)?)?;
        return output::pair_values(out, args.format, &game.to_string(), &table);
    }
    let game: HeapGame = args.game.parse()?;
    let (solver, mut values) = resumable(solver(&args.table)?, &game, &args.resumable)?;
    values.truncate(usize::try_from(to).unwrap_or(usize::MAX).saturating_add(1));
    let bar = progress::heaps(to.saturating_add(1), "values");
    let interrupted = stop_flag(&args.resumable);
    let result = solver.extend(&game, &mut values, to, &mut |n| {
        bar.set_position(n as u64);
        !interrupted.load(Ordering::Relaxed)
    });
    bar.finish_and_clear();
    result.map_err(|e| interruption(e, &args.resumable))?;
    output::values(out, args.format, spec, &game.to_string(), &values)
}

/// `grundy values FILE.rhai`: heaps `0..=N` of a scripted game, or the
/// positions given, played together.
fn script_values(args: &ValuesArgs, out: &mut impl Write) -> Result<(), Failure> {
    let game = compile_script(args.game.trim(), &args.script)?;
    let name = game.name();
    if let Some(to) = &args.to {
        let to = parse_size(to)?;
        solver(&args.table)?.check_fits(to)?;
        let values = match game.heap_values(to) {
            Err(grundy::Error::Cycle { .. }) => {
                // Heaps that can grow: generalized values instead.
                let heaps: Vec<ScriptPosition> = (0..=to).map(ScriptPosition::Heap).collect();
                let loopy = script_loopy(&game, &heaps)?;
                let listed: Vec<(u64, grundy::solve::LoopyValue)> = (0..=to)
                    .zip(&loopy.values)
                    .map(|(n, v)| (n, v.clone()))
                    .collect();
                return output::loopy_heaps(out, args.format, name, &listed);
            }
            other => other?,
        };
        return output::values(out, args.format, name, name, &values);
    }
    let positions = args
        .position
        .iter()
        .map(|p| p.parse::<ScriptPosition>())
        .collect::<Result<Vec<_>, _>>()?;
    let sum = match script_sum(&game, &positions) {
        Err(grundy::Error::Cycle { .. }) => {
            let loopy = script_loopy(&game, &positions)?;
            let tokens: Vec<usize> = positions.iter().filter_map(|p| loopy.index(p)).collect();
            let sum = analyze_loopy_sum(loopy.adjacency(), &loopy.values, &tokens);
            let remoteness = sum_retrograde(loopy.adjacency(), &tokens, LOOPY_SUM_STATES)
                .ok()
                .map(|(_, r)| r);
            let names: Vec<String> = loopy.positions.iter().map(ToString::to_string).collect();
            return output::loopy_sum(
                out,
                match args.format {
                    Format::Json => SumFormat::Json,
                    Format::Text | Format::Csv => SumFormat::Text,
                },
                &names,
                &loopy.values,
                &tokens,
                &sum,
                remoteness,
            );
        }
        other => other?,
    };
    output::script_sum(out, args.format, &positions, &sum)
}

/// The solver with checkpoints as asked, and the values to start from.
fn resumable(
    solver: TableSolver,
    game: &HeapGame,
    args: &ResumeArgs,
) -> Result<(TableSolver, ValueTable), Failure> {
    let mut values = ValueTable::new();
    if let Some(path) = &args.resume {
        let saved = Checkpoint::load(path)?;
        if saved.game != game.to_string() {
            return Err(Failure::Input(format!(
                "{} holds values of {}, not of {game}",
                path.display(),
                saved.game
            )));
        }
        values = saved.values;
    }
    let solver = match args.checkpoint.as_ref().or(args.resume.as_ref()) {
        Some(path) => solver.with_checkpoint(path.clone(), game.to_string(), CHECKPOINT_EVERY),
        None => solver,
    };
    Ok((solver, values))
}

/// How often a checkpoint is written.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(10);

/// A flag Ctrl-C raises, when the run saves checkpoints (otherwise Ctrl-C
/// ends the process as usual).
fn stop_flag(args: &ResumeArgs) -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    if args.checkpoint.is_some() || args.resume.is_some() {
        let raised = Arc::clone(&flag);
        // If a handler cannot be installed, Ctrl-C simply ends the run and
        // the last periodic checkpoint stands.
        let _ = ctrlc::set_handler(move || raised.store(true, Ordering::Relaxed));
    }
    flag
}

/// An interrupted run says where its work was saved.
fn interruption(error: grundy::Error, args: &ResumeArgs) -> Failure {
    match (error, args.checkpoint.as_ref().or(args.resume.as_ref())) {
        (grundy::Error::Interrupted { heaps }, Some(path)) => Failure::Interrupted(format!(
            "interrupted after {heaps} heaps; saved to {p} (continue with --resume {p})",
            p = path.display()
        )),
        (error, _) => error.into(),
    }
}

/// `grundy analyze GAME [--to N | --max N] [--certificate FILE]`.
pub fn analyze(args: &AnalyzeArgs, out: &mut impl Write) -> Result<(), Failure> {
    if args.game.trim().ends_with(".rhai") {
        return analyze_script(args, out);
    }
    let game: HeapGame = args.game.parse()?;
    let mut limits = Limits::default();
    if let Some(to) = &args.to {
        limits.to = Some(parse_size(to)?);
    }
    if let Some(max) = &args.max {
        limits.max = parse_size(max)?;
    }
    let (solver, values) = resumable(solver(&args.table)?, &game, &args.resumable)?;
    solver.check_fits(limits.to.unwrap_or(limits.max))?;
    let bar = progress::heaps(limits.to.unwrap_or(limits.max).saturating_add(1), "analyze");
    let interrupted = stop_flag(&args.resumable);
    let found = analysis::analyze_from(&game, values, &limits, &solver, &mut |n| {
        bar.set_position(n as u64);
        !interrupted.load(Ordering::Relaxed)
    });
    bar.finish_and_clear();
    let found = found.map_err(|e| interruption(e, &args.resumable))?;
    if let Some(path) = &args.certificate {
        let certificate = Certificate::from_analysis(&found).ok_or_else(|| {
            Failure::Input(format!(
                "no certificate written: the period of {} is not proven (computed to {})",
                found.game,
                found.computed_to()
            ))
        })?;
        let json = serde_json::to_string_pretty(&certificate).map_err(std::io::Error::other)?;
        std::fs::write(path, json + "\n").map_err(|e| {
            Failure::Input(format!("cannot write certificate {}: {e}", path.display()))
        })?;
    }
    output::analysis(out, args.format, args.game.trim(), &found)
}

/// `grundy analyze FILE.rhai`: the values of a scripted heap game to `--to`
/// (or `--max`, default 1000) and the period they show.
fn analyze_script(args: &AnalyzeArgs, out: &mut impl Write) -> Result<(), Failure> {
    let game = compile_script(args.game.trim(), &args.script)?;
    let to = match (&args.to, &args.max) {
        (Some(to), _) | (None, Some(to)) => parse_size(to)?,
        (None, None) => SCRIPT_HEAPS,
    };
    solver(&args.table)?.check_fits(to)?;
    let values = game.heap_values(to)?;
    let found = analysis::Analysis {
        game: game.name().to_owned(),
        periodicity: analysis::find_period(&values),
        values,
        support: analysis::Support::Observed,
        sparse: None,
        theorem: None,
    };
    output::analysis(out, args.format, game.name(), &found)
}

/// Heaps `grundy analyze FILE.rhai` computes without `--to` or `--max`.
const SCRIPT_HEAPS: u64 = 1000;

/// Reads and compiles the script at `path` with the limits asked for.
fn compile_script(path: &str, args: &ScriptArgs) -> Result<ScriptGame, Failure> {
    let time = Duration::try_from_secs_f64(args.time_limit)
        .ok()
        .filter(|t| !t.is_zero())
        .ok_or_else(|| {
            Failure::Input("--time-limit must be a positive number of seconds".into())
        })?;
    let limits = ScriptLimits {
        operations: args.ops_limit,
        time,
        ..ScriptLimits::default()
    };
    Ok(ScriptGame::compile(
        path,
        &read(std::path::Path::new(path))?,
        limits,
    )?)
}

/// `grundy guess GAME` or `grundy guess --file F`.
pub fn guess(args: &GuessArgs, out: &mut impl Write) -> Result<(), Failure> {
    let (name, values, analysis) = match (&args.game, &args.file) {
        (Some(spec), _) => {
            let game: HeapGame = spec.parse()?;
            let mut limits = Limits::default();
            if let Some(to) = &args.to {
                limits.to = Some(parse_size(to)?);
            }
            let solver = solver(&args.table)?;
            solver.check_fits(limits.to.unwrap_or(limits.max))?;
            let found = analysis::analyze(&game, &limits, &solver, &mut |_| true)?;
            (spec.trim().to_owned(), found.values.to_vec(), Some(found))
        }
        (None, Some(path)) => {
            let text = read(path)?;
            let values = text
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|item| !item.is_empty())
                .map(|item| {
                    item.parse::<u32>().map(grundy::Nimber::new).map_err(|_| {
                        Failure::Input(format!(
                            "{}: '{item}' is not a non-negative integer below 2^32",
                            path.display()
                        ))
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            (path.display().to_string(), values, None)
        }
        (None, None) => return Err(Failure::Input("give a GAME or --file".into())),
    };
    output::guess(out, args.format, &name, &values, analysis.as_ref())
}

/// `grundy graph FILE`.
pub fn graph(args: &GraphArgs, out: &mut impl Write) -> Result<(), Failure> {
    let text = read(&args.file)?;
    let graph = GameGraph::parse(&text)?;
    let tokens = args
        .sum
        .iter()
        .map(|name| {
            graph
                .position(name)
                .ok_or_else(|| Failure::Input(format!("the graph has no position '{name}'")))
        })
        .collect::<Result<Vec<usize>, Failure>>()?;
    let solved = match graph.solve() {
        Ok(solved) => solved,
        // A graph with cycles gets generalized values (finite or ∞).
        Err(grundy::Error::Cycle { .. }) => {
            let values = graph.loopy_values()?;
            if tokens.is_empty() {
                let plain = retrograde(graph.adjacency());
                return output::loopy_graph(out, args.format, &graph, &values, &plain);
            }
            let sum = analyze_loopy_sum(graph.adjacency(), &values, &tokens);
            let remoteness = sum_retrograde(graph.adjacency(), &tokens, LOOPY_SUM_STATES)
                .ok()
                .map(|(_, r)| r);
            let names: Vec<String> = (0..graph.len()).map(|p| graph.name(p).to_owned()).collect();
            return output::loopy_sum(out, args.format, &names, &values, &tokens, &sum, remoteness);
        }
        Err(other) => return Err(other.into()),
    };
    if tokens.is_empty() {
        return output::graph(out, args.format, &graph, &solved.values);
    }
    output::graph_sum(out, args.format, &graph, &solved.values, &tokens)
}

/// The most states of a sum `grundy graph --sum` explores for its
/// remoteness when the graph has cycles.
const LOOPY_SUM_STATES: usize = 1_000_000;

/// `grundy maze FILE`.
pub fn maze(args: &MazeArgs, out: &mut impl Write) -> Result<(), Failure> {
    let text = read(&args.file)?;
    let maze = Maze::parse(&text)?;
    let values = maze.values()?;
    output::maze(out, args.format, &maze, &values)
}

/// `grundy check FILE`: exit 0 when the certificate is valid, 1 when it is
/// not (saying exactly what fails), 2 when the file cannot be read.
pub fn check(args: &CheckArgs, out: &mut impl Write) -> Result<(), Failure> {
    let path = args.file.display();
    let text = read(&args.file)?;
    let certificate: Certificate = serde_json::from_str(&text)
        .map_err(|e| Failure::Input(format!("{path} is not a certificate: {e}")))?;
    match certificate.check() {
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
        Err(other) => Err(other.into()),
    }
}

/// `grundy compare A B --to N`.
pub fn compare(args: &CompareArgs, out: &mut impl Write) -> Result<(), Failure> {
    let first: HeapGame = args.first.parse()?;
    let second: HeapGame = args.second.parse()?;
    let to = parse_size(&args.to)?;
    let solver = solver(&args.table)?;
    let limits = Limits::default();
    solver.check_fits(to.max(limits.max))?;
    let comparison = analysis::compare(&first, &second, to, &limits, &solver)?;
    output::comparison(
        out,
        args.format,
        [args.first.trim(), args.second.trim()],
        &comparison,
    )
}

/// `grundy sum GAME H1 H2 ...`, where a heap may be written `GAME:H`.
pub fn sum(args: &SumArgs, out: &mut impl Write) -> Result<(), Failure> {
    let (games, names, components) = components(&args.game, &args.heaps)?;
    let analysis = analyze_sum(&games, &components, &solver(&args.table)?)?;
    output::sum(out, args.format, &names, &components, &analysis)
}

/// A sum as written: its distinct games, the names they were written with,
/// and its components.
type WrittenSum = (Vec<HeapGame>, Vec<String>, Vec<Component>);

/// The components of a sum written as heap sizes of `game` or `GAME:H`.
fn components(game: &str, heaps: &[String]) -> Result<WrittenSum, Failure> {
    let mut games: Vec<HeapGame> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut components = Vec::with_capacity(heaps.len());
    for written in heaps {
        let (name, size) = match written.rsplit_once(':') {
            Some((name, size)) => (name.trim(), size),
            None => (game.trim(), written.as_str()),
        };
        let game: HeapGame = name.parse()?;
        let heap = parse_size(size)?;
        let heap = usize::try_from(heap).map_err(|_| {
            Failure::Input(format!("heap size {heap} is too large for this machine"))
        })?;
        let index = match games.iter().position(|g| *g == game) {
            Some(index) => index,
            None => {
                games.push(game);
                names.push(name.to_owned());
                games.len() - 1
            }
        };
        components.push(Component { game: index, heap });
    }
    Ok((games, names, components))
}

/// `grundy count`.
pub fn count(args: &CountArgs, out: &mut impl Write) -> Result<(), Failure> {
    let solver = solver(&args.table)?;
    let mut limits = Limits::default();
    if let Some(max) = &args.max {
        limits.max = parse_size(max)?;
    }
    let arithmetic = match args.modulus {
        Some(0) => return Err(Failure::Input("--mod must be at least 1".into())),
        Some(m) => Arithmetic::Modulo(m),
        None => Arithmetic::Exact,
    };
    let spec = args.game.as_deref().unwrap_or("").trim();
    if !args.moves.is_empty() {
        let (games, names, components) = components(spec, &args.moves)?;
        let counts = move_counts(&games, &components, &solver)?;
        return output::move_counts(out, args.format, &names, &components, &counts);
    }
    if !args.ranges.is_empty() {
        let mut described = Vec::new();
        let mut histograms = Vec::new();
        for written in &args.ranges {
            let (name, range) = written.rsplit_once(':').ok_or_else(|| {
                Failure::Input(format!("'{written}': write a range as GAME:FROM..TO"))
            })?;
            let (from, to) = range.split_once("..").ok_or_else(|| {
                Failure::Input(format!("'{written}': write a range as GAME:FROM..TO"))
            })?;
            let game: HeapGame = name.trim().parse()?;
            let (from, to) = (parse_size(from)?, parse_size(to)?);
            histograms.push(value_histogram(&game, from, to, &solver, &limits)?);
            described.push(format!("{} {from}..={to}", name.trim()));
        }
        let counts = count_ordered(&histograms, arithmetic);
        let what = format!(
            "positions of one heap from each of {}",
            described.join(", ")
        );
        return output::nim_sum_counts(out, args.format, &what, &counts, args.modulus, args.all);
    }
    let game: HeapGame = spec.parse()?;
    let from = parse_size(&args.from)?;
    let to = parse_size(args.to.as_deref().unwrap_or_default())?;
    let histogram = value_histogram(&game, from, to, &solver, &limits)?;
    let Some(k) = args.heaps else {
        return output::histogram(out, args.format, spec, from, to, &histogram);
    };
    let (tuples, order) = match (args.unordered, args.distinct) {
        (true, false) => (Tuples::Unordered, ", unordered (a <= b <= ...)"),
        (true, true) => (Tuples::Distinct, ", unordered and distinct (a < b < ...)"),
        (false, true) => (Tuples::OrderedDistinct, ", ordered, distinct heaps"),
        (false, false) => (Tuples::Ordered, ", ordered"),
    };
    let counts = count_tuples(&histogram, k, tuples, arithmetic)?;
    let what = format!("positions of {k} heaps of {spec} in {from}..={to}{order}");
    output::nim_sum_counts(out, args.format, &what, &counts, args.modulus, args.all)
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
    output::nim(out, args.format, &symbol, result)
}

/// `grundy coins RULE [HEADS...]`: coin values, or a row or grid of coins.
pub fn coins(args: &CoinsArgs, out: &mut impl Write) -> Result<(), Failure> {
    let limit = parse_bytes(&args.memory_limit)?;
    let spec = args.rule.trim();
    if let Some((a, b)) = spec.split_once('*') {
        let (columns, rows): (CoinRule, CoinRule) = (a.parse()?, b.parse()?);
        let name = format!("{columns}*{rows}");
        if let Some(to) = &args.to {
            let table = tartan_table(&columns, &rows, parse_size(to)?, limit)?;
            return output::coin_table(out, args.format, &name, &table);
        }
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
        let grid = analyze_grid(&columns, &rows, &heads, limit)?;
        return output::coin_grid(out, args.format, &name, &grid);
    }
    let rule: CoinRule = spec.parse()?;
    if let Some(to) = &args.to {
        let to = parse_size(to)?;
        let bar = progress::heaps(to, "coins");
        let values = rule.values(to, limit, &mut |n| {
            bar.set_position(n as u64);
            true
        });
        bar.finish_and_clear();
        let values = values?;
        return output::coin_values(out, args.format, &rule.to_string(), &values);
    }
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
    let row = analyze_coins(&rule, &heads, limit)?;
    output::coin_row(out, args.format, &rule.to_string(), &row)
}

/// `grundy hackenbush TREES... --graph FILE...`.
pub fn hackenbush(args: &HackenbushArgs, out: &mut impl Write) -> Result<(), Failure> {
    let mut pictures = Vec::new();
    let mut names = Vec::new();
    for tree in &args.trees {
        pictures.push(Hackenbush::tree(tree)?);
        names.push(tree.to_owned());
    }
    for path in &args.graph {
        let text = read(path)?;
        pictures.push(
            Hackenbush::parse(&text)
                .map_err(|e| Failure::Input(format!("{}: {e}", path.display())))?,
        );
        names.push(path.display().to_string());
    }
    if pictures.is_empty() {
        return Err(Failure::Input(
            "give one or more trees, e.g. '(()())', or --graph FILE".into(),
        ));
    }
    let sum = analyze_hackenbush(&pictures);
    output::hackenbush(out, args.format, &names, &pictures, &sum)
}

/// Heaps of Fibonacci Nim tabulated in full (every winning take listed);
/// larger ones use Whinihan's theorem.
const FIBONACCI_TABLE: u64 = 1 << 20;

/// `grundy fibonacci-nim N [--limit K] [--ratio C]`.
pub fn fibonacci_nim(args: &FibonacciNimArgs, out: &mut impl Write) -> Result<(), Failure> {
    let heap = parse_size(&args.heap)?;
    let limit = match &args.limit {
        Some(limit) => parse_size(limit)?,
        None => FibonacciNim::opening_limit(heap),
    };
    let game = FibonacciNim { ratio: args.ratio };
    let found = game.outcome(heap, limit, FIBONACCI_TABLE, 1 << 30)?;
    output::fibonacci_nim(out, args.format, heap, limit.min(heap), args.ratio, &found)
}

/// `grundy outcomes FILE.rhai --states N [--position S]...`.
pub fn outcomes(args: &OutcomesArgs, out: &mut impl Write) -> Result<(), Failure> {
    let game = compile_script(&args.script.to_string_lossy(), &args.script_limits)?;
    let states = parse_size(&args.states)?;
    let positions = args
        .position
        .iter()
        .map(|p| parse_size(p))
        .collect::<Result<Vec<u64>, _>>()?;
    if let Some(&past) = positions.iter().find(|&&p| p >= states) {
        return Err(Failure::Input(format!(
            "--position {past} is not among the states 0..{states}"
        )));
    }
    let bar = progress::heaps(states, "outcomes");
    let found = game.outcomes(states, parse_bytes(&args.memory_limit)?, &mut |s| {
        bar.set_position(s);
        true
    });
    bar.finish_and_clear();
    let found = found?;
    // Winning moves: the options that are lost for the opponent.
    let mut reports = Vec::new();
    for &p in &positions {
        let mut winning: Vec<u64> = game
            .state_options(p)?
            .into_iter()
            .filter(|&o| found.is_loss(o))
            .collect();
        winning.sort_unstable();
        winning.dedup();
        reports.push((p, winning));
    }
    output::outcomes(out, args.format, game.name(), &found, &reports)
}

/// `grundy misere GAME --to N` or `grundy misere GAME HEAPS...`.
pub fn misere(args: &MisereArgs, out: &mut impl Write) -> Result<(), Failure> {
    let game: HeapGame = args.game.parse()?;
    let budget = usize::try_from(parse_size(&args.budget)?).unwrap_or(usize::MAX);
    let terms = args.terms as usize;
    if let Some(bound) = &args.quotient {
        let bound = usize::try_from(parse_size(bound)?)
            .unwrap_or(usize::MAX)
            .min(MISERE_HEAPS);
        let quotient = MisereQuotient::compute(&game, bound, args.fold, budget)?;
        let heaps = args
            .heaps
            .iter()
            .map(|h| parse_size(h).map(|h| h as usize))
            .collect::<Result<Vec<usize>, _>>()?;
        let played = if heaps.is_empty() {
            None
        } else {
            let loses = quotient.loses(&heaps)?;
            Some((heaps.clone(), loses, quotient.winning_moves(&game, &heaps)?))
        };
        return output::quotient(
            out,
            args.format,
            &game.to_string(),
            &quotient,
            played.as_ref(),
        );
    }
    if let Some(to) = &args.to {
        let to = usize::try_from(parse_size(to)?).unwrap_or(usize::MAX);
        if to > MISERE_HEAPS {
            return Err(Failure::Input(format!(
                "--to {to}: genera are searched, so at most heap {MISERE_HEAPS}"
            )));
        }
        let mut misere = Misere::new(&game, to)?.with_budget(budget);
        let genera = misere.genera(to, terms)?;
        return output::genera(out, args.format, &args.game, &game.to_string(), &genera);
    }
    if args.heaps.is_empty() {
        return Err(Failure::Input(
            "give heaps to play, or --to N for the genera".into(),
        ));
    }
    let heaps = args
        .heaps
        .iter()
        .map(|h| parse_size(h).map(|h| h as usize))
        .collect::<Result<Vec<usize>, _>>()?;
    let largest = heaps.iter().copied().max().unwrap_or(0);
    if largest > MISERE_HEAPS {
        return Err(Failure::Input(format!(
            "heap {largest}: misère sums are searched, so heaps up to {MISERE_HEAPS}"
        )));
    }
    let mut misere = Misere::new(&game, largest)?.with_budget(budget);
    // Genera first, so that sums of hereditarily tame heaps need no search.
    misere.genera(largest, terms.max(3))?;
    let (value, moves) = misere.analyze_sum(&heaps)?;
    output::misere_sum(out, args.format, &game.to_string(), &heaps, value, &moves)
}

/// The largest heap `grundy misere` searches (positions grow exponentially
/// with it; the position budget stops a search that grows too far).
const MISERE_HEAPS: usize = 10_000;

/// `grundy plot GAME --to N -o FILE`.
pub fn plot(args: &PlotArgs, out: &mut impl Write) -> Result<(), Failure> {
    let game: HeapGame = args.game.parse()?;
    let to = parse_size(&args.to)?;
    let solver = solver(&args.table)?;
    let limits = Limits {
        to: Some(to),
        ..Limits::default()
    };
    let bar = progress::heaps(to.saturating_add(1), "values");
    let found = analysis::analyze(&game, &limits, &solver, &mut |n| {
        bar.set_position(n as u64);
        true
    });
    bar.finish_and_clear();
    let found = found?;
    let support = if found.is_proven() {
        "proven"
    } else {
        "observed"
    };
    let picture = crate::plot::Picture {
        title: format!("{} ({}), g(0..={to})", args.game.trim(), found.game),
        values: &found.values,
        period: found
            .periodicity
            .filter(|p| p.saltus == 0)
            .map(|p| (p.preperiod, p.period)),
        support,
    };
    let drawn = crate::plot::draw(
        &args.output,
        &picture,
        args.view,
        (args.width, args.height),
        args.columns.map(|c| c as usize),
    )
    .map_err(Failure::Input)?;
    output::plotted(out, args.format, &args.output, &picture, &drawn)
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
    output::catalogue(out, args.format, CATALOGUE)
}

/// The text of a file the user named; failing to read it is bad input.
fn read(path: &std::path::Path) -> Result<String, Failure> {
    std::fs::read_to_string(path)
        .map_err(|e| Failure::Input(format!("cannot read {}: {e}", path.display())))
}

fn solver(args: &TableArgs) -> Result<TableSolver, Failure> {
    let engine = match args.engine {
        EngineArg::Auto => Engine::Auto,
        EngineArg::Dense => Engine::Dense,
        EngineArg::Sparse => Engine::Sparse,
    };
    Ok(TableSolver::new()
        .with_memory_limit(parse_bytes(&args.memory_limit)?)
        .with_engine(engine)
        .with_threads(args.threads as usize))
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
