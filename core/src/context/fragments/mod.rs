//! Every fragment type the harness injects outside the world-state sections, one module per
//! type, named after it. Each module declares the type's [`FragmentSpec`] (role, content kind,
//! markers, placement) — the one description that rendering and
//! [`fragment_registry`](crate::context::fragment_registry) recognition share — plus the
//! type's size cap in o200k tokens and, where upstream's matcher differs from the marker rule,
//! its own matcher.
//!
//! Fragments render their body when they are built: prose comes from `prompts/templates/`
//! (`fragments/*.md`), variable parts are cut to their caps with [`cap_tokens`], so the same
//! inputs always give the same bytes and no injected item exceeds
//! [`MAX_INJECTED_ITEM_TOKENS`].
//!
//! [`FragmentSpec`]: crate::context::world_state::FragmentSpec

/// Implements `ContextualUserFragment` for a fragment struct with a rendered `body: String`,
/// taking role, content kind, markers and placement from its `FragmentSpec` constant.
macro_rules! spec_fragment {
    ($fragment:ty, $spec:expr) => {
        impl codex_context_fragments::ContextualUserFragment for $fragment {
            fn role(&self) -> &'static str {
                $spec.role
            }

            fn content_kind(&self) -> codex_protocol::ContentItemKind {
                codex_protocol::ContentItemKind::new($spec.content_kind)
            }

            fn markers(&self) -> (&'static str, &'static str) {
                $spec.markers()
            }

            fn type_markers() -> (&'static str, &'static str) {
                $spec.markers()
            }

            fn body(&self) -> String {
                self.body.clone()
            }

            fn requires_separate_message(&self) -> bool {
                match $spec.placement {
                    $crate::context::world_state::MessagePlacement::Mergeable => false,
                    $crate::context::world_state::MessagePlacement::Separate => true,
                }
            }
        }
    };
}

pub mod additional_context_developer;
pub mod additional_context_user;
pub mod auto_compact_fallback_prompt;
pub mod available_skills_instructions;
pub mod base_instructions;
pub mod compaction_summary;
pub mod current_time_reminder;
pub mod developer_instructions;
mod error;
pub mod guardian_approved_action;
pub mod guardian_followup_review_reminder;
pub mod guardian_node_repl_policy;
pub mod guardian_policy;
pub mod guardian_review_evidence;
pub mod historical_fragments;
pub mod hook_additional_context;
pub mod hook_prompt;
pub mod image_resize_notice;
pub mod inter_agent_completion_message;
pub mod inter_agent_message;
pub mod internal_model_context;
pub mod legacy_apply_patch_exec_command_warning;
pub mod legacy_model_mismatch_warning;
pub mod legacy_unified_exec_process_limit_warning;
pub mod network_rule_saved;
pub mod node_repl_review_evidence;
pub mod plugin_instructions;
pub mod realtime_delegation;
pub mod recommended_plugins;
pub mod rollout_budget;
mod size_cap;
pub mod skill_instructions;
pub mod subagent_notification;
pub mod token_budget_remaining;
pub mod token_budget_reminder;
pub mod turn_aborted;
pub mod unsupported_media;
pub mod user_shell_command;

pub use error::FragmentError;
pub use size_cap::Keep;
pub use size_cap::MAX_INJECTED_ITEM_TOKENS;
pub use size_cap::cap_tokens;
pub use size_cap::fits_in_tokens;
pub use size_cap::o200k_token_count;
