//! `session resume` and `session fork` of a rollout whose recorded working directory does not
//! exist here (recorded on another machine, or the folder was removed): the thread continues in
//! `--cwd`, else the current directory, with one warning, and the next request tells the model
//! the working directory changed.

use std::path::PathBuf;

use pretty_assertions::assert_eq;

use crate::bounded::run_in;
use crate::input_files::input_texts;
use crate::support::Run;
use crate::support::arg;
use crate::support::assert_user_error;
use crate::support::write;

const PINS: [&str; 8] = [
    "--set",
    "current_date=2026-11-30",
    "--set",
    "timezone=Etc/UTC",
    "--set",
    "shell=bash",
    "--set",
    "seed=3",
];

/// A temporary folder holding `recorded.jsonl`, recorded in its `project` folder, which is then
/// removed; `here` and `elsewhere` are folders that exist.
struct Machine {
    dir: tempfile::TempDir,
}

impl Machine {
    fn new() -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("project")).expect("project");
        std::fs::create_dir(dir.path().join("here")).expect("here");
        std::fs::create_dir(dir.path().join("elsewhere")).expect("elsewhere");
        let script = write(
            dir.path(),
            "script.json",
            r#"{"session": {"cwd": "project", "current_date": "2026-11-30", "timezone": "Etc/UTC", "shell": "bash", "seed": 3}, "turns": [{"user": "one", "assistant": "1"}]}"#,
        );
        let recorded = run_in(
            dir.path(),
            &[
                "session",
                "run",
                arg(&script),
                "--rollout",
                "recorded.jsonl",
            ],
        );
        assert_eq!(recorded.code, Some(0), "{recorded:?}");
        std::fs::remove_dir(dir.path().join("project")).expect("remove project");
        Self { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// `session COMMAND recorded.jsonl --user next` run in `here`, pinned, with `extra`.
    fn continue_thread(&self, command: &str, extra: &[&str]) -> Run {
        let rollout = self.path("recorded.jsonl");
        let mut args = vec!["session", command, arg(&rollout), "--user", "next"];
        args.extend(PINS);
        args.extend(extra);
        run_in(&self.path("here"), &args)
    }

    fn redact(&self, text: &str) -> String {
        text.replace(&self.dir.path().display().to_string(), "<TMP>")
    }

    /// The warning a continued thread prints, moving from the removed `project` to `now_in`.
    fn warning(&self, now_in: &str) -> String {
        format!(
            "codex-context: warning: the rollout's working directory {} does not exist here; continuing in {}\n",
            self.path("project").display(),
            self.path(now_in).display()
        )
    }
}

/// The `<environment_context>` texts of a request body, in order.
fn environment_contexts(stdout: &str) -> Vec<String> {
    input_texts(stdout)
        .into_iter()
        .filter(|text| text.starts_with("<environment_context>"))
        .collect()
}

/// The pinned environment context of a read-only session in `cwd`.
fn environment_in(cwd: &str) -> String {
    format!(
        "<environment_context>\n  <cwd>{cwd}</cwd>\n  <shell>bash</shell>\n  \
         <current_date>2026-11-30</current_date>\n  <timezone>Etc/UTC</timezone>\n  \
         <filesystem><workspace_roots><root>{cwd}</root></workspace_roots><permission_profile \
         type=\"managed\"><file_system type=\"restricted\"><entry access=\"read\"><special>:root\
         </special></entry></file_system></permission_profile></filesystem>\n</environment_context>"
    )
}

#[test]
fn resume_continues_in_the_current_directory_and_tells_the_model() {
    let machine = Machine::new();
    let resumed = machine.continue_thread("resume", &[]);
    assert_eq!(
        (resumed.code, resumed.stderr.clone()),
        (Some(0), machine.warning("here"))
    );
    let layout = machine.continue_thread("resume", &["--format", "layout"]);
    insta::assert_snapshot!(
        "resume_of_a_rollout_whose_cwd_is_gone",
        format!(
            "{}\n{}",
            layout.stdout,
            machine.redact(&environment_contexts(&resumed.stdout).join("\n\n"))
        )
    );
}

#[test]
fn resume_and_fork_continue_in_cwd_when_given() {
    let machine = Machine::new();
    let elsewhere = arg(&machine.path("elsewhere")).to_string();
    for command in ["resume", "fork"] {
        let continued = machine.continue_thread(command, &["--cwd", &elsewhere]);
        assert_eq!(
            (continued.code, continued.stderr.clone()),
            (Some(0), machine.warning("elsewhere")),
            "{command}"
        );
        let contexts = environment_contexts(&continued.stdout);
        assert_eq!(contexts.len(), 2, "{command}: {contexts:?}");
        assert_eq!(
            machine.redact(&contexts[1]),
            environment_in("<TMP>/elsewhere"),
            "{command}"
        );
    }
    // The fork without --cwd continues in the current directory, like resume.
    let forked = machine.continue_thread("fork", &[]);
    assert_eq!(
        (forked.code, forked.stderr),
        (Some(0), machine.warning("here"))
    );
}

#[test]
fn cwd_must_be_a_directory() {
    let machine = Machine::new();
    let missing = machine.path("missing");
    for command in ["resume", "fork"] {
        assert_user_error(
            &machine.continue_thread(command, &["--cwd", arg(&missing)]),
            &format!(
                "invalid --cwd: working directory {} does not exist",
                missing.display()
            ),
        );
    }
}

/// A recorded cwd that exists is kept without a word; `--cwd` moves the thread, and the model
/// is told.
#[test]
fn cwd_moves_a_thread_whose_directory_exists() {
    let machine = Machine::new();
    std::fs::create_dir(machine.path("project")).expect("project again");
    let stayed = machine.continue_thread("resume", &[]);
    assert_eq!((stayed.code, stayed.stderr.as_str()), (Some(0), ""));
    assert_eq!(environment_contexts(&stayed.stdout).len(), 1);
    let moved = machine.continue_thread("resume", &["--cwd", "../elsewhere"]);
    assert_eq!((moved.code, moved.stderr.as_str()), (Some(0), ""));
    assert_eq!(
        environment_contexts(&moved.stdout)
            .iter()
            .map(|text| machine.redact(text))
            .collect::<Vec<_>>()[1],
        environment_in("<TMP>/elsewhere")
    );
}
