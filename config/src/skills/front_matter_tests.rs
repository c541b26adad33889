use pretty_assertions::assert_eq;

use super::*;

fn parse(contents: &str) -> Result<SkillFrontMatter, SkillFrontMatterError> {
    parse_skill_front_matter(contents, "my-skill")
}

#[test]
fn name_and_description_are_read_and_collapsed_to_one_line() {
    let parsed = parse(
        "---\nname: pdf  tools\ndescription: >\n  Read and\n  fill PDF forms.\nmetadata:\n  short-description: PDFs\n---\nbody\n",
    )
    .unwrap();
    assert_eq!(
        parsed,
        SkillFrontMatter {
            name: "pdf tools".to_string(),
            description: "Read and fill PDF forms.".to_string(),
            short_description: Some("PDFs".to_string()),
        }
    );
}

#[test]
fn a_missing_name_falls_back_to_the_folder_name() {
    let parsed = parse("---\ndescription: Does things.\n---\n").unwrap();
    assert_eq!(parsed.name, "my-skill");
    let parsed = parse_skill_front_matter("---\nname: ' '\ndescription: x\n---\n", "").unwrap();
    assert_eq!(parsed.name, "skill");
}

#[test]
fn prose_with_colons_is_quoted_and_read_again() {
    let parsed =
        parse("---\nname: aws\ndescription: Deploy to AWS: ECS and 'Lambda' # deploys\n---\n")
            .unwrap();
    assert_eq!(parsed.description, "Deploy to AWS: ECS and 'Lambda'");
}

#[test]
fn invalid_front_matter_is_an_error() {
    assert_eq!(
        parse("no front matter\n"),
        Err(SkillFrontMatterError::Missing)
    );
    assert_eq!(parse("---\nname: x\n"), Err(SkillFrontMatterError::Missing));
    assert_eq!(parse("---\n---\n"), Err(SkillFrontMatterError::Missing));
    assert_eq!(
        parse("---\nname: x\n---\n"),
        Err(SkillFrontMatterError::MissingField("description"))
    );
    assert_eq!(
        parse(&format!(
            "---\nname: {}\ndescription: x\n---\n",
            "n".repeat(65)
        )),
        Err(SkillFrontMatterError::TooLong {
            field: "name",
            max: MAX_NAME_CHARS
        })
    );
    let error = parse("---\nname: x\ndescription: x\n- item\n---\n").unwrap_err();
    assert!(
        matches!(&error, SkillFrontMatterError::InvalidYaml(_)),
        "{error}"
    );
    assert!(error.to_string().starts_with("invalid YAML: "), "{error}");
}

#[test]
fn a_broken_flow_scalar_is_read_as_text() {
    let parsed = parse("---\nname: [unclosed\ndescription: x\n---\n").unwrap();
    assert_eq!(parsed.name, "[unclosed");
}
