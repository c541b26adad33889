//! Headers as recorded: secrets replaced, everything else kept in arrival order.

use hyper::HeaderMap;

/// What a secret header's value is recorded as.
pub const REDACTED: &str = "<redacted>";

/// Whether a header carries a credential: `authorization`, `cookie`, and any name containing
/// `api-key`, `api_key`, `apikey`, `token` or `secret`.
pub fn is_secret(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    matches!(
        name.as_str(),
        "authorization" | "proxy-authorization" | "cookie" | "set-cookie"
    ) || ["api-key", "api_key", "apikey", "token", "secret"]
        .iter()
        .any(|part| name.contains(part))
}

/// Lower-cased names and values, secret values replaced by [`REDACTED`]; a value that is not
/// UTF-8 is recorded lossily.
pub fn redacted_headers(headers: &HeaderMap) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(name, value)| {
            let value = if is_secret(name.as_str()) {
                REDACTED.to_string()
            } else {
                String::from_utf8_lossy(value.as_bytes()).into_owned()
            };
            (name.as_str().to_string(), value)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use hyper::header::HeaderValue;
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn secrets_are_redacted_and_the_rest_kept() {
        let mut headers = HeaderMap::new();
        headers.insert("authorization", HeaderValue::from_static("Bearer sk-live"));
        headers.insert("x-api-key", HeaderValue::from_static("k"));
        headers.insert("openai-organization", HeaderValue::from_static("org"));
        headers.insert("x-auth-token", HeaderValue::from_static("t"));
        assert_eq!(
            redacted_headers(&headers),
            vec![
                ("authorization".to_string(), REDACTED.to_string()),
                ("x-api-key".to_string(), REDACTED.to_string()),
                ("openai-organization".to_string(), "org".to_string()),
                ("x-auth-token".to_string(), REDACTED.to_string()),
            ]
        );
    }
}
