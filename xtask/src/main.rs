//! Developer tasks for this workspace. Run with `cargo xtask <task>`.

fn main() {
    let task = std::env::args().nth(1);
    match task.as_deref() {
        None | Some("help") | Some("--help") | Some("-h") => {
            println!("usage: cargo xtask <task>\n\ntasks:\n  help    print this message");
        }
        Some(other) => {
            eprintln!("xtask: unknown task `{other}`; run `cargo xtask help`");
            std::process::exit(2);
        }
    }
}
