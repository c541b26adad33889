//! `codex-context`: inspect how Codex-style context is assembled.
//!
//! A thin binary: argument parsing lives here, each subcommand is one module under `commands/`
//! that turns its arguments into the exact bytes to print. Every error ends the process with one
//! line `codex-context: error: …` on stderr and exit code 2 (clap's usage errors also exit 2).

mod catalog;
mod commands;
mod config_flags;
mod diagnostics;
mod endpoint;
mod input;
mod output;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use clap::Subcommand;

/// mimalloc rather than the system allocator: reading a rollout allocates an item on one thread
/// and frees it on another (inspect walks the lines while a thread reads them), which glibc's
/// allocator makes slow; its version 2 returns freed memory soon enough that one huge line does
/// not leave several copies of itself resident.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Exit code for every failure: unreadable or invalid input, unknown names, bad arguments.
const EXIT_ERROR: u8 = 2;

#[derive(Debug, Parser)]
#[command(
    name = "codex-context",
    version,
    about = "Inspect how Codex-style agents assemble what their model sees"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Models(commands::models::ModelsArgs),
    Instructions(commands::instructions::InstructionsArgs),
    Fingerprint(commands::fingerprint::FingerprintArgs),
    Inspect(commands::inspect::InspectArgs),
    MergePatch(commands::merge_patch::MergePatchArgs),
    Compare(commands::compare::CompareArgs),
    Request(commands::request::RequestArgs),
    Explain(commands::explain::ExplainArgs),
    WorldState(commands::world_state::WorldStateArgs),
    Session(commands::session::SessionArgs),
    Send(commands::send::SendArgs),
    Proxy(commands::proxy::ProxyArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            // `--help` and `--version` come through here too, with exit code 0.
            let _ = error.print();
            return ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(EXIT_ERROR));
        }
    };
    diagnostics::init();

    // Exit code once the output is written; commands that report a finding through it set it.
    let mut exit_code_when_written = ExitCode::SUCCESS;
    let output = match cli.command {
        Command::Models(args) => commands::models::run(&args),
        Command::Instructions(args) => commands::instructions::run(&args),
        Command::Fingerprint(args) => commands::fingerprint::run(&args),
        Command::Inspect(args) => commands::inspect::run(&args).map(|inspected| {
            exit_code_when_written = inspected.exit_code;
            inspected.output
        }),
        Command::MergePatch(args) => commands::merge_patch::run(&args),
        Command::Compare(args) => commands::compare::run(&args).map(|comparison| {
            exit_code_when_written = comparison.exit_code;
            comparison.output
        }),
        Command::Request(args) => commands::request::run(&args),
        Command::Explain(args) => commands::explain::run(&args),
        Command::WorldState(args) => commands::world_state::run(&args),
        Command::Session(args) => commands::session::run(&args),
        Command::Send(args) => commands::send::run(&args),
        Command::Proxy(args) => commands::proxy::run(&args),
    };
    let written = output.and_then(|text| {
        let mut stdout = std::io::stdout().lock();
        match stdout
            .write_all(text.as_bytes())
            .and_then(|()| stdout.flush())
        {
            Ok(()) => Ok(()),
            // A closed pipe (`| head`) means the reader has all it wants.
            Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            Err(error) => Err(anyhow::Error::new(error).context("cannot write to standard output")),
        }
    });
    match written {
        Ok(()) => exit_code_when_written,
        Err(error) => {
            eprintln!("{}: error: {}", diagnostics::PROGRAM, one_line(&error));
            ExitCode::from(EXIT_ERROR)
        }
    }
}

/// The error and its causes joined with `: ` on one line. Library errors often repeat their
/// source's message in their own (and also expose it as the source), so a cause whose text
/// already ends the line is not repeated.
fn one_line(error: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in error.chain() {
        let text = cause.to_string();
        if line.ends_with(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line.replace(['\r', '\n'], " ")
}
