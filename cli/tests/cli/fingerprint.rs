use crate::support::arg;
use crate::support::assert_success;
use crate::support::run;
use crate::support::run_with_stdin;
use crate::support::write;
use pretty_assertions::assert_eq;

const ROLE: &str = "developer";
const TEXT: &str = "<collaboration_mode>pair with the user</collaboration_mode>";
const VECTOR: &str = "90f8f6675171813762488f76c60b062fc8adeaec\n";

#[test]
fn text_reproduces_the_reference_vector() {
    assert_success(
        &run(&["fingerprint", "--role", ROLE, "--text", TEXT]),
        VECTOR,
    );
}

#[test]
fn file_is_hashed_byte_for_byte() {
    let dir = tempfile::tempdir().expect("tempdir");
    let exact = write(dir.path(), "exact.txt", TEXT);
    let with_newline = write(dir.path(), "newline.txt", &format!("{TEXT}\n"));
    assert_success(
        &run(&["fingerprint", "--role", ROLE, "--file", arg(&exact)]),
        VECTOR,
    );
    let newline = run(&["fingerprint", "--role", ROLE, "--file", arg(&with_newline)]);
    assert_eq!(newline.code, Some(0));
    assert_ne!(newline.stdout, VECTOR);
}

#[test]
fn dash_reads_standard_input() {
    assert_success(
        &run_with_stdin(
            &["fingerprint", "--role", ROLE, "--file", "-"],
            TEXT.as_bytes(),
        ),
        VECTOR,
    );
}

#[test]
fn crlf_text_hashes_like_lf_text() {
    assert_eq!(
        run(&[
            "fingerprint",
            "--role",
            ROLE,
            "--text",
            "<x>\r\nline\r\n</x>"
        ])
        .stdout,
        run(&["fingerprint", "--role", ROLE, "--text", "<x>\nline\n</x>"]).stdout,
    );
}

#[test]
fn role_changes_the_fingerprint() {
    assert_success(
        &run(&["fingerprint", "--role", "user", "--text", TEXT]),
        &format!("{}\n", codex_context_fragments::fingerprint("user", TEXT)),
    );
}
