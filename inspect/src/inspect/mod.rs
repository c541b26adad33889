//! `inspect`: every model request a rollout records, rebuilt, with each input item traced to
//! its source and measured in o200k tokens.
//!
//! - [`inspect_rollout`] / [`inspect_file`] walk a rollout (this project's or upstream Codex's,
//!   legacy ones without world-state records or content kinds included) and produce an
//!   [`Inspection`]: per request (one per sampling step) the items it adds to the previous one
//!   with their role, classification (user text, assistant output, tool call or output,
//!   injected fragment with its content kind, base instructions), origin, bytes and tokens; a
//!   token breakdown by source; the prefix it shares with the previous request and why that
//!   prefix broke; and the world-state timeline (sections changed per turn, the merge patch, the
//!   fragments emitted for it).
//! - [`rebuild_requests`] returns the whole request bodies instead (for comparing with captured
//!   requests; memory grows with requests × history).
//! - [`render_text`], [`render_json`] and [`render_html`] are the three views of an inspection.
//! - [`request_stats`] and [`render_request_stats`] give the same token breakdown and prefix
//!   reuse for request bodies a caller built itself; [`RequestStatsAccumulator`] counts them
//!   one at a time as they stream past.
//!
//! Rollouts record neither tools nor reasoning settings: a catalog model gets its built-in tool
//! list rebuilt, any other model the built-in list of its fallback metadata. Injected context is
//! recognised by recorded content kinds first and by markers otherwise; an entry recognised by
//! markers alone is reported as such, since a user could have typed it.

mod ahead;
mod classify;
mod client_metadata;
mod compactions;
mod error;
mod hollow;
mod html;
mod inspector;
mod json_len;
mod model;
mod pairing;
mod plain;
mod rebuild;
mod setup;
mod stats;
mod stream;
mod summary;
#[cfg(test)]
mod test_texts;
mod text;
mod tokens;
mod walk;

use client_metadata::RecordedThread;
use std::path::Path;

use codex_core::ModelProviderKind;
use codex_models_manager::ModelCatalog;
use codex_models_manager::ReleaseCatalogs;
use codex_protocol::BaseInstructions;
use codex_protocol::BaseInstructionsProvenance;
use codex_protocol::rollout::RolloutItem;
use codex_protocol::rollout::SessionMeta;
use codex_release::CodexRelease;
use codex_rollout::LoadedRollout;
use codex_rollout::RolloutWarning;
use codex_rollout::read_rollout_for_replay;
use codex_rollout::release_of_lines;
use codex_utils_progress::Progress;

pub use error::InspectError;
pub use html::HtmlPage;
pub use html::render_html;
pub use html::render_html_page;
pub use model::BreakReason;
pub use model::CacheReport;
pub use model::EmittedFragment;
pub use model::EntryClass;
pub use model::EntryReport;
pub use model::ExchangeReport;
pub use model::HistoryRewrite;
pub use model::Inspection;
pub use model::InstructionsReport;
pub use model::ItemReport;
pub use model::PrefixBreak;
pub use model::Recognition;
pub use model::RecordingReport;
pub use model::ReleaseReport;
pub use model::RequestKind;
pub use model::RequestReport;
pub use model::SectionChange;
pub use model::TimelineTurn;
pub use model::TokenBreakdown;
pub use model::TokenSource;
pub use model::ToolsOrigin;
pub use model::ToolsReport;
pub use rebuild::RebuiltRequest;
pub use stats::RequestStat;
pub use stats::RequestStats;
pub use stats::RequestStatsAccumulator;
pub use stats::context_window_excess;
pub use stats::render_request_stats;
pub use stats::request_stats;
pub(crate) use text::breakdown_header;
pub(crate) use text::breakdown_row;
pub use text::render_text;
pub use text::write_text;
pub use tokens::TokenCounter;

use inspector::Inspector;
use rebuild::Rebuilder;
use setup::RequestSetups;

/// What an inspection needs besides the rollout.
#[derive(Debug, Clone, Copy)]
pub struct InspectOptions<'a> {
    /// Resolve each turn's model (tools, Responses Lite, image handling): one catalog for every
    /// release, or each release's own.
    pub catalogs: InspectCatalogs<'a>,
    /// Overrides the provider family `session_meta.model_provider` names; it decides which item
    /// metadata the provider receives.
    pub provider: Option<ModelProviderKind>,
    /// Overrides the release detected from the rollout (`--codex-version`).
    pub release: Option<CodexRelease>,
    /// Advanced by the bytes of the file [`inspect_file`] reads.
    pub progress: Option<&'a Progress>,
    /// How much of each entry's text the inspection keeps.
    pub texts: EntryTexts,
}

/// How much of each entry's text an inspection keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryTexts {
    /// The whole text (what the JSON and HTML views show).
    Whole,
    /// Only the preview one-line views show: an inspection of a long rollout then holds a few
    /// bytes per entry instead of everything the rollout says.
    PreviewOnly,
}

/// The catalog an inspection resolves models with.
#[derive(Debug, Clone, Copy)]
pub enum InspectCatalogs<'a> {
    /// This catalog, whatever release wrote the rollout.
    One(&'a ModelCatalog),
    /// The catalog of the release the rollout is rebuilt as.
    ByRelease(&'a ReleaseCatalogs),
}

impl<'a> InspectOptions<'a> {
    /// Options resolving every model with `catalog`.
    pub fn new(catalog: &'a ModelCatalog) -> Self {
        Self {
            catalogs: InspectCatalogs::One(catalog),
            provider: None,
            release: None,
            progress: None,
            texts: EntryTexts::Whole,
        }
    }

    /// Options resolving models with the catalog of the release the rollout is rebuilt as.
    pub fn by_release(catalogs: &'a ReleaseCatalogs) -> Self {
        Self {
            catalogs: InspectCatalogs::ByRelease(catalogs),
            provider: None,
            release: None,
            progress: None,
            texts: EntryTexts::Whole,
        }
    }

    /// The catalog for `release`.
    pub(crate) fn catalog(&self, release: CodexRelease) -> &'a ModelCatalog {
        match self.catalogs {
            InspectCatalogs::One(catalog) => catalog,
            InspectCatalogs::ByRelease(catalogs) => catalogs.get(release.profile().catalog),
        }
    }
}

/// The release whose profile rebuilds `loaded`'s requests: the one asked for, else the one that
/// wrote the rollout, else the default; with the reason, as reports print it.
pub fn release_for_rollout(
    loaded: &LoadedRollout,
    asked: Option<CodexRelease>,
) -> (CodexRelease, String) {
    if let Some(asked) = asked_release(asked) {
        return asked;
    }
    match release_of_lines(loaded.lines.iter().map(|loaded| &loaded.line)) {
        Some((release, why)) => (release, why),
        None => (
            CodexRelease::REFERENCE,
            format!(
                "nothing in the rollout names its release: {}, the oldest supported",
                CodexRelease::REFERENCE.name()
            ),
        ),
    }
}

/// The release `--codex-version` asked for, with the reason reports print.
fn asked_release(asked: Option<CodexRelease>) -> Option<(CodexRelease, String)> {
    asked.map(|release| (release, "--codex-version".to_string()))
}

/// What the rollout says about the thread as a whole.
struct ThreadFacts {
    thread_id: Option<String>,
    /// Why `release` was chosen.
    release_reason: String,
    base_instructions: Option<BaseInstructions>,
    provider: ModelProviderKind,
    /// The release that wrote the rollout (the default release when nothing tells).
    release: CodexRelease,
    warnings: Vec<String>,
}

fn thread_facts(loaded: &LoadedRollout, options: &InspectOptions<'_>) -> ThreadFacts {
    let meta = loaded.items().find_map(|item| match item {
        RolloutItem::SessionMeta(meta) => Some(meta),
        RolloutItem::ResponseItem(_)
        | RolloutItem::TurnContext(_)
        | RolloutItem::WorldState(_)
        | RolloutItem::Compacted(_)
        | RolloutItem::Other { .. } => None,
    });
    let release = release_for_rollout(loaded, options.release);
    thread_facts_of(meta.map(|meta| &**meta), release, &loaded.warnings, options)
}

/// The facts of a thread whose first `session_meta` is `meta`, written by `release` (with the
/// reason), whose reading skipped the lines `load_warnings` name.
fn thread_facts_of(
    meta: Option<&SessionMeta>,
    (release, release_reason): (CodexRelease, String),
    load_warnings: &[RolloutWarning],
    options: &InspectOptions<'_>,
) -> ThreadFacts {
    let mut warnings: Vec<String> = load_warnings
        .iter()
        .map(|warning| warning.message.clone())
        .collect();
    let Some(meta) = meta else {
        warnings.push(
            "the rollout has no session_meta line: base instructions are unknown".to_string(),
        );
        return ThreadFacts {
            thread_id: None,
            release_reason,
            base_instructions: None,
            provider: options.provider.unwrap_or_default(),
            release,
            warnings,
        };
    };
    if meta.history_base.is_some() {
        warnings.push(
            "the thread's early history lives in another rollout (history_base); requests show \
             only what this file records"
                .to_string(),
        );
    }
    let base_instructions = meta.base_instructions.clone().or_else(|| {
        meta.instructions.clone().map(|text| BaseInstructions {
            text,
            provenance: None,
        })
    });
    if base_instructions.is_none() {
        warnings.push("session_meta records no base instructions".to_string());
    }
    ThreadFacts {
        thread_id: Some(meta.id.clone()),
        release_reason,
        base_instructions,
        provider: options.provider.unwrap_or_else(|| {
            meta.model_provider.as_deref().map_or_else(
                ModelProviderKind::default,
                ModelProviderKind::from_provider_id,
            )
        }),
        release,
        warnings,
    }
}

fn request_setups<'c>(facts: &ThreadFacts, options: &InspectOptions<'c>) -> RequestSetups<'c> {
    RequestSetups::new(
        options.catalog(facts.release),
        facts
            .base_instructions
            .as_ref()
            .map(|base| base.text.clone())
            .unwrap_or_default(),
        facts.thread_id.clone().unwrap_or_default(),
        facts.provider,
        facts.release,
    )
}

/// Inspects a loaded rollout. Never fails on rollout content; errors come from rebuilding the
/// built-in tools or serializing an item.
pub fn inspect_rollout(
    loaded: &LoadedRollout,
    options: &InspectOptions<'_>,
) -> Result<Inspection, InspectError> {
    let facts = thread_facts(loaded, options);
    let mut inspector = start_inspection(&facts, options);
    walk::walk_borrowed(loaded, &mut inspector)?;
    Ok(finish_inspection(facts, inspector, loaded.lines.len()))
}

/// Reads the rollout at `path` (tolerantly; event payloads only as far as replaying needs them)
/// and inspects it. The lines are walked while the file is read, on a thread of its own.
pub fn inspect_file(path: &Path, options: &InspectOptions<'_>) -> Result<Inspection, InspectError> {
    let start = options.progress.map(Progress::position);
    let loaded = match stream::inspect_streamed(path, options)? {
        stream::Streamed::Inspected(inspection) => return Ok(inspection),
        stream::Streamed::Whole(loaded) => loaded,
        stream::Streamed::ReadAgain => {
            if let (Some(progress), Some(start)) = (options.progress, start) {
                progress.set_position(start);
            }
            read_rollout_for_replay(path, options.progress)?
        }
    };
    let facts = thread_facts(&loaded, options);
    let lines = loaded.lines.len();
    let mut inspector = start_inspection(&facts, options);
    // The file's lines are not needed afterwards: history takes its items instead of copies.
    walk::walk_owned(loaded, &mut inspector)?;
    Ok(finish_inspection(facts, inspector, lines))
}

/// How the base instructions' provenance reads in reports.
fn provenance(facts: &ThreadFacts) -> String {
    match facts
        .base_instructions
        .as_ref()
        .map(|base| &base.provenance)
    {
        Some(Some(BaseInstructionsProvenance::Custom)) => "custom".to_string(),
        Some(Some(BaseInstructionsProvenance::Model { model })) => format!("model {model}"),
        Some(None) | None => "none".to_string(),
    }
}

/// The visitor that walks the thread `facts` describe.
fn start_inspection<'c>(facts: &ThreadFacts, options: &InspectOptions<'c>) -> Inspector<'c> {
    Inspector::new(
        request_setups(facts, options),
        format!(
            "session_meta base instructions, provenance {}",
            provenance(facts)
        ),
        options.texts,
    )
}

/// The inspection of a walked rollout of `rollout_lines` lines.
fn finish_inspection(
    facts: ThreadFacts,
    mut inspector: Inspector<'_>,
    rollout_lines: usize,
) -> Inspection {
    let base_instructions = facts
        .base_instructions
        .as_ref()
        .map(|base| InstructionsReport {
            provenance: provenance(&facts),
            bytes: base.text.len(),
            tokens: inspector.counter().count(&base.text),
        });
    let (requests, timeline) = inspector.finish();
    Inspection {
        thread_id: facts.thread_id,
        release: ReleaseReport {
            name: facts.release.name().to_string(),
            chosen_because: facts.release_reason,
        },
        rollout_lines,
        base_instructions,
        requests,
        timeline,
        warnings: facts.warnings,
        recording: None,
    }
}

/// The whole body of every request `loaded` records, in order.
pub fn rebuild_requests(
    loaded: &LoadedRollout,
    options: &InspectOptions<'_>,
) -> Result<Vec<RebuiltRequest>, InspectError> {
    let facts = thread_facts(loaded, options);
    let mut rebuilder = Rebuilder {
        setups: request_setups(&facts, options),
        thread: loaded.items().find_map(|item| match item {
            RolloutItem::SessionMeta(meta) => Some(RecordedThread::of(meta, facts.release)),
            RolloutItem::ResponseItem(_)
            | RolloutItem::TurnContext(_)
            | RolloutItem::WorldState(_)
            | RolloutItem::Compacted(_)
            | RolloutItem::Other { .. } => None,
        }),
        requests: Vec::new(),
    };
    walk::walk_borrowed(loaded, &mut rebuilder)?;
    Ok(rebuilder.requests)
}

/// The inspection as pretty-printed JSON (what `--format json` prints), with a final newline.
pub fn render_json(inspection: &Inspection) -> Result<String, InspectError> {
    let mut json = serde_json::to_string_pretty(inspection)?;
    json.push('\n');
    Ok(json)
}
