//! Cost of one steady-state turn against the length of history.
//!
//! A measured turn runs on a warm session (resumed onto a history of N items, then a few turns
//! played untimed, so the fragment index has seen the whole history; once history grew by 200
//! items the extra turns are rolled back, untimed): `task_started`, the
//! context updates for a turn whose cwd changed, the user's message, the model's reply and
//! `task_complete`, every rollout line serialised. Building the next request (a copy of the
//! whole history) is deliberately not part of it. The target is the 10,000-item turn within
//! 1.5x the 10-item turn (docs/benchmarks.md).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;
use std::time::Instant;

use codex_core::IdGenerator;
use codex_core::PreviousTurnSettings;
use codex_core::ResumedSession;
use codex_core::RolloutSink;
use codex_core::RolloutSinkError;
use codex_core::Session;
use codex_core::SessionInit;
use codex_core::TurnContext;
use codex_models_manager::ModelCatalog;
use codex_prompts::TemplateSet;
use codex_protocol::BaseInstructions;
use codex_protocol::ContentItem;
use codex_protocol::ContentItemKind;
use codex_protocol::InternalChatMessageMetadataPassthrough;
use codex_protocol::ResponseItem;
use codex_protocol::RolloutLine;
use criterion::BenchmarkId;
use criterion::Criterion;
use criterion::criterion_group;
use criterion::criterion_main;

/// Serialises every line, as a file writer would, and keeps nothing.
struct SerializingSink;

impl RolloutSink for SerializingSink {
    fn append(&mut self, line: RolloutLine) -> Result<(), RolloutSinkError> {
        black_box(serde_json::to_vec(&line).map_err(|error| RolloutSinkError(Box::new(error)))?);
        Ok(())
    }
}

fn ids() -> Arc<IdGenerator> {
    Arc::new(IdGenerator::seeded(
        3,
        "2026-11-30T07:02:00Z".parse().unwrap(),
    ))
}

fn first_turn(ids: &IdGenerator) -> TurnContext {
    let catalog = ModelCatalog::bundled().unwrap();
    let model = catalog.default_model().unwrap().clone();
    let mut turn = TurnContext::for_model("thread", ids.turn_id().to_string(), model, "/repo");
    turn.current_date = "2026-11-30".to_string();
    turn.timezone = "Etc/UTC".to_string();
    turn
}

fn next_turn(previous: &TurnContext, ids: &IdGenerator, cwd: &str) -> TurnContext {
    let mut turn = previous.clone();
    turn.turn_id = ids.turn_id().to_string();
    turn.previous_turn = Some(PreviousTurnSettings {
        model: previous.model.slug.clone(),
        personality: previous.personality,
    });
    turn.cwd = cwd.into();
    turn.environments[0].cwd = cwd.to_string();
    turn
}

fn init(ids: &Arc<IdGenerator>) -> SessionInit {
    SessionInit {
        thread_id: "thread".to_string(),
        base_instructions: BaseInstructions {
            text: String::new(),
            provenance: None,
        },
        templates: TemplateSet::embedded(),
        ids: Arc::clone(ids),
        history_mode: codex_core::HistoryMode::Legacy,
        release: codex_release::CodexRelease::REFERENCE,
    }
}

fn typed(text: String) -> ResponseItem {
    ResponseItem::Message {
        encrypted_content: None,
        status: None,
        id: None,
        role: "user".to_string(),
        content: vec![ContentItem::input_text(text)],
        phase: None,
        internal_chat_message_metadata_passthrough: Some(InternalChatMessageMetadataPassthrough {
            content_item_kinds: Some(vec![ContentItemKind::new("user.text")]),
            ..InternalChatMessageMetadataPassthrough::default()
        }),
    }
}

fn play(session: &mut Session<SerializingSink>, turn: &TurnContext) {
    session.start_turn(turn).unwrap();
    session
        .record_context_updates_and_set_reference_context_item(turn)
        .unwrap();
    session.record_user_message("next step").unwrap();
    session
        .record_model_output(vec![ResponseItem::message(
            "assistant",
            vec![ContentItem::output_text("done")],
        )])
        .unwrap();
    session.complete_turn().unwrap();
}

/// The state after a first turn followed by `len` items of conversation.
fn resumed_state(len: usize) -> (ResumedSession, TurnContext) {
    let ids = ids();
    let turn = first_turn(&ids);
    let mut session = Session::new(init(&ids), SerializingSink);
    play(&mut session, &turn);
    let mut history = session.history().items().to_vec();
    history.extend((0..len.saturating_sub(history.len())).map(|index| {
        if index % 2 == 0 {
            typed(format!("question {index}"))
        } else {
            ResponseItem::message("assistant", vec![ContentItem::output_text("answer")])
        }
    }));
    let resumed = ResumedSession {
        history,
        reference_context_item: session.reference_context_item().cloned(),
        world_state_baseline: session.world_state_baseline().cloned(),
        recorded_model: None,
        baseline_author: codex_core::BaselineAuthor::ThisProject,
    };
    (resumed, turn)
}

/// How far a session's history may grow past its nominal length before the benchmark rolls the
/// extra turns back (untimed); each turn appends five items.
const MAX_GROWTH: usize = 200;
/// Untimed turns played after resuming and after each rollback: the first one re-scans the
/// whole history into the fragment index, the others let the allocator settle.
const WARM_UP_TURNS: u64 = 4;

/// A session on its nominal history, the turn context it last ran and how many user turns it
/// played since it was resumed.
struct Bench {
    session: Session<SerializingSink>,
    turn: TurnContext,
    ids: Arc<IdGenerator>,
    played: usize,
}

impl Bench {
    fn resume(resumed: &ResumedSession, first: &TurnContext) -> Self {
        let ids = ids();
        let session = Session::resume(init(&ids), resumed.clone(), SerializingSink);
        let mut bench = Self {
            session,
            turn: first.clone(),
            ids,
            played: 0,
        };
        bench.warm_up();
        bench
    }

    /// The next turn, moving between two working directories so every turn has a diff to
    /// record.
    fn next(&mut self) -> &TurnContext {
        let cwd = if self.played.is_multiple_of(2) {
            "/repo/a"
        } else {
            "/repo/b"
        };
        self.turn = next_turn(&self.turn, &self.ids, cwd);
        self.played += 1;
        &self.turn
    }

    fn warm_up(&mut self) {
        for _ in 0..WARM_UP_TURNS {
            let turn = self.next().clone();
            play(&mut self.session, &turn);
        }
    }

    /// Back to the nominal history without freeing it (dropping a large history between
    /// measured turns disturbs the allocator more than the turn itself costs).
    fn roll_back(&mut self) {
        self.session.rollback(self.played, None, None).unwrap();
        self.played = 0;
        self.warm_up();
    }
}

fn steady_state(c: &mut Criterion) {
    let mut group = c.benchmark_group("steady_state_turn");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for len in [10usize, 10_000] {
        let (resumed, first) = resumed_state(len);
        let nominal = resumed.history.len();
        let mut bench = Bench::resume(&resumed, &first);
        group.bench_with_input(BenchmarkId::from_parameter(len), &len, |b, _| {
            b.iter_custom(|iters| {
                let mut measured = Duration::ZERO;
                for _ in 0..iters {
                    if bench.session.history().len() > nominal + MAX_GROWTH {
                        bench.roll_back();
                    }
                    let turn = bench.next().clone();
                    let start = Instant::now();
                    play(&mut bench.session, &turn);
                    measured += start.elapsed();
                }
                measured
            });
        });
    }
    group.finish();
}

criterion_group!(benches, steady_state);
criterion_main!(benches);
