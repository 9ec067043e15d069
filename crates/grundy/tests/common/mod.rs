//! Shared by the integration tests: the repository's reference data.

/// The text of `testdata/{path}` (known values, with their sources in
/// `testdata/README.md`).
pub fn testdata(path: &str) -> String {
    let full = format!("{}/../../testdata/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("cannot read {full}: {e}"))
}
