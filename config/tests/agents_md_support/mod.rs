//! Helpers shared by the AGENTS.md test files.
#![allow(dead_code)]

use std::io;
use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;

use codex_config::AgentsMdDiscovery;
use codex_config::AgentsMdFileSystem;
use codex_config::AgentsMdRequest;
use codex_config::EntryKind;
use codex_config::LocalFileSystem;
use codex_config::ProjectDocOptions;
use codex_config::discover_agents_md;

/// Writes `contents` to `path`, creating parent directories.
pub fn write(path: &Path, contents: impl AsRef<[u8]>) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(path, contents).unwrap();
}

pub fn local_fs() -> Arc<dyn AgentsMdFileSystem> {
    Arc::new(LocalFileSystem)
}

pub fn options_with_limit(max_bytes: usize) -> ProjectDocOptions {
    ProjectDocOptions {
        max_bytes,
        ..ProjectDocOptions::default()
    }
}

/// One primary environment at `cwd`; global files read from `codex_home`.
pub fn request(codex_home: &Path, cwd: &Path, options: ProjectDocOptions) -> AgentsMdRequest {
    AgentsMdRequest {
        options,
        ..AgentsMdRequest::for_cwd(Some(codex_home.to_path_buf()), cwd)
    }
}

pub async fn discover(request: &AgentsMdRequest) -> AgentsMdDiscovery {
    discover_agents_md(request, local_fs())
        .await
        .expect("no profile denies a read")
}

/// Instructions text for `cwd` with an empty CODEX_HOME.
pub async fn instructions_for(cwd: &Path, options: ProjectDocOptions) -> Option<String> {
    let home = tempfile::tempdir().unwrap();
    discover(&request(home.path(), cwd, options)).await.text()
}

#[derive(Clone, Copy, Debug)]
pub enum InjectedFailure {
    Metadata(io::ErrorKind),
    Read(io::ErrorKind),
}

/// The local filesystem, except that one path fails the way it is told to.
pub struct FailingFileSystem {
    pub path: PathBuf,
    pub failure: InjectedFailure,
}

impl AgentsMdFileSystem for FailingFileSystem {
    fn entry_kind(&self, path: &Path) -> io::Result<EntryKind> {
        if let InjectedFailure::Metadata(kind) = self.failure
            && path == self.path
        {
            return Err(io::Error::new(kind, "injected metadata failure"));
        }
        LocalFileSystem.entry_kind(path)
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        if let InjectedFailure::Read(kind) = self.failure
            && path == self.path
        {
            return Err(io::Error::new(kind, "injected read failure"));
        }
        LocalFileSystem.read(path)
    }
}
