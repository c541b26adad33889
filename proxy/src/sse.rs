//! Watching a response's event stream for what the recording keeps: the usage and id of
//! `response.completed`, and the reason of `response.failed` or an `error` event.

use serde_json::Value;

/// What the event stream said so far.
#[derive(Debug, Default)]
pub struct SseWatcher {
    pub usage: Option<Value>,
    pub response_id: Option<String>,
    pub failure: Option<String>,
    /// A `response.completed` event was seen.
    pub completed: bool,
}

impl SseWatcher {
    /// Reads whole lines; only `data:` lines naming an interesting event are parsed.
    pub fn lines(&mut self, bytes: &[u8]) {
        for line in bytes.split(|byte| *byte == b'\n') {
            let Some(data) = line.strip_prefix(b"data:") else {
                continue;
            };
            let interesting = [
                &b"\"response.completed\""[..],
                b"\"response.failed\"",
                b"\"response.incomplete\"",
                b"\"error\"",
            ]
            .iter()
            .any(|needle| data.windows(needle.len()).any(|window| window == *needle));
            if !interesting {
                continue;
            }
            let Ok(event) = serde_json::from_slice::<Value>(data.trim_ascii()) else {
                continue;
            };
            self.event(&event);
        }
    }

    fn event(&mut self, event: &Value) {
        let response = event.get("response");
        match event.get("type").and_then(Value::as_str) {
            Some("response.completed") => {
                self.completed = true;
                self.usage = response.and_then(|r| r.get("usage")).cloned();
                self.response_id = response
                    .and_then(|r| r.get("id"))
                    .and_then(Value::as_str)
                    .map(str::to_string);
            }
            Some("response.failed") => {
                let message = response
                    .and_then(|r| r.pointer("/error/message"))
                    .and_then(Value::as_str)
                    .unwrap_or("no message");
                self.failure = Some(format!("the stream reported response.failed: {message}"));
            }
            Some("response.incomplete") => {
                let reason = response
                    .and_then(|r| r.pointer("/incomplete_details/reason"))
                    .and_then(Value::as_str)
                    .unwrap_or("no reason");
                self.failure = Some(format!("the stream reported response.incomplete: {reason}"));
            }
            Some("error") => {
                let message = event
                    .get("message")
                    .or_else(|| event.pointer("/error/message"))
                    .and_then(Value::as_str)
                    .unwrap_or("no message");
                self.failure = Some(format!("the stream reported an error: {message}"));
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;
    use serde_json::json;

    use super::*;

    #[test]
    fn usage_and_failures_are_picked_from_data_lines() {
        let mut watcher = SseWatcher::default();
        watcher.lines(
            b"event: response.created\ndata: {\"type\":\"response.created\"}\n\n\
              data: {\"type\":\"response.completed\",\"response\":{\"id\":\"r1\",\"usage\":{\"input_tokens\":7}}}\n",
        );
        assert_eq!(watcher.usage, Some(json!({"input_tokens": 7})));
        assert_eq!(watcher.response_id.as_deref(), Some("r1"));
        assert_eq!(watcher.failure, None);
        watcher.lines(b"data: {\"type\":\"response.failed\",\"response\":{\"error\":{\"message\":\"overloaded\"}}}\n");
        assert_eq!(
            watcher.failure.as_deref(),
            Some("the stream reported response.failed: overloaded")
        );
    }
}
