//! Sums of components of different kinds (`session::sum`): every winning
//! move leaves a lost sum, each kind alone moves as its own engine says,
//! and with cycles the outcome agrees with retrograde analysis of the
//! sum's own positions.

use std::path::PathBuf;

use grundy::analysis::{analyze_coins, analyze_grid, analyze_hackenbush};
use grundy::report::{PartsSumReport, Winner};
use grundy::rules::{CoinRule, GameGraph, Hackenbush, Maze};
use grundy::session::{Outcome, SumAnswer, SumItem, SumQuery, sum};
use grundy::solve::sum_retrograde;
use grundy::{LISTED_OPTIONS_LIMIT, TableSolver};

struct Rng(u64);

impl Rng {
    fn below(&mut self, bound: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % bound
    }
}

/// A file in the test's own temporary folder.
fn file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("grundy-mixed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path: PathBuf = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

fn ask(components: &[String]) -> SumAnswer {
    let solver = TableSolver::new();
    let query = SumQuery {
        game: None,
        items: components.iter().cloned().map(SumItem::Written).collect(),
        script: Default::default(),
        solver: &solver,
        max_options: LISTED_OPTIONS_LIMIT,
        work_limit: grundy::session::DEFAULT_WORK,
        files: true,
    };
    match sum(&query, &mut |_, _| true) {
        Ok(answer) => answer,
        Err(e) => panic!("{components:?}: {e}"),
    }
}

fn parts(components: &[String]) -> PartsSumReport {
    match ask(components) {
        SumAnswer::Parts(report) => report,
        _ => panic!("{components:?} is a mix of kinds"),
    }
}

/// Whether `components` is lost for the player to move, whatever form
/// the answer takes.
fn lost(components: &[String]) -> bool {
    if components.is_empty() {
        return true;
    }
    match ask(components) {
        SumAnswer::Heaps(report) => report.winner == Winner::Second,
        SumAnswer::Pairs(report) => report.winner == Winner::Second,
        SumAnswer::Parts(report) => report.outcome == Outcome::Loss,
    }
}

/// The components a move leaves in place of component `i` written
/// `game:position`: a heap game's heaps `2+4` (none for `0`), a grid's
/// heads as they are, a row's heads (none for `none`), a pair game's
/// positions joined by `+`, a node.
fn replaced(game: &str, to: &str) -> Vec<String> {
    if to == "none" || to == "nothing" || (to == "0" && !game.starts_with("graph:")) {
        return Vec::new();
    }
    if game.contains('*') || game.starts_with("graph:") || !to.contains('+') {
        return vec![format!("{game}:{to}")];
    }
    to.split('+').map(|part| format!("{game}:{part}")).collect()
}

/// A graph file (one edge a line) from lines `FROM TO...`.
fn edges(lines: &str) -> String {
    let mut text = String::new();
    for line in lines.lines() {
        let mut words = line.split_whitespace();
        let from = words.next().unwrap();
        let mut any = false;
        for to in words {
            text.push_str(&format!("{from} {to}\n"));
            any = true;
        }
        if !any {
            text.push_str(&format!("{from}\n"));
        }
    }
    text
}

#[test]
fn every_winning_move_of_a_mixed_sum_leaves_a_lost_sum() {
    let graph = file(
        "dag.txt",
        &edges("start a b\na c\nb c d\nc d\nd\ne start d\n"),
    );
    let mut rng = Rng(7);
    let mut checked = 0;
    for round in 0..60 {
        let mut components = Vec::new();
        let count = 2 + rng.below(3);
        for _ in 0..count {
            components.push(match rng.below(6) {
                0 => format!("kayles:{}", rng.below(30)),
                1 => format!("0.07:{}", rng.below(40)),
                2 => format!("wythoff:{},{}", rng.below(9), rng.below(9)),
                3 => {
                    let heads: Vec<String> = (0..1 + rng.below(3))
                        .map(|_| (1 + rng.below(12)).to_string())
                        .collect();
                    let rule = ["ruler", "mock-turtles", "turn(3)", "grunt"][rng.below(4) as usize];
                    format!("{rule}:{}", heads.join(","))
                }
                4 => format!("ruler*turtles:{},{}", 1 + rng.below(6), 1 + rng.below(6)),
                _ => format!(
                    "graph:{graph}:{}",
                    ["start", "a", "b", "c", "d", "e"][rng.below(6) as usize]
                ),
            });
        }
        // A mix of kinds answers as parts; check it is one.
        components.push(format!("graph:{graph}:d"));
        let report = parts(&components);
        let nim_sum = report.nim_sum.expect("every component is finite");
        assert_eq!(
            report.outcome == Outcome::Win,
            !nim_sum.is_zero(),
            "{components:?}"
        );
        assert!(report.complete, "{components:?}");
        if report.outcome == Outcome::Win {
            assert!(
                !report.winning_moves.is_empty(),
                "round {round}: {components:?}"
            );
        }
        for m in &report.winning_moves {
            let (game, _) = components[m.component].rsplit_once(':').unwrap();
            let mut after = components.clone();
            let left = replaced(game, &m.to);
            after.splice(m.component..=m.component, left);
            assert!(
                lost(&after),
                "{components:?}: {} -> {}",
                components[m.component],
                m.to
            );
            checked += 1;
        }
    }
    assert!(checked > 30, "only {checked} moves checked");
}

#[test]
fn each_kind_alone_moves_as_its_own_engine_says() {
    // A row of coins.
    let ruler: CoinRule = "ruler".parse().unwrap();
    for heads in [[3, 4, 6], [1, 2, 7], [5, 9, 12]] {
        let row = analyze_coins(&ruler, &heads, 1 << 30, u64::MAX).unwrap();
        let written = format!("ruler:{}", heads.map(|h| h.to_string()).join(","));
        let report = parts(&[written, "nim:0".into()]);
        assert_eq!(
            report.winning_moves.len(),
            row.winning_moves.len(),
            "{heads:?}"
        );
    }
    // A grid: the one move the grid's engine finds is among ours.
    let turtles: CoinRule = "turtles".parse().unwrap();
    let mut won = 0;
    for heads in [
        [(2, 3), (4, 1), (5, 5)],
        [(1, 1), (3, 2), (6, 4)],
        [(2, 2), (3, 5), (7, 1)],
    ] {
        let grid = analyze_grid(&ruler, &turtles, &heads, 1 << 30, u64::MAX).unwrap();
        let written: Vec<String> = heads.iter().map(|(c, r)| format!("{c},{r}")).collect();
        let report = parts(&[
            format!("ruler*turtles:{}", written.join("+")),
            "nim:0".into(),
        ]);
        assert_eq!(report.nim_sum, Some(grid.nim_sum));
        let Some(found) = grid.winning_move else {
            assert!(report.winning_moves.is_empty());
            continue;
        };
        won += 1;
        let mut after: std::collections::BTreeSet<(usize, usize)> = heads.into();
        for &c in &found.columns {
            for &r in &found.rows {
                if !after.remove(&(c, r)) {
                    after.insert((c, r));
                }
            }
        }
        let written: Vec<String> = after.iter().map(|(c, r)| format!("{c},{r}")).collect();
        let written = if written.is_empty() {
            "none".to_owned()
        } else {
            written.join("+")
        };
        assert!(
            report.winning_moves.iter().any(|m| m.to == written),
            "{written}"
        );
    }
    assert!(won > 0);
    // A picture.
    for tree in ["(()(()))", "((())(()()))", "(()()())"] {
        let picture = Hackenbush::tree(tree).unwrap();
        let alone = analyze_hackenbush(std::slice::from_ref(&picture), u64::MAX).unwrap();
        let report = parts(&[tree.into(), "nim:0".into()]);
        assert_eq!(
            report.winning_moves.len(),
            alone.winning_cuts.len(),
            "{tree}"
        );
    }
    // A maze.
    let text = "..#....\n.....#.\n#..#...\n..A....\n.#...B.\n";
    let maze = Maze::parse(text).unwrap();
    let alone = maze.play(&maze.values(1 << 30).unwrap());
    let report = parts(&[format!("maze:{}", file("maze.txt", text)), "nim:0".into()]);
    assert_eq!(report.nim_sum, Some(alone.nim_sum));
    assert_eq!(report.winning_moves.len(), alone.winning_moves.len());
    // Tokens on a graph.
    let text = edges("start a b\na c\nb c d\nc d\nd\n");
    let text = text.as_str();
    let graph = GameGraph::parse(text).unwrap();
    let values = graph.solve().unwrap().values;
    let path = file("graph.txt", text);
    let tokens = ["start", "a", "b"].map(|n| graph.position(n).unwrap());
    let alone = graph.play(&values, &tokens);
    let written: Vec<String> = ["start", "a", "b"]
        .iter()
        .map(|n| format!("graph:{path}:{n}"))
        .chain(["ruler:1".into()])
        .collect();
    let report = parts(&written);
    // The coin (worth 1) adds one value to the nim-sum: compare the
    // graph's own answer for the same total.
    let total = alone.nim_sum ^ grundy::Nimber::new(1);
    assert_eq!(report.nim_sum, Some(total));
    // The graph as the game of bare nodes: the same sum without the coin.
    let solver = TableSolver::new();
    let game = format!("graph:{path}");
    let query = SumQuery {
        game: Some(&game),
        items: ["start", "a", "b"]
            .map(|n| SumItem::Written(n.into()))
            .into(),
        script: Default::default(),
        solver: &solver,
        max_options: LISTED_OPTIONS_LIMIT,
        work_limit: grundy::session::DEFAULT_WORK,
        files: true,
    };
    let Ok(SumAnswer::Parts(bare)) = sum(&query, &mut |_, _| true) else {
        panic!("{game} with bare nodes is not a sum of parts");
    };
    assert_eq!(bare.nim_sum, Some(alone.nim_sum));
    // A graph among components needs its node.
    let query = SumQuery {
        game: None,
        items: vec![
            SumItem::Written("nim:1".into()),
            SumItem::Written(game.clone()),
        ],
        ..query
    };
    match sum(&query, &mut |_, _| true) {
        Err(grundy::Error::InvalidPosition { reason, .. }) => {
            assert!(reason.contains("graph:FILE:NODE"), "{reason}")
        }
        other => panic!("a graph without its node: {:?}", other.map(|_| ())),
    }
}

#[test]
fn with_cycles_the_outcome_is_the_retrograde_analysis_of_the_sum() {
    let mut rng = Rng(11);
    let mut seen = Vec::new();
    for round in 0..40 {
        // A random graph with cycles, and a Nim heap drawn as a chain of
        // positions h0..h3 (each moving to every smaller one).
        let nodes = 6;
        let mut text = String::new();
        for p in 0..nodes {
            text.push_str(&format!("p{p}"));
            for q in 0..nodes {
                if q != p && rng.below(4) == 0 {
                    text.push_str(&format!(" p{q}"));
                }
            }
            text.push('\n');
        }
        for h in 0..4 {
            text.push_str(&format!("h{h}"));
            for smaller in 0..h {
                text.push_str(&format!(" h{smaller}"));
            }
            text.push('\n');
        }
        let text = edges(&text);
        let path = file(&format!("loopy{round}.txt"), &text);
        let graph = GameGraph::parse(&text).unwrap();
        let first = format!("p{}", rng.below(nodes));
        let second = format!("p{}", rng.below(nodes));
        let heap = rng.below(4);
        let report = parts(&[
            format!("graph:{path}:{first}"),
            format!("graph:{path}:{second}"),
            format!("nim:{heap}"),
        ]);
        let tokens =
            [&first, &second, &format!("h{heap}")].map(|name| graph.position(name).unwrap());
        let (outcome, _) = sum_retrograde(graph.adjacency(), &tokens, 1 << 20).unwrap();
        assert_eq!(report.outcome, outcome, "round {round}: {text}");
        seen.push(outcome);
        // A winning move leaves a lost sum; a drawing move a drawn one.
        for m in report.winning_moves.iter().chain(&report.drawing_moves) {
            let mut after = tokens;
            after[m.component] = match m.component {
                2 => graph.position(&format!("h{}", m.to)).unwrap(),
                _ => graph.position(&m.to).unwrap(),
            };
            let (left, _) = sum_retrograde(graph.adjacency(), &after, 1 << 20).unwrap();
            let wanted = if report.outcome == Outcome::Draw {
                Outcome::Draw
            } else {
                Outcome::Loss
            };
            assert_eq!(
                left, wanted,
                "round {round}: {text} {} -> {}",
                m.component, m.to
            );
        }
    }
    for outcome in [Outcome::Win, Outcome::Loss, Outcome::Draw] {
        assert!(seen.contains(&outcome), "no {outcome:?} among {seen:?}");
    }
}

#[test]
fn components_are_refused_with_a_reason() {
    let solver = TableSolver::new();
    let refused = |items: &[&str], files: bool| {
        let query = SumQuery {
            game: None,
            items: items
                .iter()
                .map(|w| SumItem::Written((*w).into()))
                .collect(),
            script: Default::default(),
            solver: &solver,
            max_options: LISTED_OPTIONS_LIMIT,
            work_limit: grundy::session::DEFAULT_WORK,
            files,
        };
        match sum(&query, &mut |_, _| true) {
            Ok(_) => panic!("{items:?} accepted"),
            Err(e) => e.to_string(),
        }
    };
    assert!(refused(&["7"], true).contains("GAME:POSITION"));
    assert!(refused(&["graph:/etc/hosts:a"], false).contains("files are not read here"));
    assert!(refused(&["maze:/etc/hosts"], false).contains("files are not read here"));
    assert!(refused(&["fibonacci-nim:5"], true).contains("Fibonacci"));
    assert!(refused(&["wythoff:3"], true).contains("A,B"));
    assert!(refused(&["ruler:0"], true).contains("numbered from 1"));
    assert!(refused(&["(()):1"], true).contains("alone"));
}
