//! Warnings upstream once injected into the contextual user message as plain text: that the
//! model ran `apply_patch` through `exec_command`, that it kept too many unified exec processes
//! open, and that requests were rerouted to another model after an account flag. None is
//! produced any more; they are kept so that old sessions' warnings are recognised as injected
//! context. They carry no markers, so each is recognised by how its text began and ended.

use codex_context_fragments::ContextualUserFragment;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::USER_ROLE;
use codex_protocol::ContentItemKind;

/// One historical warning: its spec (unmarked) and its text rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LegacyWarning {
    pub spec: FragmentSpec,
    /// How the warning text began (case-sensitive, after trimming).
    pub prefix: &'static str,
    /// How the warning text ended (case-sensitive, after trimming); empty when any ending
    /// counts.
    pub suffix: &'static str,
}

impl LegacyWarning {
    const fn unmarked_user_warning(
        content_kind: &'static str,
        prefix: &'static str,
        suffix: &'static str,
    ) -> Self {
        Self {
            spec: FragmentSpec {
                role: USER_ROLE,
                content_kind,
                start_marker: "",
                end_marker: "",
                placement: MessagePlacement::Mergeable,
            },
            prefix,
            suffix,
        }
    }

    /// Whether `text` is this warning.
    pub fn matches(&self, text: &str) -> bool {
        let trimmed = text.trim();
        trimmed.starts_with(self.prefix) && trimmed.ends_with(self.suffix)
    }
}

/// The warning once given when the model had too many unified exec processes open.
pub const LEGACY_UNIFIED_EXEC_PROCESS_LIMIT_WARNING: LegacyWarning =
    LegacyWarning::unmarked_user_warning(
        "unified_exec.legacy_process_limit_warning",
        "Warning: The maximum number of unified exec processes you can keep open is",
        "",
    );

/// The warning once given when the model ran apply_patch through exec_command.
pub const LEGACY_APPLY_PATCH_EXEC_COMMAND_WARNING: LegacyWarning =
    LegacyWarning::unmarked_user_warning(
        "apply_patch.legacy_exec_command_warning",
        "Warning: apply_patch was requested via ",
        "Use the apply_patch tool instead of exec_command.",
    );

/// The warning once given when requests were rerouted to another model after an account flag.
pub const LEGACY_MODEL_MISMATCH_WARNING: LegacyWarning = LegacyWarning::unmarked_user_warning(
    "model_switch.legacy_mismatch_warning",
    "Warning: Your account was flagged for potentially high-risk cyber activity",
    "",
);

/// A historical warning as a fragment. It renders nothing: only recognition is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LegacyWarningFragment {
    warning: LegacyWarning,
}

impl LegacyWarningFragment {
    pub fn new(warning: LegacyWarning) -> Self {
        Self { warning }
    }
}

impl ContextualUserFragment for LegacyWarningFragment {
    fn role(&self) -> &'static str {
        self.warning.spec.role
    }

    fn content_kind(&self) -> ContentItemKind {
        ContentItemKind::new(self.warning.spec.content_kind)
    }

    fn markers(&self) -> (&'static str, &'static str) {
        self.warning.spec.markers()
    }

    fn type_markers() -> (&'static str, &'static str) {
        ("", "")
    }

    /// Whether `text` is any of the historical warnings (the type does not know which one an
    /// instance stands for).
    fn matches_text(text: &str) -> bool {
        [
            LEGACY_UNIFIED_EXEC_PROCESS_LIMIT_WARNING,
            LEGACY_APPLY_PATCH_EXEC_COMMAND_WARNING,
            LEGACY_MODEL_MISMATCH_WARNING,
        ]
        .iter()
        .any(|warning| warning.matches(text))
    }

    fn body(&self) -> String {
        String::new()
    }
}
