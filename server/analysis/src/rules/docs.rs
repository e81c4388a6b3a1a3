//! `docs/rules.md`, printed from the registry: each rule's section is its module's `DOCS`
//! after a `Severity:` lead from its `RULE`, grouped in the sections below, then the retired
//! codes. `unreal-ls rules --format markdown` prints it; a test checks that the committed file
//! is current (`UPDATE_DOCS=1 cargo test -p unreal-analysis --test rules_doc` rewrites it).

use super::{Fixability, RuleMeta, RETIRED_RULES};

/// The text between the title and the first section.
const INTRO: &str = r"Every diagnostic unreal-ls reports, by code. Codes are stable; severities are the defaults
(settings and `unreal-ls.toml` can change them). Each entry says why it matters, shows an
example that triggers it, and how to fix it. This file is printed from the rule registry
(each rule's `DOCS` in `server/analysis/src/rules/`): edit the text there and run
`UPDATE_DOCS=1 cargo test -p unreal-analysis --test rules_doc`; a test fails while this file
is not what the registry prints.

Engine generation: poly flags mean different things in UE1 (Unreal, UT99, Deus Ex, Rune) and
UE2 (UT2004 and kin). `lint --engine ue1|ue2|auto` (default `auto`) picks the table; `auto`
recognises UE2 files by `Begin Object`, `Begin Surface`, `Begin StaticMesh`, `Begin Terrain*`
and `StaticMeshActor`, UE1 files by `Pan` lines, and otherwise by texture names (bare names
are UE1, `Package.Group.Name` UE2). When it cannot tell, flag checks report only what neither
generation defines.

Severities follow the engine. An error or a warning means the engine, as its source shows,
builds something other than what the line evidently means, or fails; a line that does nothing
and changes nothing is a hint (tagged unnecessary, so editors fade it); what cannot be checked
is an info. Real projects have build steps around UCC, and what the tool does not model
degrades to a few infos that say so, never to a flood of errors: a package whose classes pass
through a preprocessor of the project's own is told once (`exec-preprocessed-source`), and its
lines are not checked (SWAT 4's and Tribes: Vengeance's own preprocessor is evaluated); a
command of a licensee's editor, whose source is not public, is named or said to be unchecked
(`exec-unknown-command`); Git LFS pointer files in place of the binaries are told once per
package (`exec-lfs-pointer`), and `info` and the previews say what they are. Only a typo of
something the engine does read (`#exce`, `GRUOP=`) stays a finding in every build.";

/// A heading of `docs/rules.md`: its title, the text under it, and its rules in order.
pub struct Section {
    pub title: &'static str,
    pub intro: &'static str,
    pub rules: &'static [&'static RuleMeta],
}

/// Every rule, grouped as `docs/rules.md` lists them.
pub static SECTIONS: &[Section] = &[
    Section {
        title: "T3D: structure",
        intro: "",
        rules: &[
            &super::t3d_not_t3d::RULE,
            &super::t3d_stray_line::RULE,
            &super::t3d_unbalanced_block::RULE,
            &super::t3d_nesting_too_deep::RULE,
            &super::t3d_malformed_number::RULE,
            &super::t3d_unknown_polygon_line::RULE,
            &super::t3d_polygon_outside_polylist::RULE,
        ],
    },
    Section {
        title: "T3D: geometry",
        intro: r"Vertices are checked as UnrealEd treats them: a polygon's normal is
`normalize(sum over i>=2 of (V[i-1]-V[0]) x (V[i]-V[0]))` (every real map stores exactly that),
and a point is on a plane within 0.25 unit, as the BSP's splits count it
(`THRESH_SPLIT_POLY_WITH_PLANE`). Polygons with a
malformed vector line are left to `t3d-malformed-number` and not judged further. On the
builder (red) brush, a `Brush` actor with no `CsgOper` (`CSG_Active`), every geometry finding is
a hint at most: it is the tool the mapper shapes the next brush with, and CSG never builds it
into the level (UnrealEd's `csgRebuild` skips `Level->Brush()`).",
        rules: &[
            &super::t3d_too_few_vertices::RULE,
            &super::t3d_too_many_vertices::RULE,
            &super::t3d_degenerate_polygon::RULE,
            &super::t3d_non_convex_polygon::RULE,
            &super::t3d_non_planar_polygon::RULE,
            &super::t3d_normal_mismatch::RULE,
            &super::t3d_bad_texture_axes::RULE,
        ],
    },
    Section { title: "T3D: poly flags", intro: "", rules: &[&super::t3d_unknown_poly_flag::RULE] },
    Section {
        title: "T3D: names",
        intro: "",
        rules: &[
            &super::t3d_actor_without_class::RULE,
            &super::t3d_blank_before_equals::RULE,
            &super::t3d_duplicate_actor_name::RULE,
            &super::t3d_duplicate_level_info::RULE,
            &super::t3d_unresolved_brush_model::RULE,
            &super::t3d_missing_brush_reference::RULE,
        ],
    },
    Section {
        title: "T3D: map check",
        intro: r"What UT2004's map check (`CheckForErrors`, `Engine/Src/UnErrorChecking.cpp`) and the
engine's own code tell of placed actors, for every generation where the same property means
the same thing. The checks that follow links between actors by name run only on a whole map:
a file with a `LevelInfo`, which UnrealEd's map export always writes; a T3D of a few copied
actors names actors outside it.",
        rules: &[
            &super::t3d_unmatched_attach_tag::RULE,
            &super::t3d_unmatched_ai_script_tag::RULE,
            &super::t3d_unmatched_teleporter_url::RULE,
            &super::t3d_unanswered_event::RULE,
            &super::t3d_negative_extra_cost::RULE,
            &super::t3d_zero_gravity::RULE,
            &super::t3d_obsolete_light_effect::RULE,
            &super::t3d_actor_duplicated_in_place::RULE,
            &super::t3d_untitled_level::RULE,
            &super::t3d_static_flag_cleared::RULE,
            &super::t3d_obsolete_class::RULE,
            &super::t3d_missing_draw_resource::RULE,
            &super::t3d_beyond_world_edge::RULE,
            &super::t3d_no_player_start::RULE,
        ],
    },
    Section {
        title: "T3D: references into packages",
        intro: r"These rules run only with a package index: a game directory (`--game-dir`, `game-dir` in
`unreal-ls.toml`, the editor's `unrealLs.gameDirectory`, else the game installation the file
stands in: the nearest folder in or above it whose `System/` holds the engine's `Core.u`) or
`package-paths`. The index holds every package (`.u .utx .uax .umx .unr .usx
.ukx .usm .ut2`) under the game's `System/ Textures/ Sounds/ Music/ Maps/ StaticMeshes/
Animations/` folders (a folder without them is searched as a plain folder of packages) and
under the package paths. Without an index nothing is reported, so a T3D linted on its own
stays quiet. Names compare case-insensitively; references into the map itself (`MyLevel.`)
and `None` are never reported. Each finding offers up to three nearest known names (by edit
distance) and the nearest as an unsafe fix.",
        rules: &[
            &super::t3d_unknown_texture::RULE,
            &super::t3d_unknown_class::RULE,
            &super::t3d_abstract_class::RULE,
            &super::t3d_unreadable_class::RULE,
            &super::t3d_unknown_object::RULE,
        ],
    },
    Section {
        title: "#exec directives",
        intro: r#"`#exec` lines at the top of UnrealScript classes import meshes, textures, sounds and packages
when UCC compiles. `unreal-ls lint` checks every `.uc` with its package around it: the package
folder is the parent of `Classes/` (its name is the folder's), paths in directives are
relative to it, and the names directives define form one table across all the package's
classes. Keys are found the way the engine finds them (first match, case-insensitive, after
any character that is not a letter or digit; `//` and `/*` end the line even inside quotes).
Only files under the package folder are read; a class outside `Classes/` is never compiled by
UCC, so its findings are warnings at most. `--engine ue1|ue2` selects the key set of a
generation (by default keys either reads are accepted); the engine build (`engine_build`,
e.g. `436` or `469`) selects which image types `TEXTURE IMPORT` takes. A `defaultproperties`
block is cut out before the compiler runs (`UClassFactoryUC`, UT2004
`Editor/Src/UnEdFact.cpp:260-326`), so nothing in it is a directive.

Which builds the rules know. Epic's builds are checked against their editor sources (Unreal
v1.200, UT v400 and UT2004 in fluddsskark/UniversalED and jmarshall23/Unreal2004). OldUnreal's
patch builds are named with `game = "ut469"` or `game = "unreal227"` (also `--game`;
Unreal 227 is also recognised from a game folder whose `System/Core.u` carries licensee 227);
their editor sources are not public, so what they add comes from UT v469's release notes
(OldUnreal/UnrealTournamentPatches `ReleaseNotes.md`: `TEXTURE MERGECOMPRESSED ... FILE=`,
`BRUSH TOMESH`, PNG and DDS imports; 469f, a release candidate, also compiles every `.uc`
under the package folder, which `ut469` does not assume: it follows 469a-e) and from
Unreal 227's stock classes (OldUnreal/Unreal-PubSrc: `MESH SOCKET`, `MESH COLLISION`, `OBJ
COLLISIONBRUSH`, `OBJ SET`, `HD=`, `.fx` textures). UT v469 keeps Epic's v436 handlers, so every
rule applies to it as to UT99, plus its additions; under Unreal 227, keys its handlers might
read are not judged (`exec-unknown-key` stays quiet, `exec-ignored-key` is an info) and image
types are not checked. Without a game, a command or key only an OldUnreal build has is an
info."#,
        rules: &[
            &super::exec_unknown_directive::RULE,
            &super::exec_preprocessed_source::RULE,
            &super::exec_unterminated_comment::RULE,
            &super::exec_line_too_long::RULE,
            &super::exec_value_cut_by_comment::RULE,
            &super::exec_unterminated_quote::RULE,
            &super::exec_unknown_command::RULE,
            &super::exec_ignored_command::RULE,
            &super::exec_unknown_key::RULE,
            &super::exec_misspelt_key::RULE,
            &super::exec_ignored_key::RULE,
            &super::exec_bool_read_as_false::RULE,
            &super::exec_shadowed_key::RULE,
            &super::exec_missing_key::RULE,
            &super::exec_missing_file::RULE,
            &super::exec_path_case::RULE,
            &super::exec_path_outside_package::RULE,
            &super::exec_unresolved_path::RULE,
            &super::exec_unreadable_file::RULE,
            &super::exec_lfs_pointer::RULE,
            &super::exec_duplicate_name::RULE,
            &super::exec_undefined_name::RULE,
            &super::exec_notify_unknown_sequence::RULE,
            &super::exec_sequence_out_of_range::RULE,
            &super::exec_mesh_vertex_mismatch::RULE,
            &super::exec_unused_texture_slot::RULE,
            &super::exec_missing_texture_slot::RULE,
            &super::exec_lodparams_without_lod::RULE,
            &super::exec_texture_unimportable::RULE,
            &super::exec_sound_not_pcm::RULE,
        ],
    },
];

/// The text under the heading of the retired codes.
const RETIRED_INTRO: &str = r"Rules removed because the engine's own source shows that what they found is no defect. A
configuration that names one is still accepted and changes nothing.";

/// One example in a rule's documentation: a fenced code block (```` ```t3d ````, or
/// ```` ```t3d fixed ```` for the corrected version) and the setup that stands before it.
///
/// A setup is an HTML comment, `<!-- example ... -->`, which Markdown viewers do not show and
/// [`for_people`] removes: it says what the example is linted with (the game, a class index,
/// the files around an `#exec` line) and holds for every example after it. The test that
/// runs the examples (`tests/rules/doc_examples.rs`, `tests/exec/doc_examples.rs`) lints
/// each one: the example shows the rule, the fixed one does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DocExample<'d> {
    /// The block's language (`t3d`, `unrealscript`).
    pub language: &'d str,
    /// The block is the corrected version (```` ```t3d fixed ````).
    pub fixed: bool,
    /// The text of the last setup comment before the block, without `<!-- example` and
    /// `-->` (empty when there is none).
    pub setup: &'d str,
    /// The block's lines, each with its line break.
    pub code: &'d str,
}

/// The fenced code blocks of `docs`, in order, each with its setup.
pub fn examples(docs: &str) -> Vec<DocExample<'_>> {
    let mut found = Vec::new();
    let mut setup = "";
    let mut rest = docs;
    loop {
        let setup_at = rest.find("<!-- example");
        let fence_at = rest.find("```");
        match (setup_at, fence_at) {
            (Some(s), f) if f.is_none_or(|f| s < f) => {
                let body = &rest[s + "<!-- example".len()..];
                let Some(end) = body.find("-->") else { break };
                setup = body[..end].trim();
                rest = &body[end + 3..];
            }
            (_, Some(f)) => {
                let after = &rest[f + 3..];
                let Some(info_end) = after.find('\n') else { break };
                let mut info = after[..info_end].split_whitespace();
                let language = info.next().unwrap_or_default();
                let fixed = info.next() == Some("fixed");
                let body = &after[info_end + 1..];
                let Some(close) = find_closing_fence(body) else { break };
                found.push(DocExample { language, fixed, setup, code: &body[..close] });
                rest = &body[close..];
                rest = rest.get(3..).unwrap_or_default();
            }
            _ => break,
        }
    }
    found
}

/// Where the fence closing a code block stands in `body` (a line of its own starting with
/// ```` ``` ````).
fn find_closing_fence(body: &str) -> Option<usize> {
    let mut at = 0;
    for line in body.split_inclusive('\n') {
        if line.trim_start().starts_with("```") {
            return Some(at + (line.len() - line.trim_start().len()));
        }
        at += line.len();
    }
    None
}

/// `docs` as people read it: the examples' setup comments removed, and a fixed example's
/// fence marked with its language alone.
pub fn for_people(docs: &str) -> String {
    let mut out = String::with_capacity(docs.len());
    let mut rest = docs;
    while let Some(start) = rest.find("<!-- example") {
        let Some(end) = rest[start..].find("-->") else { break };
        out.push_str(&rest[..start]);
        rest = &rest[start + end + 3..];
        // The comment stands on lines of its own: its line break goes with it.
        rest = rest.strip_prefix('\n').unwrap_or(rest);
    }
    out.push_str(rest);
    let mut people = String::with_capacity(out.len());
    for line in out.split_inclusive('\n') {
        let fence = line.trim_end();
        match fence.strip_suffix(" fixed") {
            Some(plain) if plain.trim_start().starts_with("```") => {
                people.push_str(plain);
                people.push_str(&line[fence.len()..]);
            }
            _ => people.push_str(line),
        }
    }
    people
}

impl RuleMeta {
    /// The rule's section of `docs/rules.md` below its heading (Markdown): the default
    /// severity, its documentation, and whether it offers a fix.
    pub fn help(&self) -> String {
        let docs = for_people(self.docs);
        let mut help = format!("Severity: {}. {}", self.severity.as_str(), docs.trim());
        match self.fix {
            Fixability::None => {}
            Fixability::Unsafe => help
                .push_str("\n\nQuick fix: offered in the editor; `lint --fix` does not apply it."),
            Fixability::Safe => {
                help.push_str("\n\nQuick fix: offered, and applied by `lint --fix`.");
            }
        }
        help
    }

    /// The first paragraph of the documentation, on one line: what the rule finds.
    pub fn description(&self) -> String {
        let docs = for_people(self.docs);
        let first = docs.trim().split("\n\n").next().unwrap_or_default();
        first.split_whitespace().collect::<Vec<_>>().join(" ")
    }
}

/// `docs/rules.md`: the introduction, every section with its rules, and the retired codes.
pub fn markdown() -> String {
    let mut out = String::from("# Rules\n\n");
    out.push_str(INTRO);
    out.push_str("\n\n");
    for section in SECTIONS {
        out.push_str("## ");
        out.push_str(section.title);
        out.push_str("\n\n");
        if !section.intro.is_empty() {
            out.push_str(section.intro);
            out.push_str("\n\n");
        }
        for rule in section.rules {
            out.push_str("### ");
            out.push_str(rule.code);
            out.push_str("\n\n");
            out.push_str(&rule.help());
            out.push_str("\n\n");
        }
    }
    out.push_str("## Retired codes\n\n");
    out.push_str(RETIRED_INTRO);
    out.push_str("\n\n");
    for retired in RETIRED_RULES {
        out.push_str("- `");
        out.push_str(retired.code);
        out.push_str("`: ");
        // List items continue indented by two spaces.
        out.push_str(&retired.docs.trim().replace('\n', "\n  "));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{examples, for_people, DocExample, SECTIONS};
    use crate::rules::all_rules;

    const DOCS: &str = "What it finds.\n\n<!-- example game=ut2004 -->\n```t3d\nBegin Map\nEnd Map\n```\n\nFix: it is fixed\n\n```t3d fixed\nBegin Map\n```\n";

    #[test]
    fn examples_are_read_with_their_setup() {
        assert_eq!(
            examples(DOCS),
            [
                DocExample {
                    language: "t3d",
                    fixed: false,
                    setup: "game=ut2004",
                    code: "Begin Map\nEnd Map\n"
                },
                DocExample {
                    language: "t3d",
                    fixed: true,
                    setup: "game=ut2004",
                    code: "Begin Map\n"
                },
            ]
        );
    }

    #[test]
    fn people_see_no_setup_and_plain_fences() {
        assert_eq!(
            for_people(DOCS),
            "What it finds.\n\n```t3d\nBegin Map\nEnd Map\n```\n\nFix: it is fixed\n\n```t3d\nBegin Map\n```\n"
        );
    }

    /// Every registered rule is documented in exactly one section, and only those.
    #[test]
    fn every_rule_is_in_one_section() {
        for rule in all_rules() {
            let listed = SECTIONS
                .iter()
                .flat_map(|s| s.rules.iter())
                .filter(|r| r.code == rule.code)
                .count();
            assert_eq!(listed, 1, "{} is listed {listed} times in SECTIONS", rule.code);
            assert!(!rule.docs.trim().is_empty(), "{} has no documentation", rule.code);
        }
        let listed: usize = SECTIONS.iter().map(|s| s.rules.len()).sum();
        assert_eq!(listed, all_rules().count());
    }
}
