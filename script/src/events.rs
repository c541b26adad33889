//! Turn events: what happens around a scripted turn besides the user's message and the model's
//! reply. Each is an optional key of the turn object:
//!
//! | key | value | recorded |
//! |---|---|---|
//! | `time_reminder` | `true` | `<current_time_reminder>` developer message before the turn's first request |
//! | `shell` | `{"command", "exit_code"?, "output"?, "duration_ms"?}` | the user ran a command before the turn: its own task (`task_started`, `<user_shell_command>` user message, `task_complete`) |
//! | `interrupt` | `true` | the user stops the turn after its first response: `<turn_aborted>` user message and a `turn_aborted` event instead of `task_complete` |
//! | `hook_context` | `["text", …]` | one developer message per text, right after the user's message |
//! | `additional_context` | `{"KEY": {"value", "trust"?: "untrusted" \| "application"}}` | before the user's message, one message per key whose value history does not already hold (`<external_KEY>` user message, or `<KEY>` developer message) |
//! | `subagent_status` | `{"agent_path", "status"}` | `<subagent_notification>` user message before the turn's first request |
//! | `network_rule` | `{"host", "allow": bool}` | network rule notice (developer) after the turn's first response |
//! | `approve_prefix` | `["cargo", "test"]` | approved after the first response; the permissions section announces it before the next request |
//! | `tool_calls` | `[{"name", "arguments"?, "output"?, "namespace"?, "call_id"?, "agent"?}]` | the first response is these function calls; outputs follow and a second request gets the reply; a `spawn_agent` call with `agent` starts a sub-agent (see [`ScriptedAgent`]) |
//! | `expect_failure` | `"text"` | the turn must fail before any request (its AGENTS.md cannot be loaded: the permission profile denies reading it), with an error containing the text: `task_started`, then `task_complete` with the `error`, and nothing else; the run reports the failure |
//!
//! `status` spells upstream's agent status: `"pending_init"`, `"running"`, `"interrupted"`,
//! `"shutdown"`, `"not_found"`, `{"completed": "message" | null}` or `{"errored": "message"}`.
//! A tool call without `output` stays unanswered (the next request answers it `aborted`).
//!
//! With `current_time_reminder_interval` (seconds) in the configuration, every request is
//! preceded by a reminder once the clock has moved that far since the last one (the first
//! request of a session, and of a context window after compaction, always gets one).

use std::collections::BTreeMap;
use std::time::Duration;

use codex_fragments::additional_context_user::AdditionalContextKey;
use codex_fragments::network_rule_saved::NetworkRuleAction;
use codex_fragments::subagent_notification::AgentStatus;
use serde_json::Map;
use serde_json::Value;

use super::ScriptError;
use super::agents::MULTI_AGENT_V1_NAMESPACE;
use super::agents::SPAWN_AGENT_TOOL;
use super::agents::ScriptedAgent;
use super::agents::SpawnAgentArgs;
use super::agents::parse_agent;

/// Turn keys that carry events.
pub const EVENT_KEYS: &[&str] = &[
    "time_reminder",
    "shell",
    "interrupt",
    "hook_context",
    "additional_context",
    "subagent_status",
    "network_rule",
    "approve_prefix",
    "tool_calls",
    "expect_failure",
];

/// The events of one turn; the default has none.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TurnEvents {
    pub time_reminder: TimeReminder,
    /// A command the user ran before the turn.
    pub shell: Option<UserShellCommandRun>,
    pub ending: TurnEnding,
    /// Texts a hook added to the user's prompt.
    pub hook_context: Vec<String>,
    /// The additional context published with the turn; `None` leaves it as it was.
    pub additional_context: Option<BTreeMap<AdditionalContextKey, AdditionalContextEntry>>,
    pub subagent_status: Option<SubagentStatus>,
    pub network_rule: Option<NetworkRule>,
    /// A command prefix the user approved during the turn.
    pub approve_prefix: Option<Vec<String>>,
    /// The function calls the model answers the turn's first request with.
    pub tool_calls: Vec<ScriptedToolCall>,
    /// Text the error of a turn that must fail before any request contains.
    pub expect_failure: Option<String>,
}

/// Whether the turn asks for a current-time reminder regardless of the configured interval.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TimeReminder {
    /// Only when `current_time_reminder_interval` says one is due.
    #[default]
    WhenDue,
    /// `"time_reminder": true`.
    Requested,
}

/// How the turn ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TurnEnding {
    #[default]
    Completed,
    /// `"interrupt": true`: the user stops the turn once its first response is in.
    Interrupted,
    /// The run stops while the turn is still open (a sub-agent's turn the run outlives): its
    /// output is recorded, no `task_complete` is.
    Unfinished,
}

/// A shell command the user ran themselves, and its result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserShellCommandRun {
    pub command: String,
    pub exit_code: i32,
    pub output: String,
    pub duration: Duration,
}

/// Who vouches for an additional-context value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ContextTrust {
    /// Shown to the model as external input (`<external_KEY>` in a user message).
    #[default]
    Untrusted,
    /// The application's own context (`<KEY>` in a developer message).
    Application,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdditionalContextEntry {
    pub value: String,
    pub trust: ContextTrust,
}

/// A sub-agent's status change the parent is told about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubagentStatus {
    pub agent_path: String,
    pub status: AgentStatus,
}

/// A network rule the user saved while approving a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetworkRule {
    pub host: String,
    pub action: NetworkRuleAction,
}

/// A function call of the scripted model and the output the tool returned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptedToolCall {
    pub name: String,
    pub namespace: Option<String>,
    /// The arguments as the model writes them (compact JSON).
    pub arguments: String,
    /// `None`: drawn from the session's id stream.
    pub call_id: Option<String>,
    /// `None`: the tool never answered.
    pub output: Option<String>,
    /// The sub-agent a `spawn_agent` call starts (`agent`); its output is the agent's id.
    pub agent: Option<ScriptedAgent>,
}

impl TurnEvents {
    /// The events among the keys of `turn` (a turn object at `location`).
    pub(super) fn parse(turn: &Map<String, Value>, location: &str) -> Result<Self, ScriptError> {
        let at = |key: &str| format!("{location}.{key}");
        let mut events = TurnEvents::default();
        if flag(turn, "time_reminder", location)? {
            events.time_reminder = TimeReminder::Requested;
        }
        if flag(turn, "interrupt", location)? {
            events.ending = TurnEnding::Interrupted;
        }
        if let Some(value) = turn.get("shell") {
            events.shell = Some(parse_shell(value, &at("shell"))?);
        }
        if let Some(value) = turn.get("hook_context") {
            events.hook_context = strings(value, &at("hook_context"))?;
        }
        if let Some(value) = turn.get("additional_context") {
            events.additional_context =
                Some(parse_additional_context(value, &at("additional_context"))?);
        }
        if let Some(value) = turn.get("subagent_status") {
            events.subagent_status = Some(parse_subagent_status(value, &at("subagent_status"))?);
        }
        if let Some(value) = turn.get("network_rule") {
            events.network_rule = Some(parse_network_rule(value, &at("network_rule"))?);
        }
        if let Some(value) = turn.get("approve_prefix") {
            let prefix = strings(value, &at("approve_prefix"))?;
            if prefix.is_empty() {
                return Err(ScriptError::invalid(
                    at("approve_prefix"),
                    "must name at least one command word",
                ));
            }
            events.approve_prefix = Some(prefix);
        }
        if let Some(value) = turn.get("expect_failure") {
            let Some(text) = value.as_str().filter(|text| !text.is_empty()) else {
                return Err(ScriptError::invalid(
                    at("expect_failure"),
                    "must be the (non-empty) text the turn's error contains",
                ));
            };
            if events.ending == TurnEnding::Interrupted {
                return Err(ScriptError::invalid(
                    at("expect_failure"),
                    "a turn that fails before any request cannot be interrupted",
                ));
            }
            events.expect_failure = Some(text.to_string());
        }
        if let Some(value) = turn.get("tool_calls") {
            let Value::Array(calls) = value else {
                return Err(ScriptError::invalid(
                    at("tool_calls"),
                    "must be an array of call objects",
                ));
            };
            events.tool_calls = calls
                .iter()
                .enumerate()
                .map(|(index, call)| {
                    parse_tool_call(call, &format!("{location}.tool_calls[{index}]"))
                })
                .collect::<Result<_, _>>()?;
        }
        Ok(events)
    }
}

fn flag(object: &Map<String, Value>, key: &str, location: &str) -> Result<bool, ScriptError> {
    match object.get(key) {
        None => Ok(false),
        Some(Value::Bool(value)) => Ok(*value),
        Some(_) => Err(ScriptError::invalid(
            format!("{location}.{key}"),
            "must be true or false",
        )),
    }
}

fn object<'a>(
    value: &'a Value,
    location: &str,
    keys: &[&str],
) -> Result<&'a Map<String, Value>, ScriptError> {
    let Value::Object(object) = value else {
        return Err(ScriptError::invalid(location, "must be an object"));
    };
    match object.keys().find(|key| !keys.contains(&key.as_str())) {
        Some(key) => Err(ScriptError::invalid(
            location,
            format!(
                "unknown key \"{key}\" (expected one of: {})",
                keys.join(", ")
            ),
        )),
        None => Ok(object),
    }
}

fn required_string(
    object: &Map<String, Value>,
    key: &str,
    location: &str,
) -> Result<String, ScriptError> {
    optional_string(object, key, location)?
        .ok_or_else(|| ScriptError::invalid(location, format!("missing key \"{key}\"")))
}

fn optional_string(
    object: &Map<String, Value>,
    key: &str,
    location: &str,
) -> Result<Option<String>, ScriptError> {
    match object.get(key) {
        None => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(_) => Err(ScriptError::invalid(
            format!("{location}.{key}"),
            "must be a string",
        )),
    }
}

fn strings(value: &Value, location: &str) -> Result<Vec<String>, ScriptError> {
    let invalid = || ScriptError::invalid(location, "must be an array of strings");
    let Value::Array(items) = value else {
        return Err(invalid());
    };
    items
        .iter()
        .map(|item| item.as_str().map(str::to_string).ok_or_else(invalid))
        .collect()
}

fn parse_shell(value: &Value, location: &str) -> Result<UserShellCommandRun, ScriptError> {
    let shell = object(
        value,
        location,
        &["command", "exit_code", "output", "duration_ms"],
    )?;
    let exit_code = match shell.get("exit_code") {
        None => 0,
        Some(code) => code
            .as_i64()
            .and_then(|code| i32::try_from(code).ok())
            .ok_or_else(|| {
                ScriptError::invalid(format!("{location}.exit_code"), "must be a 32-bit integer")
            })?,
    };
    let duration_ms = match shell.get("duration_ms") {
        None => 0,
        Some(millis) => millis.as_u64().ok_or_else(|| {
            ScriptError::invalid(
                format!("{location}.duration_ms"),
                "must be a whole number of milliseconds",
            )
        })?,
    };
    Ok(UserShellCommandRun {
        command: required_string(shell, "command", location)?,
        exit_code,
        output: optional_string(shell, "output", location)?.unwrap_or_default(),
        duration: Duration::from_millis(duration_ms),
    })
}

fn parse_additional_context(
    value: &Value,
    location: &str,
) -> Result<BTreeMap<AdditionalContextKey, AdditionalContextEntry>, ScriptError> {
    let Value::Object(entries) = value else {
        return Err(ScriptError::invalid(location, "must be an object of keys"));
    };
    entries
        .iter()
        .map(|(key, entry)| {
            let entry_location = format!("{location}.{key}");
            let key = AdditionalContextKey::new(key.clone())
                .map_err(|error| ScriptError::invalid(&entry_location, error.to_string()))?;
            let entry_object = object(entry, &entry_location, &["value", "trust"])?;
            let trust = match optional_string(entry_object, "trust", &entry_location)?.as_deref() {
                None | Some("untrusted") => ContextTrust::Untrusted,
                Some("application") => ContextTrust::Application,
                Some(other) => {
                    return Err(ScriptError::invalid(
                        format!("{entry_location}.trust"),
                        format!("unknown trust \"{other}\" (expected untrusted or application)"),
                    ));
                }
            };
            let value = required_string(entry_object, "value", &entry_location)?;
            Ok((key, AdditionalContextEntry { value, trust }))
        })
        .collect()
}

fn parse_subagent_status(value: &Value, location: &str) -> Result<SubagentStatus, ScriptError> {
    let notice = object(value, location, &["agent_path", "status"])?;
    let status_location = format!("{location}.status");
    let invalid = || {
        ScriptError::invalid(
            &status_location,
            "must be \"pending_init\", \"running\", \"interrupted\", \"shutdown\", \"not_found\", \
             {\"completed\": text or null} or {\"errored\": text}",
        )
    };
    let status = match notice.get("status") {
        Some(Value::String(status)) => match status.as_str() {
            "pending_init" => AgentStatus::PendingInit,
            "running" => AgentStatus::Running,
            "interrupted" => AgentStatus::Interrupted,
            "shutdown" => AgentStatus::Shutdown,
            "not_found" => AgentStatus::NotFound,
            "completed" => AgentStatus::Completed(None),
            _ => return Err(invalid()),
        },
        Some(Value::Object(status)) if status.len() == 1 => {
            match (status.get("completed"), status.get("errored")) {
                (Some(Value::Null), None) => AgentStatus::Completed(None),
                (Some(Value::String(message)), None) => {
                    AgentStatus::Completed(Some(message.clone()))
                }
                (None, Some(Value::String(error))) => AgentStatus::Errored(error.clone()),
                _ => return Err(invalid()),
            }
        }
        Some(_) => return Err(invalid()),
        None => return Err(ScriptError::invalid(location, "missing key \"status\"")),
    };
    Ok(SubagentStatus {
        agent_path: required_string(notice, "agent_path", location)?,
        status,
    })
}

fn parse_network_rule(value: &Value, location: &str) -> Result<NetworkRule, ScriptError> {
    let rule = object(value, location, &["host", "allow"])?;
    let action = match rule.get("allow") {
        Some(Value::Bool(true)) => NetworkRuleAction::Allow,
        Some(Value::Bool(false)) => NetworkRuleAction::Deny,
        Some(_) => {
            return Err(ScriptError::invalid(
                format!("{location}.allow"),
                "must be true or false",
            ));
        }
        None => return Err(ScriptError::invalid(location, "missing key \"allow\"")),
    };
    Ok(NetworkRule {
        host: required_string(rule, "host", location)?,
        action,
    })
}

fn parse_tool_call(value: &Value, location: &str) -> Result<ScriptedToolCall, ScriptError> {
    let call = object(
        value,
        location,
        &[
            "name",
            "namespace",
            "arguments",
            "call_id",
            "output",
            "agent",
        ],
    )?;
    let arguments = match call.get("arguments") {
        None => "{}".to_string(),
        // A string is the model's text as is; anything else is written as compact JSON.
        Some(Value::String(text)) => text.clone(),
        Some(arguments) => arguments.to_string(),
    };
    let name = required_string(call, "name", location)?;
    let namespace = optional_string(call, "namespace", location)?;
    let output = optional_string(call, "output", location)?;
    let agent = match call.get("agent") {
        None => None,
        Some(value) => {
            if name != SPAWN_AGENT_TOOL || namespace.as_deref() != Some(MULTI_AGENT_V1_NAMESPACE) {
                return Err(ScriptError::invalid(
                    format!("{location}.agent"),
                    format!(
                        "only a \"{SPAWN_AGENT_TOOL}\" call (namespace \"{MULTI_AGENT_V1_NAMESPACE}\") starts an agent"
                    ),
                ));
            }
            if output.is_some() {
                return Err(ScriptError::invalid(
                    format!("{location}.output"),
                    "a call that starts an agent answers with the agent's id: no \"output\"",
                ));
            }
            SpawnAgentArgs::parse(&arguments, location)?;
            Some(parse_agent(value, &format!("{location}.agent"))?)
        }
    };
    Ok(ScriptedToolCall {
        name,
        namespace,
        arguments,
        call_id: optional_string(call, "call_id", location)?,
        output,
        agent,
    })
}
