use codex_prompts::TemplateSet;
use pretty_assertions::assert_eq;

use super::*;
use crate::context::world_state::PreviousSectionState::Absent;
use crate::context::world_state::PreviousSectionState::Known;
use crate::context::world_state::PreviousSectionState::Unknown;
use crate::context::world_state::render_transition_cases;

fn section(active: bool, start: Option<&str>, end: Option<&str>) -> RealtimeSection {
    RealtimeSection::new(
        RealtimeSectionInputs {
            active,
            start_instructions: start.map(str::to_string),
            end_instructions: end.map(str::to_string),
        },
        &TemplateSet::embedded(),
    )
}

#[test]
fn snapshots() {
    let inactive = section(false, None, None);
    let active = section(true, None, None);
    let custom = section(
        true,
        Some("Custom realtime start."),
        Some("Custom realtime end."),
    );
    let custom_inactive = section(false, None, Some("Custom realtime end."));
    insta::assert_snapshot!(render_transition_cases(&[
        (Absent, &inactive),
        (Absent, &active),
        (Absent, &custom),
        (Unknown, &inactive),
        (Unknown, &active),
        (Known(&inactive), &inactive),
        (Known(&inactive), &active),
        (Known(&active), &active),
        (Known(&active), &custom),
        (Known(&active), &inactive),
        (Known(&custom), &custom_inactive),
    ]));
}

#[test]
fn retained_fragment_matcher_matches_realtime_fragments() {
    let active = section(true, None, None);
    let inactive = section(false, None, None);
    let start = active.render_diff(Absent).expect("start block").render();
    let end = inactive
        .render_diff(Known(&RealtimeSnapshot { active: true }))
        .expect("end block")
        .render();

    assert!(RealtimeSection::matches_retained_fragment(
        "developer",
        &start
    ));
    assert!(RealtimeSection::matches_retained_fragment(
        "developer",
        &end
    ));
    assert!(!RealtimeSection::matches_retained_fragment("user", &start));
    assert_eq!(
        RealtimeSection::matches_legacy_fragment("developer", "<realtime_conversation>"),
        false
    );
}

#[test]
fn content_kinds_tell_built_in_and_custom_texts_apart() {
    let kinds = [
        section(true, None, None).render_diff(Absent),
        section(true, Some("Hi."), None).render_diff(Absent),
        section(false, None, None).render_diff(Known(&RealtimeSnapshot { active: true })),
    ]
    .into_iter()
    .map(|fragment| {
        fragment
            .expect("fragment")
            .content_kind()
            .as_str()
            .to_string()
    })
    .collect::<Vec<_>>();
    assert_eq!(
        kinds,
        vec![
            "realtime_conversation.start_instructions",
            "realtime_conversation.custom_start_instructions",
            "realtime_conversation.end_instructions",
        ]
    );
}
