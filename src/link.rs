//! Cross-file resolution: a collection or model imported from another module of the repository
//! takes the name that module exports. What cannot be resolved stays unknown.

use crate::analysis::SourceFile;
use crate::ir::{
    ClassBase, CollectionName, CollectionRef, CollectionVia, Evidence, Export, ExportTarget,
    HelperIndexes, HelperRead, ImportRef, ImportedCall, Language, OpKind, Operation, PendingClass,
    Span, Value, ValueKind, Wrapper, RUST_TYPES,
};
use std::cell::RefCell;
use std::collections::HashMap;

const JS_EXTENSIONS: &[&str] = &[
    "", ".js", ".ts", ".mjs", ".cjs", ".jsx", ".tsx", ".mts", ".cts",
];

/// Normalises `a/b/../c/./d` → `a/c/d`. Display paths are relative to the current folder when the
/// file is below it, absolute otherwise, and keep how the user spelt them (`./src`, `../app`):
/// an absolute path stays absolute and leading `..` segments are kept, so that the files' own
/// paths and the paths their imports name normalise alike.
fn normalise(path: &str) -> String {
    // (Most paths have nothing to normalise.)
    if !path.contains("//")
        && !path.starts_with("./")
        && !path.contains("/.")
        && !path.ends_with('/')
        && path != "."
    {
        return path.to_string();
    }
    let root = if path.starts_with('/') { "/" } else { "" };
    let mut out: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." if out.last().is_some_and(|l| *l != "..") => {
                out.pop();
            }
            ".." if root.is_empty() => out.push(".."),
            ".." => {}
            p => out.push(p),
        }
    }
    format!("{root}{}", out.join("/"))
}

/// The file a relative module specifier names, seen from `from` (a display path), or a Python
/// module; path aliases are [`Modules::resolve`]'s.
fn resolve_module<'a>(
    module: &str,
    from: &str,
    by_path: &HashMap<&'a str, usize>,
    suffix_index: &[(&'a str, usize)],
) -> Option<usize> {
    let module = module.trim_end_matches('/');
    if from.ends_with(".py") {
        return resolve_python_module(module, from, by_path, suffix_index);
    }
    if module.starts_with('.') {
        let dir = from.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
        let base = normalise(&format!("{dir}/{module}"));
        for ext in JS_EXTENSIONS {
            if let Some(&i) = by_path.get(format!("{base}{ext}").as_str()) {
                return Some(i);
            }
        }
        for ext in &JS_EXTENSIONS[1..] {
            if let Some(&i) = by_path.get(format!("{base}/index{ext}").as_str()) {
                return Some(i);
            }
        }
        return typescript_sources(&base).find_map(|p| by_path.get(p.as_str()).copied());
    }
    // A path alias: see `Modules::resolve`.
    None
}

/// The TypeScript files a module path that names what they compile to may mean, as TypeScript's
/// ECMAScript modules spell their imports: `./constants.js` is `./constants.ts` or `.tsx` (`.mjs`
/// an `.mts`, `.cjs` a `.cts`, `.jsx` a `.tsx`).
fn typescript_sources(path: &str) -> impl Iterator<Item = String> + '_ {
    const TWINS: [(&str, &[&str]); 4] = [
        (".js", &[".ts", ".tsx"]),
        (".mjs", &[".mts"]),
        (".cjs", &[".cts"]),
        (".jsx", &[".tsx"]),
    ];
    TWINS.iter().flat_map(move |(js, ts)| {
        let stem = path.strip_suffix(js);
        ts.iter()
            .filter_map(move |ext| stem.map(|stem| format!("{stem}{ext}")))
    })
}

/// The files a path alias (`@/models/user`, `~/models/user`, `src/models/user`) or Meteor's path
/// from the application's root (`/models/boards`) may name (see [`AliasMatches`]). `None` for
/// what is no alias (a package). SvelteKit's `$lib/server/db` is `src/lib/server/db`.
fn alias_matches(module: &str, suffix_index: &[(&str, usize)]) -> Option<AliasMatches> {
    let module = module.trim_end_matches('/');
    let lib = module.strip_prefix("$lib/").map(|r| format!("lib/{r}"));
    // A path into a scoped package of the repository's workspace (`@fiora/database/mongoose/
    // models/group`: the package `packages/database`): its folder is named for the package.
    let workspace = module
        .strip_prefix('@')
        .filter(|_| !module.starts_with("@/"))
        .and_then(|m| m.split_once('/'))
        .map(|(_, path)| path);
    let rest = lib
        .as_deref()
        .or(workspace)
        .unwrap_or(module)
        .trim_start_matches("@/")
        .trim_start_matches("~/")
        .trim_start_matches('#')
        .trim_start_matches('/');
    // `~/connectionResolvers` is an alias however short; `models` alone is a package. So is a
    // scoped package named alone (`@sorry-cypress/mongo`), unless the workspace holds it: a
    // folder of its name whose entry is `src/index.ts` or `index.ts`.
    // (And a package's subpath import, `#collections` or `#lib/db`, mapped by its
    // `package.json`'s `imports` or a tsconfig's `paths`, which mongolint does not read.)
    let subpath = module.starts_with('#');
    let aliased = module.starts_with("~/") || module.starts_with("@/") || subpath;
    let package = workspace.is_some_and(|w| !w.is_empty() && !w.contains('/'));
    if rest.is_empty() || !(aliased || package || rest.contains('/')) {
        return None;
    }
    let mut out = Vec::new();
    let mut find = |want: &str| {
        for (p, i) in suffix_index {
            if p.ends_with(want) || (*p == &want[1..]) {
                out.push((*i, want.len().min(p.len())));
            }
        }
    };
    if package {
        for entry in ["src/index", "index"] {
            for ext in &JS_EXTENSIONS[1..] {
                find(&format!("/{rest}/{entry}{ext}"));
            }
        }
    } else {
        for ext in JS_EXTENSIONS {
            find(&format!("/{rest}{ext}"));
        }
        // (`@/db/models/Check.model.js`: the `.ts` file.)
        for source in typescript_sources(rest) {
            find(&format!("/{source}"));
        }
        if subpath {
            for ext in &JS_EXTENSIONS[1..] {
                find(&format!("/{rest}/index{ext}"));
            }
        }
    }
    Some(out)
}

/// Of the files an alias may name (see [`alias_matches`]), the one it names from `from`: a
/// unique match, or, for Meteor's rooted paths, the shallowest (`/models/boards` is the
/// application root's `models/boards.js`, not `server/models/boards.js`; the run may start above
/// the application's root).
fn pick_alias(
    rooted: bool,
    from: &str,
    matches: &[(usize, usize)],
    suffix_index: &[(&str, usize)],
) -> Option<usize> {
    let mut found: Option<(usize, usize)> = None;
    let mut ambiguous = false;
    // A monorepo's packages each map the alias to their own folder (`~/connectionResolvers` is
    // `src/connectionResolvers.ts` of the importer's package): when the paths that end so are
    // several, the one whose alias folder (the path without the alias's part) holds the
    // importer, if only one does.
    let mut holding: Option<usize> = None;
    let mut holding_ambiguous = false;
    let from_dir = from.rsplit_once('/').map_or("", |(d, _)| d);
    for &(i, spelt) in matches {
        let p = suffix_index[i].0;
        let depth = if rooted { p.matches('/').count() } else { 0 };
        match found {
            Some((d, f)) if d < depth || f == i => {}
            Some((d, _)) if d == depth => ambiguous = true,
            _ => (found, ambiguous) = (Some((depth, i)), false),
        }
        let root = &p[..p.len() - spelt];
        let holds = root.is_empty()
            || from_dir == root
            || from_dir
                .strip_prefix(root)
                .is_some_and(|r| r.starts_with('/'));
        if !rooted && holds {
            match holding {
                Some(h) if h == i => {}
                Some(_) => holding_ambiguous = true,
                None => holding = Some(i),
            }
        }
    }
    if ambiguous && !holding_ambiguous && holding.is_some() {
        return holding;
    }
    found.filter(|_| !ambiguous).map(|(_, i)| i)
}

/// Python: `./db` / `../models/post` relative to the importing file's package, or `py:app/db`
/// (an absolute module path, matched as a unique path suffix) → `x.py` or `x/__init__.py`.
fn resolve_python_module(
    module: &str,
    from: &str,
    by_path: &HashMap<&str, usize>,
    suffix_index: &[(&str, usize)],
) -> Option<usize> {
    if let Some(rest) = module.strip_prefix("py:") {
        return pick_python_candidate(&python_candidates(rest, suffix_index), suffix_index, from);
    }
    let dir = from.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
    let base = normalise(&format!("{dir}/{module}"));
    for cand in [format!("{base}.py"), format!("{base}/__init__.py")] {
        if let Some(&i) = by_path.get(cand.as_str()) {
            return Some(i);
        }
    }
    None
}

/// The files an absolute Python module (`config`, `app/models` for `py:app/models`) may be: each
/// file whose path ends with the module's, as (the file, the length of the path before the
/// module's: the folder Python would import it from).
fn python_candidates(module: &str, suffix_index: &[(&str, usize)]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    if module.is_empty() {
        return out;
    }
    for want in [format!("{module}.py"), format!("{module}/__init__.py")] {
        let slashed = format!("/{want}");
        for (p, i) in suffix_index {
            if (p.ends_with(&slashed) || *p == want) && !out.iter().any(|(f, _)| f == i) {
                out.push((*i, p.len() - want.len()));
            }
        }
    }
    out
}

/// Which of an absolute Python module's candidates (see [`python_candidates`]) an importer at
/// `from` imports: the only one, or, of several (the `config.py` of each service of a
/// repository), the only one whose folder holds the importer, as the folder a service runs from
/// does. `None` when that does not decide.
fn pick_python_candidate(
    candidates: &[(usize, usize)],
    suffix_index: &[(&str, usize)],
    from: &str,
) -> Option<usize> {
    if let [(only, _)] = candidates {
        return Some(*only);
    }
    // (The suffix index lists every file in the files' order.)
    let mut holding = candidates
        .iter()
        .filter(|(i, folder)| from.starts_with(&suffix_index[*i].0[..*folder]));
    match (holding.next(), holding.next()) {
        (Some((i, _)), None) => Some(*i),
        _ => None,
    }
}

/// The files a path alias may name, as (index of the path in the suffix index, which is the
/// files' order; length of the path's part that the alias spells).
type AliasMatches = Vec<(usize, usize)>;

/// The modules of one linking run: the files' normalised paths, and [`resolve_module`] memoised,
/// since chains of bases and re-exports ask the same modules again and again, and an absolute
/// one (`py:app/db`, a path alias) asks a scan of every path.
struct Modules<'a> {
    /// Each file's path on disk, normalised: what modules resolve against, so that resolution
    /// does not depend on the folder the run started from (display paths are relative to it
    /// where there is no repository root).
    paths: &'a [String],
    /// Display path → file, to find an importer's path on disk.
    by_display: HashMap<&'a str, usize>,
    by_path: HashMap<&'a str, usize>,
    suffix_index: Vec<(&'a str, usize)>,
    /// (module, the importing folder for a relative module, a Python importer) → file.
    resolved: RefCell<HashMap<(String, String, bool), Option<usize>>>,
    /// A path alias → the files it may name (see [`alias_matches`]): one scan of every path per
    /// alias, whatever folders import it.
    aliases: RefCell<HashMap<String, Option<AliasMatches>>>,
    /// An absolute Python module → the files it may be (see [`python_candidates`]): one scan
    /// of every path per module, whatever folders import it.
    python: RefCell<HashMap<String, Vec<(usize, usize)>>>,
}

impl<'a> Modules<'a> {
    fn new(paths: &'a [String], displays: &'a [String]) -> Self {
        let indexed = || paths.iter().enumerate().map(|(i, p)| (p.as_str(), i));
        Modules {
            paths,
            by_display: displays
                .iter()
                .enumerate()
                .map(|(i, d)| (d.as_str(), i))
                .collect(),
            by_path: indexed().collect(),
            suffix_index: indexed().collect(),
            resolved: RefCell::new(HashMap::new()),
            aliases: RefCell::new(HashMap::new()),
            python: RefCell::new(HashMap::new()),
        }
    }

    /// The file a module specifier names, seen from `from` (a display path).
    fn resolve(&self, module: &str, from: &str) -> Option<usize> {
        let from = match self.by_display.get(from) {
            Some(&i) => self.paths[i].as_str(),
            None => from,
        };
        if let Some(rest) = module.strip_prefix("py:").filter(|_| from.ends_with(".py")) {
            let mut python = self.python.borrow_mut();
            if !python.contains_key(rest) {
                let candidates = python_candidates(rest, &self.suffix_index);
                python.insert(rest.to_string(), candidates);
            }
            return pick_python_candidate(&python[rest], &self.suffix_index, from);
        }
        // A rooted module (Meteor's) and a Python module path do not depend on the folder it
        // is imported from; the importer's language picks the rules.
        // A path alias may: several packages' `~/x` (see `pick_alias`).
        let folder = if module.starts_with('/') || module.starts_with("py:") {
            ""
        } else {
            from.rsplit_once('/').map_or("", |(d, _)| d)
        };
        let key = (
            module.to_string(),
            folder.to_string(),
            from.ends_with(".py"),
        );
        if let Some(&known) = self.resolved.borrow().get(&key) {
            return known;
        }
        let found = if from.ends_with(".py") || module.starts_with('.') {
            resolve_module(module, from, &self.by_path, &self.suffix_index)
        } else {
            let mut aliases = self.aliases.borrow_mut();
            let matches = aliases
                .entry(module.to_string())
                .or_insert_with(|| alias_matches(module, &self.suffix_index));
            matches
                .as_deref()
                .and_then(|m| pick_alias(module.starts_with('/'), from, m, &self.suffix_index))
        };
        self.resolved.borrow_mut().insert(key, found);
        found
    }
}

/// What `pick` reads of the export `export` of `file`, through re-exports.
fn lookup_export<T>(
    files: &[SourceFile],
    file: usize,
    export: &str,
    modules: &Modules,
    depth: usize,
    pick: &dyn Fn(&ExportTarget) -> Option<T>,
) -> Option<T> {
    lookup_export_in(files, file, export, modules, depth, &|_, _, t| pick(t))
}

/// [`lookup_export`], `pick` also told the file and the name of the export it reads.
fn lookup_export_in<T>(
    files: &[SourceFile],
    file: usize,
    export: &str,
    modules: &Modules,
    depth: usize,
    pick: &dyn Fn(usize, &str, &ExportTarget) -> Option<T>,
) -> Option<T> {
    if depth > 8 {
        return None;
    }
    let f = &files[file];
    let named = |name: &str| {
        f.ir.exports
            .iter()
            .find(|e| e.name == name && !matches!(e.target, ExportTarget::Star { .. }))
    };
    // `User.collection` of a package that re-exports `User` (`from .user import User`), or
    // `get_db()` of one that re-exports `get_db`: the member of the class (the call of the
    // function) where the class (the function) is defined. `member` keeps its `.` or `()` (or
    // the `[]` of a database's name, see `ImportRef::names_database`).
    let own = match named(export) {
        Some(e) => Some((e, None)),
        None => export
            .strip_suffix("(..)")
            .map(str::len)
            .or_else(|| export.find('.'))
            .or_else(|| export.strip_suffix("()").map(str::len))
            .or_else(|| export.strip_suffix("[]").map(str::len))
            .and_then(|at| {
                let (head, member) = export.split_at(at);
                Some((named(head)?, Some(member)))
            }),
    };
    // `OrdersCollection().return` of a module that re-exports `OrdersCollection` (`export {
    // OrdersCollection } from './db'`): the function's result where it is defined.
    let own = own.or_else(|| {
        let at = export.find("()")?;
        let (head, member) = export.split_at(at);
        Some((named(head)?, Some(member)))
    });
    let Some((found, member)) = own else {
        // A name the module does not export itself: the modules it star-imports, in order.
        return star_imported(f, modules)
            .find_map(|next| lookup_export_in(files, next, export, modules, depth + 1, pick));
    };
    match (&found.target, member) {
        (ExportTarget::Reexport { import }, _) => {
            let next = modules.resolve(&import.module, &f.display_path)?;
            let export = match member {
                Some(m) => std::borrow::Cow::Owned(format!("{}{m}", import.export)),
                None => std::borrow::Cow::Borrowed(import.export.as_str()),
            };
            lookup_export_in(files, next, &export, modules, depth + 1, pick)
        }
        (target, None) => pick(file, export, target),
        (_, Some(_)) => None,
    }
}

/// The modules file `f` star-imports at module level (`from .documents import *`, see
/// [`ExportTarget::Star`]) that the repository holds, in the order written.
fn star_imported<'a>(f: &'a SourceFile, modules: &'a Modules) -> impl Iterator<Item = usize> + 'a {
    f.ir.exports.iter().filter_map(|e| match &e.target {
        ExportTarget::Star { import } => modules.resolve(&import.module, &f.display_path),
        _ => None,
    })
}

/// The collection or model an export names.
fn collection_of(target: &ExportTarget) -> Option<CollectionRef> {
    match target {
        ExportTarget::Collection { collection } => Some(collection.clone()),
        _ => None,
    }
}

/// What the linker finds a class to be.
#[derive(Clone, Debug)]
enum ClassKind {
    NotDocument,
    /// A mongoengine document without a collection (`meta = {"abstract": True}`).
    Abstract,
    /// A mongoengine document and its collection.
    Concrete(CollectionRef),
}

/// Decides the pending classes of every file (see [`PendingClass`]), memoised by (file, class).
struct Classes<'a> {
    files: &'a [SourceFile],
    modules: &'a Modules<'a>,
    /// `None` while a class is being decided: a cycle of bases decides nothing.
    known: HashMap<(usize, String), Option<ClassKind>>,
    /// The current decision reached `MAX_CLASS_DEPTH`: it is not final, and not memoised.
    cut: bool,
}

/// How deep a chain of bases and re-exports one decision follows (a bound on the recursion); a
/// longer chain is decided over several passes, each starting from what the last memoised.
const MAX_CLASS_DEPTH: usize = 64;

/// How many such passes: chains of up to 16 × 64 bases.
const MAX_CLASS_PASSES: usize = 16;

impl<'a> Classes<'a> {
    fn new(files: &'a [SourceFile], modules: &'a Modules<'a>) -> Self {
        Classes {
            files,
            modules,
            known: HashMap::new(),
            cut: false,
        }
    }

    /// The class `name` of `file`: one of its documents (exported), a pending class, or a
    /// re-export of another module's.
    fn kind(&mut self, file: usize, name: &str, depth: usize) -> ClassKind {
        if depth > MAX_CLASS_DEPTH {
            self.cut = true;
            return ClassKind::NotDocument;
        }
        let key = (file, name.to_string());
        if let Some(known) = self.known.get(&key) {
            return known.clone().unwrap_or(ClassKind::NotDocument);
        }
        self.known.insert(key.clone(), None);
        let cut_before = std::mem::take(&mut self.cut);
        let f = &self.files[file];
        let modules = self.modules;
        let kind = if let Some(e) = f.ir.exports.iter().find(|e| e.name == name) {
            match &e.target {
                ExportTarget::Collection { collection }
                    if collection.via == CollectionVia::MongooseModel =>
                {
                    ClassKind::Concrete(collection.clone())
                }
                ExportTarget::Collection { .. }
                | ExportTarget::Constant { .. }
                | ExportTarget::AssociatedCollection { .. }
                | ExportTarget::IndexModels { .. }
                | ExportTarget::Database
                | ExportTarget::Schema { .. }
                | ExportTarget::Wrapper { .. }
                | ExportTarget::LocalCollection
                | ExportTarget::OtherDatabase
                | ExportTarget::CollectionFactory
                | ExportTarget::Star { .. } => ClassKind::NotDocument,
                ExportTarget::AbstractDocument => ClassKind::Abstract,
                // `from mongoengine import Document` in a module of the application (`app/db.py`),
                // its classes deriving from `db.Document`.
                ExportTarget::Reexport { import } if is_mongoengine_document(import) => {
                    ClassKind::Abstract
                }
                ExportTarget::Reexport { import } => {
                    match modules.resolve(&import.module, &f.display_path) {
                        Some(next) => self.kind(next, &import.export, depth + 1),
                        None => ClassKind::NotDocument,
                    }
                }
            }
        } else if let Some(i) = f.ir.classes.iter().position(|c| c.name == name) {
            self.pending(file, i, depth)
        } else {
            // A class of a module the file star-imports (`from .documents import *`).
            let stars: Vec<usize> = star_imported(f, modules).collect();
            stars
                .into_iter()
                .map(|next| self.kind(next, name, depth + 1))
                .find(|k| !matches!(k, ClassKind::NotDocument))
                .unwrap_or(ClassKind::NotDocument)
        };
        if self.cut {
            self.known.remove(&key);
        } else {
            self.known.insert(key, Some(kind.clone()));
        }
        self.cut |= cut_before;
        kind
    }

    /// The pending class `index` of `file`: a document if one of its bases is. A subclass of a
    /// concrete document shares its collection (mongoengine's `allow_inheritance`) unless its
    /// `meta` names its own.
    fn pending(&mut self, file: usize, index: usize, depth: usize) -> ClassKind {
        let (f, modules) = (&self.files[file], self.modules);
        let class: &PendingClass = &f.ir.classes[index];
        let mut parent = None;
        for base in &class.bases {
            let kind = match base {
                ClassBase::Imported { import } => {
                    match modules.resolve(&import.module, &f.display_path) {
                        Some(target) => self.kind(target, &import.export, depth + 1),
                        None => ClassKind::NotDocument,
                    }
                }
                ClassBase::Local { name } => self.kind(file, name, depth + 1),
            };
            if !matches!(kind, ClassKind::NotDocument) {
                parent = Some(kind);
                break;
            }
        }
        match parent {
            None => ClassKind::NotDocument,
            Some(_) if class.abstract_ => ClassKind::Abstract,
            Some(ClassKind::Concrete(shared)) if !class.explicit_collection => {
                // The parent's name, at this class's own name: spans are the file's.
                ClassKind::Concrete(CollectionRef {
                    name: shared.name,
                    ..class.collection.clone()
                })
            }
            Some(_) => ClassKind::Concrete(class.collection.clone()),
        }
    }
}

/// mongoengine's `Document` (or `DynamicDocument`), imported from mongoengine or flask-mongoengine.
fn is_mongoengine_document(import: &ImportRef) -> bool {
    let module = import.module.strip_prefix("py:").unwrap_or(&import.module);
    let package = module.split('/').next().unwrap_or("");
    matches!(package, "mongoengine" | "flask_mongoengine")
        && crate::lang::vocabulary::PY_MONGOENGINE_DOCUMENTS.contains(&import.export.as_str())
}

/// Decides every file's pending classes and gives each document what a document of the file
/// has: its collection, its `meta` indexes (on that collection) and an export.
fn link_classes(files: &mut [SourceFile], modules: &Modules) {
    if files.iter().all(|f| f.ir.classes.is_empty()) {
        return;
    }
    let mut classes = Classes::new(files, modules);
    let mut decided: Vec<(usize, usize, Option<ClassKind>)> = Vec::new();
    for fi in 0..classes.files.len() {
        for ci in 0..classes.files[fi].ir.classes.len() {
            decided.push((fi, ci, None));
        }
    }
    for _ in 0..MAX_CLASS_PASSES {
        let mut undecided = false;
        for (fi, ci, kind) in decided.iter_mut().filter(|d| d.2.is_none()) {
            let name = classes.files[*fi].ir.classes[*ci].name.clone();
            classes.cut = false;
            let k = classes.kind(*fi, &name, 0);
            if classes.cut {
                undecided = true;
            } else {
                *kind = Some(k);
            }
        }
        if !undecided {
            break;
        }
    }
    let decided = decided
        .into_iter()
        .map(|(fi, ci, kind)| (fi, ci, kind.unwrap_or(ClassKind::NotDocument)));
    let mut touched = Vec::new();
    for (fi, ci, kind) in decided {
        let ir = &mut files[fi].ir;
        let name = ir.classes[ci].name.clone();
        match kind {
            ClassKind::NotDocument => {}
            ClassKind::Abstract => ir.exports.push(Export {
                name,
                target: ExportTarget::AbstractDocument,
            }),
            ClassKind::Concrete(collection) => {
                let ops = std::mem::take(&mut ir.classes[ci].operations);
                for mut op in ops {
                    op.collection = Some(collection.clone());
                    ir.operations.push(op);
                }
                ir.collections.push(collection.clone());
                ir.exports.push(Export {
                    name,
                    target: ExportTarget::Collection { collection },
                });
                touched.push(fi);
            }
        }
    }
    for f in files.iter_mut() {
        f.ir.classes.clear();
    }
    touched.dedup();
    for fi in touched {
        let ir = &mut files[fi].ir;
        ir.exports.sort_by(|a, b| a.name.cmp(&b.name));
        ir.normalise();
    }
}

/// The class declaration (see [`crate::ir::ClassDecl`]) a base names: a class of `file`, or one
/// it re-exports. `(file, index)`.
fn locate_class(
    files: &[SourceFile],
    modules: &Modules,
    file: usize,
    name: &str,
    depth: usize,
) -> Option<(usize, usize)> {
    if depth > MAX_CLASS_DEPTH {
        return None;
    }
    let f = &files[file];
    if let Some(i) = f.ir.class_decls.iter().position(|c| c.name == name) {
        return Some((file, i));
    }
    match &f.ir.exports.iter().find(|e| e.name == name)?.target {
        ExportTarget::Reexport { import } => {
            let next = modules.resolve(&import.module, &f.display_path)?;
            locate_class(files, modules, next, &import.export, depth + 1)
        }
        _ => None,
    }
}

/// At most this many ancestors of one document are read (a bound for generated hierarchies).
const MAX_ANCESTORS: usize = 256;

/// The class a base of a class of `from` names: `(file, name)` as [`Classes::kind`] asks.
fn base_target(
    files: &[SourceFile],
    modules: &Modules,
    from: usize,
    base: &ClassBase,
) -> Option<(usize, String)> {
    match base {
        ClassBase::Local { name } => Some((from, name.clone())),
        ClassBase::Imported { import } => modules
            .resolve(&import.module, &files[from].display_path)
            .map(|t| (t, import.export.clone())),
    }
}

/// The class declaration a base of a class of `from` names (see [`locate_class`]).
fn locate_base(
    files: &[SourceFile],
    modules: &Modules,
    from: usize,
    base: &ClassBase,
) -> Option<(usize, usize)> {
    let (file, name) = base_target(files, modules, from, base)?;
    locate_class(files, modules, file, &name, 0)
}

/// A field's index (`unique=True`, a primary key) whose field a nearer class assigns again: that
/// class's field replaces it, index and all.
fn field_replaced(op: &Operation, assigned: &[String]) -> bool {
    matches!(op.method.as_str(), "unique" | "primary_key")
        && op
            .filter
            .as_ref()
            .and_then(|k| k.fields().first())
            .is_some_and(|f| assigned.contains(&f.key))
}

/// The ancestors of the class declaration `(fi, ci)` whose declarations it inherits, in
/// mongoengine's order (depth first, bases in the order written, each once), with the names
/// a nearer class assigns before each: a concrete ancestor ends its branch.
fn ancestors(classes: &mut Classes, fi: usize, ci: usize) -> Vec<(usize, usize, Vec<String>)> {
    let files = classes.files;
    let modules = classes.modules;
    let mut assigned: Vec<String> = files[fi].ir.class_decls[ci].attributes.clone();
    let mut seen: Vec<(usize, usize)> = vec![(fi, ci)];
    let mut out = Vec::new();
    let mut stack: Vec<(usize, ClassBase)> = files[fi].ir.class_decls[ci]
        .bases
        .iter()
        .rev()
        .map(|b| (fi, b.clone()))
        .collect();
    while let Some((from, base)) = stack.pop() {
        if seen.len() > MAX_ANCESTORS {
            break;
        }
        let Some((tf, tname)) = base_target(files, modules, from, &base) else {
            continue;
        };
        let concrete = matches!(classes.kind(tf, &tname, 0), ClassKind::Concrete(_));
        let Some((af, ai)) = locate_class(files, modules, tf, &tname, 0) else {
            continue;
        };
        if seen.contains(&(af, ai)) {
            continue;
        }
        seen.push((af, ai));
        let ancestor = &files[af].ir.class_decls[ai];
        if !concrete {
            out.push((af, ai, assigned.clone()));
            stack.extend(ancestor.bases.iter().rev().map(|b| (af, b.clone())));
        }
        assigned.extend(ancestor.attributes.iter().cloned());
    }
    out
}

/// What the operands of a class's `meta["indexes"]` that its file cannot read (see
/// [`crate::ir::IndexOperand`]) declare: for each one resolved, its span and the declarations,
/// `(file, operation)`. A `meta["indexes"]` of an ancestor declares nothing more (it is
/// inherited already).
fn resolve_operands(
    files: &[SourceFile],
    modules: &Modules,
    (fi, ci): (usize, usize),
    ancestry: &[(usize, usize, Vec<String>)],
) -> Vec<(Span, Vec<(usize, Operation)>)> {
    let mut out = Vec::new();
    for operand in &files[fi].ir.class_decls[ci].operands {
        let Some((af, ai)) = locate_base(files, modules, fi, &operand.class) else {
            continue;
        };
        let target = &files[af].ir.class_decls[ai];
        let declared: Vec<(usize, Operation)> = match &operand.method {
            None if ancestry.iter().any(|a| (a.0, a.1) == (af, ai)) => Vec::new(),
            None => target
                .indexes
                .iter()
                .filter(|o| o.method == "indexes")
                .map(|o| (af, o.clone()))
                .collect(),
            Some(m) => match target.index_methods.iter().find(|l| &l.method == m) {
                Some(list) => list.indexes.iter().map(|o| (af, o.clone())).collect(),
                None => continue,
            },
        };
        out.push((operand.span, declared));
    }
    out
}

/// The unique indexes of the fields of class declaration `(fi, ci)` built with a field class of
/// the repository that makes its fields unique (see [`crate::ir::AppField`]), but those a nearer
/// class assigns again (`assigned`).
fn unique_app_fields(
    files: &[SourceFile],
    modules: &Modules,
    fi: usize,
    ci: usize,
    assigned: &[String],
) -> Vec<Operation> {
    let mut out = Vec::new();
    for f in &files[fi].ir.class_decls[ci].app_fields {
        if field_replaced(&f.index, assigned) {
            continue;
        }
        let unique = locate_base(files, modules, fi, &f.class)
            .is_some_and(|(af, ai)| files[af].ir.class_decls[ai].unique_by_default);
        if unique {
            out.push(f.index.clone());
        }
    }
    out
}

/// Gives each concrete mongoengine document the index declarations of the classes it derives
/// from (see [`crate::ir::ClassDecl`]): each ancestor's, on the document's collection, in the
/// file and at the place the ancestor declares them. A concrete ancestor ends the walk on its
/// branch: the document shares its collection, and its declarations are on it already. The
/// operands of a `meta["indexes"]` concatenation that name another class's list
/// (`Mixin.get_indexes()`, `Owned.meta["indexes"]`) are replaced with that list's declarations.
fn link_inheritance(files: &mut [SourceFile], modules: &Modules) {
    if files.iter().all(|f| f.ir.class_decls.is_empty()) {
        return;
    }
    let mut classes = Classes::new(files, modules);
    // (file the declaration is in, the declaration) in the order found.
    let mut added: Vec<(usize, Operation)> = Vec::new();
    // The document's own unreadable declarations that the linker read: (file, span, collection).
    let mut replaced: Vec<(usize, Span, String)> = Vec::new();
    for fi in 0..classes.files.len() {
        for ci in 0..classes.files[fi].ir.class_decls.len() {
            let decl = &classes.files[fi].ir.class_decls[ci];
            if decl.bases.is_empty() && decl.operands.is_empty() && decl.app_fields.is_empty() {
                continue;
            }
            let name = decl.name.clone();
            let ClassKind::Concrete(collection) = classes.kind(fi, &name, 0) else {
                continue;
            };
            let on = |af: usize, mut op: Operation| {
                op.collection = Some(CollectionRef {
                    name: collection.name.clone(),
                    // Named where the document is, in another file when the ancestor is.
                    span: if af == fi {
                        collection.span
                    } else {
                        Span::default()
                    },
                    via: collection.via,
                    import: None,
                });
                (af, op)
            };
            let ancestry = ancestors(&mut classes, fi, ci);
            let files = classes.files;
            for (span, declared) in resolve_operands(files, modules, (fi, ci), &ancestry) {
                replaced.push((fi, span, collection.name.display()));
                added.extend(declared.into_iter().map(|(af, op)| on(af, op)));
            }
            for op in unique_app_fields(files, modules, fi, ci, &[]) {
                added.push(on(fi, op));
            }
            for (af, ai, assigned) in &ancestry {
                let read = resolve_operands(files, modules, (*af, *ai), &ancestry);
                for op in &files[*af].ir.class_decls[*ai].indexes {
                    if field_replaced(op, assigned) || read.iter().any(|(sp, _)| *sp == op.span) {
                        continue;
                    }
                    added.push(on(*af, op.clone()));
                }
                for (_, declared) in read {
                    added.extend(declared.into_iter().map(|(df, op)| on(df, op)));
                }
                for op in unique_app_fields(files, modules, *af, *ai, assigned) {
                    added.push(on(*af, op));
                }
            }
        }
    }
    let mut touched = Vec::new();
    for (fi, span, name) in replaced {
        let ops = &mut files[fi].ir.operations;
        ops.retain(|o| {
            !(o.kind == OpKind::CreateIndex
                && o.span == span
                && o.collection
                    .as_ref()
                    .is_some_and(|c| c.name.display() == name))
        });
        touched.push(fi);
    }
    for (fi, op) in added {
        files[fi].ir.operations.push(op);
        touched.push(fi);
    }
    for f in files.iter_mut() {
        f.ir.class_decls.clear();
    }
    touched.sort_unstable();
    touched.dedup();
    for fi in touched {
        files[fi].ir.normalise();
    }
}

/// Replaces the collection names each file spells with another module's constants (see
/// [`crate::ir::NameImport`]) with their values: in its operations, its references and its exports
/// (so that the files importing its models see the name too).
fn link_names(files: &mut [SourceFile], modules: &Modules) {
    let mut values: Vec<(usize, String, String)> = Vec::new();
    for (fi, f) in files.iter().enumerate() {
        for n in &f.ir.name_imports {
            let Some(target) = modules.resolve(&n.import.module, &f.display_path) else {
                continue;
            };
            let constant = |t: &ExportTarget| match t {
                ExportTarget::Constant { value } => Some(value.clone()),
                _ => None,
            };
            if let Some(v) = lookup_export(files, target, &n.import.export, modules, 0, &constant) {
                values.push((fi, n.text.clone(), v));
            }
        }
    }
    for f in files.iter_mut() {
        f.ir.name_imports.clear();
    }
    let rename = |c: &mut CollectionRef, text: &str, value: &str| {
        if c.name.spelt_by() == Some(text) {
            c.name = CollectionName::Literal {
                name: value.to_string(),
            };
        }
    };
    for (fi, text, value) in values {
        let ir = &mut files[fi].ir;
        for op in &mut ir.operations {
            if let Some(c) = &mut op.collection {
                rename(c, &text, &value);
            }
        }
        for c in &mut ir.collections {
            rename(c, &text, &value);
        }
        for e in &mut ir.exports {
            if let ExportTarget::Collection { collection } = &mut e.target {
                rename(collection, &text, &value);
            }
        }
    }
}

/// `X::m` → `("X", None, "m")`; `<X as Trait>::m` → `("X", Some("Trait"), "m")`.
fn type_method(export: &str) -> Option<(&str, Option<&str>, &str)> {
    let (head, method) = export.rsplit_once("::")?;
    match head.strip_prefix('<').and_then(|h| h.strip_suffix('>')) {
        Some(qualified) => {
            let (ty, tr) = qualified.split_once(" as ")?;
            Some((ty, Some(tr), method))
        }
        None => Some((head, None, method)),
    }
}

/// The Rust names of [`RUST_TYPES`]: what every Rust file's traits and their implementations
/// export.
#[derive(Default)]
struct RustTypes<'a> {
    /// Collection getters by method: (trait, the associated constant that names the collection).
    getters: HashMap<&'a str, Vec<(&'a str, &'a str)>>,
    /// Index lists by method: (trait, the getter the trait creates them on, replaced).
    lists: HashMap<&'a str, Vec<(&'a str, &'a str, bool)>>,
    /// `<X as Trait>::NAME` → the values its implementations give it.
    constants: HashMap<&'a str, Vec<&'a str>>,
    /// Struct fields by name → the collections their initialisers open (`<.votes_coll as
    /// mongodb::Collection>::NAME`, see the Rust frontend's `note_typed_bindings`).
    fields: HashMap<&'a str, Vec<&'a str>>,
}

impl<'a> RustTypes<'a> {
    /// Rust's, and the scripts' (TypeScript's typed collections).
    fn new(files: &'a [SourceFile]) -> (Self, Self) {
        let (mut rust, mut scripts) = (RustTypes::default(), RustTypes::default());
        for f in files {
            let t = if f.language == Language::Rust {
                &mut rust
            } else {
                &mut scripts
            };
            for e in &f.ir.exports {
                let split = || e.name.rsplit_once("::");
                match &e.target {
                    ExportTarget::AssociatedCollection { constant } => {
                        if let Some((tr, m)) = split() {
                            t.getters.entry(m).or_default().push((tr, constant));
                        }
                    }
                    ExportTarget::IndexModels { getter, replaced } => {
                        if let Some((tr, m)) = split() {
                            t.lists.entry(m).or_default().push((tr, getter, *replaced));
                        }
                    }
                    ExportTarget::Constant { value } if e.name.starts_with('<') => {
                        if let Some((field, _)) =
                            e.name.strip_prefix("<.").and_then(|r| r.split_once(' '))
                        {
                            t.fields.entry(field).or_default().push(value);
                        }
                        t.constants.entry(&e.name).or_default().push(value);
                    }
                    _ => {}
                }
            }
        }
        (rust, scripts)
    }

    /// The collection `X::m()` is when `m` is a trait's getter (of `tr`, when given) and `X`
    /// implements that trait with the constant the getter reads; or, for `m` a trait's index
    /// list, the collection its getter is. One name, or none when the candidates disagree.
    fn collection(&self, ty: &str, tr: Option<&str>, m: &str) -> Option<String> {
        let of_trait = |t: &&str| tr.is_none_or(|want| want == *t);
        let mut getters: Vec<(&str, &str)> = Vec::new();
        for (t, c) in self.getters.get(m).into_iter().flatten() {
            if of_trait(t) {
                getters.push((t, c));
            }
        }
        for (t, g, _) in self.lists.get(m).into_iter().flatten() {
            if !of_trait(t) {
                continue;
            }
            for (gt, c) in self.getters.get(g).into_iter().flatten() {
                if gt == t {
                    getters.push((t, c));
                }
            }
        }
        let mut names: Vec<&str> = Vec::new();
        for (t, c) in getters {
            let values = self.constants.get(format!("<{ty} as {t}>::{c}").as_str());
            names.extend(values.into_iter().flatten().copied());
        }
        only_name(names)
    }

    /// The collection an implementation of any trait for `ty` names with an associated constant
    /// (`<OutputCollection as MongoDbCollection>::NAME`, or `COLLECTION`, `COLLECTION_NAME`,
    /// `COLL_NAME`, as the frontend reads them): one name, or none when they disagree.
    fn named(&self, ty: &str) -> Option<String> {
        let prefix = format!("<{ty} as ");
        let names: Vec<&str> = self
            .constants
            .iter()
            .filter(|(k, _)| {
                k.strip_prefix(prefix.as_str())
                    .and_then(|rest| rest.split_once(">::"))
                    .is_some_and(|(_, c)| crate::ir::RUST_COLLECTION_CONSTANTS.contains(&c))
            })
            .flat_map(|(_, v)| v.iter().copied())
            .collect();
        only_name(names)
    }

    /// The trait's own declaration of `<Self as Trait>::m` says nothing its implementations'
    /// lists do not (see [`ExportTarget::IndexModels`]).
    fn replaced(&self, tr: &str, m: &str) -> bool {
        self.lists
            .get(m)
            .is_some_and(|l| l.iter().any(|(t, _, replaced)| *t == tr && *replaced))
    }
}

/// The one name among `names`, or none when they disagree (or there is none). An empty name is a
/// collection the code does not name (`db.collection::<T>(name)`), which disagrees with any; a
/// name after `*` is one a prefix given at run time precedes (`prefix + "groups"`), which agrees
/// with that name written alone (a migration's `collection::<Group>("groups")`), and names none
/// on its own.
fn only_name(mut names: Vec<&str>) -> Option<String> {
    names.sort_unstable();
    names.dedup();
    let (suffixes, exact): (Vec<&str>, Vec<&str>) = names.iter().partition(|n| n.starts_with('*'));
    match exact.as_slice() {
        [one] if !one.is_empty() && suffixes.iter().all(|s| s[1..] == **one) => {
            Some(one.to_string())
        }
        _ => None,
    }
}

/// Resolves the Rust frontend's names of types' methods (see [`RUST_TYPES`]): an operation on
/// `Station::cl()`, `Self::cl()` in `impl Model for Station`, or an index model an `impl Model
/// for Station` returns from `indexes()`, is on the collection `<Station as Model>::CL_NAME`
/// names when `Model::cl` returns `db().collection(Self::CL_NAME)` (and `Model` creates
/// `indexes()` on `Self::cl()`), wherever each is written. The trait's own declaration
/// (`Self::cl().create_indexes(Self::indexes(), ..)`) is dropped when its implementations'
/// lists say it all. What stays unresolved is as the frontend would have it without the
/// trait: an operation on no collection.
fn link_rust(files: &mut [SourceFile]) {
    let mut found: Vec<(usize, usize, Option<String>)> = Vec::new();
    let mut dropped: Vec<(usize, usize)> = Vec::new();
    {
        // (And TypeScript's `db.collection<Order>('orders')` and `Collection<Order>`: the same
        // names, kept apart from Rust's types.)
        let (types, script_types) = RustTypes::new(files);
        for (fi, f) in files.iter().enumerate() {
            for (oi, op) in f.ir.operations.iter().enumerate() {
                // `ctx.votes_coll.find(..)` where the struct is built in another file: the
                // collection the repository's initialisers give a field of that name (see the
                // Rust frontend's `note_typed_bindings`), if they give it one.
                let unnamed = op.collection.as_ref().is_none_or(|c| {
                    c.import.is_none() && matches!(c.name, CollectionName::Unknown { .. })
                });
                if f.language == Language::Rust && unnamed && !types.fields.is_empty() {
                    if let Some((_, field)) = op.receiver.rsplit_once('.') {
                        let names = types.fields.get(field).cloned().unwrap_or_default();
                        if let Some(name) = only_name(names) {
                            found.push((fi, oi, Some(name)));
                            continue;
                        }
                    }
                }
                let Some(c) = &op.collection else {
                    continue;
                };
                let Some(export) = c
                    .import
                    .as_ref()
                    .filter(|i| i.module == RUST_TYPES)
                    .map(|i| i.export.as_str())
                else {
                    // A `&Collection<DBMate>`: the one collection the repository keeps the
                    // type's documents in, if it names only one (see [`crate::ir::TYPED_COLLECTION`]);
                    // otherwise a typed collection the code does not name, as it was.
                    if let CollectionName::Unknown { text } = &c.name {
                        let types = match f.language {
                            Language::Rust => &types,
                            Language::Python => continue,
                            _ if script_types.constants.is_empty() => continue,
                            _ => &script_types,
                        };
                        let ty = crate::lang::rust::collection_document_type(text);
                        if let Some(name) = ty.and_then(|ty| types.named(ty)) {
                            found.push((fi, oi, Some(name)));
                        }
                    }
                    continue;
                };
                let name = match type_method(export) {
                    // `self` of a type whose collection constant another file gives it.
                    Some((ty, Some("_"), "NAME")) => types.named(ty),
                    Some(("Self", Some(tr), m)) => {
                        if op.kind == OpKind::CreateIndex && types.replaced(tr, m) {
                            dropped.push((fi, oi));
                            continue;
                        }
                        None
                    }
                    Some((ty, tr, m)) => types.collection(ty, tr, m),
                    None => None,
                };
                found.push((fi, oi, name));
            }
        }
    }
    for (fi, oi, name) in found {
        let op = &mut files[fi].ir.operations[oi];
        match name {
            Some(name) => {
                op.collection = Some(CollectionRef {
                    name: CollectionName::Literal { name },
                    // Named where the implementation's constant is.
                    span: Span::default(),
                    via: CollectionVia::Driver,
                    import: None,
                });
                op.evidence = Evidence::Resolved;
            }
            None => op.collection = None,
        }
    }
    for (fi, oi) in dropped.into_iter().rev() {
        files[fi].ir.operations.remove(oi);
    }
}

/// Decides the collections of what functions of other modules return (see
/// [`ImportRef::is_call`]: `db = conf.getMongoConnection()` .. `db["cves"]`), in operations,
/// references and exports (a module's `colCVE = db["cves"]`, which other modules import): where
/// the module exports the call as a database, each keeps the name it is given where it is used
/// and is a driver collection; otherwise there is no collection (an operation's receiver is
/// unknown, as it was before the frontend read the call; a reference or an export goes).
fn link_databases(files: &mut [SourceFile], modules: &Modules) {
    let call = |c: &CollectionRef| c.import.as_ref().filter(|i| i.names_database()).cloned();
    // (importing file, the call) → whether it returns a database.
    let decided = decide_imports(
        files,
        modules,
        |f| {
            let exported = f.ir.exports.iter().filter_map(|e| match &e.target {
                ExportTarget::Collection { collection } => Some(collection),
                _ => None,
            });
            let refs = f.ir.operations.iter().filter_map(|o| o.collection.as_ref());
            refs.chain(&f.ir.collections)
                .chain(exported)
                .filter_map(call)
                .collect()
        },
        |t| matches!(t, ExportTarget::Database),
    );
    if decided.is_empty() {
        return;
    }
    for (fi, f) in files.iter_mut().enumerate() {
        // `Some(whether it is one)` for a collection of a call's result's database, then a
        // collection of its own name when it is one.
        let decide = |c: &mut CollectionRef| {
            let import = call(c)?;
            let is_db = decided[&(fi, import)];
            if is_db {
                c.import = None;
            }
            Some(is_db)
        };
        for op in &mut f.ir.operations {
            match op.collection.as_mut().and_then(decide) {
                Some(true) => op.evidence = Evidence::Resolved,
                Some(false) => op.collection = None,
                None => {}
            }
        }
        f.ir.collections.retain_mut(|c| decide(c) != Some(false));
        f.ir.exports.retain_mut(|e| match &mut e.target {
            ExportTarget::Collection { collection } => decide(collection) != Some(false),
            _ => true,
        });
    }
}

/// For each file and each import `imports` lists for it: whether the module it names exports
/// it as a target `is` accepts (following re-exports), keyed by (importing file, import).
fn decide_imports(
    files: &[SourceFile],
    modules: &Modules,
    imports: impl Fn(&SourceFile) -> Vec<ImportRef>,
    is: impl Fn(&ExportTarget) -> bool,
) -> HashMap<(usize, ImportRef), bool> {
    let pick = |t: &ExportTarget| is(t).then_some(());
    let mut decided: HashMap<(usize, ImportRef), bool> = HashMap::new();
    for (fi, f) in files.iter().enumerate() {
        for import in imports(f) {
            if let std::collections::hash_map::Entry::Vacant(v) = decided.entry((fi, import)) {
                let import = &v.key().1;
                let found = modules
                    .resolve(&import.module, &f.display_path)
                    .and_then(|t| lookup_export(files, t, &import.export, modules, 0, &pick))
                    .is_some();
                v.insert(found);
            }
        }
    }
    decided
}

/// Decides the collections named where a function of another module is called (see
/// [`ExportTarget::CollectionFactory`]: `mongo_connector(settings.COL_EVENTS).create_index(..)`):
/// where that module exports the function as a collection factory, the operation keeps the name
/// its argument gives and is a driver call; otherwise it has no collection, as before the
/// frontend read the call.
fn link_factories(files: &mut [SourceFile], modules: &Modules) {
    let factory_call = |c: &CollectionRef| {
        c.import
            .as_ref()
            .filter(|i| i.names_factory_call())
            .cloned()
    };
    // (importing file, the function) → whether it is a collection factory.
    let decided = decide_imports(
        files,
        modules,
        |f| {
            let exported = f.ir.exports.iter().filter_map(|e| match &e.target {
                ExportTarget::Collection { collection } => factory_call(collection),
                _ => None,
            });
            f.ir.operations
                .iter()
                .filter_map(|o| o.collection.as_ref().and_then(factory_call))
                .chain(exported)
                .collect()
        },
        |t| matches!(t, ExportTarget::CollectionFactory),
    );
    if decided.is_empty() {
        return;
    }
    // An exported instance's collection (`export const CoinStorage = new CoinModel()`, whose
    // base class opens the name `super('coins')` gives): the name, where the base is a factory;
    // nothing otherwise.
    for (fi, f) in files.iter_mut().enumerate() {
        f.ir.exports.retain_mut(|e| {
            let ExportTarget::Collection { collection } = &mut e.target else {
                return true;
            };
            let Some(import) = factory_call(collection) else {
                return true;
            };
            let factory = decided[&(fi, import)];
            if factory {
                collection.import = None;
            }
            factory
        });
    }
    for (fi, f) in files.iter_mut().enumerate() {
        for op in &mut f.ir.operations {
            let Some(import) = op.collection.as_ref().and_then(factory_call) else {
                continue;
            };
            if decided[&(fi, import)] {
                if let Some(c) = op.collection.as_mut() {
                    c.import = None;
                }
                op.evidence = Evidence::Resolved;
            } else {
                op.collection = None;
            }
        }
    }
}

/// Gives the index declarations of schemas the models of other modules are compiled from (see
/// [`crate::ir::SchemaModel`]) the models' collections. A schema several models share declares
/// its indexes on each; a schema whose fields a model's schema copies (`...Base.obj`) declares the
/// indexes of its fields on it.
fn link_schemas(files: &mut [SourceFile], modules: &Modules) {
    // (schema's file, its variable) → the collections compiled from it, or from a copy of its
    // fields (`true`).
    let mut compiled: HashMap<(usize, String), Vec<(CollectionRef, bool)>> = HashMap::new();
    let schema = |file: usize, _: &str, t: &ExportTarget| match t {
        ExportTarget::Schema { variable } => Some((file, variable.clone())),
        _ => None,
    };
    for f in files.iter() {
        for m in &f.ir.schema_models {
            let Some(target) = modules.resolve(&m.schema.module, &f.display_path) else {
                continue;
            };
            if let Some(key) =
                lookup_export_in(files, target, &m.schema.export, modules, 0, &schema)
            {
                let list = compiled.entry(key).or_default();
                match list
                    .iter_mut()
                    .find(|(c, _)| c.name.display() == m.collection.name.display())
                {
                    Some((_, fields_only)) => *fields_only &= m.fields_only,
                    None => list.push((m.collection.clone(), m.fields_only)),
                }
            }
        }
    }
    for f in files.iter_mut() {
        f.ir.schema_models.clear();
    }
    let mut keys: Vec<(usize, String)> = compiled.keys().cloned().collect();
    keys.sort();
    for key in keys {
        let (fi, var) = &key;
        let collections = &compiled[&key];
        let ops = &mut files[*fi].ir.operations;
        let mut declared = Vec::new();
        ops.retain(|o| {
            let on_schema = o.kind == OpKind::CreateIndex
                && o.collection.as_ref().is_some_and(|c| {
                    c.import.is_none()
                        && matches!(&c.name, CollectionName::Unknown { text } if text == var)
                });
            if on_schema {
                declared.push(o.clone());
            }
            !on_schema
        });
        for op in declared {
            for (c, fields_only) in collections {
                // A copy of the fields has their options, not the schema's `.index(..)` calls.
                if *fields_only && !op.receiver.is_empty() {
                    continue;
                }
                let mut op = op.clone();
                op.collection = Some(CollectionRef {
                    span: crate::ir::Span::default(),
                    import: None,
                    ..c.clone()
                });
                ops.push(op);
            }
        }
        files[*fi].ir.normalise();
    }
}

/// Operations on a member of a named object that a file sets to a collection
/// (`FileIr::member_collections`): `db.products.findOne(..)` where `lib/db.js` says
/// `db.products = db.collection("products")`, through whatever path reaches the object
/// (`req.app.db.products`). Only operations no file resolved otherwise. A file that sets the
/// member itself names its own operations on it (apostrophe's modules each set `self.db` to their
/// own collection in `init(self)`); elsewhere, a member set to different collections in different
/// files names none.
fn link_member_collections(files: &mut [SourceFile]) {
    type Key = (String, String);
    fn note(map: &mut HashMap<Key, Option<CollectionRef>>, key: Key, c: &CollectionRef) {
        map.entry(key)
            .and_modify(|k| {
                if k.as_ref()
                    .is_some_and(|k| k.name.display() != c.name.display())
                {
                    *k = None;
                }
            })
            .or_insert(Some(c.clone()));
    }
    let mut known: HashMap<Key, Option<CollectionRef>> = HashMap::default();
    // By (module, member): what a module sets `self.<member>` or `this.<member>` to, the module
    // named by its file (`users.js`) or, for an `index` file, its folder
    // (`modules/@apostrophecms/doc/index.js`), for `self.apos.doc.db` in other modules.
    let mut by_module: HashMap<Key, Option<CollectionRef>> = HashMap::default();
    let mut own: Vec<Vec<(String, String, CollectionRef)>> = Vec::with_capacity(files.len());
    for f in files.iter_mut() {
        let set = std::mem::take(&mut f.ir.member_collections);
        for (object, member, c) in &set {
            note(&mut known, (object.clone(), member.clone()), c);
            if matches!(object.as_str(), "self" | "this") {
                if let Some(module) = module_name(&f.display_path) {
                    note(&mut by_module, (module.to_string(), member.clone()), c);
                }
            }
        }
        own.push(set);
    }
    if known.is_empty() {
        return;
    }
    for (f, own) in files.iter_mut().zip(&own) {
        for op in
            f.ir.operations
                .iter_mut()
                .filter(|o| o.collection.is_none())
        {
            let Some((path, member)) = op.receiver.rsplit_once('.') else {
                continue;
            };
            let object = crate::lang::naming::last_part(path, b'.');
            let object = object.strip_suffix('?').unwrap_or(object);
            let mine = own
                .iter()
                .find(|(o, m, _)| o == object && m == member)
                .map(|(_, _, c)| c);
            let key = (object.to_string(), member.to_string());
            let of_module = || {
                // `self.apos.doc.db`: not `self.db` of another module.
                if path.contains('.') && !matches!(object, "self" | "this") {
                    by_module.get(&key).and_then(Option::as_ref)
                } else {
                    None
                }
            };
            let Some(c) = mine
                .or_else(|| known.get(&key).and_then(Option::as_ref))
                .or_else(of_module)
            else {
                continue;
            };
            op.collection = Some(CollectionRef {
                name: c.name.clone(),
                // Named where this file sets the member; or in the module that sets it, not by
                // an expression of this file.
                span: if mine.is_some() {
                    c.span
                } else {
                    crate::ir::Span::default()
                },
                via: c.via,
                import: None,
            });
            op.evidence = Evidence::Resolved;
        }
    }
}

/// The module a file is, by name: its file name without extension, or its folder's name for an
/// `index` file (`modules/doc/index.js`: `doc`).
fn module_name(display_path: &str) -> Option<&str> {
    let mut parts = display_path.rsplit('/');
    let file = parts.next()?;
    let stem = file.split('.').next()?;
    let name = if stem == "index" { parts.next()? } else { stem };
    (!name.is_empty()).then_some(name)
}

/// Drops index helpers' own `createIndex` (see [`crate::ir::FileIr::index_pass_ons`]) where
/// every call of a helper of that name in the repository, or of a helper that hands its indexes
/// on to it, was read as index declarations. Where one was not (the indexes come from a file
/// the code reads, or from a name the frontend cannot follow), the helper's `createIndex` stays
/// an index on a collection named at run time.
fn link_index_helpers(files: &mut [SourceFile]) {
    if files.iter().all(|f| f.ir.index_pass_ons.is_empty()) {
        for f in files.iter_mut() {
            f.ir.index_helper_calls.clear();
        }
        return;
    }
    let mut calls: HashMap<String, Vec<HelperIndexes>> = HashMap::new();
    for f in files.iter_mut() {
        for (name, given) in std::mem::take(&mut f.ir.index_helper_calls) {
            calls.entry(name).or_default().push(given);
        }
    }
    fn read(calls: &HashMap<String, Vec<HelperIndexes>>, name: &str, depth: usize) -> bool {
        calls.get(name).is_some_and(|given| {
            depth < 4
                && given.iter().all(|g| match g {
                    HelperIndexes::Read => true,
                    HelperIndexes::Unread => false,
                    HelperIndexes::Forwarded(outer) => read(calls, outer, depth + 1),
                })
        })
    }
    for f in files.iter_mut() {
        let passed = std::mem::take(&mut f.ir.index_pass_ons);
        let dropped: Vec<Span> = passed
            .into_iter()
            .filter(|(_, name)| read(&calls, name, 0))
            .map(|(span, _)| span)
            .collect();
        if !dropped.is_empty() {
            f.ir.operations
                .retain(|op| op.kind != OpKind::CreateIndex || !dropped.contains(&op.span));
        }
    }
}

pub fn link(files: &mut [SourceFile]) {
    link_index_helpers(files);
    link_rust(files);
    link_model_names(files);
    let paths: Vec<String> = files
        .iter()
        .map(|f| {
            let path = f.path.to_string_lossy();
            if path.contains('\\') {
                normalise(&path.replace('\\', "/"))
            } else {
                normalise(&path)
            }
        })
        .collect();
    let displays: Vec<String> = files.iter().map(|f| f.display_path.clone()).collect();
    let modules = Modules::new(&paths, &displays);
    link_schemas(files, &modules);
    link_classes(files, &modules);
    // Before the names: a wrapper's call may name its collection with another module's constant.
    link_wrappers(files, &modules);
    // After the names: a document's collection may be spelt with another module's constant.
    link_names(files, &modules);
    link_inheritance(files, &modules);
    // Before the imports: an exported collection may be one of another module's database.
    link_databases(files, &modules);
    link_factories(files, &modules);
    // `None`: a collection in memory (see `ExportTarget::LocalCollection`), or another
    // database's model.
    let mut resolved: Vec<(usize, usize, Option<CollectionRef>)> = Vec::new();
    let mut unnamed: Vec<(usize, usize)> = Vec::new();
    let pick = |_: usize, _: &str, target: &ExportTarget| match target {
        ExportTarget::LocalCollection | ExportTarget::OtherDatabase => Some(None),
        other => collection_of(other).map(Some),
    };
    for (fi, f) in files.iter().enumerate() {
        for (oi, op) in f.ir.operations.iter().enumerate() {
            let Some(ImportRef { module, export }) =
                op.collection.as_ref().and_then(|c| c.import.as_ref())
            else {
                continue;
            };
            // (`getTopicById().doc`: the model of the document a function of another module
            // loads, see `Export::name`; no such export, no collection.)
            let loads = |export: &str| export.ends_with("().return") || export.ends_with("().doc");
            let Some(target) = modules.resolve(module, &f.display_path) else {
                if loads(export) {
                    unnamed.push((fi, oi));
                }
                continue;
            };
            let mut found = lookup_export_in(files, target, export, &modules, 0, &pick);
            if found.is_none() && export == "default" {
                // `const { User } = require(..)` is handled by name; a default import of a module whose
                // only export is one model is that model (members of exported objects, `db.users`,
                // do not count).
                let mut top = files[target]
                    .ir
                    .exports
                    .iter()
                    .filter(|e| !e.name.contains('.'));
                if let (Some(only), None) = (top.next(), top.next()) {
                    let only = only.name.clone();
                    found = lookup_export_in(files, target, &only, &modules, 0, &pick);
                }
            }
            if let Some(c) = found {
                resolved.push((fi, oi, c));
            } else if loads(export) {
                // What a function of another module returns, when it is no collection of
                // its: no collection known, as the frontend had it.
                unnamed.push((fi, oi));
            }
        }
    }
    for (fi, oi) in unnamed {
        files[fi].ir.operations[oi].collection = None;
    }
    for (fi, oi, c) in resolved {
        let op = &mut files[fi].ir.operations[oi];
        let Some(c) = c else {
            // No database behind it: not a driver call, whatever its operators.
            op.evidence = Evidence::None;
            op.collection = None;
            continue;
        };
        op.collection = Some(CollectionRef {
            name: c.name,
            // Named where the other module names it, once: no expression of this file names it
            // (a model used in a loop is not a collection named per iteration).
            span: crate::ir::Span::default(),
            via: c.via,
            import: None,
        });
        op.evidence = Evidence::Resolved;
    }
    share_import_evidence(files, &modules);
    link_member_collections(files);
    link_mixins(files, &modules);
    drop_commands(files);
    merge_unique_field_indexes(files);
    link_lookups(files, &modules);
}

/// The calls in loops of functions imported from other modules (see [`ImportedCall`]) that are
/// look-ups there ([`crate::ir::Lookup`]): each a [`HelperRead`] of the calling file, its read in
/// the other. Empties every file's `imported_calls`.
fn link_lookups(files: &mut [SourceFile], modules: &Modules) {
    let mut found: Vec<(usize, ImportedCall, usize, Span)> = Vec::new();
    for fi in 0..files.len() {
        for c in std::mem::take(&mut files[fi].ir.imported_calls) {
            let f = &files[fi];
            // A call that is an operation itself (`Users.findOne(..)` on an imported model).
            if f.ir.operations.iter().any(|o| o.span == c.call) {
                continue;
            }
            let Some(target) = modules.resolve(&c.import.module, &f.display_path) else {
                continue;
            };
            if let Some((file, read)) = find_lookup(files, target, &c.import.export, modules, 0) {
                if file != fi {
                    found.push((fi, c, file, read));
                }
            }
        }
    }
    for (fi, c, file, read) in found {
        files[fi].ir.helper_reads.push(HelperRead {
            call: c.call,
            callee_span: c.callee_span,
            callee: c.callee,
            read,
            read_file: Some(file),
            context: c.context,
        });
    }
}

/// The look-up `export` of `file` names (see [`crate::ir::Lookup`]): the file's own, or one it
/// re-exports (`exports.User = require('./user')`, asked for `User.getUserById`; `export *
/// from './user'`), as (file, read).
fn find_lookup(
    files: &[SourceFile],
    file: usize,
    export: &str,
    modules: &Modules,
    depth: usize,
) -> Option<(usize, Span)> {
    if depth > 8 {
        return None;
    }
    let f = &files[file];
    // A module's functions assigned to `exports` are members of its default export too.
    let name = export.strip_prefix("default.").unwrap_or(export);
    if let Some(l) = f.ir.lookups.iter().find(|l| l.name == name) {
        return Some((file, l.read));
    }
    let (head, rest) = match export.split_once('.') {
        Some((head, rest)) => (head, Some(rest)),
        None => (export, None),
    };
    let reexport = f.ir.exports.iter().find_map(|e| match &e.target {
        ExportTarget::Reexport { import } if e.name == head => Some(import),
        _ => None,
    });
    let Some(import) = reexport else {
        return star_imported(f, modules)
            .find_map(|next| find_lookup(files, next, export, modules, depth + 1));
    };
    let next = modules.resolve(&import.module, &f.display_path)?;
    let export = match rest {
        Some(rest) if matches!(import.export.as_str(), "default" | "*") => rest.to_string(),
        Some(rest) => format!("{}.{rest}", import.export),
        None => import.export.clone(),
    };
    find_lookup(files, next, &export, modules, depth + 1)
}

/// A name imported from a module the linker could not follow to a collection, which one call
/// shows to be MongoDB (a driver-only method, an operator: Rocket.Chat's `Users` from
/// `@rocket.chat/models`, `Users.countDocuments({status: {$ne: "offline"}})`), is MongoDB for
/// every call on it in the repository, whatever the call looks like (`Users.findOne({username})`
/// in a loop over subscriptions).
fn share_import_evidence(files: &mut [SourceFile], modules: &Modules) {
    type Key = (Option<usize>, String, String);
    let key = |import: &ImportRef, from: &str| -> Key {
        match modules.resolve(&import.module, from) {
            Some(target) => (Some(target), String::new(), import.export.clone()),
            None => (None, import.module.clone(), import.export.clone()),
        }
    };
    // A Python model class's manager (`Instance.objects`) is no evidence either way: Django's
    // and mongoengine's are spelt alike, and one module may hold both (kobotoolbox).
    let shares = |language: crate::ir::Language, op: &Operation| {
        language != crate::ir::Language::Python
            || op
                .collection
                .as_ref()
                .is_some_and(|c| c.via == CollectionVia::Driver)
    };
    let mut shown: crate::lang::HashSet<Key> = crate::lang::HashSet::default();
    for f in files.iter() {
        for op in &f.ir.operations {
            if let (Evidence::Shaped, Some(import)) = (
                op.evidence,
                op.collection.as_ref().and_then(|c| c.import.as_ref()),
            ) {
                if shares(f.language, op) {
                    shown.insert(key(import, &f.display_path));
                }
            }
        }
    }
    if shown.is_empty() {
        return;
    }
    for f in files.iter_mut() {
        let from = f.display_path.clone();
        let language = f.language;
        for op in &mut f.ir.operations {
            if op.evidence != Evidence::None || !shares(language, op) {
                continue;
            }
            let Some(import) = op.collection.as_ref().and_then(|c| c.import.as_ref()) else {
                continue;
            };
            if shown.contains(&key(import, &from)) {
                op.evidence = Evidence::Shaped;
            }
        }
    }
}

/// A mongoengine document's `meta` index on exactly the keys of a field's unique index
/// (`name = StringField(unique=True)` or a field class that makes its fields unique, and
/// `"indexes": ["name"]`) is merged into it (`_build_index_specs`, `merge_index_specs`): one
/// unique index on the server, so the `meta` entry declares nothing more. An entry with options of
/// its own is kept: what the merged index keeps of them is not modelled. Runs once the linker has
/// put every inherited declaration and every unique field of a class of another module on its
/// document's collection.
fn merge_unique_field_indexes(files: &mut [SourceFile]) {
    fn keys(op: &Operation) -> Option<Vec<(&str, f64)>> {
        match &op.filter.as_ref()?.kind {
            ValueKind::Document(keys) => keys
                .iter()
                .map(|k| match k.value.kind {
                    ValueKind::Number(n) => Some((k.key.as_str(), n)),
                    _ => None,
                })
                .collect(),
            _ => None,
        }
    }
    let python = |f: &SourceFile| f.language == crate::ir::Language::Python;
    let is_index =
        |op: &Operation, method: &str| op.kind == OpKind::CreateIndex && op.method == method;
    let mut unique: Vec<(String, Vec<(String, f64)>)> = Vec::new();
    for f in files.iter().filter(|f| python(f)) {
        for op in f.ir.operations.iter().filter(|op| is_index(op, "unique")) {
            if let (Some(c), Some(k)) = (&op.collection, keys(op)) {
                let k = k.into_iter().map(|(n, d)| (n.to_string(), d)).collect();
                unique.push((c.name.display(), k));
            }
        }
    }
    if unique.is_empty() {
        return;
    }
    let no_options = |op: &Operation| match &op.options {
        None => true,
        Some(v) => matches!(&v.kind, ValueKind::Document(fs) if fs.is_empty()),
    };
    for f in files.iter_mut().filter(|f| python(f)) {
        f.ir.operations.retain(|op| {
            let merged = is_index(op, "indexes")
                && no_options(op)
                && op.collection.as_ref().is_some_and(|c| {
                    let name = c.name.display();
                    keys(op).is_some_and(|k| {
                        unique.iter().any(|(n, u)| {
                            *n == name
                                && u.len() == k.len()
                                && u.iter().zip(&k).all(|(a, b)| a.0 == b.0 && a.1 == b.1)
                        })
                    })
                });
            !merged
        });
    }
}

/// Mongoose models looked up by name in one module (`Whatsup = mongoose.model("Whatsup")`) and
/// registered in another under a collection of their own (`mongoose.model("Whatsup", new
/// Schema(spec, { collection: "messages" }))`): the look-up's references name that collection,
/// not the one Mongoose would derive from the model's name (`whatsups`). A model registered under
/// two different collections keeps the derived name.
fn link_model_names(files: &mut [SourceFile]) {
    let mut registered: HashMap<String, Option<String>> = HashMap::default();
    for f in files.iter() {
        for (model, collection) in &f.ir.model_collections {
            registered
                .entry(model.clone())
                .and_modify(|c| {
                    if c.as_ref() != Some(collection) {
                        *c = None;
                    }
                })
                .or_insert_with(|| Some(collection.clone()));
        }
    }
    if registered.is_empty() {
        return;
    }
    for f in files.iter_mut() {
        if f.ir.model_lookups.is_empty() {
            continue;
        }
        let lookups: HashMap<crate::ir::Span, &str> =
            f.ir.model_lookups
                .iter()
                .filter_map(|(span, model)| {
                    registered
                        .get(model)
                        .and_then(|c| c.as_deref())
                        .map(|c| (*span, c))
                })
                .collect();
        let rename = |c: &mut CollectionRef| {
            if c.via != CollectionVia::MongooseModel || c.import.is_some() {
                return;
            }
            if let Some(name) = lookups.get(&c.span) {
                c.name = CollectionName::Literal {
                    name: name.to_string(),
                };
            }
        };
        let ir = &mut f.ir;
        ir.collections.iter_mut().for_each(rename);
        ir.operations
            .iter_mut()
            .filter_map(|op| op.collection.as_mut())
            .for_each(rename);
        for e in &mut ir.exports {
            if let ExportTarget::Collection { collection } = &mut e.target {
                rename(collection);
            }
        }
    }
}

/// Handler mixins (scout's `class CaseHandler` reads `self.case_collection`, which it never
/// binds): the class that combines them, in a module that imports theirs, binds the attribute
/// (`class MongoAdapter(CaseHandler, ..)` with `self.case_collection = database.case`, exported
/// as `MongoAdapter.self.case_collection`). An operation on `self.<attr>` with no collection
/// takes the one the classes of the modules importing its own bind `self.<attr>` to, when they
/// agree on one.
fn link_mixins(files: &mut [SourceFile], modules: &Modules) {
    // (file of the class, attribute, collection)
    let mut bound: Vec<(usize, String, CollectionRef)> = Vec::new();
    for (fi, f) in files.iter().enumerate() {
        for e in &f.ir.exports {
            // (A byte scan: `split_once` with a string pattern builds a searcher per name.)
            let attr = e
                .name
                .as_bytes()
                .windows(6)
                .position(|w| w == b".self.")
                .map(|at| &e.name[at + 6..]);
            let (Some(attr), ExportTarget::Collection { collection }) = (attr, &e.target) else {
                continue;
            };
            bound.push((fi, attr.to_string(), collection.clone()));
        }
    }
    if bound.is_empty() {
        return;
    }
    // The modules each binding file imports from.
    let mut imports: HashMap<usize, Vec<usize>> = HashMap::new();
    for &(fi, _, _) in &bound {
        imports.entry(fi).or_insert_with(|| {
            let f = &files[fi];
            let mut to: Vec<usize> =
                f.ir.exports
                    .iter()
                    .filter_map(|e| match &e.target {
                        ExportTarget::Reexport { import } => {
                            modules.resolve(&import.module, &f.display_path)
                        }
                        _ => None,
                    })
                    .collect();
            to.sort_unstable();
            to.dedup();
            to
        });
    }
    for (fi, f) in files.iter_mut().enumerate() {
        for op in &mut f.ir.operations {
            if op.collection.is_some() {
                continue;
            }
            let Some(attr) = op.receiver.strip_prefix("self.") else {
                continue;
            };
            if attr.is_empty() || !attr.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                continue;
            }
            let mut found: Option<&CollectionRef> = None;
            let mut agree = true;
            for (bf, battr, c) in &bound {
                if battr != attr || !imports[bf].contains(&fi) {
                    continue;
                }
                match found {
                    None => found = Some(c),
                    Some(prev) if prev.name.display() == c.name.display() => {}
                    Some(_) => agree = false,
                }
            }
            if let (Some(c), true) = (found, agree) {
                op.collection = Some(CollectionRef {
                    name: c.name.clone(),
                    span: crate::ir::Span::default(),
                    via: c.via,
                    import: None,
                });
                op.evidence = Evidence::Resolved;
            }
        }
    }
}

/// `$cmd` and its `$cmd.sys.*` names are no collections: the legacy way to run a command
/// through a query (`conn["admin"]["$cmd.sys.killop"].find_one({"op": id})`, CRITs' `killOp.py`).
fn drop_commands(files: &mut [SourceFile]) {
    let command = |c: Option<&CollectionRef>| {
        c.is_some_and(|c| {
            matches!(&c.name, CollectionName::Literal { name }
                if name == "$cmd" || name.starts_with("$cmd."))
        })
    };
    for f in files {
        f.ir.operations
            .retain(|op| !command(op.collection.as_ref()));
        f.ir.collections.retain(|c| !command(Some(c)));
    }
}

/// Writes out the operations that calls of other modules' wrappers run (see [`Wrapper`]): a
/// call the linker finds no wrapper for stays no operation.
fn link_wrappers(files: &mut [SourceFile], modules: &Modules) {
    let wrapper = |t: &ExportTarget| match t {
        ExportTarget::Wrapper { wrapper } => Some(wrapper.clone()),
        _ => None,
    };
    let mut found: Vec<(usize, usize, Box<Wrapper>)> = Vec::new();
    for (fi, f) in files.iter().enumerate() {
        for (oi, op) in f.ir.operations.iter().enumerate() {
            let Some(import) = &op.wrapped else {
                continue;
            };
            let Some(target) = modules.resolve(&import.module, &f.display_path) else {
                continue;
            };
            if let Some(w) = lookup_export(files, target, &import.export, modules, 0, &wrapper) {
                found.push((fi, oi, w));
            }
        }
    }
    // By file: the calls written out (their indexes and spans).
    let mut replaced: Vec<(usize, Vec<usize>, Vec<Span>)> = Vec::new();
    for (fi, oi, w) in found {
        let op = &mut files[fi].ir.operations[oi];
        *op = wrapped_operation(&w, op);
        let at = op.span;
        match replaced.last_mut() {
            Some((f, indexes, spans)) if *f == fi => {
                indexes.push(oi);
                spans.push(at);
            }
            _ => replaced.push((fi, vec![oi], vec![at])),
        }
    }
    // What a call of a class's wrapper method read as by itself (`MongoDB.find_one(COL, q)`, an
    // operation on a collection named `MongoDB`) is not what it runs.
    for (fi, indexes, spans) in replaced {
        let mut i = 0;
        files[fi].ir.operations.retain(|op| {
            i += 1;
            indexes.contains(&(i - 1)) || op.wrapped.is_some() || !spans.contains(&op.span)
        });
    }
}

/// The operation a call of `w` runs: the wrapper's, on the collection the call names, each
/// parameter of it what the call passes (a value the wrapper's body writes itself is placed at
/// the call). What depends on a parameter the call does not pass is left out (an option, a
/// modifier), as the wrapper's default is not read.
fn wrapped_operation(w: &Wrapper, call: &Operation) -> Operation {
    let given = |name: &str| -> Option<&Value> {
        let at = w.params.iter().position(|p| p == name)?;
        call.documents
            .get(at)
            .or_else(|| call.options.as_ref()?.get(name).map(|f| &f.value))
    };
    let at = call.span;
    let put = |v: &Value| substitute(v, &w.params, &given, at);
    let mut op = w.operation.clone();
    op.span = call.span;
    op.method_span = call.method_span;
    op.context = call.context.clone();
    op.receiver = call.receiver.clone();
    op.wrapped = None;
    let named = given(&w.collection);
    op.evidence = match named.and_then(Value::as_str) {
        Some(_) => Evidence::Resolved,
        None => Evidence::Shaped,
    };
    op.collection = named.map(|v| CollectionRef {
        name: match v.as_str() {
            Some(name) => CollectionName::Literal {
                name: name.to_string(),
            },
            None => CollectionName::Unknown {
                text: match &v.kind {
                    ValueKind::Unknown(u) => u.text.clone(),
                    _ => w.collection.clone(),
                },
            },
        },
        span: v.span,
        via: CollectionVia::Driver,
        import: None,
    });
    op.filter = op.filter.as_ref().and_then(put);
    if op.kind == OpKind::CreateIndex {
        op.filter = op.filter.map(index_keys);
    }
    op.update = op.update.as_ref().and_then(put);
    op.options = op.options.as_ref().and_then(put);
    op.documents = op.documents.iter().filter_map(put).collect();
    op.modifiers = std::mem::take(&mut op.modifiers)
        .into_iter()
        .filter_map(|mut m| {
            m.args = m.args.iter().map(put).collect::<Option<Vec<_>>>()?;
            m.span = at;
            Some(m)
        })
        .collect();
    // What the call's own chain adds (`mongo_find("posts", q).skip(n)`), as the caller spells it.
    op.modifiers.extend(call.modifiers.iter().cloned());
    op.pipeline = match &w.pipeline {
        Some(p) => match given(p).map(|v| &v.kind) {
            Some(ValueKind::Array(stages)) => Some(stages.clone()),
            _ => None,
        },
        None => op
            .pipeline
            .as_ref()
            .map(|stages| stages.iter().filter_map(put).collect()),
    };
    op
}

/// The keys of an index as pymongo's `create_index` takes them, as a document: a field's name
/// (`"info.id"`, ascending) or a list of `(field, direction)` pairs. Anything else stays as it is
/// (a declaration the model cannot read).
fn index_keys(v: Value) -> Value {
    let pair = |item: &Value| match item.items() {
        [field, direction] if field.as_str().is_some() => Some(crate::ir::Field {
            key: field.as_str()?.to_string(),
            key_span: field.span,
            value: direction.clone(),
        }),
        _ => None,
    };
    let keys = match &v.kind {
        ValueKind::String(field) => Some(vec![crate::ir::Field {
            key: field.clone(),
            key_span: v.span,
            value: Value {
                span: v.span,
                kind: ValueKind::Number(1.0),
            },
        }]),
        ValueKind::Array(items) if !items.is_empty() => items.iter().map(pair).collect(),
        _ => None,
    };
    match keys {
        Some(fields) => Value {
            span: v.span,
            kind: ValueKind::Document(fields),
        },
        None => v,
    }
}

/// `v`, a value of a wrapper's body, at a call of it: a parameter is what the call passes
/// (`None` if it passes nothing), anything else is placed at the call (`at`), its fields and
/// items that are parameters the call does not pass left out.
fn substitute<'a>(
    v: &Value,
    params: &[String],
    given: &dyn Fn(&str) -> Option<&'a Value>,
    at: Span,
) -> Option<Value> {
    if let ValueKind::Unknown(u) = &v.kind {
        if u.is_name && params.contains(&u.text) {
            return given(&u.text).cloned();
        }
    }
    let kind = match &v.kind {
        ValueKind::Document(fields) => ValueKind::Document(
            fields
                .iter()
                .filter_map(|f| {
                    Some(crate::ir::Field {
                        key: f.key.clone(),
                        key_span: at,
                        value: substitute(&f.value, params, given, at)?,
                    })
                })
                .collect(),
        ),
        ValueKind::Array(items) => ValueKind::Array(
            items
                .iter()
                .filter_map(|x| substitute(x, params, given, at))
                .collect(),
        ),
        other => other.clone(),
    };
    Some(Value { span: at, kind })
}
