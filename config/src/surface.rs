//! The front end a thread runs under, and what it imposes on the configuration.

use codex_protocol::AskForApproval;

/// Which front end runs the thread's turns.
///
/// Upstream's headless `codex exec` (and `codex exec resume`) builds its configuration with
/// `approval_policy` forced to `never` as a harness override, which beats config.toml and `-c`
/// (`ConfigOverrides` in `codex-rs/exec/src/lib.rs`): nobody is there to answer an approval
/// request. Upstream lets config.toml's policy through again only when `approvals_reviewer`
/// resolves to `auto_review`; this project does not apply `approvals_reviewer`, so that case
/// does not arise here.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Surface {
    /// An interactive front end: configuration decides the approval policy.
    #[default]
    Interactive,
    /// `codex exec`: every turn runs with approval policy `never`.
    Exec,
}

impl Surface {
    /// The approval policy the surface forces on every turn, if any.
    pub fn approval_policy(self) -> Option<AskForApproval> {
        match self {
            Self::Interactive => None,
            Self::Exec => Some(AskForApproval::Never),
        }
    }

    /// Every surface, in the order messages list them.
    pub const ALL: [Surface; 2] = [Self::Interactive, Self::Exec];

    /// The name `--surface` takes.
    pub fn name(self) -> &'static str {
        match self {
            Self::Interactive => "interactive",
            Self::Exec => "exec",
        }
    }
}

impl std::str::FromStr for Surface {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|surface| surface.name() == name)
            .ok_or_else(|| format!("unknown surface `{name}` (expected `interactive` or `exec`)"))
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn exec_forces_never_and_interactive_forces_nothing() {
        assert_eq!(Surface::Exec.approval_policy(), Some(AskForApproval::Never));
        assert_eq!(Surface::Interactive.approval_policy(), None);
        assert_eq!(Surface::default(), Surface::Interactive);
    }

    #[test]
    fn names_parse_back() {
        for surface in Surface::ALL {
            assert_eq!(surface.name().parse::<Surface>(), Ok(surface));
        }
        assert!("headless".parse::<Surface>().is_err());
    }
}
