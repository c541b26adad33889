//! First-turn assembly cost next to serialising the request it produces.
//!
//! `assembly` builds the world state, the initial context and the request body from a ready
//! turn context (every section enabled, a three-level AGENTS.md chain; discovery is not part of
//! it) and the turn's tool list. `serialize` writes the resulting body with serde_json. The
//! target is assembly within twice the serialisation time (docs/benchmarks.md). `tools`
//! (building the built-in tool list) and the two `stage_*` functions are reported alongside.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::time::Duration;

use codex_config::AgentsMdDiscovery;
use codex_config::EnvironmentRole;
use codex_config::Feature;
use codex_config::GlobalInstructions;
use codex_config::ProjectDoc;
use codex_core::Availability;
use codex_core::DeferredToolNamespace;
use codex_core::FirstTurnOptions;
use codex_core::IdGenerator;
use codex_core::MultiAgentMode;
use codex_core::MultiAgentSettings;
use codex_core::MultiAgentUsageHintSectionInputs;
use codex_core::TurnContext;
use codex_core::UsageHintSource;
use codex_core::build_first_turn_request;
use codex_core::build_initial_context_with_world_state;
use codex_core::build_world_state_for_step;
use codex_models_manager::ModelCatalog;
use codex_prompts::TemplateSet;
use codex_protocol::Personality;
use codex_protocol::SandboxPolicy;
use criterion::BatchSize;
use criterion::Criterion;
use criterion::criterion_group;
use criterion::criterion_main;

const CWD: &str = "/work/project/crates/core";

fn project_doc(path: &str, text: String) -> ProjectDoc {
    ProjectDoc {
        path: PathBuf::from(path),
        bytes_used: text.len(),
        text,
        truncated_bytes: 0,
        environment_id: "local".to_string(),
        environment_cwd: PathBuf::from(CWD),
        environment_role: EnvironmentRole::Primary,
    }
}

/// A turn with every world-state section present and a global plus three-level project
/// AGENTS.md chain of a few kilobytes.
fn full_turn() -> TurnContext {
    let catalog = ModelCatalog::bundled().expect("bundled catalog");
    let model = catalog.lookup("gpt-5.5").info;
    let mut turn = TurnContext::for_model(
        "01a22b42-ae40-770d-b259-e4e1cb631c66",
        "01a22b42-ae42-76d0-8233-a1c4cb77febe",
        model,
        CWD,
    );
    turn.personality = Some(Personality::Friendly);
    turn.current_date = "2026-11-30".to_string();
    turn.timezone = "Etc/UTC".to_string();
    turn.sandbox_policy = SandboxPolicy::new_workspace_write_policy();
    for feature in Feature::ALL {
        turn.features.set(*feature, true);
    }
    turn.developer_instructions = Some("Prefer small, reviewed commits.".to_string());
    turn.managed_developer_instructions = Some("Never upload source code.".to_string());
    turn.token_budget.guidance_message = Some("Summarise long tool output.".to_string());
    turn.realtime.active = true;
    turn.apps = Availability::Available;
    turn.plugins = Availability::Available;
    turn.multi_agent = MultiAgentSettings {
        mode: Some(MultiAgentMode::Proactive),
        usage_hint: Some(MultiAgentUsageHintSectionInputs {
            text: "Give each sub-agent one narrow task.".to_string(),
            source: UsageHintSource::Catalog,
        }),
    };
    turn.deferred_tool_namespaces = (0..8)
        .map(|index| DeferredToolNamespace {
            name: format!("namespace_{index}"),
            description: format!("Tools of service {index}.\nDetails."),
        })
        .collect();
    let paragraph = "Keep functions short, test every public API and document why, not what.\n";
    turn.agents_md = Some(AgentsMdDiscovery {
        global: Some(GlobalInstructions {
            path: PathBuf::from("/home/user/.codex/AGENTS.md"),
            text: paragraph.repeat(8).trim().to_string(),
        }),
        project_docs: vec![
            project_doc("/work/project/AGENTS.md", paragraph.repeat(24)),
            project_doc("/work/project/crates/AGENTS.md", paragraph.repeat(16)),
            project_doc("/work/project/crates/core/AGENTS.md", paragraph.repeat(8)),
        ],
        internal_guidance: None,
        primary_cwd: Some(PathBuf::from(CWD)),
        project_docs_policy: codex_config::ProjectDocsPolicy::Discover,
        warnings: Vec::new(),
    });
    turn
}

fn first_turn(c: &mut Criterion) {
    let turn = full_turn();
    let templates = TemplateSet::embedded();
    let options = FirstTurnOptions {
        user_message: Some("hello"),
        ..FirstTurnOptions::default()
    };
    let start = "2026-11-30T07:02:00Z".parse().expect("timestamp");
    let ids = IdGenerator::seeded(7, start);
    let tools = turn
        .builtin_tools(&codex_prompts::TemplateSet::embedded())
        .expect("tools");
    let request = build_first_turn_request(&turn, tools.clone(), &templates, &ids, options)
        .expect("request")
        .request;
    let bytes = serde_json::to_vec(&request).expect("serialize").len();
    eprintln!("first-turn request body: {bytes} bytes");

    let mut group = c.benchmark_group("first_turn");
    group.bench_function("assembly", |b| {
        // The turn's tool list is built by the tool layer and moved into the body, so each
        // iteration gets its own copy outside the timing; dropping the result is not assembly
        // either.
        b.iter_batched(
            || tools.clone(),
            |tools| {
                let ids = IdGenerator::seeded(7, start);
                build_first_turn_request(&turn, tools, &templates, &ids, options).expect("request")
            },
            BatchSize::SmallInput,
        )
    });
    group.bench_function("tools", |b| {
        b.iter_with_large_drop(|| {
            turn.builtin_tools(&codex_prompts::TemplateSet::embedded())
                .expect("tools")
        })
    });
    // The stages of `assembly`, for finding where its time goes.
    group.bench_function("stage_world_state", |b| {
        b.iter_with_large_drop(|| {
            build_world_state_for_step(&turn, &templates).expect("world state")
        })
    });
    let world_state = build_world_state_for_step(&turn, &templates).expect("world state");
    group.bench_function("stage_initial_context", |b| {
        b.iter_with_large_drop(|| {
            build_initial_context_with_world_state(&turn, &world_state, &templates)
        })
    });
    group.bench_function("serialize", |b| {
        b.iter(|| serde_json::to_vec(&request).expect("serialize"))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    // Short runs: CI-sized machines have two cores and this is not part of CI.
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = first_turn
}
criterion_main!(benches);
