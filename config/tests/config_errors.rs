//! Malformed config.toml: errors name file, line, column and key; unknown keys
//! and invalid markers only warn.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod config_support;

use codex_config::ConfigError;
use codex_config::ConfigOrigin;
use codex_config::ConfigWarning;
use config_support::Fixture;
use pretty_assertions::assert_eq;

fn load_error(text: &str) -> (Fixture, String) {
    let fixture = Fixture::new(Some(text));
    let error = fixture.load().unwrap_err();
    let message = error.to_string();
    (fixture, message)
}

#[test]
fn syntax_error_names_file_line_and_column() {
    let (fixture, message) = load_error("model = \"gpt\"\nsandbox_mode = \"read-only\nseed = 1\n");
    assert_eq!(
        message,
        format!(
            "{}:2:26: invalid basic string",
            fixture.config_path().display()
        )
    );
}

#[test]
fn wrong_enum_value_names_the_key() {
    let (fixture, message) = load_error("model = \"gpt\"\n\nsandbox_mode = \"bogus\"\n");
    assert_eq!(
        message,
        format!(
            "{}:3:16: key `sandbox_mode`: unknown variant `bogus`, expected one of `read-only`, `workspace-write`, `danger-full-access`",
            fixture.config_path().display()
        )
    );
}

#[test]
fn wrong_type_inside_a_table_names_the_dotted_key() {
    let (fixture, message) = load_error("model = \"gpt\"\n\n[features]\napps = \"yes\"\n");
    assert_eq!(
        message,
        format!(
            "{}:4:8: key `features.apps`: invalid type: string \"yes\", expected a boolean or a feature table",
            fixture.config_path().display()
        )
    );
}

#[test]
fn negative_byte_limit_is_rejected() {
    let (fixture, message) = load_error("project_doc_max_bytes = -1\n");
    assert_eq!(
        message,
        format!(
            "{}:1:25: key `project_doc_max_bytes`: invalid value: integer `-1`, expected usize",
            fixture.config_path().display()
        )
    );
}

#[test]
fn bad_element_in_a_multiline_array_names_the_array_key() {
    let (fixture, message) =
        load_error("project_doc_fallback_filenames = [\n  \"A.md\",\n  7,\n]\n");
    assert_eq!(
        message,
        format!(
            "{}:3:3: key `project_doc_fallback_filenames`: invalid type: integer `7`, expected a string",
            fixture.config_path().display()
        )
    );
}

#[test]
fn unknown_provider_table_field_names_the_key() {
    let (_, message) = load_error("model_provider = { id = \"x\", colour = \"red\" }\n");
    assert!(
        message.contains(":1:18: key `model_provider`: "),
        "{message}"
    );
}

#[test]
fn invalid_pinned_date_names_the_line() {
    let (fixture, message) = load_error("model = \"m\"\ncurrent_date = \"26/02/2026\"\n");
    assert_eq!(
        message,
        format!(
            "{}:2: key `current_date`: `26/02/2026` is not a date in YYYY-MM-DD form",
            fixture.config_path().display()
        )
    );
}

#[test]
fn unknown_keys_and_features_warn_with_their_line() {
    let fixture = Fixture::new(Some(
        "model = \"m\"\nnotifications = [\"say\"]\n\n[features]\npersonality = true\nwarp_drive = false\nshell_snapshot = true\n\n[mcp_server.docs]\ncommand = \"docs\"\n\n[projects.\"/repo\"]\ntrust_level = \"trusted\"\nmood = \"calm\"\n[history]\npersistence = \"none\"\n",
    ));
    let config = fixture.load().unwrap();
    let at = |line| ConfigOrigin::File {
        path: fixture.config_path(),
        line: Some(line),
    };
    assert_eq!(
        config.warnings,
        vec![
            ConfigWarning::UnknownKey {
                origin: at(2),
                key: "notifications".to_string(),
            },
            ConfigWarning::UnknownKey {
                origin: at(9),
                key: "mcp_server".to_string(),
            },
            ConfigWarning::UnknownKey {
                origin: at(14),
                key: "projects./repo.mood".to_string(),
            },
            // `shell_snapshot` is one of upstream's features: no warning.
            ConfigWarning::UnknownFeature {
                origin: at(6),
                key: "warp_drive".to_string(),
            },
        ]
    );
    assert_eq!(
        config.warnings[0].to_string(),
        format!(
            "{}:2: unknown config key `notifications` ignored",
            fixture.config_path().display()
        )
    );
}

#[test]
fn invalid_project_root_markers_warn_and_use_the_default() {
    let fixture = Fixture::new(Some("project_root_markers = \".git\"\n"));
    let config = fixture.load().unwrap();
    assert_eq!(config.project_root_markers, vec![".git".to_string()]);
    assert_eq!(
        config.warnings,
        vec![ConfigWarning::InvalidProjectRootMarkers {
            origin: ConfigOrigin::File {
                path: fixture.config_path(),
                line: Some(1),
            },
        }]
    );
}

#[test]
fn empty_project_root_markers_disable_the_walk() {
    let fixture = Fixture::new(Some("project_root_markers = []\n"));
    assert_eq!(
        fixture.load().unwrap().project_root_markers,
        Vec::<String>::new()
    );
}

#[test]
fn errors_are_single_lines() {
    for text in [
        "model = \"x\nseed = 1\n",
        "seed = \"many\"\n",
        "[features\n",
        "approval_policy = { granular = { rules = true } }\n",
    ] {
        let fixture = Fixture::new(Some(text));
        let error = fixture.load().unwrap_err();
        assert!(matches!(error, ConfigError::Parse { .. }), "{error}");
        assert!(!error.to_string().contains('\n'), "{error}");
    }
}

/// Upstream Codex refuses `approval_policy = "untrusted"` as a setting; a wrong name lists the
/// names a user may choose, the same ones `--approval` lists.
#[test]
fn approval_policy_untrusted_and_unknown_names_are_refused_with_the_choosable_names() {
    let (fixture, untrusted) = load_error("model = \"gpt\"\napproval_policy = \"untrusted\"\n");
    let (unknown_fixture, unknown) = load_error("approval_policy = \"sometimes\"\n");
    assert_eq!(
        (untrusted, unknown),
        (
            format!(
                "{}:2: key `approval_policy`: approval policy `untrusted` is no longer supported \
                 (expected one of: on-request, never)",
                fixture.config_path().display()
            ),
            format!(
                "{}:1:19: key `approval_policy`: unknown approval policy `sometimes` (expected \
                 one of: on-request, never)",
                unknown_fixture.config_path().display()
            ),
        )
    );
    let fixture = Fixture::new(None);
    let overrides: Result<Vec<codex_config::CliOverride>, _> = ["approval_policy=untrusted"]
        .iter()
        .map(|raw| raw.parse())
        .collect();
    assert_eq!(
        overrides.unwrap_err().to_string(),
        "-c approval_policy=untrusted: approval policy `untrusted` is no longer supported \
         (expected one of: on-request, never)"
    );
    // A granular table and the retired `on-failure` name still load.
    let granular = Fixture::new(Some(
        "approval_policy = { granular = { sandbox_approval = true, rules = false, \
         mcp_elicitations = true } }\n",
    ));
    assert_eq!(
        (
            granular.load().unwrap().approval_policy.to_string(),
            fixture
                .load_with(&Default::default(), &["approval_policy=on-failure"])
                .unwrap()
                .approval_policy
                .to_string()
        ),
        ("granular".to_string(), "on-request".to_string())
    );
}
