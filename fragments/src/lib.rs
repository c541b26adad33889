//! Every kind of context fragment a Codex session can put into history, and the one registry
//! that tells injected context apart from what people wrote.
//!
//! - One module per fragment type the harness injects outside the world-state sections, named
//!   after it. Each declares the type's [`FragmentSpec`] (role, content kind, markers,
//!   placement) — the one description that rendering and registry recognition share — plus
//!   the type's size cap in o200k tokens and, where upstream's matcher differs from the marker
//!   rule, its own matcher.
//! - [`sections`]: the specs of the fragments the world-state sections render (the sections
//!   themselves live in `codex-core` and take their specs from here).
//! - The registry ([`all_fragment_types`], [`classify`], …): one row per fragment type, from
//!   which every recogniser is derived, and the per-item verdicts built on it
//!   ([`is_user_turn_boundary`], [`is_context_update`], [`is_compaction_summary`], …) that
//!   sessions, history, rollouts, `inspect` and `compare` use.
//!
//! Fragments render their body when they are built: prose comes from `prompts/templates/`
//! (`fragments/*.md`), variable parts are cut to their caps with [`cap_tokens`], so the same
//! inputs always give the same bytes and no injected item exceeds
//! [`MAX_INJECTED_ITEM_TOKENS`].
//!
//! [`FragmentSpec`]: codex_context_fragments::FragmentSpec

// One module per fragment type.

pub mod additional_context_developer;
pub mod additional_context_user;
pub mod auto_compact_fallback_prompt;
pub mod available_skills_instructions;
pub mod base_instructions;
pub mod compaction_prompt;
pub mod compaction_summary;
pub mod current_time_reminder;
pub mod developer_instructions;
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
pub mod legacy_warnings;
pub mod network_rule_saved;
pub mod node_repl_review_evidence;
pub mod plugin_instructions;
pub mod realtime_delegation;
pub mod recommended_plugins;
pub mod rollout_budget;
pub mod skill_instructions;
pub mod subagent_notification;
pub mod token_budget_remaining;
pub mod token_budget_reminder;
pub mod turn_aborted;
pub mod turn_input_contribution;
pub mod unsupported_media;
pub mod user_shell_command;

mod contextual_user_message;
mod error;
mod o200k;
mod registry;
pub mod sections;
mod size_cap;

pub use error::FragmentError;
pub use size_cap::Keep;
pub use size_cap::MAX_INJECTED_ITEM_TOKENS;
pub use size_cap::cap_tokens;
pub use size_cap::fits_in_tokens;
pub use size_cap::load_tokenizer_in_background;
pub use size_cap::o200k_piece_token_count;
pub use size_cap::o200k_token_count;

// The registry: one row per fragment type, and the lists and classifier derived from it.
pub use registry::ContentKindPattern;
pub use registry::ContextualList;
pub use registry::FragmentOrigin;
pub use registry::FragmentTypeInfo;
pub use registry::Recognition;
pub use registry::SizeCap;
pub use registry::USER_CONTENT_KIND_PREFIX;
pub use registry::USER_TEXT_KIND;
pub use registry::all_fragment_types;
pub use registry::classify;
pub use registry::contextual_developer_prefixes;
pub use registry::contextual_user_fragment_types;
pub use registry::fragment_roles;
pub use registry::fragment_type;
pub use registry::user_text_message;

// Per-item verdicts derived from the registry: what is injected context, where user turns
// start, which message is a compaction summary.
pub use contextual_user_message::has_non_contextual_developer_content;
pub use contextual_user_message::is_compaction_summary;
pub use contextual_user_message::is_context_update;
pub use contextual_user_message::is_contextual_content;
pub use contextual_user_message::is_contextual_developer_message;
pub use contextual_user_message::is_contextual_text;
pub use contextual_user_message::is_contextual_user_message;
pub use contextual_user_message::is_user_turn_boundary;
