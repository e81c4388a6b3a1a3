//! Document symbols of a `.uc` file: one per directive line, named by its command and the
//! name it defines or uses (`MESH IMPORT Skull`, `MESHMAP SETTEXTURE Skull`).

use super::{line_name_uses, ExecSource};
use crate::ide::t3d::symbols::{DocumentSymbol, SymbolKind};

/// The outline: every directive, in source order, without children.
pub fn document_symbols(src: &ExecSource<'_>) -> Vec<DocumentSymbol> {
    let mut out = Vec::with_capacity(src.file.lines.len());
    for line in &src.file.lines {
        let directive = line.directive;
        let mut uses = Vec::new();
        line_name_uses(src.text, &src.file, line, &mut uses);
        let main = uses.iter().find(|u| u.defines).or_else(|| uses.first());
        let words = if line.command.is_some() {
            line.words_span().text(src.text).to_owned()
        } else {
            let body = directive.body_span.text(src.text).trim();
            if body.is_empty() {
                directive.hash_span.text(src.text).to_owned()
            } else {
                format!("{} {body}", directive.hash_span.text(src.text))
            }
        };
        let name = match main {
            Some(u) => format!("{words} {}", u.name),
            None => words,
        };
        let detail = main.map(|u| match (&u.owner, u.defines) {
            (Some(owner), _) => format!("{} of {owner}", u.kind.name()),
            (None, true) => format!("defines {}", u.kind.name()),
            (None, false) => format!("uses {}", u.kind.name()),
        });
        let selection_span = match main {
            Some(u) => u.span,
            None if line.command.is_some() => line.words_span(),
            None => directive.hash_span,
        };
        out.push(DocumentSymbol {
            name,
            detail,
            kind: SymbolKind::Directive,
            span: directive.span,
            selection_span,
            children: Vec::new(),
        });
    }
    out
}
