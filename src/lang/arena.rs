//! A per-thread bump arena for tree-sitter's allocations while one file is parsed and extracted.
//!
//! tree-sitter allocates a block per subtree and, when a tree is deleted, walks the whole tree to
//! free them one at a time (`ts_tree_delete`, `ts_subtree_release`). With the arena installed
//! ([`install`], done by the binary), the objects of one file's [`Scope`] are cut from this
//! thread's arena; freeing an arena block does nothing; the file's parser and tree are forgotten
//! rather than deleted ([`Owned`]), and the next scope takes the whole arena back at once. Outside
//! a scope, and for every block that is not the arena's, the calls go to mimalloc.
//! Measured in bench/README.md (session 44).
//!
//! Every arena block is 16-aligned and starts with a 16-byte header that holds its size (for
//! `realloc`).

use libmimalloc_sys as mi;
use std::cell::{Cell, UnsafeCell};
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, Ordering};

/// The first chunk's size; each further chunk of a scope doubles the last.
const FIRST_CHUNK: usize = 1 << 20;
/// At the next scope, the chunks of a scope that needed several become one chunk of their total
/// size, unless that is over this (a huge file's parse): then they are all given back.
const KEEP_AT_MOST: usize = 64 << 20;
/// Past this many bytes in one scope, blocks come from mimalloc again: the arena reuses nothing
/// within a file, and error recovery on garbage can allocate and free a great deal.
const SCOPE_LIMIT: usize = 1 << 30;
const HEADER: usize = 16;

/// Whether [`install`] was called: only then do tree-sitter's allocations reach this module.
static INSTALLED: AtomicBool = AtomicBool::new(false);

struct Arena {
    /// Whether a scope is open on this thread.
    active: bool,
    /// (start, capacity) of each chunk, the last being cut (from [`BUMP`]).
    chunks: Vec<(*mut u8, usize)>,
    /// The capacity of all chunks.
    total: usize,
}

thread_local! {
    static ARENA: UnsafeCell<Arena> = const {
        UnsafeCell::new(Arena {
            active: false,
            chunks: Vec::new(),
            total: 0,
        })
    };

    /// The next free byte and the end of the chunk being cut while a scope is open, both null
    /// otherwise. Kept apart from `ARENA` for the common allocation, which only moves the first:
    /// a thread-local without a destructor is read without first asking whether it is still
    /// alive, and the whole allocation took 41 instructions where it takes 15 (callgrind on the
    /// 1M-line repository of bench/, one million allocations: session 51).
    static BUMP: Cell<(*mut u8, *mut u8)> = const {
        Cell::new((std::ptr::null_mut(), std::ptr::null_mut()))
    };
}

/// The bytes a block of `size` bytes takes from a chunk: the header, and the size rounded up to
/// keep the next block 16-aligned.
fn block_size(size: usize) -> Option<usize> {
    size.checked_add(2 * HEADER - 1).map(|n| n & !(HEADER - 1))
}

/// Cuts a block of `need` bytes (`block_size(size)`) at `at`, writing its header.
///
/// # Safety
/// `at` is 16-aligned, with `need` bytes of a chunk from there.
unsafe fn cut(at: *mut u8, size: usize) -> *mut u8 {
    // SAFETY: the caller's.
    unsafe {
        (at as *mut usize).write(size);
        at.add(HEADER)
    }
}

fn chunk_layout(size: usize) -> std::alloc::Layout {
    std::alloc::Layout::from_size_align(size, HEADER).expect("a chunk's size fits a layout")
}

impl Arena {
    fn owns(&self, p: *mut u8) -> bool {
        self.chunks
            .iter()
            .any(|&(start, cap)| p >= start && (p as usize) < start as usize + cap)
    }

    /// A block of `size` (taking `need`) bytes from a new chunk, the last one having no room: null
    /// when the scope is over its limit or memory is out.
    fn alloc_in_new_chunk(&mut self, size: usize, need: usize) -> *mut u8 {
        if self.total.saturating_add(need) > SCOPE_LIMIT {
            return std::ptr::null_mut();
        }
        let cap = self
            .chunks
            .last()
            .map_or(FIRST_CHUNK, |c| 2 * c.1)
            .max(need);
        // SAFETY: a non-zero size.
        let start = unsafe { std::alloc::alloc(chunk_layout(cap)) };
        if start.is_null() {
            return std::ptr::null_mut();
        }
        self.chunks.push((start, cap));
        self.total += cap;
        BUMP.set((start.wrapping_add(need), start.wrapping_add(cap)));
        // SAFETY: the chunk is 16-aligned and holds `cap >= need` bytes.
        unsafe { cut(start, size) }
    }

    fn release_chunks(&mut self) {
        for &(start, cap) in &self.chunks {
            // SAFETY: allocated in `alloc` with this layout.
            unsafe { std::alloc::dealloc(start, chunk_layout(cap)) };
        }
        self.chunks.clear();
        self.total = 0;
        BUMP.set((std::ptr::null_mut(), std::ptr::null_mut()));
    }

    /// Opens a scope: every block taken back, blocks cut from the arena until [`Arena::close`].
    fn open(&mut self) {
        self.reset();
        self.active = true;
    }

    fn close(&mut self) {
        self.active = false;
        BUMP.set((std::ptr::null_mut(), std::ptr::null_mut()));
    }

    /// Takes every block back, keeping one chunk.
    fn reset(&mut self) {
        if self.chunks.len() > 1 || self.total > KEEP_AT_MOST {
            let total = self.total;
            self.release_chunks();
            if total <= KEEP_AT_MOST {
                // SAFETY: a non-zero size.
                let start = unsafe { std::alloc::alloc(chunk_layout(total)) };
                if !start.is_null() {
                    self.chunks.push((start, total));
                    self.total = total;
                }
            }
        }
        if let Some(&(start, cap)) = self.chunks.first() {
            BUMP.set((start, start.wrapping_add(cap)));
        }
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        self.release_chunks();
    }
}

/// Runs `f` on this thread's arena, or returns `None` once the thread is exiting and the arena
/// is gone.
fn with_arena<R>(f: impl FnOnce(&mut Arena) -> R) -> Option<R> {
    ARENA
        .try_with(|a| {
            // SAFETY: only this thread touches its arena, and never re-entrantly: none of this
            // module's functions calls back into another while it holds the reference.
            f(unsafe { &mut *a.get() })
        })
        .ok()
}

/// This thread's arena open for one file's tree-sitter objects, until dropped. Each of them must
/// be an [`Owned`] declared after the scope (so dropped before it), and none may be used after:
/// the next scope reuses the memory. Without [`install`], a scope does nothing.
pub struct Scope {
    open: bool,
}

impl Scope {
    pub fn open() -> Scope {
        let open = installed() && with_arena(Arena::open).is_some();
        Scope { open }
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        if self.open {
            with_arena(Arena::close);
        }
    }
}

/// A tree-sitter object of a [`Scope`]: forgotten at the end when its memory is the arena's,
/// dropped (deleted) as usual when the arena is not installed.
pub struct Owned<T> {
    value: std::mem::ManuallyDrop<T>,
}

impl<T> Owned<T> {
    pub fn new(value: T) -> Owned<T> {
        Owned {
            value: std::mem::ManuallyDrop::new(value),
        }
    }
}

impl<T> std::ops::Deref for Owned<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> std::ops::DerefMut for Owned<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.value
    }
}

impl<T> Drop for Owned<T> {
    fn drop(&mut self) {
        if !installed() {
            // SAFETY: dropped once, here; never used again.
            unsafe { std::mem::ManuallyDrop::drop(&mut self.value) };
        }
    }
}

/// A block from the arena when a scope is open and has room, else null.
fn arena_block(size: usize) -> *mut u8 {
    let Some(need) = block_size(size) else {
        return std::ptr::null_mut();
    };
    let (next, end) = BUMP.get();
    // (Both null outside a scope, and `need` is never 0.)
    if (end as usize) - (next as usize) >= need {
        BUMP.set((next.wrapping_add(need), end));
        // SAFETY: `next` is 16-aligned (chunks are, and so are block sizes), with `need` bytes of
        // the chunk from there.
        return unsafe { cut(next, size) };
    }
    new_chunk_block(size, need)
}

/// [`arena_block`] when the chunk has no room or no scope is open. Out of line, so that the
/// common case saves no registers.
#[cold]
#[inline(never)]
fn new_chunk_block(size: usize, need: usize) -> *mut u8 {
    with_arena(|a| {
        if a.active {
            a.alloc_in_new_chunk(size, need)
        } else {
            std::ptr::null_mut()
        }
    })
    .unwrap_or(std::ptr::null_mut())
}

/// Whether `p` is a block of this thread's arena.
fn owned(p: *mut c_void) -> bool {
    with_arena(|a| a.owns(p as *mut u8)).unwrap_or(false)
}

unsafe extern "C" fn arena_malloc(size: usize) -> *mut c_void {
    let p = arena_block(size);
    if p.is_null() {
        // SAFETY: the C allocator's contract.
        unsafe { mi::mi_malloc(size) }
    } else {
        p as *mut c_void
    }
}

unsafe extern "C" fn arena_calloc(count: usize, size: usize) -> *mut c_void {
    let Some(bytes) = count.checked_mul(size) else {
        return std::ptr::null_mut();
    };
    let p = arena_block(bytes);
    if p.is_null() {
        // SAFETY: the C allocator's contract.
        return unsafe { mi::mi_calloc(count, size) };
    }
    // SAFETY: the block holds `bytes` bytes; the arena's memory is reused, so not zero.
    unsafe { std::ptr::write_bytes(p, 0, bytes) };
    p as *mut c_void
}

unsafe extern "C" fn arena_realloc(p: *mut c_void, size: usize) -> *mut c_void {
    if p.is_null() {
        // SAFETY: the C allocator's contract.
        return unsafe { arena_malloc(size) };
    }
    if !owned(p) {
        // SAFETY: a mimalloc block.
        return unsafe { mi::mi_realloc(p, size) };
    }
    // SAFETY: an arena block has its size in the header before it.
    let old = unsafe { ((p as *mut u8).sub(HEADER) as *const usize).read() };
    if size <= old {
        return p;
    }
    // SAFETY: the C allocator's contract; the new block holds more than the old one's `old`
    // bytes, and blocks never overlap. The old block is not freed: the arena takes it back.
    unsafe {
        let q = arena_malloc(size);
        if !q.is_null() {
            std::ptr::copy_nonoverlapping(p as *const u8, q as *mut u8, old);
        }
        q
    }
}

unsafe extern "C" fn arena_free(p: *mut c_void) {
    if !p.is_null() && !owned(p) {
        // SAFETY: a mimalloc block.
        unsafe { mi::mi_free(p) }
    }
}

/// Whether [`install`] was called.
pub fn installed() -> bool {
    INSTALLED.load(Ordering::Relaxed)
}

/// Makes tree-sitter allocate through this module: from the arena inside a [`Scope`], from
/// mimalloc elsewhere.
///
/// # Safety
/// Call once, before any tree-sitter object exists.
pub unsafe fn install() {
    // SAFETY: the functions have the C allocator signatures tree-sitter expects; the caller
    // guarantees no tree-sitter allocation is live.
    unsafe {
        tree_sitter::set_allocator(
            Some(arena_malloc),
            Some(arena_calloc),
            Some(arena_realloc),
            Some(arena_free),
        );
    }
    INSTALLED.store(true, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Opens a scope on this thread's arena whether or not `install` was called (the tests
    /// call the allocator functions themselves, not through tree-sitter).
    fn open_scope() {
        with_arena(Arena::open);
    }

    fn close_scope() {
        with_arena(Arena::close);
    }

    #[test]
    fn a_scope_cuts_blocks_from_the_arena_and_the_next_scope_reuses_them() {
        // (On a thread of its own: the test harness's threads are reused.)
        std::thread::spawn(|| unsafe {
            open_scope();
            let a = arena_malloc(100) as *mut u8;
            let b = arena_calloc(10, 30) as *mut u8;
            assert!(owned(a as _) && owned(b as _));
            assert_eq!(a as usize % 16, 0);
            assert_eq!(b as usize % 16, 0);
            assert!(std::slice::from_raw_parts(b, 300).iter().all(|&x| x == 0));
            std::ptr::write_bytes(a, 7, 100);
            // Freeing an arena block does nothing: its bytes stay.
            arena_free(a as _);
            assert_eq!(*a.add(99), 7);
            close_scope();
            // Outside a scope: mimalloc's blocks, freed by mimalloc.
            let m = arena_malloc(100);
            assert!(!owned(m));
            arena_free(m);
            // The next scope starts again at the first block, and calloc zeroes reused memory.
            open_scope();
            let again = arena_calloc(1, 100) as *mut u8;
            assert_eq!(again, a);
            assert!(std::slice::from_raw_parts(again, 100)
                .iter()
                .all(|&x| x == 0));
            close_scope();
        })
        .join()
        .unwrap();
    }

    #[test]
    fn realloc_keeps_the_contents_across_chunks_and_for_mimalloc_blocks() {
        std::thread::spawn(|| unsafe {
            open_scope();
            let mut p = arena_malloc(16) as *mut u8;
            for i in 0..16 {
                *p.add(i) = i as u8;
            }
            // Grow past the first chunk, several times.
            for size in [1_000, 100_000, 3 << 20, 9 << 20] {
                p = arena_realloc(p as _, size) as *mut u8;
                assert!(owned(p as _));
                assert!((0..16).all(|i| *p.add(i) == i as u8), "after {size}");
                *p.add(size - 1) = 42;
            }
            // Shrinking keeps the block.
            assert_eq!(arena_realloc(p as _, 8) as *mut u8, p);
            // A block mimalloc gave before the scope grows as a mimalloc block.
            close_scope();
            let m = arena_malloc(8) as *mut u8;
            *m = 9;
            open_scope();
            let m2 = arena_realloc(m as _, 4096) as *mut u8;
            assert!(!owned(m2 as _));
            assert_eq!(*m2, 9);
            arena_free(m2 as _);
            close_scope();
            // The chunks of that scope are one chunk at the next, of their total size.
            open_scope();
            let chunks = with_arena(|a| (a.chunks.len(), a.total)).unwrap();
            assert_eq!(chunks.0, 1);
            assert!(chunks.1 > 9 << 20);
            close_scope();
        })
        .join()
        .unwrap();
    }

    #[test]
    fn a_scope_over_its_limit_takes_blocks_from_mimalloc() {
        std::thread::spawn(|| unsafe {
            open_scope();
            let big = arena_malloc(SCOPE_LIMIT / 2 + 1);
            assert!(owned(big));
            // A second half would pass the limit.
            let over = arena_malloc(SCOPE_LIMIT / 2 + 1);
            assert!(!over.is_null() && !owned(over));
            arena_free(over);
            close_scope();
            // Too large to keep: given back at the next scope.
            open_scope();
            assert_eq!(with_arena(|a| a.chunks.len()).unwrap(), 0);
            close_scope();
        })
        .join()
        .unwrap();
    }
}
