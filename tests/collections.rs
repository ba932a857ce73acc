//! `mongolint collections`: the access map of the corpus applications, as JSON (docs/collections-json.md).

use serde_json::Value;
use std::process::Command;

/// `mongolint collections PATH --format json`, run in `cwd` (the current folder when `None`).
fn map_in(cwd: Option<&std::path::Path>, path: &str) -> Value {
    let mut c = Command::new(env!("CARGO_BIN_EXE_mongolint"));
    c.args(["collections", path, "--format", "json"]);
    if let Some(dir) = cwd {
        c.current_dir(dir);
    }
    let o = c.output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

fn map(app: &str) -> Value {
    map_in(None, app)
}

fn collection<'a>(m: &'a Value, name: &str) -> &'a Value {
    m["collections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no collection `{name}`"))
}

fn strings(v: &Value, key: &str) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x[key].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn express_orders_has_its_indexes_queries_and_joins() {
    let m = map("corpus/express-api");
    assert_eq!(m["version"], 1);
    let orders = collection(&m, "orders");
    // createIndexes([{key, name}, ..]) in src/indexes.js: one declaration per entry, with names.
    let names: Vec<&str> = orders["indexes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["name"].as_str())
        .collect();
    assert_eq!(names, vec!["customer_recent", "status_recent", "customer"]);
    let first = &orders["indexes"][0];
    assert_eq!(
        strings(&first["keys"], "field"),
        vec!["customerId", "createdAt"]
    );
    assert_eq!(first["keys"][1]["type"], "-1");
    assert_eq!(first["path"], "corpus/express-api/src/indexes.js");
    // Queried and sorted fields, across routes/orders.js and routes/reports.js.
    let queried = strings(&orders["queried_fields"], "field");
    for f in ["customerId", "createdAt", "_id"] {
        assert!(queried.contains(&f.to_string()), "{queried:?}");
    }
    assert!(strings(&orders["sorted_fields"], "field").contains(&"createdAt".to_string()));
    assert!(strings(&orders["pushed_arrays"], "field").contains(&"statusHistory".to_string()));
    // Joins to customers, by `_id`.
    let joins = orders["joins"].as_array().unwrap();
    assert!(joins.iter().any(|j| j["from"] == "customers"
        && j["foreign_field"] == "_id"
        && j["stage"] == "$lookup"));
    // Operations by kind, with counts that match their sites.
    for k in orders["operations"].as_array().unwrap() {
        assert_eq!(
            k["count"].as_u64().unwrap() as usize,
            k["sites"].as_array().unwrap().len()
        );
    }
    assert!(strings(&orders["operations"], "kind").contains(&"count".to_string()));
    // Read together in one route handler.
    assert!(m["read_together"].as_array().unwrap().iter().any(|r| {
        r["function"] == "router.get /customers"
            && r["collections"] == serde_json::json!(["customers", "orders"])
    }));
    assert!(collection(&m, "customers")["read_with"]
        .as_array()
        .unwrap()
        .contains(&serde_json::json!("orders")));
    // Per-entity collection names are a family, not a collection.
    let fams = strings(&m["dynamic_families"], "template");
    assert!(fams.contains(&"carts_{userId}".to_string()), "{fams:?}");
    assert!(collection(&m, "products")["indexes"][0]["options"] == serde_json::json!(["unique"]));
}

#[test]
fn mongoose_schema_indexes_and_cross_file_models() {
    let m = map("corpus/mongoose-app");
    let posts = collection(&m, "posts");
    let idx = posts["indexes"].as_array().unwrap();
    assert_eq!(idx.len(), 7);
    assert!(idx
        .iter()
        .all(|i| i["path"] == "corpus/mongoose-app/src/models/Post.ts"));
    assert!(idx
        .iter()
        .any(|i| i["options"] == serde_json::json!(["partial"])));
    assert!(idx.iter().any(|i| i["keys"][0]["type"] == "text"));
    // Field option `unique: true` in models/User.ts.
    let users = collection(&m, "users");
    assert_eq!(users["indexes"][0]["declared_by"], "unique");
    assert_eq!(users["indexes"][0]["keys"][0]["field"], "email");
    // Models imported by controllers and services resolve to their collections.
    let sites: Vec<String> = posts["operations"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|k| k["sites"].as_array().unwrap().iter())
        .map(|s| s["path"].as_str().unwrap().to_string())
        .collect();
    assert!(sites
        .iter()
        .any(|p| p.ends_with("controllers/postController.ts")));
    assert!(sites
        .iter()
        .any(|p| p.ends_with("services/digestService.ts")));
    let comments = collection(&m, "comments");
    assert!(comments["joins"]
        .as_array()
        .unwrap()
        .iter()
        .any(|j| j["from"] == "comments" && j["foreign_field"] == "parent"));
}

#[test]
fn python_and_rust_index_declarations() {
    let py = map("corpus/python/shop-api");
    let products = collection(&py, "products");
    let idx = products["indexes"].as_array().unwrap();
    assert_eq!(idx[0]["declared_by"], "IndexModel");
    assert_eq!(idx[0]["name"], "sku_unique");
    let sessions = collection(&py, "sessions");
    assert_eq!(
        sessions["indexes"][0]["options"],
        serde_json::json!(["ttl"])
    );
    let blog = map("corpus/python/blog-mongoengine");
    let posts = collection(&blog, "blog_post");
    assert!(posts["indexes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|i| i["keys"][0]["type"] == "text"));
    let rs = map("corpus/rust");
    let reviews = collection(&rs, "reviews");
    assert_eq!(
        strings(&reviews["indexes"][0]["keys"], "field"),
        vec!["sku", "created_at"]
    );
}

#[test]
fn the_map_is_deterministic_and_has_a_text_form() {
    let a = Command::new(env!("CARGO_BIN_EXE_mongolint"))
        .args(["collections", "corpus", "--format", "json"])
        .output()
        .unwrap();
    let b = Command::new(env!("CARGO_BIN_EXE_mongolint"))
        .args(["collections", "corpus", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(a.stdout, b.stdout);
    let t = Command::new(env!("CARGO_BIN_EXE_mongolint"))
        .args(["collections", "corpus/express-api"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let text = String::from_utf8(t.stdout).unwrap();
    assert!(text.contains("orders  (driver)"), "{text}");
    assert!(
        text.contains("index {customerId: 1, createdAt: -1}"),
        "{text}"
    );
    assert!(
        text.contains("joins $lookup customers on customerId → _id"),
        "{text}"
    );
}

/// A fresh folder holding `files` (path, text).
fn repo_of(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

/// Writes `files` (path, text) under a fresh folder and returns what `mongolint check . --format
/// concise` prints there.
fn concise_check(files: &[(&str, &str)]) -> String {
    let dir = repo_of(files);
    let o = Command::new(env!("CARGO_BIN_EXE_mongolint"))
        .args(["check", ".", "--format", "concise"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Writes `files` (path, text) under a fresh folder and returns the access map of that folder.
fn map_of(files: &[(&str, &str)]) -> Value {
    let dir = repo_of(files);
    map_in(Some(dir.path()), ".")
}

/// (path, method) of every operation site of a collection.
fn sites(c: &Value) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = c["operations"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|k| k["sites"].as_array().unwrap().iter())
        .map(|s| {
            (
                s["path"].as_str().unwrap().to_string(),
                s["method"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    v.sort();
    v
}

/// The kinds of a collection's operations, in the map's order (`find-one`, `insert`, ..).
fn operation_kinds(c: &Value) -> Vec<&str> {
    c["operations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["kind"].as_str().unwrap())
        .collect()
}

/// The repository's map names `name` alone, operated on at `expected` (path, method), in
/// `sites`' order.
fn assert_only_collection(m: &Value, name: &str, expected: &[(&str, &str)]) {
    assert_eq!(collection_names(m), vec![name]);
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(p, method)| (p.to_string(), method.to_string()))
        .collect();
    assert_eq!(sites(collection(m, name)), expected);
}

#[test]
fn an_exported_object_of_collections_resolves_its_members_across_files() {
    // The shape of overleaf's `infrastructure/mongodb.mjs` and docstore's `mongodb.js`: one module
    // builds `db = { users: internalDb.collection('users'), .. }` and every other module calls
    // `db.users.findOne(..)` on the import.
    let m = map_of(&[
        (
            "infra/mongodb.mjs",
            "import mongodb from 'mongodb'\n\
             const client = new mongodb.MongoClient(process.env.MONGO_URL)\n\
             const internalDb = client.db()\n\
             export const db = {\n  users: internalDb.collection('users'),\n  \
             sessions: internalDb.collection('sessions'),\n}\n\
             export const helpers = { items: [] }\n",
        ),
        (
            "services/users.mjs",
            "import { db, helpers } from '../infra/mongodb.mjs'\n\
             export async function getUser(id) {\n  return db.users.findOne({ _id: id })\n}\n\
             export async function saveAll(ops) {\n  await db.users.bulkWrite(ops)\n}\n\
             export function item(id) {\n  return helpers.items.findOne({ id })\n}\n",
        ),
        (
            "docstore/mongodb.js",
            "const { MongoClient } = require('mongodb')\n\
             const client = new MongoClient(process.env.MONGO_URL)\n\
             const mongoDb = client.db()\n\
             const db = { docs: mongoDb.collection('docs') }\n\
             module.exports = { db, client }\n",
        ),
        (
            "docstore/manager.js",
            "const mongodb = require('./mongodb')\nconst { db } = mongodb\n\
             async function getDoc(id) {\n  return db.docs.findOne({ _id: id })\n}\n\
             module.exports = { getDoc }\n",
        ),
        (
            "docstore/archive.mjs",
            "import mongodb from './mongodb.js'\nconst { db } = mongodb\n\
             export async function drop(id) {\n  await db.docs.deleteOne({ _id: id })\n}\n",
        ),
    ]);
    let users = collection(&m, "users");
    assert_eq!(
        sites(users),
        vec![
            ("services/users.mjs".to_string(), "bulkWrite".to_string()),
            ("services/users.mjs".to_string(), "findOne".to_string()),
        ]
    );
    let docs = collection(&m, "docs");
    assert_eq!(
        sites(docs),
        vec![
            ("docstore/archive.mjs".to_string(), "deleteOne".to_string()),
            ("docstore/manager.js".to_string(), "findOne".to_string()),
        ]
    );
    // A member that is not a collection (`helpers.items` is an array) names nothing, and its
    // `findOne` is not reported as an unresolved operation either.
    assert_eq!(collection_names(&m), vec!["docs", "sessions", "users"]);
    assert!(
        m["unresolved"]["operations"].as_array().unwrap().is_empty(),
        "{}",
        m["unresolved"]
    );
}

/// apostrophe's modules each keep their own collection on `self.db`, set in `init(self)`: each
/// module's operations on `self.db` are on its own collection, though another module sets the
/// same member to another, and other modules reach it as `self.apos.<module>.db`. A module that
/// only reads `self.db` is on neither.
#[test]
fn a_member_each_module_sets_to_its_own_collection() {
    let module = |name: &str, field: &str| {
        format!(
            "module.exports = {{\n  async init(self) {{\n    \
             self.db = await self.apos.db.collection('{name}');\n    \
             await self.db.createIndex({{ {field}: 1 }});\n  }},\n  \
             methods(self) {{\n    return {{\n      async get(v) {{\n        \
             return self.db.findOne({{ {field}: v }});\n      }}\n    }};\n  }}\n}};\n"
        )
    };
    let attachments = module("aposAttachments", "docIds");
    let locks = module("aposLocks", "name");
    let m = map_of(&[
        ("modules/attachment/index.js", attachments.as_str()),
        ("modules/lock/index.js", locks.as_str()),
        (
            "modules/other/index.js",
            "module.exports = {\n  methods(self) {\n    return {\n      \
             async get(v) {\n        return self.db.findOne({ v });\n      }\n    };\n  }\n};\n",
        ),
        (
            "modules/page/index.js",
            "module.exports = {\n  methods(self) {\n    return {\n      \
             async unlock(name) {\n        \
             await self.apos.lock.db.updateOne({ name }, { $unset: { at: 1 } });\n      \
             }\n    };\n  }\n};\n",
        ),
    ]);
    assert_eq!(collection_names(&m), vec!["aposAttachments", "aposLocks"]);
    let c = collection(&m, "aposAttachments");
    let attachment = "modules/attachment/index.js".to_string();
    assert_eq!(sites(c), vec![(attachment, "findOne".to_string())]);
    assert_eq!(index_keys(c), vec!["docIds:1"]);
    // Another module reaches the lock module's `self.db` as `self.apos.lock.db`: the module
    // named by its folder.
    let c = collection(&m, "aposLocks");
    let (lock, page) = ("modules/lock/index.js", "modules/page/index.js");
    assert_eq!(
        sites(c),
        vec![
            (lock.to_string(), "findOne".to_string()),
            (page.to_string(), "updateOne".to_string()),
        ]
    );
    assert_eq!(index_keys(c), vec!["name:1"]);
    // (The third module's `findOne` is on neither: the linker drops an operation on a member
    // it cannot name, as for `db.products` with no module setting it.)
}

#[test]
fn collections_returned_by_a_method_and_exported_once_filled() {
    // The shape of huggingface/chat-ui: `getCollections()` returns an object of the collections it
    // binds; `initDatabase` destructures it to create the indexes; the module exports a `let` that
    // its start-up fills with that object (a placeholder `{}` while building), which SvelteKit's
    // routes import through the `$lib` alias (`src/lib`).
    let m = map_of(&[
        (
            "src/lib/server/database.ts",
            "import { MongoClient } from \"mongodb\";\n\
             export class Database {\n\
             \tprivate client?: MongoClient;\n\
             \tpublic static async getInstance(): Promise<Database> { return new Database(); }\n\
             \tpublic getCollections() {\n\
             \t\tconst db = this.client.db(\"chat\");\n\
             \t\tconst conversations = db.collection<Conversation>(\"conversations\");\n\
             \t\tconst configCollection = db.collection(\"config\");\n\
             \t\treturn { conversations, config: configCollection };\n\
             \t}\n\
             \tprivate initDatabase() {\n\
             \t\tconst { conversations, config } = this.getCollections();\n\
             \t\tconversations.createIndex({ sessionId: 1, updatedAt: -1 });\n\
             \t\tconfig.createIndex({ key: 1 }, { unique: true });\n\
             \t}\n\
             }\n\
             export let collections: ReturnType<typeof Database.prototype.getCollections>;\n\
             export const ready = (async () => {\n\
             \tif (!building) {\n\
             \t\tconst db = await Database.getInstance();\n\
             \t\tcollections = db.getCollections();\n\
             \t} else {\n\
             \t\tcollections = {} as unknown as ReturnType<typeof Database.prototype.getCollections>;\n\
             \t}\n\
             })();\n",
        ),
        (
            "src/routes/conversations/+server.ts",
            "import { collections } from \"$lib/server/database\";\n\
             export async function GET({ locals }) {\n\
             \treturn collections.conversations.find({ userId: locals.user._id }).sort({ updatedAt: -1 }).toArray();\n\
             }\n",
        ),
    ]);
    assert_eq!(collection_names(&m), vec!["config", "conversations"]);
    let conversations = collection(&m, "conversations");
    assert_eq!(
        sites(conversations),
        vec![(
            "src/routes/conversations/+server.ts".to_string(),
            "find".to_string()
        )]
    );
    assert_eq!(index_keys(conversations), vec!["sessionId:1,updatedAt:-1"]);
    assert_eq!(index_keys(collection(&m, "config")), vec!["key:1"]);
    assert!(
        m["unresolved"]["operations"].as_array().unwrap().is_empty(),
        "{}",
        m["unresolved"]
    );
}

/// The names of the map's collections, in its order.
fn collection_names(m: &Value) -> Vec<&str> {
    m["collections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect()
}

/// Index declarations (their key fields) of a collection of the map.
fn index_keys(c: &Value) -> Vec<String> {
    let mut v: Vec<String> = c["indexes"]
        .as_array()
        .unwrap()
        .iter()
        .map(keys_of)
        .collect();
    v.sort();
    v
}

/// An index declaration's keys: `field:type,field:type`.
fn keys_of(i: &Value) -> String {
    let keys: Vec<String> = i["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| {
            format!(
                "{}:{}",
                k["field"].as_str().unwrap(),
                k["type"].as_str().unwrap()
            )
        })
        .collect();
    keys.join(",")
}

#[test]
fn mongoengine_documents_derive_from_bases_in_other_modules() {
    // StackStorm's shape: every model derives from `stormbase.StormFoundationDB`, an abstract
    // `me.Document` of another module; and a project base that re-exports mongoengine's own.
    let m = map_of(&[
        (
            "st2/models/db/stormbase.py",
            "import mongoengine as me\n\n\
             class StormFoundationDB(me.Document):\n    meta = {\"abstract\": True}\n\n\
             class TagsMixin(object):\n    tags = me.ListField()\n",
        ),
        (
            "st2/models/db/action.py",
            "import mongoengine as me\nfrom st2.models.db import stormbase\n\n\
             class ActionDB(stormbase.StormFoundationDB, stormbase.TagsMixin):\n    \
             name = me.StringField()\n    \
             meta = {\"indexes\": [{\"fields\": [\"name\"]}, {\"fields\": [\"pack\", \"name\"]}]}\n",
        ),
        // Only a hint of MongoDB: parsed because action_alias.py derives from its class.
        (
            "st2/models/db/resource.py",
            "import mongoengine as me\nfrom st2.models.db.stormbase import StormFoundationDB\n\n\
             class ResourceDB(StormFoundationDB):\n    pack = me.StringField()\n",
        ),
        (
            "st2/models/db/action_alias.py",
            "import mongoengine as me\nfrom st2.models.db.resource import ResourceDB\n\n\
             class ActionAliasDB(ResourceDB):\n    \
             meta = {\"collection\": \"action_alias\", \"indexes\": [\"pack\"]}\n\n\
             class HiddenAliasDB(ActionAliasDB):\n    pass\n",
        ),
        // mongoengine's `Document` re-exported by a module of the application; a concrete
        // parent, whose subclass shares its collection (`allow_inheritance`).
        (
            "app/mongo.py",
            "from mongoengine import Document, StringField\n",
        ),
        (
            "app/models/post.py",
            "from app.mongo import Document\n\n\
             class Post(Document):\n    \
             meta = {\"collection\": \"posts\", \"allow_inheritance\": True, \"indexes\": [\"author\"]}\n",
        ),
        (
            "app/models/video.py",
            "import mongoengine\nfrom .post import Post\n\n\
             class Video(Post):\n    meta = {\"indexes\": [\"duration\"]}\n",
        ),
        ("app/models/__init__.py", "from .video import Video\n"),
        (
            "app/views.py",
            "from mongoengine.queryset.visitor import Q\nfrom app.models import Video\n\n\
             def longest(n):\n    return Video.objects(duration__gte=n).order_by(\"-duration\")\n",
        ),
        // Not a document: its base is an ordinary class.
        (
            "app/widgets.py",
            "import mongoengine\nfrom app.ui import Widget\n\n\
             class Panel(Widget):\n    meta = {\"indexes\": [\"x\"]}\n",
        ),
        ("app/ui.py", "class Widget(object):\n    pass\n"),
    ]);
    assert_eq!(
        collection_names(&m),
        vec!["action_alias", "action_d_b", "posts", "resource_d_b"]
    );
    assert_eq!(
        index_keys(collection(&m, "action_d_b")),
        vec!["name:1", "pack:1,name:1"]
    );
    // `HiddenAliasDB` (no `meta`) shares its concrete parent's collection.
    assert_eq!(index_keys(collection(&m, "action_alias")), vec!["pack:1"]);
    assert_eq!(
        index_keys(collection(&m, "resource_d_b")),
        Vec::<String>::new()
    );
    // `Post` allows inheritance: mongoengine puts `_cls` first in its listed indexes. (`Video`'s
    // own, its base in another module, is read without it.)
    assert_eq!(
        index_keys(collection(&m, "posts")),
        vec!["_cls:1,author:1", "duration:1"]
    );
    assert_eq!(
        sites(collection(&m, "posts")),
        vec![("app/views.py".to_string(), "objects".to_string())]
    );
    assert!(
        m["unresolved"]["indexes"].as_array().unwrap().is_empty(),
        "{}",
        m["unresolved"]
    );
}

/// (keys, the file that declares it) of each index of a collection of the map, sorted.
fn index_sites(c: &Value) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = c["indexes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            let unique = i["options"]
                .as_array()
                .unwrap()
                .iter()
                .any(|o| o == "unique");
            let k = keys_of(i) + if unique { " unique" } else { "" };
            (k, i["path"].as_str().unwrap().to_string())
        })
        .collect();
    v.sort();
    v
}

#[test]
fn mongoengine_documents_inherit_the_indexes_of_their_bases() {
    // mongoengine merges into a document the `meta["indexes"]` and the unique fields of every
    // class it derives from: abstract documents and plain mixins, here or in other modules.
    let m = map_of(&[
        (
            "app/base.py",
            "import mongoengine as me\n\n\
             class Timestamped(me.Document):\n    \
             created = me.DateTimeField()\n    \
             slug = me.StringField(unique=True)\n    \
             meta = {\"abstract\": True, \"indexes\": [\"-created\"]}\n\n\
             class Owned(object):\n    \
             owner = me.ReferenceField(\"User\")\n    \
             meta = {\"indexes\": [\"owner\"]}\n\n\
             class Named(object):\n    name = me.StringField(unique=True)\n",
        ),
        (
            "app/fields.py",
            "import mongoengine as me\n\n\
             class SlugField(me.StringField):\n    \
             def __init__(self, populate_from=None, **kwargs):\n        \
             kwargs.setdefault(\"unique\", True)\n        \
             super().__init__(**kwargs)\n\n\
             class Versioned(object):\n    \
             @classmethod\n    def get_indexes(cls):\n        \
             indexes = [{\"fields\": [\"id\", \"rev\"], \"unique\": True}]\n        \
             return indexes\n",
        ),
        (
            "app/pages.py",
            "import mongoengine as me\nfrom app import fields\nfrom app.fields import SlugField\nfrom app.base import Owned\n\n\
             class Doc(me.Document, fields.Versioned, Owned):\n    \
             slug = SlugField()\n    title = me.StringField()\n    \
             meta = {\"indexes\": [\"title\"] + fields.Versioned().get_indexes() + Owned.meta[\"indexes\"]}\n\n\
             class Note(me.Document):\n    \
             meta = {\"indexes\": Owned.meta[\"indexes\"]}\n",
        ),
        (
            "app/models.py",
            "import mongoengine as me\nfrom app.base import Timestamped, Owned\nfrom app import base\n\n\
             class Tenanted(me.Document):\n    meta = {\"abstract\": True, \"indexes\": [\"tenant\"]}\n\n\
             class Post(Timestamped, Owned):\n    \
             title = me.StringField()\n    meta = {\"indexes\": [\"title\"]}\n\n\
             class Video(Post):\n    meta = {\"indexes\": [\"duration\"]}\n\n\
             class Page(Tenanted, Timestamped, base.Named):\n    \
             slug = me.StringField()\n",
        ),
    ]);
    assert_eq!(collection_names(&m), vec!["doc", "note", "page", "post"]);
    let s = |k: &str, p: &str| (k.to_string(), format!("app/{p}"));
    // `Versioned().get_indexes()` is the list the method returns; `Owned.meta["indexes"]`, of a
    // base, adds nothing to what `Doc` inherits, and is the list itself for `Note`; `SlugField`
    // makes its fields unique.
    assert_eq!(
        index_sites(collection(&m, "doc")),
        vec![
            s("id:1,rev:1 unique", "fields.py"),
            s("owner:1", "base.py"),
            s("slug:1 unique", "pages.py"),
            s("title:1", "pages.py"),
        ]
    );
    assert_eq!(
        index_sites(collection(&m, "note")),
        vec![s("owner:1", "base.py")]
    );
    // Each inherited declaration is where its class writes it; a subclass of the concrete `Post`
    // shares its collection and does not declare the bases' indexes again.
    assert_eq!(
        index_sites(collection(&m, "post")),
        vec![
            s("created:-1", "base.py"),
            s("duration:1", "models.py"),
            s("owner:1", "base.py"),
            s("slug:1 unique", "base.py"),
            s("title:1", "models.py"),
        ]
    );
    // `Page` replaces the base's unique `slug` with a field of its own: no index.
    assert_eq!(
        index_sites(collection(&m, "page")),
        vec![
            s("created:-1", "base.py"),
            s("name:1 unique", "base.py"),
            s("tenant:1", "models.py"),
        ]
    );
}

#[test]
fn collection_names_from_constants_of_other_modules() {
    // crits: `meta = {"collection": settings.COL_USERS}` with Django's `settings`, the project's
    // settings.py; Sefaria: `db[ARCHIVE_COLLECTION]`, the constant imported from a migration.
    let m = map_of(&[
        (
            "crits/settings.py",
            "import pymongo\nMONGO_HOST = 'localhost'\nCOL_USERS = 'users'  # main users collection\n\
             COL_EVENTS = \"events\"\ncol_lower = 'ignored'\n",
        ),
        (
            "crits/core/user.py",
            "from django.conf import settings\nfrom mongoengine import Document, StringField\n\n\
             class CRITsUser(Document):\n    username = StringField()\n    \
             meta = {\"collection\": settings.COL_USERS, \"indexes\": [\"username\"]}\n",
        ),
        (
            "crits/comments/comment.py",
            "from mongoengine import Q\nfrom crits.core.user import CRITsUser\n\n\
             def mentioned(user):\n    return CRITsUser.objects(username=user).count()\n",
        ),
        (
            "scripts/migrate.py",
            "from pymongo import MongoClient\ndb = MongoClient().app\n\
             ARCHIVE_COLLECTION = \"migration_archive\"\n\
             def archive(doc):\n    db[ARCHIVE_COLLECTION].insert_one(doc)\n",
        ),
        (
            "scripts/rollback.py",
            "from pymongo import MongoClient\nfrom scripts.migrate import ARCHIVE_COLLECTION\n\
             db = MongoClient().app\n\
             def rollback():\n    return list(db[ARCHIVE_COLLECTION].find({}))\n",
        ),
    ]);
    assert_eq!(collection_names(&m), vec!["migration_archive", "users"]);
    assert_eq!(index_keys(collection(&m, "users")), vec!["username:1"]);
    assert_eq!(
        sites(collection(&m, "users")),
        vec![("crits/comments/comment.py".to_string(), "count".to_string())]
    );
    assert_eq!(
        sites(collection(&m, "migration_archive")),
        vec![
            ("scripts/migrate.py".to_string(), "insert_one".to_string()),
            ("scripts/rollback.py".to_string(), "find".to_string()),
        ]
    );
    assert!(
        m["unresolved"]["operations"].as_array().unwrap().is_empty(),
        "{}",
        m["unresolved"]
    );
}

#[test]
fn a_chain_of_bases_longer_than_one_decision_is_followed() {
    // 150 modules, each class deriving from the next one's, the last an abstract `Document`:
    // past one decision's depth (64), the linker decides over passes what the last memoised.
    let n = 150;
    let mut files: Vec<(String, String)> = (1..=n)
        .map(|i| {
            (
                format!("app/c{i}.py"),
                format!(
                    "import mongoengine\nfrom app.c{j} import C{j}\n\nclass C{i}(C{j}):\n    \
                     meta = {{\"collection\": \"c{i}\", \"indexes\": [\"f{i}\"]}}\n",
                    j = i + 1
                ),
            )
        })
        .collect();
    files.push((
        format!("app/c{}.py", n + 1),
        format!(
            "from mongoengine import Document\n\nclass C{}(Document):\n    meta = {{\"abstract\": True}}\n",
            n + 1
        ),
    ));
    // And a cycle, which decides nothing.
    files.push((
        "app/a.py".into(),
        "import mongoengine\nfrom app.b import B\n\nclass A(B):\n    meta = {\"indexes\": [\"x\"]}\n".into(),
    ));
    files.push((
        "app/b.py".into(),
        "import mongoengine\nfrom app.a import A\n\nclass B(A):\n    meta = {\"indexes\": [\"y\"]}\n".into(),
    ));
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let m = map_of(&refs);
    assert_eq!(collection_names(&m).len(), n);
    assert_eq!(index_keys(collection(&m, "c1")), vec!["f1:1"]);
    assert!(m["unresolved"]["indexes"].as_array().unwrap().is_empty());
}

/// (path, field) of every pushed array of a collection.
fn pushed(c: &Value) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = c["pushed_arrays"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|a| {
            a["sites"].as_array().unwrap().iter().map(move |s| {
                (
                    s["path"].as_str().unwrap().to_string(),
                    a["field"].as_str().unwrap().to_string(),
                )
            })
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

#[test]
fn persistence_classes_stand_for_the_documents_they_wrap() {
    // StackStorm's persistence layer: `class Execution(Access): impl = MongoDBAccess(ExecutionDB)`
    // in a module that says nothing of MongoDB, whose class methods mirror the document's:
    // `Execution.update(doc, **values)` updates `doc` with the keywords `values` holds.
    let m = map_of(&[
        (
            "app/models/db/__init__.py",
            "class MongoDBAccess(object):\n    def __init__(self, model):\n        self.model = model\n",
        ),
        (
            "app/models/db/execution.py",
            "import mongoengine as me\nfrom app.models.db import MongoDBAccess\n\n\
             class ExecutionDB(me.Document):\n    children = me.ListField(me.StringField())\n\n\
             class TraceDB(me.Document):\n    rules = me.ListField(me.StringField())\n\n\
             class TriggerDB(me.Document):\n    ref_count = me.IntField()\n\n\
             trace_access = MongoDBAccess(TraceDB)\ntrigger_access = MongoDBAccess(TriggerDB)\n",
        ),
        (
            "app/persistence/execution.py",
            "from app.models.db import MongoDBAccess\nfrom app.models.db.execution import ExecutionDB, TraceDB\n\
             from app.persistence.base import Access\n\n\
             class Execution(Access):\n    impl = MongoDBAccess(ExecutionDB)\n    publisher = None\n\n\
             class Both(Access):\n    impl = MongoDBAccess(ExecutionDB)\n    other = MongoDBAccess(TraceDB)\n",
        ),
        (
            "app/persistence/trace.py",
            "from app.models.db.execution import trace_access\nfrom app.persistence.base import Access\n\n\
             class Trace(Access):\n    impl = trace_access\n\n    \
             @classmethod\n    def push_rule(cls, instance, rule):\n        \
             return cls.update(instance, push__rules=rule)\n",
        ),
        (
            // No MongoDB word: parsed because an operation's receiver is imported from it.
            "app/persistence/trigger.py",
            "from app.models.db.execution import trigger_access\nfrom app.persistence.base import Access\n\n\
             class Trigger(Access):\n    impl = trigger_access\n",
        ),
        (
            "app/services/triggers.py",
            "from app.persistence.trigger import Trigger\n\n\
             def add_rule(trigger):\n    Trigger.update(trigger, inc__ref_count=1)\n",
        ),
        (
            "app/services/executions.py",
            "from app.persistence.execution import Execution, Both\n\n\
             def add_child(parent, child):\n    values = {\"set__status\": \"running\"}\n    \
             values[\"push__children\"] = str(child.id)\n    Execution.update(parent, **values)\n\n\
             def tag(parent, t):\n    Both.update(parent, push__tags=t)\n",
        ),
    ]);
    assert_eq!(
        collection_names(&m),
        vec!["execution_d_b", "trace_d_b", "trigger_d_b"]
    );
    let execution = collection(&m, "execution_d_b");
    assert_eq!(
        pushed(execution),
        vec![(
            "app/services/executions.py".to_string(),
            "children".to_string()
        )]
    );
    assert!(strings(&execution["updated_fields"], "field").contains(&"status".to_string()));
    assert_eq!(
        pushed(collection(&m, "trace_d_b")),
        vec![("app/persistence/trace.py".to_string(), "rules".to_string())]
    );
    assert_eq!(
        sites(collection(&m, "trigger_d_b")),
        vec![("app/services/triggers.py".to_string(), "update".to_string())]
    );
    // A class wrapping two documents stands for neither.
    let unresolved = m["unresolved"]["operations"].as_array().unwrap();
    assert_eq!(unresolved.len(), 1, "{unresolved:?}");
    assert_eq!(unresolved[0]["receiver"], "Both");
}

/// mongosh's global `db` names collections; a function parameter or loop variable named `db`
/// (a list of SQL databases), or a called member (`db.close()`), does not.
#[test]
fn a_parameter_named_db_and_a_called_member_name_no_collection() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("info.ts"),
        "export function enrich(schema) {\n  return schema.databases.map((db) => ({ path: db.path, schemas: db.schemas.map((s) => s.name) }));\n}\nexport function closeAll(dbs) {\n  for (const [, db] of dbs) { db.close(); }\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("shell.js"),
        "db.orders.find({ status: \"open\" }).sort({ createdAt: -1 });\ndb.users.createIndex({ email: 1 });\ndb.close();\n",
    )
    .unwrap();
    let m = map(dir.path().to_str().unwrap());
    let mut names = strings(&m["collections"], "name");
    names.sort();
    assert_eq!(names, vec!["orders", "users"]);
}

/// A Meteor application: collections made with `new Mongo.Collection("x")` and imported from the
/// application's root (`/models/boards`, which is `models/boards.js`, not the server's file of
/// the same name), read and written with Meteor 3's `*Async` methods, `direct` (collection
/// hooks bypassed) and `rawCollection()`; `Meteor.users`; the client's reads of its local cache
/// are not database reads, its writes are.
#[test]
fn a_meteor_application_names_its_collections() {
    let m = map_of(&[
        (
            "models/boards.js",
            "import { Mongo } from 'meteor/mongo';\nconst Boards = new Mongo.Collection('boards');\nexport default Boards;\n",
        ),
        (
            "server/models/boards.js",
            "import Boards from '/models/boards';\nBoards.rawCollection().createIndex({ members: 1 });\n",
        ),
        (
            "server/methods/labels.js",
            "import { Meteor } from 'meteor/meteor';\nimport Boards from '/models/boards';\n\
             export async function addLabel(id, label) {\n  await Boards.updateAsync({ _id: id }, { $push: { labels: label } });\n  \
             await Boards.direct.update({ _id: id }, { $set: { modifiedAt: new Date() } });\n  \
             return Meteor.users.findOneAsync({ _id: Meteor.userId() });\n}\n",
        ),
        (
            "client/lib/keys.js",
            "import { Meteor } from 'meteor/meteor';\nimport Boards from '/models/boards';\n\
             export function star(id) {\n  const b = Boards.findOne({ _id: id });\n  \
             Boards.update({ _id: id }, { $set: { starred: !b.starred } });\n}\n",
        ),
    ]);
    assert_eq!(
        sites(collection(&m, "boards")),
        vec![
            ("client/lib/keys.js".to_string(), "update".to_string()),
            ("server/methods/labels.js".to_string(), "update".to_string()),
            (
                "server/methods/labels.js".to_string(),
                "updateAsync".to_string()
            ),
        ]
    );
    let boards = collection(&m, "boards");
    assert_eq!(boards["indexes"].as_array().unwrap().len(), 1);
    assert_eq!(
        sites(collection(&m, "users")),
        vec![(
            "server/methods/labels.js".to_string(),
            "findOneAsync".to_string()
        )]
    );
}

/// Meteor's `new Mongo.Collection("presences")` names its collection where it is made, as
/// `mongoose.model(..)` and `db.collection(..)` do: a collection that is never queried, only
/// given an index elsewhere (Wekan's `presences`, `orgUser`), is a driver collection with its
/// definition among its references. A client's collection in memory
/// (`new Mongo.Collection(null)`) names none.
#[test]
fn a_meteor_collection_is_named_where_it_is_made() {
    let m = map_of(&[
        (
            "models/presences.js",
            "import { Mongo } from 'meteor/mongo';\nconst Presences = new Mongo.Collection('presences');\n\
             export const Local = new Mongo.Collection(null);\nexport default Presences;\n",
        ),
        (
            "server/indexes.js",
            "import Presences from '/models/presences';\n\
             Presences.rawCollection().createIndex({ ttl: 1 }, { expireAfterSeconds: 60 });\n",
        ),
        (
            "models/boards.js",
            "import { Mongo } from 'meteor/mongo';\nconst Boards = new Mongo.Collection('boards');\n\
             Boards.find({ archived: false });\nexport default Boards;\n",
        ),
    ]);
    assert_eq!(collection_names(&m), vec!["boards", "presences"]);
    let presences = collection(&m, "presences");
    assert_eq!(presences["via"], serde_json::json!(["driver"]));
    assert_eq!(index_keys(presences), vec!["ttl:1".to_string()]);
    let references: Vec<(String, u64)> = presences["references"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["path"].as_str().unwrap().to_string(),
                r["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(references, vec![("models/presences.js".to_string(), 2)]);
    let boards = collection(&m, "boards");
    assert_eq!(
        sites(boards),
        vec![("models/boards.js".to_string(), "find".to_string())]
    );
}

/// pritunl: a class property returns the class's collection (`@cached_static_property def
/// collection(cls): return mongo.get_collection('hosts')`), read as `Host.collection` in its own
/// module, in a module that imports the class, and through a package that re-exports it
/// (`from app import host` .. `host.Host.collection`), where a cursor paged with `.skip(n)` later
/// is still a read.
#[test]
fn a_class_property_collection_is_named_through_the_class() {
    let m = map_of(&[
        (
            "app/mongo.py",
            "import pymongo\n_db = pymongo.MongoClient().pritunl\n\n\
             def get_collection(name):\n    return _db[name]\n",
        ),
        (
            "app/host/host.py",
            "from app import mongo\nfrom app.helpers import cached_static_property\n\n\
             class Host(object):\n    @cached_static_property\n    def collection(cls):\n        \
             return mongo.get_collection('hosts')\n\n\
             def get_by_name(name):\n    return Host.collection.find_one({'name': name})\n",
        ),
        ("app/host/__init__.py", "from app.host.host import Host\n"),
        (
            "app/link/link.py",
            "from app.host.host import Host\n\n\
             def clear(link_id):\n    Host.collection.delete_many({'link_id': link_id})\n",
        ),
        (
            "app/link/utils.py",
            "from app import host\n\n\
             def page_hosts(page, page_count):\n    cursor = host.Host.collection.find({})\n    \
             cursor = cursor.skip(page * page_count)\n    return list(cursor)\n",
        ),
    ]);
    assert_eq!(
        sites(collection(&m, "hosts")),
        vec![
            ("app/host/host.py".to_string(), "find_one".to_string()),
            ("app/link/link.py".to_string(), "delete_many".to_string()),
            ("app/link/utils.py".to_string(), "find".to_string()),
        ]
    );
    assert!(m["unresolved"]["operations"].as_array().unwrap().is_empty());
}

/// cve-search: the database comes from a class method of another module (`class Configuration:
/// @classmethod def getMongoConnection(cls): return MongoClient(uri)[name]`), called through the
/// class imported under another name (`from lib.Config import Configuration as conf`, `db =
/// conf.getMongoConnection()`, then `db["cves"]`, `db.ranking`) and through the class's module;
/// in its own module, through the class and through `cls`. A function of a package that returns
/// what a static method of another module of the package returns, re-exported by the package,
/// is that database too. A collection of the database one module binds (`reports = db["reports"]`)
/// is named in a module that imports it. What a function returns that is no database
/// (`get_cache().pages`) names no collection.
#[test]
fn a_database_returned_by_a_function_of_another_module_names_its_collections() {
    let m = map_of(&[
        (
            "app/lib/config.py",
            "import pymongo\n\n\
             class Settings:\n    default = {'host': 'localhost', 'db': 'vulns'}\n\n    \
             @classmethod\n    def uri(cls):\n        return 'mongodb://' + cls.default['host']\n\n    \
             @classmethod\n    def connection(cls):\n        \
             client = pymongo.MongoClient(cls.uri(), connect=False)\n        \
             return client[cls.default['db']]\n\n    \
             @classmethod\n    def schema_version(cls):\n        \
             return cls.connection().meta.find_one({'key': 'version'})\n\n\
             def settings_of(user):\n    \
             return Settings.connection().user_settings.find_one({'user': user})\n",
        ),
        ("app/lib/cache.py", "def get_cache():\n    return {}\n"),
        (
            "app/mongo.py",
            "import pymongo\nclient = pymongo.MongoClient()\n",
        ),
        (
            "app/archive/backend.py",
            "from app.mongo import client\n\n\
             class Backend:\n    @staticmethod\n    def database():\n        \
             return client['archive']\n",
        ),
        (
            "app/archive/db.py",
            "import pymongo\nfrom app.archive.backend import Backend\n\n\
             def open_db():\n    return Backend.database()\n",
        ),
        ("app/archive/__init__.py", "from app.archive.db import open_db\n"),
        (
            "app/store.py",
            "import pymongo\nfrom app.lib.config import Settings as conf\n\n\
             db = conf.connection()\nreports = db['reports']\n\n\
             def latest_reports(n):\n    \
             return list(reports.find({}).sort('published', pymongo.DESCENDING).limit(n))\n\n\
             def record_visit(page):\n    \
             db.visits.update_one({'page': page}, {'$set': {'seen': True}}, upsert=True)\n",
        ),
        (
            "app/report.py",
            "from app.store import reports\n\n\
             def count_reports():\n    return reports.count_documents({})\n",
        ),
        (
            "app/jobs.py",
            "from app.archive import open_db\nfrom app.lib import config\n\
             from app.lib.cache import get_cache\n\n\
             def purge(day):\n    open_db().events.delete_many({'day': day})\n    \
             config.Settings.connection()['audit'].insert_one({'purged': day})\n    \
             get_cache().pages.update_one({'day': day}, {'$inc': {'hits': 1}})\n",
        ),
    ]);
    assert_eq!(
        collection_names(&m),
        vec![
            "audit",
            "events",
            "meta",
            "reports",
            "user_settings",
            "visits"
        ]
    );
    let at = |name: &str| sites(collection(&m, name));
    let site = |path: &str, method: &str| vec![(path.to_string(), method.to_string())];
    assert_eq!(at("audit"), site("app/jobs.py", "insert_one"));
    assert_eq!(at("events"), site("app/jobs.py", "delete_many"));
    assert_eq!(at("meta"), site("app/lib/config.py", "find_one"));
    assert_eq!(
        at("reports"),
        vec![
            ("app/report.py".to_string(), "count_documents".to_string()),
            ("app/store.py".to_string(), "find".to_string()),
        ]
    );
    assert_eq!(at("user_settings"), site("app/lib/config.py", "find_one"));
    assert_eq!(at("visits"), site("app/store.py", "update_one"));
    // The cache's `update_one` is still an operation (driver-only), on a collection not named.
    let unresolved: Vec<&str> = m["unresolved"]["operations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["receiver"].as_str().unwrap())
        .collect();
    assert_eq!(unresolved, vec!["get_cache().pages"]);
}

/// A module-level name bound to a database (`dbname = mongo["app"]`, with another MongoDB
/// package's client, async_pymongo's `AsyncClient`) names the collections other modules take from
/// it by item (`from database import dbname`, `fedsdb = dbname["federation"]`), also through the
/// package that re-exports it; an item of an imported name that is no database
/// (`settings["users"]`) names no collection.
#[test]
fn a_database_bound_by_another_module_names_the_items_taken_from_it() {
    let m = map_of(&[
        (
            "bot/database/__init__.py",
            "from async_pymongo import AsyncClient
             mongo = AsyncClient('mongodb://localhost')
dbname = mongo['app']
",
        ),
        (
            "bot/database/feds_db.py",
            "from bot.database import dbname

fedsdb = dbname['federation']

             async def ban(fed_id, user):
                 await fedsdb.update_one({'fed_id': fed_id}, {'$push': {'banned': user}})
",
        ),
        (
            "bot/core/__init__.py",
            "from bot.database import dbname
",
        ),
        (
            "bot/plugins/karma.py",
            "from bot.core import dbname
from bot.config import settings

             karma = dbname['karma']

             async def add(chat, user):
                 await karma.update_one({'chat': chat, 'user': user}, {'$set': {'seen': True}})
                 await settings['users'].update_one({'chat': chat}, {'$set': {'seen': True}})
",
        ),
        (
            "bot/config.py",
            "settings = {}
",
        ),
    ]);
    assert_eq!(collection_names(&m), vec!["federation", "karma"]);
    let at = |name: &str| sites(collection(&m, name));
    assert_eq!(
        at("federation"),
        vec![(
            "bot/database/feds_db.py".to_string(),
            "update_one".to_string()
        )]
    );
    assert_eq!(
        at("karma"),
        vec![("bot/plugins/karma.py".to_string(), "update_one".to_string())]
    );
}

/// A repository class hands its model to its base class (`super(Message, MessageEntity)`): the
/// base's property that holds it (`this.MongooseModel`) and the `this` of the subclass's calls of
/// the base's wrappers (`this.update(..)`) are that model's collection. A class without a base, or
/// whose `super(..)` gets no model, is left alone. The model is exported as Next.js and hot-reloading
/// servers write it: `mongoose.models.Message || mongoose.model("Message", schema)`.
#[test]
fn a_repository_subclass_uses_the_model_it_hands_its_base() {
    let schema = r#"import * as mongoose from 'mongoose';
const schema = new mongoose.Schema({ channel: String, seen: [String] });
export const Message =
  (mongoose.models.Message as mongoose.Model<any>) || mongoose.model('Message', schema);
"#;
    let repository = r#"import { BaseRepository } from './base-repository';
import { Message } from './message.schema';
import { MessageEntity } from './message.entity';
export class MessageRepository extends BaseRepository<MessageEntity> {
  constructor() {
    super(Message, MessageEntity);
  }
  async page(channel: string, skip: number) {
    return this.MongooseModel.find({ channel }).skip(skip).limit(10);
  }
  async markSeen(id: string, user: string) {
    await this.update({ _id: id }, { $push: { seen: user } });
  }
}
export class Cache {
  async page(skip: number) {
    return this.model.find({ $text: { $search: 'x' } }).skip(skip);
  }
}
"#;
    let m = map_of(&[
        ("dal/message.schema.ts", schema),
        ("dal/message.repository.ts", repository),
    ]);
    assert_eq!(
        sites(collection(&m, "messages")),
        vec![
            ("dal/message.repository.ts".to_string(), "find".to_string()),
            (
                "dal/message.repository.ts".to_string(),
                "update".to_string()
            ),
        ]
    );
}

/// Rocket.Chat's models: a base class opens the collection its constructor is given a name for
/// (`this.col = this.db.collection(this.collectionName)`, the field set from the `name`
/// parameter), and each model names its collection in `super(db, 'nps_vote', trash)` and lists
/// its indexes in a method (`modelIndexes()`) the base hands to `createIndexes`. The subclass's
/// calls of the base's wrappers (`this.find(..)`) and of its collection (`this.col`) are on that
/// collection, as are the listed indexes. A base of the same file counts too. A base that only
/// keeps the name (a service's, `super(ctx, 'oauth')`) names no collection, nor does a name
/// handed to another parameter than the one the base opens.
#[test]
fn a_model_names_the_collection_its_base_class_opens() {
    let base = r#"import type { Collection, Db, Filter, FindOptions } from 'mongodb';
import { getCollectionName } from '../utils';
export abstract class BaseRaw<T> {
  public readonly col: Collection<T>;
  private collectionName: string;
  constructor(private db: Db, protected name: string, protected trash?: Collection<T>, private options?: ModelOptions) {
    this.collectionName = options?.collectionNameResolver ? options.collectionNameResolver(name) : getCollectionName(name);
    this.col = this.db.collection(this.collectionName);
    void this.col.createIndexes(this.modelIndexes());
  }
  protected modelIndexes() {
    return [];
  }
  find(query: Filter<T>, options?: FindOptions<T>) {
    return this.col.find(query, options);
  }
}
"#;
    let nps = r#"import type { Collection, Db, IndexDescription } from 'mongodb';
import { BaseRaw } from './BaseRaw';
export class NpsVoteRaw extends BaseRaw<INpsVote> {
  constructor(db: Db, trash?: Collection<INpsVote>) {
    super(db, 'nps_vote', trash);
  }
  modelIndexes(): IndexDescription[] {
    return [{ key: { npsId: 1, status: 1 } }, { key: { npsId: 1, identifier: 1 }, unique: true }];
  }
  findByNpsId(npsId: string) {
    return this.find({ npsId });
  }
  countByStatus(status: string) {
    return this.col.countDocuments({ status });
  }
}
"#;
    let others = r#"import { Db, MongoClient } from 'mongodb';
import { Service } from './service';
class Store {
  constructor(db, name) {
    this.c = db.collection(name);
  }
}
export class Users extends Store {
  constructor(db) {
    super(db, 'users');
  }
  byEmail(email) {
    return this.findOne({ email });
  }
}
export class OAuthService extends Service {
  constructor(ctx) {
    super(ctx, 'oauth');
  }
  get(clientId) {
    return this.findOne({ clientId, $comment: 'x' });
  }
}
export class Labels extends Store {
  constructor(db) {
    super('labels', db);
  }
  byName(name) {
    return this.findOne({ name, $comment: 'x' });
  }
}
"#;
    let service = r#"export class Service {
  constructor(ctx, name) {
    this.name = name;
    this.ctx = ctx;
  }
}
"#;
    let files = [
        ("models/BaseRaw.ts", base),
        ("models/NpsVote.ts", nps),
        ("models/others.js", others),
        ("models/service.js", service),
    ];
    let m = map_of(&files);
    let names = collection_names(&m);
    assert!(
        !names.contains(&"oauth") && !names.contains(&"labels"),
        "{names:?}"
    );
    let nps_vote = collection(&m, "nps_vote");
    assert_eq!(
        sites(nps_vote),
        vec![
            (
                "models/NpsVote.ts".to_string(),
                "countDocuments".to_string()
            ),
            ("models/NpsVote.ts".to_string(), "find".to_string()),
        ]
    );
    assert_eq!(
        index_keys(nps_vote),
        vec!["npsId:1,identifier:1", "npsId:1,status:1"]
    );
    assert_eq!(
        sites(collection(&m, "users")),
        vec![("models/others.js".to_string(), "findOne".to_string())]
    );
    // `status` leads neither index: the count scans the collection.
    let out = concise_check(&files);
    let unindexed: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("[unindexed-query]"))
        .collect();
    assert_eq!(unindexed.len(), 1, "{out}");
    assert!(
        unindexed[0].starts_with("models/NpsVote.ts:14:21: ")
            && unindexed[0].contains("`nps_vote`"),
        "{out}"
    );
}

/// modmail's client: the collection a base class's property returns (`ApiClient.logs`, `return
/// self.db.logs`) is the subclass's `self.logs` too, and an index created through a local bound
/// to a member of the database (`coll = self.db.logs` .. `coll.create_index(..)`) is on that
/// member's collection. The queries on fields that index does not serve scan `logs`.
#[test]
fn a_base_class_property_and_a_local_alias_name_their_collection() {
    let clients = r#"from motor.motor_asyncio import AsyncIOMotorClient


class ApiClient:
    def __init__(self, bot, db):
        self.bot = bot
        self.db = db

    @property
    def logs(self):
        return self.db.logs


class MongoDBClient(ApiClient):
    def __init__(self, bot):
        db = AsyncIOMotorClient(bot.config["connection_uri"]).modmail_bot
        super().__init__(bot, db)

    async def setup_indexes(self):
        coll = self.db.logs
        await coll.create_index([("messages.content", "text"), ("key", "text")])

    async def get_log(self, channel_id):
        return await self.logs.find_one({"channel_id": str(channel_id)})

    async def search(self, text):
        return await self.logs.find({"$text": {"$search": text}}).to_list(None)

    async def get_config(self):
        return await self.db.config.find_one({"bot_id": self.bot.user.id})
"#;
    let files = [("core/clients.py", clients)];
    let m = map_of(&files);
    let logs = collection(&m, "logs");
    assert_eq!(index_keys(logs), vec!["messages.content:text,key:text"]);
    assert_eq!(
        sites(logs),
        vec![
            ("core/clients.py".to_string(), "find".to_string()),
            ("core/clients.py".to_string(), "find_one".to_string()),
        ]
    );
    // The text search is served; the lookup by channel is not. (`config` declares no index.)
    let out = concise_check(&files);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(
        lines[0].starts_with(
            "core/clients.py:24:32: warning[unindexed-query] `find_one` on `logs` filters by `channel_id`"
        ),
        "{out}"
    );
}

/// sorry-cypress's registry: an object of functions that each return a collection
/// (`export const Collection = { run: getCollection<Run>('runs') }`, the helper returning `() =>
/// db.collection<T>(name)`), called for it (`Collection.run().findOne(..)`) in its module and in
/// the modules that import it from the workspace's package by its name (`@acme/mongo`, the folder
/// `packages/mongo` whose `src/index.ts` re-exports the module without a word of MongoDB).
#[test]
fn a_registry_of_collection_getters_resolves_through_a_workspace_package() {
    let db = r#"import { Db, MongoClient } from 'mongodb';
let db: Db;
export const init = async (uri: string) => {
  db = (await MongoClient.connect(uri)).db('app');
};
export const Collection = {
  run: getCollection<Run>('runs'),
  instance: getCollection<Instance>('instances'),
};
function getCollection<T>(name: string) {
  return () => db.collection<T>(name);
}
export async function createIndexes() {
  await Collection.run().createIndex({ runId: 1 }, { unique: true });
  await Collection.instance().createIndex({ instanceId: 1 });
}
"#;
    let index = "export * from './db';\nexport * from './types';\n";
    let runs = r#"import { Collection } from '@acme/mongo';
export const getRun = (id: string) => Collection.run().findOne({ runId: id });
export const olderThan = (date: Date) => Collection.run().find({ createdAt: { $lte: date } }).toArray();
export const getInstance = (id: string) => Collection.instance().findOne({ instanceId: id });
"#;
    let files = [
        ("packages/mongo/src/db.ts", db),
        ("packages/mongo/src/index.ts", index),
        ("packages/api/src/runs.ts", runs),
    ];
    let m = map_of(&files);
    assert_eq!(
        sites(collection(&m, "runs")),
        vec![
            ("packages/api/src/runs.ts".to_string(), "find".to_string()),
            (
                "packages/api/src/runs.ts".to_string(),
                "findOne".to_string()
            ),
        ]
    );
    assert_eq!(index_keys(collection(&m, "runs")), vec!["runId:1"]);
    assert_eq!(
        index_keys(collection(&m, "instances")),
        vec!["instanceId:1"]
    );
    let out = concise_check(&files);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(
        lines[0].starts_with(
            "packages/api/src/runs.ts:3:59: warning[unindexed-query] `find` on `runs` filters by `createdAt`"
        ),
        "{out}"
    );
}

/// A models folder's `index.js` that gathers the models without a word of MongoDB
/// (`module.exports.Token = require('./token.model')`) is read when a parsed file imports from it
/// (`const { Token } = require('../models')`), so the models it re-exports resolve.
#[test]
fn a_models_index_that_re_exports_resolves_destructured_requires() {
    let m = map_of(&[
        (
            "src/models/token.model.js",
            "const mongoose = require('mongoose');\nconst tokenSchema = new mongoose.Schema({ token: String });\n\
             const Token = mongoose.model('Token', tokenSchema);\nmodule.exports = Token;\n",
        ),
        (
            "src/models/index.js",
            "module.exports.Token = require('./token.model');\n",
        ),
        (
            "src/services/token.service.js",
            "const { Token } = require('../models');\n\
             const find = async (token) => Token.findOne({ token, blacklisted: false });\n\
             module.exports = { find };\n",
        ),
    ]);
    assert_eq!(
        sites(collection(&m, "tokens")),
        vec![(
            "src/services/token.service.js".to_string(),
            "findOne".to_string()
        )]
    );
}

/// openstream's shape: a trait names each implementer's collection with an associated constant
/// (`impl Model for AccessToken { const CL_NAME: &'static str = "access_tokens"; .. }`) through a
/// default method (`fn cl() -> Collection<Self> { Self::cl_as() }`, `cl_as` returning
/// `db().collection(Self::CL_NAME)`), and creates the index models each implementation's
/// `indexes()` returns on it. `Invoice::cl()` in another crate, `Self::cl()` in `impl Invoice`,
/// and those index models are the implementer's collection; the trait's own declaration says no
/// more and is gone; the trait's other default methods stay on no collection, and so do a type
/// that implements no such trait and a constant of another trait.
#[test]
fn a_trait_s_associated_constant_names_each_implementer_s_collection() {
    let m = map_of(&[
        (
            "crates/db/src/lib.rs",
            "use mongodb::{bson::doc, Collection, Database, IndexModel};\n\
             pub mod invoice;\npub mod receipt;\n\
             pub trait Model: Sized {\n    const CL_NAME: &'static str;\n    \
             fn db() -> Database { crate::client().database(\"shop\") }\n    \
             fn cl_as<T>() -> Collection<T> { Self::db().collection(Self::CL_NAME) }\n    \
             fn cl() -> Collection<Self> { Self::cl_as() }\n    \
             fn indexes() -> Vec<IndexModel> { vec![] }\n    \
             async fn ensure_indexes() -> Result<()> {\n        let idxs = Self::indexes();\n        \
             Self::cl().create_indexes(idxs, None).await?;\n        Ok(())\n    }\n    \
             async fn delete_by_id(id: &str) { Self::cl().delete_one(doc! { \"_id\": id }, None).await; }\n}\n\
             pub trait Named { const CL_NAME: &'static str; }\n",
        ),
        (
            "crates/db/src/invoice.rs",
            "use mongodb::{bson::doc, options::IndexOptions, IndexModel};\nuse crate::Model;\n\
             impl Model for Invoice {\n    const CL_NAME: &'static str = \"invoices\";\n    \
             fn indexes() -> Vec<IndexModel> {\n        \
             let customer = IndexModel::builder().keys(doc! { \"customer_id\": 1 }).build();\n        \
             let number = IndexModel::builder().keys(doc! { \"number\": 1 })\n            \
             .options(IndexOptions::builder().unique(true).build()).build();\n        \
             vec![customer, number]\n    }\n}\n\
             impl Invoice {\n    pub async fn by_customer(customer_id: &str) {\n        \
             let cl = Self::cl();\n        cl.find(doc! { \"customer_id\": customer_id }, None).await;\n    }\n}\n",
        ),
        (
            "crates/db/src/receipt.rs",
            "use mongodb::{bson::doc, IndexModel};\nuse crate::{Model, Named};\n\
             impl Named for Receipt { const CL_NAME: &'static str = \"receipt_names\"; }\n\
             impl Model for Receipt {\n    const CL_NAME: &'static str = \"receipts\";\n    \
             fn indexes() -> Vec<IndexModel> { vec![IndexModel::builder().keys(doc! { \"invoice_id\": 1 }).build()] }\n}\n",
        ),
        (
            "crates/api/src/routes.rs",
            "use db::{invoice::Invoice, receipt::Receipt, Model};\nuse mongodb::bson::Document;\n\
             pub async fn pay(filter: Document, update: Document) {\n    \
             Invoice::cl().update_one(filter, update, None).await;\n    \
             db::receipt::Receipt::cl_as::<Row>().find_one(doc! { \"invoice_id\": 1 }, None).await;\n    \
             <Receipt as Model>::cl().count_documents(doc! { \"invoice_id\": 2 }, None).await;\n    \
             Settings::cl().find_one(doc! { \"key\": \"x\" }, None).await;\n}\n",
        ),
    ]);
    assert_eq!(collection_names(&m), vec!["invoices", "receipts"]);
    let invoices = collection(&m, "invoices");
    assert_eq!(
        sites(invoices),
        vec![
            (
                "crates/api/src/routes.rs".to_string(),
                "update_one".to_string()
            ),
            ("crates/db/src/invoice.rs".to_string(), "find".to_string()),
        ]
    );
    assert_eq!(
        index_sites(invoices),
        vec![
            (
                "customer_id:1".to_string(),
                "crates/db/src/invoice.rs".to_string()
            ),
            (
                "number:1 unique".to_string(),
                "crates/db/src/invoice.rs".to_string()
            ),
        ]
    );
    let receipts = collection(&m, "receipts");
    assert_eq!(
        sites(receipts),
        vec![
            (
                "crates/api/src/routes.rs".to_string(),
                "count_documents".to_string()
            ),
            (
                "crates/api/src/routes.rs".to_string(),
                "find_one".to_string()
            ),
        ]
    );
    assert_eq!(index_keys(receipts), vec!["invoice_id:1"]);
    // The trait's `delete_one` is every implementer's; `Settings` implements nothing here.
    let unresolved: Vec<(String, String)> = m["unresolved"]["operations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["method"].as_str().unwrap().to_string(),
                o["receiver"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        unresolved,
        vec![
            ("find_one".to_string(), "Settings::cl()".to_string()),
            ("delete_one".to_string(), "Self::cl()".to_string()),
        ]
    );
    assert!(m["unresolved"]["indexes"].as_array().unwrap().is_empty());
}

/// A package of the erxes monorepo's shape: `connectionResolvers.ts` builds a registry of models
/// per tenant's connection (`const models = {} as IModels; models.Posts = db.model(name, ..)`)
/// and its modules receive it typed by the file's `IModels` or `IContext`, through the package's
/// `~/` alias.
fn registry_package(name_of_posts: &str) -> String {
    format!(
        "import mongoose from 'mongoose';\n\
         import {{ createGenerateModels }} from 'erxes-api-shared/utils';\n\
         import {{ IPostModel, loadPostClass }} from '~/modules/posts/Posts';\n\
         export interface IModels {{\n  Posts: IPostModel;\n  Drafts: IPostModel;\n}}\n\
         export interface IContext extends IMainContext {{\n  models: IModels;\n  subdomain: string;\n}}\n\
         export const loadClasses = (db: mongoose.Connection): IModels => {{\n\
         \x20 const models = {{}} as IModels;\n\
         \x20 models.Posts = db.model<IPostDocument, IPostModel>(\n    '{name_of_posts}',\n    loadPostClass(models),\n  );\n\
         \x20 models.Drafts = db.model('drafts', loadPostClass(models));\n\
         \x20 models.Drafts = db.model('old_drafts', loadPostClass(models));\n\
         \x20 return models;\n}};\n\
         export const generateModels = createGenerateModels<IModels>(loadClasses);\n"
    )
}

#[test]
fn a_registry_of_models_resolves_in_the_modules_it_is_handed_to() {
    let m = map_of(&[
        ("crm/src/connectionResolvers.ts", &registry_package("cms_posts")),
        ("blog/src/connectionResolvers.ts", &registry_package("blog_posts")),
        (
            "crm/src/modules/posts/resolvers.ts",
            "import { IContext, IModels, generateModels } from '~/connectionResolvers';\n\
             import { IUser } from '~/modules/users/types';\n\
             export const postQueries = {\n\
             \x20 async posts(_root, { page, perPage }, { models }: IContext) {\n\
             \x20   return models.Posts.find({ status: 'published' }).skip(page * perPage).limit(perPage);\n  },\n\
             \x20 async postsAddTag(_root, { _id, tag }, { models: registry }: IContext) {\n\
             \x20   return registry.Posts.updateOne({ _id }, { $push: { tags: tag } });\n  },\n\
             \x20 async drafts(_root, _args, { models }: IContext) {\n\
             \x20   return models.Drafts.find({ owner: 1 });\n  },\n};\n\
             export const countView = async (subdomain: string, _id: string) => {\n\
             \x20 const models = await generateModels(subdomain);\n\
             \x20 await models.Posts.updateOne({ _id }, { $inc: { views: 1 } });\n};\n\
             export const byIds = async (models: IContext['models'], ids: string[]) => {\n\
             \x20 for (const id of ids) {\n    await models.Posts.findOne({ _id: id });\n  }\n};\n\
             export const archive = async ({ models }: { models: IModels; subdomain: string }) =>\n\
             \x20 models.Posts.deleteMany({ archived: true });\n\
             export const profile = (user: IUser) => user.Profile.find({ owner: user._id });\n",
        ),
        (
            "crm/src/modules/posts/Posts.ts",
            "import { Model } from 'mongoose';\n\
             import { IModels } from '~/connectionResolvers';\n\
             export interface IPostModel extends Model<any> {}\n\
             export const loadPostClass = (models: IModels) => {\n\
             \x20 class Post {\n\
             \x20   static async publish(_id: string) {\n\
             \x20     return models.Posts.updateOne({ _id }, { $set: { status: 'published' } });\n    }\n  }\n\
             \x20 return Post;\n};\n",
        ),
        (
            "blog/src/modules/feed.ts",
            "import { IContext } from '~/connectionResolvers';\n\
             export const feed = async (_root, _args, { models }: IContext) =>\n\
             \x20 models.Posts.findOne({ featured: true });\n",
        ),
    ]);
    let resolvers = "crm/src/modules/posts/resolvers.ts".to_string();
    // Each of the ways the registry is handed on: `{ models }: IContext`, renamed, the result of
    // `generateModels(..)`, `IContext['models']`, an inline type and `models: IModels`.
    assert_eq!(
        sites(collection(&m, "cms_posts")),
        vec![
            (
                "crm/src/modules/posts/Posts.ts".to_string(),
                "updateOne".to_string()
            ),
            (resolvers.clone(), "deleteMany".to_string()),
            (resolvers.clone(), "find".to_string()),
            (resolvers.clone(), "findOne".to_string()),
            (resolvers.clone(), "updateOne".to_string()),
            (resolvers.clone(), "updateOne".to_string()),
        ]
    );
    // The other package's `~/connectionResolvers` is its own.
    assert_eq!(
        sites(collection(&m, "blog_posts")),
        vec![(
            "blog/src/modules/feed.ts".to_string(),
            "findOne".to_string()
        )]
    );
    // A member assigned two collections names neither; a type imported from a module with no
    // registry (`user: IUser`) names nothing.
    assert_eq!(
        collection_names(&m),
        vec!["blog_posts", "cms_posts", "drafts", "old_drafts"]
    );
    assert!(sites(collection(&m, "drafts")).is_empty());
    assert!(sites(collection(&m, "old_drafts")).is_empty());
    let unresolved = m["unresolved"]["operations"].to_string();
    assert!(!unresolved.contains("Profile"), "{unresolved}");
}

#[test]
fn a_schema_declared_in_one_module_gives_its_indexes_to_the_model_compiled_in_another() {
    let m = map_of(&[
        // A schema module and a model module beside it.
        (
            "src/models/user.schema.ts",
            "import { Schema } from 'mongoose';\n\
             export const userSchema = new Schema({ email: { type: String, unique: true }, orgId: String });\n\
             userSchema.index({ orgId: 1, createdAt: -1 });\n",
        ),
        (
            "src/models/user.ts",
            "import mongoose from 'mongoose';\nimport { userSchema } from './user.schema';\n\
             export const User = mongoose.model('User', userSchema);\n",
        ),
        // erxes: the definitions module's schema, loaded with a class by a function of the model
        // module (read for its driver calls), compiled on a tenant's connection in a third.
        (
            "src/db/definitions/posts.ts",
            "import { Schema } from 'mongoose';\n\
             export const postSchema = new Schema({ webId: { type: String, index: true }, status: String });\n\
             postSchema.index({ webId: 1, status: 1 });\n",
        ),
        (
            "src/db/models/Posts.ts",
            "import { Model } from 'mongoose';\nimport { postSchema } from '../definitions/posts';\n\
             export const loadPostClass = (models) => {\n  class Post {\n    static publish(_id) {\n      \
             return models.Posts.updateOne({ _id }, { $set: { status: 'published' } });\n    }\n  }\n  \
             postSchema.loadClass(Post);\n  return postSchema;\n};\n",
        ),
        (
            "src/connectionResolvers.ts",
            "import mongoose from 'mongoose';\nimport { loadPostClass } from './db/models/Posts';\n\
             import { loadBotClass } from './db/models/Bots';\n\
             import { loadRegionClass } from './db/models/Regions';\n\
             export const loadClasses = (db: mongoose.Connection) => {\n\
             \x20 const models = {} as IModels;\n\
             \x20 models.Posts = db.model('cms_posts', loadPostClass(models));\n\
             \x20 models.Bots = db.model('discord_bots', loadBotClass(models));\n\
             \x20 models.Regions = db.model('regions', loadRegionClass(models));\n  return models;\n};\n",
        ),
        // A loader that returns what `loadClass` returns, the schema; and one whose class has no
        // query, in a module with no MongoDB word but its `mongoose` import (parsed because the
        // resolvers compile a model from what it returns).
        (
            "src/db/definitions/bots.ts",
            "import { Schema } from 'mongoose';\n\
             export const botSchema = new Schema({ createdBy: { type: String, index: true } });\n\
             export const regionSchema = new Schema({ name: { type: String, unique: true } });\n",
        ),
        (
            "src/db/models/Bots.ts",
            "import { Model } from 'mongoose';\nimport { botSchema } from '../definitions/bots';\n\
             export const loadBotClass = (models) => {\n  class Bot {\n    static get(_id) {\n      \
             return models.Bots.findOne({ _id });\n    }\n  }\n  return botSchema.loadClass(Bot);\n};\n",
        ),
        (
            "src/db/models/Regions.ts",
            "import { Model } from 'mongoose';\nimport { regionSchema } from '../definitions/bots';\n\
             export type IRegionModel = Model<any>;\n\
             export const loadRegionClass = (_models) => {\n  class Region {}\n  \
             regionSchema.loadClass(Region);\n  return regionSchema;\n};\n",
        ),
        // A schema no module compiles keeps its declarations unattributed.
        (
            "src/db/definitions/drafts.ts",
            "import { Schema } from 'mongoose';\n\
             export const draftSchema = new Schema({ ownerId: { type: String, index: true } });\n",
        ),
    ]);
    let keys = |c: &Value| -> Vec<String> {
        let mut v: Vec<String> = c["indexes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| strings(&i["keys"], "field").join(","))
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        keys(collection(&m, "users")),
        vec!["email", "orgId,createdAt"]
    );
    assert_eq!(
        keys(collection(&m, "cms_posts")),
        vec!["webId", "webId,status"]
    );
    assert_eq!(keys(collection(&m, "discord_bots")), vec!["createdBy"]);
    assert_eq!(keys(collection(&m, "regions")), vec!["name"]);
    let unresolved = m["unresolved"]["indexes"].to_string();
    assert!(unresolved.contains("ownerId"), "{unresolved}");
    assert!(!unresolved.contains("webId"), "{unresolved}");
}

/// The shape of CAPEv2's `dev_utils/mongodb.py`: module functions that run one driver operation on
/// the collection their first parameter names, called from every other module with the
/// collection's name (`mongo_find_one("analysis", {"info.id": 1})`).
const WRAPPERS: &str = "from functools import wraps\n\
from pymongo import MongoClient\n\
results_db = MongoClient().cuckoo\n\
\n\
def reconnect(f):\n    @wraps(f)\n    def inner(*a, **k):\n        return f(*a, **k)\n    return inner\n\
\n\
@reconnect\n\
def mongo_find_one(collection: str, query, projection=False, sort=None):\n    \
if projection:\n        \
return getattr(results_db, collection).find_one(query, projection, sort=sort)\n    \
return getattr(results_db, collection).find_one(query, sort=sort)\n\
\n\
@reconnect\n\
def mongo_update_one(collection, query, update):\n    \
return results_db[collection].update_one(query, update, hint=[(\"_id\", 1)])\n\
\n\
def mongo_aggregate(collection, pipeline):\n    \
return getattr(results_db, collection).aggregate(pipeline, maxTimeMS=1000)\n\
\n\
def mongo_create_index(collection, index, background=True):\n    \
getattr(results_db, collection).create_index(index, background=background)\n\
\n\
def read_or_count(collection, query):\n    \
if query:\n        return getattr(results_db, collection).find_one(query)\n    \
return getattr(results_db, collection).count_documents({})\n\
\n\
def sessions(query):\n    name = \"sessions\"\n    return results_db[name].find_one(query)\n";

#[test]
fn calls_of_another_modules_wrappers_run_their_operations() {
    let views = "from dev_utils.mongodb import mongo_find_one, mongo_update_one, mongo_aggregate\n\
from dev_utils.mongodb import mongo_create_index, read_or_count\n\
from slugify import slugify\n\
\n\
def calls_of(process):\n    out = []\n    for call in process[\"calls\"]:\n        \
out.append(mongo_find_one(\"calls\", {\"_id\": call}, {\"calls\": 1}))\n    return out\n\
\n\
def comment(task_id, text):\n    \
mongo_update_one(\"analysis\", {\"info.id\": task_id}, {\"$push\": {\"info.comments\": text}})\n\
\n\
def families():\n    \
return list(mongo_aggregate(\"analysis\", [{\"$match\": {\"malfamily\": {\"$ne\": None}}}, {\"$group\": {\"_id\": \"$malfamily\"}}]))\n\
\n\
def setup():\n    mongo_create_index(\"analysis\", [(\"info.id\", 1), (\"info.started\", -1)])\n    \
mongo_create_index(\"files\", \"sha256\")\n    return slugify(\"analysis\"), read_or_count(\"tasks\", {})\n";
    let files = [("dev_utils/mongodb.py", WRAPPERS), ("web/views.py", views)];
    let m = map_of(&files);
    // `read_or_count` runs two methods (which one would a call run?) and `sessions` names its
    // collection itself: neither is a wrapper; `slugify` is a package's function.
    assert_eq!(
        collection_names(&m),
        vec!["analysis", "calls", "files", "sessions"]
    );
    assert_eq!(
        sites(collection(&m, "calls")),
        vec![("web/views.py".to_string(), "find_one".to_string())]
    );
    assert_eq!(
        sites(collection(&m, "analysis")),
        vec![
            ("web/views.py".to_string(), "aggregate".to_string()),
            ("web/views.py".to_string(), "update_one".to_string()),
        ]
    );
    // pymongo's index keys, a list of pairs or one field's name.
    assert_eq!(
        index_keys(collection(&m, "analysis")),
        vec!["info.id:1,info.started:-1"]
    );
    assert_eq!(index_keys(collection(&m, "files")), vec!["sha256:1"]);

    // The findings are at the calls: the lookup per item of a loop, the unbounded `$push`.
    let out = concise_check(&files);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with("web/views.py:8:20: warning[query-in-loop] `find_one` on `calls`"),
        "{out}"
    );
    assert!(
        lines[1].starts_with(
            "web/views.py:12:57: warning[unbounded-push] `$push` appends to array `info.comments` in `analysis`"
        ),
        "{out}"
    );
}

/// Dataherald's shape: a class of class methods (`MongoDB.find_one(cls, collection, query)`) that
/// run one driver operation on the collection their first parameter names, called with a
/// constant of the service's `config.py`, a module with no MongoDB word; another service of the
/// repository has a `config.py` of its own.
#[test]
fn calls_of_a_classs_wrapper_methods_run_their_operations() {
    let mongo = "import pymongo\n\n\
class MongoDB:\n    \
_data_store = pymongo.MongoClient(\"mongodb://db\")[\"app\"]\n\n    \
@classmethod\n    def find_one(cls, collection: str, query: dict, sort: list = None):\n        \
return cls._data_store[collection].find_one(query, sort=sort)\n\n    \
@classmethod\n    def find(cls, collection: str, query: dict):\n        \
return cls._data_store[collection].find(query)\n\n    \
@classmethod\n    def aggregate(cls, collection: str, pipeline: list):\n        \
return cls._data_store[collection].aggregate(pipeline)\n\n    \
@staticmethod\n    def add_tag(collection, key, tag):\n        \
return MongoDB._data_store[collection].update_one({\"_id\": key}, {\"$push\": {\"tags\": tag}})\n\n    \
def ping(self, collection, query):\n        \
return self._data_store[collection].find_one(query)\n";
    let repository = "from config import PROMPT_COL, USER_COL\n\
from database.mongo import MongoDB\n\
\n\
def page(org, skip):\n    \
pipeline = [{\"$match\": {\"org\": org}}, {\"$skip\": skip}, {\"$limit\": 20}]\n    \
return list(MongoDB.aggregate(PROMPT_COL, pipeline))\n\
\n\
def authors(prompt_ids):\n    \
return [MongoDB.find_one(USER_COL, {\"_id\": p}) for p in prompt_ids]\n\
\n\
def tag(key, tag):\n    \
MongoDB.add_tag(\"prompts\", key, tag)\n\
\n\
def items(item_col, query, skip):\n    \
return MongoDB.find(item_col, query).sort(\"created_at\").skip(skip)\n\
\n\
def pinged():\n    \
return MongoDB.ping(\"prompts\", {\"ok\": 1})\n";
    let files = [
        (
            "services/enterprise/config.py",
            "PROMPT_COL = \"prompts\"\nUSER_COL = \"users\"\n",
        ),
        ("services/enterprise/database/mongo.py", mongo),
        (
            "services/enterprise/modules/prompt/repository.py",
            repository,
        ),
        (
            "services/engine/config.py",
            "import os\nPROMPT_COL = \"engine_prompts\"\nMONGO_URI = os.environ[\"MONGO_URI\"]\n",
        ),
    ];
    let m = map_of(&files);
    // The constants are the enterprise service's own, not the engine's; `ping` is an instance
    // method, which a call on the class does not run: `MongoDB.ping(..)` stays a call on a
    // collection the code does not name.
    assert_eq!(collection_names(&m), vec!["prompts", "users"]);
    let repo = "services/enterprise/modules/prompt/repository.py".to_string();
    assert_eq!(
        sites(collection(&m, "prompts")),
        vec![
            (repo.clone(), "aggregate".to_string()),
            (repo.clone(), "update_one".to_string()),
        ]
    );
    assert_eq!(
        sites(collection(&m, "users")),
        vec![(repo.clone(), "find_one".to_string())]
    );

    // The findings are at the calls, on the collections they name, with the call's own cursor
    // modifiers (`.skip(skip)` after `MongoDB.find(..)`).
    let out = concise_check(&files);
    let lines: Vec<&str> = out.lines().collect();
    let expected = [
        // (The method's own `$push`, on whatever collection a call names.)
        "services/enterprise/database/mongo.py:20:74: warning[unbounded-push] `$push` appends to \
         array `tags` in the collection behind `MongoDB._data_store[collection]`",
        "services/enterprise/modules/prompt/repository.py:5:44: warning[skip-paging] offset paging \
         on `prompts`",
        "services/enterprise/modules/prompt/repository.py:9:13: warning[query-in-loop] `find_one` \
         on `users` runs once per item of `prompt_ids`",
        "services/enterprise/modules/prompt/repository.py:12:5: warning[unbounded-push] `$push` \
         appends to array `tags` in `prompts`",
        "services/enterprise/modules/prompt/repository.py:15:61: warning[skip-paging] offset \
         paging on the collection named by `item_col`",
    ];
    assert_eq!(lines.len(), expected.len(), "{out}");
    for (line, want) in lines.iter().zip(expected) {
        assert!(line.starts_with(want), "{line}\n{out}");
    }
}

#[test]
fn command_pseudo_collections_are_no_collections() {
    // CRITs' `contrib/killOp.py`: the legacy way to run `killOp` through a query.
    let m = map_of(&[(
        "contrib/kill_op.py",
        "from pymongo import MongoClient\nconn = MongoClient()\n\
         def kill(opids):\n    for op in opids:\n        \
         conn['admin']['$cmd.sys.killop'].find_one({'op': op})\n        \
         conn['admin']['jobs'].find_one({'op': op})\n",
    )]);
    assert_eq!(collection_names(&m), vec!["jobs"]);
}

#[test]
fn modules_named_from_the_repository_root_resolve() {
    // LearningLocker: `import Role from 'lib/models/role'`, resolved by its jsconfig's `baseUrl`
    // and webpack from the repository's root; a package's own path (`lodash/map`) names no file.
    let m = map_of(&[
        (
            "lib/models/role.js",
            "import mongoose from 'mongoose';\n\
             const schema = new mongoose.Schema({ organisation: { type: mongoose.Schema.ObjectId, index: true } });\n\
             let Role;\nRole = mongoose.model('Role', schema, 'role');\nexport default Role;\n",
        ),
        (
            "api/src/auth/jwt.js",
            "import map from 'lodash/map';\nimport Role from 'lib/models/role';\n\
             export const scopes = async (ids) => map(await Role.find({ _id: { $in: ids } }), 'scopes');\n",
        ),
    ]);
    assert_eq!(
        sites(collection(&m, "role")),
        vec![("api/src/auth/jwt.js".to_string(), "find".to_string())]
    );
    assert!(
        m["unresolved"]["operations"].as_array().unwrap().is_empty(),
        "{}",
        m["unresolved"]
    );
}

/// Handler mixins (scout's adapter): each module's handler reads `self.<x>_collection`, which the
/// class that combines the handlers binds in its `setup(self, database)`, in a module that
/// imports theirs. The mixins' operations are on the collections it binds; an attribute two
/// such classes bind to different collections stays unresolved, as does one bound by a class
/// in a module that does not import the mixin's.
#[test]
fn handler_mixins_use_the_collections_their_combining_class_binds() {
    let m = map_of(&[
        (
            "app/adapter/mongo/case.py",
            "import pymongo\n\nclass CaseHandler:\n    def case(self, case_id):\n        \
             return self.case_collection.find_one({'_id': case_id})\n\n    \
             def events(self, case_id):\n        \
             return list(self.event_collection.find({'case': case_id, 'verb': {'$in': ['a']}}))\n",
        ),
        (
            "app/adapter/mongo/user.py",
            "import pymongo\n\nclass UserHandler:\n    def user(self, email):\n        \
             return self.user_collection.find_one({'email': email})\n",
        ),
        (
            "app/adapter/mongo/base.py",
            "from .case import CaseHandler\n\n\
             class MongoAdapter(CaseHandler):\n    def setup(self, database):\n        \
             self.db = database\n        self.case_collection = database.case\n        \
             self.event_collection = database.event\n        \
             self.user_collection = database.user\n",
        ),
        (
            "app/adapter/mongo/other.py",
            "from .case import CaseHandler\n\n\
             class MongoAuditAdapter(CaseHandler):\n    def setup(self, database):\n        \
             self.db = database\n        self.event_collection = database.audit\n",
        ),
    ]);
    assert_eq!(
        sites(collection(&m, "case")),
        vec![(
            "app/adapter/mongo/case.py".to_string(),
            "find_one".to_string()
        )]
    );
    let unresolved: Vec<&str> = m["unresolved"]["operations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["receiver"].as_str().unwrap())
        .collect();
    assert_eq!(
        unresolved,
        vec!["self.event_collection", "self.user_collection"]
    );
}

#[test]
fn a_mongoose_model_looked_up_by_name_takes_the_collection_its_registration_names() {
    // openpaas-esn: `models/whatsup.js` registers the model on the `messages` collection (the
    // schema's `collection` option); `message/whatsup.js` looks it up with `mongoose.model(name)`.
    // Its queries are on `messages`, where the schema declares its indexes, not on `whatsups`. A
    // model registered without the option, or under two collections, keeps the derived name.
    let m = map_of(&[
        (
            "models/whatsup.js",
            "const mongoose = require('mongoose');\n\
             const Schema = new mongoose.Schema({ author: String }, { collection: 'messages' });\n\
             Schema.index({ author: 1 });\n\
             module.exports = mongoose.model('Whatsup', Schema);\n",
        ),
        (
            "models/poll.js",
            "const mongoose = require('mongoose');\n\
             module.exports = mongoose.model('Poll', new mongoose.Schema({ q: String }));\n",
        ),
        (
            "models/twice.js",
            "const mongoose = require('mongoose');\n\
             mongoose.model('Note', new mongoose.Schema({ a: String }, { collection: 'notes_a' }));\n\
             mongoose.model('Note', new mongoose.Schema({ a: String }, { collection: 'notes_b' }));\n",
        ),
        (
            "message/whatsup.js",
            "const mongoose = require('mongoose');\n\
             const Whatsup = mongoose.model('Whatsup');\n\
             const Poll = mongoose.model('Poll');\n\
             const Note = mongoose.model('Note');\n\
             module.exports.get = (id, cb) => Whatsup.findById(id).exec(cb);\n\
             module.exports.poll = (id, cb) => Poll.findById(id).exec(cb);\n\
             module.exports.note = (id, cb) => Note.findById(id).exec(cb);\n",
        ),
    ]);
    let messages = collection(&m, "messages");
    assert_eq!(
        sites(messages),
        vec![("message/whatsup.js".to_string(), "findById".to_string())]
    );
    assert_eq!(index_keys(messages), vec!["author:1".to_string()]);
    assert!(!collection_names(&m).contains(&"whatsups"), "{m}");
    assert_eq!(sites(collection(&m, "polls")).len(), 1);
    assert_eq!(sites(collection(&m, "notes")).len(), 1);
}

/// A Rust type that names its collection with an associated constant of the application's
/// collection trait (inx-chronicle's `impl MongoDbCollection for BlockCollection { const NAME:
/// &'static str = "stardust_blocks"; .. }`) and runs the driver's operations on `self` through an
/// extension trait: those operations and index declarations are on that collection. A type
/// without such a constant leaves `self` unnamed.
#[test]
fn self_of_a_type_with_a_name_constant_is_its_collection() {
    let m = map_of(&[(
        "src/block.rs",
        "use mongodb::{bson::doc, options::IndexOptions, IndexModel};\n\
         pub struct BlockCollection { collection: mongodb::Collection<BlockDocument> }\n\
         impl MongoDbCollection for BlockCollection {\n\
         \x20   const NAME: &'static str = \"stardust_blocks\";\n\
         \x20   async fn create_indexes(&self) -> Result<(), Error> {\n\
         \x20       self.create_index(IndexModel::builder().keys(doc! { \"block.payload.milestone_id\": 1 }).build(), None).await?;\n\
         \x20       Ok(())\n\
         \x20   }\n\
         }\n\
         impl BlockCollection {\n\
         \x20   pub async fn page(&self, page: usize, page_size: usize) -> Result<(), Error> {\n\
         \x20       self.aggregate([doc! { \"$sort\": { \"_id\": -1 } }, doc! { \"$skip\": (page_size * page) as i64 }, doc! { \"$limit\": page_size as i64 }], None).await?;\n\
         \x20       Ok(())\n\
         \x20   }\n\
         }\n\
         pub struct Other;\n\
         impl Other {\n\
         \x20   pub async fn all(&self) { self.aggregate([doc! { \"$match\": {} }], None).await; }\n\
         }\n",
    )]);
    let c = collection(&m, "stardust_blocks");
    assert_eq!(
        sites(c),
        [("src/block.rs".to_string(), "aggregate".to_string())]
    );
    let indexes = c["indexes"].as_array().unwrap();
    assert_eq!(indexes.len(), 1, "{c}");
    assert_eq!(indexes[0]["keys"][0]["field"], "block.payload.milestone_id");
    assert_eq!(m["collections"].as_array().unwrap().len(), 1, "{m}");
}

/// Multiplex's shape: the event handlers name each collection with the application's document
/// type (`database.collection::<DBMate>("mates")`), and the helpers of `utils/` take a
/// `&Collection<DBMate>`. Their operations are on the one collection the repository keeps the
/// type's documents in; a type kept in two collections, or the driver's `Document`, names none.
#[test]
fn a_collection_typed_with_a_document_type_is_where_the_repository_keeps_it() {
    let m = map_of(&[
        (
            "src/events/on_message.rs",
            "use mongodb::{bson::doc, Database, Collection};
             pub async fn run(database: &Database, user: u64) {
             \x20   let mates_collection = database.collection::<DBMate>(\"mates\");
             \x20   let logs: Collection<DBLog> = database.collection(\"logs\");
             \x20   let audits = database.collection::<DBLog>(\"audits\");
             \x20   crate::utils::mates::get_all(&mates_collection, user).await;
             \x20   crate::utils::mates::log(&logs, user).await;
             }
",
        ),
        (
            "src/models.rs",
            "use mongodb::Collection;
             pub struct Store { settings: Collection<DBSettings> }
             impl Store {
             \x20   pub fn new(db: &mongodb::Database) -> Self { Self { settings: db.collection(\"settings\") } }
             }
",
        ),
        (
            "src/utils/mates.rs",
            "use mongodb::{bson::{doc, Document}, Collection};
             pub async fn get_all(collection: &Collection<DBMate>, user: u64) {
             \x20   collection.find(doc! { \"user_id\": user as i64 }).await;
             }
             pub async fn log(collection: &Collection<DBLog>, user: u64) {
             \x20   collection.insert_one(doc! { \"user_id\": user as i64 }).await;
             }
             pub async fn raw(collection: &Collection<Document>, user: u64) {
             \x20   collection.delete_many(doc! { \"user_id\": user as i64 }).await;
             }
             pub async fn settings(collection: &Collection<DBSettings>, user: u64) {
             \x20   collection.find_one(doc! { \"user_id\": user as i64 }).await;
             }
",
        ),
    ]);
    assert_eq!(
        sites(collection(&m, "mates")),
        [("src/utils/mates.rs".to_string(), "find".to_string())]
    );
    assert_eq!(
        sites(collection(&m, "settings")),
        [("src/utils/mates.rs".to_string(), "find_one".to_string())]
    );
    // `DBLog` documents are in `logs` and in `audits`: which one a helper gets is the caller's.
    let unresolved = m["unresolved"]["operations"].to_string();
    assert!(unresolved.contains("insert_one"), "{unresolved}");
    assert!(unresolved.contains("delete_many"), "{unresolved}");
    assert_eq!(
        collection_names(&m),
        vec!["audits", "logs", "mates", "settings"]
    );
    assert!(sites(collection(&m, "logs")).is_empty());
}

/// A module that assigns `module.exports` twice exports what it assigned last (mern-ecommerce's
/// `models/cart.js` compiles `CartItem`, then `Cart`, each into `module.exports`): an importer's
/// queries are on `carts`, not on `cartitems`.
#[test]
fn a_module_exports_assigned_twice_exports_the_last_value() {
    let m = map_of(&[
        (
            "models/cart.js",
            "const Mongoose = require('mongoose');\n\
             module.exports = Mongoose.model('CartItem', new Mongoose.Schema({ quantity: Number }));\n\
             module.exports = Mongoose.model('Cart', new Mongoose.Schema({ products: Array }));\n",
        ),
        (
            "routes/cart.js",
            "const Cart = require('../models/cart');\n\
             exports.add = (id, p) => Cart.updateOne({ _id: id }, { $push: { products: p } });\n",
        ),
    ]);
    assert_eq!(
        sites(collection(&m, "carts")),
        vec![("routes/cart.js".to_string(), "updateOne".to_string())]
    );
    assert!(sites(collection(&m, "cartitems")).is_empty(), "{m}");
}

/// `const User = require('../models').User` takes the barrel's export `User` (Strider's
/// routes), as `const { User } = require('../models')` does: its queries are on `users`.
#[test]
fn a_member_of_a_required_module_is_that_export() {
    let m = map_of(&[
        (
            "models/index.js",
            "const mongoose = require('mongoose');\n\
             module.exports = { Job: require('./job'), User: require('./user') };\n",
        ),
        (
            "models/job.js",
            "const mongoose = require('mongoose');\n\
             module.exports = mongoose.model('Job', new mongoose.Schema({ project: String }));\n",
        ),
        (
            "models/user.js",
            "const mongoose = require('mongoose');\n\
             module.exports = mongoose.model('User', new mongoose.Schema({ email: String }));\n",
        ),
        (
            "routes/admin.js",
            "const User = require('../models').User;\n\
             exports.admins = (cb) => User.find({ account_level: 1 }, cb);\n\
             exports.promote = (id) => User.updateOne({ _id: id }, { $set: { account_level: 1 } });\n",
        ),
    ]);
    assert_eq!(
        sites(collection(&m, "users")),
        vec![
            ("routes/admin.js".to_string(), "find".to_string()),
            ("routes/admin.js".to_string(), "updateOne".to_string())
        ]
    );
    assert!(sites(collection(&m, "jobs")).is_empty(), "{m}");
}

/// A models folder's index that names no model in its text (`module.exports = { User:
/// require('./user') }`, `export { default as Job } from './job'`, `export * from './task'`) is
/// still the barrel of the models: read when a parsed file imports from it, so
/// `require('../models').User` is `users`, and the models it passes on from other modules, by
/// name or all of them, resolve.
#[test]
fn a_models_index_without_a_model_word_is_read_when_imported() {
    let m = map_of(&[
        (
            "models/index.js",
            "module.exports = { User: require('./user') };\n",
        ),
        (
            "models/user.js",
            "const mongoose = require('mongoose');\n\
             module.exports = mongoose.model('User', new mongoose.Schema({ email: String }));\n",
        ),
        (
            "routes/admin.js",
            "const User = require('../models').User;\n\
             exports.promote = (id) => User.updateOne({ _id: id }, { $set: { level: 1 } });\n",
        ),
        (
            "src/models/index.ts",
            "export { default as Job } from './job';\nexport * from './task';\n",
        ),
        (
            "src/models/task.ts",
            "import { Schema, model } from 'mongoose';\n\
             export const Task = model('Task', new Schema({ done: Boolean }));\n",
        ),
        (
            "src/models/job.ts",
            "import mongoose from 'mongoose';\n\
             export default mongoose.model('Job', new mongoose.Schema({ name: String }));\n",
        ),
        (
            "src/jobs.ts",
            "import { Job, Task } from './models';\n\
             export const byName = (name: string) => Job.findOne({ name });\n\
             export const open = () => Task.find({ done: false });\n",
        ),
    ]);
    assert_eq!(
        sites(collection(&m, "users")),
        vec![("routes/admin.js".to_string(), "updateOne".to_string())]
    );
    assert_eq!(
        sites(collection(&m, "jobs")),
        vec![("src/jobs.ts".to_string(), "findOne".to_string())]
    );
    assert_eq!(
        sites(collection(&m, "tasks")),
        vec![("src/jobs.ts".to_string(), "find".to_string())]
    );
}

/// A module of the repository named for Mongoose that hands it on (Strider's
/// `require('../utils/mongoose-shim')`, whose file is `module.exports = require('mongoose')`)
/// is Mongoose: the schemas made with it declare their indexes.
#[test]
fn mongoose_through_a_local_shim_declares_schema_indexes() {
    let m = map_of(&[
        (
            "utils/mongoose-shim.js",
            "module.exports = require('mongoose');\n",
        ),
        (
            "models/project.js",
            "const mongoose = require('../utils/mongoose-shim');\n\
             const schema = new mongoose.Schema({ name: { type: String, unique: true }, creator: { type: String, index: true } });\n\
             module.exports = mongoose.model('Project', schema);\n",
        ),
    ]);
    assert_eq!(
        index_keys(collection(&m, "projects")),
        vec!["creator:1".to_string(), "name:1".to_string()]
    );
}

/// A Rust type's methods in another file than the implementation that names its collection
/// (inx-chronicle's `impl OutputCollection` of index declarations in `outputs/indexer.rs`, its
/// `NAME` in `outputs/mod.rs`, through the application's extension trait on `self`): the
/// declarations and the reads are on that collection. A type whose implementations name two
/// collections is left unresolved.
#[test]
fn rust_self_of_a_type_named_in_another_file_is_its_collection() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    std::fs::create_dir_all(root.join("src/outputs")).unwrap();
    std::fs::write(
        root.join("src/outputs/mod.rs"),
        "use mongodb::bson::doc;\npub struct OutputCollection;\n\
         impl MongoDbCollection for OutputCollection {\n    const NAME: &'static str = \"stardust_outputs\";\n}\n\
         impl OutputCollection {\n\
         \x20   pub async fn get(&self, id: &str) {\n\
         \x20       self.find_one(doc! { \"_id\": id }, None).await;\n\
         \x20   }\n}\n",
    )
    .unwrap();
    std::fs::write(
        root.join("src/outputs/indexer.rs"),
        "use mongodb::{bson::doc, IndexModel};\n\
         impl OutputCollection {\n\
         \x20   pub async fn create_indexer_indexes(&self) {\n\
         \x20       self.create_index(IndexModel::builder().keys(doc! { \"output.kind\": 1 }).build(), None).await;\n\
         \x20   }\n\
         \x20   pub async fn by_kind(&self, kind: &str) {\n\
         \x20       self.aggregate(vec![doc! { \"$match\": { \"output.kind\": kind } }], None).await;\n\
         \x20   }\n}\n",
    )
    .unwrap();
    let m = map_in(Some(root), ".");
    let outputs = collection(&m, "stardust_outputs");
    let keys: Vec<Vec<String>> = outputs["indexes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| strings(&i["keys"], "field"))
        .collect();
    assert_eq!(keys, vec![vec!["output.kind".to_string()]], "{outputs}");
    assert_eq!(
        outputs["operations"].as_array().unwrap().len(),
        2,
        "{outputs}"
    );
    // Another implementation naming another collection: which one `self` is, is unknown.
    std::fs::write(
        root.join("src/outputs/legacy.rs"),
        "use mongodb::bson::doc;\n\
         impl LegacyCollection for OutputCollection {\n    const NAME: &'static str = \"outputs_v1\";\n}\n\
         impl OutputCollection {\n\
         \x20   pub async fn old(&self, id: &str) {\n\
         \x20       self.find_one(doc! { \"_id\": id }, None).await;\n\
         \x20   }\n}\n",
    )
    .unwrap();
    let m = map_in(Some(root), ".");
    assert!(
        m["collections"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["name"] != "stardust_outputs" || c["indexes"].as_array().unwrap().is_empty()),
        "{m}"
    );
}

/// A literal subscript of an attribute named as a database is the collection it names, as the
/// attribute form is: eve's examples read `app.data.driver.db["accounts"]`, bound to a local
/// (`accounts = ..` then `accounts.find_one(..)`) or called on directly, beside `self.db.accounts`.
/// An attribute of another name (`app.data.store["accounts"]`) is not read so.
#[test]
fn a_literal_subscript_of_a_database_named_attribute_names_its_collection() {
    let auth = r#"from eve.auth import BasicAuth


class Auth(BasicAuth):
    def check_auth(self, username, password, allowed_roles, resource, method):
        accounts = app.data.driver.db["accounts"]
        account = accounts.find_one({"username": username})
        return account and account["password"] == password

    def roles(self, username):
        return self.db["accounts"].find_one({"username": username})["roles"]

    def other(self, username):
        return app.data.store["accounts"].find_one({"username": username})
"#;
    let files = [("auth.py", auth)];
    let m = map_of(&files);
    let accounts = collection(&m, "accounts");
    assert_eq!(
        sites(accounts),
        vec![
            ("auth.py".to_string(), "find_one".to_string()),
            ("auth.py".to_string(), "find_one".to_string()),
        ]
    );
}

/// A class's constant read through `self` names the collection (pyspider's projectdb:
/// `__collection_name__ = 'projectdb'` .. `self.database[self.__collection_name__]`), and the
/// collection `db.create_collection(name)` makes is that collection.
#[test]
fn a_class_constant_and_a_created_collection_name_their_collections() {
    let src = r#"from pymongo import MongoClient


class ProjectDB(object):
    __collection_name__ = 'projectdb'

    def __init__(self, url, database='projectdb'):
        self.conn = MongoClient(url)
        self.database = self.conn[database]
        self.collection = self.database[self.__collection_name__]
        self.collection.ensure_index('name', unique=True)

    def get(self, name):
        return self.collection.find_one({'name': name})


def setup(db):
    events = db.create_collection("events")
    events.create_index("at")
"#;
    let files = [("projectdb.py", src)];
    let m = map_of(&files);
    assert_eq!(collection_names(&m), vec!["events", "projectdb"]);
    assert_eq!(index_keys(collection(&m, "projectdb")), vec!["name:1"]);
    assert_eq!(index_keys(collection(&m, "events")), vec!["at:1"]);
}

/// A look-up of another module (a function at its top whose one operation is a read that varies
/// with its parameters), called once per item of a loop: an N+1 through that module, reported at
/// the call with the read's place in the other module. nodeclub's proxies: `UserProxy.
/// getUserById(topic.author_id)` per topic, `getUserById` running `User.findOne({_id: id})`. Not
/// a function whose query its arguments do not reach (`getAdmin`), nor a write (`rename`), nor a
/// call that sends the same query on every iteration (`req.user.id`).
#[test]
fn a_look_up_of_another_javascript_module_called_per_item_is_an_n_plus_1() {
    let models = "var mongoose = require('mongoose');
exports.User = mongoose.model('User', new mongoose.Schema({ name: String }));
exports.Post = mongoose.model('Post', new mongoose.Schema({ author_id: String, tags: [String] }));
";
    let user = "var User = require('../models').User;
exports.getUserById = function (id, cb) {
  if (!id) { return cb(); }
  User.findOne({ _id: id }, cb);
};
exports.getAdmin = function (cb) {
  User.findOne({ name: 'admin' }, cb);
};
exports.rename = function (id, name, cb) {
  User.updateOne({ _id: id }, { $set: { name: name } }, cb);
};
";
    let post = "var Post = require('../models').Post;
var UserProxy = require('./user');
var { getUserById } = require('./user');
exports.list = function (query, req, cb) {
  Post.find(query, function (err, posts) {
    posts.forEach(function (p) { UserProxy.getUserById(p.author_id, function () {}); });
    for (const p of posts) { getUserById(p.author_id, function () {}); }
    posts.forEach(function (p) { UserProxy.getAdmin(function () {}); });
    posts.forEach(function (p) { UserProxy.getUserById(req.user.id); });
    posts.forEach(function (p) { UserProxy.rename(p.author_id, 'x', function () {}); });
    cb(err, posts);
  });
};
";
    let out = concise_check(&[
        ("models/index.js", models),
        ("proxy/user.js", user),
        ("proxy/post.js", post),
    ]);
    assert_look_ups_per_item(
        &out,
        "proxy/post.js",
        &[(6, "UserProxy.getUserById"), (7, "getUserById")],
        "runs `findOne` on `users` once per item of `posts`",
    );
}

/// The query-in-loop findings of `out` are exactly one per `(line, callee)` of `expected`, in
/// `path`, each saying that the callee `runs` its read per item.
fn assert_look_ups_per_item(out: &str, path: &str, expected: &[(usize, &str)], runs: &str) {
    let loops: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("[query-in-loop]"))
        .collect();
    assert_eq!(loops.len(), expected.len(), "{out}");
    for ((line, callee), got) in expected.iter().zip(&loops) {
        assert!(got.starts_with(&format!("{path}:{line}:")), "{got}");
        assert!(got.contains(&format!("`{callee}` {runs}")), "{got}");
    }
}

/// The same with ES modules (growthbook's models): `export async function getFeature(context,
/// id)` and `export const byId = async (id) => ..`, imported by name into a module that calls them
/// per item of a query's results. (A release build once lost the first: rust-lang/rust#155241,
/// see `module_member_name`.)
#[test]
fn a_look_up_of_an_es_module_called_per_item_is_an_n_plus_1() {
    let model = "import mongoose from 'mongoose';
const FeatureModel = mongoose.model('Feature', new mongoose.Schema({ id: String, organization: String }));
export async function getFeature(context: Context, id: string) {
  const feature = await FeatureModel.findOne({ organization: context.org.id, id });
  if (!feature) return null;
  return context.permissions.canRead(feature) ? feature : null;
}
export const byId = async (id: string) => FeatureModel.findOne({ id });
";
    let service = "import mongoose from 'mongoose';
import { getFeature, byId } from '../models/FeatureModel';
const Rule = mongoose.model('Rule', new mongoose.Schema({ featureId: String }));
export async function check(context: Context) {
  const rules = await Rule.find({ organization: context.org.id });
  for (const rule of rules) {
    await getFeature(context, rule.featureId);
    await byId(rule.featureId);
  }
}
";
    let out = concise_check(&[
        ("src/models/FeatureModel.ts", model),
        ("src/services/rules.ts", service),
    ]);
    assert_look_ups_per_item(
        &out,
        "src/services/rules.ts",
        &[(7, "getFeature"), (8, "byId")],
        "runs `findOne` on `features` once per item of `rules`",
    );
}

/// The same in Python: a module's function imported by name or reached through the module
/// (`from app import db as store`, `import app.db`), a static method of an imported class, and
/// a function with two reads by its argument (the first reported). Not a function that reads and
/// writes, nor a call that sends the same query on every iteration.
#[test]
fn a_look_up_of_another_python_module_called_per_item_is_an_n_plus_1() {
    let db = r#"from pymongo import MongoClient

db = MongoClient()["app"]


def get_user(user_id):
    """The user."""
    return db.users.find_one({"_id": user_id})


def get_pair(user_id):
    user = db.users.find_one({"_id": user_id})
    return user, db.profiles.find_one({"user": user_id})


def touch(user_id):
    user = db.users.find_one({"_id": user_id})
    db.users.update_one({"_id": user_id}, {"$set": {"seen": True}})
    return user


class Posts:
    @staticmethod
    def by_id(post_id):
        return db.posts.find_one({"_id": post_id})
"#;
    let feed = r#"from pymongo import MongoClient
from app.db import get_user, get_pair, touch, Posts
from app import db as store
import app.db


def feed(items, me):
    out = []
    for item in items:
        out.append(get_user(item["author"]))
        out.append(Posts.by_id(item["post"]))
        out.append(store.get_user(item["editor"]))
        out.append(app.db.get_user(item["x"]))
        out.append(get_pair(item["author"]))
        out.append(touch(item["author"]))
        out.append(get_user(me))
    return out
"#;
    let out = concise_check(&[
        ("app/__init__.py", ""),
        ("app/db.py", db),
        ("app/feed.py", feed),
    ]);
    let loops: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("[query-in-loop]"))
        .collect();
    let expected = [
        (10, "get_user", "users"),
        (11, "Posts.by_id", "posts"),
        (12, "store.get_user", "users"),
        (13, "app.db.get_user", "users"),
        (14, "get_pair", "users"),
    ];
    assert_eq!(loops.len(), expected.len(), "{out}");
    for ((line, callee, coll), got) in expected.iter().zip(&loops) {
        assert!(got.starts_with(&format!("app/feed.py:{line}:")), "{got}");
        assert!(
            got.contains(&format!(
                "`{callee}` runs `find_one` on `{coll}` once per item of `items`"
            )),
            "{got}"
        );
    }
}

/// A module's look-up that returns a mongoengine queryset (`return Tag.objects(owner=o,
/// resource_id=r.id)`), and a function of the module that returns what such a look-up gives
/// (`{t.key: t.value for t in tag_objects(o, r)}`, mist's `get_tags_for_resource`), are read per
/// item where another module calls them in a loop.
#[test]
fn a_python_look_up_through_a_queryset_or_a_wrapper_is_an_n_plus_1_across_modules() {
    let tags = r#"import mongoengine as me


class Tag(me.Document):
    owner = me.StringField()
    resource_id = me.StringField()
    key = me.StringField()
    value = me.StringField()


def tag_objects(owner, resource):
    return Tag.objects(owner=owner, resource_id=resource.id)


def tags_for(owner, resource):
    return {t.key: t.value for t in tag_objects(owner, resource)}
"#;
    let views = r#"from app.tags import tags_for, tag_objects, Tag


def machines(owner):
    out = []
    for r in Tag.objects(owner=owner):
        out.append(tags_for(owner, r))
        out.append(list(tag_objects(owner, r)))
    return out
"#;
    let out = concise_check(&[
        ("app/__init__.py", ""),
        ("app/tags.py", tags),
        ("app/views.py", views),
    ]);
    let loops: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("[query-in-loop]"))
        .collect();
    assert_eq!(loops.len(), 2, "{out}");
    assert!(
        loops[0].starts_with("app/views.py:7:")
            && loops[0].contains("`tags_for` runs `objects` on `tag`"),
        "{out}"
    );
    assert!(
        loops[1].starts_with("app/views.py:8:")
            && loops[1].contains("`tag_objects` runs `objects` on `tag`"),
        "{out}"
    );
}

/// A configured collection name with its default (`options.db?.collection || 'agendaJobs'`,
/// `o.name ?? 'logs'`), written in the call or bound to a constant first, names the default.
#[test]
fn a_configured_name_with_a_default_names_the_default() {
    let src = r#"import { Collection, Db } from 'mongodb';
export class Repo {
  constructor(private connectOptions: any) {}
  async connect(db: Db): Promise<void> {
    const collection = this.connectOptions.db?.collection || 'agendaJobs';
    this.collection = db.collection(collection);
  }
  async next(name: string) {
    return this.collection.findOne({ name });
  }
}
export function direct(db: Db, o: any) {
  return db.collection(o.name ?? 'logs').find({ a: 1 });
}
export function unnamed(db: Db, o: any) {
  return db.collection(o.name || o.fallback).find({ b: 1 });
}
"#;
    let m = map_of(&[("repo.ts", src)]);
    assert_eq!(collection_names(&m), vec!["agendaJobs", "logs"]);
}

/// A Mongoose model's `collection` is the driver's collection behind it: `Source.collection
/// .replaceOne(..)` (hyperdx's sources) is on the model's collection.
#[test]
fn a_models_collection_is_the_models() {
    let src = r#"import mongoose, { Schema } from 'mongoose';
const Source = mongoose.model('Source', new Schema({ team: String, kind: String }));
export async function save(id: string, doc: any) {
  await Source.collection.replaceOne({ _id: id }, doc);
  return Source.collection.find({ team: doc.team }).toArray();
}
"#;
    let m = map_of(&[("source.ts", src)]);
    assert_eq!(collection_names(&m), vec!["sources"]);
    let methods: Vec<String> = sites(collection(&m, "sources"))
        .into_iter()
        .map(|(_, method)| method)
        .collect();
    assert_eq!(methods, vec!["find", "replaceOne"]);
}

/// Habitica's `migrations/archive/2013/20130615_add_extra_indexes.js`, a shell script run once in
/// 2013, declares two indexes on `users`; the application's schemas declare none, its indexes being
/// managed outside the repository. An archived migration is history, not the collection's
/// inventory: the queries on `users` are not judged against it. The same script under
/// `migrations/` is the inventory.
#[test]
fn an_archived_migration_s_indexes_are_no_inventory() {
    let model = (
        "models/user.js",
        "const mongoose = require('mongoose');\n\
         const schema = new mongoose.Schema({ email: String, apiToken: String });\n\
         module.exports = mongoose.model('User', schema);\n",
    );
    let auth = (
        "controllers/auth.js",
        "const User = require('../models/user');\n\
         exports.login = async (req) => User.findOne({ email: req.body.email }).exec();\n",
    );
    let script = "db.users.ensureIndex({ _id: 1, apiToken: 1 }, { background: true });\n\
                  db.users.ensureIndex({ _id: 1 }, { background: true });\n";
    let archived = concise_check(&[
        model,
        auth,
        (
            "migrations/archive/2013/20130615_add_extra_indexes.js",
            script,
        ),
    ]);
    assert!(!archived.contains("unindexed-query"), "{archived}");
    assert!(!archived.contains("redundant-index"), "{archived}");
    let current = concise_check(&[
        model,
        auth,
        ("migrations/20130615_add_extra_indexes.js", script),
    ]);
    assert!(
        current.contains("controllers/auth.js:2:") && current.contains("unindexed-query"),
        "{current}"
    );
}

/// TypeScript collections across modules, as unchained's packages keep them: a factory opens
/// `db.collection<Order>('orders')` and returns it (or an object of several), an importer binds
/// `const Orders = await OrdersCollection(db)` or `const { Links } = await LinksCollection(db)`,
/// and module functions take `{ Orders }: { Orders: mongodb.Collection<Order> }`. Each names
/// the collection; a type kept in two collections names neither, and a function's own local
/// result is not exported.
#[test]
fn typescript_factories_and_typed_collections_resolve_across_files() {
    let files = [
        (
            "db/orders.ts",
            "import type * as mongodb from 'mongodb';\n\
             export type Order = { _id: string; userId: string };\n\
             export const OrdersCollection = async (db: mongodb.Db) => {\n  \
             const Orders = db.collection<Order>('orders');\n  \
             await Orders.createIndex({ userId: 1 });\n  return Orders;\n};\n",
        ),
        (
            "db/links.ts",
            "import type { Db } from 'mongodb';\n\
             export async function LinksCollection(db: Db) {\n  \
             const Links = db.collection<Link>('links');\n  const Tags = db.collection('tags');\n  \
             const Twice = db.collection<Doubled>('twice_a');\n  \
             const Again = db.collection<Doubled>('twice_b');\n  \
             return { Links, Tags, Twice, Again };\n}\n",
        ),
        (
            "module/configure.ts",
            "import { OrdersCollection } from '../db/orders';\n\
             import { LinksCollection } from '../db/links';\n\
             export const configure = async (db: any) => {\n  \
             const Orders = await OrdersCollection(db);\n  \
             const { Links, Tags } = await LinksCollection(db);\n  \
             const n = await Orders.countDocuments({ orderNumber: 'x' });\n  \
             return { n, links: await Links.find({ tag: 't' }).toArray(), tags: await Tags.find({ name: 'n' }).toArray() };\n};\n",
        ),
        (
            "module/queries.ts",
            "import type * as mongodb from 'mongodb';\n\
             import type { Order } from '../db/orders';\n\
             export const queries = ({ Orders }: { Orders: mongodb.Collection<Order> }) => ({\n  \
             byUser: (u: string) => Orders.find({ userId: u }).toArray(),\n});\n\
             export const twice = (c: mongodb.Collection<Doubled>) => c.find({ a: 1 }).toArray();\n\
             export const link = (c: mongodb.Collection<Link>) => c.find({ b: 1 }).toArray();\n\
             export const archive = (db: mongodb.Db, name: string) => db.collection<Link>(name);\n",
        ),
    ];
    let m = map_of(&files);
    let orders = collection(&m, "orders");
    assert_eq!(
        sites(orders),
        [
            (
                "module/configure.ts".to_string(),
                "countDocuments".to_string()
            ),
            ("module/queries.ts".to_string(), "find".to_string()),
        ],
        "{orders:#}"
    );
    assert_eq!(
        sites(collection(&m, "links")),
        [("module/configure.ts".to_string(), "find".to_string())]
    );
    assert_eq!(
        sites(collection(&m, "tags")),
        [("module/configure.ts".to_string(), "find".to_string())]
    );
    // `Collection<Doubled>` is two collections' type: neither. So is `Collection<Link>`, whose
    // documents are also kept in a collection named at run time.
    assert!(sites(collection(&m, "twice_a")).is_empty());
    assert!(sites(collection(&m, "twice_b")).is_empty());
    assert!(sites(collection(&m, "links"))
        .iter()
        .all(|(path, _)| path != "module/queries.ts"));
    let out = concise_check(&files);
    assert!(
        out.contains("module/configure.ts:6:")
            && out.contains("`countDocuments` on `orders` filters by `orderNumber`"),
        "{out}"
    );
}

/// An application's index helper named for indexes, given a collection and a list of indexes
/// (unchained's `buildDbIndexes(Links, [{ index: {..} }, { index: {..}, options }])`, overleaf's
/// `Helpers.addIndexesToCollection(db.x, indexes)` with the driver's `{ key, name }` entries
/// bound to a name): each entry is an index of that collection, at the entry. The helper's own
/// `createIndex` on the collection it is handed is then no index on a collection named at run
/// time, unless some call gives it indexes that cannot be read.
#[test]
fn index_helpers_declare_their_callers_indexes() {
    let helper = (
        "lib/indexes.ts",
        "import type { Collection } from 'mongodb';\n\
         const buildIndexes = async (collection: Collection, indexes: any[]) =>\n  \
         Promise.all(indexes.map(async (spec) => {\n    \
         const { index, options } = spec;\n    await collection.createIndex(index, options);\n  }));\n\
         export const buildDbIndexes = async (collection: Collection, indexes: any[]) => {\n  \
         await buildIndexes(collection, indexes);\n};\n\
         export const Helpers = { addIndexes: async (collection: Collection, indexes: any[]) =>\n  \
         Promise.all(indexes.map((i) => collection.createIndex(i.key, i))) };\n",
    );
    let links = (
        "db/links.ts",
        "import { MongoClient } from 'mongodb';\n\
         import { buildDbIndexes, Helpers } from '../lib/indexes';\n\
         const db = new MongoClient('x').db();\n\
         export const setup = async () => {\n  \
         const Links = db.collection('links');\n  \
         await buildDbIndexes(Links, [\n    { index: { parentId: 1 } },\n    \
         { index: { parentId: 1, sortKey: 1 }, options: { unique: true } },\n  ]);\n  \
         const indexes = [{ key: { name: 1 }, name: 'name_1' }];\n  \
         await Helpers.addIndexes(db.collection('tags'), indexes);\n};\n\
         export const byTag = (t: string) => db.collection('links').find({ tag: t }).toArray();\n",
    );
    let out = concise_check(&[helper, links]);
    assert!(
        out.contains("db/links.ts:7:14: warning[redundant-index] index {parentId: 1} on `links`"),
        "{out}"
    );
    assert!(
        out.contains("db/links.ts:13:") && out.contains("`find` on `links` filters by `tag`"),
        "{out}"
    );
    let m = map_of(&[helper, links]);
    let tags = index_keys(collection(&m, "tags"));
    assert!(tags.len() == 1 && tags[0].starts_with("name:"), "{tags:?}");
    // A call whose indexes come from elsewhere keeps the helper's `createIndex` a declaration
    // on a collection named at run time: unindexed-query holds back.
    let loaded = (
        "db/loaded.ts",
        "import { MongoClient } from 'mongodb';\n\
         import { buildDbIndexes } from '../lib/indexes';\n\
         const db = new MongoClient('x').db();\n\
         export const load = async (specs: any[]) => buildDbIndexes(db.collection('other'), specs);\n",
    );
    let out = concise_check(&[helper, links, loaded]);
    assert!(out.contains("redundant-index"), "{out}");
    assert!(!out.contains("unindexed-query"), "{out}");
}

/// A Rust struct of collections built in one file (`Ctx { votes_coll: db.collection("votes") }`
/// in `main.rs`) and used through its fields in others (`ctx.votes_coll.find(filter, None)`,
/// thvote-be's services): each field names the collection its initialiser does, wherever the
/// repository gives that field name one collection; a field two initialisers give different
/// collections, or one a collection and another something else, names neither.
#[test]
fn rust_struct_fields_name_their_collections_across_files() {
    let m = map_of(&[
        (
            "src/main.rs",
            "use mongodb::{Client, Collection, bson::Document};\n\
             mod query;\n\
             pub struct Ctx { pub votes_coll: Collection<Document>, pub logs: Collection<Document> }\n\
             #[tokio::main]\nasync fn main() {\n    \
             let db = Client::with_uri_str(\"mongodb://x\").await.unwrap().database(\"app\");\n    \
             let ctx = Ctx { votes_coll: db.collection(\"votes\"), logs: db.collection(\"logs_a\") };\n    \
             let other = Other { logs: db.collection(\"logs_b\") };\n    \
             let admin = Admin { users: db.collection(\"users\") };\n    \
             let holder = Holder { users: &ctx.votes_coll };\n}\n",
        ),
        (
            "src/query.rs",
            "use mongodb::bson::{doc, Document};\nuse crate::Ctx;\n\
             pub async fn q(ctx: &Ctx, year: i32, extra: Option<Document>) {\n    \
             let filter = match extra { Some(f) => doc! {\"$and\": [f, {\"year\": year}]}, None => doc! {\"year\": year} };\n    \
             ctx.votes_coll.find(filter, None).await.unwrap();\n    \
             ctx.votes_coll.find_one(doc! {\"year\": year}, None).await.unwrap();\n    \
             ctx.logs.insert_one(doc! {\"year\": year}, None).await.unwrap();\n}\n\
             pub async fn h(holder: &Holder<'_>) {\n    \
             holder.users.find_one(doc! {\"year\": 1}, None).await.unwrap();\n}\n",
        ),
    ]);
    assert_eq!(
        sites(collection(&m, "votes")),
        [
            ("src/query.rs".to_string(), "find".to_string()),
            ("src/query.rs".to_string(), "find_one".to_string()),
        ],
        "{m:#}"
    );
    assert!(sites(collection(&m, "logs_a")).is_empty(), "{m:#}");
    assert!(sites(collection(&m, "logs_b")).is_empty(), "{m:#}");
    // `users` is also a field holding another collection (`Holder { users: &ctx.votes_coll }`).
    assert!(sites(collection(&m, "users")).is_empty(), "{m:#}");
}

/// A typed collection parameter whose document type is imported under another name
/// (`import type { PaymentCredentials as PaymentCredentialsType }`, `Collection<
/// PaymentCredentialsType>`) is the type's collection; a factory re-exported by a package's
/// index (`export { OrdersCollection } from './db/orders'`, or `export *`) is followed there.
#[test]
fn typescript_aliased_types_and_reexported_factories_resolve() {
    let m = map_of(&[
        (
            "db/credentials.ts",
            "import type * as mongodb from 'mongodb';\n\
             export type PaymentCredentials = { _id: string; userId: string };\n\
             export const open = (db: mongodb.Db) => db.collection<PaymentCredentials>('payment_credentials');\n",
        ),
        (
            "db/orders.ts",
            "import type * as mongodb from 'mongodb';\n\
             export const OrdersCollection = async (db: mongodb.Db) => {\n  \
             const Orders = db.collection('orders');\n  return Orders;\n};\n\
             export const LinksCollection = async (db: mongodb.Db) => {\n  \
             const Links = db.collection('links');\n  return { Links };\n};\n",
        ),
        ("db/index.ts", "export { OrdersCollection } from './orders';\nexport * from './orders';\n"),
        (
            "module/use.ts",
            "import type { Collection } from 'mongodb';\n\
             import type { PaymentCredentials as PaymentCredentialsType } from '../db/credentials';\n\
             import { OrdersCollection, LinksCollection } from '../db';\n\
             export const byUser = (c: Collection<PaymentCredentialsType>, u: string) => c.find({ userId: u }).toArray();\n\
             export const run = async (db: any) => {\n  \
             const Orders = await OrdersCollection(db);\n  \
             const { Links } = await LinksCollection(db);\n  \
             return [await Orders.find({ n: 1 }).toArray(), await Links.find({ t: 1 }).toArray()];\n};\n",
        ),
    ]);
    for name in ["payment_credentials", "orders", "links"] {
        assert_eq!(
            sites(collection(&m, name)),
            [("module/use.ts".to_string(), "find".to_string())],
            "{name}: {m:#}"
        );
    }
}

/// A package's subpath import (`import { getThreads } from "#collections"`, mapped by its
/// `package.json`'s `imports` or a tsconfig's `paths`) names the folder of that name, here
/// through its `index.ts` that re-exports the getter (`export * from "./threads"`), which has no
/// MongoDB word of its own (vrite's backend).
#[test]
fn subpath_imports_and_collection_folders_resolve() {
    let m = map_of(&[
        (
            "src/collections/threads.ts",
            "import { Collection, Db, ObjectId } from 'mongodb';\n\
             export const getThreads = (db: Db): Collection<{ _id: ObjectId }> => db.collection('threads');\n",
        ),
        ("src/collections/index.ts", "export * from './threads';\n"),
        (
            "src/routes/find.ts",
            "import { Db } from 'mongodb';\n\
             import { getThreads } from '#collections';\n\
             export const h = async (db: Db, fragment: string) => getThreads(db).find({ fragment }).toArray();\n",
        ),
    ]);
    assert_eq!(
        sites(collection(&m, "threads")),
        [("src/routes/find.ts".to_string(), "find".to_string())],
        "{m:#}"
    );
}

/// A Rust collection opened under a prefix given at run time (`db.collection::<Group>(&(prefix
/// .to_owned() + "groups"))`, NetsBlox's configured prefix) agrees with the same name written
/// alone elsewhere (its migration's `collection::<Group>("groups")`), so a `&Collection<Group>`
/// parameter is `groups`; the prefixed name alone names no collection.
#[test]
fn rust_prefixed_names_agree_with_the_plain_name() {
    let app = (
        "src/app.rs",
        "use mongodb::{Collection, Database};\n\
         pub struct Group { pub id: String }\n\
         pub fn open(db: &Database, prefix: &str) -> Collection<Group> {\n    \
         db.collection::<Group>(&(prefix.to_owned() + \"groups\"))\n}\n",
    );
    let utils = (
        "src/utils.rs",
        "use mongodb::{bson::doc, Collection};\nuse crate::app::Group;\n\
         pub async fn get(groups: &Collection<Group>, id: &str) {\n    \
         groups.find_one(doc! {\"id\": id}, None).await.unwrap();\n}\n",
    );
    let migrate = (
        "migrate/src/main.rs",
        "use mongodb::Client;\nuse cloud::Group;\n\
         #[tokio::main]\nasync fn main() {\n    \
         let db = Client::with_uri_str(\"mongodb://x\").await.unwrap().database(\"app\");\n    \
         let groups = db.collection::<Group>(\"groups\");\n}\n",
    );
    let m = map_of(&[app, utils, migrate]);
    assert_eq!(
        sites(collection(&m, "groups")),
        [("src/utils.rs".to_string(), "find_one".to_string())],
        "{m:#}"
    );
    let m = map_of(&[app, utils]);
    assert!(
        m["collections"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["name"] != "groups" || sites(c).is_empty()),
        "{m:#}"
    );
}

#[test]
fn a_base_model_class_opens_the_collection_its_subclass_names() {
    // The shape of bitcore-node's models: `BaseModel` keeps the name its constructor is given
    // (`protected collectionName`) and opens it in a getter; each model class hands it a name
    // (`super('coins')`) and other modules use the exported instance's `collection`.
    let files = [
        (
            "models/base.ts",
            "import { Collection } from 'mongodb';\nimport { Storage } from '../storage';\n\
             export abstract class BaseModel<T> {\n  \
             constructor(protected collectionName: string, private storage = Storage) {}\n  \
             get collection(): Collection<T> {\n    \
             return this.storage.db.collection(this.collectionName);\n  }\n}\n\
             export class Settings {\n  constructor(private options: object) {}\n  \
             get collection() {\n    return Storage.db.collection('settings');\n  }\n}\n\
             export const AppSettings = new Settings({});\n",
        ),
        (
            "models/coin.ts",
            "import { BaseModel, Settings } from './base';\n\
             export class CoinModel extends BaseModel<any> {\n  \
             constructor(storage?: any) {\n    super('coins', storage);\n  }\n  \
             onConnect() {\n    this.collection.createIndex({ mintTxid: 1 });\n  }\n  \
             byValue(v: number) {\n    return this.collection.find({ value: v }).toArray();\n  }\n}\n\
             export const CoinStorage = new CoinModel();\n\
             class Configured extends Settings {\n  constructor() {\n    super({ name: 'x' });\n  }\n}\n\
             export const Config = new Configured();\n",
        ),
        (
            "services/spent.ts",
            "import { CoinStorage, Config } from '../models/coin';\n\
             import { AppSettings } from '../models/base';\n\
             export async function spent(txid: string) {\n  \
             return CoinStorage.collection.find({ spentTxid: txid }).toArray();\n}\n\
             export async function setting(key: string) {\n  \
             return Config.collection.findOne({ key });\n}\n\
             export async function app(key: string) {\n  \
             return AppSettings.collection.findOne({ key });\n}\n",
        ),
    ];
    let m = map_of(&files);
    assert_eq!(
        sites(collection(&m, "coins")),
        vec![
            ("models/coin.ts".to_string(), "find".to_string()),
            ("services/spent.ts".to_string(), "find".to_string()),
        ]
    );
    // A class's own getter names the collection it returns, for its instances; a subclass
    // that hands its base no name (`super({ name: 'x' })`) names none.
    assert_eq!(
        sites(collection(&m, "settings")),
        vec![("services/spent.ts".to_string(), "findOne".to_string())]
    );
    assert_eq!(collection_names(&m), vec!["coins", "settings"]);
    let out = concise_check(&files);
    assert!(
        out.contains("models/coin.ts:10:") && out.contains("services/spent.ts:4:"),
        "{out}"
    );
    assert_eq!(out.matches("unindexed-query").count(), 2, "{out}");
}

#[test]
fn a_python_base_class_opens_the_collection_its_subclass_attribute_names() {
    // The shape of fame's `MongoDict`: the base opens `store.db[self.collection_name]`, each
    // model class of another module sets `collection_name`. A base that looks the name up in a
    // dict (`self.cache = CACHES[self.cache_name]`) is no factory.
    let files = [
        ("app/__init__.py", ""),
        ("app/core/__init__.py", ""),
        (
            "app/core/store.py",
            "from pymongo import MongoClient\n\
             class Store:\n    def connect(self):\n        self.db = MongoClient()['app']\n        \
             self.db.files.create_index('sha256')\nstore = Store()\n",
        ),
        (
            "app/core/mongo_dict.py",
            "from app.core.store import store\nCACHES = {}\n\
             class MongoDict(dict):\n    collection_name = None\n    \
             def __init__(self, values={}):\n        dict.__init__(self, values)\n        \
             self.collection = store.db[self.collection_name]\n\
             class Cached(dict):\n    cache_name = None\n    \
             def __init__(self):\n        self.cache = CACHES[self.cache_name]\n",
        ),
        (
            "app/core/file.py",
            "from app.core.mongo_dict import MongoDict, Cached\n\
             class File(MongoDict):\n    collection_name = 'files'\n    \
             def by_name(self, name):\n        return self.collection.find_one({'names': name})\n    \
             def by_hash(self, h):\n        return self.collection.find_one({'sha256': h})\n\
             class Thumb(Cached):\n    cache_collection = 'thumbs'\n    \
             def get(self, k):\n        return self.cache.find_one({'k': k})\n",
        ),
    ];
    let m = map_of(&files);
    assert_eq!(
        sites(collection(&m, "files")),
        vec![
            ("app/core/file.py".to_string(), "find_one".to_string()),
            ("app/core/file.py".to_string(), "find_one".to_string()),
        ]
    );
    assert_eq!(collection_names(&m), vec!["files"]);
    let out = concise_check(&files);
    assert!(out.contains("app/core/file.py:5:"), "{out}");
    assert_eq!(out.matches("unindexed-query").count(), 1, "{out}");
}

#[test]
fn a_base_adapter_opens_the_collection_its_subclass_field_names() {
    // The shape of api-subventions-asso's adapters: `MongoAdapter` opens
    // `db.collection(this.collectionName)` in a getter, each adapter sets `collectionName`. A
    // class with two such fields names neither.
    let files = [
        (
            "db/MongoAdapter.ts",
            "import db from './connection';\n\
             export default abstract class MongoAdapter<T> {\n    \
             public abstract collectionName: string;\n    \
             protected get collection() {\n        return db.collection<T>(this.collectionName);\n    }\n}\n",
        ),
        (
            "db/user/user.adapter.ts",
            "import MongoAdapter from '../MongoAdapter';\n\
             export class UserAdapter extends MongoAdapter<any> {\n    collectionName = 'users';\n    \
             async createIndexes() {\n        await this.collection.createIndex({ email: 1 }, { unique: true });\n    }\n    \
             async findByEmail(email: string) {\n        return this.collection.findOne({ email });\n    }\n    \
             async findByToken(jwt: string) {\n        return this.collection.findOne({ jwt });\n    }\n}\n\
             export class Twice extends MongoAdapter<any> {\n    collectionName = 'a';\n    \
             archiveCollectionName = 'b';\n    \
             async byKey(key: string) {\n        return this.collection.findOne({ key });\n    }\n}\n",
        ),
    ];
    let m = map_of(&files);
    assert_eq!(
        sites(collection(&m, "users")),
        vec![
            ("db/user/user.adapter.ts".to_string(), "findOne".to_string()),
            ("db/user/user.adapter.ts".to_string(), "findOne".to_string()),
        ]
    );
    assert_eq!(collection_names(&m), vec!["users"]);
    let out = concise_check(&files);
    assert!(out.contains("db/user/user.adapter.ts:11:"), "{out}");
    assert_eq!(out.matches("unindexed-query").count(), 1, "{out}");
}

#[test]
fn javascript_collection_names_from_another_modules_constants() {
    // laf's `db.collection(CN_PUBLISHED_FUNCTIONS)` with the name in `constants.ts`, which has
    // no driver word: the module of constants is parsed because a collection name spells one of
    // its exports. Also a member of an exported object and a TypeScript enum's member.
    let files = [
        (
            "src/constants.ts",
            "export const CN_FUNCTIONS = '__functions__'\n\
             export const COLLECTIONS = { USERS: 'users', LIMIT: 10 }\n\
             export enum Collections { Orders = 'orders', Count = 3 }\n",
        ),
        ("src/settings.ts", "export const CN_AUDIT = 'audit'\n"),
        (
            "src/fn.service.ts",
            "import { Db } from 'mongodb'\n\
             import { CN_FUNCTIONS, COLLECTIONS, Collections } from './constants'\n\
             import { CN_AUDIT } from './settings'\n\
             export async function setup(db: Db) {\n  \
             await db.collection(CN_FUNCTIONS).createIndex({ name: 1 })\n}\n\
             export async function byName(db: Db, name: string) {\n  \
             return db.collection(CN_FUNCTIONS).findOne({ name })\n}\n\
             export async function byAppid(db: Db, appid: string) {\n  \
             return db.collection(CN_FUNCTIONS).find({ appid }).toArray()\n}\n\
             export async function user(db: Db, email: string) {\n  \
             return db.collection(COLLECTIONS.USERS).findOne({ email })\n}\n\
             export async function order(db: Db, id: string) {\n  \
             return db.collection(Collections.Orders).findOne({ id })\n}\n\
             export async function audit(db: Db, id: string) {\n  \
             return db.collection(CN_AUDIT).findOne({ id })\n}\n",
        ),
    ];
    let m = map_of(&files);
    // (A module of constants not named for them, `settings.ts`, is not read.)
    assert_eq!(
        collection_names(&m),
        vec!["__functions__", "orders", "users"]
    );
    assert_eq!(
        sites(collection(&m, "__functions__")),
        vec![
            ("src/fn.service.ts".to_string(), "find".to_string()),
            ("src/fn.service.ts".to_string(), "findOne".to_string()),
        ]
    );
    let out = concise_check(&files);
    assert!(out.contains("src/fn.service.ts:11:"), "{out}");
    assert_eq!(out.matches("unindexed-query").count(), 1, "{out}");
}

#[test]
fn beanie_documents_name_their_collections_indexes_and_queries() {
    // beanie (FastAPI backends, nightingale's messenger): a `Document`'s collection is its
    // `Settings.name`, else the class name; `Indexed(..)` fields and `Settings.indexes` declare
    // indexes; `User.find_one(User.email == e)` filters by `email`, in the module or one that
    // imports the model.
    let files = [
        (
            "app/__init__.py",
            "",
        ),
        (
            "app/models.py",
            "from beanie import Document, Indexed\nfrom pymongo import IndexModel, ASCENDING\n\
             class User(Document):\n    email: Indexed(str, unique=True)\n    username: str\n    \
             age: int = 0\n    class Settings:\n        name = 'users'\n        \
             indexes = ['username', IndexModel([('age', ASCENDING), ('username', ASCENDING)])]\n\
             class Event(Document):\n    kind: str\n\
             async def by_age(age, page):\n    \
             return await User.find(User.age > age).sort(-User.age).skip(page * 20).limit(20).to_list()\n",
        ),
        (
            "app/service.py",
            "from app.models import User, Event\n\
             async def by_email(email):\n    return await User.find_one(User.email == email)\n\
             async def by_id(uid):\n    return await User.find_one(User.id == uid)\n\
             async def by_city(city):\n    return await User.find_one(User.city == city)\n\
             async def events(kind):\n    return await Event.find(Event.kind == kind).to_list()\n",
        ),
    ];
    let m = map_of(&files);
    assert_eq!(collection_names(&m), vec!["Event", "users"]);
    assert_eq!(
        sites(collection(&m, "users")),
        vec![
            ("app/models.py".to_string(), "find".to_string()),
            ("app/service.py".to_string(), "find_one".to_string()),
            ("app/service.py".to_string(), "find_one".to_string()),
            ("app/service.py".to_string(), "find_one".to_string()),
        ]
    );
    let out = concise_check(&files);
    // The range on `age` with its sort is served by `{age: 1, username: 1}`; `email` by its
    // unique index, `_id` always; `city` by none.
    assert!(out.contains("app/service.py:7:"), "{out}");
    assert_eq!(out.matches("unindexed-query").count(), 1, "{out}");
    assert!(
        out.contains("app/models.py:13:") && out.contains("skip-paging"),
        "{out}"
    );
}

#[test]
fn beanie_subclasses_writes_through_queries_and_gets() {
    // A subclass keeps its base's `Settings` (`UserDB(UserDoc)` is `users`), else has the
    // collection of its own name (lccn_predictor's `ContestRecordPredict(ContestRecord)`), but
    // under a base whose `Settings` says `is_root = True`. `find_one(q).update(..)` and
    // `find(q).delete()` write (no N+1 read); `get(id)` reads by `_id`.
    let files = [(
        "m.py",
        "from beanie import Document\nfrom beanie.operators import Set\n\
         class UserDoc(Document):\n    name: str\n    class Settings:\n        name = 'users'\n\
         class UserDB(UserDoc):\n    password: str\n\
         class Record(Document):\n    user: str\n\
         class Predict(Record):\n    pass\n\
         class Shape(Document):\n    kind: str\n    class Settings:\n        is_root = True\n\
         class Circle(Shape):\n    r: int\n\
         async def f(items, ids):\n    \
         for it in items:\n        await Record.find_one(Record.user == it.user).update(Set({Record.user: it.user}))\n    \
         for it in items:\n        await Predict.find(Predict.user == it.user).delete()\n    \
         for i in ids:\n        await UserDB.get(i)\n    \
         await Circle.find_one(Circle.r == 1)\n",
    )];
    let m = map_of(&files);
    assert_eq!(
        collection_names(&m),
        vec!["Predict", "Record", "Shape", "users"]
    );
    let out = concise_check(&files);
    assert_eq!(out.matches("query-in-loop").count(), 1, "{out}");
    assert!(
        out.contains("m.py:25:") && out.contains("`get` on `users`"),
        "{out}"
    );
}

#[test]
fn typescript_imports_written_with_the_js_extension_resolve() {
    // Node16 ECMAScript modules in TypeScript import `./constants.js` for `constants.ts`.
    let files = [
        (
            "src/constants.ts",
            "export const enum Collections { USERS = 'users' }\n",
        ),
        (
            "src/db.ts",
            "import { MongoClient } from 'mongodb';\n\
             export const orders = new MongoClient('').db().collection('orders');\n",
        ),
        (
            "src/svc.ts",
            "import { Db } from 'mongodb';\nimport { Collections } from './constants.js';\n\
             import { orders } from './db.js';\n\
             export async function f(db: Db, e: string) {\n  \
             return db.collection(Collections.USERS).findOne({ e });\n}\n\
             export async function g(id: string) {\n  return orders.findOne({ id });\n}\n",
        ),
    ];
    let m = map_of(&files);
    assert_eq!(collection_names(&m), vec!["orders", "users"]);
    assert_eq!(
        sites(collection(&m, "users")),
        vec![("src/svc.ts".to_string(), "findOne".to_string())]
    );
    assert_eq!(
        sites(collection(&m, "orders")),
        vec![("src/svc.ts".to_string(), "findOne".to_string())]
    );
    // And through a path alias (Checkmate's `@/db/models/Check.model.js`).
    let aliased = [
        files[0],
        files[1],
        (
            "src/svc.ts",
            "import { ObjectId } from 'mongodb';\nimport { orders } from '@/db.js';\n\
             export async function g(id: string) {\n  return orders.findOne({ id });\n}\n",
        ),
    ];
    let m = map_of(&aliased);
    assert_eq!(
        sites(collection(&m, "orders")),
        vec![("src/svc.ts".to_string(), "findOne".to_string())]
    );
}

#[test]
fn rust_index_keys_from_a_function_of_the_file() {
    // inx-chronicle's `.keys(newest())`, `fn newest() -> Document { doc! {..} }`.
    let files = [(
        "src/lib.rs",
        "use mongodb::{bson::{doc, Document}, Database, IndexModel};\n\
         fn by_owner_keys() -> Document { doc! { \"owner\": 1, \"seq\": 1 } }\n\
         pub async fn setup(db: &Database) -> mongodb::error::Result<()> {\n    \
         let updates = db.collection::<Document>(\"updates\");\n    \
         updates.create_index(IndexModel::builder().keys(by_owner_keys()).build(), None).await?;\n    Ok(())\n}\n\
         pub async fn by_seq(db: &Database, seq: u32) -> mongodb::error::Result<()> {\n    \
         let updates = db.collection::<Document>(\"updates\");\n    \
         let _c = updates.find(doc! { \"seq\": seq }, None).await?;\n    \
         let _d = updates.find(doc! { \"owner\": \"x\", \"seq\": seq }, None).await?;\n    Ok(())\n}\n",
    )];
    let out = concise_check(&files);
    assert!(out.contains("src/lib.rs:10:"), "{out}");
    assert_eq!(out.matches("unindexed-query").count(), 1, "{out}");
}

#[test]
fn beanie_update_operators_are_read() {
    // clowder2's `find_one(q).update(Inc({File.downloads: 1}))` per download, and a `Push` with
    // no bound; a `Set` is neither.
    let files = [(
        "m.py",
        "from beanie import Document\nfrom beanie.operators import Inc, Push, Set\n\
         class File(Document):\n    name: str\n    downloads: int = 0\n    tags: list = []\n\
         async def download(fid):\n    await File.find_one(File.id == fid).update(Inc({File.downloads: 1}))\n\
         async def tag(name, t):\n    await File.find(File.name == name).update(Push({File.tags: t}))\n\
         async def rename(fid, n):\n    await File.find_one(File.id == fid).update(Set({File.name: n}))\n",
    )];
    let out = concise_check(&files);
    assert!(
        out.contains("m.py:8:") && out.contains("counter-inc"),
        "{out}"
    );
    assert!(
        out.contains("m.py:10:") && out.contains("unbounded-push"),
        "{out}"
    );
    assert_eq!(
        out.lines().filter(|l| l.contains("m.py:")).count(),
        2,
        "{out}"
    );
}

#[test]
fn rust_collection_methods_of_an_application_type() {
    // m87's `Store`: `fn devices(&self) -> Collection<Device> { self.coll("devices") }` over `fn
    // coll<T>(&self, n: &str) -> Collection<T> { self.client.database(..).collection(n) }`, and
    // `users()` opening its collection itself, called as `db.devices()` in another file. A file
    // named `*_spec.rs` is no test in Rust.
    let files = [
        (
            "src/db.rs",
            "use mongodb::{bson::doc, Client, Collection, IndexModel};\n\
             pub struct Device { pub owner: String }\n\
             pub struct Store { client: Client, name: String }\n\
             impl Store {\n    \
             fn coll<T: Send + Sync>(&self, n: &str) -> Collection<T> { self.client.database(&self.name).collection(n) }\n    \
             pub fn devices(&self) -> Collection<Device> { self.coll(\"devices\") }\n    \
             pub fn users(&self) -> Collection<Device> { self.client.database(&self.name).collection(\"users\") }\n    \
             pub async fn indexes(&self) -> mongodb::error::Result<()> {\n        \
             self.devices().create_index(IndexModel::builder().keys(doc! { \"owner\": 1 }).build()).await?;\n        \
             self.devices().create_index(IndexModel::builder().keys(doc! { \"owner\": 1, \"active\": 1 }).build()).await?;\n        \
             self.users().create_index(IndexModel::builder().keys(doc! { \"email\": 1 }).build()).await?;\n        \
             Ok(())\n    }\n}\n",
        ),
        (
            "src/models/deploy_spec.rs",
            "use mongodb::bson::doc;\nuse std::sync::Arc;\nuse crate::db::Store;\n\
             pub async fn on_heartbeat(db: &Arc<Store>, short: &str) -> mongodb::error::Result<()> {\n    \
             let _d = db.devices().find_one(doc! { \"short_id\": short }).await?;\n    \
             let _u = db.users().find_one(doc! { \"email\": short }).await?;\n    Ok(())\n}\n",
        ),
    ];
    let m = map_of(&files);
    assert_eq!(collection_names(&m), vec!["devices", "users"]);
    assert_eq!(
        sites(collection(&m, "devices")),
        vec![(
            "src/models/deploy_spec.rs".to_string(),
            "find_one".to_string()
        )]
    );
    let out = concise_check(&files);
    assert!(
        out.contains("src/db.rs:9:") && out.contains("redundant-index"),
        "{out}"
    );
    assert!(
        out.contains("src/models/deploy_spec.rs:5:")
            && out.contains("`find_one` on `devices` filters by `short_id`"),
        "{out}"
    );
    assert_eq!(out.matches("unindexed-query").count(), 1, "{out}");
}

#[test]
fn python_indexes_created_in_a_loop_over_keys_written_out() {
    // fireworks' `for f in ("state", "name", "created_on"): self.fireworks.create_index(f)`:
    // one declaration per item, where the item is written (also through a name bound to the
    // list); a loop over keys the code does not show stays one declaration it cannot read.
    let files = [(
        "pad.py",
        "from pymongo import MongoClient\n\
         def setup(db, configured):\n    \
         for f in (\"state\", \"name\", \"created_on\"):\n        db.tasks.create_index(f)\n    \
         db.tasks.create_index([(\"state\", -1), (\"_id\", -1)])\n    \
         keys = [[(\"owner\", 1), (\"state\", 1)], \"owner\"]\n    \
         for k in keys:\n        db.jobs.create_index(k)\n    \
         for c in configured:\n        db.logs.create_index(c)\n\
         def by_owner(db, owner):\n    return list(db.tasks.find({\"owner\": owner}))\n",
    )];
    let out = concise_check(&files);
    assert!(
        out.contains("pad.py:3:15: warning[redundant-index] index {state: 1} on `tasks`"),
        "{out}"
    );
    assert!(
        out.contains("pad.py:6:43: warning[redundant-index] index {owner: 1} on `jobs`"),
        "{out}"
    );
    assert!(
        out.contains("pad.py:12:") && out.contains("none of the 4 indexes declared for `tasks`"),
        "{out}"
    );
    assert_eq!(
        out.lines().filter(|l| l.contains("pad.py:")).count(),
        3,
        "{out}"
    );
}

#[test]
fn python_names_from_a_star_import_are_the_module_s() {
    // WilliamButcherBot's `from wbb.utils.dbfeds import *`, then `fedsdb.update_one(..)`: a name
    // the file binds nowhere is its one star import's, when that module exports it. With two
    // star imports the module is not known, and the name stays unresolved.
    let files = [
        (
            "pkg/store.py",
            "from pymongo import MongoClient\nteams = MongoClient().app.teams\n\
             def setup():\n    teams.create_index(\"team_id\")\n",
        ),
        ("pkg/__init__.py", ""),
        (
            "m4.py",
            "from pkg.store import *\n\
             def rename_team(team_id, name):\n    \
             teams.update_one({\"team_id\": team_id}, {\"$set\": {\"name\": name}})\n\
             def by_owner(owner):\n    return teams.find_one({\"owner\": owner})\n",
        ),
    ];
    let m = map_of(&files);
    assert_eq!(
        sites(collection(&m, "teams")),
        vec![
            ("m4.py".to_string(), "find_one".to_string()),
            ("m4.py".to_string(), "update_one".to_string()),
        ]
    );
    let out = concise_check(&files);
    assert!(
        out.contains("m4.py:5:") && out.contains("filters by `owner`"),
        "{out}"
    );
    let two = [
        files[0],
        files[1],
        ("pkg/other.py", "x = 1\n"),
        (
            "m4.py",
            "from pkg.store import *\nfrom pkg.other import *\n\
             def by_owner(owner):\n    return teams.find_one({\"owner\": owner})\n",
        ),
    ];
    let out = concise_check(&two);
    assert!(!out.contains("m4.py"), "{out}");
}

#[test]
fn javascript_registries_of_collections_name_them() {
    // openwhyd's models: `mongodb.collections['user']`, filled by `exports.collections[name] =
    // db.collection(name)`, reached directly, through `const cols = mongodb.collections`, by a
    // member (`.notif`) or a constant key; a key the code computes names no collection. The
    // driver's single sort pair `['t', 'desc']` is one key.
    let files = [
        (
            "db.js",
            "const { MongoClient } = require('mongodb');\n\
             exports.collections = {};\n\
             exports.init = async (db) => {\n  \
             for (const name of ['user', 'notif']) exports.collections[name] = db.collection(name);\n\
             };\n",
        ),
        (
            "setup.js",
            "async function setup(db) {\n  \
             await db.collection('user').createIndex({ email: 1 });\n  \
             await db.collection('notif').createIndex({ uId: 1, t: -1 });\n\
             }\n",
        ),
        (
            "user.js",
            "const mongodb = require('./db.js');\n\
             const cols = mongodb.collections;\n\
             const NAME = 'user';\n\
             exports.a = (x) => mongodb.collections['user'].find({ iBy: x }).toArray();\n\
             exports.b = (x) => cols['user'].findOne({ iBy: x });\n\
             exports.c = (x) => mongodb.collections[NAME].countDocuments({ iBy: x });\n\
             exports.d = (p) => mongodb.collections[p.col].find({ iBy: 1 }).toArray();\n\
             exports.e = (uId) => mongodb.collections.notif.find({ uId }, { sort: ['t', 'desc'] }).toArray();\n\
             exports.f = (uId) => mongodb.collections.notif.find({ uId }, { sort: ['x', 'desc'] }).toArray();\n",
        ),
    ];
    let out = concise_check(&files);
    for line in [4, 5, 6] {
        assert!(
            out.contains(&format!("user.js:{line}:"))
                && out.contains("on `user` filters by `iBy` (equality)"),
            "{out}"
        );
    }
    assert!(
        out.contains("user.js:9:") && out.contains("sorts by `x: -1`"),
        "{out}"
    );
    assert_eq!(
        out.lines().filter(|l| l.contains("user.js:")).count(),
        4,
        "{out}"
    );
}

#[test]
fn mongoose_handed_on_by_the_application() {
    // FastGPT's models: `Schema` from a module of the repository that re-exports Mongoose, or
    // destructured from the Mongoose instance it exports, and a model factory given the
    // collection's name by a constant (of the file, or imported): the schema's indexes are the
    // collection's.
    let files = [
        (
            "common/mongo.ts",
            "import mongoose, { Mongoose, Model } from 'mongoose';\n\
             export const conn = new Mongoose();\n\
             export * from 'mongoose';\n\
             export const getModel = <T>(name: string, schema: mongoose.Schema) =>\n  \
             (conn.models[name] as Model<T>) ?? conn.model<T>(name, schema);\n",
        ),
        (
            "item.ts",
            "import { conn, getModel } from './common/mongo';\n\
             const { Schema } = conn;\n\
             export const ItemCollectionName = 'items';\n\
             const ItemSchema = new Schema({ appId: String, time: Date, chatId: String });\n\
             ItemSchema.index({ appId: 1, chatId: 1 });\n\
             ItemSchema.index({ appId: 1 });\n\
             export const MongoItem = getModel<any>(ItemCollectionName, ItemSchema);\n\
             MongoItem.find({ time: { $gte: new Date() } });\n",
        ),
        (
            "other.ts",
            "import { Schema, getModel } from './common/mongo';\n\
             import { OtherName } from './names';\n\
             const S = new Schema({ appId: String, chatId: String });\n\
             S.index({ appId: 1, chatId: 1 });\n\
             export const MongoOther = getModel<any>(OtherName, S);\n\
             MongoOther.find({ chatId: 'x' });\n",
        ),
        ("names.ts", "export const OtherName = 'others';\n"),
    ];
    let out = concise_check(&files);
    assert!(
        out.contains("item.ts:6:18: warning[redundant-index] index {appId: 1} on `items`"),
        "{out}"
    );
    assert!(
        out.contains("item.ts:8:") && out.contains("none of the 2 indexes declared for `items`"),
        "{out}"
    );
    assert!(
        out.contains("other.ts:6:") && out.contains("the only index declared for `others`"),
        "{out}"
    );
}

#[test]
fn rust_associated_functions_given_the_database_name_the_collection() {
    // lila-deepq's models: `impl Job { pub fn coll(db: DbConn) -> Collection { db.database.
    // collection("deepq_fishnetjobs") } }`, called as `Job::coll(db.clone())` in its file and as
    // `m::Job::coll(db)` (chained, or bound with `let`) in another; a type's function that opens
    // no collection names none.
    let files = [
        (
            "src/fishnet/model.rs",
            "use mongodb::{bson::{doc, Document}, Collection, Database};\n\
             pub struct DbConn { pub database: Database }\n\
             pub struct Job;\n\
             impl Job {\n    \
             pub fn coll(db: DbConn) -> Collection<Document> { db.database.collection(\"deepq_fishnetjobs\") }\n}\n\
             pub struct Other;\n\
             impl Other {\n    \
             pub fn make(db: DbConn) -> Collection<Document> { db.database.collection(&db.name) }\n}\n\
             pub async fn count(db: DbConn) -> u64 { Job::coll(db.clone()).count_documents(doc! { \"owner\": 1 }, None).await.unwrap() }\n",
        ),
        (
            "src/fishnet/api.rs",
            "use mongodb::bson::doc;\nuse super::model as m;\n\
             pub async fn assign(db: DbConn, key: &str) {\n    \
             let job_col = m::Job::coll(db.clone());\n    \
             job_col.find_one_and_update(doc! { \"owner\": null }, doc! { \"$set\": { \"owner\": key } }, None).await;\n    \
             m::Job::coll(db.clone()).delete_one(doc! { \"_id\": key }, None).await;\n    \
             m::Other::make(db).find_one(doc! { \"x\": 1 }, None).await;\n}\n",
        ),
    ];
    let m = map_of(&files);
    assert_only_collection(
        &m,
        "deepq_fishnetjobs",
        &[
            ("src/fishnet/api.rs", "delete_one"),
            ("src/fishnet/api.rs", "find_one_and_update"),
            ("src/fishnet/model.rs", "count_documents"),
        ],
    );
}

#[test]
fn python_members_of_another_module_s_database_by_any_name() {
    // YukkiMusicBot: `from YukkiMusic.core.mongo import pymongodb`, a database bound in both
    // branches of an `if` there, and `pymongodb.sudoers.find_one(..)` here; a name of a module
    // not named for the database, or one that holds no database, names no collection.
    let files = [
        (
            "app/core/mongo.py",
            "from pymongo import MongoClient\nimport config\n\
             if config.URI is None:\n    _sync = MongoClient(\"mongodb://x\")\n    pymongodb = _sync[config.NAME]\n\
             else:\n    _sync = MongoClient(config.URI)\n    pymongodb = _sync.Yukki\n\
             settings = {\"a\": 1}\n",
        ),
        (
            "app/misc.py",
            "from app.core.mongo import pymongodb, settings\n\
             def sudo(user_id):\n    \
             sudoersdb = pymongodb.sudoers\n    \
             sudoers = sudoersdb.find_one({\"sudo\": \"sudo\"})\n    \
             sudoersdb.update_one({\"sudo\": \"sudo\"}, {\"$set\": {\"sudoers\": sudoers}}, upsert=True)\n    \
             settings.other.find_one({\"a\": 1})\n",
        ),
    ];
    let m = map_of(&files);
    assert_only_collection(
        &m,
        "sudoers",
        &[("app/misc.py", "find_one"), ("app/misc.py", "update_one")],
    );
}

#[test]
fn javascript_legacy_collection_callbacks_name_their_collection() {
    // pa11y-webservice's models: `db.collection('results', (err, collection) => ..)`, with or
    // without options before the callback; the callback of another function names nothing.
    let files = [(
        "model/result.js",
        "const { MongoClient } = require('mongodb');\n\
         module.exports = function ({ db }, done) {\n  \
         db.collection('results', async (err, collection) => {\n    \
         await collection.createIndex({ date: 1 });\n    \
         done(err, { removeForTask(task) { return collection.deleteMany({ task }); } });\n  \
         });\n  \
         db.collection('tasks', {}, function (err, tasks) { tasks.find({ name: 'x' }); });\n  \
         other('results', (err, x) => { x.find({ a: 1 }); });\n\
         };\n",
    )];
    let m = map_of(&files);
    assert_eq!(collection_names(&m), vec!["results", "tasks"]);
    assert_eq!(
        sites(collection(&m, "tasks")),
        vec![("model/result.js".to_string(), "find".to_string())]
    );
    let out = concise_check(&files);
    assert!(
        out.contains("model/result.js:5:")
            && out.contains("`deleteMany` on `results` filters by `task`"),
        "{out}"
    );
}

#[test]
fn python_a_function_of_a_submodule_reached_through_its_package() {
    // picoCTF's `import api` .. `db = api.db.get_conn()`: the function `get_conn` of `api/db.py`,
    // which returns the database, not a method of a database named `db`; a function of another
    // submodule that returns no database names nothing.
    let files = [
        (
            "api/db.py",
            "from pymongo import MongoClient\n\
             __connection = None\n\
             def get_conn():\n    \
             global __connection\n    \
             __connection = MongoClient()[\"pico\"]\n    \
             return __connection\n",
        ),
        (
            "api/util.py",
            "def get_settings():\n    return {\"a\": 1}\n",
        ),
        (
            "api/token.py",
            "import api\n\
             def find_key(key):\n    \
             db = api.db.get_conn()\n    \
             return db.tokens.find_one({\"key\": key})\n\
             def other():\n    \
             s = api.util.get_settings()\n    \
             return s.things.find_one({\"a\": 1})\n",
        ),
    ];
    let m = map_of(&files);
    assert_only_collection(&m, "tokens", &[("api/token.py", "find_one")]);
}

#[test]
fn javascript_bulk_builders_queue_operations_on_their_collection() {
    // NodeBB's key-value store: `const bulk = coll.initializeUnorderedBulkOp()`, then
    // `bulk.find(q).upsert().updateOne(u)` per key and one `bulk.execute()`. The queued writes
    // are the collection's (one round trip, so no query-in-loop); a bulk of nothing known names
    // nothing.
    let files = [(
        "src/database/sets.js",
        "module.exports = function (module) {\n  \
         module.setsAdd = async function (keys, value) {\n    \
         const bulk = module.client.collection('objects').initializeUnorderedBulkOp();\n    \
         keys.forEach((k) => {\n      \
         bulk.find({ _key: k }).upsert().updateOne({ $addToSet: { members: { $each: value } } });\n    \
         });\n    \
         await bulk.execute();\n  \
         };\n  \
         module.other = async function (ops, keys) {\n    \
         const b = ops.initializeUnorderedBulkOp();\n    \
         keys.forEach((k) => b.find({ _key: k }).upsert().updateOne({ $set: { v: 1 } }));\n  \
         };\n\
         };\n",
    )];
    let m = map_of(&files);
    assert_only_collection(&m, "objects", &[("src/database/sets.js", "updateOne")]);
    let out = concise_check(&files);
    assert!(out.contains("grows array `members` in `objects`"), "{out}");
    // Per item of a query's results: queued, one round trip; the same write sent by itself is
    // one per item.
    let per_user = |write: &str| {
        format!(
            "const {{ MongoClient }} = require('mongodb');\n\
             async function touch(db) {{\n  \
             const users = await db.collection('users').find({{ active: true }}).toArray();\n  \
             const bulk = db.collection('seen').initializeOrderedBulkOp();\n  \
             for (const u of users) {{\n    {write}({{ user: u._id }}).upsert().updateOne({{ $set: {{ at: 1 }} }});\n  }}\n  \
             await bulk.execute();\n\
             }}\n"
        )
    };
    let queued = concise_check(&[("src/touch.js", &per_user("bulk.find"))]);
    assert!(!queued.contains("query-in-loop"), "{queued}");
    let sent = per_user("db.collection('seen').updateOne").replace(
        "}).upsert().updateOne({ $set: { at: 1 } });",
        "}, { $set: { at: 1 } });",
    );
    let sent = concise_check(&[("src/touch.js", &sent)]);
    assert!(sent.contains("query-in-loop"), "{sent}");
}

#[test]
fn python_database_kept_by_a_base_class_of_another_module() {
    // INGInious's task dispensers: the base class keeps `self._database`, a subclass in another
    // module reads `self._database.user_tasks` with no other word of MongoDB in its file. (A
    // driver filter makes the `find` a driver call; `self._course.tasks.count()` is no operation.)
    let files = [
        (
            "app/app.py",
            "from pymongo import MongoClient\nfrom app.dispensers.toc import TableOfContents\n\
             db = MongoClient().inginious\ndispenser = TableOfContents(db, None)\n",
        ),
        (
            "app/dispensers/__init__.py",
            "class TaskDispenser:\n    def __init__(self, database, course):\n        \
             self._database = database\n        self._course = course\n",
        ),
        (
            "app/dispensers/toc.py",
            "from app.dispensers import TaskDispenser\n\
             class TableOfContents(TaskDispenser):\n    \
             def grades(self, usernames):\n        \
             return list(self._database.user_tasks.find({\"username\": {\"$in\": usernames}}))\n    \
             def size(self):\n        return self._course.tasks.count()\n",
        ),
    ];
    let m = map_of(&files);
    assert_only_collection(&m, "user_tasks", &[("app/dispensers/toc.py", "find")]);
}

#[test]
fn rust_collection_named_by_a_static_in_a_file_that_only_uses_doc() {
    // revolt's database models: `doc!` comes from `#[macro_use] extern crate bson;` in the crate
    // root, so a model file may name neither `mongodb` nor `bson`; its `static COL` still names
    // the collection its `self.col::<T>(COL)` opens.
    let files = [
        (
            "crates/database/src/lib.rs",
            "#[macro_use]\nextern crate bson;\npub mod drivers;\npub mod models;\n",
        ),
        (
            "crates/database/src/drivers/mongodb.rs",
            "pub struct MongoDb(pub ::mongodb::Client, pub String);\n\
             impl MongoDb {\n    \
             pub fn col<T: Send + Sync>(&self, collection: &str) -> mongodb::Collection<T> {\n        \
             self.0.database(&self.1).collection(collection)\n    }\n}\n",
        ),
        (
            "crates/database/src/models/ratelimit_events/ops/mongodb.rs",
            "use crate::{MongoDb, RatelimitEvent};\n\
             static COL: &str = \"ratelimit_events\";\n\
             impl AbstractRatelimitEvents for MongoDb {\n    \
             async fn has_ratelimited(&self, target_id: &str) -> Result<bool> {\n        \
             let n = self.col::<RatelimitEvent>(COL).count_documents(doc! { \"target_id\": target_id }).await?;\n        \
             Ok(n > 5)\n    }\n}\n",
        ),
    ];
    let m = map_of(&files);
    assert_only_collection(
        &m,
        "ratelimit_events",
        &[(
            "crates/database/src/models/ratelimit_events/ops/mongodb.rs",
            "count_documents",
        )],
    );
}

/// A count on a member the code sets to a collection (`db.products = db.collection("products")`
/// then `db.products.countDocuments(q)`, expressCart's; erxes' `models.Products.countDocuments(q)`)
/// is an operation on it, as its other methods are, not a modifier of a query; a count chained on
/// a query is that query.
#[test]
fn a_count_on_a_member_set_to_a_collection_is_an_operation() {
    let m = map_of(&[(
        "routes.js",
        "async function f(client, req) {\n\
         \x20 const db = client.db('x');\n\
         \x20 db.products = db.collection('products');\n\
         \x20 const n = await db.products.countDocuments({ sku: req.body.sku });\n\
         \x20 const old = await db.products.count({ sku: req.body.old });\n\
         \x20 const page = await db.products.find({ sku: req.body.sku }).count();\n\
         \x20 return [n, old, page];\n\
         }\n\
         module.exports = { f };\n",
    )]);
    assert_only_collection(
        &m,
        "products",
        &[
            ("routes.js", "count"),
            ("routes.js", "countDocuments"),
            ("routes.js", "find"),
        ],
    );
    assert_eq!(operation_kinds(collection(&m, "products")), vec!["count"]);
}

/// A member a class sets in a method written after the ones that read it (agenda's job
/// repository: `async connect() { this.collection = db.collection("agendaJobs") }` near the end
/// of the class) is that collection in every method: methods run after the instance is set up,
/// whatever their order in the file. A member the class sets to two collections stays unnamed
/// where no assignment precedes the read.
#[test]
fn a_member_set_in_a_later_method_names_the_earlier_methods_operations() {
    let m = map_of(&[(
        "repo.ts",
        "import { Collection, Db } from 'mongodb';\n\
         export class JobRepository {\n\
         \x20 private collection!: Collection<any>;\n\
         \x20 private other: Collection<any> | null = null;\n\
         \x20 constructor(private db: Db) {}\n\
         \x20 async getJobs(name: string) { return this.collection.find({ name }).toArray(); }\n\
         \x20 async getOther(name: string) { return this.other.findOne({ name }); }\n\
         \x20 async connect(): Promise<void> {\n\
         \x20   this.collection = this.db.collection('agendaJobs');\n\
         \x20   this.other = this.db.collection(process.env.A ? 'a' : 'b');\n\
         \x20   this.other = this.db.collection('c');\n\
         \x20 }\n\
         \x20 async getLater(name: string) { return this.collection.findOne({ name }); }\n\
         }\n",
    )]);
    assert_eq!(
        sites(collection(&m, "agendaJobs")),
        vec![
            ("repo.ts".to_string(), "find".to_string()),
            ("repo.ts".to_string(), "findOne".to_string())
        ]
    );
    // (`c` is named, by its last assignment, but operated on nowhere.)
    assert_eq!(collection_names(&m), vec!["agendaJobs", "c"]);
    assert!(sites(collection(&m, "c")).is_empty());
    assert_eq!(m["unresolved"]["operations"].as_array().unwrap().len(), 1);
}

/// A Mongoose document made in the code and saved (`new Message(data).save()`, or held in a name
/// and saved once: lets-chat's messages, nodeclub's replies) is an insert into its model's
/// collection, as `Message.create(data)` is, with the model imported too; a later save of the same
/// document is not another insert, and a class of the file that is no model inserts nothing.
#[test]
fn a_new_document_saved_is_an_insert() {
    let m = map_of(&[
        (
            "models/message.js",
            "const mongoose = require('mongoose');\n\
             module.exports = mongoose.model('Message', new mongoose.Schema({ room: String }));\n",
        ),
        (
            "core/messages.js",
            "const Message = require('../models/message');\n\
             class Draft { save() {} }\n\
             async function post(room) {\n\
             \x20 await new Message({ room }).save();\n\
             \x20 const m = new Message({ room });\n\
             \x20 await m.save();\n\
             \x20 m.room = 'x';\n\
             \x20 await m.save();\n\
             \x20 await new Draft().save();\n\
             \x20 return Message.findOne({ room });\n\
             }\n\
             module.exports = { post };\n",
        ),
    ]);
    assert_only_collection(
        &m,
        "messages",
        &[
            ("core/messages.js", "findOne"),
            ("core/messages.js", "save"),
            ("core/messages.js", "save"),
        ],
    );
    assert_eq!(
        operation_kinds(collection(&m, "messages")),
        vec!["find-one", "insert"]
    );
    let lines: Vec<u64> = collection(&m, "messages")["operations"][1]["sites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, vec![4, 6]);
}

/// A document that a function of another module loads and returns (`return Topic.findById(id)`)
/// or hands to its callback (`Topic.findOne({ _id: id }, callback)`, nodeclub's proxies) is a
/// document of that model where it is held: a counter bumped on it and saved is a per-event
/// counter, and an array pushed to and saved grows unbounded. A function of that module that
/// loads no document (a count) gives none.
#[test]
fn a_document_loaded_by_a_function_of_another_module_is_its_models() {
    let files = [
        (
            "models/topic.js",
            "const mongoose = require('mongoose');\n\
             exports.Topic = mongoose.model('Topic', new mongoose.Schema({ title: String }));\n",
        ),
        (
            "proxy/topic.js",
            "const { Topic } = require('../models/topic');\n\
             exports.getTopicById = function (id, callback) {\n\
             \x20 Topic.findOne({ _id: id }, callback);\n\
             };\n\
             exports.byId = async (id) => {\n\
             \x20 return Topic.findById(id);\n\
             };\n\
             exports.count = async (title) => Topic.countDocuments({ title });\n",
        ),
        (
            "controllers/topic.js",
            "const mongoose = require('mongoose');\n\
             const TopicProxy = require('../proxy/topic');\n\
             const { byId, count } = require('../proxy/topic');\n\
             exports.show = function (req, res) {\n\
             \x20 TopicProxy.getTopicById(req.params.id, function (err, topic) {\n\
             \x20   topic.visit_count += 1;\n\
             \x20   topic.save();\n\
             \x20   res.json(topic);\n\
             \x20 });\n\
             };\n\
             exports.vote = async function (req, res) {\n\
             \x20 const topic = await byId(req.params.id);\n\
             \x20 topic.voters.push(req.user.id);\n\
             \x20 await topic.save();\n\
             \x20 const stats = await count(req.params.title);\n\
             \x20 stats.views += 1;\n\
             \x20 await stats.save();\n\
             };\n",
        ),
    ];
    let out = concise_check(&files);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with("controllers/topic.js:6:")
            && lines[0].contains("info[counter-inc] per-event counter on `topics`: `visit_count`"),
        "{out}"
    );
    assert!(
        lines[1].starts_with("controllers/topic.js:13:")
            && lines[1].contains("[unbounded-push]")
            && lines[1].contains("`voters` in `topics`"),
        "{out}"
    );
}

/// A member the class sets to one name, or to a configured name with its default
/// (`this.collectionName = opts?.collectionName ?? 'agenda_logs'` in the constructor, agenda's
/// job logger), names the collection its methods open with it; set from a constructor
/// parameter alone, it names none.
#[test]
fn a_member_set_to_a_name_names_the_collection_opened_with_it() {
    let m = map_of(&[(
        "logger.ts",
        "import { Db } from 'mongodb';\n\
         export class JobLogger {\n\
         \x20 private collectionName: string;\n\
         \x20 constructor(private db: Db, opts?: { collectionName?: string }) {\n\
         \x20   this.collectionName = opts?.collectionName ?? 'agenda_logs';\n\
         \x20 }\n\
         \x20 async list(job: string) { return this.db.collection(this.collectionName).find({ job }).toArray(); }\n\
         }\n\
         export class Other {\n\
         \x20 constructor(private db: Db, private name: string) { this.coll = name; }\n\
         \x20 async one(id: string) { return this.db.collection(this.coll).findOne({ id }); }\n\
         }\n",
    )]);
    assert_only_collection(&m, "agenda_logs", &[("logger.ts", "find")]);
    assert_eq!(m["unresolved"]["operations"].as_array().unwrap().len(), 1);
}
