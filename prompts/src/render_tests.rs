use super::*;
use pretty_assertions::assert_eq;

#[test]
fn substitutes_spaced_and_compact_placeholders() {
    assert_eq!(
        render(
            "Network access is {{ network_access }}; again {{network_access}}.",
            &[("network_access", "restricted")],
        ),
        "Network access is restricted; again restricted."
    );
}

#[test]
fn tolerates_tabs_and_extra_spaces_inside_braces() {
    assert_eq!(render("[{{\t a   }}]", &[("a", "x")]), "[x]");
}

#[test]
fn missing_variable_renders_empty() {
    assert_eq!(render("before {{ absent }} after", &[]), "before  after");
}

#[test]
fn unknown_supplied_variables_are_ignored() {
    assert_eq!(
        render("plain {{ used }}", &[("unused", "zzz"), ("used", "yes")]),
        "plain yes"
    );
}

#[test]
fn first_duplicate_variable_wins() {
    assert_eq!(
        render("{{ a }}", &[("a", "first"), ("a", "second")]),
        "first"
    );
}

#[test]
fn values_are_not_rendered_again() {
    assert_eq!(
        render("{{ a }}", &[("a", "{{ b }}"), ("b", "oops")]),
        "{{ b }}"
    );
}

#[test]
fn malformed_braces_are_kept_verbatim() {
    let cases = [
        ("{{ unterminated", "{{ unterminated"),
        ("{{}}", "{{}}"),
        ("{{ }}", "{{ }}"),
        ("{{ two words }}", "{{ two words }}"),
        ("{{ 9lives }}", "{{ 9lives }}"),
        ("{{ dash-name }}", "{{ dash-name }}"),
        ("}} closing first {{", "}} closing first {{"),
        ("{ single }", "{ single }"),
        ("{{{", "{{{"),
        ("}}}}", "}}}}"),
        ("{{\n name \n}}", "{{\n name \n}}"),
    ];
    for (template, expected) in cases {
        assert_eq!(render(template, &[("name", "X")]), expected, "{template:?}");
    }
}

#[test]
fn placeholder_after_a_malformed_opening_is_still_found() {
    assert_eq!(render("{{ a {{ b }}", &[("b", "B")]), "{{ a B");
    assert_eq!(render("{{{ b }}}", &[("b", "B")]), "{B}");
}

#[test]
fn multibyte_text_and_values_survive() {
    assert_eq!(
        render(
            "ÜBER {{ wert }} — 日本語 {{ wert }}🙂{{",
            &[("wert", "naïve 👍")]
        ),
        "ÜBER naïve 👍 — 日本語 naïve 👍🙂{{"
    );
}

#[test]
fn multibyte_inside_braces_is_not_a_placeholder() {
    assert_eq!(render("{{ naïve }}", &[("naïve", "x")]), "{{ naïve }}");
}

#[test]
fn empty_template_renders_empty() {
    assert_eq!(render("", &[("a", "b")]), "");
}

#[test]
fn lists_placeholder_names_once_in_order() {
    assert_eq!(
        placeholder_names("{{ b }} {{a}} {{ b }} {{ not valid! }} {{ c"),
        vec!["b", "a"]
    );
}
