//! What a run reports: the analysis' findings, filtered in this order by the configuration (rule
//! selection, per-file ignores, severities), by inline suppressions, and by a baseline.

use crate::analysis::Analysis;
use crate::config::{CliOverrides, Config, ConfigError};
use std::path::{Path, PathBuf};

/// The `check` options that decide what is reported.
#[derive(clap::Args, Debug, Default, Clone)]
pub struct PolicyArgs {
    /// Configuration file (default: the nearest mongolint.toml, .mongolint.toml or pyproject.toml
    /// with [tool.mongolint], from the current folder upward).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Report only these rules (comma-separated ids); replaces the configuration's select/ignore.
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    pub select: Option<Vec<String>>,
    /// Do not report these rules (comma-separated ids).
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    pub ignore: Vec<String>,
    /// Exit with 0 even when there are findings (still 2 when a file could not be analysed).
    #[arg(long)]
    pub exit_zero: bool,
    /// Report `mongolint-ignore` comments that silence no finding.
    #[arg(long)]
    pub report_unused_suppressions: bool,
    /// Report only findings that are not recorded in this baseline file.
    #[arg(long, value_name = "FILE", conflicts_with = "write_baseline")]
    pub baseline: Option<PathBuf>,
    /// Record the current findings in this baseline file (and report nothing).
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
}

impl PolicyArgs {
    pub fn load_config(&self, cwd: &Path) -> Result<Config, ConfigError> {
        let overrides = CliOverrides {
            select: self.select.clone(),
            ignore: self.ignore.clone(),
            report_unused_suppressions: self.report_unused_suppressions,
        };
        crate::config::load(self.config.as_deref(), cwd, &overrides)
    }
}

/// What `check` does after the policy was applied.
#[derive(Debug, PartialEq, Eq)]
pub enum After {
    /// Render the report.
    Report,
    /// A baseline was written: nothing else to print.
    BaselineWritten,
}

/// Applies the configuration, the suppressions and the baseline to `analysis`.
pub fn apply(analysis: &mut Analysis, config: &Config, args: &PolicyArgs) -> Result<After, String> {
    let files = &analysis.files;
    config.apply(&mut analysis.findings, |file| {
        files
            .get(file)
            .map(|sf| sf.path.as_path())
            .unwrap_or(Path::new(""))
    });
    crate::suppress::apply(analysis, config);
    if let Some(path) = &args.write_baseline {
        let n = crate::baseline::write(path, analysis)?;
        eprintln!(
            "mongolint: wrote {n} finding{} to the baseline {}",
            if n == 1 { "" } else { "s" },
            path.display()
        );
        return Ok(After::BaselineWritten);
    }
    if let Some(path) = &args.baseline {
        let baseline = crate::baseline::load(path)?;
        let hidden = crate::baseline::filter(analysis, &baseline);
        if hidden > 0 {
            eprintln!(
                "mongolint: {hidden} finding{} already in the baseline {} not reported",
                if hidden == 1 { "" } else { "s" },
                path.display()
            );
        }
    }
    Ok(After::Report)
}
