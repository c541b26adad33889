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
use crate::manifest::TemplateUse;

/// Template directory, relative to the workspace root.
pub const TEMPLATES_DIR: &str = "prompts/templates";
/// The per-model manifest of the 0.149 catalog, relative to the workspace root.
pub const MANIFEST_PATH: &str = "prompts/models.toml";
/// The generated 0.149 catalog, relative to the workspace root.
pub const CATALOG_PATH: &str = "models-manager/models.json";
/// The manifest and the generated catalog of every bundled catalog (one per release's
/// catalog), relative to the workspace root.
pub const BUNDLED_CATALOGS: [(&str, &str); 2] = [
    (MANIFEST_PATH, CATALOG_PATH),
    (
        "prompts/models-0.171.toml",
        "models-manager/models-0.171.json",
    ),
];

/// Something `--check` rejects. Paths are relative to the workspace root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// `include_str!` names a file that does not exist.
    MissingInclude { site: SourceSite, path: PathBuf },
    /// An `include_str!` argument the scanner cannot turn into a path.
    UnresolvedInclude { site: SourceSite, reason: String },
    /// The manifest names a template that does not exist.
    MissingManifestTemplate {
        manifest: PathBuf,
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
            Problem::MissingManifestTemplate {
                manifest,
                template,
                slugs,
            } => write!(
                f,
                "{}: {} (used by {}) does not exist",
                manifest.display(),
                template.display(),
                slugs.join(", ")
            ),
            Problem::UnreferencedTemplate { template } => {
                let manifests: Vec<&str> = BUNDLED_CATALOGS
                    .iter()
                    .map(|(manifest, _)| *manifest)
                    .collect();
                write!(
                    f,
                    "{} is not used: no crate embeds it with include_str! and no catalog manifest \
                     ({}) names it; use it or delete it",
                    template.display(),
                    manifests.join(", ")
                )
            }
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

/// One bundled catalog: its manifest and the generated file's current text.
pub(crate) struct BundledCatalogFiles {
    pub manifest_path: &'static str,
    pub catalog_path: &'static str,
    pub manifest: Manifest,
    pub catalog_text: String,
}

/// Everything the checks and the listing need, read once.
pub(crate) struct PromptsTree {
    pub root: PathBuf,
    pub templates: Vec<PathBuf>,
    pub scan: IncludeScan,
    pub catalogs: Vec<BundledCatalogFiles>,
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
        let mut catalogs = Vec::new();
        for (manifest_path, catalog_path) in BUNDLED_CATALOGS {
            let path = root.join(catalog_path);
            let catalog_text =
                std::fs::read_to_string(&path).map_err(|source| XtaskError::io(&path, source))?;
            catalogs.push(BundledCatalogFiles {
                manifest_path,
                catalog_path,
                manifest: Manifest::load(&root.join(manifest_path))?,
                catalog_text,
            });
        }
        Ok(Self {
            root: root.to_path_buf(),
            templates,
            scan: IncludeScan::workspace(root)?,
            catalogs,
        })
    }

    /// Every template use of every manifest.
    pub fn template_uses(&self) -> Vec<TemplateUse<'_>> {
        self.catalogs
            .iter()
            .flat_map(|catalog| catalog.manifest.template_uses())
            .collect()
    }

    /// Problems other than a stale catalog, and each catalog generated from the templates
    /// (None when a template its manifest names is missing).
    fn analyze(&self) -> Result<(Vec<Problem>, Vec<Option<GeneratedCatalog>>), XtaskError> {
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

        let mut generated = Vec::new();
        for catalog in &self.catalogs {
            let mut texts = BTreeMap::new();
            let mut missing: BTreeMap<PathBuf, Vec<String>> = BTreeMap::new();
            for template_use in catalog.manifest.template_uses() {
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
            problems.extend(missing.iter().map(|(template, slugs)| {
                Problem::MissingManifestTemplate {
                    manifest: PathBuf::from(catalog.manifest_path),
                    template: template.clone(),
                    slugs: slugs.clone(),
                }
            }));
            generated.push(if missing.is_empty() {
                Some(generate_catalog(
                    &self.root.join(catalog.catalog_path),
                    &catalog.catalog_text,
                    &catalog.manifest,
                    &texts,
                )?)
            } else {
                None
            });
        }

        let reachable = self.reachable();
        problems.extend(
            self.templates
                .iter()
                .filter(|template| !reachable.contains(*template))
                .map(|template| Problem::UnreferencedTemplate {
                    template: template.clone(),
                }),
        );
        Ok((problems, generated))
    }

    /// Files embedded by a crate or named by the manifest (relative to the root).
    pub fn reachable(&self) -> BTreeSet<PathBuf> {
        self.scan
            .includes
            .iter()
            .map(|include| include.path.clone())
            .chain(
                self.template_uses()
                    .iter()
                    .map(|template_use| Path::new(TEMPLATES_DIR).join(template_use.template)),
            )
            .collect()
    }
}

/// `cargo xtask prompts --check`: every problem, each stale catalog (with its diff) included.
pub fn check_prompts(root: &Path) -> Result<Vec<Problem>, XtaskError> {
    let tree = PromptsTree::load(root)?;
    let (mut problems, generated) = tree.analyze()?;
    for (catalog, generated) in tree.catalogs.iter().zip(generated) {
        let Some(generated) = generated else {
            continue;
        };
        if generated.text != catalog.catalog_text {
            problems.push(Problem::StaleGenerated {
                file: PathBuf::from(catalog.catalog_path),
                sources: stale_sources(&generated.changes, catalog.manifest_path),
                diff: unified_diff(
                    &catalog.catalog_text,
                    &generated.text,
                    &format!("a/{}", catalog.catalog_path),
                    &format!("b/{} (generated)", catalog.catalog_path),
                ),
            });
        }
    }
    Ok(problems)
}

/// `cargo xtask prompts`: rewrites each catalog that differs from what the templates produce,
/// and reports the problems a rewrite cannot fix.
pub fn regenerate_prompts(root: &Path) -> Result<Regeneration, XtaskError> {
    let tree = PromptsTree::load(root)?;
    let (problems, generated) = tree.analyze()?;
    let mut written = Vec::new();
    for (catalog, generated) in tree.catalogs.iter().zip(generated) {
        let Some(generated) = generated else {
            continue;
        };
        if generated.text != catalog.catalog_text {
            let path = root.join(catalog.catalog_path);
            std::fs::write(&path, &generated.text)
                .map_err(|source| XtaskError::io(&path, source))?;
            written.push(PathBuf::from(catalog.catalog_path));
        }
    }
    Ok(Regeneration { written, problems })
}

/// Source files of the changed fields, each with the models concerned, in first-seen order.
fn stale_sources(changes: &[FieldChange], manifest_path: &str) -> Vec<(PathBuf, Vec<String>)> {
    let mut sources: Vec<(PathBuf, Vec<String>)> = Vec::new();
    for change in changes {
        for source in &change.sources {
            let path = match source {
                ChangeSource::Template(template) => Path::new(TEMPLATES_DIR).join(template),
                ChangeSource::Manifest => PathBuf::from(manifest_path),
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
