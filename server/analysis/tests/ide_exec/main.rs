//! Data-driven tests of the `#exec` editor features: package trees held in memory (a line
//! `//- /Path/File.uc` starts a text file, `//- /Path/File_d.3d = mesh-data verts=4` a
//! binary file built by the exec tests' writers), one `$0` cursor marker (two make a
//! selection) in the class being edited, expect-test snapshots, one `check` helper per
//! feature, and a corpus test over real mods.

// Test helpers may panic on broken fixtures; expect-test writes raw strings with hashes and
// takes `Expect` by value.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::needless_raw_string_hashes,
    clippy::needless_pass_by_value,
    clippy::format_push_string,
    clippy::format_collect
)]

use unreal_test_support::spec_files;

mod code_actions;
mod completion;
mod corpus;
mod hover;
mod navigation;
mod outline;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use unreal_analysis::exec::{ExecEnv, MemoryFs};
use unreal_analysis::ide::exec::ExecSource;
use unreal_analysis::lint::LintOptions;
use unreal_analysis::EngineSetting;
use unreal_syntax::Span;

/// A mod with a vertex mesh, a texture and a sound, imported by one class and used by
/// another.
pub const PACKAGE: &str = r#"//- /Game/Monsters/Classes/Skull.uc
class Skull extends Actor;

#exec MESH IMPORT MESH=Skull ANIVFILE=MODELS\Skull_a.3d DATAFILE=Models\Skull_d.3d
#exec MESH ORIGIN MESH=Skull X=0 Y=0 Z=0
#exec MESH SEQUENCE MESH=Skull SEQ=All STARTFRAME=0 NUMFRAMES=2
#exec MESH SEQUENCE MESH=Skull SEQ=Bite STARTFRAME=1 NUMFRAMES=1
#exec MESHMAP NEW MESHMAP=Skull MESH=Skull
#exec MESHMAP SCALE MESHMAP=Skull X=0.1 Y=0.1 Z=0.2

#exec TEXTURE IMPORT NAME=JSkull1 FILE=Textures\Skull1.pcx GROUP=Skins
#exec MESHMAP SETTEXTURE MESHMAP=Skull NUM=0 TEXTURE=JSkull1
#exec AUDIO IMPORT FILE="Sounds\Bite.wav" GROUP="Skull"
#exec OBJ LOAD FILE=Textures\Decor.utx

defaultproperties
{
}
//- /Game/Monsters/Classes/SkullNotify.uc
class SkullNotify extends Skull;

#exec MESH NOTIFY MESH=Skull SEQ=Bite TIME=0.5 FUNCTION=Chomp
#exec MESH LODPARAMS MESH=Skull STRENGTH=0.5
#exec MESHMAP SETTEXTURE MESHMAP=Skull NUM=1 TEXTURE=JSkull1
//- /Game/Monsters/Models/Skull_d.3d = mesh-data verts=4 tris=2 slots=0,1
//- /Game/Monsters/Models/Skull_a.3d = mesh-anim verts=4 frames=2
//- /Game/Monsters/Models/Readme.txt = text not a model
//- /Game/Monsters/Textures/Skull1.pcx = pcx 64x32
//- /Game/Monsters/Textures/Skull2.bmp = bmp 16x16 bpp=24
//- /Game/Monsters/Sounds/Bite.wav = wav format=1
"#;

/// `PACKAGE` with `$0` at the first `needle` after `file`'s header, `skip` bytes into it.
pub fn at(file: &str, needle: &str, skip: usize) -> String {
    at_in(PACKAGE, file, needle, skip)
}

pub fn at_in(tree: &str, file: &str, needle: &str, skip: usize) -> String {
    let header = tree.find(&format!("//- {file}")).expect("file in tree");
    let i = tree[header..].find(needle).expect("needle in file") + header + skip;
    format!("{}$0{}", &tree[..i], &tree[i..])
}

/// A tree with its cursor file: the file holding `$0` markers is the one being edited (its
/// text, markers removed, is also on the file system, as a saved file is).
pub struct Fixture {
    pub fs: MemoryFs,
    pub current: PathBuf,
    pub text: String,
    pub markers: Vec<u32>,
    pub options: LintOptions,
}

impl Fixture {
    pub fn new(raw: &str) -> Self {
        let raw = if raw.starts_with("//- ") {
            raw.to_owned()
        } else {
            format!("//- /Game/Test/Classes/Test.uc\n{raw}")
        };
        let mut fs = MemoryFs::new();
        let mut current = None;
        let mut files: Vec<(PathBuf, String)> = Vec::new();
        for line in raw.split_inclusive('\n') {
            if let Some(header) = line.strip_prefix("//- ") {
                let header = header.trim();
                if let Some((path, target)) = header.split_once(" -> ") {
                    fs.link(path.trim(), target.trim());
                } else if let Some((path, spec)) = header.split_once(" = ") {
                    fs.insert(path.trim(), spec_files::build(spec));
                } else {
                    files.push((PathBuf::from(header), String::new()));
                }
            } else if let Some((_, text)) = files.last_mut() {
                text.push_str(line);
            }
        }
        let mut markers = Vec::new();
        let mut text = String::new();
        for (path, raw_text) in files {
            if raw_text.contains("$0") {
                let mut rest = raw_text.as_str();
                let mut clean = String::new();
                while let Some(i) = rest.find("$0") {
                    clean.push_str(&rest[..i]);
                    markers.push(clean.len() as u32);
                    rest = &rest[i + 2..];
                }
                clean.push_str(rest);
                current = Some(path.clone());
                text.clone_from(&clean);
                fs.insert(path, clean.into_bytes());
            } else {
                fs.insert(path, raw_text.into_bytes());
            }
        }
        let current = current.expect("a file with a $0 marker");
        Self { fs, current, text, markers, options: LintOptions::default() }
    }

    #[must_use]
    pub fn engine(mut self, engine: &str) -> Self {
        self.options.engine = EngineSetting::parse(engine).unwrap();
        self
    }

    pub fn env(&self) -> ExecEnv {
        ExecEnv::new(Arc::new(self.fs.clone()), &self.options)
    }

    pub fn source<'a>(&'a self, env: &'a ExecEnv) -> ExecSource<'a> {
        ExecSource::new(&self.text, Some(&self.current), Some(env))
    }

    /// The document as an editor buffer without a path.
    pub fn buffer(&self) -> ExecSource<'_> {
        ExecSource::new(&self.text, None, None)
    }

    pub fn cursor(&self) -> u32 {
        self.markers[0]
    }

    pub fn selection(&self) -> Span {
        match self.markers.as_slice() {
            [a, b, ..] => Span::new(*a, *b),
            [a] => Span::empty_at(*a),
            [] => Span::default(),
        }
    }

    /// The text of a file of the tree.
    pub fn file_text(&self, path: &Path) -> String {
        use unreal_analysis::exec::FileSystem;
        String::from_utf8(self.fs.read(path).unwrap()).unwrap()
    }
}

/// `line:col` (1-based) of an offset.
pub fn pos(text: &str, offset: u32) -> String {
    let before = &text[..offset as usize];
    let line = before.matches('\n').count() + 1;
    let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    format!("{line}:{col}")
}

/// A span as `line:col..line:col "text"` (the text cut at 40 characters).
pub fn show(text: &str, span: Span) -> String {
    let slice = span.text(text);
    let shown: String = slice.chars().take(40).collect();
    let ellipsis = if slice.chars().count() > 40 { "…" } else { "" };
    format!("{}..{} {:?}{ellipsis}", pos(text, span.start), pos(text, span.end), shown)
}
