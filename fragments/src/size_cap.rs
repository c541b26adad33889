//! Size caps of injected context, measured in o200k tokens.
//!
//! Upstream's rule for model-visible context is that no single injected item may exceed
//! 10 000 tokens. Every fragment in this module cuts its variable parts to a budget below that,
//! and [`cap_tokens`] is the one place that cuts text. Counting uses the real o200k vocabulary
//! (loaded on first use), so a cap holds for any input, including text that packs far fewer
//! bytes into a token than prose does.

use std::borrow::Cow;
use std::sync::OnceLock;

use super::o200k::O200k;
use codex_context_fragments::FragmentSpec;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;

/// Upstream's limit for one injected context item, in o200k tokens.
pub const MAX_INJECTED_ITEM_TOKENS: usize = 10_000;

/// Bytes looked at per allowed token when cutting. Longer inputs are cut down to this window
/// before tokenizing, so a multi-megabyte tool output costs no more than a short one. Prose
/// and code average four to five bytes per token; only long runs of whitespace pack more, and
/// for those the window merely cuts a little earlier than needed.
const WINDOW_BYTES_PER_TOKEN: usize = 32;

/// Which part of an over-long text survives a cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// The beginning (a request whose opening says what it is about).
    Head,
    /// The end (a transcript whose latest lines matter most).
    Tail,
    /// Both ends, cut in the middle (command output: what started and how it ended).
    HeadAndTail,
}

static O200K: OnceLock<Option<O200k>> = OnceLock::new();

fn o200k() -> Option<&'static O200k> {
    O200K
        .get_or_init(|| match O200k::load() {
            Ok(tokenizer) => Some(tokenizer),
            Err(error) => {
                // Byte lengths bound token counts from above, so caps still hold without it.
                tracing::warn!(
                    "the o200k tokenizer is unavailable, so bytes are counted instead: {error}"
                );
                None
            }
        })
        .as_ref()
}

/// Loads the o200k vocabulary on a thread of its own, so that a command which will count tokens
/// after reading its input (resume, fork, inspect) does not wait the few milliseconds loading
/// takes: the first count waits only for what is left of it. Calling it again does nothing.
pub fn load_tokenizer_in_background() {
    if O200K.get().is_some() {
        return;
    }
    let spawned = std::thread::Builder::new()
        .name("o200k-load".to_string())
        .spawn(|| {
            o200k();
        });
    if let Err(error) = spawned {
        // The vocabulary then loads on first use, as without this call.
        tracing::debug!("the o200k vocabulary is not loaded ahead: {error}");
    }
}

/// The number of o200k tokens in `text`, as the model will see it (special-token spellings
/// count as ordinary text). Falls back to the byte length, an upper bound, if the vocabulary
/// cannot be loaded.
pub fn o200k_token_count(text: &str) -> usize {
    match o200k() {
        Some(tokenizer) => tokenizer.count(text),
        None => text.len(),
    }
}

/// The number of o200k tokens in `piece`, one piece of text as o200k's pattern cuts it (a run
/// of letters with what leads it, up to three digits, a run of symbols, a run of whitespace):
/// what [`o200k_token_count`] adds up for each piece, for callers that cut text themselves.
/// Falls back to the byte length, like it.
pub fn o200k_piece_token_count(piece: &str) -> usize {
    match o200k() {
        Some(tokenizer) => tokenizer.piece_count(piece.as_bytes()),
        None => piece.len(),
    }
}

/// Whether `text` is at most `max_tokens` long. Every token covers at least one byte, so short
/// texts are answered without tokenizing.
pub fn fits_in_tokens(text: &str, max_tokens: usize) -> bool {
    text.len() <= max_tokens || o200k_token_count(text) <= max_tokens
}

/// Byte offsets at which the tokens of `text` end, starting with 0. Offsets may fall inside a
/// multi-byte character; callers round them to character boundaries.
fn token_boundaries(text: &str) -> Vec<usize> {
    match o200k() {
        Some(tokenizer) => tokenizer.boundaries(text),
        None => (0..=text.len()).collect(),
    }
}

fn floor_char_boundary(text: &str, mut index: usize) -> usize {
    index = index.min(text.len());
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

fn ceil_char_boundary(text: &str, mut index: usize) -> usize {
    index = index.min(text.len());
    while !text.is_char_boundary(index) {
        index += 1;
    }
    index
}

/// `text` if it fits in `max_tokens`, otherwise the part chosen by `keep` with the
/// `fragments/truncated.md` notice (naming how many bytes were left out) where text was cut.
/// The result, notice included, never exceeds `max_tokens`.
pub fn cap_tokens<'a>(
    text: &'a str,
    max_tokens: usize,
    keep: Keep,
    templates: &TemplateSet,
) -> Cow<'a, str> {
    let window = max_tokens.saturating_mul(WINDOW_BYTES_PER_TOKEN);
    if text.len() <= max_tokens || (text.len() <= window && fits_in_tokens(text, max_tokens)) {
        return Cow::Borrowed(text);
    }
    let notice = |omitted_bytes: usize| {
        templates.render(
            TemplateId::FragmentTruncated,
            &[("bytes", omitted_bytes.to_string().as_str())],
        )
    };
    let head_window = &text[..floor_char_boundary(text, window)];
    let tail_window_start = ceil_char_boundary(text, text.len().saturating_sub(window));
    let head_ends = match keep {
        Keep::Head | Keep::HeadAndTail => token_boundaries(head_window),
        Keep::Tail => vec![0],
    };
    let tail_ends = match keep {
        Keep::Tail | Keep::HeadAndTail => token_boundaries(&text[tail_window_start..]),
        Keep::Head => vec![0],
    };
    let mut budget = max_tokens.saturating_sub(o200k_token_count(&notice(text.len())));
    loop {
        let (head_tokens, tail_tokens) = match keep {
            Keep::Head => (budget, 0),
            Keep::Tail => (0, budget),
            Keep::HeadAndTail => (budget.div_ceil(2), budget / 2),
        };
        let head_index = head_tokens.min(head_ends.len() - 1);
        let head_end = floor_char_boundary(text, head_ends[head_index]);
        let tail_start = if tail_tokens == 0 {
            text.len()
        } else {
            let tail_index = tail_ends.len() - 1 - tail_tokens.min(tail_ends.len() - 1);
            ceil_char_boundary(text, tail_window_start + tail_ends[tail_index])
        };
        let candidate = if head_end >= tail_start {
            Cow::Borrowed(text)
        } else {
            let mut cut = String::with_capacity(head_end + 64 + text.len() - tail_start);
            cut.push_str(&text[..head_end]);
            cut.push_str(&notice(tail_start - head_end));
            cut.push_str(&text[tail_start..]);
            Cow::Owned(cut)
        };
        let tokens = o200k_token_count(&candidate);
        if tokens <= max_tokens {
            return candidate;
        }
        if budget == 0 {
            // Only a notice longer than the whole cap (an unusual template overlay) gets here;
            // cutting it by bytes is crude but keeps the cap.
            let notice = notice(text.len());
            let end = floor_char_boundary(&notice, max_tokens);
            return Cow::Owned(notice[..end].to_string());
        }
        budget = budget.saturating_sub((tokens - max_tokens).max(1));
    }
}

/// `body` cut (keeping its head) so that `spec`'s markers plus the body stay within
/// `max_tokens`. Fragments bound their variable parts first; this only bites when an overlaid
/// template is itself oversized, and it is what makes each type's cap hold unconditionally.
pub(crate) fn cap_rendered_body(
    spec: &FragmentSpec,
    body: String,
    max_tokens: usize,
    templates: &TemplateSet,
) -> String {
    // Every token covers at least one byte: a body this short fits without counting (and
    // without loading the vocabulary).
    if spec.start_marker.len() + spec.end_marker.len() + 2 + body.len() <= max_tokens {
        return body;
    }
    // A token can merge across the marker/body seam; one spare token per seam covers it.
    let marker_tokens =
        o200k_token_count(spec.start_marker) + o200k_token_count(spec.end_marker) + 2;
    let budget = max_tokens.saturating_sub(marker_tokens);
    match cap_tokens(&body, budget, Keep::Head, templates) {
        Cow::Borrowed(_) => body,
        Cow::Owned(cut) => cut,
    }
}
