//! `<current_time_reminder>`: the wall-clock time, recorded during long sessions (and returned
//! by the current-time tool) because the model has no clock of its own.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::spec_fragment;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;
use jiff::Timestamp;

use super::size_cap::cap_rendered_body;

pub const CURRENT_TIME_REMINDER: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "current_time.reminder",
    start_marker: "<current_time_reminder>",
    end_marker: "</current_time_reminder>",
    placement: MessagePlacement::Mergeable,
};

/// Cap of the rendered fragment, in o200k tokens.
pub const MAX_TOKENS: usize = 200;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CurrentTimeReminder {
    body: String,
}

impl CurrentTimeReminder {
    /// The reminder for `now`, written in UTC to the second.
    pub fn new(now: Timestamp, templates: &TemplateSet) -> Self {
        let time = now.strftime("%Y-%m-%d %H:%M:%S UTC").to_string();
        let body = templates.render(TemplateId::FragmentCurrentTimeReminder, &[("time", &time)]);
        Self {
            body: cap_rendered_body(&CURRENT_TIME_REMINDER, body, MAX_TOKENS, templates),
        }
    }
}

spec_fragment!(CurrentTimeReminder, CURRENT_TIME_REMINDER);
