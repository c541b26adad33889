//! The open `ReasoningEffort` value.

use serde::Deserialize;
use serde::Deserializer;
use serde::Serialize;
use serde::Serializer;

/// How hard the model should reason. Open: efforts this crate does not know (any non-empty
/// string) are kept as [`ReasoningEffort::Custom`] so newer catalogs still load. Serialized as a
/// bare string.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum ReasoningEffort {
    None,
    Minimal,
    Low,
    #[default]
    Medium,
    High,
    XHigh,
    Max,
    Ultra,
    Persistent,
    /// A non-empty effort name without a dedicated variant.
    Custom(String),
}

/// Error for the one string no effort may have: the empty one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("reasoning effort must be a non-empty string")]
pub struct EmptyReasoningEffortError;

impl ReasoningEffort {
    pub fn as_str(&self) -> &str {
        match self {
            Self::None => "none",
            Self::Minimal => "minimal",
            Self::Low => "low",
            Self::Medium => "medium",
            Self::High => "high",
            Self::XHigh => "xhigh",
            Self::Max => "max",
            Self::Ultra => "ultra",
            Self::Persistent => "persistent",
            Self::Custom(name) => name,
        }
    }
}

impl std::fmt::Display for ReasoningEffort {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for ReasoningEffort {
    type Err = EmptyReasoningEffortError;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        Ok(match value {
            "" => return Err(EmptyReasoningEffortError),
            "none" => Self::None,
            "minimal" => Self::Minimal,
            "low" => Self::Low,
            "medium" => Self::Medium,
            "high" => Self::High,
            "xhigh" => Self::XHigh,
            "max" => Self::Max,
            "ultra" => Self::Ultra,
            "persistent" => Self::Persistent,
            other => Self::Custom(other.to_string()),
        })
    }
}

impl Serialize for ReasoningEffort {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ReasoningEffort {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = String::deserialize(deserializer)?;
        value.parse().map_err(serde::de::Error::custom)
    }
}
