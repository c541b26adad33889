//! `codex-context proxy --check`: each recorded request against the request this project
//! rebuilds for the same thread from the agent's rollout, compared as `compare` compares them
//! (A: what the agent sent, B: this project's rebuild).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::path::PathBuf;

use codex_inspect::CompareReport;
use codex_inspect::InspectOptions;
use codex_inspect::ProseMode;
use codex_inspect::compare_inputs;
use codex_inspect::find_rollouts;
use codex_inspect::load_compare_input;
use codex_models_manager::ReleaseCatalogs;
use codex_proxy::ProxyEvent;

/// Where the agent's rollouts are found.
#[derive(Debug, Clone)]
pub(super) enum RolloutSource {
    /// `--rollout FILE`: the rollout of every recorded thread.
    File(PathBuf),
    /// The rollout under `CODEX_HOME/sessions` whose name ends with `-THREAD.jsonl`.
    CodexHome(PathBuf),
}

/// The checks of one proxy run, per thread: how many of its Responses requests were recorded
/// and how many have had their verdict.
///
/// A request's verdict waits for the evidence, never for a clock: it is given once the
/// rollout holds the request (the agent writes a request's lines around its answer), and
/// when the proxy stops for every request still owed, against the rollout as it is then (a
/// request it never held is one only the agent sent).
#[derive(Debug)]
pub(super) struct Checker {
    source: RolloutSource,
    catalogs: ReleaseCatalogs,
    threads: BTreeMap<String, ThreadChecks>,
    tally: Tally,
    /// Notes for standard error, taken by [`Checker::take_notes`].
    notes: Vec<String>,
}

#[derive(Debug)]
struct ThreadChecks {
    dir: PathBuf,
    recorded: usize,
    judged: usize,
    /// Whether the user was told the thread's rollout cannot be read yet.
    waiting_noted: bool,
}

/// The verdicts given so far.
#[derive(Debug, Default)]
struct Tally {
    equal: usize,
    differing: usize,
    differences: usize,
    unchecked: usize,
}

/// Which owed requests a call judges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Judging {
    /// Those the rollout holds.
    Held,
    /// All of them: the proxy has stopped, no request and no rollout line is coming.
    Final,
}

impl Checker {
    pub(super) fn new(source: RolloutSource, catalogs: ReleaseCatalogs) -> Self {
        Self {
            source,
            catalogs,
            threads: BTreeMap::new(),
            tally: Tally::default(),
            notes: Vec::new(),
        }
    }

    /// Counts `event`'s request and returns the verdict lines of every request of its thread
    /// the rollout now holds.
    pub(super) fn exchange_ended(&mut self, event: &ProxyEvent) -> String {
        let thread = self
            .threads
            .entry(event.thread.clone())
            .or_insert_with(|| ThreadChecks {
                dir: event.thread_dir.clone(),
                recorded: 0,
                judged: 0,
                waiting_noted: false,
            });
        if event.request.is_some() && event.thread_dir.join(request_file(event.number)).is_file() {
            thread.recorded += 1;
        }
        let key = event.thread.clone();
        self.judge(&key, Judging::Held)
    }

    /// The verdict lines of every request still owed, judged against the rollouts as they are
    /// now, and the summary line of the whole run; called once the proxy has stopped.
    pub(super) fn finish(&mut self) -> String {
        let keys: Vec<String> = self.threads.keys().cloned().collect();
        let mut lines: String = keys
            .iter()
            .map(|key| self.judge(key, Judging::Final))
            .collect();
        let Tally {
            equal,
            differing,
            differences,
            unchecked,
        } = self.tally;
        let _ = writeln!(
            lines,
            "check: {} in {}: {equal} equal, {differing} with differences ({}), {unchecked} not checked",
            counted(equal + differing + unchecked, "request"),
            counted(self.threads.len(), "thread"),
            counted(differences, "difference"),
        );
        lines
    }

    /// What the user should know meanwhile (a rollout that cannot be read yet), once each.
    pub(super) fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }

    /// Per thread the full comparison as it stands (what the rollout does not hold yet is
    /// reported as only in A), for the report file.
    pub(super) fn report(&mut self) -> String {
        let keys: Vec<String> = self.threads.keys().cloned().collect();
        let mut reports = String::new();
        for key in keys {
            let _ = writeln!(
                reports,
                "check of thread {key} (A: as recorded, B: this project's rebuild from the rollout):"
            );
            match self.compare(&key) {
                Ok((_, report)) => reports.push_str(&report.render_text()),
                Err(reason) => {
                    let _ = writeln!(reports, "{reason}");
                }
            }
        }
        reports
    }

    /// The verdict lines of requests whose turn the rollout has caught up with since the last
    /// call (the agent writes a request's lines after its answer); empty when none is owed.
    pub(super) fn poll(&mut self) -> String {
        let owed: Vec<String> = self
            .threads
            .iter()
            .filter(|(_, thread)| thread.judged < thread.recorded)
            .map(|(key, _)| key.clone())
            .collect();
        owed.iter()
            .map(|key| self.judge(key, Judging::Held))
            .collect()
    }

    /// The thread's recorded requests against those rebuilt from its rollout, with how many
    /// the rollout holds.
    fn compare(&self, key: &str) -> Result<(usize, CompareReport), String> {
        let thread = self
            .threads
            .get(key)
            .ok_or_else(|| format!("no request of thread {key}"))?;
        let options = InspectOptions::by_release(&self.catalogs);
        let rollout = rollout_of(&self.source, key)?;
        let recorded = load_compare_input(&thread.dir, &options)
            .map_err(|error| format!("{}: {error}", thread.dir.display()))?;
        let rebuilt = load_compare_input(&rollout, &options)
            .map_err(|error| format!("{}: {error}", rollout.display()))?;
        Ok((
            rebuilt.requests.len(),
            compare_inputs(&recorded, &rebuilt, ProseMode::Ignore),
        ))
    }

    fn judge(&mut self, key: &str, judging: Judging) -> String {
        let compared = self.compare(key);
        let Some(thread) = self.threads.get_mut(key) else {
            return String::new();
        };
        let mut lines = String::new();
        let ready = match (&compared, judging) {
            (_, Judging::Final) => thread.recorded,
            (Ok((rebuilt, _)), Judging::Held) => thread.recorded.min(*rebuilt),
            // The agent may write its rollout only after its first answer.
            (Err(reason), Judging::Held) => {
                if !thread.waiting_noted && thread.judged < thread.recorded {
                    thread.waiting_noted = true;
                    self.notes.push(format!(
                        "check of thread {key} waits for its rollout: {reason}"
                    ));
                }
                thread.judged
            }
        };
        for number in thread.judged + 1..=ready {
            let verdict = match &compared {
                Ok((_, report)) => {
                    let differences: Vec<String> = report
                        .differences
                        .iter()
                        .filter(|difference| difference.request == Some(number))
                        .map(ToString::to_string)
                        .collect();
                    match differences.as_slice() {
                        [] => {
                            self.tally.equal += 1;
                            "equal".to_string()
                        }
                        [first, ..] => {
                            self.tally.differing += 1;
                            self.tally.differences += differences.len();
                            format!(
                                "{} difference{}, first: {first}",
                                differences.len(),
                                if differences.len() == 1 { "" } else { "s" }
                            )
                        }
                    }
                }
                Err(reason) => {
                    self.tally.unchecked += 1;
                    format!("not checked: {reason}")
                }
            };
            let _ = writeln!(lines, "check [{key} request {number}]: {verdict}");
        }
        thread.judged = thread.judged.max(ready);
        lines
    }
}

/// `count` and `noun`, plural unless one.
fn counted(count: usize, noun: &str) -> String {
    match count {
        1 => format!("1 {noun}"),
        _ => format!("{count} {noun}s"),
    }
}

fn request_file(number: u32) -> String {
    format!("request-{number:04}.json")
}

/// The agent's rollout of thread `key`.
fn rollout_of(source: &RolloutSource, key: &str) -> Result<PathBuf, String> {
    match source {
        RolloutSource::File(path) => Ok(path.clone()),
        RolloutSource::CodexHome(home) => {
            let sessions = home.join("sessions");
            let suffix = format!("-{key}.jsonl");
            find_rollouts(&sessions)
                .ok()
                .and_then(|listing| {
                    listing
                        .files
                        .into_iter()
                        .map(|file| file.path)
                        .find(|path| path_ends_with(path, &suffix))
                })
                .ok_or_else(|| {
                    format!(
                        "no rollout of thread {key} under {} (rollout-…{suffix})",
                        sessions.display()
                    )
                })
        }
    }
}

fn path_ends_with(path: &Path, suffix: &str) -> bool {
    path.file_name()
        .and_then(|name| name.to_str())
        .is_some_and(|name| name.ends_with(suffix))
}
