//! Command-line arguments. Doc comments here are the `--help` text.

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Grundy values, sums and winning moves for impartial combinatorial games.
///
/// A GAME is a built-in name (kayles, grundy, lasker, ...), a take-and-break
/// code (0.137, 4!.0, 0.[3]) or a subtraction set (sub(1,3,4),
/// sub(squares)). `grundy games` lists them all.
#[derive(Debug, Parser)]
#[command(name = "grundy", version, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Analyse a heap game: period and pre-period (proven by theorem where one
    /// applies), exceptions, P-positions, largest value, histogram.
    Analyze(AnalyzeArgs),
    /// Re-check a periodicity certificate with the plain solver.
    Check(CheckArgs),
    /// Compare two heap games value by value; prove them equal when both are
    /// proven periodic.
    Compare(CompareArgs),
    /// Propose the simplest formula for a game's values (or a sequence read
    /// from a file) and a rule for its P-positions, verified on every
    /// computed value.
    Guess(GuessArgs),
    /// Solve a game given as a graph file: every position's value, the
    /// P-positions, and every winning move. Graphs with cycles get
    /// generalized values (finite or ∞), win/lose/draw with remoteness, and
    /// drawing moves.
    Graph(GraphArgs),
    /// Solve a grid game drawn as an ASCII map ('#' wall, '.' floor, a letter
    /// or digit for each figure; a figure moves any number of squares left
    /// or up through floor): every square's value, the winner, every winning
    /// move.
    Maze(MazeArgs),
    /// Print the Grundy values g(0), g(1), ..., g(N) of a heap game.
    Values(ValuesArgs),
    /// Who wins a sum of heaps, and every winning move.
    Sum(SumArgs),
    /// Count without enumerating: how many heaps of a range have each value,
    /// how many positions of K heaps are P-positions (ordered, unordered or
    /// distinct heaps; ranges up to 10^18 for proven periodic games), or
    /// the moves of a sum by the value they reach.
    Count(CountArgs),
    /// The winning moves of every heap of a range: for each heap its value,
    /// how many moves win (reach value 0), and the fewest and most tokens a
    /// winning move takes; then the range counted by value (through a
    /// proven period for long ranges). Also every position (a, b) of a game
    /// on pairs, a lone head on every coin of a row or grid, and every
    /// position of a script reachable from --position.
    Moves(MovesArgs),
    /// List the built-in games and the notations accepted for GAME; for a
    /// script FILE.rhai, the parameters it declares (its constants, which
    /// --define sets).
    Games(GamesArgs),
    /// Arithmetic in the nim field (64-bit): add (XOR), mul, pow, inv,
    /// sqrt, e.g. `grundy nim mul 5 7`.
    Nim(NimArgs),
    /// Coin-turning games: the value of each coin, or who wins a row (or,
    /// for a product A*B, a grid) of coins and a winning move.
    Coins(CoinsArgs),
    /// Green Hackenbush: the value of each picture (trees by the colon
    /// principle, cycles by the fusion principle), who wins them played
    /// together, and every winning cut.
    Hackenbush(HackenbushArgs),
    /// Fibonacci Nim: one heap, the first move takes 1 to N-1, each later
    /// move at most twice the last take; who wins and every winning take.
    FibonacciNim(FibonacciNimArgs),
    /// Who wins, for games that are not sums: a script FILE.rhai whose
    /// options(s) lists smaller state numbers is swept over states 0..N,
    /// one bit each; the P-positions, and the winning moves of --position.
    Outcomes(OutcomesArgs),
    /// Misère play (the last player to move loses): the genus of each heap
    /// (`--to N`), or who wins heaps played together and every winning
    /// move, by exhaustive search with the misère Nim rule and tame heaps.
    Misere(MisereArgs),
    /// Draw a game's values as SVG or PNG: g(n) against n with P-positions
    /// and the period marked, or a "periodic table" of rows of one period.
    Plot(PlotArgs),
    /// Start the web playground on this machine: explore a game's values,
    /// plot and period, and play sums against the perfect opponent.
    Serve(ServeArgs),
    /// Analyse whole families of games at once (`0.??`, `4.???`, `0.?7`,
    /// `0.[0-f][137]`, or a file of specs, one per line), every game on its
    /// own core: one row per game (period, proof, largest value, sparse
    /// statistics, equivalence class), streamed to --output as games
    /// finish; a rerun with the same --output skips the finished games.
    /// `grundy census merge FILES...` joins shards.
    Census(CensusArgs),
    /// Value streams written by `analyze --values-out`: check them against
    /// the engine, print their values or their histogram.
    Stream(StreamArgs),
}

#[derive(Debug, Args)]
pub struct ValuesArgs {
    /// The game, e.g. kayles, 0.137 or sub(1,3,4), or a script FILE.rhai
    /// defining options(p) (see the README).
    pub game: String,
    /// The largest heap: 100, 1e6 and 2^20 are all accepted.
    #[arg(
        long,
        value_name = "N",
        allow_hyphen_values = true,
        required_unless_present = "position"
    )]
    pub to: Option<String>,
    /// For a script: a position to evaluate, a heap (7) or a tuple ([3,4]);
    /// several are played together as a sum, with its winning moves.
    #[arg(long, value_name = "P", conflicts_with = "to")]
    pub position: Vec<String>,
    #[command(flatten)]
    pub script: ScriptArgs,
    #[command(flatten)]
    pub table: TableArgs,
    #[command(flatten)]
    pub resumable: ResumeArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Write values as nimbers, 0 * *2 *3 ... (text, CSV and LaTeX).
    #[arg(long)]
    pub star: bool,
}

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// The game, e.g. kayles, 0.137 or sub(1,3,4), or a script FILE.rhai of
    /// a heap game (computed to --to or --max, default 1000 heaps; its
    /// period is observed, never proven).
    pub game: String,
    /// Compute exactly heaps 0..=N instead of adaptively.
    #[arg(
        long,
        value_name = "N",
        allow_hyphen_values = true,
        conflicts_with = "max"
    )]
    pub to: Option<String>,
    /// The largest heap an adaptive run computes (default 2^17). Values
    /// take 1 byte per heap while below 256 (see --memory-limit); plain
    /// tables cost about N^2 / 4 operations for games that split heaps.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub max: Option<String>,
    /// Write a certificate of the proven period to FILE (JSON), for
    /// `grundy check`.
    #[arg(long, value_name = "FILE")]
    pub certificate: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub script: ScriptArgs,
    #[command(flatten)]
    pub table: TableArgs,
    #[command(flatten)]
    pub resumable: ResumeArgs,
    #[command(flatten)]
    pub record: RecordArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SumFormat::Text)]
    pub format: SumFormat,
}

/// Record runs: take-and-break codes to billions of heaps in bounded
/// memory.
#[derive(Debug, Args)]
pub struct RecordArgs {
    /// Compute with the windowed sparse engine: a few MiB of memory however
    /// far --to goes, every value written to a stream (--values-out, else
    /// a scratch file), and a histogram instead of a table. Chosen by
    /// itself when the table would not fit --memory-limit, or would pass
    /// 256 MiB with nothing to keep it (--checkpoint, --resume, --table,
    /// --engine dense) and the temporary folder is on a disk with room for
    /// the stream (not tmpfs).
    #[arg(long)]
    pub window: bool,
    /// Keep the full table even past 256 MiB, as long as it fits
    /// --memory-limit (a windowed run is then chosen only for a table that
    /// would not fit).
    #[arg(long, conflicts_with_all = ["window", "values_out"])]
    pub table: bool,
    /// Write g(0..=N) to FILE as a checksummed value stream (implies
    /// --window), for `grundy stream`. A FILE that holds values already is
    /// refused unless the run resumes it (--resume) or --force is given.
    #[arg(long, value_name = "FILE")]
    pub values_out: Option<std::path::PathBuf>,
    /// Write --values-out over a file that holds values already.
    #[arg(long, requires = "values_out")]
    pub force: bool,
    /// Print a JSON progress line on stderr every SECONDS (windowed runs).
    #[arg(long, value_name = "SECONDS")]
    pub log_every: Option<f64>,
    /// Bytes per value of a windowed run, in memory and in the stream: 1
    /// holds values below 256, 2 below 65536. Without it a run starts at 1
    /// and goes on at 2 from the first value above 255, rewriting its
    /// stream once (Grundy's game reaches 256 at heap 7,250,049).
    #[arg(long, value_name = "BYTES", value_parser = clap::value_parser!(u8).range(1..=2))]
    pub values_width: Option<u8>,
    /// A windowed run searches its last HEAPS heaps for a period (read back
    /// from its stream, five bytes a heap of --memory-limit), so it finds
    /// periods up to HEAPS/2; a period found is then checked on every heap
    /// and proven as a full table's. Without it the search starts at 2^22
    /// heaps and goes on to the whole stream, read back chunk by chunk,
    /// unless the game's theorem could prove no longer period.
    #[arg(long, value_name = "HEAPS", value_parser = size)]
    pub period_window: Option<u64>,
    /// How often a windowed run saves its --checkpoint, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub checkpoint_every: f64,
}

#[derive(Debug, Args)]
pub struct StreamArgs {
    #[command(subcommand)]
    pub action: StreamAction,
}

#[derive(Debug, Subcommand)]
pub enum StreamAction {
    /// Check chunks against their checksums and the root, computing
    /// nothing (at disk speed); with --recompute, compute chunks again
    /// with the engine and compare them value by value.
    Verify {
        /// The stream.
        file: std::path::PathBuf,
        /// Only chunks A..B (of 65536 heaps each; default all): checked, or
        /// with --recompute recomputed (every chunk's checksum is checked
        /// then).
        #[arg(long, value_name = "A..B")]
        chunks: Option<String>,
        /// Compute the chunks again with the windowed engine (from heap 0,
        /// or from --from) and compare them value by value.
        #[arg(long)]
        recompute: bool,
        /// Recompute from this checkpoint of the run that wrote the stream
        /// (a copy of its --checkpoint, saved at a heap at or before the
        /// chunks'), instead of from heap 0.
        #[arg(long, value_name = "CHECKPOINT", requires = "recompute")]
        from: Option<std::path::PathBuf>,
        /// The most memory the recomputation's window may take.
        #[arg(long, value_name = "BYTES", default_value = "4G")]
        memory_limit: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = SumFormat::Text)]
        format: SumFormat,
    },
    /// Print the values of heaps --from..=--to.
    Cat {
        /// The stream.
        file: std::path::PathBuf,
        /// The first heap.
        #[arg(long, value_name = "N", default_value = "0", value_parser = size)]
        from: u64,
        /// The last heap (default the stream's last, at most 10^7 heaps
        /// after --from).
        #[arg(long, value_name = "N", value_parser = size)]
        to: Option<u64>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// The histogram of heaps 1..=N as `value count` lines, the format of
    /// Rogalski's published histograms.
    Hist {
        /// The stream.
        file: std::path::PathBuf,
        /// The last heap counted (default the stream's last).
        #[arg(long, value_name = "N", value_parser = size)]
        to: Option<u64>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = SumFormat::Text)]
        format: SumFormat,
    },
}

#[derive(Debug, Args)]
pub struct GuessArgs {
    /// The game, e.g. kayles; or give --file.
    #[arg(required_unless_present = "file", conflicts_with = "file")]
    pub game: Option<String>,
    /// Read the sequence g(0), g(1), ... from FILE instead: integers
    /// separated by spaces, commas or newlines.
    #[arg(long, value_name = "FILE")]
    pub file: Option<std::path::PathBuf>,
    /// Compute exactly heaps 0..=N (default: adaptively, as `analyze`).
    #[arg(
        long,
        value_name = "N",
        allow_hyphen_values = true,
        conflicts_with = "file"
    )]
    pub to: Option<String>,
    #[command(flatten)]
    pub table: TableArgs,
    #[command(flatten)]
    pub script: ScriptArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SumFormat::Text)]
    pub format: SumFormat,
}

#[derive(Debug, Args)]
pub struct GraphArgs {
    /// The graph: an edge list (`FROM TO [LABEL]` or `FROM -> TO [LABEL]`
    /// per line, a lone name for a position without moves, `#` comments) or
    /// JSON (`{"edges": [{"from", "to", "label"}], "nodes": [...]}`).
    pub file: std::path::PathBuf,
    /// Play a sum: one token on each named position (names may repeat), and
    /// print who wins and every winning move instead of the whole table.
    #[arg(long, num_args = 1.., value_name = "POSITION")]
    pub sum: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SumFormat::Text)]
    pub format: SumFormat,
}

#[derive(Debug, Args)]
pub struct MazeArgs {
    /// The map file.
    pub file: std::path::PathBuf,
    /// The most memory the squares' values may take, e.g. 512MiB (about
    /// 8 bytes a square).
    #[arg(long, default_value = "4GiB")]
    pub memory_limit: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SumFormat::Text)]
    pub format: SumFormat,
}

#[derive(Debug, Args)]
pub struct CoinsArgs {
    /// The rule: turtles (turn 1 or 2 coins), mock-turtles (1 to 3), twins
    /// (exactly 2), turn(K) (at most K), turn(=K) (exactly K), ruler (any
    /// number of consecutive coins), ruler(K) (at most K consecutive),
    /// runs(A,B,...) (a run of A, B, ... consecutive coins; A..B a range,
    /// any lengths), grunt (four symmetric coins 1, 1+i, n-i, n: Grundy's
    /// game); or a product A*B played on a grid (Tartan theorem). Coins are
    /// numbered from 1 on the left (and from 1 at the top of a grid); the
    /// rightmost coin a move turns goes from heads to tails.
    pub rule: String,
    /// The heads: coin numbers (3 7 12), or X,Y pairs for a product.
    pub heads: Vec<String>,
    /// Print the values of coins 1..=N (a table for a product).
    #[arg(long, value_name = "N")]
    pub to: Option<String>,
    /// The row as a string of H (heads) and T (tails), coin 1 first.
    #[arg(long, value_name = "HT...")]
    pub row: Option<String>,
    /// A grid for a product rule: a file of lines of H and T, row 1 first
    /// (`-` reads standard input).
    #[arg(long, value_name = "FILE")]
    pub grid: Option<std::path::PathBuf>,
    /// The most memory tables may take, e.g. 512MiB.
    #[arg(long, default_value = "4GiB")]
    pub memory_limit: String,
    /// The most machine-word operations a coin table (a rule without a
    /// closed form) or the cuts of a Hackenbush picture with cycles may
    /// take (the default, 10^9, is seconds).
    #[arg(long, value_name = "OPS", default_value = "1e9", value_parser = size)]
    pub work_limit: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SumFormat::Text)]
    pub format: SumFormat,
}

#[derive(Debug, Args)]
pub struct HackenbushArgs {
    /// Rooted trees in bracket notation: each (...) is an edge carrying the
    /// edges inside it on its top, so () is one edge, (()) a stalk of two
    /// and (()()) an edge with two twigs. Edges are numbered from 1 in the
    /// order of their opening brackets. hackenbush:FILE reads a tree (or an
    /// edge list) from a file: a tree too long for the command line.
    pub trees: Vec<String>,
    /// A picture as an edge list file: `A B` per line, the ground named
    /// `ground` or `g`, `#` comments; cycles, loops and repeated edges are
    /// allowed. Repeat for several pictures.
    #[arg(long, value_name = "FILE")]
    pub graph: Vec<std::path::PathBuf>,
    /// Count each picture's cuts by the value they leave, and the winning
    /// ones, without listing them (pictures of millions of edges).
    #[arg(long)]
    pub count_moves: bool,
    /// The most machine-word operations finding or counting the cuts of
    /// pictures with cycles may take: an edge on a cycle that is not a loop
    /// costs a revaluation of its picture (the default, 10^9, is about five
    /// seconds).
    #[arg(long, value_name = "OPS", default_value = "1e9", value_parser = size)]
    pub work_limit: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SumFormat::Text)]
    pub format: SumFormat,
}

#[derive(Debug, Args)]
pub struct FibonacciNimArgs {
    /// The heap: 100, 1e12 and 2^40 are all accepted.
    pub heap: String,
    /// The largest take allowed now (default: the opening move, N - 1).
    #[arg(long)]
    pub limit: Option<String>,
    /// Each take may be at most C times the last one, rounded down (2:
    /// Fibonacci Nim); C is a positive integer, fraction or decimal
    /// (`3/2`, `1.618`), in exact arithmetic.
    #[arg(long, value_name = "C", default_value = "2")]
    pub ratio: String,
    /// The most takes the table of least winning takes may try (heap `n`
    /// tries up to its least winning take: about N^2 / 2 for large ratios).
    #[arg(long, value_name = "OPS", default_value = "1e9", value_parser = size)]
    pub work_limit: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SumFormat::Text)]
    pub format: SumFormat,
}

#[derive(Debug, Args)]
pub struct OutcomesArgs {
    /// A script FILE.rhai defining options(s) for a state number s, every
    /// option a smaller state (a bitmask of pieces left, a number whose
    /// digits are played, ...).
    pub script: std::path::PathBuf,
    /// How many states to classify: 0..N.
    #[arg(long, value_name = "N")]
    pub states: String,
    /// A state to report on: who wins and every winning move (repeat).
    #[arg(long, value_name = "S")]
    pub position: Vec<String>,
    /// The most memory the sweep may take (one bit per state).
    #[arg(long, value_name = "BYTES", default_value = "4G")]
    pub memory_limit: String,
    /// Threads the sweep may use (default: every core). Each runs the
    /// script on its own batches of states; the answer, an error and what
    /// the script prints are the same on any number. 1 keeps it on one
    /// thread (at most 4 a core).
    #[arg(long, value_name = "N", value_parser = threads)]
    pub threads: Option<u32>,
    #[command(flatten)]
    pub script_limits: ScriptArgs,
    /// Output format: JSON and CSV list every P-position, text the first.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Debug, Args)]
pub struct MisereArgs {
    /// The heap game, e.g. kayles, 0.137 or sub(1,3,4).
    pub game: String,
    /// Heaps played together (misère outcome and winning moves).
    pub heaps: Vec<String>,
    /// Print the genus of heaps 0..=N instead.
    #[arg(long, value_name = "N")]
    pub to: Option<String>,
    /// Compute the misère quotient of heaps 1..=N (Plambeck–Siegel):
    /// generators, relations, P-portion; with heaps, play them through it.
    #[arg(long, value_name = "N")]
    pub quotient: Option<String>,
    /// The largest fold tried for the quotient (multiplicities K+1 fold to
    /// K-1); a larger fold handles generators of larger index.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(2..=12))]
    pub fold: u32,
    /// How many misère values of the genus to compute (γ0, γ1, ...).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u64).range(1..=16))]
    pub terms: u64,
    /// The most positions the search may remember.
    #[arg(long, value_name = "N", default_value = "5e6")]
    pub budget: String,
    #[command(flatten)]
    pub script: ScriptArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SumFormat::Text)]
    pub format: SumFormat,
}

#[derive(Debug, Args)]
pub struct PlotArgs {
    /// The heap game, e.g. grundy, 0.161 or sub(1,3,4).
    pub game: String,
    /// The largest heap: 1e6 and 2^20 are accepted.
    #[arg(long, value_name = "N")]
    pub to: String,
    /// The picture to write: FILE.svg or FILE.png.
    #[arg(short, long, value_name = "FILE")]
    pub output: std::path::PathBuf,
    /// scatter (g(n) against n), table (rows of one period) or histogram
    /// (heaps of each value).
    #[arg(long, value_enum, default_value_t = crate::plot::View::Scatter)]
    pub view: crate::plot::View,
    /// Put the heaps on a logarithmic axis (scatter), for long runs.
    #[arg(long)]
    pub log: bool,
    /// Row length for the table view (default: the period, else 32).
    #[arg(long, value_name = "C", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub columns: Option<u64>,
    /// Picture width in pixels.
    #[arg(long, default_value_t = 1200, value_parser = clap::value_parser!(u32).range(200..=20_000))]
    pub width: u32,
    /// Picture height in pixels.
    #[arg(long, default_value_t = 700, value_parser = clap::value_parser!(u32).range(150..=20_000))]
    pub height: u32,
    #[command(flatten)]
    pub table: TableArgs,
    #[command(flatten)]
    pub script: ScriptArgs,
    /// Output format of the report printed after drawing.
    #[arg(long, value_enum, default_value_t = SumFormat::Text)]
    pub format: SumFormat,
}

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct CensusArgs {
    #[command(subcommand)]
    pub merge: Option<CensusCommand>,
    /// Families: code patterns (`?` is any octal digit, `[...]` a set of
    /// hexadecimal digits with ranges, as in 0.[0-f]), single games, or
    /// files listing games one per line (`#` starts a comment).
    #[arg(value_name = "FAMILY", required = true)]
    pub families: Vec<String>,
    /// The largest heap each game is analysed to (1e6 and 2^20 are
    /// accepted).
    #[arg(long, value_name = "N", default_value = "2^17", value_parser = size)]
    pub max: u64,
    /// Seconds each game may take; a game cut by it says `stopped: time`
    /// and is never proven. A game also stops (as `time`) before a step
    /// (twice the heaps) that is not expected to end within it, unless its
    /// period could be proven within that step.
    #[arg(long, value_name = "SECONDS")]
    pub time_per_game: Option<f64>,
    /// Memory each game may take, e.g. 512M (a game whose next table would
    /// not fit stops with `stopped: memory`); the census takes up to
    /// --jobs times this.
    #[arg(long, value_name = "BYTES", default_value = "1G")]
    pub memory_limit: String,
    /// Games analysed at once, each on one thread (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub jobs: Option<u32>,
    /// Only the K-th of N equal shares of the games (K from 1), for job
    /// arrays; `grundy census merge` joins the shards' outputs.
    #[arg(long, value_name = "K/N", value_parser = shard)]
    pub shard: Option<(usize, usize)>,
    /// Write each game's row to FILE as it finishes (CSV when FILE ends
    /// in .csv, JSON lines otherwise), and skip the games FILE already
    /// holds (read back from either format).
    #[arg(long, value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub print: CensusPrint,
}

/// How a census is printed.
#[derive(Debug, Args)]
pub struct CensusPrint {
    /// Output format: a summary (text), one JSON object per game per line
    /// (json), or one CSV line per game (csv).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Print Markdown tables in the shape of Czajka's SolvedGames.md and
    /// UnsolvedGames.md instead.
    #[arg(long)]
    pub markdown: bool,
}

#[derive(Debug, Subcommand)]
pub enum CensusCommand {
    /// Join the outputs of census shards (JSON lines) and recompute the
    /// classes.
    Merge(CensusMergeArgs),
}

#[derive(Debug, Args)]
pub struct CensusMergeArgs {
    /// The shards' --output files.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<std::path::PathBuf>,
    #[command(flatten)]
    pub print: CensusPrint,
}

/// `K/N` with `1 <= K <= N`.
fn shard(text: &str) -> Result<(usize, usize), String> {
    let invalid = || format!("invalid shard '{text}': expected K/N with 1 <= K <= N");
    let (k, n) = text.split_once('/').ok_or_else(invalid)?;
    let (k, n): (usize, usize) = (
        k.trim().parse().map_err(|_| invalid())?,
        n.trim().parse().map_err(|_| invalid())?,
    );
    grundy::session::check_shard(k, n).map_err(|_| invalid())?;
    Ok((k, n))
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The address to listen on (loopback by default: only this machine).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: std::net::IpAddr,
    /// The port (0 picks a free one).
    #[arg(long, default_value_t = 8000)]
    pub port: u16,
    /// The seconds a request may compute before it is answered 503 (at
    /// most 3600).
    #[arg(long, value_name = "SECONDS", default_value_t = 3.0)]
    pub deadline: f64,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// A certificate written by `grundy analyze --certificate`.
    pub file: std::path::PathBuf,
    /// The largest heap the plain solver recomputes; a certificate whose
    /// proof needs more is refused before any work (the plain solver's time
    /// grows with the square of the heaps for games that split).
    #[arg(long, value_name = "N", default_value = "2^17")]
    pub max: String,
}

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The first game.
    pub first: String,
    /// The second game.
    pub second: String,
    /// Compare at least heaps 0..=N.
    #[arg(
        long,
        value_name = "N",
        allow_hyphen_values = true,
        default_value = "1000"
    )]
    pub to: String,
    #[command(flatten)]
    pub table: TableArgs,
    #[command(flatten)]
    pub script: ScriptArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SumFormat::Text)]
    pub format: SumFormat,
}

#[derive(Debug, Args)]
pub struct MovesArgs {
    /// The game, e.g. kayles, 0.137, sub(1,3,4), wythoff, a coin rule
    /// (turtles: a lone head on each coin; turtles*ruler: on each coin of
    /// the grid), or a script FILE.rhai.
    pub game: String,
    /// The first heap.
    #[arg(long, value_name = "N", default_value = "0", value_parser = size)]
    pub from: u64,
    /// The last heap (of a game on pairs, the largest coordinate; of coins,
    /// the last coin, column and row): 100, 1e6 and 2^20 are all accepted.
    #[arg(long, value_name = "N", value_parser = size, required_unless_present = "position")]
    pub to: Option<u64>,
    /// A script's position (a heap 7 or a tuple [3,4]; repeat it for
    /// several): every position reachable from them is listed with its
    /// winning moves.
    #[arg(long, value_name = "P", conflicts_with_all = ["to", "from"])]
    pub position: Vec<String>,
    /// Only the counts by value, no row for each heap: ranges up to 10^18
    /// for a code with a proven period whose moves leave at most two heaps
    /// (octal codes, finite subtraction sets); others up to 2^22 heaps.
    #[arg(long)]
    pub by_value: bool,
    /// The most options of one heap listed one by one (codes that move
    /// into many heaps).
    #[arg(long, value_name = "N", default_value = "1e7", value_parser = size)]
    pub max_options: u64,
    /// The most machine-word operations a coin rule's values and moves
    /// may take (the default, 10^9, is seconds).
    #[arg(long, value_name = "OPS", default_value = "1e9", value_parser = size)]
    pub work_limit: u64,
    #[command(flatten)]
    pub table: TableArgs,
    #[command(flatten)]
    pub script: ScriptArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Debug, Args)]
pub struct SumArgs {
    /// The game of every component written as a bare heap size.
    pub game: String,
    /// The components: heap sizes or positions of GAME, or any component
    /// written GAME:POSITION (nim:5, wythoff:3,5, ruler:3,4,6,
    /// graph:FILE:NODE; a tree (()()) or maze:FILE alone). GAME may itself
    /// be the first component.
    #[arg(value_name = "COMPONENT", allow_negative_numbers = true)]
    pub heaps: Vec<String>,
    /// The most options of one heap listed one by one to find its winning
    /// moves (a heap of a code that moves into many heaps may have
    /// billions; its value needs no listing).
    #[arg(long, value_name = "N", default_value = "1e7", value_parser = size)]
    pub max_options: u64,
    /// The most machine-word operations a coin table (a rule without a
    /// closed form) or the cuts of a Hackenbush picture with cycles may
    /// take (the default, 10^9, is seconds).
    #[arg(long, value_name = "OPS", default_value = "1e9", value_parser = size)]
    pub work_limit: u64,
    #[command(flatten)]
    pub table: TableArgs,
    #[command(flatten)]
    pub script: ScriptArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SumFormat::Text)]
    pub format: SumFormat,
}

/// `count --order`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OrderArg {
    Ordered,
    OrderedDistinct,
    Unordered,
    Distinct,
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("several").args(["heaps", "partitions"]).multiple(true)))]
pub struct CountArgs {
    /// The game whose heaps are counted, e.g. kayles or sub(squares).
    #[arg(required_unless_present_any = ["ranges", "histogram"])]
    pub game: Option<String>,
    /// Count the partitions of N into heaps of the game (any number of
    /// heaps adding up to N, in any order) by the nim-sum of their values;
    /// with --heaps K, into exactly K heaps.
    #[arg(long, value_name = "N", value_parser = size, conflicts_with_all = ["moves", "ranges", "histogram"])]
    pub partitions: Option<u64>,
    /// With --partitions: the heap sizes a part may have, written as
    /// `sub(...)` writes its amounts (`1,3,5..9`, `squares`, `primes`,
    /// `2+3k`); every size 1..=N without it.
    #[arg(long, value_name = "SIZES", requires = "partitions")]
    pub parts: Option<String>,
    /// The smallest heap of the range (default 1: non-empty heaps).
    #[arg(long, value_name = "N", default_value = "1")]
    pub from: String,
    /// The largest heap of the range: up to 10^18 when the game's period is
    /// proven, 2^22 otherwise. For a coin-turning rule, the row's last coin
    /// (positions of coins 1..=N); for a product A*B, the grid's last coin
    /// X,Y (columns 1..=X, rows 1..=Y; N alone for N x N), up to 10^18 each
    /// way for rules with a closed form.
    #[arg(long, value_name = "N", required_unless_present_any = ["moves", "ranges", "histogram", "partitions"])]
    pub to: Option<String>,
    /// For a row or grid of coins: also count the positions of nim-sum V.
    #[arg(long, value_name = "V", value_parser = size, conflicts_with_all = ["moves", "ranges", "histogram"])]
    pub nim_sum: Option<u64>,
    /// Count positions of K heaps from the range, by nim-sum (without it:
    /// how many heaps have each value); unordered counts take up to 10^6
    /// heaps (`1e6`). With --partitions: partitions into exactly K heaps.
    #[arg(long, value_name = "K", value_parser = size)]
    pub heaps: Option<u64>,
    /// Count the heaps of a position in any order once (a <= b <= c).
    #[arg(long, requires = "heaps")]
    pub unordered: bool,
    /// Only positions whose heaps are all different (with --unordered:
    /// a < b < c); with --partitions, partitions into distinct parts.
    #[arg(long, requires = "several")]
    pub distinct: bool,
    /// Which positions of K heaps count, in the words Python and the web
    /// use: ordered (tuples), ordered-distinct, unordered (a <= b <= c) or
    /// distinct (a < b < c).
    #[arg(long, value_name = "ORDER", requires = "heaps", conflicts_with_all = ["unordered", "distinct"])]
    pub order: Option<OrderArg>,
    /// Count heaps whose values a file gives instead of a game's: `value
    /// count` lines (Rogalski's published histograms) or a table of values
    /// (one heap's value after another); with --heaps K, positions of K
    /// such heaps.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["game", "ranges", "moves", "to", "from", "by_formula", "formula"])]
    pub histogram: Option<std::path::PathBuf>,
    /// One heap from each range, in order: GAME:FROM..TO (repeat the option).
    #[arg(long = "range", value_name = "GAME:FROM..TO", conflicts_with_all = ["heaps", "moves", "to"])]
    pub ranges: Vec<String>,
    /// Count the moves of the sum of these heaps (GAME:H for another game)
    /// by the value they reach, and its winning moves.
    #[arg(long, value_name = "HEAP", num_args = 1.., conflicts_with_all = ["to", "heaps", "by_formula", "formula"])]
    pub moves: Vec<String>,
    /// Count modulo M instead of exactly (written like every size:
    /// `1000000007`, `1e9`, `2^61`).
    #[arg(long = "mod", value_name = "M", value_parser = size)]
    pub modulus: Option<u64>,
    /// List the count for every nim-sum, not only the P-positions.
    #[arg(long)]
    pub all: bool,
    /// The most machine-word operations a count of several heaps or of
    /// partitions may take (the default, 10^9, is about ten seconds on one
    /// core, a count of partitions a few seconds; an exact count
    /// of many heaps costs a word per digit of its numbers at every step, a
    /// count modulo a prime one); also the most a table of coins of
    /// `turn(K)` or `turn(=K)` may take (rules without a closed form for
    /// K >= 4, whose values grow like a power of the coin).
    #[arg(long, value_name = "OPS", default_value = "1e9", value_parser = size)]
    pub work_limit: u64,
    /// For ranges past 2^22 heaps: the largest heap computed to prove the
    /// period (default 2^17); with --by-formula or --formula, the last heap
    /// computed to verify the formula (default 2^22).
    #[arg(long, value_name = "N")]
    pub max: Option<String>,
    /// Where no period is proven and the range is past the heaps computed
    /// (2^22, or --max): count the heaps beyond by the formula `grundy
    /// guess` finds for every computed value (ctz(n), popcount(n), n mod k,
    /// ...). The report says whether the formula is proven or a conjecture
    /// past the heaps computed.
    #[arg(long, conflicts_with = "formula")]
    pub by_formula: bool,
    /// Count by this formula, written as `grundy guess` prints it (`g(n) =
    /// ctz(n)`, `n mod 3`, `[0 1 1 2][(n - 3) mod 4]`, ...) or in the
    /// formula language of docs/cli.md (`bigomega(n)`, `tau(n) mod 4`,
    /// `digitsum(n, 10)`, ...): it is checked against every value computed
    /// (2^22 heaps, or --max), a wrong one is refused naming the first heap
    /// where it fails, and past the heaps computed the count is by the
    /// formula, a conjecture unless a proven period implies it.
    #[arg(long, value_name = "F")]
    pub formula: Option<String>,
    /// With --unordered or --distinct: the most heaps a position may have
    /// (default 10^6; the work is bounded by --work-limit as well).
    #[arg(long, value_name = "K", default_value_t = grundy::session::UNORDERED_HEAPS_LIMIT, value_parser = size)]
    pub max_heaps: u64,
    /// With --moves: the most options of one heap listed one by one (a
    /// heap of a code that moves into many heaps may have billions).
    #[arg(long, value_name = "N", default_value = "1e7", value_parser = size)]
    pub max_options: u64,
    #[command(flatten)]
    pub table: TableArgs,
    #[command(flatten)]
    pub script: ScriptArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SumFormat::Text)]
    pub format: SumFormat,
}

#[derive(Debug, Args)]
pub struct NimArgs {
    /// The operation.
    #[arg(value_enum)]
    pub op: NimOp,
    /// Its operands: non-negative integers below 2^64 (one for inv and
    /// sqrt, two otherwise; pow takes an ordinary exponent).
    #[arg(required = true, num_args = 1..=2)]
    pub operands: Vec<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SumFormat::Text)]
    pub format: SumFormat,
}

/// Nim-field operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum NimOp {
    /// Nim-sum: XOR.
    Add,
    /// Nim-product.
    Mul,
    /// Nim-power A^E (E an ordinary integer).
    Pow,
    /// Nim-inverse: the B with A * B = 1.
    Inv,
    /// Nim square root: the B with B * B = A.
    Sqrt,
}

#[derive(Debug, Args)]
pub struct GamesArgs {
    /// A script FILE.rhai: list its parameters, each with its value and
    /// the comment above it.
    pub script: Option<String>,
    #[command(flatten)]
    pub limits: ScriptArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SumFormat::Text)]
    pub format: SumFormat,
}

/// Saving and resuming long runs.
#[derive(Debug, Args)]
pub struct ResumeArgs {
    /// Save the table to FILE every few seconds and on Ctrl-C, so that the
    /// run can be continued with --resume FILE.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<std::path::PathBuf>,
    /// Continue from a checkpoint written by --checkpoint (and keep saving
    /// to it, unless --checkpoint names another file).
    #[arg(long, value_name = "FILE")]
    pub resume: Option<std::path::PathBuf>,
}

/// Limits for game scripts.
#[derive(Debug, Args)]
pub struct ScriptArgs {
    /// For a script: the most operations one call of options(p) may take.
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    pub ops_limit: u64,
    /// For a script: the most seconds the whole run may take (for
    /// `compare`, with any game).
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub time_limit: f64,
    /// For a script: give its constant NAME (`const NAME = ...;` outside
    /// its functions) the integer VALUE in place of its own (repeat for
    /// several). `grundy games FILE.rhai` lists a script's constants.
    #[arg(long = "define", value_name = "NAME=VALUE")]
    pub define: Vec<String>,
}

/// Options shared by commands that build value tables.
#[derive(Debug, Args)]
pub struct TableArgs {
    /// The most memory a run may take, e.g. 512M or 16G. A table of heaps
    /// 0..=N holds N+1 bytes while every value is below 256 and 2(N+1)
    /// below 65536; a run is allowed 3(N+1) bytes (the peak while a table
    /// widens; 6(N+1) with --engine dense, which keeps a 4-byte working
    /// copy) and is refused before it starts if that exceeds the limit.
    /// The period search adds a fixed 16 MiB at most.
    #[arg(long, value_name = "BYTES", default_value = "4G")]
    pub memory_limit: String,
    /// How values are computed: `sparse` (the rare/common method, for
    /// take-and-break codes leaving at most two heaps), `dense` (every
    /// option of every heap), or `auto` (sparse where it applies).
    #[arg(long, value_enum, default_value_t = EngineArg::Auto)]
    pub engine: EngineArg,
    /// Threads a table or a windowed run may use (default: every core; at
    /// most 4 a core). The sparse engine computes heaps on all of them
    /// while heaps are expensive (Grundy's game, long runs); 1 keeps it on
    /// one thread.
    #[arg(long, value_name = "N", value_parser = threads)]
    pub threads: Option<u32>,
}

/// The `--engine` choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    /// Sparse where it applies, else dense.
    Auto,
    /// Every option of every heap.
    Dense,
    /// The rare/common method; an error where it does not apply.
    Sparse,
}

/// How tabular results are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Aligned text for people.
    Text,
    /// One JSON document.
    Json,
    /// Comma-separated values with a header line.
    Csv,
    /// An OEIS b-file: `n a(n)` lines, for a sequence of values.
    Bfile,
    /// A LaTeX `tabular`, for a table of values or a census.
    Latex,
}

/// How results that are not tables are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SumFormat {
    /// Text for people.
    Text,
    /// One JSON document.
    Json,
}

/// A size as every size argument takes it (`1000`, `1e9`, `2^20`).
fn size(text: &str) -> Result<u64, String> {
    grundy::spec::parse_size(text).map_err(|e| e.to_string())
}

/// Threads for `--threads`: from 1 to 4 a core (30,000 threads made a
/// table 100 times slower than 10,000, and no machine gains past a few a
/// core).
fn threads(text: &str) -> Result<u32, String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let most = cores.saturating_mul(4).max(4);
    match text.trim().parse::<u32>() {
        Ok(n) if (1..=most as u32).contains(&n) => Ok(n),
        _ => Err(format!(
            "'{text}': give a number of threads from 1 to {most} (4 for each of this machine's \
             {cores} cores)"
        )),
    }
}
