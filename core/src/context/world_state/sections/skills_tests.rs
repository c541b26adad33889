use codex_prompts::PermissionsInstructions;
use codex_protocol::config_types::SandboxMode;
use codex_protocol::models::ContentItem;
use codex_protocol::models::ResponseItem;
use codex_protocol::protocol::AskForApproval;
use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::context::world_state::ErasedWorldStateSection;
use crate::context::world_state::PreviousSectionState;
use crate::context::world_state::WorldState;
use crate::context::world_state::WorldStateSnapshot;
use crate::context::world_state::describe_rendered;
use crate::context::world_state::sections::permissions::PermissionsSection;

fn skill(name: &str) -> SkillEntry {
    SkillEntry {
        name: name.to_string(),
        description: format!("Does {name} work."),
        path: format!("/home/me/.codex/skills/{name}/SKILL.md"),
    }
}

fn body(names: &[&str], usage: SkillUsageRules) -> Option<String> {
    let skills: Vec<SkillEntry> = names.iter().map(|name| skill(name)).collect();
    skills_catalog_body(
        &[],
        &skills,
        SkillsListing::Listed,
        usage,
        &TemplateSet::embedded(),
    )
}

fn contribution(
    source: SkillsCatalogSource,
    body: Option<String>,
    listing: SkillsListing,
) -> WorldStateSectionContribution {
    skills_section_contribution(
        source,
        body,
        listing,
        SkillUsageRules::Include,
        &TemplateSet::embedded(),
    )
}

fn developer_message(text: &str) -> ResponseItem {
    ResponseItem::Message {
        encrypted_content: None,
        status: None,
        id: None,
        role: "developer".to_string(),
        content: vec![ContentItem::input_text(text)],
        phase: None,
        internal_chat_message_metadata_passthrough: None,
    }
}

fn world_state(contribution: WorldStateSectionContribution) -> WorldState {
    let mut world_state = WorldState::new();
    world_state
        .add_contribution(contribution)
        .expect("unique section");
    world_state
}

fn renders(
    world_state: &WorldState,
    baseline: Option<&WorldStateSnapshot>,
    history: &[ResponseItem],
) -> Vec<String> {
    world_state
        .render_history_diff(baseline, history)
        .iter()
        .map(|fragment| fragment.render())
        .collect()
}

/// Every previous state (Absent, Unknown, Known with the same / another / no body, listed or
/// not) against every kind of current value, for both sections.
#[test]
fn transition_matrix() {
    let pdf = body(&["pdf"], SkillUsageRules::Omit);
    let pdf_and_slides = body(&["pdf", "slides"], SkillUsageRules::Include);
    let known_pdf = json!({"body": pdf, "includeInstructions": true});
    let known_none = json!({"includeInstructions": true});
    let known_not_listed = json!({"includeInstructions": false});
    let mut blocks = Vec::new();
    for source in [
        SkillsCatalogSource::SelectedEnvironments,
        SkillsCatalogSource::Host,
    ] {
        let listed_pdf = contribution(source, pdf.clone(), SkillsListing::Listed);
        let listed_both = contribution(source, pdf_and_slides.clone(), SkillsListing::Listed);
        let listed_none = contribution(source, None, SkillsListing::Listed);
        let not_listed = contribution(source, None, SkillsListing::NotListed);
        let cases: [(
            &str,
            PreviousWorldStateSection<'_>,
            &WorldStateSectionContribution,
        ); 12] = [
            ("Absent", PreviousSectionState::Absent, &listed_pdf),
            ("Absent", PreviousSectionState::Absent, &listed_none),
            ("Absent", PreviousSectionState::Absent, &not_listed),
            ("Unknown", PreviousSectionState::Unknown, &listed_pdf),
            ("Unknown", PreviousSectionState::Unknown, &listed_none),
            ("Unknown", PreviousSectionState::Unknown, &not_listed),
            ("pdf", PreviousSectionState::Known(&known_pdf), &listed_pdf),
            ("pdf", PreviousSectionState::Known(&known_pdf), &listed_both),
            ("pdf", PreviousSectionState::Known(&known_pdf), &listed_none),
            ("pdf", PreviousSectionState::Known(&known_pdf), &not_listed),
            (
                "none",
                PreviousSectionState::Known(&known_none),
                &listed_none,
            ),
            (
                "not listed",
                PreviousSectionState::Known(&known_not_listed),
                &listed_none,
            ),
        ];
        for (label, previous, current) in cases {
            let snapshot = current
                .persisted_snapshot()
                .map_or_else(|| "Omitted".to_string(), |value| value.to_string());
            let rendered = current.render_diff_from_json(previous);
            blocks.push(format!(
                "[{}] {label} -> {snapshot}\n{}",
                source.section_id(),
                describe_rendered(rendered.as_ref())
            ));
        }
    }
    insta::assert_snapshot!(blocks.join("\n\n"));
}

#[test]
fn no_catalogue_without_skills_or_listing() {
    assert_eq!(body(&[], SkillUsageRules::Include), None);
    assert_eq!(
        skills_catalog_body(
            &[],
            &[skill("pdf")],
            SkillsListing::NotListed,
            SkillUsageRules::Include,
            &TemplateSet::embedded(),
        ),
        None
    );
    let usage = TemplateSet::embedded()
        .text(TemplateId::FragmentSkillsCatalogUsage)
        .to_string();
    let with_rules = body(&["pdf"], SkillUsageRules::Include).expect("catalogue");
    let without_rules = body(&["pdf"], SkillUsageRules::Omit).expect("catalogue");
    assert!(with_rules.contains(&usage));
    assert!(!without_rules.contains(&usage));
    assert!(
        without_rules
            .contains("- pdf: Does pdf work. (file: /home/me/.codex/skills/pdf/SKILL.md)\n")
    );
}

#[test]
fn host_catalogue_is_trusted_only_while_retained() {
    let host = world_state(contribution(
        SkillsCatalogSource::Host,
        body(&["pdf"], SkillUsageRules::Include),
        SkillsListing::Listed,
    ));
    let baseline = host.snapshot();
    assert_eq!(
        baseline.clone().into_value(),
        json!({"host_skills": {
            "body": body(&["pdf"], SkillUsageRules::Include),
            "includeInstructions": true,
        }})
    );
    let catalogue = renders(&host, None, &[]);
    assert_eq!(catalogue.len(), 1);
    // Trimmed from history: sent again.
    assert_eq!(renders(&host, Some(&baseline), &[]), catalogue);
    assert_eq!(
        renders(&host, Some(&baseline), &[developer_message(&catalogue[0])]),
        Vec::<String>::new()
    );
    // Without a baseline, a catalogue in history is not taken as this section's.
    assert_eq!(
        renders(&host, None, &[developer_message(&catalogue[0])]),
        catalogue
    );
}

#[test]
fn environment_section_recognises_legacy_catalogues() {
    let catalogue = renders(
        &world_state(contribution(
            SkillsCatalogSource::Host,
            body(&["pdf"], SkillUsageRules::Omit),
            SkillsListing::Listed,
        )),
        None,
        &[],
    )
    .remove(0);
    let environment = world_state(contribution(
        SkillsCatalogSource::SelectedEnvironments,
        None,
        SkillsListing::Listed,
    ));
    // A catalogue written before the section was persisted may be out of date: say so.
    assert_eq!(
        renders(&environment, None, &[developer_message(&catalogue)]),
        vec![format!(
            "<skills_instructions>\n{}\n</skills_instructions>",
            TemplateSet::embedded().text(TemplateId::SkillsEnvironmentNoneAvailable)
        )]
    );
    assert_eq!(renders(&environment, None, &[]), Vec::<String>::new());
}

#[test]
fn sections_render_as_skills_instructions_with_their_own_kind() {
    let fragment = contribution(
        SkillsCatalogSource::Host,
        body(&["pdf"], SkillUsageRules::Omit),
        SkillsListing::Listed,
    )
    .render_diff_from_json(PreviousSectionState::Absent)
    .expect("catalogue");
    assert_eq!(fragment.content_kind().as_str(), "host_skills.instructions");
    assert_eq!(fragment.role(), "developer");
    assert!(AVAILABLE_SKILLS_INSTRUCTIONS.recognises("developer", &fragment.render()));
}

#[test]
fn host_skills_goes_before_permissions_and_skills_after() {
    let templates = TemplateSet::embedded();
    let mut world_state = WorldState::new();
    world_state
        .add_section(PermissionsSection::new(
            PermissionsInstructions::builder(SandboxMode::ReadOnly, AskForApproval::Never),
            Vec::new(),
            &templates,
        ))
        .expect("unique section");
    for source in [
        SkillsCatalogSource::SelectedEnvironments,
        SkillsCatalogSource::Host,
    ] {
        world_state
            .add_contribution(contribution(source, None, SkillsListing::Listed))
            .expect("unique section");
    }
    assert_eq!(
        world_state.section_ids().collect::<Vec<_>>(),
        vec!["host_skills", "permissions", "skills"]
    );
}

/// A catalogue in another renderer's words (the released CLI's): same line shape, other prose.
fn foreign_catalogue(names: &[&str]) -> String {
    let lines: Vec<String> = names
        .iter()
        .map(|name| {
            let entry = skill(name);
            format!(
                "- {}: {} (file: {})",
                entry.name, entry.description, entry.path
            )
        })
        .collect();
    format!(
        "\n## Skills\nSomeone else's introduction.\n### Available skills\n{}\n### How to use skills\nSomeone else's rules.\n",
        lines.join("\n")
    )
}

#[test]
fn another_renderers_catalogue_is_rederived_from_the_skills_it_lists() {
    let host = world_state(contribution(
        SkillsCatalogSource::Host,
        body(&["pdf"], SkillUsageRules::Include),
        SkillsListing::Listed,
    ));
    let recorded = WorldStateSnapshot::from_value(json!({"host_skills": {
        "body": foreign_catalogue(&["pdf"]),
        "includeInstructions": true,
    }}))
    .expect("snapshot");
    let rederived = host.rederive_recorded_baseline(&recorded);
    assert_eq!(rederived, host.snapshot());
    let history = [developer_message(&format!(
        "<skills_instructions>{}</skills_instructions>",
        foreign_catalogue(&["pdf"])
    ))];
    // The same skills listed in other words: nothing to send.
    assert_eq!(
        renders(&host, Some(&rederived), &history),
        Vec::<String>::new()
    );
    // Another list of skills: the catalogue is sent again.
    let changed = WorldStateSnapshot::from_value(json!({"host_skills": {
        "body": foreign_catalogue(&["pdf", "slides"]),
        "includeInstructions": true,
    }}))
    .expect("snapshot");
    let rederived = host.rederive_recorded_baseline(&changed);
    assert_ne!(rederived, host.snapshot());
    assert_eq!(renders(&host, Some(&rederived), &history).len(), 1);
}

#[test]
fn skill_paths_take_the_alias_of_their_most_specific_root() {
    let roots = [
        "/repo/.codex/skills".to_string(),
        "/home/me/.codex/skills".to_string(),
        "/home/me/.codex/skills/.system".to_string(),
        "/empty".to_string(),
        "/repo/.agents/skills".to_string(),
    ];
    let entry = |name: &str, path: &str| SkillEntry {
        name: name.to_string(),
        description: format!("Does {name} work."),
        path: path.to_string(),
    };
    let skills = [
        entry(
            "imagegen",
            "/home/me/.codex/skills/.system/imagegen/SKILL.md",
        ),
        entry("db-migrate", "/repo/.agents/skills/db-migrate/SKILL.md"),
        entry(
            "release-notes",
            "/repo/.codex/skills/release-notes/SKILL.md",
        ),
        entry("declared", "/elsewhere/declared/SKILL.md"),
    ];
    let root = |alias: &str, path: &str| SkillRoot {
        alias: alias.to_string(),
        path: path.to_string(),
    };
    assert_eq!(
        alias_skill_roots(&roots, &skills),
        (
            vec![
                root("r0", "/repo/.codex/skills"),
                root("r1", "/home/me/.codex/skills/.system"),
                root("r2", "/repo/.agents/skills"),
            ],
            vec![
                entry("imagegen", "r1/imagegen/SKILL.md"),
                entry("db-migrate", "r2/db-migrate/SKILL.md"),
                entry("release-notes", "r0/release-notes/SKILL.md"),
                entry("declared", "/elsewhere/declared/SKILL.md"),
            ]
        )
    );
}

#[test]
fn a_recorded_aliased_catalogue_of_the_same_skills_is_not_sent_again() {
    let templates = TemplateSet::embedded();
    let roots = [SkillRoot {
        alias: "r0".to_string(),
        path: "/home/me/.codex/skills/.system".to_string(),
    }];
    let skills = [SkillEntry {
        name: "imagegen".to_string(),
        description: "Make images.".to_string(),
        path: "r0/imagegen/SKILL.md".to_string(),
    }];
    let own = skills_catalog_body(
        &roots,
        &skills,
        SkillsListing::Listed,
        SkillUsageRules::Include,
        &templates,
    );
    // The release's catalogue, in its own words around the same table and lines.
    let recorded = serde_json::json!({
        "body": "\n## Skills\nThe release's intro.\n### Skill roots\n- `r0` = `/home/me/.codex/skills/.system`\n### Available skills\n- imagegen: Make images. (file: r0/imagegen/SKILL.md)\n### How to use skills\n- The release's rules.\n",
        "includeInstructions": true,
    });
    let contribution = skills_section_contribution(
        SkillsCatalogSource::Host,
        own.clone(),
        SkillsListing::Listed,
        SkillUsageRules::Include,
        &templates,
    );
    assert_eq!(
        contribution.rederive_recorded_json(&recorded),
        Some(serde_json::json!({"body": own, "includeInstructions": true}))
    );
}
