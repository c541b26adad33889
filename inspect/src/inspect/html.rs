//! The HTML view: one self-contained page (inline CSS and script, no network) with a timeline
//! of requests, items coloured by source and expandable to their full text, token bars by
//! source, a cache-prefix bar per request, the world-state timeline, and the inspection's JSON
//! embedded as `<script type="application/json" id="data">`.

use std::fmt::Write as _;

use super::InspectError;
use super::model::CacheReport;
use super::model::ExchangeReport;
use super::model::Inspection;
use super::model::ItemReport;
use super::model::RequestKind;
use super::model::RequestReport;
use super::model::TimelineTurn;
use super::model::TokenBreakdown;
use super::model::TokenSource;
use super::model::ToolsOrigin;
use super::render_json;
use super::text::cache_summary;
use super::text::class_label;

const STYLE: &str = "
body{font:14px/1.4 system-ui,sans-serif;margin:0 auto;max-width:1150px;padding:16px;color:#111827;background:#f9fafb}
h1{font-size:20px}h2{font-size:16px;margin:0 0 6px}
.request{background:#fff;border:1px solid #e5e7eb;border-radius:6px;padding:10px 12px;margin:10px 0}
.bar{display:flex;height:14px;border-radius:3px;overflow:hidden;background:#e5e7eb;margin:4px 0}
.bar span{display:block;height:100%}
.cache{height:10px}.bar.cache .hit{background:#16a34a}
.meta{color:#4b5563;font-size:12px}
details{border-left:4px solid #d1d5db;margin:3px 0;padding:2px 6px;background:#fafafa}
summary{cursor:pointer}
pre{white-space:pre-wrap;word-break:break-word;font-size:12px;background:#f3f4f6;padding:6px;max-height:480px;overflow:auto}
.legend span{display:inline-block;margin-right:12px}
.legend i{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:middle}
.warn{color:#b45309}
.src-base_instructions{--c:#6b7280}.src-tools{--c:#8b5cf6}.src-developer_context{--c:#f59e0b}
.src-agents_md{--c:#10b981}.src-environment{--c:#06b6d4}.src-history{--c:#93c5fd}.src-new_input{--c:#2563eb}
.bar span,.legend i{background:var(--c)}details.item,details.entry{border-left-color:var(--c)}
details.entry{background:#fff}
";

/// Expands or collapses every item; the report reads fine without it.
const SCRIPT: &str = "
document.getElementById('expand').addEventListener('click',function(){
  var open=this.dataset.open!=='1';this.dataset.open=open?'1':'0';
  this.textContent=open?'collapse all':'expand all';
  document.querySelectorAll('details').forEach(function(d){d.open=open;});
});
var data=JSON.parse(document.getElementById('data').textContent);
document.getElementById('count').textContent=data.requests.length+' requests';
";

/// Follows a recording: asks `state_url` every second and reloads (keeping the scroll
/// position) once the version it answers is no longer the page's.
const LIVE_SCRIPT: &str = "
(function(){
  var y=sessionStorage.getItem('codex-context-scroll');
  if(y!==null){window.scrollTo(0,Number(y));}
  function poll(){
    fetch(live.state,{cache:'no-store'}).then(function(r){return r.json();}).then(function(s){
      if(String(s.version)!==live.version){
        sessionStorage.setItem('codex-context-scroll',String(window.scrollY));
        location.reload();
      }else{setTimeout(poll,1000);}
    }).catch(function(){setTimeout(poll,2000);});
  }
  setTimeout(poll,1000);
})();
";

/// Whether a page stays as rendered or follows a recording as it grows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HtmlPage<'a> {
    /// A file: the report as it was when rendered.
    Static,
    /// Served by `codex-context proxy --ui`: the page asks `state_url` (JSON with a `version`)
    /// every second and reloads when the version is no longer `version`.
    Live {
        state_url: &'a str,
        version: &'a str,
    },
}

/// The inspection as one HTML page.
pub fn render_html(inspection: &Inspection) -> Result<String, InspectError> {
    render_html_page(inspection, HtmlPage::Static)
}

/// The inspection as one HTML page, static or following a recording (`page`). Everything is
/// inline: the page loads nothing from anywhere but, when live, its own `state_url`.
pub fn render_html_page(
    inspection: &Inspection,
    page_kind: HtmlPage<'_>,
) -> Result<String, InspectError> {
    // `<` never appears outside JSON strings, where `\u003c` means the same; the script element
    // then cannot be closed early by any text the rollout holds.
    let data = render_json(inspection)?
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026");
    let mut page = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>codex-context inspect</title>\n<link rel=\"icon\" href=\"data:,\">\n<style>",
    );
    page.push_str(STYLE);
    page.push_str("</style>\n</head>\n<body>\n<h1>codex-context inspect</h1>\n");
    let source = match &inspection.recording {
        Some(recording) => format!(
            "proxy recording {} &middot; {} threads &middot; {} exchanges, {} failed",
            escape(&recording.folder),
            recording.threads,
            recording.exchanges,
            recording.failed
        ),
        None => format!(
            "thread {} &middot; {} rollout lines",
            escape(inspection.thread_id.as_deref().unwrap_or("(unknown)")),
            inspection.rollout_lines
        ),
    };
    let _ = writeln!(
        page,
        "<p class=\"meta\">{source} &middot; <span id=\"count\">{} requests</span> &middot; \
         <button id=\"expand\">expand all</button></p>",
        inspection.requests.len()
    );
    let _ = writeln!(
        page,
        "<p class=\"meta\">release profile: {} ({})</p>",
        escape(&inspection.release.name),
        escape(&inspection.release.chosen_because)
    );
    if let Some(base) = &inspection.base_instructions {
        let _ = writeln!(
            page,
            "<p class=\"meta\">base instructions: {} bytes, {} tokens, provenance {}</p>",
            base.bytes,
            base.tokens,
            escape(&base.provenance)
        );
    }
    for warning in &inspection.warnings {
        let _ = writeln!(page, "<p class=\"warn\">warning: {}</p>", escape(warning));
    }
    page.push_str("<p class=\"legend\">");
    for source in TokenSource::ALL {
        let _ = write!(
            page,
            "<span><i class=\"src-{}\"></i>{}</span>",
            source.key(),
            escape(source.label())
        );
    }
    page.push_str("</p>\n");
    for request in &inspection.requests {
        render_request(&mut page, request);
    }
    page.push_str("<h2>World-state timeline</h2>\n");
    for turn in &inspection.timeline {
        render_turn(&mut page, turn);
    }
    let _ = writeln!(
        page,
        "<script type=\"application/json\" id=\"data\">{data}</script>\n<script>{SCRIPT}</script>"
    );
    match page_kind {
        HtmlPage::Static => {}
        HtmlPage::Live { state_url, version } => {
            let live = serde_json::json!({"state": state_url, "version": version})
                .to_string()
                .replace('<', "\\u003c");
            let _ = writeln!(page, "<script>var live={live};{LIVE_SCRIPT}</script>");
        }
    }
    page.push_str("</body>\n</html>\n");
    Ok(page)
}

/// `text` with every character that means something in HTML replaced by its entity.
fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for character in text.chars() {
        match character {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            other => escaped.push(other),
        }
    }
    escaped
}

fn render_request(page: &mut String, request: &RequestReport) {
    let thread = request.exchange.as_ref().map_or(String::new(), |exchange| {
        format!(
            " &middot; {} #{}",
            escape(&exchange.thread),
            exchange.number
        )
    });
    let _ = writeln!(
        page,
        "<section class=\"request\" id=\"request-{}\">\n<h2>Request {}{thread} &middot; turn {} \
         step {} &middot; {} &middot; {} tokens</h2>",
        request.number,
        request.number,
        request.turn,
        request.step,
        escape(&request.model),
        request.total_tokens
    );
    let kind = match request.kind {
        RequestKind::Turn => "turn request",
        RequestKind::Compaction => "compaction request",
    };
    let tools = match (request.tools.origin, request.tools.in_field) {
        (ToolsOrigin::RebuiltBuiltin, true) => {
            format!("built-in list rebuilt, {} tokens", request.tools.tokens)
        }
        (ToolsOrigin::RebuiltBuiltin, false) => {
            "built-in list rebuilt, sent in the input".to_string()
        }
        (ToolsOrigin::RebuiltFallback, _) => {
            "built-in list rebuilt from fallback metadata (the model is not in the catalog)"
                .to_string()
        }
        (ToolsOrigin::NoneOffered, _) => "none offered".to_string(),
        (ToolsOrigin::Recorded, _) => format!(
            "as sent ({}), {} tokens",
            request.tools.names.join(", "),
            request.tools.tokens
        ),
    };
    let place = match &request.exchange {
        Some(exchange) => exchange_summary(exchange),
        None => format!("{kind} at rollout line {}", request.line),
    };
    let _ = writeln!(
        page,
        "<p class=\"meta\">{place}; {} input items, {} carried over from the previous request (not \
         repeated below); tools: {}</p>",
        request.input_items,
        request.carried_items,
        escape(&tools)
    );
    if let Some(failure) = request
        .exchange
        .as_ref()
        .and_then(|exchange| exchange.failure.as_deref())
    {
        let _ = writeln!(page, "<p class=\"warn\">failed: {}</p>", escape(failure));
    }
    render_token_bar(page, &request.tokens, request.total_tokens);
    render_cache_bar(page, request.cache.as_ref());
    for missing in &request.unrecorded {
        let _ = writeln!(
            page,
            "<p class=\"warn\">not in the rollout: {}</p>",
            escape(missing)
        );
    }
    for item in &request.items {
        render_item(page, item);
    }
    page.push_str("</section>\n");
}

/// `answered 200 in 812 ms; server: 1200 input, 1152 cached, 9 output`.
fn exchange_summary(exchange: &ExchangeReport) -> String {
    let mut summary = match exchange.status {
        Some(status) => format!("answered {status}"),
        None => "no answer".to_string(),
    };
    if let Some(ms) = exchange.total_ms {
        let _ = write!(summary, " in {ms} ms");
    }
    if exchange.input_tokens.is_some() || exchange.output_tokens.is_some() {
        let number = |n: Option<u64>| n.map_or("?".to_string(), |n| n.to_string());
        let _ = write!(
            summary,
            "; server: {} input, {} cached, {} output",
            number(exchange.input_tokens),
            exchange.cached_tokens.unwrap_or(0),
            number(exchange.output_tokens)
        );
    }
    summary
}

fn render_token_bar(page: &mut String, tokens: &TokenBreakdown, total: usize) {
    page.push_str("<div class=\"bar\" title=\"tokens by source\">");
    for source in TokenSource::ALL {
        let count = tokens.get(source);
        if count == 0 {
            continue;
        }
        let _ = write!(
            page,
            "<span class=\"src-{}\" style=\"width:{:.2}%\" title=\"{}: {count} tokens\"></span>",
            source.key(),
            count as f64 * 100.0 / total.max(1) as f64,
            escape(source.label())
        );
    }
    page.push_str("</div>\n");
}

fn render_cache_bar(page: &mut String, cache: Option<&CacheReport>) {
    let Some(cache) = cache else {
        page.push_str("<p class=\"meta\">cache: first request</p>\n");
        return;
    };
    let _ = writeln!(
        page,
        "<div class=\"bar cache\" title=\"prefix shared with the previous request (green)\"><span \
         class=\"hit\" style=\"width:{:.1}%\"></span></div>\n<p class=\"meta\">cache: {}</p>",
        cache.prefix_percent,
        escape(&cache_summary(cache))
    );
}

fn render_item(page: &mut String, item: &ItemReport) {
    let source = item
        .entries
        .first()
        .map_or(TokenSource::NewInput, |entry| entry.source);
    let classes: Vec<String> = item.entries.iter().map(class_label).collect();
    let _ = writeln!(
        page,
        "<details class=\"item src-{}\"><summary><b>[{}]</b> {} {} &middot; {} &middot; {} bytes \
         &middot; {} tokens</summary>",
        source.key(),
        item.index,
        escape(&item.item_type),
        escape(item.role.as_deref().unwrap_or("")),
        escape(&classes.join(" + ")),
        item.bytes,
        item.tokens
    );
    for entry in &item.entries {
        let origin = entry.origin.as_deref().map_or(String::new(), |origin| {
            format!(" &middot; {}", escape(origin))
        });
        let _ = writeln!(
            page,
            "<details class=\"entry src-{}\"><summary>{} &rarr; {} &middot; {} tokens{origin} \
             &middot; {}</summary><pre>{}</pre></details>",
            entry.source.key(),
            escape(&class_label(entry)),
            escape(entry.source.label()),
            entry.tokens,
            escape(&entry.preview),
            escape(&entry.text)
        );
    }
    page.push_str("</details>\n");
}

fn render_turn(page: &mut String, turn: &TimelineTurn) {
    let _ = writeln!(
        page,
        "<details class=\"turn\"><summary>turn {} &middot; line {} &middot; {} sections changed \
         &middot; {} other fragments</summary>",
        turn.turn,
        turn.line,
        turn.sections.len(),
        turn.other_fragments.len()
    );
    for change in &turn.sections {
        let fragments: Vec<String> = change
            .fragments
            .iter()
            .map(|fragment| format!("{} ({} tokens)", fragment.fragment, fragment.tokens))
            .collect();
        let patch = serde_json::to_string_pretty(&change.patch).unwrap_or_default();
        let _ = writeln!(
            page,
            "<p><b>{}</b> ({}, line {}) &rarr; {}</p><pre>{}</pre>",
            escape(&change.section),
            if change.full { "snapshot" } else { "patch" },
            change.line,
            escape(&if fragments.is_empty() {
                "no fragment".to_string()
            } else {
                fragments.join(", ")
            }),
            escape(&patch)
        );
    }
    for rewrite in &turn.rewrites {
        let _ = writeln!(
            page,
            "<p class=\"warn\">history rewritten: {} (line {})</p>",
            escape(&rewrite.kind),
            rewrite.line
        );
    }
    for fragment in &turn.other_fragments {
        let _ = writeln!(
            page,
            "<p>fragment {} ({}, line {}, {} tokens)</p>",
            escape(&fragment.fragment),
            escape(&fragment.role),
            fragment.line,
            fragment.tokens
        );
    }
    page.push_str("</details>\n");
}
