//! Reading scripts: the accepted keys, and one clear message for every mistake.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod script_support;

use std::path::Path;

use codex_config::ConfigEnv;
use codex_config::ExtensionHost;
use codex_config::SandboxWorkspaceWrite;
use codex_config::SkillToml;
use codex_protocol::TrustLevel;
use codex_script::AssistantReply;
use codex_script::CodexHome;
use codex_script::Compaction;
use codex_script::Script;
use codex_script::ScriptedReasoning;
use codex_script::SessionContinuity;
use codex_script::SettingsLayer;
use codex_script::load_config as load_script_config;
use pretty_assertions::assert_eq;
use script_support::examples_dir;
use serde_json::json;

fn error(text: &str) -> String {
    Script::parse(text, "script.json", &examples_dir())
        .expect_err("the script is rejected")
        .to_string()
}

/// The environment a script's settings load in: `folder` as the current directory, the
/// captures' clock and shell.
fn script_env(folder: &Path) -> ConfigEnv {
    ConfigEnv {
        codex_home: None,
        home_dir: None,
        current_dir: Some(folder.to_path_buf()),
        shell: Some("bash".to_string()),
        tz: None,
        system_timezone: Some("UTC".to_string()),
        now: "2026-11-30T07:00:00Z".parse().unwrap(),
    }
}

/// The configuration `layers` give in `env`, isolated from the machine's CODEX_HOME.
fn load(env: &ConfigEnv, layers: &[&SettingsLayer]) -> codex_config::Config {
    load_script_config(
        layers,
        &CodexHome::Isolated,
        ExtensionHost::Library,
        env,
        "script.json",
    )
    .unwrap()
}

#[test]
fn every_turn_key_is_read() {
    let script = Script::parse(
        r#"{
            "session": {"cwd": "project", "seed": 3, "features": {"personality": false}},
            "turns": [
                {"user": "one"},
                {"set": {"model": "gpt-5.2"}, "user": "two", "assistant": "reply",
                 "compact": "summary", "resume": true}
            ]
        }"#,
        "script.json",
        &examples_dir(),
    )
    .unwrap();
    assert_eq!(script.name, "script.json");
    assert_eq!(
        script.session.path("cwd"),
        Some(examples_dir().join("project"))
    );
    assert_eq!(script.session.origin(), "script.json: session");
    let [first, second] = script.turns.as_slice() else {
        panic!("two turns");
    };
    assert_eq!(
        (
            first.user.as_str(),
            &first.assistant,
            &first.compact,
            &first.continuity,
            &first.set
        ),
        (
            "one",
            &AssistantReply::Absent,
            &None,
            &SessionContinuity::Continue,
            &Vec::new()
        )
    );
    assert_eq!(
        (
            second.user.as_str(),
            &second.assistant,
            second.compact.clone(),
            &second.continuity,
            &second.set
        ),
        (
            "two",
            &AssistantReply::Scripted("reply".to_string()),
            Some(Compaction::Rewrite("summary".to_string())),
            &SessionContinuity::ResumeFromRollout {
                restart: SettingsLayer::empty("script.json: turns[1].resume")
            },
            &vec![layer(
                "script.json: turns[1].set",
                r#"{"model": "gpt-5.2"}"#
            )]
        )
    );
}

fn layer(origin: &str, config: &str) -> SettingsLayer {
    SettingsLayer::from_json(
        origin,
        &serde_json::from_str(config).unwrap(),
        &examples_dir(),
    )
    .unwrap()
}

/// `set` as an array is several settings operations, each its own layer (`{}` changes nothing
/// but is still an operation); `resume` as an object is the restarted process's settings.
#[test]
fn settings_operations_and_restart_settings() {
    let script = Script::parse(
        r#"{"turns": [
            {"user": "one"},
            {"resume": {"model": "gpt-5.4"}, "set": [{"personality": "friendly"}, {}],
             "user": "two"},
            {"set": [], "resume": false, "user": "three"}
        ]}"#,
        "script.json",
        &examples_dir(),
    )
    .unwrap();
    let second = &script.turns[1];
    assert_eq!(
        (&second.continuity, &second.set),
        (
            &SessionContinuity::ResumeFromRollout {
                restart: layer("script.json: turns[1].resume", r#"{"model": "gpt-5.4"}"#)
            },
            &vec![
                layer(
                    "script.json: turns[1].set[0]",
                    r#"{"personality": "friendly"}"#
                ),
                SettingsLayer::empty("script.json: turns[1].set[1]"),
            ]
        )
    );
    let third = &script.turns[2];
    assert_eq!(
        (&third.continuity, &third.set),
        (&SessionContinuity::Continue, &Vec::new())
    );
}

#[test]
fn reasoning_is_an_object_or_an_array_of_them() {
    let script = Script::parse(
        r#"{"turns": [
            {"user": "one", "reasoning": {"id": "rs_1", "summary": "s", "content": ["a", "b"],
             "encrypted_content": "e"}},
            {"user": "two", "reasoning": [{"summary": ["x", "y"]}, {}]}
        ]}"#,
        "script.json",
        &examples_dir(),
    )
    .unwrap();
    assert_eq!(
        script.turns[0].reasoning,
        vec![ScriptedReasoning {
            id: Some("rs_1".to_string()),
            summary: vec!["s".to_string()],
            content: vec!["a".to_string(), "b".to_string()],
            encrypted_content: Some("e".to_string()),
        }]
    );
    assert_eq!(
        script.turns[1].reasoning,
        vec![
            ScriptedReasoning {
                summary: vec!["x".to_string(), "y".to_string()],
                ..ScriptedReasoning::default()
            },
            ScriptedReasoning::default(),
        ]
    );
    assert_eq!(
        serde_json::to_value(script.turns[0].reasoning[0].to_response_item()).unwrap(),
        json!({
            "type": "reasoning",
            "id": "rs_1",
            "summary": [{"type": "summary_text", "text": "s"}],
            "content": [
                {"type": "reasoning_text", "text": "a"},
                {"type": "reasoning_text", "text": "b"}
            ],
            "encrypted_content": "e"
        })
    );
}

#[test]
fn reasoning_mistakes_are_named_with_their_place() {
    assert_eq!(
        error(r#"{"turns": [{"user": "a", "reasoning": "thinking"}]}"#),
        "script.json: turns[0].reasoning: must be a reasoning object or an array of them"
    );
    assert_eq!(
        error(r#"{"turns": [{"user": "a", "reasoning": [{"summery": "s"}]}]}"#),
        "script.json: turns[0].reasoning[0]: unknown key \"summery\" (expected one of: summary, \
         content, encrypted_content, id)"
    );
    assert_eq!(
        error(r#"{"turns": [{"user": "a", "reasoning": {"content": [1]}}]}"#),
        "script.json: turns[0].reasoning.content: must be a string or an array of strings"
    );
    assert_eq!(
        error(r#"{"turns": [{"user": "a", "reasoning": {"id": 1}}]}"#),
        "script.json: turns[0].reasoning.id: must be a string"
    );
}

#[test]
fn unknown_keys_are_named_with_their_place() {
    assert_eq!(
        error(r#"{"turns": [{"user": "a"}, {"user": "b"}, {"user": "c", "asistant": "d"}]}"#),
        "script.json: turns[2]: unknown key \"asistant\" (expected one of: set, user, \
         reasoning, assistant, compact, resume, rollback, fork, edit, rewrite_rollout, time_reminder, shell, interrupt, hook_context, \
         additional_context, subagent_status, network_rule, approve_prefix, tool_calls, expect_failure)"
    );
    assert_eq!(
        error(r#"{"turns": [], "sesion": {}}"#),
        "script.json: unknown key \"sesion\" (expected one of: session, turns)"
    );
    assert_eq!(
        error(r#"{"session": {"modle": "x"}, "turns": []}"#),
        "script.json: session: unknown key \"modle\""
    );
    assert_eq!(
        error(r#"{"turns": [{"user": "a", "set": {"features": {"personalty": true}}}]}"#),
        "script.json: turns[0].set.features: unknown feature \"personalty\""
    );
}

#[test]
fn bad_values_are_named_with_their_place() {
    let missing = examples_dir().join("no-such-folder");
    let cases = [
        (
            r#"{"session": {"cwd": "no-such-folder"}, "turns": []}"#.to_string(),
            format!(
                "script.json: session.cwd: directory {} does not exist",
                missing.display()
            ),
        ),
        (
            r#"{"turns": [{"user": "a"}, {"user": "b", "rollback": 0}]}"#.to_string(),
            "script.json: turns[1].rollback: must be a positive number of user turns".to_string(),
        ),
        (
            r#"{"turns": [{"user": "a", "rollback": 1}]}"#.to_string(),
            "script.json: turns[0].rollback: the thread has run no turn to roll back".to_string(),
        ),
        (
            r#"{"turns": [{"fork": true}]}"#.to_string(),
            "script.json: turns[0].fork: the thread has run no turn to fork".to_string(),
        ),
        (
            r#"{"turns": [{"user": "a"}, {"fork": -1}]}"#.to_string(),
            "script.json: turns[1].fork: must be true (the whole history) or the 0-based user \
             message to cut before"
                .to_string(),
        ),
        (
            r#"{"turns": [{"user": "a"}, {"fork": 0, "assistant": "b"}]}"#.to_string(),
            "script.json: turns[1]: a fork step without \"user\" runs no turn: unexpected key \
             \"assistant\""
                .to_string(),
        ),
        (
            r#"{"turns": [{"user": "a"}, {"fork": true, "resume": true, "user": "b"}]}"#
                .to_string(),
            "script.json: turns[1].fork: a fork starts a new thread: resume it in a later turn, \
             not with the fork"
                .to_string(),
        ),
        (
            r#"{"turns": [{"user": "a", "set": {"personality": "grumpy"}}]}"#.to_string(),
            "script.json: turns[0].set.personality: unknown variant `grumpy`, expected one \
             of `none`, `friendly`, `pragmatic`"
                .to_string(),
        ),
        (
            r#"{"turns": [{"user": "a", "set": {"seed": "seven"}}]}"#.to_string(),
            "script.json: turns[0].set.seed: invalid type: string \"seven\", expected u64"
                .to_string(),
        ),
        (
            r#"{"turns": [{"user": "a", "set": {"current_date": "2026-13-01"}}]}"#.to_string(),
            "script.json: turns[0].set.current_date: `2026-13-01` is not a date in \
             YYYY-MM-DD form"
                .to_string(),
        ),
        (
            r#"{"session": {"approval_policy": "untrusted"}, "turns": []}"#.to_string(),
            "script.json: session.approval_policy: approval policy `untrusted` is no longer \
             supported (expected one of: on-request, never)"
                .to_string(),
        ),
        (
            r#"{"turns": [{"user": "a", "set": {"approval_policy": "sometimes"}}]}"#.to_string(),
            "script.json: turns[0].set.approval_policy: unknown approval policy `sometimes` \
             (expected one of: on-request, never)"
                .to_string(),
        ),
        (
            r#"{"turns": [{"user": "a", "set": {"model": null}}]}"#.to_string(),
            "script.json: turns[0].set.model: null is not a value (leave the key out)".to_string(),
        ),
        (
            r#"{"turns": [{"assistant": "a"}]}"#.to_string(),
            "script.json: turns[0]: missing key \"user\"".to_string(),
        ),
        (
            r#"{"turns": [{"user": 1}]}"#.to_string(),
            "script.json: turns[0].user: must be a string".to_string(),
        ),
        (
            r#"{"turns": [{"user": "a", "resume": "yes"}]}"#.to_string(),
            "script.json: turns[0].resume: must be true, false or an object of config keys"
                .to_string(),
        ),
        (
            r#"{"turns": [{"user": "a", "resume": {"modle": "x"}}]}"#.to_string(),
            "script.json: turns[0].resume: unknown key \"modle\"".to_string(),
        ),
        (
            r#"{"turns": [{"user": "a", "set": "model=x"}]}"#.to_string(),
            "script.json: turns[0].set: must be an object of config keys or an array of them"
                .to_string(),
        ),
        (
            r#"{"turns": [{"user": "a", "set": [{}, "model=x"]}]}"#.to_string(),
            "script.json: turns[0].set[1]: must be an object of config keys".to_string(),
        ),
        (
            r#"{"turns": [{"user": "a", "set": [{"seed": "seven"}]}]}"#.to_string(),
            "script.json: turns[0].set[0].seed: invalid type: string \"seven\", expected u64"
                .to_string(),
        ),
        (
            r#"{"turns": {}}"#.to_string(),
            "script.json: turns: must be an array of turn objects".to_string(),
        ),
        (
            r#"{"session": {}}"#.to_string(),
            "script.json: missing key \"turns\"".to_string(),
        ),
        (
            "[]".to_string(),
            "script.json: a script is a JSON object with \"turns\"".to_string(),
        ),
        (
            r#"{"turns": [}"#.to_string(),
            "script.json: invalid JSON: expected value at line 1 column 12".to_string(),
        ),
    ];
    for (text, message) in cases {
        assert_eq!(error(&text), message, "{text}");
    }
}

#[test]
fn set_assignments_are_checked_like_script_keys() {
    let base = examples_dir();
    let layer = SettingsLayer::from_assignments(
        "--set",
        &[
            "model=gpt-5.2".to_string(),
            "features.personality=false".to_string(),
            "cwd=project".to_string(),
        ],
        &base,
    )
    .unwrap();
    assert_eq!(layer.path("cwd"), Some(base.join("project")));
    let rejected = |assignment: &str| {
        SettingsLayer::from_assignments("--set", &[assignment.to_string()], &base)
            .expect_err("rejected")
            .to_string()
    };
    assert_eq!(rejected("modle=x"), "--set modle=x: unknown key \"modle\"");
    assert_eq!(rejected("model"), "--set model: expected key=value");
    assert_eq!(
        rejected("model.slug=x"),
        "--set model.slug=x: `model` has no sub-keys"
    );
    assert_eq!(
        rejected("approval_policy=sometimes"),
        "--set approval_policy=sometimes: unknown approval policy `sometimes` (expected one of: \
         on-request, never)"
    );
    assert_eq!(
        rejected("approval_policy=untrusted"),
        "--set approval_policy=untrusted: approval policy `untrusted` is no longer supported \
         (expected one of: on-request, never)"
    );
}

#[test]
fn script_skill_paths_resolve_against_the_script_folder() {
    let folder = tempfile::tempdir().unwrap();
    let object = json!({"skills": {"host": [
        {"name": "pdf", "description": "PDF forms.", "path": "skills/pdf/SKILL.md"}
    ]}});
    let layer = SettingsLayer::from_json(
        "script.json: session",
        object.as_object().unwrap(),
        folder.path(),
    )
    .unwrap();
    let env = script_env(folder.path());
    let config = load(&env, &[&layer]);
    assert_eq!(
        config.skills.map(|skills| skills.host),
        Some(vec![SkillToml {
            name: "pdf".to_string(),
            description: "PDF forms.".to_string(),
            path: folder.path().join("skills/pdf/SKILL.md"),
        }])
    );
    let unknown = json!({"skills": {"hosts": []}});
    let error = SettingsLayer::from_json(
        "script.json: session",
        unknown.as_object().unwrap(),
        Path::new("/"),
    )
    .unwrap_err();
    assert!(
        error.to_string().contains("script.json: session.skills"),
        "{error}"
    );
}

#[test]
fn script_project_paths_resolve_against_the_script_folder() {
    let folder = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(folder.path().join("repo")).unwrap();
    let session = json!({"cwd": "repo", "projects": {"./repo": {"trust_level": "trusted"}}});
    let session = SettingsLayer::from_json(
        "script.json: session",
        session.as_object().unwrap(),
        folder.path(),
    )
    .unwrap();
    let env = script_env(folder.path());
    let trust = |layers: &[&SettingsLayer]| load(&env, layers).active_project.trust_level;
    assert_eq!(trust(&[&session]), Some(TrustLevel::Trusted));
    // A later `--set` of one project's trust wins over the session's.
    let set = SettingsLayer::from_assignments(
        "--set",
        &["projects.\"repo\".trust_level=untrusted".to_string()],
        folder.path(),
    )
    .unwrap();
    assert_eq!(trust(&[&session, &set]), Some(TrustLevel::Untrusted));
    let rejected = SettingsLayer::from_assignments(
        "--set",
        &["projects.repo.trust_level=maybe".to_string()],
        folder.path(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        rejected.contains("expected `trusted` or `untrusted`"),
        "{rejected}"
    );
}

#[test]
fn script_writable_roots_resolve_against_the_script_folder() {
    let folder = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(folder.path().join("repo")).unwrap();
    let session = json!({
        "cwd": "repo",
        "sandbox_mode": "workspace-write",
        "sandbox_workspace_write": {"writable_roots": ["./shared", "/data"], "network_access": true}
    });
    let session = SettingsLayer::from_json(
        "script.json: session",
        session.as_object().unwrap(),
        folder.path(),
    )
    .unwrap();
    let env = script_env(folder.path());
    let settings = |layers: &[&SettingsLayer]| load(&env, layers).sandbox_workspace_write;
    assert_eq!(
        settings(&[&session]),
        SandboxWorkspaceWrite {
            writable_roots: vec![folder.path().join("shared"), "/data".into()],
            network_access: true,
            exclude_tmpdir_env_var: false,
            exclude_slash_tmp: false,
        }
    );
    // A later `--set` of one key keeps the others.
    let set = SettingsLayer::from_assignments(
        "--set",
        &[
            "sandbox_workspace_write.writable_roots=[\"other\"]".to_string(),
            "sandbox_workspace_write.exclude_slash_tmp=true".to_string(),
        ],
        folder.path(),
    )
    .unwrap();
    assert_eq!(
        settings(&[&session, &set]),
        SandboxWorkspaceWrite {
            writable_roots: vec![folder.path().join("other")],
            network_access: true,
            exclude_tmpdir_env_var: false,
            exclude_slash_tmp: true,
        }
    );
    let rejected = SettingsLayer::from_json(
        "script.json: session",
        json!({"sandbox_workspace_write": {"writable_roots": "shared"}})
            .as_object()
            .unwrap(),
        folder.path(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        rejected.contains("script.json: session.sandbox_workspace_write")
            && rejected.contains("writable_roots"),
        "{rejected}"
    );
}

#[test]
fn a_resumed_workspace_write_sandbox_keeps_its_recorded_table() {
    let folder = tempfile::tempdir().unwrap();
    let item: codex_protocol::TurnContextItem = serde_json::from_value(json!({
        "cwd": folder.path(),
        "approval_policy": "never",
        "sandbox_policy": {
            "type": "workspace-write",
            "writable_roots": ["/data"],
            "network_access": true,
            "exclude_tmpdir_env_var": true,
            "exclude_slash_tmp": false
        },
        "model": "gpt-5.5"
    }))
    .unwrap();
    let recorded = SettingsLayer::recorded("rollout.jsonl", &item).unwrap();
    let env = script_env(folder.path());
    let config = load(&env, &[&recorded]);
    assert_eq!(config.sandbox_policy(), item.sandbox_policy);
}

#[test]
fn compact_object_is_a_compaction_task() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("task.json");
    std::fs::write(
        &path,
        r#"{"session": {}, "turns": [{"user": "a"}, {"compact": {"summary": "S"}, "user": "b"}]}"#,
    )
    .unwrap();
    let script = Script::load(&path).unwrap();
    assert_eq!(
        script.turns[1].compact,
        Some(Compaction::Task("S".to_string()))
    );
    std::fs::write(
        &path,
        r#"{"session": {}, "turns": [{"compact": {"sumary": "S"}, "user": "b"}]}"#,
    )
    .unwrap();
    let error = Script::load(&path).unwrap_err().to_string();
    assert!(error.contains("turns[0].compact"), "{error}");
    assert!(error.contains("unknown key \"sumary\""), "{error}");
}

#[test]
fn rollout_rewrites_need_a_resume_after_a_turn() {
    assert_eq!(
        error(
            r#"{"turns": [{"rewrite_rollout": {"drop_world_state_section": "agents_md"}, "resume": true, "user": "a"}]}"#
        ),
        "script.json: turns[0].rewrite_rollout: the thread has written no rollout to rewrite"
    );
    assert_eq!(
        error(
            r#"{"turns": [{"user": "a"}, {"rewrite_rollout": {"drop_world_state_section": "agents_md"}, "user": "b"}]}"#
        ),
        "script.json: turns[1].rewrite_rollout: a rewritten rollout is read by a resume: the step \
         must also have \"resume\""
    );
    assert_eq!(
        error(
            r#"{"turns": [{"user": "a"}, {"rewrite_rollout": [{"compacted": "first", "set": {}}], "resume": true, "user": "b"}]}"#
        ),
        "script.json: turns[1].rewrite_rollout[0].compacted: must be the 0-based number of the \
         thread's compacted line"
    );
    assert_eq!(
        error(
            r#"{"turns": [{"user": "a"}, {"rewrite_rollout": {"drop": "x"}, "resume": true, "user": "b"}]}"#
        ),
        "script.json: turns[1].rewrite_rollout: unknown key \"drop\" (expected one of: \
         drop_world_state_section, compacted, set)"
    );
}
