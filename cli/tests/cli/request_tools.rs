//! The tools and Lite messages `request` prints: the goal tools (`features.goals`, in
//! config.toml or `-c`), and for a code-mode, multi-agent v2 Lite model (gpt-5.6-sol) the
//! code-mode tools, the collaboration namespace and the root-agent messages, without ids on
//! the spliced items (as 0.149.1 sends them).

use std::path::Path;

use pretty_assertions::assert_eq;
use serde_json::Value;

use crate::support::PINS;
use crate::support::arg;
use crate::support::run;
use crate::support::write;

/// `request` in a fresh CODEX_HOME and project, pinned, with `extra` arguments.
fn request(dir: &Path, extra: &[&str]) -> Value {
    let home = dir.join("home");
    let project = dir.join("project");
    std::fs::create_dir_all(&home).expect("mkdir home");
    std::fs::create_dir_all(project.join(".git")).expect("mkdir project");
    let mut args = vec![
        "request",
        "--codex-home",
        arg(&home),
        "--cwd",
        arg(&project),
    ];
    args.extend_from_slice(&PINS);
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--message", "hello"]);
    let run = run(&args);
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""), "{run:?}");
    serde_json::from_str(&run.stdout).expect("stdout is a JSON body")
}

fn names(tools: &Value) -> Vec<String> {
    tools
        .as_array()
        .expect("tool array")
        .iter()
        .map(|tool| match tool["name"].as_str() {
            Some(name) if tool["type"] == "namespace" => {
                format!("{name}: {}", names(&tool["tools"]).join(", "))
            }
            Some(name) => name.to_string(),
            None => tool["type"].as_str().unwrap_or("?").to_string(),
        })
        .collect()
}

const GOAL_TOOLS: [&str; 3] = ["get_goal", "create_goal", "update_goal"];

#[test]
fn goal_tools_come_between_view_image_and_tool_search_unless_turned_off() {
    let dir = tempfile::tempdir().expect("tempdir");
    let on = names(&request(dir.path(), &["--model", "gpt-5.5"])["tools"]);
    assert_eq!(
        on,
        [
            "exec_command",
            "write_stdin",
            "update_plan",
            "request_user_input",
            "apply_patch",
            "view_image",
            "get_goal",
            "create_goal",
            "update_goal",
            "tool_search",
            "web_search",
        ]
    );
    let off = names(
        &request(
            dir.path(),
            &["--model", "gpt-5.5", "-c", "features.goals=false"],
        )["tools"],
    );
    let expected: Vec<&String> = on
        .iter()
        .filter(|name| !GOAL_TOOLS.contains(&name.as_str()))
        .collect();
    assert_eq!(off.iter().collect::<Vec<_>>(), expected);

    // The same key in config.toml.
    let other = tempfile::tempdir().expect("tempdir");
    write(
        &other.path().join("home"),
        "config.toml",
        "model = \"gpt-5.5\"\n\n[features]\ngoals = false\n",
    );
    assert_eq!(names(&request(other.path(), &[])["tools"]), off);
}

#[test]
fn gpt_5_6_sol_gets_code_mode_the_collaboration_namespace_and_the_root_agent_messages() {
    let dir = tempfile::tempdir().expect("tempdir");
    let body = request(dir.path(), &["--model", "gpt-5.6-sol"]);
    let input = body["input"].as_array().expect("input");
    let tools_item = &input[0];
    assert_eq!(tools_item["type"], "additional_tools");
    assert_eq!(
        names(&tools_item["tools"]),
        [
            "functions: exec, wait, request_user_input",
            "collaboration: followup_task, interrupt_agent, list_agents, send_message, spawn_agent, wait_agent",
        ]
    );
    // Neither spliced item has an id in the targeted release.
    assert_eq!(tools_item.get("id"), None);
    assert_eq!(input[1]["role"], "developer");
    assert_eq!(input[1].get("id"), None);
    // After the developer bundle: the root agent's role, then the delegation mode.
    let developer_texts: Vec<&str> = input
        .iter()
        .filter(|item| item["type"] == "message" && item["role"] == "developer")
        .map(|item| item["content"][0]["text"].as_str().unwrap_or_default())
        .collect();
    let [_, _bundle, role, mode] = developer_texts[..] else {
        panic!("four developer messages expected: {developer_texts:#?}");
    };
    assert!(role.starts_with("You are `/root`"), "{role}");
    assert!(
        mode.starts_with("<multi_agent_mode>") && mode.ends_with("</multi_agent_mode>"),
        "{mode}"
    );
    // Goal tools are callable from `exec` only while the feature is on.
    let exec_description = |body: &Value| {
        body["input"][0]["tools"][0]["tools"][0]["description"]
            .as_str()
            .expect("exec description")
            .to_string()
    };
    assert!(exec_description(&body).contains("### `get_goal`"));
    let off = request(
        dir.path(),
        &["--model", "gpt-5.6-sol", "-c", "features.goals=false"],
    );
    assert!(!exec_description(&off).contains("### `get_goal`"));

    // The whole body but its turn metadata, with the temporary directory redacted.
    let mut body = body;
    body.as_object_mut()
        .expect("body object")
        .remove("client_metadata");
    let text = serde_json::to_string_pretty(&body)
        .expect("body")
        .replace(&dir.path().display().to_string(), "<TMP>");
    insta::assert_snapshot!("gpt_5_6_sol_first_request", text);
}
