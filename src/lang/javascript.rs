//! The JavaScript / TypeScript frontend: the Node `mongodb` driver, Mongoose and mongosh scripts.
//!
//! Two passes over the tree. The first records bindings (variables, parameters, class fields,
//! imports, exports, `x.push(..)` onto arrays, `doc.save()` calls) with the scope they live in. The
//! second finds driver calls, resolves their receivers through those bindings, and lowers their
//! arguments into IR values.

use super::naming::{
    classify_hole, mongoose_collection_name, name_is_periodic_in, path_handles_requests,
    path_is_periodic,
};
use super::unescape;
use super::vocabulary::{
    js_operation, Args, OpMethod, AGGREGATE_BUILDER_STAGES, JS_FIRESTORE_MODULES, JS_MONGO_MODULES,
    JS_OTHER_DATABASE_MODULES, JS_SHAPING_MODIFIERS, MODIFIERS,
};
use super::FileContext;
use crate::ir::*;
use crate::lang::HashMap;
use crate::lang::KindOf;
use std::cell::{Cell, RefCell};
use tree_sitter::{Node, Tree};

mod schema_indexes;

/// How deep value lowering and receiver resolution may recurse (nested literals, chains of bindings).
/// How JavaScript spells what `lang::size_guards` reads.
const JS_GUARDS: super::GuardSyntax = super::GuardSyntax {
    boundaries: &[
        "function_declaration",
        "function_expression",
        "function",
        "arrow_function",
        "method_definition",
        "generator_function_declaration",
        "program",
    ],
    ifs: &["if_statement"],
    blocks: &["statement_block"],
    exits: &[
        "return_statement",
        "throw_statement",
        "continue_statement",
        "break_statement",
    ],
    // (`console.assert` only logs.)
    asserts: &["assert", "assert.ok", "assert.strict"],
};

const MAX_DEPTH: usize = 48;

/// Mongoose's `schema.loadClass(C)`, as written.
const LOAD_CLASS: &str = ".loadClass(";

/// Called through `lang::extract`, which sets this thread's grammar tables.
pub(crate) fn extract(tree: &Tree, text: &str, ctx: &FileContext) -> FileIr {
    let mut x = Extractor {
        src: text,
        loads_classes: text.contains(LOAD_CLASS),
        bindings: HashMap::default(),
        scope_index: HashMap::default(),
        parents: std::rc::Rc::new(super::flat::Flat::new(tree.root_node())),
        assigned: HashMap::default(),
        filled: HashMap::default(),
        pushes: HashMap::default(),
        saves: Vec::new(),
        write_backs: Vec::new(),
        bumps: Vec::new(),
        export_nodes: Vec::new(),
        export_functions: Vec::new(),
        source_exports: Vec::new(),
        member_assigns: Vec::new(),
        member_assigns_of: HashMap::default(),
        functions: HashMap::default(),
        classes: Vec::new(),
        class_exports: Vec::new(),
        registry_names: Default::default(),
        callback_collections: Default::default(),
        expanding: std::cell::RefCell::new(Vec::new()),
        lower_fuel: std::cell::Cell::new(super::lower_fuel(text.len())),
        uses_mongo: false,
        uses_firestore: false,
        bulk_builders: false,
        uses_other_database: false,
        file_periodic: path_is_periodic(ctx.display_path),
        request_file: path_handles_requests(ctx.display_path),
        ir: FileIr::default(),
        op_by_call: HashMap::default(),
        pending_modifiers: Vec::new(),
        loose_skips: Vec::new(),
        classified: RefCell::new(None),
        deepest: Cell::new(0),
        following_returns: Cell::new(false),
    };
    let root = tree.root_node();
    x.collect_bindings(root);
    if x.file_periodic
        && super::naming::names_job_entity(ctx.display_path, |n| x.bindings.contains_key(n))
    {
        x.file_periodic = false;
    }
    x.scope_index = super::scopes::index_all(&x.bindings, |b| (b.scope.start, b.scope.end, b.pos));
    for (i, a) in x.member_assigns.iter().enumerate() {
        x.member_assigns_of.entry(a.0).or_default().push(i as u32);
    }
    for list in x.member_assigns_of.values_mut() {
        list.sort_by_key(|&i| x.member_assigns[i as usize].3);
    }
    // From here on, nothing `classify` reads changes (the bindings, assignments, pushes and
    // filled names are complete; the passes below only add to the IR).
    *x.classified.get_mut() = Some(HashMap::default());
    x.collect_operations(root);
    x.schema_indexes(root);
    x.class_indexes();
    let mut ir = x.finish();
    if is_meteor_client(ctx.display_path, text) {
        // Meteor's client code reads its local cache (Minimongo), filled by subscriptions: no
        // read of it reaches the database. Its writes do, through the server.
        ir.operations.retain(|op| {
            !matches!(
                op.kind,
                OpKind::Find | OpKind::FindOne | OpKind::Count | OpKind::Distinct
            )
        });
    }
    ir
}

/// A file of a Meteor application's client: under a `client` folder (which Meteor builds for the
/// browser only), in a file that uses Meteor.
pub(crate) fn is_meteor_client(path: &str, text: &str) -> bool {
    let folders = &path[..memchr::memrchr(b'/', path.as_bytes()).unwrap_or(0)];
    folders.split('/').any(|d| d == "client")
        && (text.contains("from 'meteor/")
            || text.contains("from \"meteor/")
            || text.contains("Meteor.")
            || text.contains("Template."))
}

/// Whether a Meteor client file may write to a collection: a write method (`update`, `insert`,
/// `remove`, `upsert`, or its `*Async` form) called on a capitalised name (`Boards.update(..)`,
/// `Cards.insertAsync(..)`), `Meteor.users` or a collection's `direct`: the only operations of such
/// a file that reach the database. The DOM's `classList.remove(..)`, `insertBefore(..)` and a
/// helper's `this.remove(..)` are not (8 of Wekan's client files were parsed for those alone).
pub(crate) fn may_write_from_client(text: &str) -> bool {
    let bytes = text.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    ["update", "insert", "remove", "upsert"].iter().any(|w| {
        memchr::memmem::find_iter(bytes, w.as_bytes()).any(|at| {
            if at < 2 || bytes[at - 1] != b'.' {
                return false;
            }
            let mut end = at + w.len();
            if bytes[end..].starts_with(b"Async") {
                end += "Async".len();
            }
            let rest = &bytes[end..];
            let open = rest.iter().position(|b| !b.is_ascii_whitespace());
            if open.map(|i| rest[i]) != Some(b'(') {
                return false;
            }
            let receiver_end = at - 1;
            let mut start = receiver_end;
            while start > 0 && is_ident(bytes[start - 1]) {
                start -= 1;
            }
            let receiver = &bytes[start..receiver_end];
            receiver.first().is_some_and(u8::is_ascii_uppercase)
                || receiver == b"users"
                || receiver == b"direct"
        })
    })
}

fn span(n: Node) -> Span {
    Span::new(n.start_byte(), n.end_byte())
}

fn is_function(kind: &str) -> bool {
    matches!(
        kind,
        "function_declaration"
            | "function_expression"
            | "function"
            | "arrow_function"
            | "method_definition"
            | "generator_function_declaration"
            | "generator_function"
    )
}

/// Classes of node kinds for the passes over every node (see `lang::KindFlags`).
mod kinds {
    pub const FUNCTION: u16 = 1;
    pub const CLASS: u16 = 1 << 1;
    /// What `collect_bindings` reads (see `binding_node`).
    pub const BINDING: u16 = 1 << 2;
    /// `for`, `while`, `do`.
    pub const LOOP: u16 = 1 << 3;
    pub const FOR_IN: u16 = 1 << 4;
    pub const CALL: u16 = 1 << 5;
    /// `member_expression`, `subscript_expression`.
    pub const MEMBER: u16 = 1 << 6;
    pub const NEW: u16 = 1 << 7;
    /// Class fields (NestJS `@Prop`).
    pub const FIELD: u16 = 1 << 8;

    pub fn classify(kind: &str) -> u16 {
        let mut f = 0;
        if super::is_function(kind) {
            f |= FUNCTION;
        }
        if super::is_class(kind) {
            f |= CLASS;
        }
        if matches!(
            kind,
            "variable_declarator"
                | "import_statement"
                | "assignment_expression"
                | "augmented_assignment_expression"
                | "update_expression"
                | "field_definition"
                | "public_field_definition"
                | "required_parameter"
                | "optional_parameter"
                | "formal_parameters"
                | "call_expression"
                | "export_statement"
        ) {
            f |= BINDING;
        }
        f | match kind {
            "for_statement" | "while_statement" | "do_statement" => LOOP,
            "for_in_statement" => FOR_IN,
            "call_expression" => CALL,
            "member_expression" | "subscript_expression" => MEMBER,
            "new_expression" => NEW,
            "public_field_definition" | "field_definition" => FIELD,
            _ => 0,
        }
    }

    pub static FLAGS: crate::lang::KindFlags = crate::lang::KindFlags::new(classify);
}

/// Whether a module is another database's client (`JS_OTHER_DATABASE_MODULES`), by its package:
/// `mysql2` of `mysql2/promise`, `@aws-sdk/lib-dynamodb` of itself.
fn is_other_database_module(m: &str) -> bool {
    let mut parts = m.split('/');
    let package = match (m.starts_with('@'), parts.next(), parts.next()) {
        (true, Some(scope), Some(name)) => &m[..scope.len() + 1 + name.len()],
        (_, Some(first), _) => first,
        _ => m,
    };
    JS_OTHER_DATABASE_MODULES.contains(&package)
}

/// Meteor's collection class, `Mongo.Collection` (or through a namespace).
fn is_meteor_collection(ctor: &str) -> bool {
    ctor == "Mongo.Collection" || ctor.ends_with(".Mongo.Collection")
}

fn is_class(kind: &str) -> bool {
    matches!(
        kind,
        "class_declaration" | "class" | "abstract_class_declaration"
    )
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum DeclKind {
    Const,
    Mutable,
    Param,
    Field,
}

/// What a check says an array holds (see `Extractor::absent_checks`): a value
/// (`arr.includes(v)`), or an element whose key is a value (`arr.find((t) => t.kind === k)`).
enum Held<'t> {
    Value(&'t str),
    Keyed(&'t str, &'t str),
}

struct Binding<'t> {
    /// Scope the binding is visible in (function, class or program span).
    scope: Span,
    pos: u32,
    value: Option<Node<'t>>,
    kind: DeclKind,
    /// TypeScript type annotation text, if any.
    type_text: Option<&'t str>,
    /// Model name from a NestJS `@InjectModel(X.name)` decorator.
    injected_model: Option<String>,
    import: Option<ImportRef>,
    /// A name destructured from a typed parameter (`{ models }: IContext`): the member of the
    /// type (`type_text`) it is bound to, or `""` when `type_text` is its own (`{ models }: {
    /// models: IModels }`).
    type_member: Option<&'t str>,
}

/// What an expression is, as far as the driver is concerned.
#[derive(Clone, Debug)]
enum Thing {
    Mongoose,
    /// The `model` function imported from mongoose.
    ModelFn,
    Client,
    Db {
        shell: bool,
    },
    Collection(CollectionRef),
    /// A document loaded from a model (`await Post.findById(id)`), with the evidence of the load.
    LoadedDoc(CollectionRef, Evidence),
    /// An import from another module of the repository.
    Imported(ImportRef, String),
    /// A value whose type, or the function whose call made it, is imported from another module
    /// of the repository (`models: IModels`, `{ models }: IContext`, `await generateModels(..)`):
    /// not a collection itself, but its members may be the models of a registry that module
    /// exports (`models.Posts` is its export `IContext.models.Posts`; see `registry_exports`).
    Typed(ImportRef, String),
    Unknown,
}

impl Thing {
    /// A collection or model, one imported from another module, or what an imported function
    /// returns (`const Orders = await OrdersCollection(db)`, which the linker names: see
    /// `Extractor::operation_with`).
    fn names_collection(&self) -> bool {
        match self {
            Thing::Collection(_) | Thing::Imported(..) => true,
            Thing::Typed(imp, _) => imp.export.ends_with("()"),
            _ => false,
        }
    }
}

struct Extractor<'t> {
    src: &'t str,
    /// The text calls `.loadClass(` (see [`Extractor::class_loaded_by`]).
    loads_classes: bool,
    bindings: HashMap<String, Vec<Binding<'t>>>,
    /// `bindings` by scope, for `lookup`.
    scope_index: HashMap<String, super::scopes::ScopeIndex>,
    /// Parent links (`Node::parent()` is O(width of every level above)).
    parents: std::rc::Rc<super::flat::Flat<'t>>,
    /// Where each name is assigned (`x = ..`, `x += ..`, `x++`), by byte offset: a `let`/`var`
    /// binding is a constant when no assignment within its scope changes it.
    assigned: HashMap<String, Vec<u32>>,
    /// Names whose object is filled in by member assignment (`q.status = s`): where each such
    /// assignment is, in the order of positions, and whether it fills otherwise than by
    /// `name.member = v` (`q[key] = v`, `q.a.b = v`). Which binding each fills is asked at the
    /// use ([`Self::fills_of`]): another function's `conditions` fills not this one's.
    filled: HashMap<String, Vec<(u32, bool)>>,
    /// `name.push(..)` / `name.unshift(..)` calls: (name) → (call position, method, arguments node).
    pushes: HashMap<String, Vec<(u32, bool, Node<'t>)>>,
    /// `name.save()` calls: (name, position).
    saves: Vec<(String, u32)>,
    /// A model's update calls that may write a loaded document back whole
    /// (`Settings.findByIdAndUpdate(id, settings)`): (position, call). See `written_back`.
    write_backs: Vec<(u32, Node<'t>)>,
    /// A document's field counted up or down by a literal step, `topic.visit_count += 1` or
    /// `topic.visit_count++`: (the expression, the member, the step). Saved after, a per-event
    /// counter (see `saved_counters`).
    bumps: Vec<(Node<'t>, Node<'t>, f64)>,
    export_nodes: Vec<(String, Node<'t>)>,
    /// `export function f(..) {..}`: only what it returns may be exported (see `export_returned`).
    export_functions: Vec<(String, Node<'t>)>,
    /// What the file passes on from another module: `export { default as User } from './user'`
    /// (`("User", ./user's "default")`) and `export * from './user'` (`("*", ./user's "*")`).
    source_exports: Vec<(String, ImportRef)>,
    /// `models.Posts = db.model(..)`: (object, member, value, position) of every assignment to a
    /// member of a named object (see `registry_exports`).
    member_assigns: Vec<(&'t str, &'t str, Node<'t>, u32)>,
    /// `member_assigns` by object, by position: the indexes of each object's assignments
    /// (a minified bundle's 48,000 `e.exports = ..` made every lookup of a name's members scan
    /// them all).
    member_assigns_of: HashMap<&'t str, Vec<u32>>,
    /// The file's named functions and methods, by name (see `returned_object`).
    functions: HashMap<&'t str, Vec<Node<'t>>>,
    /// The file's classes, in the order they open.
    classes: Vec<Node<'t>>,
    /// The classes the module exports by name (`export class BaseRaw ..`, `export default class
    /// ..`): (name, class), for [`Extractor::collection_parameter`].
    class_exports: Vec<(String, Node<'t>)>,
    /// The names (with their binding's position) destructured from an object named
    /// `collections`: Reaction's `const { Products } = context.collections`, `{ collections: {
    /// Orders } } = context`, a registry of the application's collections by name.
    registry_names: crate::lang::HashSet<(&'t str, u32)>,
    /// The second parameters of the driver's legacy callbacks (`db.collection('results', (err,
    /// collection) => ..)`), by (name, binding position): the call that opens their collection.
    callback_collections: HashMap<(&'t str, u32), Node<'t>>,
    /// The functions whose returned pipelines are being read, innermost last (see
    /// `returned_pipeline`, `lang::helper_pipeline`): a cycle guard, and a bound on how deep
    /// helpers nest.
    expanding: std::cell::RefCell<Vec<usize>>,
    /// How many more values `lower` may build in this file (see [`super::lower_fuel`]).
    lower_fuel: std::cell::Cell<u32>,
    uses_mongo: bool,
    uses_firestore: bool,
    /// A bulk builder was made so far (`coll.initializeUnorderedBulkOp()`): only then is an
    /// operation's receiver chain walked for one (see `bulk_builder_of`, `operation_with`).
    bulk_builders: bool,
    /// The file imports another database's client (`JS_OTHER_DATABASE_MODULES`).
    uses_other_database: bool,
    file_periodic: bool,
    /// The file answers requests (see [`path_handles_requests`]).
    request_file: bool,
    ir: FileIr,
    /// Call node id → operation index, for modifiers attached later through a variable.
    op_by_call: HashMap<usize, usize>,
    /// `cursor.skip(n)` on a variable bound to an operation call: (bound call id, modifiers).
    pending_modifiers: Vec<(usize, Vec<Modifier>, Vec<String>)>,
    /// Offset paging on a variable bound to no operation call (see `note_loose_skip`), with the
    /// id of the call it is bound to, if any.
    /// With each, the cursor it pages when its variable holds a copy of it (`const next =
    /// cursor.clone()`): `cursor`.
    loose_skips: Vec<(Option<usize>, Operation, Option<String>)>,
    /// `classify`'s results by node id, with how much deeper than its start the computation
    /// looked (see `classify`); `None` while the bindings are being collected, when a result may
    /// still change.
    classified: RefCell<Option<HashMap<usize, (Thing, usize)>>>,
    /// The deepest recursion depth a depth-capped function has been asked at during the current
    /// `classify` computation.
    deepest: Cell<usize>,
    /// Whether `loaded_by_call` is reading a function's returns: it reads one function deep, not
    /// the functions those returns call (NodeBB's helpers return each other's results: followed
    /// all the way, the walk was exponential).
    following_returns: Cell<bool>,
}

impl<'t> Extractor<'t> {
    fn text(&self, n: Node) -> &'t str {
        // Slicing the `&str` checks two char boundaries; `utf8_text` re-validated every byte.
        self.src.get(n.byte_range()).unwrap_or("")
    }

    fn field(&self, n: Node<'t>, name: &'static str) -> Option<Node<'t>> {
        let mut f = self.parents.field(n, name)?;
        // TypeScript `db.collection<Order>(..)`: the callee is `db.collection` with type arguments,
        // and the grammar reads `await db.collection<T>(..)` as a call of `await db.collection`.
        while name == "function" && matches!(f.k(), "instantiation_expression" | "await_expression")
        {
            f = f.named_child(0)?;
        }
        Some(f)
    }

    fn named_children(&self, n: Node<'t>) -> Vec<Node<'t>> {
        self.named_children_iter(n).collect()
    }

    /// `named_children` without collecting them.
    fn named_children_iter(&self, n: Node<'t>) -> impl Iterator<Item = Node<'t>> + '_ {
        self.parents
            .children(n)
            .filter(|c| c.is_named() && c.k() != "comment")
    }

    fn args(&self, call: Node<'t>) -> Vec<Node<'t>> {
        match self.field(call, "arguments") {
            Some(a) if a.k() == "arguments" => self.named_children(a),
            _ => Vec::new(),
        }
    }

    fn string_value(&self, n: Node) -> Option<String> {
        match n.k() {
            "string" => {
                let t = self.text(n);
                if t.len() >= 2 {
                    Some(unescape(&t[1..t.len() - 1]))
                } else {
                    Some(String::new())
                }
            }
            "template_string" if n.named_child_count() == 0 || !has_substitution(n) => {
                let t = self.text(n);
                Some(unescape(t.trim_start_matches('`').trim_end_matches('`')))
            }
            _ => None,
        }
    }

    /// Whether function `f` polls on a period: a `while (true)` loop in it sleeps between rounds
    /// and has no way out (see `lang::polls_forever`).
    fn polls_forever(&self, f: Node<'t>) -> bool {
        super::function_polls_forever(&self.parents, self.src, f, &["while (true)", "while(true)"])
    }

    /// The `if` statements around `n` in its function, each by its condition, with whether `n`
    /// runs when the condition is false (in the `else`, or under the negated condition): `if
    /// (slow) {..}` and a later `if (!slow) {..}` are the two branches of one choice (Huly's
    /// `$lookup` stages, pushed in one or the other).
    fn if_branches(&self, n: Node<'t>) -> Vec<(&'t str, bool)> {
        let mut out = Vec::new();
        let mut cur = n;
        for _ in 0..MAX_DEPTH {
            let Some(p) = self.parents.of(cur) else { break };
            if is_function(p.k()) {
                break;
            }
            if p.k() == "if_statement" {
                let in_else = self.field(p, "alternative").is_some_and(|a| {
                    a.start_byte() <= cur.start_byte() && cur.end_byte() <= a.end_byte()
                });
                let (condition, negated) = match self.field(p, "condition") {
                    Some(c) => self.condition_key(c),
                    None => (self.text(p), false),
                };
                out.push((condition, in_else != negated));
            }
            cur = p;
        }
        out
    }

    /// A condition's text without its parentheses and its negation, and whether it is negated:
    /// `(!slowPipeline)` is (`slowPipeline`, true).
    fn condition_key(&self, c: Node<'t>) -> (&'t str, bool) {
        let mut c = c;
        let mut negated = false;
        for _ in 0..4 {
            let inner = self.unwrap_expr(c);
            let not = inner.k() == "unary_expression"
                && self
                    .field(inner, "operator")
                    .is_some_and(|o| self.text(o) == "!");
            match self.field(inner, "argument").filter(|_| not) {
                Some(a) => {
                    negated = !negated;
                    c = a;
                }
                None => return (self.text(inner), negated),
            }
        }
        (self.text(self.unwrap_expr(c)), negated)
    }

    // ---------------------------------------------------------------- pass 1: bindings

    fn note_fill(&mut self, name: &str, pos: u32, by_key: bool) {
        match self.filled.get_mut(name) {
            Some(fills) => fills.push((pos, by_key)),
            None => {
                self.filled.insert(name.to_string(), vec![(pos, by_key)]);
            }
        }
    }

    /// Whether the object that `b` binds to `name` is filled in by member assignment after its
    /// binding, in its scope, through that binding (not a name of the same spelling bound in
    /// another function): `Some(true)` where some fill is by key (`q[key] = v`, `q.a.b = v`),
    /// `Some(false)` where all are `q.member = v`, `None` where none is.
    fn fills_of(&self, name: &str, b: &Binding<'t>) -> Option<bool> {
        let fills = self.filled.get(name)?;
        let from = fills.partition_point(|&(pos, _)| pos <= b.pos);
        let mut found = None;
        for &(pos, by_key) in &fills[from..] {
            if pos >= b.scope.end {
                break;
            }
            if b.scope.contains(Span::new(pos as usize, pos as usize))
                && self.lookup(name, pos).is_some_and(|x| std::ptr::eq(x, b))
            {
                found = Some(found == Some(true) || by_key);
            }
        }
        found
    }

    /// `query.status = s` / `query[key] = v`: the object bound to `query` is filled in after its
    /// literal, so the literal holds only some of its keys.
    fn note_filled(&mut self, mut target: Node<'t>) {
        let pos = target.start_byte() as u32;
        // `q.status = s`, one of `member_assigns`; not `q[key] = v` nor `q.a.b = v`.
        let direct = target.k() == "member_expression"
            && self
                .field(target, "object")
                .is_some_and(|o| o.k() == "identifier")
            && self
                .field(target, "property")
                .is_some_and(|p| p.k() == "property_identifier");
        for _ in 0..MAX_DEPTH {
            match target.k() {
                "member_expression" | "subscript_expression" => {
                    match self.field(target, "object") {
                        Some(o) => target = o,
                        None => return,
                    }
                }
                "identifier" => {
                    self.note_fill(self.text(target), pos, !direct);
                    return;
                }
                _ => return,
            }
        }
    }

    fn add_binding(&mut self, name: &str, b: Binding<'t>) {
        super::add_binding(&mut self.bindings, name, b);
    }

    fn collect_bindings(&mut self, root: Node<'t>) {
        let mut scopes: Vec<Span> = vec![span(root)];
        let mut classes: Vec<Span> = Vec::new();
        let mut nodes: Vec<(Node<'t>, Span, Option<Span>)> = Vec::new();
        let mut functions: Vec<(&'t str, Node<'t>)> = Vec::new();
        let mut class_nodes: Vec<Node<'t>> = Vec::new();
        let flags = kinds::FLAGS.table();
        self.parents
            .clone()
            .walk_flagged(root, flags, |n, f, enter| {
                if enter {
                    if f & kinds::FUNCTION != 0 {
                        scopes.push(span(n));
                        if matches!(n.k(), "method_definition" | "function_declaration") {
                            if let Some(name) = self.field(n, "name") {
                                functions.push((self.text(name), n));
                            }
                        }
                    }
                    if f & kinds::CLASS != 0 {
                        classes.push(span(n));
                        class_nodes.push(n);
                    }
                    if f & kinds::BINDING != 0 {
                        nodes.push((n, *scopes.last().unwrap(), classes.last().copied()));
                    }
                } else {
                    if f & kinds::FUNCTION != 0 {
                        scopes.pop();
                    }
                    if f & kinds::CLASS != 0 {
                        classes.pop();
                    }
                }
            });
        for (name, f) in functions {
            self.functions.entry(name).or_default().push(f);
        }
        self.classes = class_nodes;
        self.bindings.reserve(nodes.len());
        for (n, scope, class) in nodes {
            self.binding_node(n, scope, class);
        }
        // A name destructured from a parameter is bound (and so hides what it would otherwise
        // name) only where its type is imported from a module of the repository: what
        // `imported_type` reads. Elsewhere the file reads as if it were not bound.
        let typed_from_repository = |bindings: &HashMap<String, Vec<Binding<'t>>>,
                                     b: &Binding<'t>| {
            let Some(t) = b.type_text else { return false };
            let head = type_head(t.trim_start_matches(':').trim());
            bindings.get(head).is_some_and(|list| {
                list.iter().any(|i| {
                    i.scope.start <= b.pos
                        && b.pos <= i.scope.end
                        && i.import
                            .as_ref()
                            .is_some_and(|imp| is_repository_module(&imp.module))
                })
            })
        };
        let destructured: Vec<String> = self
            .bindings
            .iter()
            .filter(|(_, list)| list.iter().any(|b| b.type_member.is_some()))
            .map(|(name, _)| name.clone())
            .collect();
        // Or where its own type, written out, is the driver's collection (`{ Orders }: { Orders:
        // mongodb.Collection<Order> }`, unchained's modules).
        let driver_collection = |b: &Binding<'t>| {
            b.type_member == Some("")
                && b.type_text.is_some_and(|t| {
                    let t = t.trim_start_matches(':').trim();
                    t.starts_with("Collection<") || t.starts_with("mongodb.Collection<")
                })
        };
        for name in destructured {
            let mut list = self.bindings.remove(&name).unwrap_or_default();
            list.retain(|b| {
                b.type_member.is_none()
                    || driver_collection(b)
                    || typed_from_repository(&self.bindings, b)
            });
            if !list.is_empty() {
                self.bindings.insert(name, list);
            }
        }
    }

    fn binding_node(&mut self, n: Node<'t>, scope: Span, class: Option<Span>) {
        let pos = n.start_byte() as u32;
        match n.k() {
            "variable_declarator" => {
                let Some(name) = self.field(n, "name") else {
                    return;
                };
                let value = self.field(n, "value");
                // `const`/`let` is the `kind` field of a `lexical_declaration`; `var` declarations
                // have none.
                let decl = self
                    .parents
                    .of(n)
                    .and_then(|p| self.field(p, "kind"))
                    .map(|c| c.k());
                let kind = if decl == Some("const") {
                    DeclKind::Const
                } else {
                    DeclKind::Mutable
                };
                let type_text = self.field(n, "type").map(|t| self.text(t));
                match name.k() {
                    "identifier" => {
                        // `require("../models").User` is the module's export `User` (Strider's
                        // routes); `require("../models")` its default.
                        let export = value
                            .map(|v| self.unwrap_expr(v))
                            .filter(|v| v.k() == "member_expression")
                            .and_then(|v| self.field(v, "property"))
                            .map_or("default", |p| self.text(p));
                        let import = value.and_then(|v| self.require_of(v)).map(|m| ImportRef {
                            module: m,
                            export: export.into(),
                        });
                        self.note_module(import.as_ref().map(|i| i.module.as_str()));
                        self.add_binding(
                            self.text(name),
                            Binding {
                                scope,
                                pos,
                                value,
                                kind,
                                type_text,
                                injected_model: None,
                                import,
                                type_member: None,
                            },
                        );
                    }
                    "object_pattern" => {
                        let module = value.and_then(|v| self.require_of(v));
                        self.note_module(module.as_deref());
                        // `const { db } = mongodb` where `mongodb` is itself imported from a module
                        // of the repository: `db` is that module's export `db` (or `x.db` when
                        // `mongodb` is its export `x`).
                        let imported = |v: Node<'t>| {
                            self.bindings
                                .get(self.text(v))
                                .and_then(|list| list.iter().rev().find(|b| b.pos <= pos))
                                .and_then(|b| b.import.clone())
                        };
                        let from_import = value
                            .filter(|_| module.is_none())
                            .map(|v| self.unwrap_expr(v))
                            .filter(|v| v.k() == "identifier")
                            .and_then(imported)
                            // (Also Mongoose's default import: `const { Schema, model } =
                            // mongoose` names what `import { Schema, model }` would.)
                            .filter(|imp| {
                                is_repository_module(&imp.module)
                                    || (imp.module == "mongoose"
                                        && matches!(imp.export.as_str(), "default" | "*"))
                            })
                            // `const { Orders } = await OrdersCollection(db)`, a named function
                            // of a module of the repository: what its result's member is (see
                            // `export_returned`).
                            .or_else(|| {
                                let call = value
                                    .filter(|_| module.is_none())
                                    .map(|v| self.unwrap_expr(v))
                                    .filter(|v| v.k() == "call_expression")?;
                                let f = self
                                    .field(call, "function")
                                    .filter(|f| f.k() == "identifier")?;
                                let imp = imported(f).filter(|imp| {
                                    is_repository_module(&imp.module)
                                        && !matches!(imp.export.as_str(), "default" | "*")
                                        && is_identifier(&imp.export)
                                })?;
                                Some(ImportRef {
                                    module: imp.module,
                                    export: format!("{}()", imp.export),
                                })
                            });
                        let registry = value.is_some_and(|v| {
                            super::names_collection_registry(self.text(self.unwrap_expr(v)))
                        });
                        // `{ collections: { Orders } } = context`.
                        for p in self.named_children(name) {
                            let (Some(k), Some(v)) = (self.field(p, "key"), self.field(p, "value"))
                            else {
                                continue;
                            };
                            if p.k() != "pair_pattern"
                                || self.text(k) != "collections"
                                || v.k() != "object_pattern"
                            {
                                continue;
                            }
                            for inner in self.named_children(v) {
                                if inner.k() != "shorthand_property_identifier_pattern" {
                                    continue;
                                }
                                self.registry_names.insert((self.text(inner), pos));
                                self.add_binding(
                                    self.text(inner),
                                    Binding {
                                        scope,
                                        pos,
                                        value: None,
                                        kind,
                                        type_text: None,
                                        injected_model: None,
                                        import: None,
                                        type_member: None,
                                    },
                                );
                            }
                        }
                        // `const { users, posts } = this.getCollections()`: the object the file's
                        // function returns, each name bound to its member there.
                        let returned = value
                            .filter(|_| module.is_none() && from_import.is_none())
                            .and_then(|v| self.returned_object(v));
                        for p in self.named_children(name) {
                            let (export, local) = match p.k() {
                                "shorthand_property_identifier_pattern" => {
                                    (self.text(p), self.text(p))
                                }
                                "pair_pattern" => {
                                    let (Some(k), Some(v)) =
                                        (self.field(p, "key"), self.field(p, "value"))
                                    else {
                                        continue;
                                    };
                                    (self.text(k), self.text(v))
                                }
                                _ => continue,
                            };
                            let import = match (&module, &from_import) {
                                (Some(m), _) => Some(ImportRef {
                                    module: m.clone(),
                                    export: export.to_string(),
                                }),
                                (None, Some(imp)) => Some(ImportRef {
                                    module: imp.module.clone(),
                                    export: if imp.export == "default" || imp.export == "*" {
                                        export.to_string()
                                    } else {
                                        format!("{}.{export}", imp.export)
                                    },
                                }),
                                (None, None) => None,
                            };
                            let value = returned.and_then(|o| self.object_member(o, export));
                            if registry {
                                self.registry_names.insert((local, pos));
                            }
                            self.add_binding(
                                local,
                                Binding {
                                    scope,
                                    pos,
                                    value,
                                    kind,
                                    type_text: None,
                                    injected_model: None,
                                    import,
                                    type_member: None,
                                },
                            );
                        }
                    }
                    _ => {}
                }
            }
            "import_statement" => {
                let Some(source) = self.field(n, "source").and_then(|s| self.string_value(s))
                else {
                    return;
                };
                self.note_module(Some(&source));
                let Some(clause) = self
                    .named_children(n)
                    .into_iter()
                    .find(|c| c.k() == "import_clause")
                else {
                    return;
                };
                for c in self.named_children(clause) {
                    match c.k() {
                        "identifier" => {
                            self.add_import(self.text(c), &source, "default", scope, pos)
                        }
                        "namespace_import" => {
                            if let Some(id) = self.named_children(c).into_iter().next() {
                                self.add_import(self.text(id), &source, "*", scope, pos);
                            }
                        }
                        "named_imports" => {
                            for spec in self.named_children(c) {
                                let Some(name) = self.field(spec, "name") else {
                                    continue;
                                };
                                let local = self.field(spec, "alias").unwrap_or(name);
                                let export = self
                                    .string_value(name)
                                    .unwrap_or_else(|| self.text(name).to_string());
                                self.add_import(self.text(local), &source, &export, scope, pos);
                            }
                        }
                        _ => {}
                    }
                }
            }
            // `page++`: the name is assigned, not a constant.
            "update_expression" => {
                let Some(arg) = self.field(n, "argument") else {
                    return;
                };
                if arg.k() == "identifier" {
                    self.assigned
                        .entry(self.text(arg).to_string())
                        .or_default()
                        .push(arg.start_byte() as u32);
                } else if arg.k() == "member_expression" {
                    let step = if self.text(n).contains("--") {
                        -1.0
                    } else {
                        1.0
                    };
                    self.bumps.push((n, arg, step));
                }
            }
            "assignment_expression" | "augmented_assignment_expression" => {
                let (Some(left), Some(right)) = (self.field(n, "left"), self.field(n, "right"))
                else {
                    return;
                };
                let augmented = n.k() == "augmented_assignment_expression";
                // `topic.visit_count += 1`: a document's counter (see `bumps`).
                if augmented && left.k() == "member_expression" && right.k() == "number" {
                    let op = self.field(n, "operator").map(|o| self.text(o));
                    let step = self.text(right).parse::<f64>().ok();
                    match (op, step) {
                        (Some("+="), Some(x)) => self.bumps.push((n, left, x)),
                        (Some("-="), Some(x)) => self.bumps.push((n, left, -x)),
                        _ => {}
                    }
                }
                match left.k() {
                    // `user = groupFields = sort = null;` at the end of a handler lets go of
                    // the values (an old habit of freeing memory), and `if (start === -1) start =
                    // null;` leaves no value to read: neither changes the value the name's uses
                    // are read with.
                    "identifier" if !augmented && self.releases(right) => {}
                    "identifier" => {
                        self.assigned
                            .entry(self.text(left).to_string())
                            .or_default()
                            .push(left.start_byte() as u32);
                        if !augmented {
                            self.add_binding(
                                self.text(left),
                                Binding {
                                    scope,
                                    pos,
                                    value: Some(right),
                                    kind: DeclKind::Mutable,
                                    type_text: None,
                                    injected_model: None,
                                    import: None,
                                    type_member: None,
                                },
                            );
                        }
                    }
                    "member_expression" if !augmented => {
                        let lt = self.text(left);
                        if let Some(field) = lt.strip_prefix("this.") {
                            if let Some(class) = class {
                                self.add_binding(
                                    &format!("this.{field}"),
                                    Binding {
                                        scope: class,
                                        pos,
                                        value: Some(right),
                                        kind: DeclKind::Field,
                                        type_text: None,
                                        injected_model: None,
                                        import: None,
                                        type_member: None,
                                    },
                                );
                            }
                        } else if lt == "module.exports" {
                            self.export_value("default", right);
                        } else if let Some(name) = lt
                            .strip_prefix("module.exports.")
                            .or_else(|| lt.strip_prefix("exports."))
                        {
                            self.export_nodes.push((name.to_string(), right));
                        } else {
                            if let (Some(o), Some(m)) =
                                (self.field(left, "object"), self.field(left, "property"))
                            {
                                // (And a schema's statics, `pageSchema.statics.findByPath =
                                // function (path) {..}`, which `static_def` reads.)
                                let statics = o.k() == "member_expression"
                                    && self
                                        .field(o, "property")
                                        .is_some_and(|p| self.text(p) == "statics");
                                if (o.k() == "identifier" || statics)
                                    && m.k() == "property_identifier"
                                {
                                    self.member_assigns.push((
                                        self.text(o),
                                        self.text(m),
                                        right,
                                        pos,
                                    ));
                                }
                            }
                            self.note_filled(left);
                        }
                    }
                    "subscript_expression" => {
                        // `update["$addToSet"] = {..}` sets an operator as `update.$addToSet
                        // = {..}` does (genieacs' device tags).
                        if let (Some(o), Some(i)) =
                            (self.field(left, "object"), self.field(left, "index"))
                        {
                            let t = self.text(i);
                            let operator = t.get(1..t.len().saturating_sub(1)).filter(|m| {
                                i.k() == "string"
                                    && m.starts_with('$')
                                    && m.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'$')
                            });
                            if let (Some(m), "identifier") = (operator, o.k()) {
                                self.member_assigns.push((self.text(o), m, right, pos));
                                self.note_fill(self.text(o), pos, false);
                            } else {
                                self.note_filled(left)
                            }
                        }
                    }
                    _ => {}
                }
            }
            "field_definition" | "public_field_definition" => {
                let Some(class) = class else { return };
                let Some(name) = self.field(n, "property").or_else(|| self.field(n, "name")) else {
                    return;
                };
                let type_text = self.field(n, "type").map(|t| self.text(t));
                let injected_model = self.injected_model(n);
                // A static field is also the class's (`static coll = db.collection('message')`,
                // read as `MessageModel.coll` anywhere in the file).
                // (`static` is an anonymous token, not in the flat tree: read before the name.)
                let before = &self.src[n.start_byte()..name.start_byte()];
                let static_name = super::has_identifier(before, "static")
                    .then(|| self.parents.of(n).and_then(|body| self.parents.of(body)))
                    .flatten()
                    .filter(|c| is_class(c.k()))
                    .and_then(|c| self.field(c, "name"))
                    .map(|c| format!("{}.{}", self.text(c), self.text(name)));
                for (key, scope) in std::iter::once((format!("this.{}", self.text(name)), class))
                    .chain(static_name.map(|k| (k, Span::new(0, self.src.len()))))
                {
                    self.add_binding(
                        &key,
                        Binding {
                            scope,
                            pos,
                            value: self.field(n, "value"),
                            kind: DeclKind::Field,
                            type_text,
                            injected_model: injected_model.clone(),
                            import: None,
                            type_member: None,
                        },
                    );
                }
            }
            "required_parameter" | "optional_parameter" => {
                let Some(pat) = self.field(n, "pattern") else {
                    return;
                };
                if pat.k() == "object_pattern" {
                    // `{ models, subdomain }: IContext`: each name is the type's member.
                    let Some(type_text) = self.field(n, "type").map(|t| self.text(t)) else {
                        return;
                    };
                    // `{ models, subdomain }: { models: IModels; subdomain: string }`: each
                    // name's own type.
                    let literal = self
                        .field(n, "type")
                        .and_then(|t| self.named_children(t).into_iter().next())
                        .filter(|t| t.k() == "object_type");
                    for p in self.named_children(pat) {
                        let (member, local) = match p.k() {
                            "shorthand_property_identifier_pattern" => (p, p),
                            "pair_pattern" => {
                                match (self.field(p, "key"), self.field(p, "value")) {
                                    (Some(k), Some(v)) if v.k() == "identifier" => (k, v),
                                    _ => continue,
                                }
                            }
                            _ => continue,
                        };
                        let (type_text, type_member) = match literal {
                            Some(o) => {
                                let own = self.named_children(o).into_iter().find_map(|s| {
                                    let name = self.field(s, "name")?;
                                    (s.k() == "property_signature"
                                        && self.text(name) == self.text(member))
                                    .then(|| self.field(s, "type"))?
                                });
                                let Some(own) = own else { continue };
                                (self.text(own), "")
                            }
                            None => (type_text, self.text(member)),
                        };
                        self.add_binding(
                            self.text(local),
                            Binding {
                                scope,
                                pos,
                                value: None,
                                kind: DeclKind::Param,
                                type_text: Some(type_text),
                                injected_model: None,
                                import: None,
                                type_member: Some(type_member),
                            },
                        );
                    }
                    return;
                }
                if pat.k() != "identifier" {
                    return;
                }
                let name = self.text(pat);
                let type_text = self.field(n, "type").map(|t| self.text(t));
                let injected_model = self.injected_model(n);
                let is_property = (0..n.child_count()).filter_map(|i| n.child(i)).any(|c| {
                    matches!(
                        c.k(),
                        "accessibility_modifier" | "readonly" | "override_modifier"
                    )
                });
                if is_property {
                    if let Some(class) = class {
                        self.add_binding(
                            &format!("this.{name}"),
                            Binding {
                                scope: class,
                                pos,
                                value: None,
                                kind: DeclKind::Field,
                                type_text,
                                injected_model: injected_model.clone(),
                                import: None,
                                type_member: None,
                            },
                        );
                    }
                }
                self.add_binding(
                    name,
                    Binding {
                        scope,
                        pos,
                        value: None,
                        kind: DeclKind::Param,
                        type_text,
                        injected_model,
                        import: None,
                        type_member: None,
                    },
                );
            }
            "formal_parameters" => {
                // Plain JavaScript parameters shadow outer names.
                for p in self.named_children(n) {
                    let id = match p.k() {
                        "identifier" => Some(p),
                        "assignment_pattern" => {
                            self.field(p, "left").filter(|l| l.k() == "identifier")
                        }
                        _ => None,
                    };
                    if let Some(id) = id {
                        self.add_binding(
                            self.text(id),
                            Binding {
                                scope,
                                pos,
                                value: None,
                                kind: DeclKind::Param,
                                type_text: None,
                                injected_model: None,
                                import: None,
                                type_member: None,
                            },
                        );
                    }
                }
            }
            "call_expression" => {
                let Some(f) = self.field(n, "function") else {
                    return;
                };
                if f.k() == "import" {
                    return;
                }
                if f.k() != "member_expression" {
                    if f.k() == "identifier" && self.text(f) == "require" {
                        if let Some(m) = self.require_of(n) {
                            self.note_module(Some(&m));
                        }
                    }
                    return;
                }
                let (Some(obj), Some(prop)) = (self.field(f, "object"), self.field(f, "property"))
                else {
                    return;
                };
                let method = self.text(prop);
                if method == "collection" {
                    self.note_collection_callback(n);
                }
                // `(course as any).save()`: TypeScript's cast saves the document it casts.
                let obj = if method == "save" {
                    self.unwrap_expr(obj)
                } else {
                    obj
                };
                if matches!(obj.k(), "identifier" | "member_expression" | "this") {
                    let name = self.text(obj).to_string();
                    match method {
                        "push" | "unshift" if obj.k() == "identifier" => {
                            if let Some(a) = self.field(n, "arguments") {
                                self.pushes.entry(name).or_default().push((
                                    pos,
                                    method == "unshift",
                                    a,
                                ));
                            }
                        }
                        "save" => self.saves.push((name, pos)),
                        // `Settings.findByIdAndUpdate(id, settings)`: the loaded document written
                        // back whole by a model's update, as its `save()` would (tiledesk's
                        // knowledge-base settings).
                        // (Read where a pushed array's save is looked for: see `written_back`.)
                        "findByIdAndUpdate" | "findOneAndUpdate" | "updateOne" | "replaceOne"
                        | "findOneAndReplace" => self.write_backs.push((pos, n)),
                        // `Object.assign(filter, extra)`: keys added at run time, as
                        // `filter[key] = v` adds them (tiledesk's data tables).
                        "assign" if name == "Object" => {
                            if let Some(target) = self
                                .field(n, "arguments")
                                .and_then(|a| self.named_children(a).into_iter().next())
                                .filter(|t| t.k() == "identifier")
                            {
                                self.note_fill(self.text(target), pos, true);
                            }
                        }
                        _ => {}
                    }
                }
            }
            "export_statement" => {
                if let Some(source) = self.field(n, "source").and_then(|s| self.string_value(s)) {
                    self.source_export(n, source);
                    return;
                }
                if let Some(value) = self.field(n, "value") {
                    self.export_value("default", value);
                    return;
                }
                let children = self.named_children(n);
                let is_default =
                    (0..n.child_count()).any(|i| n.child(i).is_some_and(|c| c.k() == "default"));
                for c in children {
                    match c.k() {
                        "lexical_declaration" | "variable_declaration" => {
                            for d in self.named_children(c) {
                                if let Some(name) =
                                    self.field(d, "name").filter(|x| x.k() == "identifier")
                                {
                                    self.export_nodes.push((self.text(name).to_string(), name));
                                }
                            }
                        }
                        "export_clause" => {
                            for spec in self.named_children(c) {
                                let Some(name) = self.field(spec, "name") else {
                                    continue;
                                };
                                let alias = self.field(spec, "alias").unwrap_or(name);
                                self.export_nodes.push((self.text(alias).to_string(), name));
                            }
                        }
                        "identifier" | "call_expression" | "member_expression" if is_default => {
                            self.export_nodes.push(("default".into(), c));
                        }
                        // `export enum Collections { Users = 'users' }`: its string members,
                        // for the modules that open `Collections.Users` (`note_name_imports`).
                        "enum_declaration" => {
                            let (Some(name), Some(body)) =
                                (self.field(c, "name"), self.field(c, "body"))
                            else {
                                continue;
                            };
                            for m in self.named_children(body) {
                                let (Some(key), Some(value)) = (
                                    self.field(m, "name").filter(|_| m.k() == "enum_assignment"),
                                    self.field(m, "value"),
                                ) else {
                                    continue;
                                };
                                if let Some(value) = self.constant_name_string(value) {
                                    self.ir.exports.push(Export {
                                        name: format!("{}.{}", self.text(name), self.text(key)),
                                        target: ExportTarget::Constant { value },
                                    });
                                }
                            }
                        }
                        "class_declaration" | "abstract_class_declaration" => {
                            let name = match self.field(c, "name") {
                                _ if is_default => "default".to_string(),
                                Some(name) => self.text(name).to_string(),
                                None => continue,
                            };
                            self.class_exports.push((name, c));
                        }
                        // `export async function OrdersCollection(db) {..}`: what it returns
                        // (see `export_returned`).
                        "function_declaration" if !is_default => {
                            if let Some(name) = self.field(c, "name") {
                                self.export_functions.push((self.text(name).to_string(), c));
                            }
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }

    /// Whether call `n` runs on one iteration of its statement loop `l` at most: it is under an
    /// `if` that compares the loop's counter with a value (`if (i === last)`, `for (const [index,
    /// name] of fragments.entries()) { if (lastIndex === index) .. }`, jsreport's path walk). The
    /// counter differs on every iteration, so the comparison holds once.
    fn once_per_loop(&self, n: Node<'t>, l: Span) -> bool {
        let mut conditions = Vec::new();
        let mut cur = n;
        while let Some(p) = self.parents.of(cur) {
            if p.start_byte() as u32 == l.start && p.end_byte() as u32 == l.end {
                let Some(counter) = self.loop_counter(p) else {
                    return false;
                };
                return conditions
                    .into_iter()
                    .any(|c| self.compares_counter(c, counter, 0));
            }
            if is_function(p.k()) {
                return false;
            }
            if p.k() == "if_statement"
                && self
                    .field(p, "consequence")
                    .is_some_and(|c| c.id() == cur.id())
            {
                conditions.extend(self.field(p, "condition"));
            }
            cur = p;
        }
        false
    }

    /// The counter of a statement loop: `i` of `for (let i = 0; ..; i++)`, `index` of
    /// `for (const [index, x] of xs.entries())`.
    fn loop_counter(&self, l: Node<'t>) -> Option<&'t str> {
        match l.k() {
            "for_statement" => {
                let init = self.field(l, "initializer")?;
                let decl = self
                    .named_children(init)
                    .into_iter()
                    .find(|d| d.k() == "variable_declarator")?;
                let name = self.field(decl, "name").filter(|x| x.k() == "identifier")?;
                Some(self.text(name))
            }
            "for_in_statement" => {
                let left = self.field(l, "left").filter(|x| x.k() == "array_pattern")?;
                let right = self
                    .field(l, "right")
                    .filter(|r| r.k() == "call_expression")?;
                let callee = self.field(right, "function")?;
                if !self.text(callee).ends_with(".entries") {
                    return None;
                }
                let first = self.named_children(left).into_iter().next()?;
                (first.k() == "identifier").then(|| self.text(first))
            }
            _ => None,
        }
    }

    /// Whether condition `c` holds only where `counter` equals something the counter is not part
    /// of: `i === last`, `(index == n - 1 && ok)`.
    fn compares_counter(&self, c: Node<'t>, counter: &str, depth: usize) -> bool {
        if depth > 8 {
            return false;
        }
        match c.k() {
            "parenthesized_expression" => self
                .named_children(c)
                .into_iter()
                .next()
                .is_some_and(|e| self.compares_counter(e, counter, depth + 1)),
            "binary_expression" => {
                let (Some(a), Some(b), Some(op)) = (
                    self.field(c, "left"),
                    self.field(c, "right"),
                    self.field(c, "operator"),
                ) else {
                    return false;
                };
                match self.text(op) {
                    "&&" => {
                        self.compares_counter(a, counter, depth + 1)
                            || self.compares_counter(b, counter, depth + 1)
                    }
                    "===" | "==" => {
                        let names = |x: Node<'t>| {
                            self.text(x)
                                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                                .any(|w| w == counter)
                        };
                        (self.text(a) == counter && !names(b))
                            || (self.text(b) == counter && !names(a))
                    }
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// An export of another module's names (`export { a, b as c } from './m'`, `export * from
    /// './m'`); a namespace (`export * as m from './m'`) passes on no model by name.
    fn source_export(&mut self, n: Node<'t>, source: String) {
        self.note_module(Some(&source));
        let mut named = false;
        for c in self.named_children(n) {
            match c.k() {
                "export_clause" => {
                    named = true;
                    for spec in self.named_children(c) {
                        let Some(name) = self.field(spec, "name") else {
                            continue;
                        };
                        let alias = self.field(spec, "alias").unwrap_or(name);
                        let text = |x: Node<'t>| {
                            self.string_value(x)
                                .unwrap_or_else(|| self.text(x).to_string())
                        };
                        let import = ImportRef {
                            module: source.clone(),
                            export: text(name),
                        };
                        self.source_exports.push((text(alias), import));
                    }
                }
                "namespace_export" => named = true,
                _ => {}
            }
        }
        if !named && is_repository_module(&source) {
            let import = ImportRef {
                module: source,
                export: "*".into(),
            };
            self.source_exports.push(("*".into(), import));
        }
    }

    fn export_value(&mut self, name: &str, value: Node<'t>) {
        if value.k() == "object" {
            for p in self.named_children(value) {
                match p.k() {
                    "shorthand_property_identifier" => {
                        self.export_nodes.push((self.text(p).to_string(), p))
                    }
                    "pair" => {
                        if let (Some(k), Some(v)) = (self.field(p, "key"), self.field(p, "value")) {
                            let key = self
                                .string_value(k)
                                .unwrap_or_else(|| self.text(k).to_string());
                            self.export_nodes.push((key, v));
                        }
                    }
                    _ => {}
                }
            }
        } else {
            self.export_nodes.push((name.to_string(), value));
        }
    }

    /// An exported object literal whose members are collections (`export const db = { users:
    /// client.db().collection('users') }`, or such an object bound to a name and exported): each
    /// member is exported as `name.member`, which an importer's `db.users` looks up. Members of a
    /// default export are exported by their own name, as `export_value` does for a literal.
    fn export_members(&mut self, name: &str, node: Node<'t>, depth: usize) {
        if depth > 2 {
            return;
        }
        let mut value = self.unwrap_expr(node);
        for _ in 0..MAX_DEPTH {
            if !matches!(value.k(), "identifier" | "shorthand_property_identifier") {
                break;
            }
            let name = self.text(value);
            match self
                .lookup(name, value.start_byte() as u32)
                .and_then(|b| b.value)
                .or_else(|| self.filled_later(name))
            {
                Some(v) => value = self.unwrap_expr(v),
                None => return,
            }
        }
        if let Some(o) = self.returned_object(value) {
            value = o;
        }
        if value.k() != "object" {
            return;
        }
        for p in self.named_children(value) {
            let (key, member) = match p.k() {
                "shorthand_property_identifier" => (self.text(p).to_string(), p),
                "pair" => match (self.field(p, "key"), self.field(p, "value")) {
                    (Some(k), Some(v)) if k.k() != "computed_property_name" => (
                        self.string_value(k)
                            .unwrap_or_else(|| self.text(k).to_string()),
                        v,
                    ),
                    _ => continue,
                },
                _ => continue,
            };
            let full = if name == "default" {
                key
            } else {
                format!("{name}.{key}")
            };
            match export_target(self.classify(member, 0)) {
                Some(target) => self.ir.exports.push(Export { name: full, target }),
                None => match self.constant_name_string(member) {
                    // `export const COLLECTIONS = { USERS: 'users' }`, for the modules that
                    // open `COLLECTIONS.USERS` (see `note_name_imports`).
                    Some(value) => self.ir.exports.push(Export {
                        name: full,
                        target: ExportTarget::Constant { value },
                    }),
                    None => self.export_members(&full, member, depth + 1),
                },
            }
        }
    }

    /// A string constant that may name a collection (`'__functions__'`, `"users"`): a word of
    /// letters, digits, `_`, `-` and `.`, read through a `const` bound to it.
    fn constant_name_string(&self, node: Node<'t>) -> Option<String> {
        let mut value = self.unwrap_expr(node);
        if value.k() == "identifier" {
            let name = self.text(value);
            let b = self.lookup(name, value.start_byte() as u32)?;
            if !self.is_constant(b, name) {
                return None;
            }
            value = self.unwrap_expr(b.value?);
        }
        if !matches!(value.k(), "string" | "template_string") {
            return None;
        }
        self.string_value(value).filter(|v| {
            !v.is_empty()
                && v.len() <= 64
                && v.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
        })
    }

    /// Collection names spelt with a constant another module of the repository exports
    /// (`db.collection(CN_PUBLISHED_FUNCTIONS)`, `db.collection(COLLECTIONS.USERS)` after
    /// `import { CN_PUBLISHED_FUNCTIONS, COLLECTIONS } from './constants'`): the linker replaces
    /// the unknown name with the constant's value (see `NameImport`).
    fn note_name_imports(&mut self) {
        let wanted: Vec<(&str, u32)> = self
            .ir
            .operations
            .iter()
            .filter_map(|op| op.collection.as_ref())
            .chain(self.ir.collections.iter())
            .filter_map(|c| Some((c.name.spelt_by()?, c.span.start)))
            .collect();
        let mut found: Vec<NameImport> = Vec::new();
        for (text, pos) in wanted {
            let (root, member) = match text.split_once('.') {
                Some((r, m)) => (r, Some(m)),
                None => (text, None),
            };
            if !is_identifier(root) || member.is_some_and(|m| !is_identifier(m)) {
                continue;
            }
            let Some(import) = self
                .lookup(root, pos)
                .and_then(|b| b.import.as_ref())
                .filter(|i| is_repository_module(&i.module))
            else {
                continue;
            };
            let export = match (member, import.export.as_str()) {
                (None, "*") => continue,
                (None, e) => e.to_string(),
                (Some(m), "*") => m.to_string(),
                (Some(m), e) => format!("{e}.{m}"),
            };
            let n = NameImport {
                text: text.to_string(),
                import: ImportRef {
                    module: import.module.clone(),
                    export,
                },
            };
            if !found.contains(&n) {
                found.push(n);
            }
        }
        self.ir.name_imports = found;
    }

    /// The function a module exports under `name` (not `default`): the exported node, or the
    /// function a name bound to it, or the file's one function of that name, names.
    fn exported_function(&self, name: &str, node: Node<'t>) -> Option<Node<'t>> {
        let mut func = self.unwrap_expr(node);
        if func.k() == "identifier" {
            let own = self.text(func);
            func = match self
                .lookup(own, func.start_byte() as u32)
                .and_then(|b| b.value)
            {
                Some(v) => self.unwrap_expr(v),
                None => match self.functions.get(own).map(|f| f.as_slice()) {
                    Some([f]) => *f,
                    _ => return None,
                },
            };
        }
        let function = matches!(
            func.k(),
            "arrow_function" | "function_expression" | "function" | "function_declaration"
        );
        (is_identifier(name) && name != "default" && function).then_some(func)
    }

    /// An exported function that opens collections and returns them at its end (unchained's
    /// `export const OrdersCollection = async (db) => { const Orders =
    /// db.collection<Order>('orders'); ..; return Orders; }`, or `return { Assortments,
    /// AssortmentLinks }`): its result is exported
    /// as `OrdersCollection().return` (`OrdersCollection()` would be a database's: see
    /// [`ImportRef::is_call`]), its result's members as `AssortmentsCollection().Assortments`,
    /// which an importer's `const Orders = await OrdersCollection(db)` and `const { Assortments }
    /// = await AssortmentsCollection(db)` name.
    fn export_returned(&mut self, name: &str, node: Node<'t>) {
        let Some(func) = self.exported_function(name, node) else {
            return;
        };
        // What it returns last: its expression body, or its body's last statement.
        let Some(body) = self.field(func, "body") else {
            return;
        };
        let last = match body.k() {
            "statement_block" => self
                .parents
                .children(body)
                .filter(|c| c.is_named() && c.k() != "comment")
                .last()
                .filter(|c| c.k() == "return_statement")
                .and_then(|r| {
                    self.parents
                        .children(r)
                        .find(|c| c.is_named() && c.k() != "comment")
                }),
            _ => Some(body),
        };
        // (A name, an object of names, or `db.collection(..)`: not any chain it may return.)
        let Some(returned) = last.map(|r| self.unwrap_expr(r)).filter(|r| match r.k() {
            "identifier" | "object" => true,
            "call_expression" => self
                .field(*r, "function")
                .and_then(|f| self.field(f, "property"))
                .is_some_and(|p| self.text(p) == "collection"),
            _ => false,
        }) else {
            return;
        };
        let mut found = Vec::new();
        if returned.k() == "object" {
            for p in self.named_children(returned) {
                if p.k() != "shorthand_property_identifier" {
                    continue;
                }
                if let Thing::Collection(r) = self.classify(p, 0) {
                    found.push((format!("{name}().{}", self.text(p)), r));
                }
            }
        } else if let Thing::Collection(r) = self.classify(returned, 0) {
            found.push((format!("{name}().return"), r));
        }
        for (name, collection) in found {
            if matches!(collection.name, CollectionName::Literal { .. }) {
                self.ir.exports.push(Export {
                    name,
                    target: ExportTarget::Collection { collection },
                });
            }
        }
    }

    /// The value of a module `let` declared without one (`export let collections: ..`) that the
    /// file fills once (`collections = db.getCollections()`, in an async start-up), not counting
    /// an empty placeholder (`collections = {} as ..`).
    fn filled_later(&self, name: &str) -> Option<Node<'t>> {
        let mut filled = self.bindings.get(name)?.iter().filter_map(|b| {
            b.value.filter(|v| {
                let v = self.unwrap_expr(*v);
                v.k() != "object" || !self.named_children(v).is_empty()
            })
        });
        let (Some(v), None) = (filled.next(), filled.next()) else {
            return None;
        };
        Some(v)
    }

    /// The object literal that a call of one of the file's functions or methods returns:
    /// `this.getCollections()`, `db.getCollections()`, `getCollections()`, where the file defines
    /// one function or method of that name whose `return` is an object literal (`return {
    /// conversations, config: configCollection }`).
    fn returned_object(&self, call: Node<'t>) -> Option<Node<'t>> {
        let call = self.unwrap_expr(call);
        if call.k() != "call_expression" {
            return None;
        }
        let f = self.field(call, "function")?;
        let name = match f.k() {
            "identifier" => f,
            "member_expression" => self.field(f, "property")?,
            _ => return None,
        };
        let [func] = self.functions.get(self.text(name))?.as_slice() else {
            return None;
        };
        let returned = self.unwrap_expr(self.first_return(*func)?);
        (returned.k() == "object").then_some(returned)
    }

    /// What function `func` returns first: its expression body (`(o) => [..]`) or the value of
    /// its first `return` of its own.
    fn first_return(&self, func: Node<'t>) -> Option<Node<'t>> {
        self.returned_values(func).into_iter().next()
    }

    /// What function `func` returns: its expression body, or the values of its own `return`s
    /// (those with one), in order.
    fn returned_values(&self, func: Node<'t>) -> Vec<Node<'t>> {
        let Some(body) = self.field(func, "body") else {
            return Vec::new();
        };
        if body.k() != "statement_block" {
            return vec![body];
        }
        let mut values = Vec::new();
        self.parents.walk(body, |c, k, enter| {
            if enter && k == "return_statement" && self.enclosing_function(c) == func {
                values.extend(self.named_children(c).into_iter().next());
            }
        });
        values
    }

    /// The one function of this file that `call` calls, if the file says which: a declaration or
    /// method of that name (`pipelineFor(o)`, `this.pipelineFor(o)`), a constant bound to a
    /// function (`const pipelineFor = (o) => [..]`), or a function assigned to the member of a
    /// named object (`exp.pipelineFor = function (o) {..}`, then `exp.pipelineFor(o)`).
    fn called_function(&self, call: Node<'t>) -> Option<Node<'t>> {
        let f = self.field(call, "function")?;
        let is_fn = |v: Node<'t>| {
            let v = self.unwrap_expr(v);
            matches!(v.k(), "arrow_function" | "function_expression" | "function").then_some(v)
        };
        let (object, name) = match f.k() {
            "identifier" => {
                let name = self.text(f);
                if let Some(b) = self.lookup(name, f.start_byte() as u32) {
                    return b
                        .value
                        .filter(|_| self.is_constant(b, name))
                        .and_then(is_fn);
                }
                (None, name)
            }
            "member_expression" => {
                let o = self.field(f, "object")?;
                (Some(self.text(o)), self.text(self.field(f, "property")?))
            }
            _ => return None,
        };
        if let Some([func]) = self.functions.get(name).map(Vec::as_slice) {
            return Some(*func);
        }
        // A member of a constant object literal: `const Collection = { runTimeout: () => .. }`.
        if let Some(o) = self
            .field(f, "object")
            .filter(|o| f.k() == "member_expression" && o.k() == "identifier")
        {
            let literal = self
                .lookup(self.text(o), o.start_byte() as u32)
                .filter(|b| self.is_constant(b, self.text(o)))
                .and_then(|b| b.value)
                .map(|v| self.unwrap_expr(v))
                .filter(|v| v.k() == "object");
            if let Some(func) = literal
                .and_then(|l| self.object_member(l, name))
                .and_then(is_fn)
            {
                return Some(func);
            }
        }
        let object = object?;
        let of_object = self
            .member_assigns_of
            .get(object)
            .map_or(&[][..], |v| v.as_slice());
        let mut assigned = of_object
            .iter()
            .map(|&i| &self.member_assigns[i as usize])
            .filter(|(o, m, _, _)| *o == object && *m == name);
        match (assigned.next(), assigned.next()) {
            (Some(&(_, _, value, _)), None) => is_fn(value),
            _ => None,
        }
    }

    /// The pipeline that a call of one of the file's functions returns (`called_function`):
    /// `exp._getAggregatePipeline(query, options)` whose `return [..., { $skip: options.skip }]`
    /// is an array literal with at least one stage (an object whose first key is an operator).
    /// The function's parameters are unknown values in it. Not an array the function builds
    /// (`const p = []; if (options.paged) p.push({ $skip: .. }); return p`): its stages may
    /// depend on what the caller passes, which is not read here. Also the update document such
    /// a function returns, written out with its operators: `const update = (lock) => ({ $set:
    /// .., $push: { activityLog: entry } })` then `updateOne(filter, update(true))`
    /// (growthbook's revisions).
    fn returned_pipeline(&self, call: Node<'t>, depth: usize) -> Option<Value> {
        let func = self.called_function(call)?;
        let returned = self.unwrap_expr(self.first_return(func)?);
        // An array written in the return, or a name of the helper bound to one that nothing
        // pushes onto (`const basicQuery = [{ $lookup: .. }, ..]; return basicQuery;`:
        // mern-ecommerce's queries). An array built step by step may depend on the arguments.
        let written = match returned.k() {
            "array" => true,
            "object" => self.named_children(returned).into_iter().any(|p| {
                p.k() == "pair"
                    && self.field(p, "key").is_some_and(|k| {
                        let key = self.text(k).trim_matches(|c| c == '"' || c == '\'');
                        is_update_operator(key)
                    })
            }),
            "identifier" => {
                let name = self.text(returned);
                !self.pushes.contains_key(name)
                    && self
                        .lookup(name, returned.start_byte() as u32)
                        .and_then(|b| b.value)
                        .is_some_and(|v| self.unwrap_expr(v).k() == "array")
            }
            _ => false,
        };
        if !written {
            return None;
        }
        super::helper_pipeline(&self.expanding, func.id(), || {
            self.lower(returned, depth + 1)
        })
    }

    /// The update an argument sends when [`Self::lower`] could not read it (`lowered`) because it
    /// is one of several documents the code writes (`let update; if (add) { update = { $push:
    /// .. } } else { update = { $set: .. } }`, `add ? { $push: .. } : { $pull: .. }`): the one
    /// that grows an array, else the one that counts: what some run of the code sends.
    fn lower_update(&self, n: Node<'t>, lowered: Value) -> Value {
        let branches = |c: Node<'t>| -> Vec<Node<'t>> {
            let c = self.unwrap_expr(c);
            if c.k() == "ternary_expression" {
                ["consequence", "alternative"]
                    .into_iter()
                    .filter_map(|b| self.field(c, b))
                    .collect()
            } else {
                vec![c]
            }
        };
        let inner = self.unwrap_expr(n);
        let candidates: Vec<Node<'t>> = match inner.k() {
            "ternary_expression" => branches(inner),
            "identifier" => {
                let at = inner.start_byte() as u32;
                // The function the argument is written in: an assignment's binding is scoped to
                // its block, which may be a branch before the call.
                let mut f = self.parents.of(inner);
                while let Some(p) = f.filter(|p| !is_function(p.k())) {
                    f = self.parents.of(p);
                }
                let within = f.map_or(Span::new(0, self.src.len()), span);
                self.bindings
                    .get(self.text(inner))
                    .into_iter()
                    .flatten()
                    .filter(|b| b.pos < at && within.contains(b.scope))
                    .filter_map(|b| b.value)
                    .flat_map(branches)
                    .collect()
            }
            _ => Vec::new(),
        };
        let updates: Vec<Value> = candidates
            .into_iter()
            .filter(|c| self.unwrap_expr(*c).k() == "object")
            .map(|c| self.lower(c, 0))
            .collect();
        super::growing_update(updates).unwrap_or(lowered)
    }

    /// `a.concat(b, c)` of an array `a` the code writes or binds: `a`'s items, then each
    /// argument's items (an argument that is no array is one item, as `concat` makes it):
    /// `Product.aggregate(basicQuery.concat(paginateQuery))` (mern-ecommerce's product list).
    fn concatenated(&self, call: Node<'t>, depth: usize) -> Option<Value> {
        let f = self.field(call, "function")?;
        if f.k() != "member_expression" || self.text(self.field(f, "property")?) != "concat" {
            return None;
        }
        // An array of stages the code does not show (`getStoreProductsQuery(..).concat(page)`,
        // from another module) is one unknown item before the arguments' stages, when an
        // argument is an array (a string's `concat` takes none).
        let (mut items, mut arrays) = match self.lower(self.field(f, "object")?, depth + 1) {
            Value {
                kind: ValueKind::Array(xs),
                ..
            } => (xs, true),
            v => (vec![v], false),
        };
        for a in self.args(call) {
            match self.lower(a, depth + 1) {
                Value {
                    kind: ValueKind::Array(xs),
                    ..
                } => {
                    arrays = true;
                    items.extend(xs)
                }
                v => items.push(v),
            }
        }
        if !arrays {
            return None;
        }
        Some(Value {
            span: span(call),
            kind: ValueKind::Array(items),
        })
    }

    /// The value of member `key` of an object literal: the shorthand name itself (`{ users }`)
    /// or the pair's value (`{ config: configCollection }`).
    fn object_member(&self, object: Node<'t>, key: &str) -> Option<Node<'t>> {
        self.named_children(object)
            .into_iter()
            .find_map(|p| match p.k() {
                "shorthand_property_identifier" if self.text(p) == key => Some(p),
                "pair" => {
                    let k = self.field(p, "key")?;
                    let k = self
                        .string_value(k)
                        .unwrap_or_else(|| self.text(k).to_string());
                    if k == key {
                        self.field(p, "value")
                    } else {
                        None
                    }
                }
                _ => None,
            })
    }

    fn add_import(&mut self, local: &str, module: &str, export: &str, scope: Span, pos: u32) {
        self.add_binding(
            local,
            Binding {
                scope,
                pos,
                value: None,
                kind: DeclKind::Const,
                type_text: None,
                injected_model: None,
                import: Some(ImportRef {
                    module: module.to_string(),
                    export: export.to_string(),
                }),
                type_member: None,
            },
        );
    }

    fn note_module(&mut self, module: Option<&str>) {
        let Some(m) = module else { return };
        // (Also a module of the repository named for Mongoose, which hands it on: Strider's
        // `require('../utils/mongoose-shim')`, a `lib/mongoose.ts` that connects and exports it.)
        if JS_MONGO_MODULES.contains(&m)
            || m.starts_with("@nestjs/mongoose")
            || m.starts_with("@typegoose/")
            || m.starts_with("mongodb/")
            || (is_repository_module(m)
                && m.rsplit('/').next().is_some_and(|s| s.contains("mongoose")))
        {
            self.uses_mongo = true;
        }
        if is_other_database_module(m) {
            self.uses_other_database = true;
        }
        // The umbrella packages (`firebase-admin`, `firebase`) also bring messaging, auth and
        // storage: Firestore only where the file asks for it (`admin.firestore()`,
        // `getFirestore()`), so that a file sending push notifications keeps its MongoDB calls.
        let umbrella = matches!(m, "firebase" | "firebase-admin");
        if (JS_FIRESTORE_MODULES.contains(&m)
            || m.starts_with("firebase/")
            || m.starts_with("@firebase/"))
            && (!umbrella || self.src.contains("irestore"))
        {
            self.uses_firestore = true;
        }
    }

    /// `require("x")` (possibly `require("x").default`) → `x`.
    fn require_of(&self, n: Node<'t>) -> Option<String> {
        let n = self.unwrap_expr(n);
        let call = if n.k() == "member_expression" {
            self.field(n, "object")?
        } else {
            n
        };
        if call.k() != "call_expression" {
            return None;
        }
        let f = self.field(call, "function")?;
        if f.k() != "identifier" || self.text(f) != "require" {
            return None;
        }
        self.string_value(*self.args(call).first()?)
    }

    /// The model name in a NestJS `@InjectModel(User.name)` / `@InjectModel("User")` decorator.
    fn injected_model(&self, n: Node<'t>) -> Option<String> {
        for d in self
            .named_children(n)
            .into_iter()
            .filter(|c| c.k() == "decorator")
        {
            let call = self.named_children(d).into_iter().next()?;
            if call.k() != "call_expression" {
                continue;
            }
            let f = self.field(call, "function")?;
            if self.text(f) != "InjectModel" {
                continue;
            }
            let arg = *self.args(call).first()?;
            if let Some(s) = self.string_value(arg) {
                return Some(s);
            }
            let t = self.text(arg);
            return Some(t.strip_suffix(".name").unwrap_or(t).to_string());
        }
        None
    }

    /// The sizes checked against an upper bound before `n` (see `lang::size_guards`):
    /// `if (x.length < N) { .. }`, `if (x.length >= N) return;`.
    fn size_guards(&self, n: Node<'t>) -> Vec<String> {
        super::size_guards(&self.parents, self.src, n, &JS_GUARDS, |c, exit, out| {
            super::binary_sizes(&self.parents, self.src, c, exit, out, &|m| {
                self.length_of(m)
            })
        })
    }

    /// The names the conditionals around `n` bound from above (`skip` after `if (skip >= MAX)
    /// return [];`), as `size_guards` reads sizes.
    fn capped_names(&self, n: Node<'t>) -> Vec<String> {
        super::size_guards(&self.parents, self.src, n, &JS_GUARDS, |c, exit, out| {
            super::binary_sizes(&self.parents, self.src, c, exit, out, &|m| {
                let m = self.unwrap_expr(m);
                (m.k() == "identifier").then(|| self.text(m).to_string())
            })
        })
    }

    /// What the conditionals around `n` say an array does not hold there (see
    /// `OpContext::absent_checks`), within its function: the `if` whose body holds `n`
    /// (`if (!user.methods.includes(m))`), the `if` whose `else` holds it (`const t =
    /// user.tokens.find((t) => t.kind === provider); if (t) {..} else {..}`), and each earlier `if`
    /// without an `else` whose body leaves (`if (post.likes.includes(uid)) return;`). Each is the
    /// array's text and what it does not hold.
    fn absent_checks(&self, n: Node<'t>) -> Vec<(&'t str, Held<'t>)> {
        // `exit`: the condition is false where `n` is.
        super::guard_conditions(
            &self.parents,
            self.src,
            n,
            &JS_GUARDS,
            true,
            |c, exit, out| self.absent_if(c, !exit, 0, out),
        )
    }

    /// What follows about arrays from `cond` being `truth`: through `!`, parentheses, `&&` (when
    /// true) and `||` (when false), a test that the array holds a value being false, or one that
    /// it does not being true.
    fn absent_if(
        &self,
        cond: Node<'t>,
        truth: bool,
        depth: usize,
        out: &mut Vec<(&'t str, Held<'t>)>,
    ) {
        if depth > 8 {
            return;
        }
        let op = |c: Node<'t>| {
            c.child_by_field_name("operator")
                .and_then(|o| self.src.get(o.byte_range()))
        };
        match cond.k() {
            "parenthesized_expression" => {
                for c in self.named_children(cond) {
                    self.absent_if(c, truth, depth + 1, out);
                }
            }
            "unary_expression" if op(cond) == Some("!") => {
                if let Some(a) = self.field(cond, "argument") {
                    self.absent_if(a, !truth, depth + 1, out);
                }
            }
            "binary_expression" => {
                let (Some(l), Some(r)) = (self.field(cond, "left"), self.field(cond, "right"))
                else {
                    return;
                };
                let operator = op(cond);
                if matches!((operator, truth), (Some("&&"), true) | (Some("||"), false)) {
                    self.absent_if(l, truth, depth + 1, out);
                    self.absent_if(r, truth, depth + 1, out);
                    return;
                }
                // `card.members?.includes(me) === true` (Huly's cards), `.. !== false`.
                let boolean = |n: Node<'t>| match n.k() {
                    "true" => Some(true),
                    "false" => Some(false),
                    _ => None,
                };
                let compared = match (boolean(l), boolean(r)) {
                    (None, Some(b)) => Some((l, b)),
                    (Some(b), None) => Some((r, b)),
                    _ => None,
                };
                if let Some((test, b)) = compared {
                    let same = match operator {
                        Some("===" | "==") => b,
                        Some("!==" | "!=") => !b,
                        _ => return,
                    };
                    self.absent_if(test, truth == same, depth + 1, out);
                    return;
                }
                // `arr.indexOf(v) === -1` (absent), `arr.findIndex(p) !== -1` (present), ...
                let (index, other, flipped) = match self.index_test(l) {
                    Some(i) => (i, r, false),
                    None => match self.index_test(r) {
                        Some(i) => (i, l, true),
                        None => return,
                    },
                };
                let other = self.text(other).trim();
                let absent = match (operator, other, flipped) {
                    (Some("===" | "=="), "-1", _) => true,
                    (Some("!==" | "!="), "-1", _) => false,
                    (Some("<"), "0", false) | (Some(">"), "0", true) => true,
                    (Some(">="), "0", false) | (Some(">"), "-1", false) => false,
                    (Some("<="), "0", true) | (Some("<"), "-1", true) => false,
                    _ => return,
                };
                if absent == truth {
                    out.push(index);
                }
            }
            _ if !truth => {
                if let Some(held) = self.held_test(cond) {
                    out.push(held);
                }
            }
            // `arr.every((d) => d.domain_id !== domain)`: no element is the value.
            _ => {
                let call = self.unwrap_expr(cond);
                let every = (call.k() == "call_expression")
                    .then(|| self.field(call, "function"))
                    .flatten()
                    .filter(|f| f.k() == "member_expression")
                    .filter(|f| {
                        self.field(*f, "property")
                            .is_some_and(|p| self.text(p) == "every")
                    });
                if let Some(f) = every {
                    let arr = self.field(f, "object").map(|o| self.text(o));
                    let pred = self.args(call).first().copied();
                    if let (Some(arr), Some(pred)) = (arr, pred) {
                        if let Some(held) = self.predicate_compares(pred, &["!==", "!="], false) {
                            out.push((arr, held));
                        }
                    }
                }
            }
        }
    }

    /// A test that is true when the array holds the value: `arr.includes(v)`, `arr.some(pred)`,
    /// `arr.find(pred)`, a `Set`'s `set.has(v)`, or a name bound to one (`const alreadyExists = arr.some(pred); if
    /// (alreadyExists) throw ..`, LearningLocker's organisation settings).
    fn held_test(&self, n: Node<'t>) -> Option<(&'t str, Held<'t>)> {
        let mut n = self.unwrap_expr(n);
        if n.k() == "identifier" {
            n = self.lookup(self.text(n), n.start_byte() as u32)?.value?;
        }
        self.array_search(n, &["includes", "some", "find"], "includes")
    }

    /// `arr.indexOf(v)` or `arr.findIndex(pred)`, or a name bound to one (`const i =
    /// arr.findIndex(pred); if (i < 0) ..`): the array and what it is searched for.
    fn index_test(&self, n: Node<'t>) -> Option<(&'t str, Held<'t>)> {
        let mut n = self.unwrap_expr(n);
        if n.k() == "identifier" {
            n = self.lookup(self.text(n), n.start_byte() as u32)?.value?;
        }
        self.array_search(n, &["indexOf", "findIndex"], "indexOf")
    }

    /// `arr.method(arg)` for one of `methods`: the array's text, and what it is searched for: the
    /// argument itself for `by_value` (`includes`, `indexOf`), else what the argument, a
    /// predicate, looks for.
    fn array_search(
        &self,
        n: Node<'t>,
        methods: &[&str],
        by_value: &str,
    ) -> Option<(&'t str, Held<'t>)> {
        let (object, method) = self.method_call(n)?;
        let mut method = self.text(method);
        // lodash and underscore: `_.find(arr, pred)`, `_.includes(arr, v)` (`_.contains` in
        // older versions), `_.indexOf(arr, v)`: Strider's collaborators.
        let lodash = matches!(self.text(object), "_" | "lodash" | "underscore");
        if lodash && method == "contains" {
            method = "includes";
        }
        // A `Set` kept beside the array (Hydro's vjudge: `if (this.problemLists.has(name))
        // return;` before `$push: {problemLists: name}`) answers as `includes` would.
        if method == "has" && by_value == "includes" {
            method = "includes";
        }
        if !methods.contains(&method) {
            return None;
        }
        let args = self.args(n);
        let (arr, arg) = if lodash {
            (self.text(*args.first()?), *args.get(1)?)
        } else {
            (self.text(object), *args.first()?)
        };
        if method == by_value {
            Some((arr, Held::Value(self.plain_text(arg))))
        } else if lodash && arg.k() == "object" {
            // lodash's matches shorthand: `_.find(guilds, { id: group._id })` (HabitRPG's
            // invitations) is an element whose `id` is `group._id`.
            match self.named_children(arg).as_slice() {
                [pair] if pair.k() == "pair" => {
                    let (k, v) = (self.field(*pair, "key")?, self.field(*pair, "value")?);
                    Some((arr, Held::Keyed(self.text(k), self.plain_text(v))))
                }
                _ => None,
            }
        } else {
            Some((arr, self.predicate_held(arg)?))
        }
    }

    /// What an element predicate looks for: `(t) => t.kind === k` is an element whose `kind` is
    /// `k`, `(id) => id.equals(uid)` or `(l) => l.toString() === uid` the value `uid` itself.
    fn predicate_held(&self, pred: Node<'t>) -> Option<Held<'t>> {
        self.predicate_compares(pred, &["===", "=="], true)
    }

    /// What an element predicate compares the element (or one key of it) with, by one of
    /// `operators` (`(t) => t.kind === k`, `(d) => d.domain_id !== domain`), and, with `equals`,
    /// by `a.equals(b)`.
    fn predicate_compares(
        &self,
        pred: Node<'t>,
        operators: &[&str],
        equals: bool,
    ) -> Option<Held<'t>> {
        // A predicate named beforehand (courselit's `const existingName = (group: Group) =>
        // group.name === name;` .. `course.groups?.some(existingName)`): its function.
        let pred = match pred.k() {
            "identifier" => self
                .lookup(self.text(pred), pred.start_byte() as u32)
                .and_then(|b| b.value)
                .map(|v| self.unwrap_expr(v))
                .unwrap_or(pred),
            _ => pred,
        };
        if !matches!(pred.k(), "arrow_function" | "function_expression") {
            return None;
        }
        let param = match self.field(pred, "parameter") {
            Some(p) => p,
            None => {
                let ps = self.named_children(self.field(pred, "parameters")?);
                match ps.as_slice() {
                    [p] if p.k() == "identifier" => *p,
                    [p] if p.k() == "required_parameter" => self.field(*p, "pattern")?,
                    _ => return None,
                }
            }
        };
        let param = self.text(param);
        let mut body = self.unwrap_expr(self.field(pred, "body")?);
        // `function (d) { return d.domain_id !== domain; }`: its one statement's value.
        if body.k() == "statement_block" {
            let [ret] = self.named_children(body)[..] else {
                return None;
            };
            body = self.unwrap_expr(*self.named_children(ret).first()?);
        }
        // The two sides compared: `a === b`, `a == b`, or `a.equals(b)`.
        let (a, b) = match body.k() {
            "binary_expression"
                if body
                    .child_by_field_name("operator")
                    .and_then(|o| self.src.get(o.byte_range()))
                    .is_some_and(|o| operators.contains(&o)) =>
            {
                (self.field(body, "left")?, self.field(body, "right")?)
            }
            "call_expression" if equals => {
                let f = self.field(body, "function")?;
                if f.k() != "member_expression"
                    || self.field(f, "property").map(|p| self.text(p)) != Some("equals")
                {
                    return None;
                }
                (self.field(f, "object")?, *self.args(body).first()?)
            }
            _ => return None,
        };
        // Which side reads the element: the parameter itself, or one key of it.
        let side = |x: Node<'t>| -> Option<Option<&'t str>> {
            let x = self.unwrap_expr(self.to_string_of(x));
            match x.k() {
                "identifier" if self.text(x) == param => Some(None),
                "member_expression" => {
                    let o = self.field(x, "object")?;
                    (o.k() == "identifier" && self.text(o) == param)
                        .then(|| self.field(x, "property").map(|p| self.text(p)))
                        .flatten()
                        .map(Some)
                }
                _ => None,
            }
        };
        let (element, value) = match (side(a), side(b)) {
            (Some(e), None) => (e, b),
            (None, Some(e)) => (e, a),
            _ => return None,
        };
        let value = self.plain_text(value);
        Some(match element {
            None => Held::Value(value),
            Some(key) => Held::Keyed(key, value),
        })
    }

    /// `x` for `x.toString()` or `String(x)`, else `n`: ids compared as strings.
    fn to_string_of(&self, n: Node<'t>) -> Node<'t> {
        let n = self.unwrap_expr(n);
        if n.k() != "call_expression" {
            return n;
        }
        let (Some(f), args) = (self.field(n, "function"), self.args(n)) else {
            return n;
        };
        match (f.k(), args.as_slice()) {
            ("member_expression", [])
                if self.field(f, "property").map(|p| self.text(p)) == Some("toString") =>
            {
                self.field(f, "object").unwrap_or(n)
            }
            ("identifier", [x]) if self.text(f) == "String" => *x,
            _ => n,
        }
    }

    /// The text of a compared or pushed value, without a `.toString()` / `String(..)` around it.
    fn plain_text(&self, n: Node<'t>) -> &'t str {
        self.text(self.to_string_of(n)).trim()
    }

    /// `n` without parentheses, or for a name, the expression it is bound to (`None` when the
    /// name is bound to nothing the file shows).
    fn through_binding(&self, n: Node<'t>) -> Option<Node<'t>> {
        let n = self.unwrap_expr(n);
        if n.k() != "identifier" {
            return Some(n);
        }
        let value = self.lookup(self.text(n), n.start_byte() as u32)?.value?;
        Some(self.unwrap_expr(value))
    }

    /// Does `pushed` (the argument of `arr.push(..)`, or a `$push` value) match what a check says
    /// the array does not hold: the same value, or an object whose `key` is the same value (an
    /// object literal, or a name bound to one)?
    fn pushes_held(&self, pushed: Node<'t>, held: &Held<'t>) -> bool {
        match *held {
            Held::Value(v) => self.plain_text(pushed) == v,
            Held::Keyed(key, v) => {
                // `if (table.filters.some((f) => f.id === filter.id)) throw ..;` then a push of
                // `filter` (read as the object it is bound to): the pushed value's own key.
                if let Some((name, _)) = v.rsplit_once('.').filter(|(_, k)| *k == key) {
                    // (`const filter = {..}`: the declarator of the object pushed.)
                    let bound_to_pushed = || {
                        self.parents
                            .of(pushed)
                            .filter(|d| d.k() == "variable_declarator")
                            .and_then(|d| self.field(d, "name"))
                            .is_some_and(|n| self.text(n) == name)
                    };
                    if self.plain_text(pushed) == name || bound_to_pushed() {
                        return true;
                    }
                }
                let Some(object) = self.through_binding(pushed) else {
                    return false;
                };
                object.k() == "object"
                    && self
                        .named_children(object)
                        .into_iter()
                        .any(|p| match p.k() {
                            "pair" => {
                                self.field(p, "key").map(|k| self.text(k)) == Some(key)
                                    && self.field(p, "value").map(|x| self.plain_text(x)) == Some(v)
                            }
                            "shorthand_property_identifier" => self.text(p) == key && key == v,
                            _ => false,
                        })
            }
        }
    }

    /// The array `measured` takes the `.length` of, as text (with the value an identifier is
    /// bound to: `pins = board.pins`).
    fn length_of(&self, measured: Node<'t>) -> Option<String> {
        let measured = self.unwrap_expr(measured);
        if measured.k() != "member_expression"
            || self.field(measured, "property").map(|p| self.text(p)) != Some("length")
        {
            return None;
        }
        let obj = self.field(measured, "object")?;
        let mut text = self.text(obj).to_string();
        if obj.k() == "identifier" {
            if let Some(v) = self
                .lookup(self.text(obj), obj.start_byte() as u32)
                .and_then(|b| b.value)
            {
                text = format!("{text} = {}", self.text(v));
            }
        }
        Some(text)
    }

    fn lookup(&self, name: &str, at: u32) -> Option<&Binding<'t>> {
        let list = self.bindings.get(name)?;
        let index = self.scope_index.get(name)?;
        super::scopes::lookup_latest_before(list, index, at, |b| b.pos, |b| b.value)
    }

    /// A plain path: a name, `this`, or a chain of property names on one (`syncLog._id`,
    /// `doc?.customerId` as `doc.customerId`, `this.users`); `None` for anything else.
    fn plain_path(&self, n: Node<'t>) -> Option<String> {
        match n.k() {
            "identifier"
            | "this"
            | "shorthand_property_identifier"
            | "shorthand_property_identifier_pattern" => Some(self.text(n).to_string()),
            "member_expression" => {
                let property = self.field(n, "property").filter(|p| {
                    matches!(p.k(), "property_identifier" | "private_property_identifier")
                })?;
                let mut path = self.plain_path(self.field(n, "object")?)?;
                path.push('.');
                path.push_str(self.text(property));
                Some(path)
            }
            _ => None,
        }
    }

    /// The paths in `root` (see [`Self::plain_path`]), each the longest one (`doc.customerId`,
    /// not also `doc`), and for `q[k]` the object `q`; with `reads`, also what the subscript
    /// reads. Sets `opaque` on a function, or (with `reads`) on code that changes a name itself.
    fn paths_in(&self, root: Node<'t>, reads: bool, opaque: &mut bool) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        // The end of the last path taken: the nodes inside it are part of it.
        let mut inside = 0;
        self.parents.walk(root, |n, kind, enter| {
            if !enter || (n.start_byte() < inside) {
                return;
            }
            match kind {
                k if is_function(k) => *opaque = true,
                "assignment_expression"
                | "augmented_assignment_expression"
                | "update_expression"
                    if reads =>
                {
                    *opaque = true
                }
                "identifier"
                | "this"
                | "shorthand_property_identifier"
                | "shorthand_property_identifier_pattern"
                | "member_expression" => {
                    if let Some(p) = self.plain_path(n) {
                        out.push(p);
                        inside = n.end_byte();
                    }
                }
                // `q[k] = ..` changes `q`.
                "subscript_expression" if !reads => {
                    if let Some(p) = self.field(n, "object").and_then(|o| self.plain_path(o)) {
                        out.push(p);
                        inside = n.end_byte();
                    }
                }
                _ => {}
            }
        });
        out
    }

    /// The paths an expression reads (`userId`, `syncLog._id`, the `userId` of a shorthand
    /// `{ userId }`; not property names or keys), or `None` when it holds code that runs apart
    /// from it (a function) or changes a name itself (`x = ..`, `i++`).
    fn names_read(&self, root: Node<'t>) -> Option<Vec<String>> {
        let mut opaque = false;
        let names = self.paths_in(root, true, &mut opaque);
        (!opaque).then_some(names)
    }

    /// Whether the read `call`, in the loop `loop_span`, sends the same query on every iteration:
    /// it is a method call, and no name that its receiver, its arguments and the arguments of the
    /// calls chained onto it (`.sort(..)`, `.skip(..)`) read changes in the loop. A name changes
    /// when the loop binds it (its own variable, a callback's parameters, `catch (e)`), changes it
    /// in place (`q.a = ..`, `ids.push(..)`, `delete q.a`, `i++`), or assigns it from something
    /// that changes; a name the loop assigns from what does not change (`const prev = await
    /// Orders.findOne({ customerId })`) does not. `userId` read before the loop, then `for (const
    /// activity of activities) { await Users.findOne({ _id: userId }) }`: one query repeated,
    /// not one per item. `cache` keeps [`Self::names_changed_in`] by loop.
    fn same_each_iteration(
        &self,
        call: Node<'t>,
        loop_span: Span,
        callbacks: &[Span],
        cache: &mut HashMap<Span, Vec<String>>,
    ) -> bool {
        let kinds = ("member_expression", "call_expression");
        // A node-style result callback (`coll.findOne(q, {}, function (err, doc) { .. })`, or
        // given to a call chained onto it: `.find(q).toArray(function (err, docs) { .. })`) is
        // not part of the query: what it does with the result leaves the query the same.
        let read = |p: Node<'t>| {
            let n = p.named_child_count();
            let callback = p.k() == "arguments"
                && n > 0
                && p.named_child(n - 1).is_some_and(|l| is_function(l.k()));
            if !callback {
                return self.names_read(p);
            }
            let mut names = Vec::new();
            for i in 0..n - 1 {
                names.extend(self.names_read(p.named_child(i)?)?);
            }
            Some(names)
        };
        let names = super::query_names(&self.parents, call, kinds, read);
        self.unchanged_in_loop(call, loop_span, callbacks, names, cache)
    }

    /// Whether none of the paths `names` (`None`: unknown) changes in the loop `loop_span` that
    /// `call` runs in, through the loops' callbacks `callbacks` (see [`Self::same_each_iteration`]).
    fn unchanged_in_loop(
        &self,
        call: Node<'t>,
        loop_span: Span,
        callbacks: &[Span],
        names: Option<Vec<String>>,
        cache: &mut HashMap<Span, Vec<String>>,
    ) -> bool {
        super::same_query_each_iteration(
            &self.parents,
            call,
            loop_span,
            names,
            |n| !is_function(n.k()) || self.loop_callback(n, callbacks) || self.promise_executor(n),
            cache,
            |looped| self.names_changed_in(looped),
        )
    }

    /// Whether the function `f` is stored to be called later rather than run where it is written:
    /// an object's method or property (`{ action: async function () { .. } }`), or assigned to a
    /// member (`routes[m] = async function () { .. }`). Written in a loop (Rocket.Chat's REST
    /// routes, one handler per HTTP method), its reads run once per call of it, not per item.
    fn stored_function(&self, f: Node<'t>) -> bool {
        if f.k() == "method_definition" {
            return true;
        }
        let Some(p) = self.parents.of(f) else {
            return false;
        };
        match p.k() {
            "pair" => self.field(p, "value").map(|v| v.id()) == Some(f.id()),
            "assignment_expression" => {
                self.field(p, "right").map(|v| v.id()) == Some(f.id())
                    && self.field(p, "left").is_some_and(|l| {
                        matches!(l.k(), "member_expression" | "subscript_expression")
                    })
            }
            _ => false,
        }
    }

    /// Whether the function `f` is a promise's executor (`new Promise(function (resolve) { .. })`),
    /// which runs at once, where it is written.
    fn promise_executor(&self, f: Node<'t>) -> bool {
        self.argument_of(f)
            .filter(|c| c.k() == "new_expression")
            .and_then(|c| self.field(c, "constructor"))
            .is_some_and(|c| self.text(c) == "Promise")
    }

    /// Whether the function `f` is the per-item callback of one of the loops `loops`
    /// (`items.forEach((item) => ..)`): a call in it runs in that loop, not apart from it.
    fn loop_callback(&self, f: Node<'t>, loops: &[Span]) -> bool {
        self.argument_of(f)
            .is_some_and(|c| loops.contains(&span(c)))
    }

    /// The call (or `new`) that `n` is an argument of.
    fn argument_of(&self, n: Node<'t>) -> Option<Node<'t>> {
        let args = self.parents.of(n).filter(|a| a.k() == "arguments")?;
        self.parents.of(args)
    }

    /// The names that change in the loop `looped` (see [`Self::same_each_iteration`]).
    fn names_changed_in(&self, looped: Node<'t>) -> Vec<String> {
        const MUTATORS: &[&str] = &[
            "push", "pop", "shift", "unshift", "splice", "sort", "reverse", "fill", "set", "add",
            "delete", "clear", "next", "assign",
        ];
        // The paths a target changes: `q.a` in `q.a = ..`, `q` in `q[k] = ..`, `slug` in `{ slug }`.
        let target_names = |t: Node<'t>, out: &mut Vec<String>| {
            out.extend(self.paths_in(t, false, &mut false));
        };
        // Names that change whatever they are given, and the names assigned plainly (`x = ..`,
        // `const { a } = ..`) with what each is given (`None`: code that runs apart from it).
        let mut changed: Vec<String> = Vec::new();
        let mut assigned: Vec<(String, Option<Vec<String>>)> = Vec::new();
        self.parents.walk(looped, |n, kind, enter| {
            if !enter {
                return;
            }
            match kind {
                "variable_declarator" | "assignment_expression" => {
                    let left = if kind == "variable_declarator" {
                        self.field(n, "name")
                    } else {
                        self.field(n, "left")
                    };
                    let Some(left) = left else {
                        return;
                    };
                    let right = self.field(n, "value").or_else(|| self.field(n, "right"));
                    match right {
                        Some(right)
                            if matches!(
                                left.k(),
                                "identifier" | "object_pattern" | "array_pattern"
                            ) =>
                        {
                            let value = self.names_read(right);
                            let mut bound = Vec::new();
                            target_names(left, &mut bound);
                            for name in bound {
                                assigned.push((name, value.clone()));
                            }
                        }
                        // `let x;` each iteration, `q.a = ..`.
                        _ => target_names(left, &mut changed),
                    }
                }
                "augmented_assignment_expression" | "for_in_statement" => {
                    if let Some(left) = self.field(n, "left") {
                        target_names(left, &mut changed);
                    }
                }
                "update_expression" => {
                    if let Some(arg) = self.field(n, "argument") {
                        target_names(arg, &mut changed);
                    }
                }
                "unary_expression" => {
                    let delete = self
                        .field(n, "operator")
                        .is_some_and(|o| self.text(o) == "delete");
                    if let (true, Some(arg)) = (delete, self.field(n, "argument")) {
                        target_names(arg, &mut changed);
                    }
                }
                "catch_clause" => {
                    if let Some(p) = self.field(n, "parameter") {
                        target_names(p, &mut changed);
                    }
                }
                k if is_function(k) => {
                    for p in [self.field(n, "parameters"), self.field(n, "parameter")]
                        .into_iter()
                        .flatten()
                    {
                        target_names(p, &mut changed);
                    }
                }
                "call_expression" => {
                    let Some(f) = self
                        .field(n, "function")
                        .filter(|f| f.k() == "member_expression")
                    else {
                        return;
                    };
                    let method = self.field(f, "property").map(|p| self.text(p));
                    if !method.is_some_and(|m| MUTATORS.contains(&m)) {
                        return;
                    }
                    // `Object.assign(q, ..)` changes its first argument; `ids.push(..)` its
                    // object, when that is a name (`find(q).sort(..)` sorts a new cursor).
                    let target = if method == Some("assign") {
                        self.args(n).first().copied()
                    } else {
                        self.field(f, "object")
                    };
                    changed.extend(target.and_then(|t| self.plain_path(t)));
                }
                _ => {}
            }
        });
        // (Changing one property, `doc.total`, does not change another, `doc.customerId`.)
        super::close_over_assignments(&mut changed, &assigned, |r, c| super::paths_overlap(r, c));
        changed
    }

    /// Whether `obj` is a name that the body of the loop `loop_span` binds from the loop's item:
    /// `const { Model } = getCollection({ collectionSlug })` inside `for (const { collectionSlug }
    /// of hops)` (or a per-item callback's parameters); or a call given such a name, or the item
    /// itself: `conn.model(name)` after `const name = entry.modelName`, `getCollection(kind)` in
    /// `for (const kind of kinds)`. Read only for receivers that resolve to no collection, so the
    /// walk up the tree is rare.
    fn bound_per_item(&self, obj: Node<'t>, loop_span: Option<Span>) -> bool {
        let Some(loop_span) = loop_span else {
            return false;
        };
        // The receiver's name, or the plain names a call that returns it is given
        // (`conn.model(name)`, `getCollection(kind)`).
        let obj = self.unwrap_expr(obj);
        let (names, called) = match obj.k() {
            "identifier" => (vec![obj], false),
            // `refList.model`: the object the chain starts from.
            "member_expression" => {
                let mut head = obj;
                while head.k() == "member_expression" {
                    match self.field(head, "object") {
                        Some(o) => head = self.unwrap_expr(o),
                        None => return false,
                    }
                }
                if head.k() != "identifier" {
                    return false;
                }
                (vec![head], false)
            }
            "call_expression" => (
                self.args(obj)
                    .into_iter()
                    .map(|a| self.unwrap_expr(a))
                    .filter(|a| a.k() == "identifier")
                    .collect(),
                true,
            ),
            _ => return false,
        };
        if names.is_empty() {
            return false;
        }
        // Up from the receiver to the loop.
        let Some(lp) = super::ancestor_spanning(&self.parents, obj, loop_span, |_| true) else {
            return false;
        };
        // The names the loop's header binds: `for (const [i, { slug }] of ..)`, or the parameters
        // of `items.forEach(({ slug }) => ..)`.
        let header = if lp.k() == "call_expression" {
            self.args(lp)
                .into_iter()
                .filter(|a| matches!(a.k(), "arrow_function" | "function_expression" | "function"))
                .find_map(|f| {
                    self.field(f, "parameters")
                        .or_else(|| self.field(f, "parameter"))
                })
        } else {
            self.field(lp, "left")
        };
        let Some(header) = header else {
            return false;
        };
        let mut items: Vec<&str> = Vec::new();
        self.parents.walk(header, |n, kind, enter| {
            if enter && matches!(kind, "identifier" | "shorthand_property_identifier_pattern") {
                items.push(self.text(n));
            }
        });
        names.into_iter().any(|name| {
            // `conn.model(item)`: the item itself names the collection.
            if called && items.contains(&self.text(name)) {
                return true;
            }
            self.reads_item(name, loop_span, &items, 0)
        })
    }

    /// Whether the name `name` is bound in the loop `loop_span` to a value that reads one of the
    /// loop's `items`, directly or through another name bound so (`var field =
    /// list.fields[path]; var refList = field.refList;`, `path` the item).
    fn reads_item(&self, name: Node<'t>, loop_span: Span, items: &[&str], depth: usize) -> bool {
        if depth > 3 {
            return false;
        }
        let root = self.parents.root();
        let Some(b) = self.lookup(self.text(name), name.start_byte() as u32) else {
            return false;
        };
        let at = b.pos as usize;
        if !loop_span.contains(Span::new(at, at)) {
            return false;
        }
        // The declarator that binds the name there, and whether its value reads an item.
        let mut decl = root.descendant_for_byte_range(at, at);
        while let Some(d) = decl {
            if d.k() == "variable_declarator" && d.start_byte() == at {
                break;
            }
            decl = self.parents.of(d).filter(|p| p.start_byte() == at);
        }
        let Some(value) = decl.and_then(|d| self.field(d, "value")) else {
            return false;
        };
        let mut reads_item = false;
        let mut names = Vec::new();
        self.parents.walk(value, |n, kind, enter| {
            if enter && matches!(kind, "identifier" | "shorthand_property_identifier") {
                if items.contains(&self.text(n)) {
                    reads_item = true;
                } else if kind == "identifier" {
                    names.push(n);
                }
            }
        });
        reads_item
            || names
                .into_iter()
                .any(|n| self.reads_item(n, loop_span, items, depth + 1))
    }

    /// `modes` in `for (const mode of modes)` after `const modes = ['draft', 'published']`: a
    /// constant name bound to a list written in the code (see [`Self::written_list`]) or to a list
    /// read from configuration (`const hosts = process.env.HOSTS.split(",")`), never pushed to.
    ///
    /// Also an object written in the code with constant keys, never changed in its scope,
    /// iterated through `Object.keys(..)`, `Object.values(..)` or `Object.entries(..)` (or its
    /// keys by `for .. in`): `for (const [field, cv] of Object.entries(LOCAL_CV))` after `const
    /// LOCAL_CV = { place: "locators", calendars: "event_calendars" }`.
    fn names_fixed_array(&self, n: Node<'t>) -> bool {
        let n = self.unwrap_expr(n);
        match self.object_view_of(n) {
            Some(object) => self.names_fixed_object(object),
            None => self.names_fixed_array_at(n, 0) || self.names_fixed_object(n),
        }
    }

    /// `o` for `Object.keys(o)`, `Object.values(o)` or `Object.entries(o)`.
    fn object_view_of(&self, n: Node<'t>) -> Option<Node<'t>> {
        if n.k() != "call_expression" {
            return None;
        }
        let f = self
            .field(n, "function")
            .filter(|f| f.k() == "member_expression")?;
        let on_object = self
            .field(f, "object")
            .is_some_and(|o| self.text(o) == "Object");
        let view = self.field(f, "property").map(|p| self.text(p));
        let [arg] = self.args(n)[..] else {
            return None;
        };
        (on_object && matches!(view, Some("keys" | "values" | "entries")))
            .then(|| self.unwrap_expr(arg))
    }

    /// A constant name bound to an object written in the code whose keys are all constants
    /// (`{ place: "locators", "a-b": 1, 2: x }`: no spread, no computed key, no method), which
    /// its scope never changes (`o.k = ..`, `o[k] = ..`, `delete o.k`, `Object.assign(o, ..)`).
    fn names_fixed_object(&self, n: Node<'t>) -> bool {
        if n.k() != "identifier" {
            return false;
        }
        let name = self.text(n);
        let Some(b) = self.lookup(name, n.start_byte() as u32) else {
            return false;
        };
        let Some(object) = b.value.map(|v| self.unwrap_expr(v)) else {
            return false;
        };
        let entries: Vec<Node<'t>> = self
            .named_children(object)
            .into_iter()
            .filter(|e| e.k() != "comment")
            .collect();
        let constant_keys = object.k() == "object"
            && !entries.is_empty()
            && entries.iter().all(|e| {
                e.k() == "pair"
                    && self.field(*e, "key").is_some_and(|k| {
                        matches!(k.k(), "property_identifier" | "string" | "number")
                    })
            });
        if !constant_keys || !self.is_constant(b, name) {
            return false;
        }
        let Some(scope) = super::ancestor_spanning(&self.parents, n, b.scope, |_| true) else {
            return false;
        };
        let member_of_it = |t: Node<'t>| {
            matches!(t.k(), "member_expression" | "subscript_expression")
                && self
                    .field(t, "object")
                    .is_some_and(|o| o.k() == "identifier" && self.text(o) == name)
        };
        let mut changed = false;
        self.parents.walk(scope, |c, kind, enter| {
            if !enter || changed {
                return;
            }
            changed = match kind {
                "assignment_expression" | "augmented_assignment_expression" => {
                    self.field(c, "left").is_some_and(member_of_it)
                }
                "unary_expression" => {
                    self.field(c, "operator")
                        .is_some_and(|o| self.text(o) == "delete")
                        && self.field(c, "argument").is_some_and(member_of_it)
                }
                "call_expression" => {
                    self.field(c, "function")
                        .is_some_and(|f| self.text(f) == "Object.assign")
                        && self.args(c).first().is_some_and(|a| self.text(*a) == name)
                }
                _ => false,
            };
        });
        !changed
    }

    fn names_fixed_array_at(&self, n: Node<'t>, depth: usize) -> bool {
        if n.k() != "identifier" || depth > 4 {
            return false;
        }
        let name = self.text(n);
        let Some(b) = self.lookup(name, n.start_byte() as u32) else {
            return false;
        };
        b.value.is_some_and(|v| {
            self.written_list(v, depth) || super::naming::reads_configuration(self.text(v))
        }) && self.is_constant(b, name)
            && !self.pushes.contains_key(name)
    }

    /// A non-empty array written in the code, its items whatever they are (`[a.x, a.y, a.z]`: three
    /// at most), spreading only such lists (`['EBARIMT', ...SUB_CODES]`, `SUB_CODES` a constant
    /// bound to one, or to `new Set([..])` of one), or such an array filtered, mapped or sliced
    /// (`[a.x, a.y].filter(Boolean)`): a handful of iterations fixed by the code.
    fn written_list(&self, v: Node<'t>, depth: usize) -> bool {
        let v = self.unwrap_expr(v);
        match v.k() {
            "array" => {
                let items = self.named_children(v);
                !items.is_empty()
                    && items.iter().all(|i| match i.k() {
                        "comment" => false,
                        "spread_element" => self.named_children(*i).first().is_some_and(|a| {
                            let a = self.unwrap_expr(*a);
                            self.names_fixed_array_at(a, depth + 1)
                                || self.written_list(a, depth + 1)
                        }),
                        _ => true,
                    })
            }
            "call_expression" => self
                .field(v, "function")
                .filter(|f| f.k() == "member_expression")
                .filter(|f| {
                    self.field(*f, "property")
                        .is_some_and(|p| matches!(self.text(p), "filter" | "map" | "slice"))
                })
                .and_then(|f| self.field(f, "object"))
                .is_some_and(|o| {
                    let o = self.unwrap_expr(o);
                    self.written_list(o, depth + 1) || self.names_fixed_array_at(o, depth + 1)
                }),
            // `new Set([..])`
            "new_expression" => {
                self.field(v, "constructor")
                    .is_some_and(|c| self.text(c) == "Set")
                    && self
                        .field(v, "arguments")
                        .and_then(|a| self.named_children(a).first().copied())
                        .is_some_and(|a| self.written_list(a, depth + 1))
            }
            _ => false,
        }
    }

    /// What a loop's iterable iterates: `docs` for `docs || []`, `docs ?? []` or `(docs!)`, a
    /// fallback for a missing list that adds no items.
    fn iterated(&self, n: Node<'t>) -> Node<'t> {
        let mut n = self.unwrap_expr(n);
        // Some of the array's own items, in some order: `existing.filter((e) => ..)`,
        // `docs.slice(1)`, `rows.sort(by)` walk `existing`, `docs`, `rows` (jsreport's version
        // control walks the results of a `find` it filtered).
        for _ in 0..4 {
            let Some(f) = self
                .field(n, "function")
                .filter(|f| n.k() == "call_expression" && f.k() == "member_expression")
            else {
                break;
            };
            let keeps_items = self.field(f, "property").is_some_and(|p| {
                matches!(
                    self.text(p),
                    "filter" | "slice" | "sort" | "reverse" | "toSorted" | "toReversed"
                )
            });
            match self.field(f, "object") {
                Some(o) if keeps_items => n = self.unwrap_expr(o),
                _ => break,
            }
        }
        if n.k() != "binary_expression" {
            return n;
        }
        let (Some(left), Some(op), Some(right)) = (
            self.field(n, "left"),
            self.field(n, "operator"),
            self.field(n, "right"),
        ) else {
            return n;
        };
        let right = self.unwrap_expr(right);
        if matches!(self.text(op), "||" | "??")
            && right.k() == "array"
            && self.named_children(right).is_empty()
        {
            self.unwrap_expr(left)
        } else {
            n
        }
    }

    /// [`Extractor::iterated`] of a loop's iterable `n`, whose `over` was read from `n`'s whole
    /// text: where that is a fallback or parentheses around a name (`(docs || [])`, which starts
    /// like a tuple), whether the loop is fixed is read from the name's text instead.
    fn iterated_in(&self, n: Node<'t>, over: &mut LoopOver) -> Node<'t> {
        let core = self.iterated(n);
        if core != n {
            // (What the array is, unless a slice keeps only a few of its items.)
            over.fixed = super::loop_over(self.text(core), span(core)).fixed
                || super::few_by_slice(self.text(n));
        }
        core
    }

    /// `docs = await coll.find(q).toArray()` for `docs` in `for (const d of docs)`: the expression
    /// a name is bound to, when it is a constant bound in the function (or file) it is used in.
    fn bound_in_function(&self, n: Node<'t>) -> Option<Span> {
        if n.k() != "identifier" {
            return None;
        }
        let name = self.text(n);
        let b = self.lookup(name, n.start_byte() as u32)?;
        let value = b.value?;
        let scope = self.enclosing_function(n);
        (self.is_constant(b, name) && b.scope == span(scope) && !span(value).contains(span(n)))
            .then(|| span(value))
    }

    // ---------------------------------------------------------------- resolution

    fn unwrap_expr(&self, mut n: Node<'t>) -> Node<'t> {
        for _ in 0..MAX_DEPTH {
            match n.k() {
                "parenthesized_expression"
                | "await_expression"
                | "as_expression"
                | "non_null_expression"
                | "satisfies_expression"
                | "type_assertion" => match self.named_children(n).into_iter().next() {
                    Some(c) => n = c,
                    None => return n,
                },
                _ => return n,
            }
        }
        n
    }

    /// Records that a depth-capped function was asked at `depth` (for `classify`'s memo).
    fn note_depth(&self, depth: usize) {
        if depth > self.deepest.get() {
            self.deepest.set(depth);
        }
    }

    /// What `n` is. The calls of one chain (`db.collection(..).find(..).sort(..)`) classify each
    /// prefix again, so results are kept by node once the bindings are complete. A result
    /// depends on the depth it was asked at only through the cap: a computation that started at
    /// depth `d` and was never cut off, asking depth-capped functions at most `reach` deeper, gives
    /// the same result at any depth `d'` with `d' + reach <= MAX_DEPTH`, and only then is it reused.
    fn classify(&self, n: Node<'t>, depth: usize) -> Thing {
        if depth > MAX_DEPTH {
            self.note_depth(depth);
            return Thing::Unknown;
        }
        let key = n.id();
        if let Some(memo) = self.classified.borrow().as_ref() {
            if let Some((thing, reach)) = memo.get(&key) {
                if depth + reach <= MAX_DEPTH {
                    self.note_depth(depth + reach);
                    return thing.clone();
                }
            }
        }
        let outer = self.deepest.replace(depth);
        let thing = self.classify_uncached(n, depth);
        let reached = self.deepest.get();
        if reached <= MAX_DEPTH {
            if let Some(memo) = self.classified.borrow_mut().as_mut() {
                memo.insert(key, (thing.clone(), reached - depth));
            }
        }
        self.deepest.set(outer.max(reached));
        thing
    }

    /// Whether `obj` is a registry of collections by name (see `names_collection_registry`):
    /// Mongoose's `connection.collections`, an application's `exports.collections[name] =
    /// db.collection(name)` (openwhyd's `mongodb.collections`), or a name bound once to one
    /// (`const cols = mongodb.collections`).
    fn is_collection_registry(&self, obj: Node<'t>) -> bool {
        match obj.k() {
            "member_expression" => super::names_collection_registry(self.text(obj)),
            "identifier" => self
                .lookup(self.text(obj), obj.start_byte() as u32)
                .filter(|b| b.kind == DeclKind::Const)
                .and_then(|b| b.value)
                .is_some_and(|v| {
                    let v = self.unwrap_expr(v);
                    v.k() == "member_expression" && super::names_collection_registry(self.text(v))
                }),
            _ => false,
        }
    }

    /// The name a call's function node calls: `model` in `model(..)` and `mongoose.model(..)`.
    pub(super) fn callee_name(&self, f: Node<'t>) -> &'t str {
        match f.k() {
            "identifier" => self.text(f),
            "member_expression" => self.field(f, "property").map_or("", |p| self.text(p)),
            _ => "",
        }
    }

    /// `this` in a Mongoose static (`schema.statics.notify = function () { this.updateMany(..) }`,
    /// `schema.statics = { notify() {..} }`, `schema.static("notify", function () {..})`): the
    /// model compiled from that schema (`const User = mongoose.model("User", schema)`).
    fn statics_model(&self, this: Node<'t>, depth: usize) -> Thing {
        self.statics_schema(this)
            .and_then(|schema| self.model_of_schema(schema, depth))
            .unwrap_or(Thing::Unknown)
    }

    /// The model a repository class hands its base class (`class MessageRepository extends
    /// BaseRepository { constructor() { super(Message, MessageEntity); } }`), for the `this` of its
    /// methods (`this.update(..)`, the base's own wrappers) and for the base's property that holds it
    /// (`this.MongooseModel.find(..)`, see [`is_model_property`]): the first argument of the
    /// constructor's `super(..)` call that is a collection, a model or a capitalised import of the
    /// repository.
    fn super_model(&self, this: Node<'t>, depth: usize) -> Thing {
        match self.enclosing_class(this) {
            Some(class) => self.class_model(class, depth),
            None => Thing::Unknown,
        }
    }

    /// The collection of `new C(..)`, `C` a class of the file whose base opens the collection
    /// its constructor names (see [`Extractor::class_model`]): bitcore's `export const
    /// CoinStorage = new CoinModel()`, `CoinModel`'s `super('coins')`.
    fn instance_collection(&self, value: Node<'t>, depth: usize) -> Option<Thing> {
        let value = match value.k() {
            // An exported name: its declarator's value.
            "identifier" => match self
                .parents
                .of(value)
                .filter(|p| p.k() == "variable_declarator")
            {
                Some(p) => self.field(p, "value")?,
                // `export default userAdapter;`
                None => {
                    self.lookup(self.text(value), value.start_byte() as u32)?
                        .value?
                }
            },
            _ => value,
        };
        let value = self.unwrap_expr(value);
        if value.k() != "new_expression" || depth > MAX_DEPTH {
            return None;
        }
        let ctor = self.field(value, "constructor")?;
        if ctor.k() != "identifier" {
            return None;
        }
        // (The class's own getter first, as for `this.collection` in its methods.)
        let class = self.top_level_class(self.text(ctor))?;
        self.getter_collection(class, depth)
            .or_else(|| match self.class_model(class, depth + 1) {
                t @ Thing::Collection(_) => Some(t),
                _ => None,
            })
    }

    /// What the class's own `get collection()` returns, when it is a collection: `get
    /// collection() { return Storage.db.collection('settings'); }`.
    fn getter_collection(&self, class: Node<'t>, depth: usize) -> Option<Thing> {
        let body = self.field(class, "body")?;
        let getter = self.parents.children(body).find(|&m| {
            m.k() == "method_definition"
                && self
                    .field(m, "name")
                    .is_some_and(|n| self.text(n) == "collection")
                && self.is_getter(m)
        })?;
        match self.classify(self.first_return(getter)?, depth + 1) {
            t @ Thing::Collection(_) => Some(t),
            _ => None,
        }
    }

    /// What [`Extractor::super_model`] gives the `this` of `class`'s methods.
    fn class_model(&self, class: Node<'t>, depth: usize) -> Thing {
        if !self
            .parents
            .children(class)
            .any(|c| c.k() == "class_heritage")
        {
            return Thing::Unknown;
        }
        let Some(call) = self.constructor_of(class).and_then(|c| self.super_call(c)) else {
            return self
                .field_named_base_collection(class)
                .map_or(Thing::Unknown, Thing::Collection);
        };
        // An import counts when it is named like a model (`Message`), not like a module's
        // settings (`super(config)`), which the linker could not resolve to a collection.
        // A base class given a name (`super(db, 'message', trash)`, Rocket.Chat's models)
        // builds its collection from the name: a collection parameter passed beside it
        // (`trash?: Collection<..>`, where deleted documents go) is another one.
        let args = self.args(call);
        let named = args.iter().any(|a| self.string_value(*a).is_some());
        args.iter()
            .filter(|a| !(named && a.k() == "identifier"))
            .map(|&a| {
                let capitalised = self.text(a).starts_with(|c: char| c.is_ascii_uppercase());
                (self.classify(a, depth + 1), capitalised)
            })
            .find_map(|(t, capitalised)| match t {
                Thing::Collection(_) => Some(t),
                Thing::Imported(..) if capitalised => Some(t),
                _ => None,
            })
            .or_else(|| {
                named
                    .then(|| self.named_base_collection(class, &args))
                    .flatten()
                    .map(Thing::Collection)
            })
            .or_else(|| {
                self.field_named_base_collection(class)
                    .map(Thing::Collection)
            })
            .unwrap_or(Thing::Unknown)
    }

    /// The collection a base class opens by a field its subclass sets: `class UserAdapter
    /// extends MongoAdapter { collectionName = "users"; }`, where `MongoAdapter`'s `get
    /// collection() { return db.collection(this.collectionName); }` (api-subventions-asso's
    /// adapters). Only a class that sets one string field named for a collection; the base, in
    /// this module or another, must open it (see [`Extractor::collection_field`]).
    fn field_named_base_collection(&self, class: Node<'t>) -> Option<CollectionRef> {
        let body = self.field(class, "body")?;
        let mut named = None;
        for m in self.parents.children(body) {
            if !matches!(m.k(), "public_field_definition" | "field_definition") {
                continue;
            }
            let Some(name) = self.field(m, "property").or_else(|| self.field(m, "name")) else {
                continue;
            };
            let field = self.text(name);
            if !field.to_ascii_lowercase().contains("collection") {
                continue;
            }
            let Some(value) = self
                .field(m, "value")
                .and_then(|v| self.string_value(v))
                .filter(|v| !v.is_empty())
            else {
                continue;
            };
            if named.is_some() {
                return None;
            }
            named = Some((field, value, m));
        }
        let (field, value, node) = named?;
        let named = CollectionRef {
            name: CollectionName::Literal { name: value },
            span: span(node),
            via: CollectionVia::Driver,
            import: None,
        };
        self.named_through_base(class, named, &format!("(this.{field}=..)"), |local| {
            self.collection_field(local) == Some(field)
        })
    }

    /// The collection `named` that `class` hands its base, where the base opens it: for a base
    /// imported from a module of the repository, `named` with the base's export and `suffix`
    /// (`BaseRaw(_, ..)`, `MongoAdapter(this.collectionName=..)`) for the linker to decide (see
    /// `ImportRef::names_factory_call`); for a base of this file, `named` if `opens` says so.
    fn named_through_base(
        &self,
        class: Node<'t>,
        named: CollectionRef,
        suffix: &str,
        opens: impl Fn(Node<'t>) -> bool,
    ) -> Option<CollectionRef> {
        let base = self
            .heritage_value(class)
            .filter(|b| b.k() == "identifier")?;
        let base_name = self.text(base);
        if let Some(b) = self.lookup(base_name, base.start_byte() as u32) {
            let import = b
                .import
                .as_ref()
                .filter(|i| is_repository_module(&i.module))?;
            return Some(CollectionRef {
                import: Some(ImportRef {
                    module: import.module.clone(),
                    export: format!("{}{suffix}", import.export),
                }),
                ..named
            });
        }
        let local = self.top_level_class(base_name)?;
        opens(local).then_some(named)
    }

    /// The driver's legacy callback, `db.collection('results', (err, collection) => ..)` (or
    /// with options before it): its second parameter holds the collection the call opens
    /// (pa11y-webservice's models), classified as the call is (see `callback_collections`).
    fn note_collection_callback(&mut self, call: Node<'t>) {
        // (Most calls end with a name written out, `.collection('users')`: their last byte
        // but one is a quote. Then the last argument's kind, before `args`.)
        let end = call.end_byte();
        if end >= 2 && matches!(self.src.as_bytes()[end - 2], b'\'' | b'"' | b'`') {
            return;
        }
        let Some(callback) = self
            .field(call, "arguments")
            .and_then(|a| self.parents.children(a).last())
            .filter(|l| is_function(l.k()))
        else {
            return;
        };
        if self.args(call).len() < 2 {
            return;
        }
        let Some(params) = self
            .field(callback, "parameters")
            .filter(|p| p.k() == "formal_parameters")
        else {
            return;
        };
        if let Some(&second) = self.named_children(params).get(1) {
            if second.k() == "identifier" {
                self.callback_collections
                    .insert((self.text(second), params.start_byte() as u32), call);
            }
        }
    }

    /// The name a call `x.collection(name, ..)` opens (its first argument), if it is one.
    fn collection_call_name(&self, call: Node<'t>) -> Option<Node<'t>> {
        let opens = self
            .field(call, "function")
            .filter(|c| c.k() == "member_expression")
            .and_then(|c| self.field(c, "property"))
            .is_some_and(|p| self.text(p) == "collection");
        let first = *self.args(call).first().filter(|_| opens)?;
        Some(self.unwrap_expr(first))
    }

    /// Whether method `m` is a getter (`get collection() {..}`, `protected get x()`): `get` is
    /// an anonymous token, not in the flat tree, so read before the name.
    fn is_getter(&self, m: Node<'t>) -> bool {
        // (`get` is right before the name: `static get x`, `protected get x`.)
        self.field(m, "name").is_some_and(|name| {
            let before = self.src.as_bytes()[m.start_byte()..name.start_byte()].trim_ascii_end();
            before.ends_with(b"get")
                && (before.len() == 3 || !is_ident_byte(before[before.len() - 4]))
        })
    }

    /// The field of the class whose name a method without parameters opens, where no
    /// constructor parameter gives it: `get collection() { return db.collection(
    /// this.collectionName); }` with `abstract collectionName: string`.
    fn collection_field(&self, class: Node<'t>) -> Option<&'t str> {
        let body = self.field(class, "body")?;
        let ctor = self.constructor_of(class);
        let params = ctor.map(|c| self.parameter_names(c)).unwrap_or_default();
        let mut found = None;
        for m in self.parents.children(body) {
            if m.k() != "method_definition" || Some(m) == ctor || !self.is_getter(m) {
                continue;
            }
            let Some(mbody) = self.field(m, "body") else {
                continue;
            };
            self.parents
                .walk_flagged(mbody, kinds::FLAGS.table(), |n, f, enter| {
                    if found.is_some() || !enter || f & kinds::CALL == 0 {
                        return;
                    }
                    let Some(first) = self.collection_call_name(n) else {
                        return;
                    };
                    if first.k() == "member_expression"
                        && self.field(first, "object").is_some_and(|o| o.k() == "this")
                    {
                        found = self.field(first, "property").map(|p| self.text(p));
                    }
                });
        }
        found.filter(|f| !params.contains(f))
    }

    /// The collection a base class builds from the name its subclass hands it: `class
    /// NpsVoteRaw extends BaseRaw { constructor(db, trash) { super(db, 'nps_vote', trash); } }`,
    /// where `BaseRaw`'s constructor opens `db.collection(name)` (Rocket.Chat's models). The
    /// name counts only if the base builds its collection from the parameter it is given for
    /// ([`Extractor::collection_parameter`]): a base of this file is asked here; one imported from
    /// a module of the repository is the linker's to ask, as a collection factory named for the
    /// name's place (`BaseRaw(_, ..)`: see [`ImportRef::names_factory_call`]). (Rocket.Chat's base
    /// prefixes the name, `rocketchat_nps_vote`; the name is what the code shows.)
    fn named_base_collection(&self, class: Node<'t>, args: &[Node<'t>]) -> Option<CollectionRef> {
        let (index, name) = args.iter().enumerate().find_map(|(i, a)| {
            self.string_value(*a)
                .filter(|s| !s.is_empty())
                .map(|s| (i, s))
        })?;
        let named = CollectionRef {
            name: CollectionName::Literal { name },
            span: span(args[index]),
            via: CollectionVia::Driver,
            import: None,
        };
        self.named_through_base(
            class,
            named,
            &format!("({}..)", "_, ".repeat(index)),
            |local| self.collection_parameter(local) == Some(index),
        )
    }

    /// The binding of `name` that reaches `at`, where `b` is the latest before it: when `b` is
    /// made in one branch of an `if` and `at` is in the other (`if (!sample) { sample = new
    /// Sample({ md5 }); } else if (..) { sample.filenames.push(f); }`, a get-or-create), the one
    /// before the `if`.
    fn reaching<'b>(&'b self, b: &'b Binding<'t>, name: &str, at: u32) -> &'b Binding<'t> {
        let Some(v) = b.value else {
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
        let mut cur = v;
        for _ in 0..8 {
            let Some(p) = self.parents.of(cur) else {
                return b;
            };
            let statement = match p.k() {
                "if_statement" if self.field(p, "consequence") == Some(cur) => p,
                "else_clause" => match self.parents.of(p) {
                    Some(s) => s,
                    None => return b,
                },
                k if is_function(k) || k == "class_body" || k == "program" => return b,
                _ => {
                    cur = p;
                    continue;
                }
            };
            if super::scopes::in_another_branch(statement, cur, at) {
                return self
                    .lookup(name, statement.start_byte() as u32)
                    .filter(|e| e.pos < statement.start_byte() as u32)
                    .unwrap_or(b);
            }
            return b;
        }
        b
    }

    /// A function whose first parameters are a request and its response (`(req, res)`,
    /// `(request, reply)`): a request handler, whatever its name.
    fn handles_request(&self, f: Node<'t>) -> bool {
        matches!(
            self.parameter_names(f).get(..2),
            Some(["req" | "request", "res" | "response" | "reply"])
        )
    }

    /// The operands of a chain of fallbacks, `a || b ?? c`, left to right (`n` itself when it is
    /// no fallback).
    fn fallbacks(&self, n: Node<'t>) -> Vec<Node<'t>> {
        let is_fallback = |b: Node<'t>| {
            b.k() == "binary_expression"
                && self
                    .field(b, "operator")
                    .is_some_and(|o| matches!(self.text(o), "||" | "??"))
        };
        let mut operands = Vec::new();
        let mut cur = self.unwrap_expr(n);
        while is_fallback(cur) {
            let (Some(l), Some(r)) = (self.field(cur, "left"), self.field(cur, "right")) else {
                break;
            };
            operands.push(self.unwrap_expr(r));
            cur = self.unwrap_expr(l);
        }
        operands.push(cur);
        operands.reverse();
        operands
    }

    /// The first model a chain of fallbacks compiles (`mongoose.models.C ||
    /// mongoose.model('controls', s) || mongoose.model('inputs', s)`: `controls`, novu's, as the
    /// compilation returns a model and the rest never runs).
    fn first_compiled(&self, n: Node<'t>, depth: usize) -> Option<Thing> {
        self.fallbacks(n)
            .into_iter()
            .filter(|o| o.k() == "call_expression")
            .map(|o| self.classify(o, depth + 1))
            .find(|t| matches!(t, Thing::Collection(_)))
    }

    /// The class a class declaration extends: `BaseRaw` of `class X extends BaseRaw<T>` (in
    /// TypeScript, the `extends` clause's value).
    fn heritage_value(&self, class: Node<'t>) -> Option<Node<'t>> {
        let heritage = self
            .parents
            .children(class)
            .find(|c| c.k() == "class_heritage")?;
        let first = self
            .parents
            .children(heritage)
            .find(|c| c.is_named() && c.k() != "comment")?;
        match first.k() {
            "extends_clause" => self.field(first, "value"),
            "implements_clause" => None,
            _ => Some(first),
        }
    }

    /// The parameter of a class's constructor that names the collection its instances work on
    /// (its position): `constructor(db, name) { this.col = db.collection(name); }`, or as a
    /// parameter property (`constructor(private db: Db, protected name: string)` ..
    /// `db.collection(this.name)`), or through a field the constructor sets from it
    /// (Rocket.Chat's `BaseRaw`: `this.collectionName = options?.resolver ? options.resolver(name)
    /// : getCollectionName(name); this.col = this.db.collection(this.collectionName)`, where
    /// `options` is only read through). One parameter must be the name.
    fn collection_parameter(&self, class: Node<'t>) -> Option<usize> {
        let ctor = self.constructor_of(class)?;
        let params = self.parameter_names(ctor);
        let body = self.field(ctor, "body")?;
        // The first arguments of `.collection(..)` calls, and the fields set (`this.f = v`).
        let mut names: Vec<Node<'t>> = Vec::new();
        let mut fields: Vec<(&'t str, Node<'t>)> = Vec::new();
        self.parents
            .walk_flagged(body, kinds::FLAGS.table(), |n, f, enter| {
                if !enter || f & (kinds::CALL | kinds::BINDING) == 0 {
                    return;
                }
                if f & kinds::CALL != 0 {
                    names.extend(self.collection_call_name(n));
                } else if n.k() == "assignment_expression" {
                    let target = self
                        .field(n, "left")
                        .filter(|l| l.k() == "member_expression")
                        .filter(|l| self.field(*l, "object").is_some_and(|o| o.k() == "this"))
                        .and_then(|l| self.field(l, "property"));
                    if let (Some(t), Some(v)) = (target, self.field(n, "right")) {
                        fields.push((self.text(t), v));
                    }
                }
            });
        // A getter of the class that opens it (`get collection() { return
        // this.storage.db.collection(this.collectionName); }`, bitcore's and Huly's base models):
        // a method without parameters whose `.collection(..)` is given a field.
        if names.is_empty() {
            let class_body = self.field(class, "body")?;
            for m in self.parents.children(class_body) {
                if m.k() != "method_definition" || m == ctor || !self.is_getter(m) {
                    continue;
                }
                let Some(body) = self.field(m, "body") else {
                    continue;
                };
                self.parents
                    .walk_flagged(body, kinds::FLAGS.table(), |n, f, enter| {
                        if !enter || f & kinds::CALL == 0 {
                            return;
                        }
                        if let Some(first) = self
                            .collection_call_name(n)
                            .filter(|a| a.k() == "member_expression")
                        {
                            names.push(first);
                        }
                    });
            }
        }
        let position = |name: &str| params.iter().position(|p| !p.is_empty() && *p == name);
        names.into_iter().find_map(|n| match n.k() {
            "identifier" => position(self.text(n)),
            "member_expression" if self.field(n, "object").is_some_and(|o| o.k() == "this") => {
                let field = self.text(self.field(n, "property")?);
                position(field).or_else(|| {
                    let (_, value) = fields.iter().rev().find(|(f, _)| *f == field)?;
                    let text = self.text(*value);
                    let mut passed = params
                        .iter()
                        .enumerate()
                        .filter(|(_, p)| !p.is_empty() && passes_value(text, p));
                    match (passed.next(), passed.next()) {
                        (Some((i, _)), None) => Some(i),
                        _ => None,
                    }
                })
            }
            _ => None,
        })
    }

    /// The indexes a model class declares in a method that returns their specifications
    /// (Rocket.Chat's `modelIndexes(): IndexDescription[] { return [{ key: { npsId: 1 } }, ..];
    /// }`, which its base class hands to `createIndexes`): a `createIndexes` of the list on the
    /// collection the class's base is given ([`Extractor::super_model`]). Only a method whose one
    /// statement returns a list of objects with a `key` document counts.
    fn class_indexes(&mut self) {
        // A base's own `this.col.createIndexes(indexes)` creates what each subclass lists, read
        // where the subclass lists it: not an index on a collection named at run time, which
        // would leave every collection's indexes unknown.
        let unread = |op: &Operation| {
            op.kind == OpKind::CreateIndex
                && op
                    .collection
                    .as_ref()
                    .is_none_or(|c| matches!(c.name, CollectionName::Unknown { .. }))
                && op.receiver.starts_with("this.")
                && op.filter.as_ref().is_none_or(Value::is_unknown)
        };
        let bases: Vec<Span> = if self.ir.operations.iter().any(unread) {
            self.classes
                .iter()
                .filter(|c| self.collection_parameter(**c).is_some())
                .map(|c| span(*c))
                .collect()
        } else {
            Vec::new()
        };
        if !bases.is_empty() {
            self.ir
                .operations
                .retain(|op| !(unread(op) && bases.iter().any(|b| b.contains(op.span))));
        }
        for i in 0..self.classes.len() {
            let class = self.classes[i];
            if !self
                .parents
                .children(class)
                .any(|c| c.k() == "class_heritage")
            {
                continue;
            }
            let Some(body) = self.field(class, "body") else {
                continue;
            };
            let lists: Vec<(Node<'t>, Node<'t>)> = self
                .parents
                .children(body)
                .filter(|m| m.k() == "method_definition")
                .filter_map(|m| Some((m, self.returned_index_list(m)?)))
                .collect();
            if lists.is_empty() {
                continue;
            }
            let Thing::Collection(collection) = self.class_model(class, 0) else {
                continue;
            };
            for (method, list) in lists {
                let name = self.field(method, "name").unwrap_or(method);
                let mut op =
                    Operation::new(OpKind::CreateIndex, "createIndexes", span(list), span(name));
                op.filter = Some(self.lower(list, 0));
                op.receiver = "this".into();
                op.evidence = match &collection.import {
                    Some(i) if i.names_factory_call() => Evidence::None,
                    _ => Evidence::Resolved,
                };
                op.collection = Some(collection.clone());
                self.ir.operations.push(op);
            }
        }
    }

    /// The list of index specifications a method returns, its one statement: `return [{ key: {
    /// a: 1 } }, { key: { b: 1 }, unique: true }]` (spread entries allowed beside them).
    fn returned_index_list(&self, method: Node<'t>) -> Option<Node<'t>> {
        let body = self.field(method, "body")?;
        let mut statements = self.parents.children(body).filter(|c| c.k() != "comment");
        let ret = statements.next().filter(|r| r.k() == "return_statement")?;
        if statements.next().is_some() {
            return None;
        }
        let list = self.parents.children(ret).find(|c| c.is_named())?;
        let list = self.unwrap_expr(list);
        if list.k() != "array" {
            return None;
        }
        let items = self.named_children(list);
        let spec = |o: Node<'t>| {
            o.k() == "object"
                && self.named_children(o).into_iter().any(|p| {
                    p.k() == "pair"
                        && self.field(p, "key").is_some_and(|k| self.text(k) == "key")
                        && self.field(p, "value").is_some_and(|v| v.k() == "object")
                })
        };
        (items.iter().any(|&o| spec(o))
            && items.iter().all(|&o| o.k() == "spread_element" || spec(o)))
        .then_some(list)
    }

    /// A class's `constructor` method.
    fn constructor_of(&self, class: Node<'t>) -> Option<Node<'t>> {
        let body = self.field(class, "body")?;
        self.parents.children(body).find(|&m| {
            m.k() == "method_definition"
                && self
                    .field(m, "name")
                    .is_some_and(|n| self.text(n) == "constructor")
        })
    }

    /// The `super(..)` call a constructor makes, a statement of its body.
    fn super_call(&self, ctor: Node<'t>) -> Option<Node<'t>> {
        let body = self.field(ctor, "body")?;
        self.parents.children(body).find_map(|stmt| {
            (stmt.k() == "expression_statement")
                .then(|| self.parents.children(stmt).next())
                .flatten()
                .filter(|c| {
                    c.k() == "call_expression"
                        && self.field(*c, "function").is_some_and(|f| f.k() == "super")
                })
        })
    }

    /// Whether `n` (an exported name or value) is a collection in memory, with no database
    /// behind it: Meteor's `new Mongo.Collection(null)` (or without a name), or `new C()` of a
    /// class of this module that extends `Mongo.Collection` and calls `super(null)` (Rocket.Chat's
    /// client models).
    fn is_local_collection(&self, n: Node<'t>) -> bool {
        let value = match n.k() {
            "identifier" => {
                let declared = self
                    .parents
                    .of(n)
                    .filter(|p| p.k() == "variable_declarator")
                    .and_then(|p| self.field(p, "value"));
                match declared {
                    Some(v) => v,
                    None => match self
                        .lookup(self.text(n), n.end_byte() as u32)
                        .and_then(|b| b.value)
                    {
                        Some(v) => v,
                        None => return false,
                    },
                }
            }
            _ => n,
        };
        let value = self.unwrap_expr(value);
        if value.k() != "new_expression" {
            return false;
        }
        let Some(ctor) = self.field(value, "constructor") else {
            return false;
        };
        let unnamed = |args: Vec<Node<'t>>| {
            args.first()
                .is_none_or(|a| matches!(self.text(*a), "null" | "undefined"))
        };
        let ctor_text = self.text(ctor);
        if is_meteor_collection(ctor_text) {
            return unnamed(self.args(value));
        }
        // Another database's object (`new MarsDB.Collection('posts')`, `new Datastore(..)` of
        // NeDB): its `find` and `update` reach no MongoDB.
        let named = ctor_text
            .split_once('.')
            .map_or(ctor_text, |(first, _)| first);
        if self
            .lookup(named, ctor.start_byte() as u32)
            .and_then(|b| b.import.as_ref())
            .is_some_and(|i| is_other_database_module(&i.module))
        {
            return true;
        }
        if ctor.k() != "identifier" {
            return false;
        }
        // A class of this module, declared at its top level.
        let Some(class) = self.top_level_class(ctor_text) else {
            return false;
        };
        let extends_collection = self.heritage_value(class).is_some_and(|b| {
            let b = match b.k() {
                "generic_type" | "instantiation_expression" => {
                    self.parents.children(b).next().unwrap_or(b)
                }
                _ => b,
            };
            is_meteor_collection(self.text(b).split('<').next().unwrap_or(""))
        });
        if !extends_collection {
            return false;
        }
        match self.constructor_of(class) {
            None => unnamed(self.args(value)),
            Some(ctor) => self
                .super_call(ctor)
                .is_some_and(|call| unnamed(self.args(call))),
        }
    }

    /// The schema variable whose statics the function around `this` is.
    fn statics_schema(&self, this: Node<'t>) -> Option<&'t str> {
        self.schema_function_of(this, "statics", "static")
    }

    /// The function `call` binds: `this.detectAndClear` of `this.detectAndClear.bind(this)`
    /// (bitcore's pruning service hands it to `setInterval`).
    fn bound_function(&self, call: Node<'t>) -> Option<Node<'t>> {
        let f = self
            .field(call, "function")
            .filter(|f| call.k() == "call_expression" && f.k() == "member_expression")?;
        let bind = self.field(f, "property")?;
        (self.text(bind) == "bind").then(|| self.field(f, "object"))?
    }

    /// Whether function `f` runs with the `this` of the code around it: an arrow function, or
    /// a function bound to it (`function (err, ok) { this.participants.push(id) }.bind(this)`,
    /// lets-chat's callback inside a document method).
    fn takes_outer_this(&self, f: Node<'t>) -> bool {
        if f.k() == "arrow_function" {
            return true;
        }
        let Some(member) = self.parents.of(f).filter(|m| m.k() == "member_expression") else {
            return false;
        };
        let bound = self
            .field(member, "property")
            .is_some_and(|p| self.text(p) == "bind");
        let call = self
            .parents
            .of(member)
            .filter(|c| c.k() == "call_expression");
        bound && call.is_some_and(|c| self.args(c).first().is_some_and(|a| a.k() == "this"))
    }

    /// The schema variable whose `holder` (`statics`, `methods`) the function around `this` is,
    /// assigned there or registered with `schema.<one>("name", fn)`.
    fn schema_function_of(&self, this: Node<'t>, holder: &str, one: &str) -> Option<&'t str> {
        // Arrow functions (and functions bound to it) take `this` from around them.
        let mut f = self.parents.of(this)?;
        for _ in 0..MAX_DEPTH * 8 {
            if is_function(f.k()) && !self.takes_outer_this(f) {
                break;
            }
            f = self.parents.of(f)?;
        }
        if !is_function(f.k()) || self.takes_outer_this(f) {
            return None;
        }
        // `static list() {..}` of a class the schema loads (`schema.loadClass(BookClass)`).
        // (A method of an object literal is one of `schema.statics = { .. }`, below.)
        if f.k() == "method_definition" && self.parents.of(f).is_some_and(|b| b.k() == "class_body")
        {
            // (TypeScript writes modifiers before it: `public static`, `private static async`.)
            let before_name = self
                .field(f, "name")
                .map_or("", |n| &self.text(f)[..n.start_byte() - f.start_byte()]);
            let is_static = before_name.split_whitespace().any(|w| w == "static");
            return (holder == "statics" && is_static)
                .then(|| self.class_loaded_by(f))
                .flatten();
        }
        let statics_of = |target: Node<'t>| -> Option<&'t str> {
            // `schema.statics`
            let target = self.unwrap_expr(target);
            let prop = self.field(target, "property")?;
            let obj = self.field(target, "object")?;
            (target.k() == "member_expression"
                && self.text(prop) == holder
                && obj.k() == "identifier")
                .then(|| self.text(obj))
        };
        let p = self.parents.of(f)?;
        match p.k() {
            // `schema.statics.notify = function () {..}`
            "assignment_expression" => {
                let left = self.field(p, "left")?;
                (left.k() == "member_expression")
                    .then(|| self.field(left, "object"))
                    .flatten()
                    .and_then(statics_of)
            }
            // `schema.statics = { notify: function () {..}, other() {..} }`
            "pair" | "object" => {
                let object = if p.k() == "pair" {
                    self.parents.of(p)?
                } else {
                    p
                };
                let assign = self
                    .parents
                    .of(object)
                    .filter(|a| a.k() == "assignment_expression")?;
                statics_of(self.field(assign, "left")?)
            }
            // `schema.static("notify", function () {..})`
            "arguments" => {
                let call = self.parents.of(p)?;
                let callee = self.field(call, "function")?;
                let obj = self.field(callee, "object")?;
                let prop = self.field(callee, "property")?;
                (self.text(prop) == one && obj.k() == "identifier").then(|| self.text(obj))
            }
            _ => None,
        }
    }

    /// The schema variable that loads the class of method `method` (`schema.loadClass(BookClass)`
    /// in the file): Mongoose makes the class's static methods the model's statics.
    fn class_loaded_by(&self, method: Node<'t>) -> Option<&'t str> {
        if !self.loads_classes {
            return None;
        }
        let body = self.parents.of(method)?;
        let class = self.parents.of(body)?;
        let name = self.text(self.field(class, "name")?);
        let src: &'t str = self.src;
        src.match_indices(LOAD_CLASS).find_map(|(at, _)| {
            let rest = &src[at + LOAD_CLASS.len()..];
            let arg = rest[..rest.find(')')?].trim();
            let receiver = &src[..at];
            let start = receiver
                .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                .map_or(0, |i| i + 1);
            let receiver = &receiver[start..];
            (arg == name && !receiver.is_empty()).then_some(receiver)
        })
    }

    /// The model a binding or an export of the file compiles from the schema variable `schema`.
    fn model_of_schema(&self, schema: &str, depth: usize) -> Option<Thing> {
        let mut found = None;
        // Bound to a name, or exported at once (`module.exports = mongoose.model("P", schema)`).
        // Or compiled in a statement of its own at the top of the module (`mongoose.model("Article",
        // ArticleSchema);`, looked up elsewhere by name).
        let statements = self
            .parents
            .children(self.parents.root())
            .filter(|s| s.k() == "expression_statement")
            .filter_map(|s| self.parents.children(s).next());
        let values = self
            .bindings
            .values()
            .flatten()
            .filter_map(|b| b.value)
            .chain(self.export_nodes.iter().map(|(_, n)| *n))
            .chain(statements);
        for v in values {
            let v = self.unwrap_expr(v);
            if v.k() != "call_expression" {
                continue;
            }
            let function = self.field(v, "function");
            let method = function.map_or("", |f| self.callee_name(f));
            let args = self.args(v);
            if (method == "model" || function.is_some_and(|f| self.is_model_helper_call(f, &args)))
                && args
                    .get(1)
                    .is_some_and(|a| self.text(self.unwrap_expr(*a)) == schema)
            {
                if let t @ Thing::Collection(_) = self.classify_call(v, depth + 1) {
                    // The first in source order, whatever the map's order.
                    if found.as_ref().is_none_or(|(pos, _)| v.start_byte() < *pos) {
                        found = Some((v.start_byte(), t));
                    }
                }
            }
        }
        found.map(|(_, t)| t)
    }

    /// Whether an enclosing function's parameters or an enclosing `for..of`'s variable declare
    /// the name `db` for `n`.
    fn db_declared_around(&self, n: Node<'t>) -> bool {
        let mut cur = self.parents.of(n);
        for _ in 0..MAX_DEPTH * 8 {
            let Some(p) = cur else { return false };
            let declared = match p.k() {
                k if is_function(k) => self
                    .field(p, "parameters")
                    .or_else(|| self.field(p, "parameter")),
                "for_in_statement" => self.field(p, "left"),
                _ => None,
            };
            if declared.is_some_and(|d| super::has_identifier(self.text(d), "db")) {
                return true;
            }
            cur = self.parents.of(p);
        }
        false
    }

    fn classify_uncached(&self, n: Node<'t>, depth: usize) -> Thing {
        let n = self.unwrap_expr(n);
        match n.k() {
            "identifier" | "shorthand_property_identifier" => {
                let name = self.text(n);
                match self.lookup(name, n.start_byte() as u32) {
                    Some(b) => {
                        let b = self.reaching(b, name, n.start_byte() as u32);
                        self.classify_binding(b, name, depth + 1)
                    }
                    // mongosh's global `db`, unless a function parameter or a loop variable the
                    // binding pass does not track is named `db` (`databases.map((db) => db.path)`).
                    None if name == "db" && !self.uses_firestore && !self.db_declared_around(n) => {
                        Thing::Db {
                            shell: !self.uses_mongo,
                        }
                    }
                    None => Thing::Unknown,
                }
            }
            "member_expression" => {
                let (Some(obj), Some(prop)) = (self.field(n, "object"), self.field(n, "property"))
                else {
                    return Thing::Unknown;
                };
                let prop_name = self.text(prop);
                if obj.k() == "this" {
                    let key = ["this.", prop_name].concat();
                    let found = self.lookup(&key, n.start_byte() as u32);
                    let found = match found {
                        Some(b) if b.value.is_some_and(|v| !is_nothing(self.unwrap_expr(v))) => {
                            found
                        }
                        _ => self.class_member_value(&key, n).or(found),
                    };
                    return match found {
                        Some(b) => self.classify_binding(b, prop_name, depth + 1),
                        // A document method's `this.collection` (`schema.methods.addBranch =
                        // function () { this.collection.updateOne(..) }`): the model's collection.
                        None if prop_name == "collection" => {
                            match self.schema_function_of(obj, "methods", "method") {
                                Some(schema) => self
                                    .model_of_schema(schema, depth)
                                    .unwrap_or(Thing::Unknown),
                                // (The class's own getter first: a base handed a command's
                                // id, `super('layout', {..})`, opens no collection of it.)
                                None => self
                                    .enclosing_class(obj)
                                    .and_then(|c| self.getter_collection(c, depth))
                                    .unwrap_or_else(|| self.super_model(obj, depth)),
                            }
                        }
                        None if is_model_property(prop_name) => self.super_model(obj, depth),
                        None => Thing::Unknown,
                    };
                }
                // A registry of collections by name: `mongodb.collections.user`.
                if self.is_collection_registry(obj) {
                    return Thing::Collection(CollectionRef {
                        name: CollectionName::Literal {
                            name: prop_name.to_string(),
                        },
                        span: span(prop),
                        via: CollectionVia::Driver,
                        import: None,
                    });
                }
                // A static field of a class of the file: `MessageModel.coll`.
                if obj.k() == "identifier" {
                    let key = [self.text(obj), ".", prop_name].concat();
                    if let Some(b) = self.lookup(&key, n.start_byte() as u32) {
                        if b.kind == DeclKind::Field {
                            return self.classify_binding(b, prop_name, depth + 1);
                        }
                    }
                }
                // Meteor's accounts collection.
                if prop_name == "users" && obj.k() == "identifier" && self.text(obj) == "Meteor" {
                    return Thing::Collection(CollectionRef {
                        name: CollectionName::Literal {
                            name: "users".to_string(),
                        },
                        span: span(n),
                        via: CollectionVia::Driver,
                        import: None,
                    });
                }
                // `mongoose.models.Role` (or a connection's `conn.models.Role`): the model
                // registered as `Role`, as `mongoose.model("Role")` looks it up.
                if obj.k() == "member_expression"
                    && self
                        .field(obj, "property")
                        .is_some_and(|p| self.text(p) == "models")
                    && self.field(obj, "object").is_some_and(|o| {
                        matches!(
                            self.classify(o, depth + 1),
                            Thing::Mongoose | Thing::Db { shell: false }
                        )
                    })
                {
                    return Thing::Collection(CollectionRef {
                        name: CollectionName::Literal {
                            name: mongoose_collection_name(prop_name),
                        },
                        span: span(prop),
                        via: CollectionVia::MongooseModel,
                        import: None,
                    });
                }
                // A Mongoose model's `collection`: the driver's collection behind it
                // (`Source.collection.replaceOne(..)`, hyperdx's sources).
                if prop_name == "collection" && obj.k() == "identifier" {
                    if let t @ Thing::Collection(CollectionRef {
                        via: CollectionVia::MongooseModel,
                        ..
                    }) = self.classify(obj, depth + 1)
                    {
                        return t;
                    }
                }
                // An instance of a model class of the file (`const CoinStorage = new
                // CoinModel()`): the collection its base opens, `CoinStorage.collection`.
                if prop_name == "collection" && obj.k() == "identifier" {
                    let value = self
                        .lookup(self.text(obj), obj.start_byte() as u32)
                        .and_then(|b| b.value);
                    if let Some(t) = value.and_then(|v| self.instance_collection(v, depth)) {
                        return t;
                    }
                }
                // matb33:collection-hooks' `Boards.direct`: the collection without its hooks.
                if prop_name == "direct" {
                    if let t @ (Thing::Collection(_) | Thing::Imported(..)) =
                        self.classify(obj, depth + 1)
                    {
                        return t;
                    }
                }
                match self.classify(obj, depth + 1) {
                    Thing::Db { shell: true } if !is_db_method(prop_name) => {
                        Thing::Collection(CollectionRef {
                            name: CollectionName::Literal {
                                name: prop_name.to_string(),
                            },
                            span: span(prop),
                            via: CollectionVia::Shell,
                            import: None,
                        })
                    }
                    Thing::Mongoose if prop_name == "connection" => Thing::Db { shell: false },
                    Thing::Db { .. } | Thing::Client if prop_name == "db" => {
                        Thing::Db { shell: false }
                    }
                    Thing::Imported(imp, _) if imp.export == "*" || imp.export == "default" => {
                        // `models.User` where `models` is a module namespace.
                        Thing::Imported(
                            ImportRef {
                                module: imp.module,
                                export: prop_name.to_string(),
                            },
                            prop_name.to_string(),
                        )
                    }
                    // `models.Posts`, a member of a registry of models (see `Thing::Typed`),
                    // capitalised as models are (`req.payload` is no model).
                    Thing::Typed(imp, local)
                        if prop_name.starts_with(|c: char| c.is_ascii_uppercase()) =>
                    {
                        Thing::Imported(
                            ImportRef {
                                module: imp.module,
                                export: format!("{}.{prop_name}", imp.export),
                            },
                            format!("{local}.{prop_name}"),
                        )
                    }
                    // `db.users` where `db` is an imported object of collections (its module
                    // exports `db.users`, see `export_members`).
                    Thing::Imported(imp, local) if obj.k() != "call_expression" => {
                        let local = if local.is_empty() {
                            prop_name.to_string()
                        } else {
                            format!("{local}.{prop_name}")
                        };
                        Thing::Imported(
                            ImportRef {
                                module: imp.module,
                                export: format!("{}.{prop_name}", imp.export),
                            },
                            local,
                        )
                    }
                    _ => Thing::Unknown,
                }
            }
            "subscript_expression" => {
                let (Some(obj), Some(idx)) = (self.field(n, "object"), self.field(n, "index"))
                else {
                    return Thing::Unknown;
                };
                match self.classify(obj, depth + 1) {
                    Thing::Db { shell: true } => {
                        let r = self.collection_ref(idx, CollectionVia::Shell);
                        Thing::Collection(r)
                    }
                    // `mongodb.collections['user']`, `cols[NAME]` (`const cols =
                    // mongodb.collections`), where the name is written out.
                    _ if self.is_collection_registry(obj) => {
                        let r = self.collection_ref(idx, CollectionVia::Driver);
                        match r.name {
                            CollectionName::Literal { .. } => Thing::Collection(r),
                            _ => Thing::Unknown,
                        }
                    }
                    _ => Thing::Unknown,
                }
            }
            // `mongoose.models.Message || mongoose.model("Message", schema)`: the model already
            // compiled (on a hot reload) or compiled here; either is the same collection. Of
            // several compilations, the first runs, and returns a model: `.. ||
            // mongoose.model('controls', s) || mongoose.model('inputs', s)` is `controls` (novu).
            "binary_expression"
                if self
                    .field(n, "operator")
                    .is_some_and(|o| matches!(self.text(o), "||" | "??")) =>
            {
                if let Some(t) = self.first_compiled(n, depth) {
                    return t;
                }
                let either = |side| {
                    self.field(n, side)
                        .map_or(Thing::Unknown, |e| self.classify(e, depth + 1))
                };
                match either("right") {
                    t @ Thing::Collection(_) => t,
                    _ => match either("left") {
                        t @ Thing::Collection(_) => t,
                        _ => Thing::Unknown,
                    },
                }
            }
            "call_expression" => self.classify_call(n, depth),
            // A document either way (`isLean ? await Guild.findOne(q).lean() : await
            // Guild.findOne(q)`): the document loaded. Nothing else is read through a choice.
            "ternary_expression" => ["consequence", "alternative"]
                .into_iter()
                .filter_map(|b| self.field(n, b))
                .map(|b| self.classify(b, depth + 1))
                .find(|t| matches!(t, Thing::LoadedDoc(..)))
                .unwrap_or(Thing::Unknown),
            "this" => match self.statics_model(n, depth) {
                Thing::Unknown => self.super_model(n, depth),
                t => t,
            },
            "new_expression" => {
                let ctor = self
                    .field(n, "constructor")
                    .map(|c| self.text(c))
                    .unwrap_or("");
                if ctor == "MongoClient" || ctor.ends_with(".MongoClient") {
                    Thing::Client
                } else if is_meteor_collection(ctor) {
                    // Meteor: `new Mongo.Collection("boards")`; `new Mongo.Collection(null)` is
                    // a client-side collection in memory.
                    match self.args(n).first() {
                        Some(name) if self.text(*name) != "null" => {
                            Thing::Collection(self.collection_ref(*name, CollectionVia::Driver))
                        }
                        _ => Thing::Unknown,
                    }
                } else {
                    Thing::Unknown
                }
            }
            _ => Thing::Unknown,
        }
    }

    fn classify_binding(&self, b: &Binding<'t>, name: &str, depth: usize) -> Thing {
        if let Some(imp) = &b.import {
            if imp.module == "mongoose" {
                return match imp.export.as_str() {
                    "model" => Thing::ModelFn,
                    "default" | "*" | "mongoose" => Thing::Mongoose,
                    "connection" => Thing::Db { shell: false },
                    _ => Thing::Unknown,
                };
            }
            if imp.module == "mongodb" {
                return Thing::Unknown;
            }
            if is_repository_module(&imp.module) {
                return Thing::Imported(imp.clone(), name.to_string());
            }
            return Thing::Unknown;
        }
        if let Some(t) = b.type_text {
            let t = t.trim_start_matches(':').trim();
            // `models: IModels`, `models: IContext['models']`, `{ models }: IContext`, the type
            // imported from a module of the repository: the module's export of that name
            // (`IContext.models`), whose members its registry of models may name (see
            // `registry_exports`).
            if let Some(imp) = self.imported_type(t, b.pos, b.type_member) {
                return Thing::Typed(imp, name.to_string());
            }
            // (`{ Orders }: { Orders: Collection<Order> }`, a member of a type written out,
            // carries its own type.)
            if b.type_member.is_some_and(|m| !m.is_empty()) {
                return Thing::Unknown;
            }
            let generic_arg = || t.to_string();
            if t.starts_with("Collection<")
                || t == "Collection"
                || t.starts_with("mongodb.Collection")
            {
                // `const coll: Collection<Udoc> = db.collection('user')`: the value names it.
                if let Some(v) = b.value.filter(|_| depth < MAX_DEPTH) {
                    if let named @ Thing::Collection(CollectionRef {
                        name: CollectionName::Literal { .. } | CollectionName::Template { .. },
                        ..
                    }) = self.classify(v, depth + 1)
                    {
                        return named;
                    }
                }
                return Thing::Collection(CollectionRef {
                    name: CollectionName::Unknown {
                        text: self.unaliased_type(t, b.pos),
                    },
                    span: Span::new(b.pos as usize, b.pos as usize),
                    via: CollectionVia::Driver,
                    import: None,
                });
            }
            if t.starts_with("Model<")
                || t.starts_with("mongoose.Model<")
                || t.starts_with("PaginateModel<")
                || t.starts_with("SoftDeleteModel<")
            {
                // `const PluginAuth: Model<IPluginAuth> = mongoose.models.PluginAuth`: the
                // value names it (LibreChat's methods), as for `Collection<T>` above.
                if let Some(v) = b
                    .value
                    .filter(|_| depth < MAX_DEPTH && b.injected_model.is_none())
                {
                    if let named @ Thing::Collection(CollectionRef {
                        name: CollectionName::Literal { .. } | CollectionName::Template { .. },
                        ..
                    }) = self.classify(v, depth + 1)
                    {
                        return named;
                    }
                }
                let name = match &b.injected_model {
                    Some(m) => CollectionName::Literal {
                        name: mongoose_collection_name(m),
                    },
                    None => CollectionName::Unknown {
                        text: generic_arg(),
                    },
                };
                return Thing::Collection(CollectionRef {
                    name,
                    span: Span::new(b.pos as usize, b.pos as usize),
                    via: CollectionVia::MongooseModel,
                    import: None,
                });
            }
            if t == "Db" || t == "mongodb.Db" {
                return Thing::Db { shell: false };
            }
            // Mongoose handed to a factory: `(mongoose: typeof import('mongoose')) =>
            // mongoose.models.Role || mongoose.model('Role', roleSchema)`.
            if matches!(
                t,
                "typeof import('mongoose')" | "typeof import(\"mongoose\")" | "mongoose.Mongoose"
            ) || (matches!(t, "typeof mongoose" | "Mongoose")
                && self
                    .lookup(t.trim_start_matches("typeof "), b.pos)
                    .and_then(|b| b.import.as_ref())
                    .is_some_and(|i| i.module == "mongoose"))
            {
                return Thing::Mongoose;
            }
            // A Mongoose connection: `db.model(name, schema)` compiles a model on it.
            if t == "mongoose.Connection"
                || (t == "Connection"
                    && self
                        .lookup(t, b.pos)
                        .and_then(|b| b.import.as_ref())
                        .is_some_and(|i| i.module == "mongoose"))
            {
                return Thing::Db { shell: false };
            }
            if t == "MongoClient" {
                return Thing::Client;
            }
        }
        match b.value {
            Some(v) => match self.classify(v, depth) {
                Thing::Collection(r)
                    if r.via == CollectionVia::MongooseModel && b.kind == DeclKind::Param =>
                {
                    Thing::Collection(r)
                }
                // `const models = await generateModels(subdomain)`: named `models` here.
                Thing::Typed(imp, local) if local.is_empty() => Thing::Typed(imp, name.into()),
                t => t,
            },
            // The driver's legacy callback's collection (see `note_collection_callback`).
            None if !self.callback_collections.is_empty() => {
                match self.callback_collections.get(&(name, b.pos)) {
                    Some(&call) if depth < MAX_DEPTH => self.classify(call, depth + 1),
                    _ => Thing::Unknown,
                }
            }
            None => Thing::Unknown,
        }
    }

    /// The one value the class around `n` assigns to its member `key` (`this.collection`), for a
    /// read with no value set before it: a method reads what another one set (`async connect() {
    /// this.collection = db.collection(name) }`, agenda's job repository), whatever their order
    /// in the file. `None` when the class sets the member to different values (`null` and
    /// `undefined` aside: a reset).
    fn class_member_value(&self, key: &str, n: Node<'t>) -> Option<&Binding<'t>> {
        let at = n.start_byte();
        let mut found: Option<&Binding<'t>> = None;
        for b in self.bindings.get(key)? {
            if b.kind != DeclKind::Field || !b.scope.contains(Span::new(at, at)) {
                continue;
            }
            let Some(v) = b.value.filter(|v| !is_nothing(self.unwrap_expr(*v))) else {
                continue;
            };
            match found.and_then(|f| f.value) {
                None => found = Some(b),
                Some(f) if self.text(f) == self.text(v) => {}
                Some(_) => return None,
            }
        }
        found
    }

    /// Whether `obj` (`this.categoryService`, `categoryService`) is declared an instance of a class
    /// of the repository that is not a model (`private readonly categoryService: CategoryService`,
    /// the class imported from a module of the repository or declared in this file): its
    /// `paginate(filter, {page})` is the application's own method, not mongoose-paginate's, and
    /// whatever it skips is read where it does (nodepress's services over its paginate plugin).
    fn is_application_service(&self, obj: Node<'t>) -> bool {
        let key = match obj.k() {
            "identifier" => self.text(obj).to_string(),
            "member_expression" if self.field(obj, "object").is_some_and(|o| o.k() == "this") => {
                match self.field(obj, "property") {
                    Some(p) => ["this.", self.text(p)].concat(),
                    None => return false,
                }
            }
            _ => return false,
        };
        let Some(b) = self.lookup(&key, obj.start_byte() as u32) else {
            return false;
        };
        let Some(t) = b.type_text.map(|t| t.trim_start_matches(':').trim()) else {
            return false;
        };
        if b.injected_model.is_some() || !is_identifier(t) || t.ends_with("Model") {
            return false;
        }
        self.repository_import(t, b.pos).is_some() || self.top_level_class(t).is_some()
    }

    /// The class named `name` that the file declares at its top level (exported or not).
    fn top_level_class(&self, name: &str) -> Option<Node<'t>> {
        let root = self.parents.root();
        self.parents
            .children(root)
            .flat_map(|c| {
                let inner = (c.k() == "export_statement")
                    .then(|| self.field(c, "declaration"))
                    .flatten();
                [Some(c), inner]
            })
            .flatten()
            .find(|c| {
                is_class(c.k()) && self.field(*c, "name").is_some_and(|n| self.text(n) == name)
            })
    }

    /// What `name` is imported as at `pos` from a module of the repository (not a namespace).
    pub(super) fn repository_import(&self, name: &str, pos: u32) -> Option<&ImportRef> {
        self.lookup(name, pos)?
            .import
            .as_ref()
            .filter(|i| is_repository_module(&i.module) && i.export != "*")
    }

    /// A type annotation `T`, `T['m']` (or `T` of a destructured member `m`) whose `T` is imported
    /// from a module of the repository: that module's export `T.m`.
    fn imported_type(&self, t: &str, pos: u32, member: Option<&str>) -> Option<ImportRef> {
        let head = type_head(t);
        let indexed = match t.split_once('[') {
            Some((_, rest)) => Some(
                rest.strip_suffix(']')?
                    .trim()
                    .strip_prefix(['\'', '"'])?
                    .strip_suffix(['\'', '"'])?,
            ),
            None => None,
        };
        if !is_identifier(head) {
            return None;
        }
        let imp = self.repository_import(head, pos)?;
        let mut export = imp.export.clone();
        for m in [indexed, member.filter(|m| !m.is_empty())]
            .into_iter()
            .flatten()
        {
            if !is_identifier(m) {
                return None;
            }
            export.push('.');
            export.push_str(m);
        }
        Some(ImportRef {
            module: imp.module.clone(),
            export,
        })
    }

    /// A call of a getter of this file without parameters is the collection it returns:
    /// `function model() { return mongoose.models.AuditLog; }`, then `const AuditLog = model();`
    /// (LibreChat); `Collection.runTimeout()` where `const Collection = { runTimeout: () =>
    /// db.collection('runTimeouts') }` (sorry-cypress).
    fn getter_result(&self, call: Node<'t>, args: &[Node<'t>], depth: usize) -> Option<Thing> {
        if !args.is_empty() {
            return None;
        }
        let func = self.called_function(call).filter(|func| {
            self.field(*func, "parameter").is_none()
                && self
                    .field(*func, "parameters")
                    .is_none_or(|p| self.named_children(p).is_empty())
        })?;
        match self.classify(self.first_return(func)?, depth + 1) {
            t @ Thing::Collection(_) => Some(t),
            _ => None,
        }
    }

    /// A call of a function or method of this file that returns a document it loads: the
    /// document (AtlantaBot's `const guild = await this.findOrCreateGuild({ id })`, which returns
    /// `this.guildsData.findOne(..)`'s result or a new one, before `guild.members.push(m);
    /// guild.save()`). Its returns are tried in order (the first may be a cache's).
    fn loaded_by_call(&self, call: Node<'t>, depth: usize) -> Option<Thing> {
        if depth >= MAX_DEPTH || self.following_returns.get() {
            return None;
        }
        let returns = self.returned_values(self.called_function(call)?);
        self.following_returns.set(true);
        let loaded = returns
            .into_iter()
            .map(|r| self.classify(r, depth + 1))
            .find(|t| matches!(t, Thing::LoadedDoc(..)));
        self.following_returns.set(false);
        loaded
    }

    fn classify_call(&self, call: Node<'t>, depth: usize) -> Thing {
        let Some(f) = self.field(call, "function") else {
            return Thing::Unknown;
        };
        let args = self.args(call);
        // A function kept for a collection and called for it, with no argument: `Collection.run()`
        // of sorry-cypress's registry (`export const Collection = { run: getCollection<Run>('runs')
        // }`, the helper returning `() => db.collection<T>(name)`), here or imported (the linker
        // names it if the other module exports that member as a collection). A collection object
        // itself cannot be called.
        if args.is_empty() && f.k() == "member_expression" {
            let object = self.field(f, "object");
            if object.is_some_and(|o| o.k() == "identifier") {
                if let Some(member) = self.constant_member(f) {
                    if let t @ Thing::Collection(_) = self.classify(member, depth + 1) {
                        return t;
                    }
                }
                match self.classify(f, depth + 1) {
                    t @ Thing::Collection(_) => return t,
                    Thing::Imported(imp, local) if imp.export.contains('.') => {
                        return Thing::Imported(imp, local)
                    }
                    _ => {}
                }
            }
        }
        if f.k() == "identifier" {
            let name = self.text(f);
            if name == "require" {
                let m = args
                    .first()
                    .and_then(|a| self.string_value(*a))
                    .unwrap_or_default();
                return if m == "mongoose" {
                    Thing::Mongoose
                } else if m.starts_with('.') {
                    Thing::Imported(
                        ImportRef {
                            module: m,
                            export: "default".into(),
                        },
                        String::new(),
                    )
                } else {
                    Thing::Unknown
                };
            }
            let callee = self.classify(f, depth + 1);
            if let Thing::ModelFn = callee {
                return self.model_thing(call, &args);
            }
            if self.is_model_helper_call(f, &args) {
                return self.model_thing(call, &args);
            }
            // Typegoose's `getModelForClass(Message)`: the model of class `Message`, on the
            // collection its decorators name or Mongoose's plural of the class's name.
            if name == "getModelForClass" {
                if let Some(class) = args.first().filter(|a| a.k() == "identifier") {
                    let decl = self.top_level_class(self.text(*class));
                    // (Named where the class is declared, when it is in this file.)
                    let name = decl.and_then(|d| self.field(d, "name")).unwrap_or(*class);
                    let r = self.class_collection(name, decl);
                    return Thing::Collection(r);
                }
            }
            // An application's `getCollection(COLLECTION)` helper, in a file that uses MongoDB
            // or imports it from a MongoDB module (`../util/mongo.util`).
            if name == "getCollection" && !args.is_empty() {
                let from_db_module = self
                    .lookup(name, f.start_byte() as u32)
                    .and_then(|b| b.import.as_ref())
                    .is_some_and(|i| {
                        super::names_database_module(super::naming::last_part(&i.module, b'/'))
                    });
                if self.uses_mongo || from_db_module {
                    return Thing::Collection(self.collection_ref(args[0], CollectionVia::Driver));
                }
            }
            if let Some(t) = self.getter_result(call, &args, depth) {
                return t;
            }
            if let Some(t) = self.loaded_by_call(call, depth) {
                return t;
            }
            // `generateModels(subdomain)`, imported from a module of the repository: what that
            // module exports for the call's result (`generateModels().Posts`, see
            // `registry_exports`).
            return match callee {
                Thing::Imported(imp, _) if imp.export != "*" && !imp.export.ends_with("()") => {
                    Thing::Typed(
                        ImportRef {
                            module: imp.module,
                            export: format!("{}()", imp.export),
                        },
                        String::new(),
                    )
                }
                _ => Thing::Unknown,
            };
        }
        if f.k() != "member_expression" {
            return Thing::Unknown;
        }
        if let Some(t) = self.getter_result(call, &args, depth) {
            return t;
        }
        let (Some(obj), Some(prop)) = (self.field(f, "object"), self.field(f, "property")) else {
            return Thing::Unknown;
        };
        let method = self.text(prop);
        match method {
            "collection" if !self.uses_firestore && !args.is_empty() => {
                if is_firestore_chain(self, call) {
                    return Thing::Unknown;
                }
                Thing::Collection(self.collection_ref(args[0], CollectionVia::Driver))
            }
            // `await db.createCollection('forms')` is the collection made (formio's install).
            "createCollection" if !args.is_empty() => match self.classify(obj, depth + 1) {
                Thing::Db { shell } => Thing::Collection(self.collection_ref(
                    args[0],
                    if shell {
                        CollectionVia::Shell
                    } else {
                        CollectionVia::Driver
                    },
                )),
                _ => Thing::Unknown,
            },
            "getCollection" if !args.is_empty() => {
                let via = match self.classify(obj, depth + 1) {
                    Thing::Db { shell: true } => CollectionVia::Shell,
                    _ => CollectionVia::Driver,
                };
                Thing::Collection(self.collection_ref(args[0], via))
            }
            "model" if !args.is_empty() => match self.classify(obj, depth + 1) {
                Thing::Mongoose | Thing::Db { shell: false } => self.model_thing(call, &args),
                _ if args.len() >= 2 && self.text(args[1]).to_lowercase().contains("schema") => {
                    self.model_thing(call, &args)
                }
                _ => Thing::Unknown,
            },
            "db" | "getSiblingDB" | "useDb" => match self.classify(obj, depth + 1) {
                Thing::Db { shell } => Thing::Db { shell },
                Thing::Client | Thing::Mongoose => Thing::Db { shell: false },
                Thing::Unknown | Thing::Typed(..) if self.uses_mongo => Thing::Db { shell: false },
                _ => Thing::Unknown,
            },
            "connect" | "createConnection" => match self.classify(obj, depth + 1) {
                Thing::Mongoose => Thing::Db { shell: false },
                _ if self.text(obj) == "MongoClient" => Thing::Client,
                _ => Thing::Unknown,
            },
            // Meteor's `Boards.rawCollection()` is the Node driver's collection behind it.
            "exec" | "lean" | "orFail" | "session" | "rawCollection" => {
                self.classify(obj, depth + 1)
            }
            // The document a query loads, its references filled in or its fields chosen
            // (`Request.findById(id).populate("lead")`: tiledesk's requests), is still one.
            "populate" | "select" => match self.classify(obj, depth + 1) {
                t @ Thing::LoadedDoc(..) => t,
                _ => Thing::Unknown,
            },
            _ => {
                // A document loaded from a model: `Post.findById(id)`, `Post.findOne({...})`.
                if matches!(
                    method,
                    "findById" | "findOne" | "findOneAndUpdate" | "findByIdAndUpdate" | "create"
                ) {
                    // Only a Mongoose model has `findById`: the method alone is evidence.
                    let by_id = method == "findById" || method == "findByIdAndUpdate";
                    let unresolved = |text: String, import: Option<ImportRef>| CollectionRef {
                        name: CollectionName::Unknown { text },
                        span: span(obj),
                        via: CollectionVia::MongooseModel,
                        import,
                    };
                    match self.classify(obj, depth + 1) {
                        Thing::Collection(r) if r.via == CollectionVia::MongooseModel => {
                            return Thing::LoadedDoc(r, Evidence::Resolved)
                        }
                        Thing::Imported(imp, local) => {
                            let ev = if by_id {
                                Evidence::Shaped
                            } else {
                                Evidence::None
                            };
                            return Thing::LoadedDoc(unresolved(local, Some(imp)), ev);
                        }
                        // `this.adapter.model.findById(id)` (tailchat's moleculer services),
                        // whatever the receiver resolves to.
                        Thing::Unknown if by_id => {
                            let text = crate::lang::receiver_text(self.text(obj));
                            return Thing::LoadedDoc(unresolved(text, None), Evidence::Shaped);
                        }
                        _ => {}
                    }
                }
                self.loaded_by_call(call, depth).unwrap_or(Thing::Unknown)
            }
        }
    }

    fn model_thing(&self, call: Node<'t>, args: &[Node<'t>]) -> Thing {
        let name_node = args[0];
        let mut r = match args.get(2).and_then(|a| self.string_value(*a)) {
            Some(explicit) => CollectionRef {
                name: CollectionName::Literal { name: explicit },
                span: span(args[2]),
                via: CollectionVia::MongooseModel,
                import: None,
            },
            None => {
                let mut r = self.collection_ref(name_node, CollectionVia::MongooseModel);
                if let CollectionName::Literal { name } = &r.name {
                    let explicit = args.get(1).and_then(|s| self.schema_collection_option(*s));
                    r.name = CollectionName::Literal {
                        name: explicit.unwrap_or_else(|| mongoose_collection_name(name)),
                    };
                }
                // `mongoose.model(name)` alone looks up a model registered elsewhere: a name
                // built at run time picks one of those, and the registration (given its schema)
                // is where a collection is made per date or entity.
                if args.len() == 1 && matches!(r.name, CollectionName::Template { .. }) {
                    r.name = CollectionName::Unknown {
                        text: self.text(name_node).to_string(),
                    };
                }
                r
            }
        };
        if r.span == Span::default() {
            r.span = span(call);
        }
        Thing::Collection(r)
    }

    /// `new Schema({...}, { collection: "x" })` → `x`, through a schema variable.
    fn schema_collection_option(&self, schema: Node<'t>) -> Option<String> {
        let mut n = self.unwrap_expr(schema);
        if n.k() == "identifier" {
            n = self.lookup(self.text(n), n.start_byte() as u32)?.value?;
        }
        if n.k() != "new_expression" && !self.is_schema_new(n) {
            return None;
        }
        let args = self.field(n, "arguments").map(|a| self.named_children(a))?;
        let opts = self.lower(*args.get(1)?, 0);
        opts.get("collection")
            .and_then(|f| f.value.as_str().map(str::to_string))
    }

    /// Lowers a collection-name expression into a `CollectionRef`.
    fn collection_ref(&self, n: Node<'t>, via: CollectionVia) -> CollectionRef {
        CollectionRef {
            name: self.collection_name(n, 0),
            span: span(n),
            via,
            import: None,
        }
    }

    fn collection_name(&self, n: Node<'t>, depth: usize) -> CollectionName {
        let n = self.unwrap_expr(n);
        if let Some(s) = self.string_value(n) {
            return CollectionName::Literal { name: s };
        }
        if let Some(name) = self.default_name(n, depth) {
            return CollectionName::Literal { name };
        }
        let mut parts = Vec::new();
        if depth < 8
            && self.name_parts(n, depth, &mut parts)
            && parts.iter().any(|p| matches!(p, NamePart::Hole { .. }))
        {
            return CollectionName::Template { parts };
        }
        if n.k() == "identifier" {
            if let Some(b) = self.lookup(self.text(n), n.start_byte() as u32) {
                if let (Some(v), true) = (b.value, self.is_constant(b, self.text(n))) {
                    if depth < 8 {
                        return self.collection_name(v, depth + 1);
                    }
                }
            }
        }
        // A member of a constant object of names: `collections.ADVERTISEMENTS` with `const
        // collections = { ADVERTISEMENTS: 'advertisements', .. }` (bitcore's wallet service).
        if let Some(name) = self.constant_member_string(n) {
            return CollectionName::Literal { name };
        }
        // A member the class sets to one name, or to a configured name with its default
        // (`this.collectionName = opts?.collectionName ?? 'agenda_logs'` in the constructor,
        // agenda's job logger): that name in every method. (Set to anything else, such as a
        // constructor parameter, it stays the member, which subclasses may name.)
        if depth < 8 && n.k() == "member_expression" {
            let this_member = self.field(n, "object").is_some_and(|o| o.k() == "this");
            if let (true, Some(p)) = (this_member, self.field(n, "property")) {
                let key = ["this.", self.text(p)].concat();
                if let Some(v) = self.class_member_value(&key, n).and_then(|b| b.value) {
                    if let named @ CollectionName::Literal { .. } =
                        self.collection_name(v, depth + 1)
                    {
                        return named;
                    }
                }
            }
        }
        CollectionName::Unknown {
            text: crate::lang::first_chars(self.text(n), 80),
        }
    }

    /// A configured name with its default (`options.db?.collection || 'agendaJobs'`, `??`), or a
    /// constant bound to one: the default, the collection unless the application names another.
    fn default_name(&self, n: Node<'t>, depth: usize) -> Option<String> {
        match n.k() {
            "binary_expression" => {
                let op = self.field(n, "operator").map(|o| self.text(o));
                if !matches!(op, Some("||" | "??")) {
                    return None;
                }
                let left = self.unwrap_expr(self.field(n, "left")?);
                let name = self.string_value(self.unwrap_expr(self.field(n, "right")?))?;
                (self.string_value(left).is_none() && !name.is_empty()).then_some(name)
            }
            "identifier" if depth < 8 => {
                let b = self.lookup(self.text(n), n.start_byte() as u32)?;
                let v = b.value.filter(|_| self.is_constant(b, self.text(n)))?;
                self.default_name(self.unwrap_expr(v), depth + 1)
            }
            _ => None,
        }
    }

    /// The string a member of a constant object literal holds: `collections.USERS`, `names.users`
    /// with `const collections = { USERS: 'users' }` (and `as const`) never assigned again.
    fn constant_member_string(&self, n: Node<'t>) -> Option<String> {
        self.string_value(self.unwrap_expr(self.constant_member(n)?))
    }

    /// The value a member of a constant object literal holds (see `constant_member_string`).
    fn constant_member(&self, n: Node<'t>) -> Option<Node<'t>> {
        if n.k() != "member_expression" {
            return None;
        }
        let obj = self.field(n, "object").filter(|o| o.k() == "identifier")?;
        let prop = self
            .field(n, "property")
            .filter(|p| p.k() == "property_identifier")?;
        let name = self.text(obj);
        let b = self.lookup(name, obj.start_byte() as u32)?;
        if !self.is_constant(b, name) || self.fills_of(name, b).is_some() {
            return None;
        }
        let object = self.unwrap_expr(b.value?);
        if object.k() != "object" {
            return None;
        }
        self.object_member(object, self.text(prop))
    }

    /// Splits a template literal or `+` concatenation into literal parts and classified holes.
    fn name_parts(&self, n: Node<'t>, depth: usize, out: &mut Vec<NamePart>) -> bool {
        self.note_depth(depth);
        if depth > MAX_DEPTH {
            return false;
        }
        let n = self.unwrap_expr(n);
        match n.k() {
            "template_string" => {
                let t = self.text(n);
                let base = n.start_byte();
                let mut last = base + 1;
                for c in self.named_children(n) {
                    if c.k() != "template_substitution" {
                        continue;
                    }
                    if c.start_byte() > last {
                        out.push(NamePart::Literal {
                            text: t[last - base..c.start_byte() - base].to_string(),
                        });
                    }
                    let expr = self.named_children(c).into_iter().next().unwrap_or(c);
                    out.push(self.hole(expr));
                    last = c.end_byte();
                }
                if n.end_byte() - 1 > last {
                    out.push(NamePart::Literal {
                        text: t[last - base..t.len() - 1].to_string(),
                    });
                }
                true
            }
            "binary_expression" if self.field(n, "operator").map(|o| self.text(o)) == Some("+") => {
                let (Some(l), Some(r)) = (self.field(n, "left"), self.field(n, "right")) else {
                    return false;
                };
                self.name_parts(l, depth + 1, out) && self.name_parts(r, depth + 1, out)
            }
            _ => {
                if let Some(s) = self.string_value(n) {
                    out.push(NamePart::Literal { text: s });
                } else if out.is_empty()
                    && n.k() != "identifier"
                    && self.converted(n).is_none_or(|v| v.k() != "identifier")
                {
                    // Only concatenations and templates are split; a lone call is not a template,
                    // but a name's string (`String(groupId)`, `tenantId.toString()`) is the name.
                    return false;
                } else {
                    out.push(self.hole(n));
                }
                true
            }
        }
    }

    /// The value `String(value)` or `value.toString()` converts to a string.
    fn converted(&self, n: Node<'t>) -> Option<Node<'t>> {
        if n.k() != "call_expression" {
            return None;
        }
        let f = self.field(n, "function")?;
        let args = self.args(n);
        match f.k() {
            "identifier" if self.text(f) == "String" && args.len() == 1 => {
                Some(self.unwrap_expr(args[0]))
            }
            "member_expression"
                if args.is_empty()
                    && self.field(f, "property").map(|p| self.text(p)) == Some("toString") =>
            {
                self.field(f, "object").map(|o| self.unwrap_expr(o))
            }
            _ => None,
        }
    }

    fn hole(&self, expr: Node<'t>) -> NamePart {
        let text = self.text(expr);
        let mut texts = vec![text];
        // `String(day)`: what the converted name is bound to.
        let value = self.converted(expr).unwrap_or(expr);
        if value.k() == "identifier" {
            let name = self.text(value);
            if let Some(b) = self.lookup(name, value.start_byte() as u32) {
                if let Some(v) = b.value {
                    // A constant string is a literal part, not a hole.
                    if value == expr && self.is_constant(b, name) {
                        if let Some(s) = self.string_value(self.unwrap_expr(v)) {
                            return NamePart::Literal { text: s };
                        }
                    }
                    texts.push(self.text(v));
                }
            }
        }
        if let Some(s) = self.string_value(expr) {
            return NamePart::Literal { text: s };
        }
        NamePart::Hole {
            text: crate::lang::first_chars(text, 80),
            hole: classify_hole(&texts),
            span: span(expr),
        }
    }

    /// The chain of calls `call` starts is an argument of a `new` expression.
    fn handed_to_constructor(&self, call: Node<'t>) -> bool {
        let mut cur = call;
        for _ in 0..64 {
            let Some(p) = self.parents.of(cur) else {
                return false;
            };
            match p.k() {
                "member_expression"
                | "call_expression"
                | "parenthesized_expression"
                | "await_expression" => cur = p,
                "arguments" => {
                    return self
                        .parents
                        .of(p)
                        .is_some_and(|n| n.k() == "new_expression");
                }
                _ => return false,
            }
        }
        false
    }

    /// The value of an assignment's right side is `null` or `undefined`, through a chain of
    /// assignments (`a = b = null`).
    fn releases(&self, mut right: Node<'t>) -> bool {
        for _ in 0..MAX_DEPTH {
            match right.k() {
                "assignment_expression" => match self.field(right, "right") {
                    Some(r) => right = r,
                    None => return false,
                },
                "null" | "undefined" => return true,
                _ => return false,
            }
        }
        false
    }

    fn is_constant(&self, b: &Binding, name: &str) -> bool {
        match b.kind {
            DeclKind::Const => true,
            // An assignment in another function to a name of its own (Countly's
            // `var collectionName = ""; collectionName = ..` in a second handler) does not
            // change this one.
            DeclKind::Mutable => !self
                .assigned
                .get(name)
                .is_some_and(|at| at.iter().any(|&p| b.scope.start <= p && p < b.scope.end)),
            _ => false,
        }
    }

    // ---------------------------------------------------------------- values

    fn lower(&self, n: Node<'t>, depth: usize) -> Value {
        let sp = span(n);
        self.note_depth(depth);
        if depth > MAX_DEPTH || !super::burn(&self.lower_fuel) {
            return Value::unknown(sp, self.text(n), false);
        }
        let inner = self.unwrap_expr(n);
        let kind = match inner.k() {
            "object" => {
                let mut fields: Vec<Field> = Vec::new();
                // Where each key written as a pair is: a key written again keeps its first
                // place and takes the last value, as JavaScript builds the object (`{ total: 1,
                // total: -1 }` is `{ total: -1 }`).
                let mut written: Vec<(String, usize)> = Vec::new();
                for p in self.named_children(inner) {
                    match p.k() {
                        "pair" => {
                            let (Some(k), Some(v)) = (self.field(p, "key"), self.field(p, "value"))
                            else {
                                continue;
                            };
                            let key = self.key_text(k);
                            let value = self.lower(v, depth + 1);
                            let again = (!key.starts_with('['))
                                .then(|| written.iter().find(|(w, _)| *w == key))
                                .flatten();
                            if let Some(&(_, at)) = again {
                                fields[at].value = value;
                                continue;
                            }
                            written.push((key.clone(), fields.len()));
                            fields.push(Field {
                                key,
                                key_span: span(k),
                                value,
                            });
                        }
                        "shorthand_property_identifier" => fields.push(Field {
                            key: self.text(p).to_string(),
                            key_span: span(p),
                            value: self.lower_identifier(p, depth + 1),
                        }),
                        "spread_element" => {
                            // An object written in place is its fields (`...{ limit, skip }`);
                            // the objects a condition picks from may be (`...(all ? {} : {
                            // limit, skip })`, `...(paged && { skip })`: Payload's joins),
                            // with the spread kept as unknown beside them.
                            let arg = self.named_children(p).into_iter().next();
                            let arg = arg.map(|a| self.unwrap_expr(a));
                            let picked = arg.map(|a| self.spread_choices(a)).unwrap_or_default();
                            let spliced = |n: Node<'t>, fields: &mut Vec<Field>| {
                                let n = self.unwrap_expr(n);
                                if n.k() != "object" {
                                    return false;
                                }
                                if let ValueKind::Document(fs) = self.lower(n, depth + 1).kind {
                                    fields.extend(fs);
                                }
                                true
                            };
                            if arg.is_some_and(|a| spliced(a, &mut fields)) {
                                continue;
                            }
                            // A constant bound to objects a condition picks from (`const extra
                            // = id ? { $addToSet: { contributors: id } } : {}` .. `{ $set: s,
                            // ...extra }`, growthbook's revisions), or to an object with such a
                            // spread of its own: its update operators, read the same way. (Not
                            // its other fields: a condition's may not be there, and a filter's
                            // `_id: { $in: ids }` under `type === 'unread'` would name the
                            // documents of every query.) An object with no spread of its own is
                            // read whole, below.
                            let bound = arg
                                .filter(|a| a.k() == "identifier")
                                .and_then(|a| {
                                    let name = self.text(a);
                                    let b = self.lookup(name, a.start_byte() as u32)?;
                                    self.is_constant(b, name).then_some(b.value?)
                                })
                                .map(|v| self.unwrap_expr(v))
                                .filter(|v| v.start_byte() < p.start_byte());
                            if let (Some(v), Some(a)) = (bound, arg) {
                                // A constant bound to an object written in the code with no
                                // spread of its own (`const defaultFilter = { status: { $ne:
                                // 'deleted' } }` .. `{ ...defaultFilter, code }`, erxes): its
                                // fields, as the name alone reads (with the members set on it
                                // where every path sets them, and a spread for keys added at
                                // run time). Not one with a spread, whose conditional fields
                                // may not be there.
                                let fixed = v.k() == "object"
                                    && self.parents.children(v).all(|c| c.k() != "spread_element");
                                if fixed {
                                    let read = self.lower_identifier(a, depth + 1);
                                    if let ValueKind::Document(fs) = read.kind {
                                        fields.extend(fs);
                                        continue;
                                    }
                                }
                            }
                            if let Some(v) = bound {
                                let mut found = Vec::new();
                                if !spliced(v, &mut found) {
                                    for b in self.spread_choices(v) {
                                        spliced(b, &mut found);
                                    }
                                }
                                fields.extend(
                                    found.into_iter().filter(|f| is_update_operator(&f.key)),
                                );
                            }
                            for b in picked {
                                spliced(b, &mut fields);
                            }
                            fields.push(Field::spread(span(p), self.text(p), false));
                        }
                        _ => {}
                    }
                }
                ValueKind::Document(fields)
            }
            "array" => ValueKind::Array(self.lower_array_items(inner, depth)),
            "string" | "template_string" => match self.string_value(inner) {
                Some(s) => ValueKind::String(s),
                None => return Value::unknown(sp, self.text(inner), false),
            },
            "number" => match parse_number(self.text(inner)) {
                Some(x) => ValueKind::Number(x),
                None => return Value::unknown(sp, self.text(inner), false),
            },
            "unary_expression" => {
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
            // Arithmetic on numbers written in the code: `(24 * 60) * 60 / 30` is 2880.
            "binary_expression" => {
                let op = self.field(inner, "operator").map(|o| self.text(o));
                let number = |side: &'static str| {
                    let v = self.field(inner, side)?;
                    match self.lower(v, depth + 1).kind {
                        ValueKind::Number(x) => Some(x),
                        _ => None,
                    }
                };
                let folded = match op {
                    Some(op @ ("+" | "-" | "*" | "/" | "%"))
                        if super::is_literal_arithmetic(self.text(inner)) =>
                    {
                        number("left")
                            .zip(number("right"))
                            .and_then(|(a, b)| super::fold_arithmetic(op, a, b))
                    }
                    _ => None,
                };
                match folded {
                    Some(x) => ValueKind::Number(x),
                    None => return Value::unknown(sp, self.text(inner), false),
                }
            }
            "true" => ValueKind::Bool(true),
            "false" => ValueKind::Bool(false),
            "null" | "undefined" => ValueKind::Null,
            "identifier" => return self.lower_identifier(inner, depth + 1).with_span(sp),
            "member_expression" | "subscript_expression" => {
                return Value::unknown(sp, self.text(inner), true);
            }
            "call_expression" => match self
                .concatenated(inner, depth)
                .or_else(|| self.returned_pipeline(inner, depth))
            {
                Some(v) => v.kind,
                None => return Value::unknown(sp, self.text(inner), false),
            },
            _ => return Value::unknown(sp, self.text(inner), false),
        };
        Value { span: sp, kind }
    }

    /// What a spread under a condition picks from: both branches of `...(c ? a : b)`, the
    /// right side of `...(c && a)`; none for another spread.
    fn spread_choices(&self, arg: Node<'t>) -> Vec<Node<'t>> {
        match arg.k() {
            "ternary_expression" => ["consequence", "alternative"]
                .into_iter()
                .filter_map(|b| self.field(arg, b))
                .collect(),
            "binary_expression" => self.field(arg, "right").into_iter().collect(),
            _ => Vec::new(),
        }
    }

    fn lower_array_items(&self, arr: Node<'t>, depth: usize) -> Vec<Value> {
        let mut items = Vec::new();
        for c in self.named_children(arr) {
            if c.k() == "spread_element" {
                if let Some(inner) = self.named_children(c).into_iter().next() {
                    let v = self.lower(inner, depth + 1);
                    if let ValueKind::Array(xs) = v.kind {
                        items.extend(xs);
                        continue;
                    }
                    // Stages added under a condition (`...(limit ? [{ $lookup: .. }] : [])`,
                    // `...(paged && [{ $skip: n }])`, Checkmate's monitors): the longer of the
                    // lists the condition picks from, the pipeline's fullest form.
                    let picked = self
                        .spread_choices(self.unwrap_expr(inner))
                        .into_iter()
                        .filter(|b| self.unwrap_expr(*b).k() == "array")
                        .map(|b| self.lower_array_items(self.unwrap_expr(b), depth + 1))
                        .reduce(|best, xs| if best.len() >= xs.len() { best } else { xs });
                    // (Kept beside an unknown item: what the condition leaves out.)
                    items.extend(picked.unwrap_or_default());
                }
                items.push(Value::unknown(span(c), self.text(c), false));
            } else {
                items.push(self.lower(c, depth + 1));
            }
        }
        items
    }

    /// A name bound to a constant literal becomes that literal; an array variable includes the
    /// elements pushed onto it before `at`.
    fn lower_identifier(&self, id: Node<'t>, depth: usize) -> Value {
        self.note_depth(depth);
        let name = self.text(id);
        let at = id.start_byte() as u32;
        if let Some(b) = self.lookup(name, at) {
            if let Some(v) = b.value {
                let vk = self.unwrap_expr(v).k();
                let literal_like = matches!(
                    vk,
                    "object"
                        | "array"
                        | "string"
                        | "number"
                        | "template_string"
                        | "unary_expression"
                        | "true"
                        | "false"
                        | "null"
                );
                if vk == "array" && depth <= MAX_DEPTH {
                    // Arrays are mutated in place: `pipeline.push(stage)` keeps the binding const.
                    let mut items = self.lower_array_items(self.unwrap_expr(v), depth);
                    let mut front = Vec::new();
                    if let Some(ps) = self.pushes.get(name) {
                        // The branches of the pushes taken: a push in the other branch of an
                        // `if` than one taken is its alternative (courselit's `$lookup` with a
                        // `$limit` or without), not a further item.
                        let mut taken: Vec<Vec<(&str, bool)>> = Vec::new();
                        for (pos, unshift, args) in ps {
                            if *pos > b.pos
                                && *pos < at
                                && b.scope.contains(Span::new(*pos as usize, *pos as usize))
                            {
                                let branches = self.if_branches(*args);
                                if taken.iter().any(|t| {
                                    t.iter().any(|(i, alt)| {
                                        branches.iter().any(|(j, other)| i == j && alt != other)
                                    })
                                }) {
                                    continue;
                                }
                                taken.push(branches);
                                for a in self.named_children(*args) {
                                    let lowered = if a.k() == "spread_element" {
                                        match self.named_children(a).into_iter().next() {
                                            Some(i) => self.lower(i, depth + 1).items().to_vec(),
                                            None => vec![],
                                        }
                                    } else {
                                        vec![self.lower(a, depth + 1)]
                                    };
                                    if *unshift {
                                        front.extend(lowered);
                                    } else {
                                        items.extend(lowered);
                                    }
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
                if literal_like && self.is_constant(b, name) && depth <= MAX_DEPTH {
                    return self.lower_bound(name, b, v, id, depth);
                }
                // `let query = { admin: user }; if (isAdmin) query = {};`: the object the name
                // holds on a path the code shows.
                if b.kind == DeclKind::Mutable && depth <= MAX_DEPTH {
                    if let Some((r, v)) = self.reaching_object(name, at) {
                        return self.lower_bound(name, r, v, id, depth);
                    }
                }
                // `const keep = (24 * 60) * 60 / 30`: a number the code computes from numbers.
                if vk == "binary_expression" && depth <= MAX_DEPTH && self.is_constant(b, name) {
                    let folded = self.lower(v, depth);
                    if matches!(folded.kind, ValueKind::Number(_)) {
                        return folded;
                    }
                }
                // `const pipeline = pipelineFor(options)`: what the file's function returns.
                if vk == "call_expression" && depth <= MAX_DEPTH && self.is_constant(b, name) {
                    if let Some(p) = self.returned_pipeline(self.unwrap_expr(v), depth) {
                        return p;
                    }
                }
            } else if b.kind == DeclKind::Param && self.fills_of(name, b).is_some() {
                // Options the function is given and fills before it passes them on
                // (`findOptions.skip = (page - 1) * perPage`, ship's `find(filter, readConfig,
                // findOptions = {})`): what it sets, beside what the caller gave.
                let mut fields = self.members_set(name, b, id, depth);
                if !fields.is_empty() {
                    fields.push(Field::spread(span(id), name, true));
                    return Value {
                        span: span(id),
                        kind: ValueKind::Document(fields),
                    };
                }
            }
        }
        Value::unknown(span(id), name, true)
    }

    /// A name's literal value `v` (bound by `b`) as read at `id`: an object filled in after its
    /// literal keeps the literal's keys and takes the members set on it, and a spread for the
    /// keys added at run time.
    fn lower_bound(
        &self,
        name: &str,
        b: &Binding<'t>,
        v: Node<'t>,
        id: Node<'t>,
        depth: usize,
    ) -> Value {
        let object = self.unwrap_expr(v).k() == "object";
        let Some(by_key) = object.then(|| self.fills_of(name, b)).flatten() else {
            return self.lower(v, depth);
        };
        // The literal's keys stand; more are added at run time, like a spread.
        let mut v = self.lower(v, depth);
        if let ValueKind::Document(fields) = &mut v.kind {
            // An update operator set on it before this use, in its scope (`var update = {};
            // update.$addToSet = {groups: hash}`, Countly's crash reports), under a condition or
            // not: the update may send it. So may options (`options.skip = terms.offset`,
            // Vulcan's resolvers). An operator's own document named for it (wildduck's `let
            // $push = {}; $push.oldPasswords = {..}`, then `{ $push }`) takes every member set on
            // it; filled by those alone, it has no other key.
            let operator = name.starts_with('$');
            fields.extend(self.members_set(name, b, id, depth));
            // Members set by name (`q.status = status`): those every path to the read sets are
            // keys of the object; one set under an `if` the read is not under, a path skips.
            let known = !by_key && !operator && self.plain_members(name, b, id, depth, fields);
            if by_key || !(operator || known) {
                fields.push(Field::spread(span(id), name, true));
            }
        }
        v
    }

    /// The members the code sets on the object `name` (`name.member = value`) after its binding
    /// `b`, in `b`'s scope, in the order of their positions: (member, value, position).
    fn members_after<'a>(
        &'a self,
        name: &'a str,
        b: &'a Binding<'t>,
    ) -> impl Iterator<Item = (&'t str, Node<'t>, u32)> + 'a {
        let of_name = self
            .member_assigns_of
            .get(name)
            .map_or(&[][..], |v| v.as_slice());
        let from = of_name.partition_point(|&i| self.member_assigns[i as usize].3 <= b.pos);
        of_name[from..].iter().filter_map(move |&i| {
            let (object, member, value, pos) = self.member_assigns[i as usize];
            (object == name && b.scope.contains(Span::new(pos as usize, pos as usize)))
                .then_some((member, value, pos))
        })
    }

    /// Adds to `fields` the members other than update operators and options that the code sets
    /// by name on the object `name` (bound by `b`) before `id` reads it and that every path to the
    /// read sets (`q.team = team`); `false`, adding none, when one is set under a condition that
    /// no path skips (in both branches of an `if`), or after the read (in a loop it may reach the
    /// read again).
    fn plain_members(
        &self,
        name: &str,
        b: &Binding<'t>,
        id: Node<'t>,
        depth: usize,
        fields: &mut Vec<Field>,
    ) -> bool {
        let at = id.start_byte() as u32;
        let mut set = Vec::new();
        for (member, value, pos) in self.members_after(name, b) {
            if is_operator_or_option(member) {
                continue;
            }
            if pos >= at {
                return false;
            }
            match self.assigned_under(value, at) {
                None => set.push(Field {
                    key: member.to_string(),
                    key_span: span(value),
                    value: self.lower(value, depth + 1),
                }),
                Some(true) => {}
                Some(false) => return false,
            }
        }
        fields.extend(set);
        true
    }

    /// The object literal a name assigned more than once in its function holds where it is read
    /// at `at`, and the binding that gives it, when the code shows one the read sees:
    /// - the values that reach the read are the last assignment (or declaration) that every
    ///   path to the read passes, and each assignment after it made under a condition that the
    ///   read is not under (an `if` branch, a `switch` case, a `try`, a loop);
    /// - when they are all object literals with the same keys (`if (a) q = { _id: x }; else q =
    ///   { _id: y };`, wildduck's mailbox queries), the first;
    /// - else when the first is an object literal and each later one is made only in an `if`
    ///   with no `else` (`let q = { admin: user }; if (isAdmin) q = {};`, tellform's form
    ///   list), the first: the read sees it whenever no condition holds.
    ///
    /// `None` when any assignment is of another kind (`+=`, `++`, in a nested function), or
    /// comes after the read (in a loop it may reach the read again).
    fn reaching_object(&self, name: &str, at: u32) -> Option<(&Binding<'t>, Node<'t>)> {
        let latest = self.lookup(name, at)?;
        let scope = latest.scope;
        let mut own: Vec<&Binding<'t>> = self
            .bindings
            .get(name)?
            .iter()
            .filter(|x| x.scope == scope && x.pos <= latest.pos && x.value.is_some())
            .collect();
        own.sort_by_key(|x| x.pos);
        let inside = |p: u32| scope.contains(Span::new(p as usize, p as usize));
        let assigned = self.assigned.get(name).map_or(&[][..], |v| &v[..]);
        if assigned
            .iter()
            .any(|&p| inside(p) && (p >= at || !own.iter().any(|x| x.pos == p)))
        {
            return None;
        }
        // Each value that may reach the read, and whether a path skips it.
        let mut reach: Vec<(&Binding<'t>, Node<'t>, bool)> = Vec::new();
        for x in own {
            let v = x.value?;
            match self.assigned_under(v, at) {
                None => reach = vec![(x, v, false)],
                Some(skippable) => reach.push((x, v, skippable)),
            }
        }
        let objects: Vec<Node<'t>> = reach
            .iter()
            .map(|(_, v, _)| self.unwrap_expr(*v))
            .filter(|v| v.k() == "object")
            .collect();
        let (first, v, _) = *reach.first()?;
        if objects.len() != reach.len() && self.unwrap_expr(v).k() != "object" {
            return None;
        }
        let keys = |o: Node<'t>| -> Vec<&'t str> {
            self.named_children(o)
                .into_iter()
                .map(|p| match self.field(p, "key") {
                    Some(k) => self.text(k),
                    None => self.text(p),
                })
                .collect()
        };
        let same =
            objects.len() == reach.len() && objects.iter().all(|o| keys(*o) == keys(objects[0]));
        let first_reaches = reach.iter().skip(1).all(|(_, _, skippable)| *skippable);
        (same || (reach.len() > 1 && first_reaches)).then_some((first, v))
    }

    /// Whether the assignment or declaration of `value` is made under a condition that the read
    /// at `at` is not under: `None` when every path to the read passes it, else whether a path
    /// to the read skips it (it is in an `if` with no `else`).
    fn assigned_under(&self, value: Node<'t>, at: u32) -> Option<bool> {
        super::under_condition(
            &self.parents,
            value,
            at,
            MAX_DEPTH,
            is_function,
            |p| match p.k() {
                "if_statement" => Some(self.field(p, "alternative").is_none()),
                "else_clause" | "switch_statement" | "switch_case" | "switch_default"
                | "ternary_expression" | "binary_expression" | "try_statement" | "catch_clause"
                | "finally_clause" | "for_statement" | "for_in_statement" | "while_statement"
                | "do_statement" => Some(false),
                _ => None,
            },
        )
    }

    /// The members that the code sets on the object `name` (bound by `b`) in its scope before
    /// `id` reads it, of those an operation reads from an update or its options: an update
    /// operator (`update.$addToSet = {groups: hash}`, Countly's crash reports), `skip`, `limit`,
    /// `sort` (`options.skip = terms.offset`, Vulcan's resolvers); every member of an operator's
    /// own document named for it (wildduck's `let $push = {}; $push.oldPasswords = {..}`, then
    /// `{ $push }`).
    fn members_set(&self, name: &str, b: &Binding<'t>, id: Node<'t>, depth: usize) -> Vec<Field> {
        let operator = name.starts_with('$');
        let at = id.start_byte() as u32;
        let mut fields = Vec::new();
        for (member, value, pos) in self.members_after(name, b) {
            if pos >= at {
                break;
            }
            if operator || is_operator_or_option(member) {
                // Paging turned off on one path only (`if (limit === 0) { opts.pagination = false
                // }`, payload's adapter) is still on on the others.
                if member == "pagination"
                    && value.k() == "false"
                    && self.assigned_under(value, at) == Some(true)
                {
                    continue;
                }
                fields.push(Field {
                    key: member.to_string(),
                    key_span: span(value),
                    value: self.lower(value, depth + 1),
                });
            }
        }
        fields
    }

    fn key_text(&self, k: Node<'t>) -> String {
        match k.k() {
            "string" => self.string_value(k).unwrap_or_default(),
            "computed_property_name" => {
                let inner = self.named_children(k).into_iter().next();
                match inner.map(|i| self.lower(i, 1)) {
                    Some(Value {
                        kind: ValueKind::String(s),
                        ..
                    }) => s,
                    _ => self.text(k).to_string(),
                }
            }
            _ => self.text(k).to_string(),
        }
    }

    // ---------------------------------------------------------------- pass 2: operations

    fn collect_operations(&mut self, root: Node<'t>) {
        let mut calls: Vec<(Node<'t>, OpContext)> = Vec::new();
        // Beside `calls`: whether each calls a function of this file by name.
        let mut local_callee: Vec<bool> = Vec::new();
        let mut named_refs: Vec<Node<'t>> = Vec::new();
        let mut news: Vec<Node<'t>> = Vec::new();
        // (loop span, what it iterates over).
        let mut loops: OpenLoops = Vec::new();
        let mut nested = super::NestedLoops::default();
        let mut functions: Vec<(String, bool)> = Vec::new();
        // The functions in no other function: where a look-up another module calls may be (see
        // `note_lookups`).
        let mut outermost: Vec<Node<'t>> = Vec::new();
        // Beside `functions`: whether each function pushed a loop (a per-item callback), so that
        // its exit pops it without deciding again.
        let mut callback_loops: Vec<bool> = Vec::new();
        // Beside `functions`: the loops around a function that is stored rather than run where
        // it is written (see `stored_function`), set aside while in it.
        let mut set_aside: Vec<Option<OpenLoops>> = Vec::new();
        let file_periodic = self.file_periodic;
        let mut scheduled: crate::lang::HashSet<&'t str> = Default::default();
        // (caller, callee) by name, for what the scheduled functions call in turn: the caller as
        // its index in `caller_names` (the last segment of each function's name, one per
        // function, not a copy per call), which `callers` holds beside `functions`.
        let mut calls_by_name: Vec<(usize, &'t str)> = Vec::new();
        let mut caller_names: Vec<String> = Vec::new();
        let mut callers: Vec<usize> = Vec::new();
        let flags = kinds::FLAGS.table();
        self.parents
            .clone()
            .walk_flagged(root, flags, |n, f, enter| {
                if enter {
                    match f {
                        // `for (let i = 0; i < xs.length; i++)`: iterates over `xs`, as
                        // `for (const x of xs)` does; other counting loops over nothing.
                        _ if f & kinds::LOOP != 0 => {
                            let over = match self.counted_array(n) {
                                Some(r) => Some(self.loop_over(r, None)),
                                None => self
                                    .cursor_walked(n)
                                    .map(|(c, item)| self.loop_over(c, item)),
                            };
                            loops.push((span(n), over))
                        }
                        // `for (const x of xs)` / `for (const k in obj)`: iterates over `right`.
                        _ if f & kinds::FOR_IN != 0 => {
                            let item = self.field(n, "left").map(|l| self.text(l));
                            let over = self.field(n, "right").map(|r| self.loop_over(r, item));
                            loops.push((span(n), over))
                        }
                        _ if f & kinds::FUNCTION != 0 => {
                            if functions.is_empty() {
                                outermost.push(n);
                            }
                            let (name, periodic_call) = function_name(self, n);
                            let inherited = functions.last().is_some_and(|f| f.1);
                            // (A request handler, `(req, res)`, is none by its name: Strider's
                            // `exports.job = function (req, res)`, a CI server's job page.)
                            let periodic = inherited
                                || periodic_call
                                || (name
                                    .as_deref()
                                    .is_some_and(|n| name_is_periodic_in(n, self.request_file))
                                    && !self.handles_request(n))
                                || self.polls_forever(n);
                            let callback = iteration_callback(self, n);
                            callback_loops.push(callback.is_some());
                            set_aside.push(
                                (callback.is_none()
                                    && !loops.is_empty()
                                    && self.stored_function(n))
                                .then(|| std::mem::take(&mut loops)),
                            );
                            if let Some((l, items)) = callback {
                                loops.push((l, items.map(|r| self.loop_over(r, None))));
                            }
                            let name = name.unwrap_or_default();
                            callers.push(caller_names.len());
                            caller_names.push(super::naming::last_part(&name, b'.').to_string());
                            functions.push((name, periodic));
                        }
                        _ => {}
                    }
                    if f & kinds::CALL != 0 {
                        // What a scheduled callback calls: `Meteor.setInterval(() =>
                        // History.cleanup(), DAY)` makes this file's `cleanup` a periodic job.
                        let mut local = false;
                        if let Some(callee) = self.field(n, "function") {
                            local = callee.k() == "identifier"
                                && self.functions.contains_key(self.text(callee));
                            // A function handed to the scheduler by name: `setInterval(
                            // profilesCleanup, interval)` (jsreport's profiler).
                            if is_scheduler(self.text(callee)) {
                                for a in self.args(n) {
                                    let a = self.bound_function(a).unwrap_or(a);
                                    if matches!(a.k(), "identifier" | "member_expression") {
                                        let text = self.text(a);
                                        scheduled.insert(super::naming::last_part(text, b'.'));
                                    }
                                }
                            }
                            let name = super::naming::last_part(self.text(callee), b'.');
                            match (functions.last(), callers.last()) {
                                _ if name.is_empty() => {}
                                (Some((_, true)), _) => {
                                    scheduled.insert(name);
                                }
                                (Some((caller, false)), Some(&i)) if !caller.is_empty() => {
                                    calls_by_name.push((i, name))
                                }
                                _ => {}
                            }
                        }
                        let mut c = super::op_context(&loops, &functions, file_periodic, span(n));
                        c.exits_loop = c.enclosing_loop.is_some_and(|l| {
                            super::exits_loop_after(
                                &self.parents,
                                self.src,
                                n,
                                l,
                                "statement_block",
                                &["break_statement", "return_statement", "throw_statement"],
                                is_function,
                                |k| {
                                    matches!(
                                        k,
                                        "for_statement"
                                            | "for_in_statement"
                                            | "while_statement"
                                            | "do_statement"
                                    )
                                },
                            )
                        });
                        c.exits_loop = c.exits_loop
                            || c.enclosing_loop.is_some_and(|l| self.once_per_loop(n, l));
                        if loops.len() > 1 {
                            let key = (n.start_byte() as u32, n.end_byte() as u32);
                            nested.insert(key, loops.clone());
                        }
                        calls.push((n, c));
                        local_callee.push(local);
                    }
                    if f & kinds::MEMBER != 0 {
                        named_refs.push(n);
                    }
                    if f & kinds::NEW != 0 {
                        news.push(n);
                    }
                } else {
                    if f & (kinds::LOOP | kinds::FOR_IN) != 0 {
                        loops.pop();
                    } else if f & kinds::FUNCTION != 0 {
                        if callback_loops.pop() == Some(true) {
                            loops.pop();
                        }
                        if let Some(Some(outer)) = set_aside.pop() {
                            loops = outer;
                        }
                        functions.pop();
                        callers.pop();
                    }
                }
            });
        // And what those functions call, a few calls deep: openhim's `agenda.define(name, (job,
        // done) => autoRetryTask(job, done))`, whose `autoRetryTask` reads through `getChannels`.
        for _ in 0..3 {
            let before = scheduled.len();
            for &(caller, callee) in &calls_by_name {
                if scheduled.contains(caller_names[caller].as_str()) {
                    scheduled.insert(callee);
                }
            }
            if scheduled.len() == before {
                break;
            }
        }
        // The calls in loops, to find their operations again below.
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
        let before = self.ir.operations.len();
        // The calls of functions of this file by name, with their context: what such a function
        // runs with an update a parameter is what the call gives it.
        let mut local_calls = Vec::new();
        for ((call, mut ctx), local) in calls.into_iter().zip(local_callee) {
            // A function of this file that a scheduled callback calls runs on that schedule.
            ctx.periodic |= ctx
                .function
                .as_deref()
                .is_some_and(|f| scheduled.contains(super::naming::last_part(f, b'.')));
            if local {
                local_calls.push((call, ctx.clone()));
            }
            self.visit_call(call, ctx);
        }
        let mut changed_in = HashMap::default();
        // The calls in loops on a collection named in the loop by what does not change there.
        for i in before..self.ir.operations.len() {
            let op = &self.ir.operations[i];
            let Some(&call) = in_loops.get(&(op.span.start, op.span.end)) else {
                continue;
            };
            let Some(name) = super::loop_invariant_name_candidate(op, call) else {
                continue;
            };
            let l = op.context.enclosing_loop.unwrap_or_default();
            if self.unchanged_in_loop(call, l, &[l], self.names_read(name), &mut changed_in) {
                self.ir.operations[i].context.name_fixed_in_loop = true;
            }
        }
        // The reads in loops that send the same query on every iteration (and the writes that
        // change nothing when sent again).
        for i in before..self.ir.operations.len() {
            let op = &self.ir.operations[i];
            let (Some(l), false, true) = (
                op.context.enclosing_loop,
                op.context.exits_loop,
                op.kind.is_read() || op.idempotent_write(),
            ) else {
                continue;
            };
            let Some(&call) = in_loops.get(&(op.span.start, op.span.end)) else {
                continue;
            };
            if !self.same_each_iteration(call, l, &[l], &mut changed_in) {
                continue;
            }
            // Repeated on each item of a loop around its own: a read per item of that one.
            let outer = self.varying_outer(call, l, &nested, &mut changed_in);
            super::settle_repeated_read(&mut self.ir.operations[i].context, outer);
        }
        for (call, def, ctx) in helper_calls {
            self.note_helper_read(call, def, ctx, &nested, &mut changed_in);
        }
        for (call, import, ctx) in imported_calls {
            self.note_imported_call(call, import, ctx, &nested, &mut changed_in);
        }
        self.operations_through_calls(before, local_calls);
        self.note_lookups(&outermost);

        // Meteor's `new Mongo.Collection("org")` names its collection as `mongoose.model("Org",
        // schema)` or `db.collection("org")` do, whether or not this file queries it.
        // (`classify` reads the constructor: only a Meteor collection is a collection.)
        for n in news {
            if let Thing::Collection(r) = self.classify(n, 0) {
                self.ir.collections.push(r);
            }
        }
        // mongosh `db.orders` / `db["orders"]` names a collection even when only a getter is used.
        for n in named_refs {
            let Some(obj) = self.field(n, "object") else {
                continue;
            };
            // `db.close()`: collections are not callable, so a called member is a method.
            let called = self.parents.of(n).is_some_and(|p| {
                p.k() == "call_expression" && self.field(p, "function") == Some(n)
            });
            if obj.k() == "identifier" && self.text(obj) == "db" && !called {
                if let Thing::Collection(r) = self.classify(n, 0) {
                    self.ir.collections.push(r);
                }
            }
        }
    }

    fn visit_call(&mut self, call: Node<'t>, ctx: OpContext) {
        let Some(f) = self.field(call, "function") else {
            return;
        };
        if f.k() == "identifier" {
            // `model("User", schema)` imported from mongoose.
            if let Thing::Collection(r) = self.classify_call(call, 0) {
                self.note_model(call, &r);
                self.ir.collections.push(r);
                return;
            }
            self.index_helper_call(call, f, ctx);
            return;
        }
        if f.k() != "member_expression" {
            return;
        }
        let (Some(obj), Some(prop)) = (self.field(f, "object"), self.field(f, "property")) else {
            return;
        };
        let method = self.text(prop);
        if matches!(method, "collection" | "getCollection" | "model") {
            if let Thing::Collection(r) = self.classify_call(call, 0) {
                self.note_model(call, &r);
                if method == "collection" {
                    self.note_typed_collection(call, &r);
                }
                self.ir.collections.push(r);
            }
            return;
        }
        if method == "command" {
            if let Some(cmd) = self.args(call).first() {
                let cmd = self.lower(*cmd, 0);
                let ops =
                    super::index_command_operations(&cmd, span(call), method, span(prop), &ctx);
                if !ops.is_empty() {
                    self.ir.operations.extend(ops);
                    return;
                }
            }
        }
        if matches!(method, "push" | "addToSet" | "unshift") {
            self.document_array_push(call, obj, prop, ctx);
            return;
        }
        if method == "save" && matches!(obj.k(), "identifier" | "this") && !self.bumps.is_empty() {
            self.saved_counters(call, obj, &ctx);
        }
        if method == "save" && obj.k() == "identifier" && ctx.enclosing_loop.is_some() {
            if let Some(op) = self.saved_item(call, obj, prop, &ctx) {
                self.ir.operations.push(op);
            }
        }
        if method == "save" {
            if let Some(op) = self.saved_new_document(call, obj, prop, &ctx) {
                self.ir.operations.push(op);
                return;
            }
        }
        if matches!(method, "updateOne" | "update") && obj.k() == "identifier" {
            if let Some(op) = self.document_update(call, obj, prop, &ctx) {
                self.ir.operations.push(op);
                return;
            }
        }
        // `orders.countDocuments(q)` is an operation; `Model.find(q).countDocuments()` a modifier.
        // So is `db.products.countDocuments(q)` on a member the code sets to a collection
        // (`db.products = db.collection("products")`, expressCart's), which the linker names: a
        // member is no query to modify.
        let operation_on_collection = js_operation(method).is_some()
            && (self.unwrap_expr(obj).k() == "member_expression"
                || self.classify(obj, 0).names_collection());
        if !operation_on_collection
            && (MODIFIERS.contains(&method) || AGGREGATE_BUILDER_STAGES.contains(&method))
        {
            // `cursor.skip(n)` where `cursor` is bound to an operation call.
            let root = self.chain_root(obj);
            if root.k() == "identifier" && self.is_chain_start(root, call) {
                let binding = self
                    .lookup(self.text(root), root.start_byte() as u32)
                    .map(|b| (b.value, cursor_type(b.type_text)));
                // Offset paging on a variable bound to no read (see `note_loose_skip`).
                let loose = matches!(method, "skip" | "limit" | "sort")
                    && binding.is_none_or(|(value, typed)| value.is_some() || typed);
                let mut bound = None;
                let mut chain = None;
                if let Some(v) = binding.and_then(|b| b.0) {
                    let mut v = self.chain_root(v);
                    // Through the cursor's reassignments: `cursor = cursor.limit(n)` (each under
                    // its own `if`) back to `let cursor = coll.find(q)`; the right-hand side of an
                    // assignment sees the binding before it.
                    for _ in 0..MAX_DEPTH {
                        if v.k() != "identifier" || self.text(v) != self.text(root) {
                            break;
                        }
                        match self
                            .lookup(self.text(v), v.start_byte() as u32)
                            .and_then(|b| b.value)
                        {
                            Some(previous) => v = self.chain_root(previous),
                            None => break,
                        }
                    }
                    if v.k() != "call_expression" {
                        return;
                    }
                    bound = Some(v.id());
                    let mods = self.bound_modifiers(root, call, v);
                    if loose {
                        chain = Some(mods.clone());
                    }
                    // (The names capped where the skip is applied: see `capped_names`.)
                    let capped = if mods.iter().any(skips_by_a_name) {
                        self.capped_names(call)
                    } else {
                        Vec::new()
                    };
                    // A query given more conditions under an `if` with no `else` (`if
                    // (options.query) find = find.find({ $text: .. })`, lets-chat's messages):
                    // the path that skips it sends the query before, with the same modifiers.
                    if let Some(before) = self.refined_query_before(root, call, v) {
                        let mods = self.bound_modifiers(root, call, before);
                        self.pending_modifiers
                            .push((before.id(), mods, capped.clone()));
                    }
                    self.pending_modifiers.push((v.id(), mods, capped));
                } else if method == "populate" {
                    // The document a query hands its callback, its references filled in
                    // (`Request.findOne(q).exec(function (err, request) {
                    // request.populate('lead').populate('department').execPopulate(cb) })`,
                    // tiledesk's requests): the chain is that query's.
                    if let Some(q) = self.callback_query(root) {
                        let mods = self.collect_chain(root, false);
                        self.pending_modifiers.push((q.id(), mods, Vec::new()));
                    }
                }
                if loose {
                    let mods = chain.unwrap_or_else(|| self.collect_chain(root, false));
                    self.note_loose_skip(root, call, bound, ctx, mods);
                }
            } else if root.k() == "call_expression"
                && self.is_chain_start(root, call)
                && self.calls_repository_module(root)
            {
                // `document.getMulti(d, type, q).sort(s).skip((page - 1) * n).limit(n)`: a cursor
                // a module of the repository returns (Hydro's solutions), paged where it is made.
                let mods = self.collect_chain(root, false);
                self.note_loose_skip(root, call, None, ctx, mods);
            }
            return;
        }
        let Some(m) = js_operation(method) else {
            if matches!(
                method,
                "initializeUnorderedBulkOp" | "initializeOrderedBulkOp"
            ) {
                self.bulk_builders = true;
            }
            // `Helpers.addIndexesToCollection(db.projectHistorySyncState, indexes)`.
            if names_index_helper(method) {
                self.index_helper_call(call, prop, ctx);
            }
            return;
        };
        // `this.createIndex(name)` in a class of the file that defines a `createIndex` of its own
        // (crowi's Elasticsearch client) calls that method. Taken for the driver's, an index on a
        // collection named at run time, it would stop unindexed-query for every collection.
        // So does `Storage.createIndexes(this.db)`, a static method of the file's own class
        // `Storage` (bitcore's wallet service), and `this.ensureIndex(def, columns, fn)` in a
        // class that is no model, whose base class in another module defines it (Twake's search
        // adapters).
        if matches!(m.kind, OpKind::CreateIndex | OpKind::DropIndex)
            && (obj.k() == "this"
                && (self.functions.contains_key(method)
                    || self.enclosing_class(obj).is_some()
                        && matches!(self.classify(obj, 0), Thing::Unknown))
                || obj.k() == "identifier" && self.class_defines(self.text(obj), method))
        {
            return;
        }
        if m.kind == OpKind::CreateIndex {
            if let Some(helper) = self.passes_index_on(call, obj) {
                self.ir.index_pass_ons.push((span(call), helper));
            }
        }
        self.operation(call, obj, prop, m, ctx);
    }

    /// The class whose body holds `n`.
    fn enclosing_class(&self, n: Node<'t>) -> Option<Node<'t>> {
        let mut class = self.parents.of(n);
        while let Some(c) = class {
            if is_class(c.k()) {
                return Some(c);
            }
            class = self.parents.of(c);
        }
        None
    }

    /// The function of this file a call runs: a function declared at the top of the module or
    /// bound to a name there (`find_tx(..)`, `const load = async (id) => ..`), a method of the
    /// caller's class through `this`, or a static of a model of the file (see `static_def`).
    fn helper_def(&self, call: Node<'t>) -> Option<Node<'t>> {
        let f = self.field(call, "function")?;
        let f = self.bound_callee(f).unwrap_or(f);
        match f.k() {
            "identifier" => {
                let name = self.text(f);
                let declared = self.functions.get(name).and_then(|fs| match fs.as_slice() {
                    [d] if d.k() == "function_declaration" => Some(*d),
                    _ => None,
                });
                let def = declared.or_else(|| {
                    let v = self.lookup(name, f.start_byte() as u32)?.value?;
                    let v = self.unwrap_expr(v);
                    matches!(v.k(), "arrow_function" | "function_expression" | "function")
                        .then_some(v)
                })?;
                // At the top of the module (or exported there).
                let mut up = self.parents.of(def)?;
                while matches!(
                    up.k(),
                    "variable_declarator" | "lexical_declaration" | "variable_declaration"
                ) || up.k() == "export_statement"
                {
                    up = self.parents.of(up)?;
                }
                (up.k() == "program").then_some(def)
            }
            "member_expression" => {
                let obj = self.field(f, "object")?;
                let method = self.field(f, "property")?;
                if obj.k() == "identifier" {
                    return self.static_def(obj, self.text(method));
                }
                if obj.k() != "this" {
                    return None;
                }
                let class = self.enclosing_class(call)?;
                let fs = self.functions.get(self.text(method))?;
                let mut own = fs.iter().filter(|d| {
                    d.k() == "method_definition"
                        && self.parents.of(**d).and_then(|body| self.parents.of(body))
                            == Some(class)
                });
                match (own.next(), own.next()) {
                    (Some(d), None) => Some(*d),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The static of a Mongoose model of this file that `model.method(..)` runs: the one function
    /// the file assigns as a schema's static of that name (crowi's `pageSchema.statics.
    /// findPageByPath = async function (path) { .. Page.findOne({ path }) .. }`, called per path
    /// as `Page.findPageByPath(path)`).
    fn static_def(&self, model: Node<'t>, method: &str) -> Option<Node<'t>> {
        let mut defs = self
            .member_assigns
            .iter()
            .filter(|(o, m, _, _)| *m == method && o.ends_with(".statics"))
            .map(|(_, _, v, _)| self.unwrap_expr(*v));
        let (Some(def), None) = (defs.next(), defs.next()) else {
            return None;
        };
        if !matches!(
            def.k(),
            "function_expression" | "function" | "arrow_function"
        ) {
            return None;
        }
        matches!(
            self.classify(model, 0),
            Thing::Collection(CollectionRef {
                via: CollectionVia::MongooseModel,
                ..
            })
        )
        .then_some(def)
    }

    /// The function that a callee's `bind`, `call` or `apply` runs (`latestJob` of
    /// `latestJob.bind(null, project)`, a task queued per item for `async.parallel`, Strider's
    /// `projectJobs`; `this.load` of `this.load.call(this, id)`).
    fn bound_callee(&self, f: Node<'t>) -> Option<Node<'t>> {
        if f.k() != "member_expression"
            || !self
                .field(f, "property")
                .is_some_and(|p| matches!(self.text(p), "bind" | "call" | "apply"))
        {
            return None;
        }
        self.field(f, "object")
            .filter(|o| matches!(o.k(), "identifier" | "member_expression"))
    }

    /// The innermost function around the code at `at` (see `enclosing_function`).
    fn function_around(&self, at: Span) -> Option<Node<'t>> {
        let n = self
            .parents
            .root()
            .descendant_for_byte_range(at.start as usize, at.end as usize)?;
        Some(self.enclosing_function(n)).filter(|f| is_function(f.k()))
    }

    /// The names of the parameters of the function `def`, in order; `""` for one that is a
    /// pattern (`{a, b}`, `[x]`) or a rest parameter.
    fn parameter_names(&self, def: Node<'t>) -> Vec<&'t str> {
        self.field(def, "parameters")
            .map(|ps| {
                self.named_children(ps)
                    .into_iter()
                    .filter(|p| p.k() != "comment")
                    .map(|p| {
                        self.parameter_pattern(p)
                            .filter(|x| x.k() == "identifier")
                            .map_or("", |x| self.text(x))
                    })
                    .collect()
            })
            .or_else(|| self.field(def, "parameter").map(|p| vec![self.text(p)]))
            .unwrap_or_default()
    }

    /// What a parameter binds: a name or a pattern, without its type annotation or default
    /// (`query: Q = {}` is `query`).
    fn parameter_pattern(&self, p: Node<'t>) -> Option<Node<'t>> {
        match p.k() {
            "required_parameter" | "optional_parameter" | "assignment_pattern" => {
                self.field(p, "pattern").or_else(|| self.field(p, "left"))
            }
            "comment" => None,
            _ => Some(p),
        }
    }

    /// The parameters a query at `at` may have been given by its function's callers: those of
    /// the function around it, and, while that function is a callback passed to a call (the
    /// wrapper's own `this.getDb(function (err, db) {..})`), of the function around the call too.
    /// Their members bound to locals (`var offset = options.offset || 0`) count as destructured.
    fn wrapper_parameters(&self, at: Span) -> Option<super::Parameters<'t>> {
        let mut f = self.function_around(at)?;
        let mut params = super::Parameters::default();
        for _ in 0..MAX_DEPTH {
            params.names.extend(self.parameter_names(f));
            params.members.extend(self.destructured_skips(f));
            let callback = self.parents.of(f).is_some_and(|p| p.k() == "arguments");
            let outer = self.enclosing_function(f);
            if !callback || !is_function(outer.k()) {
                break;
            }
            f = outer;
        }
        // Locals of the functions bound to a parameter's `skip` or `offset`.
        let names = params.names.clone();
        self.parents.walk(f, |n, kind, enter| {
            if !enter || kind != "variable_declarator" {
                return;
            }
            let (Some(name), Some(value)) = (self.field(n, "name"), self.field(n, "value")) else {
                return;
            };
            if name.k() == "identifier"
                && self
                    .parameter_member(self.unwrap_expr(value), &names)
                    .is_some_and(|m| matches!(m, "skip" | "offset"))
            {
                params.members.push(self.text(name));
            }
        });
        Some(params)
    }

    /// The member of one of `params` that `v` reads, with a default or without (`options.offset`,
    /// `options.offset || 0`, `options.offset ?? 0`, `options.offset ? options.offset : 0`).
    fn parameter_member(&self, v: Node<'t>, params: &[&str]) -> Option<&'t str> {
        let read = match v.k() {
            "binary_expression"
                if self
                    .field(v, "operator")
                    .is_some_and(|o| matches!(self.text(o), "||" | "??")) =>
            {
                self.field(v, "left")?
            }
            "ternary_expression" => {
                let (c, a) = (self.field(v, "condition")?, self.field(v, "consequence")?);
                if self.text(c) != self.text(a) {
                    return None;
                }
                a
            }
            _ => v,
        };
        if read.k() != "member_expression" {
            return None;
        }
        let object = self.field(read, "object")?;
        let property = self.field(read, "property")?;
        let root = self.text(object);
        (object.k() == "identifier" && params.contains(&root) && !super::own_root(root))
            .then(|| self.text(property))
    }

    /// The names that the `skip` and `offset` members of `def`'s object parameters bind (`{ sort,
    /// limit, skip = 0 }`, `from` of `{ skip: from }`): the skip of options its callers fill in.
    fn destructured_skips(&self, def: Node<'t>) -> Vec<&'t str> {
        let Some(ps) = self.field(def, "parameters") else {
            return Vec::new();
        };
        let mut names = Vec::new();
        for p in self.named_children(ps) {
            let pattern = self
                .parameter_pattern(p)
                .filter(|x| x.k() == "object_pattern");
            for m in pattern.map(|o| self.named_children(o)).unwrap_or_default() {
                let key = match m.k() {
                    "pair_pattern" => self.field(m, "key"),
                    "object_assignment_pattern" => self.field(m, "left"),
                    _ => Some(m),
                };
                if !key.is_some_and(|k| matches!(self.text(k), "skip" | "offset")) {
                    continue;
                }
                let name = match m.k() {
                    "shorthand_property_identifier_pattern" => Some(m),
                    "object_assignment_pattern" => self.field(m, "left"),
                    "pair_pattern" => self.field(m, "value").map(|v| {
                        // `{ skip: from = 0 }`
                        match v.k() {
                            "assignment_pattern" => self.field(v, "left").unwrap_or(v),
                            _ => v,
                        }
                    }),
                    _ => None,
                };
                if let Some(n) = name.filter(|n| {
                    matches!(
                        n.k(),
                        "identifier" | "shorthand_property_identifier_pattern"
                    )
                }) {
                    names.push(self.text(n));
                }
            }
        }
        names
    }

    /// The operations that the calls `local` of functions of this file run: an operation of such
    /// a function whose update or documents are a parameter, filled in with what the call writes
    /// out (see `lang::operation_for_call`). The operations from `before` on are this pass's.
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
            let Some(callee) = self.field(call, "function") else {
                continue;
            };
            if !super::runs_operations_of(ops, span(def), span(call)) {
                continue;
            }
            ctx.size_guards = self.size_guards(call);
            let c = super::CallOfFunction {
                def: span(def),
                params: self.parameter_names(def),
                args: self
                    .args(call)
                    .into_iter()
                    .map(|a| Some(self.lower(a, 0)))
                    .collect(),
                call: span(call),
                callee: span(callee),
                ctx,
            };
            super::operations_through_call(ops, &c, &mut added);
        }
        self.ir.operations.extend(added);
    }

    /// A call in a loop of `def`, a function of this file whose operations are one to three reads
    /// outside any loop of its own and whose body is a few statements: a [`HelperRead`], with the
    /// call's context settled as an operation's is (the same arguments on every iteration repeat
    /// one query). Not a runner of the caller's queries (its collection or whole query a parameter).
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
        let callee = self.field(call, "function");
        let bound = callee.and_then(|f| self.bound_callee(f)).is_some();
        let member = (
            "member_expression",
            if bound { "object" } else { "property" },
        );
        // A model's static is named as the call names it (`Page.findPageByPath`), not by the
        // schema it is assigned to.
        let name = match callee {
            Some(f) if name.contains(".statics.") => self.text(f).to_string(),
            _ => name,
        };
        let h = super::helper_read(&self.parents, call, member, name, read, ctx);
        self.ir.helper_reads.push(h);
    }

    /// A call in a loop of a function imported from another module of the repository: an
    /// [`ImportedCall`], its context settled as a [`HelperRead`]'s is.
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
        let member = ("member_expression", "property");
        let c = super::imported_call(&self.parents, self.src, call, member, import, ctx);
        self.ir.imported_calls.push(c);
    }

    /// The function a call in a loop runs when it is imported from another module of the
    /// repository, by name (`getUserById(id)`, `const { getUserById } = require('./user')`) or
    /// as a member of the module (`UserProxy.getUserById(id)`, `Message.getMessageRelations(m)`
    /// of `require('../proxy').Message`).
    fn imported_callee(&self, call: Node<'t>) -> Option<ImportRef> {
        let f = self.field(call, "function")?;
        // The cheap test first: the callee's root is a name bound to an import.
        let mut root = f;
        while root.k() == "member_expression" {
            root = self.field(root, "object")?;
        }
        if root.k() != "identifier" {
            return None;
        }
        let b = self.lookup(self.text(root), root.start_byte() as u32)?;
        let imp = b
            .import
            .as_ref()
            .filter(|i| is_repository_module(&i.module))?;
        match f.k() {
            "identifier" => (imp.export != "*").then(|| imp.clone()),
            _ => match self.classify(f, 0) {
                Thing::Imported(imp, _) => Some(imp),
                _ => None,
            },
        }
    }

    /// The read of the function `def` when it is a look-up (see [`HelperRead`]), with the name
    /// its operations are in: called at `call`, or from another module (no call, see
    /// [`crate::ir::Lookup`]).
    fn look_up_of(&self, def: Node<'t>, call: Option<Span>) -> Option<(String, Span)> {
        let name = match self.field(def, "name") {
            Some(n) => self.text(n).to_string(),
            None => function_name(self, def).0.unwrap_or_default(),
        };
        if name.is_empty() {
            return None;
        }
        let short = match self.field(def, "body") {
            Some(b) if b.k() == "statement_block" => self.named_children_iter(b).nth(6).is_none(),
            Some(_) => true,
            None => false,
        };
        let params = self.parameter_names(def);
        let read = super::helper_lookup(&self.ir.operations, span(def), call, &name, &params)
            .filter(|_| short)?;
        let (ops, defs) = (&self.ir.operations, |c| self.helper_def(c));
        if super::more_than_a_look_up(&self.parents, self.src, def, read, &params, ops, defs) {
            return None;
        }
        Some((name, read))
    }

    /// The context of the call `call` of a look-up, in its loop, settled as an operation's is
    /// (the same arguments on every iteration repeat one query); `None` when the caller keeps
    /// what it gives (`cache[id] ??= await load(id)`).
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
        let callee = self.field(call, "function");
        let bound = callee.and_then(|f| self.bound_callee(f)).is_some();
        let names = match callee.map(|f| f.k()) {
            Some("identifier") => self
                .field(call, "arguments")
                .and_then(|a| self.names_read(a)),
            _ if bound => self
                .field(call, "arguments")
                .and_then(|a| self.names_read(a)),
            _ => super::query_names(
                &self.parents,
                call,
                ("member_expression", "call_expression"),
                |p| self.names_read(p),
            ),
        };
        if self.unchanged_in_loop(call, l, &[l], names, changed_in) {
            let outer = self.varying_outer(call, l, nested, changed_in);
            super::settle_repeated_read(&mut ctx, outer);
        }
        Some(ctx)
    }

    /// The look-ups of the file that other modules may call (see [`crate::ir::Lookup`]): of the
    /// functions in no other function (`outermost`), those at the top of the module, and the
    /// methods of its classes and of the objects it exports, whose operations are one to three
    /// reads that vary with their parameters. A name that two such functions answer to is neither's.
    fn note_lookups(&mut self, outermost: &[Node<'t>]) {
        let reads = super::lookup_reads(&self.ir.operations);
        if reads.is_empty() {
            return;
        }
        let mut lookups: Vec<crate::ir::Lookup> = Vec::new();
        for &def in outermost {
            let within = span(def);
            if !reads.iter().any(|r| within.contains(*r)) {
                continue;
            }
            let Some(name) = self.module_member_name(def) else {
                continue;
            };
            if let Some((_, read)) = self.look_up_of(def, None) {
                lookups.push(crate::ir::Lookup { name, read });
            }
        }
        self.ir.lookups = super::unique_lookups(lookups);
    }

    /// The name by which another module may call the function `def`: a function at the top of
    /// the module (declared, bound to a name, or assigned to a member of `exports` or
    /// `module.exports`; `default` for `module.exports = function ..`), or a method of a class
    /// declared there or of an object it exports (`module.exports = { byId(id) {..} }`,
    /// `export default { .. }`).
    fn module_member_name(&self, def: Node<'t>) -> Option<String> {
        // (The closure leaves its argument as it was given: rustc 1.95 miscompiles a closure that
        // mutates an argument passed by pointer, such as a `Node`, when the caller passes the
        // same variable to another closure next, rust-lang/rust#155241; here `at_top(def)` left
        // `def` the `export_statement` around it for `name(def)`, and no ES-module function was
        // a look-up in release builds.)
        let at_top = |n: Node<'t>| {
            let mut up = self.parents.of(n);
            while let Some(u) = up {
                match u.k() {
                    "program" => return true,
                    "export_statement"
                    | "lexical_declaration"
                    | "variable_declaration"
                    | "expression_statement" => up = self.parents.of(u),
                    _ => return false,
                }
            }
            false
        };
        let exported_object = |object: Node<'t>| {
            let Some(p) = self.parents.of(object) else {
                return false;
            };
            match p.k() {
                "export_statement" => at_top(object),
                "assignment_expression" => {
                    self.field(p, "left")
                        .is_some_and(|l| self.text(l) == "module.exports")
                        && at_top(p)
                }
                _ => false,
            }
        };
        let name = |n: Node<'t>| Some(self.text(self.field(n, "name")?).to_string());
        let up = self.parents.of(def)?;
        match (def.k(), up.k()) {
            ("function_declaration", _) => at_top(def).then(|| name(def))?,
            ("method_definition", "class_body") => {
                let class = self.parents.of(up)?;
                at_top(class).then(|| name(def))?
            }
            ("method_definition", "object") => exported_object(up).then(|| name(def))?,
            (_, "variable_declarator") => {
                let n = self.field(up, "name").filter(|n| n.k() == "identifier")?;
                at_top(up).then(|| self.text(n).to_string())
            }
            (_, "assignment_expression") => {
                let left = self.text(self.field(up, "left")?);
                let member = left
                    .strip_prefix("module.exports.")
                    .or_else(|| left.strip_prefix("exports."));
                let member = match member {
                    Some(m) if is_identifier(m) => m,
                    None if left == "module.exports" => "default",
                    _ => return None,
                };
                at_top(up).then(|| member.to_string())
            }
            (_, "pair") => {
                let object = self.parents.of(up)?;
                let key = self.field(up, "key")?;
                (exported_object(object) && key.k() == "property_identifier")
                    .then(|| self.text(key).to_string())
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
        let loops = nested.get(&key)?;
        super::loop_that_varies(loops, l, span(call), |o| {
            // Through the callbacks of the loops from `o` in.
            let within: Vec<Span> = loops
                .iter()
                .map(|l| l.0)
                .filter(|s| o.contains(*s))
                .collect();
            let pass = |n: Node<'t>| !is_function(n.k()) || self.loop_callback(n, &within);
            super::ancestor_spanning(&self.parents, call, o, pass)?;
            Some(!self.same_each_iteration(call, o, &within, changed_in))
        })
    }

    /// Whether the file's class `class` defines a method `method`.
    fn class_defines(&self, class: &str, method: &str) -> bool {
        self.functions.get(method).is_some_and(|fs| {
            fs.iter().any(|f| {
                f.k() == "method_definition"
                    && self
                        .parents
                        .of(*f)
                        .and_then(|body| self.parents.of(body))
                        .filter(|c| is_class(c.k()))
                        .and_then(|c| self.field(c, "name"))
                        .is_some_and(|n| self.text(n) == class)
            })
        })
    }

    /// `db.collection<Order>('orders')` (TypeScript): the collection the application's documents
    /// of type `Order` are kept in, exported for the linker to name the collection of a
    /// parameter typed `Collection<Order>` in any file (unchained's module functions, handed
    /// `{ Orders }: { Orders: mongodb.Collection<Order> }`), as the Rust frontend's
    /// `note_typed_collection` does.
    fn note_typed_collection(&mut self, call: Node<'t>, r: &CollectionRef) {
        // (One named at run time too, as "": the type then names no one collection.)
        let name = match &r.name {
            CollectionName::Literal { name } => name.as_str(),
            _ => "",
        };
        let Some(ty) = self
            .field(call, "type_arguments")
            .map(|t| self.text(t).trim_start_matches('<').trim_end_matches('>'))
            .and_then(crate::lang::rust::document_type)
        else {
            return;
        };
        self.ir.exports.push(Export {
            name: crate::lang::rust::typed_collection_export(ty),
            target: ExportTarget::Constant {
                value: name.to_string(),
            },
        });
    }

    /// A Mongoose model's registration under a collection of its own, or a look-up by its name
    /// alone (see `FileIr::model_collections`, `FileIr::model_lookups`).
    fn note_model(&mut self, call: Node<'t>, r: &CollectionRef) {
        if r.via != CollectionVia::MongooseModel {
            return;
        }
        let args = self.args(call);
        let Some(model) = args.first().and_then(|a| self.string_value(*a)) else {
            return;
        };
        match (args.len(), &r.name) {
            (1, _) => self.ir.model_lookups.push((r.span, model)),
            (_, CollectionName::Literal { name }) if *name != mongoose_collection_name(&model) => {
                self.ir.model_collections.push((model, name.clone()))
            }
            _ => {}
        }
    }

    /// An application's index helper named for the driver's method, called with the collection
    /// first: Wekan's `ensureIndex(Boards, { boardId: 1 }, { unique: true })`, which looks for
    /// the index and calls `createIndex` when it is missing. Read as that `createIndex` when the
    /// first argument is a collection or model and the second a key pattern written out.
    ///
    /// Any helper named for indexes (`buildDbIndexes`, `ensureIndexes`) may also take a list of
    /// them: unchained's `buildDbIndexes(AssortmentLinks, [{ index: { parentAssortmentId: 1 } },
    /// { index: {..}, options: { unique: true } }])`. Each element, a key pattern or an object
    /// with one under `index`, `key` or `keys` (and its options under `options`), is a
    /// `createIndex` of its own, at the element. The helper's own `createIndex` on the
    /// collection it is handed is not one (see `passes_index_on`).
    fn index_helper_call(&mut self, call: Node<'t>, f: Node<'t>, ctx: OpContext) {
        let name = self.text(f);
        let exact = matches!(name, "ensureIndex" | "createIndex");
        if !exact && !names_index_helper(super::naming::last_part(name, b'.')) {
            return;
        }
        let args = self.args(call);
        let [coll, keys, ..] = args.as_slice() else {
            return;
        };
        let short = super::naming::last_part(name, b'.');
        // A helper handing its own parameters on to another (`buildIndexes(collection,
        // indexes)` inside `buildDbIndexes(collection, indexes)`).
        if !exact && self.is_parameter(self.unwrap_expr(*keys)) {
            if let Some(outer) = self.passes_index_on(call, *coll) {
                self.ir
                    .index_helper_calls
                    .push((short.to_string(), HelperIndexes::Forwarded(outer)));
                return;
            }
        }
        if !self.classify(*coll, 0).names_collection() {
            // (Indexes on a collection it cannot name: as good as unread.)
            if !exact {
                self.ir
                    .index_helper_calls
                    .push((short.to_string(), HelperIndexes::Unread));
            }
            return;
        }
        let Some(m) = js_operation("createIndex") else {
            return;
        };
        let mut list = self.unwrap_expr(*keys);
        // (A list bound to a name first: `const indexes = [{ key: {..}, name }]`.)
        if list.k() == "identifier" {
            if let Some(v) = self
                .lookup(self.text(list), list.start_byte() as u32)
                .and_then(|b| (b.kind == DeclKind::Const).then_some(b.value).flatten())
            {
                list = self.unwrap_expr(v);
            }
        }
        if !exact && list.k() == "array" {
            let mut read = true;
            for element in self.named_children(list) {
                let element = self.unwrap_expr(element);
                if element.k() != "object" {
                    read = false;
                    continue;
                }
                let (mut index, mut options) = (None, None);
                for p in self.named_children(element) {
                    if p.k() != "pair" {
                        continue;
                    }
                    let (Some(k), Some(v)) = (self.field(p, "key"), self.field(p, "value")) else {
                        continue;
                    };
                    match self.key_text(k).as_str() {
                        "index" | "keys" => index = Some(v),
                        // The driver's own form, `{ key: {..}, name, unique }`: the element is
                        // its options.
                        "key" => (index, options) = (Some(v), Some(element)),
                        "options" => options = Some(v),
                        _ => {}
                    }
                }
                let rest: Vec<Node<'t>> = match index {
                    Some(index) => [Some(index), options].into_iter().flatten().collect(),
                    None => vec![element],
                };
                if rest
                    .first()
                    .is_some_and(|i| is_key_pattern(&self.lower(*i, 0)))
                {
                    self.operation_with(element, *coll, f, m, ctx.clone(), rest);
                } else {
                    read = false;
                }
            }
            let read = if read {
                HelperIndexes::Read
            } else {
                HelperIndexes::Unread
            };
            self.ir.index_helper_calls.push((short.to_string(), read));
            return;
        }
        if !exact {
            self.ir
                .index_helper_calls
                .push((short.to_string(), HelperIndexes::Unread));
        }
        if !is_key_pattern(&self.lower(*keys, 0)) {
            return;
        }
        let rest = args[1..].to_vec();
        self.operation_with(call, *coll, f, m, ctx, rest);
    }

    /// A name bound as a function's parameter where it is used.
    fn is_parameter(&self, n: Node<'t>) -> bool {
        n.k() == "identifier"
            && self
                .lookup(self.text(n), n.start_byte() as u32)
                .is_some_and(|b| b.kind == DeclKind::Param)
    }

    /// An index helper's own `createIndex`: on a parameter of the function, with keys it does not
    /// write out, in a function named for indexes (`const buildIndexes = async (collection,
    /// indexes) => indexes.map(({ index, options }) => collection.createIndex(index, options))`).
    /// The indexes are its callers' (see `index_helper_call`): the linker drops it where they
    /// were all read (see `FileIr::index_pass_ons`). Its name, if it is one.
    fn passes_index_on(&self, call: Node<'t>, obj: Node<'t>) -> Option<String> {
        if !self.is_parameter(obj) {
            return None;
        }
        let keys = self.args(call).first().map(|k| self.unwrap_expr(*k));
        if !keys.is_some_and(|k| matches!(k.k(), "identifier" | "member_expression")) {
            return None;
        }
        let mut n = call;
        for _ in 0..MAX_DEPTH {
            n = self.parents.of(n)?;
            if is_function(n.k()) {
                if let (Some(name), _) = function_name(self, n) {
                    let name = super::naming::last_part(&name, b'.');
                    return names_index_helper(name).then(|| name.to_string());
                }
            }
        }
        None
    }

    /// `cursor.skip(n)` on a variable that no operation call of this file is bound to: a
    /// parameter (`function paginate(cursor, offset)`), or the result of a call that is not a
    /// read (`const next = cursor.clone()`). It is offset paging when the same chain, or another
    /// statement of the enclosing function, also applies `.limit(..)` to it (driver cursors,
    /// Mongoose queries: `cursor.limit(n); cursor.skip(offset);`), which RxJS's and
    /// Immutable's `skip`, with their `take`, do not. Kept for [`Self::finish`], which drops it
    /// when the variable turns out bound to an operation after all.
    fn note_loose_skip(
        &mut self,
        root: Node<'t>,
        call: Node<'t>,
        bound: Option<usize>,
        ctx: OpContext,
        mods: Vec<Modifier>,
    ) {
        let Some(skip) = mods.iter().find(|m| m.name == "skip") else {
            return;
        };
        let name = self.text(root);
        if !mods.iter().any(|m| m.name == "limit") && !self.limited_in_function(root, name) {
            return;
        }
        let method_span = Span::new(skip.span.start as usize, skip.span.start as usize + 4);
        let end = mods.last().map_or(call.end_byte(), |m| m.span.end as usize);
        let mut op = Operation::new(
            OpKind::Find,
            "skip",
            Span::new(root.start_byte(), end),
            method_span,
        );
        op.modifiers = mods;
        op.evidence = Evidence::Shaped;
        op.context = ctx;
        op.receiver = name.to_string();
        let copied = self.cloned_from(root);
        self.loose_skips.push((bound, op, copied));
    }

    /// The cursor that the variable `n` holds a copy of: `cursor` for `next` in `const next =
    /// cursor.clone()` (through copies of copies); None when `n` holds no such copy.
    fn cloned_from(&self, n: Node<'t>) -> Option<String> {
        let mut name = None;
        let mut n = n;
        for _ in 0..MAX_DEPTH {
            let value = self
                .lookup(self.text(n), n.start_byte() as u32)
                .and_then(|b| b.value)
                .map(|v| self.unwrap_expr(v))
                .filter(|v| v.k() == "call_expression")
                .and_then(|v| self.field(v, "function"))
                .filter(|f| f.k() == "member_expression")
                .filter(|f| {
                    self.field(*f, "property")
                        .is_some_and(|p| self.text(p) == "clone")
                })
                .and_then(|f| self.field(f, "object"))
                .map(|o| self.unwrap_expr(o))
                .filter(|o| o.k() == "identifier" && self.text(*o) != self.text(n));
            match value {
                Some(original) => {
                    name = Some(self.text(original).to_string());
                    n = original;
                }
                None => break,
            }
        }
        name
    }

    /// The function around `n`, or the program.
    fn enclosing_function(&self, n: Node<'t>) -> Node<'t> {
        let mut scope = n;
        while let Some(p) = self.parents.of(scope) {
            scope = p;
            if is_function(p.k()) {
                break;
            }
        }
        scope
    }

    /// Whether the function around `at` (or the module) calls `name.limit(..)`.
    fn limited_in_function(&self, at: Node<'t>, name: &str) -> bool {
        let mut found = false;
        self.parents
            .walk(self.enclosing_function(at), |n, kind, enter| {
                if !enter || found || kind != "call_expression" {
                    return;
                }
                let Some(f) = self
                    .field(n, "function")
                    .filter(|f| f.k() == "member_expression")
                else {
                    return;
                };
                found = self
                    .field(f, "property")
                    .is_some_and(|p| self.text(p) == "limit")
                    && self
                        .field(f, "object")
                        .map(|o| self.unwrap_expr(o))
                        .is_some_and(|o| o.k() == "identifier" && self.text(o) == name);
            });
        found
    }

    /// The object and the method's name of a method call (`obj.method(..)`, awaited or in
    /// parentheses).
    fn method_call(&self, n: Node<'t>) -> Option<(Node<'t>, Node<'t>)> {
        let n = self.unwrap_expr(n);
        if n.k() != "call_expression" {
            return None;
        }
        let f = self.field(n, "function")?;
        if f.k() != "member_expression" {
            return None;
        }
        Some((self.field(f, "object")?, self.field(f, "property")?))
    }

    /// What a bulk builder at the start of the receiver chain `n` was made from: `coll` of `const
    /// bulk = coll.initializeUnorderedBulkOp()`, for `bulk.find(q).upsert().updateOne(u)` (NodeBB's
    /// key-value store).
    fn bulk_builder_of(&self, mut n: Node<'t>) -> Option<Node<'t>> {
        for _ in 0..MAX_DEPTH {
            n = self.unwrap_expr(n);
            match n.k() {
                "call_expression" => n = self.field(n, "function")?,
                "member_expression" => n = self.field(n, "object")?,
                "identifier" => {
                    let v = self.lookup(self.text(n), n.start_byte() as u32)?.value?;
                    let (object, method) = self.method_call(v)?;
                    return matches!(
                        self.text(method),
                        "initializeUnorderedBulkOp" | "initializeOrderedBulkOp"
                    )
                    .then_some(object);
                }
                _ => return None,
            }
        }
        None
    }

    /// Descends a chain of modifier calls to what they are called on:
    /// `q.sort(..).skip(..)` → `q`; `await Model.find(q).lean()` → the `find` call.
    fn chain_root(&self, n: Node<'t>) -> Node<'t> {
        let mut n = self.unwrap_expr(n);
        for _ in 0..MAX_DEPTH {
            if n.k() != "call_expression" {
                return n;
            }
            let Some(f) = self
                .field(n, "function")
                .filter(|f| f.k() == "member_expression")
            else {
                return n;
            };
            let method = self
                .field(f, "property")
                .map(|p| self.text(p))
                .unwrap_or("");
            let modifier =
                MODIFIERS.contains(&method) || AGGREGATE_BUILDER_STAGES.contains(&method);
            if js_operation(method).is_some() || !modifier {
                return n;
            }
            match self.field(f, "object") {
                // Mongoose's `Event.where("room", id)` starts a query: it is the chain's root.
                Some(o) if method == "where" && self.unwrap_expr(o).k() != "call_expression" => {
                    return n;
                }
                Some(o) => n = self.unwrap_expr(o),
                None => return n,
            }
        }
        n
    }

    /// The modifiers chained on `root` at `call`, a name bound to the query `query`. Conditions
    /// added under an `if` with no `else` (`if (options.from) find.where("posted").gt(from)`,
    /// lets-chat's messages) are not on the path that skips it, whose query is judged, as a member
    /// set there is left out of a filter; added under another condition (each branch of an `if`,
    /// a `switch` case, a loop), they leave the filter unread.
    fn bound_modifiers(&self, root: Node<'t>, call: Node<'t>, query: Node<'t>) -> Vec<Modifier> {
        let mut mods = self.collect_chain(root, false);
        match self.assigned_under(call, query.start_byte() as u32) {
            None => {}
            Some(true) => mods.retain(|m| !is_condition(m)),
            Some(false) => {
                for m in mods.iter_mut().filter(|m| is_condition(m)) {
                    m.name = "and".to_string();
                    m.args.clear();
                }
            }
        }
        mods
    }

    /// The query `name` held before `query`, when `query` refines it under an `if` with no
    /// `else` that the modifier call `call` is not under (`var find = Message.find(q); if (t)
    /// find = find.find({ $text: .. }); find.sort(s)`).
    fn refined_query_before(
        &self,
        name: Node<'t>,
        call: Node<'t>,
        query: Node<'t>,
    ) -> Option<Node<'t>> {
        let f = self
            .field(query, "function")
            .filter(|f| f.k() == "member_expression")?;
        let object = self.field(f, "object")?;
        if object.k() != "identifier"
            || self.text(object) != self.text(name)
            || !matches!(self.text(self.field(f, "property")?), "find" | "findOne")
            || self.assigned_under(query, call.start_byte() as u32) != Some(true)
        {
            return None;
        }
        let before = self.chain_root(
            self.lookup(self.text(object), object.start_byte() as u32)?
                .value?,
        );
        (before.k() == "call_expression").then_some(before)
    }

    /// The model of a Mongoose query held in a name (`var find = Message.find(q)`): a `find(..)`
    /// of that query adds conditions to it (lets-chat's `find = find.find({ $text: .. })`), a
    /// read of the same model.
    fn model_query(&self, obj: Node<'t>) -> Option<CollectionRef> {
        if obj.k() != "identifier" {
            return None;
        }
        let value = self
            .lookup(self.text(obj), obj.start_byte() as u32)?
            .value?;
        let root = self.chain_root(value);
        let f = self
            .field(root, "function")
            .filter(|f| root.k() == "call_expression" && f.k() == "member_expression")?;
        if !matches!(self.text(self.field(f, "property")?), "find" | "findOne") {
            return None;
        }
        match self.classify(self.field(f, "object")?, 1) {
            Thing::Collection(r) if r.via == CollectionVia::MongooseModel => Some(r),
            _ => None,
        }
    }

    /// Whether `call` calls a function of a module of the repository: imported by a relative
    /// path, called by its name or as a member of the module (`document.getMulti(..)` after
    /// `import * as document from './document'`).
    fn calls_repository_module(&self, call: Node<'t>) -> bool {
        let Some(mut f) = self.field(call, "function") else {
            return false;
        };
        if f.k() == "member_expression" {
            // `AddressTx.find(q)` of an imported model is an operation of its own, which the
            // chain's modifiers are read with.
            if self
                .field(f, "property")
                .is_some_and(|p| js_operation(self.text(p)).is_some())
            {
                return false;
            }
            match self.field(f, "object") {
                Some(o) => f = o,
                None => return false,
            }
        }
        f.k() == "identifier"
            && self
                .lookup(self.text(f), f.start_byte() as u32)
                .and_then(|b| b.import.as_ref())
                .is_some_and(|i| i.module.starts_with('.'))
    }

    /// Only the innermost modifier call of a chain on a variable records the chain (once).
    fn is_chain_start(&self, root: Node<'t>, call: Node<'t>) -> bool {
        let f = self.field(call, "function");
        f.and_then(|f| self.field(f, "object"))
            .map(|o| self.unwrap_expr(o).id())
            == Some(root.id())
    }

    /// Modifier calls chained upward from `start`: `start.sort(..).skip(..)`.
    fn collect_chain(&self, start: Node<'t>, aggregate: bool) -> Vec<Modifier> {
        let mut mods = Vec::new();
        let mut cur = start;
        for _ in 0..64 {
            let Some(member) = self.parents.of(cur) else {
                break;
            };
            if member.k() != "member_expression"
                || self.field(member, "object").map(|o| o.id()) != Some(cur.id())
            {
                // Allow `(await q).skip(..)` style wrappers.
                if matches!(
                    member.k(),
                    "parenthesized_expression" | "non_null_expression"
                ) {
                    cur = member;
                    continue;
                }
                // A function of the file that returns the query it is given, with more of the
                // chain (`this.populateFeed(Model.find(q), env).skip(skip)`, with
                // `populateFeed(query, env) { return query.populate('subscriber') }`: novu's
                // activity feed): its chain, then the caller's.
                if member.k() == "arguments" {
                    if let Some((call, more)) = self.query_helper_chain(member, cur, aggregate) {
                        mods.extend(more);
                        cur = call;
                        continue;
                    }
                }
                break;
            }
            // (`await Alert.find(q).populate<T>(paths)`: the grammar reads a call of `await
            // Alert.find(q).populate`, see `field`.)
            let mut up = self.parents.of(member);
            while let Some(u) = up.filter(|u| u.k() == "await_expression") {
                up = self.parents.of(u);
            }
            let Some(call) = up.filter(|c| c.k() == "call_expression") else {
                break;
            };
            let Some(prop) = self.field(member, "property") else {
                break;
            };
            let name = self.text(prop);
            let known = MODIFIERS.contains(&name)
                || (aggregate && (AGGREGATE_BUILDER_STAGES.contains(&name) || name == "append"));
            if !known {
                break;
            }
            let args = self.args(call);
            mods.push(Modifier {
                name: name.to_string(),
                args: args.iter().map(|a| self.lower(*a, 0)).collect(),
                span: Span::new(prop.start_byte(), call.end_byte()),
            });
            cur = call;
        }
        mods
    }

    /// `arg` handed, as the argument list `args`, to a function of the file whose one statement
    /// returns that parameter with modifiers chained on it (`populateFeed(query, env) { return
    /// query.populate('subscriber').populate('template') }`): the call, and those modifiers.
    fn query_helper_chain(
        &self,
        args: Node<'t>,
        arg: Node<'t>,
        aggregate: bool,
    ) -> Option<(Node<'t>, Vec<Modifier>)> {
        let call = self
            .parents
            .of(args)
            .filter(|c| c.k() == "call_expression")?;
        let position = self
            .named_children(args)
            .iter()
            .position(|a| a.id() == arg.id())?;
        let func = self.called_function(call)?;
        let param = *self.parameter_names(func).get(position)?;
        if param.is_empty() {
            return None;
        }
        let [returned] = self.returned_values(func)[..] else {
            return None;
        };
        let returned = self.unwrap_expr(returned);
        // The parameter at the root of the returned chain, and nothing else on the way.
        let root = self.chain_root(returned);
        if root.k() != "identifier" || self.text(root) != param || root == returned {
            return None;
        }
        let more = self.collect_chain(root, aggregate);
        (!more.is_empty()).then_some((call, more))
    }

    fn operation(
        &mut self,
        call: Node<'t>,
        obj: Node<'t>,
        prop: Node<'t>,
        m: &OpMethod,
        ctx: OpContext,
    ) {
        let args = self.args(call);
        self.operation_with(call, obj, prop, m, ctx, args)
    }

    /// An operation on `obj` with the arguments `args` (the call's own, or what follows the
    /// collection in a helper's call: `ensureIndex(Boards, keys, options)`).
    fn operation_with(
        &mut self,
        call: Node<'t>,
        obj: Node<'t>,
        prop: Node<'t>,
        m: &OpMethod,
        ctx: OpContext,
        args: Vec<Node<'t>>,
    ) {
        // A receiver the parser could not read whole: error recovery joins what follows a
        // construct the grammar lacks (TypeScript's `import('mongoose').FlattenMaps<{ .. }>` in a
        // return type) into nodes the code never wrote, `(newTag = await X.findOneAndUpdate(..)
        // ..).findOneAndUpdate(..)`.
        if obj.has_error() {
            return;
        }
        let thing = match self.classify(obj, 0) {
            Thing::Unknown if matches!(m.name, "find" | "findOne") => self
                .model_query(obj)
                .map_or(Thing::Unknown, Thing::Collection),
            thing => thing,
        };
        // The bulk builder the receiver chain starts at (`bulk.find(q).upsert().updateOne(u)`),
        // looked for only in a file that made one.
        let bulk = if self.bulk_builders {
            self.bulk_builder_of(obj)
        } else {
            None
        };
        let (collection, mut evidence) = match thing {
            // A base class's collection named by its subclass, which the linker decides (see
            // `named_base_collection`): no evidence until then.
            Thing::Collection(r)
                if r.import.as_ref().is_some_and(ImportRef::names_factory_call) =>
            {
                (Some(r), Evidence::None)
            }
            Thing::Collection(r) => (Some(r), Evidence::Resolved),
            Thing::Imported(imp, local) => {
                (Some(imported_collection(imp, local, obj)), Evidence::None)
            }
            // What an imported function returns (`const Orders = await OrdersCollection(db)`):
            // the linker's to name, if the module exports its result as a collection (see
            // `export_returned`).
            Thing::Typed(imp, local) if imp.export.ends_with("()") => (
                Some(CollectionRef {
                    via: CollectionVia::Driver,
                    name: CollectionName::Unknown { text: local },
                    span: span(obj),
                    import: Some(ImportRef {
                        export: format!("{}.return", imp.export),
                        module: imp.module,
                    }),
                }),
                Evidence::None,
            ),
            // A bulk builder's queued writes are its collection's; its `find(q)` and `upsert()`
            // only choose what the write that follows changes.
            Thing::Unknown | Thing::Typed(..) => match bulk {
                Some(_) if matches!(m.name, "find" | "upsert") => return,
                Some(b) => match self.classify(b, 0) {
                    Thing::Collection(r) => (Some(r), Evidence::Resolved),
                    _ => (None, Evidence::None),
                },
                None => (None, Evidence::None),
            },
            _ => return,
        };
        if evidence == Evidence::None {
            // An unknown receiver: `items.find(x => ..)` is an array, not a collection.
            if args.first().is_some_and(|a| {
                matches!(
                    self.unwrap_expr(*a).k(),
                    "arrow_function" | "function_expression" | "function"
                )
            }) {
                return;
            }
            if self.uses_firestore && !self.uses_mongo {
                return;
            }
            // (An imported model is the linker's to name: it may be a Mongoose model.)
            if self.uses_other_database && !self.uses_mongo && collection.is_none() {
                return;
            }
        }
        let is_mongoose = collection
            .as_ref()
            .is_some_and(|c| c.via == CollectionVia::MongooseModel);
        let mut op = Operation::new(m.kind, m.name, span(call), span(prop));
        op.context = ctx;
        if m.kind.is_update() {
            op.context.size_guards = self.size_guards(call);
        }
        // `bulk.find(q).upsert().updateOne(u)` queues into a bulk builder: one round trip at `execute()`.
        op.in_bulk = bulk.is_some();
        op.receiver = crate::lang::receiver_text(self.text(obj));
        if collection.as_ref().is_none_or(|c| c.import.is_some()) {
            op.context.receiver_per_item = self.bound_per_item(obj, op.context.enclosing_loop);
        }
        // Each argument lowered once, and moved (not copied) into the operation.
        let mut lowered: Vec<Option<Value>> =
            args.iter().map(|a| Some(self.lower(*a, 0))).collect();
        macro_rules! arg {
            ($i:expr) => {
                lowered.get_mut($i).and_then(Option::take)
            };
        }
        // Another store's index, on a receiver not known to be a collection: MeiliSearch's
        // `client.createIndex(indexName, { primaryKey })` takes no option MongoDB knows.
        if m.kind == OpKind::CreateIndex
            && evidence == Evidence::None
            && lowered.get(1).and_then(Option::as_ref).is_some_and(|o| {
                let fields = o.fields();
                !fields.is_empty()
                    && fields
                        .iter()
                        .all(|f| !crate::lang::vocabulary::INDEX_OPTIONS.contains(&f.key.as_str()))
            })
        {
            return;
        }
        match m.args {
            Args::FilterOptions => {
                op.filter = arg!(0);
                // Mongoose reads take (filter, projection, options); the driver (filter, options).
                // A model imported from another module is taken for Mongoose's by its capital;
                // a second argument of options says it is a driver's (Meteor's) collection.
                let imported = collection.as_ref().is_some_and(|c| c.import.is_some());
                let opts = if m.name == "paginate" {
                    // mongoose-paginate: `Model.paginate(filter, options)`.
                    arg!(1)
                } else if is_mongoose {
                    match arg!(1) {
                        Some(v) if imported && has_option_keys(&v) => Some(v),
                        _ => arg!(2),
                    }
                } else {
                    match arg!(1) {
                        Some(v) if has_option_keys(&v) => Some(v),
                        _ if collection.is_none() => arg!(2),
                        other => other,
                    }
                };
                op.options = opts;
            }
            // Mongoose `doc.updateOne({$push: {..}})`: a loaded document updates itself, so the
            // only argument is the update (a filter never leads with an update operator).
            Args::FilterUpdate
                if lowered.len() == 1 && lowered[0].as_ref().is_some_and(is_update_document) =>
            {
                op.update = arg!(0);
            }
            Args::FilterUpdate => {
                op.filter = arg!(0);
                op.update = match (arg!(1), args.get(1)) {
                    (Some(v), Some(&node)) if v.is_unknown() => Some(self.lower_update(node, v)),
                    (v, _) => v,
                };
                op.options = arg!(2);
                // (Meteor's `updateAsync` takes the same `{multi: true}`.)
                if matches!(m.name, "update" | "updateAsync")
                    && op.options.as_ref().is_some_and(|o| {
                        matches!(
                            o.get("multi").map(|f| &f.value.kind),
                            Some(ValueKind::Bool(true))
                        )
                    })
                {
                    op.kind = OpKind::UpdateMany;
                }
            }
            Args::IdUpdate | Args::Id => {
                if let Some(id) = arg!(0) {
                    op.filter = Some(Value {
                        span: id.span,
                        kind: ValueKind::Document(vec![Field {
                            key: "_id".into(),
                            key_span: id.span,
                            value: id,
                        }]),
                    });
                }
                if m.args == Args::IdUpdate {
                    op.update = arg!(1);
                    op.options = arg!(2);
                } else {
                    op.options = arg!(2);
                }
            }
            Args::Documents => {
                if let Some(v) = arg!(0) {
                    match v.kind {
                        ValueKind::Array(items) => op.documents = items,
                        _ => op.documents = vec![v],
                    }
                }
            }
            Args::Pipeline => {
                if let Some(v) = arg!(0) {
                    if let ValueKind::Array(stages) = v.kind {
                        op.pipeline = Some(stages);
                    } else if m.kind == OpKind::Aggregate && !v.is_unknown() {
                        // Mongoose also accepts stages as separate arguments.
                        let rest = lowered.iter().skip(1).flatten().cloned();
                        op.pipeline = Some(std::iter::once(v).chain(rest).collect());
                    }
                } else if m.kind == OpKind::Aggregate {
                    op.pipeline = Some(Vec::new());
                }
                op.options = arg!(1).filter(|o| !matches!(o.kind, ValueKind::Array(_)));
            }
            Args::Distinct => {
                op.filter = arg!(1);
                op.options = arg!(2);
            }
            // The Node driver's old positional form, `findAndModify(query, sort, update,
            // options, cb)` (Countly's sequence counters): an update document third.
            Args::FindAndModify
                if lowered
                    .get(2)
                    .and_then(Option::as_ref)
                    .is_some_and(is_update_document)
                    && lowered
                        .first()
                        .and_then(Option::as_ref)
                        .is_some_and(|q| q.get("query").is_none() && q.get("update").is_none()) =>
            {
                op.filter = arg!(0);
                op.update = arg!(2);
                op.options = arg!(3).filter(|o| o.is_document());
                if let Some(sort) =
                    arg!(1).filter(|s| !s.fields().is_empty() || !s.items().is_empty())
                {
                    op.modifiers.push(Modifier {
                        name: "sort".into(),
                        span: sort.span,
                        args: vec![sort],
                    });
                }
            }
            Args::FindAndModify => {
                if let Some(spec) = arg!(0) {
                    op.filter = spec.get("query").map(|f| f.value.clone());
                    op.update = spec.get("update").map(|f| f.value.clone());
                    if let Some(s) = spec.get("sort") {
                        op.modifiers.push(Modifier {
                            name: "sort".into(),
                            args: vec![s.value.clone()],
                            span: s.key_span,
                        });
                    }
                }
            }
            Args::Index => {
                op.filter = arg!(0);
                op.options = arg!(1);
            }
            Args::Bulk | Args::Opaque => {}
        }
        // Options spelled as keys become modifiers: `find(q, {skip: n, limit: 10})`. A second
        // argument with `skip` is driver-shaped: TypeORM and Prisma take one `{where, skip}` object.
        if let Some(opts) = &op.options {
            // mongoose-paginate skips `(page - 1) * limit` documents for a `page`, and `offset`
            // ones for an `offset`, unless told `pagination: false` (and not turned on after:
            // `queryOpts.pagination = true` when a limit is given, growi's page history).
            let paginated = m.name == "paginate"
                && !self.is_application_service(obj)
                && !opts
                    .fields()
                    .iter()
                    .rev()
                    .find(|f| f.key == "pagination")
                    .is_some_and(|f| matches!(f.value.kind, ValueKind::Bool(false)));
            for f in opts.fields() {
                let name = match f.key.as_str() {
                    "page" if paginated => "page",
                    "offset" if paginated => "skip",
                    k @ ("skip" | "limit" | "sort" | "projection" | "populate" | "hint") => k,
                    _ => continue,
                };
                op.modifiers.push(Modifier {
                    name: name.to_string(),
                    args: vec![f.value.clone()],
                    span: f.key_span,
                });
            }
        }
        // A query handed to a constructor (growi's `new PageQueryBuilder(Page.find({ isEmpty:
        // true }))`, whose methods add `this.query.and({ path: { $in: paths } })`): the object
        // may give it more conditions, as Mongoose's `.and(..)` does.
        if self.handed_to_constructor(call) {
            op.modifiers.push(Modifier {
                name: "and".to_string(),
                args: Vec::new(),
                span: span(call),
            });
        }
        let is_agg = m.kind == OpKind::Aggregate;
        let chain = self.collect_chain(call, is_agg);
        // `Model.find(q).skip(n).limit(m).countDocuments()`: Mongoose's query becomes a count,
        // which reads no page (as `cursor.count()` and Meteor's `countAsync()`).
        if matches!(op.kind, OpKind::Find | OpKind::FindOne)
            && chain
                .iter()
                .any(|md| matches!(md.name.as_str(), "countDocuments" | "count" | "countAsync"))
        {
            op.kind = OpKind::Count;
        }
        for md in chain {
            if let Some(md) = builder_stage(&mut op, md) {
                op.modifiers.push(md);
            }
        }
        // A skip the code caps before the call (`if (skip >= MAX_PM_COUNT) return [];`,
        // Habitica's inbox): the names a guard bounds from above there.
        if op.modifiers.iter().any(skips_by_a_name) {
            let capped = self.capped_names(call);
            op.context.size_guards.extend(capped);
        }
        if m.args == Args::Bulk {
            let entries = args.first().map(|a| self.bulk_list(*a)).unwrap_or_default();
            let before = self.ir.operations.len();
            self.bulk_entries(&op, collection.clone(), evidence, &entries);
            if self.ir.operations.len() > before {
                return;
            }
            // Entries built where they cannot be read: the bulk call is still an access to its
            // collection (kind `other`, which no rule judges by its filter).
        }
        if evidence == Evidence::None {
            let shaped = m.driver_only
                || op.uses_mongo_operators()
                || op.modifiers.iter().any(|md| {
                    JS_SHAPING_MODIFIERS.contains(&md.name.as_str())
                        // (mongoose-paginate's `page` is another library's too: Octokit's.)
                        || (md.name == "skip"
                            && matches!(m.kind, OpKind::Find | OpKind::Aggregate)
                            && m.name != "paginate")
                        // `Model.find(q).exec()`: a Mongoose query run (an array's `find` gives
                        // an item, which has no `exec`).
                        || (md.name == "exec"
                            && matches!(m.kind, OpKind::Find | OpKind::FindOne | OpKind::Count))
                });
            // A collection of a registry by name (`context.collections.Products`, or a name
            // destructured from one) is one of the application's.
            if shaped || self.in_collection_registry(obj) {
                evidence = Evidence::Shaped;
            } else if !crate::lang::imported(&collection) && !self.member_of_named_object(obj) {
                return;
            }
        }
        op.collection = collection;
        op.evidence = evidence;
        op.context.absent_checks = self.pushed_absent(call, op.update.as_ref());
        self.op_by_call.insert(call.id(), self.ir.operations.len());
        self.ir.operations.push(op);
    }

    /// The arrays of an update's `$push` / `$addToSet` whose pushed value the code checks is not
    /// in them before the call (`if (!doc.tags.includes(t)) await posts.updateOne(.., {$push:
    /// {tags: t}})`): the array's last segment, matched against the checked array's, and the
    /// pushed value against what the check says the array does not hold.
    fn pushed_absent(&self, call: Node<'t>, update: Option<&Value>) -> Vec<String> {
        let pushes = super::pushed_fields(update);
        if pushes.is_empty() {
            return Vec::new();
        }
        let checks = self.absent_checks(call);
        if checks.is_empty() {
            return Vec::new();
        }
        let last = |path: &str| {
            path.rsplit(['.', '['])
                .next()
                .unwrap_or(path)
                .trim_matches(|c| matches!(c, ']' | '"' | '\'' | '`'))
                .to_string()
        };
        let root = self.parents.root();
        pushes
            .into_iter()
            .filter(|f| {
                let (start, end) = (f.value.span.start as usize, f.value.span.end as usize);
                let Some(pushed) = root.named_descendant_for_byte_range(start, end) else {
                    return false;
                };
                checks.iter().any(|(a, held)| {
                    last(a) == last(&f.key)
                        && pushed.byte_range() == (start..end)
                        && self.pushes_held(pushed, held)
                })
            })
            .map(|f| last(&f.key))
            .collect()
    }

    fn bulk_list(&self, arg: Node<'t>) -> Vec<Value> {
        self.bulk_list_at(arg, 0)
    }

    /// [`Extractor::bulk_list`], `depth` lists of spreads down: a list that spreads others
    /// (`const bulkOps = [...upsertOps, ...insertOps]`, growi's vector-store relations) holds
    /// their entries.
    fn bulk_list_at(&self, arg: Node<'t>, depth: usize) -> Vec<Value> {
        let spreads = self
            .through_binding(arg)
            .filter(|n| n.k() == "array" && depth < 4)
            .filter(|n| {
                self.named_children(*n)
                    .iter()
                    .any(|c| c.k() == "spread_element")
            });
        if let Some(list) = spreads {
            let mut out = Vec::new();
            for c in self.named_children(list) {
                if c.k() == "spread_element" {
                    if let Some(inner) = self.named_children(c).into_iter().next() {
                        out.extend(self.bulk_list_at(inner, depth + 1));
                    }
                } else {
                    let v = self.lower(c, 0);
                    if v.is_document() {
                        out.push(v);
                    }
                }
            }
            return out;
        }
        let v = self.lower(arg, 0);
        if let ValueKind::Array(items) = v.kind {
            return items;
        }
        let Some(n) = self.through_binding(arg) else {
            return Vec::new();
        };
        if n.k() != "call_expression" {
            return Vec::new();
        }
        let is_map = self
            .field(n, "function")
            .and_then(|f| self.field(f, "property"))
            .is_some_and(|p| matches!(self.text(p), "map" | "flatMap"));
        let Some(callback) = self.args(n).first().copied().filter(|_| is_map) else {
            return Vec::new();
        };
        let Some(body) = self.field(callback, "body") else {
            return Vec::new();
        };
        let returned = if body.k() == "statement_block" {
            let mut found = None;
            self.parents.walk(body, |c, k, enter| {
                if enter && found.is_none() && k == "return_statement" {
                    found = self.named_children(c).into_iter().next();
                }
            });
            found
        } else {
            Some(body)
        };
        match returned.map(|r| self.lower(r, 0)) {
            Some(v) if v.is_document() => vec![v],
            Some(Value {
                kind: ValueKind::Array(items),
                ..
            }) => items,
            _ => Vec::new(),
        }
    }

    /// Each `bulkWrite` entry becomes an operation of its own.
    fn bulk_entries(
        &mut self,
        bulk: &Operation,
        collection: Option<CollectionRef>,
        evidence: Evidence,
        ops: &[Value],
    ) {
        for entry in ops {
            let Some(f) = entry.fields().first() else {
                continue;
            };
            let kind = match f.key.as_str() {
                "updateOne" => OpKind::UpdateOne,
                "updateMany" => OpKind::UpdateMany,
                "replaceOne" => OpKind::Replace,
                "insertOne" => OpKind::Insert,
                "deleteOne" | "deleteMany" => OpKind::Delete,
                _ => continue,
            };
            let mut op = Operation::new(kind, &f.key, entry.span, f.key_span);
            op.filter = f.value.get("filter").map(|x| x.value.clone());
            op.update = f
                .value
                .get("update")
                .or_else(|| f.value.get("replacement"))
                .map(|x| x.value.clone());
            if let Some(d) = f.value.get("document") {
                op.documents = vec![d.value.clone()];
            }
            op.in_bulk = true;
            op.receiver = bulk.receiver.clone();
            op.context = bulk.context.clone();
            op.collection = collection.clone();
            op.evidence = if evidence == Evidence::None {
                Evidence::Shaped
            } else {
                evidence
            };
            self.ir.operations.push(op);
        }
    }

    /// What a loop over `r` iterates (its item named `item`, if any): whether a fixed list, the
    /// results of a query bound in the function or handed to a callback, batches. Serves
    /// for-of loops, counting loops and iteration callbacks (`xs.forEach(x => ..)`) alike.
    fn loop_over(&self, r: Node<'t>, item: Option<&str>) -> crate::ir::LoopOver {
        let mut over = super::loop_over_with_item(self.text(r), span(r), item);
        let r = self.iterated_in(r, &mut over);
        over.fixed |= self.names_fixed_array(r);
        over.bound_to = self
            .bound_in_function(r)
            .or_else(|| self.callback_results(r));
        over.fixed |= super::bound_to_few(self.src, over.bound_to);
        over.batches |= super::bound_to_batches(self.src, over.bound_to);
        over
    }

    /// The cursor a `while` loop walks one document a step, and the name each is bound to:
    /// `cursor` and `msg` of `while ((msg = await cursor.next()))` (wildduck's IMAP copy), or
    /// `cursor` of `while (await cursor.hasNext())`. A loop over that query's results, as a
    /// `for await (const msg of cursor)` is.
    fn cursor_walked(&self, n: Node<'t>) -> Option<(Node<'t>, Option<&'t str>)> {
        if n.k() != "while_statement" {
            return None;
        }
        let mut cond = self.unwrap_expr(self.field(n, "condition")?);
        let mut item = None;
        if cond.k() == "assignment_expression" {
            item = self
                .field(cond, "left")
                .filter(|l| l.k() == "identifier")
                .map(|l| self.text(l));
            item?;
            cond = self.unwrap_expr(self.field(cond, "right")?);
        }
        if cond.k() != "call_expression" {
            return None;
        }
        let f = self
            .field(cond, "function")
            .filter(|f| f.k() == "member_expression")?;
        let method = self.field(f, "property").map(|p| self.text(p))?;
        let wanted = if item.is_some() { "next" } else { "hasNext" };
        if method != wanted || !self.args(cond).is_empty() {
            return None;
        }
        let cursor = self.field(f, "object").filter(|c| c.k() == "identifier")?;
        Some((cursor, item))
    }

    /// The array a counting `for` loop walks by index, one item a step: `xs` of `for (let i =
    /// 0; i < xs.length; i++)` (nodeclub's replies, each reply's author read in the loop).
    fn counted_array(&self, n: Node<'t>) -> Option<Node<'t>> {
        if n.k() != "for_statement" {
            return None;
        }
        let mut cond = self.field(n, "condition")?;
        if cond.k() == "expression_statement" {
            cond = self.named_children(cond).into_iter().next()?;
        }
        if cond.k() != "binary_expression" {
            return None;
        }
        let op = cond
            .child_by_field_name("operator")
            .and_then(|o| self.src.get(o.byte_range()));
        if !matches!(op, Some("<" | "<=")) {
            return None;
        }
        let (left, right) = (self.field(cond, "left")?, self.field(cond, "right")?);
        if left.k() != "identifier" || right.k() != "member_expression" {
            return None;
        }
        if self.field(right, "property").map(|p| self.text(p)) != Some("length") {
            return None;
        }
        // One item a step: `i++`, `++i`, `i += 1`; a stride (`i += batchSize`, apostrophe's
        // batches of `slice(i, i + batchSize)`) walks batches.
        let step = self
            .field(n, "increment")
            .map(|i| self.text(i).replace(' ', ""));
        let i = self.text(left);
        let one = step.is_some_and(|s| {
            s == [i, "++"].concat() || s == ["++", i].concat() || s == [i, "+=1"].concat()
        });
        if !one {
            return None;
        }
        self.field(right, "object")
    }

    /// The callback whose parameter `name` is, when it is the last argument of a method call:
    /// (the function, the parameter's position, the call, its callee, the method's name).
    #[allow(clippy::type_complexity)]
    fn callback_of(
        &self,
        name: Node<'t>,
        binding: Option<&Binding<'t>>,
    ) -> Option<(Node<'t>, usize, Node<'t>, Node<'t>, &'t str)> {
        if binding.is_some_and(|b| b.kind != DeclKind::Param) {
            return None;
        }
        let mut f = self.parents.of(name);
        while let Some(n) = f {
            let declares = match binding {
                Some(b) => span(n) == b.scope,
                None => self
                    .field(n, "parameter")
                    .is_some_and(|p| self.text(p) == self.text(name)),
            };
            if is_function(n.k()) && declares {
                break;
            }
            f = self.parents.of(n);
        }
        let f = f?;
        let position = self
            .parameter_names(f)
            .iter()
            .position(|p| *p == self.text(name))?;
        let args = self.parents.of(f).filter(|a| a.k() == "arguments")?;
        if self.named_children(args).last().map(|l| l.id()) != Some(f.id()) {
            return None;
        }
        let call = self
            .parents
            .of(args)
            .filter(|c| c.k() == "call_expression")?;
        let callee = self.field(call, "function")?;
        let method = self.field(callee, "property").map(|p| self.text(p))?;
        Some((f, position, call, callee, method))
    }

    /// The query whose results a callback's parameter holds: `docs` of `Model.find(q).exec(
    /// function (err, docs) {..})` or `.then((docs) => ..)` is what `Model.find(q)` read
    /// (tiledesk's `Project_user.find(..).exec(function (err, pus) { pus.forEach(..) })`).
    fn callback_results(&self, name: Node<'t>) -> Option<Span> {
        if name.k() != "identifier" {
            return None;
        }
        let binding = self.lookup(self.text(name), name.start_byte() as u32);
        let (_, position, _, callee, method) = self.callback_of(name, binding)?;
        match (method, position) {
            ("then", 0) | ("exec", 1) => self.field(callee, "object").map(span),
            _ => None,
        }
    }

    /// The loaded document a name holds, with the scope of the name, the collection and the
    /// evidence: bound to a load (`const post = await Post.findById(id)`), handed to a query's
    /// callback (see `callback_document`), or an item of a query's results walked by a loop (see
    /// `loop_item_document`).
    fn named_document(&self, doc: Node<'t>) -> Option<(Span, CollectionRef, Evidence)> {
        let binding = self.lookup(self.text(doc), doc.start_byte() as u32);
        match (binding, self.classify(doc, 0)) {
            (Some(b), Thing::LoadedDoc(coll, evidence)) => Some((b.scope, coll, evidence)),
            _ => self
                .callback_document(doc, binding)
                .or_else(|| self.loop_item_document(doc, binding))
                .or_else(|| self.imported_loaded_document(doc, binding)),
        }
    }

    /// The document `name` holds when a function of another module of the repository gives it:
    /// `const topic = await getTopicById(id)`, or the second parameter of the callback handed to
    /// it, `TopicProxy.getTopicById(id, function (err, topic) {..})` (nodeclub's proxies). Which
    /// model it is, if any, is the linker's to find: the function's export `getTopicById().doc`
    /// (see `export_loaded_document`); without it, nothing.
    fn imported_loaded_document(
        &self,
        name: Node<'t>,
        binding: Option<&Binding<'t>>,
    ) -> Option<(Span, CollectionRef, Evidence)> {
        let (scope, call) = match self.callback_of(name, binding) {
            Some((f, 1, call, _, _)) => (span(f), call),
            Some(_) => return None,
            None => {
                let b = binding.filter(|b| self.is_constant(b, self.text(name)))?;
                (b.scope, self.unwrap_expr(b.value?))
            }
        };
        if call.k() != "call_expression" {
            return None;
        }
        let callee = self.field(call, "function")?;
        let Thing::Imported(imp, local) = self.classify(callee, 0) else {
            return None;
        };
        if !is_repository_module(&imp.module) || imp.export.is_empty() || imp.export == "default" {
            return None;
        }
        let coll = CollectionRef {
            name: CollectionName::Unknown { text: local },
            span: span(callee),
            via: CollectionVia::MongooseModel,
            import: Some(ImportRef {
                export: format!("{}().doc", imp.export),
                module: imp.module,
            }),
        };
        Some((scope, coll, Evidence::None))
    }

    /// An exported function that loads one document of a model and returns it at the top level
    /// of its body (`return Topic.findById(id)`) or hands it to its callback, its last parameter
    /// named `callback`, `cb` or `done` (`Topic.findOne({ _id: id }, callback)`): exported as
    /// `name().doc`, the model's collection, that a document an importer holds from it is a
    /// document of (see `imported_loaded_document`).
    fn export_loaded_document(&mut self, name: &str, node: Node<'t>) {
        let Some(func) = self.exported_function(name, node) else {
            return;
        };
        // (Only a function that spells a load is read: most exported functions load nothing.)
        if !spells_a_load(self.text(func).as_bytes()) {
            return;
        }
        let loaded = |t: Thing| match t {
            Thing::LoadedDoc(c, _) => Some(c),
            _ => None,
        };
        // What its body returns at its top level (or its expression body): not every return
        // nested in its blocks.
        let body = self.field(func, "body");
        let mut found = body.and_then(|b| {
            if b.k() != "statement_block" {
                return loaded(self.classify(b, 0));
            }
            self.parents
                .children(b)
                .filter(|c| c.k() == "return_statement")
                .filter_map(|r| self.named_children(r).into_iter().next())
                .find_map(|r| loaded(self.classify(r, 0)))
        });
        if found.is_none() {
            // (A callback by its conventional names: `callback`, `cb`, `done`.)
            let callback = self
                .parameter_names(func)
                .last()
                .copied()
                .filter(|p| matches!(*p, "callback" | "cb" | "done"));
            if let (Some(cb), Some(body)) = (callback, body) {
                let mut calls = Vec::new();
                self.parents.walk(body, |c, k, enter| {
                    if enter && k == "call_expression" {
                        calls.push(c);
                    }
                });
                found = calls.into_iter().find_map(|c| {
                    let last = self.args(c).last().copied()?;
                    (last.k() == "identifier" && self.text(last) == cb)
                        .then(|| loaded(self.classify(c, 0)))
                        .flatten()
                });
            }
        }
        let Some(c) = found else { return };
        let target = match c.import.clone() {
            Some(import) => ExportTarget::Reexport { import },
            None => ExportTarget::Collection { collection: c },
        };
        self.ir.exports.push(Export {
            name: format!("{name}().doc"),
            target,
        });
    }

    /// The document `name` holds when it is an item of a query's results, walked by a loop:
    /// `for (const doc of docs)` or `docs.forEach((doc) => ..)` with `docs` bound to `await
    /// Msg.find(q)` or handed by `Msg.find(q, (err, docs) => ..)` (nodeclub's messages marked
    /// read one by one). Returns the loop's span (the scope of the document's name), the
    /// collection and the evidence. Not the plain objects of `lean()`.
    fn loop_item_document(
        &self,
        name: Node<'t>,
        binding: Option<&Binding<'t>>,
    ) -> Option<(Span, CollectionRef, Evidence)> {
        let item = self.text(name);
        let (scope, list) = match self.callback_of(name, binding) {
            Some((f, 0, _, callee, "forEach" | "map")) => (span(f), self.field(callee, "object")?),
            Some(_) => return None,
            None => {
                let mut up = self.parents.of(name);
                let l = loop {
                    let n = up?;
                    if n.k() == "for_in_statement"
                        && self
                            .field(n, "left")
                            .is_some_and(|l| l.k() == "identifier" && self.text(l) == item)
                        && self.field(n, "operator").map(|o| self.text(o)) == Some("of")
                    {
                        break n;
                    }
                    if is_function(n.k()) {
                        return None;
                    }
                    up = self.parents.of(n);
                };
                (span(l), self.field(l, "right")?)
            }
        };
        let list = self.unwrap_expr(list);
        if list.k() != "identifier" {
            return None;
        }
        let list_binding = self.lookup(self.text(list), list.start_byte() as u32);
        // Handed by the query's callback: `Msg.find(q, function (err, docs) {..})`.
        if let Some((_, 1, _, callee, "find")) = self.callback_of(list, list_binding) {
            return self
                .model_results(self.field(callee, "object")?)
                .map(|(c, e)| (scope, c, e));
        }
        let b = list_binding.filter(|b| self.is_constant(b, self.text(list)))?;
        let mut v = self.unwrap_expr(b.value?);
        if v.k() == "await_expression" {
            v = self.unwrap_expr(v.named_child(0)?);
        }
        if v.k() == "call_expression" {
            let f = self.field(v, "function")?;
            if f.k() == "member_expression"
                && self.field(f, "property").map(|p| self.text(p)) == Some("exec")
            {
                v = self.field(f, "object")?;
            }
        }
        let f = self
            .field(v, "function")
            .filter(|f| f.k() == "member_expression")?;
        if self.field(f, "property").map(|p| self.text(p)) != Some("find") {
            return None;
        }
        self.model_results(self.field(f, "object")?)
            .map(|(c, e)| (scope, c, e))
    }

    /// The collection of a Mongoose model whose `find` results are its documents.
    fn model_results(&self, model: Node<'t>) -> Option<(CollectionRef, Evidence)> {
        match self.classify(model, 0) {
            Thing::Collection(r) if r.via == CollectionVia::MongooseModel => {
                Some((r, Evidence::Resolved))
            }
            _ => None,
        }
    }

    /// What a query hands the callback whose parameter `name` is, with the callback: the query
    /// a `.then((doc) => ..)` or `.exec((err, doc) => ..)` is chained on, or the query that takes
    /// the callback itself (`Model.findOne(q, (err, doc) => ..)`).
    fn callback_source(
        &self,
        name: Node<'t>,
        binding: Option<&Binding<'t>>,
    ) -> Option<(Node<'t>, Node<'t>)> {
        let (f, position, call, callee, method) = self.callback_of(name, binding)?;
        let source = match (method, position) {
            ("then", 0) | ("exec", 1) => self.field(callee, "object")?,
            ("findById" | "findOne" | "findOneAndUpdate" | "findByIdAndUpdate", 1) => call,
            _ => return None,
        };
        Some((f, source))
    }

    /// The query call whose result `name`, a parameter of a callback, is handed (see
    /// `callback_source`), when it loads one document.
    fn callback_query(&self, name: Node<'t>) -> Option<Node<'t>> {
        let binding = self.lookup(self.text(name), name.start_byte() as u32);
        let query = self.chain_root(self.callback_source(name, binding)?.1);
        // (A query that loads one document: not what a service's `create(..)` resolves to.)
        let loads = self
            .field(query, "function")
            .and_then(|f| self.field(f, "property"))
            .is_some_and(|p| {
                matches!(
                    self.text(p),
                    "findById" | "findOne" | "findOneAndUpdate" | "findByIdAndUpdate"
                )
            });
        (loads && matches!(self.classify(query, 0), Thing::LoadedDoc(..))).then_some(query)
    }

    /// The document a query hands its callback, when `name` is the callback's parameter that
    /// holds it: `Reply.findById(id, function (err, reply) {..})`, `Reply.findOne(q).exec((err,
    /// reply) => ..)`, `Reply.findById(id).then((reply) => ..)` (nodeclub's replies).
    /// Returns the callback's span (the scope of the document's name), the collection and the
    /// evidence. An arrow function's lone parameter (`reply => ..`) has no binding.
    fn callback_document(
        &self,
        name: Node<'t>,
        binding: Option<&Binding<'t>>,
    ) -> Option<(Span, CollectionRef, Evidence)> {
        let (f, source) = self.callback_source(name, binding)?;
        match self.classify(source, 0) {
            Thing::LoadedDoc(coll, evidence) => Some((span(f), coll, evidence)),
            _ => None,
        }
    }

    /// Whether the function around `call` sets the array `array` (its text, `row.refreshTokens`)
    /// to a part of itself before `call` pushes to it: `row.refreshTokens =
    /// row.refreshTokens.filter(notExpired)` (pwndoc's sessions), `.slice(-9)`; or anew, to an
    /// array literal, in a block around `call` (`action.preferred = []`, then a loop that
    /// fills it). Mongoose then saves the whole array with a `$set`, and it keeps only what the
    /// function lets stay or puts there.
    fn pruned_before(&self, call: Node<'t>, array: &str) -> bool {
        let at = call.start_byte();
        let mut found = false;
        self.parents
            .walk(self.enclosing_function(call), |n, kind, enter| {
                if !enter || found || kind != "assignment_expression" || n.start_byte() >= at {
                    return;
                }
                let (Some(left), Some(right)) = (self.field(n, "left"), self.field(n, "right"))
                else {
                    return;
                };
                let right = self.unwrap_expr(right);
                if self.text(left) != array {
                    return;
                }
                // `action.preferred = []` before a loop that fills it (and not under a condition
                // of its own, as `if (!doc.tags) doc.tags = []`): the save writes the list the
                // function builds, not one grown.
                if right.k() == "array" {
                    found = self
                        .parents
                        .of(n)
                        .filter(|s| s.k() == "expression_statement")
                        .and_then(|s| self.parents.of(s))
                        .is_some_and(|b| {
                            matches!(b.k(), "statement_block" | "program")
                                && b.start_byte() <= at
                                && at < b.end_byte()
                        });
                    return;
                }
                found = right.k() == "call_expression"
                    && self.field(right, "function").is_some_and(|f| {
                        f.k() == "member_expression"
                            && self
                                .field(f, "object")
                                .is_some_and(|o| self.text(o) == array)
                            && self
                                .field(f, "property")
                                .is_some_and(|p| matches!(self.text(p), "filter" | "slice"))
                    });
            });
        found
    }

    /// The Mongoose document idiom: `post.likes.push(uid); await post.save();` sends a `$push`.
    fn document_array_push(
        &mut self,
        call: Node<'t>,
        obj: Node<'t>,
        prop: Node<'t>,
        ctx: OpContext,
    ) {
        // Through a cast (`(this.liker as any).addToSet(u)`) or a name bound to the array
        // (`const seenUsers = this.seenUsers; seenUsers.addToSet(u)`): crowi's pages.
        let mut obj = self.unwrap_expr(obj);
        if obj.k() == "identifier" {
            if let Some(v) = self
                .lookup(self.text(obj), obj.start_byte() as u32)
                .filter(|b| matches!(b.kind, DeclKind::Const | DeclKind::Mutable))
                .filter(|b| self.is_constant(b, self.text(obj)))
                .and_then(|b| b.value)
            {
                obj = self.unwrap_expr(v);
            }
        }
        if obj.k() != "member_expression" {
            return;
        }
        let (Some(mut doc), Some(field)) = (self.field(obj, "object"), self.field(obj, "property"))
        else {
            return;
        };
        // An array of an embedded document (`user.inbox.messages.push(m)`, HabitRPG's users):
        // the document is the chain's start, the array its dotted path.
        let mut path_start = field.start_byte();
        let mut path = vec![self.text(field)];
        for _ in 0..8 {
            if doc.k() != "member_expression" {
                break;
            }
            let (Some(o), Some(p)) = (self.field(doc, "object"), self.field(doc, "property"))
            else {
                return;
            };
            if p.k() != "property_identifier" {
                return;
            }
            path_start = p.start_byte();
            path.push(self.text(p));
            doc = o;
        }
        path.reverse();
        let doc_name = self.text(doc);
        let Some((doc, scope, coll, evidence)) = self.saved_document(doc) else {
            return;
        };
        let at = call.start_byte() as u32;
        let saved = self.saves.iter().any(|(n, pos)| {
            n == doc_name && *pos > at && scope.contains(Span::new(*pos as usize, *pos as usize))
        }) || self.written_back(doc_name, at, scope);
        if !saved || self.pruned_before(call, self.text(obj)) {
            return;
        }
        let method = self.text(prop);
        // (Mongoose saves an `unshift` as a `$push` at position 0, or a `$set` of the array.)
        let op_name = if method == "addToSet" {
            "$addToSet"
        } else {
            "$push"
        };
        let first = self.args(call).first().copied();
        let pushed = first
            .map(|a| self.lower(a, 0))
            .unwrap_or_else(|| Value::unknown(span(call), "", false));
        // `if (!user.methods.includes(m)) user.methods.push(m)`: distinct values only.
        let checked_absent = first.is_some_and(|a| {
            let array = self.text(obj);
            self.absent_checks(call).iter().any(|(x, held)| {
                (*x == array && self.pushes_held(a, held)) || self.pushed_beside(call, a, x, held)
            })
        });
        let mut op = super::saved_push(
            (method, span(call), span(prop)),
            op_name,
            (path.join("."), Span::new(path_start, field.end_byte())),
            pushed,
            (span(doc), &format!("{doc_name}._id")),
        );
        op.collection = Some(coll);
        op.evidence = evidence;
        op.context = ctx;
        op.context.size_guards = self.size_guards(call);
        if checked_absent {
            op.context.absent_checks = vec![self.text(field).to_string()];
        }
        op.receiver = doc_name.to_string();
        self.ir.operations.push(op);
    }

    /// Whether `pushed`, the value `call` pushes to another array than `checked`, is the value
    /// `held` that a guard checks `checked` does not hold (or derived from it, `member.slice(4)`),
    /// where the function also pushes that value to `checked`: mirror arrays filled under one
    /// membership test (tiledesk's `if (request.participants.indexOf(member) == -1) {
    /// request.participants.push(member); request.participantsAgents.push(member); }`) hold
    /// no more values than the checked one.
    fn pushed_beside(&self, call: Node<'t>, pushed: Node<'t>, checked: &str, held: &Held) -> bool {
        let Held::Value(v) = *held else {
            return false;
        };
        let from_held = |text: &str| {
            text == v
                || text
                    .strip_prefix(v)
                    .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
        };
        // (Or through a name bound to such a value: `var botId = member.replace("bot_", "");
        // request.participantsBots.push(botId)`.)
        let derived = from_held(self.plain_text(pushed))
            || (pushed.k() == "identifier"
                && self
                    .lookup(self.text(pushed), pushed.start_byte() as u32)
                    .filter(|b| self.is_constant(b, self.text(pushed)))
                    .and_then(|b| b.value)
                    .is_some_and(|value| from_held(self.text(value))));
        derived && {
            let f = self.text(self.enclosing_function(call));
            memchr::memmem::find(f.as_bytes(), format!("{checked}.push({v})").as_bytes()).is_some()
        }
    }

    /// Whether the document `doc_name` is written back whole after `at`, in `scope`, by a
    /// model's update given it as the update (`Settings.findByIdAndUpdate(id, settings)`,
    /// tiledesk's knowledge-base settings), as its `save()` would write it.
    fn written_back(&self, doc_name: &str, at: u32, scope: Span) -> bool {
        self.write_backs.iter().any(|&(pos, call)| {
            pos > at
                && scope.contains(Span::new(pos as usize, pos as usize))
                && self
                    .field(call, "arguments")
                    .and_then(|a| a.named_child(1))
                    .is_some_and(|d| d.k() == "identifier" && self.text(d) == doc_name)
        })
    }

    /// The loaded document that `doc`, the receiver of a save, stands for: a name that holds one
    /// (see `named_document`), or `this` in a document method (`schema.methods.addComment =
    /// function () { this.comments.push(c); return this.save(); }`), also through a name bound
    /// to it (`const self = this;`, growi's `page.like`). Returns the node that stands for it
    /// (`this` for such a name), the scope it holds the document in (for `this`, the function
    /// around it: an arrow function takes its `this` from around it), the collection and the
    /// evidence.
    fn saved_document(&self, doc: Node<'t>) -> Option<(Node<'t>, Span, CollectionRef, Evidence)> {
        let doc_name = self.text(doc);
        let doc = match doc.k() {
            "identifier" => self
                .lookup(doc_name, doc.start_byte() as u32)
                .filter(|b| self.is_constant(b, doc_name))
                .and_then(|b| b.value)
                .map(|v| self.unwrap_expr(v))
                .filter(|v| v.k() == "this")
                .unwrap_or(doc),
            _ => doc,
        };
        match doc.k() {
            "identifier" => {
                let (scope, coll, evidence) = self.named_document(doc)?;
                Some((doc, scope, coll, evidence))
            }
            "this" => {
                let schema = self.schema_function_of(doc, "methods", "method")?;
                let Some(Thing::Collection(coll)) = self.model_of_schema(schema, 0) else {
                    return None;
                };
                let mut f = self.parents.of(doc);
                while let Some(n) = f {
                    if is_function(n.k()) && !self.takes_outer_this(n) {
                        break;
                    }
                    f = self.parents.of(n);
                }
                Some((doc, span(f?), coll, Evidence::Resolved))
            }
            _ => None,
        }
    }

    /// The Mongoose counter idiom: `topic.visit_count += 1; topic.save()` (nodeclub's topic
    /// views) sends the field's new value, a counter bumped per event like an `$inc` (and one
    /// that loses the increments of concurrent events). Each of the document's fields counted
    /// up or down by a literal step before the save `call`, in the document's scope, with no save
    /// between, is an `$inc` of it saved there.
    fn saved_counters(&mut self, call: Node<'t>, doc: Node<'t>, ctx: &OpContext) {
        let doc_name = self.text(doc);
        let at = call.start_byte() as u32;
        let bumps: Vec<(Node<'t>, Node<'t>, f64)> = self
            .bumps
            .iter()
            .filter(|(n, member, _)| {
                (n.start_byte() as u32) < at
                    && self.field(*member, "object").is_some_and(|o| {
                        matches!(o.k(), "identifier" | "this") && self.text(o) == doc_name
                    })
            })
            .copied()
            .collect();
        if bumps.is_empty() {
            return;
        }
        let Some((_, scope, coll, evidence)) = self.saved_document(doc) else {
            return;
        };
        for (n, member, step) in bumps {
            let from = n.start_byte() as u32;
            let saved_between = self
                .saves
                .iter()
                .any(|(name, pos)| name == doc_name && *pos > from && *pos < at);
            let Some(field) = self
                .field(member, "property")
                .filter(|p| p.k() == "property_identifier")
            else {
                continue;
            };
            if saved_between || !scope.contains(span(n)) {
                continue;
            }
            let op = super::saved_inc(
                span(n),
                (self.text(field).to_string(), span(field)),
                step,
                (span(doc), &format!("{doc_name}._id")),
            );
            let op = self.on_document(op, doc, (coll.clone(), evidence), ctx);
            self.ir.operations.push(op);
        }
    }

    /// `op`, a write of the loaded document `doc`, on its collection, with its evidence and the
    /// context of the call that sends it.
    fn on_document(
        &self,
        mut op: Operation,
        doc: Node<'t>,
        (coll, evidence): (CollectionRef, Evidence),
        ctx: &OpContext,
    ) -> Operation {
        op.collection = Some(coll);
        op.evidence = evidence;
        op.context = ctx.clone();
        op.receiver = self.text(doc).to_string();
        op
    }

    /// An item of a query's results saved in the loop over them (`for (const doc of docs) {
    /// doc.has_read = true; await doc.save(); }`, nodeclub's messages): one write per item, an
    /// update of that document.
    fn saved_item(
        &self,
        call: Node<'t>,
        doc: Node<'t>,
        prop: Node<'t>,
        ctx: &OpContext,
    ) -> Option<Operation> {
        let binding = self.lookup(self.text(doc), doc.start_byte() as u32);
        let (_, coll, evidence) = self.loop_item_document(doc, binding)?;
        let doc_name = self.text(doc);
        let mut op = Operation::new(OpKind::UpdateOne, "save", span(call), span(prop));
        op.filter = Some(super::id_filter(span(doc), &format!("{doc_name}._id")));
        Some(self.on_document(op, doc, (coll, evidence), ctx))
    }

    /// A Mongoose document made in the code and saved (`new Message(data).save()`, `const m = new
    /// Message(data); await m.save()`, the first save after it): an insert of the document into
    /// the model's collection, as `Message.create(data)` is. The constructor is a model of the
    /// file, or one imported from another module (capitalised, the linker's to name). Not one made
    /// before the loop that saves it.
    fn saved_new_document(
        &self,
        call: Node<'t>,
        obj: Node<'t>,
        prop: Node<'t>,
        ctx: &OpContext,
    ) -> Option<Operation> {
        let target = self.unwrap_expr(obj);
        let new = match target.k() {
            "new_expression" => target,
            "identifier" => {
                let name = self.text(target);
                let b = self.lookup(name, target.start_byte() as u32)?;
                if !self.is_constant(b, name) {
                    return None;
                }
                let at = call.start_byte() as u32;
                if self
                    .saves
                    .iter()
                    .any(|(n, pos)| n == name && *pos > b.pos && *pos < at)
                {
                    return None;
                }
                self.unwrap_expr(b.value?)
            }
            _ => return None,
        };
        // (One made before the loop that saves it is inserted once, then saved unchanged.)
        if new.k() != "new_expression" || ctx.enclosing_loop.is_some_and(|l| !l.contains(span(new)))
        {
            return None;
        }
        let ctor = self.field(new, "constructor")?;
        let (coll, evidence) = match self.classify(ctor, 0) {
            Thing::Collection(r) if r.via == CollectionVia::MongooseModel => {
                (r, Evidence::Resolved)
            }
            Thing::Imported(imp, local) => {
                let coll = imported_collection(imp, local, ctor);
                if coll.via != CollectionVia::MongooseModel {
                    return None;
                }
                (coll, Evidence::None)
            }
            _ => return None,
        };
        let mut op = Operation::new(OpKind::Insert, "save", span(call), span(prop));
        op.documents = self
            .field(new, "arguments")
            .and_then(|a| self.named_children(a).into_iter().next())
            .map(|d| vec![self.lower(d, 0)])
            .unwrap_or_default();
        Some(self.on_document(op, obj, (coll, evidence), ctx))
    }

    /// A loaded Mongoose document's own update, `invite.updateOne({ $push: { collaborations: c }
    /// })` (Strider's invites): `Model.updateOne({ _id: invite._id }, update)`. Only an update
    /// document written in place counts (a filter first would be a model's call).
    fn document_update(
        &self,
        call: Node<'t>,
        doc: Node<'t>,
        prop: Node<'t>,
        ctx: &OpContext,
    ) -> Option<Operation> {
        let args = self.args(call);
        let update = self.unwrap_expr(*args.first()?);
        if update.k() != "object" {
            return None;
        }
        let Thing::LoadedDoc(coll, evidence) = self.classify(doc, 0) else {
            return None;
        };
        let lowered = self.lower(update, 0);
        if !is_update_document(&lowered) {
            return None;
        }
        let doc_name = self.text(doc);
        let mut op = Operation::new(OpKind::UpdateOne, self.text(prop), span(call), span(prop));
        op.filter = Some(super::id_filter(span(doc), &format!("{doc_name}._id")));
        op.update = Some(lowered);
        op.options = args.get(1).map(|a| self.lower(*a, 0));
        Some(self.on_document(op, doc, (coll, evidence), ctx))
    }

    /// A member of an object named `collections` (`context.collections.Products`), or a name
    /// destructured from one (see `registry_names`).
    fn in_collection_registry(&self, obj: Node<'t>) -> bool {
        match obj.k() {
            "identifier" => {
                let name = self.text(obj);
                self.lookup(name, obj.start_byte() as u32)
                    .is_some_and(|b| self.registry_names.contains(&(name, b.pos)))
            }
            "member_expression" => self.field(obj, "object").is_some_and(|o| {
                super::names_collection_registry(self.text(o))
                    && self
                        .field(obj, "property")
                        .is_some_and(|p| p.k() == "property_identifier")
            }),
            _ => false,
        }
    }

    /// `db.products`, `req.app.db.products`: a member of a named object, which a module of the
    /// repository may set to a collection (`FileIr::member_collections`). An operation on it is
    /// kept for the linker, which drops it unless it finds that module.
    fn member_of_named_object(&self, obj: Node<'t>) -> bool {
        let named = |m: Node<'t>| {
            self.field(m, "property")
                .is_some_and(|p| p.k() == "property_identifier")
        };
        if obj.k() != "member_expression" || !named(obj) {
            return false;
        }
        let Some(object) = self.field(obj, "object") else {
            return false;
        };
        match object.k() {
            "identifier" => true,
            "member_expression" => named(object),
            _ => false,
        }
    }

    /// `db.products = db.collection("products")`: a collection, named by a literal, set as a
    /// member of a named object (see `FileIr::member_collections`). A member set to two
    /// collections is neither.
    fn member_collections(&mut self) {
        let mut out: Vec<(String, String, CollectionRef)> = Vec::new();
        let mut conflicting: Vec<(&'t str, &'t str)> = Vec::new();
        for &(object, member, value, _) in &self.member_assigns {
            // Only a call can be a collection (most member assignments store values).
            if self.unwrap_expr(value).k() != "call_expression" {
                continue;
            }
            let Thing::Collection(c) = self.classify(value, 0) else {
                continue;
            };
            if !matches!(c.name, CollectionName::Literal { .. }) {
                continue;
            }
            match out.iter().find(|(o, m, _)| o == object && m == member) {
                Some((_, _, known)) if known.name.display() != c.name.display() => {
                    conflicting.push((object, member))
                }
                Some(_) => {}
                None => out.push((object.to_string(), member.to_string(), c)),
            }
        }
        out.retain(|(o, m, _)| !conflicting.contains(&(o.as_str(), m.as_str())));
        self.ir.member_collections = out;
    }

    /// `Collection<PaymentCredentialsType>` where the file imports `PaymentCredentials as
    /// PaymentCredentialsType`: `Collection<PaymentCredentials>`, the name the document type has
    /// where it is defined (and its collection opened, see `note_typed_collection`).
    fn unaliased_type(&self, t: &str, pos: u32) -> String {
        let inner = t
            .split_once('<')
            .and_then(|(_, r)| r.strip_suffix('>'))
            .map(str::trim)
            .filter(|i| is_identifier(i));
        let original = inner.and_then(|i| {
            let imp = self.lookup(i, pos)?.import.as_ref()?;
            (imp.export != i && is_identifier(&imp.export) && imp.export != "default")
                .then(|| imp.export.clone())
        });
        match (inner, original) {
            (Some(i), Some(o)) => t.replacen(&format!("<{i}"), &format!("<{o}"), 1),
            _ => t.to_string(),
        }
    }

    /// A registry of models: an object typed `IModels` whose members the file assigns models
    /// (`const models = {} as IModels; models.Posts = db.model('cms_posts', schema)`), as a
    /// monorepo's packages build one per tenant's connection and hand it to their resolvers
    /// (`{ models }: IContext`) and model classes (`models: IModels`). Each model is exported
    /// as a member of the type (`IModels.Posts`), of each interface with a member of that type
    /// (`IContext.models.Posts`, for `interface IContext { models: IModels }`) and of the result
    /// of each function returning the type (`generateModels().Posts`, for
    /// `createGenerateModels<IModels>(..)` or `(): Promise<IModels> =>`), which is what the
    /// importers' names look up (see `imported_type`). A member assigned two different
    /// collections is exported as neither.
    fn registry_exports(&mut self) {
        let mut members: Vec<(&'t str, &'t str, CollectionRef)> = Vec::new();
        let mut conflicting: Vec<(&'t str, &'t str)> = Vec::new();
        for &(object, member, value, pos) in &self.member_assigns {
            let Some(b) = self.lookup(object, pos) else {
                continue;
            };
            let annotated = b.type_text.map(|t| t.trim_start_matches(':').trim());
            let cast = b.value.and_then(|v| match v.k() {
                "as_expression" | "satisfies_expression" => {
                    self.named_children(v).last().map(|t| self.text(*t))
                }
                _ => None,
            });
            let Some(ty) = annotated.or(cast).filter(|t| is_identifier(t)) else {
                continue;
            };
            let Thing::Collection(c) = self.classify(value, 0) else {
                continue;
            };
            match members.iter().find(|(t, m, _)| *t == ty && *m == member) {
                Some((_, _, known)) if known.name.display() != c.name.display() => {
                    conflicting.push((ty, member))
                }
                Some(_) => {}
                None => members.push((ty, member, c)),
            }
        }
        members.retain(|(t, m, _)| !conflicting.contains(&(*t, *m)));
        if members.is_empty() {
            return;
        }
        let mut holders: Vec<(String, &'t str)> = members
            .iter()
            .map(|(t, _, _)| (t.to_string(), *t))
            .collect();
        holders.sort();
        holders.dedup();
        // The registry type `t` names, with the members' lifetime.
        let registry = |t: &str| members.iter().find(|(r, _, _)| *r == t).map(|(r, _, _)| *r);
        // `Promise<IModels>` and `IModels` both name the registry a function returns.
        let returned = |t: &str| {
            let t = t.trim_start_matches(':').trim();
            registry(
                t.strip_prefix("Promise<")
                    .and_then(|r| r.strip_suffix('>'))
                    .unwrap_or(t)
                    .trim(),
            )
        };
        let root = self.parents.root();
        self.parents.walk(root, |n, k, enter| {
            if !enter {
                return;
            }
            match k {
                "interface_declaration" => {
                    let (Some(name), Some(body)) = (self.field(n, "name"), self.field(n, "body"))
                    else {
                        return;
                    };
                    for p in self.named_children(body) {
                        if p.k() != "property_signature" {
                            continue;
                        }
                        let (Some(m), Some(t)) = (self.field(p, "name"), self.field(p, "type"))
                        else {
                            continue;
                        };
                        if let Some(t) = registry(self.text(t).trim_start_matches(':').trim()) {
                            holders.push((format!("{}.{}", self.text(name), self.text(m)), t));
                        }
                    }
                }
                "variable_declarator" | "function_declaration" => {
                    let Some(name) = self.field(n, "name").filter(|x| x.k() == "identifier") else {
                        return;
                    };
                    let value = if k == "function_declaration" {
                        Some(n)
                    } else {
                        self.field(n, "value").map(|v| self.unwrap_expr(v))
                    };
                    let Some(value) = value else { return };
                    let ty = match value.k() {
                        "call_expression" => self.field(value, "type_arguments").and_then(|a| {
                            registry(
                                self.text(a)
                                    .trim_start_matches('<')
                                    .trim_end_matches('>')
                                    .trim(),
                            )
                        }),
                        "arrow_function" | "function_expression" | "function_declaration" => self
                            .field(value, "return_type")
                            .and_then(|r| returned(self.text(r))),
                        _ => None,
                    };
                    if let Some(t) = ty {
                        holders.push((format!("{}()", self.text(name)), t));
                    }
                }
                _ => {}
            }
        });
        for (holder, ty) in holders {
            for (t, m, c) in &members {
                if *t == ty {
                    self.ir.exports.push(Export {
                        name: format!("{holder}.{m}"),
                        target: ExportTarget::Collection {
                            collection: c.clone(),
                        },
                    });
                }
            }
        }
    }

    fn finish(mut self) -> FileIr {
        for (call_id, mods, capped) in std::mem::take(&mut self.pending_modifiers) {
            if let Some(&i) = self.op_by_call.get(&call_id) {
                let op = &mut self.ir.operations[i];
                op.context.size_guards.extend(capped);
                if op.evidence == Evidence::None
                    && mods.iter().any(|m| {
                        m.name == "skip" || JS_SHAPING_MODIFIERS.contains(&m.name.as_str())
                    })
                {
                    op.evidence = Evidence::Shaped;
                }
                for md in mods {
                    if let Some(md) = builder_stage(op, md) {
                        op.modifiers.push(md);
                    }
                }
            }
        }
        // One finding for the same paging applied twice in a function (`cursor.skip(offset)`
        // again after a `cursor.clone()` has looked ahead), and none for a copy of a cursor the
        // function pages (`next = cursor.clone(); next.skip(offset + limit).limit(1)`, which
        // looks for a next page): that copy's paging is the same. Copies of a cursor the function
        // does not page are one finding, the first.
        let loose: Vec<_> = std::mem::take(&mut self.loose_skips)
            .into_iter()
            .filter(|(bound, ..)| !bound.is_some_and(|id| self.op_by_call.contains_key(&id)))
            .collect();
        let paged: crate::lang::HashSet<(Option<&str>, &str)> = loose
            .iter()
            .filter(|(.., copied)| copied.is_none())
            .map(|(_, op, _)| (op.context.function.as_deref(), op.receiver.as_str()))
            .collect();
        let mut seen = crate::lang::HashSet::default();
        let keep: Vec<bool> = loose
            .iter()
            .map(|(_, op, copied)| {
                let function = op.context.function.as_deref();
                let key = match copied {
                    Some(original) if paged.contains(&(function, original.as_str())) => {
                        return false;
                    }
                    Some(original) => (function, original.as_str(), None),
                    None => {
                        let skip = op.modifiers.iter().find(|m| m.name == "skip");
                        let amount = skip
                            .and_then(|m| m.args.first())
                            .and_then(|a| self.src.get(a.span.start as usize..a.span.end as usize));
                        (function, op.receiver.as_str(), amount)
                    }
                };
                seen.insert(key)
            })
            .collect();
        let kept = loose
            .into_iter()
            .zip(keep)
            .filter_map(|((_, op, _), k)| k.then_some(op));
        self.ir.operations.extend(kept);
        // The operations of wrappers of the driver, which run the query they are given (their
        // skip may be a modifier applied above).
        let mut operations = std::mem::take(&mut self.ir.operations);
        super::mark_forwarded_queries(
            &mut operations,
            |at| self.wrapper_parameters(at),
            // The filter a parameter, or a local made from one by a call it is passed to:
            // `const fullQuery = this.applyBaseQuery(query, ..)` (growthbook's
            // `BaseModel._find`), or a parameter's member with a default (`var where =
            // options.where ? options.where : ANYWHERE`, pencilblue's `DAO._doQuery`).
            |filter, at, params| {
                params.contains(&filter)
                    || self
                        .lookup(filter, at.start)
                        .and_then(|b| b.value)
                        .map(|v| self.unwrap_expr(v))
                        .is_some_and(|v| {
                            v.k() == "call_expression"
                                && super::passes_parameter(self.text(v), params)
                                || self.parameter_member(v, params).is_some()
                        })
            },
        );
        self.ir.operations = operations;
        // Calls on a collection in memory (`const Local = new Mongo.Collection(null)`) reach no
        // database.
        let operations = std::mem::take(&mut self.ir.operations);
        self.ir.operations = operations
            .into_iter()
            .filter(|op| {
                !is_identifier(&op.receiver)
                    || self
                        .lookup(&op.receiver, op.span.start)
                        .and_then(|b| b.value)
                        .is_none_or(|v| !self.is_local_collection(v))
            })
            .collect();
        self.registry_exports();
        self.member_collections();
        let mut exports = std::mem::take(&mut self.export_nodes);
        // A name exported twice is the last value given it: `module.exports = model('CartItem',
        // ..)` then `module.exports = model('Cart', ..)` exports the `Cart` model (mern-ecommerce).
        exports.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.start_byte().cmp(&a.1.start_byte())));
        exports.dedup_by(|later, first| later.0 == first.0);
        for (name, import) in std::mem::take(&mut self.source_exports) {
            let target = if name == "*" {
                ExportTarget::Star { import }
            } else {
                ExportTarget::Reexport { import }
            };
            self.ir.exports.push(Export { name, target });
        }
        // A class that opens the collection a constructor parameter names (see
        // `named_base_collection`): `BaseRaw(_, ..)` for the second parameter.
        for (name, class) in std::mem::take(&mut self.class_exports) {
            if let Some(k) = self.collection_parameter(class) {
                self.ir.exports.push(Export {
                    name: format!("{name}({}..)", "_, ".repeat(k)),
                    target: ExportTarget::CollectionFactory,
                });
            } else if let Some(field) = self.collection_field(class) {
                // Opened by a field its subclasses set: `MongoAdapter(this.collectionName=..)`.
                self.ir.exports.push(Export {
                    name: format!("{name}(this.{field}=..)"),
                    target: ExportTarget::CollectionFactory,
                });
            }
        }
        for (name, node) in std::mem::take(&mut self.export_functions) {
            self.export_returned(&name, node);
            self.export_loaded_document(&name, node);
        }
        for (name, node) in exports {
            if self.is_local_collection(node) {
                self.ir.exports.push(Export {
                    name,
                    target: ExportTarget::LocalCollection,
                });
                continue;
            }
            match export_target(self.classify(node, 0)) {
                Some(target) => self.ir.exports.push(Export { name, target }),
                None => {
                    if let Some(value) = self.constant_name_string(node) {
                        self.ir.exports.push(Export {
                            name,
                            target: ExportTarget::Constant { value },
                        });
                        continue;
                    }
                    if let Some(Thing::Collection(collection)) = self.instance_collection(node, 0) {
                        self.ir.exports.push(Export {
                            name: format!("{name}.collection"),
                            target: ExportTarget::Collection { collection },
                        });
                        continue;
                    }
                    self.export_returned(&name, node);
                    self.export_loaded_document(&name, node);
                    self.export_members(&name, node, 0)
                }
            }
        }
        self.note_name_imports();
        self.ir.normalise();
        self.ir
    }
}

/// A function named for creating indexes (`buildDbIndexes`, `addIndexesToCollection`,
/// `ensureIndex`), not an array's or a string's search (`findIndex`, `indexOf`).
fn names_index_helper(name: &str) -> bool {
    let b = name.as_bytes();
    b.len() >= 5
        && b.iter().any(|&c| c | 0x20 == b'x')
        && b.windows(5).any(|w| w.eq_ignore_ascii_case(b"index"))
        && !b.ends_with(b"Of")
        && !(b.len() >= 4 && b[..4].eq_ignore_ascii_case(b"find"))
}

/// A module the linker may find in the repository: a relative path, what may be a path alias
/// (`@/models/user`, `~/models/user`; a scoped package such as `@nestjs/mongoose` also starts with
/// `@` and is simply not found), SvelteKit's `$lib/..`, Meteor's path from the application's root
/// (`/models/boards`), or a path from a `baseUrl` (`lib/models/statement` in LearningLocker, whose
/// jsconfig and webpack resolve from the repository's root; a package's own path, `lodash/map`, is
/// simply not found), a package's subpath import (`#collections`); never a plainly named package
/// (`mongodb`, `lodash`).
fn is_repository_module(module: &str) -> bool {
    module.starts_with('.')
        || module.starts_with('#')
        || module.starts_with("$lib/")
        || module.starts_with('@')
        || module.starts_with('~')
        || module.contains('/')
}

/// A plain name (`Local`, or a type name such as `IModels`), no member, call, generic, union or
/// other expression.
fn is_identifier(t: &str) -> bool {
    !t.is_empty()
        && t.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// The type an annotation indexes or names: `IContext` of `IContext['models']`.
fn type_head(t: &str) -> &str {
    t.split_once('[').map_or(t, |(h, _)| h).trim()
}

/// What an exported value says to the linker: a collection or model, or another module's export
/// passed on; `None` for anything else.
fn export_target(thing: Thing) -> Option<ExportTarget> {
    match thing {
        Thing::Collection(r) => Some(ExportTarget::Collection { collection: r }),
        Thing::Imported(imp, _) => Some(ExportTarget::Reexport { import: imp }),
        _ => None,
    }
}

fn is_db_method(name: &str) -> bool {
    matches!(
        name,
        "getCollection"
            | "getSiblingDB"
            | "getName"
            | "runCommand"
            | "adminCommand"
            | "createCollection"
            | "getCollectionNames"
            | "getCollectionInfos"
            | "dropDatabase"
            | "stats"
            | "collection"
            | "aggregate"
            | "getMongo"
            | "auth"
            | "createUser"
            | "currentOp"
            | "killOp"
            | "serverStatus"
            | "version"
            | "listCollections"
            | "command"
            | "admin"
            | "databaseName"
            | "watch"
            | "createView"
    )
}

/// A Firestore `db.collection("x").doc(..)` chain is not MongoDB.
fn is_firestore_chain(x: &Extractor, call: Node) -> bool {
    let Some(member) = x.parents.of(call).filter(|p| p.k() == "member_expression") else {
        return false;
    };
    let next = x.field(member, "property").map(|p| x.text(p)).unwrap_or("");
    matches!(
        next,
        "doc"
            | "add"
            | "where"
            | "orderBy"
            | "onSnapshot"
            | "listDocuments"
            | "get"
            | "limitToLast"
            | "startAfter"
    )
}

/// The name of a function node, and whether it is the callback of a scheduler (`cron.schedule(.., fn)`)
/// or a function expression whose own name, beside the one it is assigned to, is a job's.
fn function_name<'t>(x: &Extractor<'t>, n: Node<'t>) -> (Option<String>, bool) {
    let parent = x.parents.of(n);
    // A named function expression is called by the name it is assigned to (`reporter.
    // _profilesCleanup = async function profilesCleanup () {..}`); its own name is seen only
    // inside it.
    let assigned = parent.is_some_and(|p| {
        matches!(
            p.k(),
            "variable_declarator" | "pair" | "assignment_expression"
        )
    });
    let own = x.field(n, "name");
    if let Some(name) = own.filter(|_| !assigned) {
        return (Some(x.text(name).to_string()), false);
    }
    let Some(parent) = parent else {
        return (None, false);
    };
    // (Its own name still says what it is: `exports.run = function nightlyRollup () {..}`.)
    let own_periodic = own.is_some_and(|o| name_is_periodic_in(x.text(o), x.request_file));
    let (name, periodic) = match parent.k() {
        "variable_declarator" => (
            x.field(parent, "name").map(|p| x.text(p).to_string()),
            false,
        ),
        "pair" => (x.field(parent, "key").map(|p| x.text(p).to_string()), false),
        "assignment_expression" => (
            x.field(parent, "left").map(|p| x.text(p).to_string()),
            false,
        ),
        "arguments" => {
            let call = x.parents.of(parent);
            let callee = call
                .and_then(|c| x.field(c, "function").or_else(|| x.field(c, "constructor")))
                .map(|f| x.text(f))
                .unwrap_or("");
            let periodic = is_scheduler(callee);
            // An Express-style route handler is named by its route: `router.get /orders/:id`.
            let route = call.and_then(|c| {
                let verb = callee.rsplit('.').next()?;
                if !matches!(verb, "get" | "post" | "put" | "patch" | "delete" | "all") {
                    return None;
                }
                let first = x.args(c).into_iter().next()?;
                x.string_value(first).map(|p| format!("{callee} {p}"))
            });
            (route, periodic)
        }
        // Steps handed over in a list: `ctx.migration.registerChannel('vjudge', [async () =>
        // {..}, ..])` (Hydro's plugins), each run once by the migration runner.
        "array" => {
            let callee = x
                .parents
                .of(parent)
                .filter(|a| a.k() == "arguments")
                .and_then(|a| x.parents.of(a))
                .and_then(|c| x.field(c, "function"))
                .map(|f| x.text(f))
                .unwrap_or("");
            (None, runs_migrations(callee))
        }
        _ => (None, false),
    };
    (name, periodic || own_periodic)
}

/// A call that runs its function argument on a schedule: `setInterval(fn, ms)`, node-cron's
/// A `skip` modifier whose amount is a name (`.skip(skip)`): the only skip a guard on a name
/// can cap (see `Extractor::capped_names`).
fn skips_by_a_name(m: &Modifier) -> bool {
    m.name == "skip"
        && m.args.first().is_some_and(|a| {
            matches!(&a.kind, ValueKind::Unknown(u)
                if u.text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$'))
        })
}

/// `cron.schedule('0 * * * *', fn)`, Agenda's `agenda.define(name, fn)`, `agenda.every(..)`.
fn is_scheduler(callee: &str) -> bool {
    runs_migrations(callee)
        || matches!(
            callee,
            "setInterval"
                | "cron.schedule"
                | "schedule.scheduleJob"
                | "CronJob"
                | "nodeCron.schedule"
        )
        || callee.ends_with(".define") && callee.contains("agenda")
        || callee.ends_with(".every")
        || callee.ends_with(".setInterval")
        || callee.ends_with("scheduleJob")
        || callee.ends_with("cron.schedule")
}

/// A call that registers or runs data migrations (`ctx.migration.registerChannel(..)`,
/// `migrations.add(fn)`): the functions it is handed run once, at an upgrade.
fn runs_migrations(callee: &str) -> bool {
    // (The text is ruled out first: a callee can be a whole function, `(async () => {..})()`.)
    let b = callee.as_bytes();
    memchr::memchr2_iter(b'm', b'M', b)
        .any(|i| b[i..].len() >= 9 && b[i..i + 9].eq_ignore_ascii_case(b"migration"))
        && crate::lang::naming::for_each_word(callee, |w| matches!(w, "migration" | "migrations"))
}

/// Whether an expression's text (`options?.resolver ? options.resolver(name) : prefix(name)`)
/// uses the name `name` as a value (`name`), not only as an object it reads through
/// (`options?.resolver`, `options.resolver(..)`, `options[k]`).
fn passes_value(text: &str, name: &str) -> bool {
    let bytes = text.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    memchr::memmem::find_iter(bytes, name.as_bytes()).any(|at| {
        let end = at + name.len();
        (at == 0 || !is_ident(bytes[at - 1]) && bytes[at - 1] != b'.')
            && bytes
                .get(end)
                .is_none_or(|&b| !is_ident(b) && !matches!(b, b'.' | b'?' | b'['))
    })
}

/// A member of an update or its options that an operation reads (`$addToSet`, `skip`, `limit`,
/// `sort`, `pagination`), not a key of a document.
fn is_operator_or_option(member: &str) -> bool {
    member.starts_with('$') || matches!(member, "skip" | "limit" | "sort" | "pagination")
}

/// A byte of a JavaScript identifier (ASCII): a letter, a digit, `_` or `$`.
fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// A base class's property that holds the model its subclass hands it (`this.MongooseModel`,
/// `this._model`, `this.collection`, `this.col`): see `Extractor::super_model`.
fn is_model_property(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.contains("model") || lower.contains("collection") || matches!(name, "col" | "coll")
}

/// A callback that runs once per item: the body passed to `items.forEach(..)` / `.map(..)`, or to
/// a utility library's iteration over its first argument (`_.each(data, fn)`,
/// `async.eachSeries(forms, fn, done)`, Bluebird's `Promise.map(ids, fn)`). Gives the span of
/// the iterating call and what it iterates over (`items`, `data`, `forms`). Only the per-item
/// callback counts: not `async.each`'s completion callback, nor the driver's old
/// `cursor.forEach(iterator, end)` end callback.
fn iteration_callback<'t>(x: &Extractor<'t>, f: Node<'t>) -> Option<(Span, Option<Node<'t>>)> {
    let call = x.argument_of(f).filter(|c| c.k() == "call_expression")?;
    let callee = x
        .field(call, "function")
        .filter(|c| c.k() == "member_expression")?;
    let method = x.text(x.field(callee, "property")?);
    let object = x.field(callee, "object")?;
    let library = object.k() == "identifier"
        && matches!(
            x.text(object),
            "_" | "lodash" | "underscore" | "async" | "Promise" | "Bluebird" | "$" | "jQuery"
        );
    // async.js's names and aliases (`forEachSeries` is `eachSeries`, `eachOf` also hands the
    // key; `concat`, `detect`, `filter` and their series and limited forms iterate too).
    let per_item = match method {
        "forEach" | "map" | "flatMap" | "reduce" | "filter" | "some" | "every" | "each"
        | "eachSeries" | "mapSeries" => usize::from(library),
        "forEachSeries" | "eachOf" | "eachOfSeries" | "forEachOf" | "forEachOfSeries"
        | "concat" | "concatSeries" | "filterSeries" | "detect" | "detectSeries" | "mapValues"
        | "mapValuesSeries" | "someSeries" | "everySeries" | "reject" | "rejectSeries"
            if library =>
        {
            1
        }
        "eachLimit" | "mapLimit" | "forEachLimit" | "eachOfLimit" | "forEachOfLimit"
        | "concatLimit" | "filterLimit" | "detectLimit" | "mapValuesLimit" | "someLimit"
        | "everyLimit" | "rejectLimit"
            if library =>
        {
            2
        }
        _ => return None,
    };
    let list = x.args(call);
    if list.get(per_item) != Some(&f) {
        return None;
    }
    let items = if library {
        list.first().copied()
    } else {
        Some(object)
    };
    Some((span(call), items))
}

/// A TypeScript annotation that may stand for a MongoDB cursor or a Mongoose query
/// (`FindCursor<T>`, `Cursor`, `Query<T[], T>`), or none at all (or `any`); not TypeORM's
/// `SelectQueryBuilder<T>` or an array.
/// Whether a function's text spells a load of one document (`findOne`, `findById`, `create(`).
fn spells_a_load(text: &[u8]) -> bool {
    static FIND: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"find"));
    static CREATE: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"create("));
    FIND.find_iter(text).any(|at| {
        let rest = &text[at + 4..];
        rest.starts_with(b"One") || rest.starts_with(b"ById")
    }) || CREATE.find(text).is_some()
}

/// A collection or model imported from another module (`local` the name it is used by, at
/// `at`), for the linker to name: `Post`, `models.Posts`, a model by its capital; anything else
/// a driver's collection.
fn imported_collection(import: ImportRef, local: String, at: Node) -> CollectionRef {
    let model = local
        .rsplit('.')
        .next()
        .is_some_and(|l| l.starts_with(|c: char| c.is_ascii_uppercase()));
    CollectionRef {
        via: if model {
            CollectionVia::MongooseModel
        } else {
            CollectionVia::Driver
        },
        name: CollectionName::Unknown { text: local },
        span: span(at),
        import: Some(import),
    }
}

/// `null` or `undefined`: no value.
fn is_nothing(n: Node) -> bool {
    matches!(n.k(), "null" | "undefined")
}

/// A query builder's modifier that adds conditions to the filter (`.where("f")`, `.gt(v)`).
fn is_condition(m: &Modifier) -> bool {
    super::vocabulary::CONDITION_MODIFIERS.contains(&m.name.as_str())
}

fn cursor_type(annotation: Option<&str>) -> bool {
    annotation.is_none_or(|t| {
        let t = t.trim_start_matches(':').trim_start();
        // (Through the module's namespace: `mongoose.Query<any, any>`.)
        let base = t.split('<').next().unwrap_or(t).trim_end();
        let name = base.rsplit('.').next().unwrap_or(base);
        // (`any` says no more than no annotation: erxes' `paginate(collection: any, params)`.)
        t.contains("Cursor")
            || name.starts_with("Query")
            || t.contains("DocumentQuery")
            || matches!(t, "any" | "unknown")
    })
}

/// A key pattern written out: a document of fields each `1`, `-1` or an index type's name
/// (`"text"`, `"2dsphere"`, `"hashed"`).
fn is_key_pattern(v: &Value) -> bool {
    !v.fields().is_empty()
        && v.fields().iter().all(|f| match &f.value.kind {
            ValueKind::Number(n) => *n == 1.0 || *n == -1.0,
            ValueKind::String(s) => matches!(s.as_str(), "text" | "2dsphere" | "2d" | "hashed"),
            _ => false,
        })
}

fn has_substitution(n: Node) -> bool {
    let mut c = n.walk();
    let found = n
        .named_children(&mut c)
        .any(|c| c.k() == "template_substitution");
    found
}

fn has_option_keys(v: &Value) -> bool {
    v.fields().iter().any(|f| {
        matches!(
            f.key.as_str(),
            "skip"
                | "limit"
                | "sort"
                | "projection"
                | "upsert"
                | "session"
                | "hint"
                | "collation"
                | "returnDocument"
                | "arrayFilters"
                | "maxTimeMS"
                | "comment"
                | "batchSize"
                | "allowDiskUse"
                | "new"
                | "lean"
                | "populate"
        )
    })
}

fn parse_number(t: &str) -> Option<f64> {
    let t = t.replace('_', "");
    let t = t.trim_end_matches('n');
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return i64::from_str_radix(h, 16).ok().map(|x| x as f64);
    }
    t.parse::<f64>().ok()
}

/// An update document: every key an update operator (`{$push: {..}, $set: {..}}`).
fn is_update_document(v: &Value) -> bool {
    let fields = v.fields();
    !fields.is_empty() && fields.iter().all(|f| is_update_operator(&f.key))
}

/// An update operator (`$set`, `$push`, ..).
fn is_update_operator(key: &str) -> bool {
    matches!(
        key,
        "$set"
            | "$unset"
            | "$inc"
            | "$push"
            | "$addToSet"
            | "$pull"
            | "$pullAll"
            | "$pop"
            | "$rename"
            | "$min"
            | "$max"
            | "$mul"
            | "$currentDate"
            | "$setOnInsert"
    )
}

/// The loops open around a node: (loop span, what it iterates over), outermost first.
type OpenLoops = Vec<(Span, Option<LoopOver>)>;

/// A builder call on an aggregation (`Model.aggregate(p).match(..).skip(n)`, or
/// `cursor.skip(n)` on a driver's `AggregationCursor`) adds a stage at the end of the pipeline:
/// appended to `op.pipeline` where the pipeline is known. Anything else is given back, a
/// modifier of the read.
fn builder_stage(op: &mut Operation, md: Modifier) -> Option<Modifier> {
    let builder = op.kind == OpKind::Aggregate
        && (AGGREGATE_BUILDER_STAGES.contains(&md.name.as_str()) || md.name == "append");
    let Some(stages) = op.pipeline.as_mut().filter(|_| builder) else {
        return Some(md);
    };
    if md.name == "append" {
        for a in &md.args {
            match &a.kind {
                ValueKind::Array(xs) => stages.extend(xs.iter().cloned()),
                _ => stages.push(a.clone()),
            }
        }
        return None;
    }
    let key_span = Span::new(
        md.span.start as usize,
        md.span.start as usize + md.name.len(),
    );
    let value = md
        .args
        .first()
        .cloned()
        .unwrap_or_else(|| Value::unknown(md.span, "", false));
    stages.push(Value {
        span: md.span,
        kind: ValueKind::Document(vec![Field {
            key: format!("${}", md.name),
            key_span,
            value,
        }]),
    });
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A client file is parsed for its writes to a collection, not for the DOM's or a helper's
    /// methods of the same names.
    #[test]
    fn client_writes_are_calls_on_collections() {
        for write in [
            "Boards.update({ _id: id }, { $set: { starred: true } });",
            "await Cards.insertAsync(card);",
            "Meteor.users.update(Meteor.userId(), { $set: { x: 1 } });",
            "Boards.direct.upsert (sel, doc);",
            "Attachments.removeAsync(\n  id)",
        ] {
            assert!(may_write_from_client(write), "{write}");
        }
        for other in [
            "el.classList.remove('is-open');",
            "node.parentNode.insertBefore(a, b);",
            "this.remove(item);",
            "progress.updateProgress(3);",
            "const update = Boards.update;",
            ".update(x)",
        ] {
            assert!(!may_write_from_client(other), "{other}");
        }
    }
}
