//! `environments`: the execution environments a thread's turns run in, as upstream's environment
//! selection names them (an id, a working directory, workspace roots). Unset, a thread has one
//! environment, `local`, in the configured `cwd` with the cwd as its workspace root. An empty list
//! is a thread without any environment: no working directory, no shell tools, no project
//! instructions. Paths of another platform (`C:\workspace` on Linux, or a `file:///C:/…` URI)
//! are kept as written and shown to the model verbatim; nothing on this host is read through
//! them.

use std::path::Path;
use std::path::PathBuf;

use serde::Deserialize;
use serde::Serialize;

/// Id of the environment a thread has when none is configured.
pub const LOCAL_ENVIRONMENT_ID: &str = "local";

/// One `[[environments]]` entry as written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnvironmentToml {
    pub id: String,
    /// Working directory; default the configured `cwd`.
    pub cwd: Option<String>,
    /// Workspace roots; default the environment's working directory.
    pub workspace_roots: Option<Vec<String>>,
    /// Shell name; default the configured `shell`.
    pub shell: Option<String>,
}

impl EnvironmentToml {
    /// Joins the relative paths of this host onto `base` (foreign paths stay as written).
    pub fn resolve_paths(&mut self, base: &Path) {
        for path in self
            .cwd
            .iter_mut()
            .chain(self.workspace_roots.iter_mut().flatten())
        {
            if let EnvironmentPath::Native(native) = EnvironmentPath::parse(path)
                && native.is_relative()
            {
                *path = base.join(native).display().to_string();
            }
        }
    }
}

/// A path of an environment: one this host can use, or one of another platform.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EnvironmentPath {
    Native(PathBuf),
    /// A native path string of another platform (`C:\workspace` on Linux), shown verbatim.
    Foreign(String),
}

impl EnvironmentPath {
    /// Reads a path as written: a `file://` URI becomes the native path it names (a Windows
    /// drive path `file:///C:/w` becomes `C:\w`); a Windows drive or UNC path on another host,
    /// or a `/`-rooted path on Windows, is foreign.
    pub fn parse(text: &str) -> Self {
        let text = match text.strip_prefix("file://") {
            Some(uri_path) => uri_native_string(uri_path),
            None => text.to_string(),
        };
        if is_foreign_absolute(&text) {
            EnvironmentPath::Foreign(text)
        } else {
            EnvironmentPath::Native(PathBuf::from(text))
        }
    }

    /// The path as the model sees it.
    pub fn display(&self) -> String {
        match self {
            EnvironmentPath::Native(path) => path.display().to_string(),
            EnvironmentPath::Foreign(text) => text.clone(),
        }
    }

    /// The path on this host, when it is one.
    pub fn native(&self) -> Option<&Path> {
        match self {
            EnvironmentPath::Native(path) => Some(path),
            EnvironmentPath::Foreign(_) => None,
        }
    }
}

/// `/C:/workspace` (a URI's path) as `C:\workspace`; any other path as it is.
fn uri_native_string(uri_path: &str) -> String {
    let bytes = uri_path.as_bytes();
    let drive = bytes.len() >= 3 && bytes[0] == b'/' && bytes[1].is_ascii_alphabetic();
    if drive && bytes[2] == b':' {
        uri_path[1..].replace('/', "\\")
    } else {
        uri_path.to_string()
    }
}

/// Whether `text` is an absolute path of the other platform family.
fn is_foreign_absolute(text: &str) -> bool {
    if cfg!(windows) {
        text.starts_with('/')
    } else {
        let bytes = text.as_bytes();
        let drive = bytes.len() >= 3
            && bytes[0].is_ascii_alphabetic()
            && bytes[1] == b':'
            && matches!(bytes[2], b'\\' | b'/');
        drive || text.starts_with("\\\\")
    }
}

/// One selected execution environment, defaults applied. The first one is primary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectedEnvironment {
    pub id: String,
    pub cwd: EnvironmentPath,
    pub workspace_roots: Vec<EnvironmentPath>,
    pub shell: String,
}

impl SelectedEnvironment {
    /// The environment a thread has when none is configured.
    pub fn local(cwd: &Path, shell: &str) -> Self {
        Self {
            id: LOCAL_ENVIRONMENT_ID.to_string(),
            cwd: EnvironmentPath::Native(cwd.to_path_buf()),
            workspace_roots: vec![EnvironmentPath::Native(cwd.to_path_buf())],
            shell: shell.to_string(),
        }
    }

    /// The configured entries with defaults applied; `Err` names what is wrong (an empty or
    /// repeated id).
    pub fn resolve(
        entries: Option<Vec<EnvironmentToml>>,
        cwd: &Path,
        shell: &str,
    ) -> Result<Vec<Self>, String> {
        let Some(entries) = entries else {
            return Ok(vec![Self::local(cwd, shell)]);
        };
        let mut selected: Vec<Self> = Vec::with_capacity(entries.len());
        for entry in entries {
            if entry.id.is_empty() {
                return Err("an environment id is empty".to_string());
            }
            if selected.iter().any(|other| other.id == entry.id) {
                return Err(format!("environment id `{}` is selected twice", entry.id));
            }
            let cwd = match &entry.cwd {
                Some(text) => EnvironmentPath::parse(text),
                None => EnvironmentPath::Native(cwd.to_path_buf()),
            };
            let workspace_roots = match &entry.workspace_roots {
                Some(roots) => roots
                    .iter()
                    .map(|root| EnvironmentPath::parse(root))
                    .collect(),
                None => vec![cwd.clone()],
            };
            selected.push(Self {
                id: entry.id,
                cwd,
                workspace_roots,
                shell: entry.shell.unwrap_or_else(|| shell.to_string()),
            });
        }
        Ok(selected)
    }
}

/// One `[[turn_input_contributors]]` entry: an extension that adds input after the user's
/// message on every turn (upstream's turn-input contributors). It receives the turn's
/// environments; its `text` is rendered once per environment, `{{ environment_id }}`,
/// `{{ cwd }}` and `{{ primary }}` standing for each one's values. An empty text adds nothing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnInputContributor {
    /// ASCII letters, digits, `_`, `-` and `.`; unique among the contributors.
    pub name: String,
    #[serde(default)]
    pub text: String,
}

impl TurnInputContributor {
    /// Checks the names; `Err` names what is wrong.
    pub fn check_all(contributors: &[Self]) -> Result<(), String> {
        for (position, contributor) in contributors.iter().enumerate() {
            let name = &contributor.name;
            let valid = !name.is_empty()
                && name
                    .bytes()
                    .all(|byte| byte.is_ascii_alphanumeric() || b"_-.".contains(&byte));
            if !valid {
                return Err(format!(
                    "contributor name `{name}` must be ASCII letters, digits, `_`, `-` or `.`"
                ));
            }
            if contributors[..position]
                .iter()
                .any(|other| &other.name == name)
            {
                return Err(format!("contributor name `{name}` is used twice"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "environments_tests.rs"]
mod tests;
