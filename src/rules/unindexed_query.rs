use super::{Rule, RuleContext, RuleMeta};
use crate::diagnostic::{Finding, Related, Severity};
use crate::ir::OpKind;
use crate::model::{on_id, serves, CollectionAccess, IndexDecl, OpSummary, Query, Serve};
use std::fmt::Write;

pub struct UnindexedQuery;

static META: RuleMeta = RuleMeta {
    id: "unindexed-query",
    name: "UnindexedQuery",
    summary: "A query that none of the collection's declared indexes serves (equality-sort-range)",
    default_severity: Severity::Warning,
    precision: "medium",
    tags: &["mongodb", "indexes", "performance", "cross-file"],
    doc: include_str!("../../rules/unindexed-query.md"),
};

/// `status` (equality), `createdAt` (range), sorted by `createdAt: -1`. Written into one string
/// (a finding's message is made for each of thousands of queries on a large repository).
fn shape_text(q: &Query) -> String {
    let mut out = String::new();
    let list = |out: &mut String, v: &[String]| {
        for (i, f) in v.iter().enumerate() {
            out.push_str(if i == 0 { "`" } else { ", `" });
            out.push_str(f);
            out.push('`');
        }
    };
    let by = |out: &mut String| {
        out.push_str(if out.is_empty() {
            "filters by "
        } else {
            ", by "
        });
    };
    if !q.equality.is_empty() {
        by(&mut out);
        list(&mut out, &q.equality);
        out.push_str(" (equality)");
    }
    if !q.range.is_empty() {
        by(&mut out);
        list(&mut out, &q.range);
        out.push_str(" (range)");
    }
    if !q.unselective.is_empty() {
        by(&mut out);
        list(&mut out, &q.unselective);
        out.push_str(" (a value nearly every document has)");
    }
    for (i, (f, d)) in q.sort.iter().enumerate() {
        out.push_str(match (i, out.is_empty()) {
            (0, true) => "sorts by `",
            (0, false) => ", sorts by `",
            _ => ", `",
        });
        let _ = write!(out, "{f}: {d}`");
    }
    out
}

/// The index the equality-sort-range rule asks for: equality fields, then the sort, then range.
fn suggested_index(q: &Query) -> String {
    let mut out = String::from("{ ");
    let mut seen: Vec<&str> = Vec::new();
    // (The equality fields are all written, as they come.)
    let keys = (q.equality.iter().map(|f| (f, 1, true)))
        .chain(q.sort.iter().map(|(f, d)| (f, *d, false)))
        .chain(q.range.iter().map(|f| (f, 1, false)));
    for (f, d, again) in keys {
        if !again && seen.contains(&f.as_str()) {
            continue;
        }
        if !seen.is_empty() {
            out.push_str(", ");
        }
        seen.push(f);
        let _ = write!(out, "{f}: {d}");
    }
    out.push_str(" }");
    out
}

/// The declarations closest to serving the query: most leading keys the query uses; among as
/// close ones, those of the query's own project first.
fn closest<'m>(ctx: &RuleContext, declared: &[&'m IndexDecl], s: &OpSummary) -> Vec<&'m IndexDecl> {
    let q = &s.query;
    let used = |ix: &IndexDecl| {
        ix.keys
            .iter()
            .filter(|k| q.fields().any(|f| *f == k.field) || q.sort.iter().any(|s| s.0 == k.field))
            .count()
    };
    let mut v: Vec<&IndexDecl> = declared.iter().copied().filter(|i| !i.dynamic).collect();
    v.sort_by_key(|i| {
        (
            std::cmp::Reverse(used(i)),
            ctx.in_two_projects(s.site.file, i.site.file),
        )
    });
    v.truncate(3);
    v
}

fn unindexed_query_diagnostic(
    ctx: &RuleContext,
    c: &CollectionAccess,
    s: &OpSummary,
    grade: Serve,
) -> Finding {
    let q = &s.query;
    // An index declared again by a copy of the application (the same file in another project:
    // async-labs/saas' chapters) is one declaration of the index, shown in the query's own
    // project where it has one.
    // (A mongoengine `primary_key=True` field is the `_id` index every collection has.)
    let mut declared: Vec<&IndexDecl> = Vec::new();
    for ix in c.indexes.iter().filter(|i| i.method != "primary_key") {
        let copy = declared.iter().position(|other| {
            other.keys.len() == ix.keys.len()
                && other
                    .keys
                    .iter()
                    .zip(&ix.keys)
                    .all(|(a, b)| a.field == b.field && a.kind == b.kind)
                && ctx.are_copies(other.site.file, ix.site.file)
        });
        match copy {
            Some(k) if !ctx.in_two_projects(s.site.file, ix.site.file) => declared[k] = ix,
            Some(_) => {}
            None => declared.push(ix),
        }
    }
    let (message, severity) = match grade {
        Serve::BlockingSort => (
            format!(
                "`{}` on `{}` {}: the declared indexes bound the scan but none has the sort keys right after the equality fields, so the results are sorted in memory",
                s.method,
                c.name,
                shape_text(q)
            ),
            Severity::Info,
        ),
        Serve::SortOnly => (
            format!(
                "`{}` on `{}` {}: the only declared index that helps gives the sort order alone, so the whole index is walked and every document read to be filtered",
                s.method,
                c.name,
                shape_text(q)
            ),
            Severity::Info,
        ),
        _ => (
            format!(
                "`{}` on `{}` {}: {}, so it scans the collection",
                s.method,
                c.name,
                shape_text(q),
                match declared.len() {
                    1 => format!(
                        "the only index declared for `{}` in this repository does not serve it",
                        c.name
                    ),
                    n => format!(
                        "none of the {n} indexes declared for `{}` in this repository serves it",
                        c.name
                    ),
                },
            ),
            META.default_severity,
        ),
    };
    let related = closest(ctx, &declared, s)
        .into_iter()
        .map(|i| Related {
            file: i.site.file,
            span: i.site.span,
            message: format!("declared index {} on `{}`", i.keys_text(), c.name),
        })
        .collect();
    Finding {
        rule: META.id,
        severity,
        file: s.site.file,
        span: s.site.span,
        message,
        help: format!(
            "declare an index that follows equality-sort-range — equality fields first, then the sort, then range fields: {}",
            suggested_index(q)
        ),
        related,
    }
}

fn is_query(kind: OpKind) -> bool {
    matches!(
        kind,
        OpKind::Find
            | OpKind::FindOne
            | OpKind::Count
            | OpKind::Distinct
            | OpKind::Aggregate
            | OpKind::UpdateOne
            | OpKind::UpdateMany
            | OpKind::FindOneAndUpdate
            | OpKind::Replace
            | OpKind::Delete
    )
}

impl Rule for UnindexedQuery {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &RuleContext, out: &mut Vec<Finding>) {
        for c in ctx.model.collections.values() {
            let Some(possible) = ctx.model.possible_indexes(c) else {
                continue;
            };
            for s in &c.operations {
                let q = &s.query;
                if !is_query(s.kind) || !q.present || q.opaque.is_some() {
                    continue;
                }
                if q.equality.is_empty()
                    && q.range.is_empty()
                    && (q.unselective.is_empty() || q.sort.is_empty())
                {
                    // No filter: a full read is what was asked for. (A soft delete's flag at
                    // the live documents' value filters almost nothing, but sorted, a page of
                    // the live documents asks for an index that gives the order.)
                    continue;
                }
                if on_id(q) {
                    continue;
                }
                // Migrations and batch jobs scan on purpose, once, off the request path.
                let op = &ctx.files[s.id.file].ir.operations[s.id.index];
                if op.context.periodic || ctx.model.offline_files.contains(&s.id.file) {
                    continue;
                }
                // The query of a function of the file that a call runs with its own update: the
                // function's operation, reported there.
                if op.through.is_some_and(|t| !t.filter_given) {
                    continue;
                }
                let mut best = c
                    .indexes
                    .iter()
                    .map(|i| serves(i, q))
                    .max()
                    .unwrap_or(Serve::None);
                // Every collection has its `_id` index: a sort that starts with `_id` walks it in
                // order (`_id` is unique, so later sort keys change nothing).
                if q.sort.first().is_some_and(|(f, _)| f == "_id") {
                    best = best.max(Serve::SortOnly);
                }
                if best == Serve::Full {
                    continue;
                }
                // An index on a collection the code does not name that would serve it better
                // may be this collection's.
                if possible.iter().any(|i| serves(i, q) > best) {
                    continue;
                }
                out.push(unindexed_query_diagnostic(ctx, c, s, best));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::Settings;

    fn findings(path: &str, src: &str) -> Vec<(usize, String)> {
        let (_, f) = crate::analysis::check_source(path, src, &Settings::default()).unwrap();
        f.into_iter()
            .filter(|f| f.rule == "unindexed-query")
            .map(|f| (src[..f.span.start as usize].lines().count(), f.message))
            .collect()
    }

    /// A filter name bound again later in the function (Sefaria's staff stats: `query = {..};
    /// db.sheets.find(query)`, then `query = {..}` for the next read) holds, at each read, the
    /// value of the assignment before it in the same block (a loop's body included). Not one
    /// bound under an `if` the read is not in, nor one that a later assignment in a loop around
    /// the read may have changed.
    #[test]
    fn a_python_filter_name_bound_again_holds_its_latest_value() {
        let src = r#"from pymongo import MongoClient
db = MongoClient().app
db.sheets.create_index("owner")
def stats(start, end, flag, days):
    query = {"dateCreated": {"$gt": start, "$lt": end}}
    owners = db.sheets.find(query).distinct("owner")
    query = {"owner": flag}
    mine = db.sheets.find(query)
    query = {"views": 1}
    if flag:
        query = {"owner": flag}
    maybe = db.sheets.find(query)
    for day in days:
        query = {"day": day}
        db.sheets.find(query)
    query = {"status": "public"}
    for day in days:
        db.sheets.find(query)
        query = {"owner": day}
    return owners, mine, maybe
"#;
        let got: Vec<usize> = findings("stats.py", src).into_iter().map(|f| f.0).collect();
        assert_eq!(got, vec![6, 15], "{got:?}");
    }

    /// A Rust method that hands its caller's index model on (inx-chronicle's `fn create_index(&self,
    /// index: IndexModel, ..) { self.collection().create_index(index, options).await }`), and a
    /// call of the application's own `create_indexes()` without arguments, declare no index on a
    /// collection named at run time: the queries of the repository are still judged. A model
    /// read from nowhere (`fn f(c: Collection<D>, m: Model)`) still holds them back.
    #[test]
    fn a_rust_index_forwarder_declares_nothing() {
        let src = |param: &str| {
            format!(
                r#"use mongodb::{{bson::doc, Collection, IndexModel}};
async fn forward(c: &Collection<Block>, index: {param}) {{
    c.create_index(index, None).await;
}}
async fn setup(db: &mongodb::Database, blocks: &BlockCollection) {{
    let c = db.collection::<Block>("blocks");
    c.create_index(IndexModel::builder().keys(doc! {{ "block_id": 1 }}).build(), None).await;
    blocks.create_indexes().await;
}}
async fn spending(db: &mongodb::Database, id: String) {{
    let c = db.collection::<Block>("blocks");
    c.find_one(doc! {{ "inputs.transaction_id": id }}, None).await;
}}
"#
            )
        };
        let got = findings("db.rs", &src("IndexModel"));
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].0, 12, "{got:?}");
        assert!(findings("db.rs", &src("Model")).is_empty());
    }

    /// A text index over every string field (`[("$**", TEXT)]`, alerta's alerts) serves `$text`
    /// searches only: the other queries on the collection are judged on its other indexes, as
    /// they would not be beside a wildcard index (`{"$**": 1}`), which serves any one field.
    #[test]
    fn a_text_index_on_every_field_is_no_wildcard_index() {
        let src = |key: &str| {
            format!(
                r#"from pymongo import ASCENDING, TEXT, MongoClient
db = MongoClient().monitoring
db.alerts.create_index([("environment", ASCENDING), ("resource", ASCENDING)], unique=True)
db.alerts.create_index([("$**", {key})])
def old(cutoff):
    return list(db.alerts.find({{"status": "closed"}}))
"#
            )
        };
        let got = findings("alerts.py", &src("TEXT"));
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].0, 6, "{got:?}");
        assert!(got[0].1.contains("filters by `status`"), "{got:?}");
        assert!(findings("alerts.py", &src("ASCENDING")).is_empty());
    }

    /// Every collection has its `_id` index, which gives a sort on `_id` (heyform's apps listed
    /// newest first): a filter it cannot bound makes the walk read every document (info), not a
    /// scan with a sort in memory (warning).
    #[test]
    fn the_id_index_gives_a_sort_on_id() {
        let got = findings(
            "apps.js",
            r#"const mongoose = require("mongoose");
const schema = new mongoose.Schema({ clientId: { type: String, index: true }, status: String });
const App = mongoose.model("App", schema);
async function list() {
  await App.find({ status: { $in: ["pending", "active"] } }).sort({ _id: -1 });
  await App.find({ status: "active" }).sort({ name: 1 });
}
"#,
        );
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(got[0].1.contains("gives the sort order alone"), "{got:?}");
        assert!(
            got[1].1.contains(
                "the only index declared for `apps` in this repository does not serve it"
            ),
            "{got:?}"
        );
    }

    /// A function of the file that runs an update its callers write out (`touch(name, update)`)
    /// is judged at its own query: each call is the same query, not reported again. A call that
    /// gives the query too is judged at the call.
    #[test]
    fn the_query_of_a_function_run_by_its_calls_is_judged_once() {
        let got = findings(
            "apps.js",
            r#"const mongoose = require("mongoose");
const schema = new mongoose.Schema({ clientId: { type: String, index: true }, status: String });
const App = mongoose.model("App", schema);
function touch(name, update) {
  return App.updateOne({ name }, update);
}
function change(q, update) {
  return App.updateOne(q, update);
}
async function run(name) {
  await touch(name, { $set: { seen: new Date() } });
  await touch(name, { $inc: { visits: 1 } });
  await change({ status: "active" }, { $set: { seen: new Date() } });
  await change({ clientId: name }, { $set: { seen: new Date() } });
}
"#,
        );
        assert_eq!(
            got.iter().map(|g| g.0).collect::<Vec<_>>(),
            vec![5, 13],
            "{got:?}"
        );
    }

    /// A name set to `null` at the end of a handler (HabitRPG's `user = groupFields = sort =
    /// null;`, an old habit of freeing memory) keeps the value its uses had: the query sorted by
    /// it is judged, as it is without that line. A name given another value is not a constant.
    #[test]
    fn letting_go_of_a_name_does_not_change_its_uses() {
        let src = |end: &str| {
            format!(
                r#"const mongoose = require("mongoose");
const G = mongoose.model("Group", new mongoose.Schema({{ privacy: String }}).index({{ type: 1, privacy: 1 }}));
exports.list = function (req, res) {{
  var sort = "-memberCount";
  G.find({{ privacy: "public" }}).sort(sort).exec(function (e, g) {{ res.json(g); {end} }});
}};
"#
            )
        };
        for end in ["", "sort = null;", "req = sort = undefined;"] {
            let got = findings("groups.js", &src(end));
            assert_eq!(got.len(), 1, "{end}: {got:?}");
            assert!(got[0].1.contains("sorts by `memberCount: -1`"), "{got:?}");
        }
        // Given another value, the sort is not known, and neither is what would serve the query.
        let got = findings("groups.js", &src("sort = req.query.sort;"));
        assert!(got.is_empty(), "{got:?}");
    }

    /// A query that fixes every key of a unique index finds one document at most, so its sort
    /// costs nothing (LibreChat's newest skill by `{name, author, tenantId}`); without `unique`
    /// the sort is done in memory. A range on the key the index walks for the sort bounds the
    /// walk (Sefaria's next Torah portion, `{date: {$gte: d}, diaspora: ..}` sorted by `date`).
    #[test]
    fn a_unique_match_needs_no_sort_and_a_range_on_the_sort_key_bounds_the_walk() {
        let src = |unique: &str| {
            format!(
                r#"const mongoose = require("mongoose");
const schema = new mongoose.Schema({{ name: String, author: String, updatedAt: Date }});
schema.index({{ name: 1, author: 1 }}, {{ unique: {unique} }});
const Skill = mongoose.model("Skill", schema);
async function newest(name, author) {{
  return Skill.findOne({{ name, author }}).sort({{ updatedAt: -1 }});
}}
"#
            )
        };
        assert!(findings("skills.js", &src("true")).is_empty());
        let got = findings("skills.js", &src("false"));
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].1.contains("sorts by `updatedAt: -1`"), "{got:?}");
        let got = findings(
            "calendars.py",
            r#"from pymongo import MongoClient
db = MongoClient().sefaria
db.parshiot.create_index("date")
def next_parasha(d, diaspora):
    return db.parshiot.find({"date": {"$gte": d}, "diaspora": {"$in": [diaspora, None]}}, limit=1).sort([("date", 1)])
def by_name(name):
    return db.parshiot.find({"parasha": name}).sort([("date", 1)])
"#,
        );
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].0, 7, "{got:?}");
        assert!(got[0].1.contains("gives the sort order alone"), "{got:?}");
    }

    /// A database seeder in a model file (meanjs's `ArticleSchema.statics.seed = seed`, run only
    /// when seeding is on) scans on purpose, once, as a migration does; a query handed to a
    /// constructor (growi's `new PageQueryBuilder(Page.find({ isEmpty: true }))`, whose methods
    /// add `this.query.and(..)`) may be given more conditions, and is not judged.
    #[test]
    fn a_seeder_and_a_query_handed_to_a_builder_are_not_judged() {
        let got = findings(
            "article.server.model.js",
            r#"const mongoose = require("mongoose");
const User = mongoose.model("User", new mongoose.Schema({ username: { type: String, unique: true }, roles: [String] }));
function seed(doc) { return User.findOne({ roles: { $in: ["admin"] } }).exec(); }
class QB { constructor(q) { this.query = q; } }
function clean() { return new QB(User.find({ roles: "x" })); }
function admins() { return User.find({ roles: "admin" }); }
module.exports = { seed, clean, admins };
"#,
        );
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].0, 6, "{got:?}");
    }

    /// `$all` of values is an equality on each (an index on the array bounds the scan by the
    /// first): lets-chat's private messages between two users, sorted by date, on a collection
    /// indexed by date only, walk the whole index.
    #[test]
    fn all_of_values_is_an_equality() {
        let got = findings(
            "usermessages.js",
            r#"const mongoose = require("mongoose");
const schema = new mongoose.Schema({ users: [String], posted: { type: Date, index: true } });
const Message = mongoose.model("Message", schema);
async function between(a, b) {
  return Message.find({ users: { $all: [a, b] } }).sort({ posted: -1 });
}
"#,
        );
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(
            got[0]
                .1
                .contains("filters by `users` (equality), sorts by `posted: -1`"),
            "{got:?}"
        );
    }

    /// mongoengine's string operators (`title__icontains=q`) match a regular expression on the
    /// field, a range, not an equality on a field named `title.icontains`; its geo operators are
    /// geospatial queries, which the rule does not judge.
    #[test]
    fn mongoengine_string_and_geo_operators_are_operators_not_paths() {
        let got = findings(
            "reuse.py",
            r#"from mongoengine import Document, StringField, IntField, PointField
class Reuse(Document):
    title = StringField()
    owner = StringField()
    loc = PointField()
    meta = {"indexes": ["-followers"]}

def suggest(q, owner, p):
    a = Reuse.objects(owner=owner, title__icontains=q).order_by("-followers")
    b = Reuse.objects(loc__near=p, loc__max_distance=500, owner=owner)
    c = Reuse.objects(owner=owner, title__startswith=q)
"#,
        );
        // `icontains` is a case-insensitive regular expression, which no index bounds: it
        // filters, and the query is judged on the rest. `startswith` is a prefix: a range.
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[0].0, 9, "{got:?}");
        assert!(
            got[0].1.contains("filters by `owner` (equality), sorts by"),
            "{got:?}"
        );
        assert_eq!(got[1].0, 11, "{got:?}");
        assert!(
            got[1]
                .1
                .contains("filters by `owner` (equality), by `title` (range)"),
            "{got:?}"
        );
        assert!(got.iter().all(|(_, m)| !m.contains("icontains")), "{got:?}");
        assert!(
            got.iter().all(|(_, m)| !m.contains("startswith")),
            "{got:?}"
        );
    }

    /// mongoengine filters given as a dictionary splat: a literal (`objects(**{"harvest__domain":
    /// d})`) or a name bound once to one, or to `dict(harvest__domain=d)`, is read as the
    /// keywords it holds; a parameter, or a
    /// dictionary filled elsewhere, may hold anything and is not judged.
    /// A filter a dict's `update(..)` fills in after it is written is not judged, as one filled
    /// in by assignment is not (picoCTF's cache invalidation, `search.update({"$or": keys})`, and
    /// its problem lists, `if not show_disabled: match.update({"disabled": False})`); the dict
    /// alone is.
    #[test]
    fn a_filter_filled_in_by_update_is_read_with_what_it_adds() {
        let src = r#"from pymongo import MongoClient
db = MongoClient()["app"]
db.cache.create_index("args")
def inval(fname, *keys):
    search = {"function": fname}
    search.update({"$or": list(keys)})
    db.cache.delete_many(search)
def inval2(fname, extra):
    search = {"function": fname}
    search.update(extra)
    db.cache.delete_many(search)
def inval3(fname):
    search = {"function": fname}
    db.cache.delete_many(search)
def listed(show_disabled):
    match = {}
    if not show_disabled:
        match.update({"disabled": False})
    return list(db.cache.find(match))
"#;
        let got = findings("api/cache.py", src);
        let lines: Vec<usize> = got.iter().map(|g| g.0).collect();
        assert_eq!(lines, vec![14], "{got:?}");
    }

    #[test]
    fn a_literal_dictionary_splat_is_read_as_keywords() {
        let got = findings(
            "harvest.py",
            r#"from mongoengine import Document, StringField, DictField
class Dataset(Document):
    title = StringField()
    harvest = DictField()
    meta = {"indexes": ["title"]}

def attach(domain, remote, filters):
    Dataset.objects(**{"harvest__domain": domain, "harvest__remote_id": remote}).first()
    q = {"harvest__source_id": domain, "harvest__last_update__lt": remote}
    Dataset.objects.filter(**q).delete()
    Dataset.objects(**filters).first()
    Dataset.objects(**{"title": domain}).first()
    Dataset.objects(*extra, **{"harvest__domain": domain}).first()
    query = dict(harvest__domain=domain, harvest__kind__ne=remote)
    Dataset.objects(**query).first()
    Dataset.objects(**dict(domain, title=remote)).first()
"#,
        );
        let lines: Vec<usize> = got.iter().map(|f| f.0).collect();
        assert_eq!(lines, vec![8, 10, 15], "{got:?}");
        assert!(
            got[2].1.contains("by `harvest.domain` (equality)"),
            "{got:?}"
        );
        assert!(
            got[0]
                .1
                .contains("filters by `harvest.domain`, `harvest.remote_id` (equality)"),
            "{got:?}"
        );
        assert!(
            got[1]
                .1
                .contains("by `harvest.source_id` (equality), by `harvest.last_update` (range)"),
            "{got:?}"
        );
    }

    /// A regular expression bounds an index scan only when it is anchored at the start and
    /// case-sensitive (`/^abc/`, `{$regex: "^abc"}`): a range. Any other (`/abc/i`, `{$regex:
    /// q, $options: "i"}`, `{$regex: "abc"}`) is read from every key: the field is no equality
    /// and no range, and the query is judged on the rest. A pattern the code computes may be
    /// anchored: a range.
    #[test]
    fn only_an_anchored_case_sensitive_regex_bounds_a_scan() {
        let got = findings(
            "users.js",
            r#"const { MongoClient } = require("mongodb");
const users = new MongoClient().db("x").collection("users");
await users.createIndex({ createdAt: -1 });
await users.createIndex({ name: 1 });
await users.find({ team: t, name: /abc/i }).sort({ createdAt: -1 }).toArray();
await users.find({ team: t, name: { $regex: q, $options: "i" } }).sort({ createdAt: -1 }).toArray();
await users.find({ team: t, name: { $regex: "abc" } }).sort({ createdAt: -1 }).toArray();
await users.find({ team: t, name: /^abc/ }).sort({ createdAt: -1 }).toArray();
await users.find({ team: t, name: { $regex: q } }).sort({ createdAt: -1 }).toArray();
"#,
        );
        let lines: Vec<usize> = got.iter().map(|f| f.0).collect();
        assert_eq!(lines, vec![5, 6, 7, 8, 9], "{got:?}");
        for (line, message) in &got {
            let named = message.contains("by `name` (range)");
            assert_eq!(named, *line >= 8, "{line}: {message}");
            assert!(!message.contains("`name` (equality)"), "{message}");
        }
    }

    /// A negation (`$ne`, `$nin`, `$not`) selects nearly every document and an index cannot
    /// narrow it on an array: a query by negations alone is not reported, and a negation beside
    /// an equality does not make that field a range the help asks an index for. A negation of
    /// `null` asks for the field to be set: a range. An array's length (`$size`, crowi's empty
    /// notifications) is no index's key either.
    #[test]
    fn a_negation_bounds_no_scan() {
        let got = findings(
            "users.js",
            r#"const { MongoClient } = require("mongodb");
const users = new MongoClient().db("x").collection("users");
await users.createIndex({ email: 1 });
await users.deleteMany({ role: { $ne: "superadmin" } });
await users.find({ role: { $nin: ["a", "b"] }, state: { $not: { $eq: 1 } } }).toArray();
await users.find({ teamId: t, role: { $ne: "superadmin" } }).toArray();
await users.find({ role: { $ne: "superadmin", $gte: "a" } }).toArray();
await users.find({ email: e, role: { $ne: "superadmin" } }).toArray();
await users.find({ customerId: { $nin: [null, ""] } }).toArray();
await users.find({ customerId: { $ne: null } }).toArray();
await users.deleteMany({ activities: { $size: 0 } });
await users.find({ teamId: t, activities: { $size: 0 } }).toArray();
"#,
        );
        let lines: Vec<usize> = got.iter().map(|f| f.0).collect();
        assert_eq!(lines, vec![6, 7, 9, 10, 12], "{got:?}");
        assert!(got[4].1.contains("`teamId` (equality)"), "{got:?}");
        assert!(!got[4].1.contains("`activities`"), "{got:?}");
        assert!(got[2].1.contains("`customerId` (range)"), "{got:?}");
        assert!(got[0].1.contains("`teamId` (equality)"), "{got:?}");
        assert!(!got[0].1.contains("`role`"), "{got:?}");
        assert!(got[1].1.contains("`role` (range)"), "{got:?}");
    }

    /// A soft delete's flag at the live documents' value (`{deleted: false}`, `{deletedAt:
    /// null}`) matches nearly every document, as a negation does: it bounds no scan, so the
    /// index of the sort serves nodeclub's `Topic.find({deleted: false}, .., {sort:
    /// "-create_at"})`, and an index holding the flag in its equality prefix still serves the
    /// query (Strider's `{project, archived, finished}`); sorted without an index that gives
    /// the order, a page of the live documents is still reported. The few deleted (`{deleted:
    /// true}`) are an equality.
    #[test]
    fn a_soft_delete_flag_of_the_live_documents_bounds_no_scan() {
        let got = findings(
            "topics.js",
            r#"const mongoose = require("mongoose");
const TopicSchema = new mongoose.Schema({ deleted: { type: Boolean, default: false }, create_at: Date, author_id: String });
TopicSchema.index({ create_at: -1 });
const Topic = mongoose.model("Topic", TopicSchema);
Topic.find({ deleted: false }, "_id", { limit: 50000, sort: "-create_at" });
Topic.find({ deletedAt: null }).sort({ create_at: -1 });
Topic.find({ deleted: true }).sort({ create_at: -1 });
Topic.find({ author_id: a, isDeleted: false });
const JobSchema = new mongoose.Schema({ project: String, archived: Date, finished: Date });
JobSchema.index({ project: 1, archived: 1, finished: -1 });
const Job = mongoose.model("Job", JobSchema);
Job.find({ project: p, archived: null }).sort({ finished: -1 });
Job.find({ project: p }).sort({ finished: -1 });
Job.find({ archived: null }).sort({ started: -1 }).limit(20);
Job.find({ archived: null, finished: { $gte: d } });
"#,
        );
        let lines: Vec<usize> = got.iter().map(|f| f.0).collect();
        assert_eq!(lines, vec![7, 8, 13, 14, 15], "{got:?}");
        assert!(
            got[3].1.contains(
                "filters by `archived` (a value nearly every document has), sorts by `started: -1`"
            ),
            "{got:?}"
        );
        assert!(got[0].1.contains("`deleted` (equality)"), "{got:?}");
        assert!(got[1].1.contains("`author_id` (equality)"), "{got:?}");
        assert!(
            got[1]
                .1
                .contains("by `isDeleted` (a value nearly every document has)"),
            "{got:?}"
        );
    }

    /// An attribute named as a database whose members take driver-only calls (loqusdb's
    /// mixins: `self.db.case.find_one(..)`, `self.db` set by a base class of another package)
    /// is one, and its members are the collections of those names: their queries are judged
    /// against their indexes. An attribute of another name (`self.store`) is not read so.
    #[test]
    fn a_database_named_attribute_names_its_collections() {
        let got = findings(
            "case.py",
            r#"from pymongo import ASCENDING
class CaseMixin:
    def case(self, case_id):
        return self.db.case.find_one({"case_id": case_id})
    def owned(self, owner):
        return self.db.case.count_documents({"owner": owner})
    def add(self, case):
        self.db.case.insert_one(case)
    def other(self, owner):
        return self.store.case.count_documents({"owner": owner})
    def ensure(self):
        self.db.case.create_index([("case_id", ASCENDING)])
"#,
        );
        let lines: Vec<usize> = got.iter().map(|f| f.0).collect();
        assert_eq!(lines, vec![6], "{got:?}");
        assert!(got[0].1.contains("on `case` filters by `owner`"), "{got:?}");
    }

    /// Python: a key set by name on every path to the read (`q["kind"] = kind`, or in both
    /// branches of an `if` with an `else`) is a key of the filter; one set under an `if` with no
    /// `else` is left out, so the query is judged as the path that skips it sends it; one set by
    /// a computed key, or in one branch only, leaves the filter unread.
    #[test]
    fn python_filter_keys_set_by_name() {
        let src = r#"from pymongo import MongoClient
db = MongoClient().shop
db.items.create_index([("owner", 1), ("kind", 1), ("created", -1)])
def always(owner, kind):
    q = {"owner": owner}
    q["kind"] = kind
    return db.items.find(q).sort("created", -1)
def sometimes(owner, kind):
    q = {"owner": owner}
    if kind:
        q["kind"] = kind
    return db.items.find(q).sort("created", -1)
def both(owner, kind, pool):
    q = {"owner": owner}
    if pool:
        q["kind"] = {"$in": ["a", "b"]}
    else:
        q["kind"] = kind
    return db.items.find(q).sort("created", -1)
def one_branch(owner, kind, pool):
    q = {"owner": owner}
    if pool:
        q["kind"] = kind
    else:
        q["other"] = kind
    return db.items.find(q).sort("created", -1)
def computed(owner, field, value):
    q = {"owner": owner}
    q[field] = value
    return db.items.find(q).sort("created", -1)
"#;
        let got = findings("items.py", src);
        let lines: Vec<usize> = got.iter().map(|f| f.0).collect();
        assert_eq!(lines, vec![12], "{got:?}");
        assert!(got[0].1.contains("filters by `owner`"), "{got:?}");
        assert!(!got[0].1.contains("`kind`"), "{got:?}");
    }

    /// `$natural` is storage order: a sort by it asks no index for its key, however it is spelt.
    #[test]
    fn a_natural_order_sort_asks_for_no_index() {
        let src = r#"from pymongo import MongoClient, DESCENDING
db = MongoClient().app
db.messages.create_index("channel")
def latest(channel):
    return db.messages.find({"channel": channel}).sort("$natural", DESCENDING)
def latest_pairs(channel):
    return db.messages.find({"channel": channel}).sort([("$natural", -1)])
def by_time(channel):
    return db.messages.find({"channel": channel}).sort("time", DESCENDING)
"#;
        let got = findings("messages.py", src);
        let lines: Vec<usize> = got.iter().map(|f| f.0).collect();
        assert_eq!(lines, vec![9], "{got:?}");
    }

    #[test]
    fn esr_decides_which_queries_are_served() {
        let got = findings(
            "orders.js",
            r#"const { MongoClient } = require("mongodb");
const orders = client.db("shop").collection("orders");
await orders.createIndex({ customerId: 1, status: 1, createdAt: -1 });
await orders.find({ status: "open", customerId: id }).sort({ createdAt: -1 }).toArray();
await orders.find({ customerId: id }).toArray();
await orders.find({ customerId: id, createdAt: { $gte: since } }).toArray();
await orders.findOne({ _id: id });
await orders.find({ status: "open" }).toArray();
await orders.find({ customerId: id }).sort({ total: -1 }).toArray();
await orders.find(filter).toArray();
await orders.find({ $or: [{ a: 1 }, { b: 2 }] }).toArray();
"#,
        );
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[0].0, 8);
        assert!(got[0].1.contains("scans the collection"), "{}", got[0].1);
        assert_eq!(got[1].0, 9);
        assert!(got[1].1.contains("sorted in memory"), "{}", got[1].1);
    }

    /// `$elemMatch` selects by the array's subfields: an index on `projects.name` serves
    /// `{projects: {$elemMatch: {name: n, level: {$gte: l}}}}` (Strider's collaborators), and
    /// the same conditions under an `$and` (bigchaindb's spent outputs); a scalar array's
    /// `$elemMatch` is a range on the array itself.
    #[test]
    fn elem_match_selects_by_the_subfields() {
        let got = findings(
            "users.js",
            r#"const { MongoClient } = require("mongodb");
const users = client.db("ci").collection("users");
await users.createIndex({ "projects.name": 1 });
await users.createIndex({ scores: 1 });
await users.find({ projects: { $elemMatch: { name: n, level: { $gte: l } } } }).toArray();
await users.find({ scores: { $elemMatch: { $gte: 80, $lt: 90 } } }).toArray();
await users.find({ projects: { $elemMatch: { level: { $gte: l } } } }).toArray();
await users.find({ projects: { $elemMatch: { $and: [{ name: n }, { level: 2 }] } } }).toArray();
"#,
        );
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].0, 7);
        assert!(got[0].1.contains("projects.level"), "{}", got[0].1);
    }

    /// Mongoose's query builder spelling out a field's condition (TypeScript-Node-Starter's
    /// `User.findOne({passwordResetToken}).where("passwordResetExpires").gt(Date.now())`, uptime's
    /// `Ping.findOne().where("check", self).sort(..)`) is read as part of the filter; a builder
    /// condition it cannot spell out (`.and([..])`, a comparison with no field) leaves the query
    /// unjudged.
    #[test]
    fn conditions_spelled_out_by_the_query_builder_are_read() {
        let src = r#"const mongoose = require("mongoose");
const userSchema = new mongoose.Schema({ email: { type: String, unique: true }, resetToken: String, resetExpires: Date, team: String });
const User = mongoose.model("User", userSchema);
async function reset(token) {
  return User.findOne({ resetToken: token }).where("resetExpires").gt(Date.now()).exec();
}
async function byTeam(team) {
  return User.find().where("team", team).sort({ email: 1 }).exec();
}
async function byObject(team) {
  return User.find().where({ team }).exec();
}
async function byEmail(email) {
  return User.findOne().where("email").equals(email).exec();
}
async function anded(token, team) {
  return User.findOne({ resetToken: token }).and([{ team }]).exec();
}
"#;
        let got = findings("users.js", src);
        let lines: Vec<usize> = got.iter().map(|f| f.0).collect();
        assert_eq!(lines, vec![5, 8, 11], "{got:?}");
        assert!(
            got[0]
                .1
                .contains("`resetToken` (equality), by `resetExpires` (range)"),
            "{}",
            got[0].1
        );
        assert!(got[1].1.contains("`team` (equality)"), "{}", got[1].1);
    }

    /// A mongoengine queryset refined with `.all()` keeps its filter: `all` is no condition
    /// modifier (those are Mongoose's `.where`, `.and`, `.or`, `.nor`, `.equals`).
    #[test]
    fn a_queryset_refined_with_all_is_still_judged() {
        let src = "import mongoengine as me
class Post(me.Document):
    title = me.StringField()
    author = me.StringField()
    meta = {\"indexes\": [\"author\"]}
def f(t):
    return list(Post.objects(title=t).all())
";
        let got = findings("posts.py", src);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].1.contains("`title`"), "{}", got[0].1);
    }

    /// Wekan's position history: an index on the sort key alone orders the walk but bounds
    /// nothing the query filters on.
    #[test]
    fn an_index_that_only_gives_the_sort_order_is_reported() {
        let src = r#"const { MongoClient } = require("mongodb");
const ph = client.db("app").collection("ph");
await ph.createIndex({ boardId: 1, entityType: 1, entityId: 1 });
await ph.createIndex({ createdAt: -1 });
await ph.find({ boardId, entityType }).sort({ createdAt: -1 }).toArray();
await ph.find({}).sort({ createdAt: -1 }).limit(20).toArray();
"#;
        let got = findings("ph.js", src);
        // The other index bounds the scan by the equality fields: the better of the two.
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].0, 5);
        assert!(got[0].1.contains("sorted in memory"), "{}", got[0].1);
        // With the sort key's index alone.
        let src = src.replace(
            "await ph.createIndex({ boardId: 1, entityType: 1, entityId: 1 });\n",
            "",
        );
        let got = findings("ph.js", &src);
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].0, 4);
        assert!(got[0].1.contains("sort order alone"), "{}", got[0].1);
    }

    #[test]
    fn collections_without_declared_indexes_are_not_judged() {
        let got = findings(
            "users.py",
            r#"from pymongo import MongoClient
db = MongoClient().app
db.users.find_one({"email": email})
db.sessions.create_index("token")
db.sessions.find_one({"token": t})
"#,
        );
        assert!(got.is_empty(), "{got:?}");
    }

    /// A mongoengine primary key is the `_id` index every collection has: declared alone, it says
    /// nothing of the collection's other indexes.
    #[test]
    fn a_primary_key_alone_is_not_a_declaration_of_indexes() {
        let only_key = r#"import mongoengine as me
class Notification(me.Document):
    id = me.UUIDField(primary_key=True)
    user = me.StringField()
def of(u):
    return Notification.objects(user=u)
"#;
        let got = findings("models.py", only_key);
        assert!(got.is_empty(), "{got:?}");
        let with_index = only_key.replace(
            "    user = me.StringField()\n",
            "    user = me.StringField()\n    meta = {\"indexes\": [\"-created\"]}\n",
        );
        let got = findings("models.py", &with_index);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].1.contains("filters by `user`"), "{got:?}");
    }

    /// A key spelt with a Rust constant (`Station::KEY_ACCOUNT_ID`; openstream's are generated by a
    /// derive macro) is a field the code does not show: `Self::KEY_ACCOUNT_ID` or `"account_id"`
    /// may be the same one, `User::KEY_ID` may be `_id`. Neither a query by such a key nor a
    /// collection with an index on one is judged; the literal keys of the others still are.
    #[test]
    fn keys_named_by_rust_constants_are_not_compared() {
        let got = findings(
            "src/db.rs",
            r#"use mongodb::{bson::doc, Database, IndexModel};
async fn f(db: &Database, id: &str) {
    let c = db.collection::<Station>("stations");
    c.create_index(IndexModel::builder().keys(doc! { Station::KEY_ACCOUNT_ID: 1 }).build(), None).await;
    c.find(doc! { Self::KEY_ACCOUNT_ID: id }, None).await;
    c.find(doc! { "account_id": id }, None).await;
    let u = db.collection::<User>("users");
    u.create_index(IndexModel::builder().keys(doc! { "email": 1 }).build(), None).await;
    u.find_one(doc! { User::KEY_ID: id }, None).await;
    u.find(doc! { "email": id }, None).sort(doc! { User::KEY_CREATED_AT: -1 }).await;
    u.find(doc! { "name": id }, None).await;
}
"#,
        );
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].0, 11);
        assert!(got[0].1.contains("filters by `name`"), "{got:?}");
    }

    /// A table of indexes created in a loop (`getattr(db, col).create_index(..)`) may hold the index
    /// any query needs: with such a declaration in the repository, no collection is judged.
    #[test]
    fn an_index_declared_on_a_collection_named_at_run_time_may_serve_any_query() {
        let statics = r#"from pymongo import MongoClient
db = MongoClient().app
db.sheets.create_index("dateModified")
def get_sheet(i):
    return db.sheets.find_one({"id": i})
"#;
        let got = findings("database.py", statics);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].1.contains("filters by `id`"), "{got:?}");
        let with_table = format!(
            r#"{statics}
INDICES = [("sheets", ["id"], {{}}), ("profiles", ["slug"], {{}})]
def ensure_indices():
    for col, args, kwargs in INDICES:
        getattr(db, col).create_index(*args, **kwargs)
"#
        );
        let got = findings("database.py", &with_table);
        assert!(got.is_empty(), "{got:?}");
    }

    /// A query through a mongoengine document that allows inheritance filters on `_cls`, the
    /// first key of the indexes its `meta` lists: the keys after it decide, and `_cls` alone
    /// bounds nothing. A raw driver query on the collection has no `_cls`.
    #[test]
    fn mongoengine_cls_first_serves_the_class_queries_by_the_next_keys() {
        let got = findings(
            "views.py",
            r#"import mongoengine as me
from pymongo import MongoClient
class Job(me.Document):
    queue = me.StringField()
    state = me.StringField()
    meta = {"collection": "jobs", "allow_inheritance": True, "indexes": ["queue"]}
class MailJob(Job):
    pass
def show(q):
    Job.objects(queue=q).first()
    MailJob.objects(queue=q).count()
    Job.objects(state="failed").count()
    MongoClient().app.jobs.find_one({"queue": q})
"#,
        );
        let lines: Vec<usize> = got.iter().map(|g| g.0).collect();
        assert_eq!(lines, [12, 13], "{got:?}");
    }
}
