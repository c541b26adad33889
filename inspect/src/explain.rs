//! `explain`: where every piece of a first-turn request came from — each input item and content
//! entry with its role, content kind, source (configuration key, file, world-state section,
//! template file), size and fingerprint — plus the AGENTS.md files that were found and what
//! was cut from them.

use std::fmt::Write as _;

use codex_config::ProjectDocsPolicy;
use codex_context_fragments::fingerprint;
use codex_core::ContextSource;
use codex_core::FirstTurn;
use codex_core::RequestItemSource;
use codex_core::SystemSkills;
use codex_core::TurnContext;
use codex_protocol::ResponseItem;
use serde::Serialize;

use codex_core::section_built_from;
/// Role the base instructions are fingerprinted under (Responses Lite sends them as a developer
/// message).
const INSTRUCTIONS_ROLE: &str = "developer";

/// The explanation of one first-turn request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Explanation {
    pub model: String,
    /// The release profile the turn was assembled under (`0.171`).
    pub release: String,
    pub instructions: InstructionsExplanation,
    pub items: Vec<ItemExplanation>,
    pub agents_md: Vec<AgentsMdFile>,
    /// Why no project AGENTS.md was read, when discovery skipped them (an untrusted project).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub project_docs_skipped: Option<String>,
    pub warnings: Vec<String>,
    /// What the released CLI would do differently on the same folders, one line each.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// The base instructions: sent in `instructions`, or as the Responses Lite developer message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InstructionsExplanation {
    pub source: String,
    /// `custom`, `model gpt-…`, or `none` for a legacy recording without provenance.
    pub provenance: String,
    pub bytes: usize,
    pub fingerprint: String,
    /// Whether the text travels in the `instructions` field (else in the Lite prefix).
    pub in_instructions_field: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ItemExplanation {
    pub index: usize,
    pub item_type: String,
    pub role: Option<String>,
    pub id: Option<String>,
    /// One line describing the item as a whole (for items without content entries).
    pub summary: Option<String>,
    pub entries: Vec<EntryExplanation>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EntryExplanation {
    pub kind: String,
    pub source: String,
    /// Template files, configuration keys or files the text was built from.
    pub built_from: Vec<String>,
    pub bytes: usize,
    pub fingerprint: String,
}

/// An AGENTS.md file that supplied text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AgentsMdFile {
    pub scope: &'static str,
    pub path: String,
    pub bytes_used: usize,
    pub truncated_bytes: usize,
}

/// Explains `first`, the request built for `turn`.
pub fn explain_first_turn(turn: &TurnContext, first: &FirstTurn) -> Explanation {
    let base = &turn.base_instructions;
    let provenance = match base.provenance() {
        Some(codex_protocol::BaseInstructionsProvenance::Custom) => "custom".to_string(),
        Some(codex_protocol::BaseInstructionsProvenance::Model { model }) => {
            format!("model {model}")
        }
        None => "none".to_string(),
    };
    let instructions = InstructionsExplanation {
        source: base.source().label().to_string(),
        provenance,
        bytes: base.text().len(),
        fingerprint: fingerprint(INSTRUCTIONS_ROLE, base.text()),
        in_instructions_field: !first.request.instructions.is_empty(),
    };
    let items = first
        .request
        .input
        .iter()
        .zip(&first.item_origins)
        .enumerate()
        .map(|(index, (item, origin))| {
            let (role, content, summary) = match item {
                ResponseItem::Message { role, content, .. } => {
                    (Some(role.clone()), content.as_slice(), None)
                }
                ResponseItem::AdditionalTools { role, tools, .. } => (
                    Some(role.clone()),
                    &[][..],
                    Some(format!(
                        "Responses Lite tool catalog: {} top-level entries",
                        tools.len()
                    )),
                ),
                ResponseItem::Reasoning { .. }
                | ResponseItem::LocalShellCall { .. }
                | ResponseItem::FunctionCall { .. }
                | ResponseItem::FunctionCallOutput { .. }
                | ResponseItem::CustomToolCall { .. }
                | ResponseItem::CustomToolCallOutput { .. }
                | ResponseItem::WebSearchCall { .. }
                | ResponseItem::Compaction { .. }
                | ResponseItem::Other(_) => (None, &[][..], None),
            };
            let role_name = role.as_deref().unwrap_or_default();
            let entries = content
                .iter()
                .enumerate()
                .map(|(position, part)| {
                    let text = part.text().unwrap_or_default();
                    let (source, built_from) = match &origin.source {
                        RequestItemSource::LiteToolCatalog => {
                            ("built-in tools".to_string(), Vec::new())
                        }
                        RequestItemSource::LiteBaseInstructions(base_source) => (
                            "base instructions".to_string(),
                            vec![base_source.label().to_string()],
                        ),
                        RequestItemSource::UserMessage => {
                            ("user message".to_string(), vec!["--message".to_string()])
                        }
                        RequestItemSource::TurnInputContribution => (
                            "turn-input contributor".to_string(),
                            vec!["turn_input_contributors".to_string()],
                        ),
                        RequestItemSource::Context(sources) => match sources.get(position) {
                            Some(ContextSource::DeveloperInstructions) => (
                                "configuration".to_string(),
                                vec!["developer_instructions".to_string()],
                            ),
                            Some(ContextSource::GuardianPolicy) => (
                                "guardian reviewer policy".to_string(),
                                vec!["developer_instructions".to_string()],
                            ),
                            Some(ContextSource::Section(id)) => (
                                format!("world-state section `{id}`"),
                                section_built_from(turn, id),
                            ),
                            None => ("unknown".to_string(), Vec::new()),
                        },
                    };
                    EntryExplanation {
                        kind: origin
                            .content_kinds
                            .get(position)
                            .map(|kind| kind.as_str().to_string())
                            .unwrap_or_else(|| {
                                codex_protocol::ContentItemKind::UNKNOWN.to_string()
                            }),
                        source,
                        built_from,
                        bytes: text.len(),
                        fingerprint: fingerprint(role_name, text),
                    }
                })
                .collect();
            ItemExplanation {
                index,
                item_type: item.item_type().to_string(),
                role,
                id: item.id().map(str::to_string),
                summary,
                entries,
            }
        })
        .collect();

    let mut agents_md = Vec::new();
    let mut warnings = Vec::new();
    let mut project_docs_skipped = None;
    if let Some(discovery) = &turn.agents_md {
        project_docs_skipped = match discovery.project_docs_policy {
            ProjectDocsPolicy::Discover => None,
            ProjectDocsPolicy::SkipUntrustedProject => Some(format!(
                "the project of {} is untrusted (trust_level = \"untrusted\" under [projects]): only the global AGENTS.md is read",
                discovery.primary_cwd.as_ref().map_or_else(
                    || "the working directory".to_string(),
                    |cwd| cwd.display().to_string()
                )
            )),
        };
        if let Some(global) = &discovery.global {
            agents_md.push(AgentsMdFile {
                scope: "global",
                path: global.path.display().to_string(),
                bytes_used: global.text.len(),
                truncated_bytes: 0,
            });
        }
        agents_md.extend(discovery.project_docs.iter().map(|doc| AgentsMdFile {
            scope: "project",
            path: doc.path.display().to_string(),
            bytes_used: doc.bytes_used,
            truncated_bytes: doc.truncated_bytes,
        }));
        warnings.extend(discovery.warnings.iter().map(ToString::to_string));
    }
    let notes = match turn
        .skills
        .as_ref()
        .and_then(|skills| skills.system_skills.as_ref())
    {
        Some(SystemSkills::NotInstalled { dir }) => vec![format!(
            "skills: {} does not exist; the released CLI would install its bundled system skills there on first start and list them in <skills_instructions>",
            dir.display()
        )],
        Some(SystemSkills::Installed | SystemSkills::NotLooked) | None => Vec::new(),
    };
    Explanation {
        model: turn.model.slug.clone(),
        release: format!(
            "{} (Codex CLI {})",
            turn.release.name(),
            turn.release.observed_version()
        ),
        instructions,
        items,
        agents_md,
        project_docs_skipped,
        warnings,
        notes,
    }
}

impl Explanation {
    /// The human-readable report `codex-context explain` prints.
    pub fn render_text(&self) -> String {
        let mut out = String::new();
        let instructions = &self.instructions;
        let _ = writeln!(out, "model: {}", self.model);
        let _ = writeln!(out, "release profile: {}", self.release);
        let _ = writeln!(
            out,
            "base instructions: {} bytes, fingerprint {}, source: {}, provenance: {}, sent in {}",
            instructions.bytes,
            instructions.fingerprint,
            instructions.source,
            instructions.provenance,
            if instructions.in_instructions_field {
                "`instructions`"
            } else {
                "the input prefix (Responses Lite)"
            }
        );
        let _ = writeln!(out, "\ninput:");
        for item in &self.items {
            let _ = writeln!(
                out,
                "[{}] {}{}{}",
                item.index,
                item.item_type,
                item.role
                    .as_deref()
                    .map(|role| format!("/{role}"))
                    .unwrap_or_default(),
                item.id
                    .as_deref()
                    .map(|id| format!(" {id}"))
                    .unwrap_or_default(),
            );
            if let Some(summary) = &item.summary {
                let _ = writeln!(out, "    {summary}");
            }
            for (position, entry) in item.entries.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "    [{position}] {} — {} bytes, fingerprint {}, {}",
                    entry.kind, entry.bytes, entry.fingerprint, entry.source
                );
                for input in &entry.built_from {
                    let _ = writeln!(out, "        from {input}");
                }
            }
        }
        let _ = writeln!(out, "\nAGENTS.md files:");
        if self.agents_md.is_empty() {
            let _ = writeln!(out, "    none");
        }
        for file in &self.agents_md {
            let truncation = if file.truncated_bytes > 0 {
                format!(", truncated: {} bytes dropped", file.truncated_bytes)
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "    {} {} ({} bytes used{truncation})",
                file.scope, file.path, file.bytes_used
            );
        }
        if let Some(reason) = &self.project_docs_skipped {
            let _ = writeln!(out, "    project files not read: {reason}");
        }
        if !self.warnings.is_empty() {
            let _ = writeln!(out, "\nwarnings:");
            for warning in &self.warnings {
                let _ = writeln!(out, "    {warning}");
            }
        }
        if !self.notes.is_empty() {
            let _ = writeln!(out, "\nnotes:");
            for note in &self.notes {
                let _ = writeln!(out, "    {note}");
            }
        }
        out
    }
}

#[cfg(test)]
#[path = "explain_tests.rs"]
mod tests;
