//! `codex-context proxy --ui`: the report of the recording, served on the proxy's own port
//! under [`UI_PREFIX`] and reloaded by the page whenever the recording grows.

use std::path::PathBuf;
use std::sync::Mutex;

use codex_inspect::HtmlPage;
use codex_inspect::render_html_page;
use codex_proxy::UI_PREFIX;
use codex_proxy::UiPages;
use codex_proxy::UiResponse;
use codex_proxy::read_recording;
use codex_proxy::recording_size;

use super::proxy::recording_inspection;

const HTML: &str = "text/html; charset=utf-8";
const JSON: &str = "application/json";

/// The report pages of one recording folder: the page (`inspect --format html` of the
/// recording, with a script that follows it) and `state`, the recording's size, which the
/// page polls. The page is rendered again only when the recording has grown.
#[derive(Debug)]
pub(super) struct RecordingPages {
    out: PathBuf,
    /// The recording size the cached page shows, and the page.
    page: Mutex<Option<(u64, String)>>,
}

impl RecordingPages {
    pub(super) fn new(out: PathBuf) -> Self {
        Self {
            out,
            page: Mutex::new(None),
        }
    }

    fn page(&self) -> String {
        // The size is read before the recording, so a line written in between makes the page
        // look older than it is, and the next poll reloads it.
        let size = recording_size(&self.out);
        let mut cached = match self.page.lock() {
            Ok(cached) => cached,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some((shown, page)) = cached.as_ref()
            && *shown == size
        {
            return page.clone();
        }
        let page = match self.render(size) {
            Ok(page) => page,
            Err(message) => waiting_page(&message, size),
        };
        *cached = Some((size, page.clone()));
        page
    }

    fn render(&self, size: u64) -> Result<String, String> {
        let mut recording = read_recording(&self.out).map_err(|error| error.to_string())?;
        // Exchanges still under way are shown once they end.
        for thread in &mut recording.threads {
            thread
                .exchanges
                .retain(|exchange| exchange.outcome.is_some());
        }
        let inspection = recording_inspection(&recording, &self.out);
        let version = size.to_string();
        render_html_page(
            &inspection,
            HtmlPage::Live {
                state_url: &format!("{UI_PREFIX}state"),
                version: &version,
            },
        )
        .map_err(|error| error.to_string())
    }
}

/// The page before anything was recorded (or when the recording cannot be read): it says
/// so and reloads with the rest once the recording grows.
fn waiting_page(message: &str, size: u64) -> String {
    let escaped = message
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>codex-context \
         proxy</title>\n<link rel=\"icon\" href=\"data:,\">\n</head>\n<body>\n<h1>codex-context proxy</h1>\n<p id=\"waiting\">No \
         request recorded yet ({escaped}).</p>\n<script>setInterval(function(){{fetch('{UI_PREFIX}state',\
         {{cache:'no-store'}}).then(function(r){{return r.json();}}).then(function(s){{if(String(s.version)\
         !=='{size}'){{location.reload();}}}});}},1000);</script>\n</body>\n</html>\n"
    )
}

impl UiPages for RecordingPages {
    fn get(&self, path: &str) -> Option<UiResponse> {
        match path {
            "" | "index.html" => Some(UiResponse {
                content_type: HTML,
                body: self.page().into_bytes(),
            }),
            "state" => Some(UiResponse {
                content_type: JSON,
                body: serde_json::json!({"version": recording_size(&self.out).to_string()})
                    .to_string()
                    .into_bytes(),
            }),
            _ => None,
        }
    }
}
