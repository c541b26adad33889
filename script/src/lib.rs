//! Scripted sessions: a JSON script of turns (settings changes, user messages, scripted model
//! replies, compactions, resumes) played through a [`Session`](codex_core::Session), with
//! every request the thread sends, byte for byte.
//!
//! - [`Script`] parses the file strictly; CONFIG objects and `--set key=value`
//!   become [`SettingsLayer`]s that [`load_config`] stacks over `config.toml`.
//! - [`ScriptedSession`] drives one thread turn by turn: [`ScriptedSession::start`],
//!   [`ScriptedSession::resume`] and [`ScriptedSession::fork`] open it,
//!   [`ScriptedSession::run_turn`] plays a [`TurnScript`] and returns its [`ScriptRequest`].
//!   The model's output comes from a [`TurnResponder`] as a [`ModelResponse`] (items and
//!   token usage; [`ScriptedReplies`] plays the script's `reasoning` items and `assistant`
//!   texts using no tokens, a live responder can ask an endpoint instead). [`ScriptedSession::apply_settings`] applies a
//!   settings operation (`thread_settings_applied` once the thread has run a turn).
//!   [`ScriptedSession::run_turn_steps`] hands over every request of a turn whose scripted
//!   `tool_calls` make it sample twice.
//! - [`TurnEvents`]: a turn's optional events (user shell command, time reminder, interrupt,
//!   hook and additional context, sub-agent status, network rule, approved prefix, tool calls),
//!   each recorded where upstream Codex records it.
//! - [`run_script`] plays a whole script, or its remaining turns after a rollout;
//!   [`play_script`] hands each request to a [`RequestSink`] as soon as it is built.
//! - [`run_function_call`] runs a function call a live model made (`exec_command`) and builds
//!   the output item that answers it.
//! - [`render_requests_jsonl`] / [`render_requests_layout`] / [`render_requests_delta`] print
//!   the requests; [`RequestPrinter`] prints each as it comes, keeping at most the previous
//!   request (the delta view, [`RequestDelta`], needs it).
//! - [`FileEdit`] and [`RolloutRewrite`]: what a step changes between turns (`edit`,
//!   `rewrite_rollout`); a script with edits runs on a [`Scratch`] copy of its scenario folder.
//! - [`ScriptSink`] takes the rollout lines: to a rollout file, and a copy for `resume` turns
//!   to re-read, in memory or, for long runs, in a temporary file ([`ReadBack`]).
//!
//! Runs are deterministic when the script pins `seed`, `current_date`, `timezone` and `shell`:
//! ids come from per-turn seeded streams, so running to turn k, resuming from the rollout and
//! running on gives the same requests as running straight through.

mod agents;
mod delta;
mod driver;
mod error;
mod events;
mod format;
mod reasoning;
mod render;
mod responder;
mod runner;
mod scratch;
mod settings;
mod sink;
mod steps;
mod thread;
mod tool_calls;

pub use agents::AGENT_KEYS;
pub use agents::AgentEnd;
pub use agents::AgentRuns;
pub use agents::MULTI_AGENT_V1_NAMESPACE;
pub use agents::NoticeReply;
pub use agents::SPAWN_AGENT_TOOL;
pub use agents::ScriptedAgent;
pub use agents::SpawnAgentArgs;
pub use delta::PreviousInput;
pub use delta::RequestDelta;
pub use delta::SharedPrefix;
pub use driver::ContextMode;
pub use driver::FailedTurn;
pub use driver::PlayedTurn;
pub use driver::RequestSink;
pub use driver::ScriptRequest;
pub use driver::ScriptedSession;
pub use driver::SessionEnvironment;
pub use error::ScriptError;
pub use events::AdditionalContextEntry;
pub use events::ContextTrust;
pub use events::EVENT_KEYS;
pub use events::NetworkRule;
pub use events::ScriptedToolCall;
pub use events::SubagentStatus;
pub use events::TimeReminder;
pub use events::TurnEnding;
pub use events::TurnEvents;
pub use events::UserShellCommandRun;
pub use format::AfterFork;
pub use format::AssistantReply;
pub use format::Compaction;
pub use format::ForkStep;
pub use format::SCRIPT_KEYS;
pub use format::Script;
pub use format::SessionContinuity;
pub use format::TURN_KEYS;
pub use format::TurnScript;
pub use reasoning::REASONING_KEYS;
pub use reasoning::ScriptedReasoning;
pub use render::RequestPrinter;
pub use render::RequestsFormat;
pub use render::render_requests_delta;
pub use render::render_requests_jsonl;
pub use render::render_requests_layout;
pub use responder::ModelResponse;
pub use responder::ScriptedReplies;
pub use responder::TurnResponder;
pub use runner::PlayedRollouts;
pub use runner::ScriptRun;
pub use runner::ScriptStart;
pub use runner::play_script;
pub use runner::run_script;
pub use scratch::Scratch;
pub use settings::CodexHome;
pub use settings::SettingsLayer;
pub use settings::load_config;
pub use settings::load_continued_config;
pub use sink::ReadBack;
pub use sink::ScriptSink;
pub use steps::EDIT_KEYS;
pub use steps::EditRoot;
pub use steps::FileChange;
pub use steps::FileEdit;
pub use steps::REWRITE_KEYS;
pub use steps::RolloutRewrite;
pub use thread::recorded_settings;
pub use tool_calls::COMMAND_REFUSED;
pub use tool_calls::CommandPolicy;
pub use tool_calls::EXEC_COMMAND_TOOL;
pub use tool_calls::FunctionCallRun;
pub use tool_calls::MAX_OUTPUT_TOKENS;
pub use tool_calls::MAX_RUN_TIME;
pub use tool_calls::run_function_call;
