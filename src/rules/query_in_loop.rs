use super::{collection_label, operations, Rule, RuleContext, RuleMeta};
use crate::diagnostic::{Finding, Related, Severity};
use crate::ir::{CollectionName, HelperRead, LoopOver, OpKind, Operation, Span, Value, ValueKind};

pub struct QueryInLoop;

static META: RuleMeta = RuleMeta {
    id: "query-in-loop",
    name: "QueryInLoop",
    summary: "A driver call inside a loop over query results or ids: N+1 round trips, an application-side join",
    default_severity: Severity::Warning,
    precision: "medium",
    tags: &["mongodb", "performance", "n-plus-one", "joins"],
    doc: include_str!("../../rules/query-in-loop.md"),
};

fn query_in_loop_diagnostic(
    file: usize,
    op: &Operation,
    loop_span: Span,
    over: &LoopOver,
    outer: Option<&Operation>,
    via: Option<(&HelperRead, &Operation, usize)>,
) -> Finding {
    let read = reads(op);
    let message = if let Some((h, _, _)) = via {
        format!(
            "`{}` runs `{}` on {} once per item of `{}`: N+1 queries, an application-side join",
            h.callee,
            op.method,
            collection_label(op),
            over.text
        )
    } else if read {
        format!(
            "`{}` on {} runs once per item of `{}`: N+1 queries, an application-side join",
            op.method,
            collection_label(op),
            over.text
        )
    } else {
        format!(
            "`{}` on {} runs once per item of `{}`: one round trip per item",
            op.method,
            collection_label(op),
            over.text
        )
    };
    let _ = loop_span;
    let mut related = vec![Related {
        file,
        // The iterable, not the whole loop: one short label in the text output.
        span: over.span,
        message: format!("the loop over `{}`", over.text),
    }];
    if let Some((h, r, read_file)) = via {
        related.push(Related {
            file: read_file,
            span: r.method_span,
            message: format!("the `{}` in `{}`", r.method, h.callee),
        });
    }
    if let Some(o) = outer {
        related.push(Related {
            file,
            span: o.method_span,
            message: format!(
                "the outer query (`{}` on {}) whose results the loop walks",
                o.method,
                collection_label(o)
            ),
        });
    }
    Finding {
        rule: META.id,
        // A read per item is an application-side join (schema design); a write per item is batching.
        severity: if read {
            META.default_severity
        } else {
            Severity::Info
        },
        file,
        span: op.method_span,
        message,
        help: if read {
            "fetch all items in one query with `$in` on the ids, join with `$lookup`, or embed the data that is read together".to_string()
        } else {
            "send the writes in one batch: `bulkWrite` / `bulk_write` (or `insertMany`, or one `updateMany` with `$in`)".to_string()
        },
        related,
    }
}

/// Whether `op` reads documents for the application: a read, but not an aggregation that ends by
/// writing its result to a collection (`$out`, `$merge`), which is a write per item (LearningLocker's
/// nightly usage job runs one `$out` per organisation, then reads the collection's stats).
/// A read limited to at most ten documents by a number written in the code (`.limit(4)`,
/// `limit=3`, `{ limit: 5 }`): a loop over its results makes a few queries, not one per item of
/// data (`few_by_slice`'s bound).
fn limited_to_a_few(op: &Operation) -> bool {
    op.modifiers.iter().any(|m| {
        m.name == "limit"
            && matches!(m.args.first().map(|a| &a.kind), Some(ValueKind::Number(n)) if (1.0..=10.0).contains(n))
    })
}

fn reads(op: &Operation) -> bool {
    op.kind.is_read()
        && !op.pipeline.as_ref().is_some_and(|stages| {
            stages
                .last()
                .and_then(|s| s.fields().first())
                .is_some_and(|f| f.key == "$out" || f.key == "$merge")
        })
}

/// The filter is the loop's item spread with more keys (`for (const criterion of criteria)
/// coll.find({ ...criterion, aposLocale })`, apostrophe's replication; Python's `{**spec, ..}`):
/// each item is a query of its own, a batch of different queries rather than a query per item of
/// a list of results or ids.
fn filter_spreads_item(op: &Operation, over: &LoopOver) -> bool {
    let (Some(item), Some(filter)) = (over.item.as_deref(), op.filter.as_ref()) else {
        return false;
    };
    filter.fields().iter().any(|f| {
        f.key == "..."
            && matches!(&f.value.kind, ValueKind::Unknown(u)
                if u.text.strip_prefix("...").or_else(|| u.text.strip_prefix("**")) == Some(item))
    })
}

/// The iterable is a list of collections or collection names (`collections`, `listCollectionNames()`).
fn over_collections(text: &str) -> bool {
    let t = text.to_ascii_lowercase();
    t.contains("collections") || t.contains("collection_names") || t.contains("collectionnames")
}

/// The iterable is a list of ids: `ids`, `userIds`, `req.body.order_ids`, `zip(keys, group_ids,
/// strict=True)` (the last name that is neither a keyword argument's nor a literal's), or the
/// keys or entries of a dict of ids (`ids.items()`).
fn ids_like(text: &str) -> bool {
    let bytes = text.as_bytes();
    // Pieces between single separator bytes, from the end: each piece's end is known.
    let mut end = bytes.len();
    let last = bytes
        .rsplit(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
        .filter_map(|p| {
            let after = end;
            end = (after - p.len()).saturating_sub(1);
            let keyword = bytes[after..]
                .iter()
                .position(|b| !b.is_ascii_whitespace())
                .is_some_and(|i| {
                    bytes[after + i] == b'=' && bytes.get(after + i + 1) != Some(&b'=')
                });
            let p = std::str::from_utf8(p).ok()?;
            let literal = matches!(p, "True" | "False" | "None" | "true" | "false" | "null");
            // A dict's keys or entries are its ids' (`ids.items()`, `group_ids.keys()`).
            let entries = matches!(p, "items" | "keys" | "iteritems" | "iterkeys")
                && bytes[after..].starts_with(b"()");
            (!p.is_empty() && !keyword && !literal && !entries).then_some(p)
        })
        .next()
        .unwrap_or("");
    last == "ids" || last.ends_with("Ids") || last.ends_with("_ids") || last.ends_with("IDs")
}

/// A write whose filter selects the document whose `_id` is the loop's item (`for user_id in
/// list(rss.keys()): coll.replace_one({"_id": user_id}, ..)`, `{ _id: new ObjectId(id) }`): the
/// items are ids, one round trip each.
fn keyed_on_item(op: &Operation, over: &LoopOver) -> bool {
    let Some(item) = over.item.as_deref() else {
        return false;
    };
    let is_item = |text: &str| {
        // The name itself, or the name passed to a conversion (`ObjectId(id)`, `str(uid)`).
        let inner = text
            .trim_start_matches("new ")
            .split_once('(')
            .filter(|(callee, rest)| {
                rest.ends_with(')')
                    && callee
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
            })
            .map_or(text, |(_, rest)| rest[..rest.len() - 1].trim());
        crate::lang::item_names(item).any(|n| n == inner)
    };
    op.filter.as_ref().is_some_and(|f| {
        f.fields().iter().any(|f| {
            f.key == "_id" && matches!(&f.value.kind, ValueKind::Unknown(u) if is_item(&u.text))
        })
    })
}

/// `for page in paginate(ids): coll.find({"_id": {"$in": page}})`: one query per batch of ids, the
/// remedy for N+1 queries rather than an instance of it.
/// Also a loop over the pages of a batching helper (`for group in paginate(units)`,
/// `chunked(ids, 100)`) whose query takes an `$in` (of ids built from the page).
fn batched_by_item(op: &Operation, over: &LoopOver) -> bool {
    // `item` None: any `$in`.
    fn has_in_of(v: &Value, item: Option<&str>) -> bool {
        match &v.kind {
            ValueKind::Document(fields) => fields.iter().any(|f| {
                (f.key == "$in"
                    && item.is_none_or(|item| {
                        // (One of the names an item is unpacked into: `for perm, role_ids in
                        // permissions.items()`.)
                        matches!(&f.value.kind, ValueKind::Unknown(u)
                            if u.text == item || crate::lang::item_names(item).any(|n| n == u.text))
                    }))
                    || has_in_of(&f.value, item)
            }),
            ValueKind::Array(items) => items.iter().any(|x| has_in_of(x, item)),
            _ => false,
        }
    }
    let item = if over.batches {
        None
    } else {
        match over.item.as_deref() {
            Some(item) => Some(item),
            None => return false,
        }
    };
    // A loop over batches whose query is built from the batch: an `$or` of the batch's key
    // documents (pulp's `{'$or': segment}`), or a filter made elsewhere from it (`spec =
    // build_spec(segment)`, read as the name `spec`).
    fn built_from(v: &Value, item: &str) -> bool {
        match &v.kind {
            ValueKind::Unknown(u) => u.is_name || crate::lang::has_identifier(&u.text, item),
            ValueKind::Document(fields) => fields.iter().any(|f| {
                matches!(f.key.as_str(), "$or" | "$in") && built_from(&f.value, item)
                    || (f.value.is_document() && built_from(&f.value, item))
            }),
            _ => false,
        }
    }
    op.filter.as_ref().is_some_and(|f| {
        has_in_of(f, item)
            || (over.batches && over.item.as_deref().is_some_and(|item| built_from(f, item)))
    })
}

impl Rule for QueryInLoop {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &RuleContext, out: &mut Vec<Finding>) {
        for (file, op) in operations(ctx) {
            out.extend(judge(ctx, file, op, None));
        }
        // A read in the body of a function of the file, or of a look-up of another module that
        // the file imports, called in a loop: judged as if written where the call is.
        for f in &ctx.files {
            for h in &f.ir.helper_reads {
                let read_file = h.read_file.unwrap_or(f.id);
                let Some(read) = ctx
                    .files
                    .get(read_file)
                    .and_then(|rf| rf.ir.operations.iter().find(|o| o.span == h.read))
                else {
                    continue;
                };
                let mut at_call = read.clone();
                at_call.span = h.call;
                at_call.method_span = h.callee_span;
                at_call.context = h.context.clone();
                if read_file != f.id {
                    // Named in the other module: not where the loop is.
                    if let Some(c) = at_call.collection.as_mut() {
                        c.span = Span::default();
                    }
                }
                out.extend(judge(ctx, f.id, &at_call, Some((h, read, read_file))));
            }
        }
    }
}

/// The finding for `op` if it runs once per item of its loop. `via`: the call of a function of
/// the file (or of another module) that `op` stands for, the read in that function's body, and
/// the file the read is in.
fn judge(
    ctx: &RuleContext,
    file: usize,
    op: &Operation,
    via: Option<(&HelperRead, &Operation, usize)>,
) -> Option<Finding> {
    if matches!(
            op.kind,
            OpKind::CreateIndex | OpKind::DropIndex | OpKind::DocumentSave | OpKind::Other
        ) || op.in_bulk
            || op.context.periodic
            // Runs once and leaves the loop: a search, not a query per item.
            || op.context.exits_loop
            || ctx.model.offline_files.contains(&file)
    {
        return None;
    }
    let (Some(loop_span), Some(over)) = (op.context.enclosing_loop, op.context.loop_over.as_ref())
    else {
        return None;
    };
    // The call that produces the iterable (`coll.find().forEach(..)`) is not in the loop.
    if over.span.contains(op.span) || op.span.contains(over.span) {
        return None;
    }
    if over.fixed || batched_by_item(op, over) || filter_spreads_item(op, over) {
        return None;
    }
    // The same read on every iteration, or the same write that leaves the documents as the
    // first left them: to move out of the loop, not a query per item.
    if op.context.same_each_iteration && (reads(op) || op.idempotent_write()) {
        return None;
    }
    // A loop over collections (`for (const c of collections) c.deleteMany({})`) touches a
    // different collection each time: not a repeated query on one.
    let literal = matches!(
        op.collection.as_ref().map(|c| &c.name),
        Some(CollectionName::Literal { .. })
    );
    // (A model imported from another module that the linker could not name is named
    // where it is imported, not in the loop: `models.Posts` of `{ models }: IContext`.)
    let named_per_iteration = op.collection.as_ref().is_some_and(|c| {
        !literal
            && c.import.is_none()
            && c.span != Span::default()
            && loop_span.contains(c.span)
            && !op.context.name_fixed_in_loop
    });
    if !literal
        && (named_per_iteration || op.context.receiver_per_item || over_collections(&over.text))
        || op.context.query_is_item
    {
        return None;
    }
    let ops = &ctx.files[file].ir.operations;
    // The query whose results the loop walks: written in the loop's iterable, or in the
    // expression the iterable's name is bound to (`sheets = coll.find(q)`; there, only a
    // read of many documents: a name bound to `find_one(..)` or a count is not a list of
    // results).
    let outer = ops.iter().find(|o| {
        reads(o)
            && (over.span.contains(o.span)
                || over.bound_to.is_some_and(|b| {
                    b.contains(o.span)
                        && matches!(o.kind, OpKind::Find | OpKind::Aggregate | OpKind::Distinct)
                }))
    });
    // The results of a query limited to a few documents (`find().sort(..).limit(4)`, `find(q,
    // limit=3)`): a handful of iterations, as a slice of at most ten items is.
    if outer.is_some_and(limited_to_a_few) {
        return None;
    }
    // A write per item is flagged where the items are another query's results or ids;
    // other per-item writes are often conditional (claims, upserts of distinct keys).
    if !reads(op) && outer.is_none() && !ids_like(&over.text) && !keyed_on_item(op, over) {
        return None;
    }
    Some(query_in_loop_diagnostic(
        file, op, loop_span, over, outer, via,
    ))
}

#[cfg(test)]
mod tests {
    use crate::rules::Settings;

    fn findings(path: &str, src: &str) -> Vec<(usize, String, usize)> {
        let (_, f) = crate::analysis::check_source(path, src, &Settings::default()).unwrap();
        f.into_iter()
            .filter(|f| f.rule == "query-in-loop")
            .map(|f| {
                (
                    src[..f.span.start as usize].lines().count(),
                    f.message,
                    f.related.len(),
                )
            })
            .collect()
    }

    /// A Mongoose document made and saved per item of a query's results (`new
    /// Notification({ user: u._id }).save()`, or held in a name first) is an insert per item, as
    /// `Notification.create(..)` is: reported at info. Made once before the loop and saved in it,
    /// it is not an insert per item.
    #[test]
    fn a_new_document_saved_per_item_is_an_insert_per_item() {
        let src = r#"const mongoose = require("mongoose");
const Notification = mongoose.model("Notification", new mongoose.Schema({ user: String }));
const User = mongoose.model("User", new mongoose.Schema({ team: String }));
async function notify(team) {
  const users = await User.find({ team });
  for (const u of users) {
    await new Notification({ user: u._id }).save();
  }
  for (const u of users) {
    const n = new Notification({ user: u._id });
    await n.save();
  }
  const one = new Notification({ user: team });
  for (const u of users) {
    await one.save();
  }
}
module.exports = { notify };
"#;
        let got = findings("notify.js", src);
        assert_eq!(lines(&got), vec![7, 11], "{got:?}");
        assert!(
            got[0].1.contains("`save` on `notifications`"),
            "{}",
            got[0].1
        );
    }

    /// A local named `cls` in a static method (yeti's feeds: `cls = kinds[item["type"]]`, a model
    /// picked per item) is what it is bound to, not the enclosing class: the query is not on the
    /// class's collection. A class method's `cls` is.
    #[test]
    fn a_local_named_cls_is_not_the_enclosing_class() {
        let src = r#"from mongoengine import Document, StringField
class Host(Document):
    value = StringField()
class Feed(Document):
    name = StringField()
    @staticmethod
    def ingest(items):
        kinds = {"DOMAIN": Host, "HOSTNAME": Host}
        for item in items:
            cls = kinds[item["type"]]
            cls.objects.get(value=item["v"])
    @classmethod
    def named(cls, names):
        for n in names:
            cls.objects.get(name=n)
"#;
        let got = findings("feed.py", src);
        assert_eq!(lines(&got), vec![15], "{got:?}");
        assert!(got[0].1.contains("`feed`"), "{}", got[0].1);
    }

    /// Django's `settings.MONGO_DB` (kobotoolbox's submissions: `MONGO_DB =
    /// mongo_client[name]` in the settings module) is a database, so `settings.MONGO_DB.instances`
    /// is the collection `instances`: a count per form in a loop is one per item. A setting
    /// named otherwise (`MONGO_URI`) is no database.
    #[test]
    fn a_django_mongo_database_setting_is_a_database() {
        let src = "from django.conf import settings
mongo_instances = settings.MONGO_DB.instances
def status(xforms):
    for xform in xforms:
        mongo_instances.count_documents({\"_userform_id\": xform.id_string})
        settings.MONGO_URI.instances.count_documents({\"_userform_id\": xform.id_string})
";
        let got = findings("logger_tools.py", src);
        assert_eq!(lines(&got), vec![5], "{got:?}");
        assert!(got[0].1.contains("`instances`"), "{}", got[0].1);
    }

    /// The item of a loop over a queryset is a document of its model (`for ds in
    /// Dataservice.objects(datasets=d): ds.update(..)`): the per-item update (or `delete()`)
    /// names the model's collection. In a function decorated as a background job (`@job("purge-datasets")`, udata's
    /// tasks), the loop is a batch job's and is not reported.
    #[test]
    fn a_queryset_item_is_a_document_of_its_model_and_a_job_is_a_batch() {
        let src = "import mongoengine as me
class Dataservice(me.Document):
    datasets = me.ListField(me.StringField())
def detach(dataset):
    for ds in Dataservice.objects(datasets=dataset):
        ds.update(datasets=[])
@job(\"purge-datasets\")
def purge(self, dataset):
    for ds in Dataservice.objects(datasets=dataset):
        ds.update(datasets=[])
def remove(dataset, rows):
    for ds in Dataservice.objects(datasets=dataset):
        ds.delete()
    for row in rows:
        row.delete()
";
        let got = findings("tasks.py", src);
        // A document's own `delete()` too (mist.api's rules); not on something else (`row`,
        // which may be a Django model's).
        assert_eq!(lines(&got), vec![6, 13], "{got:?}");
        assert!(got[0].1.contains("on `dataservice`"), "{}", got[0].1);
    }

    /// `enumerate(docs)` walks what `docs` holds: a query's results (pymongo) or a queryset's
    /// documents (mongoengine), so a write per item is reported as for `docs` itself
    /// (MPContribs' unit fixes).
    #[test]
    fn an_enumerated_query_walks_its_results() {
        let src = "from mongoengine import Document, StringField
from pymongo import MongoClient
db = MongoClient().app
class Contributions(Document):
    project = StringField()
    meta = {\"collection\": \"contributions\"}
def me1(projects):
    documents = Contributions.objects(project__in=projects)
    for idx, document in enumerate(documents):
        document.update(unset__notebook=\"\")
def pm(ids, rows):
    docs = db.items.find({\"_id\": {\"$in\": ids}})
    for i, d in enumerate(docs):
        db.items.update_one({\"_id\": d[\"_id\"]}, {\"$set\": {\"i\": i}})
    for i, r in enumerate(rows):
        db.items.update_one({\"name\": r}, {\"$set\": {\"i\": i}})
";
        let got = findings("contribs.py", src);
        assert_eq!(lines(&got), vec![10, 14], "{got:?}");
        assert!(got[0].1.contains("on `contributions`"), "{}", got[0].1);
    }

    /// A document read from the database is data whatever its name (biothings' `_cfg =
    /// src_build_config.find_one(..)`, then a read per source it lists); configuration read
    /// from settings is still a fixed list.
    #[test]
    fn a_document_named_like_configuration_is_data() {
        let src = "from pymongo import MongoClient
db = MongoClient().hub
def check_ready(build_name):
    _cfg = db.src_build_config.find_one({\"_id\": build_name})
    for src_name in _cfg[\"sources\"]:
        print(db.src_dump.find_one({\"_id\": src_name}))
def from_config(settings):
    for src_name in settings.config[\"sources\"]:
        print(db.src_dump.find_one({\"_id\": src_name}))
";
        let got = findings("builder.py", src);
        assert_eq!(lines(&got), vec![6], "{got:?}");
    }

    /// A receiver that takes a driver-only call in a function is a collection there, so its
    /// bare `find()` is a read too (biothings' `src_build = get_src_build()`, then a
    /// `replace_one` per build of `src_build.find()`); a class calling its own `find` and
    /// `update_one` implements them (biothings' SQLite stand-in) and is not read so.
    #[test]
    fn a_receiver_confirmed_by_a_driver_call_reads_with_find() {
        let src = "from biothings.utils.hub_db import get_src_build
def clean():
    src_build = get_src_build()
    for build in src_build.find():
        src_build.replace_one({\"_id\": build[\"_id\"]}, build)
def other(rows):
    store = get_src_build()
    for row in store.find():
        print(row)
class Collection:
    def update(self, query, what):
        for doc in self.find(query):
            self.update_one({\"_id\": doc[\"_id\"]}, what)
";
        let got = findings("builder.py", src);
        assert_eq!(lines(&got), vec![5], "{got:?}");
        assert!(got[0].1.contains("src_build.find()"), "{}", got[0].1);
    }

    /// Flask-RQ2's job decorator (`@rq.job()`, `@rq.job`) makes a background job as RQ's
    /// `@job(queue)` does (MPContribs' notebook builds); the same loop in a request handler is
    /// reported.
    #[test]
    fn a_flask_rq2_job_is_a_background_job() {
        let src = "from flask_rq2 import RQ
from pymongo import MongoClient
rq = RQ()
db = MongoClient().app
@rq.job()
def rebuild(ids):
    for doc in db.contributions.find({\"_id\": {\"$in\": ids}}):
        db.notebooks.find_one({\"_id\": doc[\"notebook\"]})
@rq.job
def rebuild2(ids):
    for doc in db.contributions.find({\"_id\": {\"$in\": ids}}):
        db.notebooks.find_one({\"_id\": doc[\"notebook\"]})
@app.route(\"/rebuild\")
def handler(ids):
    for doc in db.contributions.find({\"_id\": {\"$in\": ids}}):
        db.notebooks.find_one({\"_id\": doc[\"notebook\"]})
";
        let got = findings("views.py", src);
        assert_eq!(lines(&got), vec![16], "{got:?}");
    }

    /// In a file that answers requests, a function named for the data it handles, a batch or a
    /// day, is no batch run (erxes' `usersSetActiveStatusBatch` mutation, `dailyReport` query): its
    /// queries per item are reported. Named so elsewhere, or named for a job, it is a batch run.
    #[test]
    fn a_request_handler_named_for_a_batch_or_a_day_is_no_batch_run() {
        let src = "import { Schema, model } from 'mongoose';
const Users = model('users', new Schema({ code: String }));
export const mutations = {
  async usersSetActiveStatusBatch(_ids: string[]) {
    for (const _id of _ids) {
      await Users.findOne({ _id });
    }
  },
  async dailyReport(ids: string[]) {
    for (const id of ids) {
      await Users.findOne({ _id: id });
    }
  },
  async nightlyCleanupJob(ids: string[]) {
    for (const id of ids) {
      await Users.findOne({ _id: id });
    }
  },
};
";
        let got = findings("src/graphql/resolvers/mutations.ts", src);
        assert_eq!(lines(&got), vec![6, 11], "{got:?}");
        let got = findings("src/services/users.ts", src);
        assert!(got.is_empty(), "{got:?}");
        let py = "from pymongo import MongoClient
db = MongoClient().app
def daily_report(ids):
    for i in ids:
        db.users.find_one({'_id': i})
";
        assert_eq!(lines(&findings("app/views.py", py)), vec![5]);
        assert!(findings("app/reports.py", py).is_empty());
    }

    /// A query per page of a batching helper built from the page is one query per batch: an
    /// `$or` of the page's key documents (pulp's units by compound key), or a filter a helper
    /// builds from the page (`spec = _build_multi_keys_spec(type, segment)`). An `$or` of
    /// conditions on one item is still a query per item.
    #[test]
    fn an_or_of_a_batch_or_a_filter_built_from_it_is_one_query_per_batch() {
        let src = "from pymongo import MongoClient
from util import paginate
db = MongoClient().app
def by_keys(keys):
    for seg in paginate(keys):
        for d in db.units.find({'$or': seg}):
            yield d
def by_spec(ctype, keys):
    for segment in paginate(keys, page_size=50):
        spec = _build_multi_keys_spec(ctype, segment)
        for d in db.units.find(spec, projection=['a']):
            yield d
def per_item(ids):
    for i in ids:
        db.units.find_one({'$or': [{'a': i}, {'b': i}]})
";
        let got = findings("units.py", src);
        assert_eq!(lines(&got), vec![15], "{got:?}");
        // A batch unpacked from a pair (Allura's roles per permission).
        let src = "import pymongo
db = pymongo.MongoClient().app
def f(permissions):
    for perm, role_ids in permissions.items():
        db.project_role.find({'_id': {'$in': role_ids}})
    for (perm, role_ids) in permissions.items():
        db.project_role.find({'_id': {'$in': role_ids}})
    for perm, role_id in permissions.items():
        db.project_role.find({'_id': role_id})
";
        assert_eq!(lines(&findings("admin.py", src)), vec![9]);
    }

    /// A command run by hand as its own program (erxes' `src/commands/*.ts`: its own
    /// `MongoClient`, then `process.exit()`; a Python `__main__` module making its client) is
    /// maintenance code. A bot's command handler under `commands/`, on the application's models,
    /// answers users.
    #[test]
    fn a_standalone_command_is_maintenance_code() {
        let script = "import { MongoClient } from 'mongodb';
const client = new MongoClient(process.env.MONGO_URL || '');
const command = async () => {
  const db = client.db();
  const logs = await db.collection('score_logs').find({}).toArray();
  for (const log of logs) {
    await db.collection('customers').findOne({ _id: log.ownerId });
  }
  process.exit();
};
command();
";
        assert!(findings("plugins/loyalty/src/commands/fix.ts", script).is_empty());
        assert_eq!(
            lines(&findings("plugins/loyalty/src/jobs2/fix.ts", script)),
            vec![7]
        );
        let handler = "const Users = require('../models/user');
module.exports = async (message, ids) => {
  for (const id of ids) {
    await Users.findById(id);
  }
};
";
        assert_eq!(lines(&findings("src/commands/rank.js", handler)), vec![4]);
        let py = "from pymongo import MongoClient
def main():
    db = MongoClient().app
    for log in db.logs.find():
        db.users.find_one({'_id': log['owner']})
if __name__ == '__main__':
    main()
";
        assert!(findings("app/commands/fix.py", py).is_empty());
        assert_eq!(lines(&findings("app/services/fix.py", py)), vec![5]);
    }

    /// A mongosh script run from cron (alerta's `contrib/mongo/housekeepingAlerts.js`: the
    /// shell's global `db`, no module system) is maintenance code, as a script of `scripts/` is;
    /// the same loop in a module of the application is not.
    #[test]
    fn a_mongosh_script_is_maintenance_code() {
        let script = "// * * * * * /usr/bin/mongo --quiet monitoring housekeeping.js
now = new Date();
db.alerts.find({ status: 'open', expireTime: { $lt: now } }).forEach(function (alert) {
    db.alerts.update({ _id: alert._id }, { $set: { status: 'expired' } });
    db.owners.findOne({ _id: alert.owner });
});
";
        assert!(findings("contrib/mongo/housekeeping.js", script).is_empty());
        let module = format!("const log = require('./log');\n{script}");
        assert_eq!(
            lines(&findings("contrib/mongo/housekeeping.js", &module)),
            vec![5, 6]
        );
    }

    /// In Rust too, a write per item of a query's results bound in the function (a collected
    /// `Vec`, walked directly, by `&items` or `.iter()`, or a cursor advanced by `while let`) is
    /// reported at info, with the query as related location; a write per item of a list that no
    /// query returned is not (showtimes' collaborations deleted one by one).
    #[test]
    fn a_rust_write_per_item_of_query_results_is_reported() {
        let src = r#"use futures::TryStreamExt;
use mongodb::{bson::{doc, Document}, Database};
async fn one(db: &Database, sid: &str) -> mongodb::error::Result<()> {
    let items: Vec<Document> = db.collection::<Document>("things").find(doc! { "s": sid }).await?.try_collect().await?;
    for it in &items {
        db.collection::<Document>("things").delete_one(doc! { "_id": it.get("_id") }).await?;
    }
    let mut cursor = db.collection::<Document>("things").find(doc! { "s": sid }).await?;
    while let Some(it) = cursor.try_next().await? {
        db.collection::<Document>("things").update_one(doc! { "_id": it.get("_id") }, doc! { "$set": { "x": 1 } }).await?;
    }
    let names = vec!["a", "b"];
    for n in names.iter() {
        db.collection::<Document>("things").delete_one(doc! { "name": n }).await?;
    }
    Ok(())
}
"#;
        let got = findings("src/sync.rs", src);
        assert_eq!(lines(&got), vec![6, 10], "{got:?}");
        assert!(
            got.iter()
                .all(|g| g.1.contains("one round trip per item") && g.2 >= 1),
            "{got:?}"
        );
    }

    /// A file of upgrade steps (Hydro's `src/upgrade.ts` of `MigrationScript`s) and the steps
    /// handed to a migration runner (`ctx.migration.registerChannel(name, [async () => ..])`) run
    /// once, at an upgrade. A file named `upgrade` that speaks of no migration is application code.
    #[test]
    fn upgrade_steps_and_registered_migrations_run_once() {
        let steps = "import { MigrationScript } from './service/migration';
import { db } from './service/db';
export const coreScripts: MigrationScript[] = [
  async function _75_76() {
    const messages = await db.collection('message').find({}).toArray();
    for (const m of messages) await db.collection('user').findOne({ _id: m.from });
  },
];
";
        assert!(findings("src/upgrade.ts", steps).is_empty());
        let plan = steps
            .replace("MigrationScript", "PlanStep")
            .replace("./service/migration", "./plans");
        assert_eq!(lines(&findings("src/upgrade.ts", &plan)), vec![6]);
        let plugin = "import { db } from 'hydrooj';
export async function apply(ctx) {
  ctx.migration.registerChannel('vjudge', [async () => {
    const ddocs = await db.collection('domain').find({}).toArray();
    for (const ddoc of ddocs) await db.collection('user').findOne({ _id: ddoc.owner });
  }]);
  ctx.on('ready', async () => {
    const ddocs = await db.collection('domain').find({}).toArray();
    for (const ddoc of ddocs) await db.collection('user').findOne({ _id: ddoc.owner });
  });
}
";
        assert_eq!(lines(&findings("src/index.ts", plugin)), vec![9]);
    }

    /// pymongo 3's `save(doc)` is a write (MozDef's alert schedules, saved back one by one
    /// while the query's results are walked), and so is a mongoengine document's own `save()`
    /// on the item of a loop over a queryset; `save()` on something else (a Django model's
    /// instance) is not read.
    #[test]
    fn a_save_per_item_of_query_results_is_a_write_per_item() {
        let src = "from pymongo import MongoClient
import mongoengine as me
schedules = MongoClient().meteor['alertschedules']
class Service(me.Document):
    name = me.StringField()
def refresh(names, rows):
    for doc in schedules.find():
        if doc['name'] in names:
            schedules.save(doc)
    for svc in Service.objects():
        svc.enabled = False
        svc.save()
    for row in rows:
        row.save()
";
        let got = findings("schedules.py", src);
        assert_eq!(lines(&got), vec![9, 12], "{got:?}");
        assert!(
            got[0].1.contains("`save` on `alertschedules`"),
            "{}",
            got[0].1
        );
        assert!(got[1].1.contains("on `service`"), "{}", got[1].1);
    }

    /// A Python loop over a parenthesized iterable (`for nid in (networks or []):`, mist.api)
    /// iterates what the parentheses hold, which is data: only a tuple is a fixed list.
    #[test]
    fn a_parenthesized_python_iterable_is_no_tuple() {
        let src = "import mongoengine as me
class Network(me.Document):
    name = me.StringField()
def a(networks):
    for nid in (networks or []):
        Network.objects.get(id=nid)
def c():
    for nid in (\"a\", \"b\"):
        Network.objects.get(id=nid)
";
        let got = findings("nets.py", src);
        assert_eq!(lines(&got), vec![6], "{got:?}");
    }

    /// A loop over the batches a call is asked for (`inbatch=True`, `batch=True`), directly or
    /// through a name bound to the call, makes one `$in` query per batch: the remedy. A batch
    /// size alone sets how a cursor fetches, and its items are documents.
    #[test]
    fn a_call_asked_for_batches_gives_batches() {
        let py = findings(
            "diff.py",
            r#"from pymongo import MongoClient
db = MongoClient().hub
def common(new, doc_feeder, iterate, rows):
    batches = doc_feeder(new, step=10000, inbatch=True)
    for batch in batches:
        ids = [d["_id"] for d in batch]
        db.old.find({"_id": {"$in": ids}})
    for docs in iterate(rows, batch=True, batch_size=100):
        db.old.find({"_id": {"$in": [d["_id"] for d in docs]}})
    for doc in db.new.find({}, batch_size=100):
        db.old.find({"_id": {"$in": doc["refs"]}})
    for doc in iterate(rows, batch=False):
        db.old.find({"_id": {"$in": doc["refs"]}})
"#,
        );
        assert_eq!(py.iter().map(|f| f.0).collect::<Vec<_>>(), vec![11, 13]);
        let js = findings(
            "diff.js",
            r#"const { MongoClient } = require("mongodb");
async function common(db, rows) {
  const pages = iterate(rows, { batched: true });
  for (const page of pages) {
    await db.collection("old").find({ _id: { $in: page.map((d) => d._id) } }).toArray();
  }
  for (const page of iterate(rows, { batch: true, size: 100 })) {
    await db.collection("old").find({ _id: { $in: page.map((d) => d._id) } }).toArray();
  }
  for (const row of iterate(rows, { batchSize: 100 })) {
    await db.collection("old").find({ _id: { $in: row.refs } }).toArray();
  }
}
"#,
        );
        assert_eq!(js.iter().map(|f| f.0).collect::<Vec<_>>(), vec![11]);
    }

    /// The lines of `findings`' results.
    fn lines(got: &[(usize, String, usize)]) -> Vec<usize> {
        got.iter().map(|g| g.0).collect()
    }

    /// cuckoo's analysis views: `results_db = mongo.db`, `mongo` an application module's. Two of
    /// its members take driver-only calls (`find_one`), so it is a database, its members are the
    /// collections of those names, and their `find({..})` and `remove({..})` in loops are reads
    /// and deletes per item. A name with one
    /// such member (eve's data layer `app.data`, whose `find` is its own) is no database.
    #[test]
    fn members_of_a_name_that_holds_collections_are_collections() {
        let py = findings(
            "views.py",
            r#"from cuckoo.common.mongo import mongo
results_db = mongo.db
app = make_app()

def show(task_id):
    return results_db.analysis.find_one({"info.id": task_id})

def calls(ids):
    return [results_db.calls.find_one({"_id": i}) for i in ids]

def remove(task_id):
    for analysis in results_db.analysis.find({"info.id": task_id}):
        for shot in analysis["shots"]:
            if results_db.analysis.find({"shots": shot}).count() == 1:
                pass
        for call in analysis["calls"]:
            results_db.calls.remove({"_id": call})

def user():
    return app.data.find_one("users", None, {"_id": 1})

def embed(subresources):
    for s in subresources:
        app.data.find(s, None, subresources[s])
"#,
        );
        assert_eq!(lines(&py), vec![9, 14, 17], "{py:?}");
        assert!(py[1].1.contains("`find` on `analysis`"), "{py:?}");
        assert!(py[2].1.contains("`remove` on `calls`"), "{py:?}");
    }

    /// A function that polls forever, sleeping between rounds (courselit's drip processor,
    /// clearml-server's watchdog), is a periodic job: its loops are not reported. A retry loop
    /// (`while (true) { try { ..; return } catch { sleep } }`) is no poller.
    #[test]
    fn a_poll_loop_that_sleeps_is_a_periodic_job() {
        let js = findings(
            "drip.ts",
            r#"import mongoose from "mongoose";
const Course = mongoose.model("Course", new mongoose.Schema({ creatorId: String }));
const User = mongoose.model("User", new mongoose.Schema({ userId: String }));
export async function processDrip() {
    while (true) {
        const courses = await Course.find({}).lean();
        for (const course of courses) await User.findOne({ userId: course.creatorId });
        await new Promise((r) => setTimeout(r, 60 * 1000));
    }
}
export async function retry(ids: string[]) {
    while (true) {
        try {
            for (const id of ids) await User.findOne({ userId: id });
            return;
        } catch (e) { await new Promise((r) => setTimeout(r, 100)); }
    }
}
"#,
        );
        assert_eq!(lines(&js), vec![14], "{js:?}");
        let py = findings(
            "watch.py",
            r#"import time
from pymongo import MongoClient
db = MongoClient().app
def watchdog(interval):
    while True:
        for t in db.tasks.find({"status": "running"}):
            db.users.find_one({"name": t["user"]})
        time.sleep(interval)
def once():
    for t in db.tasks.find({"status": "running"}):
        db.users.find_one({"name": t["user"]})
class Watchdog:
    @classmethod
    def start(cls):
        while True:
            cls.cleanup()
            time.sleep(900)
    @classmethod
    def cleanup(cls):
        for t in db.tasks.find({"status": "running"}):
            db.tasks.update_one({"_id": t["_id"]}, {"$set": {"status": "stopped"}})
def shared():
    for t in db.tasks.find({}):
        db.users.find_one({"name": t["user"]})
def poll():
    while True:
        shared()
        time.sleep(5)
def handler():
    shared()
"#,
        );
        // (What only a poller calls, `cls.cleanup()`, runs on its period too; `shared`, which a
        // handler also calls, does not.)
        assert_eq!(lines(&py), vec![11, 24], "{py:?}");
    }

    /// A function that reports its progress on a terminal (kpi's `mongo_sync_status`, which
    /// rewrites `'%.2f %% done ...\r'` on stdout, called by a management command; a loop through
    /// `tqdm`), or one that asks the operator at the terminal (`input("Restore? [y/n] ")`, mist's
    /// backup restore), is a command or batch job run by hand, not a request's path: its loops
    /// are not reported. A carriage return only stripped from input (`line.rstrip("\r\n")`), or
    /// a method named `input` (`request.input(..)`), says nothing.
    #[test]
    fn a_function_that_reports_progress_on_a_terminal_is_a_batch_job() {
        let py = findings(
            "utils/logger_tools.py",
            r#"import sys
from tqdm import tqdm
from pymongo import MongoClient
db = MongoClient().app
def sync_status(forms):
    done = 0
    for form in forms:
        db.instances.count_documents({"form": form.id})
        done += 1
        sys.stdout.write('%.2f %% done ...\r' % (done * 100.0 / len(forms)))
def reindex(forms):
    for form in tqdm(forms):
        db.instances.count_documents({"form": form.id})
def counts(forms, line):
    print(line.rstrip("\r\n"))
    for form in forms:
        db.instances.count_documents({"form": form.id})
def restore(forms):
    if input("Restore the forms? [y/n] ") != "y":
        return
    for form in forms:
        db.instances.count_documents({"form": form.id})
def handler(forms, request):
    kind = request.input("kind")
    for form in forms:
        db.instances.count_documents({"form": form.id, "kind": kind})
"#,
        );
        let lines: Vec<usize> = py.iter().map(|f| f.0).collect();
        assert_eq!(lines, vec![17, 26], "{py:?}");
    }

    /// A loop over what a function of the file returns, when it returns only a few items written
    /// out (clearml-server's `res = cls._get_queries_for_order_field(..)`, `return non_empty,
    /// empty`), is a few fixed iterations; over a list it builds from data, it is not.
    #[test]
    fn a_loop_over_a_helpers_written_tuple_is_fixed() {
        let got = findings(
            "tasks.py",
            r#"from mongoengine import Document, StringField, Q
class Task(Document):
    name = StringField()
    @classmethod
    def _split(cls, q, field):
        if not field:
            return None
        return q & Q(name__exists=True), q & Q(name__exists=False)
    @classmethod
    def get(cls, q, field):
        res = cls._split(q, field)
        if res:
            return [cls.objects(x).first() for x in res]
def rows(q):
    return [Q(a=1), Q(a=2)] + list(q)
def data(q):
    res = rows(q)
    return [Task.objects(x).first() for x in res]
def other():
    res = []
    res.append(1)
    return res
"#,
        );
        // (`res.append` in another function is another variable's.)
        assert_eq!(lines(&got), vec![18], "{got:?}");
    }

    /// LearningLocker's usage job: an aggregation per organisation that writes its result with
    /// `$out` is a write per item, not an N+1 read; over a list that is no query's results, not
    /// flagged at all. The same aggregation that returns its documents is.
    #[test]
    fn an_aggregation_that_writes_its_result_is_no_read_per_item() {
        let src = r#"import StatementSample from "lib/models/statementSample";
export default async function track(orgStatsList) {
  for (const orgStats of orgStatsList) {
    await StatementSample.aggregate([{ $match: { organisation: orgStats.id } }, { $out: "statementOrgSamples" }]).exec();
  }
  for (const orgStats of orgStatsList) {
    await StatementSample.aggregate([{ $match: { organisation: orgStats.id } }, { $count: "n" }]).exec();
  }
}
"#;
        assert_eq!(lines(&findings("orgUsageTracker.js", src)), vec![7]);
    }

    /// A model imported from a module the linker cannot read is named where it is imported, not
    /// in the loop: its lookups per item are N+1 (udata's `Follow.objects(following=org)` per
    /// organisation, erxes's `models.Posts` of a typed context), as a local model's are. A model
    /// looked up per item (`getModel(item.kind)`) is another collection each time.
    #[test]
    fn an_imported_model_that_stays_unresolved_is_still_one_collection() {
        let got = findings(
            "tasks.py",
            r#"from udata.models import Follow, Dataset

def followers_org_count(self):
    return sum(Follow.objects(following=org).count() for org in self.organizations)

def purge():
    for dataset in Dataset.objects(deleted__ne=None):
        Follow.objects(following=dataset).delete()
"#,
        );
        assert_eq!(lines(&got), vec![4, 8], "{got:?}");
        let got = findings(
            "resolvers.ts",
            r#"import { IContext, getModel } from "~/connectionResolvers";
export const byIds = async (ids: string[], { models }: IContext) => {
  for (const id of ids) {
    await models.Posts.findOne({ _id: id, status: { $ne: "deleted" } });
  }
};
export const touch = async (items: any[]) => {
  for (const item of items) {
    const Model = getModel(item.kind);
    await Model.updateOne({ _id: item.id }, { $set: { touchedAt: new Date() } });
  }
};
"#,
        );
        assert_eq!(lines(&got), vec![4], "{got:?}");
    }

    /// A lookup under `if key == "spatial-text":`, where `key` is each item's key (CKAN's
    /// extras, a dictionary's items), runs for one item: not N+1. The same lookup under a test of
    /// another field of the item runs for every item that passes it.
    #[test]
    fn a_lookup_for_one_key_of_the_items_runs_once() {
        let got = findings(
            "harvesters.py",
            r#"from udata.models import GeoZone

def parse(data, settings):
    for extra in data["extras"]:
        key = extra["key"]
        value = extra["value"]
        if value is None:
            continue
        elif key == "spatial-text":
            zone = GeoZone.objects(name=value).first()
    for name, value in settings.items():
        if "default_zone" == name:
            zone = GeoZone.objects(slug=value).first()
    for extra in data["extras"]:
        kind = extra["type"]
        if kind == "zone":
            zone = GeoZone.objects(slug=extra["value"]).first()
"#,
        );
        assert_eq!(lines(&got), vec![17], "{got:?}");
    }

    #[test]
    fn reads_and_writes_per_item_are_flagged() {
        let got = findings(
            "orders.js",
            r#"const { MongoClient } = require("mongodb");
const db = client.db("shop");
for (const order of await db.collection("orders").find({ open: true }).toArray()) {
  const customer = await db.collection("customers").findOne({ _id: order.customerId });
}
await Promise.all(ids.map((id) => db.collection("users").findOne({ _id: id })));
for (const id of req.body.productIds) {
  await db.collection("products").updateOne({ _id: id }, { $set: { archived: true } });
}
for (const item of cart.items) {
  await db.collection("products").updateOne({ _id: item.id, stock: { $gte: item.qty } }, { $inc: { stock: -item.qty } });
}
"#,
        );
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!((got[0].0, got[0].2), (4, 2));
        assert!(got[0].1.contains("N+1"));
        assert_eq!(got[1].0, 6);
        assert_eq!(got[2].0, 8);
        assert!(got[2].1.contains("round trip per item"));
    }

    /// A call in a loop of a function of the file that looks a document up (`get_karmas(chat_id)`
    /// whose body is a `find_one`; a method through `self`) is a read per item, reported at the
    /// call with the helper's read as related location. Not: a call that sends the same
    /// arguments on every iteration, a loop over a fixed list or an object's attribute names
    /// (`dir(self)`), a memoised helper or one that keeps what it read (`if not self.sizes:
    /// self.sizes = ..`), a runner of the caller's queries (its collection or query a
    /// parameter), nor a function whose work goes beyond one read.
    #[test]
    fn a_look_up_through_a_function_of_the_file_is_a_read_per_item() {
        let src = r#"from functools import lru_cache
from pymongo import MongoClient
karmadb = MongoClient()["app"]["karma"]
def get_karmas(chat_id):
    k = karmadb.find_one({"chat_id": chat_id})
    return k["karma"] if k else {}
def get_settings():
    return karmadb.find_one({"_id": "settings"})
@lru_cache
def cached(chat_id):
    return karmadb.find_one({"chat_id": chat_id})
def run(coll, query):
    return list(coll.find(query))
def touch(chat_id):
    k = karmadb.find_one({"chat_id": chat_id})
    karmadb.update_one({"chat_id": chat_id}, {"$set": {"seen": True}})
def user_global_karma(user_id, queries):
    for chat in karmadb.find({"chat_id": {"$lt": 0}}):
        get_karmas(chat["chat_id"])
        get_settings()
        cached(chat["chat_id"])
        touch(chat["chat_id"])
    for x in [1, 2, 3]:
        get_karmas(x)
    for q in queries:
        run(karmadb, q)
class Repo:
    sizes = None
    def load(self, i):
        return karmadb.find_one({"_id": i})
    def size(self, name):
        if not self.sizes:
            self.sizes = karmadb.find_one({"_id": "sizes"})
        return self.sizes.get(name)
    def all(self, ids):
        for attr in dir(self):
            self.load(attr)
        return [(self.load(i), self.size(i)) for i in ids]
"#;
        let got = findings("bot/karma.py", src);
        assert_eq!(lines(&got), vec![19, 38], "{got:?}");
        assert!(
            got[0].1.starts_with(
                "`get_karmas` runs `find_one` on `karma` once per item of `karmadb.find("
            ),
            "{got:?}"
        );
        // The loop's iterable, the helper's read and the outer query.
        assert_eq!(got[0].2, 3, "{got:?}");
        assert!(got[1]
            .1
            .starts_with("`load` runs `find_one` on `karma` once per item of `ids`"));
    }

    /// A function that hands its parameter to a look-up of the file and returns what it gives is
    /// a look-up too: in a coroutine through `await` (WilliamButcherBot's `get_karma` over
    /// `get_karmas`), or copying the result into a list it returns (`for n in await
    /// _get_notes(chat_id): names.append(n)`). Not one that appends to two lists, nor one that
    /// returns something else.
    #[test]
    fn a_look_up_awaited_or_copied_by_a_wrapper_is_a_read_per_item() {
        let src = r#"from motor.motor_asyncio import AsyncIOMotorClient
notes = AsyncIOMotorClient().app.notes
async def _get_notes(chat_id):
    doc = await notes.find_one({"chat_id": chat_id})
    return doc["notes"] if doc else {}
async def get_note(chat_id, name):
    found = await _get_notes(chat_id)
    return found.get(name)
async def get_note_names(chat_id):
    names = []
    for n in await _get_notes(chat_id):
        names.append(n)
    return names
async def split(chat_id):
    a, b = [], []
    for n in await _get_notes(chat_id):
        a.append(n)
        b.append(n)
    return a
async def count(chat_id):
    found = await _get_notes(chat_id)
    return 1
async def everything(name):
    async for chat in notes.find({"chat_id": {"$lt": 0}}):
        await get_note(chat["chat_id"], name)
        await get_note_names(chat["chat_id"])
        await split(chat["chat_id"])
        await count(chat["chat_id"])
"#;
        let got = findings("bot/notes.py", src);
        assert_eq!(lines(&got), vec![25, 26], "{got:?}");
        assert!(
            got[0]
                .1
                .starts_with("`get_note` runs `find_one` on `notes` once per item"),
            "{got:?}"
        );
    }

    /// A method named for an operation done in batches (bitcore's `batchImport` of a block's
    /// transactions) is no batch job: the method it calls keeps its own N+1. A batch run
    /// (`runBatch`) is one, and so is what it calls.
    #[test]
    fn an_operation_in_batches_is_not_a_batch_job() {
        let src = r#"import { db } from "./db";
const walletAddresses = db.collection("walletaddresses");
export class TxModel {
  async batchImport(params: { txs: any[] }) {
    const ops = await this.addTransactions(params);
    await db.collection("transactions").bulkWrite(ops);
  }
  async addTransactions(params: { txs: Array<{ txid: string; from: string }> }) {
    return Promise.all(params.txs.map(async (tx) => {
      const owners = await walletAddresses.find({ address: tx.from }).toArray();
      return { updateOne: { filter: { txid: tx.txid }, update: { $set: { owners } } } };
    }));
  }
}
"#;
        assert_eq!(lines(&findings("tx.ts", src)), vec![10]);
        let run = src.replace("batchImport", "runBatch");
        assert!(findings("tx.ts", &run).is_empty());
    }

    /// A loop over the results of a read limited to at most ten documents by a number in the
    /// code (fame's last four analyses, each with its file) makes a few queries, as a short
    /// slice does; a larger or computed limit, or none, leaves one query per item of data.
    #[test]
    fn a_loop_over_a_few_limited_results_is_not_n_plus_one() {
        let py = r#"from pymongo import MongoClient, DESCENDING
db = MongoClient().app
def recent(n, user):
    mine = user.analyses.find().sort("_id", DESCENDING).limit(4)
    for m in mine:
        db.files.find_one({"_id": m["file"]})
    last = db.analyses.find().sort("_id", DESCENDING).limit(4)
    for a in last:
        db.files.find_one({"_id": a["file"]})
    for b in db.analyses.find({}, limit=3):
        db.files.find_one({"_id": b["file"]})
    for c in db.analyses.find({}).limit(50):
        db.files.find_one({"_id": c["file"]})
    for d in db.analyses.find({}).limit(n):
        db.files.find_one({"_id": d["file"]})
"#;
        assert_eq!(lines(&findings("recent.py", py)), vec![13, 15]);
        let js = r#"const { MongoClient } = require("mongodb");
async function recent(db, user) {
  const last = await db.collection("analyses").find({}).sort({ _id: -1 }).limit(5).toArray();
  for (const a of last) await db.collection("files").findOne({ _id: a.file });
  const top = await db.collection("analyses").find({}, { limit: 3 }).toArray();
  for (const a of top) await db.collection("files").findOne({ _id: a.file });
  const mine = await user.analyses.find({}).limit(3).toArray();
  for (const a of mine) await db.collection("files").findOne({ _id: a.file });
  const all = await db.collection("analyses").find({}).toArray();
  for (const a of all) await db.collection("files").findOne({ _id: a.file });
}
"#;
        assert_eq!(lines(&findings("recent.js", js)), vec![10]);
    }

    /// A loop over a slice of at most ten items, its bounds numbers in the code (DaisyX's last
    /// three connected chats, `reversed(data["history"][-3:])`; `ids.slice(0, 5)`), is a few
    /// fixed iterations; a slice bounded by a variable, or open at its end, is data.
    #[test]
    fn a_loop_over_a_few_items_of_a_slice_is_fixed() {
        let py = r#"from motor.motor_asyncio import AsyncIOMotorClient
db = AsyncIOMotorClient().app
async def f(data, n):
    for cid in reversed(data["history"][-3:]):
        await db.chat_list.find_one({"chat_id": cid})
    for cid in data["history"][:5]:
        await db.chat_list.find_one({"chat_id": cid})
    for cid in data["history"][:n]:
        await db.chat_list.find_one({"chat_id": cid})
    for cid in data["history"][2:]:
        await db.chat_list.find_one({"chat_id": cid})
"#;
        assert_eq!(lines(&findings("bot/connection.py", py)), vec![9, 11]);
        let js = r#"const { MongoClient } = require("mongodb");
async function f(db, ids) {
  for (const id of ids.slice(0, 5)) { await db.collection("u").findOne({ _id: id }); }
  for (const id of ids.slice(-3)) { await db.collection("u").findOne({ _id: id }); }
  for (const id of ids.slice(1)) { await db.collection("u").findOne({ _id: id }); }
}
"#;
        assert_eq!(lines(&findings("recent.js", js)), vec![5]);
    }

    /// What makes a function more than a look-up, or a look-up made now and then (the reviews of
    /// 55 such findings): a write, by any name (`Tag(name=n).save()`, a get-or-create); a call
    /// of another function of the file that runs operations; a query the arguments do not reach
    /// (`find_one({"_id": "subjects"})`, then a search in memory); a read in an error handler
    /// only; and a caller that keeps the results by key (`if key not in seen:`).
    #[test]
    fn a_function_that_does_more_than_look_up_is_not_a_read_per_item() {
        let src = r#"from pymongo import MongoClient
db = MongoClient()["app"]
def get_tag(name):
    return db.tags.find_one({"name": name})
def add_tag(name):
    tag = db.tags.find_one({"name": name})
    if tag:
        return False
    Tag(name=name).save()
def log(name):
    db.log.insert_one({"name": name})
def touch(name):
    tag = db.tags.find_one({"name": name})
    log(name)
def subject_for(topic_id):
    cv = db.vocabularies.find_one({"_id": "subjects"})
    return [i for i in cv["items"] if i == topic_id]
def mapping_for(src):
    try:
        return REGISTRY[src]
    except KeyError:
        return db.sources.find_one({"_id": src})
def run(rows):
    seen = {}
    for r in rows:
        get_tag(r["name"])
        add_tag(r["name"])
        touch(r["name"])
        subject_for(r["topic"])
        mapping_for(r["src"])
        if r["tag"] not in seen:
            seen[r["tag"]] = get_tag(r["tag"])
"#;
        let got = findings("app/tags.py", src);
        assert_eq!(lines(&got), vec![26], "{got:?}");
    }

    /// A registry of the application's collections by name (Reaction's `context.collections`):
    /// its members, and the names destructured from it, are collections, read per item with
    /// `findOne` as with `find`. Another object's members are not.
    #[test]
    fn a_registry_of_collections_by_name_holds_collections() {
        let js = r#"export async function publish(context, input) {
  const { collections: { NavigationItems } } = context;
  for (const id of input.ids) {
    await NavigationItems.findOne({ _id: id });
  }
}
export async function clone(context, ids) {
  const { Products } = context.collections;
  const { Helpers } = context.services;
  for (const id of ids) {
    await Products.findOne({ _id: id });
    await context.collections.Orders.findOne({ productId: id });
    await Helpers.findOne({ _id: id });
  }
}
"#;
        let got = findings("publish.js", js);
        assert_eq!(lines(&got), vec![4, 11, 12], "{got:?}");
    }

    /// A look-up is a few statements, its docstring not counted (ARL's `site_in_asset_site`: a
    /// docstring and six statements); a seventh statement makes it a workflow.
    #[test]
    fn a_docstring_is_no_statement_of_a_look_up() {
        let src = r#"from pymongo import MongoClient
db = MongoClient()["app"]
def site_in_asset(site, scope):
    """Whether the site is already an asset of the scope.

    Looked up by its URL.
    """
    query = {"scope_id": scope, "site": site}
    a = 1
    b = 2
    c = 3
    item = db.asset_site.find_one(query)
    return item is not None
def site_in_task(site, scope):
    query = {"scope_id": scope, "site": site}
    a = 1
    b = 2
    c = 3
    d = 4
    item = db.task_site.find_one(query)
    return item is not None
def run(sites, scope):
    for s in sites:
        site_in_asset(s, scope)
        site_in_task(s, scope)
"#;
        let got = findings("app/sites.py", src);
        assert_eq!(lines(&got), vec![24], "{got:?}");
    }

    /// A look-up whose read is a mongoengine queryset it returns or walks (`return
    /// Tag.objects(owner=o, resource_id=r.id)`, `{t.key: t.value for t in Tag.objects(..)}`:
    /// mist's tags per resource) reads per item as one ending in `.first()` does.
    #[test]
    fn a_look_up_returning_or_walking_a_queryset_is_a_read_per_item() {
        let src = r#"import mongoengine as me
class Tag(me.Document):
    owner = me.StringField()
    resource_id = me.StringField()
    key = me.StringField()
class Machine(me.Document):
    owner = me.StringField()
def get_tags(owner, resource):
    return {t.key: t.value for t in Tag.objects(owner=owner, resource_id=resource.id)}
def get_tag_list(owner, resource):
    return Tag.objects(owner=owner, resource_id=resource.id)
def list_machines(owner):
    out = []
    for m in Machine.objects(owner=owner):
        out.append(get_tags(owner, m))
    for m in Machine.objects(owner=owner):
        out.append(list(get_tag_list(owner, m)))
    return out
def tags_for(owner, resource):
    return {t.key: t.value for t in get_tag_list(owner, resource)}
def first_tag(owner, resource):
    tags = get_tag_list(owner, resource)
    return tags[0] if tags else None
def publish(owner, resource):
    send(exchange=get_tag_list(owner, resource), body="x")
def list_more(owner):
    a = [tags_for(owner, m) for m in Machine.objects(owner=owner)]
    b = [first_tag(owner, m) for m in Machine.objects(owner=owner)]
    c = [publish(owner, m) for m in Machine.objects(owner=owner)]
"#;
        let got = findings("tags/views.py", src);
        // (A wrapper that returns what a look-up gives, or a name bound to it, is one; a
        // function that uses it for other work is not.)
        assert_eq!(lines(&got), vec![15, 17, 27, 28], "{got:?}");
    }

    /// A dict written in the code walked by its keys is a few fixed iterations even where the
    /// loop sets the value of each key it walks (`data[key] = ..`, cve-search's statistics), or
    /// keys are added or the name bound again after the loop; not where the loop adds other
    /// keys.
    #[test]
    fn a_written_dict_whose_walk_sets_its_own_keys_is_fixed() {
        let src = r#"from pymongo import MongoClient
db = MongoClient()["cve"]
def stats(admin):
    data = {"cves": {}, "cpe": {}, "capec": {}}
    for key in data.keys():
        data[key] = {"last": db.info.find_one({"db": key})}
    if admin:
        data["whitelist"] = {}
        data = {"stats": 1, "data": data}
    return data
def grow(names):
    data = {"cves": {}, "cpe": {}}
    for key in data.keys():
        data[key + "_old"] = db.info.find_one({"db": key})
    return data
"#;
        let got = findings("lib/stats.py", src);
        assert_eq!(lines(&got), vec![14], "{got:?}");
    }

    /// In JavaScript too: a function declared at the top of the module or bound there to an
    /// arrow function (eiquidus' `find_tx(txid, cb)`), or a method through `this`, whose one
    /// operation is a read, called per item (or bound per item, `find_tx.bind(null, r.txid)`,
    /// a task queued for `async.parallel`: Strider's `projectJobs`); not a runner of the caller's queries, nor one on a
    /// collection a parameter names (`'app_users' + app._id`: another collection per call), nor
    /// a call whose results the caller keeps by key (`if (!byId.has(id))`).
    #[test]
    fn a_javascript_look_up_through_a_function_of_the_file_is_a_read_per_item() {
        let src = r#"const mongoose = require('mongoose'), async = require('async');
const Tx = mongoose.model('Tx', new mongoose.Schema({ txid: String }));
function find_tx(txid, cb) { Tx.findOne({ txid }).then(cb); }
const loadTx = async (txid) => Tx.findOne({ txid });
function runQuery(model, q) { return model.find(q); }
function usersOf(db, app) { return db.collection('app_users' + app._id).estimatedDocumentCount(); }
exports.viaHelper = (rows, cb) => async.eachSeries(rows, (r, next) => find_tx(r.txid, () => next()), cb);
exports.viaArrow = async (ids) => { for (const id of ids) { await loadTx(id); } };
exports.runner = async (qs) => { for (const q of qs) { await runQuery(Tx, q); } };
exports.counts = async (db, apps) => { for (const app of apps) { await usersOf(db, app); } };
exports.cached = async (ids, byId) => { for (const id of ids) { if (!byId.has(id)) byId.set(id, await loadTx(id)); } };
class Repo {
  load(id) { return Tx.findOne({ txid: id }); }
  async all(ids) { return Promise.all(ids.map((id) => this.load(id))); }
}
module.exports.Repo = Repo;
exports.queued = (rows, done) => {
  const tasks = [];
  rows.forEach((r) => { tasks.push(find_tx.bind(null, r.txid)); });
  async.parallel(tasks, done);
};
"#;
        let got = findings("lib/database.js", src);
        assert_eq!(lines(&got), vec![7, 8, 14, 19], "{got:?}");
        assert_eq!(src[..src.find("find_tx.bind").unwrap()].lines().count(), 19);
        assert!(
            got[3]
                .1
                .starts_with("`find_tx` runs `findOne` on `txes` once per item of `rows`"),
            "{got:?}"
        );
        assert!(got[0]
            .1
            .starts_with("`find_tx` runs `findOne` on `txes` once per item of `rows`"));
        assert!(
            got[2].1.starts_with("`load` runs `findOne` on `txes`"),
            "{got:?}"
        );
    }

    /// A Rust function of the file that is a look-up (dodona's `get_all_project_info(id, db)`
    /// per project of a cursor, two reads by the project's id), a free function or a method of the same `impl` (`Self::x`,
    /// `self.x`), is a read per item; not one that also writes, one that runs the collection it is
    /// given, one whose results the caller keeps (`contains_key`), nor a name two functions
    /// answer to.
    #[test]
    fn a_rust_look_up_through_a_function_of_the_file_is_a_read_per_item() {
        let src = r#"use futures::StreamExt;
use mongodb::{bson::{doc, oid::ObjectId, Document}, Collection, Database};
async fn info(db: &Database, pid: &ObjectId) -> Option<(Document, Document)> {
    let d = db.collection::<Document>("details").find_one(doc! { "project_id": pid }, None).await.ok()??;
    let a = db.collection::<Document>("analysis").find_one(doc! { "project_id": pid }, None).await.ok()??;
    Some((d, a))
}
async fn touch(db: &Database, pid: &ObjectId) -> Option<Document> {
    let d = db.collection::<Document>("details").find_one(doc! { "project_id": pid }, None).await.ok()?;
    db.collection::<Document>("details").update_one(doc! { "project_id": pid }, doc! { "$set": { "seen": true } }, None).await.ok()?;
    d
}
async fn run(c: &Collection<Document>, id: &ObjectId) -> Option<Document> {
    c.find_one(doc! { "_id": id }, None).await.ok()?
}
pub async fn list(db: &Database, uid: ObjectId, ids: Vec<ObjectId>) {
    let mut cur = db.collection::<Document>("projects").find(doc! { "user_id": uid }, None).await.unwrap();
    while let Some(Ok(p)) = cur.next().await {
        let d = info(db, p.get_object_id("_id").unwrap()).await;
        touch(db, p.get_object_id("_id").unwrap()).await;
    }
    let users = db.collection::<Document>("users");
    let mut seen = std::collections::HashMap::new();
    for id in &ids {
        run(&users, id).await;
        if !seen.contains_key(id) {
            seen.insert(*id, info(db, id).await);
        }
    }
}
struct Repo { db: Database }
impl Repo {
    async fn owner(&self, id: &ObjectId) -> Option<Document> {
        self.db.collection::<Document>("users").find_one(doc! { "_id": id }, None).await.ok().flatten()
    }
    async fn all(&self, ids: Vec<ObjectId>) {
        for id in &ids {
            self.owner(id).await;
            Self::owner(self, id).await;
        }
    }
}
"#;
        let got = findings("src/routes/projects.rs", src);
        assert_eq!(lines(&got), vec![19, 38, 39], "{got:?}");
        assert!(
            got[0].1.starts_with(
                "`info` runs `find_one` on `details` once per item of `cur`: N+1 queries"
            ),
            "{got:?}"
        );
        assert!(got[1].1.starts_with("`owner` runs `find_one` on `users`"));
        // Two functions of one name: neither is the one called.
        let twice = format!(
            "{src}mod v2 {{\n    async fn info(db: &Database, pid: &ObjectId) -> Option<Document> {{\n        db.collection::<Document>(\"details\").find_one(doc! {{ \"p\": pid }}, None).await.ok()?\n    }}\n}}\n"
        );
        assert_eq!(
            lines(&findings("src/routes/projects.rs", &twice)),
            vec![38, 39]
        );
    }

    /// A mongoengine queryset bound to a name, counted and then walked (NewsBlur's `subs =
    /// cls.objects.filter(..)`, `log(subs.count())`, `for sub in subs: sub.save()`), is read twice:
    /// the loop walks query results, and a save per item is a write per item.
    #[test]
    fn a_counted_queryset_walked_by_a_loop_is_still_query_results() {
        let src = r#"import mongoengine as mongo
class Sub(mongo.Document):
    user_id = mongo.IntField()
    dirty = mongo.BooleanField()

    @classmethod
    def flip(cls, user_id):
        subs = cls.objects.filter(user_id=user_id)
        log("%s subs" % subs.count())
        for sub in subs:
            sub.dirty = True
            sub.save()

    @classmethod
    def tally(cls, user_id):
        subs = cls.objects.filter(user_id=user_id)
        n = subs.count()
        for i in range(n):
            cls.objects.filter(user_id=i).first()
"#;
        let got = findings("apps/reader/models.py", src);
        assert_eq!(lines(&got), vec![12], "{got:?}");
        assert!(got[0].1.contains("runs once per item of `subs`"), "{got:?}");
        assert_eq!(got[0].2, 2, "the loop and the query it walks: {got:?}");
    }

    /// A name the file defines nowhere (NewsBlur's archived `bootstrap_mongo.py` still calls
    /// `Story.objects.get(..)`, a Django model it no longer imports or defines) is no model:
    /// the code fails there before any query. A model of the file, or imported, is one.
    #[test]
    fn an_undefined_model_name_runs_no_query() {
        let src = r#"import mongoengine
from apps.rss_feeds.models import MStory
def bootstrap(userstories):
    for us in userstories:
        story = Story.objects.get(pk=us.story_id)
        mstory = MStory.objects.get(story_guid=us.guid)
"#;
        assert_eq!(lines(&findings("utils/bootstrap_mongo.py", src)), vec![6]);
        let star = format!("from apps.models import *\n{src}");
        assert_eq!(
            lines(&findings("utils/bootstrap_mongo.py", &star)),
            vec![6, 7]
        );
    }

    /// A Mongoose model's static of the file (crowi's `pageSchema.statics.findPageByPath =
    /// async function (path) { .. Page.findOne({ path }) .. }`) called per item through the
    /// model is a look-up per item too, named as the call names it; not a static that writes, nor
    /// one two schemas of the file define under the same name.
    #[test]
    fn a_mongoose_static_of_the_file_is_a_look_up_per_item() {
        let src = r#"const mongoose = require('mongoose');
const pageSchema = new mongoose.Schema({ path: String });
pageSchema.statics.findPageByPath = async function (path) {
  const page = await Page.findOne({ path });
  if (page === null) throw new Error('Page not found');
  return page;
};
pageSchema.statics.touch = async function (path) {
  return Page.updateOne({ path }, { $set: { seen: true } });
};
const Page = mongoose.model('Page', pageSchema);
async function renamable(paths) {
  for (const path of paths) {
    const page = await Page.findPageByPath(path);
    await Page.touch(path);
  }
}
module.exports = { renamable };
"#;
        let got = findings("lib/models/page.js", src);
        assert_eq!(lines(&got), vec![14], "{got:?}");
        assert!(
            got[0].1.starts_with(
                "`Page.findPageByPath` runs `findOne` on `pages` once per item of `paths`"
            ),
            "{got:?}"
        );
    }

    /// A write keyed by `_id` on the loop's item walks ids, whatever the iterable's name (a
    /// dict's keys, `Object.keys(..)`), as does a loop over a dict of ids' entries (modmail's
    /// `ids.items()`); a write per item keyed on another field is not (upserts of distinct
    /// keys), nor one keyed on a field of the item.
    #[test]
    fn a_write_keyed_on_the_item_as_an_id_is_a_write_per_id() {
        let py = r#"from motor.motor_asyncio import AsyncIOMotorClient
db = AsyncIOMotorClient().app
async def update_note_ids(ids: dict):
    for object_id, message_id in ids.items():
        await db.notes.update_one({"_id": object_id}, {"$set": {"message_id": message_id}})
async def rss_update_all(rss):
    for user_id in list(rss.keys()):
        await db.rss.replace_one({"_id": user_id}, rss[user_id], upsert=True)
async def tags(names, rows):
    for name in names:
        await db.tags.update_one({"name": name}, {"$set": {"seen": True}}, upsert=True)
    for row in rows:
        await db.tags.update_one({"_id": row["_id"]}, {"$set": {"seen": True}})
"#;
        let got = findings("notes.py", py);
        assert_eq!(lines(&got), vec![5, 8], "{got:?}");
        assert!(
            got[0].1.contains("once per item of `ids.items()`"),
            "{got:?}"
        );
        let js = r#"const { ObjectId } = require("mongodb");
async function f(db, counts, tags) {
  for (const id of Object.keys(counts)) {
    await db.collection("users").updateOne({ _id: new ObjectId(id) }, { $set: { n: counts[id] } });
  }
  for (const tag of tags) {
    await db.collection("tags").updateOne({ name: tag }, { $set: { seen: true } }, { upsert: true });
  }
}
"#;
        assert_eq!(lines(&findings("counts.js", js)), vec![4]);
    }

    #[test]
    fn a_model_looked_up_from_the_item_may_be_another_collection_each_time() {
        // A query path's hops, each on the collection its relationship points to: the model is
        // looked up per item, so the loop walks collections, not one collection's documents. A
        // model looked up once before the loop, or in the loop without the item, still counts.
        let got = findings(
            "buildSearchParams.ts",
            r#"import mongoose from "mongoose";
export async function relationshipQuery(adapter, hops, ids) {
  let found = [];
  for (const [i, { collectionSlug, path }] of hops.entries()) {
    const { Model: SubModel } = getCollection({ adapter, collectionSlug });
    found = await SubModel.find({ [path]: { $in: found } }).lean().select({ _id: true });
  }
  hops.forEach(({ slug }) => {
    const Related = adapter.collections[slug];
    Related.find({ parent: { $in: found } }).lean();
  });
  const { Model } = getCollection({ adapter, collectionSlug: "posts" });
  for (const id of ids) {
    await Model.findOne({ author: id }).lean();
  }
  for (const id of ids) {
    const { Model: Authors } = getCollection({ adapter, collectionSlug: "users" });
    await Authors.findOne({ _id: id }).lean();
  }
  return found;
}
"#,
        );
        assert_eq!(lines(&got), vec![14, 18], "{got:?}");
    }

    #[test]
    fn a_model_reached_from_the_item_through_bindings_may_be_another_collection_each_time() {
        // keystone's drilldown: each path names a relationship field, whose list's model is
        // queried; the receiver is a member of a name bound, through another, from the item. The
        // same model per item (`req.list.model`, bound outside the loop) still counts.
        let got = findings(
            "get.js",
            r#"const mongoose = require("mongoose");
module.exports = function (req, res, item) {
  async.eachSeries(drilldown.def, function (path, done) {
    var field = req.list.fields[path];
    var refList = field.refList;
    refList.model.findById(item.get(field.path)).exec(done);
  });
  async.map(req.body.items, function (data, done) {
    req.list.model.findById(data.id, done);
  });
};
"#,
        );
        assert_eq!(lines(&got), vec![9], "{got:?}");
    }

    #[test]
    fn a_model_a_call_returns_for_the_item_may_be_another_collection_each_time() {
        // Replaying log entries, each on the model it names: the receiver is a call given a name
        // the loop's body reads from the item (or the item itself), so each pass may reach
        // another collection. A call given a name bound before the loop, or bound in the loop
        // without the item, still counts.
        let got = findings(
            "revert.ts",
            r#"export async function revert(entries, conn, kinds, fixedName) {
  for (const entry of entries) {
    const name = entry.payload?.modelName || entry.contentType;
    const doc = (await conn
      .model<Record<string, unknown>>(name)
      .findById(entry.docId)
      .lean()) as Record<string, unknown> | null;
  }
  for (const kind of kinds) {
    await getOwnerCollection(kind).find({ active: true }).toArray();
  }
  for (const entry of entries) {
    await conn.model(fixedName).findById(entry.docId);
  }
  for (const entry of entries) {
    const other = fixedName + "s";
    await conn.model(other).findById(entry.docId);
  }
}
"#,
        );
        assert_eq!(lines(&got), vec![13, 17], "{got:?}");
    }

    /// The keys of an object written in the code are a fixed list (`Object.keys(STATUSES)`); the
    /// keys of a request's object are data (erxes's vouchers per product of `checkInfo`, HyperDX's
    /// alerts per tile of `alertsByTile`).
    #[test]
    fn the_keys_of_a_data_object_are_data() {
        let got = findings(
            "vouchers.js",
            r#"const { MongoClient } = require("mongodb");
const db = client.db("shop");
async function check(checkInfo) {
  for (const productId of Object.keys(checkInfo)) {
    await db.collection("vouchers").findOne({ _id: checkInfo[productId].voucherId });
  }
  for (const [state, n] of Object.entries(STATUSES)) {
    await db.collection("orders").countDocuments({ state });
  }
  for (const k of Object.keys({ a: 1, b: 2 })) {
    await db.collection("orders").findOne({ k });
  }
}
"#,
        );
        assert_eq!(lines(&got), vec![5], "{got:?}");
    }

    /// A read in an inner loop keyed on the outer loop's item (biothings' differ: a document
    /// looked up per update, inside the loop over its patches) repeats per patch but changes per
    /// update: one query per item of the outer loop. Not when no loop around changes it, when the
    /// loop where it changes is a `while`, or when a function (not a loop's callback) runs it.
    #[test]
    fn a_read_keyed_on_an_outer_loop_s_item_runs_once_per_item_of_that_loop() {
        let py = findings(
            "differ.py",
            r#"from pymongo import MongoClient
db = MongoClient()["hub"]
def fix(data, uid):
    for updt in data["update"]:
        for patch in updt["patch"]:
            if patch["op"] == "remove":
                print(db.cold.find_one({"_id": updt["_id"]}))
            print(db.users.find_one({"_id": uid}))
    for org in data["orgs"]:
        for team in org["teams"]:
            for member in team["members"]:
                print(db.teams.find_one({"_id": team["_id"]}), member)
    while True:
        updt = next_update()
        for patch in updt["patch"]:
            print(db.cold.find_one({"_id": updt["_id"]}), patch)
"#,
        );
        let got: Vec<(usize, &str)> = py
            .iter()
            .map(|(l, m, _)| (*l, m.rsplit("item of ").next().unwrap()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    7,
                    "`data[\"update\"]`: N+1 queries, an application-side join"
                ),
                (
                    12,
                    "`org[\"teams\"]`: N+1 queries, an application-side join"
                ),
            ],
            "{py:?}"
        );
        let js = findings(
            "fix.js",
            r#"const { MongoClient } = require("mongodb");
const db = new MongoClient(url).db("hub");
async function fix(updates, userId) {
  for (const updt of updates) {
    for (const patch of updt.patches) {
      await db.collection("cold").findOne({ _id: updt._id });
      await db.collection("users").findOne({ _id: userId });
    }
  }
  updates.forEach((updt) => {
    updt.patches.forEach(async (patch) => {
      await db.collection("cold").findOne({ _id: updt._id });
    });
  });
}
"#,
        );
        assert_eq!(lines(&js), [6, 12], "{js:?}");
        assert!(
            js.iter().all(|(_, m, _)| m.contains("item of `updates`")),
            "{js:?}"
        );
    }

    /// zaqar's health report counts each partition's `messages` collection: the receiver is
    /// the loop's item, or a name bound from it, so each pass reaches another collection (as in
    /// JavaScript). The documents of a query's results are one collection's, whatever the item.
    #[test]
    fn a_python_receiver_taken_from_the_item_is_another_collection_each_time() {
        let py = findings(
            "driver.py",
            r#"import pymongo
from app.models import SavedSearch
def health(databases, cols, specs, client):
    for db in [d for d in databases]:
        print(db.messages.count_documents({}))
    for col in cols:
        print(col.count_documents({}))
    for spec in specs:
        coll = client.app[spec["name"]]
        print(coll.count_documents({}))
    for search in SavedSearch.objects(dashboard=1):
        search.update(unset__col=1)
    for uid in cols:
        print(client.app.users.find_one({"_id": uid}))
"#,
        );
        assert_eq!(lines(&py), [12, 14], "{py:?}");
    }

    /// superdesk's resource services (liveblog): a service got by a name from the loop's item,
    /// inline or through names the loop binds from it, may be another collection each time; a
    /// service named by a literal is one collection, read once per item.
    #[test]
    fn a_python_service_got_by_the_item_s_name_is_another_collection_each_time() {
        let py = findings(
            "posts.py",
            r#"import pymongo
from superdesk import get_resource_service
def related_items_map(ids_by_service):
    for service_name, ids in ids_by_service.items():
        for item in get_resource_service(service_name).find({"_id": {"$in": ids}}):
            print(item)
def load_refs(refs):
    for ref in refs:
        service_name = ref.get("location", "archive")
        service = get_resource_service(service_name)
        ref["item"] = service.find_one(req=None, _id=ref["residRef"])
def per_ref(refs):
    for ref in refs:
        ref["item"] = get_resource_service("archive").find_one(req=None, _id=ref["residRef"])
"#,
        );
        assert_eq!(lines(&py), [14], "{py:?}");
    }

    /// A receiver named for a collection (scout's `store.variant_collection`, an attribute set
    /// in another module) makes its `find` a read, so a loop over its results or a read per case
    /// is reported; a loop whose item is the whole query (fiftyone's pooled aggregations, `for
    /// pipeline, hint in zip(pipelines, hints)`) runs a batch of different queries: not reported.
    #[test]
    fn python_collection_named_receivers_and_loops_over_queries() {
        let py = findings(
            "adapter.py",
            r#"import pymongo
from app.extensions import store
def counts(cases):
    for case in cases:
        variants = store.variant_collection.find({"case_id": case["_id"]})
def pooled(collection, pipelines, hints):
    return [collection.aggregate(pipeline, hint=hint) for pipeline, hint in zip(pipelines, hints)]
def per_case(collection, cases):
    return [collection.aggregate([{"$match": {"case": c}}]) for c in cases]
"#,
        );
        assert_eq!(lines(&py), [5, 9], "{py:?}");
    }

    #[test]
    fn iterables_literals_while_loops_and_batches_stay_quiet() {
        // (Ids are read past keyword arguments: langchain-mongodb's `zip(.., strict=True)`.)
        assert!(super::ids_like("zip(keys, group_ids, strict=True)"));
        assert!(super::ids_like("zip(keys, group_ids, strict = True)"));
        assert!(super::ids_like("req.body.order_ids"));
        assert!(!super::ids_like("zip(group_ids, keys)"));
        assert!(!super::ids_like("ids == other"));
        let got = findings(
            "jobs.js",
            r#"const { MongoClient } = require("mongodb");
const db = client.db("shop");
await db.collection("orders").find({}).forEach((o) => console.log(o));
for (const name of ["orders", "users"]) {
  await db.collection(name).createIndex({ createdAt: 1 });
  await db.collection(name).countDocuments({});
}
while (more) {
  const batch = await db.collection("events").find({ _id: { $gt: last } }).limit(100).toArray();
}
for (let i = 0; i < 3; i++) { await db.collection("x").findOne({ n: i }); }
await db.collection("products").bulkWrite(items.map((i) => ({ updateOne: { filter: { _id: i.id }, update: { $set: { a: 1 } } } })));
"#,
        );
        assert!(got.is_empty(), "{got:?}");
    }

    /// A list written in the code joined to a parameter (alerta's `for match in [login] +
    /// matches`, `[owner].concat(members)`) iterates over the parameter's items; two written
    /// lists joined are still fixed.
    #[test]
    fn a_written_list_joined_to_data_is_no_fixed_iteration() {
        let py = findings(
            "auth.py",
            r#"from pymongo import MongoClient
db = MongoClient().app
def customers(login, matches):
    for match in [login] + matches:
        db.customers.find_one({"match": match})
    for match in ["admin"] + ["root"]:
        db.customers.find_one({"match": match})
"#,
        );
        assert_eq!(lines(&py), vec![5], "{py:?}");
        let js = findings(
            "team.js",
            r#"const { MongoClient } = require("mongodb");
async function f(db, owner, members) {
  for (const id of [owner].concat(members)) {
    await db.collection("users").findOne({ _id: id });
  }
  for (const id of ["a", "b"].concat(["c"])) {
    await db.collection("users").findOne({ _id: id });
  }
}
"#,
        );
        assert_eq!(lines(&js), vec![4], "{js:?}");
    }

    #[test]
    fn a_call_that_leaves_the_loop_runs_once() {
        // A search: the block around the call ends the loop. A `break` after a check, or a
        // `return` inside a callback (it ends one iteration), does not.
        let js = findings(
            "pay.js",
            r#"const { MongoClient } = require("mongodb");
async function f(db, list, sku, giftTo, ids) {
  for (const p of list) {
    if (p.productId !== sku) continue;
    await db.collection("receipts").findOne({ _id: p.transactionId });
    await db.collection("users").findOne({ _id: giftTo });
    break;
  }
  for (const p of list) {
    if (p.productId === sku) { return db.collection("receipts").findOne({ _id: p.id }); }
  }
  for (const id of ids) {
    const u = await db.collection("users").findOne({ _id: id });
    if (u) break;
  }
  ids.forEach(async (id) => { await db.collection("users").findOne({ _id: id }); return; });
}
"#,
        );
        assert_eq!(
            js.iter().map(|f| f.0).collect::<Vec<_>>(),
            vec![13, 16],
            "{js:?}"
        );
        let py = findings(
            "pay.py",
            r#"from pymongo import MongoClient
db = MongoClient().app
def f(items, sku, ids):
    for p in items:
        if p["sku"] == sku:
            db.receipts.find_one({"_id": p["id"]})
            break
    for i in ids:
        u = db.users.find_one({"_id": i})
        if u:
            return u
    for item in items:
        user = db.users.find_one({"name": item["name"]})
        if user and user["pw"] == item["pw"]:
            return user
        abort(401)
    for item in items:
        db.users.find_one({"name": item["name"]})
        log(401)
"#,
        );
        // (Flask's `abort(401)` raises: the loop reads once; `log(..)` returns.)
        assert_eq!(
            py.iter().map(|f| f.0).collect::<Vec<_>>(),
            vec![9, 18],
            "{py:?}"
        );
    }

    #[test]
    fn names_bound_to_a_written_list_are_fixed_iterations() {
        // A name bound once to a list written in the code is a handful of fixed iterations (one
        // query per email field, per time window); a list filled in later, or a parameter, may be
        // data.
        let js = findings(
            "admin.js",
            r#"const { MongoClient } = require("mongodb");
const emailFields = ["auth.local.email", "auth.google.email"];
async function lookup(db, email, ids) {
  for (const field of emailFields) {
    await db.collection("users").findOne({ [field]: email });
  }
  const modes = ["draft", "published"];
  modes.forEach(async (mode) => { await db.collection("docs").findOne({ mode }); });
  const list = [];
  list.push(...ids);
  for (const id of list) { await db.collection("docs").findOne({ _id: id }); }
  let grown = ["a"];
  grown = ids;
  for (const id of grown) { await db.collection("docs").findOne({ _id: id }); }
}
// erxes: the three parents of a closing entry, and a migration's codes with a constant set's.
const SUB_CODES = new Set(["A", "B"]);
const codes = ["EBARIMT", ...SUB_CODES, "ERKHET"];
async function closing(db, entry, ids) {
  const parentIds = [entry.closePeriodTrId, entry.earningTrId].filter((p) => Boolean(p));
  for (const parentId of parentIds) { await db.collection("tx").findOne({ parentId }); }
  for (const code of codes) { await db.collection("configs").findOne({ code }); }
  const mixed = [entry.id, ...ids];
  for (const id of mixed) { await db.collection("tx").findOne({ _id: id }); }
  const picked = ids.filter((i) => Boolean(i));
  for (const id of picked) { await db.collection("tx").findOne({ _id: id }); }
}
"#,
        );
        // A list written in the code stays fixed when filtered, or when it spreads another such
        // list (a `Set` of one included); spreading a parameter, or filtering one, is data.
        assert_eq!(
            js.iter().map(|f| f.0).collect::<Vec<_>>(),
            vec![11, 14, 24, 26],
            "{js:?}"
        );
        // An object written in the code with constant keys, iterated through `Object.entries`,
        // `Object.keys` or `Object.values`, or by `for .. in`, is fixed too; one its scope changes,
        // one that spreads another, or a parameter is data.
        let js = findings(
            "cv.js",
            r#"const { MongoClient } = require("mongodb");
const LOCAL_CV = { place: "locators", "calendars": "event_calendars" };
async function parse(db, event, extra) {
  for (const [field, cv] of Object.entries(LOCAL_CV)) {
    await db.collection("vocabularies").findOne({ _id: cv });
  }
  for (const field in LOCAL_CV) {
    await db.collection("vocabularies").findOne({ _id: LOCAL_CV[field] });
  }
  const cvs = { place: "locators" };
  cvs[extra] = extra;
  for (const k of Object.keys(cvs)) {
    await db.collection("vocabularies").findOne({ _id: cvs[k] });
  }
  const spread = { place: "locators", ...extra };
  for (const v of Object.values(spread)) {
    await db.collection("vocabularies").findOne({ _id: v });
  }
  for (const v of Object.values(extra)) {
    await db.collection("vocabularies").findOne({ _id: v });
  }
}
"#,
        );
        assert_eq!(
            js.iter().map(|f| f.0).collect::<Vec<_>>(),
            vec![13, 17, 20],
            "{js:?}"
        );
        let py = findings(
            "trend.py",
            r#"from pymongo import MongoClient
db = MongoClient().app
active_dateranges = [DateRange.alltime(), DateRange.currently()]
def stats(uid, user_ids):
    for daterange in active_dateranges:
        db.user_history.aggregate([{"$match": daterange.match({"uid": uid})}])
    acc = [1]
    acc.append(2)
    for x in acc:
        db.user_history.find_one({"uid": x})
    for u in user_ids:
        db.user_history.find_one({"uid": u})
    legacy = {"staging", "production"}
    for name in legacy:
        db.users.find_one({"username": name})
    grown = {"staging"}
    grown.add(uid)
    for name in grown:
        db.users.find_one({"username": name})
    merged = {"staging"}
    merged.update(user_ids)
    for name in merged:
        db.users.find_one({"username": name})
def check_refs(value):
    if not isinstance(value, list):
        value = [value]
    for item in value:
        db.products.find_one({"_id": item})
"#,
        );
        // A set written in the code (kernelci's legacy user names) is as fixed as a list; one
        // the scope adds to is data. So is a parameter bound again to a list of itself (eve's
        // `data_relation` check): on the other path it is the caller's list.
        assert_eq!(
            py.iter().map(|f| f.0).collect::<Vec<_>>(),
            vec![10, 12, 19, 23, 28],
            "{py:?}"
        );
        // superdesk-planning's event ingest: one vocabulary per entry of a dict written in the
        // code with constant keys, iterated itself or through `.keys()`, `.values()`, `.items()`.
        // A dict the scope changes (`cvs[k] = ..`, `cvs.update(..)`) or keyed at run time is data.
        let py = findings(
            "feed_parsers/event_json.py",
            r#"from pymongo import MongoClient
db = MongoClient().news
LOCAL_CV = {"place": "locators", "calendars": "event_calendars"}
def parse(event):
    assign_from_local_cv = {
        "anpa_category": "categories",
        "place": "locators",
    }
    for field in assign_from_local_cv.keys():
        db.vocabularies.find_one({"_id": assign_from_local_cv[field]})
    for field, cv in assign_from_local_cv.items():
        db.vocabularies.find_one({"_id": cv})
    for field in LOCAL_CV:
        db.vocabularies.find_one({"_id": LOCAL_CV[field]})
def grown(event, extra):
    cvs = {"place": "locators"}
    cvs[extra] = extra
    for field in cvs:
        db.vocabularies.find_one({"_id": cvs[field]})
def updated(event, extra):
    cvs = {"place": "locators"}
    cvs.update(extra)
    for field, cv in cvs.items():
        db.vocabularies.find_one({"_id": cv})
def keyed(event, extra):
    cvs = {extra: "locators"}
    for field, cv in cvs.values():
        db.vocabularies.find_one({"_id": cv})
def py2(event, extra):
    for field, cv in six.iteritems(LOCAL_CV):
        db.vocabularies.find_one({"_id": cv})
    for field, cv in LOCAL_CV.iteritems():
        db.vocabularies.find_one({"_id": cv})
    for field, cv in six.iteritems(extra):
        db.vocabularies.find_one({"_id": cv})
"#,
        );
        // (StackStorm's `for name, field in six.iteritems(SUPPORTED_FILTERS)`, Python 2's
        // spelling, is the same fixed dict.)
        assert_eq!(
            py.iter().map(|f| f.0).collect::<Vec<_>>(),
            vec![19, 24, 28, 35],
            "{py:?}"
        );
    }

    #[test]
    fn lists_read_from_configuration_are_fixed_iterations() {
        // pritunl's `poolers/dh_params.py`: one count per configured key size. A list read from
        // the settings, the configuration or the environment, directly or through a name bound
        // once to it, is a handful of values fixed per deployment; a list of a user's settings,
        // a function's options, a configuration list extended with data, or the documents of a
        // `Settings` model are data.
        let py = findings(
            "poolers/dh_params.py",
            r#"from pymongo import MongoClient
import os
from flask import current_app
db = MongoClient().app
class settings: dh_param_bits_pool = [2048]
def fill_pool(user, options, extra):
    for bits in settings.dh_param_bits_pool:
        db.dh_params.count_documents({"dh_param_bits": bits})
    for host in os.environ["HOSTS"].split(","):
        db.hosts.find_one({"host": host})
    for region in current_app.config.get("REGIONS", []):
        db.regions.find_one({"name": region})
    pools = settings.app.pools
    for pool in pools:
        db.pools.find_one({"name": pool})
    for fav in user.settings.favorites:
        db.items.find_one({"_id": fav})
    for i in options.ids:
        db.items.find_one({"_id": i})
    more = settings.app.pools
    more.extend(extra)
    for pool in more:
        db.pools.find_one({"name": pool})
    for s in Settings.objects:
        db.pools.find_one({"name": s.name})
"#,
        );
        assert_eq!(
            py.iter().map(|f| f.0).collect::<Vec<_>>(),
            vec![17, 19, 23, 25],
            "{py:?}"
        );
        let js = findings(
            "pools.js",
            r#"const { MongoClient } = require("mongodb");
async function fill(db, config, user) {
  for (const p of config.pools) {
    await db.collection("pools").countDocuments({ pool: p });
  }
  const hosts = process.env.HOSTS.split(",");
  for (const h of hosts) {
    await db.collection("hosts").findOne({ host: h });
  }
  for (const f of user.settings.favorites) {
    await db.collection("items").findOne({ _id: f });
  }
}
"#,
        );
        assert_eq!(
            js.iter().map(|f| f.0).collect::<Vec<_>>(),
            vec![11],
            "{js:?}"
        );
    }

    #[test]
    fn a_configuration_list_with_an_empty_fallback_is_fixed() {
        // mist.api's `tasks.py`: `try: steps = config.X.get(cloud_id, []) except AttributeError:
        // steps = []`, then one query per configured step. Assigned twice, each time to a
        // configuration list or an empty one: still fixed. A name that may also be bound to a
        // query's results is data.
        let py = findings(
            "provision.py",
            r#"import mongoengine as me
from app import config
class Token(me.Document):
    value = me.StringField()
def provision(region):
    try:
        hooks = config.REGION_HOOKS.get(region, [])
    except AttributeError:
        hooks = []
    for hook in hooks:
        Token.objects.get(id=hook["token"])
    found = []
    if region:
        found = Token.objects(value=region)
    for t in found:
        Token.objects.get(id=t.value)
"#,
        );
        assert_eq!(
            py.iter().map(|f| f.0).collect::<Vec<_>>(),
            vec![16],
            "{py:?}"
        );
    }

    #[test]
    fn a_fixed_loop_inside_a_loop_over_data_repeats_the_call_per_item() {
        // scout's variant hits: one read per gene of a panel and per category of a constant
        // list. The inner loop is a handful of fixed iterations, but the loop around it walks
        // data: the call runs once per gene (times the categories), and the finding names the
        // genes. A `break` leaves the inner loop only. Alone, the fixed loop is not flagged; a
        // comprehension or a spread is data, not a list written in the code.
        let py = findings(
            "panels/controllers.py",
            r#"from pymongo import MongoClient
db = MongoClient().app
CATEGORIES = ["str", "dark_regions"]
def hits(case, panel):
    q = {"case_id": case["_id"]}
    for gene in panel.get("genes", []):
        q["hgnc_ids"] = gene["hgnc_id"]
        for cat in CATEGORIES:
            q["category"] = cat
            db.variant.find_one(q)
def first(panel):
    for gene in panel.get("genes", []):
        for cat in CATEGORIES:
            if gene["cat"] == cat:
                db.variant.find_one({"gene": gene["id"], "cat": cat})
                break
def only(panel):
    for cat in CATEGORIES:
        db.variant.find_one({"cat": cat})
def built(rows):
    for r in [r for r in rows if r]:
        db.variant.find_one({"_id": r})
"#,
        );
        assert_eq!(lines(&py), vec![10, 15, 22], "{py:?}");
        assert!(py[0].1.contains("`panel.get(\"genes\", [])`"), "{py:?}");
        let js = findings(
            "kinds.js",
            r#"const { MongoClient } = require("mongodb");
const KINDS = ["a", "b"];
async function f(db, ids) {
  for (const id of ids) {
    for (const kind of KINDS) {
      await db.collection("x").findOne({ _id: id, kind });
    }
  }
  for (const id of [...ids]) {
    await db.collection("x").findOne({ _id: id });
  }
}
"#,
        );
        assert_eq!(lines(&js), vec![6, 10], "{js:?}");
        assert!(js[0].1.contains("`ids`"), "{js:?}");
    }

    #[test]
    fn a_query_in_the_header_of_a_nested_loop_runs_once_per_outer_item() {
        // The iterable of a loop is evaluated once, before its first iteration: a query written
        // there belongs to the loop around it (one `find` of cards per board), and the outer
        // query is the one whose results are walked. Alone, or under a loop over a written
        // list, it is not a query per item; nor when the outer loop stops after it.
        let py = findings(
            "boards.py",
            r#"from pymongo import MongoClient
db = MongoClient().app
def cards():
    for board in db["boards"].find():
        for card in db["cards"].find({"boardId": board["_id"]}):
            pass
    for board in db.boards.find():
        titles = [c["title"] for c in db.cards.find({"boardId": board["_id"]})]
    for card in db.cards.find({}):
        pass
    for kind in ["a", "b"]:
        for card in db.cards.find({"kind": kind}):
            pass
    for board in db.boards.find():
        if board["main"]:
            for card in db.cards.find({"boardId": board["_id"]}):
                pass
            break
"#,
        );
        assert_eq!(
            py.iter().map(|f| (f.0, f.2)).collect::<Vec<_>>(),
            vec![(5, 2), (8, 2)],
            "{py:?}"
        );
        assert!(py[0].1.contains("`db[\"boards\"].find()`"), "{py:?}");
        let js = findings(
            "boards.js",
            r#"const { MongoClient } = require("mongodb");
async function cards(db) {
  for await (const b of db.collection("boards").find()) {
    for await (const c of db.collection("cards").find({ boardId: b._id })) {
      console.log(c);
    }
  }
  for (const b of await db.collection("boards").find().toArray()) {
    for (const c of await db.collection("cards").find({ boardId: b._id }).toArray()) {
      console.log(c);
    }
  }
  for (const c of await db.collection("cards").find({}).toArray()) {
    console.log(c);
  }
}
"#,
        );
        assert_eq!(
            js.iter().map(|f| (f.0, f.2)).collect::<Vec<_>>(),
            vec![(4, 2), (9, 2)],
            "{js:?}"
        );
    }

    #[test]
    fn a_loop_over_a_name_bound_to_a_query_walks_its_results() {
        // Sefaria's sheets: the cursor is bound to a name first, then walked. As with the query
        // written in the loop's header, a write per result is flagged, with the query as the
        // outer one. Not a name bound to one document, nor one bound twice, nor one bound in
        // another function.
        let py = findings(
            "sheets.py",
            r#"from pymongo import MongoClient
db = MongoClient().sefaria
cursor = db.sheets.find({})
def a(uid):
    sheets = db.sheets.find({"owner": uid})
    for s in sheets:
        db.sheets.replace_one({"_id": s["_id"]}, s)
def b(uid):
    for s in db.sheets.find({"owner": uid}):
        db.sheets.replace_one({"_id": s["_id"]}, s)
def c(uid):
    owners = list(db.sheets.aggregate([{"$match": {"owner": uid}}]))
    for o in owners:
        db.profiles.update_one({"_id": o["_id"]}, {"$set": {"n": 1}})
def d(uid):
    profile = db.profiles.find_one({"_id": uid})
    for key in profile:
        db.profiles.update_one({"_id": uid}, {"$unset": {key: 1}})
    sheets = db.sheets.find({"owner": uid})
    sheets = filter(keep, other)
    for s in sheets:
        db.sheets.replace_one({"_id": s["_id"]}, s)
    for s in cursor:
        db.sheets.replace_one({"_id": s["_id"]}, s)
"#,
        );
        assert_eq!(
            py.iter().map(|f| (f.0, f.2)).collect::<Vec<_>>(),
            vec![(7, 2), (10, 2), (14, 2)],
            "{py:?}"
        );
        let js = findings(
            "sheets.js",
            r#"const { MongoClient } = require("mongodb");
async function a(db, q) {
  const coll = db.collection("sheets");
  const docs = await coll.find(q).toArray();
  for (const d of docs) await coll.updateOne({ _id: d._id }, { $set: { a: 1 } });
  docs.forEach((d) => coll.updateOne({ _id: d._id }, { $set: { a: 1 } }));
  const one = await coll.findOne(q);
  for (const k of Object.getOwnPropertyNames(one)) await coll.updateOne({ _id: one._id }, { $unset: { [k]: 1 } });
  let rows = await coll.find(q).toArray();
  rows = rows.filter(keep);
  for (const r of rows) await coll.updateOne({ _id: r._id }, { $set: { a: 1 } });
}
"#,
        );
        assert_eq!(
            js.iter().map(|f| (f.0, f.2)).collect::<Vec<_>>(),
            vec![(5, 2), (6, 2)],
            "{js:?}"
        );
    }

    /// A filter that is the loop's item spread with more keys (apostrophe's replication: `for
    /// (const criterion of criteria) find({ ...criterion, aposLocale })`, the criteria built from
    /// configuration) is a batch of different queries. Not a spread of something else, nor a
    /// filter keyed on the item.
    #[test]
    fn a_filter_spread_from_the_item_is_a_batch_of_queries() {
        let js = findings(
            "modules/doc/index.js",
            r#"const { MongoClient } = require("mongodb");
const db = new MongoClient(process.env.URL).db();
async function replicate(criteria, locales, base) {
  for (const criterion of criteria) {
    await db.collection("docs").find({ ...criterion, aposLocale: { $in: locales } }).toArray();
    await db.collection("docs").find({ ...base, parkedId: criterion.parkedId }).toArray();
  }
}
"#,
        );
        assert_eq!(lines(&js), vec![6], "{js:?}");
        let py = findings(
            "replicate.py",
            r#"from pymongo import MongoClient
db = MongoClient().cms
def replicate(criteria, locales):
    for criterion in criteria:
        db.docs.find_one({**criterion, "locale": {"$in": locales}})
        db.docs.find_one({"parkedId": criterion["parkedId"]})
"#,
        );
        assert_eq!(lines(&py), vec![6], "{py:?}");
    }

    #[test]
    fn the_same_read_on_every_iteration_is_no_query_per_item() {
        // superdesk's duplication: the id comes from the request, read before the loop, and each
        // iteration reads the same document again. One query repeated (it could move out of the
        // loop), not one per item: no application-side join to replace with `$in`. A read whose
        // query the loop changes is still flagged: the loop's variable, a name the loop assigns
        // after the call (the next iteration sees it), a document filled in place or a list
        // appended to. A write with the same arguments each time is flagged where it adds again
        // (`$inc`), not where it changes nothing the first did not (`$set`, a delete).
        let py = findings(
            "apps/duplication.py",
            r#"from pymongo import MongoClient
db = MongoClient().news
def copy(request):
    guid = request.view_args["guid"]
    docs = db.items.find({"state": "new"})
    for doc in docs:
        original = db.archive.find_one({"_id": guid})
        db.archive.find_one({"_id": "locators"})
        db.users.find_one({"name": get_default_user()["name"]})
        db.archive.find_one({"_id": doc["ref"]})
def rebuilt():
    q = {}
    for doc in db.items.find({}):
        q["_id"] = doc["ref"]
        db.archive.find_one(q)
def previous():
    prev = None
    for doc in db.items.find({}):
        db.archive.find_one({"_id": prev})
        prev = doc["ref"]
def appended():
    ids = []
    for doc in db.items.find({}):
        ids.append(doc["ref"])
        db.archive.find({"_id": {"$in": ids}})
def written(guid):
    for doc in db.items.find({}):
        db.archive.update_one({"_id": guid}, {"$inc": {"n": 1}})
def items_of(self):
    for doc in db.items.find({}):
        self.current = doc
        db.archive.find_one({"_id": self.current["ref"]})
def paged(q, numbers):
    for page in numbers:
        list(db.items.find(q).skip(page * 10))
def sorted_cursor(q, docs):
    for doc in docs:
        db.items.find(q).sort("x")
def totals(doc, items):
    for item in items:
        doc["total"] = item["n"]
        db.users.find_one({"_id": doc["customer_id"]})
        db.users.find_one({"n": doc.get("total")})
        db.users.find_one({"n": doc["total"]})
def set_again(guid):
    for doc in db.items.find({}):
        db.archive.update_one({"_id": guid}, {"$set": {"seen": True}})
        db.archive.delete_one({"_id": guid})
"#,
        );
        // A modifier chained onto the read (`.skip(page * 10)`) is part of its query; sorting
        // the cursor it returns changes nothing the loop reads. Changing one key of a document
        // (`doc["total"]`) changes reads of that key, and of the whole document through a method
        // (`doc.get(..)`), not of another key (`doc["customer_id"]`).
        assert_eq!(
            lines(&py),
            vec![10, 15, 19, 25, 28, 32, 35, 43, 44],
            "{py:?}"
        );
    }

    #[test]
    fn the_same_read_on_every_iteration_is_no_query_per_item_in_javascript() {
        // erxes: the user of the request, the order's customer, a sync log fetched before the
        // loop, read again for every item; and the result of such a read (`prev`), which does
        // not change either; nor the same write that leaves the documents as the first left
        // them (a `$set`, Mongoose's fields without an operator, a delete: erxes' subscription
        // status set once per order item). Still flagged: the loop's variable and what is bound
        // from it, a callback's parameter, a filter filled in place or pushed to, a name the
        // loop assigns after the call, a chained modifier that reads the item, a write that adds
        // again (`$inc`), and a read inside a function of its own.
        let js = findings(
            "services/orders.ts",
            r#"import mongoose from "mongoose";
const Users = mongoose.model("User", new mongoose.Schema({}));
const Orders = mongoose.model("Order", new mongoose.Schema({}));
const OrderItems = mongoose.model("OrderItem", new mongoose.Schema({}));
const Logs = mongoose.model("Log", new mongoose.Schema({}));
export async function handle(userId, doc, items, activities, syncLog) {
  doc.totalAmount = 0;
  for (const { kind, target } of activities) {
    doc.totalAmount += 1;
    const user = await Users.findOne({ _id: userId });
    const prev = await Orders.findOne({ customerId: doc?.customerId }).sort({ createdAt: -1 }).lean();
    const first = await OrderItems.findOne({ orderId: prev._id, closeDate: { $gte: new Date() } });
    await Logs.findOne({ _id: syncLog._id });
    await Users.findOne({ _id: target });
    const ref = kind.ref;
    await Orders.findOne({ ref });
  }
  items.forEach(async (item) => {
    await OrderItems.find({ orderId: item.orderId });
    await Users.findOne({ _id: userId });
  });
  const q = {};
  let last = null;
  const ids = [];
  for (const item of items) {
    q.orderId = item.orderId;
    await Orders.findOne(q);
    ids.push(item.id);
    await Orders.find({ _id: { $in: ids } });
    await Orders.findOne({ _id: last });
    last = item.id;
    await Orders.find({ owner: userId }).skip(item.n);
    const load = async () => Users.findOne({ _id: userId });
  }
  for (const order of await Orders.find({ open: true })) {
    await Users.updateOne({ _id: userId }, { $inc: { seen: 1 } });
    await Users.updateOne({ _id: userId }, { $set: { seen: true } });
    await Orders.updateOne({ _id: doc.prevId }, { 'status': 'done' });
    await Logs.deleteOne({ _id: syncLog._id });
  }
}
"#,
        );
        assert_eq!(
            lines(&js),
            vec![14, 16, 19, 27, 29, 30, 32, 33, 36],
            "{js:?}"
        );
    }

    #[test]
    fn a_lookup_made_while_a_name_is_empty_is_no_query_per_item() {
        // superdesk's mentions: `if not item: item = ..find_one(..)` keeps the first document it
        // gets, so the read stops once one is found. Not when the loop empties the name each time,
        // nor when the read fills another name.
        let py = findings(
            "apps/mentions.py",
            r#"from pymongo import MongoClient
db = MongoClient().news
def a(docs):
    item = None
    for doc in docs:
        if not item:
            item = db.archive.find_one({"_id": doc["item"]})
def b(docs):
    for doc in docs:
        item = None
        if not item:
            item = db.archive.find_one({"_id": doc["item"]})
def c(docs):
    user = None
    for doc in docs:
        if user is None:
            user = db.users.find_one({"_id": doc["user"]})
def d(docs):
    user = None
    for doc in docs:
        if user is None:
            other = db.users.find_one({"_id": doc["user"]})
"#,
        );
        assert_eq!(lines(&py), vec![12, 22], "{py:?}");
    }

    #[test]
    fn python_and_rust_loops() {
        let py = findings(
            "app/views.py",
            r#"from pymongo import MongoClient
db = MongoClient().shop
for order in db.orders.find({"status": "open"}):
    db.customers.find_one({"_id": order["customer_id"]})
names = [db.users.find_one({"_id": i}) for i in user_ids]
for i in range(3):
    db.pings.insert_one({"n": i})
tasks = db.tasks
for state in CALL_STATES:
    db.tasks.count_documents({"state": state})
for state in constants.CALL_STATES:
    db.tasks.count_documents({"state": state})
for state in states:
    db.tasks.count_documents({"state": state})
for page in paginate(user_ids):
    db.users.find({"_id": {"$in": page}})
for user in users:
    db.posts.find({"tags": {"$in": user.tags}})
for group in misc.paginate(units):
    ids = [u.id for u in group]
    db.units.find({"_id": {"$in": ids}})
for group in groups:
    ids = [u.id for u in group]
    db.units.find({"_id": {"$in": ids}})
for klass in Service.__subclasses__():
    db.services.find_one({"name": klass.name})
async def history(params):
    events = await layer.find_by_attributes_nonpaginated(Event, params)
    for event in events:
        spec = node_spec(event)
        db.nodes.find_one(spec)
async def pages(params):
    for page in await layer.find_paginated(Event, params):
        spec = node_spec(page)
        db.nodes.find(spec)
"#,
        );
        // A module constant (`CALL_STATES`) is a fixed list; `states` may be data. A query per
        // page of ids (`$in: page`, or `$in` of ids built from a page of a batching helper) is
        // the batching that N+1 calls for; `$in: user.tags` is not, nor `$in` per item of data.
        // A class's subclasses are code, not data. A query built from a page of a paging
        // helper is one per page; a helper named for not paging (kernelci's
        // `find_by_attributes_nonpaginated`) gives documents, not pages.
        assert_eq!(
            py.iter().map(|f| f.0).collect::<Vec<_>>(),
            vec![4, 5, 14, 18, 24, 31]
        );
        let rs = findings(
            "src/orders.rs",
            r#"use mongodb::{bson::doc, Collection};
async fn totals(orders: Collection<Order>, customers: Collection<Customer>, ids: Vec<ObjectId>) {
    let mut cursor = orders.find(doc! { "open": true }).await?;
    while let Some(o) = cursor.try_next().await? {
        customers.find_one(doc! { "_id": o.customer_id }).await?;
    }
    for id in &ids {
        customers.delete_one(doc! { "_id": id }).await?;
    }
    for name in &["a", "b"] {
        customers.count_documents(doc! { "k": name }).await?;
    }
}
"#,
        );
        assert_eq!(rs.iter().map(|f| f.0).collect::<Vec<_>>(), vec![5, 8]);
        // The loop is over the cursor it advances, and a collection named where it is bound
        // keeps its name beside a type that only says it is a collection (ACTOTA's
        // `let acts: Collection<Activity> = client.database("Options").collection("Activity")`).
        assert!(rs[0].1.contains("once per item of `cursor`"), "{rs:?}");
        let rs = findings(
            "src/favorites.rs",
            r#"use mongodb::{bson::doc, Client, Collection};
async fn favorites(client: &Client, names: Vec<String>) {
    let acts: Collection<Activity> = client.database("Options").collection("Activity");
    for n in names {
        acts.find_one(doc! { "name": &n }, None).await?;
    }
}
"#,
        );
        assert_eq!(rs.len(), 1, "{rs:?}");
        assert!(rs[0].1.contains("`find_one` on `Activity`"), "{rs:?}");
        // The 2.x driver's explicit-session forms (`find_one_with_session(filter, options,
        // session)`, Prisma's older connector) are the same calls.
        let rs = findings(
            "src/posts.rs",
            r#"use mongodb::{bson::doc, ClientSession, Database};
async fn load(db: &Database, session: &mut ClientSession, ids: Vec<Bson>) {
    let posts = db.collection::<Document>("posts");
    for id in ids {
        posts.find_one_with_session(doc! { "_id": id }, None, session).await?;
    }
}
"#,
        );
        assert_eq!(rs.len(), 1, "{rs:?}");
        assert_eq!(rs[0].0, 5);
        assert!(
            rs[0].1.contains("`find_one_with_session` on `posts`"),
            "{rs:?}"
        );
    }

    #[test]
    fn a_value_repeated_a_number_of_times_is_a_count() {
        // openstream's analytics split a date range into 16 batches and read each in parallel:
        // `stream::repeat(()).take(n)` counts like `0..n`, it does not walk data.
        let rs = findings(
            "src/analytics.rs",
            r#"use mongodb::{bson::doc, Collection};
async fn scan(conns: Collection<Conn>, n: usize, step: i64, items: Vec<Item>) {
    let batches = futures_util::stream::repeat(())
        .take(n)
        .enumerate()
        .map(|(i, ())| async move {
            conns.find(doc! { "created_at": { "$gte": step * i as i64 } }).await
        });
    for _ in std::iter::repeat_n((), n) {
        conns.find_one(doc! { "open": true }).await?;
    }
    for item in items.iter().take(n) {
        conns.find_one(doc! { "_id": item.id }).await?;
    }
}
"#,
        );
        assert_eq!(rs.iter().map(|f| f.0).collect::<Vec<_>>(), vec![13]);
        let py = findings(
            "app/probe.py",
            r#"from pymongo import MongoClient
db = MongoClient().shop
for _ in itertools.repeat(None, 3):
    db.pings.find_one({"ok": True})
"#,
        );
        assert!(py.is_empty(), "{py:?}");
    }

    /// A collection named in the loop by an expression the loop does not change (a class's
    /// collection attribute, a parameter, `self.coll`: full-stack-fastapi-mongodb's CRUD, whose
    /// every query goes through `db[self.model.__collection__]`) is one collection on every
    /// iteration: a query per item of another query's results is reported. A name the loop
    /// binds (its own variable, a name assigned from the item) may be another collection each
    /// time, and is not.
    #[test]
    fn a_collection_named_by_what_the_loop_does_not_change_is_one_collection() {
        let py = findings(
            "app/crud/token.py",
            r#"from pymongo import MongoClient
db = MongoClient()["app"]
class User:
    __collection__ = "user"
async def remove(token_id):
    async for user in db[User.__collection__].find({"refresh_tokens": token_id}):
        await db[User.__collection__].replace_one({"_id": user["_id"]}, user)
def names(coll_name, ids):
    for t in db["tokens"].find({"_id": {"$in": ids}}):
        db[coll_name].find_one({"_id": t["uid"]})
def per_spec(specs):
    for spec in db["specs"].find({}):
        name = spec["coll"]
        db[name].find_one({"_id": spec["ref"]})
"#,
        );
        let lines: Vec<usize> = py.iter().map(|f| f.0).collect();
        assert_eq!(lines, vec![7, 10], "{py:?}");
        assert!(
            py[0]
                .1
                .contains("`replace_one` on the collection named by `User.__collection__`"),
            "{py:?}"
        );
        let js = findings(
            "src/sync.js",
            r#"const { MongoClient } = require("mongodb");
async function copy(db, collName, ids) {
  const docs = await db.collection("tokens").find({ _id: { $in: ids } }).toArray();
  for (const t of docs) { await db.collection(collName).findOne({ _id: t.uid }); }
  for (const t of docs) { const n = t.coll; await db.collection(n).findOne({ _id: t.uid }); }
  for (const name of await db.listCollectionNames()) { await db.collection(name).deleteMany({}); }
}
module.exports = { copy };
"#,
        );
        assert_eq!(
            js.iter().map(|f| f.0).collect::<Vec<_>>(),
            vec![4],
            "{js:?}"
        );
    }
}
