//! Core of the context engine: configuration and AGENTS.md discovery.

pub mod agents_md;
pub mod config;
pub mod context;
