//! Code actions on the polygons in a selection: recompute the normal, reverse the winding,
//! snap vertices to a grid, and set or clear a poly flag.

use unreal_syntax::t3d::{Block, BlockKind, Item, LineKeyword};
use unreal_syntax::Span;

use super::{items_in, plural, Source, TextEdit};
use crate::t3d::geometry::{self, format_vector, Vec3};
use crate::Generation;
use unreal_engine::poly_flags::{self as flags, FlagRole};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionKind {
    Quickfix,
    Refactor,
    Source,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Action {
    pub title: String,
    pub kind: ActionKind,
    pub edits: Vec<TextEdit>,
}

/// Grid sizes offered for snapping.
pub const GRID_SIZES: [f64; 5] = [1.0, 2.0, 4.0, 8.0, 16.0];

/// The actions for the polygons that intersect `range` (an empty range: the polygon at the
/// cursor).
pub fn code_actions(src: &Source<'_>, range: Span) -> Vec<Action> {
    let polygons = polygons_in(src, range);
    if polygons.is_empty() {
        return Vec::new();
    }
    let mut actions = Vec::new();
    recompute_normals(&polygons, &mut actions);
    reverse_winding(src, &polygons, &mut actions);
    snap_to_grid(&polygons, &mut actions);
    flag_actions(src, &polygons, &mut actions);
    actions
}

/// Polygons intersecting `range`, found by descending only into overlapping blocks.
pub fn polygons_in<'a>(src: &Source<'a>, range: Span) -> Vec<&'a Block> {
    let mut out = Vec::new();
    let mut stack: Vec<&'a [Item]> = vec![&src.file.items];
    while let Some(items) = stack.pop() {
        for block in items_in(items, range).filter_map(Item::as_block) {
            if block.kind == BlockKind::Polygon {
                out.push(block);
            } else {
                stack.push(&block.children);
            }
        }
    }
    out.sort_by_key(|b| b.span.start);
    out
}

fn vertices(polygon: &Block) -> Vec<Vec3> {
    polygon.vectors(LineKeyword::Vertex).map(|v| Vec3::from_array(v.value)).collect()
}

fn normal_edit(polygon: &Block, normal: Vec3) -> Option<TextEdit> {
    let line = polygon.vector(LineKeyword::Normal)?;
    let text = format_vector(normal);
    Some(TextEdit { span: line.value_span, new_text: text })
}

fn differs(a: Vec3, b: Vec3) -> bool {
    (a - b).length() > 1e-5
}

fn recompute_normals(polygons: &[&Block], out: &mut Vec<Action>) {
    let mut edits = Vec::new();
    for polygon in polygons {
        let Some(line) = polygon.vector(LineKeyword::Normal) else { continue };
        let Some(computed) = geometry::polygon_normal(&vertices(polygon)) else { continue };
        if differs(computed, Vec3::from_array(line.value)) {
            edits.extend(normal_edit(polygon, computed));
        }
    }
    if !edits.is_empty() {
        out.push(Action {
            title: format!(
                "Recompute the normal of {}",
                plural(edits.len(), "polygon", "polygons")
            ),
            kind: ActionKind::Quickfix,
            edits,
        });
    }
}

fn reverse_winding(src: &Source<'_>, polygons: &[&Block], out: &mut Vec<Action>) {
    let mut edits = Vec::new();
    let mut count = 0;
    for polygon in polygons {
        let lines: Vec<_> = polygon.vectors(LineKeyword::Vertex).collect();
        if lines.len() < 3 {
            continue;
        }
        count += 1;
        for (line, source) in lines.iter().zip(lines.iter().rev()) {
            if line.value_span != source.value_span {
                edits.push(TextEdit {
                    span: line.value_span,
                    new_text: src.slice(source.value_span).to_owned(),
                });
            }
        }
        let mut reversed = vertices(polygon);
        reversed.reverse();
        if let Some(normal) = geometry::polygon_normal(&reversed) {
            edits.extend(normal_edit(polygon, normal));
        }
    }
    if count > 0 {
        edits.sort_by_key(|e| e.span.start);
        out.push(Action {
            title: format!("Reverse the winding of {}", plural(count, "polygon", "polygons")),
            kind: ActionKind::Refactor,
            edits,
        });
    }
}

fn snap(v: Vec3, grid: f64) -> Vec3 {
    let s = |c: f64| {
        let r = (c / grid).round() * grid;
        if r == 0.0 {
            0.0
        } else {
            r
        }
    };
    Vec3::new(s(v.x), s(v.y), s(v.z))
}

fn snap_to_grid(polygons: &[&Block], out: &mut Vec<Action>) {
    for grid in GRID_SIZES {
        let mut edits = Vec::new();
        let mut moved = 0usize;
        let mut touched = 0usize;
        for polygon in polygons {
            let mut changed = false;
            let mut snapped = Vec::new();
            for line in polygon.vectors(LineKeyword::Vertex) {
                let v = Vec3::from_array(line.value);
                let s = snap(v, grid);
                snapped.push(s);
                if differs(v, s) {
                    moved += 1;
                    changed = true;
                    edits.push(TextEdit { span: line.value_span, new_text: format_vector(s) });
                }
            }
            if !changed {
                continue;
            }
            touched += 1;
            if let Some(origin) = polygon.vector(LineKeyword::Origin) {
                let v = Vec3::from_array(origin.value);
                let s = snap(v, grid);
                if differs(v, s) {
                    edits.push(TextEdit { span: origin.value_span, new_text: format_vector(s) });
                }
            }
            if let (Some(normal), Some(line)) =
                (geometry::polygon_normal(&snapped), polygon.vector(LineKeyword::Normal))
            {
                if differs(normal, Vec3::from_array(line.value)) {
                    edits.extend(normal_edit(polygon, normal));
                }
            }
        }
        if moved > 0 {
            edits.sort_by_key(|e| e.span.start);
            out.push(Action {
                title: format!(
                    "Snap {} of {} to grid {grid}",
                    plural(moved, "vertex", "vertices"),
                    plural(touched, "polygon", "polygons")
                ),
                kind: ActionKind::Refactor,
                edits,
            });
        }
    }
}

/// The flags a generation offers to set (in-game ones; with the generation unknown, those
/// whose name both generations agree on).
fn settable_flags(generation: Option<Generation>) -> Vec<&'static flags::PolyFlag> {
    (0..32)
        .map(|i| 1u32 << i)
        .filter_map(|bit| {
            if let Some(g) = generation {
                return flags::lookup(bit, g);
            }
            let ue1 = flags::lookup(bit, Generation::Ue1)?;
            let ue2 = flags::lookup(bit, Generation::Ue2)?;
            (ue1.name == ue2.name).then_some(ue1)
        })
        .filter(|f| f.role == FlagRole::InGame && f.bit != 0x8000_0000)
        .collect()
}

fn flag_actions(src: &Source<'_>, polygons: &[&Block], out: &mut Vec<Action>) {
    let current: Vec<u32> = polygons
        .iter()
        .map(|p| {
            p.attribute_value(src.text, "Flags")
                .and_then(unreal_syntax::t3d::parse_flags)
                .unwrap_or(0)
        })
        .collect();
    for flag in settable_flags(src.generation) {
        let mut set_edits = Vec::new();
        let mut clear_edits = Vec::new();
        for (polygon, &bits) in polygons.iter().zip(&current) {
            if bits & flag.bit == 0 {
                set_edits.extend(flags_edit(src, polygon, bits | flag.bit));
            } else {
                clear_edits.extend(flags_edit(src, polygon, bits & !flag.bit));
            }
        }
        let n_set = set_edits.len();
        if n_set > 0 {
            out.push(Action {
                title: format!("Set {} on {}", flag.name, plural(n_set, "polygon", "polygons")),
                kind: ActionKind::Refactor,
                edits: set_edits,
            });
        }
        let n_clear = clear_edits.len();
        if n_clear > 0 {
            out.push(Action {
                title: format!("Clear {} on {}", flag.name, plural(n_clear, "polygon", "polygons")),
                kind: ActionKind::Refactor,
                edits: clear_edits,
            });
        }
    }
}

/// The edit that makes a polygon's `Flags=` say `bits` (written as UnrealEd does: signed,
/// and absent when zero).
fn flags_edit(src: &Source<'_>, polygon: &Block, bits: u32) -> Option<TextEdit> {
    let value = (bits as i32).to_string();
    if let Some((attribute, _)) = polygon.attribute(src.text, "Flags") {
        if bits == 0 {
            // Remove ` Flags=N` with the blank before it.
            let line = src.slice(Span::new(polygon.begin_span.start, attribute.key.start));
            let blank = line.len() - line.trim_end_matches([' ', '\t']).len();
            let start = attribute.key.start - blank as u32;
            return Some(TextEdit {
                span: Span::new(start, attribute.value.end),
                new_text: String::new(),
            });
        }
        return Some(TextEdit { span: attribute.value, new_text: value });
    }
    if bits == 0 {
        return None;
    }
    // UnrealEd writes `Flags=` before `Link=`.
    let at = polygon
        .attribute(src.text, "Link")
        .map_or(polygon.begin_span.end, |(link, _)| link.key.start.saturating_sub(1));
    Some(TextEdit { span: Span::empty_at(at), new_text: format!(" Flags={value}") })
}
