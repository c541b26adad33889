//! `codex-context proxy`: what it refuses before listening. The pass-through itself is tested
//! in `codex-proxy` and end to end with the released CLI in `cargo xtask real-codex`.

use pretty_assertions::assert_eq;

use crate::support::run;

#[test]
fn a_non_loopback_listen_address_or_a_bad_upstream_is_refused_in_one_line() {
    let out = tempfile::tempdir().expect("tempdir");
    let out = out.path().to_str().expect("utf-8 path");
    let remote = run(&[
        "proxy",
        "--listen",
        "0.0.0.0:0",
        "--upstream",
        "http://127.0.0.1:9",
        "--out",
        out,
    ]);
    assert_eq!(
        (remote.code, remote.stdout.as_str(), remote.stderr.as_str()),
        (
            Some(2),
            "",
            "codex-context: error: --listen 0.0.0.0:0 is not a loopback address: anyone who can reach it could use your API key; pass --allow-remote to listen there anyway\n"
        )
    );
    let upstream = run(&["proxy", "--upstream", "api.openai.com", "--out", out]);
    assert_eq!(
        (upstream.code, upstream.stderr.as_str()),
        (
            Some(2),
            "codex-context: error: --upstream \"api.openai.com\" is not an http:// or https:// URL\n"
        )
    );
}
