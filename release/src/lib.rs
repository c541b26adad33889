//! The upstream Codex releases this project reproduces, and everything that differs between
//! them, as data.
//!
//! A [`CodexRelease`] names a supported release; its [`ReleaseProfile`] is a table of small typed
//! switches that the assembler, the tools, the world-state sections, the request builder and the
//! rollout writer consult. No other crate compares release numbers: a behaviour that changed
//! between releases is a field here, and adding a release is one more profile in
//! [`profiles`](crate::CodexRelease::profile), plus the fragments or tools it brings.

mod detect;
mod profile;
mod release;

pub use detect::RolloutEvidence;
pub use detect::detect_release;
pub use profile::*;
pub use release::CodexRelease;
pub use release::ReleaseParseError;
