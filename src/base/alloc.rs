//! The allocator of the `fuda` binary and the engine bench: mimalloc, reached through its
//! plain entry points whenever they give the alignment asked for.
//!
//! Games allocate small values at a high rate (about ten thousand allocations a PMV game).
//! The `mimalloc` crate's allocator asks for every allocation through `mi_malloc_aligned`,
//! which checks the alignment before it takes the same free list `mi_malloc` takes; nearly
//! every Rust allocation asks for no more than a word's alignment, which every mimalloc block
//! has (block sizes are whole words). Those take `mi_malloc` and `mi_realloc` directly; a
//! larger alignment goes through the crate as before.

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// The alignment every mimalloc block has: a word (block sizes are whole words).
const WORD: usize = std::mem::size_of::<usize>();

/// mimalloc, through `mi_malloc` for alignments of a word or less (see the module doc).
#[derive(Debug, Clone, Copy, Default)]
pub struct Allocator;

// SAFETY: each method hands its request to mimalloc: through `mi_malloc` / `mi_zalloc` /
// `mi_realloc` only when the layout asks for no more than a word's alignment, which every block
// they give has; otherwise through `mimalloc::MiMalloc`, which asks for the alignment itself.
// `mi_free` frees a block from either path (mimalloc finds the block's page from its address).
unsafe impl GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= WORD {
            // SAFETY: mi_malloc takes any size; the block is word-aligned
            unsafe { libmimalloc_sys::mi_malloc(layout.size()).cast() }
        } else {
            // SAFETY: the caller's layout contract is passed on unchanged
            unsafe { mimalloc::MiMalloc.alloc(layout) }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= WORD {
            // SAFETY: as `alloc`, zeroed
            unsafe { libmimalloc_sys::mi_zalloc(layout.size()).cast() }
        } else {
            // SAFETY: the caller's layout contract is passed on unchanged
            unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` came from this allocator, so from mimalloc
        unsafe { libmimalloc_sys::mi_free(ptr.cast::<c_void>()) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if layout.align() <= WORD {
            // SAFETY: `ptr` came from this allocator; the new block is word-aligned
            unsafe { libmimalloc_sys::mi_realloc(ptr.cast::<c_void>(), new_size).cast() }
        } else {
            // SAFETY: the caller's contract is passed on unchanged
            unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_have_the_alignment_asked_and_keep_their_bytes() {
        let a = Allocator;
        for align in [1, 2, 4, 8, 16, 64, 4096] {
            for size in [0, 1, 7, 8, 9, 24, 100, 5000, 1 << 20] {
                let Ok(layout) = Layout::from_size_align(size.max(1), align) else {
                    continue;
                };
                // SAFETY: a non-zero size; the block is freed with its layout below
                unsafe {
                    let p = a.alloc(layout);
                    assert!(!p.is_null());
                    assert_eq!(p as usize % align, 0, "size {size}, align {align}");
                    p.write_bytes(0xAB, layout.size());
                    let grown = a.realloc(p, layout, layout.size() * 2);
                    assert!(!grown.is_null());
                    assert_eq!(
                        grown as usize % align,
                        0,
                        "grown: size {size}, align {align}"
                    );
                    assert_eq!(*grown.add(layout.size() - 1), 0xAB);
                    a.dealloc(
                        grown,
                        Layout::from_size_align_unchecked(layout.size() * 2, align),
                    );
                    let z = a.alloc_zeroed(layout);
                    assert!(!z.is_null());
                    assert_eq!(z as usize % align, 0, "zeroed: size {size}, align {align}");
                    assert_eq!(*z.add(layout.size() - 1), 0);
                    a.dealloc(z, layout);
                }
            }
        }
    }
}
