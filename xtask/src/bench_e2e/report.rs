//! Medians, the goals of the end-to-end benchmark and the markdown table that reports them.

use std::collections::BTreeMap;
use std::time::Duration;

/// One process the benchmark times.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Case {
    /// Reading the rollout and parsing every line into a JSON value, nothing else.
    Floor,
    Resume,
    Fork,
    Inspect,
    /// The floor over the file holding one huge line.
    HugeLineFloor,
    /// `inspect` of the file holding one huge line.
    HugeLineInspect,
    /// A fresh `codex exec` turn of the released CLI: its start-up and one request.
    RealStartup,
    /// The released `codex exec resume` of the long rollout, its CODEX_HOME holding nothing but
    /// `config.toml` and the rollout: the history is read from the file.
    RealResume,
    /// The released `codex exec resume` of a thread an earlier resume imported into the
    /// CLI's own SQLite databases (0.171.0 keeps thread history there and reads it instead of
    /// the rollout). No goal: it does not read the file.
    RealResumeImported,
}

impl Case {
    /// Every case, in the table's order.
    pub const ALL: [Case; 9] = [
        Case::Floor,
        Case::Resume,
        Case::Fork,
        Case::Inspect,
        Case::HugeLineFloor,
        Case::HugeLineInspect,
        Case::RealStartup,
        Case::RealResume,
        Case::RealResumeImported,
    ];

    /// The command, as the table names it.
    pub fn label(self) -> &'static str {
        match self {
            Case::Floor => "floor: parse every line of FILE (`xtask parse-floor`)",
            Case::Resume => "`codex-context session resume FILE --user hi`",
            Case::Fork => "`codex-context session fork FILE --user hi`",
            Case::Inspect => "`codex-context inspect FILE`",
            Case::HugeLineFloor => "floor: parse HUGE (one 50 MB line)",
            Case::HugeLineInspect => "`codex-context inspect HUGE`",
            Case::RealStartup => "real `codex exec` (fresh thread: start-up)",
            Case::RealResume => "real `codex exec resume` of FILE",
            Case::RealResumeImported => {
                "real `codex exec resume`, thread already imported (FILE not read)"
            }
        }
    }
}

/// Which generated file a size refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum File {
    /// The long rollout (`FILE`).
    Long,
    /// The rollout holding one huge line (`HUGE`).
    HugeLine,
}

/// What a goal compares.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Measure {
    /// The case's wall time over another case's.
    WallOver(Case),
    /// The case's peak RSS over a file's size.
    RssOverFile(File),
    /// The case's wall time in seconds.
    WallSeconds,
}

/// Which side of the limit meets the goal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Limit {
    AtMost(f64),
    AtLeast(f64),
}

/// One goal of the benchmark.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Goal {
    pub case: Case,
    pub measure: Measure,
    pub limit: Limit,
}

/// The goals, in the table's order.
pub const GOALS: [Goal; 7] = [
    Goal {
        case: Case::Resume,
        measure: Measure::WallOver(Case::Floor),
        limit: Limit::AtMost(2.0),
    },
    Goal {
        case: Case::Resume,
        measure: Measure::RssOverFile(File::Long),
        limit: Limit::AtMost(2.0),
    },
    Goal {
        case: Case::Fork,
        measure: Measure::WallOver(Case::Floor),
        limit: Limit::AtMost(2.5),
    },
    Goal {
        case: Case::Inspect,
        measure: Measure::WallOver(Case::Resume),
        limit: Limit::AtMost(3.0),
    },
    Goal {
        case: Case::HugeLineInspect,
        measure: Measure::WallSeconds,
        limit: Limit::AtMost(5.0),
    },
    Goal {
        case: Case::HugeLineInspect,
        measure: Measure::RssOverFile(File::HugeLine),
        limit: Limit::AtMost(4.0),
    },
    Goal {
        case: Case::RealResume,
        measure: Measure::WallOver(Case::Resume),
        limit: Limit::AtLeast(5.0),
    },
];

/// The medians of one case's repetitions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Medians {
    pub wall: Duration,
    pub peak_rss_bytes: u64,
}

/// What a run measured.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Measurements {
    /// Per case that ran, its medians.
    pub cases: BTreeMap<Case, Medians>,
    /// Per case that could not run, why.
    pub skipped: BTreeMap<Case, String>,
    pub long_file_bytes: u64,
    pub huge_file_bytes: u64,
    /// The `input` items of the request our resume printed and of the released CLI's resumed
    /// request: both read the same history, so they are close (each release adds its own
    /// context updates).
    pub resumed_input_items: Option<InputItems>,
}

/// How many `input` items two resumed requests carried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InputItems {
    pub ours: usize,
    /// `None` until the released CLI's resume ran.
    pub real: Option<usize>,
}

/// How a goal came out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Verdict {
    Met(f64),
    NotMet(f64),
    /// A case it needs did not run.
    NotMeasured,
}

/// The median of `values` (the mean of the middle two for an even count); `None` for none.
pub fn median<T: Copy + Ord + Into<u128>>(values: &[T]) -> Option<u128> {
    let mut sorted: Vec<u128> = values.iter().map(|&value| value.into()).collect();
    sorted.sort_unstable();
    let middle = sorted.len() / 2;
    match sorted.len() {
        0 => None,
        count if count % 2 == 1 => sorted.get(middle).copied(),
        _ => Some((sorted.get(middle - 1)? + sorted.get(middle)?) / 2),
    }
}

/// Evaluates `goal` over `measured`.
pub fn evaluate(goal: &Goal, measured: &Measurements) -> Verdict {
    let Some(subject) = measured.cases.get(&goal.case) else {
        return Verdict::NotMeasured;
    };
    let ratio = match goal.measure {
        Measure::WallOver(other) => measured
            .cases
            .get(&other)
            .map(|other| subject.wall.as_secs_f64() / other.wall.as_secs_f64().max(1e-9)),
        Measure::RssOverFile(file) => {
            let size = match file {
                File::Long => measured.long_file_bytes,
                File::HugeLine => measured.huge_file_bytes,
            };
            Some(subject.peak_rss_bytes as f64 / (size.max(1)) as f64)
        }
        Measure::WallSeconds => Some(subject.wall.as_secs_f64()),
    };
    let Some(ratio) = ratio else {
        return Verdict::NotMeasured;
    };
    let met = match goal.limit {
        Limit::AtMost(limit) => ratio <= limit,
        Limit::AtLeast(limit) => ratio >= limit,
    };
    match met {
        true => Verdict::Met(ratio),
        false => Verdict::NotMet(ratio),
    }
}

/// Whether every goal that could be measured is met.
pub fn all_met(measured: &Measurements) -> bool {
    GOALS
        .iter()
        .all(|goal| !matches!(evaluate(goal, measured), Verdict::NotMet(_)))
}

fn short(case: Case) -> &'static str {
    match case {
        Case::Floor => "floor",
        Case::Resume => "resume",
        Case::Fork => "fork",
        Case::Inspect => "inspect",
        Case::HugeLineFloor => "huge-line floor",
        Case::HugeLineInspect => "huge-line inspect",
        Case::RealStartup => "real start-up",
        Case::RealResume => "real resume",
        Case::RealResumeImported => "real resume of an imported thread",
    }
}

fn goal_text(goal: &Goal) -> String {
    let (sign, limit) = match goal.limit {
        Limit::AtMost(limit) => ("≤", limit),
        Limit::AtLeast(limit) => ("≥", limit),
    };
    match goal.measure {
        Measure::WallOver(other) => format!("wall {sign} {limit}× {} wall", short(other)),
        Measure::RssOverFile(File::Long) => format!("peak RSS {sign} {limit}× FILE size"),
        Measure::RssOverFile(File::HugeLine) => format!("peak RSS {sign} {limit}× HUGE size"),
        Measure::WallSeconds => format!("wall {sign} {limit} s"),
    }
}

fn ratio_text(goal: &Goal, value: f64) -> String {
    match goal.measure {
        Measure::WallOver(other) => format!("{value:.2}× {}", short(other)),
        Measure::RssOverFile(File::Long) => format!("{value:.2}× FILE"),
        Measure::RssOverFile(File::HugeLine) => format!("{value:.2}× HUGE"),
        Measure::WallSeconds => format!("{value:.2} s"),
    }
}

/// `1.234 s` or `87 ms`.
pub fn format_wall(wall: Duration) -> String {
    match wall.as_millis() {
        0..1000 => format!("{} ms", wall.as_millis()),
        _ => format!("{:.3} s", wall.as_secs_f64()),
    }
}

/// `412.3 MB` (decimal megabytes).
pub fn format_bytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// The markdown table: one row per case, and one more per further goal of the same case.
pub fn render_table(measured: &Measurements) -> String {
    let mut table = String::from(
        "| command | median wall | peak RSS | ratio | goal | status |\n\
         |---|---:|---:|---:|---|---|\n",
    );
    for case in Case::ALL {
        let (wall, rss) = match (measured.cases.get(&case), measured.skipped.get(&case)) {
            (Some(medians), _) => (
                format_wall(medians.wall),
                format_bytes(medians.peak_rss_bytes),
            ),
            (None, Some(reason)) => (format!("skipped: {reason}"), String::new()),
            (None, None) => ("not run".to_string(), String::new()),
        };
        let goals: Vec<&Goal> = GOALS.iter().filter(|goal| goal.case == case).collect();
        if goals.is_empty() {
            table.push_str(&format!("| {} | {wall} | {rss} | | | |\n", case.label()));
        }
        for (index, goal) in goals.into_iter().enumerate() {
            let (ratio, status) = match evaluate(goal, measured) {
                Verdict::Met(value) => (ratio_text(goal, value), "met"),
                Verdict::NotMet(value) => (ratio_text(goal, value), "NOT MET"),
                Verdict::NotMeasured => (String::new(), "not measured"),
            };
            let (label, wall, rss) = match index {
                0 => (case.label(), wall.as_str(), rss.as_str()),
                _ => ("", "", ""),
            };
            table.push_str(&format!(
                "| {label} | {wall} | {rss} | {ratio} | {} | {status} |\n",
                goal_text(goal)
            ));
        }
    }
    table.push_str(&format!(
        "\nFILE: {} ({}); HUGE: {} ({}).\n",
        "the long rollout",
        format_bytes(measured.long_file_bytes),
        "one turn with a 50 MB command output",
        format_bytes(measured.huge_file_bytes)
    ));
    if let (Some(real), Some(startup), Some(ours)) = (
        measured.cases.get(&Case::RealResume),
        measured.cases.get(&Case::RealStartup),
        measured.cases.get(&Case::Resume),
    ) {
        let above = real.wall.saturating_sub(startup.wall);
        table.push_str(&format!(
            "The real resume takes {} above the real CLI's start-up, {:.2}× our resume.\n",
            format_wall(above),
            above.as_secs_f64() / ours.wall.as_secs_f64().max(1e-9)
        ));
    }
    if let Some(InputItems {
        ours,
        real: Some(real),
    }) = measured.resumed_input_items
    {
        table.push_str(&format!(
            "The resumed requests carried {ours} input items (ours) and {real} (the released CLI's).\n"
        ));
    }
    table
}
