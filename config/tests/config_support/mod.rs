//! Helpers shared by the configuration test files.
#![allow(dead_code)]

use std::path::Path;
use std::path::PathBuf;

use codex_config::CliOverride;
use codex_config::Config;
use codex_config::ConfigEnv;
use codex_config::ConfigError;
use codex_config::ConfigOverrides;

/// A fixed environment: no `$CODEX_HOME`, `$TZ` or `$SHELL`; the system zone
/// is UTC and the clock reads 2026-02-26T20:00:00Z.
pub fn fixed_env(home: &Path, cwd: &Path) -> ConfigEnv {
    ConfigEnv {
        codex_home: None,
        home_dir: Some(home.to_path_buf()),
        current_dir: Some(cwd.to_path_buf()),
        shell: None,
        tz: None,
        system_timezone: Some("UTC".to_string()),
        now: "2026-02-26T20:00:00Z".parse().unwrap(),
    }
}

/// A temporary `$HOME` with `.codex/config.toml` holding `text`, and a cwd.
pub struct Fixture {
    pub home: tempfile::TempDir,
    pub cwd: tempfile::TempDir,
}

impl Fixture {
    pub fn new(config_toml: Option<&str>) -> Self {
        let fixture = Self {
            home: tempfile::tempdir().unwrap(),
            cwd: tempfile::tempdir().unwrap(),
        };
        std::fs::create_dir_all(fixture.codex_home()).unwrap();
        if let Some(text) = config_toml {
            std::fs::write(fixture.config_path(), text).unwrap();
        }
        fixture
    }

    pub fn codex_home(&self) -> PathBuf {
        self.home.path().join(".codex")
    }

    pub fn config_path(&self) -> PathBuf {
        self.codex_home().join("config.toml")
    }

    pub fn env(&self) -> ConfigEnv {
        fixed_env(self.home.path(), self.cwd.path())
    }

    pub fn load(&self) -> Result<Config, ConfigError> {
        self.load_with(&ConfigOverrides::default(), &[])
    }

    pub fn load_with(&self, flags: &ConfigOverrides, cli: &[&str]) -> Result<Config, ConfigError> {
        let cli: Vec<CliOverride> = cli.iter().map(|raw| raw.parse().unwrap()).collect();
        Config::load(flags, &cli, &self.env())
    }
}
