//! The polygon rules against the engine's own tests, polygon for polygon, on real maps.
//!
//! This module is a second, independent port of what UnrealEd does with an imported polygon,
//! written from the engine's sources in the engine's own single precision and loop order
//! (facts from the source; the code is this project's):
//!
//! - import keeps at most 16 vertices (`FPoly::MAX_VERTICES`; UT v400
//!   `Editor/Src/UnEdFact.cpp:749-756`), then `FPoly::Finalize` runs `FPoly::Fix` (a vertex the
//!   same as the one kept before it, each coordinate within `THRESH_POINTS_ARE_SAME`, is
//!   dropped; UT2004 `Engine/Src/UnFPoly.cpp:71-92`) and `FPoly::CalcNormal` (the fan's cross
//!   products; a squared length under `THRESH_ZERO_NORM_SQUARED` drops the polygon;
//!   UnFPoly.cpp:421-437, :690-716);
//! - planarity: the BSP gives every node the plane through vertex 0 with that normal (UT2004
//!   `Editor/Src/UnBsp.cpp:231`, `:292`; UT v400 moves `Base` onto that plane before the CSG,
//!   `Editor/Src/UnBsp.cpp:1822-1824`, and builds the node plane from it, `:289`), and a point
//!   counts as on it when the BSP's splits take it so, strictly within
//!   `THRESH_SPLIT_POLY_WITH_PLANE`, 0.25 (`FPoly::SplitWithPlane`, UnFPoly.cpp:137-160, as
//!   `Editor/Src/UnBsp.cpp:548` classifies every polygon against a splitter);
//! - convexity: `FPoly::RemoveColinears` (UnFPoly.cpp:487-542): a side plane per edge, through
//!   the edge's end with normal `edge x Normal` (normalised; an edge too short to normalise
//!   drops its end vertex), a vertex whose two side normals agree within
//!   `FLOAT_NORMAL_THRESH` per component is dropped as colinear, and the polygon is not convex
//!   as soon as `FPoly::SplitWithPlane` with a side plane returns front or split, that is when
//!   some vertex is `THRESH_SPLIT_POLY_WITH_PLANE` (0.25) or more in front of it
//!   (UnFPoly.cpp:148-169).
//!
//! The rules report a polygon non-planar when the engine finds a vertex off its plane, and
//! non-convex when the engine finds it on its plane and not convex (a polygon off its plane is
//! reported once, as non-planar) unless it lies within 0.25 of its convex hull in the hull's
//! order ([`departure`], computed here by gift wrapping: the rule's own measure, not the
//! engine's test). Maps are read from `../shared/corpus/t3d` and from the
//! folder named by `UNREAL_LS_REAL_MAPS`, when set; the rule fixtures are judged too.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use unreal_analysis::lint::{lint_file, FileKind, LintOptions};

type V = [f32; 3];

const MAX_VERTICES: usize = 16;
const THRESH_POINTS_ARE_SAME: f32 = 0.002;
const THRESH_ZERO_NORM_SQUARED: f32 = 0.0001;
const THRESH_SPLIT_POLY_WITH_PLANE: f32 = 0.25;
const FLOAT_NORMAL_THRESH: f32 = 0.0001;
const SMALL_NUMBER: f32 = 1.0e-8;

fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: V, b: V) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: V, b: V) -> V {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

/// `FVector::Normalize`.
fn normalize(v: V) -> Option<V> {
    let square_sum = dot(v, v);
    if square_sum >= SMALL_NUMBER {
        let scale = 1.0 / square_sum.sqrt();
        Some([v[0] * scale, v[1] * scale, v[2] * scale])
    } else {
        None
    }
}

/// `FPoly::Fix`.
fn fix(vertices: &[V]) -> Vec<V> {
    let same = |a: V, b: V| (0..3).all(|i| (a[i] - b[i]).abs() < THRESH_POINTS_ARE_SAME);
    let mut kept: Vec<V> = Vec::new();
    let Some(&(mut prev)) = vertices.last() else { return kept };
    for &v in vertices {
        if !same(v, prev) {
            kept.push(v);
            prev = v;
        }
    }
    if kept.len() < 3 {
        kept.clear();
    }
    kept
}

/// `FPoly::CalcNormal`.
fn calc_normal(vertices: &[V]) -> Option<V> {
    let first = *vertices.first()?;
    let mut n = [0.0f32; 3];
    for i in 2..vertices.len() {
        let c = cross(sub(vertices[i - 1], first), sub(vertices[i], first));
        n = [n[0] + c[0], n[1] + c[1], n[2] + c[2]];
    }
    if dot(n, n) < THRESH_ZERO_NORM_SQUARED {
        return None;
    }
    normalize(n)
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Convexity {
    Convex,
    NotConvex,
    /// Fewer than three vertices left once near and colinear points went.
    Collapsed,
}

/// `FPoly::RemoveColinears`, as its loops run.
fn remove_colinears(mut vertex: Vec<V>, normal: V) -> Convexity {
    let mut side: Vec<V> = vec![[0.0; 3]; vertex.len()];
    let mut i = 0;
    while i < vertex.len() {
        let j = if i == 0 { vertex.len() - 1 } else { i - 1 };
        if let Some(s) = normalize(cross(sub(vertex[i], vertex[j]), normal)) {
            side[i] = s;
            i += 1;
        } else {
            vertex.remove(i);
            side.remove(i);
            if vertex.len() < 3 {
                return Convexity::Collapsed;
            }
        }
    }
    let mut i = 0;
    while i < vertex.len() {
        let j = if i + 1 >= vertex.len() { 0 } else { i + 1 };
        let near = (0..3).all(|k| (side[i][k] - side[j][k]).abs() < FLOAT_NORMAL_THRESH);
        if near {
            vertex.remove(i);
            side.remove(i);
            if vertex.len() < 3 {
                return Convexity::Collapsed;
            }
            continue;
        }
        // `SplitWithPlane` without pieces: front or split unless every vertex is less than
        // the threshold in front of the side plane.
        let max = vertex.iter().map(|&v| dot(sub(v, vertex[i]), side[i])).fold(f32::MIN, f32::max);
        if max >= THRESH_SPLIT_POLY_WITH_PLANE {
            return Convexity::NotConvex;
        }
        i += 1;
    }
    Convexity::Convex
}

/// How far the polygon lies inside its convex hull, projected on its plane (points nearer
/// than 0.25 to the one before merged): the farthest any vertex lies inside the hull edge
/// that bridges it, the hull found by gift wrapping; `None`
/// when the outline meets the hull's corners out of the hull's order (it crosses itself).
/// Not the engine's test: the rules' measure of whether what the engine builds and draws
/// differs from the hull (it splits within 0.25 of a plane and draws a fan).
fn departure(vertices: &[V], normal: V) -> Option<f32> {
    let helper = if normal[0].abs() < 0.6 { [1.0, 0.0, 0.0] } else { [0.0, 1.0, 0.0] };
    let across = normalize(cross(helper, normal))?;
    let up = cross(normal, across);
    // Points nearer in the plane than the split tolerance to the one kept before are one.
    let mut flat: Vec<(f32, f32)> = Vec::new();
    for &p in vertices {
        let point = (dot(p, across), dot(p, up));
        match flat.last() {
            Some(q) if (point.0 - q.0).hypot(point.1 - q.1) < THRESH_SPLIT_POLY_WITH_PLANE => {}
            _ => flat.push(point),
        }
    }
    while flat.len() > 1 {
        let (a, b) = (flat[flat.len() - 1], flat[0]);
        if (a.0 - b.0).hypot(a.1 - b.1) >= THRESH_SPLIT_POLY_WITH_PLANE {
            break;
        }
        flat.pop();
    }
    let n = flat.len();
    if n < 3 {
        return Some(0.0);
    }
    let turn = |o: (f32, f32), a: (f32, f32), b: (f32, f32)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    let start = (0..n)
        .min_by(|&a, &b| flat[a].0.total_cmp(&flat[b].0).then(flat[a].1.total_cmp(&flat[b].1)))?;
    let mut hull = vec![start];
    loop {
        let here = *hull.last()?;
        // The next corner: every other point lies to its left (counter-clockwise), the
        // farthest of those in line.
        let mut next = (here + 1) % n;
        for i in 0..n {
            if i == here {
                continue;
            }
            let t = turn(flat[here], flat[next], flat[i]);
            let farther = |a: (f32, f32), b: (f32, f32)| {
                (b.0 - flat[here].0).hypot(b.1 - flat[here].1)
                    > (a.0 - flat[here].0).hypot(a.1 - flat[here].1)
            };
            if t < 0.0 || (t == 0.0 && farther(flat[next], flat[i])) {
                next = i;
            }
        }
        if next == start || hull.len() > n {
            break;
        }
        hull.push(next);
    }
    if hull.len() < 3 {
        return None;
    }
    let wraps = (0..hull.len()).filter(|&k| hull[(k + 1) % hull.len()] < hull[k]).count();
    if wraps != 1 {
        return None;
    }
    let mut depth: f32 = 0.0;
    for k in 0..hull.len() {
        let (from, to) = (hull[k], hull[(k + 1) % hull.len()]);
        let length = (flat[to].0 - flat[from].0).hypot(flat[to].1 - flat[from].1);
        let mut inside = (from + 1) % n;
        while inside != to && length > 0.0 {
            depth = depth.max(turn(flat[from], flat[to], flat[inside]) / length);
            inside = (inside + 1) % n;
        }
    }
    Some(depth)
}

/// What the engine makes of one written polygon; `None` when import drops it.
#[derive(Debug)]
struct Verdict {
    planar: bool,
    convexity: Convexity,
    /// [`departure`] of the polygon import keeps.
    departure: Option<f32>,
}

fn engine_verdict(written: &[V]) -> Option<Verdict> {
    let imported = &written[..written.len().min(MAX_VERTICES)];
    let vertices = fix(imported);
    let normal = calc_normal(&vertices)?;
    let base = vertices[0];
    let planar = vertices.iter().all(|&v| {
        let d = dot(sub(v, base), normal);
        d > -THRESH_SPLIT_POLY_WITH_PLANE && d < THRESH_SPLIT_POLY_WITH_PLANE
    });
    let departure = departure(&vertices, normal);
    let convexity = remove_colinears(vertices, normal);
    Some(Verdict { planar, convexity, departure })
}

/// One `Begin Polygon` block as the text shows it: its line (1-based) and its vertices;
/// `None` vertices when a vertex line does not read as three numbers.
struct WrittenPolygon {
    line: usize,
    vertices: Option<Vec<V>>,
}

fn keyword<'a>(line: &'a str, word: &str) -> Option<&'a str> {
    let line = line.trim_start();
    let head = line.get(..word.len())?;
    let rest = &line[word.len()..];
    (head.eq_ignore_ascii_case(word) && rest.chars().next().is_none_or(char::is_whitespace))
        .then_some(rest)
}

fn read_vector(text: &str) -> Option<V> {
    let mut parts = text.trim().split(',');
    let mut v = [0.0f32; 3];
    for c in &mut v {
        // `appAtof` reads a double; the vector holds floats.
        *c = parts.next()?.trim().parse::<f64>().ok()? as f32;
    }
    parts.next().is_none().then_some(v)
}

fn written_polygons(text: &str) -> Vec<WrittenPolygon> {
    let mut out = Vec::new();
    let mut open: Option<WrittenPolygon> = None;
    for (n, line) in text.lines().enumerate() {
        if let Some(rest) = keyword(line, "Begin") {
            if keyword(rest, "Polygon").is_some() {
                open = Some(WrittenPolygon { line: n + 1, vertices: Some(Vec::new()) });
            }
        } else if let Some(rest) = keyword(line, "End") {
            if keyword(rest, "Polygon").is_some() {
                out.extend(open.take());
            }
        } else if let (Some(rest), Some(polygon)) = (keyword(line, "Vertex"), open.as_mut()) {
            let vector = read_vector(rest);
            polygon.vertices = polygon.vertices.take().and_then(|mut vs| {
                vs.push(vector?);
                Some(vs)
            });
        }
    }
    out
}

#[derive(Default)]
struct Tally {
    files: usize,
    polygons: usize,
    dropped: usize,
    too_many: usize,
    unreadable: usize,
    engine_non_planar: usize,
    engine_non_convex: usize,
    engine_non_convex_planar: usize,
    /// Of those, within 0.25 of their convex hull in its order (not reported).
    engine_non_convex_within: usize,
    engine_collapsed: usize,
    rule_non_planar: usize,
    rule_non_convex: usize,
    disagreements: Vec<String>,
}

fn check_file(path: &Path, name: &str, tally: &mut Tally) {
    let Ok(bytes) = std::fs::read(path) else { return };
    check_bytes(&bytes, name, tally);
}

fn check_bytes(bytes: &[u8], name: &str, tally: &mut Tally) {
    let linted = lint_file(FileKind::T3d, bytes, &LintOptions::default());
    let text: &str = &linted.text;
    let index = unreal_analysis::LineIndex::new(text);
    let line_of = |offset: u32| {
        index.line_col(text, offset, unreal_analysis::line_index::ColumnUnit::Chars).line as usize
            + 1
    };
    let flagged = |code: &str| -> std::collections::BTreeSet<usize> {
        linted
            .diagnostics
            .iter()
            .filter(|d| d.code == code)
            .map(|d| line_of(d.span.start))
            .collect()
    };
    let non_planar = flagged("t3d-non-planar-polygon");
    let non_convex = flagged("t3d-non-convex-polygon");
    tally.files += 1;
    tally.rule_non_planar += non_planar.len();
    tally.rule_non_convex += non_convex.len();
    for polygon in written_polygons(text) {
        let Some(vertices) = polygon.vertices else {
            tally.unreadable += 1;
            continue;
        };
        if vertices.len() > MAX_VERTICES {
            // The engine judges the first 16 vertices; the rules, the whole outline.
            tally.too_many += 1;
            continue;
        }
        let (rule_planar, rule_convex) =
            (non_planar.contains(&polygon.line), non_convex.contains(&polygon.line));
        let Some(verdict) = engine_verdict(&vertices) else {
            tally.dropped += 1;
            if rule_planar || rule_convex {
                tally.disagreements.push(format!(
                    "{name}:{}: the engine drops the polygon at import, the rules report it",
                    polygon.line
                ));
            }
            continue;
        };
        tally.polygons += 1;
        tally.engine_non_planar += usize::from(!verdict.planar);
        let engine_convex = verdict.convexity == Convexity::NotConvex;
        tally.engine_non_convex += usize::from(engine_convex);
        tally.engine_non_convex_planar += usize::from(engine_convex && verdict.planar);
        tally.engine_collapsed += usize::from(verdict.convexity == Convexity::Collapsed);
        let engine_non_planar = !verdict.planar;
        if rule_planar != engine_non_planar {
            tally.disagreements.push(format!(
                "{name}:{}: non-planar: rule {rule_planar}, engine {engine_non_planar}",
                polygon.line
            ));
        }
        let departs = verdict.departure.is_none_or(|d| d >= THRESH_SPLIT_POLY_WITH_PLANE);
        tally.engine_non_convex_within += usize::from(engine_convex && verdict.planar && !departs);
        if rule_convex != (engine_convex && verdict.planar && departs) {
            tally.disagreements.push(format!(
                "{name}:{}: non-convex: rule {rule_convex}, engine {verdict:?}",
                polygon.line
            ));
        }
    }
}

fn report(label: &str, tally: &Tally) {
    eprintln!(
        "{label}: {} files, {} polygons judged ({} dropped at import, {} over 16 vertices, \
         {} unreadable); engine: {} non-planar, {} not convex ({} of them planar, {} of those \
         within 0.25 of their hull), {} collapsed; rules: {} non-planar, {} non-convex",
        tally.files,
        tally.polygons,
        tally.dropped,
        tally.too_many,
        tally.unreadable,
        tally.engine_non_planar,
        tally.engine_non_convex,
        tally.engine_non_convex_planar,
        tally.engine_non_convex_within,
        tally.engine_collapsed,
        tally.rule_non_planar,
        tally.rule_non_convex,
    );
    assert!(
        tally.disagreements.is_empty(),
        "{label}: the rules and the engine disagree on {} polygons:\n{}",
        tally.disagreements.len(),
        tally.disagreements.join("\n")
    );
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("t3d")) {
            out.push(path);
        }
    }
}

fn check_folder(label: &str, folder: &Path) {
    if !folder.is_dir() {
        eprintln!("skipped: {label}: {} is not a folder", folder.display());
        return;
    }
    let mut files = Vec::new();
    collect(folder, &mut files);
    files.sort();
    let mut tally = Tally::default();
    for path in &files {
        let name = path.strip_prefix(folder).unwrap_or(path).display().to_string();
        check_file(path, &name, &mut tally);
    }
    assert!(tally.polygons > 0, "{label}: no polygon judged in {}", folder.display());
    report(label, &tally);
}

#[test]
fn polygon_rules_agree_with_the_engine_on_real_maps() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/t3d");
    check_folder("corpus", &corpus);
    // The rules' own fixtures, whose comments say what the engine makes of each polygon.
    check_folder("rule fixtures", &super::fixtures_dir());
    match std::env::var_os("UNREAL_LS_REAL_MAPS") {
        Some(folder) => check_folder("UNREAL_LS_REAL_MAPS", Path::new(&folder)),
        None => eprintln!("skipped: UNREAL_LS_REAL_MAPS is not set (a folder of real T3D maps)"),
    }
}

/// The port itself, on outlines whose verdict is plain.
#[test]
fn the_engine_port_judges_plain_outlines() {
    let square = [[0.0, 0.0, 0.0], [0.0, 128.0, 0.0], [128.0, 128.0, 0.0], [128.0, 0.0, 0.0]];
    let v = engine_verdict(&square).unwrap();
    assert!(v.planar);
    assert_eq!(v.convexity, Convexity::Convex);
    // A dent of 0.1 in the middle of a side leaves the far corner 0.2 outside the line of
    // the edge into it, within the splitter's tolerance; a dent of 0.2, 0.4: not convex.
    let dent = |d: f32| {
        [
            [0.0, 0.0, 0.0],
            [0.0, 128.0, 0.0],
            [64.0, 128.0 - d, 0.0],
            [128.0, 128.0, 0.0],
            [128.0, 0.0, 0.0],
        ]
    };
    assert_eq!(engine_verdict(&dent(0.1)).unwrap().convexity, Convexity::Convex);
    assert_eq!(engine_verdict(&dent(0.2)).unwrap().convexity, Convexity::NotConvex);
    // Off the plane through vertex 0 by 0.12: within the splits' 0.25, in the plane; by 0.3,
    // not.
    let lifted =
        |z: f32| [[0.0, 0.0, 0.0], [0.0, 128.0, 0.0], [128.0, 128.0, z], [128.0, 0.0, 0.0]];
    assert!(engine_verdict(&lifted(0.24)).unwrap().planar);
    assert!(!engine_verdict(&lifted(0.6)).unwrap().planar);
    // Two points the same: dropped by `Fix`, the rest judged.
    let repeated = [[0.0, 0.0, 0.0], [0.0, 0.0, 0.001], [0.0, 128.0, 0.0], [128.0, 0.0, 0.0]];
    assert_eq!(fix(&repeated).len(), 3);
    assert!(engine_verdict(&[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]]).is_none());
}

/// A small deterministic generator (a linear congruential one), so that the outlines below
/// are the same on every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 =
            self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }

    fn below(&mut self, n: usize) -> usize {
        ((self.next() * n as f64) as usize).min(n - 1)
    }
}

/// Outlines near the engine's limits, written as UnrealEd writes them: convex polygons (and
/// stars) of 4 to 16 vertices, 4 to 4,000 units across, turned every way, with a vertex added
/// on an edge and pushed in by up to 0.6 units (the limit is 0.25 as measured from the far
/// vertices), lifted off the plane by up to 0.6 (the limit is 0.25), set on the one before
/// (merged by `Fix`) or slid along its edge (colinear), and written in either order.
#[test]
#[allow(clippy::many_single_char_names)] // points and coordinates, named as geometry names them
fn polygon_rules_agree_with_the_engine_on_generated_outlines() {
    let mut rng = Lcg(41);
    let mut text = String::from("Begin PolyList\r\n");
    for _ in 0..3000 {
        let n = 4 + rng.below(12);
        let radius = 2.0 + rng.next() * 2000.0;
        let squash = 0.2 + rng.next();
        // One outline in six is a star: its vertices at radii up to 1.5 times apart.
        let star = rng.below(6) == 0;
        let mut points: Vec<[f64; 3]> = (0..n)
            .map(|i| {
                let a = std::f64::consts::TAU * (i as f64 + 0.3 * rng.next()) / n as f64;
                let r = if star { radius * (0.5 + rng.next()) } else { radius };
                [r * a.cos(), r * a.sin() * squash, 0.0]
            })
            .collect();
        let k = rng.below(n);
        match rng.below(5) {
            0 => {
                // A vertex on an edge, pushed towards the centre.
                let (p, q) = (points[k], points[(k + 1) % n]);
                let t = 0.05 + 0.9 * rng.next();
                let mut v = [p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t, 0.0];
                let depth = rng.next() * 0.6;
                let len = v[0].hypot(v[1]).max(1e-9);
                v[0] -= v[0] / len * depth;
                v[1] -= v[1] / len * depth;
                points.insert(k + 1, v);
            }
            1 => points[k][2] += rng.next() * 0.6 * if rng.next() < 0.5 { -1.0 } else { 1.0 },
            2 => {
                let prev = points[(k + n - 1) % n];
                points[k] = [prev[0] + 0.001, prev[1], prev[2]];
            }
            3 => {
                let next = points[(k + 1) % n];
                let t = rng.next();
                let prev = points[(k + n - 1) % n];
                points[k] = [
                    prev[0] + (next[0] - prev[0]) * t,
                    prev[1] + (next[1] - prev[1]) * t,
                    prev[2] + (next[2] - prev[2]) * t,
                ];
            }
            _ => {}
        }
        if rng.next() < 0.5 {
            points.reverse();
        }
        // Turned about two axes and moved.
        let (yaw, pitch) = (rng.next() * std::f64::consts::TAU, rng.next() * std::f64::consts::PI);
        let offset =
            [rng.next() * 8000.0 - 4000.0, rng.next() * 8000.0 - 4000.0, rng.next() * 4000.0];
        text.push_str("   Begin Polygon\r\n");
        for p in &points {
            let (x, y) = (p[0] * yaw.cos() - p[1] * yaw.sin(), p[0] * yaw.sin() + p[1] * yaw.cos());
            let (y, z) =
                (y * pitch.cos() - p[2] * pitch.sin(), y * pitch.sin() + p[2] * pitch.cos());
            let _ = write!(
                text,
                "      Vertex   {:+013.6},{:+013.6},{:+013.6}\r\n",
                x + offset[0],
                y + offset[1],
                z + offset[2]
            );
        }
        text.push_str("   End Polygon\r\n");
    }
    text.push_str("End PolyList\r\n");
    let mut tally = Tally::default();
    check_bytes(text.as_bytes(), "generated", &mut tally);
    report("generated", &tally);
    assert!(tally.engine_non_convex_planar > 100 && tally.engine_non_planar > 100);
}
