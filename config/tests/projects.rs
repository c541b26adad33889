//! Project trust from config.toml and `-c`: which entry applies, the defaults it sets and the
//! AGENTS.md it leaves out.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod config_support;

use codex_config::ActiveProject;
use codex_config::ConfigOverrides;
use codex_config::LocalFileSystem;
use codex_config::ProjectDocsPolicy;
use codex_config::discover_agents_md_blocking;
use codex_protocol::AskForApproval;
use codex_protocol::SandboxMode;
use codex_protocol::TrustLevel;
use config_support::Fixture;
use pretty_assertions::assert_eq;
use std::sync::Arc;

/// `[projects."<cwd>"]` with `trust_level`, as config.toml text.
fn projects_toml(fixture: &Fixture, trust_level: &str) -> String {
    format!(
        "[projects.\"{}\"]\ntrust_level = \"{trust_level}\"\n",
        fixture.cwd.path().display()
    )
}

#[test]
fn an_untrusted_project_in_config_toml_keeps_only_the_global_instructions() {
    let fixture = Fixture::new(None);
    std::fs::write(fixture.config_path(), projects_toml(&fixture, "untrusted")).unwrap();
    std::fs::write(
        fixture.codex_home().join("AGENTS.md"),
        "global instructions",
    )
    .unwrap();
    std::fs::write(fixture.cwd.path().join("AGENTS.md"), "project instructions").unwrap();
    let config = fixture.load().unwrap();
    assert!(config.warnings.is_empty(), "{:?}", config.warnings);
    assert_eq!(
        config.active_project,
        ActiveProject {
            key: Some(fixture.cwd.path().display().to_string()),
            trust_level: Some(TrustLevel::Untrusted),
        }
    );
    // Upstream's defaults for a project with a trust decision.
    assert_eq!(config.sandbox_mode, SandboxMode::WorkspaceWrite);
    assert_eq!(config.approval_policy, AskForApproval::UnlessTrusted);

    let request = config.agents_md_request("");
    assert_eq!(
        request.project_docs,
        ProjectDocsPolicy::SkipUntrustedProject
    );
    let discovery = discover_agents_md_blocking(&request, Arc::new(LocalFileSystem)).unwrap();
    assert_eq!(
        discovery.sources(),
        vec![fixture.codex_home().join("AGENTS.md").as_path()]
    );
    assert_eq!(discovery.text().as_deref(), Some("global instructions"));
    assert_eq!(discovery.directory(), None);
}

#[test]
fn a_trusted_project_reads_its_docs_and_explicit_settings_beat_the_trust_defaults() {
    let fixture = Fixture::new(None);
    let text = format!(
        "sandbox_mode = \"read-only\"\napproval_policy = \"never\"\n{}",
        projects_toml(&fixture, "trusted")
    );
    std::fs::write(fixture.config_path(), text).unwrap();
    std::fs::write(fixture.cwd.path().join("AGENTS.md"), "project instructions").unwrap();
    let config = fixture.load().unwrap();
    assert_eq!(config.active_project.trust_level, Some(TrustLevel::Trusted));
    assert_eq!(config.sandbox_mode, SandboxMode::ReadOnly);
    assert_eq!(config.approval_policy, AskForApproval::Never);
    let discovery =
        discover_agents_md_blocking(&config.agents_md_request(""), Arc::new(LocalFileSystem))
            .unwrap();
    assert_eq!(discovery.text().as_deref(), Some("project instructions"));
}

#[test]
fn cli_overrides_set_trust_per_project_over_the_file() {
    let fixture = Fixture::new(None);
    std::fs::write(fixture.config_path(), projects_toml(&fixture, "trusted")).unwrap();
    let cwd = fixture.cwd.path().display().to_string();
    let dotted = format!("projects.\"{cwd}\".trust_level=untrusted");
    let config = fixture
        .load_with(&ConfigOverrides::default(), &[dotted.as_str()])
        .unwrap();
    assert_eq!(
        config.active_project.trust_level,
        Some(TrustLevel::Untrusted)
    );

    // A relative project path names a folder under the process's cwd; a whole table works too.
    let table = "projects={ \".\" = { trust_level = \"trusted\" } }";
    let config = Fixture::new(None)
        .load_with(&ConfigOverrides::default(), &[table])
        .unwrap();
    assert_eq!(config.active_project.trust_level, Some(TrustLevel::Trusted));
}

#[test]
fn an_unknown_trust_level_is_an_error_naming_the_key() {
    let fixture = Fixture::new(None);
    std::fs::write(fixture.config_path(), projects_toml(&fixture, "maybe")).unwrap();
    let error = fixture.load().unwrap_err().to_string();
    assert!(error.contains("projects."), "{error}");
    assert!(error.contains("trust_level"), "{error}");
    assert!(
        error.contains("expected `trusted` or `untrusted`"),
        "{error}"
    );
}
