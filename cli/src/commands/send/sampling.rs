//! The sampling loop of one `send` turn, as upstream's `run_turn` runs it
//! (`codex-rs/core/src/session/turn.rs`): sample; when the reply has function calls, run them,
//! record call and output, and sample again; when the token usage after a reply that needs a
//! follow-up reaches the model's auto-compaction limit, compact mid-turn first
//! (`codex-rs/core/src/compact.rs`: a summary request, the summary replacing history, the
//! token usage re-estimated), then go on.

use codex_client::CompletedResponse;
use codex_client::RequestBody;
use codex_client::RequestHeaders;
use codex_client::ResponsesClient;
use codex_client::ResponsesLite;
use codex_client::StreamProgress;
use codex_config::Config;
use codex_context_fragments::ContextualUserFragment;
use codex_core::CompactionPhase;
use codex_core::ContentItemKindsPolicy;
use codex_core::IdGenerator;
use codex_core::ResponsesRequest;
use codex_core::RolloutSink;
use codex_core::Session;
use codex_core::ToolSpec;
use codex_core::TurnContext;
use codex_core::build_compaction_request;
use codex_core::build_turn_request;
use codex_core::estimated_tokens;
use codex_fragments::compaction_prompt::CompactionPrompt;
use codex_prompts::TemplateSet;
use codex_protocol::ResponseItem;
use codex_protocol::rollout::TokenUsage;
use codex_protocol::rollout::TokenUsageInfo;
use codex_script::CommandPolicy;
use codex_script::FunctionCallRun;
use codex_script::run_function_call;

use super::AnswerPrinter;
use super::warn_if_over_context_window;
use crate::endpoint::runtime;

/// The most sampling requests one turn sends (compaction requests not counted); a model that
/// keeps calling tools past it ends the turn with an error.
pub const MAX_SAMPLING_STEPS: usize = 64;

/// What the loop needs besides the session.
pub struct TurnRun<'a> {
    pub config: &'a Config,
    pub turn: &'a TurnContext,
    pub tools: Vec<ToolSpec>,
    pub templates: &'a TemplateSet,
    pub ids: &'a IdGenerator,
    pub client: &'a ResponsesClient,
    pub commands: CommandPolicy,
}

/// Runs the turn's sampling steps after the user's message was recorded; returns the thread's
/// token usage after the last response.
pub fn run_sampling_loop<S: RolloutSink, W: std::io::Write>(
    run: &TurnRun<'_>,
    session: &mut Session<S>,
    printer: &mut AnswerPrinter<W>,
) -> anyhow::Result<Option<TokenUsageInfo>> {
    let mut usage: Option<TokenUsageInfo> = None;
    let window = run.turn.model.usable_context_window();
    for step in 0..MAX_SAMPLING_STEPS {
        let request = build_turn_request(
            run.turn,
            session.build_prompt_input(),
            run.tools.clone(),
            run.ids,
            ContentItemKindsPolicy::Strip,
        )?;
        if step == 0 {
            warn_if_over_context_window(&request, run.turn.model.context_window);
        }
        printer.start_response();
        let completed = send(run, &request, |progress| printer.report(&progress))?;
        printer.finish(&completed.items);
        let calls: Vec<FunctionCallRun> = completed
            .items
            .iter()
            .filter_map(|item| {
                run_function_call(item, &run.turn.cwd, run.commands, run.ids, run.templates)
            })
            .collect();
        session.record_model_output(completed.items)?;
        if let Some(last) = completed.token_usage {
            let info = TokenUsageInfo::after_response(usage.as_ref(), last, window);
            session.record_response_usage(
                Some(&completed.response_id),
                last,
                info.total_token_usage,
            )?;
            usage = Some(info);
        }
        let needs_follow_up = !calls.is_empty();
        let mut outputs = Vec::with_capacity(calls.len());
        for call in calls {
            if let Some(execution) = &call.execution {
                session.record_command_execution(execution)?;
            }
            outputs.push(call.output);
        }
        session.record_injected_items(outputs)?;
        session.record_token_count(usage.as_ref())?;
        if !needs_follow_up {
            return Ok(usage);
        }
        if let (Some(limit), Some(info)) = (run.turn.model.auto_compact_token_limit(), &usage)
            && active_context_tokens(info, session.history().items()) >= limit
        {
            usage = compact_mid_turn(run, session, usage)?;
        }
    }
    anyhow::bail!(
        "the model still called tools after {MAX_SAMPLING_STEPS} requests; the turn was stopped"
    )
}

/// The summary request, the summary replacing history, the usage re-estimated (upstream's
/// `run_compact_task_inner_impl` and `recompute_token_usage`).
fn compact_mid_turn<S: RolloutSink>(
    run: &TurnRun<'_>,
    session: &mut Session<S>,
    usage: Option<TokenUsageInfo>,
) -> anyhow::Result<Option<TokenUsageInfo>> {
    let window = run.turn.model.usable_context_window();
    let started_at_ms = run.ids.now().as_millisecond();
    let mut input = session.build_prompt_input();
    input.push(CompactionPrompt::new(run.templates).into_response_item());
    let request = build_compaction_request(
        run.turn,
        input,
        run.ids,
        ContentItemKindsPolicy::Strip,
        CompactionPhase::MidTurn,
    )?;
    let completed = send(run, &request, |_| {})?;
    // Upstream re-sends the running count when the summary response's rate-limit snapshot
    // arrives, before its output.
    session.record_token_count(usage.as_ref())?;
    let summary = codex_core::last_assistant_text(&completed.items);
    // The summary reply is recorded in history (no agent message: it is not the turn's answer)
    // and then replaced with the rest.
    session.record_compaction_reply(completed.items)?;
    let mut usage = match completed.token_usage {
        Some(last) => {
            let info = TokenUsageInfo::after_response(usage.as_ref(), last, window);
            session.record_response_usage(
                Some(&completed.response_id),
                last,
                info.total_token_usage,
            )?;
            Some(info)
        }
        None => usage,
    };
    session.record_token_count(usage.as_ref())?;
    session.compact_mid_turn(&summary, run.turn)?;
    let estimate = estimated_tokens(session.history().items(), run.turn.base_instructions.text());
    let mut info = usage.unwrap_or(TokenUsageInfo {
        total_token_usage: TokenUsage::default(),
        last_token_usage: TokenUsage::default(),
        model_context_window: window,
    });
    info.last_token_usage = TokenUsage {
        total_tokens: estimate,
        ..TokenUsage::default()
    };
    info.model_context_window = window.or(info.model_context_window);
    usage = Some(info);
    session.record_token_count(usage.as_ref())?;
    session.record_context_compaction(started_at_ms, CompactionPhase::MidTurn)?;
    Ok(usage)
}

fn send(
    run: &TurnRun<'_>,
    request: &ResponsesRequest,
    on_progress: impl FnMut(StreamProgress<'_>),
) -> anyhow::Result<CompletedResponse> {
    // The same bytes `request` prints for a request.
    let body = RequestBody::from_bytes(serde_json::to_string_pretty(request)? + "\n");
    let metadata = request.client_metadata.as_ref();
    let headers = RequestHeaders {
        session_id: Some(run.turn.thread_id.clone()),
        thread_id: Some(run.turn.thread_id.clone()),
        window_id: metadata.map(|metadata| metadata.window_id.clone()),
        turn_metadata: metadata.map(|metadata| metadata.turn_metadata.clone()),
        beta_features: run.config.beta_features.clone(),
        responses_lite: ResponsesLite::for_model(&run.turn.model),
        accept_encoding: run.turn.profile().accept_encoding.map(str::to_string),
        extra: Vec::new(),
    };
    Ok(runtime()?.block_on(run.client.send(&body, &headers, on_progress))?)
}

/// The tokens the next request would hold: the last response's total plus a rough estimate of
/// what was recorded after the model's newest output (upstream's `get_total_token_usage`).
fn active_context_tokens(info: &TokenUsageInfo, history: &[ResponseItem]) -> i64 {
    let newest_output = history.iter().rposition(is_model_generated);
    let after = newest_output.map_or(history, |index| &history[index + 1..]);
    info.last_token_usage
        .total_tokens
        .saturating_add(estimated_tokens(after, ""))
}

/// Items the model wrote (upstream's `is_model_generated_item`).
fn is_model_generated(item: &ResponseItem) -> bool {
    match item {
        ResponseItem::Message { role, .. } => role == "assistant",
        ResponseItem::FunctionCall { .. }
        | ResponseItem::CustomToolCall { .. }
        | ResponseItem::Reasoning { .. }
        | ResponseItem::LocalShellCall { .. }
        | ResponseItem::WebSearchCall { .. }
        | ResponseItem::Compaction { .. } => true,
        ResponseItem::FunctionCallOutput { .. }
        | ResponseItem::CustomToolCallOutput { .. }
        | ResponseItem::AdditionalTools { .. }
        | ResponseItem::Other(_) => false,
    }
}
