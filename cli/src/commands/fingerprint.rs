//! `codex-context fingerprint`: the world-state fingerprint of one rendered fragment.

use std::path::PathBuf;

use codex_context_fragments::fingerprint;
use codex_fragments::fragment_roles;

use crate::input;

/// Print a rendered fragment's fingerprint
///
/// 40 lowercase hex digits over the message role and the fragment's full rendered text (markers
/// included); CRLF line breaks hash like LF.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("fragment").required(true).args(["text", "file"])))]
pub struct FingerprintArgs {
    /// Role of the message that carries the fragment: a role some fragment type is sent under.
    #[arg(
        long,
        value_name = "ROLE",
        help = format!(
            "Role of the message that carries the fragment: one of {}",
            fragment_roles().join(", ")
        )
    )]
    pub role: String,

    /// The rendered fragment text.
    #[arg(long, value_name = "TEXT")]
    pub text: Option<String>,

    /// File holding the rendered fragment text, used byte for byte (`-` for standard input).
    #[arg(long, value_name = "FILE")]
    pub file: Option<PathBuf>,
}

pub fn run(args: &FingerprintArgs) -> anyhow::Result<String> {
    // Checked here rather than by clap so that a bad value is a one-line error like the others.
    let roles = fragment_roles();
    if !roles.contains(&args.role.as_str()) {
        anyhow::bail!(
            "invalid --role: unknown role `{}` (expected one of: {})",
            args.role,
            roles.join(", ")
        );
    }
    let text = match (&args.text, &args.file) {
        (Some(text), _) => text.clone(),
        (None, Some(path)) => input::read_text(path)?,
        // The required argument group rules this out; kept as an error rather than a panic.
        (None, None) => anyhow::bail!("one of --text or --file is required"),
    };
    Ok(fingerprint(&args.role, &text) + "\n")
}
