//! Printing results as text, JSON or CSV.
//!
//! The JSON shapes are a contract other tools rely on; they are the serde
//! structs below, and fields are only ever added.

use std::io::Write;

use grundy::rules::CatalogueEntry;
use grundy::{Component, HeapGame, Nimber, SumAnalysis, WinningMove};
use serde::Serialize;

use crate::Failure;
use crate::cli::{Format, SumFormat};

/// `grundy values`: `{"game", "canonical", "values"}`.
#[derive(Serialize)]
struct ValuesJson<'a> {
    game: &'a str,
    canonical: String,
    values: Vec<u32>,
}

/// `grundy sum`.
#[derive(Serialize)]
struct SumJson<'a> {
    components: Vec<ComponentJson<'a>>,
    nim_sum: u32,
    winner: &'static str,
    winning_moves: &'a [WinningMoveJson],
}

#[derive(Serialize)]
struct ComponentJson<'a> {
    game: &'a str,
    heap: usize,
    value: u32,
}

#[derive(Serialize)]
struct WinningMoveJson {
    component: usize,
    from: usize,
    to: Vec<usize>,
}

/// `grundy games`.
#[derive(Serialize)]
struct GameJson<'a> {
    name: &'a str,
    code: Option<&'a str>,
    description: &'a str,
    example: &'a str,
}

fn json(out: &mut impl Write, value: &impl Serialize) -> Result<(), Failure> {
    serde_json::to_writer(&mut *out, value).map_err(|e| Failure::Io(e.into()))?;
    writeln!(out)?;
    Ok(())
}

pub fn values(
    out: &mut impl Write,
    format: Format,
    name: &str,
    game: &HeapGame,
    values: &[Nimber],
) -> Result<(), Failure> {
    match format {
        Format::Json => json(
            out,
            &ValuesJson {
                game: name,
                canonical: game.to_string(),
                values: values.iter().map(|v| v.get()).collect(),
            },
        ),
        Format::Csv => {
            writeln!(out, "heap,value")?;
            for (n, v) in values.iter().enumerate() {
                writeln!(out, "{n},{v}")?;
            }
            Ok(())
        }
        Format::Text => {
            let canonical = game.to_string();
            let last = values.len().saturating_sub(1);
            if canonical == name {
                writeln!(out, "{name}: g(0..={last})")?;
            } else {
                writeln!(out, "{name} ({canonical}): g(0..={last})")?;
            }
            let index_width = last.to_string().len();
            let value_width = values.iter().max().map_or(1, |v| v.to_string().len());
            for (row, chunk) in values.chunks(10).enumerate() {
                write!(out, "{:>index_width$}:", row * 10)?;
                for v in chunk {
                    write!(out, " {v:>value_width$}")?;
                }
                writeln!(out)?;
            }
            Ok(())
        }
    }
}

pub fn sum(
    out: &mut impl Write,
    format: SumFormat,
    names: &[String],
    components: &[Component],
    analysis: &SumAnalysis,
) -> Result<(), Failure> {
    let winner = if analysis.first_player_wins() {
        "first"
    } else {
        "second"
    };
    match format {
        SumFormat::Json => {
            let moves: Vec<WinningMoveJson> = analysis
                .winning_moves
                .iter()
                .map(|m| WinningMoveJson {
                    component: m.component,
                    from: m.from,
                    to: m.to.clone(),
                })
                .collect();
            json(
                out,
                &SumJson {
                    components: components
                        .iter()
                        .zip(&analysis.values)
                        .map(|(c, v)| ComponentJson {
                            game: &names[c.game],
                            heap: c.heap,
                            value: v.get(),
                        })
                        .collect(),
                    nim_sum: analysis.nim_sum.get(),
                    winner,
                    winning_moves: &moves,
                },
            )
        }
        SumFormat::Text => {
            writeln!(out, "{winner} player wins (nim-sum {})", analysis.nim_sum)?;
            for m in &analysis.winning_moves {
                writeln!(out, "{}", describe_move(m, names, components))?;
            }
            Ok(())
        }
    }
}

/// `heap 2 (size 10) becomes 9`, `heap 1 (kayles, size 6) becomes 1 + 3`,
/// `heap 3 (size 2) is removed`. Heaps are numbered from 1 for people.
fn describe_move(m: &WinningMove, names: &[String], components: &[Component]) -> String {
    let game = if names.len() > 1 {
        format!("{}, ", names[components[m.component].game])
    } else {
        String::new()
    };
    let result = if m.to.is_empty() {
        "is removed".to_owned()
    } else {
        let parts: Vec<String> = m.to.iter().map(usize::to_string).collect();
        format!("becomes {}", parts.join(" + "))
    };
    format!("heap {} ({game}size {}) {result}", m.component + 1, m.from)
}

pub fn catalogue(
    out: &mut impl Write,
    format: SumFormat,
    entries: &[CatalogueEntry],
) -> Result<(), Failure> {
    match format {
        SumFormat::Json => {
            let games: Vec<GameJson> = entries
                .iter()
                .map(|e| GameJson {
                    name: e.name,
                    code: e.code,
                    description: e.description,
                    example: e.example,
                })
                .collect();
            json(out, &games)
        }
        SumFormat::Text => {
            let (named, families): (Vec<&CatalogueEntry>, Vec<&CatalogueEntry>) =
                entries.iter().partition(|e| e.code.is_some());
            writeln!(out, "Games (type the name or the code):")?;
            for e in named {
                writeln!(
                    out,
                    "  {:<16} {:<7} {}",
                    e.name,
                    e.code.unwrap_or(""),
                    e.description
                )?;
            }
            writeln!(out, "\nFamilies (example in brackets):")?;
            for e in families {
                writeln!(out, "  {:<16} {} [{}]", e.name, e.description, e.example)?;
            }
            Ok(())
        }
    }
}
