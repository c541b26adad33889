//! Loading one side of a comparison: a request body, a folder of `request-NN.json` files,
//! JSON lines of request bodies, or a rollout.

use std::path::Path;

use codex_rollout::LoadedRollout;
use codex_rollout::parse_rollout;
use serde_json::Value;

use super::CompareError;
use crate::inspect::InspectOptions;
use crate::inspect::rebuild_requests;

/// What an input turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputKind {
    RequestBody,
    RequestFolder,
    RequestLines,
    Rollout,
}

/// One side of a comparison: its requests in order and, for a rollout, its lines.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareInput {
    pub kind: InputKind,
    pub requests: Vec<Value>,
    pub rollout: Option<LoadedRollout>,
}

/// Loads the file or folder at `path`, recognising its kind from its contents. A rollout's
/// requests are rebuilt as `inspect` does with `options` (catalogs, release).
pub fn load_compare_input(
    path: &Path,
    options: &InspectOptions<'_>,
) -> Result<CompareInput, CompareError> {
    let read_error = |source| CompareError::Read {
        path: path.to_path_buf(),
        source,
    };
    if path.is_dir() {
        return load_request_folder(path);
    }
    let bytes = codex_utils_fs::read_regular(path).map_err(read_error)?;
    let name = path.display().to_string();
    let text =
        String::from_utf8(bytes).map_err(|_| CompareError::NotUtf8 { name: name.clone() })?;
    parse_compare_input(&name, &text, options)
}

/// Recognises `text` (named `name` in errors): one JSON document that is a request body (or a
/// single rollout line), else JSON lines whose first line decides between request bodies and a
/// rollout.
pub fn parse_compare_input(
    name: &str,
    text: &str,
    options: &InspectOptions<'_>,
) -> Result<CompareInput, CompareError> {
    let whole_error = match serde_json::from_str::<Value>(text) {
        Ok(value) if is_request_body(&value) => {
            return Ok(CompareInput {
                kind: InputKind::RequestBody,
                requests: vec![value],
                rollout: None,
            });
        }
        Ok(value) if is_rollout_line(&value) => return load_rollout(name, text, options),
        Ok(_) => {
            return Err(CompareError::Unrecognised {
                name: name.to_string(),
            });
        }
        Err(error) => error,
    };
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty());
    // A first line that is not JSON on its own means the document itself is broken: its
    // error (with the real line and column) is the useful one.
    let first = lines
        .next()
        .and_then(|(_, line)| serde_json::from_str::<Value>(line).ok())
        .ok_or_else(|| invalid_json(name, &whole_error, 0))?;
    if is_rollout_line(&first) {
        return load_rollout(name, text, options);
    }
    if !is_request_body(&first) {
        return Err(CompareError::Unrecognised {
            name: name.to_string(),
        });
    }
    let mut requests = vec![first];
    for (index, line) in lines {
        let value = serde_json::from_str::<Value>(line)
            .map_err(|error| invalid_json(name, &error, index))?;
        if !is_request_body(&value) {
            return Err(CompareError::NotARequestLine {
                name: name.to_string(),
                line: index + 1,
            });
        }
        requests.push(value);
    }
    Ok(CompareInput {
        kind: InputKind::RequestLines,
        requests,
        rollout: None,
    })
}

/// `error` from parsing a text that starts at 0-based line `first_line` of the input.
fn invalid_json(name: &str, error: &serde_json::Error, first_line: usize) -> CompareError {
    // serde_json appends the position to its message; the error carries it on its own.
    let message = error.to_string();
    let position = format!(" at line {} column {}", error.line(), error.column());
    CompareError::InvalidJson {
        name: name.to_string(),
        line: error.line() + first_line,
        column: error.column(),
        message: message
            .strip_suffix(&position)
            .unwrap_or(&message)
            .to_string(),
    }
}

fn is_request_body(value: &Value) -> bool {
    value.get("input").is_some_and(Value::is_array)
}

fn is_rollout_line(value: &Value) -> bool {
    value.get("type").is_some_and(Value::is_string)
        && value.get("timestamp").is_some()
        && value.get("payload").is_some()
}

/// A rollout must load whole: a skipped line would shift every later comparison. Its requests
/// are rebuilt by `inspect`, with `catalog` resolving each turn's model (built-in tools,
/// Responses Lite).
fn load_rollout(
    name: &str,
    text: &str,
    options: &InspectOptions<'_>,
) -> Result<CompareInput, CompareError> {
    let loaded = parse_rollout(text.as_bytes()).map_err(|source| CompareError::Read {
        path: name.into(),
        source,
    })?;
    if let Some(warning) = loaded.warnings.first() {
        return Err(CompareError::DamagedRolloutLine {
            name: name.to_string(),
            line: warning.line_number,
            message: warning.message.clone(),
        });
    }
    let rebuilt = rebuild_requests(&loaded, options).map_err(|source| CompareError::Rebuild {
        name: name.to_string(),
        source,
    })?;
    let requests = rebuilt
        .iter()
        .map(|request| serde_json::to_value(&request.body))
        .collect::<Result<_, _>>()
        .map_err(|source| CompareError::RebuiltBody {
            name: name.to_string(),
            source,
        })?;
    Ok(CompareInput {
        kind: InputKind::Rollout,
        requests,
        rollout: Some(loaded),
    })
}

/// `request-NN.json` files in the order of their numbers; other files are ignored.
fn load_request_folder(folder: &Path) -> Result<CompareInput, CompareError> {
    let read_error = |source| CompareError::Read {
        path: folder.to_path_buf(),
        source,
    };
    let mut numbered = Vec::new();
    for entry in std::fs::read_dir(folder).map_err(read_error)? {
        let path = entry.map_err(read_error)?.path();
        let number = path
            .file_name()
            .and_then(|name| name.to_str())
            .and_then(|name| name.strip_prefix("request-"))
            .and_then(|rest| rest.strip_suffix(".json"))
            .and_then(|digits| digits.parse::<u64>().ok());
        if let Some(number) = number {
            numbered.push((number, path));
        }
    }
    if numbered.is_empty() {
        return Err(CompareError::EmptyFolder {
            name: folder.display().to_string(),
        });
    }
    numbered.sort();
    let mut requests = Vec::with_capacity(numbered.len());
    for (_, path) in numbered {
        let name = path.display().to_string();
        let text = codex_utils_fs::read_regular(&path).map_err(|source| CompareError::Read {
            path: path.clone(),
            source,
        })?;
        let value = serde_json::from_slice::<Value>(&text)
            .map_err(|error| invalid_json(&name, &error, 0))?;
        if !is_request_body(&value) {
            return Err(CompareError::Unrecognised { name });
        }
        requests.push(value);
    }
    Ok(CompareInput {
        kind: InputKind::RequestFolder,
        requests,
        rollout: None,
    })
}
