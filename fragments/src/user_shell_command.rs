//! `<user_shell_command>`: a command the user ran themselves (`!cmd`) and its result, recorded
//! so the model knows what happened.

use std::time::Duration;

use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::USER_ROLE;
use codex_context_fragments::spec_fragment;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;

use super::size_cap::Keep;
use super::size_cap::cap_rendered_body;
use super::size_cap::cap_tokens;

pub const USER_SHELL_COMMAND: FragmentSpec = FragmentSpec {
    role: USER_ROLE,
    content_kind: "shell.user_command",
    start_marker: "<user_shell_command>",
    end_marker: "</user_shell_command>",
    placement: MessagePlacement::Mergeable,
};

/// Cap of the rendered fragment, in o200k tokens.
pub const MAX_TOKENS: usize = 10_000;
/// Cap of the command line; a longer one keeps its beginning.
pub const MAX_COMMAND_TOKENS: usize = 1_000;
/// Cap of the output; a longer one keeps its beginning and its end.
pub const MAX_OUTPUT_TOKENS: usize = 8_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserShellCommand {
    body: String,
}

impl UserShellCommand {
    pub fn new(
        command: &str,
        exit_code: i32,
        duration: Duration,
        output: &str,
        templates: &TemplateSet,
    ) -> Self {
        let command = cap_tokens(command, MAX_COMMAND_TOKENS, Keep::Head, templates);
        let output = cap_tokens(output, MAX_OUTPUT_TOKENS, Keep::HeadAndTail, templates);
        let result = templates.render(
            TemplateId::FragmentUserShellCommandResult,
            &[
                ("exit_code", &exit_code.to_string()),
                ("duration", &format!("{:.4}", duration.as_secs_f64())),
                ("output", &output),
            ],
        );
        let body = format!("\n<command>\n{command}\n</command>\n<result>\n{result}\n</result>\n");
        Self {
            body: cap_rendered_body(&USER_SHELL_COMMAND, body, MAX_TOKENS, templates),
        }
    }
}

spec_fragment!(UserShellCommand, USER_SHELL_COMMAND);
