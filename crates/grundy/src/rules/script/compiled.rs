//! A compiled form of the scripts most rules are written as: the fast path
//! of [`ScriptGame`](super::ScriptGame).
//!
//! Rhai walks its syntax tree and resolves every variable and call by name
//! and hash as it runs; a sweep of `examples/digits.rhai` spent about 20 µs
//! a state there, seven times the same rule as a Python callable. When
//! every function a script defines uses only integers, booleans, strings and
//! arrays, `let`, assignment, `if`, loops, calls of its own functions and a
//! few built-in functions ([`Builtin`]), the script is translated once into
//! a tree of its own whose variables are numbered slots and whose calls are
//! resolved, and `options` is evaluated on that tree.
//!
//! It is a fast path, never a second meaning: it computes only what it is
//! sure Rhai computes the same way and gives up ([`Stop::GiveUp`]) on
//! anything else — any error (an overflow, a division by zero, a string
//! that is not a number, a type the operation does not take, an index out
//! of range), a value or case it does not model, a call deeper than
//! [`MAX_DEPTH`], a run past half the operations limit
//! ([`OPERATIONS_FACTOR`]) or half the size limit, the time limit or a cancel. The caller then
//! asks Rhai for the same position, so every error a user sees is Rhai's,
//! at Rhai's limits. A script with anything this module does not know
//! (maps, floats, characters, `switch`, closures, `print`, statements
//! outside functions, an argument that assigns to a variable ...) is not
//! compiled at all and runs in Rhai as before.

use std::rc::Rc;
use std::time::Instant;

use rhai::{AST, ASTFlags, ASTNode, Array, Dynamic, Expr as Syntax, INT, ImmutableString, Stmt};

use super::{Made, ScriptLimits, ScriptPosition, cut_text, make_sum, split};
use crate::Options;

/// The margin of the operations count. Rhai counts about one operation per
/// statement and expression evaluated; so does this module, a few more
/// where Rhai counts more (a call of a built-in, `push`, an assignment), so
/// that it counts at least as many as Rhai (the tests check it on every
/// test script, construct by construct). The fast path gives up past
/// `operations / OPERATIONS_FACTOR`, so a position it answers is one Rhai
/// answers within its operations limit even if a construct no test covers
/// were counted at up to half of Rhai's count. (It was 8, from a count a
/// quarter of Rhai's for some scripts: a wide rule such as every `k`
/// coprime to `n` left the fast path from heap 1,500 on.)
pub(super) const OPERATIONS_FACTOR: u64 = 2;

/// Steps counted for a call of a built-in function beyond the call's
/// own: Rhai counts up to two more for one (a method call `t.len()`, its
/// object, the function's dispatch).
const BUILTIN_STEPS: u64 = 2;

/// Steps counted for `x.push(e)` beyond the statement and `e`: Rhai counts
/// the method call, its object and its dispatch.
const PUSH_STEPS: u64 = 3;

/// Calls deeper than this give up (Rhai's own limit is 64 levels).
const MAX_DEPTH: usize = 32;

/// Operations between two looks at the clock and the cancel token, which
/// are also read at a call's first operation (as the engine's progress
/// callback does): a sweep of cheap states stops at the time limit too.
const CLOCK_EVERY: u64 = 256;

/// A script translated for the fast path.
pub(super) struct Compiled {
    functions: Vec<Function>,
    /// The index of `options(p)` in `functions`.
    options: usize,
}

/// One function: its parameters are slots `0..parameters`, its other
/// variables the slots after them.
struct Function {
    slots: usize,
    body: Block,
}

type Block = Vec<Step>;

/// A statement.
enum Step {
    /// `let x = e` or `x = e`.
    Set(usize, Expr),
    /// `x op= e`.
    Update(usize, Op, Expr),
    /// `x.push(e)` on an array variable.
    Push(usize, Expr),
    /// An expression, whose value is the block's if it comes last.
    Value(Expr),
    If(Expr, Block, Block),
    /// `while c { }`, or `loop { }` without a condition.
    While(Option<Expr>, Block),
    /// `do { } while c` (`until` when the flag is set).
    Do(Block, Expr, bool),
    /// `for x in from..to` (or `..=` when `inclusive`).
    Range {
        slot: usize,
        from: Expr,
        to: Expr,
        inclusive: bool,
        body: Block,
    },
    /// `for x in array`.
    Each {
        slot: usize,
        items: Expr,
        body: Block,
    },
    Break,
    Continue,
    Return(Expr),
}

/// An expression.
enum Expr {
    Unit,
    Bool(bool),
    Int(INT),
    Str(Box<str>),
    Local(usize),
    Array(Vec<Expr>),
    Binary(Op, Box<(Expr, Expr)>),
    /// `a op b` of two variables or integer constants (`n - k`, `b != 0`):
    /// one step where a [`Expr::Binary`] takes three, counted as three.
    Arith(Op, Operand, Operand),
    /// `a op b` whose value is an integer ([`Expr::is_int`]): its operands
    /// are integers, or the fast path gives up.
    IntBinary(Op, Box<(Expr, Expr)>),
    /// A comparison with an integer on one side ([`Expr::is_int`]): the
    /// other side is one too, or the fast path gives up (as Rhai's
    /// comparison of an integer with another type does here).
    IntCompare(Op, Box<(Expr, Expr)>),
    /// `e == "text"` (or `!=` when the flag is clear): no string is made
    /// for the constant.
    EqualsText(Box<Expr>, Box<str>, bool),
    Negate(Box<Expr>),
    Plus(Box<Expr>),
    Not(Box<Expr>),
    And(Vec<Expr>),
    Or(Vec<Expr>),
    Index(Box<(Expr, Expr)>),
    /// A call of the script's function with this index.
    Call(usize, Vec<Expr>),
    Builtin(Builtin, Vec<Expr>),
    Block(Block),
}

impl Expr {
    /// Whether the expression's value is an integer whenever the fast path
    /// does not give up: then an operator applied to it takes integers
    /// ([`Expr::IntBinary`], [`Expr::IntCompare`]).
    fn is_int(&self) -> bool {
        match self {
            Expr::Int(_) | Expr::Negate(_) | Expr::Plus(_) | Expr::IntBinary(..) => true,
            Expr::Arith(op, a, b) => {
                !op.compares()
                    && (*op != Op::Add
                        || matches!(a, Operand::Int(_))
                        || matches!(b, Operand::Int(_)))
            }
            Expr::Builtin(builtin, _) => matches!(
                builtin,
                Builtin::Len | Builtin::ParseInt | Builtin::Abs | Builtin::Gcd
            ),
            _ => false,
        }
    }
}

/// An operand of [`Expr::Arith`].
#[derive(Clone, Copy, Debug)]
enum Operand {
    Local(usize),
    Int(INT),
}

impl Operand {
    /// `expr` as an operand, if it is a variable or an integer constant.
    fn of(expr: &Expr) -> Option<Operand> {
        match *expr {
            Expr::Local(slot) => Some(Operand::Local(slot)),
            Expr::Int(n) => Some(Operand::Int(n)),
            _ => None,
        }
    }

    /// The operand's value when it is an integer.
    #[inline(always)]
    fn int(self, frame: &[Value]) -> Option<INT> {
        match self {
            Operand::Local(slot) => match frame[slot] {
                Value::Int(n) => Some(n),
                _ => None,
            },
            Operand::Int(n) => Some(n),
        }
    }

    /// The operand's value.
    fn value(self, frame: &[Value]) -> Value {
        match self {
            Operand::Local(slot) => frame[slot].clone(),
            Operand::Int(n) => Value::Int(n),
        }
    }
}

/// A binary operator, as Rhai's built-in operators for integers, strings
/// and booleans define it (`rhai::packages::arithmetic`, checked).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Pow,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Op {
    /// Whether the operator compares (its value is a boolean).
    fn compares(self) -> bool {
        matches!(self, Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge)
    }

    fn named(name: &str) -> Option<Op> {
        Some(match name {
            "+" => Op::Add,
            "-" => Op::Sub,
            "*" => Op::Mul,
            "/" => Op::Div,
            "%" => Op::Rem,
            "**" => Op::Pow,
            "<<" => Op::Shl,
            ">>" => Op::Shr,
            "&" => Op::BitAnd,
            "|" => Op::BitOr,
            "^" => Op::BitXor,
            "==" => Op::Eq,
            "!=" => Op::Ne,
            "<" => Op::Lt,
            "<=" => Op::Le,
            ">" => Op::Gt,
            ">=" => Op::Ge,
            _ => return None,
        })
    }
}

/// The built-in functions the fast path knows, with Rhai's meaning (its
/// string and math packages; `sub_string`, `sum` and `split` are the
/// engine's own: [`cut_text`], [`make_sum`], [`split`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Builtin {
    /// `to_string(n)` of an integer: its decimal digits.
    ToString,
    /// `len(x)`: characters of a string, items of an array.
    Len,
    /// `sub_string(text, start, len)`.
    SubString,
    /// `parse_int(text)`: the trimmed text as a decimal integer.
    ParseInt,
    /// `abs(n)`.
    Abs,
    /// `sum(a, b, ...)` or `sum([a, b, ...])`: one move to several
    /// positions.
    Sum,
    /// `split(m, k)`: every way to write `m` as `k` heaps, each a sum.
    Split,
    /// `gcd(a, b)`: the greatest common divisor of `|a|` and `|b|`
    /// ([`gcd`](super::gcd)).
    Gcd,
}

impl Builtin {
    /// The built-in called `name` with `arity` arguments (counting the
    /// object of a method call).
    fn named(name: &str, arity: usize) -> Option<Builtin> {
        Some(match (name, arity) {
            ("to_string", 1) => Builtin::ToString,
            ("len", 1) => Builtin::Len,
            ("sub_string", 3) => Builtin::SubString,
            ("parse_int", 1) => Builtin::ParseInt,
            ("abs", 1) => Builtin::Abs,
            ("sum", 1..=4) => Builtin::Sum,
            ("split", 2) => Builtin::Split,
            ("gcd", 2) => Builtin::Gcd,
            _ => return None,
        })
    }
}

/// A value while the fast path runs. Arrays are shared until written
/// (`Rc::make_mut`), which keeps Rhai's copy-on-assignment meaning.
#[derive(Clone, Debug, Default)]
enum Value {
    #[default]
    Unit,
    Bool(bool),
    Int(INT),
    Str(Rc<str>),
    Array(Rc<Vec<Value>>),
    /// A [`Sum`](super::Sum) made by `sum` or `split`, as Rhai holds it: it only
    /// passes through to what `options` returns.
    Sum(Dynamic),
}

/// Why evaluation left the straight path. A fieldless enum (the value of
/// a `return` waits in [`Run::returned`]), so that a [`Flow`] is no larger
/// than a [`Value`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    Break,
    Continue,
    Return,
    /// Rhai must answer this position.
    GiveUp,
}

type Flow<T> = std::result::Result<T, Stop>;

impl Compiled {
    /// The compiled form of `ast`, or `None` when it has anything the fast
    /// path does not know (then the script runs in Rhai only).
    pub(super) fn new(ast: &AST) -> Option<Compiled> {
        if !ast.statements().is_empty() {
            return None;
        }
        let signatures: Vec<(ImmutableString, usize)> = ast
            .iter_fn_def()
            .map(|f| (f.name.clone(), f.params.len()))
            .collect();
        let options = signatures
            .iter()
            .position(|(name, arity)| name == "options" && *arity == 1)?;
        let bodies = bodies(ast)?;
        let translator = Translator {
            signatures: &signatures,
            writable: std::cell::Cell::new(0),
        };
        let functions = ast
            .iter_fn_def()
            .zip(bodies)
            .map(|(f, body)| {
                if f.this_type.is_some() {
                    return None;
                }
                let mut scope = Scope::default();
                for parameter in &f.params {
                    scope.declare(parameter.clone(), false);
                }
                let body = translator.block(&body, &mut scope)?;
                Some(Function {
                    slots: scope.slots,
                    body,
                })
            })
            .collect::<Option<Vec<Function>>>()?;
        Some(Compiled { functions, options })
    }

    /// `options(position)` on the fast path, as Rhai would have returned
    /// it, or `None` when Rhai must answer it.
    pub(super) fn options(
        &self,
        position: &ScriptPosition,
        limits: &ScriptLimits,
        deadline: Option<Instant>,
    ) -> Option<Listed> {
        self.evaluate(position, limits, deadline)
            .map(|(value, _)| Listed(value))
    }

    /// [`Compiled::options`], and the operations it counted.
    fn evaluate(
        &self,
        position: &ScriptPosition,
        limits: &ScriptLimits,
        deadline: Option<Instant>,
    ) -> Option<(Value, u64)> {
        let argument = match position {
            ScriptPosition::Heap(n) => Value::Int(INT::try_from(*n).ok()?),
            ScriptPosition::Tuple(items) => {
                Value::Array(Rc::new(items.iter().map(|&v| Value::Int(v)).collect()))
            }
        };
        let unlimited = |limit: u64| if limit == 0 { u64::MAX } else { limit };
        let mut run = Run {
            compiled: self,
            operations: 0,
            most_operations: unlimited(limits.operations) / OPERATIONS_FACTOR,
            made: 0,
            most_made: usize::try_from(unlimited(limits.size as u64) / 2).unwrap_or(usize::MAX),
            size: limits.size,
            depth: 0,
            deadline,
            returned: Value::Unit,
            alarm: 1,
            frames: Vec::new(),
        };
        let value = run.call(self.options, &mut vec![argument]).ok()?;
        Some((value, run.operations))
    }
}

/// What `options` returned on the fast path. A heap game's options and a
/// sweep's states are read from it as they are (a wide rule's thousands
/// of options a call made no array of Rhai values and no vector an option
/// on their way to the solver); anything else, errors included, is read as
/// Rhai's value by [`ScriptGame::collect`](super::ScriptGame), which
/// words the errors.
pub(super) struct Listed(Value);

impl Listed {
    /// The value as Rhai holds it.
    pub(super) fn into_dynamic(self) -> Dynamic {
        self.0.into_dynamic()
    }

    /// Pushes the options onto `out` when every one is a heap or a sum of
    /// heaps (as `ScriptGame::heap_options` reads them: an option with a
    /// negative heap left out); `false`, with nothing pushed, otherwise.
    pub(super) fn heaps(&self, out: &mut Options<usize>) -> bool {
        if !self.0.all_heaps() {
            return false;
        }
        self.0.push_heaps(out);
        true
    }

    /// Pushes the states listed onto `out` when every option is a single
    /// state (as `ScriptGame::state_options` reads them: negative ones left
    /// out); `false`, with `out` as it was, otherwise.
    pub(super) fn states(&self, out: &mut Vec<u64>) -> bool {
        let before = out.len();
        if self.0.push_states(out) {
            return true;
        }
        out.truncate(before);
        false
    }
}

/// The statements of each function of `ast`, in the order of
/// `ast.iter_fn_def()`, or `None` when one cannot be placed.
///
/// Rhai (1.27) gives a function's body only through a type it does not
/// export, so the bodies are read from a walk over the whole tree (which
/// visits each body's statements in turn, at depth one) and each statement
/// is placed in the function whose body spans its position. Rhai keeps
/// lines and columns in 16 bits and saturates them: a position at either
/// bound, or one that no body or two bodies span, refuses the script.
fn bodies(ast: &AST) -> Option<Vec<Vec<Stmt>>> {
    let at = |p: rhai::Position| {
        let place = (p.line()?, p.position().unwrap_or(0));
        (place.0 < usize::from(u16::MAX) && place.1 < usize::from(u16::MAX)).then_some(place)
    };
    let spans = ast
        .iter_fn_def()
        .map(|f| Some((at(f.body.start_position())?, at(f.body.end_position())?)))
        .collect::<Option<Vec<_>>>()?;
    // The bodies by where they start: disjoint (functions do not nest), so
    // the one body that may span a statement is the last to start at or
    // before it, found by binary search (a scan of every body for every
    // statement made scripts of many functions quadratic to compile).
    let mut by_start: Vec<usize> = (0..spans.len()).collect();
    by_start.sort_unstable_by_key(|&f| spans[f].0);
    if by_start
        .windows(2)
        .any(|pair| spans[pair[0]].1 >= spans[pair[1]].0)
    {
        return None;
    }
    let mut bodies = vec![Vec::new(); spans.len()];
    let mut placed = true;
    ast.walk(&mut |path: &[ASTNode]| {
        if let [ASTNode::Stmt(statement)] = path {
            let spanning = at(statement.position()).and_then(|p| {
                let after = by_start.partition_point(|&f| spans[f].0 <= p);
                let f = by_start[after.checked_sub(1)?];
                (p <= spans[f].1).then_some(f)
            });
            match spanning {
                Some(f) => bodies[f].push((*statement).clone()),
                None => placed = false,
            }
        }
        placed
    });
    placed.then_some(bodies)
}

impl Value {
    /// What Rhai's size limits see of a value put into an array: one item,
    /// plus the items and characters within it, all the way down
    /// (`rhai::eval::data_check`).
    fn weight(&self) -> usize {
        match self {
            Value::Str(text) => 1 + text.len(),
            Value::Array(items) => items
                .iter()
                .fold(1, |w, item| w.saturating_add(item.weight())),
            _ => 1,
        }
    }

    /// Whether every option in this listing is a heap or a sum of heaps:
    /// integers, arrays of listings and sums of integers.
    fn all_heaps(&self) -> bool {
        match self {
            Value::Int(_) => true,
            Value::Array(items) => items.iter().all(Value::all_heaps),
            Value::Sum(sum) => sum
                .read_lock::<super::Sum>()
                .is_some_and(|sum| sum.0.iter().all(Dynamic::is_int)),
            _ => false,
        }
    }

    /// Pushes the options of a listing [`Value::all_heaps`] accepts.
    fn push_heaps(&self, out: &mut Options<usize>) {
        match self {
            &Value::Int(n) => {
                if let Ok(heap) = usize::try_from(n) {
                    out.push([heap]);
                }
            }
            Value::Array(items) => items.iter().for_each(|item| item.push_heaps(out)),
            Value::Sum(sum) => {
                if let Some(sum) = sum.read_lock::<super::Sum>() {
                    let heaps = sum
                        .0
                        .iter()
                        .map(|part| usize::try_from(part.as_int().unwrap_or(-1)).ok());
                    if heaps.clone().all(|heap| heap.is_some()) {
                        out.push(heaps.flatten());
                    }
                }
            }
            _ => {}
        }
    }

    /// Pushes the states of a listing of single states (integers and
    /// arrays of listings, negative ones left out); `false` at anything
    /// else.
    fn push_states(&self, out: &mut Vec<u64>) -> bool {
        match self {
            &Value::Int(n) => {
                if let Ok(state) = u64::try_from(n) {
                    out.push(state);
                }
                true
            }
            Value::Array(items) => items.iter().all(|item| item.push_states(out)),
            _ => false,
        }
    }

    fn into_dynamic(self) -> Dynamic {
        match self {
            Value::Unit => Dynamic::UNIT,
            Value::Bool(b) => Dynamic::from_bool(b),
            Value::Int(n) => Dynamic::from_int(n),
            Value::Str(text) => Dynamic::from(ImmutableString::from(&*text)),
            Value::Array(items) => Dynamic::from_array(
                Rc::unwrap_or_clone(items)
                    .into_iter()
                    .map(Value::into_dynamic)
                    .collect::<Array>(),
            ),
            Value::Sum(sum) => sum,
        }
    }
}

/// Names in scope while a function is translated: each `let` takes a new
/// slot, and a block forgets the names it declared when it ends.
#[derive(Default)]
struct Scope {
    names: Vec<(ImmutableString, usize, bool)>,
    slots: usize,
}

impl Scope {
    fn declare(&mut self, name: ImmutableString, constant: bool) -> usize {
        let slot = self.slots;
        self.slots += 1;
        self.names.push((name, slot, constant));
        slot
    }

    /// The slot of the variable `name` in scope, and whether it is a
    /// constant.
    fn find(&self, name: &str) -> Option<(usize, bool)> {
        self.names
            .iter()
            .rev()
            .find(|(n, ..)| n == name)
            .map(|&(_, slot, constant)| (slot, constant))
    }
}

/// Translates Rhai's syntax tree, refusing (`None`) whatever the fast path
/// does not know.
struct Translator<'a> {
    /// The script's functions, by name and number of parameters, in the
    /// order of [`Compiled::functions`].
    signatures: &'a [(ImmutableString, usize)],
    /// The first slot statements may write: inside a block that is an
    /// expression (`let x = { ... }`, an argument), the slots declared
    /// inside it. Rhai evaluates a call's other arguments before a
    /// variable first argument, and an index or method arguments before
    /// the object; this evaluator goes left to right, which differs only
    /// when an argument writes a variable, so no argument may.
    writable: std::cell::Cell<usize>,
}

impl Translator<'_> {
    /// Whether the script defines a function called `name`. A method call
    /// `x.f(...)` of such a name is not translated: Rhai calls the
    /// script's `f` there when its parameters, `this` aside, match the
    /// arguments, and the built-in otherwise. (A plain call `f(...)` is the
    /// script's when the numbers of parameters and arguments agree, the
    /// built-in's otherwise, as [`Translator::call`] resolves it.)
    fn defines(&self, name: &str) -> bool {
        self.signatures.iter().any(|(defined, _)| defined == name)
    }

    fn block(&self, statements: &[Stmt], scope: &mut Scope) -> Option<Block> {
        let mark = scope.names.len();
        let block = statements
            .iter()
            .map(|s| self.statement(s, scope))
            .collect::<Option<Block>>();
        scope.names.truncate(mark);
        block
    }

    fn statement(&self, statement: &Stmt, scope: &mut Scope) -> Option<Step> {
        Some(match statement {
            Stmt::Noop(_) => Step::Value(Expr::Unit),
            Stmt::Var(var, flags, _) => {
                if flags.contains(ASTFlags::EXPORTED) {
                    return None;
                }
                let (name, init, _) = &**var;
                let value = self.expr(init, scope)?;
                let slot = scope.declare(name.name.clone(), flags.contains(ASTFlags::CONSTANT));
                Step::Set(slot, value)
            }
            Stmt::Assignment(assignment) => {
                let (op, target) = &**assignment;
                let slot = self.variable(&target.lhs, scope)?;
                let value = self.expr(&target.rhs, scope)?;
                match op.get_op_assignment_info() {
                    None => Step::Set(slot, value),
                    Some((.., syntax)) => Step::Update(slot, Op::named(syntax)?, value),
                }
            }
            Stmt::FnCall(call, _) => Step::Value(self.call(call, scope)?),
            Stmt::Block(block) => Step::Value(Expr::Block(self.block(block.statements(), scope)?)),
            Stmt::Expr(expr) => match &**expr {
                Syntax::Dot(dot, flags, _) if !flags.contains(ASTFlags::NEGATED) => {
                    match &dot.rhs {
                        Syntax::MethodCall(call, _)
                            if call.name == "push"
                                && call.args.len() == 1
                                && !self.defines("push") =>
                        {
                            let slot = self.variable(&dot.lhs, scope)?;
                            Step::Push(slot, self.expr(&call.args[0], scope)?)
                        }
                        _ => Step::Value(self.expr(expr, scope)?),
                    }
                }
                _ => Step::Value(self.expr(expr, scope)?),
            },
            Stmt::If(flow, _) => Step::If(
                self.expr(&flow.expr, scope)?,
                self.block(flow.body.statements(), scope)?,
                self.block(flow.branch.statements(), scope)?,
            ),
            Stmt::While(flow, _) => {
                let condition = match flow.expr {
                    Syntax::Unit(_) => None,
                    ref c => Some(self.expr(c, scope)?),
                };
                Step::While(condition, self.block(flow.body.statements(), scope)?)
            }
            Stmt::Do(flow, flags, _) => Step::Do(
                self.block(flow.body.statements(), scope)?,
                self.expr(&flow.expr, scope)?,
                flags.contains(ASTFlags::NEGATED),
            ),
            Stmt::For(each, _) => {
                let (variable, counter, flow) = &**each;
                if counter.is_some() {
                    return None;
                }
                // A range's ends, or else the array the loop runs over.
                let range = match self.range(&flow.expr, scope) {
                    Some(range) => Ok(range),
                    None => Err(self.expr(&flow.expr, scope)?),
                };
                let mark = scope.names.len();
                let slot = scope.declare(variable.name.clone(), false);
                let body = self.block(flow.body.statements(), scope);
                scope.names.truncate(mark);
                let body = body?;
                match range {
                    Ok((from, to, inclusive)) => Step::Range {
                        slot,
                        from,
                        to,
                        inclusive,
                        body,
                    },
                    Err(items) => Step::Each { slot, items, body },
                }
            }
            Stmt::BreakLoop(None, flags, _) => {
                if flags.contains(ASTFlags::BREAK) {
                    Step::Break
                } else {
                    Step::Continue
                }
            }
            Stmt::Return(value, flags, _) if !flags.contains(ASTFlags::BREAK) => {
                Step::Return(match value {
                    Some(value) => self.expr(value, scope)?,
                    None => Expr::Unit,
                })
            }
            _ => return None,
        })
    }

    /// The slot of an assignable variable: not a constant, and declared
    /// where statements may write (see [`Translator::writable`]).
    fn variable(&self, expr: &Syntax, scope: &Scope) -> Option<usize> {
        match expr {
            Syntax::Variable(name, ..) => match scope.find(&name.1)? {
                (slot, false) if slot >= self.writable.get() => Some(slot),
                _ => None,
            },
            _ => None,
        }
    }

    /// `from..to` or `from..=to`: its ends, and whether it is inclusive.
    fn range(&self, expr: &Syntax, scope: &mut Scope) -> Option<(Expr, Expr, bool)> {
        match expr {
            Syntax::FnCall(call, _)
                if call.op_token.is_some()
                    && call.args.len() == 2
                    && (call.name == ".." || call.name == "..=") =>
            {
                Some((
                    self.expr(&call.args[0], scope)?,
                    self.expr(&call.args[1], scope)?,
                    call.name == "..=",
                ))
            }
            Syntax::DynamicConstant(value, _) => {
                if let Some(r) = value.read_lock::<std::ops::Range<INT>>() {
                    Some((Expr::Int(r.start), Expr::Int(r.end), false))
                } else {
                    value
                        .read_lock::<std::ops::RangeInclusive<INT>>()
                        .map(|r| (Expr::Int(*r.start()), Expr::Int(*r.end()), true))
                }
            }
            _ => None,
        }
    }

    fn expr(&self, expr: &Syntax, scope: &mut Scope) -> Option<Expr> {
        Some(match expr {
            Syntax::Unit(_) => Expr::Unit,
            Syntax::BoolConstant(b, _) => Expr::Bool(*b),
            Syntax::IntegerConstant(n, _) => Expr::Int(*n),
            Syntax::StringConstant(text, _) => Expr::Str(text.as_str().into()),
            Syntax::DynamicConstant(value, _) => constant(value)?,
            Syntax::Variable(name, ..) => Expr::Local(scope.find(&name.1)?.0),
            Syntax::Array(items, _) => Expr::Array(
                items
                    .iter()
                    .map(|item| self.expr(item, scope))
                    .collect::<Option<_>>()?,
            ),
            Syntax::FnCall(call, _) => self.call(call, scope)?,
            Syntax::Dot(dot, flags, _) if !flags.contains(ASTFlags::NEGATED) => {
                let object = self.expr(&dot.lhs, scope)?;
                self.methods(object, &dot.rhs, scope)?
            }
            Syntax::Index(index, flags, _) if !flags.contains(ASTFlags::NEGATED) => {
                if matches!(index.rhs, Syntax::Index(..) | Syntax::Dot(..)) {
                    return None;
                }
                Expr::Index(Box::new((
                    self.expr(&index.lhs, scope)?,
                    self.expr(&index.rhs, scope)?,
                )))
            }
            Syntax::Stmt(block) => {
                let outer = self.writable.replace(scope.slots);
                let block = self.block(block.statements(), scope);
                self.writable.set(outer);
                Expr::Block(block?)
            }
            Syntax::And(items, _) => Expr::And(
                items
                    .iter()
                    .map(|item| self.expr(item, scope))
                    .collect::<Option<_>>()?,
            ),
            Syntax::Or(items, _) => Expr::Or(
                items
                    .iter()
                    .map(|item| self.expr(item, scope))
                    .collect::<Option<_>>()?,
            ),
            _ => return None,
        })
    }

    /// The calls `.f(...)` of a method chain (`x.to_string().len()`) on
    /// `object`, left to right: built-ins only (Rhai binds a script
    /// function called as a method to `this`).
    fn methods(&self, object: Expr, chain: &Syntax, scope: &mut Scope) -> Option<Expr> {
        let (call, rest) = match chain {
            Syntax::MethodCall(call, _) => (call, None),
            Syntax::Dot(dot, flags, _) if !flags.contains(ASTFlags::NEGATED) => {
                let Syntax::MethodCall(call, _) = &dot.lhs else {
                    return None;
                };
                (call, Some(&dot.rhs))
            }
            _ => return None,
        };
        if call.capture_parent_scope || self.defines(&call.name) {
            return None;
        }
        let builtin = Builtin::named(&call.name, call.args.len() + 1)?;
        let mut args = vec![object];
        for arg in &call.args {
            args.push(self.expr(arg, scope)?);
        }
        let called = Expr::Builtin(builtin, args);
        match rest {
            Some(rest) => self.methods(called, rest, scope),
            None => Some(called),
        }
    }

    fn call(&self, call: &rhai::FnCallExpr, scope: &mut Scope) -> Option<Expr> {
        if call.capture_parent_scope {
            return None;
        }
        let mut args = call
            .args
            .iter()
            .map(|arg| self.expr(arg, scope))
            .collect::<Option<Vec<Expr>>>()?;
        if call.op_token.is_some() {
            return Some(match (call.name.as_str(), args.len()) {
                ("-", 1) => Expr::Negate(Box::new(args.pop()?)),
                ("+", 1) => Expr::Plus(Box::new(args.pop()?)),
                ("!", 1) => Expr::Not(Box::new(args.pop()?)),
                (name, 2) => {
                    let op = Op::named(name)?;
                    let right = args.pop()?;
                    let left = args.pop()?;
                    match (op, left, right) {
                        (Op::Eq | Op::Ne, left, Expr::Str(text)) => {
                            Expr::EqualsText(Box::new(left), text, op == Op::Eq)
                        }
                        (op, left, right) => match (Operand::of(&left), Operand::of(&right)) {
                            (Some(a), Some(b)) => Expr::Arith(op, a, b),
                            // An operator other than `+` takes integers
                            // only here (strings and booleans give up);
                            // `+` and the comparisons take any two values
                            // of a type, so an integer on one side.
                            _ if left.is_int() || right.is_int() => {
                                let operands = Box::new((left, right));
                                if op.compares() {
                                    Expr::IntCompare(op, operands)
                                } else {
                                    Expr::IntBinary(op, operands)
                                }
                            }
                            _ if !op.compares() && op != Op::Add => {
                                Expr::IntBinary(op, Box::new((left, right)))
                            }
                            _ => Expr::Binary(op, Box::new((left, right))),
                        },
                    }
                }
                _ => return None,
            });
        }
        if let Some(index) = self
            .signatures
            .iter()
            .position(|(name, arity)| *name == call.name && *arity == args.len())
        {
            return Some(Expr::Call(index, args));
        }
        Some(Expr::Builtin(Builtin::named(&call.name, args.len())?, args))
    }
}

/// A constant Rhai folded into a value: integers, booleans, strings and
/// arrays of them.
fn constant(value: &Dynamic) -> Option<Expr> {
    if let Ok(n) = value.as_int() {
        return Some(Expr::Int(n));
    }
    if let Ok(b) = value.as_bool() {
        return Some(Expr::Bool(b));
    }
    if value.is_unit() {
        return Some(Expr::Unit);
    }
    if let Some(text) = value.read_lock::<ImmutableString>() {
        return Some(Expr::Str(text.as_str().into()));
    }
    let items = value.read_lock::<Array>()?;
    Some(Expr::Array(
        items.iter().map(constant).collect::<Option<_>>()?,
    ))
}

/// One evaluation of `options`.
struct Run<'a> {
    compiled: &'a Compiled,
    operations: u64,
    /// The count at which [`Run::tick`] next looks at the limit, the clock
    /// and the cancel token: one comparison a step in between.
    alarm: u64,
    most_operations: u64,
    /// Characters and array items made so far.
    made: usize,
    most_made: usize,
    /// The size limit, as `split` takes it.
    size: usize,
    depth: usize,
    deadline: Option<Instant>,
    /// The value of the `return` being carried out.
    returned: Value,
    /// The frames of finished calls, emptied, kept for the next calls:
    /// a call of a helper (`gcd(k, n)` for every `k`) allocates none.
    frames: Vec<Vec<Value>>,
}

impl<'a> Run<'a> {
    #[inline(always)]
    fn tick(&mut self) -> Flow<()> {
        self.tick_by(1)
    }

    /// Counts `count` operations.
    #[inline(always)]
    fn tick_by(&mut self, count: u64) -> Flow<()> {
        self.operations += count;
        if self.operations >= self.alarm {
            return self.look();
        }
        Ok(())
    }

    /// Gives up past the operations limit, at the time limit or on a
    /// cancel; else sets the next alarm, [`CLOCK_EVERY`] operations on.
    #[cold]
    #[inline(never)]
    fn look(&mut self) -> Flow<()> {
        if self.operations > self.most_operations
            || crate::cancel::stopped()
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            return Err(Stop::GiveUp);
        }
        self.alarm = (self.operations + CLOCK_EVERY).min(self.most_operations.saturating_add(1));
        Ok(())
    }

    /// Counts `size` characters or items made against half the size limit:
    /// everything a call makes, kept or not, arrays by the
    /// [`Value::weight`] of what is put in them, so that no string or
    /// array Rhai would measure can pass its limit unseen.
    fn make(&mut self, size: usize) -> Flow<()> {
        self.made = self.made.saturating_add(size);
        if self.made > self.most_made {
            return Err(Stop::GiveUp);
        }
        Ok(())
    }

    /// Calls function `index` on `frame`, which holds its arguments.
    fn call(&mut self, index: usize, frame: &mut Vec<Value>) -> Flow<Value> {
        if self.depth >= MAX_DEPTH {
            return Err(Stop::GiveUp);
        }
        self.tick()?;
        let compiled = self.compiled;
        let function = &compiled.functions[index];
        frame.resize(function.slots, Value::Unit);
        self.depth += 1;
        let result = self.block(&function.body, frame);
        self.depth -= 1;
        match result {
            Ok(value) => Ok(value),
            Err(Stop::Return) => Ok(std::mem::take(&mut self.returned)),
            Err(_) => Err(Stop::GiveUp),
        }
    }

    /// Runs a block whose value is wanted: that of its last statement.
    fn block(&mut self, block: &'a [Step], frame: &mut [Value]) -> Flow<Value> {
        let Some((last, rest)) = block.split_last() else {
            return Ok(Value::Unit);
        };
        self.run(rest, frame)?;
        self.step(last, frame)
    }

    /// Runs a block whose value is not wanted (a loop's body, a branch of
    /// an `if` among other statements).
    #[inline(always)]
    fn run(&mut self, block: &'a [Step], frame: &mut [Value]) -> Flow<()> {
        for step in block {
            self.exec(step, frame)?;
        }
        Ok(())
    }

    /// Runs a loop's body once: `Ok(true)` to go on, `Ok(false)` on
    /// `break`.
    #[inline(always)]
    fn body(&mut self, body: &'a [Step], frame: &mut [Value]) -> Flow<bool> {
        self.tick()?;
        match self.run(body, frame) {
            Ok(()) | Err(Stop::Continue) => Ok(true),
            Err(Stop::Break) => Ok(false),
            Err(stop) => Err(stop),
        }
    }

    /// A statement whose value is wanted (the last of a block).
    fn step(&mut self, step: &'a Step, frame: &mut [Value]) -> Flow<Value> {
        match step {
            Step::Value(expr) => {
                self.tick()?;
                self.expr(expr, frame)
            }
            Step::If(condition, then, otherwise) => {
                self.tick()?;
                if self.test(condition, frame)? {
                    self.block(then, frame)
                } else {
                    self.block(otherwise, frame)
                }
            }
            _ => {
                self.exec(step, frame)?;
                Ok(Value::Unit)
            }
        }
    }

    /// A statement whose value is not wanted.
    fn exec(&mut self, step: &'a Step, frame: &mut [Value]) -> Flow<()> {
        self.tick()?;
        match step {
            Step::Set(slot, expr) => {
                // Rhai counts an assignment's target too.
                self.tick()?;
                frame[*slot] = self.quick(expr, frame)?;
            }
            Step::Update(slot, op, expr) => {
                // Rhai counts the operator's call too.
                self.tick()?;
                let right = self.quick(expr, frame)?;
                if let (Value::Int(a), Value::Int(b)) = (&frame[*slot], &right) {
                    frame[*slot] = integers(*op, *a, *b).ok_or(Stop::GiveUp)?;
                } else {
                    let left = std::mem::replace(&mut frame[*slot], Value::Unit);
                    frame[*slot] = self.binary(*op, left, right)?;
                }
            }
            Step::Push(slot, expr) => {
                // Rhai counts the call, its object and its argument too.
                self.tick_by(PUSH_STEPS)?;
                let item = self.quick(expr, frame)?;
                self.make(item.weight())?;
                let Value::Array(items) = &mut frame[*slot] else {
                    return Err(Stop::GiveUp);
                };
                Rc::make_mut(items).push(item);
            }
            Step::Value(expr) => {
                self.expr(expr, frame)?;
            }
            Step::If(condition, then, otherwise) => {
                if self.quick_test(condition, frame)? {
                    self.run(then, frame)?;
                } else {
                    self.run(otherwise, frame)?;
                }
            }
            Step::Break => return Err(Stop::Break),
            Step::Continue => return Err(Stop::Continue),
            Step::Return(expr) => {
                self.returned = self.expr(expr, frame)?;
                return Err(Stop::Return);
            }
            _ => self.repeat(step, frame)?,
        }
        Ok(())
    }

    /// The loops of [`Run::exec`], kept out of it: a loop starts once
    /// where its body's statements run many times, and `exec` stays small.
    #[inline(never)]
    fn repeat(&mut self, step: &'a Step, frame: &mut [Value]) -> Flow<()> {
        match step {
            Step::While(condition, body) => loop {
                if let Some(condition) = condition
                    && !self.quick_test(condition, frame)?
                {
                    break;
                }
                if !self.body(body, frame)? {
                    break;
                }
            },
            // Rhai's `continue` in a `do` loop runs the body again without
            // testing the condition (`rhai::eval::stmt`, `Stmt::Do`).
            Step::Do(body, condition, until) => loop {
                self.tick()?;
                match self.run(body, frame) {
                    Ok(()) => {
                        if self.test(condition, frame)? == *until {
                            break;
                        }
                    }
                    Err(Stop::Continue) => {}
                    Err(Stop::Break) => break,
                    Err(stop) => return Err(stop),
                }
            },
            Step::Range {
                slot,
                from,
                to,
                inclusive,
                body,
            } => {
                // Rhai counts the loop's iterator too.
                self.tick()?;
                let (from, to) = (self.int(from, frame)?, self.int(to, frame)?);
                let mut i = from;
                while if *inclusive { i <= to } else { i < to } {
                    frame[*slot] = Value::Int(i);
                    if !self.body(body, frame)? || i == INT::MAX {
                        break;
                    }
                    i += 1;
                }
            }
            Step::Each { slot, items, body } => {
                self.tick()?;
                let Value::Array(items) = self.expr(items, frame)? else {
                    return Err(Stop::GiveUp);
                };
                for item in items.iter() {
                    frame[*slot] = item.clone();
                    if !self.body(body, frame)? {
                        break;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// [`Run::expr`], with the commonest expressions evaluated in place
    /// rather than by a call (a statement `t = a % b` is then one call).
    #[inline(always)]
    fn quick(&mut self, expr: &'a Expr, frame: &mut [Value]) -> Flow<Value> {
        match expr {
            Expr::Local(slot) => {
                self.tick()?;
                Ok(frame[*slot].clone())
            }
            Expr::Int(n) => {
                self.tick()?;
                Ok(Value::Int(*n))
            }
            Expr::Arith(op, a, b) => {
                self.tick_by(3)?;
                match (a.int(frame), b.int(frame)) {
                    (Some(a), Some(b)) => integers(*op, a, b).ok_or(Stop::GiveUp),
                    _ => self.binary(*op, a.value(frame), b.value(frame)),
                }
            }
            _ => self.expr(expr, frame),
        }
    }

    /// [`Run::test`], with a comparison of variables and constants (`b !=
    /// 0`) evaluated in place.
    #[inline(always)]
    fn quick_test(&mut self, expr: &'a Expr, frame: &mut [Value]) -> Flow<bool> {
        if let Expr::Arith(op, a, b) = expr
            && let (Some(a), Some(b)) = (a.int(frame), b.int(frame))
        {
            self.tick_by(3)?;
            return compare(*op, a, b).ok_or(Stop::GiveUp);
        }
        self.test(expr, frame)
    }

    /// An expression whose value must be a boolean (a condition): as
    /// [`Run::expr`] would evaluate it, without making a [`Value`] where
    /// it need not.
    fn test(&mut self, expr: &'a Expr, frame: &mut [Value]) -> Flow<bool> {
        match expr {
            Expr::Arith(op, a, b) => {
                // The operator and its operands' own steps.
                self.tick_by(3)?;
                match (a.int(frame), b.int(frame)) {
                    (Some(a), Some(b)) => compare(*op, a, b).ok_or(Stop::GiveUp),
                    _ => match self.binary(*op, a.value(frame), b.value(frame))? {
                        Value::Bool(b) => Ok(b),
                        _ => Err(Stop::GiveUp),
                    },
                }
            }
            Expr::IntCompare(op, operands) => {
                self.tick()?;
                let a = self.int(&operands.0, frame)?;
                let b = self.int(&operands.1, frame)?;
                compare(*op, a, b).ok_or(Stop::GiveUp)
            }
            Expr::Not(expr) => {
                self.tick()?;
                Ok(!self.test(expr, frame)?)
            }
            Expr::And(items) => {
                self.tick()?;
                for item in items {
                    if !self.test(item, frame)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Expr::Or(items) => {
                self.tick()?;
                for item in items {
                    if self.test(item, frame)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            _ => match self.expr(expr, frame)? {
                Value::Bool(b) => Ok(b),
                _ => Err(Stop::GiveUp),
            },
        }
    }

    /// An expression whose value must be an integer (an operand of
    /// arithmetic, a bound of a range, an index): as [`Run::expr`] would
    /// evaluate it, without making a [`Value`] where it need not. Where a
    /// value turns out not to be an integer the fast path gives up, as it
    /// would have where that value was used.
    fn int(&mut self, expr: &'a Expr, frame: &mut [Value]) -> Flow<INT> {
        match expr {
            Expr::Int(n) => {
                self.tick()?;
                Ok(*n)
            }
            Expr::Local(slot) => {
                self.tick()?;
                match frame[*slot] {
                    Value::Int(n) => Ok(n),
                    _ => Err(Stop::GiveUp),
                }
            }
            Expr::Arith(op, a, b) => {
                self.tick_by(3)?;
                match (a.int(frame), b.int(frame)) {
                    (Some(a), Some(b)) => arith(*op, a, b).ok_or(Stop::GiveUp),
                    _ => Err(Stop::GiveUp),
                }
            }
            // Any operator of values that are not both integers gives no
            // integer: the operands are integers or the fast path gives up.
            Expr::IntBinary(op, operands) | Expr::Binary(op, operands) => {
                self.tick()?;
                let a = self.int(&operands.0, frame)?;
                let b = self.int(&operands.1, frame)?;
                arith(*op, a, b).ok_or(Stop::GiveUp)
            }
            Expr::Negate(expr) => {
                self.tick()?;
                self.int(expr, frame)?.checked_neg().ok_or(Stop::GiveUp)
            }
            Expr::Plus(expr) => {
                self.tick()?;
                self.int(expr, frame)
            }
            Expr::Builtin(Builtin::Gcd, args) => {
                self.tick_by(1 + BUILTIN_STEPS)?;
                let a = self.int(&args[0], frame)?;
                let b = self.int(&args[1], frame)?;
                super::gcd(a, b).ok_or(Stop::GiveUp)
            }
            Expr::Builtin(Builtin::Abs, args) => {
                self.tick_by(1 + BUILTIN_STEPS)?;
                self.int(&args[0], frame)?.checked_abs().ok_or(Stop::GiveUp)
            }
            _ => match self.expr(expr, frame)? {
                Value::Int(n) => Ok(n),
                _ => Err(Stop::GiveUp),
            },
        }
    }

    fn text(&mut self, text: &str) -> Flow<Value> {
        self.make(text.len())?;
        Ok(Value::Str(text.into()))
    }

    /// `array[index]`; an array in a variable is read where it lies.
    fn item(&mut self, operands: &'a (Expr, Expr), frame: &mut [Value]) -> Flow<Value> {
        let (array, index) = operands;
        let found = if let Expr::Local(slot) = array {
            self.tick()?;
            let i = self.int(index, frame)?;
            match &frame[*slot] {
                Value::Array(items) => usize::try_from(i).ok().and_then(|i| items.get(i).cloned()),
                _ => None,
            }
        } else {
            let array = self.expr(array, frame)?;
            let i = self.int(index, frame)?;
            match array {
                Value::Array(items) => usize::try_from(i).ok().and_then(|i| items.get(i).cloned()),
                _ => None,
            }
        };
        found.ok_or(Stop::GiveUp)
    }

    fn expr(&mut self, expr: &'a Expr, frame: &mut [Value]) -> Flow<Value> {
        self.tick()?;
        Ok(match expr {
            Expr::Unit => Value::Unit,
            Expr::Bool(b) => Value::Bool(*b),
            Expr::Int(n) => Value::Int(*n),
            Expr::Local(slot) => frame[*slot].clone(),
            Expr::IntBinary(op, operands) => {
                let a = self.int(&operands.0, frame)?;
                let b = self.int(&operands.1, frame)?;
                Value::Int(arith(*op, a, b).ok_or(Stop::GiveUp)?)
            }
            Expr::IntCompare(op, operands) => {
                let a = self.int(&operands.0, frame)?;
                let b = self.int(&operands.1, frame)?;
                Value::Bool(compare(*op, a, b).ok_or(Stop::GiveUp)?)
            }
            Expr::Arith(op, a, b) => {
                // The operands' own steps.
                self.tick_by(2)?;
                match (a.int(frame), b.int(frame)) {
                    (Some(a), Some(b)) => integers(*op, a, b).ok_or(Stop::GiveUp)?,
                    _ => self.binary(*op, a.value(frame), b.value(frame))?,
                }
            }
            _ => self.compound(expr, frame)?,
        })
    }

    /// The expressions of [`Run::expr`] that make or call something, kept
    /// out of it (its step counted there), so that the evaluation of
    /// variables, constants and arithmetic stays small.
    #[inline(never)]
    fn compound(&mut self, expr: &'a Expr, frame: &mut [Value]) -> Flow<Value> {
        Ok(match expr {
            Expr::Str(text) => self.text(text)?,
            Expr::Array(items) => {
                let mut values = Vec::with_capacity(items.len());
                for item in items {
                    let value = self.expr(item, frame)?;
                    self.make(value.weight())?;
                    values.push(value);
                }
                Value::Array(Rc::new(values))
            }
            Expr::Binary(op, operands) => {
                let left = self.expr(&operands.0, frame)?;
                let right = self.expr(&operands.1, frame)?;
                self.binary(*op, left, right)?
            }
            Expr::EqualsText(expr, text, equal) => {
                // The text's own step.
                self.tick()?;
                match self.expr(expr, frame)? {
                    Value::Str(value) => Value::Bool((*value == **text) == *equal),
                    _ => return Err(Stop::GiveUp),
                }
            }
            Expr::Negate(expr) => {
                Value::Int(self.int(expr, frame)?.checked_neg().ok_or(Stop::GiveUp)?)
            }
            Expr::Plus(expr) => Value::Int(self.int(expr, frame)?),
            Expr::Not(expr) => Value::Bool(!self.test(expr, frame)?),
            Expr::And(items) => {
                for item in items {
                    if !self.test(item, frame)? {
                        return Ok(Value::Bool(false));
                    }
                }
                Value::Bool(true)
            }
            Expr::Or(items) => {
                for item in items {
                    if self.test(item, frame)? {
                        return Ok(Value::Bool(true));
                    }
                }
                Value::Bool(false)
            }
            Expr::Index(operands) => self.item(operands, frame)?,
            Expr::Call(index, args) => {
                let mut callee = self.frames.pop().unwrap_or_default();
                for arg in args {
                    let value = self.expr(arg, frame)?;
                    callee.push(value);
                }
                let value = self.call(*index, &mut callee)?;
                callee.clear();
                self.frames.push(callee);
                value
            }
            Expr::Builtin(builtin, args) => self.builtin(*builtin, args, frame)?,
            Expr::Block(block) => {
                // Rhai counts the block's own step too.
                self.tick()?;
                self.block(block, frame)?
            }
            // `expr` evaluates the others itself.
            Expr::Unit
            | Expr::Bool(_)
            | Expr::Int(_)
            | Expr::Local(_)
            | Expr::IntBinary(..)
            | Expr::IntCompare(..)
            | Expr::Arith(..) => return Err(Stop::GiveUp),
        })
    }

    #[inline(never)]
    fn builtin(&mut self, builtin: Builtin, args: &'a [Expr], frame: &mut [Value]) -> Flow<Value> {
        self.tick_by(BUILTIN_STEPS)?;
        // At most four arguments (`Builtin::named`): no vector to allocate.
        let mut values: [Value; 4] = Default::default();
        for (value, arg) in values.iter_mut().zip(args) {
            *value = self.expr(arg, frame)?;
        }
        match (builtin, &values[..args.len()]) {
            (Builtin::ToString, [Value::Int(n)]) => self.text(itoa::Buffer::new().format(*n)),
            (Builtin::Len, [Value::Str(text)]) => Ok(Value::Int(text.chars().count() as INT)),
            (Builtin::Len, [Value::Array(items)]) => Ok(Value::Int(items.len() as INT)),
            (Builtin::SubString, [Value::Str(text), Value::Int(start), Value::Int(len)]) => {
                self.text(&cut_text(text, *start, *len))
            }
            (Builtin::ParseInt, [Value::Str(text)]) => INT::from_str_radix(text.trim(), 10)
                .map(Value::Int)
                .map_err(|_| Stop::GiveUp),
            (Builtin::Abs, [Value::Int(n)]) => n.checked_abs().map(Value::Int).ok_or(Stop::GiveUp),
            (Builtin::Gcd, [Value::Int(a), Value::Int(b)]) => {
                super::gcd(*a, *b).map(Value::Int).ok_or(Stop::GiveUp)
            }
            (Builtin::Sum, [Value::Array(parts)]) => self.sum(parts),
            (Builtin::Sum, parts) if parts.len() > 1 => self.sum(parts),
            (Builtin::Split, [Value::Int(m), Value::Int(k)]) => {
                // The engine's own listing (its `made` counts this call
                // only); `make` counts it with everything else made.
                let ways = split(*m, *k, self.size, &Made::default()).map_err(|_| Stop::GiveUp)?;
                self.make(
                    ways.len()
                        .saturating_mul(usize::try_from(*k).unwrap_or(usize::MAX)),
                )?;
                Ok(Value::Array(Rc::new(
                    ways.into_iter().map(Value::Sum).collect(),
                )))
            }
            _ => Err(Stop::GiveUp),
        }
    }

    /// `sum(parts)` by the engine's own [`make_sum`] (which refuses sums
    /// among the parts; its `made` counts this sum only, `make` counts it
    /// with everything else made).
    fn sum(&mut self, parts: &[Value]) -> Flow<Value> {
        self.make(parts.iter().map(Value::weight).sum())?;
        let parts: Array = parts.iter().cloned().map(Value::into_dynamic).collect();
        let sum = make_sum(parts, &Made::default(), self.size).map_err(|_| Stop::GiveUp)?;
        Ok(Value::Sum(Dynamic::from(sum)))
    }

    #[inline(never)]
    fn binary(&mut self, op: Op, left: Value, right: Value) -> Flow<Value> {
        match (left, right) {
            (Value::Int(a), Value::Int(b)) => integers(op, a, b).ok_or(Stop::GiveUp),
            (Value::Str(a), Value::Str(b)) => match op {
                Op::Add => {
                    self.make(a.len() + b.len())?;
                    let mut joined = String::with_capacity(a.len() + b.len());
                    joined.push_str(&a);
                    joined.push_str(&b);
                    Ok(Value::Str(joined.into()))
                }
                Op::Eq => Ok(Value::Bool(a == b)),
                Op::Ne => Ok(Value::Bool(a != b)),
                Op::Lt => Ok(Value::Bool(a < b)),
                Op::Le => Ok(Value::Bool(a <= b)),
                Op::Gt => Ok(Value::Bool(a > b)),
                Op::Ge => Ok(Value::Bool(a >= b)),
                _ => Err(Stop::GiveUp),
            },
            (Value::Bool(a), Value::Bool(b)) => match op {
                Op::Eq => Ok(Value::Bool(a == b)),
                Op::Ne => Ok(Value::Bool(a != b)),
                _ => Err(Stop::GiveUp),
            },
            _ => Err(Stop::GiveUp),
        }
    }
}

/// Rhai's checked integer operators; `None` where Rhai reports an error or
/// where its meaning is not followed here (shifts by a negative amount or
/// by 64 or more).
fn integers(op: Op, a: INT, b: INT) -> Option<Value> {
    if op.compares() {
        compare(op, a, b).map(Value::Bool)
    } else {
        arith(op, a, b).map(Value::Int)
    }
}

/// [`integers`] for the operators whose value is an integer; `None` for
/// the others.
#[inline]
fn arith(op: Op, a: INT, b: INT) -> Option<INT> {
    let shift = || u32::try_from(b).ok().filter(|&b| b < INT::BITS);
    match op {
        Op::Add => a.checked_add(b),
        Op::Sub => a.checked_sub(b),
        Op::Mul => a.checked_mul(b),
        Op::Div => a.checked_div(b),
        Op::Rem => a.checked_rem(b),
        Op::Pow => a.checked_pow(u32::try_from(b).ok()?),
        Op::Shl => a.checked_shl(shift()?),
        Op::Shr => a.checked_shr(shift()?),
        Op::BitAnd => Some(a & b),
        Op::BitOr => Some(a | b),
        Op::BitXor => Some(a ^ b),
        Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge => None,
    }
}

/// [`integers`] for the comparisons; `None` for the other operators.
#[inline]
fn compare(op: Op, a: INT, b: INT) -> Option<bool> {
    Some(match op {
        Op::Eq => a == b,
        Op::Ne => a != b,
        Op::Lt => a < b,
        Op::Le => a <= b,
        Op::Gt => a > b,
        Op::Ge => a >= b,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use proptest::strategy::ValueTree;
    use rhai::Scope;

    use super::super::{CALL, ScriptGame};
    use super::*;

    type Found = Vec<Option<Vec<ScriptPosition>>>;

    /// What `options(position)` lists, or the error, through
    /// [`ScriptGame::call_options`] (the fast path first where it applies).
    fn listed(game: &ScriptGame, position: &ScriptPosition) -> std::result::Result<Found, String> {
        let mut found = Vec::new();
        let tuples = matches!(position, ScriptPosition::Tuple(_));
        game.begin_run();
        game.call_options(&mut Scope::new(), position, tuples, &mut found)
            .map(|()| found)
            .map_err(|e| e.to_string())
    }

    /// Checks that `source` compiles for the fast path and that every
    /// position gets the same options or the same error with it as from
    /// Rhai alone; where the fast path answers by itself, that Rhai counted
    /// no more operations than it did (the margin of
    /// [`OPERATIONS_FACTOR`] is for constructs no test covers).
    /// Returns how many positions the fast path answered by itself.
    fn agree(source: &str, positions: &[ScriptPosition], limits: &ScriptLimits) -> usize {
        let fast = ScriptGame::compile("t.rhai", source, limits.clone()).unwrap();
        let compiled = fast
            .compiled
            .as_ref()
            .unwrap_or_else(|| panic!("not compiled: {source}"));
        let slow = ScriptGame::compile("t.rhai", source, limits.clone())
            .unwrap()
            .interpreted_only();
        let mut answered = 0;
        for position in positions {
            if let &ScriptPosition::Heap(n) = position {
                // A heap game's options and a sweep's states, read from
                // the fast path's value as it is.
                let heaps = |game: &ScriptGame| {
                    let mut out = crate::Options::new();
                    game.begin_run();
                    game.heap_options(n as usize, &mut out)
                        .map(|()| out.iter().map(<[usize]>::to_vec).collect::<Vec<_>>())
                        .map_err(|e| e.to_string())
                };
                assert_eq!(heaps(&fast), heaps(&slow), "{source}: heap {n}");
                let states = |game: &ScriptGame| {
                    game.begin_run();
                    game.state_options(n).map_err(|e| e.to_string())
                };
                assert_eq!(states(&fast), states(&slow), "{source}: state {n}");
            }
            let rhai = listed(&slow, position);
            let rhai_operations = CALL.with(|call| call.latest.get());
            assert_eq!(listed(&fast, position), rhai, "{source} at {position}");
            if let Some((_, operations)) = compiled.evaluate(position, limits, None) {
                answered += 1;
                assert!(
                    rhai_operations <= operations,
                    "{source} at {position}: Rhai {rhai_operations}, here {operations}"
                );
            }
        }
        answered
    }

    fn heaps(range: std::ops::Range<u64>) -> Vec<ScriptPosition> {
        range
            .chain([1000, 123_456_789, 1 << 62, INT::MAX as u64])
            .map(ScriptPosition::Heap)
            .collect()
    }

    #[test]
    fn every_construct_it_knows_agrees_with_rhai() {
        let scripts = [
            include_str!("../../../../../examples/digits.rhai"),
            include_str!("../../../../../examples/kayles.rhai"),
            include_str!("../../../../../examples/take-and-split.rhai"),
            // Sums: of two to four parts, of an array, of tuples; `split`.
            "fn options(n) { [sum(n - 1, n - 2), sum([n - 3, 1, 1]), sum(1, 1, n - 2, 0),
                split(n - 1, 3), split(n, 0)] }",
            // Arithmetic, comparisons, `&&`, `||`, `!`, unary minus and plus.
            "fn options(n) { [n - 1, n / 2 - 1, n % 3 * 2, -(-n) - 4, +n - 9, 2 ** (n % 5),
                (n << 2) >> 3, n & 5, n | 2, n ^ 7, if n > 3 && !(n == 5) || n <= 1 { n - 2 } else { -1 }] }",
            // Loops: while, loop with break and continue, do-until, for over
            // exclusive, inclusive and constant ranges and over arrays.
            "fn options(n) {
                let out = []; let k = 1;
                while k * k <= n { out.push(n - k * k); k += 1; }
                let i = 0;
                loop { i += 1; if i % 2 == 0 { continue; } if i > n { break; } out.push(n - i); }
                do { k -= 1; } until k <= 0;
                for j in 0..n { if j == 3 { break; } }
                for j in 1..=3 { out.push(n - j * 2); }
                for j in 1..3 { out.push(n - j); }
                for x in [1, 4, 6] { out.push(n - x); }
                out
            }",
            // A script's own functions named like built-ins: a plain call
            // with their number of arguments is theirs.
            "fn sum(a, b) { a } fn len(x) { 1 } fn gcd(a, b) { a + b }
             fn options(n) { [sum(n - 1, 0), n - len(n), gcd(n, 2) - 9, sum(n - 3, 1)] }",
            // A helper's loop and the built-in gcd: every k coprime to n.
            "fn gcd_of(a, b) { while b != 0 { let t = a % b; a = b; b = t; } a }
             fn options(n) { let out = []; for k in 1..=n { if gcd_of(k, n) == 1 { out.push(n - k); } } out }",
            "fn options(n) { let out = []; for k in 1..=n { if gcd(k, n) == 1 { out.push(n - k); } } out }",
            // Constants outside the functions, in them.
            "const K = 3; const MOVES = [1, K, 2 * K]; const NAME = \"x\";
             fn options(n) { let out = []; for m in MOVES { out.push(n - m); } if NAME == \"x\" { out.push(n - K - 1); } out }",
            // `continue` in a `do` loop skips the condition.
            "fn options(n) { let i = 0; let out = [];
                do { i += 1; if i == 3 { continue; } out.push(n - i); } while i < 3 && i < 6;
                do { i += 1; if i == 8 { continue; } out.push(n - i); } until i >= 8;
                out }",
            // Functions, recursion, early return, shadowing, block values.
            "fn half(x) { if x < 2 { return 0; } x / 2 }
             fn steps(x, d) { if x <= 0 { 0 } else { 1 + steps(x - d, d) } }
             fn options(n) {
                let a = half(n); let a = a + 1;
                let b = { let c = n * 2; c - 1 };
                [a - 1, steps(n, 4), b - n, half(half(n)) - 1]
             }",
            // Strings: to_string, len, sub_string, parse_int, +, comparisons.
            r#"fn options(n) {
                let t = n.to_string(); let out = [];
                if t.len() > 1 && t.sub_string(0, 1) != "1" { out.push(parse_int(t.sub_string(1, 40))); }
                if t < "5" || t == "9" { out.push(parse_int(" " + t + " ") - 1); }
                out.push(len(t) - 1);
                out.push(parse_int(sub_string(t, -1, 1)));
                out
            }"#,
            // Tuples: arrays, indexing, lengths.
            "fn options(p) { let out = []; for k in 1..=p[0] { out.push([p[0] - k, p[1]]); }
                if p.len() > 1 && p[1] > 0 { out.push([p[0], p[1] - 1]); } out }",
            // Errors: division by zero, overflow, bad parses, bad indexes, a
            // wrong type: the fast path gives up and Rhai reports them.
            r#"fn options(n) { if n == 7 { [1 / (n - 7)] } else if n == 8 { [parse_int("x")] }
                else if n == 9 { [[1][3]] } else if n == 10 { [n * 9223372036854775807] }
                else if n == 11 { ["a" + 1] } else if n == 12 { [sum(1, sum(1, 2))] }
                else if n == 13 { [split(400000, 2)] } else if n == 14 { [sum(n, [1, 2])] }
                else { [n - 1] } }"#,
        ];
        for source in scripts {
            let positions = if source.contains("p[0]") {
                (0..5)
                    .flat_map(|a| (0..4).map(move |b| ScriptPosition::Tuple(vec![a, b])))
                    .collect()
            } else {
                heaps(0..30)
            };
            let answered = agree(source, &positions, &ScriptLimits::default());
            assert!(
                answered >= positions.len() / 2,
                "{answered} answered: {source}"
            );
        }
    }

    /// Each construct alone, in a script with helpers: the same answers as
    /// Rhai's, at no fewer operations (see [`OPERATIONS_FACTOR`]).
    #[test]
    fn every_construct_counts_at_least_rhais_operations() {
        for body in [
            "[]",
            "let a = 1; []",
            "let a = n - 1; let b = a; a = b; []",
            "f(1); g(1, 2); let x = h(n); []",
            "let i = 0; while i < 10 { i += 1; } []",
            "let i = 0; while i < 10 { i = i + 1; } []",
            "let a = 10; let b = n; while b != 0 { let t = a % b; a = b; b = t; } [a]",
            "let i = 0; do { i += 1; } while i < 5; []",
            "let i = 0; loop { i += 1; if i > 3 { break; } } []",
            "let i = 0; while i < 5 { i += 1; if i == 2 { continue; } } []",
            "for k in 1..=n { } for k in 0..0 { k; } []",
            "let o = []; for i in 0..10 { o.push(i); } o",
            "let o = []; for x in [1, 2, 3] { let y = x; o.push(y); } o",
            "if n > 1 { 1 } else { 2 }; [if n > 2 { n - 1 } else { 0 }]",
            "let t = len(n.to_string()); [t, n.to_string().len()]",
            "[gcd(n, 6), abs(-n), parse_int(\"12\") - 12, n.to_string() == \"5\"]",
            "let x = [1, 2, 3]; let y = [x]; [x[1], x.len(), len(y[0])]",
            "let x = n == 1 || n == 2 && !(n == 3); [-n, { let y = 1; y }]",
            "let t = \"ab\" + \"cd\"; t += \"e\"; [t.sub_string(1, 2), sub_string(t, 0, 1)]",
            "let x = n; x -= 1; x *= 2; [x, 2 ** 3 + (n << 1) - (n >> 1) * (n % 3) / 1]",
            "[sum(n - 1, 1), sum([n - 1, 1]), split(n, 2)]",
            "return [n - 1];",
        ] {
            let source = format!(
                "fn f(x) {{ x }} fn g(x, y) {{ x + y }} fn h(x) {{ if x > 0 {{ return 1; }} 2 }}
                 fn options(n) {{ {body} }}"
            );
            let answered = agree(&source, &heaps(0..8), &ScriptLimits::default());
            assert!(answered >= 8, "{answered}: {body}");
        }
    }

    #[test]
    fn scripts_with_anything_else_run_in_rhai() {
        let long = format!(
            "/*{}*/ fn options(n) {{ [n - 1] }} fn g(n) {{ [n - 2] }}",
            "x".repeat(70_000)
        );
        for source in [
            "fn options(n) { print(n); [n - 1] }",
            // A method call of a name the script defines is the script's
            // function where its parameters fit, the built-in's elsewhere.
            "fn len() { 5 } fn options(n) { [n - \"ab\".len()] }",
            "fn push(x) { 0 } fn options(n) { let a = []; a.push(n - 1); a }",
            // Arguments that write variables: Rhai's order of evaluation
            // is not left to right there.
            "fn first(a, b) { a } fn options(n) { let k = n; [first(k, { k = 0; 1 })] }",
            "fn options(n) { let a = [n - 1]; [a[{ a = [0]; 0 }]] }",
            // Positions past Rhai's 16-bit columns.
            long.as_str(),
            "fn options(n) { let m = #{a: 1}; [n - m.a] }",
            "fn options(n) { [n - 1.0] }",
            "fn options(n) { switch n { 0 => [], _ => [n - 1] } }",
            "fn options(n) { let s = `${n}`; [n - 1] }",
            "fn options(n) { [n - 'a'.len()] }",
        ] {
            let game = ScriptGame::compile("t.rhai", source, ScriptLimits::default()).unwrap();
            assert!(!game.is_compiled(), "{source}");
        }
    }

    #[test]
    fn limits_stop_the_fast_path_and_rhai_reports_them() {
        let tight = ScriptLimits {
            operations: 4000,
            size: 1000,
            ..ScriptLimits::default()
        };
        let answered = agree(
            "fn options(n) { let a = []; for i in 0..n * 100 { a.push(i); } [n - 1] }",
            &heaps(0..12),
            &tight,
        );
        // Heap n makes 100n items, about 600n operations: from heap 4 on
        // the operations pass half the limit, and from heap 5 the items
        // half the size limit: those are Rhai's.
        assert!((2..=6).contains(&answered), "{answered}");
        agree("fn options(n) { loop { } }", &heaps(0..2), &tight);
        // Nested arrays and strings in arrays weigh what is inside them.
        agree(
            "fn options(n) { let a = [n]; for i in 0..n { a = [a, a]; } [n - 1] }",
            &heaps(0..14),
            &tight,
        );
        agree(
            r#"fn options(n) { let s = "0123456789"; for i in 0..n { s += s; }
                let a = [s, s, s, s]; a.push(s); [n - 1] }"#,
            &heaps(0..8),
            &tight,
        );
        // No sum at all under a size limit of 0.
        agree(
            "fn options(n) { [sum(n - 1, 1), n - 2] }",
            &heaps(0..4),
            &ScriptLimits {
                size: 0,
                ..ScriptLimits::default()
            },
        );
        agree(
            "fn down(x) { if x == 0 { 0 } else { down(x - 1) } } fn options(n) { [down(n) + n - 1] }",
            &heaps(0..70),
            &ScriptLimits::default(),
        );
    }

    #[test]
    fn a_sweep_of_cheap_states_stops_at_the_time_limit() {
        let limits = ScriptLimits {
            time: std::time::Duration::from_millis(50),
            ..ScriptLimits::default()
        };
        let source = "fn options(n) { if n > 0 { [n - 1] } else { [] } }";
        let game = ScriptGame::compile("t.rhai", source, limits)
            .unwrap()
            .with_threads(1);
        assert!(game.is_compiled());
        // Without the look at the clock at each call's first operation,
        // this sweep of calls of a few operations each ran to the end.
        let error = game
            .outcomes(50_000_000, u64::MAX, &mut |_| true)
            .err()
            .map(|e| e.to_string());
        assert!(
            error.as_ref().is_some_and(|e| e.contains("time limit")),
            "{error:?}"
        );
    }

    /// A random integer expression in `n` and `a` (Rhai source).
    fn int_expr() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("n".to_owned()),
            Just("a".to_owned()),
            (-20i64..40).prop_map(|v| format!("({v})")),
            prop_oneof![
                Just(INT::MAX),
                Just(INT::MIN + 1),
                Just(1 << 62),
                Just(4_000_000_000)
            ]
            .prop_map(|v| format!("({v})")),
        ];
        leaf.prop_recursive(4, 32, 3, |inner| {
            let op = prop_oneof![
                Just("+"),
                Just("-"),
                Just("*"),
                Just("/"),
                Just("%"),
                Just("**"),
                Just("<<"),
                Just(">>"),
                Just("&"),
                Just("|"),
                Just("^"),
            ];
            let compare = prop_oneof![
                Just("=="),
                Just("!="),
                Just("<"),
                Just("<="),
                Just(">"),
                Just(">=")
            ];
            let compare_text = compare.clone();
            prop_oneof![
                (inner.clone(), op, inner.clone()).prop_map(|(a, o, b)| format!("({a} {o} {b})")),
                inner.clone().prop_map(|a| format!("(-({a}))")),
                inner.clone().prop_map(|a| format!("abs({a})")),
                inner
                    .clone()
                    .prop_map(|a| format!("parse_int(({a}).to_string())")),
                inner
                    .clone()
                    .prop_map(|a| format!("({a}).to_string().len()")),
                (
                    inner.clone(),
                    compare,
                    inner.clone(),
                    inner.clone(),
                    inner.clone()
                )
                    .prop_map(|(x, c, y, a, b)| format!(
                        "(if {x} {c} {y} {{ {a} }} else {{ {b} }})"
                    )),
                (inner.clone(), inner.clone(), inner.clone()).prop_map(|(t, s, l)| format!(
                    "parse_int(\"0\" + ({t}).to_string().sub_string({s}, {l}))"
                )),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("gcd({a}, {b})")),
                // Strings where integers usually are: compared, added.
                (
                    inner.clone(),
                    compare_text,
                    inner.clone(),
                    inner.clone(),
                    inner.clone()
                )
                    .prop_map(|(x, c, y, a, b)| format!(
                        "(if ({x}).to_string() {c} ({y}).to_string() {{ {a} }} else {{ {b} }})"
                    )),
                inner
                    .clone()
                    .prop_map(|a| format!("len(\"ab\" + ({a}).to_string())")),
            ]
        })
    }

    #[test]
    fn random_expressions_mostly_run_on_the_fast_path() {
        // The agreement below would hold as well if the fast path always
        // gave up: count what it answers itself, over 100 fixed draws.
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let positions = heaps(0..12);
        let (mut answered, mut asked) = (0, 0);
        for _ in 0..100 {
            let first = int_expr().new_tree(&mut runner).unwrap().current();
            let source = format!("fn options(n) {{ let a = n * 3 - 7; [{first}, n - 1] }}");
            answered += agree(&source, &positions, &ScriptLimits::default());
            asked += positions.len();
        }
        assert!(answered * 3 >= asked, "{answered} of {asked}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn random_expressions_agree_with_rhai(first in int_expr(), second in int_expr()) {
            let source = format!("fn options(n) {{ let a = n * 3 - 7; [{first}, {second}] }}");
            agree(&source, &heaps(0..12), &ScriptLimits::default());
        }
    }
}
