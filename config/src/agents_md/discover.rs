//! The discovery walk: global file, project root, candidate files, byte budget.

use std::io;
use std::ops::ControlFlow;
use std::path::Component;
use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;

use super::AgentsMdDiscovery;
use super::AgentsMdEnvironment;
use super::AgentsMdError;
use super::AgentsMdFileSystem;
use super::AgentsMdRequest;
use super::AgentsMdWarning;
use super::DEFAULT_AGENTS_MD_FILENAME;
use super::EntryKind;
use super::EnvironmentRole;
use super::GlobalInstructions;
use super::InstructionScope;
use super::LOCAL_AGENTS_MD_FILENAME;
use super::MAX_CONCURRENT_ANCESTOR_PROBES;
use super::ProjectDoc;
use super::ProjectDocOptions;
use crate::projects::ProjectDocsPolicy;

/// Runs the whole discovery: global instructions, then each environment's
/// project docs. A failing environment becomes a warning and contributes nothing,
/// so one unreadable directory never hides the global instructions; only a doc the
/// permission profile forbids reading fails the discovery ([`AgentsMdError::ReadDenied`]).
pub async fn discover_agents_md(
    request: &AgentsMdRequest,
    fs: Arc<dyn AgentsMdFileSystem>,
) -> Result<AgentsMdDiscovery, AgentsMdError> {
    let mut discovery = AgentsMdDiscovery {
        primary_cwd: request
            .environments
            .iter()
            .find(|environment| environment.role == EnvironmentRole::Primary)
            .map(|environment| lexically_normalized(&environment.cwd)),
        internal_guidance: request
            .internal_guidance
            .clone()
            .filter(|guidance| !guidance.trim().is_empty()),
        project_docs_policy: request.project_docs,
        ..AgentsMdDiscovery::default()
    };
    if let Some(codex_home) = &request.codex_home {
        discovery.global = load_global_instructions(codex_home, &fs, &mut discovery.warnings).await;
    }
    let environments = match request.project_docs {
        ProjectDocsPolicy::Discover => request.environments.as_slice(),
        // Upstream returns the user-level instructions alone for an untrusted project.
        ProjectDocsPolicy::SkipUntrustedProject => &[],
    };
    for environment in environments {
        match read_project_docs(environment, &request.options, &fs, &mut discovery.warnings).await {
            Ok(docs) => discovery.project_docs.extend(docs),
            // The profile forbids what the project asks the model to follow: no turn may run
            // without it, so this is not a warning.
            Err(error @ AgentsMdError::ReadDenied { .. }) => return Err(error),
            Err(error) => {
                tracing::error!(
                    environment_id = environment.id,
                    "error trying to find AGENTS.md docs: {error}"
                );
                discovery
                    .warnings
                    .push(AgentsMdWarning::ProjectDiscoveryFailed {
                        environment_id: environment.id.clone(),
                        error: error.to_string(),
                    });
            }
        }
    }
    Ok(discovery)
}

/// Blocking form of [`discover_agents_md`] for synchronous callers. It starts a
/// private current-thread runtime, so it must not be called from inside a Tokio
/// runtime (that is reported as [`AgentsMdError::Runtime`], not a panic).
pub fn discover_agents_md_blocking(
    request: &AgentsMdRequest,
    fs: Arc<dyn AgentsMdFileSystem>,
) -> Result<AgentsMdDiscovery, AgentsMdError> {
    if tokio::runtime::Handle::try_current().is_ok() {
        return Err(AgentsMdError::Runtime(
            "called from inside a Tokio runtime; use discover_agents_md instead".to_string(),
        ));
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .map_err(|error| AgentsMdError::Runtime(error.to_string()))?;
    runtime.block_on(discover_agents_md(request, fs))
}

/// `$CODEX_HOME/AGENTS.override.md`, else `$CODEX_HOME/AGENTS.md`: the first
/// whose trimmed text is non-blank, trimmed. Unreadable candidates are warned
/// about and skipped; the global file is not charged to the project budget.
pub async fn load_global_instructions(
    codex_home: &Path,
    fs: &Arc<dyn AgentsMdFileSystem>,
    warnings: &mut Vec<AgentsMdWarning>,
) -> Option<GlobalInstructions> {
    for name in [LOCAL_AGENTS_MD_FILENAME, DEFAULT_AGENTS_MD_FILENAME] {
        let path = codex_home.join(name);
        let data = match read_regular_file(fs, &path).await {
            Ok(Some(data)) => data,
            Ok(None) => continue,
            Err(error) => {
                warnings.push(AgentsMdWarning::GlobalUnreadable {
                    path,
                    error: error.to_string(),
                });
                continue;
            }
        };
        let text = decode_lossy(&data, InstructionScope::Global, &path, warnings);
        let trimmed = text.trim();
        if !trimmed.is_empty() {
            return Some(GlobalInstructions {
                path,
                text: trimmed.to_string(),
            });
        }
    }
    None
}

/// The project docs of one environment, root first, within the byte budget.
/// Blank docs are dropped without spending budget; a doc larger than what is
/// left is cut at a byte boundary (a doc after the budget is spent is left
/// out), and each such doc adds an [`AgentsMdWarning::Truncated`]. A candidate
/// that cannot be inspected or read, or is not a regular file, is left out with
/// an [`AgentsMdWarning::ProjectDocSkipped`]; the other docs are kept.
pub async fn read_project_docs(
    environment: &AgentsMdEnvironment,
    options: &ProjectDocOptions,
    fs: &Arc<dyn AgentsMdFileSystem>,
    warnings: &mut Vec<AgentsMdWarning>,
) -> Result<Vec<ProjectDoc>, AgentsMdError> {
    if options.max_bytes == 0 {
        return Ok(Vec::new());
    }
    let cwd = lexically_normalized(&environment.cwd);
    let mut remaining = options.max_bytes;
    let mut docs = Vec::new();
    for path in agents_md_paths(&cwd, options, fs, warnings).await? {
        if let Some(denied) = options
            .denied_reads
            .iter()
            .find(|denied| path.starts_with(lexically_normalized(denied)))
        {
            tracing::debug!(denied = %denied.display(), "project doc denied by the profile");
            return Err(AgentsMdError::ReadDenied {
                environment_id: environment.id.clone(),
                path,
            });
        }
        if remaining == 0 {
            // Upstream drops these silently; a doc left out entirely is still
            // reported, because truncation must never go unnoticed. Errors are
            // ignored here since the doc would not be used either way.
            if let Ok(Some(data)) = read_regular_file(fs, &path).await
                && !String::from_utf8_lossy(&data).trim().is_empty()
            {
                warnings.push(AgentsMdWarning::Truncated {
                    path,
                    kept_bytes: 0,
                    dropped_bytes: data.len(),
                });
            }
            continue;
        }
        // The file may have changed since the probe; a vanished entry is
        // skipped, an unreadable one is skipped with a warning, rather than
        // failing the whole discovery.
        let mut data = match read_regular_file(fs, &path).await {
            Ok(Some(data)) => data,
            Ok(None) => continue,
            Err(error @ AgentsMdError::ProbeTask(_)) => return Err(error),
            Err(error) => {
                warnings.push(AgentsMdWarning::ProjectDocSkipped {
                    path,
                    error: error.to_string(),
                });
                continue;
            }
        };
        let file_len = data.len();
        let truncated_bytes = file_len.saturating_sub(remaining);
        if truncated_bytes > 0 {
            data.truncate(remaining);
            tracing::warn!(
                "Project doc `{}` exceeds remaining budget ({remaining} bytes) - truncating.",
                path.display()
            );
            warnings.push(AgentsMdWarning::Truncated {
                path: path.clone(),
                kept_bytes: data.len(),
                dropped_bytes: truncated_bytes,
            });
        }
        let text = decode_lossy(&data, InstructionScope::Project, &path, warnings);
        if text.trim().is_empty() {
            continue;
        }
        remaining -= data.len();
        docs.push(ProjectDoc {
            path,
            text,
            bytes_used: data.len(),
            truncated_bytes,
            environment_id: environment.id.clone(),
            environment_cwd: cwd.clone(),
            environment_role: environment.role,
        });
    }
    Ok(docs)
}

/// The doc paths that discovery would read for `cwd`, root first: per
/// directory from the project root down to `cwd`, the first candidate name
/// that is a regular file. A candidate that cannot be inspected (a symlink
/// loop, no permission) or is not a regular file (a named pipe, a socket) is
/// passed over with an [`AgentsMdWarning::ProjectDocSkipped`] in `warnings`.
/// Probes run concurrently, the answer is that of a sequential walk.
pub async fn agents_md_paths(
    cwd: &Path,
    options: &ProjectDocOptions,
    fs: &Arc<dyn AgentsMdFileSystem>,
    warnings: &mut Vec<AgentsMdWarning>,
) -> Result<Vec<PathBuf>, AgentsMdError> {
    if !cwd.is_absolute() {
        return Err(AgentsMdError::RelativeCwd(cwd.to_path_buf()));
    }
    let cwd = lexically_normalized(cwd);
    let ancestors: Vec<&Path> = cwd.ancestors().collect();
    let markers = &options.project_root_markers;

    let mut root_index = None;
    if !markers.is_empty() {
        let marker_paths: Vec<PathBuf> = ancestors
            .iter()
            .flat_map(|ancestor| markers.iter().map(|marker| ancestor.join(marker)))
            .collect();
        probe_in_order(fs, marker_paths, |index, path, result| match result {
            Ok(_) => {
                root_index = Some(index / markers.len());
                ControlFlow::Break(Ok(()))
            }
            Err(error) if error.kind() == io::ErrorKind::NotFound => ControlFlow::Continue(()),
            Err(source) => ControlFlow::Break(Err(AgentsMdError::Metadata { path, source })),
        })
        .await?;
    }

    let mut search_dirs: Vec<&Path> = match root_index {
        Some(index) => ancestors[..=index].to_vec(),
        None => vec![cwd.as_path()],
    };
    search_dirs.reverse();

    // `AGENTS.override.md`, `AGENTS.md`, then the fallbacks in order, without
    // empty names or repeats.
    let mut names = vec![LOCAL_AGENTS_MD_FILENAME, DEFAULT_AGENTS_MD_FILENAME];
    for name in &options.fallback_filenames {
        if !name.is_empty() && !names.contains(&name.as_str()) {
            names.push(name);
        }
    }
    let candidate_paths: Vec<PathBuf> = search_dirs
        .iter()
        .flat_map(|dir| names.iter().map(|name| dir.join(name)))
        .collect();
    let mut found = Vec::new();
    let mut decided_dir = None;
    probe_in_order(fs, candidate_paths, |index, path, result| {
        let dir = index / names.len();
        if decided_dir == Some(dir) {
            return ControlFlow::Continue(());
        }
        let skipped = match result {
            Ok(EntryKind::File) => {
                found.push(path);
                decided_dir = Some(dir);
                return ControlFlow::Continue(());
            }
            Ok(EntryKind::Directory) => return ControlFlow::Continue(()),
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                return ControlFlow::Continue(());
            }
            Ok(EntryKind::Other) => AgentsMdError::NotRegularFile(path.clone()),
            Err(source) => AgentsMdError::Metadata {
                path: path.clone(),
                source,
            },
        };
        warnings.push(AgentsMdWarning::ProjectDocSkipped {
            path,
            error: skipped.to_string(),
        });
        ControlFlow::Continue(())
    })
    .await?;
    Ok(found)
}

/// Probes `paths` in windows of at most [`MAX_CONCURRENT_ANCESTOR_PROBES`]
/// concurrent metadata calls, then hands results to `visit` strictly in path
/// order, so the outcome equals a one-by-one walk. `visit` stops the walk by
/// breaking with the final result.
async fn probe_in_order<F>(
    fs: &Arc<dyn AgentsMdFileSystem>,
    paths: Vec<PathBuf>,
    mut visit: F,
) -> Result<(), AgentsMdError>
where
    F: FnMut(usize, PathBuf, io::Result<EntryKind>) -> ControlFlow<Result<(), AgentsMdError>>,
{
    let mut index = 0;
    let mut pending = paths.into_iter().peekable();
    while pending.peek().is_some() {
        let handles: Vec<_> = pending
            .by_ref()
            .take(MAX_CONCURRENT_ANCESTOR_PROBES)
            .map(|path| {
                let fs = Arc::clone(fs);
                tokio::task::spawn_blocking(move || {
                    let result = fs.entry_kind(&path);
                    (path, result)
                })
            })
            .collect();
        // Every probe of the window is awaited before any result is looked at,
        // so no probe outlives the walk.
        let mut results = Vec::with_capacity(handles.len());
        for handle in handles {
            results.push(
                handle
                    .await
                    .map_err(|error| AgentsMdError::ProbeTask(error.to_string())),
            );
        }
        for result in results {
            let (path, kind) = result?;
            if let ControlFlow::Break(outcome) = visit(index, path, kind) {
                return outcome;
            }
            index += 1;
        }
    }
    Ok(())
}

/// Reads `path` if it is (still) a regular file; `Ok(None)` when it is absent
/// or a directory, an error when it is anything else that is not a regular file.
async fn read_regular_file(
    fs: &Arc<dyn AgentsMdFileSystem>,
    path: &Path,
) -> Result<Option<Vec<u8>>, AgentsMdError> {
    let fs = Arc::clone(fs);
    let owned = path.to_path_buf();
    tokio::task::spawn_blocking(move || {
        match fs.entry_kind(&owned) {
            Ok(EntryKind::File) => {}
            Ok(EntryKind::Directory) => return Ok(None),
            Ok(EntryKind::Other) => return Err(AgentsMdError::NotRegularFile(owned)),
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(AgentsMdError::Metadata {
                    path: owned,
                    source,
                });
            }
        }
        match fs.read(&owned) {
            Ok(data) => Ok(Some(data)),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(AgentsMdError::Read {
                path: owned,
                source,
            }),
        }
    })
    .await
    .map_err(|error| AgentsMdError::ProbeTask(error.to_string()))?
}

/// Decodes lossily and warns when bytes had to be replaced.
fn decode_lossy(
    data: &[u8],
    scope: InstructionScope,
    path: &Path,
    warnings: &mut Vec<AgentsMdWarning>,
) -> String {
    match std::str::from_utf8(data) {
        Ok(text) => text.to_string(),
        Err(error) => {
            warnings.push(AgentsMdWarning::InvalidUtf8 {
                scope,
                path: path.to_path_buf(),
                detail: error.to_string(),
            });
            String::from_utf8_lossy(data).into_owned()
        }
    }
}

/// Drops `.` and resolves `..` textually, without touching the filesystem, so a
/// symlinked cwd keeps its logical parents (as a shell's `cd -L` would).
pub(crate) fn lexically_normalized(path: &Path) -> PathBuf {
    let mut normalized = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => match normalized.components().next_back() {
                // `..` at the root stays at the root.
                Some(Component::RootDir | Component::Prefix(_)) => {}
                Some(Component::Normal(_)) => {
                    normalized.pop();
                }
                Some(Component::CurDir | Component::ParentDir) | None => {
                    normalized.push(component);
                }
            },
            Component::Prefix(_) | Component::RootDir | Component::Normal(_) => {
                normalized.push(component);
            }
        }
    }
    normalized
}
