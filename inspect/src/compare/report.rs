//! What a comparison found, and its text rendering (one grep-able line per difference).

use std::fmt;

use serde::Serialize;
use serde_json::Value;

/// Which input a one-sided finding belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Side {
    A,
    B,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::A => "A",
            Self::B => "B",
        })
    }
}

/// Where in a request pair (or in the rollout pair) a difference sits. Item indexes are the
/// 0-based positions in each side's `input`; rollout lines are 1-based file line numbers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "at", rename_all = "snake_case")]
pub enum Position {
    /// The request as a whole.
    Request,
    /// A top-level field of the request body.
    Field { field: String },
    /// An `input` item; `None` on the side that lacks it.
    Item { a: Option<usize>, b: Option<usize> },
    /// A content entry (same index on both sides) of a paired message.
    Entry { a: usize, b: usize, entry: usize },
    /// A rollout line; `None` on the side that lacks it.
    RolloutLine { a: Option<usize>, b: Option<usize> },
    /// The rollouts' `turn_context` lines as a whole.
    TurnContexts,
}

/// `full` snapshot or merge `patch`, as a `world_state` record declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WorldStateMode {
    Full,
    Patch,
}

impl fmt::Display for WorldStateMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Full => "full",
            Self::Patch => "patch",
        })
    }
}

/// One structural difference.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DifferenceDetail {
    /// One input has more requests than the other.
    RequestOnlyIn {
        side: Side,
    },
    /// A field (or an item's `tools`) exists on one side only.
    FieldPresence {
        a: bool,
        b: bool,
    },
    FieldValue {
        a: Value,
        b: Value,
    },
    ToolOnlyIn {
        side: Side,
        name: String,
    },
    /// The same tools in another order.
    ToolOrder {
        a: Vec<String>,
        b: Vec<String>,
    },
    /// A tool on both sides whose `type`, keys (prose aside) or parameter keys differ.
    ToolShape {
        tool: String,
        aspect: String,
        a: Vec<String>,
        b: Vec<String>,
    },
    /// The same top-level keys in another order.
    KeyOrder {
        a: Vec<String>,
        b: Vec<String>,
    },
    /// Keys of an object (`client_metadata`, its turn metadata) on one side only.
    KeysOnlyIn {
        side: Side,
        keys: Vec<String>,
    },
    /// An item has an `id` on one side only.
    IdPresence {
        a: bool,
        b: bool,
    },
    /// An item with no counterpart; `shape` is its signature.
    ItemOnlyIn {
        side: Side,
        shape: String,
    },
    /// An item with the same signature at another place in the sequence.
    ItemMoved {
        shape: String,
    },
    RoleChanged {
        a: String,
        b: String,
    },
    /// Content entry counts differ; the classifications of both sides are listed.
    ContentCount {
        a: Vec<String>,
        b: Vec<String>,
    },
    /// The same content entries in another order.
    ContentOrder {
        a: Vec<String>,
        b: Vec<String>,
    },
    Classification {
        a: String,
        b: String,
    },
    /// Text nobody injected (user, assistant or unrecognised developer text) differs; `diff`
    /// is filled with `--prose show`.
    TextChanged {
        classification: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        diff: Option<String>,
    },
    /// An XML tag path of `<environment_context>` (with its attribute names) on one side only.
    TagOnlyIn {
        classification: String,
        side: Side,
        tag: String,
    },
    /// The AGENTS.md header line has another shape.
    Header {
        classification: String,
        a: String,
        b: String,
    },
    /// A fixed wrapper (`<permissions instructions>…`, `<INSTRUCTIONS>…`) is missing on one side.
    Wrapper {
        classification: String,
        wrapper: String,
        a: bool,
        b: bool,
    },
    RolloutLineOnlyIn {
        side: Side,
        line_type: String,
    },
    WorldStateMode {
        a: WorldStateMode,
        b: WorldStateMode,
    },
    WorldStateSections {
        a: Vec<String>,
        b: Vec<String>,
    },
    TurnContextCount {
        a: usize,
        b: usize,
    },
}

/// One structural difference and where it is.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Difference {
    /// 1-based number of the request pair; `None` for rollout line differences.
    pub request: Option<usize>,
    pub position: Position,
    #[serde(flatten)]
    pub detail: DifferenceDetail,
}

/// A textual difference inside a recognised fragment, the base instructions or tool call
/// arguments/output, shown with `--prose show` but not counted as structural.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProseDifference {
    pub request: usize,
    pub position: Position,
    /// What the text is (a fragment type, `instructions`, a tool call's signature).
    pub classification: String,
    /// Unified diff from A to B.
    pub diff: String,
}

/// Everything one comparison found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompareReport {
    /// Request pairs compared (requests present on one side only are differences).
    pub requests_compared: usize,
    /// Whether both inputs were rollouts and their line sequences were compared.
    pub rollouts_compared: bool,
    pub differences: Vec<Difference>,
    pub prose_differences: Vec<ProseDifference>,
}

impl CompareReport {
    pub fn is_structurally_equal(&self) -> bool {
        self.differences.is_empty()
    }

    /// The summary line, without a line break.
    pub fn summary(&self) -> String {
        format!(
            "{} requests compared, {} structural differences",
            self.requests_compared,
            self.differences.len()
        )
    }

    /// One line per difference (a `TextChanged` diff follows its line), then each prose diff
    /// under a `prose` line, then the summary line.
    pub fn render_text(&self) -> String {
        let mut text = String::new();
        for difference in &self.differences {
            text.push_str(&difference.to_string());
            text.push('\n');
            if let DifferenceDetail::TextChanged {
                diff: Some(diff), ..
            } = &difference.detail
            {
                push_block(&mut text, diff);
            }
        }
        for prose in &self.prose_differences {
            let location = location(Some(prose.request), &prose.position);
            text.push_str(&format!(
                "{location}: prose differs ({})\n",
                prose.classification
            ));
            push_block(&mut text, &prose.diff);
        }
        text.push_str(&self.summary());
        text.push('\n');
        text
    }
}

fn push_block(text: &mut String, block: &str) {
    text.push_str(block);
    if !block.ends_with('\n') {
        text.push('\n');
    }
}

fn location(request: Option<usize>, position: &Position) -> String {
    let scope = match request {
        Some(number) => format!("request {number}"),
        None => "rollout".to_string(),
    };
    match position {
        Position::Request => scope,
        Position::Field { field } => format!("{scope}: {field}"),
        Position::Item { a, b } => format!("{scope}: {}", indexed("input", *a, *b)),
        Position::Entry { a, b, entry } => {
            format!(
                "{scope}: {}.content[{entry}]",
                indexed("input", Some(*a), Some(*b))
            )
        }
        Position::RolloutLine { a, b } => match (a, b) {
            (Some(a), Some(b)) if a == b => format!("{scope}: line {a}"),
            (Some(a), Some(b)) => format!("{scope}: line A{a} B{b}"),
            (Some(line), None) | (None, Some(line)) => format!("{scope}: line {line}"),
            (None, None) => scope,
        },
        Position::TurnContexts => format!("{scope}: turn_context"),
    }
}

/// `input[2]` when both sides agree (or only one has it), `input A[2] B[3]` otherwise.
fn indexed(name: &str, a: Option<usize>, b: Option<usize>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if a == b => format!("{name}[{a}]"),
        (Some(a), Some(b)) => format!("{name} A[{a}] B[{b}]"),
        (Some(index), None) | (None, Some(index)) => format!("{name}[{index}]"),
        (None, None) => name.to_string(),
    }
}

fn list(items: &[String]) -> String {
    format!("[{}]", items.join(", "))
}

fn present(present: bool) -> &'static str {
    if present { "present" } else { "absent" }
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", location(self.request, &self.position))?;
        match &self.detail {
            DifferenceDetail::RequestOnlyIn { side } => write!(f, "only in {side}"),
            DifferenceDetail::FieldPresence { a, b } => {
                write!(f, "{} != {}", present(*a), present(*b))
            }
            DifferenceDetail::FieldValue { a, b } => write!(f, "{a} != {b}"),
            DifferenceDetail::ToolOnlyIn { side, name } => {
                write!(f, "tool {name} only in {side}")
            }
            DifferenceDetail::ToolOrder { a, b } => {
                write!(f, "tool order {} != {}", list(a), list(b))
            }
            DifferenceDetail::ToolShape { tool, aspect, a, b } => {
                write!(f, "tool {tool} {aspect} {} != {}", list(a), list(b))
            }
            DifferenceDetail::KeyOrder { a, b } => {
                write!(f, "key order {} != {}", list(a), list(b))
            }
            DifferenceDetail::KeysOnlyIn { side, keys } => {
                write!(f, "keys {} only in {side}", list(keys))
            }
            DifferenceDetail::IdPresence { a, b } => {
                write!(f, "id {} != {}", present(*a), present(*b))
            }
            DifferenceDetail::ItemOnlyIn { side, shape } => {
                write!(f, "only in {side} ({shape})")
            }
            DifferenceDetail::ItemMoved { shape } => write!(f, "moved ({shape})"),
            DifferenceDetail::RoleChanged { a, b } => write!(f, "role {a} != {b}"),
            DifferenceDetail::ContentCount { a, b } => write!(
                f,
                "content entries {} != {} ({} != {})",
                a.len(),
                b.len(),
                list(a),
                list(b)
            ),
            DifferenceDetail::ContentOrder { a, b } => {
                write!(f, "content order {} != {}", list(a), list(b))
            }
            DifferenceDetail::Classification { a, b } => write!(f, "{a} != {b}"),
            DifferenceDetail::TextChanged { classification, .. } => {
                write!(f, "{classification}: text differs")
            }
            DifferenceDetail::TagOnlyIn {
                classification,
                side,
                tag,
            } => write!(f, "{classification}: tag {tag} only in {side}"),
            DifferenceDetail::Header {
                classification,
                a,
                b,
            } => write!(f, "{classification}: header {a:?} != {b:?}"),
            DifferenceDetail::Wrapper {
                classification,
                wrapper,
                a,
                b,
            } => write!(
                f,
                "{classification}: wrapper {wrapper} {} != {}",
                present(*a),
                present(*b)
            ),
            DifferenceDetail::RolloutLineOnlyIn { side, line_type } => {
                write!(f, "{line_type} only in {side}")
            }
            DifferenceDetail::WorldStateMode { a, b } => write!(f, "world_state {a} != {b}"),
            DifferenceDetail::WorldStateSections { a, b } => {
                write!(f, "world_state sections {} != {}", list(a), list(b))
            }
            DifferenceDetail::TurnContextCount { a, b } => write!(f, "lines {a} != {b}"),
        }
    }
}
