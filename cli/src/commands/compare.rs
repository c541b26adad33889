//! `codex-context compare A B`: a structural diff of two sets of `/responses` requests.

use std::path::Path;
use std::path::PathBuf;
use std::process::ExitCode;

use codex_inspect::CompareInput;
use codex_inspect::InspectOptions;
use codex_inspect::ProseMode;
use codex_inspect::compare_inputs;
use codex_inspect::load_compare_input;
use codex_inspect::parse_compare_input;
use codex_prompts::TemplateSet;

use codex_release::CodexRelease;

use super::compare_releases::play_under_releases;
use crate::catalog::CatalogArgs;
use crate::input;

/// Exit code when the inputs differ structurally (bad input is 2, like every error).
const EXIT_DIFFERENT: u8 = 1;

/// Compare two sets of requests structurally
///
/// A and B are each a request body JSON file, a folder of request-NN.json files, a JSON-lines
/// file of request bodies, or a rollout (one of them may be `-` for standard input). Requests
/// are paired in order; their `input` items are aligned and compared by structure: missing,
/// extra or moved items, roles, `id` presence, content entries and what each entry is (fragment
/// type, base instructions, or text people wrote). Tools are compared by name, type, keys and
/// parameter keys (inside namespaces too), `client_metadata` and its turn metadata by key set,
/// other top-level fields by presence and key order. Fragment prose and tool descriptions are
/// not compared, only their fixed structure. A rollout's requests
/// are rebuilt as `inspect` does; when both sides are rollouts their line sequences are compared
/// too. Exits 0 when structurally equal, 1 when
/// different, 2 on bad input.
///
/// With `--codex-version` given twice, compare takes one session script instead (`session
/// run`'s format, e.g. one of `examples/upstream/`), plays it under each release's profile and
/// compares what the two would send and record: what the newer release changed in what the
/// model sees.
#[derive(Debug, clap::Args)]
pub struct CompareArgs {
    /// The first input (with two `--codex-version`s: the session script).
    #[arg(value_name = "A")]
    pub a: PathBuf,
    /// The second input (none with two `--codex-version`s).
    #[arg(value_name = "B")]
    pub b: Option<PathBuf>,
    /// Once: the release whose profile rebuilds rollouts' requests (default: the release that
    /// wrote each rollout). Twice: play the session script A under both releases and compare
    /// them (A is the first release, B the second).
    #[arg(long, value_name = "VERSION")]
    pub codex_version: Vec<CodexRelease>,
    /// `text`: one line per difference and a summary line; `json`: the whole report.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
    /// `ignore`: text inside recognised fragments is not compared; `show`: its changes are
    /// shown as unified diffs (never counted as structural differences).
    #[arg(long, value_enum, default_value_t = ProseArg::Ignore)]
    pub prose: ProseArg,

    /// Resolves the models of a rollout's turns when its requests are rebuilt.
    #[command(flatten)]
    pub catalog: CatalogArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    Text,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ProseArg {
    Ignore,
    Show,
}

/// What to print and how the process ends after printing it.
#[derive(Debug)]
pub struct Comparison {
    pub output: String,
    pub exit_code: ExitCode,
}

pub fn run(args: &CompareArgs) -> anyhow::Result<Comparison> {
    let prose = match args.prose {
        ProseArg::Ignore => ProseMode::Ignore,
        ProseArg::Show => ProseMode::Show,
    };
    let (heading, a, b) = match (args.codex_version.as_slice(), &args.b) {
        ([first, second], None) => {
            let played = play_under_releases(&args.a, [*first, *second], &args.catalog)?;
            (Some(played.heading), played.a, played.b)
        }
        ([_, _, _, ..], _) => anyhow::bail!("--codex-version is given at most twice"),
        ([_, _], Some(_)) => anyhow::bail!(
            "two --codex-version values compare one session script under both releases: give \
             the script only, not a second input"
        ),
        ([] | [_], None) => anyhow::bail!(
            "compare needs two inputs, or one session script with --codex-version given twice"
        ),
        (asked @ ([] | [_]), Some(b)) => {
            // Each rollout is rebuilt as the release that wrote it, unless one is named.
            let catalogs = args.catalog.load_all(&TemplateSet::embedded())?;
            let options = InspectOptions {
                release: asked.first().copied(),
                ..InspectOptions::by_release(&catalogs)
            };
            (None, load(&args.a, &options)?, load(b, &options)?)
        }
    };
    let report = compare_inputs(&a, &b, prose);
    let output = match args.format {
        OutputFormat::Text => heading.unwrap_or_default() + &report.render_text(),
        OutputFormat::Json => serde_json::to_string_pretty(&report)? + "\n",
    };
    let exit_code = if report.is_structurally_equal() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_DIFFERENT)
    };
    Ok(Comparison { output, exit_code })
}

fn load(path: &Path, options: &InspectOptions<'_>) -> anyhow::Result<CompareInput> {
    if path == Path::new(input::STDIN_PATH) {
        let text = input::read_text(path)?;
        return Ok(parse_compare_input(&input::describe(path), &text, options)?);
    }
    Ok(load_compare_input(path, options)?)
}
