use super::{Rule, RuleContext, RuleMeta};
use crate::diagnostic::{Finding, Related, Severity};
use crate::model::{IndexDecl, KeyKind};

pub struct RedundantIndex;

static META: RuleMeta = RuleMeta {
    id: "redundant-index",
    name: "RedundantIndex",
    summary:
        "An index whose keys are a prefix of another index on the same collection, or a duplicate",
    default_severity: Severity::Warning,
    precision: "high",
    tags: &["mongodb", "indexes", "performance", "cross-file"],
    doc: include_str!("../../rules/redundant-index.md"),
};

/// How `short` relates to `long`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cover {
    Duplicate,
    Prefix,
    /// The same keys, each in the other direction (`{ts: -1}` beside `{ts: 1}`): an index is
    /// walked either way, so one serves every query and sort the other does.
    Inverted,
}

fn redundant_index_diagnostic(
    collection: &str,
    short: &IndexDecl,
    long: &IndexDecl,
    how: Cover,
) -> Finding {
    let message = match how {
        Cover::Duplicate => format!(
            "index {} on {collection} is declared twice: the other declaration creates the same index, so this one is redundant",
            short.keys_text()
        ),
        Cover::Prefix => format!(
            "index {} on {collection} is redundant: its keys are a prefix of {}, which serves every query it serves",
            short.keys_text(),
            long.keys_text()
        ),
        Cover::Inverted => format!(
            "index {} on {collection} is redundant: it is {} in reverse, and an index is walked in either direction, so that one serves every query and sort this one serves",
            short.keys_text(),
            long.keys_text()
        ),
    };
    Finding {
        rule: META.id,
        severity: META.default_severity,
        file: short.site.file,
        span: short.site.span,
        message,
        help: match how {
            // Both declarations create one index: dropping it would drop the only copy.
            Cover::Duplicate => "delete this declaration and keep the other: both create one and the same index, so dropping that index on the server would leave none; two declarations of one index also drift apart (an option added to one makes the other fail or build a second index)".to_string(),
            Cover::Prefix | Cover::Inverted => "drop the redundant index (hide it first with `hideIndex` to check nothing slows down, then drop it); every index costs RAM and slows every write".to_string(),
        },
        related: vec![Related {
            file: long.site.file,
            span: long.site.span,
            message: match how {
                Cover::Duplicate => format!("the same index {}", long.keys_text()),
                Cover::Prefix => format!("covering index {}", long.keys_text()),
                Cover::Inverted => format!("the same keys in reverse: {}", long.keys_text()),
            },
        }],
    }
}

/// Does `long` make `short` redundant?
fn covers(short: &IndexDecl, long: &IndexDecl) -> Option<Cover> {
    if short.dynamic || long.dynamic || short.dropped || long.dropped {
        return None;
    }
    // A mongoengine `primary_key=True` field is the document's `_id`, whose index every
    // collection has: no declaration of an index to drop (clearml-server's `id` fields).
    if short.method == "primary_key" || long.method == "primary_key" {
        return None;
    }
    // One declaration reached twice (two models of one collection deriving from the same mixin)
    // is one index.
    if short.site == long.site {
        return None;
    }
    if short.keys.is_empty() || short.keys.len() > long.keys.len() {
        return None;
    }
    // The shorter index carries something the longer one does not give.
    let s = &short.options;
    if s.unique || s.partial || s.sparse || s.ttl || s.collation || s.hidden {
        let same_options = s.unique == long.options.unique
            && s.partial == long.options.partial
            && s.sparse == long.options.sparse
            && s.ttl == long.options.ttl
            && s.collation == long.options.collation
            && s.hidden == long.options.hidden;
        // Only an exact duplicate with the same options is redundant then.
        if !(same_options && short.keys.len() == long.keys.len()) || s.partial || s.collation {
            return None;
        }
    }
    // The longer index holds fewer documents, or is not used by the planner.
    let l = &long.options;
    if l.partial || l.sparse || l.hidden || l.collation {
        return None;
    }
    // Text, geo, hashed and wildcard indexes are not prefix-usable like B-trees (and compound
    // text/2dsphere indexes skip documents without the special field).
    if short.keys.iter().any(|k| k.kind.is_special())
        || long.keys.iter().any(|k| k.kind.is_special())
    {
        return None;
    }
    let dir = |k: KeyKind| if k == KeyKind::Desc { -1 } else { 1 };
    let pairs = short.keys.iter().zip(&long.keys);
    let mut same = true;
    let mut inverted = true;
    for (a, b) in pairs {
        if a.field != b.field {
            return None;
        }
        same &= dir(a.kind) == dir(b.kind);
        inverted &= dir(a.kind) == -dir(b.kind);
    }
    // A single-field index is served by any index that starts with that field.
    if !(same || inverted || short.keys.len() == 1) {
        return None;
    }
    if short.keys.len() == long.keys.len() {
        if same {
            Some(Cover::Duplicate)
        } else if inverted {
            Some(Cover::Inverted)
        } else {
            None
        }
    } else {
        Some(Cover::Prefix)
    }
}

impl Rule for RedundantIndex {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &RuleContext, out: &mut Vec<Finding>) {
        for c in ctx.model.collections.values() {
            judge(ctx, &c.indexes, &["`", &c.name, "`"].concat(), true, out);
        }
        // The indexes one call creates on a collection mongolint cannot name (showtimes'
        // `user_db.get_collection().create_indexes(vec![..])`) are on one collection whatever
        // its name: compared with each other.
        // (One call's declarations share its method's site; a Rust `create_indexes` gives an
        // operation per `IndexModel`.)
        // So are those that one function creates through one receiver named by a plain path
        // (fiftyone's `coll.create_index("sample_id")` then `coll.create_index([("sample_id",
        // 1), ("frame_number", 1)], unique=True)`), whatever collection it holds.
        let op_of = |d: &IndexDecl| {
            ctx.files
                .get(d.id.file)
                .and_then(|f| f.ir.operations.get(d.id.index))
        };
        let receiver_of = |d: &IndexDecl| {
            op_of(d).and_then(|op| {
                let plain = !op.receiver.is_empty()
                    && op
                        .receiver
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.');
                Some((op.context.function.as_deref()?, op.receiver.as_str())).filter(|_| plain)
            })
        };
        let mut groups: Vec<(&IndexDecl, Option<(&str, &str)>)> = ctx
            .model
            .unresolved_indexes
            .iter()
            .map(|d| (d, receiver_of(d)))
            .collect();
        // (By file, then receiver, else call; declarations in their order.)
        groups.sort_by(|(a, ra), (b, rb)| {
            (
                a.method_site.file,
                ra.is_none(),
                ra,
                a.method_site.span.start,
                a.id,
            )
                .cmp(&(
                    b.method_site.file,
                    rb.is_none(),
                    rb,
                    b.method_site.span.start,
                    b.id,
                ))
        });
        let same = |(a, ra): &(&IndexDecl, Option<(&str, &str)>),
                    (b, rb): &(&IndexDecl, Option<(&str, &str)>)| {
            a.method_site.file == b.method_site.file
                && match (ra, rb) {
                    (Some(x), Some(y)) => x == y,
                    (None, None) => a.method_site == b.method_site,
                    _ => false,
                }
        };
        for group in groups.chunk_by(same) {
            if group.len() < 2 {
                continue;
            }
            let Some(op) = op_of(group[0].0) else {
                continue;
            };
            let ix: Vec<IndexDecl> = group.iter().map(|(d, _)| (*d).clone()).collect();
            // (Two calls of one function that create the same index are one index: the second
            // is a no-op, or recreates it after a `dropIndex`, winston-mongodb's TTL index.)
            let one_call = group
                .iter()
                .all(|(d, _)| d.method_site == group[0].0.method_site);
            judge(ctx, &ix, &crate::rules::collection_label(op), one_call, out);
        }
    }
}

/// Reports each index of `ix` (the declarations for one collection, shown as `collection`) that
/// another of them covers (with `duplicates`, also one declared twice).
fn judge(
    ctx: &RuleContext,
    ix: &[IndexDecl],
    collection: &str,
    duplicates: bool,
    out: &mut Vec<Finding>,
) {
    for (i, short) in ix.iter().enumerate() {
        // The best cover: a strict prefix over a duplicate; for duplicates, only the
        // later declaration is reported (the first one is the index).
        let mut found: Option<(&IndexDecl, Cover)> = None;
        for (j, long) in ix.iter().enumerate() {
            if i == j {
                continue;
            }
            let cover = covers(short, long);
            // Two copies of one application declare their indexes on two databases.
            if cover.is_some() && ctx.are_copies(short.site.file, long.site.file) {
                continue;
            }
            // Where one function creates the covering keys twice with other options (formio's
            // index with a collation, and the same keys without one where the server refuses
            // collations), the two are alternatives, and which one exists is not known.
            let alternatives = !duplicates
                && ix.iter().enumerate().any(|(k, other)| {
                    k != j
                        && other.keys.len() == long.keys.len()
                        && other
                            .keys
                            .iter()
                            .zip(&long.keys)
                            .all(|(a, b)| a.field == b.field && a.kind == b.kind)
                        && other.options.collation != long.options.collation
                });
            if alternatives {
                continue;
            }
            match cover {
                Some(Cover::Prefix) if short.keys.len() < long.keys.len() => {
                    found = Some((long, Cover::Prefix));
                    break;
                }
                Some(Cover::Inverted) if j < i => {
                    found = Some((long, Cover::Inverted));
                    break;
                }
                Some(Cover::Duplicate) if duplicates && j < i && found.is_none() => {
                    // Mongoose `index: true` and `unique: true` on one field are one index.
                    if short.id == long.id && short.site == long.site {
                        continue;
                    }
                    // The same named index created by two setup paths (a fresh install
                    // and a migration): `createIndexes` of an identical index is a
                    // no-op, so both create the one index.
                    // So is an index a maintenance script or a migration creates again
                    // beside the application's own setup (Sefaria's
                    // `scripts/migrate_groups.py`; mist.api's
                    // `migrations/0003-migrate-tags.py`, whose copy of an old model
                    // declares its index): the application's declaration is the one to
                    // keep, and the other runs for deployments made before it.
                    let maintenance = |d: &IndexDecl| {
                        ctx.model.offline_files.contains(&d.site.file)
                            || ctx.model.migration_files.contains(&d.site.file)
                    };
                    // And so is an index two services of a monorepo both declare
                    // with the same options (erxes' plugins, each with its own
                    // `package.json`, on one `configs` model): each declares the index
                    // it relies on, and either may be deployed without the other.
                    let same = short.options == long.options;
                    if short.site.file != long.site.file
                        && ((same
                            && (short.options.name.is_some()
                                || ctx.in_two_projects(short.site.file, long.site.file)))
                            || maintenance(short)
                            || maintenance(long))
                    {
                        continue;
                    }
                    found = Some((long, Cover::Duplicate));
                }
                _ => {}
            }
        }
        if let Some((long, how)) = found {
            out.push(redundant_index_diagnostic(collection, short, long, how));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::Settings;

    fn findings(path: &str, src: &str) -> Vec<(usize, String)> {
        let (_, f) = crate::analysis::check_source(path, src, &Settings::default()).unwrap();
        f.into_iter()
            .filter(|f| f.rule == "redundant-index")
            .map(|f| (src[..f.span.start as usize].lines().count(), f.message))
            .collect()
    }

    /// Two models of one collection deriving from one mixin reach its declaration twice: one
    /// index. A model's own declaration of a mixin's index is a duplicate.
    #[test]
    fn a_mixin_index_reached_through_two_models_is_one_declaration() {
        let src = r#"import mongoengine as me
class Tagged(object):
    tags = me.ListField()
    @classmethod
    def get_indexes(cls):
        indexes = ["tags"]
        return indexes
class Rule(me.Document, Tagged):
    meta = {"collection": "rules", "indexes": ["name"] + Tagged.get_indexes()}
class LegacyRule(me.Document, Tagged):
    meta = {"collection": "rules", "indexes": Tagged.get_indexes()}
class Action(me.Document, Tagged):
    meta = {"indexes": ["tags"] + Tagged.get_indexes()}
"#;
        let got = findings("models.py", src);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(
            got[0].1.contains("{tags: 1} on `action` is declared twice"),
            "{got:?}"
        );
    }

    /// mongoengine merges a `meta` index on exactly a unique field's keys into the field's unique
    /// index: one index. A `meta` index in the other direction, or on more keys, is one more.
    #[test]
    fn a_mongoengine_meta_index_on_a_unique_field_is_that_fields_index() {
        let src = r#"import mongoengine as me
class Tag(me.Document):
    name = me.StringField(required=True, unique=True)
    key_hash = me.StringField(unique=True)
    meta = {"indexes": ["name", {"fields": ["key_hash"]}, "-total"]}
class Role(me.Document):
    name = me.StringField(unique=True)
    meta = {"indexes": ["-name", ("name", "system")]}
"#;
        let got = findings("models.py", src);
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].0, 8, "{got:?}");
        assert!(
            got[0].1.contains("{name: -1} on `role` is redundant"),
            "{got:?}"
        );
    }

    /// A duplicate's help says to delete a declaration: dropping the index would drop the one
    /// index both create. A prefix's says to drop the index.
    #[test]
    fn a_duplicate_is_removed_from_the_code_not_from_the_server() {
        let src = r#"const { MongoClient } = require("mongodb");
const orders = client.db("shop").collection("orders");
await orders.createIndex({ customerId: 1 });
await orders.createIndex({ customerId: 1, createdAt: -1 });
await orders.createIndex({ customerId: 1, createdAt: -1 });
"#;
        let (_, all) = crate::analysis::check_source("db.js", src, &Settings::default()).unwrap();
        let helps: Vec<&str> = all
            .iter()
            .filter(|f| f.rule == "redundant-index")
            .map(|f| f.help.as_str())
            .collect();
        assert_eq!(helps.len(), 2, "{helps:?}");
        assert!(
            helps[0].starts_with("drop the redundant index"),
            "{}",
            helps[0]
        );
        assert!(
            helps[1].starts_with("delete this declaration"),
            "{}",
            helps[1]
        );
    }

    /// The indexes one call creates are on one collection even when mongolint cannot name it
    /// (showtimes' `user_db.get_collection().create_indexes(vec![..])`, a driver `createIndexes`
    /// on a parameter): compared with each other. So are those that the calls of one function
    /// create through one receiver named by a plain path (`coll`, fiftyone's frames
    /// collections), but for the same index created twice (a no-op, or recreated after a
    /// `dropIndex`), and for keys covered by an index created twice with other collations
    /// (alternatives). Calls through two receivers, or in two functions, are not compared.
    #[test]
    fn one_calls_indexes_on_an_unnamed_collection_are_compared() {
        let rs = r#"use mongodb::{bson::doc, Collection, IndexModel};
async fn setup(users: &UserHandler, coll: &Collection<Document>) -> mongodb::error::Result<()> {
    users.get_collection().create_indexes(vec![
        IndexModel::builder().keys(doc! { "discord_meta.id": 1 }).build(),
        IndexModel::builder().keys(doc! { "discord_meta.id": 1, "id": 1 }).build(),
    ]).await?;
    coll.create_indexes(vec![IndexModel::builder().keys(doc! { "kind": 1 }).build()]).await?;
    coll.create_indexes(vec![IndexModel::builder().keys(doc! { "kind": 1, "id": 1 }).build()]).await?;
    coll.create_indexes(vec![IndexModel::builder().keys(doc! { "kind": 1, "id": 1 }).build()]).await?;
    Ok(())
}
async fn more(a: &Collection<Document>, b: &Collection<Document>) -> mongodb::error::Result<()> {
    a.create_indexes(vec![IndexModel::builder().keys(doc! { "x": 1 }).build()]).await?;
    b.create_indexes(vec![IndexModel::builder().keys(doc! { "x": 1, "y": 1 }).build()]).await?;
    Ok(())
}
async fn other(coll: &Collection<Document>) -> mongodb::error::Result<()> {
    coll.create_indexes(vec![IndexModel::builder().keys(doc! { "kind": 1 }).build()]).await?;
    Ok(())
}
"#;
        let got = findings("src/setup.rs", rs);
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!((got[0].0, got[1].0), (4, 7));
        assert!(
            got[0]
                .1
                .contains("on the collection behind `users.get_collection()`"),
            "{got:?}"
        );
        assert!(got[1].1.contains("prefix of {kind: 1, id: 1}"), "{got:?}");
        let js = r#"const { MongoClient } = require("mongodb");
async function setup(coll) {
  await coll.createIndexes([{ key: { a: 1 } }, { key: { a: 1, b: 1 } }]);
}
async function forms(db) {
  const collection = await db.createCollection(name, null);
  await collection.createIndexes([{ key: { project: 1 }, name: "project_1" }]);
  try {
    await collection.createIndexes([{ key: { project: 1, title: 1 }, collation: { locale: "en", strength: 2 } }]);
  } catch (err) {
    await collection.createIndexes([{ key: { project: 1, title: 1 } }]);
  }
}
"#;
        // (formio's forms: the covering keys with a collation, or without one where the server
        // refuses it: which exists is not known.)
        assert_eq!(findings("setup.js", js).len(), 1);
    }

    #[test]
    fn prefix_and_duplicate_indexes_are_flagged() {
        let got = findings(
            "db.js",
            r#"const { MongoClient } = require("mongodb");
const orders = client.db("shop").collection("orders");
await orders.createIndex({ customerId: 1 });
await orders.createIndex({ customerId: 1, createdAt: -1 });
await orders.createIndex({ status: 1, createdAt: -1 });
await orders.createIndex({ status: 1, createdAt: -1 });
"#,
        );
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[0].0, 3);
        assert!(got[0]
            .1
            .contains("prefix of {customerId: 1, createdAt: -1}"));
        assert_eq!(got[1].0, 6);
        assert!(got[1].1.contains("declared twice"));
    }

    /// A key written twice in an index literal is one key, in its first place with its last
    /// direction, as JavaScript builds the object Mongoose receives (iquidus' `{total: 1, total:
    /// -1, blockindex: 1, blockindex: -1}` is `{total: -1, blockindex: -1}`).
    #[test]
    fn a_key_written_twice_in_javascript_is_one_key() {
        let got = findings(
            "models/s.js",
            r#"const mongoose = require("mongoose");
const S = new mongoose.Schema({ x: Number, y: Number, z: Number });
S.index({ x: 1, x: -1, y: 1 });
S.index({ x: -1, y: 1, z: 1 });
module.exports = mongoose.model("S", S);
"#,
        );
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].0, 3);
        assert!(
            got[0].1.contains("index {x: -1, y: 1} on `s` is redundant"),
            "{got:?}"
        );
    }

    #[test]
    fn options_and_special_types_keep_an_index() {
        let got = findings(
            "db.js",
            r#"const { MongoClient } = require("mongodb");
const users = client.db("app").collection("users");
await users.createIndex({ email: 1 }, { unique: true });
await users.createIndex({ email: 1, createdAt: 1 });
await users.createIndex({ sessionAt: 1 }, { expireAfterSeconds: 3600 });
await users.createIndex({ sessionAt: 1, kind: 1 });
await users.createIndex({ bio: "text" });
await users.createIndex({ bio: 1, x: 1 });
await users.createIndex({ org: 1 });
await users.createIndex({ org: 1, y: 1 }, { partialFilterExpression: { y: { $exists: true } } });
await users.createIndex({ a: 1, b: 1 });
await users.createIndex({ b: 1, a: 1 });
await users.createIndex({ c: 1, d: 1 });
await users.createIndex({ c: 1, d: -1, e: 1 });
"#,
        );
        assert!(got.is_empty(), "{got:?}");
    }

    #[test]
    fn single_field_is_served_by_any_direction_and_inverted_compound_prefix() {
        let got = findings(
            "db.py",
            r#"from pymongo import MongoClient
db = MongoClient().shop
db.events.create_index([("at", -1)])
db.events.create_index([("at", 1), ("type", 1)])
db.events.create_index([("k", 1), ("j", -1)])
db.events.create_index([("k", -1), ("j", 1), ("z", 1)])
"#,
        );
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!((got[0].0, got[1].0), (3, 5));
    }

    /// clearml-server: a base whose `meta` is a constant of another module (`ABSTRACT_FLAG`) may
    /// be abstract, so its subclasses' indexes are on collections of their own; and a
    /// `primary_key=True` field is the `_id` index, never a declaration twice.
    #[test]
    fn an_unreadable_meta_and_primary_keys_make_no_duplicates() {
        let got = findings(
            "models.py",
            r#"from mongoengine import Document, StringField
from .base import ABSTRACT_FLAG
class Base(Document):
    meta = ABSTRACT_FLAG
class Task(Base):
    meta = {"indexes": ["parent"]}
    id = StringField(primary_key=True)
class Model(Base):
    meta = {"indexes": ["parent", ("parent", "name")]}
    id = StringField(primary_key=True)
class Known(Document):
    meta = {"abstract": True}
"#,
        );
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].0, 9);
        assert!(
            got[0].1.contains("{parent: 1} on `model` is redundant"),
            "{got:?}"
        );
    }

    #[test]
    fn the_same_keys_in_reverse_are_one_index_said_so() {
        // hyphe's `sortasc('timestamp')` and `sortdesc('timestamp')`: the later one is reported,
        // as the other in reverse, not as a prefix of it.
        let got = findings(
            "db.py",
            r#"from pymongo import MongoClient
db = MongoClient().shop
db.stats.create_index([("timestamp", 1)])
db.stats.create_index([("timestamp", -1)])
db.events.create_index([("k", 1), ("j", -1)])
db.events.create_index([("k", -1), ("j", 1)])
"#,
        );
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!((got[0].0, got[1].0), (4, 6));
        assert!(
            got[0].1.contains(
                "{timestamp: -1} on `stats` is redundant: it is {timestamp: 1} in reverse"
            ),
            "{got:?}"
        );
        assert!(got[1]
            .1
            .contains("{k: -1, j: 1} on `events` is redundant: it is {k: 1, j: -1} in reverse"));
        assert!(!got.iter().any(|g| g.1.contains("prefix")), "{got:?}");
    }

    #[test]
    fn index_commands_declare_indexes_in_every_language() {
        // `{createIndexes: coll, indexes: [..]}` run as a command: `db.command` (JavaScript,
        // Python, whose `command("createIndexes", coll, indexes=..)` too), `run_command` (Rust).
        let js = findings(
            "init.js",
            r#"const { MongoClient } = require("mongodb");
await db.command({ createIndexes: "events", indexes: [{ key: { ts: 1 }, name: "ts" }, { key: { ts: 1, kind: 1 }, name: "ts_kind" }] });
"#,
        );
        assert_eq!(js.len(), 1, "{js:?}");
        assert!(js[0].1.contains("prefix of {ts: 1, kind: 1}"));
        let py = findings(
            "init.py",
            r#"from pymongo import MongoClient
db = MongoClient().app
db.command("createIndexes", "logs", indexes=[{"key": {"at": 1}, "name": "at"}, {"key": {"at": 1, "lvl": 1}, "name": "at_lvl"}])
"#,
        );
        assert_eq!(py.len(), 1, "{py:?}");
        let rs = findings(
            "init.rs",
            r#"use mongodb::bson::doc;
async fn init(db: &mongodb::Database) {
    db.run_command(doc! { "createIndexes": "messages", "indexes": [
        { "key": { "channel": 1_i32 }, "name": "channel" },
        { "key": { "channel": 1_i32, "_id": 1_i32 }, "name": "channel_id" } ] }).await.unwrap();
    db.run_command(doc! { "dropIndexes": "users", "index": "username" }).await.unwrap();
}
"#,
        );
        assert_eq!(rs.len(), 1, "{rs:?}");
        assert_eq!(rs[0].0, 4);
    }

    #[test]
    fn one_named_index_created_by_install_and_migration_is_one_index() {
        let dir = tempfile::tempdir().unwrap();
        let create = r#"const { MongoClient } = require("mongodb");
await db.collection("users").createIndex({ email: 1 }, { name: "email" });
await db.collection("users").createIndex({ team: 1 });
"#;
        std::fs::write(dir.path().join("install.js"), create).unwrap();
        std::fs::write(dir.path().join("setup.js"), create).unwrap();
        let messages = || {
            let a = crate::analysis::run(&crate::analysis::Options {
                paths: vec![dir.path().to_path_buf()],
                threads: 1,
                ..Default::default()
            });
            a.findings
                .into_iter()
                .filter(|f| f.rule == "redundant-index")
                .map(|f| f.message)
                .collect::<Vec<String>>()
        };
        // The unnamed duplicate is still reported once; the named one, created by both, is not.
        let got = messages();
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].contains("{team: 1}"), "{got:?}");
        // A migration that creates them again for the deployments made before the install path
        // did: no duplicate declaration at all (mist.api's `migrations/`).
        std::fs::rename(dir.path().join("setup.js"), dir.path().join("migrate.js")).unwrap();
        let got = messages();
        assert!(got.is_empty(), "{got:?}");
    }

    #[test]
    fn a_dropped_index_is_history() {
        let got = findings(
            "migrate.js",
            r#"const { MongoClient } = require("mongodb");
const c = client.db("app").collection("posts");
await c.createIndex({ author: 1 });
await c.createIndex({ author: 1, at: -1 });
await c.dropIndex("author_1");
"#,
        );
        assert!(got.is_empty(), "{got:?}");
    }

    /// mongoengine puts `_cls` first in the `meta` indexes of a document that allows inheritance
    /// (its subclasses inherit that), unless an entry says `cls: False` or is sparse; a field's
    /// `unique=True` index has no `_cls`. So `"tenant"` is `{_cls: 1, tenant: 1}`, no prefix of
    /// `{tenant: 1, title: 1}`, and `{token: 1}` (the field's) is no duplicate of the listed
    /// `{_cls: 1, token: 1}`; listed twice in one hierarchy, it is still a prefix of itself.
    #[test]
    fn mongoengine_inheritance_puts_cls_first_in_listed_indexes() {
        let got = findings(
            "catalog.py",
            r#"import mongoengine as me
class Listing(me.Document):
    token = me.StringField(unique=True)
    tenant = me.StringField()
    title = me.StringField()
    meta = {
        "allow_inheritance": True,
        "indexes": [
            "tenant",
            {"fields": ["tenant", "title"], "unique": True, "cls": False},
            {"fields": ["token"], "unique": True},
        ],
    }
class Rental(Listing):
    meta = {"indexes": ["region", ("region", "price")]}
class Archive(me.Document):
    owner = me.StringField()
    meta = {"allow_inheritance": True, "index_cls": False, "indexes": ["owner", ("owner", "at")]}
"#,
        );
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[0].0, 15);
        assert!(
            got[0].1.contains("{_cls: 1, region: 1}")
                && got[0].1.contains("{_cls: 1, region: 1, price: 1}"),
            "{got:?}"
        );
        assert_eq!(got[1].0, 18);
        assert!(got[1].1.contains("{owner: 1}"), "{got:?}");
    }
}
