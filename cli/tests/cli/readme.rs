//! `cli/README.md` documents every command the binary has.

use pretty_assertions::assert_eq;

use crate::support::run;

#[test]
fn the_readme_has_a_row_for_every_command() {
    let help = run(&["--help"]).stdout;
    let commands: Vec<&str> = help
        .split("Commands:\n")
        .nth(1)
        .expect("a command list")
        .lines()
        .take_while(|line| !line.is_empty())
        .filter_map(|line| line.split_whitespace().next())
        .filter(|command| *command != "help")
        .collect();
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("cli/README.md");
    let documented: Vec<&str> = commands
        .iter()
        .copied()
        .filter(|command| readme.contains(&format!("| `{command} ")))
        .collect();
    assert_eq!(documented, commands);
}
