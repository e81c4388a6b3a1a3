//! Where a class refers to objects by name outside the directives that define them: object
//! literals in code and default properties (`Texture'Pkg.Group.Skin'`), name literals
//! (`PlayAnim('Landed')`), strings that spell an object path (`DynamicLoadObject("Pkg.Boom",
//! ...)`), bare names in default properties (`MultiSkins(1)=BM_A01`), and the object keys of
//! directives (`SETTEXTURE TEXTURE=BM_A01`, collected with the directives in `exec/mod.rs`).
//!
//! The rules read them as evidence that a name matters: a name the engine drops (a `NAME=`
//! written twice keeps only the first) loses nothing when nothing refers to it, and a texture
//! on a slot no triangle uses still shows when the class's `Skin`/`MultiSkins` draws it.
//! Comments are skipped; `defaultproperties` is read as the class importer cuts it out (the
//! line whose first word is the keyword, up to the first line that begins with `}`).

use unreal_syntax::Span;

/// One place that names an object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    /// The object path as written, without quotes (`Pkg.Group.Name`, or just `Name`).
    pub path: String,
    /// The span of `path`.
    pub span: Span,
    pub how: ReferenceKind,
    /// In default properties: the property the value is given to (`MultiSkins`, index
    /// dropped), or for a value inside a struct, the struct member's name.
    pub property: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReferenceKind {
    /// `Class'Path'`, with the class as written; `None` for a bare name literal `'Name'`.
    Literal { class: Option<String> },
    /// `"Pkg.Name"`: a string spelling an object path.
    String,
    /// A bare name given to a default property (`Skin=BM_A01`).
    Bare,
    /// An object key of a directive (`TEXTURE=`, `DETAIL=`, ...).
    Directive { key: &'static str },
}

impl Reference {
    /// The object's own name: the last part of the path.
    pub fn name(&self) -> &str {
        self.path.rsplit('.').next().unwrap_or(&self.path)
    }

    /// The parts before the name (package and groups).
    pub fn outers(&self) -> impl Iterator<Item = &str> {
        let mut parts: Vec<&str> = self.path.split('.').collect();
        parts.pop();
        parts.into_iter()
    }

    /// Where it stands, for a label: `Texture'X'`, `MultiSkins=X`, `"X"`, `TEXTURE=X`.
    pub fn describe(&self) -> String {
        let shown = match &self.how {
            ReferenceKind::Literal { class: Some(class) } => format!("{class}'{}'", self.path),
            ReferenceKind::Literal { class: None } => format!("'{}'", self.path),
            ReferenceKind::String => format!("\"{}\"", self.path),
            ReferenceKind::Bare => self.path.clone(),
            ReferenceKind::Directive { key } => return format!("{key}={}", self.path),
        };
        match &self.property {
            Some(property) => format!("{property}={shown}"),
            None => shown,
        }
    }

    /// True when it names `name` (case-insensitive), as the object itself.
    pub fn names(&self, name: &str) -> bool {
        self.name().eq_ignore_ascii_case(name)
    }
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// An object path: identifier parts joined by dots, nothing else.
fn is_object_path(text: &str) -> bool {
    !text.is_empty() && text.split('.').all(|p| !p.is_empty() && p.bytes().all(is_ident))
}

/// Every reference in `text` outside directive lines (the caller adds those). Never panics.
pub fn collect(text: &str) -> Vec<Reference> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    // The cheap case: no literal, no string and no default properties.
    if !bytes.iter().any(|&b| b == b'\'' || b == b'"')
        && !text.to_ascii_lowercase().contains("defaultproperties")
    {
        return out;
    }
    let mut i = 0;
    let len = bytes.len();
    // Inside default properties: (end of the block).
    let mut defaults_end: Option<usize> = None;
    let mut line_start = 0;
    while i < len {
        if defaults_end.is_some_and(|end| i >= end) {
            defaults_end = None;
        }
        let b = bytes[i];
        match b {
            b'\n' => {
                i += 1;
                line_start = i;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => i = line_end(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'*') => i = block_comment_end(bytes, i),
            b'#' if defaults_end.is_none() => i = line_end(bytes, i),
            b'"' | b'\'' => {
                let end = literal_end(bytes, i + 1, b);
                let content = text.get(i + 1..end).unwrap_or_default();
                let property = defaults_end.and_then(|_| property_before(text, line_start, i));
                if is_object_path(content) {
                    let how = if b == b'"' {
                        ReferenceKind::String
                    } else {
                        let class_start = bytes[..i]
                            .iter()
                            .rposition(|&c| !is_ident(c))
                            .map_or(0, |p| p + 1)
                            .max(line_start);
                        let class = text.get(class_start..i).filter(|c| !c.is_empty());
                        ReferenceKind::Literal { class: class.map(str::to_owned) }
                    };
                    out.push(Reference {
                        path: content.to_owned(),
                        span: Span::from_range(i + 1..end),
                        how,
                        property,
                    });
                }
                i = (end + 1).min(len).max(i + 1);
            }
            b'=' if defaults_end.is_some() => {
                // A bare value: `Key=Name` or `Key=Pkg.Name` up to a delimiter.
                let start = i + 1;
                let mut end = start;
                while end < len && (is_ident(bytes[end]) || bytes[end] == b'.') {
                    end += 1;
                }
                let value = text.get(start..end).unwrap_or_default();
                let next = bytes.get(end).copied();
                let bare = is_object_path(value)
                    && !value.bytes().next().is_some_and(|c| c.is_ascii_digit())
                    && !matches!(next, Some(b'\'' | b'"'))
                    && !["true", "false", "none"].iter().any(|w| w.eq_ignore_ascii_case(value));
                if bare {
                    out.push(Reference {
                        path: value.to_owned(),
                        span: Span::from_range(start..end),
                        how: ReferenceKind::Bare,
                        property: property_before(text, line_start, start),
                    });
                }
                i = end.max(i + 1);
            }
            _ if is_ident(b) => {
                let end = i + bytes[i..].iter().position(|&c| !is_ident(c)).unwrap_or(len - i);
                let word = &bytes[i..end];
                let first_on_line = bytes[line_start..i].iter().all(|&c| c == b' ' || c == b'\t');
                if defaults_end.is_none()
                    && first_on_line
                    && word.eq_ignore_ascii_case(b"defaultproperties")
                {
                    defaults_end = Some(defaults_block_end(bytes, end));
                    // The rest of the keyword's line is dropped by the importer.
                    i = line_end(bytes, end);
                } else {
                    i = end;
                }
            }
            _ => i += 1,
        }
    }
    out
}

/// The property a value at `at` is given to: the identifier before the nearest `=` before it
/// on its line, an index `(n)` or `[n]` dropped.
fn property_before(text: &str, line_start: usize, at: usize) -> Option<String> {
    let before = text.get(line_start..at)?;
    let eq = before.rfind('=')?;
    let key = before[..eq].trim_end();
    let key = match key.strip_suffix(')').or_else(|| key.strip_suffix(']')) {
        Some(indexed) => indexed.rfind(['(', '[']).map_or(indexed, |open| &indexed[..open]),
        None => key,
    };
    // The identifier at the end of `key`: after its last character that is not one (which may
    // be several bytes long).
    let start = key
        .char_indices()
        .rev()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |(at, c)| at + c.len_utf8());
    let name = key.get(start..)?;
    (!name.is_empty()).then(|| name.to_owned())
}

fn line_end(bytes: &[u8], from: usize) -> usize {
    bytes.get(from..).and_then(|rest| memchr::memchr(b'\n', rest)).map_or(bytes.len(), |p| p + from)
}

/// The end of a string or name literal opened before `from`: the closing quote's index, or
/// the line end (literals do not span lines).
fn literal_end(bytes: &[u8], from: usize, quote: u8) -> usize {
    let mut i = from;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' => i += 2,
            b'\n' => return i,
            _ if b == quote => return i,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// The end of a (nested) block comment opened at `open`.
fn block_comment_end(bytes: &[u8], open: usize) -> usize {
    let mut depth = 0usize;
    let mut i = open;
    while i + 1 < bytes.len() {
        match (bytes[i], bytes[i + 1]) {
            (b'/', b'*') => {
                depth += 1;
                i += 2;
            }
            (b'*', b'/') => {
                depth = depth.saturating_sub(1);
                i += 2;
                if depth == 0 {
                    return i;
                }
            }
            _ => i += 1,
        }
    }
    bytes.len()
}

/// The end of the default-properties block whose keyword ends at `keyword_end`: the end of
/// the first later line that begins (after blanks) with `}`, or the end of the text.
fn defaults_block_end(bytes: &[u8], keyword_end: usize) -> usize {
    let mut line = line_end(bytes, keyword_end) + 1;
    while line < bytes.len() {
        let first = bytes[line..].iter().position(|&b| !matches!(b, b' ' | b'\t' | b'\r'));
        if first.is_some_and(|at| bytes[line + at] == b'}') {
            return line_end(bytes, line);
        }
        line = line_end(bytes, line) + 1;
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use super::*;

    fn render(text: &str) -> String {
        let mut out = String::new();
        for r in collect(text) {
            let _ = writeln!(out, "{} {:?} {}", r.describe(), r.how, r.span.text(text));
        }
        out
    }

    #[test]
    fn references_in_code_and_default_properties() {
        let text = r##"class A extends Actor;
#exec TEXTURE IMPORT NAME=Skin FILE=Textures\Skin.pcx // 'NotInDirective'
var Texture T; // Texture'InComment'
/* Texture'InBlock' /* nested */ Texture'StillInBlock' */
function F() { T = Texture'Pkg.Group.Coded'; PlayAnim('Landed'); DynamicLoadObject("Pkg.Loaded", class'Texture'); Log("not a path here"); }
defaultproperties
{
     Skin=Texture'A.Skin'
     MultiSkins(1)=BM_A01
     Texture=Pkg.Grp.Bare
     bHidden=True
     Count=3
     Pair=(Tex=Texture'InStruct',Other=Inner)
     IRCChannel="#utgames"
}
var int AfterDefaults; // Texture'Commented'
"##;
        expect_test::expect![[r#"
            Texture'Pkg.Group.Coded' Literal { class: Some("Texture") } Pkg.Group.Coded
            'Landed' Literal { class: None } Landed
            "Pkg.Loaded" String Pkg.Loaded
            class'Texture' Literal { class: Some("class") } Texture
            Skin=Texture'A.Skin' Literal { class: Some("Texture") } A.Skin
            MultiSkins=BM_A01 Bare BM_A01
            Texture=Pkg.Grp.Bare Bare Pkg.Grp.Bare
            Tex=Texture'InStruct' Literal { class: Some("Texture") } InStruct
            Other=Inner Bare Inner
        "#]]
        .assert_eq(&render(text));
    }

    #[test]
    fn hostile_text_never_panics() {
        for text in [
            "'",
            "\"",
            "defaultproperties",
            "defaultproperties\n=",
            "a'\\",
            "=é'x'",
            "/*",
            "x=\n",
            "defaultproperties\n{\n é=Texture'A'\n Aé(1)=B\n €=\"C.D\"\n}",
        ] {
            let _ = collect(text);
        }
        let mut state = 0x1234_5678_9abc_def0_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let pieces = [
            "'",
            "\"",
            "=",
            "defaultproperties",
            "\n",
            "}",
            "/*",
            "*/",
            "//",
            "é",
            "x.y",
            "(1)",
            "\\",
            "#exec",
            " ",
            "é=",
        ];
        for _ in 0..20_000 {
            let count = next() % 16;
            let text: String = (0..count).map(|_| pieces[(next() % 16) as usize]).collect();
            for r in collect(&text) {
                assert!(text.get(r.span.range()).is_some(), "{text:?}");
            }
        }
    }
}
