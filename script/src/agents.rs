//! `agent`: the sub-agent a scripted `spawn_agent` call starts (upstream's multi-agent v1
//! `spawn_agent` in `codex-rs/core/src/tools/handlers/multi_agents/spawn.rs`). The call keeps
//! upstream's name, namespace and argument keys (`message`, `fork_context`); the `agent` object
//! says how the child's thread plays:
//!
//! | key | value | meaning |
//! |---|---|---|
//! | `assistant` | `"text"` | the child model's reply to its first request |
//! | `nickname` | `"name"` | the child's nickname (upstream draws one); none when absent |
//! | `runs` | `"before_follow_up"` \| `"after_follow_up"` (default) | the child's turn plays before the parent's request with the call's output, or after its reply |
//! | `ends` | `"completed"` (default) \| `"unfinished"` | the child's turn completes and the parent's turn is told (`<subagent_notification>`), or the run stops with the child's turn still open |
//! | `notice_reply` | `{"assistant": "text"}` \| `{"error": "message", "attempts": N}` | what the parent's model answers the request the notification brings: a reply, or an error on each of N attempts, which fails the parent's turn; absent, the run's responder answers |

use serde_json::Value;

use super::ScriptError;
use super::format::check_keys;

/// The upstream tool that starts a sub-agent, and its namespace.
pub const SPAWN_AGENT_TOOL: &str = "spawn_agent";
pub const MULTI_AGENT_V1_NAMESPACE: &str = "multi_agent_v1";

/// Keys of the `agent` object.
pub const AGENT_KEYS: &[&str] = &["assistant", "nickname", "runs", "ends", "notice_reply"];

/// The sub-agent a `spawn_agent` call starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptedAgent {
    pub assistant: Option<String>,
    pub nickname: Option<String>,
    pub runs: AgentRuns,
    pub ends: AgentEnd,
    pub notice_reply: NoticeReply,
}

/// When the child's turn plays, relative to the parent's next request (upstream runs both at
/// once; a script picks the order a capture shows).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AgentRuns {
    /// Before the parent's request carrying the call's output.
    BeforeFollowUp,
    /// After the parent's reply to that request.
    #[default]
    AfterFollowUp,
}

/// How the child's turn ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AgentEnd {
    /// It completes, and the parent's turn is told with a `<subagent_notification>`.
    #[default]
    Completed,
    /// The run stops while it is still open: no `task_complete`, no notification.
    Unfinished,
}

/// What the parent's model answers the request a completion notification brings.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum NoticeReply {
    /// The run's responder answers, as it answers a turn with no `assistant` (a scripted run
    /// records no output; a live one asks the endpoint).
    #[default]
    Responder,
    Assistant(String),
    /// The endpoint fails every attempt: the request is sent `attempts` times and the turn
    /// fails with `message`.
    Error {
        message: String,
        attempts: u32,
    },
}

/// The arguments of a `spawn_agent` call this project reads.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct SpawnAgentArgs {
    pub message: String,
    #[serde(default)]
    pub fork_context: bool,
}

impl SpawnAgentArgs {
    /// The call's arguments (the model's JSON text) at `location`.
    pub fn parse(arguments: &str, location: &str) -> Result<Self, ScriptError> {
        serde_json::from_str(arguments).map_err(|error| {
            ScriptError::invalid(
                format!("{location}.arguments"),
                format!("spawn_agent takes {{\"message\", \"fork_context\"?}}: {error}"),
            )
        })
    }
}

/// Parses the `agent` object at `location`.
pub(super) fn parse_agent(value: &Value, location: &str) -> Result<ScriptedAgent, ScriptError> {
    let Value::Object(agent) = value else {
        return Err(ScriptError::invalid(location, "must be an object"));
    };
    check_keys(agent, AGENT_KEYS, location)?;
    let text = |key: &str| match agent.get(key) {
        None => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(_) => Err(ScriptError::invalid(
            format!("{location}.{key}"),
            "must be a string",
        )),
    };
    let runs = match text("runs")?.as_deref() {
        None | Some("after_follow_up") => AgentRuns::AfterFollowUp,
        Some("before_follow_up") => AgentRuns::BeforeFollowUp,
        Some(_) => {
            return Err(ScriptError::invalid(
                format!("{location}.runs"),
                "must be \"before_follow_up\" or \"after_follow_up\"",
            ));
        }
    };
    let ends = match text("ends")?.as_deref() {
        None | Some("completed") => AgentEnd::Completed,
        Some("unfinished") => AgentEnd::Unfinished,
        Some(_) => {
            return Err(ScriptError::invalid(
                format!("{location}.ends"),
                "must be \"completed\" or \"unfinished\"",
            ));
        }
    };
    let notice_reply = match agent.get("notice_reply") {
        None => NoticeReply::Responder,
        Some(value) => parse_notice_reply(value, &format!("{location}.notice_reply"))?,
    };
    Ok(ScriptedAgent {
        assistant: text("assistant")?,
        nickname: text("nickname")?,
        runs,
        ends,
        notice_reply,
    })
}

fn parse_notice_reply(value: &Value, location: &str) -> Result<NoticeReply, ScriptError> {
    let Value::Object(reply) = value else {
        return Err(ScriptError::invalid(location, "must be an object"));
    };
    check_keys(reply, &["assistant", "error", "attempts"], location)?;
    match (
        reply.get("assistant"),
        reply.get("error"),
        reply.get("attempts"),
    ) {
        (Some(Value::String(text)), None, None) => Ok(NoticeReply::Assistant(text.clone())),
        (None, Some(Value::String(message)), attempts) => {
            let attempts = match attempts {
                None => 1,
                Some(value) => value
                    .as_u64()
                    .and_then(|count| u32::try_from(count).ok())
                    .filter(|count| *count > 0)
                    .ok_or_else(|| {
                        ScriptError::invalid(
                            format!("{location}.attempts"),
                            "must be a positive number of requests",
                        )
                    })?,
            };
            Ok(NoticeReply::Error {
                message: message.clone(),
                attempts,
            })
        }
        _ => Err(ScriptError::invalid(
            location,
            "must be {\"assistant\": \"text\"} or {\"error\": \"message\", \"attempts\"?: N}",
        )),
    }
}
