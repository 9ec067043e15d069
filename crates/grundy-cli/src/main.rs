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
    /// name flags itself).
    fn from(error: grundy::Error) -> Failure {
        let flag = match error {
            grundy::Error::TableTooLarge { .. } | grundy::Error::HistogramTooLarge { .. } => {
                " (raise it with --memory-limit)"
            }
            grundy::Error::ValueTooWide { .. } => " (run again with --values-width 2)",
            _ => "",
        };
        Failure::Input(format!("{error}{flag}"))
    }
}

impl From<io::Error> for Failure {
    fn from(error: io::Error) -> Failure {
        Failure::Io(error)
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return argument_error(error),
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = match cli.command {
        Command::Analyze(args) => commands::analyze(&args, &mut out),
        Command::Check(args) => commands::check(&args, &mut out),
        Command::Compare(args) => commands::compare(&args, &mut out),
        Command::Count(args) => commands::count(&args, &mut out),
        Command::Guess(args) => commands::guess(&args, &mut out),
        Command::Graph(args) => commands::graph(&args, &mut out),
        Command::Maze(args) => commands::maze(&args, &mut out),
        Command::Coins(args) => commands::coins(&args, &mut out),
        Command::Hackenbush(args) => commands::hackenbush(&args, &mut out),
        Command::FibonacciNim(args) => commands::fibonacci_nim(&args, &mut out),
        Command::Outcomes(args) => commands::outcomes(&args, &mut out),
        Command::Misere(args) => commands::misere(&args, &mut out),
        Command::Plot(args) => commands::plot(&args, &mut out),
        Command::Serve(args) => serve::run(std::net::SocketAddr::new(args.host, args.port)),
        Command::Nim(args) => commands::nim(&args, &mut out),
        Command::Values(args) => commands::values(&args, &mut out),
        Command::Sum(args) => commands::sum(&args, &mut out),
        Command::Games(args) => commands::games(&args, &mut out),
        Command::Stream(args) => commands::stream(&args, &mut out),
    }
    .and_then(|()| out.flush().map_err(Failure::Io));
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
