//! `rollback`: dropping the newest user turns between two turns, as upstream's thread-rollback
//! operation does (`thread_rollback` in `codex-rs/core/src/session/handlers.rs`).

use codex_config::Config;
use codex_core::AgentsMd;

use super::ScriptedSession;
use crate::ScriptError;
use crate::thread::IdStream;
use crate::thread::seed_stream;

impl<'env> ScriptedSession<'env> {
    /// Drops the newest `turns` user turns of the thread (each with the context updates
    /// recorded before it), once the previous turn ended, and writes the thread's recounted
    /// usage (`token_count`) and a `thread_rolled_back` event. Then, as upstream does, the
    /// thread is rebuilt from its rollout: history, the reference settings, the world-state
    /// baseline and the previous turn's settings are what the turns left say, so the next turn
    /// tells the model again what the dropped context updates had told it, whether or not this
    /// process ran the dropped turns. `config` is the thread's current configuration.
    ///
    /// The rebuild reads the lines written so far back: the sink must keep a copy
    /// ([`ReadBack`](crate::ReadBack)), as for `resume`.
    pub fn rollback(mut self, config: &Config, turns: usize) -> Result<Self, ScriptError> {
        seed_stream(&self.ids, config, IdStream::Turn(self.turns_started))?;
        let turn_id = self.ids.draw_turn_ids().turn_id;
        let current = self.env.assembler(config).turn_context(
            config,
            &self.identity,
            turn_id,
            Some(&self.base_instructions),
            AgentsMd::Omitted,
        )?;
        let rollback = self.session.rollback(
            turns,
            self.token_usage.as_ref(),
            current.model.usable_context_window(),
        )?;
        // What this process holds besides the thread's recorded state stays as it was.
        let history_initialization = self.history_initialization;
        let settings_announcement = self.settings_announcement;
        let events = self.events.clone();
        let mut rebuilt = self.reload(config)?;
        rebuilt.history_initialization = history_initialization;
        rebuilt.settings_announcement = settings_announcement;
        rebuilt.events = events;
        rebuilt.token_usage = rollback.token_usage;
        Ok(rebuilt)
    }
}
