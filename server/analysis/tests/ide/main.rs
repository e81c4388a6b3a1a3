//! Data-driven tests of the editor features: fixtures with `$0` cursor markers (two markers
//! make a selection) and expect-test snapshots, one `check` helper per feature.

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

mod code_actions;
mod completion;
mod corpus;
mod document;
mod folding;
mod formatting;
mod hover;
mod inlay_hints;
mod navigation;
mod selection;
mod semantic_tokens;
mod symbols;

use unreal_analysis::ide::t3d::{ObjectFacts, PackageObject, Source};
use unreal_analysis::EngineSetting;
use unreal_syntax::t3d::Parse;
use unreal_syntax::Span;

/// A fixture with its `$0` markers removed: the text and the marker offsets.
pub struct Fixture {
    pub text: String,
    pub markers: Vec<u32>,
    pub parse: Parse,
}

impl Fixture {
    pub fn new(raw: &str) -> Self {
        let mut text = String::new();
        let mut markers = Vec::new();
        let mut rest = raw;
        while let Some(i) = rest.find("$0") {
            text.push_str(&rest[..i]);
            markers.push(text.len() as u32);
            rest = &rest[i + 2..];
        }
        text.push_str(rest);
        let parse = unreal_syntax::t3d::parse(&text);
        Self { text, markers, parse }
    }

    pub fn source(&self) -> Source<'_> {
        Source::detect(&self.text, &self.parse, EngineSetting::Auto)
    }

    pub fn source_with(&self, setting: EngineSetting) -> Source<'_> {
        Source::detect(&self.text, &self.parse, setting)
    }

    pub fn cursor(&self) -> u32 {
        self.markers[0]
    }

    /// The selection between two markers (or the empty span at one).
    pub fn selection(&self) -> Span {
        match self.markers.as_slice() {
            [a, b, ..] => Span::new(*a, *b),
            [a] => Span::empty_at(*a),
            [] => Span::default(),
        }
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

/// A small UE1 map used by several features.
pub const ROOM: &str = "\
Begin Map
Begin Actor Class=LevelInfo Name=LevelInfo0
     Title=\"Room\"
     Level=LevelInfo'MyLevel.LevelInfo0'
     Name=\"LevelInfo0\"
End Actor
Begin Actor Class=Light Name=Light0
     LightBrightness=200
     LightHue=24
     Region=(Zone=LevelInfo'MyLevel.LevelInfo0',iLeaf=-1)
     Location=(X=64.000000,Y=-32.000000,Z=16.000000)
     Name=\"Light0\"
End Actor
Begin Actor Class=Light Name=Light1
     LightRadius=32
     Location=(X=128.000000)
End Actor
Begin Actor Class=Brush Name=Brush0
     Brush=Model'MyLevel.Brush0'
    Begin Brush Name=Brush0
       Begin PolyList
          Begin Polygon Texture=Wall01 Flags=258 Link=0
             Origin   -00128.000000,-00128.000000,-00128.000000
             Normal   -00001.000000,+00000.000000,+00000.000000
             Pan      U=16 V=0
             TextureU +00000.000000,+00001.000000,+00000.000000
             TextureV +00000.000000,+00000.000000,-00001.000000
             Vertex   -00128.000000,-00128.000000,-00128.000000
             Vertex   -00128.000000,-00128.000000,+00128.000000
             Vertex   -00128.000000,+00128.000000,+00128.000000
             Vertex   -00128.000000,+00128.000000,-00128.000000
          End Polygon
          Begin Polygon Texture=Floor02
             Origin   -00128.000000,-00128.000000,-00128.000000
             Normal   +00000.000000,+00000.000000,-00001.000000
             Vertex   -00128.000000,-00128.000000,-00128.000000
             Vertex   -00128.000000,+00128.000000,-00128.000000
             Vertex   +00128.000000,+00128.000000,-00128.000000
             Vertex   +00128.000000,-00128.000000,-00128.000000
          End Polygon
       End PolyList
    End Brush
End Actor
End Map
";

/// Puts `$0` at the first occurrence of `needle` in `ROOM`, `skip` bytes into it.
pub fn room_at(needle: &str, skip: usize) -> String {
    let i = ROOM.find(needle).expect("needle in ROOM") + skip;
    format!("{}$0{}", &ROOM[..i], &ROOM[i..])
}

/// A package index that knows one texture, `GenFluid.Water.Wave1`.
pub struct FakePackages;

impl ObjectFacts for FakePackages {
    fn object(&self, class: Option<&str>, path: &str) -> Option<PackageObject> {
        (class == Some("Texture") && path.eq_ignore_ascii_case("GenFluid.Water.Wave1")).then(|| {
            PackageObject {
                class: "Texture".to_owned(),
                path: path.to_owned(),
                file: Some("Textures/GenFluid.utx".to_owned()),
                details: vec![
                    ("size".to_owned(), "256x256".to_owned()),
                    ("format".to_owned(), "P8".to_owned()),
                ],
            }
        })
    }
}
