//! `cargo xtask gen-rollout`: a deterministic rollout in the line shapes a released Codex CLI
//! writes (0.149.1 or 0.171.0), for benchmarks of the commands that read long sessions.
//!
//! The thread is a `codex exec` session resumed turn after turn: the first turn writes the
//! session's metadata and initial context, every later one what `codex exec resume` appends
//! (the thread's settings, then the turn). Turns hold user prompts, reasoning with encrypted
//! content, `exec_command` calls and their output (a few hundred bytes to tens of kilobytes,
//! now and then more), assistant answers and token counts; a turn whose context passes
//! [`COMPACT_AT_TOKENS`] compacts it, and a turn on a new day records the new date as a
//! world-state patch. Whole turns are written until the file holds at least the lines asked
//! for, so it ends at a turn boundary (a `task_complete` line) a few lines past that number.
//!
//! Every timestamp, id and text is drawn from the seed: the same options give the same bytes.

mod compaction;
mod context;
mod items;
mod random;

#[cfg(test)]
mod tests;

use std::io;
use std::io::Write;
use std::path::Path;

use codex_release::CodexRelease;
use codex_utils_fs::Existing;
use codex_utils_fs::StagedFile;
use serde_json::Value;
use serde_json::json;

use crate::error::XtaskError;
use random::Clock;
use random::Rng;

/// The seed when none is given.
pub const DEFAULT_SEED: u64 = 17;
/// The working directory the thread records when none is given.
pub const DEFAULT_CWD: &str = "/home/dev/project";
/// The model provider the thread records when none is given.
pub const DEFAULT_MODEL_PROVIDER: &str = "openai";
/// Estimated context (in tokens, a quarter of the bytes of history) past which a turn
/// compacts it.
pub const COMPACT_AT_TOKENS: u64 = 120_000;
/// The model every turn uses.
/// The model every generated turn runs on.
pub(crate) const MODEL: &str = "gpt-5.5";
const CONTEXT_WINDOW: u64 = 258_400;
/// Tokens of the initial context and tools, counted in every request.
const BASE_TOKENS: u64 = 9_000;
/// The most of a huge output the command-execution event repeats.
const EVENT_OUTPUT_CAP: usize = 64 * 1024;

/// What to generate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenOptions {
    /// At least this many lines (whole turns are written).
    pub lines: u64,
    /// The release whose line shapes are written.
    pub release: CodexRelease,
    pub seed: u64,
    /// When set, the first command output of the thread is this many bytes long.
    pub huge_output_bytes: Option<u64>,
    /// The working directory the thread records.
    pub cwd: String,
    /// The model provider the thread records (a released CLI resumes a thread only with the
    /// provider it started with).
    pub model_provider: String,
}

/// What was generated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenSummary {
    pub lines: u64,
    pub bytes: u64,
    pub turns: u64,
    pub compactions: u64,
    /// The thread's id (`session_meta.id`).
    pub thread_id: String,
    /// `session_meta.timestamp`, e.g. `2026-03-02T08:15:42.123Z`.
    pub started_at: String,
}

/// Writes the rollout `options` describe to `out`.
pub fn generate(options: &GenOptions, out: &mut dyn Write) -> io::Result<GenSummary> {
    let mut generator = Generator::new(options, out);
    let first_line_time = generator.clock.timestamp();
    generator.turn(TurnStart::First)?;
    while generator.lines < options.lines {
        generator.turn(TurnStart::Resumed)?;
    }
    Ok(GenSummary {
        lines: generator.lines,
        bytes: generator.bytes,
        turns: generator.turns,
        compactions: generator.compactions,
        thread_id: generator.thread_id.clone(),
        started_at: first_line_time,
    })
}

/// Generates into `path` through a temporary file renamed into place; an existing file is
/// replaced only with [`Existing::Replace`].
pub fn write_rollout(
    options: &GenOptions,
    path: &Path,
    existing: Existing,
) -> Result<GenSummary, XtaskError> {
    let mut staged = StagedFile::create(path, existing)?;
    let summary = {
        let mut out = io::BufWriter::with_capacity(1 << 20, staged.file_mut());
        let summary = generate(options, &mut out).map_err(|source| XtaskError::io(path, source))?;
        out.flush().map_err(|source| XtaskError::io(path, source))?;
        summary
    };
    staged.commit()?;
    Ok(summary)
}

/// Which release's line shapes are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shapes {
    V0149,
    V0171,
}

/// How a turn begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TurnStart {
    /// `codex exec`: session metadata and the initial context.
    First,
    /// `codex exec resume`: the thread's settings, and a date patch on a new day.
    Resumed,
}

/// Token usage of one request or a sum of them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Usage {
    input: u64,
    cached: u64,
    output: u64,
    reasoning: u64,
}

impl Usage {
    fn add(&mut self, other: Usage) {
        self.input += other.input;
        self.cached += other.cached;
        self.output += other.output;
        self.reasoning += other.reasoning;
    }

    fn to_json(self) -> Value {
        json!({
            "input_tokens": self.input,
            "cached_input_tokens": self.cached,
            "cache_write_input_tokens": 0,
            "output_tokens": self.output,
            "reasoning_output_tokens": self.reasoning,
            "total_tokens": self.input + self.output,
        })
    }
}

/// A user message the thread keeps through compactions.
#[derive(Debug, Clone)]
struct KeptUserMessage {
    id: String,
    turn_id: String,
    text: String,
    create_time: f64,
    revision: String,
    order: u64,
}

/// The state of the thread being written.
struct Generator<'a> {
    shapes: Shapes,
    release: CodexRelease,
    out: &'a mut dyn Write,
    rng: Rng,
    clock: Clock,
    cwd: String,
    model_provider: String,
    lines: u64,
    bytes: u64,
    turns: u64,
    compactions: u64,
    thread_id: String,
    turn_id: String,
    turn_started_ms: u64,
    first_window_id: String,
    window_id: String,
    window_number: u64,
    /// The date the world state last recorded.
    recorded_date: String,
    history_sequence: u64,
    sampled_through: u64,
    user_input_order: u64,
    response_number: u64,
    call_number: u64,
    /// Bytes of model-visible history since the last compaction.
    context_bytes: u64,
    thread_usage: Usage,
    turn_usage: Usage,
    last_usage: Usage,
    kept_user_messages: Vec<KeptUserMessage>,
    huge_output: Option<usize>,
}

impl<'a> Generator<'a> {
    fn new(options: &GenOptions, out: &'a mut dyn Write) -> Self {
        let shapes = match options.release {
            CodexRelease::V0_149 => Shapes::V0149,
            CodexRelease::V0_171 => Shapes::V0171,
        };
        let mut rng = Rng::new(options.seed);
        let clock = Clock::start(&mut rng);
        let thread_id = clock.uuid(&mut rng);
        let window_id = clock.uuid(&mut rng);
        Self {
            shapes,
            release: options.release,
            out,
            recorded_date: clock.date(),
            rng,
            clock,
            cwd: options.cwd.clone(),
            model_provider: options.model_provider.clone(),
            lines: 0,
            bytes: 0,
            turns: 0,
            compactions: 0,
            thread_id,
            turn_id: String::new(),
            turn_started_ms: 0,
            first_window_id: window_id.clone(),
            window_id,
            window_number: 0,
            history_sequence: 0,
            sampled_through: 0,
            user_input_order: 0,
            response_number: 0,
            call_number: 0,
            context_bytes: 0,
            thread_usage: Usage::default(),
            turn_usage: Usage::default(),
            last_usage: Usage::default(),
            kept_user_messages: Vec::new(),
            huge_output: options
                .huge_output_bytes
                .map(|bytes| usize::try_from(bytes).unwrap_or(usize::MAX)),
        }
    }

    /// Writes one line (`metadata` after the payload, as 0.171 writes it for response items)
    /// and moves the clock on by a few milliseconds.
    fn emit(&mut self, line_type: &str, payload: Value, metadata: Option<Value>) -> io::Result<()> {
        let mut line = json!({
            "timestamp": self.clock.timestamp(),
            "ordinal": self.lines,
            "type": line_type,
            "payload": payload,
        });
        if let (Some(metadata), Some(object)) = (metadata, line.as_object_mut()) {
            object.insert("metadata".to_string(), metadata);
        }
        let mut text = serde_json::to_string(&line).map_err(io::Error::other)?;
        text.push('\n');
        self.out.write_all(text.as_bytes())?;
        self.lines += 1;
        self.bytes += text.len() as u64;
        let step = self.rng.range(1, 40);
        self.clock.advance(step);
        Ok(())
    }

    /// Estimated tokens of the context the next request sends.
    fn context_tokens(&self) -> u64 {
        BASE_TOKENS + self.context_bytes / 4
    }

    /// One turn: its start, the user's prompt, tool rounds, maybe a compaction, the answer.
    fn turn(&mut self, start: TurnStart) -> io::Result<()> {
        self.turns += 1;
        // Between turns: minutes to hours (the user reads, thinks, goes home).
        let pause = match self.rng.range(0, 9) {
            0 => self.rng.range(3_600_000, 14 * 3_600_000),
            _ => self.rng.range(20_000, 900_000),
        };
        self.clock.advance(pause);
        self.turn_id = self.clock.uuid(&mut self.rng);
        self.turn_started_ms = self.clock.ms();
        self.turn_usage = Usage::default();
        match start {
            TurnStart::First => {
                self.session_meta()?;
                self.task_started()?;
                self.initial_context()?;
                self.world_state_full()?;
                self.turn_context()?;
                match self.shapes {
                    Shapes::V0149 => {}
                    Shapes::V0171 => self.thread_settings_applied()?,
                }
            }
            TurnStart::Resumed => {
                self.thread_settings_applied()?;
                self.task_started()?;
                if self.clock.date() != self.recorded_date {
                    self.date_update()?;
                }
                self.turn_context()?;
            }
        }
        self.user_prompt()?;
        let rounds = match (self.huge_output, self.rng.range(0, 99)) {
            (Some(_), _) => 1,
            (None, 0..=14) => 0,
            (None, 15..=79) => self.rng.range(1, 4),
            (None, _) => self.rng.range(5, 12),
        };
        for _ in 0..rounds {
            if self.rng.chance(50) {
                self.reasoning()?;
            }
            self.tool_round()?;
        }
        if self.context_tokens() > COMPACT_AT_TOKENS {
            self.compaction()?;
        }
        if self.rng.chance(60) {
            self.reasoning()?;
        }
        self.answer()
    }
}
