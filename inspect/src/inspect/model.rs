//! The inspection report: what `--format json` prints and the text and HTML views render.
//!
//! Requests share most of their input with the request before them, so each request lists only
//! the items after the ones it carries over unchanged (`carried_items`); the report stays linear
//! in the size of the rollout.

use std::borrow::Cow;
use std::sync::Arc;

use serde::Serialize;

/// Every request a rollout records, the world-state timeline and what could not be read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Inspection {
    pub thread_id: Option<String>,
    /// The upstream release whose profile rebuilt the requests, and why it was chosen.
    pub release: ReleaseReport,
    /// Lines that parsed (damaged lines are in `warnings`).
    pub rollout_lines: usize,
    pub base_instructions: Option<InstructionsReport>,
    pub requests: Vec<RequestReport>,
    pub timeline: Vec<TimelineTurn>,
    pub warnings: Vec<String>,
    /// Set when the requests are the bodies a `codex-context proxy` recording holds rather
    /// than requests rebuilt from a rollout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recording: Option<RecordingReport>,
}

/// The proxy recording an inspection read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RecordingReport {
    /// The recording folder (or thread folder) read.
    pub folder: String,
    pub threads: usize,
    /// Every exchange, Responses requests or not.
    pub exchanges: usize,
    pub failed: usize,
}

/// What became of one recorded request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExchangeReport {
    /// The thread key (`prompt_cache_key` or session id).
    pub thread: String,
    /// 1-based, per thread: the `request-NNNN.json` it was recorded in.
    pub number: u32,
    /// The upstream's status; `None` when it never answered.
    pub status: Option<u16>,
    pub total_ms: Option<u64>,
    /// What the server reported in `response.usage`.
    pub input_tokens: Option<u64>,
    pub cached_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    /// Why it failed (or that the recording ends before it did); `None` when it completed.
    pub failure: Option<String>,
}

/// The release profile an inspection used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReleaseReport {
    /// `0.149`, `0.171`.
    pub name: String,
    /// Why: `--codex-version`, what the rollout records, or the default.
    pub chosen_because: String,
}

/// The base instructions recorded in `session_meta`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InstructionsReport {
    /// `custom`, `model <slug>`, or `none` for a legacy recording without provenance.
    pub provenance: String,
    pub bytes: usize,
    pub tokens: usize,
}

/// Why a model request was sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RequestKind {
    /// A sampling step of a turn.
    Turn,
    /// A local compaction: history plus a compaction prompt the rollout does not record.
    Compaction,
}

/// One rebuilt model request.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RequestReport {
    /// 1-based position among the rollout's requests.
    pub number: usize,
    pub kind: RequestKind,
    /// 1-based turn (`task_started`) the request belongs to; 0 before the first turn.
    pub turn: usize,
    pub turn_id: Option<String>,
    /// 1-based sampling step within the turn.
    pub step: usize,
    /// Rollout line at which the request is placed: the first line of its answer, or the line
    /// that ended the turn or recorded the compaction.
    pub line: usize,
    pub model: String,
    /// Whether the instructions travel in `instructions` (else in the Responses Lite prefix).
    pub instructions_in_field: bool,
    pub tools: ToolsReport,
    pub input_items: usize,
    /// Leading input items identical to the previous request's; they are not listed again.
    pub carried_items: usize,
    /// The input items after the carried ones, in order.
    pub items: Vec<ItemReport>,
    pub tokens: TokenBreakdown,
    pub total_tokens: usize,
    /// `None` for the first request.
    pub cache: Option<CacheReport>,
    /// Parts of the request the rollout does not record.
    pub unrecorded: Vec<String>,
    /// The proxy exchange that carried the request, for an inspection of a recording.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exchange: Option<ExchangeReport>,
}

/// Where a request's tool list comes from: rollouts do not record it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolsOrigin {
    /// The built-in tools of a catalog model, rebuilt; tools added by configuration, MCP
    /// servers or extensions are not recorded and not included.
    RebuiltBuiltin,
    /// The model is not in the catalog: the built-in tools of its fallback metadata, rebuilt,
    /// as the harness offers them to a model it does not know.
    RebuiltFallback,
    /// A compaction request: it offers no tools (an empty `tools` field).
    NoneOffered,
    /// The `tools` field (or Responses Lite item) as the agent sent it, from a proxy recording.
    Recorded,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolsReport {
    pub origin: ToolsOrigin,
    /// Shared by every request that offers the same list.
    pub names: Arc<[String]>,
    /// Whether the list travels in the `tools` field (else in the Responses Lite input item,
    /// which is counted with the input).
    pub in_field: bool,
    /// Bytes and tokens of the `tools` field (0 when the list travels in the input).
    pub bytes: usize,
    pub tokens: usize,
}

/// One input item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ItemReport {
    /// 0-based position in the request's input.
    pub index: usize,
    pub item_type: Cow<'static, str>,
    pub role: Option<String>,
    /// Bytes of the item as sent (its JSON).
    pub bytes: usize,
    pub tokens: usize,
    pub entries: Vec<EntryReport>,
}

/// One content entry of a message, or the text-bearing part of any other item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EntryReport {
    pub index: usize,
    pub class: EntryClass,
    /// The token bucket the entry counts towards.
    pub source: TokenSource,
    /// Where the text comes from, where known (world-state section, file, provenance).
    pub origin: Option<String>,
    pub content_kind: Option<String>,
    pub bytes: usize,
    pub tokens: usize,
    /// The whole text; empty when the inspection keeps previews only
    /// ([`EntryTexts::PreviewOnly`](crate::EntryTexts::PreviewOnly)).
    pub text: String,
    /// The start of the text's first line, as one-line views show it.
    #[serde(skip)]
    pub preview: String,
}

/// What an entry is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "class", rename_all = "snake_case")]
pub enum EntryClass {
    /// Text a person wrote. `imitates` names the fragment type whose markers the text copies
    /// although its content kind says it is user text.
    UserText {
        imitates: Option<String>,
    },
    AssistantOutput,
    Reasoning,
    ToolCall,
    ToolOutput,
    /// Context the harness injected.
    Injected {
        fragment: String,
        recognised_by: Recognition,
    },
    BaseInstructions,
    Tools,
    /// Neither conversation nor a known fragment (an unrecognised developer message, an item
    /// type this project does not model).
    Other,
}

/// How an injected entry was recognised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Recognition {
    /// By its recorded content kind, which typing cannot forge.
    ContentKind,
    /// By its markers only: the entry looks injected, but a user could have typed it.
    MarkersOnly,
}

/// The buckets of a `/context`-style breakdown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenSource {
    BaseInstructions,
    Tools,
    /// Injected context other than AGENTS.md and the environment.
    DeveloperContext,
    AgentsMd,
    Environment,
    /// Conversation the previous request already carried.
    History,
    /// Conversation new in this request.
    NewInput,
}

impl TokenSource {
    pub const ALL: [TokenSource; 7] = [
        TokenSource::BaseInstructions,
        TokenSource::Tools,
        TokenSource::DeveloperContext,
        TokenSource::AgentsMd,
        TokenSource::Environment,
        TokenSource::History,
        TokenSource::NewInput,
    ];

    pub fn label(self) -> &'static str {
        match self {
            TokenSource::BaseInstructions => "base instructions",
            TokenSource::Tools => "tools",
            TokenSource::DeveloperContext => "developer context",
            TokenSource::AgentsMd => "AGENTS.md",
            TokenSource::Environment => "environment",
            TokenSource::History => "history",
            TokenSource::NewInput => "new input",
        }
    }

    /// The JSON spelling (also the HTML report's class suffix).
    pub fn key(self) -> &'static str {
        match self {
            TokenSource::BaseInstructions => "base_instructions",
            TokenSource::Tools => "tools",
            TokenSource::DeveloperContext => "developer_context",
            TokenSource::AgentsMd => "agents_md",
            TokenSource::Environment => "environment",
            TokenSource::History => "history",
            TokenSource::NewInput => "new_input",
        }
    }

    fn slot(self) -> usize {
        match self {
            TokenSource::BaseInstructions => 0,
            TokenSource::Tools => 1,
            TokenSource::DeveloperContext => 2,
            TokenSource::AgentsMd => 3,
            TokenSource::Environment => 4,
            TokenSource::History => 5,
            TokenSource::NewInput => 6,
        }
    }
}

/// Tokens per [`TokenSource`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct TokenBreakdown {
    pub base_instructions: usize,
    pub tools: usize,
    pub developer_context: usize,
    pub agents_md: usize,
    pub environment: usize,
    pub history: usize,
    pub new_input: usize,
}

impl TokenBreakdown {
    pub fn get(&self, source: TokenSource) -> usize {
        self.as_array()[source.slot()]
    }

    pub fn add(&mut self, source: TokenSource, tokens: usize) {
        let slot = match source {
            TokenSource::BaseInstructions => &mut self.base_instructions,
            TokenSource::Tools => &mut self.tools,
            TokenSource::DeveloperContext => &mut self.developer_context,
            TokenSource::AgentsMd => &mut self.agents_md,
            TokenSource::Environment => &mut self.environment,
            TokenSource::History => &mut self.history,
            TokenSource::NewInput => &mut self.new_input,
        };
        *slot += tokens;
    }

    pub fn total(&self) -> usize {
        self.as_array().iter().sum()
    }

    fn as_array(&self) -> [usize; 7] {
        [
            self.base_instructions,
            self.tools,
            self.developer_context,
            self.agents_md,
            self.environment,
            self.history,
            self.new_input,
        ]
    }
}

/// How much of a request the previous one already sent, as the prompt cache sees it (tools,
/// then instructions, then input items).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CacheReport {
    pub prefix_tokens: usize,
    /// `prefix_tokens` as a percentage of the request's tokens, rounded to one decimal.
    pub prefix_percent: f64,
    /// Leading input items shared with the previous request (0 when the prefix broke before
    /// the input).
    pub prefix_items: usize,
    /// Set when the previous request is not a prefix of this one.
    pub prefix_break: Option<PrefixBreak>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PrefixBreak {
    pub reason: BreakReason,
    /// The first input item that differs, when the break is inside the input.
    pub item_index: Option<usize>,
    /// That item in the previous request (`None` when the previous request had no such item).
    pub previous_item: Option<String>,
    /// That item in this request (`None` when this request has no such item).
    pub current_item: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BreakReason {
    /// History was replaced by a compaction.
    Compaction,
    /// A different model: prompt caches are per model.
    ModelChanged,
    InstructionsChanged,
    ToolsChanged,
    /// History was rewritten some other way (rollback, a different normalisation).
    HistoryRewritten,
}

impl BreakReason {
    pub fn label(self) -> &'static str {
        match self {
            BreakReason::Compaction => "compaction",
            BreakReason::ModelChanged => "model changed",
            BreakReason::InstructionsChanged => "instructions changed",
            BreakReason::ToolsChanged => "tools changed",
            BreakReason::HistoryRewritten => "history rewritten",
        }
    }
}

/// What changed in the model's context during one turn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TimelineTurn {
    pub turn: usize,
    pub turn_id: Option<String>,
    /// Line of the turn's `task_started` (0 for lines before the first turn).
    pub line: usize,
    /// Sections changed by the turn's `world_state` records, with the fragments emitted for
    /// them.
    pub sections: Vec<SectionChange>,
    /// Injected fragments of the turn that no world-state record accounts for (all of them in
    /// a legacy rollout).
    pub other_fragments: Vec<EmittedFragment>,
    /// History rewrites recorded during the turn.
    pub rewrites: Vec<HistoryRewrite>,
}

/// A compaction or rollback.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HistoryRewrite {
    pub line: usize,
    /// `compaction` or `rollback`.
    pub kind: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SectionChange {
    pub section: String,
    /// Line of the `world_state` record.
    pub line: usize,
    /// Whether the record was a full snapshot (else a merge patch).
    pub full: bool,
    /// The section's snapshot (full record) or merge patch (`null` removes the section).
    pub patch: serde_json::Value,
    pub fragments: Vec<EmittedFragment>,
}

/// An injected entry recorded in the rollout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EmittedFragment {
    pub line: usize,
    pub role: String,
    pub fragment: String,
    pub section: Option<String>,
    pub recognised_by: Recognition,
    pub tokens: usize,
}
