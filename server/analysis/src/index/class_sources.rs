//! Classes declared in UnrealScript sources: `<Package>/Classes/*.uc`, the layout UCC
//! compiles from (each `EditPackages` entry is a folder beside `System/` with its classes in
//! `Classes/`). They are read from the game folder, and from the folders being worked on
//! (`lint`'s folders, the editor's workspace folders) and the package paths, with or
//! without a game folder ([`read_sources`]). A modder's package exists there before it is
//! compiled into `System/<Package>.u`: a map that places its actors names real classes,
//! which the index knows from these declarations.
//!
//! The index reads the declaration (`class Name extends Parent <modifiers>;`): its name,
//! parent, and the modifiers that say whether UnrealEd may place it (`abstract`; UE2's
//! `placeable` and `notplaceable`). The `defaultproperties` block is read when asked for
//! ([`default_properties`], through [`crate::index::PackageIndex::class_facts`]).

use std::path::{Path, PathBuf};

use crate::fs::FileSystem;

/// One class declared in a `.uc` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceClass {
    pub name: String,
    /// The package: the folder above `Classes/`.
    pub package: String,
    /// The class it extends (`extends` or UE1's `expands`), as written (`Engine.Actor` or
    /// `Actor`); `None` for `Object` itself.
    pub parent: Option<String>,
    pub is_abstract: bool,
    /// UE2's `placeable` (`Some(true)`) or `notplaceable` (`Some(false)`); `None` when the
    /// declaration says neither (UE1 has neither: then a class is placeable unless abstract;
    /// UE2 inherits it from the parent).
    pub placeable: Option<bool>,
    pub file: PathBuf,
}

/// The declaration of a class: `name`, `parent` and modifiers, as [`declaration`] reads them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Declaration {
    pub name: String,
    pub parent: Option<String>,
    pub is_abstract: bool,
    pub placeable: Option<bool>,
}

/// Bounds of the search, so that a game folder or workspace with an unusual number of
/// sources costs seconds at most: a stock UT2004 tree has about 3,000 classes in 50
/// packages. They bound one read of every source folder together.
const MAX_PACKAGES: usize = 2_000;
const MAX_CLASSES: usize = 50_000;
/// Folders listed while looking for packages in the source paths (a workspace folder set
/// too wide, a home folder, lists at most this many).
const MAX_FOLDERS: usize = 20_000;
/// Only this much of a file is read for its declaration (a long licence comment may come
/// first; the declaration is the first statement).
const HEAD_BYTES: usize = 64 * 1024;

/// The classes declared in every source folder of `roots`, and what the search left out.
#[derive(Debug, Default)]
pub struct SourcesRead {
    pub classes: Vec<SourceClass>,
    /// The bounds reached (each said once, naming the folder it stopped at), to be said to
    /// the user.
    pub notes: Vec<String>,
}

/// Every class declared in the sources `roots` name: `<source path>/Classes/*.uc` for a
/// source path that is a package folder, else its packages (`<source path>/<Package>/Classes`,
/// or one level deeper: `Source/<Package>/Classes`); then the game folder's
/// (`<game>/<Package>/Classes`, as [`read_game_folder`]); then the package paths', found as
/// the source paths' are. The folders being worked on come first, so that a package whose
/// classes stand both in the workspace and in the game folder (a copy installed to compile
/// it) is taken from the workspace ([`super::PackageIndex::class_facts_all`] keeps the first
/// declaration of each package). A file found twice (a source path inside the game folder)
/// is read once; hidden folders (`.git`) and links among the subfolders are not entered.
pub fn read_sources(fs: &dyn FileSystem, roots: &super::IndexRoots) -> SourcesRead {
    let mut search = Search::default();
    let mut packages = Vec::new();
    for folder in &roots.source_paths {
        search.source_folder(fs, folder, &mut packages);
    }
    if let Some(game) = &roots.game_dir {
        search.game_folder(fs, game, &mut packages);
    }
    for folder in &roots.package_paths {
        search.source_folder(fs, folder, &mut packages);
    }
    let mut read = SourcesRead { classes: Vec::new(), notes: search.notes };
    let mut seen = std::collections::HashSet::new();
    for package in &packages {
        if !read_package(fs, package, &mut read.classes, &mut seen) {
            read.notes.push(format!(
                "the search for class sources stopped after {MAX_CLASSES} classes (at {}); the classes read so far are known",
                package.classes.display()
            ));
            break;
        }
    }
    read
}

/// Every class declared in `<game_dir>/<Package>/Classes/*.uc`, in folder and file name
/// order; files without a readable declaration are left out.
pub fn read_game_folder(fs: &dyn FileSystem, game_dir: &Path) -> Vec<SourceClass> {
    let mut search = Search::default();
    let mut packages = Vec::new();
    search.game_folder(fs, game_dir, &mut packages);
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for package in &packages {
        if !read_package(fs, package, &mut out, &mut seen) {
            break;
        }
    }
    out
}

/// A package folder found: its name (the folder's) and its `Classes` folder.
struct PackageFolder {
    name: String,
    classes: PathBuf,
}

/// One bounded search for package folders.
#[derive(Default)]
struct Search {
    folders: usize,
    packages: usize,
    stopped: bool,
    notes: Vec<String>,
}

impl Search {
    /// The entries of `dir`, unless a bound is reached (said once) or `dir` is a pseudo file
    /// system (`/proc`: endless trees, files that block).
    fn list(&mut self, fs: &dyn FileSystem, dir: &Path) -> Option<Vec<crate::fs::DirEntry>> {
        if self.stopped {
            return None;
        }
        let why = if self.folders >= MAX_FOLDERS {
            Some(format!("{MAX_FOLDERS} folders"))
        } else if self.packages >= MAX_PACKAGES {
            Some(format!("{MAX_PACKAGES} packages"))
        } else {
            None
        };
        if let Some(why) = why {
            self.stopped = true;
            self.notes.push(format!(
                "the search for class sources stopped after {why} (at {}); the classes found so far are known",
                dir.display()
            ));
            return None;
        }
        if super::PSEUDO_FILE_SYSTEMS.iter().any(|p| dir.starts_with(p)) {
            return None;
        }
        self.folders += 1;
        fs.read_dir(dir)
    }

    fn found(&mut self, name: String, classes: PathBuf, out: &mut Vec<PackageFolder>) {
        self.packages += 1;
        out.push(PackageFolder { name, classes });
    }

    /// `<game>/<Package>/Classes`, the layout UCC compiles from.
    fn game_folder(&mut self, fs: &dyn FileSystem, game: &Path, out: &mut Vec<PackageFolder>) {
        let Some(mut packages) = self.list(fs, game) else { return };
        packages.retain(|e| e.is_dir && !e.is_link);
        packages.sort_by(|a, b| a.name.cmp(&b.name));
        for package in packages {
            let dir = game.join(&package.name);
            let Some(entries) = self.list(fs, &dir) else { continue };
            if let Some(classes) = classes_folder(&entries) {
                self.found(package.name, dir.join(classes), out);
            }
        }
    }

    /// A source path: a package folder itself, else a folder of packages, else a folder of
    /// folders of packages.
    fn source_folder(&mut self, fs: &dyn FileSystem, folder: &Path, out: &mut Vec<PackageFolder>) {
        let Some(entries) = self.list(fs, folder) else { return };
        if let Some(classes) = classes_folder(&entries) {
            // `.` has no name of its own: the folder it stands for has.
            let name = folder.file_name().map(|n| n.to_string_lossy().into_owned()).or_else(|| {
                let absolute = fs.absolute(folder)?;
                Some(absolute.file_name()?.to_string_lossy().into_owned())
            });
            if let Some(name) = name {
                self.found(name, folder.join(classes), out);
            }
            return;
        }
        for child in subfolders(entries) {
            let dir = folder.join(&child);
            let Some(entries) = self.list(fs, &dir) else { continue };
            if let Some(classes) = classes_folder(&entries) {
                self.found(child, dir.join(classes), out);
                continue;
            }
            for grandchild in subfolders(entries) {
                let inner = dir.join(&grandchild);
                let Some(entries) = self.list(fs, &inner) else { continue };
                if let Some(classes) = classes_folder(&entries) {
                    self.found(grandchild, inner.join(classes), out);
                }
            }
        }
    }
}

/// The name of the `Classes` folder among `entries` (any case), not a link.
fn classes_folder(entries: &[crate::fs::DirEntry]) -> Option<&str> {
    entries
        .iter()
        .find(|e| e.is_dir && !e.is_link && e.name.eq_ignore_ascii_case("Classes"))
        .map(|e| e.name.as_str())
}

/// The folders among `entries` a search enters, in name order: not hidden, not links.
fn subfolders(entries: Vec<crate::fs::DirEntry>) -> Vec<String> {
    let mut names: Vec<String> = entries
        .into_iter()
        .filter(|e| e.is_dir && !e.is_link && !e.name.starts_with('.'))
        .map(|e| e.name)
        .collect();
    names.sort();
    names
}

/// Reads the declarations of one package's `Classes/*.uc` into `out`, in file name order,
/// skipping files already read (`seen`) and files without a readable declaration. False
/// when [`MAX_CLASSES`] is reached.
fn read_package(
    fs: &dyn FileSystem,
    package: &PackageFolder,
    out: &mut Vec<SourceClass>,
    seen: &mut std::collections::HashSet<PathBuf>,
) -> bool {
    let mut files = fs.read_dir(&package.classes).unwrap_or_default();
    files.retain(|e| !e.is_dir && is_class_file(&e.name));
    files.sort_by(|a, b| a.name.cmp(&b.name));
    for file in files {
        let path = package.classes.join(&file.name);
        if !seen.insert(path.clone()) {
            continue;
        }
        if out.len() >= MAX_CLASSES {
            return false;
        }
        let Some(bytes) = fs.read(&path) else { continue };
        let head = bytes.get(..HEAD_BYTES.min(bytes.len())).unwrap_or_default();
        let text = unreal_syntax::text::decode(head).text;
        let Some(found) = declaration(&text) else { continue };
        out.push(SourceClass {
            name: found.name,
            package: package.name.clone(),
            parent: found.parent,
            is_abstract: found.is_abstract,
            placeable: found.placeable,
            file: path,
        });
    }
    true
}

fn is_class_file(name: &str) -> bool {
    name.rsplit_once('.')
        .is_some_and(|(stem, ext)| !stem.is_empty() && ext.eq_ignore_ascii_case("uc"))
}

/// The class declaration of an UnrealScript text: the first statement that starts with
/// `class` (comments, `#exec` lines and blank lines before it skipped), up to its `;`.
/// `None` when the text declares no class (an `.uci` include, an interface, a broken file).
pub fn declaration(text: &str) -> Option<Declaration> {
    let mut tokens = Tokens::new(text);
    loop {
        let token = tokens.next()?;
        if token.eq_ignore_ascii_case("class") {
            break;
        }
        // A directive (`#exec ...`) runs to the end of its line; anything else before the
        // declaration means there is none.
        if token == "#" {
            tokens.skip_line();
            continue;
        }
        return None;
    }
    let name = tokens.next().filter(|t| is_identifier(t))?.to_owned();
    let mut found = Declaration { name, ..Declaration::default() };
    while let Some(token) = tokens.next() {
        match token.to_ascii_lowercase().as_str() {
            ";" => return Some(found),
            "extends" | "expands" => {
                let mut parent = tokens.next().filter(|t| is_identifier(t))?.to_owned();
                // `Package.Class`.
                while tokens.peek() == Some(".") {
                    tokens.next();
                    let part = tokens.next().filter(|t| is_identifier(t))?;
                    parent.push('.');
                    parent.push_str(part);
                }
                found.parent = Some(parent);
            }
            "abstract" => found.is_abstract = true,
            "placeable" => found.placeable = Some(true),
            "notplaceable" => found.placeable = Some(false),
            "(" => tokens.skip_group()?,
            _ => {}
        }
    }
    None
}

/// At most this many values are kept from one `defaultproperties` block (a stock class sets
/// a few dozen; UT2004's largest GUI classes a few hundred).
const MAX_DEFAULTS: usize = 10_000;

/// The `defaultproperties` block of an UnrealScript text, as `(name, value)` pairs written
/// in it, in order: `Name=Value`, `Name(1)=Value` and UE2's `Name[1]=Value` (the name kept
/// as written), a value as written (quotes, `Class'Package.Name'` and `(X=1,Y=2)` kept; a
/// trailing `;` dropped). Comments are skipped, UE2's `Begin Object` ... `End Object`
/// subobjects left out, and several statements on a line separated by `;` read each. The
/// block ends at a line whose first character is `}`, as UCC ends it, so a `}` inside a
/// quoted value does not end it. Empty when the text has no block.
pub fn default_properties(text: &str) -> Vec<(String, String)> {
    let mut tokens = Tokens::new(text);
    loop {
        match tokens.next() {
            None => return Vec::new(),
            Some(t) if t.eq_ignore_ascii_case("defaultproperties") => break,
            Some(_) => {}
        }
    }
    if tokens.next() != Some("{") {
        return Vec::new();
    }
    let rest = text.get(tokens.at..).unwrap_or_default();
    let mut out = Vec::new();
    let mut in_comment = false;
    let mut subobjects = 0usize;
    for (number, raw) in rest.split('\n').enumerate() {
        let line = strip_comments(raw, &mut in_comment);
        let line = line.trim();
        // The rest of the `{` line is read like any other; a later `}` line ends the block.
        if number > 0 && line.starts_with('}') {
            break;
        }
        if line.is_empty() {
            continue;
        }
        let mut words = line.split_whitespace();
        let first = words.next().unwrap_or_default();
        let second = words.next().unwrap_or_default();
        if second.eq_ignore_ascii_case("Object") {
            if first.eq_ignore_ascii_case("Begin") {
                subobjects += 1;
                continue;
            }
            if first.eq_ignore_ascii_case("End") {
                subobjects = subobjects.saturating_sub(1);
                continue;
            }
        }
        if subobjects > 0 {
            continue;
        }
        for statement in split_statements(line) {
            let Some((name, value)) = statement.split_once('=') else { continue };
            let (name, value) = (name.trim(), value.trim());
            if name.is_empty()
                || !name.bytes().next().is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
            {
                continue;
            }
            if out.len() >= MAX_DEFAULTS {
                return out;
            }
            out.push((name.to_owned(), value.to_owned()));
        }
    }
    out
}

/// A line without its comments (`//` to the end, `/* ... */` across lines: `in_comment`
/// carries an open one to the next line); quoted text is kept whole.
fn strip_comments(line: &str, in_comment: &mut bool) -> String {
    let bytes = line.as_bytes();
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    let mut quote: Option<u8> = None;
    let mut kept_from = 0;
    while i < bytes.len() {
        if *in_comment {
            if bytes[i..].starts_with(b"*/") {
                *in_comment = false;
                i += 2;
                kept_from = i;
            } else {
                i += 1;
            }
            continue;
        }
        let b = bytes[i];
        if let Some(q) = quote {
            if b == q {
                quote = None;
            }
        } else if b == b'"' {
            quote = Some(b);
        } else if bytes[i..].starts_with(b"//") {
            out.push_str(line.get(kept_from..i).unwrap_or_default());
            return out;
        } else if bytes[i..].starts_with(b"/*") {
            out.push_str(line.get(kept_from..i).unwrap_or_default());
            *in_comment = true;
            i += 2;
            continue;
        }
        i += 1;
    }
    if !*in_comment {
        out.push_str(line.get(kept_from..).unwrap_or_default());
    }
    out
}

/// The statements of a line, split at each `;` outside quotes and parentheses.
fn split_statements(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut quoted, mut start) = (0usize, false, 0);
    for (i, b) in line.bytes().enumerate() {
        match b {
            b'"' => quoted = !quoted,
            b'(' if !quoted => depth += 1,
            b')' if !quoted => depth = depth.saturating_sub(1),
            b';' if !quoted && depth == 0 => {
                out.push(&line[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&line[start..]);
    out.retain(|s| !s.trim().is_empty());
    out
}

fn is_identifier(token: &str) -> bool {
    token.bytes().next().is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && token.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// The tokens of UnrealScript as far as a declaration needs: identifiers and numbers, string
/// and name literals as one token each, every other character alone; comments skipped.
struct Tokens<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Tokens<'a> {
    fn new(text: &'a str) -> Self {
        Self { text, at: 0 }
    }

    fn peek(&self) -> Option<&'a str> {
        let mut copy = Tokens { text: self.text, at: self.at };
        copy.next()
    }

    fn skip_line(&mut self) {
        let rest = self.text.get(self.at..).unwrap_or_default();
        self.at += rest.find('\n').map_or(rest.len(), |i| i + 1);
    }

    /// Skips to the `)` that closes a `(` just read (nested groups too); `None` at the end
    /// of the text.
    fn skip_group(&mut self) -> Option<()> {
        let mut depth = 1usize;
        while depth > 0 {
            match self.next()? {
                "(" => depth += 1,
                ")" => depth -= 1,
                _ => {}
            }
        }
        Some(())
    }

    fn next(&mut self) -> Option<&'a str> {
        let bytes = self.text.as_bytes();
        loop {
            let rest = bytes.get(self.at..)?;
            let first = *rest.first()?;
            if first.is_ascii_whitespace() {
                self.at += 1;
            } else if rest.starts_with(b"//") {
                self.skip_line();
            } else if rest.starts_with(b"/*") {
                // UnrealScript's block comments do not nest in UE1; UE2's compiler nests
                // them. Nested ones are read as UE2 reads them: a `/*` inside opens another.
                let mut depth = 0usize;
                let mut i = 0;
                while i < rest.len() {
                    if rest[i..].starts_with(b"/*") {
                        depth += 1;
                        i += 2;
                    } else if rest[i..].starts_with(b"*/") {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
                self.at += i;
            } else {
                break;
            }
        }
        let rest = bytes.get(self.at..)?;
        let first = *rest.first()?;
        let len = if first.is_ascii_alphanumeric() || first == b'_' {
            rest.iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count()
        } else if first == b'"' || first == b'\'' {
            // A literal up to its closing quote on the same line.
            rest.iter()
                .skip(1)
                .position(|&b| b == first || b == b'\n')
                .map_or(rest.len(), |i| i + 2)
        } else {
            // One character (a whole UTF-8 sequence).
            self.text.get(self.at..)?.chars().next()?.len_utf8()
        };
        let token = self.text.get(self.at..self.at + len)?;
        self.at += len;
        Some(token)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(text: &str) -> Vec<(String, String)> {
        default_properties(text)
    }

    #[test]
    fn default_properties_of_ue1_and_ue2_blocks() {
        let ue1 = "class A extends Actor;\r\n// defaultproperties { X=1 } in a comment\r\ndefaultproperties\r\n{\r\n     bStatic=True\r\n     DrawType=DT_Mesh\r\n     Mesh=LodMesh'Botpack.Foo'\r\n     Skins(1)=Texture'Pkg.Skin'\r\n     Msg=\"a } brace // not a comment\"\r\n}\r\n";
        assert_eq!(
            pairs(ue1),
            [
                ("bStatic", "True"),
                ("DrawType", "DT_Mesh"),
                ("Mesh", "LodMesh'Botpack.Foo'"),
                ("Skins(1)", "Texture'Pkg.Skin'"),
                ("Msg", "\"a } brace // not a comment\""),
            ]
            .map(|(a, b)| (a.to_owned(), b.to_owned()))
        );
        let ue2 = "class B extends Info;\ndefaultproperties {\n\tA=1; B=(X=1;Y=2)\n\t/* C=3\n\tD=4 */ E=5\n\tBegin Object Class=Sub Name=Sub0\n\t\tInner=1\n\tEnd Object\n\tSub=Sub'Sub0'\n\tArr[2]=\"x\" // trailing\n}\nF=6\n";
        assert_eq!(
            pairs(ue2),
            [("A", "1"), ("B", "(X=1;Y=2)"), ("E", "5"), ("Sub", "Sub'Sub0'"), ("Arr[2]", "\"x\"")]
                .map(|(a, b)| (a.to_owned(), b.to_owned()))
        );
        assert!(pairs("class C extends Actor;").is_empty());
        assert!(pairs("defaultproperties").is_empty());
        // A block never closed runs to the end of the text.
        assert_eq!(pairs("defaultproperties\n{\nA=1").len(), 1);
    }

    fn read(text: &str) -> Option<Declaration> {
        declaration(text)
    }

    #[test]
    fn declarations_as_ucc_reads_them() {
        let found = read("//=====\n// Light.\n//=====\nclass Light extends Actor\n\tnative;\n");
        assert_eq!(
            found,
            Some(Declaration {
                name: "Light".into(),
                parent: Some("Actor".into()),
                ..Default::default()
            })
        );
        let found = read("/* a /* nested */ comment */\r\n#exec Texture Import File=A.pcx\r\nclass Thing expands Engine.Pickup abstract config(User);");
        assert_eq!(
            found,
            Some(Declaration {
                name: "Thing".into(),
                parent: Some("Engine.Pickup".into()),
                is_abstract: true,
                placeable: None,
            })
        );
        let found = read("class xPawn extends UnrealPawn\n    config(User)\n    dependson(xUtil)\n    placeable;");
        assert_eq!(found.and_then(|d| d.placeable), Some(true));
        let found = read("class Info extends Actor abstract notplaceable native;");
        assert_eq!(found.map(|d| (d.is_abstract, d.placeable)), Some((true, Some(false))));
        assert_eq!(read("class Object native;").and_then(|d| d.parent), None);
    }

    #[test]
    fn no_declaration_is_none() {
        assert_eq!(read(""), None);
        assert_eq!(read("var int X;\nclass A extends B;"), None);
        assert_eq!(read("class"), None);
        assert_eq!(read("class A extends B"), None);
        assert_eq!(read("class 1A extends B;"), None);
        assert_eq!(read("class A extends B config(;"), None);
        assert_eq!(read("/* never closed"), None);
    }

    #[test]
    fn the_game_folders_packages_are_read() {
        let fs = crate::fs::MemoryFs::new()
            .with("/game/System/Core.u", "x")
            .with("/game/MyMod/Classes/MyActor.uc", "class MyActor extends Actor placeable;")
            .with("/game/MyMod/Classes/Base.uc", "class MyBase extends Actor abstract;")
            .with("/game/MyMod/Classes/notes.txt", "class NotAClass extends Actor;")
            .with("/game/Other/Classes/Broken.uc", "not a class");
        let found = read_game_folder(&fs, Path::new("/game"));
        let names: Vec<(&str, &str, bool)> =
            found.iter().map(|c| (c.package.as_str(), c.name.as_str(), c.is_abstract)).collect();
        assert_eq!(names, [("MyMod", "MyBase", true), ("MyMod", "MyActor", false)]);
    }

    fn names(read: &SourcesRead) -> Vec<String> {
        read.classes
            .iter()
            .map(|c| format!("{}.{} {}", c.package, c.name, c.file.display()))
            .collect()
    }

    /// A source path is a package folder itself, a folder of packages, or a folder of
    /// folders of packages; hidden folders are not entered, and nothing deeper is read.
    #[test]
    fn source_paths_in_every_layout() {
        let fs = crate::fs::MemoryFs::new()
            .with("/mod/Classes/ModActor.uc", "class ModActor extends Actor;")
            .with("/repo/Pkg/Classes/A.uc", "class A extends Actor abstract;")
            .with("/repo/Source/Deep/Classes/B.uc", "class B extends A;")
            .with("/repo/Source/Deep/Sub/Classes/TooDeep.uc", "class TooDeep extends A;")
            .with("/repo/a/b/c/Classes/Deeper.uc", "class Deeper extends A;")
            .with("/repo/.git/Pkg/Classes/Hidden.uc", "class Hidden extends A;")
            .with("/repo/Maps/Test.t3d", "Begin Map\nEnd Map\n");
        let roots = super::super::IndexRoots {
            source_paths: vec!["/mod".into(), "/repo".into()],
            ..Default::default()
        };
        let read = read_sources(&fs, &roots);
        assert_eq!(
            names(&read),
            [
                "mod.ModActor /mod/Classes/ModActor.uc",
                "Pkg.A /repo/Pkg/Classes/A.uc",
                "Deep.B /repo/Source/Deep/Classes/B.uc",
            ]
        );
        assert!(read.notes.is_empty(), "{:?}", read.notes);
    }

    /// The workspace's sources come first; a source path inside the game folder (the game
    /// folder itself, or one of its packages) reads each file once; package paths count.
    #[test]
    fn sources_found_twice_are_read_once() {
        let fs = crate::fs::MemoryFs::new()
            .with("/game/System/Core.u", "x")
            .with("/game/MyMod/Classes/Installed.uc", "class Installed extends Actor;")
            .with("/game/Other/Classes/O.uc", "class O extends Actor;")
            .with("/work/MyMod/Classes/Installed.uc", "class Installed extends Actor abstract;")
            .with("/extra/Lib/Classes/L.uc", "class L extends Actor;");
        let roots = super::super::IndexRoots {
            game_dir: Some("/game".into()),
            package_paths: vec!["/extra".into()],
            source_paths: vec!["/work".into(), "/game/Other".into(), "/game".into()],
        };
        let read = read_sources(&fs, &roots);
        assert_eq!(
            names(&read),
            [
                "MyMod.Installed /work/MyMod/Classes/Installed.uc",
                "Other.O /game/Other/Classes/O.uc",
                "MyMod.Installed /game/MyMod/Classes/Installed.uc",
                "Lib.L /extra/Lib/Classes/L.uc",
            ]
        );
    }

    /// A source path set too wide stops at a bound, and says where.
    #[test]
    fn a_search_too_wide_stops_and_says_so() {
        let mut fs = crate::fs::MemoryFs::new();
        for n in 0..MAX_PACKAGES + 5 {
            fs.insert(
                format!("/wide/P{n:05}/Classes/C{n}.uc"),
                format!("class C{n} extends Actor;"),
            );
        }
        let roots =
            super::super::IndexRoots { source_paths: vec!["/wide".into()], ..Default::default() };
        let read = read_sources(&fs, &roots);
        assert_eq!(read.classes.len(), MAX_PACKAGES);
        assert_eq!(
            read.notes,
            [format!("the search for class sources stopped after {MAX_PACKAGES} packages (at /wide/P02000); the classes found so far are known")]
        );
    }

    #[test]
    fn class_sources_are_told_by_place() {
        let roots = super::super::IndexRoots {
            game_dir: Some("/game".into()),
            package_paths: vec!["/extra".into()],
            source_paths: vec!["/work".into()],
        };
        let covers = |p: &str| roots.covers_class_source(Path::new(p));
        assert!(covers("/game/MyMod/Classes/A.uc"));
        assert!(!covers("/game/Classes/A.uc"));
        assert!(!covers("/game/MyMod/Classes/A.uci"));
        assert!(covers("/work/Classes/A.uc"));
        assert!(covers("/work/MyMod/Classes/A.UC"));
        assert!(covers("/work/Source/MyMod/Classes/A.uc"));
        assert!(!covers("/work/a/b/MyMod/Classes/A.uc"));
        assert!(!covers("/work/MyMod/Maps/A.uc"));
        assert!(covers("/extra/Lib/Classes/L.uc"));
        assert!(!covers("/elsewhere/Lib/Classes/L.uc"));
    }
}
