//! Reading and writing rollout files: tolerant loading, whole-line appends, paths, resume.

#![allow(clippy::expect_used)]

mod rollout_support;

use std::fs;

use codex_protocol::models::ContentItem;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::RolloutItem;
use codex_protocol::rollout::RolloutLine;
use codex_rollout::JSON_PROBE_LINES;
use codex_rollout::LineDamage;
use codex_rollout::LineOrdinals;
use codex_rollout::RolloutError;
use codex_rollout::RolloutWarning;
use codex_rollout::RolloutWriter;
use codex_rollout::parse_rollout;
use codex_rollout::read_rollout;
use codex_rollout::rollout_path;
use codex_utils_progress::Display;
use codex_utils_progress::Progress;
use codex_utils_progress::Unit;
use jiff::Timestamp;
use pretty_assertions::assert_eq;
use rollout_support::*;
use serde_json::json;

fn line_numbers(loaded: &codex_rollout::LoadedRollout) -> Vec<usize> {
    loaded.lines.iter().map(|line| line.line_number).collect()
}

#[test]
fn truncated_last_line_is_reported_with_its_number_and_the_rest_loads() {
    let complete = jsonl(&[
        session_meta("thread-1"),
        message("user", "hello"),
        message("assistant", "hi"),
    ]);
    let cut = &message("user", "second question")[..40];
    let loaded = load(&format!("{complete}{cut}"));

    assert_eq!(line_numbers(&loaded), vec![1, 2, 3]);
    assert_eq!(loaded.warnings.len(), 1);
    let warning = &loaded.warnings[0];
    assert_eq!(
        (warning.line_number, warning.damage),
        (4, LineDamage::Truncated)
    );
    assert!(
        warning
            .message
            .starts_with("line 4: the last line is cut short"),
        "{}",
        warning.message
    );
}

#[test]
fn last_line_without_line_break_loads_when_complete() {
    let text = format!("{}\n{}", session_meta("t"), message("user", "hello"));
    let loaded = load(&text);
    assert_eq!(line_numbers(&loaded), vec![1, 2]);
    assert_eq!(loaded.warnings, Vec::new());
}

#[test]
fn damaged_lines_in_the_middle_are_reported_and_skipped() {
    let text = jsonl(&[
        session_meta("t"),
        "{not json".to_string(),
        // Valid JSON, but not a rollout line.
        json!({"hello": "world"}).to_string(),
        // A known line type whose payload has the wrong shape.
        line("turn_context", json!({"model": 5})),
        message("user", "still here"),
    ]);
    let loaded = load(&text);

    assert_eq!(line_numbers(&loaded), vec![1, 5]);
    let damage: Vec<(usize, LineDamage)> = loaded
        .warnings
        .iter()
        .map(|warning| (warning.line_number, warning.damage))
        .collect();
    assert_eq!(
        damage,
        vec![
            (2, LineDamage::InvalidJson),
            (3, LineDamage::InvalidShape),
            (4, LineDamage::InvalidShape),
        ]
    );
    assert!(
        loaded.warnings[2]
            .message
            .contains("invalid `turn_context` payload"),
        "{}",
        loaded.warnings[2].message
    );
}

#[test]
fn invalid_utf8_line_is_reported_not_fatal() {
    let mut bytes = jsonl(&[session_meta("t")]).into_bytes();
    bytes.extend_from_slice(b"{\"timestamp\":\"\xff\xfe\",\"type\":\"x\",\"payload\":{}}\n");
    bytes.extend_from_slice(jsonl(&[message("user", "after")]).as_bytes());
    let loaded = codex_rollout::parse_rollout(bytes.as_slice()).expect("read");
    assert_eq!(line_numbers(&loaded), vec![1, 3]);
    assert_eq!(loaded.warnings[0].line_number, 2);
    assert_eq!(loaded.warnings[0].damage, LineDamage::InvalidJson);
}

#[test]
fn unknown_line_types_are_kept_with_their_payload() {
    let unknown = line(
        "inter_agent_communication",
        json!({"from": "a", "n": [1, 2]}),
    );
    let event = line("event_msg", json!({"type": "brand_new_event", "x": 1}));
    let loaded = load(&jsonl(&[session_meta("t"), unknown, event]));

    assert_eq!(loaded.warnings, Vec::new());
    assert_eq!(
        loaded.lines[1].line.item,
        RolloutItem::Other {
            line_type: "inter_agent_communication".to_string(),
            payload: json!({"from": "a", "n": [1, 2]}),
        }
    );
    assert_eq!(
        loaded.lines[2].line.item.event_msg_type(),
        Some("brand_new_event")
    );
}

#[test]
fn blank_lines_are_skipped_but_counted() {
    let text = format!("{}\n\n   \n{}\n", session_meta("t"), message("user", "x"));
    let loaded = load(&text);
    assert_eq!(line_numbers(&loaded), vec![1, 4]);
    assert_eq!(loaded.warnings, Vec::new());
}

#[test]
fn missing_file_is_a_read_error_naming_the_path() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("absent.jsonl");
    let error = read_rollout(&path, None).expect_err("missing file");
    assert!(matches!(error, RolloutError::Read { .. }));
    assert!(error.to_string().contains("absent.jsonl"), "{error}");
}

#[test]
fn rollout_path_is_dated_and_names_the_thread() {
    let created: Timestamp = "2026-11-30T07:02:19.570Z".parse().expect("timestamp");
    let path = rollout_path(
        std::path::Path::new("/home/codex"),
        created,
        "01a22b42-fa57-7722-b4f5-f621e1d67567",
    );
    assert_eq!(
        path,
        std::path::PathBuf::from(
            "/home/codex/sessions/2026/11/30/rollout-2026-11-30T07-02-19-01a22b42-fa57-7722-b4f5-f621e1d67567.jsonl"
        )
    );
}

fn user_item(text: &str) -> RolloutItem {
    RolloutItem::ResponseItem(ResponseItem::message(
        "user",
        vec![ContentItem::input_text(text)],
    ))
}

#[test]
fn writer_appends_whole_lines_that_read_back_equal() {
    let home = tempfile::tempdir().expect("tempdir");
    let created: Timestamp = "2026-11-30T07:02:19Z".parse().expect("timestamp");
    let mut writer = RolloutWriter::create(home.path(), created, "thread-9", LineOrdinals::Omitted)
        .expect("create");
    writer
        .append("2026-11-30T07:02:19.001Z", &user_item("first"))
        .expect("append");
    // Each append is on disk as a complete line before the next one is written.
    assert_eq!(
        fs::read_to_string(writer.path()).expect("read"),
        "{\"timestamp\":\"2026-11-30T07:02:19.001Z\",\"type\":\"response_item\",\"payload\":{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"first\"}]}}\n"
    );
    writer
        .append("2026-11-30T07:02:19.002Z", &user_item("second"))
        .expect("append");
    writer.sync().expect("sync");

    let loaded = read_rollout(writer.path(), None).expect("read back");
    assert_eq!(
        loaded
            .lines
            .into_iter()
            .map(|loaded| loaded.line)
            .collect::<Vec<_>>(),
        vec![
            RolloutLine::new("2026-11-30T07:02:19.001Z", user_item("first")),
            RolloutLine::new("2026-11-30T07:02:19.002Z", user_item("second")),
        ]
    );
}

#[test]
fn create_refuses_to_overwrite_an_existing_rollout() {
    let home = tempfile::tempdir().expect("tempdir");
    let created: Timestamp = "2026-11-30T07:02:19Z".parse().expect("timestamp");
    RolloutWriter::create(home.path(), created, "same", LineOrdinals::Omitted).expect("first");
    let error = RolloutWriter::create(home.path(), created, "same", LineOrdinals::Omitted)
        .expect_err("second create");
    assert!(matches!(error, RolloutError::Create { .. }), "{error}");
}

#[test]
fn resume_appends_after_a_crash_cut_line_without_corrupting_new_lines() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("rollout.jsonl");
    let cut = &message("assistant", "interrupted reply")[..30];
    fs::write(
        &path,
        format!("{}{cut}", jsonl(&[session_meta("t"), message("user", "q")])),
    )
    .expect("write");

    let before = read_rollout(&path, None).expect("read");
    let mut writer =
        RolloutWriter::open_existing(&path, LineOrdinals::continuing(&before)).expect("open");
    writer
        .append(TIMESTAMP, &user_item("after resume"))
        .expect("append");

    let after = read_rollout(&path, None).expect("read");
    assert_eq!(line_numbers(&after), vec![1, 2, 4]);
    assert_eq!(after.lines[2].line.item, user_item("after resume"));
    assert_eq!(
        after
            .warnings
            .iter()
            .map(|warning| (warning.line_number, warning.damage))
            .collect::<Vec<_>>(),
        // Once closed by a line break the fragment is an ordinary damaged line.
        vec![(3, LineDamage::InvalidJson)]
    );
}

#[test]
fn ordinals_continue_from_the_loaded_rollout() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("paginated.jsonl");
    let numbered = |ordinal: u64, text: &str| {
        json!({"timestamp": TIMESTAMP, "ordinal": ordinal, "type": "response_item", "payload": message_item("user", text)})
            .to_string()
    };
    fs::write(&path, jsonl(&[numbered(0, "a"), numbered(1, "b")])).expect("write");
    let loaded = read_rollout(&path, None).expect("read");
    assert_eq!(
        LineOrdinals::continuing(&loaded),
        LineOrdinals::Sequential { next: 2 }
    );

    let mut writer =
        RolloutWriter::open_existing(&path, LineOrdinals::continuing(&loaded)).expect("open");
    writer.append(TIMESTAMP, &user_item("c")).expect("append");
    writer
        .append_line(&RolloutLine::new(TIMESTAMP, user_item("d")))
        .expect("append line");
    let ordinals: Vec<Option<u64>> = read_rollout(&path, None)
        .expect("read")
        .lines
        .iter()
        .map(|loaded| loaded.line.ordinal)
        .collect();
    assert_eq!(ordinals, vec![Some(0), Some(1), Some(2), Some(3)]);
}

#[test]
fn warnings_compare_as_whole_values() {
    let loaded = load(&jsonl(&["[1,2]".to_string()]));
    assert_eq!(
        loaded.warnings,
        vec![RolloutWarning {
            line_number: 1,
            damage: LineDamage::InvalidShape,
            message: "line 1: not a valid rollout line: invalid type: sequence, expected a rollout line object".to_string(),
        }]
    );
}

/// The reader's single-pass parser agrees with the protocol's own `RolloutLine` deserializer.
#[test]
fn line_parsing_matches_the_protocol_deserializer() {
    let lines = [
        // Payload before type (the buffered path), an extra top-level key, a null ordinal.
        r#"{"payload":{"full":true,"state":{"a":1}},"type":"world_state","timestamp":"t"}"#,
        r#"{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[]},"metadata":{"user_input_order":1}}"#,
        r#"{"timestamp":"t","ordinal":null,"type":"event_msg","payload":{"type":"x"}}"#,
        r#"{"timestamp":"t","ordinal":7,"type":"compacted","payload":{"message":"m","window_id":3}}"#,
    ];
    let loaded = load(&jsonl(&lines.map(str::to_string)));
    assert_eq!(loaded.warnings, Vec::new());
    let expected: Vec<RolloutLine> = lines
        .iter()
        .map(|line| serde_json::from_str(line).expect("protocol"))
        .collect();
    assert_eq!(
        loaded
            .lines
            .into_iter()
            .map(|loaded| loaded.line)
            .collect::<Vec<_>>(),
        expected
    );
}

#[test]
fn malformed_envelopes_are_reported_like_the_protocol_reports_them() {
    let lines = [
        r#"{"timestamp":"t","type":"x","type":"y","payload":{}}"#,
        r#"{"timestamp":"t","type":"event_msg"}"#,
        r#"{"type":"event_msg","payload":{}}"#,
        r#"{"payload":{"full":"yes","state":{}},"type":"world_state","timestamp":"t"}"#,
    ];
    let loaded = load(&jsonl(&lines.map(str::to_string)));
    let messages: Vec<&str> = loaded
        .warnings
        .iter()
        .map(|warning| warning.message.as_str())
        .collect();
    assert_eq!(
        messages,
        vec![
            "line 1: not a valid rollout line: duplicate field `type` (column 34)",
            "line 2: not a valid rollout line: missing field `payload` (column 36)",
            "line 3: not a valid rollout line: missing field `timestamp` (column 33)",
            "line 4: not a valid rollout line: invalid `world_state` payload: invalid type: string \"yes\", expected a boolean (column 74)",
        ]
    );
}

/// A multi-megabyte rollout with scattered damage: line numbers, order and damage reports come
/// out exactly as the protocol's own line-by-line reading gives them.
#[test]
fn large_rollouts_keep_file_order_and_line_numbers() {
    let mut generated = Vec::new();
    rollout_support::synthetic::write_synthetic_rollout(&mut generated, 6_000).expect("generate");
    let generated = String::from_utf8(generated).expect("utf-8");
    let mut text = String::new();
    let mut expected_lines = Vec::new();
    let mut expected_damage = Vec::new();
    let mut line_number = 0;
    for (index, line) in generated.lines().enumerate() {
        if index % 997 == 500 {
            // A damaged line, then a blank one.
            text.push_str("{\"broken\n\n");
            expected_damage.push(line_number + 1);
            line_number += 2;
        }
        line_number += 1;
        expected_lines.push((line_number, line));
        text.push_str(line);
        text.push('\n');
    }
    assert!(text.len() > 3 * 1024 * 1024, "spans several blocks");

    let loaded = load(&text);
    assert_eq!(
        loaded
            .warnings
            .iter()
            .map(|warning| warning.line_number)
            .collect::<Vec<_>>(),
        expected_damage
    );
    assert_eq!(loaded.lines.len(), expected_lines.len());
    for (loaded_line, (line_number, raw)) in loaded.lines.iter().zip(&expected_lines) {
        assert_eq!(loaded_line.line_number, *line_number);
        let reference: RolloutLine = serde_json::from_str(raw).expect("protocol");
        assert_eq!(loaded_line.line, reference, "line {line_number}");
    }
}

/// Lines of several megabytes are parsed as they are read: the same lines, warnings and line
/// numbers as short ones give, and the lines after them load.
#[test]
fn long_lines_load_like_short_ones() {
    // Escapes throughout, so the parser cannot borrow the text.
    let long_text = "a long tool output line with \"quotes\" and \\ escapes\n".repeat(150_000);
    assert!(long_text.len() > 6 * 1024 * 1024, "longer than a long line");
    let long = message("assistant", &long_text);
    let mut damaged = long.clone();
    damaged.insert(damaged.len() / 2, '\u{1}');
    let blank = " ".repeat(5 * 1024 * 1024);
    let text = jsonl(&[
        session_meta("t"),
        long.clone(),
        message("user", "after the long line"),
        damaged,
        blank,
        long.clone(),
    ]);
    let cut = &long[..long.len() - 10];
    let loaded = load(&format!("{text}{cut}"));

    assert_eq!(line_numbers(&loaded), vec![1, 2, 3, 6]);
    let expected: Vec<RolloutLine> = [
        session_meta("t"),
        long.clone(),
        message("user", "after the long line"),
        long,
    ]
    .iter()
    .map(|raw| serde_json::from_str(raw).expect("protocol"))
    .collect();
    let lines: Vec<RolloutLine> = loaded.lines.into_iter().map(|line| line.line).collect();
    assert_eq!(lines, expected);
    let damage: Vec<(usize, LineDamage)> = loaded
        .warnings
        .iter()
        .map(|warning| (warning.line_number, warning.damage))
        .collect();
    // As for short lines, damage inside a payload is reported as the payload's.
    assert_eq!(
        damage,
        vec![(4, LineDamage::InvalidShape), (7, LineDamage::InvalidShape)]
    );
    assert!(
        loaded.warnings[1].message.contains("EOF while parsing"),
        "{}",
        loaded.warnings[1].message
    );
}

/// Binary garbage or prose given as a rollout: one error naming the file, no warning per line.
#[test]
fn a_file_without_json_lines_is_not_a_rollout() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut garbage: Vec<u8> = Vec::new();
    for line in 0..200u32 {
        garbage.extend((0..64u32).map(|byte| ((line * 31 + byte * 7) % 256) as u8 | 0x80));
        garbage.push(b'\n');
    }
    let binary = dir.path().join("binary.jsonl");
    std::fs::write(&binary, &garbage).expect("write");
    let prose = dir.path().join("notes.txt");
    std::fs::write(&prose, "first line\n\nsecond line\nthird line\n").expect("write");
    let errors: Vec<String> = [&binary, &prose]
        .iter()
        .map(|path| {
            read_rollout(path, None)
                .expect_err("not a rollout")
                .to_string()
        })
        .collect();
    assert_eq!(
        errors,
        vec![
            format!(
                "{}: not a rollout: no JSON line in the first {JSON_PROBE_LINES} lines",
                binary.display()
            ),
            format!(
                "{}: not a rollout: no JSON line in its 4 lines",
                prose.display()
            ),
        ]
    );
    assert_eq!(
        parse_rollout(&garbage[..])
            .expect_err("not a rollout")
            .to_string(),
        format!("not a rollout: no JSON line in the first {JSON_PROBE_LINES} lines")
    );
}

/// Damaged lines before the first good one are still warnings, once the file shows it is JSON.
#[test]
fn leading_damage_followed_by_rollout_lines_still_loads() {
    let good = r#"{"timestamp":"t","type":"event_msg","payload":{"type":"x"}}"#;
    let mut lines: Vec<String> = (0..JSON_PROBE_LINES - 1)
        .map(|line| format!("garbage {line}"))
        .collect();
    lines.push(good.to_string());
    let loaded = load(&jsonl(&lines));
    assert_eq!(
        (line_numbers(&loaded), loaded.warnings.len()),
        (vec![JSON_PROBE_LINES], JSON_PROBE_LINES - 1)
    );
    // A lone cut-short first line is a rollout whose writer stopped in it.
    let cut = load(&good[..20]);
    assert_eq!(
        (cut.lines.len(), cut.warnings[0].damage),
        (0, LineDamage::Truncated)
    );
}

#[test]
fn every_reader_advances_its_progress_by_the_bytes_it_reads() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("rollout.jsonl");
    let text = jsonl(&two_turn_rollout());
    fs::write(&path, &text).expect("write");
    let counted = |read: &dyn Fn(&Progress)| {
        let progress = Progress::new(None, Unit::Bytes, "reading", Display::Hidden);
        read(&progress);
        progress.position()
    };
    let size = text.len() as u64;
    let positions = [
        counted(&|progress| {
            read_rollout(&path, Some(progress)).expect("read");
        }),
        counted(&|progress| {
            codex_rollout::read_rollout_for_replay(&path, Some(progress)).expect("replay");
        }),
        counted(&|progress| {
            codex_rollout::resume_rollout(&path, Some(progress)).expect("resume");
        }),
    ];
    assert_eq!(positions, [size, size, size]);
}
