//! `<realtime_delegation>`: what a realtime (voice) front end hands to the backend agent, sent
//! as the user's input text. Fields are XML-escaped and each is capped at 4096 bytes: the input
//! keeps its beginning, the transcript its latest part.

use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::USER_ROLE;
use codex_context_fragments::spec_fragment;

use super::size_cap::MAX_INJECTED_ITEM_TOKENS;

pub const REALTIME_DELEGATION: FragmentSpec = FragmentSpec {
    role: USER_ROLE,
    content_kind: "realtime_conversation.delegation",
    start_marker: "<realtime_delegation>",
    end_marker: "</realtime_delegation>",
    placement: MessagePlacement::Mergeable,
};

/// Largest escaped field, in bytes, truncation mark included.
pub const MAX_FIELD_BYTES: usize = 4 * 1024;
/// Mark put where a field was cut.
pub const TRUNCATION_MARK: &str = "…";
/// Two capped fields and their tags are under 8.5 KB; since every o200k token covers at least
/// one byte, the fragment never reaches the general cap.
pub const MAX_TOKENS: usize = MAX_INJECTED_ITEM_TOKENS;

/// What triggered the delegation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RealtimeDelegationSource {
    /// The realtime model handed the request over.
    Handoff,
    /// The transcript tail was flushed when the realtime session ended.
    TranscriptTailFlush,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Retain {
    Start,
    End,
}

fn escape_bounded(text: &str, retain: Retain) -> String {
    let escaped = text
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    if escaped.len() <= MAX_FIELD_BYTES {
        return escaped;
    }
    let kept = MAX_FIELD_BYTES - TRUNCATION_MARK.len();
    match retain {
        Retain::Start => {
            let mut end = kept;
            while !escaped.is_char_boundary(end) {
                end -= 1;
            }
            format!("{}{TRUNCATION_MARK}", &escaped[..end])
        }
        Retain::End => {
            let mut start = escaped.len() - kept;
            while !escaped.is_char_boundary(start) {
                start += 1;
            }
            format!("{TRUNCATION_MARK}{}", &escaped[start..])
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RealtimeDelegation {
    body: String,
}

impl RealtimeDelegation {
    /// An empty transcript delta is left out.
    pub fn new(
        input: &str,
        transcript_delta: Option<&str>,
        source: RealtimeDelegationSource,
    ) -> Self {
        let mut body = String::from("\n");
        match source {
            RealtimeDelegationSource::Handoff => {}
            RealtimeDelegationSource::TranscriptTailFlush => {
                body.push_str("  <source>transcript_tail_flush</source>\n");
            }
        }
        body.push_str("  <input>");
        body.push_str(&escape_bounded(input, Retain::Start));
        body.push_str("</input>\n");
        if let Some(delta) = transcript_delta.filter(|delta| !delta.is_empty()) {
            body.push_str("  <transcript_delta>");
            body.push_str(&escape_bounded(delta, Retain::End));
            body.push_str("</transcript_delta>\n");
        }
        Self { body }
    }
}

spec_fragment!(RealtimeDelegation, REALTIME_DELEGATION);
