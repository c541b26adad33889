use std::time::Duration;

use pretty_assertions::assert_eq;

use super::Case;
use super::InputItems;
use super::Measurements;
use super::Medians;
use super::all_met;
use super::median;
use super::render_table;
use super::report::GOALS;
use super::report::Verdict;
use super::report::evaluate;

fn medians(millis: u64, megabytes: u64) -> Medians {
    Medians {
        wall: Duration::from_millis(millis),
        peak_rss_bytes: megabytes * 1_000_000,
    }
}

fn measured() -> Measurements {
    let mut measured = Measurements {
        long_file_bytes: 200_000_000,
        huge_file_bytes: 50_000_000,
        ..Measurements::default()
    };
    for (case, millis, megabytes) in [
        (Case::Floor, 1_000, 5),
        (Case::Resume, 2_000, 300),
        (Case::Fork, 3_000, 900),
        (Case::Inspect, 4_000, 350),
        (Case::HugeLineFloor, 150, 120),
        (Case::HugeLineInspect, 6_500, 180),
    ] {
        measured.cases.insert(case, medians(millis, megabytes));
    }
    measured
        .skipped
        .insert(Case::RealStartup, "no 0.171.0 in /cache".to_string());
    measured
        .skipped
        .insert(Case::RealResume, "no 0.171.0 in /cache".to_string());
    measured
        .skipped
        .insert(Case::RealResumeImported, "no 0.171.0 in /cache".to_string());
    measured
}

#[test]
fn the_median_is_the_middle_value_or_the_mean_of_the_middle_two() {
    assert_eq!(median::<u64>(&[]), None);
    assert_eq!(median(&[5_u64]), Some(5));
    assert_eq!(median(&[9_u64, 1, 5]), Some(5));
    assert_eq!(median(&[9_u64, 1, 5, 3]), Some(4));
    assert_eq!(median(&[7_u64, 7, 1, 100, 2]), Some(7));
}

#[test]
fn goals_compare_ratios_with_their_limits() {
    let measured = measured();
    let verdicts: Vec<Verdict> = GOALS.iter().map(|goal| evaluate(goal, &measured)).collect();
    assert_eq!(
        verdicts,
        vec![
            Verdict::Met(2.0),
            Verdict::Met(1.5),
            Verdict::NotMet(3.0),
            Verdict::Met(2.0),
            Verdict::NotMet(6.5),
            Verdict::Met(3.6),
            Verdict::NotMeasured,
        ]
    );
    assert!(!all_met(&measured));
    let mut faster = measured;
    faster.cases.insert(Case::Fork, medians(2_000, 900));
    faster
        .cases
        .insert(Case::HugeLineInspect, medians(900, 180));
    assert!(all_met(&faster));
}

#[test]
fn the_real_resume_is_measured_against_ours() {
    let mut measured = measured();
    measured.skipped.clear();
    measured.cases.insert(Case::RealStartup, medians(400, 60));
    measured.cases.insert(Case::RealResume, medians(8_000, 800));
    measured
        .cases
        .insert(Case::RealResumeImported, medians(450, 170));
    measured.resumed_input_items = Some(InputItems {
        ours: 361,
        real: Some(362),
    });
    assert_eq!(evaluate(&GOALS[6], &measured), Verdict::NotMet(4.0));
    let mut slower = measured.clone();
    slower.cases.insert(Case::RealResume, medians(10_000, 800));
    assert_eq!(evaluate(&GOALS[6], &slower), Verdict::Met(5.0));
    insta::assert_snapshot!("table_with_the_real_cli", render_table(&measured));
}

#[test]
fn the_table_shows_every_case_goal_and_skip() {
    insta::assert_snapshot!("table_without_the_real_cli", render_table(&measured()));
}
