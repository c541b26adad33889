use codex_context_fragments::SectionFragment;

use super::erased::ErasedWorldStateSection;
use super::error::WorldStateError;
use super::extension::WorldStateSectionContribution;
use super::history::FragmentHistory;
use super::history::FragmentMatchPurpose;
use super::history::FragmentQuery;
use super::section::PreviousSectionState;
use super::section::WorldStateSection;
use super::snapshot::WorldStateSnapshot;

/// Extension section that is placed just before the `permissions` section, whatever order
/// contributors registered in.
pub const HOST_SKILLS_SECTION_ID: &str = "host_skills";
/// Section that [`HOST_SKILLS_SECTION_ID`] is placed in front of.
pub const PERMISSIONS_SECTION_ID: &str = "permissions";

/// The sections that make up the model-visible state of one sampling step, in render order.
#[derive(Default)]
pub struct WorldState {
    sections: Vec<Box<dyn ErasedWorldStateSection>>,
}

impl std::fmt::Debug for WorldState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.section_ids()).finish()
    }
}

impl WorldState {
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a typed section.
    pub fn add_section<S: WorldStateSection + 'static>(
        &mut self,
        section: S,
    ) -> Result<(), WorldStateError> {
        self.add_boxed_section(Box::new(section))
    }

    /// Appends an already type-erased section (for example one built by the catalogue).
    pub fn add_boxed_section(
        &mut self,
        section: Box<dyn ErasedWorldStateSection>,
    ) -> Result<(), WorldStateError> {
        self.ensure_unique(section.section_id())?;
        self.sections.push(section);
        Ok(())
    }

    /// Registers an extension-owned section. `host_skills` goes immediately before
    /// `permissions` when that section is present; everything else is appended.
    pub fn add_contribution(
        &mut self,
        contribution: WorldStateSectionContribution,
    ) -> Result<(), WorldStateError> {
        self.ensure_unique(contribution.id())?;
        let position = (contribution.id() == HOST_SKILLS_SECTION_ID)
            .then(|| {
                self.sections
                    .iter()
                    .position(|section| section.section_id() == PERMISSIONS_SECTION_ID)
            })
            .flatten()
            .unwrap_or(self.sections.len());
        self.sections.insert(position, Box::new(contribution));
        Ok(())
    }

    fn ensure_unique(&self, id: &str) -> Result<(), WorldStateError> {
        if self
            .sections
            .iter()
            .any(|section| section.section_id() == id)
        {
            return Err(WorldStateError::DuplicateSectionId(id.to_string()));
        }
        Ok(())
    }

    /// Section IDs in render order.
    pub fn section_ids(&self) -> impl Iterator<Item = &str> {
        self.sections.iter().map(|section| section.section_id())
    }

    /// The registered sections in render order.
    pub fn sections(&self) -> impl Iterator<Item = &dyn ErasedWorldStateSection> {
        self.sections.iter().map(|section| section.as_ref())
    }

    /// The current comparison data of every section that persists.
    pub fn snapshot(&self) -> WorldStateSnapshot {
        self.sections
            .iter()
            .filter_map(|section| {
                section
                    .persisted_snapshot()
                    .map(|value| (section.section_id().to_string(), value))
            })
            .collect()
    }

    /// `baseline`, persisted under the settings this world state was built from (a resumed
    /// thread's recorded turn), with each section's own text re-derived
    /// ([`WorldStateSection::rederive_recorded`]); sections that are not registered here or keep
    /// their snapshot are left as recorded.
    pub fn rederive_recorded_baseline(&self, baseline: &WorldStateSnapshot) -> WorldStateSnapshot {
        let mut rederived = baseline.clone();
        for section in &self.sections {
            let id = section.section_id();
            if let Some(value) = baseline
                .get(id)
                .and_then(|recorded| section.rederive_recorded_json(recorded))
            {
                rederived.insert(id, value);
            }
        }
        rederived
    }

    /// Every section rendered as if the model had seen nothing (initial context).
    pub fn render_full(&self) -> Vec<SectionFragment> {
        self.sections
            .iter()
            .filter_map(|section| section.render_diff_from_json(PreviousSectionState::Absent))
            .collect()
    }

    /// Exact diff against a snapshot kept in memory (between sampling steps); history is not
    /// consulted.
    pub fn render_diff(&self, previous: &WorldStateSnapshot) -> Vec<SectionFragment> {
        self.sections
            .iter()
            .filter_map(|section| {
                let state = match previous.get(section.section_id()) {
                    Some(stored) => PreviousSectionState::Known(stored),
                    None => PreviousSectionState::Absent,
                };
                section.render_diff_from_json(state)
            })
            .collect()
    }

    /// Diff against the persisted baseline, checked against retained history (turn start,
    /// resume): a stored snapshot counts only while a required retained fragment is still in
    /// history (otherwise Absent); without a stored snapshot, a recognised legacy fragment
    /// makes the section Unknown.
    pub fn render_history_diff<H: FragmentHistory>(
        &self,
        baseline: Option<&WorldStateSnapshot>,
        mut history: H,
    ) -> Vec<SectionFragment> {
        self.sections
            .iter()
            .filter_map(|section| {
                let id = section.section_id();
                let state = match baseline.and_then(|snapshot| snapshot.get(id)) {
                    Some(stored) if !section.requires_retained_fragment() => {
                        PreviousSectionState::Known(stored)
                    }
                    Some(stored) => {
                        let matcher = |role: &str, text: &str| {
                            section.recognises_retained_fragment(role, text)
                        };
                        let retained = history.contains_fragment(&FragmentQuery {
                            section_id: id,
                            purpose: FragmentMatchPurpose::Retained,
                            matcher_key: &section.fragment_matcher_key(),
                            matcher: &matcher,
                        });
                        // The model lost the text, so the section renders as if brand new.
                        if retained {
                            PreviousSectionState::Known(stored)
                        } else {
                            PreviousSectionState::Absent
                        }
                    }
                    None => {
                        let matcher =
                            |role: &str, text: &str| section.recognises_legacy_fragment(role, text);
                        let seen = history.contains_fragment(&FragmentQuery {
                            section_id: id,
                            purpose: FragmentMatchPurpose::Legacy,
                            matcher_key: &section.fragment_matcher_key(),
                            matcher: &matcher,
                        });
                        if seen {
                            PreviousSectionState::Unknown
                        } else {
                            PreviousSectionState::Absent
                        }
                    }
                };
                section.render_diff_from_json(state)
            })
            .collect()
    }
}
