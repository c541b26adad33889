//! `<node_repl_review_evidence>`: outputs of completed node_repl calls, given to the guardian
//! reviewer as untrusted evidence. Newest responses are kept first; older ones that do not fit
//! are counted in an `<omitted node_repl_responses="N" />` line. Text cannot close the wrapper
//! (`</` is escaped) and headers carry sanitized provenance.

use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::USER_ROLE;
use codex_context_fragments::spec_fragment;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;

use super::size_cap::MAX_INJECTED_ITEM_TOKENS;
use super::size_cap::cap_rendered_body;
use super::size_cap::o200k_token_count;

pub const NODE_REPL_REVIEW_EVIDENCE: FragmentSpec = FragmentSpec {
    role: USER_ROLE,
    content_kind: "guardian.node_repl_review_evidence",
    start_marker: "<node_repl_review_evidence>",
    end_marker: "</node_repl_review_evidence>",
    placement: MessagePlacement::Mergeable,
};

/// Largest rendered fragment, markers included, in bytes (upstream's bound).
pub const MAX_RENDERED_BYTES: usize = 32_000;
/// Cap of the rendered fragment, in o200k tokens.
pub const MAX_TOKENS: usize = MAX_INJECTED_ITEM_TOKENS;
/// Longest provenance label kept, in bytes.
pub const MAX_PROVENANCE_BYTES: usize = 128;
/// Room kept for the omission line.
const OMISSION_LINE_RESERVE: usize = 64;

/// One completed node_repl call: its sequence number, where it came from (tool, cell, call)
/// and its visible text (empty when it printed nothing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeReplResponse {
    pub sequence: u64,
    pub provenance: String,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeReplReviewEvidence {
    body: String,
}

impl NodeReplReviewEvidence {
    /// `responses` oldest first; `omitted_responses` counts responses already dropped before.
    pub fn new(
        responses: &[NodeReplResponse],
        omitted_responses: u64,
        templates: &TemplateSet,
    ) -> Self {
        let intro = format!(
            "\n{}\n",
            templates.text(TemplateId::FragmentNodeReplReviewEvidence)
        );
        let (start, end) = NODE_REPL_REVIEW_EVIDENCE.markers();
        let fixed_bytes = start.len() + end.len() + intro.len() + OMISSION_LINE_RESERVE;
        let fixed_tokens = o200k_token_count(start)
            + o200k_token_count(end)
            + o200k_token_count(&intro)
            + OMISSION_LINE_RESERVE;
        let mut bytes_left = MAX_RENDERED_BYTES.saturating_sub(fixed_bytes);
        let mut tokens_left = MAX_TOKENS.saturating_sub(fixed_tokens);
        let mut selected = Vec::new();
        for response in responses.iter().rev() {
            // Provenance may not break the header line or forge `key=value` pairs and brackets.
            let mut provenance_end = response.provenance.len().min(MAX_PROVENANCE_BYTES);
            while !response.provenance.is_char_boundary(provenance_end) {
                provenance_end -= 1;
            }
            let provenance = response.provenance[..provenance_end]
                .replace(['\n', '\r', '[', ']', '='], "_")
                .replace("</", "<\\/");
            let mut rendered = templates.render(
                TemplateId::FragmentNodeReplResponseHeader,
                &[
                    ("sequence", &response.sequence.to_string()),
                    ("provenance", &provenance),
                ],
            );
            rendered.push('\n');
            if response.text.is_empty() {
                rendered.push_str(templates.text(TemplateId::FragmentNodeReplResponseEmpty));
                rendered.push('\n');
            } else {
                rendered.push_str(&response.text.replace("</", "<\\/"));
                rendered.push('\n');
            }
            let tokens = o200k_token_count(&rendered);
            if rendered.len() > bytes_left || tokens > tokens_left {
                break;
            }
            bytes_left -= rendered.len();
            tokens_left -= tokens;
            selected.push(rendered);
        }
        let dropped = u64::try_from(responses.len() - selected.len()).unwrap_or(u64::MAX);
        let omitted = omitted_responses.saturating_add(dropped);
        let mut body = intro;
        if omitted > 0 {
            body.push_str(&format!("<omitted node_repl_responses=\"{omitted}\" />\n"));
        }
        for rendered in selected.into_iter().rev() {
            body.push_str(&rendered);
        }
        Self {
            body: cap_rendered_body(&NODE_REPL_REVIEW_EVIDENCE, body, MAX_TOKENS, templates),
        }
    }
}

spec_fragment!(NodeReplReviewEvidence, NODE_REPL_REVIEW_EVIDENCE);
