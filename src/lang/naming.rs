//! Language-neutral knowledge about names: what a hole in a collection name looks like
//! (a date, an entity id, configuration), and how Mongoose turns a model name into a collection name.

use crate::ir::HoleKind;

/// What follows the last `sep` in `text` (all of it without one): `a.b.c` → `c`, as
/// `text.rsplit(sep).next()` gives it. Its searcher cost about 170 instructions a call, and the
/// frontends ask this of every call's callee (12 M instructions on the 1M-line repository of
/// bench/, session 51).
pub fn last_part(text: &str, sep: u8) -> &str {
    debug_assert!(sep.is_ascii());
    match memchr::memrchr(sep, text.as_bytes()) {
        // (An ASCII byte: `i + 1` is a character boundary.)
        Some(i) => &text[i + 1..],
        None => text,
    }
}

/// A constant's name by convention: `COL_USERS`, `TIMEOUT_2`.
pub fn is_constant_name(name: &str) -> bool {
    name.chars().any(|c| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// Splits an identifier or expression text into lowercase words: `tenantId` → `tenant`, `id`;
/// `created_at.strftime` → `created`, `at`, `strftime` (a word longer than [`WORD_MAX`] bytes cut
/// as [`for_each_word`] cuts it).
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_word(text, |w| {
        out.push(w.to_string());
        false
    });
    out
}

/// A name as code writes it: letters, digits and `_`, not starting with a digit (`results_db`,
/// `SYSTEM_ARCHIVED`); no member, call or subscript.
pub fn is_name(t: &str) -> bool {
    !t.is_empty()
        && t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !t.as_bytes()[0].is_ascii_digit()
}

/// Calls `f` with each word of `text`, as `words` splits and lowercases it, until `f` returns
/// true; returns whether it did. Allocates nothing: a word longer than [`WORD_MAX`] bytes is
/// handed over as its first `WORD_MAX` bytes followed by `~` (no vocabulary word is that long).
pub fn for_each_word(text: &str, mut f: impl FnMut(&str) -> bool) -> bool {
    let mut buf = [0u8; WORD_MAX + 1];
    let mut len = 0;
    let mut prev_lower = false;
    let mut flush = |buf: &[u8; WORD_MAX + 1], len: &mut usize| {
        let n = std::mem::take(len);
        // SAFETY: `buf` holds only ASCII letters, digits and `~`.
        n > 0 && f(unsafe { std::str::from_utf8_unchecked(&buf[..n.min(WORD_MAX + 1)]) })
    };
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() {
            if b.is_ascii_uppercase() && prev_lower && len > 0 && flush(&buf, &mut len) {
                return true;
            }
            prev_lower = b.is_ascii_lowercase() || b.is_ascii_digit();
            if len < WORD_MAX {
                buf[len] = b.to_ascii_lowercase();
            } else {
                buf[WORD_MAX] = b'~';
            }
            len += 1;
        } else {
            if flush(&buf, &mut len) {
                return true;
            }
            prev_lower = false;
        }
    }
    flush(&buf, &mut len)
}

/// The longest word [`for_each_word`] hands over whole.
const WORD_MAX: usize = 40;

const CONFIG_WORDS: &[&str] = &[
    "env", "environ", "config", "settings", "conf", "cfg", "options", "opts", "getenv",
];
const DATE_WORDS: &[&str] = &[
    "date",
    "day",
    "days",
    "daily",
    "month",
    "monthly",
    "year",
    "yearly",
    "week",
    "weekly",
    "hour",
    "hourly",
    "today",
    "yesterday",
    "tomorrow",
    "yyyy",
    "yyyymm",
    "yyyymmdd",
    "ymd",
    "strftime",
    "toisostring",
    "getfullyear",
    "getmonth",
    "getdate",
    "getutcfullyear",
    "getutcmonth",
    "getutcdate",
    "moment",
    "dayjs",
    "datetime",
    "chrono",
    "utc",
    "now",
    "timestamp",
    "period",
    "quarter",
    "todatestring",
    "tolocaledatestring",
    "isoformat",
    "luxon",
];
const ENTITY_WORDS: &[&str] = &[
    "tenant",
    "user",
    "org",
    "organization",
    "organisation",
    "customer",
    "account",
    "shop",
    "store",
    "company",
    "workspace",
    "team",
    "merchant",
    "vendor",
    "partner",
    "owner",
    "member",
    "client",
    "project",
    "site",
    "uid",
    "player",
    "device",
    "school",
    "group",
    // Telegram bots' `grp_id`.
    "grp",
    "channel",
    "guild",
    "room",
];

/// Classifies the text of a hole (the expression and, when it is a name bound to a value, that value too).
/// `BOT.ID`, `Settings.PREFIX`, `TENANT_PREFIX`: a name spelled like a constant is fixed per
/// deployment, not per entity or per date.
fn is_constant_path(text: &str) -> bool {
    let last = text.trim().rsplit(['.', ':']).next().unwrap_or("");
    last.len() >= 2 && is_constant_name(last)
}

pub fn classify_hole(texts: &[&str]) -> HoleKind {
    let mut kind = HoleKind::Unknown;
    for text in texts {
        let ws = words(&without_string_contents(text));
        if ws.iter().any(|w| CONFIG_WORDS.contains(&w.as_str())) || is_constant_path(text) {
            return HoleKind::Config;
        }
        // `%Y`, `%m`, `%d` or `YYYY` (by bytes: four substring searches per hole cost 3 M
        // instructions on the 1M-line repository of bench/, session 51).
        let b = text.as_bytes();
        let has_date_format = memchr::memchr_iter(b'%', b)
            .any(|i| matches!(b.get(i + 1), Some(b'Y' | b'm' | b'd')))
            || memchr::memchr_iter(b'Y', b).any(|i| b[i..].starts_with(b"YYYY"));
        if has_date_format || ws.iter().any(|w| DATE_WORDS.contains(&w.as_str())) {
            kind = HoleKind::Date;
        } else if kind == HoleKind::Unknown && !generates_an_id(text) && names_an_entity(text) {
            kind = HoleKind::Entity;
        }
    }
    kind
}

/// Words that, last in a name, make it name a kind of entity rather than one: `userModel`,
/// `userType`, `accountKind` are one of a few fixed values (idurar's `userModel` is `'Admin'`);
/// `accountCollection`, `user_table` name the one collection of a kind of entity.
const KIND_WORDS: &[&str] = &[
    "model",
    "models",
    "type",
    "types",
    "kind",
    "kinds",
    "class",
    "schema",
    "collection",
    "collections",
    "coll",
    "table",
    "tables",
];

/// Whether a name in `text` (its string literals left out) holds an entity word, other than a
/// name of a kind of entity (see [`KIND_WORDS`]).
fn names_an_entity(text: &str) -> bool {
    let text = without_string_contents(text);
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        .any(|name| {
            let ws = words(name);
            ws.last().is_none_or(|w| !KIND_WORDS.contains(&w.as_str()))
                && ws.iter().any(|w| ENTITY_WORDS.contains(&w.as_str()))
        })
        || names_an_app(&text)
}

/// An application's id (`app_id`, `appId`, `app._id`, `params.qstring.app_id`): one of the apps
/// a multi-application platform serves (Countly's `"app_users" + appId`), each its tenant. An
/// `app` alone (`appName`, `app.name`) is the deployment's own application, and so is a
/// constant's (`APP_ID`, a script's setting).
fn names_an_app(text: &str) -> bool {
    let b = text.as_bytes();
    memchr::memchr2_iter(b'a', b'A', b)
        .filter(|&i| b[i + 1..].starts_with(b"pp"))
        .any(|i| {
            let starts = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
            let rest = &b[i + 3..];
            const IDS: [&[u8]; 6] = [b"_id", b"Id", b"ID", b"id", b"._id", b".id"];
            let id = IDS.iter().find(|p| rest.starts_with(p));
            starts
                && id.is_some_and(|p| {
                    rest.get(p.len())
                        .is_none_or(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
                })
        })
}

/// `text` with the contents of its string literals left out, save a key in brackets
/// (`row["tenant_id"]`, a field the code reads): the words of a string the code writes are not
/// what the hole is (Countly's `"times_of_day"`, `sha1("[CLY]_apm_device" + APP_ID)`). Date
/// formats are read from the whole text. A template literal is kept whole.
fn without_string_contents(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains(['"', '\'']) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut before = ' ';
    while let Some(c) = chars.next() {
        out.push(c);
        if c != '"' && c != '\'' {
            if !c.is_whitespace() {
                before = c;
            }
            continue;
        }
        let keep = before == '[';
        let mut escaped = false;
        for d in chars.by_ref() {
            if escaped {
                escaped = false;
            } else if d == '\\' {
                escaped = true;
            } else if d == c {
                break;
            }
            if keep && !escaped {
                out.push(d);
            }
        }
        out.push(c);
        before = c;
    }
    std::borrow::Cow::Owned(out)
}

/// A call that makes a fresh random id: `uid(5)` (the `uid` packages and crate), `uid::uid(5)`,
/// `generateUid()`. Its `uid` is a unique id, not a user's: a name with it is a throwaway
/// collection (openstream's `__transactions_test_{uid::uid(5)}`), one per run, not per entity.
fn generates_an_id(text: &str) -> bool {
    let Some((callee, _)) = text.trim().split_once('(') else {
        return false;
    };
    let last = callee.rsplit(['.', ':']).next().unwrap_or(callee);
    if !last.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return false;
    }
    match words(last).as_slice() {
        [w] => w == "uid",
        [verb, w] => {
            w == "uid"
                && matches!(
                    verb.as_str(),
                    "generate" | "gen" | "new" | "random" | "make"
                )
        }
        _ => false,
    }
}

/// A segment of a member path (see [`reads_configuration`]).
#[derive(Debug, PartialEq)]
enum PathSegment<'a> {
    /// `a`, `.b`, `?.b`.
    Name(&'a str),
    /// `["key"]`, `[KEY]`: a key written in the code.
    Key,
    /// `name(..)`: a method called on what comes before.
    Call(&'a str),
}

/// Splits `os.environ["HOSTS"].split(",")` into its segments; `None` for anything but a path of
/// names, written keys and method calls (arithmetic, a lambda, a computed key).
fn path_segments(text: &str) -> Option<Vec<PathSegment<'_>>> {
    let b = text.as_bytes();
    let ident = |mut i: usize| {
        let start = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'$')) {
            i += 1;
        }
        (i > start && !b[start].is_ascii_digit()).then_some(i)
    };
    // The index just after the bracket that closes the one at `open`.
    let close = |open: usize, (o, c): (u8, u8)| {
        let mut depth = 0usize;
        for (k, &x) in b.iter().enumerate().skip(open) {
            if x == o {
                depth += 1;
            } else if x == c {
                depth -= 1;
                if depth == 0 {
                    return Some(k + 1);
                }
            }
        }
        None
    };
    let mut out = Vec::new();
    let end = ident(0)?;
    out.push(PathSegment::Name(&text[..end]));
    let mut i = end;
    while i < b.len() {
        match b[i] {
            b'.' | b'?' => {
                let start = if b[i] == b'?' {
                    (b.get(i + 1) == Some(&b'.')).then_some(i + 2)?
                } else {
                    i + 1
                };
                let end = ident(start)?;
                out.push(PathSegment::Name(&text[start..end]));
                i = end;
            }
            b'[' => {
                let end = close(i, (b'[', b']'))?;
                let key = text[i + 1..end - 1].trim();
                let quoted = key.len() >= 2
                    && key.starts_with(['"', '\'', '`'])
                    && key.ends_with(&key[..1])
                    && !key.contains("${");
                if !quoted && !is_constant_name(key) {
                    return None;
                }
                out.push(PathSegment::Key);
                i = end;
            }
            b'(' => {
                let Some(PathSegment::Name(name)) = out.pop() else {
                    return None;
                };
                out.push(PathSegment::Call(name));
                i = close(i, (b'(', b')'))?;
            }
            _ => return None,
        }
    }
    Some(out)
}

/// Whether an iterable is read from the application's configuration or environment:
/// `settings.app.dh_param_bits_pool`, `config.pools`, `app.config["POOLS"]`,
/// `current_app.config.get("POOLS")`, `os.environ["HOSTS"].split(",")`, `os.getenv("HOSTS")`,
/// `process.env.HOSTS.split(",")`, `self.settings.regions`. A path whose root (after `self`,
/// `this`, `os`, `process`, `app`, ...) is named as configuration is (the words of
/// [`classify_hole`]'s configuration holes, without `options` / `opts`, which are as often a
/// function's arguments), followed by what is read from it (a member, a written key, `.get(..)`)
/// and, at the end, views of that value (`.split(..)`, `.keys()`, `.items()`, `.iter()`).
/// A handful of values fixed per deployment, not data.
pub fn reads_configuration(text: &str) -> bool {
    let mut t = text.trim();
    for prefix in ["await ", "&mut ", "&"] {
        t = t.strip_prefix(prefix).unwrap_or(t).trim_start();
    }
    let Some(mut segments) = path_segments(t) else {
        return false;
    };
    while let Some(PathSegment::Call(name)) = segments.last() {
        if !matches!(
            *name,
            "split" | "keys" | "values" | "items" | "iter" | "into_iter" | "entries" | "copy"
        ) {
            break;
        }
        segments.pop();
    }
    let config_word = |w: &str| CONFIG_WORDS.contains(&w) && !matches!(w, "options" | "opts");
    let is_config = |name: &str| {
        let mut any = false;
        !for_each_word(name, |w| {
            any |= config_word(w);
            !(config_word(w) || matches!(w, "app" | "global" | "default" | "defaults"))
        }) && any
    };
    let Some(root) = segments.iter().position(|s| match s {
        PathSegment::Name(n) | PathSegment::Call(n) => is_config(n),
        PathSegment::Key => false,
    }) else {
        return false;
    };
    let scope = |s: &PathSegment| {
        matches!(
            s,
            PathSegment::Name(
                "self"
                    | "this"
                    | "cls"
                    | "os"
                    | "process"
                    | "app"
                    | "current_app"
                    | "flask"
                    | "django"
            )
        )
    };
    // Something read from it: `settings.x`, `environ["X"]`, `getenv("X")`.
    let read = matches!(segments[root], PathSegment::Call(_)) || root + 1 < segments.len();
    segments[..root].iter().all(scope)
        && read
        && segments[root + 1..].iter().all(|s| match s {
            // `Settings.objects`: the documents of a mongoengine or Django model, not its
            // configuration.
            PathSegment::Name(n) => *n != "objects",
            PathSegment::Key => true,
            PathSegment::Call(n) => matches!(*n, "get" | "getlist" | "get_list" | "getenv"),
        })
}

/// Whether `text` contains one of `needles` (lowercase ASCII) in any ASCII case: whether a word
/// that [`for_each_word`] hands over can be among words that start with them at all (such a word is
/// a run of the text's bytes, lowercased). The path tests below ask it first: splitting a path into
/// words, part by part, cost 17,000 instructions a call on long paths (bench/README.md, session 24).
fn mentions_any(text: &str, needles: &[&str]) -> bool {
    // The needles' first letters as bits (`a` is bit 0): most bytes are ruled out by one test.
    let firsts = needles
        .iter()
        .fold(0u32, |m, n| m | 1 << (n.as_bytes()[0] - b'a'));
    let b = text.as_bytes();
    (0..b.len()).any(|i| {
        let lower = b[i] | 0x20;
        let letter = lower.wrapping_sub(b'a');
        letter < 26
            && firsts & 1 << letter != 0
            && needles.iter().any(|n| {
                // The first letter, then the second, before the rest: most needles start with
                // another, and most that share the first letter differ in the second.
                let n = n.as_bytes();
                n[0] == lower
                    && b.len() - i >= n.len()
                    && (n.len() < 2 || (b[i + 1] | 0x20) == n[1])
                    && b[i + 1..i + n.len()].eq_ignore_ascii_case(&n[1..])
            })
    })
}

/// The stems of the words `path_is_periodic` looks for (see [`mentions_any`]).
const PERIODIC_STEMS: [&str; 8] = [
    "job",
    "cron",
    "batch",
    "nightly",
    "schedul",
    "rollup",
    "backfill",
    "reprocess",
];

/// The stems of the words `path_is_migration` looks for (see [`mentions_any`]).
const MIGRATION_STEMS: [&str; 4] = ["migrat", "updat", "upgrad", "normaliz"];

/// A file under jobs/, cron/, migrations/ (and the like, data update folders included), or named
/// for one (`cleanupJob.js`, `nightly_batch.py`), holds periodic batch code. Not a file named for
/// the data layer of a job entity, whose words name its role (`MongoJobRepository.ts`,
/// `job.model.ts`, `jobs.controller.js`) or that sits in such a folder (`models/job.js`): a job
/// board's jobs, or a queue's stored jobs, are data the requests read.
pub fn path_is_periodic(path: &str) -> bool {
    fn periodic_word(w: &str) -> bool {
        matches!(
            w,
            "jobs"
                | "job"
                | "cron"
                | "crons"
                | "cronjobs"
                | "batch"
                | "nightly"
                | "scheduled"
                | "scheduler"
                | "rollup"
                | "backfill"
                | "reprocess"
        )
    }
    if path_is_migration(path) {
        return true;
    }
    // A file named for a run on a period (erxes' `worker/hourlyRunner.ts`, a `dailyDigestJob.js`,
    // `weekly_cleanup.py`): the period and a run's word. (A period alone names data too: a
    // `dailyStats.ts` handler.)
    let file = last_part(path, b'/');
    if for_each_word(file, |w| {
        matches!(w, "hourly" | "daily" | "weekly" | "monthly")
    }) && for_each_word(file, |w| {
        matches!(
            w,
            "runner" | "run" | "job" | "task" | "tasks" | "worker" | "digest" | "cleanup" | "sync"
        )
    }) {
        return true;
    }
    if !mentions_any(path, &PERIODIC_STEMS) {
        return false;
    }
    let (folders, file) = path.rsplit_once('/').unwrap_or(("", path));
    // A folder named for jobs alone under one that handles requests or holds the data layer
    // (`routes/jobs/index.js`: Strider's CI jobs, an entity the requests read) is the entity's.
    let request_folder = |p: &str| {
        matches!(
            p,
            "routes" | "routers" | "controllers" | "resolvers" | "handlers" | "models"
        )
    };
    let parts: Vec<&str> = folders.split('/').collect();
    parts.iter().enumerate().any(|(i, part)| {
        let not_only_jobs = for_each_word(part, |w| !matches!(w, "job" | "jobs"));
        for_each_word(part, periodic_word)
            && (not_only_jobs || !parts[..i].iter().any(|p| request_folder(p)))
    }) || (for_each_word(file, periodic_word)
        && !for_each_word(file, is_data_layer_role)
        && !folders.split('/').any(|part| {
            matches!(
                part,
                "models"
                    | "model"
                    | "schemas"
                    | "schema"
                    | "entities"
                    | "repositories"
                    | "controllers"
                    | "routes"
                    | "routers"
                    | "resolvers"
                    | "dao"
            )
        }))
}

/// Whether a file that [`path_is_periodic`] calls periodic only for its name, a job's name alone
/// (`lib/jobs.js`, `job.py`), is rather the module of a job entity: it binds `Job` or `Jobs` (`binds`
/// says whether the file binds a name), the model of the jobs it reads (Strider's `const Job =
/// require('./models').Job`: its CI jobs, which requests list). A batch file of jobs
/// (`src/jobs.ts` defining `agenda.define(..)`s) has no such name.
pub fn names_job_entity(path: &str, binds: impl Fn(&str) -> bool) -> bool {
    let (folders, file) = path.rsplit_once('/').unwrap_or(("", path));
    let (stem, extension) = file.split_once('.').unwrap_or((file, ""));
    !stem.is_empty()
        && !for_each_word(stem, |w| !matches!(w, "job" | "jobs"))
        && (binds("Job") || binds("Jobs"))
        && !path_is_periodic(&format!("{folders}/index.{extension}"))
}

/// A word of a file name that names its part in an application's data layer or request handling
/// (`Repository`, `model`, `controller`): the file is named for an entity, not for a batch run.
fn is_data_layer_role(w: &str) -> bool {
    matches!(
        w,
        "model"
            | "models"
            | "schema"
            | "schemas"
            | "repository"
            | "repositories"
            | "repo"
            | "dao"
            | "entity"
            | "dto"
            | "service"
            | "services"
            | "controller"
            | "controllers"
            | "route"
            | "routes"
            | "router"
            | "resolver"
            | "resolvers"
            | "logger"
            | "store"
            | "types"
            | "api"
    )
}

/// A file of the steps that migrate stored data between releases: under `migrations/` (or named
/// for a migration), a data update folder, schema upgrade steps.
pub fn path_is_migration(path: &str) -> bool {
    if names_release_step(last_part(path, b'/')) {
        return true;
    }
    // Every word below starts with one of these.
    if !mentions_any(path, &MIGRATION_STEMS) {
        return false;
    }
    let folders = path.rsplit_once('/').map_or("", |(dir, _)| dir);
    let mut parent = "";
    let data_updates = folders.split('/').any(|part| {
        let found = is_data_updates_folder(parent, part) || is_data_normalization_folder(part);
        parent = part;
        found
    });
    data_updates
        || path.split('/').any(|part| {
            is_schema_upgrade(part)
                || for_each_word(part, |w| {
                    matches!(w, "migrations" | "migration" | "migrate")
                })
        })
}

/// A file named for the step that brings stored data to a release: `init`, `upgrade` or
/// `migrate`, then the release's version (FastGPT's `initv4823.ts`, run once by the operator
/// after upgrading; `upgrade_v2.py`, `migrate-1.4.0.js`). Not the word alone (`init.ts`), nor a
/// version alone (`v1.ts`, a version of an API).
fn names_release_step(file: &str) -> bool {
    // (Most names are ruled out by their first letter.)
    if !matches!(
        file.as_bytes().first().map(|b| b | 0x20),
        Some(b'i' | b'u' | b'm')
    ) {
        return false;
    }
    let stem = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
    let Some(rest) = ["init", "upgrade", "migrate"].iter().find_map(|p| {
        stem.get(..p.len())
            .filter(|head| head.eq_ignore_ascii_case(p))
            .map(|_| &stem[p.len()..])
    }) else {
        return false;
    };
    let rest = rest.trim_start_matches(['-', '_']);
    let rest = rest.strip_prefix(['v', 'V']).unwrap_or(rest);
    rest.starts_with(|c: char| c.is_ascii_digit())
        && rest
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '_' | '-'))
}

/// A folder of the scripts that update stored data between releases, a migrations folder by
/// another name: superdesk's `data_updates/`, formio's `db/updates/` (`2.4.1.js`, ...). "Updates"
/// alone is not enough (`client/updates/` of a feed); nor is a file (`db/updates.js` may hold the
/// application's own update helpers).
fn is_data_updates_folder(parent: &str, part: &str) -> bool {
    const STORED: [&str; 5] = ["db", "database", "data", "mongo", "mongodb"];
    let stored = |w: &str| STORED.iter().any(|s| w.eq_ignore_ascii_case(s));
    let (mut updates, mut stored_here) = (false, false);
    for_each_word(part, |w| {
        updates |= matches!(w, "update" | "updates");
        stored_here |= stored(w);
        false
    });
    updates && (stored_here || stored(parent))
}

/// A folder of steps that normalise stored data, run once at start-up or by hand: GROWI's
/// `normalize-data/` (`convert-null-to-empty-granted-arrays.ts`), `data-normalization/`. A file so
/// named is not enough (`normalizeData.ts` may be a request's input cleaning), nor is a folder
/// that names no stored data (`utils/normalize/`).
fn is_data_normalization_folder(part: &str) -> bool {
    names_step_on_stored_data(part, |w| {
        matches!(
            w,
            "normalize" | "normalization" | "normalise" | "normalisation"
        )
    })
}

/// A file or folder named for the steps that upgrade stored data between releases, a migration
/// by another name: `schemaUpgradeSteps.js`, `db_upgrade.py`, `data-upgrades/`. "Upgrade" alone
/// is not enough (`UpgradePlanButton.tsx`, `routes/upgrade.js` of a billing plan).
fn is_schema_upgrade(part: &str) -> bool {
    names_step_on_stored_data(part, |w| matches!(w, "upgrade" | "upgrades"))
}

/// Whether `part`'s words hold both a step's word (`step`) and one that names stored data
/// (`schema`, `db`, `data`, ..).
fn names_step_on_stored_data(part: &str, step: impl Fn(&str) -> bool) -> bool {
    let (mut stepped, mut stored) = (false, false);
    for_each_word(part, |w| {
        stepped |= step(w);
        stored |= matches!(
            w,
            "schema" | "db" | "database" | "data" | "mongo" | "mongodb"
        );
        stepped && stored
    })
}

/// A function named like a periodic or one-off job: `nightlyRollup`, `run_cron`,
/// `backfill_counts`, a database seeder (meanjs's `ArticleSchema.statics.seed = seed`).
pub fn name_is_periodic(name: &str) -> bool {
    name_is_periodic_in(name, false)
}

/// A file that answers requests: under a folder (or named) for routes, controllers, GraphQL
/// resolvers, request handlers or views (`graphql/resolvers/queries/report.ts`, `views.py`).
pub fn path_handles_requests(path: &str) -> bool {
    let (folders, file) = path.rsplit_once('/').unwrap_or(("", path));
    let stem = file.split('.').next().unwrap_or(file);
    let request = |p: &str| {
        matches!(
            p,
            "routes"
                | "router"
                | "routers"
                | "controllers"
                | "controller"
                | "resolvers"
                | "resolver"
                | "handlers"
                | "graphql"
                | "views"
                | "mutations"
        )
    };
    request(stem) || folders.split('/').any(request)
}

/// As [`name_is_periodic`], for a function of a file that answers requests or not (see
/// [`path_handles_requests`]). There, a word for the data a function handles, a batch or a day,
/// does not make it a batch run: `usersSetActiveStatusBatch` is a mutation over a batch of ids
/// sent in the request, `dailyReport` a query of one day's sales.
pub fn name_is_periodic_in(name: &str, request_file: bool) -> bool {
    // A batch that a data operation's verb names is how the operation goes, not a run:
    // `batchImport` (a block's transactions, on an indexer's sync path), `batchInsert`,
    // DataLoader's `batchLoad`. So a batch counts only once every word is read.
    let (mut batch, mut job, mut operation) = (false, false, false);
    let periodic = for_each_word(name, |w| match w {
        "batch" => {
            batch = !request_file;
            false
        }
        // (So is a job a data operation's verb names: `get_job_updates`, a request for a job
        // entity's updates, `createJob`.)
        "job" => {
            job = true;
            false
        }
        "import" | "insert" | "update" | "upsert" | "write" | "load" | "get" | "fetch" | "find"
        | "read" | "delete" | "remove" | "save" | "create" | "add" => {
            operation = true;
            false
        }
        "daily" | "hourly" | "weekly" => !request_file,
        "cron" | "nightly" | "rollup" | "schedule" | "scheduled" | "migrate" | "migrated"
        | "migrating" | "migration" | "migrations" | "backfill" | "reprocess" | "reindex"
        | "periodic" | "seed" | "seeder" => true,
        _ => false,
    });
    periodic || ((batch || job) && !operation)
}

/// The collection name Mongoose derives from a model name: lowercased and pluralised with
/// Mongoose's own rules (lib/helpers/pluralize.js), e.g. `User` → `users`, `Person` → `people`.
pub fn mongoose_collection_name(model: &str) -> String {
    const UNCOUNTABLE: &[&str] = &[
        "advice",
        "energy",
        "excretion",
        "digestion",
        "cooperation",
        "health",
        "justice",
        "labour",
        "machinery",
        "equipment",
        "information",
        "pollution",
        "sewage",
        "paper",
        "money",
        "species",
        "series",
        "rain",
        "rice",
        "fish",
        "sheep",
        "moose",
        "deer",
        "news",
        "expertise",
        "status",
        "media",
    ];
    let s = model.to_lowercase();
    if UNCOUNTABLE.contains(&s.as_str()) {
        return s;
    }
    let ends = |suffix: &str| s.ends_with(suffix);
    let stem = |n: usize| &s[..s.len() - n];
    let is_vowel = |c: char| "aeiouy".contains(c);
    let before = |n: usize| s[..s.len() - n].chars().last();
    if ends("man") {
        return format!("{}men", stem(3));
    }
    if ends("person") {
        return format!("{}ople", stem(4));
    }
    if ends("child") {
        return format!("{s}ren");
    }
    if s == "ox" {
        return "oxen".into();
    }
    if ends("axis") || ends("testis") {
        return format!("{}es", stem(2));
    }
    if ends("octopus") || ends("virus") {
        return format!("{}i", stem(2));
    }
    if ends("alias") || ends("status") {
        return format!("{s}es");
    }
    if ends("bus") {
        return format!("{s}es");
    }
    if ends("buffalo") || ends("tomato") || ends("potato") {
        return format!("{s}es");
    }
    if ends("tum") || ends("ium") {
        return format!("{}a", stem(2));
    }
    if ends("sis") {
        return format!("{}ses", stem(3));
    }
    if ends("fe") && before(2).is_some_and(|c| c != 'f') {
        return format!("{}ves", stem(2));
    }
    if (ends("lf") || ends("rf")) && s.len() > 2 {
        return format!("{}ves", stem(1));
    }
    if ends("hive") {
        return format!("{s}s");
    }
    if ends("y") && (ends("quy") || before(1).is_some_and(|c| !is_vowel(c))) {
        return format!("{}ies", stem(1));
    }
    if ends("x") || ends("ch") || ends("ss") || ends("sh") {
        return format!("{s}es");
    }
    if ends("matrix") || ends("vertix") || ends("index") {
        return format!("{}ices", stem(2));
    }
    if ends("mouse") || ends("louse") {
        return format!("{}ice", stem(4));
    }
    if ends("s") || !s.chars().last().is_some_and(|c| c.is_ascii_lowercase()) {
        return s;
    }
    format!("{s}s")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_mentions_the_start_of_every_word_it_splits_into() {
        // `mentions_any` is the shortcut of the path tests: it must never say no where a word of
        // the path starts with a stem, whatever the case or the camel humps.
        let paths = [
            "server/lib/schemaUpgradeSteps.js",
            "apps/DATA_UPDATES/00012_x.py",
            "src/db/Updates/2.4.1.js",
            "MIGRATIONS/0001_initial.py",
            "app/migrate-users.ts",
            "app/CronJobs/nightlyRollup.js",
            "worker/Scheduler.ts",
            "x/BackFill/y.py",
            "a/b/jobQueue.js",
            "routes/upgradePlan.js",
            "client/updates/feed.js",
            "crates/x/src/bin/core/main.rs",
            "server/service/Normalize-Data/x.ts",
        ];
        let stems: [&[&str]; 2] = [&MIGRATION_STEMS, &PERIODIC_STEMS];
        for path in paths {
            for stems in stems {
                let worded = path
                    .split('/')
                    .any(|part| for_each_word(part, |w| stems.iter().any(|s| w.starts_with(s))));
                assert!(!worded || mentions_any(path, stems), "{path}: {stems:?}");
            }
        }
        assert!(mentions_any("a/SchemaUPGRADE.js", &["upgrad"]));
        assert!(!mentions_any("a/upgra", &["upgrad"]));
        assert!(!mentions_any("", &["job"]));
        // The tests themselves, through the shortcut.
        assert!(path_is_migration("src/db/Updates/2.4.1.js"));
        assert!(path_is_migration("MIGRATIONS/0001_initial.py"));
        assert!(!path_is_migration("client/updates/feed.js"));
        // A folder of data normalisation steps (GROWI's), not a file so named nor a folder that
        // names no stored data.
        assert!(path_is_migration(
            "apps/app/src/server/service/normalize-data/convert-null-to-empty-granted-arrays.ts"
        ));
        assert!(path_is_migration("app/DataNormalization/rename-roots.js"));
        assert!(!path_is_migration("app/server/normalizeData.ts"));
        assert!(!path_is_migration("app/utils/normalize/input.ts"));
        // A file named for the step to a release: FastGPT's admin routes, run once after an
        // upgrade. Not the word alone, a version alone, or a word that only starts so.
        assert!(path_is_migration("src/pages/api/admin/initv4823.ts"));
        assert!(path_is_migration("scripts/upgrade_v2.py"));
        assert!(path_is_migration("scripts/migrate-1.4.0.js"));
        assert!(path_is_migration("scripts/Init-V3.js"));
        assert!(!path_is_migration("src/pages/api/init.ts"));
        assert!(!path_is_migration("src/routes/v1.ts"));
        assert!(!path_is_migration("src/initialize2.ts"));
        assert!(!path_is_migration("src/initv.ts"));
        assert!(path_is_periodic("app/CronJobs/sync.js"));
        assert!(path_is_periodic("x/Backfill/y.py"));
        assert!(path_is_periodic("app/jobQueue/x.js"));
        assert!(!path_is_periodic("app/jobless/x.js"));
    }

    #[test]
    fn words_are_split_at_case_changes_and_separators() {
        let long = "x".repeat(WORD_MAX);
        let cut = format!("{long}~");
        let cases: [(&str, &[&str]); 11] = [
            ("", &[]),
            ("nightlyRollup", &["nightly", "rollup"]),
            ("run_cron", &["run", "cron"]),
            ("HTTPServer2Go", &["httpserver2", "go"]),
            ("a.b-c  d__e", &["a", "b", "c", "d", "e"]),
            ("tenantId.createdAt", &["tenant", "id", "created", "at"]),
            ("déjàVu naïveCron", &["d", "j", "vu", "na", "ve", "cron"]),
            ("ABC", &["abc"]),
            ("aB1cD", &["a", "b1c", "d"]),
            (&format!("{long}Job"), &[&long, "job"]),
            (&format!("{long}x{long}yy_job"), &[&cut, "job"]),
        ];
        for (text, expected) in cases {
            let mut seen = Vec::new();
            let stopped = for_each_word(text, |w| {
                seen.push(w.to_string());
                false
            });
            assert!(!stopped);
            assert_eq!(seen, expected, "{text}");
            assert_eq!(words(text), expected, "{text}");
        }
        let mut count = 0;
        assert!(for_each_word("oneTwoThree", |w| {
            count += 1;
            w == "two"
        }));
        assert_eq!(count, 2, "stops at the first word f accepts");
        assert!(name_is_periodic("nightlyRollup"));
        assert!(!name_is_periodic("rollupsView"));
        assert!(name_is_periodic("seed") && name_is_periodic("seedUsers"));
        assert!(!name_is_periodic("seedling"));
        // A batch run, but not an operation done in batches (bitcore's `batchImport` of a
        // block's transactions; DataLoader's `batchLoad`), nor a request's batch.
        assert!(name_is_periodic("runBatch") && name_is_periodic("nightly_batch_import"));
        assert!(!name_is_periodic("batchImport") && !name_is_periodic("batch_load_users"));
        assert!(!name_is_periodic_in("usersSetActiveStatusBatch", true));
        assert!(name_is_periodic("processBatch"));
        assert!(name_is_periodic("runJob") && name_is_periodic("cleanup_job"));
        assert!(!name_is_periodic("get_job_updates") && !name_is_periodic("createJob"));
        assert!(path_is_periodic("app/jobs/cleanup.js"));
        assert!(path_is_periodic("src/worker/hourlyRunner.ts"));
        assert!(path_is_periodic("app/weekly_cleanup.py"));
        assert!(!path_is_periodic("pages/api/dailyStats.ts"));
        assert!(!path_is_periodic("src/graphql/resolvers/dailyReport.ts"));
        // A program that reprocesses stored data (boom's `src/bin/reprocess_crossmatch.rs`).
        assert!(path_is_periodic("src/bin/reprocess_crossmatch.rs"));
        assert!(name_is_periodic("reprocessFailed"));
        // A jobs folder of a request handler's or the data layer's is the job entity's
        // (Strider's `routes/jobs/index.js`); a cron folder there is still periodic.
        assert!(!path_is_periodic("lib/routes/jobs/index.js"));
        assert!(!path_is_periodic("src/controllers/jobs/list.ts"));
        // A FastAPI application's `routers/jobs.py` answers requests about its jobs (clowder2).
        assert!(!path_is_periodic("backend/app/routers/jobs.py"));
        assert!(path_handles_requests("backend/app/routers/jobs.py"));
        assert!(path_is_periodic("src/routes/cron/route.ts"));
        // (An `api/` folder is often the whole backend: Countly's `api/jobs/` are its jobs.)
        assert!(path_is_periodic("api/jobs/userMerge.js"));
        // A file named for jobs alone that binds the `Job` model is that entity's module; one in
        // a jobs or cron folder, or named for more than jobs, stays periodic.
        let binds_job = |n: &str| n == "Job";
        assert!(path_is_periodic("apps/strider/lib/jobs.js"));
        assert!(names_job_entity("apps/strider/lib/jobs.js", binds_job));
        assert!(names_job_entity("app/job.py", |n| n == "Jobs"));
        assert!(!names_job_entity("apps/strider/lib/jobs.js", |n| n == "Task"));
        assert!(!names_job_entity("src/cron/jobs.js", binds_job));
        assert!(!names_job_entity("src/jobs/jobs.js", binds_job));
        assert!(!names_job_entity("src/cleanupJobs.js", binds_job));
        assert!(path_is_periodic("src/jobs/api/sync.ts"));
        for (texts, kind) in [
            (&["process.env.PREFIX"][..], HoleKind::Config),
            (&["tenantId"][..], HoleKind::Entity),
            (&["tenantId", "day"][..], HoleKind::Date),
            (&["created_at.strftime('%Y')"][..], HoleKind::Date),
            (&["x", "y"][..], HoleKind::Unknown),
            (&["day", "config.suffix"][..], HoleKind::Config),
        ] {
            assert_eq!(classify_hole(texts), kind, "{texts:?}");
        }
        assert!(!path_is_periodic("app/routes/users.js"));
        // Named for a batch run, or under a jobs folder: periodic. Named for a job entity's data
        // layer (agenda's job repository, a job board's model), or in a models folder: not.
        for periodic in [
            "src/cleanupJob.js",
            "worker/nightly_batch.py",
            "src/jobs.ts",
            "app/send-digest.job.ts",
            "app/jobs/repository.ts",
        ] {
            assert!(path_is_periodic(periodic), "{periodic}");
        }
        for request in [
            "packages/mongo-backend/src/MongoJobRepository.ts",
            "src/job.model.ts",
            "server/jobs.controller.js",
            "src/JobService.ts",
            "app/models/job.js",
            "api/routes/jobs.js",
        ] {
            assert!(!path_is_periodic(request), "{request}");
        }
        // Wekan's version-gated startup migration; a billing plan's upgrade is request code.
        assert!(path_is_periodic("server/lib/schemaUpgradeSteps.js"));
        assert!(path_is_periodic("app/db_upgrade.py"));
        assert!(!path_is_periodic("server/routes/upgradePlan.js"));
        assert!(!path_is_periodic("client/UpgradeButton.tsx"));
        assert!(path_is_periodic("superdesk/data_updates/00003_audit.py"));
        assert!(path_is_periodic("src/db/updates/2.4.1.js"));
        assert!(path_is_periodic("server/database/updates/v3.ts"));
        assert!(!path_is_periodic("src/db/updates.js"));
        assert!(!path_is_periodic("client/updates/feed.js"));
        assert!(!path_is_periodic("src/dataUpdates.js"));
    }

    #[test]
    fn mongoose_pluralisation() {
        for (model, coll) in [
            ("User", "users"),
            ("Person", "people"),
            ("Category", "categories"),
            ("Box", "boxes"),
            ("Status", "status"),
            ("Alias", "aliases"),
            ("News", "news"),
            ("Day", "days"),
            ("Address", "addresses"),
            ("OrderItem", "orderitems"),
            ("Comments", "comments"),
        ] {
            assert_eq!(mongoose_collection_name(model), coll, "{model}");
        }
    }

    #[test]
    fn configuration_reads() {
        for text in [
            "settings.app.dh_param_bits_pool",
            "settings.DH_POOLS",
            "config.pools",
            "self.config.pools",
            "this.settings.regions",
            "app.config[\"POOLS\"]",
            "current_app.config.get(\"POOLS\", [])",
            "os.environ[\"HOSTS\"].split(\",\")",
            "os.getenv(\"HOSTS\", \"\").split(\",\")",
            "process.env.HOSTS.split(\",\")",
            "appConfig.regions",
            "CONFIG[\"pools\"].items()",
            "&config.pools",
            "self.cfg.pools.iter()",
            "django.conf.settings.LANGUAGES",
            "config?.pools",
        ] {
            assert!(reads_configuration(text), "{text}");
        }
        for text in [
            "settings",
            "config",
            "os.environ",
            "options.ids",
            "opts.items",
            "user_settings.favorites",
            "site_config.pages",
            "req.settings.ids",
            "g.user.settings.favorites",
            "config.pools.filter(lambda p: p)",
            "config[key]",
            "config.pools + extra",
            "get_settings(user).pools",
            "ids",
            "db.settings.find()",
            "settings.find({})",
            "Settings.objects",
        ] {
            assert!(!reads_configuration(text), "{text}");
        }
    }

    #[test]
    fn holes() {
        assert_eq!(classify_hole(&["tenantId"]), HoleKind::Entity);
        assert_eq!(classify_hole(&["day"]), HoleKind::Date);
        assert_eq!(
            classify_hole(&["new Date().toISOString().slice(0, 10)"]),
            HoleKind::Date
        );
        assert_eq!(classify_hole(&["process.env.PREFIX"]), HoleKind::Config);
        assert_eq!(classify_hole(&["name"]), HoleKind::Unknown);
        assert_eq!(classify_hole(&["TgClient.ID"]), HoleKind::Config);
        assert_eq!(classify_hole(&["TENANT_PREFIX"]), HoleKind::Config);
        assert_eq!(classify_hole(&["tenant.id"]), HoleKind::Entity);
        // A name of a kind of entity is one of a few values (idurar's `userModel`, `'Admin'`);
        // an entity word elsewhere in the text still counts.
        assert_eq!(
            classify_hole(&["userModel + 'Password'"]),
            HoleKind::Unknown
        );
        assert_eq!(classify_hole(&["account_type"]), HoleKind::Unknown);
        assert_eq!(classify_hole(&["userModel + user.id"]), HoleKind::Entity);
        assert_eq!(classify_hole(&["userName"]), HoleKind::Entity);
        assert_eq!(
            classify_hole(&["suffix", "dayjs().format('YYYY_MM')"]),
            HoleKind::Date
        );
        assert_eq!(classify_hole(&["now.strftime('%Y%m')"]), HoleKind::Date);
        // The words of a string the code writes are not what the hole is (Countly): a constant
        // value of a reassigned name, a hash of constants. A key read in brackets still is.
        assert_eq!(
            classify_hole(&["collectionName", "\"times_of_day\""]),
            HoleKind::Unknown
        );
        assert_eq!(
            classify_hole(&["sha1(\"[CLY]_apm_device\" + APP_ID)"]),
            HoleKind::Unknown
        );
        assert_eq!(classify_hole(&["sha1('daily')"]), HoleKind::Unknown);
        assert_eq!(classify_hole(&["row[\"tenant_id\"]"]), HoleKind::Entity);
        assert_eq!(classify_hole(&["row['day']"]), HoleKind::Date);
        assert_eq!(classify_hole(&["'x' + tenant.id"]), HoleKind::Entity);
        // An application's id on a platform that serves many (Countly's `"app_users" + appId`);
        // the deployment's own application, or a constant, is not one.
        for app in [
            "app_id",
            "appId",
            "appID",
            "app._id",
            "params.qstring.app_id",
            "data.appid",
        ] {
            assert_eq!(classify_hole(&[app]), HoleKind::Entity, "{app}");
        }
        for not_app in ["appName", "app.name", "whatsapp_id", "mappId", "apps"] {
            assert_eq!(classify_hole(&[not_app]), HoleKind::Unknown, "{not_app}");
        }
        assert_eq!(classify_hole(&["APP_ID"]), HoleKind::Config);
    }

    #[test]
    fn a_generated_id_is_no_entity() {
        assert_eq!(classify_hole(&["uid::uid(5)"]), HoleKind::Unknown);
        assert_eq!(classify_hole(&["uid(24)"]), HoleKind::Unknown);
        assert_eq!(classify_hole(&["generateUid()"]), HoleKind::Unknown);
        // A user's id, read or looked up, still is.
        assert_eq!(classify_hole(&["uid"]), HoleKind::Entity);
        assert_eq!(classify_hole(&["req.user.uid"]), HoleKind::Entity);
        assert_eq!(classify_hole(&["getUid(user)"]), HoleKind::Entity);
        assert_eq!(classify_hole(&["user.getUid()"]), HoleKind::Entity);
    }
}
