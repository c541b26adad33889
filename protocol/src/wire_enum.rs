//! Display / FromStr for closed enums whose wire spellings are protocol facts.

/// Error for a string that names no variant of a wire enum.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} `{value}` (expected one of: {expected})")]
pub struct ParseEnumError {
    pub kind: &'static str,
    pub value: String,
    pub expected: String,
}

impl ParseEnumError {
    pub(crate) fn new(kind: &'static str, value: &str, expected: &[&str]) -> Self {
        Self {
            kind,
            value: value.to_string(),
            expected: expected.join(", "),
        }
    }
}

/// Implements `ALL`, `as_str`, `Display` and `FromStr` for a fieldless enum from one table of
/// wire spellings, plus optional input-only aliases. The serde attributes on the enum must spell
/// the same strings; each enum's tests check that they agree.
macro_rules! wire_enum_strings {
    (
        $ty:ident, $kind:literal,
        { $($variant:ident => $spelling:literal),+ $(,)? }
        $(aliases { $($alias:literal => $alias_variant:ident),+ $(,)? })?
    ) => {
        impl $ty {
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];

            pub fn as_str(self) -> &'static str {
                match self {
                    $($ty::$variant => $spelling),+
                }
            }
        }

        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::std::str::FromStr for $ty {
            type Err = $crate::wire_enum::ParseEnumError;

            fn from_str(value: &str) -> Result<Self, Self::Err> {
                match value {
                    $($spelling => Ok($ty::$variant),)+
                    $($($alias => Ok($ty::$alias_variant),)+)?
                    other => Err($crate::wire_enum::ParseEnumError::new(
                        $kind,
                        other,
                        &[$($spelling),+],
                    )),
                }
            }
        }
    };
}

pub(crate) use wire_enum_strings;
