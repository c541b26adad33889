use std::path::Path;
use std::path::PathBuf;

use pretty_assertions::assert_eq;

use super::EnvironmentPath;
use super::EnvironmentToml;
use super::SelectedEnvironment;

#[cfg(not(windows))]
#[test]
fn windows_paths_and_uris_are_foreign_here() {
    assert_eq!(
        EnvironmentPath::parse("file:///C:/workspace"),
        EnvironmentPath::Foreign(r"C:\workspace".to_string())
    );
    assert_eq!(
        EnvironmentPath::parse(r"D:\shared"),
        EnvironmentPath::Foreign(r"D:\shared".to_string())
    );
    assert_eq!(
        EnvironmentPath::parse(r"\\server\share"),
        EnvironmentPath::Foreign(r"\\server\share".to_string())
    );
    assert_eq!(
        EnvironmentPath::parse("file:///srv/repo"),
        EnvironmentPath::Native(PathBuf::from("/srv/repo"))
    );
    assert_eq!(
        EnvironmentPath::parse("repo"),
        EnvironmentPath::Native(PathBuf::from("repo"))
    );
}

#[cfg(not(windows))]
#[test]
fn relative_paths_resolve_and_foreign_ones_stay() {
    let mut entry = EnvironmentToml {
        id: "local".to_string(),
        cwd: Some("repo".to_string()),
        workspace_roots: Some(vec![r"C:\workspace".to_string(), "other".to_string()]),
        shell: None,
    };
    entry.resolve_paths(Path::new("/base"));
    assert_eq!(entry.cwd.as_deref(), Some("/base/repo"));
    assert_eq!(
        entry.workspace_roots,
        Some(vec![r"C:\workspace".to_string(), "/base/other".to_string()])
    );
}

#[test]
fn defaults_follow_the_thread() {
    let cwd = Path::new("/w");
    assert_eq!(
        SelectedEnvironment::resolve(None, cwd, "bash"),
        Ok(vec![SelectedEnvironment::local(cwd, "bash")])
    );
    assert_eq!(
        SelectedEnvironment::resolve(Some(Vec::new()), cwd, "bash"),
        Ok(Vec::new())
    );
    let entry = |id: &str| EnvironmentToml {
        id: id.to_string(),
        cwd: None,
        workspace_roots: None,
        shell: None,
    };
    assert_eq!(
        SelectedEnvironment::resolve(Some(vec![entry("local")]), cwd, "zsh"),
        Ok(vec![SelectedEnvironment::local(cwd, "zsh")])
    );
    assert_eq!(
        SelectedEnvironment::resolve(Some(vec![entry("a"), entry("a")]), cwd, "bash"),
        Err("environment id `a` is selected twice".to_string())
    );
    assert_eq!(
        SelectedEnvironment::resolve(Some(vec![entry("")]), cwd, "bash"),
        Err("an environment id is empty".to_string())
    );
}
