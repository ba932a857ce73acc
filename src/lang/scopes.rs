//! Fast name lookup for the frontends: the bindings of one name grouped by scope, so that finding the
//! scopes around a position costs a binary search plus the nesting depth, not a scan of every
//! binding of that name in the file (which made files with thousands of functions — every one with
//! a parameter `e` or `req` — quadratic).

/// The scopes (byte spans) of one name's bindings, for "which scopes contain this position?".
#[derive(Debug, Default)]
pub(crate) struct ScopeIndex {
    /// Distinct scopes, sorted by start ascending then end descending (outer before inner).
    groups: Vec<Group>,
    /// False when two scopes overlap without nesting (never for tree spans); lookups then scan.
    laminar: bool,
}

#[derive(Debug)]
pub(crate) struct Group {
    start: u32,
    end: u32,
    /// Nearest enclosing group.
    parent: Option<u32>,
    /// Indices of the bindings with this scope, by position, then in their original order.
    members: Vec<u32>,
}

impl ScopeIndex {
    /// `scopes[i]` is the scope `(start, end)` of binding `i` (inclusive bounds) and its position.
    pub(crate) fn new(scopes: impl IntoIterator<Item = (u32, u32, u32)>) -> Self {
        let mut order: Vec<(u32, u32, u32, u32)> = scopes
            .into_iter()
            .enumerate()
            .map(|(i, (s, e, pos))| (s, e, pos, i as u32))
            .collect();
        order.sort_by(|a, b| {
            a.0.cmp(&b.0)
                .then(b.1.cmp(&a.1))
                .then(a.2.cmp(&b.2))
                .then(a.3.cmp(&b.3))
        });
        let mut groups: Vec<Group> = Vec::new();
        for (start, end, _, i) in order {
            match groups.last_mut() {
                Some(g) if g.start == start && g.end == end => g.members.push(i),
                _ => groups.push(Group {
                    start,
                    end,
                    parent: None,
                    members: vec![i],
                }),
            }
        }
        let mut laminar = true;
        let mut stack: Vec<u32> = Vec::new();
        for gi in 0..groups.len() {
            let (start, end) = (groups[gi].start, groups[gi].end);
            while let Some(&top) = stack.last() {
                let t = &groups[top as usize];
                if t.start <= start && end <= t.end {
                    break;
                }
                if start <= t.end {
                    // Overlapping without nesting.
                    laminar = false;
                }
                stack.pop();
            }
            groups[gi].parent = stack.last().copied();
            stack.push(gi as u32);
        }
        ScopeIndex { groups, laminar }
    }

    /// The scopes containing `at`, innermost first, as `(width, binding indices)`. Scopes of equal
    /// width come one after the other (they are the same span when scopes nest). When scopes nest,
    /// they are followed up the chain of parents as they are asked for: a lookup stops at the
    /// first scope with a binding of the name, and a list of them all, for the 40,000 lookups of
    /// the 1M-line repository of bench/, cost 4 M instructions in allocations alone (session 51).
    pub(crate) fn containing(&self, at: u32) -> Containing<'_> {
        if self.laminar {
            let last = self.groups.partition_point(|g| g.start <= at);
            Containing::Nested {
                groups: &self.groups,
                next: last.checked_sub(1),
                at,
            }
        } else {
            let mut out: Vec<(u32, &[u32])> = self
                .groups
                .iter()
                .filter(|g| g.start <= at && at <= g.end)
                .map(|g| (g.end - g.start, g.members.as_slice()))
                .collect();
            out.sort_by_key(|(w, _)| *w);
            Containing::Listed(out.into_iter())
        }
    }
}

/// The scopes containing a position (see [`ScopeIndex::containing`]).
pub(crate) enum Containing<'a> {
    /// Scopes that nest: from the group `next` up its parents, those that reach `at`.
    Nested {
        groups: &'a [Group],
        next: Option<usize>,
        at: u32,
    },
    Listed(std::vec::IntoIter<(u32, &'a [u32])>),
}

impl<'a> Iterator for Containing<'a> {
    type Item = (u32, &'a [u32]);

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Containing::Nested { groups, next, at } => loop {
                let g = &groups[(*next)?];
                *next = g.parent.map(|p| p as usize);
                if *at <= g.end {
                    return Some((g.end - g.start, g.members.as_slice()));
                }
            },
            Containing::Listed(scopes) => scopes.next(),
        }
    }
}

/// The binding `name` refers to at `at`: among the `eligible` bindings of the innermost scope that has
/// any, the one `better` prefers (`better(candidate, current)`).
pub(crate) fn lookup<'a, B>(
    list: &'a [B],
    index: &ScopeIndex,
    at: u32,
    eligible: impl Fn(&B) -> bool,
    better: impl Fn(&B, &B) -> bool,
) -> Option<&'a B> {
    let mut best: Option<(u32, &B)> = None;
    for (width, members) in index.containing(at) {
        if best.is_some_and(|(w, _)| w != width) {
            break;
        }
        for &i in members {
            let b = &list[i as usize];
            if !eligible(b) {
                continue;
            }
            best = match best {
                Some((w, cur)) if !better(b, cur) => Some((w, cur)),
                _ => Some((width, b)),
            };
        }
    }
    best.map(|(_, b)| b)
}

/// [`lookup`] as JavaScript and Python see names: a binding whose own value holds `at` is not yet
/// visible there (`db = db.getSiblingDB(..)`, `cursor = cursor.skip(n)`: the right-hand side sees
/// the previous binding); in the same scope the latest definition before `at` wins, else the
/// earliest after it (a function body sees a module-level name assigned below it).
///
/// `index` must have been built with each binding's `pos` ([`index_all`]): a scope's members are
/// then by position, and the latest before `at` is a binary search away, not a scan of the scope
/// (a generated file that assigns one name thousands of times in one scope was quadratic).
pub(crate) fn lookup_latest_before<'a, 't, B>(
    list: &'a [B],
    index: &ScopeIndex,
    at: u32,
    pos: impl Fn(&B) -> u32,
    value: impl Fn(&B) -> Option<tree_sitter::Node<'t>>,
) -> Option<&'a B> {
    latest_before(list, index, at, pos, |b: &B| {
        !value(b).is_some_and(|v| v.start_byte() as u32 <= at && at < v.end_byte() as u32)
    })
}

/// [`lookup_latest_before`] with its eligibility spelt out (for tests).
fn latest_before<'a, B>(
    list: &'a [B],
    index: &ScopeIndex,
    at: u32,
    pos: impl Fn(&B) -> u32,
    eligible: impl Fn(&B) -> bool,
) -> Option<&'a B> {
    if !index.laminar {
        return lookup(list, index, at, eligible, |b, cur| {
            match (pos(b) <= at, pos(cur) <= at) {
                (true, true) => pos(b) > pos(cur),
                (true, false) => true,
                (false, false) => pos(b) < pos(cur),
                (false, true) => false,
            }
        });
    }
    for (_, members) in index.containing(at) {
        let binding = |k: usize| &list[members[k] as usize];
        let before = members.partition_point(|&i| pos(&list[i as usize]) <= at);
        // The latest eligible binding at or before `at`; of several at that position, the first.
        let mut found: Option<&B> = None;
        for k in (0..before).rev() {
            let b = binding(k);
            if found.is_some_and(|f| pos(f) != pos(b)) {
                break;
            }
            if eligible(b) {
                found = Some(b);
            }
        }
        // Else the earliest eligible one after it.
        let found = found.or_else(|| (before..members.len()).map(binding).find(|b| eligible(b)));
        if found.is_some() {
            return found;
        }
    }
    None
}

/// One index per name, for a frontend's `bindings` map.
pub(crate) fn index_all<B>(
    bindings: &crate::lang::HashMap<String, Vec<B>>,
    scope: impl Fn(&B) -> (u32, u32, u32),
) -> crate::lang::HashMap<String, ScopeIndex> {
    bindings
        .iter()
        .map(|(k, v)| (k.clone(), ScopeIndex::new(v.iter().map(&scope))))
        .collect()
}

/// Whether a name bound at `pos` in `scope` is bound before in the same scope by one of `all`
/// (given as each binding's scope and position): only then can another binding than the latest
/// reach a use (see [`in_another_branch`]).
/// `index` gives `all`'s [`ScopeIndex`], asked for only when `all` is long: the bindings of one
/// scope are a group of it, in the order of their positions, so only the group's first is asked
/// (a linear scan of `all` made a minified bundle's 48,000 bindings of `o` quadratic).
pub(crate) fn bound_before_in_scope<'a, B>(
    all: &[B],
    index: impl FnOnce() -> Option<&'a ScopeIndex>,
    scope: crate::ir::Span,
    pos: u32,
    of: impl Fn(&B) -> (crate::ir::Span, u32),
) -> bool {
    // (A few bindings are scanned: cheaper than finding the index.)
    let Some(index) = (all.len() > 32).then(index).flatten() else {
        return all.iter().any(|o| {
            let (s, p) = of(o);
            s == scope && p < pos
        });
    };
    let (start, end) = (scope.start, scope.end);
    let first = index.groups.partition_point(|g| g.start < start);
    index.groups[first..]
        .iter()
        .take_while(|g| g.start == start)
        .find(|g| g.end == end)
        .and_then(|g| g.members.first())
        .and_then(|&i| all.get(i as usize))
        .is_some_and(|o| {
            let (s, p) = of(o);
            s == scope && p < pos
        })
}

/// Whether `at` is in the `if` statement `statement` but not in its branch `branch` (the one
/// a binding is made in): the binding does not reach `at`, which runs on another branch.
pub(crate) fn in_another_branch(
    statement: tree_sitter::Node,
    branch: tree_sitter::Node,
    at: u32,
) -> bool {
    let inside = |n: tree_sitter::Node| n.start_byte() as u32 <= at && at < n.end_byte() as u32;
    inside(statement) && !inside(branch)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(idx: &ScopeIndex, at: u32) -> Vec<Vec<u32>> {
        idx.containing(at).map(|(_, m)| m.to_vec()).collect()
    }

    #[test]
    fn innermost_first_through_nesting() {
        // 0: file, 1: f, 2: g inside f, 3: file again, 4: h after f
        let idx = ScopeIndex::new(
            [(0, 100), (10, 50), (20, 30), (0, 100), (60, 90)].map(|(s, e)| (s, e, 0)),
        );
        assert!(idx.laminar);
        assert_eq!(ids(&idx, 25), vec![vec![2], vec![1], vec![0, 3]]);
        assert_eq!(ids(&idx, 40), vec![vec![1], vec![0, 3]]);
        assert_eq!(ids(&idx, 55), vec![vec![0, 3]]);
        assert_eq!(ids(&idx, 70), vec![vec![4], vec![0, 3]]);
        assert_eq!(ids(&idx, 100), vec![vec![0, 3]]);
        assert!(ids(&idx, 101).is_empty());
    }

    #[test]
    fn overlapping_scopes_fall_back_to_a_scan() {
        let idx = ScopeIndex::new([(0, 10), (5, 20)].map(|(s, e)| (s, e, 0)));
        assert!(!idx.laminar);
        assert_eq!(ids(&idx, 7), vec![vec![0], vec![1]]);
        assert_eq!(ids(&idx, 15), vec![vec![1]]);
    }

    #[test]
    fn matches_a_linear_scan() {
        // Random nested spans: containing() equals the brute-force answer sorted by width.
        let mut seed = 12345u64;
        let mut rnd = |n: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as u32
        };
        for _ in 0..200 {
            // Build a random tree of spans by recursive splitting.
            let mut spans = vec![(0u32, 1000u32)];
            let mut i = 0;
            while i < spans.len() && spans.len() < 40 {
                let (s, e) = spans[i];
                if e - s > 4 {
                    let a = s + 1 + rnd(e - s - 2);
                    let b = a + rnd(e - a);
                    spans.push((a, b));
                    if rnd(2) == 0 {
                        spans.push((a, b));
                    }
                }
                i += 1;
            }
            let spans: Vec<_> = spans.into_iter().filter(|(s, e)| s <= e).collect();
            let idx = ScopeIndex::new(spans.iter().map(|&(s, e)| (s, e, 0)));
            for at in 0..1002 {
                let mut got: Vec<u32> = idx.containing(at).flat_map(|(_, m)| m.to_vec()).collect();
                let mut want: Vec<u32> = (0..spans.len() as u32)
                    .filter(|&i| spans[i as usize].0 <= at && at <= spans[i as usize].1)
                    .collect();
                got.sort();
                want.sort();
                assert_eq!(got, want, "at {at} in {spans:?}");
            }
        }
    }

    /// The binary search agrees with a scan of every binding: random nested scopes, positions with
    /// ties, and bindings not eligible at the position asked.
    #[test]
    fn latest_before_agrees_with_a_scan() {
        let mut seed = 7u64;
        let mut rnd = |n: u32| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) % n as u64) as u32
        };
        for _ in 0..200 {
            // (scope start, scope end, pos, eligible) for bindings of one name.
            let scopes = [(0, 1000), (100, 400), (150, 200), (500, 900)];
            let bindings: Vec<(u32, u32, u32, bool)> = (0..rnd(40) + 1)
                .map(|_| {
                    let (s, e) = scopes[rnd(4) as usize];
                    (s, e, s + rnd(e - s), rnd(5) != 0)
                })
                .collect();
            let idx = ScopeIndex::new(bindings.iter().map(|b| (b.0, b.1, b.2)));
            for at in (0..1000).step_by(7) {
                let fast = latest_before(&bindings, &idx, at, |b| b.2, |b| b.3);
                let scan = lookup(
                    &bindings,
                    &idx,
                    at,
                    |b| b.3,
                    |b, cur| match (b.2 <= at, cur.2 <= at) {
                        (true, true) => b.2 > cur.2,
                        (true, false) => true,
                        (false, false) => b.2 < cur.2,
                        (false, true) => false,
                    },
                );
                assert_eq!(
                    fast.map(|b| b as *const _),
                    scan.map(|b| b as *const _),
                    "at {at}: {bindings:?}"
                );
            }
        }
    }
}
