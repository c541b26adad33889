use std::ffi::OsString;

use pretty_assertions::assert_eq;

use super::*;

#[test]
fn the_flag_wins_over_the_environment_and_must_name_a_folder() {
    let flagged = tempfile::tempdir().expect("tempdir");
    let from_env = tempfile::tempdir().expect("tempdir");
    let env_value = OsString::from(from_env.path());
    assert_eq!(
        locate_fixtures(Some(flagged.path()), Some(&env_value)).expect("located"),
        Some(flagged.path().to_path_buf())
    );
    let missing = flagged.path().join("missing");
    let error = locate_fixtures(Some(&missing), Some(&env_value)).expect_err("no folder");
    assert_eq!(
        error.to_string(),
        format!("{}: --fixtures: not a directory", missing.display())
    );
}

#[test]
fn the_environment_is_used_when_it_names_a_folder() {
    let from_env = tempfile::tempdir().expect("tempdir");
    let env_value = OsString::from(from_env.path());
    assert_eq!(
        locate_fixtures(None, Some(&env_value)).expect("located"),
        Some(from_env.path().to_path_buf())
    );
    let missing = OsString::from(from_env.path().join("missing"));
    assert_eq!(
        locate_fixtures(None, Some(&missing)).expect("located"),
        None
    );
    assert_eq!(
        locate_fixtures(None, Some(OsStr::new(""))).expect("located"),
        None
    );
    assert_eq!(locate_fixtures(None, None).expect("located"), None);
}

#[test]
fn without_fixtures_nothing_runs() {
    let root = tempfile::tempdir().expect("tempdir");
    for mode in [ParityMode::Regenerate, ParityMode::Check] {
        assert_eq!(
            run_parity(root.path(), None, mode).expect("no run"),
            ParityOutcome::FixturesMissing
        );
    }
    assert!(!root.path().join(PARITY_DOC_PATH).exists());
}

#[test]
fn the_run_includes_the_checks_a_plain_cargo_test_ignores() {
    let fixtures = Path::new("/fixtures");
    for (mode, update) in [
        (ParityMode::Regenerate, Some(OsStr::new("1"))),
        (ParityMode::Check, None),
    ] {
        let command = parity_command(Path::new("/workspace"), fixtures, mode);
        let args: Vec<&OsStr> = command.get_args().collect();
        assert_eq!(
            args,
            [
                "test",
                "--workspace",
                "--test",
                "upstream_parity",
                "--",
                "--include-ignored"
            ]
        );
        // Cargo's own variables are removed by `cargo_in` (tested there).
        let mut envs: Vec<(&OsStr, Option<&OsStr>)> = command
            .get_envs()
            .filter(|(name, _)| !name.to_string_lossy().starts_with("CARGO_"))
            .collect();
        envs.sort();
        assert_eq!(
            envs,
            [
                (OsStr::new("CODEX_PARITY_UPDATE"), update),
                (OsStr::new(FIXTURES_ENV), Some(fixtures.as_os_str())),
            ]
        );
        assert_eq!(command.get_current_dir(), Some(Path::new("/workspace")));
    }
}

/// Tests reach upstream's fixtures only through the helper that fails without them, so a
/// compatibility test can never pass by returning early: it is `#[ignore]`d instead, and run
/// with `-- --ignored` it fails when the fixtures are missing.
#[test]
fn only_the_fixtures_helper_reads_the_variable() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace root");
    let reads = [
        format!("var_os(\"{FIXTURES_ENV}\")"),
        format!("var(\"{FIXTURES_ENV}\")"),
    ];
    let mut readers = Vec::new();
    for member in crate::includes::workspace_members(root).expect("workspace members") {
        let mut files = Vec::new();
        for folder in ["src", "tests", "benches"] {
            crate::includes::collect_files(&root.join(&member).join(folder), &mut files)
                .expect("member files");
        }
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            if reads.iter().any(|read| text.contains(read)) {
                readers.push(
                    file.strip_prefix(root)
                        .expect("under the root")
                        .to_path_buf(),
                );
            }
        }
    }
    assert_eq!(
        readers,
        [PathBuf::from("protocol/tests/upstream_fixtures/mod.rs")]
    );
}
