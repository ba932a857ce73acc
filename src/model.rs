//! The access-pattern model: every file's IR merged into one picture of how each collection is
//! used across the repository — its operations (filter fields by equality and range, sort keys,
//! projections, updated fields, arrays pushed to, joins), its index declarations, the dynamic-name
//! families, and which collections one function reads together. Built once after cross-file
//! linking; the index-aware rules and `mongolint collections` read it.
//!
//! A collection is keyed by its literal name. Operations whose collection the code does not make
//! knowable stay in `unresolved`: the model never guesses a name.

use crate::analysis::SourceFile;
use crate::diagnostic::FileId;
use crate::ir::{
    CollectionName, CollectionVia, HoleKind, NamePart, OpKind, Operation, Span, Value, ValueKind,
};
use std::collections::{BTreeMap, BTreeSet};

/// An operation of the analysis: `files[file].ir.operations[index]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct OpId {
    pub file: FileId,
    pub index: usize,
}

/// A place in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Site {
    pub file: FileId,
    pub span: Span,
}

#[derive(Debug, Default)]
pub struct AccessModel {
    /// Per literal collection name, in name order.
    pub collections: BTreeMap<String, CollectionAccess>,
    /// Collection names built at run time, per template (`events_{day}`).
    pub families: BTreeMap<String, Family>,
    /// Operations whose collection is not knowable from the code.
    pub unresolved: Vec<OpSummary>,
    /// Index declarations on collections whose name is not knowable.
    pub unresolved_indexes: Vec<IndexDecl>,
    /// For each of `unresolved_indexes`, the literal parts of its collection's name when the
    /// name is a template with some (`{settings.COL_OBJECTS}.files`: `["", ".files"]`, the
    /// literal text between holes, in order): only a collection named so may hold it.
    /// `None`: any collection may.
    pub unresolved_index_patterns: Vec<Option<Vec<String>>>,
    /// Functions that read two or more collections.
    pub read_together: Vec<ReadTogether>,
    /// Files that are one-off or maintenance code by their path (`scripts/`, `upgrades/`, seeders,
    /// fixtures): they scan and loop on purpose, off the request path.
    pub offline_files: BTreeSet<FileId>,
    /// Files of migrations by their path (`migrations/`, `data_updates/`: `naming::path_is_migration`).
    pub migration_files: BTreeSet<FileId>,
}

/// A path segment that marks one-off or maintenance code.
fn path_is_offline(path: &str) -> bool {
    let mut parts: Vec<&str> = path.split('/').collect();
    let file = parts.pop().unwrap_or("");
    let stem = file.split('.').next().unwrap_or("");
    // A Rust crate's `bin/` (`src/bin/server.rs`, a workspace's `bin/core/`) holds its programs,
    // the application itself; elsewhere `bin/` holds command-line scripts.
    let rust = file.ends_with(".rs");
    // A module of an application's own feature named `scripts` (mist's `api/scripts/views.py`,
    // `models.py`: the scripts its users run on their machines) is application code.
    let feature_module = matches!(
        stem,
        "views" | "models" | "controllers" | "methods" | "routes" | "handlers" | "resolvers"
    );
    parts.iter().any(|p| {
        let p = p.to_ascii_lowercase();
        if feature_module && matches!(p.as_str(), "scripts" | "script") {
            return false;
        }
        // (A program named for a one-off or batch run is such code: boom's
        // `src/bin/reprocess_crossmatch.rs`, a `src/bin/backfill_users.rs`.)
        if rust && p == "bin" {
            return crate::lang::naming::name_is_periodic(stem);
        }
        matches!(
            p.as_str(),
            "scripts"
                | "script"
                | "bin"
                // cve-search's administration programs (`sbin/db_updater.py`).
                | "sbin"
                | "tools"
                | "upgrades"
                | "maintenance"
                | "seed"
                | "seeds"
                | "seeders"
                // superdesk's seed data and its `app:initialize_data` command.
                | "prepopulate"
                | "fixtures"
                | "devtools"
                | "benchmarks"
                | "bench"
                | "examples"
                | "upgrade"
                | "testing"
        )
            // A package or folder of sample data (Reaction's `api-plugin-sample-data/src/
            // loaders/`, `sample_data/`, `demoData/`): it seeds a demonstration shop.
            || (p.ends_with("data") && (p.contains("sample") || p.contains("demo")))
    }) || matches!(stem, "fixtures" | "demo" | "maintenance")
        // Django's management commands (`app/management/commands/dedupe.py`): run by hand or
        // by cron through `manage.py`, never on a request.
        || parts.windows(2).any(|w| w == ["management", "commands"])
        // A command-line program's commands (LearningLocker's `cli/src/commands/
        // updateStatementCount.js`), run by hand as Django's are.
        || parts
            .iter()
            .position(|p| *p == "cli")
            .is_some_and(|i| parts[i + 1..].contains(&"commands"))
        // A developer's command-line tool (Huly's `dev/tool/src/qms.ts` migrations).
        || parts.windows(2).any(|w| w[0] == "dev" && matches!(w[1], "tool" | "tools"))
        // `seed.js`, `seeders.py`, Reaction's `checkAndSeedDb.js`: seeding code.
        || crate::lang::naming::for_each_word(stem, |w| {
            matches!(w, "seed" | "seeds" | "seeder" | "seeders" | "seeding")
        })
        || stem.starts_with("test")
}

/// A folder of the path is an archive of old code: `archive`, `archived`, `attic`, `obsolete`.
fn path_is_archived(path: &str) -> bool {
    let folders = path.rsplit_once('/').map_or("", |(dir, _)| dir);
    folders.split('/').any(|p| {
        ["archive", "archived", "attic", "obsolete"]
            .iter()
            .any(|a| p.eq_ignore_ascii_case(a))
    })
}

/// A file of an application's upgrade steps (Hydro's `src/upgrade.ts`, `coreScripts:
/// MigrationScript[]` of functions `_75_76`, ..): a file named `upgrade` or `upgrades` that speaks
/// of migrations. Each step runs once, when a deployment upgrades. (`upgrade` alone names other
/// things too: a plan's upgrade, a WebSocket's.)
fn is_upgrade_steps(path: &str, text: &str) -> bool {
    let file = crate::lang::naming::last_part(path, b'/');
    let stem = file.split('.').next().unwrap_or(file);
    matches!(stem, "upgrade" | "upgrades")
        && (text.contains("Migration") || text.contains("migration"))
}

/// A command run by hand as a program of its own: a file under a `commands/` folder that connects
/// to the database itself and ends its process (erxes' `src/commands/recoveryScoreLog.ts`: `new
/// MongoClient(MONGO_URL)`, then `process.exit()`), or a Python module run as a script
/// (`if __name__ == "__main__":`) that makes its own client. A bot's or a CLI framework's command
/// handlers under `commands/` use the application's connection, and stay online code.
fn is_standalone_command(path: &str, text: &str) -> bool {
    let mut parts = path.split('/');
    parts.next_back();
    if !parts.any(|p| matches!(p, "commands" | "command")) {
        return false;
    }
    // (`MongoClient(` is also `new MongoClient(` and Python's `MongoClient(uri)`.)
    let connects = ["MongoClient(", "MongoClient.connect("]
        .iter()
        .any(|c| text.contains(c));
    let program = text.contains("process.exit(")
        || text.contains("__name__ == \"__main__\"")
        || text.contains("__name__ == '__main__'");
    connects && program
}

/// A mongosh script (alerta's `contrib/mongo/housekeepingAlerts.js`, run from cron as `mongo
/// --quiet monitoring housekeepingAlerts.js`): it names collections on the shell's global `db`
/// (`db.alerts.update(..)`) and is no module of an application (no `require`, `import` or
/// export). The shell runs it by hand or from cron, off the request path, as a script of
/// `scripts/`. (A migration written for the shell stays a migration, judged as one.)
fn is_shell_script(ir: &crate::ir::FileIr, text: &str) -> bool {
    ir.collections
        .iter()
        .any(|r| r.via == crate::ir::CollectionVia::Shell)
        && ![
            "require(",
            "import ",
            "import{",
            "export ",
            "module.exports",
            "exports.",
        ]
        .iter()
        .any(|w| text.contains(w))
}

#[derive(Debug, Default)]
pub struct CollectionAccess {
    pub name: String,
    /// How the code reaches it: driver collection, Mongoose model, mongosh.
    pub via: BTreeSet<&'static str>,
    /// Every place the code names it (`db.collection("x")`, `model("X", ..)`).
    pub references: Vec<Site>,
    pub operations: Vec<OpSummary>,
    pub indexes: Vec<IndexDecl>,
    /// `dropIndex` / `drop_index` calls.
    pub dropped: Vec<DropDecl>,
}

impl CollectionAccess {
    /// The repository declares indexes for this collection, and every declaration can be read.
    /// A mongoengine primary key alone (`id = UUIDField(primary_key=True)`, the `_id` every
    /// collection has) does not count, and a key named by a constant
    /// ([`named_by_constant`]) is not read: it may be any field. See
    /// [`AccessModel::possible_indexes`], which also asks about declarations on unnamed collections.
    fn declared_indexes_readable(&self) -> bool {
        self.indexes.iter().any(|i| i.method != "primary_key")
            && self
                .indexes
                .iter()
                .all(|i| !i.dynamic && !i.keys.iter().any(|k| named_by_constant(&k.field)))
    }
}

/// One operation, summarised for the model.
#[derive(Clone, Debug)]
pub struct OpSummary {
    pub id: OpId,
    pub kind: OpKind,
    pub method: String,
    /// The method name's span.
    pub site: Site,
    pub function: Option<String>,
    pub in_loop: bool,
    pub query: Query,
    pub projection: Vec<String>,
    /// (field, operator) pairs the update writes: `("status", "$set")`.
    pub updates: Vec<(String, String)>,
    /// Arrays appended to with `$push` / `$addToSet`.
    pub pushed: Vec<String>,
    pub joins: Vec<Join>,
}

impl OpSummary {
    pub fn is_read(&self) -> bool {
        self.kind.is_read()
    }
}

/// The shape of an operation's filter and sort, as far as indexes are concerned.
#[derive(Clone, Debug, Default)]
pub struct Query {
    /// The operation selects documents with a filter (reads, updates, deletes, a leading `$match`).
    pub present: bool,
    /// Fields compared by equality (`{a: x}`, `{a: {$eq: x}}`, `{a: {$in: [..]}}`), in source order.
    pub equality: Vec<String>,
    /// Fields compared by range or other operators (`$gt`, `$lt`, `$ne`, `$regex`, `$exists`).
    pub range: Vec<String>,
    /// Fields compared by equality to a value nearly every document has (a soft delete's flag at
    /// the live documents' value, `{deleted: false}`): an index may hold them in its equality
    /// prefix, but need not, as they narrow nothing.
    pub unselective: Vec<String>,
    /// Sort keys with their directions (1 or -1).
    pub sort: Vec<(String, i32)>,
    /// Why the filter or sort cannot be read fully (built at run time, `$or`, `$text`, geo, ...).
    pub opaque: Option<String>,
    /// Span of the filter document, when there is one.
    pub filter_span: Option<Span>,
    /// The operation goes through an ODM's document class: mongoengine adds `_cls` to the
    /// filter of every query of a class that allows inheritance, the first key it gives that
    /// class's indexes.
    pub through_model: bool,
}

impl Query {
    pub fn fields(&self) -> impl Iterator<Item = &String> {
        self.equality.iter().chain(self.range.iter())
    }
}

/// A join: a `$lookup` / `$graphLookup` stage, a `$unionWith`.
#[derive(Clone, Debug)]
pub struct Join {
    pub stage: &'static str,
    pub from: Option<String>,
    pub local_field: Option<String>,
    /// `foreignField` (`connectToField` for `$graphLookup`); `None` for the pipeline form.
    pub foreign_field: Option<String>,
    /// The `foreignField` key, else the stage key.
    pub foreign_span: Span,
    pub stage_span: Span,
    pub file: FileId,
}

/// One key of an index.
#[derive(Clone, Debug, PartialEq)]
pub struct IndexKey {
    pub field: String,
    pub kind: KeyKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyKind {
    Asc,
    Desc,
    Text,
    Geo2dsphere,
    Geo2d,
    Hashed,
    Wildcard,
    /// Another string type (`geoHaystack`, a version-specific type).
    Other,
}

impl KeyKind {
    pub fn is_special(self) -> bool {
        !matches!(self, KeyKind::Asc | KeyKind::Desc)
    }
    pub fn as_str(self) -> &'static str {
        match self {
            KeyKind::Asc => "1",
            KeyKind::Desc => "-1",
            KeyKind::Text => "text",
            KeyKind::Geo2dsphere => "2dsphere",
            KeyKind::Geo2d => "2d",
            KeyKind::Hashed => "hashed",
            KeyKind::Wildcard => "wildcard",
            KeyKind::Other => "other",
        }
    }
}

/// Options that change what an index holds or guarantees.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IndexOptions {
    pub unique: bool,
    pub sparse: bool,
    pub partial: bool,
    pub ttl: bool,
    pub collation: bool,
    pub hidden: bool,
    pub name: Option<String>,
}

impl IndexOptions {
    /// The options that make an index more than its keys, for messages and JSON.
    pub fn flags(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        for (on, name) in [
            (self.unique, "unique"),
            (self.sparse, "sparse"),
            (self.partial, "partial"),
            (self.ttl, "ttl"),
            (self.collation, "collation"),
            (self.hidden, "hidden"),
        ] {
            if on {
                v.push(name);
            }
        }
        v
    }
}

/// One index declaration.
#[derive(Clone, Debug)]
pub struct IndexDecl {
    pub id: OpId,
    /// How it is declared: `createIndex`, `index` (Mongoose), `unique` (a field option), `IndexModel`, ...
    pub method: String,
    /// The key pattern (or the field, for a Mongoose field option).
    pub site: Site,
    /// The method name or option key.
    pub method_site: Site,
    pub keys: Vec<IndexKey>,
    pub options: IndexOptions,
    /// The keys cannot be read (a variable, a computed key).
    pub dynamic: bool,
    /// A `dropIndex` in the repository names this index.
    pub dropped: bool,
}

impl IndexDecl {
    /// `a_1_b_-1`, the name MongoDB gives an index by default.
    pub fn default_name(&self) -> String {
        self.keys
            .iter()
            .map(|k| format!("{}_{}", k.field, k.kind.as_str()))
            .collect::<Vec<_>>()
            .join("_")
    }

    /// `{a: 1, b: -1}` for messages.
    pub fn keys_text(&self) -> String {
        if self.dynamic {
            return "{?}".to_string();
        }
        let mut out = String::from("{");
        for (i, k) in self.keys.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(&k.field);
            out.push_str(": ");
            match k.kind {
                KeyKind::Asc | KeyKind::Desc => out.push_str(k.kind.as_str()),
                KeyKind::Wildcard => out.push('1'),
                other => {
                    out.push('"');
                    out.push_str(other.as_str());
                    out.push('"');
                }
            }
        }
        out.push('}');
        out
    }
}

/// A `dropIndex` call: by name or by key pattern.
#[derive(Clone, Debug)]
pub struct DropDecl {
    pub site: Site,
    pub name: Option<String>,
    pub keys: Vec<IndexKey>,
}

/// Collection names built from the same template.
#[derive(Clone, Debug, Default)]
pub struct Family {
    pub template: String,
    /// What the holes are: `date`, `entity`, `config`, `unknown`.
    pub holes: BTreeSet<&'static str>,
    pub references: Vec<Site>,
    pub operations: Vec<OpSummary>,
}

/// A function that reads several collections.
#[derive(Clone, Debug)]
pub struct ReadTogether {
    pub file: FileId,
    pub function: String,
    pub collections: Vec<String>,
    pub sites: Vec<Site>,
}

/// How well one index serves one query, by the equality-sort-range rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Serve {
    /// The index cannot bound the scan: its first key is neither filtered on nor the sort.
    None,
    /// The index only gives the sort order: its first keys are the sort, and no key the query
    /// filters on by equality bounds the walk, so the whole index is walked in order and every document it
    /// points to is read and filtered (`{createdAt: -1}` for `find({boardId}).sort({createdAt: -1})`).
    SortOnly,
    /// The index bounds the scan but the sort is done in memory (the sort keys do not follow
    /// the equality prefix in the index).
    BlockingSort,
    /// Equality prefix, then the sort, then range: the index serves the query.
    Full,
}

/// Grades how `index` serves `q` (which must not be opaque).
pub fn serves(index: &IndexDecl, q: &Query) -> Serve {
    if index.dynamic || index.options.hidden || index.keys.is_empty() {
        return Serve::None;
    }
    let in_eq = |f: &str| q.equality.iter().any(|e| e == f);
    let in_prefix = |f: &str| in_eq(f) || q.unselective.iter().any(|e| e == f);
    let in_range = |f: &str| q.range.iter().any(|e| e == f);
    // mongoengine's `_cls` first: every query through the document class filters on it, but it
    // only tells the classes of the collection apart, so the keys after it are what serve.
    let keys = match index.keys.split_first() {
        Some((first, rest)) if first.field == "_cls" && q.through_model => rest,
        _ => &index.keys[..],
    };
    if keys.is_empty() {
        return Serve::None;
    }
    // A wildcard index serves any single-field predicate under its path.
    if let Some(w) = keys.iter().find(|k| k.kind == KeyKind::Wildcard) {
        let base = w.field.trim_end_matches("$**").trim_end_matches('.');
        let under = |f: &String| base.is_empty() || f == base || f.starts_with(&format!("{base}."));
        if q.fields().any(under) {
            return Serve::Full;
        }
        return Serve::None;
    }
    let usable = |k: &IndexKey| match k.kind {
        KeyKind::Asc | KeyKind::Desc => true,
        KeyKind::Hashed => in_eq(&k.field),
        _ => false,
    };
    // 1. Equality prefix, in any order (with or without the unselective equalities).
    let mut i = 0;
    while i < keys.len() && usable(&keys[i]) && in_prefix(&keys[i].field) {
        i += 1;
    }
    // A unique index every key of which the query fixes finds one document at most: nothing is
    // left to sort (LibreChat's `Skill.findOne({name, author, tenantId}).sort({updatedAt: -1})`
    // beside a unique `{name, author, tenantId}`). A partial index is unique only among the
    // documents it holds.
    if i == keys.len() && index.options.unique && !index.options.partial {
        return Serve::Full;
    }
    // 2. Sort: the sort keys not fixed by the equality prefix must follow it, all in the
    //    index's directions or all inverted.
    let fixed: Vec<&str> = keys[..i].iter().map(|k| k.field.as_str()).collect();
    let sort: Vec<&(String, i32)> = q
        .sort
        .iter()
        .filter(|(f, _)| !fixed.contains(&f.as_str()))
        .collect();
    let mut sort_ok = sort.is_empty();
    let mut j = i;
    if !sort.is_empty() && i + sort.len() <= keys.len() {
        let mut same = true;
        let mut inverted = true;
        let mut fields_match = true;
        for (n, (f, dir)) in sort.iter().enumerate() {
            let k = &keys[i + n];
            let kdir = match k.kind {
                KeyKind::Asc => 1,
                KeyKind::Desc => -1,
                _ => 0,
            };
            if &k.field != f || kdir == 0 {
                fields_match = false;
                break;
            }
            same &= kdir == *dir;
            inverted &= kdir == -*dir;
        }
        if fields_match && (same || inverted) {
            sort_ok = true;
            j = i + sort.len();
        }
    }
    // 3. Range: the next key bounds the scan further (or, without an equality prefix, starts it).
    let range_next = j < keys.len() && usable(&keys[j]) && in_range(&keys[j].field);
    let bounded = i > 0 || range_next || (sort_ok && !sort.is_empty());
    if !bounded {
        // The first key may still be a range field when the sort does not follow.
        if usable(&keys[0]) && in_range(&keys[0].field) {
            return if q.sort.is_empty() {
                Serve::Full
            } else {
                Serve::BlockingSort
            };
        }
        return Serve::None;
    }
    if !sort_ok {
        return Serve::BlockingSort;
    }
    // A range on a sort key the index walks bounds the walk as well (`{date: {$gte: d}}` sorted
    // by `date`).
    let range_on_sort = keys[i..j].iter().any(|k| in_range(&k.field));
    if i == 0 && !range_next && !range_on_sort && !sort.is_empty() && !q.equality.is_empty() {
        // Bounded by nothing but the sort while the query selects by equality: no predicate of
        // the query narrows the walk. (Ranges alone are left: a range on the sort key bounds
        // it, and the planner walks a sort index for a loose `$ne` or `$gte` too.)
        return Serve::SortOnly;
    }
    Serve::Full
}

/// A predicate on `_id` (equality or range) is always served by the `_id` index.
pub fn on_id(q: &Query) -> bool {
    q.fields().any(|f| f == "_id")
}

impl AccessModel {
    /// The indexes `c` may have besides its own declarations, when the rest is known: the
    /// repository declares indexes for `c` and every one can be read. The declarations on
    /// collections the code names only at run time whose name could be `c`'s (a name template
    /// whose fixed parts `c`'s name has, or any name) may be `c`'s: with readable keys (a Mongoose
    /// schema exported and compiled nowhere the linker sees, a sub-document's schema, whose
    /// indexes land on its parent's collection), such an index matters to a query only if it
    /// would serve it, so a rule judges `c` as if they were among its indexes and leaves alone
    /// what one of them serves. `None`: `c`'s indexes are not known, or a declaration that could
    /// be `c`'s cannot be read (`getattr(db, name).create_index(..)` over a table of indexes):
    /// it may be the one that serves any query.
    pub fn possible_indexes(&self, c: &CollectionAccess) -> Option<Vec<&IndexDecl>> {
        if !c.declared_indexes_readable() {
            return None;
        }
        let mut out = Vec::new();
        for (decl, pattern) in self
            .unresolved_indexes
            .iter()
            .zip(&self.unresolved_index_patterns)
        {
            if pattern
                .as_ref()
                .is_some_and(|parts| !name_fits(&c.name, parts))
            {
                continue;
            }
            if decl.dynamic || decl.keys.iter().any(|k| named_by_constant(&k.field)) {
                return None;
            }
            out.push(decl);
        }
        Some(out)
    }

    /// The model of `files`, built on up to `threads` threads: each builds the model of a run of
    /// consecutive files, and the runs are merged in file order, so the result is the same for any
    /// thread count.
    pub fn build(files: &[SourceFile], threads: usize) -> AccessModel {
        // Below this many operations a second thread costs more than it saves.
        Self::build_in_runs(files, threads, 2_000)
    }

    fn build_in_runs(files: &[SourceFile], threads: usize, parallel_from: usize) -> AccessModel {
        let ops: usize = files.iter().map(|f| f.ir.operations.len()).sum();
        let threads = if ops < parallel_from {
            1
        } else {
            threads.clamp(1, files.len().max(1))
        };
        let mut parts: Vec<Part> = if threads == 1 {
            vec![Part::build(files, 0)]
        } else {
            // Runs of about equal operation counts.
            let per_run = ops.div_ceil(threads);
            let mut runs = Vec::new();
            let (mut start, mut count) = (0, 0);
            for (i, f) in files.iter().enumerate() {
                count += f.ir.operations.len();
                if count >= per_run && runs.len() + 1 < threads {
                    runs.push(start..i + 1);
                    (start, count) = (i + 1, 0);
                }
            }
            runs.push(start..files.len());
            crate::parallel::map(&runs, threads, |run| {
                Part::build(&files[run.clone()], run.start)
            })
        };
        let mut whole = parts.remove(0);
        for part in parts {
            whole.merge(part);
        }
        let Part {
            model: mut m,
            by_function,
        } = whole;
        for c in m.collections.values_mut() {
            let drops = std::mem::take(&mut c.dropped);
            for ix in &mut c.indexes {
                ix.dropped = drops.iter().any(|d| {
                    d.name.as_ref().is_some_and(|n| {
                        Some(n) == ix.options.name.as_ref() || *n == ix.default_name()
                    }) || (!d.keys.is_empty() && same_keys(&d.keys, &ix.keys))
                });
            }
            c.dropped = drops;
        }
        for ((file, function), (colls, sites)) in by_function {
            if colls.len() >= 2 {
                m.read_together.push(ReadTogether {
                    file,
                    function,
                    collections: colls.into_iter().collect(),
                    sites,
                });
            }
        }
        m
    }

    fn collection(&mut self, name: &str) -> &mut CollectionAccess {
        self.collections
            .entry(name.to_string())
            .or_insert_with(|| CollectionAccess {
                name: name.to_string(),
                ..CollectionAccess::default()
            })
    }

    fn family(&mut self, name: &CollectionName, parts: &[NamePart]) -> &mut Family {
        let template = name.display();
        let fam = self
            .families
            .entry(template.clone())
            .or_insert_with(|| Family {
                template,
                ..Family::default()
            });
        for p in parts {
            if let NamePart::Hole { hole, .. } = p {
                fam.holes.insert(match hole {
                    HoleKind::Date => "date",
                    HoleKind::Entity => "entity",
                    HoleKind::Config => "config",
                    HoleKind::Unknown => "unknown",
                });
            }
        }
        fam
    }

    /// The collection an operation works on, when its name is a resolved literal.
    pub fn collection_of(&self, op: &Operation) -> Option<&CollectionAccess> {
        literal_name(op).and_then(|n| self.collections.get(&n))
    }
}

/// The literal text between the holes of an operation's collection name, in order, when it is a
/// template with a fixed part (`{x}.files` → `["", ".files"]`); `None` for any other name.
fn template_pattern(op: &Operation) -> Option<Vec<String>> {
    let CollectionName::Template { parts } = &op.collection.as_ref()?.name else {
        return None;
    };
    if !is_family(parts) {
        return None;
    }
    let mut out = vec![String::new()];
    for p in parts {
        match p {
            NamePart::Literal { text } => out.last_mut().expect("not empty").push_str(text),
            NamePart::Hole { .. } => out.push(String::new()),
        }
    }
    Some(out)
}

/// Whether `name` can be spelt by a template whose literal parts are `parts` (see
/// [`template_pattern`]): the first at its start, the last at its end, the others in order
/// between, each hole any text.
fn name_fits(name: &str, parts: &[String]) -> bool {
    let Some((first, rest)) = parts.split_first() else {
        return true;
    };
    let Some(mut tail) = name.strip_prefix(first.as_str()) else {
        return false;
    };
    let Some((last, middle)) = rest.split_last() else {
        return tail.is_empty();
    };
    for m in middle {
        match tail.find(m.as_str()) {
            Some(at) => tail = &tail[at + m.len()..],
            None => return false,
        }
    }
    tail.ends_with(last.as_str())
}

/// A name with a fixed part and a hole (`events_{day}`); a bare `{name}` is just unknown.
fn is_family(parts: &[NamePart]) -> bool {
    parts
        .iter()
        .any(|p| matches!(p, NamePart::Literal { text } if !text.is_empty()))
}

fn via_str(v: CollectionVia) -> &'static str {
    match v {
        CollectionVia::Driver => "driver",
        CollectionVia::MongooseModel => "model",
        CollectionVia::Shell => "shell",
    }
}

/// The literal collection name of an operation, if resolved.
pub fn literal_name(op: &Operation) -> Option<String> {
    match &op.collection.as_ref()?.name {
        CollectionName::Literal { name } => Some(name.clone()),
        _ => None,
    }
}

fn same_keys(a: &[IndexKey], b: &[IndexKey]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.field == y.field && x.kind == y.kind)
}

// ------------------------------------------------------------------------------ indexes

/// The index declarations of one `CreateIndex` operation: one, or one per entry of
/// `createIndexes([{key, name, unique}, ..])`.
fn index_decls(id: OpId, op: &Operation) -> Vec<IndexDecl> {
    let Some(filter) = &op.filter else {
        // Mongoose's `Model.createIndexes()` without arguments builds
        // the indexes its schema declares, which are read where they are declared (the
        // driver's `createIndexes` takes its specifications).
        if op.method == "createIndexes" {
            return Vec::new();
        }
        return vec![dynamic_decl(id, op, op.method_span)];
    };
    match &filter.kind {
        ValueKind::Array(items) => items
            .iter()
            .map(|item| match item.get("key") {
                Some(k) => decl(id, op, &k.value, Some(item), true),
                None => dynamic_decl(id, op, item.span),
            })
            .collect(),
        ValueKind::Document(_) if filter.get("key").is_some_and(|k| k.value.is_document()) => {
            let k = filter
                .get("key")
                .map(|k| k.value.clone())
                .unwrap_or_else(|| filter.clone());
            vec![decl(id, op, &k, Some(filter), true)]
        }
        _ => vec![decl(id, op, filter, op.options.as_ref(), false)],
    }
}

fn dynamic_decl(id: OpId, op: &Operation, span: Span) -> IndexDecl {
    IndexDecl {
        id,
        method: op.method.clone(),
        site: Site {
            file: id.file,
            span,
        },
        method_site: Site {
            file: id.file,
            span: op.method_span,
        },
        keys: Vec::new(),
        options: IndexOptions::default(),
        dynamic: true,
        dropped: false,
    }
}

fn decl(
    id: OpId,
    op: &Operation,
    keys_v: &Value,
    options: Option<&Value>,
    spec: bool,
) -> IndexDecl {
    let mut d = dynamic_decl(id, op, keys_v.span);
    let (keys, dynamic) = index_keys(keys_v);
    d.keys = keys;
    d.dynamic = dynamic;
    if let Some(o) = options {
        d.options = index_options(o, spec);
    }
    d
}

/// Key pattern → keys; `true` when part of it cannot be read.
fn index_keys(v: &Value) -> (Vec<IndexKey>, bool) {
    match &v.kind {
        ValueKind::String(s) => (
            vec![IndexKey {
                field: s.clone(),
                kind: if s.ends_with("$**") {
                    KeyKind::Wildcard
                } else {
                    KeyKind::Asc
                },
                span: v.span,
            }],
            false,
        ),
        ValueKind::Document(fields) => {
            let mut keys = Vec::new();
            let mut dynamic = fields.is_empty();
            for f in fields {
                if !plausible_field(&f.key) {
                    dynamic = true;
                    continue;
                }
                // `{"$**": "text"}` is a text index over every string field: it serves `$text`
                // searches, not the predicates a wildcard index serves.
                let text = matches!(&f.value.kind, ValueKind::String(s) if s == "text");
                let kind = if f.key.ends_with("$**") && !text {
                    KeyKind::Wildcard
                } else {
                    match &f.value.kind {
                        ValueKind::Number(n) if *n < 0.0 => KeyKind::Desc,
                        ValueKind::Number(_) | ValueKind::Bool(true) => KeyKind::Asc,
                        ValueKind::String(s) => match s.as_str() {
                            "text" => KeyKind::Text,
                            "2dsphere" => KeyKind::Geo2dsphere,
                            "2d" => KeyKind::Geo2d,
                            "hashed" => KeyKind::Hashed,
                            "1" | "asc" | "ascending" => KeyKind::Asc,
                            "-1" | "desc" | "descending" => KeyKind::Desc,
                            _ => KeyKind::Other,
                        },
                        _ => {
                            dynamic = true;
                            continue;
                        }
                    }
                };
                keys.push(IndexKey {
                    field: f.key.clone(),
                    kind,
                    span: f.key_span,
                });
            }
            (keys, dynamic)
        }
        _ => (Vec::new(), true),
    }
}

/// Index options in any spelling: driver (`expireAfterSeconds`), pymongo keywords, the Rust
/// builder (`expire_after`, `partial_filter_expression`), mongoengine (`expireAfterSeconds`).
fn index_options(v: &Value, spec: bool) -> IndexOptions {
    let mut o = IndexOptions::default();
    for f in v.fields() {
        let on = !matches!(f.value.kind, ValueKind::Bool(false) | ValueKind::Null);
        match f.key.as_str() {
            "unique" => o.unique = on,
            "sparse" => o.sparse = on,
            "partialFilterExpression" | "partial_filter_expression" => o.partial = on,
            "expireAfterSeconds" | "expire_after_seconds" | "expire_after" | "expires" => {
                o.ttl = on
            }
            "collation" => o.collation = on,
            "hidden" => o.hidden = on,
            "name" => o.name = f.value.as_str().map(str::to_string),
            "key" if spec => {}
            _ => {}
        }
    }
    o
}

/// A key spelt with a Rust constant, whose value the frontend does not read: `Station::KEY_ID`,
/// `Self::KEY_STATION_ID`, `crate::KEY_ID` (openstream's come from a derive macro). It is one
/// field, the same wherever it is spelt so (an index whose keys repeat another's is redundant,
/// whatever the field), but an unknown one: another spelling may be the same field
/// (`Self::KEY_ID` and `Station::KEY_ID`, or `_id`), so no query is judged against indexes by
/// such a key, and no index so keyed is known to serve or not to serve one.
pub fn named_by_constant(k: &str) -> bool {
    k.contains("::")
}

/// A field path as written in a key pattern or filter (not `[computed]`, not `(expr)`).
fn plausible_field(k: &str) -> bool {
    !k.is_empty()
        && k != "..."
        && !k.starts_with(['[', '(', '`', '{'])
        && !k.contains(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '{' | '}' | '+'))
}

fn drop_decl(file: FileId, op: &Operation) -> DropDecl {
    let mut d = DropDecl {
        site: Site {
            file,
            span: op.method_span,
        },
        name: None,
        keys: Vec::new(),
    };
    if let Some(f) = &op.filter {
        match &f.kind {
            ValueKind::String(s) => d.name = Some(s.clone()),
            ValueKind::Document(_) => d.keys = index_keys(f).0,
            _ => {}
        }
    }
    d
}

// ------------------------------------------------------------------------------ operations

/// The model of a run of consecutive files, before the runs are merged (see
/// [`AccessModel::build`]): with the collections each function reads, keyed by its file.
#[derive(Default)]
struct Part {
    model: AccessModel,
    by_function: BTreeMap<(FileId, String), (BTreeSet<String>, Vec<Site>)>,
}

impl Part {
    /// The part of `files`, whose first file is file `first` of the repository.
    fn build(files: &[SourceFile], first: FileId) -> Part {
        let mut part = Part::default();
        let (m, by_function) = (&mut part.model, &mut part.by_function);
        for (file, f) in files.iter().enumerate() {
            let file = first + file;
            // (A file without its text kept has no IR to judge.)
            let text = f.text.as_deref().unwrap_or("");
            let upgrade_steps = is_upgrade_steps(&f.display_path, text);
            let migration =
                upgrade_steps || crate::lang::naming::path_is_migration(&f.display_path);
            if path_is_offline(&f.display_path)
                || upgrade_steps
                || is_standalone_command(&f.display_path, text)
                || (!migration && is_shell_script(&f.ir, text))
            {
                m.offline_files.insert(file);
            }
            if migration {
                m.migration_files.insert(file);
            }
            // Migrations a project has archived (Habitica's `migrations/archive/2013/`, shell
            // scripts run once years ago) are its history: the indexes they made may have been
            // dropped or replaced since, and they are not the collection's inventory.
            let archived = migration && path_is_archived(&f.display_path);
            for r in &f.ir.collections {
                match &r.name {
                    CollectionName::Literal { name } => {
                        let c = m.collection(name);
                        c.references.push(Site { file, span: r.span });
                        c.via.insert(via_str(r.via));
                    }
                    CollectionName::Template { parts } if is_family(parts) => {
                        let fam = m.family(&r.name, parts);
                        fam.references.push(Site { file, span: r.span });
                    }
                    CollectionName::Template { .. } => {}
                    CollectionName::Unknown { .. } => {}
                }
            }
            for (index, op) in f.ir.operations.iter().enumerate() {
                let id = OpId { file, index };
                match op.kind {
                    OpKind::CreateIndex if archived => continue,
                    OpKind::CreateIndex => {
                        let decls = index_decls(id, op);
                        match literal_name(op) {
                            Some(name) => m.collection(&name).indexes.extend(decls),
                            None => {
                                let pattern = template_pattern(op);
                                m.unresolved_index_patterns
                                    .extend(decls.iter().map(|_| pattern.clone()));
                                m.unresolved_indexes.extend(decls);
                            }
                        }
                        continue;
                    }
                    OpKind::DropIndex if archived => continue,
                    OpKind::DropIndex => {
                        if let Some(name) = literal_name(op) {
                            let d = drop_decl(file, op);
                            m.collection(&name).dropped.push(d);
                        }
                        continue;
                    }
                    _ => {}
                }
                let s = summarise(id, op);
                match op.collection.as_ref().map(|c| &c.name) {
                    Some(CollectionName::Literal { name }) => {
                        if s.is_read() {
                            if let Some(func) = &s.function {
                                let e = by_function.entry((file, func.clone())).or_default();
                                e.0.insert(name.clone());
                                // A `$lookup` reads the joined collection in the same breath.
                                e.0.extend(s.joins.iter().filter_map(|j| j.from.clone()));
                                e.1.push(s.site);
                            }
                        }
                        let c = m.collection(name);
                        if let Some(r) = &op.collection {
                            c.via.insert(via_str(r.via));
                        }
                        c.operations.push(s);
                    }
                    Some(n @ CollectionName::Template { parts }) if is_family(parts) => {
                        let n = n.clone();
                        m.family(&n, parts).operations.push(s);
                    }
                    _ => m.unresolved.push(s),
                }
            }
        }
        part
    }

    /// Appends `later`, the part of the files after this part's.
    fn merge(&mut self, later: Part) {
        let m = &mut self.model;
        append_entries(&mut m.collections, later.model.collections, |mine, c| {
            mine.via.extend(c.via);
            mine.references.extend(c.references);
            mine.operations.extend(c.operations);
            mine.indexes.extend(c.indexes);
            mine.dropped.extend(c.dropped);
        });
        append_entries(&mut m.families, later.model.families, |mine, fam| {
            mine.holes.extend(fam.holes);
            mine.references.extend(fam.references);
            mine.operations.extend(fam.operations);
        });
        m.unresolved.extend(later.model.unresolved);
        m.unresolved_indexes.extend(later.model.unresolved_indexes);
        m.unresolved_index_patterns
            .extend(later.model.unresolved_index_patterns);
        m.offline_files.extend(later.model.offline_files);
        m.migration_files.extend(later.model.migration_files);
        // Keyed by file: the parts' keys are disjoint.
        self.by_function.extend(later.by_function);
    }
}

/// Moves `later`'s entries into `map`: a new key as it is, an existing one through `append`.
fn append_entries<V>(
    map: &mut BTreeMap<String, V>,
    later: BTreeMap<String, V>,
    append: impl Fn(&mut V, V),
) {
    for (key, value) in later {
        match map.entry(key) {
            std::collections::btree_map::Entry::Vacant(e) => {
                e.insert(value);
            }
            std::collections::btree_map::Entry::Occupied(mut e) => append(e.get_mut(), value),
        }
    }
}

fn summarise(id: OpId, op: &Operation) -> OpSummary {
    let mut s = OpSummary {
        id,
        kind: op.kind,
        method: op.method.clone(),
        site: Site {
            file: id.file,
            span: op.method_span,
        },
        function: op.context.function.clone(),
        in_loop: op.context.enclosing_loop.is_some(),
        query: Query::default(),
        projection: Vec::new(),
        updates: Vec::new(),
        pushed: Vec::new(),
        joins: Vec::new(),
    };
    let filters = !matches!(
        op.kind,
        OpKind::Insert
            | OpKind::Aggregate
            | OpKind::Other
            | OpKind::CreateIndex
            | OpKind::DropIndex
    );
    if filters {
        s.query.present = true;
        s.query.through_model = op
            .collection
            .as_ref()
            .is_some_and(|c| c.via == CollectionVia::MongooseModel);
        match &op.filter {
            Some(f) => {
                s.query.filter_span = Some(f.span);
                read_filter(f, &mut s.query, 0);
            }
            None if op.kind == OpKind::Count && op.method.contains("estimated") => {
                s.query.present = false;
            }
            None => {}
        }
    }
    if let Some(stages) = &op.pipeline {
        pipeline_query(stages, &mut s.query);
        collect_joins(stages, id.file, &mut s.joins, 0);
    }
    let mut skip_next = false;
    for (i, m) in op.modifiers.iter().enumerate() {
        if std::mem::take(&mut skip_next) {
            continue;
        }
        match m.name.as_str() {
            // Mongoose's query builder adds conditions the filter does not show: read where it
            // spells out a field's (`.where("expires").gt(now)`), else the filter is not read
            // whole (`Page.find(q).and({$or: ..})`).
            name if s.query.present
                && crate::lang::vocabulary::CONDITION_MODIFIERS.contains(&name) =>
            {
                match builder_condition(&op.modifiers[i..]) {
                    Some((condition, pair)) => {
                        read_filter(&condition, &mut s.query, 0);
                        skip_next = pair;
                    }
                    None => {
                        s.query.opaque.get_or_insert_with(|| {
                            format!("conditions added by `.{}(..)`", m.name)
                        });
                    }
                }
            }
            "sort" => read_sort(&m.args, &mut s.query),
            "projection" | "project" | "select" => {
                if let Some(a) = m.args.first() {
                    s.projection.extend(projection_fields(a));
                }
            }
            _ => {}
        }
    }
    if let Some(u) = &op.update {
        read_update(u, op, &mut s);
    }
    s
}

/// The condition a query builder's `.where(..)` at the head of `mods` adds, as a filter, and
/// whether it takes the modifier after it too: `.where("f").gt(v)` is `{f: {$gt: v}}` (and
/// `.equals(v)` is `{f: v}`), `.where("f", v)` is `{f: v}`, `.where({..})` is that filter. Any
/// other condition modifier (`.and(..)`, a comparison with no `where` before it, pymongo's
/// `cursor.where(js)`) is none.
fn builder_condition(mods: &[crate::ir::Modifier]) -> Option<(Value, bool)> {
    let (head, next) = (mods.first()?, mods.get(1));
    if head.name != "where" {
        return None;
    }
    let field = |key: &str, value: Value| Value {
        span: head.span,
        kind: ValueKind::Document(vec![crate::ir::Field {
            key: key.to_string(),
            key_span: head.span,
            value,
        }]),
    };
    match head.args.as_slice() {
        [doc] if matches!(doc.kind, ValueKind::Document(_)) => Some((doc.clone(), false)),
        [key, value] => Some((field(key.as_str()?, value.clone()), false)),
        [key] => {
            let key = key.as_str()?;
            let next = next.filter(|n| {
                crate::lang::vocabulary::BUILDER_COMPARISONS.contains(&n.name.as_str())
            })?;
            let [value] = next.args.as_slice() else {
                return None;
            };
            let value = match next.name.as_str() {
                "equals" => value.clone(),
                op => field(&format!("${op}"), value.clone()),
            };
            Some((field(key, value), true))
        }
        _ => None,
    }
}

fn read_filter(v: &Value, q: &mut Query, depth: usize) {
    if depth > 16 {
        q.opaque
            .get_or_insert_with(|| "deeply nested filter".into());
        return;
    }
    match &v.kind {
        ValueKind::Document(fields) => {
            for f in fields {
                match f.key.as_str() {
                    "..." => {
                        q.opaque.get_or_insert_with(|| {
                            "filter spread from a value built at run time".into()
                        });
                    }
                    "$and" => {
                        for item in f.value.items() {
                            read_filter(item, q, depth + 1);
                        }
                        if f.value.is_unknown() {
                            q.opaque
                                .get_or_insert_with(|| "`$and` built at run time".into());
                        }
                    }
                    "$comment" => {}
                    k if k.starts_with('$') => {
                        q.opaque.get_or_insert_with(|| format!("`{k}`"));
                    }
                    k if !plausible_field(k) => {
                        q.opaque
                            .get_or_insert_with(|| format!("computed key `{k}`"));
                    }
                    k if named_by_constant(k) => {
                        q.opaque
                            .get_or_insert_with(|| format!("field named by a constant `{k}`"));
                        classify_predicate(k, &f.value, q);
                    }
                    k => classify_predicate(k, &f.value, q),
                }
            }
        }
        ValueKind::Unknown(u) => {
            q.opaque
                .get_or_insert_with(|| format!("filter built at run time (`{}`)", u.text));
        }
        _ => {}
    }
}

/// `{deleted: false}`, `{isArchived: false}`, `{deletedAt: null}`: the flag of a soft delete at
/// the value of the documents still live (nodeclub's `Topic.find({deleted: false}, .., {sort:
/// "-create_at"})`), which nearly every document has. It selects almost everything, so no index
/// needs the flag; one that holds it in its equality prefix (Strider's `{project, archived,
/// finished}` for `find({project, archived: null}).sort({finished: -1})`) still serves the query
/// (see `Query::unselective`). (`{deleted: true}`, the few deleted, is an equality.)
fn is_soft_delete_default(field: &str, v: &Value) -> bool {
    let live = match &v.kind {
        ValueKind::Bool(b) => !b,
        ValueKind::Null => true,
        _ => false,
    };
    let last = crate::lang::naming::last_part(field, b'.');
    live && crate::lang::naming::for_each_word(last.trim_start_matches('_'), |w| {
        matches!(w, "deleted" | "removed" | "archived" | "trashed")
    })
}

fn classify_predicate(field: &str, v: &Value, q: &mut Query) {
    let push = |list: &mut Vec<String>| {
        if !list.iter().any(|x| x == field) {
            list.push(field.to_string());
        }
    };
    let ops: Vec<&str> = v
        .fields()
        .iter()
        .map(|f| f.key.as_str())
        .filter(|k| k.starts_with('$'))
        .collect();
    if ops.is_empty() {
        if is_soft_delete_default(field, v) {
            push(&mut q.unselective);
            return;
        }
        // `{name: /abc/i}`: a regular expression, not an equality.
        match regex_literal(v) {
            Some(bounds) if !bounds => {}
            Some(_) => push(&mut q.range),
            None => push(&mut q.equality),
        }
        return;
    }
    if ops.contains(&"$regex") && regex_bounds_nothing(v) {
        return;
    }
    // `{role: {$ne: "admin"}}`, `{$nin: [..]}`, `{$not: ..}`: a negation selects nearly every
    // document (on an array field an index cannot narrow it at all), so no index on the field is
    // worth its bounds: it filters, as an unanchored regular expression does. Not a negation of
    // `null` (`{$ne: null}`, `{$nin: [null, ""]}`): that asks for the field to be set, which an
    // index bounds (a range), selective where most documents lack it.
    let of_null = |o: &str| {
        v.get(o).is_some_and(|f| match &f.value.kind {
            ValueKind::Null => true,
            ValueKind::Array(xs) => xs.iter().any(|x| matches!(x.kind, ValueKind::Null)),
            _ => false,
        })
    };
    // `{activities: {$size: 0}}` is another test no index bounds: an index on the array holds
    // its elements, not its length (crowi's empty notifications).
    if ops
        .iter()
        .all(|o| matches!(*o, "$ne" | "$nin" | "$not" | "$size"))
        && !of_null("$ne")
        && !of_null("$nin")
    {
        return;
    }
    // `{projects: {$elemMatch: {name: n, level: {$gte: l}}}}` selects by `projects.name` (an index
    // on it serves the query) and `projects.level`; `{scores: {$elemMatch: {$gte: 80}}}` is a
    // range on `scores` itself.
    if let (["$elemMatch"], Some(m)) = (&ops[..], v.get("$elemMatch")) {
        // An `$and` of conditions on the element's fields is those conditions (bigchaindb's
        // `{inputs: {$elemMatch: {$and: [{"fulfills.transaction_id": t}, {"fulfills.output_index":
        // o}]}}}`).
        let mut fields: Vec<&crate::ir::Field> = Vec::new();
        for f in m.value.fields() {
            match (f.key.as_str(), &f.value.kind) {
                ("$and", ValueKind::Array(items)) if items.iter().all(|i| i.is_document()) => {
                    fields.extend(items.iter().flat_map(|i| i.fields()));
                }
                _ => fields.push(f),
            }
        }
        if !fields.is_empty()
            && fields
                .iter()
                .all(|f| !f.key.starts_with('$') && plausible_field(&f.key))
        {
            for f in fields {
                classify_predicate(&format!("{field}.{}", f.key), &f.value, q);
            }
        } else if !fields.is_empty()
            && fields
                .iter()
                .all(|f| matches!(f.key.as_str(), "$eq" | "$in"))
        {
            push(&mut q.equality);
        } else {
            push(&mut q.range);
        }
        return;
    }
    if ops.iter().any(|o| {
        matches!(
            *o,
            "$near"
                | "$nearSphere"
                | "$geoWithin"
                | "$geoIntersects"
                | "$within"
                | "$maxDistance"
                | "$minDistance"
        )
    }) {
        q.opaque
            .get_or_insert_with(|| format!("geospatial query on `{field}`"));
        return;
    }
    // `$all` of values is an equality on each: an index on the array takes the first as its bounds.
    if ops.iter().all(|o| matches!(*o, "$eq" | "$in" | "$all")) {
        push(&mut q.equality);
    } else {
        push(&mut q.range);
    }
}

/// A regular expression literal (`/^abc/`, `/abc/i`): whether an index on the field bounds its
/// scan (the pattern is anchored at the start and case-sensitive). `None`: no such literal.
fn regex_literal(v: &Value) -> Option<bool> {
    let ValueKind::Unknown(u) = &v.kind else {
        return None;
    };
    if let Some(r) = regex_constructor(&u.text) {
        return Some(r);
    }
    let body = u.text.strip_prefix('/')?;
    let (pattern, flags) = body.rsplit_once('/')?;
    if pattern.is_empty() || !flags.chars().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    Some(pattern.starts_with('^') && !flags.contains('i'))
}

/// A regular expression built by a call (`new RegExp(q, "i")`, `RegExp("^" + p)`, Python's
/// `re.compile(q, re.IGNORECASE)`): whether an index on the field bounds its scan, as for
/// [`regex_literal`]. Case-insensitive flags bound nothing; so does a pattern written in the code
/// that is not anchored at the start; a pattern the code computes may be anchored (a range).
fn regex_constructor(text: &str) -> Option<bool> {
    let args = ["new RegExp(", "RegExp(", "re.compile("]
        .iter()
        .find_map(|p| text.strip_prefix(p))?
        .strip_suffix(')')?;
    // The arguments, split at the commas outside brackets and quotes.
    let (mut depth, mut quote, mut parts, mut start) = (0i32, None, Vec::new(), 0);
    for (i, c) in args.char_indices() {
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth -= 1,
            (None, ',') if depth == 0 => {
                parts.push(args[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(args[start..].trim());
    let insensitive = parts.get(1).is_some_and(|f| {
        let quoted = f.len() >= 2 && matches!(f.as_bytes()[0], b'"' | b'\'' | b'`');
        (quoted && f.contains('i')) || f.contains("IGNORECASE") || f.contains("re.I")
    });
    if insensitive {
        return Some(false);
    }
    let pattern = parts.first()?;
    let literal = pattern.len() >= 2
        && matches!(pattern.as_bytes()[0], b'"' | b'\'' | b'`')
        && !pattern.contains('+')
        && !pattern.contains("${");
    if literal {
        return Some(pattern[1..].starts_with('^'));
    }
    // Computed: `"^" + escape(q)` is anchored; anything else may be.
    Some(true)
}

/// A `{$regex: ..}` predicate that no index bounds: the pattern is written and not anchored at
/// the start (`{$regex: "abc"}`, `/abc/`), or it is case-insensitive (`$options: "i"`, `/^abc/i`),
/// or the frontend knows it is not anchored (`crate::ir::UNANCHORED`: mongoengine's `contains`).
/// The field is then read from every key of an index, or every document: it filters, and no index
/// serves it. A pattern the code computes may be anchored: a range, as any other operator.
fn regex_bounds_nothing(v: &Value) -> bool {
    if v.get(crate::ir::UNANCHORED).is_some() {
        return true;
    }
    if v.get("$options")
        .is_some_and(|o| matches!(&o.value.kind, ValueKind::String(s) if s.contains('i')))
    {
        return true;
    }
    match v.get("$regex").map(|r| &r.value) {
        Some(Value {
            kind: ValueKind::String(p),
            ..
        }) => !p.starts_with('^'),
        Some(r) => regex_literal(r) == Some(false),
        None => false,
    }
}

/// A leading `$match` (and the `$sort` right after it) is the pipeline's query.
fn pipeline_query(stages: &[Value], q: &mut Query) {
    let Some(first) = stages.first() else { return };
    let Some(m) = first.get("$match") else {
        return;
    };
    q.present = true;
    q.filter_span = Some(m.value.span);
    read_filter(&m.value, q, 0);
    if let Some(sort) = stages.get(1).and_then(|s| s.get("$sort")) {
        read_sort(std::slice::from_ref(&sort.value), q);
    }
}

fn direction(v: &Value) -> Option<i32> {
    match &v.kind {
        ValueKind::Number(n) if *n < 0.0 => Some(-1),
        ValueKind::Number(_) => Some(1),
        ValueKind::String(s) => match s.to_ascii_lowercase().as_str() {
            "asc" | "ascending" | "1" => Some(1),
            "desc" | "descending" | "-1" => Some(-1),
            _ => None,
        },
        // `pymongo.DESCENDING`, `SortOrder.Desc`
        ValueKind::Unknown(u) => {
            let t = u.text.to_ascii_lowercase();
            if t.ends_with("descending") || t.ends_with("desc") {
                Some(-1)
            } else if t.ends_with("ascending") || t.ends_with("asc") {
                Some(1)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// `.sort({a: 1})`, `.sort("-a b")`, `.sort("a", -1)`, `sort=[("a", -1)]`, `.sort([["a", 1]])`,
/// `{sort: ["a", "desc"]}`.
fn read_sort(args: &[Value], q: &mut Query) {
    let add = |f: &str, d: Option<i32>, q: &mut Query| match d {
        // `$natural` is storage order, not a field: no index is asked for (`.sort("$natural",
        // -1)`, `{$natural: -1}`, `[("$natural", -1)]`).
        _ if f == "$natural" => {}
        // The same key twice comes from sorts chosen in different branches: keep the first.
        Some(_) if q.sort.iter().any(|(k, _)| k == f) => {}
        Some(d) if plausible_field(f) => {
            if named_by_constant(f) {
                q.opaque
                    .get_or_insert_with(|| format!("sort by a field named by a constant `{f}`"));
            }
            q.sort.push((f.to_string(), d));
        }
        _ => {
            q.opaque
                .get_or_insert_with(|| "sort built at run time".into());
        }
    };
    let Some(first) = args.first() else { return };
    match &first.kind {
        ValueKind::Document(fields) => {
            for f in fields {
                if f.value.get("$meta").is_some() {
                    q.opaque.get_or_insert_with(|| "sort by text score".into());
                    continue;
                }
                add(&f.key, direction(&f.value), q);
            }
        }
        ValueKind::String(s) if args.len() >= 2 => add(s, direction(&args[1]), q),
        ValueKind::String(s) => {
            for part in s.split_whitespace() {
                match part.strip_prefix('-') {
                    Some(f) => add(f, Some(-1), q),
                    None => add(part.trim_start_matches('+'), Some(1), q),
                }
            }
        }
        // The driver's single pair (`{sort: ['t', 'desc']}`, `['t', -1]`): one key.
        ValueKind::Array(items)
            if items.len() == 2
                && items[0].as_str().is_some()
                && !matches!(items[1].kind, ValueKind::Array(_))
                && direction(&items[1]).is_some() =>
        {
            add(items[0].as_str().unwrap_or(""), direction(&items[1]), q)
        }
        ValueKind::Array(items) => {
            for it in items {
                match it.items() {
                    [k, d] if k.as_str().is_some() => {
                        add(k.as_str().unwrap_or(""), direction(d), q)
                    }
                    _ => match it.as_str() {
                        Some(s) => add(s, Some(1), q),
                        None => add("", None, q),
                    },
                }
            }
        }
        _ => add("", None, q),
    }
}

fn projection_fields(v: &Value) -> Vec<String> {
    match &v.kind {
        ValueKind::Document(fs) => fs
            .iter()
            .filter(|f| plausible_field(&f.key))
            .map(|f| match &f.value.kind {
                ValueKind::Number(n) if *n == 0.0 => format!("-{}", f.key),
                ValueKind::Bool(false) => format!("-{}", f.key),
                _ => f.key.clone(),
            })
            .collect(),
        ValueKind::String(s) => s.split_whitespace().map(str::to_string).collect(),
        ValueKind::Array(items) => items
            .iter()
            .filter_map(|i| i.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}

fn read_update(u: &Value, op: &Operation, s: &mut OpSummary) {
    match &u.kind {
        ValueKind::Document(fields) => {
            let implicit_set = op
                .collection
                .as_ref()
                .is_some_and(|c| c.via == CollectionVia::MongooseModel);
            for f in fields {
                if f.key.starts_with('$') {
                    for inner in f.value.fields() {
                        if !plausible_field(&inner.key) {
                            continue;
                        }
                        s.updates.push((inner.key.clone(), f.key.clone()));
                        if matches!(f.key.as_str(), "$push" | "$pushAll" | "$addToSet")
                            && !s.pushed.contains(&inner.key)
                        {
                            s.pushed.push(inner.key.clone());
                        }
                    }
                } else if plausible_field(&f.key) {
                    let how = if implicit_set || op.kind != OpKind::Replace {
                        "$set"
                    } else {
                        "replace"
                    };
                    s.updates.push((f.key.clone(), how.to_string()));
                }
            }
        }
        ValueKind::Array(stages) => {
            for st in stages {
                for f in st.fields() {
                    for inner in f.value.fields() {
                        s.updates
                            .push((inner.key.clone(), format!("pipeline {}", f.key)));
                    }
                }
            }
        }
        _ => {}
    }
}

fn collect_joins(stages: &[Value], file: FileId, out: &mut Vec<Join>, depth: usize) {
    if depth > 8 {
        return;
    }
    for stage in stages {
        for f in stage.fields() {
            let str_of = |k: &str| {
                f.value
                    .get(k)
                    .and_then(|x| x.value.as_str().map(str::to_string))
            };
            match f.key.as_str() {
                "$lookup" | "$graphLookup" => {
                    let foreign_key = if f.key == "$lookup" {
                        "foreignField"
                    } else {
                        "connectToField"
                    };
                    let local_key = if f.key == "$lookup" {
                        "localField"
                    } else {
                        "connectFromField"
                    };
                    let ff = f.value.get(foreign_key);
                    out.push(Join {
                        stage: if f.key == "$lookup" {
                            "$lookup"
                        } else {
                            "$graphLookup"
                        },
                        from: str_of("from"),
                        local_field: str_of(local_key),
                        foreign_field: ff.and_then(|x| x.value.as_str().map(str::to_string)),
                        foreign_span: ff.map(|x| x.key_span).unwrap_or(f.key_span),
                        stage_span: f.key_span,
                        file,
                    });
                    if let Some(p) = f.value.get("pipeline") {
                        collect_joins(p.value.items(), file, out, depth + 1);
                    }
                }
                "$unionWith" => {
                    let from = match &f.value.kind {
                        ValueKind::String(s) => Some(s.clone()),
                        _ => str_of("coll"),
                    };
                    out.push(Join {
                        stage: "$unionWith",
                        from,
                        local_field: None,
                        foreign_field: None,
                        foreign_span: f.key_span,
                        stage_span: f.key_span,
                        file,
                    });
                    if let Some(p) = f.value.get("pipeline") {
                        collect_joins(p.value.items(), file, out, depth + 1);
                    }
                }
                "$facet" => {
                    for sub in f.value.fields() {
                        collect_joins(sub.value.items(), file, out, depth + 1);
                    }
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_built_in_runs_on_threads_is_the_model_built_in_one() {
        // The corpus: collections used from many files, indexes and drops in other files than
        // the queries, families, functions that read several collections.
        let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
        let a = crate::analysis::run(&crate::analysis::Options {
            paths: vec![corpus],
            threads: 1,
            ..Default::default()
        });
        let m = AccessModel::build_in_runs(&a.files, 1, 0);
        let one = format!("{m:?}");
        assert!(m.collections.values().any(|c| {
            let files: BTreeSet<FileId> = c.operations.iter().map(|o| o.id.file).collect();
            files.len() >= 3 && !c.indexes.is_empty()
        }));
        assert!(!m.families.is_empty() && !m.read_together.is_empty());
        for threads in [2, 3, 7, 500] {
            let many = format!("{:?}", AccessModel::build_in_runs(&a.files, threads, 0));
            assert!(one == many, "{threads} threads");
        }
    }

    fn key(f: &str, kind: KeyKind) -> IndexKey {
        IndexKey {
            field: f.into(),
            kind,
            span: Span::default(),
        }
    }

    fn index(keys: &[(&str, i32)]) -> IndexDecl {
        IndexDecl {
            id: OpId { file: 0, index: 0 },
            method: "createIndex".into(),
            site: Site {
                file: 0,
                span: Span::default(),
            },
            method_site: Site {
                file: 0,
                span: Span::default(),
            },
            keys: keys
                .iter()
                .map(|(f, d)| key(f, if *d < 0 { KeyKind::Desc } else { KeyKind::Asc }))
                .collect(),
            options: IndexOptions::default(),
            dynamic: false,
            dropped: false,
        }
    }

    fn query(eq: &[&str], sort: &[(&str, i32)], range: &[&str]) -> Query {
        Query {
            present: true,
            equality: eq.iter().map(|s| s.to_string()).collect(),
            range: range.iter().map(|s| s.to_string()).collect(),
            sort: sort.iter().map(|(f, d)| (f.to_string(), *d)).collect(),
            opaque: None,
            filter_span: None,
            through_model: false,
            unselective: Vec::new(),
        }
    }

    #[test]
    fn equality_prefix_in_any_order_then_sort_then_range() {
        let ix = index(&[
            ("tenant", 1),
            ("status", 1),
            ("createdAt", -1),
            ("total", 1),
        ]);
        assert_eq!(
            serves(&ix, &query(&["status", "tenant"], &[], &[])),
            Serve::Full
        );
        assert_eq!(
            serves(
                &ix,
                &query(&["status", "tenant"], &[("createdAt", -1)], &["total"])
            ),
            Serve::Full
        );
        // All directions inverted is the same index walked backwards.
        assert_eq!(
            serves(&ix, &query(&["status", "tenant"], &[("createdAt", 1)], &[])),
            Serve::Full
        );
        // The sort does not follow the equality prefix: the index bounds the scan, the sort is in memory.
        assert_eq!(
            serves(&ix, &query(&["tenant"], &[("createdAt", -1)], &[])),
            Serve::BlockingSort
        );
        // The first key is not queried: no bound.
        assert_eq!(serves(&ix, &query(&["status"], &[], &[])), Serve::None);
    }

    /// A name template's literal parts say which collections it can name: `{x}.files` names
    /// `objects.files`, not `events`.
    #[test]
    fn names_a_template_can_spell() {
        let parts = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(name_fits("objects.files", &parts(&["", ".files"])));
        assert!(!name_fits("events", &parts(&["", ".files"])));
        assert!(name_fits("events_2024_05", &parts(&["events_", ""])));
        assert!(!name_fits("audit", &parts(&["events_", ""])));
        assert!(name_fits("t_acme_log", &parts(&["t_", "_log"])));
        assert!(name_fits("a.b.c", &parts(&["a", ".", "c"])));
        assert!(!name_fits("a.b", &parts(&["a", ".", ".c"])));
    }

    /// Regular expressions built by a call: case-insensitive ones and unanchored written
    /// patterns bound nothing (`Some(false)`); anchored or computed patterns are ranges.
    #[test]
    fn regular_expressions_built_by_a_call() {
        for (text, bounds) in [
            ("new RegExp(q, 'i')", Some(false)),
            ("new RegExp(escape(q, 1), \"gi\")", Some(false)),
            ("RegExp('abc')", Some(false)),
            ("new RegExp('^abc')", Some(true)),
            ("new RegExp('^' + escape(q))", Some(true)),
            ("new RegExp(q)", Some(true)),
            ("re.compile(q, re.IGNORECASE)", Some(false)),
            ("re.compile('^a, b')", Some(true)),
            ("makeRegExp(q, 'i')", None),
        ] {
            assert_eq!(regex_constructor(text), bounds, "{text}");
        }
    }

    #[test]
    fn maintenance_files_by_their_paths() {
        for p in [
            "scripts/fix.js",
            "db/seeds.py",
            "src/seed.js",
            "packages/schema/src/util/checkAndSeedDb.js",
            "app/seeders/users.py",
            "bin/reindex.js",
            "sbin/db_ranking.py",
            "crits/core/management/commands/get_duplicate_targets.py",
            // A Rust program named for a one-off run (boom's crossmatch reprocessing).
            "src/bin/reprocess_crossmatch.rs",
            "dev/tool/src/qms.ts",
            // superdesk's seed data command (liveblog's `app:initialize_data`).
            "server/liveblog/prepopulate/app_initialize.py",
            "cli/src/commands/updateStatementCount.js",
            // MPContribs' maintenance functions, run by hand.
            "mpcontribs-api/maintenance.py",
            // Reaction's sample shop, loaded by a plugin.
            "packages/api-plugin-sample-data/src/loaders/loadSequences.js",
            "app/sample_data/products.py",
            "app/demoData/load.ts",
            "sampledata/users.js",
            "scripts/migrate_users.py",
        ] {
            assert!(path_is_offline(p), "{p}");
        }
        for p in [
            "src/routes/users.js",
            "src/seedling.js",
            "src/scripts.js",
            "src/api/feedback.py",
            "app/management/views.py",
            // A Rust crate's programs: komodo's `bin/core/` is its server.
            "bin/core/src/startup.rs",
            "src/bin/server.rs",
            // A bot's commands answer its users.
            "src/commands/ban.js",
            "src/data/samples.js",
            "src/sample/data.js",
            // An application's feature named `scripts` (mist's scripts its users run).
            "src/mist/api/scripts/views.py",
            "src/mist/api/scripts/models.py",
        ] {
            assert!(!path_is_offline(p), "{p}");
        }
    }

    #[test]
    fn sort_only_and_range_only_queries() {
        let ix = index(&[("createdAt", -1)]);
        assert_eq!(
            serves(&ix, &query(&[], &[("createdAt", -1)], &[])),
            Serve::Full
        );
        assert_eq!(serves(&ix, &query(&[], &[], &["createdAt"])), Serve::Full);
        assert_eq!(
            serves(&ix, &query(&[], &[("score", -1)], &["createdAt"])),
            Serve::BlockingSort
        );
        assert_eq!(serves(&ix, &query(&["owner"], &[], &[])), Serve::None);
        // Filtered on other fields and sorted by the index's key: the index only orders the walk
        // (Wekan's `find({boardId, entityType}).sort({createdAt: -1})`).
        assert_eq!(
            serves(&ix, &query(&["owner"], &[("createdAt", -1)], &[])),
            Serve::SortOnly
        );
        // A range on the sort key bounds the walk; a range on another field is left alone.
        assert_eq!(
            serves(&ix, &query(&[], &[("createdAt", -1)], &["createdAt"])),
            Serve::Full
        );
        assert_eq!(
            serves(&ix, &query(&[], &[("createdAt", -1)], &["author"])),
            Serve::Full
        );
        // A range on the key after the sort bounds it.
        let ix = index(&[("score", -1), ("createdAt", 1)]);
        assert_eq!(
            serves(&ix, &query(&[], &[("score", -1)], &["createdAt"])),
            Serve::Full
        );
    }

    #[test]
    fn special_and_hidden_indexes() {
        let mut text = index(&[("title", 1)]);
        text.keys[0].kind = KeyKind::Text;
        assert_eq!(serves(&text, &query(&["title"], &[], &[])), Serve::None);
        let mut hashed = index(&[("user", 1)]);
        hashed.keys[0].kind = KeyKind::Hashed;
        assert_eq!(serves(&hashed, &query(&["user"], &[], &[])), Serve::Full);
        assert_eq!(serves(&hashed, &query(&[], &[], &["user"])), Serve::None);
        let mut hidden = index(&[("user", 1)]);
        hidden.options.hidden = true;
        assert_eq!(serves(&hidden, &query(&["user"], &[], &[])), Serve::None);
        let mut wild = index(&[("attrs.$**", 1)]);
        wild.keys[0].kind = KeyKind::Wildcard;
        assert_eq!(
            serves(&wild, &query(&["attrs.color"], &[], &[])),
            Serve::Full
        );
        assert_eq!(serves(&wild, &query(&["owner"], &[], &[])), Serve::None);
    }

    fn doc(fields: Vec<(&str, Value)>) -> Value {
        Value {
            span: Span::default(),
            kind: ValueKind::Document(
                fields
                    .into_iter()
                    .map(|(k, v)| Field {
                        key: k.into(),
                        key_span: Span::default(),
                        value: v,
                    })
                    .collect(),
            ),
        }
    }
    fn num(n: f64) -> Value {
        Value {
            span: Span::default(),
            kind: ValueKind::Number(n),
        }
    }
    use crate::ir::Field;

    #[test]
    fn filters_split_into_equality_range_and_opaque() {
        let mut q = Query::default();
        let f = doc(vec![
            ("status", Value::unknown(Span::default(), "s", true)),
            ("total", doc(vec![("$gte", num(10.0))])),
            (
                "tags",
                doc(vec![("$in", Value::unknown(Span::default(), "t", true))]),
            ),
            (
                "$and",
                Value {
                    span: Span::default(),
                    kind: ValueKind::Array(vec![doc(vec![("owner", num(1.0))])]),
                },
            ),
        ]);
        read_filter(&f, &mut q, 0);
        assert_eq!(q.equality, vec!["status", "tags", "owner"]);
        assert_eq!(q.range, vec!["total"]);
        assert!(q.opaque.is_none());
        let mut q = Query::default();
        read_filter(
            &doc(vec![("$or", Value::unknown(Span::default(), "x", true))]),
            &mut q,
            0,
        );
        assert!(q.opaque.is_some());
    }

    #[test]
    fn sort_spellings() {
        let s = |v: Vec<Value>| {
            let mut q = Query::default();
            read_sort(&v, &mut q);
            q.sort
        };
        let str_v = |t: &str| Value {
            span: Span::default(),
            kind: ValueKind::String(t.into()),
        };
        assert_eq!(
            s(vec![str_v("-createdAt name")]),
            vec![("createdAt".to_string(), -1), ("name".to_string(), 1)]
        );
        assert_eq!(
            s(vec![str_v("at"), num(-1.0)]),
            vec![("at".to_string(), -1)]
        );
        assert_eq!(
            s(vec![doc(vec![("a", num(1.0)), ("b", num(-1.0))])]),
            vec![("a".to_string(), 1), ("b".to_string(), -1)]
        );
    }
}
