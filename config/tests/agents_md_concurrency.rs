//! Concurrent ancestor probing must give exactly what a one-by-one walk gives,
//! and never have more than `MAX_CONCURRENT_ANCESTOR_PROBES` probes in flight.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod agents_md_support;

use std::io;
use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering;
use std::time::Duration;

use agents_md_support::FailingFileSystem;
use agents_md_support::InjectedFailure;
use agents_md_support::local_fs;
use agents_md_support::options_with_limit;
use agents_md_support::write;
use codex_config::AgentsMdFileSystem;
use codex_config::AgentsMdWarning;
use codex_config::EntryKind;
use codex_config::LocalFileSystem;
use codex_config::MAX_CONCURRENT_ANCESTOR_PROBES;
use codex_config::ProjectDocOptions;
use codex_config::agents_md_paths;
use pretty_assertions::assert_eq;

/// Docs found and candidates skipped (not inspectable, or not a regular file).
type Walk = (Vec<PathBuf>, Vec<PathBuf>);

/// The upstream algorithm written as the plainest possible sequential walk, except that a
/// candidate that cannot be inspected, or is not a regular file, is skipped rather than fatal.
fn sequential_paths(
    fs: &dyn AgentsMdFileSystem,
    cwd: &Path,
    options: &ProjectDocOptions,
) -> Result<Walk, io::ErrorKind> {
    let mut root = None;
    'ancestors: for ancestor in cwd.ancestors() {
        for marker in &options.project_root_markers {
            match fs.entry_kind(&ancestor.join(marker)) {
                Ok(_) => {
                    root = Some(ancestor.to_path_buf());
                    break 'ancestors;
                }
                Err(error) if error.kind() == io::ErrorKind::NotFound => {}
                Err(error) => return Err(error.kind()),
            }
        }
    }
    let mut dirs: Vec<PathBuf> = Vec::new();
    match root {
        Some(root) => {
            for ancestor in cwd.ancestors() {
                dirs.push(ancestor.to_path_buf());
                if ancestor == root {
                    break;
                }
            }
            dirs.reverse();
        }
        None => dirs.push(cwd.to_path_buf()),
    }
    let mut names = vec!["AGENTS.override.md".to_string(), "AGENTS.md".to_string()];
    for name in &options.fallback_filenames {
        if !name.is_empty() && !names.contains(name) {
            names.push(name.clone());
        }
    }
    let mut found = Vec::new();
    let mut skipped = Vec::new();
    for dir in dirs {
        for name in &names {
            match fs.entry_kind(&dir.join(name)) {
                Ok(EntryKind::File) => {
                    found.push(dir.join(name));
                    break;
                }
                Ok(EntryKind::Directory) => {}
                Err(error) if error.kind() == io::ErrorKind::NotFound => {}
                Ok(EntryKind::Other) | Err(_) => skipped.push(dir.join(name)),
            }
        }
    }
    Ok((found, skipped))
}

async fn concurrent_paths(
    fs: &Arc<dyn AgentsMdFileSystem>,
    cwd: &Path,
    options: &ProjectDocOptions,
) -> Result<Walk, io::ErrorKind> {
    let mut warnings = Vec::new();
    let found = agents_md_paths(cwd, options, fs, &mut warnings)
        .await
        .map_err(|error| error.io_kind().unwrap())?;
    let skipped = warnings
        .into_iter()
        .map(|warning| match warning {
            AgentsMdWarning::ProjectDocSkipped { path, .. } => path,
            other => panic!("unexpected warning: {other}"),
        })
        .collect();
    Ok((found, skipped))
}

/// Counts how many probes run at once; each probe waits a little so that the
/// windows really overlap.
struct CountingFileSystem {
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
    probes: AtomicUsize,
}

impl AgentsMdFileSystem for CountingFileSystem {
    fn entry_kind(&self, path: &Path) -> io::Result<EntryKind> {
        let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        self.max_in_flight.fetch_max(now, Ordering::SeqCst);
        self.probes.fetch_add(1, Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(5));
        let result = LocalFileSystem.entry_kind(path);
        self.in_flight.fetch_sub(1, Ordering::SeqCst);
        result
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        LocalFileSystem.read(path)
    }
}

/// Delays each probe by an amount derived from its path, so probes finish in
/// an order unrelated to the order they were started in.
struct JitterFileSystem;

impl AgentsMdFileSystem for JitterFileSystem {
    fn entry_kind(&self, path: &Path) -> io::Result<EntryKind> {
        let spread = path
            .as_os_str()
            .as_encoded_bytes()
            .iter()
            .fold(7u64, |hash, byte| {
                hash.wrapping_mul(31).wrapping_add(u64::from(*byte))
            });
        std::thread::sleep(Duration::from_micros(spread % 3000));
        LocalFileSystem.entry_kind(path)
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        LocalFileSystem.read(path)
    }
}

fn deep_tree(root: &Path, depth: usize) -> PathBuf {
    let mut cwd = root.to_path_buf();
    for level in 0..depth {
        cwd.push("d");
        if level % 37 == 0 {
            write(&cwd.join("AGENTS.md"), format!("level {level}"));
        }
    }
    std::fs::create_dir_all(&cwd).unwrap();
    cwd
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deep_tree_walk_is_bounded_and_matches_sequential_walk() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join(".git"), "");
    let cwd = deep_tree(tmp.path(), 300);
    let options = options_with_limit(4096);

    let counting = Arc::new(CountingFileSystem {
        in_flight: AtomicUsize::new(0),
        max_in_flight: AtomicUsize::new(0),
        probes: AtomicUsize::new(0),
    });
    let fs: Arc<dyn AgentsMdFileSystem> = counting.clone();
    let concurrent = concurrent_paths(&fs, &cwd, &options).await;
    let sequential = sequential_paths(&LocalFileSystem, &cwd, &options);

    assert_eq!(concurrent, sequential);
    assert_eq!(concurrent.as_ref().map(|(found, _)| found.len()), Ok(9));
    let max = counting.max_in_flight.load(Ordering::SeqCst);
    assert!(max <= MAX_CONCURRENT_ANCESTOR_PROBES, "max in flight {max}");
    assert!(max > 1, "probes never overlapped");
    // The second window of marker probes also covers the ancestors above the
    // root (probed, then ignored); then two candidate names in each of the 301
    // searched directories.
    let above_root = tmp.path().ancestors().count() - 1;
    assert_eq!(
        counting.probes.load(Ordering::SeqCst),
        301 + above_root + 2 * 301
    );
}

/// A tiny deterministic generator so the random trees are the same every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, bound: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % bound
    }
}

fn random_entry(random: &mut Lcg, path: &Path) {
    match random.next(4) {
        0 => write(path, format!("doc at {}", path.display())),
        1 => std::fs::create_dir_all(path).unwrap(),
        _ => {}
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_trees_match_sequential_walk() {
    let marker_sets: [&[&str]; 3] = [&[".git"], &[".hg", ".git"], &[]];
    for seed in 0..40u64 {
        let mut random = Lcg(seed);
        let tmp = tempfile::tempdir().unwrap();
        let depth = 1 + random.next(12) as usize;
        let mut cwd = tmp.path().to_path_buf();
        for level in 0..depth {
            cwd.push(format!("l{level}"));
            std::fs::create_dir_all(&cwd).unwrap();
            if random.next(5) == 0 {
                write(&cwd.join(".git"), "");
            }
            if random.next(7) == 0 {
                std::fs::create_dir_all(cwd.join(".hg")).unwrap();
            }
            random_entry(&mut random, &cwd.join("AGENTS.override.md"));
            random_entry(&mut random, &cwd.join("AGENTS.md"));
            random_entry(&mut random, &cwd.join("FALLBACK.md"));
        }
        let options = ProjectDocOptions {
            project_root_markers: marker_sets[random.next(3) as usize]
                .iter()
                .map(ToString::to_string)
                .collect(),
            fallback_filenames: vec![
                String::new(),
                "FALLBACK.md".to_string(),
                "AGENTS.md".to_string(),
            ],
            ..options_with_limit(4096)
        };
        let jitter: Arc<dyn AgentsMdFileSystem> = Arc::new(JitterFileSystem);
        assert_eq!(
            concurrent_paths(&jitter, &cwd, &options).await,
            sequential_paths(&LocalFileSystem, &cwd, &options),
            "seed {seed}"
        );
        assert_eq!(
            concurrent_paths(&local_fs(), &cwd, &options).await,
            sequential_paths(&LocalFileSystem, &cwd, &options),
            "seed {seed}"
        );
    }
}

#[tokio::test]
async fn failures_surface_exactly_where_a_sequential_walk_meets_them() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("root");
    write(&root.join(".git"), "");
    let cwd = root.join("a/b/c");
    write(&cwd.join("AGENTS.md"), "doc");
    write(&root.join("a/AGENTS.override.md"), "override");
    let options = options_with_limit(4096);
    let failing_paths = [
        tmp.path().join(".git"),             // above the root: never reached
        root.join("a/b/.git"),               // below the root: reached first
        root.join("a/AGENTS.md"),            // after the override won: skipped
        root.join("a/b/AGENTS.override.md"), // a candidate that is reached
        root.join("AGENTS.override.md"),     // the root's first candidate
    ];
    for path in failing_paths {
        let failing = FailingFileSystem {
            path: path.clone(),
            failure: InjectedFailure::Metadata(io::ErrorKind::PermissionDenied),
        };
        let expected = sequential_paths(&failing, &cwd, &options);
        let fs: Arc<dyn AgentsMdFileSystem> = Arc::new(failing);
        assert_eq!(
            concurrent_paths(&fs, &cwd, &options).await,
            expected,
            "failure at {}",
            path.display()
        );
    }
}
