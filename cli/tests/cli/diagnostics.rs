//! How warnings read: one sentence a line by default, the `tracing` format when `RUST_LOG` asks
//! for it, and colour only on a terminal without `NO_COLOR`.

use std::path::Path;
use std::process::Command;

use pretty_assertions::assert_eq;

use crate::support::arg;

const ESC: char = '\u{1b}';

/// `request` for a model the catalog does not know, which warns once; `env` is the whole
/// environment the binary sees besides `PATH` and a `HOME` in `home`.
fn unknown_model_request(home: &Path, env: &[(&str, &str)]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_codex-context"));
    command
        .args(["request", "--model", "no-such-model", "--message", "hi"])
        .args(["--codex-home", arg(home), "--cwd", arg(home)])
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .envs(env.iter().copied());
    command
}

fn stderr_of(mut command: Command) -> String {
    let output = command.output().expect("binary runs");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    String::from_utf8(output.stderr).expect("UTF-8")
}

/// Runs the command with standard error on a terminal (`script` gives it a pseudo-terminal)
/// and returns everything the terminal showed.
fn on_a_terminal(command: &Command) -> Option<String> {
    let line = std::iter::once(command.get_program())
        .chain(command.get_args())
        .map(|part| format!("'{}'", part.to_str().expect("UTF-8 argument")))
        .collect::<Vec<_>>()
        .join(" ");
    let mut script = Command::new("script");
    script
        .args(["-qec", &format!("{line} >/dev/null"), "/dev/null"])
        .env_clear();
    for (key, value) in command.get_envs() {
        if let Some(value) = value {
            script.env(key, value);
        }
    }
    let output = script.output().ok()?;
    Some(String::from_utf8_lossy(&output.stdout).into_owned())
}

#[test]
fn warnings_are_sentences_by_default() {
    let home = tempfile::tempdir().expect("tempdir");
    assert_eq!(
        stderr_of(unknown_model_request(home.path(), &[])),
        "codex-context: warning: model `no-such-model` is not in the catalog, so fallback model \
         metadata is used\n"
    );
}

#[test]
fn rust_log_asks_for_the_tracing_format() {
    let home = tempfile::tempdir().expect("tempdir");
    let stderr = stderr_of(unknown_model_request(home.path(), &[("RUST_LOG", "warn")]));
    assert_eq!(
        stderr,
        " WARN model `no-such-model` is not in the catalog, so fallback model metadata is used\n"
    );
}

#[test]
fn colour_only_on_a_terminal_without_no_color() {
    let home = tempfile::tempdir().expect("tempdir");
    let request = |env: &[(&str, &str)]| unknown_model_request(home.path(), env);
    let Some(coloured) = on_a_terminal(&request(&[("RUST_LOG", "warn")])) else {
        panic!("`script` (util-linux) runs the binary on a pseudo-terminal");
    };
    assert!(coloured.contains(ESC), "{coloured:?}");
    assert!(coloured.contains("is not in the catalog"), "{coloured:?}");

    for env in [
        &[("RUST_LOG", "warn"), ("NO_COLOR", "1")][..],
        &[][..],
        &[("NO_COLOR", "1")][..],
    ] {
        let plain = on_a_terminal(&request(env)).expect("script runs");
        assert!(
            plain.contains("is not in the catalog"),
            "{env:?}: {plain:?}"
        );
        assert!(!plain.contains(ESC), "{env:?}: {plain:?}");
    }
}
