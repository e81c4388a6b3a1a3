//! Which allocator serves the process: mimalloc for the command-line tools, glibc's for the
//! language server.
//!
//! A lint, diff or render of a map allocates and frees millions of small tree nodes on every
//! core; mimalloc does that faster than glibc (`unreal-ls lint` of a 10 MB map: about a fifth
//! less CPU in paired runs, the same peak memory). The language server stays on glibc's
//! allocator, whose settings `lsp/memory.rs` tunes so that an open map's memory goes back to
//! the system after each parse (its memory goals are measured so).
//!
//! The choice is made in `main` once the command line is read, before any other thread
//! exists; what was allocated before it (the arguments, the runtime's own) stays with glibc.
//! So every free and resize asks mimalloc whether it owns the block
//! (`mi_is_in_heap_region`: a look-up in its page map, no read of the block) and hands
//! it to whichever allocator made it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, Ordering};

use mimalloc::MiMalloc;

/// The process's allocator: glibc's until [`use_mimalloc`], mimalloc after.
pub struct Allocator;

static MIMALLOC: AtomicBool = AtomicBool::new(false);

/// `mi_option_arena_eager_commit` and `mi_option_purge_delay` in mimalloc.h's option list
/// (the Rust bindings name no constant for them).
const MI_OPTION_ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
// Their places among the options the bindings do name (the same in mimalloc v2 and v3, the
// version the bindings build): a version that moves them stops the build here instead of
// setting another option.
const _: () = assert!(
    libmimalloc_sys::mi_option_verbose + 2 == MI_OPTION_ARENA_EAGER_COMMIT
        && libmimalloc_sys::mi_option_large_os_pages - 2 == MI_OPTION_ARENA_EAGER_COMMIT
        && libmimalloc_sys::mi_option_use_numa_nodes - 1 == MI_OPTION_PURGE_DELAY
);

/// New allocations come from mimalloc from now on.
#[allow(unsafe_code)]
pub fn use_mimalloc() {
    // A command runs for seconds and reuses what it frees: giving free pages back to the
    // system every 10 ms (mimalloc's default) costs system time (up to 0.7 s of a 200 MB
    // lint in our runs) and leaves the peak where it is.
    // Committing its 1 GiB arena up front lets Linux back it with huge pages, zeroed 2 MB
    // at a time on first touch: on a busy machine that cost a 10 MB lint 4 to 90 ms of
    // system time and 17 MB more peak; pages committed as touched cost a steady 10 ms.
    // SAFETY: sets option values; called before any allocation comes from mimalloc.
    unsafe {
        libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1);
        libmimalloc_sys::mi_option_set(MI_OPTION_ARENA_EAGER_COMMIT, 0);
    }
    MIMALLOC.store(true, Ordering::Relaxed);
}

/// Whether mimalloc's plain `mi_malloc` already gives this alignment: every block is aligned
/// to 16 bytes (`MI_MAX_ALIGN_SIZE`), and a smaller block to its size's own power of two (as
/// for C's `malloc`). The aligned entry points the `mimalloc` crate calls for every
/// allocation take a generic path for blocks above mimalloc's small sizes (1.4% fewer
/// instructions for a lint of DM-Deck17 without them, counted by callgrind).
fn malloc_aligns(align: usize, size: usize) -> bool {
    align <= 16 && align <= size
}

#[allow(unsafe_code)]
fn owned_by_mimalloc(ptr: *mut u8) -> bool {
    // SAFETY: a look-up of the address in mimalloc's own page map (an address it never
    // mapped, or any address before it is set up, is simply not found); it reads no memory
    // that mimalloc does not own.
    unsafe { libmimalloc_sys::mi_is_in_heap_region(ptr.cast()) }
}

// SAFETY: every block is freed and resized by the allocator that made it (see the module
// comment); each call forwards the caller's guarantees unchanged.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if MIMALLOC.load(Ordering::Relaxed) {
            if malloc_aligns(layout.align(), layout.size()) {
                return unsafe { libmimalloc_sys::mi_malloc(layout.size()).cast() };
            }
            unsafe { MiMalloc.alloc(layout) }
        } else {
            unsafe { System.alloc(layout) }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if MIMALLOC.load(Ordering::Relaxed) {
            if malloc_aligns(layout.align(), layout.size()) {
                return unsafe { libmimalloc_sys::mi_zalloc(layout.size()).cast() };
            }
            unsafe { MiMalloc.alloc_zeroed(layout) }
        } else {
            unsafe { System.alloc_zeroed(layout) }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if owned_by_mimalloc(ptr) {
            unsafe { MiMalloc.dealloc(ptr, layout) }
        } else {
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if owned_by_mimalloc(ptr) {
            if malloc_aligns(layout.align(), new_size) {
                return unsafe { libmimalloc_sys::mi_realloc(ptr.cast(), new_size).cast() };
            }
            unsafe { MiMalloc.realloc(ptr, layout, new_size) }
        } else {
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }
}
