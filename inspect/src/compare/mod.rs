//! `compare`: a structural diff of two sets of `/responses` requests (and, when both sides are
//! rollouts, of their line sequences).
//!
//! - [`load_compare_input`] / [`parse_compare_input`] read one side: a request body, a folder of
//!   `request-NN.json` files, JSON lines of request bodies, or a rollout (its requests rebuilt).
//! - [`compare_inputs`] pairs the requests in order and reports, per pair, the top-level fields
//!   that differ (`instructions` and `tools` presence, tool names, `parallel_tool_calls`,
//!   `reasoning`, `include`, `store`, `stream`, `text`) and the `input` items that are missing,
//!   extra, moved or changed (role, `id` presence, number of content entries, the
//!   classification of each entry). Items are aligned by a longest common subsequence of their
//!   signatures (item type, role, tool name, entry classifications). Tools (in `tools` or an
//!   `additional_tools` item, inside namespaces too) are compared by name, type, keys and
//!   parameter keys, never by description; every other top-level field by presence, and the
//!   top-level keys by order.
//! - Entries are classified with the fragment registry's
//!   [`classify`](codex_fragments::classify); text inside a recognised
//!   [`classify`](codex_fragments::classify); text inside a recognised
//!   fragment is prose and only its protocol-fixed structure is compared (the tags of
//!   `<environment_context>`, the AGENTS.md header and `<INSTRUCTIONS>` wrapper, the markers
//!   around other fragments). Text nobody injected (what users, assistants and developers
//!   wrote) is compared as is. [`ProseMode::Show`] adds unified diffs of the prose, which never
//!   count as structural differences.
//! - Ids, `create_time`, `turn_id`, `prompt_cache_key` and `client_metadata` are volatile: never
//!   compared by value. `client_metadata` and the turn-metadata JSON it carries are compared by
//!   their key sets (in any order). A body without `instructions` whose first message is a
//!   developer message of plain text carries its base instructions there: that entry is
//!   `base_instructions`, prose like `instructions`.

mod align;
mod error;
mod input;
mod report;
mod request;
mod rollout_lines;
mod schema;
mod shape;
mod structure;

pub use error::CompareError;
pub use input::CompareInput;
pub use input::InputKind;
pub use input::load_compare_input;
pub use input::parse_compare_input;
pub use report::CompareReport;
pub use report::Difference;
pub use report::DifferenceDetail;
pub use report::Position;
pub use report::ProseDifference;
pub use report::Side;
pub use report::WorldStateMode;

use request::Findings;
pub(crate) use shape::carries_base_instructions;
pub(crate) use shape::tool_names;

/// Whether text inside recognised fragments is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ProseMode {
    /// Only the fixed structure of fragments is compared.
    #[default]
    Ignore,
    /// Changed prose is also shown as unified diffs (not counted as structural).
    Show,
}

/// Compares `a` with `b`: request pairs in order, then the rollout line sequences when both
/// sides are rollouts.
pub fn compare_inputs(a: &CompareInput, b: &CompareInput, prose: ProseMode) -> CompareReport {
    let mut findings = Findings::default();
    for (index, (request_a, request_b)) in a.requests.iter().zip(&b.requests).enumerate() {
        request::compare_request(index + 1, request_a, request_b, prose, &mut findings);
    }
    let requests_compared = a.requests.len().min(b.requests.len());
    for (side, longer) in [(Side::A, &a.requests), (Side::B, &b.requests)] {
        for number in requests_compared + 1..=longer.len() {
            findings.differences.push(Difference {
                request: Some(number),
                position: Position::Request,
                detail: DifferenceDetail::RequestOnlyIn { side },
            });
        }
    }
    let rollouts_compared = match (&a.rollout, &b.rollout) {
        (Some(rollout_a), Some(rollout_b)) => {
            findings
                .differences
                .extend(rollout_lines::compare_rollout_lines(rollout_a, rollout_b));
            true
        }
        (Some(_), None) | (None, Some(_)) | (None, None) => false,
    };
    CompareReport {
        requests_compared,
        rollouts_compared,
        differences: findings.differences,
        prose_differences: findings.prose,
    }
}
