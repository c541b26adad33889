//! Shared fixtures for the request tests: hand-built catalog entries, a seeded generator, a
//! first-turn input, and a small `CreateResponse` shape validator.
#![allow(dead_code)]

pub mod validator;

use std::path::PathBuf;

use codex_core::ClientMetadata;
use codex_core::IdGenerator;
use codex_core::ROOT_AGENT_NAME;
use codex_core::RequestKind;
use codex_core::TurnMetadata;
use codex_core::stamp_recorded_item;
use codex_protocol::ContentItem;
use codex_protocol::ReasoningSummary;
use codex_protocol::ResponseItem;
use codex_protocol::SandboxMode;
use codex_protocol::Verbosity;
use codex_protocol::openai_models::ApplyPatchToolType;
use codex_protocol::openai_models::ConfigShellToolType;
use codex_protocol::openai_models::ModelInfo;
use codex_protocol::openai_models::ReasoningEffort;
use codex_protocol::openai_models::WebSearchToolType;

pub const PINNED_START: &str = "2026-11-30T07:02:00Z";
pub const BASE_INSTRUCTIONS: &str = "You are a test agent.\n\nFollow the plan.";

pub fn seeded(seed: u64) -> IdGenerator {
    IdGenerator::seeded(seed, PINNED_START.parse().expect("pinned start"))
}

/// A catalog entry shaped like upstream's `gpt-5.5`.
pub fn standard_model() -> ModelInfo {
    let mut model = ModelInfo::with_defaults("gpt-5.5");
    model.support_verbosity = true;
    model.default_verbosity = Some(Verbosity::Low);
    model.apply_patch_tool_type = Some(ApplyPatchToolType::Freeform);
    model.web_search_tool_type = WebSearchToolType::TextAndImage;
    model.supports_image_detail_original = true;
    model.supports_parallel_tool_calls = true;
    model.shell_type = ConfigShellToolType::UnifiedExec;
    model.supports_search_tool = true;
    model.default_reasoning_level = Some(ReasoningEffort::Medium);
    model.default_reasoning_summary = ReasoningSummary::None;
    model.supports_reasoning_summary_parameter = true;
    model.supports_reasoning_summaries = true;
    model
}

/// A catalog entry shaped like upstream's Responses Lite `gpt-5.6-terra`.
pub fn lite_model() -> ModelInfo {
    let mut model = standard_model();
    model.slug = "gpt-5.6-terra".to_string();
    model.display_name = model.slug.clone();
    model.use_responses_lite = true;
    model
}

/// Ids of one session, all drawn from `ids` in a fixed order.
pub struct SessionIds {
    pub thread_id: String,
    pub installation_id: String,
    pub context_window_id: String,
    pub turn_id: String,
}

impl SessionIds {
    pub fn draw(ids: &IdGenerator) -> Self {
        Self {
            thread_id: ids.thread_id().to_string(),
            installation_id: ids.uuid_v4().to_string(),
            context_window_id: ids.uuid_v7().to_string(),
            turn_id: ids.turn_id().to_string(),
        }
    }

    pub fn client_metadata(&self, ids: &IdGenerator) -> ClientMetadata {
        let turn = TurnMetadata {
            installation_id: self.installation_id.clone(),
            session_id: self.thread_id.clone(),
            thread_id: self.thread_id.clone(),
            agent_name: ROOT_AGENT_NAME.to_string(),
            turn_id: self.turn_id.clone(),
            window_id: format!("{}:0", self.thread_id),
            window_number: None,
            context_window_id: Some(self.context_window_id.clone()),
            request_kind: RequestKind::Turn,
            forked_from_thread_id: None,
            parent_thread_id: None,
            parent_turn_id: None,
            history_initialization: None,
            root_turn_id: Some(self.turn_id.clone()),
            subagent_kind: None,
            thread_source: None,
            turn_trigger: None,
            sandbox: "seccomp".to_string(),
            sandbox_mode: SandboxMode::ReadOnly,
            auto_review_enabled: false,
            node_repl_auto_review_required: false,
            node_repl_disabled: false,
            workspaces: None,
            turn_started_at_unix_ms: ids.now().as_millisecond(),
            analytics_enabled: None,
            compaction: None,
            model: None,
            reasoning_effort: None,
        };
        ClientMetadata::from_turn_metadata(&turn).expect("turn metadata serializes")
    }
}

/// A first turn: permissions (developer), context (user, two parts), the user's message; each
/// stamped as recorded.
pub fn first_turn_input(ids: &IdGenerator, turn_id: &str) -> Vec<ResponseItem> {
    let mut items = vec![
        ResponseItem::message(
            "developer",
            vec![ContentItem::input_text(
                "<permissions instructions>\nThe sandbox is read-only.\n</permissions instructions>",
            )],
        ),
        ResponseItem::message(
            "user",
            vec![
                ContentItem::input_text(
                    "# AGENTS.md instructions\n\n<INSTRUCTIONS>\nbe brief\n</INSTRUCTIONS>",
                ),
                ContentItem::input_text(
                    "<environment_context>\n  <cwd>/work/project</cwd>\n  <shell>bash</shell>\n</environment_context>",
                ),
            ],
        ),
        ResponseItem::message("user", vec![ContentItem::input_text("hello 1")]),
    ];
    for item in &mut items {
        stamp_recorded_item(item, ids, turn_id);
    }
    items
}

/// Every `request-NN.json` under the captures directory, sorted, with its parsed body.
pub fn captured_requests(captures: &std::path::Path) -> Vec<(PathBuf, serde_json::Value)> {
    let mut paths = Vec::new();
    for scenario in std::fs::read_dir(captures).expect("captures dir") {
        let scenario = scenario.expect("dir entry").path();
        if !scenario.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&scenario).expect("scenario dir") {
            let file = file.expect("dir entry").path();
            let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.starts_with("request-") && name.ends_with(".json") {
                paths.push(file);
            }
        }
    }
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("read capture");
            let body = serde_json::from_str(&text).expect("capture is JSON");
            (path, body)
        })
        .collect()
}

/// Top-level keys of a JSON object, in order.
pub fn top_level_keys(body: &serde_json::Value) -> Vec<String> {
    body.as_object()
        .expect("object body")
        .keys()
        .cloned()
        .collect()
}
