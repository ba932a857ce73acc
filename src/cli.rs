//! Command-line interface.

use crate::analysis::{self, Options};
use crate::report;
use clap::{Parser, Subcommand, ValueEnum};
use std::io::Write;
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "mongolint",
    version,
    about = "Finds MongoDB schema-design anti-patterns in application code"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Analyse files and folders (default: the current folder).
    Check(CheckArgs),
    /// List the rules.
    Rules {
        /// `text`: a table; `json`: an array of rule objects (docs/json-output.md).
        #[arg(long, value_enum, default_value = "text")]
        format: RulesFormat,
    },
    /// Print a rule's documentation.
    Explain {
        /// Rule id, e.g. `unbounded-push`.
        rule: String,
    },
    /// Print how each collection is accessed across the repository (default: the current folder).
    Collections(CollectionsArgs),
    /// Print the IR extracted from files, as JSON (for debugging frontends).
    #[command(hide = true)]
    DebugIr { paths: Vec<PathBuf> },
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum OutputFormat {
    Text,
    Sarif,
    Json,
    Concise,
    Github,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum RulesFormat {
    Text,
    Json,
}

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Files or folders to analyse.
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: OutputFormat,
    /// Write the report to this file instead of standard output.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Worker threads (default: one per CPU).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Also analyse ignored files, node_modules, build output and minified bundles.
    #[arg(long)]
    pub no_ignore: bool,
    /// Also analyse tests (`test/`, `__tests__/`, `*.test.js`, `*.spec.ts`, `test_*.py`, `*_tests.py`, `tests.py`), skipped by default.
    #[arg(long)]
    pub include_tests: bool,
    /// Skip files larger than this many bytes (with a note).
    #[arg(long, default_value_t = crate::discover::DEFAULT_MAX_FILE_SIZE)]
    pub max_file_size: u64,
    #[command(flatten)]
    pub policy: crate::policy::PolicyArgs,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum MapFormat {
    Text,
    Json,
}

#[derive(clap::Args, Debug)]
pub struct CollectionsArgs {
    /// Files or folders to analyse.
    pub paths: Vec<PathBuf>,
    /// Output format (`json`: docs/collections-json.md).
    #[arg(long, value_enum, default_value = "text")]
    pub format: MapFormat,
    /// Also analyse ignored files, node_modules, build output and minified bundles.
    #[arg(long)]
    pub no_ignore: bool,
    /// Also analyse tests.
    #[arg(long)]
    pub include_tests: bool,
}

/// Exit codes: 0 no findings, 1 findings, 2 usage or I/O error.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match cli.command {
        Command::Check(args) => check(args),
        Command::Collections(args) => collections(args),
        Command::Rules { format } => {
            crate::catalogue::list_rules(matches!(format, RulesFormat::Json))
        }
        Command::Explain { rule } => match crate::catalogue::find_meta(&rule) {
            Some(meta) => {
                print!("{}", meta.doc);
                0
            }
            None => {
                eprintln!("error: unknown rule `{rule}` (see `mongolint rules`)");
                2
            }
        },
        Command::DebugIr { paths } => {
            let opts = Options {
                paths,
                ..Options::default()
            };
            let a = analysis::run(&opts);
            let mut out = std::io::stdout().lock();
            for f in &a.files {
                let json = serde_json::to_string_pretty(&f.ir).unwrap_or_default();
                if writeln!(out, "// {}\n{json}", f.display_path).is_err() {
                    return 2;
                }
            }
            0
        }
    }
}

fn check(args: CheckArgs) -> i32 {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let config = match args.policy.load_config(&cwd) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let opts = Options {
        paths: if args.paths.is_empty() {
            vec![PathBuf::from(".")]
        } else {
            args.paths
        },
        threads: args.threads,
        no_ignore: args.no_ignore,
        include_tests: args.include_tests,
        max_file_size: args.max_file_size,
        settings: config.settings.clone(),
        exclude: config.exclude.clone(),
    };
    let mut a = analysis::run(&opts);
    let after = match crate::policy::apply(&mut a, &config, &args.policy) {
        Ok(after) => after,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    if after == crate::policy::After::BaselineWritten {
        return if a.errors.is_empty() { 0 } else { 2 };
    }
    let format = match args.format {
        OutputFormat::Text => report::Format::Text,
        OutputFormat::Sarif => report::Format::Sarif,
        OutputFormat::Json => report::Format::Json,
        OutputFormat::Concise => report::Format::Concise,
        OutputFormat::Github => report::Format::Github,
    };
    let color = args.output.is_none()
        && std::io::IsTerminal::is_terminal(&std::io::stdout())
        && std::env::var_os("NO_COLOR").is_none();
    let threads = crate::discover::worker_threads(&opts);
    let report_opts = report::ReportOptions { color, threads };
    // Written as it is rendered (the JSON report): a file is created before the report is whole.
    let written = match &args.output {
        Some(p) => std::fs::File::create(p)
            .and_then(|mut f| report::write(&a, format, &report_opts, &mut f))
            .map_err(|e| format!("cannot write {}: {e}", p.display())),
        None => report::write(&a, format, &report_opts, &mut std::io::stdout().lock())
            .map_err(|e| e.to_string()),
    };
    if let Err(e) = written {
        eprintln!("error: {e}");
        return 2;
    }
    let code = if !a.errors.is_empty() {
        2
    } else if !a.findings.is_empty() && !args.policy.exit_zero {
        1
    } else {
        0
    };
    // The process exits right after: freeing every file's text and IR one allocation at a time
    // would only delay the exit (serial work on the main thread; the OS takes the memory back).
    std::mem::forget(a);
    code
}

/// `mongolint collections`: exit 0, or 2 when a file could not be analysed or the output not written.
fn collections(args: CollectionsArgs) -> i32 {
    let opts = Options {
        paths: if args.paths.is_empty() {
            vec![PathBuf::from(".")]
        } else {
            args.paths
        },
        no_ignore: args.no_ignore,
        include_tests: args.include_tests,
        ..Options::default()
    };
    let a = analysis::run(&opts);
    let mut buf: Vec<u8> = Vec::new();
    let rendered = match args.format {
        MapFormat::Text => report::collections::render_text(&a, &a.model, &mut buf),
        MapFormat::Json => report::collections::render_json(&a, &a.model, &mut buf),
    };
    if let Err(e) = rendered.and_then(|_| std::io::stdout().write_all(&buf)) {
        eprintln!("error: {e}");
        return 2;
    }
    for e in &a.errors {
        eprintln!("error: {}: {}", e.display_path, e.message);
    }
    if a.errors.is_empty() {
        0
    } else {
        2
    }
}
