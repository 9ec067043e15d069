//! The `grundy` command. A thin layer: parse arguments, call the library,
//! print, and map failures to exit codes.

mod cli;
mod commands;
mod output;
mod plot;
mod progress;
mod serve;

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use grundy::Cancel;

use clap::Parser;
use clap::error::ErrorKind;

use cli::{Cli, Command};

/// Why a command failed; decides the exit code.
#[derive(Debug)]
pub enum Failure {
    /// The input was wrong (exit code 2).
    Input(String),
    /// A certificate was read but does not check (exit code 1).
    Rejected(String),
    /// Ctrl-C stopped a run whose work was saved (exit code 130).
    Interrupted(String),
    /// Writing the output failed (exit code 1; a closed pipe is not a failure).
    Io(io::Error),
}

impl From<grundy::Error> for Failure {
    /// The library's message, with the flag that raises the limit a
    /// refusal names (the library serves other front ends, so it cannot
    /// name flags itself). A cancelled computation was stopped by Ctrl-C,
    /// the only thing that cancels the CLI's token.
    fn from(error: grundy::Error) -> Failure {
        let flag = match error {
            grundy::Error::Cancelled => return Failure::Interrupted(INTERRUPTED.into()),
            grundy::Error::TableTooLarge { .. }
            | grundy::Error::HistogramTooLarge { .. }
            | grundy::Error::MemoryLimit { .. } => " (raise it with --memory-limit)",
            grundy::Error::PeriodSearchTooLarge { .. } => {
                " (raise it with --memory-limit, or search fewer heaps with --period-window)"
            }
            grundy::Error::TooManyOptions { .. } => " (raise it with --max-options)",
            grundy::Error::TooManyHeaps { .. } => " (raise it with --max-heaps)",
            grundy::Error::WorkLimit { .. } => " (raise it with --work-limit)",
            grundy::Error::TimeLimit { .. } => " (raise it with --time-limit)",
            grundy::Error::ValueTooWide { .. } => " (run again with --values-width 2)",
            grundy::Error::Unsupported { kind, .. } => command_for(kind),
            grundy::Error::Refused { knob, .. } => flag_for(knob),
            _ => "",
        };
        Failure::Input(format!("{error}{flag}"))
    }
}

/// The flags of a question's parameter the library refused.
fn flag_for(knob: grundy::Knob) -> &'static str {
    use grundy::Knob;
    match knob {
        Knob::From => " (--from)",
        Knob::To => " (--to)",
        Knob::Heaps => " (--heaps)",
        Knob::Order => " (--order, --unordered, --distinct)",
        Knob::Modulus => " (--mod)",
        Knob::NimSum => " (--nim-sum)",
        Knob::All => " (--all)",
        Knob::Formula => " (--by-formula, --formula)",
        Knob::Max => " (--max)",
        Knob::PastTheTable => " (--max, --memory-limit, --by-formula)",
        Knob::Overwrite => " (--resume with its --checkpoint continues it, --force overwrites it)",
        Knob::Output => " (--output another FILE; `grundy census merge` joins them)",
        Knob::TimeLimit => " (raise it with --time-limit)",
        Knob::Rows => " (--by-value counts without listing; or a shorter --from/--to)",
        Knob::Partitions => " (--partitions, --parts, --distinct)",
    }
}

/// The command that plays a kind of game the library refused a question
/// of (the library names no command: it serves other front ends too).
fn command_for(kind: &str) -> &'static str {
    use grundy::spec::SpecKind;
    let of = |k: SpecKind| k.name() == kind;
    if of(SpecKind::Coins) {
        " (`grundy coins RULE HEADS...` plays a row, `grundy count RULE --to N` counts one)"
    } else if of(SpecKind::Hackenbush) {
        " (`grundy hackenbush` plays pictures)"
    } else if of(SpecKind::Graph) {
        " (`grundy graph FILE` solves a graph)"
    } else if of(SpecKind::Maze) {
        " (`grundy maze FILE` solves a maze)"
    } else if of(SpecKind::FibonacciNim) {
        " (`grundy fibonacci-nim N` plays it)"
    } else {
        ""
    }
}

/// What a run stopped by Ctrl-C says (with where its work was saved, when
/// it saves checkpoints).
const INTERRUPTED: &str = "interrupted";

/// How long work stopped by Ctrl-C may take to stop before the process
/// ends anyway: the engine's long loops check the token every few
/// thousand steps, and a checkpoint being written is finished (a second
/// Ctrl-C ends the process at once; checkpoints are written to a temporary
/// file and renamed, so none is left half-written).
const INTERRUPT_GRACE: Duration = Duration::from_secs(5);

/// Ctrl-C (SIGINT) cancels `token`, which every command but `serve` (which
/// stops gracefully on its own signals) runs under; the command then stops
/// with [`INTERRUPTED`] and exit code 130.
fn cancel_on_ctrl_c(token: &Cancel) {
    let token = token.clone();
    let pressed = AtomicBool::new(false);
    // If no handler can be installed, Ctrl-C ends the process as usual.
    let _ = ctrlc::set_handler(move || {
        if pressed.swap(true, Ordering::Relaxed) {
            quit_interrupted("at the second Ctrl-C");
        }
        token.cancel();
        std::thread::spawn(|| {
            std::thread::sleep(INTERRUPT_GRACE);
            quit_interrupted(&format!(
                "the work did not stop within {} s",
                INTERRUPT_GRACE.as_secs()
            ));
        });
    });
}

/// Ends the process as interrupted when the work does not stop by itself,
/// saying why.
fn quit_interrupted(why: &str) -> ! {
    eprintln!("{INTERRUPTED} ({why})");
    std::process::exit(130)
}

impl From<io::Error> for Failure {
    fn from(error: io::Error) -> Failure {
        Failure::Io(error)
    }
}

fn main() -> ExitCode {
    let arguments = match argfile::expand_args_from(std::env::args_os(), words, argfile::PREFIX) {
        Ok(arguments) => arguments,
        Err(error) => {
            return report(Err(Failure::Input(format!(
                "cannot read the arguments of an @FILE: {error}"
            ))));
        }
    };
    let cli = match Cli::try_parse_from(arguments) {
        Ok(cli) => cli,
        Err(error) => return argument_error(error),
    };
    let interrupt = Cancel::new();
    if !matches!(cli.command, Command::Serve(_)) {
        cancel_on_ctrl_c(&interrupt);
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = interrupt.run(|| run(cli.command, &mut out));
    report(result.and_then(|()| out.flush().map_err(Failure::Io)))
}

/// The arguments an `@FILE` on the command line stands for: the words of
/// FILE, separated by any white space, lines starting with `#` left out.
/// Inputs longer than the operating system allows on a command line (a
/// sum of a million heaps, a long row of coins) are written this way. An
/// `@` inside a file is an ordinary character, so no file reads another
/// and none can include itself.
fn words(content: &str, _prefix: char) -> Vec<argfile::Argument> {
    content
        .lines()
        .filter(|line| !line.trim_start().starts_with('#'))
        .flat_map(str::split_whitespace)
        .map(|word| argfile::Argument::PassThrough(word.into()))
        .collect()
}

/// Runs one command.
fn run(command: Command, out: &mut impl Write) -> Result<(), Failure> {
    match command {
        Command::Analyze(args) => commands::analyze(&args, out),
        Command::Check(args) => commands::check(&args, out),
        Command::Compare(args) => commands::compare(&args, out),
        Command::Count(args) => commands::count(&args, out),
        Command::Guess(args) => commands::guess(&args, out),
        Command::Graph(args) => commands::graph(&args, out),
        Command::Maze(args) => commands::maze(&args, out),
        Command::Coins(args) => commands::coins(&args, out),
        Command::Hackenbush(args) => commands::hackenbush(&args, out),
        Command::FibonacciNim(args) => commands::fibonacci_nim(&args, out),
        Command::Outcomes(args) => commands::outcomes(&args, out),
        Command::Misere(args) => commands::misere(&args, out),
        Command::Plot(args) => commands::plot(&args, out),
        Command::Serve(args) => {
            let deadline = std::time::Duration::try_from_secs_f64(args.deadline)
                .ok()
                .filter(|d| !d.is_zero() && d.as_secs() <= 3600)
                .ok_or_else(|| {
                    Failure::Input("--deadline must be a number of seconds from 0 to 3600".into())
                })?;
            serve::run(std::net::SocketAddr::new(args.host, args.port), deadline)
        }
        Command::Nim(args) => commands::nim(&args, out),
        Command::Values(args) => commands::values(&args, out),
        Command::Sum(args) => commands::sum(&args, out),
        Command::Moves(args) => commands::moves(&args, out),
        Command::Games(args) => commands::games(&args, out),
        Command::Census(args) => commands::census(&args, out),
        Command::Stream(args) => commands::stream(&args, out),
    }
}

/// The exit code of a command's result, with its one line on stderr.
fn report(result: Result<(), Failure>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Io(error)) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Io(error)) => {
            eprintln!("error: cannot write output: {error}");
            ExitCode::FAILURE
        }
        Err(Failure::Interrupted(message)) => {
            eprintln!("{message}");
            ExitCode::from(130)
        }
        Err(Failure::Rejected(reason)) => {
            eprintln!("invalid: {reason}");
            ExitCode::FAILURE
        }
        Err(Failure::Input(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

/// Help and version go to stdout as clap prints them; any other argument
/// error, a missing command included, becomes one line on stderr and exit
/// code 2.
fn argument_error(error: clap::Error) -> ExitCode {
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = error.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            eprintln!("error: no command given; `grundy --help` lists them");
            ExitCode::from(2)
        }
        _ => {
            // clap renders several lines (message, details, usage, a hint);
            // keep the message and its details on one line.
            let rendered = error.render().to_string();
            let message: Vec<&str> = rendered
                .lines()
                .map(str::trim)
                .take_while(|line| !line.starts_with("Usage:") && !line.starts_with("For more"))
                .filter(|line| !line.is_empty() && !line.starts_with("tip:"))
                .collect();
            let message = message.join(" ");
            let message = message.strip_prefix("error: ").unwrap_or(&message);
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}
