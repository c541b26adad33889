//! [`Scratch`]: the temporary copy of a scenario folder that a script with `edit` steps runs
//! on, so its edits never reach the checked-in files (or a user's).

use std::path::Path;
use std::path::PathBuf;

use super::CodexHome;
use super::Script;
use super::ScriptError;
use super::SessionContinuity;
use super::SessionEnvironment;
use super::TurnScript;

/// A script's scenario folder (`<stem>/` beside the script, the convention of
/// `examples/upstream/` and `examples/sessions/`) copied to a temporary folder, with the script
/// and the environment pointing into the copy: every setting's path under the folder and a
/// CODEX_HOME inside it. The copy is removed when this is dropped.
///
/// The copy's place is the first free `codex-script-<stem>-<n>` in the temporary folder, so
/// that runs one after the other name the same paths in their requests (the same bytes), while
/// runs at the same time get folders of their own.
#[derive(Debug)]
pub struct Scratch {
    /// Holds the copy; removed on drop.
    _dir: ScratchDir,
    /// The copy of the scenario folder: edits stay inside it.
    folder: PathBuf,
    pub script: Script,
    pub env: SessionEnvironment,
}

impl Scratch {
    /// The copy a run of `script` works on, or `None` when no step edits a file.
    pub fn prepare(
        script: &Script,
        env: &SessionEnvironment,
    ) -> Result<Option<Scratch>, ScriptError> {
        if script.turns.iter().all(|turn| turn.edits.is_empty()) {
            return Ok(None);
        }
        let stem = Path::new(&script.name)
            .file_stem()
            .map(PathBuf::from)
            .unwrap_or_default();
        let original = script.base_dir.join(&stem);
        if stem.as_os_str().is_empty() || !original.is_dir() {
            return Err(ScriptError::invalid(
                &script.name,
                format!(
                    "a script with \"edit\" steps runs on a copy of its scenario folder {}, which is not a folder",
                    original.display()
                ),
            ));
        }
        let scratch_error = |source| ScriptError::Scratch {
            path: original.clone(),
            source,
        };
        let dir = ScratchDir::create(&stem).map_err(scratch_error)?;
        let folder = dir.path.join(&stem);
        copy_tree(&original, &folder).map_err(scratch_error)?;
        let moved = |layer: &super::SettingsLayer| layer.relocated(&original, &folder);
        let relocated = Script {
            session: moved(&script.session),
            turns: script
                .turns
                .iter()
                .map(|turn| TurnScript {
                    set: turn.set.iter().map(moved).collect(),
                    continuity: match &turn.continuity {
                        SessionContinuity::Continue => SessionContinuity::Continue,
                        SessionContinuity::ResumeFromRollout { restart } => {
                            SessionContinuity::ResumeFromRollout {
                                restart: moved(restart),
                            }
                        }
                    },
                    ..turn.clone()
                })
                .collect(),
            ..script.clone()
        };
        let codex_home = match &env.codex_home {
            CodexHome::Isolated => CodexHome::Isolated,
            CodexHome::Dir(home) => {
                let absolute = std::path::absolute(home).map_err(scratch_error)?;
                CodexHome::Dir(relocate_path(&absolute, &original, &folder))
            }
        };
        Ok(Some(Scratch {
            script: relocated,
            env: SessionEnvironment {
                codex_home,
                ..env.clone()
            },
            folder,
            _dir: dir,
        }))
    }

    /// The copy of the scenario folder.
    pub fn folder(&self) -> &Path {
        &self.folder
    }
}

/// A folder this run created in the temporary folder, removed with everything in it on drop.
#[derive(Debug)]
struct ScratchDir {
    path: PathBuf,
}

impl ScratchDir {
    /// Creates the first `codex-script-<stem>-<n>` that does not exist yet (never an existing
    /// folder or link: creating fails on those).
    fn create(stem: &Path) -> std::io::Result<Self> {
        let temp = std::env::temp_dir();
        let stem = stem.to_string_lossy();
        for n in 0..1000 {
            let path = temp.join(format!("codex-script-{stem}-{n}"));
            match std::fs::create_dir(&path) {
                Ok(()) => return Ok(Self { path }),
                Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(error) => return Err(error),
            }
        }
        Err(std::io::Error::other(format!(
            "{} holds 1000 folders codex-script-{stem}-N already",
            temp.display()
        )))
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        if let Err(error) = std::fs::remove_dir_all(&self.path) {
            tracing::warn!("cannot remove {}: {error}", self.path.display());
        }
    }
}

/// Copies the folder `from` to `to` (which must not exist): folders, regular files and
/// symbolic links (as links, their targets unchanged).
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    let mut entries = std::fs::read_dir(from)?.collect::<Result<Vec<_>, _>>()?;
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let source = entry.path();
        let target = to.join(entry.file_name());
        let kind = entry.file_type()?;
        if kind.is_symlink() {
            copy_link(&source, &target)?;
        } else if kind.is_dir() {
            copy_tree(&source, &target)?;
        } else {
            std::fs::copy(&source, &target)?;
        }
    }
    Ok(())
}

#[cfg(unix)]
fn copy_link(source: &Path, target: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(std::fs::read_link(source)?, target)
}

#[cfg(not(unix))]
fn copy_link(source: &Path, _target: &Path) -> std::io::Result<()> {
    Err(std::io::Error::other(format!(
        "{} is a symbolic link, which is copied on Unix only",
        source.display()
    )))
}

/// `path` moved under `to` when it lies under `from`, else unchanged.
fn relocate_path(path: &Path, from: &Path, to: &Path) -> PathBuf {
    match path.strip_prefix(from) {
        Ok(rest) => to.join(rest),
        Err(_) => path.to_path_buf(),
    }
}

/// `value` with every string (and table key) that is an absolute path under `from` moved under
/// `to`.
pub(crate) fn relocate_value(value: &toml::Value, from: &Path, to: &Path) -> toml::Value {
    match value {
        toml::Value::String(text) => toml::Value::String(relocate_text(text, from, to)),
        toml::Value::Array(items) => toml::Value::Array(
            items
                .iter()
                .map(|item| relocate_value(item, from, to))
                .collect(),
        ),
        toml::Value::Table(table) => toml::Value::Table(
            table
                .iter()
                .map(|(key, item)| (relocate_text(key, from, to), relocate_value(item, from, to)))
                .collect(),
        ),
        toml::Value::Integer(_)
        | toml::Value::Float(_)
        | toml::Value::Boolean(_)
        | toml::Value::Datetime(_) => value.clone(),
    }
}

fn relocate_text(text: &str, from: &Path, to: &Path) -> String {
    let path = Path::new(text);
    match path.is_absolute() && path.starts_with(from) {
        true => relocate_path(path, from, to).display().to_string(),
        false => text.to_string(),
    }
}
