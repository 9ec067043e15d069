//! Misère play (the last player to move loses), asked of a heap game:
//! genera, sums and the misère quotient, with the bounds every front end
//! shares (heaps up to [`MISERE_HEAPS`], a budget of positions).

use crate::analysis::{Genus, Misere, MisereMove, MisereQuotient};
use crate::{Error, Knob, Result};

use super::HeapRules;

/// The largest heap misère questions search: positions grow exponentially
/// with the heaps, and the position budget stops a search that grows too
/// far, but a table of normal values up to a heap of 10^9 would be built
/// before the budget could say so.
pub const MISERE_HEAPS: usize = 10_000;

/// The refusal of heaps past [`MISERE_HEAPS`].
fn too_large(largest: usize) -> String {
    format!("heap {largest}: misère play is searched, so heaps up to {MISERE_HEAPS}")
}

/// Conway's genus of heaps `0..=to` of `game`, `terms` misère values
/// each, within `budget` positions.
pub fn genera(game: &HeapRules, to: usize, terms: usize, budget: usize) -> Result<Vec<Genus>> {
    if to > MISERE_HEAPS {
        return Err(Error::Refused {
            reason: too_large(to),
            knob: Knob::To,
        });
    }
    game.start();
    let found = Misere::bounded(game, to, budget).and_then(|mut m| m.genera(to, terms.max(1)));
    game.checked(found)
}

/// `heaps` of `game` played together under misère play: the misère value
/// (0: the player to move loses) and every winning move, within `budget`
/// positions. The genera come first, so that sums of hereditarily tame
/// heaps need no search.
pub fn misere_sum(
    game: &HeapRules,
    heaps: &[usize],
    terms: usize,
    budget: usize,
) -> Result<(u32, Vec<MisereMove>)> {
    let largest = heaps.iter().copied().max().unwrap_or(0);
    if largest > MISERE_HEAPS {
        return Err(Error::InvalidRange {
            reason: too_large(largest),
        });
    }
    game.start();
    let found = Misere::bounded(game, largest, budget).and_then(|mut misere| {
        misere.genera(largest, terms.max(3))?;
        misere.analyze_sum(heaps)
    });
    game.checked(found)
}

/// Heaps played in a misère quotient: whether they lose, and every winning
/// move.
pub type QuotientPlay = (bool, Vec<MisereMove>);

/// The misère quotient of heaps `1..=bound` of `game` (Plambeck–Siegel),
/// folding heap multiplicities up to `fold`, within `budget` positions; and
/// when `heaps` are given, whether they lose and every winning move.
pub fn misere_quotient(
    game: &HeapRules,
    bound: usize,
    fold: u32,
    budget: usize,
    heaps: &[usize],
) -> Result<(MisereQuotient, Option<QuotientPlay>)> {
    let bound = bound.min(MISERE_HEAPS);
    MisereQuotient::check_covers(bound, heaps)?;
    game.start();
    let found = MisereQuotient::compute(game, bound, fold, budget).and_then(|quotient| {
        let played = if heaps.is_empty() {
            None
        } else {
            Some((quotient.loses(heaps)?, quotient.winning_moves(game, heaps)?))
        };
        Ok((quotient, played))
    });
    game.checked(found)
}
