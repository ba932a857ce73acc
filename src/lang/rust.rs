//! The Rust frontend: the `mongodb` crate (2.x options-as-last-argument API and 3.x fluent API)
//! and the bson `doc!` / `bson!` macros.
//!
//! Two passes over the tree, like the JavaScript frontend. The first records bindings (`let`,
//! parameters, struct fields and their initialisers, `const`/`static` items, `v.push(..)` onto
//! vectors and `d.insert(..)` into documents). The second finds driver calls, resolves their
//! receivers through those bindings and lowers their arguments into IR values.
//!
//! tree-sitter sees a macro body as a flat token tree, so `doc! { .. }`, `bson!(..)`, `vec![..]`
//! and `format!(..)` are parsed here by a small recursive-descent parser over the tokens.

use super::naming::{classify_hole, name_is_periodic, path_is_periodic};
use super::unescape;
use super::vocabulary::{
    rust_operation, Args, OpMethod, RUST_BULK_MODELS, RUST_COLLECTION_GETTERS,
    RUST_DATABASE_GETTERS, RUST_DOC_MACROS, RUST_MODIFIERS, RUST_OPTION_BUILDERS,
};
use super::FileContext;
use crate::ir::*;
use crate::lang::KindOf;
use crate::lang::{HashMap, HashSet};
use std::cell::RefCell;
use tree_sitter::{Node, Tree};

/// How deep value lowering, macro parsing and receiver resolution may recurse.
const MAX_DEPTH: usize = 32;

/// The most steps `Extractor::classify` takes to answer one question (see there).
const CLASSIFY_STEPS: u32 = 4096;

/// How Rust spells what `lang::size_guards` reads.
const RUST_GUARDS: super::GuardSyntax = super::GuardSyntax {
    boundaries: &["function_item", "closure_expression", "source_file"],
    ifs: &["if_expression"],
    blocks: &["block"],
    exits: &[
        "return_expression",
        "continue_expression",
        "break_expression",
    ],
    asserts: &[],
};

/// Whether a return type names the driver's collection type (`Collection<Device>`,
/// `mongodb::Collection<T>`), tested on the bytes: a substring searcher's set-up per method costs
/// more than the test.
fn names_collection_type(t: &str) -> bool {
    memchr::memchr_iter(b'C', t.as_bytes()).any(|i| t[i..].starts_with("Collection"))
}

/// Called through `lang::extract`, which sets this thread's grammar tables.
pub(crate) fn extract(tree: &Tree, text: &str, ctx: &FileContext) -> FileIr {
    let mut x = Extractor {
        src: text,
        bindings: HashMap::default(),
        scope_index: HashMap::default(),
        fields: HashMap::default(),
        consts: HashMap::default(),
        pushes: HashMap::default(),
        inserts: HashMap::default(),
        reassigned: HashSet::default(),
        traits: Vec::new(),
        impls: Vec::new(),
        collection_methods: HashMap::default(),
        getters: HashMap::default(),
        index_lists: Vec::new(),
        // (`doc!` alone: bson's macro, imported once for the crate by `#[macro_use] extern
        // crate bson;` in its root, revolt's database models.)
        uses_mongo: text.contains("mongodb") || text.contains("bson") || text.contains("doc!"),
        // Macro bodies are read token by token (`doc! { "a": 1 }`): their punctuation stays.
        parents: std::rc::Rc::new(super::flat::Flat::keeping_children_of(
            tree.root_node(),
            "token_tree",
        )),
        file_periodic: path_is_periodic(ctx.display_path),
        typed_collections: Vec::new(),
        classify_steps: std::cell::Cell::new(0),
        consumed: RefCell::new(HashSet::default()),
        ir: FileIr::default(),
    };
    let root = tree.root_node();
    x.collect_bindings(root);
    x.scope_index = super::scopes::index_all(&x.bindings, |b| (b.scope.start, b.scope.end, b.pos));
    x.trait_getters();
    x.collection_methods();
    x.collect_operations(root);
    x.note_typed_bindings();
    x.trait_impls();
    x.finish()
}

fn span(n: Node) -> Span {
    Span::new(n.start_byte(), n.end_byte())
}

fn span_of(first: Node, last: Node) -> Span {
    Span::new(first.start_byte(), last.end_byte())
}

fn is_scope(kind: &str) -> bool {
    matches!(kind, "function_item" | "closure_expression")
}

fn is_loop(kind: &str) -> bool {
    matches!(
        kind,
        "for_expression" | "while_expression" | "loop_expression"
    )
}

fn is_comment(kind: &str) -> bool {
    kind == "line_comment" || kind == "block_comment"
}

/// Iterator adapters whose closure runs once per item.
fn is_iteration_method(name: &str) -> bool {
    matches!(
        name,
        "for_each"
            | "map"
            | "filter_map"
            | "flat_map"
            | "then"
            | "for_each_concurrent"
            | "try_for_each"
            | "try_for_each_concurrent"
            | "fold"
            | "try_fold"
            | "filter"
            | "and_then"
    )
}

struct Binding<'t> {
    /// Scope the binding is visible in (function, closure or file span).
    scope: Span,
    pos: u32,
    value: Option<Node<'t>>,
    type_text: Option<&'t str>,
}

/// What an expression is, as far as the driver is concerned.
#[derive(Clone, Debug)]
enum Thing {
    Client,
    Db,
    Collection(CollectionRef),
    /// A method of a type, `Station::cl()`, that may be a trait's collection getter another file
    /// declares (see [`RUST_TYPES`]): the linker decides, and an operation on it stays unresolved
    /// (and without evidence from its receiver) until it does.
    Imported(CollectionRef),
    Unknown,
}

/// A builder chain (`FindOptions::builder().skip(n).build()`) or a struct literal
/// (`FindOptions { skip: Some(n), .. }`): a type and its named settings.
struct Chain {
    ty: String,
    ty_span: Span,
    span: Span,
    steps: Vec<Step>,
}

struct Step {
    name: String,
    name_span: Span,
    /// End of the call (or the struct field initialiser).
    end: u32,
    args: Vec<Value>,
}

impl Chain {
    /// The settings as a document: `{skip: n, limit: 10}`.
    fn to_doc(&self) -> Value {
        let fields = self
            .steps
            .iter()
            .filter(|s| !matches!(s.name.as_str(), "build" | "into" | "unwrap" | "clone"))
            .map(|s| Field {
                key: s.name.clone(),
                key_span: s.name_span,
                value: s.args.first().cloned().unwrap_or(Value {
                    span: s.name_span,
                    kind: ValueKind::Bool(true),
                }),
            })
            .collect();
        Value {
            span: self.span,
            kind: ValueKind::Document(fields),
        }
    }

    /// Cursor settings spelled as options become modifiers (`FindOptions::builder().skip(n)`).
    fn modifiers(&self) -> Vec<Modifier> {
        self.steps
            .iter()
            .filter(|s| matches!(s.name.as_str(), "skip" | "limit" | "sort" | "projection"))
            .filter_map(|s| {
                Some(Modifier {
                    name: s.name.clone(),
                    args: vec![s.args.first()?.clone()],
                    span: Span::new(s.name_span.start as usize, s.end as usize),
                })
            })
            .collect()
    }
}

/// A struct field: its declared type and/or an initialiser.
type FieldDecl<'t> = (Option<&'t str>, Option<Node<'t>>);

/// Classes of node kinds for the passes over every node (see `lang::KindFlags`).
mod kinds {
    /// `is_scope`: functions and closures.
    pub const SCOPE: u16 = 1;
    /// `is_loop`.
    pub const LOOP: u16 = 1 << 1;
    /// What `collect_bindings` reads (see `binding_node`).
    pub const BINDING: u16 = 1 << 2;
    pub const CALL: u16 = 1 << 3;
    pub const STRUCT: u16 = 1 << 4;
    pub const MACRO: u16 = 1 << 5;
    /// A block: the scope of the `let`s written in it (`collect_bindings`).
    pub const BLOCK: u16 = 1 << 6;

    pub fn classify(kind: &str) -> u16 {
        let mut f = 0;
        if super::is_scope(kind) {
            f |= SCOPE;
        }
        if super::is_loop(kind) {
            f |= LOOP;
        }
        if matches!(
            kind,
            "let_declaration"
                | "parameter"
                | "field_declaration"
                | "field_initializer"
                | "shorthand_field_initializer"
                | "const_item"
                | "static_item"
                | "call_expression"
                | "assignment_expression"
                | "closure_parameters"
                | "trait_item"
                | "impl_item"
                | "for_expression"
        ) {
            f |= BINDING;
        }
        f | match kind {
            "call_expression" => CALL,
            "struct_expression" => STRUCT,
            "macro_invocation" => MACRO,
            "block" => BLOCK,
            _ => 0,
        }
    }

    pub static FLAGS: crate::lang::KindFlags = crate::lang::KindFlags::new(classify);
}

struct Extractor<'t> {
    src: &'t str,
    /// The tree in preorder: parent links, child lists and walks without tree-sitter's cursor.
    parents: std::rc::Rc<super::flat::Flat<'t>>,
    bindings: HashMap<String, Vec<Binding<'t>>>,
    /// `bindings` by scope, for `lookup`.
    scope_index: HashMap<String, super::scopes::ScopeIndex>,
    /// Struct fields by name: declared type and/or initialiser (`Self { orders: db.collection(..) }`).
    fields: HashMap<String, Vec<FieldDecl<'t>>>,
    /// `const` / `static` items (also associated consts) by name.
    consts: HashMap<String, Vec<Node<'t>>>,
    /// `v.push(x)` / `v.extend(xs)`: name → (position, is extend, argument).
    pushes: HashMap<String, Vec<(u32, bool, Node<'t>)>>,
    /// `d.insert("key", value)`: name → (position, key, value).
    inserts: HashMap<String, Vec<(u32, Node<'t>, Node<'t>)>>,
    /// Names assigned after their declaration (`name = ..`): not constant.
    reassigned: HashSet<String>,
    /// `trait` definitions and `impl` blocks, in source order.
    traits: Vec<Node<'t>>,
    impls: Vec<Node<'t>>,
    /// The collection methods of this file's `impl` blocks (see `collection_methods`): method →
    /// the collection it opens ("" for a name two methods open differently).
    collection_methods: HashMap<&'t str, String>,
    /// The collection getters of this file's traits (see `trait_getters`): (trait, method) → the
    /// associated constant that names the collection.
    getters: HashMap<(String, String), String>,
    /// The index lists of this file's traits (see `index_list`): (trait, method, getter, the
    /// trait's own declaration says nothing more than its implementations).
    index_lists: Vec<(String, String, String, bool)>,
    uses_mongo: bool,
    file_periodic: bool,
    /// The collections the application's document types are kept in, as this file names them
    /// (see `note_typed_collection`): (the type, the collection).
    typed_collections: Vec<(String, String)>,
    /// The steps `classify` has taken for the question it answers.
    classify_steps: std::cell::Cell<u32>,
    /// Builder chains and struct literals consumed as options or models of an operation.
    consumed: RefCell<HashSet<usize>>,
    ir: FileIr,
}

impl<'t> Extractor<'t> {
    fn field(&self, n: Node<'t>, name: &'static str) -> Option<Node<'t>> {
        self.parents.field(n, name)
    }

    fn text(&self, n: Node) -> &'t str {
        // Slicing the `&str` checks two char boundaries; `utf8_text` re-validated every byte.
        self.src.get(n.byte_range()).unwrap_or("")
    }

    /// The sizes checked against an upper bound before `n` (see `lang::size_guards`):
    /// `if post.tags.len() < MAX_TAGS { .. }`, `if post.tags.len() >= MAX_TAGS { return ..; }`.
    fn size_guards(&self, n: Node<'t>) -> Vec<String> {
        super::size_guards(&self.parents, self.src, n, &RUST_GUARDS, |c, exit, out| {
            super::binary_sizes(&self.parents, self.src, c, exit, out, &|m| self.len_of(m))
        })
    }

    /// What `measured` takes the `.len()` of, as text.
    fn len_of(&self, measured: Node<'t>) -> Option<String> {
        if measured.k() != "call_expression" {
            return None;
        }
        let f = self
            .field(measured, "function")
            .filter(|f| f.k() == "field_expression")?;
        if self.field(f, "field").map(|x| self.text(x)) != Some("len") {
            return None;
        }
        Some(self.text(self.field(f, "value")?).to_string())
    }

    fn named_children(&self, n: Node<'t>) -> Vec<Node<'t>> {
        self.parents
            .children(n)
            .filter(|c| c.is_named() && !is_comment(c.k()))
            .collect()
    }

    fn args(&self, call: Node<'t>) -> Vec<Node<'t>> {
        match self.field(call, "arguments") {
            Some(a) => self.named_children(a),
            None => Vec::new(),
        }
    }

    /// `recv.method(args)` / `recv.method::<T>(args)` → (receiver, method name node, turbofish).
    fn method_call(&self, call: Node<'t>) -> Option<(Node<'t>, Node<'t>, bool)> {
        if call.k() != "call_expression" {
            return None;
        }
        let mut f = self.field(call, "function")?;
        let mut turbofish = false;
        if f.k() == "generic_function" {
            f = self.field(f, "function")?;
            turbofish = true;
        }
        if f.k() != "field_expression" {
            return None;
        }
        let recv = self.field(f, "value")?;
        let name = self.field(f, "field")?;
        Some((recv, name, turbofish))
    }

    /// The string a literal spells, for `"..."` and raw strings.
    fn string_value(&self, n: Node) -> Option<String> {
        let (content, _) = string_content(n.k(), self.text(n))?;
        Some(if n.k() == "string_literal" {
            unescape(content)
        } else {
            content.to_string()
        })
    }

    // ---------------------------------------------------------------- pass 1: bindings

    fn add_binding(&mut self, name: &str, b: Binding<'t>) {
        super::add_binding(&mut self.bindings, name, b);
    }

    fn collect_bindings(&mut self, root: Node<'t>) {
        let mut scopes: Vec<Span> = vec![span(root)];
        let mut nodes: Vec<(Node<'t>, Span)> = Vec::new();
        let flags = kinds::FLAGS.table();
        self.parents
            .clone()
            .walk_flagged(root, flags, |n, f, enter| {
                // A `let` is seen in the rest of its block (not after a loop's body that wrote
                // it: boom's `let catalog` in one loop, `for catalog in names` in the next).
                if enter {
                    if f & (kinds::SCOPE | kinds::BLOCK) != 0 {
                        scopes.push(span(n));
                    }
                    if f & kinds::BINDING != 0 {
                        nodes.push((n, *scopes.last().unwrap()));
                    }
                } else if f & (kinds::SCOPE | kinds::BLOCK) != 0 {
                    scopes.pop();
                }
            });
        self.bindings.reserve(nodes.len());
        for (n, scope) in nodes {
            self.binding_node(n, scope);
        }
    }

    fn binding_node(&mut self, n: Node<'t>, scope: Span) {
        let pos = n.start_byte() as u32;
        match n.k() {
            "let_declaration" => {
                let Some(pat) = self.field(n, "pattern") else {
                    return;
                };
                if pat.k() != "identifier" {
                    return;
                }
                let value = self.field(n, "value");
                let type_text = self.field(n, "type").map(|t| self.text(t));
                // The binding is visible after the statement.
                let pos = n.end_byte() as u32;
                self.add_binding(
                    self.text(pat),
                    Binding {
                        scope,
                        pos,
                        value,
                        type_text,
                    },
                );
            }
            // `for catalog in names { .. }`: the loop's variable, in its body, shadows what is
            // named so around it.
            "for_expression" => {
                let (Some(pat), Some(body)) = (self.field(n, "pattern"), self.field(n, "body"))
                else {
                    return;
                };
                if pat.k() != "identifier" {
                    return;
                }
                self.add_binding(
                    self.text(pat),
                    Binding {
                        scope: span(body),
                        pos: body.start_byte() as u32,
                        value: None,
                        type_text: None,
                    },
                );
            }
            "parameter" => {
                let Some(pat) = self.field(n, "pattern") else {
                    return;
                };
                if pat.k() != "identifier" {
                    return;
                }
                let type_text = self.field(n, "type").map(|t| self.text(t));
                self.add_binding(
                    self.text(pat),
                    Binding {
                        scope,
                        pos,
                        value: None,
                        type_text,
                    },
                );
            }
            "closure_parameters" => {
                // Untyped closure parameters shadow outer names.
                for p in self.named_children(n) {
                    if p.k() == "identifier" {
                        self.add_binding(
                            self.text(p),
                            Binding {
                                scope,
                                pos,
                                value: None,
                                type_text: None,
                            },
                        );
                    }
                }
            }
            "field_declaration" => {
                let (Some(name), Some(ty)) = (self.field(n, "name"), self.field(n, "type")) else {
                    return;
                };
                let (name, ty) = (self.text(name), self.text(ty));
                self.fields
                    .entry(name.to_string())
                    .or_default()
                    .push((Some(ty), None));
            }
            "field_initializer" => {
                let (Some(name), Some(value)) = (self.field(n, "field"), self.field(n, "value"))
                else {
                    return;
                };
                let name = self.text(name);
                self.fields
                    .entry(name.to_string())
                    .or_default()
                    .push((None, Some(value)));
            }
            "shorthand_field_initializer" => {
                if let Some(id) = self.named_children(n).into_iter().next() {
                    let name = self.text(id);
                    self.fields
                        .entry(name.to_string())
                        .or_default()
                        .push((None, Some(id)));
                }
            }
            "const_item" | "static_item" => {
                let (Some(name), Some(value)) = (self.field(n, "name"), self.field(n, "value"))
                else {
                    return;
                };
                let name = self.text(name);
                self.consts.entry(name.to_string()).or_default().push(value);
            }
            "trait_item" => self.traits.push(n),
            "impl_item" => self.impls.push(n),
            "assignment_expression" => {
                if let Some(left) = self.field(n, "left") {
                    if left.k() == "identifier" {
                        self.reassigned.insert(self.text(left).to_string());
                    }
                }
            }
            "call_expression" => {
                let Some((recv, name, _)) = self.method_call(n) else {
                    return;
                };
                if recv.k() != "identifier" {
                    return;
                }
                let var = self.text(recv).to_string();
                let args = self.args(n);
                match self.text(name) {
                    "push" | "extend" if args.len() == 1 => {
                        let extend = self.text(name) == "extend";
                        self.pushes
                            .entry(var)
                            .or_default()
                            .push((pos, extend, args[0]));
                    }
                    "insert" if args.len() == 2 && self.string_value(args[0]).is_some() => {
                        self.inserts
                            .entry(var)
                            .or_default()
                            .push((pos, args[0], args[1]));
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }

    fn lookup(&self, name: &str, at: u32) -> Option<&Binding<'t>> {
        let list = self.bindings.get(name)?;
        let index = self.scope_index.get(name)?;
        super::scopes::lookup(list, index, at, |b| b.pos <= at, |b, cur| b.pos > cur.pos)
    }

    /// A `const`/`static` item's value by name; `Self::COLLECTION`, `GuildConfig::COLLECTION` by
    /// their last segment when the file defines exactly one item of that name.
    fn const_value(&self, name: &str) -> Option<Node<'t>> {
        let last = name.rsplit("::").next().unwrap_or(name);
        match self.consts.get(last).map(|v| v.as_slice()) {
            Some([one]) => Some(*one),
            _ => None,
        }
    }

    // ---------------------------------------------------------------- traits

    /// `Path::method(..)` / `Path::method::<T>(..)` → (path, method name).
    fn scoped_call(&self, call: Node<'t>) -> Option<(Node<'t>, &'t str)> {
        if call.k() != "call_expression" {
            return None;
        }
        let mut f = self.field(call, "function")?;
        if f.k() == "generic_function" {
            f = self.field(f, "function")?;
        }
        if f.k() != "scoped_identifier" {
            return None;
        }
        Some((self.field(f, "path")?, self.text(self.field(f, "name")?)))
    }

    /// What `Self` is at `n`: `(type, trait)` in `impl Trait for X` / `impl X`, `("Self", trait)`
    /// in `trait Trait { .. }`: the innermost of this file's `impl` blocks and traits around it.
    fn self_type(&self, n: Node<'t>) -> Option<(&'t str, Option<&'t str>)> {
        let at = n.start_byte();
        let around = |b: &Node<'t>| b.start_byte() <= at && at < b.end_byte();
        let block = self
            .impls
            .iter()
            .chain(&self.traits)
            .filter(|b| around(b))
            .max_by_key(|b| b.start_byte())?;
        if block.k() == "trait_item" {
            return Some(("Self", Some(self.text(self.field(*block, "name")?))));
        }
        let ty = type_name(self.text(self.field(*block, "type")?))?;
        let tr = self
            .field(*block, "trait")
            .and_then(|t| type_name(self.text(t)));
        Some((ty, tr))
    }

    /// `X::m()`, `crate::models::X::m()`, `<X as Trait>::m()`, or `Self::m()` inside `impl
    /// [Trait for] X`: a method of a type, without arguments, that may be a trait's collection
    /// getter (`Station::cl()`, see [`ExportTarget::AssociatedCollection`]); the linker looks it
    /// up among the exports of every Rust file. `Self::m()` inside the trait itself is any
    /// implementer's collection: it stays unknown. Also `Job::coll(db)`, `m::Job::coll(db.clone())`:
    /// an associated function of a type given one argument and named for a collection, which a
    /// file of the repository may export as opening one (see `collection_methods`), looked up as
    /// `<Job::coll() as _>::NAME`.
    fn type_method_ref(&self, call: Node<'t>) -> Option<CollectionRef> {
        let (path, method) = self.scoped_call(call)?;
        let args = self.args(call);
        let export = if !args.is_empty() {
            // (Named for what it returns: `coll`, `collection`, `get_col`.)
            if args.len() != 1
                || !method.contains("col")
                || !self.uses_mongo
                || path.k() == "bracketed_type"
            {
                return None;
            }
            let ty = type_name(self.text(path))?;
            if !ty.starts_with(|c: char| c.is_ascii_uppercase()) || ty == "Self" {
                return None;
            }
            format!("<{ty}::{method}() as _>::NAME")
        } else if path.k() == "bracketed_type" {
            let q = self
                .named_children(path)
                .into_iter()
                .find(|c| c.k() == "qualified_type")?;
            let ty = type_name(self.text(self.field(q, "type")?))?;
            let tr = type_name(self.text(self.field(q, "alias")?))?;
            format!("<{ty} as {tr}>::{method}")
        } else {
            let ty = match self.text(path) {
                "Self" => self.self_type(call)?.0,
                p => type_name(p)?,
            };
            if !ty.starts_with(|c: char| c.is_ascii_uppercase()) || ty == "Self" {
                return None;
            }
            format!("{ty}::{method}")
        };
        Some(CollectionRef {
            name: CollectionName::Unknown {
                text: crate::lang::first_chars(self.text(call), 80),
            },
            span: span(call),
            via: CollectionVia::Driver,
            import: Some(ImportRef {
                module: RUST_TYPES.to_string(),
                export,
            }),
        })
    }

    /// The value a function body ends with: its tail expression, or a final `return x;`.
    fn tail(&self, body: Node<'t>) -> Option<Node<'t>> {
        let last = *self.named_children(body).last()?;
        match last.k() {
            "expression_statement" => {
                let inner = self.named_children(last).into_iter().next()?;
                (inner.k() == "return_expression")
                    .then(|| self.named_children(inner).into_iter().next())
                    .flatten()
            }
            k if k.ends_with("_item") || k == "let_declaration" || k == "empty_statement" => None,
            _ => Some(last),
        }
    }

    /// Finds the collection methods of this file's `impl` blocks (see `collection_methods`): a
    /// method whose one parameter is `self` and whose return type is a `Collection`, ending in
    /// `<db>.collection("devices")`, or in a call of a method of the same block given the name,
    /// `self.coll("devices")`, that ends in `<db>.collection(n)` of its other parameter `n` (m87's
    /// `Store::devices`). They are exported as `<.devices() as mongodb::Collection>::NAME`, for
    /// other files' `db.devices()`.
    fn collection_methods(&mut self) {
        if !self.uses_mongo {
            return;
        }
        let mut found: HashMap<&'t str, String> = HashMap::default();
        let mut assoc = Vec::new();
        for &block in &self.impls {
            let Some(body) = self.field(block, "body") else {
                continue;
            };
            for f in self.parents.children(body) {
                // (The return type first: few methods return a collection.)
                let returns_collection = f.k() == "function_item"
                    && self
                        .field(f, "return_type")
                        .is_some_and(|t| names_collection_type(self.text(t)));
                if !returns_collection {
                    continue;
                }
                let (Some(name), Some(params), Some(fbody)) = (
                    self.field(f, "name"),
                    self.field(f, "parameters"),
                    self.field(f, "body"),
                ) else {
                    continue;
                };
                let mut ps = self.parents.children(params).filter(|p| p.is_named());
                let (only_self, one_param) = match (ps.next(), ps.next()) {
                    (Some(p), None) => (p.k() == "self_parameter", p.k() == "parameter"),
                    _ => (false, false),
                };
                // An associated function given the database (`Job::coll(db)`, lila-deepq's
                // models): `<Job::coll() as mongodb::Collection>::NAME`, for `Job::coll(..)`
                // calls in every file (see `type_method_ref`).
                if one_param {
                    let ty = self
                        .field(block, "type")
                        .and_then(|t| type_name(self.text(t)));
                    let opened = self.tail(fbody).and_then(|t| self.opened_name(t));
                    if let (Some(ty), Some(collection)) = (ty, opened) {
                        assoc.push((format!("{ty}::{}()", self.text(name)), collection));
                    }
                    continue;
                }
                let Some(tail) = self.tail(fbody).filter(|_| only_self) else {
                    continue;
                };
                let opened = self.opened_name(tail).or_else(|| self.opened_through(tail));
                if let Some(collection) = opened {
                    let entry = found
                        .entry(self.text(name))
                        .or_insert_with(|| collection.clone());
                    if *entry != collection {
                        entry.clear();
                    }
                }
            }
        }
        for (m, name) in &found {
            self.typed_collections
                .push((format!(".{m}()"), name.clone()));
        }
        self.typed_collections.extend(assoc);
        self.collection_methods = found;
    }

    /// The collection `value` opens when it is `<db>.collection("x")` (or `::<T>`) with a
    /// literal name.
    fn opened_name(&self, value: Node<'t>) -> Option<String> {
        let (_, m, _) = self.method_call(self.unwrap_value(value))?;
        if !RUST_COLLECTION_GETTERS.contains(&self.text(m)) {
            return None;
        }
        match self.classify(value, 0) {
            Thing::Collection(CollectionRef {
                name: CollectionName::Literal { name },
                ..
            }) => Some(name),
            _ => None,
        }
    }

    /// The collection `value`, `self.coll("x")`, opens when `coll` is a method of the same `impl`
    /// (`helper_def`) that ends in `<db>.collection(n)` of its one parameter `n` besides `self`.
    fn opened_through(&self, value: Node<'t>) -> Option<String> {
        let value = self.unwrap_value(value);
        let [arg] = self.args(value)[..] else {
            return None;
        };
        let name = self.string_value(self.unwrap_value(arg))?;
        let helper = self.helper_def(value)?;
        let param = match &self.named_children(self.field(helper, "parameters")?)[..] {
            [s, p] if s.k() == "self_parameter" && p.k() == "parameter" => {
                self.text(self.field(*p, "pattern")?)
            }
            _ => return None,
        };
        let tail = self.unwrap_value(self.tail(self.field(helper, "body")?)?);
        let (_, getter, _) = self.method_call(tail)?;
        let opens = RUST_COLLECTION_GETTERS.contains(&self.text(getter))
            && matches!(&self.args(tail)[..], [a] if self.text(*a) == param);
        opens.then_some(name)
    }

    /// The methods of a trait or `impl` block with a body and no parameters (associated
    /// functions, `fn cl() -> Collection<Self>`), whose return type mentions `returning`:
    /// (name, the value the body ends with).
    fn static_methods(&self, block: Node<'t>, returning: &str) -> Vec<(&'t str, Node<'t>)> {
        let Some(body) = self.field(block, "body") else {
            return Vec::new();
        };
        self.named_children(body)
            .into_iter()
            .filter(|f| f.k() == "function_item")
            .filter_map(|f| {
                let params = self.field(f, "parameters")?;
                let ret = self.text(self.field(f, "return_type")?);
                if !self.named_children(params).is_empty() || !ret.contains(returning) {
                    return None;
                }
                Some((
                    self.text(self.field(f, "name")?),
                    self.tail(self.field(f, "body")?)?,
                ))
            })
            .collect()
    }

    /// Finds the collection getters of this file's traits (see `getters`): a method without
    /// parameters that returns a `Collection`, `<db>.collection(Self::NAME)` (a collection getter
    /// of the driver whose name is an associated constant of the implementer) or another getter
    /// of the trait (`fn cl() -> Collection<Self> { Self::cl_as() }`).
    fn trait_getters(&mut self) {
        let mut found: HashMap<(String, String), String> = HashMap::default();
        for &t in &self.traits {
            let Some(name) = self.field(t, "name").map(|n| self.text(n)) else {
                continue;
            };
            let methods = self.static_methods(t, "Collection");
            // A getter may return one written after it: until nothing changes.
            for _ in 0..=methods.len() {
                let mut changed = false;
                for (m, tail) in &methods {
                    let key = (name.to_string(), m.to_string());
                    if found.contains_key(&key) {
                        continue;
                    }
                    if let Some(c) = self.getter_constant(name, *tail, &found, 0) {
                        found.insert(key, c);
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
        }
        self.getters = found;
    }

    /// The associated constant that names the collection `n` is, in trait `tr`: `db.collection(
    /// Self::CL_NAME)`, `Self::cl_as()` for a getter `cl_as` of `tr` already `found`, or a `let`
    /// bound to one of those.
    fn getter_constant(
        &self,
        tr: &str,
        n: Node<'t>,
        found: &HashMap<(String, String), String>,
        depth: usize,
    ) -> Option<String> {
        if depth > 8 {
            return None;
        }
        let u = self.unwrap_value(n);
        match u.k() {
            "identifier" => {
                let name = self.text(u);
                let v = self.lookup(name, u.start_byte() as u32)?.value?;
                if self.reassigned.contains(name) {
                    return None;
                }
                self.getter_constant(tr, v, found, depth + 1)
            }
            "call_expression" => {
                if let Some((_, method, _)) = self.method_call(u) {
                    if !RUST_COLLECTION_GETTERS.contains(&self.text(method))
                        || !matches!(self.classify_call(u, 0), Thing::Collection(_))
                    {
                        return None;
                    }
                    let name = self.unwrap_value(*self.args(u).first()?);
                    let path = self.field(name, "path")?;
                    return (name.k() == "scoped_identifier" && self.text(path) == "Self")
                        .then(|| self.field(name, "name").map(|c| self.text(c).to_string()))
                        .flatten();
                }
                let (path, method) = self.scoped_call(u)?;
                if self.text(path) != "Self" || !self.args(u).is_empty() {
                    return None;
                }
                found.get(&(tr.to_string(), method.to_string())).cloned()
            }
            _ => None,
        }
    }

    /// A default method of a trait that creates index models the trait's implementations
    /// return on one of its collection getters: `Self::cl().create_indexes(Self::indexes(), None)`,
    /// or through a `let`. Records the list (see `index_lists`) and gives the declaration its
    /// collection, every implementer's: `<Self as Trait>::indexes` (see
    /// [`ExportTarget::IndexModels`]).
    fn index_list(&mut self, recv: Node<'t>, models: Node<'t>) -> Option<CollectionRef> {
        let (ty, Some(tr)) = self.self_type(recv)? else {
            return None;
        };
        let (path, getter) = self.scoped_call(self.unwrap_value(recv))?;
        if ty != "Self"
            || self.text(path) != "Self"
            || !self
                .getters
                .contains_key(&(tr.to_string(), getter.to_string()))
        {
            return None;
        }
        let mut list = self.unwrap_value(models);
        for _ in 0..8 {
            if list.k() != "identifier" {
                break;
            }
            let name = self.text(list);
            let v = self.lookup(name, list.start_byte() as u32)?.value?;
            if self.reassigned.contains(name) {
                return None;
            }
            list = self.unwrap_value(v);
        }
        let (path, method) = self.scoped_call(list)?;
        if self.text(path) != "Self" || !self.args(list).is_empty() {
            return None;
        }
        // The trait's own list: none (a required method), or one that returns no index, and an
        // implementation that does not override it declares nothing.
        let trait_item = self
            .traits
            .iter()
            .copied()
            .find(|t| self.field(*t, "name").is_some_and(|n| self.text(n) == tr))?;
        let own = self.field(trait_item, "body").and_then(|b| {
            self.named_children(b).into_iter().find(|f| {
                matches!(f.k(), "function_item" | "function_signature_item")
                    && self
                        .field(*f, "name")
                        .is_some_and(|n| self.text(n) == method)
            })
        })?;
        let replaced = match self.field(own, "body") {
            None => true,
            Some(body) => self.tail(body).is_some_and(|t| self.is_empty_list(t)),
        };
        self.index_lists.push((
            tr.to_string(),
            method.to_string(),
            getter.to_string(),
            replaced,
        ));
        Some(CollectionRef {
            name: CollectionName::Unknown {
                text: crate::lang::first_chars(self.text(recv), 80),
            },
            span: span(recv),
            via: CollectionVia::Driver,
            import: Some(ImportRef {
                module: RUST_TYPES.to_string(),
                export: format!("<Self as {tr}>::{method}"),
            }),
        })
    }

    /// `vec![]`, `Vec::new()`, `[]`.
    fn is_empty_list(&self, n: Node<'t>) -> bool {
        let u = self.unwrap_value(n);
        match u.k() {
            "macro_invocation" => {
                self.macro_name(u) == Some("vec")
                    && self.macro_tokens(u).is_some_and(|t| t.is_empty())
            }
            "array_expression" => self.named_children(u).is_empty(),
            "call_expression" => {
                self.args(u).is_empty()
                    && self
                        .field(u, "function")
                        .is_some_and(|f| matches!(self.text(f), "Vec::new" | "vec::Vec::new"))
            }
            _ => false,
        }
    }

    /// What this file's traits and their implementations tell other files (see [`RUST_TYPES`]):
    /// each trait's collection getters and index lists, each `impl Trait for X`'s string
    /// constants; and the index models an `impl Trait for X` returns from a method without
    /// parameters that returns `IndexModel`s (`fn indexes() -> Vec<IndexModel>`), as index
    /// declarations on the collection the linker finds for `<X as Trait>::indexes`, should the
    /// trait create that list on one of its getters.
    fn trait_impls(&mut self) {
        let mut exports: Vec<Export> = Vec::new();
        for ((tr, m), constant) in &self.getters {
            exports.push(Export {
                name: format!("{tr}::{m}"),
                target: ExportTarget::AssociatedCollection {
                    constant: constant.clone(),
                },
            });
        }
        self.typed_collections.sort_unstable();
        self.typed_collections.dedup();
        for (ty, name) in &self.typed_collections {
            exports.push(Export {
                name: typed_collection_export(ty),
                target: ExportTarget::Constant {
                    value: name.clone(),
                },
            });
        }
        self.index_lists.sort_unstable();
        self.index_lists.dedup();
        for (tr, m, getter, replaced) in &self.index_lists {
            exports.push(Export {
                name: format!("{tr}::{m}"),
                target: ExportTarget::IndexModels {
                    getter: getter.clone(),
                    replaced: *replaced,
                },
            });
        }
        for &block in &self.impls {
            let (Some(ty), Some(tr)) = (
                self.field(block, "type")
                    .and_then(|t| type_name(self.text(t))),
                self.field(block, "trait")
                    .and_then(|t| type_name(self.text(t))),
            ) else {
                continue;
            };
            let Some(body) = self.field(block, "body") else {
                continue;
            };
            for c in self.named_children(body) {
                let (Some(name), Some(value)) = (self.field(c, "name"), self.field(c, "value"))
                else {
                    continue;
                };
                if c.k() != "const_item" {
                    continue;
                }
                if let CollectionName::Literal { name: value } = self.collection_name(value, 0) {
                    exports.push(Export {
                        name: format!("<{ty} as {tr}>::{}", self.text(name)),
                        target: ExportTarget::Constant { value },
                    });
                }
            }
            for (method, tail) in self.static_methods(block, "IndexModel") {
                if self.is_empty_list(tail) {
                    continue;
                }
                let collection = CollectionRef {
                    name: CollectionName::Unknown {
                        text: format!("<{ty} as {tr}>::{method}()"),
                    },
                    span: span(tail),
                    via: CollectionVia::Driver,
                    import: Some(ImportRef {
                        module: RUST_TYPES.to_string(),
                        export: format!("<{ty} as {tr}>::{method}"),
                    }),
                };
                let lowered = self.lower(tail, 0);
                let models = match &lowered.kind {
                    ValueKind::Array(items) => items.clone(),
                    _ => vec![lowered],
                };
                for model in models {
                    let mut op =
                        Operation::new(OpKind::CreateIndex, "IndexModel", model.span, model.span);
                    // A model that cannot be read is a declaration whose keys are unknown.
                    if let Some(keys) = model.get("keys") {
                        op.filter = Some(keys.value.clone());
                        op.options = model.get("options").map(|o| o.value.clone());
                    }
                    op.collection = Some(collection.clone());
                    op.context.function = Some(method.to_string());
                    op.receiver = format!("{ty}::{method}()");
                    self.ir.operations.push(op);
                }
            }
        }
        // (A constant given two values, under `#[cfg(..)]`s, is two exports: the linker then
        // resolves neither.)
        exports.sort_by(|a, b| a.name.cmp(&b.name));
        self.ir.exports.extend(exports);
    }

    // ---------------------------------------------------------------- resolution

    /// Strips what does not change the value: `&x`, `(x)`, `x.await`, `x?`, `*x`.
    fn unwrap_expr(&self, mut n: Node<'t>) -> Node<'t> {
        for _ in 0..MAX_DEPTH {
            match n.k() {
                "reference_expression" => match self.field(n, "value") {
                    Some(v) => n = v,
                    None => return n,
                },
                "parenthesized_expression"
                | "await_expression"
                | "try_expression"
                | "unary_expression"
                    if n.k() != "unary_expression" || self.text(n).starts_with('*') =>
                {
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

    /// `x.clone()`, `x.as_str()`, `Some(x)`, `x.into()` → `x`.
    fn unwrap_value(&self, n: Node<'t>) -> Node<'t> {
        let mut n = self.unwrap_expr(n);
        for _ in 0..MAX_DEPTH {
            if n.k() != "call_expression" {
                return n;
            }
            if let Some((recv, name, _)) = self.method_call(n) {
                let passthrough = matches!(
                    self.text(name),
                    "clone"
                        | "as_str"
                        | "as_ref"
                        | "to_owned"
                        | "to_string"
                        | "into"
                        | "borrow"
                        | "as_document"
                        | "as_array"
                        | "unwrap"
                ) && self.args(n).is_empty();
                if passthrough || (self.text(name) == "expect" && self.args(n).len() == 1) {
                    n = self.unwrap_expr(recv);
                    continue;
                }
                return n;
            }
            let f = self.field(n, "function");
            if f.is_some_and(|f| f.k() == "identifier" && self.text(f) == "Some") {
                if let [a] = self.args(n).as_slice() {
                    n = self.unwrap_expr(*a);
                    continue;
                }
            }
            return n;
        }
        n
    }

    /// `self` in a method of a type named for a collection with an associated constant
    /// (inx-chronicle's `impl MongoDbCollection for BlockCollection { const NAME: &str =
    /// "stardust_blocks"; .. }`, then `impl BlockCollection { .. self.aggregate(..) }` through the
    /// application's extension trait): that collection, when this file names it; otherwise the
    /// linker's to find (see [`RUST_TYPES`]).
    fn self_collection(&self, n: Node<'t>) -> Thing {
        let mut cur = self.parents.of(n);
        while let Some(p) = cur {
            if p.k() == "impl_item" {
                break;
            }
            cur = self.parents.of(p);
        }
        let Some(ty) = cur.and_then(|i| self.field(i, "type")) else {
            return Thing::Unknown;
        };
        let ty = self.text(ty);
        for &block in &self.impls {
            if self.field(block, "type").map(|t| self.text(t)) != Some(ty) {
                continue;
            }
            let Some(body) = self.field(block, "body") else {
                continue;
            };
            for c in self.named_children(body) {
                if c.k() != "const_item" {
                    continue;
                }
                let named = self
                    .field(c, "name")
                    .is_some_and(|k| RUST_COLLECTION_CONSTANTS.contains(&self.text(k)));
                if let Some(name) = self
                    .field(c, "value")
                    .filter(|_| named)
                    .and_then(|v| self.string_value(v))
                {
                    return Thing::Collection(CollectionRef {
                        name: CollectionName::Literal { name },
                        span: span(n),
                        via: CollectionVia::Driver,
                        import: None,
                    });
                }
            }
        }
        // Named in another file (inx-chronicle's `impl OutputCollection` of index declarations
        // in `outputs/indexer/mod.rs`, its `NAME` in `outputs/mod.rs`): the linker looks the
        // constant up among every file's implementations, `<OutputCollection as _>::NAME`.
        match type_name(ty) {
            Some(ty) if ty.starts_with(|c: char| c.is_ascii_uppercase()) => {
                Thing::Imported(CollectionRef {
                    name: CollectionName::Unknown {
                        text: "self".to_string(),
                    },
                    span: span(n),
                    via: CollectionVia::Driver,
                    import: Some(ImportRef {
                        module: RUST_TYPES.to_string(),
                        export: format!("<{ty} as _>::NAME"),
                    }),
                })
            }
            _ => Thing::Unknown,
        }
    }

    fn classify(&self, n: Node<'t>, depth: usize) -> Thing {
        // Each name may have several bindings and each field several declarations, all
        // followed: the steps one question may take are counted, so that names that lead to
        // each other (`S0 { db: x.db.clone() }` for eight structs that each have a `db`) cost
        // thousands of steps, not eight to the depth.
        if depth == 0 {
            self.classify_steps.set(0);
        }
        let steps = self.classify_steps.get() + 1;
        self.classify_steps.set(steps);
        if depth > MAX_DEPTH || steps > CLASSIFY_STEPS {
            return Thing::Unknown;
        }
        let n = self.unwrap_expr(n);
        match n.k() {
            "self" => self.self_collection(n),
            "identifier" => match self.lookup(self.text(n), n.start_byte() as u32) {
                Some(b) => self.classify_binding(b, depth + 1),
                None => Thing::Unknown,
            },
            "field_expression" => {
                let Some(field) = self.field(n, "field") else {
                    return Thing::Unknown;
                };
                self.classify_field(self.text(field), depth + 1)
            }
            "call_expression" => self.classify_call(n, depth),
            _ => Thing::Unknown,
        }
    }

    fn classify_binding(&self, b: &Binding<'t>, depth: usize) -> Thing {
        // The value names the collection where the type only says it is one: `let acts:
        // Collection<Activity> = client.database("Options").collection("Activity");`.
        let valued = || match b.value {
            Some(v) => self.classify(v, depth),
            None => Thing::Unknown,
        };
        if let Some(t) = b.type_text {
            match thing_from_type(t) {
                Thing::Unknown => {}
                typed @ Thing::Collection(_) => {
                    return match valued() {
                        named @ Thing::Collection(_) => named,
                        _ => typed,
                    };
                }
                thing => return thing,
            }
        }
        valued()
    }

    /// A field of a struct this file neither declares nor builds (`ctx.votes_coll`, the struct
    /// built in `main.rs`): the collection the repository's initialisers give a field of that
    /// name, should they give it one (see `note_typed_bindings`), for the linker to decide.
    fn field_of_elsewhere(&self, recv: Node<'t>) -> Option<CollectionRef> {
        let recv = self.unwrap_expr(recv);
        let field = self
            .field(recv, "field")
            .filter(|_| recv.k() == "field_expression")?;
        let name = self.text(field);
        if self.fields.contains_key(name) {
            return None;
        }
        Some(CollectionRef {
            name: CollectionName::Unknown {
                text: self.text(recv).to_string(),
            },
            span: span(recv),
            via: CollectionVia::Driver,
            import: Some(ImportRef {
                module: RUST_TYPES.to_string(),
                export: format!("<.{name} as _>::NAME"),
            }),
        })
    }

    /// `self.orders` / `state.orders`: a struct field of this file typed `Collection<T>` or
    /// initialised with `db.collection(..)`.
    fn classify_field(&self, name: &str, depth: usize) -> Thing {
        let Some(list) = self.fields.get(name) else {
            return Thing::Unknown;
        };
        let mut typed = Thing::Unknown;
        for (ty, value) in list {
            if let Some(v) = value {
                if let Thing::Collection(r) = self.classify(*v, depth + 1) {
                    return Thing::Collection(r);
                }
            }
            if let Some(t) = ty {
                let th = thing_from_type(t);
                if !matches!(th, Thing::Unknown) {
                    typed = th;
                }
            }
        }
        typed
    }

    fn classify_call(&self, call: Node<'t>, depth: usize) -> Thing {
        if let Some(r) = self.type_method_ref(call) {
            return Thing::Imported(r);
        }
        if let Some(f) = self.field(call, "function") {
            if f.k() == "scoped_identifier" {
                // `Client::with_uri_str(..)`, `mongodb::Client::with_options(..)`.
                let t = self.text(f);
                if t.ends_with("Client::with_uri_str") || t.ends_with("Client::with_options") {
                    return Thing::Client;
                }
                return Thing::Unknown;
            }
        }
        let Some((recv, name, turbofish)) = self.method_call(call) else {
            return Thing::Unknown;
        };
        let method = self.text(name);
        let args = self.args(call);
        if RUST_COLLECTION_GETTERS.contains(&method) && !args.is_empty() {
            return match self.classify(recv, depth + 1) {
                Thing::Db => Thing::Collection(self.collection_ref(args[0])),
                Thing::Unknown | Thing::Imported(_) if turbofish || self.uses_mongo => {
                    Thing::Collection(self.collection_ref(args[0]))
                }
                _ => Thing::Unknown,
            };
        }
        if RUST_DATABASE_GETTERS.contains(&method) {
            return match self.classify(recv, depth + 1) {
                Thing::Client => Thing::Db,
                Thing::Unknown | Thing::Imported(_) if self.uses_mongo => Thing::Db,
                _ => Thing::Unknown,
            };
        }
        // `self.devices()`, `store.devices()`: a collection method of the file's types.
        if args.is_empty() {
            if let Some(name) = self
                .collection_methods
                .get(method)
                .filter(|n| !n.is_empty())
            {
                return Thing::Collection(CollectionRef {
                    name: CollectionName::Literal { name: name.clone() },
                    span: span(call),
                    via: CollectionVia::Driver,
                    import: None,
                });
            }
        }
        // A typed accessor of the application: `self.col::<Message>(COL)` with `COL` a constant name.
        if turbofish && self.uses_mongo && args.len() == 1 {
            let r = self.collection_ref(args[0]);
            if matches!(r.name, CollectionName::Literal { .. }) {
                return Thing::Collection(r);
            }
        }
        if matches!(
            method,
            "clone" | "as_ref" | "unwrap" | "expect" | "to_owned" | "clone_with_type"
        ) {
            return self.classify(recv, depth + 1);
        }
        Thing::Unknown
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
        let n = self.unwrap_value(n);
        let unknown = || CollectionName::Unknown {
            text: crate::lang::first_chars(self.text(n), 80),
        };
        if depth > 8 {
            return unknown();
        }
        if let Some(s) = self.string_value(n) {
            return CollectionName::Literal { name: s };
        }
        match n.k() {
            "macro_invocation" if self.macro_name(n) == Some("format") => {
                let Some(tt) = self.macro_tokens(n) else {
                    return unknown();
                };
                match self.format_parts(&tt, depth) {
                    Some(parts) if parts.iter().any(|p| matches!(p, NamePart::Hole { .. })) => {
                        CollectionName::Template { parts }
                    }
                    Some(parts) => CollectionName::Literal {
                        name: parts
                            .iter()
                            .map(|p| match p {
                                NamePart::Literal { text } => text.as_str(),
                                NamePart::Hole { text, .. } => text.as_str(),
                            })
                            .collect(),
                    },
                    None => unknown(),
                }
            }
            "identifier" => {
                let name = self.text(n);
                if let Some(b) = self.lookup(name, n.start_byte() as u32) {
                    if let (Some(v), false) = (b.value, self.reassigned.contains(name)) {
                        return self.collection_name(v, depth + 1);
                    }
                    return unknown();
                }
                match self.const_value(name) {
                    Some(v) => self.collection_name(v, depth + 1),
                    None => unknown(),
                }
            }
            "scoped_identifier" => match self.const_value(self.text(n)) {
                Some(v) => self.collection_name(v, depth + 1),
                None => unknown(),
            },
            _ => unknown(),
        }
    }

    // ---------------------------------------------------------------- macros

    fn macro_name(&self, n: Node<'t>) -> Option<&'t str> {
        let m = self.field(n, "macro")?;
        let t = self.text(m);
        // The part after the last `::` (`t.rsplit("::").next()`, without a substring searcher).
        let b = t.as_bytes();
        Some(match memchr::memrchr(b':', b) {
            None => t,
            Some(i) if i > 0 && b[i - 1] == b':' => &t[i + 1..],
            Some(_) => t.rsplit("::").next().unwrap_or(t),
        })
    }

    /// The tokens inside a macro invocation's delimiters.
    fn macro_tokens(&self, n: Node<'t>) -> Option<Vec<Node<'t>>> {
        let tt = self.parents.children(n).find(|c| c.k() == "token_tree")?;
        Some(self.tree_tokens(tt))
    }

    /// The tokens of a token tree, without its delimiters and comments (the flat tree holds every
    /// child of a token tree).
    fn tree_tokens(&self, tt: Node<'t>) -> Vec<Node<'t>> {
        let all: Vec<Node<'t>> = self
            .parents
            .children(tt)
            .filter(|c| !is_comment(c.k()))
            .collect();
        let delimited = |i: usize| {
            all.get(i)
                .is_some_and(|c| matches!(c.k(), "{" | "}" | "(" | ")" | "[" | "]"))
        };
        let start = usize::from(delimited(0));
        let end = if all.len() > start && delimited(all.len() - 1) {
            all.len() - 1
        } else {
            all.len()
        };
        all[start..end.max(start)].to_vec()
    }

    fn delimiter(&self, tt: Node<'t>) -> &'static str {
        match tt.child(0).map(|c| c.k()) {
            Some("{") => "{",
            Some("[") => "[",
            Some("(") => "(",
            _ => "",
        }
    }

    /// Splits tokens at top-level commas (nested groups are single token trees already).
    fn split_commas<'a>(&self, toks: &'a [Node<'t>]) -> Vec<&'a [Node<'t>]> {
        toks.split(|t| t.k() == ",")
            .filter(|s| !s.is_empty())
            .collect()
    }

    /// `doc! { "a": 1, "b": { .. } }`: the tokens inside the braces.
    fn parse_doc(&self, toks: &[Node<'t>], sp: Span, depth: usize) -> Value {
        if depth > MAX_DEPTH {
            return Value::unknown(sp, &self.src[sp.start as usize..sp.end as usize], false);
        }
        let mut fields = Vec::new();
        for entry in self.split_commas(toks) {
            let Some(colon) = entry.iter().position(|t| t.k() == ":") else {
                continue;
            };
            let (key_toks, val_toks) = (&entry[..colon], &entry[colon + 1..]);
            let (Some(first), Some(last)) = (key_toks.first(), key_toks.last()) else {
                continue;
            };
            let key = match (key_toks.len(), self.string_value(*first)) {
                (1, Some(s)) => s,
                // `doc! { field_name: v }`: the key is the variable's value, computed as
                // JavaScript's `{ [field]: v }` is, and spelt so.
                (1, None) if first.k() == "identifier" => format!("[{}]", self.text(*first)),
                _ => self.key_text(key_toks),
            };
            let value = if val_toks.is_empty() {
                Value::unknown(span(entry[colon]), "", false)
            } else {
                self.parse_value(val_toks, depth + 1)
            };
            fields.push(Field {
                key,
                key_span: span_of(*first, *last),
                value,
            });
        }
        Value {
            span: sp,
            kind: ValueKind::Document(fields),
        }
    }

    /// A computed key: `format!("reactions.{emoji}")` keeps its format string; anything else its text.
    fn key_text(&self, toks: &[Node<'t>]) -> String {
        if let [m, bang, tt] = toks {
            if self.text(*m) == "format" && bang.k() == "!" && tt.k() == "token_tree" {
                if let Some(s) = self
                    .tree_tokens(*tt)
                    .first()
                    .and_then(|f| self.string_value(*f))
                {
                    return s;
                }
            }
        }
        let sp = span_of(toks[0], toks[toks.len() - 1]);
        self.src[sp.start as usize..sp.end as usize].to_string()
    }

    fn parse_list(&self, toks: &[Node<'t>], depth: usize) -> Vec<Value> {
        self.split_commas(toks)
            .into_iter()
            .map(|e| self.parse_value(e, depth + 1))
            .collect()
    }

    /// One value inside a macro body: the tokens between two top-level commas.
    fn parse_value(&self, toks: &[Node<'t>], depth: usize) -> Value {
        let sp = span_of(toks[0], toks[toks.len() - 1]);
        let text = &self.src[sp.start as usize..sp.end as usize];
        if depth > MAX_DEPTH {
            return Value::unknown(sp, text, false);
        }
        let kind = match toks {
            [tt] if tt.k() == "token_tree" => {
                let inner = self.tree_tokens(*tt);
                match self.delimiter(*tt) {
                    "{" => return self.parse_doc(&inner, sp, depth + 1),
                    "[" => ValueKind::Array(self.parse_list(&inner, depth)),
                    "(" if !inner.is_empty() => {
                        let mut v = self.parse_value(&inner, depth + 1);
                        v.span = sp;
                        return v;
                    }
                    _ => return Value::unknown(sp, text, false),
                }
            }
            [lit] if literal_kind(lit.k()) => match self.literal(*lit) {
                Some(k) => k,
                None => return Value::unknown(sp, text, false),
            },
            [minus, lit] if minus.k() == "-" && lit.k().ends_with("_literal") => {
                match self.literal(*lit) {
                    Some(ValueKind::Number(x)) => ValueKind::Number(-x),
                    _ => return Value::unknown(sp, text, false),
                }
            }
            [id] if id.k() == "identifier" => match self.text(*id) {
                "null" | "None" => ValueKind::Null,
                name => return self.lower_name(name, *id, depth),
            },
            [amp, id] if amp.k() == "&" && id.k() == "identifier" => {
                return self.lower_name(self.text(*id), *id, depth).with_span(sp);
            }
            [m, bang, tt] if bang.k() == "!" && tt.k() == "token_tree" => {
                let inner = self.tree_tokens(*tt);
                match self.text(*m) {
                    "doc" => return self.parse_doc(&inner, sp, depth + 1),
                    "bson" if !inner.is_empty() => {
                        let mut v = self.parse_value(&inner, depth + 1);
                        v.span = sp;
                        return v;
                    }
                    "vec" => ValueKind::Array(self.parse_list(&inner, depth)),
                    _ => return Value::unknown(sp, text, false),
                }
            }
            [some, tt]
                if some.k() == "identifier"
                    && self.text(*some) == "Some"
                    && tt.k() == "token_tree" =>
            {
                let inner = self.tree_tokens(*tt);
                if inner.is_empty() {
                    return Value::unknown(sp, text, false);
                }
                return self.parse_value(&inner, depth + 1);
            }
            _ => {
                if let Some(chain) = self.token_chain(toks, depth) {
                    return chain.to_doc();
                }
                return Value::unknown(sp, text, is_name_tokens(toks));
            }
        };
        Value { span: sp, kind }
    }

    fn literal(&self, n: Node<'t>) -> Option<ValueKind> {
        match n.k() {
            "integer_literal" | "float_literal" => {
                parse_number(self.text(n)).map(ValueKind::Number)
            }
            "string_literal" | "raw_string_literal" => self.string_value(n).map(ValueKind::String),
            "boolean_literal" => Some(ValueKind::Bool(self.text(n) == "true")),
            _ => None,
        }
    }

    /// `IndexModel::builder().keys(doc!{..}).build()` spelled inside a macro body (`vec![..]`).
    fn token_chain(&self, toks: &[Node<'t>], depth: usize) -> Option<Chain> {
        let i = toks.windows(4).position(|w| {
            w[0].k() == "identifier"
                && w[1].k() == "::"
                && self.text(w[2]) == "builder"
                && w[3].k() == "token_tree"
        })?;
        if !toks[..i]
            .iter()
            .all(|t| matches!(t.k(), "identifier" | "::" | "crate" | "super"))
        {
            return None;
        }
        let mut steps = Vec::new();
        let mut j = i + 4;
        while j + 2 < toks.len()
            && toks[j].k() == "."
            && toks[j + 1].k() == "identifier"
            && toks[j + 2].k() == "token_tree"
        {
            let inner = self.tree_tokens(toks[j + 2]);
            steps.push(Step {
                name: self.text(toks[j + 1]).to_string(),
                name_span: span(toks[j + 1]),
                end: toks[j + 2].end_byte() as u32,
                args: self.parse_list(&inner, depth),
            });
            j += 3;
        }
        Some(Chain {
            ty: self.text(toks[i]).to_string(),
            ty_span: span(toks[i]),
            span: span_of(toks[0], toks[toks.len() - 1]),
            steps,
        })
    }

    /// `format!("events_{}", day)` → literal parts and holes.
    fn format_parts(&self, toks: &[Node<'t>], depth: usize) -> Option<Vec<NamePart>> {
        let fmt = *toks.first()?;
        let (raw, prefix) = string_content(fmt.k(), self.text(fmt))?;
        let content_start = fmt.start_byte() + prefix;
        let args = self.split_commas(&toks[1..]);
        let mut positional: Vec<&[Node<'t>]> = Vec::new();
        let mut named: HashMap<&str, &[Node<'t>]> = HashMap::default();
        for a in args {
            if a.len() >= 3 && a[0].k() == "identifier" && a[1].k() == "=" && a[2].k() != "=" {
                named.insert(self.text(a[0]), &a[2..]);
            } else {
                positional.push(a);
            }
        }
        let mut parts: Vec<NamePart> = Vec::new();
        let mut lit = String::new();
        let mut next = 0usize;
        let bytes = raw.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            if c == b'{' && bytes.get(i + 1) == Some(&b'{') {
                lit.push('{');
                i += 2;
                continue;
            }
            if c == b'}' && bytes.get(i + 1) == Some(&b'}') {
                lit.push('}');
                i += 2;
                continue;
            }
            if c == b'{' {
                let close = raw[i..].find('}').map(|p| p + i)?;
                let inner = &raw[i + 1..close];
                let arg_ref = inner.split(':').next().unwrap_or("").trim();
                if !lit.is_empty() {
                    parts.push(NamePart::Literal {
                        text: std::mem::take(&mut lit),
                    });
                }
                let hole = if arg_ref.is_empty() {
                    next += 1;
                    positional.get(next - 1).map(|t| self.token_hole(t, depth))
                } else if let Ok(k) = arg_ref.parse::<usize>() {
                    positional.get(k).map(|t| self.token_hole(t, depth))
                } else if let Some(t) = named.get(arg_ref) {
                    Some(self.token_hole(t, depth))
                } else {
                    // An inline capture: `format!("events_{tenant_id}")`.
                    let at = content_start + i + 1;
                    let sp = Span::new(at, at + arg_ref.len());
                    let mut texts = vec![arg_ref.to_string()];
                    texts.extend(self.name_evidence(arg_ref, at as u32));
                    Some(self.hole_from(arg_ref, sp, &texts))
                };
                parts.push(hole?);
                i = close + 1;
                continue;
            }
            let ch = raw[i..].chars().next()?;
            lit.push(ch);
            i += ch.len_utf8();
        }
        if !lit.is_empty() {
            parts.push(NamePart::Literal { text: lit });
        }
        Some(parts)
    }

    /// What else the code says about a name: its `let` value, its parameter type.
    fn name_evidence(&self, name: &str, at: u32) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(b) = self.lookup(name, at) {
            if let Some(v) = b.value {
                out.push(self.text(v).to_string());
            }
            if let Some(t) = b.type_text {
                out.push(t.to_string());
            }
        }
        out
    }

    fn token_hole(&self, toks: &[Node<'t>], depth: usize) -> NamePart {
        let sp = span_of(toks[0], toks[toks.len() - 1]);
        let text = &self.src[sp.start as usize..sp.end as usize];
        let ids: Vec<Node<'t>> = toks
            .iter()
            .copied()
            .filter(|t| t.k() != "&" && t.k() != "*")
            .collect();
        if let [id] = ids.as_slice() {
            if let Some(s) = self.string_value(*id) {
                return NamePart::Literal { text: s };
            }
            if id.k() == "identifier" {
                let name = self.text(*id);
                // A constant string is a literal part, not a hole.
                if depth < 8 && self.lookup(name, id.start_byte() as u32).is_none() {
                    if let Some(s) = self.const_value(name).and_then(|v| self.string_value(v)) {
                        return NamePart::Literal { text: s };
                    }
                }
                let mut texts = vec![text.to_string()];
                texts.extend(self.name_evidence(name, id.start_byte() as u32));
                return self.hole_from(text, sp, &texts);
            }
        }
        self.hole_from(text, sp, &[text.to_string()])
    }

    fn hole_from(&self, text: &str, sp: Span, texts: &[String]) -> NamePart {
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        NamePart::Hole {
            text: crate::lang::first_chars(text, 80),
            hole: classify_hole(&refs),
            span: sp,
        }
    }

    // ---------------------------------------------------------------- values

    /// Lowers an expression (outside macros) into a value.
    fn lower(&self, n: Node<'t>, depth: usize) -> Value {
        let sp = span(n);
        if depth > MAX_DEPTH {
            return Value::unknown(sp, self.text(n), false);
        }
        let inner = self.unwrap_value(n);
        match inner.k() {
            "macro_invocation" => {
                let Some(toks) = self.macro_tokens(inner) else {
                    return Value::unknown(sp, self.text(inner), false);
                };
                let msp = span(inner);
                match self.macro_name(inner) {
                    Some("doc") => self.parse_doc(&toks, msp, depth + 1),
                    Some("bson") if !toks.is_empty() => {
                        let mut v = self.parse_value(&toks, depth + 1);
                        v.span = msp;
                        v
                    }
                    Some("vec") => Value {
                        span: msp,
                        kind: ValueKind::Array(self.parse_list(&toks, depth)),
                    },
                    _ => Value::unknown(msp, self.text(inner), false),
                }
            }
            "array_expression" => Value {
                span: span(inner),
                kind: ValueKind::Array(
                    self.named_children(inner)
                        .into_iter()
                        .map(|c| self.lower(c, depth + 1))
                        .collect(),
                ),
            },
            "identifier" => match self.text(inner) {
                "None" => Value {
                    span: sp,
                    kind: ValueKind::Null,
                },
                name => self.lower_name(name, inner, depth).with_span(sp),
            },
            "unary_expression" if self.text(inner).starts_with('-') => {
                match self
                    .named_children(inner)
                    .first()
                    .map(|c| self.lower(*c, depth + 1))
                {
                    Some(Value {
                        kind: ValueKind::Number(x),
                        ..
                    }) => Value {
                        span: sp,
                        kind: ValueKind::Number(-x),
                    },
                    _ => Value::unknown(sp, self.text(inner), false),
                }
            }
            k if literal_kind(k) => match self.literal(inner) {
                Some(kind) => Value { span: sp, kind },
                None => Value::unknown(sp, self.text(inner), false),
            },
            "field_expression" | "scoped_identifier" => Value::unknown(sp, self.text(inner), true),
            // `let update = if ok { doc! { "$inc": {..} } } else { doc! { "$inc": {..} } }`
            // (dodona's model results): of the documents the branches give, the one that grows
            // an array, else the one that counts (`lang::growing_update`), as JavaScript and
            // Python read a conditional update.
            "if_expression" => {
                let mut tails = Vec::new();
                self.branch_tails(inner, &mut tails, 0);
                let docs: Vec<Value> = tails.iter().map(|t| self.lower(*t, depth + 1)).collect();
                super::growing_update(docs)
                    .unwrap_or_else(|| Value::unknown(sp, self.text(inner), false))
            }
            // `.keys(by_owner_keys())`, a function of the file without parameters that ends in
            // a document (inx-chronicle's `fn newest() -> Document { doc! {..} }`): that
            // document.
            "call_expression"
                if self.args(inner).is_empty()
                    && self
                        .field(inner, "function")
                        .is_some_and(|f| f.k() == "identifier") =>
            {
                match self.helper_def(inner).and_then(|d| self.returned_doc(d)) {
                    Some(tail) => self.lower(tail, depth + 1),
                    None => Value::unknown(sp, self.text(inner), false),
                }
            }
            "call_expression" | "struct_expression" => match self.ast_chain(inner, depth) {
                Some(chain) => chain.to_doc(),
                None => Value::unknown(sp, self.text(inner), false),
            },
            _ => Value::unknown(sp, self.text(inner), false),
        }
    }

    /// The `doc! {..}` a function without parameters ends with: `fn newest() -> Document {
    /// doc! { "address": -1 } }`.
    fn returned_doc(&self, def: Node<'t>) -> Option<Node<'t>> {
        let params = self.field(def, "parameters")?;
        if self.parents.children(params).any(|p| p.is_named()) {
            return None;
        }
        let tail = *self.named_children(self.field(def, "body")?).last()?;
        (tail.k() == "macro_invocation" && self.macro_name(tail) == Some("doc")).then_some(tail)
    }

    /// The values an `if` expression's branches end with (`else if` followed), at most 8.
    fn branch_tails(&self, n: Node<'t>, out: &mut Vec<Node<'t>>, depth: usize) {
        if depth > 8 {
            return;
        }
        let tail = |b: Node<'t>| {
            self.named_children(b)
                .into_iter()
                .last()
                .filter(|e| !e.k().ends_with("statement") && e.k() != "let_declaration")
        };
        if let Some(t) = self.field(n, "consequence").and_then(tail) {
            out.push(t);
        }
        let Some(alt) = self.field(n, "alternative") else {
            return;
        };
        for c in self.named_children(alt) {
            match c.k() {
                "block" => out.extend(tail(c)),
                "if_expression" => self.branch_tails(c, out, depth + 1),
                _ => {}
            }
        }
    }

    /// A name: a `let` bound to a document, vector or literal becomes that value (with the
    /// `push`/`extend`/`insert` calls made on it before `id`); anything else stays unknown.
    fn lower_name(&self, name: &str, id: Node<'t>, depth: usize) -> Value {
        let at = id.start_byte() as u32;
        let unknown = || Value::unknown(span(id), name, true);
        let Some(b) = self.lookup(name, at) else {
            return match self.const_value(name) {
                Some(v) if depth < MAX_DEPTH && literal_kind(v.k()) => self.lower(v, depth + 1),
                _ => unknown(),
            };
        };
        let Some(v) = b.value else { return unknown() };
        if depth >= MAX_DEPTH {
            return unknown();
        }
        let vu = self.unwrap_value(v);
        let is_macro = |m: &str| vu.k() == "macro_invocation" && self.macro_name(vu) == Some(m);
        let in_scope = |pos: u32| {
            pos >= b.pos && pos < at && b.scope.contains(Span::new(pos as usize, pos as usize))
        };
        if is_macro("vec") || vu.k() == "array_expression" {
            let mut base = self.lower(v, depth + 1);
            if let ValueKind::Array(items) = &mut base.kind {
                for (pos, extend, arg) in self.pushes.get(name).map(|v| v.as_slice()).unwrap_or(&[])
                {
                    if !in_scope(*pos) {
                        continue;
                    }
                    let x = self.lower(*arg, depth + 1);
                    match (extend, x.kind) {
                        (true, ValueKind::Array(xs)) => items.extend(xs),
                        (true, _) => {}
                        (false, k) => items.push(Value {
                            span: x.span,
                            kind: k,
                        }),
                    }
                }
            }
            return base;
        }
        if is_macro("doc") {
            let mut base = self.lower(v, depth + 1);
            if let ValueKind::Document(fields) = &mut base.kind {
                for (pos, key, value) in self.inserts.get(name).map(|v| v.as_slice()).unwrap_or(&[])
                {
                    if !in_scope(*pos) {
                        continue;
                    }
                    fields.push(Field {
                        key: self.string_value(*key).unwrap_or_default(),
                        key_span: span(*key),
                        value: self.lower(*value, depth + 1),
                    });
                }
            }
            return base;
        }
        if self.reassigned.contains(name) {
            return unknown();
        }
        if is_macro("bson")
            || literal_kind(vu.k())
            || vu.k() == "if_expression"
            || self.ast_chain(vu, depth + 1).is_some()
        {
            return self.lower(v, depth + 1);
        }
        unknown()
    }

    /// A builder chain (`X::builder().a(..).b(..).build()`) or a struct literal `X { a: .., b: .. }`.
    fn ast_chain(&self, n: Node<'t>, depth: usize) -> Option<Chain> {
        let top = self.unwrap_expr(n);
        if top.k() == "struct_expression" {
            let name = self.field(top, "name")?;
            let ty = self
                .text(name)
                .rsplit("::")
                .next()
                .unwrap_or("")
                .to_string();
            if !RUST_OPTION_BUILDERS.contains(&ty.as_str())
                && !RUST_BULK_MODELS.contains(&ty.as_str())
                && ty != "IndexModel"
                && ty != "IndexOptions"
            {
                return None;
            }
            let body = self.field(top, "body")?;
            let mut steps = Vec::new();
            for f in self.named_children(body) {
                let (field, value) = match f.k() {
                    "field_initializer" => (self.field(f, "field")?, self.field(f, "value")?),
                    "shorthand_field_initializer" => {
                        let id = self.named_children(f).into_iter().next()?;
                        (id, id)
                    }
                    _ => continue,
                };
                steps.push(Step {
                    name: self.text(field).to_string(),
                    name_span: span(field),
                    end: f.end_byte() as u32,
                    args: vec![self.lower(value, depth + 1)],
                });
            }
            return Some(Chain {
                ty,
                ty_span: span(name),
                span: span(top),
                steps,
            });
        }
        let mut cur = top;
        let mut steps = Vec::new();
        for _ in 0..64 {
            if cur.k() != "call_expression" {
                return None;
            }
            let f = self.field(cur, "function")?;
            if f.k() == "scoped_identifier" {
                let name = self.field(f, "name")?;
                if self.text(name) != "builder" {
                    return None;
                }
                let path = self.field(f, "path")?;
                let ty = self
                    .text(path)
                    .rsplit("::")
                    .next()
                    .unwrap_or("")
                    .to_string();
                steps.reverse();
                return Some(Chain {
                    ty,
                    ty_span: span(path),
                    span: span(top),
                    steps,
                });
            }
            let (recv, name, _) = self.method_call(cur)?;
            steps.push(Step {
                name: self.text(name).to_string(),
                name_span: span(name),
                end: cur.end_byte() as u32,
                args: self
                    .args(cur)
                    .into_iter()
                    .map(|a| self.lower(a, depth + 1))
                    .collect(),
            });
            cur = self.unwrap_expr(recv);
        }
        None
    }

    /// The root node of a chain (the `X::builder()` call or the struct literal), for bookkeeping.
    fn chain_root(&self, n: Node<'t>) -> Node<'t> {
        let mut cur = self.unwrap_expr(n);
        for _ in 0..64 {
            match self.method_call(cur) {
                Some((recv, _, _)) => cur = self.unwrap_expr(recv),
                None => return cur,
            }
        }
        cur
    }

    /// Options given as an argument or through `.with_options(..)`: `None`, a builder chain, a
    /// struct literal, or a variable bound to one of those.
    fn lower_options(&self, n: Node<'t>, depth: usize) -> Option<(Value, Vec<Modifier>)> {
        if depth > 8 {
            return None;
        }
        let u = self.unwrap_value(n);
        if u.k() == "identifier" {
            let name = self.text(u);
            if name == "None" {
                return None;
            }
            if let Some(v) = self
                .lookup(name, u.start_byte() as u32)
                .and_then(|b| b.value)
            {
                if !self.reassigned.contains(name) {
                    return self.lower_options(v, depth + 1);
                }
            }
            return Some((Value::unknown(span(n), self.text(n), true), Vec::new()));
        }
        if let Some(chain) = self.ast_chain(u, 0) {
            self.consumed.borrow_mut().insert(self.chain_root(u).id());
            return Some((chain.to_doc(), chain.modifiers()));
        }
        Some((self.lower(n, depth), Vec::new()))
    }

    /// Whether `n` is a parameter typed as index models (`index: IndexModel`, `models:
    /// Vec<IndexModel>`): what a caller passed.
    fn is_index_model_parameter(&self, n: Node<'t>) -> bool {
        let u = self.unwrap_value(n);
        u.k() == "identifier"
            && self
                .lookup(self.text(u), u.start_byte() as u32)
                .is_some_and(|b| {
                    b.value.is_none() && b.type_text.is_some_and(|t| t.contains("IndexModel"))
                })
    }

    /// Index models of `create_index(model)` / `create_indexes([..])`: (keys, options).
    fn index_models(&self, n: Node<'t>, depth: usize) -> Vec<(Option<Value>, Option<Value>)> {
        if depth > 8 {
            return Vec::new();
        }
        let u = self.unwrap_value(n);
        match u.k() {
            "identifier" => match self
                .lookup(self.text(u), u.start_byte() as u32)
                .and_then(|b| b.value)
            {
                Some(v) => self.index_models(v, depth + 1),
                None => Vec::new(),
            },
            "array_expression" => self
                .named_children(u)
                .into_iter()
                .flat_map(|c| self.index_models(c, depth + 1))
                .collect(),
            _ => {
                let v = self.lower(u, depth);
                let docs: Vec<Value> = match v.kind {
                    ValueKind::Array(items) => items,
                    ValueKind::Document(_) => vec![v],
                    _ => Vec::new(),
                };
                if u.k() == "call_expression" {
                    self.consumed.borrow_mut().insert(self.chain_root(u).id());
                }
                docs.into_iter()
                    .filter_map(|d| {
                        let keys = d.get("keys").map(|f| f.value.clone())?;
                        Some((Some(keys), d.get("options").map(|f| f.value.clone())))
                    })
                    .collect()
            }
        }
    }

    // ---------------------------------------------------------------- pass 2: operations

    fn collect_operations(&mut self, root: Node<'t>) {
        let mut calls: Vec<(Node<'t>, OpContext)> = Vec::new();
        let mut chains: Vec<(Node<'t>, OpContext)> = Vec::new();
        let mut vec_macros: Vec<(Node<'t>, OpContext)> = Vec::new();
        // (span, periodic) of enclosing loops; (name, periodic, is iteration closure) of functions.
        let mut loops: Vec<(Span, bool, Option<LoopOver>)> = Vec::new();
        let mut functions: Vec<(String, bool, bool)> = Vec::new();
        let file_periodic = self.file_periodic;
        let flags = kinds::FLAGS.table();
        self.parents
            .clone()
            .walk_flagged(root, flags, |n, f, enter| {
                if enter {
                    if f & kinds::LOOP != 0 {
                        // `loop { interval.tick().await; .. }`: a scheduler loop; so is a `loop`
                        // that sleeps between rounds (`sleep(Duration::from_secs(interval))
                        // .await`: api.starknet.quest's raffle, spawned once). (A `for` or
                        // `while` loop that sleeps is backing off between its items.)
                        let text = self.text(n);
                        let ticking = text.contains(".tick()")
                            || (n.k() == "loop_expression" && text.contains("sleep("));
                        loops.push((span(n), ticking, self.loop_over(n)));
                    } else if f & kinds::SCOPE != 0 {
                        let inherited = functions.last().is_some_and(|f| f.1);
                        let (name, periodic_call, iteration) = self.function_info(n);
                        let periodic = inherited
                            || periodic_call
                            || name.as_deref().is_some_and(name_is_periodic);
                        if let Some(l) = iteration {
                            let over = self.iteration_receiver(n);
                            loops.push((l, false, over));
                        }
                        functions.push((name.unwrap_or_default(), periodic, iteration.is_some()));
                    }
                    // A loop that ticks (`interval.tick().await`) makes every call in it periodic.
                    let ctx = || {
                        super::call_context(
                            loops.last().map(|l| (l.0, l.2.as_ref())),
                            functions.iter().map(|f| f.0.as_str()),
                            file_periodic
                                || functions.last().is_some_and(|f| f.1)
                                || loops.iter().any(|l| l.1),
                        )
                    };
                    match f {
                        _ if f & kinds::CALL != 0 => {
                            calls.push((n, ctx()));
                            if let Some(f) = self.field(n, "function") {
                                if f.k() == "scoped_identifier"
                                    && self
                                        .field(f, "name")
                                        .is_some_and(|x| self.text(x) == "builder")
                                {
                                    chains.push((n, ctx()));
                                }
                            }
                        }
                        _ if f & kinds::STRUCT != 0 => chains.push((n, ctx())),
                        _ if f & kinds::MACRO != 0 && self.macro_name(n) == Some("vec") => {
                            vec_macros.push((n, ctx()))
                        }
                        _ => {}
                    }
                } else if f & kinds::LOOP != 0
                    || (f & kinds::SCOPE != 0 && functions.pop().is_some_and(|f| f.2))
                {
                    // Leaving a loop, or an iteration closure (which pushed its call as a loop).
                    loops.pop();
                }
            });
        // Calls in loops of a function of this file (`info(db, id)`, `Self::info(..)`,
        // `self.info(..)`): a look-up there runs once per iteration (see `HelperRead`).
        let helper_calls: Vec<(Node<'t>, Node<'t>, OpContext)> = calls
            .iter()
            .filter(|(_, c)| c.enclosing_loop.is_some() && !c.periodic)
            .filter_map(|(call, c)| Some((*call, self.helper_def(*call)?, c.clone())))
            .collect();
        for (call, ctx) in calls {
            self.visit_call(call, ctx);
        }
        for (call, def, ctx) in helper_calls {
            self.note_helper_read(call, def, ctx);
        }
        for (root, ctx) in chains {
            self.standalone_chain(root, ctx);
        }
        for (m, ctx) in vec_macros {
            // Bulk-write models spelled inside `vec![..]` are tokens, not expressions.
            let Some(toks) = self.macro_tokens(m) else {
                continue;
            };
            for element in self.split_commas(&toks) {
                if let Some(chain) = self.token_chain(element, 0) {
                    self.bulk_model(&chain, ctx.clone());
                }
            }
        }
    }

    /// The function of this file a call runs: a free function by its name (`info(db, id)`, at
    /// the top of the file or of one of its modules), or a method of the `impl` block around the
    /// call (`Self::info(id)`, `self.info(id)`). `None` when two functions answer to the name.
    fn helper_def(&self, call: Node<'t>) -> Option<Node<'t>> {
        let f = self.field(call, "function")?;
        let (name, own) = match f.k() {
            "identifier" => (self.text(f), false),
            "scoped_identifier"
                if self
                    .field(f, "path")
                    .is_some_and(|p| self.text(p) == "Self") =>
            {
                (self.text(self.field(f, "name")?), true)
            }
            "field_expression"
                if self
                    .field(f, "value")
                    .is_some_and(|v| self.text(v) == "self") =>
            {
                (self.text(self.field(f, "field")?), true)
            }
            _ => return None,
        };
        let mut lists = Vec::new();
        if own {
            let mut up = self.parents.of(call);
            while let Some(p) = up {
                if p.k() == "impl_item" {
                    lists.extend(self.field(p, "body"));
                    break;
                }
                up = self.parents.of(p);
            }
        } else {
            let root = self.parents.root();
            lists.push(root);
            lists.extend(
                self.named_children(root)
                    .into_iter()
                    .filter(|m| m.k() == "mod_item")
                    .filter_map(|m| self.field(m, "body")),
            );
        }
        let mut defs = lists
            .into_iter()
            .flat_map(|l| self.parents.children(l))
            .filter(|d| {
                d.k() == "function_item"
                    && self.field(*d, "name").is_some_and(|n| self.text(n) == name)
            });
        match (defs.next(), defs.next()) {
            (Some(d), None) => Some(d),
            _ => None,
        }
    }

    /// A call in a loop of `def`, a function of this file that is a look-up (one to three reads
    /// outside any loop of its own, varying with its parameters, in a body of a few statements,
    /// see `lang::helper_lookup`): a [`crate::ir::HelperRead`].
    fn note_helper_read(&mut self, call: Node<'t>, def: Node<'t>, ctx: OpContext) {
        let (Some(name), Some(body)) = (self.field(def, "name"), self.field(def, "body")) else {
            return;
        };
        let name = self.text(name);
        if self.named_children(body).len() > 6 {
            return;
        }
        let params: Vec<&str> = self
            .field(def, "parameters")
            .map(|ps| self.named_children(ps))
            .unwrap_or_default()
            .into_iter()
            .filter_map(|p| match p.k() {
                "self_parameter" => Some("self"),
                "parameter" => self
                    .field(p, "pattern")
                    .filter(|x| x.k() == "identifier")
                    .map(|x| self.text(x)),
                _ => None,
            })
            .collect();
        let ops = &self.ir.operations;
        let Some(read) = super::helper_lookup(ops, span(def), Some(span(call)), name, &params)
        else {
            return;
        };
        let defs = |c| self.helper_def(c);
        if super::more_than_a_look_up(&self.parents, self.src, def, read, &params, ops, defs) {
            return;
        }
        let l = ctx.enclosing_loop.unwrap_or_default();
        if super::cached_by_caller(&self.parents, self.src, call, l) {
            return;
        }
        let member = ("field_expression", "field");
        let h = super::helper_read(&self.parents, call, member, name.to_string(), read, ctx);
        self.ir.helper_reads.push(h);
    }

    /// A function's name, whether it is a scheduler callback, and for a closure passed to an
    /// iterator adapter (`items.iter().for_each(|x| ..)`) the span of that call.
    /// What a loop iterates over: `for x in EXPR`, `while let Some(x) = EXPR`; `None` for `loop`
    /// and `while cond`.
    fn loop_over(&self, n: Node<'t>) -> Option<LoopOver> {
        match n.k() {
            "for_expression" => {
                let item = self.field(n, "pattern").map(|p| self.text(p));
                self.field(n, "value").map(|v| {
                    let mut over = super::loop_over_with_item(self.text(v), span(v), item);
                    over.bound_to = self.bound_value(v);
                    over
                })
            }
            "while_expression" => {
                let cond = self.field(n, "condition")?;
                (cond.k() == "let_condition")
                    .then(|| self.field(cond, "value"))
                    .flatten()
                    .map(|v| self.advanced(v))
                    .map(|v| {
                        let mut over = super::loop_over(self.text(v), span(v));
                        over.bound_to = self.bound_value(v);
                        over
                    })
            }
            _ => None,
        }
    }

    /// The expression a loop's iterable is bound to in its function (`items` of `for it in
    /// &items` or `items.iter()` after `let items: Vec<Document> = coll.find(q).await?
    /// .try_collect().await?`; `cursor` after `let mut cursor = coll.find(q).await?`), for the
    /// rules to tell a loop over a query's results.
    fn bound_value(&self, v: Node<'t>) -> Option<Span> {
        let mut cur = v;
        for _ in 0..4 {
            match cur.k() {
                "reference_expression" => cur = self.field(cur, "value")?,
                "call_expression" => {
                    let (recv, name, _) = self.method_call(cur)?;
                    if !matches!(self.text(name), "iter" | "into_iter" | "iter_mut") {
                        return None;
                    }
                    cur = recv;
                }
                _ => break,
            }
        }
        if cur.k() != "identifier" {
            return None;
        }
        let value = self
            .lookup(self.text(cur), cur.start_byte() as u32)?
            .value?;
        (!span(value).contains(span(v))).then(|| span(value))
    }

    /// The cursor a `while let` advances: `relations` in `relations.try_next().await?`,
    /// `cursor.next().await.transpose()?`, `stream.next().await`; else `v` itself.
    fn advanced(&self, v: Node<'t>) -> Node<'t> {
        let mut cur = v;
        for _ in 0..8 {
            match cur.k() {
                "try_expression" | "await_expression" => match self.parents.children(cur).next() {
                    Some(inner) => cur = inner,
                    None => return v,
                },
                "call_expression" => {
                    let Some((recv, name, _)) = self.method_call(cur) else {
                        return v;
                    };
                    match self.text(name) {
                        "unwrap" | "expect" | "transpose" | "ok" => cur = recv,
                        "next" | "try_next" | "advance" => return recv,
                        _ => return v,
                    }
                }
                _ => return v,
            }
        }
        v
    }

    /// The receiver of the iteration method a closure is passed to: `ids` in `ids.iter().map(|id| ..)`.
    fn iteration_receiver(&self, closure: Node<'t>) -> Option<LoopOver> {
        let call = self
            .parents
            .of(closure)
            .filter(|p| p.k() == "arguments")
            .and_then(|a| self.parents.of(a))
            .filter(|c| c.k() == "call_expression")?;
        let (recv, _, _) = self.method_call(call)?;
        Some(super::loop_over(self.text(recv), span(recv)))
    }

    fn function_info(&self, n: Node<'t>) -> (Option<String>, bool, Option<Span>) {
        if let Some(name) = self.field(n, "name") {
            return (Some(self.text(name).to_string()), false, None);
        }
        let Some(call) = self
            .parents
            .of(n)
            .filter(|p| p.k() == "arguments")
            .and_then(|a| self.parents.of(a))
            .filter(|c| c.k() == "call_expression")
        else {
            return (None, false, None);
        };
        if let Some((_, name, _)) = self.method_call(call) {
            if is_iteration_method(self.text(name)) {
                return (None, false, Some(span(call)));
            }
        }
        let callee = self
            .field(call, "function")
            .map(|f| self.text(f))
            .unwrap_or("");
        let periodic = callee.contains("Job::new")
            || callee.ends_with("schedule")
            || callee.ends_with("every")
            || callee.contains("cron");
        (None, periodic, None)
    }

    /// `database.collection::<DBMate>("mates")`, a call of a collection getter: the collection
    /// the application's documents of type `DBMate` are kept in, for the linker to name the
    /// collection of a parameter typed `&Collection<DBMate>` (see [`collection_document_type`]).
    fn note_typed_collection(&mut self, call: Node<'t>) {
        if !self.uses_mongo {
            return;
        }
        let ty = self
            .field(call, "function")
            .filter(|f| f.k() == "generic_function")
            .and_then(|f| self.field(f, "type_arguments"))
            .map(|t| self.text(t).trim_start_matches('<').trim_end_matches('>'))
            .and_then(document_type);
        let args = self.args(call);
        let (Some(ty), [name]) = (ty, args.as_slice()) else {
            return;
        };
        // (One named at run time too: the type then names no one collection.)
        let name = self.typed_name(*name);
        self.typed_collections.push((ty.to_string(), name));
    }

    /// A collection's name as [`typed_collection_export`] and the struct fields export it: the
    /// name; for one ending in a string after a prefix given at run time (`&(prefix.to_owned() +
    /// "groups")`, NetsBlox's configured prefix), that string after `*`, which agrees with that
    /// name written alone (see `link::only_name`); for any other, "", which agrees with none.
    fn typed_name(&self, n: Node<'t>) -> String {
        if let CollectionName::Literal { name } = self.collection_name(n, 0) {
            return name;
        }
        let n = self.unwrap_expr(n);
        let suffix = (n.k() == "binary_expression")
            .then(|| self.field(n, "right"))
            .flatten()
            .and_then(|r| self.string_value(r));
        suffix.map_or_else(String::new, |s| format!("*{s}"))
    }

    /// A struct field initialised with a collection the code names (`Ctx { votes_coll:
    /// db.collection("votes") }` in `main.rs`): what `ctx.votes_coll` is in the files that only
    /// use the struct, as if the field were a type of its own (`.votes_coll`), should the
    /// repository give that field one collection (see `link::link_rust`; every initialiser is
    /// exported, so that a field two give different collections names neither).
    fn note_field_collection(&mut self, call: Node<'t>) {
        let Some(init) = self
            .parents
            .of(call)
            .filter(|p| p.k() == "field_initializer")
        else {
            return;
        };
        let (Some(field), Some(name)) =
            (self.field(init, "field"), self.args(call).first().copied())
        else {
            return;
        };
        let name = self.typed_name(name);
        let field = format!(".{}", self.text(field));
        self.typed_collections.push((field, name));
    }

    /// The same for a name typed `Collection<T>` and bound to a collection the code names: `let
    /// acts: Collection<Activity> = db.collection("activities")`, and a struct's field so typed
    /// and so initialised.
    fn note_typed_bindings(&mut self) {
        if !self.uses_mongo {
            return;
        }
        let mut found = Vec::new();
        let typed = |t: &str| match thing_from_type(t) {
            Thing::Collection(CollectionRef {
                name: CollectionName::Unknown { text },
                ..
            }) => collection_document_type(&text).map(str::to_string),
            _ => None,
        };
        let named = |v: Node<'t>| match self.classify(v, 0) {
            Thing::Collection(CollectionRef {
                name: CollectionName::Literal { name },
                ..
            }) => Some(name),
            _ => None,
        };
        // (The type first: most names are not typed so, and classifying every value is costly.)
        for list in self.bindings.values() {
            for b in list {
                // (A parameter has a type and no value.)
                let (Some(t), Some(v)) = (b.type_text, b.value) else {
                    continue;
                };
                if let Some(ty) = typed(t) {
                    if let Some(name) = named(v) {
                        found.push((ty, name));
                    }
                }
            }
        }
        for (field, list) in &self.fields {
            // A field initialised otherwise than by `db.collection(..)` (which `visit_call`
            // reads): by a name bound to one (`let users = db.collection("users"); AppData {
            // users }`), or by anything else, which may hold another collection (`Holder { logs:
            // &app.users }`), as "": the field's name then names no one collection.
            for v in list.iter().filter_map(|(_, v)| *v) {
                if v.k() != "identifier" && self.text(v).contains("collection") {
                    continue;
                }
                let bound = (v.k() == "identifier")
                    .then(|| self.lookup(self.text(v), v.start_byte() as u32))
                    .flatten()
                    .and_then(|b| b.value)
                    .filter(|b| self.text(*b).contains("collection"));
                let name = bound.and_then(named).unwrap_or_default();
                found.push((format!(".{field}"), name));
            }
            let Some(ty) = list.iter().find_map(|(t, _)| t.and_then(typed)) else {
                continue;
            };
            if let Some(name) = list.iter().find_map(|(_, v)| v.and_then(named)) {
                found.push((ty, name));
            }
        }
        self.typed_collections.extend(found);
    }

    fn visit_call(&mut self, call: Node<'t>, ctx: OpContext) {
        let Some((recv, name, _)) = self.method_call(call) else {
            return;
        };
        let method = self.text(name);
        if RUST_COLLECTION_GETTERS.contains(&method) {
            if self.uses_mongo {
                self.note_field_collection(call);
            }
            self.note_typed_collection(call);
            if let Thing::Collection(r) = self.classify_call(call, 0) {
                self.ir.collections.push(r);
            }
            return;
        }
        if method == "bulk_write" {
            return; // its models are operations of their own (see `bulk_model`)
        }
        if method == "run_command" {
            if let Some(cmd) = self.args(call).first() {
                let cmd = self.lower(*cmd, 0);
                let ops =
                    super::index_command_operations(&cmd, span(call), method, span(name), &ctx);
                self.ir.operations.extend(ops);
            }
            return;
        }
        let Some(m) = rust_operation(method) else {
            return;
        };
        self.operation(call, recv, name, m, ctx);
    }

    fn operation(
        &mut self,
        call: Node<'t>,
        recv: Node<'t>,
        name: Node<'t>,
        m: &'static OpMethod,
        ctx: OpContext,
    ) {
        let args = self.args(call);
        let (mut collection, mut evidence) = match self.classify(recv, 0) {
            Thing::Collection(r) => (Some(r), Evidence::Resolved),
            Thing::Imported(r) => (Some(r), Evidence::None),
            Thing::Unknown if self.uses_mongo => (self.field_of_elsewhere(recv), Evidence::None),
            // `db.aggregate(pipeline)`: a database-level aggregation.
            Thing::Db if matches!(m.kind, OpKind::Aggregate | OpKind::Other) => {
                (None, Evidence::Resolved)
            }
            Thing::Unknown => (None, Evidence::None),
            _ => return,
        };
        if collection.is_none() && matches!(m.args, Args::Index) && !args.is_empty() {
            collection = self.index_list(recv, args[0]);
        }
        if evidence == Evidence::None
            && args
                .iter()
                .any(|a| self.unwrap_expr(*a).k() == "closure_expression")
        {
            // `items.iter().find(|x| ..)`: an iterator, not a collection.
            return;
        }
        let mut op = Operation::new(m.kind, m.name, span(call), span(name));
        op.context = ctx;
        if m.kind.is_update() {
            op.context.size_guards = self.size_guards(call);
        }
        op.receiver = crate::lang::receiver_text(self.text(recv));
        let lowered = |i: usize| -> Option<Value> {
            let a = *args.get(i)?;
            let v = self.lower(a, 0);
            if matches!(v.kind, ValueKind::Null) {
                None
            } else {
                Some(v)
            }
        };
        let mut bson_args = args.iter().any(|a| self.is_bson(*a));
        let mut options_at = None;
        match m.args {
            Args::FilterOptions => {
                op.filter = lowered(0);
                options_at = Some(1);
            }
            Args::FilterUpdate => {
                op.filter = lowered(0);
                op.update = lowered(1);
                options_at = Some(2);
            }
            Args::Documents => {
                if let Some(v) = lowered(0) {
                    match v.kind {
                        ValueKind::Array(items) => op.documents = items,
                        _ => op.documents = vec![v],
                    }
                }
                options_at = Some(1);
            }
            Args::Pipeline => {
                if let Some(v) = lowered(0) {
                    if let ValueKind::Array(stages) = v.kind {
                        op.pipeline = Some(stages);
                    }
                }
                options_at = Some(1);
            }
            Args::Distinct => {
                op.filter = lowered(1);
                options_at = Some(2);
            }
            Args::Index => {
                // A method that hands its caller's index model on (inx-chronicle's
                // `fn create_index(&self, index: IndexModel, ..) { self.collection()
                // .create_index(index, options).await }`) declares nothing itself: its callers'
                // models are the declarations.
                // And a call without arguments is the application's own method (the driver's
                // always takes the models): `collection.create_indexes().await?` runs the
                // implementer's, whose declarations are read where they are written.
                if args
                    .first()
                    .is_none_or(|a| self.is_index_model_parameter(*a))
                {
                    return;
                }
                let models = args
                    .first()
                    .map(|a| self.index_models(*a, 0))
                    .unwrap_or_default();
                bson_args |= !models.is_empty();
                options_at = Some(1);
                let mut first = true;
                for (keys, opts) in models {
                    if !first {
                        let mut extra = op.clone();
                        extra.filter = keys;
                        extra.options = opts;
                        extra.collection = collection.clone();
                        extra.evidence = evidence.max(Evidence::Shaped);
                        self.ir.operations.push(extra);
                        continue;
                    }
                    first = false;
                    op.filter = keys;
                    op.options = opts;
                }
            }
            Args::Opaque => options_at = Some(0),
            _ => {}
        }
        if let Some(a) = options_at.and_then(|i| args.get(i)) {
            if let Some((v, mods)) = self.lower_options(*a, 0) {
                op.options.get_or_insert(v);
                op.modifiers.extend(mods);
            }
        }
        let chain = self.collect_chain(call);
        let chained = !chain.is_empty();
        for (md, opts) in chain {
            if let Some(n) = opts {
                if let Some((v, mods)) = self.lower_options(n, 0) {
                    op.options.get_or_insert(v);
                    op.modifiers.extend(mods);
                }
            } else {
                op.modifiers.push(md);
            }
        }
        if evidence == Evidence::None {
            let options_known = op.options.as_ref().is_some_and(|o| o.is_document());
            let shaped = m.driver_only
                || op.uses_mongo_operators()
                || (bson_args && m.kind != OpKind::Other)
                || (options_known && matches!(m.kind, OpKind::Find | OpKind::Aggregate))
                || (chained && matches!(m.kind, OpKind::Find | OpKind::Aggregate));
            if shaped {
                evidence = Evidence::Shaped;
            } else if !crate::lang::imported(&collection) {
                return;
            }
            // Else the linker decides (see `Thing::Imported`).
        }
        op.collection = collection;
        op.evidence = evidence;
        self.ir.operations.push(op);
    }

    /// Is this argument a `doc!` / `bson!` document (directly or through a `let`)?
    fn is_bson(&self, n: Node<'t>) -> bool {
        let mut u = self.unwrap_value(n);
        for _ in 0..8 {
            match u.k() {
                "macro_invocation" => {
                    let name = self.macro_name(u).unwrap_or("");
                    if RUST_DOC_MACROS.contains(&name) {
                        return true;
                    }
                    if name == "vec" {
                        return self.macro_tokens(u).is_some_and(|t| {
                            t.windows(2).any(|w| {
                                RUST_DOC_MACROS.contains(&self.text(w[0])) && w[1].k() == "!"
                            })
                        });
                    }
                    return false;
                }
                "array_expression" => {
                    return self.named_children(u).iter().any(|c| self.is_bson(*c));
                }
                "identifier" => match self
                    .lookup(self.text(u), u.start_byte() as u32)
                    .and_then(|b| b.value)
                {
                    Some(v) => u = self.unwrap_value(v),
                    None => return false,
                },
                _ => return false,
            }
        }
        false
    }

    /// 3.x fluent modifiers chained onto an operation: `coll.find(q).sort(..).skip(n).limit(10)`.
    /// `.with_options(opts)` comes back with its argument, to be lowered as options.
    fn collect_chain(&self, call: Node<'t>) -> Vec<(Modifier, Option<Node<'t>>)> {
        let mut out = Vec::new();
        let mut cur = call;
        for _ in 0..64 {
            let Some(member) = self.parents.of(cur).filter(|p| p.k() == "field_expression") else {
                break;
            };
            if self.field(member, "value").map(|v| v.id()) != Some(cur.id()) {
                break;
            }
            let Some(next) = self
                .parents
                .of(member)
                .filter(|c| c.k() == "call_expression")
            else {
                break;
            };
            let Some(field) = self.field(member, "field") else {
                break;
            };
            let name = self.text(field);
            if !RUST_MODIFIERS.contains(&name) {
                break;
            }
            let args = self.args(next);
            let md = Modifier {
                name: name.to_string(),
                args: args.iter().map(|a| self.lower(*a, 0)).collect(),
                span: Span::new(field.start_byte(), next.end_byte()),
            };
            let opts = (name == "with_options")
                .then(|| args.first().copied())
                .flatten();
            out.push((md, opts));
            cur = next;
        }
        out
    }

    /// An options builder or bulk model that no operation consumed: `FindOptions::builder()
    /// .skip(n)` handed to a helper (`find_collect(&coll, q, opts)`) still pages by offset.
    fn standalone_chain(&mut self, root: Node<'t>, ctx: OpContext) {
        if self.consumed.borrow().contains(&root.id()) {
            return;
        }
        // The top of the chain: climb `.method(..)` calls.
        let mut top = root;
        for _ in 0..64 {
            let Some(member) = self.parents.of(top).filter(|p| p.k() == "field_expression") else {
                break;
            };
            let Some(next) = self
                .parents
                .of(member)
                .filter(|c| c.k() == "call_expression")
            else {
                break;
            };
            top = next;
        }
        let Some(chain) = self.ast_chain(top, 0) else {
            return;
        };
        if RUST_BULK_MODELS.contains(&chain.ty.as_str()) {
            self.bulk_model(&chain, ctx);
            return;
        }
        if !RUST_OPTION_BUILDERS.contains(&chain.ty.as_str()) {
            return;
        }
        let mods = chain.modifiers();
        if !mods.iter().any(|m| m.name == "skip") {
            return;
        }
        let kind = match chain.ty.as_str() {
            "AggregateOptions" => OpKind::Aggregate,
            "CountOptions" => OpKind::Count,
            "FindOneOptions" => OpKind::FindOne,
            _ => OpKind::Find,
        };
        let mut op = Operation::new(kind, &chain.ty, chain.span, chain.ty_span);
        op.options = Some(chain.to_doc());
        op.modifiers = mods;
        op.evidence = Evidence::Shaped;
        op.context = ctx;
        self.ir.operations.push(op);
    }

    /// A 3.x `client.bulk_write(..)` model: `UpdateOneModel::builder().namespace(..)
    /// .filter(doc!{..}).update(doc!{..}).build()`.
    fn bulk_model(&mut self, chain: &Chain, ctx: OpContext) {
        let kind = match chain.ty.as_str() {
            "UpdateOneModel" => OpKind::UpdateOne,
            "UpdateManyModel" => OpKind::UpdateMany,
            "ReplaceOneModel" => OpKind::Replace,
            "InsertOneModel" => OpKind::Insert,
            "DeleteOneModel" | "DeleteManyModel" => OpKind::Delete,
            _ => return,
        };
        let doc = chain.to_doc();
        let mut op = Operation::new(kind, &chain.ty, chain.span, chain.ty_span);
        op.filter = doc.get("filter").map(|f| f.value.clone());
        op.update = doc
            .get("update")
            .or_else(|| doc.get("replacement"))
            .map(|f| f.value.clone());
        if let Some(d) = doc.get("document") {
            op.documents = vec![d.value.clone()];
        }
        op.in_bulk = true;
        op.evidence = Evidence::Shaped;
        op.context = ctx;
        self.ir.operations.push(op);
    }

    fn finish(mut self) -> FileIr {
        self.ir.normalise();
        self.ir
    }
}

/// The last segment of a type, without its generic arguments: `crate::models::Station<'a>` →
/// `Station`; `None` for anything that is not a named type.
fn type_name(text: &str) -> Option<&str> {
    let path = text.split('<').next()?.trim();
    // (By its last `:`: a string pattern would build a searcher per call.)
    let last = path.rsplit(':').next()?.trim();
    (!last.is_empty() && last.chars().all(|c| c.is_alphanumeric() || c == '_')).then_some(last)
}

/// How the linker names the collection documents of `ty` are kept in (see [`RUST_TYPES`]): as
/// if `ty` implemented a trait `mongodb::Collection` with the collection's name as `NAME`.
pub(crate) fn typed_collection_export(ty: &str) -> String {
    format!("<{ty} as {TYPED_COLLECTION}>::NAME")
}

/// An application's document type, `DBMate` of `Collection<DBMate>`: a named type (see
/// [`type_name`]), not the driver's own documents (`Document`, `RawDocumentBuf`), `Self` or a
/// type parameter (`T`), of which one collection says nothing about another.
pub(crate) fn document_type(t: &str) -> Option<&str> {
    let ty = type_name(t)?;
    let driver = matches!(
        ty,
        "Self" | "Document" | "RawDocument" | "RawDocumentBuf" | "Bson"
    );
    (ty.len() > 1 && ty.starts_with(|c: char| c.is_ascii_uppercase()) && !driver).then_some(ty)
}

/// The application's document type of a collection the frontend could not name, as it spells
/// its type (`Collection<DBMate>`, `mongodb::Collection<DBMate>`, `Arc<Collection<DBMate>>`):
/// `DBMate`. For the linker (see [`TYPED_COLLECTION`]).
pub(crate) fn collection_document_type(text: &str) -> Option<&str> {
    let (_, inner) = text.split_once("Collection<")?;
    document_type(inner.trim_end_matches(|c: char| c == '>' || c.is_whitespace()))
}

/// `Collection<T>`, `&Collection<T>`, `mongodb::Collection<T>`, `Arc<Database>`, `Client`.
fn thing_from_type(t: &str) -> Thing {
    let spaceless: String = t.chars().filter(|c| !c.is_whitespace()).collect();
    // (Prefixes stripped one at a time: `trim_start_matches` with a string sets up a substring
    // searcher on every call.)
    fn strip_all<'s>(mut s: &'s str, prefix: &str) -> &'s str {
        while let Some(rest) = s.strip_prefix(prefix) {
            s = rest;
        }
        s
    }
    let mut s = spaceless.as_str();
    for _ in 0..8 {
        let before = s.len();
        s = s.trim_start_matches('&');
        if s.starts_with('\'') {
            let cut = s.find(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '_'));
            s = &s[cut.unwrap_or(s.len())..];
        }
        s = strip_all(s, "mut");
        for wrapper in ["Arc<", "Rc<", "Box<", "Option<", "std::sync::Arc<"] {
            if let Some(inner) = s.strip_prefix(wrapper).and_then(|r| r.strip_suffix('>')) {
                s = inner;
            }
        }
        s = strip_all(strip_all(s, "mongodb::"), "sync::");
        // (Only ever shortened: unchanged if as long.)
        if s.len() == before {
            break;
        }
    }
    if s == "Collection" || s.starts_with("Collection<") {
        // (The linker names the collection of an application's document type, if the
        // repository keeps it in one: see `Extractor::note_typed_collection`.)
        Thing::Collection(CollectionRef {
            name: CollectionName::Unknown {
                text: t.trim().trim_start_matches('&').trim().to_string(),
            },
            span: Span::default(),
            via: CollectionVia::Driver,
            import: None,
        })
    } else if s == "Database" {
        Thing::Db
    } else if s == "Client" {
        Thing::Client
    } else {
        Thing::Unknown
    }
}

fn literal_kind(kind: &str) -> bool {
    matches!(
        kind,
        "integer_literal"
            | "float_literal"
            | "string_literal"
            | "raw_string_literal"
            | "boolean_literal"
    )
}

/// `x`, `&x`, `self.page`, `query.skip`: a plain name or path.
fn is_name_tokens(toks: &[Node]) -> bool {
    let toks: Vec<&Node> = toks.iter().filter(|t| t.k() != "&").collect();
    !toks.is_empty()
        && toks.iter().enumerate().all(|(i, t)| {
            if i % 2 == 0 {
                matches!(t.k(), "identifier" | "self")
            } else {
                t.k() == "."
            }
        })
        && toks.len() % 2 == 1
}

/// The content of a string literal as written (escapes kept) and the byte length of its prefix.
fn string_content<'a>(kind: &str, text: &'a str) -> Option<(&'a str, usize)> {
    match kind {
        "string_literal" => {
            let t = text.strip_prefix('b').unwrap_or(text);
            let prefix = text.len() - t.len() + 1;
            if t.len() >= 2 && t.starts_with('"') && t.ends_with('"') {
                Some((&t[1..t.len() - 1], prefix))
            } else {
                None
            }
        }
        "raw_string_literal" => {
            let t = text.strip_prefix('b').unwrap_or(text).strip_prefix('r')?;
            let hashes = t.len() - t.trim_start_matches('#').len();
            let body = &t[hashes..];
            let body = body.strip_prefix('"')?;
            let body = body.strip_suffix(&"#".repeat(hashes))?.strip_suffix('"')?;
            Some((body, text.len() - t.len() + hashes + 1))
        }
        _ => None,
    }
}

/// `1_i32`, `0x1F`, `2.5f64`, `1e3` → the number.
fn parse_number(t: &str) -> Option<f64> {
    let mut t = t.replace('_', "");
    let radix = if t.starts_with("0x") || t.starts_with("0X") {
        16
    } else if t.starts_with("0o") {
        8
    } else if t.starts_with("0b") {
        2
    } else {
        10
    };
    for suf in [
        "i128", "u128", "isize", "usize", "i64", "u64", "i32", "u32", "i16", "u16", "f64", "f32",
        "i8", "u8",
    ] {
        if radix == 16 && suf.starts_with('f') {
            continue;
        }
        if t.len() > suf.len() && t.ends_with(suf) {
            t.truncate(t.len() - suf.len());
            break;
        }
    }
    if radix != 10 {
        return i64::from_str_radix(&t[2..], radix).ok().map(|x| x as f64);
    }
    t.parse::<f64>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ir(src: &str) -> FileIr {
        ir_at(src, "src/app.rs")
    }

    fn ir_at(src: &str, path: &str) -> FileIr {
        crate::lang::extract(
            crate::ir::Language::Rust,
            src,
            &FileContext { display_path: path },
        )
        .unwrap()
    }

    fn at(src: &str, sp: Span) -> &str {
        &src[sp.start as usize..sp.end as usize]
    }

    #[test]
    fn doc_macro_nested_docs_arrays_and_exact_spans() {
        let src = r#"use mongodb::bson::doc;
async fn f(coll: &mongodb::Collection<Doc>, id: i32, at: Now) {
    coll.update_one(doc! { "_id": id }, doc! {
        "$push": { "log": { "$each": [1_i32, -2, 2.5f64, "x", true, null], "$slice": -10 } },
        "$set": { "when": at.clone(), "n": (a + 1) * 2, "r": r"raw" },
    }).await;
}"#;
        let out = ir(src);
        assert_eq!(out.operations.len(), 1);
        let op = &out.operations[0];
        assert_eq!(op.kind, OpKind::UpdateOne);
        assert_eq!(op.evidence, Evidence::Resolved);
        let update = op.update.as_ref().unwrap();
        let push = update.get("$push").unwrap();
        assert_eq!(at(src, push.key_span), "\"$push\"");
        let log = push.value.get("log").unwrap();
        assert_eq!(
            at(src, log.value.span),
            r#"{ "$each": [1_i32, -2, 2.5f64, "x", true, null], "$slice": -10 }"#
        );
        let each = log.value.get("$each").unwrap();
        let items = each.value.items();
        assert_eq!(items.len(), 6);
        assert_eq!(items[0].as_number(), Some(1.0));
        assert_eq!(at(src, items[0].span), "1_i32");
        assert_eq!(items[1].as_number(), Some(-2.0));
        assert_eq!(items[2].as_number(), Some(2.5));
        assert_eq!(items[3].as_str(), Some("x"));
        assert!(matches!(items[4].kind, ValueKind::Bool(true)));
        assert!(matches!(items[5].kind, ValueKind::Null));
        assert_eq!(
            log.value.get("$slice").unwrap().value.as_number(),
            Some(-10.0)
        );
        let set = update.get("$set").unwrap();
        let when = &set.value.get("when").unwrap().value;
        assert!(when.is_unknown());
        assert_eq!(at(src, when.span), "at.clone()");
        let n = &set.value.get("n").unwrap().value;
        assert_eq!(at(src, n.span), "(a + 1) * 2");
        assert_eq!(set.value.get("r").unwrap().value.as_str(), Some("raw"));
    }

    #[test]
    fn malformed_macro_bodies_do_not_panic() {
        for body in [
            "doc! { \"a\" }",
            "doc! { : 1 }",
            "doc! { \"a\": }",
            "doc! { \"a\": 1,, \"b\" 2 }",
            "doc! { \"a\": { \"b\": [ }",
            "doc!",
            "doc! { \"$push\": { \"x\": ",
            "bson!()",
            "vec![,,]",
        ] {
            let src = format!("fn f(c: Collection<D>) {{ c.update_one(doc!{{}}, {body}); }}");
            let _ = ir(&src);
        }
        let deep = format!(
            "fn f(c: Collection<D>) {{ c.update_one(doc!{{}}, doc! {{ \"$push\": {}1{} }}); }}",
            "{\"a\": ".repeat(200),
            "}".repeat(200)
        );
        let _ = ir(&deep);
    }

    #[test]
    fn receivers_resolve_through_lets_fields_params_and_constructors() {
        let src = r#"use mongodb::{Client, Collection, Database};
const USERS: &str = "users";
struct Repo { orders: Collection<Order>, db: Database }
impl Repo {
    fn new(db: Database) -> Self { Self { orders: db.collection("orders"), db } }
    async fn a(&self) { self.orders.insert_one(doc! { "a": 1 }).await; }
    async fn b(&self) { self.db.collection::<User>(USERS).delete_one(doc! {}).await; }
}
async fn c(client: &Client) {
    let items = client.database("shop").collection::<Item>("items");
    items.find(doc! {}).await;
}
async fn d(db: &Database) { db.collection_with_options::<X>("x", opts).count_documents(doc! {}).await; }
"#;
        let out = ir(src);
        let names: Vec<(String, Evidence)> = out
            .operations
            .iter()
            .map(|o| (o.collection_display(), o.evidence))
            .collect();
        assert_eq!(
            names,
            vec![
                ("orders".to_string(), Evidence::Resolved),
                ("users".to_string(), Evidence::Resolved),
                ("items".to_string(), Evidence::Resolved),
                ("x".to_string(), Evidence::Resolved),
            ]
        );
    }

    #[test]
    fn skip_in_2x_options_and_3x_chain() {
        let src = r#"use mongodb::options::FindOptions;
async fn v2(c: &Collection<D>, n: u64) {
    let opts = FindOptions::builder().skip(n).limit(10).build();
    c.find(doc! {}, opts).await;
    c.find(None, None).await;
    c.update_one(doc! { "_id": 1 }, doc! { "$set": { "a": 1 } }, None).await;
}
async fn v3(c: &Collection<D>, n: u64) {
    c.find(doc! {}).sort(doc! { "a": 1 }).skip(n).limit(10).await;
}
fn helper(n: u64) { find_collect(&coll, None, FindOptions::builder().skip(n).build()); }
"#;
        let out = ir(src);
        let skips: Vec<(&str, String)> = out
            .operations
            .iter()
            .flat_map(|o| {
                o.modifiers
                    .iter()
                    .filter(|m| m.name == "skip")
                    .map(move |m| (o.method.as_str(), at(src, m.span).to_string()))
            })
            .collect();
        assert_eq!(
            skips,
            vec![
                ("find", "skip(n)".to_string()),
                ("find", "skip(n)".to_string()),
                ("FindOptions", "skip(n)".to_string()),
            ]
        );
        let v2_find = &out.operations[0];
        assert!(v2_find.options.as_ref().unwrap().get("limit").is_some());
        let update = out
            .operations
            .iter()
            .find(|o| o.method == "update_one")
            .unwrap();
        assert!(update.options.is_none());
        assert!(update.update.as_ref().unwrap().get("$set").is_some());
    }

    #[test]
    fn format_collection_names() {
        let src = r#"use mongodb::Database;
fn f(db: &Database, tenant_id: &str, day: NaiveDate, cfg: &Config, name: &str) {
    db.collection::<D>(&format!("events_{}", chrono::Utc::now().format("%Y%m")));
    db.collection::<D>(&format!("t_{tenant_id}_orders"));
    db.collection::<D>(&format!("log_{d}", d = day));
    db.collection::<D>(&format!("{}_audit", cfg.prefix));
    db.collection::<D>(name);
    db.collection::<D>(&format!("plain_{{x}}"));
}"#;
        let out = ir(src);
        let holes: Vec<Vec<HoleKind>> = out
            .collections
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
            .collect();
        assert_eq!(
            holes,
            vec![
                vec![HoleKind::Date],
                vec![HoleKind::Entity],
                vec![HoleKind::Date],
                vec![HoleKind::Config],
                vec![],
                vec![],
            ]
        );
        // The inline capture's span points into the string literal.
        let CollectionName::Template { parts } = &out.collections[1].name else {
            panic!()
        };
        let NamePart::Hole { span, .. } = &parts[1] else {
            panic!()
        };
        assert_eq!(at(src, *span), "tenant_id");
        assert!(matches!(
            &out.collections[5].name,
            CollectionName::Literal { name } if name == "plain_{x}"
        ));
    }

    #[test]
    fn look_alikes_produce_nothing() {
        let src = r#"
fn f(v: Vec<u32>, n: usize, map: &mut HashMap<String, u32>, s: &str) {
    let mut out = Vec::new();
    for x in v.iter().skip(n) { out.push(*x); }
    let first = v.iter().find(|x| **x > 2);
    map.insert("$push".to_string(), 1);
    let pos = s.find("abc");
    let rows = users.select().offset(n as i64).limit(10).load(&conn);
    let page: Vec<_> = v.into_iter().skip(n).take(10).collect();
}"#;
        let out = ir(src);
        assert!(out.operations.is_empty(), "{:?}", out.operations);
        assert!(out.collections.is_empty());
    }

    #[test]
    fn pipeline_variable_with_pushes_and_index_models() {
        let src = r#"use mongodb::{bson::doc, IndexModel, options::IndexOptions};
async fn f(c: &Collection<D>) {
    let mut pipeline = vec![doc! { "$match": {} }];
    pipeline.push(doc! { "$lookup": { "from": "a" } });
    pipeline.push(doc! { "$lookup": { "from": "b" } });
    c.aggregate(pipeline).await;
    let m = IndexModel::builder().keys(doc! { "a": 1, "b": -1 })
        .options(IndexOptions::builder().unique(true).build()).build();
    c.create_index(m).await;
    c.create_indexes(vec![IndexModel::builder().keys(doc! { "z": 1 }).build()]).await;
}"#;
        let out = ir(src);
        let agg = &out.operations[0];
        assert_eq!(agg.pipeline.as_ref().unwrap().len(), 3);
        let idx: Vec<&Operation> = out
            .operations
            .iter()
            .filter(|o| o.kind == OpKind::CreateIndex)
            .collect();
        assert_eq!(idx.len(), 2);
        let keys = idx[0].filter.as_ref().unwrap();
        assert_eq!(keys.fields().len(), 2);
        let unique = idx[0].options.as_ref().unwrap().get("unique").unwrap();
        assert!(matches!(unique.value.kind, ValueKind::Bool(true)));
        assert!(idx[1].filter.as_ref().unwrap().get("z").is_some());
    }

    #[test]
    fn loops_and_periodic_context() {
        let src = r#"
async fn handler(c: &Collection<D>, ids: Vec<i32>) {
    for id in ids { c.update_one(doc! { "_id": id }, doc! { "$inc": { "n": 1 } }).await; }
    ids.iter().for_each(|id| { c.delete_one(doc! { "_id": id }); });
}
async fn nightly_recompute(c: &Collection<D>) { c.update_one(doc! { "_id": 1 }, doc! { "$inc": { "n": 1 } }).await; }
async fn ticker(c: &Collection<D>) {
    let mut t = tokio::time::interval(d);
    loop { t.tick().await; c.update_one(doc! { "_id": 1 }, doc! { "$inc": { "n": 1 } }).await; }
}
async fn raffle(c: &Collection<D>, secs: u64) {
    loop { c.update_one(doc! { "_id": 1 }, doc! { "$inc": { "n": 1 } }).await; sleep(Duration::from_secs(secs)).await; }
}
async fn backoff(c: &Collection<D>, ids: Vec<i32>) {
    for id in ids { c.delete_one(doc! { "_id": id }).await; tokio::time::sleep(d).await; }
}"#;
        let out = ir(src);
        let ctx: Vec<(bool, bool)> = out
            .operations
            .iter()
            .map(|o| (o.context.enclosing_loop.is_some(), o.context.periodic))
            .collect();
        // (A `loop` that sleeps between rounds is a scheduler's; a `for` that sleeps backs off.)
        assert_eq!(
            ctx,
            vec![
                (true, false),
                (true, false),
                (false, true),
                (true, true),
                (true, true),
                (true, false)
            ]
        );
        let jobs = ir_at(src, "src/jobs/cleanup.rs");
        assert!(jobs.operations.iter().all(|o| o.context.periodic));
    }

    /// A trait names its implementers' collections through an associated constant (openstream's
    /// `Model`): its getters (`coll`, and `all` through it) and the index list its default method
    /// creates on one are exported, and so is each implementation's constant; `Store::coll()` and
    /// `Self::coll()` in an `impl` are left to the linker, `Self::coll()` in the trait stays unknown.
    #[test]
    fn a_trait_s_collection_getters_and_its_implementations_are_exported() {
        let src = r#"use mongodb::{bson::doc, Collection, Database, IndexModel};
pub trait Store: Sized {
    const COLLECTION: &'static str;
    fn database() -> Database { crate::db() }
    fn all<T>() -> Collection<T> { Self::database().collection(Self::COLLECTION) }
    fn coll() -> Collection<Self> { Self::all() }
    fn indexes() -> Vec<IndexModel> { vec![] }
    async fn ensure_indexes() {
        let models = Self::indexes();
        Self::coll().create_indexes(models, None).await;
    }
    async fn remove(id: &str) { Self::coll().delete_one(doc! { "_id": id }, None).await; }
}
impl Store for Invoice {
    const COLLECTION: &'static str = "invoices";
    fn indexes() -> Vec<IndexModel> {
        let customer = IndexModel::builder().keys(doc! { "customer_id": 1 }).build();
        vec![customer, helper()]
    }
}
impl Invoice {
    async fn latest(c: &str, q: Document) {
        Self::coll().find_one(q, None).await;
        crate::models::Invoice::all::<Row>().find(doc! { "customer_id": c }, None).await;
    }
}
"#;
        let out = ir(src);
        let exports: Vec<String> = out
            .exports
            .iter()
            .map(|e| format!("{} {:?}", e.name, e.target))
            .collect();
        assert_eq!(
            exports,
            vec![
                r#"<Invoice as Store>::COLLECTION Constant { value: "invoices" }"#,
                r#"Store::all AssociatedCollection { constant: "COLLECTION" }"#,
                r#"Store::coll AssociatedCollection { constant: "COLLECTION" }"#,
                r#"Store::indexes IndexModels { getter: "coll", replaced: true }"#,
            ]
        );
        let ops: Vec<(&str, Option<&str>, Evidence)> = out
            .operations
            .iter()
            .map(|o| {
                let import = o.collection.as_ref().and_then(|c| c.import.as_ref());
                (
                    o.method.as_str(),
                    import.map(|i| i.export.as_str()),
                    o.evidence,
                )
            })
            .collect();
        assert_eq!(
            ops,
            vec![
                (
                    "create_indexes",
                    Some("<Self as Store>::indexes"),
                    Evidence::Shaped
                ),
                ("delete_one", None, Evidence::Shaped),
                // The index models `indexes()` returns, the second unreadable.
                (
                    "IndexModel",
                    Some("<Invoice as Store>::indexes"),
                    Evidence::None
                ),
                (
                    "IndexModel",
                    Some("<Invoice as Store>::indexes"),
                    Evidence::None
                ),
                // No evidence of its own: the linker decides.
                ("find_one", Some("Invoice::coll"), Evidence::None),
                ("find", Some("Invoice::all"), Evidence::Shaped),
            ]
        );
        assert!(out.operations[2]
            .filter
            .as_ref()
            .unwrap()
            .get("customer_id")
            .is_some());
        assert!(out.operations[3].filter.is_none());
    }

    /// An update chosen by an `if` expression (dodona's model results): of the branches'
    /// documents, the one that grows an array, else the one that counts.
    #[test]
    fn an_update_chosen_by_an_if_expression() {
        let src = r#"use mongodb::{bson::{doc, Document}, Database};
async fn record(db: &Database, id: i32, ok: bool) {
    let runs = db.collection::<Document>("runs");
    let update = if ok {
        doc! { "$inc": { "stats.ok": 1 } }
    } else {
        doc! { "$inc": { "stats.err": 1 } }
    };
    runs.find_one_and_update(doc! { "_id": id }, update, None).await;
    let log = if ok { doc! { "$set": { "a": 1 } } } else { doc! { "$push": { "log": "x" } } };
    runs.update_one(doc! { "_id": id }, log, None).await;
    let filter = if ok { doc! { "a": 1 } } else { doc! { "b": 1 } };
    runs.update_one(filter, doc! { "$set": { "c": 1 } }, None).await;
}
"#;
        let out = ir(src);
        let first_key = |i: usize| {
            out.operations[i]
                .update
                .as_ref()
                .and_then(|u| u.fields().first().map(|f| f.key.clone()))
        };
        assert_eq!(out.operations.len(), 3);
        assert_eq!(first_key(0).as_deref(), Some("$inc"));
        assert_eq!(first_key(1).as_deref(), Some("$push"));
        assert!(out.operations[2]
            .filter
            .as_ref()
            .is_some_and(|f| !f.is_document()));
    }
}
