use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;

/// Serde and `as_str` must spell every variant the same way, and `FromStr` must invert both.
fn assert_spellings_agree<T>(all: &[T], as_str: fn(T) -> &'static str)
where
    T: Copy + PartialEq + std::fmt::Debug + Serialize + serde::de::DeserializeOwned,
    T: std::str::FromStr,
    <T as std::str::FromStr>::Err: std::fmt::Debug,
{
    for &value in all {
        let spelling = as_str(value);
        assert_eq!(serde_json::to_value(value).unwrap(), json!(spelling));
        assert_eq!(serde_json::from_value::<T>(json!(spelling)).unwrap(), value);
        assert_eq!(spelling.parse::<T>().unwrap(), value);
    }
}

#[test]
fn wire_spellings_match_serde() {
    assert_spellings_agree(Personality::ALL, Personality::as_str);
    assert_spellings_agree(SandboxMode::ALL, SandboxMode::as_str);
    assert_spellings_agree(ReasoningSummary::ALL, ReasoningSummary::as_str);
    assert_spellings_agree(Verbosity::ALL, Verbosity::as_str);
    assert_spellings_agree(ModeKind::ALL, ModeKind::as_str);
    assert_spellings_agree(ApprovalsReviewer::ALL, ApprovalsReviewer::as_str);
    assert_spellings_agree(WebSearchMode::ALL, WebSearchMode::as_str);
    assert_spellings_agree(TrustLevel::ALL, TrustLevel::as_str);
}

#[test]
fn upstream_spellings() {
    assert_eq!(
        Personality::ALL
            .iter()
            .map(|p| p.as_str())
            .collect::<Vec<_>>(),
        vec!["none", "friendly", "pragmatic"]
    );
    assert_eq!(
        SandboxMode::ALL
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>(),
        vec!["read-only", "workspace-write", "danger-full-access"]
    );
    assert_eq!(
        ReasoningSummary::ALL
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>(),
        vec!["auto", "concise", "detailed", "none"]
    );
    assert_eq!(SandboxMode::default(), SandboxMode::ReadOnly);
    assert_eq!(ReasoningSummary::default(), ReasoningSummary::Auto);
    assert_eq!(Verbosity::default(), Verbosity::Medium);
}

#[test]
fn unknown_spelling_is_a_typed_error() {
    let error = "workspace".parse::<SandboxMode>().unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown sandbox mode `workspace` (expected one of: read-only, workspace-write, danger-full-access)"
    );
}

#[test]
fn mode_kind_deserializes_alias_values_to_default() {
    for alias in ["code", "pair_programming", "execute", "custom"] {
        assert_eq!(
            serde_json::from_value::<ModeKind>(json!(alias)).unwrap(),
            ModeKind::Default
        );
        assert_eq!(alias.parse::<ModeKind>().unwrap(), ModeKind::Default);
    }
    assert_eq!(
        ModeKind::VISIBLE
            .iter()
            .map(|m| m.display_name())
            .collect::<Vec<_>>(),
        vec!["Default", "Plan"]
    );
}

#[test]
fn approvals_reviewer_accepts_legacy_guardian_name() {
    assert_eq!(
        serde_json::from_value::<ApprovalsReviewer>(json!("guardian_subagent")).unwrap(),
        ApprovalsReviewer::AutoReview
    );
}

#[test]
fn collaboration_mode_writes_null_settings() {
    let literal = r#"{"mode":"default","settings":{"model":"gpt-5.5","reasoning_effort":null,"developer_instructions":null}}"#;
    let mode: CollaborationMode = serde_json::from_str(literal).unwrap();
    assert_eq!(
        mode,
        CollaborationMode {
            mode: ModeKind::Default,
            settings: CollaborationModeSettings {
                model: "gpt-5.5".to_string(),
                reasoning_effort: None,
                developer_instructions: None,
            },
        }
    );
    assert_eq!(serde_json::to_string(&mode).unwrap(), literal);

    let with_effort = r#"{"mode":"plan","settings":{"model":"o3","reasoning_effort":"high","developer_instructions":"x"}}"#;
    let mode: CollaborationMode = serde_json::from_str(with_effort).unwrap();
    assert_eq!(serde_json::to_string(&mode).unwrap(), with_effort);
}

#[test]
fn apply_mask_can_keep_set_and_clear_fields() {
    let base = CollaborationMode {
        mode: ModeKind::Default,
        settings: CollaborationModeSettings {
            model: "gpt-5.5".to_string(),
            reasoning_effort: Some(ReasoningEffort::High),
            developer_instructions: Some("old".to_string()),
        },
    };
    let mask = CollaborationModeMask {
        name: "Plan".to_string(),
        mode: Some(ModeKind::Plan),
        model: None,
        reasoning_effort: Some(None),
        developer_instructions: Some(Some("new".to_string())),
    };
    assert_eq!(
        base.apply_mask(&mask),
        CollaborationMode {
            mode: ModeKind::Plan,
            settings: CollaborationModeSettings {
                model: "gpt-5.5".to_string(),
                reasoning_effort: None,
                developer_instructions: Some("new".to_string()),
            },
        }
    );
}
