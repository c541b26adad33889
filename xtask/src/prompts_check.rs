//! `cargo xtask prompts`: regenerate the catalog from the templates, and check that nothing
//! under `prompts/templates/` is a fossil and nothing embeds a missing file.

use std::collections::BTreeMap;
use std::collections::BTreeSet;
use std::fmt;
use std::path::Path;
use std::path::PathBuf;

use crate::catalog::ChangeSource;
use crate::catalog::FieldChange;
use crate::catalog::GeneratedCatalog;
use crate::catalog::generate_catalog;
use crate::diff::unified_diff;
use crate::error::XtaskError;
use crate::includes::IncludeScan;
use crate::includes::SourceSite;
use crate::includes::UnresolvedInclude;
use crate::includes::collect_files;
use crate::manifest::Manifest;

/// Template directory, relative to the workspace root.
pub const TEMPLATES_DIR: &str = "prompts/templates";
/// The per-model manifest, relative to the workspace root.
pub const MANIFEST_PATH: &str = "prompts/models.toml";
/// The generated catalog, relative to the workspace root.
pub const CATALOG_PATH: &str = "models-manager/models.json";

/// Something `--check` rejects. Paths are relative to the workspace root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// `include_str!` names a file that does not exist.
    MissingInclude { site: SourceSite, path: PathBuf },
    /// An `include_str!` argument the scanner cannot turn into a path.
    UnresolvedInclude { site: SourceSite, reason: String },
    /// The manifest names a template that does not exist.
    MissingManifestTemplate {
        template: PathBuf,
        slugs: Vec<String>,
    },
    /// A template that nothing embeds and the manifest does not use.
    UnreferencedTemplate { template: PathBuf },
    /// A generated file differs from what the templates produce.
    StaleGenerated {
        file: PathBuf,
        /// Template files (or the manifest) whose content is not reflected, with the models
        /// concerned.
        sources: Vec<(PathBuf, Vec<String>)>,
        diff: String,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::MissingInclude { site, path } => write!(
                f,
                "{site}: include_str! names {}, which does not exist",
                path.display()
            ),
            Problem::UnresolvedInclude { site, reason } => write!(
                f,
                "{site}: cannot tell which file this include_str! embeds ({reason}); \
                 use a string literal path"
            ),
            Problem::MissingManifestTemplate { template, slugs } => write!(
                f,
                "{MANIFEST_PATH}: {} (used by {}) does not exist",
                template.display(),
                slugs.join(", ")
            ),
            Problem::UnreferencedTemplate { template } => write!(
                f,
                "{} is not used: no crate embeds it with include_str! and {MANIFEST_PATH} does \
                 not name it; use it or delete it",
                template.display()
            ),
            Problem::StaleGenerated {
                file,
                sources,
                diff,
            } => {
                write!(f, "{} is out of date", file.display())?;
                if !sources.is_empty() {
                    let changed: Vec<String> = sources
                        .iter()
                        .map(|(source, slugs)| {
                            format!("{} ({})", source.display(), slugs.join(", "))
                        })
                        .collect();
                    write!(f, " with {}", changed.join("; "))?;
                }
                write!(f, "; run `cargo xtask prompts`\n{diff}")
            }
        }
    }
}

/// What `cargo xtask prompts` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Regeneration {
    /// Files rewritten (relative to the root).
    pub written: Vec<PathBuf>,
    /// Problems regeneration cannot fix (fossils, missing files).
    pub problems: Vec<Problem>,
}

/// Everything the checks and the listing need, read once.
pub(crate) struct PromptsTree {
    pub root: PathBuf,
    pub templates: Vec<PathBuf>,
    pub scan: IncludeScan,
    pub manifest: Manifest,
    pub catalog_text: String,
}

impl PromptsTree {
    pub fn load(root: &Path) -> Result<Self, XtaskError> {
        let root = &std::fs::canonicalize(root).map_err(|source| XtaskError::io(root, source))?;
        let mut templates = Vec::new();
        collect_files(&root.join(TEMPLATES_DIR), &mut templates)?;
        let templates = templates
            .into_iter()
            .map(|path| path.strip_prefix(root).unwrap_or(&path).to_path_buf())
            .collect();
        let catalog_path = root.join(CATALOG_PATH);
        let catalog_text = std::fs::read_to_string(&catalog_path)
            .map_err(|source| XtaskError::io(&catalog_path, source))?;
        Ok(Self {
            root: root.to_path_buf(),
            templates,
            scan: IncludeScan::workspace(root)?,
            manifest: Manifest::load(&root.join(MANIFEST_PATH))?,
            catalog_text,
        })
    }

    /// Problems other than a stale catalog, and the catalog generated from the templates
    /// (None when a template the manifest names is missing).
    fn analyze(&self) -> Result<(Vec<Problem>, Option<GeneratedCatalog>), XtaskError> {
        let mut problems = Vec::new();
        let mut missing_includes: Vec<Problem> = self
            .scan
            .includes
            .iter()
            .filter(|include| !self.root.join(&include.path).is_file())
            .map(|include| Problem::MissingInclude {
                site: include.site.clone(),
                path: include.path.clone(),
            })
            .collect();
        missing_includes.sort_by_key(ToString::to_string);
        problems.extend(missing_includes);
        problems.extend(
            self.scan
                .unresolved
                .iter()
                .map(
                    |UnresolvedInclude { site, reason }| Problem::UnresolvedInclude {
                        site: site.clone(),
                        reason: reason.clone(),
                    },
                ),
        );

        let mut texts = BTreeMap::new();
        let mut missing: BTreeMap<PathBuf, Vec<String>> = BTreeMap::new();
        for template_use in self.manifest.template_uses() {
            let relative = Path::new(TEMPLATES_DIR).join(template_use.template);
            match std::fs::read_to_string(self.root.join(&relative)) {
                Ok(text) => {
                    texts.insert(template_use.template.to_string(), text);
                }
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                    let slugs = missing.entry(relative).or_default();
                    if !slugs.iter().any(|slug| slug == template_use.slug) {
                        slugs.push(template_use.slug.to_string());
                    }
                }
                Err(error) => return Err(XtaskError::io(&self.root.join(&relative), error)),
            }
        }
        problems.extend(
            missing
                .iter()
                .map(|(template, slugs)| Problem::MissingManifestTemplate {
                    template: template.clone(),
                    slugs: slugs.clone(),
                }),
        );

        let reachable = self.reachable();
        problems.extend(
            self.templates
                .iter()
                .filter(|template| !reachable.contains(*template))
                .map(|template| Problem::UnreferencedTemplate {
                    template: template.clone(),
                }),
        );

        let generated = if missing.is_empty() {
            Some(generate_catalog(
                &self.root.join(CATALOG_PATH),
                &self.catalog_text,
                &self.manifest,
                &texts,
            )?)
        } else {
            None
        };
        Ok((problems, generated))
    }

    /// Files embedded by a crate or named by the manifest (relative to the root).
    pub fn reachable(&self) -> BTreeSet<PathBuf> {
        self.scan
            .includes
            .iter()
            .map(|include| include.path.clone())
            .chain(
                self.manifest
                    .template_uses()
                    .iter()
                    .map(|template_use| Path::new(TEMPLATES_DIR).join(template_use.template)),
            )
            .collect()
    }
}

/// `cargo xtask prompts --check`: every problem, the stale catalog (with its diff) included.
pub fn check_prompts(root: &Path) -> Result<Vec<Problem>, XtaskError> {
    let tree = PromptsTree::load(root)?;
    let (mut problems, generated) = tree.analyze()?;
    if let Some(generated) = generated
        && generated.text != tree.catalog_text
    {
        problems.push(Problem::StaleGenerated {
            file: PathBuf::from(CATALOG_PATH),
            sources: stale_sources(&generated.changes),
            diff: unified_diff(
                &tree.catalog_text,
                &generated.text,
                &format!("a/{CATALOG_PATH}"),
                &format!("b/{CATALOG_PATH} (generated)"),
            ),
        });
    }
    Ok(problems)
}

/// `cargo xtask prompts`: rewrites the catalog when it differs from what the templates
/// produce, and reports the problems a rewrite cannot fix.
pub fn regenerate_prompts(root: &Path) -> Result<Regeneration, XtaskError> {
    let tree = PromptsTree::load(root)?;
    let (problems, generated) = tree.analyze()?;
    let mut written = Vec::new();
    if let Some(generated) = generated
        && generated.text != tree.catalog_text
    {
        let path = root.join(CATALOG_PATH);
        std::fs::write(&path, &generated.text).map_err(|source| XtaskError::io(&path, source))?;
        written.push(PathBuf::from(CATALOG_PATH));
    }
    Ok(Regeneration { written, problems })
}

/// Source files of the changed fields, each with the models concerned, in first-seen order.
fn stale_sources(changes: &[FieldChange]) -> Vec<(PathBuf, Vec<String>)> {
    let mut sources: Vec<(PathBuf, Vec<String>)> = Vec::new();
    for change in changes {
        for source in &change.sources {
            let path = match source {
                ChangeSource::Template(template) => Path::new(TEMPLATES_DIR).join(template),
                ChangeSource::Manifest => PathBuf::from(MANIFEST_PATH),
            };
            let index = match sources.iter().position(|(known, _)| *known == path) {
                Some(index) => index,
                None => {
                    sources.push((path, Vec::new()));
                    sources.len() - 1
                }
            };
            let slugs = &mut sources[index].1;
            if !slugs.contains(&change.slug) {
                slugs.push(change.slug.clone());
            }
        }
    }
    sources
}
