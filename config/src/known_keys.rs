//! Which config.toml key paths are valid and what this project does with each: the table in
//! `known_keys.txt` (upstream's schema at the reference plus this project's own keys). A key no
//! line knows draws a warning; a known key never does, whether it is applied or not.

use std::sync::LazyLock;

/// What this project does with a known key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyUse {
    /// An upstream key that is read and applied.
    Read,
    /// An upstream key that is accepted and has no effect here.
    Ignored,
    /// A key of this project's own.
    Ours,
}

/// One row of the table: a dotted path (`*` stands for any one name) and its use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownKey {
    pub path: Vec<&'static str>,
    pub key_use: KeyUse,
}

/// How a key path relates to the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyStatus {
    /// A row names the path.
    Listed(KeyUse),
    /// No row names it but rows name paths under it (`projects."/repo"` of
    /// `projects.*.trust_level`).
    Table,
    /// Nothing in the table: the key draws a warning.
    Unknown,
}

const TABLE_TEXT: &str = include_str!("known_keys.txt");

static TABLE: LazyLock<Vec<KnownKey>> = LazyLock::new(|| {
    TABLE_TEXT
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .filter_map(|line| {
            let (key_use, path) = line.split_once(char::is_whitespace)?;
            let key_use = match key_use {
                "read" => KeyUse::Read,
                "ignored" => KeyUse::Ignored,
                "ours" => KeyUse::Ours,
                _ => return None,
            };
            Some(KnownKey {
                path: path.trim().split('.').collect(),
                key_use,
            })
        })
        .collect()
});

/// Every row of the table, in the file's order.
pub fn known_config_keys() -> &'static [KnownKey] {
    &TABLE
}

fn matches_prefix(pattern: &[&str], path: &[&str]) -> bool {
    pattern.len() >= path.len()
        && pattern
            .iter()
            .zip(path)
            .all(|(pattern, segment)| *pattern == "*" || pattern == segment)
}

/// What the table says about `path` (segments as written, names included).
pub fn config_key_status(path: &[&str]) -> KeyStatus {
    let mut status = KeyStatus::Unknown;
    for key in TABLE.iter() {
        if !matches_prefix(&key.path, path) {
            continue;
        }
        if key.path.len() == path.len() {
            return KeyStatus::Listed(key.key_use);
        }
        status = KeyStatus::Table;
    }
    status
}

/// Whether rows name paths under `path`, so the keys inside its table are checked too.
pub fn config_key_has_children(path: &[&str]) -> bool {
    TABLE
        .iter()
        .any(|key| key.path.len() > path.len() && matches_prefix(&key.path, path))
}
