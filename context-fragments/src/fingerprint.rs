use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::Serialize;
use sha1::Digest;
use sha1::Sha1;

use crate::fragment::ContextualUserFragment;

/// Domain separator hashed before any component, so that these digests can never collide
/// with SHA-1 digests computed for another purpose over the same bytes.
const FINGERPRINT_DOMAIN: &[u8] = b"codex-world-state-fragment-v1\0";

/// Stable identity of one rendered fragment: lowercase hex SHA-1 over the role and the rendered
/// text (see [`fingerprint`]). World-state snapshots store these instead of full texts.
///
/// Serialises as a bare JSON string; only 40 lowercase hex digits deserialize, so a snapshot
/// field holding anything else (prose, a truncated digest) is never taken for a fingerprint.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct FragmentFingerprint(String);

/// Length of a fingerprint: a SHA-1 digest in hex.
const FINGERPRINT_HEX_DIGITS: usize = 40;

impl<'de> Deserialize<'de> for FragmentFingerprint {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        let well_formed = text.len() == FINGERPRINT_HEX_DIGITS
            && text
                .bytes()
                .all(|byte| byte.is_ascii_digit() || (b'a'..=b'f').contains(&byte));
        match well_formed {
            true => Ok(Self(text)),
            false => Err(serde::de::Error::invalid_value(
                serde::de::Unexpected::Str(&text),
                &"a fragment fingerprint (40 lowercase hex digits)",
            )),
        }
    }
}

impl FragmentFingerprint {
    /// Fingerprint of a role plus already-rendered text.
    pub fn new(role: &str, rendered_text: &str) -> Self {
        Self(fingerprint(role, rendered_text))
    }

    /// Fingerprint of a fragment's role and its full `render()` output (markers included).
    pub fn from_fragment(fragment: &dyn ContextualUserFragment) -> Self {
        Self::new(fragment.role(), &fragment.render())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

impl fmt::Display for FragmentFingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// SHA-1 fingerprint of a fragment, as 40 lowercase hex digits.
///
/// Hashes the domain prefix `codex-world-state-fragment-v1\0`, then `role` and `rendered_text`,
/// each with CRLF normalised to LF and preceded by its byte length as a big-endian `u64`. The
/// length framing keeps `("ab", "c")` and `("a", "bc")` apart; the CRLF step makes a text that
/// went through a Windows checkout hash like the original.
pub fn fingerprint(role: &str, rendered_text: &str) -> String {
    let mut hasher = Sha1::new();
    hasher.update(FINGERPRINT_DOMAIN);
    for component in [role, rendered_text] {
        let normalized = if component.contains("\r\n") {
            Cow::Owned(component.replace("\r\n", "\n"))
        } else {
            Cow::Borrowed(component)
        };
        let length = normalized.len() as u64;
        hasher.update(length.to_be_bytes());
        hasher.update(normalized.as_bytes());
    }
    format!("{:x}", hasher.finalize())
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn matches_upstream_test_vector() {
        assert_eq!(
            fingerprint(
                "developer",
                "<collaboration_mode>pair with the user</collaboration_mode>"
            ),
            "90f8f6675171813762488f76c60b062fc8adeaec"
        );
    }

    #[test]
    fn crlf_and_lf_texts_hash_equal() {
        assert_eq!(
            fingerprint("developer", "<x>\r\nline one\r\nline two\r\n</x>"),
            fingerprint("developer", "<x>\nline one\nline two\n</x>"),
        );
    }

    #[test]
    fn lone_carriage_returns_are_kept() {
        assert_ne!(
            fingerprint("developer", "a\rb"),
            fingerprint("developer", "a\nb")
        );
    }

    #[test]
    fn length_framing_separates_role_from_text() {
        assert_ne!(fingerprint("user", "x"), fingerprint("use", "rx"));
    }

    #[test]
    fn role_is_part_of_the_identity() {
        assert_ne!(
            fingerprint("user", "same"),
            fingerprint("developer", "same")
        );
    }

    #[test]
    fn newtype_matches_free_function_and_serialises_as_string() {
        let fp = FragmentFingerprint::new(
            "developer",
            "<collaboration_mode>pair with the user</collaboration_mode>",
        );
        assert_eq!(fp.as_str(), "90f8f6675171813762488f76c60b062fc8adeaec");
        assert_eq!(fp.to_string(), "90f8f6675171813762488f76c60b062fc8adeaec");
        assert_eq!(
            serde_json::to_string(&fp).unwrap(),
            "\"90f8f6675171813762488f76c60b062fc8adeaec\""
        );
        let back: FragmentFingerprint =
            serde_json::from_str("\"90f8f6675171813762488f76c60b062fc8adeaec\"").unwrap();
        assert_eq!(back, fp);
    }

    #[test]
    fn only_well_formed_digests_deserialize() {
        let fp = FragmentFingerprint::new("developer", "<x>y</x>");
        let json = serde_json::to_value(&fp).expect("serializes");
        assert_eq!(
            serde_json::from_value::<FragmentFingerprint>(json).expect("round trip"),
            fp
        );
        for bad in [
            "Never upload source code.",
            "90f8f6675171813762488f76c60b062fc8adeae",
            "90F8F6675171813762488F76C60B062FC8ADEAEC",
            "90f8f6675171813762488f76c60b062fc8adeaecc",
        ] {
            assert!(
                serde_json::from_value::<FragmentFingerprint>(serde_json::json!(bad)).is_err(),
                "{bad}"
            );
        }
    }
}
