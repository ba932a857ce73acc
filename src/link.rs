//! Cross-file resolution: a collection or model imported from another module of the repository
//! takes the name that module exports. What cannot be resolved stays unknown.

use crate::analysis::SourceFile;
use crate::ir::{CollectionRef, Evidence, ExportTarget, ImportRef};
use std::collections::HashMap;

const JS_EXTENSIONS: &[&str] = &[
    "", ".js", ".ts", ".mjs", ".cjs", ".jsx", ".tsx", ".mts", ".cts",
];

/// Normalises `a/b/../c/./d` → `a/c/d`. Display paths are relative to the current folder when the
/// file is below it, absolute otherwise, and keep how the user spelt them (`./src`, `../app`):
/// an absolute path stays absolute and leading `..` segments are kept, so that the files' own
/// paths and the paths their imports name normalise alike.
fn normalise(path: &str) -> String {
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

/// The file a module specifier names, seen from `from` (a display path).
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
        return None;
    }
    // Path aliases (`@/models/user`, `~/models/user`, `src/models/user`): a unique suffix match.
    let rest = module.trim_start_matches("@/").trim_start_matches("~/");
    if rest.is_empty() || !rest.contains('/') {
        return None;
    }
    let mut found = None;
    for ext in JS_EXTENSIONS {
        let want = format!("/{rest}{ext}");
        for (p, i) in suffix_index {
            if p.ends_with(&want) || (*p == &want[1..]) {
                if found.is_some_and(|f| f != *i) {
                    return None;
                }
                found = Some(*i);
            }
        }
    }
    found
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
        if rest.is_empty() {
            return None;
        }
        let mut found = None;
        for want in [format!("{rest}.py"), format!("{rest}/__init__.py")] {
            let slashed = format!("/{want}");
            for (p, i) in suffix_index {
                if p.ends_with(&slashed) || *p == want {
                    if found.is_some_and(|f| f != *i) {
                        return None;
                    }
                    found = Some(*i);
                }
            }
        }
        return found;
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

fn lookup_export(
    files: &[SourceFile],
    file: usize,
    export: &str,
    by_path: &HashMap<&str, usize>,
    suffix_index: &[(&str, usize)],
    depth: usize,
) -> Option<CollectionRef> {
    if depth > 8 {
        return None;
    }
    let f = &files[file];
    let e = f.ir.exports.iter().find(|e| e.name == export)?;
    match &e.target {
        ExportTarget::Collection { collection } => Some(collection.clone()),
        ExportTarget::Reexport { import } => {
            let next = resolve_module(&import.module, &f.display_path, by_path, suffix_index)?;
            lookup_export(
                files,
                next,
                &import.export,
                by_path,
                suffix_index,
                depth + 1,
            )
        }
    }
}

pub fn link(files: &mut [SourceFile]) {
    let paths: Vec<String> = files.iter().map(|f| normalise(&f.display_path)).collect();
    let by_path: HashMap<&str, usize> = paths
        .iter()
        .enumerate()
        .map(|(i, p)| (p.as_str(), i))
        .collect();
    let suffix_index: Vec<(&str, usize)> = paths
        .iter()
        .enumerate()
        .map(|(i, p)| (p.as_str(), i))
        .collect();
    let mut resolved: Vec<(usize, usize, CollectionRef)> = Vec::new();
    for (fi, f) in files.iter().enumerate() {
        for (oi, op) in f.ir.operations.iter().enumerate() {
            let Some(ImportRef { module, export }) =
                op.collection.as_ref().and_then(|c| c.import.as_ref())
            else {
                continue;
            };
            let Some(target) = resolve_module(module, &f.display_path, &by_path, &suffix_index)
            else {
                continue;
            };
            let mut found = lookup_export(files, target, export, &by_path, &suffix_index, 0);
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
                    found = lookup_export(files, target, &only, &by_path, &suffix_index, 0);
                }
            }
            if let Some(c) = found {
                resolved.push((fi, oi, c));
            }
        }
    }
    for (fi, oi, c) in resolved {
        let op = &mut files[fi].ir.operations[oi];
        let span = op.collection.as_ref().map(|c| c.span).unwrap_or_default();
        op.collection = Some(CollectionRef {
            name: c.name,
            span,
            via: c.via,
            import: None,
        });
        op.evidence = Evidence::Resolved;
    }
}
