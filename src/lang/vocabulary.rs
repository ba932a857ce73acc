//! The driver vocabulary shared by the frontends and the prefilter. The prefilter's automaton is
//! built from these same tables, so a word the extractors react to can never be missing from it.

use crate::ir::OpKind;

/// How a method lays out its arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Args {
    /// `(filter, options)`; Mongoose reads: `(filter, projection, options)`.
    FilterOptions,
    /// `(filter, update, options)`.
    FilterUpdate,
    /// `(id, update, options)`: Mongoose `findByIdAndUpdate`.
    IdUpdate,
    /// `(id, projection, options)`: Mongoose `findById`.
    Id,
    /// `(doc)` or `([docs])`.
    Documents,
    /// `(pipeline, options)`.
    Pipeline,
    /// `([ {updateOne: {...}}, ... ])`.
    Bulk,
    /// `(keys, options)` or `([{key, ...}])`.
    Index,
    /// `(field, filter, options)`.
    Distinct,
    /// `({query, update, ...})`: mongosh `findAndModify`.
    FindAndModify,
    /// Nothing the rules read.
    Opaque,
}

/// A collection (or model) method that is an operation.
pub struct OpMethod {
    pub name: &'static str,
    pub kind: OpKind,
    pub args: Args,
    /// Only MongoDB drivers and ODMs spell a method this way: the name alone is evidence.
    pub driver_only: bool,
}

const fn op(name: &'static str, kind: OpKind, args: Args, driver_only: bool) -> OpMethod {
    OpMethod {
        name,
        kind,
        args,
        driver_only,
    }
}

/// JavaScript/TypeScript: the Node driver, Mongoose models and mongosh, in one table.
pub const JS_OPERATIONS: &[OpMethod] = &[
    op("find", OpKind::Find, Args::FilterOptions, false),
    op("findOne", OpKind::FindOne, Args::FilterOptions, false),
    op("findById", OpKind::FindOne, Args::Id, true),
    op("insertOne", OpKind::Insert, Args::Documents, true),
    op("insertMany", OpKind::Insert, Args::Documents, true),
    op("insert", OpKind::Insert, Args::Documents, false),
    op("create", OpKind::Insert, Args::Documents, false),
    op("updateOne", OpKind::UpdateOne, Args::FilterUpdate, true),
    op("updateMany", OpKind::UpdateMany, Args::FilterUpdate, true),
    op("update", OpKind::UpdateOne, Args::FilterUpdate, false),
    op(
        "findOneAndUpdate",
        OpKind::FindOneAndUpdate,
        Args::FilterUpdate,
        true,
    ),
    op(
        "findByIdAndUpdate",
        OpKind::FindOneAndUpdate,
        Args::IdUpdate,
        true,
    ),
    op(
        "findAndModify",
        OpKind::FindOneAndUpdate,
        Args::FindAndModify,
        true,
    ),
    op("replaceOne", OpKind::Replace, Args::FilterUpdate, true),
    op(
        "findOneAndReplace",
        OpKind::Replace,
        Args::FilterUpdate,
        true,
    ),
    op("deleteOne", OpKind::Delete, Args::FilterOptions, true),
    op("deleteMany", OpKind::Delete, Args::FilterOptions, true),
    op(
        "findOneAndDelete",
        OpKind::Delete,
        Args::FilterOptions,
        true,
    ),
    op("findByIdAndDelete", OpKind::Delete, Args::Id, true),
    op("findByIdAndRemove", OpKind::Delete, Args::Id, true),
    op(
        "findOneAndRemove",
        OpKind::Delete,
        Args::FilterOptions,
        true,
    ),
    op("remove", OpKind::Delete, Args::FilterOptions, false),
    op("aggregate", OpKind::Aggregate, Args::Pipeline, false),
    op("bulkWrite", OpKind::Other, Args::Bulk, true),
    op("countDocuments", OpKind::Count, Args::FilterOptions, true),
    op("estimatedDocumentCount", OpKind::Count, Args::Opaque, true),
    op("count", OpKind::Count, Args::FilterOptions, false),
    op("exists", OpKind::FindOne, Args::FilterOptions, false),
    // mongoose-paginate(-v2)'s `Model.paginate(filter, {page, limit, sort})`: a find (and a count)
    // whose `page` or `offset` option the plugin turns into a skip (see the JavaScript frontend).
    op("paginate", OpKind::Find, Args::FilterOptions, false),
    op("distinct", OpKind::Distinct, Args::Distinct, false),
    op("createIndex", OpKind::CreateIndex, Args::Index, true),
    op("createIndexes", OpKind::CreateIndex, Args::Index, true),
    op("ensureIndex", OpKind::CreateIndex, Args::Index, true),
    op("dropIndex", OpKind::DropIndex, Args::Index, true),
    op("watch", OpKind::Other, Args::Pipeline, false),
    // Meteor's collections: `upsert`, and the `*Async` methods of Meteor 3 (the others keep
    // the Node driver's names above: `find`, `findOne`, `insert`, `update`, `remove`).
    op("upsert", OpKind::UpdateOne, Args::FilterUpdate, false),
    op("findOneAsync", OpKind::FindOne, Args::FilterOptions, false),
    op("insertAsync", OpKind::Insert, Args::Documents, false),
    op("updateAsync", OpKind::UpdateOne, Args::FilterUpdate, false),
    op("upsertAsync", OpKind::UpdateOne, Args::FilterUpdate, false),
    op("removeAsync", OpKind::Delete, Args::FilterOptions, false),
    op("createIndexAsync", OpKind::CreateIndex, Args::Index, true),
    // Meteor's older server API: `Votes._ensureIndex({userId: 1, documentId: 1})` (Vulcan,
    // Telescope). Not driver-only: as a word that makes a file parsed on its own, it cost 29.5 M
    // instructions on the 1M-line repository of bench/ (0.7%: it moved the JavaScript words'
    // split into the prefilter's SIMD groups, session 51). So it is read in a file that names
    // Mongo (`new Mongo.Collection(..)`, `meteor/mongo`), not in one that only imports the
    // collection (Vulcan's `indexes.js`).
    op("_ensureIndex", OpKind::CreateIndex, Args::Index, false),
];

/// The options of MongoDB's `createIndex` (and of an index specification), as the drivers and
/// Mongoose spell them.
pub const INDEX_OPTIONS: &[&str] = &[
    "name",
    "unique",
    "sparse",
    "background",
    "expireAfterSeconds",
    "expires",
    "partialFilterExpression",
    "collation",
    "hidden",
    "weights",
    "default_language",
    "language_override",
    "textIndexVersion",
    "2dsphereIndexVersion",
    "bits",
    "min",
    "max",
    "bucketSize",
    "wildcardProjection",
    "storageEngine",
    "commitQuorum",
    "session",
    "maxTimeMS",
    "comment",
    "writeConcern",
    "dropDups",
    "v",
    "version",
    "key",
];

pub fn js_operation(name: &str) -> Option<&'static OpMethod> {
    JS_OPERATIONS.iter().find(|m| m.name == name)
}

/// Calls that name a collection or a model: `db.collection(..)`, `db.getCollection(..)`, `mongoose.model(..)`.
pub const JS_COLLECTION_GETTERS: &[&str] = &["collection", "getCollection", "model"];

/// Modifiers that make a JavaScript call on an unknown receiver a driver call by its shape:
/// `x.find(q).toArray()`, Mongoose's `.populate(..)` and `.lean()` (and `skip`, on a read). The
/// frontend tests these; the prefilter takes each for a hint, so that a file the frontend would
/// read by them is parsed.
pub const JS_SHAPING_MODIFIERS: &[&str] = &["toArray", "populate", "lean"];

/// Python's: Motor's `.to_list(n)` (and `skip`, on a read).
pub const PY_SHAPING_MODIFIERS: &[&str] = &["to_list"];

/// Cursor and query modifiers chained onto a read, in any language's spelling.
pub const MODIFIERS: &[&str] = &[
    "sort",
    "skip",
    "limit",
    "project",
    "projection",
    "select",
    "populate",
    "lean",
    "hint",
    "batchSize",
    "collation",
    "maxTimeMS",
    "allowDiskUse",
    "comment",
    "where",
    "exec",
    "toArray",
    "then",
    "cursor",
    "session",
    // Mongoose's read preference and options: `Model.find(q).read("secondaryPreferred").skip(n)`
    // (novu's repositories) reads through them.
    "read",
    "readConcern",
    "setOptions",
    "orFail",
    // Its query builder's conditions (`Page.find(q).and({..}).skip(n)`, crowi's page list;
    // `User.findOne(q).where("expires").gt(now).exec()`): see `CONDITION_MODIFIERS`.
    "and",
    "or",
    "nor",
    "equals",
    "gt",
    "gte",
    "lt",
    "lte",
    "in",
    "nin",
    "ne",
    "countDocuments",
    "count",
    "next",
    "forEach",
    "map",
    "stream",
    // Meteor's cursors: `Boards.find(q).fetch()`, and Meteor 3's `fetchAsync()`, `countAsync()`.
    "fetch",
    "fetchAsync",
    "countAsync",
    "forEachAsync",
    "mapAsync",
];

/// The modifiers that add conditions to a query's filter (Mongoose's `.where(..)`, `.and(..)`,
/// `.or(..)`, `.nor(..)`, `.where("f").equals(v)`, `.where("f").gt(v)`; pymongo's
/// `cursor.where(js)`): the access model reads a field's condition the builder spells out
/// (`.where("f")` and a comparison, `.where("f", v)`, `.where({..})`: see
/// `model::builder_condition`), and takes a filter given any other for a filter it cannot read
/// whole. Each is in [`MODIFIERS`] (or [`PY_MODIFIERS`]), so that a chain reads through it.
pub const CONDITION_MODIFIERS: &[&str] = &[
    "where", "and", "or", "nor", "equals", "gt", "gte", "lt", "lte", "in", "nin", "ne",
];

/// Mongoose's query builder's comparisons of the field `.where("f")` names: `.gt(v)` is
/// `{f: {$gt: v}}`, `.equals(v)` is `{f: v}`.
pub const BUILDER_COMPARISONS: &[&str] = &["equals", "gt", "gte", "lt", "lte", "in", "nin", "ne"];

/// Mongoose's aggregate builder methods: `Model.aggregate().match(..).lookup(..)` → `$match`, `$lookup`.
pub const AGGREGATE_BUILDER_STAGES: &[&str] = &[
    "match",
    "lookup",
    "group",
    "project",
    "sort",
    "skip",
    "limit",
    "unwind",
    "facet",
    "addFields",
    "replaceRoot",
    "count",
    "sample",
    "graphLookup",
    "unionWith",
    "search",
];

/// Operator keys the rules look at; any of them in a file makes it worth parsing.
pub const TRIGGER_OPERATORS: &[&str] = &["$push", "$addToSet", "$inc", "$lookup", "$skip"];

/// Module names whose import marks a file as using MongoDB.
pub const JS_MONGO_MODULES: &[&str] = &[
    "mongodb",
    "mongoose",
    "mongodb-memory-server",
    "monk",
    "mongojs",
];

/// Module names whose import marks a file as using Firestore (whose `db.collection(..)` is not MongoDB's).
/// Clients of other databases (SQL, CouchDB, DynamoDB, and the stores in memory or in a file that
/// copy MongoDB's API: MarsDB, NeDB, LokiJS) whose objects have methods named like a collection's
/// (`find`, `deleteMany`, `update`): in a file that imports one and no MongoDB module, a call on a
/// receiver the frontend cannot name is that database's (Huly's `PostgresDbCollection`), and an
/// object made with one of their constructors (`new MarsDB.Collection('posts')`, `new
/// Datastore(..)`) is not a MongoDB collection, here or in a module that imports it (juice-shop's
/// `data/mongodb.ts`). Matched as the whole specifier or its package part.
pub const JS_OTHER_DATABASE_MODULES: &[&str] = &[
    "pg",
    "postgres",
    "pg-promise",
    "@neondatabase/serverless",
    "@vercel/postgres",
    "slonik",
    "mysql",
    "mysql2",
    "mssql",
    "oracledb",
    "sqlite3",
    "better-sqlite3",
    "sql.js",
    "knex",
    "sequelize",
    "typeorm",
    "@prisma/client",
    "drizzle-orm",
    "kysely",
    "objection",
    "pouchdb",
    "nano",
    "couchbase",
    "dynamoose",
    "@aws-sdk/client-dynamodb",
    "@aws-sdk/lib-dynamodb",
    "marsdb",
    "nedb",
    "@seald-io/nedb",
    "nedb-promises",
    "lokijs",
];

pub const JS_FIRESTORE_MODULES: &[&str] = &[
    "firebase",
    "firebase-admin",
    "@google-cloud/firestore",
    "firebase/firestore",
    "firebase-admin/firestore",
    "@firebase/firestore",
];

// ---------------------------------------------------------------- Python
// pymongo (sync and async), motor and mongoengine. Nothing above this line is Python-specific.

/// Python: pymongo / motor collection methods and the mongoengine QuerySet update methods.
pub const PY_OPERATIONS: &[OpMethod] = &[
    op("find", OpKind::Find, Args::FilterOptions, false),
    op("find_one", OpKind::FindOne, Args::FilterOptions, true),
    op("find_raw_batches", OpKind::Find, Args::FilterOptions, true),
    op("insert_one", OpKind::Insert, Args::Documents, true),
    op("insert_many", OpKind::Insert, Args::Documents, true),
    op("insert", OpKind::Insert, Args::Documents, false),
    op("update_one", OpKind::UpdateOne, Args::FilterUpdate, true),
    op("update_many", OpKind::UpdateMany, Args::FilterUpdate, true),
    op("update", OpKind::UpdateOne, Args::FilterUpdate, false),
    op(
        "find_one_and_update",
        OpKind::FindOneAndUpdate,
        Args::FilterUpdate,
        true,
    ),
    op(
        "find_and_modify",
        OpKind::FindOneAndUpdate,
        Args::FilterUpdate,
        true,
    ),
    op("replace_one", OpKind::Replace, Args::FilterUpdate, true),
    op(
        "find_one_and_replace",
        OpKind::Replace,
        Args::FilterUpdate,
        true,
    ),
    op("delete_one", OpKind::Delete, Args::FilterOptions, true),
    op("delete_many", OpKind::Delete, Args::FilterOptions, true),
    op(
        "find_one_and_delete",
        OpKind::Delete,
        Args::FilterOptions,
        true,
    ),
    op("remove", OpKind::Delete, Args::FilterOptions, false),
    // pymongo 3's `save(doc)` (removed in 4): a replacement by the document's `_id`, or an
    // insert.
    op("save", OpKind::Replace, Args::Documents, false),
    op("aggregate", OpKind::Aggregate, Args::Pipeline, false),
    op(
        "aggregate_raw_batches",
        OpKind::Aggregate,
        Args::Pipeline,
        true,
    ),
    op("bulk_write", OpKind::Other, Args::Bulk, true),
    op("count_documents", OpKind::Count, Args::FilterOptions, true),
    op(
        "estimated_document_count",
        OpKind::Count,
        Args::Opaque,
        true,
    ),
    op("count", OpKind::Count, Args::FilterOptions, false),
    op("distinct", OpKind::Distinct, Args::Distinct, false),
    op("create_index", OpKind::CreateIndex, Args::Index, true),
    op("create_indexes", OpKind::CreateIndex, Args::Index, true),
    op("ensure_index", OpKind::CreateIndex, Args::Index, true),
    op("drop_index", OpKind::DropIndex, Args::Index, true),
    op("watch", OpKind::Other, Args::Pipeline, false),
    // mongoengine: `Model.objects(..).modify(push__x=..)`, `.upsert_one(..)`.
    op(
        "modify",
        OpKind::FindOneAndUpdate,
        Args::FilterUpdate,
        false,
    ),
    op("upsert_one", OpKind::UpdateOne, Args::FilterUpdate, false),
];

/// A mongoengine document's own `delete()` (`for rule in Rule.objects(..): rule.delete()`): an
/// operation only on a document the frontend knows is one, since Django's models spell it the
/// same.
pub const PY_DOCUMENT_DELETE: OpMethod = op("delete", OpKind::Delete, Args::Opaque, false);

pub fn py_operation(name: &str) -> Option<&'static OpMethod> {
    PY_OPERATIONS.iter().find(|m| m.name == name)
}

/// Calls that name a database or a collection: `client.get_database(..)`, `db.get_collection(..)`.
pub const PY_COLLECTION_GETTERS: &[&str] =
    &["get_collection", "get_database", "get_default_database"];

/// Client classes: `MongoClient(..)`, `AsyncIOMotorClient(..)`.
pub const PY_CLIENT_CLASSES: &[&str] = &[
    "MongoClient",
    "AsyncMongoClient",
    "AsyncIOMotorClient",
    "MotorClient",
    "MongoReplicaSetClient",
];

/// Type names of a database object, as annotated on parameters and attributes.
/// `Database` alone counts only when imported from pymongo or motor.
pub const PY_DATABASE_TYPES: &[&str] = &[
    "AsyncIOMotorDatabase",
    "MotorDatabase",
    "AgnosticDatabase",
    "AsyncDatabase",
];

/// Type names of a collection object. `Collection` alone counts only when imported from pymongo or motor
/// (`typing.Collection` is something else).
pub const PY_COLLECTION_TYPES: &[&str] = &[
    "AsyncIOMotorCollection",
    "MotorCollection",
    "AgnosticCollection",
    "AsyncCollection",
];

/// `bulk_write` request models: `UpdateOne(filter, update)`, ...
pub const PY_BULK_MODELS: &[&str] = &[
    "UpdateOne",
    "UpdateMany",
    "InsertOne",
    "ReplaceOne",
    "DeleteOne",
    "DeleteMany",
];

/// The index model class: `IndexModel([("a", 1)], unique=True)`.
pub const PY_INDEX_MODEL: &str = "IndexModel";

/// Cursor methods chained onto a read (`coll.find(q).sort(..).skip(n).limit(m)`).
pub const PY_MODIFIERS: &[&str] = &[
    "sort",
    "skip",
    "limit",
    "batch_size",
    "hint",
    "max_time_ms",
    "collation",
    "comment",
    "allow_disk_use",
    "where",
    "to_list",
    "max_await_time_ms",
    "rewind",
    "clone",
    "with_options",
];

/// mongoengine QuerySet methods that refine a query; `order_by` is a sort, `only` a projection.
pub const PY_QUERYSET_METHODS: &[&str] = &[
    "filter",
    "order_by",
    "only",
    "exclude",
    "all",
    "no_dereference",
    "select_related",
    "no_cache",
    "timeout",
    "read_preference",
    "fields",
    "using",
    "scalar",
    "values_list",
];

/// mongoengine update keyword prefixes (`push__comments=c`) and the operator each sends.
pub const PY_MONGOENGINE_UPDATE_PREFIXES: &[(&str, &str)] = &[
    ("push__", "$push"),
    ("push_all__", "$push"),
    ("add_to_set__", "$addToSet"),
    ("inc__", "$inc"),
    ("dec__", "$inc"),
    ("set__", "$set"),
    ("unset__", "$unset"),
    ("set_on_insert__", "$setOnInsert"),
    ("pull__", "$pull"),
    ("pull_all__", "$pullAll"),
    ("pop__", "$pop"),
    ("max__", "$max"),
    ("min__", "$min"),
    ("mul__", "$mul"),
    ("rename__", "$rename"),
];

/// mongoengine Document base classes (a subclass is a model with its own collection).
pub const PY_MONGOENGINE_DOCUMENTS: &[&str] = &["Document", "DynamicDocument"];

/// Module path segments whose import marks a Python file as using MongoDB.
pub const PY_MONGO_MODULES: &[&str] = &[
    "pymongo",
    "motor",
    "motor_asyncio",
    "mongoengine",
    "flask_mongoengine",
    "flask_pymongo",
    "bson",
    "beanie",
    "odmantic",
    "mongomock",
    "mongo",
];

/// Where a prefilter word must stand for its match to count. The automaton finds the words
/// anywhere; this context, checked around each match, drops the matches inside longer words
/// (`models`, `skipped`, `mydb.`) that made most parsed files useless on real code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WordContext {
    /// Anywhere, even inside a longer word: module names (`pymongo`, `@nestjs/mongoose`).
    Anywhere,
    /// An operator key (`$push`, `"$lookup"`): not followed by an identifier character
    /// (`$includeStory` is a GraphQL variable, `$skipped` a template's).
    Operator,
    /// A whole identifier: not preceded or followed by an identifier character.
    Identifier,
    /// The start of an identifier or token: `push__comments=`, `doc!`, `db[`.
    IdentifierStart,
    /// A called name: a whole identifier followed by `(`, `<` (a generic) or `::<` (a turbofish);
    /// or, only as a hint, a module path segment (`'../models/User'`: the models a file imports).
    Call,
    /// `skip` (and `populate`) as a whole identifier where a frontend reads one: a method call not
    /// given a literal number (`.skip(n)`; `.skip(1)` is an iterator's or a literal skip, never a
    /// finding), an options key (`{ skip: n }`, `"skip": n`, `skip: Some(n)`), a Python keyword
    /// argument (`skip=n`) or a shorthand property inside braces (`{ skip, limit }`).
    Skip,
    /// `db.` followed by an attribute (`db.orders.find`, `f(db.users)`): mongosh and pymongo
    /// attribute access, or a collection method (`x.db.find(..)`); a call of any other method
    /// (`db.getObject(..)` of a key-value wrapper) is only a confirmation.
    DbAttribute,
    /// JavaScript's `db.`: as [`WordContext::DbAttribute`], but `db.users` passed as an argument
    /// (`addIndexes(db.users, ..)`) in a file that declares `db` (`const { db } = client`) is only
    /// a hint: the JavaScript frontend reads `db.users` as a collection only where `db` is
    /// mongosh's global.
    ShellDb,
    /// A whole identifier read as an attribute: `Post.objects`.
    Attribute,
    /// A called attribute: `.find(`, `\n  .aggregate<T>(`, `?.update(`; not a function of that
    /// name (`find(mongo, ..)`) nor a definition.
    MethodCall,
    /// A Rust options type (`FindOptions`): evidence in a file that spells `skip` (the frontend
    /// reads a builder or struct literal with a `skip` as a paged read), a hint otherwise.
    OptionBuilder,
    /// A mongoengine class's `meta = {..}` (or `dict(..)`): a whole identifier that opens an
    /// indented line and is assigned a dictionary.
    ClassMeta,
    /// A Python module name, anywhere; evidence inside the callee of a call the Python frontend
    /// takes for a client or a database (`MongoDB.get_client()`, `get_mongo_db()`).
    PyModule,
}

/// What a word's match, standing in its context, says about a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum WordRole {
    /// Counts only together with an [`WordRole::Evidence`] or [`WordRole::Hint`] match: a call of
    /// an operation name that arrays, ORMs and iterators share (`find(`, `aggregate(`,
    /// `update(`), and what declares a model or an index (`new Schema(`, `.index(`, `@Prop(`,
    /// `class X(Document)`, `objects`).
    Confirmation,
    /// A hint: a module name (`mongo` in `ctx.mongo`, `mongoengine`, `MongoDBAccess`), a models
    /// path segment, `skip`, `populate`. Alone it names no operation and no collection: such a
    /// file is parsed when it also holds a confirmation, or when a parsed file imports from it
    /// (`discover` defers it: it may re-export a model).
    Hint,
    /// Enough on its own: driver-only method names, collection getters called as methods,
    /// operator keys, client, index and bulk-model classes.
    Evidence,
}

/// A word of the prefilter, where it must stand and what its match says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrefilterWord {
    pub word: &'static str,
    pub context: WordContext,
    pub role: WordRole,
}

/// Module names whose mention anywhere marks a file (matched inside longer words).
const PREFILTER_MODULE_WORDS: &[&str] = &["mongo", "Mongo", "motor", "bson"];

/// Hints besides the module names: common words that a driver call needs, but that alone do not
/// make one.
const PREFILTER_HINT_WORDS: &[&str] = &["skip", "populate"];

fn word_context(word: &'static str) -> WordContext {
    let is_getter = JS_COLLECTION_GETTERS.contains(&word)
        || PY_COLLECTION_GETTERS.contains(&word)
        || RUST_COLLECTION_GETTERS.contains(&word);
    if is_getter {
        WordContext::Call
    } else if word == "skip" || word == "populate" {
        WordContext::Skip
    } else if word.ends_with('.') {
        WordContext::DbAttribute
    } else if word.starts_with('$') {
        WordContext::Operator
    } else if PREFILTER_MODULE_WORDS.contains(&word) {
        WordContext::Anywhere
    } else if word.ends_with(|c: char| !(c.is_ascii_alphanumeric())) {
        WordContext::IdentifierStart
    } else {
        WordContext::Identifier
    }
}

/// The words of the prefilter for one language family, each with the context it must stand in and
/// what its match says (see [`WordRole`]).
pub fn prefilter_words(lang: crate::ir::Language) -> Vec<PrefilterWord> {
    use crate::ir::Language::*;
    use WordContext::*;
    use WordRole::*;
    let mut words: Vec<PrefilterWord> = Vec::new();
    let mut add = |list: &mut dyn Iterator<Item = &'static str>,
                   context: Option<WordContext>,
                   role: WordRole| {
        for word in list {
            words.push(PrefilterWord {
                word,
                context: context.unwrap_or_else(|| word_context(word)),
                role,
            });
        }
    };
    let driver_only = |table: &'static [OpMethod]| {
        table
            .iter()
            .filter(|m| m.driver_only)
            .map(|m| m.name)
            .collect::<Vec<_>>()
    };
    // Operation names that arrays, ORMs and iterators share (`find`, `aggregate`, `update`):
    // confirmations, as method calls.
    let shared = |table: &'static [OpMethod]| {
        table
            .iter()
            .filter(|m| !m.driver_only)
            .map(|m| m.name)
            .collect::<Vec<_>>()
    };
    // The shaping modifiers not already hints (`populate` is, where a frontend reads one).
    let shaping = |table: &'static [&'static str]| {
        table
            .iter()
            .copied()
            .filter(|w| !PREFILTER_HINT_WORDS.contains(w))
            .collect::<Vec<_>>()
    };
    add(&mut TRIGGER_OPERATORS.iter().copied(), None, Evidence);
    add(&mut PREFILTER_HINT_WORDS.iter().copied(), None, Hint);
    match lang {
        JavaScript | TypeScript | Tsx => {
            add(&mut ["mongo", "Mongo"].into_iter(), None, Hint);
            // `models.Posts.findOne(..)`: a registry of models handed to the file (see the
            // JavaScript frontend's `registry_exports`), confirmed by the operation's call.
            add(&mut ["models."].into_iter(), Some(DbAttribute), Hint);
            add(
                &mut shaping(JS_SHAPING_MODIFIERS).into_iter(),
                Some(MethodCall),
                Hint,
            );
            add(&mut JS_COLLECTION_GETTERS.iter().copied(), None, Evidence);
            add(&mut driver_only(JS_OPERATIONS).into_iter(), None, Evidence);
            add(&mut ["db."].into_iter(), Some(ShellDb), Evidence);
            add(&mut ["db["].into_iter(), None, Evidence);
            add(
                &mut shared(JS_OPERATIONS).into_iter(),
                Some(MethodCall),
                Confirmation,
            );
            // What declares a Mongoose/NestJS model or an index: `new Schema(..)`,
            // `schema.index(..)`, `@Schema()`, `@Prop({ index: true })`,
            // `SchemaFactory.createForClass(..)`.
            add(
                &mut ["Schema", "Prop"].into_iter(),
                Some(Call),
                Confirmation,
            );
            add(&mut ["index"].into_iter(), Some(MethodCall), Confirmation);
            add(&mut ["SchemaFactory"].into_iter(), None, Confirmation);
            // Typegoose: a class made a model (`getModelForClass(Message)`), its fields' and its
            // own index decorators (`@prop({ index: true })`, `@index({ a: 1 })`) in a file that
            // imports `@typegoose/typegoose`.
            add(&mut ["typegoose"].into_iter(), Some(Anywhere), Hint);
            add(
                &mut ["getModelForClass", "prop", "index"].into_iter(),
                Some(Call),
                Confirmation,
            );
        }
        Rust => {
            add(&mut ["mongo", "Mongo"].into_iter(), None, Hint);
            add(&mut RUST_COLLECTION_GETTERS.iter().copied(), None, Evidence);
            add(
                &mut driver_only(RUST_OPERATIONS).into_iter(),
                None,
                Evidence,
            );
            add(&mut RUST_BULK_MODELS.iter().copied(), None, Evidence);
            add(&mut ["IndexModel"].into_iter(), None, Evidence);
            // `doc!{..}` builds a document for any call; the frontend reads it only as an
            // argument of an operation.
            add(
                &mut RUST_DOC_MACROS.iter().map(|m| match *m {
                    "doc" => "doc!",
                    _ => "bson!",
                }),
                None,
                Hint,
            );
            add(
                &mut RUST_OPTION_BUILDERS.iter().copied(),
                Some(OptionBuilder),
                Evidence,
            );
            add(
                &mut shared(RUST_OPERATIONS).into_iter(),
                Some(MethodCall),
                Confirmation,
            );
            // `db.run_command(doc! { "createIndexes": "users", .. })`: a file that declares its
            // indexes by command alone (the frontend reads index commands).
            add(
                &mut ["run_command"].into_iter(),
                Some(MethodCall),
                Confirmation,
            );
        }
        Python => {
            add(
                &mut ["mongo", "Mongo", "motor", "bson"].into_iter(),
                Some(PyModule),
                Hint,
            );
            add(
                &mut shaping(PY_SHAPING_MODIFIERS).into_iter(),
                Some(MethodCall),
                Hint,
            );
            add(&mut PY_COLLECTION_GETTERS.iter().copied(), None, Evidence);
            add(&mut PY_CLIENT_CLASSES.iter().copied(), None, Evidence);
            add(&mut PY_DATABASE_TYPES.iter().copied(), None, Evidence);
            add(&mut PY_COLLECTION_TYPES.iter().copied(), None, Evidence);
            add(&mut PY_BULK_MODELS.iter().copied(), None, Evidence);
            add(&mut [PY_INDEX_MODEL].into_iter(), None, Evidence);
            add(&mut driver_only(PY_OPERATIONS).into_iter(), None, Evidence);
            add(
                &mut PY_MONGOENGINE_UPDATE_PREFIXES.iter().map(|p| p.0),
                None,
                Evidence,
            );
            add(&mut ["db.", "db[", "database["].into_iter(), None, Evidence);
            add(
                &mut shared(PY_OPERATIONS).into_iter(),
                Some(MethodCall),
                Confirmation,
            );
            // The calls that page an unknown cursor (`.skip(n).limit(m)`), and mongoengine's
            // documents and querysets (`class Post(Document)`, `Post.objects(..)`).
            add(
                &mut ["limit", "sort"].into_iter(),
                Some(MethodCall),
                Confirmation,
            );
            // An application's collection getter (`conn.collection("transactions")`): the
            // frontend reads it in a file that uses MongoDB.
            add(
                &mut ["collection"].into_iter(),
                Some(MethodCall),
                Confirmation,
            );
            add(
                &mut PY_MONGOENGINE_DOCUMENTS.iter().copied(),
                None,
                Confirmation,
            );
            // `Post.objects(author=a)`: calling the manager is mongoengine's (Django's is not
            // callable), evidence; `Post.objects.filter(..)` only a confirmation (`standing`).
            add(&mut ["objects"].into_iter(), Some(Attribute), Evidence);
            // A document's `meta` (indexes, collection), whose class may be a document through a
            // base of another module (`class ActionDB(stormbase.StormFoundationDB)`).
            add(&mut ["meta"].into_iter(), Some(ClassMeta), Confirmation);
            // The other names the Python frontend takes for a database when imported
            // (`database.users`, `mdb["users"]`).
            add(
                &mut ["database.", "mongodb.", "mongo_db.", "mdb.", "_db."].into_iter(),
                None,
                Confirmation,
            );
            // The same as attributes (`self.database.users.find(..)`, `self._database.x`), looked
            // for in every file: with a collection and an operation after them, they are evidence
            // (`standing`).
            // (`mongodb.` and `mongo_db.` hold a hint of their own.) Not `database.` alone:
            // Python spells `data` everywhere (`dataclass`).
            add(
                &mut [".database.", "._database.", ".mdb.", "._db."].into_iter(),
                Some(DbAttribute),
                Confirmation,
            );
            add(
                &mut ["mongodb[", "mongo_db[", "mdb[", "_db["].into_iter(),
                None,
                Confirmation,
            );
        }
    }
    // One entry per word: the strongest role wins.
    words.sort_by(|a, b| a.word.cmp(b.word).then(b.role.cmp(&a.role)));
    words.dedup_by_key(|w| w.word);
    words
}

// ==================================================================== Rust (`mongodb` crate 2.x / 3.x)

/// Rust: collection methods of the `mongodb` crate. Arguments are positional in both APIs; 2.x adds
/// the options as a trailing argument, 3.x chains them (`.skip(n)`, `.with_options(..)`).
pub const RUST_OPERATIONS: &[OpMethod] = &[
    op("find", OpKind::Find, Args::FilterOptions, false),
    op("find_one", OpKind::FindOne, Args::FilterOptions, false),
    op("insert_one", OpKind::Insert, Args::Documents, true),
    op("insert_many", OpKind::Insert, Args::Documents, true),
    op("update_one", OpKind::UpdateOne, Args::FilterUpdate, true),
    op("update_many", OpKind::UpdateMany, Args::FilterUpdate, true),
    op("replace_one", OpKind::Replace, Args::FilterUpdate, true),
    op("delete_one", OpKind::Delete, Args::FilterOptions, true),
    op("delete_many", OpKind::Delete, Args::FilterOptions, true),
    op(
        "find_one_and_update",
        OpKind::FindOneAndUpdate,
        Args::FilterUpdate,
        true,
    ),
    op(
        "find_one_and_replace",
        OpKind::Replace,
        Args::FilterUpdate,
        true,
    ),
    op(
        "find_one_and_delete",
        OpKind::Delete,
        Args::FilterOptions,
        true,
    ),
    op("aggregate", OpKind::Aggregate, Args::Pipeline, false),
    op("count_documents", OpKind::Count, Args::FilterOptions, true),
    op(
        "estimated_document_count",
        OpKind::Count,
        Args::Opaque,
        true,
    ),
    op("distinct", OpKind::Distinct, Args::Distinct, false),
    op("create_index", OpKind::CreateIndex, Args::Index, true),
    op("create_indexes", OpKind::CreateIndex, Args::Index, true),
    op("drop_index", OpKind::DropIndex, Args::Index, true),
    op("watch", OpKind::Other, Args::Pipeline, false),
    // The 2.x driver's explicit-session forms, the session last (`coll.update_one_with_session(
    // filter, update, options, session)`); 3.x chains `.session(s)` instead.
    op("find_with_session", OpKind::Find, Args::FilterOptions, true),
    op(
        "find_one_with_session",
        OpKind::FindOne,
        Args::FilterOptions,
        true,
    ),
    op(
        "insert_one_with_session",
        OpKind::Insert,
        Args::Documents,
        true,
    ),
    op(
        "insert_many_with_session",
        OpKind::Insert,
        Args::Documents,
        true,
    ),
    op(
        "update_one_with_session",
        OpKind::UpdateOne,
        Args::FilterUpdate,
        true,
    ),
    op(
        "update_many_with_session",
        OpKind::UpdateMany,
        Args::FilterUpdate,
        true,
    ),
    op(
        "replace_one_with_session",
        OpKind::Replace,
        Args::FilterUpdate,
        true,
    ),
    op(
        "delete_one_with_session",
        OpKind::Delete,
        Args::FilterOptions,
        true,
    ),
    op(
        "delete_many_with_session",
        OpKind::Delete,
        Args::FilterOptions,
        true,
    ),
    op(
        "find_one_and_update_with_session",
        OpKind::FindOneAndUpdate,
        Args::FilterUpdate,
        true,
    ),
    op(
        "find_one_and_replace_with_session",
        OpKind::Replace,
        Args::FilterUpdate,
        true,
    ),
    op(
        "find_one_and_delete_with_session",
        OpKind::Delete,
        Args::FilterOptions,
        true,
    ),
    op(
        "aggregate_with_session",
        OpKind::Aggregate,
        Args::Pipeline,
        true,
    ),
    op(
        "count_documents_with_session",
        OpKind::Count,
        Args::FilterOptions,
        true,
    ),
    op(
        "distinct_with_session",
        OpKind::Distinct,
        Args::Distinct,
        true,
    ),
];

pub fn rust_operation(name: &str) -> Option<&'static OpMethod> {
    RUST_OPERATIONS.iter().find(|m| m.name == name)
}

/// `db.collection::<T>("x")`, `db.collection_with_options("x", opts)`.
pub const RUST_COLLECTION_GETTERS: &[&str] = &["collection", "collection_with_options"];

/// `client.database("x")`, `client.default_database()`.
pub const RUST_DATABASE_GETTERS: &[&str] =
    &["database", "database_with_options", "default_database"];

/// The bson crate's document and value macros, whose bodies the frontend parses.
pub const RUST_DOC_MACROS: &[&str] = &["doc", "bson"];

/// 3.x fluent action methods chained onto an operation (`coll.find(q).skip(n).limit(10).await`).
pub const RUST_MODIFIERS: &[&str] = &[
    "sort",
    "skip",
    "limit",
    "projection",
    "batch_size",
    "hint",
    "collation",
    "comment",
    "max_time",
    "max_await_time",
    "allow_disk_use",
    "session",
    "with_options",
    "upsert",
    "array_filters",
    "return_document",
    "selection_criteria",
    "write_concern",
    "read_concern",
    "let_vars",
    "bypass_document_validation",
    "cursor_type",
    "no_cursor_timeout",
    "show_record_id",
    "ordered",
];

/// Options types whose builder (or struct literal) can carry `skip`: only MongoDB spells these.
pub const RUST_OPTION_BUILDERS: &[&str] = &[
    "FindOptions",
    "FindOneOptions",
    "AggregateOptions",
    "CountOptions",
];

/// 3.x `client.bulk_write(..)` models: each one is an operation of its own.
pub const RUST_BULK_MODELS: &[&str] = &[
    "UpdateOneModel",
    "UpdateManyModel",
    "ReplaceOneModel",
    "InsertOneModel",
    "DeleteOneModel",
    "DeleteManyModel",
];

#[cfg(test)]
mod tests {
    #[test]
    fn condition_modifiers_are_read_through_in_a_chain() {
        for m in super::CONDITION_MODIFIERS {
            assert!(super::MODIFIERS.contains(m), "{m}");
        }
    }

    use super::*;
    use crate::ir::Language;

    fn role_of(lang: Language, word: &str) -> Option<(WordContext, WordRole)> {
        prefilter_words(lang)
            .into_iter()
            .find(|w| w.word == word)
            .map(|w| (w.context, w.role))
    }

    #[test]
    fn every_operation_name_is_in_the_prefilter() {
        // Driver-only names are evidence; the names arrays and ORMs share confirm a hint, as
        // method calls. A name added to a table enters the prefilter with its role.
        for (lang, table) in [
            (Language::JavaScript, JS_OPERATIONS),
            (Language::Python, PY_OPERATIONS),
            (Language::Rust, RUST_OPERATIONS),
        ] {
            for m in table {
                let (context, role) = role_of(lang, m.name)
                    .unwrap_or_else(|| panic!("{} missing for {lang:?}", m.name));
                if m.driver_only {
                    assert_eq!(role, WordRole::Evidence, "{}", m.name);
                } else {
                    assert_eq!(role, WordRole::Confirmation, "{}", m.name);
                    assert_eq!(context, WordContext::MethodCall, "{}", m.name);
                }
            }
        }
    }

    /// A call the frontends read by its shape (`x.find(q).toArray()`) needs a hint and a
    /// confirmation: each shaping modifier is a hint of its language's prefilter.
    #[test]
    fn shaping_modifiers_are_hints() {
        for (lang, table) in [
            (Language::JavaScript, JS_SHAPING_MODIFIERS),
            (Language::Python, PY_SHAPING_MODIFIERS),
        ] {
            for w in table {
                assert_eq!(
                    role_of(lang, w).map(|r| r.1),
                    Some(WordRole::Hint),
                    "{lang:?}: {w}"
                );
            }
        }
    }

    #[test]
    fn module_names_and_common_words_are_hints() {
        for lang in [Language::JavaScript, Language::Python, Language::Rust] {
            for w in ["mongo", "Mongo", "skip", "populate"] {
                assert_eq!(role_of(lang, w).map(|r| r.1), Some(WordRole::Hint), "{w}");
            }
            for w in TRIGGER_OPERATORS {
                assert_eq!(
                    role_of(lang, w).map(|r| r.1),
                    Some(WordRole::Evidence),
                    "{w}"
                );
            }
        }
        assert_eq!(
            role_of(Language::Python, "bson"),
            Some((WordContext::PyModule, WordRole::Hint))
        );
        assert_eq!(
            role_of(Language::Rust, "doc!").map(|r| r.1),
            Some(WordRole::Hint)
        );
        assert_eq!(
            role_of(Language::JavaScript, "db."),
            Some((WordContext::ShellDb, WordRole::Evidence))
        );
        assert_eq!(
            role_of(Language::Python, "db."),
            Some((WordContext::DbAttribute, WordRole::Evidence))
        );
    }

    #[test]
    fn model_and_index_declarations_confirm() {
        for w in ["Schema", "Prop", "index", "SchemaFactory"] {
            assert_eq!(
                role_of(Language::TypeScript, w).map(|r| r.1),
                Some(WordRole::Confirmation),
                "{w}"
            );
        }
        for w in ["Document", "DynamicDocument", "meta"] {
            assert_eq!(
                role_of(Language::Python, w).map(|r| r.1),
                Some(WordRole::Confirmation),
                "{w}"
            );
        }
        // `Post.objects(..)` is evidence; `discover` lowers `Post.objects.filter(..)`.
        assert_eq!(
            role_of(Language::Python, "objects"),
            Some((WordContext::Attribute, WordRole::Evidence))
        );
        assert_eq!(
            role_of(Language::Python, PY_INDEX_MODEL).map(|r| r.1),
            Some(WordRole::Evidence)
        );
        assert_eq!(
            role_of(Language::Rust, "IndexModel").map(|r| r.1),
            Some(WordRole::Evidence)
        );
    }

    #[test]
    fn one_entry_per_word_the_strongest_role() {
        for lang in [Language::JavaScript, Language::Python, Language::Rust] {
            let words = prefilter_words(lang);
            let mut seen = std::collections::HashSet::new();
            for w in &words {
                assert!(seen.insert(w.word), "{} twice for {lang:?}", w.word);
            }
        }
    }
}
