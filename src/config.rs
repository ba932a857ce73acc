//! Configuration, the way ruff users expect it: `mongolint.toml` (or `.mongolint.toml`, or a
//! `[tool.mongolint]` table in `pyproject.toml`), found from the working folder upward, or named
//! with `--config`. The format is documented in docs/configuration.md.
//!
//! Every mistake is an error that names the file, the position and the key: unknown keys,
//! unknown rule ids, options given to a rule that has none of that name, bad globs.

use crate::diagnostic::{Finding, Severity};
use crate::rules::{self, Settings};
use globset::{GlobSet, GlobSetBuilder};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use toml::Spanned;

/// File names searched in each folder, in this order; `pyproject.toml` counts only when it
/// has a `[tool.mongolint]` table.
pub const CONFIG_FILE_NAMES: &[&str] = &["mongolint.toml", ".mongolint.toml", "pyproject.toml"];

/// A configuration error: the message names the file and the key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// `mongolint.toml`, as written. Keys are kebab-case.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawConfig {
    select: Option<Vec<Spanned<String>>>,
    ignore: Option<Vec<Spanned<String>>>,
    extend_exclude: Option<Vec<Spanned<String>>>,
    per_file_ignores: Option<BTreeMap<Spanned<String>, Vec<Spanned<String>>>>,
    rules: Option<BTreeMap<Spanned<String>, RawRule>>,
    report_unused_suppressions: Option<bool>,
}

/// `[rules.<id>]`: the rule's severity and its options.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawRule {
    severity: Option<SeverityName>,
    /// lookup-chain: flag pipelines with more than this many `$lookup` stages.
    max_lookups: Option<Spanned<usize>>,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum SeverityName {
    Error,
    Warning,
    Info,
}

impl From<SeverityName> for Severity {
    fn from(s: SeverityName) -> Self {
        match s {
            SeverityName::Error => Severity::Error,
            SeverityName::Warning => Severity::Warning,
            SeverityName::Info => Severity::Info,
        }
    }
}

#[derive(Deserialize)]
struct Pyproject {
    tool: Option<PyprojectTool>,
}

#[derive(Deserialize)]
struct PyprojectTool {
    mongolint: Option<RawConfig>,
}

/// Path patterns, relative to the folder of the configuration file.
///
/// A pattern without `/` matches a file or folder name at any depth (`generated`, `*.pb.js`); one
/// with `/` is anchored at the configuration's folder (`src/legacy/**`, `scripts/*.py`). `*` stops
/// at `/`, `**` crosses folders, and a pattern that matches a folder matches everything below it.
#[derive(Clone, Debug, Default)]
pub struct PathPatterns {
    base: PathBuf,
    set: GlobSet,
    count: usize,
}

impl PathPatterns {
    fn new(base: &Path, patterns: &[(String, String)]) -> Result<Self, ConfigError> {
        let mut builder = GlobSetBuilder::new();
        for (pattern, context) in patterns {
            let trimmed = pattern.trim_start_matches("./").trim_end_matches('/');
            let anchored = trimmed.contains('/');
            let body = trimmed.trim_start_matches('/');
            let full = if anchored {
                body.to_string()
            } else {
                format!("**/{body}")
            };
            for glob in [full.clone(), format!("{full}/**")] {
                let g = globset::GlobBuilder::new(&glob)
                    .literal_separator(true)
                    .build()
                    .map_err(|e| {
                        ConfigError(format!("{context}: invalid pattern `{pattern}`: {e}"))
                    })?;
                builder.add(g);
            }
        }
        let set = builder
            .build()
            .map_err(|e| ConfigError(format!("invalid patterns: {e}")))?;
        Ok(PathPatterns {
            base: base.to_path_buf(),
            set,
            count: patterns.len(),
        })
    }

    /// Whether `path` (absolute, or relative to the current folder) matches any pattern.
    pub fn matches(&self, path: &Path) -> bool {
        if self.count == 0 {
            return false;
        }
        let Some(rel) = self.relative(path) else {
            return false;
        };
        self.set.is_match(&rel)
    }

    /// The indexes of the patterns `path` matches (two globs per pattern).
    fn matching_patterns(&self, path: &Path) -> BTreeSet<usize> {
        if self.count == 0 {
            return BTreeSet::new();
        }
        match self.relative(path) {
            Some(rel) => self.set.matches(&rel).into_iter().map(|i| i / 2).collect(),
            None => BTreeSet::new(),
        }
    }

    fn relative(&self, path: &Path) -> Option<String> {
        let abs = if path.is_absolute() {
            crate::workspace::absolute(path, Path::new("/"))
        } else {
            crate::workspace::absolute(path, &std::env::current_dir().ok()?)
        };
        let rel = abs.strip_prefix(&self.base).ok()?;
        Some(crate::workspace::relative_display(rel, Path::new("")))
    }
}

/// The configuration in force for a run.
#[derive(Clone, Debug)]
pub struct Config {
    /// The file it was read from; `None` for the defaults.
    pub file: Option<PathBuf>,
    /// Rules that report findings.
    pub enabled: BTreeSet<&'static str>,
    /// Severities that replace a rule's default.
    pub severity: BTreeMap<&'static str, Severity>,
    pub settings: Settings,
    /// Files and folders never analysed (`extend-exclude`).
    pub exclude: PathPatterns,
    per_file_ignores: PathPatterns,
    /// For each `per-file-ignores` pattern, in order: the rules it turns off.
    per_file_rules: Vec<BTreeSet<&'static str>>,
    pub report_unused_suppressions: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            file: None,
            enabled: rules::all().iter().map(|r| r.meta().id).collect(),
            severity: BTreeMap::new(),
            settings: Settings::default(),
            exclude: PathPatterns::default(),
            per_file_ignores: PathPatterns::default(),
            per_file_rules: Vec::new(),
            report_unused_suppressions: false,
        }
    }
}

/// Rule selection given on the command line; it takes precedence over the file.
#[derive(Clone, Debug, Default)]
pub struct CliOverrides {
    /// `--select`: replaces the file's `select` and `ignore`.
    pub select: Option<Vec<String>>,
    /// `--ignore`: removed after everything else.
    pub ignore: Vec<String>,
    pub report_unused_suppressions: bool,
}

/// The nearest configuration file from `start` upward: `mongolint.toml`, `.mongolint.toml`, or a
/// `pyproject.toml` with a `[tool.mongolint]` table.
pub fn find_config_file(start: &Path) -> Option<PathBuf> {
    for dir in start.ancestors() {
        for name in CONFIG_FILE_NAMES {
            let candidate = dir.join(name);
            if !candidate.is_file() {
                continue;
            }
            if *name == "pyproject.toml" && !pyproject_has_section(&candidate) {
                continue;
            }
            return Some(candidate);
        }
    }
    None
}

fn pyproject_has_section(path: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(path) else {
        return false;
    };
    match toml::from_str::<toml::Table>(&text) {
        Ok(table) => table
            .get("tool")
            .and_then(|t| t.as_table())
            .is_some_and(|t| t.contains_key("mongolint")),
        // A broken pyproject.toml that mentions us is reported when it is loaded.
        Err(_) => text.contains("[tool.mongolint"),
    }
}

/// Loads the configuration: the file named with `--config`, else the nearest one above `cwd`,
/// else the defaults; then applies the command line's overrides.
pub fn load(
    explicit: Option<&Path>,
    cwd: &Path,
    cli: &CliOverrides,
) -> Result<Config, ConfigError> {
    let file = match explicit {
        Some(p) => {
            let abs = crate::workspace::absolute(p, cwd);
            if !abs.is_file() {
                return Err(ConfigError(format!(
                    "{}: configuration file not found",
                    p.display()
                )));
            }
            Some(abs)
        }
        None => find_config_file(cwd),
    };
    let (raw, text, shown) = match &file {
        Some(path) => {
            let shown = path.display().to_string();
            let text = std::fs::read_to_string(path)
                .map_err(|e| ConfigError(format!("{shown}: cannot read: {e}")))?;
            (parse(&text, path, &shown)?, text, shown)
        }
        None => (RawConfig::default(), String::new(), String::new()),
    };
    let base = file
        .as_deref()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| cwd.to_path_buf());
    resolve(raw, &text, &shown, file.clone(), &base, cli)
}

/// Parses configuration text; `path` decides whether it is a `pyproject.toml`.
fn parse(text: &str, path: &Path, shown: &str) -> Result<RawConfig, ConfigError> {
    let is_pyproject = path.file_name().is_some_and(|n| n == "pyproject.toml");
    let wrap = |e: toml::de::Error| {
        let at = e
            .span()
            .map(|s| format!(":{}", line_col(text, s.start)))
            .unwrap_or_default();
        let what = e.message().trim_end().to_string();
        let prefix = if is_pyproject { "tool.mongolint: " } else { "" };
        ConfigError(format!("{shown}{at}: {prefix}{what}"))
    };
    if is_pyproject {
        let doc: Pyproject = toml::from_str(text).map_err(wrap)?;
        Ok(doc.tool.and_then(|t| t.mongolint).unwrap_or_default())
    } else {
        toml::from_str(text).map_err(wrap)
    }
}

/// `line:column` (1-based, columns in characters) of a byte offset.
fn line_col(text: &str, offset: usize) -> String {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before[before.rfind('\n').map_or(0, |i| i + 1)..]
        .chars()
        .count()
        + 1;
    format!("{line}:{column}")
}

/// A rule id from the registry, or an error naming where the unknown one was written.
fn rule_id(
    id: &Spanned<String>,
    key: &str,
    text: &str,
    shown: &str,
) -> Result<&'static str, ConfigError> {
    rules::find(id.get_ref())
        .map(|r| r.meta().id)
        .ok_or_else(|| {
            ConfigError(format!(
                "{shown}:{}: unknown rule id `{}` in `{key}` (see `mongolint rules`)",
                line_col(text, id.span().start),
                id.get_ref()
            ))
        })
}

fn resolve(
    raw: RawConfig,
    text: &str,
    shown: &str,
    file: Option<PathBuf>,
    base: &Path,
    cli: &CliOverrides,
) -> Result<Config, ConfigError> {
    let mut config = Config {
        file,
        ..Config::default()
    };
    let all: BTreeSet<&'static str> = config.enabled.clone();
    let ids = |list: &Option<Vec<Spanned<String>>>, key: &str| -> Result<_, ConfigError> {
        list.iter()
            .flatten()
            .map(|id| rule_id(id, key, text, shown))
            .collect::<Result<BTreeSet<_>, _>>()
    };
    let file_select = ids(&raw.select, "select")?;
    let file_ignore = ids(&raw.ignore, "ignore")?;
    let cli_id = |id: &String, flag: &str| {
        rules::find(id).map(|r| r.meta().id).ok_or_else(|| {
            ConfigError(format!(
                "unknown rule id `{id}` in `{flag}` (see `mongolint rules`)"
            ))
        })
    };
    let cli_ignore = cli
        .ignore
        .iter()
        .map(|id| cli_id(id, "--ignore"))
        .collect::<Result<BTreeSet<_>, _>>()?;
    let mut enabled = match &cli.select {
        Some(list) => list
            .iter()
            .map(|id| cli_id(id, "--select"))
            .collect::<Result<BTreeSet<_>, _>>()?,
        None => {
            let selected = if raw.select.is_some() {
                file_select
            } else {
                all
            };
            selected.difference(&file_ignore).copied().collect()
        }
    };
    enabled.retain(|id| !cli_ignore.contains(id));
    config.enabled = enabled;

    for (id, rule) in raw.rules.iter().flatten() {
        let id = rule_id(id, "rules", text, shown)?;
        if let Some(s) = rule.severity {
            config.severity.insert(id, s.into());
        }
        if let Some(max) = &rule.max_lookups {
            if id != "lookup-chain" {
                return Err(ConfigError(format!(
                    "{shown}:{}: `max-lookups` is not an option of rule `{id}` (it belongs to `lookup-chain`)",
                    line_col(text, max.span().start)
                )));
            }
            config.settings.lookup_chain_max = *max.get_ref();
        }
    }

    let excludes: Vec<(String, String)> = raw
        .extend_exclude
        .iter()
        .flatten()
        .map(|p| {
            (
                p.get_ref().clone(),
                format!(
                    "{shown}:{}: `extend-exclude`",
                    line_col(text, p.span().start)
                ),
            )
        })
        .collect();
    config.exclude = PathPatterns::new(base, &excludes)?;

    let mut patterns = Vec::new();
    for (pattern, ids) in raw.per_file_ignores.iter().flatten() {
        let key = format!("per-file-ignores.\"{}\"", pattern.get_ref());
        let rules = ids
            .iter()
            .map(|id| rule_id(id, &key, text, shown))
            .collect::<Result<BTreeSet<_>, _>>()?;
        patterns.push((
            pattern.get_ref().clone(),
            format!(
                "{shown}:{}: `per-file-ignores`",
                line_col(text, pattern.span().start)
            ),
        ));
        config.per_file_rules.push(rules);
    }
    config.per_file_ignores = PathPatterns::new(base, &patterns)?;
    config.report_unused_suppressions =
        cli.report_unused_suppressions || raw.report_unused_suppressions.unwrap_or(false);
    Ok(config)
}

impl Config {
    /// Whether `rule` reports in the file at `path` (selected, and not turned off for it by
    /// `per-file-ignores`).
    pub fn is_active(&self, rule: &str, path: &Path) -> bool {
        self.enabled.contains(rule)
            && !self.ignored_in(rule, &self.per_file_ignores.matching_patterns(path))
    }

    /// Whether one of the `per-file-ignores` patterns `matched` (by index) turns `rule` off.
    fn ignored_in(&self, rule: &str, matched: &BTreeSet<usize>) -> bool {
        matched
            .iter()
            .any(|&i| self.per_file_rules[i].contains(rule))
    }

    /// Keeps the findings of active rules and applies the configured severities.
    /// `path_of` gives the path on disk of a file (by its index, `Finding::file`); each file is
    /// matched against the `per-file-ignores` patterns once.
    pub fn apply<'a>(&self, findings: &mut Vec<Finding>, path_of: impl Fn(usize) -> &'a Path) {
        // Keyed by file index: hashing a `Path` walks its components.
        let mut matched: crate::lang::HashMap<usize, BTreeSet<usize>> = Default::default();
        findings.retain(|f| {
            if !self.enabled.contains(f.rule) {
                return false;
            }
            let patterns = matched
                .entry(f.file)
                .or_insert_with(|| self.per_file_ignores.matching_patterns(path_of(f.file)));
            !self.ignored_in(f.rule, patterns)
        });
        for f in findings.iter_mut() {
            if let Some(s) = self.severity.get(f.rule) {
                f.severity = *s;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_text(name: &str, text: &str) -> Result<Config, ConfigError> {
        let t = tempfile::tempdir().unwrap();
        let path = t.path().join(name);
        std::fs::write(&path, text).unwrap();
        load(Some(&path), t.path(), &CliOverrides::default())
            .map_err(|e| ConfigError(e.0.replace(&path.display().to_string(), name)))
    }

    #[test]
    fn defaults_enable_every_rule() {
        let c = load_text("mongolint.toml", "").unwrap();
        assert_eq!(c.enabled.len(), rules::all().len());
        assert_eq!(c.settings.lookup_chain_max, 1);
    }

    #[test]
    fn select_ignore_severity_and_options() {
        let c = load_text(
            "mongolint.toml",
            "select = [\"skip-paging\", \"lookup-chain\", \"counter-inc\"]\nignore = [\"counter-inc\"]\n\
             [rules.lookup-chain]\nseverity = \"error\"\nmax-lookups = 3\n",
        )
        .unwrap();
        assert_eq!(
            c.enabled.iter().copied().collect::<Vec<_>>(),
            vec!["lookup-chain", "skip-paging"]
        );
        assert_eq!(c.severity.get("lookup-chain"), Some(&Severity::Error));
        assert_eq!(c.settings.lookup_chain_max, 3);
    }

    #[test]
    fn unknown_keys_and_rule_ids_name_the_key_and_the_file() {
        let e = load_text("mongolint.toml", "selct = []\n").unwrap_err();
        assert!(e.0.starts_with("mongolint.toml:1:1: "), "{e}");
        assert!(e.0.contains("unknown field `selct`"), "{e}");

        let e =
            load_text("mongolint.toml", "\nignore = [\"skip-paging\", \"nope\"]\n").unwrap_err();
        assert_eq!(
            e.0,
            "mongolint.toml:2:26: unknown rule id `nope` in `ignore` (see `mongolint rules`)"
        );

        let e = load_text("mongolint.toml", "[rules.nope]\nseverity = \"error\"\n").unwrap_err();
        assert!(e.0.contains("unknown rule id `nope` in `rules`"), "{e}");

        let e = load_text("mongolint.toml", "[rules.skip-paging]\nmax-lookups = 2\n").unwrap_err();
        assert!(
            e.0.contains("`max-lookups` is not an option of rule `skip-paging`"),
            "{e}"
        );

        let e =
            load_text("mongolint.toml", "[rules.skip-paging]\nlevel = \"error\"\n").unwrap_err();
        assert!(e.0.starts_with("mongolint.toml:2:1: "), "{e}");
        assert!(e.0.contains("unknown field `level`"), "{e}");

        let e = load_text(
            "mongolint.toml",
            "[rules.skip-paging]\nseverity = \"fatal\"\n",
        )
        .unwrap_err();
        assert!(e.0.contains("unknown variant `fatal`"), "{e}");
    }

    #[test]
    fn pyproject_section_is_read_and_checked() {
        let c = load_text(
            "pyproject.toml",
            "[project]\nname = \"x\"\n[tool.ruff]\nline-length = 100\n[tool.mongolint]\nignore = [\"counter-inc\"]\n",
        )
        .unwrap();
        assert!(!c.enabled.contains("counter-inc"));
        let e = load_text("pyproject.toml", "[tool.mongolint]\nfoo = 1\n").unwrap_err();
        assert!(
            e.0.starts_with("pyproject.toml:2:1: tool.mongolint: "),
            "{e}"
        );
        assert!(e.0.contains("unknown field `foo`"), "{e}");
    }

    #[test]
    fn cli_select_replaces_and_cli_ignore_removes() {
        let t = tempfile::tempdir().unwrap();
        let path = t.path().join("mongolint.toml");
        std::fs::write(&path, "ignore = [\"skip-paging\"]\n").unwrap();
        let cli = CliOverrides {
            select: Some(vec!["skip-paging".into(), "counter-inc".into()]),
            ignore: vec!["counter-inc".into()],
            report_unused_suppressions: false,
        };
        let c = load(Some(&path), t.path(), &cli).unwrap();
        assert_eq!(
            c.enabled.iter().copied().collect::<Vec<_>>(),
            vec!["skip-paging"]
        );
        let cli = CliOverrides {
            select: Some(vec!["nope".into()]),
            ..CliOverrides::default()
        };
        let e = load(Some(&path), t.path(), &cli).unwrap_err();
        assert!(e.0.contains("unknown rule id `nope` in `--select`"), "{e}");
    }

    #[test]
    fn patterns_match_names_anywhere_and_anchored_paths_below_the_base() {
        let base = Path::new("/repo");
        let p = PathPatterns::new(
            base,
            &[
                ("generated".into(), String::new()),
                ("src/legacy/*.js".into(), String::new()),
                ("*.pb.py".into(), String::new()),
            ],
        )
        .unwrap();
        assert!(p.matches(Path::new("/repo/generated")));
        assert!(p.matches(Path::new("/repo/a/generated/x.js")));
        assert!(p.matches(Path::new("/repo/src/legacy/x.js")));
        assert!(!p.matches(Path::new("/repo/src/legacy/deep/x.js")));
        assert!(!p.matches(Path::new("/repo/lib/src/legacy/x.js")));
        assert!(p.matches(Path::new("/repo/lib/x.pb.py")));
        assert!(!p.matches(Path::new("/other/generated/x.js")));
    }

    #[test]
    fn per_file_ignores_turn_rules_off_for_matching_files() {
        let t = tempfile::tempdir().unwrap();
        let path = t.path().join("mongolint.toml");
        std::fs::write(
            &path,
            "[per-file-ignores]\n\"scripts/**\" = [\"skip-paging\"]\n\"*.py\" = [\"counter-inc\"]\n",
        )
        .unwrap();
        let c = load(Some(&path), t.path(), &CliOverrides::default()).unwrap();
        let root = t.path();
        assert!(!c.is_active("skip-paging", &root.join("scripts/a/b.js")));
        assert!(c.is_active("counter-inc", &root.join("scripts/a/b.js")));
        assert!(!c.is_active("counter-inc", &root.join("app/x.py")));
        assert!(c.is_active("skip-paging", &root.join("app/x.py")));
        let e = load_text(
            "mongolint.toml",
            "[per-file-ignores]\n\"x/**\" = [\"nope\"]\n",
        )
        .unwrap_err();
        assert!(
            e.0.contains("unknown rule id `nope` in `per-file-ignores.\"x/**\"`"),
            "{e}"
        );
    }

    #[test]
    fn config_is_found_from_the_working_folder_upward() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        assert_eq!(find_config_file(&root.join("a/b")), None);
        std::fs::write(root.join("pyproject.toml"), "[project]\nname = \"x\"\n").unwrap();
        assert_eq!(
            find_config_file(&root.join("a/b")),
            None,
            "no [tool.mongolint]"
        );
        std::fs::write(root.join("a/pyproject.toml"), "[tool.mongolint]\n").unwrap();
        assert_eq!(
            find_config_file(&root.join("a/b")),
            Some(root.join("a/pyproject.toml"))
        );
        std::fs::write(root.join("a/b/mongolint.toml"), "").unwrap();
        assert_eq!(
            find_config_file(&root.join("a/b")),
            Some(root.join("a/b/mongolint.toml"))
        );
    }
}
