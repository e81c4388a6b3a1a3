//! The editor's BSP CSG, step by step as UT v400's `Editor/Src/UnBsp.cpp` performs it: a BSP
//! of the world's surfaces (`UModel` nodes: a plane, a convex polygon, front/back children and
//! a chain of coplanar nodes), polygons filtered through it (`FilterEdPoly`, `FilterLeaf`,
//! with the coplanar double pass that classifies a polygon lying on a node's plane by what
//! stands in front of it and behind it), and `bspBrushCSG`: the brush's polygons filtered
//! through the world and kept by the add or subtract rules, then every world polygon
//! filtered through a small BSP of the brush and kept or discarded by the same rules seen
//! from the world, then `bspCleanup`.
//!
//! Between the structural and the detail pass the world's tree is built anew from its own
//! polygons ([`Bsp::repartition`], `bspRepartition`): the same area, but other cells, and a
//! detail brush's faces, once added, divide the whole cell they land in for the detail
//! brushes after them (docs/csg.md, "Detail brushes").
//!
//! What is left out: the point and vector tables (each node keeps its own vertices),
//! `bspAddPoint`'s merging of near points, zones, bounds and `bspOptGeom`'s T-joint vertices.
//! None of them changes which area a structural brush builds; the point merging moves
//! vertices by fractions of a unit, which is enough to give the repartitioned tree other
//! splitters than the engine's.
//!
//! A brush polygon's kept pieces are added as they reach their leaves, as the engine adds
//! them from inside its filter; pieces added so are new nodes, which never count as CSG
//! (`IsCsg`) until the brush is done, so later pieces of the same polygon are classified the
//! same.
//! Every walk of a tree uses a work list, not recursion: a deep tree cannot exhaust the
//! stack.

// Geometry names its points, planes and counts with single letters, as the engine does.
#![allow(clippy::many_single_char_names)]

use super::V3;

/// `THRESH_SPLIT_POLY_WITH_PLANE`: a vertex within this distance of a plane is on it.
pub const THRESH_SPLIT_POLY_WITH_PLANE: f64 = 0.25;
/// `THRESH_POINTS_ARE_SAME` (per coordinate).
pub const THRESH_POINTS_ARE_SAME: f64 = 0.002;
/// `FPoly::MAX_VERTICES` (UE1 and UE2) and the count from which a polygon is halved.
pub const MAX_VERTICES: usize = 16;
const VERTEX_THRESHOLD: usize = MAX_VERTICES - 2;
/// `FLOAT_NORMAL_THRESH`: two unit normals this near on every axis are the same direction.
const FLOAT_NORMAL_THRESH: f64 = 0.0001;
/// `SMALL_NUMBER`: a vector whose squared length is under this has no direction.
const SMALL_NUMBER: f64 = 1e-8;

pub const PF_NOT_SOLID: u32 = 0x0000_0008;
pub const PF_SEMISOLID: u32 = 0x0000_0020;
pub const PF_PORTAL: u32 = 0x0400_0000;
pub const PF_MEMORIZED: u32 = 0x0100_0000;
pub const PF_SELECTED: u32 = 0x0200_0000;
pub const PF_ED_PROCESSED: u32 = 0x4000_0000;
pub const PF_ED_CUT: u32 = 0x8000_0000;

const NF_NOT_CSG: u8 = 0x01;
const NF_IS_NEW: u8 = 0x20;

pub fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub fn add(a: V3, b: V3) -> V3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

pub fn scale(a: V3, s: f64) -> V3 {
    [a[0] * s, a[1] * s, a[2] * s]
}

pub fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub fn cross(a: V3, b: V3) -> V3 {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

/// `FVector::Normalize`: the unit vector, `None` when the vector is too short to have one.
fn normalized(v: V3) -> Option<V3> {
    let square = dot(v, v);
    (square >= SMALL_NUMBER).then(|| scale(v, 1.0 / square.sqrt()))
}

/// `FPoly::CalcNormal`: the normalized sum of the fan's cross products; `None` when the
/// polygon has no area (`THRESH_ZERO_NORM_SQUARED`).
pub fn calc_normal(v: &[V3]) -> Option<V3> {
    let first = *v.first()?;
    let mut n = [0.0; 3];
    for pair in v.get(1..)?.windows(2) {
        n = add(n, cross(sub(pair[0], first), sub(pair[1], first)));
    }
    let len2 = dot(n, n);
    (len2 >= 0.0001).then(|| scale(n, 1.0 / len2.sqrt()))
}

/// An editor polygon (`FPoly`) on its way through the CSG.
#[derive(Clone, Debug)]
pub struct EdPoly {
    pub vertices: Vec<V3>,
    pub normal: V3,
    pub base: V3,
    pub flags: u32,
    /// The surface the polygon's nodes belong to (`iLink`).
    pub surf: usize,
}

impl EdPoly {
    /// `FPoly::Reverse`.
    fn reverse(&mut self) {
        self.normal = scale(self.normal, -1.0);
        self.vertices.reverse();
    }

    /// `FPoly::Fix`: drops vertices the same as the one before; the count left, 0 under 3.
    fn fix(&mut self) -> usize {
        let same = |p: V3, q: V3| (0..3).all(|i| (p[i] - q[i]).abs() < THRESH_POINTS_ARE_SAME);
        let mut out: Vec<V3> = Vec::with_capacity(self.vertices.len());
        let mut prev = self.vertices.last().copied();
        for &v in &self.vertices {
            if prev.is_some_and(|p| same(v, p)) {
                continue;
            }
            out.push(v);
            prev = Some(v);
        }
        if out.len() < 3 {
            out.clear();
        }
        self.vertices = out;
        self.vertices.len()
    }

    /// `FPoly::SplitInHalf`: this keeps the first half, the other half is returned.
    fn split_in_half(&mut self) -> EdPoly {
        let n = self.vertices.len();
        let m = n / 2;
        let mut other = self.clone();
        other.vertices = self.vertices[m..].to_vec();
        other.vertices.push(self.vertices[0]);
        self.vertices.truncate(m + 1);
        self.flags |= PF_ED_CUT;
        other.flags |= PF_ED_CUT;
        other
    }

    /// `FPoly::RemoveColinears`: drops a vertex too near the one before it, then each vertex
    /// whose two edges run the same way; whether what is left is convex (`false` also when
    /// fewer than three vertices are left, which empties it). As in the engine, an edge's
    /// direction is worked out once, so the first vertex keeps the one it had with the last
    /// vertex as it was first found.
    fn remove_colinears(&mut self) -> bool {
        let normal = self.normal;
        let mut side: Vec<V3> = vec![[0.0; 3]; self.vertices.len()];
        let mut i = 0;
        while i < self.vertices.len() {
            let n = self.vertices.len();
            let j = if i == 0 { n - 1 } else { i - 1 };
            if let Some(s) = normalized(cross(sub(self.vertices[i], self.vertices[j]), normal)) {
                side[i] = s;
                i += 1;
            } else {
                self.vertices.remove(i);
                if self.vertices.len() < 3 {
                    self.vertices.clear();
                    return false;
                }
            }
        }
        side.truncate(self.vertices.len());
        let mut i = 0;
        while i < self.vertices.len() {
            let n = self.vertices.len();
            let j = (i + 1) % n;
            let near = (0..3).all(|k| (side[i][k] - side[j][k]).abs() < FLOAT_NORMAL_THRESH);
            if near {
                self.vertices.remove(i);
                side.remove(i);
                if self.vertices.len() < 3 {
                    self.vertices.clear();
                    return false;
                }
            } else {
                if matches!(
                    split_with_plane(self, self.vertices[i], side[i], false),
                    Split::Front | Split::Split(..)
                ) {
                    return false;
                }
                i += 1;
            }
        }
        true
    }
}

/// `ESplitType`, with the two pieces of a split.
pub enum Split {
    Coplanar,
    Front,
    Back,
    Split(EdPoly, EdPoly),
}

/// `FPoly::SplitWithPlane` (not "very precise"): vertices within 0.25 of the plane take the
/// side of the vertex before them; a piece that collapses makes the whole polygon the other
/// side's.
pub fn split_with_plane(poly: &EdPoly, base: V3, normal: V3, want_pieces: bool) -> Split {
    #[derive(Clone, Copy, PartialEq)]
    enum Side {
        Front,
        Back,
        Either,
    }
    let t = THRESH_SPLIT_POLY_WITH_PLANE;
    let dist = |v: V3| dot(sub(v, base), normal);
    let (mut max, mut min) = (f64::MIN, f64::MAX);
    let mut prev_status = Side::Either;
    for &v in &poly.vertices {
        let d = dist(v);
        max = max.max(d);
        min = min.min(d);
        if d > t {
            prev_status = Side::Front;
        } else if d < -t {
            prev_status = Side::Back;
        }
    }
    if max < t && min > -t {
        return Split::Coplanar;
    } else if max < t {
        return Split::Back;
    } else if min > -t {
        return Split::Front;
    }
    if !want_pieces {
        return Split::Split(poly.clone(), poly.clone());
    }
    let mut front = poly.clone();
    front.flags |= PF_ED_CUT;
    front.vertices.clear();
    let mut back = front.clone();
    let n = poly.vertices.len();
    let mut j = n - 1;
    let mut d = poly.vertices.last().map_or(0.0, |&v| dist(v));
    for i in 0..n {
        let prev_d = d;
        let vi = poly.vertices[i];
        d = dist(vi);
        let status = if d > t {
            Side::Front
        } else if d < -t {
            Side::Back
        } else {
            prev_status
        };
        if status == prev_status {
            if status == Side::Front {
                front.vertices.push(vi);
            } else {
                back.vertices.push(vi);
            }
        } else if d >= -t && d < t {
            // This point lies on the plane.
            front.vertices.push(vi);
            back.vertices.push(vi);
        } else if prev_d >= -t && prev_d < t {
            // The previous point lies on the plane.
            let vj = poly.vertices[j];
            let side = if status == Side::Front { &mut front } else { &mut back };
            side.vertices.push(vj);
            side.vertices.push(vi);
        } else {
            let vj = poly.vertices[j];
            let edge = sub(vi, vj);
            let denom = dot(edge, normal);
            let k = if denom == 0.0 { 0.0 } else { dot(sub(base, vj), normal) / denom };
            let x = add(vj, scale(edge, k));
            front.vertices.push(x);
            back.vertices.push(x);
            if prev_status == Side::Front {
                back.vertices.push(vi);
            } else {
                front.vertices.push(vi);
            }
        }
        j = i;
        prev_status = status;
    }
    if front.fix() < 3 {
        Split::Back
    } else if back.fix() < 3 {
        Split::Front
    } else {
        Split::Split(front, back)
    }
}

/// `EPolyNodeFilter`: where a piece of a filtered polygon ended up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    Outside,
    Inside,
    CoplanarOutside,
    CoplanarInside,
    CospatialFacingIn,
    CospatialFacingOut,
}

/// `ENodePlace`: where a piece would be added to the tree it was filtered through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Root,
    Front(usize),
    Back(usize),
    Plane(usize),
}

/// A piece of a filtered polygon in its leaf.
pub struct Leaf {
    pub poly: EdPoly,
    pub filter: Filter,
    pub place: Place,
}

/// What every node of a surface shares (`FBspSurf`).
#[derive(Clone, Debug)]
pub struct Surf {
    pub base: V3,
    pub normal: V3,
    pub flags: u32,
    /// The caller's tag: which brush and polygon the surface came from.
    pub brush: usize,
    pub brush_poly: usize,
}

#[derive(Clone, Debug)]
pub struct Node {
    /// The node's own plane (`Node.Plane`): normal and distance from the origin.
    pub normal: V3,
    pub dist: f64,
    pub vertices: Vec<V3>,
    pub surf: usize,
    pub flags: u8,
    pub front: Option<usize>,
    pub back: Option<usize>,
    pub coplanar: Option<usize>,
}

/// An axis-aligned box: what a node's subtree holds, for [`Bsp::all_outside_in`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    pub min: V3,
    pub max: V3,
}

impl Bounds {
    /// Holds nothing: the union's identity.
    pub const EMPTY: Bounds = Bounds { min: [f64::INFINITY; 3], max: [f64::NEG_INFINITY; 3] };
    /// Holds everything: what a point that is not a number gets, so that nothing about it is
    /// ever concluded from a box.
    const ALL: Bounds = Bounds { min: [f64::NEG_INFINITY; 3], max: [f64::INFINITY; 3] };

    pub fn of(points: &[V3]) -> Bounds {
        let mut b = Bounds::EMPTY;
        for p in points {
            if p.iter().any(|c| c.is_nan()) {
                return Bounds::ALL;
            }
            for (i, &c) in p.iter().enumerate() {
                b.min[i] = b.min[i].min(c);
                b.max[i] = b.max[i].max(c);
            }
        }
        b
    }

    /// The box of every polygon's points.
    pub fn around<'a>(polygons: impl IntoIterator<Item = &'a [V3]>) -> Bounds {
        polygons.into_iter().fold(Bounds::EMPTY, |b, p| b.union(Bounds::of(p)))
    }

    pub(crate) fn union(self, o: Bounds) -> Bounds {
        let mut b = self;
        for i in 0..3 {
            b.min[i] = b.min[i].min(o.min[i]);
            b.max[i] = b.max[i].max(o.max[i]);
        }
        b
    }

    fn contains(&self, o: &Bounds) -> bool {
        (0..3).all(|i| self.min[i] <= o.min[i] && self.max[i] >= o.max[i])
    }

    /// Whether the two boxes overlap or lie within `margin` of each other on every axis.
    pub(crate) fn meets(&self, o: &Bounds, margin: f64) -> bool {
        (0..3).all(|i| self.min[i] <= o.max[i] + margin && o.min[i] <= self.max[i] + margin)
    }

    fn is_empty(&self) -> bool {
        (0..3).any(|i| self.min[i] > self.max[i])
    }

    /// The least and the greatest distance of the box's points from a plane, and how far the
    /// computed distance of a point in the box may stray from the exact one.
    fn distances(&self, base: V3, normal: V3) -> (f64, f64, f64) {
        let centre = scale(add(self.min, self.max), 0.5);
        let half = scale(sub(self.max, self.min), 0.5);
        let d = dot(sub(centre, base), normal);
        let r = half[0] * normal[0].abs() + half[1] * normal[1].abs() + half[2] * normal[2].abs();
        // Rounding in a distance grows with the coordinates; a millionth of a unit per
        // thousand units is far above it and far below the 0.25 that classifies.
        let magnitude = (0..3)
            .map(|i| self.min[i].abs().max(self.max[i].abs()).max(base[i].abs()))
            .fold(1.0, f64::max);
        (d - r, d + r, magnitude * 1e-9)
    }
}

/// A BSP (`UModel`): nodes from the root at 0, surfaces, and whether space outside every node
/// is empty (`RootOutside`: false for a level, whose world starts solid; true for a brush).
#[derive(Clone, Debug, Default)]
pub struct Bsp {
    pub nodes: Vec<Node>,
    pub surfs: Vec<Surf>,
    pub root_outside: bool,
    /// Each node's parent (the node whose front, back or coplanar link holds it), kept as the
    /// links change: what lets [`Bsp::cleanup`] visit only the empty nodes, not the tree.
    parent: Vec<Option<usize>>,
    /// Each node's subtree (the node, its front, back and coplanar subtrees) lies in this box;
    /// boxes grow as nodes are added and never shrink (a removed node's box still holds what
    /// took its place).
    bounds: Vec<Bounds>,
    /// Nodes that became empty (or stayed empty through a cleanup): the cleanup's work.
    empties: Vec<usize>,
    /// The first node added since the last cleanup (the new ones are from here on).
    new_from: usize,
    /// The cleanup under way: the empty nodes it has yet to visit and those it visited.
    pass: Option<CleanupPass>,
    /// Nodes visited so far (filters, walks, boxes, cleanups): what the build's time grows
    /// with, counted so that a bound on it does not depend on the machine ([`Bsp::steps`]).
    steps: std::cell::Cell<usize>,
}

/// One cleanup's work list ([`Bsp::cleanup`]).
#[derive(Clone, Debug, Default)]
struct CleanupPass {
    /// (depth, node): the deepest first.
    heap: std::collections::BinaryHeap<(usize, usize)>,
    queued: rustc_hash::FxHashSet<usize>,
    done: rustc_hash::FxHashSet<usize>,
}

/// `FCoplanarInfo`.
#[derive(Clone, Copy)]
struct Coplanar {
    original: Option<usize>,
    back_node: Option<usize>,
    back_node_outside: bool,
    front_leaf_outside: bool,
    processing_back: bool,
}

/// A piece of a polygon to filter, and where it is.
struct Task {
    at: At,
    poly: EdPoly,
    info: Coplanar,
    outside: bool,
}

/// Where a [`Task`]'s piece is: at a node, to go down from, or at a leaf it goes into, where
/// the engine's recursion calls `FilterLeaf` only once the pieces before it are done.
#[derive(Clone, Copy)]
enum At {
    Node(usize),
    Leaf(Place),
}

/// The pieces of one polygon on their way down a tree: `FilterEdPoly`'s recursion as a work
/// list (not recursion, however deep the tree), in its order: a split's front piece and all
/// that comes of it, then its back piece; the second half of a polygon with too many vertices
/// before the first.
struct Pieces {
    tasks: Vec<Task>,
    arrived: Vec<Leaf>,
}

impl Pieces {
    fn new(bsp: &Bsp, poly: EdPoly) -> Pieces {
        let mut pieces = Pieces { tasks: Vec::new(), arrived: Vec::new() };
        if bsp.nodes.is_empty() {
            let filter = if bsp.root_outside { Filter::Outside } else { Filter::Inside };
            pieces.arrived.push(Leaf { poly, filter, place: Place::Root });
        } else {
            let outside = bsp.root_outside;
            let task = Task { at: At::Node(0), poly, info: NOT_COPLANAR, outside };
            pieces.tasks.push(task);
        }
        pieces
    }

    /// The next pieces to reach their leaves in `bsp` (which may have grown since the last
    /// call); `None` once every piece has.
    fn next(&mut self, bsp: &Bsp) -> Option<Vec<Leaf>> {
        while self.arrived.is_empty() {
            let t = self.tasks.pop()?;
            let (tasks, arrived) = (&mut self.tasks, &mut self.arrived);
            match t.at {
                At::Node(node) => bsp.filter_ed_poly(node, t, tasks, arrived),
                At::Leaf(place) => {
                    Bsp::filter_leaf(t.poly, t.info, t.outside, place, tasks, arrived);
                }
            }
        }
        Some(std::mem::take(&mut self.arrived))
    }
}

const NOT_COPLANAR: Coplanar = Coplanar {
    original: None,
    back_node: None,
    back_node_outside: false,
    front_leaf_outside: false,
    processing_back: false,
};

impl Bsp {
    /// An empty tree (`root_outside`: whether space outside every node is empty).
    pub fn new(root_outside: bool) -> Bsp {
        Bsp { root_outside, ..Bsp::default() }
    }

    /// Nodes visited so far in this tree by filters, walks, boxes and cleanups.
    pub fn steps(&self) -> usize {
        self.steps.get()
    }

    fn step(&self, n: usize) {
        self.steps.set(self.steps.get().saturating_add(n));
    }

    fn is_csg(&self, node: usize) -> bool {
        self.nodes
            .get(node)
            .is_some_and(|n| !n.vertices.is_empty() && n.flags & (NF_IS_NEW | NF_NOT_CSG) == 0)
    }

    /// The plane a node splits with: its surface's base and normal.
    fn split_plane(&self, node: usize) -> (V3, V3) {
        let surf = self.nodes.get(node).and_then(|n| self.surfs.get(n.surf));
        surf.map_or(([0.0; 3], [0.0, 0.0, 1.0]), |s| (s.base, s.normal))
    }

    /// `BspFilterFPoly`: every piece of `poly` with where it ended, in the engine's order.
    pub fn filter(&self, poly: EdPoly) -> Vec<Leaf> {
        let mut pieces = Pieces::new(self, poly);
        let mut out = Vec::new();
        while let Some(arrived) = pieces.next(self) {
            out.extend(arrived);
        }
        out
    }

    /// `BspFilterFPoly` whose filter function adds pieces to this tree as they arrive, as
    /// `AddBrushToWorldFunc` calls `bspAddNode` from inside the engine's filter: a piece that
    /// comes later passes the nodes the earlier ones made. `add` says what to add for a piece
    /// (the leaf, node flags and polygon), or nothing.
    pub fn filter_adding(
        &mut self,
        poly: EdPoly,
        mut add: impl FnMut(Leaf) -> Option<(Place, u8, EdPoly)>,
    ) {
        let mut pieces = Pieces::new(self, poly);
        while let Some(arrived) = pieces.next(self) {
            for leaf in arrived {
                if let Some((place, flags, piece)) = add(leaf) {
                    self.add_node(place, flags, &piece);
                }
            }
        }
    }

    /// `FilterEdPoly`: one piece down the tree until it reaches a leaf; the pieces a split
    /// makes go to `tasks`.
    fn filter_ed_poly(
        &self,
        mut node: usize,
        task: Task,
        tasks: &mut Vec<Task>,
        out: &mut Vec<Leaf>,
    ) {
        let Task { mut poly, mut info, mut outside, .. } = task;
        loop {
            if poly.vertices.len() >= VERTEX_THRESHOLD {
                // The second half is filtered first; this one waits at this node.
                let other = poly.split_in_half();
                let first = std::mem::replace(&mut poly, other);
                tasks.push(Task { at: At::Node(node), poly: first, info, outside });
            }
            let Some(n) = self.nodes.get(node) else { return };
            self.step(1);
            let (base, normal) = self.split_plane(node);
            let mut front = false;
            match split_with_plane(&poly, base, normal, true) {
                Split::Front => front = true,
                Split::Back => {
                    outside = outside && !self.is_csg(node);
                    match n.back {
                        None => {
                            Self::filter_leaf(poly, info, outside, Place::Back(node), tasks, out);
                            return;
                        }
                        Some(b) => node = b,
                    }
                }
                Split::Coplanar => {
                    if info.original.is_some() {
                        // "Out-of-place coplanar": handled as front.
                        front = true;
                    } else {
                        info.original = Some(node);
                        info.back_node = None;
                        info.processing_back = false;
                        info.back_node_outside = outside;
                        let mut new_front_outside = outside;
                        let (our_front, our_back) = if dot(n.normal, poly.normal) >= 0.0 {
                            if self.is_csg(node) {
                                info.back_node_outside = false;
                                new_front_outside = true;
                            }
                            (n.front, n.back)
                        } else {
                            if self.is_csg(node) {
                                info.back_node_outside = true;
                                new_front_outside = false;
                            }
                            (n.back, n.front)
                        };
                        match (our_front, our_back) {
                            (None, None) => {
                                info.processing_back = true;
                                info.front_leaf_outside = new_front_outside;
                                let leaf_outside = info.back_node_outside;
                                let place = Place::Plane(node);
                                Self::filter_leaf(poly, info, leaf_outside, place, tasks, out);
                                return;
                            }
                            (None, Some(b)) => {
                                info.processing_back = true;
                                info.back_node = Some(b);
                                info.front_leaf_outside = new_front_outside;
                                node = b;
                                outside = info.back_node_outside;
                            }
                            (Some(f), b) => {
                                info.processing_back = false;
                                info.back_node = b;
                                node = f;
                                outside = new_front_outside;
                            }
                        }
                    }
                }
                Split::Split(front_poly, back_poly) => {
                    let (front_outside, back_outside) =
                        if self.is_csg(node) { (true, false) } else { (outside, outside) };
                    // The back piece waits (even for its leaf) until the front one and all
                    // that comes of it are done, as in the engine.
                    let back = (n.back, Place::Back(node));
                    Self::descend(back, back_poly, info, back_outside, tasks);
                    let front = (n.front, Place::Front(node));
                    Self::descend(front, front_poly, info, front_outside, tasks);
                    return;
                }
            }
            if front {
                outside = outside || self.is_csg(node);
                match n.front {
                    None => {
                        Self::filter_leaf(poly, info, outside, Place::Front(node), tasks, out);
                        return;
                    }
                    Some(f) => node = f,
                }
            }
        }
    }

    /// Sends a piece of a split polygon to the node's child on one side or, where the node
    /// has none there, into the leaf `place`: a task, taken up after the tasks pushed after it.
    fn descend(
        (child, place): (Option<usize>, Place),
        poly: EdPoly,
        info: Coplanar,
        outside: bool,
        tasks: &mut Vec<Task>,
    ) {
        let at = child.map_or(At::Leaf(place), At::Node);
        tasks.push(Task { at, poly, info, outside });
    }

    /// `FilterLeaf`.
    fn filter_leaf(
        poly: EdPoly,
        mut info: Coplanar,
        mut leaf_outside: bool,
        place: Place,
        tasks: &mut Vec<Task>,
        out: &mut Vec<Leaf>,
    ) {
        let Some(original) = info.original else {
            let filter = if leaf_outside { Filter::Outside } else { Filter::Inside };
            out.push(Leaf { poly, filter, place });
            return;
        };
        if !info.processing_back {
            info.front_leaf_outside = leaf_outside;
            match info.back_node {
                None => leaf_outside = info.back_node_outside,
                Some(back) => {
                    info.processing_back = true;
                    let outside = info.back_node_outside;
                    tasks.push(Task { at: At::Node(back), poly, info, outside });
                    return;
                }
            }
        }
        let filter = match (leaf_outside, info.front_leaf_outside) {
            (false, false) => Filter::CoplanarInside,
            (true, true) => Filter::CoplanarOutside,
            (false, true) => Filter::CospatialFacingOut,
            (true, false) => Filter::CospatialFacingIn,
        };
        out.push(Leaf { poly, filter, place: Place::Plane(original) });
    }

    /// `bspAddNode` (without the point table): the node's index.
    pub fn add_node(&mut self, place: Place, mut flags: u8, poly: &EdPoly) -> usize {
        let surf_flags = self.surfs.get(poly.surf).map_or(0, |s| s.flags);
        if surf_flags & PF_NOT_SOLID != 0 {
            flags |= NF_NOT_CSG;
        }
        let mut p = poly.clone();
        p.fix();
        let index = self.nodes.len();
        if p.vertices.is_empty() {
            self.empties.push(index);
        }
        self.parent.push(None);
        let bounds = Bounds::of(&p.vertices);
        self.bounds.push(bounds);
        self.nodes.push(Node {
            normal: poly.normal,
            dist: dot(poly.normal, poly.base),
            vertices: p.vertices,
            surf: poly.surf,
            flags,
            front: None,
            back: None,
            coplanar: None,
        });
        match place {
            Place::Root => {}
            Place::Front(parent) | Place::Back(parent) => {
                let front = matches!(place, Place::Front(_));
                let occupant =
                    self.nodes.get(parent).and_then(|n| if front { n.front } else { n.back });
                match occupant {
                    // A piece of the same polygon took the leaf already (the engine would
                    // have filtered this piece onto it): a coplanar of that piece.
                    Some(o) => self.link_coplanar(o, index),
                    None => {
                        if let Some(n) = self.nodes.get_mut(parent) {
                            if front {
                                n.front = Some(index);
                            } else {
                                n.back = Some(index);
                            }
                            self.set_parent(Some(index), parent);
                        }
                    }
                }
            }
            Place::Plane(parent) => self.link_coplanar(parent, index),
        }
        if let Some(parent) = self.parent.get(index).copied().flatten() {
            self.grow_bounds(parent, bounds);
        }
        index
    }

    /// `node`'s subtree gained what lies in `b`: its box and its ancestors' take it in, up to
    /// the first that holds it already.
    fn grow_bounds(&mut self, mut node: usize, b: Bounds) {
        if b.is_empty() {
            return;
        }
        // A parent link that loops (it never should) cannot hold the walk up: each step
        // goes to a node whose box did not hold `b` and does after the step.
        loop {
            self.step(1);
            let Some(slot) = self.bounds.get_mut(node) else { return };
            if slot.contains(&b) {
                return;
            }
            *slot = slot.union(b);
            match self.parent.get(node).copied().flatten() {
                Some(p) if node != 0 => node = p,
                _ => return,
            }
        }
    }

    fn link_coplanar(&mut self, mut parent: usize, index: usize) {
        while let Some(next) = self.nodes.get(parent).and_then(|n| n.coplanar) {
            parent = next;
        }
        if let Some(n) = self.nodes.get_mut(parent) {
            n.coplanar = Some(index);
            self.set_parent(Some(index), parent);
            self.note_link_change(parent, false);
        }
    }

    fn set_parent(&mut self, child: Option<usize>, parent: usize) {
        if let Some(slot) = child.and_then(|c| self.parent.get_mut(c)) {
            *slot = Some(parent);
        }
    }

    /// Node 0 took another node's place: what hangs below it now hangs below 0.
    fn adopt_at_root(&mut self) {
        if let Some(n) = self.nodes.first() {
            let links = [n.front, n.back, n.coplanar];
            for child in links {
                self.set_parent(child, 0);
            }
        }
    }

    /// How deep a node lies below the root, following its parents and checking each link;
    /// `None` for a node no longer in the tree.
    fn depth(&self, mut node: usize) -> Option<usize> {
        let mut depth = 0;
        while node != 0 {
            self.step(1);
            let parent = (*self.parent.get(node)?)?;
            let n = self.nodes.get(parent)?;
            if n.front != Some(node) && n.back != Some(node) && n.coplanar != Some(node) {
                return None;
            }
            node = parent;
            depth += 1;
            if depth > self.nodes.len() {
                return None;
            }
        }
        Some(depth)
    }

    /// Marks a node emptied (its polygon cut away) for the next cleanup.
    fn empty_node(&mut self, node: usize) {
        if let Some(n) = self.nodes.get_mut(node) {
            n.vertices.clear();
            self.empties.push(node);
        }
    }

    /// `bspCleanup`: clears the new flags, drops empty nodes that have a coplanar or at most
    /// one child.
    ///
    /// The engine walks the whole tree, each node after its children; only empty nodes change,
    /// so this visits the empty nodes that could change, the deepest first (a node after all
    /// of its descendants, as in the walk; nodes of which neither lies below the other touch
    /// different links, so their order between them does not matter), and the new ones for
    /// their flags: the same tree, without a walk of it for every brush.
    ///
    /// An empty node that stays (two children, no coplanar) stays until one of its links
    /// changes, so it is not visited again until then: the link changes note it
    /// ([`Bsp::note_link_change`]), for this pass when the walk would still reach it (the
    /// parent of a node just dropped), else for the next. Visiting every kept empty node at
    /// every brush made a grid of rooms, whose shared walls leave thousands of them, cost
    /// brushes x empty nodes x depth.
    pub fn cleanup(&mut self) {
        if self.nodes.is_empty() {
            self.empties.clear();
            self.new_from = 0;
            return;
        }
        for n in self.nodes.get_mut(self.new_from..).into_iter().flatten() {
            n.flags &= !NF_IS_NEW;
        }
        let mut candidates = std::mem::take(&mut self.empties);
        candidates.sort_unstable();
        candidates.dedup();
        let mut pass = CleanupPass::default();
        for i in candidates {
            if self.nodes.get(i).is_some_and(|n| n.vertices.is_empty()) {
                if let Some(depth) = self.depth(i) {
                    pass.queued.insert(i);
                    pass.heap.push((depth, i));
                }
            }
        }
        self.pass = Some(pass);
        while let Some((_, i)) = self.pass.as_mut().and_then(|p| p.heap.pop()) {
            if let Some(pass) = self.pass.as_mut() {
                pass.queued.remove(&i);
                pass.done.insert(i);
            }
            let parent = if i == 0 { None } else { self.parent.get(i).copied().flatten() };
            self.cleanup_node(i, parent);
            if self.nodes.is_empty() {
                self.empties.clear();
                break;
            }
        }
        self.pass = None;
        self.new_from = self.nodes.len();
    }

    /// A node's links changed: an empty one may now go. During a cleanup, a node the walk
    /// has yet to reach (an ancestor of the node being cleaned up, `walk_passed` false) is
    /// visited in this pass; one the walk passed already waits for the next cleanup, as in the
    /// engine's walk.
    fn note_link_change(&mut self, node: usize, walk_passed: bool) {
        if !self.nodes.get(node).is_some_and(|n| n.vertices.is_empty()) {
            return;
        }
        let depth = self.depth(node);
        match (self.pass.as_mut(), depth) {
            (Some(pass), Some(depth)) if !walk_passed && !pass.done.contains(&node) => {
                if pass.queued.insert(node) {
                    pass.heap.push((depth, node));
                }
            }
            (_, Some(_)) => self.empties.push(node),
            (_, None) => {}
        }
    }

    /// `CleanupNodes` for one node whose children are done.
    fn cleanup_node(&mut self, node: usize, parent: Option<usize>) {
        let Some(n) = self.nodes.get(node) else { return };
        if n.vertices.is_empty() {
            let n = n.clone();
            if let Some(plane) = n.coplanar {
                // Replace an empty node with its coplanar.
                let same = self.nodes.get(plane).is_some_and(|p| dot(n.normal, p.normal) >= 0.0);
                if let Some(p) = self.nodes.get_mut(plane) {
                    if same {
                        p.front = n.front;
                        p.back = n.back;
                    } else {
                        p.front = n.back;
                        p.back = n.front;
                    }
                    self.set_parent(n.front, plane);
                    self.set_parent(n.back, plane);
                }
                // The coplanar holds the node's children now: its box, theirs.
                if let Some(b) = self.bounds.get(node).copied() {
                    if let Some(slot) = self.bounds.get_mut(plane) {
                        *slot = slot.union(b);
                    }
                }
                match parent {
                    None => {
                        if let Some(p) = self.nodes.get(plane).cloned() {
                            self.nodes[0] = p;
                            self.adopt_at_root();
                            if let Some(old) = self.nodes.get_mut(plane) {
                                old.vertices.clear();
                            }
                            self.note_link_change(0, true);
                        }
                    }
                    Some(parent) => {
                        self.relink(parent, node, Some(plane));
                        self.note_link_change(plane, true);
                    }
                }
            } else if n.front.is_none() || n.back.is_none() {
                let replacement = n.front.or(n.back);
                match parent {
                    None => match replacement {
                        None => {
                            self.nodes.clear();
                            self.parent.clear();
                            self.bounds.clear();
                        }
                        Some(r) => {
                            if let Some(rn) = self.nodes.get(r).cloned() {
                                self.nodes[0] = rn;
                                self.adopt_at_root();
                                self.note_link_change(0, true);
                            }
                        }
                    },
                    Some(parent) => self.relink(parent, node, replacement),
                }
            }
        }
    }

    fn relink(&mut self, parent: usize, old: usize, new: Option<usize>) {
        if let Some(p) = self.nodes.get_mut(parent) {
            if p.front == Some(old) {
                p.front = new;
            } else if p.back == Some(old) {
                p.back = new;
            } else if p.coplanar == Some(old) {
                p.coplanar = new;
            } else {
                return;
            }
            self.set_parent(new, parent);
            self.note_link_change(parent, false);
        }
    }

    /// Whether every polygon that lies in `b`, filtered through this tree, ends outside
    /// (`Outside` or `CoplanarOutside`), whatever its shape. The box goes down every side of
    /// a node that a polygon in it could reach: one side when all of the box lies farther than
    /// the split threshold on that side (every vertex classifies the same), else both (a
    /// polygon may go either way, be split, or lie on the plane and be filtered down both).
    /// Whether a place is outside follows the filter's rule (the front of a CSG node is
    /// outside, its back inside, a non-CSG node changes nothing), so the polygon's pieces end
    /// only in leaves the box reaches, marked as the box found them. False when it cannot
    /// tell.
    pub fn all_outside_in(&self, b: &Bounds) -> bool {
        if b.is_empty() {
            return true;
        }
        if self.nodes.is_empty() {
            return self.root_outside;
        }
        let t = THRESH_SPLIT_POLY_WITH_PLANE;
        let mut stack = vec![(0, self.root_outside)];
        while let Some((node, outside)) = stack.pop() {
            self.step(1);
            let Some(n) = self.nodes.get(node) else { continue };
            let (base, normal) = self.split_plane(node);
            let (lo, hi, slack) = b.distances(base, normal);
            let csg = self.is_csg(node);
            let front = (n.front, outside || csg);
            let back = (n.back, outside && !csg);
            let sides = if lo > t + slack {
                [Some(front), None]
            } else if hi < -t - slack {
                [Some(back), None]
            } else {
                [Some(front), Some(back)]
            };
            for (child, outside) in sides.into_iter().flatten() {
                match child {
                    Some(c) => stack.push((c, outside)),
                    None if !outside => return false,
                    None => {}
                }
            }
        }
        true
    }

    /// The nodes reachable from the root (orphans of the cleanup left out), in tree order.
    pub fn reachable(&self) -> Vec<usize> {
        let mut out = Vec::new();
        if self.nodes.is_empty() {
            return out;
        }
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![0];
        while let Some(i) = stack.pop() {
            let Some(n) = self.nodes.get(i) else { continue };
            if std::mem::replace(&mut seen[i], true) {
                continue;
            }
            out.push(i);
            stack.extend([n.coplanar, n.back, n.front].into_iter().flatten());
        }
        out
    }

    /// `bspBuild(BSP_Lame, balance 0, simple polygons)`: a BSP of a brush's polygons, one
    /// surface per splitter shared by its coplanars. Once its [`Bsp::steps`] pass `budget` the
    /// rest is left unbuilt (the caller tells by the steps): a brush whose faces cut each other
    /// (a soup of 2,000 crossing triangles makes 15 million nodes in 21 s) cannot hold a build.
    pub fn build(polys: Vec<EdPoly>, surfs: &[Surf], budget: usize) -> Bsp {
        let mut bsp = Bsp { root_outside: true, ..Bsp::default() };
        bsp.split_all(polys, Partition::BRUSH, surfs, budget);
        bsp
    }

    /// `bspRepartition(Model, 0, 0)`, which `csgRebuild` runs between the structural and the
    /// detail pass: the tree's polygons taken back (`bspBuildFPolys`), each surface's pieces
    /// merged where they make a convex polygon (`bspMergeCoplanars`), and the tree built anew
    /// from them (`bspBuild(BSP_Good, 12)`, each polygon keeping its surface). The built area is
    /// the same, but the detail brushes are filtered through the new tree: where a polygon
    /// lies on a node's plane, which cell it lands in, and so whether it is kept, depends on
    /// the tree's shape (UT v400 and UT2004 `Editor/Src/UnEdCsg.cpp`).
    ///
    /// Once the tree's [`Bsp::steps`] pass `budget` the rest is left unbuilt (the caller stops
    /// the build there): a world of polygons that split each other cannot hold it for long.
    pub fn repartition(&mut self, budget: usize) {
        let polys = self.ed_polys();
        let polys = merge_coplanars(polys);
        self.nodes.clear();
        self.parent.clear();
        self.bounds.clear();
        self.empties.clear();
        self.new_from = 0;
        self.pass = None;
        self.split_all(polys, Partition::REPARTITION, &[], budget);
    }

    /// `bspBuildFPolys` (`MakeEdPolys`): each reachable node's polygon, in the tree's order,
    /// on its surface's plane, with its colinear vertices removed; those left with fewer
    /// than three vertices are dropped.
    fn ed_polys(&self) -> Vec<EdPoly> {
        let transient = PF_ED_CUT | PF_ED_PROCESSED | PF_SELECTED | PF_MEMORIZED;
        let mut polys = Vec::new();
        for i in self.reachable() {
            let Some(node) = self.nodes.get(i) else { continue };
            if node.vertices.len() < 3 {
                continue;
            }
            let Some(surf) = self.surfs.get(node.surf) else { continue };
            let mut poly = EdPoly {
                vertices: node.vertices.clone(),
                normal: surf.normal,
                base: surf.base,
                flags: surf.flags & !transient,
                surf: node.surf,
            };
            poly.remove_colinears();
            if poly.vertices.len() >= 3 {
                polys.push(poly);
            }
        }
        polys
    }

    /// `SplitPolyList` from the root, a list at a time (front before back, as the engine's
    /// recursion goes), with no recursion however deep the tree.
    fn split_all(&mut self, polys: Vec<EdPoly>, how: Partition, surfs: &[Surf], budget: usize) {
        let mut lists = vec![(Place::Root, polys)];
        while let Some((place, polys)) = lists.pop() {
            if self.steps() > budget {
                return;
            }
            if !polys.is_empty() {
                self.split_poly_list(place, polys, how, surfs, &mut lists);
            }
        }
    }

    /// `SplitPolyList`: one splitter and its coplanars; the front and back lists go to `lists`.
    /// With [`Partition::new_surfaces`] the splitter gets a surface of its own (made from
    /// `surfs`), shared by its coplanars; without, every polygon keeps its own.
    fn split_poly_list(
        &mut self,
        place: Place,
        mut polys: Vec<EdPoly>,
        how: Partition,
        surfs: &[Surf],
        lists: &mut Vec<(Place, Vec<EdPoly>)>,
    ) {
        let best = find_best_split(&polys, how);
        self.step(polys.len());
        // The list keeps its order without the splitter, as the engine's loop skips it.
        let mut split = polys.remove(best);
        let surf_index = if how.new_surfaces {
            let surf_index = self.surfs.len();
            let mut surf = surfs.get(split.surf).cloned().unwrap_or(Surf {
                base: split.base,
                normal: split.normal,
                flags: split.flags,
                brush: 0,
                brush_poly: 0,
            });
            surf.base = split.base;
            surf.normal = split.normal;
            surf.flags = split.flags;
            self.surfs.push(surf);
            split.surf = surf_index;
            Some(surf_index)
        } else {
            None
        };
        let ours = self.add_node(place, 0, &split);
        let (mut fronts, mut backs) = (Vec::new(), Vec::new());
        for mut p in polys {
            match split_with_plane(&p, split.base, split.normal, true) {
                Split::Coplanar => {
                    if let Some(surf_index) = surf_index {
                        p.surf = surf_index;
                    }
                    self.add_node(Place::Plane(ours), 0, &p);
                }
                Split::Front => fronts.push(p),
                Split::Back => backs.push(p),
                Split::Split(mut f, mut b) => {
                    // Each piece, then the second half of one with too many vertices.
                    let front_half =
                        (f.vertices.len() >= VERTEX_THRESHOLD).then(|| f.split_in_half());
                    let back_half =
                        (b.vertices.len() >= VERTEX_THRESHOLD).then(|| b.split_in_half());
                    fronts.push(f);
                    backs.push(b);
                    fronts.extend(front_half);
                    backs.extend(back_half);
                }
            }
        }
        lists.push((Place::Back(ours), backs));
        lists.push((Place::Front(ours), fronts));
    }
}

/// How `bspBuild` is asked to build: the share of the polygons `FindBestSplit` tries as
/// splitters (`BSP_Lame`: a quarter; `BSP_Good`: a twentieth), how much it weighs balance
/// against splits, and whether each splitter gets a surface of its own.
#[derive(Clone, Copy)]
struct Partition {
    samples: usize,
    balance: f64,
    new_surfaces: bool,
}

impl Partition {
    /// A brush's own BSP in `bspBrushCSG`: `bspBuild(BSP_Lame, 0, simple polygons)`.
    const BRUSH: Partition = Partition { samples: 4, balance: 0.0, new_surfaces: true };
    /// `bspRepartition`: `bspBuild(BSP_Good, 12)`, surfaces kept.
    const REPARTITION: Partition = Partition { samples: 20, balance: 12.0, new_surfaces: false };
}

/// `FindBestSplit` (UT v400 `Editor/Src/UnBsp.cpp`): from every sample step of the list the
/// first polygon that is not `PF_AddLast` (semisolid or non-solid, unless a zone portal;
/// unless every polygon is), scored against the polygons of the same sample by the splits
/// it makes (a portal's split counting 16) and, weighed by the balance, how unevenly it
/// divides them; a portal splitter's splits cost nothing; the first of the lowest score
/// wins. The index of the splitter in `polys`.
fn find_best_split(polys: &[EdPoly], how: Partition) -> usize {
    let n = polys.len();
    if n <= 1 {
        return 0;
    }
    let inc = (n / how.samples).max(1);
    let add_last = |p: &EdPoly| p.flags & (PF_SEMISOLID | PF_NOT_SOLID) != 0;
    let all_add_last = polys.iter().all(add_last);
    let mut best: Option<(usize, f64)> = None;
    for i in (0..n).step_by(inc) {
        // The first candidate at or after `i` within the sample step.
        let Some(index) = (i..(i + inc).min(n)).find(|&k| {
            let p = &polys[k];
            all_add_last || !add_last(p) || p.flags & PF_PORTAL != 0
        }) else {
            continue;
        };
        let p = &polys[index];
        let (mut splits, mut front, mut back) = (0u32, 0i64, 0i64);
        for j in (0..n).step_by(inc).filter(|&j| j != index) {
            match split_with_plane(&polys[j], p.base, p.normal, false) {
                Split::Split(..) => splits += if polys[j].flags & PF_PORTAL == 0 { 1 } else { 16 },
                Split::Front => front += 1,
                Split::Back => back += 1,
                Split::Coplanar => {}
            }
        }
        let cut = (100.0 - how.balance) * f64::from(splits);
        let mut score = cut + how.balance * (front - back).abs() as f64;
        if p.flags & PF_PORTAL != 0 {
            score -= cut;
        }
        if best.is_none_or(|(_, s)| score < s) {
            best = Some((index, score));
        }
    }
    best.map_or(0, |(index, _)| index)
}

/// `bspMergeCoplanars(Model, 0, 0)`: the polygons of each surface (on its plane, facing its
/// way) merged pairwise where two share an edge and make a convex polygon, until none
/// merges; the emptied ones dropped, the order otherwise kept.
fn merge_coplanars(mut polys: Vec<EdPoly>) -> Vec<EdPoly> {
    // The engine compares every polygon with every later one; only those of one surface can
    // merge, so each is compared with the later ones of its surface (the same lists, without
    // a pass over the whole world for every polygon: 96,000 polygons took seconds).
    let mut of_surf = rustc_hash::FxHashMap::<usize, Vec<usize>>::default();
    for (i, p) in polys.iter().enumerate() {
        if !p.vertices.is_empty() {
            of_surf.entry(p.surf).or_default().push(i);
        }
    }
    let n = polys.len();
    let mut processed = vec![false; n];
    for i in 0..n {
        if polys[i].vertices.is_empty() || processed[i] {
            continue;
        }
        processed[i] = true;
        let mut list = vec![i];
        let same_surf = of_surf.get(&polys[i].surf).map(Vec::as_slice).unwrap_or_default();
        let later = same_surf.partition_point(|&j| j <= i);
        for &j in &same_surf[later..] {
            let (a, b) = (&polys[i], &polys[j]);
            let dist = dot(sub(b.base, a.base), a.normal);
            if dist > -0.001 && dist < 0.001 && dot(b.normal, a.normal) > 0.9999 {
                processed[j] = true;
                list.push(j);
            }
        }
        if list.len() > 1 {
            merge_list(&mut polys, &list);
        }
    }
    polys.retain(|p| !p.vertices.is_empty());
    polys
}

/// `MergeCoplanars`: every pair of the list tried until a pass merges none.
fn merge_list(polys: &mut [EdPoly], list: &[usize]) {
    let mut again = true;
    while again {
        again = false;
        for (k, &i) in list.iter().enumerate() {
            if polys[i].vertices.is_empty() {
                continue;
            }
            for &j in &list[k + 1..] {
                if !polys[j].vertices.is_empty() && try_to_merge(polys, i, j) {
                    again = true;
                }
            }
        }
    }
}

/// `TryToMerge`: when polygons `i` and `j` share an edge (two points the same, in opposite
/// order) and together make a convex polygon of at most [`MAX_VERTICES`], `i` becomes that
/// polygon and `j` is emptied.
fn try_to_merge(polys: &mut [EdPoly], i: usize, j: usize) -> bool {
    let (p1, p2) = (&polys[i].vertices, &polys[j].vertices);
    let (n1, n2) = (p1.len(), p2.len());
    if n1 + n2 > MAX_VERTICES || n1 == 0 || n2 == 0 {
        return false;
    }
    let Some((start1, start2)) =
        (0..n1).find_map(|a| (0..n2).find(|&b| points_are_same(p1[a], p2[b])).map(|b| (a, b)))
    else {
        return false;
    };
    // The shared edge runs one way in one polygon and the other way in the other.
    let (end1, end2) = if points_are_same(p1[(start1 + 1) % n1], p2[(start2 + n2 - 1) % n2]) {
        ((start1 + 1) % n1, start2)
    } else if points_are_same(p1[(start1 + n1 - 1) % n1], p2[(start2 + 1) % n2]) {
        (start1, (start2 + 1) % n2)
    } else {
        return false;
    };
    let mut merged = polys[i].clone();
    merged.vertices = (0..n1).map(|k| p1[(end1 + k) % n1]).collect();
    merged.vertices.extend((1..n2 - 1).map(|k| p2[(end2 + k) % n2]));
    if merged.remove_colinears() && merged.vertices.len() <= MAX_VERTICES {
        polys[i] = merged;
        polys[j].vertices.clear();
        true
    } else {
        false
    }
}

/// `FPointsAreSame`: within [`THRESH_POINTS_ARE_SAME`] on every axis.
fn points_are_same(p: V3, q: V3) -> bool {
    (0..3).all(|k| (p[k] - q[k]).abs() < THRESH_POINTS_ARE_SAME)
}

/// `ECsgOper` for the two operations that build a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Oper {
    Add,
    Subtract,
}

/// One brush's polygons in the world, ready for [`brush_csg`]: each with its own surface.
pub struct BrushInput {
    pub polys: Vec<EdPoly>,
    /// Each polygon's own surface (its base, normal, flags and place in the brush):
    /// `polys[k].surf` indexes this.
    pub surfs: Vec<Surf>,
    /// Every polygon's `iLink` as the brush stores it, by its index in the brush (those left
    /// out for having no area too): its own index where it links to itself or to none.
    pub links: Vec<usize>,
    pub oper: Oper,
    /// The actor's `PolyFlags`.
    pub actor_flags: u32,
}

impl BrushInput {
    /// The polygons as `bspBrushCSG` takes them: the actor's flags added (less semisolid and
    /// non-solid for a subtraction), each with the surface `bspAddNode` makes of it (a
    /// subtracted polygon's from its first piece, reversed), in the brush's order.
    fn as_filtered(&self) -> Vec<(EdPoly, Surf)> {
        let not_flags = if self.oper == Oper::Add { 0 } else { PF_SEMISOLID | PF_NOT_SOLID };
        self.polys
            .iter()
            .map(|p| {
                let mut p = p.clone();
                p.flags = (p.flags | self.actor_flags) & !not_flags;
                let mut surf = self.surfs.get(p.surf).cloned().unwrap_or(Surf {
                    base: p.base,
                    normal: p.normal,
                    flags: 0,
                    brush: 0,
                    brush_poly: 0,
                });
                surf.flags = p.flags & !PF_ED_CUT;
                surf.base = p.base;
                surf.normal =
                    if self.oper == Oper::Subtract { scale(p.normal, -1.0) } else { p.normal };
                (p, surf)
            })
            .collect()
    }

    /// The brush's own BSP, which `bspBrushCSG` builds to filter the world through
    /// (`bspBuild(TempModel, BSP_Lame)`); `None` when it takes more than `budget` steps
    /// ([`Bsp::build`]).
    pub fn own_tree(&self, budget: usize) -> Option<Bsp> {
        let tree = own_tree_of(&self.as_filtered(), budget);
        (tree.steps() <= budget).then_some(tree)
    }
}

/// [`BrushInput::own_tree`] of polygons already taken as `bspBrushCSG` takes them (each with
/// a surface of its own), left part-way past `budget`.
fn own_tree_of(filtered: &[(EdPoly, Surf)], budget: usize) -> Bsp {
    let local: Vec<EdPoly> =
        filtered.iter().enumerate().map(|(i, (p, _))| EdPoly { surf: i, ..p.clone() }).collect();
    let surfs: Vec<Surf> = filtered.iter().map(|(_, s)| s.clone()).collect();
    Bsp::build(local, &surfs, budget)
}

/// `bspBrushCSG` for `CSG_Add` and `CSG_Subtract`. Returns how many pieces the world lost.
/// Once the world's [`Bsp::steps`] pass `budget` the brush is left part-way (the caller
/// stops the build there): a brush cannot hold the build for long however deep the world.
pub fn brush_csg(world: &mut Bsp, brush: &BrushInput, budget: usize) -> usize {
    let filtered = brush.as_filtered();
    // Which world surface each polygon's nodes get, as `bspBrushCSG` gives it (UT v400, UT2004
    // and Unreal v1.200 `Editor/Src/UnBsp.cpp`): a polygon that links to itself takes the
    // index the world's next surface will have, and `bspAddNode` makes a surface there only
    // when a piece of it is kept; the index is written into the brush's own copy of the
    // polygon's link. A polygon that links to another takes what that copy holds: the index
    // the other took, made by the first polygon that kept a piece after it when the other kept
    // none (a rock's top dropped against a ceiling leaves its linked faces the next face's
    // texture: DM-Pyramid); where the other has not been reached (a link forward, or through
    // a chain), the other's own link, read as a world surface's index.
    let mut copied_links = brush.links.clone();
    let mut passed = 0;
    let mut polys = Vec::with_capacity(filtered.len());
    for (p, surf) in &filtered {
        if world.steps() > budget {
            break;
        }
        let index = surf.brush_poly;
        // Polygons without area were left out; the engine's loop passes them all the same, and
        // one that links to itself takes the next index too (and makes nothing there).
        for skipped in passed..index.min(copied_links.len()) {
            if copied_links[skipped] == skipped {
                copied_links[skipped] = world.surfs.len();
            }
        }
        passed = passed.max(index + 1);
        let link = brush.links.get(index).copied().unwrap_or(index);
        let link_index = if link == index {
            if let Some(slot) = copied_links.get_mut(index) {
                *slot = world.surfs.len();
            }
            world.surfs.len()
        } else {
            copied_links.get(link).copied().unwrap_or(link)
        };
        // An index the world has: that surface. The next one: made from this polygon when a
        // piece is kept. Beyond (the engine's `check` would stop the editor): this polygon's own.
        let made = link_index >= world.surfs.len();
        let surf_index = if made {
            world.surfs.push(surf.clone());
            world.surfs.len() - 1
        } else {
            link_index
        };
        let mut ed = EdPoly { surf: surf_index, ..p.clone() };
        ed.flags &= !PF_ED_CUT;
        let mut kept = false;
        // `AddBrushToWorldFunc` and `SubtractBrushFromWorldFunc`: each kept piece is a node at
        // once, which the pieces after it pass.
        world.filter_adding(ed.clone(), |leaf| {
            let keep = match brush.oper {
                Oper::Add => match leaf.filter {
                    Filter::Outside | Filter::CoplanarOutside => true,
                    Filter::CospatialFacingOut => leaf.poly.flags & PF_SEMISOLID == 0,
                    _ => false,
                },
                Oper::Subtract => matches!(leaf.filter, Filter::Inside | Filter::CoplanarInside),
            };
            kept |= keep;
            keep.then(|| {
                let mut piece = leaf.poly;
                if brush.oper == Oper::Subtract {
                    piece.reverse();
                }
                (leaf.place, NF_IS_NEW, piece)
            })
        });
        if made && !kept {
            world.surfs.pop();
        }
        polys.push(ed);
    }
    let mut discarded = 0;
    if !world.nodes.is_empty()
        && brush.actor_flags & (PF_NOT_SOLID | PF_SEMISOLID) == 0
        && world.steps() <= budget
    {
        let left = budget.saturating_sub(world.steps());
        let brush_bsp = own_tree_of(&filtered, left);
        // A tree left part-way would cut the world wrong; its steps stop the build here.
        if brush_bsp.steps() <= left {
            let sphere = bounding_sphere(&polys);
            let outside = KeptOutside::new(&brush_bsp, &polys);
            discarded = filter_world_through_brush(world, &outside, brush.oper, sphere, left);
        }
        world.step(brush_bsp.steps());
    }
    world.cleanup();
    discarded
}

/// Farther than any level reaches (150 times `WORLD_MAX`, 65,536), and near enough that the
/// rounding of a distance stays a hundredth of a unit.
const FAR: f64 = 1e7;

/// Where a brush's BSP keeps every polygon outside, found once per brush: the six slabs of
/// space beyond the brush's box (out to [`FAR`]), each checked with [`Bsp::all_outside_in`].
/// A box that lies in a slab found so is decided by comparing its coordinates; any other by
/// going down the brush's tree. A brush whose faces do not close (or face both ways) may
/// keep inside what lies far beyond its box: its slabs are not found outside, and every box
/// goes down its tree.
struct KeptOutside<'a> {
    brush: &'a Bsp,
    /// The brush's box, a unit larger each way (beyond the split threshold).
    inner: Bounds,
    /// Whether the slab beyond `inner`'s low, then high, side on each axis is outside.
    slabs: [[bool; 2]; 3],
}

impl<'a> KeptOutside<'a> {
    fn new(brush: &'a Bsp, polys: &[EdPoly]) -> KeptOutside<'a> {
        let mut inner = Bounds::EMPTY;
        for p in polys {
            inner = inner.union(Bounds::of(&p.vertices));
        }
        for i in 0..3 {
            inner.min[i] -= 1.0;
            inner.max[i] += 1.0;
        }
        let mut slabs = [[false; 2]; 3];
        let finite = (0..3).all(|i| inner.min[i] > -FAR && inner.max[i] < FAR);
        if finite {
            for (axis, sides) in slabs.iter_mut().enumerate() {
                for (high, side) in sides.iter_mut().enumerate() {
                    let mut slab = Bounds { min: [-FAR; 3], max: [FAR; 3] };
                    if high == 1 {
                        slab.min[axis] = inner.max[axis];
                    } else {
                        slab.max[axis] = inner.min[axis];
                    }
                    *side = brush.all_outside_in(&slab);
                }
            }
        }
        KeptOutside { brush, inner, slabs }
    }

    /// [`Bsp::all_outside_in`] of the brush.
    fn all_outside_in(&self, b: &Bounds) -> bool {
        let near = (0..3).all(|i| b.min[i] >= -FAR && b.max[i] <= FAR);
        if near {
            for (axis, [low, high]) in self.slabs.iter().enumerate() {
                if (*low && b.max[axis] <= self.inner.min[axis])
                    || (*high && b.min[axis] >= self.inner.max[axis])
                {
                    return true;
                }
            }
        }
        self.brush.all_outside_in(b)
    }
}

/// `FSphere(Points, Num)`: the box's centre and the largest distance from it.
fn bounding_sphere(polys: &[EdPoly]) -> (V3, f64) {
    let mut min = [f64::MAX; 3];
    let mut max = [f64::MIN; 3];
    for v in polys.iter().flat_map(|p| &p.vertices) {
        for i in 0..3 {
            min[i] = min[i].min(v[i]);
            max[i] = max[i].max(v[i]);
        }
    }
    let c = scale(add(min, max), 0.5);
    let r = polys
        .iter()
        .flat_map(|p| &p.vertices)
        .map(|&v| dot(sub(v, c), sub(v, c)))
        .fold(0.0, f64::max)
        .sqrt();
    (c, r)
}

/// `FilterWorldThroughBrush`: every old world polygon near the brush, filtered through the
/// brush's BSP; a polygon that loses a piece is replaced by its cut pieces that stay.
///
/// The engine's walk goes down the sides of each node that the brush's bounding sphere
/// reaches, and filters the polygon of each node whose plane crosses the sphere: on a grid
/// of rooms every floor crosses every room's sphere, so the whole world was filtered for each
/// brush. A subtree whose box the brush's BSP keeps wholly outside ([`Bsp::all_outside_in`])
/// would lose nothing, so it is not walked; nor is a polygon filtered whose own box it keeps
/// outside. What is cut is what the engine's walk cuts.
fn filter_world_through_brush(
    world: &mut Bsp,
    outside: &KeptOutside,
    oper: Oper,
    sphere: (V3, f64),
    budget: usize,
) -> usize {
    let mut discarded_total = 0;
    let brush = outside.brush;
    let start = world.steps();
    // Chains still to walk: a work list, not recursion, however deep the world.
    let mut chains = vec![0];
    while let Some(first) = chains.pop() {
        if (world.steps() - start).saturating_add(brush.steps()) > budget {
            break;
        }
        let mut node = Some(first);
        while let Some(i) = node {
            let Some(n) = world.nodes.get(i) else { break };
            world.step(1);
            // New nodes (and what hangs below them) are this brush's own.
            if n.flags & NF_IS_NEW != 0 {
                break;
            }
            // This node, its coplanars and what hangs below them lie in its box.
            if world.bounds.get(i).is_some_and(|b| outside.all_outside_in(b)) {
                break;
            }
            let d = dot(n.normal, sphere.0) - n.dist;
            let (do_front, do_back) = (d >= -sphere.1, d <= sphere.1);
            let (front, back) = (n.front, n.back);
            if do_front
                && do_back
                && n.vertices.len() >= 3
                && !outside.all_outside_in(&Bounds::of(&n.vertices))
            {
                discarded_total += filter_world_polygon(world, brush, oper, i);
            }
            if do_back {
                chains.extend(back);
            }
            if do_front {
                chains.extend(front);
            }
            node = world.nodes.get(i).and_then(|n| n.coplanar);
        }
    }
    discarded_total
}

/// One world polygon through the brush's BSP: when a piece of it goes, it is replaced by its
/// cut pieces that stay. 1 when it lost a piece.
fn filter_world_polygon(world: &mut Bsp, brush: &Bsp, oper: Oper, i: usize) -> usize {
    let Some(n) = world.nodes.get(i) else { return 0 };
    let surf = world.surfs.get(n.surf);
    let poly = EdPoly {
        vertices: n.vertices.clone(),
        normal: surf.map_or(n.normal, |s| s.normal),
        base: surf.map_or(n.vertices.first().copied().unwrap_or_default(), |s| s.base),
        flags: surf.map_or(0, |s| s.flags)
            & !(PF_ED_CUT | PF_ED_PROCESSED | PF_SELECTED | PF_MEMORIZED),
        surf: n.surf,
    };
    let leaves = brush.filter(poly);
    let discards = |f: Filter| match oper {
        Oper::Add => !matches!(f, Filter::Outside | Filter::CoplanarOutside),
        Oper::Subtract => {
            matches!(f, Filter::Inside | Filter::CoplanarInside | Filter::CospatialFacingOut)
        }
    };
    if !leaves.iter().any(|l| discards(l.filter)) {
        return 0;
    }
    world.empty_node(i);
    for leaf in leaves {
        if !discards(leaf.filter) && leaf.poly.flags & PF_ED_CUT != 0 {
            world.add_node(Place::Plane(i), NF_IS_NEW, &leaf.poly);
        }
    }
    1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn poly(vertices: &[V3], surf: usize) -> EdPoly {
        let normal = calc_normal(vertices).unwrap_or([0.0, 0.0, 1.0]);
        EdPoly { vertices: vertices.to_vec(), normal, base: vertices[0], flags: 0, surf }
    }

    fn area(polys: &[EdPoly]) -> f64 {
        polys.iter().map(|p| crate::csg::polygon_area(&p.vertices)).sum()
    }

    #[test]
    fn colinear_and_repeated_vertices_are_removed_and_convexity_told() {
        // A square with a vertex halfway along one edge and one repeated.
        let mut p = poly(
            &[
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [2.0, 0.0, 0.0],
                [2.0, 2.0, 0.0],
                [0.0, 2.0, 0.0],
                [0.0, 2.0, 0.0],
            ],
            0,
        );
        assert!(p.remove_colinears());
        assert_eq!(
            p.vertices,
            vec![[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [2.0, 2.0, 0.0], [0.0, 2.0, 0.0]]
        );
        // An L is not convex; a sliver collapses.
        let mut l = poly(
            &[
                [0.0, 0.0, 0.0],
                [2.0, 0.0, 0.0],
                [2.0, 1.0, 0.0],
                [1.0, 1.0, 0.0],
                [1.0, 2.0, 0.0],
                [0.0, 2.0, 0.0],
            ],
            0,
        );
        assert!(!l.remove_colinears());
        assert_eq!(l.vertices.len(), 6);
        let mut sliver = poly(&[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]], 0);
        sliver.normal = [0.0, 0.0, 1.0];
        assert!(!sliver.remove_colinears());
        assert!(sliver.vertices.is_empty());
    }

    #[test]
    fn pieces_of_a_surface_merge_where_they_share_an_edge_and_stay_convex() {
        let a = poly(&[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]], 0);
        let b = poly(&[[1.0, 0.0, 0.0], [2.0, 0.0, 0.0], [2.0, 1.0, 0.0], [1.0, 1.0, 0.0]], 0);
        // Above `a`: together with the rest an L, which stays two polygons.
        let c = poly(&[[0.0, 1.0, 0.0], [1.0, 1.0, 0.0], [1.0, 2.0, 0.0], [0.0, 2.0, 0.0]], 0);
        // Beside `b` but of another surface.
        let d = poly(&[[2.0, 0.0, 0.0], [3.0, 0.0, 0.0], [3.0, 1.0, 0.0], [2.0, 1.0, 0.0]], 1);
        let merged = merge_coplanars(vec![a, b, c, d]);
        assert_eq!(merged.len(), 3, "{merged:?}");
        assert_eq!(merged[0].vertices.len(), 4, "a and b make one rectangle: {:?}", merged[0]);
        assert!((crate::csg::polygon_area(&merged[0].vertices) - 2.0).abs() < 1e-9);
        assert_eq!((merged[1].surf, merged[2].surf), (0, 1));
        assert!((area(&merged) - 4.0).abs() < 1e-9);
    }

    /// A box from `lo` to `hi` on X and Y and `z0` to `z1` on Z, its faces as a brush has them.
    fn cube(lo: f64, hi: f64, z0: f64, z1: f64) -> Vec<EdPoly> {
        let half = [(hi - lo) / 2.0, (hi - lo) / 2.0, (z1 - z0) / 2.0];
        let centre = [f64::midpoint(lo, hi), f64::midpoint(lo, hi), f64::midpoint(z0, z1)];
        unreal_test_support::writers::box_faces(half.map(|h| h as f32))
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let v: Vec<V3> = f.iter().map(|p| add(p.map(f64::from), centre)).collect();
                poly(&v, i)
            })
            .collect()
    }

    /// A brush of `polys`, each linked to itself.
    fn input(polys: Vec<EdPoly>, oper: Oper) -> BrushInput {
        let surfs = polys
            .iter()
            .enumerate()
            .map(|(i, p)| Surf {
                base: p.base,
                normal: p.normal,
                flags: 0,
                brush: 0,
                brush_poly: i,
            })
            .collect();
        let links = (0..polys.len()).collect();
        BrushInput { polys, surfs, links, oper, actor_flags: 0 }
    }

    /// The surface `bspBrushCSG` gives a polygon that links forward, or to one that links on
    /// (UT v400 `Editor/Src/UnBsp.cpp`, `bspBrushCSG`): the brush's own copy of the other's
    /// link, which holds a world surface's index only once that polygon has been reached, so
    /// here the other's own index in the brush, read as a world surface's (the room's fourth).
    #[test]
    fn a_link_forward_or_on_reads_the_brush_index_as_a_world_surface() {
        let mut world = Bsp::new(false);
        brush_csg(&mut world, &input(cube(0.0, 512.0, 0.0, 256.0), Oper::Subtract), usize::MAX);
        assert_eq!(world.surfs.len(), 6);
        let nodes_before = world.nodes.len();
        let mut pillar = input(cube(192.0, 320.0, 64.0, 192.0), Oper::Add);
        // Its +X side links forward to its -Y side (3), and its -X side to the +X side.
        pillar.links[0] = 3;
        pillar.links[1] = 0;
        let east = pillar.polys[0].normal;
        let west = pillar.polys[1].normal;
        brush_csg(&mut world, &pillar, usize::MAX);
        let surf_of = |normal: V3| -> Vec<usize> {
            world.nodes[nodes_before..]
                .iter()
                .filter(|n| !n.vertices.is_empty() && dot(n.normal, normal) > 0.999)
                .map(|n| n.surf)
                .collect()
        };
        assert_eq!(surf_of(east), [3]);
        assert_eq!(surf_of(west), [3]);
        // The four faces linked to themselves made one surface each.
        assert_eq!(world.surfs.len(), 10);
    }

    /// A room with a pillar: the world's tree built anew holds the same area and puts a
    /// polygon in open air outside and one in the pillar inside, as before.
    #[test]
    fn a_repartitioned_world_keeps_its_area_and_what_is_inside() {
        let mut world = Bsp::new(false);
        brush_csg(&mut world, &input(cube(0.0, 512.0, 0.0, 256.0), Oper::Subtract), usize::MAX);
        brush_csg(&mut world, &input(cube(192.0, 320.0, 0.0, 256.0), Oper::Add), usize::MAX);
        let nodes_area = |w: &Bsp| -> f64 {
            w.reachable().iter().map(|&i| crate::csg::polygon_area(&w.nodes[i].vertices)).sum()
        };
        let before = nodes_area(&world);
        let probe = |w: &Bsp, z: f64, lo: f64, hi: f64| {
            let p = poly(&[[lo, lo, z], [hi, lo, z], [hi, hi, z], [lo, hi, z]], 0);
            w.filter(p).into_iter().map(|leaf| leaf.filter).collect::<Vec<_>>()
        };
        let air = probe(&world, 100.0, 16.0, 64.0);
        let pillar = probe(&world, 100.0, 224.0, 288.0);
        // Past its budget the tree is left part-way.
        let mut partial = world.clone();
        partial.repartition(world.steps() + 1);
        world.repartition(usize::MAX);
        assert!(partial.nodes.len() < world.nodes.len(), "{}", partial.nodes.len());
        assert!((nodes_area(&world) - before).abs() < 1e-6 * before);
        assert_eq!(air, vec![Filter::Outside]);
        assert_eq!(pillar, vec![Filter::Inside]);
        assert_eq!(probe(&world, 100.0, 16.0, 64.0), air);
        assert_eq!(probe(&world, 100.0, 224.0, 288.0), pillar);
    }
}
