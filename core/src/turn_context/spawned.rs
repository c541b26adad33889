//! A sub-agent's thread: which thread and turn spawned it (`spawn_agent`), which its requests
//! name (upstream's `SubAgentSource::ThreadSpawn`).

/// The thread and turn that spawned a sub-agent's thread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpawnedBy {
    /// The spawning thread (`parent_thread_id`).
    pub parent_thread_id: String,
    /// The spawning thread's turn that made the call (`parent_turn_id`).
    pub parent_turn_id: String,
    /// The user turn the whole tree of agents works for (`root_turn_id`): the spawning turn's
    /// own root turn.
    pub root_turn_id: String,
    /// The session the tree of agents belongs to (`session_id`, the prompt cache key): the
    /// root thread's id.
    pub session_id: String,
    /// How deep the thread sits: 1 for an agent the root thread spawned.
    pub depth: u32,
}

/// A sub-agent the thread spawned, as the `environments` section lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunningSubagent {
    pub thread_id: String,
    pub nickname: Option<String>,
}

impl RunningSubagent {
    /// The agents' list line: `- ID: NICKNAME`, or `- ID` without a nickname.
    pub fn list_line(&self) -> String {
        match &self.nickname {
            Some(nickname) => format!("- {}: {nickname}", self.thread_id),
            None => format!("- {}", self.thread_id),
        }
    }
}

/// `subagent_kind` of a thread `spawn_agent` started.
pub const SUBAGENT_KIND_THREAD_SPAWN: &str = "thread_spawn";
/// `thread_source` of a sub-agent's thread.
pub const THREAD_SOURCE_SUBAGENT: &str = "subagent";
/// `x-openai-subagent` of the requests of a thread `spawn_agent` started.
pub const SUBAGENT_HEADER_COLLAB_SPAWN: &str = "collab_spawn";
