//! Diagnostic rules, one module per rule, registered in [`T3D_RULES`] and [`EXEC_RULES`]
//! (retired codes in [`RETIRED_RULES`]). Each module exposes `RULE` (its code, default
//! severity, one-line summary, scope, fixability and, in `DOCS` beside it, its documentation)
//! and `check`, which appends what it finds. `docs/rules.md` is printed from this registry
//! ([`docs::markdown`]), and so are `unreal-ls rules` and the SARIF rule help.

use std::fmt::Write as _;

mod actor_links;
mod actor_values;
mod context;
pub mod docs;
pub(crate) mod exec_bool_read_as_false;
pub(crate) mod exec_duplicate_name;
pub(crate) mod exec_ignored_command;
pub(crate) mod exec_ignored_key;
pub(crate) mod exec_lfs_pointer;
pub(crate) mod exec_line_too_long;
pub(crate) mod exec_lodparams_without_lod;
pub(crate) mod exec_mesh_vertex_mismatch;
pub(crate) mod exec_missing_file;
pub(crate) mod exec_missing_key;
pub(crate) mod exec_missing_texture_slot;
pub(crate) mod exec_misspelt_key;
pub(crate) mod exec_notify_unknown_sequence;
pub(crate) mod exec_path_case;
pub(crate) mod exec_path_outside_package;
pub(crate) mod exec_preprocessed_source;
pub(crate) mod exec_sequence_out_of_range;
pub(crate) mod exec_shadowed_key;
pub(crate) mod exec_sound_not_pcm;
pub(crate) mod exec_texture_unimportable;
pub(crate) mod exec_undefined_name;
pub(crate) mod exec_unknown_command;
pub(crate) mod exec_unknown_directive;
pub(crate) mod exec_unknown_key;
pub(crate) mod exec_unreadable_file;
pub(crate) mod exec_unresolved_path;
pub(crate) mod exec_unterminated_comment;
pub(crate) mod exec_unterminated_quote;
pub(crate) mod exec_unused_texture_slot;
pub(crate) mod exec_value_cut_by_comment;
mod map_facts;
pub mod summary;
pub(crate) mod t3d_abstract_class;
pub(crate) mod t3d_actor_duplicated_in_place;
pub(crate) mod t3d_actor_without_class;
pub(crate) mod t3d_bad_texture_axes;
pub(crate) mod t3d_beyond_world_edge;
pub(crate) mod t3d_blank_before_equals;
pub(crate) mod t3d_degenerate_polygon;
pub(crate) mod t3d_duplicate_actor_name;
pub(crate) mod t3d_duplicate_level_info;
pub(crate) mod t3d_malformed_number;
pub(crate) mod t3d_missing_brush_reference;
pub(crate) mod t3d_missing_draw_resource;
pub(crate) mod t3d_negative_extra_cost;
pub(crate) mod t3d_nesting_too_deep;
pub(crate) mod t3d_no_player_start;
pub(crate) mod t3d_non_convex_polygon;
pub(crate) mod t3d_non_planar_polygon;
pub(crate) mod t3d_normal_mismatch;
pub(crate) mod t3d_not_t3d;
pub(crate) mod t3d_obsolete_class;
pub(crate) mod t3d_obsolete_light_effect;
pub(crate) mod t3d_polygon_outside_polylist;
pub(crate) mod t3d_static_flag_cleared;
pub(crate) mod t3d_stray_line;
pub(crate) mod t3d_too_few_vertices;
pub(crate) mod t3d_too_many_vertices;
pub(crate) mod t3d_unanswered_event;
pub(crate) mod t3d_unbalanced_block;
pub(crate) mod t3d_unknown_class;
pub(crate) mod t3d_unknown_object;
pub(crate) mod t3d_unknown_poly_flag;
pub(crate) mod t3d_unknown_polygon_line;
pub(crate) mod t3d_unknown_texture;
pub(crate) mod t3d_unmatched_ai_script_tag;
pub(crate) mod t3d_unmatched_attach_tag;
pub(crate) mod t3d_unmatched_teleporter_url;
pub(crate) mod t3d_unreadable_class;
pub(crate) mod t3d_unresolved_brush_model;
pub(crate) mod t3d_untitled_level;
pub(crate) mod t3d_zero_gravity;

pub use context::{PolygonFacts, T3dContext};
use t3d_actor_duplicated_in_place::fold_shared_names;

use unreal_syntax::Span;

use crate::options::LintOptions;
use crate::{Diagnostic, Severity};

/// A rule's identity and what every part of the tool needs to know of it: `unreal-ls rules`,
/// SARIF and the settings know it by code, severity and summary; the incremental document runs
/// it by its scope; `lint --fix` leaves a file alone when a syntax rule reports it;
/// `docs/rules.md` prints its documentation and fixability.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleMeta {
    pub code: &'static str,
    pub severity: Severity,
    pub summary: &'static str,
    /// What part of a document the rule reads.
    pub scope: Scope,
    /// Its findings mean the file's structure or numbers could not be read: fixes and
    /// formatting leave such a file alone.
    pub syntax: bool,
    /// Whether its findings carry a fix, and whether `lint --fix` applies it.
    pub fix: Fixability,
    /// Its documentation in Markdown: why it matters, the engine basis, an example and the
    /// fix. `docs/rules.md` prints it after a `Severity: <default>.` lead (see [`docs`]).
    pub docs: &'static str,
}

/// Whether a rule's findings carry a machine-applicable fix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fixability {
    /// No finding carries a fix.
    None,
    /// Findings may carry a fix that is only offered (an editor's quick fix): it guesses
    /// (the nearest name) or depends on more than the file.
    Unsafe,
    /// Findings may carry a fix that `lint --fix` applies.
    Safe,
}

/// What part of a document a rule reads, which decides how an open document re-runs it
/// after an edit (`document/diagnostics.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// One top-level block (an actor, a brush) at a time: re-run only for the blocks an edit
    /// touched.
    Local,
    /// Compares blocks, from a summary each block keeps (names defined and referenced):
    /// registered with its [`summary::Summarized`] form.
    Summarized,
    /// Only the top-level lines and whether any block exists.
    TopLevel,
    /// The whole tree at once: correct but slow for an open document; a new rule should find
    /// one of the scopes above.
    WholeTree,
    /// An UnrealScript file's directives (the `#exec` rules).
    UnrealScript,
}

impl RuleMeta {
    /// The defaults of a T3D rule that reads one block at a time.
    pub const T3D_LOCAL: RuleMeta = RuleMeta {
        code: "",
        severity: Severity::Warning,
        summary: "",
        scope: Scope::Local,
        syntax: false,
        fix: Fixability::None,
        docs: "",
    };
    /// The defaults of an `#exec` rule.
    pub const UNREALSCRIPT: RuleMeta =
        RuleMeta { scope: Scope::UnrealScript, ..RuleMeta::T3D_LOCAL };
}

/// True when `code` is a rule whose findings mean the file could not be read as written.
pub fn is_syntax_error(code: &str) -> bool {
    find_rule(code).is_some_and(|rule| rule.syntax)
}

/// The most related locations one finding lists. A name used 100,000 times (generated or
/// hostile text) is one finding that says how many; a frame of every use helps nobody.
pub(crate) const MAX_LABELS: usize = 20;

impl RuleMeta {
    pub fn diagnostic(&self, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(self.code, self.severity, span, message)
    }
}

/// A T3D rule: its identity and its check.
pub struct T3dRule {
    pub meta: &'static RuleMeta,
    pub check: fn(&T3dContext<'_>, &mut Vec<Diagnostic>),
    /// How a [`Scope::Summarized`] rule summarizes a part and reports from the summaries
    /// (its `check` does both over the whole tree).
    pub summarized: Option<&'static dyn summary::Summarized>,
}

/// The summarized form of each rule of [`T3D_RULES`] that has one, in registry order.
pub fn summarized_rules() -> impl Iterator<Item = &'static dyn summary::Summarized> {
    T3D_RULES.iter().filter_map(|rule| rule.summarized)
}

/// How many rules [`summarized_rules`] gives.
pub fn summarized_rule_count() -> usize {
    static COUNT: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *COUNT.get_or_init(|| summarized_rules().count())
}

macro_rules! t3d_rules {
    (@summarized $module:ident) => { None };
    (@summarized $module:ident summarized) => { Some(&$module::Summarizer) };
    ($($module:ident $($summarized:ident)?),* $(,)?) => {
        /// Every T3D rule, in the order they run and are listed (`docs/rules.md` groups
        /// them by [`docs::SECTIONS`]).
        pub static T3D_RULES: &[T3dRule] = &[
            $(T3dRule {
                meta: &$module::RULE,
                check: $module::check,
                summarized: t3d_rules!(@summarized $module $($summarized)?),
            },)*
        ];
    };
}

t3d_rules![
    t3d_not_t3d,
    t3d_unbalanced_block,
    t3d_nesting_too_deep,
    t3d_malformed_number,
    t3d_stray_line,
    t3d_unknown_polygon_line,
    t3d_polygon_outside_polylist,
    t3d_too_few_vertices,
    t3d_too_many_vertices,
    t3d_degenerate_polygon,
    t3d_non_convex_polygon,
    t3d_non_planar_polygon,
    t3d_normal_mismatch,
    t3d_bad_texture_axes,
    t3d_unknown_poly_flag,
    t3d_actor_without_class,
    t3d_blank_before_equals,
    t3d_duplicate_actor_name summarized,
    t3d_duplicate_level_info summarized,
    t3d_unresolved_brush_model summarized,
    t3d_missing_brush_reference,
    t3d_unmatched_attach_tag summarized,
    t3d_unmatched_ai_script_tag summarized,
    t3d_unmatched_teleporter_url summarized,
    t3d_unanswered_event summarized,
    t3d_negative_extra_cost,
    t3d_zero_gravity,
    t3d_obsolete_light_effect,
    t3d_actor_duplicated_in_place summarized,
    t3d_untitled_level,
    t3d_static_flag_cleared,
    t3d_obsolete_class,
    t3d_missing_draw_resource,
    t3d_beyond_world_edge,
    t3d_no_player_start summarized,
    t3d_unknown_texture,
    t3d_unknown_class,
    t3d_abstract_class,
    t3d_unreadable_class summarized,
    t3d_unknown_object,
];

/// An `#exec` rule: its identity and its check.
pub struct ExecRule {
    pub meta: &'static RuleMeta,
    pub check: fn(&crate::exec::ExecContext<'_>, &mut Vec<Diagnostic>),
}

macro_rules! exec_rules {
    ($($module:ident),* $(,)?) => {
        /// Every `#exec` rule, in the order they run and are listed.
        pub static EXEC_RULES: &[ExecRule] = &[
            $(ExecRule { meta: &$module::RULE, check: $module::check },)*
        ];
    };
}

exec_rules![
    exec_unknown_directive,
    exec_preprocessed_source,
    exec_unterminated_comment,
    exec_line_too_long,
    exec_value_cut_by_comment,
    exec_unterminated_quote,
    exec_unknown_command,
    exec_ignored_command,
    exec_unknown_key,
    exec_misspelt_key,
    exec_ignored_key,
    exec_bool_read_as_false,
    exec_shadowed_key,
    exec_missing_key,
    exec_missing_file,
    exec_path_case,
    exec_path_outside_package,
    exec_unresolved_path,
    exec_unreadable_file,
    exec_lfs_pointer,
    exec_duplicate_name,
    exec_undefined_name,
    exec_notify_unknown_sequence,
    exec_sequence_out_of_range,
    exec_mesh_vertex_mismatch,
    exec_unused_texture_slot,
    exec_missing_texture_slot,
    exec_lodparams_without_lod,
    exec_texture_unimportable,
    exec_sound_not_pcm,
];

/// The identity of every rule, for listings and configuration checks.
pub fn all_rules() -> impl Iterator<Item = &'static RuleMeta> {
    T3D_RULES.iter().map(|r| r.meta).chain(EXEC_RULES.iter().map(|r| r.meta))
}

/// Finds a rule by its code.
pub fn find_rule(code: &str) -> Option<&'static RuleMeta> {
    all_rules().find(|r| r.code == code)
}

/// A rule that was removed because the engine shows what it found to be no defect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetiredRule {
    pub code: &'static str,
    /// Why it was removed, with the engine's source (Markdown, for `docs/rules.md`).
    pub docs: &'static str,
}

/// Codes of rules that were removed because the engine shows them to be no defect, with
/// why. A configuration that names one is still valid (it changes nothing), so that
/// `unreal-ls.toml` files written for earlier versions keep working.
pub static RETIRED_RULES: &[RetiredRule] = &[
    RetiredRule {
        code: "t3d-origin-off-plane",
        docs: r"a texture `Origin` off the polygon's plane is no defect: import
keeps it as written as the polygon's texture base (UT2004 `Editor/Src/UnEdFact.cpp:1620-1624`),
CSG stores it as the surface's `pBase` (`Editor/Src/UnBsp.cpp:218`), and every texture
coordinate is `(P - Base) . Axis` (`Engine/Src/UnModel.cpp:1034-1040`), so the map shows
exactly the mapping its lines write, wherever the base lies along the normal; with both axes in
the plane the offset changes no coordinate at all. UnrealEd keeps the origin when a brush
moves, so shipped maps are full of them (DM-Deck17: 1,700).",
    },
    RetiredRule {
        code: "t3d-editor-poly-flag",
        docs: r"editor-only poly flags (`PF_Memorized`, `PF_Selected`,
`PF_EdProcessed`/`PF_FlatShaded`, UE1's `PF_Highlighted`) are what UnrealEd's own exporter
writes into every map, and the polygon importer clears them (`Poly.PolyFlags &=
~PF_NoImport` in `UPolysFactory::FactoryCreateText`, Editor/Src/UnEdFact.cpp, UT v400 and
UT2004). The hover on `Flags=` still names them as editor-only and dropped on import.",
    },
    RetiredRule {
        code: "exec-directive-not-at-line-start",
        docs: r"UCC does not look at line starts. `#` is one of the
tokens `CompileDeclaration` accepts wherever a declaration or statement may begin (UT2004
`Editor/Src/UnScrCom.cpp:5662-5668`, reached from 6197; UT v400 `Editor/Src/UnScrCom.cpp:4450`,
4889), and the command is the rest of that line (`GetRawToken`, UT2004 UnScrCom.cpp:975-1000).
So `var int Ammo; #exec AUDIO IMPORT FILE=Sounds\Hit.wav` runs the directive; text that
leaves a statement unfinished before the `#` fails the compile with a syntax error instead.",
    },
];

/// True when `code` names a retired rule.
pub fn is_retired(code: &str) -> bool {
    RETIRED_RULES.iter().any(|retired| retired.code == code)
}

/// Every T3D rule over one document, sorted by position: the whole tree at once (the
/// reference an open document's and `unreal-ls lint`'s segment-wise checks are tested
/// against).
pub fn check_t3d(text: &str, options: &LintOptions) -> Vec<Diagnostic> {
    check_t3d_parsed(text, &unreal_syntax::t3d::parse(text), options)
}

/// Every T3D rule over an already parsed document.
pub fn check_t3d_parsed(
    text: &str,
    parse: &unreal_syntax::t3d::Parse,
    options: &LintOptions,
) -> Vec<Diagnostic> {
    run_t3d_rules(&T3dContext::new(text, parse, options))
}

/// The rules that judge a polygon's geometry: on the builder brush they are hints at most.
const GEOMETRY_RULES: [&str; 7] = [
    "t3d-non-planar-polygon",
    "t3d-non-convex-polygon",
    "t3d-degenerate-polygon",
    "t3d-normal-mismatch",
    "t3d-too-few-vertices",
    "t3d-too-many-vertices",
    "t3d-bad-texture-axes",
];

/// Geometry findings on the builder (red) brush are hints at most: CSG never builds it into
/// the level ([`crate::t3d::actors::ActorKind::BuilderBrush`]).
pub(crate) fn soften_on_builder_brush(context: &T3dContext<'_>, diagnostics: &mut [Diagnostic]) {
    let text = context.text;
    let builders: Vec<std::ops::Range<usize>> = context
        .blocks
        .iter()
        .filter(|(b, _)| crate::t3d::actors::is_builder_brush(b, text))
        .map(|(b, _)| b.span.range())
        .collect();
    if builders.is_empty() {
        return;
    }
    for d in diagnostics.iter_mut().filter(|d| {
        d.severity > Severity::Hint
            && GEOMETRY_RULES.contains(&d.code)
            && builders.iter().any(|r| r.contains(&d.span.range().start))
    }) {
        d.severity = Severity::Hint;
        d.message.push_str(" (on the builder brush, which CSG never builds into the level)");
    }
}

fn run_t3d_rules(context: &T3dContext<'_>) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for rule in T3D_RULES {
        (rule.check)(context, &mut diagnostics);
    }
    soften_on_builder_brush(context, &mut diagnostics);
    diagnostics.sort_by(|a, b| {
        (a.span.start, a.span.end, a.code).cmp(&(b.span.start, b.span.end, b.code))
    });
    one_finding_per_defect(&mut diagnostics);
    diagnostics
}

/// The last step of a document's findings, sorted by place, wherever they were computed (the
/// whole tree, an incremental document's segments, a `.uc` file): one defect, one finding.
/// A copy in place that bears its original's name is reported once ([`fold_shared_names`]),
/// and the infos of one rule that say the same thing of several places are one finding
/// ([`crate::diagnostic::group_repeated_infos`]).
pub(crate) fn one_finding_per_defect(diagnostics: &mut Vec<Diagnostic>) {
    fold_shared_names(diagnostics);
    crate::diagnostic::group_repeated_infos(diagnostics);
}

/// Every `#exec` rule over a `.uc` file at `path` (on `env`'s file system), with its package
/// around it. Spans are byte offsets into `text`.
pub fn check_uc(path: &std::path::Path, text: &str, env: &crate::exec::ExecEnv) -> Vec<Diagnostic> {
    crate::exec::with_context(path, text, env, run_exec_rules)
}

/// Every `#exec` rule over a buffer without a path: the lines themselves and the names of
/// this file only.
pub fn check_uc_text(text: &str, options: &LintOptions) -> Vec<Diagnostic> {
    crate::exec::with_text_context(text, options, run_exec_rules)
}

/// The `#exec` rules whose findings follow from the key and command tables of Epic's handlers,
/// which a licensee's editor may extend.
/// (`exec-ignored-key` decides itself: a key every known handler ignores stays lost.)
const HANDLER_KEY_RULES: [&str; 3] =
    ["exec-unknown-key", "exec-missing-key", "exec-unknown-command"];

fn run_exec_rules(context: &crate::exec::ExecContext<'_>) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    if context.file.lines.is_empty()
        && context.file.scan_errors.is_empty()
        && context.file.preprocessed.lines.is_empty()
    {
        return diagnostics;
    }
    for rule in EXEC_RULES {
        (rule.check)(context, &mut diagnostics);
    }
    // UCC never compiles a file outside `Classes/`: nothing in it can fail or change a build,
    // so what it would do is only information.
    let orphan = context.env.is_some() && !context.file.is_package_class();
    if orphan {
        for d in &mut diagnostics {
            d.severity = d.severity.min(Severity::Info);
        }
    }
    // A licensee's editor (Deus Ex, XIII, Undying, Unreal 2...) reads keys and commands Epic's
    // do not (XIII's `COMPRESS=`, Undying's `SKELFILE=`, an early UE2's `FLAGS=`), and its
    // source is not public: what the checks know from Epic's handlers cannot be checked there.
    if let Some(game) = context.licensee() {
        keep_one_per_licensee_key(context, &mut diagnostics);
        for d in diagnostics
            .iter_mut()
            .filter(|d| d.severity > Severity::Info && HANDLER_KEY_RULES.contains(&d.code))
        {
            d.severity = Severity::Info;
            let _ = write!(
                d.message,
                " (so Epic's handlers say; the editor of game `{}`, which is not public, may read it otherwise)",
                game.name()
            );
        }
    }
    diagnostics.sort_by(|a, b| {
        (a.span.start, a.span.end, a.code).cmp(&(b.span.start, b.span.end, b.code))
    });
    crate::diagnostic::group_repeated_infos(&mut diagnostics);
    diagnostics
}

/// Under a licensee's game, a key Epic's handlers do not read that the package's classes write
/// again and again (Harry Potter 2's `COMPRESSION=` on 977 texture imports) is one key of that
/// editor: said once, at its first use in the package's first class (in path order) that
/// writes it, with how often it is written; its other uses say nothing more.
fn keep_one_per_licensee_key(
    context: &crate::exec::ExecContext<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let mut seen: Vec<String> = Vec::new();
    diagnostics.retain_mut(|d| {
        if d.code != "exec-unknown-key" {
            return true;
        }
        let token = d.span.text(context.text);
        let Some((name, _)) = token.split_once('=') else { return true };
        let name = name.trim().to_ascii_uppercase();
        let files = &context.table.files;
        let uses: usize =
            files.iter().map(|f| f.licensee_keys.iter().filter(|k| **k == name).count()).sum();
        if uses < 2 {
            return true;
        }
        let first = files.iter().position(|f| f.licensee_keys.contains(&name));
        if first != Some(context.table.current) || seen.contains(&name) {
            return false;
        }
        let classes = files.iter().filter(|f| f.licensee_keys.contains(&name)).count();
        let _ = write!(
            d.message,
            "; written {uses} times in {classes} classes of this package, said here once"
        );
        seen.push(name);
        true
    });
}

#[cfg(test)]
mod tests {
    use super::{all_rules, Scope, EXEC_RULES, T3D_RULES};

    /// Every T3D rule says how an open document runs it (none falls back to a whole parse on
    /// every edit), every `#exec` rule is an UnrealScript rule, and codes are unique.
    #[test]
    fn every_rule_has_a_scope_and_a_unique_code() {
        for rule in T3D_RULES {
            assert!(
                matches!(rule.meta.scope, Scope::Local | Scope::Summarized | Scope::TopLevel),
                "{}: {:?}",
                rule.meta.code,
                rule.meta.scope
            );
        }
        for rule in T3D_RULES {
            let summarized = rule.meta.scope == Scope::Summarized;
            assert_eq!(rule.summarized.is_some(), summarized, "{}", rule.meta.code);
        }
        for rule in EXEC_RULES {
            assert_eq!(rule.meta.scope, Scope::UnrealScript, "{}", rule.meta.code);
        }
        let mut codes: Vec<&str> = all_rules().map(|r| r.code).collect();
        codes.sort_unstable();
        let total = codes.len();
        codes.dedup();
        assert_eq!(codes.len(), total);
        let syntax: Vec<&str> = all_rules().filter(|r| r.syntax).map(|r| r.code).collect();
        assert_eq!(
            syntax,
            ["t3d-not-t3d", "t3d-unbalanced-block", "t3d-nesting-too-deep", "t3d-malformed-number"]
        );
    }
}
