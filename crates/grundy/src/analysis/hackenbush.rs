//! Green Hackenbush pictures played together ([`Hackenbush`]): the winner
//! and every winning cut, and the cuts counted by the value they leave.

use crate::rules::Hackenbush;
use crate::{Nimber, Result};

/// Pictures played together: each one's value, the nim-sum, and every
/// winning move as `(picture, edge)` (edges from 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HackenbushSum {
    /// The value of each picture.
    pub values: Vec<Nimber>,
    /// Their nim-sum: the first player wins when it is not 0.
    pub nim_sum: Nimber,
    /// Every winning cut: `(picture, edge)`.
    pub winning_cuts: Vec<(usize, usize)>,
}

/// Values, winner and every winning cut of pictures played together: a cut
/// in picture `i` wins when it leaves that picture worth `g_i ^ nim_sum`.
///
/// Finding the cuts of a picture with cycles may revalue it once per edge
/// on a cycle: refused past `work_limit` machine-word operations
/// ([`Hackenbush::cuts_to`]).
pub fn analyze_hackenbush(pictures: &[Hackenbush], work_limit: u64) -> Result<HackenbushSum> {
    let values: Vec<Nimber> = pictures.iter().map(Hackenbush::value).collect();
    let nim_sum: Nimber = values.iter().copied().sum();
    let mut winning_cuts = Vec::new();
    for (i, target) in crate::winning_targets(&values) {
        let cuts = pictures[i].cuts_to(target, work_limit)?;
        winning_cuts.extend(cuts.into_iter().map(|e| (i, e)));
    }
    Ok(HackenbushSum {
        values,
        nim_sum,
        winning_cuts,
    })
}

/// The cuts of each picture counted by the value they leave it
/// ([`Hackenbush::cuts_by_value`]), as move counts of a sum: a cut wins
/// when it leaves the sum at nim-sum 0.
pub fn hackenbush_move_counts(
    pictures: &[Hackenbush],
    work_limit: u64,
) -> Result<Vec<crate::MoveCounts>> {
    pictures
        .iter()
        .map(|picture| {
            Ok(crate::MoveCounts {
                value: picture.value(),
                by_value: picture.cuts_by_value(work_limit)?,
            })
        })
        .collect()
}
