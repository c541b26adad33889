//! Inputs and outputs of AGENTS.md discovery, and how the loaded text is joined.

use std::fmt;
use std::io;
use std::path::Path;
use std::path::PathBuf;

use super::AGENTS_MD_SEPARATOR;
use super::DEFAULT_PROJECT_DOC_MAX_BYTES;
use super::DEFAULT_PROJECT_ROOT_MARKER;
use crate::projects::ProjectDocsPolicy;

/// Settings that shape the project part of discovery (config keys
/// `project_doc_max_bytes`, `project_doc_fallback_filenames`,
/// `project_root_markers`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProjectDocOptions {
    /// Shared byte budget for all project docs of one environment; 0 disables them.
    pub max_bytes: usize,
    /// Extra names tried after `AGENTS.override.md` and `AGENTS.md`.
    pub fallback_filenames: Vec<String>,
    /// Entries whose presence marks the project root; empty disables the upward walk.
    pub project_root_markers: Vec<String>,
    /// Paths the permission profile forbids reading: a doc at or under one of them fails the
    /// environment's discovery ([`AgentsMdError::ReadDenied`]) instead of being read.
    pub denied_reads: Vec<PathBuf>,
}

impl Default for ProjectDocOptions {
    fn default() -> Self {
        Self {
            max_bytes: DEFAULT_PROJECT_DOC_MAX_BYTES,
            fallback_filenames: Vec::new(),
            project_root_markers: vec![DEFAULT_PROJECT_ROOT_MARKER.to_string()],
            denied_reads: Vec::new(),
        }
    }
}

/// Whether an environment is the one the session's cwd belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnvironmentRole {
    Primary,
    Secondary,
}

/// One working directory to discover project docs for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentsMdEnvironment {
    /// Stable id used to label this environment's docs when several contribute.
    pub id: String,
    /// Absolute working directory, used as given (a symlinked cwd keeps its logical parents).
    pub cwd: PathBuf,
    pub role: EnvironmentRole,
}

impl AgentsMdEnvironment {
    /// The single local environment of an ordinary session.
    pub fn primary(cwd: impl Into<PathBuf>) -> Self {
        Self {
            id: "local".to_string(),
            cwd: cwd.into(),
            role: EnvironmentRole::Primary,
        }
    }
}

/// Everything discovery needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentsMdRequest {
    /// Where the global `AGENTS.override.md` / `AGENTS.md` live; `None` skips them.
    pub codex_home: Option<PathBuf>,
    /// Environments in the order their docs are emitted.
    pub environments: Vec<AgentsMdEnvironment>,
    pub options: ProjectDocOptions,
    /// Whether the environments' project docs are read at all (not for an untrusted project).
    pub project_docs: ProjectDocsPolicy,
    /// Text appended after every doc (the hierarchical-agents guidance when that
    /// feature is on). Blank text is ignored. Never reported as a source.
    pub internal_guidance: Option<String>,
}

impl AgentsMdRequest {
    /// One primary environment at `cwd`, default options, no internal guidance.
    pub fn for_cwd(codex_home: Option<PathBuf>, cwd: impl Into<PathBuf>) -> Self {
        Self {
            codex_home,
            environments: vec![AgentsMdEnvironment::primary(cwd)],
            options: ProjectDocOptions::default(),
            project_docs: ProjectDocsPolicy::Discover,
            internal_guidance: None,
        }
    }
}

/// The global (user-level) instructions from `$CODEX_HOME`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalInstructions {
    pub path: PathBuf,
    /// Trimmed, lossily decoded contents; never blank.
    pub text: String,
}

/// One project doc that contributed text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProjectDoc {
    pub path: PathBuf,
    /// Lossily decoded kept bytes, verbatim (not trimmed); never blank.
    pub text: String,
    /// Bytes of the file that were kept (and charged to the budget).
    pub bytes_used: usize,
    /// Bytes cut off because the budget ran out; 0 when the file fit.
    pub truncated_bytes: usize,
    pub environment_id: String,
    /// The environment's cwd (not the doc's directory).
    pub environment_cwd: PathBuf,
    pub environment_role: EnvironmentRole,
}

/// Which kind of instructions file a warning is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InstructionScope {
    Global,
    Project,
}

/// Something the user should know about; discovery went on regardless.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentsMdWarning {
    /// Invalid bytes were replaced with U+FFFD.
    InvalidUtf8 {
        scope: InstructionScope,
        path: PathBuf,
        detail: String,
    },
    /// The byte budget cut the file short.
    Truncated {
        path: PathBuf,
        kept_bytes: usize,
        dropped_bytes: usize,
    },
    /// A global candidate existed but could not be inspected or read, or is not a regular file.
    GlobalUnreadable { path: PathBuf, error: String },
    /// A project doc candidate could not be inspected or read (a symlink loop, no permission)
    /// or is not a regular file (a named pipe): it is left out, the other directories' docs
    /// are kept. `error` names the path.
    ProjectDocSkipped { path: PathBuf, error: String },
    /// Project discovery for one environment failed; its docs are left out.
    ProjectDiscoveryFailed {
        environment_id: String,
        error: String,
    },
}

impl fmt::Display for AgentsMdWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidUtf8 {
                scope,
                path,
                detail,
            } => write!(
                f,
                "{} AGENTS.md instructions from `{}` contain invalid UTF-8: {detail}. Invalid byte sequences were replaced.",
                match scope {
                    InstructionScope::Global => "Global",
                    InstructionScope::Project => "Project",
                },
                path.display()
            ),
            Self::Truncated {
                path,
                kept_bytes,
                dropped_bytes,
            } => write!(
                f,
                "Project doc `{}` exceeds the remaining project_doc_max_bytes budget: kept {kept_bytes} bytes, dropped {dropped_bytes} bytes.",
                path.display()
            ),
            Self::GlobalUnreadable { path, error } => write!(
                f,
                "Failed to read global AGENTS.md instructions from `{}`: {error}",
                path.display()
            ),
            Self::ProjectDocSkipped { error, .. } => write!(f, "Project doc skipped: {error}."),
            Self::ProjectDiscoveryFailed {
                environment_id,
                error,
            } => write!(
                f,
                "Project AGENTS.md docs for environment `{environment_id}` were skipped: {error}"
            ),
        }
    }
}

/// Why project discovery could not complete.
#[derive(Debug, thiserror::Error)]
pub enum AgentsMdError {
    #[error("cannot inspect `{}`: {source}", path.display())]
    Metadata { path: PathBuf, source: io::Error },
    #[error("cannot read `{}`: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    /// A named pipe, socket or device: never opened, since opening it may block.
    #[error("`{}` is not a regular file", .0.display())]
    NotRegularFile(PathBuf),
    #[error("working directory `{}` is not absolute", .0.display())]
    RelativeCwd(PathBuf),
    #[error("a filesystem probe task failed: {0}")]
    ProbeTask(String),
    #[error("cannot run AGENTS.md discovery: {0}")]
    Runtime(String),
    /// The permission profile forbids reading a project doc the environment has.
    #[error(
        "failed to load AGENTS.md instructions for environment `{environment_id}`: reading `{}` is denied by the permission profile",
        path.display()
    )]
    ReadDenied {
        environment_id: String,
        path: PathBuf,
    },
}

impl AgentsMdError {
    /// The underlying I/O error kind, when the failure came from the filesystem.
    pub fn io_kind(&self) -> Option<io::ErrorKind> {
        match self {
            Self::Metadata { source, .. } | Self::Read { source, .. } => Some(source.kind()),
            Self::NotRegularFile(_)
            | Self::RelativeCwd(_)
            | Self::ProbeTask(_)
            | Self::Runtime(_)
            | Self::ReadDenied { .. } => None,
        }
    }
}

/// The outcome of discovery: what was loaded, from where, and what to warn about.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AgentsMdDiscovery {
    pub global: Option<GlobalInstructions>,
    /// Root-first within each environment, environments in request order.
    pub project_docs: Vec<ProjectDoc>,
    /// Non-blank internal guidance, appended last.
    pub internal_guidance: Option<String>,
    /// The primary environment's cwd (the legacy header directory).
    pub primary_cwd: Option<PathBuf>,
    /// Whether project docs were looked for ([`ProjectDocsPolicy::SkipUntrustedProject`]:
    /// the project is untrusted, so `project_docs` is empty).
    pub project_docs_policy: ProjectDocsPolicy,
    pub warnings: Vec<AgentsMdWarning>,
}

impl AgentsMdDiscovery {
    /// True when nothing model-visible was loaded.
    pub fn is_empty(&self) -> bool {
        self.global.is_none() && self.project_docs.is_empty() && self.internal_guidance.is_none()
    }

    /// Files that supplied text: the global file first, then project docs in order.
    pub fn sources(&self) -> Vec<&Path> {
        self.global
            .iter()
            .map(|global| global.path.as_path())
            .chain(self.project_docs.iter().map(|doc| doc.path.as_path()))
            .collect()
    }

    /// True when a secondary environment contributed, so every group is labelled.
    pub fn uses_environment_labels(&self) -> bool {
        self.project_docs
            .iter()
            .any(|doc| doc.environment_role == EnvironmentRole::Secondary)
    }

    /// Directory for the `# AGENTS.md instructions for <dir>` header: the primary
    /// cwd when project docs came only from it, otherwise none.
    pub fn directory(&self) -> Option<&Path> {
        if self.project_docs.is_empty() || self.uses_environment_labels() {
            return None;
        }
        self.primary_cwd.as_deref()
    }

    /// The combined instructions text, or `None` when nothing was loaded.
    pub fn text(&self) -> Option<String> {
        if self.is_empty() {
            return None;
        }
        let mut parts = TextJoiner::default();
        if let Some(global) = &self.global {
            parts.push(Separator::Paragraph, &global.text);
        }
        let labelled = self.uses_environment_labels();
        let mut previous_group: Option<(&str, &Path)> = None;
        for doc in &self.project_docs {
            let group = (doc.environment_id.as_str(), doc.environment_cwd.as_path());
            if labelled {
                if previous_group != Some(group) {
                    let label = format!(
                        "for `{}` with root {}\n\n{}",
                        doc.environment_id,
                        doc.environment_cwd.display(),
                        doc.text
                    );
                    parts.push(Separator::Paragraph, &label);
                } else {
                    parts.push(Separator::Paragraph, &doc.text);
                }
            } else if previous_group.is_none() {
                // The marker shows the model where workspace-scoped text begins,
                // so it appears once, at the switch from user to project text.
                parts.push(Separator::ProjectDoc, &doc.text);
            } else {
                parts.push(Separator::Paragraph, &doc.text);
            }
            previous_group = Some(group);
        }
        if let Some(guidance) = &self.internal_guidance {
            parts.push(Separator::Paragraph, guidance);
        }
        Some(parts.output)
    }
}

#[derive(Clone, Copy)]
enum Separator {
    Paragraph,
    ProjectDoc,
}

#[derive(Default)]
struct TextJoiner {
    output: String,
    has_previous: bool,
}

impl TextJoiner {
    fn push(&mut self, separator: Separator, text: &str) {
        if self.has_previous {
            self.output.push_str(match separator {
                Separator::Paragraph => "\n\n",
                Separator::ProjectDoc => AGENTS_MD_SEPARATOR,
            });
        }
        self.output.push_str(text);
        self.has_previous = true;
    }
}
