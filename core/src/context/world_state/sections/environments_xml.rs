//! The XML of the `<environment_context>` block: the body layout of the `environments`
//! section and the `<network>` / `<filesystem>` elements it carries.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::environments::EnvironmentSnapshot;
use super::environments::EnvironmentsSnapshot;
use crate::turn_context::EnvironmentStatus;
use crate::turn_context::NetworkContext;

/// Escapes text for XML element content and attribute values.
pub(crate) fn push_xml_escaped(out: &mut String, text: &str) {
    for character in text.chars() {
        match character {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            other => out.push(other),
        }
    }
}

/// `<name>escaped value</name>`.
fn push_element(out: &mut String, name: &str, value: &str) {
    out.push('<');
    out.push_str(name);
    out.push('>');
    push_xml_escaped(out, value);
    out.push_str("</");
    out.push_str(name);
    out.push('>');
}

// Rendered here, next to the rest of the `<environment_context>` XML.
impl NetworkContext {
    pub fn render(&self) -> String {
        let mut out = String::from("<network enabled=\"true\">");
        for (name, domains) in [("allowed", &self.allowed), ("denied", &self.denied)] {
            if !domains.is_empty() {
                push_element(&mut out, name, &domains.join(","));
            }
        }
        out.push_str("</network>");
        out
    }
}

/// The workspace roots and the permission profile, rendered on one line as
/// `<filesystem>[<workspace_roots>…</workspace_roots>]<permission_profile …>…</permission_profile></filesystem>`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FilesystemContext {
    /// Native path strings; the element is left out when there are none.
    #[serde(default)]
    pub workspace_roots: Vec<String>,
    pub permission_profile: PermissionProfileContext,
}

/// The kind of permission profile in force (`type` attribute).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum PermissionProfileContext {
    /// Codex enforces the filesystem policy itself.
    Managed { file_system: FileSystemPolicy },
    /// No sandbox: everything is reachable.
    Disabled,
    /// An outside sandbox decides.
    External,
}

/// The filesystem part of a managed profile.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum FileSystemPolicy {
    Restricted {
        #[serde(default)]
        entries: Vec<FileSystemEntry>,
        /// How deep glob entries are expanded when scanning.
        #[serde(default)]
        glob_scan_max_depth: Option<u32>,
    },
    Unrestricted,
}

/// One filesystem rule: `{"access": "deny", "escalatable": false, "path": "/x"}`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct FileSystemEntry {
    pub access: FileSystemAccess,
    /// Whether the model may ask to lift the rule; rendered only when given.
    #[serde(default)]
    pub escalatable: Option<bool>,
    #[serde(flatten)]
    pub target: FileSystemTarget,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileSystemAccess {
    Read,
    Write,
    Deny,
}

/// What a rule applies to: a path, a glob, or a special location such as `:root`,
/// `:minimal`, `:workspace_roots[/sub]`, `:tmpdir` or `:slash_tmp`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileSystemTarget {
    Path(String),
    Glob(String),
    Special(String),
}

impl FilesystemContext {
    pub fn render(&self) -> String {
        let mut out = String::from("<filesystem>");
        if !self.workspace_roots.is_empty() {
            out.push_str("<workspace_roots>");
            for root in &self.workspace_roots {
                push_element(&mut out, "root", root);
            }
            out.push_str("</workspace_roots>");
        }
        let profile_type = match &self.permission_profile {
            PermissionProfileContext::Managed { .. } => "managed",
            PermissionProfileContext::Disabled => "disabled",
            PermissionProfileContext::External => "external",
        };
        out.push_str("<permission_profile type=\"");
        out.push_str(profile_type);
        out.push_str("\">");
        match &self.permission_profile {
            PermissionProfileContext::Managed {
                file_system:
                    FileSystemPolicy::Restricted {
                        entries,
                        glob_scan_max_depth,
                    },
            } => {
                out.push_str("<file_system type=\"restricted\"");
                if let Some(depth) = glob_scan_max_depth {
                    out.push_str(&format!(" glob_scan_max_depth=\"{depth}\""));
                }
                out.push('>');
                for entry in entries {
                    push_entry(&mut out, entry);
                }
                out.push_str("</file_system>");
            }
            PermissionProfileContext::Managed {
                file_system: FileSystemPolicy::Unrestricted,
            }
            | PermissionProfileContext::Disabled => {
                out.push_str("<file_system type=\"unrestricted\" />");
            }
            PermissionProfileContext::External => {
                out.push_str("<file_system type=\"external\" />");
            }
        }
        out.push_str("</permission_profile></filesystem>");
        out
    }
}

fn push_entry(out: &mut String, entry: &FileSystemEntry) {
    let access = match entry.access {
        FileSystemAccess::Read => "read",
        FileSystemAccess::Write => "write",
        FileSystemAccess::Deny => "deny",
    };
    out.push_str("<entry access=\"");
    out.push_str(access);
    out.push('"');
    if let Some(escalatable) = entry.escalatable {
        out.push_str(&format!(" escalatable=\"{escalatable}\""));
    }
    out.push('>');
    match &entry.target {
        FileSystemTarget::Path(path) => push_element(out, "path", path),
        FileSystemTarget::Glob(glob) => push_element(out, "glob", glob),
        FileSystemTarget::Special(special) => push_element(out, "special", special),
    }
    out.push_str("</entry>");
}

/// What the model is told about one environment.
pub(super) enum EnvironmentUpdate<'a> {
    Current {
        environment: &'a EnvironmentSnapshot,
        /// Whether this is the first selected environment (a lone environment is primary).
        primary: bool,
    },
    /// Was selected before and is gone now.
    Unavailable,
}

/// How environments are presented.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum EnvironmentsLayout {
    /// One available environment: `<cwd>` and `<shell>` directly under the root, as before
    /// multiple environments existed.
    Flat,
    /// An `<environments>` list without `primary` attributes (never more than one environment
    /// on either side).
    Listed,
    /// An `<environments>` list whose entries say whether they are primary.
    ListedWithPrimary,
}

/// The body between the `<environment_context>` markers.
pub(super) struct EnvironmentsBody<'a> {
    pub layout: EnvironmentsLayout,
    /// Environments to restate, by ID.
    pub updates: &'a BTreeMap<&'a str, EnvironmentUpdate<'a>>,
    /// Current values of the date, timezone, network, filesystem and sub-agents.
    pub snapshot: &'a EnvironmentsSnapshot,
}

const ROOT_INDENT: &str = "  ";
const ENVIRONMENT_INDENT: &str = "      ";

impl EnvironmentsBody<'_> {
    pub fn render(&self) -> String {
        let mut out = String::from("\n");
        match self.layout {
            EnvironmentsLayout::Flat => {
                for update in self.updates.values() {
                    if let EnvironmentUpdate::Current { environment, .. } = update {
                        push_environment_values(&mut out, environment, ROOT_INDENT);
                    }
                }
            }
            EnvironmentsLayout::Listed | EnvironmentsLayout::ListedWithPrimary
                if !self.updates.is_empty() =>
            {
                out.push_str("  <environments>\n");
                for (id, update) in self.updates {
                    self.push_listed_environment(&mut out, id, update);
                }
                out.push_str("  </environments>\n");
            }
            EnvironmentsLayout::Listed | EnvironmentsLayout::ListedWithPrimary => {}
        }
        let snapshot = self.snapshot;
        for (name, value) in [
            ("current_date", &snapshot.current_date),
            ("timezone", &snapshot.timezone),
        ] {
            if let Some(value) = value {
                out.push_str(ROOT_INDENT);
                push_element(&mut out, name, value);
                out.push('\n');
            }
        }
        for rendered in [&snapshot.network, &snapshot.filesystem]
            .into_iter()
            .flatten()
        {
            out.push_str(ROOT_INDENT);
            out.push_str(rendered);
            out.push('\n');
        }
        if let Some(subagents) = &snapshot.subagents {
            out.push_str("  <subagents>\n");
            for line in subagents.lines() {
                out.push_str("    ");
                out.push_str(line);
                out.push('\n');
            }
            out.push_str("  </subagents>\n");
        }
        out
    }

    fn push_listed_environment(&self, out: &mut String, id: &str, update: &EnvironmentUpdate<'_>) {
        out.push_str("    <environment id=\"");
        push_xml_escaped(out, id);
        out.push('"');
        match update {
            EnvironmentUpdate::Current {
                environment,
                primary,
            } => {
                match self.layout {
                    EnvironmentsLayout::ListedWithPrimary => {
                        out.push_str(&format!(" primary=\"{primary}\""));
                    }
                    EnvironmentsLayout::Flat | EnvironmentsLayout::Listed => {}
                }
                out.push_str(">\n");
                push_environment_values(out, environment, ENVIRONMENT_INDENT);
                out.push_str("    </environment>\n");
            }
            EnvironmentUpdate::Unavailable => out.push_str(" status=\"unavailable\" />\n"),
        }
    }
}

fn push_environment_values(out: &mut String, environment: &EnvironmentSnapshot, indent: &str) {
    out.push_str(indent);
    push_element(out, "cwd", &environment.cwd);
    out.push('\n');
    match environment.status {
        EnvironmentStatus::Starting => {
            out.push_str(indent);
            out.push_str("<status>starting</status>\n");
        }
        EnvironmentStatus::Available => {}
    }
    if let Some(shell) = &environment.shell {
        out.push_str(indent);
        push_element(out, "shell", shell);
        out.push('\n');
    }
}
