//! Shared fixtures of the session tests: a seeded id generator, turn contexts with a pinned
//! date and cwd, a session writing into memory, and one helper that plays a whole turn.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::Arc;

use codex_core::IdGenerator;
use codex_core::PreviousTurnSettings;
use codex_core::ResumedSession;
use codex_core::Session;
use codex_core::SessionInit;
use codex_core::TurnContext;
use codex_core::WorldStateSnapshot;
use codex_models_manager::ModelCatalog;
use codex_prompts::TemplateSet;
use codex_protocol::BaseInstructions;
use codex_protocol::ContentItem;
use codex_protocol::ResponseItem;
use codex_protocol::RolloutItem;
use codex_protocol::RolloutLine;
use serde_json::Value;

pub const THREAD_ID: &str = "01a22b42-0000-7000-8000-000000000001";
pub const CWD: &str = "/repo";
pub const PINNED_START: &str = "2026-11-30T07:02:00Z";
pub const SEED: u64 = 11;

pub type MemorySession = Session<Vec<RolloutLine>>;

pub fn seeded_ids() -> Arc<IdGenerator> {
    Arc::new(IdGenerator::seeded(
        SEED,
        PINNED_START.parse().expect("pinned start"),
    ))
}

/// The first turn of a root thread on the catalog's default model in `/repo`, dated
/// 2026-11-30 UTC.
pub fn first_turn_context(ids: &IdGenerator) -> TurnContext {
    let catalog = ModelCatalog::bundled().expect("bundled catalog");
    let model = catalog.default_model().expect("default model").clone();
    let mut turn = TurnContext::for_model(THREAD_ID, ids.turn_id().to_string(), model, CWD);
    turn.current_date = "2026-11-30".to_string();
    turn.timezone = "Etc/UTC".to_string();
    turn
}

/// The next turn with the same settings: a new turn id, and the previous turn's settings.
pub fn next_turn_context(previous: &TurnContext, ids: &IdGenerator) -> TurnContext {
    let mut turn = previous.clone();
    turn.turn_id = ids.turn_id().to_string();
    turn.previous_turn = Some(PreviousTurnSettings {
        model: previous.model.slug.clone(),
        personality: previous.personality,
    });
    turn
}

/// Moves the turn (and its primary environment) to `cwd`.
pub fn set_cwd(turn: &mut TurnContext, cwd: &str) {
    turn.cwd = PathBuf::from(cwd);
    if let Some(environment) = turn.environments.first_mut() {
        // The default environment's workspace root is its cwd.
        environment.cwd = cwd.to_string();
        environment.workspace_roots = vec![cwd.to_string()];
    }
}

pub fn session_init(ids: &Arc<IdGenerator>, turn: &TurnContext) -> SessionInit {
    SessionInit {
        thread_id: THREAD_ID.to_string(),
        base_instructions: BaseInstructions {
            text: turn.base_instructions.text().to_string(),
            provenance: None,
        },
        templates: TemplateSet::embedded(),
        ids: Arc::clone(ids),
        history_mode: codex_core::HistoryMode::Legacy,
        release: turn.release,
    }
}

pub fn new_session(ids: &Arc<IdGenerator>, turn: &TurnContext) -> MemorySession {
    Session::new(session_init(ids, turn), Vec::new())
}

pub fn resumed_session(
    ids: &Arc<IdGenerator>,
    turn: &TurnContext,
    resumed: ResumedSession,
) -> MemorySession {
    Session::resume(session_init(ids, turn), resumed, Vec::new())
}

pub fn assistant(text: &str) -> ResponseItem {
    ResponseItem::message("assistant", vec![ContentItem::output_text(text)])
}

/// Plays one turn: context updates, the user's message, the request input (returned), the
/// model's reply.
pub fn play_turn(
    session: &mut MemorySession,
    turn: &TurnContext,
    user_text: &str,
    reply: &str,
) -> Vec<ResponseItem> {
    session.start_turn(turn).expect("start turn");
    session
        .record_context_updates_and_set_reference_context_item(turn)
        .expect("context updates");
    session
        .record_user_message(user_text)
        .expect("user message");
    let input = session.build_prompt_input();
    session
        .record_model_output(vec![assistant(reply)])
        .expect("model output");
    session.complete_turn().expect("complete turn");
    input
}

/// The lines written so far.
pub fn lines(session: &MemorySession) -> &[RolloutLine] {
    session.sink()
}

/// One short label per line: the line type, plus the event type, the item's role or the
/// world-state kind.
pub fn line_label(line: &RolloutLine) -> String {
    match &line.item {
        RolloutItem::ResponseItem(ResponseItem::Message { role, .. }) => {
            format!("response_item message/{role}")
        }
        RolloutItem::ResponseItem(item) => format!("response_item {}", item.item_type()),
        RolloutItem::WorldState(state) if state.full => "world_state full".to_string(),
        RolloutItem::WorldState(state) => format!(
            "world_state patch {}",
            state.state.keys().cloned().collect::<Vec<_>>().join(",")
        ),
        RolloutItem::Other { .. } => format!(
            "event_msg {}",
            line.item.event_msg_type().unwrap_or("<untyped>")
        ),
        RolloutItem::SessionMeta(_) | RolloutItem::TurnContext(_) | RolloutItem::Compacted(_) => {
            line.item.line_type().to_string()
        }
    }
}

pub fn labels(lines: &[RolloutLine]) -> Vec<String> {
    lines.iter().map(line_label).collect()
}

/// Replays `world_state` lines: a full record replaces the snapshot, a patch is applied to it.
pub fn replay_world_state(lines: &[RolloutLine]) -> Option<WorldStateSnapshot> {
    let mut snapshot: Option<WorldStateSnapshot> = None;
    for line in lines {
        match &line.item {
            RolloutItem::WorldState(state) if state.full => {
                snapshot = Some(state.state.clone().into_iter().collect());
            }
            RolloutItem::WorldState(state) => {
                let patch = Value::Object(state.state.clone().into_iter().collect());
                snapshot
                    .as_mut()
                    .expect("patch after a full record")
                    .apply_merge_patch(&patch)
                    .expect("patch applies");
            }
            RolloutItem::Compacted(_) => snapshot = None,
            RolloutItem::SessionMeta(_)
            | RolloutItem::ResponseItem(_)
            | RolloutItem::TurnContext(_)
            | RolloutItem::Other { .. } => {}
        }
    }
    snapshot
}

/// Every `input_text` / `output_text` of a message, joined per item (ids and metadata left out).
pub fn texts(items: &[ResponseItem]) -> Vec<String> {
    items
        .iter()
        .map(|item| match item {
            ResponseItem::Message { role, content, .. } => format!(
                "{role}: {}",
                content
                    .iter()
                    .filter_map(ContentItem::text)
                    .collect::<Vec<_>>()
                    .join(" | ")
            ),
            other => other.item_type().to_string(),
        })
        .collect()
}
