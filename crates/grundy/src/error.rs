//! The library's error type.
//!
//! Every error is a value a front end can print as one line: messages name
//! the offending input and say what is wrong with it.

/// Everything that can go wrong while describing or solving a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A game specification names no known game or family.
    #[error("unknown game '{spec}' (run `grundy games` for the list)")]
    UnknownGame {
        /// The specification as given.
        spec: String,
    },

    /// A Hackenbush picture is malformed.
    #[error(
        "invalid Hackenbush picture{}{}: {reason}",
        file.as_ref().map_or(String::new(), |file| format!(" in {file}")),
        if *line > 0 { format!(" at line {line}") } else { String::new() }
    )]
    InvalidHackenbush {
        /// The file the picture was read from, if any.
        file: Option<String>,
        /// 1-based line of the problem (0 for a tree on one line).
        line: usize,
        /// What is wrong.
        reason: String,
    },

    /// A coin-turning rule is malformed.
    #[error("invalid coin-turning rule '{spec}': {reason}")]
    InvalidCoinRule {
        /// The rule as given.
        spec: String,
        /// What is wrong with it.
        reason: String,
    },

    /// A take-and-break code is malformed.
    #[error("invalid code '{code}' at character {position}: {reason}")]
    InvalidCode {
        /// The code as given.
        code: String,
        /// 1-based character position of the problem.
        position: usize,
        /// What is wrong there.
        reason: String,
    },

    /// A subtraction set is malformed or empty, or contains a non-positive
    /// number.
    #[error("invalid subtraction set '{spec}': {reason}")]
    InvalidSubtractionSet {
        /// The set as given.
        spec: String,
        /// What is wrong with it.
        reason: String,
    },

    /// A heap size is not a non-negative integer.
    #[error("invalid heap size '{text}': {reason}")]
    InvalidSize {
        /// The size as given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },

    /// A value table would need more memory than allowed.
    #[error("a table of heaps 0..={to} needs {needed}, over the limit of {limit}")]
    TableTooLarge {
        /// The largest heap asked for.
        to: u64,
        /// The memory the table needs, human-readable.
        needed: String,
        /// The memory limit in force, human-readable.
        limit: String,
    },

    /// A table other than a heap game's (the squares of a map, say) would
    /// need more memory than allowed.
    #[error("{what} needs {needed}, over the limit of {limit}")]
    MemoryLimit {
        /// What would be allocated.
        what: String,
        /// The memory it needs, human-readable.
        needed: String,
        /// The memory limit in force, human-readable.
        limit: String,
    },

    /// The period search of a windowed run would need more memory than
    /// allowed: its window holds the last heaps of the run and their
    /// failure function.
    #[error(
        "a period search over the last {heaps} heaps needs {needed}, over the limit of {limit}"
    )]
    PeriodSearchTooLarge {
        /// The heaps searched.
        heaps: u64,
        /// The memory the search needs, human-readable.
        needed: String,
        /// The memory limit in force, human-readable.
        limit: String,
    },

    /// The histogram of an analysis (one count per distinct value) would
    /// need more memory than allowed: games such as Nim have a value per
    /// heap.
    #[error(
        "the histogram of heaps 0..={to} has up to {values} values and needs {needed}, over the limit of {limit}"
    )]
    HistogramTooLarge {
        /// The largest heap analysed.
        to: u64,
        /// How many distinct values it may have.
        values: u128,
        /// The memory it needs, human-readable.
        needed: String,
        /// The memory limit in force, human-readable.
        limit: String,
    },

    /// A heap has too many options to list one by one (moves into many
    /// heaps: `0.{62}` at heap 200). Its value, and the values of sums, need
    /// no listing; winning moves and option counts do.
    #[error(
        "heap {heap} of {game} has more than {limit} options, too many to list its moves (its value needs no listing: use `values`)"
    )]
    TooManyOptions {
        /// The game.
        game: String,
        /// The heap.
        heap: u64,
        /// The most options listed.
        limit: u64,
    },

    /// Unordered positions, or ordered ones of distinct heaps, of more heaps
    /// than a count allows (see
    /// [`count_tuples`](crate::analysis::count_tuples)).
    #[error(
        "{kind} of {heaps} heaps: at most {limit} (ordered positions of any heaps take any number)"
    )]
    TooManyHeaps {
        /// What was counted.
        kind: &'static str,
        /// The heaps asked for.
        heaps: u64,
        /// The most heaps allowed.
        limit: u64,
    },

    /// Memory for a table could not be had from the system.
    #[error("cannot allocate {needed} for a table of heaps 0..={to}")]
    OutOfMemory {
        /// The largest heap asked for.
        to: u64,
        /// The memory the table needs, human-readable.
        needed: String,
    },

    /// A component of a sum names a game that is not in the list.
    #[error("a component refers to game {game}, but only {games} game(s) were given")]
    InvalidComponent {
        /// The index given.
        game: usize,
        /// How many games there are.
        games: usize,
    },

    /// The computation was asked to stop (the progress callback returned
    /// `false`); the table holds every heap finished before.
    #[error("interrupted after {heaps} heaps")]
    Interrupted {
        /// How many heaps (`0..heaps`) are finished.
        heaps: u64,
    },

    /// The computation was cancelled from outside it (see
    /// [`Cancel`](crate::Cancel)): the client that asked went away, say.
    #[error("the computation was cancelled")]
    Cancelled,

    /// The computation ran past the time limit of its
    /// [`Cancel`](crate::Cancel) token.
    #[error("the computation took more than {} s, its time limit", .limit.as_secs_f64())]
    TimeLimit {
        /// The limit.
        limit: std::time::Duration,
    },

    /// A graph file is malformed.
    #[error("invalid graph{}: {reason}", if *line > 0 { format!(" at line {line}") } else { String::new() })]
    InvalidGraph {
        /// The 1-based line of an edge list, or 0.
        line: usize,
        /// What is wrong.
        reason: String,
    },

    /// A file of values (a plain sequence or an OEIS b-file) is malformed.
    #[error("invalid sequence{}: {reason}", if *line > 0 { format!(" at line {line}") } else { String::new() })]
    InvalidSequence {
        /// The 1-based line, or 0.
        line: usize,
        /// What is wrong.
        reason: String,
    },

    /// A map of a grid game is malformed.
    #[error("invalid map{}: {reason}", if *line > 0 { format!(" at line {line}") } else { String::new() })]
    InvalidMap {
        /// The 1-based line, or 0.
        line: usize,
        /// What is wrong.
        reason: String,
    },

    /// A windowed run met a value wider than the width it stores.
    #[error(
        "g({heap}) = {value} does not fit {width} byte(s) per value, the width of this windowed run"
    )]
    ValueTooWide {
        /// The heap.
        heap: u64,
        /// Its value.
        value: u32,
        /// Bytes per value of the run.
        width: u8,
    },

    /// A value stream could not be written or read, or is damaged.
    #[error("value stream {path}: {reason}")]
    Stream {
        /// The file.
        path: String,
        /// What went wrong.
        reason: String,
    },

    /// A census shard `k/n` outside `1 <= k <= n`.
    #[error("invalid shard {k}/{n}: expected K/N with 1 <= K <= N")]
    InvalidShard {
        /// The share asked for.
        k: usize,
        /// The number of shares.
        n: usize,
    },

    /// A census file (`--output`) could not be written or read, or holds
    /// something that is not a census row.
    #[error("census file {path}: {reason}")]
    CensusFile {
        /// The file.
        path: String,
        /// What went wrong.
        reason: String,
    },

    /// A checkpoint file could not be written or read.
    #[error("checkpoint {path}: {reason}")]
    Checkpoint {
        /// The file.
        path: String,
        /// What went wrong.
        reason: String,
    },

    /// A formula a user writes is not one of the families `grundy guess`
    /// writes ([`crate::analysis::Formula`]'s parse).
    #[error("invalid formula '{text}': {reason}")]
    InvalidFormula {
        /// The formula as given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },

    /// A formula a user gives for a game's values is wrong at a computed
    /// heap, so it counts nothing.
    #[error(
        "the formula '{formula}' fails at heap {heap}: it gives {}, and g({heap}) = {value} \
         (checked heaps {from}..={checked_to} of {game})",
        predicted.map_or_else(|| "no value".to_owned(), |p| p.to_string())
    )]
    FormulaRefuted {
        /// The formula, as it prints.
        formula: String,
        /// The game.
        game: String,
        /// The first heap where it is wrong.
        heap: u64,
        /// The game's value there.
        value: u64,
        /// The formula's value there (`None`: it gives none).
        predicted: Option<u64>,
        /// The first heap checked.
        from: u64,
        /// The last heap that would have been checked.
        checked_to: u64,
    },

    /// A computation would take more machine-word operations than allowed.
    #[error(
        "{what} takes at least {:.1e} machine-word operations, past the limit of {:.1e}",
        *at_least as f64,
        *limit as f64
    )]
    WorkLimit {
        /// What was computed.
        what: String,
        /// The operations it takes at least.
        at_least: u128,
        /// The limit.
        limit: u64,
    },

    /// A question refused for one of its parameters (`knob`), which each
    /// front end names its own way: the CLI a flag, Python a keyword, the
    /// web a query parameter.
    #[error("{reason}")]
    Refused {
        /// Why.
        reason: String,
        /// The parameter to change.
        knob: Knob,
    },

    /// A range of heaps cannot be counted as asked.
    #[error("{reason}")]
    InvalidRange {
        /// Why not.
        reason: String,
    },

    /// A game script failed to compile or to run, or broke a limit.
    #[error("{script}: {message}")]
    Script {
        /// The script's name (its file).
        script: String,
        /// What went wrong, with the script's line where there is one.
        message: String,
    },

    /// A position given for a scripted game is malformed.
    #[error("invalid position '{text}': {reason}")]
    InvalidPosition {
        /// The text given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },

    /// A value given for a script's parameter (`NAME=VALUE`) is malformed.
    #[error("invalid define '{text}': {reason}")]
    InvalidDefine {
        /// The text given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },

    /// The engine asked for does not apply to the game.
    #[error("{reason}")]
    EngineUnavailable {
        /// Why not.
        reason: String,
    },

    /// The generic solver met a position that is its own follower: the game
    /// is loopy and has no Grundy value in the finite theory.
    #[error("the game has a cycle through {position}")]
    Cycle {
        /// A position on the cycle, formatted with `Debug`.
        position: String,
    },

    /// A heap game produced an option that is not smaller than the heap, so
    /// the dense solver cannot order its table.
    #[error("heap {heap} has an option containing heap {part}, which is not smaller")]
    NotDescending {
        /// The heap whose options were listed.
        heap: u64,
        /// The offending part.
        part: u64,
    },

    /// A sweep over numbered states met a move that does not lower the
    /// state number.
    #[error(
        "state {state} has an option {option}, which is not smaller (a sweep needs every move to lower the state)"
    )]
    StateNotSmaller {
        /// The state whose options were listed.
        state: u64,
        /// The offending option.
        option: u64,
    },

    /// The generic solver visited more positions than its budget allows.
    #[error("the game has more than {limit} positions reachable (position budget exceeded)")]
    PositionBudget {
        /// The budget in positions.
        limit: usize,
    },

    /// A periodicity certificate does not check.
    #[error("certificate rejected: {reason}")]
    InvalidCertificate {
        /// What fails, naming the heap or field.
        reason: String,
    },

    /// A file the user named cannot be read.
    #[error("cannot read {path}: {reason}")]
    Unreadable {
        /// The file.
        path: String,
        /// Why not.
        reason: String,
    },

    /// A sum was asked of no component.
    #[error("a sum needs at least one component: a position of the game named, or GAME:POSITION")]
    EmptySum,

    /// A game of this kind does not answer the question asked.
    #[error("{kind} cannot answer `{question}`: {reason}")]
    Unsupported {
        /// The kind of game.
        kind: &'static str,
        /// The question (the command that asks it).
        question: &'static str,
        /// Why not, and what answers instead.
        reason: String,
    },

    /// A computed value does not fit the nimber width.
    #[error("a Grundy value of {value} does not fit in 32 bits")]
    NimberOverflow {
        /// The value that did not fit.
        value: u64,
    },
}

/// Shorthand for results whose error is [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Formats a byte count for messages: `512 B`, `4.0 GiB`, `3.6 TiB`.
pub(crate) fn human_bytes(bytes: u128) -> String {
    const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// `bytes` as [`human_bytes`] writes it, next to `other` (a need and its
/// limit): exact, with thousands grouped, when the two would read the same
/// rounded ("63.7 MiB over 63.7 MiB" says nothing).
pub(crate) fn human_bytes_near(bytes: u128, other: u128) -> String {
    if bytes == other || human_bytes(bytes) != human_bytes(other) {
        return human_bytes(bytes);
    }
    let digits = bytes.to_string();
    let mut grouped = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    format!("{grouped} bytes")
}

#[cfg(test)]
mod tests {
    use super::{human_bytes, human_bytes_near};

    #[test]
    fn a_need_just_over_its_limit_reads_exactly() {
        let limit = 66_794_291u128;
        assert_eq!(human_bytes(limit), human_bytes(limit + 1000));
        assert_eq!(human_bytes_near(limit + 1000, limit), "66,795,291 bytes");
        assert_eq!(human_bytes_near(limit, limit + 1000), "66,794,291 bytes");
        assert_eq!(human_bytes_near(4 << 30, 1 << 30), "4.0 GiB");
    }

    #[test]
    fn byte_counts_read_naturally() {
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(4 << 30), "4.0 GiB");
        assert_eq!(human_bytes(3 << 40), "3.0 TiB");
    }
}

/// A parameter of a question, as [`Error::Refused`] names it: each front
/// end spells it its own way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Knob {
    /// The first heap or coin.
    From,
    /// The last heap or coin.
    To,
    /// The number of heaps of the positions counted.
    Heaps,
    /// Which positions of several heaps count.
    Order,
    /// The modulus of counts.
    Modulus,
    /// The one nim-sum asked of coins.
    NimSum,
    /// Every nim-sum at once.
    All,
    /// Counting by a formula, guessed or given.
    Formula,
    /// The most heaps analysed.
    Max,
    /// Past the table: a larger analysis bound (within the memory limit),
    /// or counting by the values' formula.
    PastTheTable,
    /// An output that holds another run's results: resume that run, or
    /// consent to overwrite it.
    Overwrite,
    /// An output that holds results of other questions (another family's
    /// census): write elsewhere, and merge.
    Output,
    /// The time a script may run.
    TimeLimit,
    /// Rows listed one by one: count by value alone, or list fewer.
    Rows,
    /// The number partitioned, with its part sizes and distinct parts.
    Partitions,
}
