//! The fragment catalogue (`codex_fragments`) and its registry: every type's
//! rendering and recognition, the lists derived from the registry, and the size caps.

#![allow(clippy::expect_used)]

#[path = "fragments/assistant_fragments.rs"]
mod assistant_fragments;
#[path = "fragments/caps.rs"]
mod caps;
#[path = "fragments/developer_fragments.rs"]
mod developer_fragments;
#[path = "fragments/guardian_fragments.rs"]
mod guardian_fragments;
#[path = "fragments/registry.rs"]
mod registry;
#[path = "fragments/support.rs"]
mod support;
#[path = "fragments/user_fragments.rs"]
mod user_fragments;
