//! PSA key tracks. [`crate::psk::Psa::parse`] validates the file and counts the keys; this
//! reads them: one key per bone per frame, sequence after sequence (`ANIMKEYS`, 32 bytes each:
//! position, rotation quaternion `x y z w`, time).

use crate::error::{Error, Result};
use crate::psk::{chunks, Psa};

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AnimKey {
    pub position: [f32; 3],
    /// `x, y, z, w` as stored.
    pub rotation: [f32; 4],
    pub time: f32,
}

impl AnimKey {
    /// The key with its Y axis negated, as UT2004's import of a PSA turns it (the position's
    /// Y, the rotation's Y and W; `Psk::mirrored_y`).
    pub fn mirrored_y(&self) -> AnimKey {
        let [x, y, z] = self.position;
        let [qx, qy, qz, qw] = self.rotation;
        AnimKey { position: [x, -y, z], rotation: [qx, -qy, qz, -qw], ..*self }
    }
}

/// Every key of a PSA file, in file order. `psa` is the same file parsed, so the key count
/// is already known to match the bones and sequences.
pub fn psa_keys(data: &[u8], psa: &Psa) -> Result<Vec<AnimKey>> {
    let all = chunks(data)?;
    let Some((header, bytes)) = all.iter().find(|(h, _)| h.id == "ANIMKEYS") else {
        return if psa.keys == 0 {
            Ok(Vec::new())
        } else {
            Err(Error::new("PSA file", 0, "an ANIMKEYS chunk"))
        };
    };
    if header.data_size != 32 || header.data_count != psa.keys {
        return Err(Error::new(
            "ANIMKEYS chunk",
            header.offset,
            format!(
                "{} keys of 32 bytes, found {} of {}",
                psa.keys, header.data_count, header.data_size
            ),
        ));
    }
    let f = |c: &[u8], i: usize| -> f32 {
        c.get(i * 4..i * 4 + 4).map_or(0.0, |b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    Ok(bytes
        .chunks_exact(32)
        .map(|c| AnimKey {
            position: [f(c, 0), f(c, 1), f(c, 2)],
            rotation: [f(c, 3), f(c, 4), f(c, 5), f(c, 6)],
            time: f(c, 7),
        })
        .collect())
}
