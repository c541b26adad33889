//! The process environment configuration may fall back on, made injectable so
//! that loading is deterministic under test.

use std::path::Path;
use std::path::PathBuf;

use super::ConfigWarning;

/// Fallback shell name when neither config nor `$SHELL` names one.
pub const DEFAULT_SHELL: &str = "bash";
/// Fallback time zone when neither config, `$TZ` nor the system names one.
pub const DEFAULT_TIMEZONE: &str = "UTC";

/// Everything configuration reads from outside its files and flags.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigEnv {
    /// `$CODEX_HOME`.
    pub codex_home: Option<PathBuf>,
    /// `$HOME` (or the platform's home directory).
    pub home_dir: Option<PathBuf>,
    /// The process working directory.
    pub current_dir: Option<PathBuf>,
    /// `$SHELL`.
    pub shell: Option<String>,
    /// `$TZ`.
    pub tz: Option<String>,
    /// IANA name of the system time zone, when it has one.
    pub system_timezone: Option<String>,
    /// The moment "today" is computed from.
    pub now: jiff::Timestamp,
}

impl ConfigEnv {
    /// Reads the real process environment and clock.
    pub fn from_process() -> Self {
        let var = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty());
        Self {
            codex_home: var("CODEX_HOME").map(PathBuf::from),
            home_dir: var("HOME")
                .or_else(|| var("USERPROFILE"))
                .map(PathBuf::from),
            current_dir: std::env::current_dir().ok(),
            shell: var("SHELL").map(|shell| shell.to_string_lossy().into_owned()),
            tz: var("TZ").map(|tz| tz.to_string_lossy().into_owned()),
            system_timezone: jiff::tz::TimeZone::try_system()
                .ok()
                .and_then(|zone| zone.iana_name().map(String::from)),
            now: jiff::Timestamp::now(),
        }
    }

    /// The shell name: the pinned one, else the file name of `$SHELL`.
    pub(crate) fn resolve_shell(&self, pinned: Option<String>) -> String {
        pinned
            .or_else(|| {
                self.shell.as_deref().and_then(|shell| {
                    Path::new(shell)
                        .file_name()
                        .map(|name| name.to_string_lossy().into_owned())
                })
            })
            .unwrap_or_else(|| DEFAULT_SHELL.to_string())
    }

    /// The time zone name: the pinned one, else `$TZ` (a zone name, or a path
    /// into a zoneinfo directory), else the system zone, else UTC.
    pub(crate) fn resolve_timezone(&self, pinned: Option<String>) -> String {
        pinned
            .or_else(|| {
                let tz = self.tz.as_deref()?;
                let tz = tz.strip_prefix(':').unwrap_or(tz);
                let name = match tz.split_once("zoneinfo/") {
                    Some((_, name)) => name,
                    None => tz,
                };
                (!name.is_empty() && !name.starts_with('/')).then(|| name.to_string())
            })
            .or_else(|| self.system_timezone.clone())
            .unwrap_or_else(|| DEFAULT_TIMEZONE.to_string())
    }

    /// Today's date in `timezone`. An unknown zone yields the UTC date plus a
    /// warning; the caller rejects unknown pinned zones before getting here.
    pub(crate) fn today_in(&self, timezone: &str, warnings: &mut Vec<ConfigWarning>) -> String {
        let zone = jiff::tz::TimeZone::get(timezone).unwrap_or_else(|_| {
            warnings.push(ConfigWarning::UnknownSystemTimezone {
                name: timezone.to_string(),
            });
            jiff::tz::TimeZone::UTC
        });
        self.now.to_zoned(zone).date().to_string()
    }
}
