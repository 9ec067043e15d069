//! `grundy count --formula` with the formula language's number-theoretic
//! functions, on a script game whose values are one of them: a move
//! replaces `n` by a proper divisor, so `g(n) = bigomega(n)`, the prime
//! factors of `n` counted with multiplicity.

use assert_cmd::Command;
use serde_json::{Value, json};

mod common;

/// The script `examples/divisor-chain.rhai`.
fn divisor_chain() -> String {
    format!(
        "{}/../../examples/divisor-chain.rhai",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn grundy(args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("grundy").unwrap().args(args).assert()
}

fn stdout_json(args: &[&str]) -> Value {
    let output = grundy(args).success().get_output().stdout.clone();
    serde_json::from_slice(&output).expect("valid JSON")
}

/// `bigomega(n)` fits every computed heap and counts past them by the
/// sieve: heaps with one prime factor are the primes, 664579 up to 10^7,
/// and heap 1 alone has none.
#[test]
fn a_divisor_chain_is_counted_by_bigomega() {
    let script = divisor_chain();
    let counted = stdout_json(&[
        "count",
        &script,
        "--formula",
        "g(n) = bigomega(n)",
        "--max",
        "2000",
        "--to",
        "1e7",
        "--format",
        "json",
    ]);
    assert_eq!(
        counted["by_formula"],
        json!({"formula": "g(n) = bigomega(n)", "verified_to": 2000, "proven": false})
    );
    assert_eq!(counted["histogram"][0], json!([0, "1"]));
    assert_eq!(counted["histogram"][1], json!([1, "664579"]));
    // 2^23 is the one heap up to 10^7 with 23 prime factors.
    let last = counted["histogram"].as_array().unwrap().last().unwrap();
    assert_eq!(last, &json!([23, "1"]));
    // The same heaps by an equivalent expression, written another way.
    let again = stdout_json(&[
        "count",
        &script,
        "--formula",
        "bigomega(n) + 0 * tau(n)",
        "--max",
        "2000",
        "--to",
        "1e7",
        "--format",
        "json",
    ]);
    assert_eq!(again["histogram"], counted["histogram"]);
}

/// A formula that does not fit is refused at the first heap where it
/// fails; a malformed one and a count past the sieve's budget are refused
/// before counting, and one that gives no value past the heaps computed
/// (it fits `bigomega(n)` up to 2000) where it stops giving one.
#[test]
fn formulas_that_do_not_fit_or_cost_too_much_are_refused() {
    let script = divisor_chain();
    let refused = |args: &[&str], needles: &[&str]| {
        let mut all = vec!["count", script.as_str()];
        all.extend_from_slice(args);
        common::refused(grundy(&all), &all, needles);
    };
    refused(
        &["--formula", "omega(n)", "--max", "2000", "--to", "1e6"],
        &["fails at heap 4: it gives 1, and g(4) = 2 (checked heaps 1..=2000"],
    );
    refused(
        &["--formula", "sqrt(n)", "--to", "1e6"],
        &["unknown function 'sqrt': the functions are popcount, ctz, digitsum, bigomega"],
    );
    refused(
        &["--formula", "digitsum(n, 1)", "--to", "1e6"],
        &["the base is at least 2"],
    );
    refused(
        &["--formula", "bigomega(n)", "--max", "2000", "--to", "1e13"],
        &["past the limit of 1e11 steps", "(--to)"],
    );
    refused(
        &[
            "--formula",
            "bigomega(n) + 20000 - 10 * max(n, 2000)",
            "--max",
            "2000",
            "--to",
            "1e6",
        ],
        &["gives no value at heap 2001", "(--from)"],
    );
}
