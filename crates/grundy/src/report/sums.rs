//! Reports on sums: heap sums and their winning moves, positions of any
//! game played together, moves counted by value, misère play.

use serde::Serialize;

use super::{Generalized, Winner};
use crate::analysis::{Genus, MisereMove, MisereQuotient};
use crate::solve::Outcome;
use crate::{Component, MoveCounts, Nimber, PartsSum, PositionSum, SumAnalysis, WinningMove};

/// A sum of heaps (`grundy sum --format json`): each component's value,
/// the nim-sum, the winner and every winning move.
#[derive(Serialize)]
pub struct SumReport {
    /// Each heap: its game as written, its size and its value.
    pub components: Vec<SumComponent>,
    /// The nim-sum of the values.
    pub nim_sum: Nimber,
    /// Who wins with perfect play.
    pub winner: Winner,
    /// The distinct winning moves, the first 10,000 in order (every one
    /// when `complete`); `to` is the heaps left in increasing order (empty
    /// when the heap disappears).
    pub winning_moves: Vec<WinningMove>,
    /// How many distinct winning moves there are.
    pub winning_move_count: u64,
    /// Whether `winning_moves` lists them all.
    pub complete: bool,
}

/// One heap of a [`SumReport`].
#[derive(Serialize)]
pub struct SumComponent {
    /// Its game, as written.
    pub game: String,
    /// Its size.
    pub heap: usize,
    /// Its value.
    pub value: Nimber,
}

impl SumReport {
    /// The report of `analysis`, the sum of `components` of the games
    /// written `names` (`Component::game` indexes them).
    pub fn new(names: &[String], components: &[Component], analysis: &SumAnalysis) -> Self {
        SumReport {
            components: components
                .iter()
                .zip(&analysis.values)
                .map(|(c, &value)| SumComponent {
                    game: names[c.game].clone(),
                    heap: c.heap,
                    value,
                })
                .collect(),
            nim_sum: analysis.nim_sum,
            winner: Winner::of(analysis.nim_sum),
            winning_moves: analysis.winning_moves.clone(),
            winning_move_count: analysis.winning_move_count,
            complete: analysis.complete(),
        }
    }

    /// Whether the components come from more than one game.
    pub fn mixes_games(&self) -> bool {
        self.components
            .iter()
            .any(|c| c.game != self.components[0].game)
    }
}

/// Positions of any game played together (a script's heaps or tuples, the
/// pairs of a pair game), named as they print.
#[derive(Serialize)]
pub struct PositionSumReport {
    /// Each position and its value.
    pub positions: Vec<NamedValue>,
    /// The nim-sum.
    pub nim_sum: Nimber,
    /// Who wins.
    pub winner: Winner,
    /// Every winning move.
    pub winning_moves: Vec<PositionSumMove>,
}

/// A position and its value.
#[derive(Serialize)]
pub struct NamedValue {
    /// The position as it prints.
    pub position: String,
    /// Its value.
    pub value: Nimber,
}

/// A winning move of a [`PositionSumReport`].
#[derive(Serialize)]
pub struct PositionSumMove {
    /// Which position moves (0-based).
    pub component: usize,
    /// That position.
    pub from: String,
    /// The positions the move leaves, played together.
    pub to: Vec<String>,
}

impl PositionSumReport {
    /// The report of `sum`, the positions `positions` played together,
    /// each printed by `name`.
    pub fn new<P>(positions: &[P], sum: &PositionSum<P>, name: impl Fn(&P) -> String) -> Self {
        PositionSumReport {
            positions: positions
                .iter()
                .zip(&sum.values)
                .map(|(p, &value)| NamedValue {
                    position: name(p),
                    value,
                })
                .collect(),
            nim_sum: sum.nim_sum,
            winner: Winner::of(sum.nim_sum),
            winning_moves: sum
                .winning_moves
                .iter()
                .map(|m| PositionSumMove {
                    component: m.component,
                    from: name(&positions[m.component]),
                    to: m.to.iter().map(&name).collect(),
                })
                .collect(),
        }
    }
}

/// Components of any kinds played together (`grundy sum` when they are
/// not all heaps): each one's value, who wins (or that neither can force a
/// win), and every winning or drawing move.
#[derive(Serialize)]
pub struct PartsSumReport {
    /// Each component: its game as written, its position and its
    /// (generalized) value.
    pub components: Vec<PartComponent>,
    /// Who wins from the player to move's side: `win`, `loss` or `draw`.
    pub outcome: Outcome,
    /// `first` or `second`; null for a draw.
    pub winner: Option<Winner>,
    /// The nim-sum of the values; null when a value is infinite.
    pub nim_sum: Option<Nimber>,
    /// When the player to move wins: the moves that leave a lost sum (the
    /// first 10,000).
    pub winning_moves: Vec<PartSumMove>,
    /// When the sum is drawn: the moves that keep the draw.
    pub drawing_moves: Vec<PartSumMove>,
    /// How many winning (for a draw, drawing) moves there are; null when a
    /// component only lists its moves.
    pub move_count: Option<u64>,
    /// Whether the moves listed are all of them.
    pub complete: bool,
}

/// One component of a [`PartsSumReport`].
#[derive(Serialize)]
pub struct PartComponent {
    /// Its game, as written.
    pub game: String,
    /// Its position, as written (empty for a whole picture or maze).
    pub position: String,
    /// Its value.
    #[serde(flatten)]
    pub value: Generalized,
}

/// A move of a [`PartsSumReport`].
#[derive(Serialize)]
pub struct PartSumMove {
    /// Which component moves (0-based).
    pub component: usize,
    /// What it becomes (a position in the component's syntax, or the move
    /// described: `cut a-b`, `A to row 2, column 0`).
    pub to: String,
}

impl PartsSumReport {
    /// The report of `sum`, the components written `(game, position)`.
    pub fn new(written: &[(String, String)], sum: &PartsSum) -> Self {
        let moves = |moves: &[crate::PartMove]| {
            moves
                .iter()
                .map(|m| PartSumMove {
                    component: m.component,
                    to: m.to.clone(),
                })
                .collect()
        };
        PartsSumReport {
            components: written
                .iter()
                .zip(&sum.values)
                .map(|((game, position), value)| PartComponent {
                    game: game.clone(),
                    position: position.clone(),
                    value: Generalized(value.clone()),
                })
                .collect(),
            outcome: sum.outcome,
            winner: match sum.outcome {
                Outcome::Win => Some(Winner::First),
                Outcome::Loss => Some(Winner::Second),
                Outcome::Draw => None,
            },
            nim_sum: sum.nim_sum(),
            winning_moves: moves(&sum.winning_moves),
            drawing_moves: moves(&sum.drawing_moves),
            move_count: sum.move_count,
            complete: sum.complete(),
        }
    }
}

/// Each component's moves counted by the value they reach, and the
/// winning moves of the sum (`grundy count --moves`).
#[derive(Serialize)]
pub struct MoveCountReport {
    /// Each component.
    pub components: Vec<ComponentMoves>,
    /// The nim-sum.
    pub nim_sum: Nimber,
    /// Who wins.
    pub winner: Winner,
    /// How many winning moves the sum has.
    pub winning_moves: u64,
}

/// The moves of one component of a [`MoveCountReport`].
#[derive(Serialize)]
pub struct ComponentMoves {
    /// Its game as written.
    pub game: String,
    /// Its size.
    pub heap: usize,
    /// Its value.
    pub value: Nimber,
    /// How many moves it has.
    pub moves: u64,
    /// `[[value reached, moves], ...]`.
    pub by_value: Vec<[u64; 2]>,
    /// How many of its moves win the sum.
    pub winning_moves: u64,
}

impl MoveCountReport {
    /// The report of `counts`, the moves of `components` (games written
    /// `names`).
    pub fn new(names: &[String], components: &[Component], counts: &[MoveCounts]) -> Self {
        let (nim_sum, winning) = crate::winning_move_counts(counts);
        MoveCountReport {
            components: components
                .iter()
                .zip(counts)
                .zip(&winning)
                .map(|((c, m), &winning_moves)| ComponentMoves {
                    game: names[c.game].clone(),
                    heap: c.heap,
                    value: m.value,
                    moves: m.total(),
                    by_value: m
                        .by_value
                        .iter()
                        .map(|(v, n)| [u64::from(*v), *n])
                        .collect(),
                    winning_moves,
                })
                .collect(),
            nim_sum,
            winner: Winner::of(nim_sum),
            winning_moves: winning.iter().sum(),
        }
    }
}

/// A misère winning move: heap `component` (0-based), of size `from`,
/// becomes the heaps `to`.
#[derive(Serialize)]
pub struct MisereMoveReport {
    /// Which heap moves.
    pub component: usize,
    /// Its size.
    pub from: usize,
    /// The heaps it leaves.
    pub to: Vec<usize>,
}

fn misere_moves(heaps: &[usize], moves: &[MisereMove]) -> Vec<MisereMoveReport> {
    moves
        .iter()
        .map(|m| MisereMoveReport {
            component: m.component,
            from: heaps[m.component],
            to: m.to.clone(),
        })
        .collect()
}

/// A sum of heaps in misère play (`grundy misere GAME HEAPS...`).
#[derive(Serialize)]
pub struct MisereSumReport {
    /// The game's canonical specification.
    pub game: String,
    /// Always `"misere"`.
    pub play: &'static str,
    /// The heaps.
    pub heaps: Vec<usize>,
    /// The misère Grundy number of the sum: 0 exactly when the player to
    /// move loses.
    pub misere_value: u32,
    /// Who wins.
    pub winner: Winner,
    /// Every winning move.
    pub winning_moves: Vec<MisereMoveReport>,
}

impl MisereSumReport {
    /// The sum `heaps` of `game`, whose misère value is `value`.
    pub fn new(game: String, heaps: &[usize], value: u32, moves: &[MisereMove]) -> Self {
        MisereSumReport {
            game,
            play: "misere",
            heaps: heaps.to_vec(),
            misere_value: value,
            winner: Winner::of(Nimber::new(value)),
            winning_moves: misere_moves(heaps, moves),
        }
    }
}

/// The genera of heaps `0..=N` (`grundy misere GAME --to N`).
#[derive(Serialize)]
pub struct GeneraReport {
    /// The game's canonical specification.
    pub game: String,
    /// Each heap's genus.
    pub genera: Vec<GenusReport>,
    /// Heaps below this are hereditarily tame: their sums play by the
    /// misère Nim rule on normal values.
    pub hereditarily_tame_below: usize,
}

/// One genus `g^γ0γ1...` of a [`GeneraReport`].
#[derive(Serialize)]
pub struct GenusReport {
    /// The genus in the usual notation.
    pub genus: String,
    /// The normal-play value `g`.
    pub normal: Nimber,
    /// `γk`: the misère value with `k` extra `*2`.
    pub misere: Vec<u32>,
    /// Whether it is the genus of a Nim position.
    pub tame: bool,
}

impl GeneraReport {
    /// The genera of `game` (canonically written).
    pub fn new(game: String, genera: &[Genus]) -> Self {
        GeneraReport {
            game,
            genera: genera
                .iter()
                .map(|g| GenusReport {
                    genus: g.to_string(),
                    normal: g.normal,
                    misere: g.misere.clone(),
                    tame: g.is_tame(),
                })
                .collect(),
            hereditarily_tame_below: genera.iter().take_while(|g| g.is_tame()).count(),
        }
    }
}

/// A misère quotient, and a sum played through it when heaps were given
/// (`grundy misere GAME --quotient N [HEAPS...]`).
#[derive(Serialize)]
pub struct QuotientReport {
    /// The game's canonical specification.
    pub game: String,
    /// The heaps covered: `1..=max_heap`.
    pub max_heap: usize,
    /// The generators: a letter per heap with moves.
    pub generators: Vec<Generator>,
    /// How many elements the quotient has.
    pub size: usize,
    /// Each element's shortest word.
    pub elements: Vec<String>,
    /// The presentation's relations, `u = w`.
    pub relations: Vec<String>,
    /// The elements in the P-portion (the player to move loses).
    pub p_portion: Vec<String>,
    /// The fold: multiplicities `K + 1` are identified with `K - 1`.
    pub fold: u32,
    /// The sum played, when heaps were given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heaps: Option<Vec<usize>>,
    /// Who wins it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<Winner>,
    /// Its winning moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winning_moves: Option<Vec<MisereMoveReport>>,
}

/// A generator of a [`QuotientReport`].
#[derive(Serialize)]
pub struct Generator {
    /// Its letter.
    pub letter: String,
    /// The heap it stands for.
    pub heap: usize,
}

impl QuotientReport {
    /// The quotient `q` of `game`; `played` is a sum `(heaps, lost for the
    /// player to move, winning moves)`.
    pub fn new(
        game: String,
        q: &MisereQuotient,
        played: Option<(Vec<usize>, bool, Vec<MisereMove>)>,
    ) -> Self {
        let (heaps, winner, winning_moves) = match played {
            Some((heaps, loses, moves)) => {
                let moves = misere_moves(&heaps, &moves);
                let winner = if loses { Winner::Second } else { Winner::First };
                (Some(heaps), Some(winner), Some(moves))
            }
            None => (None, None, None),
        };
        QuotientReport {
            game,
            max_heap: q.max_heap,
            generators: q
                .generators()
                .map(|(letter, heap)| Generator { letter, heap })
                .collect(),
            size: q.len(),
            elements: (0..q.len()).map(|e| q.spell(q.word(e))).collect(),
            relations: q
                .relations()
                .iter()
                .map(|(l, r)| format!("{} = {}", q.spell(l), q.spell(r)))
                .collect(),
            p_portion: q.p_portion().map(|e| q.spell(q.word(e))).collect(),
            fold: q.fold,
            heaps,
            winner,
            winning_moves,
        }
    }
}
