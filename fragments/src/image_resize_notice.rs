//! `<image_resize_notice>`: one line per image that was scaled down before it was sent, so the
//! model does not take pixel sizes it sees at face value. Always a message of its own.

use codex_context_fragments::DEVELOPER_ROLE;
use codex_context_fragments::FragmentSpec;
use codex_context_fragments::MessagePlacement;
use codex_context_fragments::spec_fragment;
use codex_prompts::TemplateId;
use codex_prompts::TemplateSet;

use super::size_cap::cap_rendered_body;

pub const IMAGE_RESIZE_NOTICE: FragmentSpec = FragmentSpec {
    role: DEVELOPER_ROLE,
    content_kind: "images.resize_notice",
    start_marker: "<image_resize_notice>",
    end_marker: "</image_resize_notice>",
    placement: MessagePlacement::Separate,
};

/// Cap of the rendered fragment, in o200k tokens.
pub const MAX_TOKENS: usize = 4_000;
/// Images listed at most; the rest are counted in one closing line.
pub const MAX_LISTED_IMAGES: usize = 64;

/// Where the resized images were.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageResizeSource {
    UserMessage,
    ToolOutput,
}

/// One resized image: its 1-based position among `count` images, and its sizes in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResizedImage {
    pub number: usize,
    pub count: usize,
    pub original: (u32, u32),
    pub prepared: (u32, u32),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageResizeNotice {
    body: String,
}

impl ImageResizeNotice {
    pub fn new(
        source: ImageResizeSource,
        images: &[ResizedImage],
        templates: &TemplateSet,
    ) -> Self {
        let template = match source {
            ImageResizeSource::UserMessage => TemplateId::FragmentImageResizedInUserMessage,
            ImageResizeSource::ToolOutput => TemplateId::FragmentImageResizedInToolOutput,
        };
        let mut lines: Vec<String> = images
            .iter()
            .take(MAX_LISTED_IMAGES)
            .map(|image| {
                let (original_width, original_height) = image.original;
                let (prepared_width, prepared_height) = image.prepared;
                templates.render(
                    template,
                    &[
                        ("number", &image.number.to_string()),
                        ("count", &image.count.to_string()),
                        (
                            "original_size",
                            &format!("{original_width}x{original_height}"),
                        ),
                        (
                            "prepared_size",
                            &format!("{prepared_width}x{prepared_height}"),
                        ),
                    ],
                )
            })
            .collect();
        let omitted = images.len().saturating_sub(MAX_LISTED_IMAGES);
        if omitted > 0 {
            lines.push(templates.render(
                TemplateId::FragmentListOmitted,
                &[("count", &omitted.to_string())],
            ));
        }
        let body = format!("\n{}\n", lines.join("\n"));
        Self {
            body: cap_rendered_body(&IMAGE_RESIZE_NOTICE, body, MAX_TOKENS, templates),
        }
    }
}

spec_fragment!(ImageResizeNotice, IMAGE_RESIZE_NOTICE);
