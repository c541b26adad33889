//! `fork`: a new thread branching off the current one between turns, as upstream's
//! `fork_thread` does (`codex-rs/core/src/thread_manager.rs`).

use std::sync::Arc;

use codex_config::Config;
use codex_core::IdGenerator;
use codex_protocol::rollout::RolloutItem;
use codex_protocol::rollout::RolloutLine;
use codex_rollout::ForkPoint;

use super::ScriptedSession;
use super::read_thread;
use crate::ScriptError;
use crate::ScriptSink;
use crate::thread::IdStream;
use crate::thread::seed_stream;

impl<'env> ScriptedSession<'env> {
    /// Ends this thread (its sink finished; its lines are returned) and starts a new one
    /// forked off it at `point`, writing to `sink`: its `session_meta` (naming this thread in
    /// `forked_from_id`), this thread's lines up to `point`, then the settings it runs with
    /// under `config` (`thread_settings_applied`). This sink must keep a copy of its lines
    /// ([`ReadBack`](crate::ReadBack)).
    pub fn fork_thread(
        self,
        config: &Config,
        point: ForkPoint,
        sink: ScriptSink,
    ) -> Result<(Vec<RolloutLine>, Self), ScriptError> {
        let env = self.env;
        let mode = self.mode;
        let turn = self.turns_started;
        let mut own = self.session.into_sink();
        let parent = read_thread(&self.earlier_lines, &mut own)?;
        let finished = own.finish()?;
        let depth = parent
            .items()
            .filter(|item| matches!(item, RolloutItem::SessionMeta(_)))
            .count();
        let ids = Arc::new(IdGenerator::live());
        seed_stream(&ids, config, IdStream::Fork { depth, turn })?;
        let mut child = Self::fork_with_ids(env, ids, parent, point, config, sink, mode, None)?;
        child.apply_settings(config)?;
        Ok((finished, child))
    }
}
