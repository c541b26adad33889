use thiserror::Error;

/// Failures of world-state registration, persistence and the section catalogue.
#[derive(Debug, Error)]
pub enum WorldStateError {
    /// Two sections of one [`WorldState`](super::WorldState) share an ID; snapshots are keyed by
    /// ID, so the second one would silently overwrite the first.
    #[error("duplicate world-state section ID: {0}")]
    DuplicateSectionId(String),
    /// The catalogue has no section with this ID; `known` lists the catalogue's IDs.
    #[error("unknown world-state section ID `{id}` (expected one of: {})", known.join(", "))]
    UnknownSection {
        id: String,
        known: Vec<&'static str>,
    },
    /// The JSON given as a section's inputs does not describe that section.
    #[error("invalid inputs for world-state section {section}: {source}")]
    InvalidSectionInputs {
        section: String,
        #[source]
        source: serde_json::Error,
    },
    /// JSON given for a section is neither the section's inputs nor a snapshot as a rollout's
    /// `world_state` line records it.
    #[error(
        "JSON for world-state section {section} is neither its inputs ({inputs}) nor a recorded \
         snapshot of it ({snapshot})"
    )]
    InvalidSectionJson {
        section: String,
        inputs: serde_json::Error,
        snapshot: serde_json::Error,
    },
    /// A recorded snapshot was given as a section's current state, but the snapshot does not
    /// hold everything the section renders.
    #[error(
        "a recorded snapshot of world-state section {section} cannot be its current state: it \
         holds {holds}; give the section's inputs instead"
    )]
    SnapshotCannotBeRebuilt {
        section: String,
        holds: &'static str,
    },
    /// A previous-state argument was neither `absent`, `unknown` nor JSON.
    #[error(
        "previous section state must be `absent`, `unknown`, JSON inputs or a recorded snapshot: {0}"
    )]
    InvalidPreviousState(#[source] serde_json::Error),
    /// Persisted snapshots and merge patches are JSON objects keyed by section ID.
    #[error("a world-state {what} must be a JSON object")]
    NotAnObject { what: &'static str },
    /// A section's inputs are well-formed JSON but describe a state the section rejects.
    #[error("world-state section {section} rejected its inputs: {reason}")]
    RejectedInputs { section: String, reason: String },
    /// Managed developer instructions are never truncated, so a policy whose rendering (with
    /// the replacement notice and markers) exceeds the budget is rejected up front.
    #[error(
        "managed developer instructions are too long: about {estimated_tokens} tokens including \
         context markers, the limit is {limit_tokens}"
    )]
    ManagedInstructionsTooLong {
        estimated_tokens: usize,
        limit_tokens: usize,
    },
    /// A built-in tool template a section lists could not be read.
    #[error(transparent)]
    Tools(#[from] codex_tools::ToolSpecError),
    /// The tool catalog a section fingerprints could not be serialised.
    #[error("cannot serialise the tool catalog: {0}")]
    ToolCatalog(#[source] serde_json::Error),
}
