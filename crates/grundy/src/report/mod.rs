//! Answers as data: one serializable type per question the engine answers.
//!
//! Every front end shows the same answer. A report's constructor takes the
//! library's results and derives everything a reader is told — the winner,
//! every winning move, the P-positions listed, counts as exact decimals — so
//! the CLI only renders a report as text, JSON (these types through serde)
//! or CSV, the web returns the same JSON, and Python hands out the same
//! documents. Presentation code computes nothing.
//!
//! Conventions of the JSON, the same in every report:
//!
//! - indices into the report's own lists (`component`, `figure`, `picture`,
//!   token numbers) count from 0; numbers people write on the position
//!   itself keep their own convention: heap sizes, coin numbers (from 1),
//!   Hackenbush edge numbers (from 1, in the order the picture lists its
//!   edges, as the text prints them), maze rows and columns (from 0 in
//!   JSON, from 1 in text);
//! - `winner` is `"first"` or `"second"` ([`Winner`]); a loopy `outcome` is
//!   `"win"`, `"loss"` or `"draw"` for the player to move, and its
//!   `remoteness` is `null` for a draw;
//! - period `support` is `"theorem"`, `"closed-form"`, `"observed"` or
//!   `"none"`;
//! - counts that can outgrow JavaScript's exact integers are decimal
//!   strings ([`Decimal`]);
//! - long lists of heaps are the list itself up to [`HEAPS_LISTED`] entries,
//!   else `{"count", "first"}` ([`Listed`]).
//!
//! Fields are only ever added, never renamed or removed.

mod census;
mod families;
mod graphs;
mod heaps;
mod moves;
mod plot;
mod script;
mod stream;
mod sums;

pub use census::*;
pub use families::*;
pub use graphs::*;
pub use heaps::*;
pub use moves::*;
pub use plot::*;
pub use script::*;
pub use stream::*;
pub use sums::*;

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

pub use crate::Winner;
use crate::solve::LoopyValue;

/// How many heaps a report lists (P-positions, exceptions) before it gives
/// their count and the first ones.
pub const HEAPS_LISTED: usize = 1000;

/// A count of heaps with the first [`HEAPS_LISTED`] of them, taken from an
/// iterator, so that a table of 10^9 heaps needs no list of them.
///
/// JSON: the list itself when it is complete, else `{"count", "first"}`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Listed {
    /// How many there are.
    pub count: usize,
    /// The first of them, at most [`HEAPS_LISTED`].
    pub first: Vec<usize>,
}

impl Listed {
    /// Counts `heaps`, keeping the first [`HEAPS_LISTED`].
    pub fn of(heaps: impl Iterator<Item = usize>) -> Listed {
        let mut listed = Listed::default();
        heaps.for_each(|heap| listed.push(heap));
        listed
    }

    /// `count` heaps, of which `heaps` yields at least the first
    /// [`HEAPS_LISTED`] in order (a count made without listing them all).
    /// No more than `count` are read: past the last, `heaps` may search a
    /// long table for more (the P-positions of 0.1777: one in 4.4·10^8).
    pub fn counted(count: u64, heaps: impl Iterator<Item = usize>) -> Listed {
        let count = usize::try_from(count).unwrap_or(usize::MAX);
        Listed {
            count,
            first: heaps.take(HEAPS_LISTED.min(count)).collect(),
        }
    }

    /// Counts `count` more heaps, which `heaps` yields in order: read only
    /// while fewer than [`HEAPS_LISTED`] are kept, so that a long run of
    /// heaps is counted without visiting each.
    pub fn extend_counted(&mut self, count: usize, heaps: impl Iterator<Item = usize>) {
        let room = HEAPS_LISTED.saturating_sub(self.count);
        self.first.extend(heaps.take(room.min(count)));
        self.count += count;
    }

    /// Counts one more heap, keeping it while fewer than [`HEAPS_LISTED`]
    /// are kept.
    pub fn push(&mut self, heap: usize) {
        if self.count < HEAPS_LISTED {
            self.first.push(heap);
        }
        self.count += 1;
    }

    /// Whether every heap is in [`Listed::first`].
    pub fn is_complete(&self) -> bool {
        self.count <= self.first.len()
    }
}

impl Serialize for Listed {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.is_complete() {
            self.first.serialize(serializer)
        } else {
            let mut map = serializer.serialize_map(Some(2))?;
            map.serialize_entry("count", &self.count)?;
            map.serialize_entry("first", &self.first)?;
            map.end()
        }
    }
}

/// An exact count written in decimal: JSON strings, since counts outgrow
/// the 2^53 that JavaScript numbers hold exactly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Decimal(String);

impl Decimal {
    /// The count `n`.
    pub fn of(n: impl std::fmt::Display) -> Decimal {
        Decimal(n.to_string())
    }
}

impl std::fmt::Display for Decimal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A generalized (Smith) value as JSON fields: `{"value": n}`, or
/// `{"value": null, "infinite": {"finite_options": [...]}}` for `∞(K)`.
/// Flattened into the entry that holds it; its `Display` is the usual
/// notation (`3`, `∞(0,2)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generalized(pub LoopyValue);

impl Serialize for Generalized {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Infinite<'a> {
            finite_options: &'a [crate::Nimber],
        }
        match &self.0 {
            LoopyValue::Finite(v) => {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("value", v)?;
                map.end()
            }
            LoopyValue::Infinite(options) => {
                let mut map = serializer.serialize_map(Some(2))?;
                map.serialize_entry("value", &None::<u32>)?;
                map.serialize_entry(
                    "infinite",
                    &Infinite {
                        finite_options: options,
                    },
                )?;
                map.end()
            }
        }
    }
}

impl std::fmt::Display for Generalized {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_listings_become_a_count_and_the_first_heaps() {
        let short = Listed::of(0..3);
        assert_eq!(serde_json::to_string(&short).unwrap(), "[0,1,2]");
        let long = Listed::of(0..HEAPS_LISTED + 5);
        let json = serde_json::to_value(&long).unwrap();
        assert_eq!(json["count"], HEAPS_LISTED + 5);
        assert_eq!(json["first"].as_array().unwrap().len(), HEAPS_LISTED);
    }

    /// A counted listing reads no heap past its count: the heaps may come
    /// from a search of a long table that finds no more.
    #[test]
    fn a_counted_listing_reads_no_more_than_its_count() {
        let searched = [4, 9]
            .into_iter()
            .chain(std::iter::from_fn(|| panic!("read past the count")));
        let listed = Listed::counted(2, searched);
        assert_eq!((listed.count, listed.first), (2, vec![4, 9]));
    }

    #[test]
    fn generalized_values_flatten_to_value_and_infinite() {
        let finite = Generalized(LoopyValue::Finite(crate::Nimber::new(2)));
        assert_eq!(serde_json::to_string(&finite).unwrap(), r#"{"value":2}"#);
        let infinite = Generalized(LoopyValue::Infinite(vec![crate::Nimber::new(1)]));
        assert_eq!(
            serde_json::to_string(&infinite).unwrap(),
            r#"{"value":null,"infinite":{"finite_options":[1]}}"#
        );
        assert_eq!(Decimal::of(12u128).to_string(), "12");
    }
}
