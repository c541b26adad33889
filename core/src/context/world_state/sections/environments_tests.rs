use codex_prompts::TemplateSet;
use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::context::world_state::PreviousSectionArg;
use crate::context::world_state::PreviousSectionState::Absent;
use crate::context::world_state::PreviousSectionState::Known;
use crate::context::world_state::PreviousSectionState::Unknown;
use crate::context::world_state::WorldState;
use crate::context::world_state::WorldStateSnapshot;
use crate::context::world_state::render_transition_cases;
use crate::context::world_state::world_state_diff_cli;

fn available(id: &str, cwd: &str, shell: Option<&str>) -> EnvironmentInputs {
    EnvironmentInputs {
        id: id.to_string(),
        cwd: cwd.to_string(),
        status: EnvironmentStatus::Available,
        shell: shell.map(str::to_string),
    }
}

fn starting(id: &str, cwd: &str) -> EnvironmentInputs {
    EnvironmentInputs {
        status: EnvironmentStatus::Starting,
        ..available(id, cwd, None)
    }
}

fn read_only_root(root: &str) -> FilesystemContext {
    FilesystemContext {
        workspace_roots: vec![root.to_string()],
        permission_profile: PermissionProfileContext::Managed {
            file_system: FileSystemPolicy::Restricted {
                entries: vec![FileSystemEntry {
                    access: FileSystemAccess::Read,
                    escalatable: None,
                    target: FileSystemTarget::Special(":root".to_string()),
                }],
                glob_scan_max_depth: None,
            },
        },
    }
}

fn inputs(environments: Vec<EnvironmentInputs>) -> EnvironmentsSectionInputs {
    EnvironmentsSectionInputs {
        environments,
        current_date: Some("2026-08-20".to_string()),
        timezone: Some("Etc/UTC".to_string()),
        filesystem: Some(read_only_root("/repo")),
        ..EnvironmentsSectionInputs::default()
    }
}

fn section(inputs: EnvironmentsSectionInputs) -> EnvironmentsSection {
    EnvironmentsSection::new(inputs).expect("valid inputs")
}

fn rendered(
    section: &EnvironmentsSection,
    previous: PreviousSectionState<'_, EnvironmentsSnapshot>,
) -> Option<String> {
    section
        .render_diff(previous)
        .map(|fragment| fragment.render())
}

#[test]
fn snapshots() {
    let nothing = section(EnvironmentsSectionInputs::default());
    let single = section(inputs(vec![available("local", "/repo", Some("bash"))]));
    let single_moved = section(inputs(vec![available("local", "/repo/sub", Some("bash"))]));
    let single_without_shell = section(inputs(vec![available("local", "/repo", None)]));
    let single_zsh = section(inputs(vec![available("local", "/repo", Some("zsh"))]));
    let next_day = section(EnvironmentsSectionInputs {
        current_date: Some("2026-08-21".to_string()),
        timezone: Some("Europe/Paris".to_string()),
        filesystem: Some(read_only_root("/other")),
        ..inputs(vec![available("local", "/repo", Some("bash"))])
    });
    let with_network = section(EnvironmentsSectionInputs {
        network: Some(NetworkContext {
            allowed: vec!["api.example.com".to_string()],
            denied: vec!["blocked.example.com".to_string()],
        }),
        ..inputs(vec![available("local", "/repo", Some("bash"))])
    });
    let with_subagents = section(EnvironmentsSectionInputs {
        subagents: Some("- 019a-0001: atlas".to_string()),
        ..inputs(vec![available("local", "/repo", Some("bash"))])
    });
    let windows = section(EnvironmentsSectionInputs {
        environments: vec![available("remote", r"C:\work", Some("powershell"))],
        ..EnvironmentsSectionInputs::default()
    });
    let only_date = section(EnvironmentsSectionInputs {
        environments: Vec::new(),
        ..inputs(Vec::new())
    });
    let multiple = section(inputs(vec![
        available("local", "/repo", Some("bash")),
        starting("devbox", "/workspace"),
    ]));
    let multiple_ready = section(inputs(vec![
        available("local", "/repo", Some("bash")),
        available("devbox", "/workspace", Some("zsh")),
    ]));
    let multiple_grown = section(inputs(vec![
        available("local", "/repo", Some("bash")),
        available("devbox", "/workspace", Some("zsh")),
        starting("gpu", "/data"),
    ]));
    insta::assert_snapshot!(render_transition_cases(&[
        (Absent, &nothing),
        (Absent, &single),
        (Absent, &multiple),
        (Absent, &windows),
        (Absent, &only_date),
        (Unknown, &single),
        (Unknown, &multiple),
        (Known(&single), &single),
        (Known(&single), &single_moved),
        (Known(&single), &next_day),
        (Known(&single), &with_network),
        (Known(&single_without_shell), &single),
        (Known(&single), &single_without_shell),
        (Known(&single), &single_zsh),
        (Known(&single), &with_subagents),
        (Known(&single), &only_date),
        (Known(&multiple), &multiple),
        (Known(&multiple), &multiple_ready),
        (Known(&multiple_ready), &multiple_grown),
        (Known(&multiple_grown), &multiple_ready),
    ]));
}

#[test]
fn changing_primary_environment_updates_model_context_and_persisted_state() {
    let local_first = inputs(vec![
        available("local", "/repo", Some("bash")),
        available("remote", "/srv/repo", Some("bash")),
    ]);
    let remote_first = inputs(vec![
        available("remote", "/srv/repo", Some("bash")),
        available("local", "/repo", Some("bash")),
    ]);
    let mut before = WorldState::new();
    before
        .add_section(section(local_first))
        .expect("unique section");
    let mut after = WorldState::new();
    after
        .add_section(section(remote_first))
        .expect("unique section");

    let fragments = after.render_diff(&before.snapshot());
    let texts: Vec<String> = fragments.iter().map(|fragment| fragment.render()).collect();
    assert_eq!(
        texts,
        vec![
            r#"<environment_context>
  <environments>
    <environment id="local" primary="false">
      <cwd>/repo</cwd>
      <shell>bash</shell>
    </environment>
    <environment id="remote" primary="true">
      <cwd>/srv/repo</cwd>
      <shell>bash</shell>
    </environment>
  </environments>
  <current_date>2026-08-20</current_date>
  <timezone>Etc/UTC</timezone>
  <filesystem><workspace_roots><root>/repo</root></workspace_roots><permission_profile type="managed"><file_system type="restricted"><entry access="read"><special>:root</special></entry></file_system></permission_profile></filesystem>
</environment_context>"#
                .to_string()
        ]
    );
    assert_eq!(
        after.snapshot().merge_patch_from(&before.snapshot()),
        Some(json!({
            "environments": {
                "environments": {
                    "local": {"is_primary": null},
                    "remote": {"is_primary": true},
                }
            }
        }))
    );
}

#[test]
fn legacy_single_environment_snapshot_does_not_change() {
    // The shape every single-environment rollout holds: no `is_primary`, sorted keys.
    let stored = json!({
        "environments": {
            "current_date": "2026-08-20",
            "environments": {"local": {"cwd": "/repo", "shell": "bash", "status": "available"}},
            "filesystem": "<filesystem><workspace_roots><root>/repo</root></workspace_roots><permission_profile type=\"managed\"><file_system type=\"restricted\"><entry access=\"read\"><special>:root</special></entry></file_system></permission_profile></filesystem>",
            "timezone": "Etc/UTC"
        }
    });
    let baseline = WorldStateSnapshot::from_value(stored.clone()).expect("object");
    let mut world_state = WorldState::new();
    world_state
        .add_section(section(inputs(vec![available(
            "local",
            "/repo",
            Some("bash"),
        )])))
        .expect("unique section");

    assert_eq!(world_state.render_diff(&baseline).len(), 0);
    assert_eq!(world_state.snapshot().into_value(), stored);
    assert_eq!(world_state.snapshot().merge_patch_from(&baseline), None);
}

#[test]
fn crossing_single_environment_boundary_restates_current_environments() {
    let single = section(inputs(vec![available("local", "/repo", Some("bash"))]));
    let several = section(inputs(vec![
        available("local", "/repo", Some("bash")),
        starting("remote", "/srv"),
    ]));

    assert_eq!(
        rendered(&several, Known(&single.snapshot())).as_deref(),
        Some(
            r#"<environment_context>
  <environments>
    <environment id="local" primary="true">
      <cwd>/repo</cwd>
      <shell>bash</shell>
    </environment>
    <environment id="remote" primary="false">
      <cwd>/srv</cwd>
      <status>starting</status>
    </environment>
  </environments>
  <current_date>2026-08-20</current_date>
  <timezone>Etc/UTC</timezone>
  <filesystem><workspace_roots><root>/repo</root></workspace_roots><permission_profile type="managed"><file_system type="restricted"><entry access="read"><special>:root</special></entry></file_system></permission_profile></filesystem>
</environment_context>"#
        )
    );
    assert_eq!(
        rendered(&single, Known(&several.snapshot())).as_deref(),
        Some(
            r#"<environment_context>
  <environments>
    <environment id="local" primary="true">
      <cwd>/repo</cwd>
      <shell>bash</shell>
    </environment>
    <environment id="remote" status="unavailable" />
  </environments>
  <current_date>2026-08-20</current_date>
  <timezone>Etc/UTC</timezone>
  <filesystem><workspace_roots><root>/repo</root></workspace_roots><permission_profile type="managed"><file_system type="restricted"><entry access="read"><special>:root</special></entry></file_system></permission_profile></filesystem>
</environment_context>"#
        )
    );
}

#[test]
fn subagent_changes_update_the_snapshot_without_rendering() {
    let before = section(inputs(vec![available("local", "/repo", Some("bash"))]));
    let after = section(EnvironmentsSectionInputs {
        subagents: Some("- 019a-0001: atlas\n- 019a-0002".to_string()),
        ..inputs(vec![available("local", "/repo", Some("bash"))])
    });
    let mut previous = WorldState::new();
    previous.add_section(before).expect("unique section");
    let mut current = WorldState::new();
    current.add_section(after).expect("unique section");

    assert_eq!(current.render_diff(&previous.snapshot()).len(), 0);
    assert_eq!(
        current.snapshot().merge_patch_from(&previous.snapshot()),
        Some(json!({"environments": {"subagents": "- 019a-0001: atlas\n- 019a-0002"}}))
    );
}

#[test]
fn duplicate_environment_ids_are_rejected() {
    let error = EnvironmentsSection::new(inputs(vec![
        available("local", "/a", None),
        available("local", "/b", None),
    ]))
    .expect_err("duplicate IDs");
    assert_eq!(
        error.to_string(),
        "world-state section environments rejected its inputs: environment ID `local` is selected twice"
    );
}

#[test]
fn catalog_renders_a_single_environment_from_json_inputs() {
    let current = r#"{
        "environments": [{"id": "local", "cwd": "/repo", "shell": "bash"}],
        "current_date": "2026-02-26",
        "timezone": "America/Los_Angeles",
        "filesystem": {
            "workspace_roots": ["/repo"],
            "permission_profile": {"type": "managed", "file_system": {"type": "restricted", "entries": [
                {"access": "read", "special": ":root"},
                {"access": "deny", "escalatable": false, "path": "/repo/secret.txt"}
            ]}}
        }
    }"#;
    let output = world_state_diff_cli(
        "environments",
        &PreviousSectionArg::Absent,
        current,
        &TemplateSet::embedded(),
    )
    .expect("renders");
    assert_eq!(
        output,
        r#"(role - user)
<environment_context>
  <cwd>/repo</cwd>
  <shell>bash</shell>
  <current_date>2026-02-26</current_date>
  <timezone>America/Los_Angeles</timezone>
  <filesystem><workspace_roots><root>/repo</root></workspace_roots><permission_profile type="managed"><file_system type="restricted"><entry access="read"><special>:root</special></entry><entry access="deny" escalatable="false"><path>/repo/secret.txt</path></entry></file_system></permission_profile></filesystem>
</environment_context>"#
    );
}

#[test]
fn catalog_renders_multiple_environments_from_json_inputs() {
    let previous = PreviousSectionArg::parse(
        r#"{"environments": [{"id": "local", "cwd": "/repo", "shell": "bash"}], "current_date": "2026-02-26"}"#,
    )
    .expect("JSON previous inputs");
    let current = r#"{
        "environments": [
            {"id": "local", "cwd": "/repo", "shell": "bash"},
            {"id": "remote", "cwd": "/srv/repo", "status": "starting"}
        ],
        "current_date": "2026-02-26",
        "network": {"allowed": ["api.example.com", "*.openai.com"], "denied": ["blocked.example.com"]}
    }"#;
    let output = world_state_diff_cli("environments", &previous, current, &TemplateSet::embedded())
        .expect("renders");
    assert_eq!(
        output,
        r#"(role - user)
<environment_context>
  <environments>
    <environment id="local" primary="true">
      <cwd>/repo</cwd>
      <shell>bash</shell>
    </environment>
    <environment id="remote" primary="false">
      <cwd>/srv/repo</cwd>
      <status>starting</status>
    </environment>
  </environments>
  <current_date>2026-02-26</current_date>
  <network enabled="true"><allowed>api.example.com,*.openai.com</allowed><denied>blocked.example.com</denied></network>
</environment_context>"#
    );
}

#[test]
fn catalog_rejects_unknown_input_fields() {
    let error = world_state_diff_cli(
        "environments",
        &PreviousSectionArg::Absent,
        r#"{"environments": [], "cwd": "/repo"}"#,
        &TemplateSet::embedded(),
    )
    .expect_err("unknown field");
    assert!(
        error.to_string().starts_with(
            "JSON for world-state section environments is neither its inputs (unknown field `cwd`"
        ),
        "{error}"
    );
}

/// The primary environment's workspace roots are listed verbatim, foreign ones included; only
/// the roots that are paths of this host get the workspace rules (written, with their protected
/// folders). Without an environment there is no `<filesystem>` at all.
#[cfg(not(windows))]
#[test]
fn filesystem_lists_every_root_and_rules_name_the_host_ones() {
    use codex_protocol::SandboxPolicy;
    use codex_protocol::openai_models::ModelInfo;

    let mut turn = TurnContext::for_model("t", "u", ModelInfo::with_defaults("m"), "/repo");
    turn.sandbox_policy = SandboxPolicy::WorkspaceWrite {
        writable_roots: Vec::new(),
        read_only_access: codex_protocol::ReadOnlyAccess::FullAccess,
        network_access: false,
        exclude_tmpdir_env_var: true,
        exclude_slash_tmp: true,
    };
    turn.environments[0].workspace_roots = vec![
        "/repo".to_string(),
        r"C:\workspace".to_string(),
        "/other".to_string(),
    ];
    let filesystem = super::super::environments_filesystem::filesystem_context(&turn)
        .expect("a primary environment");
    assert_eq!(
        filesystem.render(),
        concat!(
            r"<filesystem><workspace_roots><root>/repo</root><root>C:\workspace</root><root>/other</root></workspace_roots>",
            r#"<permission_profile type="managed"><file_system type="restricted"><entry access="read"><special>:root</special></entry>"#,
            r#"<entry access="write"><path>/repo</path></entry><entry access="write"><path>/other</path></entry>"#,
            r#"<entry access="read"><path>/repo/.git</path></entry><entry access="read"><path>/other/.git</path></entry>"#,
            r#"<entry access="read"><path>/repo/.agents</path></entry><entry access="read"><path>/other/.agents</path></entry>"#,
            r#"<entry access="read"><path>/repo/.codex</path></entry><entry access="read"><path>/other/.codex</path></entry>"#,
            r"</file_system></permission_profile></filesystem>"
        )
    );
    turn.environments.clear();
    assert_eq!(
        super::super::environments_filesystem::filesystem_context(&turn),
        None
    );
}
