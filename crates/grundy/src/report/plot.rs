//! The description of a picture of a game's values, which every door draws
//! alike: the command's SVG and PNG and the web's `/api/plot` with
//! plotters, Python with matplotlib (`Game.plot`). What is drawn is decided
//! here; the renderers only place marks.

use serde::Serialize;

use crate::Nimber;
use crate::analysis::{Analysis, rare_split, rare_under};

/// What a value's marks show: P-positions (value 0), and the others split
/// into rare and common values where the values have that structure
/// ([`rare_split`]), else all `common`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ValueClass {
    /// Value 0: the player to move loses.
    P,
    /// A rare value.
    Rare,
    /// A common value (or any other, without a rare/common split).
    Common,
}

/// One value of the table: how many heaps take it and its class.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlottedValue {
    /// The value.
    pub value: u32,
    /// Heaps of `0..=last_heap` with it.
    pub heaps: u64,
    /// What its marks show.
    pub class: ValueClass,
}

/// The period a picture shades: one period after the pre-period.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlottedPeriod {
    /// The first heap of the periodic part.
    pub preperiod: usize,
    /// The period.
    pub period: usize,
    /// `theorem`, `closed-form` or `observed`.
    pub support: &'static str,
}

/// A picture of `g(0..=last_heap)`, for any view (values against heaps,
/// rows of one period, the histogram).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlotDescription {
    /// The title: the game as written, its canonical name, the heaps.
    pub title: String,
    /// The last heap drawn.
    pub last_heap: usize,
    /// The largest value.
    pub largest: u32,
    /// Where the value axis is labelled: whole numbers only, at most
    /// [`VALUE_TICKS`] of them.
    pub value_ticks: Vec<u32>,
    /// A plain period, shaded once after the pre-period.
    pub period: Option<PlottedPeriod>,
    /// The mask of the rare/common split (a value is rare when the bits it
    /// shares with the mask are even in number), when there is one.
    pub rare_mask: Option<u32>,
    /// Every value that occurs, by value, with its heaps and class.
    pub values: Vec<PlottedValue>,
}

/// The most labels on the value axis.
pub const VALUE_TICKS: usize = 10;

impl PlotDescription {
    /// The picture of `found` (values of heaps `0..=found.to`), titled
    /// `title`.
    pub fn new(title: String, found: &Analysis) -> PlotDescription {
        let histogram = found.histogram();
        let rare_mask = rare_split(&histogram).map(|split| split.mask);
        let largest = histogram.last().map_or(0, |(v, _)| v.get());
        let mut description = PlotDescription {
            title,
            last_heap: found.to,
            largest,
            value_ticks: whole_ticks(largest, VALUE_TICKS),
            period: found
                .periodicity
                .filter(|p| p.saltus == 0)
                .map(|p| PlottedPeriod {
                    preperiod: p.preperiod,
                    period: p.period,
                    support: found.support_label(),
                }),
            rare_mask,
            values: Vec::new(),
        };
        description.values = histogram
            .iter()
            .map(|&(value, heaps)| PlottedValue {
                value: value.get(),
                heaps,
                class: description.class_of(value),
            })
            .collect();
        description
    }

    /// The class of `value`'s marks.
    pub fn class_of(&self, value: Nimber) -> ValueClass {
        match self.rare_mask {
            _ if value.is_zero() => ValueClass::P,
            Some(mask) if rare_under(mask, value) => ValueClass::Rare,
            _ => ValueClass::Common,
        }
    }
}

/// Whole-number ticks from 0 to at least `largest`, at most `most` of
/// them, a step of 1, 2 or 5 times a power of ten.
///
/// ```
/// use grundy::report::whole_ticks;
/// assert_eq!(whole_ticks(3, 10), [0, 1, 2, 3]);
/// assert_eq!(whole_ticks(17, 10), [0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
/// assert_eq!(whole_ticks(0, 10), [0, 1]);
/// ```
pub fn whole_ticks(largest: u32, most: usize) -> Vec<u32> {
    let most = most.max(2) as u64;
    let largest = u64::from(largest.max(1));
    let mut scale = 1u64;
    let step = loop {
        let fits = [1, 2, 5]
            .map(|k| k * scale)
            .into_iter()
            .find(|&step| largest.div_ceil(step) < most);
        if let Some(step) = fits {
            break step;
        }
        scale *= 10;
    };
    let last = largest.div_ceil(step) * step;
    (0..=last)
        .step_by(step as usize)
        .map(|t| t.min(u64::from(u32::MAX)) as u32)
        .collect()
}
