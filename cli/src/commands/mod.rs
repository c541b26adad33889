//! One module per subcommand. Each has an `…Args` struct (clap derive) and
//! `run(&Args) -> anyhow::Result<String>` returning exactly what goes to stdout; `main` prints it
//! and turns errors into the one-line message and exit code 2.

pub mod compare;
mod compare_releases;
pub mod explain;
pub mod fingerprint;
pub mod inspect;
mod inspect_dir;
pub mod instructions;
pub mod merge_patch;
pub mod models;
pub mod proxy;
mod proxy_check;
mod proxy_ui;
pub mod request;
pub mod send;
pub mod session;
mod session_forks;
pub mod world_state;
