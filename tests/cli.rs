//! End-to-end tests of the `mongolint` binary on temporary folders: exit status, output formats,
//! relative paths, what discovery skips by default, per-file errors, and the `rules`/`explain`
//! subcommands.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A driver file with one unbounded `$push` on line 2 (the span starts at column 57).
const PUSH_JS: &str = "async function addComment(db, id, c) {\n  await db.collection(\"posts\").updateOne({ _id: id }, { $push: { comments: c } });\n}\n";
const PUSH_LINE: usize = 2;
const PUSH_COLUMN: usize = 57;

/// A driver file with nothing to report.
const CLEAN_JS: &str =
    "async function load(db, id) {\n  return db.collection(\"posts\").findOne({ _id: id });\n}\n";

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_mongolint"));
    c.env("NO_COLOR", "1");
    c
}

/// Runs `mongolint <args>` with `dir` as the current folder.
fn run(dir: &Path, args: &[&str]) -> Output {
    bin()
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the mongolint binary runs")
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn write(root: &Path, rel: &str, content: impl AsRef<[u8]>) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, content).unwrap();
}

/// A fresh temporary folder, canonicalised so that paths under it compare with the current folder.
fn temp() -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().canonicalize().unwrap();
    (t, root)
}

/// Paths of the files with findings, from concise output (sorted, deduplicated).
fn flagged_paths(concise: &str) -> Vec<String> {
    let mut v: Vec<String> = concise
        .lines()
        .filter(|l| !l.contains("error[io]"))
        .filter_map(|l| l.split(':').next())
        .map(str::to_string)
        .collect();
    v.dedup();
    v
}

/// The lines of concise output that report `rule`.
fn lines_of<'a>(concise: &'a str, rule: &str) -> Vec<&'a str> {
    concise.lines().filter(|l| l.contains(rule)).collect()
}

fn concise(dir: &Path, extra: &[&str]) -> (i32, String) {
    let mut args = vec!["check", "--format", "concise"];
    args.extend_from_slice(extra);
    let o = run(dir, &args);
    (code(&o), stdout(&o))
}

// ---------------------------------------------------------------------------------------------
// exit status
// ---------------------------------------------------------------------------------------------

#[test]
fn clean_folder_exits_zero() {
    let (_t, root) = temp();
    write(&root, "src/load.js", CLEAN_JS);
    let o = run(&root, &["check"]);
    assert_eq!(
        code(&o),
        0,
        "stdout:\n{}\nstderr:\n{}",
        stdout(&o),
        stderr(&o)
    );
    assert!(!stdout(&o).contains("warning["), "{}", stdout(&o));
}

#[test]
fn folder_without_javascript_exits_zero() {
    let (_t, root) = temp();
    write(&root, "README.md", "# hello\nuse $push wisely\n");
    write(
        &root,
        "notes.txt",
        "db.collection('x').updateOne({}, {$push: {a: 1}})\n",
    );
    let o = run(&root, &["check", "."]);
    assert_eq!(
        code(&o),
        0,
        "stdout:\n{}\nstderr:\n{}",
        stdout(&o),
        stderr(&o)
    );
}

#[test]
fn findings_exit_one() {
    let (_t, root) = temp();
    write(&root, "src/app.js", PUSH_JS);
    write(&root, "src/load.js", CLEAN_JS);
    let o = run(&root, &["check"]);
    assert_eq!(code(&o), 1, "stderr:\n{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("unbounded-push"), "{out}");
    assert!(out.contains("src/app.js"), "{out}");
}

#[test]
fn missing_path_exits_two_and_other_path_is_still_reported() {
    let (_t, root) = temp();
    write(&root, "src/app.js", PUSH_JS);
    for format in ["text", "concise", "json"] {
        let o = run(
            &root,
            &["check", "--format", format, "src", "does-not-exist"],
        );
        assert_eq!(code(&o), 2, "{format}: stderr:\n{}", stderr(&o));
        let all = format!("{}{}", stdout(&o), stderr(&o));
        assert!(
            all.contains("does-not-exist"),
            "{format}: names the missing path:\n{all}"
        );
        assert!(
            stdout(&o).contains("unbounded-push"),
            "{format}: findings still printed:\n{all}"
        );
        assert!(stdout(&o).contains("src/app.js"), "{format}:\n{all}");
    }
}

// ---------------------------------------------------------------------------------------------
// output destinations and formats
// ---------------------------------------------------------------------------------------------

#[test]
fn output_file_gets_the_report_and_stdout_stays_empty() {
    let (_t, root) = temp();
    write(&root, "src/app.js", PUSH_JS);
    let o = run(
        &root,
        &["check", "--format", "json", "--output", "report.json"],
    );
    assert_eq!(code(&o), 1, "exit status still reflects findings");
    assert!(o.stdout.is_empty(), "stdout: {:?}", stdout(&o));
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["findings"][0]["rule"], "unbounded-push");

    let o = run(&root, &["check", "-o", "report.txt"]);
    assert!(o.stdout.is_empty(), "stdout: {:?}", stdout(&o));
    let text = std::fs::read_to_string(root.join("report.txt")).unwrap();
    assert!(text.contains("unbounded-push"), "{text}");
    assert!(
        !text.contains('\u{1b}'),
        "no ANSI colours in a file: {text:?}"
    );
}

#[test]
fn concise_format_is_path_line_col_severity_rule_message() {
    let (_t, root) = temp();
    write(&root, "src/app.js", PUSH_JS);
    let (status, out) = concise(&root, &[]);
    assert_eq!(status, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    let prefix = format!("src/app.js:{PUSH_LINE}:{PUSH_COLUMN}: warning[unbounded-push] ");
    assert!(
        lines[0].starts_with(&prefix),
        "{:?} should start with {prefix:?}",
        lines[0]
    );
    let message = &lines[0][prefix.len()..];
    assert!(
        message.contains("comments") && message.contains("posts"),
        "{message}"
    );
    assert_eq!(
        &PUSH_JS.lines().nth(PUSH_LINE - 1).unwrap()[PUSH_COLUMN - 1..PUSH_COLUMN - 1 + 5],
        "$push",
        "the column points at the operator"
    );
}

#[test]
fn json_format_has_the_documented_fields() {
    let (_t, root) = temp();
    write(&root, "src/app.js", PUSH_JS);
    write(&root, "src/load.js", CLEAN_JS);
    let o = run(&root, &["check", "--format", "json"]);
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    assert!(out.ends_with('\n'));
    let v: Value = serde_json::from_str(&out).expect("valid JSON");
    assert_eq!(v["version"], 1);
    assert_eq!(v["tool"]["name"], "mongolint");
    assert!(v["tool"]["version"].is_string());
    let findings = v["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1);
    let f = &findings[0];
    assert_eq!(f["rule"], "unbounded-push");
    assert_eq!(f["severity"], "warning");
    assert_eq!(f["path"], "src/app.js");
    assert_eq!(f["start"]["line"], PUSH_LINE);
    assert_eq!(f["start"]["column"], PUSH_COLUMN);
    assert_eq!(f["end"]["line"], PUSH_LINE);
    assert_eq!(f["end"]["column"], PUSH_COLUMN + "$push".len());
    assert!(f["message"].as_str().unwrap().contains("posts"));
    assert!(f["help"].is_string());
    assert!(f["related"].as_array().unwrap().is_empty());
    let fp = f["fingerprint"].as_str().unwrap();
    assert!(
        fp.len() == 16
            && fp
                .chars()
                .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c)),
        "fingerprint {fp:?}"
    );
    assert_eq!(v["errors"], serde_json::json!([]));
    let s = &v["summary"];
    assert_eq!(s["files_scanned"], 2);
    assert!(s["files_parsed"].as_u64().unwrap() >= 1);
    assert_eq!(s["findings"], 1);
    assert_eq!(
        s["by_severity"],
        serde_json::json!({"error": 0, "warning": 1, "info": 0})
    );
    assert_eq!(s["file_errors"], 0);
}

#[test]
fn json_lists_file_errors() {
    let (_t, root) = temp();
    write(&root, "src/app.js", PUSH_JS);
    let o = run(&root, &["check", "--format", "json", "src", "missing"]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["errors"][0]["path"], "missing");
    assert!(v["errors"][0]["message"].is_string());
    assert_eq!(v["summary"]["file_errors"], 1);
}

#[test]
fn sarif_format_is_2_1_0_with_relative_uris() {
    let (_t, root) = temp();
    write(&root, "src/app.js", PUSH_JS);
    let o = run(&root, &["check", "--format", "sarif"]);
    assert_eq!(code(&o), 1);
    let v: Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    assert_eq!(v["version"], "2.1.0");
    let run0 = &v["runs"][0];
    assert_eq!(run0["tool"]["driver"]["name"], "mongolint");
    let results = run0["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["ruleId"], "unbounded-push");
    let loc = &results[0]["locations"][0]["physicalLocation"];
    let uri = loc["artifactLocation"]["uri"].as_str().unwrap();
    assert_eq!(uri, "src/app.js");
    assert_eq!(loc["region"]["startLine"], PUSH_LINE);
    assert_eq!(loc["region"]["startColumn"], PUSH_COLUMN);
    let raw = stdout(&o);
    assert!(
        !raw.contains(&root.to_string_lossy().into_owned()),
        "no absolute paths in SARIF"
    );
    assert!(!raw.contains("file://"), "no file URIs");
}

#[test]
fn paths_are_relative_to_the_current_folder() {
    let (_t, root) = temp();
    write(&root, "pkg/src/app.js", PUSH_JS);
    let abs = root.join("pkg");
    for arg in [".", "pkg", "./pkg/src", abs.to_str().unwrap()] {
        let (status, out) = concise(&root, &[arg]);
        assert_eq!(status, 1, "{arg}");
        assert_eq!(
            flagged_paths(&out),
            vec!["pkg/src/app.js"],
            "for `{arg}`:\n{out}"
        );
    }
    // Outside a git repository the working folder is the root: from a subfolder, paths are
    // relative to it. (Inside a repository they are relative to the repository root wherever we
    // run from: tests/workflow.rs.)
    let (_, out) = concise(&root.join("pkg"), &[]);
    assert_eq!(flagged_paths(&out), vec!["src/app.js"], "{out}");
}

/// The findings of a run do not depend on the folder it starts from (mist.api, no repository:
/// 100 findings from its top, 69 from `src/mist/api`). A tree checked by its absolute path from
/// a folder inside it shows paths from its top; a subfolder checked on its own still resolves its
/// Python package's absolute imports (`from pkg.users.models import User`), whose dotted name
/// spells folders above it.
#[test]
fn findings_do_not_depend_on_the_folder_the_run_starts_from() {
    let (_t, root) = temp();
    write(&root, "src/setup.py", "");
    write(&root, "src/pkg/__init__.py", "");
    write(&root, "src/pkg/users/__init__.py", "");
    write(
        &root,
        "src/pkg/users/models.py",
        "import mongoengine as me\nclass User(me.Document):\n    status = me.StringField()\n    email = me.StringField()\n    meta = {'collection': 'users', 'indexes': ['email']}\n",
    );
    write(
        &root,
        "src/pkg/views.py",
        "from pkg.users.models import User\ndef confirmed():\n    return User.objects(status='confirmed').count()\n",
    );
    let whole = root.to_str().unwrap();
    let (_, top) = concise(&root, &[]);
    assert_eq!(flagged_paths(&top), vec!["src/pkg/views.py"], "{top}");
    for dir in ["src", "src/pkg", "src/pkg/users"] {
        let (_, out) = concise(&root.join(dir), &[whole]);
        assert_eq!(out, top, "from {dir}");
    }
    let (_, sub) = concise(&root.join("src/pkg"), &[]);
    assert_eq!(flagged_paths(&sub), vec!["views.py"], "{sub}");
}

/// A model imported from a package the linker cannot follow (Rocket.Chat's `@rocket.chat/models`)
/// is MongoDB once one call on it is (a driver-only method, an operator), in any file: its plain
/// `findOne` in a loop is then a query per item too. A Python model's manager is no such
/// evidence (Django's and mongoengine's are spelt alike).
#[test]
fn one_mongodb_call_on_an_imported_model_is_evidence_for_the_others() {
    let (_t, root) = temp();
    write(
        &root,
        "app/status.ts",
        "import { Users } from '@rocket.chat/models';\nexport const online = () => Users.countDocuments({ status: { $ne: 'offline' } });\n",
    );
    write(
        &root,
        "app/irc.ts",
        "import { Users } from '@rocket.chat/models';\nexport async function names(subs) {\n  for (const s of subs) {\n    await Users.findOne({ username: s.u.username });\n  }\n}\n",
    );
    let (_, out) = concise(&root, &[]);
    assert!(
        out.contains("app/irc.ts:4") && out.contains("query-in-loop"),
        "{out}"
    );
    std::fs::remove_file(root.join("app/status.ts")).unwrap();
    let (_, out) = concise(&root, &[]);
    assert!(!out.contains("query-in-loop"), "{out}");
}

/// Django's models beside mongoengine's documents (NewsBlur): `Feed.objects.get(..)` on a class
/// derived from `models.Model` (`models` from `django.db`), in its module or imported from it, and
/// `User.objects.get(..)` on `django.contrib.auth`'s `User`, imported directly or through a module
/// of the repository, are SQL queries, not MongoDB's; the document's own in the same loop still is
/// one. A Django model's foreign key to another model (`models.ForeignKey(Feed, ..)`) does not make
/// it stand for that model.
#[test]
fn django_models_beside_mongoengine_documents_are_not_collections() {
    let (_t, root) = temp();
    write(
        &root,
        "apps/feeds/models.py",
        "import mongoengine as mongo\nfrom django.db import models\nfrom django.contrib.auth.models import User\n\n\
         class Feed(models.Model):\n    address = models.CharField(max_length=255)\n\n\
         class DuplicateFeed(models.Model):\n    feed = models.ForeignKey(Feed, related_name='dupes', on_delete=models.CASCADE)\n\n\
         class MStory(mongo.Document):\n    story_feed_id = mongo.IntField()\n    meta = {'collection': 'stories'}\n\n\
         def refresh(ids):\n    for i in ids:\n        Feed.objects.get(pk=i)\n        User.objects.get(pk=i)\n",
    );
    write(
        &root,
        "apps/reader/views.py",
        "from mongoengine.queryset import Q\nfrom django.contrib.auth.models import User\nfrom apps.feeds.models import DuplicateFeed, Feed, MStory\nfrom apps.feeds.models import User as U2\n\n\
         def load(feed_ids):\n    for feed_id in feed_ids:\n        DuplicateFeed.objects.filter(duplicate_feed_id=feed_id)\n        Feed.objects.get(pk=feed_id)\n        User.objects.get(pk=feed_id)\n        U2.objects.get(pk=feed_id)\n        MStory.objects.get(story_feed_id=feed_id)\n",
    );
    let (_, out) = concise(&root, &[]);
    assert_eq!(
        lines_of(&out, "query-in-loop"),
        vec!["apps/reader/views.py:12:24: warning[query-in-loop] `get` on `stories` runs once per item of `feed_ids`: N+1 queries, an application-side join"],
        "{out}"
    );
}

/// Meteor's client-side collections in memory (`new Mongo.Collection(null)`, or an instance of a
/// class that extends `Mongo.Collection` and calls `super(null)`), exported and written to from
/// other modules (Rocket.Chat's `UserRoles`, `ChatMessage` through its models index): no database
/// is behind them, so an `$addToSet` there grows nothing stored. A named collection exported the
/// same way still is one.
#[test]
fn writes_to_an_imported_collection_in_memory_are_not_database_writes() {
    let (_t, root) = temp();
    write(
        &root,
        "app/models/client/models/UserRoles.ts",
        "import { Mongo } from 'meteor/mongo';\nexport const UserRoles = new Mongo.Collection<{ roles?: string[] }>(null);\n",
    );
    write(
        &root,
        "app/models/client/models/ChatMessage.ts",
        "import { Mongo } from 'meteor/mongo';\nclass ChatMessageCollection extends Mongo.Collection<IMessage> {\n  constructor() {\n    super(null);\n  }\n}\nexport const ChatMessage = new ChatMessageCollection();\n",
    );
    write(
        &root,
        "app/models/client/models/Rooms.ts",
        "import { Mongo } from 'meteor/mongo';\nexport const Rooms = new Mongo.Collection('rooms');\n",
    );
    write(
        &root,
        "app/models/client/index.ts",
        "import { UserRoles } from './models/UserRoles';\nimport { ChatMessage } from './models/ChatMessage';\nimport { Rooms } from './models/Rooms';\nexport { UserRoles, ChatMessage, Rooms };\n",
    );
    write(
        &root,
        "client/startup/userRoles.ts",
        "import { Meteor } from 'meteor/meteor';\nimport { UserRoles, ChatMessage, Rooms } from '../../app/models/client';\n\
         export function added(role) {\n  \
         UserRoles.upsert({ _id: role.u._id }, { $addToSet: { roles: role._id } });\n  \
         ChatMessage.update({ 'u._id': role.u._id }, { $addToSet: { roles: role._id } }, { multi: true });\n  \
         Rooms.update({ _id: role.rid }, { $push: { roles: role._id } });\n}\n",
    );
    let (_, out) = concise(&root, &[]);
    let lines = lines_of(&out, "unbounded-push");
    assert_eq!(lines.len(), 1, "{out}");
    assert!(
        lines[0].starts_with("client/startup/userRoles.ts:6:"),
        "{out}"
    );
    // The named one is resolved through the index, to the collection it names.
    assert!(lines[0].contains("`rooms`"), "{out}");
}

/// A module named for MongoDB that holds another store's collections (juice-shop's
/// `data/mongodb.ts`: `export const reviewsCollection = new MarsDB.Collection('posts')`, no word
/// of MongoDB in it) is read when a checked file imports from it: an `$inc` on its collection
/// reaches no MongoDB. The same module exporting a MongoDB collection still gives the finding, and
/// so does a NeDB datastore's neighbour in the same file that is MongoDB's.
#[test]
fn collections_of_another_store_in_a_module_named_for_mongo_are_not_mongodb() {
    let (_t, root) = temp();
    write(
        &root,
        "data/mongodb.ts",
        "import * as MarsDB from 'marsdb'\nexport const reviewsCollection = new MarsDB.Collection('posts')\n",
    );
    write(
        &root,
        "routes/likeProductReviews.ts",
        "import * as db from '../data/mongodb'\n\
         export function like(id: string) {\n  \
         return db.reviewsCollection.update({ _id: id }, { $inc: { likesCount: 1 } })\n}\n",
    );
    write(
        &root,
        "lib/store.js",
        "const Datastore = require('nedb');\nconst { MongoClient } = require('mongodb');\n\
         const local = new Datastore({ filename: 'views.db' });\n\
         const views = new MongoClient(process.env.URL).db().collection('views');\n\
         exports.seen = (id) => {\n  \
         local.update({ _id: id }, { $inc: { n: 1 } });\n  \
         views.updateOne({ _id: id }, { $inc: { n: 1 } });\n};\n",
    );
    let (_, out) = concise(&root, &[]);
    let lines = lines_of(&out, "counter-inc");
    assert_eq!(lines.len(), 1, "{out}");
    assert!(lines[0].starts_with("lib/store.js:7:"), "{out}");
    // The module's collection is MongoDB's: the importer's `$inc` is a counter again.
    write(
        &root,
        "data/mongodb.ts",
        "import { MongoClient } from 'mongodb'\nexport const reviewsCollection = new MongoClient(process.env.URL).db().collection('posts')\n",
    );
    let (_, out) = concise(&root, &[]);
    let lines = lines_of(&out, "counter-inc");
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[1].starts_with("routes/likeProductReviews.ts:3:"),
        "{out}"
    );
}

/// A path into a scoped package of the repository's own workspace (fiora's `@fiora/database/
/// mongoose/models/group`, the package in `packages/database`) resolves to the file, so the
/// model's collection and its declared indexes are known where it is used. A package that is
/// not in the repository stays unresolved.
#[test]
fn a_path_into_a_workspace_package_resolves_to_its_file() {
    let (_t, root) = temp();
    write(&root, "packages/db/package.json", r#"{"name": "@x/db"}"#);
    write(
        &root,
        "packages/db/models/socket.ts",
        "import { model, Schema } from 'mongoose';\nexport default model('Socket', new Schema({ id: { type: String, unique: true }, user: String }));\n",
    );
    write(
        &root,
        "packages/server/src/sockets.ts",
        "import Socket from '@x/db/models/socket';\nimport Other from '@y/db/models/other';\n\
         export const byUser = (userId) => Socket.find({ user: userId });\n\
         export const byId = (id) => Socket.findOne({ id });\n\
         export const others = (userId) => Other.find({ user: userId });\n",
    );
    let (_, out) = concise(&root, &[]);
    let lines = lines_of(&out, "unindexed-query");
    assert_eq!(lines.len(), 1, "{out}");
    assert!(
        lines[0].starts_with("packages/server/src/sockets.ts:3:") && lines[0].contains("`sockets`"),
        "{out}"
    );
}

/// LibreChat's data layer: schemas default-exported from their own modules, compiled by factories
/// handed Mongoose (`(mongoose: typeof import('mongoose')) => mongoose.models.Role ||
/// mongoose.model('Role', roleSchema)`), and methods that look the model up by name
/// (`mongoose.models.Role`). The schema's index declarations are `roles`', so a redundant one is
/// reported, and the methods' queries are judged against them, with the model's collection named.
#[test]
fn models_looked_up_by_name_and_schemas_compiled_in_factories() {
    let (_t, root) = temp();
    write(
        &root,
        "src/schema/role.ts",
        "import { Schema } from 'mongoose';
         const roleSchema = new Schema({ name: { type: String, index: true }, tenantId: String, level: Number });
         roleSchema.index({ name: 1, tenantId: 1 }, { unique: true });
         export default roleSchema;
",
    );
    write(
        &root,
        "src/models/role.ts",
        "import { Model } from 'mongoose';
import roleSchema from '../schema/role';
         export function createRoleModel(mongoose: typeof import('mongoose')): Model<unknown> {
           return mongoose.models.Role || mongoose.model('Role', roleSchema);
}
",
    );
    write(
        &root,
        "src/methods/role.ts",
        "import type { Model } from 'mongoose';
         export function createRoleMethods(mongoose: typeof import('mongoose')) {
           async function byLevel(level: number) {
             const Role = mongoose.models.Role as Model<unknown>;
             return Role.find({ level }).lean();
           }
           async function byName(name: string) {
             return mongoose.models.Role.findOne({ name, tenantId: 't' });
           }
           return { byLevel, byName };
}
",
    );
    let (_, out) = concise(&root, &[]);
    let unindexed = lines_of(&out, "unindexed-query");
    assert_eq!(unindexed.len(), 1, "{out}");
    assert!(
        unindexed[0].starts_with("src/methods/role.ts:5:")
            && unindexed[0].contains("`find` on `roles` filters by `level`"),
        "{out}"
    );
    let redundant = lines_of(&out, "redundant-index");
    assert_eq!(redundant.len(), 1, "{out}");
    assert!(redundant[0].starts_with("src/schema/role.ts:2:"), "{out}");
}

/// checkmate's check schemas: `mongoose.Schema({ ...BaseCheckSchema.obj, .. })` copies the base
/// schema's fields, with their index options, in its own module and in the modules that import
/// it. The base's `monitorId: { index: true }` is then each copy's (a redundant prefix of the
/// copy's compound index), and no longer an index of an unnamed collection that held back
/// `MaintenanceWindow.find({ monitorId })`. A schema's `.index(..)` calls are not in `.obj`.
#[test]
fn a_schema_that_copies_another_schemas_fields_has_their_indexes() {
    let (_t, root) = temp();
    write(
        &root,
        "models/Check.js",
        "import mongoose from 'mongoose';
const BaseCheckSchema = mongoose.Schema({ monitorId: { type: mongoose.Schema.Types.ObjectId, index: true }, status: Boolean });
BaseCheckSchema.index({ status: 1 });
const CheckSchema = mongoose.Schema({ ...BaseCheckSchema.obj }, { timestamps: true });
CheckSchema.index({ monitorId: 1, createdAt: -1 });
export default mongoose.model('Check', CheckSchema);
export { BaseCheckSchema };
",
    );
    write(
        &root,
        "models/PageSpeedCheck.js",
        "import mongoose from 'mongoose';
import { BaseCheckSchema } from './Check.js';
const PageSpeedCheckSchema = mongoose.Schema({ ...BaseCheckSchema.obj, score: Number }, { timestamps: true });
PageSpeedCheckSchema.index({ monitorId: 1, createdAt: -1 });
export default mongoose.model('PageSpeedCheck', PageSpeedCheckSchema);
",
    );
    write(
        &root,
        "models/MaintenanceWindow.js",
        "import mongoose from 'mongoose';
const MaintenanceWindowSchema = mongoose.Schema({ monitorId: mongoose.Schema.Types.ObjectId, expiry: { type: Date, index: { expires: '0s' } } });
export default mongoose.model('MaintenanceWindow', MaintenanceWindowSchema);
",
    );
    write(
        &root,
        "modules/windows.js",
        "import MaintenanceWindow from '../models/MaintenanceWindow.js';
import Check from '../models/Check.js';
export const windowsOf = async (monitorId) => MaintenanceWindow.find({ monitorId });
export const byStatus = async (status) => Check.find({ status });
",
    );
    let (_, out) = concise(&root, &[]);
    let unindexed = lines_of(&out, "unindexed-query");
    assert_eq!(unindexed.len(), 2, "{out}");
    assert!(
        unindexed[0].starts_with("modules/windows.js:3:")
            && unindexed[0].contains("`maintenancewindows` filters by `monitorId`"),
        "{out}"
    );
    // `BaseCheckSchema.index({ status: 1 })` is not copied by `.obj`.
    assert!(
        unindexed[1].starts_with("modules/windows.js:4:")
            && unindexed[1].contains("`checks` filters by `status`"),
        "{out}"
    );
    // (One finding for the declaration, which both copies make redundant.)
    let redundant = lines_of(&out, "redundant-index");
    assert_eq!(redundant.len(), 1, "{out}");
    assert!(
        redundant[0].starts_with("models/Check.js:2:") && redundant[0].contains("{monitorId: 1}"),
        "{out}"
    );
    let collections = stdout(&run(&root, &["collections", "."]));
    let pagespeed = collections
        .split("\n\n")
        .find(|b| b.starts_with("pagespeedchecks"))
        .unwrap_or_default();
    assert!(
        pagespeed.contains("index {monitorId: 1} (index) at models/Check.js:2:")
            && !pagespeed.contains("{status: 1}"),
        "{collections}"
    );
    assert!(
        collections.contains("0 index declarations on such collections"),
        "{collections}"
    );
}

/// An index the code declares on a collection it does not name (a sub-document's schema, whose
/// indexes land on its parent's collection; a schema exported and compiled nowhere in the
/// repository; a cache's table) may be any collection's, so it holds back only the queries it
/// would serve: tiledesk's `tags: [TagSchema]` with `tag: { index: true }` no longer keeps
/// `User.findOne({ resetpswrequestid })` from being judged, while a query on `tag` stays unjudged.
/// Mongoose's `Model.createIndexes()` without arguments builds the schema's own declarations and
/// declares nothing; MeiliSearch's `client.createIndex(name, { primaryKey })` is no MongoDB index.
#[test]
fn an_index_on_an_unnamed_collection_holds_back_only_what_it_serves() {
    let (_t, root) = temp();
    write(
        &root,
        "models/tag.js",
        "var mongoose = require('mongoose');
         var TagSchema = new mongoose.Schema({ tag: { type: String, index: true }, color: String });
         module.exports = TagSchema;
",
    );
    write(
        &root,
        "models/user.js",
        "var mongoose = require('mongoose');
var TagSchema = require('./tag');
         var UserSchema = new mongoose.Schema({ email: { type: String, index: true }, resetpswrequestid: String, tags: [TagSchema] });
         module.exports = mongoose.model('user', UserSchema);
",
    );
    write(
        &root,
        "routes/auth.js",
        "var User = require('../models/user');
var { MeiliSearch } = require('meilisearch');
         var client = new MeiliSearch({ host: 'http://localhost:7700' });
         async function setup(indexName) {
           await User.createIndexes();
           await client.createIndex(indexName, { primaryKey: 'id' });
         }
         function reset(id, cb) { User.findOne({ resetpswrequestid: id }, cb); }
         function tagged(tag, cb) { User.find({ tag: tag }, cb); }
         module.exports = { setup, reset, tagged };
",
    );
    let (_, out) = concise(&root, &[]);
    let unindexed = lines_of(&out, "unindexed-query");
    assert_eq!(unindexed.len(), 1, "{out}");
    assert!(
        unindexed[0].starts_with("routes/auth.js:8:")
            && unindexed[0].contains("`resetpswrequestid`"),
        "{out}"
    );
}

/// A collection factory of another module (crits' `def mongo_connector(collection): return
/// settings.PY_DB[collection]`): its callers name the collection, so the index declarations
/// made through it (`mongo_connector(COL_EVENTS).create_index("title")`) are the collection's,
/// and unindexed-query judges the queries. An index on a collection of a name template that
/// cannot spell `events` (GridFS's `'%s.files' % COL_OBJECTS`) does not stop that.
#[test]
fn a_collection_factory_of_another_module_names_its_callers_collections() {
    let (_t, root) = temp();
    write(
        &root,
        "app/mongo_tools.py",
        "import pymongo\nfrom django.conf import settings\n\n\
         def mongo_connector(collection, preference=None):\n    try:\n        return settings.PY_DB[collection]\n    except Exception as e:\n        raise RuntimeError(e)\n",
    );
    write(
        &root,
        "app/indexes.py",
        "from app.mongo_tools import mongo_connector\nfrom django.conf import settings\n\
         COL_EVENTS = \"events\"\n\n\
         def create_indexes():\n    events = mongo_connector(COL_EVENTS)\n    events.create_index(\"title\")\n\
         \x20   mongo_connector('%s.files' % settings.COL_OBJECTS).create_index(\"md5\")\n\n\
         def by_status(s):\n    return mongo_connector(COL_EVENTS).find({\"status\": s})\n\n\
         def by_title(t):\n    return mongo_connector(COL_EVENTS).find({\"title\": t})\n",
    );
    let (_, out) = concise(&root, &[]);
    let lines = lines_of(&out, "unindexed-query");
    assert_eq!(lines.len(), 1, "{out}");
    assert!(
        lines[0].starts_with("app/indexes.py:11:")
            && lines[0].contains("`find` on `events` filters by `status`"),
        "{out}"
    );
}

// ---------------------------------------------------------------------------------------------
// discovery
// ---------------------------------------------------------------------------------------------

#[test]
fn dependency_build_and_minified_files_are_skipped_unless_no_ignore() {
    let (_t, root) = temp();
    write(&root, "src/app.js", PUSH_JS);
    write(&root, "node_modules/lib/index.js", PUSH_JS);
    write(&root, "dist/app.js", PUSH_JS);
    // A package's compiled output committed beside its sources (Strider's `dist-lib/`).
    write(&root, "dist-lib/app.js", PUSH_JS);
    write(&root, "public/vendor.min.js", PUSH_JS);
    let (_, out) = concise(&root, &[]);
    assert_eq!(flagged_paths(&out), vec!["src/app.js"], "{out}");
    let (_, out) = concise(&root, &["--no-ignore"]);
    assert_eq!(
        flagged_paths(&out),
        vec![
            "dist-lib/app.js",
            "dist/app.js",
            "node_modules/lib/index.js",
            "public/vendor.min.js",
            "src/app.js"
        ],
        "{out}"
    );
}

#[test]
fn gitignored_files_are_skipped_even_without_a_git_repository() {
    let (_t, root) = temp();
    assert!(!root.join(".git").exists());
    write(&root, ".gitignore", "generated/\nlegacy.js\n");
    write(&root, "src/app.js", PUSH_JS);
    write(&root, "generated/api.js", PUSH_JS);
    write(&root, "src/legacy.js", PUSH_JS);
    let (_, out) = concise(&root, &[]);
    assert_eq!(flagged_paths(&out), vec!["src/app.js"], "{out}");
    let (_, out) = concise(&root, &["--no-ignore"]);
    assert_eq!(
        flagged_paths(&out),
        vec!["generated/api.js", "src/app.js", "src/legacy.js"],
        "{out}"
    );
}

#[test]
fn test_files_are_skipped_unless_include_tests() {
    let (_t, root) = temp();
    write(&root, "src/app.js", PUSH_JS);
    write(&root, "src/app.test.js", PUSH_JS);
    write(&root, "src/__tests__/app.js", PUSH_JS);
    write(&root, "src/app.spec.ts", PUSH_JS);
    let (_, out) = concise(&root, &[]);
    assert_eq!(flagged_paths(&out), vec!["src/app.js"], "{out}");
    let (_, out) = concise(&root, &["--include-tests"]);
    assert_eq!(
        flagged_paths(&out),
        vec![
            "src/__tests__/app.js",
            "src/app.js",
            "src/app.spec.ts",
            "src/app.test.js"
        ],
        "{out}"
    );
}

#[test]
fn invalid_utf8_is_an_error_naming_the_file_and_other_files_are_reported() {
    let (_t, root) = temp();
    write(&root, "src/app.js", PUSH_JS);
    let mut bad = b"db.collection('x').updateOne({}, { $push: { a: 1 } }); // caf".to_vec();
    bad.extend_from_slice(&[0xff, 0xfe, b'\n']);
    write(&root, "src/bad.js", bad);
    for format in ["text", "concise"] {
        let o = run(&root, &["check", "--format", format]);
        assert_eq!(code(&o), 2, "{format}");
        let all = format!("{}{}", stdout(&o), stderr(&o));
        assert!(
            all.contains("src/bad.js"),
            "{format}: names the file:\n{all}"
        );
        assert!(all.contains("UTF-8"), "{format}: says why:\n{all}");
        assert!(stdout(&o).contains("src/app.js"), "{format}:\n{all}");
        assert!(stdout(&o).contains("unbounded-push"), "{format}:\n{all}");
    }
    let o = run(&root, &["check", "--format", "json"]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["errors"][0]["path"], "src/bad.js");
    assert_eq!(v["findings"][0]["path"], "src/app.js");
}

#[test]
fn file_over_max_file_size_is_reported_as_skipped() {
    let (_t, root) = temp();
    write(&root, "src/app.js", PUSH_JS);
    let big = format!("{PUSH_JS}{}", "// padding\n".repeat(100));
    write(&root, "src/big.js", &big);
    let limit = (PUSH_JS.len() + 10).to_string();
    let (_, out) = concise(&root, &["--max-file-size", &limit]);
    let big_lines: Vec<&str> = out.lines().filter(|l| l.contains("src/big.js")).collect();
    assert_eq!(big_lines.len(), 1, "{out}");
    assert!(big_lines[0].contains("skipped"), "{out}");
    assert!(!big_lines[0].contains("unbounded-push"), "{out}");
    assert_eq!(flagged_paths(&out), vec!["src/app.js"], "{out}");
    // Without the limit both files are analysed.
    let (_, out) = concise(&root, &[]);
    assert_eq!(
        flagged_paths(&out),
        vec!["src/app.js", "src/big.js"],
        "{out}"
    );
}

// ---------------------------------------------------------------------------------------------
// rules and explain
// ---------------------------------------------------------------------------------------------

#[test]
fn rules_lists_every_rule_id() {
    let o = bin().arg("rules").output().unwrap();
    assert_eq!(code(&o), 0);
    let out = stdout(&o);
    let ids: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(
        ids,
        vec![
            "unbounded-push",
            "dynamic-collection-name",
            "lookup-chain",
            "counter-inc",
            "skip-paging",
            "redundant-index",
            "lookup-unindexed-foreign-field",
            "unindexed-query",
            "query-in-loop"
        ],
        "{out}"
    );
}

#[test]
fn explain_prints_the_rule_page() {
    let o = bin().args(["explain", "unbounded-push"]).output().unwrap();
    assert_eq!(code(&o), 0);
    let out = stdout(&o);
    assert!(out.starts_with("# unbounded-push\n"), "{out}");
    assert!(out.contains("## What it does"), "{out}");
    assert!(out.contains("$slice"), "{out}");
    let page = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/unbounded-push.md"),
    )
    .unwrap();
    assert_eq!(out, page);
}

#[test]
fn explain_unknown_rule_exits_two() {
    let o = bin().args(["explain", "nope"]).output().unwrap();
    assert_eq!(code(&o), 2);
    assert!(o.stdout.is_empty());
    assert!(stderr(&o).contains("nope"), "{}", stderr(&o));
}

/// Cross-file resolution does not depend on how the repository is named on the command line:
/// `.`, `./app`, `../app` from a sibling folder and an absolute path outside the current folder
/// find the same thing (the imported model's `$push` names its collection, `posts`). Absolute
/// display paths used to lose their leading `/` when an import was resolved, so a repository
/// given as an absolute path outside the current folder lost every cross-file finding.
#[test]
fn cross_file_findings_do_not_depend_on_how_the_path_is_spelt() {
    let (_t, root) = temp();
    write(
        &root,
        "app/models/post.js",
        "const mongoose = require('mongoose');\n\
         const Post = mongoose.model('Post', new mongoose.Schema({ title: String }));\n\
         module.exports = Post;\n",
    );
    write(
        &root,
        "app/routes/posts.js",
        "const Post = require('../models/post');\n\
         async function comment(id, c) {\n  await Post.updateOne({ _id: id }, { $push: { comments: c } });\n}\n\
         module.exports = { comment };\n",
    );
    // The same through a Python relative import.
    write(
        &root,
        "app/shop/db.py",
        "from pymongo import MongoClient\n\
         orders = MongoClient().shop.orders\n",
    );
    write(&root, "app/shop/__init__.py", "");
    write(
        &root,
        "app/shop/api.py",
        "from .db import orders\n\n\
         def add_item(oid, item):\n    \
         orders.update_one({'_id': oid}, {'$push': {'items': item}})\n",
    );
    std::fs::create_dir_all(root.join("elsewhere")).unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let abs = root.join("app");
    let abs = abs.to_str().unwrap();
    let runs = [
        (root.join("app"), "."),
        (root.clone(), "./app"),
        (root.join("elsewhere"), "../app"),
        (elsewhere.path().to_path_buf(), abs),
    ];
    for (cwd, arg) in runs {
        let (c, out) = concise(&cwd, &[arg]);
        assert_eq!(c, 1, "{arg}: {out}");
        let pushes = lines_of(&out, "unbounded-push");
        assert_eq!(pushes.len(), 2, "{arg}: {out}");
        assert!(pushes[0].contains("routes/posts.js:3:"), "{arg}: {out}");
        assert!(pushes[0].contains("in `posts`"), "{arg}: {}", pushes[0]);
        assert!(pushes[1].contains("shop/api.py:4:"), "{arg}: {out}");
        assert!(pushes[1].contains("in `orders`"), "{arg}: {}", pushes[1]);
    }
}

#[test]
fn a_file_without_a_mongodb_word_is_parsed_only_when_it_is_the_module_an_operation_imports() {
    // `Trigger.update(doc, inc__ref_count=1)`, `Trigger` imported from
    // `app.persistence.trigger`, whose class wraps a document with no MongoDB word in the file:
    // that file is parsed, and no other of the same name.
    let (_t, root) = temp();
    write(
        &root,
        "app/models/trigger.py",
        "import mongoengine as me\n\nclass TriggerDB(me.Document):\n    ref_count = me.IntField()\n\n\
         trigger_access = Access(TriggerDB)\n",
    );
    write(
        &root,
        "app/persistence/trigger.py",
        "from app.models.trigger import trigger_access\n\nclass Trigger(Base):\n    impl = trigger_access\n",
    );
    write(
        &root,
        "app/services/trigger.py",
        "def trigger(event):\n    return event.name\n",
    );
    write(
        &root,
        "app/rules.py",
        "from app.persistence.trigger import Trigger\n\ndef add_rule(t):\n    \
         Trigger.update(t, inc__ref_count=1)\n",
    );
    let out = run(&root, &["check", "--format", "json", "."]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["summary"]["files_scanned"], 4);
    // rules.py, models/trigger.py and persistence/trigger.py; not services/trigger.py.
    assert_eq!(v["summary"]["files_parsed"], 3);
    let f = &v["findings"][0];
    assert_eq!(f["rule"], "counter-inc");
    assert!(
        f["message"].as_str().unwrap().contains("`trigger_d_b`"),
        "{f}"
    );
}

/// An index a maintenance script or a migration creates again beside the application's own setup
/// is not a redundant declaration (Sefaria's `scripts/migrate_groups.py`, mist.api's
/// `migrations/`); the same duplicate between two files of the application is.
#[test]
fn a_script_that_creates_an_index_again_is_not_a_duplicate_declaration() {
    let (_t, root) = temp();
    let setup = "from pymongo import MongoClient\ndb = MongoClient().app\ndb.groups.create_index(\"name\")\n";
    let again = "from pymongo import MongoClient\ndb = MongoClient().app\ndb.groups.create_index(\"name\", unique=True)\n";
    write(&root, "sefaria/database.py", setup);
    write(&root, "scripts/migrate_groups.py", again);
    // A migration's copy of an old model, declaring the index the application declares.
    write(&root, "migrations/0003_groups.py", again);
    let (_, out) = concise(&root, &[]);
    assert!(!out.contains("redundant-index"), "{out}");
    write(&root, "sefaria/models.py", setup);
    let (_, out) = concise(&root, &[]);
    assert_eq!(out.matches("redundant-index").count(), 1, "{out}");
    assert!(out.starts_with("sefaria/models.py:3:"), "{out}");
}

/// An unindexed query in one of several copies of an application (async-labs/saas' book
/// chapters) counts the indexes of the collection once, not once per copy, and shows its own
/// copy's declarations.
#[test]
fn copies_of_one_application_count_their_indexes_once() {
    let (_t, root) = temp();
    let team = "const mongoose = require('mongoose');\n\
                const TeamSchema = new mongoose.Schema({ slug: { type: String, unique: true }, leader: String });\n\
                const Team = mongoose.model('Team', TeamSchema);\n\
                exports.byLeader = (leader) => Team.find({ leader });\n";
    for copy in ["book/1-end", "book/2-end", "saas"] {
        write(&root, &format!("{copy}/package.json"), "{}\n");
        write(&root, &format!("{copy}/server/models/Team.js"), team);
    }
    let o = run(&root, &["check", "--format", "json"]);
    let v: Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    let found: Vec<&Value> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "unindexed-query")
        .collect();
    assert_eq!(found.len(), 3, "{found:?}");
    for f in found {
        let message = f["message"].as_str().unwrap();
        assert!(
            message.contains(
                "the only index declared for `teams` in this repository does not serve it"
            ),
            "{message}"
        );
        let related = f["related"].as_array().unwrap();
        assert_eq!(related.len(), 1, "{related:?}");
        assert_eq!(related[0]["path"], f["path"]);
    }
}

/// A repository that holds copies of one application, each a project of its own (a book's code at
/// each chapter, each with its `package.json`), declares each index once per copy: each copy runs
/// against its own database. The same declarations in two folders of one project are still
/// duplicates, and so are two files of a monorepo's services at different paths.
#[test]
fn copies_of_one_application_do_not_duplicate_each_others_indexes() {
    let (_t, root) = temp();
    let user = |extra: &str| {
        format!(
            "const mongoose = require('mongoose');\n\
             const UserSchema = new mongoose.Schema({{ email: String, name: String }});\n\
             UserSchema.index({{ email: 1 }});\n{extra}\
             module.exports = mongoose.model('User', UserSchema);\n"
        )
    };
    for copy in ["book/1-begin", "book/1-end", "builderbook"] {
        write(&root, &format!("{copy}/package.json"), "{}\n");
    }
    write(&root, "book/1-begin/server/models/User.js", user(""));
    write(&root, "book/1-end/server/models/User.js", user(""));
    // A later copy adds a compound index that starts with an earlier copy's.
    write(
        &root,
        "builderbook/server/models/User.js",
        user("UserSchema.index({ email: 1, name: 1 });\n"),
    );
    let (c, out) = concise(&root, &["."]);
    // Only the later copy's own prefix: its {email: 1} is served by its {email: 1, name: 1}.
    let redundant = lines_of(&out, "redundant-index");
    assert_eq!(c, 1, "{out}");
    assert_eq!(redundant.len(), 1, "{out}");
    assert!(
        redundant[0].starts_with("builderbook/server/models/User.js:3:"),
        "{out}"
    );
    assert!(
        redundant[0].contains("are a prefix of {email: 1, name: 1}"),
        "{out}"
    );
    // Run from inside the repository on one part of it: the same.
    let (_, out) = concise(&root.join("book"), &["."]);
    assert!(!out.contains("redundant-index"), "{out}");

    // Two folders of one project: the same file twice is a duplicate.
    let (_t, root) = temp();
    write(&root, "package.json", "{}\n");
    write(&root, "server/models/User.js", user(""));
    write(&root, "legacy/server/models/User.js", user(""));
    let (_, out) = concise(&root, &["."]);
    let redundant = lines_of(&out, "redundant-index");
    assert_eq!(redundant.len(), 1, "{out}");
    assert!(redundant[0].contains("declared twice"), "{out}");

    // A monorepo's services, each a project, declaring one collection's index in files at
    // different paths: one database, so a prefix in one service of another's index is redundant;
    // the same index with the same options in both is the one index each service relies on
    // (erxes' plugins), not a duplicate.
    let (_t, root) = temp();
    for svc in ["services/web", "services/api"] {
        write(&root, &format!("{svc}/package.json"), "{}\n");
    }
    write(&root, "services/web/app/models/User.js", user(""));
    write(&root, "services/api/src/user.js", user(""));
    let (_, out) = concise(&root, &["."]);
    assert!(!out.contains("redundant-index"), "{out}");
    write(
        &root,
        "services/api/src/user.js",
        user("UserSchema.index({ email: 1, name: 1 });\n"),
    );
    let (_, out) = concise(&root, &["."]);
    let redundant = lines_of(&out, "redundant-index");
    assert_eq!(redundant.len(), 2, "{out}");
    assert!(
        redundant
            .iter()
            .all(|r| r.contains("prefix of {email: 1, name: 1}")),
        "{out}"
    );
}

/// A package that re-exports its documents with `from x import *` (udata's `udata/models`, which
/// star-imports every `core/*/models.py`): a document imported from the package is the one the
/// star-imported module defines, a class of it, and its collection's indexes judge the queries.
#[test]
fn a_document_imported_through_a_star_reexport_is_resolved() {
    let (_t, root) = temp();
    write(&root, "pkg/__init__.py", "");
    write(&root, "pkg/core/__init__.py", "");
    write(
        &root,
        "pkg/core/models.py",
        "from mongoengine import Document, StringField\n\n\
         class Dataset(Document):\n    \
         title = StringField()\n    \
         source_id = StringField()\n    \
         meta = {\"indexes\": [\"title\"]}\n",
    );
    write(
        &root,
        "pkg/models/__init__.py",
        "from pkg.core.other import *  # noqa\nfrom pkg.core.models import *  # noqa\n",
    );
    write(&root, "pkg/core/other.py", "VERSION = 2\n");
    write(
        &root,
        "pkg/actions.py",
        "from pkg.models import Dataset\n\n\
         def purge(source_id):\n    \
         for ds in Dataset.objects.filter(source_id=source_id):\n        \
         ds.delete()\n\n\
         def by_title(title):\n    \
         return Dataset.objects(title=title).first()\n",
    );
    let (c, out) = concise(&root, &["."]);
    assert_eq!(c, 1, "{out}");
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("pkg/actions.py"))
        .collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(lines[0].starts_with("pkg/actions.py:4:"), "{out}");
    assert!(
        lines[0].contains("`objects` on `dataset` filters by `source_id` (equality)"),
        "{out}"
    );
}

/// An Express application that sets its collections as members of the database object in one
/// module (`db.products = db.collection("products")`, expressCart's `lib/db.js`) and queries
/// them elsewhere through whatever reaches that object (`req.app.db.products`): the operations
/// are on those collections, judged against their indexes. A member set to two different
/// collections in two modules names neither, and a member no module sets stays unresolved.
#[test]
fn collections_set_as_members_of_the_database_object_are_resolved() {
    let (_t, root) = temp();
    write(
        &root,
        "lib/db.js",
        "const { MongoClient } = require('mongodb');\n\
         async function connect(url) {\n  \
         const db = (await MongoClient.connect(url)).db();\n  \
         db.products = db.collection('products');\n  \
         db.orders = db.collection('orders');\n  \
         db.carts = db.collection('carts');\n  \
         await db.orders.createIndex({ customer: 1 });\n  \
         return db;\n}\nmodule.exports = { connect };\n",
    );
    write(
        &root,
        "lib/legacy.js",
        "function attach(db) {\n  db.carts = db.collection('baskets');\n}\nmodule.exports = attach;\n",
    );
    write(
        &root,
        "routes/orders.js",
        "async function pay(req, res) {\n  \
         const db = req.app.db;\n  \
         const order = await db.orders.findOne({ email: req.body.email });\n  \
         for (const id of order.productIds) {\n    \
         const product = await req.app.db.products.findOne({ _id: id });\n    \
         const cart = await db.carts.findOne({ _id: id });\n    \
         const item = await db.items.findOne({ _id: id });\n    \
         res.write(String(product && cart && item));\n  \
         }\n}\nmodule.exports = pay;\n",
    );
    let (c, out) = concise(&root, &["."]);
    assert_eq!(c, 1, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with("routes/orders.js:3:")
            && lines[0].contains("unindexed-query")
            && lines[0].contains("`findOne` on `orders` filters by `email`"),
        "{out}"
    );
    assert!(
        lines[1].starts_with("routes/orders.js:5:")
            && lines[1].contains("`findOne` on `products` runs once per item"),
        "{out}"
    );
}

/// A report run by hand from `scripts/` may join as it likes (gitter's `scripts/useful-queries/`):
/// lookup-chain judges the application's pipelines. Helpers for the tests (`test-utils/`) are
/// tests: skipped unless `--include-tests`.
#[test]
fn scripts_may_chain_lookups_and_test_utils_are_tests() {
    let (_t, root) = temp();
    let report = "const { MongoClient } = require('mongodb');\n\
                  async function report(db) {\n  \
                  return db.collection('rooms').aggregate([\n    \
                  { $lookup: { from: 'users', localField: 'u', foreignField: '_id', as: 'u' } },\n    \
                  { $lookup: { from: 'groups', localField: 'g', foreignField: '_id', as: 'g' } },\n  \
                  ]).toArray();\n}\nmodule.exports = report;\n";
    write(&root, "scripts/useful-queries/report.js", report);
    write(&root, "src/report.js", report);
    write(
        &root,
        "modules/test-utils/lib/users.js",
        "const { MongoClient } = require('mongodb');\n\
         async function addIdentity(db, id, identity) {\n  \
         await db.collection('users').updateOne({ _id: id }, { $push: { identities: identity } });\n}\n\
         module.exports = addIdentity;\n",
    );
    let (c, out) = concise(&root, &["."]);
    assert_eq!(c, 1, "{out}");
    assert_eq!(flagged_paths(&out), ["src/report.js"], "{out}");
    let (_, out) = concise(&root, &["--include-tests", "."]);
    assert_eq!(
        flagged_paths(&out),
        ["modules/test-utils/lib/users.js", "src/report.js"],
        "{out}"
    );
}
