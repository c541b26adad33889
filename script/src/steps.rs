//! What upstream's tests do between turns besides talking to the thread: `edit` writes or
//! deletes files under the run's cwd or CODEX_HOME, `rewrite_rollout` rewrites the lines the
//! thread wrote so far (a legacy rollout without a world-state section, a compacted checkpoint
//! replaced). Both run on the run's temporary copy of the scenario ([`Scratch`](super::Scratch))
//! and on the rollout the run writes, never on a user's files.
//!
//! ```json
//! "edit": [{"codex_home": "AGENTS.override.md", "write": "new text"},
//!          {"cwd": "AGENTS.md", "delete": true}]
//! "rewrite_rollout": [{"drop_world_state_section": "agents_md"},
//!                     {"compacted": 0, "set": {"replacement_history_metadata": [...]}}]
//! ```

use std::path::Component;
use std::path::Path;
use std::path::PathBuf;

use codex_protocol::RolloutLine;
use serde_json::Map;
use serde_json::Value;

use super::ScriptError;
use super::format::check_keys;

/// Keys of one `edit` entry.
pub const EDIT_KEYS: &[&str] = &["cwd", "codex_home", "write", "delete"];
/// Keys of one `rewrite_rollout` entry.
pub const REWRITE_KEYS: &[&str] = &["drop_world_state_section", "compacted", "set"];

/// One file changed between turns (`edit`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEdit {
    /// The folder `path` is relative to.
    pub root: EditRoot,
    /// Relative, without `..`: it never leaves `root`.
    pub path: PathBuf,
    pub change: FileChange,
    /// Where the entry is in the script, for messages.
    pub location: String,
}

/// The folder an edit's path is relative to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditRoot {
    /// The working directory of the turn that follows.
    Cwd,
    /// The run's CODEX_HOME.
    CodexHome,
}

/// What an edit does to its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileChange {
    /// `write`: the file holds this text afterwards (folders are created).
    Write(String),
    /// `delete: true`: the file is gone afterwards (it must exist).
    Delete,
}

/// One rewrite of the lines a thread wrote so far (`rewrite_rollout`).
#[derive(Debug, Clone, PartialEq)]
pub enum RolloutRewrite {
    /// `drop_world_state_section`: the section is removed from every `world_state` line, as a
    /// rollout written before the section existed would lack it. At least one line must hold it.
    DropWorldStateSection(String),
    /// `compacted` N with `set`: these payload fields of the thread's N-th (0-based)
    /// `compacted` line are replaced (a checkpoint rewritten, e.g. with harness metadata).
    ReplaceCompacted {
        nth: usize,
        fields: Map<String, Value>,
    },
}

/// `edit`: one entry or an array of them.
pub(crate) fn parse_edits(value: &Value, location: &str) -> Result<Vec<FileEdit>, ScriptError> {
    entries(value, location, EDIT_KEYS)?
        .into_iter()
        .map(|(entry, origin)| parse_edit(entry, &origin))
        .collect()
}

/// `rewrite_rollout`: one entry or an array of them.
pub(crate) fn parse_rewrites(
    value: &Value,
    location: &str,
) -> Result<Vec<RolloutRewrite>, ScriptError> {
    entries(value, location, REWRITE_KEYS)?
        .into_iter()
        .map(|(entry, origin)| parse_rewrite(entry, &origin))
        .collect()
}

/// One entry object and its place in the script.
type Entry<'a> = (&'a Map<String, Value>, String);

/// The entry objects of `value` (one object or an array of them), each with its place, their
/// keys checked against `keys`.
fn entries<'a>(
    value: &'a Value,
    location: &str,
    keys: &[&str],
) -> Result<Vec<Entry<'a>>, ScriptError> {
    let objects: Vec<(&Value, String)> = match value {
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(index, item)| (item, format!("{location}[{index}]")))
            .collect(),
        other => vec![(other, location.to_string())],
    };
    objects
        .into_iter()
        .map(|(item, origin)| match item {
            Value::Object(object) => {
                check_keys(object, keys, &origin)?;
                Ok((object, origin))
            }
            _ => Err(ScriptError::invalid(
                origin,
                "must be an object or an array of objects",
            )),
        })
        .collect()
}

fn parse_edit(entry: &Map<String, Value>, origin: &str) -> Result<FileEdit, ScriptError> {
    let (root, key) = match (entry.get("cwd"), entry.get("codex_home")) {
        (Some(_), None) => (EditRoot::Cwd, "cwd"),
        (None, Some(_)) => (EditRoot::CodexHome, "codex_home"),
        _ => {
            return Err(ScriptError::invalid(
                origin,
                "names its file with exactly one of \"cwd\" or \"codex_home\"",
            ));
        }
    };
    let key_origin = format!("{origin}.{key}");
    let Some(Value::String(text)) = entry.get(key) else {
        return Err(ScriptError::invalid(key_origin, "must be a relative path"));
    };
    let path = PathBuf::from(text);
    let inside = !text.is_empty()
        && path
            .components()
            .all(|part| matches!(part, Component::Normal(_) | Component::CurDir));
    if !inside {
        return Err(ScriptError::invalid(
            key_origin,
            format!("\"{text}\" leaves the folder: give a relative path without \"..\""),
        ));
    }
    let change = match (entry.get("write"), entry.get("delete")) {
        (Some(Value::String(text)), None) => FileChange::Write(text.clone()),
        (None, Some(Value::Bool(true))) => FileChange::Delete,
        _ => {
            return Err(ScriptError::invalid(
                origin,
                "needs exactly one of \"write\": \"text\" or \"delete\": true",
            ));
        }
    };
    Ok(FileEdit {
        root,
        path,
        change,
        location: origin.to_string(),
    })
}

fn parse_rewrite(entry: &Map<String, Value>, origin: &str) -> Result<RolloutRewrite, ScriptError> {
    match (
        entry.get("drop_world_state_section"),
        entry.get("compacted"),
        entry.get("set"),
    ) {
        (Some(Value::String(section)), None, None) => {
            Ok(RolloutRewrite::DropWorldStateSection(section.clone()))
        }
        (None, Some(nth), Some(Value::Object(fields))) => {
            let nth = nth
                .as_u64()
                .and_then(|nth| usize::try_from(nth).ok())
                .ok_or_else(|| {
                    ScriptError::invalid(
                        format!("{origin}.compacted"),
                        "must be the 0-based number of the thread's compacted line",
                    )
                })?;
            Ok(RolloutRewrite::ReplaceCompacted {
                nth,
                fields: fields.clone(),
            })
        }
        _ => Err(ScriptError::invalid(
            origin,
            "must be {\"drop_world_state_section\": \"id\"} or {\"compacted\": N, \"set\": {FIELDS}}",
        )),
    }
}

impl FileEdit {
    /// Applies the edit under `root` (the folder [`FileEdit::root`] names), which must lie in
    /// `confine` (the run's temporary copy): a path that reaches outside it through a symbolic
    /// link is refused before anything changes.
    pub(crate) fn apply(&self, root: &Path, confine: &Path) -> Result<(), ScriptError> {
        let target = root.join(&self.path);
        let io_error = |source: std::io::Error| ScriptError::Edit {
            location: self.location.clone(),
            path: target.clone(),
            source,
        };
        let confine = confine.canonicalize().map_err(io_error)?;
        let existing = deepest_existing(&target).canonicalize().map_err(io_error)?;
        if !existing.starts_with(&confine) {
            return Err(ScriptError::invalid(
                &self.location,
                format!(
                    "{} is outside the run's copy of the scenario folder",
                    target.display()
                ),
            ));
        }
        match &self.change {
            FileChange::Write(text) => {
                if let Some(parent) = target.parent() {
                    std::fs::create_dir_all(parent).map_err(io_error)?;
                }
                std::fs::write(&target, text).map_err(io_error)
            }
            FileChange::Delete => std::fs::remove_file(&target).map_err(io_error),
        }
    }
}

/// `path` or its nearest ancestor that exists (a symbolic link counts as its target).
fn deepest_existing(path: &Path) -> &Path {
    let mut current = path;
    while !current.exists() {
        match current.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => current = parent,
            Some(_) | None => break,
        }
    }
    current
}

impl RolloutRewrite {
    /// Rewrites `lines` (a thread's, in order); `location` names the step in messages.
    pub(crate) fn apply(
        &self,
        lines: &mut [RolloutLine],
        location: &str,
    ) -> Result<(), ScriptError> {
        let invalid = |message: String| ScriptError::invalid(location, message);
        match self {
            Self::DropWorldStateSection(section) => {
                let mut dropped = false;
                for line in lines.iter_mut() {
                    let mut value = line_value(line, location)?;
                    if value.get("type").and_then(Value::as_str) != Some("world_state") {
                        continue;
                    }
                    let removed = value
                        .pointer_mut("/payload/state")
                        .and_then(Value::as_object_mut)
                        .and_then(|state| state.remove(section));
                    if removed.is_some() {
                        dropped = true;
                        *line = from_value(value, location)?;
                    }
                }
                match dropped {
                    true => Ok(()),
                    false => Err(invalid(format!(
                        "no world_state line holds the section \"{section}\""
                    ))),
                }
            }
            Self::ReplaceCompacted { nth, fields } => {
                let mut seen = 0;
                for line in lines.iter_mut() {
                    let mut value = line_value(line, location)?;
                    if value.get("type").and_then(Value::as_str) != Some("compacted") {
                        continue;
                    }
                    if seen < *nth {
                        seen += 1;
                        continue;
                    }
                    let Some(payload) = value.get_mut("payload").and_then(Value::as_object_mut)
                    else {
                        return Err(invalid("the compacted line has no payload".to_string()));
                    };
                    payload.extend(fields.clone());
                    *line = from_value(value, location)?;
                    return Ok(());
                }
                Err(invalid(format!(
                    "the thread has {seen} compacted lines, not {}",
                    nth + 1
                )))
            }
        }
    }
}

fn line_value(line: &RolloutLine, location: &str) -> Result<Value, ScriptError> {
    serde_json::to_value(line).map_err(|error| ScriptError::invalid(location, error.to_string()))
}

fn from_value(value: Value, location: &str) -> Result<RolloutLine, ScriptError> {
    serde_json::from_value(value).map_err(|error| {
        ScriptError::invalid(location, format!("the rewritten line is invalid: {error}"))
    })
}

#[cfg(test)]
#[path = "steps_tests.rs"]
mod tests;
