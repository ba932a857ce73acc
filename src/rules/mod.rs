//! The rule registry. Each rule lives in its own file with its metadata, detection and unit tests.
//! Rules read only the IR (`crate::ir`); none of them sees syntax.

use crate::diagnostic::{FileId, Finding, Severity};
use crate::ir::FileIr;

mod counter_inc;
mod dynamic_collection_name;
mod lookup_chain;
mod skip_paging;
mod unbounded_push;

/// Everything about a rule that is declared once and derived everywhere else:
/// the registry, `mongolint rules`, SARIF `tool.driver.rules`, and the docs check.
#[derive(Debug)]
pub struct RuleMeta {
    /// Stable kebab-case id used in config, suppressions and SARIF.
    pub id: &'static str,
    /// PascalCase name (SARIF `name`).
    pub name: &'static str,
    /// One line: what the rule flags.
    pub summary: &'static str,
    pub default_severity: Severity,
    /// SARIF `precision` property: `very-high`, `high`, `medium`, `low`.
    pub precision: &'static str,
    pub tags: &'static [&'static str],
    /// The rule's documentation page (`rules/<id>.md`), the single source of its help text.
    pub doc: &'static str,
}

/// Rule options a user can set.
#[derive(Clone, Debug)]
pub struct Settings {
    /// lookup-chain flags pipelines with more than this many `$lookup` stages.
    pub lookup_chain_max: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            lookup_chain_max: 1,
        }
    }
}

/// One analysed file as the rules see it.
pub struct FileView<'a> {
    pub id: FileId,
    pub ir: &'a FileIr,
}

pub struct RuleContext<'a> {
    pub files: Vec<FileView<'a>>,
    pub settings: &'a Settings,
}

pub trait Rule: Sync {
    fn meta(&self) -> &'static RuleMeta;
    fn check(&self, ctx: &RuleContext, out: &mut Vec<Finding>);
}

/// Every rule, in catalogue order.
pub fn all() -> &'static [&'static dyn Rule] {
    &[
        &unbounded_push::UnboundedPush,
        &dynamic_collection_name::DynamicCollectionName,
        &lookup_chain::LookupChain,
        &counter_inc::CounterInc,
        &skip_paging::SkipPaging,
    ]
}

pub fn find(id: &str) -> Option<&'static dyn Rule> {
    all().iter().copied().find(|r| r.meta().id == id)
}
