//! What changed between two versions of a map, in map terms: actors added, removed,
//! renamed (UnrealEd renumbers on export), moved and turned; properties changed (numbers by
//! value, structs field by field, arrays by index); brushes reshaped, retextured or moved in
//! the CSG order. What UnrealEd rewrites without meaning is left out: the order of actors
//! other than brushes, numeric formatting (`+00096.000000` is 96), editor-only poly flags,
//! the selection, renumbered model names (see [`read::IGNORED_PROPERTIES`]).
//!
//! Matching: by name first (same class); the actors left are matched by class and location
//! (and, for brushes, their polygons), which finds what renumbering renamed; what is left
//! then is added or removed.

pub mod read;

use std::collections::HashMap;

use read::{MapActor, MapActors, Polygon, PropValue};

/// How far apart two numbers may be and still be the same (UnrealEd prints six decimals).
const SAME_NUMBER: f64 = 1e-4;
/// Vertices within this distance are the same vertex (the 0.1 units).
const SAME_VERTEX: f64 = 0.1;

/// An actor named in a change: as it is in one of the maps.
#[derive(Clone, Debug, PartialEq)]
pub struct ActorRef {
    pub class: String,
    pub name: String,
    /// 1-based line of its `Begin Actor` in its file.
    pub line: u32,
    pub location: [f64; 3],
}

impl ActorRef {
    fn of(actor: &MapActor) -> Self {
        Self {
            class: actor.class.clone(),
            name: actor.name.clone(),
            line: actor.line,
            location: actor.location,
        }
    }
}

/// A property that differs: absent on one side is `None`.
#[derive(Clone, Debug, PartialEq)]
pub struct PropertyChange {
    /// `LightHue`, `LightColor.R`, `Skins(1)`.
    pub key: String,
    pub old: Option<String>,
    pub new: Option<String>,
}

/// How a brush's polygons changed (matched by their vertices within 0.1 units).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BrushChange {
    pub old_polygons: usize,
    pub new_polygons: usize,
    pub added: usize,
    pub removed: usize,
    pub retextured: usize,
    pub flags_changed: usize,
    pub realigned: usize,
}

impl BrushChange {
    pub fn is_empty(&self) -> bool {
        self.added + self.removed + self.retextured + self.flags_changed + self.realigned == 0
    }

    pub fn reshaped(&self) -> bool {
        self.added + self.removed > 0
    }
}

/// An actor in both maps and what differs.
#[derive(Clone, Debug, PartialEq)]
pub struct ActorDiff {
    pub old: ActorRef,
    pub new: ActorRef,
    /// Matched by class and location because its name changed.
    pub renamed: bool,
    /// Location delta, when it moved.
    pub moved: Option<[f64; 3]>,
    /// Pitch, Yaw, Roll deltas in degrees, when it turned.
    pub turned: Option<[f64; 3]>,
    pub properties: Vec<PropertyChange>,
    pub brush: Option<BrushChange>,
}

/// Everything that differs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MapDiff {
    pub added: Vec<ActorRef>,
    pub removed: Vec<ActorRef>,
    /// Actors in both maps with a difference, in the new map's order.
    pub changed: Vec<ActorDiff>,
    /// The CSG order of the brushes in both maps, when it changed (it changes what CSG
    /// builds).
    pub brush_order: Option<BrushOrder>,
    /// Lines of each map that could not be read (line and why): what they hold is not
    /// compared.
    pub unparsed_old: Vec<(u32, String)>,
    pub unparsed_new: Vec<(u32, String)>,
}

/// The static brushes present in both maps (those CSG builds, [`crate::csg::takes_part`]:
/// no mover, volume or builder brush), by their new names, in the old and in the new order,
/// and the fewest of them whose moves explain the change.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BrushOrder {
    pub old: Vec<String>,
    pub new: Vec<String>,
    /// The brushes that changed places (the others kept their order), in the new order.
    pub moved: Vec<OrderMove>,
}

/// A brush whose place in the CSG order changed: 1-based places among [`BrushOrder::old`]
/// and [`BrushOrder::new`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderMove {
    pub name: String,
    pub old_place: usize,
    pub new_place: usize,
}

/// Counts for the summary line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub added: usize,
    pub removed: usize,
    pub renamed: usize,
    pub moved: usize,
    pub properties: usize,
    pub reshaped: usize,
    pub brush_order_changed: bool,
}

impl MapDiff {
    /// The comparison with renames set aside: an actor only renamed (UnrealEd renumbered it)
    /// is no change, one also changed otherwise keeps those other changes.
    #[must_use]
    pub fn without_renames(mut self) -> Self {
        self.changed.retain_mut(|c| {
            c.renamed = false;
            c.moved.is_some() || c.turned.is_some() || !c.properties.is_empty() || c.brush.is_some()
        });
        self
    }

    pub fn is_empty(&self) -> bool {
        self.added.is_empty()
            && self.removed.is_empty()
            && self.changed.is_empty()
            && self.brush_order.is_none()
    }

    pub fn summary(&self) -> Summary {
        Summary {
            added: self.added.len(),
            removed: self.removed.len(),
            renamed: self.changed.iter().filter(|c| c.renamed).count(),
            moved: self.changed.iter().filter(|c| c.moved.is_some() || c.turned.is_some()).count(),
            properties: self.changed.iter().filter(|c| !c.properties.is_empty()).count(),
            reshaped: self
                .changed
                .iter()
                .filter(|c| c.brush.as_ref().is_some_and(BrushChange::reshaped))
                .count(),
            brush_order_changed: self.brush_order.is_some(),
        }
    }
}

/// Compares two maps' actors.
pub fn diff(old: &MapActors, new: &MapActors) -> MapDiff {
    let mut result = MapDiff {
        unparsed_old: old.unparsed.clone(),
        unparsed_new: new.unparsed.clone(),
        ..MapDiff::default()
    };
    let pairs = match_actors(&old.actors, &new.actors);
    let mut old_matched = vec![false; old.actors.len()];
    let mut new_to_old: Vec<Option<(usize, bool)>> = vec![None; new.actors.len()];
    for &(o, n, renamed) in &pairs {
        old_matched[o] = true;
        new_to_old[n] = Some((o, renamed));
    }
    for (n, actor) in new.actors.iter().enumerate() {
        match new_to_old[n] {
            None => result.added.push(ActorRef::of(actor)),
            Some((o, renamed)) => {
                if let Some(change) = compare(&old.actors[o], actor, renamed) {
                    result.changed.push(change);
                }
            }
        }
    }
    for (o, actor) in old.actors.iter().enumerate() {
        if !old_matched[o] {
            result.removed.push(ActorRef::of(actor));
        }
    }
    result.brush_order = brush_order(old, new, &new_to_old);
    result
}

/// Pairs (old index, new index, renamed): by name and class, then by class, location and
/// shape among the rest, in file order.
fn match_actors(old: &[MapActor], new: &[MapActor]) -> Vec<(usize, usize, bool)> {
    let key = |a: &MapActor| (a.class.to_ascii_lowercase(), a.name.to_ascii_lowercase());
    let mut by_name: HashMap<(String, String), Vec<usize>> = HashMap::new();
    for (i, actor) in old.iter().enumerate() {
        by_name.entry(key(actor)).or_default().push(i);
    }
    for list in by_name.values_mut() {
        list.reverse();
    }
    let mut pairs = Vec::new();
    let mut old_taken = vec![false; old.len()];
    let mut new_left = Vec::new();
    for (n, actor) in new.iter().enumerate() {
        match by_name.get_mut(&key(actor)).and_then(Vec::pop) {
            Some(o) => {
                old_taken[o] = true;
                pairs.push((o, n, false));
            }
            None => new_left.push(n),
        }
    }
    // Renumbered: same class, same place (to 0.01 unit), same number of brush polygons.
    let place = |a: &MapActor| {
        let round = |v: f64| (v * 100.0).round() as i64;
        (a.class.to_ascii_lowercase(), a.location.map(round), a.brush.as_ref().map(Vec::len))
    };
    let mut by_place: HashMap<_, Vec<usize>> = HashMap::new();
    for (o, actor) in old.iter().enumerate().rev() {
        if !old_taken[o] {
            by_place.entry(place(actor)).or_default().push(o);
        }
    }
    for n in new_left {
        if let Some(o) = by_place.get_mut(&place(&new[n])).and_then(Vec::pop) {
            pairs.push((o, n, true));
        }
    }
    pairs
}

fn compare(old: &MapActor, new: &MapActor, renamed: bool) -> Option<ActorDiff> {
    let delta = [0, 1, 2].map(|i| new.location[i] - old.location[i]);
    let moved = delta.iter().any(|d| d.abs() > SAME_NUMBER).then_some(delta);
    let turn = [0, 1, 2].map(|i| degrees(new.rotation[i] - old.rotation[i]));
    let turned = turn.iter().any(|d| d.abs() > 1e-3).then_some(turn);
    let properties = compare_properties(&old.properties, &new.properties);
    let brush = match (&old.brush, &new.brush) {
        (Some(a), Some(b)) => Some(compare_polygons(a, b)).filter(|c| !c.is_empty()),
        (None, None) => None,
        (a, b) => Some(BrushChange {
            old_polygons: a.as_ref().map_or(0, Vec::len),
            new_polygons: b.as_ref().map_or(0, Vec::len),
            added: b.as_ref().map_or(0, Vec::len),
            removed: a.as_ref().map_or(0, Vec::len),
            ..BrushChange::default()
        }),
    };
    let changed =
        renamed || moved.is_some() || turned.is_some() || !properties.is_empty() || brush.is_some();
    changed.then(|| ActorDiff {
        old: ActorRef::of(old),
        new: ActorRef::of(new),
        renamed,
        moved,
        turned,
        properties,
        brush,
    })
}

/// A rotation delta in Unreal units as degrees in (-180, 180].
fn degrees(units: f64) -> f64 {
    let turn = units.rem_euclid(65536.0) * 360.0 / 65536.0;
    if turn > 180.0 {
        turn - 360.0
    } else {
        turn
    }
}

/// Flattens properties to `Key` / `Key.Field` / `Key(3)` entries with printable values.
fn flatten(properties: &[(String, PropValue)]) -> Vec<(String, PropValue)> {
    let mut out = Vec::new();
    let mut stack: Vec<(String, &PropValue)> =
        properties.iter().rev().map(|(k, v)| (k.clone(), v)).collect();
    while let Some((key, value)) = stack.pop() {
        match value {
            PropValue::Struct(fields) if !fields.is_empty() => {
                for (field, v) in fields.iter().rev() {
                    let sub = if field.starts_with('(') {
                        format!("{key}{field}")
                    } else {
                        format!("{key}.{field}")
                    };
                    stack.push((sub, v));
                }
            }
            other => out.push((key, other.clone())),
        }
    }
    out
}

fn same(a: &PropValue, b: &PropValue) -> bool {
    match (a, b) {
        (PropValue::Number(x), PropValue::Number(y)) => (x - y).abs() <= SAME_NUMBER,
        (PropValue::Text(x), PropValue::Text(y)) => {
            x == y || (!x.starts_with('"') && x.eq_ignore_ascii_case(y))
        }
        _ => a == b,
    }
}

fn compare_properties(
    old: &[(String, PropValue)],
    new: &[(String, PropValue)],
) -> Vec<PropertyChange> {
    let (old, new) = (flatten(old), flatten(new));
    let index = |list: &[(String, PropValue)]| -> HashMap<String, usize> {
        let mut map = HashMap::new();
        for (i, (k, _)) in list.iter().enumerate() {
            // A key written twice: the last one wins, as UnrealEd imports it.
            map.insert(k.to_ascii_lowercase(), i);
        }
        map
    };
    let (old_index, new_index) = (index(&old), index(&new));
    let mut changes = Vec::new();
    for (position, (key, value)) in new.iter().enumerate() {
        let lower = key.to_ascii_lowercase();
        if new_index.get(&lower) != Some(&position) {
            continue;
        }
        match old_index.get(&lower) {
            Some(&o) if same(&old[o].1, value) => {}
            Some(&o) => changes.push(PropertyChange {
                key: key.clone(),
                old: Some(old[o].1.show()),
                new: Some(value.show()),
            }),
            None => {
                changes.push(PropertyChange {
                    key: key.clone(),
                    old: None,
                    new: Some(value.show()),
                });
            }
        }
    }
    for (position, (key, value)) in old.iter().enumerate() {
        let lower = key.to_ascii_lowercase();
        if old_index.get(&lower) == Some(&position) && !new_index.contains_key(&lower) {
            changes.push(PropertyChange { key: key.clone(), old: Some(value.show()), new: None });
        }
    }
    changes
}

/// A polygon's identity: its vertices rounded to the 0.1-unit grid, in order from the
/// smallest (so the same outline written from another vertex is the same polygon).
fn polygon_key(polygon: &Polygon) -> Vec<[i64; 3]> {
    let mut key: Vec<[i64; 3]> =
        polygon.vertices.iter().map(|v| v.map(|c| (c / SAME_VERTEX).round() as i64)).collect();
    if let Some(first) = key.iter().enumerate().min_by_key(|(_, v)| **v).map(|(i, _)| i) {
        key.rotate_left(first);
    }
    key
}

fn compare_polygons(old: &[Polygon], new: &[Polygon]) -> BrushChange {
    let mut change =
        BrushChange { old_polygons: old.len(), new_polygons: new.len(), ..BrushChange::default() };
    let mut by_key: HashMap<Vec<[i64; 3]>, Vec<&Polygon>> = HashMap::new();
    for polygon in old.iter().rev() {
        by_key.entry(polygon_key(polygon)).or_default().push(polygon);
    }
    for polygon in new {
        let Some(before) = by_key.get_mut(&polygon_key(polygon)).and_then(Vec::pop) else {
            change.added += 1;
            continue;
        };
        if !before.texture.eq_ignore_ascii_case(&polygon.texture) {
            change.retextured += 1;
        }
        if before.flags != polygon.flags {
            change.flags_changed += 1;
        }
        let close = |a: &[[f64; 3]; 3], b: &[[f64; 3]; 3]| {
            a.iter().flatten().zip(b.iter().flatten()).all(|(x, y)| (x - y).abs() <= 1e-3)
        };
        if !close(&before.alignment.0, &polygon.alignment.0)
            || before.alignment.1 != polygon.alignment.1
        {
            change.realigned += 1;
        }
    }
    change.removed = by_key.values().map(Vec::len).sum();
    change
}

/// Whether CSG builds the actor: a static brush with `CSG_Add` or `CSG_Subtract`
/// ([`crate::csg::takes_part`]).
fn builds_level(a: &MapActor) -> bool {
    let word = |key: &str| {
        a.properties.iter().rev().find(|(k, _)| k.eq_ignore_ascii_case(key)).map(|(_, v)| v.show())
    };
    let csg_oper = word("CsgOper").unwrap_or_default();
    let b_static = word("bStatic").map(|v| v.trim().eq_ignore_ascii_case("true"));
    crate::csg::takes_part(&a.class, &csg_oper, b_static, a.brush.is_some())
}

/// The CSG order of the static brushes in both maps, when it changed.
fn brush_order(
    old: &MapActors,
    new: &MapActors,
    new_to_old: &[Option<(usize, bool)>],
) -> Option<BrushOrder> {
    // Matched brushes, in the new order, with their old positions.
    let pairs: Vec<(usize, usize)> = new
        .actors
        .iter()
        .enumerate()
        .filter(|(_, a)| builds_level(a))
        .filter_map(|(n, _)| new_to_old[n].map(|(o, _)| (o, n)))
        .filter(|&(o, _)| old.actors.get(o).is_some_and(builds_level))
        .collect();
    if pairs.windows(2).all(|w| w[0].0 < w[1].0) {
        return None;
    }
    let name = |n: usize| new.actors[n].name.clone();
    let new_order: Vec<String> = pairs.iter().map(|&(_, n)| name(n)).collect();
    let mut by_old: Vec<(usize, usize)> = pairs.clone();
    by_old.sort_unstable();
    let old_order: Vec<String> = by_old.iter().map(|&(_, n)| name(n)).collect();
    // The brushes outside a longest run kept in order are the ones that moved.
    let olds: Vec<usize> = pairs.iter().map(|&(o, _)| o).collect();
    let kept = longest_increasing(&olds);
    let moved = pairs
        .iter()
        .enumerate()
        .filter(|(i, _)| !kept.contains(i))
        .map(|(i, &(o, n))| OrderMove {
            name: name(n),
            old_place: by_old.iter().position(|&(bo, _)| bo == o).map_or(0, |p| p + 1),
            new_place: i + 1,
        })
        .collect();
    Some(BrushOrder { old: old_order, new: new_order, moved })
}

/// The indices of one longest strictly increasing subsequence of `v` (patience sorting).
fn longest_increasing(v: &[usize]) -> std::collections::HashSet<usize> {
    // tails[k]: index of the smallest last value of an increasing run of length k + 1.
    let mut tails: Vec<usize> = Vec::new();
    let mut before: Vec<Option<usize>> = vec![None; v.len()];
    for (i, &x) in v.iter().enumerate() {
        let k = tails.partition_point(|&t| v[t] < x);
        before[i] = k.checked_sub(1).and_then(|p| tails.get(p).copied());
        if k == tails.len() {
            tails.push(i);
        } else {
            tails[k] = i;
        }
    }
    let mut out = std::collections::HashSet::new();
    let mut at = tails.last().copied();
    while let Some(i) = at {
        out.insert(i);
        at = before[i];
    }
    out
}
