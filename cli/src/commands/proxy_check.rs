//! `codex-context proxy --check`: each recorded request against the request this project
//! rebuilds for the same thread from the agent's rollout, compared as `compare` compares them
//! (A: what the agent sent, B: this project's rebuild).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::path::PathBuf;
use std::time::Duration;
use std::time::Instant;

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
#[derive(Debug)]
pub(super) struct Checker {
    source: RolloutSource,
    catalogs: ReleaseCatalogs,
    threads: BTreeMap<String, ThreadChecks>,
}

#[derive(Debug)]
struct ThreadChecks {
    dir: PathBuf,
    recorded: usize,
    judged: usize,
    /// When the newest request was recorded.
    last_recorded: Instant,
}

/// How long the rollout may lag behind a recorded request before the request is judged
/// without it (and is then a request only the agent sent).
const ROLLOUT_GRACE: Duration = Duration::from_secs(5);

impl Checker {
    pub(super) fn new(source: RolloutSource, catalogs: ReleaseCatalogs) -> Self {
        Self {
            source,
            catalogs,
            threads: BTreeMap::new(),
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
                last_recorded: Instant::now(),
            });
        if event.request.is_some() && event.thread_dir.join(request_file(event.number)).is_file() {
            thread.recorded += 1;
            thread.last_recorded = Instant::now();
        }
        let key = event.thread.clone();
        self.judge(&key)
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
        owed.iter().map(|key| self.judge(key)).collect()
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

    fn judge(&mut self, key: &str) -> String {
        let compared = self.compare(key);
        let Some(thread) = self.threads.get_mut(key) else {
            return String::new();
        };
        let mut lines = String::new();
        // A request is judged once the rollout holds it, or after the grace; a missing
        // rollout is said at once.
        let ready = match &compared {
            Ok((rebuilt, _)) if thread.last_recorded.elapsed() < ROLLOUT_GRACE => {
                thread.recorded.min(*rebuilt)
            }
            Ok(_) | Err(_) => thread.recorded,
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
                        [] => "equal".to_string(),
                        [first, ..] => format!(
                            "{} difference{}, first: {first}",
                            differences.len(),
                            if differences.len() == 1 { "" } else { "s" }
                        ),
                    }
                }
                Err(reason) => format!("not checked: {reason}"),
            };
            let _ = writeln!(lines, "check [{key} request {number}]: {verdict}");
        }
        thread.judged = thread.judged.max(ready);
        lines
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
