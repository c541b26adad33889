//! The `environments` section against requests and rollouts recorded from upstream Codex: the
//! same inputs must give the same `<environment_context>` text, the same persisted snapshot and
//! the same merge patch. Needs `CODEX_UPSTREAM_FIXTURES` (the folder holding `captures/`):
//! ignored without it, run with `-- --ignored`.

#[path = "../../protocol/tests/upstream_fixtures/mod.rs"]
mod upstream_fixtures;

use std::path::Path;
use std::path::PathBuf;

use codex_core::EnvironmentInputs;
use codex_core::EnvironmentStatus;
use codex_core::EnvironmentsSection;
use codex_core::EnvironmentsSectionInputs;
use codex_core::FileSystemAccess;
use codex_core::FileSystemEntry;
use codex_core::FileSystemPolicy;
use codex_core::FileSystemTarget;
use codex_core::FilesystemContext;
use codex_core::PermissionProfileContext;
use codex_core::WorldState;
use codex_core::WorldStateSnapshot;
use pretty_assertions::assert_eq;
use serde_json::Value;

type TestResult<T = ()> = Result<T, Box<dyn std::error::Error>>;

fn capture(name: &str) -> PathBuf {
    upstream_fixtures::captures().join(name)
}

/// The last `<environment_context>` text of the `number`-th request (earlier ones belong to
/// earlier turns replayed in the input).
fn environment_context_text(folder: &Path, number: u32) -> TestResult<Option<String>> {
    let path = folder.join(format!("request-{number:02}.json"));
    let body: Value = serde_json::from_str(&std::fs::read_to_string(path)?)?;
    Ok(body["input"]
        .as_array()
        .ok_or("request without an input list")?
        .iter()
        .filter_map(|item| item["content"].as_array())
        .flatten()
        .filter_map(|content| content["text"].as_str())
        .rfind(|text| text.starts_with("<environment_context>"))
        .map(str::to_string))
}

/// The `environments` member of every recorded world-state line, with its `full` flag.
fn recorded_environment_states(folder: &Path) -> TestResult<Vec<(bool, Value)>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(folder)? {
        let path = entry?.path();
        if path
            .extension()
            .is_some_and(|extension| extension == "jsonl")
        {
            files.push(path);
        }
    }
    files.sort();
    let mut states = Vec::new();
    for file in files {
        for line in std::fs::read_to_string(file)?.lines() {
            let line: Value = serde_json::from_str(line)?;
            let payload = &line["payload"];
            if line["type"] == "world_state"
                && let Some(state) = payload["state"].get("environments")
            {
                states.push((payload["full"] == true, state.clone()));
            }
        }
    }
    Ok(states)
}

fn local(cwd: &str) -> EnvironmentInputs {
    EnvironmentInputs {
        id: "local".to_string(),
        cwd: cwd.to_string(),
        status: EnvironmentStatus::Available,
        shell: Some("bash".to_string()),
    }
}

fn entry(
    access: FileSystemAccess,
    escalatable: Option<bool>,
    target: FileSystemTarget,
) -> FileSystemEntry {
    FileSystemEntry {
        access,
        escalatable,
        target,
    }
}

fn restricted(roots: &[&str], entries: Vec<FileSystemEntry>) -> FilesystemContext {
    FilesystemContext {
        workspace_roots: roots.iter().map(|root| root.to_string()).collect(),
        permission_profile: PermissionProfileContext::Managed {
            file_system: FileSystemPolicy::Restricted {
                entries,
                glob_scan_max_depth: None,
            },
        },
    }
}

fn upstream_day(
    environments: Vec<EnvironmentInputs>,
    filesystem: Option<FilesystemContext>,
) -> EnvironmentsSectionInputs {
    EnvironmentsSectionInputs {
        environments,
        current_date: Some("2026-11-30".to_string()),
        timezone: Some("Etc/UTC".to_string()),
        filesystem,
        ..EnvironmentsSectionInputs::default()
    }
}

fn world_state(inputs: EnvironmentsSectionInputs) -> TestResult<WorldState> {
    let mut world_state = WorldState::new();
    world_state.add_section(EnvironmentsSection::new(inputs)?)?;
    Ok(world_state)
}

fn only_render(fragments: Vec<Box<dyn codex_context_fragments::ContextualUserFragment>>) -> String {
    assert_eq!(fragments.len(), 1);
    fragments[0].render()
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn per_turn_cwd_and_sandbox_change_matches_upstream() -> TestResult {
    let folder = capture("prompt_caching.per_turn_overrides_keep_cached_prefix_and_key_constant");
    let read_root = || {
        entry(
            FileSystemAccess::Read,
            None,
            FileSystemTarget::Special(":root".to_string()),
        )
    };
    let first = world_state(upstream_day(
        vec![local("/sandbox/tmpJ1HGiU")],
        Some(restricted(&["/upstream/codex-rs/core"], vec![read_root()])),
    ))?;
    let path = |path: &str| FileSystemTarget::Path(path.to_string());
    let second = world_state(upstream_day(
        vec![local("/sandbox/tmpLkwNf3")],
        Some(restricted(
            &["/sandbox/tmpLkwNf3"],
            vec![
                read_root(),
                entry(FileSystemAccess::Write, None, path("/sandbox/tmpLkwNf3")),
                entry(FileSystemAccess::Write, None, path("/sandbox/tmpB2JxUM")),
                entry(
                    FileSystemAccess::Read,
                    None,
                    path("/sandbox/tmpLkwNf3/.git"),
                ),
                entry(
                    FileSystemAccess::Read,
                    None,
                    path("/sandbox/tmpLkwNf3/.agents"),
                ),
                entry(
                    FileSystemAccess::Read,
                    None,
                    path("/sandbox/tmpLkwNf3/.codex"),
                ),
            ],
        )),
    ))?;
    let recorded = recorded_environment_states(&folder)?;

    assert_eq!(
        Some(only_render(first.render_full())),
        environment_context_text(&folder, 1)?
    );
    assert_eq!(
        Some(only_render(second.render_diff(&first.snapshot()))),
        environment_context_text(&folder, 2)?
    );
    let patch = second
        .snapshot()
        .merge_patch_from(&first.snapshot())
        .expect("a patch");
    assert_eq!(
        vec![
            (
                true,
                first
                    .snapshot()
                    .get("environments")
                    .cloned()
                    .expect("persisted")
            ),
            (false, patch["environments"].clone()),
        ],
        recorded
    );
    Ok(())
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn non_escalatable_denied_path_matches_upstream() -> TestResult {
    let folder = capture("agents_md.restricted_project_without_instructions_starts_successfully");
    let state = world_state(upstream_day(
        vec![local("/sandbox/tmpqbuy8u")],
        Some(restricted(
            &["/upstream/codex-rs/core"],
            vec![
                entry(
                    FileSystemAccess::Read,
                    None,
                    FileSystemTarget::Special(":root".to_string()),
                ),
                entry(
                    FileSystemAccess::Deny,
                    Some(false),
                    FileSystemTarget::Path("/sandbox/tmpqbuy8u/private.txt".to_string()),
                ),
            ],
        )),
    ))?;

    assert_eq!(
        Some(only_render(state.render_full())),
        environment_context_text(&folder, 1)?
    );
    assert_eq!(
        recorded_environment_states(&folder)?.first().cloned(),
        Some((
            true,
            state
                .snapshot()
                .get("environments")
                .cloned()
                .expect("persisted")
        ))
    );
    Ok(())
}

#[test]
#[ignore = "needs CODEX_UPSTREAM_FIXTURES"]
fn thread_without_environments_matches_upstream() -> TestResult {
    let folder = capture("agents_md.loads_user_instructions_without_a_primary_environment");
    let state = world_state(upstream_day(Vec::new(), None))?;

    assert_eq!(
        Some(only_render(state.render_full())),
        environment_context_text(&folder, 1)?
    );
    let recorded = recorded_environment_states(&folder)?;
    let recorded_snapshot = WorldStateSnapshot::from_value(serde_json::json!({
        "environments": recorded.first().expect("a full state").1.clone()
    }))
    .expect("object");
    assert_eq!(state.snapshot(), recorded_snapshot);
    assert_eq!(state.render_diff(&recorded_snapshot).len(), 0);
    Ok(())
}
