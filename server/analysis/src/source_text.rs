//! The text of one file as the checks read it: an owned string (decoded bytes, an editor's
//! document), or the file's own pages mapped read-only when `unreal-ls lint` reads UTF-8
//! that needs no decoding (no copy: see [`MappedText`]).

use std::ops::Deref;
use std::sync::Arc;

use unreal_formats::mapped::MappedText;

/// Mapped when `mapped` is set (then `owned` is empty), owned otherwise.
#[derive(Clone, Debug, Default)]
pub struct SourceText {
    owned: String,
    /// Shared by clones; [`SourceText::to_mut`] copies it when an edit comes.
    mapped: Option<Arc<MappedText>>,
}

impl SourceText {
    pub fn as_str(&self) -> &str {
        match &self.mapped {
            Some(map) => map.as_str(),
            None => &self.owned,
        }
    }

    /// An error when the mapped file changed while it was read (its findings are not the
    /// file's); an owned text is what it is.
    pub fn check(&self) -> std::io::Result<()> {
        self.mapped.as_ref().map_or(Ok(()), |map| map.check())
    }

    /// Whether the mapped file was found truncated while it was read (cheap: no system
    /// call): the work on the text can stop, [`Self::check`] will report it.
    pub fn is_damaged(&self) -> bool {
        self.mapped.as_ref().is_some_and(|map| map.faulted())
    }

    /// The text to edit in place: a mapped text is copied into a string first (once).
    pub fn to_mut(&mut self) -> &mut String {
        if let Some(map) = self.mapped.take() {
            map.as_str().clone_into(&mut self.owned);
        }
        &mut self.owned
    }

    /// The text as a string (a mapped text is copied).
    pub fn into_string(mut self) -> String {
        std::mem::take(self.to_mut())
    }
}

impl Deref for SourceText {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl From<String> for SourceText {
    fn from(owned: String) -> Self {
        Self { owned, mapped: None }
    }
}

impl From<MappedText> for SourceText {
    fn from(map: MappedText) -> Self {
        Self { owned: String::new(), mapped: Some(Arc::new(map)) }
    }
}
