//! Snippet tests for the five mission rules on JavaScript and TypeScript, through the public
//! `check_source` API: each spelling the rule catalogue (shared rules.md) says to flag, and each
//! near miss it says to leave alone, including look-alikes that are not MongoDB at all.

use mongolint::analysis::check_source;
use mongolint::diagnostic::{Finding, Severity};
use mongolint::ir::Span;
use mongolint::rules::Settings;

/// (rule id, 1-based line of the span start, source text under the span).
type Hit = (&'static str, usize, String);

fn findings_with(path: &str, src: &str, settings: &Settings) -> Vec<Finding> {
    check_source(path, src, settings)
        .unwrap_or_else(|e| panic!("{path} did not analyse: {e}"))
        .1
}

fn findings(path: &str, src: &str) -> Vec<Finding> {
    findings_with(path, src, &Settings::default())
}

fn line_at(src: &str, offset: usize) -> usize {
    src[..offset].matches('\n').count() + 1
}

fn hit(src: &str, f: &Finding) -> Hit {
    let (start, end) = (f.span.start as usize, f.span.end as usize);
    (f.rule, line_at(src, start), src[start..end].to_string())
}

/// Every finding of a snippet as (rule, line, text) triples.
fn hits(path: &str, src: &str) -> Vec<Hit> {
    findings(path, src).iter().map(|f| hit(src, f)).collect()
}

/// The findings of one rule as (line, text) pairs.
fn rule_hits(rule: &str, path: &str, src: &str) -> Vec<(usize, String)> {
    hits(path, src)
        .into_iter()
        .filter(|h| h.0 == rule)
        .map(|(_, line, text)| (line, text))
        .collect()
}

/// The messages of one rule's findings.
fn rule_messages(rule: &str, path: &str, src: &str) -> Vec<String> {
    findings(path, src)
        .into_iter()
        .filter(|f| f.rule == rule)
        .map(|f| f.message)
        .collect()
}

/// The lines of one rule's findings.
fn rule_lines(rule: &str, path: &str, src: &str) -> Vec<usize> {
    rule_hits(rule, path, src)
        .into_iter()
        .map(|h| h.0)
        .collect()
}

/// 1-based line of the first line containing `needle`.
fn line_of(src: &str, needle: &str) -> usize {
    src.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("{needle:?} not in snippet"))
        + 1
}

/// Asserts that `rule` flags exactly one site: on the line containing `line_needle`, with `span_text`
/// under the span (quotes around an object key are accepted).
fn assert_flags_once(rule: &str, path: &str, src: &str, line_needle: &str, span_text: &str) {
    let got = rule_hits(rule, path, src);
    let want_line = line_of(src, line_needle);
    assert_eq!(
        got.len(),
        1,
        "{rule} should flag exactly once in:\n{src}\ngot {got:?}"
    );
    let (line, text) = &got[0];
    assert_eq!(*line, want_line, "{rule} flagged the wrong line in:\n{src}");
    assert_eq!(
        text.trim_matches(|c| c == '"' || c == '\''),
        span_text,
        "{rule} span text in:\n{src}"
    );
}

fn assert_not_flagged(rule: &str, path: &str, src: &str) {
    let got = rule_hits(rule, path, src);
    assert!(
        got.is_empty(),
        "{rule} should not flag:\n{src}\ngot {got:?}"
    );
}

fn assert_clean(path: &str, src: &str) {
    let got = hits(path, src);
    assert!(
        got.is_empty(),
        "expected no findings in:\n{src}\ngot {got:?}"
    );
}

fn only(rule: &str, path: &str, src: &str) -> Finding {
    let mut fs: Vec<Finding> = findings(path, src)
        .into_iter()
        .filter(|f| f.rule == rule)
        .collect();
    assert_eq!(fs.len(), 1, "{rule} should flag exactly once in:\n{src}");
    fs.remove(0)
}

// ---------------------------------------------------------------------------------------------
// unbounded-push
// ---------------------------------------------------------------------------------------------

const UP: &str = "unbounded-push";

/// A document loaded with `findById` is a Mongoose document whatever its model's receiver
/// resolves to (tailchat's `this.adapter.model.findById(id)` in a moleculer service): a push into
/// one of its arrays, then `save()`, is an unbounded `$push`; with a membership test first it is
/// reported at info; without `save()` nothing is written.
#[test]
fn a_document_loaded_by_id_from_an_unresolved_model_is_saved_with_its_push() {
    let src = r#"
class S { adapter: any; model: any;
  async b(id: string, uid: string) {
    const c = await this.adapter.model.findById(id);
    c.members.push(uid); await c.save(); }
  async d(id: string, uid: string) {
    const c = await this.model.findById(id);
    if (c.members.includes(uid)) return;
    c.members.push(uid); await c.save(); }
  async e(id: string, uid: string) {
    const c = await this.adapter.model.findById(id);
    c.members.push(uid); }
}
"#;
    let got = rule_hits(UP, "converse.service.ts", src);
    assert_eq!(
        got.iter().map(|h| h.0).collect::<Vec<_>>(),
        vec![5, 9],
        "{got:?}"
    );
    let all = findings("converse.service.ts", src);
    let severities: Vec<_> = all
        .iter()
        .filter(|f| f.rule == UP)
        .map(|f| f.severity)
        .collect();
    assert_eq!(
        severities,
        vec![
            mongolint::diagnostic::Severity::Warning,
            mongolint::diagnostic::Severity::Info
        ]
    );
}

/// A document method that names its document (`const self = this;`, growi's `page.like`, or
/// `const page = this;`) pushes and saves the same document as `this.liker.push(..)` does.
#[test]
fn a_document_method_pushing_through_a_name_for_this() {
    let src = r#"
const mongoose = require("mongoose");
const s = new mongoose.Schema({ liker: [mongoose.Schema.Types.ObjectId], seenUsers: [mongoose.Schema.Types.ObjectId] });
s.methods.like = function (u) { const self = this; self.liker.addToSet(u._id); return self.save(); };
s.methods.seen = async function (u) { const page = this; page.seenUsers.push(u._id); return page.save(); };
mongoose.model("Thing", s);
"#;
    let got = rule_hits(UP, "page.js", src);
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!((got[0].0, got[1].0), (4, 5), "{got:?}");
}

/// The document idiom through a TypeScript cast (`(this.liker as any).addToSet(u)`) or a name
/// bound to the array (`const seenUsers = this.seenUsers; seenUsers.push(u)`), then `save()`:
/// crowi's likes and page views.
#[test]
fn the_document_push_idiom_through_a_cast_or_an_alias() {
    let src = r#"
import { Schema, model } from "mongoose";
const s = new Schema({ liker: [Schema.Types.ObjectId], seenUsers: [Schema.Types.ObjectId] });
s.methods.like = async function (u) { (this.liker as any).addToSet(u._id); await this.save(); };
s.methods.seen = async function (u) { const seenUsers = this.seenUsers; seenUsers.push(u._id); await this.save(); };
export const Page = model("Page", s);
"#;
    let lines = rule_lines(UP, "page.ts", src);
    assert_eq!(lines, vec![4, 5]);
}

/// An update operator set on the update object before the call (`var update = {};
/// update.$push = {..}`: Countly's crash comments, Reaction's job log, Rocket.Chat's ignored
/// users under a condition), in the scope the object is declared in, is part of the update. One
/// set after the call is not.
#[test]
fn an_update_operator_assigned_on_the_update_object_is_read() {
    let src = r#"
function f(db, id, c) { var update = {}; update.$push = { comments: c }; db.collection("crashgroups").updateOne({ _id: id }, update); }
function h(db, _id, ignored, ignore) {
  const update = { $set: { at: new Date() } };
  if (ignore) { update.$push = { ignored }; } else { update.$pull = { ignored }; }
  return db.collection("subs").updateOne({ _id }, update);
}
function k(db, id, c) { var update = {}; db.collection("x").updateOne({ _id: id }, update); update.$push = { comments: c }; }
"#;
    let lines = rule_lines(UP, "crash.js", src);
    assert_eq!(lines, vec![2, 5]);
    // The same in brackets (genieacs' device tags, `object["$addToSet"] = {..}`); a key the code
    // computes (`filter[k] = v`) is no operator.
    let src = r#"
function f(db, id, c) { var update = {}; update["$push"] = { comments: c }; db.collection("crashgroups").updateOne({ _id: id }, update); }
async function t(db, id, add) { const object = {}; if (add?.length) object['$addToSet'] = { _tags: { $each: add } }; await db.collection("devices").updateOne({ _id: id }, object); }
function g(db, id, k, v) { const update = {}; update[k] = v; db.collection("x").updateOne({ _id: id }, update); }
function k(db, id, c) { var update = {}; db.collection("x").updateOne({ _id: id }, update); update["$push"] = { comments: c }; }
"#;
    let got = rule_hits(UP, "tags.js", src);
    assert_eq!(
        got.iter().map(|h| h.0).collect::<Vec<_>>(),
        vec![2, 3],
        "{got:?}"
    );
    assert!(findings("tags.js", src).iter().any(|f| f
        .message
        .contains("`$addToSet` grows array `_tags` in `devices`")));
}

#[test]
fn push_in_update_one_is_flagged_and_names_collection_and_field() {
    let src = r#"
async function addComment(db, postId, comment) {
  await db.collection("posts").updateOne({ _id: postId }, { $push: { comments: comment } });
}
"#;
    assert_flags_once(UP, "svc.js", src, "$push", "$push");
    let f = only(UP, "svc.js", src);
    assert_eq!(f.severity, Severity::Warning);
    assert!(f.message.contains("posts"), "message: {}", f.message);
    assert!(f.message.contains("comments"), "message: {}", f.message);
    assert!(f.help.contains("$slice"), "help: {}", f.help);
}

#[test]
fn push_in_update_many_is_flagged() {
    let src = r#"
async function tagAll(db, ids, tag) {
  await db.collection("posts").updateMany({ _id: { $in: ids } }, { $push: { tags: tag } });
}
"#;
    assert_flags_once(UP, "svc.js", src, "$push", "$push");
}

#[test]
fn push_in_find_one_and_update_is_flagged() {
    let src = r#"
async function logEvent(db, id, ev) {
  const events = db.collection("devices");
  return events.findOneAndUpdate({ _id: id }, { $push: { history: ev } }, { returnDocument: "after" });
}
"#;
    assert_flags_once(UP, "svc.js", src, "$push", "$push");
}

#[test]
fn push_in_bulk_write_entry_is_flagged() {
    let src = r#"
async function follow(db, pairs) {
  await db.collection("users").bulkWrite(
    pairs.map(([a, b]) => ({
      updateOne: {
        filter: { _id: a },
        update: { $push: { following: b } },
      },
    })),
  );
  await db.collection("users").bulkWrite([
    { updateOne: { filter: { _id: 1 }, update: { $push: { followers: 2 } } } },
  ]);
}
"#;
    let got = rule_hits(UP, "svc.js", src);
    assert_eq!(
        got,
        vec![
            (line_of(src, "following: b"), "$push".to_string()),
            (line_of(src, "followers: 2"), "$push".to_string()),
        ],
        "in:\n{src}"
    );
}

#[test]
fn push_in_mongoose_find_by_id_and_update_is_flagged() {
    let src = r#"
const mongoose = require("mongoose");
const Post = mongoose.model("Post", postSchema);

async function addComment(id, comment) {
  return Post.findByIdAndUpdate(id, { $push: { comments: comment } }, { new: true });
}
"#;
    assert_flags_once(UP, "post.js", src, "$push", "$push");
    let f = only(UP, "post.js", src);
    assert!(f.message.contains("posts"), "message: {}", f.message);
    assert!(f.message.contains("comments"), "message: {}", f.message);
}

#[test]
fn push_each_without_slice_is_flagged() {
    let src = r#"
async function appendLog(db, id, entries) {
  await db.collection("devices").updateOne({ _id: id }, { $push: { log: { $each: entries } } });
}
"#;
    assert_flags_once(UP, "svc.js", src, "$push", "$push");
}

#[test]
fn add_to_set_is_flagged_at_info_severity() {
    let src = r#"
async function follow(db, uid, me) {
  await db.collection("users").updateOne({ _id: uid }, { "$addToSet": { "followers": me } });
}
"#;
    assert_flags_once(UP, "svc.js", src, "$addToSet", "$addToSet");
    let f = only(UP, "svc.js", src);
    assert_eq!(f.severity, Severity::Info);
    assert!(f.message.contains("followers"), "message: {}", f.message);
    assert!(f.message.contains("users"), "message: {}", f.message);
}

#[test]
fn mongoose_document_push_then_save_is_flagged() {
    let src = r#"
const mongoose = require("mongoose");
const Post = mongoose.model("Post", postSchema);

async function like(id, uid) {
  const post = await Post.findById(id);
  post.likes.push(uid);
  await post.save();
}
"#;
    assert_flags_once(UP, "like.js", src, "likes.push", "push");
    let f = only(UP, "like.js", src);
    assert!(f.message.contains("likes"), "message: {}", f.message);
    assert!(f.message.contains("posts"), "message: {}", f.message);
    // Saved through a TypeScript cast (courselit's `await (sequence as any).save()`).
    let src = r#"
import mongoose from "mongoose";
const Post = mongoose.model("Post", postSchema);
export async function like(id: string, uid: string) {
  const post = await Post.findById(id);
  post.likes.push(uid);
  await (post as any).save();
}
"#;
    assert_flags_once(UP, "like.ts", src, "likes.push", "push");
}

/// A document method pushes onto its own array and saves itself (`schema.methods = { addComment
/// }`, `schema.method("join", fn)`): `this` is a document of the model compiled from the schema,
/// here in a statement of its own. Not the `this` of a plain callback inside the method.
#[test]
fn a_document_method_that_pushes_onto_this_and_saves_is_flagged() {
    let src = r#"
const mongoose = require("mongoose");
const ArticleSchema = new mongoose.Schema({ comments: [{ body: String }], tags: [String] });
ArticleSchema.methods = {
  addComment: function (comment) {
    this.comments.push({ body: comment.body });
    return this.save();
  },
};
ArticleSchema.method("tag", function (tag, cb) {
  check(tag, function (err) {
    this.tags.push(tag);
    this.save(cb);
  });
});
mongoose.model("Article", ArticleSchema);
"#;
    assert_flags_once(UP, "article.js", src, "comments.push", "push");
    let f = only(UP, "article.js", src);
    assert!(
        f.message.contains("`comments` in `articles`"),
        "message: {}",
        f.message
    );
}

#[test]
fn mongoose_document_add_to_set_then_save_is_flagged_in_typescript() {
    let src = r#"
import mongoose from "mongoose";
const User = mongoose.model("User", userSchema);

export async function follow(id: string, me: string): Promise<void> {
  const user = await User.findById(id);
  user.followers.addToSet(me);
  await user.save();
}
"#;
    assert_flags_once(UP, "follow.ts", src, "followers.addToSet", "addToSet");
    assert_eq!(only(UP, "follow.ts", src).severity, Severity::Info);
}

#[test]
fn push_is_flagged_in_typescript_and_tsx() {
    let ts = r#"
import { Db } from "mongodb";
export async function addComment(db: Db, postId: string, c: Comment): Promise<void> {
  await db.collection<Post>("posts").updateOne({ _id: postId }, { $push: { comments: c } });
}
"#;
    assert_flags_once(UP, "svc.ts", ts, "$push", "$push");
    let tsx = r#"
export function CommentBox({ db, postId }: Props) {
  const onSubmit = async (c: Comment) => {
    await db.collection("posts").updateOne({ _id: postId }, { $push: { comments: c } });
  };
  return <form onSubmit={onSubmit} />;
}
"#;
    assert_flags_once(UP, "box.tsx", tsx, "$push", "$push");
}

#[test]
fn push_each_with_slice_of_either_sign_is_not_flagged() {
    let src = r#"
async function recent(db, id, c, entries) {
  await db.collection("posts").updateOne({ _id: id }, { $push: { recent: { $each: [c], $slice: -20 } } });
  await db.collection("posts").updateOne({ _id: id }, { $push: { first: { $each: entries, $slice: 50 } } });
}
"#;
    assert_not_flagged(UP, "svc.js", src);
}

#[test]
fn bucket_pattern_push_is_not_flagged_and_its_count_is_not_a_counter() {
    let src = r#"
async function addComment(db, postId, comment) {
  await db.collection("comment_buckets").updateOne(
    { postId, count: { $lt: 200 } },
    { $push: { comments: comment }, $inc: { count: 1 }, $setOnInsert: { postId } },
    { upsert: true },
  );
}
"#;
    assert_not_flagged(UP, "svc.js", src);
    assert_not_flagged("counter-inc", "svc.js", src);
}

#[test]
fn push_guarded_by_array_index_exists_false_is_not_flagged() {
    let src = r#"
async function addComment(db, id, c) {
  await db.collection("posts").updateOne({ _id: id, "comments.49": { $exists: false } }, { $push: { comments: c } });
}
"#;
    assert_not_flagged(UP, "svc.js", src);
}

#[test]
fn push_guarded_by_expr_size_is_not_flagged() {
    let src = r#"
async function addComment(db, id, c) {
  await db.collection("posts").updateOne(
    { _id: id, $expr: { $lt: [{ $size: "$comments" }, 50] } },
    { $push: { comments: c } },
  );
}
"#;
    assert_not_flagged(UP, "svc.js", src);
}

#[test]
fn push_guarded_by_size_equality_is_not_flagged() {
    let src = r#"
async function addSlot(db, id, s) {
  await db.collection("tables").updateOne({ _id: id, seats: { $size: 3 } }, { $push: { seats: s } });
}
"#;
    assert_not_flagged(UP, "svc.js", src);
}

#[test]
fn push_the_code_guards_with_a_length_check_is_not_flagged() {
    // The application bounds the array before it pushes: the update (or the document push) runs
    // only while the array is shorter than a limit.
    let src = r#"
const mongoose = require("mongoose");
const Post = mongoose.model("Post", postSchema);
const MAX_PINS = 5;

async function pin(db, board, item) {
  if (board.pins.length < MAX_PINS) {
    await db.collection("boards").updateOne({ _id: board._id }, { $push: { pins: item } });
  }
}

async function like(id, uid) {
  const post = await Post.findById(id);
  const likes = post.likes;
  if (uid && 100 > likes.length) {
    post.likes.push(uid);
  }
  await post.save();
}
"#;
    assert_not_flagged(UP, "svc.js", src);
}

#[test]
fn push_after_an_early_exit_on_the_arrays_length_is_not_flagged() {
    let src = r#"
async function pin(db, board, item) {
  if (board.pins.includes(item) || board.pins.length >= MAX_PINS) {
    throw new Error("full");
  }
  await db.collection("boards").updateOne({ _id: board._id }, { $push: { pins: item } });
}

async function pinAll(db, boards, item) {
  for (const board of boards) {
    if (MAX_PINS <= board.pins.length) continue;
    await db.collection("boards").updateOne({ _id: board._id }, { $push: { pins: item } });
  }
}
"#;
    assert_not_flagged(UP, "svc.js", src);
    // An exit on `&&` or one that does not leave bounds nothing.
    let near = r#"
async function pin(db, board, item, force) {
  if (board.pins.length >= MAX_PINS && !force) {
    return;
  }
  await db.collection("boards").updateOne({ _id: board._id }, { $push: { pins: item } });
  if (board.pins.length >= MAX_PINS) {
    console.log("full");
  }
  await db.collection("boards").updateOne({ _id: board._id }, { $push: { pins: item } });
}
"#;
    assert_eq!(rule_hits(UP, "svc.js", near).len(), 2);
}

#[test]
fn push_under_another_arrays_length_check_or_its_else_branch_is_flagged() {
    let src = r#"
async function pin(db, board, item) {
  if (board.tags.length < 5) {
    await db.collection("boards").updateOne({ _id: board._id }, { $push: { pins: item } });
  }
  if (board.pins.length < 5 || item.force) {
    await db.collection("boards").updateOne({ _id: board._id }, { $push: { pins: item } });
  }
  if (board.pins.length < 5) {
    return;
  } else {
    await db.collection("boards").updateOne({ _id: board._id }, { $push: { pins: item } });
  }
}
"#;
    assert_eq!(rule_hits(UP, "svc.js", src).len(), 3);
}

#[test]
fn push_accumulator_in_group_is_not_flagged() {
    let src = r#"
async function itemsByOrder(db) {
  return db.collection("lines").aggregate([
    { $match: { status: "open" } },
    { $group: { _id: "$orderId", items: { $push: "$sku" }, tags: { $addToSet: "$tag" } } },
  ]).toArray();
}
"#;
    assert_not_flagged(UP, "svc.js", src);
}

#[test]
fn plain_array_push_is_not_flagged_even_next_to_driver_calls() {
    let src = r#"
async function importAll(db, rows) {
  const docs = [];
  for (const r of rows) {
    docs.push({ name: r.name });
  }
  const arr = [];
  arr.push(1);
  await db.collection("people").insertMany(docs);
}
"#;
    assert_not_flagged(UP, "import.js", src);
}

#[test]
fn plain_array_push_and_find_without_mongodb_are_clean() {
    let src = r#"
const items = [{ id: 1 }, { id: 2 }];
const arr = [];
arr.push(items.find(x => x.id));
module.exports = arr;
"#;
    assert_clean("list.js", src);
}

// ---------------------------------------------------------------------------------------------
// dynamic-collection-name
// ---------------------------------------------------------------------------------------------

const DCN: &str = "dynamic-collection-name";

#[test]
fn template_with_date_hole_is_flagged_as_per_date() {
    let src = r#"
async function record(db, ev) {
  const day = new Date().toISOString().slice(0, 10);
  await db.collection(`events_${day}`).insertOne(ev);
}
"#;
    let got = rule_hits(DCN, "events.js", src);
    assert_eq!(got.len(), 1, "in:\n{src}\ngot {got:?}");
    assert_eq!(got[0].0, line_of(src, "db.collection("));
    let f = only(DCN, "events.js", src);
    assert!(f.message.contains("date"), "message: {}", f.message);
    assert!(
        f.message.contains("day"),
        "message names the hole: {}",
        f.message
    );
}

#[test]
fn date_method_holes_are_flagged() {
    let src = r#"
async function record(db, ev) {
  const d = new Date();
  await db.collection(`metrics_${d.getFullYear()}_${d.getMonth() + 1}`).insertOne(ev);
}
"#;
    assert_eq!(rule_hits(DCN, "m.js", src).len(), 1, "in:\n{src}");
    let src = r#"
async function record(db, ev) {
  await db.collection("logs_" + new Date().toISOString().slice(0, 10)).insertOne(ev);
}
"#;
    assert_eq!(rule_hits(DCN, "m.js", src).len(), 1, "in:\n{src}");
}

#[test]
fn dayjs_and_moment_format_holes_are_flagged() {
    let src = r#"
const dayjs = require("dayjs");
const moment = require("moment");
async function record(db, ev) {
  await db.collection(`events_${dayjs().format("YYYY_MM_DD")}`).insertOne(ev);
  await db.collection("audit_" + moment().format("YYYYMM")).insertOne(ev);
}
"#;
    let got = rule_hits(DCN, "m.js", src);
    assert_eq!(
        got.iter().map(|h| h.0).collect::<Vec<_>>(),
        vec![line_of(src, "events_"), line_of(src, "audit_")],
        "in:\n{src}\ngot {got:?}"
    );
}

#[test]
fn concatenation_with_month_is_flagged() {
    let src = r#"
async function monthly(db, month, row) {
  await db.collection("reports_" + month).insertOne(row);
}
"#;
    assert_eq!(rule_hits(DCN, "r.js", src).len(), 1, "in:\n{src}");
    assert!(only(DCN, "r.js", src).message.contains("month"));
}

#[test]
fn entity_holes_are_flagged_as_per_entity() {
    for (hole, expr) in [
        ("tenantId", "`orders_${tenantId}`"),
        ("userId", "\"inbox_\" + userId"),
        ("orgId", "`org_${orgId}_files`"),
        ("customerId", "`cust_${customerId}`"),
        ("accountId", "\"ledger_\" + accountId"),
        ("shop", "`products_${shop}`"),
        ("req.user.id", "`carts_${req.user.id}`"),
    ] {
        let src = format!(
            "async function save(db, req, tenantId, userId, orgId, customerId, accountId, shop, doc) {{\n  await db.collection({expr}).insertOne(doc);\n}}\n"
        );
        let fs: Vec<Finding> = findings("t.js", &src)
            .into_iter()
            .filter(|f| f.rule == DCN)
            .collect();
        assert_eq!(fs.len(), 1, "{hole}: should flag once in:\n{src}");
        assert!(
            fs[0].message.contains("entity"),
            "{hole}: message says per-entity: {}",
            fs[0].message
        );
        let hole_name = hole.rsplit('.').next().unwrap();
        assert!(
            fs[0].message.contains(hole_name) || fs[0].message.contains(hole),
            "{hole}: message names the hole: {}",
            fs[0].message
        );
    }
}

#[test]
fn per_tenant_name_on_a_class_field_in_typescript_is_flagged() {
    let src = r#"
import { Db } from "mongodb";
export class OrderRepo {
  constructor(private readonly db: Db) {}
  async add(tenantId: string, order: Order): Promise<void> {
    await this.db.collection(`orders_${tenantId}`).insertOne(order);
  }
}
"#;
    assert_eq!(rule_hits(DCN, "repo.ts", src).len(), 1, "in:\n{src}");
}

#[test]

fn per_tenant_name_with_type_argument_in_typescript_is_flagged() {
    let src = r#"
import { Db } from "mongodb";
export class OrderRepo {
  constructor(private readonly db: Db) {}
  async add(tenantId: string, order: Order): Promise<void> {
    await this.db.collection<Order>(`orders_${tenantId}`).insertOne(order);
  }
}
"#;
    assert_eq!(rule_hits(DCN, "repo.ts", src).len(), 1, "in:\n{src}");
}

#[test]

fn typescript_type_argument_collection_is_named_in_messages() {
    let src = r#"
import { Db } from "mongodb";
export async function f(db: Db, postId: string, c: Comment, offset: number) {
  await db.collection<Post>("posts").updateOne({ _id: postId }, { $push: { comments: c } });
  await db.collection<Post>("posts").find({}).skip(offset).toArray();
}
"#;
    for f in findings("svc.ts", src) {
        assert!(f.message.contains("`posts`"), "{}: {}", f.rule, f.message);
    }
    assert_eq!(rule_hits(UP, "svc.ts", src).len(), 1);
    assert_eq!(rule_hits("skip-paging", "svc.ts", src).len(), 1);
}

#[test]
fn mongosh_get_collection_and_bracket_with_date_are_flagged() {
    let src = r#"
const day = new Date().toISOString().slice(0, 10);
db.getCollection("events_" + day).find({}).count();
db[`archive_${day}`].insertOne({ at: new Date() });
"#;
    let got = rule_hits(DCN, "script.js", src);
    assert_eq!(
        got.iter().map(|h| h.0).collect::<Vec<_>>(),
        vec![line_of(src, "getCollection"), line_of(src, "db[")],
        "in:\n{src}\ngot {got:?}"
    );
}

#[test]
fn mongoose_model_with_per_tenant_collection_is_flagged() {
    let src = r#"
const mongoose = require("mongoose");
function modelFor(tenantId) {
  return mongoose.model(`Order_${tenantId}`, orderSchema, `orders_${tenantId}`);
}
"#;
    assert!(
        !rule_hits(DCN, "m.js", src).is_empty(),
        "per-tenant Mongoose collection should be flagged:\n{src}"
    );
}

#[test]
fn constant_env_and_config_names_are_not_flagged() {
    let src = r#"
const config = require("config");
const EVENTS = "events";
const settings = require("./settings");
async function f(db, ev) {
  await db.collection(EVENTS).insertOne(ev);
  await db.collection(process.env.EVENTS_COLLECTION).insertOne(ev);
  await db.collection(config.get("mongo.eventsCollection")).insertOne(ev);
  await db.collection(settings.eventsCollection).insertOne(ev);
  await db.collection(`${process.env.PREFIX}_events`).insertOne(ev);
}
"#;
    assert_not_flagged(DCN, "f.js", src);
}

#[test]
fn fixed_prefix_joined_to_fixed_suffix_is_not_flagged() {
    let src = r#"
const PREFIX = "app_";
const SUFFIX = "archive";
async function f(db, ev) {
  await db.collection(PREFIX + "events").insertOne(ev);
  await db.collection(`${PREFIX}${SUFFIX}`).insertOne(ev);
  await db.collection("audit_" + SUFFIX).insertOne(ev);
}
"#;
    assert_not_flagged(DCN, "f.js", src);
}

#[test]
fn plain_parameter_name_is_not_flagged() {
    let src = r#"
function repo(db, name) {
  return db.collection(name);
}
async function archive(db, kind, doc) {
  await db.collection(`archive_${kind}`).insertOne(doc);
}
"#;
    assert_not_flagged(DCN, "repo.js", src);
}

#[test]
fn firestore_per_user_collection_is_not_mongodb() {
    let src = r#"
const admin = require("firebase-admin");
const db = admin.firestore();
async function load(uid, id) {
  const snap = await db.collection(`users_${uid}`).doc(id).get();
  return snap.data();
}
"#;
    assert_clean("fire.js", src);
    let ts = r#"
import * as admin from "firebase-admin";
const db = admin.firestore();
export async function load(uid: string, id: string) {
  return db.collection(`users_${uid}`).doc(id).get();
}
"#;
    assert_clean("fire.ts", ts);
}

/// `firebase-admin` imported for push notifications (erxes' tRPC routers) is not Firestore: the
/// file's MongoDB reads are still read. The same file asking for `admin.firestore()` is.
#[test]
fn firebase_messaging_beside_mongodb_keeps_the_mongodb_calls() {
    let src = r#"
import * as admin from "firebase-admin";
export async function notify(models, userIds: string[]) {
  for (const userId of userIds) {
    const user = await models.Users.findOne({ _id: userId, role: { $ne: "system" } });
    await admin.messaging().send({ token: user.deviceToken, notification: {} });
  }
}
"#;
    assert_flags_once("query-in-loop", "notify.ts", src, "findOne", "findOne");
    let firestore = src.replace(
        "export async",
        "const db = admin.firestore();\nexport async",
    );
    assert_not_flagged("query-in-loop", "notify.ts", &firestore);
}

/// The same read on every iteration, written with a node-style result callback inside a
/// promise's executor (Countly's `delete_view`: `Promise.each(viewids, (viewid) => new
/// Promise((resolve) => views.findOne({ _id: ObjectID(appId) }, {}, (err, view) => ..)))`), is
/// to move out of the loop, not a query per item: the callback is not part of the query, and the
/// executor runs where it is written. Keyed on the item, it is one query per item.
#[test]
fn the_same_read_with_a_result_callback_is_no_query_per_item() {
    let src = r#"
function remove(ob, viewids) {
  var appId = ob.params.qstring.app_id;
  Promise.each(viewids, function (viewid) {
    return new Promise(function (resolveView) {
      common.db.collection("views").findOne({ _id: common.db.ObjectID(appId) }, {}, function (err, viewInfo) {
        resolveView(viewInfo);
      });
      common.db.collection("views").findOne({ _id: common.db.ObjectID(viewid) }, {}, function (err, view) {
        resolveView(view);
      });
    });
  });
}
"#;
    assert_flags_once(
        "query-in-loop",
        "views.js",
        src,
        "ObjectID(viewid)",
        "findOne",
    );
}

/// A `var` given a constant name stays that name when another function assigns a `var` of its own
/// spelt the same (Countly's times-of-day handlers): the collection is named, and the words of
/// the constant (`day`) are no hole. Assigned again in its own function, it is a name the code
/// computes, still not per date for the words of the strings it may hold.
#[test]
fn a_var_assigned_in_another_function_keeps_its_constant_name() {
    let src = r#"
function record(db, id, at) {
  var collectionName = "times_of_day";
  return db.collection(collectionName).updateOne({ _id: id }, { $push: { hits: at } });
}
function reset() {
  var collectionName = "";
  collectionName = "times_of_day";
  return collectionName;
}
function other(db) {
  var name = "times_of_day";
  db.collection(name).find({});
  name = "other";
}
"#;
    let f = only("unbounded-push", "tod.js", src);
    assert!(f.message.contains("`times_of_day`"), "{}", f.message);
    assert_not_flagged("dynamic-collection-name", "tod.js", src);
}

/// async.js's aliases and keyed forms iterate as `eachSeries` does (keystone's list delete:
/// `async.forEachLimit(results, 10, (item, next) => ..)`; formio's `async.forEachOf`).
#[test]
fn async_aliases_are_loops_over_their_first_argument() {
    let src = r#"
var async = require("async");
var Post = require("mongoose").model("Post");
exports.f = function (req) {
  async.forEachLimit(req.body.ids, 10, function (id, next) { Post.findById(id, next); }, function () {});
  async.eachOfSeries(req.body.ids, function (id, key, next) { Post.findById(id, next); }, function () {});
  async.forEachOf(req.body.ids, function (id, key, next) { Post.findById(id, next); });
  async.concatLimit(req.body.ids, 5, function (id, next) { Post.findById(id, next); });
};
"#;
    let lines = rule_lines("query-in-loop", "del.js", src);
    assert_eq!(lines, vec![5, 6, 7, 8]);
}

// ---------------------------------------------------------------------------------------------
// lookup-chain
// ---------------------------------------------------------------------------------------------

/// Mongoose's read preference (`.read("secondaryPreferred")`, novu's repositories) and other
/// query options chained before the paging or the populates are read through.
#[test]
fn a_read_preference_in_the_chain_hides_nothing_after_it() {
    let src = r#"
import mongoose, { Schema } from "mongoose";
export const N = mongoose.model("N", new Schema({ a: String }));
export const f1 = (a, skip, limit) => N.find({ a }).read("secondaryPreferred").skip(skip).limit(limit);
export const f2 = (a) => N.find({ a }).read("secondaryPreferred").orFail().populate("x").populate("y");
"#;
    assert_flags_once(SP, "n.ts", src, "f1", "skip(skip)");
    assert_flags_once("lookup-chain", "n.ts", src, "f2", "populate");
}

const LC: &str = "lookup-chain";

fn lookup(from: &str) -> String {
    format!("{{ $lookup: {{ from: \"{from}\", localField: \"{from}Id\", foreignField: \"_id\", as: \"{from}\" }} }}")
}

#[test]
fn two_inline_lookups_are_flagged_with_count_targets_and_related_stage() {
    let src = r#"
async function feed(db) {
  return db.collection("posts").aggregate([
    { $match: { published: true } },
    { $lookup: { from: "users", localField: "authorId", foreignField: "_id", as: "author" } },
    { $lookup: { from: "tags", localField: "tagIds", foreignField: "_id", as: "tags" } },
  ]).toArray();
}
"#;
    assert_flags_once(LC, "feed.js", src, "from: \"tags\"", "$lookup");
    let f = only(LC, "feed.js", src);
    assert!(f.message.contains('2'), "message counts: {}", f.message);
    assert!(f.help.contains("`foreignField`"), "help: {}", f.help);
    assert!(f.message.contains("users"), "message: {}", f.message);
    assert!(f.message.contains("tags"), "message: {}", f.message);
    assert!(f.message.contains("posts"), "message: {}", f.message);
    assert_eq!(f.related.len(), 1, "the other stage is related");
    let r = &f.related[0];
    assert_eq!(
        line_at(src, r.span.start as usize),
        line_of(src, "from: \"users\"")
    );
    assert_eq!(&src[r.span.start as usize..r.span.end as usize], "$lookup");
    assert!(f.help.contains("foreignField"), "help: {}", f.help);
}

/// A `from` given by a variable (lowdefy's `from: actionsCollection`, with `const
/// actionsCollection = connection.actionsCollection ?? "actions"`) is named by it, in the message
/// and in the related stage's; a Mongoose model's `collection.name` is that model's collection;
/// one the message cannot spell is `?`.
#[test]
fn a_lookup_from_a_variable_is_named_by_it() {
    let src = r#"
async function timeline(mongoDb, connection, ref) {
  const actionsCollection = connection.actionsCollection ?? "actions";
  const contactsCollection = connection.contactsCollection ?? "user-contacts";
  return mongoDb.collection("events").aggregate([
    { $match: { ref } },
    { $lookup: { from: actionsCollection, localField: "action_ids", foreignField: "_id", as: "actions" } },
    { $lookup: { from: contactsCollection, localField: "created.user.id", foreignField: "_id", as: "author" } },
    { $lookup: { from: names[kind](), localField: "kind_id", foreignField: "_id", as: "kind" } },
    { $lookup: { from: models.Reply.collection.name, localField: "_id", foreignField: "eventId", as: "replies" } },
  ]).toArray();
}
"#;
    let f = only(LC, "timeline.js", src);
    assert!(
        f.message.contains(
            "chains 4 `$lookup` joins (named by `actionsCollection`, named by `contactsCollection`, `?`, the collection of model `Reply`)"
        ),
        "{}",
        f.message
    );
    assert_eq!(
        f.related[0].message,
        "join 1 of 4: named by `actionsCollection`"
    );
}

#[test]
fn pipeline_in_a_variable_is_resolved() {
    let src = format!(
        r#"
async function feed(db) {{
  const pipeline = [
    {{ $match: {{ published: true }} }},
    {},
    {},
  ];
  return db.collection("posts").aggregate(pipeline).toArray();
}}
"#,
        lookup("users"),
        lookup("tags")
    );
    assert_flags_once(LC, "feed.js", &src, "from: \"tags\"", "$lookup");
}

#[test]
fn pipeline_built_with_push_is_resolved() {
    let src = format!(
        r#"
async function feed(db, withTags) {{
  const pipeline = [{{ $match: {{ published: true }} }}];
  pipeline.push({});
  if (withTags) {{
    pipeline.push({});
  }}
  return db.collection("posts").aggregate(pipeline).toArray();
}}
"#,
        lookup("users"),
        lookup("tags")
    );
    let got = rule_hits(LC, "feed.js", &src);
    assert_eq!(got.len(), 1, "in:\n{src}\ngot {got:?}");
    // The pipeline's own `push` calls are not array appends to a stored document.
    assert_not_flagged(UP, "feed.js", &src);
}

#[test]
fn nested_lookup_in_sub_pipeline_counts() {
    let src = r#"
async function feed(db) {
  return db.collection("posts").aggregate([
    {
      $lookup: {
        from: "users",
        let: { a: "$authorId" },
        pipeline: [
          { $match: { $expr: { $eq: ["$_id", "$$a"] } } },
          { $lookup: { from: "orgs", localField: "orgId", foreignField: "_id", as: "org" } },
        ],
        as: "author",
      },
    },
  ]).toArray();
}
"#;
    let f = only(LC, "feed.js", src);
    assert!(
        f.message.contains("users") && f.message.contains("orgs"),
        "message: {}",
        f.message
    );
    assert_eq!(f.related.len(), 1);
}

#[test]
fn lookups_inside_facet_count() {
    let src = r#"
async function dashboard(db) {
  return db.collection("orders").aggregate([
    { $match: { status: "paid" } },
    {
      $facet: {
        byCustomer: [{ $lookup: { from: "customers", localField: "customerId", foreignField: "_id", as: "c" } }],
        byProduct: [{ $lookup: { from: "products", localField: "productId", foreignField: "_id", as: "p" } }],
      },
    },
  ]).toArray();
}
"#;
    let f = only(LC, "dash.js", src);
    assert!(
        f.message.contains("customers") && f.message.contains("products"),
        "message: {}",
        f.message
    );
}

const POST_MODEL: &str = r#"
const mongoose = require("mongoose");
const Post = mongoose.model("Post", postSchema);
"#;

#[test]
fn chained_populate_is_flagged() {
    let src = format!(
        "{POST_MODEL}async function show(id) {{\n  return Post.findById(id).populate(\"author\").populate(\"comments\").exec();\n}}\n"
    );
    let f = only(LC, "show.js", &src);
    assert!(
        f.message.contains("author") && f.message.contains("comments"),
        "message: {}",
        f.message
    );
    assert!(f.message.contains('2'), "message counts: {}", f.message);
    assert_eq!(f.related.len(), 1, "related: the other populate");
    // populate queries by `_id`: no `foreignField` to index, unlike a `$lookup` chain's help.
    assert!(!f.help.contains("foreignField"), "help: {}", f.help);
    assert!(f.help.contains("extended reference"), "help: {}", f.help);
}

#[test]
fn populate_array_is_flagged() {
    let src = format!(
        "{POST_MODEL}async function show(id) {{\n  return Post.findById(id).populate([\"author\", \"comments\"]);\n}}\n"
    );
    assert_eq!(rule_hits(LC, "show.js", &src).len(), 1, "in:\n{src}");
}

/// A class named for a layer over a model (easy-mock's `MockProxy`, whose static `find` calls
/// `Mock.find`) is not called a model in messages; a model is.
#[test]
fn a_layer_over_a_model_is_no_model_in_messages() {
    let src = r#"const MockProxy = require("../proxy/mock");
const Mock = require("../models/mock");
exports.list = async (ctx) => {
  const { pageIndex, pageSize } = ctx.query;
  await Mock.find({ project: ctx.params.id }, null, { skip: (pageIndex - 1) * pageSize, limit: pageSize });
  return MockProxy.find({ project: ctx.params.id }, { skip: (pageIndex - 1) * pageSize, limit: pageSize });
};
"#;
    let got: Vec<String> = findings("controllers/mock.js", src)
        .into_iter()
        .filter(|f| f.rule == "skip-paging")
        .map(|f| f.message)
        .collect();
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(
        got[0].contains("on the collection of model `Mock`:"),
        "{got:?}"
    );
    assert!(
        got[1].contains("on the collection behind `MockProxy`:"),
        "{got:?}"
    );
}

#[test]
fn populate_space_separated_paths_is_flagged() {
    let src = format!(
        "{POST_MODEL}async function show(id) {{\n  return Post.findById(id).populate(\"author comments\");\n}}\n"
    );
    assert_eq!(rule_hits(LC, "show.js", &src).len(), 1, "in:\n{src}");
    // Each path at its own word of the string (easy-mock's `.populate('user members group')`):
    // the first at the `populate` it is the first path of, the others where they are written.
    let src = format!(
        "{POST_MODEL}async function show(id) {{\n  return Post.findById(id).populate(\"author comments tags\");\n}}\n"
    );
    let f = only(LC, "show.js", &src);
    let at = |s: Span| &src[s.start as usize..s.end as usize];
    // (Reported at the first path past the limit, one populate.)
    assert_eq!(at(f.span), "comments");
    let related: Vec<(&str, &str)> = f
        .related
        .iter()
        .map(|r| (at(r.span), r.message.as_str()))
        .collect();
    assert_eq!(
        related,
        vec![
            ("populate", "join 1 of 3: `author`"),
            ("tags", "join 3 of 3: `tags`")
        ]
    );
}

#[test]
fn nested_populate_is_flagged() {
    let src = format!(
        "{POST_MODEL}async function show(id) {{\n  return Post.findById(id).populate({{ path: \"comments\", populate: {{ path: \"author\" }} }});\n}}\n"
    );
    assert_eq!(rule_hits(LC, "show.js", &src).len(), 1, "in:\n{src}");
    // The nested path is named under its parent (`comments.author`, not a second `author`).
    let f = only(LC, "show.js", &src);
    assert!(
        f.message.contains("(`comments`, `comments.author`)"),
        "{}",
        f.message
    );
}

/// Stages pushed in the two branches of an `if` are alternatives, one of which the pipeline gets
/// (courselit's `$lookup` with a `$limit` or without); a stage pushed under an `if` and another
/// after it are two.
#[test]
fn lookups_pushed_in_two_branches_are_one() {
    let src = r#"export async function f(db, lim) {
    const pipeline = [{ $match: {} }];
    if (lim > 0) pipeline.push({ $lookup: { from: "a", localField: "x", foreignField: "_id", as: "a" } });
    else pipeline.push({ $lookup: { from: "b", localField: "x", foreignField: "_id", as: "b" } });
    return db.collection("orders").aggregate(pipeline).toArray();
}
export async function g(db, lim) {
    const pipeline = [{ $match: {} }];
    if (lim > 0) { pipeline.push({ $lookup: { from: "a", localField: "x", foreignField: "_id", as: "a" } }); }
    pipeline.push({ $lookup: { from: "b", localField: "x", foreignField: "_id", as: "b" } });
    return db.collection("orders").aggregate(pipeline).toArray();
}
"#;
    assert_eq!(rule_lines(LC, "feed.js", src), vec![10]);
}

/// A stage pushed under `if (slow)` and another under a later `if (!slow)` are the two branches
/// of one choice (Huly's Mongo adapter); under two independent conditions, both may be pushed.
#[test]
fn lookups_pushed_under_a_condition_and_its_negation_are_one() {
    let src = r#"export async function f(db, q, slow, limit) {
    const pipeline = [];
    if (slow) {
        pipeline.push({ $lookup: { from: "users", localField: "u", foreignField: "_id", as: "user" } });
    }
    pipeline.push({ $match: q });
    if (limit !== undefined) pipeline.push({ $limit: limit });
    if (!slow) {
        pipeline.push({ $lookup: { from: "spaces", localField: "s", foreignField: "_id", as: "space" } });
    }
    return db.collection("docs").aggregate(pipeline).toArray();
}
export async function g(db, q, a, b) {
    const pipeline = [{ $match: q }];
    if (a) pipeline.push({ $lookup: { from: "users", localField: "u", foreignField: "_id", as: "user" } });
    if (b) pipeline.push({ $lookup: { from: "spaces", localField: "s", foreignField: "_id", as: "space" } });
    return db.collection("docs").aggregate(pipeline).toArray();
}
"#;
    assert_eq!(rule_lines(LC, "storage.js", src), vec![16]);
}

#[test]
fn single_lookup_is_not_flagged() {
    let src = format!(
        "async function feed(db) {{\n  return db.collection(\"posts\").aggregate([{{ $match: {{ a: 1 }} }}, {}]).toArray();\n}}\n",
        lookup("users")
    );
    assert_not_flagged(LC, "feed.js", &src);
}

#[test]
fn one_populate_is_not_flagged() {
    let src = format!(
        "{POST_MODEL}async function show(id) {{\n  return Post.findById(id).populate(\"author\");\n}}\n"
    );
    assert_not_flagged(LC, "show.js", &src);
}

#[test]
fn populate_of_a_name_the_code_does_not_resolve_is_not_counted() {
    // overleaf's `getMemberSubscriptions(userOrId, populate = [])`: `.populate(populate)` names
    // no path unless a caller passes one, so the query populates one known path.
    let parameter = format!(
        "{POST_MODEL}async function list(userId, populate = []) {{\n  return Post.find({{ owner: userId }}).populate(\"author\").populate(populate).exec();\n}}\n"
    );
    assert_not_flagged(LC, "list.js", &parameter);
    let option = format!(
        "{POST_MODEL}async function list(userId, opts) {{\n  return Post.find({{ owner: userId }}).populate(\"author\").populate(opts.populate);\n}}\n"
    );
    assert_not_flagged(LC, "list.js", &option);
    // A constant the code binds is resolved, and its paths count.
    let constant = format!(
        "{POST_MODEL}async function show(id) {{\n  const paths = [\"author\", \"comments\"];\n  return Post.findById(id).populate(paths);\n}}\n"
    );
    let f = only(LC, "show.js", &constant);
    assert!(
        f.message.contains("`author`") && f.message.contains("`comments`"),
        "message: {}",
        f.message
    );
}

/// A path the filter fixes to one value (lets-chat's `Message.find({ room: options.room })
/// .populate('owner').populate('room')`) joins the one document every result shares: one look-up,
/// not a join per result, and not counted; paths populated under it neither. A path the filter
/// matches among several values (`$in`) still counts.
#[test]
fn populate_of_a_path_the_filter_fixes_is_not_counted() {
    let fixed = format!(
        "{POST_MODEL}async function list(room) {{\n  return Post.find({{ room }}).populate(\"author\").populate({{ path: \"room\", populate: {{ path: \"owner\" }} }});\n}}\n"
    );
    assert_not_flagged(LC, "list.js", &fixed);
    let many = format!(
        "{POST_MODEL}async function list(rooms) {{\n  return Post.find({{ room: {{ $in: rooms }} }}).populate(\"author\").populate(\"room\");\n}}\n"
    );
    let f = only(LC, "list.js", &many);
    assert!(f.message.contains("`room`"), "message: {}", f.message);
}

#[test]
fn populate_with_select_is_one_path() {
    let src = format!(
        "{POST_MODEL}async function show(id) {{\n  return Post.findById(id).populate(\"author\", \"name email\");\n}}\n"
    );
    assert_not_flagged(LC, "show.js", &src);
}

#[test]
fn lookup_chain_max_option_raises_the_threshold() {
    let two = format!(
        "async function feed(db) {{\n  return db.collection(\"posts\").aggregate([\n    {},\n    {},\n  ]).toArray();\n}}\n",
        lookup("users"),
        lookup("tags")
    );
    let three = format!(
        "async function feed(db) {{\n  return db.collection(\"posts\").aggregate([\n    {},\n    {},\n    {},\n  ]).toArray();\n}}\n",
        lookup("users"),
        lookup("tags"),
        lookup("orgs")
    );
    let relaxed = Settings {
        lookup_chain_max: 2,
    };
    let count = |src: &str, s: &Settings| {
        findings_with("feed.js", src, s)
            .iter()
            .filter(|f| f.rule == LC)
            .count()
    };
    assert_eq!(count(&two, &Settings::default()), 1, "default flags two");
    assert_eq!(count(&two, &relaxed), 0, "max 2 allows two");
    assert_eq!(count(&three, &relaxed), 1, "max 2 flags three");
    let f = findings_with("feed.js", &three, &relaxed)
        .into_iter()
        .find(|f| f.rule == LC)
        .unwrap();
    assert!(f.message.contains('3'), "message counts: {}", f.message);
    assert_eq!(f.related.len(), 2, "the other two stages are related");
}

// ---------------------------------------------------------------------------------------------
// counter-inc
// ---------------------------------------------------------------------------------------------

const CI: &str = "counter-inc";

/// A base class given a collection's name and a second collection beside it (Rocket.Chat's
/// `super(db, "message", trash)`, `trash` where deleted documents go): the model's collection is
/// the one the base builds from the name, not the `trash` parameter, whose type the message
/// named ("in a `Collection<RocketChatRecordDeleted<IMessage>>`").
#[test]
fn a_side_collection_passed_to_a_base_class_is_not_the_model_s() {
    let src = r#"
import type { Collection, Db } from "mongodb";
export class MessagesRaw extends BaseRaw<any> {
  constructor(db: Db, trash?: Collection<RocketChatRecordDeleted<IMessage>>) {
    super(db, "message", trash);
  }
  addFollower(tmid: string, userId: string) {
    return this.updateOne({ _id: tmid }, { $push: { replies: userId } });
  }
}
"#;
    let f = only("unbounded-push", "Messages.ts", src);
    assert!(
        f.message.contains("the collection behind `this`") && !f.message.contains("Collection<"),
        "{}",
        f.message
    );
}

/// The Node driver's old positional `findAndModify(query, sort, update, options, cb)` (Countly's
/// per-app sequence, `{$inc: {seq: 1}}` on the app's document for every new user) is read as the
/// object form `findAndModify({query, update})` is: the update is the third argument.
#[test]
fn the_positional_find_and_modify_is_read() {
    let src = r#"
function getUid(db, appId, cb) {
  db.collection("apps").findAndModify({ _id: appId }, {}, { $inc: { seq: 1 } }, { new: true, upsert: true }, cb);
}
function add(db, id, v, cb) {
  db.collection("groups").findAndModify({ _id: id }, [["_id", 1]], { $push: { versions: v } }, { new: true }, cb);
}
"#;
    assert_flags_once(CI, "uid.js", src, "seq: 1", "$inc");
    assert_flags_once("unbounded-push", "uid.js", src, "versions", "$push");
}

/// A counter bumped by a script run by hand (Countly's `bin/scripts/fix-data/process_merges.js`, a
/// retry count per merge) is no per-event counter: maintenance code, as for unindexed-query.
#[test]
fn an_increment_in_a_maintenance_script_is_no_per_event_counter() {
    let src = r#"
async function retry(db, user) {
  await db.collection("app_user_merges").updateOne({ _id: user._id }, { $inc: { t: 1 } });
}
"#;
    assert_flags_once(CI, "api/merges.js", src, "$inc", "$inc");
    assert_not_flagged(CI, "bin/scripts/fix-data/process_merges.js", src);
    assert_not_flagged(CI, "scripts/process_merges.js", src);
}

/// A round robin: the increment sorted by the field it increments picks the least-counted of many
/// documents (Rocket.Chat's department agents), so no one document is hot. Sorted by another
/// field, it is the same document each time.
#[test]
fn an_increment_sorted_by_its_own_counter_is_a_round_robin() {
    let src = r#"
async function next(coll, departmentId, online) {
  const query = { departmentId, username: { $in: online } };
  const update = { $inc: { count: 1 } };
  const sort = { count: 1, order: 1 };
  await coll.findOneAndUpdate(query, update, { sort, returnDocument: "after" });
  await coll.findOneAndUpdate({ departmentId }, { $inc: { count: 1 } }, { sort: { order: 1 } });
}
"#;
    assert_flags_once(CI, "agents.js", src, "sort: { order: 1 }", "$inc");
}

#[test]
fn inc_by_one_on_id_via_update_one_is_flagged() {
    let src = r#"
async function view(db, id) {
  await db.collection("posts").updateOne({ _id: id }, { $inc: { views: 1 } });
}
"#;
    assert_flags_once(CI, "view.js", src, "$inc", "$inc");
    let f = only(CI, "view.js", src);
    assert!(f.message.contains("posts"), "message: {}", f.message);
    assert!(f.message.contains("views"), "message: {}", f.message);
}

#[test]
fn inc_by_minus_one_is_flagged() {
    let src = r#"
async function unlike(db, id) {
  await db.collection("posts").updateOne({ _id: id }, { $inc: { likes: -1 } });
}
"#;
    assert_flags_once(CI, "like.js", src, "$inc", "$inc");
}

#[test]
fn sequence_via_find_one_and_update_is_flagged() {
    let src = r#"
async function nextOrderNumber(db) {
  const r = await db.collection("counters").findOneAndUpdate(
    { _id: "orderId" },
    { $inc: { seq: 1 } },
    { upsert: true, returnDocument: "after" },
  );
  return r.seq;
}
"#;
    assert_flags_once(CI, "seq.js", src, "$inc", "$inc");
    assert!(only(CI, "seq.js", src).message.contains("seq"));
}

#[test]
fn mongoose_find_by_id_and_update_inc_is_flagged() {
    let src = format!(
        "{POST_MODEL}async function view(id) {{\n  await Post.findByIdAndUpdate(id, {{ $inc: {{ views: 1 }} }});\n}}\n"
    );
    assert_flags_once(CI, "view.js", &src, "$inc", "$inc");
}

#[test]
fn inc_on_other_equality_key_is_flagged() {
    let src = r#"
async function view(db, slug) {
  await db.collection("articles").updateOne({ slug: slug }, { $inc: { views: 1 } });
}
"#;
    assert_flags_once(CI, "view.js", src, "$inc", "$inc");
}

#[test]
fn inc_by_computed_amount_is_not_flagged() {
    let src = r#"
async function settle(db, id, batch) {
  await db.collection("accounts").updateOne({ _id: id }, { $inc: { balance: batch.total } });
  await db.collection("accounts").updateOne({ _id: id }, { $inc: { items: batch.length } });
}
"#;
    assert_not_flagged(CI, "settle.js", src);
}

#[test]
fn update_many_inc_is_not_flagged() {
    let src = r#"
async function bump(db) {
  await db.collection("posts").updateMany({ archived: false }, { $inc: { age: 1 } });
}
"#;
    assert_not_flagged(CI, "bump.js", src);
}

#[test]
fn inc_in_nightly_rollup_is_not_flagged() {
    let src = r#"
async function nightlyRollup(db, id) {
  await db.collection("stats").updateOne({ _id: id }, { $inc: { runs: 1 } });
}
"#;
    assert_not_flagged(CI, "rollup.js", src);
}

/// sorry-cypress resets a spec of a run's group: `-1` on its claimed count beside the totals it
/// takes away (`-stats.tests`), each under a computed path to a named total. A rollback of
/// totals, not a counter bumped per event; the same `-1` alone still counts as one, and a
/// computed amount in a slot of a map of counts (`[`byUser.${id}`]`) is no total.
#[test]
fn a_rollup_under_computed_paths_to_named_totals_is_not_a_counter() {
    let src = r#"
const { MongoClient } = require("mongodb");
const db = new MongoClient(url).db("app");
async function reset(runId, group, stats) {
  const path = `progress.groups.${group}`;
  await db.collection("runs").updateOne({ runId }, {
    $inc: { [`${path}.instances.claimed`]: -1, [`${path}.tests.overall`]: -stats.tests },
  });
  await db.collection("runs").updateOne({ runId }, { $inc: { [`${path}.instances.claimed`]: -1 } });
  await db.collection("runs").updateOne({ runId }, {
    $inc: { [`${path}.instances.claimed`]: -1, [`byUser.${stats.user}`]: stats.tests },
  });
}
"#;
    let got = rule_lines(CI, "reset.js", src);
    assert_eq!(got, [9, 11], "{got:?}");
}

#[test]
fn inc_in_cron_callback_is_not_flagged() {
    let src = r#"
const cron = require("node-cron");
function start(db) {
  cron.schedule("0 3 * * *", async () => {
    await db.collection("stats").updateOne({ _id: "daily" }, { $inc: { runs: 1 } });
  });
}
"#;
    assert_not_flagged(CI, "cron.js", src);
}

#[test]
fn version_increment_is_not_a_counter() {
    let src = r#"
async function rename(db, id, name, v) {
  await db.collection("docs").updateOne({ _id: id, version: v }, { $set: { name }, $inc: { version: 1 } });
}
"#;
    assert_not_flagged(CI, "rename.js", src);
}

#[test]
fn the_message_names_every_equality_key_of_the_filter() {
    let src = r#"
async function like(db, slug, tenant) {
  await db.collection("articles").updateOne({ tenant, slug, deleted: { $eq: false } }, { $inc: { likes: 1 } });
  await db.collection("articles").updateOne({ _id: slug, tenant }, { $inc: { views: 1 } });
}
"#;
    let found: Vec<Finding> = findings("like.js", src)
        .into_iter()
        .filter(|f| f.rule == CI)
        .collect();
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[0]
            .message
            .contains("matched by `tenant`, `slug`, `deleted`;"),
        "message: {}",
        found[0].message
    );
    assert!(
        found[1].message.contains("matched by `_id`;"),
        "message: {}",
        found[1].message
    );
}

#[test]
fn epochs_and_computed_keys_are_not_counters() {
    // A review cycle bumped on a state change; one slot of a map of counts named at run time
    // (an inventory: `items.quests.<key>`).
    let src = r#"
async function requestReview(db, organization, featureId, version, questKey, leader) {
  await db.collection("revisions").updateOne(
    { organization, featureId, version, status: "draft" },
    { $set: { status: "pending-review" }, $inc: { reviewCycle: 1 } });
  await db.collection("users").updateOne({ _id: leader }, { $inc: { [`items.quests.${questKey}`]: 1 } });
  await db.collection("users").updateOne({ _id: leader }, { $inc: { ['items.quests.' + questKey]: 1 } });
}
"#;
    assert_not_flagged(CI, "review.js", src);
    // A counter under a computed path is still one counter per event: shown without the
    // brackets and quotes of the computed key.
    let src = r#"
async function touch(db, userId, contactId) {
  await db.collection("contacts").updateOne({ user_id: userId }, { $inc: { [`contacts.${contactId}.n`]: 1 } });
}
"#;
    let f = only(CI, "contacts.js", src);
    assert!(
        f.message
            .contains("`$inc` of `contacts.${contactId}.n` by 1"),
        "message: {}",
        f.message
    );
}

#[test]
fn the_count_of_an_array_pulled_or_popped_in_the_same_update_is_not_a_counter() {
    // The size of an array kept beside it goes down with the `$pull` / `$pop` that removes an
    // element, as a bucket's count goes up with its `$push`.
    let src = r#"
async function detach(db, sid, iid, ids) {
  await db.collection("servers").updateOne({ _id: sid, "instances.instance_id": iid }, { $pull: { instances: { instance_id: iid } }, $inc: { instances_count: -1 } });
  await db.collection("servers").updateOne({ _id: sid }, { $pullAll: { instances: ids }, $inc: { instances_count: -2 } });
  await db.collection("servers").findOneAndUpdate({ _id: sid }, { $pop: { queue: -1 }, $inc: { queueLength: -1 } });
  await Server.findByIdAndUpdate(sid, { $addToSet: { tags: "a" }, $inc: { tagCount: 1 } });
}
"#;
    assert_not_flagged(CI, "detach.js", src);
    let src = r#"
async function restart(db, sid) {
  await db.collection("servers").updateOne({ _id: sid }, { $set: { state: "up" }, $inc: { restarts: 1 } });
}
"#;
    assert_flags_once(CI, "restart.js", src, "restarts", "$inc");
}

// ---------------------------------------------------------------------------------------------
// skip-paging
// ---------------------------------------------------------------------------------------------

const SP: &str = "skip-paging";

#[test]
fn cursor_skip_with_computed_offset_is_flagged() {
    let src = r#"
async function page(db, page, n) {
  return db.collection("posts").find({}).sort({ createdAt: -1 }).skip((page - 1) * n).limit(n).toArray();
}
"#;
    assert_flags_once(SP, "page.js", src, ".skip(", "skip((page - 1) * n)");
    let f = only(SP, "page.js", src);
    assert!(f.message.contains("posts"), "message: {}", f.message);
    assert!(
        f.help.contains("_id") || f.help.contains("keyset"),
        "help: {}",
        f.help
    );
}

/// tree-sitter-typescript cannot read `import('mongoose').FlattenMaps<{ .. }>` in a return type
/// (LibreChat's `createConversationTag`), and its error recovery joins the statements after it
/// into nodes the code never wrote: a call whose receiver is `newTag = await
/// ConversationTag.findOneAndUpdate(..)`. A receiver the parser could not read is no receiver;
/// the same code with a type the grammar reads is reported on its collection.
#[test]
fn a_receiver_inside_a_parse_error_is_not_reported() {
    let src = |ret: &str| {
        format!(
            r#"import mongoose from 'mongoose';
export function m() {{
  async function createConversationTag(user: string, tag: string): Promise<{ret}> {{
    try {{
      const ConversationTag = mongoose.models.ConversationTag as Model<IConversationTag>;
      const Conversation = mongoose.models.Conversation;
      const newTag = await ConversationTag.findOneAndUpdate(
        {{
          position,
          description,
          $setOnInsert: {{ createdAt: new Date() }},
        }},
        {{
          new: true,
          upsert: true,
          lean: true,
        }},
      );
      if (addToConversation && conversationId) {{
        await Conversation.findOneAndUpdate(
          {{ $addToSet: {{ tags: tag }} }},
        );
      }}
    }} catch (e) {{}}
  }}
}}"#
        )
    };
    let broken = src(
        "\n    | (import('mongoose').FlattenMaps<{\n        _id: import('mongoose').Types.ObjectId;\n      }>)\n  ",
    );
    let found = findings("tag.ts", &broken);
    assert!(
        found.iter().all(|f| !f.message.contains("newTag")),
        "{:?}",
        found.iter().map(|f| &f.message).collect::<Vec<_>>()
    );
    let fine = findings("tag.ts", &src("string"));
    let push: Vec<&Finding> = fine.iter().filter(|f| f.rule == "unbounded-push").collect();
    assert_eq!(push.len(), 1, "{fine:?}");
    assert!(
        push[0].message.contains("`conversations`"),
        "{}",
        push[0].message
    );
}

/// mongoose-paginate(-v2)'s `Model.paginate(filter, {page, limit})` skips `(page - 1) * limit`
/// documents (crowi's shares and users, Payload's collections): a page or an offset computed at
/// run time is offset paging, reported at the option and saying what the plugin does with it. A
/// literal page, `pagination: false`, and another library's `paginate` (Octokit's) are not.
#[test]
fn mongoose_paginate_pages_by_skip() {
    let src = r#"
const mongoose = require("mongoose");
const mongoosePaginate = require("mongoose-paginate-v2");
const shareSchema = new mongoose.Schema({ uuid: { type: String, unique: true }, status: String });
shareSchema.plugin(mongoosePaginate);
shareSchema.statics.findShares = function (query, page, limit) {
  return this.paginate(query, { page, limit, sort: { createdAt: -1 } });
};
const Share = mongoose.model("Share", shareSchema);
async function list(req, octokit) {
  const byPage = await Share.paginate({ status: "active" }, { page: req.query.page || 1, limit: 20 });
  const byOffset = await Share.paginate({}, { offset: Number(req.query.from), limit: 20 });
  const first = await Share.paginate({}, { page: 1, limit: 20 });
  const all = await Share.paginate({}, { page: req.query.page, pagination: false });
  const releases = await octokit.paginate(octokit.repos.listReleases, { page: req.query.page });
  return [byPage, byOffset, first, all, releases];
}
"#;
    let got = rule_hits(SP, "share.js", src);
    assert_eq!(
        got,
        [
            (7, "page".to_string()),
            (11, "page".to_string()),
            (12, "offset".to_string())
        ],
        "{got:?}"
    );
    let messages = rule_messages(SP, "share.js", src);
    assert!(
        messages[1].contains("page `req.query.page || 1`, turned into a skip"),
        "{messages:?}"
    );
    assert!(
        messages[2].contains("(`Number(req.query.from)`)"),
        "{messages:?}"
    );
    assert!(
        messages.iter().all(|m| m.contains("`shares`")),
        "{messages:?}"
    );
}

/// An application's own `paginate` method (nodepress's services, over its paginate plugin) is not
/// mongoose-paginate's: a controller's `this.categoryService.paginate(filter, {page})` skips
/// nothing itself, and the plugin's skip is reported where it is written. A model typed as one
/// (`PaginateModel<..>`, an interface named for a model) still pages by skip.
#[test]
fn an_application_services_paginate_is_not_mongoose_paginate() {
    let src = r#"
import { Controller, Get, Query } from "@nestjs/common";
import { PaginateModel } from "mongoose";
import { CategoryService } from "./category.service";
import { TagModel } from "./tag.model";
class LocalService {}
@Controller("categories")
export class CategoryController {
  constructor(
    private readonly categoryService: CategoryService,
    private readonly local: LocalService,
    private readonly tags: TagModel,
    private readonly posts: PaginateModel<Post>,
  ) {}
  @Get()
  list(@Query() query) {
    const { page, per_page, keyword } = query;
    const filter = { name: { $regex: keyword, $options: "i" } };
    this.local.paginate(filter, { page, perPage: per_page });
    this.tags.paginate(filter, { page, limit: per_page });
    this.posts.paginate(filter, { page, limit: per_page });
    return this.categoryService.paginate(filter, { page, perPage: per_page });
  }
}
"#;
    let got = rule_hits(SP, "category.controller.ts", src);
    assert_eq!(
        got,
        [(20, "page".to_string()), (21, "page".to_string())],
        "{got:?}"
    );
}

/// A getter of the file without parameters (LibreChat's `function model() { return
/// mongoose.models.AuditLog; }`, then `const AuditLog = model();`) gives its collection; a query
/// reassigned with a skip under a condition keeps its collection.
#[test]
fn a_model_from_a_getter_of_the_file_pages_by_skip() {
    let src = r#"
import type { Model } from "mongoose";
export function createAuditLogMethods(mongoose: typeof import("mongoose")) {
  function model(): Model<unknown> {
    return mongoose.models.AuditLog as Model<unknown>;
  }
  async function list(filters: { offset?: number }, limit: number) {
    const AuditLog = model();
    const offset = filters.offset && filters.offset > 0 ? Math.floor(filters.offset) : 0;
    let pageQuery = AuditLog.find({}).sort({ seq: -1 }).limit(limit + 1);
    if (offset > 0) pageQuery = pageQuery.skip(offset);
    return pageQuery.lean();
  }
  return { list };
}
"#;
    assert_flags_once(SP, "auditLog.ts", src, ".skip(offset)", "skip(offset)");
    assert!(only(SP, "auditLog.ts", src).message.contains("`auditlogs`"));
}

/// The results a query hands its `exec` callback (tiledesk's `Project_user.find(q).exec(function
/// (err, pus) { pus.forEach(pu => Project.findByIdAndUpdate(pu.id_project, ..)) })`) or its
/// `then` are another query's results: a write per item of them is reported (info), in an
/// iteration callback or a for-of loop, as it is for `const pus = await Project_user.find(q)`. A loop over another callback's argument is not.
#[test]
fn a_write_per_item_of_results_handed_to_a_callback() {
    let src = r#"
const mongoose = require("mongoose");
const Project_user = mongoose.model("project_user", new mongoose.Schema({ id_user: String, id_project: String }));
const Project = mongoose.model("project", new mongoose.Schema({ status: Number }));
function erase(userid, cb) {
  Project_user.find({ id_user: userid }).exec(function (err, pus) {
    pus.forEach((pu) => { Project.findByIdAndUpdate(pu.id_project, { status: 0 }, cb); });
    for (const pu of pus) { Project.updateOne({ _id: pu.id_project }, { status: 3 }); }
  });
  Project_user.find({ id_user: userid }).then((rows) => rows.map((r) => Project.updateOne({ _id: r.id_project }, { status: 1 })));
  readFile(userid, function (err, lines) {
    lines.forEach((l) => { Project.updateOne({ _id: l }, { status: 2 }); });
  });
}
"#;
    let got = rule_hits("query-in-loop", "eraser.js", src);
    assert_eq!(
        got.iter().map(|h| h.0).collect::<Vec<_>>(),
        [7, 8, 10],
        "{got:?}"
    );
}

/// A getter member of a constant object literal (sorry-cypress's `const Collection = {
/// runTimeout: () => db.collection('runTimeouts') }`, then `Collection.runTimeout()`) is the
/// collection it returns: its index declarations and queries are judged together.
#[test]
fn a_getter_member_of_an_object_literal_is_its_collection() {
    let src = r#"
import { Db } from "mongodb";
let db: Db;
export const Collection = { runTimeout: () => db.collection("runTimeouts") };
export async function setup() { await Collection.runTimeout().createIndex({ timeoutAfter: 1 }); }
export async function clear(runId: string) { return Collection.runTimeout().deleteMany({ runId }); }
export async function due(now: Date) { return Collection.runTimeout().find({ timeoutAfter: { $lt: now } }).toArray(); }
"#;
    let got = rule_hits("unindexed-query", "db.ts", src);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, 6, "{got:?}");
    let f = only("unindexed-query", "db.ts", src);
    assert!(
        f.message.contains("`deleteMany` on `runTimeouts`"),
        "{}",
        f.message
    );
}

/// An application helper that compiles a model from a name and a schema of the file (growi's
/// `getOrCreateModel('InAppNotification', schema)`, about 34 of its models) is a model
/// compilation: the schema's indexes and statics are the model's collection's.
#[test]
fn a_model_helper_compiles_the_schema_into_its_collection() {
    let src = r#"
import { Schema } from "mongoose";
import { getOrCreateModel } from "../util/mongoose-utils";
const schema = new Schema({ user: { type: Schema.Types.ObjectId, index: true }, target: Schema.Types.ObjectId });
schema.index({ user: 1, target: 1 });
schema.statics.recent = function (offset: number, limit: number) {
  return this.paginate({}, { offset, limit, sort: { _id: -1 } });
};
export const Notification = getOrCreateModel<unknown, unknown>("InAppNotification", schema);
"#;
    let found = findings("in-app-notification.ts", src);
    let rules: Vec<(&str, bool)> = found
        .iter()
        .map(|f| (f.rule, f.message.contains("`inappnotifications`")))
        .collect();
    assert_eq!(
        rules,
        [("redundant-index", true), ("skip-paging", true)],
        "{found:?}"
    );
}

/// A name set to `null` under a condition (winston-mongodb's `if (start === -1) start = null;`)
/// leaves the value it had wherever it is read with one: the skip is still the caller's.
#[test]
fn a_skip_set_to_null_under_a_condition_keeps_its_value() {
    let src = r#"
MongoDB.prototype.stream = function (options, db) {
  let start = options.start;
  if (start === -1) {
    start = null;
  }
  const col = db.collection("logs");
  if (start != null) {
    return col.find({}, { skip: start }).toArray();
  }
};
"#;
    assert_flags_once(SP, "winston.js", src, "skip: start", "skip");
}

/// A skip the code computes from numbers it writes (adminMongo keeps a day of samples:
/// `(24 * 60) * 60 / 30`) is a fixed offset, not a page; a counter the loop increments
/// (`page++`) is paging, though it starts at a literal.
#[test]
fn a_skip_of_arithmetic_on_literals_is_no_page() {
    let src = r#"
const { MongoClient } = require("mongodb");
const BATCH = 500;
async function trim(db) {
  const keep = (24 * 60) * 60 / 30;
  return db.collection("samples").find({}).sort({ at: -1 }).skip(keep).toArray();
}
async function backfill(db) {
  for (let page = 0; ; page++) {
    const batch = await db.collection("orders").find({}).sort({ _id: 1 }).skip(page * BATCH).limit(BATCH).toArray();
    if (batch.length === 0) break;
  }
  let n = 0;
  while (n < 10) {
    await db.collection("orders").find({}).skip(n).limit(1).toArray();
    n++;
  }
}
"#;
    let got = rule_lines(SP, "trim.js", src);
    assert_eq!(got, [10, 15], "{got:?}");
}

/// A query helper that reassigns its cursor once per option, each under its own `if` (coral's
/// `Query.exec`): the skip is the find's however many reassignments come before it.
#[test]
fn a_cursor_reassigned_under_conditions_keeps_its_skip() {
    let src = r#"
import { Collection } from "mongodb";
export class Query {
  constructor(private collection: Collection, private filter: object, private skip?: number, private limit?: number) {}
  public async exec() {
    let cursor = this.collection.find(this.filter);
    if (this.limit) {
      cursor = cursor.limit(this.limit);
    }
    if (this.skip) {
      cursor = cursor.skip(this.skip);
    }
    return cursor;
  }
}
"#;
    assert_flags_once(SP, "query.ts", src, ".skip(", "skip(this.skip)");
}

/// The same skip on the same collection written again in one function, once per branch (a sort
/// order, a driver version: cve-search's `getCVEs` has six), is one paging: one finding, at the
/// first, with the others as related locations. The same skip in another function, or another
/// skip in the same function, is a finding of its own.
#[test]
fn the_same_paging_in_branches_of_one_function_is_one_finding() {
    let src = r#"
async function list(db, q, skip, n, newest) {
  if (newest) {
    return db.collection("cves").find(q).sort({ at: -1 }).limit(n).skip(skip).toArray();
  } else {
    return db.collection("cves").find(q).sort({ at: 1 }).limit(n).skip(skip).toArray();
  }
}
async function other(db, skip, offset) {
  await db.collection("cves").find({}).skip(skip).toArray();
  await db.collection("cves").find({}).skip(offset).toArray();
}
"#;
    let fs: Vec<_> = findings("cves.js", src)
        .into_iter()
        .filter(|f| f.rule == SP)
        .collect();
    let lines: Vec<_> = fs
        .iter()
        .map(|f| line_at(src, f.span.start as usize))
        .collect();
    assert_eq!(lines, vec![4, 10, 11], "{fs:#?}");
    let related: Vec<_> = fs[0]
        .related
        .iter()
        .map(|r| (line_at(src, r.span.start as usize), r.message.as_str()))
        .collect();
    assert_eq!(
        related,
        vec![(6, "the same paging, written again in this function")]
    );
    assert!(fs[1].related.is_empty() && fs[2].related.is_empty());
}

/// A skip the code caps before the query (Habitica's inbox: `if (skip >= MAX_PM_COUNT) return
/// [];`, so at most 400 messages deep) limits how deep users can go, as the help suggests: not
/// flagged, in the query's chain or applied later to the query's name. A guard on something else
/// leaves the skip unbounded.
#[test]
fn a_skip_capped_before_the_query_is_not_paging() {
    let src = r#"const mongoose = require('mongoose');
const Inbox = mongoose.model('Inbox', new mongoose.Schema({ ownerId: String, ts: Date }));
const PER_PAGE = 50, MAX_COUNT = 400;
export async function getInbox(ownerId, page) {
  const skip = PER_PAGE * Number(page);
  if (skip >= MAX_COUNT) return [];
  return Inbox.find({ ownerId }).sort({ ts: -1 }).skip(skip).limit(PER_PAGE).lean().exec();
}
export async function uncapped(ownerId, page) {
  const skip = PER_PAGE * Number(page);
  if (page < 0) return [];
  return Inbox.find({ ownerId }).sort({ ts: -1 }).skip(skip).limit(PER_PAGE).lean().exec();
}
export async function built(ownerId, options) {
  let query = Inbox.find({ ownerId }).sort({ ts: -1 });
  if (typeof options.page !== 'undefined') {
    const skip = PER_PAGE * Number(options.page);
    if (skip >= MAX_COUNT) {
      return [];
    }
    query = query.skip(skip).limit(PER_PAGE);
  }
  return query.lean().exec();
}
"#;
    assert_eq!(rule_lines(SP, "inbox.js", src), vec![12]);
}

/// A `$skip` after a `$limit` skips among the documents the limit kept, and reads no more than
/// the limit: not paging, unless the limit grows with the skip. Reaction's
/// `applyPaginationToMongoAggregate` reads the page before as `$limit: skip + 1` then `$skip:
/// skip - 1`, and girder's `findWithPermissions` pages with `$limit: limit + offset` then `$skip:
/// offset`: each reads every document before the page, as the offset page after it does.
#[test]
fn a_skip_stage_after_a_limit_stage_is_not_paging() {
    let src = r#"
export default async function page(collection, pipeline, { skip, limit }) {
  const capped = await collection.aggregate([...pipeline, { $limit: 100 }, { $skip: skip }]).toArray();
  const prevPipeline = [...pipeline];
  prevPipeline.push({ $limit: skip + 1 });
  prevPipeline.push({ $skip: skip - 1 });
  const before = await collection.aggregate(prevPipeline).toArray();
  const pagePipeline = [...pipeline, { $match: { active: true } }, { $skip: skip }, { $limit: limit }];
  return { capped, before, page: await collection.aggregate(pagePipeline).toArray() };
}
export async function girder(db, query, offset, limit) {
  return db.collection("items").aggregate([{ $match: query }, { $limit: limit + offset }, { $skip: offset }]).toArray();
}
"#;
    assert_eq!(rule_lines(SP, "paginate.js", src), vec![6, 8, 12]);
}

/// A `$skip` after a `$group` skips among groups that the stage computed from every document it
/// was given, whatever the page (GROWI's tag counts, NodeBB's sorted-set unions): no scan of its
/// own, in the pipeline, in a `$facet` after the group, or in the Mongoose builder. A `$skip`
/// before the group, or in a `$lookup`'s own pipeline, is paging.
#[test]
fn a_skip_stage_after_a_group_is_not_paging() {
    let src = r#"
const { MongoClient } = require("mongodb");
async function tagCounts(db, Rel, offset) {
  await db.collection("rels").aggregate([
    { $match: { trashed: false } },
    { $group: { _id: "$tag", count: { $sum: 1 } } },
    { $sort: { count: -1 } },
    { $skip: offset },
    { $limit: 50 },
  ]).toArray();
  await db.collection("posts").aggregate([
    { $group: { _id: "$postId", at: { $max: "$at" } } },
    { $facet: { total: [{ $count: "n" }], list: [{ $sort: { at: -1 } }, { $skip: offset }] } },
  ]).toArray();
  await Rel.aggregate().match({ trashed: false }).group({ _id: "$tag", n: { $sum: 1 } }).sort({ n: -1 }).skip(offset).limit(10).exec();
  return db.collection("rels").aggregate([{ $skip: offset }, { $group: { _id: "$tag" } }]).toArray();
}
// Countly's job list: the driver's AggregationCursor.skip() adds a `$skip` stage at the end, in
// a statement of its own as in the chain.
const byName = [{ $group: { _id: "$name", total: { $sum: 1 } } }];
async function jobs(db, params) {
  const cursor = db.collection("jobs").aggregate(byName, { allowDiskUse: true });
  cursor.sort({ total: -1 });
  cursor.skip(Number(params.qstring.iDisplayStart || 0));
  return cursor.limit(10).toArray();
}
"#;
    assert_flags_once(SP, "tags.js", src, "[{ $skip: offset }", "$skip");
}

/// Mongoose's query builder conditions (`.and(..)`, `.or(..)`, `.where("f").equals(v)`, crowi's
/// page list) hide nothing chained after them, and make the filter one the access model cannot
/// read whole: the skip is reported, the filter not judged against the indexes.
#[test]
fn query_builder_conditions_hide_nothing_after_them() {
    let src = r#"
import { Schema, model } from "mongoose";
const Page = model("Page", new Schema({ path: { type: String, index: true }, a: Number }));
export function list(path, offset) { return Page.find({ a: 1 }).and({ path }).skip(offset).limit(10); }
export function one() { return Page.find({ a: 1 }).where("path").equals("x"); }
export function other() { return Page.find({ a: 2 }).limit(10); }
"#;
    assert_flags_once(SP, "page.ts", src, "and({ path })", "skip(offset)");
    assert_flags_once("unindexed-query", "page.ts", src, "a: 2", "find");
}

/// A condition the builder adds to a query held in a name under an `if` with no `else`
/// (lets-chat's message list, `if (options.from) find.where("posted").gt(options.from)`) is not on
/// the path that skips the `if`: that query is judged as sent without it. Added on every path it
/// is read; added in each branch of an `if`, it leaves the filter unread. A query refined under
/// such an `if` (`find = find.find({ $text: .. })`) is sent unrefined on the other path, with the
/// modifiers chained after the `if`.
#[test]
fn a_builder_condition_under_an_if_is_left_out_of_the_query() {
    let src = r#"
var mongoose = require("mongoose");
var S = new mongoose.Schema({ room: String, author: String, posted: { type: Date, index: true } });
var Message = mongoose.model("Message", S);
function since(options, cb) {
  var find = Message.find({ room: options.room });
  if (options.from) find.where("posted").gt(options.from);
  find.sort({ posted: -1 }).limit(50).exec(cb);
}
function always(options, cb) {
  var find = Message.find({ room: options.room, tag: 1 });
  find.where("posted").gt(options.from);
  find.sort({ posted: -1 }).limit(50).exec(cb);
}
function either(options, cb) {
  var find = Message.find({ room: options.room, tag: 2 });
  if (options.a) { find.where("posted").gt(options.from); } else { find.where("author").equals(options.a); }
  find.sort({ posted: -1 }).limit(50).exec(cb);
}
function search(options, cb) {
  var find = Message.find({ author: options.author });
  if (options.query) find = find.find({ $text: { $search: options.query } });
  find.sort({ posted: -1 }).limit(50).exec(cb);
}
module.exports = { since, always, either, search };
"#;
    assert_eq!(
        rule_lines("unindexed-query", "messages.js", src),
        vec![
            line_of(src, "Message.find({ room: options.room });"),
            line_of(src, "Message.find({ author: options.author });"),
        ]
    );
    let messages = rule_messages("unindexed-query", "messages.js", src);
    assert!(
        messages[0].contains("filters by `room` (equality), sorts by `posted: -1`"),
        "{messages:?}"
    );
    // (The query the path without the text search sends keeps the sort chained after it.)
    assert!(
        messages[1].contains("filters by `author` (equality), sorts by `posted: -1`"),
        "{messages:?}"
    );
}

/// A function stored in a loop (an object's handler, `routes[m] = async function () { .. }`:
/// Rocket.Chat's REST routes, one per HTTP method) runs when it is called, not once per item:
/// its reads are not in the loop. A callback the loop runs, and a function it calls, are.
#[test]
fn a_function_stored_in_a_loop_does_not_run_in_it() {
    let src = r#"
const { MongoClient } = require("mongodb");
const users = new MongoClient().db().collection("users");
function addRoutes(routes, operations, ids) {
  Object.keys(operations).forEach((method) => {
    operations[method] = { action: async function handler() { return users.findOne({ _id: this.userId }); } };
  });
  for (const m of Object.keys(operations)) {
    routes[m] = async function () { return users.findOne({ _id: m }); };
  }
  for (const id of ids) {
    const load = async () => users.findOne({ _id: id });
    load();
  }
}
"#;
    assert_flags_once("query-in-loop", "routes.js", src, "const load", "findOne");
}

/// Mongoose's functions destructured from its default import (`const { Schema, model } =
/// mongoose`, OpenNeuro's 31 model files) compile models as `import { model }` would: the model's
/// collection is named, and its indexes judge its queries.
#[test]
fn a_model_compiled_by_a_destructured_mongoose_model_is_named() {
    let src = r#"
import mongoose from "mongoose"
const { Schema, model } = mongoose
const s = new Schema({ id: String, orcid: String, provider: String })
s.index({ id: 1, provider: 1 }, { unique: true })
const User = model("User", s)
export const byOrcid = (o) => User.find({ orcid: { $in: o } }).exec()
export const byId = (id, p) => User.findOne({ id, provider: p }).exec()
"#;
    assert_flags_once(
        "unindexed-query",
        "models/user.ts",
        src,
        "export const byOrcid",
        "find",
    );
    let f = only("unindexed-query", "models/user.ts", src);
    assert!(f.message.contains("`find` on `users`"), "{}", f.message);
}

/// A class's own `createIndex` method (crowi's Elasticsearch client: `this.createIndex(name)`
/// calls `this.client.indices.create(..)`) is no MongoDB index on a collection named at run time,
/// which would leave every collection's queries unjudged: the Mongoose model beside it is still
/// checked against its indexes.
#[test]
fn a_class_s_own_create_index_method_is_no_index_declaration() {
    let search = r#"
export default class SearchClient {
  client: any;
  async createIndex(index) { return this.client.indices.create({ index }); }
  async buildIndex(name) { await this.createIndex(name); }
}
"#;
    let watcher = r#"
import { Schema, model } from "mongoose";
const Watcher = model("Watcher", new Schema({ user: { type: Schema.Types.ObjectId, index: true }, target: String, status: String }));
export const findWatchers = (target) => Watcher.find({ target, status: "WATCH" });
"#;
    // Nor is one a base class in another module defines (Twake's search adapters:
    // `this.ensureIndex(definition, columns, this.createIndex.bind(this))`).
    let adapter = r#"
import { SearchAdapter } from "../abstract";
export default class ElasticSearch extends SearchAdapter {
  async upsert(definition, columns) {
    await this.ensureIndex(definition, columns, this.createIndex.bind(this));
  }
}
"#;
    for other in [search, adapter] {
        let src = format!("{watcher}{other}");
        assert_flags_once(
            "unindexed-query",
            "watcher.ts",
            &src,
            "Watcher.find",
            "find",
        );
    }
}

/// Options filled in after they are declared (`const options = { limit: 20 }; options.skip =
/// terms.offset`, Vulcan's resolvers) page as the literal does.
#[test]
fn a_skip_set_on_the_options_object_pages() {
    let src = r#"
const { MongoClient } = require("mongodb");
async function list(db, terms) {
  const options = { limit: 20 };
  options.skip = terms.offset;
  return db.collection("posts").find({}, options).toArray();
}
"#;
    assert_flags_once(SP, "list.js", src, "options.skip", "terms.offset");
}

/// Options a wrapper is given, with a default, and fills before it passes them on (ship's
/// `find(filter, readConfig = {}, findOptions: FindOptions = {})` .. `findOptions.skip = (page - 1)
/// * perPage`) page as the literal does. Options it is given and passes on untouched do not.
#[test]
fn a_skip_set_on_options_a_function_is_given_pages() {
    let src = r#"
import { Collection, FindOptions } from "mongodb";
export class Service<T> {
  constructor(private collection: Collection<T>) {}
  async find(filter: object, readConfig: { page?: number; perPage?: number } = {}, findOptions: FindOptions = {}) {
    const { page, perPage } = readConfig;
    if (!page || !perPage) {
      return this.collection.find(filter, findOptions).toArray();
    }
    findOptions.skip = (page - 1) * perPage;
    findOptions.limit = perPage;
    return this.collection.find(filter, findOptions).toArray();
  }
}
"#;
    assert_flags_once(
        SP,
        "service.ts",
        src,
        "findOptions.skip =",
        "(page - 1) * perPage",
    );
}

/// A count given a skip counts what a page would hold (girder rebuilds pymongo's
/// `cursor.count(with_limit_and_skip=True)` on `count_documents(q, skip=n)`): the paging is the
/// read that skips, reported on its own.
#[test]
fn a_count_given_a_skip_is_not_the_paging() {
    let src = r#"
async function page(db, q, offset) {
  const total = await db.collection("items").countDocuments(q, { skip: offset, limit: 20 });
  const rows = await db.collection("items").find(q).skip(offset).limit(20).toArray();
  return { total, rows };
}
"#;
    assert_flags_once(SP, "page.js", src, ".find(q).skip(", "skip(offset)");
}

/// A pagination helper that receives its cursor (Reaction Commerce's
/// `applyOffsetPaginationToMongoCursor`): `cursor.limit(n)` and `cursor.skip(offset)` in
/// statements of their own, the skip applied again after looking ahead on a clone.
#[test]
fn a_cursor_parameter_paged_by_skip_and_limit_is_flagged() {
    let src = r#"
export default async function applyOffsetPagination(cursor, { first, offset } = {}) {
  const limit = first || 20;
  cursor.limit(limit);
  cursor.skip(offset);
  const nextCursor = cursor.clone();
  nextCursor.skip(offset + limit);
  nextCursor.limit(1);
  const hasNextPage = await nextCursor.hasNext();
  cursor.limit(limit);
  cursor.skip(offset);
  return { hasNextPage };
}
"#;
    // One finding: the same paging again, and the look-ahead on a copy of the cursor, are the
    // paging already reported.
    assert_flags_once(
        SP,
        "paginate.js",
        src,
        "cursor.skip(offset)",
        "skip(offset)",
    );
    assert!(only(SP, "paginate.js", src).message.contains("`cursor`"));
    // Copies of a cursor that the function itself does not page: one finding, the first copy's.
    let src = r#"
export async function hasPrevious(cursor, skip, limit) {
  const prev = cursor.clone();
  prev.limit(limit + 1);
  prev.skip(skip - 1);
  const again = prev.clone();
  again.skip(skip - 2).limit(1);
  return (await prev.count()) > limit;
}
"#;
    assert_flags_once(
        SP,
        "previous.js",
        src,
        "prev.skip(skip - 1)",
        "skip(skip - 1)",
    );
    // A skip without a limit on the same variable is not evidence of a cursor; nor is a skip
    // on a name bound to something that is not a call.
    let src = r#"
function drop(list, offset) {
  return list.skip(offset);
}
function f(offset) {
  const rows = [1, 2, 3];
  rows.limit(2);
  return rows.skip(offset);
}
"#;
    assert_eq!(rule_hits(SP, "drop.js", src), vec![]);
}

/// RxJS's and Immutable's `skip` go with `take`; TypeORM's query builder is typed as such.
#[test]
fn skip_on_other_libraries_is_not_offset_paging() {
    let src = r#"
import { SelectQueryBuilder } from "typeorm";
export function page(qb: SelectQueryBuilder<User>, offset: number) {
  qb.limit(20);
  return qb.skip(offset).getMany();
}
export function latest(events$, n) {
  return events$.skip(n).take(10);
}
"#;
    assert_eq!(rule_hits(SP, "page.ts", src), vec![]);
}

/// A paging helper whose parameter is typed as a Mongoose query through the module's namespace
/// (erxes' shared `defaultPaginate(collection: mongoose.Query<any, any>, params)`, called from
/// every plugin) pages that query where it skips, as one typed `any` (its `paginate`) does.
/// TypeORM's builder through its namespace does not.
#[test]
fn a_helper_paging_a_query_typed_through_its_module_is_offset_paging() {
    let src = r#"
import * as mongoose from 'mongoose';
import * as typeorm from 'typeorm';
export const defaultPaginate = (collection: mongoose.Query<any, any>, params: { page?: number; perPage?: number }) => {
  const { page = 1, perPage = 20 } = params || {};
  return collection.limit(perPage).skip((page - 1) * perPage);
};
export const paginate = (collection: any, params: { page?: number; perPage?: number }) => {
  const { page = 1, perPage = 20 } = params || {};
  return collection.limit(perPage).skip((page - 1) * perPage);
};
export function rows(qb: typeorm.SelectQueryBuilder<User>, offset: number) {
  qb.limit(20);
  return qb.skip(offset).getMany();
}
"#;
    assert_eq!(
        rule_lines(SP, "utils.ts", src),
        vec![
            line_of(src, "(collection: mongoose") + 2,
            line_of(src, "(collection: any") + 2
        ]
    );
}

/// A cursor bound to a read is that read's, once: the loose reading does not add a second.
#[test]
fn a_skip_on_a_bound_read_is_reported_once() {
    let src = r#"
async function page(db, offset) {
  const cursor = db.collection("posts").find({ status: "live" });
  cursor.limit(20);
  cursor.skip(offset);
  return cursor.toArray();
}
"#;
    assert_flags_once(SP, "page.js", src, "cursor.skip(", "skip(offset)");
    assert!(only(SP, "page.js", src).message.contains("posts"));
}

#[test]
fn find_option_skip_is_flagged() {
    let src = r#"
async function page(db, q, offset) {
  return db.collection("posts").find(q, { skip: offset, limit: 20 }).toArray();
}
"#;
    let got = rule_hits(SP, "page.js", src);
    assert_eq!(got.len(), 1, "in:\n{src}\ngot {got:?}");
    assert_eq!(got[0].0, line_of(src, "skip: offset"));
}

#[test]
fn skip_stage_in_aggregate_is_flagged() {
    let src = r#"
async function page(db, n) {
  return db.collection("posts").aggregate([
    { $sort: { createdAt: -1 } },
    { $skip: n },
    { $limit: 20 },
  ]).toArray();
}
"#;
    assert_flags_once(SP, "page.js", src, "$skip", "$skip");
}

#[test]
fn skip_stage_inside_facet_is_flagged() {
    let src = r#"
async function page(db, offset, size) {
  return db.collection("posts").aggregate([
    { $match: { published: true } },
    { $facet: { data: [{ $skip: offset }, { $limit: size }], total: [{ $count: "n" }] } },
  ]).toArray();
}
"#;
    let got = rule_hits(SP, "page.js", src);
    assert_eq!(got.len(), 1, "in:\n{src}\ngot {got:?}");
    assert_eq!(got[0].0, line_of(src, "$facet"));
}

/// A pipeline written in a helper of the same file and returned by it (erxes's
/// `aggregatePaginator(params)` spread into the pipeline; mongo-express's
/// `exp._getAggregatePipeline(query, options)` bound to a name and passed to `aggregate`): the
/// helper's `$skip` stage is the aggregate's. It is flagged where it is written, once however
/// many reads use it.
#[test]
fn skip_stage_returned_by_a_helper_is_flagged() {
    let src = r#"
const paginator = (params) => {
  const { perPage = 20, page = 1 } = params;
  return [{ $skip: perPage * (page - 1) }, { $limit: perPage }];
};
export async function similar(models, filter, params) {
  return models.Products.aggregate([{ $match: filter }, ...paginator(params)]);
}
export async function others(models, filter, params) {
  return models.Products.aggregate([{ $sort: { code: 1 } }, ...paginator(params)]);
}
"#;
    assert_flags_once(SP, "utils.ts", src, "$skip", "$skip");
    let src = r#"
const exp = {};
exp._getAggregatePipeline = function (pipeline, queryOptions) {
  return [
    ...pipeline,
    { $facet: { count: [{ $count: 'count' }], items: [{ $skip: queryOptions.skip }, { $limit: 20 }] } },
  ];
};
exp.items = async function (req, query, queryOptions) {
  const queryAggregate = exp._getAggregatePipeline(query, queryOptions);
  const [result] = await req.db.collection("docs").aggregate(queryAggregate).toArray();
  return result;
};
"#;
    assert_flags_once(SP, "collection.js", src, "$skip", "$skip");
    assert!(only(SP, "collection.js", src).message.contains("`docs`"));
}

/// A helper's pipeline is read only when the file says which function is called and what it
/// returns: a constant skip is no paging; a function defined twice, or an array the helper
/// builds step by step (its stages may depend on the caller's arguments), is not followed.
#[test]
fn helper_pipelines_that_do_not_page_are_not_flagged() {
    let src = r#"
function firstPage() {
  return [{ $skip: 0 }, { $limit: 20 }];
}
async function list(db) {
  return db.collection("posts").aggregate([{ $match: {} }, ...firstPage()]).toArray();
}
"#;
    assert_not_flagged(SP, "list.js", src);
    let src = r#"
function build(options) {
  const pipeline = [{ $match: {} }];
  if (options.paged) {
    pipeline.push({ $skip: options.offset });
  }
  return pipeline;
}
async function report(db, filters) {
  return db.collection("conversations").aggregate(build({})).toArray();
}
"#;
    assert_not_flagged(SP, "report.js", src);
}

#[test]
fn mongoose_query_skip_is_flagged() {
    let src = format!(
        "{POST_MODEL}async function list(req) {{\n  const page = Number(req.query.page);\n  return Post.find({{}}).skip(page * 20).limit(20);\n}}\n"
    );
    assert_flags_once(SP, "list.js", &src, ".skip(", "skip(page * 20)");
}

#[test]
fn skip_in_typescript_is_flagged() {
    let src = r#"
import { Collection } from "mongodb";
export async function page(posts: Collection<Post>, offset: number) {
  return posts.find({}).skip(offset).limit(20).toArray();
}
"#;
    assert_flags_once(SP, "page.ts", src, ".skip(", "skip(offset)");
}

#[test]
fn constant_skips_are_not_flagged() {
    let src = r#"
const PAGE_OFFSET = 20;
async function f(db) {
  await db.collection("posts").find({}).skip(0).toArray();
  await db.collection("posts").find({}).skip(10).toArray();
  await db.collection("posts").find({}).skip(PAGE_OFFSET).toArray();
  await db.collection("posts").aggregate([{ $skip: 5 }]).toArray();
}
"#;
    assert_not_flagged(SP, "f.js", src);
}

#[test]
fn rxjs_skip_is_not_mongodb() {
    let src = r#"
import { fromEvent } from "rxjs";
import { skip, map } from "rxjs/operators";
export const clicks$ = fromEvent(document, "click").pipe(skip(1), map((e) => e.target));
"#;
    assert_clean("clicks.ts", src);
}

#[test]
fn typeorm_find_and_query_builder_skip_are_not_mongodb() {
    let src = r#"
import { Repository } from "typeorm";
export async function page(repo: Repository<User>, skip: number, take: number, offset: number) {
  const a = await repo.find({ skip, take });
  const b = await repo.createQueryBuilder("u").orderBy("u.id").skip(offset).take(take).getMany();
  return [a, b];
}
"#;
    assert_clean("users.ts", src);
}

#[test]
fn prisma_find_many_skip_is_not_mongodb() {
    let src = r#"
import { PrismaClient } from "@prisma/client";
const prisma = new PrismaClient();
export async function page(skip: number) {
  return prisma.user.findMany({ skip, take: 20, orderBy: { id: "asc" } });
}
"#;
    assert_clean("users.ts", src);
}

#[test]
fn lodash_find_is_not_mongodb() {
    let src = r#"
const _ = require("lodash");
function active(users, page, n) {
  const u = _.find(users, { active: true });
  const rest = _.drop(users, (page - 1) * n);
  return [u, rest];
}
module.exports = { active };
"#;
    assert_clean("users.js", src);
}

// ---------------------------------------------------------------------------------------------
// more driver spellings
// ---------------------------------------------------------------------------------------------

#[test]
fn document_loaded_with_find_one_then_pushed_and_saved_is_flagged() {
    let src = format!(
        "{POST_MODEL}async function comment(slug, text) {{\n  const post = await Post.findOne({{ slug }});\n  post.comments.push({{ text }});\n  await post.save();\n}}\n"
    );
    assert_flags_once(UP, "c.js", &src, "comments.push", "push");
}

#[test]
fn mongoose_update_one_inc_and_small_literal_inc_are_flagged() {
    let src = format!(
        "{POST_MODEL}async function view(db, id) {{\n  await Post.updateOne({{ _id: id }}, {{ $inc: {{ views: 1 }} }});\n  await db.collection(\"scores\").updateOne({{ _id: id }}, {{ $inc: {{ points: 5 }} }});\n}}\n"
    );
    let got = rule_hits(CI, "v.js", &src);
    assert_eq!(
        got,
        vec![
            (line_of(&src, "views: 1"), "$inc".to_string()),
            (line_of(&src, "points: 5"), "$inc".to_string()),
        ],
        "in:\n{src}"
    );
}

#[test]
fn mongoose_find_options_skip_is_flagged() {
    let src = format!(
        "{POST_MODEL}async function list(offset) {{\n  return Post.find({{}}, null, {{ skip: offset, limit: 10 }});\n}}\n"
    );
    let got = rule_hits(SP, "l.js", &src);
    assert_eq!(got.len(), 1, "in:\n{src}\ngot {got:?}");
    assert_eq!(got[0].0, line_of(&src, "skip: offset"));
}

#[test]
fn date_named_parameter_hole_is_flagged_as_per_date() {
    let src = r#"
async function store(db, date, row) {
  await db.collection(`events_${date}`).insertOne(row);
}
"#;
    let f = only(DCN, "s.js", src);
    assert!(f.message.contains("per-date"), "message: {}", f.message);
    assert!(f.message.contains("`date`"), "message: {}", f.message);
}

#[test]
fn chained_populate_with_option_objects_is_flagged() {
    let src = format!(
        "{POST_MODEL}async function list() {{\n  return Post.find().populate({{ path: \"author\" }}).populate({{ path: \"tags\", select: \"name\" }});\n}}\n"
    );
    assert_eq!(rule_hits(LC, "l.js", &src).len(), 1, "in:\n{src}");
}

/// The JavaScript frontend keeps receiver classifications by node once the bindings are known;
/// a kept result must not leak past the recursion cap. `a1`'s operation classifies the start of
/// the alias chain shallowly first; classifying `aN` reaches those same nodes N levels deeper,
/// where the cap (48) cuts the rest of the chain off. Resolved up to a47 and not from a48, as
/// before results were kept (checked against the binary before the memo).
#[test]
fn receiver_results_kept_across_calls_respect_the_depth_cap() {
    let chain = |len: usize| {
        let mut src =
            String::from("async function f(db, e) {\n  const a0 = db.collection(\"events\");\n");
        for i in 1..=len {
            src.push_str(&format!("  const a{i} = a{};\n", i - 1));
        }
        src.push_str("  await a1.updateOne({ _id: e.id }, { $push: { first: e } });\n");
        src.push_str(&format!(
            "  await a{len}.updateOne({{ _id: e.id }}, {{ $push: {{ last: e }} }});\n}}\n"
        ));
        src
    };
    let pushes = |src: &str| {
        findings("svc.js", src)
            .into_iter()
            .filter(|f| f.rule == UP)
            .map(|f| f.message)
            .collect::<Vec<_>>()
    };
    let within = pushes(&chain(47));
    assert_eq!(within.len(), 2, "{within:?}");
    assert!(within[0].contains("`first` in `events`"), "{within:?}");
    assert!(within[1].contains("`last` in `events`"), "{within:?}");
    let past = pushes(&chain(48));
    assert_eq!(past.len(), 2, "{past:?}");
    assert!(past[0].contains("`first` in `events`"), "{past:?}");
    assert!(
        past[1].contains("`last` in the collection behind `a48`"),
        "the cap still cuts the chain off: {past:?}"
    );
}

/// `this` in a Mongoose static is the model compiled from the schema: the finding names its
/// collection (`this` in an instance method is a document, and stays unresolved).
#[test]
fn this_in_a_mongoose_static_is_the_model() {
    let src = r#"const mongoose = require("mongoose");
const schema = new mongoose.Schema({ name: String, notifications: [{}] });
schema.statics.pushNotification = async function (q, n) {
  await this.updateMany(q, { $push: { notifications: n } }).exec();
};
schema.statics = {
  async byName(name, page) { return this.find({ name }).skip(page * 10); },
};
schema.static("archive", function (id) { return this.updateOne({ _id: id }, { $push: { notifications: id } }); });
export const model = mongoose.model("User", schema);
"#;
    let found = findings("user.js", src);
    assert_eq!(found.len(), 3, "{found:?}");
    for f in &found {
        assert!(f.message.contains("`users`"), "message: {}", f.message);
    }
}

/// Fields added to a schema with `schema.add({..})` (lad's users) carry their index options as the
/// schema's definition does; fields added that cannot be read (an object filled in at run time, a
/// computed key) may declare indexes, so the collection is not judged.
#[test]
fn fields_added_to_a_schema_declare_their_indexes() {
    let src = r#"const mongoose = require("mongoose");
const User = new mongoose.Schema({ email: { type: String, index: true } });
User.add({ group: { type: String, index: true } });
User.add({ city: { type: String, unique: true } }, "address.");
const Users = mongoose.model("User", User);
async function f() { return Users.countDocuments({ group: "admin" }); }
async function g() { return Users.findOne({ "address.city": "x" }); }
async function h() { return Users.countDocuments({ other: "admin" }); }
"#;
    let got = rule_hits("unindexed-query", "user.js", src);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, 8, "{got:?}");
    assert!(findings("user.js", src).iter().any(|f| f
        .message
        .contains("none of the 3 indexes declared for `users`")));
    for added in [
        "const o = {}; o.group = { type: String, index: true }; User.add(o);",
        "User.add({ [config.fields.group]: { type: String, index: true } });",
    ] {
        let src = format!(
            "const mongoose = require(\"mongoose\");\n\
             const User = new mongoose.Schema({{ email: {{ type: String, index: true }} }});\n\
             {added}\n\
             const Users = mongoose.model(\"User\", User);\n\
             async function f() {{ return Users.countDocuments({{ group: \"admin\" }}); }}\n"
        );
        assert!(
            rule_hits("unindexed-query", "user.js", &src).is_empty(),
            "{src}"
        );
    }
}

/// A loaded document grown in memory and written back whole by a model's update
/// (`Settings.findByIdAndUpdate(id, settings)`, tiledesk's knowledge bases) grows the stored array
/// as its `save()` would. An update given another object writes no grown array.
#[test]
fn a_document_written_back_by_a_model_update_grows_its_array() {
    let src = r#"const mongoose = require('mongoose');
const Settings = mongoose.model('kbsettings', new mongoose.Schema({ kbs: [{ name: String, url: String }] }));
async function addKb(id, body) {
  const settings = await Settings.findById(id);
  settings.kbs.push({ name: body.name, url: body.url });
  return Settings.findByIdAndUpdate(id, settings, { new: true });
}
async function preview(id, body, update) {
  const settings = await Settings.findById(id);
  settings.kbs.push({ name: body.name });
  return Settings.findByIdAndUpdate(id, update);
}
"#;
    assert_eq!(rule_lines("unbounded-push", "kb.js", src), vec![5]);
}

/// Mirror arrays filled under one membership test (tiledesk's requests: `participants`, and
/// `participantsBots` or `participantsAgents` beside it) hold no more values than the checked
/// array: each push of the checked value, or of one derived from it (also through a name bound to
/// it), is info as the checked push is. A push of anything else under the same test still grows
/// without bound.
#[test]
fn mirror_arrays_under_one_membership_test_are_checked() {
    let src = r#"const mongoose = require('mongoose');
const Conv = mongoose.model('conv', new mongoose.Schema({ members: [String], bots: [String], agents: [String], log: [String] }));
async function join(id, member) {
  const conv = await Conv.findById(id);
  if (conv.members.indexOf(member) === -1) {
    conv.members.push(member);
    if (member.startsWith('bot_')) {
      var botId = member.replace('bot_', '');
      conv.bots.push(botId);
    } else conv.agents.push(member);
    conv.log.push('joined');
    await conv.save();
  }
}
"#;
    let got: Vec<(usize, Severity)> = findings("conv.js", src)
        .iter()
        .filter(|f| f.rule == "unbounded-push")
        .map(|f| (line_at(src, f.span.start as usize), f.severity))
        .collect();
    assert_eq!(
        got,
        [
            (6, Severity::Info),
            (9, Severity::Info),
            (10, Severity::Info),
            (11, Severity::Warning)
        ]
    );
}

/// A loaded document's array set anew to an array literal before a loop that fills it
/// (`a.preferred = []`, as crits does in Python) is saved whole with what the function builds:
/// no growth. Set only where it is missing (`if (!a.preferred) a.preferred = []`), it grows.
#[test]
fn an_array_set_anew_before_its_pushes_is_not_grown() {
    let src = r#"const mongoose = require('mongoose');
const Action = mongoose.model('Action', new mongoose.Schema({ name: String, preferred: [String] }));
async function setPreferred(name, prefs) {
  const a = await Action.findOne({ name });
  a.preferred = [];
  for (const p of prefs.split('\n')) a.preferred.push(p.trim());
  await a.save();
}
async function addPreferred(name, p) {
  const a = await Action.findOne({ name });
  if (!a.preferred) a.preferred = [];
  a.preferred.push(p);
  await a.save();
}
"#;
    assert_eq!(rule_lines("unbounded-push", "action.js", src), vec![12]);
}

/// A filter filled in at run time (`Object.assign(filter, extra)`, `conditions[key] = ..`, a
/// member set in both branches of an `if`) is not judged, as its keys are not all known; one whose
/// member is set only under an `if` (`if (ids) conditions._id = ..`) is judged on the path that
/// skips it. And only the binding that is filled: another function's `conditions`, filled in its
/// own body, leaves this one's literal (heyform's submissions, where every method names its filter
/// `conditions`).
#[test]
fn only_the_filled_binding_of_a_filter_is_unknown() {
    let src = r#"import { model, Schema } from 'mongoose'
const Sub = model('Sub', new Schema({ formId: { type: String, index: true }, endAt: Number, status: Number }))
export async function recent(formId: string) {
  const conditions = { formId, status: 1 }
  return Sub.find(conditions).sort({ endAt: -1 }).limit(30)
}
export async function remove(formId: string, ids?: string[]) {
  const conditions: any = { formId }
  if (ids) conditions._id = { $in: ids }
  return Sub.find(conditions).sort({ endAt: -1 })
}
export async function rows(formId: string, extra: any) {
  const filter = { formId }
  Object.assign(filter, extra)
  return Sub.find(filter).sort({ endAt: 1 })
}
"#;
    assert_eq!(rule_lines("unindexed-query", "sub.ts", src), vec![5, 10]);
    // Filled in its own function, in both branches, the first filter is not judged either.
    let filled = src.replacen(
        "status: 1 }\n",
        "status: 1 }\n  if (formId) conditions.x = 1; else conditions.y = 2\n",
        1,
    );
    assert_eq!(rule_lines("unindexed-query", "sub.ts", &filled), vec![11]);
    let by_key = src.replacen(
        "conditions._id = ",
        "conditions[ids.length ? '_id' : 'x'] = ",
        1,
    );
    assert_eq!(rule_lines("unindexed-query", "sub.ts", &by_key), vec![5]);
}

/// A class loaded into a schema (`schema.loadClass(BookClass)`, builderbook's models): its static
/// methods are the model's statics, so `this` there is the model and the finding names its
/// collection. An instance method's `this` is a document; a class no schema loads is not a model.
#[test]
fn this_in_a_static_of_a_loaded_class_is_the_model() {
    let src = r#"const mongoose = require("mongoose");
const mongoSchema = new mongoose.Schema({ name: String, tags: [String] });
class BookClass {
  static async list({ offset = 0, limit = 10 } = {}) {
    return this.find({}).sort({ createdAt: -1 }).skip(offset).limit(limit);
  }
  async tag(t) { return this.updateOne({ $push: { tags: t } }); }
}
class Other {
  static async page(offset) { return this.find({}).skip(offset); }
}
mongoSchema.loadClass(BookClass);
const Book = mongoose.model("Book", mongoSchema);
module.exports = Book;
"#;
    let found = findings("book.js", src);
    let messages: Vec<&str> = found.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(found.len(), 3, "{messages:?}");
    assert!(
        messages[0].starts_with("offset paging on `books`"),
        "{messages:?}"
    );
    assert!(!messages[1].contains("`books`"), "{messages:?}");
    assert!(
        messages[2].starts_with("offset paging on the collection behind `this`"),
        "{messages:?}"
    );
    // TypeScript's modifiers before `static` (async-labs/saas' `public static
    // getAllTeamsForUser`); a `public` method without `static` is still an instance method.
    let src = r#"import * as mongoose from "mongoose";
const mongoSchema = new mongoose.Schema({ slug: { type: String, unique: true }, memberIds: [String] });
class TeamClass extends mongoose.Model {
  public static getAllTeamsForUser(userId: string) { return this.find({}).skip(userId.length); }
  private static async byLeader(page: number) { return this.find({}).skip(page); }
  public async tag(t: string) { return this.find({}).skip(t.length); }
}
mongoSchema.loadClass(TeamClass);
const Team = mongoose.model("Team", mongoSchema);
export default Team;
"#;
    let found = findings("team.ts", src);
    let messages: Vec<&str> = found.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(found.len(), 3, "{messages:?}");
    assert!(
        messages[0].starts_with("offset paging on `teams`"),
        "{messages:?}"
    );
    assert!(
        messages[1].starts_with("offset paging on `teams`"),
        "{messages:?}"
    );
    assert!(
        messages[2].starts_with("offset paging on the collection behind `this`"),
        "{messages:?}"
    );
}

/// Mongoose `doc.updateOne(update)`: a loaded document's update takes no filter.
#[test]
fn a_documents_own_update_one_is_read_as_an_update() {
    let src = r#"const mongoose = require("mongoose");
async function addDevice(user, d) {
  await user.updateOne({ $push: { pushDevices: d } }).exec();
}
"#;
    assert_flags_once("unbounded-push", "devices.js", src, "$push", "$push");
}

/// A collection named by a variable alone is shown as such, not as a `{name}` template.
#[test]
fn a_collection_named_by_a_variable_is_named_so() {
    let src = r#"const { MongoClient } = require("mongodb");
async function snap(db, names, ids) {
  for (const name of names) {
    const c = db.collection(name);
    for (const _id of ids) { await c.findOne({ _id }); }
  }
}
"#;
    let f = only("query-in-loop", "snap.js", src);
    assert!(
        f.message
            .starts_with("`findOne` on the collection named by `name` runs once per item of `ids`"),
        "message: {}",
        f.message
    );
}

/// An application's `getCollection(NAME)` helper imported from its MongoDB module names the
/// collection through the constant.
#[test]
fn a_get_collection_helper_from_a_mongo_module_names_the_collection() {
    let src = r#"import { getCollection } from "../util/mongo.util";
const COLLECTION = "users";
export async function page(page: number) {
  return getCollection(COLLECTION).find().skip((page - 1) * 50).limit(50).toArray();
}
"#;
    let f = only("skip-paging", "UserModel.ts", src);
    assert!(f.message.contains("on `users`"), "message: {}", f.message);
}

/// A loop of lookups in a scheduled callback (Meteor's `setInterval` too) or in a file of
/// version-gated schema upgrade steps (Wekan's `schemaUpgradeSteps.js`) is maintenance code, off
/// the request path; the same loop in a request handler is an N+1.
#[test]
fn query_loops_in_scheduled_and_upgrade_code_are_not_flagged() {
    let body = r#"
    const boards = await db.collection("boards").find({}).toArray();
    for (const b of boards) {
      await db.collection("history").find({ boardId: b._id }).toArray();
    }"#;
    let scheduled = format!(
        "const {{ Meteor }} = require(\"meteor/meteor\");\nMeteor.setInterval(async () => {{{body}\n}}, 86400000);\n"
    );
    assert_not_flagged("query-in-loop", "server/cleanup.js", &scheduled);
    let steps =
        format!("export const steps = [{{ name: \"merge\", async run(db) {{{body}\n}} }}];\n");
    assert_not_flagged("query-in-loop", "server/lib/schemaUpgradeSteps.js", &steps);
    assert_eq!(
        rule_hits("query-in-loop", "server/lib/steps.js", &steps).len(),
        1
    );
    let handler = format!("export async function list(db) {{{body}\n}}\n");
    assert_eq!(
        rule_hits("query-in-loop", "server/cleanup.js", &handler).len(),
        1
    );
}

/// A folder of data update scripts (formio's `src/db/updates/2.4.1.js`, superdesk's
/// `data_updates/`) holds migrations: their loops of lookups run once per release, not per request.
#[test]
fn query_loops_in_data_update_folders_are_not_flagged() {
    let src = r#"module.exports = async function (db) {
  const forms = await db.collection("forms").find({}).toArray();
  for (const form of forms) {
    await db.collection("submissions").find({ form: form._id }).toArray();
  }
};
"#;
    assert_not_flagged("query-in-loop", "src/db/updates/3.1.2.js", src);
    assert_not_flagged("query-in-loop", "app/data_updates/00012_forms.js", src);
    assert_eq!(
        rule_hits("query-in-loop", "src/db/updates.js", src).len(),
        1
    );
    assert_eq!(
        rule_hits("query-in-loop", "src/routes/forms.js", src).len(),
        1
    );
}

/// A utility library's iteration runs its second argument once per item of its first:
/// `_.each(data, fn)`, `async.eachSeries(forms, fn, done)`; the message names the items, not the
/// library. The completion callback (`done`, or the end callback of the driver's old
/// `cursor.forEach(iterator, end)`) runs once.
#[test]
fn library_iterations_loop_over_their_first_argument() {
    let src = r#"const async = require("async");
const _ = require("lodash");
function resolve(db, data, forms, done) {
  _.each(data, (field) => {
    db.collection("submissions").findOne({ _id: field._id });
  });
  async.eachSeries(forms, (form, next) => {
    db.collection("forms").findOne({ path: form.path }, next);
  }, () => {
    db.collection("projects").findOne({ _id: "x" }, done);
  });
  db.collection("roles").find({}).toArray().forEach((role) => {
    role.seen = true;
  }, () => {
    db.collection("actions").find({ role: { $in: [] } }).toArray();
  });
}
"#;
    let all = findings("src/export.js", src);
    let messages: Vec<&str> = all
        .iter()
        .filter(|f| f.rule == "query-in-loop")
        .map(|f| f.message.as_str())
        .collect();
    assert_eq!(messages.len(), 2, "{messages:#?}");
    assert!(
        messages[0].contains("per item of `data`"),
        "{}",
        messages[0]
    );
    assert!(
        messages[1].contains("per item of `forms`"),
        "{}",
        messages[1]
    );
}

/// A document method's `this.collection` is its model's collection, the model exported at once
/// (`module.exports = mongoose.model("Project", ProjectSchema)`, as Strider's models are).
#[test]
fn a_document_methods_collection_is_its_models() {
    let src = r#"const mongoose = require('mongoose');
const ProjectSchema = new mongoose.Schema({ branches: [String] });
ProjectSchema.methods.addBranch = function (name, done) {
  this.collection.updateOne({ _id: this._id }, { $push: { branches: name } }, done);
};
module.exports = mongoose.model('Project', ProjectSchema);
"#;
    let f = only("unbounded-push", "models/project.js", src);
    assert!(f.message.contains("in `projects`"), "{}", f.message);
}

/// A seeder, an upgrade script or a migration writes its arrays once, off the application's path:
/// its `$push` is not the application's growth. The same update in a route is.
#[test]
fn pushes_in_seeders_and_scripts_are_not_growth() {
    let src = r#"const { MongoClient } = require("mongodb");
async function run(db, projectId, branch) {
  await db.collection("projects").updateOne({ _id: projectId }, { $push: { branches: branch } });
}
module.exports = { run };
"#;
    assert_not_flagged("unbounded-push", "scripts/add_branches.js", src);
    assert_not_flagged("unbounded-push", "src/util/checkAndSeedDb.js", src);
    // LearningLocker's `cli/src/commands/v2-migrations/`, Reaction's `migrations/2.js`.
    assert_not_flagged(
        "unbounded-push",
        "cli/src/commands/v2-migrations/20171121153300_update_refs.js",
        src,
    );
    assert_not_flagged("unbounded-push", "packages/plugin/migrations/2.js", src);
    assert_eq!(
        rule_hits("unbounded-push", "src/routes/projects.js", src).len(),
        1
    );
}

/// A class that hands its base a module's settings (`super(config)`) has not said which
/// collection its `this` is: the finding says it does not know, rather than naming `config`.
#[test]
fn a_base_class_given_settings_is_not_a_model() {
    let src = r#"const config = require('./config');
const { Base } = require('./base');
class UserService extends Base {
  constructor() { super(config); }
  list(page) {
    return this.find({ active: true }).skip(page * 10).limit(10);
  }
}
module.exports = UserService;
"#;
    let f = only("skip-paging", "src/service.js", src);
    assert!(f.message.contains("behind `this`"), "{}", f.message);
}

/// Meteor's client reads its local cache: a lookup per item there is no round trip. The same
/// loop in the server's code is an N+1.
/// A Meteor collection in memory (`new Mongo.Collection(null)`, without a name, or an instance of
/// a class extending `Mongo.Collection` that calls `super(null)`) has no database behind it: its
/// updates are not flagged. A named one beside them is.
#[test]
fn writes_to_a_collection_in_memory_are_not_database_writes() {
    let src = r#"import { Mongo } from 'meteor/mongo';
const Local = new Mongo.Collection(null);
const Scratch = new Mongo.Collection();
class Cache extends Mongo.Collection {
  constructor() { super(null); }
}
const Cached = new Cache();
const Rooms = new Mongo.Collection('rooms');
export function add(id, v) {
  Local.update({ _id: id }, { $push: { a: v } });
  Scratch.update({ _id: id }, { $push: { b: v } });
  Cached.update({ _id: id }, { $push: { c: v } });
  Rooms.update({ _id: id }, { $push: { d: v } });
}
"#;
    assert_eq!(
        rule_lines("unbounded-push", "server/cache.js", src),
        vec![line_of(src, "Rooms.update")]
    );
}

/// `mongoose.model(name)` with one argument looks up a model registered elsewhere (idurar's
/// `mongoose.model(userModel + 'Password')`): no collection is made there, whatever the name. The
/// registration with its schema is where a per-entity model is made, and flagged.
#[test]
fn a_one_argument_model_lookup_makes_no_collection() {
    let src = r#"const mongoose = require('mongoose');
async function register(orgId, schema) {
  return mongoose.model(`Invoice_${orgId}`, schema);
}
async function find(orgId, id) {
  return mongoose.model(`Invoice_${orgId}`).findById(id);
}
"#;
    assert_eq!(
        rule_lines("dynamic-collection-name", "src/invoices.js", src),
        vec![line_of(src, "schema);")]
    );
}

/// An object spread into a literal is read for its fields: written in place (`...{ limit, skip
/// }`), or picked by a condition (`...(poly ? {} : { limit, skip })`, Payload's joins;
/// `...(groupMention && { tunreadGroup: tmid })`, Rocket.Chat's unread threads), whose fields
/// may be there.
#[test]
fn fields_of_an_object_spread_into_a_literal_are_read() {
    let src = r#"const { MongoClient } = require("mongodb");
const db = new MongoClient(process.env.URL).db();
async function page(where, pageNo, limit, poly) {
  const skip = (pageNo - 1) * limit;
  return db.collection("joins").find(where, { sort: { at: -1 }, ...(poly ? {} : { limit, skip }) }).toArray();
}
async function unread(users, rid, tmid, groupMention) {
  return db.collection("subscriptions").updateMany(
    { "u._id": { $in: users }, rid },
    { $addToSet: { tunread: tmid, ...(groupMention && { tunreadGroup: tmid }) } },
  );
}
"#;
    assert_eq!(
        rule_lines("skip-paging", "src/joins.js", src),
        vec![line_of(src, "poly ? {}")]
    );
    let push = only("unbounded-push", "src/joins.js", src);
    assert!(
        push.message
            .contains("grows arrays `tunread` and `tunreadGroup` in `subscriptions`"),
        "{}",
        push.message
    );
}

/// A constant bound to an object written in the code and spread into a filter is its fields
/// (erxes' `const defaultFilter = { status: { $ne: 'deleted' } }` .. `findOne({ ...defaultFilter,
/// code })`), with the members set on it as the name alone reads them (`if (ids) query._id = {
/// $nin: ids }`: left out, the query judged as the path that skips it sends it): `code` and
/// `primaryName` have no index. Not an object with a spread of its own, whose conditional fields
/// may not be there.
#[test]
fn fields_of_a_constant_object_spread_into_a_filter_are_read() {
    let src = r#"import mongoose from 'mongoose';
const schema = new mongoose.Schema({ code: String, status: String, primaryName: String });
schema.index({ status: 1 });
const Companies = mongoose.model('companies', schema);
export function byCode(code: string) {
  const defaultFilter = { status: { $ne: 'deleted' } };
  return Companies.findOne({ ...defaultFilter, code });
}
export function duplicates(primaryName: string, idsToExclude?: string[]) {
  const query: any = { status: { $ne: 'deleted' } };
  if (idsToExclude) query._id = { $nin: idsToExclude };
  return Companies.find({ ...query, primaryName });
}
export function picked(code: string, mine: boolean, userId: string) {
  const query = { ...(mine && { ownerId: userId }) };
  return Companies.find({ ...query, code });
}
"#;
    let got = rule_lines("unindexed-query", "companies.ts", src);
    assert_eq!(
        got,
        vec![
            line_of(src, "...defaultFilter, code"),
            line_of(src, "...query, primaryName")
        ]
    );
    let messages = rule_messages("unindexed-query", "companies.ts", src);
    assert!(
        messages[0].contains("filters by `code` (equality)"),
        "{messages:?}"
    );
    assert!(
        messages[1].contains("filters by `primaryName` (equality)"),
        "{messages:?}"
    );
}

/// The Mongoose document idiom with the document handed to a callback (nodeclub's replies):
/// `Reply.findById(id, (err, reply) => ..)`, `.exec((err, reply) => ..)`, `.then(reply => ..)`.
/// A parameter in another position, or an item of a plain array's `forEach`, is no such
/// document.
#[test]
fn the_document_push_idiom_in_a_query_callback() {
    let src = r#"const mongoose = require("mongoose");
const Reply = mongoose.model("Reply", new mongoose.Schema({ ups: [String] }));
function a(id, uid, cb) { Reply.findById(id, function (err, reply) { reply.ups.push(uid); reply.save(cb); }); }
function b(id, uid, cb) { Reply.findOne({ _id: id }).exec((err, reply) => { reply.ups.push(uid); reply.save(cb); }); }
function c(id, uid) { return Reply.findById(id).then(reply => { reply.ups.push(uid); return reply.save(); }); }
function d(id, uid, cb) { Reply.findById(id, function (reply) { reply.ups.push(uid); reply.save(cb); }); }
function e(list, uid) { list.forEach(function (reply) { reply.ups.push(uid); reply.save(); }); }
function f(id, uid, cb) { Reply.findOne({ _id: id }).populate("topic").exec((err, reply) => { reply.ups.push(uid); reply.save(cb); }); }
async function g(id, uid) { const reply = await Reply.findById(id).populate("author").select("ups"); reply.ups.push(uid); await reply.save(); }
"#;
    // (`f` and `g`: a document with its references filled in, tiledesk's requests, is one.)
    let nested = r#"const mongoose = require("mongoose");
const User = mongoose.model("User", new mongoose.Schema({ inbox: { messages: [String] } }));
async function send(id, m) { const user = await User.findById(id); user.inbox.messages.push(m); await user.save(); }
async function note(req, m) { req.user.inbox.messages.push(m); await req.user.save(); }
"#;
    // An array of an embedded document is named by its path (HabitRPG's invitations); a chain
    // from something that is no loaded document is not read.
    let f = only("unbounded-push", "src/inbox.js", nested);
    assert!(
        f.message.contains("array `inbox.messages` in `users`"),
        "{}",
        f.message
    );
    assert_eq!(
        rule_lines("unbounded-push", "src/replies.js", src),
        vec![3, 4, 5, 8, 9]
    );
}

/// A counting `for` loop that walks an array one index a step (`for (var i = 0; i <
/// replies.length; i++)`, nodeclub's replies) is a loop over its items, as `for (const r of
/// replies)` is. Counting to a number, walking a fixed list, or striding by a batch
/// (`i += batchSize` with `slice(i, i + batchSize)`, apostrophe's attachments) is not.
#[test]
fn a_counting_loop_over_an_array_walks_its_items() {
    let src = r#"const mongoose = require("mongoose");
const Reply = mongoose.model("Reply", new mongoose.Schema({ topic_id: String, author_id: String }));
const User = mongoose.model("User", new mongoose.Schema({ name: String }));
async function replies(t) {
  const replies = await Reply.find({ topic_id: t });
  for (var i = 0; i < replies.length; i++) {
    replies[i].author = await User.findOne({ _id: replies[i].author_id });
  }
  for (let j = 0; j < 3; j++) {
    await User.findOne({ name: "x" + j });
  }
  const names = ["a", "b"];
  for (let k = 0; k < names.length; k++) {
    await User.findOne({ name: names[k] });
  }
  for (let b = 0; b < replies.length; b += 100) {
    const ids = replies.slice(b, b + 100).map((r) => r.author_id);
    await User.find({ _id: { $in: ids } });
  }
  return replies;
}
"#;
    assert_eq!(rule_lines("query-in-loop", "src/replies.js", src), vec![7]);
}

#[test]
fn meteor_client_reads_are_not_round_trips() {
    let src = r#"import { Meteor } from 'meteor/meteor';
const Cards = new Mongo.Collection('cards');
export function selected(cardIds) {
  const out = [];
  for (const id of cardIds) { out.push(Cards.findOne({ _id: id })); }
  return out;
}
"#;
    assert_not_flagged("query-in-loop", "client/lib/keyboard.js", src);
    assert_eq!(
        rule_hits("query-in-loop", "server/lib/keyboard.js", src).len(),
        1
    );
}

/// A function that a scheduled callback of the same file calls by name is a periodic job.
#[test]
fn a_function_called_from_a_scheduled_callback_is_periodic() {
    let src = r#"import { Meteor } from 'meteor/meteor';
const Boards = new Mongo.Collection('boards');
const History = new Mongo.Collection('history');
History.cleanup = async function () {
  const boards = await Boards.find({}).fetchAsync();
  for (const b of boards) {
    await History.find({ boardId: b._id }).fetchAsync();
  }
};
Meteor.setInterval(() => { History.cleanup().catch(console.error); }, 86400000);
"#;
    assert_not_flagged("query-in-loop", "server/history.js", src);
    let unscheduled = src.replace("Meteor.setInterval", "Meteor.defer");
    assert_eq!(
        rule_hits("query-in-loop", "server/history.js", &unscheduled).len(),
        1
    );
}

/// An application's index helper named for the driver's method and called with the collection
/// first (Wekan's `ensureIndex(Cards, keys, options)`, which creates the index when missing): its
/// key patterns are index declarations like `createIndex`'s.
#[test]
fn an_index_helper_called_with_the_collection_declares_indexes() {
    let src = r#"import { Mongo } from 'meteor/mongo';
import { ensureIndex } from '/server/lib/mongoStartup';
const Cards = new Mongo.Collection('cards');
export async function indexes() {
  await ensureIndex(Cards, { listId: 1, sort: 1 });
  await ensureIndex(Cards, { listId: 1 });
  await ensureIndex(Cards, { boardId: 1 }, { unique: true });
  await ensureIndex(Cards, { boardId: 1 });
  await ensureIndex(somethingElse, { title: 1 });
  await ensureIndex(Cards, options);
}
"#;
    let got = rule_hits("redundant-index", "server/models/cards.js", src);
    // The prefix of `{listId, sort}`, and the plain copy of the unique `{boardId}` (which the
    // unique one serves; MongoDB refuses the two side by side).
    let lines: Vec<usize> = got.iter().map(|g| g.0).collect();
    assert_eq!(
        lines,
        vec![
            line_of(src, "{ listId: 1 });"),
            line_of(src, "{ boardId: 1 });")
        ],
        "{got:?}"
    );
}

/// Messages name a receiver on one line: a chain broken over lines reads as written on one (the
/// concise and GitHub formats are one line per finding), without the `await` that TypeScript's
/// grammar takes into `await conn.model<T>(name).findById(id)`; and a parameter typed as a bare
/// driver `Collection` is "a `Collection`", as a `Collection<T>` is, not a collection named by it.
#[test]
fn receivers_in_messages_read_on_one_line() {
    let src = r#"import { Collection } from "mongodb";
export async function revert(entries: any[], conn: any, name: string) {
  for (const entry of entries) {
    const doc = (await conn
      .model<Record<string, unknown>>(name)
      .findById(entry.docId)
      .lean()) as Record<string, unknown> | null;
  }
}
export async function tag(collection: Collection, id: string, t: string) {
  await collection.updateOne({ _id: id }, { $push: { tags: t } });
}
"#;
    let messages: Vec<String> = findings("revert.ts", src)
        .into_iter()
        .map(|f| f.message)
        .collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(
        messages[0].starts_with(
            "`findById` on the collection behind `conn.model<Record<string, unknown>>(name)` runs"
        ),
        "{messages:?}"
    );
    assert!(
        messages[1].contains("array `tags` in a `Collection` with no bound"),
        "{messages:?}"
    );
}

/// A loop over a query's results with a fallback for a missing list (`docs || []`, `docs ?? []`,
/// in parentheses or cast) walks the results: a write per result (growthbook `FeatureModel.ts`).
/// A fallback that adds items, or a list written in parentheses, is not that.
#[test]
fn a_loop_over_query_results_with_an_empty_fallback_walks_the_results() {
    let head = r#"import mongoose from "mongoose";
const Feature = mongoose.model("Feature", new mongoose.Schema({ id: String }));
export async function drop(org: string) {
  const docs = await Feature.find({ organization: org });
"#;
    for loop_head in [
        "for (const doc of docs || []) {",
        "for (const doc of docs ?? []) {",
        "for (const doc of (docs as any[]) || []) {",
        "for (const doc of (docs)) {",
    ] {
        let src = format!(
            "{head}  {loop_head}\n    await Feature.deleteOne({{ id: doc.id }});\n  }}\n}}\n"
        );
        let got = rule_hits("query-in-loop", "features.ts", &src);
        assert_eq!(got.len(), 1, "{src}\ngot {got:?}");
        assert_eq!(got[0].0, line_of(&src, "deleteOne"), "{src}");
    }
    let callback = format!(
        "{head}  (docs ?? []).forEach(async (d) => {{\n    await Feature.deleteOne({{ id: d.id }});\n  }});\n}}\n"
    );
    assert_flags_once(
        "query-in-loop",
        "features.ts",
        &callback,
        "deleteOne",
        "deleteOne",
    );
    // Not the results alone: a written list, or a fallback with items of its own.
    for loop_head in [
        "for (const doc of docs || [{ id: \"default\" }]) {",
        "for (const doc of ([\"a\", \"b\"])) {",
    ] {
        let src = format!(
            "{head}  {loop_head}\n    await Feature.deleteOne({{ id: doc.id }});\n  }}\n}}\n"
        );
        assert_not_flagged("query-in-loop", "features.ts", &src);
    }
}

/// `Model.find(q).exec()` on a model the file cannot name (formio's
/// `router.formio.resources.form.model`) is a Mongoose query run, a read of many documents: a
/// write per result is reported, as with `.lean()`. An array's `find` has no `exec`.
#[test]
fn a_mongoose_query_run_by_exec_is_a_read_of_its_results() {
    let src = r#"module.exports = (router) => async function () {
  const query = { deleted: null };
  const forms = await router.formio.resources.form.model.find(query).exec();
  for (const form of forms) {
    await router.formio.resources.form.model.updateOne({ _id: form._id }, { $set: { access: form.access } });
  }
};
"#;
    assert_flags_once("query-in-loop", "roles.js", src, "updateOne", "updateOne");
    let without = src.replace(".exec()", "");
    assert_not_flagged("query-in-loop", "roles.js", &without);
}

/// `mongoose.Schema({..})` without `new` makes a schema as `new mongoose.Schema({..})` does
/// (node-express-boilerplate's and proshop's models): its field indexes and `schema.index(..)`
/// are the model's, so a query they serve is quiet and one they do not is reported.
#[test]
fn a_schema_made_without_new_declares_its_indexes() {
    let src = r#"
const mongoose = require("mongoose");
const tokenSchema = mongoose.Schema({ token: { type: String, index: true }, user: String, type: String }, { collection: "auth_tokens" });
tokenSchema.index({ user: 1, type: 1 });
const Token = mongoose.model("Token", tokenSchema);
async function get(t) { return Token.findOne({ token: t }); }
async function reset(user) { await Token.deleteMany({ user: user.id, type: "reset" }); }
async function expire(kind) { await Token.deleteMany({ kind }); }
"#;
    let got = rule_hits("unindexed-query", "token.model.js", src);
    assert_eq!(got, [(8, "deleteMany".to_string())], "{got:?}");
    let f = only("unindexed-query", "token.model.js", src);
    assert!(f.message.contains("`auth_tokens`"), "{}", f.message);
}

/// A pipeline put together with `concat` (mern-ecommerce's product list:
/// `Product.aggregate(basicQuery.concat(paginateQuery))`) holds the stages of every part, and a
/// same-file helper that returns a name bound to a pipeline literal returns those stages.
#[test]
fn pipelines_joined_with_concat_or_returned_by_name_are_read() {
    let src = r#"
const Product = require("../models/product");
function storeQuery() {
  const basicQuery = [
    { $lookup: { from: "brands", localField: "brand", foreignField: "_id", as: "brands" } },
    { $lookup: { from: "reviews", localField: "_id", foreignField: "product", as: "reviews" } },
  ];
  return basicQuery;
}
async function list(req) {
  const { page = 1, limit = 10 } = req.query;
  const basicQuery = [{ $match: { isActive: true } }];
  const paginateQuery = [{ $sort: { price: 1 } }, { $skip: (page - 1) * limit }, { $limit: 10 }];
  return Product.aggregate(basicQuery.concat(paginateQuery));
}
async function store() {
  return Product.aggregate(storeQuery().concat([{ $limit: 10 }]));
}
async function counts() {
  return Product.aggregate([{ $match: { isActive: true } }].concat({ $count: "n" }));
}
async function remote(page) {
  return Product.aggregate(getStoreProductsQuery().concat([{ $skip: page * 10 }]));
}
"#;
    let got: Vec<(&str, usize)> = hits("product.js", src)
        .into_iter()
        .map(|h| (h.0, h.1))
        .collect();
    // (The joins are reported where the helper writes them.)
    assert_eq!(
        got,
        [
            ("lookup-chain", 6),
            ("skip-paging", 13),
            ("skip-paging", 23)
        ],
        "{got:?}"
    );
}

/// A read whose result goes to a callback of a call chained onto it (Countly's
/// `db.collection('app_users' + cohort.app_id).find(q).toArray((err, result) => ..)` in
/// `rules.forEach`) sends the same query for every rule: the callback is not part of the query,
/// so it is one query repeated, not one per item.
#[test]
fn a_callback_chained_onto_a_repeated_read_is_not_part_of_its_query() {
    let src = r#"
const common = require("../../common");
function fire(rules, ob) {
  rules.forEach((rule) => {
    const { cohort, uids } = ob;
    if (rule.cohortID === cohort._id) {
      common.db.collection("app_users" + cohort.app_id).find({ uid: { $in: uids } }).toArray((err, result) => {
        notify(rule, result);
      });
    }
  });
  rules.forEach((rule) => {
    common.db.collection("app_users" + ob.app_id).find({ uid: rule.uid }).toArray((err, result) => {
      notify(rule, result);
    });
  });
}
"#;
    let got = rule_hits("query-in-loop", "internal_event.js", src);
    assert_eq!(got, [(13, "find".to_string())], "{got:?}");
}

/// Checks that a value is not yet in the array, as lodash writes them (`_.find(user.projects,
/// fn)`, `_.includes(arr, v)`, underscore's `_.contains`: Strider's collaborators) or compared
/// with a boolean (`card.members?.includes(me) === true`: Huly's cards), make a push one of
/// distinct values (info); `unshift` + `save()` is the document idiom as `push` is
/// (devconnector's comments).
#[test]
fn lodash_and_boolean_absence_checks_and_unshift() {
    let src = r#"const mongoose = require("mongoose");
const _ = require("lodash");
const User = mongoose.model("User", new mongoose.Schema({ projects: [{ name: String }], tags: [String] }));
function a(user, email, project, done) {
  const p = _.find(user.projects, function (p) { return p.name === project; });
  if (p) { return done("already"); }
  User.updateOne({ email }, { $push: { projects: { name: project } } }, done);
}
async function b(card, me) {
  if (card.tags?.includes(me) === true) { return; }
  await User.updateOne({ _id: card._id }, { $push: { tags: me } });
}
async function c(card, me) {
  if (_.contains(card.tags, me)) return;
  await User.updateOne({ _id: card._id }, { $push: { tags: me } });
}
async function d(id, t) {
  const user = await User.findById(id);
  user.tags.unshift(t);
  await user.save();
}
async function e(user, email, project, done) {
  if (_.find(user.projects, { name: project })) return done("already");
  User.updateOne({ email }, { $push: { projects: { name: project } } }, done);
}
"#;
    let got: Vec<(usize, Severity)> = findings("src/users.js", src)
        .into_iter()
        .filter(|f| f.rule == UP)
        .map(|f| (line_at(src, f.span.start as usize), f.severity))
        .collect();
    assert_eq!(
        got,
        [
            (7, Severity::Info),
            (11, Severity::Info),
            (15, Severity::Info),
            (19, Severity::Warning),
            (24, Severity::Info)
        ],
        "{got:?}"
    );
}

/// In a file that imports another database's client and no MongoDB module (Huly's Postgres
/// account store: `import { type Sql } from 'postgres'`), a call on a receiver the frontend cannot
/// name (`this.integration.deleteMany(..)` on its `PostgresDbCollection`) is that database's.
/// Without the import, the same loop of deletes per id is reported.
#[test]
fn calls_on_unknown_receivers_beside_another_databases_client_are_not_mongodb() {
    let body = r#"
export class AccountDB {
  async deleteAccount(accountUuid: string, socialIds: string[]): Promise<void> {
    for (const id of socialIds) {
      await this.integration.deleteMany({ socialId: id });
    }
  }
}
"#;
    let sql = format!("import {{ type Sql }} from 'postgres';{body}");
    assert!(rule_hits("query-in-loop", "postgres.ts", &sql).is_empty());
    let knex = format!("import knex from 'knex';{body}");
    assert!(rule_hits("query-in-loop", "knex.ts", &knex).is_empty());
    let plain = format!("import {{ Db }} from 'mongodb';{body}");
    assert_eq!(rule_hits("query-in-loop", "mongo.ts", &plain).len(), 1);
}

/// In TypeScript, a callback's parameters are `required_parameter`s, typed or not: the document
/// a query hands its callback is one there too (TypeScript-Node-Starter's Facebook link:
/// `User.findById(id, (err, user: any) => { user.tokens.push(..); user.save(..) })`).
#[test]
fn the_document_push_idiom_in_a_typescript_callback() {
    let src = r#"import mongoose from "mongoose";
const User = mongoose.model("User", new mongoose.Schema({ tokens: [{ kind: String }] }));
export function link(id: string, done: (e: any) => void) {
  User.findById(id, (err: any, user: any) => { user.tokens.push({ kind: "facebook" }); user.save(done); });
}
export function plain(id: string, done: (e: any) => void) {
  User.findById(id, (err, user) => { user.tokens.push({ kind: "google" }); user.save(done); });
}
"#;
    assert_eq!(rule_lines("unbounded-push", "src/link.ts", src), vec![4, 7]);
}

/// What a scheduled job calls in turn runs on its schedule too, a few calls deep (openhim's
/// `agenda.define("auto retry", (job, done) => autoRetryTask(job, done))`, whose
/// `autoRetryTask` reads the channels through `getChannels`): its scan is a job's. The same read
/// in a request handler is reported.
#[test]
fn what_a_scheduled_job_calls_through_helpers_is_periodic() {
    let src = r#"const mongoose = require("mongoose");
const schema = new mongoose.Schema({ name: String, status: String });
schema.index({ name: 1 }, { unique: true });
const Channel = mongoose.model("Channel", schema);
const getChannels = (cb) => Channel.find({ status: "enabled" }).exec(cb);
function autoRetryTask(job, done) { getChannels((err, channels) => done(err)); }
function setupAgenda(agenda) {
  agenda.define("auto retry", (job, done) => autoRetryTask(job, done));
  return agenda.every("1 minutes", "auto retry");
}
async function list(req, res) { res.json(await Channel.find({ status: req.query.status })); }
module.exports = { setupAgenda, list };
"#;
    let got = rule_hits("unindexed-query", "src/autoRetry.js", src);
    assert_eq!(got, [(11, "find".to_string())], "{got:?}");
}

/// jsreport's shapes: a cleanup handed to `setInterval` by name (directly, or through a function
/// that calls it) is a periodic job, as an inline callback is; `ensureMigrated` is a migration;
/// a read under `if (index === lastIndex)` runs on one iteration of its loop. A loop over the same
/// results that reads on every iteration, or under a test of the item rather than the counter,
/// is still flagged.
#[test]
fn scheduled_by_name_migrations_and_last_iteration_reads_are_not_per_item() {
    let src = r#"const { MongoClient } = require('mongodb')
module.exports = (db, reporter) => {
  async function profilesCleanup () {
    const old = await db.collection('profiles').find({}).toArray()
    for (const p of old) await db.collection('profiles').deleteOne({ _id: p._id })
  }
  function cleanupExec () { return reporter._logsCleanup() }
  reporter._logsCleanup = async function logsCleanup () {
    const old = await db.collection('logs').find({}).toArray()
    for (const p of old) await db.collection('logs').deleteOne({ _id: p._id })
  }
  setInterval(profilesCleanup, 60000)
  setInterval(cleanupExec, 60000)
}
async function ensureMigrated (db) {
  const ids = await db.collection('templates').find({}, { _id: 1 }).toArray()
  for (const id of ids) {
    const t = await db.collection('templates').findOne({ _id: id._id })
  }
}
async function resolvePath (db, fragments) {
  const lastIndex = fragments.length - 1
  let entity
  for (const [index, name] of fragments.entries()) {
    if (lastIndex === index) { entity = await db.collection('templates').findOne({ name }) }
  }
  for (let i = 0; i < fragments.length; i++) {
    if (i === fragments.length - 1 && fragments[i]) { entity = await db.collection('assets').findOne({ name: fragments[i] }) }
  }
  for (const f of fragments) {
    if (f === 'x') { entity = await db.collection('folders').findOne({ name: f }) }
  }
  for (let i = 0; i < fragments.length; i++) {
    if (i === i) { entity = await db.collection('scripts').findOne({ name: fragments[i] }) }
  }
  return entity
}
module.exports.ensureMigrated = ensureMigrated
module.exports.resolvePath = resolvePath
"#;
    assert_eq!(
        rule_lines("query-in-loop", "lib/main.js", src),
        vec![line_of(src, "'folders'"), line_of(src, "'scripts'")]
    );
}

/// lets-chat's shapes: a callback bound to the document method's `this` (`function () {
/// this.participants.push(id); this.save(cb) }.bind(this)`) pushes onto the document, as an
/// arrow function does; an unbound callback's `this` is another object. A Mongoose query held
/// in a name and narrowed by its own `find(..)` (`find = find.find({ $text: .. })`) still reads
/// the model's collection, which the paging message names.
#[test]
fn bound_callbacks_and_narrowed_queries_keep_their_model() {
    let src = r#"var mongoose = require('mongoose'), bcrypt = require('bcryptjs');
var RoomSchema = new mongoose.Schema({ participants: [String], password: String });
RoomSchema.methods.join = function (userId, password, cb) {
  bcrypt.compare(password, this.password, function (err, ok) {
    this.participants.push(userId);
    this.save(cb);
  }.bind(this));
};
RoomSchema.methods.leave = function (userId, cb) {
  setTimeout(function () {
    this.participants.push(userId);
    this.save(cb);
  }, 10);
};
var Room = mongoose.model('Room', RoomSchema);
exports.list = function (options, cb) {
  var find = Room.find({ owner: options.owner });
  if (options.query) { find = find.find({ $text: { $search: options.query } }); }
  find.skip(options.skip);
  find.exec(cb);
};
"#;
    assert_eq!(rule_lines("unbounded-push", "models/room.js", src), vec![5]);
    let paging = findings("models/room.js", src);
    let paging: Vec<&Finding> = paging.iter().filter(|f| f.rule == "skip-paging").collect();
    assert_eq!(paging.len(), 1, "{paging:?}");
    assert!(
        paging[0].message.contains("on `rooms`"),
        "{}",
        paging[0].message
    );
}

/// bitcore's wallet service: `Storage.createIndexes(this.db)` calls the file's own class's static
/// method (which declares the real indexes), not the driver's `createIndexes` on a collection
/// named at run time, so the indexes stay readable and an unserved filter is reported (its
/// collection named through a constant object of names, `collections.ADS`); a method
/// handed to `setInterval` bound to `this` (`this.tick.bind(this)`) is a periodic job.
#[test]
fn a_class_s_own_create_indexes_and_bound_interval_methods() {
    let src = r#"import * as mongodb from 'mongodb';
const collections = { ADS: 'advertisements', COINS: 'coins' } as const;
export class Storage {
  db: mongodb.Db;
  interval;
  static createIndexes(db) { db.collection(collections.ADS).createIndex({ advertisementId: 1, title: 1 }, { unique: true }); }
  connect(client) { this.db = client.db('bws'); Storage.createIndexes(this.db); }
  fetchActiveAdverts(cb) { this.db.collection(collections.ADS).find({ isAdActive: true }).toArray(cb); }
  start() { this.interval = setInterval(this.tick.bind(this), 60000); }
  async tick() {
    const docs = await this.db.collection('coins').find({ pending: true }).toArray();
    for (const d of docs) { await this.db.collection('coins').findOne({ txid: d.mintTxid }); }
  }
}
"#;
    assert_eq!(
        rule_lines("unindexed-query", "lib/storage.ts", src),
        vec![line_of(src, "isAdActive")]
    );
    assert!(rule_lines("query-in-loop", "lib/storage.ts", src).is_empty());
}

/// LearningLocker's organisation settings: the array test bound to a name and thrown on
/// (`const alreadyExists = user.settings.some(..); if (alreadyExists) throw ..`) checks the
/// value is absent before the push, as the inline `if (user.settings.some(..)) throw` does: info.
#[test]
fn a_bound_membership_test_before_a_push_is_an_absence_check() {
    let src = r#"const mongoose = require('mongoose');
const User = mongoose.model('User', new mongoose.Schema({ settings: [{ org: String }] }));
exports.add = async (req) => {
  const user = await User.findById(req.user.id);
  const alreadyExists = user.settings.some((s) => s.org.toString() === req.params.orgId);
  if (alreadyExists) throw new Error('dup');
  user.settings.push({ org: req.params.orgId });
  await user.save();
};
exports.blind = async (req) => {
  const user = await User.findById(req.user.id);
  user.settings.push({ org: req.params.orgId });
  await user.save();
};
"#;
    let got: Vec<(usize, Severity)> = findings("controllers/settings.js", src)
        .iter()
        .filter(|f| f.rule == "unbounded-push")
        .map(|f| (line_at(src, f.span.start as usize), f.severity))
        .collect();
    assert_eq!(got, vec![(7, Severity::Info), (12, Severity::Warning)]);
}

/// A loop over some of a query's results (`folders.filter(..)`, `.slice(1)`, `.sort(..)`) walks
/// those results: a write per item is reported as one (at info), as for the results themselves.
#[test]
fn a_loop_over_filtered_results_walks_the_results() {
    let src = r#"const { MongoClient } = require('mongodb')
async function sync (db, keep) {
  const folders = await db.collection('folders').find({}).toArray()
  for (const f of folders.filter((x) => !keep.includes(x._id))) {
    await db.collection('folders').deleteOne({ _id: f._id })
  }
  for (const f of folders.slice(1).sort((a, b) => a.n - b.n)) {
    await db.collection('folders').updateOne({ _id: f._id }, { $set: { seen: true } })
  }
}
module.exports = sync
"#;
    let got: Vec<(usize, Severity)> = findings("lib/sync.js", src)
        .iter()
        .filter(|f| f.rule == "query-in-loop")
        .map(|f| (line_at(src, f.span.start as usize), f.severity))
        .collect();
    assert_eq!(got, vec![(5, Severity::Info), (8, Severity::Info)]);
}

/// Stages added under a condition (`...(limit ? [{ $lookup }] : [])`, Checkmate's monitor list,
/// four joins each under the same condition) are read as the pipeline's fullest form; a single
/// conditional join beside none is no chain.
#[test]
fn lookups_spread_under_a_condition_are_counted() {
    let src = format!(
        r#"
async function list(db, n, limit) {{
  return db.collection("monitors").aggregate([
    {{ $sort: {{ name: 1 }} }},
    ...(limit ? [{}] : []),
    ...(limit && [{}]),
  ]).toArray();
}}
async function one(db, limit) {{
  return db.collection("monitors").aggregate([...(limit ? [{}] : [])]).toArray();
}}
"#,
        lookup("checks"),
        lookup("pagespeedchecks"),
        lookup("hardwarechecks")
    );
    assert_flags_once(
        LC,
        "monitors.js",
        &src,
        "from: \"pagespeedchecks\"",
        "$lookup",
    );
}

/// A file named for jobs alone is a batch file (periodic), unless it binds the `Job` model: then
/// it is that entity's module, its reads per request (Strider's `lib/jobs.js`, listing each
/// project's CI jobs).
#[test]
fn a_jobs_file_that_binds_the_job_model_is_the_entity_s() {
    let src = r#"const Job = require('./models').Job;
const Project = require('./models').Project;
function latestJobs(user, done) {
  Project.find({ creator: user._id }).exec(function (err, projects) {
    projects.forEach(function (project) {
      Job.find({ project: project.name }).sort({ finished: -1 }).limit(6).exec(done);
    });
  });
}
module.exports = { latestJobs };
"#;
    assert_eq!(rule_hits("query-in-loop", "lib/jobs.js", src).len(), 1);
    // Without the model's name, a file named `jobs.js` is a batch file: offline code.
    let batch = src.replace("Job", "Run");
    assert_not_flagged("query-in-loop", "lib/jobs.js", &batch);
    // In a cron folder it stays periodic, model or not.
    assert_not_flagged("query-in-loop", "lib/cron/jobs.js", src);
}

/// A document returned by a function or method of the file is a document of its model
/// (AtlantaBot's `findOrCreateGuild`, whose first return is a cache's and whose others are
/// `this.guildsData.findOne(..)`'s result, lean or not): a push on it, then `save()`, is a `$push`.
/// A membership test by a predicate named beforehand (courselit's `const existingName = (g) =>
/// g.name === name`, `course.groups.some(existingName)`) is a check, as one written in place.
#[test]
fn a_document_returned_by_a_function_of_the_file_is_the_model_s() {
    let src = r#"import { model, Schema } from "mongoose";
const Guild = model("Guild", new Schema({ id: String, members: [String], groups: [{ name: String }] }));
export class Bot {
  guildsData = Guild;
  cache = new Map();
  async findOrCreateGuild({ id }: { id: string }, isLean?: boolean) {
    const cached = this.cache.get(id);
    if (cached) return isLean ? cached.toJSON() : cached;
    let guildData = isLean
      ? await this.guildsData.findOne({ id }).lean()
      : await this.guildsData.findOne({ id });
    if (guildData) return guildData as any;
    guildData = new this.guildsData({ id });
    await guildData.save();
    return guildData;
  }
  async addMember(guildID: string, memberId: string) {
    const guild = await this.findOrCreateGuild({ id: guildID });
    guild.members.push(memberId);
    await guild.save();
  }
  async addGroup(guildID: string, name: string) {
    const guild = await this.findOrCreateGuild({ id: guildID });
    const existingName = (group: { name: string }) => group.name === name;
    if (guild.groups.some(existingName)) {
      throw new Error("exists");
    }
    guild.groups.push({ name });
    await guild.save();
  }
}
"#;
    let got: Vec<_> = findings("src/base/Bot.ts", src)
        .into_iter()
        .filter(|f| f.rule == "unbounded-push")
        .map(|f| (line_at(src, f.span.start as usize), f.severity, f.message))
        .collect();
    let lines: Vec<usize> = got.iter().map(|g| g.0).collect();
    assert_eq!(lines, vec![19, 28], "{got:?}");
    assert_eq!(got[0].1, mongolint::diagnostic::Severity::Warning);
    assert!(got[0].2.contains("no bound"), "{}", got[0].2);
    assert_eq!(got[1].1, mongolint::diagnostic::Severity::Info);
    assert!(
        got[1].2.contains("checks are not in it yet"),
        "{}",
        got[1].2
    );
    // A function whose returns load no document: no document, no push.
    let plain = src.replace(
        "await this.guildsData.findOne({ id })",
        "await fetchGuild(id)",
    );
    assert!(rule_hits("unbounded-push", "src/base/Bot.ts", &plain).is_empty());
}

/// Meteor's older `Collection._ensureIndex(keys)` declares an index, as `createIndex` does
/// (Vulcan's votes).
#[test]
fn meteor_s_underscored_ensure_index_declares_an_index() {
    let src = r#"import { Mongo } from 'meteor/mongo';
const Posts = new Mongo.Collection('posts');
Meteor.startup(() => {
  Posts._ensureIndex({ slug: 1 });
  Posts._ensureIndex({ slug: 1, postedAt: -1 });
});
"#;
    assert_eq!(
        rule_lines("redundant-index", "server/indexes.js", src),
        vec![4]
    );
}

/// TypeScript's import types, which tree-sitter-typescript 0.23 misparses (its issues #322 and
/// #367): LibreChat's `Promise<import('mongoose').FlattenMaps<..>>` return type turned the
/// function into an error node, and its queries were lost. The function is read as written; a
/// dynamic import (`import('./m').then(..)`) is untouched.
#[test]
fn import_types_do_not_hide_a_function_s_queries() {
    let src = r#"import mongoose, { Schema, Model } from 'mongoose';
const presetSchema = new Schema({ user: String, defaultPreset: Boolean, title: String });
presetSchema.index({ title: 1 });
mongoose.model('Preset', presetSchema);
export function createPresetMethods(mongoose: typeof import('mongoose')) {
  async function getDefault(user: string): Promise<import('mongoose').FlattenMaps<{ a: number }>> {
    const Preset = mongoose.models.Preset as Model<IPreset>;
    return await Preset.findOne({ defaultPreset: true, user }).lean();
  }
  async function load(user: string) {
    const v = f<typeof import('mongoose')>();
    const lib = await import('./lib').then((x) => x.default);
    const Preset = mongoose.models.Preset as Model<IPreset>;
    return await Preset.findOne({ user }).lean();
  }
  return { getDefault, load };
}
"#;
    assert_eq!(
        rule_lines("unindexed-query", "src/methods/preset.ts", src),
        vec![8, 14]
    );
}

/// A variable typed as a Mongoose model is the collection its value names (LibreChat's `const
/// PluginAuth: Model<IPluginAuth> = mongoose.models.PluginAuth`), not an unknown one named by
/// the type.
#[test]
fn a_model_typed_variable_is_the_model_its_value_names() {
    let src = r#"import mongoose, { Schema, Model } from 'mongoose';
const pluginAuthSchema = new Schema({ userId: String, pluginKey: String, tenantId: String });
pluginAuthSchema.index({ tenantId: 1 });
mongoose.model('PluginAuth', pluginAuthSchema);
export async function find(userId: string) {
  const PluginAuth: Model<IPluginAuth> = mongoose.models.PluginAuth;
  return await PluginAuth.findOne({ userId }).lean();
}
"#;
    let got = findings("src/methods/pluginAuth.ts", src);
    let unindexed: Vec<_> = got.iter().filter(|f| f.rule == "unindexed-query").collect();
    assert_eq!(unindexed.len(), 1, "{got:?}");
    assert!(
        unindexed[0].message.contains("`pluginauths`"),
        "{}",
        unindexed[0].message
    );
}

/// An update operator held in a constant and spread into the update (growthbook's revisions:
/// `const contributorUpdate = userId != null ? { $addToSet: { contributors: userId } } : {}` ..
/// `{ $set: { status }, ...contributorUpdate }`) is read as if written in place. A constant's
/// other fields are not: a filter's conditional `_id: { $in: ids }` spread from `query` does not
/// make every query on it a read of known documents (Rocket.Chat's thread listing still pages).
#[test]
fn update_operators_spread_from_a_constant_are_read() {
    let src = r#"import mongoose from 'mongoose';
const Rev = mongoose.model('Rev', new mongoose.Schema({ id: String, status: String, contributors: [String] }));
const Msg = mongoose.model('Msg', new mongoose.Schema({ rid: String, tmid: String }));

export async function editRevision(id: string, status: string, userId: string | null) {
  const contributorUpdate = userId != null ? { $addToSet: { contributors: userId } } : {};
  return Rev.findOneAndUpdate({ id }, { $set: { status }, ...contributorUpdate }, { new: true });
}

export async function review(id: string, userId: string) {
  const extra = { $push: { reviewers: userId } };
  return Rev.updateOne({ id }, { $set: { status: 'review' }, ...extra });
}

export function threads(rid: string, type: string, ids: string[], offset: number) {
  const query = { rid, ...(type === 'unread' && { _id: { $in: ids } }) };
  return Msg.find({ ...query, tmid: { $exists: true } }).skip(offset).limit(50);
}
"#;
    assert_eq!(
        rule_lines("unbounded-push", "revisions.ts", src),
        vec![6, 11]
    );
    assert_eq!(rule_lines("skip-paging", "revisions.ts", src), vec![17]);
}

/// Of two model compilations in a chain of fallbacks, the first runs and returns a model (novu's
/// `mongoose.models.C || mongoose.model('controls', s) || mongoose.model('inputs', s)`): its
/// collection takes the queries and the schema's indexes.
#[test]
fn the_first_compilation_of_a_fallback_chain_is_the_model() {
    let src = r#"import mongoose, { Schema } from 'mongoose';
const ctlSchema = new Schema({ envId: String, stepId: String });
ctlSchema.index({ envId: 1, stepId: 1 });
export const Ctl =
  (mongoose.models.Ctl as any) || mongoose.model('controls', ctlSchema) || mongoose.model('inputs', ctlSchema);
export const byStep = (stepId: string) => Ctl.findOne({ stepId });
export const byEnv = (envId: string) => Ctl.find({ envId });
"#;
    let found = findings("control-values.schema.ts", src);
    let unindexed: Vec<_> = found
        .iter()
        .filter(|f| f.rule == "unindexed-query")
        .collect();
    assert_eq!(unindexed.len(), 1, "{found:?}");
    assert!(
        unindexed[0].message.contains("`findOne` on `controls`"),
        "{}",
        unindexed[0].message
    );
}

/// A function named for recalculating is no batch job: novu's
/// `recalculatePriorityForAllActive`, called by request handlers, writes once per id.
#[test]
fn a_recalculation_is_not_taken_for_a_batch_job() {
    let src = r#"const mongoose = require('mongoose');
const Integration = mongoose.model('Integration', new mongoose.Schema({ envId: String, priority: Number }));
async function recalculatePriorities(envId) {
  const others = await Integration.find({ envId }, '_id').sort({ priority: -1 });
  const ids = others.map((i) => i._id);
  await Promise.all(ids.map((id, index) => Integration.updateOne({ _id: id }, { $set: { priority: ids.length - index } })));
}
module.exports = { recalculatePriorities };
"#;
    assert_eq!(
        rule_lines("query-in-loop", "integration.repository.js", src),
        vec![6]
    );
}

/// A request handler (`(req, res)`) is no batch job whatever its name: Strider's
/// `exports.job = function (req, res)`, the admin page of a CI server's job. A function named
/// for a job without a request still is one.
#[test]
fn a_request_handler_named_for_a_job_is_judged() {
    let model = r#"const mongoose = require('mongoose');
const S = new mongoose.Schema({ project: { type: String, index: true }, repo_url: String });
module.exports = mongoose.model('Job', S);
"#;
    let routes = r#"const Job = require('../models/job');
exports.job = function (req, res) {
  Job.find({ repo_url: req.params.url }).exec((err, jobs) => res.json(jobs));
};
exports.cleanupJob = async function () {
  return Job.find({ repo_url: 'x' });
};
"#;
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("lib/models")).unwrap();
    std::fs::create_dir_all(dir.path().join("lib/routes")).unwrap();
    std::fs::write(dir.path().join("lib/models/job.js"), model).unwrap();
    std::fs::write(dir.path().join("lib/routes/admin.js"), routes).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mongolint"))
        .args(["check", "--format", "concise", "."])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "{text}");
    assert!(
        lines[0].starts_with("lib/routes/admin.js:3:7: warning[unindexed-query] `find` on `jobs`"),
        "{text}"
    );
}

/// A loaded Mongoose document's own update (`invite.updateOne({ $push: { collaborations: c } })`)
/// is the model's update of that document by `_id`, and its `$push` is judged. A model's
/// `updateOne(filter, update)` is read as before; an update given by a name is not guessed at.
#[test]
fn a_loaded_document_s_own_update_is_read() {
    let src = r#"const mongoose = require('mongoose');
const Invite = mongoose.model('Invite', new mongoose.Schema({ email: String, collaborations: [{ project: String }] }));
async function addToInvite(email, collab, u) {
  const invite = await Invite.findOne({ email });
  await invite.updateOne({ $push: { collaborations: collab } });
  await invite.updateOne(u);
}
module.exports = { addToInvite };
"#;
    assert_eq!(rule_lines("unbounded-push", "invite.js", src), vec![5]);
}

/// The collection `db.createCollection(name)` makes is that collection (formio's install
/// script: `const collection = await db.createCollection('forms')`, then its indexes).
#[test]
fn a_created_collection_is_the_collection_it_names() {
    let src = r#"const { MongoClient } = require('mongodb');
async function install(uri) {
  const db = (await MongoClient.connect(uri)).db('formio');
  const collection = await db.createCollection('forms', null);
  await collection.createIndexes([{ key: { name: 1 } }, { key: { name: 1, deleted: 1 } }]);
}
module.exports = install;
"#;
    let found = findings("install.js", src);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].rule, "redundant-index");
    assert!(
        found[0].message.contains("on `forms`"),
        "{}",
        found[0].message
    );
}

/// A function of the file that returns the query it is given with more of the chain (novu's
/// activity feed: `this.populateFeed(Model.find(q), env).skip(skip)`, with `populateFeed(query,
/// env) { return query.populate('subscriber')... }`) adds its modifiers to the query: the
/// populates count as joins, and the caller's skip pages. One that returns something else
/// (`count(query) { return query.countDocuments() }`) adds nothing.
#[test]
fn a_helper_that_returns_the_query_it_is_given_extends_its_chain() {
    let src = r#"import mongoose from 'mongoose';
const Notification = mongoose.model('Notification', new mongoose.Schema({ envId: String, subscriber: String }));
export class NotificationRepository {
  async getFeed(envId: string, skip = 0, limit = 10) {
    return this.populateFeed(Notification.find({ envId }), envId).skip(skip).limit(limit);
  }
  async total(envId: string, skip: number) {
    return this.count(Notification.find({ envId })).skip(skip);
  }
  private populateFeed(query: any, envId: string) {
    return query.populate('subscriber').populate('template').populate({ path: 'jobs', populate: 'step' });
  }
  private count(query: any) {
    return query.countDocuments();
  }
}
"#;
    assert_eq!(
        rule_lines("skip-paging", "notification.repository.ts", src),
        vec![5]
    );
    assert_eq!(
        rule_lines("lookup-chain", "notification.repository.ts", src),
        vec![11]
    );
}

/// A function of the file that hands its parameters on to a schema's `index` (novu's
/// subscribers: `function index(fields, options) { subscriberSchema.index(fields, options) }`)
/// declares at its calls: the keys there are read, and the collection's queries judged.
#[test]
fn an_index_forwarder_declares_at_its_calls() {
    let src = r#"import mongoose, { Schema, IndexOptions } from 'mongoose';
const subSchema = new Schema({ envId: String, externalId: String, phone: String, email: String });
subSchema.index({ envId: 1, email: 1 });
index({ externalId: 1, envId: 1 }, { unique: true });
function index(fields: Record<string, 1 | -1>, options?: IndexOptions) {
  subSchema.index(fields, options);
}
export const Sub = mongoose.model('Sub', subSchema);
export const byPhone = (phone: string) => Sub.findOne({ phone });
export const byExternal = (externalId: string, envId: string) => Sub.findOne({ externalId, envId });
"#;
    assert_eq!(
        rule_lines("unindexed-query", "subscriber.schema.ts", src),
        vec![9]
    );
    // Exported, other modules may call it with other keys: the keys stay unread, and the
    // collection's queries unjudged.
    let exported = src.replace("\nfunction index", "\nexport function index");
    assert!(rule_lines("unindexed-query", "subscriber.schema.ts", &exported).is_empty());
}

/// mongoose-paginate's `pagination: false` in the options literal, turned on after it
/// (`queryOpts.pagination = true` when a limit is given, growi's page history), pages; left
/// off, it does not. Turned off only on one path (`if (limit === 0) { opts.pagination = false }`,
/// payload's adapter), it still pages on the others.
#[test]
fn pagination_turned_on_after_the_literal_pages() {
    let src = r#"const mongoose = require('mongoose');
const schema = new mongoose.Schema({ pageId: { type: String, index: true }, createdAt: Date });
schema.plugin(require('mongoose-paginate-v2'));
const Revision = mongoose.model('Revision', schema);
async function list(req) {
  const limit = req.query.limit || 10;
  const offset = req.query.offset || 0;
  const queryOpts = { offset, sort: { createdAt: -1 }, pagination: false };
  if (limit > 0) { queryOpts.limit = limit; queryOpts.pagination = true; }
  return Revision.paginate({ pageId: req.query.pageId }, queryOpts);
}
async function all(req) {
  const offset = req.query.offset || 0;
  const queryOpts = { offset, sort: { createdAt: -1 }, pagination: false };
  return Revision.paginate({ pageId: req.query.pageId }, queryOpts);
}
async function some(req, page, limit) {
  const opts = { lean: true, page, sort: { createdAt: -1 } };
  if (limit >= 0) {
    opts.limit = limit;
    if (limit === 0) { opts.pagination = false; }
  }
  return Revision.paginate({ pageId: req.query.pageId }, opts);
}
async function none(req, page) {
  const opts = { lean: true, page, sort: { createdAt: -1 } };
  opts.pagination = false;
  return Revision.paginate({ pageId: req.query.pageId }, opts);
}
module.exports = { list, all, some, none };
"#;
    assert_eq!(rule_lines("skip-paging", "revisions.js", src), vec![8, 18]);
}

/// A `bulkWrite` list that spreads others (`const bulkOps = [...upsertOps, ...extra]`, growi's
/// vector-store relations) holds their entries: the `$addToSet` of the mapped entries is read.
#[test]
fn a_bulk_list_of_spread_lists_holds_their_entries() {
    let src = r#"import mongoose, { Schema } from 'mongoose';
const schema = new Schema({ page: Schema.Types.ObjectId, fileIds: [String] });
schema.statics.upsertRelations = async function(rels: { page: any, fileIds: string[] }[], extra: any[]) {
  const upsertOps = rels.map(r => ({
    updateOne: {
      filter: { page: r.page },
      update: { $addToSet: { fileIds: { $each: r.fileIds } } },
      upsert: true,
    },
  }));
  const bulkOps = [...upsertOps, ...extra];
  await this.bulkWrite(bulkOps);
};
export default mongoose.model('Rel', schema);
"#;
    assert_eq!(rule_lines("unbounded-push", "relation.ts", src), vec![7]);
}

/// A document a query hands its callback, with its references filled in (`.exec(function (err,
/// request) { request.populate('lead').populate('department').execPopulate(cb) })`, tiledesk's
/// requests; `.then((doc) => ..)`; the query's own callback), populates on that query. A
/// parameter no query hands (an event's payload) is not followed.
#[test]
fn a_document_a_query_hands_its_callback_populates_on_that_query() {
    let src = r#"const mongoose = require('mongoose');
const Ticket = mongoose.model('ticket', new mongoose.Schema({ ticket_id: String, lead: { type: mongoose.Schema.Types.ObjectId, ref: 'lead' }, dept: { type: mongoose.Schema.Types.ObjectId, ref: 'dept' } }));
function close(id, cb) {
  Ticket.findOneAndUpdate({ ticket_id: id }, { status: 1000 }, { new: true }).exec(function (err, ticket) {
    ticket.populate('lead').populate('dept').execPopulate(cb);
  });
}
function open(id) {
  return Ticket.findById(id).then((t) => t.populate('lead').populate('dept').execPopulate());
}
function show(id, cb) {
  Ticket.findOne({ ticket_id: id }, (err, t) => t.populate('lead').populate('dept').execPopulate(cb));
}
function onCreate(ticket) {
  ticket.populate('lead').populate('dept').execPopulate(() => {});
}
"#;
    assert_eq!(rule_lines("lookup-chain", "ticket.js", src), vec![5, 9, 12]);
}

/// TypeScript reads `await q.populate<T>(paths)` as a call of `await q.populate`: the populate is
/// still on the chain of the query (hyperdx's alerts), and on a loaded document's.
#[test]
fn an_awaited_populate_with_type_arguments_is_on_the_chain() {
    let src = r#"import mongoose, { Schema } from 'mongoose';
const AlertSchema = new Schema({ team: String, savedSearch: { type: Schema.Types.ObjectId, ref: 'SavedSearch' }, dashboard: { type: Schema.Types.ObjectId, ref: 'Dashboard' } });
const Alert = mongoose.model('Alert', AlertSchema);
export async function list(teamId: string) {
  return await Alert.find({ team: teamId }).populate<{ savedSearch: any }>(['savedSearch', 'dashboard']);
}
export async function one(id: string) {
  const alert = await Alert.findById(id);
  return alert && (await alert.populate<{ savedSearch: any }>(['savedSearch', 'dashboard']));
}
export async function single(teamId: string) {
  return await Alert.find({ team: teamId }).populate<{ savedSearch: any }>('savedSearch');
}
"#;
    assert_eq!(rule_lines("lookup-chain", "alerts.ts", src), vec![5, 9]);
}

/// The Mongoose counter idiom: a loaded document's field counted by a literal step and saved
/// (`post.views += 1; post.save()`, `post.views++`; nodeclub's `topic.reply_count += 1`) is a
/// per-event counter, as its `$inc` is (Mongoose sends the new value with `$set`). Not a field
/// changed without a save, nor one set to a value.
#[test]
fn a_loaded_documents_counter_saved_is_a_per_event_counter() {
    let src = r#"var mongoose = require('mongoose');
var Post = mongoose.model('Post', new mongoose.Schema({ views: Number, title: String }));
exports.show = function (req, res) {
  Post.findOne({ _id: req.params.id }, function (err, post) {
    post.views += 1;
    post.save();
    res.send(post);
  });
};
exports.show2 = async function (req, res) {
  const post = await Post.findById(req.params.id);
  post.views++;
  await post.save();
  res.send(post);
};
exports.rename = async function (req, res) {
  const post = await Post.findById(req.params.id);
  post.title = req.body.title;
  post.version += 1;
  res.send(post);
};
exports.reset = async function (req, res) {
  const post = await Post.findById(req.params.id);
  post.views = 0;
  await post.save();
};
"#;
    assert_eq!(rule_lines("counter-inc", "post.js", src), vec![5, 12]);
    for f in findings("post.js", src)
        .iter()
        .filter(|f| f.rule == "counter-inc")
    {
        assert!(
            f.message
                .contains("`views` by 1 on a loaded document, then `save()`"),
            "{}",
            f.message
        );
    }
}

/// The counter idiom in a document method (Habitica's `schema.methods.unlinkTasks`: `this
/// .memberCount -= 1; await this.save()`; `const chalTask = this; chalTask.scoredUp += 1; await
/// chalTask.save()`): `this` is a document of the schema's model. Not an arrow function's `this`.
#[test]
fn a_document_methods_counter_saved_is_a_per_event_counter() {
    let src = r#"const mongoose = require('mongoose');
const schema = new mongoose.Schema({ memberCount: Number, scoredUp: Number });
schema.methods.removeMember = async function removeMember() {
  this.memberCount -= 1;
  await this.save();
};
schema.methods.score = async function score() {
  const chalTask = this;
  chalTask.scoredUp += 1;
  await chalTask.save();
};
schema.methods.later = function later() {
  return () => { this.memberCount += 1; return this.save(); };
};
schema.statics.bump = async function bump(id) {
  this.memberCount += 1;
  await this.save();
};
module.exports.Challenge = mongoose.model('Challenge', schema);
"#;
    let got = rule_hits("counter-inc", "models/challenge.js", src);
    assert_eq!(
        got.iter().map(|h| h.0).collect::<Vec<_>>(),
        vec![4, 9, 13],
        "{got:?}"
    );
    let f = findings("models/challenge.js", src)
        .into_iter()
        .find(|f| f.rule == "counter-inc")
        .unwrap()
        .message;
    assert!(
        f.contains("`memberCount` by -1 on a loaded document"),
        "{f}"
    );
    assert!(f.contains("on `challenges`"), "{f}");
}

/// An item of a model's query results walked by a loop (`for (const doc of docs)`,
/// `docs.forEach((d) => ..)`, `docs` bound to `await Msg.find(q)`) is a loaded document: saved in
/// the loop, one write per item (query-in-loop, info); its array pushed to and saved, an
/// unbounded `$push`. Not the plain objects of `lean()`.
#[test]
fn an_item_of_a_models_results_is_a_loaded_document() {
    let src = r#"var mongoose = require('mongoose');
var Msg = mongoose.model('Msg', new mongoose.Schema({ read: Boolean, tags: [String] }));
exports.markAll = async function (req, res) {
  const docs = await Msg.find({ owner: req.user._id, read: false });
  for (const doc of docs) {
    doc.read = true;
    doc.tags.push('seen');
    await doc.save();
  }
};
exports.markSome = async function (req, res) {
  const docs = await Msg.find({ owner: req.user._id });
  docs.forEach((d) => { d.read = true; d.save(); });
};
exports.lean = async function (req, res) {
  const docs = await Msg.find({ owner: req.user._id }).lean();
  for (const doc of docs) { doc.tags.push('x'); await doc.save(); }
};
"#;
    assert_eq!(rule_lines("query-in-loop", "msg.js", src), vec![8, 13]);
    assert_eq!(rule_lines("unbounded-push", "msg.js", src), vec![7]);
    for f in findings("msg.js", src)
        .iter()
        .filter(|f| f.rule == "query-in-loop")
    {
        assert_eq!(f.severity, Severity::Info, "{}", f.message);
    }
}

/// A `while` loop that walks a cursor one document a step (`while ((msg = await
/// cursor.next()))`, wildduck's IMAP copy; `while (await cursor.hasNext())`) is a loop over that
/// query's results, as `for await (const msg of cursor)` is: a read per document is N+1, a write
/// per document one round trip each. A `while` loop that pages or polls is still no loop over
/// items.
#[test]
fn a_while_loop_walking_a_cursor_is_a_loop_over_its_documents() {
    let src = r#"const { MongoClient } = require('mongodb');
const db = new MongoClient('x').db();
async function copyAll(source) {
  const cursor = db.collection('messages').find({ mailbox: source });
  let msg;
  while ((msg = await cursor.next())) {
    await db.collection('messages').updateOne({ _id: msg._id }, { $set: { copied: true } });
    await db.collection('mailboxes').findOne({ _id: msg.mailbox });
  }
  const c2 = db.collection('messages').find({ mailbox: source });
  while (await c2.hasNext()) {
    const m = await c2.next();
    await db.collection('users').findOne({ _id: m.user });
  }
  let more = true, page = 0;
  while (more) {
    const batch = await db.collection('messages').find({}).sort({ _id: 1 }).limit(10).toArray();
    await db.collection('users').findOne({ _id: batch[0].user });
    more = batch.length > 0; page++;
  }
}
module.exports = { copyAll };
"#;
    let got: Vec<(usize, Severity)> = findings("copy.js", src)
        .iter()
        .filter(|f| f.rule == "query-in-loop")
        .map(|f| (line_at(src, f.span.start as usize), f.severity))
        .collect();
    assert_eq!(
        got,
        [
            (7, Severity::Info),
            (8, Severity::Warning),
            (13, Severity::Warning)
        ]
    );
}

/// A filter name assigned again under a condition is read as the object it holds on a path the
/// code shows: the declared literal when each later assignment is in an `if` with no `else`
/// (tellform's form list, `{}` for an administrator), or the first when every candidate has the
/// same keys (wildduck's mailbox counter, assigned in both branches). Not: a name assigned again
/// after the read (a paging loop's next filter), nor candidates with other keys that no path is
/// known to skip.
#[test]
fn a_filter_assigned_again_under_a_condition_is_read_on_a_path_the_code_shows() {
    let src = r#"const { MongoClient } = require("mongodb");
async function list(db, user) {
  await db.collection("forms").createIndex({ created: 1 });
  let filter = { admin: user.id };
  if (user.isAdmin) filter = {};
  return db.collection("forms").find(filter).toArray();
}
async function bump(db, user, id) {
  let q;
  if (id) {
    q = { _id: id };
  } else {
    q = { _id: user.inbox };
  }
  return db.collection("mailboxes").findOneAndUpdate(q, { $inc: { modifyIndex: 1 } });
}
async function page(db, tag) {
  let q = { tag: tag };
  while (true) {
    const docs = await db.collection("forms").find(q).limit(10).toArray();
    if (!docs.length) break;
    q = { tag: tag, _id: { $gt: docs[9]._id } };
  }
}
async function either(db, a) {
  let q = { owner: a.id };
  if (a.x) { q = { path: 1 }; } else { q = { path: 2 }; }
  return db.collection("forms").find(q).toArray();
}
"#;
    assert_eq!(rule_lines("unindexed-query", "forms.js", src), vec![6]);
    let f = only("counter-inc", "forms.js", src);
    assert!(f.message.contains("matched by `_id`"), "{}", f.message);
    let unconditional = src.replace("if (user.isAdmin) filter = {};", "filter = {};");
    assert!(rule_lines("unindexed-query", "forms.js", &unconditional).is_empty());
}
