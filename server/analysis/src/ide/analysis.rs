//! The one entry point of the editor features: [`Analysis`] over a document of either input
//! language (a map, or an UnrealScript class with its `#exec` lines), one method per feature,
//! each answering in one vocabulary. The front end (the language server) builds an
//! `Analysis` for a request and calls one method; it never chooses between the T3D and the
//! `#exec` features itself, and what differs between the languages (a T3D definition is in
//! the same file, an `#exec` one may be in another class of the package) is expressed in the
//! answer ([`FileLocation`], [`FileEdits`]), not in the call.
//!
//! A map is read through [`MapDocument`], which the incremental document
//! (`crate::document::T3dDocument`) implements: the features parse only the part they read
//! (the blocks under a cursor, or the whole map), and an outline or folding the document
//! keeps per segment is used as it is.

use std::path::PathBuf;

use unreal_syntax::t3d::{parse, Parse};
use unreal_syntax::Span;

use super::exec::{self as exec_ide, ExecSource};
use super::t3d::code_actions::Action;
use super::t3d::completion::CompletionItem;
use super::t3d::folding::FoldingRange;
use super::t3d::formatting::{FormatError, FormatOptions};
use super::t3d::hover::Hover;
use super::t3d::inlay_hints::InlayHint;
use super::t3d::navigation::RenameError;
use super::t3d::semantic_tokens::SemanticToken;
use super::t3d::symbols::{DocumentSymbol, WorkspaceSymbol};
use super::t3d::{self as t3d_ide, NoPackages, ObjectFacts, Source};
use crate::{EngineSetting, Generation, TextEdit};

pub use super::exec::navigation::{FileEdits, FileLocation, Occurrence};
pub use super::t3d::navigation::OccurrenceKind;

/// What the features read of a map: its text, the parts of its tree a request needs, parsed
/// then, and what the document keeps ready.
pub trait MapDocument {
    fn text(&self) -> &str;
    /// The whole tree, for features that read every block (references, rename, completion).
    fn parse_whole(&self) -> Parse;
    /// The blocks on the lines of `span` (inside their map), for features at a cursor or
    /// over a selection.
    fn parse_around(&self, span: Span) -> Parse;
    /// The generation `setting` fixes, or the one the map's markers show.
    fn generation(&self, setting: EngineSetting) -> Option<Generation>;
    /// The outline the document keeps, with polygons listed up to this many; `None` when it
    /// keeps none (the outline is then made from a parse).
    fn outline_kept(&self, _polygons_up_to: usize) -> Option<Vec<DocumentSymbol>> {
        None
    }
    /// The folding ranges the document keeps; `None` when it keeps none.
    fn folding_kept(&self) -> Option<Vec<FoldingRange>> {
        None
    }
    /// Whether reading the map stopped on too many `Begin`/`End` mismatches: its features
    /// then read no tree and answer nothing (its diagnostics say why).
    fn is_stopped(&self) -> bool {
        false
    }
}

/// A map given as text alone (a buffer, a test): every request parses what it reads.
#[derive(Clone, Copy, Debug)]
pub struct MapText<'a>(pub &'a str);

impl MapDocument for MapText<'_> {
    fn text(&self) -> &str {
        self.0
    }

    fn parse_whole(&self) -> Parse {
        parse(self.0)
    }

    fn parse_around(&self, _span: Span) -> Parse {
        parse(self.0)
    }

    fn generation(&self, setting: EngineSetting) -> Option<Generation> {
        setting.fixed().or_else(|| {
            let parse = parse(self.0);
            crate::t3d::generation::detect(self.0, &parse.file)
        })
    }
}

/// The part of a map's tree a feature reads.
#[derive(Clone, Copy)]
enum Part {
    Whole,
    /// The blocks on the lines of this span.
    Around(Span),
}

enum Input<'a> {
    Map { document: &'a dyn MapDocument, generation: Option<Generation> },
    Class(Box<ExecSource<'a>>),
}

/// A document and what its features need to answer: the entry point of every editor feature.
pub struct Analysis<'a> {
    input: Input<'a>,
    /// What the package index knows of objects (hover, completion, definition on a map).
    packages: &'a dyn ObjectFacts,
}

impl<'a> Analysis<'a> {
    /// A map, with the engine setting that applies to it and the objects of the game's
    /// packages.
    pub fn map(
        document: &'a dyn MapDocument,
        engine: EngineSetting,
        packages: &'a dyn ObjectFacts,
    ) -> Self {
        let generation = document.generation(engine);
        Self { input: Input::Map { document, generation }, packages }
    }

    /// An UnrealScript class: its `#exec` lines read and resolved in their package.
    pub fn class(source: ExecSource<'a>) -> Self {
        Self { input: Input::Class(Box::new(source)), packages: &NoPackages }
    }

    /// The document's text.
    pub fn text(&self) -> &str {
        match &self.input {
            Input::Map { document, .. } => document.text(),
            Input::Class(source) => source.text,
        }
    }

    /// Runs `f` over the map's source with the part of its tree `part` names; `None` for
    /// a class.
    fn with_map<T>(&self, part: Part, f: impl FnOnce(&Source<'_>) -> T) -> Option<T> {
        let Input::Map { document, generation } = &self.input else { return None };
        if document.is_stopped() {
            return None;
        }
        let tree = match part {
            Part::Whole => document.parse_whole(),
            Part::Around(span) => document.parse_around(span),
        };
        Some(f(&Source::new(document.text(), &tree, *generation)))
    }

    pub fn hover(&self, offset: u32) -> Option<Hover> {
        match &self.input {
            Input::Class(source) => exec_ide::hover::hover(source, offset),
            Input::Map { .. } => self
                .with_map(Part::Around(Span::empty_at(offset)), |src| {
                    t3d_ide::hover::hover(src, offset, self.packages)
                })
                .flatten(),
        }
    }

    pub fn completions(&self, offset: u32) -> Vec<CompletionItem> {
        match &self.input {
            Input::Class(source) => exec_ide::completion::completions(source, offset),
            Input::Map { .. } => self
                .with_map(Part::Whole, |src| {
                    t3d_ide::completion::completions(src, offset, self.packages)
                })
                .unwrap_or_default(),
        }
    }

    /// Where the thing at `offset` is defined: in a map, the package file holding a texture,
    /// class or object named there (an empty span at its start: the editor opens the
    /// package's view), else the `Begin` line of the actor or model named; in a class, the
    /// directives defining a name (several when the package defines it twice) or the file a
    /// path names.
    pub fn definition(&self, offset: u32) -> Vec<FileLocation> {
        match &self.input {
            Input::Class(source) => exec_ide::navigation::goto_definition(source, offset),
            Input::Map { .. } => {
                // A package object first: it needs only the line under the cursor.
                let package = self
                    .with_map(Part::Around(Span::empty_at(offset)), |src| {
                        t3d_ide::navigation::package_definition(src, offset, self.packages)
                    })
                    .flatten();
                if let Some(target) = package {
                    let file = Some(PathBuf::from(target.file));
                    return vec![FileLocation { file, span: Span::default() }];
                }
                self.with_map(Part::Whole, |src| t3d_ide::navigation::goto_definition(src, offset))
                    .flatten()
                    .map(|target| FileLocation { file: None, span: target.focus })
                    .into_iter()
                    .collect()
            }
        }
    }

    /// Every occurrence of the name at `offset`: in a map, in the map; in a class, in the
    /// class and the package's other classes.
    pub fn references(&self, offset: u32, include_declaration: bool) -> Vec<Occurrence> {
        match &self.input {
            Input::Class(source) => {
                exec_ide::navigation::find_references(source, offset, include_declaration)
            }
            Input::Map { .. } => self
                .with_map(Part::Whole, |src| {
                    t3d_ide::navigation::find_references(src, offset, include_declaration)
                })
                .unwrap_or_default()
                .into_iter()
                .map(|o| Occurrence {
                    location: FileLocation { file: None, span: o.span },
                    kind: o.kind,
                })
                .collect(),
        }
    }

    /// The span a rename at `offset` would replace, or why there is nothing to rename.
    pub fn prepare_rename(&self, offset: u32) -> Result<Span, RenameError> {
        match &self.input {
            Input::Class(source) => exec_ide::navigation::prepare_rename(source, offset),
            Input::Map { .. } => self
                .with_map(Part::Whole, |src| t3d_ide::navigation::prepare_rename(src, offset))
                .unwrap_or_else(|| Err(not_renamable())),
        }
    }

    /// The edits renaming the name at `offset`, file by file.
    pub fn rename(&self, offset: u32, new_name: &str) -> Result<Vec<FileEdits>, RenameError> {
        match &self.input {
            Input::Class(source) => exec_ide::navigation::rename(source, offset, new_name),
            Input::Map { .. } => self
                .with_map(Part::Whole, |src| t3d_ide::navigation::rename(src, offset, new_name))
                .unwrap_or_else(|| Err(not_renamable()))
                .map(|edits| vec![FileEdits { file: None, edits }]),
        }
    }

    /// The outline: a map's actors (what the document keeps, when it keeps one), a class's
    /// imported objects.
    pub fn document_symbols(&self, polygons_up_to: usize) -> Vec<DocumentSymbol> {
        match &self.input {
            Input::Class(source) => exec_ide::symbols::document_symbols(source),
            Input::Map { document, .. } => document
                .outline_kept(polygons_up_to)
                .or_else(|| self.with_map(Part::Whole, t3d_ide::symbols::document_symbols))
                .unwrap_or_default(),
        }
    }

    pub fn folding_ranges(&self) -> Vec<FoldingRange> {
        match &self.input {
            Input::Class(source) => exec_ide::folding::folding_ranges(source),
            Input::Map { document, .. } => document
                .folding_kept()
                .or_else(|| self.with_map(Part::Whole, t3d_ide::folding::folding_ranges))
                .unwrap_or_default(),
        }
    }

    /// Semantic tokens of the whole document, or of the lines of `range`.
    pub fn semantic_tokens(&self, range: Option<Span>) -> Vec<SemanticToken> {
        match &self.input {
            Input::Class(source) => exec_ide::semantic_tokens::semantic_tokens(source, range),
            Input::Map { .. } => self
                .with_map(range.map_or(Part::Whole, Part::Around), |src| {
                    t3d_ide::semantic_tokens::semantic_tokens(src, range)
                })
                .unwrap_or_default(),
        }
    }

    /// The actions offered over `range` beyond the fixes diagnostics carry: a map's polygon
    /// actions, a class's `#exec` ones (required keys added, backslashes in paths).
    pub fn code_actions(&self, range: Span) -> Vec<Action> {
        match &self.input {
            Input::Class(source) => exec_ide::code_actions::code_actions(source, range),
            Input::Map { .. } => self
                .with_map(Part::Around(range), |src| {
                    t3d_ide::code_actions::code_actions(src, range)
                })
                .unwrap_or_default(),
        }
    }

    /// Hints over `range`: a map's decoded poly flags and polygon vertex counts; `None` for
    /// a class (no hints are offered there).
    pub fn inlay_hints(&self, range: Span) -> Option<Vec<InlayHint>> {
        self.with_map(Part::Around(range), |src| t3d_ide::inlay_hints::inlay_hints(src, range))
    }

    /// For each offset, the spans that enclose it, innermost first; `None` for a class.
    pub fn selection_ranges(&self, offsets: &[u32]) -> Option<Vec<Vec<Span>>> {
        // The blocks from the first offset's line to the last one's.
        let lines = Span::new(
            offsets.iter().copied().min().unwrap_or(0),
            offsets.iter().copied().max().unwrap_or(0),
        );
        self.with_map(Part::Around(lines), |src| t3d_ide::selection::selection_ranges(src, offsets))
    }

    /// The edits formatting the whole map as UnrealEd writes it, read one top-level block at
    /// a time (never a tree of the whole map), each run of changed lines one edit (a 50 MB
    /// map formatted for the first time is one edit); `None` for a class.
    pub fn format(&self, options: FormatOptions) -> Option<Result<Vec<TextEdit>, FormatError>> {
        match &self.input {
            Input::Map { document, .. } => {
                Some(t3d_ide::formatting::format_document(document.text(), options))
            }
            Input::Class(_) => None,
        }
    }

    /// The edits formatting the lines of `range` as UnrealEd writes them; `None` for a
    /// class (only maps are formatted).
    pub fn format_range(
        &self,
        range: Span,
        options: FormatOptions,
    ) -> Option<Result<Vec<TextEdit>, FormatError>> {
        self.with_map(Part::Around(range), |src| {
            t3d_ide::formatting::format_range(src, range, options)
        })
    }

    /// The map's actors whose names match `query`; none for a class.
    pub fn workspace_symbols(&self, query: &str) -> Vec<WorkspaceSymbol> {
        self.with_map(Part::Whole, |src| t3d_ide::symbols::workspace_symbols(src, query))
            .unwrap_or_default()
    }
}

fn not_renamable() -> RenameError {
    RenameError { message: "nothing to rename here".to_owned() }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAP: &str = "Begin Map\r\nBegin Actor Class=Light Name=Light0\r\nEnd Actor\r\n\
                       Begin Actor Class=Trigger Name=Trigger0\r\n    Event=Light0\r\nEnd Actor\r\nEnd Map\r\n";

    fn at(text: &str, needle: &str) -> u32 {
        text.find(needle).map_or(0, |i| i as u32)
    }

    /// A map's answers are the T3D features' over the same source, in the façade's shapes:
    /// every location in the document itself.
    #[test]
    fn a_map_answers_in_its_own_file() {
        let map = MapText(MAP);
        let analysis = Analysis::map(&map, EngineSetting::default(), &NoPackages);
        let offset = at(MAP, "Light0");
        let references = analysis.references(offset + 1, true);
        assert!(!references.is_empty());
        assert!(references.iter().all(|o| o.location.file.is_none()));
        let rename = analysis.rename(offset + 1, "Lamp").unwrap_or_default();
        assert_eq!(rename.len(), 1);
        assert!(rename.iter().all(|f| f.file.is_none() && !f.edits.is_empty()));
        assert!(analysis.hover(offset + 1).is_some());
        assert!(!analysis.document_symbols(0).is_empty());
        assert!(analysis.inlay_hints(Span::new(0, MAP.len() as u32)).is_some());
        assert!(analysis
            .format_range(Span::new(0, MAP.len() as u32), FormatOptions::default())
            .is_some());
    }

    /// A class answers with its `#exec` features, and offers no map-only feature.
    #[test]
    fn a_class_answers_with_its_exec_features() {
        let text =
            "#exec TEXTURE IMPORT NAME=Wood FILE=Textures\\Wood.pcx\r\nclass A extends Actor;\r\n";
        let analysis = Analysis::class(ExecSource::new(text, None, None));
        assert!(analysis.hover(at(text, "IMPORT") + 1).is_some());
        assert!(!analysis.document_symbols(0).is_empty());
        assert!(analysis.inlay_hints(Span::new(0, 10)).is_none());
        assert_eq!(analysis.selection_ranges(&[3]), None);
        assert!(analysis.format_range(Span::new(0, 10), FormatOptions::default()).is_none());
        assert!(analysis.workspace_symbols("").is_empty());
    }
}
