//! Loading config.toml: key names, defaults, layering and errors.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod config_support;

use codex_release::CodexRelease;
use std::collections::BTreeSet;

use codex_config::AgentsToml;
use codex_config::AnalyticsToml;
use codex_config::BundledSkills;
use codex_config::CliOverride;
use codex_config::Config;
use codex_config::ConfigError;
use codex_config::ConfigFile;
use codex_config::ConfigOrigin;
use codex_config::ConfigOverrides;
use codex_config::ConfigToml;
use codex_config::ConfigWarning;
use codex_config::ExtensionHost;
use codex_config::Feature;
use codex_config::Features;
use codex_config::KNOWN_KEYS;
use codex_config::ModelProvider;
use codex_config::ModelProviderToml;
use codex_config::OrchestratorSkills;
use codex_config::ProjectRootMarkersToml;
use codex_config::ProviderKey;
use codex_config::ProviderNetwork;
use codex_config::SkillsConfig;
use codex_config::SkillsToml;
use codex_protocol::AskForApproval;
use codex_protocol::ModeKind;
use codex_protocol::Personality;
use codex_protocol::ReasoningEffort;
use codex_protocol::ReasoningSummary;
use codex_protocol::SandboxMode;
use codex_protocol::Verbosity;
use codex_protocol::rollout::HistoryMode;
use config_support::Fixture;
use pretty_assertions::assert_eq;

#[test]
fn defaults_apply_without_a_config_file() {
    let fixture = Fixture::new(None);
    let config = fixture.load().unwrap();
    assert_eq!(
        config,
        Config {
            codex_home: fixture.codex_home(),
            config_path: fixture.config_path(),
            cwd: fixture.cwd.path().to_path_buf(),
            model: None,
            model_provider: ModelProvider {
                id: "openai".to_string(),
                name: Some("OpenAI".to_string()),
                base_url: None,
                key: ProviderKey::OpenAi,
                http_headers: vec![("version".to_string(), env!("CARGO_PKG_VERSION").to_string())],
                env_http_headers: vec![
                    (
                        "OpenAI-Organization".to_string(),
                        "OPENAI_ORGANIZATION".to_string()
                    ),
                    ("OpenAI-Project".to_string(), "OPENAI_PROJECT".to_string()),
                ],
                ..ModelProvider::default()
            },
            personality: None,
            sandbox_mode: SandboxMode::ReadOnly,
            sandbox_mode_source: codex_config::SettingSource::Default,
            sandbox_workspace_write: codex_config::SandboxWorkspaceWrite::default(),
            permission_profile: None,
            approval_policy: AskForApproval::OnRequest,
            base_instructions: None,
            model_instructions_file: None,
            developer_instructions: None,
            model_catalog: None,
            remote_models: None,
            project_doc_max_bytes: 32 * 1024,
            project_doc_fallback_filenames: Vec::new(),
            project_root_markers: vec![".git".to_string()],
            active_project: codex_config::ActiveProject::default(),
            model_reasoning_effort: None,
            model_reasoning_summary: None,
            model_verbosity: None,
            model_auto_compact_token_limit: None,
            features: Features::default(),
            beta_features: Some("remote_compaction_v2".to_string()),
            current_date: "2026-02-26".to_string(),
            timezone: "UTC".to_string(),
            shell: "bash".to_string(),
            show_raw_agent_reasoning: false,
            history_mode: HistoryMode::Legacy,
            seed: None,
            collaboration_mode: ModeKind::Default,
            collaboration_mode_instructions: None,
            realtime: false,
            current_time_reminder_interval: None,
            skills: None,
            home_dir: Some(fixture.home.path().to_path_buf()),
            extension_host: ExtensionHost::Library,
            release: CodexRelease::REFERENCE,
            analytics_enabled: true,
            agent_max_depth: 1,
            environments: vec![codex_config::SelectedEnvironment::local(
                fixture.cwd.path(),
                "bash",
            )],
            turn_input_contributors: Vec::new(),
            warnings: Vec::new(),
        }
    );
}

#[test]
fn every_upstream_key_is_read() {
    let fixture = Fixture::new(Some(
        r#"
model = "gpt-5.5"
model_provider = { id = "azure", name = "Azure", base_url = "https://example.invalid/v1" }
personality = "friendly"
sandbox_mode = "workspace-write"
approval_policy = "never"
base_instructions = "ignored because a file is set"
model_instructions_file = "instructions.md"
developer_instructions = "be brief"
model_catalog = "catalog.json"
remote_models = "served.json"
project_doc_max_bytes = 0
project_doc_fallback_filenames = ["CLAUDE.md"]
project_root_markers = []
model_reasoning_effort = "high"
model_reasoning_summary = "detailed"
model_verbosity = "low"
model_auto_compact_token_limit = 2000
current_date = "2025-12-31"
timezone = "Europe/Berlin"
shell = "zsh"
show_raw_agent_reasoning = true
history_mode = "paginated"
seed = 42
cwd = "/work/project"
collaboration_mode = "plan"
collaboration_mode_instructions = "Plan in three steps."
realtime = true
current_time_reminder_interval = 3600

[skills]
include_instructions = false

[analytics]
enabled = false

[features]
personality = false
child_agents_md = true
"#,
    ));
    std::fs::write(
        fixture.codex_home().join("instructions.md"),
        "base from file",
    )
    .unwrap();
    let config = fixture.load().unwrap();
    let mut features = Features::default();
    features.set(Feature::Personality, false);
    features.set(Feature::ChildAgentsMd, true);
    assert_eq!(
        config,
        Config {
            codex_home: fixture.codex_home(),
            config_path: fixture.config_path(),
            cwd: "/work/project".into(),
            model: Some("gpt-5.5".to_string()),
            model_provider: ModelProvider {
                id: "azure".to_string(),
                name: Some("Azure".to_string()),
                base_url: Some("https://example.invalid/v1".to_string()),
                ..ModelProvider::default()
            },
            personality: Some(Personality::Friendly),
            sandbox_mode: SandboxMode::WorkspaceWrite,
            sandbox_mode_source: codex_config::SettingSource::Configured,
            sandbox_workspace_write: codex_config::SandboxWorkspaceWrite::default(),
            permission_profile: None,
            approval_policy: AskForApproval::Never,
            base_instructions: Some("base from file".to_string()),
            model_instructions_file: Some(fixture.codex_home().join("instructions.md")),
            developer_instructions: Some("be brief".to_string()),
            model_catalog: Some(fixture.codex_home().join("catalog.json")),
            remote_models: Some(fixture.codex_home().join("served.json")),
            project_doc_max_bytes: 0,
            project_doc_fallback_filenames: vec!["CLAUDE.md".to_string()],
            project_root_markers: Vec::new(),
            active_project: codex_config::ActiveProject::default(),
            model_reasoning_effort: Some(ReasoningEffort::High),
            model_reasoning_summary: Some(ReasoningSummary::Detailed),
            model_verbosity: Some(Verbosity::Low),
            model_auto_compact_token_limit: Some(2000),
            features,
            beta_features: Some("remote_compaction_v2".to_string()),
            current_date: "2025-12-31".to_string(),
            timezone: "Europe/Berlin".to_string(),
            shell: "zsh".to_string(),
            show_raw_agent_reasoning: true,
            history_mode: HistoryMode::Paginated,
            seed: Some(42),
            collaboration_mode: ModeKind::Plan,
            collaboration_mode_instructions: Some("Plan in three steps.".to_string()),
            realtime: true,
            current_time_reminder_interval: Some(3600),
            skills: Some(SkillsConfig {
                include_instructions: false,
                bundled: BundledSkills::Enabled,
                host: Vec::new(),
                orchestrator: OrchestratorSkills::Absent,
            }),
            home_dir: Some(fixture.home.path().to_path_buf()),
            extension_host: ExtensionHost::Library,
            release: CodexRelease::REFERENCE,
            analytics_enabled: false,
            agent_max_depth: 1,
            environments: vec![codex_config::SelectedEnvironment::local(
                std::path::Path::new("/work/project"),
                "zsh",
            )],
            turn_input_contributors: Vec::new(),
            warnings: Vec::new(),
        }
    );
}

#[test]
fn known_keys_are_exactly_the_config_toml_fields() {
    let full = ConfigToml {
        model: Some(String::new()),
        model_provider: Some(ModelProviderToml::Table(Box::default())),
        model_providers: Some(Default::default()),
        openai_base_url: Some(String::new()),
        personality: Some(Personality::None),
        sandbox_mode: Some(SandboxMode::ReadOnly),
        sandbox_workspace_write: Some(Default::default()),
        default_permissions: Some(String::new()),
        permissions: Some(Default::default()),
        approval_policy: Some(AskForApproval::Never),
        base_instructions: Some(String::new()),
        model_instructions_file: Some("f".into()),
        developer_instructions: Some(String::new()),
        model_catalog: Some("c".into()),
        remote_models: Some("r".into()),
        project_doc_max_bytes: Some(1),
        project_doc_fallback_filenames: Some(Vec::new()),
        project_root_markers: Some(ProjectRootMarkersToml::Markers(Vec::new())),
        projects: Some(Default::default()),
        model_reasoning_effort: Some(ReasoningEffort::Low),
        model_reasoning_summary: Some(ReasoningSummary::Auto),
        model_verbosity: Some(Verbosity::Medium),
        model_auto_compact_token_limit: Some(1),
        features: Some(Default::default()),
        current_date: Some(String::new()),
        timezone: Some(String::new()),
        shell: Some(String::new()),
        show_raw_agent_reasoning: Some(true),
        history_mode: Some(HistoryMode::Legacy),
        seed: Some(1),
        cwd: Some("/".into()),
        collaboration_mode: Some(ModeKind::Default),
        collaboration_mode_instructions: Some(String::new()),
        realtime: Some(false),
        current_time_reminder_interval: Some(1),
        skills: Some(SkillsToml::default()),
        codex_version: Some(CodexRelease::V0_171),
        analytics: Some(AnalyticsToml {
            enabled: Some(true),
        }),
        agents: Some(AgentsToml { max_depth: Some(1) }),
        environments: Some(Vec::new()),
        turn_input_contributors: Some(Vec::new()),
    };
    let table = toml::Table::try_from(&full).unwrap();
    let fields: BTreeSet<&str> = table.keys().map(String::as_str).collect();
    assert_eq!(fields, KNOWN_KEYS.iter().copied().collect::<BTreeSet<_>>());
}

#[test]
fn agents_max_depth_is_read_from_the_file_and_overridden_by_the_command_line() {
    let fixture = Fixture::new(Some(
        "[agents]\nmax_depth = 3\nmax_concurrent_threads_per_session = 4\n",
    ));
    let from_file = fixture.load_with(&ConfigOverrides::default(), &[]).unwrap();
    assert_eq!(from_file.agent_max_depth, 3);
    let overridden = fixture
        .load_with(&ConfigOverrides::default(), &["agents.max_depth=2"])
        .unwrap();
    assert_eq!(overridden.agent_max_depth, 2);
    let unset = Fixture::new(None)
        .load_with(&ConfigOverrides::default(), &[])
        .unwrap();
    assert_eq!(unset.agent_max_depth, codex_config::DEFAULT_AGENT_MAX_DEPTH);
}

#[test]
fn cli_overrides_beat_the_file_and_flags_beat_cli_overrides() {
    let fixture = Fixture::new(Some(
        "model = \"from-file\"\nsandbox_mode = \"read-only\"\npersonality = \"friendly\"\n[features]\napps = false\n",
    ));
    let flags = ConfigOverrides {
        model: Some("from-flag".to_string()),
        ..ConfigOverrides::default()
    };
    let config = fixture
        .load_with(
            &flags,
            &[
                "model=from-cli",
                "sandbox_mode=danger-full-access",
                "sandbox_mode=workspace-write",
                "features.token_budget=true",
                "collaboration_mode_instructions=Rolled back.",
                "show_raw_agent_reasoning=true",
                "history_mode=paginated",
            ],
        )
        .unwrap();
    assert_eq!(config.model.as_deref(), Some("from-flag"));
    assert!(config.show_raw_agent_reasoning);
    assert_eq!(config.history_mode, HistoryMode::Paginated);
    assert_eq!(
        config.collaboration_mode_instructions.as_deref(),
        Some("Rolled back.")
    );
    assert_eq!(config.sandbox_mode, SandboxMode::WorkspaceWrite);
    assert_eq!(config.personality, Some(Personality::Friendly));
    let mut features = Features::default();
    features.set(Feature::Apps, false);
    features.set(Feature::TokenBudget, true);
    assert_eq!(config.features, features);
}

#[test]
fn cli_override_values_are_toml_or_else_strings() {
    let parse = |raw: &str| raw.parse::<CliOverride>().unwrap();
    assert_eq!(
        parse("features.personality=false"),
        CliOverride {
            raw: "features.personality=false".to_string(),
            path: vec!["features".to_string(), "personality".to_string()],
            value: toml::Value::Boolean(false),
        }
    );
    assert_eq!(
        parse("model=gpt-5").value,
        toml::Value::String("gpt-5".to_string())
    );
    assert_eq!(
        parse("model=\"quoted\"").value,
        toml::Value::String("quoted".to_string())
    );
    assert_eq!(parse(" seed = 7 ").value, toml::Value::Integer(7));
    assert_eq!(
        parse("project_root_markers=[\".git\", \".hg\"]").value,
        toml::Value::Array(vec![
            toml::Value::String(".git".to_string()),
            toml::Value::String(".hg".to_string()),
        ])
    );
    assert_eq!(
        parse("model=a = b").value,
        toml::Value::String("a = b".to_string())
    );
    assert_eq!(
        parse("model=1\nseed = 2").value,
        toml::Value::String("1\nseed = 2".to_string())
    );
}

#[test]
fn malformed_cli_overrides_are_errors() {
    for (raw, message) in [
        ("model", "-c model: expected key=value"),
        (
            "features..x=1",
            "-c features..x=1: the key must be a dotted path of non-empty names",
        ),
        (
            "=1",
            "-c =1: the key must be a dotted path of non-empty names",
        ),
    ] {
        let error = raw.parse::<CliOverride>().unwrap_err();
        assert_eq!(error.to_string(), message);
    }
    let fixture = Fixture::new(None);
    let error = fixture
        .load_with(&ConfigOverrides::default(), &["sandbox_mode=sideways"])
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "-c sandbox_mode=sideways: unknown variant `sideways`, expected one of `read-only`, `workspace-write`, `danger-full-access`"
    );
}

#[test]
fn unknown_cli_override_keys_warn() {
    let fixture = Fixture::new(None);
    let config = fixture
        .load_with(
            &ConfigOverrides::default(),
            &[
                "mcp_server.x.command=ls",
                "features.mind_reading=true",
                "mcp_servers.x.command=ls",
                "features.shell_snapshot=true",
            ],
        )
        .unwrap();
    assert_eq!(
        config.warnings,
        vec![
            ConfigWarning::UnknownKey {
                origin: ConfigOrigin::CliOverride("mcp_server.x.command=ls".to_string()),
                key: "mcp_server.x.command".to_string(),
            },
            ConfigWarning::UnknownFeature {
                origin: ConfigOrigin::CliOverride("features.mind_reading=true".to_string()),
                key: "mind_reading".to_string(),
            },
        ]
    );
    assert_eq!(
        config.warnings[0].to_string(),
        "-c mcp_server.x.command=ls: unknown config key `mcp_server.x.command` ignored"
    );
}

#[test]
fn feature_flags_toggle_and_unknown_ones_warn() {
    let fixture = Fixture::new(None);
    let flags = ConfigOverrides {
        features: [
            ("child_agents_md".to_string(), true),
            ("plugins".to_string(), false),
            ("warp_drive".to_string(), true),
        ]
        .into_iter()
        .collect(),
        ..ConfigOverrides::default()
    };
    let config = fixture.load_with(&flags, &[]).unwrap();
    assert!(config.features.enabled(Feature::ChildAgentsMd));
    assert!(!config.features.enabled(Feature::Plugins));
    assert_eq!(
        config.warnings,
        vec![ConfigWarning::UnknownFeature {
            origin: ConfigOrigin::Flag {
                key: "features".to_string()
            },
            key: "warp_drive".to_string(),
        }]
    );
}

#[test]
fn default_features_follow_upstream() {
    let enabled: Vec<&str> = Features::default().iter().map(Feature::key).collect();
    assert_eq!(
        enabled,
        vec![
            "personality",
            "apps",
            "plugins",
            "tool_suggest",
            "multi_agent",
            "goals"
        ]
    );
    for feature in Feature::ALL {
        assert_eq!(Feature::from_key(feature.key()), Some(*feature));
    }
}

#[test]
fn model_provider_accepts_an_id_string() {
    let fixture = Fixture::new(Some("model_provider = \"ollama\"\n"));
    assert_eq!(
        fixture.load().unwrap().model_provider,
        ModelProvider {
            id: "ollama".to_string(),
            name: Some("gpt-oss".to_string()),
            base_url: Some("http://localhost:11434/v1".to_string()),
            key: ProviderKey::None,
            ..ModelProvider::default()
        }
    );
}

#[test]
fn codex_home_comes_from_flag_then_env_then_home() {
    let fixture = Fixture::new(None);
    let other = tempfile::tempdir().unwrap();
    let flag_home = tempfile::tempdir().unwrap();
    let mut env = fixture.env();
    env.codex_home = Some(other.path().to_path_buf());
    let config = Config::load(&ConfigOverrides::default(), &[], &env).unwrap();
    assert_eq!(config.codex_home, other.path());
    let flags = ConfigOverrides {
        codex_home: Some(flag_home.path().to_path_buf()),
        ..ConfigOverrides::default()
    };
    assert_eq!(
        Config::load(&flags, &[], &env).unwrap().config_path,
        flag_home.path().join("config.toml")
    );
    env.codex_home = None;
    env.home_dir = None;
    let error = Config::load(&ConfigOverrides::default(), &[], &env).unwrap_err();
    assert!(matches!(error, ConfigError::NoCodexHome));
}

#[test]
fn an_ignored_config_file_is_not_read_even_when_it_is_broken() {
    let fixture = Fixture::new(Some("model = \"from-the-file\"\nnot toml [\n"));
    let flags = ConfigOverrides {
        config_file: ConfigFile::Ignored,
        ..ConfigOverrides::default()
    };
    let ignored = fixture.load_with(&flags, &["seed=3"]).unwrap();
    let without_file = Fixture::new(None);
    let expected = without_file
        .load_with(&ConfigOverrides::default(), &["seed=3"])
        .unwrap();
    assert_eq!(
        ignored,
        Config {
            codex_home: fixture.codex_home(),
            config_path: fixture.config_path(),
            cwd: fixture.cwd.path().to_path_buf(),
            home_dir: Some(fixture.home.path().to_path_buf()),
            environments: vec![codex_config::SelectedEnvironment::local(
                fixture.cwd.path(),
                &expected.shell,
            )],
            ..expected
        }
    );
}

#[test]
fn relative_paths_resolve_against_their_layer() {
    let fixture = Fixture::new(Some("model_catalog = \"catalogs/models.json\"\n"));
    assert_eq!(
        fixture.load().unwrap().model_catalog,
        Some(fixture.codex_home().join("catalogs/models.json"))
    );
    let config = fixture
        .load_with(
            &ConfigOverrides::default(),
            &["model_catalog=local.json", "cwd=sub/../dir"],
        )
        .unwrap();
    assert_eq!(
        config.model_catalog,
        Some(fixture.cwd.path().join("local.json"))
    );
    assert_eq!(config.cwd, fixture.cwd.path().join("dir"));
}

#[test]
fn model_instructions_file_must_be_readable() {
    let fixture = Fixture::new(Some("model_instructions_file = \"missing.md\"\n"));
    let error = fixture.load().unwrap_err();
    assert!(
        error.to_string().starts_with(&format!(
            "cannot read model_instructions_file file {}: ",
            fixture.codex_home().join("missing.md").display()
        )),
        "{error}"
    );
}

#[test]
fn an_unreadable_config_file_is_an_error() {
    let fixture = Fixture::new(None);
    std::fs::create_dir(fixture.config_path()).unwrap();
    let error = fixture.load().unwrap_err();
    assert!(matches!(error, ConfigError::ReadFile { .. }), "{error}");
}

#[test]
fn agents_md_request_uses_config_values() {
    let fixture = Fixture::new(Some(
        "project_doc_max_bytes = 10\nproject_doc_fallback_filenames = [\"X.md\"]\n[features]\nchild_agents_md = true\n",
    ));
    let config = fixture.load().unwrap();
    let request = config.agents_md_request("guidance");
    assert_eq!(request.options.max_bytes, 10);
    assert_eq!(request.options.fallback_filenames, vec!["X.md".to_string()]);
    assert_eq!(request.internal_guidance.as_deref(), Some("guidance"));
    assert_eq!(request.codex_home, Some(fixture.codex_home()));
    assert_eq!(request.environments[0].cwd, fixture.cwd.path());
}

#[test]
fn effective_personality_defaults_to_pragmatic_only_while_the_feature_is_enabled() {
    // (config.toml, configured personality, effective personality)
    let cases = [
        ("", None, Some(Personality::Pragmatic)),
        (
            "personality = \"friendly\"\n",
            Some(Personality::Friendly),
            Some(Personality::Friendly),
        ),
        (
            "personality = \"none\"\n",
            Some(Personality::None),
            Some(Personality::None),
        ),
        ("[features]\npersonality = false\n", None, None),
        (
            "personality = \"friendly\"\n[features]\npersonality = false\n",
            Some(Personality::Friendly),
            Some(Personality::Friendly),
        ),
    ];
    for (text, configured, effective) in cases {
        let config = Fixture::new(Some(text)).load().unwrap();
        assert_eq!(
            (config.personality, config.effective_personality()),
            (configured, effective),
            "{text}"
        );
    }
}

#[test]
fn model_provider_table_sets_retries_and_timeouts() {
    let fixture = Fixture::new(Some(
        "[model_provider]\nid = \"local\"\nbase_url = \"http://127.0.0.1:9/v1\"\n\
         request_max_retries = 0\nstream_max_retries = 500\nstream_idle_timeout_ms = 1500\n\
         connect_timeout_ms = 200\nfirst_byte_timeout_ms = 300\nmodels_timeout_ms = 400\n",
    ));
    assert_eq!(
        fixture.load().unwrap().model_provider,
        ModelProvider {
            id: "local".to_string(),
            name: None,
            base_url: Some("http://127.0.0.1:9/v1".to_string()),
            network: ProviderNetwork {
                request_max_retries: Some(0),
                // Capped as upstream caps it.
                stream_max_retries: Some(100),
                stream_idle_timeout: Some(std::time::Duration::from_millis(1500)),
                connect_timeout: Some(std::time::Duration::from_millis(200)),
                first_byte_timeout: Some(std::time::Duration::from_millis(300)),
                models_timeout: Some(std::time::Duration::from_millis(400)),
            },
            ..ModelProvider::default()
        }
    );
}

#[test]
fn a_zero_provider_timeout_is_an_error_naming_the_key() {
    let fixture = Fixture::new(Some("[model_provider]\nconnect_timeout_ms = 0\n"));
    assert_eq!(
        fixture.load().unwrap_err().to_string(),
        format!(
            "{}:1: key `model_provider.connect_timeout_ms`: a timeout must be at least 1 ms",
            fixture.config_path().display()
        )
    );
}

#[test]
fn codex_version_names_the_release_and_a_flag_beats_the_file() {
    let fixture = Fixture::new(Some("codex_version = \"0.149\"\n"));
    assert_eq!(fixture.load().unwrap().release, CodexRelease::V0_149);
    let flags = ConfigOverrides {
        codex_version: Some(CodexRelease::V0_171),
        ..ConfigOverrides::default()
    };
    assert_eq!(
        fixture.load_with(&flags, &[]).unwrap().release,
        CodexRelease::V0_171
    );
}

#[test]
fn an_unsupported_codex_version_is_an_error_naming_the_supported_ones() {
    let fixture = Fixture::new(Some("codex_version = \"0.160\"\n"));
    let error = fixture.load().unwrap_err().to_string();
    assert!(
        error.contains("unknown Codex release `0.160` (supported: `0.149`, `0.171`)"),
        "{error}"
    );
}

#[test]
fn the_cli_host_defaults_to_the_latest_release_and_the_library_to_the_reference() {
    let fixture = Fixture::new(None);
    let cli = ConfigOverrides {
        extension_host: ExtensionHost::Cli,
        ..ConfigOverrides::default()
    };
    assert_eq!(
        fixture.load_with(&cli, &[]).unwrap().release,
        CodexRelease::LATEST
    );
    assert_eq!(fixture.load().unwrap().release, CodexRelease::REFERENCE);
    let pinned = Fixture::new(Some("codex_version = \"0.149\"\n"));
    assert_eq!(
        pinned.load_with(&cli, &[]).unwrap().release,
        CodexRelease::V0_149
    );
}
