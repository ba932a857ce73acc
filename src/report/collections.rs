//! `mongolint collections`: the access-pattern map, as text or as the stable JSON documented in
//! docs/collections-json.md. Like every reporter, a pure function of its inputs: collections by
//! name, sites by path and position, so the bytes are the same on every run.

use super::locate::Locator;
use super::VERSION;
use crate::analysis::Analysis;
use crate::model::{AccessModel, CollectionAccess, IndexDecl, OpSummary, Site};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;

const SCHEMA_VERSION: u32 = 1;

#[derive(Serialize)]
struct Report {
    version: u32,
    tool: Tool,
    collections: Vec<Collection>,
    dynamic_families: Vec<FamilyOut>,
    read_together: Vec<ReadTogetherOut>,
    unresolved: Unresolved,
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Location {
    path: String,
    line: usize,
    column: usize,
}

#[derive(Serialize)]
struct Collection {
    name: String,
    via: Vec<&'static str>,
    references: Vec<Location>,
    operations: Vec<KindOut>,
    queried_fields: Vec<QueriedField>,
    sorted_fields: Vec<SortedField>,
    projected_fields: Vec<String>,
    updated_fields: Vec<UpdatedField>,
    pushed_arrays: Vec<PushedArray>,
    joins: Vec<JoinOut>,
    indexes: Vec<IndexOut>,
    read_with: Vec<String>,
    unreadable_filters: usize,
}

#[derive(Serialize)]
struct KindOut {
    kind: String,
    count: usize,
    sites: Vec<OpSite>,
}

#[derive(Serialize)]
struct OpSite {
    #[serde(flatten)]
    at: Location,
    method: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    function: Option<String>,
    in_loop: bool,
}

#[derive(Serialize)]
struct QueriedField {
    field: String,
    equality: usize,
    range: usize,
}

#[derive(Serialize)]
struct SortedField {
    field: String,
    direction: i32,
    count: usize,
}

#[derive(Serialize)]
struct UpdatedField {
    field: String,
    operator: String,
    count: usize,
}

#[derive(Serialize)]
struct PushedArray {
    field: String,
    sites: Vec<Location>,
}

#[derive(Serialize)]
struct JoinOut {
    stage: &'static str,
    from: Option<String>,
    local_field: Option<String>,
    foreign_field: Option<String>,
    #[serde(flatten)]
    at: Location,
}

#[derive(Serialize)]
struct IndexOut {
    keys: Vec<KeyOut>,
    /// `unique`, `sparse`, `partial`, `ttl`, `collation`, `hidden`.
    options: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    declared_by: String,
    /// The key pattern could not be read (a variable, a computed key).
    dynamic: bool,
    /// A `dropIndex` in the repository names this index.
    dropped: bool,
    #[serde(flatten)]
    at: Location,
}

#[derive(Serialize)]
struct KeyOut {
    field: String,
    #[serde(rename = "type")]
    kind: &'static str,
}

#[derive(Serialize)]
struct FamilyOut {
    template: String,
    holes: Vec<&'static str>,
    references: Vec<Location>,
    operations: usize,
}

#[derive(Serialize)]
struct ReadTogetherOut {
    path: String,
    function: String,
    collections: Vec<String>,
}

#[derive(Serialize)]
struct Unresolved {
    operations: Vec<UnresolvedOp>,
    indexes: Vec<IndexOut>,
}

#[derive(Serialize)]
struct UnresolvedOp {
    #[serde(flatten)]
    at: Location,
    kind: String,
    method: String,
    receiver: String,
}

fn kind_name(k: crate::ir::OpKind) -> String {
    serde_json::to_value(k)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

struct Builder<'a> {
    analysis: &'a Analysis,
    loc: Locator<'a>,
}

impl<'a> Builder<'a> {
    fn at(&self, s: Site) -> Location {
        let (line, column) = self
            .loc
            .range(s.file, s.span)
            .map(|r| (r.start.line, r.start.column))
            .unwrap_or((0, 0));
        Location {
            path: self.loc.path(s.file).to_string(),
            line,
            column,
        }
    }

    fn index(&self, ix: &IndexDecl) -> IndexOut {
        IndexOut {
            keys: ix
                .keys
                .iter()
                .map(|k| KeyOut {
                    field: k.field.clone(),
                    kind: k.kind.as_str(),
                })
                .collect(),
            options: ix.options.flags(),
            name: ix.options.name.clone(),
            declared_by: ix.method.clone(),
            dynamic: ix.dynamic,
            dropped: ix.dropped,
            at: self.at(ix.site),
        }
    }

    fn op_site(&self, s: &OpSummary) -> OpSite {
        OpSite {
            at: self.at(s.site),
            method: s.method.clone(),
            function: s.function.clone(),
            in_loop: s.in_loop,
        }
    }

    fn collection(&self, c: &CollectionAccess, read_with: &BTreeSet<String>) -> Collection {
        let mut kinds: BTreeMap<String, Vec<OpSite>> = BTreeMap::new();
        let mut queried: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        let mut sorted: BTreeMap<(String, i32), usize> = BTreeMap::new();
        let mut projected: BTreeSet<String> = BTreeSet::new();
        let mut updated: BTreeMap<(String, String), usize> = BTreeMap::new();
        let mut pushed: BTreeMap<String, Vec<Location>> = BTreeMap::new();
        let mut joins = Vec::new();
        let mut unreadable = 0;
        for s in &c.operations {
            kinds
                .entry(kind_name(s.kind))
                .or_default()
                .push(self.op_site(s));
            if s.query.opaque.is_some() {
                unreadable += 1;
            }
            for f in &s.query.equality {
                queried.entry(f.clone()).or_default().0 += 1;
            }
            for f in &s.query.range {
                queried.entry(f.clone()).or_default().1 += 1;
            }
            for (f, d) in &s.query.sort {
                *sorted.entry((f.clone(), *d)).or_default() += 1;
            }
            projected.extend(s.projection.iter().cloned());
            for (f, o) in &s.updates {
                *updated.entry((f.clone(), o.clone())).or_default() += 1;
            }
            for f in &s.pushed {
                pushed.entry(f.clone()).or_default().push(self.at(s.site));
            }
            for j in &s.joins {
                joins.push(JoinOut {
                    stage: j.stage,
                    from: j.from.clone(),
                    local_field: j.local_field.clone(),
                    foreign_field: j.foreign_field.clone(),
                    at: self.at(Site {
                        file: j.file,
                        span: j.stage_span,
                    }),
                });
            }
        }
        let mut references: Vec<Location> = c.references.iter().map(|r| self.at(*r)).collect();
        references.sort();
        references.dedup();
        Collection {
            name: c.name.clone(),
            via: c.via.iter().copied().collect(),
            references,
            operations: kinds
                .into_iter()
                .map(|(kind, sites)| KindOut {
                    kind,
                    count: sites.len(),
                    sites,
                })
                .collect(),
            queried_fields: queried
                .into_iter()
                .map(|(field, (equality, range))| QueriedField {
                    field,
                    equality,
                    range,
                })
                .collect(),
            sorted_fields: sorted
                .into_iter()
                .map(|((field, direction), count)| SortedField {
                    field,
                    direction,
                    count,
                })
                .collect(),
            projected_fields: projected.into_iter().collect(),
            updated_fields: updated
                .into_iter()
                .map(|((field, operator), count)| UpdatedField {
                    field,
                    operator,
                    count,
                })
                .collect(),
            pushed_arrays: pushed
                .into_iter()
                .map(|(field, sites)| PushedArray { field, sites })
                .collect(),
            joins,
            indexes: c.indexes.iter().map(|i| self.index(i)).collect(),
            read_with: read_with.iter().cloned().collect(),
            unreadable_filters: unreadable,
        }
    }

    fn report(&self, model: &AccessModel) -> Report {
        let mut read_with: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
        for rt in &model.read_together {
            for a in &rt.collections {
                for b in &rt.collections {
                    if a != b {
                        read_with.entry(a.as_str()).or_default().insert(b.clone());
                    }
                }
            }
        }
        let empty = BTreeSet::new();
        Report {
            version: SCHEMA_VERSION,
            tool: Tool {
                name: "mongolint",
                version: VERSION,
            },
            collections: model
                .collections
                .values()
                .map(|c| self.collection(c, read_with.get(c.name.as_str()).unwrap_or(&empty)))
                .collect(),
            dynamic_families: model
                .families
                .values()
                .map(|f| {
                    let mut references: Vec<Location> =
                        f.references.iter().map(|r| self.at(*r)).collect();
                    references.sort();
                    references.dedup();
                    FamilyOut {
                        template: f.template.clone(),
                        holes: f.holes.iter().copied().collect(),
                        references,
                        operations: f.operations.len(),
                    }
                })
                .collect(),
            read_together: model
                .read_together
                .iter()
                .map(|r| ReadTogetherOut {
                    path: self.loc.path(r.file).to_string(),
                    function: r.function.clone(),
                    collections: r.collections.clone(),
                })
                .collect(),
            unresolved: Unresolved {
                operations: model
                    .unresolved
                    .iter()
                    .map(|s| UnresolvedOp {
                        at: self.at(s.site),
                        kind: kind_name(s.kind),
                        method: s.method.clone(),
                        receiver: self.analysis.files[s.id.file].ir.operations[s.id.index]
                            .receiver
                            .clone(),
                    })
                    .collect(),
                indexes: model
                    .unresolved_indexes
                    .iter()
                    .map(|i| self.index(i))
                    .collect(),
            },
        }
    }
}

/// Writes the map as JSON (docs/collections-json.md).
pub fn render_json(
    analysis: &Analysis,
    model: &AccessModel,
    out: &mut Vec<u8>,
) -> std::io::Result<()> {
    let b = Builder {
        analysis,
        loc: Locator::new(analysis),
    };
    let report = b.report(model);
    // Into the `Vec` itself, not through `dyn Write`: serde_json writes token by token.
    serde_json::to_writer_pretty(&mut *out, &report)?;
    writeln!(out)
}

fn loc_text(l: &Location) -> String {
    format!("{}:{}:{}", l.path, l.line, l.column)
}

/// Writes the map for people.
pub fn render_text(
    analysis: &Analysis,
    model: &AccessModel,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let b = Builder {
        analysis,
        loc: Locator::new(analysis),
    };
    let r = b.report(model);
    for c in &r.collections {
        let ops: usize = c.operations.iter().map(|k| k.count).sum();
        writeln!(
            out,
            "{}  ({}) — {} operation{}, {} index declaration{}",
            c.name,
            if c.via.is_empty() {
                "named only".to_string()
            } else {
                c.via.join(", ")
            },
            ops,
            if ops == 1 { "" } else { "s" },
            c.indexes.len(),
            if c.indexes.len() == 1 { "" } else { "s" },
        )?;
        for k in &c.operations {
            let sites: Vec<String> = k
                .sites
                .iter()
                .map(|s| {
                    let mut t = loc_text(&s.at);
                    if s.in_loop {
                        t.push_str(" (in a loop)");
                    }
                    t
                })
                .collect();
            writeln!(out, "  {:<18} ×{:<3} {}", k.kind, k.count, sites.join(", "))?;
        }
        if !c.queried_fields.is_empty() {
            let q: Vec<String> = c
                .queried_fields
                .iter()
                .map(|f| match (f.equality, f.range) {
                    (e, 0) => format!("{} (eq ×{e})", f.field),
                    (0, r) => format!("{} (range ×{r})", f.field),
                    (e, r) => format!("{} (eq ×{e}, range ×{r})", f.field),
                })
                .collect();
            writeln!(out, "  queried by: {}", q.join(", "))?;
        }
        if c.unreadable_filters > 0 {
            writeln!(
                out,
                "  filters not readable statically: {}",
                c.unreadable_filters
            )?;
        }
        if !c.sorted_fields.is_empty() {
            let s: Vec<String> = c
                .sorted_fields
                .iter()
                .map(|f| format!("{} {} ×{}", f.field, f.direction, f.count))
                .collect();
            writeln!(out, "  sorted by: {}", s.join(", "))?;
        }
        if !c.projected_fields.is_empty() {
            writeln!(out, "  projected: {}", c.projected_fields.join(", "))?;
        }
        if !c.updated_fields.is_empty() {
            let u: Vec<String> = c
                .updated_fields
                .iter()
                .map(|f| format!("{} ({} ×{})", f.field, f.operator, f.count))
                .collect();
            writeln!(out, "  updates: {}", u.join(", "))?;
        }
        for p in &c.pushed_arrays {
            let sites: Vec<String> = p.sites.iter().map(loc_text).collect();
            writeln!(
                out,
                "  array pushed to: {} at {}",
                p.field,
                sites.join(", ")
            )?;
        }
        for j in &c.joins {
            writeln!(
                out,
                "  joins {} {} on {} → {} at {}",
                j.stage,
                j.from.as_deref().unwrap_or("?"),
                j.local_field.as_deref().unwrap_or("?"),
                j.foreign_field.as_deref().unwrap_or("(pipeline)"),
                loc_text(&j.at)
            )?;
        }
        for ix in &c.indexes {
            let keys: Vec<String> = ix
                .keys
                .iter()
                .map(|k| format!("{}: {}", k.field, k.kind))
                .collect();
            let mut extra = ix.options.clone();
            if ix.dropped {
                extra.push("dropped");
            }
            writeln!(
                out,
                "  index {{{}}}{}{} ({}) at {}",
                if ix.dynamic {
                    "?".to_string()
                } else {
                    keys.join(", ")
                },
                if extra.is_empty() { "" } else { " " },
                extra.join(" "),
                ix.declared_by,
                loc_text(&ix.at)
            )?;
        }
        if !c.read_with.is_empty() {
            writeln!(out, "  read together with: {}", c.read_with.join(", "))?;
        }
        writeln!(out)?;
    }
    for f in &r.dynamic_families {
        writeln!(
            out,
            "family {}  (holes: {}) — {} operation{}; named at {}",
            f.template,
            f.holes.join(", "),
            f.operations,
            if f.operations == 1 { "" } else { "s" },
            f.references
                .iter()
                .map(loc_text)
                .collect::<Vec<_>>()
                .join(", ")
        )?;
    }
    if !r.dynamic_families.is_empty() {
        writeln!(out)?;
    }
    for rt in &r.read_together {
        writeln!(
            out,
            "read together in {} ({}): {}",
            rt.function,
            rt.path,
            rt.collections.join(", ")
        )?;
    }
    if !r.read_together.is_empty() {
        writeln!(out)?;
    }
    writeln!(
        out,
        "{} collection{}, {} operation{} on collections the code does not name, {} index declaration{} on such collections",
        r.collections.len(),
        if r.collections.len() == 1 { "" } else { "s" },
        r.unresolved.operations.len(),
        if r.unresolved.operations.len() == 1 { "" } else { "s" },
        r.unresolved.indexes.len(),
        if r.unresolved.indexes.len() == 1 { "" } else { "s" },
    )?;
    Ok(())
}
