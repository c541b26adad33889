//! Reproducibility inputs (date, time zone, shell) and how configuration ties
//! into AGENTS.md discovery.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod config_support;

use codex_config::Config;
use codex_config::ConfigOverrides;
use codex_config::ConfigWarning;
use codex_config::LocalFileSystem;
use codex_config::discover_agents_md_blocking;
use config_support::Fixture;
use pretty_assertions::assert_eq;
use std::sync::Arc;

fn date_timezone_shell(config: &Config) -> (&str, &str, &str) {
    (&config.current_date, &config.timezone, &config.shell)
}

#[test]
fn pinned_values_win_over_the_environment() {
    let fixture = Fixture::new(Some(
        "current_date = \"2024-01-02\"\ntimezone = \"Mars/Olympus_Mons\"\nshell = \"fish\"\n",
    ));
    let mut env = fixture.env();
    env.tz = Some("Asia/Tokyo".to_string());
    env.shell = Some("/bin/zsh".to_string());
    let config = Config::load(&ConfigOverrides::default(), &[], &env).unwrap();
    // A pinned date needs no zone lookup, so any pinned zone name is accepted.
    assert_eq!(
        date_timezone_shell(&config),
        ("2024-01-02", "Mars/Olympus_Mons", "fish")
    );
}

#[test]
fn flags_pin_values_over_the_file() {
    let fixture = Fixture::new(Some("current_date = \"2024-01-02\"\nshell = \"fish\"\n"));
    let flags = ConfigOverrides {
        current_date: Some("2030-06-07".to_string()),
        timezone: Some("UTC".to_string()),
        shell: Some("pwsh".to_string()),
        ..ConfigOverrides::default()
    };
    let config = fixture.load_with(&flags, &[]).unwrap();
    assert_eq!(date_timezone_shell(&config), ("2030-06-07", "UTC", "pwsh"));
}

#[test]
fn unpinned_date_is_today_in_the_tz_zone() {
    let fixture = Fixture::new(None);
    let mut env = fixture.env();
    // 2026-02-26T20:00:00Z is already the 27th in Tokyo.
    env.tz = Some(":Asia/Tokyo".to_string());
    env.shell = Some("/usr/local/bin/zsh".to_string());
    let config = Config::load(&ConfigOverrides::default(), &[], &env).unwrap();
    assert_eq!(
        date_timezone_shell(&config),
        ("2026-02-27", "Asia/Tokyo", "zsh")
    );
}

#[test]
fn tz_may_be_a_zoneinfo_path_and_system_zone_is_the_fallback() {
    let fixture = Fixture::new(None);
    let mut env = fixture.env();
    env.tz = Some("/usr/share/zoneinfo/America/New_York".to_string());
    let config = Config::load(&ConfigOverrides::default(), &[], &env).unwrap();
    assert_eq!(config.timezone, "America/New_York");
    assert_eq!(config.current_date, "2026-02-26");

    env.tz = None;
    env.system_timezone = Some("Pacific/Kiritimati".to_string());
    let config = Config::load(&ConfigOverrides::default(), &[], &env).unwrap();
    assert_eq!(config.timezone, "Pacific/Kiritimati");
    assert_eq!(config.current_date, "2026-02-27");

    env.system_timezone = None;
    let config = Config::load(&ConfigOverrides::default(), &[], &env).unwrap();
    assert_eq!(config.timezone, "UTC");
}

#[test]
fn unknown_system_zone_falls_back_to_utc_with_a_warning() {
    let fixture = Fixture::new(None);
    let mut env = fixture.env();
    env.tz = Some("Nowhere/Special".to_string());
    let config = Config::load(&ConfigOverrides::default(), &[], &env).unwrap();
    assert_eq!(config.timezone, "Nowhere/Special");
    assert_eq!(config.current_date, "2026-02-26");
    assert_eq!(
        config.warnings,
        vec![ConfigWarning::UnknownSystemTimezone {
            name: "Nowhere/Special".to_string(),
        }]
    );
}

#[test]
fn unknown_pinned_zone_without_a_pinned_date_is_an_error() {
    let fixture = Fixture::new(Some("model = \"m\"\ntimezone = \"Nowhere/Special\"\n"));
    let error = fixture.load().unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "{}:2: key `timezone`: `Nowhere/Special` is not in the time zone database (pin current_date to use it anyway)",
            fixture.config_path().display()
        )
    );
    let error = fixture
        .load_with(&ConfigOverrides::default(), &["timezone=Also/Nowhere"])
        .unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("-c timezone=Also/Nowhere: key `timezone`: "),
        "{error}"
    );
}

#[test]
fn invalid_date_from_a_flag_names_the_flag() {
    let fixture = Fixture::new(None);
    let flags = ConfigOverrides {
        current_date: Some("2026-02-30".to_string()),
        ..ConfigOverrides::default()
    };
    let error = fixture.load_with(&flags, &[]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "command-line flag for `current_date`: key `current_date`: `2026-02-30` is not a date in YYYY-MM-DD form"
    );
}

#[test]
fn same_inputs_give_the_same_config() {
    let fixture = Fixture::new(Some("model = \"m\"\n[features]\ntoken_budget = true\n"));
    assert_eq!(fixture.load().unwrap(), fixture.load().unwrap());
}

#[test]
fn project_layers_do_not_override_project_root_markers() {
    let fixture = Fixture::new(None);
    let root = fixture.cwd.path();
    std::fs::write(root.join(".git"), "").unwrap();
    std::fs::write(root.join("AGENTS.md"), "root doc").unwrap();
    let nested = root.join("nested");
    std::fs::create_dir_all(nested.join(".codex")).unwrap();
    std::fs::write(nested.join("AGENTS.md"), "nested doc").unwrap();
    // A project-level config trying to move the root is never read.
    std::fs::write(
        nested.join(".codex/config.toml"),
        "project_root_markers = [\".ignored-nested-marker\"]\n",
    )
    .unwrap();
    std::fs::create_dir_all(root.join(".codex")).unwrap();
    std::fs::write(
        root.join(".codex/config.toml"),
        "project_root_markers = [\".ignored-root-marker\"]\n",
    )
    .unwrap();

    let flags = ConfigOverrides {
        cwd: Some(nested.clone()),
        ..ConfigOverrides::default()
    };
    let config = fixture.load_with(&flags, &[]).unwrap();
    assert_eq!(config.project_root_markers, vec![".git".to_string()]);
    let discovery =
        discover_agents_md_blocking(&config.agents_md_request(""), Arc::new(LocalFileSystem))
            .unwrap();
    assert_eq!(
        discovery.sources(),
        vec![
            root.join("AGENTS.md").as_path(),
            nested.join("AGENTS.md").as_path()
        ]
    );
}

#[test]
fn markers_from_cli_overrides_are_honoured() {
    let fixture = Fixture::new(None);
    let root = fixture.cwd.path();
    std::fs::write(root.join(".codex-root"), "").unwrap();
    std::fs::write(root.join("AGENTS.md"), "parent doc").unwrap();
    let nested = root.join("dir1");
    std::fs::create_dir_all(nested.join(".git")).unwrap();
    std::fs::write(nested.join("AGENTS.md"), "child doc").unwrap();
    let flags = ConfigOverrides {
        cwd: Some(nested.clone()),
        ..ConfigOverrides::default()
    };
    let config = fixture
        .load_with(&flags, &["project_root_markers=[\".codex-root\"]"])
        .unwrap();
    let discovery =
        discover_agents_md_blocking(&config.agents_md_request(""), Arc::new(LocalFileSystem))
            .unwrap();
    assert_eq!(
        discovery.text(),
        Some("parent doc\n\nchild doc".to_string())
    );
    assert_eq!(config.warnings, Vec::<ConfigWarning>::new());
}
