//! The workspace's `#exec` lint sessions: what the `.uc` checks read from disk (folder
//! listings, the other classes' symbols, binary file facts), each read once and kept until
//! `workspace/didChangeWatchedFiles` says files changed. Owned by the [`Workspace`], so two
//! servers in one process (the in-process tests) share nothing.
//!
//! [`Workspace`]: super::workspace::Workspace

use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use unreal_analysis::lint::{LintOptions, LintSession};

/// One session per set of options (a settings change that switches the engine, or a new
/// package index, makes a new one).
#[derive(Default)]
pub struct LintSessions {
    sessions: Mutex<Vec<(SessionKey, Arc<LintSession>)>>,
}

/// Everything in the options a session's caches depend on; the package index by identity
/// (a rebuilt index is a new one; the session holds its index, so the address cannot be
/// reused while the session is kept).
#[derive(Clone, Debug, PartialEq)]
struct SessionKey {
    engine: unreal_analysis::EngineSetting,
    engine_build: Option<u32>,
    game_dir: Option<PathBuf>,
    package_paths: Vec<PathBuf>,
    packages: Option<usize>,
}

impl SessionKey {
    fn of(options: &LintOptions) -> Self {
        Self {
            engine: options.engine,
            engine_build: options.engine_build,
            game_dir: options.game_dir.clone(),
            package_paths: options.package_paths.clone(),
            packages: options.packages.as_ref().map(|p| Arc::as_ptr(p) as usize),
        }
    }
}

impl LintSessions {
    /// The session for `options`, made on first use.
    pub fn get(&self, options: &LintOptions) -> Arc<LintSession> {
        let key = SessionKey::of(options);
        let mut sessions = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((_, session)) = sessions.iter().find(|(k, _)| *k == key) {
            return Arc::clone(session);
        }
        // Sessions of older indexes are not asked for again: keep the list short.
        sessions.retain(|(k, _)| k.packages == key.packages || k.packages.is_none());
        let session = Arc::new(LintSession::new(options));
        sessions.push((key, Arc::clone(&session)));
        session
    }

    /// Forgets everything read from disk: files were created, changed or deleted.
    pub fn clear(&self) {
        self.sessions.lock().unwrap_or_else(PoisonError::into_inner).clear();
    }
}
