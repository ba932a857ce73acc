//! The global allocator of the binary and of the benchmark's floor program: mimalloc, asked
//! without an alignment wherever its plain blocks already have the one asked for.
//!
//! The `mimalloc` crate's allocator passes every Rust allocation to `mi_malloc_aligned`. mimalloc
//! v3 serves an aligned request of at most 1 KiB (`MI_SMALL_SIZE_MAX`) from a free block of the
//! page at hand when there is one. Every larger request, and a small one whose page has no free
//! block, takes the generic path. That path takes a plain block only when the block size is a power
//! of two; otherwise it over-allocates `size + alignment - 1` bytes, often from the next size class.
//! Vectors and strings over 1 KiB (the IR's, the flat trees', the report's) took that path on
//! every allocation and every growth. A plain `mi_malloc` block is aligned to 8 bytes, and to 16
//! when it is 16 bytes or more (mimalloc's `MI_MAX_ALIGN_SIZE`), so an alignment of at most 16 and
//! at most the size needs no aligned call: the same test as the standard library's own allocator
//! on Unix.
//! Measured in bench/README.md (session 20).

use libmimalloc_sys as mi;
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// mimalloc's `MI_MAX_ALIGN_SIZE`: the alignment of every block of at least this many bytes.
const PLAIN_ALIGN: usize = 16;

/// Whether a plain mimalloc block of `layout.size()` bytes is aligned as `layout` asks.
#[inline]
fn plain_fits(align: usize, size: usize) -> bool {
    align <= PLAIN_ALIGN && align <= size
}

/// mimalloc, called as the C allocator where the alignment allows (see the module's notes).
pub struct MiMalloc;

// SAFETY: every pointer comes from mimalloc and is freed by `mi_free`, which takes blocks from
// both its plain and its aligned calls; a layout's alignment is honoured by `plain_fits` or by the
// aligned calls.
unsafe impl GlobalAlloc for MiMalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let (size, align) = (layout.size(), layout.align());
        // SAFETY: plain C allocation calls, with a power-of-two alignment from `Layout`.
        unsafe {
            if plain_fits(align, size) {
                mi::mi_malloc(size) as *mut u8
            } else {
                mi::mi_malloc_aligned(size, align) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let (size, align) = (layout.size(), layout.align());
        // SAFETY: as in `alloc`.
        unsafe {
            if plain_fits(align, size) {
                mi::mi_zalloc(size) as *mut u8
            } else {
                mi::mi_zalloc_aligned(size, align) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` was allocated by this allocator (the caller's contract).
        unsafe { mi::mi_free(ptr as *mut c_void) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let align = layout.align();
        // SAFETY: `ptr` was allocated by this allocator with `layout` (the caller's contract); the
        // new block keeps the alignment, by `plain_fits` on the new size or by the aligned call.
        unsafe {
            if plain_fits(align, new_size) {
                mi::mi_realloc(ptr as *mut c_void, new_size) as *mut u8
            } else {
                mi::mi_realloc_aligned(ptr as *mut c_void, new_size, align) as *mut u8
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every layout a Rust program asks for gets a block with its alignment, whose bytes can all
    /// be written, that grows and shrinks with its contents kept, and that frees.
    #[test]
    fn blocks_have_the_alignment_and_size_asked_for() {
        let a = MiMalloc;
        for align in [1usize, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [
                1usize,
                3,
                7,
                8,
                15,
                16,
                24,
                40,
                48,
                100,
                400,
                1000,
                5000,
                70_000,
                1 << 21,
            ] {
                let layout = Layout::from_size_align(size, align).unwrap();
                for zeroed in [false, true] {
                    // SAFETY: non-zero sizes; each block is freed with its layout.
                    unsafe {
                        let p = if zeroed {
                            a.alloc_zeroed(layout)
                        } else {
                            a.alloc(layout)
                        };
                        assert!(!p.is_null(), "size {size} align {align}");
                        assert_eq!(p as usize % align, 0, "size {size} align {align}");
                        if zeroed {
                            let bytes = std::slice::from_raw_parts(p, size);
                            assert!(bytes.iter().all(|&b| b == 0), "size {size} align {align}");
                        }
                        for i in 0..size {
                            *p.add(i) = i as u8;
                        }
                        // Grown, then shrunk: the contents kept, the alignment too.
                        let grown = size * 3 + 1;
                        let q = a.realloc(p, layout, grown);
                        assert!(!q.is_null());
                        assert_eq!(q as usize % align, 0, "grown {size} -> {grown}");
                        assert!((0..size).all(|i| *q.add(i) == i as u8), "grown {size}");
                        let shrunk = size.div_ceil(2);
                        let grown_layout = Layout::from_size_align(grown, align).unwrap();
                        let r = a.realloc(q, grown_layout, shrunk);
                        assert!(!r.is_null());
                        assert_eq!(r as usize % align, 0, "shrunk {grown} -> {shrunk}");
                        assert!((0..shrunk).all(|i| *r.add(i) == i as u8), "shrunk {size}");
                        a.dealloc(r, Layout::from_size_align(shrunk, align).unwrap());
                    }
                }
            }
        }
    }

    /// C code that calls `malloc` itself (the grammars' external scanners, libc) gets mimalloc's
    /// blocks: mimalloc is built to override it (Cargo.toml's `override` feature).
    #[test]
    fn the_c_malloc_is_mimalloc() {
        unsafe extern "C" {
            fn malloc(size: usize) -> *mut core::ffi::c_void;
            fn free(p: *mut core::ffi::c_void);
        }
        for size in [16usize, 1000, 100_000, 1 << 22] {
            // SAFETY: a non-zero size; the block is freed once, by the same allocator.
            unsafe {
                let p = malloc(size);
                assert!(!p.is_null());
                assert!(libmimalloc_sys::mi_is_in_heap_region(p), "{size}");
                free(p);
            }
        }
    }
}
