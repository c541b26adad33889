//! Cargo as the tasks run it.

use std::path::Path;
use std::process::Command;

/// Variables `cargo run` sets for the task itself, besides the `CARGO_PKG_*` ones.
const RUN_VARIABLES: &[&str] = &[
    "CARGO_MANIFEST_DIR",
    "CARGO_MANIFEST_PATH",
    "CARGO_CRATE_NAME",
    "CARGO_BIN_NAME",
    "CARGO_PRIMARY_PACKAGE",
];

/// `cargo` (the one running this task, if any) in `root`, without the variables `cargo run`
/// set for this task. Passed on, they make a nested build differ from a plain `cargo test`
/// (ring's build script tracks `CARGO_MANIFEST_DIR`), so every task run, and every
/// `cargo test` after it, rebuilt the TLS stack, codex-core and codex-cli.
pub(crate) fn cargo_in(root: &Path) -> Command {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command.current_dir(root);
    for (name, _) in std::env::vars_os() {
        let set_by_cargo_run = name
            .to_str()
            .is_some_and(|name| name.starts_with("CARGO_PKG_") || RUN_VARIABLES.contains(&name));
        if set_by_cargo_run {
            command.env_remove(name);
        }
    }
    command
}

#[cfg(test)]
#[path = "cargo_tests.rs"]
mod tests;
