//! `cargo xtask architecture`: the crate graph's rules, checked on the workspace's manifests
//! and on `codex-core`'s sources.
//!
//! - Every workspace crate has a row in [`CRATE_LAYERS`], and depends (normally, for tests or
//!   for building) only on crates of a strictly lower layer, so dependencies point one way.
//! - `codex-core`'s `lib.rs` declares no public module beyond [`CORE_PUBLIC_MODULES`]: its API
//!   is the `pub use` list there.
//! - `codex-core`'s non-test code (the module tree reachable from `lib.rs`, without
//!   `#[cfg(test)]` items and the files they load) stays within [`CORE_LINE_LIMIT`] lines.

use std::collections::BTreeSet;
use std::fmt;
use std::path::Path;
use std::path::PathBuf;

use crate::error::XtaskError;
use crate::rust_tokens::TokenKind;
use crate::rust_tokens::TokenStream;

/// A workspace crate and its place in the dependency order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CrateLayer {
    pub package: &'static str,
    /// A crate may depend only on crates of a lower layer.
    pub layer: u8,
}

const fn row(package: &'static str, layer: u8) -> CrateLayer {
    CrateLayer { package, layer }
}

/// The dependency order of the workspace, lowest first. Adding a crate means adding its row.
pub const CRATE_LAYERS: &[CrateLayer] = &[
    row("codex-utils-fs", 0),
    row("codex-utils-git", 0),
    row("codex-utils-progress", 0),
    row("codex-protocol", 0),
    row("codex-release", 0),
    row("codex-proxy", 0),
    row("codex-context-fragments", 1),
    row("codex-prompts", 2),
    row("codex-fragments", 3),
    row("codex-models-manager", 3),
    row("codex-config", 4),
    row("codex-rollout", 5),
    row("codex-client", 5),
    row("codex-tools", 5),
    row("codex-core", 6),
    row("codex-inspect", 7),
    row("codex-script", 8),
    row("codex-cli", 9),
    row("xtask", 10),
];

/// The public modules `codex-core`'s `lib.rs` may declare; everything else it exports is listed
/// as `pub use`.
pub const CORE_PUBLIC_MODULES: &[&str] = &[];

/// The most lines of non-test code `codex-core` may hold.
pub const CORE_LINE_LIMIT: usize = 13_000;

const CORE_PACKAGE: &str = "codex-core";

/// One broken rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArchitectureProblem {
    /// A workspace crate without a row in [`CRATE_LAYERS`].
    UnlistedCrate { package: String, manifest: PathBuf },
    /// A dependency on a crate of the same or a higher layer.
    WrongDirection {
        package: String,
        dependency: String,
        table: &'static str,
    },
    /// A `pub mod` in `codex-core`'s `lib.rs` that is not allowed.
    CorePublicModule { module: String, line: usize },
    /// `codex-core` holds more non-test lines than allowed.
    CoreTooLarge { lines: usize, limit: usize },
}

impl fmt::Display for ArchitectureProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArchitectureProblem::UnlistedCrate { package, manifest } => write!(
                f,
                "{}: crate `{package}` has no row in CRATE_LAYERS (xtask/src/architecture.rs); \
                 add one with its layer",
                manifest.display()
            ),
            ArchitectureProblem::WrongDirection {
                package,
                dependency,
                table,
            } => write!(
                f,
                "`{package}` lists `{dependency}` under [{table}], but `{dependency}` is not \
                 below it in CRATE_LAYERS: dependencies must point to lower layers"
            ),
            ArchitectureProblem::CorePublicModule { module, line } => write!(
                f,
                "core/src/lib.rs:{line}: `pub mod {module}` makes a module of codex-core public; \
                 keep it private and export what callers need with `pub use`"
            ),
            ArchitectureProblem::CoreTooLarge { lines, limit } => write!(
                f,
                "codex-core holds {lines} lines of non-test code, more than {limit}: move what \
                 is not assembly into the crate whose job it is"
            ),
        }
    }
}

/// What the check found: the problems, and the size it measured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchitectureReport {
    pub problems: Vec<ArchitectureProblem>,
    pub core_lines: usize,
}

/// Checks the workspace at `root` against the rules above.
pub fn check_architecture(root: &Path) -> Result<ArchitectureReport, XtaskError> {
    let mut problems = Vec::new();
    let mut core_dir = None;
    for member in workspace_members(root)? {
        let manifest = member.join("Cargo.toml");
        let text = read(&manifest)?;
        let value: toml::Value = toml::from_str(&text).map_err(|source| XtaskError::Toml {
            path: manifest.clone(),
            source,
        })?;
        let package = value
            .get("package")
            .and_then(|package| package.get("name"))
            .and_then(toml::Value::as_str)
            .ok_or_else(|| XtaskError::Invalid {
                path: manifest.clone(),
                message: "no `package.name`".to_string(),
            })?
            .to_string();
        if package == CORE_PACKAGE {
            core_dir = Some(member.clone());
        }
        let Some(own) = layer_of(&package) else {
            problems.push(ArchitectureProblem::UnlistedCrate { package, manifest });
            continue;
        };
        for table in ["dependencies", "dev-dependencies", "build-dependencies"] {
            for dependency in dependency_packages(&value, table) {
                let Some(layer) = layer_of(&dependency) else {
                    continue;
                };
                if layer >= own {
                    problems.push(ArchitectureProblem::WrongDirection {
                        package: package.clone(),
                        dependency,
                        table,
                    });
                }
            }
        }
    }
    let core_dir = core_dir.ok_or_else(|| XtaskError::Invalid {
        path: root.join("Cargo.toml"),
        message: format!("no workspace member is `{CORE_PACKAGE}`"),
    })?;
    let lib = core_dir.join("src").join("lib.rs");
    let lib_text = read(&lib)?;
    for (module, line) in public_modules(&lib_text) {
        if !CORE_PUBLIC_MODULES.contains(&module.as_str()) {
            problems.push(ArchitectureProblem::CorePublicModule { module, line });
        }
    }
    let core_lines = non_test_lines(&lib)?;
    if core_lines > CORE_LINE_LIMIT {
        problems.push(ArchitectureProblem::CoreTooLarge {
            lines: core_lines,
            limit: CORE_LINE_LIMIT,
        });
    }
    Ok(ArchitectureReport {
        problems,
        core_lines,
    })
}

fn layer_of(package: &str) -> Option<u8> {
    CRATE_LAYERS
        .iter()
        .find(|row| row.package == package)
        .map(|row| row.layer)
}

fn read(path: &Path) -> Result<String, XtaskError> {
    std::fs::read_to_string(path).map_err(|source| XtaskError::io(path, source))
}

/// The member folders listed in the root manifest's `workspace.members`.
fn workspace_members(root: &Path) -> Result<Vec<PathBuf>, XtaskError> {
    let manifest = root.join("Cargo.toml");
    let value: toml::Value =
        toml::from_str(&read(&manifest)?).map_err(|source| XtaskError::Toml {
            path: manifest.clone(),
            source,
        })?;
    let members = value
        .get("workspace")
        .and_then(|workspace| workspace.get("members"))
        .and_then(toml::Value::as_array)
        .ok_or_else(|| XtaskError::Invalid {
            path: manifest.clone(),
            message: "no `workspace.members` list".to_string(),
        })?;
    members
        .iter()
        .map(|member| {
            member
                .as_str()
                .map(|member| root.join(member))
                .ok_or_else(|| XtaskError::Invalid {
                    path: manifest.clone(),
                    message: "`workspace.members` holds a value that is not a string".to_string(),
                })
        })
        .collect()
}

/// The packages a manifest's `table` depends on (a renamed dependency by its `package`).
fn dependency_packages(manifest: &toml::Value, table: &str) -> BTreeSet<String> {
    let Some(entries) = manifest.get(table).and_then(toml::Value::as_table) else {
        return BTreeSet::new();
    };
    entries
        .iter()
        .map(|(key, spec)| {
            spec.get("package")
                .and_then(toml::Value::as_str)
                .unwrap_or(key)
                .to_string()
        })
        .collect()
}

/// `pub mod NAME` declarations of a file's top level, with their lines.
fn public_modules(source: &str) -> Vec<(String, usize)> {
    let stream = TokenStream::new(source);
    let tokens = &stream.tokens;
    let mut found = Vec::new();
    let mut depth = 0usize;
    for (index, token) in tokens.iter().enumerate() {
        match &token.kind {
            TokenKind::Open(_) => depth += 1,
            TokenKind::Close(_) => depth = depth.saturating_sub(1),
            TokenKind::Ident(ident) if ident == "pub" && depth == 0 => {
                if let (Some(keyword), Some(name)) = (tokens.get(index + 1), tokens.get(index + 2))
                    && keyword.is_ident("mod")
                    && let TokenKind::Ident(name) = &name.kind
                {
                    found.push((name.clone(), token.line));
                }
            }
            TokenKind::Ident(_) | TokenKind::Str(_) | TokenKind::Punct(_) | TokenKind::Other => {}
        }
    }
    found
}

/// Lines of the module tree rooted at `file`, without `#[cfg(test)]` items and the module
/// files they load.
fn non_test_lines(file: &Path) -> Result<usize, XtaskError> {
    let source = read(file)?;
    let scan = scan_items(&source);
    let mut lines = source.lines().count() - scan.test_lines;
    for module in scan.modules {
        let path = module_path(file, &module);
        lines += non_test_lines(&path)?;
    }
    Ok(lines)
}

/// A `mod NAME;` declaration outside tests, with its `#[path]` when it has one.
#[derive(Debug, Clone, PartialEq, Eq)]
struct ModuleFile {
    name: String,
    path_attribute: Option<String>,
    /// Inline modules enclosing the declaration (`mod a { mod b; }` puts `b` under `a/`).
    enclosing: Vec<String>,
}

#[derive(Debug, Default)]
struct ItemScan {
    modules: Vec<ModuleFile>,
    test_lines: usize,
}

/// Finds the out-of-line modules a file declares outside tests, and how many of its lines
/// belong to `#[cfg(test)]` items.
fn scan_items(source: &str) -> ItemScan {
    let stream = TokenStream::new(source);
    let mut scan = ItemScan::default();
    let mut excluded: BTreeSet<usize> = BTreeSet::new();
    let mut enclosing: Vec<(String, usize)> = Vec::new();
    let mut index = 0;
    let mut cfg_test = false;
    let mut path_attribute = None;
    let mut item_start = None;
    while let Some(token) = stream.get(index) {
        while enclosing.last().is_some_and(|(_, close)| *close <= index) {
            enclosing.pop();
        }
        if token.is_punct("#")
            && let Some(open) = stream.get(index + 1)
            && open.kind == TokenKind::Open('[')
        {
            let close = stream.closing(index + 1).unwrap_or(stream.tokens.len());
            let inner = &stream.tokens[index + 2..close.min(stream.tokens.len())];
            if is_cfg_test(inner) {
                cfg_test = true;
            }
            if let [name, eq, value] = inner
                && name.is_ident("path")
                && eq.is_punct("=")
                && let Some(value) = value.str_value()
            {
                path_attribute = Some(value.to_string());
            }
            item_start.get_or_insert(token.line);
            index = close + 1;
            continue;
        }
        let starts_item = matches!(token.kind, TokenKind::Ident(_));
        if !starts_item {
            cfg_test = false;
            path_attribute = None;
            item_start = None;
            index += 1;
            continue;
        }
        let start_line = item_start.take().unwrap_or(token.line);
        let end = item_end(&stream, index);
        if cfg_test {
            let end_line = stream.get(end).map_or(token.line, |token| token.line);
            excluded.extend(start_line..=end_line);
        } else if let Some(name) = declared_module(&stream, index) {
            match stream.get(end).map(|token| &token.kind) {
                Some(TokenKind::Punct(punct)) if punct == ";" => {
                    scan.modules.push(ModuleFile {
                        name,
                        path_attribute: path_attribute.clone(),
                        enclosing: enclosing.iter().map(|(name, _)| name.clone()).collect(),
                    });
                }
                _ => {
                    // An inline module: its items are scanned in place.
                    let open = stream
                        .tokens
                        .iter()
                        .enumerate()
                        .skip(index)
                        .find(|(_, token)| token.kind == TokenKind::Open('{'))
                        .map(|(open, _)| open);
                    if let Some(open) = open {
                        enclosing.push((name, end));
                        cfg_test = false;
                        path_attribute = None;
                        index = open + 1;
                        continue;
                    }
                }
            }
        }
        cfg_test = false;
        path_attribute = None;
        index = end + 1;
    }
    scan.test_lines = excluded.len();
    scan
}

/// Whether an attribute's tokens (between `#[` and `]`) are `cfg(test)`.
fn is_cfg_test(inner: &[crate::rust_tokens::Token]) -> bool {
    matches!(inner, [cfg, open, test, close]
        if cfg.is_ident("cfg")
            && open.kind == TokenKind::Open('(')
            && test.is_ident("test")
            && close.kind == TokenKind::Close(')'))
}

/// The name of the module an item starting at `index` declares (`pub(crate) mod x`, `mod x`).
fn declared_module(stream: &TokenStream, index: usize) -> Option<String> {
    let mut cursor = index;
    if stream.get(cursor)?.is_ident("pub") {
        cursor += 1;
        if stream.get(cursor)?.kind == TokenKind::Open('(') {
            cursor = stream.closing(cursor)? + 1;
        }
    }
    if !stream.get(cursor)?.is_ident("mod") {
        return None;
    }
    match &stream.get(cursor + 1)?.kind {
        TokenKind::Ident(name) => Some(name.clone()),
        TokenKind::Str(_)
        | TokenKind::Punct(_)
        | TokenKind::Open(_)
        | TokenKind::Close(_)
        | TokenKind::Other => None,
    }
}

/// The index of the token ending the item that starts at `index`: its `;` or the brace closing
/// its body (a `{…}` group at the item's top level).
fn item_end(stream: &TokenStream, index: usize) -> usize {
    let mut cursor = index;
    while let Some(token) = stream.get(cursor) {
        match &token.kind {
            TokenKind::Punct(punct) if punct == ";" => return cursor,
            TokenKind::Open('{') => return stream.closing(cursor).unwrap_or(stream.tokens.len()),
            TokenKind::Open(_) => {
                cursor = stream.closing(cursor).unwrap_or(stream.tokens.len()) + 1;
            }
            TokenKind::Close(_) => return cursor,
            TokenKind::Ident(_) | TokenKind::Str(_) | TokenKind::Punct(_) | TokenKind::Other => {
                cursor += 1;
            }
        }
    }
    stream.tokens.len().saturating_sub(1)
}

/// Where the file of `module`, declared in `parent`, lives (Rust's module path rules).
fn module_path(parent: &Path, module: &ModuleFile) -> PathBuf {
    let dir = parent.parent().unwrap_or(Path::new("."));
    let owns_dir = matches!(
        parent.file_name().and_then(|name| name.to_str()),
        Some("lib.rs" | "main.rs" | "mod.rs")
    );
    let mut base = if owns_dir {
        dir.to_path_buf()
    } else {
        let stem = parent
            .file_stem()
            .and_then(|stem| stem.to_str())
            .unwrap_or_default();
        dir.join(stem)
    };
    if let Some(path) = &module.path_attribute {
        if module.enclosing.is_empty() {
            return dir.join(path);
        }
        for name in &module.enclosing {
            base.push(name);
        }
        return base.join(path);
    }
    for name in &module.enclosing {
        base.push(name);
    }
    let flat = base.join(format!("{}.rs", module.name));
    if flat.exists() {
        flat
    } else {
        base.join(&module.name).join("mod.rs")
    }
}

#[cfg(test)]
#[path = "architecture_tests.rs"]
mod tests;
