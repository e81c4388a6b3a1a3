//! The compressed packages that redirect servers serve, decompressed in memory.
//!
//! Two unrelated formats share the job:
//!
//! - **UE1 `.uz`** (`ucc compress` of Unreal and UT99; OldUnreal's patches read and write it
//!   still): an `INT` signature, the original file name as the engine's string (a compact
//!   index length, then the characters with their NUL; a negative length counts UTF-16 units),
//!   then the file passed through the engine's chain of codecs (`Core/Inc/FCodec.h`):
//!   run-length, Burrows-Wheeler (blocks of at most 256 KiB), move-to-front and Huffman.
//!   Signature 1234 is that chain; 5678 (the "new format" of later compressors) adds a second
//!   run-length pass after move-to-front. Decoding runs the chain backwards.
//! - **UE2 `.uz2`** (UT2003, UT2004 and their licensees: `FFileManagerGeneric::Copy`):
//!   no header, only chunks of `u32` compressed size, `u32` uncompressed size and a zlib
//!   stream; the engine compresses 32 KiB at a time and refuses a chunk declaring more than
//!   32,768 bytes out or 33,096 bytes in. The original name is the file's name without
//!   `.uz2`.
//!
//! Which one a file is comes from its bytes (a `.uz` extension is sometimes given to UE2
//! files). Every count is checked before it is trusted, and the output is bounded: a small
//! file that claims gigabytes (the Huffman stage's byte count, a run-length byte, a zlib
//! stream that inflates without end) stops at [`MAX_DECOMPRESSED`] (or the caller's bound)
//! with an error naming the stage and the byte where the bound was reached.

use serde::Serialize;

use crate::error::{Error, Result};
use crate::reader::{ansi, Reader};

/// The UE1 signature of the four-codec chain.
pub const SIGNATURE_UE1: i32 = 1234;
/// The UE1 signature of the chain with the second run-length pass.
pub const SIGNATURE_UE1_RLE: i32 = 5678;
/// The most a compressed file may decompress to, by default: 512 MiB. The engines address
/// packages with 32-bit offsets, and the largest real packages (UT2004's maps and texture
/// packages) are a fraction of this.
pub const MAX_DECOMPRESSED: usize = 512 * 1024 * 1024;
/// UE2: the most one chunk may hold once inflated, and compressed (the engine's
/// `COPYBLOCKSIZE` and `MAXCOMPSIZE`).
pub const UE2_CHUNK: usize = 32_768;
pub const UE2_MAX_COMPRESSED_CHUNK: usize = 33_096;
/// The longest original file name read from a UE1 header, in characters.
const MAX_NAME: usize = 1024;
/// The largest Burrows-Wheeler block accepted. The stock engines write and read blocks of
/// at most 0x40000 bytes; OldUnreal's compressor lets a user choose larger ones, so the
/// bound here is generous (a block still has to fit in the stream that holds it): 16 MiB,
/// whose positions fit the 24 bits the decoder keeps them in.
const MAX_BWT_BLOCK: usize = (1 << 24) - 2;

/// Which compressed format a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum UzFormat {
    /// UE1, signature 1234: run-length, Burrows-Wheeler, move-to-front, Huffman.
    Ue1,
    /// UE1, signature 5678: the same with a second run-length pass before Huffman.
    Ue1Rle,
    /// UE2 `.uz2`: zlib chunks of 32 KiB.
    Ue2,
}

impl UzFormat {
    pub fn describe(self) -> &'static str {
        match self {
            Self::Ue1 => "UE1 .uz (signature 1234: RLE, BWT, MTF, Huffman)",
            Self::Ue1Rle => "UE1 .uz (signature 5678: RLE, BWT, MTF, RLE, Huffman)",
            Self::Ue2 => "UE2 .uz2 (zlib chunks)",
        }
    }
}

/// A decompressed file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Uz {
    pub format: UzFormat,
    /// The name stored in a UE1 header (`DM-Deck16.unr`); UE2 stores none.
    pub original_name: Option<String>,
    /// Where the compressed data starts (after a UE1 header; 0 for UE2).
    pub data_offset: usize,
    pub data: Vec<u8>,
}

/// Which compressed format `bytes` are, from their first bytes; `None` when neither.
pub fn detect(bytes: &[u8]) -> Option<UzFormat> {
    let word =
        |at: usize| bytes.get(at..at + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    let signature = word(0)? as i32;
    if signature == SIGNATURE_UE1 || signature == SIGNATURE_UE1_RLE {
        // The name's length follows: a short compact index (positive or negative).
        let mut r = Reader::new(bytes, 4, "uz header");
        if r.compact_index("name length")
            .is_ok_and(|n| n != 0 && n.unsigned_abs() as usize <= MAX_NAME)
        {
            return Some(if signature == SIGNATURE_UE1 { UzFormat::Ue1 } else { UzFormat::Ue1Rle });
        }
    }
    // UE2: the first chunk's sizes within the engine's bounds, then a zlib header
    // (deflate, and a check value that makes the two bytes a multiple of 31).
    let compressed = word(0)? as usize;
    let uncompressed = word(4)? as usize;
    let (cmf, flg) = (*bytes.get(8)?, *bytes.get(9)?);
    if (2..=UE2_MAX_COMPRESSED_CHUNK).contains(&compressed)
        && uncompressed <= UE2_CHUNK
        && cmf & 0x0f == 8
        && (u16::from(cmf) << 8 | u16::from(flg)) % 31 == 0
    {
        return Some(UzFormat::Ue2);
    }
    None
}

/// The name of the file a compressed file holds, from its own name: `CTF-Face.unr.uz` holds
/// `CTF-Face.unr`. `None` when the name does not end in `.uz` or `.uz2`.
pub fn inner_file_name(file_name: &str) -> Option<&str> {
    let lower = file_name.to_ascii_lowercase();
    for ext in [".uz2", ".uz"] {
        if lower.ends_with(ext) && file_name.len() > ext.len() {
            return file_name.get(..file_name.len() - ext.len());
        }
    }
    None
}

/// Decompresses `bytes` (either format) into at most [`MAX_DECOMPRESSED`] bytes.
pub fn decompress(bytes: &[u8]) -> Result<Uz> {
    decompress_with_limit(bytes, MAX_DECOMPRESSED)
}

/// Decompresses `bytes` into at most `limit` bytes (every intermediate stage too).
pub fn decompress_with_limit(bytes: &[u8], limit: usize) -> Result<Uz> {
    match detect(bytes) {
        Some(UzFormat::Ue2) => Ok(Uz {
            format: UzFormat::Ue2,
            original_name: None,
            data_offset: 0,
            data: ue2(bytes, limit)?,
        }),
        Some(format) => ue1(bytes, format, limit),
        None => {
            let found = bytes.get(..4).map_or_else(
                || format!("{} bytes", bytes.len()),
                |b| format!("{:02x} {:02x} {:02x} {:02x}", b[0], b[1], b[2], b[3]),
            );
            Err(Error::new(
                "compressed package header",
                0,
                format!(
                    "a UE1 .uz signature (1234 or 5678, then the file name) or a UE2 .uz2 chunk (sizes, then a zlib stream), found {found}"
                ),
            ))
        }
    }
}

/// Decompresses `bytes` as `format` whatever their first bytes say (a file named `.uz2` or
/// `.uz` whose header does not look like one): the error then says what is wrong in that
/// format's own terms (a chunk over the engine's bounds, a wrong signature).
pub fn decompress_as(bytes: &[u8], format: UzFormat, limit: usize) -> Result<Uz> {
    match format {
        UzFormat::Ue2 => {
            Ok(Uz { format, original_name: None, data_offset: 0, data: ue2(bytes, limit)? })
        }
        UzFormat::Ue1 | UzFormat::Ue1Rle => {
            let mut r = Reader::new(bytes, 0, "uz header");
            let signature = r.i32("signature")?;
            match signature {
                SIGNATURE_UE1 => ue1(bytes, UzFormat::Ue1, limit),
                SIGNATURE_UE1_RLE => ue1(bytes, UzFormat::Ue1Rle, limit),
                other => Err(r.error_at(
                    0,
                    format!("the signature 1234 or 5678 of a UE1 .uz, found {other}"),
                )),
            }
        }
    }
}

fn bound(structure: &str, offset: usize, limit: usize) -> Error {
    Error::new(
        structure,
        offset,
        format!(
            "at most {limit} bytes of output (the bound on a decompressed file, counting every buffer the decoder holds at once), but the data decodes to more: a corrupt or hostile file"
        ),
    )
}

// ---------------------------------------------------------------------------------------
// Where decoded bytes go

/// The end of a decoding chain: the bytes counted only, or kept. Either refuses to go past
/// its bound (`false`), and the stage that pushed names the place.
trait Sink {
    fn push(&mut self, byte: u8) -> bool;
    fn fill(&mut self, byte: u8, count: usize) -> bool;
}

/// A stage's output, kept whole: bounded by what its input can make, not by the file's
/// bound (the final stage's sink holds that).
struct Unbounded<'a>(&'a mut Vec<u8>);

impl Sink for Unbounded<'_> {
    fn push(&mut self, byte: u8) -> bool {
        self.0.push(byte);
        true
    }
    fn fill(&mut self, byte: u8, count: usize) -> bool {
        self.0.resize(self.0.len() + count, byte);
        true
    }
}

/// The decompressed file. While it is short ([`KEEP_WHILE_DECODING`]) its bytes are kept as
/// they come, so that a file of ordinary size decodes once; past that they are only counted
/// and a second pass writes them into a buffer of exactly that size, so that no output grows
/// by reallocation (two copies alive at once) and a file over the bound is refused before
/// its output is ever held. `reserved` is the working memory of the stages before (the
/// Burrows-Wheeler block), counted against the bound with the output.
struct Output {
    kept: Option<Vec<u8>>,
    len: usize,
    limit: usize,
    reserved: usize,
    keep_while: usize,
}

/// How much output is kept during the first pass: beyond it, the output is counted and
/// decoded again into a buffer of its exact size.
const KEEP_WHILE_DECODING: usize = 32 << 20;

impl Output {
    fn new(limit: usize, keep_while: usize) -> Self {
        // Reserved whole rather than grown: a growing buffer leaves its smaller copies behind
        // (an allocator that keeps freed pages counts them all), and pages never written
        // cost nothing.
        let kept = Vec::with_capacity(keep_while.min(limit));
        Self { kept: Some(kept), len: 0, limit, reserved: 0, keep_while }
    }

    /// The second pass: `len` bytes, exactly, in one buffer.
    fn exact(len: usize, limit: usize) -> Self {
        Self { kept: Some(Vec::with_capacity(len)), len: 0, limit, reserved: 0, keep_while: len }
    }

    fn room(&self, count: usize) -> bool {
        self.len.saturating_add(count).saturating_add(self.reserved) <= self.limit
    }

    fn grow(&mut self, count: usize) {
        self.len += count;
        if self.len > self.keep_while {
            // Too long to keep while its length is unknown: counted from now on.
            self.kept = None;
        }
    }
}

impl Sink for Output {
    #[inline]
    fn push(&mut self, byte: u8) -> bool {
        if !self.room(1) {
            return false;
        }
        self.grow(1);
        if let Some(kept) = &mut self.kept {
            kept.push(byte);
        }
        true
    }
    fn fill(&mut self, byte: u8, count: usize) -> bool {
        if !self.room(count) {
            return false;
        }
        self.grow(count);
        if let Some(kept) = &mut self.kept {
            kept.resize(kept.len() + count, byte);
        }
        true
    }
}

// ---------------------------------------------------------------------------------------
// UE2

/// The chunks of a `.uz2`: where each one's zlib stream lies and what it declares. Read
/// first, whole, so that the output is sized once from the declared sizes and a file that
/// declares more than the bound is refused before anything is inflated.
fn ue2(bytes: &[u8], limit: usize) -> Result<Vec<u8>> {
    let mut chunks: Vec<(usize, usize, usize)> = Vec::new();
    let mut total = 0usize;
    let mut r = Reader::new(bytes, 0, "uz2 chunk 0");
    while !r.is_at_end() {
        r.set_entry("uz2 chunk", chunks.len());
        let start = r.pos();
        let compressed = r.u32("compressed size")? as usize;
        let uncompressed = r.u32("uncompressed size")? as usize;
        if compressed > UE2_MAX_COMPRESSED_CHUNK || uncompressed > UE2_CHUNK {
            return Err(r.error_at(
                start,
                format!(
                    "a chunk of at most {UE2_MAX_COMPRESSED_CHUNK} compressed bytes and {UE2_CHUNK} uncompressed bytes (the engine refuses more), found {compressed} and {uncompressed}"
                ),
            ));
        }
        // The output, and one chunk inflated beside it.
        if total.saturating_add(uncompressed).saturating_add(UE2_CHUNK) > limit {
            return Err(bound(&r.structure(), start, limit));
        }
        let data_at = r.pos();
        r.bytes("zlib stream", compressed)?;
        chunks.push((data_at, compressed, uncompressed));
        total += uncompressed;
    }
    let mut out = Vec::with_capacity(total);
    for (index, &(data_at, compressed, uncompressed)) in chunks.iter().enumerate() {
        let data = bytes.get(data_at..data_at + compressed).unwrap_or_default();
        let inflated = miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(data, uncompressed)
            .map_err(|e| {
                let why = match e.status {
                    miniz_oxide::inflate::TINFLStatus::HasMoreOutput => format!(
                        "inflates to more than the {uncompressed} bytes its header declares"
                    ),
                    miniz_oxide::inflate::TINFLStatus::FailedCannotMakeProgress => {
                        "ends before its last block".to_owned()
                    }
                    miniz_oxide::inflate::TINFLStatus::Adler32Mismatch => {
                        "fails its Adler-32 check".to_owned()
                    }
                    other => format!("is corrupt ({other:?})"),
                };
                Error::new(
                    format!("uz2 chunk {index}"),
                    data_at,
                    format!("a valid zlib stream of {compressed} bytes; it {why}"),
                )
            })?;
        out.extend_from_slice(&inflated);
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// UE1

const RLE_AFTER_HUFFMAN: &str = "uz run-length stage (after Huffman)";
const RLE_AFTER_BWT: &str = "uz run-length stage (after Burrows-Wheeler)";
const BWT_STAGE: &str = "uz Burrows-Wheeler stage (after move-to-front)";

/// How many bytes the Huffman stage decodes before the later stages take them.
const PIECE: usize = 64 * 1024;

fn ue1(bytes: &[u8], format: UzFormat, limit: usize) -> Result<Uz> {
    ue1_keeping(bytes, format, limit, KEEP_WHILE_DECODING)
}

/// [`ue1`], keeping at most `keep_while` bytes of output in the first pass.
fn ue1_keeping(bytes: &[u8], format: UzFormat, limit: usize, keep_while: usize) -> Result<Uz> {
    let mut r = Reader::new(bytes, 4, "uz header");
    let at = r.pos();
    let len = r.compact_index("original file name length")?;
    let count = len.unsigned_abs() as usize;
    if count > MAX_NAME {
        return Err(r.error_at(
            at,
            format!("an original file name of at most {MAX_NAME} characters, found {len}"),
        ));
    }
    let name = if len >= 0 {
        ansi(r.bytes("original file name", count)?)
    } else {
        let units: Vec<u16> = r
            .bytes("original file name (UTF-16)", count * 2)?
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .take_while(|&u| u != 0)
            .collect();
        String::from_utf16_lossy(&units)
    };
    let data_offset = r.pos();
    let stream = bytes.get(data_offset..).unwrap_or_default();
    // Backwards through the chain, a piece at a time: Huffman, (run-length), move-to-front,
    // Burrows-Wheeler (a block at a time), run-length into the output. Only the output and
    // one block are ever whole.
    let mut output = Output::new(limit, keep_while);
    ue1_chain(stream, data_offset, format, limit, &mut output)?;
    let data = match output.kept {
        Some(mut kept) if kept.len() == output.len => {
            kept.shrink_to_fit();
            kept
        }
        _ => {
            let len = output.len;
            let mut exact = Output::exact(len, limit);
            ue1_chain(stream, data_offset, format, limit, &mut exact)?;
            exact.kept.unwrap_or_default()
        }
    };
    Ok(Uz { format, original_name: Some(name), data_offset, data })
}

/// One pass through the UE1 chain over the stream at `base`, into `output`.
fn ue1_chain(
    stream: &[u8],
    base: usize,
    format: UzFormat,
    limit: usize,
    output: &mut Output,
) -> Result<()> {
    let mut huffman = Huffman::new(stream, base, limit)?;
    let mut second = (format == UzFormat::Ue1Rle).then(|| RunLength::new(RLE_AFTER_HUFFMAN));
    let mut mtf = MoveToFront::new();
    let mut bwt = BurrowsWheeler::default();
    let mut first = RunLength::new(RLE_AFTER_BWT);
    let mut piece = Vec::with_capacity(PIECE);
    let mut expanded = Vec::new();
    while huffman.remaining > 0 {
        piece.clear();
        huffman.decode(&mut piece, PIECE)?;
        let stage = match &mut second {
            Some(second) => {
                expanded.clear();
                second.feed(&piece, &mut Unbounded(&mut expanded), limit)?;
                &mut expanded
            }
            None => &mut piece,
        };
        mtf.apply(stage);
        bwt.feed(stage, &mut first, output, limit)?;
    }
    if let Some(second) = &second {
        second.finish()?;
    }
    bwt.finish()?;
    first.finish()
}

/// LSB-first bits, as the engine's `FBitReader` reads them.
struct Bits<'a> {
    data: &'a [u8],
    pos: usize,
    /// Where `data` starts in the file, for errors.
    base: usize,
}

impl Bits<'_> {
    fn bit(&mut self) -> Result<usize> {
        let Some(&byte) = self.data.get(self.pos / 8) else {
            return Err(Error::new(
                "uz Huffman stream",
                self.base + self.data.len(),
                "more bits: the stream ends before the byte count it declares is decoded",
            ));
        };
        let bit = (byte >> (self.pos % 8)) & 1;
        self.pos += 1;
        Ok(usize::from(bit))
    }

    fn byte(&mut self) -> Result<u8> {
        let mut b = 0u8;
        for i in 0..8 {
            b |= (self.bit()? as u8) << i;
        }
        Ok(b)
    }

    fn offset(&self) -> usize {
        self.base + self.pos / 8
    }
}

/// A Huffman tree node: a leaf's byte, or the indices of two children.
#[derive(Clone, Copy)]
enum Node {
    Leaf(u8),
    Inner(u16, u16),
    /// Being read: its children are not known yet.
    Pending,
}

/// The Huffman stage, decoding a piece at a time: the declared byte count, the tree, then
/// each byte's code.
struct Huffman<'a> {
    bits: Bits<'a>,
    nodes: Vec<Node>,
    table: Vec<Slot>,
    /// The bytes still to decode.
    remaining: usize,
    /// The byte of a one-value tree (no bits per byte).
    only: Option<u8>,
    /// Where the stream starts in the file, for errors.
    base: usize,
}

impl<'a> Huffman<'a> {
    fn new(stream: &'a [u8], base: usize, limit: usize) -> Result<Self> {
        let mut r = Reader::new(stream, 0, "uz Huffman stream");
        let total =
            r.i32("decoded byte count").map_err(|e| Error { offset: base + e.offset, ..e })?;
        if total < 0 {
            return Err(Error::new(
                "uz Huffman stream",
                base,
                format!("a non-negative decoded byte count, found {total}"),
            ));
        }
        let total = total as usize;
        if total > limit {
            return Err(bound("uz Huffman stream", base, limit));
        }
        let mut bits = Bits { data: stream.get(4..).unwrap_or_default(), pos: 0, base: base + 4 };
        let nodes = read_tree(&mut bits)?;
        let mut only = None;
        let mut table = Vec::new();
        if let Some(Node::Leaf(byte)) = nodes.first() {
            // One symbol: no bits per byte (the engine's loop reads none either). A
            // compressor writes such a tree only for a stream of one value, which the stages
            // before Huffman never make long (each block starts with a 12-byte header); a
            // long one costs nothing to write and much to expand, so it is refused.
            if total > ONE_SYMBOL_MAX {
                return Err(Error::new(
                    "uz Huffman table",
                    base + 4,
                    format!(
                        "a tree of more than one byte value for {total} bytes (a one-value tree decodes without reading a bit; no compressor writes one for more than {ONE_SYMBOL_MAX} bytes)"
                    ),
                ));
            }
            only = Some(*byte);
        } else {
            table = lookup_table(&nodes);
        }
        Ok(Self { bits, nodes, table, remaining: total, only, base })
    }

    /// Decodes up to `max` more bytes onto `out`.
    fn decode(&mut self, out: &mut Vec<u8>, max: usize) -> Result<()> {
        let count = self.remaining.min(max);
        self.remaining -= count;
        if let Some(only) = self.only {
            out.resize(out.len() + count, only);
            return Ok(());
        }
        let bits = &mut self.bits;
        let end_bits = bits.data.len() * 8;
        for _ in 0..count {
            let mut node = match self.table[(peek(bits.data, bits.pos) & LOOKUP_MASK) as usize] {
                Slot::Leaf(byte, len) if bits.pos + usize::from(len) <= end_bits => {
                    bits.pos += usize::from(len);
                    out.push(byte);
                    continue;
                }
                Slot::Node(node) if bits.pos + LOOKUP_BITS <= end_bits => {
                    bits.pos += LOOKUP_BITS;
                    usize::from(node)
                }
                // Near the end of the stream (or a slot no code reaches, which a complete
                // tree never leaves): bit by bit, which reports where the bits ran out.
                _ => 0,
            };
            let byte = loop {
                match self.nodes[node] {
                    Node::Leaf(b) => break b,
                    Node::Inner(zero, one) => {
                        node = usize::from(if bits.bit()? == 0 { zero } else { one });
                    }
                    Node::Pending => {
                        return Err(Error::new("uz Huffman table", self.base, "a complete tree"));
                    }
                }
            };
            out.push(byte);
        }
        Ok(())
    }
}

/// The tree, read depth first (a 1 bit: two children follow; a 0 bit: a leaf's byte). A
/// tree over bytes has at most 256 leaves, so at most 511 nodes.
fn read_tree(bits: &mut Bits<'_>) -> Result<Vec<Node>> {
    let mut nodes: Vec<Node> = vec![Node::Pending];
    // Nodes whose children are still to be read, with how many have been read.
    let mut open: Vec<(usize, u8)> = Vec::new();
    let mut current = 0usize;
    let mut inner = 0usize;
    loop {
        if bits.bit()? == 1 {
            inner += 1;
            if inner > 255 {
                return Err(Error::new(
                    "uz Huffman table",
                    bits.offset(),
                    "a tree of at most 256 leaves (255 inner nodes), found more",
                ));
            }
            open.push((current, 0));
            nodes.push(Node::Pending);
            current = nodes.len() - 1;
            continue;
        }
        nodes[current] = Node::Leaf(bits.byte()?);
        // Climb to the next child to read.
        while let Some((parent, seen)) = open.pop() {
            if seen == 0 {
                // The first child was `current`; the second comes next.
                let first = current;
                nodes.push(Node::Pending);
                current = nodes.len() - 1;
                open.push((parent, 1));
                nodes[parent] = Node::Inner(first as u16, current as u16);
                break;
            }
            // Both children read: the parent is complete.
            current = parent;
        }
        if open.is_empty() && !matches!(nodes[current], Node::Pending) {
            return Ok(nodes);
        }
    }
}

/// The longest stream a one-value Huffman tree may decode to.
const ONE_SYMBOL_MAX: usize = 1 << 16;

/// How many bits the Huffman lookup table decodes at once.
const LOOKUP_BITS: usize = 11;
const LOOKUP_MASK: u64 = (1 << LOOKUP_BITS) - 1;

/// What the next [`LOOKUP_BITS`] bits decode to: a byte and its code's length, or the node
/// reached after all of them (a longer code goes on bit by bit from there).
#[derive(Clone, Copy)]
enum Slot {
    Empty,
    Leaf(u8, u8),
    Node(u16),
}

/// The lookup table of a complete tree whose root is not a leaf.
fn lookup_table(nodes: &[Node]) -> Vec<Slot> {
    let mut table = vec![Slot::Empty; 1 << LOOKUP_BITS];
    // (node, code so far with its first bit lowest, depth)
    let mut stack: Vec<(usize, usize, usize)> = vec![(0, 0, 0)];
    while let Some((node, code, depth)) = stack.pop() {
        match nodes.get(node) {
            Some(Node::Leaf(byte)) => {
                // Every slot whose low `depth` bits are this code.
                let mut slot = code;
                while slot < table.len() {
                    table[slot] = Slot::Leaf(*byte, depth as u8);
                    slot += 1 << depth;
                }
            }
            Some(Node::Inner(zero, one)) if depth < LOOKUP_BITS => {
                stack.push((usize::from(*zero), code, depth + 1));
                stack.push((usize::from(*one), code | (1 << depth), depth + 1));
            }
            Some(Node::Inner(..)) => table[code] = Slot::Node(node as u16),
            _ => {}
        }
    }
    table
}

/// The next 56 or more bits from bit `pos` of `data`, the first lowest (zeros past the end).
fn peek(data: &[u8], pos: usize) -> u64 {
    let at = pos / 8;
    let mut word = [0u8; 8];
    let available = data.len().saturating_sub(at).min(8);
    if let Some(bytes) = data.get(at..at + available) {
        word[..available].copy_from_slice(bytes);
    }
    u64::from_le_bytes(word) >> (pos % 8)
}

/// The move-to-front stage, its list kept from one piece to the next.
struct MoveToFront {
    list: [u8; 256],
}

impl MoveToFront {
    fn new() -> Self {
        Self { list: std::array::from_fn(|i| i as u8) }
    }

    fn apply(&mut self, data: &mut [u8]) {
        let list = &mut self.list;
        for b in data.iter_mut() {
            let i = usize::from(*b);
            let c = list[i];
            list.copy_within(0..i, 1);
            list[0] = c;
            *b = c;
        }
    }
}

/// The Burrows-Wheeler stage: blocks of a 12-byte header (length, first and last index)
/// and `length + 1` bytes, gathered from the pieces as they come and inverted one at a time
/// into the run-length stage after it.
#[derive(Default)]
struct BurrowsWheeler {
    /// The stage's bytes taken so far (the place errors name).
    at: usize,
    /// Where the block being gathered starts.
    start: usize,
    header: Vec<u8>,
    /// The block's length and indices once its header is whole.
    block_header: Option<(usize, i32, i32)>,
    block: Vec<u8>,
    /// Each position's successor (above the low 8 bits) and byte.
    temp: Vec<u32>,
    /// The inverted block.
    decoded: Vec<u8>,
}

impl BurrowsWheeler {
    fn feed(
        &mut self,
        mut input: &[u8],
        next: &mut RunLength,
        output: &mut Output,
        limit: usize,
    ) -> Result<()> {
        while !input.is_empty() {
            let Some((n, _, _)) = self.block_header else {
                let take = (12 - self.header.len()).min(input.len());
                self.header.extend_from_slice(&input[..take]);
                input = &input[take..];
                self.at += take;
                if self.header.len() == 12 {
                    let word = |i: usize| {
                        i32::from_le_bytes([
                            self.header[i],
                            self.header[i + 1],
                            self.header[i + 2],
                            self.header[i + 3],
                        ])
                    };
                    let (length, first, last) = (word(0), word(4), word(8));
                    let n = usize::try_from(length)
                        .ok()
                        .filter(|&n| n <= MAX_BWT_BLOCK)
                        .ok_or_else(|| {
                            Error::new(
                                BWT_STAGE,
                                self.start,
                                format!("a block length from 0 to {MAX_BWT_BLOCK}, found {length}"),
                            )
                        })?;
                    // The block, its positions and its inversion, beside the output.
                    output.reserved = output.reserved.max((n + 1) * 6);
                    if !output.room(0) {
                        return Err(bound(BWT_STAGE, self.start, limit));
                    }
                    self.block_header = Some((n, first, last));
                    self.block.clear();
                }
                continue;
            };
            let take = (n + 1 - self.block.len()).min(input.len());
            self.block.extend_from_slice(&input[..take]);
            input = &input[take..];
            self.at += take;
            if self.block.len() == n + 1 {
                self.invert()?;
                next.feed(&self.decoded, output, limit)?;
                self.header.clear();
                self.block_header = None;
                self.start = self.at;
            }
        }
        Ok(())
    }

    /// Inverts the whole block into `decoded`.
    fn invert(&mut self) -> Result<()> {
        let Some((n, first, last)) = self.block_header else { return Ok(()) };
        let count = n + 1;
        let start = self.start;
        let index = |v: i32, what: &str| {
            usize::try_from(v).ok().filter(|&v| v < count).ok_or_else(|| {
                Error::new(BWT_STAGE, start, format!("a {what} index from 0 to {n}, found {v}"))
            })
        };
        let first = index(first, "first")?;
        let last = index(last, "last")?;
        let block = &self.block;
        // Counting sort of the block's positions by byte; the `last` position sorts after
        // every byte (the end of the rotation).
        let key = |i: usize| if i == last { 256 } else { usize::from(block[i]) };
        let mut counts = [0usize; 257];
        for i in 0..count {
            counts[key(i)] += 1;
        }
        let mut running = [0usize; 257];
        let mut sum = 0;
        for (slot, c) in running.iter_mut().zip(counts.iter()) {
            *slot = sum;
            sum += c;
        }
        // Each slot: the next position (above the low 8 bits) and the byte at this one, so
        // that each step of the walk touches one place in memory.
        let temp = &mut self.temp;
        temp.clear();
        temp.resize(count, 0);
        for i in 0..count {
            let k = key(i);
            temp[running[k]] = (i as u32) << 8;
            running[k] += 1;
        }
        for (slot, &byte) in temp.iter_mut().zip(block) {
            *slot |= u32::from(byte);
        }
        self.decoded.clear();
        let mut i = first;
        for _ in 0..n {
            let slot = temp[i];
            self.decoded.push(slot as u8);
            i = (slot >> 8) as usize;
        }
        Ok(())
    }

    /// The end of the stage's data: a block begun and not whole is an error.
    fn finish(&self) -> Result<()> {
        if self.header.is_empty() {
            return Ok(());
        }
        let (what, needed, have, from) = match self.block_header {
            None => {
                ("block header (length, first and last index)", 12, self.header.len(), self.start)
            }
            Some((n, _, _)) => ("block", n + 1, self.block.len(), self.start + 12),
        };
        Err(Error::new(
            BWT_STAGE,
            from,
            format!("{what} ({needed} bytes), but the data ends after {have} more"),
        ))
    }
}

/// The engine's run-length decoding: after five equal bytes, a byte counting the whole run
/// (at least 2; a run of five or fewer adds nothing), its state kept from one piece to the
/// next.
struct RunLength {
    stage: &'static str,
    prev: u8,
    count: usize,
    /// Five equal bytes were seen: the next byte is the run's length.
    run_next: bool,
    /// The stage's bytes taken so far (the place errors name).
    at: usize,
}

impl RunLength {
    fn new(stage: &'static str) -> Self {
        Self { stage, prev: 0, count: 0, run_next: false, at: 0 }
    }

    fn feed(&mut self, data: &[u8], out: &mut impl Sink, limit: usize) -> Result<()> {
        const LEAD: usize = 5;
        for &b in data {
            let here = self.at;
            self.at += 1;
            if self.run_next {
                if b < 2 {
                    return Err(Error::new(
                        self.stage,
                        here,
                        format!("a run length of at least 2 (the engine checks it), found {b}"),
                    ));
                }
                if !out.fill(self.prev, usize::from(b).saturating_sub(LEAD)) {
                    return Err(bound(self.stage, here, limit));
                }
                self.run_next = false;
                self.count = 0;
                continue;
            }
            if !out.push(b) {
                return Err(bound(self.stage, here, limit));
            }
            if b == self.prev {
                self.count += 1;
                if self.count == LEAD {
                    self.run_next = true;
                }
            } else {
                self.prev = b;
                self.count = 1;
            }
        }
        Ok(())
    }

    /// The end of the stage's data: a run whose length is missing is an error.
    fn finish(&self) -> Result<()> {
        if self.run_next {
            return Err(Error::new(
                self.stage,
                self.at,
                "the length of a run (a byte after five equal bytes), found the end of the data",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::{ue1_keeping, UzFormat};
    use unreal_test_support::containers;

    /// Output longer than what the first pass keeps is counted, then decoded again into a
    /// buffer of its exact size: the same bytes either way, and no spare capacity.
    #[test]
    fn output_past_what_the_first_pass_keeps_is_decoded_again_exactly() {
        let mut data: Vec<u8> =
            (0..20_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        data.extend(std::iter::repeat_n(0xAAu8, 5000));
        for second_rle in [false, true] {
            let file = containers::uz1("Sample.u", &data, second_rle, 4096);
            let format = if second_rle { UzFormat::Ue1Rle } else { UzFormat::Ue1 };
            for keep in [0, 1000, 24_999, 25_000, usize::MAX] {
                let out = ue1_keeping(&file, format, 1 << 20, keep).unwrap();
                assert!(out.data == data, "keep {keep}, rle {second_rle}");
                assert_eq!(out.data.capacity(), data.len(), "keep {keep}");
            }
            // The bound counts the output and the block's working memory (six bytes a
            // position): refused both ways alike.
            for keep in [0, usize::MAX] {
                let refused = ue1_keeping(&file, format, 25_000, keep).unwrap_err();
                assert!(refused.to_string().contains("at most 25000 bytes"), "{refused}");
            }
        }
    }
}
