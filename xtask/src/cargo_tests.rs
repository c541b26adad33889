use std::ffi::OsStr;

use pretty_assertions::assert_eq;

use super::*;

#[test]
fn nested_cargo_gets_none_of_the_variables_cargo_set_for_this_process() {
    // `cargo test` sets the same variables for this test as `cargo run` does for the task.
    let mut inherited: Vec<String> = std::env::vars()
        .map(|(name, _)| name)
        .filter(|name| name.starts_with("CARGO_PKG_") || RUN_VARIABLES.contains(&name.as_str()))
        .collect();
    inherited.sort();
    assert!(
        inherited.contains(&"CARGO_MANIFEST_DIR".to_string()),
        "{inherited:?}"
    );
    let command = cargo_in(Path::new("/workspace"));
    let mut removed: Vec<String> = command
        .get_envs()
        .map(|(name, value)| {
            assert_eq!(value, None, "{name:?} is removed, not set");
            name.to_string_lossy().into_owned()
        })
        .collect();
    removed.sort();
    assert_eq!(removed, inherited);
    assert_eq!(command.get_current_dir(), Some(Path::new("/workspace")));
    assert_eq!(
        command.get_args().collect::<Vec<&OsStr>>(),
        Vec::<&OsStr>::new()
    );
}
