//! The supported releases, their names and how they are parsed.

use std::fmt;
use std::str::FromStr;

use crate::profile::ReleaseProfile;

/// A release of the Codex CLI whose model-visible behaviour this project reproduces. Ordered
/// oldest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum CodexRelease {
    /// 0.149.1, the release nearest the reference commit (the captured upstream scenarios).
    V0_149,
    /// 0.171.0, the latest supported release.
    #[default]
    V0_171,
}

/// A `codex_version` value that names no supported release.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown Codex release `{given}` (supported: {})",
    CodexRelease::supported_names()
)]
pub struct ReleaseParseError {
    pub given: String,
}

impl CodexRelease {
    /// Every supported release, oldest first.
    pub const ALL: [CodexRelease; 2] = [Self::V0_149, Self::V0_171];

    /// The newest supported release: the default.
    pub const LATEST: CodexRelease = Self::V0_171;

    /// The release nearest the reference commit: what upstream's core does as its own test
    /// harness drives it (the captured scenarios), and what a rollout that names no release
    /// was written by.
    pub const REFERENCE: CodexRelease = Self::V0_149;

    /// The name `codex_version` and `--codex-version` take (`0.149`).
    pub const fn name(self) -> &'static str {
        match self {
            Self::V0_149 => "0.149",
            Self::V0_171 => "0.171",
        }
    }

    /// The exact version the release's behaviour was observed on (`0.149.1`): what its rollouts
    /// record as `cli_version`, and what this project records when it writes as that release.
    pub const fn observed_version(self) -> &'static str {
        match self {
            Self::V0_149 => "0.149.1",
            Self::V0_171 => "0.171.0",
        }
    }

    /// The release's profile: every behaviour that differs between releases.
    pub fn profile(self) -> &'static ReleaseProfile {
        match self {
            Self::V0_149 => &crate::profile::V0_149,
            Self::V0_171 => &crate::profile::V0_171,
        }
    }

    /// The names, as an error message lists them.
    pub fn supported_names() -> String {
        Self::ALL
            .iter()
            .map(|release| format!("`{}`", release.name()))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Whether `version` is older than the oldest supported release.
    pub fn predates_every_release(version: &str) -> bool {
        match (
            major_minor(version),
            major_minor(Self::ALL[0].observed_version()),
        ) {
            (Some(given), Some(oldest)) => given < oldest,
            (None, _) | (_, None) => false,
        }
    }

    /// The supported release that a CLI version (`0.171.0`, `0.160.2-alpha.1`) behaves like:
    /// the newest supported release not newer than it, or the oldest one for anything older.
    /// `None` when `version` is not a version number.
    pub fn of_cli_version(version: &str) -> Option<CodexRelease> {
        let (major, minor) = major_minor(version)?;
        Some(
            Self::ALL
                .into_iter()
                .rev()
                .find(|release| {
                    major_minor(release.observed_version()).is_some_and(|own| own <= (major, minor))
                })
                .unwrap_or(Self::ALL[0]),
        )
    }
}

/// `0.171` of `0.171.0-alpha.2`.
fn major_minor(version: &str) -> Option<(u64, u64)> {
    let mut parts = version.trim().trim_start_matches('v').split('.');
    let major = parts.next()?.parse().ok()?;
    let minor_part = parts.next()?;
    let digits: String = minor_part
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    Some((major, digits.parse().ok()?))
}

impl FromStr for CodexRelease {
    type Err = ReleaseParseError;

    /// `0.171`, or a full version of a supported release line (`0.171.0`).
    fn from_str(value: &str) -> Result<Self, Self::Err> {
        let error = || ReleaseParseError {
            given: value.to_string(),
        };
        let (major, minor) = major_minor(value).ok_or_else(error)?;
        Self::ALL
            .into_iter()
            .find(|release| major_minor(release.name()) == Some((major, minor)))
            .ok_or_else(error)
    }
}

impl fmt::Display for CodexRelease {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Serialised as its name (`"0.171"`), as config.toml writes it.
impl serde::Serialize for CodexRelease {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// Read from a name or a full version; anything else is an error listing the supported names.
impl<'de> serde::Deserialize<'de> for CodexRelease {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn names_and_full_versions_parse() {
        for release in CodexRelease::ALL {
            assert_eq!(release.name().parse::<CodexRelease>(), Ok(release));
            assert_eq!(
                release.observed_version().parse::<CodexRelease>(),
                Ok(release)
            );
            assert_eq!(release.to_string(), release.name());
        }
        assert_eq!("0.171.3".parse::<CodexRelease>(), Ok(CodexRelease::V0_171));
    }

    #[test]
    fn unsupported_lines_are_refused_with_the_supported_names() {
        let error = "0.160".parse::<CodexRelease>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown Codex release `0.160` (supported: `0.149`, `0.171`)"
        );
        assert!("latest".parse::<CodexRelease>().is_err());
    }

    #[test]
    fn cli_versions_map_to_the_newest_release_not_newer() {
        let cases = [
            ("0.149.1", Some(CodexRelease::V0_149)),
            ("0.120.0", Some(CodexRelease::V0_149)),
            ("0.165.0-alpha.3", Some(CodexRelease::V0_149)),
            ("0.171.0", Some(CodexRelease::V0_171)),
            ("0.190.0", Some(CodexRelease::V0_171)),
            ("1.0.0", Some(CodexRelease::V0_171)),
            ("dev", None),
        ];
        for (version, expected) in cases {
            assert_eq!(CodexRelease::of_cli_version(version), expected, "{version}");
        }
    }

    #[test]
    fn the_default_is_the_latest_release() {
        assert_eq!(CodexRelease::default(), CodexRelease::LATEST);
        assert_eq!(CodexRelease::ALL.last(), Some(&CodexRelease::LATEST));
    }
}
