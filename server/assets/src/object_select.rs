//! Naming one object of a package as a mapper writes it: `Name`, `Group.Name`,
//! `Package.Group.Name`, or any of these with its class, `Class'Group.Name'` (the form of
//! T3D references and UnrealEd's clipboard), in any case.
//!
//! A path is not unique in a package: UT2004's `Weapons.ukx` holds a `SkeletalMesh` and a
//! `MeshAnimation` both named `AssaultRifle_1st`. So every front end (export, the preview
//! requests, hover) selects through [`select`], which refuses to guess between objects of
//! different classes unless the caller says which of them it can use.

use std::fmt;

use unreal_formats::package::Package;

/// An object named by path, with or without its class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectSpec {
    pub class: Option<String>,
    /// `Name`, `Group.Name` or `Package.Group.Name`.
    pub path: String,
}

impl ObjectSpec {
    /// `Class'Path'` (also with double quotes), or a bare path. Surrounding blanks are
    /// ignored; a class part with anything but letters, digits and `_` is not a class, and the
    /// whole text is then taken as the path.
    pub fn parse(text: &str) -> Self {
        let text = text.trim();
        for quote in ['\'', '"'] {
            if let Some((class, rest)) = text.split_once(quote) {
                if let Some(path) = rest.strip_suffix(quote) {
                    let is_class = !class.is_empty()
                        && class.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                    if is_class && !path.is_empty() && !path.contains(quote) {
                        return Self { class: Some(class.to_owned()), path: path.to_owned() };
                    }
                }
            }
        }
        Self { class: None, path: text.to_owned() }
    }

    /// [`Self::parse`], with a class given on its own (`--class`). A class written in both
    /// places must agree (ignoring case).
    pub fn with_class(text: &str, class: Option<&str>) -> Result<Self, String> {
        let mut spec = Self::parse(text);
        match (spec.class.as_deref(), class) {
            (Some(written), Some(given)) if !written.eq_ignore_ascii_case(given) => {
                return Err(format!(
                    "the object is named as a {written} (`{text}`) and the class given is {given}"
                ));
            }
            (None, Some(given)) => spec.class = Some(given.to_owned()),
            _ => {}
        }
        Ok(spec)
    }
}

impl fmt::Display for ObjectSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.class {
            Some(class) => write!(f, "{class}'{}'", self.path),
            None => f.write_str(&self.path),
        }
    }
}

/// Why no single object was selected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SelectError {
    /// Nothing at the path (or nothing of the class there: `others` lists what is).
    NotFound { spec: String, others: Vec<String> },
    /// Several objects, each as `Class'Path'`.
    Ambiguous { spec: String, candidates: Vec<String> },
}

impl fmt::Display for SelectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotFound { spec, others } if others.is_empty() => {
                write!(f, "no object named {spec}")
            }
            Self::NotFound { spec, others } => {
                write!(f, "no object {spec}; at that path: {}", others.join(", "))
            }
            Self::Ambiguous { spec, candidates } => write!(
                f,
                "{spec} names {} objects: {}; name one with its class, as Class'Path'",
                candidates.len(),
                candidates.join(", ")
            ),
        }
    }
}

/// The one export `spec` names. Several candidates are an error listing them, except that
/// when exactly one of them is `usable` (say, the one that exports to what was asked for) it
/// is taken.
pub fn select(
    package: &Package<'_>,
    spec: &ObjectSpec,
    usable: impl Fn(usize) -> bool,
) -> Result<usize, SelectError> {
    let at_path = package.find_all(&spec.path);
    let candidates: Vec<usize> = match &spec.class {
        Some(class) => at_path
            .iter()
            .copied()
            .filter(|&i| package.class_name(i).eq_ignore_ascii_case(class))
            .collect(),
        None => at_path.clone(),
    };
    let name = |list: &[usize]| list.iter().map(|&i| package.object_reference(i)).collect();
    match candidates.as_slice() {
        [] => Err(SelectError::NotFound { spec: spec.to_string(), others: name(&at_path) }),
        [one] => Ok(*one),
        many => {
            let usable: Vec<usize> = many.iter().copied().filter(|&i| usable(i)).collect();
            match usable.as_slice() {
                [one] => Ok(*one),
                _ => Err(SelectError::Ambiguous { spec: spec.to_string(), candidates: name(many) }),
            }
        }
    }
}

/// The export at index `export` when it exists and, if `spec` is given, is what it names
/// (clients that list a package's objects send the index they were given with the path).
pub fn select_export(
    package: &Package<'_>,
    export: usize,
    spec: Option<&ObjectSpec>,
) -> Result<usize, SelectError> {
    let matches = |spec: &ObjectSpec| {
        package.find_all(&spec.path).contains(&export)
            && spec
                .class
                .as_ref()
                .is_none_or(|c| package.class_name(export).eq_ignore_ascii_case(c))
    };
    if export < package.exports.len() && spec.is_none_or(matches) {
        return Ok(export);
    }
    Err(SelectError::NotFound {
        spec: spec.map_or_else(|| format!("export {export}"), |s| format!("{s} (export {export})")),
        others: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::ObjectSpec;

    #[test]
    fn specs_parse_as_written() {
        let cases = [
            ("SkeletalMesh'AssaultRifle_1st'", Some("SkeletalMesh"), "AssaultRifle_1st"),
            ("texture'Skins.Wood'", Some("texture"), "Skins.Wood"),
            ("Texture\"Pkg.Skins.Wood\"", Some("Texture"), "Pkg.Skins.Wood"),
            ("  Skins.Wood ", None, "Skins.Wood"),
            ("Bad Class'X'", None, "Bad Class'X'"),
            ("Texture''", None, "Texture''"),
            ("O'Brien", None, "O'Brien"),
        ];
        for (text, class, path) in cases {
            let spec = ObjectSpec::parse(text);
            assert_eq!((spec.class.as_deref(), spec.path.as_str()), (class, path), "{text}");
        }
        assert!(ObjectSpec::with_class("Texture'X'", Some("Sound")).is_err());
        let spec = ObjectSpec::with_class("X", Some("Sound")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(spec.to_string(), "Sound'X'");
    }
}
