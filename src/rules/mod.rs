//! The rule registry. Each rule lives in its own file with its metadata, detection and unit tests.
//! Rules read only the IR (`crate::ir`); none of them sees syntax.

use crate::diagnostic::{FileId, Finding, Severity};
use crate::ir::FileIr;

mod counter_inc;
mod dynamic_collection_name;
mod lookup_chain;
mod lookup_unindexed_foreign_field;
mod query_in_loop;
mod redundant_index;
mod skip_paging;
mod unbounded_push;
mod unindexed_query;

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
    /// As shown to users: relative to the repository root, with `/` separators.
    pub path: &'a str,
    pub ir: &'a FileIr,
}

pub struct RuleContext<'a> {
    pub files: Vec<FileView<'a>>,
    pub settings: &'a Settings,
    /// The repository-wide access model, for the rules that need more than one operation.
    pub model: &'a crate::model::AccessModel,
    pub projects: &'a Projects,
}

impl RuleContext<'_> {
    /// Whether files `a` and `b` are one file of two copies of an application: see
    /// [`Projects::are_copies`].
    pub fn are_copies(&self, a: FileId, b: FileId) -> bool {
        match (self.files.get(a), self.files.get(b)) {
            (Some(a), Some(b)) => self.projects.are_copies(a.path, b.path),
            _ => false,
        }
    }

    /// Whether files `a` and `b` belong to two projects of the repository (two services of a
    /// monorepo, each with its own manifest).
    pub fn in_two_projects(&self, a: FileId, b: FileId) -> bool {
        match (self.files.get(a), self.files.get(b)) {
            (Some(a), Some(b)) => self.projects.in_two(a.path, b.path),
            _ => false,
        }
    }
}

/// The projects of the walked trees: the folders that hold a manifest of their own
/// (`package.json`, `pyproject.toml`, `Cargo.toml`, ..), as display paths. A repository can hold
/// several copies of one application (a book's or a course's code at each chapter, each with its
/// own `package.json`; an example kept beside the application it was copied from): each is
/// deployed on its own, against a database of its own.
#[derive(Clone, Debug, Default)]
pub struct Projects {
    /// Sorted; `.` is the root of the walk.
    roots: Vec<String>,
}

impl Projects {
    pub fn new(mut roots: Vec<String>) -> Projects {
        roots.sort();
        roots.dedup();
        Projects { roots }
    }

    /// The innermost project root that holds `path`, and `path` below it.
    fn locate<'p>(&self, path: &'p str) -> Option<(&str, &'p str)> {
        self.roots
            .iter()
            .filter_map(|root| {
                if root == "." {
                    return Some((root.as_str(), path));
                }
                let below = path.strip_prefix(root.as_str())?.strip_prefix('/')?;
                Some((root.as_str(), below))
            })
            .max_by_key(|(root, _)| root.len())
    }

    /// Whether `a` and `b` are one file of two copies of an application: each lies in a project
    /// of its own, at the same path below the project's root (`book/2-end/server/models/User.js`
    /// and `builderbook/server/models/User.js`, with a `package.json` in `book/2-end` and in
    /// `builderbook`).
    pub fn are_copies(&self, a: &str, b: &str) -> bool {
        match (self.locate(a), self.locate(b)) {
            (Some((root_a, below_a)), Some((root_b, below_b))) => {
                root_a != root_b && below_a == below_b
            }
            _ => false,
        }
    }

    /// Whether `a` and `b` lie in two projects (their innermost project roots differ).
    pub fn in_two(&self, a: &str, b: &str) -> bool {
        match (self.locate(a), self.locate(b)) {
            (Some((root_a, _)), Some((root_b, _))) => root_a != root_b,
            _ => false,
        }
    }
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
        &redundant_index::RedundantIndex,
        &lookup_unindexed_foreign_field::LookupUnindexedForeignField,
        &unindexed_query::UnindexedQuery,
        &query_in_loop::QueryInLoop,
    ]
}

pub fn find(id: &str) -> Option<&'static dyn Rule> {
    all().iter().copied().find(|r| r.meta().id == id)
}

/// Runs every rule over `model`, the access model of `files`, on up to `threads` threads:
/// the rules are independent, and each rule's findings are collected in the same order however
/// many threads run. Findings come back sorted and deduplicated.
pub fn run_all(
    model: &crate::model::AccessModel,
    files: &[crate::analysis::SourceFile],
    settings: &Settings,
    projects: &Projects,
    threads: usize,
) -> Vec<Finding> {
    let ctx = RuleContext {
        model,
        files: files
            .iter()
            .enumerate()
            .map(|(id, f)| FileView {
                id,
                path: &f.display_path,
                ir: &f.ir,
            })
            .collect(),
        settings,
        projects,
    };
    // Rules in parallel, claimed from the end of the catalogue, where the costliest
    // (`unindexed-query`) sits, so that it starts first; their findings in catalogue order.
    let rules = all();
    let order: Vec<usize> = (0..rules.len()).rev().collect();
    let mut by_rule = crate::parallel::map(&order, threads, |&i| {
        let mut found = Vec::new();
        rules[i].check(&ctx, &mut found);
        // Sorted here, on the rules' threads: the whole list is then a few sorted runs, which
        // the stable sort below finds and merges.
        found.sort_by(report_order);
        found
    });
    by_rule.reverse();
    let mut out = Vec::with_capacity(by_rule.iter().map(Vec::len).sum());
    for found in by_rule {
        out.extend(found);
    }
    out.sort_by(report_order);
    out.dedup_by(|a, b| a.file == b.file && a.span == b.span && a.rule == b.rule);
    out
}

/// The order of the report's findings, which every reporter relies on: by file, position and
/// rule.
pub(crate) fn report_order(a: &Finding, b: &Finding) -> std::cmp::Ordering {
    (a.file, a.span.start, a.rule, a.span.end, &a.message).cmp(&(
        b.file,
        b.span.start,
        b.rule,
        b.span.end,
        &b.message,
    ))
}

/// A filter's condition that selects the document of the current window of time: a lower bound
/// on when the document began (`created: {$gte: now - BUCKET}`, wildduck's auth log;
/// `createdAt: {$gt: lastWeek}`, growi's notifications). Upserted, it opens one document per
/// window, whose counters and arrays hold what one window adds.
pub(crate) fn opens_a_window(f: &crate::ir::Field) -> bool {
    f.value
        .fields()
        .iter()
        .any(|x| matches!(x.key.as_str(), "$gte" | "$gt"))
        && crate::lang::naming::for_each_word(&f.key, |w| {
            matches!(
                w,
                "created" | "since" | "start" | "started" | "begin" | "window"
            )
        })
}

/// How a finding's message names the collection an operation touches.
pub fn collection_label(op: &crate::ir::Operation) -> String {
    use crate::ir::{CollectionName, CollectionVia};
    let unresolved = || {
        if op.receiver.is_empty() {
            "an unresolved collection".to_string()
        } else {
            format!("the collection behind `{}`", op.receiver)
        }
    };
    match &op.collection {
        Some(c) => match &c.name {
            CollectionName::Literal { name } => ["`", name, "`"].concat(),
            // `db.collection(name)`: a template that is one hole names no part of the name.
            CollectionName::Template { parts } => match parts.as_slice() {
                [crate::ir::NamePart::Hole { text, .. }] => {
                    format!("the collection named by `{text}`")
                }
                _ => ["`", &c.name.display(), "`"].concat(),
            },
            // A parameter typed as a driver collection (`Collection<Post>`, `Collection`).
            CollectionName::Unknown { text }
                if text.contains('<') || text == "Collection" || text.ends_with(".Collection") =>
            {
                format!("a `{text}`")
            }
            CollectionName::Unknown { text } if !text.is_empty() => {
                // A model named (`Post`), or an expression that holds one (`self.model`).
                let named = text.chars().all(|ch| ch.is_alphanumeric() || ch == '_');
                // A class named for a layer over a model (easy-mock's `MockProxy.find(q, opt)`,
                // a `UserService`, clearml-server's `GetMixin`) is no model: the collection is
                // behind it.
                let layer = [
                    "Proxy",
                    "Service",
                    "Repository",
                    "Repo",
                    "Dao",
                    "DAO",
                    "Controller",
                    "Mixin",
                ]
                .iter()
                .any(|s| text.len() > s.len() && text.ends_with(s));
                if c.via == CollectionVia::MongooseModel && named && !layer {
                    format!("the collection of model `{text}`")
                } else if c.via == CollectionVia::MongooseModel {
                    format!("the collection behind `{text}`")
                } else {
                    format!("the collection named by `{text}`")
                }
            }
            CollectionName::Unknown { .. } => unresolved(),
        },
        None => unresolved(),
    }
}

/// Source text of a value for messages: the literal, or the unevaluated expression.
pub fn value_text(v: &crate::ir::Value) -> String {
    use crate::ir::ValueKind;
    match &v.kind {
        // On one line: the concise and text reports give a finding one line.
        ValueKind::Unknown(u) => crate::lang::one_line(&u.text).into_owned(),
        ValueKind::Number(n) => format!("{n}"),
        ValueKind::String(s) => format!("{s:?}"),
        ValueKind::Bool(b) => b.to_string(),
        ValueKind::Null => "null".to_string(),
        ValueKind::Document(_) => "{…}".to_string(),
        ValueKind::Array(_) => "[…]".to_string(),
    }
}

/// Every operation of every file, with its file id.
pub fn operations<'a>(
    ctx: &'a RuleContext,
) -> impl Iterator<Item = (FileId, &'a crate::ir::Operation)> + 'a {
    ctx.files
        .iter()
        .flat_map(|f| f.ir.operations.iter().map(move |op| (f.id, op)))
}
