//! Discovery and per-file work: walk the paths in parallel (honouring .gitignore), skip what cannot
//! matter with a byte-level prefilter, then parse and extract each remaining file on the walker's thread.

use crate::analysis::{FileError, Options, SourceFile};
use crate::ir::ExportTarget;
use crate::ir::Language;
use crate::lang::vocabulary::{PrefilterWord, WordContext, WordRole};
use crate::lang::{self, FileContext};
use aho_corasick::AhoCorasick;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

pub const DEFAULT_MAX_FILE_SIZE: u64 = 4 * 1024 * 1024;

/// Folders that hold dependencies, build output or vendored code: skipped unless `--no-ignore`.
const EXCLUDED_DIRS: &[&str] = &[
    "node_modules",
    "bower_components",
    "jspm_packages",
    "vendor",
    "third_party",
    "dist",
    "build",
    "out",
    ".next",
    ".nuxt",
    ".output",
    ".svelte-kit",
    "coverage",
    "target",
    "__pycache__",
    ".venv",
    "venv",
    "site-packages",
    ".tox",
];

/// A folder of [`EXCLUDED_DIRS`], or a build's output named after `dist` (`dist-lib`, `dist_server`).
fn is_excluded_dir(name: &str) -> bool {
    EXCLUDED_DIRS.contains(&name) || name.starts_with("dist-") || name.starts_with("dist_")
}

pub struct Discovered {
    pub files: Vec<SourceFile>,
    pub errors: Vec<FileError>,
    pub scanned: usize,
    pub parsed: usize,
    /// The folders holding a project manifest ([`MANIFESTS`]), as display paths, sorted: the roots
    /// of the projects in the walked trees (see [`crate::rules::Projects`]).
    pub project_roots: Vec<String>,
}

/// Files that make their folder the root of a project: a package of its own, built and deployed
/// on its own (`package.json`, `pyproject.toml`, `setup.py`, `setup.cfg`, `requirements.txt`,
/// `Cargo.toml`).
const MANIFESTS: &[&str] = &[
    "package.json",
    "pyproject.toml",
    "setup.py",
    "setup.cfg",
    "requirements.txt",
    "Cargo.toml",
];

/// Whether `path` names a [`MANIFESTS`] file: its last bytes, without parsing its components
/// (`Path::file_name` walks them from the end, for every file of the walk).
fn is_manifest(path: &Path) -> bool {
    let bytes = path.as_os_str().as_encoded_bytes();
    MANIFESTS.iter().any(|m| {
        bytes.len() > m.len()
            && bytes.ends_with(m.as_bytes())
            && matches!(bytes[bytes.len() - m.len() - 1], b'/' | b'\\')
    })
}

#[derive(Default)]
struct Shared {
    files: Vec<SourceFile>,
    errors: Vec<FileError>,
    project_roots: Vec<String>,
    /// Files with only hints (see [`Verdict::Defer`]), parsed after the walk if imported.
    deferred: Vec<(PathBuf, Language)>,
    /// Python files without a hint, parsed after the walk only if an operation's receiver, or a
    /// constant that names a collection, is imported from them: a class that stands for a
    /// document (StackStorm's `class Trigger(Access): impl = trigger_access`) needs no MongoDB
    /// word, nor does a module of constants.
    unhinted: Vec<(PathBuf, Language)>,
    /// Files the prefilter passed, read, waiting to be parsed when the walk is over (see
    /// [`parse_ready`]).
    ready: Vec<(Language, PathBuf, Arc<str>)>,
}

/// The prefilter of a language: automata over the extractors' vocabulary, and for each word the
/// context its match must stand in and what the match says.
struct Prefilter {
    /// The words in groups of at most [`GROUP_SIZE`], one automaton each (see there): first the
    /// groups of the words that can make a file parsed on their own or with a confirmation
    /// ([`Prefilter::first`]), then the groups of the confirmations alone.
    groups: Vec<WordGroup>,
    /// How many groups hold the first words: evidence, hints, and Python's document classes (a
    /// confirmation that makes evidence with `objects`). A file none of them matches is skipped
    /// without reading it for the confirmations, the common words (`find`, `update`, `count`,
    /// `index`) whose automata cost the most.
    first: usize,
    words: Vec<PrefilterWord>,
}

/// The most words one group of the prefilter searches for. The SIMD search
/// (Teddy) puts its words in a few buckets by their first bytes and checks every candidate the
/// buckets let through; with the 44 to 98 words of a language in one automaton, common first
/// bytes (`find`, `count`, `update`, `db.`) let so many through that the scan cost about 8
/// instructions a byte. Two to four automata of balanced size, words sorted, cost less in all
/// (callgrind on the synthetic repository of bench/: 48 M -> 27 M; StackStorm's whole run
/// 450 M -> 426 M). Groups of 20 cost more than one automaton; 26 to 40 are alike.
const GROUP_SIZE: usize = 32;

/// One group of words of the prefilter, and its searcher.
struct WordGroup {
    /// Leftmost-first, so that a SIMD search can serve (an overlapping search cannot): it finds
    /// every position where some word of the group starts, and [`Prefilter::matches`] lists the
    /// group's words that start there.
    searcher: GroupSearcher,
    /// The group's words (indexes into `Prefilter::words`) by first byte.
    by_first_byte: Vec<Vec<u32>>,
}

/// How a group of words is searched for. Teddy (the SIMD searcher of `aho_corasick::packed`) when
/// the CPU has it: an automaton picks its own prefilter by heuristics, which for a group whose
/// words share a few rare bytes (`$`, `_`, `.`) choose a rare-byte scan that stops at every `.`
/// of the code (callgrind, synthetic repository: the prefilter's reading 25 M -> 64 M after two
/// words were added to one group). The automaton otherwise.
enum GroupSearcher {
    Teddy(aho_corasick::packed::Searcher),
    Automaton(AhoCorasick),
}

impl GroupSearcher {
    fn new(words: &[&str]) -> GroupSearcher {
        let teddy = aho_corasick::packed::Config::new()
            .match_kind(aho_corasick::packed::MatchKind::LeftmostFirst)
            .builder()
            .extend(words)
            .build();
        match teddy {
            Some(searcher) => GroupSearcher::Teddy(searcher),
            None => GroupSearcher::automaton(words),
        }
    }

    fn automaton(words: &[&str]) -> GroupSearcher {
        GroupSearcher::Automaton(
            AhoCorasick::builder()
                .match_kind(aho_corasick::MatchKind::LeftmostFirst)
                .kind(Some(aho_corasick::AhoCorasickKind::NoncontiguousNFA))
                .build(words)
                .expect("the prefilter vocabulary is a valid automaton"),
        )
    }

    /// The start of the leftmost match at or after `at`.
    fn find_from(&self, bytes: &[u8], at: usize) -> Option<usize> {
        match self {
            GroupSearcher::Teddy(s) => s
                .find_in(bytes, aho_corasick::Span::from(at..bytes.len()))
                .map(|m| m.start()),
            GroupSearcher::Automaton(a) => a
                .find(aho_corasick::Input::new(bytes).range(at..))
                .map(|m| m.start()),
        }
    }
}

impl Prefilter {
    /// Every occurrence of every word, overlapping ones included, as `(word, start, end)`: by
    /// start within each group of words, the groups one after the other (the verdict does not
    /// depend on the order).
    fn matches<'p, 'b>(
        &'p self,
        bytes: &'b [u8],
    ) -> impl Iterator<Item = (&'p PrefilterWord, usize, usize)> + use<'p, 'b> {
        self.matches_of(&self.groups, bytes)
    }

    /// [`Prefilter::matches`] of some of the groups.
    fn matches_of<'p, 'b>(
        &'p self,
        groups: &'p [WordGroup],
        bytes: &'b [u8],
    ) -> impl Iterator<Item = (&'p PrefilterWord, usize, usize)> + use<'p, 'b> {
        groups.iter().flat_map(move |group| {
            let mut at = 0;
            std::iter::from_fn(move || {
                let start = group.searcher.find_from(bytes, at)?;
                at = start + 1;
                let here = &bytes[start..];
                Some(
                    group.by_first_byte[here[0] as usize]
                        .iter()
                        .map(|&i| &self.words[i as usize])
                        .filter(move |w| here.starts_with(w.word.as_bytes()))
                        .map(move |w| (w, start, start + w.word.len())),
                )
            })
            .flatten()
        })
    }
}

/// The prefilter for a language, built once per process from the extractors' vocabulary.
fn prefilter(lang: Language) -> &'static Prefilter {
    static JS: OnceLock<Prefilter> = OnceLock::new();
    static PY: OnceLock<Prefilter> = OnceLock::new();
    static RS: OnceLock<Prefilter> = OnceLock::new();
    let cell = match lang {
        Language::JavaScript | Language::TypeScript | Language::Tsx => &JS,
        Language::Python => &PY,
        Language::Rust => &RS,
    };
    cell.get_or_init(|| {
        let words = lang::vocabulary::prefilter_words(lang);
        let mut order: Vec<u32> = (0..words.len() as u32).collect();
        order.sort_by_key(|&i| words[i as usize].word);
        let (first, rest): (Vec<u32>, Vec<u32>) = order
            .into_iter()
            .partition(|&i| is_first_word(lang, &words[i as usize]));
        let mut groups = word_groups(&words, &first);
        let first = groups.len();
        groups.extend(word_groups(&words, &rest));
        Prefilter {
            groups,
            first,
            words,
        }
    })
}

/// Whether `word` belongs to the prefilter's first groups (see [`Prefilter::first`]). A word's
/// standing only ever lowers its role (but a Python module name's, a hint, and a Python attribute
/// named for a database, a confirmation, which may become evidence: `self.database.users.find(..)`),
/// so no other confirmation makes a file parsed without one of these.
fn is_first_word(lang: Language, word: &PrefilterWord) -> bool {
    word.role != WordRole::Confirmation
        || is_document_class(lang, word)
        || (lang == Language::Python && word.word.starts_with('.'))
}

/// Whether `word` is a mongoengine document base class of the Python frontend (`Document`): a
/// confirmation that, with `objects`, is evidence (see [`VerdictReading::document_class`]).
fn is_document_class(lang: Language, word: &PrefilterWord) -> bool {
    lang == Language::Python && lang::vocabulary::PY_MONGOENGINE_DOCUMENTS.contains(&word.word)
}

/// The automata of `chosen` (indexes into `words`, sorted by word): as many as needed, of balanced
/// sizes.
fn word_groups(words: &[PrefilterWord], chosen: &[u32]) -> Vec<WordGroup> {
    if chosen.is_empty() {
        return Vec::new();
    }
    let count = chosen.len().div_ceil(GROUP_SIZE);
    chosen
        .chunks(chosen.len().div_ceil(count))
        .map(|chunk| {
            // The searcher needs no word that starts with another of the group (`createIndexes`
            // after `createIndex`): it finds where words start, and every word of the group is
            // then tried there (the words are sorted, so a word's prefixes come before it).
            let mut group_words: Vec<&str> = Vec::new();
            for &i in chunk {
                let word = words[i as usize].word;
                if !group_words.iter().any(|w| word.starts_with(w)) {
                    group_words.push(word);
                }
            }
            let searcher = GroupSearcher::new(&group_words);
            let mut by_first_byte = vec![Vec::new(); 256];
            for &i in chunk {
                by_first_byte[words[i as usize].word.as_bytes()[0] as usize].push(i);
            }
            WordGroup {
                searcher,
                by_first_byte,
            }
        })
        .collect()
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// The first byte at or after `at` that is not ASCII whitespace.
fn next_non_space(bytes: &[u8], at: usize) -> Option<(usize, u8)> {
    bytes[at.min(bytes.len())..]
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .map(|i| (at + i, bytes[at + i]))
}

/// Whether the name that ends at `end` is called: followed by `(`, or by type arguments and `(`
/// (`model<IUser>(..)`, Rust's turbofish `collection::<Doc>(..)`). A `<` that opens no type
/// arguments (`Toxicity model </Label>` in JSX text, `model < 3`) is no call.
fn is_called(bytes: &[u8], end: usize) -> bool {
    match next_non_space(bytes, end) {
        Some((_, b'(')) => true,
        Some((at, b'<')) => type_arguments_then_call(bytes, at),
        Some((at, b':')) if bytes[at..].starts_with(b"::<") => {
            type_arguments_then_call(bytes, at + 2)
        }
        _ => false,
    }
}

/// How far [`type_arguments_then_call`] looks for the `>` that closes type arguments.
const MAX_TYPE_ARGUMENTS: usize = 512;

/// Whether the `<` at `open` starts type arguments that a call follows: `<IUser>(`,
/// `<{ a: string }, Doc>(`, `<Array<(x: T) => U>>(` (the `>` of `=>` or `->` closes nothing).
fn type_arguments_then_call(bytes: &[u8], open: usize) -> bool {
    // Type arguments start with a name, a literal type, or a bracket; not `/` (`</Label>`),
    // `=` or a digit (comparisons).
    match bytes.get(open + 1) {
        Some(c) if is_ident_byte(*c) && !c.is_ascii_digit() => {}
        Some(b'{' | b'[' | b'(' | b'\'' | b'"' | b'`') => {}
        _ => return false,
    }
    let stop = bytes.len().min(open + MAX_TYPE_ARGUMENTS);
    let (mut depth, mut braces) = (0usize, 0usize);
    for i in open..stop {
        match bytes[i] {
            b'<' => depth += 1,
            b'>' if !matches!(bytes[i - 1], b'=' | b'-') => {
                depth -= 1;
                if depth == 0 {
                    return matches!(next_non_space(bytes, i + 1), Some((_, b'(')));
                }
            }
            b'{' => braces += 1,
            b'}' => braces = braces.saturating_sub(1),
            // A statement's end; inside braces, an object type's member separator.
            b';' if braces == 0 => return false,
            _ => {}
        }
    }
    false
}

/// Whether the call of the method whose name ends at `end` takes a one-parameter callback first:
/// `items.find((x) => ..)`, `list.find(x => ..)`, `iter.find(|x| ..)` search an array or an
/// iterator (a driver's `find` takes a filter; a Node-style callback has two parameters).
fn callback_first(bytes: &[u8], end: usize) -> bool {
    let Some((open, b'(')) = next_non_space(bytes, end) else {
        return false;
    };
    let Some((mut at, first)) = next_non_space(bytes, open + 1) else {
        return false;
    };
    if first == b'|' || bytes[at..].starts_with(b"move |") || bytes[at..].starts_with(b"move|") {
        return true;
    }
    if bytes[at..].starts_with(b"async") && !bytes.get(at + 5).is_some_and(|b| is_ident_byte(*b)) {
        match next_non_space(bytes, at + 5) {
            Some((next, _)) => at = next,
            None => return false,
        }
    }
    let arrow_after = |i: usize| {
        bytes
            .get(i..)
            .is_some_and(|rest| rest.trim_ascii_start().starts_with(b"=>"))
    };
    if is_ident_byte(bytes[at]) {
        return arrow_after(ident_end(bytes, at));
    }
    if bytes[at] != b'(' {
        return false;
    }
    // `(x) =>`, `({ id }) =>`, `(x: T) =>`: one parameter, no comma at the top level.
    let mut depth = 0usize;
    for (i, b) in bytes[at..].iter().enumerate() {
        match b {
            b'(' | b'{' | b'[' => depth += 1,
            b')' | b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return arrow_after(at + i + 1);
                }
            }
            b',' if depth == 1 => return false,
            _ => {}
        }
    }
    false
}

/// Whether the call of the collection method `name`, whose name ends at `end`, has arguments no
/// driver or ODM method of that name takes (a scan that gives up keeps the call):
/// - a string first: `Metrics.count('compile', 1)`, `cache.remove('key')`, Python's
///   `path.find('/')`; but `distinct` names a field first, and Python's `remove` may take an `_id`;
/// - for `update`, one argument or, in JavaScript, a string second: `hash.update(data)`,
///   `hash.update(data, 'utf8')`, Python's `params.update(other)`. The drivers' `update` takes a
///   filter and an update; mongoengine's takes keyword arguments (`update(set__name=n)`), which
///   still confirm;
/// - for Python's `insert`, a number first: `items.insert(0, x)` of a list;
/// - for Python's `sort`, nothing or `key=`/`reverse=` first: `files.sort(reverse=True)`.
fn no_driver_arguments(lang: Language, name: &[u8], bytes: &[u8], end: usize) -> bool {
    let python = lang == Language::Python;
    if !python && !is_js(lang) {
        return false;
    }
    let Some((open, b'(')) = next_non_space(bytes, end) else {
        return false;
    };
    let Some((first, c)) = next_non_space(bytes, open + 1) else {
        return false;
    };
    if starts_string(bytes, first, python) {
        return name != b"distinct" && !(python && name == b"remove");
    }
    if python && name == b"insert" && c.is_ascii_digit() {
        return true;
    }
    // A list's `sort()`, `sort(key=..)`, `sort(reverse=..)`: pymongo's cursor sort takes the
    // key (or list) first, and mongoengine sorts with `order_by`.
    if python && name == b"sort" {
        let rest = &bytes[first..];
        return c == b')' || rest.starts_with(b"key=") || rest.starts_with(b"reverse=");
    }
    if name != b"update" || c == b')' {
        return false;
    }
    let Some(args) = call_arguments(bytes, open) else {
        return false;
    };
    match args.as_slice() {
        [only] if python => !is_keyword_argument(&bytes[only.0..only.1]),
        [_] => true,
        [_, second, ..] if !python => starts_string(bytes, second.0, false),
        _ => false,
    }
}

/// Whether a string literal starts at `at`: a quote (JavaScript's template literal included), or
/// in Python a quote after a prefix (`f"{x}"`, `b'..'`, `rb".."`).
fn starts_string(bytes: &[u8], at: usize, python: bool) -> bool {
    let is_quote = |b: &u8| matches!(b, b'\'' | b'"') || (!python && *b == b'`');
    let rest = &bytes[at..];
    if python {
        let prefix = rest
            .iter()
            .take(3)
            .position(|b| !b"rbfuRBFU".contains(b))
            .unwrap_or(0);
        return prefix <= 2 && rest.get(prefix).is_some_and(is_quote);
    }
    rest.first().is_some_and(is_quote)
}

/// Whether a Python argument is passed by keyword (`set__name=n`, `**changes`), not `a == b`.
fn is_keyword_argument(arg: &[u8]) -> bool {
    if arg.starts_with(b"**") {
        return true;
    }
    let name = ident_end(arg, 0);
    name > 0
        && matches!(next_non_space(arg, name), Some((at, b'=')) if arg.get(at + 1) != Some(&b'='))
}

/// The top-level arguments of the call whose `(` is at `open`, as trimmed byte ranges; `None`
/// when the scan gives up: past 2 KB, or at a string that does not close on its line (a comment
/// with an apostrophe in it reads as one).
fn call_arguments(bytes: &[u8], open: usize) -> Option<Vec<(usize, usize)>> {
    let mut args = Vec::new();
    let mut depth = 0usize;
    let mut start = open + 1;
    let mut at = open + 1;
    let limit = bytes.len().min(open + 2048);
    let push = |from: usize, to: usize, args: &mut Vec<(usize, usize)>| {
        let arg = bytes[from..to].trim_ascii();
        if !arg.is_empty() {
            let from = from + (bytes[from..to].len() - bytes[from..to].trim_ascii_start().len());
            args.push((from, from + arg.len()));
        }
    };
    while at < limit {
        match bytes[at] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth == 0 => {
                push(start, at, &mut args);
                return Some(args);
            }
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                push(start, at, &mut args);
                start = at + 1;
            }
            q @ (b'\'' | b'"' | b'`') => {
                let mut i = at + 1;
                loop {
                    match bytes.get(i) {
                        Some(b'\\') => i += 2,
                        Some(&b) if b == q => break,
                        Some(b'\n') if q != b'`' => return None,
                        Some(_) => i += 1,
                        None => return None,
                    }
                }
                at = i;
            }
            _ => {}
        }
        at += 1;
    }
    None
}

/// Whether the call whose `(` is at `open` takes a literal count alone: `.skip(12)`, an iterator's
/// or a literal skip, never a finding.
fn called_with_literal(bytes: &[u8], open: usize) -> bool {
    let Some((digits, first)) = next_non_space(bytes, open + 1) else {
        return false;
    };
    if !first.is_ascii_digit() {
        return false;
    }
    let after = bytes[digits..]
        .iter()
        .position(|b| !b.is_ascii_digit())
        .map_or(bytes.len(), |i| digits + i);
    matches!(next_non_space(bytes, after), Some((_, b')')))
}

/// The position of the bracket that encloses `at`, found by a backward scan of at most 1 KB that
/// counts brackets (strings and comments are not recognised); `None` when the scan gives up.
fn enclosing_open(bytes: &[u8], at: usize) -> Option<usize> {
    let from = at.saturating_sub(1024);
    let mut depth = 0usize;
    for (i, &b) in bytes[from..at].iter().enumerate().rev() {
        match b {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' if depth == 0 => return Some(from + i),
            b'(' | b'[' | b'{' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// The bracket that encloses `at` (see [`enclosing_open`]).
fn enclosing_bracket(bytes: &[u8], at: usize) -> Option<u8> {
    enclosing_open(bytes, at).map(|i| bytes[i])
}

/// Whether `objects` at `bytes[start..end]` is called on a capitalised name (`Post.objects(..)`):
/// the Python frontend reads that call as mongoengine's QuerySet, whatever `Post` is.
fn calls_a_model_manager(bytes: &[u8], start: usize, end: usize) -> bool {
    if !matches!(next_non_space(bytes, end), Some((_, b'('))) {
        return false;
    }
    let before = bytes[..start].trim_ascii_end();
    let Some(dot) = before.len().checked_sub(1).filter(|&d| before[d] == b'.') else {
        return false;
    };
    chain_link(bytes, dot, false)
        .is_some_and(|link| !link.called && link.name.first().is_some_and(u8::is_ascii_uppercase))
}

/// Whether `meta` at `bytes[start..end]` opens an indented line (a class body's) and is assigned a
/// dictionary: `    meta = {`, `    meta = dict(`.
fn is_class_meta(bytes: &[u8], start: usize, end: usize) -> bool {
    let indent = &bytes[line_start(bytes, start)..start];
    if indent.is_empty() || !indent.iter().all(|&b| b == b' ' || b == b'\t') {
        return false;
    }
    let Some((eq, b'=')) = next_non_space(bytes, end) else {
        return false;
    };
    match next_non_space(bytes, eq + 1) {
        Some((_, b'{')) => true,
        Some((at, _)) => bytes[at..].starts_with(b"dict("),
        None => false,
    }
}

/// Where the line holding `at` starts.
fn line_start(bytes: &[u8], at: usize) -> usize {
    memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1)
}

/// Whether `text` ends with the whole word `word`.
fn ends_with_word(text: &[u8], word: &[u8]) -> bool {
    text.ends_with(word)
        && (text.len() == word.len() || !is_ident_byte(text[text.len() - word.len() - 1]))
}

/// Whether the match `bytes[start..end]` of a word stands where its context requires.
fn stands_in_context(
    context: WordContext,
    lang: Language,
    bytes: &[u8],
    start: usize,
    end: usize,
) -> bool {
    let left_ok = start == 0 || !is_ident_byte(bytes[start - 1]);
    let right_ok = end == bytes.len() || !is_ident_byte(bytes[end]);
    match context {
        WordContext::Anywhere => true,
        WordContext::Operator => right_ok,
        WordContext::IdentifierStart => left_ok,
        WordContext::Identifier => left_ok && right_ok,
        WordContext::Call => {
            // A module path segment (`'../models/User'`): a Mongoose app's models folder.
            let path_segment = start > 0 && bytes[start - 1] == b'/';
            path_segment || (left_ok && right_ok && is_called(bytes, end))
        }
        WordContext::Skip => {
            if !(left_ok && right_ok) {
                return false;
            }
            // Where the frontends read a skip (or a populate): a method call (`.skip(n)`), an
            // options key (`{ skip: n }`, `"skip": n`, Rust's `skip: Some(n)`), a Python keyword
            // argument (`find(q, skip=n)`) or a shorthand property (`{ skip, limit }`, inside
            // braces). Elsewhere (`skip(n)` of an OT library, `isSkip`, a comment's "skip", a
            // parameter `populate` passed on as `f(a, populate, b)` or assigned `populate = x`)
            // it names nothing.
            let before = bytes[..start].trim_ascii_end().last().copied();
            let quote = match (start.checked_sub(1).map(|i| bytes[i]), bytes.get(end)) {
                (Some(q @ (b'"' | b'\'')), Some(c)) if *c == q => Some(end + 1),
                _ => None,
            };
            if let Some(after_quote) = quote {
                return matches!(next_non_space(bytes, after_quote), Some((_, b':')));
            }
            match next_non_space(bytes, end) {
                Some((open, b'(')) if before == Some(b'.') => !called_with_literal(bytes, open),
                Some((at, b':')) => !bytes[at..].starts_with(b"::"),
                Some((at, b'=')) => {
                    lang == Language::Python && !matches!(bytes.get(at + 1), Some(b'=' | b'>'))
                }
                Some((_, b'}' | b',')) => {
                    matches!(before, Some(b'{' | b','))
                        && matches!(enclosing_bracket(bytes, start), Some(b'{') | None)
                }
                _ => false,
            }
        }
        WordContext::DbAttribute | WordContext::ShellDb => {
            // (`.database.`: an attribute, after any name.)
            if !(left_ok || bytes[start] == b'.') || in_python_import(bytes, start) {
                return false;
            }
            let name_len = bytes[end..]
                .iter()
                .position(|b| !is_ident_byte(*b))
                .unwrap_or(bytes.len() - end);
            if name_len == 0 {
                return false;
            }
            // A registry's models are capitalised (`models.Posts`; `models.configs` is not one).
            !bytes[start..end].starts_with(b"models") || bytes[end].is_ascii_uppercase()
        }
        WordContext::Attribute => left_ok && right_ok && follows_dot(bytes, start),
        WordContext::MethodCall => {
            left_ok
                && right_ok
                && follows_dot(bytes, start)
                && is_called(bytes, end)
                && !callback_first(bytes, end)
                && !no_driver_arguments(lang, &bytes[start..end], bytes, end)
        }
        WordContext::OptionBuilder => left_ok && right_ok,
        WordContext::ClassMeta => left_ok && right_ok && is_class_meta(bytes, start, end),
        WordContext::PyModule => true,
    }
}

/// What a word's match at `bytes[start..end]` says about the file: its role when it stands in its
/// context, a hint where the context only suggests (a models path segment; `db.users` passed as an
/// argument in a JavaScript file that declares `db`), nothing otherwise. `scan` carries what earlier
/// matches of the file learnt.
fn standing(
    lang: Language,
    word: &PrefilterWord,
    bytes: &[u8],
    start: usize,
    end: usize,
    scan: &mut FileScan,
) -> Option<WordRole> {
    let role = standing_as_code(lang, word, bytes, start, end, scan)?;
    if role == WordRole::Hint {
        return Some(role);
    }
    // A docstring (``st2common.models.db.liveaction.LiveActionDB``, "uses $push") or a block
    // comment (` * Inserts with db.users.insertOne(..)`): a line inside one is no code, though
    // `in_line_comment` reads it as code, so it holds no evidence and no confirmation. It may hold
    // a hint (`@returns {Promise<Object>} MongoDB cursor`): prose that names MongoDB is what a
    // hint is, and files whose calls the frontends read by their operators say so there.
    let no_code = scan.no_code.get_or_insert_with(|| {
        if lang == Language::Python {
            python_long_strings(bytes)
        } else {
            leading_block_comments(bytes)
        }
    });
    let i = no_code.partition_point(|&(_, e)| e <= start);
    if no_code.get(i).is_some_and(|&(s, _)| s <= start) {
        return None;
    }
    Some(role)
}

/// [`standing`], as if the match were code.
fn standing_as_code(
    lang: Language,
    word: &PrefilterWord,
    bytes: &[u8],
    start: usize,
    end: usize,
    scan: &mut FileScan,
) -> Option<WordRole> {
    if !stands_in_context(word.context, lang, bytes, start, end)
        || scan.in_line_comment(bytes, start, lang == Language::Python)
    {
        return None;
    }
    // `throw new Error('bug: include db.users._id in projection')`: in JavaScript, `db.` and `db[`
    // inside a one-line '..' or ".." string name nothing the frontend reads (a template literal
    // may hold code in `${..}`, so it counts as code, as does a line that starts inside a string).
    // `in_line_comment` above has read the line up to `start`: `scan.quote` is the quote open there.
    if is_js(lang) && matches!(word.word, "db." | "db[") && matches!(scan.quote, Some(b'"' | b'\''))
    {
        return None;
    }
    // `default_auto_field = 'django.db.models.BigAutoField'`: the same in a Python string (an
    // f-string's `{..}` holds code, so it counts).
    if lang == Language::Python
        && matches!(word.word, "db." | "db[" | "database[")
        && scan.quote.is_some()
        && !is_python_f_string(bytes, scan.quote_at)
    {
        return None;
    }
    // Flask-SQLAlchemy's `db`: `db.session.add(..)`, `db.Column(db.String)`, `db.relationship(..)`
    // name no collection (unless the session is called with a collection's method).
    if lang == Language::Python && word.word == "db." && is_sqlalchemy_db_attribute(bytes, end) {
        return None;
    }
    // `_getContentFromMongo(..)`, `Metrics.inc('compile-from-mongo')`: in JavaScript, `mongo`
    // names MongoDB where the frontend can read it, in a module specifier (`from 'mongodb'`,
    // `require('../lib/mongo.js')`, `import('./MongoManager')`) or as a name of its own
    // (`MongoClient`, `mongoose`, `mongoDb.users`); inside another name or another string it
    // names nothing the frontend reads.
    if is_js(lang) && matches!(word.word, "mongo" | "Mongo") {
        let stands = match scan.quote {
            Some(b'"' | b'\'') => is_module_specifier(bytes, scan.quote_at),
            _ => start == 0 || !is_ident_byte(bytes[start - 1]),
        };
        if !stands {
            return None;
        }
    }
    if word.context == WordContext::MethodCall
        && word.role == WordRole::Hint
        && !shapes_an_operation(lang, bytes, start)
    {
        return None;
    }
    // `def find_one(item_id):`, `create_index(self, resource, ..)` (eve's `_create_index` imported
    // under that name): the Python frontend reads an operation only as a method of a collection
    // or a queryset, so a driver-only operation name that no `.` precedes is no evidence; it is
    // a hint (a wrapper of the driver may be defined here).
    // In both languages, `action: 'updateMany'`, `z.literal('deleteMany')`, `"find_one"`: an
    // operation's name inside a one-line string (no template literal, no f-string) calls
    // nothing; an event's or a log's name for the operation hints at MongoDB.
    if word.role == WordRole::Evidence && word.context == WordContext::Identifier {
        let string = match scan.quote {
            Some(b'"' | b'\'') if is_js(lang) => true,
            Some(_) if lang == Language::Python => !is_python_f_string(bytes, scan.quote_at),
            _ => false,
        };
        let hint = match lang {
            Language::Python
                if lang::vocabulary::py_operation(word.word).is_some_and(|m| m.driver_only) =>
            {
                string || !follows_dot(bytes, start)
            }
            _ if is_js(lang) => {
                string && lang::vocabulary::js_operation(word.word).is_some_and(|m| m.driver_only)
            }
            _ => false,
        };
        if hint {
            return Some(WordRole::Hint);
        }
    }
    // `new Schema({..})`, `@Prop()`, `SchemaFactory.createForClass(C)`: the JavaScript frontend
    // reads a schema for its index declarations alone (the model compiled from it is named by
    // `model(..)`, a word of its own), so a file whose schemas declare no index option names
    // nothing it reads. erxes keeps 127 such files (`export const appSchema = new Schema({..})`).
    if is_js(lang)
        && matches!(word.word, "Schema" | "Prop" | "SchemaFactory")
        && !*scan
            .declares_index
            .get_or_insert_with(|| spells_index_option(bytes))
    {
        return None;
    }
    let role = word.role;
    if word.context == WordContext::Attribute && word.word == "objects" {
        return Some(if calls_a_model_manager(bytes, start, end) {
            role
        } else {
            role.min(WordRole::Confirmation)
        });
    }
    match word.context {
        // `'../models/User'`: the file imports models; a call of the getter is evidence.
        // In JavaScript, only in a module specifier: a URL (`"https://../2-api/models.md"`)
        // imports nothing.
        WordContext::Call if start > 0 && bytes[start - 1] == b'/' => (!is_js(lang)
            || (scan.quote.is_some() && is_module_specifier(bytes, scan.quote_at)))
        .then_some(role.min(WordRole::Hint)),
        // `getCollection()`, `model("User", schema)`: a function of the application, or
        // Mongoose's `model` imported by name; the frontends name collections from
        // `db.collection(..)` / `mongoose.model(..)`.
        // `function getCollection(mongo, ..) {`, `def get_collection(self, name):`: a definition.
        WordContext::Call
            if ["function", "def", "fn"]
                .iter()
                .any(|k| ends_with_word(bytes[..start].trim_ascii_end(), k.as_bytes())) =>
        {
            None
        }
        WordContext::Call if !follows_dot(bytes, start) => Some(role.min(WordRole::Confirmation)),
        WordContext::DbAttribute | WordContext::ShellDb => {
            let shell = word.context == WordContext::ShellDb;
            let mut declared = || *scan.declares_db.get_or_insert_with(|| declares_db(bytes));
            let name_end = ident_end(bytes, end);
            // `function (db, options) { .. db.getSnapshot(..) .. db.writeOp .. }`: where `db` is
            // only ever a parameter (sharejs's document store), the frontend binds it, and an
            // untyped parameter is nothing it reads: `db.writeOp` names no collection, and a
            // collection method called on `db` itself needs its type, which a hint gives. A chain
            // (`db.users.find(..).toArray()`) may still be a driver call the frontend reads by
            // its shape.
            let bare = !follows_dot(bytes, start);
            if shell
                && bare
                && !declared()
                && *scan
                    .db_parameter
                    .get_or_insert_with(|| db_is_parameter(bytes))
            {
                return match next_non_space(bytes, name_end) {
                    Some((_, b'.' | b'[')) => Some(role),
                    Some((_, b'(')) if is_operation_name(&bytes[end..name_end]) => {
                        Some(role.min(WordRole::Confirmation))
                    }
                    _ => None,
                };
            }
            if matches!(next_non_space(bytes, name_end), Some((_, b'('))) {
                // `x.db.find(..)`, where `db` is a collection: evidence.
                if is_operation_name(&bytes[end..name_end]) {
                    return Some(role);
                }
                // `db.getObject(..)`: a method of a database wrapper, unless `db` is the database
                // itself (mongosh's global; in Python, a name the frontend takes for a database),
                // whose every attribute the frontends name as a collection.
                return (!shell || !declared()).then_some(role.min(WordRole::Confirmation));
            }
            // `addIndexes(db.users, ..)` where `db` is declared in the file (`const { db } = client`):
            // not mongosh's `db`, so no collection for the JavaScript frontend.
            if shell
                && matches!(next_non_space(bytes, name_end), Some((_, b',' | b')')))
                && declared()
            {
                return Some(role.min(WordRole::Hint));
            }
            // `self.database.users.find({..})`: in Python, a collection of a name the frontend
            // takes for a database, called with an operation, is evidence (INGInious's pages read
            // `self.database.<collection>` and write nothing).
            if role == WordRole::Confirmation
                && lang == Language::Python
                && bytes.get(name_end) == Some(&b'.')
            {
                let op_end = ident_end(bytes, name_end + 1);
                if bytes.get(op_end) == Some(&b'(')
                    && is_operation_name(&bytes[name_end + 1..op_end])
                {
                    return Some(WordRole::Evidence);
                }
            }
            Some(role)
        }
        // `MongoDB.get_client()`, `get_mongo_db()`: the Python frontend takes the call for a
        // client or a database, and its attributes for collections.
        WordContext::PyModule if in_mongo_wrapper_call(bytes, start, end) => {
            Some(WordRole::Evidence)
        }
        WordContext::OptionBuilder
            if !*scan
                .has_skip
                .get_or_insert_with(|| has_word(bytes, b"skip")) =>
        {
            Some(role.min(WordRole::Hint))
        }
        _ => Some(role),
    }
}

/// Whether the attribute at `at` (just after `db.`) is one of Flask-SQLAlchemy's: its session
/// (`db.session.commit()`; not `db.session.find(..)`, a collection named `session`), its model
/// base and column types, its relationship helpers, its engine and metadata.
fn is_sqlalchemy_db_attribute(bytes: &[u8], at: usize) -> bool {
    const NAMES: &[&[u8]] = &[
        b"Model",
        b"Column",
        b"relationship",
        b"backref",
        b"ForeignKey",
        b"Table",
        b"String",
        b"Integer",
        b"BigInteger",
        b"SmallInteger",
        b"Text",
        b"Unicode",
        b"UnicodeText",
        b"Boolean",
        b"DateTime",
        b"Date",
        b"Float",
        b"Numeric",
        b"Enum",
        b"JSON",
        b"LargeBinary",
        b"PrimaryKeyConstraint",
        b"UniqueConstraint",
        b"func",
        b"engine",
        b"metadata",
        b"create_all",
        b"drop_all",
        b"get_engine",
        b"configure_mappers",
    ];
    let name_end = ident_end(bytes, at);
    let name = &bytes[at..name_end];
    if name == b"session" {
        return match next_non_space(bytes, name_end) {
            Some((dot, b'.')) => {
                let method_at = dot + 1;
                !is_operation_name(&bytes[method_at..ident_end(bytes, method_at)])
            }
            Some((_, b'[')) => false,
            _ => true,
        };
    }
    NAMES.contains(&name)
}

/// Whether `word` occurs in `bytes` as a whole identifier.
fn has_word(bytes: &[u8], word: &[u8]) -> bool {
    whole_words(bytes, word).next().is_some()
}

/// Where `word` occurs in `bytes` as a whole identifier, as `(start, end)`, in order.
fn whole_words<'b>(
    bytes: &'b [u8],
    word: &'b [u8],
) -> impl Iterator<Item = (usize, usize)> + use<'b> {
    memchr::memmem::find_iter(bytes, word)
        .map(move |start| (start, start + word.len()))
        .filter(|&(start, end)| {
            (start == 0 || !is_ident_byte(bytes[start - 1]))
                && (end == bytes.len() || !is_ident_byte(bytes[end]))
        })
}

/// The end of the identifier that starts at `at`.
fn ident_end(bytes: &[u8], at: usize) -> usize {
    bytes[at..]
        .iter()
        .position(|b| !is_ident_byte(*b))
        .map_or(bytes.len(), |i| at + i)
}

/// Whether `bytes[start..end]` lies in the callee of a call named for a MongoDB client or database
/// (`MongoDB.get_client(..)`, `get_mongo_db(..)`, `MongoDBAccess(..)`): the dotted name holding it
/// is called, and its last segment names a client, a connection or a database. Mirrors the Python
/// frontend's reading of application wrappers.
fn in_mongo_wrapper_call(bytes: &[u8], start: usize, end: usize) -> bool {
    let is_name_byte = |b: u8| is_ident_byte(b) || b == b'.';
    let from = bytes[..start]
        .iter()
        .rposition(|b| !is_name_byte(*b))
        .map_or(0, |i| i + 1);
    let to = bytes[end..]
        .iter()
        .position(|b| !is_name_byte(*b))
        .map_or(bytes.len(), |i| end + i);
    if !matches!(next_non_space(bytes, to), Some((_, b'('))) {
        return false;
    }
    let callee = bytes[from..to].to_ascii_lowercase();
    let contains = |s: &[u8], w: &[u8]| s.windows(w.len()).any(|x| x == w);
    if !contains(&callee, b"mongo") || contains(&callee, b"mongoengine") {
        return false;
    }
    let last = callee.rsplit(|b| *b == b'.').next().unwrap_or(&[]);
    let wrapper = contains(last, b"client")
        || contains(last, b"db")
        || contains(last, b"database")
        || last == b"connect";
    wrapper && result_is_accessed(bytes, from, to)
}

/// Whether the result of the call whose callee is `bytes[from..to]` has its attributes or items
/// read, where the Python frontend names collections: right away (`get_mongo_db()["users"]`), or
/// through the plain name it is assigned to (`db = get_mongo_db()` … `db.users`, `item[..]`). A
/// wrapper whose result is only passed on or kept as a class attribute names nothing.
fn result_is_accessed(bytes: &[u8], from: usize, to: usize) -> bool {
    let Some((open, b'(')) = next_non_space(bytes, to) else {
        return false;
    };
    let mut depth = 0usize;
    let close = bytes[open..].iter().position(|b| {
        match b {
            b'(' => depth += 1,
            b')' => depth -= 1,
            _ => {}
        }
        depth == 0
    });
    let Some(close) = close.map(|i| open + i) else {
        return false;
    };
    if matches!(next_non_space(bytes, close + 1), Some((_, b'.' | b'['))) {
        return true;
    }
    let before = bytes[..from].trim_ascii_end();
    let Some(target) = before.strip_suffix(b"=") else {
        return false;
    };
    if matches!(target.last(), Some(b'=' | b'!' | b'<' | b'>' | b':')) {
        return false;
    }
    let target = target.trim_ascii_end();
    let name_start = target
        .iter()
        .rposition(|b| !(is_ident_byte(*b) || *b == b'.'))
        .map_or(0, |i| i + 1);
    let name = &target[name_start..];
    if name.is_empty() || name.starts_with(b".") {
        return false;
    }
    let mut at = 0;
    while let Some(i) = bytes[at..].windows(name.len()).position(|w| w == name) {
        let (start, end) = (at + i, at + i + name.len());
        at = end;
        let left_ok = start == 0 || !(is_ident_byte(bytes[start - 1]) || bytes[start - 1] == b'.');
        if left_ok && matches!(bytes.get(end), Some(b'.' | b'[')) {
            return true;
        }
    }
    false
}

/// Whether a JavaScript file declares a `db` of its own (`const db = ..`, `let { db } = client`,
/// `import { db } from ..`, `import db from ..`), so that `db` is not mongosh's global there.
fn declares_db(bytes: &[u8]) -> bool {
    for (start, end) in whole_words(bytes, b"db") {
        let mut before = bytes[..start].trim_ascii_end();
        // A name in a declared destructuring pattern or an import list: `const { client, db } =`,
        // `import { db } from`; not a destructured parameter (`async ({ db }) =>`), which the
        // JavaScript frontend does not bind.
        let after = next_non_space(bytes, end).map(|(_, b)| b);
        if matches!(before.last(), Some(b'{' | b',')) && matches!(after, Some(b'}' | b',')) {
            match before
                .iter()
                .rposition(|b| !(is_ident_byte(*b) || b" \t\r\n,:".contains(b)))
            {
                Some(i) if bytes[i] == b'{' => before = bytes[..i].trim_ascii_end(),
                _ => continue,
            }
        }
        let keyword = [&b"const"[..], b"let", b"var", b"import", b"as"]
            .iter()
            .any(|k| ends_with_word(before, k));
        if keyword {
            return true;
        }
    }
    false
}

/// Whether a JavaScript file binds `db` as a plain parameter, the way the frontend binds one:
/// `function (db, options) {`, `async (db) =>`, `db => ..`, `up(db, client) {`, TypeScript's
/// `(db: Db) =>`; not a destructured one (`({ db }) =>`, which the frontend does not bind), an
/// argument (`f(db, x)`) or a condition (`if (db) {`).
fn db_is_parameter(bytes: &[u8]) -> bool {
    for (start, end) in whole_words(bytes, b"db") {
        let before = bytes[..start].trim_ascii_end();
        let Some((after, next)) = next_non_space(bytes, end) else {
            continue;
        };
        // `db => ..`, alone or after `async`.
        if bytes[after..].starts_with(b"=>") {
            if !matches!(before.last(), Some(b'.')) {
                return true;
            }
            continue;
        }
        // In a parameter list: after `(` or `,`, before `,`, `)`, a default or a type.
        let default = next == b'=' && !matches!(bytes.get(after + 1), Some(b'=' | b'>'));
        if !matches!(before.last(), Some(b'(' | b','))
            || !(matches!(next, b',' | b')' | b':' | b'?') || default)
        {
            continue;
        }
        let Some(open) = enclosing_open(bytes, start) else {
            continue;
        };
        if bytes[open] != b'(' || is_condition(&bytes[..open]) {
            continue;
        }
        let Some(close) = matching_close(bytes, open) else {
            continue;
        };
        // A body or an arrow after the list, or TypeScript's return type (`): Promise<void> {`).
        match next_non_space(bytes, close + 1) {
            Some((_, b'{' | b':')) => return true,
            Some((at, b'=')) if bytes[at..].starts_with(b"=>") => return true,
            _ => {}
        }
    }
    false
}

/// The position of the bracket that closes the one at `open`, within 1 KB (strings are not
/// recognised).
fn matching_close(bytes: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &b) in bytes[open..bytes.len().min(open + 1024)].iter().enumerate() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The `(`, `[` or `{` that the bracket at `close` closes, looking back at most 1024 bytes.
fn matching_open(bytes: &[u8], close: usize) -> Option<usize> {
    let mut depth = 0usize;
    let from = close.saturating_sub(1024);
    for i in (from..=close).rev() {
        match bytes[i] {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// How many calls back [`shapes_an_operation`] follows a chain.
const MAX_CHAIN_LINKS: usize = 16;

/// Whether the shaping modifier whose name starts at `start` (`toArray`, `lean`, Motor's
/// `to_list`) may shape an operation the frontend reads: chained on a call of an operation name
/// (`db.users.find(q).sort(s).toArray()`), or through modifiers only on a plain name, which may be
/// bound to one (`cursor.toArray()`, `cursor.sort(s).toArray()`). On anything else
/// (`this._sources.toArray()`, `$('.x').toArray()`, `Object.values(o).toArray()`) it names
/// nothing. Where the chain cannot be read back (type arguments, a long argument list), it may.
fn shapes_an_operation(lang: Language, bytes: &[u8], start: usize) -> bool {
    let modifiers = if lang == Language::Python {
        lang::vocabulary::PY_MODIFIERS
    } else {
        lang::vocabulary::MODIFIERS
    };
    // `start` follows a `.` (the method-call context); `dot` is where that `.` is.
    let Some(mut dot) = bytes[..start].trim_ascii_end().len().checked_sub(1) else {
        return false;
    };
    let mut only_modifiers = true;
    for _ in 0..MAX_CHAIN_LINKS {
        let Some(link) = chain_link(bytes, dot, false) else {
            return true;
        };
        if link.name.is_empty() {
            return false;
        }
        if !link.called {
            // Not a call: a plain name is a cursor the frontend may have bound, as is a Python
            // `self.cursor`; another member, or `this`, is nothing it reads.
            let plain = match link.dot {
                Some(d) => lang == Language::Python && ends_with_word(&bytes[..d], b"self"),
                None => link.name != b"this" && link.name != b"self",
            };
            return plain && only_modifiers;
        }
        if is_operation_name(link.name) {
            return true;
        }
        only_modifiers &= std::str::from_utf8(link.name).is_ok_and(|n| modifiers.contains(&n));
        match link.dot {
            Some(d) => dot = d,
            None => return false,
        }
    }
    true
}

/// One link of a call chain, read back from the `.` after it: `find(q)` in `c.find(q).toArray()`.
struct ChainLink<'b> {
    /// The method's name, the indexed name's (`models` in `models[k]`), or the chain's root.
    name: &'b [u8],
    /// Whether the name is called (`find(q)`), not a plain name (`cursor`) or indexed.
    called: bool,
    /// Where the `.` before the name is, if it is a member (`db.users`).
    dot: Option<usize>,
}

/// The link of a call chain before the `.` at `dot` (`?.` too), reading back through a call's
/// arguments and, with `through_index`, an index (`models[k]`; else the link's name is empty).
/// `None` where it cannot be read back: type arguments before the call (`aggregate<T>(..)`), or
/// brackets that open more than 1,024 bytes back.
fn chain_link(bytes: &[u8], dot: usize, through_index: bool) -> Option<ChainLink<'_>> {
    let mut receiver = bytes[..dot].trim_ascii_end();
    if let Some(r) = receiver.strip_suffix(b"?") {
        receiver = r;
    }
    let end = receiver.len();
    let called = receiver.last() == Some(&b')');
    let name_end = if called || (through_index && receiver.last() == Some(&b']')) {
        let open = matching_open(bytes, end - 1)?;
        let callee = bytes[..open].trim_ascii_end();
        if callee.last() == Some(&b'>') {
            return None;
        }
        callee.len()
    } else {
        end
    };
    let name_start = bytes[..name_end]
        .iter()
        .rposition(|b| !is_ident_byte(*b))
        .map_or(0, |i| i + 1);
    let before = bytes[..name_start].trim_ascii_end();
    Some(ChainLink {
        name: &bytes[name_start..name_end],
        called,
        dot: (before.last() == Some(&b'.')).then(|| before.len() - 1),
    })
}

/// Whether `before` ends with a keyword whose parentheses hold an expression, not parameters:
/// `if (db) {`, `while (db) {`.
fn is_condition(before: &[u8]) -> bool {
    let before = before.trim_ascii_end();
    ["if", "while", "for", "switch", "with"]
        .iter()
        .any(|k| ends_with_word(before, k.as_bytes()))
}

/// Whether the string whose opening quote is at `quote` is a JavaScript module specifier:
/// `from '..'`, `import '..'`, `require('..')`, `import('..')`.
fn is_module_specifier(bytes: &[u8], quote: usize) -> bool {
    let before = bytes[..quote].trim_ascii_end();
    if ends_with_word(before, b"from") || ends_with_word(before, b"import") {
        return true;
    }
    match before.strip_suffix(b"(") {
        Some(callee) => {
            let callee = callee.trim_ascii_end();
            ends_with_word(callee, b"require") || ends_with_word(callee, b"import")
        }
        None => false,
    }
}

fn is_js(lang: Language) -> bool {
    matches!(
        lang,
        Language::JavaScript | Language::TypeScript | Language::Tsx
    )
}

/// What the prefilter learns about a file while it reads the matches, in order of start.
#[derive(Default)]
struct FileScan {
    /// [`declares_db`] of the file, once needed.
    declares_db: Option<bool>,
    /// [`db_is_parameter`] of the file, once needed.
    db_parameter: Option<bool>,
    /// Whether the file spells `skip` as a whole identifier, once needed.
    has_skip: Option<bool>,
    /// How far [`FileScan::in_line_comment`] has read, and what it found on that line: an open
    /// quote, a backslash in it, a line comment.
    pos: usize,
    quote: Option<u8>,
    /// Where the open quote opened.
    quote_at: usize,
    escaped: bool,
    comment: bool,
    /// [`spells_operators`] of the file, once needed.
    has_operators: Option<bool>,
    /// [`spells_index_option`] of the file, once needed.
    declares_index: Option<bool>,
    /// [`import_windows`] of the file, once needed, and [`is_imported`] of each name asked.
    import_windows: Option<Vec<(usize, usize, bool)>>,
    imported: crate::lang::HashMap<Box<[u8]>, bool>,
    /// Where the file holds no code, once needed: [`python_long_strings`] in Python,
    /// [`leading_block_comments`] in the other languages.
    no_code: Option<Vec<(usize, usize)>>,
}

impl FileScan {
    /// Whether `at` lies in a line comment (`// ..`, Python's `# ..`): the frontends never read
    /// comments, so a word there names nothing (`# There is no MongoDB connection available`).
    /// Quotes are followed from the start of the line, so a `//` or `#` inside a string is not a
    /// comment; a line that starts inside a multi-line string counts as code unless its quotes
    /// balance, and a docstring line with a `#` names nothing either. Block comments are not
    /// recognised. A line's state starts afresh, so only the line of `at` is read: on from where
    /// the previous (earlier) match left off if that is on the same line, else from the line's
    /// start. Each group's matches come by start, so a line is read at most once per group of
    /// prefilter words however long it is and however many its matches, and lines without a
    /// match are not read.
    fn in_line_comment(&mut self, bytes: &[u8], at: usize, python: bool) -> bool {
        if at < self.pos {
            self.pos = line_start(bytes, at);
            self.new_line();
        } else if let Some(i) = memchr::memrchr(b'\n', &bytes[self.pos..at]) {
            // A line's state starts afresh: only the line of `at` need be read.
            self.pos += i + 1;
            self.new_line();
        }
        while self.pos < at {
            let c = bytes[self.pos];
            self.pos += 1;
            if c == b'\n' {
                self.new_line();
            } else if self.comment {
            } else if self.escaped {
                self.escaped = false;
            } else if let Some(q) = self.quote {
                if c == b'\\' {
                    self.escaped = true;
                } else if c == q {
                    self.quote = None;
                }
            } else {
                match c {
                    b'"' | b'\'' | b'`' if c != b'`' || !python => {
                        self.quote = Some(c);
                        self.quote_at = self.pos - 1;
                    }
                    b'#' if python => self.comment = true,
                    b'/' if !python && bytes.get(self.pos) == Some(&b'/') => self.comment = true,
                    _ => {}
                }
            }
        }
        self.comment
    }

    fn new_line(&mut self) {
        self.quote = None;
        self.escaped = false;
        self.comment = false;
    }
}

/// Whether the Python string whose opening quote is at `quote` is an f-string (`f"{db.x}"`,
/// `rf'..'`): its `{..}` holds code.
fn is_python_f_string(bytes: &[u8], quote: usize) -> bool {
    let prefix_start = bytes[..quote]
        .iter()
        .rposition(|b| !b.is_ascii_alphabetic())
        .map_or(0, |i| i + 1);
    let prefix = &bytes[prefix_start..quote];
    prefix.len() <= 2 && prefix.iter().any(|b| matches!(b, b'f' | b'F'))
}

/// The triple-quoted strings of a Python file (docstrings, long literals) but f-strings, as
/// `(start, end)` byte ranges in order: what lies in them is no code. Comments and one-line
/// strings are skipped over, so a `'''` inside them opens nothing; a one-line string ends at its
/// line's end if unclosed, a triple-quoted one at the file's end.
fn python_long_strings(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(off) = memchr::memchr3(b'#', b'"', b'\'', &bytes[i..]) {
        let at = i + off;
        let q = bytes[at];
        if q == b'#' {
            i = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |n| at + n + 1);
            continue;
        }
        if bytes[at..].starts_with(&[q, q, q]) {
            let mut j = at + 3;
            let end = loop {
                match memchr::memchr2(q, b'\\', bytes.get(j..).unwrap_or_default()) {
                    None => break bytes.len(),
                    Some(n) if bytes[j + n] == b'\\' => j += n + 2,
                    Some(n) if bytes[j + n..].starts_with(&[q, q, q]) => break j + n + 3,
                    Some(n) => j += n + 1,
                }
            };
            if !is_python_f_string(bytes, at) {
                out.push((at, end));
            }
            i = end.min(bytes.len());
        } else {
            let mut j = at + 1;
            i = loop {
                match memchr::memchr3(q, b'\\', b'\n', bytes.get(j..).unwrap_or_default()) {
                    None => break bytes.len(),
                    Some(n) if bytes[j + n] == b'\\' => j += n + 2,
                    Some(n) => break j + n + 1,
                }
            };
        }
    }
    out
}

/// Whether a hint that stands is weak: in JavaScript, `mongo` as a name of its own (`ctx.mongo`,
/// `MongoContext`, a comment's `MongoDB`) or a models path segment (`'../models/comment'`).
/// The JavaScript frontend learns nothing from either: it types receivers from module specifiers
/// (`from 'mongodb'`, a strong hint), so with only weak hints a collection method on an unknown
/// receiver is read only by its operators, or resolved through an import (coral's
/// `notifications.create(tenant.id, ..)` and `cache.update(redis, t)` in files that pass
/// `mongo: MongoContext` along are neither). Other languages' hints are all strong.
fn is_weak_hint(lang: Language, word: &PrefilterWord, scan: &FileScan) -> bool {
    is_js(lang)
        && (word.context == WordContext::Call
            || (matches!(word.word, "mongo" | "Mongo")
                && !matches!(scan.quote, Some(b'"' | b'\''))))
}

/// Whether the file spells a MongoDB operator or field path: `$` and a lowercase letter, not
/// inside a name (`{ $in: ids }`, `"$set"`, `"$price"`; `${x}`, `$(..)` and `a$b` are none).
fn spells_operators(bytes: &[u8]) -> bool {
    memchr::memchr_iter(b'$', bytes).any(|i| {
        bytes.get(i + 1).is_some_and(|c| c.is_ascii_lowercase())
            && (i == 0 || !is_ident_byte(bytes[i - 1]))
    })
}

/// Whether the receiver of the method call whose name starts at `start` is rooted in an imported
/// name (`User.find(..)`, `models.User.find(..)` after `import User from '../models/user'` or
/// `const models = require('./models')`), or cannot be read back.
fn receiver_is_imported(bytes: &[u8], start: usize, scan: &mut FileScan) -> bool {
    let Some(mut dot) = bytes[..start].trim_ascii_end().len().checked_sub(1) else {
        return true;
    };
    for _ in 0..MAX_CHAIN_LINKS {
        let Some(link) = chain_link(bytes, dot, true) else {
            return true;
        };
        match (link.name, link.dot) {
            (b"", _) => return false,
            (_, Some(d)) => dot = d,
            (b"require" | b"import", None) => return true,
            (name, None) => return is_imported(bytes, name, scan),
        }
    }
    true
}

/// How many receivers' names [`is_imported`] looks up in one file.
const MAX_RECEIVER_NAMES: usize = 256;

/// Whether `name` is bound by an import: `import X from '..'`, `import { A, X } from '..'`,
/// `import * as X from '..'`, `const X = require('..')`, `const { X } = require('..')`, of a module
/// that may be a file of the repository. Read as an occurrence of the name in one of the file's
/// [`import_windows`]: the text before a `from '..'` or `require(`, back to the statement's start,
/// which also takes a few other statements for imports: this only ever parses more. Once per name
/// and file (`FileScan::imported`), for at most [`MAX_RECEIVER_NAMES`] names.
fn is_imported(bytes: &[u8], name: &[u8], scan: &mut FileScan) -> bool {
    if let Some(&known) = scan.imported.get(name) {
        return known;
    }
    // Each name costs a search of the imports: past this many names, the file is parsed.
    if scan.imported.len() >= MAX_RECEIVER_NAMES {
        return true;
    }
    let windows = scan
        .import_windows
        .get_or_insert_with(|| import_windows(bytes));
    let imported = windows.iter().any(|&(lo, hi, repository)| {
        repository && whole_words(&bytes[lo..hi], name).next().is_some()
    });
    scan.imported.insert(name.into(), imported);
    imported
}

/// The text of a JavaScript file that may bind names by an import, in order: before each
/// `from '..'` and `require(`, back to the previous one, the statement's `;` or 1,024 bytes, with
/// whether its module may be a file of the repository ([`links_to_the_repository`]; a `require`
/// of no literal may).
fn import_windows(bytes: &[u8]) -> Vec<(usize, usize, bool)> {
    let mut specifiers: Vec<(usize, bool)> = memchr::memmem::find_iter(bytes, b"require(")
        .map(|k| {
            let repository = match next_non_space(bytes, k + b"require(".len()) {
                Some((q, b'\'' | b'"' | b'`')) => links_to_the_repository(&bytes[q + 1..]),
                _ => true,
            };
            (k, repository)
        })
        .collect();
    specifiers.extend(whole_words(bytes, b"from").filter_map(|(k, e)| {
        match next_non_space(bytes, e) {
            Some((q, b'\'' | b'"')) => Some((k, links_to_the_repository(&bytes[q + 1..]))),
            _ => None,
        }
    }));
    specifiers.sort_unstable();
    let mut previous = 0;
    specifiers
        .into_iter()
        .map(|(k, repository)| {
            let mut lo = previous.max(k.saturating_sub(1024));
            if let Some(i) = memchr::memrchr(b';', &bytes[lo..k]) {
                lo += i + 1;
            }
            previous = k;
            (lo, k, repository)
        })
        .collect()
}

/// Whether the module specifier that starts `text` (after its quote) may name a file of the
/// repository, which the linker resolves: a relative path or a path alias (`./models`,
/// `@/models/user`, `coral-server/models/comment`); a package's name (`subscriptions-transport-ws`)
/// names none.
fn links_to_the_repository(text: &[u8]) -> bool {
    let end = memchr::memchr3(b'\'', b'"', b'`', text).unwrap_or(text.len());
    let specifier = &text[..end];
    specifier.starts_with(b".") || specifier.contains(&b'/')
}

/// The block comments of a JavaScript, TypeScript or Rust file that open a line (JSDoc, license
/// headers, commented-out code), as `(start, end)` byte ranges in order: what lies in them is no
/// code. One that opens after code on its line (`f(/* x */ a)`) is not looked for: a `/*` there may
/// be inside a string or a regular expression (`/[/*]/`). One never closed is none.
fn leading_block_comments(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(off) = memchr::memmem::find(&bytes[from..], b"/*") {
        let at = from + off;
        let line_start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
        if !bytes[line_start..at]
            .iter()
            .all(|b| matches!(b, b' ' | b'\t'))
        {
            from = at + 2;
            continue;
        }
        match memchr::memmem::find(&bytes[at + 2..], b"*/") {
            Some(n) => {
                let end = at + 2 + n + 2;
                out.push((at, end));
                from = end;
            }
            None => break,
        }
    }
    out
}

/// Whether the line holding `at` is a Python import (`from app.models.db.action import X`): a
/// module path, never a collection.
fn in_python_import(bytes: &[u8], at: usize) -> bool {
    let line = bytes[line_start(bytes, at)..at].trim_ascii_start();
    line.starts_with(b"from ") || line.starts_with(b"import ")
}

/// Whether `name` is a collection method of any frontend (`find`, `aggregate`, `update_one`).
fn is_operation_name(name: &[u8]) -> bool {
    let Ok(name) = std::str::from_utf8(name) else {
        return false;
    };
    lang::vocabulary::js_operation(name).is_some()
        || lang::vocabulary::py_operation(name).is_some()
        || lang::vocabulary::RUST_OPERATIONS
            .iter()
            .any(|m| m.name == name)
}

/// What the prefilter makes of a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Nothing of the driver vocabulary: not parsed.
    Skip,
    /// Only hints (`mongo`, a models path, `skip`): nothing the frontends read as an operation or a
    /// collection, but it may re-export a model, so it is parsed if a parsed file imports from it.
    Defer,
    /// Evidence, or a hint confirmed (`mongo` and a call of `find(`): parsed.
    Parse,
}

/// The prefilter's verdict on a file's bytes: evidence alone, or a hint and a confirmation, each
/// standing in its context (see [`WordRole`]). The confirmations are looked for only in a file
/// that has a hint (or, in Python, a document class): without one they could not count.
pub fn verdict(lang: Language, bytes: &[u8]) -> Verdict {
    let p = prefilter(lang);
    let mut reading = VerdictReading::default();
    let (first, rest) = p.groups.split_at(p.first);
    if let Some(v) = reading.read(lang, bytes, p.matches_of(first, bytes)) {
        return v;
    }
    if !reading.hint && !reading.document_class {
        return Verdict::Skip;
    }
    reading
        .read(lang, bytes, p.matches_of(rest, bytes))
        .unwrap_or_else(|| reading.end(bytes))
}

/// What [`verdict`] has read of a file so far.
#[derive(Default)]
struct VerdictReading {
    hint: bool,
    /// A hint that lets any confirmation count (see [`is_weak_hint`]).
    strong_hint: bool,
    confirmation: bool,
    /// A confirmation the frontend may read with only a weak hint (see [`is_weak_hint`]): not a
    /// JavaScript method call, or one on an imported name.
    confirmation_on_import: bool,
    /// The Python frontend takes any `class X(Document)` for a mongoengine model, imported from
    /// mongoengine or not (a project may re-export it), so `X.objects(..)` beside it is an
    /// operation: the two confirmations together are evidence.
    document_class: bool,
    objects: bool,
    /// A JavaScript `.skip(expr)` method call: offset paging, should the file also call
    /// `.limit(..)` (see [`VerdictReading::end`]).
    skip_call: bool,
    scan: FileScan,
}

impl VerdictReading {
    /// Reads `matches`; `Some(Verdict::Parse)` as soon as they make the file parsed.
    fn read<'p>(
        &mut self,
        lang: Language,
        bytes: &[u8],
        matches: impl Iterator<Item = (&'p PrefilterWord, usize, usize)>,
    ) -> Option<Verdict> {
        for (word, start, end) in matches {
            // Once the file has a hint, another hint word can add nothing: `standing` only lowers
            // a role, except that a Python module name inside a client or database call is
            // evidence, and that a JavaScript `.skip(` still marks a pagination helper (see
            // `end`) in a file that already has a hint (`import { MongoClient } from "mongodb"`).
            if self.strong_hint
                && word.role == WordRole::Hint
                && word.context != WordContext::PyModule
                && (word.context != WordContext::Skip || self.skip_call || !is_js(lang))
            {
                continue;
            }
            match standing(lang, word, bytes, start, end, &mut self.scan) {
                Some(WordRole::Evidence) => return Some(Verdict::Parse),
                Some(WordRole::Hint) => {
                    self.hint = true;
                    self.strong_hint |= !is_weak_hint(lang, word, &self.scan);
                    self.skip_call |= is_js(lang)
                        && word.context == WordContext::Skip
                        && word.word == "skip"
                        && follows_dot(bytes, start);
                }
                Some(WordRole::Confirmation) => {
                    self.confirmation = true;
                    if !self.confirmation_on_import
                        && (!is_js(lang)
                            || word.context != WordContext::MethodCall
                            || receiver_is_imported(bytes, start, &mut self.scan))
                    {
                        self.confirmation_on_import = true;
                    }
                    if is_document_class(lang, word) {
                        self.document_class = true;
                    } else if lang == Language::Python && word.word == "objects" {
                        self.objects = true;
                    }
                }
                None => {}
            }
            if self.confirmed(bytes) || (self.document_class && self.objects) {
                return Some(Verdict::Parse);
            }
        }
        None
    }

    /// A confirmation with a hint: any, with a strong one; with only weak ones, one the frontend
    /// reads without a driver's type: on an imported name (the linker may resolve it), or in a
    /// file that spells operators (`{ $in: ids }`: the frontend reads a call by its operators).
    fn confirmed(&mut self, bytes: &[u8]) -> bool {
        self.confirmation
            && (self.strong_hint
                || (self.hint
                    && (self.confirmation_on_import
                        || *self
                            .scan
                            .has_operators
                            .get_or_insert_with(|| spells_operators(bytes)))))
    }

    /// The verdict once every match is read. A JavaScript file that pages a cursor it receives
    /// (`cursor.limit(n); cursor.skip(offset);` in a pagination helper) needs no other word: the
    /// frontend reads a `.skip(expr)` with a `.limit(..)` on the same variable as offset paging.
    fn end(&self, bytes: &[u8]) -> Verdict {
        if self.skip_call && memchr::memmem::find(bytes, b".limit(").is_some() {
            Verdict::Parse
        } else if self.hint {
            Verdict::Defer
        } else {
            Verdict::Skip
        }
    }
}

/// Whether the word at `start` follows a `.` (spaces and line breaks between): a method or an
/// attribute (`db.users\n  .find_one(..)`), not a name of its own.
fn follows_dot(bytes: &[u8], start: usize) -> bool {
    bytes[..start].trim_ascii_end().last() == Some(&b'.')
}

/// Whether a JavaScript file spells what the frontend reads as an index declaration of a schema:
/// `schema.index(..)`, a field option `index`, `unique`, `sparse` or `expires` (all read by name
/// anywhere: a word inside another costs a parse, not a finding), or a `text:` option.
fn spells_index_option(bytes: &[u8]) -> bool {
    let has = |w: &[u8]| memchr::memmem::find(bytes, w).is_some();
    has(b"index")
        || has(b"unique")
        || has(b"sparse")
        || has(b"expires")
        || memchr::memmem::find_iter(bytes, b"text").any(|at| {
            let rest = &bytes[at + 4..];
            let rest = rest
                .strip_prefix(b"'")
                .or_else(|| rest.strip_prefix(b"\""))
                .unwrap_or(rest);
            (at == 0 || !is_ident_byte(bytes[at - 1]))
                && rest.trim_ascii_start().first() == Some(&b':')
        })
}

/// A JavaScript module named for MongoDB (`data/mongodb.ts`, `lib/mongo.js`) without a word of
/// it: what its importers take for collections may be another store's (juice-shop's
/// `reviewsCollection = new MarsDB.Collection('posts')`), so it waits with the deferred files
/// until a parsed file imports from it, and its exports say what they are. So is the entry of a
/// package or folder named for it (`packages/mongo/src/index.ts`, the workspace package
/// `@sorry-cypress/mongo`, which only re-exports its modules: `export * from './db'`).
fn is_named_for_mongo(path: &Path, lang: Language) -> bool {
    if !is_js(lang) {
        return false;
    }
    // (On the path's bytes: `Path`'s components cost more than the rest of a skipped file.)
    let mongo = |n: &[u8]| n.windows(5).any(|w| w.eq_ignore_ascii_case(b"mongo"));
    let bytes = path.as_os_str().as_encoded_bytes();
    let mut parts = bytes.rsplit(|&b| b == b'/' || b == std::path::MAIN_SEPARATOR as u8);
    let name = parts.next().unwrap_or(bytes);
    if mongo(name) {
        return true;
    }
    if name
        .strip_prefix(b"index.")
        .is_none_or(|ext| ext.contains(&b'.'))
    {
        return false;
    }
    let folder = parts.next().unwrap_or_default();
    mongo(folder) || folder == b"src" && parts.next().is_some_and(mongo)
}

/// A Python package's `__init__.py` that imports, or a JavaScript folder's `index.js` that
/// requires or exports models (or collection factories): it may re-export a model of the package (`from .video import Video`,
/// `module.exports.Token = require('./token.model')`) without a word of MongoDB, so it waits with
/// the deferred files until a parsed file imports from the package (`const { Token } =
/// require('../models')`).
fn is_package_init(path: &Path, lang: Language, bytes: &[u8]) -> bool {
    let has = |w: &[u8]| memchr::memmem::find(bytes, w).is_some();
    match lang {
        Language::Python => path.file_name().is_some_and(|n| n == "__init__.py") && has(b"import"),
        // Only an index that names models: a folder's `index.js` that gathers other modules is
        // common, and overleaf has 29 that mongolint would parse for nothing.
        // An index in a folder named for models (`models/index.js` gathering
        // `User: require('./user')`) is one whatever its text says.
        _ if is_js(lang) => {
            path.file_stem().is_some_and(|n| n == "index")
                && (has(b"require(") || has(b"export "))
                && (has(b"model")
                    || has(b"Model")
                    || has(b"schema")
                    || has(b"Schema")
                    // (`export { OrdersCollection } from './db/orders'`, a factory's.)
                    || has(b"Collection")
                    || path
                        .parent()
                        .and_then(Path::file_name)
                        .and_then(|n| n.to_str())
                        .is_some_and(is_models_folder))
        }
        _ => false,
    }
}

/// A JavaScript module named for constants (`constants.ts`, `collections.js`,
/// `db-names.ts`, `enums/index.ts`, `mongo.config.js`): kept, without a hint, for the modules
/// whose collection names spell its constants (see `Shared::unhinted`).
fn names_constants(path: &Path) -> bool {
    let name = lang::file_name_bytes(path);
    let stem = &name[..memchr::memrchr(b'.', name).unwrap_or(name.len())];
    let stem = if stem == b"index" {
        path.parent()
            .and_then(|p| p.file_name())
            .map_or(&b""[..], |f| f.as_encoded_bytes())
    } else {
        stem
    };
    // The word first or last: `constants`, `CollectionNames`, `db-constants`, `mongo.config`,
    // `enums`.
    const WORDS: [&[u8]; 5] = [b"constant", b"collection", b"enum", b"names", b"config"];
    let (Some(&first), Some(&last)) = (stem.first(), stem.last()) else {
        return false;
    };
    // (Most names neither start nor end as these words do: a byte each says so.)
    let starts = matches!(first | 0x20, b'c' | b'e' | b'n');
    let ends = matches!(last | 0x20, b't' | b'n' | b'm' | b's' | b'g');
    if !starts && !ends {
        return false;
    }
    let plural = stem.strip_suffix(b"s").unwrap_or(stem);
    WORDS.iter().any(|w| {
        starts
            && stem
                .get(..w.len())
                .is_some_and(|s| s.eq_ignore_ascii_case(w))
            || ends
                && [stem, plural]
                    .iter()
                    .any(|t| t.len() >= w.len() && t[t.len() - w.len()..].eq_ignore_ascii_case(w))
    })
}

/// Whether a folder's name says it holds the application's models or schemas (`models`,
/// `Models`, `schemas`, `model`).
fn is_models_folder(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    matches!(
        lower.as_str(),
        "model" | "models" | "schema" | "schemas" | "collections"
    )
}

/// Whether the walk skips a file's bytes as a minified or bundled build (unless `--no-ignore`),
/// whatever the prefilter would say of them (a debugging aid, for the benchmark's floor).
#[doc(hidden)]
pub fn looks_built(lang: Language, bytes: &[u8]) -> bool {
    looks_minified(bytes) || (is_js(lang) && looks_bundled(bytes))
}

/// Whether a file is parsed on its own merits (see [`verdict`]).
pub fn may_matter(lang: Language, bytes: &[u8]) -> bool {
    verdict(lang, bytes) == Verdict::Parse
}

/// The prefilter words that stand in their context in `bytes`, with what each says (a debugging
/// aid for tuning the vocabulary).
#[doc(hidden)]
pub fn matched_words(lang: Language, bytes: &[u8]) -> Vec<(&'static str, WordRole)> {
    let p = prefilter(lang);
    let mut scan = FileScan::default();
    let mut out: Vec<(&'static str, WordRole)> = p
        .matches(bytes)
        .filter_map(|(word, start, end)| {
            standing(lang, word, bytes, start, end, &mut scan).map(|r| (word.word, r))
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Path shown to users: relative to `base` (the repository root) when below it, `/`-separated.
pub fn display_path(path: &Path, base: &Path) -> String {
    crate::workspace::relative_display(path, base)
}

/// Test folders: their driver calls exercise the code rather than define how it accesses data.
const TEST_DIRS: &[&str] = &[
    "test",
    "tests",
    "__tests__",
    "__mocks__",
    "spec",
    "specs",
    "e2e",
    "cypress",
    // Helpers for the tests (gitter's `modules/test-utils/`: fixture users with `$push`ed
    // identities).
    "test-utils",
    "test_utils",
    "testutils",
    "test-helpers",
    "test_helpers",
];

/// Test files by name: `x.test.js`, `x.spec.ts`, `x.e2e.ts`, `x.integ.ts` (GROWI's
/// integration suites; not `x.integration.ts`, which may be the code of an integration),
/// `x-test.js` and `x_spec.ts` (LearningLocker's `timezones-test.js`; in Rust `x_test.rs` only:
/// m87's `deploy_spec.rs` is the model of a deployment's specification),
/// `test_x.py`, `x_test.py`, `x_tests.py`, `tests.py` (a Django application's test module),
/// `conftest.py`.
fn is_test_file(name: &str) -> bool {
    let stem = &name[..memchr::memchr(b'.', name.as_bytes()).unwrap_or(name.len())];
    has_inner_part(name, |p| matches!(p, "test" | "spec" | "e2e" | "integ"))
        || (!name.ends_with(".py")
            && ["-test", "_test", "-spec", "_spec"]
                .iter()
                .any(|t| stem.ends_with(t) && (t.ends_with("test") || !name.ends_with(".rs")))
            // An A/B test's code (`ab-test.js`, `split_test.ts`) is the application's.
            && !["ab-test", "ab_test", "split-test", "split_test"]
                .iter()
                .any(|t| stem.ends_with(t)))
        || (!name.ends_with(".py") && !name.ends_with(".rs") && js_test_support(stem))
        || (name.ends_with(".py")
            && (stem.starts_with("test_")
                || stem.ends_with("_test")
                || stem.ends_with("_tests")
                || stem == "tests"
                || stem == "conftest"))
}

/// A JavaScript or TypeScript file of tests by its name's last words (`accounts_tests.js`,
/// `email_tests_setup.js`, `test-helpers.ts`: Meteor's packages keep tests beside the code).
fn js_test_support(stem: &str) -> bool {
    // From the last word back: helpers' words, then `test` or `tests`, then what stands before.
    let mut words = stem.rsplit(['-', '_']);
    let mut after = 0;
    loop {
        match words.next() {
            Some("test" | "tests") => break,
            Some("setup" | "helper" | "helpers" | "util" | "utils" | "fixture" | "fixtures") => {
                after += 1
            }
            _ => return false,
        }
    }
    let before = words.next();
    (before.is_some() || after > 0) && !matches!(before, Some("ab" | "split"))
}

/// Whether a part of `name` between two dots is one `is_part` accepts: `x.test.js`'s `test`, as
/// `name.contains(".test.")` says (the walk asks it of every file: a substring search's set-up
/// per call cost 17 M instructions on the 1M-line repository of bench/, session 51).
fn has_inner_part(name: &str, is_part: impl Fn(&str) -> bool) -> bool {
    let mut dots = memchr::memchr_iter(b'.', name.as_bytes());
    let Some(mut from) = dots.next() else {
        return false;
    };
    for to in dots {
        if is_part(&name[from + 1..to]) {
            return true;
        }
        from = to;
    }
    false
}

fn is_minified_name(name: &str) -> bool {
    name.ends_with(".min.js")
        || name.ends_with(".min.mjs")
        || has_inner_part(name, |p| p == "bundle")
        || name.ends_with("-min.js")
}

/// A bundle or minified file: long lines throughout.
fn looks_minified(bytes: &[u8]) -> bool {
    if bytes.len() < 20_000 {
        return false;
    }
    // Lines of over 500 bytes on average (`len / lines > 500`) is `lines <= len / 501`; the
    // newlines are counted only up to that (a byte-by-byte count of every file of 20 KB or more
    // was 1% of a run on Wekan).
    let limit = bytes.len() / 501;
    memchr::memchr_iter(b'\n', bytes).take(limit).count() < limit
}

/// A library's distributed build vendored into the repository, unminified: a UMD or webpack
/// bundle, by the wrapper in its first 4 KB (`webpackUniversalModuleDefinition`,
/// `webpackBootstrap`, `define.amd`). Wekan's `fullcalendar.js` (621 KB), whose `create`, `remove`
/// and `toArray` are the calendar's.
fn looks_bundled(bytes: &[u8]) -> bool {
    if bytes.len() < 20_000 {
        return false;
    }
    let head = &bytes[..4096];
    [
        b"webpackUniversalModuleDefinition".as_slice(),
        b"webpackBootstrap",
        b"define.amd",
    ]
    .iter()
    .any(|m| memchr::memmem::find(head, m).is_some())
}

/// The walker of a run: the roots, the thread count and the default exclusions (`.gitignore`,
/// dependency and build folders, tests, minified bundles). Public so that the benchmark's floor
/// program (bench/floor) walks exactly the same files. `roots` must not be empty.
pub fn walk_builder(roots: &[PathBuf], opts: &Options) -> ignore::WalkBuilder {
    let mut builder = ignore::WalkBuilder::new(&roots[0]);
    for r in &roots[1..] {
        builder.add(r);
    }
    builder.threads(worker_threads(opts)).follow_links(false);
    let exclude = opts.exclude.clone();
    if opts.no_ignore {
        builder
            .standard_filters(false)
            .hidden(true)
            .filter_entry(move |e| !exclude.matches(e.path()));
    } else {
        let include_tests = opts.include_tests;
        builder.require_git(false).filter_entry(move |e| {
            // Configured excludes hold even for paths named on the command line (pre-commit
            // passes every changed file).
            if exclude.matches(e.path()) {
                return false;
            }
            if e.depth() == 0 {
                return true;
            }
            let is_dir = e.file_type().is_some_and(|t| t.is_dir());
            let name = String::from_utf8_lossy(lang::file_name_bytes(e.path()));
            if is_dir {
                !is_excluded_dir(&name) && (include_tests || !TEST_DIRS.contains(&name.as_ref()))
            } else {
                !is_minified_name(&name) && (include_tests || !is_test_file(&name))
            }
        });
    }
    builder
}

/// Worker threads: `opts.threads`, or one per CPU when it is 0.
pub fn worker_threads(opts: &Options) -> usize {
    if opts.threads == 0 {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    } else {
        opts.threads
    }
}

pub fn analyse_files(opts: &Options) -> Discovered {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    // Paths are shown relative to the repository root whatever folder we run from, so the walk
    // starts from absolute paths.
    let base = crate::workspace::display_base(&cwd, &opts.paths);
    let shared = Arc::new(Mutex::new(Shared::default()));
    let mut roots = Vec::new();
    for p in &opts.paths {
        let p = &crate::workspace::absolute(p, &cwd);
        if std::fs::symlink_metadata(p).is_err() {
            shared.lock().unwrap().errors.push(FileError {
                display_path: display_path(p, &base),
                message: "no such file or directory".to_string(),
            });
        } else {
            roots.push(p.clone());
        }
    }
    if roots.is_empty() {
        let s = Arc::try_unwrap(shared).ok().unwrap().into_inner().unwrap();
        return Discovered {
            files: s.files,
            errors: s.errors,
            scanned: 0,
            parsed: 0,
            project_roots: Vec::new(),
        };
    }
    let builder = walk_builder(&roots, opts);
    let no_ignore = opts.no_ignore;
    let max_size = opts.max_file_size;
    let scanned = AtomicUsize::new(0);
    builder.build_parallel().run(|| {
        let shared = Arc::clone(&shared);
        let scanned = &scanned;
        let base = base.clone();
        Box::new(move |entry| {
            match entry {
                Ok(e) => {
                    if e.file_type().is_some_and(|t| t.is_file()) {
                        // `setup.py` is a manifest and a Python file.
                        if is_manifest(e.path()) {
                            if let Some(dir) = e.path().parent() {
                                let dir = display_path(dir, &base);
                                shared.lock().unwrap().project_roots.push(dir);
                            }
                        }
                        if let Some(lang) = lang::language_for_name(lang::file_name_bytes(e.path()))
                        {
                            scanned.fetch_add(1, Ordering::Relaxed);
                            // The lock is taken only for the few files that produce something.
                            match analyse_one(e.path(), lang, &base, no_ignore, max_size, false) {
                                Outcome::Ready(text) => {
                                    shared
                                        .lock()
                                        .unwrap()
                                        .ready
                                        .push((lang, e.into_path(), text))
                                }
                                Outcome::Skipped => {}
                                Outcome::Unhinted => shared
                                    .lock()
                                    .unwrap()
                                    .unhinted
                                    .push((e.path().to_path_buf(), lang)),
                                Outcome::Deferred => shared
                                    .lock()
                                    .unwrap()
                                    .deferred
                                    .push((e.path().to_path_buf(), lang)),
                                Outcome::Parsed(_) => unreachable!("the walk parses nothing"),
                                Outcome::Failed(err) => shared.lock().unwrap().errors.push(err),
                            }
                        }
                    }
                }
                Err(err) => {
                    let (path, message) = walk_error(&err, &base);
                    shared.lock().unwrap().errors.push(FileError {
                        display_path: path,
                        message,
                    });
                }
            }
            ignore::WalkState::Continue
        })
    });
    let mut s = Arc::try_unwrap(shared).ok().unwrap().into_inner().unwrap();
    let threads = worker_threads(opts);
    let mut parsed = parse_ready(&mut s, &base, threads);
    parse_imported_deferred(&mut s, &base, no_ignore, max_size, threads, &mut parsed);
    s.project_roots.sort();
    s.project_roots.dedup();
    Discovered {
        files: s.files,
        errors: s.errors,
        scanned: scanned.into_inner(),
        parsed,
        project_roots: s.project_roots,
    }
}

/// Parses the files the walk read and the prefilter passed; how many were parsed. They are parsed
/// after the walk rather than as it finds them, a language at a time: tree-sitter's parse tables
/// (about 1 MB a grammar) and each frontend's code then stay in the caches from one file to the
/// next, which files in the walk's order, their languages mixed and other files read and
/// prefiltered between them, do not allow (7% of a 1-thread run on the 1M-line repository:
/// bench/README.md, session 44).
fn parse_ready(s: &mut Shared, base: &Path, threads: usize) -> usize {
    let mut ready = std::mem::take(&mut s.ready);
    // Sorted, so that what is parsed, and the order of `s.files`, do not depend on the walk's. By
    // the paths' bytes: `Path`'s order compares component by component, splitting both paths on
    // every comparison (6.8 M instructions for the 1,200 files of bench/'s 1M-line repository).
    ready.sort_unstable_by(|a, b| {
        (a.0, a.1.as_os_str().as_encoded_bytes()).cmp(&(b.0, b.1.as_os_str().as_encoded_bytes()))
    });
    let outcomes = crate::parallel::map(&ready, threads, |(lang, path, text)| {
        parse_text(path, *lang, base, text, false)
    });
    let mut parsed = 0;
    for ((lang, path, _), outcome) in ready.into_iter().zip(outcomes) {
        match outcome {
            Outcome::Parsed(f) => {
                parsed += 1;
                s.files.extend(f.map(|f| *f));
            }
            Outcome::Deferred => s.deferred.push((path, lang)),
            Outcome::Failed(err) => s.errors.push(err),
            Outcome::Skipped | Outcome::Unhinted | Outcome::Ready(_) => {}
        }
    }
    parsed
}

/// Parses the deferred files that the cross-file linker could reach from a parsed file, until no
/// more are: a file with only hints names no collection itself, but can re-export a model that
/// another file uses (`from app.models.user import User` in a package's `__init__.py`), and the
/// linker (`link.rs`) must see every file it could resolve an import to, as if nothing had been
/// deferred. The linker starts from the imports of operations and follows re-exports by name; here
/// a module specifier is matched by its last path segment against a file's stem (or its folder's
/// name for `index.*` / `__init__.py`), which covers every file `link::resolve_module` could pick,
/// including the ones that would make a path-suffix match ambiguous.
fn parse_imported_deferred(
    s: &mut Shared,
    base: &Path,
    no_ignore: bool,
    max_size: u64,
    threads: usize,
    parsed: &mut usize,
) {
    if s.deferred.is_empty() && s.unhinted.is_empty() {
        return;
    }
    // The walk's order is not deterministic; what is parsed must not depend on it.
    s.deferred.sort();
    // (`unhinted` is filtered by path alone, and what it gives is sorted with `now`.)
    let mut wanted = WantedExports::default();
    for f in &s.files {
        wanted.add_imports_of(f);
    }
    // The re-exports already followed: (index into `s.files`, export name); and the classes
    // whose bases are.
    let mut followed: std::collections::HashSet<(usize, String)> = Default::default();
    let mut followed_classes: std::collections::HashSet<(usize, String)> = Default::default();
    let mut followed_decls: std::collections::HashSet<(usize, String, String)> = Default::default();
    // The field classes of documents: worth parsing only to learn that they make fields unique
    // (see `ClassDecl::unique_by_default`), which a file that never says `unique` cannot.
    let mut wanted_fields = WantedExports::default();
    let mut said_unique: std::collections::HashMap<PathBuf, bool> = Default::default();
    let mut says_unique = |path: &Path| {
        *said_unique.entry(path.to_path_buf()).or_insert_with(|| {
            std::fs::read(path).is_ok_and(|b| b.windows(6).any(|w| w == b"unique"))
        })
    };
    // The Python modules whose classes receive operations (`Trigger.update(doc, inc__ref_count=1)`,
    // `Trigger` imported from `st2common.persistence.trigger`), or whose constants name
    // collections (`MongoDB.find_one(PROMPT_COL, q)`, `PROMPT_COL = "prompts"` in `config.py`):
    // the only reasons to parse a file without a hint (see `Shared::unhinted`).
    let mut receivers = WantedExports::default();
    // The JavaScript modules whose constants name collections (`db.collection(CN_FUNCTIONS)`,
    // `CN_FUNCTIONS` exported by `constants.ts`).
    let mut constants = WantedExports::default();
    let mut receivers_read = 0;
    let mut receivers_asked = (0, 0);
    loop {
        for f in &s.files[receivers_read..] {
            receivers.add_imports_of(f);
            if f.language != Language::Python {
                for n in &f.ir.name_imports {
                    constants.add(&n.import, &f.path);
                }
            }
        }
        receivers_read = s.files.len();
        // A chain may pass through any file, parsed at once or late: a re-export of what is
        // wanted, or the bases of a class that matters (see `classes_to_decide`).
        for (i, f) in s.files.iter().enumerate() {
            for e in &f.ir.exports {
                match &e.target {
                    ExportTarget::Reexport { import }
                        if wanted.wants(&f.path, &e.name)
                            && followed.insert((i, e.name.clone())) =>
                    {
                        wanted.add(import, &f.path);
                    }
                    // `export * from './user'` of a JavaScript barrel that is wanted: any of
                    // the module's exports may be what is (a default import of it wants any).
                    ExportTarget::Star { import }
                        if f.language != Language::Python
                            && wanted.wants_any(&f.path)
                            && followed.insert((i, format!("{}*", import.module))) =>
                    {
                        let import = crate::ir::ImportRef {
                            module: import.module.clone(),
                            export: "default".into(),
                        };
                        wanted.add(&import, &f.path);
                    }
                    // `from .documents import *`: what is wanted of the file may be there.
                    ExportTarget::Star { import } => {
                        let names: Vec<String> = wanted
                            .python_names(&f.path)
                            .flatten()
                            .flatten()
                            .cloned()
                            .collect();
                        for name in names {
                            if followed.insert((i, format!("{}*{name}", import.module))) {
                                let import = crate::ir::ImportRef {
                                    module: import.module.clone(),
                                    export: name,
                                };
                                wanted.add(&import, &f.path);
                            }
                        }
                    }
                    _ => {}
                }
            }
            // The classes whose index declarations a document inherits or names (see
            // `link::link_inheritance`): the bases of a document of the file (a base's own bases,
            // when in a file parsed late, are not followed), a `Mixin.get_indexes()` operand, a
            // field's class.
            for c in &f.ir.class_decls {
                // (A pending class's bases are followed below, where it matters.)
                let document = f.ir.exports.iter().any(|e| {
                    e.name == c.name
                        && matches!(&e.target, ExportTarget::Collection { collection }
                                if collection.via == crate::ir::CollectionVia::MongooseModel)
                });
                let named = c.operands.iter().map(|o| (&o.class, false));
                let fields = c.app_fields.iter().map(|a| (&a.class, true));
                let bases = c.bases.iter().filter(|_| document).map(|b| (b, false));
                for (b, field) in named.chain(fields).chain(bases) {
                    let crate::ir::ClassBase::Imported { import } = b else {
                        continue;
                    };
                    if followed_decls.insert((i, import.module.clone(), import.export.clone())) {
                        if field {
                            wanted_fields.add(import, &f.path);
                        } else {
                            wanted.add(import, &f.path);
                        }
                    }
                }
            }
            if f.ir.classes.is_empty() {
                continue;
            }
            for c in classes_to_decide(&f.ir, |name| wanted.wants(&f.path, name)) {
                if followed_classes.insert((i, c.name.clone())) {
                    for b in &c.bases {
                        if let crate::ir::ClassBase::Imported { import } = b {
                            wanted.add(import, &f.path);
                        }
                    }
                }
            }
        }
        let (now, later): (Vec<_>, Vec<_>) =
            std::mem::take(&mut s.deferred)
                .into_iter()
                .partition(|(path, _)| {
                    wanted.may_name(path) || (wanted_fields.may_name(path) && says_unique(path))
                });
        s.deferred = later;
        // A file without a hint only when it is the very module looked in (asked again only when
        // more modules are).
        let mut unhinted = Vec::new();
        let asked = (receivers.py_modules(), constants.by_segment.len());
        if asked != receivers_asked {
            receivers_asked = asked;
            let later;
            (unhinted, later) =
                std::mem::take(&mut s.unhinted)
                    .into_iter()
                    .partition(|(path, lang)| {
                        if *lang == Language::Python {
                            receivers.may_be_python_module(path)
                        } else {
                            constants.may_name(path)
                        }
                    });
            s.unhinted = later;
        }
        let mut now = now;
        now.extend(unhinted);
        now.sort();
        if now.is_empty() {
            break;
        }
        // On the run's worker threads, in the (sorted) order of `now` whatever the thread count.
        let outcomes = crate::parallel::map(&now, threads, |(path, lang)| {
            analyse_one(path, *lang, base, no_ignore, max_size, true)
        });
        for outcome in outcomes {
            match outcome {
                Outcome::Parsed(f) => {
                    *parsed += 1;
                    s.files.extend(f.map(|f| *f));
                }
                Outcome::Failed(err) => s.errors.push(err),
                Outcome::Skipped | Outcome::Unhinted | Outcome::Deferred | Outcome::Ready(_) => {}
            }
        }
    }
}

/// The pending classes of a file whose bases the linker must see (see
/// [`crate::ir::PendingClass`]): those that declare something (`meta` indexes, a collection), or
/// that another file uses (`wanted`), and the classes of the file they derive from. A base class
/// of any other class is not worth parsing a file for: Motor's `AsyncIOMotorClient(core.AgnosticClient)`.
fn classes_to_decide(
    ir: &crate::ir::FileIr,
    wanted: impl Fn(&str) -> bool,
) -> Vec<&crate::ir::PendingClass> {
    let mut matters: Vec<bool> = ir
        .classes
        .iter()
        .map(|c| !c.operations.is_empty() || c.explicit_collection || wanted(&c.name))
        .collect();
    let mut work: Vec<usize> = (0..ir.classes.len()).filter(|&i| matters[i]).collect();
    while let Some(i) = work.pop() {
        for b in &ir.classes[i].bases {
            let crate::ir::ClassBase::Local { name } = b else {
                continue;
            };
            if let Some(j) = ir.classes.iter().position(|c| &c.name == name) {
                if !matters[j] {
                    matters[j] = true;
                    work.push(j);
                }
            }
        }
    }
    ir.classes
        .iter()
        .zip(matters)
        .filter_map(|(c, m)| m.then_some(c))
        .collect()
}

/// The exports the linker may look up, by the last path segment of the module it looks in.
#[derive(Default)]
struct WantedExports {
    /// Last segment (and the same without its extension) → export names; `None`: any export (a
    /// default import takes a module's only export, whatever its name).
    by_segment: std::collections::HashMap<String, Option<std::collections::HashSet<String>>>,
    /// Exports of a package itself (`from . import models`, `require('..')`): any `index.*` or
    /// `__init__.py` may be it.
    package: Option<std::collections::HashSet<String>>,
    any_package: bool,
    /// Python modules, which the linker resolves exactly (`link::resolve_python_module`): last
    /// segment → (the module's path: `st2common/persistence/trigger`, matched as a path suffix,
    /// or for a relative import the path it names from the importing file, export names).
    py: std::collections::HashMap<String, Vec<(String, Names)>>,
}

/// Export names; `None`: any export.
type Names = Option<std::collections::HashSet<String>>;

impl WantedExports {
    /// What the linker may look up for `file`: the imports its operations name, and the
    /// constants its collection names spell.
    fn add_imports_of(&mut self, file: &SourceFile) {
        for import in file
            .ir
            .operations
            .iter()
            .filter_map(|o| o.collection.as_ref()?.import.as_ref())
        {
            self.add(import, &file.path);
        }
        for n in &file.ir.name_imports {
            self.add(&n.import, &file.path);
        }
        // A model compiled from another module's schema (`db.model('regions',
        // loadRegionClass(models))`): that module, which may only load a class into the schema
        // it imports, `import { Model } from 'mongoose'` its only hint.
        for m in &file.ir.schema_models {
            self.add(&m.schema, &file.path);
        }
    }

    /// A Python module as a path: `st2common/persistence/trigger` for `py:` one, or, for a
    /// relative import (`./trace`, `..`) of a Python file, the path it names from `from`'s folder.
    fn python_module(module: &str, from: &Path) -> Option<String> {
        if let Some(rest) = module.strip_prefix("py:") {
            return Some(rest.trim_end_matches('/').to_string());
        }
        if !module.starts_with('.') || from.extension().is_none_or(|e| e != "py") {
            return None;
        }
        let dir = from.parent()?.to_str()?;
        let mut parts: Vec<&str> = dir.split('/').collect();
        for seg in module.split('/') {
            match seg {
                "." | "" => {}
                ".." => {
                    parts.pop();
                }
                s => parts.push(s),
            }
        }
        Some(parts.join("/"))
    }

    /// The imports of one module, each found in `path` (the importing file).
    fn add(&mut self, import: &crate::ir::ImportRef, from: &Path) {
        // Rust names are looked up among every Rust file parsed (`link::link_rust`), in no module.
        if import.module == crate::ir::RUST_TYPES {
            return;
        }
        // The name the export is a member or a call of: `Host` of `Host.collection`, `get_db` of
        // `get_db()`.
        let head = import.export.split(['.', '(']).next().unwrap_or("");
        if let Some(whole) = Self::python_module(&import.module, from) {
            let last = lang::naming::last_part(&whole, b'/').to_string();
            let list = self.py.entry(last).or_default();
            let names = match list.iter_mut().find(|(m, _)| *m == whole) {
                Some((_, names)) => names,
                None => {
                    list.push((whole, Some(Default::default())));
                    &mut list.last_mut().unwrap().1
                }
            };
            if let Some(set) = names {
                set.insert(import.export.clone());
                // `Host.collection`, `get_db()`: through a package that re-exports `Host`
                // (`get_db`), the linker looks for the class (the function) by its name (see
                // `link::lookup_export`), and then for the member (the call) where it is defined
                // (see `wants`).
                if head.len() < import.export.len() {
                    set.insert(head.to_string());
                }
            }
            return;
        }
        let module = import.module.as_str();
        let any = import.export == "default";
        // (And `OrdersCollection` of `OrdersCollection().return`, as for Python above.)
        let note = |names: &mut Option<std::collections::HashSet<String>>| {
            if let Some(set) = names {
                if any {
                    *names = None;
                } else {
                    set.insert(import.export.clone());
                    if head.len() < import.export.len() && !head.is_empty() {
                        set.insert(head.to_string());
                    }
                }
            }
        };
        // (`#collections`, a package's subpath import, is its folder `collections`.)
        let module = module.strip_prefix('#').unwrap_or(module);
        match module.trim_end_matches('/').rsplit('/').next() {
            Some("" | "." | "..") | None => {
                if self.any_package {
                    return;
                }
                if any {
                    self.any_package = true;
                    self.package = None;
                } else {
                    self.package
                        .get_or_insert_with(Default::default)
                        .insert(import.export.clone());
                }
            }
            Some(last) => {
                // `./user.js`, `./user.model` name `user.js` / `user.model.ts`.
                let stem = last.rsplit_once('.').map(|(stem, _)| stem);
                for key in std::iter::once(last).chain(stem) {
                    let names = self
                        .by_segment
                        .entry(key.to_string())
                        .or_insert_with(|| Some(Default::default()));
                    note(names);
                }
            }
        }
    }

    /// The segments an import of `path` may end with: its stem, and its folder's name when it is
    /// a package's `index.*` / `__init__.py` (for a `src/index.*`, also the folder above: the
    /// workspace package `@scope/mongo` of `packages/mongo/src/index.ts`).
    fn keys(path: &Path) -> (&str, [Option<&str>; 2], bool) {
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let package = stem == "index" || stem == "__init__";
        let parent = path.parent().filter(|_| package);
        fn name(p: Option<&Path>) -> Option<&str> {
            p?.file_name()?.to_str()
        }
        let folder = name(parent);
        let above = (folder == Some("src"))
            .then(|| name(parent?.parent()))
            .flatten();
        (stem, [folder, above], package)
    }

    /// Whether the linker may look up some export of the JavaScript module `path`.
    fn wants_any(&self, path: &Path) -> bool {
        let (stem, folder, package) = Self::keys(path);
        self.by_segment.contains_key(stem)
            || folder
                .iter()
                .flatten()
                .any(|f| self.by_segment.contains_key(*f))
            || (package && (self.any_package || self.package.is_some()))
    }

    /// The names wanted of `path` as a Python module (see [`WantedExports::py`]).
    fn python_names<'a>(&'a self, path: &'a Path) -> impl Iterator<Item = &'a Names> + 'a {
        let p = path.to_str().unwrap_or("");
        let p = p.strip_suffix(".py").unwrap_or("");
        let p = p.strip_suffix("/__init__").unwrap_or(p);
        let last = lang::naming::last_part(p, b'/');
        self.py
            .get(last)
            .into_iter()
            .flatten()
            .filter(move |(m, _)| {
                !p.is_empty()
                    && p.strip_suffix(m.as_str())
                        .is_some_and(|rest| rest.is_empty() || rest.ends_with('/'))
            })
            .map(|(_, names)| names)
    }

    /// How many Python modules are wanted.
    fn py_modules(&self) -> usize {
        self.py.values().map(Vec::len).sum()
    }

    /// Whether `path` is a Python module the linker may look in.
    fn may_be_python_module(&self, path: &Path) -> bool {
        self.python_names(path).next().is_some()
    }

    fn may_name(&self, path: &Path) -> bool {
        let (stem, folder, package) = Self::keys(path);
        self.may_be_python_module(path)
            || self.by_segment.contains_key(stem)
            || folder
                .iter()
                .flatten()
                .any(|f| self.by_segment.contains_key(*f))
            || (package && (self.any_package || self.package.is_some()))
    }

    /// Whether the linker may look up the export `name` of `path`.
    fn wants(&self, path: &Path, name: &str) -> bool {
        let (stem, folder, package) = Self::keys(path);
        let in_set = |names: Option<&Option<std::collections::HashSet<String>>>| match names {
            Some(None) => true,
            Some(Some(set)) => set.contains(name),
            None => false,
        };
        // A Python module's `get_db()` (`Host.collection`) when its `get_db` (`Host`) is: a call
        // (a member) of what another module re-exports (see `add`).
        let head = name.split(['.', '(']).next().unwrap_or(name);
        self.python_names(path).any(|n| {
            in_set(Some(n))
                || (head.len() < name.len() && n.as_ref().is_some_and(|set| set.contains(head)))
        }) || in_set(self.by_segment.get(stem))
            || folder
                .iter()
                .flatten()
                .any(|f| in_set(self.by_segment.get(*f)))
            || (package
                && (self.any_package || self.package.as_ref().is_some_and(|p| p.contains(name))))
    }
}

fn walk_error(err: &ignore::Error, base: &Path) -> (String, String) {
    match err {
        ignore::Error::WithPath { path, err } => (display_path(path, base), err.to_string()),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            walk_error(err, base)
        }
        ignore::Error::Loop { child, .. } => {
            (display_path(child, base), "symbolic link loop".to_string())
        }
        other => (".".to_string(), other.to_string()),
    }
}

enum Outcome {
    /// Not parsed: nothing of the driver vocabulary in it, or a minified bundle.
    Skipped,
    /// Not parsed: a Python file with nothing of the driver vocabulary (see `Shared::unhinted`).
    Unhinted,
    /// Not parsed yet: only hints in it (see [`Verdict::Defer`]).
    Deferred,
    /// Parsed; `Some` when it produced IR worth keeping.
    Parsed(Option<Box<SourceFile>>),
    /// Read and passed by the prefilter, to be parsed (see [`parse_ready`]): its text.
    Ready(Arc<str>),
    Failed(FileError),
}

thread_local! {
    /// Each worker reads every file into one buffer (see `read_into`).
    static READ_BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Reads `path` into the start of `buf`, with one open, one fstat and reads until end of file,
/// unless it is over `max_size`; the number of bytes read. `buf` is a per-thread buffer that
/// keeps the length it has grown to, so that it is neither allocated nor zeroed again.
fn read_into(path: &Path, buf: &mut Vec<u8>, max_size: u64) -> Result<usize, String> {
    let over = |size: u64| {
        format!(
            "skipped: {size} bytes is over the size limit of {max_size} bytes (raise it with --max-file-size)"
        )
    };
    let mut file = std::fs::File::open(path).map_err(|e| format!("cannot read file: {e}"))?;
    // Read into the reused buffer without asking the file's size first: most files fit, and the
    // `fstat` would be one more system call per file (30,000 on the benchmark's repository). The
    // size is asked only when the buffer fills, so that a file far over the limit is not read.
    // Not `read_to_end` either: for a `File` it asks the size (`fstat`, and an `lseek`).
    if buf.len() < READ_BUFFER {
        buf.resize(READ_BUFFER, 0);
    }
    let mut filled = 0;
    let mut sized = false;
    loop {
        if filled == buf.len() {
            if !sized {
                sized = true;
                let size = file
                    .metadata()
                    .map_err(|e| format!("cannot read file: {e}"))?
                    .len();
                if size > max_size {
                    return Err(over(size));
                }
                // One byte more than the size, to see the end.
                if size as usize >= buf.len() {
                    buf.resize(size as usize + 1, 0);
                    continue;
                }
            }
            // The file grew since the fstat: read on, up to the limit.
            if filled as u64 > max_size {
                return Err(format!(
                    "skipped: more than {max_size} bytes, over the size limit (raise it with --max-file-size)"
                ));
            }
            buf.resize(filled * 2, 0);
        }
        match std::io::Read::read(&mut file, &mut buf[filled..]) {
            Ok(0) if filled as u64 > max_size => return Err(over(filled as u64)),
            Ok(0) => return Ok(filled),
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(format!("cannot read file: {e}")),
        }
    }
}

/// The size of the reused read buffer a thread starts with: larger than nearly every source file,
/// so that reading a file asks for no `fstat`.
const READ_BUFFER: usize = 256 * 1024;

fn not_utf8(valid_up_to: usize) -> String {
    format!("not valid UTF-8 (first invalid byte at offset {valid_up_to})")
}

/// Reads and prefilters one file: a file to parse is handed back [`Outcome::Ready`]. `deferred`:
/// the prefilter already deferred it and a parsed file imports from it, so it is parsed at once
/// whatever its words.
fn analyse_one(
    path: &Path,
    lang: Language,
    base: &Path,
    no_ignore: bool,
    max_size: u64,
    deferred: bool,
) -> Outcome {
    let fail = |message: String| failed(path, base, message);
    // The file is read and judged in the reused buffer; only the text of a file to parse is copied
    // out, into the `Arc<str>` its findings will point into.
    READ_BUF.with(|cell| {
        let mut buf = cell.borrow_mut();
        let n = match read_into(path, &mut buf, max_size) {
            Ok(n) => n,
            Err(message) => return fail(message),
        };
        let bytes = &buf[..n];
        if !deferred {
            let v = match verdict(lang, bytes) {
                Verdict::Skip
                    if is_package_init(path, lang, bytes) || is_named_for_mongo(path, lang) =>
                {
                    Verdict::Defer
                }
                v => v,
            };
            if !no_ignore && looks_built(lang, bytes) {
                return Outcome::Skipped;
            }
            if v == Verdict::Skip {
                return if lang == Language::Python || (is_js(lang) && names_constants(path)) {
                    Outcome::Unhinted
                } else {
                    Outcome::Skipped
                };
            }
            if v == Verdict::Defer {
                // Reported as if parsed at once: a file mongolint would read but cannot.
                if let Err(e) = std::str::from_utf8(bytes) {
                    return fail(not_utf8(e.valid_up_to()));
                }
                return Outcome::Deferred;
            }
        }
        match std::str::from_utf8(bytes) {
            Ok(text) if !deferred => Outcome::Ready(Arc::from(text)),
            Ok(text) => parse_text(path, lang, base, &Arc::from(text), true),
            Err(e) => fail(not_utf8(e.valid_up_to())),
        }
    })
}

/// Parses and extracts one file's text: its IR, with the text, when it yields any.
fn parse_text(
    path: &Path,
    lang: Language,
    base: &Path,
    text: &Arc<str>,
    deferred: bool,
) -> Outcome {
    let shown = display_path(path, base);
    // A Meteor client file reads only its local cache; without a write it has nothing to read.
    // It is deferred, parsed later only if another file imports from it: its exports say which
    // of the collections it makes are in memory only (`new Mongo.Collection(null)`).
    if !deferred
        && is_js(lang)
        && lang::javascript::is_meteor_client(&shown, text)
        && !lang::javascript::may_write_from_client(text)
    {
        return Outcome::Deferred;
    }
    let ctx = FileContext {
        display_path: &shown,
    };
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        lang::extract(lang, text, &ctx)
    }));
    match result {
        Ok(Ok(ir)) => {
            if ir.operations.is_empty()
                && ir.collections.is_empty()
                && ir.exports.is_empty()
                && ir.classes.is_empty()
                && ir.class_decls.is_empty()
            {
                return Outcome::Parsed(None);
            }
            Outcome::Parsed(Some(Box::new(SourceFile {
                display_path: shown,
                path: path.to_path_buf(),
                language: lang,
                text: Some(Arc::clone(text)),
                ir,
            })))
        }
        Ok(Err(e)) => failed(path, base, e.0),
        Err(_) => failed(
            path,
            base,
            "internal error while analysing this file (please report it)".to_string(),
        ),
    }
}

fn failed(path: &Path, base: &Path, message: String) -> Outcome {
    Outcome::Failed(FileError {
        display_path: display_path(path, base),
        message,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The JavaScript modules kept without a hint for the constants they may export.
    #[test]
    fn modules_named_for_constants() {
        for (path, named) in [
            ("src/constants.ts", true),
            ("src/db-constants.js", true),
            ("src/CollectionNames.ts", true),
            ("src/mongo.config.js", true),
            ("src/enums/index.ts", true),
            ("src/names.js", true),
            ("src/user.service.ts", false),
            ("src/configuration/routes.ts", false),
            ("src/index.ts", false),
        ] {
            assert_eq!(names_constants(Path::new(path)), named, "{path}");
        }
    }

    #[test]
    fn minified_means_lines_of_over_500_bytes_on_average_at_the_boundary_too() {
        // `lines` lines in `len` bytes, the newlines spread evenly.
        let file = |len: usize, lines: usize| {
            let mut b = vec![b'x'; len];
            for k in 1..lines {
                b[k * len / lines - 1] = b'\n';
            }
            b
        };
        for len in [20_000, 20_040, 50_100, 100_000, 1_000_000] {
            let boundary = len / 501;
            for lines in [
                1,
                2,
                boundary - 1,
                boundary,
                boundary + 1,
                boundary + 2,
                len / 40,
            ] {
                let expected = len / lines > 500;
                assert_eq!(
                    looks_minified(&file(len, lines)),
                    expected,
                    "{len} bytes, {lines} lines"
                );
            }
        }
        // Short files are never judged by their lines.
        assert!(!looks_minified(&file(19_999, 1)));
    }

    #[test]
    fn a_reused_buffer_holds_exactly_each_file_read_into_it() {
        let dir = tempfile::tempdir().unwrap();
        let mut buf = Vec::new();
        // Largest first, so that later reads land in a buffer longer than the file.
        let big: Vec<u8> = (0..70_000u32).map(|i| b'a' + (i % 26) as u8).collect();
        for (name, content) in [("big.js", &big[..]), ("one.js", b"x"), ("empty.js", b"")] {
            let path = dir.path().join(name);
            std::fs::write(&path, content).unwrap();
            let n = read_into(&path, &mut buf, 1 << 20).unwrap();
            assert_eq!(&buf[..n], content, "{name}");
        }
        let path = dir.path().join("big.js");
        let err = read_into(&path, &mut buf, 69_999).unwrap_err();
        assert!(
            err.contains("70000 bytes is over the size limit of 69999"),
            "{err}"
        );
        let n = read_into(&path, &mut buf, 70_000).unwrap();
        assert_eq!(&buf[..n], &big[..]);
    }

    #[test]
    fn a_file_longer_than_the_read_buffer_is_read_whole_or_refused_by_its_size() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("long.py");
        let long: Vec<u8> = (0..3 * READ_BUFFER as u32 + 7)
            .map(|i| b'a' + (i % 26) as u8)
            .collect();
        std::fs::write(&path, &long).unwrap();
        let mut buf = Vec::new();
        let n = read_into(&path, &mut buf, 1 << 22).unwrap();
        assert_eq!(&buf[..n], &long[..]);
        // Over the limit: refused with the file's size, read or not.
        let size = long.len();
        let mut buf = Vec::new();
        let err = read_into(&path, &mut buf, 2 * READ_BUFFER as u64).unwrap_err();
        assert!(
            err.contains(&format!("{size} bytes is over the size limit")),
            "{err}"
        );
        // The buffer was not grown to the file's size to find that out.
        assert!(buf.len() <= READ_BUFFER, "{}", buf.len());
    }

    #[test]
    fn a_file_deleted_after_the_walk_listed_it_is_reported() {
        // The walker hands over a path; by the time it is read the file is gone (deterministic
        // stand-in for a file deleted during the walk).
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gone.js");
        std::fs::write(&path, "db.collection('x').updateOne({}, {$push: {a: 1}})").unwrap();
        std::fs::remove_file(&path).unwrap();
        match analyse_one(
            &path,
            Language::JavaScript,
            dir.path(),
            false,
            u64::MAX,
            false,
        ) {
            Outcome::Failed(e) => {
                assert_eq!(e.display_path, "gone.js");
                assert!(e.message.starts_with("cannot read file"), "{}", e.message);
            }
            _ => panic!("a vanished file is an error"),
        }
    }

    #[test]
    fn a_deferred_file_that_is_not_utf8_is_reported() {
        // Only a hint: deferred, but a file mongolint would read is reported as unreadable, as
        // when every hint was enough to parse.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("broken.py");
        std::fs::write(&path, b"import pymongo\n\xff\xfe\n").unwrap();
        match analyse_one(&path, Language::Python, dir.path(), false, u64::MAX, false) {
            Outcome::Failed(e) => {
                assert!(e.message.starts_with("not valid UTF-8"), "{}", e.message)
            }
            _ => panic!("an unreadable file with a hint is reported"),
        }
        std::fs::write(&path, b"import pymongo\n").unwrap();
        assert!(matches!(
            analyse_one(&path, Language::Python, dir.path(), false, u64::MAX, false),
            Outcome::Deferred
        ));
    }

    fn matters(lang: Language, text: &str) -> bool {
        may_matter(lang, text.as_bytes())
    }

    fn verdict_of(lang: Language, text: &str) -> Verdict {
        verdict(lang, text.as_bytes())
    }

    /// A library's distributed build, vendored: skipped like a minified one; an application's
    /// own file with the same words is not.
    #[test]
    fn vendored_bundles_are_recognised() {
        let umd = "/*!\n * Lib v3\n */\n(function webpackUniversalModuleDefinition(root, factory) {\n\tif (typeof define === 'function' && define.amd) define([], factory);\n})(this, function () {\n";
        let body = "  Model.prototype.remove = function (x) { return this.items.toArray(); };\n"
            .repeat(400);
        assert!(looks_bundled(format!("{umd}{body}").as_bytes()));
        assert!(!looks_bundled(
            format!("import x from 'y';\n{body}").as_bytes()
        ));
        assert!(!looks_bundled(umd.as_bytes()), "small files are read");
    }

    /// A pagination helper that pages the cursor it receives has no other MongoDB word; its
    /// `.skip(expr)` and a `.limit(..)` are read by the frontend, so the file is parsed.
    #[test]
    fn a_computed_skip_with_a_limit_is_parsed() {
        use Verdict::*;
        let js = Language::JavaScript;
        let helper = "export default function page(cursor, offset) {\n  cursor.limit(20);\n  cursor.skip(offset);\n}";
        assert_eq!(verdict_of(js, helper), Parse);
        // Also after another hint, which otherwise ends the reading of hint words.
        let imported = format!("import {{ MongoClient }} from \"mongodb\";\n{helper}");
        assert_eq!(verdict_of(js, &imported), Parse);
        // A literal skip, a skip without a limit, a `skip` that is no method call: not parsed.
        assert_ne!(verdict_of(js, "cursor.limit(20);\ncursor.skip(1);"), Parse);
        assert_ne!(verdict_of(js, "list.skip(offset);"), Parse);
        assert_ne!(verdict_of(js, "skip(offset); rows.limit(2);"), Parse);
    }

    /// A Rust file that declares its indexes by command alone (`run_command(doc! {
    /// "createIndexes": .. })`) is parsed: its indexes serve the queries of other files
    /// (revolt's `init.rs`). A `run_command` of no driver, without a document, is not.
    #[test]
    fn a_rust_index_command_is_parsed() {
        let rs = Language::Rust;
        let setup = "use mongodb::bson::doc;\n\npub async fn setup(db: &mongodb::Database) {\n    db.run_command(doc! {\n        \"createIndexes\": \"users\",\n        \"indexes\": [ { \"key\": { \"email\": 1_i32 }, \"name\": \"email\" } ]\n    }).await.unwrap();\n}\n";
        assert_eq!(verdict_of(rs, setup), Verdict::Parse);
        assert!(!matters(
            rs,
            "fn main() {\n    shell.run_command(\"ls\");\n}\n"
        ));
    }

    /// A Mongoose or NestJS schema is read for its index declarations: a file of schemas that
    /// declare none is deferred (it may re-export a model), one that declares any is parsed.
    #[test]
    fn a_schema_confirms_only_with_an_index_option() {
        use Verdict::*;
        let ts = Language::TypeScript;
        let fields = "import { Schema } from 'mongoose';\nexport const appSchema = new Schema({\n  name: { type: String, label: 'App name' },\n  %OPT%\n});\n";
        let with = |opt: &str| verdict_of(ts, &fields.replace("%OPT%", opt));
        assert_eq!(with("status: { type: String, default: 'active' },"), Defer);
        for opt in [
            "code: { type: String, unique: true },",
            "userId: { type: String, index: true },",
            "token: { type: String, sparse: true },",
            "createdAt: { type: Date, expires: 3600 },",
            "body: { type: String, text: true },",
            "body: { type: String, 'text' : true },",
        ] {
            assert_eq!(with(opt), Parse, "{opt}");
        }
        assert_eq!(
            verdict_of(
                ts,
                &format!(
                    "{}appSchema.index({{ name: 1 }});\n",
                    fields.replace("%OPT%", "")
                )
            ),
            Parse
        );
        // A word that only contains `text` is no option.
        assert_eq!(with("context: { type: String },"), Defer);
        let nest = "import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';\n@Schema()\nexport class Cat {\n  @Prop() name: string;\n}\nexport const CatSchema = SchemaFactory.createForClass(Cat);\n";
        assert_eq!(verdict_of(ts, nest), Defer);
        assert_eq!(
            verdict_of(ts, &nest.replace("@Prop()", "@Prop({ unique: true })")),
            Parse
        );
    }

    /// A Python driver-only operation name is evidence as a method; a function of that name
    /// (defined, or imported under it) is a hint, and so is the name inside a string in either
    /// language.
    #[test]
    fn an_operation_name_is_evidence_only_as_a_method_outside_strings() {
        use Verdict::*;
        let py = Language::Python;
        assert_eq!(
            verdict_of(py, "def find_one(item_id):\n    return get(item_id)\n"),
            Defer
        );
        assert_eq!(
            verdict_of(
                py,
                "from eve.io.mongo.mongo import _create_index as create_index\ncreate_index(app, name, keys)\n"
            ),
            Defer
        );
        assert_eq!(
            verdict_of(py, "doc = users.find_one({\"_id\": 1})\n"),
            Parse
        );
        assert_eq!(
            verdict_of(py, "ACTIONS = [\"insert_one\", \"delete_many\"]\n"),
            Defer
        );
        assert_eq!(verdict_of(py, "log(f\"{coll.delete_many(q)}\")\n"), Parse);
        let ts = Language::TypeScript;
        assert_eq!(
            verdict_of(ts, "export enum Action {\n  UPDATE_MANY = 'updateMany',\n  BULK_WRITE = \"bulkWrite\",\n}\n"),
            Defer
        );
        assert_eq!(
            verdict_of(ts, "await Users.updateMany({}, { a: 1 });\n"),
            Parse
        );
        assert_eq!(
            verdict_of(ts, "log(`${await Users.updateMany(q, u)}`);\n"),
            Parse
        );
        assert_eq!(
            verdict_of(py, "doc = (\n    users\n    .find_one({\"_id\": 1})\n)\n"),
            Parse
        );
    }

    #[test]
    fn minified_files_are_known_by_name() {
        for name in [
            "jquery.min.js",
            "app.min.mjs",
            "vendor.bundle.js",
            "x.bundle.min.js",
            "lib-min.js",
        ] {
            assert!(is_minified_name(name), "{name}");
        }
        for name in [
            "bundle.js",
            "bundles.js",
            "app.bundler.js",
            "min.js",
            "admin.js",
            "x.bundle",
        ] {
            assert!(!is_minified_name(name), "{name}");
        }
    }

    /// superdesk-core keeps tests beside the code as `publish_service_tests.py` and
    /// `apps/publish/content/tests.py`.
    #[test]
    fn test_files_are_known_by_name() {
        for name in [
            "user.test.js",
            "user.spec.ts",
            "login.e2e.ts",
            "page-bulk-export-job-clean-up-cron.integ.ts",
            "timezones-test.js",
            "user_spec.ts",
            "store_test.rs",
            "test_users.py",
            "users_test.py",
            "publish_service_tests.py",
            "tests.py",
            "conftest.py",
            "accounts_tests.js",
            "email_tests_setup.js",
            "test-helpers.ts",
            "mongo-test-utils.js",
        ] {
            assert!(is_test_file(name), "{name}");
        }
        for name in [
            "users.py",
            "contest.py",
            "testing.py",
            "latest.py",
            "tests.js",
            "attest_tests.rs",
            "deploy_spec.rs",
            "slack.integration.ts",
            "ab-test.js",
            "split_test.ts",
            "latest.js",
            "integ.ts",
            "test.js",
            "ab-tests.js",
            "tests-dashboard.tsx",
        ] {
            assert!(!is_test_file(name), "{name}");
        }
    }

    #[test]
    fn a_hint_needs_a_confirmation() {
        use Verdict::*;
        let js = Language::TypeScript;
        // Coral's database handle is named `mongo`: passing it around calls nothing.
        let passed_around = r#"
import { MongoContext } from "coral-server/data/context";
export async function approve(mongo: MongoContext, redis: Redis, id: string) {
  const story = await retrieveStory(mongo, id);
  const found = stories.find((s) => s.id === id);
  return find(mongo, story);
}"#;
        assert_eq!(verdict_of(js, passed_around), Defer);
        // Its accessor called with an operation the frontend reads by its operators: parsed.
        // Without operators (or an import, or a driver's type) it reads nothing there.
        let accessor = "export async function f(mongo: MongoContext, id: string) {\n  return mongo.comments().find({ id: { $in: ids } });\n}";
        assert_eq!(verdict_of(js, accessor), Parse);
        let accessor = "export async function f(mongo: MongoContext, id: string) {\n  return mongo.comments().find({ id });\n}";
        assert_eq!(verdict_of(js, accessor), Defer);
        assert_eq!(
            verdict_of(
                js,
                "const c = mongo.comments();\nawait c\n  .aggregate([{ $match: {} }])"
            ),
            Parse
        );
        // A models import and an array search; the model's own `find` is confirmation.
        let models =
            "import { User } from '../models/user';\nconst u = users.find((x) => x.id === id);";
        assert_eq!(verdict_of(js, models), Defer);
        let model_used =
            "import { User } from '../models/user';\nconst u = await User.find({ id });";
        assert_eq!(verdict_of(js, model_used), Parse);
        // An old-style Mongoose callback (two parameters) still confirms.
        let node_style = "const User = require('../models/user');\nUser.find(function (err, users) {});\nUser.find((err, users) => {});";
        assert_eq!(verdict_of(js, node_style), Parse);
        // `skip` alone pages nothing.
        assert_eq!(verdict_of(js, "q.skip(page * size)"), Defer);
        assert_eq!(
            verdict_of(js, "import { MongoClient } from 'mongodb';"),
            Defer
        );
        // Confirmations alone are not enough: arrays, lodash, ORMs.
        assert_eq!(
            verdict_of(js, "repo.find({ where: { id } }); list.update(x)"),
            Skip
        );
        // A function of the application named like a getter is a confirmation, not evidence.
        assert_eq!(
            verdict_of(
                js,
                "async function getCollection() {}\nawait getCollection()"
            ),
            Skip
        );
        assert_eq!(
            verdict_of(js, "import { model, Schema } from 'mongoose';\nexport const User = model('User', userSchema);"),
            Parse
        );
    }

    #[test]
    fn model_and_index_declarations_are_parsed() {
        use Verdict::*;
        let js = Language::JavaScript;
        // A Mongoose schema file: no `model(..)`, no driver call, but a schema with an index.
        let schema = r#"
const mongoose = require('mongoose');
const UserSchema = new mongoose.Schema({ email: { type: String, unique: true } });
UserSchema.index({ email: 1, org: 1 });
module.exports = UserSchema;"#;
        assert_eq!(verdict_of(js, schema), Parse);
        // A schema that declares no index holds nothing the frontend reads: deferred.
        assert_eq!(
            verdict_of(
                js,
                "import { Schema } from 'mongoose';\nexport default new Schema({ a: String });"
            ),
            Defer
        );
        // NestJS: a schema class; a service that only injects a model is not.
        let nest_schema = r#"
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
@Schema({ timestamps: true })
export class Label { @Prop({ type: String, unique: true }) name: string; }
export const LabelSchema = SchemaFactory.createForClass(Label);"#;
        assert_eq!(verdict_of(Language::TypeScript, nest_schema), Parse);
        let nest_service = r#"
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
export class LabelRepository extends BaseRepository<Label> {
  constructor(@InjectModel(Label.name) readonly model: Model<Label>) { super(model); }
}"#;
        assert_eq!(verdict_of(Language::TypeScript, nest_service), Defer);

        let py = Language::Python;
        let document = r#"
import mongoengine as me
class ActionDB(me.Document):
    name = me.StringField()
    meta = {"indexes": ["name", ("pack", "name")]}
"#;
        assert_eq!(verdict_of(py, document), Parse);
        // StackStorm: a document through a base of another module; its `meta` declares indexes.
        let derived = "import mongoengine as me\nfrom st2common.models.db import stormbase\n\nclass ActionDB(stormbase.StormFoundationDB):\n    meta = {\"indexes\": [\"name\"]}\n";
        assert_eq!(verdict_of(py, derived), Parse);
        assert_eq!(
            verdict_of(
                py,
                &derived.replace("meta = {", "meta = dict(indexes=[\"name\"])  # {")
            ),
            Parse
        );
        // Without a hint, a `meta` is anyone's; not assigned a dictionary, or not in a class
        // body (module level), it declares nothing.
        let variants = [
            ("mongoengine", "attrs", Skip),
            ("meta = {", "meta = load({", Defer),
            ("meta = {", "meta == {", Defer),
            ("    meta = {", "meta = {", Defer),
            ("meta = {", "metadata = {", Defer),
        ];
        for (from, to, expected) in variants {
            assert_eq!(verdict_of(py, &derived.replace(from, to)), expected, "{to}");
        }
        // st2: a model module imported for its access class; nothing called or read.
        let access = "from st2common.models.db import MongoDBAccess\naction_access = MongoDBAccess(ActionDB)\n";
        assert_eq!(verdict_of(py, access), Defer);
        assert_eq!(
            verdict_of(
                py,
                "from pymongo import IndexModel\nINDEXES = [IndexModel([(\"a\", 1)])]"
            ),
            Parse
        );
        // Calling the manager is mongoengine's (Django's is not callable): the frontend reads it.
        assert_eq!(
            verdict_of(
                py,
                "from app.models import Post\nposts = Post.objects(author=a).order_by(\"-at\")"
            ),
            Parse
        );
        assert_eq!(
            verdict_of(
                py,
                "from app.models import Post\nposts = Post.objects.filter(author=a).order_by(\"-at\")"
            ),
            Skip
        );
        assert_eq!(
            verdict_of(py, "posts = self.objects(author=a)\nrows = Post.objects\n"),
            Skip
        );
        assert_eq!(
            verdict_of(
                py,
                "import mongoengine\nposts = Post.objects(author=a).order_by(\"-at\")"
            ),
            Parse
        );
        // A wrapper named for the database, its result read: the frontend names collections.
        let wrapper = "from bson import json_util\nitem = cves.getCveFromMongoDbDoc(item)\nprint(item[\"cvss\"])";
        assert_eq!(verdict_of(py, wrapper), Parse);
        assert_eq!(
            verdict_of(py, "import bson\nx = json_util.dumps(item)"),
            Defer
        );
        // A name the frontend takes for a database, with an attribute called.
        assert_eq!(
            verdict_of(
                py,
                "from pritunl import database, mongo\nx = database.ObjectId(v)"
            ),
            Parse
        );
        // A collection of such a name, read and never written (INGInious's pages), with no other
        // word of MongoDB in the file; not a method of the name itself, nor an attribute that is
        // not called with an operation.
        let read = "class Page:\n    def get(self, u):\n        return list(self.database.user_tasks.find({\"username\": u}))";
        assert_eq!(verdict_of(py, read), Parse);
        assert_eq!(
            verdict_of(
                py,
                "def f(self, k):\n    return self._db.keys.find_one({\"k\": k})"
            ),
            Parse
        );
        // (INGInious's task dispensers, whose base class keeps `self._database`.)
        assert_eq!(
            verdict_of(
                py,
                "def f(self, c):\n    return self._database.user_tasks.find({\"courseid\": c})"
            ),
            Parse
        );
        assert_eq!(
            verdict_of(py, "x = self.database.tables.lookup(name)"),
            Skip
        );
        assert_eq!(verdict_of(py, "x = self.database.users.size"), Skip);

        let rs = Language::Rust;
        assert_eq!(
            verdict_of(
                rs,
                "let m = IndexModel::builder().keys(doc! { \"a\": 1 }).build();"
            ),
            Parse
        );
        // A document built for a helper of the application: no operation.
        let helper = "use mongodb::bson::doc;\nlet f = doc! { \"name\": name };\nfind_collect(&db.users, f, None).await?;";
        assert_eq!(verdict_of(rs, helper), Defer);
        assert_eq!(
            verdict_of(rs, "let o = FindOptions::builder().skip(n).build();"),
            Parse
        );
        assert_eq!(
            verdict_of(rs, "use mongodb::options::FindOptions;\nlet o = FindOptions::builder().limit(5).build();"),
            Defer
        );
        assert_eq!(
            verdict_of(
                rs,
                "use mongodb::Collection;\nself.users.find(filter).await?"
            ),
            Parse
        );
        assert_eq!(
            verdict_of(rs, "use mongodb::Collection;\nv.iter().find(|x| x.a == 1)"),
            Defer
        );
    }

    #[test]
    fn a_deferred_file_is_parsed_when_a_parsed_file_imports_from_it() {
        let dir = tempfile::tempdir().unwrap();
        let write = |path: &str, text: &str| {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        // Only hints: a package index re-exporting the model.
        write(
            "models/index.js",
            "const mongoose = require('mongoose');\nmodule.exports = { User: require('./user') };\n",
        );
        write(
            "models/user.js",
            "const mongoose = require('mongoose');\nmodule.exports = mongoose.model('User', new mongoose.Schema({ tags: [String] }));\n",
        );
        write(
            "app.js",
            "const { User } = require('./models');\nasync function tag(id, t) {\n  await User.updateOne({ _id: id }, { $push: { tags: t } });\n}\n",
        );
        // Only hints, and imported by no parsed file.
        write(
            "other.js",
            "const mongo = require('./mongo');\nmodule.exports = (ctx) => helper(ctx.mongo);\n",
        );
        // A relative path, so that paths are shown (and linked) relative to a common root.
        let cwd = std::env::current_dir().unwrap();
        let up = "../".repeat(cwd.components().count() - 1);
        let root = PathBuf::from(up).join(dir.path().strip_prefix("/").unwrap());
        let opts = Options {
            paths: vec![root],
            threads: 2,
            ..Options::default()
        };
        assert_eq!(
            verdict_of(Language::JavaScript, "const mongoose = require('mongoose');\nmodule.exports = { User: require('./user') };\n"),
            Verdict::Defer
        );
        let a = crate::analysis::run(&opts);
        let app = a
            .files
            .iter()
            .find(|f| f.display_path.ends_with("app.js"))
            .unwrap();
        let op = &app.ir.operations[0];
        assert_eq!(op.method, "updateOne");
        match &op.collection.as_ref().unwrap().name {
            crate::ir::CollectionName::Literal { name } => assert_eq!(name, "users"),
            other => panic!("not linked through the deferred index: {other:?}"),
        }
        // app.js and models/user.js at once, models/index.js late; other.js never.
        assert!(a
            .files
            .iter()
            .any(|f| f.display_path.ends_with("models/index.js")));
        assert_eq!(a.files_parsed, 3);
        assert!(!a.files.iter().any(|f| f.display_path.ends_with("other.js")));
    }

    #[test]
    fn db_passed_as_an_argument_counts_where_db_is_mongoshs() {
        use Verdict::*;
        let js = Language::JavaScript;
        // Overleaf's migrations: `db` declared from the client, passed to a helper.
        let declared = "const migrate = async client => {\n  const { db } = client\n  await Helpers.addIndexesToCollection(db.users, indexes)\n}";
        assert_eq!(verdict_of(js, declared), Defer);
        assert_eq!(
            verdict_of(js, "import { db } from '../mongodb.js'\nawait helpers.dropIndexesFromCollection(db.projects, [idx])"),
            Defer
        );
        // A destructured parameter is not a declaration the frontend binds: mongosh's `db`.
        let parameter = "const migrate = async ({ db }) => {\n  await Helpers.addIndexesToCollection(db.projects, indexes)\n}";
        assert_eq!(verdict_of(js, parameter), Parse);
        assert_eq!(
            verdict_of(js, "await addIndexes(db.users, [{ key: { email: 1 } }]);"),
            Parse
        );
        // A collection read through a declared `db` is evidence whatever the declaration.
        assert_eq!(
            verdict_of(js, "const { db } = client\nawait db.users.find({})"),
            Parse
        );
        assert!(declares_db(b"let db = connect()"));
        assert!(declares_db(b"import db from './db'"));
        assert!(!declares_db(b"function f(db) { return db.users }"));
        assert!(!declares_db(b"const mydb = x; const dbx = y;"));
    }

    /// The verdict read in two steps (the confirmations only after a hint) is the verdict read
    /// from every match at once, on every corpus file and test fixture and on files made to sit
    /// on the boundary: a confirmation alone, a hint alone, both, a document class with and
    /// without `objects`, in comments.
    #[test]
    fn the_two_step_verdict_is_the_one_step_verdict() {
        let mut texts: Vec<(Language, Vec<u8>)> = Vec::new();
        for dir in ["corpus", "tests"] {
            let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
            for entry in ignore::WalkBuilder::new(&root).build() {
                let path = entry.unwrap().into_path();
                if let Some(lang) = lang::language_for(&path) {
                    texts.push((lang, std::fs::read(&path).unwrap()));
                }
            }
        }
        let boundary: &[&[u8]] = &[
            b"items.find((x) => x.id)\nlist.update(a)\n",
            b"const s = new Schema({ a: String }); s.index({ a: 1 });\n",
            b"import mongo from 'x'\nitems.find({ a: 1 })\n",
            b"// mongo\nitems.find({ a: 1 })\n",
            b"q.skip(n)\nq.sort(x)\n",
            b"class Post(Document):\n    pass\nPost.objects(a=1)\n",
            b"class Post(Document):\n    pass\n",
            b"Post.objects(a=1)\nx.limit(3)\n",
            b"# mongo\nx.find({})\n",
            b"from mongo import db\nx.find({})\n",
            b"c.find(doc! { \"a\": 1 }).skip(n)\n",
            b"let o = FindOptions::builder().build(); c.find(None)\n",
        ];
        for text in boundary {
            for lang in [Language::JavaScript, Language::Python, Language::Rust] {
                texts.push((lang, text.to_vec()));
            }
        }
        let mut seen = std::collections::BTreeMap::new();
        for (lang, bytes) in &texts {
            let p = prefilter(*lang);
            let mut reading = VerdictReading::default();
            let one_step = reading
                .read(*lang, bytes, p.matches(bytes))
                .unwrap_or_else(|| reading.end(bytes));
            let two_steps = verdict(*lang, bytes);
            assert_eq!(
                one_step,
                two_steps,
                "{lang:?}: {}",
                String::from_utf8_lossy(bytes)
            );
            *seen.entry(format!("{two_steps:?}")).or_insert(0) += 1;
        }
        // Every verdict occurs, so the comparison covers each way out of `verdict`.
        assert_eq!(seen.len(), 3, "{seen:?}");
        for lang in [Language::JavaScript, Language::Python, Language::Rust] {
            let p = prefilter(lang);
            assert!(0 < p.first && p.first < p.groups.len(), "{lang:?}");
        }
    }

    /// The leftmost-first search restarted after each start finds every occurrence an overlapping
    /// search finds, on every corpus file and on words inside words.
    #[test]
    fn prefilter_matches_are_the_overlapping_matches() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
        let mut texts: Vec<(Language, Vec<u8>)> = ignore::WalkBuilder::new(&root)
            .build()
            .filter_map(|e| {
                let path = e.unwrap().into_path();
                let lang = lang::language_for(&path)?;
                Some((lang, std::fs::read(&path).unwrap()))
            })
            .collect();
        assert!(texts.len() >= 40);
        for lang in [Language::JavaScript, Language::Python, Language::Rust] {
            texts.push((
                lang,
                b"MongoClientMongo db.db[ $push__x push_all__ mongodb.x".to_vec(),
            ));
        }
        let mut total = 0;
        for (lang, bytes) in &texts {
            let p = prefilter(*lang);
            let reference = AhoCorasick::new(p.words.iter().map(|w| w.word)).unwrap();
            let mut expected: Vec<(&str, usize, usize)> = reference
                .find_overlapping_iter(bytes.as_slice())
                .map(|m| (p.words[m.pattern().as_usize()].word, m.start(), m.end()))
                .collect();
            let mut got: Vec<(&str, usize, usize)> =
                p.matches(bytes).map(|(w, s, e)| (w.word, s, e)).collect();
            expected.sort_unstable();
            got.sort_unstable();
            assert_eq!(expected, got, "{lang:?}");
            total += got.len();
            // Each group's searcher finds what an automaton of its words finds (the searcher
            // used where the CPU has no Teddy), from every position.
            for group in &p.groups {
                let words: Vec<&str> = group
                    .by_first_byte
                    .iter()
                    .flatten()
                    .map(|&i| p.words[i as usize].word)
                    .collect();
                let automaton = GroupSearcher::automaton(&words);
                let starts = |s: &GroupSearcher| {
                    (0..=bytes.len())
                        .map(|at| s.find_from(bytes, at))
                        .collect::<Vec<_>>()
                };
                assert_eq!(starts(&group.searcher), starts(&automaton), "{lang:?}");
            }
        }
        assert!(total > 1000, "{total} matches");
        if cfg!(target_arch = "x86_64") && std::is_x86_feature_detected!("ssse3") {
            assert!(prefilter(Language::JavaScript)
                .groups
                .iter()
                .all(|g| matches!(g.searcher, GroupSearcher::Teddy(_))));
        }
    }

    /// Reading on from the previous match gives what reading each line from its start gives, at
    /// every position, in order and after a jump back.
    #[test]
    fn the_comment_scan_reads_on_as_if_from_the_line_start() {
        let text: &[u8] =
            b"a = 'x // y' // mongo\n\"q\\\" // \" + z # m\n  `t // ${u}` // c\ns = \"#\" # d\n";
        // What the scan knows at `at`: a comment, and the open quote and where it opened.
        let state = |scan: &mut FileScan, at: usize, python: bool| {
            let comment = scan.in_line_comment(text, at, python);
            (comment, scan.quote, scan.quote.map(|_| scan.quote_at))
        };
        for python in [false, true] {
            let fresh = |at: usize| state(&mut FileScan::default(), at, python);
            let mut scan = FileScan::default();
            let expected: Vec<_> = (0..text.len()).map(fresh).collect();
            let got: Vec<_> = (0..text.len())
                .map(|at| state(&mut scan, at, python))
                .collect();
            assert_eq!(expected, got, "python: {python}");
            assert!(got.iter().any(|c| c.0) && got.iter().any(|c| !c.0));
            assert!(got.iter().any(|c| c.1 == Some(b'\'')));
            for at in (0..text.len()).rev() {
                assert_eq!(state(&mut scan, at, python), expected[at]);
            }
            // Every other position, and every third: jumps over lines and within them.
            for step in [2, 3] {
                let mut scan = FileScan::default();
                for at in (0..text.len()).step_by(step) {
                    assert_eq!(state(&mut scan, at, python), expected[at]);
                }
            }
        }
    }

    /// In JavaScript, `mongo` is a hint in a module specifier or as a name of its own, not inside
    /// another name or another string (overleaf's `_getContentFromMongo(..)`,
    /// `Metrics.inc('compile-from-mongo')`, beside `Metrics.count(..)`).
    #[test]
    fn mongo_is_a_hint_in_a_module_specifier_or_as_a_name() {
        use Verdict::*;
        for js in [Language::JavaScript, Language::TypeScript, Language::Tsx] {
            for parsed in [
                "import { db } from '../lib/mongodb.js'\nitems.find({ a: 1 })",
                "import mongodb from 'mongodb-legacy'\nitems.find({ a: 1 })",
                "export { x } from \"@overleaf/mongo-utils\"\nitems.find({ a: 1 })",
                "import './mongo'\nitems.find({ a: 1 })",
                "const M = require('./MongoManager')\nM.update(a, b)",
                "const M = require ( \"./userMongoRepository\" )\nM.update(a, b)",
                "const c = await import('./mongo.js')\nc.find({})",
                "const c = await MongoClient.connect(url)\nx.find({ a: { $gt: 1 } })",
                "ctx.mongo.find({ $or: q })",
                "mongoose.set('debug', true)\nUser.find({ $text: t })",
                "const s = `${mongoPrefix}` + x\nitems.find({ a: \"$b\" })",
            ] {
                assert_eq!(verdict_of(js, parsed), Parse, "{js:?}: {parsed}");
            }
            for skipped in [
                "async function _getContentFromMongo(id) {}\nMetrics.count('x', 1)",
                "Metrics.inc('compile-from-mongo')\nMetrics.count('x', 1)",
                "recordEventForMongoUser(user)\nhash.update(x)",
                "const label = \"read from mongo\"\nitems.find({ a: 1 })",
                "throw new Error('no mongo here')\nitems.find({ a: 1 })",
            ] {
                assert_eq!(verdict_of(js, skipped), Skip, "{js:?}: {skipped}");
            }
        }
        // Python and Rust read wrappers named for MongoDB (`get_mongo_db()`): unchanged.
        assert_eq!(
            verdict_of(Language::Rust, "let c = get_mongo_client();\nc.find(None)"),
            verdict(Language::Rust, b"let c = mongo_client();\nc.find(None)")
        );
        assert!(is_module_specifier(b"import x from 'y'", 14));
        assert!(is_module_specifier(b"x = require('y')", 12));
        assert!(!is_module_specifier(b"x = myrequire('y')", 14));
        assert!(!is_module_specifier(b"f('y')", 2));
        assert!(!is_module_specifier(b"const fromage = 'y'", 17));
    }

    /// Where `db` is only ever a plain parameter, the frontend binds it and reads nothing through
    /// it but a chain of calls (sharejs's `function (db, options) { .. db.getSnapshot(..) .. }`).
    #[test]
    fn db_bound_only_as_a_parameter_names_no_collection() {
        use Verdict::*;
        let js = Language::JavaScript;
        let sharejs = "module.exports = Model = function (db, options) {\n  const w = (db != null ? db.writeOp : undefined)\n  if (db) {\n    return db.create(docName, data, done)\n  }\n  return db.getSnapshot(docName, cb)\n}";
        assert_eq!(verdict_of(js, sharejs), Skip);
        assert_eq!(verdict_of(js, "const f = (db) => db.users"), Skip);
        assert_eq!(verdict_of(js, "list.map(db => db.name)"), Skip);
        // A chain may be a driver call the frontend reads by its shape.
        assert_eq!(
            verdict_of(js, "function f(db) { return db.users.find({}).toArray() }"),
            Parse
        );
        // With a hint, a collection method called on `db` confirms (its type may be a collection).
        assert_eq!(
            verdict_of(
                js,
                "import { Collection } from 'mongodb'\nasync function f(db: Collection) { await db.find(q) }"
            ),
            Parse
        );
        // Not parameters: mongosh's `db`.
        for shell in [
            "if (db) { print(db.users) }",
            "f(db, x)\nprint(db.users)",
            "const f = async ({ db }) => db.users\n",
            "const o = { db: 1 }\nprint(db.users)",
        ] {
            assert_eq!(verdict_of(js, shell), Parse, "{shell}");
        }
        for (text, expected) in [
            ("function (db, options) {", true),
            ("function f(db) {}", true),
            ("async (db) => 1", true),
            ("async db => 1", true),
            ("up(db, client) {", true),
            ("(a, db = open()) => 1", true),
            ("async function f(db: Db): Promise<void> {}", true),
            ("(db?: Db) => 1", true),
            ("f(db, x)", false),
            ("if (db) {", false),
            ("while (a, db) {", false),
            ("x.db => 1", false),
            ("({ db }) => 1", false),
            ("f({ a, db: x })", false),
            ("mydb => 1", false),
            ("db == null", false),
        ] {
            assert_eq!(db_is_parameter(text.as_bytes()), expected, "{text}");
        }
    }

    /// In JavaScript, a collection method's name confirms only with arguments a driver method of
    /// that name takes: not a string first (but for `distinct`), and for `update` a filter and an
    /// update, the second not a string (`hash.update(data, 'utf8')`).
    #[test]
    fn a_method_confirms_with_a_drivers_arguments() {
        use Verdict::*;
        let js = Language::JavaScript;
        let py = Language::Python;
        // With a hint, a call that confirms makes the file parsed; one that does not, deferred.
        let cases: &[(Language, &[&str], &[&str])] = &[
            (
                js,
                &[
                    "hash.update(data)",
                    "hash.update(data, 'utf8')",
                    "crypto.createHash('md5').update(json).digest('hex')",
                    "hash.update(`blob ${n}`)",
                    "hash.update(\n  buffer,\n)",
                    "Metrics.count('compile', 1)",
                    "cache.remove(\"key\")",
                    "list.find('x')",
                ],
                &[
                    "c.update(q, u)",
                    "c.update({ a: 'x, y' }, { b: s })",
                    "c.update(\n  f(a, b),\n  doc,\n)",
                    "c.update(q, u, { upsert: true })",
                    "c.update([a, b].length ? q : r, u)",
                    "c.distinct('email', q)",
                    "c.count(q)",
                    "c.count()",
                    "c.find({ name: 'x' })",
                    // The scan gives up on a string it cannot close: still a confirmation.
                    "c.update(q + 'x\n, 'y')",
                ],
            ),
            (
                py,
                &[
                    "params.update(other)",
                    "params.update(\n    {'a': 1},\n)",
                    "path.find('/')",
                    "path.find(f\"{sep}\")",
                    "text.count(rb'x')",
                    "items.insert(0, x)",
                    "files.sort()",
                    "files.sort(reverse=(order == DESC))",
                    "files.sort(key=lambda f: f.name, reverse=True)",
                ],
                &[
                    "c.update(q, u)",
                    "c.update(spec, {'name': n}, upsert=True)",
                    "q.update(set__name=n)",
                    "q.update(**changes)",
                    "c.update(\n    q,  # the filter\n    u)",
                    // Python's `remove` may take an `_id`.
                    "c.remove('5f1d')",
                    "fields.remove(\"result\")",
                    "c.distinct('email')",
                    "c.find({'a': 1})",
                    "c.insert(doc)",
                    "c.count()",
                    "cursor.sort([('a', 1), ('b', -1)])",
                    "cursor.sort(key_or_list)",
                ],
            ),
        ];
        for (lang, not_driver, driver) in cases {
            let hint = if *lang == py {
                "import pymongo"
            } else {
                "import m from 'mongodb'"
            };
            for (calls, expected) in [(not_driver, Defer), (driver, Parse)] {
                for call in calls.iter() {
                    let text = format!("{hint}\n{call}");
                    assert_eq!(verdict_of(*lang, &text), expected, "{lang:?}: {call}");
                }
            }
        }
        // A string `_id` (`find_one("id")`) is evidence anyway: `find_one` is the driver's alone.
        assert_eq!(verdict_of(py, "import pymongo\nc.find_one('abc')"), Parse);
        assert!(is_keyword_argument(b"upsert = True"));
        assert!(!is_keyword_argument(b"a == b"));
        assert!(!is_keyword_argument(b"{'a': 1}"));
        assert_eq!(
            call_arguments(b"f( a, (b, c) , 'd,e' )", 1),
            Some(vec![(3, 4), (6, 12), (15, 20)])
        );
        assert_eq!(call_arguments(b"f(a, 'b\n)", 1), None);
    }

    /// A read the frontends take for a driver call by its shape alone is parsed, with no other
    /// hint in the file: reaction's `FlatRateFulfillmentRestrictions.find(q).toArray()`, a
    /// Mongoose `.lean()`, Motor's `.to_list(n)`.
    #[test]
    fn a_read_shaped_like_a_driver_call_is_parsed() {
        use Verdict::*;
        let js = Language::JavaScript;
        let reaction = "const { Restrictions } = context.collections;\nconst r = await Restrictions.find({ methodIds: method._id }).toArray();";
        assert_eq!(verdict_of(js, reaction), Parse);
        assert_eq!(
            verdict_of(js, "const u = await User.findOne({ a }).lean();"),
            Parse
        );
        assert_eq!(verdict_of(js, "const a = await rx.toArray();"), Defer);
        assert_eq!(
            verdict_of(
                Language::Python,
                "docs = await db_handle.things.find({'a': 1}).to_list(10)"
            ),
            Parse
        );
        let (ir, _) = crate::analysis::check_source(
            "filter.js",
            reaction,
            &crate::rules::Settings::default(),
        )
        .unwrap();
        assert_eq!(ir.operations.len(), 1, "the frontend reads it");
    }

    /// Words in line comments name nothing; `//` or `#` inside a string is not a comment.
    #[test]
    fn words_in_line_comments_do_not_count() {
        let (js, py) = (Language::JavaScript, Language::Python);
        assert!(!matters(
            py,
            "# There is no MongoDB connection here\nd.update(q, x)"
        ));
        assert!(matters(py, "import pymongo\nd.update(q, x)"));
        assert!(matters(py, "URL = 'mongodb://h/#x'\nd.update(q, x)"));
        assert!(!matters(js, "// see the Mongo docs\nitems.remove(1)"));
        assert!(matters(
            js,
            "const u = 'http://x'; ctx.mongo.find({ $or: q })"
        ));
        assert!(!matters(js, "x = 1; // db.users.find({})"));
        assert!(matters(js, "const s = \"a // b\"; db.users.find({})"));
    }

    /// `skip` counts where a frontend reads a skip: a method call, an options key, a keyword
    /// argument, a shorthand property; not an OT library's `skip(n)`, a property read or a path.
    #[test]
    fn skip_counts_where_a_frontend_reads_it() {
        let (js, py, rs) = (Language::JavaScript, Language::Python, Language::Rust);
        assert!(matters(js, "Post.find(q).skip(page * size)"));
        assert!(matters(js, "Post.find(q, null, { skip: offset })"));
        assert!(matters(js, "Post.find(q, null, { 'skip': offset })"));
        assert!(matters(
            js,
            "const { skip, limit } = paging; Post.find(q, null, { skip, limit })"
        ));
        assert!(!matters(
            js,
            "export function skip(n) { return n } ops.remove(1)"
        ));
        assert!(!matters(js, "if (p.total - p.skip > 0) list.insert(x)"));
        assert!(!matters(
            js,
            "// skip the header\nrows.find((r) => r.ok)\nrows.remove(1)"
        ));
        assert!(!matters(js, "const skipped = list.skip(1); list.insert(x)"));
        assert!(matters(py, "users.find(q, skip=offset)"));
        assert!(matters(py, "users.find(q, **{\"skip\": offset})"));
        assert!(!matters(py, "# skip empty rows\nrow.update(x)"));
        assert!(!matters(py, "if skip == 1:\n    d.update(x)"));
        assert!(matters(rs, "coll.find(doc! {}).skip(n)"));
        assert!(!matters(rs, "use crate::skip::Skip; items.find(x)"));
        // A JavaScript assignment is not a keyword argument; a name passed on between commas is a
        // shorthand property only inside braces.
        assert!(!matters(
            js,
            "let skip = 0\nskip = page * size\nrows.remove(1)"
        ));
        assert!(!matters(js, "paginate(rows, skip, limit)\nrows.insert(x)"));
        assert!(matters(js, "Post.find(q, null, { limit, skip, sort })"));
    }

    /// `populate` counts where the JavaScript frontend reads it: a chained call or an options key;
    /// not a parameter of that name in generated code (overleaf's emscripten `hunspell.mjs`).
    #[test]
    fn populate_counts_where_a_frontend_reads_it() {
        let js = Language::JavaScript;
        assert!(matters(js, "Post.find(q).populate('author')"));
        assert!(matters(js, "Post.find(q, null, { populate: 'author' })"));
        assert!(!matters(
            js,
            "syncfs(populate, callback) {\n  if (typeof populate == 'function') {\n    \
             callback = populate\n    populate = false\n  }\n  \
             mount.type.syncfs(mount, populate, done)\n}\nFS.create(path, mode)"
        ));
    }

    #[test]
    fn prefilter_words_count_only_in_context() {
        let js = Language::JavaScript;
        assert!(matters(js, "const users = db.collection('users');"));
        assert!(matters(
            js,
            "export default mongoose.model<IUser>('User', schema);"
        ));
        assert!(matters(js, "db.orders.find({})"));
        assert!(matters(js, "db.orders\n  .find({})"));
        assert!(matters(js, "q.skip(page * size).limit(10).find()"));
        assert!(matters(js, "coll.find(q, { skip: offset })"));
        assert!(matters(js, "x.$push"));
        assert!(!matters(
            js,
            "import { Story } from 'coral/server/graph/storyModel';"
        ));
        assert!(!matters(
            js,
            "this.model.get('name'); const collections = [];"
        ));
        assert!(!matters(js, "const model = { name: 1 }; model.name"));
        assert!(matters(
            js,
            "await addIndexes(db.users, [{ key: { email: 1 } }]);"
        ));
        assert!(matters(
            js,
            "const docs = await self.apos.doc.db.find({ type });"
        ));
        assert!(!matters(js, "db.getObject('key'); mydb.users.find()"));
        // A Typegoose model class's file, and the file that makes its model.
        assert!(matters(
            js,
            "import { prop, index } from '@typegoose/typegoose';\n@index({ a: 1 })\nexport class A { @prop() a!: string }"
        ));
        assert!(matters(
            js,
            "import { getModelForClass } from '@typegoose/typegoose';\nexport const AModel = getModelForClass(A);"
        ));
        assert!(!matters(
            js,
            "import { prop } from './props'; const x = prop('a');"
        ));
        assert!(!matters(js, "const skipped = shouldSkip(x); list.skip(1);"));
        assert!(!matters(js, "function groupBy(collection, fn) {}"));
        // `db.` and `db[` in a one-line string are not code; in a template literal they may be.
        assert!(!matters(
            js,
            "throw new Error('bug: include db.users._id in projection')"
        ));
        assert!(!matters(
            js,
            "const files = [\"scripts/ukamf-db.js\", 'db[0]']"
        ));
        assert!(matters(js, "log('x'); db.users.find({})"));
        assert!(matters(js, "const s = `${db.users.find()}`"));

        let py = Language::Python;
        assert!(matters(py, "from pymongo import MongoClient"));
        assert!(matters(
            py,
            "Post.objects(id=pid).update_one(push__comments=c)"
        ));
        assert!(matters(py, "self.db.orders.find_one({})"));
        assert!(matters(py, "db[name].insert_one({})"));
        assert!(!matters(py, "Item.objects.filter(dataset__id=1)"));
        assert!(!matters(
            py,
            "from st2common.models import db\nreturn db.db_teardown()"
        ));
        assert!(!matters(
            py,
            "from st2common.models.db.action import ActionDB"
        ));

        let rs = Language::Rust;
        assert!(matters(rs, "let c = db.collection::<Order>(\"orders\");"));
        assert!(matters(rs, "coll.find(doc! {}).skip(n)"));
        assert!(!matters(rs, "for line in input.lines().skip(1) {}"));
        assert!(!matters(rs, "let collection = vec![];"));
    }

    /// Matches that look like a driver's words but stand where no frontend reads one.
    #[test]
    fn prefilter_words_stand_only_where_frontends_read_them() {
        let (js, tsx, py, rs) = (
            Language::JavaScript,
            Language::Tsx,
            Language::Python,
            Language::Rust,
        );
        // An operator key ends where its name does: `$includeStory` is a GraphQL variable.
        assert!(!matters(tsx, "query Q($includeStory: Boolean!) { x }"));
        assert!(!matters(js, "render(`${$skipped}`)"));
        assert!(matters(js, "q({ \"$inc\": { n: 1 } })"));
        assert!(matters(js, "q({ $lookup: { from: 'users' } })"));
        assert!(matters(py, "c.update_one(f, {'$push': {'a': 1}})"));
        // A name followed by `<` is called only with type arguments and a `(`.
        assert!(!matters(
            tsx,
            "import x from 'mongodb';\n<Label>Toxicity model\n  </Label>"
        ));
        assert!(!matters(js, "import 'mongodb'; if (model < 3) {}"));
        assert!(matters(
            js,
            "import 'mongodb'; mongoose.model<IUser>('User', schema)"
        ));
        assert!(matters(
            js,
            "import 'mongodb'; const c = getCollection<{ a: Array<(x: T) => U> }>();"
        ));
        assert!(matters(
            js,
            "import { Mongo } from './mongo'; mongo.sites().aggregate<{\n  _id: string;\n  total: number;\n}>([])"
        ));
        assert!(matters(
            rs,
            "use mongodb::Client; let c = db.collection::<Order>(\"orders\");"
        ));
        // A `models` path segment is a hint in a module specifier, not in a URL.
        assert_eq!(
            verdict(js, b"import { Story } from '../models/story';"),
            Verdict::Defer
        );
        assert_eq!(
            verdict(js, b"const u = require(\"../models/user\");"),
            Verdict::Defer
        );
        assert_eq!(
            verdict(js, b"const url = \"https://x.org/2-api/models.md\";"),
            Verdict::Skip
        );
        // Python: `db.` in a one-line string (but an f-string's `{..}`) or anywhere in a
        // docstring is no code; operators in a docstring neither.
        assert!(!matters(
            py,
            "default_auto_field = 'django.db.models.BigAutoField'"
        ));
        assert!(matters(py, "print(f\"{db.users.find_one()}\")"));
        // Flask-SQLAlchemy's `db` is no evidence; a collection of pymongo's `db` still is, even
        // one named `session`.
        for sql in [
            "from redash.models import db\ndb.session.add(user)\ndb.session.commit()\n",
            "class User(db.Model):\n    id = db.Column(db.Integer, primary_key=True)\n    org = db.relationship(Org)\n",
            "with db.session.begin():\n    pass\nreturn render(db.session)\n",
        ] {
            assert!(!matters(py, sql), "{sql}");
        }
        for mongo in [
            "db.session.find_one({'token': t})\n",
            "db.sessions.delete_many({})\n",
            "db.session['x'].insert_one(d)\n",
            "db.users.find({})\n",
            "db.Users.find({})\n",
        ] {
            assert!(matters(py, mongo), "{mongo}");
        }
        assert!(!matters(
            py,
            "def run(self, liveaction):\n    \"\"\"\n    :type liveaction: ``st2common.models.db.liveaction.LiveActionDB``\n    Uses $push.\n    \"\"\"\n    return liveaction\n"
        ));
        assert!(matters(
            py,
            "def run(self):\n    '''Docs.'''\n    return self.db.users.find_one({})\n"
        ));
        // Quotes inside comments and one-line strings open no docstring.
        assert!(matters(
            py,
            "# don't say '''\nx = \"'''\"\nself.db.users.insert_one({})\n"
        ));
        // A shaping modifier hints only where it may shape an operation.
        assert!(matters(
            js,
            "import 'mongodb'; const d = await c.find(q).sort(s).toArray();"
        ));
        assert!(matters(
            js,
            "import 'mongodb'; const d = await cursor.toArray(); x.find({})"
        ));
        assert!(matters(
            js,
            "User.find(q).populate('a').lean().exec(); // Mongo"
        ));
        assert!(matters(js, "const d = await c.find(q).toArray();"));
        for text in [
            "smc._names = ArraySet.fromArray(aSourceMap._names.toArray(), true); x.create(a, b)",
            "React.Children.toArray(children); x.create(a, b)",
            "$('.row').toArray(); x.create(a, b)",
            "Object.values(o).map(f).toArray(); x.create(a, b)",
            "this.toArray(); x.create(a, b)",
        ] {
            assert_eq!(verdict(js, text.as_bytes()), Verdict::Skip, "{text}");
        }
        assert!(matters(
            py,
            "docs = await db.users.find(q).sort('a', 1).to_list(10)"
        ));
        assert!(matters(
            py,
            "docs = await self.cursor.to_list(None)\nx.find({})"
        ));
        assert_eq!(
            verdict(py, b"rows = self.table.rows.to_list()\nx.find({})"),
            Verdict::Skip
        );
        // A block comment that opens its line is no code: JSDoc, a license header.
        // It may hold a hint: prose that names MongoDB (a weak one: see below).
        let jsdoc = "/**\n * @param {Object} collections Map of MongoDB collections\n */\n";
        assert!(matters(
            js,
            &format!(
                "{jsdoc}async function f(c) {{ return c.Cart.find({{ _id: {{ $in: ids }} }}); }}"
            )
        ));
        assert_eq!(
            verdict(
                js,
                format!("{jsdoc}async function f(c) {{ return c.Cart.findOne({{ _id: id }}); }}")
                    .as_bytes()
            ),
            Verdict::Defer
        );
        assert_eq!(
            verdict(
                py,
                b"def f():\n    \"\"\"Reads from MongoDB.\"\"\"\n    return 1\n"
            ),
            Verdict::Defer
        );
        assert!(!matters(js, "/*\n db.users.find({})\n*/\nconst a = 1;"));
        assert!(matters(js, "/* a */ db.users.find({})"));
        assert!(matters(js, "const re = /[/*]/; db.users.find({})"));
        assert!(matters(js, "/* never closed\ndb.users.find({})"));
        assert!(!matters(
            rs,
            "/*\n let c = db.collection::<Order>(\"orders\");\n*/\nfn main() {}"
        ));
        // With only weak hints (JavaScript's `mongo` as a name, a models path), a collection
        // method counts on an imported name or in a file that spells operators.
        let coral = "import { MongoContext } from \"coral-server/data/context\";\n\
                     import { createComment } from \"coral-server/models/comment\";\n\
                     export async function f(mongo: MongoContext, cache: Cache) {\n\
                     const c = await createComment(mongo, input);\n\
                     await notifications.create(tenant.id, tenant.locale, c);\n\
                     await cache.update(redis, c);\n}";
        assert_eq!(verdict(tsx, coral.as_bytes()), Verdict::Defer);
        assert!(matters(
            tsx,
            &format!("{coral}\nawait mongo.comments().find({{ id: {{ $in: ids }} }});")
        ));
        assert!(matters(
            js,
            "import Comment from '../models/comment';\nawait Comment.find({ story: id });"
        ));
        assert!(matters(
            js,
            "const {\n  Comment,\n  User\n} = require('../models');\nUser.findOne({ _id: id })"
        ));
        assert!(matters(
            js,
            "const models = require('../models');\nmodels.User.findOne({ _id: id })"
        ));
        assert!(matters(
            js,
            "import { User } from '../models/User.mjs'\nimport { f } from 'node:url'\n// require('x')\nawait User.findOne({})"
        ));
        assert_eq!(
            verdict(
                js,
                b"import Comment from '../models/comment';\nawait this.users.findOne({ _id: id });"
            ),
            Verdict::Defer
        );
        // A package's import is no receiver the linker resolves; a definition is no call.
        assert_eq!(
            verdict(
                tsx,
                b"import { SubscriptionServer } from \"subscriptions-transport-ws\";\nimport { x } from \"coral-server/models/story\";\nSubscriptionServer.create(a, b);"
            ),
            Verdict::Defer
        );
        assert_eq!(
            verdict(
                tsx,
                b"import { x } from \"coral-server/models/story\";\nexport function getCollection(mongo: M) {}"
            ),
            Verdict::Defer
        );
        // Each receiver's name is looked up in the imports once; past `MAX_RECEIVER_NAMES`
        // names the file is parsed rather than read on (a generated file of 60,000 calls on
        // distinct receivers would otherwise search its imports 60,000 times).
        let calls = |n: usize| {
            let mut text = String::from("const m = ctx.mongo;\nimport { x } from './x';\n");
            for i in 0..n {
                text.push_str(&format!("a{i}.b.find(q);\n"));
            }
            text
        };
        assert_eq!(verdict(js, calls(10).as_bytes()), Verdict::Defer);
        assert_eq!(
            verdict(js, calls(MAX_RECEIVER_NAMES + 1).as_bytes()),
            Verdict::Parse
        );
        // A module specifier is a strong hint: the frontend types receivers from it.
        assert!(matters(
            tsx,
            "import { Collection } from 'mongodb';\nfunction f(c: Collection) { return c.findOne({ a: 1 }); }"
        ));
        // Text that is not valid Python does not panic.
        for text in ["'''", "\"\"\"a\\", "'a\\", "#", "f'''{db.x}"] {
            let _ = verdict(py, text.as_bytes());
        }
    }
}
