//! Language frontends: each parses one file with tree-sitter and lowers its driver calls into the IR.

pub mod arena;
mod flat;
pub mod javascript;
pub mod naming;
pub mod python;
pub mod rust;
mod scopes;
pub mod vocabulary;

use crate::ir::{FileIr, Language};
use std::path::Path;

/// The language of a file, from its name.
pub fn language_for(path: &Path) -> Option<Language> {
    language_for_name(path.file_name()?.as_encoded_bytes())
}

/// The last component of a path, from its bytes: what `Path::file_name` gives for a path that
/// does not end in `..` or a separator (a walked entry's), without splitting the path into its
/// components from the end (a few hundred instructions a file, for every file the walk meets).
pub fn file_name_bytes(path: &Path) -> &[u8] {
    let bytes = path.as_os_str().as_encoded_bytes();
    let sep = |b: &u8| *b == b'/' || *b == std::path::MAIN_SEPARATOR as u8;
    match bytes.iter().rposition(sep) {
        Some(at) => &bytes[at + 1..],
        None => bytes,
    }
}

/// [`language_for`] a file name, as bytes (see [`file_name_bytes`]: `Path::extension` splits the
/// whole path into components from the end, 180 instructions a file).
pub fn language_for_name(name: &[u8]) -> Option<Language> {
    // As `Path::extension`: after the last dot, unless it starts the name (`.js` has none).
    let dot = memchr::memrchr(b'.', name).filter(|&i| i > 0)?;
    Some(match &name[dot + 1..] {
        b"js" | b"mjs" | b"cjs" | b"jsx" => Language::JavaScript,
        b"ts" | b"mts" | b"cts" => Language::TypeScript,
        b"tsx" => Language::Tsx,
        b"py" => Language::Python,
        b"rs" => Language::Rust,
        _ => return None,
    })
}

/// Reads every node of a parsed tree once, its kind and byte range, with the flattener the
/// frontends start from; returns a sum over the nodes so that the work cannot be optimised away.
/// For the benchmark's floor program (`floor run --walk`).
pub fn read_every_node(root: tree_sitter::Node<'_>) -> usize {
    flat::read_every_node(root)
}

/// The tree-sitter grammar of a language (also used by the benchmark's floor program).
pub fn grammar(lang: Language) -> tree_sitter::Language {
    match lang {
        Language::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
        Language::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        Language::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
        Language::Python => tree_sitter_python::LANGUAGE.into(),
        Language::Rust => tree_sitter_rust::LANGUAGE.into(),
    }
}

/// Makes tree-sitter's C code (a subtree per node) allocate with mimalloc, the allocator the
/// benchmark's floor program uses for Rust's allocations: measured in bench/README.md. (The binary
/// installs [`arena`] instead, which falls back on mimalloc outside a file's scope.)
/// (mimalloc is built to override `malloc` as well, see Cargo.toml, which covers the grammars'
/// scanners; tree-sitter's own default allocator would reach mimalloc through `malloc` too, but
/// one call later, and it allocates a subtree per node.)
///
/// # Safety
/// Call once, before any tree-sitter object exists.
pub unsafe fn use_mimalloc_for_tree_sitter() {
    // SAFETY: mimalloc's functions have the C allocator signatures tree-sitter expects; the caller
    // guarantees no tree-sitter allocation is live.
    unsafe {
        tree_sitter::set_allocator(
            Some(libmimalloc_sys::mi_malloc),
            Some(libmimalloc_sys::mi_calloc),
            Some(libmimalloc_sys::mi_realloc),
            Some(libmimalloc_sys::mi_free),
        );
    }
}

/// Why a file could not be analysed.
#[derive(Debug)]
pub struct ParseFailure(pub String);

/// What a frontend needs to know about the file besides its text.
pub struct FileContext<'a> {
    /// Path relative to the analysis root, with `/` separators.
    pub display_path: &'a str,
}

/// The frontends' maps: keyed by names and node ids, looked up for every name a pass meets, so
/// hashed with foldhash rather than SipHash (whose DoS resistance buys nothing here); a fixed seed,
/// as no output may depend on the order of a map anyway.
pub(crate) type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::FixedState>;
pub(crate) type HashSet<T> = std::collections::HashSet<T, foldhash::fast::FixedState>;

/// The first `chars` characters of `text`: `text.chars().take(chars).collect()`, without pushing
/// the characters one by one (receivers and unresolved names are cut to 60 or 80 for messages).
pub(crate) fn first_chars(text: &str, chars: usize) -> String {
    let bytes = text.as_bytes();
    if bytes.len() <= chars {
        // At most `chars` bytes, so at most `chars` characters.
        return text.to_string();
    }
    if bytes[..chars].is_ascii() {
        return text[..chars].to_string();
    }
    match text.char_indices().nth(chars) {
        Some((end, _)) => text[..end].to_string(),
        None => text.to_string(),
    }
}

/// A receiver's source text for messages, on one line and cut to 60 characters: a chain the code
/// breaks over lines (`mainConnection\n      .model(name)`) reads `mainConnection.model(name)`. A
/// leading `await` goes: TypeScript's grammar takes `await conn.model<T>(name).findById(id)` for
/// `(await conn.model<T>(name)).findById(id)`, and the model is the receiver, not the promise.
pub(crate) fn receiver_text(text: &str) -> String {
    let text = text.strip_prefix("await ").unwrap_or(text).trim_start();
    first_chars(&one_line(text), 60)
}

/// Source text on one line, for a message: an expression the code breaks over lines
/// (`parseInt(\n  req.query.start)`) reads `parseInt(req.query.start)`; text on one line is
/// returned as it is. A Python line continuation (`a |\` then `b`) is a space.
pub(crate) fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.bytes().any(|b| b == b'\n' || b == b'\r' || b == b'\t') {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for piece in text.split_whitespace() {
        // (The continuation's backslash ends its line: alone, or after the line's last token.)
        let piece = match piece.strip_suffix('\\') {
            Some(rest)
                if text.contains(&format!("{piece}\n")) || text.contains(&format!("{piece}\r")) =>
            {
                rest
            }
            _ => piece,
        };
        if piece.is_empty() {
            continue;
        }
        let glued = out.is_empty()
            || piece.starts_with(['.', ')', ']', ','])
            || piece.starts_with("?.")
            || out.ends_with(['(', '[', '.']);
        if !glued {
            out.push(' ');
        }
        out.push_str(piece);
    }
    std::borrow::Cow::Owned(out)
}

/// Appends `b` to the bindings of `name` in a frontend's binding map, allocating the key only for
/// a name not bound before.
pub(crate) fn add_binding<B>(bindings: &mut HashMap<String, Vec<B>>, name: &str, b: B) {
    match bindings.get_mut(name) {
        Some(list) => list.push(b),
        None => {
            bindings.insert(name.to_string(), vec![b]);
        }
    }
}

/// Field ids by field name, for the five grammars at once, keyed by the name's address and
/// length: the names are literals of the frontends, so a call site always passes the same address.
/// tree-sitter's `child_by_field_name` looks the name up with a `strncmp` per field of the grammar
/// on every call, which was 8% of a run (bench/README.md); a per-thread table behind a
/// thread-local `RefCell` still cost 60 instructions a lookup (session 10).
///
/// An open-addressing table shared by the threads: a slot's key (0: empty) is written once, after
/// its value, so a reader that sees the key sees the value; insertions (one per name literal) take
/// a lock. The value packs the name's length (16 bits) and, per grammar slot (`grammar_slot`), a
/// 9-bit id: 0 for "not a field of this grammar", [`FIELD_ASK`] for an id that does not fit.
struct FieldTable {
    keys: [std::sync::atomic::AtomicUsize; FIELD_SLOTS],
    values: [std::sync::atomic::AtomicU64; FIELD_SLOTS],
    /// Held while inserting; the number of keys written.
    insert: std::sync::Mutex<usize>,
}

/// The slots of the [`FieldTable`]: a power of two, several times the number of distinct field
/// name literals in the frontends (about a hundred). Past half full, names not yet in it are
/// looked up in the grammar on every call (still correct, only slower).
const FIELD_SLOTS: usize = 1024;

/// A packed id that means "ask the grammar": the id does not fit in 9 bits.
const FIELD_ASK: u64 = 0x1FF;

static FIELDS: FieldTable = FieldTable {
    keys: [const { std::sync::atomic::AtomicUsize::new(0) }; FIELD_SLOTS],
    values: [const { std::sync::atomic::AtomicU64::new(0) }; FIELD_SLOTS],
    insert: std::sync::Mutex::new(0),
};

impl FieldTable {
    /// The id of field `name` in grammar slot `slot` (`n`: a node of that grammar).
    fn get(&self, slot: usize, n: tree_sitter::Node, name: &'static str) -> Option<u16> {
        use std::sync::atomic::Ordering;
        let key = name.as_ptr() as usize;
        let len = name.len() as u64;
        let mask = FIELD_SLOTS - 1;
        let home = field_home(key);
        let mut at = home;
        loop {
            match self.keys[at].load(Ordering::Acquire) {
                0 => break,
                k if k == key => {
                    let value = self.values[at].load(Ordering::Relaxed);
                    if value & 0xFFFF == len {
                        return unpack_field(value, slot, n, name);
                    }
                }
                _ => {}
            }
            at = (at + 1) & mask;
            if at == home {
                break;
            }
        }
        self.insert(key, slot, n, name)
    }

    #[cold]
    fn insert(
        &self,
        key: usize,
        slot: usize,
        n: tree_sitter::Node,
        name: &'static str,
    ) -> Option<u16> {
        use std::sync::atomic::Ordering;
        let mut count = self.insert.lock().unwrap_or_else(|e| e.into_inner());
        let len = name.len() as u64;
        let mask = FIELD_SLOTS - 1;
        let mut at = field_home(key);
        loop {
            match self.keys[at].load(Ordering::Relaxed) {
                0 => break,
                k if k == key && self.values[at].load(Ordering::Relaxed) & 0xFFFF == len => {
                    return unpack_field(self.values[at].load(Ordering::Relaxed), slot, n, name);
                }
                _ => at = (at + 1) & mask,
            }
        }
        if *count >= FIELD_SLOTS / 2 || name.len() > 0xFFFF {
            return n.language().field_id_for_name(name).map(|id| id.get());
        }
        let mut value = len;
        for lang in GRAMMARS {
            let id = grammar(lang)
                .field_id_for_name(name)
                .map_or(0, |id| u64::from(id.get()).min(FIELD_ASK));
            value |= id << (16 + 9 * grammar_slot(lang));
        }
        self.values[at].store(value, Ordering::Relaxed);
        self.keys[at].store(key, Ordering::Release);
        *count += 1;
        unpack_field(value, slot, n, name)
    }
}

/// The home slot of a name's address in the [`FieldTable`].
fn field_home(key: usize) -> usize {
    ((key as u64 >> 2).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & (FIELD_SLOTS - 1)
}

/// The id of grammar slot `slot` in a packed [`FieldTable`] value.
fn unpack_field(value: u64, slot: usize, n: tree_sitter::Node, name: &str) -> Option<u16> {
    match (value >> (16 + 9 * slot)) & FIELD_ASK {
        0 => None,
        FIELD_ASK => n.language().field_id_for_name(name).map(|id| id.get()),
        id => Some(id as u16),
    }
}

/// Every language, each with its grammar (and its `grammar_slot`).
const GRAMMARS: [Language; 5] = [
    Language::JavaScript,
    Language::TypeScript,
    Language::Tsx,
    Language::Python,
    Language::Rust,
];

/// The grammar slot of this thread's language (the one being extracted), if any: a flat tree
/// reads it once and passes it to `field_id`.
pub(crate) fn current_grammar_slot() -> Option<usize> {
    GRAMMAR.with(|g| g.get()).map(grammar_slot)
}

/// The id of the field `name` in the grammar of `n`, whose slot (`grammar_slot`) is `slot` if
/// known; looked up in the grammar once per name literal.
pub(crate) fn field_id(
    slot: Option<usize>,
    n: tree_sitter::Node,
    name: &'static str,
) -> Option<u16> {
    match slot {
        Some(slot) => FIELDS.get(slot, n, name),
        None => n.language().field_id_for_name(name).map(|id| id.get()),
    }
}

/// Starts extracting a file of `lang` on this thread: the grammar slot (which a flat tree reads for
/// its field-id lookups) and the kind table follow the grammar.
fn use_tables_of(lang: Language) {
    GRAMMAR.with(|g| g.set(Some(lang)));
    KINDS.with(|k| k.set(kind_table(lang)));
}

thread_local! {
    /// The grammar being extracted on this thread.
    static GRAMMAR: std::cell::Cell<Option<Language>> = const { std::cell::Cell::new(None) };
}

/// A frontend's classes of node kinds (bit flags) by kind id, one table per grammar: the passes
/// over every node test a bit of the entry's kind id rather than compare its name with each kind
/// they look for (string comparisons on entering and leaving every node, pass after pass).
pub(crate) struct KindFlags {
    tables: [std::sync::OnceLock<Vec<u16>>; 5],
    classify: fn(&str) -> u16,
}

impl KindFlags {
    /// Flags computed by `classify` from each kind's name.
    pub(crate) const fn new(classify: fn(&str) -> u16) -> Self {
        use std::sync::OnceLock;
        KindFlags {
            tables: [
                OnceLock::new(),
                OnceLock::new(),
                OnceLock::new(),
                OnceLock::new(),
                OnceLock::new(),
            ],
            classify,
        }
    }

    /// The table of the grammar being extracted on this thread, by kind id (ids past its end,
    /// such as `ERROR`'s 65535, have no flags).
    pub(crate) fn table(&self) -> &[u16] {
        let Some(lang) = GRAMMAR.with(|g| g.get()) else {
            return &[];
        };
        self.tables[grammar_slot(lang)].get_or_init(|| {
            kind_table(lang)
                .iter()
                .map(|name| (self.classify)(name))
                .collect()
        })
    }
}

/// The flags of kind `id` in `table` (`KindFlags::table`).
#[inline]
pub(crate) fn flags_of(table: &[u16], id: u16) -> u16 {
    table.get(usize::from(id)).copied().unwrap_or(0)
}

thread_local! {
    /// The node kind names of the grammar being extracted on this thread, by kind id.
    static KINDS: std::cell::Cell<&'static [&'static str]> = const { std::cell::Cell::new(&[]) };
}

/// The node kind names of the grammar being extracted on this thread, by kind id (empty names for
/// ids that have none; `KindOf::k` falls back to `Node::kind` for those).
pub(crate) fn kind_names() -> &'static [&'static str] {
    KINDS.with(|k| k.get())
}

/// The index of `lang`'s grammar in the tables kept per grammar.
fn grammar_slot(lang: Language) -> usize {
    match lang {
        Language::JavaScript => 0,
        Language::TypeScript => 1,
        Language::Tsx => 2,
        Language::Python => 3,
        Language::Rust => 4,
    }
}

/// Node kind names by id, built once per grammar.
fn kind_table(lang: Language) -> &'static [&'static str] {
    use std::sync::OnceLock;
    static TABLES: [OnceLock<Vec<&'static str>>; 5] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    TABLES[grammar_slot(lang)].get_or_init(|| {
        let g = grammar(lang);
        (0..g.node_kind_count())
            .map(|id| g.node_kind_for_id(id as u16).unwrap_or(""))
            .collect()
    })
}

/// `Node::kind()` without its cost: tree-sitter's binding measures and UTF-8-validates the name on
/// every call (6% of a run, bench/README.md); this looks it up in a table built once per grammar.
pub(crate) trait KindOf {
    fn k(&self) -> &'static str;
}

impl KindOf for tree_sitter::Node<'_> {
    #[inline]
    fn k(&self) -> &'static str {
        kind_name(kind_names(), self.kind_id(), *self)
    }
}

/// Whether `kind` is a comment's or a part of one, in any of the grammars (every kind whose name
/// holds `comment`, without a substring search on every node).
pub(crate) fn is_comment_kind(kind: &str) -> bool {
    matches!(
        kind,
        "comment"
            | "html_comment"
            | "line_comment"
            | "block_comment"
            | "doc_comment"
            | "inner_doc_comment_marker"
            | "outer_doc_comment_marker"
    )
}

/// The name of `n`'s kind `id` (`n.kind_id()`, or its copy in a flat entry) from `names`
/// (`kind_names()`, fetched once by a caller that names many nodes).
#[inline]
pub(crate) fn kind_name(names: &[&'static str], id: u16, n: tree_sitter::Node<'_>) -> &'static str {
    match names.get(usize::from(id)) {
        Some(name) if !name.is_empty() => name,
        // `ERROR` (id 65535), or a node of another grammar than this thread's.
        _ => n.kind(),
    }
}

/// How many values the JavaScript and Python frontends' `lower` may build in a file of `bytes`
/// bytes. Lowering follows names to the literals they are bound to, and a literal may spread
/// others, so a generated file can make it exponential (`const a1 = [...a0, ...a0]; const a2 =
/// [...a1, ...a1]; ..` forty times over). The budget keeps the work linear in the file's size with
/// room to spare: no file of the 34 applications read in session 28 lowered more than 566 values,
/// and the adversarial tests' 200,000-line files lower one value per 29 (Python) and 37
/// (JavaScript) bytes. Once a file has used its fuel, what is left to lower in it is unknown.
pub(crate) fn lower_fuel(bytes: usize) -> u32 {
    u32::try_from(bytes.saturating_mul(16).saturating_add(100_000)).unwrap_or(u32::MAX)
}

/// Takes one unit of `fuel`: false when none is left.
#[inline]
pub(crate) fn burn(fuel: &std::cell::Cell<u32>) -> bool {
    match fuel.get() {
        0 => false,
        n => {
            fuel.set(n - 1);
            true
        }
    }
}

/// The pipeline that helper function `func` (a node id) returns: `read()`, its returned list
/// lowered, if that holds at least one aggregation stage (a document whose first key is an
/// operator: `[{ $skip: n }, { $limit: 20 }]`), or the document it returns if that is such a
/// document itself (an update, `{ $set: .., $push: .. }`). `None` without reading when `func` is
/// already being read further up (`function p(n) { return [...p(n - 1), ..] }`) or helpers already nest
/// `MAX_HELPERS` deep (`open`: the functions being read, innermost last): each helper's pipeline
/// may spread others', and mutually recursive helpers would otherwise be followed exponentially.
pub(crate) fn helper_pipeline(
    open: &std::cell::RefCell<Vec<usize>>,
    func: usize,
    read: impl FnOnce() -> crate::ir::Value,
) -> Option<crate::ir::Value> {
    const MAX_HELPERS: usize = 4;
    {
        let open = open.borrow();
        if open.len() >= MAX_HELPERS || open.contains(&func) {
            return None;
        }
    }
    open.borrow_mut().push(func);
    let value = read();
    open.borrow_mut().pop();
    let stage = |item: &crate::ir::Value| match &item.kind {
        crate::ir::ValueKind::Document(fields) => {
            fields.first().is_some_and(|f| f.key.starts_with('$'))
        }
        _ => false,
    };
    // A pipeline with a stage, or an update document (its first key an operator).
    (stage(&value) || value.items().iter().any(stage)).then_some(value)
}

/// The update a document's save sends for an array grown in memory (Mongoose's `doc.arr.push(x);
/// doc.save()`, mongoengine's `doc.arr.append(x); doc.save()`): `{op_name: {path: pushed}}` on the
/// document by `_id`. `call` is the method, the call's span and the method's; `array` the
/// array's dotted path from the document and its span; `doc` the document's span and the text of
/// its id.
#[inline(never)]
pub(crate) fn saved_push(
    call: (&str, crate::ir::Span, crate::ir::Span),
    op_name: &str,
    array: (String, crate::ir::Span),
    pushed: crate::ir::Value,
    doc: (crate::ir::Span, &str),
) -> crate::ir::Operation {
    use crate::ir::{Field, Operation, Value, ValueKind};
    let (method, sp, method_span) = call;
    let document = |key: String, key_span, value| Value {
        span: sp,
        kind: ValueKind::Document(vec![Field {
            key,
            key_span,
            value,
        }]),
    };
    let mut op = Operation::new(crate::ir::OpKind::DocumentSave, method, sp, method_span);
    op.update = Some(document(
        op_name.to_string(),
        method_span,
        document(array.0, array.1, pushed),
    ));
    op.filter = Some(id_filter(doc.0, doc.1));
    op
}

/// A loaded document's field counted by a literal `step` at `bump` (`post.views += 1`) and then
/// saved: the `$inc` of `field` (its name and span) that the save sends, on the document at `doc`
/// (its span and the text of its id, `post._id`). Shared by the frontends' `saved_counters`.
pub(crate) fn saved_inc(
    bump: crate::ir::Span,
    field: (String, crate::ir::Span),
    step: f64,
    doc: (crate::ir::Span, &str),
) -> crate::ir::Operation {
    let amount = crate::ir::Value {
        span: bump,
        kind: crate::ir::ValueKind::Number(step),
    };
    saved_push(("save", bump, field.1), "$inc", field, amount, doc)
}

/// The filter of a loaded document's own write: `{ _id: <doc>._id }`, at the document's name.
pub(crate) fn id_filter(at: crate::ir::Span, id: &str) -> crate::ir::Value {
    use crate::ir::Value;
    Value::keyed(at, "_id", at, Value::unknown(at, id, true))
}

/// Whether an operation's collection was imported from another module of the repository (the
/// linker decides it): an operation without evidence of its own is kept for it.
pub(crate) fn imported(collection: &Option<crate::ir::CollectionRef>) -> bool {
    collection.as_ref().is_some_and(|c| c.import.is_some())
}

/// Parses `text` and extracts its IR.
pub fn extract(lang: Language, text: &str, ctx: &FileContext) -> Result<FileIr, ParseFailure> {
    // A byte order mark becomes three spaces for the parser: byte offsets stay those of the file,
    // and the reporters (which see the file with its BOM) skip it when counting columns.
    let blanked;
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => {
            blanked = format!("   {rest}");
            blanked.as_str()
        }
        None => text,
    };
    use_tables_of(lang);
    // The file's tree-sitter objects live in this thread's arena when the binary installed it:
    // not deleted one subtree at a time, but forgotten, and the arena taken back at once (see
    // `arena`). Declared before them, so that it closes after they are forgotten.
    let _scope = arena::Scope::open();
    let mut parser = arena::Owned::new(tree_sitter::Parser::new());
    parser
        .set_language(&grammar(lang))
        .map_err(|e| ParseFailure(format!("cannot load grammar: {e}")))?;
    // tree-sitter's error recovery can run away on some garbage (a 4 KB TSX file took minutes):
    // cancel after an operation budget proportional to the file's size. The progress
    // callback runs every 100 parser operations, so the budget is deterministic: the same file
    // is cancelled or not on every machine and at every thread count.
    let budget = parse_budget(text.len());
    let mut checks: u64 = 0;
    let mut progress = |_: &tree_sitter::ParseState| {
        checks += 1;
        checks > budget
    };
    // The extractors read the file's own text; only the parser sees the import types blanked.
    let import_types = match lang {
        Language::TypeScript | Language::Tsx => blank_import_types(text),
        _ => None,
    };
    let bytes = import_types.as_deref().unwrap_or(text).as_bytes();
    let tree = parser
        .parse_with_options(
            &mut |i, _| bytes.get(i..).unwrap_or_default(),
            None,
            Some(tree_sitter::ParseOptions::new().progress_callback(&mut progress)),
        )
        .map(arena::Owned::new)
        .ok_or_else(|| {
            ParseFailure(format!(
                "skipped: the parser gave up on this file (error recovery exceeded its budget of {} operations; is it really {lang:?} source?)",
                budget * 100
            ))
        })?;
    Ok(match lang {
        Language::JavaScript | Language::TypeScript | Language::Tsx => {
            javascript::extract(&tree, text, ctx)
        }
        Language::Python => python::extract(&tree, text, ctx),
        Language::Rust => rust::extract(&tree, text, ctx),
    })
}

/// TypeScript's import types, which tree-sitter-typescript 0.23 does not parse in every position
/// (its issues #322 and #367): `Promise<import('mongoose').FlattenMaps<T>>` as a return type
/// turned LibreChat's function into an error node and lost its calls, and
/// `f<typeof import('m')>()` reads as a comparison. The parser is given a copy of the file in which
/// `import('m').` before a type's name (a name not called: `import('m').then(..)` is a dynamic
/// import) is spaces, and `typeof import('m')` is `typeof import___`, an identifier of the same
/// length: byte offsets stay the file's, and the type reads as a name. `None` when the file has
/// neither.
fn blank_import_types(text: &str) -> Option<String> {
    static IMPORT: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"import("));
    let b = text.as_bytes();
    let mut out: Option<Vec<u8>> = None;
    for i in IMPORT.find_iter(b) {
        if i > 0 && (b[i - 1].is_ascii_alphanumeric() || matches!(b[i - 1], b'_' | b'$' | b'.')) {
            continue;
        }
        // `import('m')`: a string without a newline or an escape, then `)`.
        let open = i + 7;
        let Some(&quote) = b.get(open).filter(|q| matches!(q, b'\'' | b'"')) else {
            continue;
        };
        let Some(len) = b[open + 1..]
            .iter()
            .position(|&c| c == quote || c == b'\n' || c == b'\\')
            .filter(|&n| b[open + 1 + n] == quote)
        else {
            continue;
        };
        let close = open + 1 + len + 1;
        if b.get(close) != Some(&b')') {
            continue;
        }
        let end = close + 1;
        let named = b.get(end) == Some(&b'.')
            && b.get(end + 1)
                .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_');
        let before = text[..i].trim_end();
        let in_typeof = before.ends_with("typeof")
            && !before[..before.len() - 6]
                .ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$');
        if named {
            let name_end = b[end + 1..]
                .iter()
                .position(|c| !(c.is_ascii_alphanumeric() || *c == b'_' || *c == b'$'))
                .map_or(b.len(), |n| end + 1 + n);
            let next = b[name_end..].iter().find(|c| !c.is_ascii_whitespace());
            if matches!(next, Some(b'(' | b'`')) {
                continue;
            }
            out.get_or_insert_with(|| b.to_vec())[i..=end].fill(b' ');
        } else if in_typeof {
            out.get_or_insert_with(|| b.to_vec())[i + 6..end].fill(b'_');
        }
    }
    // Only ASCII bytes were written over ASCII bytes.
    out.map(|v| String::from_utf8(v).unwrap_or_default())
}

/// How many progress checks (each 100 parser operations) a file of `len` bytes may take. Real code
/// needs 0.01 to 0.05 checks per byte (corpus/, 10 MB bundles, 10,000-deep nesting); garbage that
/// sends error recovery into a combinatorial search needs thousands.
fn parse_budget(len: usize) -> u64 {
    5_000 + len as u64 / 2
}

/// Walks the tree depth-first without recursion, calling `visit(node, true)` on entering a node
/// and `visit(node, false)` on leaving it. Shared by the frontends.
pub(crate) fn walk<'t>(
    root: tree_sitter::Node<'t>,
    mut visit: impl FnMut(tree_sitter::Node<'t>, bool),
) {
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        visit(node, true);
        if cursor.goto_first_child() {
            continue;
        }
        visit(node, false);
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
            visit(cursor.node(), false);
        }
    }
}

/// A loop that runs forever and sleeps between rounds, with no way out of it (`while (true) {
/// ..; await new Promise((r) => setTimeout(r, 60000)) }`, Python's `while True: ..;
/// time.sleep(interval)`): its function polls on a period, a job off the request path
/// (courselit's drip processor, clearml-server's watchdog). `forever` is the loop's condition
/// (`(true)`, `True`), `body` its body's text: a `break` or a `return` in it makes a retry loop.
pub(crate) fn polls_forever(forever: &str, body: &str) -> bool {
    let forever = forever
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .trim();
    matches!(forever, "true" | "True" | "1")
        && ["setTimeout(", "sleep(", "delay(", "setTimeoutPromise("]
            .iter()
            .any(|s| body.contains(s))
        && !naming::for_each_word(body, |w| matches!(w, "break" | "return"))
}

/// Whether function `f` polls on a period: a loop in it whose condition is always true
/// (`forever`: the texts that write one, asked of the function's text first) sleeps between
/// rounds and has no way out (see [`polls_forever`]).
pub(crate) fn function_polls_forever<'t>(
    parents: &flat::Flat<'t>,
    src: &'t str,
    f: tree_sitter::Node<'t>,
    forever: &[&str],
) -> bool {
    let text = |n: tree_sitter::Node<'t>| src.get(n.byte_range()).unwrap_or("");
    // (The text first: the walk is of the whole function. Each of `forever` starts with `while`,
    // found with a searcher built once: a substring search per word set one up per call.)
    static WHILE: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new("while"));
    debug_assert!(forever.iter().all(|m| m.starts_with("while")));
    let body = text(f);
    if !WHILE
        .find_iter(body.as_bytes())
        .any(|at| forever.iter().any(|m| body[at..].starts_with(m)))
    {
        return false;
    }
    let mut polls = false;
    parents.walk(f, |c, k, enter| {
        if enter && !polls && k == "while_statement" {
            if let (Some(cond), Some(body)) =
                (parents.field(c, "condition"), parents.field(c, "body"))
            {
                polls = polls_forever(text(cond), text(body));
            }
        }
    });
    polls
}

/// A loop over a literal list, a range, a number or a class's subclasses: a handful of fixed
/// iterations, not data.
pub(crate) fn fixed_iterable(text: &str) -> bool {
    let t = text
        .trim()
        .trim_start_matches("&mut ")
        .trim_start_matches('&');
    // (Not a comprehension, `[r for r in renditions.values() if r]`, nor a spread, `[...ids]`:
    // data. A spread of fixed lists is the frontend's `LoopOver::fixed`.)
    // (`...` at the end marks a text cut at 80 characters.)
    let built =
        t.contains(" for ") && t.contains(" in ") || t.trim_end_matches("...").contains("...");
    t.starts_with(['[', '(', '{', '"', '\'', '`']) && !built && !joined_with_data(t)
        || t.starts_with(|c: char| c.is_ascii_digit())
        || t.starts_with("range(")
        || object_keys_of_a_constant(t)
        || t.starts_with("enumerate([")
        || t.contains("..")
            && !t.contains("...")
            && t.split("..")
                .all(|p| !p.contains('(') || p.contains("len()"))
        || t.ends_with("Names()")
        || t.ends_with(".__subclasses__()")
        // An object's attribute names (`for attr in dir(self)`): fixed by its class.
        || (t.starts_with("dir(") && t.ends_with(')'))
        || few_by_slice(t)
        || is_constant_path(t)
        || repeats_a_value(t)
}

/// A list written in the code joined to one that is not (alerta's `for match in [login] +
/// matches`, JavaScript's `[owner].concat(members)`): it iterates over the data too.
fn joined_with_data(t: &str) -> bool {
    let mut depth = 0usize;
    let mut close = None;
    for (i, b) in t.bytes().enumerate() {
        match b {
            b'[' | b'(' | b'{' => depth += 1,
            b']' | b')' | b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    close = Some(i);
                    break;
                }
            }
            _ => {}
        }
    }
    let Some(rest) = close.map(|i| t[i + 1..].trim_start()) else {
        return false;
    };
    let other = if let Some(r) = rest.strip_prefix('+') {
        r.trim_start()
    } else if let Some(r) = rest.strip_prefix(".concat(") {
        r.trim_start()
    } else {
        return false;
    };
    !other.is_empty() && !other.starts_with(['[', '(', '{', '"', '\'', '`'])
}

/// A slice of at most a few items, its bounds numbers written in the code: Python's
/// `history[-3:]`, `items[:5]` (also under `reversed(..)`), JavaScript's `xs.slice(0, 5)` or
/// `xs.slice(-3)`. At most ten iterations: not a query per item of data.
pub(crate) fn few_by_slice(t: &str) -> bool {
    const FEW: i64 = 10;
    let t = t
        .strip_prefix("reversed(")
        .and_then(|x| x.strip_suffix(')'))
        .unwrap_or(t);
    let num = |x: &str| x.trim().parse::<i64>().ok();
    if let Some(inner) = t
        .strip_suffix(']')
        .and_then(|x| x.rsplit_once('['))
        .map(|x| x.1)
    {
        return match inner.split_once(':') {
            Some((a, b)) => match (a.trim(), b.trim()) {
                ("", b) => num(b).is_some_and(|n| (1..=FEW).contains(&n)),
                (a, "") => num(a).is_some_and(|n| (-FEW..0).contains(&n)),
                (a, b) => num(a)
                    .zip(num(b))
                    .is_some_and(|(a, b)| a >= 0 && b > a && b - a <= FEW),
            },
            None => false,
        };
    }
    let Some(args) = t
        .strip_suffix(')')
        .and_then(|x| x.rsplit_once(".slice("))
        .map(|x| x.1)
    else {
        return false;
    };
    match args.split_once(',') {
        Some((a, b)) => num(a)
            .zip(num(b))
            .is_some_and(|(a, b)| a >= 0 && b > a && b - a <= FEW),
        None => num(args).is_some_and(|n| (-FEW..0).contains(&n)),
    }
}

/// The keys or entries of an object written in the code (`Object.keys(STATUSES)`,
/// `Object.entries({ a: 1 })`): fixed. Of a parameter or a variable (`Object.entries(alertsByTile)`,
/// one alert per tile of a request), data.
fn object_keys_of_a_constant(t: &str) -> bool {
    let Some(arg) = ["Object.entries(", "Object.keys("]
        .iter()
        .find_map(|p| t.strip_prefix(p))
        .and_then(|rest| rest.strip_suffix(')'))
    else {
        return false;
    };
    let arg = arg.trim();
    arg.starts_with('{') || is_constant_path(arg)
}

/// One value repeated a number of times: `stream::repeat(()).take(n)`, `iter::repeat_n(x, n)`,
/// `itertools.repeat(None, n)`. A count, like a range (openstream splits a scan into batches so).
fn repeats_a_value(t: &str) -> bool {
    let Some((callee, _)) = t.split_once('(') else {
        return false;
    };
    callee
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':'))
        && matches!(
            callee.rsplit(['.', ':']).next(),
            Some("repeat" | "repeat_n" | "repeat_with")
        )
}

/// A module constant (`CALL_STATES`, `constants.TASK_TYPES`, `Status::ALL`): a list written in the
/// code, a handful of fixed iterations (one count per state), not data.
fn is_constant_path(t: &str) -> bool {
    let last = t.rsplit(['.', ':']).next().unwrap_or(t);
    t.chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':'))
        && naming::is_constant_name(last)
}

/// The context of a call met inside `loops` (innermost last: the loop's span and what it iterates
/// over) and `functions` (innermost last: the name, empty for an anonymous function, and whether it
/// is periodic), as the JavaScript and Python operation passes track them.
///
/// A call in the iterable of a loop (`for card in db.cards.find({"boardId": board["_id"]})`,
/// `for (const c of await cards.find(q).toArray())`) is evaluated once, before that loop's
/// first iteration: it is in the loop around that loop (once per board), if any. Both
/// languages evaluate `for .. in` / `for .. of` iterables (and a comprehension's first one)
/// once; a `while` loop, whose condition runs every time, has no iterable.
pub(crate) fn op_context(
    loops: &[(crate::ir::Span, Option<crate::ir::LoopOver>)],
    functions: &[(String, bool)],
    file_periodic: bool,
    call: crate::ir::Span,
) -> crate::ir::OpContext {
    // A loop over a handful of fixed values inside a loop over data (`for gene in genes: for cat
    // in CATEGORIES: find_one(..)`) repeats the call per item of the loop around it: the innermost
    // loop that is not fixed is the one that counts, if any.
    let mut around = loops
        .iter()
        .rev()
        .filter(|l| !l.1.as_ref().is_some_and(|over| over.span.contains(call)));
    let first = around.clone().next();
    let innermost = around
        .find(|l| !l.1.as_ref().is_some_and(|over| over.fixed))
        .or(first);
    call_context(
        innermost.map(|l| (l.0, l.1.as_ref())),
        functions.iter().map(|f| f.0.as_str()),
        file_periodic || functions.last().is_some_and(|f| f.1),
    )
}

/// What the query a method call sends is written in: its receiver, its arguments and the
/// arguments of the calls chained onto it (`.sort(..)`, `.skip(n)` in `find(q).sort(..).skip(n)`),
/// where `member` and `call_kind` are the grammar's kinds of `a.b` and `f(..)`; `None` when `call`
/// is no method call.
fn query_parts<'t>(
    parents: &flat::Flat<'t>,
    call: tree_sitter::Node<'t>,
    member: &str,
    call_kind: &str,
) -> Option<Vec<tree_sitter::Node<'t>>> {
    let func = parents
        .field(call, "function")
        .filter(|f| f.k() == member)?;
    let mut out = vec![
        parents.field(func, "object")?,
        parents.field(call, "arguments")?,
    ];
    let mut top = call;
    while let Some(m) = parents
        .of(top)
        .filter(|m| m.k() == member && parents.field(*m, "object") == Some(top))
    {
        let Some(chained) = parents
            .of(m)
            .filter(|c| c.k() == call_kind && parents.field(*c, "function") == Some(m))
        else {
            break;
        };
        out.extend(parents.field(chained, "arguments"));
        top = chained;
    }
    Some(out)
}

/// The names the query of a method call reads (see [`query_parts`]), as `names_read` gives each
/// part's; `None` when `call` is no method call or a part holds code of its own.
pub(crate) fn query_names<'t, T>(
    parents: &flat::Flat<'t>,
    call: tree_sitter::Node<'t>,
    kinds: (&str, &str),
    names_read: impl Fn(tree_sitter::Node<'t>) -> Option<Vec<T>>,
) -> Option<Vec<T>> {
    let parts = query_parts(parents, call, kinds.0, kinds.1)?;
    let read: Option<Vec<Vec<T>>> = parts.into_iter().map(names_read).collect();
    read.map(|r| r.into_iter().flatten().collect())
}

/// Whether a call in the loop `loop_span` sends the same query on every iteration: its query reads
/// the paths `names` (see [`query_names`]; `None`: it cannot say), the call reaches the loop
/// through nodes that `pass` lets through, and none of those paths overlaps one that the loop
/// changes (`changed_in` of the loop's node, kept in `cache` by loop: a loop holding many calls is
/// walked once). Shared by the JavaScript and Python frontends, which differ in what they read.
pub(crate) fn same_query_each_iteration<'t>(
    parents: &flat::Flat<'t>,
    call: tree_sitter::Node<'t>,
    loop_span: crate::ir::Span,
    names: Option<Vec<String>>,
    pass: impl Fn(tree_sitter::Node<'t>) -> bool,
    cache: &mut HashMap<crate::ir::Span, Vec<String>>,
    changed_in: impl FnOnce(tree_sitter::Node<'t>) -> Vec<String>,
) -> bool {
    let Some(names) = names else {
        return false;
    };
    let Some(looped) = ancestor_spanning(parents, call, loop_span, pass) else {
        return false;
    };
    let changed = cache.entry(loop_span).or_insert_with(|| changed_in(looped));
    !names
        .iter()
        .any(|n| changed.iter().any(|c| paths_overlap(n, c)))
}

/// Of the update documents a name or a condition may give a call (see the frontends'
/// `lower_update`), the one that grows an array, else the one that counts: what some run of the
/// code sends that a rule may report. `None` when none does.
pub(crate) fn growing_update(updates: Vec<crate::ir::Value>) -> Option<crate::ir::Value> {
    let has = |v: &crate::ir::Value, ops: &[&str]| {
        v.fields().iter().any(|f| ops.contains(&f.key.as_str()))
    };
    let i = updates
        .iter()
        .position(|u| has(u, &["$push", "$pushAll", "$addToSet"]))
        .or_else(|| updates.iter().position(|u| has(u, &["$inc"])))?;
    updates.into_iter().nth(i)
}

/// The expression naming the collection of `op`, a call in a loop, when the name is written in
/// the loop and is neither literal nor imported: what the frontends check for names the loop
/// changes (see `OpContext::name_fixed_in_loop`).
pub(crate) fn loop_invariant_name_candidate<'t>(
    op: &crate::ir::Operation,
    call: tree_sitter::Node<'t>,
) -> Option<tree_sitter::Node<'t>> {
    let l = op.context.enclosing_loop?;
    let c = op.collection.as_ref()?;
    if matches!(c.name, crate::ir::CollectionName::Literal { .. })
        || c.import.is_some()
        || c.span == crate::ir::Span::default()
        || !l.contains(c.span)
    {
        return None;
    }
    let (start, end) = (c.span.start as usize, c.span.end as usize);
    call.descendant_for_byte_range(start, end)
        .filter(|n| n.start_byte() == start && n.end_byte() == end)
}

/// The loops around each call that sits in two loops or more (all of them, outermost first, as
/// the walk's stack holds them), by the call's byte range: for the reads that send the same query
/// on every iteration of their innermost loop (see [`loop_that_varies`]).
pub(crate) type NestedLoops =
    HashMap<(u32, u32), Vec<(crate::ir::Span, Option<crate::ir::LoopOver>)>>;

/// For a read `call` that sends the same query on every iteration of its loop `inner`: the
/// nearest loop around that one whose iterations change the query, where the read is repeated
/// once per item (`for u in updates: for p in u["patch"]: find_one({"_id": u["_id"]})` reads
/// once per update, on each of its patches). Loops over fixed values and loops whose iterable
/// holds the call are passed over, as [`op_context`] does. `varies(span)` says whether the query
/// changes in the loop `span`, or `None` when the call runs apart from it (a function between):
/// then, or when every loop around sends the same query, or when the loop where it changes has
/// no iterable the frontend knows (`while`), `None`.
pub(crate) fn loop_that_varies(
    loops: &[(crate::ir::Span, Option<crate::ir::LoopOver>)],
    inner: crate::ir::Span,
    call: crate::ir::Span,
    mut varies: impl FnMut(crate::ir::Span) -> Option<bool>,
) -> Option<(crate::ir::Span, &crate::ir::LoopOver)> {
    for (span, over) in loops.iter().rev() {
        if *span == inner || !span.contains(inner) {
            continue;
        }
        if over
            .as_ref()
            .is_some_and(|o| o.fixed || o.span.contains(call))
        {
            continue;
        }
        if varies(*span)? {
            return over.as_ref().map(|o| (*span, o));
        }
    }
    None
}

/// Whether `text` is arithmetic on number literals alone (`(24 * 60) * 60 / 30`): the only
/// expressions worth folding, checked before lowering either side (most arithmetic in values
/// reads names: `n + 1`, `page * size`).
pub(crate) fn is_literal_arithmetic(text: &str) -> bool {
    text.bytes().any(|b| b.is_ascii_digit())
        && text.bytes().all(|b| {
            b.is_ascii_digit()
                || b.is_ascii_whitespace()
                || matches!(
                    b,
                    b'+' | b'-' | b'*' | b'/' | b'%' | b'(' | b')' | b'.' | b'_'
                )
        })
}

/// `a op b` for two numbers written in the code (`+ - * / %`, Python's `//` and `**` too), when
/// the result is a finite number.
pub(crate) fn fold_arithmetic(op: &str, a: f64, b: f64) -> Option<f64> {
    let x = match op {
        "+" => a + b,
        "-" => a - b,
        "*" => a * b,
        "/" if b != 0.0 => a / b,
        "%" if b != 0.0 => a % b,
        "//" if b != 0.0 => (a / b).floor(),
        "**" if b.abs() <= 64.0 => a.powf(b),
        _ => return None,
    };
    x.is_finite().then_some(x)
}

/// A [`crate::ir::HelperRead`] for the call `call` (its callee a name, or a member whose node kind
/// and property field are `member`), of the function `callee` whose read is at `read`.
pub(crate) fn helper_read<'t>(
    parents: &flat::Flat<'t>,
    call: tree_sitter::Node<'t>,
    member: (&str, &'static str),
    callee: String,
    read: crate::ir::Span,
    context: crate::ir::OpContext,
) -> crate::ir::HelperRead {
    let at = |n: tree_sitter::Node<'t>| crate::ir::Span::new(n.start_byte(), n.end_byte());
    let function = parents.field(call, "function");
    let callee_span = match function {
        Some(f) if f.k() == member.0 => parents.field(f, member.1).map(at),
        f => f.map(at),
    };
    crate::ir::HelperRead {
        call: at(call),
        callee_span: callee_span.unwrap_or(at(call)),
        callee,
        read,
        read_file: None,
        context,
    }
}

/// Whether `op` is a driver call as far as its file can tell: it has evidence, or its collection
/// is imported from another module, which the linker may find to be a model or a collection
/// (`User.findOne({_id: id})`, `User` of `require('../models').User`).
pub(crate) fn may_be_driver_call(op: &crate::ir::Operation) -> bool {
    op.evidence != crate::ir::Evidence::None
        || op.collection.as_ref().is_some_and(|c| c.import.is_some())
}

/// An [`crate::ir::ImportedCall`] for the call `call` of a function imported as `import` (its
/// callee a name, or a member whose node kind and property field are `member`).
pub(crate) fn imported_call<'t>(
    parents: &flat::Flat<'t>,
    src: &str,
    call: tree_sitter::Node<'t>,
    member: (&str, &'static str),
    import: crate::ir::ImportRef,
    context: crate::ir::OpContext,
) -> crate::ir::ImportedCall {
    let callee = parents
        .field(call, "function")
        .and_then(|f| src.get(f.start_byte()..f.end_byte()))
        .unwrap_or("")
        .to_string();
    let h = helper_read(
        parents,
        call,
        member,
        String::new(),
        Default::default(),
        context,
    );
    crate::ir::ImportedCall {
        import,
        call: h.call,
        callee_span: h.callee_span,
        callee,
        context: h.context,
    }
}

/// The reads of a file that a look-up another module calls may make (see
/// [`crate::ir::Lookup`]): in a function, outside any loop.
pub(crate) fn lookup_reads(ops: &[crate::ir::Operation]) -> Vec<crate::ir::Span> {
    ops.iter()
        .filter(|o| {
            o.kind.is_read()
                && may_be_driver_call(o)
                && o.context.function.is_some()
                && o.context.enclosing_loop.is_none()
        })
        .map(|o| o.span)
        .collect()
}

/// `lookups` without the names two of them answer to (neither is the one called).
pub(crate) fn unique_lookups(mut lookups: Vec<crate::ir::Lookup>) -> Vec<crate::ir::Lookup> {
    let twice: Vec<String> = lookups
        .iter()
        .enumerate()
        .filter(|(i, l)| lookups[..*i].iter().any(|m| m.name == l.name))
        .map(|(_, l)| l.name.clone())
        .collect();
    lookups.retain(|l| !twice.contains(&l.name));
    lookups
}

/// The read a function of the file makes when the call at `call` of it is a look-up (see
/// [`crate::ir::HelperRead`]): the call is no call of the function from inside itself, nor an
/// operation of its own (no call: a look-up another module may call, see [`crate::ir::Lookup`]);
/// the function, spanning `def` and named `name`, has one to three operations, each a read outside
/// any loop of its own that varies with `params`, and it is no runner of the caller's queries:
/// neither a read's receiver, its collection nor its whole query is one of `params` (`self`,
/// `cls` and `this` are the object's, not the caller's). The first read is the one reported.
pub(crate) fn helper_lookup(
    ops: &[crate::ir::Operation],
    def: crate::ir::Span,
    call: Option<crate::ir::Span>,
    name: &str,
    params: &[&str],
) -> Option<crate::ir::Span> {
    if call.is_some_and(|call| def.contains(call) || ops.iter().any(|o| o.span == call)) {
        return None;
    }
    // (A function that reads two or three collections by its parameters, dodona's
    // `get_all_project_info(project_id, db)`, is a look-up of each: the first is reported.)
    let mut first = None;
    for (i, o) in ops
        .iter()
        .filter(|o| def.contains(o.span) && may_be_driver_call(o))
        .enumerate()
    {
        if i == 3 {
            return None;
        }
        let read = look_up_read(o, def, name, params)?;
        first.get_or_insert(read);
    }
    first
}

/// The span of `read` when it is, in the function `def` named `name` with parameters `params`,
/// the read of a look-up (see [`helper_lookup`]).
fn look_up_read(
    read: &crate::ir::Operation,
    def: crate::ir::Span,
    name: &str,
    params: &[&str],
) -> Option<crate::ir::Span> {
    use crate::ir::{CollectionName, NamePart, Value, ValueKind};
    if !read.kind.is_read()
        || read.context.function.as_deref() != Some(name)
        || read.context.enclosing_loop.is_some_and(|l| def.contains(l))
    {
        return None;
    }
    let param_root = |t: &str| {
        let root = t
            .strip_prefix("this.")
            .unwrap_or(t)
            .split(['.', '[', '('])
            .next();
        root.is_some_and(|r| !matches!(r, "self" | "cls" | "this") && params.contains(&r))
    };
    let is_param =
        |v: &Value| matches!(&v.kind, ValueKind::Unknown(u) if params.contains(&u.text.as_str()));
    // (A collection named per call by a parameter, `'app_users' + app._id`, is another
    // collection for each.)
    let named_by_param = read.collection.as_ref().is_some_and(|c| match &c.name {
        CollectionName::Unknown { text } => param_root(text),
        CollectionName::Template { parts } => parts
            .iter()
            .any(|p| matches!(p, NamePart::Hole { text, .. } if param_root(text))),
        _ => false,
    });
    let query_is_param = read.filter.as_ref().is_some_and(is_param)
        || read
            .pipeline
            .as_ref()
            .is_some_and(|st| st.len() == 1 && is_param(&st[0]));
    // The query must vary with the call: one the arguments do not reach is the same query each
    // time (`find_one({"_id": SCHEME})` then a search in memory).
    fn mentions(v: &Value, params: &[&str], depth: usize) -> bool {
        depth < 16
            && match &v.kind {
                ValueKind::Unknown(u) => params
                    .iter()
                    .any(|p| !matches!(*p, "self" | "cls") && has_identifier(&u.text, p)),
                ValueKind::Document(fs) => fs.iter().any(|f| mentions(&f.value, params, depth + 1)),
                ValueKind::Array(xs) => xs.iter().any(|x| mentions(x, params, depth + 1)),
                _ => false,
            }
    }
    let varies = read
        .filter
        .iter()
        .chain(read.pipeline.iter().flatten())
        .any(|v| mentions(v, params, 0));
    // (A receiver made from a parameter runs the caller's queries, unless it names its
    // collection: `db.collection("details")` of a `db` parameter is always the same.)
    let named = read
        .collection
        .as_ref()
        .is_some_and(|c| matches!(c.name, CollectionName::Literal { .. }));
    let runner = param_root(&read.receiver) && !named;
    (varies && !named_by_param && !query_is_param && !runner).then_some(read.span)
}

/// The parameters of a function, as [`mark_forwarded_queries`] reads them.
#[derive(Default)]
pub(crate) struct Parameters<'p> {
    /// The names of the parameters that are names, by position (`""` for a pattern).
    pub names: Vec<&'p str>,
    /// The names that an object parameter's `skip` or `offset` member binds (`{ sort, limit,
    /// skip }`, `{ skip: from = 0 }`): the skip of options the caller fills in.
    pub members: Vec<&'p str>,
}

/// Marks the operations among `ops` that run the query their function was given, as given
/// ([`crate::ir::OpContext::forwards_query`]); `params_around` gives the parameters of the
/// function around a span, and `from_param(filter, span, params)` whether the name at the root
/// of the filter at `span` is one of them or is made from one (a frontend may follow a local:
/// `const fullQuery = this.applyBaseQuery(query)`). Such an operation's filter is a parameter
/// (or a member of one: `cursorDescription.selector`), and its skip the member of the same name
/// of an options parameter (`options.skip`, `opts.offset`, or `skip` destructured from it:
/// `_find(query, { sort, limit, skip } = {})`). Its function wraps the driver, whatever query and
/// options its callers have (apostrophe's `lowLevelMongoCursor(req, criteria, projection,
/// options)`): they decide the paging. A function with a parameter of its own for the skip
/// (`sheet_list(query, sort, skip=0)`) is written to page, and is judged, unless it is given the
/// collection too (`mongo_find(collection, query, .., skip=0)`: the driver's `find` renamed). A request's values are
/// no wrapper's parameters (`req.query.skip`), nor an object's own (`self.skip`).
pub(crate) fn mark_forwarded_queries<'p>(
    ops: &mut [crate::ir::Operation],
    params_around: impl Fn(crate::ir::Span) -> Option<Parameters<'p>>,
    from_param: impl Fn(&str, crate::ir::Span, &[&'p str]) -> bool,
) {
    for op in ops.iter_mut() {
        // (The shapes first: the function is looked for only for them.)
        let forwards = forwarded_query(op).is_some_and(|(filter, skip, member)| {
            params_around(op.span).is_some_and(|params| {
                let skip_given = if member {
                    params.names.contains(&skip)
                } else {
                    params.members.contains(&skip)
                        || (params.names.contains(&skip) && {
                            // The collection too, named by a parameter or made from one (crits'
                            // `mongo_find(collection, query, fields=None, skip=0, ..)` with `col
                            // = mongo_connector(collection)`), with the filter: the driver's
                            // `find` under another name, whose skip parameter is its callers'.
                            // (A cursor handed in whole and paged, `paginate(cursor, offset)`,
                            // is written to page.)
                            let receiver = op.receiver.as_str();
                            let root = receiver.split(['.', '(', '[']).next().unwrap_or(receiver);
                            let named_by_param = match op.collection.as_ref().map(|c| &c.name) {
                                Some(crate::ir::CollectionName::Unknown { text }) => {
                                    params.names.contains(&text.as_str())
                                }
                                _ => false,
                            };
                            op.filter.is_some()
                                && (named_by_param
                                    || (!own_root(root)
                                        && from_param(root, op.span, &params.names))
                                    || passes_parameter(receiver, &params.names))
                        })
                };
                let filter_given = match filter {
                    Filter::Name(name) => from_param(name, op.span, &params.names),
                    Filter::Made(text) => passes_parameter(text, &params.names),
                };
                skip_given && filter_given
            })
        });
        op.context.forwards_query |= forwards;
    }
}

/// The names at the root of `op`'s filter and skip when they have the shapes
/// [`mark_forwarded_queries`] asks of a wrapper's (`criteria`, `options.skip`), and whether the
/// skip is a member (`options.skip`: `true`) or a name (`skip`, which must then be destructured
/// from an options parameter). Without a filter, a query handed in whole is its receiver (`q` of
/// `q.skip(skip)`).
fn forwarded_query(op: &crate::ir::Operation) -> Option<(Filter<'_>, &str, bool)> {
    use crate::ir::{Value, ValueKind};
    fn root<'v>(text: &'v str, is_name: bool, members: &[&str]) -> Option<(&'v str, bool)> {
        // (`options?.skip`: an optional chain reads the same member.)
        let mut parts = text.split('.');
        let root = parts.next().unwrap_or("").trim_end_matches('?');
        let last = parts.next_back();
        let own = own_root(root);
        // (A bare name is shaped: it must be one that an options parameter's member binds.)
        let shaped = members.is_empty() || last.is_none_or(|l| members.contains(&l));
        (is_name && !own && shaped).then_some((root, last.is_some()))
    }
    // A skip made a number from what the options hold (`Math.max(0, parseInt(options.
    // pagination.page_token || "0"))`, Twake's connector) is still the callers'.
    fn skip_root(v: &Value) -> Option<(&str, bool)> {
        let ValueKind::Unknown(u) = &v.kind else {
            return None;
        };
        let t = unwrap_number(&u.text);
        let made_number = t.len() < u.text.len() && is_member_path(t);
        root(t, u.is_name || made_number, OFFSET_MEMBERS)
    }
    let skip = op
        .modifiers
        .iter()
        .find(|m| m.name == "skip")
        .and_then(|m| m.args.first())?;
    // A query handed in whole, paged where it is run (gitter's `executeSearch(q, options)`:
    // `q.limit(limit).skip(options.skip || 0).exec()`): the receiver, a name the frontend could
    // not place in a collection, is the filter.
    let Some(filter) = op.filter.as_ref() else {
        let receiver = op.receiver.as_str();
        let bare = !receiver.is_empty()
            && receiver
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$');
        return (op.collection.is_none() && bare && !own_root(receiver)).then(|| {
            let (skip, member) = skip_root(skip)?;
            Some((Filter::Name(receiver), skip, member))
        })?;
    };
    let named = match &filter.kind {
        ValueKind::Unknown(u) => root(&u.text, u.is_name, &[]),
        _ => None,
    };
    let filter = match named {
        Some((name, _)) => Filter::Name(name),
        // A call made from the parameters (`this.applyBaseQuery(query, ..)`, the value of the
        // local the frontend followed).
        None => match &filter.kind {
            ValueKind::Unknown(u) if u.text.ends_with(')') => Filter::Made(&u.text),
            _ => return None,
        },
    };
    let (skip, member) = skip_root(skip)?;
    Some((filter, skip, member))
}

/// The members of a wrapper's options that hold its callers' offset: `options.skip`,
/// `options.offset`, a page token that counts documents (`options.pagination.page_token`).
const OFFSET_MEMBERS: &[&str] = &["skip", "offset", "page_token", "pageToken"];

/// The value a skip's text makes a number of: `x` of `Math.max(0, x)`, `parseInt(x)`,
/// `parseInt(x, 10)`, `Number(x)`, `+x`, `x || 0`, `x ?? "0"`, however nested.
fn unwrap_number(mut t: &str) -> &str {
    loop {
        let before = t;
        t = t.trim();
        if let Some(inner) = t
            .strip_prefix("Math.max(0,")
            .or_else(|| t.strip_prefix("parseInt("))
            .or_else(|| t.strip_prefix("Number("))
            .and_then(|r| r.strip_suffix(')'))
        {
            t = inner.strip_suffix(", 10").unwrap_or(inner);
        } else if let Some(inner) = t.strip_prefix('+') {
            t = inner;
        } else if let Some((left, right)) = t.rsplit_once("||").or_else(|| t.rsplit_once("??")) {
            let right = right.trim().trim_matches(['"', '\'']);
            if right.is_empty() || !right.bytes().all(|b| b.is_ascii_digit()) {
                return t;
            }
            t = left;
        }
        if t.len() == before.len() {
            return t;
        }
    }
}

/// Whether `t` is a name or a path of members (`options.pagination.page_token`, `o?.skip`).
fn is_member_path(t: &str) -> bool {
    !t.is_empty()
        && t.split('.').all(|p| {
            let p = p.trim_end_matches('?');
            !p.is_empty()
                && p.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$')
        })
}

/// Whether a call's text (`this.applyBaseQuery(query, cross)`) passes one of `params` whole as
/// an argument: a query made from the one its function was given. Not a request's or a
/// context's (`featureListQuery(context.org.id, ..)` builds a query of its own).
pub(crate) fn passes_parameter(call: &str, params: &[&str]) -> bool {
    let Some(args) = call
        .find('(')
        .and_then(|i| call.strip_suffix(')').map(|c| &c[i + 1..]))
    else {
        return false;
    };
    args.split(',')
        .map(str::trim)
        .any(|a| !a.is_empty() && params.contains(&a) && !own_root(a))
}

/// A name whose members are a request's, a context's or an object's own (`req.query.skip`,
/// `self.skip`), which no caller hands a wrapper.
pub(crate) fn own_root(name: &str) -> bool {
    matches!(
        name,
        "req" | "request" | "ctx" | "context" | "self" | "cls" | "this"
    )
}

/// The filter of a query that may be its function's (see [`forwarded_query`]).
enum Filter<'o> {
    /// A name, or a member of one: the name.
    Name(&'o str),
    /// A call, whose arguments may be parameters (`this.applyBaseQuery(query)`): its text.
    Made(&'o str),
}

/// Whether an expression's text names a registry of collections by name: `collections`,
/// `context.collections` (Reaction's).
pub(crate) fn names_collection_registry(text: &str) -> bool {
    text == "collections" || text.ends_with(".collections")
}

/// Whether any of `ops` (a file's operations) could be run through a call of its function
/// (see [`operation_for_call`]): one with an update or documents.
pub(crate) fn may_run_through_calls(ops: &[crate::ir::Operation]) -> bool {
    ops.iter()
        .any(|o| o.update.is_some() || !o.documents.is_empty())
}

/// A call of a function of the file, as [`operations_through_call`] reads it.
pub(crate) struct CallOfFunction<'p> {
    /// The function's span and parameters.
    pub def: crate::ir::Span,
    pub params: Vec<&'p str>,
    /// The call's arguments, lowered, by parameter (`None` where the call gives none).
    pub args: Vec<Option<crate::ir::Value>>,
    pub call: crate::ir::Span,
    pub callee: crate::ir::Span,
    pub ctx: crate::ir::OpContext,
}

/// Whether a call at `call` of the function at `def` runs operations of it (`ops`), and is no
/// call of the function from inside itself.
pub(crate) fn runs_operations_of(
    ops: &[crate::ir::Operation],
    def: crate::ir::Span,
    call: crate::ir::Span,
) -> bool {
    !def.contains(call) && ops.iter().any(|o| def.contains(o.span))
}

/// The operations of the function that `c` calls, among `ops`, as the call runs them (see
/// [`operation_for_call`]), added to `out`.
pub(crate) fn operations_through_call(
    ops: &[crate::ir::Operation],
    c: &CallOfFunction,
    out: &mut Vec<crate::ir::Operation>,
) {
    for op in ops.iter().filter(|o| c.def.contains(o.span)) {
        out.extend(operation_for_call(
            op,
            &c.params,
            &c.args,
            c.call,
            c.callee,
            c.ctx.clone(),
        ));
    }
}

/// The operation `op` of a function of the file (its parameters `params`), as a call of the
/// function with the arguments `args` (lowered; `None` where the call gives none) runs it, when
/// the function's update, or an insert's documents, is a parameter the call writes out:
/// `function updateNotif(q, p) { db.notif.updateOne(q, p, {upsert: true}) }` called as
/// `updateNotif({_id: id}, {$addToSet: {uId: u}})` (openwhyd). Located at the call (`call`, its
/// callee `callee`), in its context `ctx`, each value that is a parameter replaced by what the
/// call gives it. `None` for an operation the frontend could not tie to a collection, and where
/// the call writes out no update (it forwards its own parameter, or gives none).
pub(crate) fn operation_for_call(
    op: &crate::ir::Operation,
    params: &[&str],
    args: &[Option<crate::ir::Value>],
    call: crate::ir::Span,
    callee: crate::ir::Span,
    ctx: crate::ir::OpContext,
) -> Option<crate::ir::Operation> {
    use crate::ir::{Value, ValueKind};
    if op.evidence == crate::ir::Evidence::None || op.through.is_some() || op.in_bulk {
        return None;
    }
    let param = |v: &Value| -> Option<Value> {
        let ValueKind::Unknown(u) = &v.kind else {
            return None;
        };
        if !u.is_name {
            return None;
        }
        let k = params.iter().position(|p| *p == u.text)?;
        args.get(k)?.as_ref().filter(|a| !a.is_unknown()).cloned()
    };
    // A parameter, or one the function fills before it sends it (`p.$set = p.$set || {}`, a
    // document of the members set and the parameter as a spread, `...`): what the call gives,
    // with the members it does not give itself.
    let given = |v: &Value| -> Option<Value> {
        let ValueKind::Document(fields) = &v.kind else {
            return param(v);
        };
        let spread = fields.iter().find(|f| f.key == "...")?;
        let mut out = param(&spread.value)?;
        if let ValueKind::Document(given) = &mut out.kind {
            let set: Vec<crate::ir::Field> = fields
                .iter()
                .filter(|f| f.key != "..." && !given.iter().any(|g| g.key == f.key))
                .cloned()
                .collect();
            given.extend(set);
        }
        Some(out)
    };
    let mut out = op.clone();
    if op.kind.is_update() {
        out.update = Some(given(op.update.as_ref()?)?);
    } else if op.kind == crate::ir::OpKind::Insert {
        let [doc] = op.documents.as_slice() else {
            return None;
        };
        out.documents = match given(doc)? {
            Value {
                kind: ValueKind::Array(items),
                ..
            } => items,
            v => vec![v],
        };
    } else {
        return None;
    }
    let filter = op.filter.as_ref().and_then(given);
    let filter_given = filter.is_some();
    if filter_given {
        out.filter = filter;
    }
    out.span = call;
    out.method_span = callee;
    out.context = ctx;
    out.through = Some(crate::ir::Through {
        operation: op.span,
        filter_given,
    });
    Some(out)
}

/// Whether the function `def` (its parameters `params`) does more than look a document up, or
/// looks it up only now and then: it is long (over 25 lines), it calls a write by name or
/// another function of the file (`helper_def` finds it) that runs operations (`ops`), or its
/// read at `read` runs under a condition that tests none of its parameters (`if not
/// self.sizes:`, a cache) or in an error handler.
pub(crate) fn more_than_a_look_up<'t>(
    parents: &flat::Flat<'t>,
    src: &str,
    def: tree_sitter::Node<'t>,
    read: crate::ir::Span,
    params: &[&str],
    ops: &[crate::ir::Operation],
    helper_def: impl Fn(tree_sitter::Node<'t>) -> Option<tree_sitter::Node<'t>>,
) -> bool {
    let text = |n: tree_sitter::Node<'t>| src.get(n.start_byte()..n.end_byte()).unwrap_or("");
    let is_helper = |c: tree_sitter::Node<'t>| {
        helper_def(c).is_some_and(|d| {
            let within = crate::ir::Span::new(d.start_byte(), d.end_byte());
            ops.iter()
                .any(|o| within.contains(o.span) && o.evidence != crate::ir::Evidence::None)
        })
    };
    // (`lines().count()`, by the line breaks: a function's text ends with no break.)
    let body = text(def).as_bytes();
    let lines = memchr::memchr_iter(b'\n', body).count() + usize::from(body.last() != Some(&b'\n'));
    if lines > 25 {
        return true;
    }
    let mut more = false;
    parents.walk_flagged(def, look_up_kinds::FLAGS.table(), |n, kind, enter| {
        if !enter || more {
            return;
        }
        let at = crate::ir::Span::new(n.start_byte(), n.end_byte());
        more = match kind {
            look_up_kinds::CALL if at != read => {
                let callee = parents.field(n, "function").map(text).unwrap_or("");
                let method = callee.rsplit(['.', ':']).next().unwrap_or(callee);
                writes_by_name(method) || is_helper(n)
            }
            look_up_kinds::CATCH => at.contains(read),
            look_up_kinds::IF => {
                // (A read in the condition itself runs whenever the `if` is reached.)
                let cond = parents.field(n, "condition");
                let in_cond = cond.is_some_and(|c| {
                    crate::ir::Span::new(c.start_byte(), c.end_byte()).contains(read)
                });
                let tested = cond.map(text).unwrap_or("");
                at.contains(read) && !in_cond && !params.iter().any(|p| has_identifier(tested, p))
            }
            _ => false,
        };
    });
    more
}

/// The node kinds `more_than_a_look_up` looks at, in every grammar (one flag each).
mod look_up_kinds {
    pub const CALL: u16 = 1;
    pub const CATCH: u16 = 2;
    pub const IF: u16 = 4;

    fn classify(kind: &str) -> u16 {
        match kind {
            "call" | "call_expression" => CALL,
            "except_clause" | "catch_clause" => CATCH,
            "if_statement" | "if_expression" => IF,
            _ => 0,
        }
    }

    pub static FLAGS: super::KindFlags = super::KindFlags::new(classify);
}

/// Whether the call `call` is guarded by a cache of its results in the caller: under an `if`
/// that asks a map or a dict whether it holds the key (`if (!byBoard.has(id))`, `if key not in
/// cache:`, `if !seen.contains_key(&id)`), up to the loop `l`.
pub(crate) fn cached_by_caller<'t>(
    parents: &flat::Flat<'t>,
    src: &str,
    call: tree_sitter::Node<'t>,
    l: crate::ir::Span,
) -> bool {
    let mut cur = call;
    while let Some(p) = parents.of(cur) {
        let at = crate::ir::Span::new(p.start_byte(), p.end_byte());
        if !l.contains(at) || at == l {
            return false;
        }
        let cond = || {
            parents
                .field(p, "condition")
                .and_then(|c| src.get(c.start_byte()..c.end_byte()))
                .unwrap_or("")
        };
        let cached = match p.k() {
            "if_statement" => {
                let cond = cond();
                cond.contains(".has(") || cond.contains(" not in ")
            }
            // Rust's.
            "if_expression" => cond().contains(".contains_key("),
            _ => false,
        };
        if cached {
            return true;
        }
        cur = p;
    }
    false
}

/// Methods whose call in a function makes it more than a look-up: writes (`save`, `insert_one`,
/// `insertAsync`, a service's `system_update`, `patch`), whatever their receiver.
pub(crate) fn writes_by_name(method: &str) -> bool {
    // (Compared without case, and without a lowercased copy.)
    let m = method.as_bytes();
    [
        "save", "insert", "update", "upsert", "patch", "delete", "remove", "replace", "create",
        "bulk",
    ]
    .iter()
    .any(|w| {
        m.get(..w.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(w.as_bytes()))
    }) || m.windows(7).any(|w| w.eq_ignore_ascii_case(b"_update"))
}

/// Settles, on the context of a read that sends the same query on every iteration of its
/// innermost loop, what [`loop_that_varies`] found: the loop around it whose items it is read per,
/// or, with none, that it is one query repeated.
pub(crate) fn settle_repeated_read(
    context: &mut crate::ir::OpContext,
    outer: Option<(crate::ir::Span, &crate::ir::LoopOver)>,
) {
    match outer {
        Some((o, over)) => {
            context.enclosing_loop = Some(o);
            context.loop_over = Some(over.clone());
        }
        None => context.same_each_iteration = true,
    }
}

/// The ancestor of `n` whose span is `target` (the loop a call is in), climbing only through
/// nodes that `pass` lets through (a function between them: the call runs apart from the loop).
pub(crate) fn ancestor_spanning<'t>(
    parents: &flat::Flat<'t>,
    n: tree_sitter::Node<'t>,
    target: crate::ir::Span,
    pass: impl Fn(tree_sitter::Node<'t>) -> bool,
) -> Option<tree_sitter::Node<'t>> {
    let mut cur = parents.of(n)?;
    loop {
        if crate::ir::Span::new(cur.start_byte(), cur.end_byte()) == target {
            return Some(cur);
        }
        if !pass(cur) {
            return None;
        }
        cur = parents.of(cur)?;
    }
}

/// The calls that run in a loop and do not leave it, by their byte range: to find a call again
/// from its operation once the calls are operations.
pub(crate) fn calls_in_loops<'t>(
    calls: &[(tree_sitter::Node<'t>, crate::ir::OpContext)],
) -> HashMap<(u32, u32), tree_sitter::Node<'t>> {
    calls
        .iter()
        .filter(|(_, c)| c.enclosing_loop.is_some() && !c.exits_loop)
        .map(|(n, _)| ((n.start_byte() as u32, n.end_byte() as u32), *n))
        .collect()
}

/// Adds to `changed` the names that plain assignments in a loop (`assigned`: each name with the
/// names its value reads, `None` for a value that runs code of its own) change: those given
/// something that changes, or that read themselves (`total = total + n`), until no more do.
/// `touches(read, changed)` says whether a name read is a name changed.
pub(crate) fn close_over_assignments<T: Clone + PartialEq>(
    changed: &mut Vec<T>,
    assigned: &[(T, Option<Vec<T>>)],
    touches: impl Fn(&T, &T) -> bool,
) {
    loop {
        let before = changed.len();
        for (name, value) in assigned {
            if changed.contains(name) {
                continue;
            }
            let changes = value.as_ref().is_none_or(|v| {
                v.iter()
                    .any(|r| touches(r, name) || changed.iter().any(|c| touches(r, c)))
            });
            if changes {
                changed.push(name.clone());
            }
        }
        if changed.len() == before {
            break;
        }
    }
}

/// Whether a path read and a path changed touch the same value: the same path, or one holds the
/// other (`doc` and `doc.customerId`, either way); `doc.total` and `doc.customerId` do not.
pub(crate) fn paths_overlap(read: &str, changed: &str) -> bool {
    let within = |long: &str, short: &str| {
        long.strip_prefix(short)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
    };
    within(read, changed) || within(changed, read)
}

/// Whether a call in a loop runs at most once per loop: a block between the call and the loop (a
/// `block_kind` node, with no function in between) ends with one of `exits` (`break`, `return`,
/// `throw` / `raise`): `for (const p of list) { if (p.sku === sku) { await Receipt.findOne(..);
/// break; } }` finds one item and stops. A callback loop (`items.forEach(..)`) never qualifies:
/// its `return` ends one iteration.
#[allow(clippy::too_many_arguments)]
pub(crate) fn exits_loop_after(
    parents: &flat::Flat,
    src: &str,
    call: tree_sitter::Node,
    loop_span: crate::ir::Span,
    block_kind: &str,
    exits: &[&str],
    is_function: impl Fn(&str) -> bool,
    is_loop: impl Fn(&str) -> bool,
) -> bool {
    // The block's children from the flat tree: a cursor's walk of every sibling, for every block
    // around every call in a loop, was 1.5% of a run on superdesk-core.
    let exit_of = |block: tree_sitter::Node<'_>| {
        let last = parents
            .children(block)
            .filter(|s| s.is_named() && s.k() != "comment")
            .last()?;
        let k = last.k();
        if exits.contains(&k) {
            return Some(k);
        }
        // A call that never returns, by its name (`abort(`: Flask's `abort(401)` raises).
        (k == "expression_statement").then_some(())?;
        let text = src.get(last.start_byte()..last.end_byte())?;
        exits
            .iter()
            .any(|e| e.ends_with('(') && text.starts_with(e))
            .then_some("raise_statement")
    };
    // The exit found, by its kind: a `break` leaves only the loop it is in, so it counts only
    // when that is the loop `loop_span` (a loop over a fixed list may be between).
    let mut exit: Option<&str> = None;
    let mut cur = parents.of(call);
    while let Some(n) = cur {
        if crate::ir::Span::new(n.start_byte(), n.end_byte()) == loop_span {
            return exit.is_some();
        }
        if is_function(n.k()) {
            return false;
        }
        if is_loop(n.k()) && exit == Some("break_statement") {
            exit = None;
        }
        if n.k() == block_kind && exit.is_none() {
            exit = exit_of(n);
        }
        cur = parents.of(n);
    }
    false
}

/// The context of a call: its innermost loop (the loop's span and what it iterates over), the names
/// of the functions around it (outermost first, empty for an anonymous function: the innermost
/// named one is the call's function) and whether it runs periodically.
pub(crate) fn call_context<'a>(
    innermost_loop: Option<(crate::ir::Span, Option<&crate::ir::LoopOver>)>,
    function_names: impl DoubleEndedIterator<Item = &'a str>,
    periodic: bool,
) -> crate::ir::OpContext {
    crate::ir::OpContext {
        enclosing_loop: innermost_loop.map(|l| l.0),
        loop_over: innermost_loop.and_then(|l| l.1.cloned()),
        function: function_names
            .rev()
            .find(|name| !name.is_empty())
            .map(str::to_string),
        periodic,
        size_guards: Vec::new(),
        exits_loop: false,
        receiver_per_item: false,
        name_fixed_in_loop: false,
        same_each_iteration: false,
        absent_checks: Vec::new(),
        query_is_item: false,
        forwards_query: false,
    }
}

/// The fields an update's `$push` and `$addToSet` add to (`tags: t` of `{$push: {tags: t}}`),
/// whose values the frontends match against the code's checks that an array lacks them.
pub(crate) fn pushed_fields(update: Option<&crate::ir::Value>) -> Vec<&crate::ir::Field> {
    update
        .map(|u| {
            u.fields()
                .iter()
                .filter(|o| matches!(o.key.as_str(), "$push" | "$pushAll" | "$addToSet"))
                .flat_map(|o| o.value.fields())
                .collect()
        })
        .unwrap_or_default()
}

/// The names a condition's text reads (`doc` of `doc is not None`, `group_id` and `doc` of
/// `group_id in doc["groups"]`), without the words that only test for a value's presence.
fn condition_names<'t>(src: &'t str, n: tree_sitter::Node<'t>) -> Vec<&'t str> {
    src.get(n.byte_range())
        .unwrap_or("")
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|w| {
            !w.is_empty()
                && !matches!(
                    *w,
                    "is" | "not"
                        | "None"
                        | "null"
                        | "undefined"
                        | "typeof"
                        | "len"
                        | "length"
                        | "Some"
                        | "let"
                )
                && !w.starts_with(|c: char| c.is_ascii_digit())
        })
        .collect()
}

/// How a language spells what [`size_guards`] reads.
pub(crate) struct GuardSyntax {
    /// Where the walk up from a call stops: functions, closures, the file.
    pub boundaries: &'static [&'static str],
    /// Conditionals with `condition`, `consequence` and `alternative` fields.
    pub ifs: &'static [&'static str],
    /// Statement lists, in which an earlier `if` may leave.
    pub blocks: &'static [&'static str],
    /// Statements that leave the block: `return`, `raise`/`throw`, `continue`, `break`.
    pub exits: &'static [&'static str],
    /// Assertions, which leave unless their first operand holds: statements of these kinds
    /// (Python's `assert`), or calls of these functions (Node's `assert(..)`, `assert.ok(..)`).
    pub asserts: &'static [&'static str],
}

/// The sizes the code checks against an upper bound before `n` (see `OpContext::size_guards`),
/// within its function: the conditionals whose body holds `n` (`bounded(condition, false, ..)`
/// reads the sizes a condition bounds from above), and the conditionals without an `else` before
/// it in a block whose body leaves (`bounded(condition, true, ..)`: the sizes it bounds from
/// below). The frontend's `bounded` knows its language's comparisons and size expressions.
pub(crate) fn size_guards<'t>(
    flat: &flat::Flat<'t>,
    src: &'t str,
    n: tree_sitter::Node<'t>,
    syntax: &GuardSyntax,
    bounded: impl FnMut(tree_sitter::Node<'t>, bool, &mut Vec<String>),
) -> Vec<String> {
    let mut out = guard_conditions(flat, src, n, syntax, false, bounded);
    out.sort();
    out.dedup();
    out
}

/// What the conditionals around `n` say, within its function: `read(condition, exit, out)` for
/// the conditionals whose body holds `n` (`exit` false: the condition is true there), for those
/// whose `else` holds it when `elses` (`exit` true: it is false there), and for the conditionals
/// without an `else` before `n` in a block whose body leaves (`exit` true). Shared by
/// [`size_guards`] and the JavaScript frontend's checks that an array does not hold a value.
pub(crate) fn guard_conditions<'t, T>(
    flat: &flat::Flat<'t>,
    src: &'t str,
    n: tree_sitter::Node<'t>,
    syntax: &GuardSyntax,
    elses: bool,
    mut read: impl FnMut(tree_sitter::Node<'t>, bool, &mut Vec<T>),
) -> Vec<T> {
    let named = |n: tree_sitter::Node<'t>| {
        flat.children(n)
            .filter(|c| c.is_named() && !is_comment_kind(c.k()))
            .collect::<Vec<_>>()
    };
    // `return x;` in Rust is an expression statement.
    let statement = |s: tree_sitter::Node<'t>| match s.k() {
        "expression_statement" => named(s).into_iter().next().unwrap_or(s),
        _ => s,
    };
    let mut out: Vec<T> = Vec::new();
    let mut child = n;
    let mut node = flat.of(n);
    for _ in 0..64 {
        let Some(p) = node else { break };
        let kind = p.k();
        if syntax.boundaries.contains(&kind) {
            break;
        }
        let holds =
            |field: &'static str| flat.field(p, field).is_some_and(|b| b.id() == child.id());
        if syntax.ifs.contains(&kind) && holds("consequence") {
            if let Some(cond) = flat.field(p, "condition") {
                read(cond, false, &mut out);
            }
        } else if elses && syntax.ifs.contains(&kind) && holds("alternative") {
            if let Some(cond) = flat.field(p, "condition") {
                read(cond, true, &mut out);
            }
        } else if syntax.blocks.contains(&kind) {
            for stmt in named(p) {
                if stmt.start_byte() >= child.start_byte() {
                    break;
                }
                let stmt = statement(stmt);
                // `assert(arr.indexOf(v) === -1)`: what follows runs only where it holds.
                let asserted = if syntax.asserts.contains(&stmt.k()) {
                    named(stmt).into_iter().next()
                } else if stmt.k() == "call_expression"
                    && flat
                        .field(stmt, "function")
                        .and_then(|f| src.get(f.byte_range()))
                        .is_some_and(|f| syntax.asserts.contains(&f))
                {
                    flat.field(stmt, "arguments")
                        .and_then(|a| named(a).into_iter().next())
                } else {
                    None
                };
                if let Some(cond) = asserted {
                    read(cond, false, &mut out);
                    continue;
                }
                if !syntax.ifs.contains(&stmt.k()) || flat.field(stmt, "alternative").is_some() {
                    continue;
                }
                // The last statement of an `if` without `else`, and whether it leaves.
                let last_of = |stmt: tree_sitter::Node<'t>| {
                    let body = flat.field(stmt, "consequence")?;
                    let last = if syntax.blocks.contains(&body.k()) {
                        named(body).into_iter().last()?
                    } else {
                        body
                    };
                    let last = statement(last);
                    Some((last, syntax.exits.contains(&last.k())))
                };
                match last_of(stmt) {
                    Some((_, true)) => {
                        if let Some(cond) = flat.field(stmt, "condition") {
                            read(cond, true, &mut out);
                        }
                    }
                    // `if doc is not None: if v in doc["arr"]: return` (EvaMaria's connections):
                    // an exit nested one level in an `if` without `else`, whose condition only
                    // asks about what the inner one tests (that the document is there), not a
                    // mode of its own (`if strict:`).
                    Some((inner, false))
                        if syntax.ifs.contains(&inner.k())
                            && flat.field(inner, "alternative").is_none()
                            && last_of(inner).is_some_and(|(_, exits)| exits) =>
                    {
                        if let (Some(outer), Some(cond)) = (
                            flat.field(stmt, "condition"),
                            flat.field(inner, "condition"),
                        ) {
                            let inner_names = condition_names(src, cond);
                            if condition_names(src, outer)
                                .iter()
                                .all(|w| inner_names.contains(w))
                            {
                                read(cond, true, &mut out);
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        child = p;
        node = flat.of(p);
    }
    out
}

/// What a binary comparison bounds (JavaScript, Rust): with `exit`, `&&` is not followed but `||`
/// is, and the size must be at least (`>=`, `>`) rather than below (`<`, `<=`) a limit. Returns
/// the operand measured, or calls `each` on both sides of the followed boolean operator.
pub(crate) fn binary_bound<'t>(
    flat: &flat::Flat<'t>,
    src: &'t str,
    cond: tree_sitter::Node<'t>,
    exit: bool,
    mut each: impl FnMut(tree_sitter::Node<'t>),
) -> Option<tree_sitter::Node<'t>> {
    // (The operator is a token the flat tree may leave out: read it from the tree.)
    let op = cond
        .child_by_field_name("operator")
        .and_then(|o| src.get(o.byte_range()));
    let (l, r) = (flat.field(cond, "left")?, flat.field(cond, "right")?);
    match (op, exit) {
        (Some("&&"), false) | (Some("||"), true) => {
            each(l);
            each(r);
            None
        }
        (Some("<" | "<="), false) | (Some(">" | ">="), true) => Some(l),
        (Some(">" | ">="), false) | (Some("<" | "<="), true) => Some(r),
        _ => None,
    }
}

/// The sizes a JavaScript or Rust condition bounds (the `bounded` of [`size_guards`]): through
/// parentheses and the boolean operator [`binary_bound`] follows, each comparison's measured
/// operand read by `size` (`x.length`, `x.len()`), which returns the size's text.
pub(crate) fn binary_sizes<'t>(
    flat: &flat::Flat<'t>,
    src: &'t str,
    cond: tree_sitter::Node<'t>,
    exit: bool,
    out: &mut Vec<String>,
    size: &impl Fn(tree_sitter::Node<'t>) -> Option<String>,
) {
    fn walk<'t>(
        flat: &flat::Flat<'t>,
        src: &'t str,
        cond: tree_sitter::Node<'t>,
        exit: bool,
        depth: usize,
        out: &mut Vec<String>,
        size: &impl Fn(tree_sitter::Node<'t>) -> Option<String>,
    ) {
        if depth > 8 {
            return;
        }
        match cond.k() {
            "parenthesized_expression" => {
                for c in flat
                    .children(cond)
                    .filter(|c| c.is_named() && !is_comment_kind(c.k()))
                {
                    walk(flat, src, c, exit, depth + 1, out, size);
                }
            }
            "binary_expression" => {
                let measured = binary_bound(flat, src, cond, exit, |c| {
                    walk(flat, src, c, exit, depth + 1, out, size)
                });
                if let Some(text) = measured.and_then(size) {
                    out.push(first_chars(&text, 120));
                }
            }
            _ => {}
        }
    }
    walk(flat, src, cond, exit, 0, out, size)
}

/// A loop's iterable (`OpContext::loop_over`): its span and its text on one line, at most 80 characters.
pub(crate) fn loop_over(t: &str, span: crate::ir::Span) -> crate::ir::LoopOver {
    let one_line = one_line(t).into_owned();
    let text = if one_line.chars().count() > 80 {
        let cut: String = one_line.chars().take(77).collect();
        format!("{cut}...")
    } else {
        one_line
    };
    crate::ir::LoopOver {
        // A list read from configuration (`settings.pools`, `process.env.HOSTS.split(",")`), or
        // written in the code (see `fixed_iterable`): decided once per loop, for every call in it.
        fixed: naming::reads_configuration(t) || fixed_iterable(&text) || few_by_limit(&text),
        batches: iterates_batches(t),
        text,
        span,
        item: None,
        bound_to: None,
    }
}

/// Whether the expression a loop's iterable is bound to (`LoopOver::bound_to`, spanned in `src`)
/// gives at most a few items (see `few_by_limit`).
pub(crate) fn bound_to_few(src: &str, bound: Option<crate::ir::Span>) -> bool {
    bound.is_some_and(|b| {
        src.get(b.start as usize..b.end as usize)
            .is_some_and(few_by_limit)
    })
}

/// The results of a read limited to at most ten documents by a number written in the code:
/// `coll.find(q).sort(..).limit(4)`, also with `.toArray()` after it, inside `list(..)`, or
/// Motor's `.to_list(5)`: a few iterations, as a short slice gives (`few_by_slice`). A limit
/// given as an option (`find(q, limit=3)`, `{ limit: 3 }`) is read by the rule from the
/// operation's modifiers.
pub(crate) fn few_by_limit(t: &str) -> bool {
    let mut t = t.trim();
    t = t.strip_prefix("await ").unwrap_or(t).trim_start();
    if let Some(inner) = t.strip_prefix("list(").and_then(|x| x.strip_suffix(')')) {
        t = inner.trim();
    }
    t = t.strip_suffix(".toArray()").unwrap_or(t);
    let Some((_, args)) = t.strip_suffix(')').and_then(|x| {
        x.rsplit_once(".limit(")
            .or_else(|| x.rsplit_once(".to_list("))
    }) else {
        return false;
    };
    let args = args.trim();
    let args = args.strip_prefix("length=").unwrap_or(args);
    args.parse::<i64>().is_ok_and(|n| (1..=10).contains(&n))
}

/// Whether the expression a loop's iterable is bound to (`LoopOver::bound_to`, spanned in `src`)
/// gives batches: `batches = doc_feeder(coll, step=1000, inbatch=True)`.
pub(crate) fn bound_to_batches(src: &str, bound: Option<crate::ir::Span>) -> bool {
    bound.is_some_and(|b| {
        src.get(b.start as usize..b.end as usize)
            .is_some_and(iterates_batches)
    })
}

/// Whether iterating over the value of expression `t` gives batches (see `LoopOver::batches`):
/// a call of a batching helper (`paginate(units)`, `plugin_misc.paginate(ids, 100)`,
/// `chunks(ids)`, `batched(ids, 50)`, `grouper(ids, n)`), or a call given `batch=True`,
/// `inbatch=True`, `in_batch=True`, `batched=True` or `chunked=True` (or `{ batch: true }`). A batch size alone
/// (`find(q, batch_size=100)`, `.batchSize(100)`) sets how a cursor fetches, not what it yields.
pub(crate) fn iterates_batches(t: &str) -> bool {
    let t = t.trim_start_matches("await ").trim();
    let Some((callee, args)) = t.split_once('(') else {
        return false;
    };
    let name = callee.rsplit(['.', ':']).next().unwrap_or(callee);
    if names_batching(name) {
        return true;
    }
    // Python's keyword arguments, JavaScript's options (`{ batch: true }`).
    args.split([',', '(', ')'])
        .filter_map(|a| a.split_once(['=', ':']))
        .any(|(k, v)| {
            let k = k.trim_matches(|c: char| c.is_whitespace() || c == '{');
            let k = k.to_ascii_lowercase().replace('_', "");
            matches!(k.as_str(), "batch" | "inbatch" | "batched" | "chunked")
                && matches!(
                    v.trim_matches(|c: char| c.is_whitespace() || c == '}'),
                    "True" | "true"
                )
        })
}

/// Whether a function's name says it batches (`paginate`, `chunks`, `batched`, `grouper`), not
/// that it does not: `find_by_attributes_nonpaginated` (kernelci's API, which returns every
/// document), `getUnbatched`, `no_chunk` read everything at once.
fn names_batching(name: &str) -> bool {
    // The words of the name, by `_` and by camelCase (`findNonPaginated`: find, non, paginated;
    // capitals in a row stay one word, `PAGINATE`, `getHTMLChunks`: get, htmlchunks).
    let mut words: Vec<String> = Vec::new();
    for part in name.split('_').filter(|p| !p.is_empty()) {
        let mut word = String::new();
        let mut after_lower = false;
        for c in part.chars() {
            if c.is_ascii_uppercase() && after_lower {
                words.push(std::mem::take(&mut word));
            }
            after_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
            word.push(c.to_ascii_lowercase());
        }
        words.push(word);
    }
    const NOT: &[&str] = &["no", "non", "not", "un", "without"];
    words.iter().enumerate().any(|(i, word)| {
        ["paginate", "chunk", "batch", "grouper"].iter().any(|w| {
            word.match_indices(w).any(|(at, _)| {
                let negated = if at == 0 {
                    i > 0 && NOT.contains(&words[i - 1].as_str())
                } else {
                    NOT.contains(&&word[..at])
                };
                !negated
            })
        })
    })
}

/// The index declarations and drops of a database command document, run with
/// `db.run_command(doc! {..})` (Rust), `db.command({..})` (JavaScript, Python):
/// `{createIndexes: "users", indexes: [{key: {..}, name, unique, ..}]}` declares the indexes of
/// `users` as `createIndexes([..])` would; `{dropIndexes: "users", index: "name"}` (a name, a key
/// pattern, or a list of names) drops them. Nothing for any other command.
pub(crate) fn index_command_operations(
    command: &crate::ir::Value,
    call: crate::ir::Span,
    method: &str,
    method_span: crate::ir::Span,
    context: &crate::ir::OpContext,
) -> Vec<crate::ir::Operation> {
    use crate::ir::{CollectionName, CollectionRef, CollectionVia, Evidence, OpKind, Operation};
    let Some(first) = command.fields().first() else {
        return Vec::new();
    };
    let kind = match first.key.as_str() {
        "createIndexes" => OpKind::CreateIndex,
        "dropIndexes" => OpKind::DropIndex,
        _ => return Vec::new(),
    };
    let Some(name) = first.value.as_str() else {
        return Vec::new();
    };
    let op = |filter: Option<crate::ir::Value>| {
        let mut op = Operation::new(kind, method, call, method_span);
        op.collection = Some(CollectionRef {
            name: CollectionName::Literal {
                name: name.to_string(),
            },
            span: first.value.span,
            via: CollectionVia::Driver,
            import: None,
        });
        op.evidence = Evidence::Shaped;
        op.filter = filter;
        op.context = context.clone();
        op
    };
    match kind {
        // `createIndexes([..])`'s shape: the model reads each entry's `key` and options.
        OpKind::CreateIndex => match command.get("indexes") {
            Some(f) if matches!(f.value.kind, crate::ir::ValueKind::Array(_)) => {
                vec![op(Some(f.value.clone()))]
            }
            _ => vec![op(None)],
        },
        _ => match command.get("index") {
            Some(f) => match &f.value.kind {
                crate::ir::ValueKind::Array(names) => {
                    names.iter().map(|n| op(Some(n.clone()))).collect()
                }
                _ => vec![op(Some(f.value.clone()))],
            },
            None => Vec::new(),
        },
    }
}

/// Whether `text` contains `word` as a whole identifier (no letter, digit, `_` or `$` beside it,
/// non-ASCII letters included).
pub(crate) fn has_identifier(text: &str, word: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(word).any(|(i, _)| {
        !text[..i].chars().next_back().is_some_and(ident)
            && !text[i + word.len()..].chars().next().is_some_and(ident)
    })
}

/// Whether a module's last path segment names a database module (`mongo.util`, `db`,
/// `database`): what the frontends take an application's imported helpers and handles from.
/// Whether the statement holding `n` runs under a condition that a read at `at` is not under,
/// shared by the frontends' `assigned_under`: the ancestors of `n` up to the first that holds
/// `at` or ends its function (`ends_scope`) are asked what condition each is (`condition`:
/// `None` for none, `Some(skippable)` for one, `skippable` when a path skips it, an `if` with no
/// `else`), at most `max_depth` of them. `None` when every path to the read runs it, else whether a path to the read skips it.
pub(crate) fn under_condition<'t>(
    parents: &flat::Flat<'t>,
    n: tree_sitter::Node<'t>,
    at: u32,
    max_depth: usize,
    ends_scope: impl Fn(&str) -> bool,
    condition: impl Fn(tree_sitter::Node<'t>) -> Option<bool>,
) -> Option<bool> {
    let mut cur = n;
    let mut under = false;
    let mut skippable = false;
    for _ in 0..max_depth {
        let Some(p) = parents.of(cur) else { break };
        if ends_scope(p.k()) || (p.start_byte() as u32 <= at && at < p.end_byte() as u32) {
            break;
        }
        if let Some(skips) = condition(p) {
            under = true;
            skippable |= skips;
        }
        cur = p;
    }
    under.then_some(skippable)
}

pub(crate) fn names_database_module(segment: &str) -> bool {
    let s = segment.to_ascii_lowercase();
    s.contains("mongo") || s.contains("db") || s.contains("database")
}

/// A list written in the code, of a fixed length: a non-empty literal of one of `list_kinds`
/// (`[a, b]`, `(a, b)`) with no element of `spread_kinds` (`...xs`, `*xs`). Shared by the
/// frontends' [`crate::ir::LoopOver::fixed`].
pub(crate) fn is_written_list(
    list: tree_sitter::Node,
    items: &[tree_sitter::Node],
    list_kinds: &[&str],
    spread_kinds: &[&str],
) -> bool {
    list_kinds.contains(&list.k())
        && !items.is_empty()
        && items
            .iter()
            .all(|i| !spread_kinds.contains(&i.k()) && i.k() != "comment")
}

/// The names a loop's item is unpacked into (`perm`, `role_ids` of `perm, role_ids`, `(k, v)`,
/// `[k, v]`), or its one name.
pub(crate) fn item_names(item: &str) -> impl Iterator<Item = &str> {
    item.trim_matches(|c| matches!(c, '(' | ')' | '[' | ']'))
        .split(',')
        .map(str::trim)
}

/// [`loop_over`], with the loop variable's text when it is a plain identifier or the names an
/// item is unpacked into.
pub(crate) fn loop_over_with_item(
    t: &str,
    span: crate::ir::Span,
    item: Option<&str>,
) -> crate::ir::LoopOver {
    let mut over = loop_over(t, span);
    over.item = item
        .filter(|i| {
            item_names(i).all(|n| {
                !n.is_empty()
                    && n.chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
            })
        })
        .map(str::to_string);
    over
}

/// Resolves the backslash escapes of a string literal's content (`\n`, `\t`, `\r`, `\0`, and
/// `\x` → `x` for any other character). Shared by the frontends: collection names and keys.
pub(crate) fn unescape(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some('0') => out.push('\0'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes by their method's name, in any case; reads are not.
    #[test]
    fn writes_are_known_by_name() {
        for m in [
            "save",
            "insertAsync",
            "UpdateOne",
            "bulkWrite",
            "system_update",
            "Create",
        ] {
            assert!(writes_by_name(m), "{m}");
        }
        for m in ["find", "findOne", "get_uploads", "saved", "", "upd"] {
            assert_eq!(writes_by_name(m), m == "saved", "{m}");
        }
    }

    /// A loop over a batching helper's pages is over batches; over a function whose name says it
    /// does not batch (kernelci's `find_by_attributes_nonpaginated`), over its documents.
    #[test]
    fn a_name_that_denies_batching_yields_documents() {
        for t in [
            "paginate(units)",
            "plugin_misc.paginate(ids, 100)",
            "await chunks(ids, 50)",
            "batched(ids, 50)",
            "self.grouper(ids, n)",
            "getBatches(ids)",
            "PAGINATE(ids)",
            "getHTMLChunks(pages)",
            "rerun_batch(jobs)",
            "find(q, batch=True)",
        ] {
            assert!(iterates_batches(t), "{t}");
        }
        for t in [
            "await db.find_by_attributes_nonpaginated(EventHistory, query_params)",
            "repo.findAllNonPaginated(q)",
            "getUnbatched(ids)",
            "load_no_chunk(ids)",
            "fetch_without_pagination(q)",
            "coll.find(q, batch_size=100)",
            "items(ids)",
        ] {
            assert!(!iterates_batches(t), "{t}");
        }
    }

    /// The language of a file by its extension, as `Path::extension` reads it.
    #[test]
    fn a_file_s_language_is_its_extension_s() {
        for (path, want) in [
            ("src/app.js", Some(Language::JavaScript)),
            ("public/jquery.min.js", Some(Language::JavaScript)),
            ("lib/x.mjs", Some(Language::JavaScript)),
            ("a.d.ts", Some(Language::TypeScript)),
            ("View.tsx", Some(Language::Tsx)),
            ("pkg/models.py", Some(Language::Python)),
            ("src/main.rs", Some(Language::Rust)),
            ("..js", Some(Language::JavaScript)),
            (".js", None),
            ("dir.js/Makefile", None),
            ("app.", None),
            ("app.jsx.bak", None),
            ("README", None),
        ] {
            assert_eq!(language_for(Path::new(path)), want, "{path}");
            let ext = Path::new(path).extension().and_then(|e| e.to_str());
            assert_eq!(
                want.is_some(),
                matches!(
                    ext,
                    Some("js" | "mjs" | "cjs" | "jsx" | "ts" | "mts" | "cts" | "tsx" | "py" | "rs")
                ),
                "{path}: as Path::extension says"
            );
        }
    }

    /// A receiver written over several lines reads as one line in messages (the concise and
    /// GitHub formats are one line per finding), without the `await` TypeScript's grammar puts
    /// in it.
    #[test]
    fn receiver_text_is_one_line() {
        assert_eq!(
            receiver_text("await mainConnection\n      .model<Record<string, unknown>>(name)"),
            "mainConnection.model<Record<string, unknown>>(name)"
        );
        assert_eq!(
            receiver_text("getDb(\n    tenant,\n    'x'\n  )\n  ?.collection(name)"),
            "getDb(tenant, 'x')?.collection(name)"
        );
        assert_eq!(receiver_text("models.Users"), "models.Users");
        assert_eq!(
            one_line("existing_names |\\\n        posted_names"),
            "existing_names | posted_names"
        );
        assert_eq!(one_line("a \\\n  + b"), "a + b");
        assert_eq!(one_line("re.split('\\\\', x)\n"), "re.split('\\\\', x)");
        assert_eq!(receiver_text(&"a.b".repeat(40)), "a.b".repeat(20));
    }

    #[test]
    fn first_chars_is_take_then_collect() {
        let long = "ab".repeat(50);
        for text in [
            "",
            "abc",
            "héllo wörld",
            "😀😀😀😀",
            &long,
            &format!("{long}é"),
            &format!("é{long}"),
        ] {
            for n in [0, 1, 3, 4, 60, 80, 200] {
                let expected: String = text.chars().take(n).collect();
                assert_eq!(first_chars(text, n), expected, "{text:?} {n}");
            }
        }
    }

    /// The shared field table gives each grammar's own ids: for every field name of every
    /// grammar, asked in every grammar, from several threads at once.
    #[test]
    fn the_field_table_agrees_with_the_grammars() {
        let names: Vec<&'static str> = GRAMMARS
            .iter()
            .flat_map(|&lang| {
                let g = grammar(lang);
                (1..=g.field_count() as u16).filter_map(move |id| g.field_name_for_id(id))
            })
            .chain(["no_such_field", "", "body"])
            .collect();
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    for lang in GRAMMARS {
                        let slot = grammar_slot(lang);
                        let g = grammar(lang);
                        let mut parser = tree_sitter::Parser::new();
                        parser.set_language(&g).unwrap();
                        let tree = parser.parse("x", None).unwrap();
                        let node = tree.root_node();
                        for &name in &names {
                            let expected = g.field_id_for_name(name).map(|id| id.get());
                            assert_eq!(
                                field_id(Some(slot), node, name),
                                expected,
                                "{lang:?} {name}"
                            );
                            assert_eq!(field_id(None, node, name), expected, "{lang:?} {name}");
                        }
                    }
                });
            }
        });
    }
}
