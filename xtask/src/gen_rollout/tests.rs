use std::collections::BTreeMap;

use codex_release::CodexRelease;
use pretty_assertions::assert_eq;

use super::DEFAULT_CWD;
use super::DEFAULT_MODEL_PROVIDER;
use super::DEFAULT_SEED;
use super::GenOptions;
use super::generate;
use super::write_rollout;

fn options(lines: u64, release: CodexRelease) -> GenOptions {
    GenOptions {
        lines,
        release,
        seed: DEFAULT_SEED,
        huge_output_bytes: None,
        cwd: DEFAULT_CWD.to_string(),
        model_provider: DEFAULT_MODEL_PROVIDER.to_string(),
    }
}

fn bytes_of(options: &GenOptions) -> Vec<u8> {
    let mut out = Vec::new();
    if let Err(error) = generate(options, &mut out) {
        panic!("generation failed: {error}");
    }
    out
}

/// `type` (and the payload's `type`) of every line, counted.
fn line_mix(text: &str) -> BTreeMap<String, usize> {
    let mut mix = BTreeMap::new();
    for line in text.lines() {
        let value: serde_json::Value = match serde_json::from_str(line) {
            Ok(value) => value,
            Err(error) => panic!("a generated line is not JSON: {error}"),
        };
        let kind = match value["payload"]["type"].as_str() {
            Some(inner) => format!("{}/{inner}", value["type"].as_str().unwrap_or("?")),
            None => value["type"].as_str().unwrap_or("?").to_string(),
        };
        *mix.entry(kind).or_default() += 1;
    }
    mix
}

#[test]
fn the_same_options_give_the_same_bytes_and_another_seed_others() {
    for release in CodexRelease::ALL {
        let first = bytes_of(&options(400, release));
        assert_eq!(first, bytes_of(&options(400, release)));
        let other_seed = GenOptions {
            seed: DEFAULT_SEED + 1,
            ..options(400, release)
        };
        assert!(first != bytes_of(&other_seed));
    }
}

#[test]
fn generated_rollouts_read_back_without_warnings_and_in_their_release() {
    let dir = tempfile::tempdir().unwrap_or_else(|error| panic!("{error}"));
    for release in CodexRelease::ALL {
        let path = dir.path().join(format!("{}.jsonl", release.name()));
        let summary = write_rollout(
            &options(3_000, release),
            &path,
            codex_utils_fs::Existing::Refuse,
        )
        .unwrap_or_else(|error| panic!("{error}"));
        let loaded =
            codex_rollout::read_rollout(&path, None).unwrap_or_else(|error| panic!("{error}"));
        assert_eq!(loaded.warnings, Vec::new());
        assert_eq!(loaded.lines.len() as u64, summary.lines);
        // Resuming skims the lines before the newest compaction: the same thread, the same
        // digest as reading every line in full.
        let resumed =
            codex_rollout::resume_rollout(&path, None).unwrap_or_else(|error| panic!("{error}"));
        let expected = codex_rollout::ResumedRollout::of_lines(&loaded.lines);
        assert_eq!(resumed, expected, "{}", release.name());
        assert!(summary.lines >= 3_000, "{} lines", summary.lines);
        assert!(
            summary.compactions > 0,
            "no compaction in {} lines",
            summary.lines
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{error}"));
        let last = text.lines().last().unwrap_or_default();
        assert!(last.contains("\"type\":\"task_complete\""), "{last}");
        assert!(text.contains(&format!(
            "\"cli_version\":\"{}\"",
            release.observed_version()
        )));
        // A second write without --force leaves the file alone.
        let refused = write_rollout(
            &options(10, release),
            &path,
            codex_utils_fs::Existing::Refuse,
        );
        assert!(refused.is_err());
        assert_eq!(
            std::fs::read_to_string(&path).unwrap_or_default().len() as u64,
            summary.bytes
        );
    }
}

#[test]
fn the_line_mix_holds_every_kind_each_release_writes() {
    let mix_149 = line_mix(&String::from_utf8_lossy(&bytes_of(&options(
        3_000,
        CodexRelease::V0_149,
    ))));
    let mix_171 = line_mix(&String::from_utf8_lossy(&bytes_of(&options(
        3_000,
        CodexRelease::V0_171,
    ))));
    let kinds = |mix: &BTreeMap<String, usize>| mix.keys().cloned().collect::<Vec<_>>();
    let common = [
        "compacted",
        "event_msg/item_completed",
        "event_msg/task_complete",
        "event_msg/task_started",
        "event_msg/thread_settings_applied",
        "event_msg/token_count",
        "response_item/function_call",
        "response_item/function_call_output",
        "response_item/message",
        "response_item/reasoning",
        "session_meta",
        "turn_context",
        "world_state",
    ];
    assert_eq!(kinds(&mix_149), common.map(String::from).to_vec());
    let mut with_records = common.map(String::from).to_vec();
    with_records.push("token_usage_record".to_string());
    with_records.sort();
    assert_eq!(kinds(&mix_171), with_records);
    for mix in [&mix_149, &mix_171] {
        assert_eq!(mix.get("session_meta"), Some(&1));
        assert_eq!(
            mix.get("response_item/function_call"),
            mix.get("response_item/function_call_output")
        );
    }
}

#[test]
fn a_huge_output_is_one_line_of_that_size() {
    let text = bytes_of(&GenOptions {
        huge_output_bytes: Some(2_000_000),
        ..options(1, CodexRelease::V0_171)
    });
    let text = String::from_utf8_lossy(&text);
    let longest = text.lines().map(str::len).max().unwrap_or_default();
    // Each newline of the output is escaped as two characters.
    assert!((2_000_000..2_100_000).contains(&longest), "{longest}");
    let events = text
        .lines()
        .filter(|line| line.contains("\"CommandExecution\""))
        .map(str::len)
        .max()
        .unwrap_or_default();
    assert!(events < 100_000, "{events}");
}

#[test]
fn a_small_0_149_rollout_matches_its_snapshot() {
    let text = bytes_of(&options(60, CodexRelease::V0_149));
    insta::assert_snapshot!(String::from_utf8_lossy(&text));
}

#[test]
fn a_small_0_171_rollout_matches_its_snapshot() {
    let text = bytes_of(&options(60, CodexRelease::V0_171));
    insta::assert_snapshot!(String::from_utf8_lossy(&text));
}
