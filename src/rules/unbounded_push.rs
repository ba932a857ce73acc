use super::{collection_label, Rule, RuleContext, RuleMeta};
use crate::diagnostic::{Finding, Severity};
use crate::ir::{Field, Operation, Span, Value, ValueKind};

pub struct UnboundedPush;

static META: RuleMeta = RuleMeta {
    id: "unbounded-push",
    name: "UnboundedPush",
    summary: "Array grows without bound: $push/$addToSet without $slice",
    default_severity: Severity::Warning,
    precision: "high",
    tags: &[
        "mongodb",
        "schema-design",
        "performance",
        "unbounded-arrays",
    ],
    doc: include_str!("../../rules/unbounded-push.md"),
};

fn unbounded_push_diagnostic(
    file: usize,
    op: &Operation,
    operator: &Field,
    fields: &[&str],
    growth: Growth,
) -> Finding {
    let coll = collection_label(op);
    // "array `a`", "arrays `a` and `b`", "arrays `a`, `b` and `c`".
    // (A computed key written as a template, `[`rounds.${n}`]` or Python's `[f"rounds.{n}"]`, is
    // shown as its template.)
    let shown = |f: &str| {
        let t = f
            .strip_prefix("[`")
            .and_then(|k| k.strip_suffix("`]"))
            .or_else(|| {
                f.strip_prefix('[')
                    .and_then(|k| k.strip_suffix(']'))
                    .filter(|k| k.starts_with("f\"") || k.starts_with("f'"))
            });
        t.map_or_else(|| format!("`{f}`"), |t| format!("`{t}`"))
    };
    let quoted: Vec<String> = fields.iter().map(|f| shown(f)).collect();
    let list = match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => {
            format!("arrays {} and {last}", rest.join(", "))
        }
        _ => format!("array {}", quoted.concat()),
    };
    let (severity, message) = if let Growth::OncePerChange(key) = growth {
        (
            Severity::Info,
            format!(
                "`{}` grows {list} in {coll} once per change of `{key}` (the filter asks that it differ, the update sets it), so only as often as that changes; documents keep growing toward the 16 MB limit",
                operator.key
            ),
        )
    } else if growth == Growth::Distinct {
        (
            Severity::Info,
            format!(
                "`$push` grows {list} in {coll} only with values the filter does not find in it (`$ne`/`$nin`), so like `$addToSet` with no bound other than the number of distinct values; documents keep growing toward the 16 MB limit"
            ),
        )
    } else if growth == Growth::Checked {
        (
            Severity::Info,
            format!(
                "`$push` grows {list} in {coll} only with values the code checks are not in it yet (a membership test before the push: `includes`, `indexOf`, `some`, `every`, `find`, a `Set`'s `has`, Python's `in`), so like `$addToSet` with no bound other than the number of distinct values; documents keep growing toward the 16 MB limit"
            ),
        )
    } else if growth == Growth::Replaced {
        (
            Severity::Info,
            format!(
                "`$push` grows {list} in {coll} only with entries whose key an earlier update of the same document `$pull`s first (one entry per key), so like `$addToSet` with no bound other than the number of distinct keys; documents keep growing toward the 16 MB limit"
            ),
        )
    } else if operator.key == "$addToSet" {
        (
            Severity::Info,
            format!(
                "`$addToSet` grows {list} in {coll} with no bound other than the number of distinct values; documents keep growing toward the 16 MB limit"
            ),
        )
    } else {
        (
            Severity::Warning,
            format!(
                "`{}` appends to {list} in {coll} with no bound: every update rewrites a larger document, which grows toward the 16 MB limit",
                operator.key
            ),
        )
    };
    // The help's example names the array when the update grows one, named in the code.
    let named = match fields {
        [f] if f
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.') =>
        {
            Some(*f)
        }
        _ => None,
    };
    finding(file, operator, severity, message, named)
}

/// A finding of this rule at `operator`'s key, with the rule's help; its examples name `array`
/// when it is known.
fn finding(
    file: usize,
    operator: &Field,
    severity: Severity,
    message: String,
    array: Option<&str>,
) -> Finding {
    let array = array.unwrap_or("field");
    // (A dotted path is a key only in quotes.)
    let key = if array.contains('.') {
        format!("\"{array}\"")
    } else {
        array.to_string()
    };
    Finding {
        rule: META.id,
        severity,
        file,
        span: operator.key_span,
        message,
        help: if operator.key == "$addToSet" {
            // `$addToSet` takes no `$slice`, and a `$push` in its place would lose the
            // de-duplication.
            format!(
                "move the members to their own collection that references this document (one document per member, with a unique index on the pair), or cap the set in the update's filter (e.g. `{{\"{array}.999\": {{$exists: false}}}}`)"
            )
        } else {
            format!(
                "cap the array with `$each` + `$slice` (e.g. `{{$push: {{{key}: {{$each: [x], $slice: -100}}}}}}`), move the items to their own collection that references this document, or use the bucket pattern"
            )
        },
        related: Vec::new(),
    }
}

/// The finding for `{$addToSet: doc}` where `doc` is not a document the frontend could read.
fn add_to_set_of_unknown(
    file: usize,
    op: &Operation,
    operator: &Field,
    text: Option<&str>,
) -> Finding {
    let coll = collection_label(op);
    let arrays = match text {
        Some(t) if t.len() <= 40 && !t.contains('\n') => format!("the arrays that `{t}` names"),
        _ => "arrays whose names are filled in at run time".to_string(),
    };
    let message = format!(
        "`$addToSet` grows {arrays} in {coll}, with no bound other than the number of distinct values; documents keep growing toward the 16 MB limit"
    );
    finding(file, operator, Severity::Info, message, None)
}

/// Could the filter bound some array (a `$size`, a `$expr`, an `"arr.N": {$exists: false}`, a
/// bucket's `$lt`)? With the arrays not known by name, any such clause counts.
fn filter_may_bound(filter: Option<&Value>) -> bool {
    let Some(filter) = filter else { return false };
    filter.fields().iter().any(|f| {
        f.key == "$expr"
            || mentions_size(&f.value, 0)
            || f.value.get("$lt").is_some()
            || f.value.get("$lte").is_some()
            || (f.value.get("$exists").is_some()
                && f.key
                    .rsplit('.')
                    .next()
                    .is_some_and(|s| s.chars().all(|c| c.is_ascii_digit())))
            || (f.key == "$and" && f.value.items().iter().any(|c| filter_may_bound(Some(c))))
    })
}

/// A `$where` predicate written as a string that keeps `array` below a bound:
/// `this.<array>.length < x` or `<= x` (or `x > this.<array>.length`, `x >= ..`).
fn where_bounds(v: &Value, array: &str) -> bool {
    let ValueKind::String(js) = &v.kind else {
        return false;
    };
    let length = format!("this.{array}.length");
    js.match_indices(&length).any(|(at, _)| {
        let after = js[at + length.len()..].trim_start();
        let before = js[..at].trim_end();
        (after.starts_with('<') && !after.starts_with("<<"))
            || (before.ends_with('>') && !before.ends_with(">>") && !before.ends_with("=>"))
            || before.ends_with(">=")
    })
}

/// How an array the rule reports grows.
#[derive(Clone, Copy, PartialEq)]
enum Growth<'a> {
    /// With every update.
    Always,
    /// With values not in it yet (a `$push` under `{arr: {$ne: x}}`).
    Distinct,
    /// With values the code checks are not in it yet (`if (!arr.includes(x))` before the push).
    Checked,
    /// Once per change of a flag: the filter asks `{k: {$ne: v}}` and the update sets `k: v`.
    OncePerChange(&'a str),
    /// With entries whose key an earlier update pulls first (see [`replaced`]).
    Replaced,
}

/// A value written in the code (`"email"`, `3`, `true`, or `{$each: ["a", "b"]}` of such): an
/// `$addToSet` of it, or a `$push` of it that only adds values not in the array yet, adds each of
/// the code's few values at most once, so the array stays as small as that list.
fn is_fixed_value(v: &Value) -> bool {
    let scalar = |v: &Value| match &v.kind {
        ValueKind::String(_) | ValueKind::Number(_) | ValueKind::Bool(_) => true,
        ValueKind::Unknown(u) => names_a_constant(&u.text),
        _ => false,
    };
    match &v.kind {
        ValueKind::Document(fs) => {
            fs.len() == 1
                && fs[0].key == "$each"
                && matches!(&fs[0].value.kind, ValueKind::Array(xs) if !xs.is_empty() && xs.iter().all(scalar))
        }
        _ => scalar(v),
    }
}

/// A constant of the code by its name: an enum member's value (clearml-server's
/// `EntityVisibility.archived.value`) or a constant's name (`ARCHIVED`, `Tags.SYSTEM_ARCHIVED`).
fn names_a_constant(text: &str) -> bool {
    let parts: Vec<&str> = text.split('.').collect();
    if !parts.iter().all(|p| crate::lang::naming::is_name(p)) {
        return false;
    }
    match parts.as_slice() {
        [class, _, "value"] => class.as_bytes()[0].is_ascii_uppercase(),
        [.., last] => crate::lang::naming::is_constant_name(last),
        [] => false,
    }
}

/// `{$push: {arr: {$each: [...], $slice: n}}}` keeps the array bounded.
fn is_sliced(v: &Value) -> bool {
    v.get("$each").is_some() && v.get("$slice").is_some()
}

/// Does the filter bound the array (bucket pattern or an explicit size check)?
fn filter_bounds(filter: Option<&Value>, update: &Value, array: &str) -> bool {
    let Some(filter) = filter else { return false };
    let incremented: Vec<&str> = update
        .get("$inc")
        .map(|f| f.value.fields().iter().map(|x| x.key.as_str()).collect())
        .unwrap_or_default();
    for f in filter.fields() {
        // `{arr: {$size: k}}`
        if f.key == array && f.value.get("$size").is_some() {
            return true;
        }
        // `{"arr.49": {$exists: false}}`
        if let Some(rest) = f.key.strip_prefix(array).and_then(|r| r.strip_prefix('.')) {
            if rest.chars().all(|c| c.is_ascii_digit()) && f.value.get("$exists").is_some() {
                return true;
            }
        }
        // `{$expr: {$lt: [{$size: "$arr"}, N]}}` (any comparison involving `$size`)
        if f.key == "$expr" && mentions_size(&f.value, 0) {
            return true;
        }
        // `{$where: "this.students.length < this.size"}`: the JavaScript predicate compares the
        // array's length with an upper bound.
        if f.key == "$where" && where_bounds(&f.value, array) {
            return true;
        }
        // Bucket: `{count: {$lt: N}}` with `$inc: {count: 1}`
        if (f.value.get("$lt").is_some() || f.value.get("$lte").is_some())
            && incremented.contains(&f.key.as_str())
        {
            return true;
        }
        if f.key == "$and" {
            for clause in f.value.items() {
                if filter_bounds(Some(clause), update, array) {
                    return true;
                }
            }
        }
    }
    false
}

/// A key that names a period of time, as a time bucket's filter spells it: its last word is
/// `date`, `day`, `hour`, `month`, `period` or `bucket` (`date`, `bucketDay`). Not a moment in
/// the document's life (`dateUpdated`, `createdDate`: growthbook's optimistic check that the
/// revision has not changed since it was read), nor a storage bucket's name.
fn names_a_period(key: &str) -> bool {
    let last = crate::lang::naming::last_part(key, b'.');
    // The last word first (from its capital, or after the last `_`): most keys end in none.
    let b = last.as_bytes();
    let start = match b.iter().rposition(|c| !c.is_ascii_lowercase()) {
        Some(i) if b[i].is_ascii_uppercase() => i,
        Some(i) => i + 1,
        None => 0,
    };
    let period = [
        "period", "hour", "minute", "day", "date", "week", "month", "year", "bucket",
    ]
    .iter()
    .any(|p| last[start..].eq_ignore_ascii_case(p));
    period
        && !crate::lang::naming::for_each_word(last, |w| {
            matches!(
                w,
                "updated" | "created" | "modified" | "last" | "deleted" | "name"
            )
        })
}

/// An array of a set the application defines (`roles`, `permissions`, `scopes`): an
/// `$addToSet` there is bounded by that catalogue (Rocket.Chat's `{$addToSet: {roles: role}}` on
/// users, subscriptions and permissions), however the value is given.
fn catalogue_set(key: &str) -> bool {
    let last = crate::lang::naming::last_part(key, b'.');
    let mut set = false;
    crate::lang::naming::for_each_word(last, |w| {
        set = matches!(w, "roles" | "permissions" | "scopes");
        false
    });
    set
}

/// Does the filter exclude documents whose array already holds the value (`{tags: {$ne: t}}`,
/// `{challenges: {$nin: [id]}}`, `{"members.id": {$ne: m.id}}`, or the same negated:
/// `{"tags.type": {$not: {$eq: t.type}}}`, `{ignored: {$not: {$elemMatch: {id: u}}}}`)? Then the
/// `$push` adds distinct values only, as `$addToSet` would.
fn filter_excludes_present(filter: Option<&Value>, array: &str) -> bool {
    let Some(filter) = filter else { return false };
    filter.fields().iter().any(|f| {
        let on_array = f.key == array
            || f.key
                .strip_prefix(array)
                .is_some_and(|rest| rest.starts_with('.'));
        // An element matched by equalities only (`{$elemMatch: {id: u}}`): one like the pushed
        // value. Not a window (`{$elemMatch: {"from.finish": {$gt: now}}}`, "no active
        // suspension"), which says nothing of the values already in the array.
        let negated = f.value.get("$not").is_some_and(|not| {
            not.value.get("$eq").is_some()
                || not.value.get("$in").is_some()
                || not.value.get("$elemMatch").is_some_and(|m| {
                    !m.value.fields().is_empty()
                        && m.value.fields().iter().all(|c| {
                            !c.key.starts_with('$')
                                && !c.value.fields().iter().any(|o| o.key.starts_with('$'))
                        })
                })
        });
        (on_array && (f.value.get("$ne").is_some() || f.value.get("$nin").is_some() || negated))
            || (f.key == "$and"
                && f.value
                    .items()
                    .iter()
                    .any(|c| filter_excludes_present(Some(c), array)))
    })
}

/// The flag whose change the update waits for: the filter asks `{k: {$ne: v}}` and the update
/// sets `k` to that same `v` (`{"status.premod.active": {$ne: true}}` with `$set:
/// {"status.premod.active": true}`). The update then applies once until `k` changes back: a
/// push grows the array once per change (a status history), not once per call.
fn once_per_change<'a>(filter: Option<&'a Value>, update: &Value) -> Option<&'a str> {
    let filter = filter?;
    let set = update.get("$set")?;
    filter.fields().iter().find_map(|f| {
        let ne = f.value.get("$ne")?;
        // (Not a moment, `{updated: {$ne: time}}` with `$set: {updated: time}`: a new one on
        // every call, so every call is a change.)
        let moment = |t: &str| {
            crate::lang::naming::for_each_word(t, |w| {
                matches!(
                    w,
                    "updated"
                        | "created"
                        | "modified"
                        | "time"
                        | "date"
                        | "at"
                        | "ts"
                        | "now"
                        | "timestamp"
                )
            })
        };
        if let ValueKind::Unknown(u) = &ne.value.kind {
            if moment(&f.key) || moment(&u.text) {
                return None;
            }
        }
        set.value
            .get(&f.key)
            .is_some_and(|v| same_literal(&v.value, &ne.value))
            .then_some(f.key.as_str())
    })
}

/// The same value in the filter and the update: one literal, or one name (`{status: {$ne:
/// status}}` with `$set: {status}`, unchained's order log: whatever the status is, the update
/// matches only when it changes).
fn same_literal(a: &Value, b: &Value) -> bool {
    match (&a.kind, &b.kind) {
        (ValueKind::Bool(x), ValueKind::Bool(y)) => x == y,
        (ValueKind::Number(x), ValueKind::Number(y)) => x == y,
        (ValueKind::String(x), ValueKind::String(y)) => x == y,
        (ValueKind::Unknown(x), ValueKind::Unknown(y)) => {
            x.is_name && y.is_name && x.text == y.text
        }
        _ => false,
    }
}

/// Does the code check the array's size against a bound before it pushes (`if len(self.tags) <
/// MAX_TAGS:`)? The last segment of the array's path must be a name in the measured expression
/// (or in what that name is bound to): `user_agents` in `agents = self.user_agents or []`.
fn guarded(op: &Operation, array: &str) -> bool {
    let name = crate::lang::naming::last_part(array, b'.');
    op.context
        .size_guards
        .iter()
        .any(|g| crate::lang::has_identifier(g, name))
}

/// Is the push one half of a swap? The filter selects the documents whose array holds an old
/// value (`{tags: oldId}`, `{tags: {$in: oldIds}}`, `{"rules.ids": old}` for
/// `"rules.$[r].ids"`), and a later update of the same function, on the same receiver and with
/// the same filter, pulls that value from the same array: `{$addToSet: {tags: newId}}` then
/// `{$pull: {tags: oldId}}` replaces one value with another (merging records), so the array does
/// not grow.
fn swapped(op: &Operation, array: &str, ops: &[Operation]) -> bool {
    let Some(filter) = op.filter.as_ref() else {
        return false;
    };
    // The array's path without positional segments (`$`, `$[]`, `$[rule]`), as a filter names it.
    let path: Vec<&str> = array.split('.').filter(|s| !s.starts_with('$')).collect();
    let path = path.join(".");
    // The filter holds the old value in the array (`{tags: oldId}`), or an element with a
    // member of that value (`{"tokens.token": old}`, which `$pull: {tokens: {token: old}}`
    // takes out again: Meteor's resume tokens rehashed).
    let member_held = |p: &Field| {
        filter.fields().iter().any(|f| {
            f.key
                .strip_prefix(path.as_str())
                .and_then(|rest| rest.strip_prefix('.'))
                .is_some_and(|member| match p.value.fields() {
                    [m] => m.key == member && same_value(&m.value, &f.value),
                    _ => false,
                })
        })
    };
    let held = filter.fields().iter().find(|f| f.key == path);
    // `{$in: [x]}` holds `x`; any other clause holds what it is.
    let single = held.and_then(|held| match held.value.get("$in").map(|f| &f.value.kind) {
        Some(ValueKind::Array(xs)) if xs.len() == 1 && held.value.fields().len() == 1 => {
            Some(&xs[0])
        }
        _ => None,
    });
    companion_updates(op, filter, ops, Companion::LaterInLoop)
        .flat_map(|u| operands(u, &["$pull", "$pullAll"]))
        .any(|p| {
            p.key == array
                && (held.is_some_and(|held| same_value(&p.value, &held.value))
                    || single.is_some_and(|x| same_value(&p.value, x))
                    || member_held(p))
        })
}

/// Does a later update's filter `later` select every document that `filter` selects, as a swap
/// needs? The same filter, a part of its clauses (`{_id: id}` after `{_id: id, "tokens.token":
/// t}`), or Meteor's bare id selector (`users.updateAsync(user._id, ..)`, `{_id: user._id}`).
fn covers(later: &Value, filter: &Value) -> bool {
    if same_value(later, filter) {
        return true;
    }
    match &later.kind {
        ValueKind::Document(clauses) => {
            !clauses.is_empty()
                && clauses.iter().all(|c| {
                    !c.key.starts_with('$')
                        && filter
                            .fields()
                            .iter()
                            .any(|f| f.key == c.key && same_value(&f.value, &c.value))
                })
        }
        ValueKind::Unknown(id) if id.is_name => filter
            .get("_id")
            .is_some_and(|f| same_value(&f.value, later)),
        _ => false,
    }
}

/// Which other updates [`companion_updates`] lists.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Companion {
    /// After `op`, in the same loop (or outside any, as `op`), with a filter that covers `op`'s
    /// ([`covers`]).
    LaterInLoop,
    /// Before `op`, in or outside its loop.
    Earlier,
}

/// The update documents of the other updates of `op`'s document in its function: on the same
/// receiver and collection, with the same filter (`filter`, `op`'s), before or after it.
fn companion_updates<'a>(
    op: &'a Operation,
    filter: &'a Value,
    ops: &'a [Operation],
    which: Companion,
) -> impl Iterator<Item = &'a Value> {
    ops.iter()
        .filter(move |q| {
            q.kind.is_update()
                && match which {
                    Companion::LaterInLoop => {
                        q.span.start > op.span.end
                            && q.context.enclosing_loop == op.context.enclosing_loop
                    }
                    Companion::Earlier => q.span.end <= op.span.start,
                }
                && q.receiver == op.receiver
                && (!op.receiver.is_empty() || op.collection.is_some())
                && q.collection_display() == op.collection_display()
                && q.context.function == op.context.function
                && q.filter.as_ref().is_some_and(|qf| match which {
                    Companion::LaterInLoop => covers(qf, filter),
                    Companion::Earlier => same_value(qf, filter),
                })
        })
        .filter_map(|q| q.update.as_ref())
}

/// The fields that the update operators `names` of `update` set (`$pull: {tags: id}`: `tags`).
fn operands<'a>(update: &'a Value, names: &'a [&str]) -> impl Iterator<Item = &'a Field> {
    update
        .fields()
        .iter()
        .filter(move |o| names.contains(&o.key.as_str()))
        .flat_map(|o| o.value.fields())
}

/// Is the array rebuilt? An earlier update of the same function, on the same receiver and with the
/// same filter, clears it (`$unset`, or `$set` to a value): `{$unset: {visualNodes: ""}}` then
/// `{$push: {visualNodes: {$each: nodes}}}` (Sefaria's sheet graph) replaces the array with what
/// this function pushes. An earlier update under an empty filter, of every document, does too.
fn rebuilt(op: &Operation, array: &str, ops: &[Operation]) -> bool {
    let Some(filter) = op.filter.as_ref() else {
        return false;
    };
    // An update of every document clears this one's too: `updateMany({}, {$unset: {sameMasks:
    // ""}})` before a loop of `$addToSet: {sameMasks: mask}` (erxes's product similarity groups).
    static EVERY: Value = Value {
        span: Span { start: 0, end: 0 },
        kind: ValueKind::Document(Vec::new()),
    };
    // (The clearing may come before a loop that fills the array again.)
    companion_updates(op, filter, ops, Companion::Earlier)
        .chain(companion_updates(op, &EVERY, ops, Companion::Earlier))
        .flat_map(|u| operands(u, &["$unset", "$set"]))
        .any(|f| f.key == array)
}

/// Is the push the second half of a move? The same update pulls what it pushes from another array:
/// `{$pull: {depends: id}, $push: {resolved: id}}`, or `{$pull: {depends: {$in: ids}}, $push:
/// {resolved: {$each: ids}}}` (`$pullAll: {depends: ids}` too): a job's dependencies moved as they
/// resolve, an entry moved between two lists. The array grows only by what the other one loses.
/// So does a single value pushed while the same update pulls from another array an element that
/// the filter requires it to hold: `findOneAndUpdate({id, "invites.key": key}, {$pull: {invites:
/// {key}}, $push: {members: member}})` (growthbook's accepted invitation) turns an invitation into
/// a member.
fn moved(filter: Option<&Value>, update: &Value, array: &str, pushed: &Value) -> bool {
    let each = pushed.get("$each").map(|f| &f.value);
    // The filter requires `from` to hold an element matching `pulled`: `{"invites.key": key}` for
    // `{key: key}`, `{invites: id}` for `id`, each an equality.
    let required = |from: &str, pulled: &Value| {
        let Some(filter) = filter else { return false };
        let equal = |k: &str, v: &Value| {
            filter.fields().iter().any(|f| {
                f.key == k
                    && !f.value.fields().iter().any(|o| o.key.starts_with('$'))
                    && same_value(&f.value, v)
            })
        };
        match &pulled.kind {
            ValueKind::Document(conds) => {
                !conds.is_empty()
                    && conds.iter().all(|c| {
                        !c.key.starts_with('$') && equal(&format!("{from}.{}", c.key), &c.value)
                    })
            }
            ValueKind::Unknown(_) | ValueKind::String(_) => equal(from, pulled),
            _ => false,
        }
    };
    update.fields().iter().any(|o| {
        let values = o.value.fields().iter().filter(|p| p.key != array);
        match o.key.as_str() {
            "$pull" => {
                values
                    .into_iter()
                    .any(|p| match (each, p.value.get("$in").map(|f| &f.value)) {
                        (Some(e), Some(i)) => p.value.fields().len() == 1 && same_value(e, i),
                        (None, None) => same_value(pushed, &p.value) || required(&p.key, &p.value),
                        _ => false,
                    })
            }
            "$pullAll" => values
                .into_iter()
                .any(|p| each.is_some_and(|e| same_value(e, &p.value))),
            _ => false,
        }
    })
}

/// Is the `$addToSet` a move the filter requires? The filter asks that the value be in the array
/// already or in one the same update pulls it from: overleaf's change of a collaborator's
/// privilege, `updateOne({_id, $or: [{collaberator_refs: u}, {readOnly_refs: u}]}, {$pull:
/// {readOnly_refs: u}, $addToSet: {collaberator_refs: u}})`. The set keeps its members, or takes
/// one the other array loses. (A toggle whose filter asks nothing of the arrays, a vote moved
/// from `negative` to `positive`, still adds new voters.)
fn moved_from_required(
    filter: Option<&Value>,
    update: &Value,
    array: &str,
    pushed: &Value,
) -> bool {
    let Some(filter) = filter else { return false };
    let pulled: Vec<&str> = update
        .get("$pull")
        .map(|p| {
            p.value
                .fields()
                .iter()
                .filter(|f| same_value(&f.value, pushed))
                .map(|f| f.key.as_str())
                .collect()
        })
        .unwrap_or_default();
    if pulled.is_empty() {
        return false;
    }
    let holds = |cond: &Value, target_too: bool| {
        cond.fields().iter().any(|f| {
            ((target_too && f.key == array) || pulled.contains(&f.key.as_str()))
                && same_value(&f.value, pushed)
        })
    };
    match filter.get("$or").map(|o| &o.value.kind) {
        Some(ValueKind::Array(branches)) if !branches.is_empty() => {
            branches.iter().all(|b| holds(b, true))
        }
        _ => holds(filter, false),
    }
}

/// Does the filter match only documents whose array already holds the value added to it
/// (`{groups: hash}`, `{groups: {$elemMatch: {$eq: hash}}}`, `{groups: {$all: [hash]}}`: Countly's
/// crash groups, found by one of their hashes)? Then the `$addToSet` adds nothing to a document it
/// matches, and an upsert makes one that holds the value.
fn filter_requires_held(filter: Option<&Value>, array: &str, added: &Value) -> bool {
    let Some(filter) = filter else { return false };
    filter.fields().iter().any(|f| {
        f.key == array
            && (same_value(&f.value, added)
                || f.value.get("$elemMatch").is_some_and(|m| {
                    m.value
                        .get("$eq")
                        .is_some_and(|eq| same_value(&eq.value, added))
                })
                || f.value
                    .get("$all")
                    .is_some_and(|all| all.value.items().iter().any(|i| same_value(i, added))))
    })
}

/// Does the push replace an entry? An earlier update of the same function, on the same receiver
/// and with the same filter, pulls from the same array the entries that share a key with the
/// pushed one, a name: `{$pull: {customPermissions: {module: permission.module}}}` then `{$push:
/// {customPermissions: permission}}` (erxes's permissions): one entry per key, as a map keyed by
/// it would hold. (Not a document written out, `{$push: {watchers: {userId, level}}}`: Wekan pulls
/// `{userId}` in a branch that returns instead, and the IR does not say which runs first.)
fn replaced(op: &Operation, array: &str, pushed: &Value, ops: &[Operation]) -> bool {
    let (Some(filter), ValueKind::Unknown(name)) = (op.filter.as_ref(), &pushed.kind) else {
        return false;
    };
    if !name.is_name {
        return false;
    }
    // `permission.module` for the key `module` of `permission`.
    let key_of_pushed = |key: &str, v: &Value| matches!(&v.kind, ValueKind::Unknown(w) if w.text == format!("{}.{key}", name.text));
    companion_updates(op, filter, ops, Companion::Earlier)
        .flat_map(|u| operands(u, &["$pull"]))
        .any(|p| {
            p.key == array
                && !p.value.fields().is_empty()
                && p.value
                    .fields()
                    .iter()
                    .all(|k| !k.key.starts_with('$') && key_of_pushed(&k.key, &k.value))
        })
}

/// The same value written the same way, wherever it is written.
fn same_value(a: &Value, b: &Value) -> bool {
    match (&a.kind, &b.kind) {
        (ValueKind::Document(x), ValueKind::Document(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|(f, g)| f.key == g.key && same_value(&f.value, &g.value))
        }
        (ValueKind::Array(x), ValueKind::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same_value(v, w))
        }
        (ValueKind::Unknown(x), ValueKind::Unknown(y)) => x.text == y.text,
        (ValueKind::Null, ValueKind::Null) => true,
        _ => same_literal(a, b),
    }
}

fn mentions_size(v: &Value, depth: usize) -> bool {
    if depth > 16 {
        return false;
    }
    match &v.kind {
        ValueKind::Document(fs) => fs
            .iter()
            .any(|f| f.key == "$size" || mentions_size(&f.value, depth + 1)),
        ValueKind::Array(xs) => xs.iter().any(|x| mentions_size(x, depth + 1)),
        _ => false,
    }
}

impl Rule for UnboundedPush {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &RuleContext, out: &mut Vec<Finding>) {
        for (file, op, ops) in ctx.files.iter().flat_map(|f| {
            let ops = f.ir.operations.as_slice();
            ops.iter().map(move |op| (f.id, op, ops))
        }) {
            // A seeder, an upgrade script, a migration or a tool writes its arrays once, off the
            // application's path: the application's own `$push` to the same array is what grows it.
            if !op.kind.is_update()
                || ctx.model.offline_files.contains(&file)
                || ctx.model.migration_files.contains(&file)
            {
                continue;
            }
            let Some(update) = op.update.as_ref() else {
                continue;
            };
            let once = once_per_change(op.filter.as_ref(), update);
            // A time bucket: one document per period (`{agentId, date}`, Rocket.Chat's daily
            // agent activity; `{sensor, hour: h}`), whose arrays hold what one period adds.
            // Asked only of the updates that grow an array.
            let grows = update
                .fields()
                .iter()
                .any(|o| matches!(o.key.as_str(), "$push" | "$pushAll" | "$addToSet"));
            // So is a window of time (`{user, target, createdAt: {$gt: lastWeek}}`, growi's
            // notifications, upserted: one document per week, grown for a week at most).
            if grows
                && op.filter.as_ref().is_some_and(|f| {
                    f.fields().iter().any(|x| {
                        (!x.value.is_document() && names_a_period(&x.key))
                            || super::opens_a_window(x)
                    })
                })
            {
                continue;
            }
            for operator in update.fields() {
                // `$pushAll` (removed in MongoDB 3.6, still in pymongo 2 code) appends a list, as
                // a `$push` with `$each` does, and takes no `$slice`.
                if !matches!(operator.key.as_str(), "$push" | "$pushAll" | "$addToSet") {
                    continue;
                }
                let push = operator.key != "$addToSet";
                // `{$addToSet: level}`, the document built elsewhere (in branches the frontend
                // cannot tell apart): whatever arrays it names grow, bounded only by the number
                // of distinct values, unless the filter or the code bounds an array (which cannot
                // be matched with names not known). A `$push` of such a document may carry
                // `$each` + `$slice`: not reported.
                if operator.key == "$addToSet" {
                    // (Or a document whose keys are all filled in at run time: `fieldUpdate =
                    // {}; fieldUpdate[attribute] = id`.)
                    let unknown = match &operator.value.kind {
                        ValueKind::Unknown(u) => Some(Some(u.text.as_str())),
                        ValueKind::Document(fs)
                            if !fs.is_empty() && fs.iter().all(|f| f.key == "...") =>
                        {
                            Some(None)
                        }
                        _ => None,
                    };
                    if let Some(text) = unknown {
                        if !filter_may_bound(op.filter.as_ref())
                            && op.context.size_guards.is_empty()
                        {
                            out.push(add_to_set_of_unknown(file, op, operator, text));
                        }
                        continue;
                    }
                }
                let (mut growing, mut distinct, mut checked, mut replacing) =
                    (Vec::new(), Vec::new(), Vec::new(), Vec::new());
                for f in operator.value.fields() {
                    // `...`: keys spread or filled in at run time, not an array name.
                    if f.key == "..."
                        || (operator.key == "$push" && is_sliced(&f.value))
                        || filter_bounds(op.filter.as_ref(), update, &f.key)
                        || guarded(op, &f.key)
                        || swapped(op, &f.key, ops)
                        || rebuilt(op, &f.key, ops)
                        || (push && moved(op.filter.as_ref(), update, &f.key, &f.value))
                        || (operator.key == "$addToSet"
                            && (moved_from_required(op.filter.as_ref(), update, &f.key, &f.value)
                                || filter_requires_held(op.filter.as_ref(), &f.key, &f.value)))
                    {
                        continue;
                    }
                    let last = crate::lang::naming::last_part(&f.key, b'.');
                    // A `$push` of values the filter excludes from the array, or that the code
                    // checks are not in it, is an `$addToSet`.
                    let growth = if !push {
                        Growth::Always
                    } else if filter_excludes_present(op.filter.as_ref(), &f.key) {
                        Growth::Distinct
                    } else if op.context.absent_checks.iter().any(|a| a == last) {
                        Growth::Checked
                    } else if replaced(op, &f.key, &f.value, ops) {
                        Growth::Replaced
                    } else {
                        Growth::Always
                    };
                    // Each of the code's own values at most once: bounded by that list, or by the
                    // application's catalogue of roles.
                    let distinct_only = operator.key == "$addToSet" || growth != Growth::Always;
                    if distinct_only && (is_fixed_value(&f.value) || catalogue_set(&f.key)) {
                        continue;
                    }
                    match growth {
                        Growth::Distinct => distinct.push(f.key.as_str()),
                        Growth::Checked => checked.push(f.key.as_str()),
                        Growth::Replaced => replacing.push(f.key.as_str()),
                        _ => growing.push(f.key.as_str()),
                    }
                }
                let growing_as = once.map_or(Growth::Always, Growth::OncePerChange);
                for (fields, growth) in [
                    (growing, growing_as),
                    (distinct, Growth::Distinct),
                    (checked, Growth::Checked),
                    (replacing, Growth::Replaced),
                ] {
                    if !fields.is_empty() {
                        out.push(unbounded_push_diagnostic(
                            file, op, operator, &fields, growth,
                        ));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity;
    use crate::rules::Settings;

    /// (line, the text under the span) of each unbounded-push finding.
    fn findings(path: &str, src: &str) -> Vec<(usize, String)> {
        let (_, f) = crate::analysis::check_source(path, src, &Settings::default()).unwrap();
        f.into_iter()
            .filter(|f| f.rule == "unbounded-push")
            .map(|f| {
                (
                    src[..f.span.start as usize].lines().count(),
                    src[f.span.start as usize..f.span.end as usize].to_string(),
                )
            })
            .collect()
    }

    /// An `$addToSet` of the value the filter requires the array to hold adds nothing to what
    /// it matches (Countly's crash groups, found and upserted by one of their hashes); of
    /// another value, it grows the set.
    #[test]
    fn add_to_set_of_a_value_the_filter_requires_adds_nothing() {
        let src = r#"function save(db, hash, other) {
  db.collection("crashgroups").findAndModify({ groups: { $elemMatch: { $eq: hash } } }, {}, { $addToSet: { groups: hash } }, { upsert: true });
  db.collection("crashgroups").updateOne({ groups: hash }, { $addToSet: { groups: hash }, $set: { seen: 1 } }, { upsert: true });
  db.collection("crashgroups").updateOne({ groups: hash }, { $addToSet: { groups: other } });
}
"#;
        let got = findings("crashes.js", src);
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].0, 4, "{got:?}");
    }

    /// `$pushAll` (pymongo 2 era, removed in MongoDB 3.6) appends a list with no bound, as a
    /// `$push` with `$each` does; the message names the operator as written. Bounded as a
    /// `$push` is (a size in the filter), it is not reported.
    #[test]
    fn push_all_appends_with_no_bound() {
        let src = r#"from pymongo import MongoClient
db = MongoClient().app
def add(url, doc):
    db.url.update({"url": url}, {"$pushAll": {"extractions": doc["extractions"]}}, upsert=True)
    db.url.update({"url": url, "extractions": {"$size": 3}}, {"$pushAll": {"extractions": doc["x"]}})
"#;
        assert_eq!(findings("store.py", src), [(4, "\"$pushAll\"".to_string())]);
        let (_, f) = crate::analysis::check_source("store.py", src, &Settings::default()).unwrap();
        assert!(
            f[0].message
                .starts_with("`$pushAll` appends to array `extractions`"),
            "{f:?}"
        );
    }

    /// mongoengine's `doc.arr.append(x)` then `doc.save()` on a loaded document (NewsBlur's
    /// comment replies) grows the list as Mongoose's `doc.arr.push(x); doc.save()` does: a
    /// warning, or info under `if x not in doc.arr:`. A new document's list, or one never saved,
    /// is no growth of a stored array.
    #[test]
    fn a_mongoengine_list_appended_then_saved_grows() {
        let src = r#"import mongoengine as mongo
class MSharedStory(mongo.Document):
    replies = mongo.ListField(mongo.StringField())
    readers = mongo.ListField(mongo.IntField())
    story_id = mongo.StringField()
def reply(story_id, reply, user_id):
    story = MSharedStory.objects.get(story_id=story_id)
    story.replies.append(reply)
    if user_id not in story.readers:
        story.readers.append(user_id)
    story.save()
def draft(story_id, reply):
    story = MSharedStory(story_id=story_id)
    story.replies.append(reply)
    story.save()
def preview(story_id, reply):
    story = MSharedStory.objects.get(story_id=story_id)
    story.replies.append(reply)
    return story.replies
"#;
        let (_, f) = crate::analysis::check_source("views.py", src, &Settings::default()).unwrap();
        let got: Vec<(usize, Severity)> = f
            .iter()
            .filter(|f| f.rule == "unbounded-push")
            .map(|f| (src[..f.span.start as usize].lines().count(), f.severity))
            .collect();
        assert_eq!(got, [(8, Severity::Warning), (10, Severity::Info)], "{f:?}");
    }

    /// A document loaded or made anew where there is none (`try: .. .get(..)` with `except
    /// X.DoesNotExist: p = X(..)`, or `if not p: p = X(..)` after a load: mist's notification
    /// policies) grows its stored list as a loaded one does. A list set anew to a literal in a
    /// block around the append (crits' `idb_action.preferred = []`, then a loop that fills it)
    /// holds what the function builds, not a grown list; set only where it is missing (`if not
    /// a.tags: a.tags = []`), it still grows.
    #[test]
    fn a_loaded_or_made_document_grows_a_list_not_set_anew() {
        let src = r#"import mongoengine as me
class Policy(me.Document):
    user_id = me.StringField()
    overrides = me.ListField(me.StringField())
def add_override(uid, rid):
    try:
        np = Policy.objects.get(user_id=uid)
    except Policy.DoesNotExist:
        np = Policy(user_id=uid)
    np.overrides.append(rid)
    np.save()
def make(uid, rid):
    p = Policy.objects(user_id=uid).first()
    if not p:
        p = Policy(user_id=uid)
    p.overrides.append(rid)
    p.save()
def set_all(uid, rids):
    p = Policy.objects(user_id=uid).first()
    p.overrides = []
    for rid in rids:
        p.overrides.append(rid)
    p.save()
def add_one(uid, rid):
    p = Policy.objects(user_id=uid).first()
    if not p.overrides:
        p.overrides = []
    p.overrides.append(rid)
    p.save()
"#;
        let lines: Vec<usize> = findings("views.py", src).into_iter().map(|f| f.0).collect();
        assert_eq!(lines, [10, 16, 28]);
    }

    /// The same through `self` in a method of the document class (NewsBlur's `follow_user`:
    /// `self.following_user_ids.append(user_id); self.save()`): the document the method is
    /// called on. Not a list cut to a slice of itself before the save (`self.history =
    /// self.history[:max_quota]`, `del self.history[:-10]`), nor `self` of a class that is no
    /// document.
    #[test]
    fn a_mongoengine_document_method_appending_to_its_own_list_grows_it() {
        let src = r#"import mongoengine as mongo
class MSocialProfile(mongo.Document):
    following_user_ids = mongo.ListField(mongo.IntField())
    emailed_replies = mongo.ListField(mongo.StringField())
    history = mongo.ListField(mongo.DateTimeField())
    meta = {'collection': 'social_profile'}
    def follow_user(self, user_id):
        if user_id not in self.following_user_ids:
            self.following_user_ids.append(user_id)
        self.save()
    def mark_emailed(self, reply_id):
        self.emailed_replies.append(reply_id)
        self.save()
    def save_sent_email(self, now, max_quota=20):
        self.history.insert(0, now)
        self.history = self.history[:max_quota]
        self.save()
    def trim(self, now):
        self.history.append(now)
        del self.history[:-10]
        self.save()
class Cart(object):
    def add(self, item):
        self.items.append(item)
        self.save()
"#;
        let (_, f) = crate::analysis::check_source("models.py", src, &Settings::default()).unwrap();
        let got: Vec<(usize, Severity, &str)> = f
            .iter()
            .filter(|f| f.rule == "unbounded-push")
            .map(|f| {
                (
                    src[..f.span.start as usize].lines().count(),
                    f.severity,
                    if f.message.contains("`social_profile`") {
                        "social_profile"
                    } else {
                        "?"
                    },
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (9, Severity::Info, "social_profile"),
                (12, Severity::Warning, "social_profile")
            ],
            "{f:?}"
        );
    }

    /// A window of time in the filter (growi's notifications, `{user, target, createdAt: {$gt:
    /// lastWeek}}` upserted: one document per week; Talk's edits, allowed while `createdAt` is
    /// after the edit window's start) bounds the array by what one window adds. A moment that is
    /// no lower bound on the document's start (`updatedAt: {$gt: t}`) does not.
    #[test]
    fn a_window_of_time_in_the_filter_bounds_the_array() {
        let src = r#"import mongoose from 'mongoose';
const N = mongoose.model('Notification', new mongoose.Schema({ user: String, activities: [String] }));
export async function upsertByActivity(user: string, target: string, a: string, lastWeek: Date, t: Date) {
  await N.updateOne({ user, target, createdAt: { $gt: lastWeek } }, { $addToSet: { activities: a } }, { upsert: true });
  await N.updateOne({ user, target, updatedAt: { $gt: t } }, { $addToSet: { activities: a } });
}
"#;
        let lines: Vec<usize> = findings("notification.ts", src)
            .into_iter()
            .map(|f| f.0)
            .collect();
        assert_eq!(lines, [5]);
    }

    /// A get-or-create: the document made in one branch of an `if` (`if not sample: sample =
    /// Sample(md5=m)`) is not the one the other branch grows (`elif f not in sample.filenames:
    /// sample.filenames.append(f)`, crits' samples): that one is loaded. Also in JavaScript.
    #[test]
    fn the_other_branch_of_a_get_or_create_grows_the_loaded_document() {
        let py = r#"import mongoengine as mongo
class Sample(mongo.Document):
    md5 = mongo.StringField()
    filenames = mongo.ListField(mongo.StringField())
def add_file(md5, filename):
    sample = Sample.objects(md5=md5).first()
    if not sample:
        sample = Sample(md5=md5)
        sample.filenames.append(filename)
    elif filename not in sample.filenames:
        sample.filenames.append(filename)
    sample.save()
"#;
        let lines: Vec<usize> = findings("handlers.py", py)
            .into_iter()
            .map(|f| f.0)
            .collect();
        assert_eq!(lines, [11]);
        let js = r#"const mongoose = require('mongoose');
const Sample = mongoose.model('Sample', new mongoose.Schema({ md5: String, filenames: [String] }));
async function addFile(md5, filename) {
  let sample = await Sample.findOne({ md5 });
  if (!sample) {
    sample = new Sample({ md5, filenames: [] });
    sample.filenames.push(filename);
  } else if (!sample.filenames.includes(filename)) {
    sample.filenames.push(filename);
  }
  await sample.save();
}
"#;
        let lines: Vec<usize> = findings("handlers.js", js)
            .into_iter()
            .map(|f| f.0)
            .collect();
        assert_eq!(lines, [9]);
    }

    /// A time bucket's filter (Rocket.Chat's `{agentId, date}`: one document per agent per day)
    /// bounds the array by what one period adds; a moment of the document's life
    /// (growthbook's `dateUpdated`, an optimistic check) does not. An `$addToSet` of roles or
    /// permissions is bounded by the application's catalogue; a set of followers is not.
    #[test]
    fn time_buckets_and_role_sets_bound_the_array() {
        let src = r#"const { MongoClient } = require("mongodb");
const db = new MongoClient("x").db("a");
async function f(agentId, date, period, role, perms, id, at, u) {
  await db.collection("agent_activity").updateMany({ agentId, date }, { $addToSet: { serviceHistory: period } });
  await db.collection("revisions").updateOne({ id, dateUpdated: at }, { $push: { activityLog: period } });
  await db.collection("users").updateOne({ _id: id }, { $addToSet: { roles: role } });
  await db.collection("subscriptions").updateOne({ _id: id }, { $addToSet: { "u.permissions": { $each: perms } } });
  await db.collection("users").updateOne({ _id: id }, { $addToSet: { followers: u } });
}
"#;
        let lines: Vec<usize> = findings("f.js", src).into_iter().map(|f| f.0).collect();
        assert_eq!(lines, [5, 8]);
    }

    /// The help's example names the array the update grows (async-labs/saas' `memberIds`), quoted
    /// where it is a dotted path; "field" where the update grows several or a computed one.
    #[test]
    fn the_help_names_the_array() {
        let src = r#"const { MongoClient } = require("mongodb");
const db = new MongoClient("x").db("a");
async function f(id, c, k) {
  await db.collection("teams").updateOne({ _id: id }, { $addToSet: { memberIds: c } });
  await db.collection("posts").updateOne({ _id: id }, { $push: { comments: c } });
  await db.collection("posts").updateOne({ _id: id }, { $push: { "stats.views": c } });
  await db.collection("posts").updateOne({ _id: id }, { $push: { [k]: c } });
}
"#;
        let (_, f) = crate::analysis::check_source("f.js", src, &Settings::default()).unwrap();
        let help: Vec<&str> = f
            .iter()
            .filter(|f| f.rule == "unbounded-push")
            .map(|f| f.help.as_str())
            .collect();
        assert_eq!(help.len(), 4, "{help:?}");
        assert!(
            help[0].contains("`{\"memberIds.999\": {$exists: false}}`"),
            "{}",
            help[0]
        );
        assert!(
            help[1].contains("`{$push: {comments: {$each: [x], $slice: -100}}}`"),
            "{}",
            help[1]
        );
        assert!(
            help[2].contains("`{$push: {\"stats.views\": {$each: [x]"),
            "{}",
            help[2]
        );
        assert!(
            help[3].contains("`{$push: {field: {$each: [x]"),
            "{}",
            help[3]
        );
    }

    /// A `$where` predicate that keeps the array below a bound (`this.students.length <
    /// this.size`, INGInious's group join) bounds it, as `$expr` with `$size` does; one about
    /// another array, or that only reads the length, does not.
    #[test]
    fn a_where_predicate_on_the_arrays_length_bounds_it() {
        let got = findings(
            "groups.py",
            r#"from pymongo import MongoClient
db = MongoClient().app
def join(gid, username):
    db.groups.find_one_and_update({"_id": gid, "$where": "this.students.length < this.size"}, {"$push": {"students": username}})
    db.groups.update_one({"_id": gid, "$where": "this.size >= this.tutors.length + 1"}, {"$push": {"tutors": username}})
    db.groups.update_one({"_id": gid, "$where": "this.tutors.length < 3"}, {"$push": {"students": username}})
    db.groups.update_one({"_id": gid, "$where": "this.students.length > 0"}, {"$push": {"students": username}})
"#,
        );
        assert_eq!(
            got.iter().map(|f| f.0).collect::<Vec<_>>(),
            vec![6, 7],
            "{got:?}"
        );
    }

    /// A membership test nested in an `if` that only asks whether the document is there (`if
    /// doc is not None: if v in doc["groups"]: return`, EvaMaria's connections; `if (doc) { if
    /// (doc.groups.includes(v)) return }`) is an absence check; one nested in a mode of its own
    /// (`if strict:`) is not.
    #[test]
    fn a_membership_test_under_an_existence_check_is_an_absence_check() {
        let py = r#"from pymongo import MongoClient
col = MongoClient().app.conn
def add(group_id, user_id):
    doc = col.find_one({"_id": user_id})
    if doc is not None:
        if group_id in doc["groups"]:
            return False
    col.update_one({"_id": user_id}, {"$push": {"groups": group_id}})
def add_strict(group_id, user_id, strict):
    doc = col.find_one({"_id": user_id})
    if strict:
        if group_id in doc["groups"]:
            return False
    col.update_one({"_id": user_id}, {"$push": {"groups": group_id}})
"#;
        let js = r#"async function add(db, id, v) {
  const doc = await db.collection('conn').findOne({ _id: id });
  if (doc) {
    if (doc.groups.includes(v)) return false;
  }
  await db.collection('conn').updateOne({ _id: id }, { $push: { groups: v } });
}
async function addStrict(db, id, v, strict) {
  const doc = await db.collection('conn').findOne({ _id: id });
  if (strict) {
    if (doc.groups.includes(v)) return false;
  }
  await db.collection('conn').updateOne({ _id: id }, { $push: { groups: v } });
}
"#;
        for (path, src, lines) in [("conn.py", py, [8, 14]), ("conn.js", js, [6, 13])] {
            let got: Vec<(usize, Severity)> = judged(path, src)
                .into_iter()
                .map(|(l, s, _)| (l, s))
                .collect();
            assert_eq!(
                got,
                vec![(lines[0], Severity::Info), (lines[1], Severity::Warning)],
                "{path}"
            );
        }
    }

    /// (line, severity, message) of each unbounded-push finding.
    fn judged(path: &str, src: &str) -> Vec<(usize, crate::diagnostic::Severity, String)> {
        let (_, f) = crate::analysis::check_source(path, src, &Settings::default()).unwrap();
        f.into_iter()
            .filter(|f| f.rule == "unbounded-push")
            .map(|f| {
                let line = src[..f.span.start as usize].lines().count();
                (line, f.severity, f.message)
            })
            .collect()
    }

    /// An `$addToSet` of a value written in the code (or `$each` of such values), and a `$push`
    /// of one that the code or the filter checks is not in the array yet, add each of the code's
    /// few values at most once: not flagged. A plain `$push` of one repeats it: flagged.
    #[test]
    fn the_codes_own_values_added_once_each_are_not_flagged() {
        let src = r#"const mongoose = require("mongoose");
const User = mongoose.model("User", new mongoose.Schema({ methods: [String], roles: [String] }));
async function enable(req) {
  const user = await User.findById(req.user.id);
  if (!user.methods.includes("email")) {
    user.methods.push("email");
  }
  await user.save();
}
async function grant(id) {
  await User.updateOne({ _id: id }, { $addToSet: { roles: "editor" } });
  await User.updateOne({ _id: id }, { $addToSet: { roles: { $each: ["viewer", "commenter"] } } });
  await User.updateOne({ _id: id, roles: { $ne: "owner" } }, { $push: { roles: "owner" } });
  await User.updateOne({ _id: id }, { $push: { methods: "sms" } });
  await User.updateOne({ _id: id }, { $addToSet: { methods: { $each: [id, "x"] } } });
}
"#;
        let got = judged("users.js", src);
        let lines: Vec<usize> = got.iter().map(|g| g.0).collect();
        assert_eq!(lines, [14, 15], "{got:?}");
        assert_eq!(got[0].1, crate::diagnostic::Severity::Warning);
        assert_eq!(got[1].1, crate::diagnostic::Severity::Info);
        // The code's constants by name: an enum member's value (clearml-server's
        // `EntityVisibility.archived.value`), a constant; not a variable nor an attribute of one.
        let src = r#"from enum import Enum
from mongoengine import Document, ListField, StringField
class EntityVisibility(Enum):
    archived = "archived"
class Task(Document):
    system_tags = ListField(StringField())
def archive(task_id, tag, user):
    Task.objects(id=task_id).update(add_to_set__system_tags=EntityVisibility.archived.value)
    Task.objects(id=task_id).update(add_to_set__system_tags=ARCHIVED_TAG)
    Task.objects(id=task_id).update(add_to_set__system_tags=Tags.SYSTEM_ARCHIVED)
    Task.objects(id=task_id).update(add_to_set__system_tags=tag)
    Task.objects(id=task_id).update(add_to_set__system_tags=user.tag.value)
"#;
        let got = judged("tasks.py", src);
        let lines: Vec<usize> = got.iter().map(|g| g.0).collect();
        assert_eq!(lines, [11, 12], "{got:?}");
    }

    /// A document's array set to a part of itself before the push (pwndoc's sessions:
    /// `row.refreshTokens = row.refreshTokens.filter(notExpired)`, then `push` and `save()`)
    /// keeps only what the function lets stay, and Mongoose saves it with a `$set`; an array
    /// set to more of itself (`concat`), or pruned after the push, still grows.
    #[test]
    fn a_document_array_pruned_before_the_push_is_bounded() {
        let src = r#"const mongoose = require("mongoose");
const User = mongoose.model("User", new mongoose.Schema({ refreshTokens: [Object] }));
async function refresh(id, token, now) {
  const row = await User.findById(id);
  row.refreshTokens = row.refreshTokens.filter((e) => e.expires > now);
  row.refreshTokens.push({ token, expires: now + 7 });
  return row.save();
}
async function grow(id, token) {
  const row = await User.findById(id);
  row.refreshTokens = row.refreshTokens.concat([]);
  row.refreshTokens.push({ token });
  return row.save();
}
async function late(id, token, now) {
  const row = await User.findById(id);
  row.refreshTokens.push({ token });
  row.refreshTokens = row.refreshTokens.filter((e) => e.expires > now);
  return row.save();
}
"#;
        let lines: Vec<usize> = findings("users.js", src).iter().map(|f| f.0).collect();
        assert_eq!(lines, vec![12, 17]);
    }

    /// A push under a check that the array does not hold the value (`!arr.includes(v)`, the
    /// `else` of `arr.find((t) => t.kind === k)` pushing an element of kind `k`, after `if
    /// (arr.some((l) => l.toString() === v.toString())) return;`, `indexOf(v) === -1` around a
    /// driver `$push`, `arr.some((f) => f.id === filter.id)` before pushing `filter`) adds
    /// distinct values only: info, as `$addToSet`. A check of another value,
    /// or of the value being present, does not count.
    #[test]
    fn a_push_the_code_checks_is_absent_is_like_add_to_set() {
        let src = r#"const mongoose = require("mongoose");
const User = mongoose.model("User", new mongoose.Schema({ tokens: [Object], likes: [Object] }));
async function link(req, provider, accessToken) {
  const user = await User.findById(req.user.id);
  const existing = user.tokens.find((t) => t.kind === provider);
  if (existing) {
    existing.accessToken = accessToken;
  } else {
    const token = { kind: provider, accessToken };
    user.tokens.push(token);
  }
  await user.save();
}
async function like(id, uid) {
  const user = await User.findById(id);
  if (user.likes.some((l) => l.toString() === uid.toString())) return;
  user.likes.push(uid);
  await user.save();
}
async function list(db, self, name) {
  if (self.problemLists.has(name)) return;
  await db.collection("vjudge").updateOne({ _id: self.id }, { $push: { problemLists: name } });
}
async function tag(db, id, t, u) {
  const doc = await db.collection("posts").findOne({ _id: id });
  if (doc.tags.indexOf(t) === -1) {
    await db.collection("posts").updateOne({ _id: id }, { $push: { tags: t } });
  }
  if (!doc.tags.includes(u)) {
    await db.collection("posts").updateOne({ _id: id }, { $push: { tags: t } });
  }
  if (doc.tags.includes(t)) {
    await db.collection("posts").updateOne({ _id: id }, { $push: { tags: t } });
  }
}
async function settings(req) {
  const user = await User.findById(req.params.id);
  const i = user.organisationSettings.findIndex((s) => s.organisation.toString() === req.params.org);
  if (i < 0) {
    user.organisationSettings.push({ organisation: req.params.org, ...req.body });
  }
  const j = user.organisationSettings.findIndex((s) => s.organisation.toString() === req.params.org);
  if (j >= 0) {
    user.organisationSettings.push({ organisation: req.params.org, ...req.body });
  }
  await user.save();
}
async function addFilter(db, table, data) {
  const filter = { id: data.id, name: data.name };
  if (table.filters.some((f) => f.id === filter.id)) {
    throw new Error("exists");
  }
  await db.collection("tables").updateOne({ id: table.id }, { $push: { filters: filter } });
  if (table.filters.some((f) => f.id === data.id)) return;
  const other = { id: data.other, name: data.name };
  await db.collection("tables").updateOne({ id: table.id }, { $push: { filters: other } });
}
function joinDomain(user, domain, callback) {
  if (user.domains.every(function (d) { return d.domain_id !== domain; })) {
    return User.findOneAndUpdate({ _id: user._id }, { $push: { domains: { domain_id: domain } } }, callback);
  }
  if (user.domains.every((d) => d.domain_id === domain)) {
    return User.findOneAndUpdate({ _id: user._id }, { $push: { domains: { domain_id: domain } } }, callback);
  }
}
"#;
        use crate::diagnostic::Severity::{Info, Warning};
        let got = judged("links.js", src);
        let summary: Vec<(usize, crate::diagnostic::Severity)> =
            got.iter().map(|g| (g.0, g.1)).collect();
        // (LearningLocker's organisation settings: the index bound to a name, then tested.)
        assert_eq!(
            summary,
            [
                (10, Info),
                (17, Info),
                // A `Set` beside the array (Hydro's vjudge problem lists).
                (22, Info),
                (27, Info),
                (30, Warning),
                (33, Warning),
                (40, Info),
                (44, Warning),
                // Checked by the pushed object's own key (growthbook's fact filters); then an
                // object whose key is not the one checked.
                (53, Info),
                (56, Warning),
                // openpaas's domains: `every` element differs (a function's `return` too); an
                // `every` that all are equal says nothing.
                (60, Info),
                (63, Warning)
            ],
            "{got:?}"
        );
        assert!(got[0].2.contains("checks are not in it yet"), "{got:?}");
    }

    /// Node's `assert(cond)` (and `assert.ok`) throws unless `cond` holds, as an `if (!cond)
    /// throw` does: fiora's `assert(group.members.indexOf(user) === -1, ..)` before the push
    /// checks that the value is absent. `console.assert` only logs.
    #[test]
    fn an_assertion_before_the_push_is_a_check() {
        let src = r#"const assert = require("assert");
const mongoose = require("mongoose");
const Group = mongoose.model("Group", new mongoose.Schema({ members: [String] }));
async function join(id, user) {
  const group = await Group.findOne({ _id: id });
  assert(group.members.indexOf(user) === -1, "already a member");
  group.members.push(user);
  await group.save();
}
async function enter(id, user) {
  const group = await Group.findOne({ _id: id });
  console.assert(group.members.indexOf(user) === -1, "already a member");
  group.members.push(user);
  await group.save();
}
"#;
        use crate::diagnostic::Severity::{Info, Warning};
        let got: Vec<(usize, crate::diagnostic::Severity)> = judged("groups.js", src)
            .iter()
            .map(|g| (g.0, g.1))
            .collect();
        assert_eq!(got, [(7, Info), (13, Warning)], "{got:?}");
        // Python's `assert` of the array's size bounds it, as `if len(..) >= N: raise` does.
        let src = "from pymongo import MongoClient
db = MongoClient().app
def add(gid, u):
    doc = db.groups.find_one({\"_id\": gid})
    assert len(doc[\"members\"]) < 100
    db.groups.update_one({\"_id\": gid}, {\"$push\": {\"members\": u}})
def add_unchecked(gid, u):
    db.groups.update_one({\"_id\": gid}, {\"$push\": {\"members\": u}})
";
        let got: Vec<usize> = judged("groups.py", src).iter().map(|g| g.0).collect();
        assert_eq!(got, [8], "{got:?}");
    }

    /// `{$addToSet: level}` with `level` built in branches (overleaf's collaborators), or a document
    /// whose keys are filled in at run time: the arrays are not known by name, but whichever they
    /// are, they grow. Reported at info, once, unless the filter may bound an array; a `$push` of
    /// such a document may carry `$slice` and is not.
    #[test]
    fn an_add_to_set_of_a_document_built_elsewhere() {
        let src = r#"const { MongoClient } = require("mongodb");
async function add(db, projectId, userId, readOnly) {
  let level
  if (readOnly) {
    level = { readOnly_refs: userId }
  } else {
    level = { collaberator_refs: userId }
  }
  await db.collection("projects").updateOne({ _id: projectId }, { $addToSet: level })
  await db.collection("projects").updateOne({ _id: projectId }, { $push: level })
  await db.collection("projects").updateOne({ _id: projectId, "refs.49": { $exists: false } }, { $addToSet: level })
}
async function addTo(db, projectId, attribute, userId) {
  const fieldUpdate = {}
  fieldUpdate[attribute] = userId
  await db.collection("projects").updateOne({ _id: projectId }, { $addToSet: fieldUpdate })
}
"#;
        assert_eq!(
            findings("a.js", src),
            [(9, "$addToSet".to_string()), (16, "$addToSet".to_string())]
        );
        let (_, all) = crate::analysis::check_source("a.js", src, &Settings::default()).unwrap();
        let messages: Vec<&str> = all
            .iter()
            .filter(|f| f.rule == "unbounded-push")
            .inspect(|f| assert_eq!(f.severity, crate::diagnostic::Severity::Info))
            .map(|f| f.message.as_str())
            .collect();
        assert!(
            messages[0].contains("grows the arrays that `level` names in"),
            "{messages:?}"
        );
        assert!(
            messages[1].contains("grows arrays whose names are filled in at run time"),
            "{messages:?}"
        );
    }

    /// (Once per change also of a value the code names: `{status: {$ne: n.status}}` with
    /// `$set: {status: n.status}`, unchained's order log.)
    #[test]
    fn a_push_of_values_the_filter_excludes_or_once_per_change_of_a_flag_is_info() {
        let src = r#"const { MongoClient } = require("mongodb");
async function join(db, chalId, uid, member, n, time) {
  await db.collection("users").updateOne({ _id: uid, challenges: { $nin: [chalId] } }, { $push: { challenges: chalId } });
  await db.collection("orgs").updateOne({ id: uid, "members.id": { $ne: member.id } }, { $push: { members: member } });
  await db.collection("users").updateMany({ "achievements.partyUp": { $ne: true } }, { $set: { "achievements.partyUp": true }, $push: { notifications: n } });
  await db.collection("users").updateMany({ "achievements.partyUp": { $ne: true } }, { $set: { "achievements.partyUp": false }, $push: { notifications: n } });
  await db.collection("users").updateOne({ _id: uid, tags: { $ne: "x" } }, { $push: { log: n } });
  await db.collection("comments").updateOne({ id: uid, "tags.type": { $not: { $eq: n.type } } }, { $push: { tags: n } });
  await db.collection("users").updateOne({ id: uid, ignored: { $not: { $elemMatch: { id: n.id } } } }, { $push: { ignored: n } });
  await db.collection("users").updateOne({ id: uid, ignored: { $not: { $size: 3 } } }, { $push: { ignored: n } });
  await db.collection("users").updateOne({ id: uid, history: { $not: { $elemMatch: { finish: { $gt: n.at } } } } }, { $push: { history: n } });
  await db.collection("orders").updateOne({ _id: uid, status: { $ne: n.status } }, { $set: { status: n.status }, $push: { log: n } });
  await db.collection("orders").updateOne({ _id: uid, status: { $ne: n.status } }, { $set: { status: n.next }, $push: { log: n } });
  await db.collection("jobs").updateMany({ _id: uid, updated: { $ne: time } }, { $set: { updated: time }, $push: { log: n } });
}
"#;
        let (_, found) =
            crate::analysis::check_source("join.js", src, &Settings::default()).unwrap();
        let got: Vec<(usize, crate::diagnostic::Severity, bool)> = found
            .iter()
            .filter(|f| f.rule == "unbounded-push")
            .map(|f| {
                (
                    src[..f.span.start as usize].lines().count(),
                    f.severity,
                    f.message.contains("like `$addToSet`"),
                )
            })
            .collect();
        use crate::diagnostic::Severity::{Info, Warning};
        assert_eq!(
            got,
            vec![
                (3, Info, true),
                (4, Info, true),
                (5, Info, false),
                (6, Warning, false),
                (7, Warning, false),
                (8, Info, true),
                (9, Info, true),
                (10, Warning, false),
                (11, Warning, false),
                (12, Info, false),
                (13, Warning, false),
                (14, Warning, false)
            ]
        );
    }

    #[test]
    fn mongoengine_keywords_in_a_splatted_dict_are_read() {
        // crits' `d = {'push__sources': ed}; Role.objects(..).update_one(**d)`, StackStorm's
        // `values["push__children"] = ..; ActionExecution.update(parent, **values)`.
        let src = "import mongoengine as me\n\n\
                   class Role(me.Document):\n    sources = me.ListField()\n\n\
                   def add_source(rid, ed):\n    d = {'push__sources': ed}\n    \
                   Role.objects(id=rid).update_one(**d)\n\n\
                   def log(role, entry, k, v):\n    kw = {}\n    kw['set__' + k] = v\n    \
                   kw['push__log'] = entry\n    role.update(**kw)\n";
        assert_eq!(
            findings("app/roles.py", src),
            vec![(7, "'push__sources'".into()), (13, "'push__log'".into())]
        );
    }

    #[test]
    fn a_push_the_code_guards_with_a_size_check_is_not_flagged() {
        // udata's api tokens: `if user_agent and len(agents) < MAX_USER_AGENTS:` before it adds
        // `add_to_set__user_agents`; the same with the call itself under the check, and with a
        // dict update. A check of another array, an `or`, or the `else` branch bounds nothing.
        let src = "import mongoengine as me\n\n\
                   class Token(me.Document):\n    user_agents = me.ListField()\n    tags = me.ListField()\n\n    \
                   def update_usage(self, user_agent=None):\n        \
                   update_kwargs = {\"set__last_used_at\": 1}\n        \
                   agents = self.user_agents or []\n        \
                   if user_agent and len(agents) < MAX_USER_AGENTS:\n            \
                   update_kwargs[\"add_to_set__user_agents\"] = user_agent\n        \
                   type(self).objects(id=self.id).update_one(**update_kwargs)\n\n\
                   def tag(token, t, db):\n    \
                   if len(token.tags) <= 10:\n        token.update(push__tags=t)\n    \
                   if 20 > len(token.tags):\n        \
                   db.tokens.update_one({'_id': token.id}, {'$push': {'tags': t}})\n    \
                   if len(token.user_agents) < 5:\n        token.update(push__tags=t)\n    \
                   if len(token.tags) < 5 or t:\n        token.update(push__tags=t)\n    \
                   if len(token.tags) < 5:\n        pass\n    else:\n        token.update(push__tags=t)\n";
        assert_eq!(
            findings("app/tokens.py", src),
            vec![
                (20, "push__tags".into()),
                (22, "push__tags".into()),
                (26, "push__tags".into()),
            ]
        );
    }

    #[test]
    fn a_push_after_an_early_exit_on_the_arrays_size_is_not_flagged() {
        // `if len(x) >= N: raise` (or return, continue, break; alone or under `or`) before the push
        // in the same block bounds it; an exit on `and`, a check with an `else`, a check that does
        // not leave, or a check after the push bounds nothing.
        let src = r#"import mongoengine as me

class Team(me.Document):
    members = me.ListField()

def join(team, uid):
    if uid in team.members or len(team.members) >= MAX:
        raise Full()
    team.update(push__members=uid)

def join_all(teams, uid):
    for team in teams:
        if MAX <= len(team.members):
            continue
        team.update(push__members=uid)

def near_misses(team, uid, force):
    if len(team.members) >= MAX and not force:
        return
    team.update(push__members=uid)

def no_exit(team, uid):
    if len(team.members) >= MAX:
        log(team)
    team.update(push__members=uid)

def after(team, uid):
    team.update(push__members=uid)
    if len(team.members) >= MAX:
        return
"#;
        assert_eq!(
            findings("app/teams.py", src),
            vec![
                (20, "push__members".into()),
                (25, "push__members".into()),
                (28, "push__members".into()),
            ]
        );
    }

    #[test]
    fn rust_pushes_under_a_len_check_or_after_an_early_exit_are_not_flagged() {
        // `if board.pins.len() < MAX_PINS { .. }`, `if board.pins.len() >= MAX_PINS || .. { return
        // Err(..); }`, `if MAX_PINS <= board.pins.len() { continue; }`; then the near misses: a
        // check of another array, an exit under `&&`, the `else` branch.
        let src = r#"use mongodb::{bson::doc, Collection};

async fn pin(boards: &Collection<Board>, board: &Board, item: i64) {
    if board.pins.len() < MAX_PINS {
        boards.update_one(doc! { "_id": board.id }, doc! { "$push": { "pins": item } }).await;
    }
}

async fn pin2(boards: &Collection<Board>, board: &Board, item: i64) -> Result<()> {
    if board.pins.len() >= MAX_PINS || item < 0 {
        return Err(full());
    }
    boards.update_one(doc! { "_id": board.id }, doc! { "$push": { "pins": item } }).await?;
    Ok(())
}

async fn pin_all(boards: &Collection<Board>, all: Vec<Board>, item: i64) {
    for board in all {
        if MAX_PINS <= board.pins.len() {
            continue;
        }
        boards.update_one(doc! { "_id": board.id }, doc! { "$push": { "pins": item } }).await;
    }
}

async fn near(boards: &Collection<Board>, board: &Board, item: i64, force: bool) {
    if board.tags.len() < 5 {
        boards.update_one(doc! { "_id": board.id }, doc! { "$push": { "pins": item } }).await;
    }
    if board.pins.len() >= MAX_PINS && !force {
        return;
    }
    boards.update_one(doc! { "_id": board.id }, doc! { "$push": { "pins": item } }).await;
    if board.pins.len() < 5 {
        println!("ok");
    } else {
        boards.update_one(doc! { "_id": board.id }, doc! { "$push": { "pins": item } }).await;
    }
}
"#;
        assert_eq!(
            findings("src/boards.rs", src),
            vec![
                (28, "\"$push\"".into()),
                (33, "\"$push\"".into()),
                (37, "\"$push\"".into()),
            ]
        );
    }

    /// scout's case sharing: Python code that raises when the value is already in the array
    /// (`if cid in case.get("collaborators", []): raise ..`), or pushes under `if cid not in
    /// case["collaborators"]:`, adds distinct values only: info; so does a test among the
    /// elements' keys (EvaMaria's connections: `group_ids = [x["group_id"] for x in
    /// doc["group_details"]]`, `if group_id in group_ids: return`, then a push of `{"group_id":
    /// group_id}`). A test of another value, or none, leaves the push a warning.
    #[test]
    fn a_python_membership_test_before_the_push_is_a_check() {
        let src = r#"import pymongo
db = pymongo.MongoClient().scout
def share(case, cid):
    if cid in case.get("collaborators", []):
        raise ValueError("already")
    db.case.find_one_and_update({"_id": case["_id"]}, {"$push": {"collaborators": cid}})
def add(case, cid):
    if cid not in case["collaborators"]:
        db.case.update_one({"_id": case["_id"]}, {"$push": {"collaborators": cid}})
def blind(case, cid):
    db.case.update_one({"_id": case["_id"]}, {"$push": {"collaborators": cid}})
def other(case, cid, x):
    if x in case.get("collaborators", []):
        return
    db.case.update_one({"_id": case["_id"]}, {"$push": {"collaborators": cid}})
def connect(doc, user_id, group_id):
    group_ids = [x["group_id"] for x in doc["group_details"]]
    if group_id in group_ids:
        return False
    details = {"group_id": group_id}
    db.conn.update_one({"_id": user_id}, {"$push": {"group_details": details}})
def connect2(doc, user_id, group_id, other):
    if group_id in [x.group_id for x in doc.group_details]:
        return False
    db.conn.update_one({"_id": user_id}, {"$push": {"group_details": {"group_id": other}}})
def connect3(doc, user_id, group_id):
    if group_id not in {x.get("group_id") for x in doc.group_details}:
        db.conn.update_one({"_id": user_id}, {"$push": {"group_details": {"group_id": group_id, "n": 1}}})
"#;
        let got: Vec<(usize, Severity)> = judged("case_events.py", src)
            .into_iter()
            .map(|(l, s, _)| (l, s))
            .collect();
        assert_eq!(
            got,
            [
                (6, Severity::Info),
                (9, Severity::Info),
                (11, Severity::Warning),
                (15, Severity::Warning),
                (21, Severity::Info),
                (25, Severity::Warning),
                (28, Severity::Info)
            ]
        );
    }

    /// A computed key written as a template (bitcore's TSS sessions, `[`rounds.${round}`]`) is
    /// named in the message by its template, without the brackets and backquotes.
    /// An update operator's own document built member by member under the operator's name
    /// (wildduck's `let $push = {}; $push.oldPasswords = {..}`, then `{ $push }`) is read with
    /// its members: its array is named, and a literal added to a set is no growth.
    #[test]
    fn an_operator_document_built_by_members_is_read() {
        let js = r#"const { MongoClient } = require("mongodb");
async function password(db, user, h) {
  let $push = {};
  $push.oldPasswords = { date: new Date(), hash: h };
  await db.collection("users").findOneAndUpdate({ _id: user }, { $push });
}
async function reply(db, q) {
  let $addToSet = {};
  $addToSet.flags = "\\Answered";
  await db.collection("messages").findOneAndUpdate(q, { $addToSet });
}
async function tags(db, q, key, v) {
  let $addToSet = {};
  $addToSet[key] = v;
  await db.collection("messages").findOneAndUpdate(q, { $addToSet });
}
"#;
        let got = findings("users.js", js);
        assert_eq!(
            got.iter().map(|g| g.0).collect::<Vec<_>>(),
            vec![5, 15],
            "{got:?}"
        );
    }

    /// An update a function of the file takes as a parameter is what each call writes out
    /// (openwhyd's `updateNotif(q, p)`, overleaf's `updateUser(query, update)`): the push is
    /// reported at the call. Not: a call that forwards its own parameter, a push the call bounds
    /// with `$slice`, a function that runs no operation, or a call of the function from inside.
    #[test]
    fn an_update_given_to_a_function_of_the_file_is_its_operation_at_the_call() {
        let js = r#"const db = require("./db");
function updateNotif(q, p, cb) {
  p.$set = p.$set || {};
  db.collection("notif").updateOne(q, p, { upsert: true }).then(cb);
}
function plain(q, p) {
  return p;
}
exports.reply = function (post, uid) {
  updateNotif({ _id: post._id + "/replies" }, { $set: { href: "/c/" + post._id }, $addToSet: { uId: uid } });
};
exports.forward = function (q, p) {
  updateNotif(q, p);
};
exports.recent = function (post, uid) {
  const update = { $push: { seen: { $each: [uid], $slice: -20 } } };
  updateNotif({ _id: post._id }, update);
  plain({ _id: post._id }, { $push: { log: uid } });
};
"#;
        let got = findings("notif.js", js);
        assert_eq!(got, vec![(10, "$addToSet".to_string())], "{got:?}");
        // In Python, by position or by keyword, and through a method of the class.
        let py = r#"from pymongo import MongoClient
db = MongoClient().app
def update_user(query, update):
    return db.users.update_one(query, update)
class Notifs:
    def _update(self, q, p):
        db.notif.update_one(q, p, upsert=True)
    def reply(self, post, uid):
        self._update({"_id": post}, {"$addToSet": {"uId": uid}})
def add_email(uid, email):
    update_user({"_id": uid}, update={"$push": {"emails": email}})
def forward(q, u):
    update_user(q, u)
def recent(uid, e):
    update_user({"_id": uid}, {"$push": {"seen": {"$each": [e], "$slice": -20}}})
"#;
        let got = findings("notif.py", py);
        assert_eq!(
            got,
            vec![
                (9, r#""$addToSet""#.to_string()),
                (11, r#""$push""#.to_string())
            ],
            "{got:?}"
        );
    }

    #[test]
    fn a_template_key_is_named_by_its_template() {
        let src = r#"const { MongoClient } = require("mongodb");
async function addMessage(db, id, message) {
  await db.collection("tss_sign").updateOne({ id }, { $push: { [`rounds.${message.round}`]: message } });
}
"#;
        let got = judged("storage.js", src);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(
            got[0]
                .2
                .contains("array `rounds.${message.round}` in `tss_sign`"),
            "{got:?}"
        );
    }

    /// In `doc!`, a bare name as a key is the variable's value (Prisma's `{ field_name: {
    /// "$each": ids } }`): the message names the array as JavaScript's computed `[field]`, not
    /// as a field spelt `field_name`.
    #[test]
    fn a_rust_key_named_by_a_variable_is_computed() {
        let src = r#"use mongodb::{bson::{doc, Document}, Database};
async fn connect(db: &Database, id: Bson, field_name: &str, ids: Vec<Bson>) {
    let posts = db.collection::<Document>("posts");
    posts.update_one(doc! { "_id": id }, doc! { "$addToSet": { field_name: { "$each": ids } } }, None).await;
}
"#;
        let got = judged("src/m2m.rs", src);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].2.contains("array `[field_name]`"), "{got:?}");
    }

    /// `$addToSet` takes no `$slice`: its help points to a collection of members or a cap in
    /// the filter, where a `$push`'s points to `$each` + `$slice`.
    #[test]
    fn the_help_of_a_set_is_not_a_slice() {
        let src = r#"from pymongo import MongoClient
db = MongoClient().app
def ban(uid, entry):
    db.cache.update_one({"_id": "bl_users"}, {"$addToSet": {"user_ids": uid}})
    db.cache.update_one({"_id": "log"}, {"$push": {"entries": entry}})
"#;
        let (_, f) =
            crate::analysis::check_source("bot/mongo.py", src, &Settings::default()).unwrap();
        let helps: Vec<&str> = f.iter().map(|f| f.help.as_str()).collect();
        assert_eq!(helps.len(), 2, "{f:?}");
        assert!(
            helps[0].starts_with("move the members to their own collection"),
            "{helps:?}"
        );
        assert!(!helps[0].contains("$slice"), "{helps:?}");
        assert!(helps[1].contains("`$each` + `$slice`"), "{helps:?}");
    }

    /// In Python too, a key that is no string is computed (fame's `{self._mongo_field(names):
    /// value}`, newsroom's `{action_list: user_id}`): shown as `[field]`, not as a field spelt
    /// `field`; an f-string key is shown as its template.
    #[test]
    fn a_python_key_named_by_an_expression_is_computed() {
        let src = r#"from pymongo import MongoClient
db = MongoClient().app
def append_to(names, value, field):
    db.analysis.update_one({'_id': 1}, {'$addToSet': {mongo_field(names): value}})
    db.analysis.update_one({'_id': 1}, {'$push': {field: value}})
    db.analysis.update_one({'_id': 1}, {'$push': {f"logs.{field}": value}})
"#;
        let got = judged("fame/mongo_dict.py", src);
        let messages: Vec<&str> = got.iter().map(|g| g.2.as_str()).collect();
        assert_eq!(messages.len(), 3, "{got:?}");
        assert!(
            messages[0].contains("array `[mongo_field(names)]`"),
            "{got:?}"
        );
        assert!(
            messages[1].contains("array `[field]` in `analysis`"),
            "{got:?}"
        );
        assert!(
            messages[2].contains("array `f\"logs.{field}\"` in"),
            "{got:?}"
        );
    }

    /// Merging records swaps ids in the arrays that hold the old ones: an `$addToSet` (or
    /// `$push`) of the new id on the documents whose array holds the old one, then a `$pull` of
    /// the old one with the same filter, on the same receiver, in the same function. The array
    /// does not grow: not flagged. Without the `$pull`, with a `$pull` of another value or under
    /// another filter, or on another receiver, it grows: flagged.
    /// Reaction's job queue moves each resolved dependency from `depends` to `resolved` in one
    /// update: `resolved` grows only by what `depends` loses. What else the update pushes (`log`),
    /// or a push of another value than the one pulled, still grows.
    #[test]
    fn a_value_moved_from_another_array_does_not_grow_it() {
        let src = r#"from pymongo import MongoClient
db = MongoClient().jobs
def resolve(jid, ids, dep, other, entries):
    db.jobs.update_one({"_id": jid}, {"$pull": {"depends": {"$in": ids}}, "$push": {"resolved": {"$each": ids}, "log": {"$each": entries}}})
    db.jobs.update_one({"_id": jid}, {"$pull": {"depends": dep}, "$push": {"resolved": dep}})
    db.jobs.update_one({"_id": jid}, {"$pullAll": {"depends": ids}, "$push": {"resolved": {"$each": ids}}})
    db.jobs.update_one({"_id": jid}, {"$pull": {"depends": dep}, "$push": {"resolved": other}})
def accept(org, key, member, other):
    db.orgs.update_one({"id": org, "invites.key": key}, {"$pull": {"invites": {"key": key}}, "$push": {"members": member}})
    db.orgs.update_one({"id": org, "invites": key}, {"$pull": {"invites": key}, "$push": {"members": member}})
    db.orgs.update_one({"id": org, "invites.key": other}, {"$pull": {"invites": {"key": key}}, "$push": {"members": member}})
    db.orgs.update_one({"id": org}, {"$pull": {"invites": {"key": key}}, "$push": {"members": member}})
    db.orgs.update_one({"id": org, "invites.key": key}, {"$pull": {"invites": {"key": key}}, "$push": {"members": {"$each": member}}})
"#;
        let got = judged("jobs.py", src);
        let lines: Vec<usize> = got.iter().map(|f| f.0).collect();
        // An invitation accepted: the filter requires the element the update pulls, so the
        // member pushed replaces it (lines 9, 10). Not when the filter requires another element,
        // none, or when more than one value is pushed.
        assert_eq!(lines, [4, 7, 11, 12, 13], "{got:?}");
        assert!(
            got[0].2.contains("`log`") && !got[0].2.contains("`resolved`"),
            "{got:?}"
        );
    }

    /// erxes's custom permissions (here an array of settings, which no catalogue of roles
    /// bounds): the entry for a module is pulled, then the new one pushed, so the array holds one
    /// entry per module: info, as an `$addToSet`. A pull of another value's key, or one after the
    /// push, leaves the push growing the array.
    #[test]
    fn a_push_after_pulling_its_key_replaces_an_entry() {
        let src = r#"import mongoose from "mongoose";
const Users = mongoose.model("User", new mongoose.Schema({}));
export async function setPermission(userId, permission) {
  await Users.updateOne({ _id: userId }, { $pull: { customSettings: { module: permission.module } } });
  await Users.updateOne({ _id: userId }, { $push: { customSettings: permission } });
}
export async function addGrant(userId, grant, other) {
  await Users.updateOne({ _id: userId }, { $pull: { grants: { module: other.module } } });
  await Users.updateOne({ _id: userId }, { $push: { grants: grant } });
}
export async function addLog(userId, entry) {
  await Users.updateOne({ _id: userId }, { $push: { logs: entry } });
  await Users.updateOne({ _id: userId }, { $pull: { logs: { id: entry.id } } });
}
"#;
        let got = judged("permissions.ts", src);
        use crate::diagnostic::Severity::{Info, Warning};
        let summary: Vec<_> = got.iter().map(|g| (g.0, g.1)).collect();
        assert_eq!(
            summary,
            vec![(5, Info), (9, Warning), (12, Warning)],
            "{got:?}"
        );
        assert!(got[0].2.contains("`$pull`s first"), "{got:?}");
    }

    #[test]
    fn a_value_swapped_for_the_one_pulled_does_not_grow_the_array() {
        let src = r#"const mongoose = require("mongoose");
const Tag = mongoose.model("Tag", new mongoose.Schema({ ids: [String] }));
const Rule = mongoose.model("Rule", new mongoose.Schema({ rules: [{ ids: [String] }] }));
async function merge(models, { model, path }, oldIds, newId) {
  await models[model].updateMany({ [path]: { $in: oldIds } }, { $addToSet: { [path]: newId } });
  await models[model].updateMany({ [path]: { $in: oldIds } }, { $pull: { [path]: { $in: oldIds } } });
}
async function swap(oldId, newId) {
  await Tag.updateMany({ ids: { $in: [oldId] } }, { $push: { ids: newId } });
  await Tag.updateMany({ ids: { $in: [oldId] } }, { $pull: { ids: oldId } });
  await Rule.updateMany({ "rules.ids": oldId }, { $addToSet: { "rules.$[r].ids": newId } }, { arrayFilters: [{ "r.ids": oldId }] });
  await Rule.updateMany({ "rules.ids": oldId }, { $pull: { "rules.$[r].ids": oldId } }, { arrayFilters: [{ "r.ids": oldId }] });
}
async function grow(oldId, newId, otherId) {
  await Tag.updateMany({ ids: oldId }, { $push: { ids: newId } });
  await Tag.updateMany({ ids: oldId }, { $pull: { ids: otherId } });
  await Tag.updateMany({ ids: oldId }, { $push: { ids: newId } });
  await Tag.updateMany({ _id: oldId }, { $pull: { ids: oldId } });
  await Tag.updateMany({ ids: oldId }, { $push: { ids: newId } });
  await Rule.updateMany({ ids: oldId }, { $pull: { ids: oldId } });
}
"#;
        let lines: Vec<usize> = findings("merge.js", src).iter().map(|f| f.0).collect();
        assert_eq!(lines, [15, 17, 19]);
    }

    /// growthbook's revisions: the update is returned by a function of the file, `const update =
    /// (lock) => ({ $set: .., $push: { activityLog: entry } })`, and sent as `update(true)`.
    #[test]
    fn an_update_returned_by_a_function_of_the_file_is_read() {
        let src = r#"import { MongoClient } from "mongodb";
const revisions = new MongoClient("x").db("app").collection("revisions");
export async function reopen(id, userId, lock) {
  const update = (lockOthers) => ({
    $set: { locked: lockOthers },
    $push: { activityLog: { userId, action: "reopened" } },
  });
  await revisions.updateOne({ id, status: "merged" }, update(lock));
}
function renaming(n) {
  return { $set: { name: n } };
}
export async function rename(id, name) {
  await revisions.updateOne({ id }, renaming(name));
}
"#;
        let got = findings("revisions.js", src);
        assert_eq!(got.iter().map(|f| f.0).collect::<Vec<_>>(), [6], "{got:?}");
        assert_eq!(got[0].1, "$push", "{got:?}");
    }

    /// Meteor's login: an unhashed resume token is replaced by its hashed form, `$addToSet` under
    /// a filter that requires the old token, then `$pull` of that token under the user's id
    /// alone (a bare id selector, or `{_id}`). A pull of another token, or under another id,
    /// leaves the array grown.
    #[test]
    fn an_element_swapped_under_a_narrower_filter_does_not_grow_the_array() {
        let src = r#"import { Mongo } from "meteor/mongo";
const Users = new Mongo.Collection("users");
async function rehash(user, old, hashed, when) {
  await Users.updateAsync({ _id: user._id, "services.resume.loginTokens.token": old }, { $addToSet: { "services.resume.loginTokens": { hashedToken: hashed, when } } });
  await Users.updateAsync(user._id, { $pull: { "services.resume.loginTokens": { token: old } } });
}
async function rehashById(user, old, hashed) {
  await Users.updateAsync({ _id: user._id, "tokens.token": old }, { $addToSet: { tokens: { hashed } } });
  await Users.updateAsync({ _id: user._id }, { $pull: { tokens: { token: old } } });
}
async function grow(user, other, old, hashed) {
  await Users.updateAsync({ _id: user._id, "tokens.token": old }, { $addToSet: { tokens: { hashed } } });
  await Users.updateAsync(user._id, { $pull: { tokens: { token: hashed } } });
  await Users.updateAsync({ _id: user._id, "keys.token": old }, { $addToSet: { keys: { hashed } } });
  await Users.updateAsync(other._id, { $pull: { keys: { token: old } } });
  await Users.updateAsync({ _id: user._id, "links.token": old }, { $addToSet: { links: { hashed } } });
  await Users.updateAsync({ _id: user._id }, { $pull: { links: { token: old, extra: 1 } } });
}
"#;
        let lines: Vec<usize> = findings("accounts.js", src).iter().map(|f| f.0).collect();
        assert_eq!(lines, [12, 14, 16]);
    }

    /// Sefaria's sheet graph: the array cleared (`$unset`, `$set`) and filled again by the same
    /// function, on the same document (in a loop too), or in every document, holds what that
    /// function pushes. Cleared only after the push, on another filter or another array, it grows.
    #[test]
    fn an_array_cleared_then_filled_again_is_rebuilt() {
        let src = r#"from pymongo import MongoClient
db = MongoClient().sefaria

def save_graph(sheet_id, nodes, zoom):
    db.sheets.update_one({"id": sheet_id}, {"$unset": {"visualNodes": "", "zoom": ""}})
    db.sheets.update_one({"id": sheet_id}, {"$push": {"visualNodes": {"$each": nodes}}, "$set": {"zoom": zoom}})

def reset_tags(sheet_id, tags):
    db.sheets.update_one({"id": sheet_id}, {"$set": {"tags": []}})
    for t in tags:
        db.sheets.update_one({"id": sheet_id}, {"$push": {"tags": t}})

def grow(sheet_id, other_id, node):
    db.sheets.update_one({"id": sheet_id}, {"$push": {"visualNodes": node}})
    db.sheets.update_one({"id": sheet_id}, {"$unset": {"visualNodes": ""}})
    db.sheets.update_one({"id": other_id}, {"$unset": {"visualNodes": ""}})
    db.sheets.update_one({"id": sheet_id}, {"$push": {"visualNodes": node}})
    db.sheets.update_one({"id": sheet_id}, {"$unset": {"zoom": ""}})
    db.sheets.update_one({"id": sheet_id}, {"$push": {"history": node}})

def regroup(groups):
    db.products.update_many({}, {"$unset": {"same_masks": ""}})
    for mask, ids in groups:
        db.products.update_many({"_id": {"$in": ids}}, {"$addToSet": {"same_masks": mask}})
def regroup_some(groups):
    db.products.update_many({"kind": "a"}, {"$unset": {"same_masks": ""}})
    for mask, ids in groups:
        db.products.update_many({"_id": {"$in": ids}}, {"$addToSet": {"same_masks": mask}})
"#;
        // (erxes's product similarity groups: cleared in every document, `{}`, then filled.)
        let lines: Vec<usize> = findings("sheets.py", src).iter().map(|f| f.0).collect();
        assert_eq!(lines, [14, 19, 28]);
    }

    /// An update operator set on the update dictionary after it is written (`update["$push"] =
    /// {..}`: ChatterBot's tags; `spec["$addToSet"]["times"] = ..`,
    /// `spec.setdefault("$addToSet", {})["sports"] = ..`: ivre's flows) is part of the update the
    /// call sends. A filter's keys set the same way are not read (they are often conditional).
    #[test]
    fn python_update_operators_set_after_the_update_is_written() {
        let src = r#"import pymongo
db = pymongo.MongoClient().app
def add_line(post_id, line):
    update = {"$set": {"seen": True}}
    update["$push"] = {"log": line}
    db.posts.update_one({"_id": post_id}, update)
def flows(rec):
    spec = {"$min": {"firstseen": rec["start"]}}
    spec.setdefault("$addToSet", {})["sports"] = rec["sport"]
    spec["$addToSet"]["times"] = {"$each": rec["times"]}
    db.flows.update_one({"src": rec["src"]}, spec, upsert=True)
def later(post_id, line):
    update = {"$set": {"seen": True}}
    db.posts.update_one({"_id": post_id}, update)
    update["$push"] = {"log": line}
"#;
        let (_, f) = crate::analysis::check_source("app.py", src, &Settings::default()).unwrap();
        let got: Vec<(usize, &str)> = f
            .iter()
            .filter(|f| f.rule == "unbounded-push")
            .map(|f| {
                (
                    src[..f.span.start as usize].lines().count(),
                    f.message.as_str(),
                )
            })
            .collect();
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[0].0, 5, "{got:?}");
        assert!(
            got[1].1.contains("arrays `sports` and `times` in `flows`"),
            "{got:?}"
        );
    }

    /// A Rust `let` is seen in the rest of its block only, and a `for` loop's variable shadows
    /// it in the loop's body: the collection named by `catalog` in the second loop is the loop's
    /// variable, not the `let catalog` of the first loop's body (boom's crossmatch).
    #[test]
    fn a_rust_let_does_not_outlive_its_block() {
        let src = r#"use mongodb::{bson::{doc, Bson, Document}, Database};
pub async fn record(db: &Database, rows: Vec<Document>, names: Vec<String>, id: &str) -> mongodb::error::Result<()> {
    for row in rows {
        let catalog = row.get_str("catalog").unwrap_or_default();
        println!("{catalog}");
    }
    for catalog in names {
        let coll = db.collection::<Document>(&catalog);
        coll.update_many(doc! { "k": 1 }, doc! { "$addToSet": { "matches": id } }).await?;
    }
    Ok(())
}
"#;
        let (_, f) =
            crate::analysis::check_source("src/lib.rs", src, &Settings::default()).unwrap();
        let f: Vec<&str> = f.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(
            f[0].contains("in the collection named by `catalog`"),
            "{f:?}"
        );
    }

    /// An update that is one of several documents the code writes (in the branches of an `if`,
    /// or a conditional expression) sends, on some runs, the one that grows an array:
    /// superdesk newsroom's `updates = {"$addToSet": {..}}` / `{"$pull": {..}}` toggles, and the
    /// same in JavaScript. A name given no such document is read as before.
    #[test]
    fn an_update_chosen_among_documents_is_read_for_the_one_that_grows() {
        let py = r#"from pymongo import MongoClient
db = MongoClient().app
def bookmark(item_id, user_id, post):
    if post:
        updates = {"$addToSet": {"bookmarks": user_id}}
    else:
        updates = {"$pull": {"bookmarks": user_id}}
    db.items.update_one({"_id": item_id}, updates)
def log_visit(item_id, user_id, add):
    updates = {"$push": {"log": user_id}} if add else {"$set": {"seen": True}}
    db.items.update_one({"_id": item_id}, updates)
def seen(item_id, a):
    updates = {"$set": {"a": a}} if a else {"$unset": {"a": 1}}
    db.items.update_one({"_id": item_id}, updates)
"#;
        let lines: Vec<usize> = findings("utils.py", py).iter().map(|f| f.0).collect();
        assert_eq!(lines, [5, 10]);
        let js = r#"const { MongoClient } = require("mongodb");
async function log(db, itemId, userId, add) {
  let update;
  if (add) { update = { $push: { log: userId } }; } else { update = { $set: { seen: true } }; }
  await db.collection("items").updateOne({ _id: itemId }, update);
}
async function vote(db, itemId, userId, up) {
  await db.collection("items").updateOne({ _id: itemId }, up ? { $addToSet: { up: userId } } : { $pull: { up: userId } });
}
"#;
        let lines: Vec<usize> = findings("log.js", js).iter().map(|f| f.0).collect();
        assert_eq!(lines, [4, 8]);
    }

    /// An `$addToSet` whose filter requires the value to be in the array already or in one the
    /// update pulls it from moves it (overleaf's change of a collaborator's privilege level); a
    /// toggle whose filter asks nothing of the arrays (a vote moved from `negative` to
    /// `positive`) still adds new values, at info.
    #[test]
    fn an_add_to_set_the_filter_requires_to_move_is_no_growth() {
        let src = r#"const { MongoClient } = require("mongodb");
async function setLevel(db, projectId, userId) {
  await db.collection("projects").updateOne(
    { _id: projectId, $or: [{ editors: userId }, { readers: userId }] },
    { $pull: { readers: userId }, $addToSet: { editors: userId } });
}
async function promote(db, projectId, userId) {
  await db.collection("projects").updateOne(
    { _id: projectId, readers: userId },
    { $pull: { readers: userId }, $addToSet: { editors: userId } });
}
async function vote(db, cardId, userId) {
  await db.collection("cards").updateOne(
    { _id: cardId },
    { $pull: { "vote.negative": userId }, $addToSet: { "vote.positive": userId } });
}
"#;
        let lines: Vec<usize> = findings("projects.js", src).iter().map(|f| f.0).collect();
        assert_eq!(lines, [15]);
    }
}
