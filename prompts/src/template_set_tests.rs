use super::*;
use crate::render::placeholder_names;
use pretty_assertions::assert_eq;
use std::fs;

fn write(root: &Path, relative: &str, text: &str) {
    let path = root.join(relative);
    fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    fs::write(path, text).expect("write");
}

#[test]
fn every_template_path_is_unique_and_resolves_back() {
    for id in TemplateId::ALL {
        assert_eq!(TemplateId::from_path(id.path()), Some(*id));
    }
    assert_eq!(TemplateId::from_path("permissions/nope.md"), None);
}

#[test]
fn embedded_templates_only_use_their_declared_variables() {
    let templates = TemplateSet::embedded();
    for id in TemplateId::ALL {
        let names = placeholder_names(templates.text(*id));
        assert_eq!(
            names,
            id.variables().to_vec(),
            "{} must use exactly its declared variables",
            id.path()
        );
    }
}

#[test]
fn text_drops_exactly_one_final_line_break() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "realtime/start.md", "started\n\n");
    write(dir.path(), "realtime/end.md", "ended\r\n");
    write(dir.path(), "agents_md/removed.md", "gone");
    let templates = TemplateSet::from_dir(dir.path()).expect("overlay");
    assert_eq!(templates.text(TemplateId::RealtimeStart), "started\n");
    assert_eq!(templates.text(TemplateId::RealtimeEnd), "ended");
    assert_eq!(templates.text(TemplateId::AgentsMdRemoved), "gone");
}

#[test]
fn file_keeps_the_final_line_break_that_text_drops() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "realtime/start.md", "started\n");
    let templates = TemplateSet::from_dir(dir.path()).expect("overlay");
    assert_eq!(templates.file(TemplateId::RealtimeStart), "started\n");
    assert_eq!(
        templates.file(TemplateId::RealtimeEnd),
        TemplateId::RealtimeEnd.embedded_file()
    );
}

#[test]
fn overlay_replaces_known_files_and_falls_back_for_the_rest() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "permissions/sandbox_mode/read_only.md",
        "Read only; network {{network_access}}.\n",
    );
    write(dir.path(), "unknown.md", "ignored\n");
    write(dir.path(), "permissions/extra/notes.txt", "ignored\n");
    let overlay_path = dir.path().join("permissions/sandbox_mode/read_only.md");

    let templates = TemplateSet::from_dir(dir.path()).expect("overlay");

    assert_eq!(
        templates.render(
            TemplateId::SandboxReadOnly,
            &[("network_access", "enabled")]
        ),
        "Read only; network enabled."
    );
    assert_eq!(
        templates.source(TemplateId::SandboxReadOnly),
        TemplateSource::Overlay(&overlay_path)
    );
    let embedded = TemplateSet::embedded();
    for id in TemplateId::ALL
        .iter()
        .filter(|id| **id != TemplateId::SandboxReadOnly)
    {
        assert_eq!(templates.text(*id), embedded.text(*id), "{}", id.path());
        assert_eq!(templates.source(*id), TemplateSource::Embedded);
    }
}

#[test]
fn empty_directory_is_the_embedded_set() {
    let dir = tempfile::tempdir().expect("tempdir");
    assert_eq!(
        TemplateSet::from_dir(dir.path()).expect("overlay"),
        TemplateSet::embedded()
    );
}

#[test]
fn missing_directory_is_a_typed_error_naming_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("does-not-exist");
    let error = TemplateSet::from_dir(&missing).expect_err("missing dir");
    assert!(
        matches!(&error, PromptsError::ReadDir { path, .. } if path == &missing),
        "{error:?}"
    );
    assert!(error.to_string().contains(&missing.display().to_string()));
}

#[test]
fn non_utf8_template_is_a_typed_error_naming_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("realtime/end.md");
    fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    fs::write(&path, [0xff, 0xfe, b'x']).expect("write");
    let error = TemplateSet::from_dir(dir.path()).expect_err("bad utf-8");
    assert!(
        matches!(&error, PromptsError::NotUtf8 { path: found } if found == &path),
        "{error:?}"
    );
}

#[cfg(unix)]
#[test]
fn unreadable_template_is_a_typed_error_naming_the_file() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("realtime/end.md");
    fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    fs::write(&path, "text").expect("write");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o000)).expect("chmod");
    if fs::read(&path).is_ok() {
        eprintln!("skipping: running with privileges that ignore file modes");
        return;
    }
    let error = TemplateSet::from_dir(dir.path()).expect_err("unreadable");
    assert!(
        matches!(&error, PromptsError::ReadFile { path: found, .. } if found == &path),
        "{error:?}"
    );
}

#[cfg(unix)]
#[test]
fn symlinked_files_are_read_and_directory_links_are_not_walked() {
    let dir = tempfile::tempdir().expect("tempdir");
    let outside = tempfile::tempdir().expect("tempdir");
    fs::write(outside.path().join("end.md"), "linked end\n").expect("write");
    fs::create_dir_all(dir.path().join("realtime")).expect("mkdir");
    std::os::unix::fs::symlink(
        outside.path().join("end.md"),
        dir.path().join("realtime/end.md"),
    )
    .expect("file link");
    // A link back to the root would loop forever if directory links were followed.
    std::os::unix::fs::symlink(dir.path(), dir.path().join("loop")).expect("dir link");
    let templates = TemplateSet::from_dir(dir.path()).expect("overlay");
    assert_eq!(templates.text(TemplateId::RealtimeEnd), "linked end");
}

#[test]
fn an_overlay_naming_an_undefined_variable_is_an_error_naming_file_and_variable() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "permissions/sandbox_mode/read_only.md",
        "Network: {{ network_access }}. Also {{ unknown_var }} and {{ other }}.\n",
    );
    write(dir.path(), "realtime/start.md", "started {{ when }}\n");
    let error = TemplateSet::from_dir(dir.path()).expect_err("undefined variables");
    // Files are read in sorted order: permissions/… before realtime/….
    assert_eq!(
        error.to_string(),
        format!(
            "template {} uses `{{{{ unknown_var }}}}`, which nothing defines (it is given: \
             network_access)",
            dir.path()
                .join("permissions/sandbox_mode/read_only.md")
                .display()
        )
    );
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "realtime/start.md", "started {{ when }}\n");
    assert_eq!(
        TemplateSet::from_dir(dir.path())
            .expect_err("undefined variable")
            .to_string(),
        format!(
            "template {} uses `{{{{ when }}}}`, which nothing defines (it is given no variables)",
            dir.path().join("realtime/start.md").display()
        )
    );
}
