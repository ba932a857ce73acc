use super::{Rule, RuleContext, RuleMeta};
use crate::diagnostic::{Finding, Related, Severity};
use crate::ir::{CollectionName, CollectionRef, HoleKind, NamePart};

pub struct DynamicCollectionName;

static META: RuleMeta = RuleMeta {
    id: "dynamic-collection-name",
    name: "DynamicCollectionName",
    summary: "Collection name built from a date or an entity id: one collection per partition",
    default_severity: Severity::Warning,
    precision: "high",
    tags: &["mongodb", "schema-design", "too-many-collections"],
    doc: include_str!("../../rules/dynamic-collection-name.md"),
};

fn dynamic_collection_name_diagnostic(
    file: usize,
    r: &CollectionRef,
    kind: HoleKind,
    hole: &str,
    hole_span: crate::ir::Span,
) -> Finding {
    let (what, help) = match kind {
        HoleKind::Date => (
            "per-date",
            "keep one collection with a date field and an index on it (a TTL index for expiry), or use a time series collection; bucket small events by period inside one collection",
        ),
        _ => (
            "per-entity",
            "keep one collection with the entity id as a field (first key of the indexes you query by); enforce isolation in queries, not by collection name",
        ),
    };
    let mut related = Vec::new();
    if !r.span.contains(hole_span) {
        related.push(Related {
            file,
            span: hole_span,
            message: format!("`{hole}` comes from here"),
        });
    }
    Finding {
        rule: META.id,
        severity: META.default_severity,
        file,
        span: r.span,
        message: format!(
            "{what} collection name `{}`: the hole `{hole}` creates one collection per {}; thousands of collections each carry their own indexes and files",
            r.name.display(),
            if kind == HoleKind::Date { "date" } else { "entity" },
        ),
        help: help.to_string(),
        related,
    }
}

impl Rule for DynamicCollectionName {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &RuleContext, out: &mut Vec<Finding>) {
        for f in &ctx.files {
            // One finding per name in a file, at its first use, the others related: the name is
            // one design decision, however many methods use it (pyspider's
            // `self.database[self._collection_name(project)]` in each of a class's methods).
            let mut refs: Vec<&CollectionRef> = f.ir.collections.iter().collect();
            refs.sort_by_key(|r| (r.span.start, r.span.end));
            let mut first_use: crate::lang::HashMap<String, usize> = Default::default();
            for r in refs {
                let CollectionName::Template { parts } = &r.name else {
                    continue;
                };
                let mut holes = parts.iter().filter_map(|p| match p {
                    NamePart::Hole { text, hole, span } => Some((text, *hole, *span)),
                    _ => None,
                });
                // Date holes first: a per-day-per-tenant name is reported as per-date.
                let date = holes.clone().find(|h| h.1 == HoleKind::Date);
                let chosen = date.or_else(|| holes.find(|h| h.1 == HoleKind::Entity));
                let Some((text, kind, span)) = chosen else {
                    continue;
                };
                let name = r.name.display();
                if let Some(&i) = first_use.get(&name) {
                    let finding: &mut Finding = &mut out[i];
                    if finding.span != r.span {
                        finding.related.push(Related {
                            file: f.id,
                            span: r.span,
                            message: "the same name is used here".to_string(),
                        });
                    }
                    continue;
                }
                first_use.insert(name, out.len());
                out.push(dynamic_collection_name_diagnostic(
                    f.id, r, kind, text, span,
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::Settings;

    /// (line, message) of each dynamic-collection-name finding in `src`, a file at `path`.
    fn hits(path: &str, src: &str) -> Vec<(usize, String)> {
        let (_, found) = crate::analysis::check_source(path, src, &Settings::default()).unwrap();
        found
            .into_iter()
            .filter(|f| f.rule == "dynamic-collection-name")
            .map(|f| (src[..f.span.start as usize].lines().count(), f.message))
            .collect()
    }

    /// A name used in several methods is one finding, at its first use, the other uses related
    /// (pyspider's result database, a collection per crawl project).
    #[test]
    fn a_name_used_again_in_the_file_is_reported_once() {
        let py = r#"import pymongo
class ResultDB(object):
    def __init__(self, url):
        self.database = pymongo.MongoClient(url)["resultdb"]
    def _collection_name(self, project):
        return "%s.%s" % (self.collection_prefix, project)
    def save(self, project, taskid, result):
        return self.database[self._collection_name(project)].update_one({"taskid": taskid}, {"$set": {"result": result}}, upsert=True)
    def select(self, project, offset=0, limit=0):
        return self.database[self._collection_name(project)].find({}, limit=limit)
    def count(self, project):
        return self.database[self._collection_name(project)].count_documents({})
def archive(db, day):
    db["logs_" + day].insert_one({})
"#;
        let (_, found) =
            crate::analysis::check_source("resultdb.py", py, &Settings::default()).unwrap();
        let found: Vec<_> = found
            .into_iter()
            .filter(|f| f.rule == "dynamic-collection-name")
            .collect();
        let line = |at: u32| py[..at as usize].lines().count();
        assert_eq!(
            found.iter().map(|f| line(f.span.start)).collect::<Vec<_>>(),
            vec![8, 14],
            "{found:?}"
        );
        let uses: Vec<_> = found[0]
            .related
            .iter()
            .filter(|r| r.message == "the same name is used here")
            .map(|r| line(r.span.start))
            .collect();
        assert_eq!(uses, vec![10, 12]);
    }

    /// EvaMaria's filters, a collection per Telegram group: `mydb[str(grp_id)]`. A name's string
    /// is the name, in Python (`str(x)`) and JavaScript (`String(x)`, `x.toString()`), and an
    /// entity's id alone names a collection per entity in Python as in JavaScript. A plain
    /// parameter, or one that names the collection of a kind of entity, is left alone.
    #[test]
    fn a_name_converted_to_a_string_is_the_name() {
        let py = r#"import pymongo
mydb = pymongo.MongoClient()["app"]
def add_filter(grp_id, text):
    mydb[str(grp_id)].update_one({"text": text}, {"$set": {"text": text}}, upsert=True)
def add(group_id, text):
    mycol = mydb[group_id]
    mycol.insert_one({"text": text})
def by_name(name, text):
    mydb[str(name)].insert_one({"text": text})
def plain(collection, text):
    mydb[collection].insert_one({"text": text})
def kind(account_collection, text):
    mydb[account_collection].insert_one({"text": text})
"#;
        let got = hits("filters.py", py);
        assert_eq!(
            got.iter().map(|h| h.0).collect::<Vec<_>>(),
            vec![4, 6],
            "{got:?}"
        );
        assert!(got[0].1.contains("`str(grp_id)`"), "{}", got[0].1);
        assert!(got[0].1.contains("per-entity"), "{}", got[0].1);
        let js = r#"const { MongoClient } = require("mongodb");
const db = new MongoClient("mongodb://x").db("app");
async function a(groupId, t) { await db.collection(String(groupId)).insertOne({ t }); }
async function b(tenantId, t) { await db.collection(tenantId.toString()).insertOne({ t }); }
async function c(name, t) { await db.collection(String(name)).insertOne({ t }); }
async function d(userCollection, t) { await db.collection(userCollection).insertOne({ t }); }
"#;
        let got = hits("filters.js", js);
        assert_eq!(
            got.iter().map(|h| h.0).collect::<Vec<_>>(),
            vec![3, 4],
            "{got:?}"
        );
        assert!(got[1].1.contains("`tenantId.toString()`"), "{}", got[1].1);
    }
}
