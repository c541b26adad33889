//! Tools over assembly, not part of it: views of requests and rollouts that `codex-core` builds
//! and writes. Nothing here changes what a thread sends; `codex-core` never depends on this
//! crate.
//!
//! - `explain`: where every entry of a first-turn request came from.
//! - `inspect`: every request a rollout records, rebuilt and measured in o200k tokens, with the
//!   request statistics the CLI prints for bodies it built itself.
//! - `compare`: a structural diff of two sets of `/responses` requests (and rollouts).
//! - `layout`: the model-visible layout of a request's `input`, in upstream's snapshot format.

mod compare;
mod corpus;
mod explain;
mod inspect;
mod layout;
mod recording;
mod recording_report;

// `explain`: the source, role, content kind and size of every entry of a first-turn request,
// and the AGENTS.md files found.
pub use explain::AgentsMdFile;
pub use explain::EntryExplanation;
pub use explain::Explanation;
pub use explain::InstructionsExplanation;
pub use explain::ItemExplanation;
pub use explain::explain_first_turn;

// `inspect`: a rollout's requests rebuilt, classified entry by entry, with token breakdowns,
// prefix reuse and the world-state timeline; its text, JSON and HTML reports.
pub use inspect::BreakReason;
pub use inspect::CacheReport;
pub use inspect::EmittedFragment;
pub use inspect::EntryClass;
pub use inspect::EntryReport;
pub use inspect::EntryTexts;
pub use inspect::ExchangeReport;
pub use inspect::HistoryRewrite;
pub use inspect::HtmlPage;
pub use inspect::InspectCatalogs;
pub use inspect::InspectError;
pub use inspect::InspectOptions;
pub use inspect::Inspection;
pub use inspect::InstructionsReport;
pub use inspect::ItemReport;
pub use inspect::PrefixBreak;
pub use inspect::RebuiltRequest;
pub use inspect::Recognition;
pub use inspect::RecordingReport;
pub use inspect::ReleaseReport;
pub use inspect::RequestKind;
pub use inspect::RequestReport;
pub use inspect::SectionChange;
pub use inspect::TimelineTurn;
pub use inspect::TokenBreakdown;
pub use inspect::TokenSource;
pub use inspect::ToolsOrigin;
pub use inspect::ToolsReport;
pub use inspect::inspect_file;
pub use inspect::inspect_rollout;
pub use inspect::rebuild_requests;
pub use inspect::release_for_rollout;
pub use inspect::render_html;
pub use inspect::render_html_page;
pub use inspect::render_json;
pub use inspect::render_text;
pub use inspect::write_text;

// `inspect DIR`: many rollouts inspected in parallel, each reduced to a session summary and
// (for `--format ndjson`) one flat row per request, handed back in path order.
pub use corpus::BreakCounts;
pub use corpus::CorpusError;
pub use corpus::CorpusFile;
pub use corpus::CorpusReport;
pub use corpus::CorpusTotals;
pub use corpus::FileDigest;
pub use corpus::FileOutcome;
pub use corpus::InjectedItem;
pub use corpus::RequestRow;
pub use corpus::RolloutListing;
pub use corpus::Rows;
pub use corpus::SessionSummary;
pub use corpus::SkippedFile;
pub use corpus::WindowPressure;
pub use corpus::digest_file;
pub use corpus::find_rollouts;
pub use corpus::inspect_files;
pub use corpus::render_session_text;
pub use corpus::render_totals_text;

// Request statistics and token counting for reports: the same token breakdown and prefix
// reuse for request bodies a caller built, and the o200k_base counter behind every figure.
pub use inspect::RequestStat;
pub use inspect::RequestStats;
pub use inspect::RequestStatsAccumulator;
pub use inspect::TokenCounter;
pub use inspect::context_window_excess;
pub use inspect::render_request_stats;
pub use inspect::request_stats;

// `compare`: two sets of requests (request bodies, folders, JSON lines or rollouts) paired in
// order and diffed by structure, prose inside recognised fragments left out unless asked for.
pub use compare::CompareError;
pub use compare::CompareInput;
pub use compare::CompareReport;
pub use compare::Difference;
pub use compare::DifferenceDetail;
pub use compare::InputKind;
pub use compare::Position;
pub use compare::ProseDifference;
pub use compare::ProseMode;
pub use compare::Side;
pub use compare::WorldStateMode;
pub use compare::compare_inputs;
pub use compare::load_compare_input;
pub use compare::parse_compare_input;

// `layout`: one line per input item in upstream's layout-snapshot format, well-known context
// blocks optionally collapsed to placeholders.
pub use layout::DEFAULT_LAYOUT_MAX_CHARS;
pub use layout::LayoutOptions;
pub use layout::LayoutText;
pub use layout::render_layout;
pub use layout::render_request_layout;

// Recordings of `codex-context proxy`: one line per exchange (tokens by source, server usage,
// prefix reuse against the thread's previous request), the report of a recording folder, and
// the recording as an inspection (the bodies as sent, for the JSON and HTML reports).
pub use recording::ExchangeView;
pub use recording::TurnCounter;
pub use recording::parse_recorded_request;
pub use recording::render_exchange_line;
pub use recording::render_recording_text;
pub use recording_report::inspect_recording;
