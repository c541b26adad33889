//! The built-in world-state sections, one module per section ID, and the catalogue that
//! builds them from JSON inputs.

pub mod context_window;
pub mod context_window_guidance;
pub mod model;
pub mod personality;
pub mod realtime;

use super::CatalogEntry;

/// Every built-in section in upstream registry order. Adding a section: its module above and
/// one row here.
pub(crate) static SECTION_CATALOG: &[CatalogEntry] = &[
    CatalogEntry::of::<model::ModelSection>(),
    CatalogEntry::of::<personality::PersonalitySection>(),
    CatalogEntry::of::<context_window::ContextWindowSection>(),
    CatalogEntry::of::<context_window_guidance::ContextWindowGuidanceSection>(),
    CatalogEntry::of::<realtime::RealtimeSection>(),
];
