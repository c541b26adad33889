//! Whole request bodies rebuilt from a rollout, one per request it records.

use codex_core::ResponsesRequest;
use serde::Serialize;

use super::InspectError;
use super::client_metadata::RecordedThread;
use super::model::RequestKind;
use super::model::ToolsOrigin;
use super::setup::RequestSetups;
use super::walk::Rewrite;
use super::walk::StepRequest;
use super::walk::WalkVisitor;
use codex_protocol::ResponseItem;
use codex_protocol::rollout::WorldStateItem;

/// One request body as rebuilt from a rollout.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RebuiltRequest {
    pub kind: RequestKind,
    pub turn: usize,
    pub turn_id: Option<String>,
    pub step: usize,
    pub line: usize,
    /// Where `body.tools` (or the Responses Lite tool item) comes from.
    pub tools_origin: ToolsOrigin,
    pub body: ResponsesRequest,
}

pub(super) struct Rebuilder<'c> {
    pub setups: RequestSetups<'c>,
    /// What `session_meta` says about the thread's requests; `None` without one.
    pub thread: Option<RecordedThread>,
    pub requests: Vec<RebuiltRequest>,
}

impl WalkVisitor for Rebuilder<'_> {
    fn request(&mut self, step: StepRequest<'_>) -> Result<(), InspectError> {
        let setup = self.setups.get(step.turn_context)?;
        let mut body = match step.kind {
            RequestKind::Turn => setup.build(step.input)?,
            RequestKind::Compaction => setup.build_compaction(step.input)?,
        };
        if let Some(thread) = &self.thread {
            body.client_metadata = Some(thread.client_metadata(
                step.kind,
                step.turn_id,
                step.turn_context,
                &setup.model,
            )?);
        }
        self.requests.push(RebuiltRequest {
            kind: step.kind,
            turn: step.turn,
            turn_id: step.turn_id.map(str::to_string),
            step: step.step,
            line: step.line,
            tools_origin: setup.tools_origin,
            body,
        });
        Ok(())
    }

    fn turn_started(&mut self, _turn: usize, _turn_id: Option<&str>, _line: usize) {}

    fn item_recorded(&mut self, _line: usize, _item: &ResponseItem) {}

    fn world_state(&mut self, _line: usize, _record: &WorldStateItem) {}

    fn history_rewritten(&mut self, _line: usize, _rewrite: Rewrite) {}
}
