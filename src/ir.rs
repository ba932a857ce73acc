//! The language-neutral intermediate representation: the one contract between the language
//! frontends (`src/lang/*`) and the rules (`src/rules/*`). Nothing here knows about tree-sitter.

use serde::Serialize;

/// A half-open byte range `[start, end)` in the source file it came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }
    pub fn contains(&self, other: Span) -> bool {
        self.start <= other.start && other.end <= self.end
    }
}

/// A BSON-like value as written in source. Every node keeps its span.
#[derive(Clone, Debug, Serialize)]
pub struct Value {
    pub span: Span,
    pub kind: ValueKind,
}

/// An operator of mongolint's own beside a `$regex` in a filter: the frontend knows the
/// expression is not anchored at the start (mongoengine's `name__contains=q` builds the pattern
/// from `q` itself), though its text is not written in the code. No MongoDB operator is spelt so.
pub const UNANCHORED: &str = "$mongolintUnanchored";

#[derive(Clone, Debug, Serialize)]
pub enum ValueKind {
    Document(Vec<Field>),
    Array(Vec<Value>),
    String(String),
    Number(f64),
    Bool(bool),
    Null,
    /// Something the frontend could not evaluate: an identifier, a call, arithmetic, a spread.
    /// Keeps the source text (possibly truncated) and what kind of expression it is.
    Unknown(Unknown),
}

#[derive(Clone, Debug, Serialize)]
pub struct Unknown {
    /// Source text of the expression, truncated to a reasonable length.
    pub text: String,
    /// The expression was a plain identifier or member path (`x`, `page`, `req.query.skip`).
    pub is_name: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct Field {
    pub key: String,
    pub key_span: Span,
    pub value: Value,
}

impl Field {
    /// Keys the code adds at run time, which the literal does not show: a spread (`{ ...base }`,
    /// Python's `**kw`) or members set on the object later. Its key is `...`; its value is what
    /// adds them, unknown.
    pub fn spread(span: Span, text: &str, is_name: bool) -> Field {
        Field {
            key: "...".to_string(),
            key_span: span,
            value: Value::unknown(span, text, is_name),
        }
    }
}

impl Value {
    /// A document of one field, `{key: value}` (`{$gt: 3}`, `{email: 1}`), at `span`.
    pub fn keyed(span: Span, key: &str, key_span: Span, value: Value) -> Value {
        Value {
            span,
            kind: ValueKind::Document(vec![Field {
                key: key.to_string(),
                key_span,
                value,
            }]),
        }
    }

    pub fn unknown(span: Span, text: &str, is_name: bool) -> Value {
        let mut text = text.to_string();
        if text.len() > 120 {
            let mut cut = 117;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text.truncate(cut);
            text.push_str("...");
        }
        Value {
            span,
            kind: ValueKind::Unknown(Unknown { text, is_name }),
        }
    }

    pub fn fields(&self) -> &[Field] {
        match &self.kind {
            ValueKind::Document(f) => f,
            _ => &[],
        }
    }

    pub fn items(&self) -> &[Value] {
        match &self.kind {
            ValueKind::Array(v) => v,
            _ => &[],
        }
    }

    /// The first field with this key, if this is a document.
    pub fn get(&self, key: &str) -> Option<&Field> {
        self.fields().iter().find(|f| f.key == key)
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            ValueKind::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_number(&self) -> Option<f64> {
        match &self.kind {
            ValueKind::Number(n) => Some(*n),
            _ => None,
        }
    }

    pub fn is_unknown(&self) -> bool {
        matches!(self.kind, ValueKind::Unknown(_))
    }

    /// An unknown value reached through a name takes the span of the expression that used it;
    /// a resolved literal keeps the span where it is written.
    pub fn with_span(mut self, sp: Span) -> Value {
        if self.is_unknown() {
            self.span = sp;
        }
        self
    }

    pub fn is_document(&self) -> bool {
        matches!(self.kind, ValueKind::Document(_))
    }
}

/// What the code tells us about a hole in a dynamically built collection name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum HoleKind {
    /// A date or time value or format (`new Date()`, `strftime`, `%Y`, `day`, `month`).
    Date,
    /// A per-entity value (`tenantId`, `userId`, `orgId`, `shop`).
    Entity,
    /// Configuration or environment (`process.env.X`, `settings.X`, `config.get(..)`).
    Config,
    /// Nothing known about it.
    Unknown,
}

#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum NamePart {
    Literal {
        text: String,
    },
    Hole {
        text: String,
        hole: HoleKind,
        span: Span,
    },
}

impl CollectionName {
    /// The text of a name the code spells with one expression the frontend could not read
    /// (`Unknown`), or read as a single hole (`COLLECTION_USERS`, a constant taken for a
    /// configured name): what another module's constant may give (see [`NameImport`]).
    pub fn spelt_by(&self) -> Option<&str> {
        match self {
            CollectionName::Unknown { text } => Some(text),
            CollectionName::Template { parts } => match parts.as_slice() {
                [NamePart::Hole { text, .. }] => Some(text),
                _ => None,
            },
            CollectionName::Literal { .. } => None,
        }
    }
}

/// The name of a collection as the code spells it.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum CollectionName {
    Literal {
        name: String,
    },
    /// Built at run time from literal parts and holes.
    Template {
        parts: Vec<NamePart>,
    },
    /// Not knowable from this code (a parameter, an injected model).
    Unknown {
        text: String,
    },
}

impl CollectionName {
    /// A human-readable name: the literal, the template with `{hole}` placeholders, or `?`.
    pub fn display(&self) -> String {
        match self {
            CollectionName::Literal { name } => name.clone(),
            CollectionName::Template { parts } => {
                let mut out = String::new();
                for p in parts {
                    match p {
                        NamePart::Literal { text } => out.push_str(text),
                        NamePart::Hole { text, .. } => {
                            out.push('{');
                            out.push_str(text);
                            out.push('}');
                        }
                    }
                }
                out
            }
            CollectionName::Unknown { .. } => "<unknown>".to_string(),
        }
    }
}

/// How a collection is reached: a driver collection object, or a Mongoose model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CollectionVia {
    Driver,
    MongooseModel,
    Shell,
}

/// Where the code names a collection: `db.collection("x")`, `mongoose.model("X", s)`, `db.x`.
#[derive(Clone, Debug, Serialize)]
pub struct CollectionRef {
    pub name: CollectionName,
    /// The span of the expression that names it (the name argument, or the whole call); empty
    /// when another module names it (an import the linker resolved).
    pub span: Span,
    pub via: CollectionVia,
    /// The collection object or model was imported from another module of the repository;
    /// the linker replaces `name` with what that module exports, when it can. (A call's result,
    /// [`ImportRef::is_call`], is a database instead: the linker keeps `name` when it is one.)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub import: Option<ImportRef>,
}

/// A name imported from another module: `import User from "./models/user"` is
/// `{module: "./models/user", export: "default"}`. A Rust frontend's names are in the module
/// [`RUST_TYPES`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ImportRef {
    pub module: String,
    pub export: String,
}

/// The module of the Rust names a file cannot place: a method of a type, `X::m` (`Station::cl()`)
/// or `<X as Trait>::m` (`Self::cl()` inside `impl Trait for X`), looked up among the exports of
/// every Rust file of the repository (the linker does not model the crate graph: a name whose
/// candidates disagree stays unresolved). The exports it finds are a trait's methods, `Trait::m`
/// ([`ExportTarget::AssociatedCollection`], [`ExportTarget::IndexModels`]), and the string
/// constants of the trait's implementations, `<X as Trait>::NAME` ([`ExportTarget::Constant`]).
pub const RUST_TYPES: &str = "rust:";

/// The trait a Rust document type is exported as implementing when a file keeps its documents in
/// a collection it names (`database.collection::<DBMate>("mates")`: `<DBMate as
/// mongodb::Collection>::NAME` is `"mates"`), so that a parameter typed `&Collection<DBMate>`
/// is that collection wherever the repository names only one for the type.
pub const TYPED_COLLECTION: &str = "mongodb::Collection";

/// The associated constants by which a Rust type names its collection (`impl MongoDbCollection for
/// BlockCollection { const NAME: &str = "stardust_blocks"; }`): what `self` in the type's methods is.
pub const RUST_COLLECTION_CONSTANTS: &[&str] =
    &["NAME", "COLLECTION", "COLLECTION_NAME", "COLL_NAME"];

impl ImportRef {
    /// The export is what a function of the module returns (Python's `get_db()`, and the class
    /// method `Configuration.getMongoConnection()`, named with `()`). A [`CollectionRef`] with
    /// such an import is a collection of the database that call returns, named where it is used
    /// (`db["cves"]`, `db.cves`): the linker keeps its name if the module exports the call as a
    /// database ([`ExportTarget::Database`]), and otherwise forgets the collection.
    pub fn is_call(&self) -> bool {
        self.export.ends_with("()")
    }

    /// A [`CollectionRef`] with this import is a collection of a database the module gives, named
    /// where it is used: what a function returns ([`ImportRef::is_call`]), or what a module-level
    /// name holds, named with `[]` (Python's `from database import dbname` .. `dbname["feds"]`,
    /// the module's `dbname = client["app"]`). The linker keeps the name if the module exports it
    /// as a database ([`ExportTarget::Database`]), and otherwise forgets the collection.
    pub fn names_database(&self) -> bool {
        self.is_call() || self.export.ends_with("[]")
    }

    /// The export is a function, or a class, that opens the collection one of its arguments
    /// names ([`ExportTarget::CollectionFactory`]), named for the argument's place: `f(..)` for
    /// the first, `BaseRaw(_, ..)` for the second. A [`CollectionRef`] with such an import is the
    /// collection the argument names, if the module exports the function as one.
    pub fn names_factory_call(&self) -> bool {
        self.export.ends_with("..)")
    }
}

/// Something a module exports that names a collection, for cross-file resolution.
#[derive(Clone, Debug, Serialize)]
pub struct Export {
    /// `default` for a default export / `module.exports = X`. A function's result is exported
    /// as `f().return` (a collection it returns) and `f().doc` (the model of a document it loads
    /// and returns or hands to its callback); a member of an exported object as `x.member`.
    pub name: String,
    pub target: ExportTarget,
}

#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ExportTarget {
    Collection {
        collection: CollectionRef,
    },
    /// Re-exports another module's export (`module.exports = { User: require("./user") }`).
    Reexport {
        import: ImportRef,
    },
    /// An abstract mongoengine document (`meta = {"abstract": True}`): it has no collection, but
    /// its subclasses in other modules are documents with collections of their own.
    AbstractDocument,
    /// A module-level string constant (`COL_USERS = "users"`), which may name a collection in
    /// another module (see [`NameImport`]); in Rust, an associated constant of a trait's
    /// implementation (`<AccessToken as Model>::CL_NAME`, see [`RUST_TYPES`]).
    Constant {
        value: String,
    },
    /// A Rust trait's method, exported as `Trait::method`, that returns the collection named by an
    /// associated constant of the implementing type: `fn cl() -> Collection<Self> {
    /// db().collection(Self::CL_NAME) }` (or through another such method of the trait,
    /// `Self::cl_as()`). `X::cl()` is the collection `<X as Trait>::CL_NAME` names.
    AssociatedCollection {
        constant: String,
    },
    /// A Rust trait's method, exported as `Trait::method`, whose index models a default method of
    /// the trait creates on one of its collection getters: `Self::cl().create_indexes(
    /// Self::indexes(), None)`. What an implementation's `indexes()` returns are index
    /// declarations on the implementing type's collection.
    IndexModels {
        /// The [`ExportTarget::AssociatedCollection`] method (`cl`).
        getter: String,
        /// The trait's own declaration (its collection imported as `<Self as Trait>::method`)
        /// says nothing more than its implementations: the trait's default method returns no
        /// index (`vec![]`), or it has none. The linker then drops it.
        replaced: bool,
    },
    /// Every public name of another module (`from udata.core.dataset.models import *` in a
    /// package's `models/__init__.py`), exported as `*`: a name the module does not export
    /// itself is looked up there.
    Star {
        /// The module; `export` is `*`.
        import: ImportRef,
    },
    /// A function (or a class's class method or static method) that returns a database: the
    /// export is named for the call (`get_db()`, `Configuration.getMongoConnection()`, see
    /// [`ImportRef::is_call`]), and the collections of its result are named where they are used.
    /// Also a module-level name bound to a database, named with `[]` (`dbname[]` for `dbname =
    /// client["app"]`, see [`ImportRef::names_database`]).
    Database,
    /// A Mongoose schema with index declarations and no model compiled from it in its module
    /// (`export const userSchema = new Schema(..); userSchema.index(..)`): a module that compiles
    /// a model from it (see [`SchemaModel`]) gives those declarations their collection.
    Schema {
        /// The schema's variable, which names the declarations' collection until then
        /// (`roleSchema` for `export default roleSchema`).
        variable: String,
    },
    /// A module-level function that runs one driver operation on the collection a parameter
    /// names (see [`Wrapper`]).
    Wrapper {
        wrapper: Box<Wrapper>,
    },
    /// A function that returns the collection its first argument names, of a database
    /// (`def mongo_connector(collection): return settings.PY_DB[collection]`), exported as
    /// `mongo_connector(..)`: a caller's `mongo_connector("events").create_index(..)` is on
    /// `events`. Also a class whose constructor opens the collection a parameter names, exported
    /// for that parameter's place (`BaseRaw(_, ..)`, see [`ImportRef::names_factory_call`]): a
    /// subclass's `super(db, 'nps_vote')` names its collection.
    CollectionFactory,
    /// A collection in memory, with no database behind it: Meteor's client-side collection
    /// (`new Mongo.Collection(null)`, or an instance of a class that extends `Mongo.Collection`
    /// and calls `super(null)`). An importer's calls on it are not driver calls.
    LocalCollection,
    /// A class of another database's library: a Django model (`class Feed(models.Model)`), or
    /// such a class re-exported (`from django.contrib.auth.models import User`). An importer's
    /// calls on it (`Feed.objects.filter(..)`) are not driver calls.
    OtherDatabase,
}

/// A module-level function that runs one driver operation on the collection a parameter names,
/// with what its other parameters give: `def mongo_find_one(collection, query, projection=None):
/// return getattr(results_db, collection).find_one(query, projection)` (CAPEv2's
/// `dev_utils/mongodb.py`). A call of it from another module, `mongo_find_one("analysis",
/// {"info.id": 1})` ([`Operation::wrapped`]), is that operation on the collection the call names;
/// the linker writes it out (`link::link_wrappers`).
#[derive(Clone, Debug, Serialize)]
pub struct Wrapper {
    /// The function's parameters, in order (`*args` and `**kwargs` left out).
    pub params: Vec<String>,
    /// The parameter that names the collection (`getattr(db, collection)`, `db[collection]`).
    pub collection: String,
    /// The parameter passed as an aggregation's pipeline (`.aggregate(pipeline)`), if any.
    pub pipeline: Option<String>,
    /// The operation as the function's body spells it: its values that are parameters
    /// (`Unknown` names) are what the call gives them.
    pub operation: Operation,
}

/// A Mongoose model compiled from a schema of another module: `mongoose.model("User",
/// userSchema)`, `userSchema` imported (or the result of an imported function that returns it,
/// `db.model("posts", loadPostClass(models))`, exported as `loadPostClass()`). The linker puts the
/// schema's index declarations (operations on the collection named by the schema's variable,
/// [`ExportTarget::Schema`]) on `collection`.
#[derive(Clone, Debug, Serialize)]
pub struct SchemaModel {
    pub schema: ImportRef,
    pub collection: CollectionRef,
    /// The model's schema copies the fields of the imported one (`new Schema({ ...Base.obj, ..
    /// })`) rather than being it: it has the index options of those fields (the declarations
    /// without a receiver), not the imported schema's `.index(..)` calls.
    pub fields_only: bool,
}

/// A collection name this file spells with a constant of another module
/// (`meta = {"collection": settings.COL_USERS}`): the linker replaces the unknown name `text`
/// with the constant's value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NameImport {
    /// The text of the unknown name (`CollectionName::Unknown`).
    pub text: String,
    pub import: ImportRef,
}

/// A Python class whose bases this file cannot decide: a mongoengine document if one of its
/// bases, imported from another module of the repository, is one. The linker decides, and then
/// adds what the class declares to the file's operations, collections and exports.
#[derive(Clone, Debug, Serialize)]
pub struct PendingClass {
    pub name: String,
    pub bases: Vec<ClassBase>,
    /// `meta = {"abstract": True}`: a document without a collection.
    pub abstract_: bool,
    /// Its collection should it be a document: `meta["collection"]`, or the class's default name.
    pub collection: CollectionRef,
    /// `meta` names the collection: a concrete parent's does not replace it.
    pub explicit_collection: bool,
    /// What it declares should it be a document (its `meta` indexes), on `collection`.
    pub operations: Vec<Operation>,
}

/// A base of a [`PendingClass`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ClassBase {
    /// A class of another module: `from .base import BaseDocument`, `stormbase.StormFoundationDB`.
    Imported { import: ImportRef },
    /// A pending class of the same file.
    Local { name: String },
}

/// A Python class as the index declarations a mongoengine document inherits see it: mongoengine
/// merges into a document the `meta["indexes"]` and the indexed fields (`unique=True`) of every
/// class it derives from, abstract documents and plain mixins alike, up to a concrete parent
/// (whose collection it shares, indexes included). The linker adds each ancestor's declarations,
/// where they are written, on each concrete descendant's collection; it empties this list.
#[derive(Clone, Debug, Serialize)]
pub struct ClassDecl {
    pub name: String,
    /// Its bases of this file or of another module of the repository (not mongoengine's own).
    pub bases: Vec<ClassBase>,
    /// What it declares itself, on no collection yet: empty for a concrete document of this
    /// file, whose declarations are operations of the file already. A field's index (method
    /// `unique` or `primary_key`) is on the field its first key names.
    pub indexes: Vec<Operation>,
    /// The names its body assigns: a field of the same name in a base is replaced, and with it
    /// that field's index (`name = StringField()` under a base's `unique=True` one).
    pub attributes: Vec<String>,
    /// The operands of its `meta["indexes"]` that name another class's list of indexes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub operands: Vec<IndexOperand>,
    /// Its methods that return a list of indexes (`get_indexes()`), for such operands.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub index_methods: Vec<IndexList>,
    /// A field class whose constructor makes its fields unique unless told otherwise (udata's
    /// `SlugField`: `kwargs.setdefault("unique", True)`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unique_by_default: bool,
    /// Its fields built with a class of the repository and no `unique=` of their own: each a
    /// unique index (method `unique`) should that class be [`ClassDecl::unique_by_default`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub app_fields: Vec<AppField>,
}

/// A field built with a field class of the repository (see [`ClassDecl::app_fields`]).
#[derive(Clone, Debug, Serialize)]
pub struct AppField {
    pub class: ClassBase,
    /// Its index, should the class make it unique.
    pub index: Operation,
}

/// An operand of a `meta["indexes"]` concatenation that this file cannot read but another class
/// of the repository spells: `Mixin.get_indexes()`, `Owned.meta["indexes"]`. The frontend made
/// it one unreadable declaration; the linker replaces that with the list's declarations.
#[derive(Clone, Debug, Serialize)]
pub struct IndexOperand {
    /// The operand, and the unreadable declaration made of it.
    pub span: Span,
    pub class: ClassBase,
    /// The method called (`get_indexes`); `None` for the class's `meta["indexes"]`.
    pub method: Option<String>,
}

/// The indexes a class's method returns, on no collection yet.
#[derive(Clone, Debug, Serialize)]
pub struct IndexList {
    pub method: String,
    pub indexes: Vec<Operation>,
}

/// How sure the frontend is that a call is a MongoDB driver call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Evidence {
    /// Nothing MongoDB-shaped about it. Frontends normally drop such calls.
    None,
    /// The receiver is unknown but the call is unmistakably MongoDB (operators, driver-only method).
    Shaped,
    /// The receiver is bound to a collection, a Mongoose model or a Mongoose query.
    Resolved,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum OpKind {
    Find,
    FindOne,
    Insert,
    UpdateOne,
    UpdateMany,
    FindOneAndUpdate,
    Replace,
    Delete,
    Aggregate,
    Count,
    Distinct,
    CreateIndex,
    /// `dropIndex` / `drop_index`: the argument (in `filter`) is the key pattern or the index name.
    DropIndex,
    /// A Mongoose document mutated in memory then saved (`doc.arr.push(x); doc.save()`).
    /// The frontend synthesises the update the save sends.
    DocumentSave,
    Other,
}

impl OpKind {
    /// A read of documents: finds, aggregations, counts, `distinct`.
    pub fn is_read(self) -> bool {
        matches!(
            self,
            OpKind::Find | OpKind::FindOne | OpKind::Aggregate | OpKind::Count | OpKind::Distinct
        )
    }

    pub fn is_update(self) -> bool {
        matches!(
            self,
            OpKind::UpdateOne
                | OpKind::UpdateMany
                | OpKind::FindOneAndUpdate
                | OpKind::DocumentSave
        )
    }
}

/// A cursor or query modifier chained onto a read: `.sort()`, `.skip()`, `.limit()`, `.populate()`,
/// or the same given as an option (`{skip: n}`, `skip=n`, `FindOptions::builder().skip(n)`).
#[derive(Clone, Debug, Serialize)]
pub struct Modifier {
    /// `skip`, `limit`, `sort`, `projection`, `populate`, ...
    pub name: String,
    pub args: Vec<Value>,
    /// Span of the modifier (method name through closing paren, or the option key).
    pub span: Span,
}

/// The iterable of a loop: `ids` in `for (const id of ids)`.
#[derive(Clone, Debug, Serialize)]
pub struct LoopOver {
    /// Source text, one line, at most 80 characters.
    pub text: String,
    pub span: Span,
    /// The loop variable, when it is a plain name (`page` in `for page in paginate(ids)`) or
    /// names an item is unpacked into (`perm, role_ids` in `for perm, role_ids in d.items()`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item: Option<String>,
    /// The iterable is a name bound once to a non-empty list written in the code
    /// (`modes = ["draft", "published"]`, `const FIELDS = [..]`), or a list read from
    /// configuration or the environment, directly or through a name bound once to it
    /// (`settings.app.dh_param_bits_pool`, `process.env.HOSTS.split(",")`): a handful of fixed
    /// iterations.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub fixed: bool,
    /// The iterable is a name bound once, in the loop's own function, to this expression
    /// (`sheets = db.sheets.find(q)` before `for s in sheets:`): where a query whose results the
    /// loop walks is written, as it is in the iterable itself for `for s in db.sheets.find(q):`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound_to: Option<Span>,
    /// Each item is a batch of items: the iterable, or the expression its name is bound to, is a
    /// batching helper's call (`paginate(ids)`, `chunks(ids, 100)`, `batched(ids, 50)`,
    /// `grouper(ids, n)`) or a call asked for batches (`doc_feeder(coll, step=1000,
    /// inbatch=True)`, `iterate(docs, batch=True)`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub batches: bool,
}

/// Where in the code an operation sits, for rules that care about control flow.
#[derive(Clone, Debug, Default, Serialize)]
pub struct OpContext {
    /// Span of the innermost enclosing loop (for/while/forEach/map over items), if any.
    pub enclosing_loop: Option<Span>,
    /// What that loop iterates over (`ids`, `await cursor.toArray()`, `users`),
    /// when it is an iteration over items (`for..of`, `for x in`, `forEach`/`map`, a comprehension,
    /// `while let Some(x) = cursor.next()`); `None` for `while`, counting `for` loops and unknown shapes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loop_over: Option<LoopOver>,
    /// Name of the enclosing function, if any.
    pub function: Option<String>,
    /// The enclosing function or file looks like a periodic batch job (cron, scheduler, migration).
    pub periodic: bool,
    /// The sizes the code checks against an upper bound before the call (or before it adds the
    /// update's keys): `agents = self.user_agents or []` for `if len(agents) < MAX_AGENTS:`. Each
    /// is the measured expression's text, followed by what its name is bound to. For a
    /// JavaScript read that skips by a name, also the names bounded from above there (`skip`
    /// after `if (skip >= MAX_PM_COUNT) return [];`): a capped skip (see `skip-paging`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub size_guards: Vec<String>,
    /// The call runs at most once per loop: the block around it ends the loop (`break`, or
    /// `return` / `throw` out of a statement loop) right after it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub exits_loop: bool,
    /// The receiver is a name the loop's body binds from the loop's item, and the frontend cannot
    /// tell which collection it is: `for (const { slug } of hops) { const { Model } =
    /// getCollection({ slug }); await Model.find(q) }` may reach another collection each time.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub receiver_per_item: bool,
    /// The collection's name is written in the loop but read from nothing the loop changes (a
    /// parameter, a class attribute: `db[User.__collection__]`, `db.collection(collName)`): the
    /// same collection on every iteration, not a loop over collections. Set by the JavaScript and
    /// Python frontends for names that are neither literal nor imported.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub name_fixed_in_loop: bool,
    /// The call sends the same query on every iteration of its loop: nothing in its receiver or
    /// arguments is bound, assigned or changed in place inside the loop (the loop's own variable
    /// included). `for doc in docs: archive.find_one(req=None, _id=guid)`, `guid` read before the
    /// loop: one query repeated, which could move out of the loop, not a query per item. Read
    /// for reads and idempotent writes only (`Operation::idempotent_write`; the Python and
    /// JavaScript frontends; Rust's leaves it false).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub same_each_iteration: bool,
    /// The arrays (by the last segment of their path) that the code checks do not hold the
    /// pushed value before the call: `if (!user.methods.includes(m)) user.methods.push(m)`, or
    /// `if (doc.tags.indexOf(t) !== -1) return;` before `{$push: {tags: t}}`. Such a push adds
    /// distinct values only, as `$addToSet` does.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub absent_checks: Vec<String>,
    /// The whole query, an aggregation's pipeline, is what the loop hands each iteration: `for pipeline, hint in
    /// zip(pipelines, hints): coll.aggregate(pipeline)` (fiftyone's pooled aggregations). A batch
    /// of different queries, not one query per item of a list of results. Set by the Python
    /// frontend.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub query_is_item: bool,
    /// The operation runs the query its function was given, as given: its filter and its skip
    /// are the function's parameters (`find(criteria).skip(options.skip)`). The function wraps
    /// the driver; its callers decide the paging (see `lang::forwards_query`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub forwards_query: bool,
}

/// One driver call, lowered.
#[derive(Clone, Debug, Serialize)]
pub struct Operation {
    pub kind: OpKind,
    /// The method as spelled in source (`updateOne`, `update_one`, `findByIdAndUpdate`).
    pub method: String,
    /// Span of the whole call expression.
    pub span: Span,
    /// Span of the method name.
    pub method_span: Span,
    pub collection: Option<CollectionRef>,
    pub evidence: Evidence,
    /// The filter (query) document, if any. For `findById(id)` the frontend writes `{_id: id}`.
    pub filter: Option<Value>,
    /// The update document (`$set`, `$push`, ...) or replacement.
    pub update: Option<Value>,
    /// Aggregation stages, in order, including stages pushed onto a pipeline variable.
    pub pipeline: Option<Vec<Value>>,
    /// Options document (`{skip, limit, sort, upsert}`) as written, if any.
    pub options: Option<Value>,
    /// Cursor / query modifiers, in call order, including those spelled as options.
    pub modifiers: Vec<Modifier>,
    /// Documents inserted, for inserts.
    pub documents: Vec<Value>,
    /// The operation is one entry of a `bulkWrite` / `bulk_write`.
    pub in_bulk: bool,
    pub context: OpContext,
    /// Source text of the receiver (`this.users`, `mongo.comments()`), for messages when the
    /// collection cannot be resolved.
    pub receiver: String,
    /// A call of a function imported from another module of the repository that may be a
    /// [`Wrapper`]: `mongo_find_one("analysis", {"info.id": 1})`, its positional arguments in
    /// `documents` and its keyword arguments in `options`. No operation (`Evidence::None`) until
    /// the linker finds the wrapper and writes the operation it runs in its place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wrapped: Option<ImportRef>,
    /// This operation is what a call of a function of the same file runs, the call giving the
    /// function's update (or documents) as an argument written out at the call: `function
    /// updateNotif(q, p) { db.notif.updateOne(q, p, {upsert: true}) }` called as
    /// `updateNotif({_id: id}, {$addToSet: {uId: u}})`. Located at the call, in the call's
    /// context, with the call's arguments in place of the parameters (see
    /// `lang::operation_for_call`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub through: Option<Through>,
}

/// Where an operation run through a call of a function of the file comes from ([`Operation::through`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Through {
    /// The function's own operation, whose parameters the call fills in.
    pub operation: Span,
    /// The call gave the filter too; otherwise it is the function's own, reported there.
    pub filter_given: bool,
}

impl Operation {
    /// A write that, sent again with the same arguments, changes nothing the first did not: a
    /// delete, a replacement, an update that only sets or unsets fields (`{ $set: { status:
    /// 'done' } }`, or Mongoose's fields without an operator). Not `$inc`, `$push` or an insert,
    /// which add again.
    pub fn idempotent_write(&self) -> bool {
        match self.kind {
            OpKind::Delete | OpKind::Replace => true,
            OpKind::UpdateOne | OpKind::UpdateMany | OpKind::FindOneAndUpdate => {
                self.update.as_ref().is_some_and(|u| {
                    matches!(u.kind, ValueKind::Document(_))
                        && u.fields().iter().all(|f| {
                            // (A spread, `...extra`, may hold any operator.)
                            !f.key.starts_with(['$', '.'])
                                || matches!(f.key.as_str(), "$set" | "$unset")
                        })
                })
            }
            _ => false,
        }
    }

    pub fn new(kind: OpKind, method: &str, span: Span, method_span: Span) -> Self {
        Operation {
            kind,
            method: method.to_string(),
            span,
            method_span,
            collection: None,
            evidence: Evidence::None,
            filter: None,
            update: None,
            pipeline: None,
            options: None,
            modifiers: Vec::new(),
            documents: Vec::new(),
            in_bulk: false,
            context: OpContext::default(),
            receiver: String::new(),
            wrapped: None,
            through: None,
        }
    }

    /// Does the filter, update or pipeline use MongoDB operators (`$push`, `$match`, ...)? That is
    /// evidence of a driver call when the receiver is unknown.
    pub fn uses_mongo_operators(&self) -> bool {
        fn has_dollar(v: &Value, depth: usize) -> bool {
            if depth > 8 {
                return false;
            }
            match &v.kind {
                ValueKind::Document(fs) => fs
                    .iter()
                    .any(|f| f.key.starts_with('$') || has_dollar(&f.value, depth + 1)),
                ValueKind::Array(xs) => xs.iter().any(|x| has_dollar(x, depth + 1)),
                _ => false,
            }
        }
        // An update counts when it leads with an operator (`{$set: ..}`), not when `$` only appears
        // deeper (a plain `dict.update({"a": {"$x": 1}})`); a pipeline when every stage it can read
        // is an operator stage.
        self.filter.as_ref().is_some_and(|v| has_dollar(v, 0))
            || self
                .update
                .as_ref()
                .is_some_and(|v| v.fields().first().is_some_and(|f| f.key.starts_with('$')))
            || self.pipeline.as_ref().is_some_and(|st| {
                !st.is_empty()
                    && st.iter().all(|s| {
                        s.fields().first().is_some_and(|f| f.key.starts_with('$')) || s.is_unknown()
                    })
                    && st.iter().any(|s| !s.is_unknown())
            })
    }

    /// The collection name for messages: the literal, a template, or `<unknown>`.
    pub fn collection_display(&self) -> String {
        match &self.collection {
            Some(c) => c.name.display(),
            None => "<unknown>".to_string(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Language {
    JavaScript,
    TypeScript,
    Tsx,
    Python,
    Rust,
}

/// Everything a frontend extracted from one file.
#[derive(Clone, Debug, Default, Serialize)]
pub struct FileIr {
    pub operations: Vec<Operation>,
    /// Every place a collection is named (including names never used in an operation).
    pub collections: Vec<CollectionRef>,
    /// Collections and models this module exports, for resolving imports in other files.
    pub exports: Vec<Export>,
    /// Classes that are mongoengine documents if a base from another module is (see
    /// [`PendingClass`]); the linker empties this list.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<PendingClass>,
    /// Classes whose index declarations documents may inherit (see [`ClassDecl`]); the linker
    /// empties this list.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub class_decls: Vec<ClassDecl>,
    /// Collection names spelt with constants of other modules; the linker empties this list.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub name_imports: Vec<NameImport>,
    /// Models compiled from other modules' schemas; the linker empties this list.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub schema_models: Vec<SchemaModel>,
    /// Mongoose models this file registers under a collection named otherwise than by the model
    /// (`mongoose.model("Whatsup", new Schema(spec, { collection: "messages" }))`): (model,
    /// collection).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub model_collections: Vec<(String, String)>,
    /// Mongoose models this file looks up by name only (`mongoose.model("Whatsup")`): the span
    /// that names each (its collection references' span) and the model. The linker names them
    /// as the module that registers the model does.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub model_lookups: Vec<(Span, String)>,
    /// Collections this file sets as members of a named object (`db.products =
    /// db.collection("products")`, an Express app's database module): (object, member,
    /// collection). The linker names by them the operations on `db.products` (`req.app.db.products`)
    /// that no file resolves otherwise, and empties this list.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub member_collections: Vec<(String, String, CollectionRef)>,
    /// Calls, in a loop, of a function of this file, or of another module's look-up (added by
    /// the linker), that reads from the database (see [`HelperRead`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub helper_reads: Vec<HelperRead>,
    /// The look-ups of this file that other modules may call (see [`Lookup`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lookups: Vec<Lookup>,
    /// Calls, in a loop, of a function imported from another module of the repository (see
    /// [`ImportedCall`]); the linker empties this list.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub imported_calls: Vec<ImportedCall>,
    /// An index helper's own `createIndex` on the collection its caller hands it, with the keys
    /// the caller gives (`async function addIndexesToCollection(collection, indexes) {
    /// indexes.map(index => collection.createIndex(index.key, index)) }`): (the operation's
    /// span, the helper's name). The linker drops each operation where every call of a helper of
    /// that name in the repository was read as index declarations ([`FileIr::index_helper_calls`]);
    /// otherwise it stays an index on a collection named at run time, which holds back
    /// unindexed-query. The linker empties this list.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub index_pass_ons: Vec<(Span, String)>,
    /// Calls of an application's index helper by its name (`buildDbIndexes(Links, [..])`,
    /// `Helpers.addIndexesToCollection(db.x, indexes)`): (the helper's name, what the call gives
    /// it). The linker empties this list.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub index_helper_calls: Vec<(String, HelperIndexes)>,
}

/// What a call of an index helper gives it (see [`FileIr::index_helper_calls`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum HelperIndexes {
    /// Indexes read as declarations of the call.
    Read,
    /// Indexes the call does not write out.
    Unread,
    /// What another index helper, named here, was handed (`buildIndexes(collection, indexes)`
    /// inside `buildDbIndexes(collection, indexes)`): read where that helper's calls are.
    Forwarded(String),
}

/// A function at the top of a module, or a method of a class or an object there, that another
/// module may import and that is a look-up: its operations one to three reads outside any loop of
/// its own, varying with its parameters, in a body of a few statements (see [`HelperRead`]). nodeclub's
/// `proxy/user.js`: `exports.getUserById = function (id, cb) { User.findOne({_id: id}, cb) }`.
#[derive(Clone, Debug, Serialize)]
pub struct Lookup {
    /// The name another module calls it by: the function's, the member's it is assigned to
    /// (`exports.getUserById`), the method's, or `default` for `module.exports = function ..`.
    pub name: String,
    /// The read in its body: an operation of this file, by its span.
    pub read: Span,
}

/// A call, in a loop, of a function imported from another module of the repository
/// (`UserProxy.getUserById(topic.author_id, ..)` per topic, `UserProxy = require('./user')`): if
/// the linker finds that module's [`Lookup`] of that name, a [`HelperRead`] of this file whose
/// read is in that module.
#[derive(Clone, Debug, Serialize)]
pub struct ImportedCall {
    pub import: ImportRef,
    /// The call.
    pub call: Span,
    /// Where the call names the function.
    pub callee_span: Span,
    /// The callee as the call spells it (`UserProxy.getUserById`).
    pub callee: String,
    /// The call's context, settled as a [`HelperRead`]'s is.
    pub context: OpContext,
}

/// A call, in a loop, of a function of the same file whose body reads from the database outside
/// any loop of its own (`for chat in chats: get_karmas(chat["chat_id"])`, with `def
/// get_karmas(chat_id): return karmadb.find_one({"chat_id": chat_id})`): the read runs once per
/// iteration of the caller's loop, an N+1 through a helper. The linker adds those of a look-up
/// of another module (see [`ImportedCall`]), with the file of the read.
#[derive(Clone, Debug, Serialize)]
pub struct HelperRead {
    /// The call.
    pub call: Span,
    /// Where the call names the function (`get_karmas`, `self.load`'s `load`).
    pub callee_span: Span,
    /// The function's name.
    pub callee: String,
    /// The read in the function's body: an operation of this file, by its span, or of the file
    /// `read_file` (by its index among the linked files) for a function imported from there.
    pub read: Span,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_file: Option<usize>,
    /// The call's context: the loop it is in and what that loop iterates.
    pub context: OpContext,
}

impl FileIr {
    /// The order every frontend hands its IR over in: collection references by span (one per
    /// span), operations by position. Keeps output independent of extraction order.
    pub fn normalise(&mut self) {
        self.collections.sort_by_key(|c| c.span);
        self.collections.dedup_by_key(|c| c.span);
        self.operations
            .sort_by_key(|o| (o.span.start, o.method_span.start));
    }
}
