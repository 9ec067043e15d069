//! A script's parameters: the constants it declares outside its functions
//! (`const B = 7;`), which every function sees, and values given for them
//! in place of the script's own ([`Defines`]: `--define B=9` on the
//! command line).
//!
//! Rhai's functions do not see the statements around them, so a constant
//! outside them was "Variable not found" inside `options`. The constants
//! are now evaluated once, in order, when the script is compiled (a define
//! replacing the script's value, so that a later constant computed from an
//! earlier one follows it), and Rhai's optimizer writes their values into
//! every function that names them (`Engine::optimize_ast` with a scope of
//! constants); the compiled fast path then translates those functions as
//! any others. The optimizer writes a constant's value wherever its name is
//! read, even where a parameter or a variable of the same name hides it,
//! so a script whose functions reuse a constant's name is refused, naming
//! the line, rather than run with another meaning.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use rhai::{AST, ASTFlags, ASTNode, Dynamic, Engine, EvalAltResult, Expr, INT, Scope, Stmt};
use serde::Serialize;

use super::{CALL, TOO_MANY_OPERATIONS};
use crate::{Error, Result};

/// Values given for a script's integer constants, by name, in place of the
/// script's own: its parameters (`--define B=9`). Written `B=9,K=3`, in
/// order of name, in the names of games ([`ScriptGame::name`](super::ScriptGame::name)),
/// so that two runs with different values are never taken for one game.
///
/// ```
/// use grundy::rules::Defines;
/// let defines: Defines = "K=3, B=-2".parse()?;
/// assert_eq!(defines.to_string(), "B=-2,K=3");
/// assert!("K=x".parse::<Defines>().is_err());
/// assert!("K=1,K=2".parse::<Defines>().is_err());
/// # Ok::<(), grundy::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Defines(BTreeMap<String, INT>);

impl Defines {
    /// No values given: every constant keeps the script's.
    pub fn new() -> Defines {
        Defines::default()
    }

    /// Adds `NAME=VALUE`: a name a script can declare and an integer
    /// (`-3`, `100`, `1e6`, `2^20`), refused when the name was given a
    /// value already.
    pub fn add(&mut self, text: &str) -> Result<()> {
        let invalid = |reason: &str| Error::InvalidDefine {
            text: text.trim().to_owned(),
            reason: reason.to_owned(),
        };
        let (name, value) = text
            .split_once('=')
            .ok_or_else(|| invalid("write NAME=VALUE, such as K=3"))?;
        let value = value.trim();
        let (negative, magnitude) = match value.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, value),
        };
        let magnitude = crate::rules::parse_size(magnitude)
            .ok()
            .and_then(|m| INT::try_from(m).ok())
            .ok_or_else(|| {
                invalid("the value is an integer from -(2^63 - 1) to 2^63 - 1, such as 7 or 1e6")
            })?;
        self.define(name, if negative { -magnitude } else { magnitude })
            .map_err(|reason| invalid(&reason))
    }

    /// Gives `name` the value `value`, or says why not.
    fn define(&mut self, name: &str, value: INT) -> std::result::Result<(), String> {
        let name = name.trim();
        let mut chars = name.chars();
        let starts = chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
        if !starts || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(format!(
                "'{name}' is not a constant's name (letters, digits and _, not first a digit)"
            ));
        }
        if self.0.insert(name.to_owned(), value).is_some() {
            return Err(format!("{name} is given a value twice"));
        }
        Ok(())
    }

    /// Gives `name` the value `value` (Python's keywords, say): refused
    /// when `name` is not a constant's name or has a value already.
    pub fn insert(&mut self, name: &str, value: INT) -> Result<()> {
        self.define(name, value)
            .map_err(|reason| Error::InvalidDefine {
                text: format!("{name}={value}"),
                reason,
            })
    }

    /// Whether no value is given.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The names and values, in order of name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, INT)> {
        self.0.iter().map(|(name, &value)| (name.as_str(), value))
    }

    fn get(&self, name: &str) -> Option<INT> {
        self.0.get(name).copied()
    }
}

impl FromStr for Defines {
    type Err = Error;

    /// `NAME=VALUE` items separated by commas, semicolons or white space
    /// (the web playground's field); nothing at all gives none.
    fn from_str(text: &str) -> Result<Defines> {
        let mut defines = Defines::new();
        for item in text
            .split([',', ';', ' ', '\t', '\n', '\r'])
            .filter(|item| !item.is_empty())
        {
            defines.add(item)?;
        }
        Ok(defines)
    }
}

impl fmt::Display for Defines {
    /// `B=9,K=3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (name, value)) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{name}={value}")?;
        }
        Ok(())
    }
}

/// One of a script's constants, as `grundy games FILE.rhai` lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScriptParameter {
    /// Its name.
    pub name: String,
    /// The line that declares it.
    pub line: usize,
    /// The script's value, as Rhai writes it (`7`, `[1, 3, 4]`).
    pub default: String,
    /// The value the game uses: a define's, else the script's.
    pub value: String,
    /// The comment on the lines just above its declaration, or after it on
    /// its line: its documentation.
    pub doc: String,
}

/// The constants of a compiled script: their values, for the optimizer,
/// and their descriptions.
pub(super) struct Constants {
    /// Every constant with the value the game uses.
    pub scope: Scope<'static>,
    pub parameters: Vec<ScriptParameter>,
}

/// Evaluates the statements of `ast` outside its functions, which must all
/// be constants, in order, each seeing the ones before it; a constant named
/// in `defines` takes the define's value (an integer, given only for a
/// constant whose own value is one). A define that names no constant is
/// refused with the list of the script's parameters, and so is a script
/// whose functions reuse a constant's name (see the module's notes).
pub(super) fn evaluate(
    engine: &Engine,
    ast: &AST,
    name: &str,
    source: &str,
    defines: &Defines,
) -> Result<Constants> {
    let error = |message: String| Error::Script {
        script: name.to_owned(),
        message,
    };
    let mut scope = Scope::new();
    let mut parameters: Vec<ScriptParameter> = Vec::new();
    for statement in ast.statements() {
        let line = statement.position().line().unwrap_or(0);
        let declared = match statement {
            Stmt::Noop(_) => continue,
            Stmt::Var(var, flags, _)
                if flags.contains(ASTFlags::CONSTANT) && !flags.contains(ASTFlags::EXPORTED) =>
            {
                var.0.name.clone()
            }
            _ => {
                return Err(error(format!(
                    "line {line}: only constants (`const NAME = ...;`) may stand outside \
                     functions: the functions see nothing else"
                )));
            }
        };
        if let Some(first) = parameters.iter().find(|p| p.name == declared) {
            return Err(error(format!(
                "line {line}: the constant {declared} is declared twice (first at line {})",
                first.line
            )));
        }
        let before = scope.len();
        CALL.with(|call| {
            call.made.0.set(0);
            call.start.set(0);
        });
        let one = AST::new([statement.clone()], ast.shared_lib().clone());
        engine
            .run_ast_with_scope(&mut scope, &one)
            .map_err(|e| error(format!("constant {declared}: {}", failure(&e))))?;
        let default: Dynamic = scope.get_value(&declared).unwrap_or(Dynamic::UNIT);
        let mut value = default.to_string();
        if let Some(given) = defines.get(&declared) {
            if !default.is_int() {
                return Err(error(format!(
                    "line {line}: the constant {declared} is {} {default}, and a define gives \
                     an integer: only integer constants take one",
                    article(default.type_name())
                )));
            }
            scope.rewind(before);
            scope.push_constant(declared.as_str(), given);
            value = given.to_string();
        }
        parameters.push(ScriptParameter {
            name: declared.to_string(),
            line,
            default: default.to_string(),
            value,
            doc: comment_of(source, line),
        });
    }
    if let Some((unknown, _)) = defines
        .iter()
        .find(|(given, _)| parameters.iter().all(|p| p.name != *given))
    {
        let known: Vec<&str> = parameters.iter().map(|p| p.name.as_str()).collect();
        return Err(error(if known.is_empty() {
            format!(
                "no constant {unknown} to define: the script has no parameters (declare one \
                 outside its functions: `const {unknown} = 1;`)"
            )
        } else {
            format!(
                "no constant {unknown} to define; the script's parameters: {}",
                known.join(", ")
            )
        }));
    }
    if let Some(message) = hidden(ast, &parameters) {
        return Err(error(message));
    }
    Ok(Constants { scope, parameters })
}

/// What stopped a constant's evaluation, as one line.
fn failure(error: &EvalAltResult) -> String {
    match error {
        EvalAltResult::ErrorTerminated(token, place)
            if token.to_string() == TOO_MANY_OPERATIONS =>
        {
            format!("stopped at the operations limit ({place})")
        }
        other => other.to_string(),
    }
}

/// `a` or `an` before Rhai's name of a type.
fn article(kind: &str) -> String {
    let vowel = kind.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {kind}", if vowel { "an" } else { "a" })
}

/// The first place a function of `ast` gives a constant's name to a
/// parameter or a variable of its own, as an error message.
fn hidden(ast: &AST, constants: &[ScriptParameter]) -> Option<String> {
    let constant = |name: &str| constants.iter().find(|c| c.name == name);
    let message = |name: &str, line: usize, what: &str| {
        let declared = constant(name).map_or(0, |c| c.line);
        format!(
            "line {line}: {what} {name} takes the name of the script's constant {name} (line \
             {declared}), which every function sees: rename one of them"
        )
    };
    for function in ast.iter_fn_def() {
        if let Some(parameter) = function.params.iter().find(|p| constant(p).is_some()) {
            let line = function.body.start_position().line().unwrap_or(0);
            return Some(message(
                parameter,
                line,
                &format!("the parameter of fn {}", function.name),
            ));
        }
    }
    let mut found = None;
    ast.clone_functions_only().walk(&mut |path: &[ASTNode]| {
        let named = match path.last() {
            Some(ASTNode::Stmt(Stmt::Var(var, ..))) => vec![&var.0],
            Some(ASTNode::Stmt(Stmt::For(each, _))) => {
                std::iter::once(&each.0).chain(each.1.as_ref()).collect()
            }
            Some(ASTNode::Stmt(Stmt::TryCatch(flow, pos))) => {
                if let Expr::Variable(var, ..) = &flow.expr
                    && constant(&var.1).is_some()
                {
                    found = Some(message(&var.1, pos.line().unwrap_or(0), "the variable"));
                }
                Vec::new()
            }
            _ => Vec::new(),
        };
        if let Some(ident) = named.into_iter().find(|i| constant(&i.name).is_some()) {
            found = Some(message(
                &ident.name,
                ident.pos.line().unwrap_or(0),
                "the variable",
            ));
        }
        found.is_none()
    });
    found
}

/// The documentation of the declaration on `line` (from 1) of `source`:
/// the `//` comment lines just above it, joined, or else a `//` comment
/// after it on its own line.
fn comment_of(source: &str, line: usize) -> String {
    let lines: Vec<&str> = source.lines().collect();
    let Some(index) = line.checked_sub(1).filter(|&i| i < lines.len()) else {
        return String::new();
    };
    let mut above: Vec<&str> = lines[..index]
        .iter()
        .rev()
        .map(|l| l.trim())
        .take_while(|l| l.starts_with("//"))
        .map(|l| l.trim_start_matches('/').trim())
        .collect();
    above.reverse();
    let text = above.join(" ");
    if !text.trim().is_empty() {
        return text.trim().to_owned();
    }
    trailing_comment(lines[index]).unwrap_or_default()
}

/// The text of a `//` comment that ends `line`, outside any string.
fn trailing_comment(line: &str) -> Option<String> {
    let mut quote = None;
    let mut escaped = false;
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if b == b'\\' {
                    escaped = true;
                } else if b == q {
                    quote = None;
                }
            }
            None if b == b'"' || b == b'`' || b == b'\'' => quote = Some(b),
            None if b == b'/' && bytes.get(i + 1) == Some(&b'/') => {
                return Some(line[i..].trim_start_matches('/').trim().to_owned());
            }
            None => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::{ScriptGame, ScriptLimits};
    use super::*;

    fn compile(source: &str, defines: &str) -> Result<ScriptGame> {
        let limits = ScriptLimits {
            defines: defines.parse()?,
            ..ScriptLimits::default()
        };
        ScriptGame::compile("p.rhai", source, limits)
    }

    #[test]
    fn constants_are_seen_in_every_function_and_follow_the_defines() {
        let source = "const A = 2;\nconst B = A + 1;\nfn step() { B }\n\
                      fn options(n) { [n - step()] }";
        for (defines, step) in [("", 3u32), ("A=5", 6), ("B=1", 1)] {
            let game = compile(source, defines).unwrap();
            assert!(game.is_compiled());
            let values = game.heap_values(8).unwrap();
            // One move, of `step` tokens: g(n) = (n / step) mod 2.
            for n in 0..=8u32 {
                let want = (n / step) % 2;
                assert_eq!(values.at(n as usize).get(), want, "{defines}: g({n})");
            }
        }
    }

    #[test]
    fn what_would_change_a_constants_meaning_is_refused_with_its_line() {
        for (source, defines, said) in [
            (
                "const A = 1;\nfn f(A) { A }\nfn options(n) { [] }",
                "",
                "line 2: the parameter of fn f A",
            ),
            (
                "const A = 1;\nfn options(n) {\n let A = 2; [] }",
                "",
                "line 3: the variable A",
            ),
            (
                "const A = 1;\nfn options(n) { for A in 0..2 { } [] }",
                "",
                "line 2: the variable A",
            ),
            (
                "const A = 1;\nfn options(n) { try { [] } catch (A) { [] } }",
                "",
                "line 2: the variable A",
            ),
            (
                "const A = 1;\nconst A = 2;\nfn options(n) { [] }",
                "",
                "line 2: the constant A is declared twice",
            ),
            (
                "print(1);\nfn options(n) { [] }",
                "",
                "line 1: only constants",
            ),
            (
                "let A = 1;\nfn options(n) { [] }",
                "",
                "line 1: only constants",
            ),
            (
                "const A = [1];\nfn options(n) { [] }",
                "A=2",
                "line 1: the constant A is an array",
            ),
            ("const A = 1 / 0;\nfn options(n) { [] }", "", "constant A: "),
            (
                "fn f() { loop { } }\nconst A = f();\nfn options(n) { [] }",
                "",
                "operations limit",
            ),
            (
                "fn options(n) { [] }",
                "A=1",
                "the script has no parameters",
            ),
            (
                "const A = 1;\nconst B = 2;\nfn options(n) { [] }",
                "C=1",
                "parameters: A, B",
            ),
        ] {
            let error = compile(source, defines).err().map(|e| e.to_string());
            assert!(
                error
                    .as_ref()
                    .is_some_and(|e| e.starts_with("p.rhai: ") && e.contains(said)),
                "{source}: {error:?}"
            );
        }
    }

    #[test]
    fn defines_parse_and_refuse_what_is_not_a_name_and_an_integer() {
        let defines: Defines = "K=3, B=-2;C=1e3\nD=2^4".parse().unwrap();
        assert_eq!(defines.to_string(), "B=-2,C=1000,D=16,K=3");
        assert!("".parse::<Defines>().unwrap().is_empty());
        for bad in [
            "K",
            "K=",
            "K=x",
            "K=1.5",
            "=3",
            "3K=1",
            "K-1=2",
            "K=1,K=2",
            "K=9223372036854775808",
        ] {
            let error = bad.parse::<Defines>().unwrap_err().to_string();
            assert!(error.starts_with("invalid define"), "{bad}: {error}");
        }
        assert_eq!(
            "K=-9223372036854775807"
                .parse::<Defines>()
                .unwrap()
                .get("K"),
            Some(-INT::MAX)
        );
        let mut keywords = Defines::new();
        keywords.insert("B", 7).unwrap();
        assert!(keywords.insert("B", 8).is_err());
        assert!(keywords.insert("not a name", 8).is_err());
    }

    #[test]
    fn comments_above_or_after_a_declaration_document_it() {
        let source = "// the game\n\n// The most tokens\n// a move takes.\nconst K = 3;\n\
                      const B = \"//\"; // the base\nconst C = 1;\n";
        assert_eq!(comment_of(source, 5), "The most tokens a move takes.");
        assert_eq!(comment_of(source, 6), "the base");
        assert_eq!(comment_of(source, 7), "");
        assert_eq!(comment_of(source, 99), "");
    }
}
