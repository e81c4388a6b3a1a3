//! Which palette indices an 8-bit palettized import source uses (BMP without compression,
//! single-plane PCX). The masked flag makes index 0 transparent (UE1 `PF_Masked`, UE2
//! `bMasked`), so whether any pixel holds index 0 decides whether masking a texture changes
//! what shows.

/// A set of the 256 palette indices.
pub type IndexSet = [bool; 256];

/// The indices the image's pixels use, or `None` when the image is not an 8-bit palettized
/// BMP or PCX, or its pixel data is cut short (then nothing can be said). Never panics.
pub fn palette_indices_used(data: &[u8]) -> Option<IndexSet> {
    if data.starts_with(b"BM") {
        bmp(data)
    } else if data.first() == Some(&0x0A) {
        pcx(data)
    } else {
        None
    }
}

fn u16le(data: &[u8], at: usize) -> Option<u16> {
    data.get(at..at + 2).map(|b| u16::from_le_bytes([b[0], b[1]]))
}

fn u32le(data: &[u8], at: usize) -> Option<u32> {
    data.get(at..at + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

fn bmp(data: &[u8]) -> Option<IndexSet> {
    let offset = usize::try_from(u32le(data, 10)?).ok()?;
    let width = i32::from_le_bytes(u32le(data, 18)?.to_le_bytes());
    let height = i32::from_le_bytes(u32le(data, 22)?.to_le_bytes());
    let bits = u16le(data, 28)?;
    let compression = u32le(data, 30)?;
    if bits != 8 || compression != 0 || width <= 0 || height == 0 {
        return None;
    }
    let width = usize::try_from(width).ok()?;
    let rows = usize::try_from(height.unsigned_abs()).ok()?;
    let stride = width.checked_add(3)? & !3;
    let end = offset.checked_add(stride.checked_mul(rows)?)?;
    let pixels = data.get(offset..end)?;
    let mut used = [false; 256];
    for row in pixels.chunks_exact(stride) {
        for &index in &row[..width] {
            used[usize::from(index)] = true;
        }
    }
    Some(used)
}

fn pcx(data: &[u8]) -> Option<IndexSet> {
    let encoding = *data.get(2)?;
    let bits = *data.get(3)?;
    let (x0, y0, x1, y1) = (u16le(data, 4)?, u16le(data, 6)?, u16le(data, 8)?, u16le(data, 10)?);
    let planes = *data.get(65)?;
    let line = usize::from(u16le(data, 66)?);
    if bits != 8 || planes != 1 || encoding != 1 || x1 < x0 || y1 < y0 {
        return None;
    }
    let width = usize::from(x1 - x0) + 1;
    let rows = usize::from(y1 - y0) + 1;
    if line < width {
        return None;
    }
    let total = line.checked_mul(rows)?;
    let mut used = [false; 256];
    // Run-length: a byte with the top two bits set repeats the next byte (count in the low six
    // bits); runs may cross scanlines, so the position is counted over the whole image.
    let mut at = 128;
    let mut written = 0usize;
    while written < total {
        let byte = *data.get(at)?;
        at += 1;
        let (count, value) = if byte & 0xC0 == 0xC0 {
            let value = *data.get(at)?;
            at += 1;
            (usize::from(byte & 0x3F), value)
        } else {
            (1, byte)
        };
        for k in 0..count.min(total - written) {
            // The bytes past the width on each scanline are padding, not pixels.
            if (written + k) % line < width {
                used[usize::from(value)] = true;
            }
        }
        written += count;
    }
    Some(used)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bmp8(width: u32, rows: &[&[u8]]) -> Vec<u8> {
        let stride = (width as usize + 3) & !3;
        let mut out = b"BM".to_vec();
        out.extend_from_slice(&0u32.to_le_bytes()); // file size, unread
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&(54u32 + 1024).to_le_bytes());
        out.extend_from_slice(&40u32.to_le_bytes());
        out.extend_from_slice(&width.to_le_bytes());
        out.extend_from_slice(&(rows.len() as u32).to_le_bytes());
        out.extend_from_slice(&1u16.to_le_bytes());
        out.extend_from_slice(&8u16.to_le_bytes());
        out.extend_from_slice(&[0; 24]);
        out.extend_from_slice(&[0; 1024]);
        for row in rows {
            let mut padded = row.to_vec();
            // Padding holds index 0, which must not count.
            padded.resize(stride, 0);
            out.extend_from_slice(&padded);
        }
        out
    }

    fn pcx8(width: u16, line: u16, encoded: &[u8], rows: u16) -> Vec<u8> {
        let mut out = vec![0u8; 128];
        out[0] = 0x0A;
        out[1] = 5;
        out[2] = 1;
        out[3] = 8;
        out[8..10].copy_from_slice(&(width - 1).to_le_bytes());
        out[10..12].copy_from_slice(&(rows - 1).to_le_bytes());
        out[65] = 1;
        out[66..68].copy_from_slice(&line.to_le_bytes());
        out.extend_from_slice(encoded);
        out
    }

    fn listed(set: Option<IndexSet>) -> Option<Vec<usize>> {
        set.map(|s| (0..256).filter(|&i| s[i]).collect())
    }

    #[test]
    fn bmp_rows_without_their_padding() {
        let image = bmp8(3, &[&[1, 2, 3], &[3, 2, 1]]);
        assert_eq!(listed(palette_indices_used(&image)), Some(vec![1, 2, 3]));
        let image = bmp8(2, &[&[0, 5]]);
        assert_eq!(listed(palette_indices_used(&image)), Some(vec![0, 5]));
        // Cut short: nothing can be said.
        assert_eq!(palette_indices_used(&image[..image.len() - 1]), None);
    }

    #[test]
    fn pcx_runs_and_scanline_padding() {
        // Width 3 on lines of 4: the run of four 7s puts one 7 in the padding, then 0 is
        // padding too.
        let image = pcx8(3, 4, &[0xC4, 7, 9, 9, 9, 0], 2);
        assert_eq!(listed(palette_indices_used(&image)), Some(vec![7, 9]));
        let image = pcx8(2, 2, &[0, 4], 1);
        assert_eq!(listed(palette_indices_used(&image)), Some(vec![0, 4]));
        assert_eq!(palette_indices_used(&image[..129]), None);
    }

    #[test]
    fn anything_else_is_not_judged() {
        for data in [&b""[..], b"BM", b"\x0A", b"\x89PNG", &[0x0A; 200]] {
            let _ = palette_indices_used(data);
        }
        assert_eq!(palette_indices_used(b"\x89PNG\r\n\x1a\n"), None);
    }
}
