//! Keeps the server's resident memory close to what it really holds.
//!
//! glibc's allocator gives every thread that allocates its own arena (up to eight per core)
//! and, each time a large block is freed, raises its mmap threshold so that later large
//! blocks come from those arenas, where freed memory is rarely returned. The server
//! allocates on the async threads and on the blocking threads that analyse documents: after
//! opening a 10 MB map and 200 edits it kept about 15 MB more than it used (the benchmark in
//! `benches/lsp_latency.rs`). Two arenas and fixed thresholds send freed memory back to the
//! system; the cost is a little contention between threads, which the benchmark does not
//! show.

/// Sets the allocator up; called once, before the runtime starts any thread.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
pub fn tune_allocator() {
    // SAFETY: mallopt only changes allocator parameters and is called before any other
    // thread exists.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 2);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 128 * 1024);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn tune_allocator() {}

/// Work on a document this large gives its freed memory back right away.
pub const RELEASE_AFTER: usize = 1 << 20;

/// After work on a document of `len` bytes: when it is big, returns the free pages inside
/// the heap to the system (not only those at its end), where its parse left holes between
/// what is kept. Costs well under a millisecond.
pub fn release_after(len: usize) {
    if len >= RELEASE_AFTER {
        release_free_pages();
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
fn release_free_pages() {
    // SAFETY: malloc_trim only releases memory the allocator holds free.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn release_free_pages() {}
