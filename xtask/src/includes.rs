//! Finds every file the workspace's crates embed with `include_str!` / `include_bytes!`.
//!
//! Only each workspace member's `src/` tree is scanned: a template that only a test embeds is
//! still a fossil as far as the model is concerned. Three argument shapes are understood:
//! a string literal; `concat!(…)` of literals and `env!("CARGO_MANIFEST_DIR")`; and, inside a
//! `macro_rules!` body, a `concat!` that names one of the macro's parameters. For the last shape
//! the parameter is bound by looking at the macro's invocations in the same file: the string
//! literal that follows the token preceding the parameter in the matcher (for example the
//! literal after `=>` in `Variant => "path"`), or the first literal of the invocation when the
//! parameter opens the matcher. Anything else is reported as unresolved rather than guessed.

use std::path::Component;
use std::path::Path;
use std::path::PathBuf;

use crate::error::XtaskError;
use crate::include_resolution::FileContext;
use crate::rust_tokens::TokenKind;
use crate::rust_tokens::TokenStream;

/// A place in a scanned source file (path relative to the workspace root, 1-based line).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SourceSite {
    pub file: PathBuf,
    pub line: usize,
}

impl std::fmt::Display for SourceSite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file.display(), self.line)
    }
}

/// One embedded file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Include {
    /// Where the path is written (for macro-built paths: the invocation's literal).
    pub site: SourceSite,
    /// Relative to the workspace root when it lies inside it, otherwise absolute.
    pub path: PathBuf,
    /// The item that holds the text (`const NAME`, an enum variant in a table macro), used to
    /// find the code that uses the text.
    pub label: Option<Label>,
}

/// An identifier that names embedded text, and the token that defines it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub name: String,
    pub(crate) file_index: usize,
    pub(crate) token_index: usize,
}

/// An `include_str!` whose argument this scanner cannot turn into a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnresolvedInclude {
    pub site: SourceSite,
    pub reason: String,
}

/// Every scanned file with its tokens, and the includes found in them.
#[derive(Debug, Clone)]
pub struct IncludeScan {
    files: Vec<(PathBuf, TokenStream)>,
    pub includes: Vec<Include>,
    pub unresolved: Vec<UnresolvedInclude>,
}

impl IncludeScan {
    /// Scans `src/**/*.rs` of every member listed in `root/Cargo.toml`'s `[workspace]`.
    pub fn workspace(root: &Path) -> Result<Self, XtaskError> {
        let root = std::fs::canonicalize(root).map_err(|source| XtaskError::io(root, source))?;
        let mut scan = IncludeScan {
            files: Vec::new(),
            includes: Vec::new(),
            unresolved: Vec::new(),
        };
        for member in workspace_members(&root)? {
            let mut sources = Vec::new();
            collect_files(&root.join(&member).join("src"), &mut sources)?;
            sources.retain(|path| path.extension().is_some_and(|extension| extension == "rs"));
            for path in sources {
                let text = std::fs::read_to_string(&path)
                    .map_err(|source| XtaskError::io(&path, source))?;
                let relative = path.strip_prefix(&root).unwrap_or(&path).to_path_buf();
                scan.add_file(&root, &member, relative, &text);
            }
        }
        Ok(scan)
    }

    fn add_file(&mut self, root: &Path, member: &str, file: PathBuf, text: &str) {
        let file_index = self.files.len();
        let stream = TokenStream::new(text);
        let context = FileContext {
            root,
            manifest_dir: root.join(member),
            file: &file,
            file_index,
            stream: &stream,
        };
        for index in 0..stream.tokens.len() {
            if is_include_call(&stream, index) {
                context.resolve(index, &mut self.includes, &mut self.unresolved);
            }
        }
        self.files.push((file, stream));
    }

    /// Files (relative to the root, sorted) that mention `label` anywhere but where it is
    /// defined.
    pub fn users_of(&self, label: &Label) -> Vec<PathBuf> {
        let mut users: Vec<PathBuf> = self
            .files
            .iter()
            .enumerate()
            .filter(|(file_index, (_, stream))| {
                stream
                    .tokens
                    .iter()
                    .enumerate()
                    .any(|(token_index, token)| {
                        token.is_ident(&label.name)
                            && (*file_index, token_index) != (label.file_index, label.token_index)
                    })
            })
            .map(|(_, (path, _))| path.clone())
            .collect();
        users.sort();
        users.dedup();
        users
    }
}

/// `include_str ! (` or `include_bytes ! (` starting at `index`.
fn is_include_call(stream: &TokenStream, index: usize) -> bool {
    let is_include = stream
        .get(index)
        .is_some_and(|token| token.is_ident("include_str") || token.is_ident("include_bytes"));
    is_include
        && stream
            .get(index + 1)
            .is_some_and(|token| token.is_punct("!"))
        && matches!(
            stream.get(index + 2).map(|token| &token.kind),
            Some(TokenKind::Open('('))
        )
}

pub(crate) fn workspace_members(root: &Path) -> Result<Vec<String>, XtaskError> {
    let manifest_path = root.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest_path)
        .map_err(|source| XtaskError::io(&manifest_path, source))?;
    let manifest: toml::Table = toml::from_str(&text).map_err(|source| XtaskError::Toml {
        path: manifest_path.clone(),
        source,
    })?;
    let members = manifest
        .get("workspace")
        .and_then(|workspace| workspace.get("members"))
        .and_then(toml::Value::as_array)
        .ok_or_else(|| XtaskError::Invalid {
            path: manifest_path.clone(),
            message: "no [workspace] members list".to_string(),
        })?;
    members
        .iter()
        .map(|member| match member.as_str() {
            Some(name) if !name.contains(['*', '?', '[']) => Ok(name.to_string()),
            Some(_) | None => Err(XtaskError::Invalid {
                path: manifest_path.clone(),
                message: format!("workspace member {member} is not a plain path"),
            }),
        })
        .collect()
}

/// Every file under `dir`, depth first in name order; names starting with `.` (editor
/// leftovers) are skipped, symlinked directories are not followed, and a missing `dir` has none.
pub(crate) fn collect_files(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), XtaskError> {
    if !dir.is_dir() {
        return Ok(());
    }
    let mut entries = std::fs::read_dir(dir)
        .and_then(|entries| entries.collect::<Result<Vec<_>, _>>())
        .map_err(|source| XtaskError::io(dir, source))?;
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let path = entry.path();
        let file_type = entry
            .file_type()
            .map_err(|source| XtaskError::io(&path, source))?;
        if file_type.is_dir() {
            collect_files(&path, files)?;
        } else {
            files.push(path);
        }
    }
    Ok(())
}

/// Lexical normalization (no file system access, so missing files can be named).
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut normalized = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                normalized.pop();
            }
            Component::Prefix(_) | Component::RootDir | Component::Normal(_) => {
                normalized.push(component.as_os_str());
            }
        }
    }
    normalized
}

#[cfg(test)]
#[path = "includes_tests.rs"]
mod tests;
