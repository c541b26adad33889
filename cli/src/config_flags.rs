//! Flags that feed configuration, parsed the same way by every command: a bad value is a
//! one-line error naming the flag, and configuration warnings go to stderr once.

use std::str::FromStr;

use anyhow::Context;
use codex_config::CliOverride;
use codex_config::Config;
use codex_config::ConfigEnv;
use codex_config::ConfigOverrides;
use codex_config::ExtensionHost;
use codex_protocol::Personality;
use tracing::warn;

/// `--personality`, parsed here rather than by clap so that a bad value is reported like the
/// others.
pub fn personality_flag(value: Option<&str>) -> anyhow::Result<Option<Personality>> {
    value
        .map(Personality::from_str)
        .transpose()
        .context("invalid --personality")
}

/// Configuration from config.toml, the `-c key=value` overrides and the command's flags, in
/// the CLI's host (which installs the skills extension like the released CLI); its warnings
/// are logged.
pub fn load_config(flags: &ConfigOverrides, config_overrides: &[String]) -> anyhow::Result<Config> {
    let cli_overrides = config_overrides
        .iter()
        .map(|raw| CliOverride::from_str(raw))
        .collect::<Result<Vec<_>, _>>()?;
    let flags = ConfigOverrides {
        extension_host: ExtensionHost::Cli,
        ..flags.clone()
    };
    let config = Config::load(&flags, &cli_overrides, &ConfigEnv::from_process())?;
    for warning in &config.warnings {
        warn!("{warning}");
    }
    Ok(config)
}
