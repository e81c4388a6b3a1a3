#![no_main]
//! `_d.3d` + `_a.3d`: the input is split in two at a position taken from its first byte.

use libfuzzer_sys::fuzz_target;
use unreal_formats::vertex_mesh::{AnivFile, DataFile, VertexMesh};

fuzz_target!(|data: &[u8]| {
    let Some((&split, rest)) = data.split_first() else { return };
    let at = (usize::from(split) * rest.len()) / 255;
    let (d, a) = rest.split_at(at.min(rest.len()));
    let _ = DataFile::parse(d);
    let _ = AnivFile::parse(a);
    if let Ok(m) = VertexMesh::parse(d, a) {
        let _ = m.frame(0);
        let _ = m.frame(usize::from(m.aniv.frames));
    }
});
