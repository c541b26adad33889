//! Reading input files named on the command line; `-` names standard input.

use std::io::Read;
use std::path::Path;

use anyhow::Context;

/// The path that stands for standard input.
pub const STDIN_PATH: &str = "-";

/// How an input path is named in error messages.
pub fn describe(path: &Path) -> String {
    if path == Path::new(STDIN_PATH) {
        "standard input".to_string()
    } else {
        path.display().to_string()
    }
}

/// The whole input as UTF-8 text, from the file or, for `-`, from standard input.
pub fn read_text(path: &Path) -> anyhow::Result<String> {
    let bytes = if path == Path::new(STDIN_PATH) {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .context("cannot read standard input")?;
        bytes
    } else {
        codex_utils_fs::read_regular(path)
            .with_context(|| format!("cannot read {}", path.display()))?
    };
    String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("{} is not valid UTF-8", describe(path)))
}

/// The input parsed as one JSON document. Parse errors carry serde_json's line and column.
pub fn read_json(path: &Path) -> anyhow::Result<serde_json::Value> {
    let text = read_text(path)?;
    serde_json::from_str(&text).with_context(|| format!("invalid JSON in {}", describe(path)))
}
