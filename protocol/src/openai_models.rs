//! Model catalog metadata (`/models` entries and the bundled models.json).

mod reasoning_effort;

pub use reasoning_effort::EmptyReasoningEffortError;
pub use reasoning_effort::ReasoningEffort;
