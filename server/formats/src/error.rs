//! The one error type of every reader: which structure, at which byte, what was expected.

use std::fmt;

/// A reader's refusal of its input. It names the structure being read (`"package header"`,
/// `"export table entry 12"`), the absolute byte offset where reading failed, and what was
/// expected there (and, where it helps, what was found).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub structure: String,
    pub offset: usize,
    pub expected: String,
}

impl Error {
    pub fn new(structure: impl Into<String>, offset: usize, expected: impl Into<String>) -> Self {
        Self { structure: structure.into(), offset, expected: expected.into() }
    }

    /// The same error seen from an enclosing structure (`"Texture Skins.Wood: mip 2"`).
    #[must_use]
    pub fn within(mut self, outer: impl fmt::Display) -> Self {
        self.structure = format!("{outer}: {}", self.structure);
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}: expected {}", self.structure, self.offset, self.expected)
    }
}

impl std::error::Error for Error {}

pub type Result<T, E = Error> = std::result::Result<T, E>;
