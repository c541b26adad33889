use codex_protocol::models::ContentItem;
use codex_protocol::models::ResponseItem;

use super::*;

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

fn is_marked(role: &str, text: &str) -> bool {
    role == "developer" && text.starts_with("<test_section>")
}

#[test]
fn indexed_history_rescans_when_history_shrinks() {
    let mut index = HistoryFragmentIndex::default();
    let matcher = is_marked;
    let query = FragmentQuery {
        section_id: "test",
        purpose: FragmentMatchPurpose::Retained,
        matcher_key: "",
        matcher: &matcher,
    };
    let long = vec![
        developer_message("a"),
        developer_message("<test_section>x</test_section>"),
    ];
    assert!(index.over(&long).contains_fragment(&query));
    let short = vec![developer_message("a")];
    assert!(!index.over(&short).contains_fragment(&query));
}

#[test]
fn indexed_history_rescans_when_the_matcher_key_changes() {
    let mut index = HistoryFragmentIndex::default();
    let history = vec![developer_message("exact text")];
    let never = |_: &str, _: &str| false;
    let exact = |_: &str, text: &str| text == "exact text";
    let mut ask = |key: &str, matcher: &dyn Fn(&str, &str) -> bool| {
        index.over(&history).contains_fragment(&FragmentQuery {
            section_id: "hint",
            purpose: FragmentMatchPurpose::Legacy,
            matcher_key: key,
            matcher,
        })
    };
    assert!(!ask("one", &never));
    assert!(ask("two", &exact));
}

#[test]
fn indexed_answers_equal_full_scans_while_history_grows() {
    let texts = [
        "plain",
        "<test_section>one</test_section>",
        "more",
        "<test_section>two</test_section>",
    ];
    let mut index = HistoryFragmentIndex::default();
    let mut history = Vec::new();
    for text in texts {
        history.push(developer_message(text));
        for purpose in [FragmentMatchPurpose::Legacy, FragmentMatchPurpose::Retained] {
            let query = FragmentQuery {
                section_id: "test",
                purpose,
                matcher_key: "",
                matcher: &is_marked,
            };
            let mut full_scan = history.as_slice();
            assert_eq!(
                index.over(&history).contains_fragment(&query),
                full_scan.contains_fragment(&query)
            );
        }
    }
}

#[test]
fn only_input_text_of_messages_is_inspected() {
    let output = ResponseItem::Message {
        encrypted_content: None,
        status: None,
        id: None,
        role: "developer".to_string(),
        content: vec![ContentItem::output_text("<test_section>x</test_section>")],
        phase: None,
        internal_chat_message_metadata_passthrough: None,
    };
    let other = ResponseItem::Other(serde_json::json!({"type": "reasoning_summary"}));
    let query = FragmentQuery {
        section_id: "test",
        purpose: FragmentMatchPurpose::Legacy,
        matcher_key: "",
        matcher: &|_: &str, _: &str| true,
    };
    let mut history = [output, other];
    assert!(!history.contains_fragment(&query));
}
