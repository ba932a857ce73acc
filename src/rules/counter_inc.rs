use super::{collection_label, operations, Rule, RuleContext, RuleMeta};
use crate::diagnostic::{Finding, Severity};
use crate::ir::{Field, OpKind, Operation, Value, ValueKind};

pub struct CounterInc;

static META: RuleMeta = RuleMeta {
    id: "counter-inc",
    name: "CounterInc",
    summary: "Per-event counter: $inc by a small literal on one hot document",
    default_severity: Severity::Info,
    precision: "medium",
    tags: &["mongodb", "schema-design", "write-contention"],
    doc: include_str!("../../rules/counter-inc.md"),
};

/// The largest increment still treated as "per event" rather than a batch total.
const SMALL_STEP: f64 = 10.0;

fn counter_inc_diagnostic(
    file: usize,
    op: &Operation,
    operator: &Field,
    counters: &[(&str, String)],
    keys: &Keys,
) -> Finding {
    let list = counters
        .iter()
        .map(|(f, n)| format!("`{f}` by {n}"))
        .collect::<Vec<_>>()
        .join(", ");
    let key = keys.names.join(if keys.any_of { "` or `" } else { "`, `" });
    Finding {
        rule: META.id,
        severity: META.default_severity,
        file,
        span: operator.key_span,
        message: if op.kind == OpKind::DocumentSave {
            format!(
                "per-event counter on {}: {list} on a loaded document, then `save()`: the save sends the new value with `$set`, so every event rewrites the same hot document and concurrent events lose their increments",
                collection_label(op)
            )
        } else if keys.names.is_empty() {
            format!(
                "per-event counter on {}: `$inc` of {list} on the first document an empty filter matches, the collection's one document; every event rewrites the same hot document (write contention, oplog churn)",
                collection_label(op)
            )
        } else {
            format!(
                "per-event counter on {}: `$inc` of {list} on the one document matched by `{key}`; every event rewrites the same hot document (write contention, oplog churn)",
                collection_label(op)
            )
        },
        help: "use the approximation pattern (increment by N with probability 1/N), a bucketed or sharded counter (several documents, summed on read), or compute the count periodically from the events".to_string(),
        related: Vec::new(),
    }
}

/// A filter that matches the document only under the lock its caller holds (wildduck's lease
/// renewal: `{_id: task._id, locked: task.lock}` with `{$set: {lockedUntil: ..}, $inc:
/// {extendCount: 1}}`): one worker at a time writes it, so nothing contends, and what it counts
/// is that worker's own steps on its task. A literal (`{locked: false}`, a claim of any unlocked
/// task) holds no lock.
fn holds_lock(filter: &Value) -> bool {
    filter.fields().iter().any(|f| {
        let last = crate::lang::naming::last_part(&f.key, b'.');
        let words = crate::lang::naming::words(last.trim_start_matches('_'));
        let lock = match words.as_slice() {
            [w] => matches!(w.as_str(), "lock" | "locked" | "lease"),
            [.., a, b] => {
                matches!(a.as_str(), "lock" | "lease")
                    && matches!(b.as_str(), "id" | "token" | "key" | "owner")
                    || matches!(a.as_str(), "locked" | "leased") && matches!(b.as_str(), "by")
            }
            _ => false,
        };
        lock && matches!(&f.value.kind, ValueKind::Unknown(_))
    })
}

/// A filter on a time bucket (`{host_id, period, timestamp: bucket}`) selects a bucketed counter:
/// one document per period, which is the pattern the help recommends, not one hot document. A
/// bucket's name (`bucketName`, tailchat's MinIO bucket of a file counted per download) is a
/// storage bucket's, not a period's.
fn time_bucketed(filter: &Value) -> bool {
    filter.fields().iter().any(|f| {
        // A window of time (wildduck's auth log: `{user, key, created: {$gte: now -
        // AUTHLOG_BUCKET}}`, upserted): the document of the current period.
        if super::opens_a_window(f) {
            return true;
        }
        // A point in time compared by equality (Hydro's rate limiter: `{op, ident, expireAt}`,
        // `expireAt` the end of the current period): one document per period.
        if !f.value.is_document()
            && crate::lang::naming::for_each_word(&f.key, |w| {
                matches!(w, "at" | "expire" | "expires" | "expiry" | "until")
            })
        {
            return true;
        }
        let named = crate::lang::naming::for_each_word(&f.key, |w| w == "name");
        crate::lang::naming::for_each_word(&f.key, |w| {
            (w == "bucket" && !named)
                || matches!(
                    w,
                    "period" | "timestamp" | "hour" | "minute" | "day" | "date" | "week" | "month"
                )
        })
    })
}

/// The equality keys that select the one document a filter matches.
struct Keys {
    /// Each as it is shown: a key, or a clause's keys joined (`` `a`, `b` ``).
    names: Vec<String>,
    /// The filter is an `$or` of clauses that each select one document by equality
    /// (`{$or: [{key: k}, {_id: k}]}`, an API key looked up by either): `names` has one key per
    /// clause, any of which matches.
    any_of: bool,
}

/// [`equality_keys`], or for a filter of none but an `$or` whose every clause has some, one key
/// per clause.
fn selecting_keys(filter: &Value) -> Keys {
    let names = equality_keys(filter);
    if !names.is_empty() {
        return Keys {
            names: names.iter().map(|k| k.to_string()).collect(),
            any_of: false,
        };
    }
    let clauses = filter
        .get("$or")
        .map(|f| f.value.items())
        .unwrap_or_default();
    let per_clause: Vec<Vec<&str>> = clauses.iter().map(equality_keys).collect();
    if per_clause.is_empty() || per_clause.iter().any(|k| k.is_empty()) {
        return Keys {
            names: Vec::new(),
            any_of: false,
        };
    }
    let mut names: Vec<String> = per_clause.iter().map(|k| k.join("`, `")).collect();
    names.dedup();
    Keys {
        names,
        any_of: true,
    }
}

/// The equality keys that select one document: `_id` alone when the filter has it, else every
/// field compared by equality.
fn equality_keys(filter: &Value) -> Vec<&str> {
    let eq: Vec<&str> = filter
        .fields()
        .iter()
        .filter(|f| !f.key.starts_with('$') && f.key != "...")
        .filter(|f| match &f.value.kind {
            ValueKind::Document(inner) => inner.iter().all(|x| x.key == "$eq"),
            // A flag (`{locked: false}`, a queue's claim of any unlocked task) matches many
            // documents, not one.
            ValueKind::Bool(_) | ValueKind::Null => false,
            _ => true,
        })
        .map(|f| f.key.as_str())
        .collect();
    if eq.contains(&"_id") {
        return vec!["_id"];
    }
    eq
}

/// A key as written, without a computed key's brackets and quotes: `[`contacts.${id}.n`]` →
/// `contacts.${id}.n`.
fn display_key(key: &str) -> &str {
    let k = key.trim();
    let k = k
        .strip_prefix('[')
        .and_then(|k| k.strip_suffix(']'))
        .unwrap_or(k);
    k.trim_matches(|c| matches!(c, '`' | '"' | '\''))
}

/// A key computed at run time whose last segment is the computed part (`[`items.quests.${key}`]`,
/// `['items.quests.' + key]`, `f"stats.{day}"`, `"stats.%s" % day`): one of many slots of a map
/// of counts (an inventory), keyed by what happens, not one counter bumped per event.
fn counts_by_computed_key(key: &str) -> bool {
    let k = display_key(key);
    let last = crate::lang::naming::last_part(k, b'.');
    last.contains(['{', '}', '+', '%']) || key.starts_with('[') && !k.contains('.')
}

/// A filter that selects one fixed document: every key compared by equality to a literal string
/// or number (`{_id: "total"}`, `{name: "stats", kind: 1}`).
fn fixed_document(filter: &Value) -> bool {
    !filter.fields().is_empty()
        && filter.fields().iter().all(|f| {
            !f.key.starts_with('$')
                && matches!(f.value.kind, ValueKind::String(_) | ValueKind::Number(_))
        })
}

/// A count the filter caps: a range on the field the update increments (`{tid, size: {$lt:
/// max}}` with `{$inc: {size: 1}}`, a seat taken while one is left; `{size: {$gt: 0}}` with `-1`).
/// The document takes at most its capacity's steps, then the filter stops matching: no counter
/// bumped by every event.
fn capped_by_filter(filter: &Value, key: &str) -> bool {
    filter.fields().iter().any(|f| {
        f.key == key
            && f.value
                .fields()
                .iter()
                .any(|c| matches!(c.key.as_str(), "$lt" | "$lte" | "$gt" | "$gte"))
    })
}

/// The two numbers a conditional picks between: `merged ? 1 : 0`, Python's `1 if merged else 0`.
fn literal_choice(text: &str) -> Option<(f64, f64)> {
    let num = |t: &str| t.trim().parse::<f64>().ok();
    if let Some((head, b)) = text.rsplit_once(':') {
        if let Some((_, a)) = head.rsplit_once('?') {
            return Some((num(a)?, num(b)?));
        }
    }
    let (a, rest) = text.split_once(" if ")?;
    let (_, b) = rest.rsplit_once(" else ")?;
    Some((num(a)?, num(b)?))
}

/// `$inc: {version: 1}` versions a document that the same update rewrites anyway (optimistic
/// locking, revision numbers): not a counter.
/// A number bumped when a document enters a new cycle (`reviewCycle`) is one too.
fn is_version_field(key: &str) -> bool {
    let key = display_key(key);
    let last = key
        .rsplit('.')
        .next()
        .unwrap_or(key)
        .trim_start_matches('_');
    let mut last_word = String::new();
    crate::lang::naming::for_each_word(last, |w| {
        last_word.clear();
        last_word.push_str(w);
        false
    });
    matches!(
        last.to_ascii_lowercase().as_str(),
        "v" | "version" | "rev" | "revision" | "lockversion" | "generation" | "etag" | "seqno"
    ) || matches!(
        last_word.as_str(),
        "version" | "revision" | "rev" | "generation" | "cycle"
    ) || is_run_number(last)
        || deferral_count(key)
}

/// The count of a deferral's or a retry's attempts kept under its own object (zone-mta's
/// `_deferred.count`, bumped with the `$set` that schedules the next attempt): a run number too.
fn deferral_count(key: &str) -> bool {
    let mut segments = key.rsplit('.');
    let (Some(last), Some(parent)) = (segments.next(), segments.next()) else {
        return false;
    };
    matches!(last, "count" | "number" | "n")
        && crate::lang::naming::for_each_word(parent.trim_start_matches('_'), |w| {
            matches!(
                w,
                "deferred" | "deferral" | "retry" | "retries" | "attempt" | "attempts" | "backoff"
            )
        })
}

/// Whether the incremented `key` counts the elements of one of `arrays`, the arrays the same
/// update changes: a size by a name of its own (`count`, `size`, `length`, `total`, `n`), or named
/// for one of them (`instances_count` beside `instances`, `queue_len` beside `queue`,
/// `tagCount` beside `tags`). A key that a spread or computed path leaves unread counts as one.
fn counts_an_array(key: &str, arrays: &[&str]) -> bool {
    let last = key.rsplit('.').next().unwrap_or(key);
    let words = crate::lang::naming::words(last);
    let stem = |w: &str| w.trim_end_matches('s').to_ascii_lowercase();
    match words.as_slice() {
        [] => true,
        [w] if matches!(
            w.to_ascii_lowercase().as_str(),
            "count" | "counts" | "size" | "length" | "len" | "total" | "n" | "num" | "..."
        ) =>
        {
            true
        }
        _ => arrays.iter().any(|a| {
            let array_words = crate::lang::naming::words(a.rsplit('.').next().unwrap_or(a));
            array_words
                .iter()
                .any(|aw| words.iter().any(|w| stem(w) == stem(aw)))
        }),
    }
}

/// The number of a run, an attempt or a retry of the document's own work, bumped by the update
/// that starts or defers it (`runCount` beside `lastRunAt`, a queue's claim of a task, `attempts`,
/// `retries`), or that records its failure (Habitica's `webhooks.$.failures`, bumped per failed
/// delivery of that webhook and reset at ten; `failedAttempts`, mist's `failures_count`): the
/// work's cycle number, not a count of events.
fn is_run_number(key: &str) -> bool {
    match crate::lang::naming::words(key).as_slice() {
        [w] => matches!(
            w.as_str(),
            "attempts" | "attempt" | "retries" | "tries" | "failures"
        ),
        // (`resyncAttempts`, `loginRetries`: an attempt of some work.)
        [.., b] if matches!(b.as_str(), "attempts" | "retries" | "tries") => true,
        // (`nb_attempt`, `num_retry`: INGInious's LTI grade deliveries.)
        [.., a, b]
            if matches!(a.as_str(), "nb" | "num" | "n" | "no" | "number")
                && matches!(b.as_str(), "attempt" | "retry" | "try") =>
        {
            true
        }
        [.., a, b] => {
            (matches!(
                a.as_str(),
                "run"
                    | "sync"
                    | "resync"
                    | "attempt"
                    | "attempts"
                    | "retry"
                    | "retries"
                    | "try"
                    | "failure"
                    | "failures"
            ) && matches!(b.as_str(), "count" | "number" | "no"))
                || (a == "failed" && matches!(b.as_str(), "attempts" | "tries"))
        }
        _ => false,
    }
}

impl Rule for CounterInc {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &RuleContext, out: &mut Vec<Finding>) {
        for (file, op) in operations(ctx) {
            // Maintenance code (`scripts/`, `bin/`, seeds: the same offline files as
            // unindexed-query and query-in-loop) runs by hand, not once per event.
            // (A loaded document's field counted and saved, `topic.visit_count += 1;
            // topic.save()`, is its `$inc`: see the JavaScript frontend's `saved_counters`.)
            if !matches!(
                op.kind,
                OpKind::UpdateOne | OpKind::FindOneAndUpdate | OpKind::DocumentSave
            ) || op.context.periodic
                || ctx.model.offline_files.contains(&file)
            {
                continue;
            }
            let (Some(update), Some(filter)) = (&op.update, &op.filter) else {
                continue;
            };
            // The count of an array kept beside it: a bucket's own count, incremented together
            // with the `$push` into the bucket, or the size of an array of children decremented
            // with the `$pull` that removes one (`{$pull: {instances: ..}, $inc:
            // {instances_count: -1}}`). Bookkeeping of the array the update changes anyway. Not
            // a count named for something else (alerta's `{$addToSet: {tags: ..}, $inc:
            // {duplicateCount: 1}}`, one per duplicate of the alert).
            let changes_array = |f: &&Field| {
                matches!(
                    f.key.as_str(),
                    "$push" | "$pushAll" | "$addToSet" | "$pull" | "$pullAll" | "$pop"
                )
            };
            if update.fields().iter().any(|f| changes_array(&f)) {
                let arrays: Vec<&str> = update
                    .fields()
                    .iter()
                    .filter(changes_array)
                    .flat_map(|f| f.value.fields())
                    .map(|f| f.key.as_str())
                    .collect();
                let mut incremented = update
                    .fields()
                    .iter()
                    .filter(|f| f.key == "$inc")
                    .flat_map(|f| f.value.fields());
                if incremented.all(|f| counts_an_array(&f.key, &arrays)) {
                    continue;
                }
            }
            let keys = selecting_keys(filter);
            // An empty filter (`find_one_and_update({}, {$inc: {next_launch_id: 1}})`,
            // fireworks' id sequence) updates the first document: a collection of one.
            let first_document = matches!(&filter.kind, ValueKind::Document(fs) if fs.is_empty());
            if keys.names.is_empty() && !first_document {
                continue;
            }
            if time_bucketed(filter) || holds_lock(filter) {
                continue;
            }
            // Sorted by the field it increments (`findOneAndUpdate({departmentId, username: {$in:
            // online}}, {$inc: {count: 1}}, {sort: {count: 1}})`, Rocket.Chat's round robin):
            // it picks the least-counted of many documents, so the increments go round them.
            let sorted_by: Vec<&str> = op
                .modifiers
                .iter()
                .filter(|m| m.name == "sort")
                .flat_map(|m| m.args.iter().flat_map(|a| a.fields()))
                .map(|f| f.key.as_str())
                .collect();
            if update
                .fields()
                .iter()
                .filter(|f| f.key == "$inc")
                .flat_map(|f| f.value.fields())
                .any(|f| sorted_by.contains(&f.key.as_str()))
            {
                continue;
            }
            // One fixed document (`{_id: "total"}`): a map of counts in it is bumped in that one
            // document whatever its computed key, so its slots are counters too (mnemosyne's
            // `{$inc: {channel: 1}}` per stored event).
            let slot = |key: &str| counts_by_computed_key(key) && !fixed_document(filter);
            for operator in update.fields().iter().filter(|f| f.key == "$inc") {
                // A batch's rollup: a computed amount beside the literal steps (`{processedBatches:
                // 1, successCount: stats.ok}`) adds up a batch; its `1` counts batches, not events.
                // A computed path to a named total counts (`[`${group}.tests.overall`]:
                // -stats.tests`, sorry-cypress's reset of a run's group). (A slot of a map of
                // counts, `[`users.${key}`]`, is no total, nor what a spread, `...inc`, adds.)
                if operator.value.fields().iter().any(|f| {
                    matches!(&f.value.kind, ValueKind::Unknown(u) if literal_choice(&u.text).is_none())
                        && !f.key.starts_with('.')
                        && !slot(&f.key)
                }) {
                    continue;
                }
                let counters: Vec<(&str, String)> = operator
                    .value
                    .fields()
                    .iter()
                    .filter(|f| {
                        !is_version_field(&f.key)
                            && !slot(&f.key)
                            && !capped_by_filter(filter, &f.key)
                    })
                    .filter_map(|f| match &f.value.kind {
                        ValueKind::Number(n) if *n != 0.0 && n.abs() <= SMALL_STEP => {
                            Some((display_key(&f.key), n.to_string()))
                        }
                        // `merged ? 1 : 0`: a step on some events, none on others, and the
                        // message says both.
                        ValueKind::Unknown(u) => literal_choice(&u.text)
                            .filter(|(a, b)| {
                                a.abs().max(b.abs()) <= SMALL_STEP && (*a != 0.0 || *b != 0.0)
                            })
                            .map(|(a, b)| (display_key(&f.key), format!("{a} or {b}"))),
                        _ => None,
                    })
                    .collect();
                if !counters.is_empty() {
                    out.push(counter_inc_diagnostic(file, op, operator, &counters, &keys));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::Settings;

    fn messages(src: &str) -> Vec<String> {
        messages_in("keys.py", src)
    }

    fn messages_in(path: &str, src: &str) -> Vec<String> {
        let (_, found) = crate::analysis::check_source(path, src, &Settings::default()).unwrap();
        found
            .into_iter()
            .filter(|f| f.rule == "counter-inc")
            .map(|f| f.message)
            .collect()
    }

    /// An empty filter updates the collection's first document (fireworks' id sequence, a
    /// collection of one document): every call bumps that one document. `update_many({}, ..)`
    /// bumps every document, once per call, and is no counter of events.
    #[test]
    fn an_empty_filter_bumps_the_collections_one_document() {
        let src = r#"from pymongo import MongoClient
db = MongoClient().fireworks
def next_launch_id():
    return db.fw_id_assigner.find_one_and_update({}, {"$inc": {"next_launch_id": 1}})["next_launch_id"]
def age_all():
    db.items.update_many({}, {"$inc": {"age": 1}})
def bump(key, value):
    q = {}
    q[key] = value
    db.stats.update_one(q, {"$inc": {"hits": 1}})
def bump_user(user):
    q = {}
    q["user"] = user
    db.visits.update_one(q, {"$inc": {"hits": 1}})
"#;
        let got = messages_in("launchpad.py", src);
        // A dict filled in by a computed key is no empty filter; one filled by name has the key.
        assert!(!got.iter().any(|m| m.contains("`stats`")), "{got:?}");
        assert!(
            got.iter()
                .any(|m| m.contains("`visits`") && m.contains("matched by `user`")),
            "{got:?}"
        );
        let got: Vec<String> = got.into_iter().filter(|m| m.contains("fw_id")).collect();
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(
            got[0].starts_with("per-event counter on `fw_id_assigner`: `$inc` of `next_launch_id` by 1 on the first document an empty filter matches"),
            "{got:?}"
        );
    }

    /// A map of counts in one fixed document (`{_id: "total"}`, mnemosyne's totals per channel,
    /// bumped for every stored event) is bumped in that document whatever its computed key: a
    /// counter. The same map in a document selected at run time (a user's inventory) is not.
    #[test]
    fn a_map_of_counts_in_one_fixed_document_is_a_counter() {
        let src = r#"
from pymongo import MongoClient
db = MongoClient().app
def on_event(entry):
    channel = entry["channel"].replace(".", "_")
    db.daily_stats.update_one({"_id": "total"}, {"$inc": {channel: 1}}, upsert=True)
    db.daily_stats.update_one({"_id": "total"}, {"$inc": {"by_channel." + channel: 1}}, upsert=True)
    db.users.update_one({"_id": entry["user"]}, {"$inc": {"by_channel." + channel: 1}})
    db.users.update_one({"_id": entry["user"], "kind": "x"}, {"$inc": {f"seen.{channel}": 1}})
"#;
        let got = messages(src);
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(got.iter().all(|m| m.contains("`_id`")), "{got:?}");
    }

    /// mongoengine's counter idiom, a loaded document's field counted by a literal step and then
    /// saved (`feed.opens += 1; feed.save()`, NewsBlur's subscriptions; `self.members -= 1;
    /// self.save()` in a document's method), is a per-event counter as Mongoose's is. The
    /// document may come from a load-or-none (`try: .. .get(..) except X.DoesNotExist: sub =
    /// None`). Not a counter saved before it is bumped again, an object that is no document,
    /// nor a counter never saved.
    #[test]
    fn a_mongoengine_document_counted_then_saved_is_a_counter() {
        let src = r#"import mongoengine as me
class Org(me.Document):
    members = me.IntField(default=0)
    def leave(self):
        self.members -= 1
        self.save()
class Feed(me.Document):
    opens = me.IntField(default=0)
def open_feed(feed_id):
    try:
        feed = Feed.objects.get(id=feed_id)
    except Feed.DoesNotExist:
        feed = None
    if feed:
        feed.opens += 1
        feed.save()
def preview(feed_id):
    feed = Feed.objects.get(id=feed_id)
    feed.opens += 1
    return feed.opens
def resave(org_id):
    org = Org.objects.get(id=org_id)
    org.save()
    org.members += 2
class Tally:
    def bump(self):
        self.n += 1
        self.save()
"#;
        let got = messages_in("models.py", src);
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(got[0].contains("on `org`: `members` by -1 on a loaded document"));
        assert!(got[1].contains("on `feed`: `opens` by 1 on a loaded document"));
    }

    /// pritunl keeps the size of a server's array of instances beside it: the `$inc` that
    /// counts an element in or out of an array goes with the `$push` / `$addToSet` that adds it
    /// and the `$pull` / `$pullAll` / `$pop` that removes it. An `$inc` alone still counts
    /// events. (The same in JavaScript: `tests/js_rules.rs`.)
    #[test]
    fn the_count_of_an_array_changed_in_the_same_update_is_bookkeeping() {
        let src = r#"
from pymongo import MongoClient
db = MongoClient().pritunl
def remove(sid, iid, n, ids):
    db.servers.update_one({"_id": sid, "instances.instance_id": iid},
        {"$pull": {"instances": {"instance_id": iid}}, "$inc": {"instances_count": -1}})
    db.servers.update_one({"_id": sid, "instances_count": {"$lt": n}},
        {"$push": {"instances": {"instance_id": iid}}, "$inc": {"instances_count": 1}})
    db.servers.update_one({"_id": sid}, {"$pullAll": {"instances": ids}, "$inc": {"instances_count": -2}})
    db.servers.find_one_and_update({"_id": sid}, {"$pop": {"queue": -1}, "$inc": {"queue_len": -1}})
    db.buckets.update_one({"_id": sid, "day": 3}, {"$push": {"events": iid}, "$inc": {"count": 1}})
    db.alerts.update_one({"_id": sid}, {"$addToSet": {"tags": {"$each": ids}}, "$inc": {"duplicateCount": 1}})
    db.servers.update_one({"_id": sid}, {"$inc": {"restarts": 1}})
"#;
        let got = messages(src);
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(got[0].contains("`duplicateCount` by 1"), "{got:?}");
        assert!(got[1].contains("`restarts` by 1"), "{got:?}");
    }

    /// A queue's claim of any unlocked task (wildduck's `{locked: false}`) matches many
    /// documents; a run's or an attempt's number bumped by the update that starts or defers the
    /// work (`runCount`, `attempts`, `retry_count`, zone-mta's `_deferred.count`) is its cycle
    /// number; an upserted document of
    /// the current window of time (`{user, key, created: {$gte: now - BUCKET}}`), or of a point
    /// in time compared by equality (`{op, ident, expireAt}`), is the bucketed counter; a filter
    /// on the lock its caller holds (wildduck's lease renewal, `{_id, locked: task.lock}`) has
    /// one writer. So is a count of a work's failures (Habitica's `webhooks.$.failures`). A count of events on one document by its key, or of one unlocked
    /// (`{locked: False}`), is still reported.
    #[test]
    fn claims_run_numbers_and_windows_of_time_are_not_per_event_counters() {
        let src = r#"
from pymongo import MongoClient
db = MongoClient().app
def claim(lock):
    db.tasks.find_one_and_update({"locked": False}, {"$set": {"locked": lock}, "$inc": {"runCount": 1}})
def start(cid, now):
    db.campaigns.update_one({"_id": cid}, {"$set": {"last_run_at": now}, "$inc": {"run_count": 1}})
    db.jobs.update_one({"_id": cid}, {"$set": {"state": "deferred"}, "$inc": {"attempts": 1, "retry_count": 1}})
    db.queue.find_one_and_update({"id": cid, "seq": 1}, {"$set": {"locked": False}, "$inc": {"_deferred.count": 1}})
def failed(uid, hook_id, now):
    db.users.update_one({"_id": uid, "webhooks.id": hook_id}, {"$set": {"webhooks.$.lastFailureAt": now}, "$inc": {"webhooks.$.failures": 1}})
    db.users.update_one({"_id": uid}, {"$inc": {"failedAttempts": 1}})
    db.lis_outcome_queue.find_one_and_update({"_id": uid}, {"$inc": {"nb_attempt": 1}})
    db.tasks.update_one({"_id": tid}, {"$inc": {"failures_count": 1, "retries_count": 1}})
    db.failures.update_one({"project_id": tid}, {"$inc": {"resyncAttempts": 1}})
    db.sync_state.update_one({"project_id": tid}, {"$inc": {"resyncCount": 1}})
def log(user, key, since):
    db.authlog.find_one_and_update({"user": user, "key": key, "created": {"$gte": since}},
        {"$inc": {"events": 1}}, upsert=True)
def limit(op, ident, period_end):
    db.opcount.find_one_and_update({"op": op, "ident": ident, "expireAt": period_end},
        {"$inc": {"opcount": 1}}, upsert=True)
def view(pid):
    db.posts.update_one({"_id": pid, "locked": False}, {"$inc": {"views": 1, "runs": 1}})
def extend(task, until):
    db.tasks.update_one({"_id": task["_id"], "locked": task["lock"]},
        {"$set": {"lockedUntil": until}, "$inc": {"extendCount": 1}})
    db.tasks.update_one({"_id": task["_id"], "lockToken": task["token"]}, {"$inc": {"beats": 1}})
"#;
        let got = messages(src);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].contains("`views` by 1"), "{got:?}");
    }

    /// A count its filter caps (picoCTF's team size: `{tid, size: {$lt: max}}` with `{$inc:
    /// {size: 1}}`, and `{size: {$gt: 0}}` with `-1`) takes at most the capacity's steps; a
    /// range on another field caps nothing.
    #[test]
    fn a_count_its_filter_caps_is_no_per_event_counter() {
        let src = r#"
from pymongo import MongoClient
db = MongoClient().app
def join(tid, max_size):
    db.teams.find_one_and_update({"tid": tid, "size": {"$lt": max_size}}, {"$inc": {"size": 1}})
    db.teams.find_one_and_update({"tid": tid, "size": {"$gt": 0}}, {"$inc": {"size": -1}})
    db.teams.update_one({"tid": tid, "score": {"$gt": 0}}, {"$inc": {"joins": 1}})
"#;
        let got = messages(src);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].contains("`joins` by 1"), "{got:?}");
    }

    /// erxes's broadcast workers add up each batch of recipients: `{processedBatches: 1,
    /// successCount: STATS.ok}`, one update per batch whose `1` counts batches beside the totals
    /// it adds. Not a per-event counter; a `$inc` of literal steps alone still is.
    #[test]
    fn a_batch_rollup_with_computed_amounts_is_not_a_counter() {
        let src = r#"
from pymongo import MongoClient
db = MongoClient().app
def finish(cid, stats):
    db.campaigns.update_one({"_id": cid},
        {"$inc": {"progress.processed_batches": 1, "progress.success_count": stats["ok"]}})
    db.campaigns.update_one({"_id": cid}, {"$inc": {"progress.processed_batches": 1, "sent": 1}})
"#;
        let got = messages(src);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(
            got[0].contains("`progress.processed_batches` by 1"),
            "{got:?}"
        );
    }

    /// LearningLocker's persona import counts each row on the import's document, some keys by
    /// a step picked by a condition (`merged ? 1 : 0`, Python's `1 if merged else 0`): still one
    /// counter bump per event. A conditional between computed amounts is a rollup.
    #[test]
    fn a_step_picked_by_a_condition_is_a_counter() {
        let src = r#"
from pymongo import MongoClient
db = MongoClient().app
def row_done(iid, merged):
    db.imports.update_one({"_id": iid}, {"$inc": {"processed": 1, "merged": 1 if merged else 0}})
def batch_done(iid, merged, stats):
    db.imports.update_one({"_id": iid}, {"$inc": {"processed": 1, "merged": stats["a"] if merged else stats["b"]}})
"#;
        let got = messages(src);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(
            got[0].contains("`processed` by 1, `merged` by 1 or 0"),
            "{got:?}"
        );
        assert_eq!(super::literal_choice("merged ? 1 : 0"), Some((1.0, 0.0)));
        assert_eq!(super::literal_choice("a ? b : 0"), None);
    }

    /// An `$or` whose every clause selects one document by equality (alerta's API key, looked up
    /// by its key or its id) selects one document: its counter is a per-event counter. An `$or`
    /// with a clause that is not an equality selects many.
    #[test]
    fn an_or_of_equalities_selects_one_document() {
        let src = r#"
from pymongo import MongoClient
db = MongoClient().alerta
def used(key):
    db.keys.update_one({"$or": [{"key": key}, {"_id": key}]}, {"$set": {"last": 1}, "$inc": {"count": 1}})
def many(key):
    db.keys.update_one({"$or": [{"key": key}, {"count": {"$gt": 5}}]}, {"$inc": {"count": 1}})
"#;
        let got = messages(src);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].contains("matched by `key` or `_id`"), "{got:?}");
    }

    /// A counter per period (`{fileId, hour}`, `{bucket}`) is the bucketed pattern and is not
    /// reported; a storage bucket's name in the filter (tailchat's view count per MinIO
    /// object, `{bucketName, objectName}`) selects one document per file, counted per download.
    #[test]
    fn a_bucket_name_is_no_time_bucket() {
        let got = messages_in(
            "files.js",
            r#"
async function view(db, b, o, hour) {
  await db.collection('files').updateOne({ bucketName: b, objectName: o }, { $inc: { views: 1 } });
  await db.collection('stats').updateOne({ objectName: o, hour }, { $inc: { views: 1 } });
  await db.collection('stats').updateOne({ objectName: o, bucket: hour }, { $inc: { views: 1 } });
}
"#,
        );
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].contains("`files`"), "{got:?}");
    }

    /// `update(q, u, {multi: true})`, and Meteor's `updateAsync` with the same option, update
    /// every matching document: no one hot document.
    #[test]
    fn a_multi_update_is_no_counter_of_one_document() {
        let got = messages_in(
            "runs.js",
            r#"
import { Mongo } from "meteor/mongo";
const Runs = new Mongo.Collection("runs");
export async function bump(run) {
  await Runs.updateAsync({ run }, { $inc: { x: 1 } }, { multi: true });
  await Runs.update({ run }, { $inc: { x: 1 } }, { multi: true });
  await Runs.updateAsync({ run }, { $inc: { y: 1 } });
}
"#,
        );
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].contains("`y` by 1"), "{got:?}");
    }
}
