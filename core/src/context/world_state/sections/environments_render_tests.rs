//! Exact renderings of a first `<environment_context>` block (previous state Absent).

use pretty_assertions::assert_eq;

use super::*;
use crate::context::world_state::PreviousSectionState::Absent;

fn environment(id: &str, cwd: &str, shell: &str) -> EnvironmentInputs {
    EnvironmentInputs {
        id: id.to_string(),
        cwd: cwd.to_string(),
        status: EnvironmentStatus::Available,
        shell: Some(shell.to_string()),
    }
}

fn render(inputs: EnvironmentsSectionInputs) -> String {
    EnvironmentsSection::new(inputs)
        .expect("valid inputs")
        .render_diff(Absent)
        .expect("a first render is never empty here")
        .render()
}

fn dated(environments: Vec<EnvironmentInputs>) -> EnvironmentsSectionInputs {
    EnvironmentsSectionInputs {
        environments,
        current_date: Some("2026-02-26".to_string()),
        timezone: Some("America/Los_Angeles".to_string()),
        ..EnvironmentsSectionInputs::default()
    }
}

#[test]
fn serialize_workspace_write_environment_context() {
    assert_eq!(
        render(dated(vec![environment("local", "/repo", "bash")])),
        "<environment_context>\n  <cwd>/repo</cwd>\n  <shell>bash</shell>\n  <current_date>2026-02-26</current_date>\n  <timezone>America/Los_Angeles</timezone>\n</environment_context>"
    );
}

#[test]
fn serialize_environment_context_with_foreign_windows_cwd() {
    let inputs = EnvironmentsSectionInputs {
        environments: vec![environment("remote", r"C:\windows", "powershell")],
        filesystem: Some(FilesystemContext {
            workspace_roots: vec![r"D:\workspace".to_string()],
            permission_profile: PermissionProfileContext::Disabled,
        }),
        ..EnvironmentsSectionInputs::default()
    };
    assert_eq!(
        render(inputs),
        r#"<environment_context>
  <cwd>C:\windows</cwd>
  <shell>powershell</shell>
  <filesystem><workspace_roots><root>D:\workspace</root></workspace_roots><permission_profile type="disabled"><file_system type="unrestricted" /></permission_profile></filesystem>
</environment_context>"#
    );
}

#[test]
fn serialize_environment_context_with_network() {
    let inputs = EnvironmentsSectionInputs {
        network: Some(NetworkContext {
            allowed: vec!["api.example.com".to_string(), "*.openai.com".to_string()],
            denied: vec!["blocked.example.com".to_string()],
        }),
        ..dated(vec![environment("local", "/repo", "bash")])
    };
    assert_eq!(
        render(inputs),
        r#"<environment_context>
  <cwd>/repo</cwd>
  <shell>bash</shell>
  <current_date>2026-02-26</current_date>
  <timezone>America/Los_Angeles</timezone>
  <network enabled="true"><allowed>api.example.com,*.openai.com</allowed><denied>blocked.example.com</denied></network>
</environment_context>"#
    );
}

#[test]
fn serialize_environment_context_with_full_filesystem_profile() {
    let entry = |access, escalatable, target| FileSystemEntry {
        access,
        escalatable,
        target,
    };
    let inputs = EnvironmentsSectionInputs {
        environments: vec![environment("local", "/repo", "bash")],
        filesystem: Some(FilesystemContext {
            workspace_roots: vec!["/repo".to_string(), "/other-repo".to_string()],
            permission_profile: PermissionProfileContext::Managed {
                file_system: FileSystemPolicy::Restricted {
                    entries: vec![
                        entry(
                            FileSystemAccess::Write,
                            None,
                            FileSystemTarget::Path("/repo".to_string()),
                        ),
                        entry(
                            FileSystemAccess::Write,
                            None,
                            FileSystemTarget::Path("/other-repo".to_string()),
                        ),
                        entry(
                            FileSystemAccess::Deny,
                            Some(false),
                            FileSystemTarget::Path("/repo/private".to_string()),
                        ),
                        entry(
                            FileSystemAccess::Deny,
                            Some(false),
                            FileSystemTarget::Path("/other-repo/private".to_string()),
                        ),
                        entry(
                            FileSystemAccess::Deny,
                            Some(false),
                            FileSystemTarget::Glob("/repo/private/**".to_string()),
                        ),
                        entry(
                            FileSystemAccess::Deny,
                            Some(false),
                            FileSystemTarget::Glob("/other-repo/private/**".to_string()),
                        ),
                    ],
                    glob_scan_max_depth: None,
                },
            },
        }),
        ..EnvironmentsSectionInputs::default()
    };
    assert_eq!(
        render(inputs),
        r#"<environment_context>
  <cwd>/repo</cwd>
  <shell>bash</shell>
  <filesystem><workspace_roots><root>/repo</root><root>/other-repo</root></workspace_roots><permission_profile type="managed"><file_system type="restricted"><entry access="write"><path>/repo</path></entry><entry access="write"><path>/other-repo</path></entry><entry access="deny" escalatable="false"><path>/repo/private</path></entry><entry access="deny" escalatable="false"><path>/other-repo/private</path></entry><entry access="deny" escalatable="false"><glob>/repo/private/**</glob></entry><entry access="deny" escalatable="false"><glob>/other-repo/private/**</glob></entry></file_system></permission_profile></filesystem>
</environment_context>"#
    );
}

#[test]
fn serialize_read_only_environment_context() {
    assert_eq!(
        render(dated(Vec::new())),
        "<environment_context>\n  <current_date>2026-02-26</current_date>\n  <timezone>America/Los_Angeles</timezone>\n</environment_context>"
    );
}

#[test]
fn serialize_environment_context_with_subagents() {
    let inputs = EnvironmentsSectionInputs {
        subagents: Some("- agent-1: atlas\n- agent-2".to_string()),
        ..dated(vec![environment("local", "/repo", "bash")])
    };
    assert_eq!(
        render(inputs),
        "<environment_context>\n  <cwd>/repo</cwd>\n  <shell>bash</shell>\n  <current_date>2026-02-26</current_date>\n  <timezone>America/Los_Angeles</timezone>\n  <subagents>\n    - agent-1: atlas\n    - agent-2\n  </subagents>\n</environment_context>"
    );
}

#[test]
fn serialize_environment_context_with_multiple_selected_environments() {
    assert_eq!(
        render(dated(vec![
            environment("local", "/repo/local", "bash"),
            environment("remote", "/repo/remote", "bash"),
        ])),
        r#"<environment_context>
  <environments>
    <environment id="local" primary="true">
      <cwd>/repo/local</cwd>
      <shell>bash</shell>
    </environment>
    <environment id="remote" primary="false">
      <cwd>/repo/remote</cwd>
      <shell>bash</shell>
    </environment>
  </environments>
  <current_date>2026-02-26</current_date>
  <timezone>America/Los_Angeles</timezone>
</environment_context>"#
    );
}

#[test]
fn serialize_environment_context_prefers_environment_shell_when_present() {
    let inputs = EnvironmentsSectionInputs {
        environments: vec![
            environment("local", "/repo/local", "powershell"),
            environment("remote", "/repo/remote", "cmd"),
        ],
        ..EnvironmentsSectionInputs::default()
    };
    assert_eq!(
        render(inputs),
        r#"<environment_context>
  <environments>
    <environment id="local" primary="true">
      <cwd>/repo/local</cwd>
      <shell>powershell</shell>
    </environment>
    <environment id="remote" primary="false">
      <cwd>/repo/remote</cwd>
      <shell>cmd</shell>
    </environment>
  </environments>
</environment_context>"#
    );
}

#[test]
fn text_values_are_xml_escaped() {
    let inputs = EnvironmentsSectionInputs {
        environments: vec![
            environment("a&b", "/tmp/<x>", "it's \"sh\""),
            EnvironmentInputs {
                status: EnvironmentStatus::Starting,
                shell: None,
                ..environment("later", "/srv", "")
            },
        ],
        timezone: Some("Etc/<UTC>".to_string()),
        network: Some(NetworkContext {
            allowed: vec!["a&b.example".to_string()],
            denied: Vec::new(),
        }),
        ..EnvironmentsSectionInputs::default()
    };
    assert_eq!(
        render(inputs),
        r#"<environment_context>
  <environments>
    <environment id="a&amp;b" primary="true">
      <cwd>/tmp/&lt;x&gt;</cwd>
      <shell>it&apos;s &quot;sh&quot;</shell>
    </environment>
    <environment id="later" primary="false">
      <cwd>/srv</cwd>
      <status>starting</status>
    </environment>
  </environments>
  <timezone>Etc/&lt;UTC&gt;</timezone>
  <network enabled="true"><allowed>a&amp;b.example</allowed></network>
</environment_context>"#
    );
}
