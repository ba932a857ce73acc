//! The pipeline: discover → prefilter → parse → extract → rules. Produces an `Analysis`
//! that every reporter renders.

use crate::diagnostic::Finding;
use crate::ir::{FileIr, Language};
use std::path::PathBuf;
use std::sync::Arc;

/// A file that was analysed (or attempted).
pub struct SourceFile {
    /// Path as shown to users and in SARIF: relative to the root, with `/` separators.
    pub display_path: String,
    /// Path on disk.
    pub path: PathBuf,
    pub language: Language,
    /// The text, kept only for files that produced IR (driver files).
    pub text: Option<Arc<str>>,
    pub ir: FileIr,
}

/// A file or path that could not be analysed, and why.
#[derive(Clone, Debug)]
pub struct FileError {
    pub display_path: String,
    pub message: String,
}

pub struct Analysis {
    /// Files with IR, sorted by `display_path`. `Finding::file` indexes into this.
    pub files: Vec<SourceFile>,
    /// Sorted by file, then span start, then rule id.
    pub findings: Vec<Finding>,
    /// Sorted by path.
    pub errors: Vec<FileError>,
    /// How many files were discovered, and how many survived the prefilter and were parsed.
    pub files_scanned: usize,
    pub files_parsed: usize,
    /// How each collection is accessed across `files`: what the rules ran on, and what
    /// `mongolint collections` prints.
    pub model: crate::model::AccessModel,
}

/// What to analyse and how.
#[derive(Clone, Debug)]
pub struct Options {
    pub paths: Vec<PathBuf>,
    /// Worker threads; 0 picks the number of CPUs.
    pub threads: usize,
    /// Include ignored files and the default-excluded trees (node_modules, build output, minified bundles).
    pub no_ignore: bool,
    /// Also analyse test files and folders (`test/`, `*.spec.ts`, `test_*.py`), skipped by default.
    pub include_tests: bool,
    /// Files larger than this many bytes are skipped with a note.
    pub max_file_size: u64,
    pub settings: crate::rules::Settings,
    /// Files and folders never analysed, from the configuration's `extend-exclude`.
    pub exclude: crate::config::PathPatterns,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            paths: vec![PathBuf::from(".")],
            threads: 0,
            no_ignore: false,
            include_tests: false,
            max_file_size: crate::discover::DEFAULT_MAX_FILE_SIZE,
            settings: crate::rules::Settings::default(),
            exclude: crate::config::PathPatterns::default(),
        }
    }
}

/// Runs the whole pipeline.
pub fn run(opts: &Options) -> Analysis {
    let discovered = crate::discover::analyse_files(opts);
    let mut files = discovered.files;
    files.sort_by(|a, b| a.display_path.cmp(&b.display_path));
    crate::link::link(&mut files);
    for f in &mut files {
        f.ir.operations
            .retain(|op| op.evidence != crate::ir::Evidence::None);
    }
    let threads = crate::discover::worker_threads(opts);
    let model = crate::model::AccessModel::build(&files, threads);
    let projects = crate::rules::Projects::new(discovered.project_roots);
    let findings = crate::rules::run_all(&model, &files, &opts.settings, &projects, threads);
    let mut errors = discovered.errors;
    errors.sort_by(|a, b| {
        a.display_path
            .cmp(&b.display_path)
            .then(a.message.cmp(&b.message))
    });
    Analysis {
        files,
        findings,
        errors,
        files_scanned: discovered.scanned,
        files_parsed: discovered.parsed,
        model,
    }
}

/// Analyses one in-memory source file (no discovery, no cross-file linking): the IR and the findings.
/// For tests and embedding; `display_path`'s extension picks the language.
pub fn check_source(
    display_path: &str,
    text: &str,
    settings: &crate::rules::Settings,
) -> Result<(crate::ir::FileIr, Vec<Finding>), String> {
    let lang = crate::lang::language_for(std::path::Path::new(display_path))
        .ok_or_else(|| format!("no frontend for {display_path}"))?;
    let ctx = crate::lang::FileContext { display_path };
    let mut ir = crate::lang::extract(lang, text, &ctx).map_err(|e| e.0)?;
    ir.operations
        .retain(|op| op.evidence != crate::ir::Evidence::None);
    let file = SourceFile {
        display_path: display_path.to_string(),
        path: PathBuf::from(display_path),
        language: lang,
        text: Some(Arc::from(text)),
        ir,
    };
    // Linked as a repository of one file: its classes' inherited indexes, its own exports.
    let mut files = [file];
    crate::link::link(&mut files);
    let model = crate::model::AccessModel::build(&files, 1);
    let projects = crate::rules::Projects::default();
    let findings = crate::rules::run_all(&model, &files, settings, &projects, 1);
    let [file] = files;
    Ok((file.ir, findings))
}
