//! `environments` from config.toml and `-c`: a foreign working directory and workspace roots,
//! a thread without any environment, and the AGENTS.md discovery each one asks for.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod config_support;

use codex_config::ConfigError;
use codex_config::ConfigOverrides;
use codex_config::EnvironmentPath;
use codex_config::SelectedEnvironment;
use codex_config::TurnInputContributor;
use config_support::Fixture;
use pretty_assertions::assert_eq;

#[cfg(not(windows))]
#[test]
fn config_toml_selects_foreign_paths_verbatim() {
    let fixture = Fixture::new(Some(
        "[[environments]]\nid = \"local\"\ncwd = 'C:\\workspace'\n\
         workspace_roots = [\"file:///D:/shared\", \"repo\"]\n",
    ));
    let config = fixture.load().unwrap();
    assert!(config.warnings.is_empty(), "{:?}", config.warnings);
    assert_eq!(
        config.environments,
        vec![SelectedEnvironment {
            id: "local".to_string(),
            cwd: EnvironmentPath::Foreign(r"C:\workspace".to_string()),
            workspace_roots: vec![
                EnvironmentPath::Foreign(r"D:\shared".to_string()),
                // A relative root is under the config file's folder.
                EnvironmentPath::Native(fixture.codex_home().join("repo")),
            ],
            shell: "bash".to_string(),
        }]
    );
    // A foreign working directory is not read for project instructions.
    assert_eq!(config.agents_md_request("").environments, Vec::new());
}

#[test]
fn an_empty_list_is_a_thread_without_environments() {
    let fixture = Fixture::new(Some("[[environments]]\nid = \"local\"\n"));
    let config = fixture
        .load_with(&ConfigOverrides::default(), &["environments=[]"])
        .unwrap();
    assert_eq!(config.environments, Vec::new());
    let request = config.agents_md_request("");
    assert_eq!(request.environments, Vec::new());
    assert_eq!(request.codex_home, Some(fixture.codex_home()));
}

#[test]
fn unset_is_one_local_environment_in_the_cwd() {
    let fixture = Fixture::new(None);
    let config = fixture.load().unwrap();
    assert_eq!(
        config.environments,
        vec![SelectedEnvironment::local(&config.cwd, &config.shell)]
    );
}

#[test]
fn a_repeated_id_names_the_key() {
    let fixture = Fixture::new(None);
    let error = fixture
        .load_with(
            &ConfigOverrides::default(),
            &["environments=[{id=\"a\"},{id=\"a\"}]"],
        )
        .unwrap_err();
    assert!(
        matches!(&error, ConfigError::InvalidValue { key, .. } if key == "environments"),
        "{error}"
    );
    assert!(error.to_string().contains("selected twice"), "{error}");
}

#[test]
fn turn_input_contributors_come_from_config_toml_and_c() {
    let fixture = Fixture::new(Some(
        "[[turn_input_contributors]]\nname = \"cwd-note\"\ntext = \"Working in {{ cwd }}.\"\n",
    ));
    let config = fixture.load().unwrap();
    assert!(config.warnings.is_empty(), "{:?}", config.warnings);
    assert_eq!(
        config.turn_input_contributors,
        vec![TurnInputContributor {
            name: "cwd-note".to_string(),
            text: "Working in {{ cwd }}.".to_string(),
        }]
    );
    let config = fixture
        .load_with(
            &ConfigOverrides::default(),
            &["turn_input_contributors=[{name=\"silent\"}]"],
        )
        .unwrap();
    assert_eq!(
        config.turn_input_contributors,
        vec![TurnInputContributor {
            name: "silent".to_string(),
            text: String::new(),
        }]
    );
    let error = fixture
        .load_with(
            &ConfigOverrides::default(),
            &["turn_input_contributors=[{name=\"a b\"}]"],
        )
        .unwrap_err();
    assert!(
        matches!(&error, ConfigError::InvalidValue { key, .. } if key == "turn_input_contributors"),
        "{error}"
    );
}
