//! Files the commands write: never one of their inputs, never an existing file unless the
//! command replaces files on request (`--force`).

use std::path::Path;

use codex_utils_fs::Existing;
use codex_utils_fs::WriteError;
use codex_utils_fs::check_destination;
use codex_utils_fs::same_file;

/// Whether a flag's output may replace an existing file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replacing {
    /// Only with `--force` (`force` says whether it was given).
    WithForce { force: bool },
    /// Never: the flag names a new file.
    Never,
}

impl Replacing {
    pub fn existing(self) -> Existing {
        match self {
            Self::WithForce { force: true } => Existing::Replace,
            Self::WithForce { force: false } | Self::Never => Existing::Refuse,
        }
    }
}

/// Refuses, before any work is done, an output `path` given as `flag` that is one of
/// `inputs` (what each is, and its path) or that would replace a file `replacing` does not
/// allow to replace. The write itself checks again when it puts the file in place.
pub fn check_output(
    flag: &str,
    path: &Path,
    inputs: &[(&str, &Path)],
    replacing: Replacing,
) -> anyhow::Result<()> {
    if let Some((what, _)) = inputs.iter().find(|(_, input)| same_file(path, input)) {
        anyhow::bail!(
            "{flag} {}: that is {what} this command reads; name another file",
            path.display()
        );
    }
    match check_destination(path, replacing.existing()) {
        Ok(()) => Ok(()),
        Err(WriteError::Exists { .. }) => match replacing {
            Replacing::WithForce { .. } => anyhow::bail!(
                "{flag} {}: the file exists; pass --force to replace it",
                path.display()
            ),
            Replacing::Never => anyhow::bail!(
                "{flag} {}: the file exists; name a new file",
                path.display()
            ),
        },
        Err(error) => Err(anyhow::Error::new(error).context(format!("{flag} {}", path.display()))),
    }
}
