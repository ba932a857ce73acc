use std::collections::HashMap;

use super::{collection_label, operations, value_text, Rule, RuleContext, RuleMeta};
use crate::diagnostic::{Finding, Related, Severity};
use crate::ir::{OpKind, Operation, Span, Value, ValueKind};

pub struct SkipPaging;

static META: RuleMeta = RuleMeta {
    id: "skip-paging",
    name: "SkipPaging",
    summary: "Offset paging with a computed skip: page N costs O(N)",
    default_severity: Severity::Warning,
    precision: "high",
    tags: &["mongodb", "performance", "pagination"],
    doc: include_str!("../../rules/skip-paging.md"),
};

/// A skip, or a page number a paginating library turns into one (the `page` modifier:
/// mongoose-paginate's `{ page }`, flask-mongoengine's `qs.paginate(page, per_page)` and
/// `Pagination(qs, page, per_page)`).
fn skip_paging_diagnostic(
    file: usize,
    op: &Operation,
    span: Span,
    amount: &Value,
    by_page: bool,
) -> Finding {
    let collection = collection_label(op);
    let (severity, message, help) = if op.context.forwards_query && !by_page {
        // A wrapper of the driver: the skip is its callers', who page through it.
        (
            Severity::Info,
            format!(
                "offset paging on {collection} passes through this function: it runs the query and the skip (`{}`) its callers give it, so each caller that pages through it reads and discards every skipped document",
                value_text(amount),
            ),
            "give the wrapper a range condition instead of a skip (keyset paging: `{_id: {$gt: lastId}}` with the same `sort` and a `limit`), or check that its callers pass only small skips",
        )
    } else {
        let amount = if by_page {
            format!(
                "page `{}`, turned into a skip of (page - 1) × the page size",
                value_text(amount)
            )
        } else {
            format!("`{}`", value_text(amount))
        };
        (
            META.default_severity,
            format!(
                "offset paging on {collection}: skips a variable number of documents ({amount}), and the server still reads and discards every skipped one, so deep pages cost O(offset)",
            ),
            "page by range instead (keyset paging): remember the last sort key and query `{_id: {$gt: lastId}}` with the same `sort` and a `limit`, on an indexed sort key",
        )
    };
    Finding {
        rule: META.id,
        severity,
        file,
        span,
        message,
        help: help.to_string(),
        related: Vec::new(),
    }
}

/// A literal number, a name spelled like a constant (`PAGE_OFFSET`), or a configuration value
/// (`settings.vpn.log_lines`, `config.SKIP`) is not computed paging.
fn is_constant(v: &Value) -> bool {
    match &v.kind {
        ValueKind::Number(_) | ValueKind::Null | ValueKind::String(_) | ValueKind::Bool(_) => true,
        ValueKind::Unknown(u)
            if u.is_name
                && u.text.contains('.')
                && u.text.split('.').any(|s| {
                    matches!(
                        s,
                        "settings" | "config" | "conf" | "cfg" | "CONFIG" | "SETTINGS"
                    )
                }) =>
        {
            true
        }
        // A number of documents kept (`reporter.options.profiler.maxProfilesHistory`,
        // `keepLast`): the skip passes over the newest to reach what a retention job removes.
        ValueKind::Unknown(u) if u.is_name && is_kept_count(&u.text) => true,
        ValueKind::Unknown(u) => {
            u.is_name
                && !u.text.contains('.')
                && u.text
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
                && u.text.chars().any(|c| c.is_ascii_uppercase())
        }
        _ => false,
    }
}

/// A name for how many documents are kept: its last segment starts with `max`, `keep` or
/// `retain` (`maxProfilesHistory`, `MAX_HISTORY`, `keep_last`, `retainCount`).
fn is_kept_count(text: &str) -> bool {
    let last = crate::lang::naming::last_part(text, b'.');
    let mut kept = false;
    crate::lang::naming::for_each_word(last, |w| {
        kept = matches!(w, "max" | "keep" | "retain");
        true
    });
    kept
}

/// Whether a skip of `amount` in `op` pages: not a constant, a random pick or a count kept by a
/// trimming function.
fn pages(op: &Operation, amount: &Value) -> bool {
    !is_constant(amount) && !is_random_pick(amount) && !kept_by_trimming(op, amount)
}

/// The skip of a function that trims a collection to its newest documents (NewsBlur's
/// `trim(cls, user_id, limit=100)`: `cls.objects.filter(user_id=user_id).skip(limit)`, then each
/// document it reaches deleted): a count kept, given by name, in a function named for trimming
/// (`trim`, `prune`, `purge`, `truncate`, `cull` among the words of its name).
fn kept_by_trimming(op: &Operation, amount: &Value) -> bool {
    let ValueKind::Unknown(u) = &amount.kind else {
        return false;
    };
    let plain = u.is_name && !u.text.contains(['.', '[', '(']);
    plain
        && op.context.function.as_deref().is_some_and(|f| {
            let mut trims = false;
            crate::lang::naming::for_each_word(crate::lang::naming::last_part(f, b'.'), |w| {
                trims = matches!(w, "trim" | "prune" | "purge" | "truncate" | "cull");
                !trims
            });
            trims
        })
}

/// A filter that names its documents by `_id`: one (`{_id: id}`, `{"_id": {"$eq": id}}`), where a
/// skip drops that document or nothing (maggma's GridFS read passes its caller's `skip` on to
/// `find_one(filter={"_id": ..}, skip=skip)`), or those of a list the code holds (`{_id: {$in:
/// ids}}`, crowi's search results by page id), where a skip reads no more than the list: neither
/// pages through the collection.
fn names_known_documents(op: &Operation) -> bool {
    op.filter
        .as_ref()
        .and_then(|f| f.get("_id"))
        .is_some_and(|f| {
            !f.value
                .fields()
                .iter()
                .any(|x| x.key.starts_with('$') && x.key != "$eq" && x.key != "$in")
        })
}

/// A skip drawn at random (`skip(randint(0, count - 1))`, `Math.floor(Math.random() * n)`,
/// `rng.gen_range(0..n)`): a random document picked, not a page (ChatterBot's random statement).
/// Its cost is a scan as deep as the draw, but the remedy is `$sample`, not keyset paging.
fn is_random_pick(v: &Value) -> bool {
    let ValueKind::Unknown(u) = &v.kind else {
        return false;
    };
    let t = u.text.to_ascii_lowercase();
    [
        "random",
        "randint",
        "randrange",
        "gen_range",
        "rand::",
        "randomint",
    ]
    .iter()
    .any(|w| t.contains(w))
}

/// Whether the code caps the skip `amount` before the call (`if (skip >= MAX_PM_COUNT) return
/// [];`, Habitica's inbox, at most 400 messages deep): the skip is a name that a guard bounds from
/// above (`OpContext::size_guards`). Paging that deep reads little; the cap is what the help
/// text suggests when pages must be numbered.
fn capped(op: &Operation, amount: &Value) -> bool {
    matches!(&amount.kind, ValueKind::Unknown(u)
        if op.context.size_guards.contains(&u.text))
}

/// Whether the `$limit` `limit` grows with the `$skip` `skip`: a name the skip is made of is in
/// the limit (`limit + offset` for `offset`).
fn grows_with(limit: &Value, skip: &Value) -> bool {
    let (ValueKind::Unknown(l), ValueKind::Unknown(s)) = (&limit.kind, &skip.kind) else {
        return false;
    };
    s.text
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '$'))
        .filter(|w| w.starts_with(|c: char| c.is_alphabetic() || c == '_'))
        .any(|w| crate::lang::has_identifier(&l.text, w))
}

fn skip_stages<'a>(
    stages: &'a [Value],
    out: &mut Vec<(Span, &'a Value)>,
    grouped: bool,
    depth: usize,
) {
    if depth > 8 {
        return;
    }
    // A `$skip` after a `$limit` skips among the documents the limit kept: it reads no more
    // than the limit, whatever it skips (Reaction's look-behind page, `$limit: n + 1` then
    // `$skip: skip - 1`); unless the limit grows with the skip (girder's `{$limit: limit +
    // offset}, {$skip: offset}`), which reads every document before the page.
    let mut limit: Option<&Value> = None;
    // A `$skip` after a `$group` (or `$bucket`, `$bucketAuto`, `$sortByCount`) skips among the
    // groups: the stage has read every document it is given before the first group comes out,
    // whatever the page, so the skip is no scan of its own (GROWI's tag counts, `$group`,
    // `$sort`, `$skip`). Computing the groups on every request is the cost there.
    let mut grouped = grouped;
    for stage in stages {
        for f in stage.fields() {
            match f.key.as_str() {
                "$limit" => limit = Some(&f.value),
                "$group" | "$bucket" | "$bucketAuto" | "$sortByCount" => grouped = true,
                "$skip" if !grouped && limit.is_none_or(|l| grows_with(l, &f.value)) => {
                    out.push((f.key_span, &f.value))
                }
                "$facet" => {
                    for sub in f.value.fields() {
                        skip_stages(
                            sub.value.items(),
                            out,
                            grouped || limit.is_some(),
                            depth + 1,
                        );
                    }
                }
                "$lookup" | "$unionWith" => {
                    if let Some(p) = f.value.get("pipeline") {
                        skip_stages(p.value.items(), out, false, depth + 1);
                    }
                }
                _ => {}
            }
        }
    }
}

impl Rule for SkipPaging {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &RuleContext, out: &mut Vec<Finding>) {
        // One finding per paging: the same skip on the same collection, written again in one
        // function (one branch per sort order or driver version), is reported at its first
        // occurrence with the others as related locations.
        let mut first: HashMap<(usize, String, String, String), usize> = HashMap::new();
        let mut report =
            |file: usize, op: &'_ Operation, span: Span, amount: &Value, page: bool| {
                let Some(function) = op.context.function.as_deref() else {
                    out.push(skip_paging_diagnostic(file, op, span, amount, page));
                    return;
                };
                let key = (
                    file,
                    function.to_string(),
                    collection_label(op),
                    value_text(amount),
                );
                match first.get(&key) {
                    Some(&i) => out[i].related.push(Related {
                        file,
                        span,
                        message: "the same paging, written again in this function".to_string(),
                    }),
                    None => {
                        first.insert(key, out.len());
                        out.push(skip_paging_diagnostic(file, op, span, amount, page));
                    }
                }
            };
        for (file, op) in operations(ctx) {
            // Maintenance code run by hand (`scripts/`, `bin/`, seeds, migrations: the offline
            // files of unindexed-query) walks a collection once, off the request path.
            if ctx.model.offline_files.contains(&file) {
                continue;
            }
            // A count given a skip (`count_documents(q, skip=n)`, pymongo's old
            // `cursor.count(with_limit_and_skip=True)` rebuilt on it: girder) counts what a page
            // would hold; the paging is the read that skips.
            if op.kind == OpKind::Count || names_known_documents(op) {
                continue;
            }
            // (A wrapper of the driver, which runs the query and the skip it was given, is
            // reported at info: its callers decide the paging; see `skip_paging_diagnostic`.)
            for m in &op.modifiers {
                if m.name != "skip" && m.name != "page" {
                    continue;
                }
                if let Some(amount) = m.args.first() {
                    if pages(op, amount) && !capped(op, amount) {
                        report(file, op, m.span, amount, m.name == "page");
                    }
                }
            }
            if let Some(stages) = &op.pipeline {
                let mut skips = Vec::new();
                skip_stages(stages, &mut skips, false, 0);
                for (span, amount) in skips {
                    if pages(op, amount) {
                        report(file, op, span, amount, false);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::Settings;

    fn lines(path: &str, src: &str) -> Vec<usize> {
        let (_, f) = crate::analysis::check_source(path, src, &Settings::default()).unwrap();
        f.iter()
            .filter(|f| f.rule == "skip-paging")
            .map(|f| src[..f.span.start as usize].lines().count())
            .collect()
    }

    /// The lines of the skip-paging findings at warning (those at info are a wrapper's).
    fn warned(path: &str, src: &str) -> Vec<usize> {
        let (_, f) = crate::analysis::check_source(path, src, &Settings::default()).unwrap();
        f.iter()
            .filter(|f| {
                f.rule == "skip-paging" && f.severity == crate::diagnostic::Severity::Warning
            })
            .map(|f| src[..f.span.start as usize].lines().count())
            .collect()
    }

    /// A wrapper's skip made a number from its options (`Math.max(0, parseInt(options.pagination.
    /// page_token || "0"))`, Twake's MongoDB connector; `Number(options.skip) || 0`) is still its
    /// callers': info. A skip the function computes from a page it is given pages there.
    #[test]
    fn a_wrappers_skip_made_a_number_is_its_callers() {
        let src = r#"import { Db } from "mongodb";
export class Connector {
  constructor(private db: Db) {}
  find(name: string, filters: object, options: { pagination: { page_token?: string } }) {
    return this.db.collection(name).find(filters)
      .skip(Math.max(0, parseInt(options.pagination.page_token || "0")))
      .limit(100).toArray();
  }
  list(name: string, filters: object, options: { skip?: number }) {
    return this.db.collection(name).find(filters).skip(Number(options.skip) || 0).limit(10).toArray();
  }
  page(name: string, filters: object, options: { page: number }) {
    return this.db.collection(name).find(filters).skip(parseInt(options.page) * 10).limit(10).toArray();
  }
}
"#;
        assert_eq!(lines("conn.ts", src), [6, 10, 13]);
        assert_eq!(warned("conn.ts", src), [13]);
    }

    /// Python: a wrapper's skip and filter may come from helpers that read what its caller gave
    /// it (mhn's `get(self, options={}, **kwargs)`: `query = self._clean_query(kwargs)`, `skip,
    /// limit, order_by = self._clean_options(options)`, the skip applied to the cursor later).
    /// A page number of its own is the function's paging.
    #[test]
    fn a_python_wrapper_s_skip_may_come_from_its_options_through_a_helper() {
        let py = r#"import pymongo
class Resource(object):
    collection = pymongo.MongoClient().mhn.session
    def get(self, options={}, **kwargs):
        query = self._clean_query(kwargs)
        queryset = self.collection.find(query)
        if options:
            skip, limit, order_by = self._clean_options(options)
            if skip:
                queryset = queryset.skip(skip)
        return queryset
    def page(self, page, **kwargs):
        query = self._clean_query(kwargs)
        skip, limit = self._paging(page)
        return self.collection.find(query).skip(skip)
"#;
        let (_, found) =
            crate::analysis::check_source("clio.py", py, &Settings::default()).unwrap();
        let got: Vec<_> = found
            .iter()
            .filter(|f| f.rule == "skip-paging")
            .map(|f| (py[..f.span.start as usize].lines().count(), f.severity))
            .collect();
        assert_eq!(
            got,
            vec![
                (10, crate::diagnostic::Severity::Info),
                (15, crate::diagnostic::Severity::Warning)
            ]
        );
    }

    /// mongoengine's `aggregate(*pipeline)` and `aggregate(stage, stage)` (the stages as
    /// positional arguments, yeti's neighbours) page as the list form does.
    #[test]
    fn mongoengine_stages_given_one_by_one_are_a_pipeline() {
        let py = r#"from mongoengine import Document, ReferenceField
class Link(Document):
    dst = ReferenceField("Link")
def neighbours(node_id, filters, page, size):
    pipeline = [{"$match": {"dst": node_id}}]
    pipeline.extend([{"$match": filters}, {"$skip": page * size}, {"$limit": size}])
    return list(Link.objects.aggregate(*pipeline))
def neighbours3(node_id, page, size):
    return list(Link.objects.aggregate({"$match": {"dst": node_id}}, {"$skip": page * size}))
"#;
        assert_eq!(lines("database.py", py), vec![6, 9]);
    }

    /// A wrapper of the driver runs the query and the options its callers give it (apostrophe's
    /// `lowLevelMongoCursor(req, criteria, projection, options)`, `.skip(options.skip)`): the
    /// paging is its callers', and it is reported at info. A function with a skip parameter of
    /// its own (`list(criteria, skip)` on `docs`) is written to page, unless the collection is its
    /// callers' too (crits' `mongo_find(collection, query, .., skip=0)`, the driver's `find` under
    /// another name); a handler's request values, or a filter written in the function, page
    /// there. A skip destructured from an
    /// options parameter is its member (growthbook's `_find(query, { sort, limit, skip })`,
    /// whose filter is made from `query`).
    #[test]
    fn a_wrapper_that_runs_the_query_it_is_given_is_no_paging() {
        let js = r#"const { MongoClient } = require("mongodb");
const db = new MongoClient(url).db("app");
function lowLevelCursor(req, criteria, projection, options) {
  return db.collection("docs").find(criteria).project(projection).skip(options.skip);
}
function list(criteria, skip) {
  return db.collection("docs").find(criteria).skip(skip);
}
function handler(req, res) {
  return db.collection("docs").find(req.body.filter).skip(req.query.skip);
}
function mine(owner, options) {
  return db.collection("docs").find({ owner }).skip(options.skip);
}
function other(criteria, options) {
  return db.collection("docs").find(criteria).skip(options.page * 20);
}
function cursor(criteria, options) {
  const c = db.collection("docs").find(criteria);
  if (options.skip) {
    c.skip(options.skip);
  }
  return c;
}
class BaseModel {
  async _find(query = {}, { sort, limit, skip } = {}) {
    const fullQuery = this.applyBaseQuery(query);
    const cursor = db.collection("docs").find(fullQuery);
    if (skip) cursor.skip(skip);
    return cursor.toArray();
  }
  async page(query, { skip: from = 0 }) {
    return db.collection("docs").find(query).skip(from).toArray();
  }
  async mine(owner, { skip }) {
    const mineOnly = { owner: "me" };
    return db.collection("docs").find(mineOnly).skip(skip).toArray();
  }
  async byOwner(owner, { skip }) {
    return db.collection("docs").find({ owner }).skip(skip).toArray();
  }
}
async function getFeaturesPage(context, { project, limit = 10, offset = 0 }) {
  const q = featureListQuery(context.org.id, { project });
  return db.collection("docs").find(q).sort({ _id: 1 }).skip(offset).limit(limit).toArray();
}
"#;
        assert_eq!(warned("docs.js", js), vec![7, 10, 13, 16, 37, 40, 45]);
        assert_eq!(
            lines("docs.js", js),
            vec![4, 7, 10, 13, 16, 21, 29, 33, 37, 40, 45]
        );
        let (_, f) = crate::analysis::check_source("docs.js", js, &Settings::default()).unwrap();
        assert!(
            f[0].message.contains("passes through this function")
                && f[0].message.contains("`options.skip`"),
            "{:?}",
            f[0].message
        );
        let py = r#"import pymongo
db = pymongo.MongoClient().app
def mongo_find(collection, query, fields=None, skip=0, limit=0, sort=None):
    col = db[collection]
    return col.find(query, fields, skip=skip, limit=limit, sort=sort)
def run_query(collection, query, options):
    return db[collection].find(query, skip=options.skip, limit=options.limit)
def data_query(request, query):
    return db.items.find(query, skip=int(request.GET["start"]))
"#;
        assert_eq!(warned("tools.py", py), vec![9]);
        assert_eq!(lines("tools.py", py), vec![5, 7, 9]);
    }

    /// A query handed in whole and paged with the skip its caller's options give (gitter's
    /// `executeSearch(q, options)`, Reaction's `applyOffsetPaginationToMongoCursor(cursor, {
    /// first, offset })`) is its callers' paging: info. A skip of its own parameter, or a cursor
    /// the function makes, is judged.
    #[test]
    fn a_query_handed_in_whole_with_its_callers_skip_is_theirs() {
        let js = r#"const mongoose = require("mongoose");
const User = mongoose.model("User", new mongoose.Schema({ username: String }));
function executeSearch(q, options) {
  var limit = options.limit || 20;
  var skip = options.skip || 0;
  return q.limit(limit).skip(skip).exec();
}
function applyOffset(cursor, { first, offset } = {}) {
  cursor.limit(first || 20);
  cursor.skip(offset);
}
function paginate(cursor, offset) {
  return cursor.limit(20).skip(offset);
}
function search(ids, options) {
  var q = User.find({ username: { $in: ids } });
  return q.limit(20).skip(options.skip).exec();
}
"#;
        assert_eq!(lines("search.js", js), vec![6, 10, 13, 17]);
        assert_eq!(warned("search.js", js), vec![13, 17]);
    }

    /// A wrapper's skip and filter may be its options' members with a default, bound to locals
    /// (pencilblue's `DAO._doQuery`: `var offset = options.offset ? options.offset : 0`), and
    /// its query may run in a callback of its own (`this.getDb(function (err, db) {..})`), or
    /// read through an optional chain (`options?.skip`, novu's messages); a handler's request
    /// values bound so page there.
    #[test]
    fn a_wrappers_defaulted_members_and_callbacks_are_its_callers() {
        let js = r#"const mongo = require("mongodb");
function DAO() {}
DAO.prototype._doQuery = function (options, cb) {
  var where = options.where ? options.where : DAO.ANYWHERE;
  var offset = options.offset ? options.offset : 0;
  this.getDb(function (err, db) {
    db.collection(options.entityType).find(where).skip(offset).toArray(cb);
  });
};
DAO.prototype.page = function (options, cb) {
  var offset = options.offset || 0;
  return this.db.collection("articles").find(options.where).skip(offset).toArray(cb);
};
DAO.prototype.mine = function (options, cb) {
  var offset = options.offset || 0;
  return this.db.collection("articles").find({ owner: "me" }).skip(offset).toArray(cb);
};
async function list(query, select, options) {
  return this.db.collection("messages").find(query, { skip: options?.skip }).toArray();
}
function handler(req, res) {
  var offset = req.query.offset || 0;
  var where = req.body ? req.body : {};
  this.db.collection("articles").find(where).skip(offset).toArray();
}
"#;
        assert_eq!(lines("dao.js", js), vec![7, 12, 16, 19, 24]);
        assert_eq!(warned("dao.js", js), vec![16, 24]);
    }

    /// articles_meta's API: a parameter clamped in a branch (`if offset < 0: offset = 0`) still
    /// holds the caller's offset on the other path; and `self.db.find(..)` on a name taken for
    /// a database (a constructor's `db` parameter in a file that imports pymongo) is a read of
    /// the collection it holds, since a database has no `find`. A parameter bound to a constant
    /// before any use is that constant.
    #[test]
    fn a_clamped_offset_and_a_database_named_collection_page() {
        let py = r#"import pymongo
def list_articles(db, limit=100, offset=0):
    if offset < 0:
        offset = 0
    return list(db.articles.find({}).sort("processing_date").skip(offset).limit(limit))
class ArticleMeta:
    def __init__(self, db):
        self.db = db
    def identifiers(self, limit=100, offset=0):
        return list(self.db.find({}).sort("processing_date").skip(offset).limit(limit))
    def first(self, offset=0):
        skip = 0
        return list(self.db.find({}).skip(skip).limit(10))
"#;
        assert_eq!(lines("controller.py", py), vec![5, 10]);
    }

    /// A pipeline a method of the class returns through a name bound to a list literal
    /// (openedx forum's `pipeline = [..]; return pipeline`) is read at the call, as a returned
    /// literal is; one the method extends with its caller's stages is not.
    #[test]
    fn a_returned_pipeline_name_is_read_at_the_call() {
        let py = r#"from pymongo import MongoClient
db = MongoClient().forum
class API:
    @staticmethod
    def mk(course_id, page, per_page):
        pipeline = [{"$match": {"c": course_id}}, {"$sort": {"u": -1}},
                    {"$facet": {"data": [{"$skip": (page - 1) * per_page}, {"$limit": per_page}]}}]
        return pipeline
    @classmethod
    def get(cls, course_id, page, per_page):
        pipeline = cls.mk(course_id, page, per_page)
        return list(db.users.aggregate(pipeline))[0]
    @staticmethod
    def mk2(course_id, page, stages):
        pipeline = [{"$match": {"c": course_id}}, {"$skip": page * 10}]
        pipeline.extend(stages)
        return pipeline
    @classmethod
    def get2(cls, course_id, page, stages):
        return list(db.users.aggregate(cls.mk2(course_id, page, stages)))
"#;
        assert_eq!(lines("api.py", py), vec![7]);
    }

    /// A cursor a module of the repository returns, paged where it is made (Hydro's solutions:
    /// `document.getMulti(d, type, q).sort(s).skip((page - 1) * n).limit(n)`, `document` imported
    /// from `./document`), is offset paging; the same chain on a package's function is not read.
    #[test]
    fn a_cursor_from_a_repository_module_paged_in_place_is_paging() {
        let ts = r#"import * as document from './document';
import { getMulti } from '../model/problem';
import { stream } from 'some-stream-lib';
export function solutions(d: string, q: any, page: number, limit: number) {
    return document.getMulti(d, 30, q).sort({ vote: -1 }).skip((page - 1) * limit).limit(limit).toArray();
}
export function problems(d: string, q: any, skip: number) {
    return getMulti(d, q).skip(skip).limit(20).toArray();
}
export function items(q: any, skip: number) {
    return stream(q).skip(skip).limit(20).toArray();
}
"#;
        assert_eq!(lines("solution.ts", ts), [5, 8]);
        // A model's own read (`AddressTx.find(q)`, the model imported from `./model`) is an
        // operation, its paging reported with the same function's other (iquidus' address
        // page: an aggregate's `$skip`, then the same skip on a `find`), not again as a cursor.
        let js = r#"const AddressTx = require('./model');
async function page(hash, start) {
  await AddressTx.aggregate([{ $match: { a_id: hash } }, { $skip: Number(start) }]);
  return AddressTx.find({ a_id: hash }).skip(Number(start)).limit(10);
}
module.exports = { page };
"#;
        assert_eq!(lines("db.js", js), [3]);
    }

    /// The collection is named by what the code binds it to: a constant typed as a driver
    /// collection (`const coll: Collection<Udoc> = db.collection('user')`, Hydro's models) by its
    /// value, a class's static field (`static coll = db.collection('message')`, read as
    /// `MessageModel.coll`) by the field's value.
    #[test]
    fn typed_constants_and_static_fields_name_their_collection() {
        let ts = r#"import { Collection, MongoClient } from 'mongodb';
const db = new MongoClient('x').db();
export const coll: Collection<Udoc> = db.collection('user');
class MessageModel {
    static coll = db.collection('message');
    static async getMany(query: any, page: number, limit: number) {
        return await MessageModel.coll.find(query).skip((page - 1) * limit).limit(limit).toArray();
    }
}
export const users = (page: number) => coll.find({}).skip(page * 20).limit(20).toArray();
"#;
        let (_, f) = crate::analysis::check_source("model.ts", ts, &Settings::default()).unwrap();
        let msgs: Vec<&str> = f
            .iter()
            .filter(|f| f.rule == "skip-paging")
            .map(|f| f.message.as_str())
            .collect();
        assert_eq!(msgs.len(), 2, "{msgs:?}");
        assert!(
            msgs[0].starts_with("offset paging on `message`:"),
            "{msgs:?}"
        );
        assert!(msgs[1].starts_with("offset paging on `user`:"), "{msgs:?}");
    }

    /// A Mongoose query counted after its paging (erxes' `Conversations.find(q).skip(s).limit(l)
    /// .countDocuments()`) counts what the page would hold: no page is read. The same query run
    /// for its documents is paging.
    #[test]
    fn a_query_counted_after_its_paging_is_not_paging() {
        let ts = r#"import { Schema, model } from 'mongoose';
const Conversations = model('conversations', new Schema({ status: String }));
export const count = (query: any, options: any) =>
  Conversations.find(query).skip(options?.skip || 0).limit(options?.limit || 0).countDocuments();
export const page = (query: any, options: any) =>
  Conversations.find(query).skip(options?.skip || 0).limit(options?.limit || 0);
"#;
        assert_eq!(lines("inbox.ts", ts), [6]);
    }

    /// A skip drawn at random picks a random document (ChatterBot's `skip(randint(0, n - 1))`);
    /// `distinct` takes no paging options, so a `skip` splatted into an application's own
    /// `distinct(field, **kargs)` (ivre's backends) is not a read's. A computed skip given to
    /// `find` is paging.
    #[test]
    fn random_skips_and_distinct_options_are_not_paging() {
        let py = r#"from random import randint
import pymongo
db = pymongo.MongoClient().app
def pick(count):
    return db.statements.find().limit(1).skip(randint(0, count - 1))
def values(field, skip):
    kargs = {}
    kargs["skip"] = skip
    return db.rir.distinct(field, **kargs)
def page(n):
    return db.rir.find({}, skip=n * 20, limit=20)
"#;
        assert_eq!(lines("app.py", py), [11]);
        let js = r#"const { MongoClient } = require("mongodb");
async function pick(db, n) {
  return db.collection("quotes").find({}).skip(Math.floor(Math.random() * n)).limit(1).toArray();
}
"#;
        assert!(lines("pick.js", js).is_empty());
    }

    /// A one-off script that walks a collection by skip (Sefaria's
    /// `scripts/convert_sheet_likes_to_saves.py`) runs once, by hand; the same walk in the
    /// application's own code is paging.
    #[test]
    fn a_script_run_by_hand_walks_its_collection_once() {
        let py = r#"from pymongo import MongoClient
db = MongoClient().sefaria
def get_all_sheets(page=0):
    limit = 1000
    while True:
        sheets = list(db.sheets.find().skip(page * limit).limit(limit))
        if not sheets:
            return
        page += 1
"#;
        assert!(lines("scripts/convert_likes.py", py).is_empty());
        assert_eq!(lines("app/sheets.py", py), [6]);
    }

    /// A skip by how many documents are kept (jsreport's profiler cleanup, `skip(reporter.
    /// options.profiler.maxProfilesHistory)`), by a setting deeper in a path (`app.config.x`), or
    /// on a filter that names one document by `_id` (maggma's GridFS read) or those of a list
    /// (crowi's `Page.find({ _id: { $in: ids } }).skip(offset)`) pages through nothing; a skip
    /// from the request's options still is paging, and so is one past an `_id` range or
    /// outside a list (`$nin`).
    #[test]
    fn kept_counts_settings_and_one_document_reads_are_not_paging() {
        let js = r#"const { MongoClient } = require("mongodb");
async function cleanup(db, reporter, app, options) {
  await db.collection("profiles").find({}).sort({ t: -1 }).skip(reporter.options.profiler.maxProfilesHistory).toArray();
  await db.collection("logs").find({}).skip(app.config.logOffset).toArray();
  return db.collection("files").find({}).skip(options.skip).toArray();
}
"#;
        assert_eq!(lines("cleanup.js", js), [5]);
        let py = r#"from pymongo import MongoClient
files = MongoClient().app.files
def read_one(file_id, skip=0):
    return files.find_one(filter={"_id": file_id}, skip=skip)
def read_after(file_id, skip=0):
    return files.find_one(filter={"_id": {"$gt": file_id}}, skip=skip)
def listed(ids, skip=0):
    return list(files.find({"_id": {"$in": ids}, "kind": "doc"}, skip=skip, limit=50))
def unlisted(ids, skip=0):
    return list(files.find({"_id": {"$nin": ids}}, skip=skip, limit=50))
"#;
        assert_eq!(lines("gridfs.py", py), [6, 10]);
    }

    /// NewsBlur's `trim(cls, user_id, limit=100)`: `cls.objects.filter(user_id=user_id)
    /// .skip(limit)` reaches what is deleted beyond the newest `limit`, a retention job, not a
    /// page. A page number in a trimming function, or a count kept in a function not named for
    /// trimming, is still paging.
    #[test]
    fn a_count_kept_by_a_trimming_function_is_not_paging() {
        let py = r#"import mongoengine as mongo
class MInteraction(mongo.Document):
    user_id = mongo.IntField()
    @classmethod
    def trim(cls, user_id, limit=100):
        for i in cls.objects.filter(user_id=user_id).skip(limit):
            i.delete()
    @classmethod
    def prune_old(cls, user_id, page):
        return cls.objects.filter(user_id=user_id).skip(page * 10)
    @classmethod
    def recent(cls, user_id, limit=100):
        return cls.objects.filter(user_id=user_id).skip(limit)
"#;
        assert_eq!(lines("social.py", py), [10, 13]);
    }

    /// A class's own `skip` and `limit` (FiftyOne's views: `view[start:stop]` is
    /// `self.skip(start).limit(stop - start)`, each adding a stage) are no cursor's; a cursor the
    /// method gets from the driver still pages.
    #[test]
    fn an_object_s_own_skip_and_limit_are_not_paging() {
        let py = r#"from pymongo import MongoClient
class View:
    def skip(self, n):
        return self._add_stage({"$skip": n})
    def limit(self, n):
        return self._add_stage({"$limit": n})
    def __getitem__(self, s):
        return self.skip(s.start).limit(s.stop - s.start)
    def page(self, db, n):
        cursor = db.samples.find({})
        return cursor.skip(n * 20).limit(20)
"#;
        assert_eq!(lines("view.py", py), [11]);
    }
}
