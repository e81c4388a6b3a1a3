//! Writers of the container formats, built from the format descriptions in
//! `unreal_formats::uz` and `unreal_formats::umod`: a UE1 `.uz` compressor (run-length,
//! Burrows-Wheeler, move-to-front, optional second run-length, Huffman), a UE2 `.uz2` one
//! (zlib chunks of 32 KiB) and a `.umod` archive writer. Test code: small inputs, simple
//! algorithms (the suffix sort is a plain comparison sort).

use crate::writers::compact;

/// The engine's run-length coding: after five equal bytes, a byte counting the whole run
/// (5 to 255).
fn run_length(data: &[u8]) -> Vec<u8> {
    fn emit(out: &mut Vec<u8>, byte: u8, count: usize) {
        out.extend(std::iter::repeat_n(byte, count.min(5)));
        if count >= 5 {
            out.push(count as u8);
        }
    }
    let mut out = Vec::new();
    let (mut prev, mut count) = (0u8, 0usize);
    for &b in data {
        if b != prev || count == 255 {
            emit(&mut out, prev, count);
            prev = b;
            count = 0;
        }
        count += 1;
    }
    emit(&mut out, prev, count);
    out
}

/// Burrows-Wheeler blocks: length, first and last index, then `length + 1` bytes. The
/// positions `0..=length` of a block are ordered by the bytes from each to the block's end,
/// compared over the shorter of the two, ties to the lower position.
fn burrows_wheeler(data: &[u8], block: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for chunk in data.chunks(block.max(1)) {
        let n = chunk.len();
        let mut order: Vec<usize> = (0..=n).collect();
        order.sort_by(|&a, &b| {
            let len = n - a.max(b);
            chunk[a..a + len].cmp(&chunk[b..b + len]).then(a.cmp(&b))
        });
        let first = order.iter().position(|&p| p == 1).unwrap_or(0);
        let last = order.iter().position(|&p| p == 0).unwrap_or(0);
        out.extend((n as i32).to_le_bytes());
        out.extend((first as i32).to_le_bytes());
        out.extend((last as i32).to_le_bytes());
        out.extend(order.iter().map(|&p| if p == 0 { chunk[0] } else { chunk[p - 1] }));
    }
    out
}

fn move_to_front(data: &[u8]) -> Vec<u8> {
    let mut list: Vec<u8> = (0..=255).collect();
    data.iter()
        .map(|&b| {
            let i = list.iter().position(|&x| x == b).unwrap();
            list.remove(i);
            list.insert(0, b);
            i as u8
        })
        .collect()
}

/// LSB-first bits.
#[derive(Default)]
struct BitWriter {
    bytes: Vec<u8>,
    bits: usize,
}

impl BitWriter {
    fn bit(&mut self, b: bool) {
        if self.bits.is_multiple_of(8) {
            self.bytes.push(0);
        }
        if b {
            *self.bytes.last_mut().unwrap() |= 1 << (self.bits % 8);
        }
        self.bits += 1;
    }
    fn byte(&mut self, v: u8) {
        for i in 0..8 {
            self.bit(v >> i & 1 == 1);
        }
    }
}

enum Tree {
    Leaf(u8),
    Inner(Box<Tree>, Box<Tree>),
}

impl Tree {
    fn write(&self, w: &mut BitWriter) {
        match self {
            Self::Leaf(b) => {
                w.bit(false);
                w.byte(*b);
            }
            Self::Inner(zero, one) => {
                w.bit(true);
                zero.write(w);
                one.write(w);
            }
        }
    }
    fn codes(&self, prefix: &mut Vec<bool>, out: &mut [Vec<bool>]) {
        match self {
            Self::Leaf(b) => out[usize::from(*b)].clone_from(prefix),
            Self::Inner(zero, one) => {
                prefix.push(false);
                zero.codes(prefix, out);
                prefix.pop();
                prefix.push(true);
                one.codes(prefix, out);
                prefix.pop();
            }
        }
    }
}

/// The byte count, then the tree (depth first: 1 and two subtrees, or 0 and a byte), then
/// each byte's code.
fn huffman(data: &[u8]) -> Vec<u8> {
    let mut counts = [0usize; 256];
    for &b in data {
        counts[usize::from(b)] += 1;
    }
    let mut nodes: Vec<(usize, Tree)> = (0..=255u8)
        .filter(|&b| counts[usize::from(b)] > 0)
        .map(|b| (counts[usize::from(b)], Tree::Leaf(b)))
        .collect();
    if nodes.is_empty() {
        nodes.push((0, Tree::Leaf(0)));
    }
    while nodes.len() > 1 {
        nodes.sort_by_key(|n| std::cmp::Reverse(n.0));
        let (c1, t1) = nodes.pop().unwrap();
        let (c2, t2) = nodes.pop().unwrap();
        nodes.push((c1 + c2, Tree::Inner(Box::new(t1), Box::new(t2))));
    }
    let root = nodes.pop().unwrap().1;
    let mut codes = vec![Vec::new(); 256];
    root.codes(&mut Vec::new(), &mut codes);
    let mut w = BitWriter::default();
    root.write(&mut w);
    for &b in data {
        for &bit in &codes[usize::from(b)] {
            w.bit(bit);
        }
    }
    let mut out = (data.len() as i32).to_le_bytes().to_vec();
    out.extend(w.bytes);
    out
}

/// The codec chain of a UE1 `.uz`, without the header.
pub fn uz1_stream(data: &[u8], second_rle: bool, block: usize) -> Vec<u8> {
    let mut stage = move_to_front(&burrows_wheeler(&run_length(data), block));
    if second_rle {
        stage = run_length(&stage);
    }
    huffman(&stage)
}

/// Only the last stage (Huffman) over `data`: for streams whose earlier stages are written
/// by hand.
pub fn uz1_stream_huffman_only(data: &[u8]) -> Vec<u8> {
    huffman(data)
}

/// A UE1 `.uz`: signature 5678 with `second_rle`, 1234 without; Burrows-Wheeler blocks of
/// `block` bytes (the engine's are 0x40000).
pub fn uz1(original_name: &str, data: &[u8], second_rle: bool, block: usize) -> Vec<u8> {
    let mut out = (if second_rle { 5678i32 } else { 1234 }).to_le_bytes().to_vec();
    out.extend(compact(original_name.len() as i32 + 1));
    out.extend(original_name.as_bytes());
    out.push(0);
    out.extend(uz1_stream(data, second_rle, block));
    out
}

/// A UE2 `.uz2`: zlib chunks of 32 KiB.
pub fn uz2(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for chunk in data.chunks(32_768) {
        let z = miniz_oxide::deflate::compress_to_vec_zlib(chunk, 6);
        out.extend((z.len() as u32).to_le_bytes());
        out.extend((chunk.len() as u32).to_le_bytes());
        out.extend(z);
    }
    out
}

/// A `.umod`: the files' bytes, the directory, the trailer with the engine's CRC.
pub fn umod(files: &[(&str, &[u8], u32)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut directory = compact(files.len() as i32);
    for (name, bytes, flags) in files {
        let offset = out.len() as u32;
        out.extend_from_slice(bytes);
        directory.extend(compact(name.len() as i32 + 1));
        directory.extend(name.as_bytes());
        directory.push(0);
        directory.extend(offset.to_le_bytes());
        directory.extend((bytes.len() as u32).to_le_bytes());
        directory.extend(flags.to_le_bytes());
    }
    let table = out.len() as u32;
    out.extend(directory);
    let total = out.len() as u32 + 20;
    // The CRC covers every byte before the trailer.
    let crc = engine_crc32(&out);
    out.extend(0x9FE3_C5A3u32.to_le_bytes());
    out.extend(table.to_le_bytes());
    out.extend(total.to_le_bytes());
    out.extend(1u32.to_le_bytes());
    out.extend(crc.to_le_bytes());
    out
}

/// The engine's CRC-32 (`appMemCrc`: polynomial 0x04C11DB7, most significant bit first,
/// starting from and inverted at the end with all ones), bit by bit: written apart from the
/// reader's table-driven one so that a `.umod` test checks one against the other.
pub fn engine_crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in data {
        crc ^= u32::from(byte) << 24;
        for _ in 0..8 {
            crc = if crc & 0x8000_0000 != 0 { (crc << 1) ^ 0x04C1_1DB7 } else { crc << 1 };
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    /// The check value of this CRC (CRC-32/BZIP2) over the nine digits.
    #[test]
    fn engine_crc32_check_value() {
        assert_eq!(super::engine_crc32(b"123456789"), 0xFC89_1918);
    }
}
