//! Go to definition, find references and rename for the names a map gives its objects:
//! actors (`Begin Actor ... Name=Light3`, referred to as `Light'MyLevel.Light3'`) and brush
//! models (`Begin Brush Name=Model5`, referred to as `Brush=Model'MyLevel.Model5'`).

use unreal_syntax::t3d::{Block, BlockKind, Item};
use unreal_syntax::Span;

use super::{ObjectFacts, PackageObject, Source, TextEdit};
use crate::t3d::walk;

/// Actors and models are separate namespaces: an actor `Brush0` and its model `Brush0`
/// are two objects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Namespace {
    Actor,
    Model,
}

/// A named object of the map.
#[derive(Clone, Debug, PartialEq)]
pub struct Definition {
    pub namespace: Namespace,
    pub name: String,
    pub kind: BlockKind,
    /// The whole block.
    pub span: Span,
    /// The `Name=` attribute value on the `Begin` line.
    pub name_span: Span,
    /// The text inside the quotes of a `Name="..."` property of the same block (actors
    /// repeat their name there), which rename must change too.
    pub name_property: Option<Span>,
}

/// A use of a name: the name part of `Class'MyLevel.Name'`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameRef {
    pub namespace: Namespace,
    /// The name inside the path (after `MyLevel.`).
    pub span: Span,
    /// The whole `Class'MyLevel.Name'`.
    pub full: Span,
}

/// Where a definition lives (for an editor's location link).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NavTarget {
    /// The whole block.
    pub span: Span,
    /// The name on its `Begin` line.
    pub focus: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OccurrenceKind {
    Definition,
    Reference,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Occurrence {
    pub span: Span,
    pub kind: OccurrenceKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenameError {
    pub message: String,
}

/// The symbol the cursor is on: which namespace and name, and the span of the name there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymbolAt {
    pub namespace: Namespace,
    pub name: String,
    pub span: Span,
}

fn namespace_of_block(src: &Source<'_>, block: &Block) -> Option<Namespace> {
    match block.kind {
        BlockKind::Actor => Some(Namespace::Actor),
        BlockKind::Brush => Some(Namespace::Model),
        BlockKind::Object => Some(
            if block
                .attribute_value(src.text, "Class")
                .is_some_and(|c| c.eq_ignore_ascii_case("Model"))
            {
                Namespace::Model
            } else {
                Namespace::Actor
            },
        ),
        _ => None,
    }
}

fn namespace_of_class(class: &str) -> Namespace {
    if class.eq_ignore_ascii_case("Model") {
        Namespace::Model
    } else {
        Namespace::Actor
    }
}

/// The name part of a level-local path (`MyLevel.Name`), or `None` for package paths.
fn level_name(src: &Source<'_>, path: Span) -> Option<Span> {
    let text = src.slice(path);
    let (package, name) = text.split_once('.')?;
    if !package.eq_ignore_ascii_case("MyLevel") || name.is_empty() || name.contains('.') {
        return None;
    }
    let start = path.start + package.len() as u32 + 1;
    Some(Span::new(start, path.end))
}

/// The `Name="..."` property of a block (a direct child), inside the quotes.
fn name_property(src: &Source<'_>, block: &Block) -> Option<Span> {
    let property = block.properties().find(|p| src.slice(p.key).eq_ignore_ascii_case("Name"))?;
    let span = property.value.span();
    let text = src.slice(span);
    if text.len() >= 2 && text.starts_with('"') && text.ends_with('"') {
        Some(Span::new(span.start + 1, span.end - 1))
    } else {
        (!text.is_empty()).then_some(span)
    }
}

fn definition_of(src: &Source<'_>, block: &Block) -> Option<Definition> {
    let namespace = namespace_of_block(src, block)?;
    let (attribute, name) = block.attribute(src.text, "Name")?;
    if name.is_empty() {
        return None;
    }
    Some(Definition {
        namespace,
        name: name.to_owned(),
        kind: block.kind,
        span: block.span,
        name_span: attribute.value,
        name_property: name_property(src, block)
            .filter(|s| src.slice(*s).eq_ignore_ascii_case(name)),
    })
}

/// Every named actor and model of the document, in source order.
pub fn definitions(src: &Source<'_>) -> Vec<Definition> {
    walk::blocks(src.file).into_iter().filter_map(|(b, _)| definition_of(src, b)).collect()
}

/// Every reference to a level object (`Class'MyLevel.Name'`), in source order.
pub fn references(src: &Source<'_>) -> Vec<NameRef> {
    let mut out = Vec::new();
    let mut stack: Vec<&[Item]> = vec![&src.file.items];
    while let Some(items) = stack.pop() {
        for item in items {
            match item {
                Item::Block(block) => stack.push(&block.children),
                Item::Property(property) => {
                    crate::t3d::walk::for_each_object_ref(
                        &property.value,
                        &mut |full, class, path| {
                            if let Some(span) = level_name(src, path) {
                                out.push(NameRef {
                                    namespace: namespace_of_class(src.slice(class)),
                                    span,
                                    full,
                                });
                            }
                        },
                    );
                }
                _ => {}
            }
        }
    }
    out.sort_by_key(|r| r.span.start);
    out
}

/// The name under the cursor: a `Name=` on a `Begin` line, a `Name="..."` property, or the
/// name part of a level object reference.
pub fn symbol_at(src: &Source<'_>, offset: u32) -> Option<SymbolAt> {
    let path = src.path_at(offset);
    match path.item? {
        Item::Block(block) => {
            let (attribute, name) = block.attribute(src.text, "Name")?;
            if !attribute.value.touches(offset) || name.is_empty() {
                return None;
            }
            let namespace = namespace_of_block(src, block)?;
            Some(SymbolAt { namespace, name: name.to_owned(), span: attribute.value })
        }
        Item::Property(property) => {
            let mut found = None;
            crate::t3d::walk::for_each_object_ref(&property.value, &mut |_, class, path| {
                if found.is_none() && path.touches(offset) {
                    if let Some(span) = level_name(src, path) {
                        found = Some(SymbolAt {
                            namespace: namespace_of_class(src.slice(class)),
                            name: src.slice(span).to_owned(),
                            span,
                        });
                    }
                }
            });
            if found.is_some() {
                return found;
            }
            // `Name="Light3"` inside the actor names the actor itself.
            let block = path.container()?;
            let inner = name_property(src, block)?;
            if !src.slice(property.key).eq_ignore_ascii_case("Name") || !inner.touches(offset) {
                return None;
            }
            let def = definition_of(src, block)?;
            (def.name_property == Some(inner)).then_some(SymbolAt {
                namespace: def.namespace,
                name: def.name,
                span: inner,
            })
        }
        _ => None,
    }
}

/// The definition of the name under the cursor.
pub fn goto_definition(src: &Source<'_>, offset: u32) -> Option<NavTarget> {
    let symbol = symbol_at(src, offset)?;
    definitions(src)
        .into_iter()
        .find(|d| d.namespace == symbol.namespace && d.name.eq_ignore_ascii_case(&symbol.name))
        .map(|d| NavTarget { span: d.span, focus: d.name_span })
}

/// Where an object of a package is defined: the package file the index read it from.
#[derive(Clone, Debug, PartialEq)]
pub struct PackageTarget {
    /// The reference under the cursor.
    pub span: Span,
    /// The package file.
    pub file: String,
    pub object: PackageObject,
}

/// The package file that holds the texture, class or object named at `offset` (a
/// `Texture=`, `Class=` or `Class'Package.Group.Name'`), when the package index knows it.
pub fn package_definition(
    src: &Source<'_>,
    offset: u32,
    packages: &dyn ObjectFacts,
) -> Option<PackageTarget> {
    let reference = super::package_ref_at(src, offset)?;
    let object = packages.object(Some(reference.class), reference.path)?;
    let file = object.file.clone()?;
    Some(PackageTarget { span: reference.span, file, object })
}

/// Every occurrence of the name under the cursor, in source order.
pub fn find_references(
    src: &Source<'_>,
    offset: u32,
    include_declaration: bool,
) -> Vec<Occurrence> {
    let Some(symbol) = symbol_at(src, offset) else { return Vec::new() };
    occurrences(src, symbol.namespace, &symbol.name, include_declaration)
}

fn occurrences(
    src: &Source<'_>,
    namespace: Namespace,
    name: &str,
    include_declaration: bool,
) -> Vec<Occurrence> {
    let mut out = Vec::new();
    if include_declaration {
        for d in definitions(src) {
            if d.namespace == namespace && d.name.eq_ignore_ascii_case(name) {
                out.push(Occurrence { span: d.name_span, kind: OccurrenceKind::Definition });
                if let Some(span) = d.name_property {
                    out.push(Occurrence { span, kind: OccurrenceKind::Definition });
                }
            }
        }
    }
    for r in references(src) {
        if r.namespace == namespace && src.slice(r.span).eq_ignore_ascii_case(name) {
            out.push(Occurrence { span: r.span, kind: OccurrenceKind::Reference });
        }
    }
    out.sort_by_key(|o| o.span.start);
    out.dedup();
    out
}

/// The span rename would replace at the cursor, or why there is nothing to rename there.
pub fn prepare_rename(src: &Source<'_>, offset: u32) -> Result<Span, RenameError> {
    symbol_at(src, offset).map(|s| s.span).ok_or_else(|| RenameError {
        message: "nothing to rename here: place the cursor on an actor or brush name".to_owned(),
    })
}

/// Renames the name under the cursor: the `Name=` on its `Begin` line, its `Name="..."`
/// property and every `Class'MyLevel.Name'` that refers to it.
pub fn rename(src: &Source<'_>, offset: u32, new_name: &str) -> Result<Vec<TextEdit>, RenameError> {
    let symbol = symbol_at(src, offset).ok_or_else(|| RenameError {
        message: "nothing to rename here: place the cursor on an actor or brush name".to_owned(),
    })?;
    validate_name(new_name)?;
    let taken = definitions(src).into_iter().find(|d| {
        d.namespace == symbol.namespace
            && d.name.eq_ignore_ascii_case(new_name)
            && !d.name.eq_ignore_ascii_case(&symbol.name)
    });
    if let Some(taken) = taken {
        return Err(RenameError {
            message: format!(
                "`{new_name}` is already the name of another {} in this map",
                if taken.namespace == Namespace::Model { "brush model" } else { "actor" }
            ),
        });
    }
    Ok(occurrences(src, symbol.namespace, &symbol.name, true)
        .into_iter()
        .map(|o| TextEdit { span: o.span, new_text: new_name.to_owned() })
        .collect())
}

/// Object names are identifiers: letters, digits and `_`, not starting with a digit.
pub fn validate_name(name: &str) -> Result<(), RenameError> {
    let valid = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if valid {
        Ok(())
    } else {
        Err(RenameError {
            message: format!(
                "`{name}` is not a valid object name: use letters, digits and `_`, starting with a letter or `_`"
            ),
        })
    }
}
