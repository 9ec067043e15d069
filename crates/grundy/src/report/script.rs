//! What a script declares for its users: its parameters.

use serde::Serialize;

use crate::rules::{ScriptGame, ScriptParameter};

/// A script's parameters, the constants it declares outside its functions
/// (`grundy games FILE.rhai`): each with the script's value, the value in
/// use (a define's, `--define NAME=VALUE`) and the comment that documents
/// it.
#[derive(Serialize)]
pub struct ScriptParametersReport {
    /// The script, with the defines given (`rules.rhai(K=5)`).
    pub script: String,
    /// Its parameters, in the order it declares them.
    pub parameters: Vec<ScriptParameter>,
}

impl ScriptParametersReport {
    /// The parameters of `game`.
    pub fn new(game: &ScriptGame) -> ScriptParametersReport {
        ScriptParametersReport {
            script: game.name().to_owned(),
            parameters: game.parameters().to_vec(),
        }
    }
}
