//! The active set of templates: the embedded files, optionally overlaid file by file from a
//! directory chosen at run time (`--prompts-dir`).

use crate::PromptsError;
use crate::TemplateId;
use crate::render::check_variables;
use crate::render::render;
use std::collections::BTreeMap;
use std::path::Path;
use std::path::PathBuf;

/// Templates to render from: the embedded set, with any files found in an overlay directory
/// taking the place of the embedded file of the same relative path.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TemplateSet {
    overrides: BTreeMap<TemplateId, Override>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Override {
    path: PathBuf,
    text: String,
}

/// Where the text of one template came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TemplateSource<'a> {
    /// Compiled into the binary.
    Embedded,
    /// Read from this file of an overlay directory.
    Overlay(&'a Path),
}

impl TemplateSet {
    /// Only the embedded templates.
    pub fn embedded() -> Self {
        Self::default()
    }

    /// The embedded templates overlaid by every known template file found under `dir`
    /// (searched recursively; paths are matched relative to `dir`). Templates missing from
    /// `dir` fall back to the embedded file. Files that match no known template are reported
    /// with a warning and otherwise ignored; a file whose placeholders name a variable its
    /// template is never given is an error naming the file and the variable.
    pub fn from_dir(dir: &Path) -> Result<Self, PromptsError> {
        let mut files = Vec::new();
        collect_files(dir, dir, &mut files)?;
        let mut overrides = BTreeMap::new();
        for (relative, path) in files {
            let Some(id) = TemplateId::from_path(&relative) else {
                tracing::warn!(
                    "{} in the prompts directory matches no known template and is ignored",
                    path.display()
                );
                continue;
            };
            let bytes =
                codex_utils_fs::read_regular(&path).map_err(|source| PromptsError::ReadFile {
                    path: path.clone(),
                    source,
                })?;
            let text = String::from_utf8(bytes)
                .map_err(|_| PromptsError::NotUtf8 { path: path.clone() })?;
            check_variables(path.display(), &text, id.variables())?;
            overrides.insert(id, Override { path, text });
        }
        Ok(Self { overrides })
    }

    /// The template's text, without the single final line break every file ends with
    /// (a lone `\n` or `\r\n`; anything else, including further blank lines, is kept).
    pub fn text(&self, id: TemplateId) -> &str {
        let file = self.file(id);
        file.strip_suffix("\r\n")
            .or_else(|| file.strip_suffix('\n'))
            .unwrap_or(file)
    }

    /// The whole template file, final line break included: the overlay file's contents, else
    /// [`TemplateId::embedded_file`]. Texts that were copied from the embedded files verbatim
    /// (the bundled model catalog's instructions) are swapped for this.
    pub fn file(&self, id: TemplateId) -> &str {
        match self.overrides.get(&id) {
            Some(found) => found.text.as_str(),
            None => id.embedded_file(),
        }
    }

    /// Where [`TemplateSet::text`] for `id` comes from.
    pub fn source(&self, id: TemplateId) -> TemplateSource<'_> {
        match self.overrides.get(&id) {
            Some(found) => TemplateSource::Overlay(&found.path),
            None => TemplateSource::Embedded,
        }
    }

    /// [`TemplateSet::text`] with `{{ name }}` placeholders substituted from `vars`
    /// (see [`crate::render`]).
    pub fn render(&self, id: TemplateId, vars: &[(&str, &str)]) -> String {
        render(self.text(id), vars)
    }
}

/// Appends every regular file under `dir` as (path relative to `root` with `/` separators,
/// full path), sorted so overlay loading and its warnings are deterministic.
fn collect_files(
    root: &Path,
    dir: &Path,
    files: &mut Vec<(String, PathBuf)>,
) -> Result<(), PromptsError> {
    let read_dir_error = |source| PromptsError::ReadDir {
        path: dir.to_path_buf(),
        source,
    };
    let mut entries = std::fs::read_dir(dir)
        .map_err(read_dir_error)?
        .map(|entry| entry.map(|entry| entry.path()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(read_dir_error)?;
    entries.sort();
    for path in entries {
        // Symlinked files count as files; symlinked directories are not walked, so a link
        // cycle cannot make loading loop.
        let link = std::fs::symlink_metadata(&path).map_err(|source| PromptsError::ReadFile {
            path: path.clone(),
            source,
        })?;
        if link.is_dir() {
            collect_files(root, &path, files)?;
            continue;
        }
        let target_is_file = std::fs::metadata(&path).is_ok_and(|target| target.is_file());
        if !target_is_file {
            tracing::warn!(
                "{} in the prompts directory is neither a file nor a directory and is ignored",
                path.display()
            );
            continue;
        }
        match relative_slash_path(root, &path) {
            Some(relative) => files.push((relative, path)),
            None => tracing::warn!(
                "{} in the prompts directory has a name that is not UTF-8 and is ignored",
                path.display()
            ),
        }
    }
    Ok(())
}

fn relative_slash_path(root: &Path, path: &Path) -> Option<String> {
    let relative = path.strip_prefix(root).ok()?;
    let parts = relative
        .components()
        .map(|component| component.as_os_str().to_str())
        .collect::<Option<Vec<_>>>()?;
    Some(parts.join("/"))
}

#[cfg(test)]
#[path = "template_set_tests.rs"]
mod tests;
