//! The walk visitor that turns rebuilt requests into the inspection report, item by item and
//! only for what is new in each request.

use std::rc::Rc;
use std::sync::Arc;

use codex_context_fragments::ContextualUserFragment;
use codex_core::ToolSpec;
use codex_fragments::compaction_prompt::CompactionPrompt;
use codex_prompts::TemplateSet;
use codex_protocol::ContentItem;
use codex_protocol::ContentItemKind;
use codex_protocol::ResponseItem;
use codex_protocol::rollout::WorldStateItem;

use super::EntryTexts;
use super::InspectError;
use super::classify::ClassifyContext;
use super::classify::classify_item;
use super::classify::fragment_section;
use super::classify::injected_fragment;
use super::model::BreakReason;
use super::model::CacheReport;
use super::model::EmittedFragment;
use super::model::HistoryRewrite;
use super::model::PrefixBreak;
use super::model::RequestKind;
use super::model::RequestReport;
use super::model::SectionChange;
use super::model::TimelineTurn;
use super::model::ToolsOrigin;
use super::model::ToolsReport;
use super::setup::RequestSetup;
use super::setup::RequestSetups;
use super::summary::ItemLedger;
use super::summary::break_at_item;
use super::summary::break_before_input;
use super::summary::percent;
use super::tokens::TokenCounter;
use super::walk::PreviousInput;
use super::walk::Rewrite;
use super::walk::StepRequest;
use super::walk::WalkVisitor;

/// What the compaction requests of a rollout carry that the rollout does not record: the
/// rebuilt request carries this project's prompt in its place.
const UNRECORDED_COMPACTION_PROMPT: &str =
    "compaction prompt (not recorded in the rollout; this project's prompt stands in)";

/// Token counts of a setup's `instructions` and `tools` fields, counted once per setup.
struct FieldTokens {
    setup: Rc<RequestSetup>,
    instructions: usize,
    tools: ToolsReport,
}

/// A timeline turn while the walk is still adding to it.
struct TurnDraft {
    turn: TimelineTurn,
    fragments: Vec<(Option<&'static str>, EmittedFragment)>,
}

pub(super) struct Inspector<'c> {
    setups: RequestSetups<'c>,
    texts: EntryTexts,
    counter: TokenCounter,
    instructions_provenance: String,
    fields: Vec<FieldTokens>,
    /// The previous request's whole input (Responses Lite prefix included).
    ledger: ItemLedger,
    previous: Option<Rc<RequestSetup>>,
    /// What the previous request was for (a compaction request sends no tools).
    previous_kind: Option<RequestKind>,
    requests: Vec<RequestReport>,
    turns: Vec<TurnDraft>,
}

impl<'c> Inspector<'c> {
    pub fn new(
        setups: RequestSetups<'c>,
        instructions_provenance: String,
        texts: EntryTexts,
    ) -> Self {
        Self {
            texts,
            setups,
            counter: TokenCounter::new(),
            instructions_provenance,
            fields: Vec::new(),
            ledger: ItemLedger::new(),
            previous: None,
            previous_kind: None,
            requests: Vec::new(),
            turns: Vec::new(),
        }
    }

    pub fn counter(&mut self) -> &mut TokenCounter {
        &mut self.counter
    }

    /// The requests and the timeline, with each turn's fragments placed under the world-state
    /// section they render (or among the turn's other fragments).
    pub fn finish(self) -> (Vec<RequestReport>, Vec<TimelineTurn>) {
        let timeline = self
            .turns
            .into_iter()
            .map(|draft| {
                let mut turn = draft.turn;
                for (section, fragment) in draft.fragments {
                    let change = section.and_then(|section| {
                        turn.sections
                            .iter_mut()
                            .rev()
                            .find(|change| change.section == section)
                    });
                    match change {
                        Some(change) => change.fragments.push(fragment),
                        None => turn.other_fragments.push(fragment),
                    }
                }
                turn
            })
            .collect();
        (self.requests, timeline)
    }

    fn field_tokens(&mut self, setup: &Rc<RequestSetup>) -> usize {
        if let Some(position) = self
            .fields
            .iter()
            .position(|fields| Rc::ptr_eq(&fields.setup, setup))
        {
            return position;
        }
        let tools_json = match &setup.empty_body.tools {
            Some(tools) => serde_json::to_string(tools).unwrap_or_default(),
            None => String::new(),
        };
        self.fields.push(FieldTokens {
            setup: Rc::clone(setup),
            instructions: self.counter.count(&setup.empty_body.instructions),
            tools: ToolsReport {
                origin: setup.tools_origin,
                names: setup
                    .tools
                    .iter()
                    .map(|tool| {
                        let unnamed = match tool {
                            ToolSpec::WebSearch(_) => "web_search",
                            ToolSpec::LocalShell {} => "local_shell",
                            ToolSpec::ToolSearch(_) => "tool_search",
                            ToolSpec::Function(_)
                            | ToolSpec::Custom(_)
                            | ToolSpec::Namespace(_)
                            | ToolSpec::Other(_) => "tool",
                        };
                        tool.name().unwrap_or(unnamed).to_string()
                    })
                    .collect(),
                in_field: setup.empty_body.tools.is_some(),
                bytes: tools_json.len(),
                tokens: self.counter.count(&tools_json),
            },
        });
        self.fields.len() - 1
    }

    fn current_turn(&mut self) -> &mut TurnDraft {
        if self.turns.is_empty() {
            self.turns.push(TurnDraft {
                turn: TimelineTurn {
                    turn: 0,
                    turn_id: None,
                    line: 0,
                    sections: Vec::new(),
                    other_fragments: Vec::new(),
                    rewrites: Vec::new(),
                },
                fragments: Vec::new(),
            });
        }
        let last = self.turns.len() - 1;
        &mut self.turns[last]
    }
}

impl WalkVisitor for Inspector<'_> {
    fn request(&mut self, step: StepRequest<'_>) -> Result<(), InspectError> {
        let setup = self.setups.get(step.turn_context)?;
        let fields = self.field_tokens(&setup);
        let previous_setup = self.previous.replace(Rc::clone(&setup));
        let previous_kind = self.previous_kind.replace(step.kind);
        // A compaction request ends with the (unrecorded) prompt and sends no tools.
        let prompt = match step.kind {
            RequestKind::Turn => None,
            RequestKind::Compaction => {
                Some(CompactionPrompt::new(&TemplateSet::embedded()).into_response_item())
            }
        };
        let empty: &[ResponseItem] = &[];
        let previous_rest = match step.previous {
            PreviousInput::None => empty,
            PreviousInput::Extended { len } => &step.input[..len],
            PreviousInput::Replaced(previous) => previous,
        };
        let previous_prefix = previous_setup
            .as_deref()
            .map_or(empty, |previous| previous.input_prefix(previous_rest));
        let prefix = setup.input_prefix(step.input);
        let same_setup = previous_kind == Some(step.kind)
            && previous_setup
                .as_ref()
                .is_some_and(|previous| Rc::ptr_eq(previous, &setup));
        let same_prefix = same_setup || previous_prefix == prefix;
        let previous_len = self.ledger.len();
        let carried = match step.previous {
            PreviousInput::None => 0,
            PreviousInput::Extended { len } if same_prefix => prefix.len() + len,
            // Items sent identically count as shared even when history recorded them
            // differently (an id or metadata the provider never sees).
            PreviousInput::Extended { .. } | PreviousInput::Replaced(_) => previous_prefix
                .iter()
                .chain(previous_rest)
                .zip(prefix.iter().chain(step.input))
                .take_while(|(before, now)| {
                    before == now || setup.prepare(before) == setup.prepare(now)
                })
                .count(),
        }
        .min(previous_len);

        self.ledger.keep(carried);
        let context = ClassifyContext {
            instructions_provenance: &self.instructions_provenance,
            texts: self.texts,
        };
        let mut items = Vec::new();
        for (index, item) in prefix
            .iter()
            .chain(step.input)
            .chain(prompt.iter())
            .enumerate()
            .skip(carried)
        {
            let sent_bytes = setup.sent_bytes(item);
            let classified = classify_item(index, item, sent_bytes, &context, &mut self.counter);
            self.ledger.push(classified.tokens);
            items.push(classified.report);
        }

        // A compaction request's `tools` field is an empty list.
        let no_tools = "[]";
        let no_tools_tokens = self.counter.count(no_tools);
        let field = &self.fields[fields];
        let tools = match step.kind {
            RequestKind::Turn => field.tools.clone(),
            RequestKind::Compaction => ToolsReport {
                origin: ToolsOrigin::NoneOffered,
                names: Arc::from([]),
                in_field: true,
                bytes: no_tools.len(),
                tokens: no_tools_tokens,
            },
        };
        let tokens = self
            .ledger
            .breakdown(carried, field.instructions, tools.tokens);
        let total_tokens = tokens.total();

        let cache = previous_setup.as_deref().map(|previous| {
            let before_input = if same_setup {
                None
            } else if previous_kind != Some(step.kind) {
                Some(PrefixBreak {
                    reason: BreakReason::ToolsChanged,
                    item_index: None,
                    previous_item: None,
                    current_item: None,
                })
            } else {
                break_before_input(&previous.empty_body, &setup.empty_body)
            };
            let (prefix_tokens, prefix_items, prefix_break) = match before_input {
                Some(broken) => (0, 0, Some(broken)),
                None => {
                    let inside_input = (carried < previous_len).then(|| {
                        let reason = match step.rewrite {
                            Some(Rewrite::Compaction) => BreakReason::Compaction,
                            Some(Rewrite::Rollback) => BreakReason::HistoryRewritten,
                            None => match prefix.get(carried) {
                                Some(ResponseItem::AdditionalTools { .. }) => {
                                    BreakReason::ToolsChanged
                                }
                                Some(_) => BreakReason::InstructionsChanged,
                                None => BreakReason::HistoryRewritten,
                            },
                        };
                        break_at_item(
                            reason,
                            carried,
                            previous_prefix.iter().chain(previous_rest).nth(carried),
                            prefix.iter().chain(step.input).nth(carried),
                        )
                    });
                    (
                        field.instructions
                            + tools.tokens
                            + self.ledger.sum_of_first(carried).total(),
                        carried,
                        inside_input,
                    )
                }
            };
            CacheReport {
                prefix_tokens,
                prefix_percent: percent(prefix_tokens, total_tokens),
                prefix_items,
                prefix_break,
            }
        });

        self.requests.push(RequestReport {
            number: self.requests.len() + 1,
            kind: step.kind,
            turn: step.turn,
            turn_id: step.turn_id.map(str::to_string),
            step: step.step,
            line: step.line,
            model: setup.model.slug.clone(),
            instructions_in_field: !setup.empty_body.instructions.is_empty(),
            tools,
            input_items: self.ledger.len(),
            carried_items: carried,
            items,
            tokens,
            total_tokens,
            cache,
            unrecorded: match step.kind {
                RequestKind::Turn => Vec::new(),
                RequestKind::Compaction => vec![UNRECORDED_COMPACTION_PROMPT.to_string()],
            },
            exchange: None,
        });
        Ok(())
    }

    fn turn_started(&mut self, turn: usize, turn_id: Option<&str>, line: usize) {
        self.turns.push(TurnDraft {
            turn: TimelineTurn {
                turn,
                turn_id: turn_id.map(str::to_string),
                line,
                sections: Vec::new(),
                other_fragments: Vec::new(),
                rewrites: Vec::new(),
            },
            fragments: Vec::new(),
        });
    }

    fn item_recorded(&mut self, line: usize, item: &ResponseItem) {
        let ResponseItem::Message { role, content, .. } = item else {
            return;
        };
        let kinds = item.content_item_kinds();
        for (position, part) in content.iter().enumerate() {
            let Some(text) = ContentItem::text(part) else {
                continue;
            };
            let kind = kinds
                .and_then(|kinds| kinds.get(position))
                .map(ContentItemKind::as_str);
            let Some((info, recognised_by)) = injected_fragment(role, text, kind) else {
                continue;
            };
            let section = fragment_section(info);
            let tokens = self.counter.count(text);
            self.current_turn().fragments.push((
                section,
                EmittedFragment {
                    line,
                    role: role.clone(),
                    fragment: info.name.to_string(),
                    section: section.map(str::to_string),
                    recognised_by,
                    tokens,
                },
            ));
        }
    }

    fn history_rewritten(&mut self, line: usize, rewrite: Rewrite) {
        self.current_turn().turn.rewrites.push(HistoryRewrite {
            line,
            kind: rewrite.label().to_string(),
        });
    }

    fn world_state(&mut self, line: usize, record: &WorldStateItem) {
        let full = record.full;
        let turn = self.current_turn();
        turn.turn
            .sections
            .extend(record.state.iter().map(|(section, patch)| SectionChange {
                section: section.clone(),
                line,
                full,
                patch: patch.clone(),
                fragments: Vec::new(),
            }));
    }
}
