use pretty_assertions::assert_eq;

use super::*;
use crate::test_support::write_files;

#[test]
fn placeholder_names_follow_the_renderers_rules() {
    assert_eq!(
        placeholder_names(
            "{{ a }} {{b}} {{\tc_1 }} {{ a }} {{ two words }} {{ }} {{{ d }} {{ open"
        ),
        vec!["a", "b", "c_1", "d"]
    );
}

#[test]
fn listing_shows_kind_variables_embedders_users_and_models() {
    let root = tempfile::tempdir().expect("tempdir");
    write_files(
        root.path(),
        &[
            (
                "Cargo.toml",
                "[workspace]\nmembers = [\"prompts\", \"core\"]\n",
            ),
            (
                "prompts/src/lib.rs",
                "pub const GUIDE: &str = include_str!(\"../templates/guide.md\");\n\
                 pub const TOOL: &str = include_str!(\"../templates/tools/t.json\");\n",
            ),
            (
                "core/src/lib.rs",
                "fn f() -> &'static str { prompts::GUIDE }\n",
            ),
            (
                "prompts/templates/guide.md",
                "Ask {{ who }} about {{ what }}.\n",
            ),
            ("prompts/templates/tools/t.json", "{\"name\": \"t\"}\n"),
            (
                "prompts/templates/base/main.md",
                "Hi.\n\n{{ personality }}\n",
            ),
            ("prompts/templates/personality/calm.md", "Calm.\n"),
            ("prompts/templates/unused.md", "Nobody reads this.\n"),
            ("prompts/templates/.main.md.swp", "editor leftover"),
            (
                "prompts/models.toml",
                "[personality_sets.calm]\ndefault = \"personality/calm.md\"\n\n\
                 [[models]]\nslug = \"m1\"\ninstructions_template = \"base/main.md\"\npersonalities = \"calm\"\n",
            ),
            (
                "models-manager/models.json",
                "{\"models\": [{\"slug\": \"m1\", \"display_name\": \"M1\", \"supported_reasoning_levels\": [], \
                 \"shell_type\": \"shell_command\", \"visibility\": \"list\", \"supported_in_api\": true, \"priority\": 1}]}",
            ),
            ("prompts/models-0.171.toml", "models = []\n"),
            ("models-manager/models-0.171.json", "{\"models\": []}"),
        ],
    );
    insta::assert_snapshot!(list_prompts(root.path()).expect("lists"));
}
