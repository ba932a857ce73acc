//! The Python frontend: pymongo (sync and async), motor, and mongoengine where it maps cleanly.
//!
//! Two passes over the tree, like the JavaScript frontend. The first records bindings (assignments,
//! parameters with their annotations, `self.x = ..` attributes, imports, `pipeline.append(..)` onto
//! lists, mongoengine `Document` classes, functions scheduled as periodic jobs). The second finds
//! driver calls, resolves their receivers through those bindings, and lowers their arguments
//! into IR values.

use super::naming::{
    classify_hole, is_constant_name, name_is_periodic_in, path_handles_requests, path_is_periodic,
};
use super::vocabulary::{
    py_operation, Args, OpMethod, PY_BULK_MODELS, PY_CLIENT_CLASSES, PY_COLLECTION_TYPES,
    PY_DATABASE_TYPES, PY_DOCUMENT_DELETE, PY_INDEX_MODEL, PY_MODIFIERS, PY_MONGOENGINE_DOCUMENTS,
    PY_MONGOENGINE_UPDATE_PREFIXES, PY_MONGO_MODULES, PY_QUERYSET_METHODS, PY_SHAPING_MODIFIERS,
};
use super::{unescape, FileContext};
use crate::ir::*;
use crate::lang::KindOf;
use crate::lang::{HashMap, HashSet};
use tree_sitter::{Node, Tree};

/// How deep value lowering and receiver resolution may recurse (nested literals, chains of bindings).
const MAX_DEPTH: usize = 48;

/// How many `self.x` assignments one outermost attribute classification may follow
/// (`Extractor::field_fuel`); real classes need a handful.
const FIELD_FUEL: u32 = 512;

/// Names that, imported from another module of the application, are its database handle.
const DB_NAMES: &[&str] = &[
    "db",
    "database",
    "_database",
    "mongo_db",
    "mongodb",
    "mdb",
    "_db",
];
/// The top-level package of a module specifier (`py:django/db` → `django`).
fn package_of(module: &str) -> &str {
    let m = module.strip_prefix("py:").unwrap_or(module);
    m.split(['/', '.']).next().unwrap_or(m)
}

/// Packages whose `db` is not MongoDB's: `django.db.models`, `sqlalchemy`, `alembic`'s `op`.
const NOT_MONGO_PACKAGES: &[&str] = &[
    "django",
    "sqlalchemy",
    "flask_sqlalchemy",
    "alembic",
    "peewee",
    "sqlmodel",
    "tortoise",
    "pony",
    "sqlite3",
    "psycopg",
    "psycopg2",
    "pymysql",
    "asyncpg",
];

/// A module of another database's library (`py:django/db/models`: see `NOT_MONGO_PACKAGES`).
fn is_other_database(module: &str) -> bool {
    NOT_MONGO_PACKAGES.contains(&package_of(module))
}

/// Names that, imported from another module of the application, are its client.
const CLIENT_NAMES: &[&str] = &["client", "mongo_client", "motor_client", "mongoclient"];

/// Called through `lang::extract`, which sets this thread's grammar tables.
pub(crate) fn extract(tree: &Tree, text: &str, ctx: &FileContext) -> FileIr {
    let mut x = Extractor {
        src: text,
        bindings: HashMap::default(),
        scope_index: HashMap::default(),
        parents: std::rc::Rc::new(super::flat::Flat::new(tree.root_node())),
        assigned: HashMap::default(),
        appends: HashMap::default(),
        saves: Vec::new(),
        bumps: Vec::new(),
        loop_items: HashMap::default(),
        key_sets: HashMap::default(),
        operator_sets: HashMap::default(),
        functions: HashMap::default(),
        expanding: std::cell::RefCell::new(Vec::new()),
        lower_fuel: std::cell::Cell::new(super::lower_fuel(text.len())),
        index_helper_calls: Vec::new(),
        wrapper_ops: Vec::new(),
        index_table_calls: Vec::new(),
        documents: HashMap::default(),
        module_classes: HashMap::default(),
        access_models: HashMap::default(),
        foreign_models: HashSet::default(),
        scheduled: Vec::new(),
        all_functions: Vec::new(),
        uses_mongo: false,
        uses_mongoengine: false,
        uses_beanie: false,
        star_import: false,
        star_reexports: Vec::new(),
        file_periodic: path_is_periodic(ctx.display_path),
        may_report_progress: may_report_progress(text.as_bytes()),
        request_file: path_handles_requests(ctx.display_path),
        this_module: this_module(ctx.display_path),
        mongo_path: ctx
            .display_path
            .split('/')
            .any(|seg| matches!(seg, "mongo" | "mongodb" | "mongo.py" | "mongodb.py")),
        name_imports: std::cell::RefCell::new(Vec::new()),
        ir: FileIr::default(),
        op_by_call: HashMap::default(),
        pending_modifiers: Vec::new(),
        dropped: HashMap::default(),
        manager_reads: Vec::new(),
        queried_later: HashSet::default(),
        bulk_targets: HashMap::default(),
        index_targets: HashMap::default(),
        resolving_fields: std::cell::RefCell::new(Vec::new()),
        field_fuel: std::cell::Cell::new(0),
        classify_memo: std::cell::RefCell::new(None),
    };
    let root = tree.root_node();
    x.collect_bindings(root);
    if x.file_periodic
        && super::naming::names_job_entity(ctx.display_path, |n| x.bindings.contains_key(n))
    {
        x.file_periodic = false;
    }
    x.scope_index = super::scopes::index_all(&x.bindings, |b| (b.scope.start, b.scope.end, b.pos));
    // After the scope index: a `meta` collection may be a constant imported from another module.
    x.resolve_documents();
    x.note_foreign_models();
    x.note_pending_classes();
    x.note_access_classes();
    x.schedule_callees(root);
    x.collect_operations(root);
    x.note_lookups(root);
    x.expand_index_helpers();
    x.expand_index_tables();
    x.finish(root)
}

/// How Python spells what `lang::size_guards` reads.
const PY_GUARDS: super::GuardSyntax = super::GuardSyntax {
    boundaries: &[
        "function_definition",
        "lambda",
        "class_definition",
        "module",
    ],
    ifs: &["if_statement", "elif_clause"],
    blocks: &["block"],
    exits: &[
        "return_statement",
        "raise_statement",
        "continue_statement",
        "break_statement",
    ],
    asserts: &["assert_statement"],
};

fn span(n: Node) -> Span {
    Span::new(n.start_byte(), n.end_byte())
}

/// A file as an import of itself: `app/models.py` → `./models`.
fn this_module(display_path: &str) -> String {
    let name = super::naming::last_part(display_path, b'/');
    let stem = name.strip_suffix(".py").unwrap_or(name);
    format!("./{stem}")
}

/// The class a name refers to, without its module: `pymongo.UpdateOne` → `UpdateOne`.
fn last_segment(t: &str) -> &str {
    super::naming::last_part(t, b'.')
}

/// A decorator that makes a method callable through its class: `@classmethod`, `@staticmethod`.
fn is_class_level(decorator: &str) -> bool {
    let name = decorator.trim_start_matches('@').trim();
    matches!(last_segment(name), "classmethod" | "staticmethod")
}

/// mongoengine's default collection name: `BlogPost` → `blog_post`.
pub fn mongoengine_collection_name(class: &str) -> String {
    let mut out = String::new();
    for c in class.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out.trim_matches('_').to_string()
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum DeclKind {
    Assign,
    Param,
    Field,
    Import,
}

struct Binding<'t> {
    /// Scope the binding is visible in (function, class or module span).
    scope: Span,
    pos: u32,
    value: Option<Node<'t>>,
    kind: DeclKind,
    /// Type annotation, if any.
    type_node: Option<Node<'t>>,
    /// For imports: where from, as written (`pymongo`, `.db`, `app.models`).
    import_module: Option<String>,
    import: Option<ImportRef>,
}

/// What an expression is, as far as the driver is concerned.
#[derive(Clone, Debug)]
enum Thing {
    Client,
    Db,
    Collection(CollectionRef),
    /// A mongoengine `Document` class.
    Model(CollectionRef, Evidence),
    /// A mongoengine QuerySet (`Model.objects`, `Model.objects(..).filter(..)`).
    QuerySet(CollectionRef, Evidence),
    /// A mongoengine document loaded from a QuerySet (`Model.objects.get(..)`, `.first()`).
    LoadedDoc(CollectionRef, Evidence),
    /// An import from another module of the repository.
    Imported(ImportRef, String),
    /// What a function (or a class method) of another module of the repository returns
    /// (`conf.getMongoConnection()`, `get_db()` imported): the import, named for the call (see
    /// [`ImportRef::is_call`]). Its members are collections if it is a database, which the linker
    /// decides.
    CallResult(ImportRef),
    Unknown,
}

/// The methods that change a list, dict or set in place (`ids.append(..)`, `q.update(..)`,
/// `d.setdefault(..)`): what a loop changes, and what keeps a dict written in the code from being
/// a fixed list.
const MUTATORS: &[&str] = &[
    "append",
    "extend",
    "insert",
    "update",
    "setdefault",
    "pop",
    "popitem",
    "clear",
    "remove",
    "add",
    "discard",
    "sort",
    "reverse",
    "__setitem__",
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum AppendKind {
    /// `xs.append(v)`
    One,
    /// `xs.extend(vs)` / `xs += vs`
    Many,
    /// `xs.insert(0, v)`
    Front,
}

struct DocClass<'t> {
    name_node: Node<'t>,
    bases: Vec<String>,
    meta: Option<Node<'t>>,
    collection: Option<CollectionRef>,
    abstract_: bool,
    /// Not a document of this file (an `EmbeddedDocument`, or any other class).
    embedded: bool,
    /// Not a document of this file, but one if a base from another module is: those bases.
    pending: Option<Vec<ClassBase>>,
    /// The fields declared with an index: `email = StringField(unique=True)`, `unique_with=`,
    /// `primary_key=True` (each assignment, and the field's constructor call).
    indexed_fields: Vec<(Node<'t>, Node<'t>)>,
    /// The names its body assigns (fields among them).
    attributes: Vec<String>,
    /// Its methods named for indexes (`get_indexes`), which may return a list of them.
    index_methods: Vec<(String, Node<'t>)>,
    /// Its `__init__` makes a field unique unless told otherwise (see [`ClassDecl`]).
    unique_by_default: bool,
    /// Fields built with a class named `..Field` and no index option: (assignment, call, class).
    app_fields: Vec<(Node<'t>, Node<'t>, Node<'t>)>,
    /// The values of its class attributes that may wrap a document class (see
    /// `note_access_classes`): `impl = MongoDBAccess(ActionExecutionDB)`, `impl = trace_access`.
    access_values: Vec<Node<'t>>,
    /// beanie's inner `class Settings` (or the older `class Collection`): `name`, `indexes`.
    settings: Option<Node<'t>>,
}

/// Classes of node kinds for the passes over every node (see `lang::KindFlags`).
mod kinds {
    /// `function_definition`.
    pub const FUNCTION: u16 = 1;
    pub const LAMBDA: u16 = 1 << 1;
    /// `class_definition`.
    pub const CLASS: u16 = 1 << 2;
    /// What `collect_bindings` reads (see `binding_node`).
    pub const BINDING: u16 = 1 << 3;
    /// Loops and comprehensions.
    pub const LOOP: u16 = 1 << 4;
    pub const CALL: u16 = 1 << 5;
    /// `attribute`, `subscript`.
    pub const NAMED_REF: u16 = 1 << 6;

    pub fn classify(kind: &str) -> u16 {
        let mut f = match kind {
            "function_definition" => FUNCTION,
            "lambda" => LAMBDA,
            "class_definition" => CLASS,
            "call" => CALL,
            "attribute" | "subscript" => NAMED_REF,
            "for_statement"
            | "while_statement"
            | "list_comprehension"
            | "set_comprehension"
            | "dictionary_comprehension"
            | "generator_expression" => LOOP,
            _ => 0,
        };
        if matches!(
            kind,
            "assignment"
                | "augmented_assignment"
                | "import_statement"
                | "import_from_statement"
                | "parameters"
                | "lambda_parameters"
                | "call"
                | "for_statement"
                | "for_in_clause"
                | "class_definition"
                | "function_definition"
                | "as_pattern"
        ) {
            f |= BINDING;
        }
        f
    }

    pub static FLAGS: crate::lang::KindFlags = crate::lang::KindFlags::new(classify);
}

struct Extractor<'t> {
    src: &'t str,
    /// The `self.x` attributes being classified further up the current `classify` (a cycle guard:
    /// `self.node = self.node.parent` and its neighbours would otherwise be explored again at
    /// every level, up to 8 assignments each, exponentially: one 6,600-line Sefaria module took
    /// minutes).
    resolving_fields: std::cell::RefCell<Vec<String>>,
    /// Assignments of `self.x` attributes that the outermost attribute classification still may
    /// follow: attributes assigned from one another in many orders would otherwise be explored
    /// along every path (exponential), cycle guard or not.
    field_fuel: std::cell::Cell<u32>,
    /// What `classify` gave for (node id, depth) from a clean start (no `self.x` being resolved:
    /// the cycle guard and the fuel then depend on nothing but the node and the depth), while the
    /// rest of the extractor's state is frozen (`Some` only in `collect_operations`' pass over the
    /// references that name collections). The references of one function reach the same bindings
    /// again and again: `db = get_db()`, then `db.users`, `db.orders`, ..
    classify_memo: std::cell::RefCell<Option<HashMap<(usize, usize), Thing>>>,
    bindings: HashMap<String, Vec<Binding<'t>>>,
    /// `bindings` by scope, for `lookup`.
    scope_index: HashMap<String, super::scopes::ScopeIndex>,
    /// Parent links (`Node::parent()` is O(width of every level above)).
    parents: std::rc::Rc<super::flat::Flat<'t>>,
    /// How many times each name is assigned in each scope: (scope start, name) → count.
    assigned: HashMap<(u32, String), u32>,
    /// `xs.append(..)`, `xs.extend(..)`, `xs += [..]`: name → (position, kind, argument).
    appends: HashMap<String, Vec<(u32, AppendKind, Node<'t>)>>,
    /// `doc.save()` calls on a name: (name, position), for `document_list_append`.
    saves: Vec<(&'t str, u32)>,
    /// A document's field counted up or down by a literal step, `feed.subscribers += 1`: (the
    /// statement, the attribute, the step). Saved after, a per-event counter (see
    /// `saved_counters`).
    bumps: Vec<(Node<'t>, Node<'t>, f64)>,
    /// A loop's own variable (`rule` in `for rule in Rule.objects(..)`), by (name, binding
    /// position): what it iterates over.
    loop_items: HashMap<(String, u32), Node<'t>>,
    /// `kw["push__log"] = entry`: name → (scope, key, value), for keyword dicts splatted into a
    /// mongoengine update (`Cls.update(doc, **kw)`).
    key_sets: HashMap<String, Vec<(Span, Node<'t>, Node<'t>)>>,
    /// `spec["$addToSet"]["times"] = v`, `spec.setdefault("$addToSet", {})["sports"] = v`: an
    /// update operator's key set after the update is written (ivre's flows): name → (scope, the
    /// operator's key, the key under it, the value).
    operator_sets: HashMap<String, Vec<(Span, Node<'t>, Node<'t>, Node<'t>)>>,
    /// Functions defined in this file, by name (for `get_db()` helpers returning a database).
    functions: HashMap<String, Node<'t>>,
    /// The functions whose returned pipelines are being read, innermost last (see
    /// `returned_pipeline`, `lang::helper_pipeline`): a cycle guard, and a bound on how deep
    /// helpers nest.
    expanding: std::cell::RefCell<Vec<usize>>,
    /// How many more values `lower` may build in this file (see [`super::lower_fuel`]).
    lower_fuel: std::cell::Cell<u32>,
    /// Calls of a function of this file named for indexes (`upsert_index("tasks", keys)`): the
    /// index declarations of a helper that calls `create_index` (see `expand_index_helpers`).
    index_helper_calls: Vec<(Node<'t>, OpContext)>,
    /// Operations on the collection a name names that may be a function's parameter
    /// (`getattr(db, collection).find_one(query)`): (the call's start, that name, the name
    /// passed as the pipeline, the operation), for the module's [`crate::ir::Wrapper`]s.
    wrapper_ops: Vec<(u32, String, Option<String>, Operation)>,
    /// `create_index(*args, **kwargs)` calls: the declarations of a table of indexes, should the
    /// call be in a loop over one (see `expand_index_tables`).
    index_table_calls: Vec<Node<'t>>,
    /// Classes that may be mongoengine documents, by name.
    documents: HashMap<String, DocClass<'t>>,
    /// The module-level classes of the file by name, for `Host.collection` (see
    /// [`Extractor::class_property`]); a name defined twice maps to `None`.
    module_classes: HashMap<&'t str, Option<Node<'t>>>,
    /// Classes that stand for a document class they wrap (see `note_access_classes`), by name:
    /// the document as an import (of this module for a document of this file) and its name.
    access_models: HashMap<String, (ImportRef, String)>,
    /// Classes of another database's library, by name (see `note_foreign_models`).
    foreign_models: HashSet<String>,
    /// Functions registered with a scheduler in this file (`add_job(fn, 'cron')`, celery beat).
    scheduled: Vec<String>,
    /// Every function definition of the file, in the order of the file.
    all_functions: Vec<Node<'t>>,
    uses_mongo: bool,
    uses_mongoengine: bool,
    /// The file imports beanie: its `Document` classes are beanie's (collection named by their
    /// `Settings.name`, else the class name; class methods `find`, `find_one`, ..).
    uses_beanie: bool,
    /// The module has a `from x import *`: a name it never binds may come from there.
    star_import: bool,
    /// The modules a module-level `from x import *` names.
    star_reexports: Vec<ImportRef>,
    file_periodic: bool,
    /// The file spells `tqdm` or a carriage return (`"\r"`): a function of it may report its
    /// progress on a terminal (see [`Extractor::reports_progress`]).
    may_report_progress: bool,
    /// The file answers requests (see [`path_handles_requests`]).
    request_file: bool,
    /// This file as an import of itself (`./models`), for its pending classes.
    this_module: String,
    /// The file is in a `mongo` package or is a `mongo` module (`scout/adapter/mongo/base.py`).
    mongo_path: bool,
    /// Collection names spelt with another module's constants (see [`NameImport`]).
    name_imports: std::cell::RefCell<Vec<NameImport>>,
    ir: FileIr,
    op_by_call: HashMap<usize, usize>,
    pending_modifiers: Vec<(usize, Vec<Modifier>)>,
    /// Reads on an unknown receiver with no evidence, kept aside by call id: a later
    /// `cursor.skip(n)` on the variable they are bound to makes them driver calls.
    dropped: HashMap<usize, Operation>,
    /// QuerySet reads not ended by a call (`qs = Post.objects(a=1)`, `Post.objects.filter(..)`),
    /// by the node of the chain's end, kept aside until the end: mongoengine's querysets are
    /// lazy, and one bound to a name that a later operation, modifier or terminal reads
    /// (`qs.count()`, `qs.first()`) is that call's query, not one of its own.
    manager_reads: Vec<(usize, Operation)>,
    /// The calls bound to names that an operation or a modifier is later called on.
    queried_later: HashSet<usize>,
    /// Bulk request model calls (by node id) → the collection of the `bulk_write` they are sent with.
    bulk_targets: HashMap<usize, (Option<CollectionRef>, Evidence)>,
    /// `IndexModel(..)` calls (by node id) → the collection of the `create_indexes` they are sent with.
    index_targets: HashMap<usize, (Option<CollectionRef>, Evidence)>,
}

struct CallArgs<'t> {
    positional: Vec<Node<'t>>,
    keywords: Vec<(Node<'t>, Node<'t>)>,
    /// `f(*args)` or `f(**kwargs)`: arguments not read.
    splat: bool,
    /// `f(*args)`: positional arguments not read.
    list_splat: bool,
    /// The dictionaries splatted: `kw` in `f(**kw)`.
    dict_splats: Vec<Node<'t>>,
}

impl<'t> Extractor<'t> {
    fn text(&self, n: Node) -> &'t str {
        // Slicing the `&str` checks two char boundaries; `utf8_text` re-validated every byte.
        self.src.get(n.byte_range()).unwrap_or("")
    }

    fn field(&self, n: Node<'t>, name: &'static str) -> Option<Node<'t>> {
        self.parents.field(n, name)
    }

    fn named_children(&self, n: Node<'t>) -> Vec<Node<'t>> {
        self.parents
            .children(n)
            .filter(|c| c.is_named() && c.k() != "comment")
            .collect()
    }

    fn call_args(&self, call: Node<'t>) -> CallArgs<'t> {
        let mut out = CallArgs {
            positional: Vec::new(),
            keywords: Vec::new(),
            splat: false,
            list_splat: false,
            dict_splats: Vec::new(),
        };
        let Some(a) = self.field(call, "arguments") else {
            return out;
        };
        if a.k() != "argument_list" {
            // `f(x for x in xs)`: one generator argument.
            out.positional.push(a);
            return out;
        }
        for c in self.named_children(a) {
            match c.k() {
                "keyword_argument" => {
                    if let (Some(k), Some(v)) = (self.field(c, "name"), self.field(c, "value")) {
                        out.keywords.push((k, v));
                    }
                }
                "list_splat" => {
                    out.splat = true;
                    out.list_splat = true;
                }
                "dictionary_splat" => {
                    out.splat = true;
                    out.dict_splats
                        .extend(self.named_children(c).into_iter().next());
                }
                _ => out.positional.push(c),
            }
        }
        out
    }

    /// The keyword arguments a dictionary splat passes (`**{"a__gt": 1}`, or `**q` with `q`
    /// bound once to such a literal, or to `dict(a=1)`, clearml-server's `query = dict(id=qid,
    /// company=cid)`): each key, its node and its value; `None` when one is not written out (a
    /// computed key, a nested `**`, a name bound to something else or assigned again).
    fn literal_kwargs(&self, d: Node<'t>) -> Option<Vec<(String, Node<'t>, Node<'t>)>> {
        let literal = match d.k() {
            "dictionary" => d,
            "identifier" => {
                let name = self.text(d);
                let b = self.lookup(name, d.start_byte() as u32)?;
                if !self.is_constant(b, name) || self.key_sets.contains_key(name) {
                    return None;
                }
                b.value.filter(|v| matches!(v.k(), "dictionary" | "call"))?
            }
            _ => return None,
        };
        if literal.k() == "call" {
            let f = self.field(literal, "function")?;
            let args = self.call_args(literal);
            if self.text(f) != "dict" || !args.positional.is_empty() || args.splat {
                return None;
            }
            return Some(
                args.keywords
                    .iter()
                    .map(|&(k, v)| (self.text(k).to_string(), k, v))
                    .collect(),
            );
        }
        self.named_children(literal)
            .into_iter()
            .map(|pair| {
                let (k, v) = (self.field(pair, "key")?, self.field(pair, "value")?);
                let key = self.string_value(k).filter(|_| pair.k() == "pair")?;
                Some((key, k, v))
            })
            .collect()
    }

    fn arg(&self, a: &CallArgs<'t>, i: usize, names: &[&str]) -> Option<Node<'t>> {
        a.positional
            .get(i)
            .copied()
            .or_else(|| self.kwarg(a, names))
    }

    fn kwarg(&self, a: &CallArgs<'t>, names: &[&str]) -> Option<Node<'t>> {
        a.keywords
            .iter()
            .find(|(k, _)| names.contains(&self.text(*k)))
            .map(|(_, v)| *v)
    }

    /// The literal value of a string without interpolations, or of implicitly concatenated strings.
    fn string_value(&self, n: Node<'t>) -> Option<String> {
        match n.k() {
            "string" => {
                let mut start = None;
                let mut end = None;
                let mut prefix = "";
                // Only named children matter (the flat tree holds every one of them).
                for ch in self.parents.children(n) {
                    match ch.k() {
                        "string_start" => {
                            start = Some(ch.end_byte());
                            prefix = self.text(ch);
                        }
                        "string_end" => end = Some(ch.start_byte()),
                        "interpolation" => return None,
                        _ => {}
                    }
                }
                let (s, e) = (start?, end?);
                let raw = self.src.get(s..e.max(s))?;
                if prefix.contains(['r', 'R']) {
                    Some(raw.to_string())
                } else {
                    Some(unescape(raw))
                }
            }
            "concatenated_string" => {
                let mut out = String::new();
                for c in self.named_children(n) {
                    out.push_str(&self.string_value(c)?);
                }
                Some(out)
            }
            "parenthesized_expression" => {
                let inner = self.named_children(n);
                if inner.len() == 1 {
                    self.string_value(inner[0])
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    // ---------------------------------------------------------------- pass 1: bindings

    fn add_binding(&mut self, name: &str, b: Binding<'t>) {
        super::add_binding(&mut self.bindings, name, b);
    }

    fn count_assignment(&mut self, scope: Span, name: &str) {
        *self
            .assigned
            .entry((scope.start, name.to_string()))
            .or_default() += 1;
    }

    fn collect_bindings(&mut self, root: Node<'t>) {
        let mut scopes: Vec<Span> = vec![span(root)];
        let mut classes: Vec<Span> = Vec::new();
        let mut nodes: Vec<(Node<'t>, Span, Option<Span>)> = Vec::new();
        let flags = kinds::FLAGS.table();
        self.parents
            .clone()
            .walk_flagged(root, flags, |n, f, enter| {
                let function = f & (kinds::FUNCTION | kinds::LAMBDA) != 0;
                let class_def = f & kinds::CLASS != 0;
                if enter {
                    if function {
                        scopes.push(span(n));
                    }
                    if class_def {
                        classes.push(span(n));
                        scopes.push(span(n));
                    }
                    if f & kinds::BINDING != 0 {
                        // A class's own node is recorded in the scope around it.
                        let scope = if f & (kinds::CLASS | kinds::FUNCTION) != 0 {
                            scopes[scopes.len().saturating_sub(2)]
                        } else {
                            *scopes.last().unwrap()
                        };
                        let class = if class_def {
                            None
                        } else {
                            classes.last().copied()
                        };
                        nodes.push((n, scope, class));
                    }
                } else {
                    if function {
                        scopes.pop();
                    }
                    if class_def {
                        classes.pop();
                        scopes.pop();
                    }
                }
            });
        self.bindings.reserve(nodes.len());
        for (n, scope, class) in nodes {
            self.binding_node(n, scope, class);
        }
    }

    fn binding_node(&mut self, n: Node<'t>, scope: Span, class: Option<Span>) {
        let pos = n.start_byte() as u32;
        match n.k() {
            "assignment" => {
                let Some(left) = self.field(n, "left") else {
                    return;
                };
                let mut right = self.field(n, "right");
                // `a = b = value`
                for _ in 0..8 {
                    match right {
                        Some(r) if r.k() == "assignment" => right = self.field(r, "right"),
                        _ => break,
                    }
                }
                let type_node = self.field(n, "type");
                self.bind_target(left, right, type_node, scope, class, pos);
            }
            "augmented_assignment" => {
                let (Some(left), Some(right)) = (self.field(n, "left"), self.field(n, "right"))
                else {
                    return;
                };
                let op = self.field(n, "operator").map(|o| self.text(o));
                // `feed.subscribers += 1`: a document's counter, if the document is saved.
                if left.k() == "attribute"
                    && matches!(op, Some("+=" | "-="))
                    && matches!(right.k(), "integer" | "float")
                    && self
                        .field(left, "object")
                        .is_some_and(|o| o.k() == "identifier")
                {
                    if let Ok(step) = self.text(right).replace('_', "").parse::<f64>() {
                        let step = if op == Some("-=") { -step } else { step };
                        self.bumps.push((n, left, step));
                    }
                }
                if left.k() == "identifier" {
                    let name = self.text(left).to_string();
                    if op == Some("+=") {
                        self.appends
                            .entry(name)
                            .or_default()
                            .push((pos, AppendKind::Many, right));
                    } else {
                        self.count_assignment(scope, &name);
                        self.count_assignment(scope, &name);
                    }
                }
            }
            "for_statement" | "for_in_clause" => {
                if let Some(left) = self.field(n, "left") {
                    self.bind_target(left, None, None, scope, None, pos);
                    if let (true, Some(right)) = (left.k() == "identifier", self.field(n, "right"))
                    {
                        self.loop_items
                            .insert((self.text(left).to_string(), pos), right);
                    }
                    // `for i, doc in enumerate(docs)`: `doc` is an item of `docs`.
                    if let (true, Some(over)) = (
                        matches!(left.k(), "pattern_list" | "tuple_pattern"),
                        self.field(n, "right").and_then(|r| self.enumerated(r)),
                    ) {
                        if let [_, item] = self.named_children(left).as_slice() {
                            if item.k() == "identifier" {
                                self.loop_items
                                    .insert((self.text(*item).to_string(), pos), over);
                            }
                        }
                    }
                }
            }
            "as_pattern" => {
                if let Some(alias) = self.field(n, "alias") {
                    for id in self.identifiers_in(alias) {
                        let name = self.text(id).to_string();
                        self.count_assignment(scope, &name);
                        self.count_assignment(scope, &name);
                        self.add_binding(
                            &name,
                            Binding {
                                scope,
                                pos,
                                value: None,
                                kind: DeclKind::Assign,
                                type_node: None,
                                import_module: None,
                                import: None,
                            },
                        );
                    }
                }
            }
            "import_statement" => {
                for c in self.named_children(n) {
                    let (module, local) = match c.k() {
                        "dotted_name" => {
                            let m = self.text(c).to_string();
                            let first = m.split('.').next().unwrap_or("").to_string();
                            (m, first)
                        }
                        "aliased_import" => {
                            let (Some(name), Some(alias)) =
                                (self.field(c, "name"), self.field(c, "alias"))
                            else {
                                continue;
                            };
                            (self.text(name).to_string(), self.text(alias).to_string())
                        }
                        _ => continue,
                    };
                    self.note_module(&module);
                    let import = Some(ImportRef {
                        module: self.module_specifier(&module),
                        export: "*".into(),
                    });
                    self.add_binding(
                        &local,
                        Binding {
                            scope,
                            pos,
                            value: None,
                            kind: DeclKind::Import,
                            type_node: None,
                            import_module: Some(module.clone()),
                            import,
                        },
                    );
                }
            }
            "import_from_statement" => {
                let Some(m) = self.field(n, "module_name") else {
                    return;
                };
                let module = self.text(m).to_string();
                self.note_module(&module);
                if self
                    .named_children(n)
                    .iter()
                    .any(|c| c.k() == "wildcard_import")
                {
                    self.star_import = true;
                    // At module level, a re-export of every public name (see `ExportTarget::Star`).
                    if self.parents.of(n).is_some_and(|p| p.k() == "module") {
                        let module = self.module_specifier(&module);
                        self.star_reexports.push(ImportRef {
                            module,
                            export: "*".into(),
                        });
                    }
                }
                let mut c = n.walk();
                let names: Vec<Node<'t>> = n.children_by_field_name("name", &mut c).collect();
                for name in names {
                    let (export, local) = match name.k() {
                        "dotted_name" => (self.text(name).to_string(), self.text(name).to_string()),
                        "aliased_import" => {
                            let (Some(nm), Some(alias)) =
                                (self.field(name, "name"), self.field(name, "alias"))
                            else {
                                continue;
                            };
                            (self.text(nm).to_string(), self.text(alias).to_string())
                        }
                        _ => continue,
                    };
                    // `from . import db`: a module of the package; `from .db import orders`: a name.
                    let (spec, export) = if module.chars().all(|c| c == '.') {
                        (
                            self.module_specifier(&format!("{module}{export}")),
                            "*".to_string(),
                        )
                    } else {
                        (self.module_specifier(&module), export)
                    };
                    self.add_binding(
                        &local,
                        Binding {
                            scope,
                            pos,
                            value: None,
                            kind: DeclKind::Import,
                            type_node: None,
                            import_module: Some(module.clone()),
                            import: Some(ImportRef {
                                module: spec,
                                export,
                            }),
                        },
                    );
                }
            }
            "parameters" | "lambda_parameters" => {
                for p in self.named_children(n) {
                    let (id, type_node, _default) = match p.k() {
                        "identifier" => (Some(p), None, None),
                        "typed_parameter" => (
                            self.named_children(p)
                                .into_iter()
                                .find(|c| c.k() == "identifier"),
                            self.field(p, "type"),
                            None,
                        ),
                        "default_parameter" => (
                            self.field(p, "name").filter(|x| x.k() == "identifier"),
                            None,
                            self.field(p, "value"),
                        ),
                        "typed_default_parameter" => (
                            self.field(p, "name"),
                            self.field(p, "type"),
                            self.field(p, "value"),
                        ),
                        _ => (None, None, None),
                    };
                    let Some(id) = id else { continue };
                    self.add_binding(
                        self.text(id),
                        Binding {
                            scope,
                            pos,
                            value: None,
                            kind: DeclKind::Param,
                            type_node,
                            import_module: None,
                            import: None,
                        },
                    );
                }
            }
            "call" => self.binding_call(n, pos),
            "function_definition" => {
                if let Some(name) = self.field(n, "name") {
                    self.functions.insert(self.text(name).to_string(), n);
                }
                self.all_functions.push(n);
            }
            "class_definition" => self.note_class(n),
            _ => {}
        }
    }

    fn identifiers_in(&self, n: Node<'t>) -> Vec<Node<'t>> {
        let mut out = Vec::new();
        self.parents.walk(n, |c, k, enter| {
            if enter && k == "identifier" {
                out.push(c);
            }
        });
        out
    }

    fn bind_target(
        &mut self,
        left: Node<'t>,
        right: Option<Node<'t>>,
        type_node: Option<Node<'t>>,
        scope: Span,
        class: Option<Span>,
        pos: u32,
    ) {
        match left.k() {
            "identifier" => {
                let name = self.text(left).to_string();
                self.count_assignment(scope, &name);
                // A class attribute is also reachable as `self.x` / `cls.x` from its methods.
                if let Some(class) = class.filter(|c| *c == scope) {
                    for prefix in ["self", "cls"] {
                        self.add_binding(
                            &format!("{prefix}.{name}"),
                            Binding {
                                scope: class,
                                pos,
                                value: right,
                                kind: DeclKind::Field,
                                type_node,
                                import_module: None,
                                import: None,
                            },
                        );
                    }
                }
                self.add_binding(
                    &name,
                    Binding {
                        scope,
                        pos,
                        value: right,
                        kind: DeclKind::Assign,
                        type_node,
                        import_module: None,
                        import: None,
                    },
                );
            }
            "attribute" => {
                let (Some(obj), Some(attr)) =
                    (self.field(left, "object"), self.field(left, "attribute"))
                else {
                    return;
                };
                let o = self.text(obj);
                if (o == "self" || o == "cls") && class.is_some() {
                    let key = ["self.", self.text(attr)].concat();
                    let class = class.unwrap_or(scope);
                    self.count_assignment(class, &key);
                    for prefix in ["self", "cls"] {
                        self.add_binding(
                            &format!("{prefix}.{}", self.text(attr)),
                            Binding {
                                scope: class,
                                pos,
                                value: right,
                                kind: DeclKind::Field,
                                type_node,
                                import_module: None,
                                import: None,
                            },
                        );
                    }
                }
            }
            "subscript" => {
                // `kw["push__log"] = entry`: a keyword a later `f(**kw)` passes.
                let (Some(obj), Some(key), Some(value)) = (
                    self.field(left, "value"),
                    self.field(left, "subscript"),
                    right,
                ) else {
                    return;
                };
                // A computed key (`q[field] = v`) too: the dict's keys are then not all written.
                if obj.k() == "identifier" {
                    self.key_sets
                        .entry(self.text(obj).to_string())
                        .or_default()
                        .push((scope, key, value));
                    return;
                }
                // One level down: `spec["$set"]["x"] = v`, `spec.setdefault("$set", {})["x"] = v`.
                if key.k() != "string" {
                    return;
                }
                let outer = match obj.k() {
                    "subscript" => self.field(obj, "value").zip(self.field(obj, "subscript")),
                    "call" => self
                        .field(obj, "function")
                        .filter(|f| f.k() == "attribute")
                        .filter(|f| {
                            self.field(*f, "attribute")
                                .is_some_and(|a| self.text(a) == "setdefault")
                        })
                        .and_then(|f| self.field(f, "object"))
                        .zip(
                            self.field(obj, "arguments")
                                .and_then(|a| self.named_children(a).first().copied()),
                        ),
                    _ => None,
                };
                if let Some((name, op)) = outer.filter(|(n, k)| {
                    n.k() == "identifier"
                        && self.string_value(*k).is_some_and(|k| k.starts_with('$'))
                }) {
                    self.operator_sets
                        .entry(self.text(name).to_string())
                        .or_default()
                        .push((scope, op, key, value));
                }
            }
            "pattern_list" | "tuple_pattern" | "list_pattern" | "tuple" | "list" => {
                // `a, b = x, y`: pair them up when both sides are written out.
                let targets = self.named_children(left);
                let values = right
                    .filter(|r| matches!(r.k(), "expression_list" | "tuple" | "list"))
                    .map(|r| self.named_children(r));
                for (i, t) in targets.into_iter().enumerate() {
                    let v = values.as_ref().and_then(|vs| vs.get(i).copied());
                    // Unpacking a call result: every target is unknown, and assigned.
                    self.bind_target(t, v, None, scope, class, pos);
                    if v.is_none() && t.k() == "identifier" {
                        self.count_assignment(scope, self.text(t));
                    }
                }
            }
            _ => {}
        }
    }

    fn binding_call(&mut self, n: Node<'t>, pos: u32) {
        let Some(f) = self.field(n, "function") else {
            return;
        };
        if f.k() == "attribute" {
            let (Some(obj), Some(attr)) = (self.field(f, "object"), self.field(f, "attribute"))
            else {
                return;
            };
            let method = self.text(attr);
            if method == "save" && obj.k() == "identifier" {
                self.saves.push((self.text(obj), pos));
            }
            // Read only for the methods below (most calls are none of them).
            let call_args = std::cell::OnceCell::new();
            let args = || call_args.get_or_init(|| self.call_args(n));
            let appended = match method {
                _ if obj.k() != "identifier" => None,
                "append" => Some((AppendKind::One, args().positional.first().copied())),
                // A set's (`names.add(..)`, `names.update(..)`), which stops it being fixed.
                "extend" | "update" => Some((AppendKind::Many, args().positional.first().copied())),
                "add" => Some((AppendKind::One, args().positional.first().copied())),
                "insert" if args().positional.len() == 2 => {
                    let front = self.text(args().positional[0]) == "0";
                    if front {
                        Some((AppendKind::Front, args().positional.get(1).copied()))
                    } else {
                        Some((AppendKind::One, args().positional.get(1).copied()))
                    }
                }
                _ => None,
            };
            // Scheduler registrations: `scheduler.add_job(rollup, "cron", ..)`,
            // `schedule.every().day.do(job)`, `app.add_periodic_task(crontab(..), task.s())`.
            let target = match method {
                "add_job" | "do" | "scheduled_job" => args().positional.first().copied(),
                // `task.add_task(TaskServer, seconds=range(0, 60, 5))`: a class run on a timer.
                "add_task"
                    if args().keywords.iter().any(|(k, _)| {
                        matches!(
                            self.text(*k),
                            "seconds"
                                | "minutes"
                                | "hours"
                                | "interval"
                                | "cron"
                                | "trigger"
                                | "schedule"
                                | "run_every"
                        )
                    }) =>
                {
                    args().positional.first().copied()
                }
                "add_periodic_task" => args().positional.get(1).copied(),
                _ => None,
            };
            if let Some((k, Some(v))) = appended {
                let name = self.text(obj).to_string();
                self.appends.entry(name).or_default().push((pos, k, v));
            }
            if let Some(t) = target {
                let t = self.text(t);
                let t = t.split('(').next().unwrap_or(t);
                let t = t.strip_suffix(".s").unwrap_or(t);
                self.scheduled.push(last_segment(t).to_string());
            }
        }
    }

    fn note_module(&mut self, module: &str) {
        let segs: Vec<&str> = module.split('.').collect();
        if segs
            .iter()
            .any(|s| PY_MONGO_MODULES.contains(s) || s.contains("mongo"))
        {
            self.uses_mongo = true;
        }
        if segs.iter().any(|s| s.contains("mongoengine")) {
            self.uses_mongoengine = true;
        }
        if segs.first() == Some(&"beanie") {
            self.uses_beanie = true;
            self.uses_mongo = true;
        }
    }

    /// A Python module name as the linker's path-like specifier: `.db` → `./db`,
    /// `..models.post` → `../models/post`, `app.db` → `py:app/db`.
    fn module_specifier(&self, module: &str) -> String {
        let dots = module.chars().take_while(|c| *c == '.').count();
        let rest = module[dots..].replace('.', "/");
        if dots == 0 {
            return format!("py:{rest}");
        }
        let mut s = if dots == 1 {
            "./".to_string()
        } else {
            "../".repeat(dots - 1)
        };
        s.push_str(&rest);
        s
    }

    /// Records a class that may be a mongoengine document (decided once every class is known).
    fn note_class(&mut self, n: Node<'t>) {
        let Some(name) = self.field(n, "name") else {
            return;
        };
        let holder = self
            .parents
            .of(n)
            .filter(|p| p.k() == "decorated_definition")
            .map_or(self.parents.of(n), |d| self.parents.of(d));
        if holder.is_some_and(|h| h.k() == "module") {
            self.module_classes
                .entry(self.text(name))
                .and_modify(|c| *c = None)
                .or_insert(Some(n));
        }
        let bases: Vec<String> = self
            .field(n, "superclasses")
            .map(|s| {
                self.named_children(s)
                    .into_iter()
                    .filter(|b| b.k() != "keyword_argument")
                    // A generic base is its class: `Document[DatasetQuerySet]` is `Document`.
                    .map(|b| match b.k() {
                        "subscript" => self.field(b, "value").unwrap_or(b),
                        _ => b,
                    })
                    .map(|b| self.text(b).to_string())
                    .collect()
            })
            .unwrap_or_default();
        let mut meta = None;
        let mut indexed_fields = Vec::new();
        let mut attributes = Vec::new();
        let mut index_methods = Vec::new();
        let mut unique_by_default = false;
        let mut app_fields = Vec::new();
        let mut access_values = Vec::new();
        let mut settings = None;
        if let Some(body) = self.field(n, "body") {
            for stmt in self.named_children(body) {
                if stmt.k() == "class_definition"
                    && self
                        .field(stmt, "name")
                        .is_some_and(|c| matches!(self.text(c), "Settings" | "Collection"))
                {
                    settings = Some(stmt);
                    continue;
                }
                let def = match stmt.k() {
                    "decorated_definition" => self.field(stmt, "definition"),
                    "function_definition" => Some(stmt),
                    _ => None,
                };
                if let Some((def, name)) = def
                    .filter(|d| d.k() == "function_definition")
                    .and_then(|d| Some((d, self.field(d, "name")?)))
                {
                    let name = self.text(name);
                    if name.to_ascii_lowercase().contains("index") {
                        index_methods.push((name.to_string(), def));
                    } else if name == "__init__" {
                        unique_by_default |= self.sets_unique_by_default(def);
                    }
                    continue;
                }
                let Some(a) = self.statement_assignment(stmt) else {
                    continue;
                };
                if let Some(l) = self.field(a, "left").filter(|l| l.k() == "identifier") {
                    attributes.push(self.text(l).to_string());
                    if let Some(r) = self
                        .field(a, "right")
                        .filter(|r| matches!(r.k(), "call" | "identifier"))
                    {
                        access_values.push(r);
                    }
                }
                if self.field(a, "left").map(|l| self.text(l)) == Some("meta") {
                    meta = self.field(a, "right");
                } else if let Some(call) = self
                    .field(a, "right")
                    .and_then(|r| self.indexed_field_call(r))
                {
                    indexed_fields.push((a, call));
                } else if let Some((call, class)) = self
                    .field(a, "right")
                    .and_then(|r| self.field_class_call(r))
                {
                    app_fields.push((a, call, class));
                }
            }
        }
        self.documents.insert(
            self.text(name).to_string(),
            DocClass {
                name_node: name,
                bases,
                meta,
                collection: None,
                abstract_: false,
                embedded: false,
                pending: None,
                indexed_fields,
                attributes,
                index_methods,
                unique_by_default,
                app_fields,
                access_values,
                settings,
            },
        );
    }

    /// Decides which recorded classes are mongoengine documents, and their collection names.
    fn resolve_documents(&mut self) {
        let names: Vec<String> = self.documents.keys().cloned().collect();
        let mut is_doc: HashMap<String, bool> = HashMap::default();
        // Inheritance within the file: iterate to a fixpoint (bounded by the number of classes).
        for _ in 0..=names.len().min(64) {
            let mut changed = false;
            for name in &names {
                if is_doc.contains_key(name) {
                    continue;
                }
                let d = &self.documents[name];
                let direct = d.bases.iter().any(|b| {
                    let last = last_segment(b);
                    // flask-mongoengine's `db = MongoEngine(app)` … `class Post(db.Document)`,
                    // its `db` imported from the application.
                    PY_MONGOENGINE_DOCUMENTS.contains(&last)
                        && (self.uses_mongoengine
                            || self.uses_beanie
                            || b.contains("mongoengine")
                            || b.starts_with("me.")
                            || b.starts_with("db."))
                });
                let inherited = d
                    .bases
                    .iter()
                    .any(|b| is_doc.get(b.as_str()) == Some(&true));
                if direct || inherited {
                    is_doc.insert(name.clone(), true);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let mut resolved: Vec<(String, Option<CollectionRef>, bool)> = Vec::new();
        for name in &names {
            if is_doc.get(name) != Some(&true) {
                continue;
            }
            let d = &self.documents[name];
            let meta = d.meta.map(|m| self.lower_meta(m));
            let (mut r, _, abstract_) = self.document_collection(name, d.name_node, meta.as_ref());
            // beanie: `class Settings: name = "users"`, else the class's own name.
            if self.uses_beanie && d.meta.is_none() {
                r.name = CollectionName::Literal { name: name.clone() };
                // (A class without `Settings` of its own has its base's: `class UserDB(UserDoc)`
                // keeps `UserDoc`'s `name = "users"`.)
                let mut settings = d.settings;
                let mut class = d;
                for _ in 0..8 {
                    if settings.is_some() {
                        break;
                    }
                    let Some(base) = class.bases.iter().find_map(|b| self.documents.get(b)) else {
                        break;
                    };
                    settings = base.settings;
                    class = base;
                }
                if let Some((node, value)) = settings.and_then(|c| self.settings_name(c)) {
                    r.name = CollectionName::Literal { name: value };
                    r.span = span(node);
                }
            }
            let r = Some(r);
            resolved.push((name.clone(), r, abstract_));
        }
        // Inherit the parent's collection when the parent is concrete. (A beanie document has
        // a collection of its own, unless its parent's `Settings` says `is_root = True`.)
        let by_name: HashMap<String, (Option<CollectionRef>, bool)> = resolved
            .iter()
            .filter(|(n, _, _)| {
                !self.uses_beanie
                    || self.documents[n.as_str()]
                        .settings
                        .and_then(|c| self.settings_value(c, "is_root"))
                        .is_some_and(|v| self.text(v) == "True")
            })
            .map(|(n, r, a)| (n.clone(), (r.clone(), *a)))
            .collect();
        for (name, r, a) in resolved {
            let d = self.documents.get_mut(&name).unwrap();
            d.abstract_ = a;
            let has_explicit =
                d.meta.is_some() && r.as_ref().is_some_and(|r| r.span != span(d.name_node));
            let parent = d.bases.iter().find_map(|b| by_name.get(b.as_str()));
            d.collection = match parent {
                Some((Some(pr), false)) if !has_explicit => Some(pr.clone()),
                _ => r,
            };
        }
        for d in self.documents.values_mut() {
            if d.collection.is_none() {
                d.embedded = true;
            }
        }
    }

    /// The filter of a beanie query, its arguments together: `User.email == e` is `{email: e}`,
    /// `User.age > 3` `{age: {$gt: 3}}`, `User.profile.city == c` `{"profile.city": c}`,
    /// `In(User.role, roles)` `{role: {$in: roles}}`, a dict as written; any other argument
    /// (`Or(..)`, `Text(..)`) adds fields the code does not show (`...`).
    fn beanie_filter(&self, call: Node<'t>, args: &[Node<'t>]) -> Value {
        let mut fields: Vec<Field> = Vec::new();
        for &a in args {
            let a = self.unwrap_expr(a);
            match a.k() {
                "comparison_operator" => {
                    let operands = self.named_children(a);
                    let op = self.field(a, "operators").map(|o| self.text(o));
                    if let ([left, right], Some(op)) = (operands.as_slice(), op) {
                        if let Some(key) = self.beanie_path(*left) {
                            let value = self.lower(*right, 0);
                            // (`None`: no comparison of MongoDB's; `Some(None)`: equality.)
                            let operator = match op {
                                "==" => Some(None),
                                "!=" => Some(Some("$ne")),
                                ">" => Some(Some("$gt")),
                                ">=" => Some(Some("$gte")),
                                "<" => Some(Some("$lt")),
                                "<=" => Some(Some("$lte")),
                                _ => None,
                            };
                            if let Some(operator) = operator {
                                let value = match operator {
                                    None => value,
                                    Some(o) => Value::keyed(span(a), o, span(a), value),
                                };
                                fields.push(Field {
                                    key: key.to_string(),
                                    key_span: span(*left),
                                    value,
                                });
                                continue;
                            }
                        }
                    }
                }
                "dictionary" => {
                    if let ValueKind::Document(fs) = self.lower(a, 0).kind {
                        fields.extend(fs);
                        continue;
                    }
                }
                "call" => {
                    let f = self.field(a, "function").map(|f| self.text(f));
                    let xs = self.call_args(a).positional;
                    if let (Some("In" | "NotIn"), [field, values]) = (f, xs.as_slice()) {
                        if let Some(key) = self.beanie_path(*field) {
                            let o = if f == Some("In") { "$in" } else { "$nin" };
                            fields.push(Field {
                                key: key.to_string(),
                                key_span: span(*field),
                                value: Value::keyed(span(a), o, span(a), self.lower(*values, 0)),
                            });
                            continue;
                        }
                    }
                }
                _ => {}
            }
            fields.push(Field::spread(span(a), self.text(a), false));
        }
        let first = args.first().map_or(span(call), |a| span(*a));
        let last = args.last().map_or(span(call), |a| span(*a));
        Value {
            span: Span::new(first.start as usize, last.end as usize),
            kind: ValueKind::Document(fields),
        }
    }

    /// The indexes of beanie's documents: `email: Indexed(str, unique=True)` fields, and the
    /// entries of `class Settings: indexes = [..]` (a field's name, a list of `(field,
    /// direction)` pairs, or an `IndexModel(..)`, whose operation the call made).
    fn beanie_indexes(&mut self) {
        let mut new_ops: Vec<Operation> = Vec::new();
        let mut model_indexes: Vec<(Span, CollectionRef)> = Vec::new();
        for d in self.documents.values() {
            let Some(coll) = d.collection.clone().filter(|_| !d.embedded) else {
                continue;
            };
            let Some(class) = self.parents.of(d.name_node) else {
                continue;
            };
            let index_op = |sp: Span, keys: Value, unique: bool| {
                let mut op = Operation::new(OpKind::CreateIndex, "create_index", sp, sp);
                op.filter = Some(keys);
                if unique {
                    let yes = Value {
                        span: sp,
                        kind: ValueKind::Bool(true),
                    };
                    op.options = Some(Value::keyed(sp, "unique", sp, yes));
                }
                op.collection = Some(coll.clone());
                op.evidence = Evidence::Resolved;
                op
            };
            // `email: Indexed(str, unique=True)`.
            for stmt in self
                .field(class, "body")
                .map(|b| self.named_children(b))
                .unwrap_or_default()
            {
                let Some(a) = self.statement_assignment(stmt) else {
                    continue;
                };
                let (Some(left), Some(ty)) = (self.field(a, "left"), self.field(a, "type")) else {
                    continue;
                };
                let t = self.text(ty);
                if left.k() != "identifier" || !t.starts_with("Indexed(") {
                    continue;
                }
                let sp = span(a);
                let direction = if t.contains("TEXT") {
                    ValueKind::String("text".into())
                } else {
                    ValueKind::Number(1.0)
                };
                let direction = Value {
                    span: span(ty),
                    kind: direction,
                };
                let keys = Value::keyed(span(left), self.text(left), span(left), direction);
                new_ops.push(index_op(sp, keys, t.contains("unique=True")));
            }
            let Some(list) = d
                .settings
                .and_then(|c| self.settings_value(c, "indexes"))
                .filter(|l| l.k() == "list")
            else {
                continue;
            };
            for e in self.named_children(list) {
                match e.k() {
                    "string" | "list" | "tuple" => {
                        new_ops.push(index_op(span(e), self.index_keys(e), false))
                    }
                    "call" => model_indexes.push((span(e), coll.clone())),
                    _ => {}
                }
            }
        }
        for (sp, coll) in model_indexes {
            for op in &mut self.ir.operations {
                if op.span == sp && op.kind == OpKind::CreateIndex {
                    op.collection = Some(coll.clone());
                    op.evidence = Evidence::Resolved;
                }
            }
        }
        self.ir.operations.extend(new_ops);
    }

    /// beanie's update operators (`beanie.operators`): `Set({User.name: n})`, `Inc({Post.views:
    /// 1})`, `Push({Post.tags: t})`, `AddToSet(..)`, `Pull(..)`, `Max(..)`, `Min(..)`, their dict's
    /// keys a document class's fields (or strings).
    fn beanie_update(&self, call: Node<'t>, depth: usize) -> Option<Value> {
        let f = self.text(self.field(call, "function")?);
        let op = match f {
            "Set" => "$set",
            "Inc" => "$inc",
            "Push" => "$push",
            "AddToSet" => "$addToSet",
            "Pull" => "$pull",
            "Max" => "$max",
            "Min" => "$min",
            "Unset" => "$unset",
            _ => return None,
        };
        let args = self.call_args(call);
        let [dict] = args.positional.as_slice() else {
            return None;
        };
        let dict = self.unwrap_expr(*dict);
        if dict.k() != "dictionary" {
            return None;
        }
        let mut fields = Vec::new();
        for p in self.named_children(dict) {
            let (Some(k), Some(v)) = (self.field(p, "key"), self.field(p, "value")) else {
                return None;
            };
            let key = match self.string_value(k) {
                Some(s) => s,
                None => self.beanie_path(k)?.to_string(),
            };
            fields.push(Field {
                key,
                key_span: span(k),
                value: self.lower(v, depth + 1),
            });
        }
        let fields = Value {
            span: span(dict),
            kind: ValueKind::Document(fields),
        };
        Some(Value::keyed(span(call), op, span(call), fields))
    }

    /// The field a beanie document's attribute names: `User.profile.city` is `profile.city`, and
    /// `User.id` the document's `_id`.
    fn beanie_path(&self, n: Node<'t>) -> Option<&'t str> {
        if n.k() != "attribute" {
            return None;
        }
        let path = self.text(n).split_once('.')?.1;
        Some(if path == "id" { "_id" } else { path })
    }

    /// `-User.created` (or `+User.name`), `User` a document class of the file: a sort key.
    fn beanie_sort_key(&self, n: Node<'t>) -> Option<Value> {
        let arg = self.field(n, "argument").filter(|a| a.k() == "attribute")?;
        let (class, key) = self.text(arg).split_once('.')?;
        if !self.documents.contains_key(class) {
            return None;
        }
        let dir = match self.field(n, "operator").map(|o| self.text(o)) {
            Some("-") => -1.0,
            Some("+") => 1.0,
            _ => return None,
        };
        let dir = Value {
            span: span(n),
            kind: ValueKind::Number(dir),
        };
        Some(Value::keyed(span(n), key, span(arg), dir))
    }

    /// The assignment a statement is (`name = "users"`, `email: Indexed(str)`), if it is one.
    fn statement_assignment(&self, stmt: Node<'t>) -> Option<Node<'t>> {
        (stmt.k() == "expression_statement")
            .then(|| self.parents.children(stmt).find(|c| c.is_named()))
            .flatten()
            .filter(|a| a.k() == "assignment")
    }

    /// The method called on what `call` gives (`q.update(..)` for `q`), and that call.
    fn chained_call(&self, call: Node<'t>) -> Option<(&'t str, Node<'t>)> {
        let attr = self.parents.of(call).filter(|p| p.k() == "attribute")?;
        let next = self.parents.of(attr).filter(|p| p.k() == "call")?;
        Some((self.text(self.field(attr, "attribute")?), next))
    }

    /// beanie's `name = "users"` in a document's `class Settings`: the string and its node.
    fn settings_name(&self, settings: Node<'t>) -> Option<(Node<'t>, String)> {
        self.settings_value(settings, "name")
            .and_then(|v| Some((v, self.string_value(v)?)))
    }

    /// The value a document's `class Settings` assigns to `attr`.
    fn settings_value(&self, settings: Node<'t>, attr: &str) -> Option<Node<'t>> {
        let body = self.field(settings, "body")?;
        self.named_children(body).into_iter().find_map(|stmt| {
            let a = self.statement_assignment(stmt)?;
            (self.field(a, "left").map(|l| self.text(l)) == Some(attr))
                .then(|| self.field(a, "right"))
                .flatten()
        })
    }

    /// A document class's collection (`meta["collection"]`, else the class's default name),
    /// whether `meta` names it, and whether the class is abstract.
    fn document_collection(
        &self,
        class: &str,
        name_node: Node<'t>,
        meta: Option<&Value>,
    ) -> (CollectionRef, bool, bool) {
        // A `meta` this file cannot read (a constant of another module: clearml-server's
        // `meta = ABSTRACT_FLAG`) may make the class abstract, each subclass a collection of its
        // own: read so, rather than as one collection its subclasses would all share.
        let abstract_ = meta.is_some_and(|m| {
            matches!(
                m.get("abstract").map(|f| &f.value.kind),
                Some(ValueKind::Bool(true))
            ) || matches!(m.kind, ValueKind::Unknown(_))
        });
        // `meta = {"collection": settings.COL_USERS}` names a collection this file cannot read:
        // unknown, not the class's default name.
        let explicit = meta.and_then(|m| m.get("collection")).map(|f| {
            let name = match &f.value.kind {
                ValueKind::String(s) => CollectionName::Literal { name: s.clone() },
                ValueKind::Unknown(u) => {
                    if u.is_name {
                        self.note_name_import(&u.text, f.value.span.start);
                    }
                    CollectionName::Unknown {
                        text: u.text.clone(),
                    }
                }
                _ => CollectionName::Unknown {
                    text: String::new(),
                },
            };
            (name, f.value.span)
        });
        let is_explicit = explicit.is_some();
        let (name, span) = explicit.unwrap_or_else(|| {
            (
                CollectionName::Literal {
                    name: mongoengine_collection_name(class),
                },
                span(name_node),
            )
        });
        let r = CollectionRef {
            name,
            span,
            via: CollectionVia::MongooseModel,
            import: None,
        };
        (r, is_explicit, abstract_)
    }

    /// The document class a value wraps, as an import: `MongoDBAccess(ActionExecutionDB)` (a
    /// class built with a document class as its one positional argument, not a field), or an
    /// access object imported from another module (`trace_access`, which the linker resolves
    /// if that module binds it so).
    fn access_target(&self, v: Node<'t>, depth: usize) -> Option<(ImportRef, String)> {
        match v.k() {
            "call" => {
                let f = self.field(v, "function")?;
                let class = last_segment(self.text(f));
                if !class.starts_with(|c: char| c.is_ascii_uppercase())
                    || class.ends_with("Field")
                    || self
                        .documents
                        .get(class)
                        .is_some_and(|d| d.collection.is_some())
                    || PY_MONGOENGINE_DOCUMENTS.contains(&class)
                {
                    return None;
                }
                let args = self.call_args(v);
                let [arg] = args.positional[..] else {
                    return None;
                };
                if args.splat || !matches!(arg.k(), "identifier" | "attribute") {
                    return None;
                }
                let name = last_segment(self.text(arg));
                if !name.starts_with(|c: char| c.is_ascii_uppercase()) {
                    return None;
                }
                match self.classify(arg, depth + 1) {
                    Thing::Model(..) => Some((
                        ImportRef {
                            module: self.this_module.clone(),
                            export: name.to_string(),
                        },
                        name.to_string(),
                    )),
                    Thing::Imported(imp, local) => Some((imp, local)),
                    _ => None,
                }
            }
            "identifier" => {
                let name = self.text(v);
                if !name.starts_with(|c: char| c.is_ascii_lowercase()) {
                    return None;
                }
                let b = self.lookup(name, v.start_byte() as u32)?;
                match b.kind {
                    DeclKind::Import => match self.classify_binding(b, name, depth + 1) {
                        Thing::Imported(imp, local) => Some((imp, local)),
                        _ => None,
                    },
                    // `trace_access = MongoDBAccess(TraceDB)` at module level.
                    DeclKind::Assign if depth < 4 => self.access_target(b.value?, depth + 1),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Classes that stand for a document class: StackStorm's persistence classes
    /// (`class ActionExecution(Access): impl = MongoDBAccess(ActionExecutionDB)`), whose class
    /// methods mirror the document's (`ActionExecution.update(doc, push__children=c)` updates
    /// the document `doc`). A class attribute wrapping a document (see `access_target`), and
    /// only one, makes the class and its own `cls`/`self` stand for that document's collection.
    /// Not a document itself, nor an embedded document, whose fields reference documents.
    fn note_access_classes(&mut self) {
        let mut found = Vec::new();
        for (name, d) in &self.documents {
            if d.collection.is_some()
                || d.access_values.is_empty()
                || d.bases.iter().any(|b| b.contains("EmbeddedDocument"))
                || self.foreign_models.contains(name)
            {
                continue;
            }
            let mut targets: Vec<(ImportRef, String)> = d
                .access_values
                .iter()
                .filter_map(|v| self.access_target(*v, 0))
                .collect();
            targets.dedup();
            if let [t] = &targets[..] {
                found.push((name.clone(), t.clone()));
            }
        }
        self.access_models.extend(found);
    }

    /// Marks the classes of another database's library: NewsBlur's Django models
    /// (`class Feed(models.Model)`, `models` from `django.db`), which share their modules, and
    /// their `X.objects.filter(..)`, with mongoengine's documents. A class with a base imported
    /// from such a library (see `NOT_MONGO_PACKAGES`), or a local base that is one, and that is
    /// no document.
    fn note_foreign_models(&mut self) {
        let mut foreign: HashSet<String> = HashSet::default();
        for _ in 0..=self.documents.len().min(64) {
            let mut changed = false;
            for (name, d) in &self.documents {
                if d.collection.is_some() || foreign.contains(name) {
                    continue;
                }
                let at = d.name_node.start_byte() as u32;
                let is_foreign = d.bases.iter().any(|b| {
                    foreign.contains(b)
                        || self
                            .imported_name(b, at)
                            .is_some_and(|i| is_other_database(&i.module))
                });
                if is_foreign {
                    foreign.insert(name.clone());
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        self.foreign_models = foreign;
    }

    /// Marks the classes that are not documents of this file but may be through a base imported
    /// from another module of the repository (see [`PendingClass`]): StackStorm's
    /// `class ActionDB(stormbase.StormFoundationDB, ..)`, whose base is `me.Document` in another
    /// module. Needs the scope index (the bases' imports are looked up where the class stands).
    fn note_pending_classes(&mut self) {
        // A file that imports nothing of MongoDB declares no document through another module's
        // base (and the prefilter, which needs a hint of MongoDB, does not let it in).
        if !(self.uses_mongo || self.uses_mongoengine) {
            return;
        }
        let mut names: Vec<String> = self
            .documents
            .iter()
            .filter(|(n, d)| d.embedded && !d.bases.is_empty() && !self.foreign_models.contains(*n))
            .map(|(n, _)| n.clone())
            .collect();
        names.sort();
        let mut bases: Vec<(Vec<ClassBase>, Vec<String>)> = Vec::with_capacity(names.len());
        for name in &names {
            let (mut imported, mut local) = (Vec::new(), Vec::new());
            for b in self.class_bases(name, &self.documents[name]) {
                match b {
                    ClassBase::Local { name } => local.push(name),
                    imported_base => imported.push(imported_base),
                }
            }
            bases.push((imported, local));
        }
        // A class is pending with an imported base, or a local base that is pending.
        let mut pending: Vec<bool> = bases.iter().map(|(i, _)| !i.is_empty()).collect();
        for _ in 0..=names.len().min(64) {
            let mut changed = false;
            for i in 0..names.len() {
                if pending[i] {
                    continue;
                }
                let through_local = bases[i]
                    .1
                    .iter()
                    .any(|l| names.binary_search(l).is_ok_and(|j| pending[j]));
                if through_local {
                    pending[i] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for (i, (imported, local)) in bases.into_iter().enumerate() {
            if !pending[i] {
                continue;
            }
            let mut all = imported;
            all.extend(
                local
                    .into_iter()
                    .filter(|l| names.binary_search(l).is_ok_and(|j| pending[j]))
                    .map(|name| ClassBase::Local { name }),
            );
            if let Some(d) = self.documents.get_mut(&names[i]) {
                d.pending = Some(all);
            }
        }
    }

    /// `db.StringField`, `db.CASCADE`, `db.init_app`: flask-mongoengine's `db = MongoEngine()`
    /// is mongoengine's namespace, not a database, where this file derives documents from
    /// `db.Document` or the member is one of mongoengine's fields, documents or delete rules.
    fn is_mongoengine_namespace(&self, obj: &str, attr: &str) -> bool {
        let class_like = attr.starts_with(|c: char| c.is_ascii_uppercase())
            && (attr.ends_with("Field") || attr.ends_with("Document"));
        class_like
            || matches!(
                attr,
                "init_app" | "CASCADE" | "NULLIFY" | "PULL" | "DENY" | "DO_NOTHING"
            )
            || self.documents.values().any(|d| {
                d.bases.iter().any(|b| {
                    b.strip_prefix(obj)
                        .and_then(|r| r.strip_prefix('.'))
                        .is_some_and(|doc| PY_MONGOENGINE_DOCUMENTS.contains(&doc))
                })
            })
    }

    /// A class's bases that the linker may follow, in the order written: the classes of this
    /// file, and those imported from another module of the repository.
    fn class_bases(&self, name: &str, d: &DocClass<'t>) -> Vec<ClassBase> {
        let at = d.name_node.start_byte() as u32;
        d.bases
            .iter()
            .filter(|b| !b.contains(['[', '(']) && *b != name)
            .filter_map(|b| self.class_ref(b, at))
            .collect()
    }

    /// A class as the linker finds it: one of this file, or one imported from another module of
    /// the repository (`None` for mongoengine's own, or an unknown name).
    fn class_ref(&self, text: &str, at: u32) -> Option<ClassBase> {
        if self.documents.contains_key(text) {
            return Some(ClassBase::Local {
                name: text.to_string(),
            });
        }
        self.imported_name(text, at)
            .map(|import| ClassBase::Imported { import })
    }

    /// The classes whose index declarations a document may inherit, and the documents whose
    /// bases may declare some (see [`ClassDecl`]): each class with a base the linker can follow,
    /// or with declarations of its own.
    fn class_decls(&self) -> Vec<ClassDecl> {
        if !(self.uses_mongo || self.uses_mongoengine) {
            return Vec::new();
        }
        // Declarations not yet on a collection: the linker gives each its descendant's.
        let nowhere = CollectionRef {
            name: CollectionName::Unknown {
                text: String::new(),
            },
            span: Span::default(),
            via: CollectionVia::MongooseModel,
            import: None,
        };
        let mut out = Vec::new();
        for (name, d) in &self.documents {
            let concrete_here = d.collection.is_some() && !d.abstract_;
            let mut indexes = Vec::new();
            if !concrete_here {
                if let Some(meta) = d.meta {
                    indexes = self.meta_indexes(&self.lower_meta(meta), &nowhere, name);
                }
                indexes.extend(self.field_indexes(d, &nowhere));
            }
            // In the order written: mongoengine merges the bases' declarations in that order.
            let bases = self.class_bases(name, d);
            let at = d.name_node.start_byte() as u32;
            let operands = d
                .meta
                .map(|m| self.index_operands(m, at))
                .unwrap_or_default();
            let index_methods: Vec<IndexList> = d
                .index_methods
                .iter()
                .filter_map(|(method, def)| {
                    Some(IndexList {
                        method: method.clone(),
                        indexes: self.returned_indexes(*def, &nowhere)?,
                    })
                })
                .collect();
            let app_fields = self.app_fields(d, at, &nowhere);
            // A document without either still replaces its descendants' inherited fields.
            if indexes.is_empty()
                && bases.is_empty()
                && index_methods.is_empty()
                && app_fields.is_empty()
                && !d.unique_by_default
                && d.collection.is_none()
            {
                continue;
            }
            out.push(ClassDecl {
                name: name.clone(),
                bases,
                indexes,
                attributes: d.attributes.clone(),
                operands,
                index_methods,
                unique_by_default: d.unique_by_default,
                app_fields,
            });
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out
    }

    /// A class (or constant) imported from another module, as the linker looks it up: `BaseDocument`
    /// (`from .base import BaseDocument`), `stormbase.StormFoundationDB` (`from
    /// st2common.models.db import stormbase`: a module of the package), `base.BaseDocument`
    /// (`from . import base`, `import app.base as base`), `app.base.BaseDocument` (`import
    /// app.base`). `None` for a driver's or mongoengine's own class.
    fn imported_name(&self, base: &str, at: u32) -> Option<ImportRef> {
        let (first, rest) = match base.split_once('.') {
            Some((f, r)) => (f, Some(r)),
            None => (base, None),
        };
        let b = self.lookup(first, at)?;
        let (DeclKind::Import, Some(imp), Some(module)) = (b.kind, &b.import, &b.import_module)
        else {
            return None;
        };
        let root = module.split('.').next().unwrap_or("");
        if root != "mongo" && PY_MONGO_MODULES.contains(&root) {
            return None;
        }
        let Some(rest) = rest else {
            return (imp.export != "*").then(|| imp.clone());
        };
        let (middle, class) = match rest.rsplit_once('.') {
            Some((m, c)) => (Some(m), c),
            None => (None, rest),
        };
        let module = if imp.export != "*" {
            // `from pkg import mod`: `mod.Class` is a class of the module `pkg/mod`.
            format!("{}/{}", imp.module, imp.export)
        } else if module == first
            || (module.starts_with(&format!("{first}.")) && !module.starts_with('.'))
        {
            // `import app.base`: the attribute path names the module from its first segment.
            let path = match middle {
                Some(m) => format!("{first}.{m}"),
                None => first.to_string(),
            };
            return Some(ImportRef {
                module: self.module_specifier(&path),
                export: class.to_string(),
            });
        } else {
            imp.module.clone()
        };
        let module = match middle {
            Some(m) => format!("{module}/{}", m.replace('.', "/")),
            None => module,
        };
        Some(ImportRef {
            module,
            export: class.to_string(),
        })
    }

    /// The value bound to the name `id` where it is used (`qs` in `qs.count()` after
    /// `qs = Post.objects(a=1)`).
    fn bound_value(&self, id: Node<'t>) -> Option<Node<'t>> {
        self.lookup(self.text(id), id.start_byte() as u32)?.value
    }

    fn lookup(&self, name: &str, at: u32) -> Option<&Binding<'t>> {
        let list = self.bindings.get(name)?;
        let index = self.scope_index.get(name)?;
        super::scopes::lookup_latest_before(list, index, at, |b| b.pos, |b| b.value)
    }

    /// The binding of `name` that reaches `at`, where `b` is the latest before it: when `b` is
    /// made in a branch of an `if` and `at` is in another branch of it (`if not sample: sample =
    /// Sample(md5=m)` .. `elif f not in sample.filenames: sample.filenames.append(f)`, crits'
    /// get-or-create), the one before the `if`.
    fn reaching<'b>(&'b self, b: &'b Binding<'t>, name: &str, at: u32) -> &'b Binding<'t> {
        let Some(v) = b.value.filter(|_| b.kind == DeclKind::Assign) else {
            return b;
        };
        // (Only a name bound before in the same scope can have another binding reach.)
        let earlier = self.bindings.get(name).is_some_and(|all| {
            let index = || self.scope_index.get(name);
            super::scopes::bound_before_in_scope(all, index, b.scope, b.pos, |o| (o.scope, o.pos))
        });
        if !earlier {
            return b;
        }
        if let Some(loaded) = self.loaded_or_made(v, name, at) {
            return loaded;
        }
        let mut cur = v;
        for _ in 0..8 {
            let Some(p) = self.parents.of(cur) else {
                return b;
            };
            match p.k() {
                "block" => {
                    let Some(branch) = self.parents.of(p) else {
                        return b;
                    };
                    let statement = match branch.k() {
                        "if_statement" => branch,
                        "elif_clause" | "else_clause" => match self.parents.of(branch) {
                            Some(s) => s,
                            None => return b,
                        },
                        _ => {
                            cur = p;
                            continue;
                        }
                    };
                    if super::scopes::in_another_branch(statement, p, at) {
                        return self
                            .lookup(name, statement.start_byte() as u32)
                            .filter(|e| e.pos < statement.start_byte() as u32)
                            .unwrap_or(b);
                    }
                    return b;
                }
                "function_definition" | "class_definition" | "module" => return b,
                _ => cur = p,
            }
        }
        b
    }

    /// A load-or-make, where `v` is the value of the latest binding of `name` before `at`: `try:
    /// p = Policy.objects.get(user=u)` then `except Policy.DoesNotExist: p = Policy(user=u)` (or
    /// `p = None`), or `if not p: p = Policy(user=u)` after a load. After the `try` (or the `if`),
    /// the name holds the document loaded unless there was none: the binding of the load, which
    /// tells what it is. `None` where `v` is not such a fallback.
    fn loaded_or_made(&self, v: Node<'t>, name: &str, at: u32) -> Option<&Binding<'t>> {
        if !matches!(v.k(), "none" | "call") {
            return None;
        }
        let assignment = self.parents.of(v).filter(|a| a.k() == "assignment")?;
        let statement = self
            .parents
            .of(assignment)
            .filter(|s| s.k() == "expression_statement")?;
        let block = self.parents.of(statement).filter(|b| b.k() == "block")?;
        let branch = self.parents.of(block)?;
        let outer = match branch.k() {
            "except_clause" => self
                .parents
                .of(branch)
                .filter(|t| t.k() == "try_statement")?,
            "if_statement" => {
                let c = self.text(self.field(branch, "condition")?);
                let absent = c.strip_prefix("not ").is_some_and(|n| n.trim() == name)
                    || c.strip_suffix(" is None").is_some_and(|n| n.trim() == name);
                if !absent || self.field(branch, "alternative").is_some() {
                    return None;
                }
                branch
            }
            _ => return None,
        };
        if at < outer.end_byte() as u32 {
            return None;
        }
        // The load: in the `try`'s body (from its start to the handler), or before the `if`.
        let (from, before) = match branch.k() {
            "except_clause" => (outer.start_byte() as u32, branch.start_byte() as u32),
            _ => (0, outer.start_byte() as u32),
        };
        let loaded = self.lookup(name, before)?;
        (loaded.pos >= from
            && loaded
                .value
                .is_some_and(|l| self.unwrap_expr(l).k() == "call"))
        .then_some(loaded)
    }

    /// `b` binds again a parameter of its scope.
    fn rebinds_a_parameter(&self, name: &str, b: &Binding) -> bool {
        self.bindings.get(name).is_some_and(|all| {
            all.iter()
                .any(|o| o.scope == b.scope && o.kind == DeclKind::Param)
        })
    }

    fn is_constant(&self, b: &Binding, name: &str) -> bool {
        match b.kind {
            DeclKind::Assign | DeclKind::Field => {
                self.assigned
                    .get(&(b.scope.start, name.to_string()))
                    .copied()
                    .unwrap_or(0)
                    <= 1
            }
            _ => false,
        }
    }

    // ---------------------------------------------------------------- resolution

    fn unwrap_expr(&self, mut n: Node<'t>) -> Node<'t> {
        for _ in 0..MAX_DEPTH {
            match n.k() {
                "parenthesized_expression" | "await" => {
                    match self.named_children(n).into_iter().next() {
                        Some(c) => n = c,
                        None => return n,
                    }
                }
                _ => return n,
            }
        }
        n
    }

    /// Was `name` imported from pymongo / motor (so `Collection` is the driver's)?
    fn imported_from_driver(&self, name: &str, at: u32) -> bool {
        self.lookup(name, at)
            .and_then(|b| b.import_module.as_deref())
            .is_some_and(|m| m.starts_with("pymongo") || m.starts_with("motor"))
    }

    /// What a type annotation says: a database, a collection, a client.
    fn classify_type(&self, t: Node<'t>, pos: u32, name: &str) -> Thing {
        let text = self.text(t);
        for token in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.')) {
            if token.is_empty() {
                continue;
            }
            let last = last_segment(token);
            let driver = token.contains("pymongo")
                || token.contains("motor")
                || self.imported_from_driver(
                    token.split('.').next().unwrap_or(token),
                    t.start_byte() as u32,
                );
            if PY_COLLECTION_TYPES.contains(&last) || (last == "Collection" && driver) {
                // Named after the variable that holds it: the annotation says nothing about the name.
                return Thing::Collection(CollectionRef {
                    name: CollectionName::Unknown {
                        text: name.trim_start_matches("self.").to_string(),
                    },
                    span: Span::new(pos as usize, pos as usize),
                    via: CollectionVia::Driver,
                    import: None,
                });
            }
            if PY_DATABASE_TYPES.contains(&last) || (last == "Database" && driver) {
                return Thing::Db;
            }
            if PY_CLIENT_CLASSES.contains(&last) {
                return Thing::Client;
            }
        }
        Thing::Unknown
    }

    fn classify(&self, n: Node<'t>, depth: usize) -> Thing {
        if depth > MAX_DEPTH {
            return Thing::Unknown;
        }
        if !self.resolving_fields.borrow().is_empty() {
            return self.classify_uncached(n, depth);
        }
        let key = (n.id(), depth);
        if let Some(memo) = self.classify_memo.borrow().as_ref() {
            if let Some(t) = memo.get(&key) {
                return t.clone();
            }
        }
        let t = self.classify_uncached(n, depth);
        if let Some(memo) = self.classify_memo.borrow_mut().as_mut() {
            memo.insert(key, t.clone());
        }
        t
    }

    fn classify_uncached(&self, n: Node<'t>, depth: usize) -> Thing {
        let n = self.unwrap_expr(n);
        match n.k() {
            "identifier" => {
                let name = self.text(n);
                match self.lookup(name, n.start_byte() as u32) {
                    Some(b) if b.kind == DeclKind::Param && (name == "cls" || name == "self") => {
                        match self.access_class_of(n) {
                            Thing::Unknown => self.classify_binding(b, name, depth + 1),
                            t => t,
                        }
                    }
                    Some(b) => {
                        let b = self.reaching(b, name, n.start_byte() as u32);
                        self.classify_binding(b, name, depth + 1)
                    }
                    // `from sefaria.sheets import *` … `db.sheets`: the star import's `db`.
                    None if self.star_import && DB_NAMES.contains(&name) => Thing::Db,
                    // `from wbb.utils.dbfeds import *` … `fedsdb.update_one(..)`: a name the
                    // file binds nowhere is the one star import's, for the linker to decide.
                    // (Not the driver's: `from mongoengine import *` names its classes.)
                    None => match self.document_class(name) {
                        Thing::Unknown => {
                            let mut stars = self.star_reexports.iter().filter(|s| {
                                !s.module
                                    .split(['/', '.'])
                                    .any(|seg| PY_MONGO_MODULES.contains(&seg))
                            });
                            match (stars.next(), stars.next(), self.star_reexports.len()) {
                                (Some(star), None, 1) => Thing::Imported(
                                    ImportRef {
                                        module: star.module.clone(),
                                        export: name.to_string(),
                                    },
                                    name.to_string(),
                                ),
                                _ => Thing::Unknown,
                            }
                        }
                        thing => thing,
                    },
                }
            }
            "attribute" => {
                let (Some(obj), Some(attr)) = (self.field(n, "object"), self.field(n, "attribute"))
                else {
                    return Thing::Unknown;
                };
                let attr_name = self.text(attr);
                let obj_text = self.text(obj);
                // (A local named `cls`, `cls = kinds[item["type"]]` in a static method, yeti's
                // feeds, is what it is bound to.)
                let local_cls = obj_text == "cls"
                    && self
                        .lookup("cls", obj.start_byte() as u32)
                        .is_some_and(|b| b.kind != DeclKind::Param);
                if obj.k() == "identifier"
                    && (obj_text == "self" || obj_text == "cls")
                    && !local_cls
                {
                    // `self.db = None` in `__init__`, `self.db = client[name]` in `connect()`:
                    // any assignment in the class that says what the attribute is.
                    let key = format!("{obj_text}.{attr_name}");
                    let at = n.start_byte() as u32;
                    let Some(list) = self.bindings.get(&key) else {
                        return self.property_of_class(n, attr_name, depth);
                    };
                    if self.resolving_fields.borrow().contains(&key) {
                        return Thing::Unknown;
                    }
                    if self.resolving_fields.borrow().is_empty() {
                        self.field_fuel.set(FIELD_FUEL);
                    }
                    self.resolving_fields.borrow_mut().push(key.clone());
                    let mut found = Thing::Unknown;
                    // What a function of another module returns (`self.db = get_db()`), unless
                    // another assignment says more (the linker may find it is no database).
                    let mut call_result = None;
                    for b in list
                        .iter()
                        .filter(|b| b.scope.start <= at && at <= b.scope.end)
                        .take(8)
                    {
                        if b.value.is_some_and(|v| {
                            v.start_byte() as u32 <= at && at < v.end_byte() as u32
                        }) {
                            continue;
                        }
                        let fuel = self.field_fuel.get();
                        if fuel == 0 {
                            break;
                        }
                        self.field_fuel.set(fuel - 1);
                        match self.classify_binding(b, &key, depth + 1) {
                            Thing::Unknown => {}
                            t @ Thing::CallResult(_) => {
                                call_result.get_or_insert(t);
                            }
                            t => {
                                found = t;
                                break;
                            }
                        }
                    }
                    self.resolving_fields.borrow_mut().pop();
                    return match (found, call_result) {
                        (Thing::Unknown, Some(t)) => t,
                        (found, _) => found,
                    };
                }
                if attr_name.starts_with('_') {
                    return Thing::Unknown;
                }
                // Django's `settings.MONGO_DB` (kobotoolbox: `MONGO_DB = mongo_client[name]` in
                // the settings module, which `django.conf.settings` exposes): a setting named
                // for a MongoDB database is one.
                if obj.k() == "identifier"
                    && matches!(obj_text, "settings" | "config" | "conf")
                    && is_mongo_database_setting(attr_name)
                {
                    return Thing::Db;
                }
                // `Host.collection`, `Host` a class of this module with such a property.
                if obj.k() == "identifier" && attr_name != "objects" {
                    if let Some(Some(class)) = self.module_classes.get(obj_text) {
                        if let t @ (Thing::Db | Thing::Collection(_) | Thing::CallResult(_)) =
                            self.class_property(*class, attr_name, depth + 1)
                        {
                            return t;
                        }
                    }
                }
                // `db.cves`: the collection named by the attribute.
                let named = |import: Option<ImportRef>| {
                    Thing::Collection(CollectionRef {
                        name: CollectionName::Literal {
                            name: attr_name.to_string(),
                        },
                        span: span(attr),
                        via: CollectionVia::Driver,
                        import,
                    })
                };
                match self.classify(obj, depth + 1) {
                    Thing::Client if !is_client_attr(attr_name) => Thing::Db,
                    // `self._db.db` (IVRE's connection object, whose `db` property is the
                    // database): the database a wrapper holds, not a collection named `db`.
                    Thing::Db if matches!(attr_name, "db" | "database") => Thing::Db,
                    Thing::Db
                        if !is_db_attr(attr_name)
                            && !self.is_mongoengine_namespace(obj_text, attr_name) =>
                    {
                        named(None)
                    }
                    // `db.cves`, `db` what a function of another module returns (`db =
                    // conf.getMongoConnection()`): a collection if that is a database, which the
                    // linker decides. (`cls.objects`, `cls = class_from_type(t)`: below.)
                    Thing::CallResult(imp)
                        if attr_name != "objects"
                            && !is_db_attr(attr_name)
                            && !self.is_mongoengine_namespace(obj_text, attr_name) =>
                    {
                        named(Some(imp))
                    }
                    Thing::Collection(r) if !is_collection_attr(attr_name) => {
                        // `db.settings.config` is the collection `settings.config`.
                        match r.name {
                            CollectionName::Literal { name } => Thing::Collection(CollectionRef {
                                name: CollectionName::Literal {
                                    name: format!("{name}.{attr_name}"),
                                },
                                span: Span::new(r.span.start as usize, attr.end_byte()),
                                via: CollectionVia::Driver,
                                import: r.import,
                            }),
                            _ => Thing::Unknown,
                        }
                    }
                    Thing::Model(r, ev) if attr_name == "objects" => Thing::QuerySet(r, ev),
                    // `User.objects`, `User` from `django.contrib.auth.models`: Django's.
                    Thing::Imported(imp, _)
                        if attr_name == "objects" && is_other_database(&imp.module) =>
                    {
                        Thing::Unknown
                    }
                    Thing::Imported(imp, local) if attr_name == "objects" => Thing::QuerySet(
                        CollectionRef {
                            name: CollectionName::Unknown { text: local },
                            span: span(obj),
                            via: CollectionVia::MongooseModel,
                            import: Some(imp),
                        },
                        Evidence::None,
                    ),
                    // `from pulp.server.db import model` … `model.Repository`: a class of the
                    // module `pulp/server/db/model` (as for a document's base).
                    Thing::Imported(imp, _)
                        if imp.export != "*"
                            && imp.export.starts_with(|c: char| c.is_ascii_lowercase())
                            && attr_name.starts_with(|c: char| c.is_ascii_uppercase()) =>
                    {
                        Thing::Imported(
                            ImportRef {
                                module: format!("{}/{}", imp.module, imp.export),
                                export: attr_name.to_string(),
                            },
                            attr_name.to_string(),
                        )
                    }
                    // `Host.collection`, `Host` a class imported from a module of the repository:
                    // that module's export `Host.collection`, if it has one (see `finish`).
                    Thing::Imported(imp, local)
                        if imp.export != "*"
                            && imp.export.starts_with(|c: char| c.is_ascii_uppercase())
                            && attr_name.starts_with(|c: char| c.is_ascii_lowercase())
                            && !is_collection_attr(attr_name) =>
                    {
                        Thing::Imported(
                            ImportRef {
                                module: imp.module,
                                export: format!("{}.{attr_name}", imp.export),
                            },
                            format!("{local}.{attr_name}"),
                        )
                    }
                    // `pymongodb.sudoers`, `pymongodb` a name of a module named for the database
                    // (`from app.core.mongo import pymongodb`): that module's database, if the
                    // linker finds it exports one (as for `pymongodb["sudoers"]`).
                    Thing::Imported(imp, _)
                        if imp.export != "*"
                            && !imp.is_call()
                            && last_segment(&imp.export)
                                .starts_with(|c: char| c.is_ascii_lowercase())
                            && !is_collection_attr(attr_name)
                            // (`mongo.db.analysis`: `mongo` a client-like object, `db` its database.)
                            && !DB_NAMES.contains(&attr_name)
                            && !CLIENT_NAMES.contains(&attr_name)
                            && crate::lang::naming::is_name(attr_name)
                            && imp
                                .module
                                .rsplit(['/', '.'])
                                .next()
                                .is_some_and(super::names_database_module) =>
                    {
                        Thing::Collection(CollectionRef {
                            name: CollectionName::Literal {
                                name: attr_name.to_string(),
                            },
                            span: span(attr),
                            via: CollectionVia::Driver,
                            import: Some(ImportRef {
                                export: format!("{}[]", imp.export),
                                module: imp.module,
                            }),
                        })
                    }
                    Thing::Imported(imp, _) if imp.export == "*" => {
                        if DB_NAMES.contains(&attr_name) && !is_other_database(&imp.module) {
                            return Thing::Db;
                        }
                        Thing::Imported(
                            ImportRef {
                                module: imp.module,
                                export: attr_name.to_string(),
                            },
                            attr_name.to_string(),
                        )
                    }
                    // `Post.objects` of a model this file does not know; in a file that uses
                    // mongoengine, any `x.objects` (`self.model.objects`, `cls._get_impl().model
                    // .objects`): a model only known at run time.
                    Thing::Unknown | Thing::CallResult(_)
                        if attr_name == "objects"
                            && ((obj.k() == "identifier"
                                && obj_text.starts_with(|c: char| c.is_ascii_uppercase()))
                                || self.uses_mongoengine)
                            && !(obj.k() == "identifier"
                                && (self.foreign_models.contains(obj_text)
                                    || self.undefined(obj))) =>
                    {
                        Thing::QuerySet(
                            CollectionRef {
                                name: CollectionName::Unknown {
                                    text: obj_text.to_string(),
                                },
                                span: span(obj),
                                via: CollectionVia::MongooseModel,
                                import: None,
                            },
                            Evidence::None,
                        )
                    }
                    _ => Thing::Unknown,
                }
            }
            "subscript" => {
                let (Some(obj), Some(idx)) = (self.field(n, "value"), self.field(n, "subscript"))
                else {
                    return Thing::Unknown;
                };
                match self.classify(obj, depth + 1) {
                    Thing::Client => Thing::Db,
                    // `MONGO_DB["HOST"]`: a dict of connection settings named like a database
                    // (NewsBlur's `settings.MONGO_DB`), not a collection.
                    Thing::Db
                        if idx.k() == "string"
                            && is_connection_setting(self.text(idx).trim_matches(['"', '\''])) =>
                    {
                        Thing::Unknown
                    }
                    Thing::Db => Thing::Collection(self.collection_ref(idx)),
                    // `db["cves"]`, `db` another module's call's result (see `CallResult`).
                    Thing::CallResult(imp) => Thing::Collection(CollectionRef {
                        import: Some(imp),
                        ..self.collection_ref(idx)
                    }),
                    // `dbname["federation"]`, `dbname` another module's name, which the linker
                    // decides is a database or not (see `ImportRef::names_database`).
                    Thing::Imported(imp, _)
                        if imp.export != "*"
                            && !imp.is_call()
                            && last_segment(&imp.export)
                                .starts_with(|c: char| c.is_ascii_lowercase())
                            && self.string_value(idx).is_some() =>
                    {
                        Thing::Collection(CollectionRef {
                            import: Some(ImportRef {
                                export: format!("{}[]", imp.export),
                                module: imp.module,
                            }),
                            ..self.collection_ref(idx)
                        })
                    }
                    Thing::Collection(r) => {
                        // `db.rss[bot_id]` is the collection `rss.<bot_id>`.
                        let mut parts = match &r.name {
                            CollectionName::Literal { name } => vec![NamePart::Literal {
                                text: format!("{name}."),
                            }],
                            _ => return Thing::Unknown,
                        };
                        let name = match self.collection_name(idx, 0) {
                            CollectionName::Literal { name } => {
                                parts.push(NamePart::Literal { text: name });
                                let text: String = parts
                                    .iter()
                                    .map(|p| match p {
                                        NamePart::Literal { text } => text.as_str(),
                                        _ => "",
                                    })
                                    .collect();
                                CollectionName::Literal { name: text }
                            }
                            CollectionName::Template { parts: more } => {
                                parts.extend(more);
                                CollectionName::Template { parts }
                            }
                            CollectionName::Unknown { .. } => {
                                parts.push(self.hole(idx));
                                CollectionName::Template { parts }
                            }
                        };
                        Thing::Collection(CollectionRef {
                            name,
                            span: span(n),
                            via: CollectionVia::Driver,
                            import: r.import,
                        })
                    }
                    t @ Thing::QuerySet(..) => t,
                    _ => Thing::Unknown,
                }
            }
            "call" => self.classify_call(n, depth),
            _ => Thing::Unknown,
        }
    }

    fn classify_binding(&self, b: &Binding<'t>, name: &str, depth: usize) -> Thing {
        if let Some(module) = &b.import_module {
            let root = module.split('.').next().unwrap_or("");
            if matches!(root, "pymongo" | "motor" | "mongoengine" | "bson") {
                return Thing::Unknown;
            }
            // `import app.models.database as db`: a module, whose attributes are its own names
            // (`db.Sample`, an SQLAlchemy class), not a database's collections.
            let module_import = b.import.as_ref().is_some_and(|i| i.export == "*");
            let mongo_module = module.to_ascii_lowercase().contains("mongo");
            if let Some(d) = self.documents.get(name) {
                if let Some(r) = &d.collection {
                    return Thing::Model(r.clone(), Evidence::Resolved);
                }
            }
            if DB_NAMES.contains(&name) && (!module_import || mongo_module) {
                return Thing::Db;
            }
            let db_module = super::names_database_module(last_segment(module));
            if CLIENT_NAMES.contains(&name) && (self.uses_mongo || db_module) {
                return Thing::Client;
            }
            return match &b.import {
                Some(imp) => Thing::Imported(imp.clone(), name.to_string()),
                None => Thing::Unknown,
            };
        }
        if let Some(t) = b.type_node {
            match self.classify_type(t, b.pos, name) {
                Thing::Unknown => {}
                thing => return thing,
            }
        }
        // A parameter named `db` or `database` in a file that uses MongoDB, or in a `mongo`
        // package (scout's `def setup(self, database)` in `adapter/mongo/base.py`).
        if b.kind == DeclKind::Param && (self.uses_mongo || self.mongo_path) {
            let bare = name.trim_start_matches("self.");
            if DB_NAMES.contains(&bare) {
                return Thing::Db;
            }
        }
        match b.value {
            Some(v) => self.classify(v, depth),
            // An item of a queryset (`for rule in Rule.objects(org_id=o)`) is a document of its
            // model: `rule.delete()` deletes it (mist.api's rules, one delete per item).
            None => match self.loop_items.get(&(name.to_string(), b.pos)) {
                Some(&over) => match self.classify(over, depth + 1) {
                    Thing::QuerySet(r, ev) => Thing::LoadedDoc(r, ev),
                    _ => Thing::Unknown,
                },
                None => Thing::Unknown,
            },
        }
    }

    fn classify_call(&self, call: Node<'t>, depth: usize) -> Thing {
        let Some(f) = self.field(call, "function") else {
            return Thing::Unknown;
        };
        let ftext = self.text(f);
        if PY_CLIENT_CLASSES.contains(&last_segment(ftext)) {
            return Thing::Client;
        }
        // Another MongoDB package's client: `AsyncClient(uri)` of async_pymongo.
        if f.k() == "identifier"
            && ftext.ends_with("Client")
            && self
                .lookup(ftext, call.start_byte() as u32)
                .and_then(|b| b.import_module.as_deref())
                .is_some_and(|m| m.contains("mongo") && !m.contains("mongoengine"))
        {
            return Thing::Client;
        }
        // An application wrapper named for what it returns: `MongoDB.get_client()`, `get_mongo_db()`.
        let lower = ftext.to_ascii_lowercase();
        if lower.contains("mongo") && !lower.contains("mongoengine") {
            let last = last_segment(&lower);
            if last.contains("client") || last == "connect" {
                return Thing::Client;
            }
            if last.contains("db") || last.contains("database") {
                return Thing::Db;
            }
            // Eve's and Flask-PyMongo's `PyMongo` object, as their data layers hand it out
            // (`app.data.mongo.pymongo("users")`, `driver.pymongo(prefix=px)`): its `db` is the
            // database and its `cx` the client, as a client's attributes are read.
            if last == "pymongo" {
                return Thing::Client;
            }
            // `app.data.get_mongo_collection("attachments")`: the collection the argument names
            // (the method's own name says so, not only its receiver's).
            if last.contains("mongo")
                && last.contains("collection")
                && !last.contains("collections")
            {
                let args = self.call_args(call);
                if let Some(name) = self.arg(&args, 0, &["name", "resource", "collection"]) {
                    return Thing::Collection(self.collection_ref(name));
                }
            }
        }
        // `self.get_db()` in a module that imports pymongo: the application's accessor of its
        // database (alerta's `Database.get_db`, Flask's `get_db()` pattern).
        if self.uses_mongo
            && matches!(last_segment(ftext), "get_db" | "get_mongo_db")
            && self
                .field(call, "arguments")
                .is_some_and(|a| self.named_children(a).is_empty())
        {
            return Thing::Db;
        }
        let args = self.call_args(call);
        if f.k() == "identifier" {
            if ftext == "getattr" {
                if let (Some(o), Some(name)) = (args.positional.first(), args.positional.get(1)) {
                    match self.classify(*o, depth + 1) {
                        Thing::Db => return Thing::Collection(self.collection_ref(*name)),
                        Thing::CallResult(imp) => {
                            return Thing::Collection(CollectionRef {
                                import: Some(imp),
                                ..self.collection_ref(*name)
                            })
                        }
                        _ => {}
                    }
                }
                return Thing::Unknown;
            }
            // A helper of this file that returns a database or a collection: `db = get_db()`.
            if let Some(func) = self.functions.get(ftext) {
                // A collection factory: the collection its first argument names.
                if let (Some(first), true) =
                    (args.positional.first(), self.is_collection_factory(*func))
                {
                    return Thing::Collection(self.collection_ref(*first));
                }
                return self.returned_thing(*func, depth);
            }
            // A function imported from another module of the repository (`from app.db import
            // get_db`): what it returns, which the linker decides.
            return self.call_result(f, depth);
        }
        if f.k() != "attribute" {
            return Thing::Unknown;
        }
        let (Some(obj), Some(attr)) = (self.field(f, "object"), self.field(f, "attribute")) else {
            return Thing::Unknown;
        };
        let method = self.text(attr);
        match method {
            "get_database" | "get_default_database" => match self.classify(obj, depth + 1) {
                Thing::Client => Thing::Db,
                Thing::Unknown | Thing::Imported(..) | Thing::CallResult(_) if self.uses_mongo => {
                    Thing::Db
                }
                _ => Thing::Unknown,
            },
            // `conn.collection("transactions")`: pymongo has no such method, so this is an
            // application's wrapper (BigchainDB's connection), read as a collection getter in a
            // file that uses MongoDB.
            // `db.create_collection("events")` returns the collection it makes.
            "create_collection" => {
                match (self.arg(&args, 0, &["name"]), self.classify(obj, depth + 1)) {
                    (Some(name), Thing::Db) => Thing::Collection(self.collection_ref(name)),
                    _ => Thing::Unknown,
                }
            }
            "get_collection" | "collection" => {
                let Some(name) = self.arg(&args, 0, &["name"]) else {
                    return Thing::Unknown;
                };
                match self.classify(obj, depth + 1) {
                    Thing::Db => Thing::Collection(self.collection_ref(name)),
                    Thing::Unknown | Thing::Imported(..) | Thing::CallResult(_)
                        if self.uses_mongo =>
                    {
                        Thing::Collection(self.collection_ref(name))
                    }
                    // The application's own MongoDB module, in a file that does not import
                    // pymongo: pritunl's `from pritunl import mongo` then
                    // `mongo.get_collection("clients")`.
                    Thing::Imported(imp, _)
                        if is_database_module_name(&imp.export)
                            || is_database_module_name(
                                imp.module.rsplit(['.', '/', ':']).next().unwrap_or(""),
                            ) =>
                    {
                        Thing::Collection(self.collection_ref(name))
                    }
                    Thing::CallResult(imp) => Thing::Collection(CollectionRef {
                        import: Some(imp),
                        ..self.collection_ref(name)
                    }),
                    _ => Thing::Unknown,
                }
            }
            "with_options" | "clone" => match self.classify(obj, depth + 1) {
                t @ (Thing::Db
                | Thing::Collection(_)
                | Thing::QuerySet(..)
                | Thing::CallResult(_)) => t,
                _ => Thing::Unknown,
            },
            "objects" => match self.classify(f, depth + 1) {
                Thing::QuerySet(r, _ev) if self.text(obj).starts_with(char::is_uppercase) => {
                    // Calling the manager: `Post.objects(author=u)` is mongoengine, not Django.
                    let ev = match self.classify(obj, depth + 1) {
                        Thing::Model(_, ev) => ev,
                        _ => Evidence::Shaped,
                    };
                    Thing::QuerySet(r, ev)
                }
                t => t,
            },
            m if m == "modify" || queryset_terminal(m) == Some(OpKind::FindOne) => {
                match self.classify(obj, depth + 1) {
                    Thing::QuerySet(r, ev) => Thing::LoadedDoc(r, ev),
                    _ => Thing::Unknown,
                }
            }
            m if PY_QUERYSET_METHODS.contains(&m)
                || matches!(m, "skip" | "limit" | "hint" | "batch_size") =>
            {
                match self.classify(obj, depth + 1) {
                    t @ Thing::QuerySet(..) => t,
                    _ => Thing::Unknown,
                }
            }
            _ => self.method_result(f, obj, method, depth),
        }
    }

    /// What a function of this file returns (the expression of its first `return`), when it is
    /// a client, a database, a collection, or what a function of another module returns.
    fn returned_thing(&self, func: Node<'t>, depth: usize) -> Thing {
        if depth >= 16 {
            return Thing::Unknown;
        }
        match self
            .returned_expr(func)
            .map(|ret| self.classify(ret, depth + 4))
        {
            Some(t @ (Thing::Db | Thing::Client | Thing::Collection(_) | Thing::CallResult(_))) => {
                t
            }
            _ => Thing::Unknown,
        }
    }

    /// A call of a method (`f`, `obj.method`) that no arm of `classify_call` reads: a class
    /// method or static method of a class of this file called through the class
    /// (`Configuration.getMongoConnection()`), or through `cls` in the class, and any other
    /// method through `self`: what it returns (see [`Self::returned_thing`]); else a function of
    /// another module (see [`Self::call_result`]).
    fn method_result(&self, f: Node<'t>, obj: Node<'t>, method: &str, depth: usize) -> Thing {
        match self.method_called(obj, method) {
            // A collection factory: the collection its first argument names.
            Some(Some(def)) if self.is_collection_factory(def) => self
                .parents
                .of(f)
                .filter(|call| call.k() == "call")
                .and_then(|call| self.call_args(call).positional.first().copied())
                .map_or(Thing::Unknown, |first| {
                    Thing::Collection(self.collection_ref(first))
                }),
            Some(found) => found.map_or(Thing::Unknown, |def| self.returned_thing(def, depth)),
            None => self.call_result(f, depth),
        }
    }

    /// The method `obj.method(..)` calls when `obj` is a class of this file (`self`, `cls`, or
    /// a module-level class by name): `Some(None)` when that class defines no such method, `None`
    /// when `obj` is no such class. Through the class, a class method or static method; through
    /// `self`, any method but a property. A name's last definition is the method.
    fn method_called(&self, obj: Node<'t>, method: &str) -> Option<Option<Node<'t>>> {
        if obj.k() != "identifier" {
            return None;
        }
        let obj_text = self.text(obj);
        let (class, through_class) = match obj_text {
            "self" | "cls" => (self.enclosing_class(obj), obj_text == "cls"),
            _ => (self.module_classes.get(obj_text).copied().flatten(), true),
        };
        let class = class?;
        Some(
            self.methods(class, |decorators| {
                if through_class {
                    decorators.iter().any(|d| is_class_level(d))
                } else {
                    !decorators.iter().any(|d| d.contains("property"))
                }
            })
            .into_iter()
            .rev()
            .find(|(name, _)| *name == method)
            .map(|(_, def)| def),
        )
    }

    /// A call of `f`, a function of another module of the repository (`get_db` imported from
    /// it, `dbs.get_db` of a module imported as `dbs`, `conf.getMongoConnection` of the class
    /// `Configuration` imported as `conf`): what it returns, as an import named for the call,
    /// which the linker decides (see [`Thing::CallResult`]). A class (`User(..)`) makes an
    /// instance.
    fn call_result(&self, f: Node<'t>, depth: usize) -> Thing {
        let import = if f.k() == "attribute" {
            let (Some(obj), Some(attr)) = (self.field(f, "object"), self.field(f, "attribute"))
            else {
                return Thing::Unknown;
            };
            let method = self.text(attr);
            match self.classify(obj, depth + 1) {
                // `import api` .. `api.db.get_conn()`: the function `get_conn` of the module
                // `api/db` (picoCTF's), not a method of a database named `db` (which a member
                // `db` of a module otherwise is).
                Thing::Db if obj.k() == "attribute" => {
                    let submodule = self
                        .field(obj, "object")
                        .zip(self.field(obj, "attribute"))
                        .and_then(|(package, sub)| match self.classify(package, depth + 1) {
                            Thing::Imported(imp, _) if imp.export == "*" => Some(ImportRef {
                                module: format!("{}/{}", imp.module, self.text(sub)),
                                export: method.to_string(),
                            }),
                            _ => None,
                        });
                    match submodule {
                        Some(import) => import,
                        None => return Thing::Unknown,
                    }
                }
                Thing::Imported(imp, _) if imp.is_call() => return Thing::Unknown,
                // `import app.dbs as dbs` .. `dbs.get_db()`.
                Thing::Imported(imp, _) if imp.export == "*" => ImportRef {
                    module: imp.module,
                    export: method.to_string(),
                },
                // `conf.getMongoConnection()`: a method of the class (a class method or a static
                // method, as the module that defines it decides).
                Thing::Imported(imp, _)
                    if last_segment(&imp.export).starts_with(|c: char| c.is_ascii_uppercase()) =>
                {
                    ImportRef {
                        export: format!("{}.{method}", imp.export),
                        module: imp.module,
                    }
                }
                // `from app import dbs` .. `dbs.get_db()`: the function `get_db` of `app/dbs` (as
                // for `model.Repository`, see `classify`).
                Thing::Imported(imp, _) if !imp.export.contains('.') => ImportRef {
                    module: format!("{}/{}", imp.module, imp.export),
                    export: method.to_string(),
                },
                _ => return Thing::Unknown,
            }
        } else {
            match self.classify(f, depth + 1) {
                Thing::Imported(imp, _) if imp.export != "*" && !imp.is_call() => imp,
                _ => return Thing::Unknown,
            }
        };
        if !last_segment(&import.export).starts_with(|c: char| c.is_ascii_lowercase()) {
            return Thing::Unknown;
        }
        Thing::CallResult(ImportRef {
            export: format!("{}()", import.export),
            ..import
        })
    }

    /// The class whose body `at` is in (in a method, or further down).
    /// The string a class sets an attribute to in its body, read as `self.name` or `cls.name`
    /// in one of its methods (`__collection_name__ = 'projectdb'`), when nothing else sets it.
    fn class_constant(&self, n: Node<'t>) -> Option<String> {
        if n.k() != "attribute" {
            return None;
        }
        let obj = self.field(n, "object")?;
        let obj_text = self.text(obj);
        if obj.k() != "identifier" || !matches!(obj_text, "self" | "cls") {
            return None;
        }
        let attr = self.text(self.field(n, "attribute")?);
        match self.bindings.get(&format!("{obj_text}.{attr}"))?.as_slice() {
            [only] => self.string_value(only.value?),
            _ => None,
        }
    }

    /// The class attribute a collection is opened by: `store.db[self.collection_name]`,
    /// `db.get_collection(cls.collection_name)`.
    fn named_by_class_attribute(&self, v: Node<'t>, depth: usize) -> Option<&'t str> {
        let (database, name) = match v.k() {
            "subscript" => (self.field(v, "value")?, self.field(v, "subscript")?),
            "call" => {
                let f = self.field(v, "function").filter(|f| f.k() == "attribute")?;
                let method = self.text(self.field(f, "attribute")?);
                if !super::vocabulary::PY_COLLECTION_GETTERS.contains(&method) {
                    return None;
                }
                (
                    self.field(f, "object")?,
                    *self.call_args(v).positional.first()?,
                )
            }
            _ => return None,
        };
        // A database, here or in another module (`store.db`, `get_db()`), not a dict.
        if !matches!(
            self.classify(database, depth + 1),
            Thing::Db | Thing::Imported(..) | Thing::CallResult(_)
        ) && !{
            let last = last_segment(self.text(database)).to_ascii_lowercase();
            last.contains("db") || last.contains("database") || last.contains("mongo")
        } {
            return None;
        }
        let obj = self
            .field(name, "object")
            .filter(|_| name.k() == "attribute")?;
        if obj.k() != "identifier" || !matches!(self.text(obj), "self" | "cls") {
            return None;
        }
        self.field(name, "attribute").map(|a| self.text(a))
    }

    /// Whether the name `n` is defined nowhere in the file: no binding, no class of the module,
    /// and no star import that could bring it (NewsBlur's archived `bootstrap_mongo.py` still
    /// calls `Story.objects.get(..)`, a Django model it no longer imports).
    fn undefined(&self, n: Node<'t>) -> bool {
        let name = self.text(n);
        !self.star_import
            && !self.module_classes.contains_key(name)
            && self.lookup(name, n.start_byte() as u32).is_none()
    }

    /// An index call that is no driver's: one without keys (pymongo's `create_index(keys)` and
    /// `ensure_index(key_or_list)` take them; `self.ensure_index()` is the application's set-up
    /// method), or `self.create_index(..)` / `cls.create_index(..)` where the file defines a
    /// function of that name (mnemosyne's `MnemoDB.ensure_index`). Taken for the driver's, an
    /// index on a collection named at run time, it would hold back unindexed-query everywhere.
    fn own_index_call(&self, call: Node<'t>, obj: Node<'t>) -> bool {
        let args = self.call_args(call);
        if args.positional.is_empty() && args.keywords.is_empty() && !args.splat {
            return true;
        }
        let Some(f) = self.field(call, "function") else {
            return false;
        };
        let method = self.field(f, "attribute").map_or("", |a| self.text(a));
        obj.k() == "identifier"
            && matches!(self.text(obj), "self" | "cls")
            && self.functions.contains_key(method)
    }

    fn enclosing_class(&self, at: Node<'t>) -> Option<Node<'t>> {
        let mut node = self.parents.of(at);
        for _ in 0..256 {
            match node {
                Some(c) if c.k() == "class_definition" => return Some(c),
                Some(c) => node = self.parents.of(c),
                None => return None,
            }
        }
        None
    }

    /// `self.collection` where the class defines `@property def collection(self): return db.x`
    /// (or `@cached_property`, `@cached_static_property`).
    /// A class of this file as a mongoengine document: its model, or, for a class whose base
    /// is imported, an import of this file that the linker decides.
    /// `cls` / `self` in a method of a class that stands for a document (see
    /// `note_access_classes`): that document.
    fn access_class_of(&self, at: Node<'t>) -> Thing {
        if self.access_models.is_empty() {
            return Thing::Unknown;
        }
        let mut node = self.parents.of(at);
        for _ in 0..256 {
            match node {
                Some(c) if c.k() == "class_definition" => {
                    let name = self.field(c, "name").map(|n| self.text(n)).unwrap_or("");
                    return match self.access_models.get(name) {
                        Some((imp, local)) => Thing::Imported(imp.clone(), local.clone()),
                        None => Thing::Unknown,
                    };
                }
                Some(c) => node = self.parents.of(c),
                None => break,
            }
        }
        Thing::Unknown
    }

    /// `self` at `at`, in a method of a mongoengine document class of this file: a document of
    /// that class, loaded by whoever called the method.
    fn own_document(&self, at: Node<'t>) -> Thing {
        let Some(name) = self
            .enclosing_class(at)
            .and_then(|c| self.field(c, "name"))
            .map(|n| self.text(n))
        else {
            return Thing::Unknown;
        };
        match self.class_collection(name, at) {
            Some((r, ev)) => Thing::LoadedDoc(r, ev),
            None => Thing::Unknown,
        }
    }

    /// The collection of the document class `name` of this file, with the evidence: its model's,
    /// or, for a class whose base is imported, a reference (at `at`) the linker decides.
    fn class_collection(&self, name: &str, at: Node<'t>) -> Option<(CollectionRef, Evidence)> {
        match self.document_class(name) {
            Thing::Model(r, ev) => Some((r, ev)),
            Thing::Imported(imp, local) => Some((
                CollectionRef {
                    name: CollectionName::Unknown { text: local },
                    span: span(at),
                    via: CollectionVia::MongooseModel,
                    import: Some(imp),
                },
                Evidence::None,
            )),
            _ => None,
        }
    }

    fn document_class(&self, name: &str) -> Thing {
        match self.documents.get(name) {
            Some(d) => match &d.collection {
                Some(r) => Thing::Model(r.clone(), Evidence::Resolved),
                None if d.pending.is_some() => Thing::Imported(
                    ImportRef {
                        module: self.this_module.clone(),
                        export: name.to_string(),
                    },
                    name.to_string(),
                ),
                None => Thing::Unknown,
            },
            None => Thing::Unknown,
        }
    }

    fn property_of_class(&self, at: Node<'t>, attr: &str, depth: usize) -> Thing {
        if depth > 16 {
            return Thing::Unknown;
        }
        let mut class = self.parents.of(at);
        for _ in 0..64 {
            match class {
                Some(c) if c.k() == "class_definition" => break,
                Some(c) => class = self.parents.of(c),
                None => return Thing::Unknown,
            }
        }
        // `cls.objects(name=n)` in a document's class method: the document's queryset.
        if attr == "objects" {
            if self.field(at, "object").map(|o| self.text(o)) != Some("cls") {
                return Thing::Unknown;
            }
            let name = class.and_then(|c| self.field(c, "name"));
            return match name.and_then(|n| self.class_collection(self.text(n), at)) {
                Some((r, ev)) => Thing::QuerySet(r, ev),
                None => Thing::Unknown,
            };
        }
        match class {
            Some(c) => match self.class_property(c, attr, depth) {
                Thing::Unknown => self.inherited_collection(c, attr).unwrap_or(Thing::Unknown),
                t => t,
            },
            None => Thing::Unknown,
        }
    }

    /// `self.collection` in a class whose base, imported from another module, opens the
    /// collection a class attribute names (`class File(MongoDict): collection_name = 'files'`,
    /// the base's `self.collection = store.db[self.collection_name]`): the name the class sets,
    /// if the base's module exports the base as such a factory (see
    /// `ImportRef::names_factory_call`). Only a class that sets one string attribute named for
    /// a collection.
    fn inherited_collection(&self, class: Node<'t>, attr: &str) -> Option<Thing> {
        let bases = self.field(class, "superclasses")?;
        let body = self.field(class, "body")?;
        let mut named = None;
        for stmt in self.parents.children(body) {
            let Some(a) = self.statement_assignment(stmt) else {
                continue;
            };
            let (Some(left), Some(right)) = (self.field(a, "left"), self.field(a, "right")) else {
                continue;
            };
            let name = self.text(left);
            if left.k() != "identifier" || !name.to_ascii_lowercase().contains("collection") {
                continue;
            }
            let Some(value) = self.string_value(right) else {
                continue;
            };
            if named.is_some() {
                return None;
            }
            named = Some((name, value, right));
        }
        let (name, value, node) = named?;
        let import = self
            .named_children(bases)
            .into_iter()
            .filter(|b| b.k() == "identifier")
            .find_map(|b| {
                self.lookup(self.text(b), b.start_byte() as u32)?
                    .import
                    .clone()
            })?;
        Some(Thing::Collection(CollectionRef {
            name: CollectionName::Literal { name: value },
            span: span(node),
            via: CollectionVia::Driver,
            import: Some(ImportRef {
                export: format!("{}.{attr}({name}=..)", import.export),
                module: import.module,
            }),
        }))
    }

    /// A property of `class` (`@property`, `@cached_static_property`, ...) named `attr` that
    /// returns a database or a collection: pritunl's `def collection(cls): return
    /// mongo.get_collection('hosts')`, read as `self.collection` in the class and as
    /// `Host.collection` in the module and in the modules that import `Host`.
    /// A property a base class of the module defines is the subclass's too (modmail's
    /// `ApiClient.logs`, `return self.db.logs`, read as `self.logs` in `MongoDBClient(ApiClient)`).
    fn class_property(&self, class: Node<'t>, attr: &str, depth: usize) -> Thing {
        let own = self
            .properties(class)
            .into_iter()
            .filter(|(name, _)| *name == attr)
            .find_map(|(_, def)| self.returned_expr(def));
        if let Some(ret) = own {
            return self.property_value(ret, depth);
        }
        if depth > 16 {
            return Thing::Unknown;
        }
        let Some(bases) = self.field(class, "superclasses") else {
            return Thing::Unknown;
        };
        self.named_children(bases)
            .into_iter()
            .filter(|b| b.k() == "identifier")
            .filter_map(|b| self.module_classes.get(self.text(b)).copied().flatten())
            .filter(|base| *base != class)
            .map(|base| self.class_property(base, attr, depth + 4))
            .find(|t| !matches!(t, Thing::Unknown))
            .unwrap_or(Thing::Unknown)
    }

    /// What a property returns, when it is a database or a collection (or what a function of
    /// another module returns).
    fn property_value(&self, ret: Node<'t>, depth: usize) -> Thing {
        match self.classify(ret, depth + 4) {
            t @ (Thing::Db | Thing::Collection(_) | Thing::CallResult(_)) => t,
            _ => Thing::Unknown,
        }
    }

    /// The properties a class defines (a method under a decorator whose name says `property`):
    /// (name, function definition), in order.
    fn properties(&self, class: Node<'t>) -> Vec<(&'t str, Node<'t>)> {
        self.methods(class, |decorators| {
            decorators.iter().any(|d| d.contains("property"))
        })
    }

    /// The methods a class defines whose decorators (their text, none for a method without)
    /// `keep` accepts: (name, function definition), in order.
    fn methods(
        &self,
        class: Node<'t>,
        keep: impl Fn(&[&'t str]) -> bool,
    ) -> Vec<(&'t str, Node<'t>)> {
        let Some(body) = self.field(class, "body") else {
            return Vec::new();
        };
        self.named_children(body)
            .into_iter()
            .filter_map(|stmt| {
                let (def, decorators) = match stmt.k() {
                    "function_definition" => (stmt, Vec::new()),
                    "decorated_definition" => (
                        self.field(stmt, "definition")?,
                        self.named_children(stmt)
                            .into_iter()
                            .filter(|d| d.k() == "decorator")
                            .map(|d| self.text(d))
                            .collect(),
                    ),
                    _ => return None,
                };
                if def.k() != "function_definition" || !keep(&decorators) {
                    return None;
                }
                Some((self.text(self.field(def, "name")?), def))
            })
            .collect()
    }

    /// The expression of the first `return` of a function (not of a nested one).
    fn returned_expr(&self, func: Node<'t>) -> Option<Node<'t>> {
        self.first_return(self.field(func, "body")?, 0)
    }

    /// The expression of the first `return` with one among the statements of `block`, in the
    /// blocks of its compound statements (`if`, `for`, `try`, `with`, `match`, their clauses), not
    /// in a nested function or class. Only statements are visited: an expression holds no
    /// `return` (a lambda's body is an expression).
    fn first_return(&self, block: Node<'t>, depth: usize) -> Option<Node<'t>> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.parents.children(block).find_map(|c| match c.k() {
            "return_statement" => c.named_child(0),
            "expression_statement"
            | "function_definition"
            | "class_definition"
            | "decorated_definition" => None,
            k if k == "block" || k.ends_with("_statement") || k.ends_with("_clause") => {
                self.first_return(c, depth + 1)
            }
            _ => None,
        })
    }

    /// Whether `def` returns the collection its first parameter names, of a database (crits'
    /// `def mongo_connector(collection): return settings.PY_DB[collection]`, or
    /// `db.get_collection(name)`): a collection factory, whose callers name the collection.
    /// A database is what the frontend reads as one, or, in a file that uses MongoDB, a name
    /// whose last part ends in `db` (`settings.PY_DB`, `self.db`).
    fn is_collection_factory(&self, def: Node<'t>) -> bool {
        // A method's first parameter after `self` or `cls` (hyphe's `def _get_coll(self, name):
        // return self.database[name]`).
        let Some(first) = self.field(def, "parameters").and_then(|ps| {
            self.named_children(ps)
                .into_iter()
                .find(|p| !(p.k() == "identifier" && matches!(self.text(*p), "self" | "cls")))
        }) else {
            return false;
        };
        let param = match first.k() {
            "identifier" => Some(first),
            "default_parameter" | "typed_default_parameter" => self.field(first, "name"),
            "typed_parameter" => self
                .named_children(first)
                .into_iter()
                .find(|c| c.k() == "identifier"),
            _ => None,
        };
        let Some(param) = param.map(|p| self.text(p)) else {
            return false;
        };
        // (The text first: the return is found by a walk of the body.)
        let text = self.text(def);
        if !text.contains("get_collection(") && !text.contains(&["[", param, "]"].concat()) {
            return false;
        }
        let Some(ret) = self.returned_expr(def).map(|r| self.unwrap_expr(r)) else {
            return false;
        };
        let (db, key) = match ret.k() {
            "subscript" => (self.field(ret, "value"), self.field(ret, "subscript")),
            "call" => match self.field(ret, "function") {
                Some(f)
                    if f.k() == "attribute"
                        && self
                            .field(f, "attribute")
                            .is_some_and(|a| self.text(a) == "get_collection") =>
                {
                    let args = self.call_args(ret);
                    (self.field(f, "object"), args.positional.first().copied())
                }
                _ => (None, None),
            },
            _ => (None, None),
        };
        let (Some(db), Some(key)) = (db, key) else {
            return false;
        };
        if key.k() != "identifier" || self.text(key) != param {
            return false;
        }
        matches!(self.classify(db, 0), Thing::Db)
            || (self.uses_mongo
                && matches!(db.k(), "identifier" | "attribute")
                && last_segment(self.text(db))
                    .to_ascii_lowercase()
                    .ends_with("db"))
    }

    /// The first argument of the call `obj` is, or a name is bound to: what a collection
    /// factory's caller names (see [`Self::is_collection_factory`]).
    fn factory_argument(&self, obj: Node<'t>) -> Option<Node<'t>> {
        let mut n = self.unwrap_expr(obj);
        if n.k() == "identifier" {
            let b = self.lookup(self.text(n), n.start_byte() as u32)?;
            if !self.is_constant(b, self.text(n)) {
                return None;
            }
            n = self.unwrap_expr(b.value?);
        }
        if n.k() != "call" {
            return None;
        }
        self.call_args(n).positional.first().copied()
    }

    /// The function a call runs, when this file defines it: a module-level function called by
    /// name, or a method of the enclosing class called on `self`.
    fn name_helper(&self, call: Node<'t>) -> Option<Node<'t>> {
        let f = self.field(call, "function")?;
        match f.k() {
            "identifier" => self.functions.get(self.text(f)).copied(),
            "attribute" => {
                let obj = self.field(f, "object")?;
                if self.text(obj) != "self" {
                    return None;
                }
                self.method_called(obj, self.text(self.field(f, "attribute")?))?
            }
            _ => None,
        }
    }

    fn collection_ref(&self, n: Node<'t>) -> CollectionRef {
        CollectionRef {
            name: self.collection_name(n, 0),
            span: span(n),
            via: CollectionVia::Driver,
            import: None,
        }
    }

    fn collection_name(&self, n: Node<'t>, depth: usize) -> CollectionName {
        let n = self.unwrap_expr(n);
        if let Some(s) = self.string_value(n) {
            return CollectionName::Literal { name: s };
        }
        if depth < 8 && n.k() == "identifier" {
            if let Some(b) = self.lookup(self.text(n), n.start_byte() as u32) {
                if let (Some(v), true) = (b.value, self.is_constant(b, self.text(n))) {
                    match self.collection_name(v, depth + 1) {
                        r @ (CollectionName::Literal { .. } | CollectionName::Template { .. }) => {
                            return r
                        }
                        CollectionName::Unknown { .. } => {}
                    }
                }
            }
        }
        // A class's constant, read through `self` (pyspider's `__collection_name__ =
        // 'projectdb'` .. `self.database[self.__collection_name__]`), unless a method sets it.
        if let Some(name) = self.class_constant(n) {
            return CollectionName::Literal { name };
        }
        let mut parts = Vec::new();
        if depth < 8 && self.name_parts(n, depth, &mut parts) && !parts.is_empty() {
            if parts.iter().any(|p| matches!(p, NamePart::Hole { .. })) {
                return CollectionName::Template { parts };
            }
            // Every part a literal or a constant of the module (`"%s.files" % COL_OBJECTS`).
            let mut name = String::new();
            for p in &parts {
                if let NamePart::Literal { text } = p {
                    name.push_str(text);
                }
            }
            return CollectionName::Literal { name };
        }
        // A name that is one value, an entity's or a date's, or its string (`mydb[str(group_id)]`,
        // `db[tenant_id]`): one collection per value. Only such a hole makes a template: a plain
        // parameter (`db[name]`) stays unknown, for the linker to resolve if it is a constant.
        if depth < 8 {
            let value = self.converted(n).unwrap_or(n);
            if value.k() == "identifier" || value != n {
                if let NamePart::Hole {
                    hole: hole @ (HoleKind::Date | HoleKind::Entity),
                    ..
                } = self.hole(n)
                {
                    // A name bound to what builds it is shown as that (pyspider's
                    // `collection_name = self._collection_name(project)`): the entity is there.
                    let shown = (n.k() == "identifier")
                        .then(|| self.lookup(self.text(n), n.start_byte() as u32))
                        .flatten()
                        .and_then(|b| b.value)
                        .map_or(n, |v| self.unwrap_expr(v));
                    return CollectionName::Template {
                        parts: vec![NamePart::Hole {
                            text: crate::lang::first_chars(
                                &crate::lang::one_line(self.text(shown)),
                                80,
                            ),
                            hole,
                            span: span(n),
                        }],
                    };
                }
            }
        }
        // A helper of this file, or a method of this class, that builds the name
        // (pyspider's `self.database[self._collection_name(project)]`, whose method returns
        // `"%s.%s" % (self.collection_prefix, project)`): the name it returns, its holes
        // spelt with the helper's own parameters.
        if depth < 8 && n.k() == "call" {
            if let Some(name @ CollectionName::Template { .. }) = self
                .name_helper(n)
                .and_then(|f| self.returned_expr(f))
                .map(|r| self.collection_name(r, depth + 1))
            {
                return name;
            }
        }
        if let Some(name) = self.narrowed(n) {
            return CollectionName::Literal { name };
        }
        let text = crate::lang::first_chars(self.text(n), 80);
        if matches!(n.k(), "identifier" | "attribute") {
            self.note_name_import(&text, n.start_byte() as u32);
        }
        CollectionName::Unknown { text }
    }

    /// A name compared with a string by an `if` (or `elif`) whose branch holds `n`: `for
    /// collection, doc in item.items(): if collection == 'url': db[collection].update(..)`
    /// (mnemosyne's normaliser; also `is 'url'`). In that branch the name is that string.
    fn narrowed(&self, n: Node<'t>) -> Option<String> {
        if n.k() != "identifier" {
            return None;
        }
        let name = self.text(n);
        let mut cur = n;
        for _ in 0..64 {
            let p = self.parents.of(cur)?;
            if matches!(p.k(), "function_definition" | "class_definition" | "lambda") {
                return None;
            }
            if matches!(p.k(), "if_statement" | "elif_clause")
                && self
                    .field(p, "consequence")
                    .is_some_and(|c| c.id() == cur.id())
            {
                let cond = self.field(p, "condition").map(|c| self.unwrap_expr(c))?;
                if cond.k() == "comparison_operator" {
                    let operands = self.named_children(cond);
                    let mut ops = self.parents.children(cond).filter(|c| !c.is_named());
                    let equal = matches!(ops.next().map(|o| o.k()), Some("==" | "is"))
                        && ops.next().is_none();
                    if let [a, b] = operands.as_slice() {
                        let (named, value) = if a.k() == "identifier" {
                            (a, b)
                        } else {
                            (b, a)
                        };
                        if equal && self.text(*named) == name {
                            if let Some(s) = self.string_value(*value) {
                                return Some(s);
                            }
                        }
                    }
                }
            }
            cur = p;
        }
        None
    }

    /// Records `text` (`settings.COL_USERS`, `COL_USERS`), an unknown collection name at `at`, if
    /// it is a constant imported from another module (see [`NameImport`]).
    fn note_name_import(&self, text: &str, at: u32) {
        if !is_constant_name(last_segment(text)) {
            return;
        }
        let Some(mut import) = self.imported_name(text, at) else {
            return;
        };
        // Django's `from django.conf import settings`: the project's settings module.
        if import.module == "py:django/conf/settings" {
            import.module = "py:settings".to_string();
        }
        let mut list = self.name_imports.borrow_mut();
        if !list.iter().any(|n| n.text == text) {
            list.push(NameImport {
                text: text.to_string(),
                import,
            });
        }
    }

    /// Splits an f-string, a `+` concatenation, `"..%s" % x`, `"..{}".format(x)` or
    /// `d.strftime("events_%Y%m")` into literal parts and classified holes.
    fn name_parts(&self, n: Node<'t>, depth: usize, out: &mut Vec<NamePart>) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        let n = self.unwrap_expr(n);
        match n.k() {
            "string" => {
                let children: Vec<Node<'t>> = self.parents.children(n).collect();
                for ch in children {
                    match ch.k() {
                        "string_content" => out.push(NamePart::Literal {
                            text: unescape(self.text(ch)),
                        }),
                        "escape_sequence" => out.push(NamePart::Literal {
                            text: unescape(self.text(ch)),
                        }),
                        "interpolation" => {
                            let expr = self.field(ch, "expression").unwrap_or(ch);
                            out.push(self.hole_with(expr, &[self.text(ch)]));
                        }
                        _ => {}
                    }
                }
                true
            }
            "concatenated_string" => {
                for c in self.named_children(n) {
                    if !self.name_parts(c, depth + 1, out) {
                        return false;
                    }
                }
                true
            }
            "binary_operator" => {
                let op = self.field(n, "operator").map(|o| self.text(o));
                let (Some(l), Some(r)) = (self.field(n, "left"), self.field(n, "right")) else {
                    return false;
                };
                match op {
                    Some("+") => {
                        self.name_parts_operand(l, depth, out)
                            && self.name_parts_operand(r, depth, out)
                    }
                    Some("%") => {
                        let Some(fmt) = self.string_value(l) else {
                            return false;
                        };
                        let r = self.unwrap_expr(r);
                        let values = if r.k() == "tuple" {
                            self.named_children(r)
                        } else {
                            vec![r]
                        };
                        self.percent_parts(&fmt, &values, out);
                        true
                    }
                    _ => false,
                }
            }
            "call" => {
                let Some(f) = self.field(n, "function").filter(|f| f.k() == "attribute") else {
                    return false;
                };
                let (Some(obj), Some(attr)) = (self.field(f, "object"), self.field(f, "attribute"))
                else {
                    return false;
                };
                let args = self.call_args(n);
                match self.text(attr) {
                    "format" => {
                        let Some(fmt) = self.string_value(obj) else {
                            return false;
                        };
                        self.format_parts(&fmt, &args, out);
                        true
                    }
                    "strftime" => {
                        // `now.strftime("events_%Y%m")`: the whole call is a date hole.
                        out.push(self.hole(n));
                        true
                    }
                    _ => false,
                }
            }
            _ => false,
        }
    }

    fn name_parts_operand(&self, n: Node<'t>, depth: usize, out: &mut Vec<NamePart>) -> bool {
        let u = self.unwrap_expr(n);
        if let Some(s) = self.string_value(u) {
            out.push(NamePart::Literal { text: s });
            return true;
        }
        if matches!(u.k(), "string" | "binary_operator" | "concatenated_string")
            || (u.k() == "call" && self.name_parts(u, depth + 1, &mut Vec::new()))
        {
            return self.name_parts(u, depth + 1, out);
        }
        out.push(self.hole(u));
        true
    }

    /// `"events_%s_%s" % (tenant, day)`
    fn percent_parts(&self, fmt: &str, values: &[Node<'t>], out: &mut Vec<NamePart>) {
        let mut lit = String::new();
        let mut vals = values.iter();
        let mut chars = fmt.chars().peekable();
        while let Some(c) = chars.next() {
            if c != '%' {
                lit.push(c);
                continue;
            }
            if chars.peek() == Some(&'%') {
                chars.next();
                lit.push('%');
                continue;
            }
            // Skip `(name)`, flags, width, precision, then the conversion letter.
            if chars.peek() == Some(&'(') {
                for c in chars.by_ref() {
                    if c == ')' {
                        break;
                    }
                }
            }
            while chars.peek().is_some_and(|c| !c.is_ascii_alphabetic()) {
                chars.next();
            }
            chars.next();
            if !lit.is_empty() {
                out.push(NamePart::Literal {
                    text: std::mem::take(&mut lit),
                });
            }
            match vals.next() {
                Some(v) => out.push(self.hole(*v)),
                None => out.push(NamePart::Hole {
                    text: "?".into(),
                    hole: HoleKind::Unknown,
                    span: Span::default(),
                }),
            }
        }
        if !lit.is_empty() {
            out.push(NamePart::Literal { text: lit });
        }
    }

    /// `"events_{}_{day}".format(tenant, day=d)`
    fn format_parts(&self, fmt: &str, args: &CallArgs<'t>, out: &mut Vec<NamePart>) {
        let mut lit = String::new();
        let mut next_pos = 0usize;
        let mut chars = fmt.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '{' {
                if chars.peek() == Some(&'{') {
                    chars.next();
                    lit.push('{');
                    continue;
                }
                let mut field = String::new();
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                    field.push(c);
                }
                let (name, spec) = match field.split_once(':') {
                    Some((n, s)) => (n.to_string(), s.to_string()),
                    None => (field.clone(), String::new()),
                };
                let key = name.split(['.', '[', '!']).next().unwrap_or("").to_string();
                let node = if key.is_empty() {
                    next_pos += 1;
                    args.positional.get(next_pos - 1).copied()
                } else if let Ok(i) = key.parse::<usize>() {
                    args.positional.get(i).copied()
                } else {
                    self.kwarg(args, &[key.as_str()])
                };
                if !lit.is_empty() {
                    out.push(NamePart::Literal {
                        text: std::mem::take(&mut lit),
                    });
                }
                match node {
                    Some(v) => out.push(self.hole_with(v, &[&spec])),
                    None => out.push(NamePart::Hole {
                        text: name.clone(),
                        hole: classify_hole(&[&name, &spec]),
                        span: Span::default(),
                    }),
                }
            } else if c == '}' && chars.peek() == Some(&'}') {
                chars.next();
                lit.push('}');
            } else {
                lit.push(c);
            }
        }
        if !lit.is_empty() {
            out.push(NamePart::Literal { text: lit });
        }
    }

    fn hole(&self, expr: Node<'t>) -> NamePart {
        self.hole_with(expr, &[])
    }

    /// The arguments of `n` when it calls the function named `name` (a builtin: `len`, `str`,
    /// `enumerate`).
    fn builtin_args(&self, n: Node<'t>, name: &str) -> Option<CallArgs<'t>> {
        (n.k() == "call" && self.field(n, "function").map(|f| self.text(f)) == Some(name))
            .then(|| self.call_args(n))
    }

    /// The value `str(value)` converts to a string.
    fn converted(&self, n: Node<'t>) -> Option<Node<'t>> {
        let args = self.builtin_args(n, "str")?;
        match args.positional[..] {
            [value] if args.keywords.is_empty() && !args.splat => Some(self.unwrap_expr(value)),
            _ => None,
        }
    }

    /// A hole, classified from its text, the value its name is bound to, and `extra` texts
    /// (the f-string format spec `{d:%Y%m}`).
    fn hole_with(&self, expr: Node<'t>, extra: &[&str]) -> NamePart {
        let expr = self.unwrap_expr(expr);
        let text = self.text(expr);
        if let Some(s) = self.string_value(expr) {
            return NamePart::Literal { text: s };
        }
        let mut texts: Vec<&str> = vec![text];
        texts.extend(extra.iter().copied());
        // `str(day)`: what the converted name is bound to.
        let value = self.converted(expr).unwrap_or(expr);
        if value.k() == "identifier" {
            let text = self.text(value);
            if let Some(b) = self.lookup(text, value.start_byte() as u32) {
                if let Some(v) = b.value {
                    if value == expr && self.is_constant(b, text) {
                        if let Some(s) = self.string_value(self.unwrap_expr(v)) {
                            return NamePart::Literal { text: s };
                        }
                    }
                    texts.push(self.text(v));
                }
                if let Some(t) = b.type_node {
                    texts.push(self.text(t));
                }
            }
        }
        NamePart::Hole {
            text: crate::lang::first_chars(text, 80),
            hole: classify_hole(&texts),
            span: span(expr),
        }
    }

    // ---------------------------------------------------------------- values

    fn lower(&self, n: Node<'t>, depth: usize) -> Value {
        let sp = span(n);
        if depth > MAX_DEPTH || !super::burn(&self.lower_fuel) {
            return Value::unknown(sp, self.text(n), false);
        }
        let inner = self.unwrap_expr(n);
        // beanie's sort keys: `-User.created` is `{created: -1}`, `+User.name` `{name: 1}`;
        // its update operators: `Inc({Post.views: 1})` is `{$inc: {views: 1}}`.
        if self.uses_beanie && inner.k() == "unary_operator" {
            if let Some(v) = self.beanie_sort_key(inner) {
                return v;
            }
        }
        if self.uses_beanie && inner.k() == "call" {
            if let Some(v) = self.beanie_update(inner, depth) {
                return v;
            }
        }
        let kind = match inner.k() {
            "dictionary" => {
                let mut fields = Vec::new();
                for p in self.named_children(inner) {
                    match p.k() {
                        "pair" => {
                            let (Some(k), Some(v)) = (self.field(p, "key"), self.field(p, "value"))
                            else {
                                continue;
                            };
                            fields.push(Field {
                                key: self.key_text(k),
                                key_span: span(k),
                                value: self.lower(v, depth + 1),
                            });
                        }
                        "dictionary_splat" => {
                            fields.push(Field::spread(span(p), self.text(p), false))
                        }
                        _ => {}
                    }
                }
                ValueKind::Document(fields)
            }
            "list" | "tuple" | "set" | "expression_list" => {
                ValueKind::Array(self.lower_items(inner, depth))
            }
            "string" | "concatenated_string" => match self.string_value(inner) {
                Some(s) => ValueKind::String(s),
                None => return Value::unknown(sp, self.text(inner), false),
            },
            "integer" | "float" => match parse_number(self.text(inner)) {
                Some(x) => ValueKind::Number(x),
                None => return Value::unknown(sp, self.text(inner), false),
            },
            "unary_operator" => {
                let op = self.field(inner, "operator").map(|o| self.text(o));
                let arg = self.field(inner, "argument");
                match (op, arg.map(|a| self.lower(a, depth + 1))) {
                    (
                        Some("-"),
                        Some(Value {
                            kind: ValueKind::Number(x),
                            ..
                        }),
                    ) => ValueKind::Number(-x),
                    (
                        Some("+"),
                        Some(Value {
                            kind: ValueKind::Number(x),
                            ..
                        }),
                    ) => ValueKind::Number(x),
                    _ => return Value::unknown(sp, self.text(inner), false),
                }
            }
            "true" => ValueKind::Bool(true),
            "false" => ValueKind::Bool(false),
            "none" => ValueKind::Null,
            "identifier" => {
                if let Some(v) = index_constant(self.text(inner)) {
                    if self.imported_from_driver(self.text(inner), inner.start_byte() as u32) {
                        return Value { span: sp, kind: v };
                    }
                }
                return self.lower_identifier(inner, depth + 1).with_span(sp);
            }
            "attribute" => {
                let t = self.text(inner);
                if t.starts_with("pymongo.") {
                    if let Some(v) = index_constant(last_segment(t)) {
                        return Value { span: sp, kind: v };
                    }
                }
                return Value::unknown(sp, t, true);
            }
            "subscript" => return Value::unknown(sp, self.text(inner), true),
            "binary_operator" => {
                // `base_pipeline + [stage]`
                let op = self.field(inner, "operator").map(|o| self.text(o));
                if op == Some("+") {
                    if let (Some(l), Some(r)) =
                        (self.field(inner, "left"), self.field(inner, "right"))
                    {
                        let (lv, rv) = (self.lower(l, depth + 1), self.lower(r, depth + 1));
                        if let (ValueKind::Array(mut a), ValueKind::Array(b)) = (lv.kind, rv.kind) {
                            a.extend(b);
                            return Value {
                                span: sp,
                                kind: ValueKind::Array(a),
                            };
                        }
                    }
                }
                // Arithmetic on numbers written in the code: `24 * 60 * 60 // 30` is 2880.
                if let (Some(op), Some(l), Some(r)) =
                    (op, self.field(inner, "left"), self.field(inner, "right"))
                {
                    if matches!(op, "+" | "-" | "*" | "/" | "%" | "//" | "**")
                        && super::is_literal_arithmetic(self.text(inner))
                    {
                        let (lv, rv) = (self.lower(l, depth + 1), self.lower(r, depth + 1));
                        if let (ValueKind::Number(a), ValueKind::Number(b)) = (lv.kind, rv.kind) {
                            if let Some(x) = super::fold_arithmetic(op, a, b) {
                                return Value {
                                    span: sp,
                                    kind: ValueKind::Number(x),
                                };
                            }
                        }
                    }
                }
                return Value::unknown(sp, self.text(inner), false);
            }
            "call" => {
                // `dict(a=1)`, `SON([("a", 1)])`, `OrderedDict([...])`
                let f = self
                    .field(inner, "function")
                    .map(|f| self.text(f))
                    .unwrap_or("");
                let last = last_segment(f);
                if matches!(last, "dict" | "SON" | "OrderedDict") {
                    let args = self.call_args(inner);
                    let mut fields = Vec::new();
                    if let Some(a) = args.positional.first() {
                        let v = self.lower(*a, depth + 1);
                        match v.kind {
                            ValueKind::Document(fs) => fields.extend(fs),
                            ValueKind::Array(items) => {
                                for it in items {
                                    if let [k, val] = it.items() {
                                        if let Some(key) = k.as_str() {
                                            fields.push(Field {
                                                key: key.to_string(),
                                                key_span: k.span,
                                                value: val.clone(),
                                            });
                                        }
                                    }
                                }
                            }
                            _ => return Value::unknown(sp, self.text(inner), false),
                        }
                    }
                    for (k, v) in &args.keywords {
                        fields.push(Field {
                            key: self.text(*k).to_string(),
                            key_span: span(*k),
                            value: self.lower(*v, depth + 1),
                        });
                    }
                    ValueKind::Document(fields)
                } else if let Some(pipeline) = self.returned_pipeline(inner, depth) {
                    pipeline.kind
                } else {
                    return Value::unknown(sp, self.text(inner), false);
                }
            }
            _ => return Value::unknown(sp, self.text(inner), false),
        };
        Value { span: sp, kind }
    }

    /// The pipeline that a call of one of this file's functions returns: `paginate(page, size)`
    /// (a module function) or `self.pipeline(query)` (a method of the calling class), whose first
    /// `return` is a list literal with at least one stage (a dictionary whose first key is an
    /// operator, `[{"$skip": (page - 1) * size}, {"$limit": size}]`). Its parameters are unknown
    /// values in it. Not a list the function builds step by step: which stages it appends may
    /// depend on what the caller passes.
    fn returned_pipeline(&self, call: Node<'t>, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        let f = self.field(call, "function")?;
        let func = match f.k() {
            "identifier" => {
                let func = *self.functions.get(self.text(f))?;
                if self.enclosing_class(func).is_some() {
                    return None;
                }
                func
            }
            "attribute" => {
                let obj = self.field(f, "object")?;
                if obj.k() != "identifier" || !matches!(self.text(obj), "self" | "cls") {
                    return None;
                }
                let func = *self.functions.get(self.text(self.field(f, "attribute")?))?;
                let class = self.enclosing_class(func)?;
                if self.enclosing_class(call) != Some(class) {
                    return None;
                }
                func
            }
            _ => return None,
        };
        let mut returned = self.unwrap_expr(self.returned_expr(func)?);
        // `pipeline = [..]; return pipeline` (openedx forum's user pipeline): a name bound once,
        // in the function, to a list literal nothing is appended to.
        if returned.k() == "identifier" {
            let name = self.text(returned);
            let b = self.lookup(name, returned.start_byte() as u32)?;
            let appended = self.appends.get(name).is_some_and(|ps| {
                ps.iter()
                    .any(|(pos, ..)| b.scope.contains(Span::new(*pos as usize, *pos as usize)))
            });
            if !self.is_constant(b, name) || appended || !span(func).contains(b.scope) {
                return None;
            }
            returned = self.unwrap_expr(b.value?);
        }
        if returned.k() != "list" {
            return None;
        }
        super::helper_pipeline(&self.expanding, func.id(), || {
            self.lower(returned, depth + 1)
        })
    }

    fn lower_items(&self, list: Node<'t>, depth: usize) -> Vec<Value> {
        let mut items = Vec::new();
        for c in self.named_children(list) {
            if c.k() == "list_splat" {
                if let Some(inner) = self.named_children(c).into_iter().next() {
                    let v = self.lower(inner, depth + 1);
                    if let ValueKind::Array(xs) = v.kind {
                        items.extend(xs);
                        continue;
                    }
                }
                items.push(Value::unknown(span(c), self.text(c), false));
            } else {
                items.push(self.lower(c, depth + 1));
            }
        }
        items
    }

    /// A name bound once to a literal becomes that literal; a list variable includes what was
    /// appended to it (`append`, `extend`, `+=`, `insert(0, ..)`) before `at`.
    /// The update operators set on the dictionary `name` (bound at `from`) before `at`, added to
    /// its lowered value `v`: `update["$push"] = {"log": line}` (ChatterBot's tags),
    /// `spec["$addToSet"]["times"] = ..` and `spec.setdefault("$addToSet", {})["sports"] = ..`
    /// (ivre's flows). Other keys set by name (`q["status"] = status`) are keys of the dict
    /// where every path to the read sets them; one set under an `if` the read is not under is
    /// left out, so the query is judged as the path that skips it sends it; one set by a computed
    /// key (`q[field] = v`), or under another condition (both branches of an `if`, a loop),
    /// leaves the dict's keys unknown, as a spread does.
    fn add_operator_sets(&self, name: &str, from: u32, at: u32, v: &mut Value, depth: usize) {
        let ValueKind::Document(fields) = &mut v.kind else {
            return;
        };
        let before = |scope: &Span, key: Node<'t>| {
            let pos = key.start_byte() as u32;
            pos > from && pos < at && scope.contains(Span::new(at as usize, at as usize))
        };
        fn put(fields: &mut Vec<Field>, field: Field) {
            match fields.iter_mut().find(|f| f.key == field.key) {
                Some(f) => *f = field,
                None => fields.push(field),
            }
        }
        let mut unknown = None;
        for (scope, key, value) in self.key_sets.get(name).into_iter().flatten() {
            if !before(scope, *key) {
                continue;
            }
            let Some(k) = self.string_value(*key) else {
                unknown = Some(*key);
                continue;
            };
            // An operator the update may send, set under a condition or not.
            let keep = k.starts_with('$')
                || match self.assigned_under(*key, at) {
                    None => true,
                    Some(true) => false,
                    Some(false) => {
                        let every = self.set_in_every_branch(name, *key, &k, at);
                        if !every {
                            unknown = Some(*key);
                        }
                        every
                    }
                };
            if keep {
                let value = self.lower(*value, depth + 1);
                put(
                    fields,
                    Field {
                        key: k,
                        key_span: span(*key),
                        value,
                    },
                );
            }
        }
        if let Some(key) = unknown {
            fields.push(Field::spread(span(key), name, true));
        }
        for (scope, op, key, value) in self.operator_sets.get(name).into_iter().flatten() {
            let (Some(op_key), Some(k)) = (self.string_value(*op), self.string_value(*key)) else {
                continue;
            };
            if !before(scope, *key) {
                continue;
            }
            let value = self.lower(*value, depth + 1);
            let i = match fields.iter().position(|f| f.key == op_key) {
                Some(i) => i,
                None => {
                    fields.push(Field {
                        key: op_key,
                        key_span: span(*op),
                        value: Value {
                            span: span(*op),
                            kind: ValueKind::Document(Vec::new()),
                        },
                    });
                    fields.len() - 1
                }
            };
            if let ValueKind::Document(inner) = &mut fields[i].value.kind {
                put(
                    inner,
                    Field {
                        key: k,
                        key_span: span(*key),
                        value,
                    },
                );
            }
        }
        // `search.update({"$or": keys})`: the dict's fields from then on, and a dict filled in
        // after it is written, as by a spread (often under a condition: `if not all:
        // match.update({"disabled": False})`), whatever keys the code spells.
        for (pos, kind, arg) in self.appends.get(name).into_iter().flatten() {
            if *kind != AppendKind::Many || *pos <= from || *pos >= at {
                continue;
            }
            if let ValueKind::Document(added) = self.lower(*arg, depth + 1).kind {
                for f in added {
                    put(fields, f);
                }
            }
            fields.push(Field::spread(span(*arg), self.text(*arg), false));
        }
    }

    /// Whether the statement holding `n` runs under a condition that the read at `at` is not
    /// under: `None` when every path to the read runs it, else whether a path to the read skips
    /// it (an `if` with no `else`).
    fn assigned_under(&self, n: Node<'t>, at: u32) -> Option<bool> {
        let ends_scope =
            |k: &str| matches!(k, "function_definition" | "lambda" | "class_definition");
        super::under_condition(&self.parents, n, at, MAX_DEPTH, ends_scope, |p| {
            match p.k() {
                "if_statement" => Some(
                    !self
                        .named_children(p)
                        .into_iter()
                        .any(|c| c.k() == "else_clause"),
                ),
                "elif_clause"
                | "else_clause"
                | "for_statement"
                | "while_statement"
                | "try_statement"
                | "except_clause"
                | "finally_clause"
                | "match_statement"
                | "case_clause"
                | "conditional_expression"
                | "boolean_operator" => Some(false),
                _ => None,
            }
        })
    }

    /// Whether the statement `name[k] = ..` that holds `key` is one of an `if` with an `else`
    /// that every path to the read at `at` runs, and each of whose branches sets `name[k]` as a
    /// statement of its own (`if pool: spec["type"] = {"$in": ..} else: spec["type"] = ..`):
    /// the key is there on every path.
    fn set_in_every_branch(&self, name: &str, key: Node<'t>, k: &str, at: u32) -> bool {
        let block_of = |key: Node<'t>| -> Option<Node<'t>> {
            let stmt = self.parents.of(self.parents.of(self.parents.of(key)?)?)?;
            self.parents
                .of(stmt)
                .filter(|b| stmt.k() == "expression_statement" && b.k() == "block")
        };
        let Some(clause) = block_of(key).and_then(|b| self.parents.of(b)) else {
            return false;
        };
        let Some(if_node) = (match clause.k() {
            "if_statement" => Some(clause),
            "elif_clause" | "else_clause" => self.parents.of(clause),
            _ => None,
        }) else {
            return false;
        };
        if self.assigned_under(if_node, at).is_some() {
            return false;
        }
        let mut branches = vec![self.field(if_node, "consequence")];
        let mut has_else = false;
        for c in self.named_children(if_node) {
            match c.k() {
                "elif_clause" => branches.push(self.field(c, "consequence")),
                "else_clause" => {
                    has_else = true;
                    branches.push(self.field(c, "body"));
                }
                _ => {}
            }
        }
        let sets = self.key_sets.get(name).map_or(&[][..], |v| &v[..]);
        has_else
            && branches.into_iter().all(|b| {
                b.is_some_and(|b| {
                    sets.iter().any(|(_, other, _)| {
                        block_of(*other) == Some(b)
                            && self.string_value(*other).as_deref() == Some(k)
                    })
                })
            })
    }

    /// The update an argument sends: what [`Self::lower`] reads, or, when that is unknown
    /// because the update is one of several documents the code writes (`if post: updates =
    /// {"$addToSet": {field: uid}} else: updates = {"$pull": {field: uid}}`: superdesk newsroom's
    /// bookmarks and downloads; `{"$push": ..} if add else {"$set": ..}`), the one that grows an
    /// array, else the one that counts: what some run of the code sends.
    fn lower_update(&self, n: Node<'t>) -> Value {
        let v = self.lower(n, 0);
        if !v.is_unknown() {
            return v;
        }
        let branches = |c: Node<'t>| -> Vec<Node<'t>> {
            let c = self.unwrap_expr(c);
            if c.k() == "conditional_expression" {
                let bs = self.named_children(c);
                [bs.first(), bs.get(2)]
                    .into_iter()
                    .flatten()
                    .copied()
                    .collect()
            } else {
                vec![c]
            }
        };
        let inner = self.unwrap_expr(n);
        let candidates: Vec<Node<'t>> = match inner.k() {
            "conditional_expression" => branches(inner),
            "identifier" => {
                let at = inner.start_byte() as u32;
                let here = Span::new(at as usize, at as usize);
                self.bindings
                    .get(self.text(inner))
                    .into_iter()
                    .flatten()
                    .filter(|b| b.pos < at && b.scope.contains(here))
                    .filter_map(|b| b.value)
                    .flat_map(branches)
                    .collect()
            }
            _ => Vec::new(),
        };
        let lowered: Vec<Value> = candidates
            .into_iter()
            .filter(|c| self.unwrap_expr(*c).k() == "dictionary")
            .map(|c| self.lower(c, 0))
            .collect();
        super::growing_update(lowered)
            .map(|u| u.with_span(v.span))
            .unwrap_or(v)
    }

    fn lower_identifier(&self, id: Node<'t>, depth: usize) -> Value {
        let name = self.text(id);
        let at = id.start_byte() as u32;
        if let Some(b) = self.lookup(name, at) {
            if let Some(v) = b.value {
                let vk = self.unwrap_expr(v).k();
                if matches!(vk, "list" | "tuple") && depth <= MAX_DEPTH {
                    let mut items = self.lower_items(self.unwrap_expr(v), depth);
                    let mut front = Vec::new();
                    if let Some(ps) = self.appends.get(name) {
                        for (pos, kind, arg) in ps {
                            if *pos > b.pos
                                && *pos < at
                                && b.scope.contains(Span::new(*pos as usize, *pos as usize))
                            {
                                let lowered = self.lower(*arg, depth + 1);
                                match kind {
                                    AppendKind::One => items.push(lowered),
                                    AppendKind::Front => front.push(lowered),
                                    AppendKind::Many => match lowered.kind {
                                        ValueKind::Array(xs) => items.extend(xs),
                                        _ => items.push(Value::unknown(
                                            lowered.span,
                                            self.text(*arg),
                                            false,
                                        )),
                                    },
                                }
                            }
                        }
                    }
                    front.extend(items);
                    return Value {
                        span: span(v),
                        kind: ValueKind::Array(front),
                    };
                }
                let literal_like = matches!(
                    vk,
                    "dictionary"
                        | "string"
                        | "concatenated_string"
                        | "integer"
                        | "float"
                        | "unary_operator"
                        | "true"
                        | "false"
                        | "none"
                        | "binary_operator"
                        | "call"
                );
                // A parameter bound again (`if offset < 0: offset = 0`, articles_meta's clamp)
                // holds the caller's value on the other path.
                if literal_like
                    && (self.is_constant(b, name) || self.holds_at(b, name, id))
                    && !self.rebinds_a_parameter(name, b)
                    && depth <= MAX_DEPTH
                {
                    let mut v = self.lower(v, depth);
                    if vk == "dictionary" {
                        self.add_operator_sets(name, b.pos, at, &mut v, depth);
                    }
                    // A call or arithmetic stays an unknown named by the variable.
                    if !v.is_unknown() {
                        return v;
                    }
                }
            }
        }
        Value::unknown(span(id), name, true)
    }

    fn key_text(&self, k: Node<'t>) -> String {
        if let Some(s) = self.string_value(k) {
            return s;
        }
        if k.k() == "identifier" {
            if let Some(b) = self.lookup(self.text(k), k.start_byte() as u32) {
                if let (Some(v), true) = (b.value, self.is_constant(b, self.text(k))) {
                    if let Some(s) = self.string_value(self.unwrap_expr(v)) {
                        return s;
                    }
                }
            }
        }
        // `{field: v}`, `{f"logs.{day}": v}`: the key is computed at run time, spelt as
        // JavaScript's `{ [field]: v }` is, so that no rule takes it for a field named `field`.
        format!("[{}]", self.text(k))
    }

    /// Index keys as a document: `"a"` → `{a: 1}`, `[("a", 1), ("b", -1)]` → `{a: 1, b: -1}`.
    fn index_keys(&self, n: Node<'t>) -> Value {
        let v = self.lower(n, 0);
        let sp = v.span;
        match &v.kind {
            ValueKind::String(s) => Value {
                span: sp,
                kind: ValueKind::Document(vec![Field {
                    key: s.clone(),
                    key_span: sp,
                    value: Value {
                        span: sp,
                        kind: ValueKind::Number(1.0),
                    },
                }]),
            },
            ValueKind::Array(items) => {
                let mut fields = Vec::new();
                let pair = |it: &Value| -> Option<Field> {
                    match &it.kind {
                        ValueKind::String(s) => Some(Field {
                            key: s.clone(),
                            key_span: it.span,
                            value: Value {
                                span: it.span,
                                kind: ValueKind::Number(1.0),
                            },
                        }),
                        ValueKind::Array(kv) if kv.len() == 2 => Some(Field {
                            key: kv[0].as_str()?.to_string(),
                            key_span: kv[0].span,
                            value: kv[1].clone(),
                        }),
                        _ => None,
                    }
                };
                // `("a", 1)` alone: one pair, not two keys.
                if items.len() == 2
                    && items[0].as_str().is_some()
                    && !matches!(items[1].kind, ValueKind::String(_) | ValueKind::Array(_))
                {
                    if let Some(f) = pair(&v) {
                        fields.push(f);
                    }
                } else {
                    for it in items {
                        match pair(it) {
                            Some(f) => fields.push(f),
                            None => return v,
                        }
                    }
                }
                Value {
                    span: sp,
                    kind: ValueKind::Document(fields),
                }
            }
            _ => v,
        }
    }

    /// Keyword arguments as an options document.
    fn kwargs_doc(&self, args: &CallArgs<'t>, skip: &[&str], at: Span) -> Option<Value> {
        let fields: Vec<Field> = args
            .keywords
            .iter()
            .filter(|(k, _)| !skip.contains(&self.text(*k)))
            .map(|(k, v)| Field {
                key: self.text(*k).to_string(),
                key_span: span(*k),
                value: self.lower(*v, 0),
            })
            .collect();
        if fields.is_empty() {
            return None;
        }
        Some(Value {
            span: at,
            kind: ValueKind::Document(fields),
        })
    }

    // ---------------------------------------------------------------- pass 2: operations

    /// The functions of this file that only periodic functions call (by name, or as a method of
    /// `self` or `cls`) run on their period too: clearml-server's watchdog `start`, a poll loop,
    /// calls `cls.cleanup_tasks(..)`, which nothing else in the file calls. Added to
    /// `scheduled`, to a fixed point (at most a few rounds). A function also called from one that
    /// is not periodic (or from the module's top level) stays as it is: Sefaria's `cascade`, which
    /// a migration calls and so do request helpers.
    fn schedule_callees(&mut self, root: Node<'t>) {
        let defs: Vec<(&'t str, Node<'t>)> = self
            .all_functions
            .iter()
            .map(|&d| (self.field(d, "name").map_or("", |n| self.text(n)), d))
            .collect();
        let mut periodic: Vec<bool> = defs
            .iter()
            .map(|(name, def)| self.function_is_periodic(*def, name))
            .collect();
        if !periodic.contains(&true) {
            return;
        }
        // Every call of a name, with the function it is made in (an index into `defs`, which
        // the walk meets in the same order).
        let mut calls: Vec<(&'t str, Option<usize>)> = Vec::new();
        let mut open: Vec<usize> = Vec::new();
        let mut met = 0;
        self.parents.walk(root, |c, k, enter| {
            if k == "function_definition" {
                if enter {
                    open.push(met);
                    met += 1;
                } else {
                    open.pop();
                }
                return;
            }
            if !enter || k != "call" {
                return;
            }
            let Some(f) = self.field(c, "function") else {
                return;
            };
            let callee = match f.k() {
                "identifier" => Some(self.text(f)),
                "attribute" => self
                    .field(f, "object")
                    .filter(|o| matches!(self.text(*o), "self" | "cls"))
                    .and_then(|_| self.field(f, "attribute"))
                    .map(|a| self.text(a)),
                _ => None,
            };
            if let Some(callee) = callee {
                calls.push((callee, open.last().copied()));
            }
        });
        if met != defs.len() {
            return;
        }
        for _ in 0..4 {
            let mut added = false;
            for (j, (name, _)) in defs.iter().enumerate() {
                if periodic[j] || name.is_empty() {
                    continue;
                }
                let mut sites = calls.iter().filter(|(callee, _)| callee == name).peekable();
                if sites.peek().is_none() {
                    continue;
                }
                if sites.all(|(_, by)| by.is_some_and(|k| periodic[k])) {
                    // (Every function of that name: the frontend's periodic test is by name.)
                    for (i, (other, _)) in defs.iter().enumerate() {
                        if other == name {
                            periodic[i] = true;
                        }
                    }
                    self.scheduled.push(name.to_string());
                    added = true;
                }
            }
            if !added {
                break;
            }
        }
    }

    /// Whether function `f` reports its progress on a terminal, as a command or a batch job run by
    /// hand does and a request handler never does: it iterates through `tqdm(..)`, or writes or
    /// prints a line that a carriage return rewrites (`sys.stdout.write('%.2f %% done ...\r' %
    /// pct)`, `print(n, end="\r")`; kpi's `mongo_sync_status`, which a management command and an
    /// admin's task call); or it asks the operator at the terminal (`input("Restore? [y/n] ")`,
    /// Python 2's `raw_input`: mist's backup restore).
    fn reports_progress(&self, f: Node<'t>) -> bool {
        if !self.may_report_progress {
            return false;
        }
        let t = self.text(f).as_bytes();
        let has = |w: &[u8]| memchr::memmem::find(t, w).is_some();
        // (A string that ends in the carriage return, as a rewritten line does: not `'\r\n'`.)
        has(b"tqdm(")
            || ((has(b"\\r'") || has(b"\\r\""))
                && (has(b"stdout.write(") || has(b"stderr.write(") || has(b"print(")))
            || prompts_operator(t)
    }

    /// Whether function `f` polls on a period: a `while True` loop in it sleeps between rounds
    /// and has no way out (see `lang::polls_forever`).
    fn polls_forever(&self, f: Node<'t>) -> bool {
        super::function_polls_forever(&self.parents, self.src, f, &["while True", "while 1"])
    }

    fn function_is_periodic(&self, f: Node<'t>, name: &str) -> bool {
        if name_is_periodic_in(name, self.request_file) || self.scheduled.iter().any(|s| s == name)
        {
            return true;
        }
        if self.polls_forever(f) || self.reports_progress(f) {
            return true;
        }
        let Some(dd) = self
            .parents
            .of(f)
            .filter(|p| p.k() == "decorated_definition")
        else {
            return false;
        };
        self.named_children(dd)
            .into_iter()
            .filter(|d| d.k() == "decorator")
            .any(|d| {
                let t = self.text(d);
                // A route's path says nothing of a schedule: MozDef's
                // `@post('/syncalertschedules')` is a request handler.
                let callee = t.trim_start_matches('@').split('(').next().unwrap_or(t);
                if matches!(
                    last_segment(callee),
                    "route" | "get" | "post" | "put" | "patch" | "delete" | "api_route"
                ) {
                    return false;
                }
                // `@job("purge-datasets")` (udata's tasks, RQ's `@job(queue)`, Flask-RQ2's
                // `@rq.job()`): a background job.
                // A command of the application's command line, run by hand: Flask-Script's
                // `@manager.command` (opac's `populate_pdfs_path_html_version`), click's
                // `@click.command()`, Flask's `@app.cli.command()` (not a chat bot's
                // `@commands.command()`, which answers its users).
                let cli = matches!(
                    callee,
                    "manager.command" | "manager.option" | "click.command"
                ) || callee.ends_with("cli.command");
                cli || callee == "job"
                    || callee == "rq.job"
                    || callee.ends_with(".rq.job")
                    || t.contains("scheduled_job")
                    || t.contains("periodic_task")
                    || t.contains("repeat_every")
                    || t.contains("crontab")
                    || t.contains("cron")
                    || t.contains("run_every")
                    || t.contains("schedule")
                    || t.contains(".every(")
                    || t.contains("interval")
            })
    }

    /// What a loop iterates over: `for x in EXPR`, `[.. for x in EXPR]`; `None` for `while`.
    fn loop_over(&self, n: Node<'t>) -> Option<LoopOver> {
        let clause = if n.k() == "for_statement" {
            n
        } else {
            self.named_children(n)
                .into_iter()
                .find(|c| c.k() == "for_in_clause")?
        };
        let item = self.field(clause, "left").map(|l| self.text(l));
        let mut r = self.field(clause, "right")?;
        // `for nid in (networks or []):` (mist.api) iterates what the parentheses hold: they
        // make no tuple.
        while r.k() == "parenthesized_expression" {
            match self.named_children(r).into_iter().next() {
                Some(inner) => r = inner,
                None => break,
            }
        }
        let mut over = super::loop_over_with_item(self.text(r), span(r), item);
        // `_cfg = configs.find_one({"_id": name})`, then `for src in _cfg["sources"]` (biothings'
        // build check): a document read from the database is data, whatever its name says.
        if over.fixed && self.root_read_from_database(r) {
            over.fixed = false;
        }
        over.fixed |= self.names_fixed_list(r);
        // `for i, doc in enumerate(docs)` walks what `docs` holds.
        over.bound_to = self.bound_in_function(self.enumerated(r).unwrap_or(r));
        over.fixed |= super::bound_to_few(self.src, over.bound_to);
        over.batches |= super::bound_to_batches(self.src, over.bound_to);
        Some(over)
    }

    /// The name `n` starts with (`cfg` in `cfg["sources"]`, `cfg.sources`) is bound to a document
    /// or the results a query read: `find_one(..)`, `find(..)`.
    fn root_read_from_database(&self, n: Node<'t>) -> bool {
        let mut root = self.unwrap_expr(n);
        for _ in 0..MAX_DEPTH {
            match root.k() {
                "subscript" => root = self.field(root, "value").unwrap_or(root),
                "attribute" => root = self.field(root, "object").unwrap_or(root),
                _ => break,
            }
        }
        if root.k() != "identifier" {
            return false;
        }
        let Some(v) = self
            .lookup(self.text(root), root.start_byte() as u32)
            .and_then(|b| b.value)
        else {
            return false;
        };
        let v = self.unwrap_expr(v);
        v.k() == "call"
            && self
                .field(v, "function")
                .filter(|f| f.k() == "attribute")
                .and_then(|f| self.field(f, "attribute"))
                .is_some_and(|a| {
                    matches!(
                        self.text(a),
                        "find_one" | "find" | "find_one_and_update" | "aggregate"
                    )
                })
    }

    /// `docs` in `enumerate(docs)` or `enumerate(docs, 1)`.
    fn enumerated(&self, n: Node<'t>) -> Option<Node<'t>> {
        let args = self.builtin_args(n, "enumerate")?;
        (!args.splat)
            .then(|| args.positional.first().map(|a| self.unwrap_expr(*a)))
            .flatten()
    }

    /// `sheets = db.sheets.find(q)` for `sheets` in `for s in sheets:`: the expression a name is
    /// bound to, when it is bound once, in the function (or module) the name is used in.
    fn bound_in_function(&self, n: Node<'t>) -> Option<Span> {
        if n.k() != "identifier" {
            return None;
        }
        let name = self.text(n);
        let b = self.lookup(name, n.start_byte() as u32)?;
        let value = b.value?;
        let mut scope = n;
        while let Some(p) = self.parents.of(scope) {
            scope = p;
            if matches!(p.k(), "function_definition" | "lambda" | "class_definition") {
                break;
            }
        }
        (self.is_constant(b, name) && b.scope == span(scope) && !span(value).contains(span(n)))
            .then(|| span(value))
    }

    /// `windows` in `for w in windows:` after `windows = [DateRange.alltime(), DateRange.currently()]`:
    /// a name assigned once, to a non-empty list or tuple written in the code (no unpacking) or to
    /// a list read from configuration (`pools = settings.app.dh_param_bits_pool`), and never
    /// appended to; or assigned more than once in its scope, each time to such a list or to an
    /// empty one (a fallback).
    ///
    /// Also a dict written in the code with constant keys, never changed in the scope, iterated
    /// itself or through `.keys()`, `.values()` or `.items()`: `for field in
    /// assign_from_local_cv.keys():` after `assign_from_local_cv = {"place": "locators", ..}`.
    fn names_fixed_list(&self, n: Node<'t>) -> bool {
        let n = self.dict_view_of(n).unwrap_or(n);
        if n.k() != "identifier" {
            return false;
        }
        let name = self.text(n);
        let Some(b) = self.lookup(name, n.start_byte() as u32) else {
            return false;
        };
        let fixed = |v: Node<'t>| {
            let items = self.named_children(v);
            super::is_written_list(v, &items, &["list", "tuple", "set"], &["list_splat"])
                || super::naming::reads_configuration(self.text(v))
        };
        // A parameter bound again to a list (`if not isinstance(value, list): value = [value]`)
        // holds the caller's items on the other path.
        if self.rebinds_a_parameter(name, b) {
            return false;
        }
        // (Items appended to a name in the scope it is bound in; the name's appends elsewhere are
        // another variable's.)
        let appended = self.appends.get(name).is_some_and(|a| {
            a.iter()
                .any(|(pos, _, _)| b.scope.contains(Span::new(*pos as usize, *pos as usize)))
        });
        if appended {
            return false;
        }
        if self.is_constant(b, name) || self.rebound_after_walk(b, name, n) {
            return b.value.is_some_and(|v| {
                fixed(v)
                    || (self.constant_keyed_dict(v) && !self.dict_changed(n, name, b.scope))
                    || self.returns_few_items(v)
            });
        }
        // `try: hooks = config.HOOKS.get(region, []) except AttributeError: hooks = []`: every
        // assignment in the scope is such a list or an empty one, and one is not empty.
        let values: Vec<Node<'t>> = self.bindings[name]
            .iter()
            .filter(|o| o.scope == b.scope && matches!(o.kind, DeclKind::Assign))
            .filter_map(|o| o.value)
            .collect();
        let assigned = self.assigned.get(&(b.scope.start, name.to_string()));
        let empty =
            |v: Node<'t>| matches!(v.k(), "list" | "tuple") && self.named_children(v).is_empty();
        assigned == Some(&(values.len() as u32))
            && values.iter().all(|&v| fixed(v) || empty(v))
            && values.iter().any(|&v| fixed(v))
    }

    /// `call` runs a function of this file (a module function, or a method through `self`,
    /// `cls` or its class) whose every return gives a tuple or list of at most ten items written
    /// out, or nothing: clearml-server's `res = cls._get_queries_for_order_field(query, field)`,
    /// whose `return non_empty, empty` is two filters, not data.
    fn returns_few_items(&self, call: Node<'t>) -> bool {
        let v = self.unwrap_expr(call);
        if v.k() != "call" {
            return false;
        }
        let Some(f) = self.field(v, "function") else {
            return false;
        };
        let def = match f.k() {
            "identifier" => self.functions.get(self.text(f)).copied(),
            "attribute" => self.field(f, "object").and_then(|o| {
                let method = self.text(self.field(f, "attribute")?);
                self.method_called(o, method).flatten()
            }),
            _ => None,
        };
        let Some(body) = def.and_then(|d| self.field(d, "body")) else {
            return false;
        };
        let (mut few, mut other, mut nested) = (0usize, false, 0usize);
        self.parents.walk(body, |c, k, enter| {
            if matches!(k, "function_definition" | "lambda" | "class_definition") {
                if enter {
                    nested += 1;
                } else {
                    nested = nested.saturating_sub(1);
                }
            }
            if !enter || nested > 0 || k != "return_statement" {
                return;
            }
            match c.named_child(0).map(|r| self.unwrap_expr(r)) {
                None => {}
                Some(r) if r.k() == "none" => {}
                Some(r) if matches!(r.k(), "expression_list" | "tuple" | "list") => {
                    let items = self.named_children(r);
                    if items.len() <= 10 && !items.iter().any(|i| i.k() == "list_splat") {
                        few += 1;
                    } else {
                        other = true;
                    }
                }
                Some(_) => other = true,
            }
        });
        few > 0 && !other
    }

    /// `d` for `d.keys()`, `d.values()` or `d.items()`, and for Python 2's `d.iteritems()`
    /// (`iterkeys`, `itervalues`) or six's `six.iteritems(d)`.
    fn dict_view_of(&self, n: Node<'t>) -> Option<Node<'t>> {
        if n.k() != "call" {
            return None;
        }
        let args = self.named_children(self.field(n, "arguments")?);
        let f = self.field(n, "function")?;
        let py2 = |name: &str| matches!(name, "iterkeys" | "itervalues" | "iteritems");
        // Python 2's, through six: `six.iteritems(SUPPORTED_FILTERS)`.
        if let [dict] = args.as_slice() {
            let name = self.text(f);
            return (py2(name) || name.strip_prefix("six.").is_some_and(py2)).then_some(*dict);
        }
        if f.k() != "attribute" || !args.is_empty() {
            return None;
        }
        let view = self.text(self.field(f, "attribute")?);
        (matches!(view, "keys" | "values" | "items") || py2(view))
            .then(|| self.field(f, "object"))
            .flatten()
    }

    /// A dict written in the code whose keys are all constants: `{"place": "locators", 1: x}`.
    fn constant_keyed_dict(&self, v: Node<'t>) -> bool {
        let entries: Vec<Node<'t>> = self
            .named_children(v)
            .into_iter()
            .filter(|e| e.k() != "comment")
            .collect();
        v.k() == "dictionary"
            && !entries.is_empty()
            && entries.iter().all(|e| {
                e.k() == "pair"
                    && self
                        .field(*e, "key")
                        .is_some_and(|k| k.k() == "integer" || self.string_value(k).is_some())
            })
    }

    /// Whether the scope `scope` (the span of the function or module `name` is bound in, around
    /// its use `at`) changes the dict `name`: `d[k] = ..`, `del d[k]`, `d |= ..`, or one of the
    /// [`MUTATORS`] (`d.update(..)`, `d.setdefault(..)`, `d.pop(..)`, `d.clear()`).
    /// The loop whose iterable holds `at` (`data` in `for key in data.keys():`), a few levels up.
    fn walking_loop(&self, at: Node<'t>) -> Option<Node<'t>> {
        let mut p = self.parents.of(at)?;
        for _ in 0..4 {
            if matches!(p.k(), "for_statement" | "for_in_clause") {
                return Some(p);
            }
            p = self.parents.of(p)?;
        }
        None
    }

    /// Where the `for` statement `w` ends, when no other loop in `scope` repeats it: what the
    /// scope does after that position comes too late for the loop.
    fn end_of_lone_loop(&self, w: Node<'t>, scope: Span) -> Option<usize> {
        if w.k() != "for_statement" {
            return None;
        }
        let mut cur = self.parents.of(w);
        while let Some(a) = cur.filter(|a| span(*a) != scope) {
            if matches!(a.k(), "for_statement" | "while_statement") {
                return None;
            }
            cur = self.parents.of(a);
        }
        Some(w.end_byte())
    }

    /// Whether the name `name`, bound again in its scope, holds the value of its binding `b` at
    /// `at` whatever path led there: `b` is a plain assignment in a block that `at` is in, after
    /// it (Sefaria's `query = {"dateCreated": ..}; db.sheets.find(query)` then `query = {..}`
    /// for the next read), and no other assignment can reach `at` first: those before `b` are
    /// overwritten by it, and one after `at` only reaches it through a loop around `at` that `b`
    /// is not in.
    fn holds_at(&self, b: &Binding, name: &str, at: Node<'t>) -> bool {
        let (DeclKind::Assign, Some(value)) = (b.kind, b.value) else {
            return false;
        };
        let Some(others) = self.every_binding_in_scope(b, name) else {
            return false;
        };
        // The block of `b`'s statement (`name = value`, alone on its statement).
        let Some(assignment) = self.parents.of(value).filter(|a| {
            a.k() == "assignment"
                && self
                    .field(*a, "left")
                    .is_some_and(|l| l.k() == "identifier" && self.text(l) == name)
        }) else {
            return false;
        };
        let Some(block) = self
            .parents
            .of(assignment)
            .filter(|s| s.k() == "expression_statement")
            .and_then(|s| self.parents.of(s))
            .filter(|p| matches!(p.k(), "block" | "module"))
        else {
            return false;
        };
        let at_pos = at.start_byte() as u32;
        if !span(block).contains(span(at)) || at_pos <= b.pos {
            return false;
        }
        // The loops around `at` inside that block.
        let mut loops = Vec::new();
        let mut cur = at;
        while let Some(p) = self.parents.of(cur) {
            if p == block {
                break;
            }
            if matches!(p.k(), "for_statement" | "while_statement") {
                loops.push(span(p));
            }
            cur = p;
        }
        others.iter().all(|o| {
            o.pos <= b.pos
                || (o.pos > at_pos
                    && !loops
                        .iter()
                        .any(|l| l.contains(Span::new(o.pos as usize, o.pos as usize))))
        })
    }

    /// Whether the name `name`, which `b` binds, is bound again in its scope only after the loop
    /// that walks it at `at` (cve-search's `data = {..}` for its statistics, then `data =
    /// {"stats": .., "data": data}` under a condition after the loop), and assigned in no other
    /// way: for that loop, a constant.
    fn rebound_after_walk(&self, b: &Binding, name: &str, at: Node<'t>) -> bool {
        if !matches!(b.kind, DeclKind::Assign) {
            return false;
        }
        let Some(end) = self
            .walking_loop(at)
            .and_then(|w| self.end_of_lone_loop(w, b.scope))
        else {
            return false;
        };
        self.every_binding_in_scope(b, name).is_some_and(|others| {
            others
                .iter()
                .all(|o| std::ptr::eq(*o, b) || o.pos as usize >= end)
        })
    }

    /// The bindings of `name` in the scope of its binding `b`, when they are every assignment
    /// of it there (none made in a way the bindings do not record).
    fn every_binding_in_scope<'b>(
        &'b self,
        b: &Binding,
        name: &str,
    ) -> Option<Vec<&'b Binding<'t>>> {
        let all: Vec<&Binding> = self.bindings[name]
            .iter()
            .filter(|o| o.scope == b.scope)
            .collect();
        let assigned = self.assigned.get(&(b.scope.start, name.to_string()));
        (assigned == Some(&(all.len() as u32))).then_some(all)
    }

    fn dict_changed(&self, at: Node<'t>, name: &str, scope: Span) -> bool {
        let Some(root) = super::ancestor_spanning(&self.parents, at, scope, |_| true) else {
            return true;
        };
        let names_it = |t: Node<'t>| t.k() == "identifier" && self.text(t) == name;
        let subscript_of_it =
            |t: Node<'t>| t.k() == "subscript" && self.field(t, "value").is_some_and(names_it);
        // The item of the loop that walks the dict (`for key in data.keys():`): `data[key] = ..`
        // sets the value of a key it has, and adds none.
        let walk = self.walking_loop(at);
        let item = walk
            .and_then(|w| self.field(w, "left"))
            .filter(|l| l.k() == "identifier")
            .map(|l| self.text(l));
        // Keys added after the loop, which no other loop around it repeats (cve-search's
        // `data["whitelist"] = ..` under `if include_admin:` after the loop over its keys),
        // come too late for it.
        let after = walk.and_then(|w| self.end_of_lone_loop(w, scope));
        let own_key = |t: Node<'t>| {
            item.is_some_and(|item| {
                self.field(t, "subscript")
                    .is_some_and(|k| k.k() == "identifier" && self.text(k) == item)
            })
        };
        let mut changed = false;
        self.parents.walk(root, |n, kind, enter| {
            if !enter || changed || after.is_some_and(|end| n.start_byte() >= end) {
                return;
            }
            changed = match kind {
                "assignment" | "augmented_assignment" => self.field(n, "left").is_some_and(|l| {
                    (subscript_of_it(l) && !(kind == "assignment" && own_key(l)))
                        || (kind != "assignment" && names_it(l))
                }),
                "delete_statement" => self.named_children(n).into_iter().any(|t| {
                    subscript_of_it(t)
                        || (t.k() == "expression_list"
                            && self.named_children(t).into_iter().any(subscript_of_it))
                }),
                "call" => self
                    .field(n, "function")
                    .filter(|f| f.k() == "attribute")
                    .is_some_and(|f| {
                        self.field(f, "object").is_some_and(names_it)
                            && self
                                .field(f, "attribute")
                                .is_some_and(|m| MUTATORS.contains(&self.text(m)))
                    }),
                _ => false,
            };
        });
        changed
    }

    /// The value paths an expression reads (`guid`, `self.guid`, `doc.customer_id` for
    /// `doc["customer_id"]`; not keyword or attribute labels; a method call reads its object:
    /// `doc` for `doc.get("x")`), or `None` when it holds code that runs apart from it (a lambda,
    /// a comprehension) or binds a name (`:=`).
    /// Whether the receiver `obj` of a call in the loop `loop_span` is the loop's item, or a name
    /// the loop binds from it, or reached from either (`for db in databases: db.messages.count_documents(..)`,
    /// `for col in collections: col.find(..)`): another collection each time, as far as this file
    /// can tell.
    fn receiver_per_item(&self, obj: Node<'t>, loop_span: Span) -> bool {
        let mut head = obj;
        for _ in 0..MAX_DEPTH {
            match head.k() {
                "attribute" => head = self.field(head, "object").unwrap_or(head),
                "subscript" => head = self.field(head, "value").unwrap_or(head),
                _ => break,
            }
        }
        if !matches!(head.k(), "identifier" | "call") {
            return false;
        }
        let Some(looped) = super::ancestor_spanning(&self.parents, obj, loop_span, |_| true) else {
            return false;
        };
        let Some(left) = self.field(looped, "left") else {
            return false;
        };
        // The items of a query's results are its documents, of one collection
        // (`for search in SavedSearch.objects(..): search.update(..)`).
        if self
            .field(looped, "right")
            .is_some_and(|r| self.reads_documents(r, 0))
        {
            return false;
        }
        let items: Vec<&str> = self
            .identifiers_in(left)
            .into_iter()
            .map(|n| self.text(n))
            .collect();
        // A service or collection got by a name from the item (superdesk's
        // `get_resource_service(service_name).find(..)` in `for service_name, ids in
        // by_service.items()`), directly or through names the loop binds.
        if head.k() == "call" {
            let at = head.start_byte() as u32;
            return self.names_read(head).is_some_and(|read| {
                read.iter().any(|r| {
                    self.bound_from_item(r.split('.').next().unwrap_or(r), at, &items, loop_span, 0)
                })
            });
        }
        self.bound_from_item(
            self.text(head),
            head.start_byte() as u32,
            &items,
            loop_span,
            0,
        )
    }

    /// Whether `name`, read at `at`, is one of the loop's `items` or bound in the loop from them,
    /// a few assignments deep: `col = db[spec["name"]]`, or `service_name = ref.get("location")`
    /// then `service = get_resource_service(service_name)`, `ref` the item.
    fn bound_from_item(
        &self,
        name: &str,
        at: u32,
        items: &[&str],
        loop_span: Span,
        depth: usize,
    ) -> bool {
        if items.contains(&name) {
            return true;
        }
        if depth > 3 {
            return false;
        }
        self.lookup(name, at).is_some_and(|b| {
            loop_span.contains(Span::new(b.pos as usize, b.pos as usize))
                && b.value.is_some_and(|v| {
                    self.names_read(v).is_some_and(|read| {
                        read.iter().any(|r| {
                            let r = r.split('.').next().unwrap_or(r);
                            r != name && self.bound_from_item(r, b.pos, items, loop_span, depth + 1)
                        })
                    })
                })
        })
    }

    /// Whether `n` is a name the loop `loop_span` binds as its item (`pipeline` of `for
    /// pipeline, hint in zip(pipelines, hints):`).
    fn loop_item(&self, n: Node<'t>, loop_span: Span) -> bool {
        if n.k() != "identifier" {
            return false;
        }
        let Some(looped) = super::ancestor_spanning(&self.parents, n, loop_span, |_| true) else {
            return false;
        };
        // (A comprehension's loop is its `for .. in` clauses.)
        let lefts: Vec<Node<'t>> = match self.field(looped, "left") {
            Some(left) => vec![left],
            None => self
                .named_children(looped)
                .into_iter()
                .filter(|c| c.k() == "for_in_clause")
                .filter_map(|c| self.field(c, "left"))
                .collect(),
        };
        let name = self.text(n);
        lefts
            .into_iter()
            .flat_map(|left| self.identifiers_in(left))
            .any(|id| self.text(id) == name)
    }

    /// Whether the expression `n` is a read of documents, as far as its spelling says: a chain
    /// through a read method or a mongoengine manager (`SavedSearch.objects(..)`,
    /// `db.users.find(q).sort(..)`), or a name bound to one.
    fn reads_documents(&self, n: Node<'t>, depth: usize) -> bool {
        let mut n = n;
        if n.k() == "identifier" {
            return depth == 0
                && self
                    .lookup(self.text(n), n.start_byte() as u32)
                    .and_then(|b| b.value)
                    .is_some_and(|v| self.reads_documents(v, depth + 1));
        }
        for _ in 0..MAX_DEPTH {
            let f = match n.k() {
                "call" => match self.field(n, "function") {
                    Some(f) if f.k() == "attribute" => f,
                    _ => return false,
                },
                "attribute" => n,
                _ => return false,
            };
            let name = self
                .field(f, "attribute")
                .map(|a| self.text(a))
                .unwrap_or("");
            if name == "objects"
                || crate::lang::vocabulary::py_operation(name).is_some_and(|m| m.kind.is_read())
            {
                return true;
            }
            match self.field(f, "object") {
                Some(o) => n = o,
                None => return false,
            }
        }
        false
    }

    fn names_read(&self, root: Node<'t>) -> Option<Vec<String>> {
        let mut opaque = false;
        let names = self.paths_in(root, true, &mut opaque);
        (!opaque).then_some(names)
    }

    /// The value paths in `root` (see [`Self::names_read`]); with `reads` false, the paths that a
    /// target changes: `q._id` in `q["_id"] = ..`, `q` in `q[k] = ..`.
    fn paths_in(&self, root: Node<'t>, reads: bool, opaque: &mut bool) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        // The end of the last path taken: the nodes inside it are part of it.
        let mut inside = 0;
        self.parents.walk(root, |n, kind, enter| {
            if !enter || n.start_byte() < inside {
                return;
            }
            match kind {
                "lambda"
                | "list_comprehension"
                | "set_comprehension"
                | "dictionary_comprehension"
                | "generator_expression"
                | "named_expression" => *opaque = true,
                "identifier" => {
                    let label = self.parents.of(n).is_some_and(|p| {
                        (p.k() == "keyword_argument" && self.field(p, "name") == Some(n))
                            || (p.k() == "attribute" && self.field(p, "attribute") == Some(n))
                    });
                    if !label {
                        out.push(self.text(n).to_string());
                    }
                }
                "attribute" | "subscript" => {
                    // `doc.get("x")`: the call reads `doc` as a whole.
                    let method = kind == "attribute"
                        && self.parents.of(n).is_some_and(|p| {
                            p.k() == "call" && self.field(p, "function") == Some(n)
                        });
                    let path = if method {
                        self.field(n, "object").and_then(|o| self.value_path(o))
                    } else {
                        self.value_path(n)
                    };
                    match path {
                        Some(p) => {
                            out.push(p);
                            inside = n.end_byte();
                        }
                        // `q[k] = ..` changes `q`; `q[k]` read reads `q` and `k`, found below.
                        None if kind == "subscript" && !reads => {
                            if let Some(p) = self.field(n, "value").and_then(|o| self.value_path(o))
                            {
                                out.push(p);
                                inside = n.end_byte();
                            }
                        }
                        None => {}
                    }
                }
                _ => {}
            }
        });
        out
    }

    /// The path of a value: `doc`, `self.guid`, `doc.customer_id` for `doc["customer_id"]` (a
    /// string key written out); `None` for anything else.
    fn value_path(&self, n: Node<'t>) -> Option<String> {
        match n.k() {
            "identifier" => Some(self.text(n).to_string()),
            "attribute" => {
                let object = self.value_path(self.field(n, "object")?)?;
                Some(format!(
                    "{object}.{}",
                    self.text(self.field(n, "attribute")?)
                ))
            }
            "subscript" => {
                let object = self.value_path(self.field(n, "value")?)?;
                // One key: `doc["a", "b"]` is a tuple.
                if self.named_children(n).len() != 2 {
                    return None;
                }
                let key = self.field(n, "subscript")?;
                Some(format!("{object}.{}", self.string_value(key)?))
            }
            _ => None,
        }
    }

    /// The operations that the calls `local` of functions of this file run: an operation of such
    /// a function whose update or documents are a parameter, filled in with what the call writes
    /// out, by position or by keyword (see `lang::operation_for_call`). The operations from
    /// `before` on are this pass's.
    fn operations_through_calls(&mut self, before: usize, local: Vec<(Node<'t>, OpContext)>) {
        if local.is_empty() || !super::may_run_through_calls(&self.ir.operations[before..]) {
            return;
        }
        let mut added = Vec::new();
        for (call, mut ctx) in local {
            let Some(def) = self.helper_def(call) else {
                continue;
            };
            let ops = &self.ir.operations[before..];
            let given = self.call_args(call);
            let Some(callee) = self.field(call, "function") else {
                continue;
            };
            if given.splat || !super::runs_operations_of(ops, span(def), span(call)) {
                continue;
            }
            let params = self.parameter_names(def);
            // A method's `self` or `cls` is its receiver, not an argument.
            let skip = usize::from(params.first().is_some_and(|p| matches!(*p, "self" | "cls")));
            let mut args: Vec<Option<Value>> = vec![None; params.len()];
            for (i, a) in given.positional.iter().enumerate() {
                if let Some(slot) = args.get_mut(i + skip) {
                    *slot = Some(self.lower(*a, 0));
                }
            }
            for (k, v) in &given.keywords {
                if let Some(i) = params.iter().position(|p| *p == self.text(*k)) {
                    args[i] = Some(self.lower(*v, 0));
                }
            }
            ctx.size_guards = self.size_guards(&[call]);
            let c = super::CallOfFunction {
                def: span(def),
                params,
                args,
                call: span(call),
                callee: span(callee),
                ctx,
            };
            super::operations_through_call(ops, &c, &mut added);
        }
        self.ir.operations.extend(added);
    }

    /// The function of this file a call runs: a module-level function called by its name
    /// (`get_karmas(..)`), or a method of the caller's class through `self` or `cls`.
    fn helper_def(&self, call: Node<'t>) -> Option<Node<'t>> {
        let f = self.field(call, "function")?;
        match f.k() {
            "identifier" => {
                let def = *self.functions.get(self.text(f))?;
                let mut up = self.parents.of(def)?;
                if up.k() == "decorated_definition" {
                    up = self.parents.of(up)?;
                }
                (up.k() == "module").then_some(def)
            }
            "attribute" => {
                let obj = self.field(f, "object")?;
                let method = self.field(f, "attribute")?;
                if !matches!(self.text(obj), "self" | "cls") {
                    return None;
                }
                self.method_called(obj, self.text(method))?
            }
            _ => None,
        }
    }

    /// Of the loops around the loop `l` that a call repeating one query on every iteration of `l`
    /// is in (`nested`, by call), the innermost whose items it varies with: the call reads per
    /// item of that one (see `lang::loop_that_varies`).
    fn varying_outer<'n>(
        &self,
        call: Node<'t>,
        l: Span,
        nested: &'n super::NestedLoops,
        changed_in: &mut HashMap<Span, Vec<String>>,
    ) -> Option<(Span, &'n LoopOver)> {
        let key = (call.start_byte() as u32, call.end_byte() as u32);
        super::loop_that_varies(nested.get(&key)?, l, span(call), |o| {
            super::ancestor_spanning(&self.parents, call, o, runs_in_place)?;
            Some(!self.same_each_iteration(call, o, changed_in))
        })
    }

    /// Whether the read at `read` in the function `def` runs once and is kept: the function is
    /// memoised (`@lru_cache`, `@cache`, `@memoize`, `@cached_property`), or the read fills an
    /// attribute or a name bound outside the function (`if not self.crop_sizes: self.crop_sizes =
    /// vocabularies.find_one(..)`).
    fn cached_read(&self, def: Node<'t>, read: Span) -> bool {
        let memoised = self
            .parents
            .of(def)
            .filter(|d| d.k() == "decorated_definition")
            .is_some_and(|d| {
                self.named_children(d).into_iter().any(|x| {
                    let t = self.text(x).to_ascii_lowercase();
                    x.k() == "decorator" && (t.contains("cache") || t.contains("memoize"))
                })
            });
        if memoised {
            return true;
        }
        let mut kept = false;
        self.parents.walk(def, |n, kind, enter| {
            if !enter || kept || kind != "assignment" {
                return;
            }
            let (Some(left), Some(right)) = (self.field(n, "left"), self.field(n, "right")) else {
                return;
            };
            let fills = span(right).contains(read)
                && (left.k() == "attribute"
                    || (left.k() == "identifier"
                        && self
                            .lookup(self.text(left), n.start_byte() as u32)
                            .is_some_and(|b| !span(def).contains(b.scope))));
            kept = fills;
        });
        kept
    }

    /// A call in a loop of `def`, a function of this file whose body reads from the database
    /// outside any loop of its own: a [`HelperRead`], with the call's context settled as an
    /// operation's is (a call sending the same arguments on every iteration repeats one query).
    fn note_helper_read(
        &mut self,
        call: Node<'t>,
        def: Node<'t>,
        ctx: OpContext,
        nested: &super::NestedLoops,
        changed_in: &mut HashMap<Span, Vec<String>>,
    ) {
        let Some((name, read)) = self.look_up_of(def, Some(span(call))) else {
            return;
        };
        let Some(ctx) = self.settle_helper_call(call, ctx, nested, changed_in) else {
            return;
        };
        let member = ("attribute", "attribute");
        let h = super::helper_read(&self.parents, call, member, name, read, ctx);
        self.ir.helper_reads.push(h);
    }

    /// A call in a loop of a function imported from another module of the repository (`for t
    /// in topics: users.get_user(t["author"])`, `from app.db import users`): an
    /// [`crate::ir::ImportedCall`], its context settled as a [`HelperRead`]'s is.
    fn note_imported_call(
        &mut self,
        call: Node<'t>,
        import: ImportRef,
        ctx: OpContext,
        nested: &super::NestedLoops,
        changed_in: &mut HashMap<Span, Vec<String>>,
    ) {
        let Some(ctx) = self.settle_helper_call(call, ctx, nested, changed_in) else {
            return;
        };
        let member = ("attribute", "attribute");
        let c = super::imported_call(&self.parents, self.src, call, member, import, ctx);
        self.ir.imported_calls.push(c);
    }

    /// The function a call runs when it is imported from another module of the repository, by
    /// name (`get_user(id)`, `from app.db import get_user`) or as a member of a module or class
    /// (`db.get_user(id)`, `Users.by_id(id)`), as the linker looks it up.
    fn imported_callee(&self, call: Node<'t>) -> Option<ImportRef> {
        let f = self.field(call, "function")?;
        // The cheap tests first: a name, or names joined by dots, whose first is an import.
        let mut root = f;
        while root.k() == "attribute" {
            root = self.field(root, "object")?;
        }
        if root.k() != "identifier"
            || !self
                .bindings
                .get(self.text(root))
                .is_some_and(|list| list.iter().any(|b| b.import.is_some()))
        {
            return None;
        }
        let text = self.text(f);
        if text.contains(|c: char| c.is_whitespace() || c == '(' || c == '[') {
            return None;
        }
        // A static or class method of an imported class (`Posts.by_id`, `from app.db import
        // Posts`), exported as `Posts.by_id`; else a module's function.
        if let Some((class, method)) = text.split_once('.') {
            let at = f.start_byte() as u32;
            if class.starts_with(|c: char| c.is_ascii_uppercase()) && !method.contains('.') {
                let imp = self.imported_by_name(class, at)?;
                return Some(ImportRef {
                    module: imp.module,
                    export: format!("{}.{method}", imp.export),
                });
            }
        }
        self.imported_name(text, f.start_byte() as u32)
    }

    /// The read of the function `def` when it is a look-up (see [`HelperRead`]), with the name
    /// its operations are in: called at `call`, or from another module (no call, see
    /// [`crate::ir::Lookup`]).
    fn look_up_of(&self, def: Node<'t>, call: Option<Span>) -> Option<(String, Span)> {
        self.look_up_at(def, call, 0)
    }

    /// [`Self::look_up_of`], `depth` functions down a chain of delegations (see
    /// [`Self::delegated_look_up`]).
    fn look_up_at(
        &self,
        def: Node<'t>,
        call: Option<Span>,
        depth: usize,
    ) -> Option<(String, Span)> {
        let name = self.field(def, "name").map(|n| self.text(n).to_string())?;
        // A look-up, whose body is a few statements (a service's workflow that also reads is not
        // a query per item so much as work per item). A docstring is no statement.
        let short = self.field(def, "body").is_some_and(|b| {
            let body = self.named_children(b);
            let docstring = body.first().is_some_and(|s| {
                s.k() == "expression_statement"
                    && s.named_child_count() == 1
                    && s.named_child(0).is_some_and(|c| c.k() == "string")
            });
            body.len() - usize::from(docstring) <= 6
        });
        let params = self.parameter_names(def);
        let mut read = super::helper_lookup(&self.ir.operations, span(def), call, &name, &params);
        // A queryset the function returns or walks (`return Tag.objects(owner=o)`, `{t.key:
        // t.value for t in Tag.objects(..)}`: mist's tags) is filed at the file's end (see
        // `finish`); the reads of its body are those and its other operations.
        if read.is_none() && short {
            let def_span = span(def);
            let pending: Vec<Operation> = self
                .manager_reads
                .iter()
                .filter(|(id, op)| def_span.contains(op.span) && !self.queried_later.contains(id))
                .map(|(_, op)| op.clone())
                .collect();
            if !pending.is_empty() {
                let mut ops: Vec<Operation> = self
                    .ir
                    .operations
                    .iter()
                    .filter(|o| def_span.contains(o.span))
                    .cloned()
                    .collect();
                ops.extend(pending);
                ops.sort_by_key(|o| o.span.start);
                read = super::helper_lookup(&ops, def_span, call, &name, &params);
            }
        }
        if read.is_none() && short {
            return self
                .delegated_look_up(def, call, depth)
                .map(|read| (name, read));
        }
        let read = read.filter(|_| short)?;
        if self.cached_read(def, read) {
            return None;
        }
        let (ops, defs) = (&self.ir.operations, |c| self.helper_def(c));
        if super::more_than_a_look_up(&self.parents, self.src, def, read, &params, ops, defs) {
            return None;
        }
        Some((name, read))
    }

    /// The read of the look-up that the function `def`, which runs no operation of its own,
    /// hands its parameters to and returns (or walks) the result of: `def
    /// get_tags_for_resource(owner, r): return {t.key: t.value for t in
    /// get_tag_objects_for_resource(owner, r)}` over `def get_tag_objects_for_resource(owner,
    /// r): return Tag.objects(owner=owner, resource_id=r.id)` (mist's tags). One call of one
    /// function of the file, given a parameter; up to three delegations deep.
    fn delegated_look_up(&self, def: Node<'t>, call: Option<Span>, depth: usize) -> Option<Span> {
        if depth >= 3 {
            return None;
        }
        let def_span = span(def);
        let own_ops = self
            .ir
            .operations
            .iter()
            .map(|o| o.span)
            .chain(self.manager_reads.iter().map(|(_, o)| o.span))
            .any(|o| def_span.contains(o));
        if own_ops || call.is_some_and(|c| def_span.contains(c)) {
            return None;
        }
        let params = self.parameter_names(def);
        let mut inner = None;
        let mut calls = 0;
        self.parents.walk(def, |n, kind, enter| {
            if !enter || kind != "call" || calls > 1 {
                return;
            }
            if let Some(d) = self.helper_def(n).filter(|d| d.id() != def.id()) {
                calls += 1;
                let given = self.field(n, "arguments").is_some_and(|a| {
                    params
                        .iter()
                        .any(|p| super::has_identifier(self.text(a), p))
                });
                inner = (given && self.returned_from(n, def)).then_some(d);
            }
        });
        let inner = inner.filter(|_| calls == 1)?;
        self.look_up_at(inner, None, depth + 1)
            .map(|(_, read)| read)
    }

    /// Whether what the call `call` gives is what the function `def` returns: the call is in a
    /// `return` (`return {t.key: t.value for t in tags(o, r)}`), or bound to a name a `return`
    /// reads (`info = get_info(c)` .. `return info["lastModified"] if info else None`). Not a
    /// call whose result the function uses for other work (`publish(data,
    /// exchange=owner_exchange(owner))`).
    fn returned_from(&self, call: Node<'t>, def: Node<'t>) -> bool {
        let mut cur = call;
        let mut bound = None;
        while let Some(p) = self.parents.of(cur) {
            match p.k() {
                "return_statement" => return true,
                // (`board = await load_board(group_id)` in a coroutine, as without `await`.)
                "assignment" if bound.is_none() && matches!(cur.k(), "call" | "await") => {
                    bound = self
                        .field(p, "left")
                        .filter(|l| l.k() == "identifier")
                        .map(|l| self.text(l));
                    if bound.is_none() {
                        return false;
                    }
                }
                // `for n in get_notes(chat_id): names.append(n)` then `return names`: a copy of
                // what the call gives.
                "for_statement"
                    if bound.is_none() && self.field(p, "right").is_some_and(|r| r == cur) =>
                {
                    bound = self.appended_in(p);
                    if bound.is_none() {
                        return false;
                    }
                }
                "function_definition" | "lambda" | "class_definition" => break,
                _ => {}
            }
            cur = p;
        }
        let Some(name) = bound else {
            return false;
        };
        let mut read = false;
        self.parents.walk(def, |n, kind, enter| {
            read |=
                enter && kind == "return_statement" && super::has_identifier(self.text(n), name);
        });
        read
    }

    /// The list that the body of the loop `for_statement` appends to (`names.append(n)`), when it
    /// appends to one name only.
    fn appended_in(&self, for_statement: Node<'t>) -> Option<&'t str> {
        let mut names: Vec<&'t str> = Vec::new();
        self.parents
            .walk(self.field(for_statement, "body")?, |n, kind, enter| {
                if enter && kind == "call" {
                    let list = self
                        .field(n, "function")
                        .filter(|f| f.k() == "attribute")
                        .filter(|f| {
                            self.field(*f, "attribute").map(|a| self.text(a)) == Some("append")
                        })
                        .and_then(|f| self.field(f, "object"))
                        .filter(|o| o.k() == "identifier");
                    if let Some(o) = list {
                        names.push(self.text(o));
                    }
                }
            });
        names.dedup();
        match names[..] {
            [one] => Some(one),
            _ => None,
        }
    }

    /// The context of the call `call` of a look-up, in its loop, settled as an operation's is (a
    /// call sending the same arguments on every iteration repeats one query); `None` when the
    /// caller keeps what it gives, or makes the call once.
    fn settle_helper_call(
        &self,
        call: Node<'t>,
        mut ctx: OpContext,
        nested: &super::NestedLoops,
        changed_in: &mut HashMap<Span, Vec<String>>,
    ) -> Option<OpContext> {
        let l = ctx.enclosing_loop?;
        if super::cached_by_caller(&self.parents, self.src, call, l) {
            return None;
        }
        if self.keyed_once(call, l) || self.set_once(call, l) {
            return None;
        }
        // The names its arguments read (and its receiver's, `self`): none changes in the loop,
        // the same call on every iteration.
        let names = match self.field(call, "function").map(|f| f.k()) {
            Some("identifier") => self
                .field(call, "arguments")
                .and_then(|a| self.names_read(a)),
            _ => super::query_names(&self.parents, call, ("attribute", "call"), |p| {
                self.names_read(p)
            }),
        };
        if super::same_query_each_iteration(
            &self.parents,
            call,
            l,
            names,
            runs_in_place,
            changed_in,
            |looped| self.names_changed_in(looped),
        ) {
            let outer = self.varying_outer(call, l, nested, changed_in);
            super::settle_repeated_read(&mut ctx, outer);
        }
        Some(ctx)
    }

    /// The look-ups of the file that other modules may call (see [`crate::ir::Lookup`]): its
    /// module-level functions, and the static and class methods of its classes (`Users.by_id`),
    /// whose operations are one to three reads that vary with their parameters. A name that two
    /// such functions answer to is neither's.
    fn note_lookups(&mut self, root: Node<'t>) {
        let mut reads = super::lookup_reads(&self.ir.operations);
        // (With the querysets filed at the file's end: `return Tag.objects(owner=o)`.)
        reads.extend(
            self.manager_reads
                .iter()
                .filter(|(id, _)| !self.queried_later.contains(id))
                .map(|(_, op)| op.span),
        );
        if reads.is_empty() {
            return;
        }
        let reads_in = |n: Node<'t>| {
            let within = span(n);
            reads.iter().any(|r| within.contains(*r))
        };
        let definition = |n: Node<'t>| match n.k() {
            "decorated_definition" => self.field(n, "definition"),
            _ => Some(n),
        };
        // (name, definition)
        let mut defs: Vec<(String, Node<'t>)> = Vec::new();
        // Functions of the module that read nothing themselves, which may hand their
        // parameters to a look-up (see `delegated_look_up`).
        let mut wrappers: Vec<(String, Node<'t>)> = Vec::new();
        for stmt in self.parents.children(root) {
            if !reads_in(stmt) {
                if let Some(d) = definition(stmt).filter(|d| d.k() == "function_definition") {
                    if let Some(name) = self.field(d, "name").map(|n| self.text(n)) {
                        wrappers.push((name.to_string(), d));
                    }
                }
                continue;
            }
            let Some(d) = definition(stmt) else { continue };
            let Some(name) = self.field(d, "name").map(|n| self.text(n)) else {
                continue;
            };
            match d.k() {
                "function_definition" => defs.push((name.to_string(), d)),
                "class_definition" => {
                    let Some(body) = self.field(d, "body") else {
                        continue;
                    };
                    for member in self.parents.children(body) {
                        if member.k() != "decorated_definition" || !reads_in(member) {
                            continue;
                        }
                        let class_level = self
                            .parents
                            .children(member)
                            .any(|x| x.k() == "decorator" && is_class_level(self.text(x)));
                        let def = self
                            .field(member, "definition")
                            .filter(|m| m.k() == "function_definition");
                        let method = def.and_then(|m| self.field(m, "name"));
                        if let (true, Some(def), Some(method)) = (class_level, def, method) {
                            defs.push((format!("{name}.{}", self.text(method)), def));
                        }
                    }
                }
                _ => {}
            }
        }
        let mut lookups: Vec<crate::ir::Lookup> = Vec::new();
        for (name, def) in defs {
            if let Some((_, read)) = self.look_up_of(def, None) {
                lookups.push(crate::ir::Lookup { name, read });
            }
        }
        if !lookups.is_empty() {
            for (name, def) in wrappers {
                if let Some((_, read)) = self.look_up_of(def, None) {
                    lookups.push(crate::ir::Lookup { name, read });
                }
            }
        }
        self.ir.lookups = super::unique_lookups(lookups);
    }

    /// Whether the call `call`, in the loop `loop_span`, sends the same query on every iteration:
    /// it is a method call, and no name that its receiver, its arguments and the arguments of the
    /// calls chained onto it (`.skip(n)`, `.sort(..)`) read (`guid`, `self.guid`) changes in the
    /// loop. A name changes when the loop binds it (its own variable, `with .. as`),
    /// deletes it, changes it in place (`q["_id"] = ..`, `q.update(..)`, `ids.append(..)`,
    /// `n += 1`), or assigns it from something that changes (`prev = doc["ref"]`); a name the loop
    /// assigns from what does not change (`service = get_resource_service(ARCHIVE)`) does not.
    /// `guid = request.view_args["guid"]` then `for doc in docs: archive.find_one(req=None,
    /// _id=guid)`: one query repeated, not one per item.
    /// `cache` keeps [`Self::names_changed_in`] by loop: a loop holding many reads is walked once.
    fn same_each_iteration(
        &self,
        call: Node<'t>,
        loop_span: Span,
        cache: &mut HashMap<Span, Vec<String>>,
    ) -> bool {
        let kinds = ("attribute", "call");
        let names = super::query_names(&self.parents, call, kinds, |p| self.names_read(p));
        // The loop itself, through no function. (Changing one key, `doc["total"]`, does not
        // change another, `doc["customer_id"]`.)
        super::same_query_each_iteration(
            &self.parents,
            call,
            loop_span,
            names,
            runs_in_place,
            cache,
            |looped| self.names_changed_in(looped),
        )
    }

    /// The names that change in the loop `looped` (see [`Self::same_each_iteration`]).
    fn names_changed_in(&self, looped: Node<'t>) -> Vec<String> {
        // The paths a target changes: `q._id` in `q["_id"] = ..`, `a` and `b` in `a, b = ..`.
        let target_names = |t: Node<'t>, out: &mut Vec<String>| {
            out.extend(self.paths_in(t, false, &mut false));
        };
        // Names that change whatever they are given, and the names assigned plainly (`x = ..`)
        // with what each is given (`None`: something that runs code of its own).
        let mut changed: Vec<String> = Vec::new();
        let mut assigned: Vec<(String, Option<Vec<String>>)> = Vec::new();
        self.parents.walk(looped, |n, kind, enter| {
            if !enter {
                return;
            }
            match kind {
                "assignment" => {
                    let (Some(left), right) = (self.field(n, "left"), self.field(n, "right"))
                    else {
                        return;
                    };
                    match right {
                        Some(right) if left.k() == "identifier" => {
                            assigned.push((self.text(left).to_string(), self.names_read(right)))
                        }
                        _ => target_names(left, &mut changed),
                    }
                }
                "augmented_assignment" | "for_statement" | "for_in_clause" => {
                    if let Some(left) = self.field(n, "left") {
                        target_names(left, &mut changed);
                    }
                }
                "named_expression" => {
                    if let Some(name) = self.field(n, "name") {
                        target_names(name, &mut changed);
                    }
                }
                "as_pattern_target" | "delete_statement" | "global_statement"
                | "nonlocal_statement" => target_names(n, &mut changed),
                "call" => {
                    if let Some(f) = self.field(n, "function").filter(|f| f.k() == "attribute") {
                        let method = self.field(f, "attribute").map(|a| self.text(a));
                        if method.is_some_and(|m| MUTATORS.contains(&m)) {
                            // (Not `find(q).sort(..)`: a new cursor is sorted, not `q`.)
                            if let Some(obj) = self.field(f, "object").filter(|o| {
                                matches!(o.k(), "identifier" | "attribute" | "subscript")
                            }) {
                                target_names(obj, &mut changed);
                            }
                        }
                    }
                }
                _ => {}
            }
        });
        super::close_over_assignments(&mut changed, &assigned, |r, c| super::paths_overlap(r, c));
        changed
    }

    /// Whether a call in the loop `loop_span` fills a name that it is only called while empty:
    /// `if not item: item = coll.find_one(..)` (or `if item is None:`), `item` bound nowhere else
    /// in the loop. The first iteration that gets a document keeps it, so the call runs until
    /// then, not once per item: a lookup made lazily, not a join.
    fn set_once(&self, call: Node<'t>, loop_span: Span) -> bool {
        let mut value = call;
        let mut parent = self.parents.of(call);
        if let Some(p) = parent.filter(|p| p.k() == "await") {
            value = p;
            parent = self.parents.of(p);
        }
        let Some(assign) =
            parent.filter(|p| p.k() == "assignment" && self.field(*p, "right") == Some(value))
        else {
            return false;
        };
        let Some(name) = self.field(assign, "left").filter(|l| l.k() == "identifier") else {
            return false;
        };
        let name = self.text(name);
        let statement = self
            .parents
            .of(assign)
            .filter(|s| s.k() == "expression_statement");
        let block = statement
            .and_then(|s| self.parents.of(s))
            .filter(|b| b.k() == "block");
        let Some(guard) = block
            .and_then(|b| self.parents.of(b).map(|i| (b, i)))
            .filter(|(b, i)| i.k() == "if_statement" && self.field(*i, "consequence") == Some(*b))
            .map(|(_, i)| i)
        else {
            return false;
        };
        let Some(cond) = self.field(guard, "condition") else {
            return false;
        };
        let empty_test = match cond.k() {
            // `if not item:`
            "not_operator" => self
                .field(cond, "argument")
                .is_some_and(|a| a.k() == "identifier" && self.text(a) == name),
            // `if item is None:`, `if item == None:`
            "comparison_operator" => {
                let text: String = self
                    .text(cond)
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ");
                text == format!("{name} is None") || text == format!("{name} == None")
            }
            _ => false,
        };
        // The loop binds the name here only: not its own variable, not reset per iteration.
        empty_test
            && self.bindings.get(name).is_some_and(|list| {
                list.iter()
                    .filter(|b| loop_span.start <= b.pos && b.pos <= loop_span.end)
                    .count()
                    == 1
            })
    }

    /// Whether a call in the loop `loop_span` runs for one key of the items at most: it is under
    /// `if key == "spatial-text":` (or `elif`), where `key` is the key of a dictionary's items
    /// (`for key, value in extras.items()`) or each item's `"key"` (`key = extra["key"]`,
    /// `extra.get("key")`, `extra.key`, in `for extra in data["extras"]`): one item's, since a
    /// key names one entry.
    fn keyed_once(&self, call: Node<'t>, loop_span: Span) -> bool {
        let mut keys: Vec<&'t str> = Vec::new();
        let mut prev = call;
        let mut cur = self.parents.of(call);
        let mut for_node = None;
        while let Some(n) = cur {
            if span(n) == loop_span {
                for_node = Some(n);
                break;
            }
            if matches!(n.k(), "function_definition" | "lambda") {
                return false;
            }
            if matches!(n.k(), "if_statement" | "elif_clause")
                && self.field(n, "consequence") == Some(prev)
            {
                if let Some(k) = self
                    .field(n, "condition")
                    .and_then(|c| self.compared_to_string(c))
                {
                    keys.push(k);
                }
            }
            prev = n;
            cur = self.parents.of(n);
        }
        let Some(for_node) = for_node.filter(|f| f.k() == "for_statement") else {
            return false;
        };
        let (Some(left), Some(right)) =
            (self.field(for_node, "left"), self.field(for_node, "right"))
        else {
            return false;
        };
        keys.iter().any(|&key| {
            // `for key, value in d.items()`.
            if matches!(left.k(), "pattern_list" | "tuple_pattern") {
                let first = self.named_children(left).into_iter().next();
                let items = right.k() == "call"
                    && self
                        .field(right, "function")
                        .and_then(|f| self.field(f, "attribute"))
                        .is_some_and(|a| self.text(a) == "items");
                return items && first.is_some_and(|f| self.text(f) == key);
            }
            // `for extra in extras: key = extra["key"]`.
            if left.k() != "identifier" {
                return false;
            }
            let item = self.text(left);
            let of_item = |v: Node<'t>| {
                let text = self.text(v).replace('\'', "\"");
                text == format!("{item}[\"key\"]")
                    || text == format!("{item}.get(\"key\")")
                    || text == format!("{item}.key")
            };
            self.bindings.get(key).is_some_and(|list| {
                list.iter().any(|b| {
                    loop_span.start <= b.pos
                        && b.pos <= loop_span.end
                        && b.value.is_some_and(of_item)
                })
            })
        })
    }

    /// `name == "literal"` (either way round): `name`.
    fn compared_to_string(&self, cond: Node<'t>) -> Option<&'t str> {
        if cond.k() != "comparison_operator" {
            return None;
        }
        let [a, b] = self.named_children(cond)[..] else {
            return None;
        };
        let between = self.src.get(a.end_byte()..b.start_byte())?;
        if between.trim() != "==" {
            return None;
        }
        match (a.k(), b.k()) {
            ("identifier", "string") => Some(self.text(a)),
            ("string", "identifier") => Some(self.text(b)),
            _ => None,
        }
    }

    fn collect_operations(&mut self, root: Node<'t>) {
        let mut calls: Vec<(Node<'t>, OpContext)> = Vec::new();
        let mut named_refs: Vec<Node<'t>> = Vec::new();
        let mut slices: Vec<(Node<'t>, OpContext)> = Vec::new();
        let mut loops: Vec<(Span, Option<LoopOver>)> = Vec::new();
        let mut nested = super::NestedLoops::default();
        let mut functions: Vec<(String, bool)> = Vec::new();
        let file_periodic = self.file_periodic;
        let flags = kinds::FLAGS.table();
        self.parents
            .clone()
            .walk_flagged(root, flags, |n, f, enter| {
                let is_loop = f & kinds::LOOP != 0;
                if enter {
                    if is_loop {
                        loops.push((span(n), self.loop_over(n)));
                    }
                    if f & kinds::CLASS != 0 {
                        let name = self.field(n, "name").map(|x| self.text(x)).unwrap_or("");
                        let inherited = functions.last().is_some_and(|f| f.1);
                        let scheduled = self.scheduled.iter().any(|s| s == name);
                        functions.push((String::new(), inherited || scheduled));
                    }
                    if f & kinds::FUNCTION != 0 {
                        let name = self
                            .field(n, "name")
                            .map(|x| self.text(x).to_string())
                            .unwrap_or_default();
                        let inherited = functions.last().is_some_and(|f| f.1);
                        let periodic = inherited || self.function_is_periodic(n, &name);
                        functions.push((name, periodic));
                    }
                    if f & kinds::CALL != 0 {
                        let mut c = super::op_context(&loops, &functions, file_periodic, span(n));
                        c.exits_loop = c.enclosing_loop.is_some_and(|l| {
                            super::exits_loop_after(
                                &self.parents,
                                self.src,
                                n,
                                l,
                                "block",
                                // (Flask's `abort(401)` raises.)
                                &[
                                    "break_statement",
                                    "return_statement",
                                    "raise_statement",
                                    "abort(",
                                ],
                                |k| matches!(k, "function_definition" | "lambda"),
                                |k| matches!(k, "for_statement" | "while_statement"),
                            )
                        });
                        if loops.len() > 1 {
                            nested.insert(
                                (n.start_byte() as u32, n.end_byte() as u32),
                                loops.clone(),
                            );
                        }
                        calls.push((n, c));
                    }
                    if f & kinds::NAMED_REF != 0 {
                        named_refs.push(n);
                        if self.slices_a_name(n) {
                            let c = super::op_context(&loops, &functions, file_periodic, span(n));
                            slices.push((n, c));
                        }
                    }
                } else {
                    if is_loop {
                        loops.pop();
                    }
                    if f & (kinds::FUNCTION | kinds::CLASS) != 0 {
                        functions.pop();
                    }
                }
            });
        // Bulk and index model targets first, so that each model knows its collection.
        for (call, _) in &calls {
            self.note_model_targets(*call);
        }
        // The calls in loops, to read their conditions once they are operations (`keyed_once`).
        let in_loops = super::calls_in_loops(&calls);
        // Calls in loops of a function of this file: a read in its body runs per iteration.
        let helper_calls: Vec<(Node<'t>, Node<'t>, OpContext)> = calls
            .iter()
            .filter(|(_, c)| c.enclosing_loop.is_some() && !c.exits_loop && !c.periodic)
            .filter_map(|(call, c)| Some((*call, self.helper_def(*call)?, c.clone())))
            .collect();
        // Calls in loops of a function imported from another module: a look-up there, if the
        // linker finds one (see `ImportedCall`).
        let imported_calls: Vec<(Node<'t>, ImportRef, OpContext)> = calls
            .iter()
            .filter(|(_, c)| c.enclosing_loop.is_some() && !c.exits_loop && !c.periodic)
            .filter(|(call, _)| !helper_calls.iter().any(|h| h.0 == *call))
            .filter_map(|(call, c)| Some((*call, self.imported_callee(*call)?, c.clone())))
            .collect();
        // Calls of functions of this file (by name, or a method through `self` or `cls`): what
        // such a function runs with an update a parameter is what the call gives it.
        let local_calls: Vec<(Node<'t>, OpContext)> = calls
            .iter()
            .filter(|(call, _)| {
                self.field(*call, "function").is_some_and(|f| {
                    let name = match f.k() {
                        "identifier" => self.text(f),
                        "attribute" => self.field(f, "attribute").map_or("", |a| self.text(a)),
                        _ => "",
                    };
                    !name.is_empty() && self.functions.contains_key(name)
                })
            })
            .map(|(call, c)| (*call, c.clone()))
            .collect();
        let before = self.ir.operations.len();
        for (call, ctx) in calls {
            self.visit_call(call, ctx);
        }
        let mut changed_in = HashMap::default();
        for i in before..self.ir.operations.len() {
            let op = &self.ir.operations[i];
            let Some(&call) = in_loops.get(&(op.span.start, op.span.end)) else {
                continue;
            };
            // A collection named in the loop by what does not change there (`db[User.__collection__]`).
            if let Some(name) = super::loop_invariant_name_candidate(op, call) {
                let l = op.context.enclosing_loop.unwrap_or_default();
                let names = self.names_read(name);
                if super::same_query_each_iteration(
                    &self.parents,
                    call,
                    l,
                    names,
                    runs_in_place,
                    &mut changed_in,
                    |looped| self.names_changed_in(looped),
                ) {
                    self.ir.operations[i].context.name_fixed_in_loop = true;
                }
            }
            let op = &self.ir.operations[i];
            let (Some(l), false) = (op.context.enclosing_loop, op.context.exits_loop) else {
                continue;
            };
            if self.keyed_once(call, l) || self.set_once(call, l) {
                self.ir.operations[i].context.exits_loop = true;
            } else if (self.ir.operations[i].kind.is_read()
                || self.ir.operations[i].idempotent_write())
                && self.same_each_iteration(call, l, &mut changed_in)
            {
                // Repeated on each item of a loop around its own: a read per item of that one.
                let outer = self.varying_outer(call, l, &nested, &mut changed_in);
                super::settle_repeated_read(&mut self.ir.operations[i].context, outer);
            }
        }
        for (call, def, ctx) in helper_calls {
            self.note_helper_read(call, def, ctx, &nested, &mut changed_in);
        }
        for (call, import, ctx) in imported_calls {
            self.note_imported_call(call, import, ctx, &nested, &mut changed_in);
        }
        self.operations_through_calls(before, local_calls);
        for (sub, ctx) in slices {
            self.sliced_queryset(sub, ctx);
        }
        // A chain `a.b.c.d` is a reference at every level, and a level's object is the level below
        // it, classified again when that level's own turn comes; and the references of a function
        // reach the same bindings: `classify_memo` answers each (node, depth) once.
        *self.classify_memo.borrow_mut() = Some(HashMap::default());
        let classified = |x: Node<'t>| self.classify(x, 0);
        let mut found = Vec::new();
        for n in named_refs {
            // Only naming sites: `db.orders`, `db["orders"]`, `client.shop.orders`.
            let obj = if n.k() == "attribute" {
                self.field(n, "object")
            } else {
                self.field(n, "value")
            };
            let Some(obj) = obj else { continue };
            // `db.resolve_model(x)`: a database's member that is called is a method (pymongo's
            // collections are not callable), of the application's own database class.
            let called = n.k() == "attribute"
                && self
                    .parents
                    .of(n)
                    .is_some_and(|p| p.k() == "call" && self.field(p, "function") == Some(n));
            // `if db.is_alive:`: pymongo's databases and collections refuse truth testing
            // (`bool()` raises), so a member tested for truth is an attribute of something else.
            let named = match classified(obj) {
                Thing::Db | Thing::Collection(_) => true,
                // A name bound to what a function of another module returns (`db =
                // conf.getMongoConnection()`, see `Thing::CallResult`), not any call's result
                // (`uuid.uuid4().hex`).
                Thing::CallResult(_) => obj.k() == "identifier",
                _ => false,
            };
            // `db.fs` of `db.fs.files.find_one(..)`: the prefix of a sub-collection's name
            // (GridFS's `fs.files`), not a collection the code uses.
            let prefix = || {
                self.parents.of(n).is_some_and(|p| {
                    p.k() == "attribute"
                        && self.field(p, "object") == Some(n)
                        && !self.parents.of(p).is_some_and(|c| {
                            c.k() == "call" && self.field(c, "function") == Some(p)
                        })
                        && matches!(classified(p), Thing::Collection(_))
                })
            };
            if named && !called && !self.truth_tested(n) {
                if let Thing::Collection(r) = classified(n) {
                    if !prefix() {
                        found.push(r);
                    }
                }
            }
        }
        *self.classify_memo.borrow_mut() = None;
        self.ir.collections.extend(found);
        self.document_indexes();
    }

    /// `db.command({"createIndexes": "users", "indexes": [..]})`, or pymongo's spelling
    /// `db.command("createIndexes", "users", indexes=[..])`: see [`super::index_command_operations`].
    fn index_command(&self, call: Node<'t>, attr: Node<'t>, ctx: &OpContext) -> Vec<Operation> {
        let args = self.call_args(call);
        let Some(first) = args.positional.first() else {
            return Vec::new();
        };
        let command = match self.lower(*first, 0) {
            v @ Value {
                kind: ValueKind::Document(_),
                ..
            } => v,
            Value {
                kind: ValueKind::String(cmd),
                span: key_span,
            } => {
                let Some(value) = args.positional.get(1).map(|v| self.lower(*v, 0)) else {
                    return Vec::new();
                };
                let mut fields = vec![Field {
                    key: cmd,
                    key_span,
                    value,
                }];
                for (k, v) in &args.keywords {
                    fields.push(Field {
                        key: self.text(*k).to_string(),
                        key_span: span(*k),
                        value: self.lower(*v, 0),
                    });
                }
                Value {
                    span: span(call),
                    kind: ValueKind::Document(fields),
                }
            }
            _ => return Vec::new(),
        };
        super::index_command_operations(&command, span(call), "command", span(attr), ctx)
    }

    /// Whether `n`'s value is only tested for truth: the condition of an `if`/`elif`/`while`, the
    /// operand of `not`, `and`, `or`.
    fn truth_tested(&self, n: Node<'t>) -> bool {
        let Some(p) = self.parents.of(n) else {
            return false;
        };
        match p.k() {
            "not_operator" | "boolean_operator" => true,
            "if_statement" | "elif_clause" | "while_statement" => {
                self.field(p, "condition") == Some(n)
            }
            _ => false,
        }
    }

    /// For `coll.bulk_write([...])` and `coll.create_indexes([...])`, remember which collection
    /// each request model / index model in the list goes to.
    fn note_model_targets(&mut self, call: Node<'t>) {
        let Some(f) = self
            .field(call, "function")
            .filter(|f| f.k() == "attribute")
        else {
            return;
        };
        let (Some(obj), Some(attr)) = (self.field(f, "object"), self.field(f, "attribute")) else {
            return;
        };
        let method = self.text(attr);
        if method != "bulk_write" && method != "create_indexes" {
            return;
        }
        let args = self.call_args(call);
        let Some(list) = self.arg(&args, 0, &["requests", "indexes"]) else {
            return;
        };
        let (coll, ev) = match self.classify(obj, 0) {
            Thing::Collection(r) if r.import.is_some() => (Some(r), Evidence::Shaped),
            Thing::Collection(r) => (Some(r), Evidence::Resolved),
            Thing::Imported(imp, local) => (
                Some(CollectionRef {
                    name: CollectionName::Unknown { text: local },
                    span: span(obj),
                    via: CollectionVia::Driver,
                    import: Some(imp),
                }),
                Evidence::Shaped,
            ),
            _ => (None, Evidence::Shaped),
        };
        for m in self.model_calls(list, 0) {
            if method == "bulk_write" {
                self.bulk_targets.insert(m.id(), (coll.clone(), ev));
            } else {
                self.index_targets.insert(m.id(), (coll.clone(), ev));
            }
        }
    }

    /// The model calls of a request list: a literal, a comprehension, or a variable appended to.
    fn model_calls(&self, n: Node<'t>, depth: usize) -> Vec<Node<'t>> {
        let mut out = Vec::new();
        if depth > 8 {
            return out;
        }
        let n = self.unwrap_expr(n);
        match n.k() {
            "list" | "tuple" => {
                for c in self.named_children(n) {
                    out.extend(self.model_calls(c, depth + 1));
                }
            }
            "list_comprehension" | "generator_expression" => {
                if let Some(b) = self.field(n, "body") {
                    out.extend(self.model_calls(b, depth + 1));
                }
            }
            "call" => out.push(n),
            "identifier" => {
                let name = self.text(n);
                if let Some(b) = self.lookup(name, n.start_byte() as u32) {
                    if let Some(v) = b.value {
                        out.extend(self.model_calls(v, depth + 1));
                    }
                    if let Some(ps) = self.appends.get(name) {
                        for (pos, _, arg) in ps {
                            if *pos > b.pos
                                && b.scope.contains(Span::new(*pos as usize, *pos as usize))
                            {
                                out.extend(self.model_calls(*arg, depth + 1));
                            }
                        }
                    }
                }
            }
            _ => {}
        }
        out
    }

    fn visit_call(&mut self, call: Node<'t>, ctx: OpContext) {
        let Some(f) = self.field(call, "function") else {
            return;
        };
        let ftext = self.text(f);
        let last = last_segment(ftext);
        if PY_BULK_MODELS.contains(&last) && matches!(f.k(), "identifier" | "attribute") {
            self.bulk_model(call, f, last, ctx);
            return;
        }
        if last == PY_INDEX_MODEL && matches!(f.k(), "identifier" | "attribute") {
            self.index_model(call, f, ctx);
            return;
        }
        if f.k() == "identifier" {
            if ftext == "getattr" {
                if let Thing::Collection(r) = self.classify_call(call, 0) {
                    self.ir.collections.push(r);
                }
            } else if ftext.to_ascii_lowercase().contains("index")
                && self.functions.contains_key(ftext)
            {
                self.index_helper_calls.push((call, ctx));
            } else {
                self.wrapper_call(call, f, ctx);
            }
            return;
        }
        if f.k() != "attribute" {
            return;
        }
        let (Some(obj), Some(attr)) = (self.field(f, "object"), self.field(f, "attribute")) else {
            return;
        };
        let method = self.text(attr);
        if method == "command" {
            let ops = self.index_command(call, attr, &ctx);
            if !ops.is_empty() {
                self.ir.operations.extend(ops);
                return;
            }
        }
        if method == "get_collection" || method == "collection" {
            if let Thing::Collection(r) = self.classify_call(call, 0) {
                self.ir.collections.push(r);
            }
            return;
        }
        if method == "objects" {
            self.called_manager(call, ctx);
            return;
        }
        // `Post.objects.get(id=i)`, `Post.objects.first()`: a read (or a delete) on the manager
        // itself. After `objects(..)` or a modifier, the chain's first call reads it.
        // `qs.first()`, `qs.delete()` on a bound queryset.
        if queryset_terminal(method).is_some() {
            if self.is_manager(obj) {
                if let Thing::QuerySet(r, ev) = self.classify(obj, 0) {
                    self.queryset_read(obj, r, ev, false, ctx);
                }
                return;
            }
            let recv = self.unwrap_expr(obj);
            if recv.k() == "identifier" {
                if let Thing::QuerySet(r, ev) = self.classify(recv, 0) {
                    self.note_queried(recv);
                    self.queryset_read(recv, r, ev, false, ctx);
                    return;
                }
            }
        }
        if method == "save" && obj.k() == "identifier" && !self.bumps.is_empty() {
            self.saved_counters(call, obj, &ctx);
        }
        if matches!(method, "append" | "insert" | "extend")
            && obj.k() == "attribute"
            && !self.saves.is_empty()
        {
            self.document_list_append(call, obj, method, ctx);
            return;
        }
        let is_modifier = PY_MODIFIERS.contains(&method) || PY_QUERYSET_METHODS.contains(&method);
        if is_modifier {
            self.modifier_chain(call, obj, ctx);
            return;
        }
        if method == "delete" {
            let known_document = matches!(
                self.classify(self.unwrap_expr(obj), 0),
                Thing::LoadedDoc(_, ev) if ev != Evidence::None
            );
            if known_document && self.call_args(call).positional.is_empty() {
                self.operation(call, obj, attr, &PY_DOCUMENT_DELETE, ctx);
            }
            return;
        }
        self.class_wrapper_call(call, obj, method, &ctx);
        // beanie's `User.get(id)` (a `find_one` by `_id`), `User.find_all()`, `find_many(..)`.
        let beanie_alias = match method {
            "get" => Some("find_one"),
            "find_all" | "find_many" => Some("find"),
            _ => None,
        }
        .filter(|_| self.uses_beanie && matches!(self.classify(obj, 0), Thing::Model(..)));
        let Some(m) = py_operation(beanie_alias.unwrap_or(method)) else {
            return;
        };
        if method == "create_index" {
            let args = self.call_args(call);
            // (And `for f in ("state", "name"): coll.create_index(f)`: see
            // `expand_index_tables`.)
            if args.splat
                || args
                    .positional
                    .first()
                    .is_some_and(|a| a.k() == "identifier")
            {
                self.index_table_calls.push(call);
            }
            // pymongo's and motor's `create_index(keys, **kwargs)` take one positional argument:
            // a second is another library's (Elasticsearch's `es.create_index('localities',
            // settings)`, MozDef's), no MongoDB index.
            if args.positional.len() > 1 {
                return;
            }
        }
        if matches!(m.kind, OpKind::CreateIndex | OpKind::DropIndex)
            && self.own_index_call(call, obj)
        {
            return;
        }
        self.operation(call, obj, attr, m, ctx);
    }

    /// mongoengine's `doc.arr.append(x)` (or `insert(i, x)`, `extend(xs)`) on a document the
    /// function loaded, then `doc.save()` in the same scope (NewsBlur's `shared_story.replies
    /// .append(reply); shared_story.save()`): the save writes the grown list, as Mongoose's `doc
    /// .arr.push(x); doc.save()` sends a `$push` (the JavaScript frontend's
    /// `document_array_push`). Read as that `$push` on the document's collection, by `_id`.
    fn document_list_append(
        &mut self,
        call: Node<'t>,
        obj: Node<'t>,
        method: &str,
        ctx: OpContext,
    ) {
        let (Some(mut doc), Some(field)) =
            (self.field(obj, "object"), self.field(obj, "attribute"))
        else {
            return;
        };
        // A list of an embedded document (`profile.settings.tags.append(t)`): the document is
        // the chain's start, the list its dotted path.
        let mut path_start = field.start_byte();
        let mut path = vec![self.text(field)];
        for _ in 0..8 {
            if doc.k() != "attribute" {
                break;
            }
            let (Some(o), Some(a)) = (self.field(doc, "object"), self.field(doc, "attribute"))
            else {
                return;
            };
            path_start = a.start_byte();
            path.push(self.text(a));
            doc = o;
        }
        path.reverse();
        if doc.k() != "identifier" {
            return;
        }
        let doc_name = self.text(doc);
        // (`self` in a method of a document class is the document the method was called on:
        // NewsBlur's `self.following_user_ids.append(user_id); self.save()`.)
        let Some((coll, evidence, scope)) = self.saved_doc(doc) else {
            return;
        };
        let at = call.start_byte() as u32;
        let saved = self.saves.iter().any(|&(n, pos)| {
            n == doc_name && pos > at && scope.contains(Span::new(pos as usize, pos as usize))
        });
        if saved && self.list_cut(call, self.text(obj)) {
            return;
        }
        // A model imported from another module: the linker resolves it (and drops it if it is
        // no document).
        let coll = Some(coll);
        if (evidence == Evidence::None && !super::imported(&coll)) || !saved {
            return;
        }
        let args = self.call_args(call);
        let arg = match method {
            "insert" => args.positional.get(1),
            _ => args.positional.first(),
        };
        let sp = span(call);
        let mut pushed = arg
            .map(|a| self.lower(*a, 0))
            .unwrap_or_else(|| Value::unknown(sp, "", false));
        if method == "extend" {
            pushed = Value {
                span: pushed.span,
                kind: ValueKind::Document(vec![Field {
                    key: "$each".into(),
                    key_span: pushed.span,
                    value: pushed,
                }]),
            };
        }
        let attr = self.field(self.field(call, "function").unwrap_or(call), "attribute");
        let key_span = attr.map_or(sp, span);
        let mut op = super::saved_push(
            (method, sp, key_span),
            "$push",
            (path.join("."), Span::new(path_start, field.end_byte())),
            pushed,
            (span(doc), &format!("{doc_name}.id")),
        );
        op.collection = coll;
        op.evidence = evidence;
        op.context = ctx;
        op.context.size_guards = self.size_guards(&[call]);
        // `if machine not in volume.attached_to: volume.attached_to.append(machine)`.
        op.context.absent_checks = self.pushed_absent(call, op.update.as_ref());
        op.receiver = doc_name.to_string();
        self.ir.operations.push(op);
    }

    /// The document that the name `doc`, the receiver of a save, holds: one the function loaded
    /// (or makes where there is none), or `self` in a method of a document class; with its
    /// collection, the evidence, and the scope the name holds it in.
    fn saved_doc(&self, doc: Node<'t>) -> Option<(CollectionRef, Evidence, Span)> {
        let doc_name = self.text(doc);
        let thing = match doc_name {
            "self" => self.own_document(doc),
            _ => self.classify(doc, 0),
        };
        let Thing::LoadedDoc(coll, evidence) = thing else {
            return None;
        };
        let scope = self.lookup(doc_name, doc.start_byte() as u32)?.scope;
        Some((coll, evidence, scope))
    }

    /// mongoengine's counter idiom, `feed.premium_subscribers += 1; feed.save()` (NewsBlur's
    /// subscriptions) or `self.count -= 1; self.save()` in a document's method: the save sends
    /// the field's new value, a counter bumped per event like an `$inc` (and one that loses the
    /// increments of concurrent events), as Mongoose's (the JavaScript frontend's
    /// `saved_counters`). Each of the document's fields counted by a literal step before the
    /// save `call`, in the document's scope, with no save between, is an `$inc` of it saved there.
    fn saved_counters(&mut self, call: Node<'t>, doc: Node<'t>, ctx: &OpContext) {
        let doc_name = self.text(doc);
        let at = call.start_byte() as u32;
        let bumps: Vec<(Node<'t>, Node<'t>, f64)> = self
            .bumps
            .iter()
            .filter(|(n, attr, _)| {
                (n.start_byte() as u32) < at
                    && self
                        .field(*attr, "object")
                        .is_some_and(|o| self.text(o) == doc_name)
            })
            .copied()
            .collect();
        if bumps.is_empty() {
            return;
        }
        let Some((coll, evidence, scope)) = self.saved_doc(doc) else {
            return;
        };
        let coll = Some(coll);
        if evidence == Evidence::None && !super::imported(&coll) {
            return;
        }
        for (n, attr, step) in bumps {
            let from = n.start_byte() as u32;
            let saved_between = self
                .saves
                .iter()
                .any(|&(name, pos)| name == doc_name && pos > from && pos < at);
            let Some(field) = self.field(attr, "attribute") else {
                continue;
            };
            if saved_between || !scope.contains(span(n)) {
                continue;
            }
            let mut op = super::saved_inc(
                span(n),
                (self.text(field).to_string(), span(field)),
                step,
                (span(doc), &format!("{doc_name}.id")),
            );
            op.collection = coll.clone();
            op.evidence = evidence;
            op.context = ctx.clone();
            op.receiver = doc_name.to_string();
            self.ir.operations.push(op);
        }
    }

    /// Whether the list `list` (`self.story_email_history`) is cut to a slice of itself in the
    /// function around `at`, `list = list[:n]`, or a part of it deleted, `del list[n:]`
    /// (NewsBlur's `save_sent_email`: the history is kept to its last `max_quota` entries); or
    /// set anew to a list literal before `at`, in a block around it (crits' `idb_action
    /// .preferred = []`, then a loop that fills it).
    fn list_cut(&self, at: Node<'t>, list: &str) -> bool {
        let root = self.function_around(at).unwrap_or(self.parents.root());
        let at = at.start_byte();
        // `action.preferred = []` in a block around the append, before it (not `if not
        // doc.tags: doc.tags = []`): the save writes the list the function builds.
        let reset = |n: Node<'t>| {
            n.start_byte() < at
                && self
                    .parents
                    .of(n)
                    .filter(|s| s.k() == "expression_statement")
                    .and_then(|s| self.parents.of(s))
                    .is_some_and(|b| {
                        matches!(b.k(), "block" | "module")
                            && b.start_byte() <= at
                            && at < b.end_byte()
                    })
        };
        let sliced = |n: Node<'t>| {
            n.k() == "subscript"
                && self.field(n, "value").is_some_and(|v| self.text(v) == list)
                && self.field(n, "subscript").is_some_and(|s| s.k() == "slice")
        };
        let mut found = false;
        self.parents.walk(root, |n, kind, enter| {
            if !enter || found {
                return;
            }
            found = match kind {
                "assignment" => {
                    self.field(n, "left").is_some_and(|l| self.text(l) == list)
                        && self
                            .field(n, "right")
                            .is_some_and(|r| sliced(r) || (r.k() == "list" && reset(n)))
                }
                "delete_statement" => self.named_children(n).into_iter().any(sliced),
                _ => false,
            };
        });
        found
    }

    /// Modifier calls chained upward from `start`: `start.sort(..).skip(..)`, and slices `qs[a:b]`.
    fn collect_chain(&self, start: Node<'t>, queryset: bool) -> (Vec<Modifier>, Node<'t>) {
        let mut mods = Vec::new();
        let mut cur = start;
        for _ in 0..64 {
            let Some(parent) = self.parents.of(cur) else {
                break;
            };
            if parent.k() == "parenthesized_expression" || parent.k() == "await" {
                cur = parent;
                continue;
            }
            if queryset
                && parent.k() == "subscript"
                && self.field(parent, "value").map(|v| v.id()) == Some(cur.id())
            {
                if let Some(sl) = self.field(parent, "subscript").filter(|s| s.k() == "slice") {
                    // `qs[offset:offset + n]` is skip + limit.
                    let first = sl.child(0).filter(|c| c.k() != ":");
                    if let Some(start_expr) = first {
                        mods.push(Modifier {
                            name: "skip".into(),
                            args: vec![self.lower(start_expr, 0)],
                            span: span(sl),
                        });
                    }
                }
                cur = parent;
                continue;
            }
            let Some((attr, call)) = self.method_call_on(cur) else {
                break;
            };
            let name = self.text(attr);
            // flask-mongoengine's `qs.paginate(page=page, per_page=n)` slices the queryset at
            // `(page - 1) * per_page`: a skip, and the end of the chain (it returns a page).
            if queryset && name == "paginate" {
                if let Some(page) = self.page_argument(call, 0) {
                    mods.push(Modifier {
                        name: "page".into(),
                        args: vec![self.lower(page, 0)],
                        span: Span::new(attr.start_byte(), call.end_byte()),
                    });
                }
                cur = call;
                break;
            }
            let known =
                PY_MODIFIERS.contains(&name) || (queryset && PY_QUERYSET_METHODS.contains(&name));
            if !known {
                break;
            }
            let args = self.call_args(call);
            let canonical = match name {
                "order_by" => "sort",
                "only" => "projection",
                other => other,
            };
            mods.push(Modifier {
                name: canonical.to_string(),
                args: args.positional.iter().map(|a| self.lower(*a, 0)).collect(),
                span: Span::new(attr.start_byte(), call.end_byte()),
            });
            cur = call;
        }
        // `Pagination(qs, page, per_page)`, flask-mongoengine's page of a queryset, or of a name
        // bound to it in the function (`articles = Article.objects(..); return
        // Pagination(articles, page, per_page)`: scieloorg/opac).
        if queryset && self.src.contains("Pagination(") {
            if let Some(call) = self.paginated_by(cur) {
                if let Some(page) = self.page_argument(call, 1) {
                    mods.push(Modifier {
                        name: "page".into(),
                        args: vec![self.lower(page, 0)],
                        span: span(call),
                    });
                }
            }
        }
        (mods, cur)
    }

    /// The `Pagination(qs, ..)` call whose first argument is the queryset `qs`, written there or
    /// bound to a name of the function that the call is given.
    fn paginated_by(&self, qs: Node<'t>) -> Option<Node<'t>> {
        let is_pagination = |c: Node<'t>| {
            c.k() == "call"
                && self.field(c, "function").is_some_and(|f| {
                    let t = self.text(f);
                    t == "Pagination" || t.ends_with(".Pagination")
                })
        };
        let first_arg = |c: Node<'t>| self.call_args(c).positional.first().copied();
        let parent = self.parents.of(qs)?;
        if parent.k() == "argument_list" {
            let call = self.parents.of(parent).filter(|c| is_pagination(*c))?;
            return (first_arg(call).map(|a| a.id()) == Some(qs.id())).then_some(call);
        }
        if parent.k() != "assignment" {
            return None;
        }
        let name = self
            .field(parent, "left")
            .filter(|l| l.k() == "identifier")?;
        let func = self.function_around(parent);
        let mut found = None;
        self.parents.walk(func?, |c, _, enter| {
            if enter && found.is_none() && is_pagination(c) {
                if let Some(a) = first_arg(c)
                    .filter(|a| a.k() == "identifier" && self.text(*a) == self.text(name))
                {
                    if self.bound_value(a).map(|v| v.id()) == Some(qs.id()) {
                        found = Some(c);
                    }
                }
            }
        });
        found
    }

    /// The page a paginating call is given: its `page=` keyword, or its positional argument
    /// `at` (`qs.paginate(page, per_page)`, `Pagination(qs, page, per_page)`).
    fn page_argument(&self, call: Node<'t>, at: usize) -> Option<Node<'t>> {
        let args = self.call_args(call);
        args.keywords
            .iter()
            .find(|(k, _)| self.text(*k) == "page")
            .map(|(_, v)| *v)
            .or_else(|| args.positional.get(at).copied())
    }

    /// The receiver at the bottom of a chain of modifier calls: `q.sort(..).skip(..)` → `q`.
    fn chain_root(&self, mut n: Node<'t>) -> Node<'t> {
        for _ in 0..MAX_DEPTH {
            let u = self.unwrap_expr(n);
            if u.k() != "call" {
                return u;
            }
            let Some(f) = self.field(u, "function").filter(|f| f.k() == "attribute") else {
                return u;
            };
            let method = self
                .field(f, "attribute")
                .map(|p| self.text(p))
                .unwrap_or("");
            if !PY_MODIFIERS.contains(&method) && !PY_QUERYSET_METHODS.contains(&method) {
                return u;
            }
            match self.field(f, "object") {
                Some(o) => n = o,
                None => return u,
            }
        }
        n
    }

    /// `cursor.skip(n)` where `cursor = coll.find(..)` (possibly through `cursor = cursor.sort(..)`):
    /// the operation call at the bottom.
    fn bound_operation_call(&self, n: Node<'t>, depth: usize) -> Option<Node<'t>> {
        if depth > 8 {
            return None;
        }
        let root = self.chain_root(n);
        match root.k() {
            "identifier" => {
                let v = self.bound_value(root)?;
                self.bound_operation_call(v, depth + 1)
            }
            "call" => {
                let f = self.field(root, "function")?;
                let method = self.field(f, "attribute").map(|a| self.text(a))?;
                py_operation(method).map(|_| root)
            }
            _ => None,
        }
    }

    /// A chain of modifiers not directly on an operation call: on a cursor variable, on a
    /// mongoengine QuerySet (`Post.objects(..).order_by(..).skip(n)`), or on an unknown cursor.
    fn modifier_chain(&mut self, call: Node<'t>, obj: Node<'t>, ctx: OpContext) {
        let recv = self.unwrap_expr(obj);
        // Only the innermost modifier call of a chain handles it.
        if recv.k() == "call" {
            if let Some(f) = self
                .field(recv, "function")
                .filter(|f| f.k() == "attribute")
            {
                let m = self
                    .field(f, "attribute")
                    .map(|a| self.text(a))
                    .unwrap_or("");
                if PY_MODIFIERS.contains(&m) || PY_QUERYSET_METHODS.contains(&m) {
                    return;
                }
                if py_operation(m).is_some() {
                    return; // the operation collects its own chain
                }
            }
        }
        match self.classify(recv, 0) {
            Thing::QuerySet(r, ev) => {
                self.note_queried(recv);
                self.queryset_read(recv, r, ev, true, ctx)
            }
            _ => {
                if let Some(bottom) = self.bound_operation_call(recv, 0) {
                    let (mods, _) = self.collect_chain(recv, false);
                    self.pending_modifiers.push((bottom.id(), mods));
                    return;
                }
                // An unknown cursor paged with `.skip(..)` and `.limit(..)` / `.sort(..)`, in one
                // chain or, on a cursor variable, in statements of their own (pymongo's cursor
                // methods change the cursor: `cursor.skip(n)` then `cursor.limit(m)`). Not the
                // object's own methods: `self.skip(start).limit(n)` in a class that defines them
                // (FiftyOne's `view[start:stop]`) is no cursor.
                if recv.k() == "identifier" && matches!(self.text(recv), "self" | "cls") {
                    return;
                }
                let (mods, top) = self.collect_chain(recv, false);
                let has_skip = mods.iter().any(|m| m.name == "skip");
                let paged = mods.iter().any(|m| m.name == "limit" || m.name == "sort")
                    || (has_skip && recv.k() == "identifier" && self.paged_in_scope(recv));
                if has_skip && paged && (recv.k() != "call" || self.uses_mongo) {
                    let mut op = Operation::new(OpKind::Find, "skip", span(top), span(call));
                    op.modifiers = mods;
                    op.evidence = Evidence::Shaped;
                    op.context = ctx;
                    self.ir.operations.push(op);
                }
            }
        }
    }

    /// `name[a:b]`: a slice of a plain name (see [`Self::sliced_queryset`]).
    fn slices_a_name(&self, n: Node<'t>) -> bool {
        n.k() == "subscript"
            && self.field(n, "subscript").is_some_and(|s| s.k() == "slice")
            && self
                .field(n, "value")
                .is_some_and(|v| v.k() == "identifier")
    }

    /// `result[offset:offset + n]` where `result` is a name bound to a mongoengine QuerySet
    /// (`result = self.model.objects(**filters)`, then `result = result.order_by(..)`): a read
    /// paged with skip and limit, like the slice written on the QuerySet's own chain.
    fn sliced_queryset(&mut self, sub: Node<'t>, ctx: OpContext) {
        let Some(name) = self.field(sub, "value") else {
            return;
        };
        if let Thing::QuerySet(r, ev) = self.classify(name, 0) {
            self.note_queried(name);
            self.queryset_read(name, r, ev, true, ctx);
        }
    }

    /// Whether the function (or module) around the variable `name` also calls `name.limit(..)` or
    /// `name.sort(..)`.
    fn paged_in_scope(&self, name: Node<'t>) -> bool {
        let mut scope = name;
        while let Some(p) = self.parents.of(scope) {
            scope = p;
            if scope.k() == "function_definition" {
                break;
            }
        }
        let var = self.text(name);
        let mut found = false;
        self.parents.walk(scope, |n, kind, enter| {
            if !enter || found || kind != "call" {
                return;
            }
            let Some(f) = self.field(n, "function").filter(|f| f.k() == "attribute") else {
                return;
            };
            let object = self.field(f, "object");
            let method = self.field(f, "attribute").map(|a| self.text(a));
            found = matches!(method, Some("limit" | "sort"))
                && object.is_some_and(|o| o.k() == "identifier" && self.text(o) == var);
        });
        found
    }

    /// A mongoengine QuerySet read from `recv` (the manager `Post.objects`, its call
    /// `Post.objects(author=a)`, or a modifier's receiver), with the modifiers chained on it and
    /// the call that ends the chain: a read, or `get`/`first` (one document) or `delete`. A chain
    /// that ends in an operation (`count`, `update`, `modify`) is that operation's. With
    /// `modified`, only a chain with a modifier (the modifier's call reads it).
    fn queryset_read(
        &mut self,
        recv: Node<'t>,
        r: CollectionRef,
        ev: Evidence,
        modified: bool,
        ctx: OpContext,
    ) {
        let (mods, top) = self.collect_chain(recv, true);
        let mut end = top;
        let mut kind = OpKind::Find;
        let mut method = "objects";
        let mut method_span = span(recv);
        // A method of the application's queryset class (`meta["queryset_class"]`):
        // `Follow.objects(until=None).followers(user)` may filter on more than it shows.
        let mut custom = false;
        if let Some((attr, call)) = self.method_call_on(top) {
            let name = self.text(attr);
            if py_operation(name).is_some() {
                return;
            }
            match queryset_terminal(name) {
                Some(k) => (end, kind, method, method_span) = (call, k, name, span(attr)),
                None => custom = true,
            }
        }
        if modified && mods.is_empty() {
            return;
        }
        // A `.skip(..)` call is mongoengine's (Django's QuerySet has none); a slice `qs[a:b]` is
        // both ODMs' paging, so it is no evidence: kobotoolbox slices Django models in modules
        // that also use pymongo.
        let skip_call = mods
            .iter()
            .any(|m| m.name == "skip" && self.src[m.span.start as usize..].starts_with("skip"));
        let ev = if ev == Evidence::None && (self.uses_mongoengine || skip_call) {
            Evidence::Shaped
        } else {
            ev
        };
        if ev == Evidence::None && r.import.is_none() {
            return;
        }
        let mut op = Operation::new(kind, method, span(end), method_span);
        op.filter = self.queryset_filter(end);
        if custom {
            op.filter = op
                .filter
                .map(|f| Value::unknown(f.span, self.text(self.unwrap_expr(top)), false));
        }
        op.modifiers = mods;
        op.collection = Some(r);
        op.evidence = ev;
        op.context = ctx;
        let refines_only = op
            .modifiers
            .iter()
            .all(|m| PY_QUERYSET_METHODS.contains(&m.name.as_str()));
        if end.id() == top.id() && refines_only {
            // Not ended by a call and not paged or sorted: the queryset may be bound and read
            // later.
            self.manager_reads.push((top.id(), op));
        } else {
            self.ir.operations.push(op);
        }
    }

    /// Notes that an operation or a modifier is called on `n`: if `n` names a bound call
    /// (`qs = Post.objects(a=1)` … `qs.count()`), that call's read is this one's.
    fn note_queried(&mut self, n: Node<'t>) {
        let n = self.unwrap_expr(n);
        if n.k() != "identifier" {
            return;
        }
        if let Some(v) = self.bound_value(n).map(|v| self.unwrap_expr(v)) {
            self.queried_later.insert(v.id());
        }
    }

    /// `Post.objects(author=a)`: calling the manager is a read, unless a modifier chained on it
    /// reads the chain (see [`Extractor::modifier_chain`]).
    fn called_manager(&mut self, call: Node<'t>, ctx: OpContext) {
        let mut top = call;
        while let Some(p) = self
            .parents
            .of(top)
            .filter(|p| matches!(p.k(), "parenthesized_expression" | "await"))
        {
            top = p;
        }
        if let Some((attr, _)) = self.method_call_on(top) {
            let name = self.text(attr);
            if PY_MODIFIERS.contains(&name) || PY_QUERYSET_METHODS.contains(&name) {
                return;
            }
        }
        if let Thing::QuerySet(r, ev) = self.classify(call, 0) {
            self.queryset_read(call, r, ev, false, ctx);
        }
    }

    /// `X.objects`, mongoengine's (or Django's) manager, not called.
    fn is_manager(&self, n: Node<'t>) -> bool {
        let n = self.unwrap_expr(n);
        n.k() == "attribute"
            && self
                .field(n, "attribute")
                .is_some_and(|a| self.text(a) == "objects")
    }

    /// The method called on `n` (`n.m(..)`): its name node and the call.
    fn method_call_on(&self, n: Node<'t>) -> Option<(Node<'t>, Node<'t>)> {
        let p = self.parents.of(n).filter(|p| p.k() == "attribute")?;
        if self.field(p, "object").map(|o| o.id()) != Some(n.id()) {
            return None;
        }
        let call = self.parents.of(p).filter(|c| c.k() == "call")?;
        Some((self.field(p, "attribute")?, call))
    }

    /// mongoengine query objects: `Q(author=a) & Q(views__gt=3)` as the fields of a filter,
    /// `Q(a=1) | Q(b=2)` as one `$or`. `None` for anything else (`~Q(..)`, a variable).
    fn q_fields(&self, n: Node<'t>, depth: usize) -> Option<Vec<Field>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let n = self.unwrap_expr(n);
        match n.k() {
            "call" => {
                let f = self.field(n, "function")?;
                if last_segment(self.text(f)) != "Q" {
                    return None;
                }
                let args = self.call_args(n);
                if !args.positional.is_empty() || args.splat {
                    return None;
                }
                Some(
                    args.keywords
                        .iter()
                        .map(|(k, v)| {
                            mongoengine_filter_field(self.text(*k), span(*k), self.lower(*v, 0))
                        })
                        .collect(),
                )
            }
            "binary_operator" => {
                let (l, r) = (self.field(n, "left")?, self.field(n, "right")?);
                match self.field(n, "operator").map(|o| self.text(o)) {
                    Some("&") => {
                        let mut fields = self.q_fields(l, depth + 1)?;
                        fields.extend(self.q_fields(r, depth + 1)?);
                        Some(fields)
                    }
                    Some("|") => {
                        let mut alternatives = Vec::new();
                        for side in [l, r] {
                            let mut fields = self.q_fields(side, depth + 1)?;
                            // `a | b | c` is one `$or` of three.
                            match fields.as_slice() {
                                [f] if f.key == "$or" && self.is_q_or(side) => {
                                    if let ValueKind::Array(items) = fields.remove(0).value.kind {
                                        alternatives.extend(items);
                                    }
                                }
                                _ => alternatives.push(Value {
                                    span: span(side),
                                    kind: ValueKind::Document(fields),
                                }),
                            }
                        }
                        Some(vec![Field {
                            key: "$or".into(),
                            key_span: span(n),
                            value: Value {
                                span: span(n),
                                kind: ValueKind::Array(alternatives),
                            },
                        }])
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Whether `n` is `a | b` (so its `$or` merges into an enclosing one).
    fn is_q_or(&self, n: Node<'t>) -> bool {
        let n = self.unwrap_expr(n);
        n.k() == "binary_operator" && self.field(n, "operator").map(|o| self.text(o)) == Some("|")
    }

    /// The filter of a mongoengine QuerySet chain: the keyword arguments and `Q(..)` objects of
    /// `objects(..)`, `filter(..)` and `get(..)`; unknown where one is not spelt out.
    fn queryset_filter(&self, n: Node<'t>) -> Option<Value> {
        let mut fields = Vec::new();
        let mut unreadable = false;
        let mut cur = self.unwrap_expr(n);
        let mut sp: Option<Span> = None;
        for _ in 0..MAX_DEPTH {
            if cur.k() == "subscript" {
                match self.field(cur, "value") {
                    Some(v) => {
                        cur = self.unwrap_expr(v);
                        continue;
                    }
                    None => break,
                }
            }
            if cur.k() == "identifier" {
                // `qs = Post.objects(a=1)` … `qs.filter(b=2).first()`.
                match self.bound_value(cur) {
                    Some(v) if v.start_byte() < cur.start_byte() => {
                        cur = self.unwrap_expr(v);
                        continue;
                    }
                    _ => break,
                }
            }
            if cur.k() != "call" {
                break;
            }
            let Some(f) = self.field(cur, "function") else {
                break;
            };
            let method = if f.k() == "attribute" {
                self.field(f, "attribute")
                    .map(|a| self.text(a))
                    .unwrap_or("")
            } else {
                ""
            };
            if matches!(method, "objects" | "filter" | "get") {
                let args = self.call_args(cur);
                let mut own = Vec::new();
                for q in &args.positional {
                    match self.q_fields(*q, 0) {
                        Some(f) => own.extend(f),
                        None => unreadable = true,
                    }
                }
                // `objects(**{"harvest__domain": d})`, or a name bound once to such a literal:
                // its keywords as written; any other splat may hold anything.
                let splats = args.dict_splats.iter().map(|&d| self.literal_kwargs(d));
                let splats: Option<Vec<Vec<(String, Node<'t>, Node<'t>)>>> = splats.collect();
                let spread = match splats {
                    Some(s) if args.splat && args.dict_splats.len() == s.len() => {
                        // A `*args` beside them reads nothing.
                        unreadable |= args.list_splat;
                        s.into_iter().flatten().collect()
                    }
                    _ => {
                        unreadable |= args.splat;
                        Vec::new()
                    }
                };
                let written = args
                    .keywords
                    .iter()
                    .map(|&(k, v)| (self.text(k).to_string(), k, v));
                let spread = spread.into_iter();
                for (name, k, v) in written.chain(spread) {
                    let value = self.lower(v, 0);
                    match (name.as_str(), value.kind) {
                        // `objects(__raw__={"a.b": 1})`: a pymongo filter as it is.
                        ("__raw__", ValueKind::Document(raw)) => own.extend(raw),
                        ("__raw__", _) => unreadable = true,
                        (key, kind) => own.push(mongoengine_filter_field(
                            key,
                            span(k),
                            Value {
                                span: value.span,
                                kind,
                            },
                        )),
                    }
                }
                fields.extend(own.into_iter().rev());
                sp = Some(span(cur));
            }
            match self.field(f, "object") {
                Some(o) => cur = self.unwrap_expr(o),
                None => break,
            }
        }
        if unreadable {
            // `objects(**filters)`, `filter(build_q(..))`: fields the file does not spell.
            return sp.map(|s| Value::unknown(s, self.text(n), false));
        }
        fields.reverse();
        sp.map(|s| Value {
            span: s,
            kind: ValueKind::Document(fields),
        })
    }

    /// The name that names the collection of `obj` (`getattr(db, collection)`, `db[collection]`,
    /// `db.get_collection(collection)`): a wrapper's parameter, perhaps (see `finish`).
    fn collection_named_by(&self, obj: Node<'t>) -> Option<String> {
        let obj = self.unwrap_expr(obj);
        let name = match obj.k() {
            "call" => {
                let f = self.field(obj, "function")?;
                let args = self.call_args(obj);
                match f.k() {
                    "identifier" if self.text(f) == "getattr" => args.positional.get(1).copied(),
                    "attribute"
                        if matches!(
                            self.field(f, "attribute").map(|a| self.text(a)),
                            Some("get_collection" | "collection")
                        ) =>
                    {
                        args.positional.first().copied()
                    }
                    _ => None,
                }
            }
            "subscript" => self.field(obj, "subscript"),
            _ => None,
        }?;
        (name.k() == "identifier").then(|| self.text(name).to_string())
    }

    /// A call of a function imported from another module of the repository with a string first
    /// and more arguments after it (`mongo_find_one("analysis", {"info.id": 1})`): a wrapper's,
    /// if the linker finds one (see [`crate::ir::Wrapper`]); until then no operation.
    fn wrapper_call(&mut self, call: Node<'t>, f: Node<'t>, ctx: OpContext) {
        // Most calls of a name are not: the cheap tests first (a builtin, `len(x)`, is bound to
        // nothing).
        let name = self.text(f);
        if !self
            .bindings
            .get(name)
            .is_some_and(|list| list.iter().any(|b| b.import.is_some()))
        {
            return;
        }
        let Some(list) = self
            .field(call, "arguments")
            .filter(|a| a.k() == "argument_list")
        else {
            return;
        };
        let mut named = self.parents.children(list);
        if named.next().is_none_or(|a| a.k() != "string") || named.next().is_none() {
            return;
        }
        let Some(import) = self.imported_by_name(name, call.start_byte() as u32) else {
            return;
        };
        let args = self.call_args(call);
        if args.splat
            || args.positional.len() + args.keywords.len() < 2
            || args
                .positional
                .first()
                .and_then(|a| self.string_value(*a))
                .is_none()
        {
            return;
        }
        let mut op = Operation::new(OpKind::Other, name, span(call), span(f));
        op.documents = args.positional.iter().map(|a| self.lower(*a, 0)).collect();
        op.options = self.kwargs_doc(&args, &[], span(call));
        op.receiver = name.to_string();
        op.context = ctx;
        op.modifiers = self.collect_chain(call, false).0;
        op.wrapped = Some(import);
        self.ir.operations.push(op);
    }

    /// A call of a static or class method of a class imported from another module of the
    /// repository, with a collection's name first, a string or a name (a constant, a parameter),
    /// and more arguments after it: Dataherald's `MongoDB.find_one(PROMPT_COL, {"_id": ..})`, whose class method runs
    /// `cls._data_store[collection].find_one(query)`. A wrapper's (see [`crate::ir::Wrapper`]),
    /// exported as `MongoDB.find_one`, if the linker finds one; then it replaces what the call
    /// reads as by itself (an operation on a collection named `MongoDB`).
    fn class_wrapper_call(&mut self, call: Node<'t>, obj: Node<'t>, method: &str, ctx: &OpContext) {
        // The cheap tests first: a class's name, bound to an import.
        let class = self.text(obj);
        if obj.k() != "identifier"
            || !class.starts_with(|c: char| c.is_ascii_uppercase())
            || is_constant_name(class)
            || !self
                .bindings
                .get(class)
                .is_some_and(|list| list.iter().any(|b| b.import.is_some()))
        {
            return;
        }
        let args = self.call_args(call);
        let Some(&first) = args.positional.first() else {
            return;
        };
        let constant = first.k() == "identifier" && is_constant_name(self.text(first));
        if args.splat
            || args.positional.len() + args.keywords.len() < 2
            || !(first.k() == "identifier" || self.string_value(first).is_some())
        {
            return;
        }
        let Some(import) = self.imported_by_name(class, call.start_byte() as u32) else {
            return;
        };
        if constant {
            // The collection the call names, once the linker has the constant's value.
            self.note_name_import(self.text(first), first.start_byte() as u32);
        }
        let mut op = Operation::new(OpKind::Other, method, span(call), span(obj));
        op.documents = args.positional.iter().map(|a| self.lower(*a, 0)).collect();
        op.options = self.kwargs_doc(&args, &[], span(call));
        op.receiver = class.to_string();
        op.context = ctx.clone();
        // `MongoDB.find(COL, q).sort(..).skip(n)`: the cursor's modifiers, at the call.
        op.modifiers = self.collect_chain(call, false).0;
        op.wrapped = Some(ImportRef {
            module: import.module,
            export: format!("{}.{method}", import.export),
        });
        self.ir.operations.push(op);
    }

    /// What `name` at `at` is imported as, when it is one name of another module (not `*`).
    fn imported_by_name(&self, name: &str, at: u32) -> Option<ImportRef> {
        self.lookup(name, at)
            .and_then(|b| b.import.clone())
            .filter(|i| i.export != "*")
    }

    /// The module's own functions, decorated or not: (the name, the definition).
    fn module_functions(&self, root: Node<'t>) -> Vec<(Node<'t>, Node<'t>)> {
        self.named_children(root)
            .into_iter()
            .filter_map(|stmt| {
                let def = match stmt.k() {
                    "decorated_definition" => self.field(stmt, "definition")?,
                    _ => stmt,
                };
                if def.k() != "function_definition" {
                    return None;
                }
                Some((self.field(def, "name")?, def))
            })
            .collect()
    }

    /// The static and class methods of the module's own classes, as a caller names them
    /// (`MongoDB.find_one`), each with how many of its first parameters Python passes itself
    /// (`cls`: one).
    fn class_methods(&self, root: Node<'t>) -> Vec<(String, Node<'t>, usize)> {
        let mut out = Vec::new();
        for stmt in self.named_children(root) {
            let class = match stmt.k() {
                "decorated_definition" => self.field(stmt, "definition"),
                _ => Some(stmt),
            };
            let Some(class) = class.filter(|c| c.k() == "class_definition") else {
                continue;
            };
            let (Some(name), Some(body)) = (self.field(class, "name"), self.field(class, "body"))
            else {
                continue;
            };
            for member in self.named_children(body) {
                if member.k() != "decorated_definition" {
                    continue;
                }
                let Some(def) = self
                    .field(member, "definition")
                    .filter(|d| d.k() == "function_definition")
                else {
                    continue;
                };
                let decorated = |word: &str| {
                    self.named_children(member).into_iter().any(|d| {
                        d.k() == "decorator" && self.text(d).trim_start_matches('@') == word
                    })
                };
                let passed = if decorated("classmethod") {
                    1
                } else if decorated("staticmethod") {
                    0
                } else {
                    continue;
                };
                if let Some(method) = self.field(def, "name") {
                    let name = format!("{}.{}", self.text(name), self.text(method));
                    out.push((name, def, passed));
                }
            }
        }
        out
    }

    /// The module-level functions, and the static and class methods of the module's classes,
    /// that run a driver operation on the collection a parameter names, each with its first such
    /// operation (see [`crate::ir::Wrapper`]); not one whose
    /// operations of that kind call different methods (which would the call run?).
    fn wrappers(&mut self, root: Node<'t>) -> Vec<Export> {
        let mut out = Vec::new();
        if self.wrapper_ops.is_empty() {
            return out;
        }
        let ops = std::mem::take(&mut self.wrapper_ops);
        let functions = self.module_functions(root).into_iter();
        let functions = functions.map(|(name, def)| (self.text(name).to_string(), def, 0));
        for (name, def, passed_by_python) in functions.chain(self.class_methods(root)) {
            let params = self.parameter_names(def);
            let params = params.get(passed_by_python..).unwrap_or_default();
            let within = span(def);
            let mut runs = ops.iter().filter(|(at, coll, _, _)| {
                within.start <= *at && *at < within.end && params.contains(&coll.as_str())
            });
            let Some((_, collection, pipeline, op)) = runs.next() else {
                continue;
            };
            if runs.any(|(_, _, _, other)| other.method != op.method) {
                continue;
            }
            out.push(Export {
                name,
                target: ExportTarget::Wrapper {
                    wrapper: Box::new(crate::ir::Wrapper {
                        params: params.iter().map(|p| p.to_string()).collect(),
                        collection: collection.clone(),
                        pipeline: pipeline.clone().filter(|p| params.contains(&p.as_str())),
                        operation: op.clone(),
                    }),
                },
            });
        }
        out
    }

    /// Whether a receiver no collection is known for is a search engine's client, by its name or
    /// by what its name is bound to (`elastic = app.data._search_backend(resource)`, then
    /// `elastic.find_one("items", req=None, _id=id)`: Eve-Elastic in superdesk's newsroom;
    /// `es = Elasticsearch(..)`).
    fn search_engine(&self, obj: Node<'t>) -> bool {
        let mut head = obj;
        for _ in 0..MAX_DEPTH {
            match head.k() {
                "attribute" => head = self.field(head, "object").unwrap_or(head),
                "call" => head = self.field(head, "function").unwrap_or(head),
                _ => break,
            }
        }
        let search = |t: &str| {
            let t = t.to_ascii_lowercase();
            t.contains("elastic") || t.contains("opensearch") || t.contains("search_backend")
        };
        if search(self.text(obj)) {
            return true;
        }
        head.k() == "identifier"
            && self
                .lookup(self.text(head), head.start_byte() as u32)
                .and_then(|b| b.value)
                .is_some_and(|v| search(self.text(v)))
    }

    fn operation(
        &mut self,
        call: Node<'t>,
        obj: Node<'t>,
        attr: Node<'t>,
        m: &OpMethod,
        ctx: OpContext,
    ) {
        let thing = self.classify(obj, 0);
        if matches!(thing, Thing::Unknown) && self.search_engine(obj) {
            return;
        }
        let named_by = match &thing {
            Thing::Unknown => self.collection_named_by(obj),
            Thing::Collection(r) if matches!(r.name, CollectionName::Unknown { .. }) => {
                self.collection_named_by(obj)
            }
            _ => None,
        };
        if matches!(thing, Thing::QuerySet(..)) {
            self.note_queried(obj);
        }
        let args = self.call_args(call);
        let mut queryset = false;
        // (A document or a query set of a loop over a query is one collection's, whatever item.)
        let may_vary = matches!(
            thing,
            Thing::Unknown | Thing::Collection(_) | Thing::CallResult(_)
        );
        // (Also a model imported from a module of beanie's documents, queried as beanie's are:
        // `User.find_one(User.email == e)`, the comparison's left the receiver's attribute.)
        let beanie = self.uses_beanie && matches!(thing, Thing::Model(..))
            || matches!(thing, Thing::Model(..) | Thing::Imported(..)) && {
                let receiver = self.text(obj);
                args.positional.first().is_some_and(|a| {
                    let a = self.unwrap_expr(*a);
                    a.k() == "comparison_operator"
                        && self.named_children(a).first().is_some_and(|l| {
                            l.k() == "attribute"
                                && self.text(*l).split_once('.').map(|x| x.0) == Some(receiver)
                        })
                })
            };
        let (collection, mut evidence) = match thing {
            // A collection of another module's call's result is one if the linker says so.
            Thing::Collection(r) if r.import.is_some() => (Some(r), Evidence::None),
            Thing::Collection(r) => (Some(r), Evidence::Resolved),
            Thing::QuerySet(r, ev) => {
                queryset = true;
                (Some(r), ev)
            }
            Thing::Imported(imp, local) => (
                Some(CollectionRef {
                    // A capitalised import is a model class (mongoengine), else a collection handle.
                    via: if local.starts_with(|c: char| c.is_ascii_uppercase()) {
                        CollectionVia::MongooseModel
                    } else {
                        CollectionVia::Driver
                    },
                    name: CollectionName::Unknown { text: local },
                    span: span(obj),
                    import: Some(imp),
                }),
                Evidence::None,
            ),
            Thing::LoadedDoc(r, ev) => (Some(r), ev),
            // beanie's class methods: `User.find_one(User.email == e)`, `User.find(..)`.
            Thing::Model(r, ev) if self.uses_beanie => (Some(r), ev),
            // `mongo_connector(settings.COL_EVENTS).create_index(..)`: if the function of
            // the other module is a collection factory, the collection its argument names (the
            // linker decides, see `ExportTarget::CollectionFactory`).
            Thing::CallResult(imp) => match self.factory_argument(obj) {
                Some(arg) => (
                    Some(CollectionRef {
                        import: Some(ImportRef {
                            module: imp.module,
                            export: format!("{}(..)", imp.export.trim_end_matches("()")),
                        }),
                        ..self.collection_ref(arg)
                    }),
                    Evidence::None,
                ),
                None => (None, Evidence::None),
            },
            // (A call's result: its members may be collections, it is none itself.)
            Thing::Unknown => (None, Evidence::None),
            // A database has no `find` or `update_one`: a name taken for a database that
            // receives one holds a collection (articles_meta's `self.db = db`, a constructor's
            // `db` parameter that is `client[name]["articles"]`). `aggregate` and `watch` are
            // a database's own.
            Thing::Db if !matches!(m.name, "aggregate" | "watch") => (None, Evidence::None),
            _ => return,
        };
        let mut op = Operation::new(m.kind, m.name, span(call), span(attr));
        // beanie's writes through a query: `Rec.find_one(q).update(Set(..))`, `.upsert(..)`,
        // `Rec.find(q).delete()`: the write, not a read.
        let mut beanie_write = None;
        if beanie {
            // (`get`, `find_all`: read as `find_one` and `find`, named as written.)
            op.method = self.text(attr).to_string();
        }
        if beanie && matches!(m.kind, OpKind::Find | OpKind::FindOne) {
            if let Some((method, next)) = self.chained_call(call) {
                let many = m.kind == OpKind::Find;
                let kind = match method {
                    "update" | "upsert" | "set" | "inc" | "current_date" | "update_one"
                    | "update_many" | "replace" => Some(if many {
                        OpKind::UpdateMany
                    } else {
                        OpKind::UpdateOne
                    }),
                    "delete" | "delete_one" | "delete_many" => Some(OpKind::Delete),
                    _ => None,
                };
                if let Some(kind) = kind {
                    op.kind = kind;
                    beanie_write = self.call_args(next).positional.first().copied();
                }
            }
        }
        op.receiver = crate::lang::receiver_text(self.text(obj));
        op.context = ctx;
        if let Some(l) = op.context.enclosing_loop {
            let literal = collection
                .as_ref()
                .is_some_and(|c| matches!(c.name, CollectionName::Literal { .. }));
            op.context.receiver_per_item = may_vary && !literal && self.receiver_per_item(obj, l);
            // (A filter that is the item, `find_one(user_id)`, `remove(doc)`, is a query per
            // item; a pipeline is a query of its own.)
            op.context.query_is_item = m.kind == OpKind::Aggregate
                && self
                    .arg(&args, 0, &["pipeline"])
                    .is_some_and(|q| self.loop_item(q, l));
        }

        // mongoengine keyword updates: `push__comments=c`, `inc__views=1`.
        let me_update = self.mongoengine_update(&args);
        if let Some(update) = me_update {
            if !matches!(
                m.name,
                "update" | "update_one" | "modify" | "upsert_one" | "update_many"
            ) {
                return;
            }
            op.kind = match (queryset, m.name) {
                (true, "update") | (true, "update_many") => OpKind::UpdateMany,
                (_, "modify") => OpKind::FindOneAndUpdate,
                _ => OpKind::UpdateOne,
            };
            op.update = Some(update);
            let keys: Vec<Node<'t>> = std::iter::once(call)
                .chain(self.keyword_entries(&args).into_iter().map(|(_, k, _)| k))
                .collect();
            op.context.size_guards = self.size_guards(&keys);
            op.filter = if queryset {
                self.queryset_filter(obj)
            } else {
                // A document's own update (`post.update(..)`), or a wrapper `Cls.update(doc, ..)`.
                let target = args.positional.first().copied().unwrap_or(obj);
                Some(super::id_filter(
                    span(target),
                    &format!("{}.pk", self.text(target)),
                ))
            };
            if evidence == Evidence::None {
                evidence = Evidence::Shaped;
            }
            op.collection = collection;
            op.evidence = evidence;
            self.ir.operations.push(op);
            return;
        }
        if queryset {
            op.filter = self.queryset_filter(obj);
        }

        let lowered = |x: Option<Node<'t>>| x.map(|n| self.lower(n, 0));
        let mut main_kwargs: Vec<&str> = Vec::new();
        match m.args {
            Args::FilterOptions if beanie && self.text(attr) == "get" => {
                op.filter = args
                    .positional
                    .first()
                    .map(|a| super::id_filter(span(*a), self.text(*a)));
            }
            Args::FilterOptions if beanie => {
                op.filter = (!args.positional.is_empty())
                    .then(|| self.beanie_filter(call, &args.positional));
                op.update = beanie_write.map(|u| self.lower(u, 0));
            }
            Args::FilterOptions => {
                if !queryset {
                    op.filter = lowered(self.arg(&args, 0, &["filter", "spec"]));
                }
                main_kwargs.extend(["filter", "spec"]);
                if matches!(m.kind, OpKind::Find | OpKind::FindOne) {
                    if let Some(p) = args.positional.get(1) {
                        op.modifiers.push(Modifier {
                            name: "projection".into(),
                            args: vec![self.lower(*p, 0)],
                            span: span(*p),
                        });
                    }
                }
            }
            Args::FilterUpdate => {
                // `dict.update({...})`: a generic `update` needs a filter and an update.
                if !m.driver_only
                    && evidence == Evidence::None
                    && self.arg(&args, 1, &["update", "document"]).is_none()
                {
                    return;
                }
                if !queryset {
                    op.filter = lowered(self.arg(&args, 0, &["filter", "spec", "query"]));
                }
                op.update = self
                    .arg(
                        &args,
                        if queryset { 0 } else { 1 },
                        &["update", "replacement", "document"],
                    )
                    .map(|u| self.lower_update(u));
                op.context.size_guards = self.size_guards(&[call]);
                op.context.absent_checks = self.pushed_absent(call, op.update.as_ref());
                main_kwargs.extend([
                    "filter",
                    "spec",
                    "query",
                    "update",
                    "replacement",
                    "document",
                ]);
                if m.name == "update"
                    && self
                        .kwarg(&args, &["multi"])
                        .is_some_and(|v| self.text(v) == "True")
                {
                    op.kind = OpKind::UpdateMany;
                }
            }
            Args::Documents => {
                if let Some(v) =
                    lowered(self.arg(&args, 0, &["document", "documents", "doc_or_docs"]))
                {
                    match v.kind {
                        ValueKind::Array(items) => op.documents = items,
                        _ => op.documents = vec![v],
                    }
                }
                main_kwargs.extend(["document", "documents", "doc_or_docs"]);
            }
            Args::Pipeline => {
                // mongoengine's `aggregate(*pipeline)` and `aggregate(stage, stage)` (before
                // 0.20, still accepted): the stages as positional arguments.
                let staged = args.list_splat
                    || args
                        .positional
                        .first()
                        .is_some_and(|a| self.unwrap_expr(*a).k() == "dictionary");
                if staged && m.kind == OpKind::Aggregate {
                    let given: Vec<Node<'t>> = self
                        .field(call, "arguments")
                        .map(|a| self.named_children(a))
                        .unwrap_or_default()
                        .into_iter()
                        .filter(|a| !matches!(a.k(), "keyword_argument" | "dictionary_splat"))
                        .collect();
                    let mut stages = Vec::new();
                    for a in &given {
                        if a.k() == "list_splat" {
                            let inner = self.named_children(*a).into_iter().next();
                            match inner.map(|i| self.lower(i, 0)) {
                                Some(Value {
                                    kind: ValueKind::Array(items),
                                    ..
                                }) => stages.extend(items),
                                _ => stages.push(Value::unknown(span(*a), self.text(*a), false)),
                            }
                        } else {
                            stages.push(self.lower(*a, 0));
                        }
                    }
                    op.pipeline = Some(stages);
                } else if let Some(v) = lowered(self.arg(&args, 0, &["pipeline"])) {
                    if let ValueKind::Array(stages) = v.kind {
                        op.pipeline = Some(stages);
                    }
                } else if m.kind == OpKind::Aggregate {
                    op.pipeline = Some(Vec::new());
                }
                main_kwargs.push("pipeline");
            }
            Args::Distinct => {
                if !queryset {
                    op.filter = lowered(self.arg(&args, 1, &["filter"]));
                }
                main_kwargs.extend(["key", "filter"]);
            }
            Args::Index => {
                let keys = self.arg(&args, 0, &["keys", "indexes"]);
                if m.name == "create_indexes" {
                    // Each `IndexModel` in the list is its own operation.
                    return;
                }
                op.filter = if m.kind == OpKind::DropIndex {
                    // `drop_index("email_1")` names the index; `drop_index([("a", 1)])` gives keys.
                    keys.map(|k| match self.string_value(k) {
                        Some(_) => self.lower(k, 0),
                        None => self.index_keys(k),
                    })
                } else {
                    keys.map(|k| self.index_keys(k))
                };
                main_kwargs.extend(["keys"]);
            }
            Args::Bulk => return, // each request model is its own operation
            Args::FindAndModify | Args::IdUpdate | Args::Id | Args::Opaque => {}
        }
        if m.name == "find_and_modify" {
            op.filter = lowered(self.arg(&args, 0, &["query"]));
        }
        op.options = self.kwargs_doc(&args, &main_kwargs, span(call));
        // Options given as keyword arguments become modifiers: `find(q, skip=n, limit=10)`, also
        // through a dictionary splat (`args = {"limit": n}; args["skip"] = (page - 1) * n;
        // find(**args)`, eve's resource reads).
        // (`keyword_entries` lists the written keywords too: it is asked only when there is a
        // splat, so that a plain call allocates no names.)
        let splatted = if args.dict_splats.is_empty() {
            Vec::new()
        } else {
            self.keyword_entries(&args)
        };
        // (`distinct` takes none of the paging options: a `skip` given to an application's own
        // `distinct(field, **kargs)`, ivre's backends, is that method's.)
        let distinct = m.kind == OpKind::Distinct;
        let mut option = |name: &str, k: Node<'t>, v: Node<'t>| {
            if matches!(name, "skip" | "limit" | "sort" | "projection" | "hint") && !distinct {
                op.modifiers.push(Modifier {
                    name: name.to_string(),
                    args: vec![self.lower(v, 0)],
                    span: Span::new(k.start_byte(), v.end_byte()),
                });
            }
        };
        if splatted.is_empty() {
            for &(k, v) in &args.keywords {
                option(self.text(k), k, v);
            }
        } else {
            for (name, k, v) in &splatted {
                option(name, *k, *v);
            }
        }
        let (chain, _) = self.collect_chain(call, queryset);
        op.modifiers.extend(chain);
        // `op.create_index("ix_md5", "samples", ["md5"])` with alembic's `op`: an SQL migration.
        if collection
            .as_ref()
            .and_then(|c| c.import.as_ref())
            .is_some_and(|i| is_other_database(&i.module))
        {
            return;
        }
        if let Some(name) = named_by {
            let pipeline = matches!(m.args, Args::Pipeline)
                .then(|| self.arg(&args, 0, &["pipeline"]))
                .flatten()
                .filter(|p| p.k() == "identifier")
                .map(|p| self.text(p).to_string());
            let mut template = op.clone();
            template.collection = None;
            template.evidence = Evidence::Shaped;
            self.wrapper_ops
                .push((call.start_byte() as u32, name, pipeline, template));
        }
        if evidence == Evidence::None {
            // (`store.variant_collection.find(q)`: a receiver named for a collection, scout's
            // adapter attributes.)
            let named_collection = {
                let last = last_segment(&op.receiver);
                let last = last.to_ascii_lowercase();
                last.ends_with("_collection") || last == "collection"
            };
            let shaped = m.driver_only
                || named_collection
                || op.uses_mongo_operators()
                || op.modifiers.iter().any(|md| {
                    PY_SHAPING_MODIFIERS.contains(&md.name.as_str())
                        || (md.name == "skip" && matches!(m.kind, OpKind::Find | OpKind::Aggregate))
                });
            if shaped {
                evidence = Evidence::Shaped;
            } else if !crate::lang::imported(&collection) {
                op.collection = collection;
                self.dropped.insert(call.id(), op);
                return;
            }
        }
        op.collection = collection;
        op.evidence = evidence;
        self.op_by_call.insert(call.id(), self.ir.operations.len());
        self.ir.operations.push(op);
    }

    /// mongoengine update keywords as an update document; `None` when there are none.
    /// The keywords a call passes: written out, or in a dictionary it splats (`f(**kw)`, `kw`
    /// a literal and/or filled with `kw["push__log"] = entry` in the same function): (name, the
    /// node that spells it, value).
    fn keyword_entries(&self, args: &CallArgs<'t>) -> Vec<(String, Node<'t>, Node<'t>)> {
        let mut out: Vec<(String, Node<'t>, Node<'t>)> = args
            .keywords
            .iter()
            .map(|(k, v)| (self.text(*k).to_string(), *k, *v))
            .collect();
        for &d in &args.dict_splats {
            let at = d.start_byte() as u32;
            let mut literal = Some(d);
            if d.k() == "identifier" {
                let name = self.text(d);
                literal = self.bound_value(d);
                if let Some(sets) = self.key_sets.get(name) {
                    for &(scope, key, value) in sets {
                        if scope.start <= at && at <= scope.end && key.start_byte() < d.start_byte()
                        {
                            if let Some(k) = self.string_value(key) {
                                out.push((k, key, value));
                            }
                        }
                    }
                }
            }
            // A dictionary the splat picks under a condition (`{"skip": n, "limit": m} if paged
            // else {}`: full-stack-fastapi-mongodb's token reads) may pass each of its keys.
            let dicts: Vec<Node<'t>> = match literal.map(|l| self.unwrap_expr(l)) {
                Some(c) if c.k() == "conditional_expression" => {
                    let branches = self.named_children(c);
                    [branches.first(), branches.get(2)]
                        .into_iter()
                        .flatten()
                        .map(|b| self.unwrap_expr(*b))
                        .collect()
                }
                Some(l) => vec![l],
                None => Vec::new(),
            };
            for pair in dicts
                .into_iter()
                .filter(|l| l.k() == "dictionary")
                .flat_map(|l| self.named_children(l))
            {
                if let (Some(k), Some(v)) = (self.field(pair, "key"), self.field(pair, "value")) {
                    if let Some(name) = self.string_value(k) {
                        out.push((name, k, v));
                    }
                }
            }
        }
        out
    }

    /// The arrays (by their last key) whose `$push`/`$addToSet` value the code checks is not in
    /// them before `call` (see `OpContext::absent_checks`): `if cid in case.get("collaborators",
    /// []): raise ..` before `{"$push": {"collaborators": cid}}` (scout's case sharing), or the
    /// push under `if cid not in case["collaborators"]:`.
    fn pushed_absent(&self, call: Node<'t>, update: Option<&Value>) -> Vec<String> {
        let pushes = super::pushed_fields(update);
        if pushes.is_empty() {
            return Vec::new();
        }
        let checks = super::guard_conditions(
            &self.parents,
            self.src,
            call,
            &PY_GUARDS,
            true,
            |c, exit, out| self.absent_if(c, !exit, 0, out),
        );
        let last = |k: &str| last_segment(k).to_string();
        let text = |v: &Value| {
            self.src
                .get(v.span.start as usize..v.span.end as usize)
                .unwrap_or("")
                .trim()
        };
        pushes
            .into_iter()
            .filter(|f| {
                checks.iter().any(|(array, held, key)| {
                    *array == last(&f.key)
                        && match key {
                            None => held.trim() == text(&f.value),
                            // An element whose key is the value checked.
                            Some(k) => match f.value.get(k) {
                                Some(e) => text(&e.value) == held.trim(),
                                None => self.pushed_entry(&f.value, k) == Some(held.trim()),
                            },
                        }
                })
            })
            .map(|f| last(&f.key))
            .collect()
    }

    /// The text of entry `key` of the dict a pushed name is bound to (`details = {"group_id":
    /// gid}`, then `{"$push": {"groups": details}}`).
    fn pushed_entry(&self, pushed: &Value, key: &str) -> Option<&'t str> {
        let (start, end) = (pushed.span.start as usize, pushed.span.end as usize);
        let n = self
            .parents
            .root()
            .named_descendant_for_byte_range(start, end)?;
        if n.k() != "identifier" || n.byte_range() != (start..end) {
            return None;
        }
        let dict = self.unwrap_expr(self.bound_value(n)?);
        if dict.k() != "dictionary" {
            return None;
        }
        self.named_children(dict).into_iter().find_map(|pair| {
            let (k, v) = (self.field(pair, "key")?, self.field(pair, "value")?);
            (self.string_value(k)?.as_str() == key).then(|| self.text(v).trim())
        })
    }

    /// What follows about arrays from `cond` being `truth`: through `not`, parentheses, `and`
    /// (when true) and `or` (when false), `v not in arr` being true or `v in arr` false. Each is
    /// the array's last key (`collaborators` of `case.get("collaborators", [])`,
    /// `case["collaborators"]`, `case.collaborators`), the value's text, and, for a test among
    /// the elements' keys (`gid in [x["group_id"] for x in doc["group_details"]]`, or a name
    /// bound to that list), the key.
    fn absent_if(
        &self,
        cond: Node<'t>,
        truth: bool,
        depth: usize,
        out: &mut Vec<(String, &'t str, Option<String>)>,
    ) {
        if depth > 8 {
            return;
        }
        match cond.k() {
            "parenthesized_expression" => {
                for c in self.named_children(cond) {
                    self.absent_if(c, truth, depth + 1, out);
                }
            }
            "not_operator" => {
                if let Some(a) = self.field(cond, "argument") {
                    self.absent_if(a, !truth, depth + 1, out);
                }
            }
            "boolean_operator" => {
                let joins = if truth { "and" } else { "or" };
                if cond.child_by_field_name("operator").map(|o| self.text(o)) != Some(joins) {
                    return;
                }
                for c in self.named_children(cond) {
                    self.absent_if(c, truth, depth + 1, out);
                }
            }
            "comparison_operator" => {
                let parts: Vec<Node<'t>> = (0..cond.child_count())
                    .filter_map(|i| cond.child(i))
                    .collect();
                let [value, op, array] = parts.as_slice() else {
                    return;
                };
                let absent = match self.text(*op) {
                    "not in" => truth,
                    "in" => !truth,
                    _ => return,
                };
                if !absent {
                    return;
                }
                if let Some((key, element_key)) = self.keys_of_elements(*array) {
                    out.push((key, self.text(*value), Some(element_key)));
                } else if let Some(key) = self.array_key(*array) {
                    out.push((key, self.text(*value), None));
                }
            }
            _ => {}
        }
    }

    /// A list of a key of an array's elements, written or bound to a name: `[x["group_id"] for x
    /// in doc["group_details"]]` (`x.group_id`, `x.get("group_id")`): the array's last key and
    /// the element's key.
    fn keys_of_elements(&self, n: Node<'t>) -> Option<(String, String)> {
        let mut n = self.unwrap_expr(n);
        if n.k() == "identifier" {
            n = self.unwrap_expr(self.bound_value(n)?);
        }
        if !matches!(
            n.k(),
            "list_comprehension" | "set_comprehension" | "generator_expression"
        ) {
            return None;
        }
        let body = self.field(n, "body")?;
        let clause = self
            .named_children(n)
            .into_iter()
            .find(|c| c.k() == "for_in_clause")?;
        let item = self
            .field(clause, "left")
            .filter(|l| l.k() == "identifier")?;
        let array = self.array_key(self.field(clause, "right")?)?;
        let (object, key) = match body.k() {
            "subscript" => (
                self.field(body, "value")?,
                self.string_value(self.field(body, "subscript")?)?,
            ),
            "attribute" => (
                self.field(body, "object")?,
                self.text(self.field(body, "attribute")?).to_string(),
            ),
            "call" => {
                let f = self
                    .field(body, "function")
                    .filter(|f| f.k() == "attribute")?;
                if self.text(self.field(f, "attribute")?) != "get" {
                    return None;
                }
                let first = self
                    .named_children(self.field(body, "arguments")?)
                    .into_iter()
                    .next()?;
                (self.field(f, "object")?, self.string_value(first)?)
            }
            _ => return None,
        };
        (object.k() == "identifier" && self.text(object) == self.text(item)).then_some((array, key))
    }

    /// The last key of an array expression: `collaborators` of `case.get("collaborators", [])`,
    /// `case["collaborators"]`, `case.collaborators` or `collaborators`.
    fn array_key(&self, n: Node<'t>) -> Option<String> {
        match n.k() {
            "identifier" => Some(self.text(n).to_string()),
            "attribute" => Some(self.text(self.field(n, "attribute")?).to_string()),
            "subscript" => self.string_value(self.field(n, "subscript")?),
            "call" => {
                let f = self.field(n, "function").filter(|f| f.k() == "attribute")?;
                if self.text(self.field(f, "attribute")?) != "get" {
                    return None;
                }
                let args = self.field(n, "arguments")?;
                let first = self.named_children(args).into_iter().next()?;
                self.string_value(first)
            }
            _ => None,
        }
    }

    /// The sizes checked against an upper bound before one of `nodes` (see `lang::size_guards`):
    /// `if len(x) < N:` around it, `if len(x) >= N: return` before it.
    fn size_guards(&self, nodes: &[Node<'t>]) -> Vec<String> {
        let mut out: Vec<String> = nodes
            .iter()
            .flat_map(|&n| {
                super::size_guards(&self.parents, self.src, n, &PY_GUARDS, |c, exit, out| {
                    self.bounded_sizes(c, exit, 0, out)
                })
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// The `len(..)` arguments a condition bounds from above (through `and`, `not` excluded);
    /// with `exit`, those it bounds from below, a condition whose body leaves (through `or`).
    fn bounded_sizes(&self, cond: Node<'t>, exit: bool, depth: usize, out: &mut Vec<String>) {
        if depth > 8 {
            return;
        }
        match cond.k() {
            "boolean_operator" => {
                // (The operator is a token the flat tree may leave out: read it from the tree.)
                let joins = if exit { "or" } else { "and" };
                if cond.child_by_field_name("operator").map(|o| self.text(o)) != Some(joins) {
                    return;
                }
                for c in self.named_children(cond) {
                    self.bounded_sizes(c, exit, depth + 1, out);
                }
            }
            "parenthesized_expression" => {
                for c in self.named_children(cond) {
                    self.bounded_sizes(c, exit, depth + 1, out);
                }
            }
            "comparison_operator" => {
                let parts: Vec<Node<'t>> = (0..cond.child_count())
                    .filter_map(|i| cond.child(i))
                    .collect();
                for w in parts.windows(3) {
                    let measured = match (self.text(w[1]), exit) {
                        ("<" | "<=", false) | (">" | ">=", true) => w[0],
                        (">" | ">=", false) | ("<" | "<=", true) => w[2],
                        _ => continue,
                    };
                    let Some(arg) = self.len_argument(measured) else {
                        continue;
                    };
                    let mut text = self.text(arg).to_string();
                    if arg.k() == "identifier" {
                        if let Some(v) = self.bound_value(arg) {
                            text = format!("{text} = {}", self.text(v));
                        }
                    }
                    out.push(crate::lang::first_chars(&text, 120));
                }
            }
            _ => {}
        }
    }

    /// `x` in `len(x)`.
    fn len_argument(&self, n: Node<'t>) -> Option<Node<'t>> {
        let args = self.builtin_args(n, "len")?;
        match args.positional[..] {
            [a] => Some(a),
            _ => None,
        }
    }

    fn mongoengine_update(&self, args: &CallArgs<'t>) -> Option<Value> {
        let mut ops: Vec<Field> = Vec::new();
        for (name, k, v) in self.keyword_entries(args) {
            let name = name.as_str();
            let (k, v) = (&k, &v);
            let Some((prefix, operator)) = PY_MONGOENGINE_UPDATE_PREFIXES
                .iter()
                .find(|(p, _)| name.starts_with(p))
            else {
                continue;
            };
            let path = name[prefix.len()..].replace("__", ".");
            if path.is_empty() {
                continue;
            }
            let mut value = self.lower(*v, 0);
            if *prefix == "dec__" {
                if let ValueKind::Number(x) = value.kind {
                    value.kind = ValueKind::Number(-x);
                }
            }
            if *prefix == "push_all__" {
                value = Value {
                    span: value.span,
                    kind: ValueKind::Document(vec![Field {
                        key: "$each".into(),
                        key_span: value.span,
                        value,
                    }]),
                };
            }
            let field = Field {
                key: path,
                key_span: span(*k),
                value,
            };
            match ops.iter_mut().find(|f| f.key == *operator) {
                Some(f) => {
                    if let ValueKind::Document(fs) = &mut f.value.kind {
                        fs.push(field);
                    }
                }
                None => ops.push(Field {
                    key: operator.to_string(),
                    key_span: span(*k),
                    value: Value {
                        span: span(*k),
                        kind: ValueKind::Document(vec![field]),
                    },
                }),
            }
        }
        if ops.is_empty() {
            return None;
        }
        let sp = ops
            .iter()
            .map(|f| f.key_span)
            .fold(ops[0].key_span, |a, b| Span {
                start: a.start.min(b.start),
                end: a.end.max(b.end),
            });
        Some(Value {
            span: sp,
            kind: ValueKind::Document(ops),
        })
    }

    /// `UpdateOne(filter, update, upsert=True)`: one entry of a `bulk_write`.
    fn bulk_model(&mut self, call: Node<'t>, f: Node<'t>, class: &str, ctx: OpContext) {
        let args = self.call_args(call);
        let kind = match class {
            "UpdateOne" => OpKind::UpdateOne,
            "UpdateMany" => OpKind::UpdateMany,
            "ReplaceOne" => OpKind::Replace,
            "InsertOne" => OpKind::Insert,
            _ => OpKind::Delete,
        };
        let name_node = if f.k() == "attribute" {
            self.field(f, "attribute").unwrap_or(f)
        } else {
            f
        };
        let mut op = Operation::new(kind, class, span(call), span(name_node));
        match kind {
            OpKind::Insert => {
                if let Some(d) = self.arg(&args, 0, &["document"]) {
                    op.documents = vec![self.lower(d, 0)];
                }
            }
            OpKind::Delete => op.filter = self.arg(&args, 0, &["filter"]).map(|a| self.lower(a, 0)),
            _ => {
                op.filter = self.arg(&args, 0, &["filter"]).map(|a| self.lower(a, 0));
                op.update = self
                    .arg(&args, 1, &["update", "replacement"])
                    .map(|a| self.lower(a, 0));
            }
        }
        op.options = self.kwargs_doc(
            &args,
            &["filter", "update", "replacement", "document"],
            span(call),
        );
        op.in_bulk = true;
        op.context = ctx;
        let driver_class = self.text(f).starts_with("pymongo.")
            || self.imported_from_driver(self.text(f), f.start_byte() as u32);
        let (coll, ev) = self
            .bulk_targets
            .get(&call.id())
            .cloned()
            .unwrap_or((None, Evidence::None));
        let evidence = if ev != Evidence::None {
            ev
        } else if driver_class || op.uses_mongo_operators() {
            Evidence::Shaped
        } else {
            return;
        };
        op.collection = coll;
        op.evidence = evidence;
        self.ir.operations.push(op);
    }

    /// `IndexModel([("a", 1)], unique=True)`: an index declaration.
    fn index_model(&mut self, call: Node<'t>, f: Node<'t>, ctx: OpContext) {
        let args = self.call_args(call);
        let name_node = if f.k() == "attribute" {
            self.field(f, "attribute").unwrap_or(f)
        } else {
            f
        };
        let mut op = Operation::new(
            OpKind::CreateIndex,
            PY_INDEX_MODEL,
            span(call),
            span(name_node),
        );
        op.filter = self.arg(&args, 0, &["keys"]).map(|k| self.index_keys(k));
        op.options = self.kwargs_doc(&args, &["keys"], span(call));
        op.context = ctx;
        let (mut coll, mut ev) = self
            .index_targets
            .get(&call.id())
            .cloned()
            .unwrap_or((None, Evidence::Shaped));
        if coll.is_none() {
            // `INDEXES = {"orders": [IndexModel(..), ..]}`: the key names the collection.
            let mut cur = call;
            for _ in 0..4 {
                let Some(p) = self.parents.of(cur) else { break };
                if p.k() == "pair" {
                    if let Some(s) = self.field(p, "key").and_then(|k| self.string_value(k)) {
                        coll = Some(CollectionRef {
                            name: CollectionName::Literal { name: s },
                            span: self.field(p, "key").map(span).unwrap_or_default(),
                            via: CollectionVia::Driver,
                            import: None,
                        });
                        ev = Evidence::Shaped;
                    }
                    break;
                }
                cur = p;
            }
        }
        op.collection = coll;
        op.evidence = ev;
        self.ir.operations.push(op);
    }

    /// mongoengine `meta = {"indexes": [...]}` declarations, one operation per index.
    fn document_indexes(&mut self) {
        let mut ops = Vec::new();
        for (name, d) in &self.documents {
            let Some(coll) = &d.collection else {
                continue;
            };
            if d.abstract_ || d.embedded {
                continue;
            }
            if let Some(meta) = d.meta {
                ops.extend(self.meta_indexes(&self.lower_meta(meta), coll, name));
            }
            ops.extend(self.field_indexes(d, coll));
        }
        self.ir.operations.extend(ops);
    }

    /// The field constructor of a class attribute that declares an index (`StringField(unique=
    /// True)`), itself or wrapped in an application's helper as its first argument (udata's
    /// `field(StringField(unique=True), readonly=True)`).
    fn indexed_field_call(&self, right: Node<'t>) -> Option<Node<'t>> {
        let right = self.unwrap_expr(right);
        if right.k() != "call" {
            return None;
        }
        if self.declares_index(right) {
            return Some(right);
        }
        let inner = self.call_args(right).positional.first().copied()?;
        (inner.k() == "call" && self.declares_index(inner)).then_some(inner)
    }

    /// A field constructor given an index option: `unique=`, `unique_with=`, `primary_key=`.
    fn declares_index(&self, call: Node<'t>) -> bool {
        let args = self.call_args(call);
        ["unique", "unique_with", "primary_key"]
            .iter()
            .any(|k| self.kwarg(&args, &[k]).is_some())
    }

    /// The fields of `d` built with a field class of the repository (see [`AppField`]), each with
    /// the unique index it has should that class make it unique.
    fn app_fields(&self, d: &DocClass<'t>, at: u32, coll: &CollectionRef) -> Vec<AppField> {
        let mut out = Vec::new();
        for &(a, call, class) in &d.app_fields {
            let Some(left) = self.field(a, "left").filter(|l| l.k() == "identifier") else {
                continue;
            };
            let Some(class) = self.class_ref(self.text(class), at) else {
                continue;
            };
            let at = span(call);
            let keys = Value {
                span: span(a),
                kind: ValueKind::Document(vec![index_key(self.text(left).to_string(), span(left))]),
            };
            let unique = unique_option(at);
            let index = self.document_index("unique", (span(a), at), keys, Some(unique), coll);
            out.push(AppField { class, index });
        }
        out
    }

    /// A field built with a class named `..Field` (itself or wrapped, as in
    /// [`Self::indexed_field_call`]) that declares no index option: the call and the class.
    fn field_class_call(&self, right: Node<'t>) -> Option<(Node<'t>, Node<'t>)> {
        let class_of = |call: Node<'t>| {
            self.field(call, "function")
                .filter(|f| matches!(f.k(), "identifier" | "attribute"))
                .filter(|f| last_segment(self.text(*f)).ends_with("Field"))
        };
        let right = self.unwrap_expr(right);
        if right.k() != "call" {
            return None;
        }
        let call = match class_of(right) {
            Some(_) => right,
            None => self
                .call_args(right)
                .positional
                .first()
                .copied()
                .filter(|c| c.k() == "call")?,
        };
        let class = class_of(call)?;
        (!self.declares_index(call)).then_some((call, class))
    }

    /// A field class's `__init__` that makes its fields unique unless told otherwise:
    /// `kwargs.setdefault("unique", True)`, or a parameter `unique=True`.
    fn sets_unique_by_default(&self, init: Node<'t>) -> bool {
        let text = self.text(init);
        text.contains("setdefault(\"unique\", True)")
            || text.contains("setdefault('unique', True)")
            || self.field(init, "parameters").is_some_and(|ps| {
                self.named_children(ps).into_iter().any(|p| {
                    p.k() == "default_parameter"
                        && self.field(p, "name").map(|n| self.text(n)) == Some("unique")
                        && self.field(p, "value").map(|v| self.text(v)) == Some("True")
                })
            })
    }

    /// The indexes a document's fields declare: `email = StringField(unique=True)` is a unique
    /// index on `email`; `unique_with="site"` (or a list) adds those fields to it; a
    /// `primary_key=True` field is the document's `_id`, which its own unique index serves.
    fn field_indexes(&self, d: &DocClass<'t>, coll: &CollectionRef) -> Vec<Operation> {
        let mut ops = Vec::new();
        for &(a, call) in &d.indexed_fields {
            let Some(left) = self.field(a, "left").filter(|l| l.k() == "identifier") else {
                continue;
            };
            let args = self.call_args(call);
            let is_true = |k: &str| {
                self.kwarg(&args, &[k])
                    .is_some_and(|v| self.text(v) == "True")
            };
            let with = self.kwarg(&args, &["unique_with"]);
            let primary = is_true("primary_key");
            if !(is_true("unique") || with.is_some() || primary) {
                continue;
            }
            let mut keys = vec![index_key(self.text(left).to_string(), span(left))];
            if let Some(w) = with {
                let v = self.lower(w, 0);
                let names: Vec<&Value> = match &v.kind {
                    ValueKind::Array(items) => items.iter().collect(),
                    _ => vec![&v],
                };
                for n in names {
                    // `unique_with="parent.name"` names a field path as written.
                    match n.as_str() {
                        Some(name) => keys.push(index_key(name.replace("__", "."), n.span)),
                        None => keys.push(index_key(format!("[{}]", self.text(w)), n.span)),
                    }
                }
            }
            let at = args
                .keywords
                .iter()
                .find(|(k, _)| matches!(self.text(*k), "primary_key" | "unique" | "unique_with"))
                .map_or(span(call), |(k, v)| Span::new(k.start_byte(), v.end_byte()));
            let unique = unique_option(at);
            let keys = Value {
                span: span(a),
                kind: ValueKind::Document(keys),
            };
            // A primary key is the document's `_id`: declared as such, it is no sign that the
            // repository manages the collection's other indexes (see `model`).
            let method = if primary { "primary_key" } else { "unique" };
            ops.push(self.document_index(method, (span(a), at), keys, Some(unique), coll));
        }
        ops
    }

    /// An index a document declares: `spans` are the operation's and its method's.
    fn document_index(
        &self,
        method: &str,
        spans: (Span, Span),
        keys: Value,
        options: Option<Value>,
        coll: &CollectionRef,
    ) -> Operation {
        let mut op = Operation::new(OpKind::CreateIndex, method, spans.0, spans.1);
        op.filter = Some(keys);
        op.options = options;
        op.collection = Some(coll.clone());
        op.evidence = Evidence::Resolved;
        op.context = OpContext {
            periodic: self.file_periodic,
            ..OpContext::default()
        };
        op
    }

    /// The pending classes (see [`PendingClass`]): each with what it declares should the linker
    /// find it a document, like a document of this file.
    fn pending_classes(&self) -> Vec<PendingClass> {
        let mut out = Vec::new();
        for (name, d) in &self.documents {
            let Some(bases) = &d.pending else {
                continue;
            };
            let meta = d.meta.map(|m| self.lower_meta(m));
            let (collection, explicit_collection, abstract_) =
                self.document_collection(name, d.name_node, meta.as_ref());
            let mut operations = match &meta {
                Some(m) if !abstract_ => self.meta_indexes(m, &collection, name),
                _ => Vec::new(),
            };
            if !abstract_ {
                operations.extend(self.field_indexes(d, &collection));
            }
            out.push(PendingClass {
                name: name.clone(),
                bases: bases.clone(),
                abstract_,
                collection,
                explicit_collection,
                operations,
            });
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out
    }

    /// The value of the `"indexes"` entry of a `meta` dict.
    fn meta_indexes_node(&self, meta: Node<'t>) -> Option<Node<'t>> {
        self.named_children(self.unwrap_expr(meta))
            .into_iter()
            .filter(|p| p.k() == "pair")
            .find(|p| {
                self.field(*p, "key")
                    .and_then(|k| self.string_value(k))
                    .is_some_and(|k| k == "indexes")
            })
            .and_then(|p| self.field(p, "value"))
    }

    /// The operands of `meta["indexes"]` that name another class's list (see [`IndexOperand`]):
    /// `Mixin.get_indexes()`, `Mixin().get_indexes()`, `Owned.meta["indexes"]`, each spanned as
    /// the unreadable declaration [`Self::concatenated_items`] makes of it.
    fn index_operands(&self, meta: Node<'t>, at: u32) -> Vec<IndexOperand> {
        let mut out = Vec::new();
        let Some(value) = self.meta_indexes_node(meta) else {
            return out;
        };
        for (n, _) in self.concatenation_operands(value, 0) {
            let (class, method) = match n.k() {
                "call" if self.call_args(n).positional.is_empty() => {
                    let Some(f) = self.field(n, "function").filter(|f| f.k() == "attribute") else {
                        continue;
                    };
                    let (Some(obj), Some(attr)) =
                        (self.field(f, "object"), self.field(f, "attribute"))
                    else {
                        continue;
                    };
                    // `Mixin().get_indexes()`: the class's method all the same.
                    let obj = match obj.k() {
                        "call" => self.field(obj, "function").unwrap_or(obj),
                        _ => obj,
                    };
                    (obj, Some(self.text(attr).to_string()))
                }
                "subscript" => {
                    let meta = self
                        .field(n, "value")
                        .filter(|v| v.k() == "attribute")
                        .filter(|v| {
                            self.field(*v, "attribute").map(|a| self.text(a)) == Some("meta")
                        });
                    let key = self
                        .field(n, "subscript")
                        .and_then(|k| self.string_value(k));
                    match (meta.and_then(|m| self.field(m, "object")), key.as_deref()) {
                        (Some(obj), Some("indexes")) => (obj, None),
                        _ => continue,
                    }
                }
                _ => continue,
            };
            let Some(class) = self.class_ref(self.text(class), at) else {
                continue;
            };
            out.push(IndexOperand {
                span: span(n),
                class,
                method,
            });
        }
        out
    }

    /// The indexes a method returns: a list (or a concatenation), itself or bound to a name in
    /// the method (`indexes = [..]` … `return indexes`). `None` for anything else.
    fn returned_indexes(&self, def: Node<'t>, coll: &CollectionRef) -> Option<Vec<Operation>> {
        let body = self.field(def, "body")?;
        let stmts = self.named_children(body);
        let ret = stmts.iter().rev().find(|s| s.k() == "return_statement")?;
        let mut value = self.unwrap_expr(self.named_children(*ret).into_iter().next()?);
        if value.k() == "identifier" {
            let name = self.text(value);
            value = stmts
                .iter()
                .filter(|s| s.end_byte() <= ret.start_byte() && s.k() == "expression_statement")
                .filter_map(|s| self.named_children(*s).into_iter().next())
                .filter(|a| a.k() == "assignment")
                .filter(|a| self.field(*a, "left").map(|l| self.text(l)) == Some(name))
                .filter_map(|a| self.field(a, "right"))
                .last()
                .map(|v| self.unwrap_expr(v))?;
        }
        if !matches!(value.k(), "list" | "binary_operator") {
            return None;
        }
        let mut items = Vec::new();
        self.concatenated_items(value, 0, &mut items);
        Some(self.index_entries(&items, coll, false))
    }

    /// A document's `meta`, lowered. Its `indexes` may be a concatenation (`[{..}, {..}] +
    /// Mixin.get_indexes()`): the listed entries are read, and each other operand is one unknown
    /// entry (an index declared but not readable), where lowering would make the whole unknown.
    fn lower_meta(&self, meta: Node<'t>) -> Value {
        let mut v = self.lower(meta, 0);
        let ValueKind::Document(fields) = &mut v.kind else {
            return v;
        };
        let Some(f) = fields.iter_mut().find(|f| f.key == "indexes") else {
            return v;
        };
        if !matches!(f.value.kind, ValueKind::Unknown(_)) {
            return v;
        }
        if let Some(n) = self.meta_indexes_node(meta) {
            let mut items = Vec::new();
            self.concatenated_items(n, 0, &mut items);
            f.value = Value {
                span: span(n),
                kind: ValueKind::Array(items),
            };
        }
        v
    }

    /// The items of a list concatenation (`a + [b] + (c + d)`): a list's items, one unknown item
    /// for any other operand.
    fn concatenated_items(&self, n: Node<'t>, depth: usize, out: &mut Vec<Value>) {
        for (n, depth) in self.concatenation_operands(n, depth) {
            match self.lower(n, depth + 1).kind {
                ValueKind::Array(items) => out.extend(items),
                _ => out.push(Value::unknown(span(n), self.text(n), false)),
            }
        }
    }

    /// The operands of a concatenation (`a + [b] + (c + d)`), in order, each unwrapped and with
    /// its depth; any other expression is its own one operand.
    fn concatenation_operands(&self, n: Node<'t>, depth: usize) -> Vec<(Node<'t>, usize)> {
        let mut out = Vec::new();
        let mut todo = vec![(n, depth)];
        while let Some((n, depth)) = todo.pop() {
            let n = self.unwrap_expr(n);
            if depth < MAX_DEPTH
                && n.k() == "binary_operator"
                && self.field(n, "operator").map(|o| self.text(o)) == Some("+")
            {
                if let (Some(l), Some(r)) = (self.field(n, "left"), self.field(n, "right")) {
                    todo.push((r, depth + 1));
                    todo.push((l, depth + 1));
                    continue;
                }
            }
            out.push((n, depth));
        }
        out
    }

    /// One index operation per entry of a document's `meta["indexes"]`; `class` names the
    /// document when it is one of this file (see [`Self::indexes_with_cls`]).
    fn meta_indexes(&self, meta_v: &Value, coll: &CollectionRef, class: &str) -> Vec<Operation> {
        let Some(indexes) = meta_v.get("indexes") else {
            return Vec::new();
        };
        let cls = self.indexes_with_cls(class);
        self.index_entries(indexes.value.items(), coll, cls)
    }

    /// Whether mongoengine puts `_cls` first in the indexes the class's `meta` lists: the class
    /// allows inheritance (its subclasses share its collection, told apart by `_cls`, which every
    /// query of theirs filters on), by its own `meta` or, failing that, a base's of this file, and
    /// no `index_cls: False` says otherwise.
    fn indexes_with_cls(&self, class: &str) -> bool {
        self.meta_flag(class, "allow_inheritance", 0) == Some(true)
            && self.meta_flag(class, "index_cls", 0) != Some(false)
    }

    /// A boolean of a document's `meta`, its own or the nearest base's (of this file) that sets
    /// it: mongoengine merges the bases' `meta` into a subclass's.
    fn meta_flag(&self, class: &str, key: &str, depth: usize) -> Option<bool> {
        let d = self.documents.get(class)?;
        let own = d
            .meta
            .and_then(|m| match self.lower(m, 0).get(key)?.value.kind {
                ValueKind::Bool(b) => Some(b),
                _ => None,
            });
        if own.is_some() || depth >= 16 {
            return own;
        }
        d.bases
            .iter()
            .find_map(|b| self.meta_flag(b, key, depth + 1))
    }

    /// One index operation per entry of a mongoengine list of indexes; `cls`: the document allows
    /// inheritance (see [`prefix_cls`]).
    fn index_entries(&self, entries: &[Value], coll: &CollectionRef, cls: bool) -> Vec<Operation> {
        let mut ops = Vec::new();
        for entry in entries {
            let (keys_v, options) = match &entry.kind {
                ValueKind::Document(fs) => {
                    let keys = fs
                        .iter()
                        .find(|f| f.key == "fields")
                        .map(|f| f.value.clone());
                    let opts: Vec<Field> =
                        fs.iter().filter(|f| f.key != "fields").cloned().collect();
                    (
                        keys,
                        Some(Value {
                            span: entry.span,
                            kind: ValueKind::Document(opts),
                        }),
                    )
                }
                _ => (Some(entry.clone()), None),
            };
            let Some(keys_v) = keys_v else { continue };
            let specs: Vec<Value> = match &keys_v.kind {
                ValueKind::Array(xs) => xs.clone(),
                _ => vec![keys_v.clone()],
            };
            let mut fields = Vec::new();
            for s in &specs {
                let Some(t) = s.as_str() else { continue };
                let (key, dir) = mongoengine_index_key(t);
                fields.push(Field {
                    key,
                    key_span: s.span,
                    value: Value {
                        span: s.span,
                        kind: dir,
                    },
                });
            }
            let keys = Value {
                span: keys_v.span,
                kind: ValueKind::Document(fields),
            };
            let mut op =
                self.document_index("indexes", (entry.span, entry.span), keys, options, coll);
            if cls {
                prefix_cls(&mut op, entry);
            }
            ops.push(op);
        }
        ops
    }

    /// A function of this file that creates the index its parameters describe, pritunl's
    /// `def upsert_index(coll_name, index, **kwargs): coll = mongo.get_collection(coll_name);
    /// coll.create_index(index, **kwargs)`: its calls with a collection name and keys written out
    /// (`upsert_index("tasks", [("ttl", 1)], background=True)`) are the declarations, each where
    /// it is written; the helper's own `create_index`, on a collection it cannot name, is not one.
    fn expand_index_helpers(&mut self) {
        let calls = std::mem::take(&mut self.index_helper_calls);
        if calls.is_empty() {
            return;
        }
        // The helpers' declarations: (operation index, helper, collection parameter, keys parameter).
        let mut templates: Vec<(usize, &'t str, usize, usize)> = Vec::new();
        for (i, op) in self.ir.operations.iter().enumerate() {
            if op.kind != OpKind::CreateIndex {
                continue;
            }
            let Some(&def) = op
                .context
                .function
                .as_deref()
                .and_then(|f| self.functions.get(f))
            else {
                continue;
            };
            let params = self.parameter_names(def);
            let coll = match op.collection.as_ref().map(|c| &c.name) {
                Some(CollectionName::Unknown { text }) => params.iter().position(|p| p == text),
                _ => None,
            };
            let keys = match op.filter.as_ref().map(|f| &f.kind) {
                Some(ValueKind::Unknown(u)) => params.iter().position(|p| *p == u.text),
                _ => None,
            };
            // The helper's name, borrowed from the source (the key of `functions` is not).
            let name = self.field(def, "name").map(|n| self.text(n));
            if let (Some(c), Some(k), Some(name)) = (coll, keys, name) {
                templates.push((i, name, c, k));
            }
        }
        let mut expanded: HashSet<usize> = HashSet::default();
        for (call, ctx) in calls {
            let Some(callee) = self.field(call, "function") else {
                continue;
            };
            let name = self.text(callee);
            let Some(&(i, _, c, k)) = templates.iter().find(|t| t.1 == name) else {
                continue;
            };
            let def = self.functions[name];
            let params = self.parameter_names(def);
            let args = self.call_args(call);
            let (Some(coll), Some(keys)) = (
                self.arg(&args, c, &[params[c]]),
                self.arg(&args, k, &[params[k]]),
            ) else {
                continue;
            };
            let options = self.kwargs_doc(&args, &[params[c], params[k]], span(call));
            let template = &self.ir.operations[i];
            let Some(mut op) = self.declared_index(template, call, callee, coll, keys, options)
            else {
                continue;
            };
            op.method = name.to_string();
            op.context = ctx;
            op.receiver = String::new();
            self.ir.operations.push(op);
            for t in templates.iter().filter(|t| t.1 == name) {
                expanded.insert(t.0);
            }
        }
        if !expanded.is_empty() {
            let mut i = 0;
            self.ir.operations.retain(|_| {
                i += 1;
                !expanded.contains(&(i - 1))
            });
        }
    }

    /// A table of indexes walked by a loop that creates each (Sefaria's `indices = [("groups",
    /// ["slug"], {"unique": True}), ..]; for col, args, kwargs in indices:
    /// getattr(db, col).create_index(*args, **kwargs)`): each row is a declaration, where it is
    /// written; the loop's own `create_index`, on a collection it cannot name, is not one.
    fn expand_index_tables(&mut self) {
        for call in std::mem::take(&mut self.index_table_calls) {
            let Some(i) = self
                .ir
                .operations
                .iter()
                .position(|o| o.span == span(call) && o.kind == OpKind::CreateIndex)
            else {
                continue;
            };
            let keys = self.index_loop_keys(call);
            if !keys.is_empty() {
                let template = self.ir.operations.remove(i);
                for key in keys {
                    let mut op = template.clone();
                    op.span = span(key);
                    op.method_span = span(key);
                    op.filter = Some(self.index_keys(key));
                    self.ir.operations.push(op);
                }
                continue;
            }
            let rows = self.index_table_rows(call);
            if rows.is_empty() {
                continue;
            }
            let template = self.ir.operations.remove(i);
            for (row, coll, keys, options) in rows {
                let options = options.map(|o| self.lower(o, 0));
                if let Some(op) = self.declared_index(&template, row, coll, coll, keys, options) {
                    self.ir.operations.push(op);
                }
            }
        }
    }

    /// The `for` statement around `call` in its function (or class, or module), if any.
    fn enclosing_for(&self, call: Node<'t>) -> Option<Node<'t>> {
        let mut cur = call;
        loop {
            let p = self.parents.of(cur)?;
            match p.k() {
                "for_statement" => return Some(p),
                "function_definition" | "class_definition" => return None,
                _ => cur = p,
            }
        }
    }

    /// `n`, or for a name, the value it is bound to (`bound_value`; `None` when it is bound to
    /// none the file shows).
    fn through_name(&self, n: Node<'t>) -> Option<Node<'t>> {
        if n.k() == "identifier" {
            self.bound_value(n)
        } else {
            Some(n)
        }
    }

    /// The keys of the indexes a loop over a list of them written out creates one by one
    /// (fireworks' `for f in ("state", "name", "created_on"): self.fireworks.create_index(f)`):
    /// the list's items, when `call`'s keys are the loop's variable and every item is a string
    /// or a list of key and direction pairs; else none.
    fn index_loop_keys(&self, call: Node<'t>) -> Vec<Node<'t>> {
        let args = self.call_args(call);
        let [keys] = args.positional[..] else {
            return Vec::new();
        };
        let name = self.text(keys);
        let Some(for_statement) = self.enclosing_for(call) else {
            return Vec::new();
        };
        if self.field(for_statement, "left").map(|l| self.text(l)) != Some(name) {
            return Vec::new();
        }
        let Some(list) = self
            .field(for_statement, "right")
            .and_then(|l| self.through_name(l))
            .filter(|l| matches!(l.k(), "list" | "tuple"))
        else {
            return Vec::new();
        };
        let items = self.named_children(list);
        let written = items
            .iter()
            .all(|i| i.k() == "list" || (i.k() == "string" && self.string_value(*i).is_some()));
        if !written {
            return Vec::new();
        }
        items
    }

    /// The declaration an index helper's or table's `template` makes where it is written (`at`,
    /// its name at `name_at`): on the collection the string `coll` names, of the keys `keys`;
    /// `None` when `coll` is not a string written out.
    fn declared_index(
        &self,
        template: &Operation,
        at: Node<'t>,
        name_at: Node<'t>,
        coll: Node<'t>,
        keys: Node<'t>,
        options: Option<Value>,
    ) -> Option<Operation> {
        let mut op = template.clone();
        op.span = span(at);
        op.method_span = span(name_at);
        op.collection = Some(CollectionRef {
            name: CollectionName::Literal {
                name: self.string_value(coll)?,
            },
            span: span(coll),
            via: CollectionVia::Driver,
            // Of the database another module's call returns, as the template's (see
            // `Thing::CallResult`).
            import: template
                .collection
                .as_ref()
                .and_then(|c| c.import.clone())
                .filter(ImportRef::is_call),
        });
        op.filter = Some(self.index_keys(keys));
        op.options = options;
        Some(op)
    }

    /// The rows of the table a `getattr(db, col).create_index(*args, **kwargs)` (or
    /// `db[col].create_index(..)`) loops over: (row, collection name, keys, options).
    fn index_table_rows(
        &self,
        call: Node<'t>,
    ) -> Vec<(Node<'t>, Node<'t>, Node<'t>, Option<Node<'t>>)> {
        let mut out = Vec::new();
        let Some(f) = self.field(call, "function") else {
            return out;
        };
        let Some(recv) = self.field(f, "object") else {
            return out;
        };
        // The loop variable that names the collection.
        let col = match recv.k() {
            "call" if self.field(recv, "function").map(|g| self.text(g)) == Some("getattr") => {
                self.call_args(recv).positional.get(1).copied()
            }
            "subscript" => self.field(recv, "subscript"),
            _ => None,
        };
        let Some(col) = col.filter(|c| c.k() == "identifier").map(|c| self.text(c)) else {
            return out;
        };
        // `*args` and `**kwargs`: which loop variables hold the arguments and the options.
        let Some(a) = self.field(call, "arguments") else {
            return out;
        };
        let (mut args_name, mut kwargs_name) = (None, None);
        for c in self.named_children(a) {
            let inner = self
                .named_children(c)
                .into_iter()
                .next()
                .map(|n| self.text(n));
            match c.k() {
                "list_splat" => args_name = inner,
                "dictionary_splat" => kwargs_name = inner,
                _ => return out,
            }
        }
        let Some(args_name) = args_name else {
            return out;
        };
        // The enclosing `for (col, args, kwargs) in table:`.
        let Some(loop_node) = self.enclosing_for(call) else {
            return out;
        };
        let left = self.field(loop_node, "left");
        let Some(left) = left.filter(|l| matches!(l.k(), "pattern_list" | "tuple_pattern")) else {
            return out;
        };
        let names: Vec<&str> = self
            .named_children(left)
            .into_iter()
            .map(|n| self.text(n))
            .collect();
        let pos = |n: &str| names.iter().position(|x| *x == n);
        let (Some(ci), Some(ai)) = (pos(col), pos(args_name)) else {
            return out;
        };
        let ki = kwargs_name.and_then(pos);
        let Some(table) = self
            .field(loop_node, "right")
            .and_then(|t| self.through_name(t))
        else {
            return out;
        };
        if table.k() != "list" {
            return out;
        }
        for row in self.named_children(table) {
            if row.k() != "tuple" {
                continue;
            }
            let cells = self.named_children(row);
            let (Some(coll), Some(args)) = (cells.get(ci), cells.get(ai)) else {
                continue;
            };
            // The keys are the first of the positional arguments.
            let keys = match args.k() {
                "list" | "tuple" => self.named_children(*args).into_iter().next(),
                _ => None,
            };
            // A row names its collection with a string (else it declares nothing).
            let (Some(keys), true) = (keys, self.string_value(*coll).is_some()) else {
                continue;
            };
            let options = ki
                .and_then(|k| cells.get(k))
                .copied()
                .filter(|o| o.k() == "dictionary");
            out.push((row, *coll, keys, options));
        }
        out
    }

    /// The innermost `def` around `n` (not `n` itself).
    fn function_around(&self, n: Node<'t>) -> Option<Node<'t>> {
        let mut up = self.parents.of(n);
        while let Some(u) = up.filter(|u| u.k() != "function_definition") {
            up = self.parents.of(u);
        }
        up
    }

    /// The names of a function's parameters, in order (`*args` and `**kwargs` left out).
    fn parameter_names(&self, def: Node<'t>) -> Vec<&'t str> {
        let Some(ps) = self.field(def, "parameters") else {
            return Vec::new();
        };
        self.named_children(ps)
            .into_iter()
            .filter_map(|p| match p.k() {
                "identifier" => Some(self.text(p)),
                "default_parameter" | "typed_default_parameter" => {
                    self.field(p, "name").map(|n| self.text(n))
                }
                "typed_parameter" => self
                    .named_children(p)
                    .into_iter()
                    .find(|c| c.k() == "identifier")
                    .map(|c| self.text(c)),
                _ => None,
            })
            .collect()
    }

    /// The `*args` and `**kwargs` names of a function's parameters.
    fn splat_parameter_names(&self, def: Node<'t>) -> Vec<&'t str> {
        let Some(ps) = self.field(def, "parameters") else {
            return Vec::new();
        };
        self.named_children(ps)
            .into_iter()
            .filter(|p| matches!(p.k(), "list_splat_pattern" | "dictionary_splat_pattern"))
            .filter_map(|p| {
                self.named_children(p)
                    .into_iter()
                    .find(|c| c.k() == "identifier")
            })
            .map(|c| self.text(c))
            .collect()
    }

    /// The names function `def` binds from a call that passes one of `params` whole (`query =
    /// self._clean_query(kwargs)`, `skip, limit, order_by = self._clean_options(options)`): made
    /// from what its caller gave it.
    fn bound_from_parameters(&self, def: Node<'t>, params: &[&str]) -> Vec<&'t str> {
        let mut out = Vec::new();
        self.parents.walk(def, |n, k, enter| {
            if !enter || k != "assignment" {
                return;
            }
            let (Some(left), Some(right)) = (self.field(n, "left"), self.field(n, "right")) else {
                return;
            };
            if right.k() != "call" || !super::passes_parameter(self.text(right), params) {
                return;
            }
            let targets = match left.k() {
                "identifier" => vec![left],
                "pattern_list" | "tuple_pattern" => self.named_children(left),
                _ => return,
            };
            out.extend(
                targets
                    .into_iter()
                    .filter(|t| t.k() == "identifier")
                    .map(|t| self.text(t)),
            );
        });
        out
    }

    fn finish(mut self, root: Node<'t>) -> FileIr {
        // (A queryset bound to a name that a loop walks is read there too, whatever else is
        // called on it: `subs.count()` then `for sub in subs:` sends two queries.)
        let walked: Vec<Span> = self
            .ir
            .operations
            .iter()
            .map(|o| &o.context)
            .chain(self.ir.helper_reads.iter().map(|h| &h.context))
            .filter_map(|c| c.loop_over.as_ref()?.bound_to)
            .collect();
        for (call_id, op) in std::mem::take(&mut self.manager_reads) {
            if !self.queried_later.contains(&call_id) || walked.iter().any(|b| b.contains(op.span))
            {
                self.ir.operations.push(op);
            }
        }
        for (call_id, mods) in std::mem::take(&mut self.pending_modifiers) {
            let shaping = mods
                .iter()
                .any(|m| m.name == "skip" || PY_SHAPING_MODIFIERS.contains(&m.name.as_str()));
            if let Some(&i) = self.op_by_call.get(&call_id) {
                let op = &mut self.ir.operations[i];
                // As for a dropped operation below: shaped by what is done with the cursor, even
                // when its import is not resolved (`user.User.collection.find(q)` .. `.skip(n)`).
                if shaping && op.evidence == Evidence::None {
                    op.evidence = Evidence::Shaped;
                }
                op.modifiers.extend(mods);
            } else if shaping {
                // `cursor = Server.collection.find(q)` … `cursor = cursor.skip(n)`.
                if let Some(mut op) = self.dropped.remove(&call_id) {
                    op.modifiers.extend(mods);
                    op.evidence = Evidence::Shaped;
                    self.op_by_call.insert(call_id, self.ir.operations.len());
                    self.ir.operations.push(op);
                }
            }
        }
        // The operations of wrappers of the driver, which run the query they are given (their
        // cursors' modifiers attached first): a parameter's, or one made from it, with the skip an
        // options parameter gives (directly, or through a helper that reads it: mhn's `skip,
        // limit, order_by = self._clean_options(options)` beside `query =
        // self._clean_query(kwargs)`).
        let mut operations = std::mem::take(&mut self.ir.operations);
        let function_at = |at: Span| {
            root.descendant_for_byte_range(at.start as usize, at.end as usize)
                .and_then(|n| self.function_around(n))
        };
        super::mark_forwarded_queries(
            &mut operations,
            |at| {
                function_at(at).map(|f| {
                    let mut names = self.parameter_names(f);
                    names.extend(self.splat_parameter_names(f));
                    let options: Vec<&str> = names
                        .iter()
                        .copied()
                        .filter(|p| {
                            matches!(*p, "options" | "opts" | "kwargs" | "params")
                                || p.ends_with("_options")
                        })
                        .collect();
                    let members = self
                        .bound_from_parameters(f, &options)
                        .into_iter()
                        .filter(|m| matches!(*m, "skip" | "offset"))
                        .collect();
                    super::Parameters { names, members }
                })
            },
            |filter, at, params| {
                params.contains(&filter)
                    || function_at(at)
                        .is_some_and(|f| self.bound_from_parameters(f, params).contains(&filter))
            },
        );
        self.ir.operations = operations;
        // `src_build = get_src_build()`, then `for b in src_build.find(): src_build.replace_one(..)`
        // (biothings' clean-ups): a receiver that takes a driver-only call in the same function
        // is a collection, so its bare `find()` is a read of it too. (Not `self`: a class that
        // calls its own `find` and `update_one` implements them, biothings' SQLite stand-in.)
        // So is a member of a name two of whose members take driver-only calls anywhere in the
        // file: `results_db.calls.find_one(..)` and `results_db.analysis.find_one(..)` make
        // `results_db` a database, and `results_db.analysis.remove(..)` a delete on one of its
        // collections (cuckoo's views, `results_db = mongo.db` of an application module). One
        // member is no database: eve's data layer `app.data` has a `find_one` and a `find` of
        // its own. An attribute named as a database (`self.db`, `adapter.db`: `DB_NAMES`) is
        // one with a single such member: loqusdb's mixins, `self.db.case.find_one(..)`, whose
        // `self.db` a base class of another package sets. Their members are the collections of
        // those names.
        let word = crate::lang::naming::is_name;
        let named_database = |root: &str| {
            root.split_once('.').is_some_and(|(first, rest)| {
                !matches!(first, "self" | "cls") || !rest.contains('.')
            }) && root.split('.').all(word)
                && DB_NAMES.contains(&last_segment(root))
        };
        // The database and the collection of a receiver: `results_db.analysis`, or by a literal
        // subscript (`app.data.driver.db["accounts"]`, eve's examples).
        let database_of = |receiver: &str| -> Option<(String, String)> {
            let (root, member) = match receiver.strip_suffix("\"]").or(receiver.strip_suffix("']"))
            {
                Some(r) => {
                    let (root, quoted) = r.rsplit_once('[')?;
                    let member = quoted.strip_prefix(['"', '\''])?;
                    (!member.is_empty() && !member.contains(['"', '\'', '\\']))
                        .then_some((root, member))?
                }
                None => receiver.rsplit_once('.').filter(|(_, m)| word(m))?,
            };
            let plain = !root.contains('.') && !matches!(root, "self" | "cls");
            (plain || named_database(root)).then(|| (root.to_string(), member.to_string()))
        };
        let driver_only = |o: &Operation| {
            o.evidence != Evidence::None
                && crate::lang::vocabulary::py_operation(&o.method).is_some_and(|m| m.driver_only)
        };
        let mut members: crate::lang::HashMap<String, crate::lang::HashSet<String>> =
            Default::default();
        for o in &self.ir.operations {
            if driver_only(o) {
                if let Some((root, member)) = database_of(&o.receiver) {
                    members.entry(root).or_default().insert(member);
                }
            }
        }
        let databases: crate::lang::HashSet<String> = members
            .into_iter()
            .filter(|(root, m)| m.len() >= 2 || named_database(root))
            .map(|(root, _)| root)
            .collect();
        let (mut revived, _): (Vec<_>, Vec<_>) = std::mem::take(&mut self.dropped)
            .into_values()
            .partition(|op| {
                !matches!(op.receiver.as_str(), "self" | "cls")
                    && (database_of(&op.receiver).is_some_and(|(d, _)| databases.contains(&d))
                        || self.ir.operations.iter().any(|o| {
                            driver_only(o)
                                && o.receiver == op.receiver
                                && o.context.function == op.context.function
                        }))
            });
        revived.sort_by_key(|op| op.span.start);
        for op in &mut revived {
            op.evidence = Evidence::Shaped;
        }
        self.ir.operations.extend(revived);
        // Also through a local the member is bound to (`coll = self.db.logs` ..
        // `coll.create_index(..)`, modmail's index set-up; `accounts =
        // app.data.driver.db["accounts"]` .. `accounts.find_one(..)`, eve's examples).
        let mut named: Vec<(usize, CollectionRef)> = Vec::new();
        for (i, op) in self.ir.operations.iter().enumerate() {
            if op.collection.is_some() {
                continue;
            }
            // The member where it is written (`self.db.case` at the call's start, or as the
            // local's value).
            let start = op.span.start as usize;
            let at_call = self
                .src
                .get(start..)
                .is_some_and(|t| t.starts_with(&op.receiver))
                .then(|| database_of(&op.receiver).map(|d| (d, op.receiver.as_str(), start)))
                .flatten();
            let found = at_call.or_else(|| {
                if op.receiver.contains('.') {
                    return None;
                }
                let b = self
                    .lookup(&op.receiver, op.span.start)
                    .filter(|b| b.kind == DeclKind::Assign)?;
                let v = b
                    .value
                    .filter(|v| matches!(v.k(), "attribute" | "subscript"))?;
                let text = self.text(v);
                database_of(text).map(|d| (d, text, v.start_byte()))
            });
            let Some(((root, member), receiver, start)) = found else {
                continue;
            };
            // A database by its members' calls, or by its name (`app.data.driver.db`).
            if !databases.contains(&root) && !named_database(&root) {
                continue;
            }
            // The member's own text: after the dot, or inside the subscript's quotes.
            let at = start + root.len() + if receiver.ends_with(']') { 2 } else { 1 };
            named.push((
                i,
                CollectionRef {
                    span: Span::new(at, at + member.len()),
                    name: CollectionName::Literal { name: member },
                    via: CollectionVia::Driver,
                    import: None,
                },
            ));
        }
        for (i, c) in named {
            self.ir.operations[i].collection = Some(c);
        }
        if self.uses_beanie {
            self.beanie_indexes();
        }
        // Exports: module-level names bound to collections, and mongoengine documents.
        let module_scope = span(root);
        let mut exports = Vec::new();
        for (name, list) in &self.bindings {
            if name.contains('.') {
                continue;
            }
            let Some(b) = list.iter().rev().find(|b| b.scope == module_scope) else {
                continue;
            };
            match b.kind {
                DeclKind::Assign => {
                    if let Some(v) = b.value {
                        let thing = self.classify(v, 0);
                        if let Thing::Collection(r) = thing {
                            exports.push(Export {
                                name: name.clone(),
                                target: ExportTarget::Collection { collection: r },
                            });
                        } else if let Some((import, _)) = Some(v)
                            .filter(|v| v.k() == "call")
                            .and_then(|v| self.access_target(v, 0))
                        {
                            // `trace_access = MongoDBAccess(TraceDB)`: stands for the document.
                            exports.push(Export {
                                name: name.clone(),
                                target: ExportTarget::Reexport { import },
                            });
                        } else if matches!(thing, Thing::Db) {
                            // `dbname = client["app"]`: its collections are named where they are
                            // used (`dbname["feds"]` in a module that imports it).
                            exports.push(Export {
                                name: format!("{name}[]"),
                                target: ExportTarget::Database,
                            });
                        } else if is_constant_name(name) && self.is_constant(b, name) {
                            // `COL_USERS = "users"`: may name a collection in another module.
                            if let Some(value) = self.string_value(v) {
                                exports.push(Export {
                                    name: name.clone(),
                                    target: ExportTarget::Constant { value },
                                });
                            }
                        }
                    }
                }
                DeclKind::Import => {
                    if let Some(imp) = &b.import {
                        if imp.export != "*" {
                            // `from django.contrib.auth.models import User`, which importers
                            // may take from here.
                            let target = if name.starts_with(|c: char| c.is_ascii_uppercase())
                                && is_other_database(&imp.module)
                            {
                                ExportTarget::OtherDatabase
                            } else {
                                ExportTarget::Reexport {
                                    import: imp.clone(),
                                }
                            };
                            exports.push(Export {
                                name: name.clone(),
                                target,
                            });
                        }
                    }
                }
                _ => {}
            }
        }
        for import in &self.star_reexports {
            exports.push(Export {
                name: "*".into(),
                target: ExportTarget::Star {
                    import: import.clone(),
                },
            });
        }
        // `Host.collection`: a module-level class's property that returns a collection.
        for (class_name, class) in &self.module_classes {
            let Some(class) = class else {
                continue;
            };
            // A name's first property that returns something, as `class_property` reads it.
            let mut seen: Vec<&str> = Vec::new();
            for (prop, def) in self.properties(*class) {
                if seen.contains(&prop) {
                    continue;
                }
                let Some(ret) = self.returned_expr(def) else {
                    continue;
                };
                seen.push(prop);
                if let Thing::Collection(r) = self.property_value(ret, 0) {
                    exports.push(Export {
                        name: format!("{class_name}.{prop}"),
                        target: ExportTarget::Collection { collection: r },
                    });
                }
            }
        }
        // `self.case_collection = database.case` in a module-level class (scout's `MongoAdapter`,
        // which combines the handler mixins of other modules that read `self.case_collection`):
        // `MongoAdapter.self.case_collection`, for the linker (see `link::link_mixins`).
        let mut attrs: Vec<(&str, &String, &Binding<'t>)> = Vec::new();
        let classes: Vec<(&str, Span)> = self
            .module_classes
            .iter()
            .filter_map(|(name, c)| Some((*name, span((*c)?))))
            .collect();
        for (key, list) in &self.bindings {
            if classes.is_empty() || !key.starts_with("self.") || key[5..].contains('.') {
                continue;
            }
            // A collection is an attribute, an item or a call's result (`database.case`,
            // `db["case"]`, `db.get_collection("case")`), never a literal or a name.
            let mut seen: Vec<&str> = Vec::new();
            for b in list {
                let Some(v) = b.value else { continue };
                if !matches!(v.k(), "attribute" | "subscript" | "call") {
                    continue;
                }
                let Some(&(class_name, _)) = classes
                    .iter()
                    .find(|(_, sp)| sp.start <= b.pos && b.pos < sp.end)
                else {
                    continue;
                };
                if !seen.contains(&class_name) {
                    seen.push(class_name);
                    attrs.push((class_name, key, b));
                }
            }
        }
        attrs.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
        for (class_name, key, b) in attrs {
            match self.classify_binding(b, key, 0) {
                Thing::Collection(r)
                    if matches!(r.name, CollectionName::Literal { .. }) && r.import.is_none() =>
                {
                    exports.push(Export {
                        name: format!("{class_name}.{key}"),
                        target: ExportTarget::Collection { collection: r },
                    });
                }
                _ => {
                    // `self.collection = store.db[self.collection_name]` (fame's `MongoDict`,
                    // whose subclasses set `collection_name = 'files'`): the collection each
                    // subclass's attribute names, `MongoDict.collection(collection_name=..)`.
                    if let Some(attr) = b.value.and_then(|v| self.named_by_class_attribute(v, 0)) {
                        exports.push(Export {
                            name: format!("{class_name}.{}({attr}=..)", &key[5..]),
                            target: ExportTarget::CollectionFactory,
                        });
                    }
                }
            }
        }
        // `get_db()`, `Configuration.getMongoConnection()`: a module-level function, or a class
        // method or static method of a module-level class, that returns a database, for the
        // modules that call it (see `Thing::CallResult`); one that returns what a function of
        // another module returns is that function's re-export.
        let mut functions: Vec<(String, Node<'t>)> = Vec::new();
        for (name, def) in self.module_functions(root) {
            functions.push((format!("{}()", self.text(name)), def));
        }
        for (class_name, class) in &self.module_classes {
            let Some(class) = class else {
                continue;
            };
            let methods = self.methods(*class, |decorators| {
                decorators.iter().any(|d| is_class_level(d))
            });
            for (method, def) in methods {
                functions.push((format!("{class_name}.{method}()"), def));
            }
        }
        // A name's last definition is the function.
        let mut seen: HashSet<&str> = HashSet::default();
        for (name, def) in functions.iter().rev() {
            if !seen.insert(name) {
                continue;
            }
            if self.is_collection_factory(*def) {
                // `mongo_connector(..)`: the collection its callers name.
                exports.push(Export {
                    name: format!("{}(..)", name.trim_end_matches("()")),
                    target: ExportTarget::CollectionFactory,
                });
                continue;
            }
            let target = match self.returned_thing(*def, 0) {
                Thing::Db => ExportTarget::Database,
                Thing::CallResult(import) => ExportTarget::Reexport { import },
                _ => continue,
            };
            exports.push(Export {
                name: name.clone(),
                target,
            });
        }
        for (name, d) in &self.documents {
            match (&d.collection, d.abstract_) {
                (Some(c), false) => exports.push(Export {
                    name: name.clone(),
                    target: ExportTarget::Collection {
                        collection: c.clone(),
                    },
                }),
                (Some(_), true) => exports.push(Export {
                    name: name.clone(),
                    target: ExportTarget::AbstractDocument,
                }),
                _ => {}
            }
        }
        for name in &self.foreign_models {
            if self.module_classes.contains_key(name.as_str()) {
                exports.push(Export {
                    name: name.clone(),
                    target: ExportTarget::OtherDatabase,
                });
            }
        }
        for (name, (import, _)) in &self.access_models {
            exports.push(Export {
                name: name.clone(),
                target: ExportTarget::Reexport {
                    import: import.clone(),
                },
            });
        }
        self.ir.classes = self.pending_classes();
        self.ir.class_decls = self.class_decls();
        self.ir.name_imports = self.name_imports.take();
        exports.extend(self.wrappers(root));
        exports.sort_by(|a, b| a.name.cmp(&b.name));
        self.ir.exports = exports;
        for d in self.documents.values() {
            if let (Some(c), false) = (&d.collection, d.abstract_) {
                self.ir.collections.push(c.clone());
            }
        }
        self.ir.normalise();
        self.ir
    }
}

/// `{unique: true}`, the options of a field's unique index, spanned where the field says so.
fn unique_option(at: Span) -> Value {
    Value {
        span: at,
        kind: ValueKind::Document(vec![Field {
            key: "unique".into(),
            key_span: at,
            value: Value {
                span: at,
                kind: ValueKind::Bool(true),
            },
        }]),
    }
}

/// An ascending key of an index a field declares.
fn index_key(name: String, at: Span) -> Field {
    Field {
        key: name,
        key_span: at,
        value: Value {
            span: at,
            kind: ValueKind::Number(1.0),
        },
    }
}

/// pymongo index constants: `DESCENDING` → -1, `TEXT` → "text".
/// What a mongoengine QuerySet method that ends a chain does, where no frontend operation
/// (`count`, `update`, `delete_one`..) reads it: `Post.objects(..).first()` reads one document,
/// `.delete()` deletes, the aggregations and conversions read. `None` for others.
fn queryset_terminal(method: &str) -> Option<OpKind> {
    match method {
        "get" | "first" | "get_or_404" | "first_or_404" => Some(OpKind::FindOne),
        "delete" => Some(OpKind::Delete),
        "sum" | "average" | "item_frequencies" | "in_bulk" | "as_pymongo" | "to_json"
        | "explain" | "paginate" => Some(OpKind::Find),
        _ => None,
    }
}

fn index_constant(name: &str) -> Option<ValueKind> {
    Some(match name {
        "ASCENDING" => ValueKind::Number(1.0),
        "DESCENDING" => ValueKind::Number(-1.0),
        "TEXT" => ValueKind::String("text".into()),
        "HASHED" => ValueKind::String("hashed".into()),
        "GEOSPHERE" => ValueKind::String("2dsphere".into()),
        "GEO2D" => ValueKind::String("2d".into()),
        _ => return None,
    })
}

/// mongoengine index spec strings: `-created` → (created, -1), `$title` → text, `#owner` → hashed.
fn mongoengine_index_key(t: &str) -> (String, ValueKind) {
    match t.chars().next() {
        Some('-') => (t[1..].to_string(), ValueKind::Number(-1.0)),
        Some('+') => (t[1..].to_string(), ValueKind::Number(1.0)),
        Some('$') => (t[1..].to_string(), ValueKind::String("text".into())),
        Some('#') => (t[1..].to_string(), ValueKind::String("hashed".into())),
        Some('(') => (t.to_string(), ValueKind::Number(1.0)),
        _ => (t.to_string(), ValueKind::Number(1.0)),
    }
}

/// Puts `_cls: 1` first in the keys of `op`, the index a `meta["indexes"]` `entry` declares for a
/// document that allows inheritance, as mongoengine does unless the entry says `cls: False`, is
/// sparse, already names `_cls`, or is a geo index.
fn prefix_cls(op: &mut Operation, entry: &Value) {
    let option = |k: &str| match entry.get(k).map(|f| &f.value.kind) {
        Some(ValueKind::Bool(b)) => Some(*b),
        _ => None,
    };
    if option("cls") == Some(false) || option("sparse") == Some(true) {
        return;
    }
    let fields_v = match &entry.kind {
        ValueKind::Document(_) => entry.get("fields").map(|f| &f.value),
        _ => Some(entry),
    };
    let geo = fields_v.is_some_and(|v| {
        let specs: Vec<&Value> = match &v.kind {
            ValueKind::Array(xs) => xs.iter().collect(),
            _ => vec![v],
        };
        specs
            .iter()
            .any(|s| s.as_str().is_some_and(|t| t.starts_with(['(', ')', '*'])))
    });
    let Some(ValueKind::Document(keys)) = op.filter.as_mut().map(|f| &mut f.kind) else {
        return;
    };
    if geo || keys.is_empty() || keys.iter().any(|k| k.key == "_cls") {
        return;
    }
    let at = keys[0].key_span;
    keys.insert(0, index_key("_cls".to_string(), at));
}

/// A mongoengine filter keyword: `id=x` → `{_id: x}`, `views__gte=10` → `{views: {$gte: 10}}`,
/// `author__name=n` → `{"author.name": n}`. Its string operators (`title__icontains=q`,
/// `name__startswith=p`, `exact`, `regex`, `wholeword`, ..) match a regular expression, and its
/// geo operators (`loc__near=p`, `loc__geo_within_box=b`, `max_distance`, ..) are the query
/// operators they stand for (mongoengine's `queryset/transform.py`).
fn mongoengine_filter_field(name: &str, key_span: Span, value: Value) -> Field {
    let query_operator = |o: &str| -> Option<&'static str> {
        Some(match o {
            "ne" => "$ne",
            "lt" => "$lt",
            "lte" => "$lte",
            "gt" => "$gt",
            "gte" => "$gte",
            "in" => "$in",
            "nin" => "$nin",
            "mod" => "$mod",
            "all" => "$all",
            "size" => "$size",
            "exists" => "$exists",
            "not" => "$not",
            "elemMatch" => "$elemMatch",
            "match" => "$elemMatch",
            "type" => "$type",
            "contains" | "icontains" | "startswith" | "istartswith" | "endswith" | "iendswith"
            | "exact" | "iexact" | "regex" | "iregex" | "wholeword" | "iwholeword" => "$regex",
            "near" => "$near",
            "near_sphere" => "$nearSphere",
            "max_distance" => "$maxDistance",
            "min_distance" => "$minDistance",
            "within_distance"
            | "within_spherical_distance"
            | "within_box"
            | "within_polygon"
            | "geo_within"
            | "geo_within_box"
            | "geo_within_polygon"
            | "geo_within_center"
            | "geo_within_sphere" => "$geoWithin",
            "geo_intersects" => "$geoIntersects",
            _ => return None,
        })
    };
    let mut segs: Vec<&str> = name.split("__").collect();
    let (op, string_op) = match segs.last() {
        Some(l) if segs.len() > 1 => (query_operator(l), Some(*l)),
        _ => (None, None),
    };
    if op.is_some() {
        segs.pop();
    }
    // `name__not__in=x`: `not` negates the operator after it (`{name: {$not: {$in: x}}}`); it is
    // no part of the field's path.
    let negated = op.is_some() && segs.len() > 1 && segs.last() == Some(&"not");
    if negated {
        segs.pop();
    }
    let mut path = segs.join(".");
    if path == "id" || path == "pk" {
        path = "_id".into();
    }
    let value = match op {
        Some(o) => {
            let mut fields = vec![Field {
                key: o.to_string(),
                key_span,
                value,
            }];
            // The regular expression mongoengine builds: case-insensitive (`$options: "i"`), or
            // not anchored at the start (see `crate::model::regex_bounds_nothing`).
            let regex = string_op.filter(|_| o == "$regex").unwrap_or("");
            let options = match regex {
                "icontains" | "istartswith" | "iendswith" | "iexact" | "iregex" | "iwholeword" => {
                    Some(("$options", ValueKind::String("i".into())))
                }
                "contains" | "endswith" | "wholeword" => {
                    Some((crate::ir::UNANCHORED, ValueKind::Bool(true)))
                }
                _ => None,
            };
            if let Some((key, kind)) = options {
                let span = fields[0].value.span;
                fields.push(Field {
                    key: key.to_string(),
                    key_span,
                    value: Value { span, kind },
                });
            }
            let span = fields[0].value.span;
            let operators = Value {
                span,
                kind: ValueKind::Document(fields),
            };
            if negated {
                Value {
                    span,
                    kind: ValueKind::Document(vec![Field {
                        key: "$not".to_string(),
                        key_span,
                        value: operators,
                    }]),
                }
            } else {
                operators
            }
        }
        None => value,
    };
    Field {
        key: path,
        key_span,
        value,
    }
}

fn is_client_attr(name: &str) -> bool {
    matches!(
        name,
        "address"
            | "close"
            | "server_info"
            | "list_database_names"
            | "list_databases"
            | "database_names"
            | "start_session"
            | "drop_database"
            | "options"
            | "nodes"
            | "topology_description"
            | "io_loop"
            | "delegate"
            | "get_io_loop"
            | "primary"
            | "secondaries"
            | "arbiters"
            | "is_primary"
            | "is_mongos"
            | "watch"
            | "bulk_write"
            | "codec_options"
            | "read_preference"
            | "write_concern"
            | "read_concern"
            | "HOST"
            | "PORT"
    )
}

/// A key of a dict of connection settings (`{"NAME": .., "HOST": .., "PORT": ..}`).
fn is_connection_setting(key: &str) -> bool {
    const KEYS: &[&str] = &[
        "name",
        "host",
        "port",
        "username",
        "user",
        "password",
        "db",
        "alias",
        "uri",
        "url",
        "authsource",
        "replicaset",
    ];
    KEYS.iter().any(|k| k.eq_ignore_ascii_case(key))
}

/// A setting that names a MongoDB database: upper case, with `MONGO` in it, ending in `DB` or
/// `DATABASE` (`MONGO_DB`, `MONGODB`, `MONGO_DATABASE`; not `MONGO_URI` nor `MONGO_DB_NAME`).
fn is_mongo_database_setting(name: &str) -> bool {
    name.contains("MONGO")
        && (name.ends_with("DB") || name.ends_with("DATABASE"))
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

fn is_db_attr(name: &str) -> bool {
    matches!(
        name,
        "name"
            | "client"
            | "command"
            | "cursor_command"
            | "list_collection_names"
            | "collection_names"
            | "list_collections"
            | "create_collection"
            | "drop_collection"
            | "get_collection"
            | "with_options"
            | "aggregate"
            | "watch"
            | "validate_collection"
            | "dereference"
            | "codec_options"
            | "read_preference"
            | "write_concern"
            | "read_concern"
            | "current_op"
            | "profiling_level"
            | "set_profiling_level"
            | "add_son_manipulator"
            | "eval"
            | "authenticate"
            | "logout"
            | "system_js"
            | "delegate"
            | "get_io_loop"
            | "add_user"
            | "remove_user"
            | "error"
            | "last_status"
    )
}

fn is_collection_attr(name: &str) -> bool {
    py_operation(name).is_some()
        || PY_MODIFIERS.contains(&name)
        || matches!(
            name,
            "name"
                | "full_name"
                | "database"
                | "codec_options"
                | "read_preference"
                | "write_concern"
                | "read_concern"
                | "with_options"
                | "drop"
                | "rename"
                | "index_information"
                | "list_indexes"
                | "drop_index"
                | "drop_indexes"
                | "options"
                | "initialize_ordered_bulk_op"
                | "initialize_unordered_bulk_op"
                | "map_reduce"
                | "inline_map_reduce"
                | "group"
                | "save"
                | "parallel_scan"
                | "reindex"
                | "delegate"
                | "get_io_loop"
                | "list_search_indexes"
                | "create_search_index"
                | "create_search_indexes"
                | "drop_search_index"
                | "update_search_index"
                | "find_one_and_delete"
                | "find_one_and_replace"
                | "insert"
                | "remove"
                | "get_collection"
        )
}

fn parse_number(t: &str) -> Option<f64> {
    let t = t.replace('_', "");
    let t = t.trim_end_matches(['l', 'L']);
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return i64::from_str_radix(h, 16).ok().map(|x| x as f64);
    }
    if t.ends_with(['j', 'J']) {
        return None;
    }
    t.parse::<f64>().ok()
}

/// A module that names itself for MongoDB: `mongo`, `mongodb`, `db`, `database`, `mongo_db`,
/// `app_db` (not `feedback`, which merely contains the letters).
fn is_database_module_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    matches!(n.as_str(), "mongo" | "mongodb" | "db" | "database")
        || n.starts_with("mongo_")
        || n.ends_with("_mongo")
        || n.ends_with("_db")
}

/// Whether code inside `n` runs where `n` is, as its enclosing loop's iterations do: `n` is no
/// function or lambda (whose body runs when it is called).
fn runs_in_place(n: Node<'_>) -> bool {
    !matches!(n.k(), "function_definition" | "lambda")
}

/// Whether a file's text spells `tqdm`, a carriage return (`"\\r"`) or `input(`: a function of
/// it may report its progress on a terminal or prompt its operator (see `reports_progress`).
/// (The searchers are built once: building one per file cost more than the search.)
fn may_report_progress(text: &[u8]) -> bool {
    use memchr::memmem::Finder;
    use std::sync::LazyLock;
    static TQDM: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"tqdm"));
    static CR: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\\r"));
    static INPUT: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"input("));
    TQDM.find(text).is_some() || CR.find(text).is_some() || INPUT.find(text).is_some()
}

/// Whether the text `t` of a function calls Python's `input(..)` or `raw_input(..)`, which read
/// a line an operator types (not a method or another function named so: `form.input(..)`,
/// `get_input(..)`).
fn prompts_operator(t: &[u8]) -> bool {
    memchr::memmem::find_iter(t, b"input(").any(|i| {
        let before = &t[..i];
        let before = before.strip_suffix(b"raw_").unwrap_or(before);
        !before
            .last()
            .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ir(src: &str) -> FileIr {
        ir_at(src, "app/service.py")
    }

    fn ir_at(src: &str, path: &str) -> FileIr {
        crate::lang::extract(
            crate::ir::Language::Python,
            src,
            &FileContext { display_path: path },
        )
        .unwrap()
    }

    fn at(src: &str, sp: Span) -> &str {
        &src[sp.start as usize..sp.end as usize]
    }

    fn coll(op: &Operation) -> String {
        op.collection_display()
    }

    /// A method that returns the collection its first argument after `self` names (hyphe's
    /// `def _get_coll(self, name): return self.database[name]`) is a collection factory, as a
    /// function is: `self._get_coll("logs").find(..)` is on `logs`. A method that returns another
    /// value by that name is not.
    #[test]
    fn a_collection_factory_method_names_the_collection() {
        let src = r#"
from pymongo import MongoClient
class Store(object):
    def __init__(self):
        self.database = MongoClient()["hyphe"]
        self.cache = {}
    def _get_coll(self, name):
        return self.database[name]
    def _cached(self, name):
        return self.cache[name]
    def init(self):
        self._get_coll("logs").create_index([("timestamp", 1)])
    def list_logs(self, job):
        logs = self._get_coll("logs")
        return logs.find({"_job": job})
    def other(self, k):
        return self._cached("logs").find({"k": k})
"#;
        let got: Vec<(String, String)> = ir(src)
            .operations
            .iter()
            .map(|o| (o.method.clone(), coll(o)))
            .collect();
        assert_eq!(got[0], ("create_index".into(), "logs".into()), "{got:?}");
        assert_eq!(got[1], ("find".into(), "logs".into()), "{got:?}");
        assert!(got[2..].iter().all(|g| g.1 != "logs"), "{got:?}");
    }

    /// pymongo's `create_index(keys, **kwargs)` takes one positional argument: Elasticsearch's
    /// `es.create_index('localities', settings)` in a file that uses MongoDB is no index.
    #[test]
    fn a_create_index_with_two_positional_arguments_is_another_librarys() {
        let src = r#"from pymongo import MongoClient
db = MongoClient().app
db.alerts.create_index([("utcepoch", -1)], background=True)
db.alerts.create_index("esmetadata.id", unique=True)
def setup(self, settings):
    self.es.create_index('localities', settings)
"#;
        let got: Vec<(String, String)> = ir(src)
            .operations
            .iter()
            .map(|o| (o.method.clone(), coll(o)))
            .collect();
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(got.iter().all(|g| g.1 == "alerts"), "{got:?}");
    }

    /// A name compared with a string by an `if` or `elif` around the use is that string there
    /// (mnemosyne's `for collection, doc in item.items(): if collection is 'url': ..
    /// self.db[collection].update(..)`); not under `!=`, nor in the `else`.
    #[test]
    fn a_name_compared_with_a_string_names_the_collection_in_its_branch() {
        let src = r#"from pymongo import MongoClient
db = MongoClient().app
def save(item):
    for collection, doc in item.items():
        if collection is 'url':
            db[collection].update_one({"url": doc["url"]}, {"$set": doc})
        elif collection == "file":
            db[collection].update_one({"h": doc["h"]}, {"$set": doc})
        else:
            db[collection].insert_one(doc)
        if collection != "x":
            db[collection].delete_one({"a": 1})
"#;
        let got: Vec<String> = ir(src).operations.iter().map(coll).collect();
        assert_eq!(got, ["url", "file", "<unknown>", "<unknown>"], "{got:?}");
    }

    /// An index call without keys (`self.ensure_index()`, the application's set-up method) or
    /// through `self` to a method the file defines (mnemosyne's `MnemoDB.ensure_index`) is no
    /// driver's index: taken for one on a collection named at run time, it held back
    /// unindexed-query for every collection.
    #[test]
    fn an_own_index_method_is_no_index() {
        let src = r#"from pymongo import MongoClient
class Store(object):
    def __init__(self):
        self.db = MongoClient()["app"]
        self.ensure_index()
        self.create_index(("a", 1))

    def ensure_index(self):
        self.db.events.ensure_index([("normalized", 1), ("last_error", 1)])

    def create_index(self, keys):
        pass

    def errors(self):
        return self.db.events.find({"last_error": {"$exists": 1}}).count()

def other(coll, name):
    coll.create_index(name)
"#;
        let got: Vec<(String, String)> = ir(src)
            .operations
            .iter()
            .filter(|o| o.kind == OpKind::CreateIndex)
            .map(|o| (o.method.clone(), coll(o)))
            .collect();
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[0], ("ensure_index".into(), "events".into()), "{got:?}");
        assert_eq!(got[1].0, "create_index", "{got:?}");
        // Without the dynamic index of `other`, nothing holds the rule back.
        let own = src.split("def other").next().unwrap();
        let (_, found) =
            crate::analysis::check_source("store.py", own, &Default::default()).unwrap();
        assert!(
            found.iter().any(|f| f.rule == "unindexed-query"),
            "{found:?}"
        );
    }

    /// An application's `collection(name)` wrapper names the collection in a file that uses
    /// MongoDB (BigchainDB's `conn.collection("transactions")`), and nowhere else.
    #[test]
    fn an_application_collection_getter_names_the_collection() {
        let src = r#"
from pymongo import DESCENDING

def get_transaction(conn, transaction_id):
    return conn.run(conn.collection("transactions").find_one({"id": transaction_id}, {"_id": 0}))

def spent(conn, txid):
    return conn.run(conn.collection("transactions").find({"inputs.fulfills.transaction_id": txid}).sort("height", DESCENDING))
"#;
        let ir = ir(src);
        let got: Vec<(String, String)> = ir
            .operations
            .iter()
            .map(|o| (o.method.clone(), coll(o)))
            .collect();
        assert_eq!(
            got,
            vec![
                ("find_one".into(), "transactions".into()),
                ("find".into(), "transactions".into())
            ]
        );
        let without_mongo = src.replace("from pymongo import DESCENDING", "DESCENDING = -1");
        let ir = self::ir(&without_mongo);
        assert!(
            ir.operations.iter().all(|o| coll(o) != "transactions"),
            "{:?}",
            ir.operations
        );
    }

    /// Eve's data layer hands out its `PyMongo` object and its collections (superdesk's
    /// `app.data.mongo.pymongo("desks").db["desks"]`, `app.data.get_mongo_collection("x")`): the
    /// collections they name, with or without operators in the filter. Other getters and other
    /// `pymongo` attributes name nothing.
    #[test]
    fn an_eve_data_layer_names_its_collections() {
        let src = r#"
from flask import current_app as app

def remove_restriction(set_id):
    desks_db = app.data.mongo.pymongo("desks").db["desks"]
    for desk in desks_db.find({"sams_settings.allowed_sets": set_id}):
        print(desk)

def attachments(asset_id):
    db_attachments = app.data.get_mongo_collection("attachments")
    return db_attachments.find({"media": str(asset_id)})

def users():
    return app.data.pymongo().db.users.find_one({"username": "x"})

def resource(name):
    return app.data.get_mongo_collection(name).find_one({"_id": 1})

def not_mongo(name):
    return app.data.get_elastic_collection("items").find({"a": 1})

def all_names():
    return app.data.get_mongo_collections("items").find({"a": 1})
"#;
        let ir = ir(src);
        let got: Vec<(String, String)> = ir
            .operations
            .iter()
            .map(|o| (o.method.clone(), coll(o)))
            .collect();
        assert_eq!(
            got,
            vec![
                ("find".into(), "desks".into()),
                ("find".into(), "attachments".into()),
                ("find_one".into(), "users".into()),
                ("find_one".into(), "<unknown>".into()),
            ],
            "{:?}",
            ir.operations
        );
    }

    /// The `db` (or `database`) attribute of a database-like wrapper is its database, not a
    /// collection named `db`: mirror-leech's `database.db.settings.config` is the collection
    /// `settings.config`, IVRE's `self._db.db[name]` a collection named at run time.
    #[test]
    fn the_db_of_a_database_wrapper_is_the_database() {
        let src = r#"
from bot.helper.ext_utils.db_handler import database

async def load():
    return await database.db.settings.config.find_one({"_id": 1})

class MongoDB:
    def hosts(self, name):
        return self._db.db[name].find_one({"addr": 1})
"#;
        let ir = ir(src);
        let got: Vec<String> = ir.operations.iter().map(coll).collect();
        assert_eq!(
            got,
            vec!["settings.config", "<unknown>"],
            "{:?}",
            ir.operations
        );
    }

    /// A table of indexes walked by a loop that creates each (Sefaria's `ensure_indices`): each
    /// row is a declaration where it is written, with its options.
    #[test]
    fn a_table_of_indexes_walked_by_a_loop_declares_each_row() {
        let src = r#"
import pymongo
from app import db

def ensure_indices(active_db=None):
    active_db = active_db or db
    indices = [
        ('groups', ["slug"], {'unique': True}),
        ('messages', [[("room_id", pymongo.ASCENDING), ("timestamp", pymongo.DESCENDING)]], {}),
        (name, ["x"], {}),
    ]
    for col, args, kwargs in indices:
        getattr(active_db, col).create_index(*args, **kwargs)
"#;
        let ir = ir(src);
        let got: Vec<(String, String, bool)> = ir
            .operations
            .iter()
            .map(|o| {
                (
                    coll(o),
                    at(src, o.filter.as_ref().unwrap().span).to_string(),
                    o.options
                        .as_ref()
                        .is_some_and(|v| v.get("unique").is_some()),
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                ("groups".into(), "\"slug\"".into(), true),
                (
                    "messages".into(),
                    "[(\"room_id\", pymongo.ASCENDING), (\"timestamp\", pymongo.DESCENDING)]"
                        .into(),
                    false
                ),
            ]
        );
    }

    /// A function of this file that creates the index its parameters describe (pritunl's
    /// `upsert_index(coll_name, index, **kwargs)`): each call with a collection name written out
    /// is a declaration, where it is written, with the call's keyword options.
    #[test]
    fn an_index_helper_of_this_file_declares_the_indexes_it_is_called_with() {
        let src = r#"
import pymongo
from app import mongo

def upsert_index(coll_name, index, **kwargs):
    coll = mongo.get_collection(coll_name)
    try:
        coll.create_index(index, **kwargs)
    except Exception:
        coll.create_index(index, **kwargs)

def upsert_indexes(name):
    upsert_index('tasks', [('ttl_timestamp', pymongo.ASCENDING)], background=True)
    upsert_index(coll_name='logs', index='timestamp', unique=True)
    upsert_index(name, 'other')
"#;
        let ir = ir(src);
        let got: Vec<(String, String, String, bool)> = ir
            .operations
            .iter()
            .map(|o| {
                (
                    o.method.clone(),
                    coll(o),
                    at(src, o.filter.as_ref().unwrap().span).to_string(),
                    o.options
                        .as_ref()
                        .is_some_and(|v| v.get("unique").is_some()),
                )
            })
            .collect();
        // The helper's own `create_index`, on the collection its caller names, is not kept; a
        // call that names no collection declares nothing.
        assert_eq!(
            got,
            vec![
                (
                    "upsert_index".into(),
                    "tasks".into(),
                    "[('ttl_timestamp', pymongo.ASCENDING)]".into(),
                    false
                ),
                (
                    "upsert_index".into(),
                    "logs".into(),
                    "'timestamp'".into(),
                    true
                ),
            ]
        );
    }

    /// The application's own MongoDB module, imported into a file that does not import pymongo
    /// (pritunl's `from pritunl import mongo`): its `get_collection("clients")` names the
    /// collection. A module merely containing the letters (`feedback`) does not.
    #[test]
    fn a_getter_of_the_applications_mongo_module_names_the_collection() {
        let src = r#"
from myapp import mongo

def host_stats(host_ids):
    clients = mongo.get_collection("clients")
    return [clients.distinct("user_id", {"host_id": h}) for h in host_ids]
"#;
        let ir = ir(src);
        let got: Vec<String> = ir.operations.iter().map(coll).collect();
        assert_eq!(got, vec!["clients".to_string()]);
        let other = src
            .replace("import mongo", "import feedback as mongo_x")
            .replace("mongo.get_collection", "mongo_x.get_collection");
        let ir = self::ir(&other);
        assert!(
            ir.operations.iter().all(|o| coll(o) != "clients"),
            "{:?}",
            ir.operations
        );
    }

    /// Attributes assigned from one another (`self.node = self.node.parent`, `self.book =
    /// self.node.title`, as in Sefaria's 6,600-line `text.py`) are each classified once per use,
    /// not once per path through their assignments: with twelve such attributes assigned eight
    /// times each, the old exploration would not finish. A real collection attribute in the same
    /// class still resolves.
    #[test]
    fn attributes_assigned_from_each_other_are_classified_once() {
        let names: Vec<String> = (0..12).map(|i| format!("a{i}")).collect();
        let mut body = String::new();
        for round in 0..8 {
            body.push_str(&format!("    def step{round}(self):\n"));
            for (i, n) in names.iter().enumerate() {
                let next = &names[(i + 1 + round) % names.len()];
                body.push_str(&format!("        self.{n} = self.{next}.parent\n"));
            }
        }
        let src = format!(
            "from pymongo import MongoClient\n\nclass Ref:\n    def __init__(self):\n        \
             self.orders = MongoClient().shop.orders\n{body}    def load(self, oid):\n        \
             node = self.a0.child\n        return self.orders.find_one({{'_id': oid}})\n"
        );
        let ir = ir(&src);
        let got: Vec<(String, String)> = ir
            .operations
            .iter()
            .map(|o| (o.method.clone(), coll(o)))
            .collect();
        assert_eq!(got, vec![("find_one".into(), "orders".into())]);
    }

    #[test]
    fn resolves_receivers() {
        let src = r#"
from pymongo import MongoClient
client = MongoClient()
db = client.get_database("shop")
ORDERS = "orders"

class Repo:
    def __init__(self, database):
        self.items = database["items"]
        self.orders = db[ORDERS]

    def run(self):
        self.orders.find_one({"_id": 1})
        self.items.update_one({"_id": 1}, {"$set": {"a": 1}})

db.orders.find({"a": 1})
client.shop.carts.find({})
client["shop"]["sessions"].delete_one({"_id": 1})
db.get_collection("users").count_documents({})
db.settings.config.update_one({"_id": 1}, {"$set": {"x": 1}})
"#;
        let ir = ir(src);
        let got: Vec<(String, String, Evidence)> = ir
            .operations
            .iter()
            .map(|o| (o.method.clone(), coll(o), o.evidence))
            .collect();
        assert_eq!(
            got,
            vec![
                ("find_one".into(), "orders".into(), Evidence::Resolved),
                // An untyped parameter named like a database, in a file that imports pymongo.
                ("update_one".into(), "items".into(), Evidence::Resolved),
                ("find".into(), "orders".into(), Evidence::Resolved),
                ("find".into(), "carts".into(), Evidence::Resolved),
                ("delete_one".into(), "sessions".into(), Evidence::Resolved),
                ("count_documents".into(), "users".into(), Evidence::Resolved),
                (
                    "update_one".into(),
                    "settings.config".into(),
                    Evidence::Resolved
                ),
            ]
        );
    }

    #[test]
    fn typed_parameters_and_arbitrary_attributes() {
        let src = r#"
from pymongo.database import Database
from motor.motor_asyncio import AsyncIOMotorCollection

def a(db: Database, page):
    return db.orders.find({}).skip(page)

async def b(coll: AsyncIOMotorCollection):
    return await coll.aggregate([{"$match": {}}]).to_list(None)

def c(x):
    return x.orders.find({"a": 1})
"#;
        let ir = ir(src);
        assert_eq!(ir.operations.len(), 2);
        assert_eq!(coll(&ir.operations[0]), "orders");
        assert_eq!(ir.operations[0].evidence, Evidence::Resolved);
        assert_eq!(ir.operations[1].evidence, Evidence::Resolved);
        assert_eq!(ir.operations[1].modifiers[0].name, "to_list");
    }

    #[test]
    fn keyword_options_become_modifiers() {
        let src = "def f(db, page):\n    return db.orders.find({'a': 1}, skip=page * 20, limit=20, sort=[('created_at', -1)], projection={'x': 0})\n";
        let ir = ir_at(src, "x.py");
        // `db` is a parameter in a file that does not import pymongo: the receiver stays unknown,
        // and the `skip` option on a `find` is what makes it a driver call.
        assert_eq!(ir.operations[0].evidence, Evidence::Shaped);
        assert!(ir.operations[0].collection.is_none());
        let src = format!("import pymongo\n{src}");
        let ir = ir_at(&src, "x.py");
        let op = &ir.operations[0];
        let names: Vec<&str> = op.modifiers.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["skip", "limit", "sort", "projection"]);
        assert!(at(&src, op.modifiers[0].span).starts_with("skip=page"));
        assert_eq!(
            op.modifiers[2].args[0].items()[0].items()[1].as_number(),
            Some(-1.0)
        );
    }

    /// Options in a dictionary the call splats: written in its literal, or set on it before the
    /// call (eve's `args["skip"] = (req.page - 1) * req.max_results; target.find(**args)`).
    #[test]
    fn keyword_options_in_a_splatted_dict_become_modifiers() {
        let src = r#"
import pymongo
def page(db, req):
    args = {"limit": req.max_results}
    if req.page > 1:
        args["skip"] = (req.page - 1) * req.max_results
    return db.items.find(**args)
def other(db, args):
    return db.items.find(**args)
def both(db, n, opts):
    return db.items.find({}, skip=n, **opts)
"#;
        let ir = ir(src);
        let names = |i: usize| -> Vec<String> {
            let op = &ir.operations[i];
            op.modifiers.iter().map(|m| m.name.clone()).collect()
        };
        let mut got = names(0);
        got.sort();
        assert_eq!(got, ["limit", "skip"]);
        let skip = ir.operations[0]
            .modifiers
            .iter()
            .find(|m| m.name == "skip")
            .unwrap();
        assert!(at(src, skip.span).starts_with("\"skip\"] = (req.page"));
        // A dict given by the caller says nothing; a keyword written beside it is read once.
        assert!(names(1).is_empty());
        assert_eq!(names(2), ["skip"]);
    }

    /// A dictionary the call splats that a condition picks (`{"skip": .., "limit": ..} if
    /// page_break else {}`, full-stack-fastapi-mongodb's token reads) passes the options of the
    /// branch that has them, written in the call or through a name bound to it.
    #[test]
    fn keyword_options_in_a_conditional_splatted_dict_become_modifiers() {
        let src = r#"
import pymongo
def tokens(db, user_id, page, page_break):
    offset = {"skip": page * 20, "limit": 20} if page_break else {}
    return db.token.find({"authenticates_id": user_id}, **offset)
def inline(db, page, paged):
    return db.token.find({}, **({} if not paged else {"skip": page * 20}))
"#;
        let ir = ir(src);
        let names = |i: usize| -> Vec<String> {
            let op = &ir.operations[i];
            op.modifiers.iter().map(|m| m.name.clone()).collect()
        };
        assert_eq!(names(0), ["skip", "limit"]);
        assert_eq!(names(1), ["skip"]);
        assert!(at(src, ir.operations[0].modifiers[0].span).starts_with("\"skip\": page * 20"));
    }

    #[test]
    fn cursor_chains_and_cursor_variables() {
        let src = r#"
import pymongo
def f(db, n):
    cur = db.orders.find({})
    cur = cur.sort("a", pymongo.DESCENDING)
    cur = cur.skip(n).limit(10)
    return db.users.find({}).sort("a", 1).skip(n * 2).limit(5)
"#;
        let ir = ir(src);
        let mods = |i: usize| -> Vec<String> {
            ir.operations[i]
                .modifiers
                .iter()
                .map(|m| m.name.clone())
                .collect()
        };
        assert_eq!(mods(0), ["sort", "skip", "limit"]);
        assert_eq!(mods(1), ["sort", "skip", "limit"]);
        assert_eq!(at(src, ir.operations[1].modifiers[1].span), "skip(n * 2)");
    }

    /// A mongoengine QuerySet bound to a name and narrowed in statements of its own, then sliced
    /// (st2's `result = self.model.objects(**filters)` … `result = result.order_by(..)`,
    /// `result = result[offset:eop]`): a read paged with skip and limit, as the slice on the
    /// chain itself is. A slice of a list is none.
    #[test]
    fn a_queryset_name_sliced_is_a_paged_read() {
        let src = r#"
import mongoengine as me
class Ticket(me.Document):
    title = me.StringField()
def page(filters, offset, size, order):
    rows = Ticket.objects(**filters)
    rows = rows.order_by(*order)
    rows = rows[offset:offset + size]
    return rows
def head(items, offset):
    return items[offset:offset + 3]
"#;
        let ir = ir(src);
        let paged: Vec<(String, Vec<String>)> = ir
            .operations
            .iter()
            .filter(|o| o.modifiers.iter().any(|m| m.name == "skip"))
            .map(|o| {
                let mods = o.modifiers.iter().map(|m| at(src, m.span).to_string());
                (o.method.clone(), mods.collect())
            })
            .collect();
        assert_eq!(
            paged,
            [(
                "objects".to_string(),
                vec!["offset:offset + size".to_string()]
            )]
        );
    }

    /// A Django model sliced in a module that also uses pymongo (kobotoolbox's `remongo` command:
    /// `ParsedInstance.objects.all().order_by('pk')[start:end]` beside
    /// `settings.MONGO_DB.instances.create_index(..)`) is SQL `OFFSET`, no mongoengine read: a
    /// slice is both ODMs' paging, so it is no evidence. A `.skip(..)` call is mongoengine's alone.
    #[test]
    fn a_sliced_django_queryset_is_no_mongo_read() {
        let src = r#"
from django.conf import settings
from pymongo import MongoClient
from myapp.models import ParsedInstance, Post
def reparse(start, end):
    for pi in ParsedInstance.objects.all().order_by('pk')[start:end]:
        pi.save()
    MongoClient().db.instances.create_index('_userform_id')
def page(offset):
    return list(Post.objects(author="a").skip(offset).limit(10))
"#;
        let ir = ir(src);
        let reads: Vec<(&str, Evidence)> = ir
            .operations
            .iter()
            .filter(|o| o.modifiers.iter().any(|m| m.name == "skip"))
            .map(|o| (at(src, o.span), o.evidence))
            .collect();
        // The slice stays a read of the imported model, for the linker to confirm if the model
        // turns out to be a mongoengine Document; the file alone gives it no evidence.
        assert_eq!(
            reads,
            [
                (
                    "ParsedInstance.objects.all().order_by('pk')[start:end]",
                    Evidence::None
                ),
                (
                    "Post.objects(author=\"a\").skip(offset).limit(10)",
                    Evidence::Shaped
                )
            ]
        );
    }

    /// flask-mongoengine pages a queryset by slicing it at `(page - 1) * per_page`: its
    /// `qs.paginate(page=page, per_page=n)` and `Pagination(qs, page, per_page)` are offset paging
    /// by a page number (scieloorg/opac's article list), reported as the page they are given; the
    /// first page (`page=1`) is not paging.
    #[test]
    fn flask_mongoengine_pages_by_slicing() {
        let src = r#"from flask import request
from flask_mongoengine import Pagination
from mongoengine import Document, StringField, DateTimeField

class Article(Document):
    pid = StringField()
    updated = DateTimeField()

def paged(begin, page, per_page):
    return Pagination(Article.objects(updated__gte=begin).order_by("pid"), page, per_page)

def paged2(begin):
    page = request.args.get("page", 1, type=int)
    return Article.objects(updated__gte=begin).order_by("pid").paginate(page=page, per_page=20)

def first_page():
    return Article.objects.order_by("pid").paginate(page=1, per_page=20)

def by_dates(begin, end, page=1, per_page=100):
    articles = Article.objects(updated__gte=begin, updated__lte=end).order_by("pid")
    return Pagination(articles, page, per_page)
"#;
        let (_, findings) = crate::analysis::check_source(
            "opac/controllers.py",
            src,
            &crate::rules::Settings::default(),
        )
        .unwrap();
        let got: Vec<(usize, &str)> = findings
            .iter()
            .filter(|f| f.rule == "skip-paging")
            .map(|f| {
                (
                    src[..f.span.start as usize].lines().count(),
                    f.message.as_str(),
                )
            })
            .collect();
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!((got[0].0, got[1].0, got[2].0), (10, 14, 21), "{got:?}");
        assert!(
            got.iter().all(|(_, m)| m.contains("on `article`")
                && m.contains("(page `page`, turned into a skip")),
            "{got:?}"
        );
    }

    /// pymongo's cursor methods change the cursor, so paging may be spelled in statements of their
    /// own on a cursor variable (superdesk's `cursor.skip(skip)` then `cursor.limit(size)` on a
    /// cursor from an application service): read as one paged read. A `skip` alone, or the two
    /// on different names, pages nothing.
    #[test]
    fn a_cursor_paged_in_separate_statements() {
        let src = r#"
import pymongo
def page(service, size, n):
    for x in range(n):
        cursor = service.get_from_mongo(None, {})
        cursor.skip(x * size)
        cursor.limit(size)
        yield list(cursor)
def other(a, b, n):
    a.skip(n)
    b.limit(10)
    pytest.skip("no data")
"#;
        let ir = ir(src);
        assert_eq!(ir.operations.len(), 1, "{:#?}", ir.operations);
        let op = &ir.operations[0];
        assert_eq!(at(src, op.span), "cursor.skip(x * size)");
        assert_eq!(op.modifiers[0].name, "skip");
        assert!(op.context.enclosing_loop.is_some());
        // End to end: the rule reads the computed skip as offset paging.
        let (_, findings) = crate::analysis::check_source(
            "app/service.py",
            src,
            &crate::rules::Settings::default(),
        )
        .unwrap();
        let ids: Vec<&str> = findings.iter().map(|f| f.rule).collect();
        assert_eq!(ids, ["skip-paging"], "{findings:#?}");
    }

    /// A pipeline returned by a module function or a method of the calling class is read as if
    /// written at the call; the helper's `$skip` stage is the finding, once. A constant skip, a
    /// method of another class and a list the helper builds step by step are not read as paging.
    #[test]
    fn pipelines_returned_by_helpers_of_the_file() {
        let check = |src: &str| -> Vec<(String, String)> {
            crate::analysis::check_source("app/reports.py", src, &crate::rules::Settings::default())
                .unwrap()
                .1
                .iter()
                .map(|f| (f.rule.to_string(), at(src, f.span).to_string()))
                .collect()
        };
        let src = r#"
from pymongo import MongoClient
db = MongoClient().shop

def paginate(page, size):
    return [{"$skip": (page - 1) * size}, {"$limit": size}]

def orders(customer, page):
    return list(db.orders.aggregate([{"$match": {"customer": customer}}, *paginate(page, 20)]))

def invoices(customer, page):
    pipeline = paginate(page, 50)
    return list(db.invoices.aggregate(pipeline))

class Reports:
    def _pipeline(self, query, offset):
        return [{"$match": query}, {"$facet": {"items": [{"$skip": offset}, {"$limit": 20}]}}]

    def run(self, query, offset):
        return list(db.reports.aggregate(self._pipeline(query, offset)))
"#;
        assert_eq!(
            check(src),
            vec![
                ("skip-paging".to_string(), "\"$skip\"".to_string()),
                ("skip-paging".to_string(), "\"$skip\"".to_string()),
            ]
        );
        let src = r#"
from pymongo import MongoClient
db = MongoClient().shop

def first_page():
    return [{"$skip": 0}, {"$limit": 20}]

def build(options):
    pipeline = [{"$match": {}}]
    if options.get("paged"):
        pipeline.append({"$skip": options["offset"]})
    return pipeline

class Other:
    def _pipeline(self, offset):
        return [{"$skip": offset}]

class Reports:
    def run(self, other):
        db.a.aggregate(first_page())
        db.b.aggregate(build({}))
        return db.c.aggregate(other._pipeline(10))
"#;
        assert_eq!(check(src), vec![]);
    }

    #[test]
    fn bulk_models_are_operations() {
        let src = r#"
from pymongo import UpdateOne, InsertOne, MongoClient
coll = MongoClient().shop.orders
def f(items):
    ops = [InsertOne({"a": 1})]
    for it in items:
        ops.append(UpdateOne({"_id": it}, {"$push": {"log": it}}, upsert=True))
    coll.bulk_write(ops)
"#;
        let ir = ir(src);
        assert_eq!(ir.operations.len(), 2);
        let up = &ir.operations[1];
        assert_eq!(up.kind, OpKind::UpdateOne);
        assert!(up.in_bulk);
        assert_eq!(at(src, up.method_span), "UpdateOne");
        assert!(at(src, up.span).starts_with("UpdateOne("));
        assert_eq!(coll(up), "orders");
        assert!(up.context.enclosing_loop.is_some());
        assert!(up.update.as_ref().unwrap().get("$push").is_some());
    }

    #[test]
    fn pipelines_built_incrementally() {
        let src = r#"
from pymongo import MongoClient
db = MongoClient().shop
def f(skip):
    pipeline = [{"$match": {}}]
    pipeline.append({"$lookup": {"from": "a"}})
    pipeline.extend([{"$skip": skip}])
    pipeline += [{"$lookup": {"from": "b"}}]
    pipeline.insert(0, {"$sort": {"x": 1}})
    return db.orders.aggregate(pipeline)
"#;
        let ir = ir(src);
        let stages: Vec<String> = ir.operations[0]
            .pipeline
            .as_ref()
            .unwrap()
            .iter()
            .map(|s| s.fields()[0].key.clone())
            .collect();
        assert_eq!(stages, ["$sort", "$match", "$lookup", "$skip", "$lookup"]);
    }

    /// NewsBlur's `MONGO_DB = settings.MONGO_DB`, a dict of connection settings named like a
    /// database: `MONGO_DB["HOST"]` in `connect(..)` is no collection; `db["users"]` of a
    /// database setting still is one.
    #[test]
    fn connection_settings_are_not_collections() {
        let src = "import mongoengine
from django.conf import settings
MONGO_DB = settings.MONGO_DB
db = mongoengine.connect(MONGO_DB[\"NAME\"], host=MONGO_DB[\"HOST\"], port=MONGO_DB['port'])
settings.MONGO_DB[\"users\"].find_one({\"a\": 1})
";
        let names: Vec<String> = ir(src)
            .collections
            .iter()
            .map(|c| match &c.name {
                CollectionName::Literal { name } => name.clone(),
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(names, ["users"]);
    }

    fn holes(ir: &FileIr) -> Vec<Vec<HoleKind>> {
        ir.collections
            .iter()
            .map(|c| match &c.name {
                CollectionName::Template { parts } => parts
                    .iter()
                    .filter_map(|p| match p {
                        NamePart::Hole { hole, .. } => Some(*hole),
                        _ => None,
                    })
                    .collect(),
                _ => vec![],
            })
            .collect()
    }

    #[test]
    fn dynamic_names() {
        let src = r#"
import os
from pymongo import MongoClient
db = MongoClient().shop
def f(day, tenant_id, user_id, org_id, name, now):
    db[f"events_{day}"]
    db["t_%s" % tenant_id]
    db.get_collection("u_{}".format(user_id))
    db["o_" + org_id]
    db[now.strftime("m_%Y%m")]
    db[os.environ["X"] + "_x"]
    db[name]
    db["plain"]
"#;
        let ir = ir(src);
        use HoleKind::*;
        assert_eq!(
            holes(&ir),
            vec![
                vec![Date],
                vec![Entity],
                vec![Entity],
                vec![Entity],
                vec![Date],
                vec![Config],
                // A lone parameter is not a template: an unknown name, never flagged.
                vec![],
                vec![],
            ]
        );
        // The span is the name expression.
        assert_eq!(at(src, ir.collections[0].span), "f\"events_{day}\"");
    }

    /// A name built by a helper of the module or a method of the class (pyspider's
    /// `self.database[self._collection_name(project)]`): the helper's template, its holes
    /// spelt with the helper's parameters. A helper that returns its parameter as it is names
    /// no template.
    #[test]
    fn dynamic_names_built_by_a_helper() {
        let src = r#"
import pymongo
def table(day):
    return "events_%s" % day
class ResultDB(object):
    def __init__(self, url):
        self.database = pymongo.MongoClient(url).get_database("resultdb")
    def _collection_name(self, project):
        if self.collection_prefix:
            return "%s.%s" % (self.collection_prefix, project)
        return project
    def _plain(self, name):
        return name
    def save(self, project, taskid, result):
        self.database[self._collection_name(project)].update_one({"taskid": taskid}, {"$set": {"r": result}})
        self.database[self._plain(project)].find_one({})
        self.database[table(project)].insert_one({"a": 1})
"#;
        let ir = ir(src);
        let names: Vec<String> = ir.collections.iter().map(|c| c.name.display()).collect();
        assert_eq!(
            names,
            [
                "{self.collection_prefix}.{project}",
                "<unknown>",
                "events_{day}"
            ]
        );
        use HoleKind::*;
        assert_eq!(holes(&ir), vec![vec![Unknown, Entity], vec![], vec![Date]]);
    }

    /// GridFS's `db.fs.files` names the collection `fs.files`; its prefix `db.fs` is no
    /// collection the code uses. `db.fs` called on (`db.fs.find(..)`) is the collection `fs`.
    #[test]
    fn a_sub_collection_s_prefix_is_no_collection() {
        let src = r#"import pymongo
db = pymongo.MongoClient()["cuckoo"]
db.fs.files.ensure_index("sha256", unique=True, sparse=True)
def existing(sha):
    return db.fs.files.find_one({"sha256": sha})
def chunks(fid):
    return db.fs.chunks.find({"files_id": fid}), db.fs.find({"f": fid})
"#;
        let names: Vec<String> = ir(src)
            .collections
            .iter()
            .map(|c| c.name.display())
            .collect();
        assert_eq!(names, ["fs.files", "fs.files", "fs.chunks", "fs"]);
    }

    #[test]
    fn mongoengine() {
        let src = r#"
from mongoengine import Document, StringField, ListField

class BlogPost(Document):
    tags = ListField(StringField())
    meta = {"indexes": ["-created", ("author", "title")]}

class Author(Document):
    meta = {"collection": "people"}

def f(pid, offset, c):
    BlogPost.objects(id=pid).update_one(push__comments=c, inc__views=1)
    BlogPost.objects(author="x").order_by("-created").skip(offset).limit(10)
    Author.objects.get(id=pid).update(dec__karma=1)
"#;
        let ir = ir(src);
        let ops: Vec<&Operation> = ir.operations.iter().collect();
        let idx: Vec<&&Operation> = ops
            .iter()
            .filter(|o| o.kind == OpKind::CreateIndex)
            .collect();
        assert_eq!(idx.len(), 2);
        assert_eq!(coll(idx[0]), "blog_post");
        assert_eq!(idx[1].filter.as_ref().unwrap().fields().len(), 2);
        let up = ops.iter().find(|o| o.method == "update_one").unwrap();
        let update = up.update.as_ref().unwrap();
        let push = update.get("$push").unwrap();
        assert_eq!(at(src, push.key_span), "push__comments");
        assert_eq!(push.value.fields()[0].key, "comments");
        assert_eq!(
            update.get("$inc").unwrap().value.fields()[0]
                .value
                .as_number(),
            Some(1.0)
        );
        assert_eq!(up.filter.as_ref().unwrap().fields()[0].key, "_id");
        let find = ops.iter().find(|o| o.method == "objects").unwrap();
        assert_eq!(
            find.modifiers
                .iter()
                .map(|m| m.name.as_str())
                .collect::<Vec<_>>(),
            ["sort", "skip", "limit"]
        );
        assert_eq!(find.filter.as_ref().unwrap().fields()[0].key, "author");
        let dec = ops.iter().find(|o| o.method == "update").unwrap();
        assert_eq!(coll(dec), "people");
        let inc = &dec
            .update
            .as_ref()
            .unwrap()
            .get("$inc")
            .unwrap()
            .value
            .fields()[0];
        assert_eq!(inc.value.as_number(), Some(-1.0));
        assert_eq!(mongoengine_collection_name("BlogPost"), "blog_post");
    }

    /// The keys of a filter, nested documents and `$or` alternatives spelt out: `a`,
    /// `b.$gt`, `$or[c|d]`.
    fn filter_keys(op: &Operation) -> Vec<String> {
        fn keys(v: &Value, prefix: &str, out: &mut Vec<String>) {
            for f in v.fields() {
                match &f.value.kind {
                    ValueKind::Array(alts) if f.key == "$or" => {
                        let alts: Vec<String> = alts
                            .iter()
                            .map(|a| {
                                let mut inner = Vec::new();
                                keys(a, "", &mut inner);
                                inner.join(",")
                            })
                            .collect();
                        out.push(format!("{prefix}$or[{}]", alts.join("|")));
                    }
                    ValueKind::Document(_) => keys(&f.value, &format!("{prefix}{}.", f.key), out),
                    _ => out.push(format!("{prefix}{}", f.key)),
                }
            }
        }
        let mut out = Vec::new();
        if let Some(f) = &op.filter {
            keys(f, "", &mut out);
        }
        out
    }

    /// mongoengine's `not` negates the operator after it and is no part of the field's path:
    /// `name__not__in=x` is `{name: {$not: {$in: x}}}`, not a filter on `name.not`.
    #[test]
    fn mongoengine_not_negates_the_next_operator() {
        let src = r#"
from mongoengine import Document, StringField

class Dash(Document):
    name = StringField()

def reads(x, a):
    Dash.objects(name__not__in=x)
    Dash.objects(analyst__not__exists=1, owner__not__icontains=a)
    Dash.objects(knot__not=a, not__gt=1)
"#;
        let file = ir(src);
        let got: Vec<Vec<String>> = file.operations.iter().map(filter_keys).collect();
        let k = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            got,
            [
                k(&["name.$not.$in"]),
                k(&[
                    "analyst.$not.$exists",
                    "owner.$not.$regex",
                    "owner.$not.$options"
                ]),
                // `not` alone is the operator; a field may be named `not`.
                k(&["knot.$not", "not.$gt"]),
            ]
        );
    }

    /// mongoengine's querysets are read where they are: a called manager, `Q` objects, `get`,
    /// `first` and `delete`, a queryset bound to a name and read later (once), a model reached
    /// through its module, a manager of a model known only at run time.
    #[test]
    fn mongoengine_querysets() {
        let src = r#"
from mongoengine import Document, StringField
from mongoengine.queryset.visitor import Q
from app.db import model

class Post(Document):
    author = StringField()

def reads(a, f, i):
    for p in Post.objects(author=a):
        print(p)
    Post.objects(Q(author=a) & Q(views__gt=3))
    Post.objects(Q(a=1) | Q(b=2) | Q(c__in=[1]))
    Post.objects(**f)
    Post.objects(__raw__={"tags.name": a})
    Post.objects.get(id=i)
    Post.objects(author=a).first()
    Post.objects(author=a).delete()
    Post.objects(author=a).distinct("tags")
    qs = Post.objects(author=a)
    n = qs.count()
    later = Post.objects.filter(author=a)
    later.order_by("-id").first()
    model.Repository.objects(repo_id=i)

class Access:
    def get(self, i):
        return self.model.objects.filter(id=i).only("x").get()

class Tag(Document):
    @classmethod
    def named(cls, n):
        return cls.objects(name=n).first()
"#;
        let file = ir(src);
        let got: Vec<(OpKind, String, usize, Vec<String>)> = file
            .operations
            .iter()
            .map(|o| {
                (
                    o.kind,
                    o.method.clone(),
                    src[..o.span.start as usize].lines().count(),
                    filter_keys(o),
                )
            })
            .collect();
        let k = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            got,
            [
                (OpKind::Find, "objects".into(), 10, k(&["author"])),
                (
                    OpKind::Find,
                    "objects".into(),
                    12,
                    k(&["author", "views.$gt"])
                ),
                (OpKind::Find, "objects".into(), 13, k(&["$or[a|b|c.$in]"])),
                (OpKind::Find, "objects".into(), 14, k(&[])),
                (OpKind::Find, "objects".into(), 15, k(&["tags.name"])),
                (OpKind::FindOne, "get".into(), 16, k(&["_id"])),
                (OpKind::FindOne, "first".into(), 17, k(&["author"])),
                (OpKind::Delete, "delete".into(), 18, k(&["author"])),
                (OpKind::Distinct, "distinct".into(), 19, k(&["author"])),
                // `qs = Post.objects(..)` is read by `qs.count()`, with its filter.
                (OpKind::Count, "count".into(), 21, k(&["author"])),
                (OpKind::FindOne, "first".into(), 23, k(&["author"])),
                (OpKind::Find, "objects".into(), 24, k(&["repo_id"])),
                (OpKind::FindOne, "get".into(), 28, k(&["_id"])),
                (OpKind::FindOne, "first".into(), 33, k(&["name"])),
            ]
        );
        assert_eq!(coll(&file.operations[13]), "tag");
        // `objects(**f)` spells no field: its filter is unknown, not empty.
        let splat = &file.operations[3];
        assert!(matches!(
            splat.filter.as_ref().unwrap().kind,
            ValueKind::Unknown(_)
        ));
        let import = file.operations[11]
            .collection
            .as_ref()
            .unwrap()
            .import
            .clone();
        assert_eq!(import.unwrap().export, "Repository");
        assert!(file.operations[11]
            .collection
            .as_ref()
            .unwrap()
            .import
            .as_ref()
            .unwrap()
            .module
            .ends_with("app/db/model"));
        assert!(matches!(
            file.operations[12].collection.as_ref().unwrap().name,
            CollectionName::Unknown { .. }
        ));

        // Django: a manager of a model the file does not know, in a file without mongoengine.
        let django = ir(r#"
from django.db import models

class Access:
    def get(self, i):
        return self.model.objects.filter(id=i).get()
"#);
        assert!(django.operations.is_empty(), "{:?}", django.operations);
    }

    #[test]
    fn flask_mongoengine_models_and_generic_bases() {
        // udata's shape: `db = MongoEngine()` is mongoengine's namespace, a document's base may be
        // generic (`Document[PostQuerySet]`), and a queryset class adds its own filters.
        let src = r#"
from flask_mongoengine import Document
from udata.models import db

class PostQuerySet(db.QuerySet):
    def visible(self):
        return self(published__ne=None)

class Post(Document[PostQuerySet]):
    name = db.StringField(required=True)
    owner = db.ReferenceField("User", reverse_delete_rule=db.CASCADE)
    id = db.UUIDField(primary_key=True)
    meta = {"indexes": ["name"], "queryset_class": PostQuerySet}

class Tag(db.Document):
    name = db.StringField()

def news():
    db.resolve_model("Post")
    return Post.objects(kind="news").visible().order_by("-published")

def by_name(n):
    return Post.objects(name=n)
"#;
        let file = ir(src);
        let mut names: Vec<String> = file.collections.iter().map(|c| c.name.display()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names, ["post", "tag"]);
        let reads: Vec<(String, Option<bool>)> = file
            .operations
            .iter()
            .filter(|o| o.kind == OpKind::Find)
            .map(|o| (coll(o), o.filter.as_ref().map(|f| f.is_unknown())))
            .collect();
        // The filter of a chain through `visible()` is more than `kind`: not read.
        assert_eq!(
            reads,
            [
                ("post".to_string(), Some(true)),
                ("post".into(), Some(false))
            ]
        );
        let declared: Vec<&str> = file
            .operations
            .iter()
            .filter(|o| o.kind == OpKind::CreateIndex)
            .map(|o| o.method.as_str())
            .collect();
        assert_eq!(declared, ["primary_key", "indexes"]);
    }

    /// A field declared `unique=True`, `unique_with=..` or `primary_key=True` is an index of
    /// its document's collection, unique; other field options are none.
    #[test]
    fn unique_fields_are_indexes() {
        let src = r#"
import mongoengine as me

class Assignment(me.Document):
    user = me.StringField(required=True)
    role = me.StringField(required=True, unique_with=["user", "source"])
    key = me.StringField(unique=True)
    name = me.StringField(primary_key=True)
    site = me.StringField(unique_with="parent__slug")
    note = me.StringField(unique=False)
    email = field(me.StringField(unique=True), readonly=True)
    meta = {"collection": "assignments"}

class Base(me.Document):
    key = me.StringField(unique=True)
    meta = {"abstract": True}
"#;
        let file = ir(src);
        let got: Vec<(String, Vec<String>, String, bool)> = file
            .operations
            .iter()
            .filter(|o| o.kind == OpKind::CreateIndex)
            .map(|o| {
                let unique = o.options.as_ref().and_then(|v| v.get("unique")).is_some();
                let site = at(src, o.method_span).to_string();
                (coll(o), filter_keys(o), site, unique)
            })
            .collect();
        let keys = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            got,
            [
                (
                    "assignments".to_string(),
                    keys(&["role", "user", "source"]),
                    r#"unique_with=["user", "source"]"#.to_string(),
                    true
                ),
                (
                    "assignments".into(),
                    keys(&["key"]),
                    "unique=True".into(),
                    true
                ),
                (
                    "assignments".into(),
                    keys(&["name"]),
                    "primary_key=True".into(),
                    true
                ),
                (
                    "assignments".into(),
                    keys(&["site", "parent.slug"]),
                    r#"unique_with="parent__slug""#.into(),
                    true
                ),
                (
                    "assignments".into(),
                    keys(&["email"]),
                    "unique=True".into(),
                    true
                ),
            ]
        );
    }

    /// `"indexes": [..] + Mixin.get_indexes()`: the listed indexes are read, and the other
    /// operand is one index that cannot be (so no rule takes the list for complete).
    #[test]
    fn concatenated_meta_indexes() {
        let src = r#"
import mongoengine as me

class ActionDB(me.Document):
    meta = {
        "indexes": [{"fields": ["name"]}, "pack"] + (Tags.get_indexes() + BASE)
    }

class RuleDB(me.Document):
    meta = {"indexes": BASE_INDEXES}
"#;
        let file = ir(src);
        let got: Vec<(String, Vec<String>)> = file
            .operations
            .iter()
            .map(|o| (coll(o), filter_keys(o)))
            .collect();
        let keys = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            got,
            [
                ("action_d_b".to_string(), keys(&["name"])),
                ("action_d_b".into(), keys(&["pack"])),
                ("action_d_b".into(), keys(&[])),
                ("action_d_b".into(), keys(&[])),
                ("rule_d_b".into(), keys(&[])),
            ]
        );
    }

    fn imported(module: &str, export: &str) -> ClassBase {
        ClassBase::Imported {
            import: ImportRef {
                module: module.into(),
                export: export.into(),
            },
        }
    }

    /// A database name the module never binds, after a `from x import *`, is the star import's.
    #[test]
    fn a_star_imported_db_is_the_database() {
        let got = ir(r#"
from sefaria.sheets import *
def view_sheet(sheet_id):
    db.sheets.update_one({"id": int(sheet_id)}, {"$inc": {"views": 1}})
"#);
        assert_eq!(got.operations.len(), 1);
        assert_eq!(got.operations[0].collection_display(), "sheets");
    }

    /// `self.get_db()` in a module that imports pymongo is the application's database accessor
    /// (alerta); without pymongo in the module it is anything.
    #[test]
    fn get_db_in_a_pymongo_module_is_the_database() {
        let src = r#"
from pymongo import ASCENDING
class Backend(Database):
    def get_keys_by_user(self, user):
        return self.get_db().keys.find({"user": user})
"#;
        let got = ir(src);
        assert_eq!(got.operations.len(), 1);
        assert_eq!(got.operations[0].collection_display(), "keys");
        let sql = ir(r#"
import sqlite3
def rows(uid):
    return get_db().users.find({"uid": uid})
"#);
        assert!(sql
            .operations
            .iter()
            .all(|o| o.collection_display() != "users"));
    }

    /// A class method or static method that returns the database, called through its class or
    /// through `cls`, and a method called through `self`, name the collections of what they
    /// return; a method called through the class that is neither is not read (Python would want
    /// an instance). The module exports the class method and a function that returns a database
    /// for the modules that call them, and a function that returns what a function of another
    /// module returns as that function.
    #[test]
    fn a_method_that_returns_the_database_names_its_collections() {
        let src = r#"
import pymongo
from app.lib.config import Settings

class Store:
    @classmethod
    def connection(cls):
        client = pymongo.MongoClient(connect=False)
        return client["vulns"]

    @staticmethod
    def plain():
        return pymongo.MongoClient().other

    def instance_db(self):
        return pymongo.MongoClient().third

    @classmethod
    def version(cls):
        return cls.connection().meta.find_one({"key": "version"})

    def visits(self, page):
        return self.instance_db().visits.count_documents({"page": page})

def latest(n):
    return Store.plain().reports.find({}).sort("at", -1).limit(n)

def seen(uid):
    Store.instance_db().users.update_one({"uid": uid}, {"$set": {"seen": True}})

def open_db():
    return Settings.connection()

def not_a_db():
    return {}
"#;
        let got = ir(src);
        let names: Vec<String> = got.operations.iter().map(coll).collect();
        assert_eq!(names, vec!["meta", "visits", "reports", "<unknown>"]);
        let exports: Vec<(&str, &ExportTarget)> = got
            .exports
            .iter()
            .filter(|e| e.name.ends_with("()"))
            .map(|e| (e.name.as_str(), &e.target))
            .collect();
        assert!(
            matches!(
                exports.as_slice(),
                [
                    ("Store.connection()", ExportTarget::Database),
                    ("Store.plain()", ExportTarget::Database),
                    ("open_db()", ExportTarget::Reexport { import }),
                ] if import.export == "Settings.connection()" && import.module.ends_with("app/lib/config")
            ),
            "{exports:?}"
        );
    }

    /// Names that look like a database but are not MongoDB's: Django's `django.db`, a module
    /// imported as `db` (an SQLAlchemy module's classes), alembic's `op.create_index`, an
    /// application object's property tested for truth (pymongo's objects refuse `bool()`).
    #[test]
    fn sql_modules_and_truth_tests_name_no_collection() {
        let sql = ir(r#"
import django.db.models.deletion
import lib.core.database as db
from alembic import op
def upgrade(rows, models):
    op.create_index("md5_index", "samples", ["md5"])
    op.bulk_insert(db.Sample.__table__, rows)
    models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, to="users.tenant")
"#);
        assert!(sql.collections.is_empty(), "{:?}", sql.collections);
        assert!(sql.operations.is_empty(), "{:?}", sql.operations);
        let health = ir(r#"
from alerta.app import db
def good_to_go():
    if db.is_alive or not db.ready:
        return db.stats
"#);
        let names: Vec<String> = health
            .collections
            .iter()
            .map(|c| c.name.display())
            .collect();
        assert_eq!(names, vec!["stats".to_string()]);
        // A module whose name says MongoDB, imported as `db`, still stands for the database.
        let mongo = ir(r#"
import app.mongo_conn as db
def f(uid):
    return db.orders.find_one({"uid": uid})
"#);
        assert_eq!(mongo.operations.len(), 1);
        assert_eq!(mongo.operations[0].collection_display(), "orders");
    }

    /// StackStorm's models: `ActionDB(stormbase.StormFoundationDB, ..)`, whose base is a
    /// `me.Document` of another module. The file cannot decide; it hands the linker the class,
    /// its bases as imports and what it declares.
    #[test]
    fn a_class_on_an_imported_base_is_pending() {
        let src = r#"
import mongoengine as me
import app.odm
from st2common.models.db import stormbase
from . import base
from .base import BaseDocument as Base
from mongoengine import EmbeddedDocument

class ActionDB(stormbase.StormFoundationDB, stormbase.TagsMixin):
    name = me.StringField()
    meta = {"indexes": [{"fields": ["name"]}, "-created"]}

class RunnerDB(base.Runner):
    meta = {"collection": "runners", "abstract": False}

class Local(Base):
    pass

class Derived(Local):
    meta = {"abstract": True, "indexes": ["x"]}

class Deep(app.odm.Model):
    pass

class Notes(EmbeddedDocument):
    text = me.StringField()

class Plain(object):
    pass

ActionDB.objects(name="x").order_by("-created")
"#;
        let ir = ir_at(src, "st2common/models/db/action.py");
        let classes: Vec<(&str, &Vec<ClassBase>)> = ir
            .classes
            .iter()
            .map(|c| (c.name.as_str(), &c.bases))
            .collect();
        assert_eq!(
            classes,
            vec![
                (
                    "ActionDB",
                    &vec![
                        imported("py:st2common/models/db/stormbase", "StormFoundationDB"),
                        imported("py:st2common/models/db/stormbase", "TagsMixin"),
                    ]
                ),
                ("Deep", &vec![imported("py:app/odm", "Model")]),
                (
                    "Derived",
                    &vec![ClassBase::Local {
                        name: "Local".into()
                    }]
                ),
                ("Local", &vec![imported("./base", "BaseDocument")]),
                ("RunnerDB", &vec![imported("./base", "Runner")]),
            ]
        );
        let action = &ir.classes[0];
        assert_eq!(action.collection.name.display(), "action_d_b");
        assert!(!action.explicit_collection && !action.abstract_);
        let keys: Vec<String> = action
            .operations
            .iter()
            .map(|o| o.filter.as_ref().unwrap().fields()[0].key.clone())
            .collect();
        assert_eq!(keys, ["name", "created"]);
        let runner = ir.classes.iter().find(|c| c.name == "RunnerDB").unwrap();
        assert_eq!(runner.collection.name.display(), "runners");
        assert!(runner.explicit_collection);
        // Abstract: no collection, so nothing declared on one.
        let derived = ir.classes.iter().find(|c| c.name == "Derived").unwrap();
        assert!(derived.abstract_ && derived.operations.is_empty());
        // Used in its own file: an import of the file itself, for the linker.
        let first = ir.operations.iter().find(|o| o.method == "objects");
        let import = first.and_then(|o| o.collection.as_ref()?.import.as_ref());
        assert_eq!(
            import,
            Some(&ImportRef {
                module: "./action".into(),
                export: "ActionDB".into()
            })
        );
        // Nothing is declared before the linker decides.
        assert!(ir.operations.iter().all(|o| o.kind != OpKind::CreateIndex));
        assert!(ir.collections.is_empty());
    }

    /// flask-mongoengine: `db = MongoEngine(app)` in the application, `class Post(db.Document)`
    /// in a models file that imports only that `db`.
    #[test]
    fn flask_mongoengine_db_document_is_a_document() {
        let src = r#"
from app import db

class Post(db.Document):
    title = db.StringField()
    meta = {"indexes": ["title"]}
"#;
        let ir = ir(src);
        assert!(ir.classes.is_empty());
        let index = ir.operations.iter().find(|o| o.kind == OpKind::CreateIndex);
        assert_eq!(index.map(coll), Some("post".to_string()));
    }

    /// crits: `meta = {"collection": settings.COL_USERS}` names a collection from settings; the
    /// class's default name (`c_r_i_ts_user`) would be a collection the application never uses.
    #[test]
    fn a_meta_collection_this_file_cannot_read_is_unknown() {
        let src = r#"
from django.conf import settings
from mongoengine import Document, StringField

class CRITsUser(Document):
    username = StringField()
    meta = {"collection": settings.COL_USERS, "indexes": ["username"]}

def mentioned(user):
    return CRITsUser.objects(username=user).count()
"#;
        let ir = ir(src);
        let count = ir.operations.iter().find(|o| o.method == "count").unwrap();
        assert!(matches!(
            &count.collection.as_ref().unwrap().name,
            CollectionName::Unknown { text } if text == "settings.COL_USERS"
        ));
        let index = ir
            .operations
            .iter()
            .find(|o| o.kind == OpKind::CreateIndex)
            .unwrap();
        assert_eq!(coll(index), "<unknown>");
        assert!(!ir
            .collections
            .iter()
            .any(|c| c.name.display() == "c_r_i_ts_user"));
    }

    #[test]
    fn look_alikes_produce_nothing() {
        let src = r#"
import requests
def f(session, query, d, xs, text, page):
    d.update({"a": 1})
    d.update(x=1)
    xs.append(1)
    xs.insert(0, 2)
    xs.count(3)
    xs.remove(3)
    text.find("needle")
    query.offset(page * 10).limit(10)
    session.query(Order).filter(Order.id == 1).update({"status": "x"})
    requests.get("http://x").json()
    soup.find("div", {"class": "x"})
    Order.objects.filter(a=1).update(b=2)
"#;
        let ir = ir(src);
        assert!(ir.operations.is_empty(), "{:#?}", ir.operations);
        assert!(ir.collections.is_empty());
    }

    #[test]
    fn periodic_context() {
        let src = r#"
from pymongo import MongoClient
db = MongoClient().shop
def nightly_rollup():
    db.a.update_one({"_id": 1}, {"$inc": {"n": 1}})
def compact():
    db.b.update_one({"_id": 1}, {"$inc": {"n": 1}})
@scheduler.scheduled_job("cron", hour=3)
def tidy():
    db.c.update_one({"_id": 1}, {"$inc": {"n": 1}})
def on_event(e):
    for x in e:
        db.d.update_one({"_id": 1}, {"$inc": {"n": 1}})
scheduler.add_job(compact, "cron", hour=2)
@post('/syncalertschedules', methods=['POST'])
def sync_alert_schedules():
    db.e.update_one({"_id": 1}, {"$inc": {"n": 1}})
"#;
        let ir = ir(src);
        let periodic: Vec<bool> = ir.operations.iter().map(|o| o.context.periodic).collect();
        // A route whose path says "schedules" (MozDef) is a request handler.
        assert_eq!(periodic, [true, true, true, false, false]);
        assert!(ir.operations[3].context.enclosing_loop.is_some());
        let ir = ir_at(
            "from pymongo import MongoClient\nMongoClient().a.b.update_one({}, {})\n",
            "jobs/x.py",
        );
        assert!(ir.operations[0].context.periodic);
    }

    /// A command of the application's command line is run by hand, a batch job (opac's
    /// Flask-Script `@manager.command`); a chat bot's command answers its users.
    #[test]
    fn commands_of_the_command_line_are_batch_jobs() {
        let src = r#"
from pymongo import MongoClient
db = MongoClient().shop
@manager.command
@manager.option("-f", "--filename", dest="filename")
def populate(filename):
    db.a.find_one({"_id": filename})
@click.command()
def reindex():
    db.b.find_one({"_id": 1})
@app.cli.command("seed")
def seed():
    db.c.find_one({"_id": 1})
@commands.command()
async def karma(ctx, member):
    db.d.find_one({"_id": member})
"#;
        let ir = ir(src);
        let periodic: Vec<bool> = ir.operations.iter().map(|o| o.context.periodic).collect();
        assert_eq!(periodic, [true, true, true, false]);
    }

    #[test]
    fn survives_syntax_errors_and_deep_nesting() {
        let src = "from pymongo import MongoClient\ndb = MongoClient().shop\ndef broken(:\n    x = [\ndb.orders.update_one({'_id': 1}, {'$push': {'a': 1}})\n";
        let ir = ir(src);
        assert!(ir.operations.iter().any(|o| o.method == "update_one"));
        let deep = format!(
            "db.x.update_one({{}}, {}{})\n",
            "[".repeat(3000),
            "]".repeat(3000)
        );
        let _ = ir_at(&format!("import pymongo\n{deep}"), "d.py");
        let deep = format!("x = {}1{}\n", "(".repeat(3000), ")".repeat(3000));
        let _ = ir_at(&deep, "d.py");
        for cut in [0, 10, 57, 100] {
            let s: String = src.chars().take(cut).collect();
            let _ = ir_at(&s, "a.py");
        }
    }
}
