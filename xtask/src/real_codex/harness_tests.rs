use std::path::Path;

use pretty_assertions::assert_eq;

use super::gaps::FindingPlace;
use super::gaps::assign;
use super::*;

fn workspace_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
}

#[test]
fn every_scenario_and_the_gap_list_load() {
    let scenarios =
        scenario::load_scenarios(&workspace_root().join(SCENARIOS_DIR)).expect("scenarios");
    assert!(scenarios.len() >= 20, "{} scenarios", scenarios.len());
    assert!(scenarios.iter().all(|scenario| !scenario.about.is_empty()));
    let gaps = gaps::load_gaps(&workspace_root().join(GAPS_PATH)).expect("gaps");
    assert!(gaps.iter().all(|gap| !gap.cause.trim().is_empty()));
}

#[test]
fn scenario_files_must_stay_inside_the_run_folder() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("escape.json");
    std::fs::write(
        &path,
        r#"{"about": "x", "files": {"repo/../../etc/x": "y"}, "steps": [{"prompt": "hi"}]}"#,
    )
    .expect("write");
    let error = scenario::load_scenario(&path).expect_err("rejected");
    assert_eq!(
        error.to_string(),
        format!(
            "{}: file `repo/../../etc/x` must be under `repo/` or `codex_home/`",
            path.display()
        )
    );
}

#[test]
fn only_loopback_connections_are_allowed() {
    let stderr = "\
2026-01-01T00:00:00Z DEBUG reqwest::connect: starting new connection: http://127.0.0.1:4000/
codex
2026-01-01T00:00:01Z DEBUG reqwest::connect: starting new connection: https://chatgpt.com/
";
    assert_eq!(
        outside_connection(stderr),
        Some("https://chatgpt.com/".to_string())
    );
    assert_eq!(outside_connection(&stderr[..90]), None);
}

#[test]
fn findings_lose_the_run_folder_and_config_line_numbers() {
    assert_eq!(
        normalise_text(
            "WARN /tmp/r/x/codex_home/config.toml:12: unknown config key `a` ignored",
            "/tmp/r/x"
        ),
        "WARN <run>/codex_home/config.toml: unknown config key `a` ignored"
    );
    assert_eq!(normalise_text("config.toml:x", "/none"), "config.toml:x");
}

/// Every scenario's config.toml, as the harness writes it and with the project trust 0.149.1
/// appends, loads without a warning, and names the mock provider with its key variable: `send`
/// needs no endpoint flags.
#[test]
fn every_scenarios_config_toml_loads_without_warnings_and_names_the_mock() {
    let scenarios =
        scenario::load_scenarios(&workspace_root().join(SCENARIOS_DIR)).expect("scenarios");
    for scenario in &scenarios {
        let home = tempfile::tempdir().expect("tempdir");
        let text = real_run::config_toml(scenario, "http://127.0.0.1:9/v1").expect("toml")
            + "\n[projects.\"/runs/0.149.1/x/repo\"]\ntrust_level = \"trusted\"\n";
        std::fs::write(home.path().join("config.toml"), text).expect("write");
        let flags = codex_config::ConfigOverrides {
            codex_home: Some(home.path().to_path_buf()),
            cwd: Some(home.path().to_path_buf()),
            current_date: Some("2026-11-30".to_string()),
            timezone: Some("Etc/UTC".to_string()),
            ..Default::default()
        };
        let env = codex_config::ConfigEnv::from_process();
        let config = codex_config::Config::load(&flags, &[], &env).expect("config loads");
        assert_eq!(config.warnings, Vec::new(), "{}", scenario.about);
        assert_eq!(
            (
                config.model_provider.base_url.as_deref(),
                &config.model_provider.key
            ),
            (
                Some("http://127.0.0.1:9/v1"),
                &codex_config::ProviderKey::Env(real_run::API_KEY_ENV.to_string())
            )
        );
    }
}

#[test]
fn config_toml_adds_the_scenarios_keys_to_the_harness_settings() {
    let scenario: Scenario = serde_json::from_value(serde_json::json!({
        "about": "x",
        "config": {"model": "gpt-5.5", "features": {"goals": false}},
        "steps": [{"prompt": "hi"}]
    }))
    .expect("scenario");
    let text = real_run::config_toml(&scenario, "http://127.0.0.1:9/v1").expect("toml");
    assert_eq!(
        text,
        r#"check_for_update_on_startup = false
model = "gpt-5.5"
model_provider = "mock"

[analytics]
enabled = false

[features]
goals = false
plugins = false

[feedback]
enabled = false

[history]
persistence = "none"

[model_providers.mock]
base_url = "http://127.0.0.1:9/v1"
env_key = "MOCK_API_KEY"
name = "mock"
wire_api = "responses"
"#
    );
}

fn gap(id: &str, patterns: &[&str], versions: &[&str]) -> Gap {
    Gap {
        id: id.to_string(),
        title: format!("title {id}"),
        cause: format!("cause {id}"),
        patterns: patterns.iter().map(ToString::to_string).collect(),
        versions: versions.iter().map(ToString::to_string).collect(),
        scenarios: Vec::new(),
        columns: Vec::new(),
    }
}

#[test]
fn a_difference_belongs_to_the_first_gap_that_matches_its_place_and_text() {
    let gaps = [
        gap("R1", &["tool"], &["2.0"]),
        gap("R2", &["tool", "id"], &[]),
    ];
    let place = |version| FindingPlace {
        version,
        scenario: "s",
        column: "first request",
    };
    let id = |version, text| assign(&gaps, place(version), text).map(|gap| gap.id.clone());
    assert_eq!(id("2.0", "tool x only in A"), Some("R1".to_string()));
    assert_eq!(id("1.0", "tool x only in A"), Some("R2".to_string()));
    assert_eq!(id("1.0", "header y only in A"), None);
}

#[test]
fn the_table_shows_cells_gaps_and_problems() {
    let scenario: Scenario = serde_json::from_value(serde_json::json!({
        "about": "A first turn.", "steps": [{"prompt": "hi"}]
    }))
    .map(|mut scenario: Scenario| {
        scenario.name = "bare".to_string();
        scenario
    })
    .expect("scenario");
    let cells = |first: &[&str]| {
        Column::ALL
            .iter()
            .map(|column| {
                let cell = match column {
                    Column::FirstRequest => {
                        Cell::Checked(first.iter().map(ToString::to_string).collect())
                    }
                    Column::InspectRebuild | Column::RolloutWritten => Cell::Checked(Vec::new()),
                    Column::LaterRequests | Column::Resume => Cell::NotApplicable,
                };
                (*column, cell)
            })
            .collect()
    };
    let runs = [
        RunResult {
            scenario: "bare".to_string(),
            version: "1.0".to_string(),
            outcome: Ok(cells(&["tool a only in A", "header b only in A"])),
        },
        RunResult {
            scenario: "bare".to_string(),
            version: "2.0".to_string(),
            outcome: Err("step 1: the binary connected to https://x/".to_string()),
        },
    ];
    let gaps = [gap("R1", &["tool"], &[]), gap("R2", &["never seen"], &[])];
    let rendered = render(&runs, &[scenario], &["1.0", "2.0"], &gaps);
    assert_eq!(
        rendered.problems,
        [
            "bare with 2.0: step 1: the binary connected to https://x/",
            "gap R2 (title R2) matches no difference any more",
            "no gap explains `header b only in A` (bare@1.0 (first request))",
        ]
    );
    let body = rendered
        .text
        .split_once("## Summary")
        .map(|(_, body)| body)
        .expect("summary");
    insta::assert_snapshot!(body);
}
