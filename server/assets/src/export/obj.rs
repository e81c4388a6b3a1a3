//! Wavefront OBJ text from a [`Model`] (base pose, positions and UVs; one group per
//! material). OBJ has no axis convention of its own; the glTF axes (Y up) are what most
//! tools assume.

use std::fmt::Write as _;

use super::model::Model;

pub fn write_obj(model: &Model) -> String {
    let mut out = format!("# {} exported by unreal-ls (Y up, right-handed)\n", model.name);
    for p in &model.positions {
        let _ = writeln!(out, "v {} {} {}", p[0], p[1], p[2]);
    }
    let uvs = model.uvs.as_ref().filter(|u| u.len() == model.positions.len());
    if let Some(uvs) = uvs {
        for t in uvs {
            // OBJ's v runs up the image.
            let _ = writeln!(out, "vt {} {}", t[0], 1.0 - t[1]);
        }
    }
    for prim in &model.primitives {
        let name = model.materials.get(prim.material).map_or("default", |m| m.name.as_str());
        let _ = writeln!(out, "g {name}");
        for t in &prim.triangles {
            let [a, b, c] = t.map(|i| i + 1);
            if uvs.is_some() {
                let _ = writeln!(out, "f {a}/{a} {b}/{b} {c}/{c}");
            } else {
                let _ = writeln!(out, "f {a} {b} {c}");
            }
        }
    }
    out
}
