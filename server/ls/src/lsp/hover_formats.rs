//! What the client renders in hovers, negotiated at `initialize` and kept in the session:
//! the hover feature writes Markdown, pictures included, or plain text accordingly.

use tower_lsp_server::ls_types::MarkupKind;

/// What the client said it renders in hovers (`textDocument.hover.contentFormat`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HoverFormats {
    /// Markdown; `images` when the client named it (a client that names no format gets
    /// Markdown, as before, but no pictures it did not ask for).
    Markdown {
        images: bool,
    },
    PlainText,
}

impl Default for HoverFormats {
    fn default() -> Self {
        Self::Markdown { images: false }
    }
}

impl HoverFormats {
    pub fn negotiate(formats: Option<&[MarkupKind]>) -> Self {
        match formats {
            None | Some([]) => Self::default(),
            Some(list) if list.contains(&MarkupKind::Markdown) => Self::Markdown { images: true },
            Some(_) => Self::PlainText,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{HoverFormats, MarkupKind};

    #[test]
    fn formats_follow_the_client() {
        assert_eq!(HoverFormats::negotiate(None), HoverFormats::Markdown { images: false });
        let both = [MarkupKind::PlainText, MarkupKind::Markdown];
        assert_eq!(HoverFormats::negotiate(Some(&both)), HoverFormats::Markdown { images: true });
        let plain = [MarkupKind::PlainText];
        assert_eq!(HoverFormats::negotiate(Some(&plain)), HoverFormats::PlainText);
    }
}
