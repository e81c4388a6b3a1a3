//! Compressed packages (`.uz`, `.uz2`) and mod installers (`.umod`): files built by the
//! project's own writers (`unreal_test_support::containers`) read back byte for byte, their
//! summaries, and the refusals of corrupt and hostile files (decompression bombs stop at
//! the bound, with the stage and the byte).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::pedantic)]

use expect_test::{expect, Expect};
use unreal_formats::uz::{self, UzFormat};
use unreal_formats::{detect, package_bytes, package_name, summarize, umod, FormatKind};
use unreal_test_support::containers;
use unreal_test_support::writers;

fn sample_package() -> Vec<u8> {
    writers::object_package(&[
        ("Texture", "Walls.Granite"),
        ("Texture", "Walls.Marble"),
        ("Sound", "Ambient.Wind"),
        ("Class", "MyActor"),
    ])
}

/// Bytes with long runs (more than 255 equal bytes), short runs and noise.
fn runs_and_noise() -> Vec<u8> {
    let mut data = vec![0u8; 700];
    data.extend(b"AAAAABBBBBBCCCCCCCCCCCDDDD".iter());
    data.extend((0..3000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8));
    data.extend(std::iter::repeat_n(7u8, 5));
    data.extend(std::iter::repeat_n(9u8, 256));
    data
}

fn err(r: unreal_formats::Result<impl std::fmt::Debug>) -> String {
    match r {
        Ok(v) => format!("accepted: {v:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn ue1_uz_of_both_signatures_decompresses_to_the_original_bytes() {
    for data in [sample_package(), runs_and_noise(), Vec::new(), vec![42u8; 10]] {
        for second_rle in [false, true] {
            for block in [1, 7, 64, 0x40000] {
                let file = containers::uz1("Sample.u", &data, second_rle, block);
                let expected = if second_rle { UzFormat::Ue1Rle } else { UzFormat::Ue1 };
                assert_eq!(uz::detect(&file), Some(expected));
                let out = uz::decompress(&file).unwrap();
                assert_eq!(out.original_name.as_deref(), Some("Sample.u"));
                assert_eq!(out.data_offset, 4 + 1 + 9);
                assert!(out.data == data, "{} bytes, block {block}, rle {second_rle}", data.len());
            }
        }
    }
}

#[test]
fn ue2_uz2_decompresses_to_the_original_bytes() {
    let mut big = runs_and_noise();
    while big.len() < 100_000 {
        big.extend(runs_and_noise());
    }
    for data in [sample_package(), big] {
        let file = containers::uz2(&data);
        assert_eq!(uz::detect(&file), Some(UzFormat::Ue2));
        let out = uz::decompress(&file).unwrap();
        assert_eq!(out.original_name, None);
        assert!(out.data == data);
    }
}

fn check(actual: String, expect: Expect) {
    expect.assert_eq(&actual);
}

#[test]
fn a_compressed_package_is_detected_summarized_and_named_as_the_package_it_holds() {
    let package = sample_package();
    let uz = containers::uz1("Walls.utx", &package, true, 0x40000);
    assert_eq!(detect(&uz, "Walls.utx.uz"), Some(FormatKind::Compressed(UzFormat::Ue1Rle)));
    assert!(package_bytes(&uz).unwrap().as_ref() == package.as_slice());
    assert!(package_bytes(&package).unwrap().as_ref() == package.as_slice());
    assert_eq!(package_name("Maps/CTF-Face.unr.uz"), "CTF-Face");
    assert_eq!(package_name("C:\\UT\\Textures\\Rock.utx.UZ2"), "Rock");
    assert_eq!(package_name("Botpack.u"), "Botpack");
    let summary = summarize(&uz, "Walls.utx.uz").unwrap();
    check(
        summary.to_string(),
        expect![[r#"
            compressed: UE1 .uz (signature 5678: RLE, BWT, MTF, RLE, Huffman), holds Walls.utx, 259 bytes -> 330 bytes
            package version 69 (licensee 0), flags 0x00000001
            names 13, imports 6, exports 6
              path           class        size  detail
              Walls          Package         0
              Walls.Granite  Texture         0  unreadable: Texture Walls.Granite (export 1) at byte 0: expected object data (the export has SerialSize 0)
              Walls.Marble   Texture         0  unreadable: Texture Walls.Marble (export 2) at byte 0: expected object data (the export has SerialSize 0)
              Ambient        Package         0
              Ambient.Wind   Sound           0  unreadable: Sound Ambient.Wind (export 4) at byte 0: expected object data (the export has SerialSize 0)
              MyActor        Class           0  no super class
        "#]],
    );
    let json = serde_json::to_value(summary_of_uz2(&package)).unwrap();
    check(
        format!(
            "{} {} {} {}",
            json["kind"], json["format"], json["size"], json["contents"]["kind"]
        ),
        expect![[r#""compressed" "ue2" 330 "package""#]],
    );
}

fn summary_of_uz2(package: &[u8]) -> unreal_formats::Summary {
    summarize(&containers::uz2(package), "Walls.utx.uz2").unwrap()
}

#[test]
fn corrupt_and_hostile_compressed_files_are_refused_with_the_place() {
    let mut cases: Vec<(&str, Vec<u8>, usize)> = Vec::new();
    // A Huffman stream claiming 2 GiB from one leaf (no bits per byte): stopped before any
    // output is made.
    let mut bomb = 1234i32.to_le_bytes().to_vec();
    bomb.extend([0x05, b'B', b'o', b'm', b'b', 0]);
    bomb.extend(i32::MAX.to_le_bytes());
    bomb.extend([0b0000_0000, 0]); // a leaf, byte 0
    cases.push(("huffman count", bomb.clone(), uz::MAX_DECOMPRESSED));
    // The same within the default bound but over a small one.
    let mut small = bomb.clone();
    small[10..14].copy_from_slice(&5000i32.to_le_bytes());
    cases.push(("huffman over a bound", small, 4096));
    // Within the bound, but from a one-value tree: refused before 100 MB are made of nothing.
    let mut one_value = bomb.clone();
    one_value[10..14].copy_from_slice(&100_000_000i32.to_le_bytes());
    cases.push(("one-value tree", one_value, uz::MAX_DECOMPRESSED));
    // A run-length stage that expands: a valid Huffman stream of 5 equal bytes and a run of
    // 255, repeated; 6 bytes become 255 each. Its output is not kept (the stages stream), but
    // the Burrows-Wheeler block it begins declares more working memory than the bound.
    let mut rle = Vec::new();
    for _ in 0..100 {
        rle.extend([1u8, 1, 1, 1, 1, 255]);
    }
    let mut expanding = 5678i32.to_le_bytes().to_vec();
    expanding.extend([0x05, b'B', b'o', b'm', b'b', 0]);
    expanding.extend(containers::uz1_stream_huffman_only(&rle));
    cases.push(("run-length over a bound", expanding, 10_000));
    // A Huffman tree deeper than a byte alphabet allows.
    let mut deep = 1234i32.to_le_bytes().to_vec();
    deep.extend([0x02, b'X', 0]);
    deep.extend(10i32.to_le_bytes());
    deep.extend([0xff; 40]);
    cases.push(("deep tree", deep, uz::MAX_DECOMPRESSED));
    // Cut short in the Huffman bits.
    let whole = containers::uz1("Sample.u", &sample_package(), false, 0x40000);
    cases.push(("cut", whole[..whole.len() - 20].to_vec(), uz::MAX_DECOMPRESSED));
    // UE2: a chunk declaring more than the engine's 32 KiB.
    let mut big_chunk = containers::uz2(&sample_package());
    big_chunk[4..8].copy_from_slice(&40_000u32.to_le_bytes());
    cases.push(("uz2 chunk size", big_chunk, uz::MAX_DECOMPRESSED));
    // UE2: a zlib stream inflating to more than its chunk declares.
    let mut liar = containers::uz2(&[7u8; 1000]);
    liar[4..8].copy_from_slice(&100u32.to_le_bytes());
    cases.push(("uz2 inflates past its size", liar, uz::MAX_DECOMPRESSED));
    // The output of a valid chain past a bound: counted, never held.
    cases.push((
        "uz output over a bound",
        containers::uz1("Runs.u", &[7u8; 100_000], true, 0x40000),
        50_000,
    ));
    // UE2 chunks past a bound: refused from their headers, before any is inflated.
    cases.push(("uz2 over a bound", containers::uz2(&[0u8; 100_000]), 70_000));
    cases.push(("not compressed", b"PK\x03\x04 a zip file".to_vec(), uz::MAX_DECOMPRESSED));
    let mut named: Vec<String> = Vec::new();
    // Named as compressed files, their errors speak of the format the name says.
    let mut big_chunk = containers::uz2(&sample_package());
    big_chunk[4..8].copy_from_slice(&40_000u32.to_le_bytes());
    named.push(format!("Big.u.uz2: {}", err(summarize(&big_chunk, "Big.u.uz2").map(|_| ()))));
    named.push(format!(
        "Zip.u.uz: {}",
        err(summarize(b"PK\x03\x04 a zip file", "Zip.u.uz").map(|_| ()))
    ));
    check(
        named.join("\n"),
        expect![[r#"
        Big.u.uz2: uz2 chunk 0 at byte 0: expected a chunk of at most 33096 compressed bytes and 32768 uncompressed bytes (the engine refuses more), found 194 and 40000
        Zip.u.uz: uz header at byte 0: expected the signature 1234 or 5678 of a UE1 .uz, found 67324752"#]],
    );
    let out: Vec<String> = cases
        .iter()
        .map(|(what, bytes, limit)| {
            format!(
                "{what}: {}",
                err(uz::decompress_with_limit(bytes, *limit).map(|u| u.data.len()))
            )
        })
        .collect();
    check(
        out.join("\n"),
        expect![[r#"
            huffman count: uz Huffman stream at byte 10: expected at most 536870912 bytes of output (the bound on a decompressed file, counting every buffer the decoder holds at once), but the data decodes to more: a corrupt or hostile file
            huffman over a bound: uz Huffman stream at byte 10: expected at most 4096 bytes of output (the bound on a decompressed file, counting every buffer the decoder holds at once), but the data decodes to more: a corrupt or hostile file
            one-value tree: uz Huffman table at byte 14: expected a tree of more than one byte value for 100000000 bytes (a one-value tree decodes without reading a bit; no compressor writes one for more than 65536 bytes)
            run-length over a bound: uz Burrows-Wheeler stage (after move-to-front) at byte 0: expected at most 10000 bytes of output (the bound on a decompressed file, counting every buffer the decoder holds at once), but the data decodes to more: a corrupt or hostile file
            deep tree: uz Huffman table at byte 43: expected a tree of at most 256 leaves (255 inner nodes), found more
            cut: uz Huffman stream at byte 240: expected more bits: the stream ends before the byte count it declares is decoded
            uz2 chunk size: compressed package header at byte 0: expected a UE1 .uz signature (1234 or 5678, then the file name) or a UE2 .uz2 chunk (sizes, then a zlib stream), found c2 00 00 00
            uz2 inflates past its size: uz2 chunk 0 at byte 8: expected a valid zlib stream of 24 bytes; it inflates to more than the 100 bytes its header declares
            uz output over a bound: uz run-length stage (after Burrows-Wheeler) at byte 845: expected at most 50000 bytes of output (the bound on a decompressed file, counting every buffer the decoder holds at once), but the data decodes to more: a corrupt or hostile file
            uz2 over a bound: uz2 chunk 1 at byte 60: expected at most 70000 bytes of output (the bound on a decompressed file, counting every buffer the decoder holds at once), but the data decodes to more: a corrupt or hostile file
            not compressed: compressed package header at byte 0: expected a UE1 .uz signature (1234 or 5678, then the file name) or a UE2 .uz2 chunk (sizes, then a zlib stream), found 50 4b 03 04"#]],
    );
}

#[test]
fn umod_directory_members_and_refusals() {
    let package = sample_package();
    let compressed = containers::uz1("Walls.utx", &package, false, 0x40000);
    let manifest = b"[Setup]\r\nProduct=MyMod\r\n".to_vec();
    let files: [(&str, &[u8], u32); 3] = [
        ("System\\Manifest.ini", &manifest, umod::FLAG_BOOTSTRAP),
        ("System\\MyMod.u", &package, 0),
        ("Textures\\Walls.utx.uz", &compressed, 0),
    ];
    let archive = containers::umod(&files);
    assert_eq!(detect(&archive, "MyMod.umod"), Some(FormatKind::Umod));
    let parsed = umod::Umod::parse(&archive).unwrap();
    assert_eq!(parsed.computed_crc(), parsed.stored_crc);
    let (entry, bytes) = parsed.member("system/mymod.U").unwrap();
    assert_eq!(entry.name, "System\\MyMod.u");
    assert!(bytes == package.as_slice());
    check(
        summarize(&archive, "MyMod.umod").unwrap().to_string(),
        expect![[r#"
            umod installer version 1, 3 files, CRC 0x152367cf (matches)
              file                         size  flags  format
              System\Manifest.ini            24    0x1
              System\MyMod.u                330    0x0  package
              Textures\Walls.utx.uz         261    0x0  compressed package
        "#]],
    );
    assert_eq!(
        umod::split_member("Mods/MyMod.umod:System/MyMod.u"),
        Some(("Mods/MyMod.umod", "System/MyMod.u"))
    );
    assert_eq!(
        umod::split_member("C:\\UT\\X.UT2MOD:Maps\\A.ut2"),
        Some(("C:\\UT\\X.UT2MOD", "Maps\\A.ut2"))
    );
    assert_eq!(umod::split_member("MyMod.umod"), None);
    assert_eq!(umod::split_member("MyMod.umod:"), None);

    let mut refusals =
        vec![("missing member".to_owned(), err(parsed.member("System/Other.u").map(|_| ())))];
    let mut bad_crc = archive.clone();
    bad_crc[0] ^= 0xff;
    let summary = summarize(&bad_crc, "MyMod.umod").unwrap().to_string();
    refusals.push(("crc".to_owned(), summary.lines().next().unwrap().to_owned()));
    let cut = &archive[..archive.len() - 1];
    refusals.push(("cut".to_owned(), err(umod::Umod::parse(cut).map(|_| ()))));
    let mut appended = archive.clone();
    appended.extend([0u8; 4]);
    let at = appended.len() - 20;
    appended.copy_within(at - 4..at + 16, at);
    refusals.push(("size".to_owned(), err(umod::Umod::parse(&appended).map(|_| ()))));
    let mut outside = archive.clone();
    let dir =
        u32::from_le_bytes(archive[archive.len() - 16..archive.len() - 12].try_into().unwrap())
            as usize;
    // The first entry's size (after count 1 byte, name length 1 byte, 20 name bytes, offset).
    let size_at = dir + 1 + 1 + 20 + 4;
    outside[size_at..size_at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    refusals.push(("entry outside".to_owned(), err(umod::Umod::parse(&outside).map(|_| ()))));
    let mut count = archive.clone();
    count[dir] = 0x3f;
    refusals.push(("count".to_owned(), err(umod::Umod::parse(&count).map(|_| ()))));
    let mut version = archive.clone();
    let v = version.len() - 8;
    version[v] = 2;
    refusals.push(("version".to_owned(), err(umod::Umod::parse(&version).map(|_| ()))));
    let out: Vec<String> = refusals.iter().map(|(w, e)| format!("{w}: {e}")).collect();
    check(
        out.join("\n"),
        expect![[r#"
            missing member: umod directory at byte 615: expected a file named "System/Other.u"; the archive holds 3 files: System\Manifest.ini, System\MyMod.u, Textures\Walls.utx.uz
            crc: umod installer version 1, 3 files, CRC 0x152367cf (does not match the contents: the engine refuses the archive as corrupt)
            cut: umod trailer at byte 711: expected the archive magic 0x9fe3c5a3 (the last 20 bytes of a .umod), found 0xe3c5a300; the magic is at byte 712: the file is 1 byte shorter than the archive (its trailer says the archive is 732 bytes), and the engine refuses it as an incomplete download
            size: umod trailer at byte 724: expected the archive's size 732 to be the file's (736 bytes): the engine refuses it as an incomplete download
            entry outside: umod directory entry 0 at byte 637: expected the bytes of "System\\Manifest.ini" (offset 0, size 4294967295) to lie before the directory at byte 615
            count: umod directory at byte 616: expected file count of 63 items of at least 13 bytes to fit in the 96 bytes left
            version: umod trailer at byte 724: expected archive version 1, found 2"#]],
    );
}

/// A `.umod` whose trailer or sizes disagree with the file (cut short as an interrupted
/// download leaves it, a size one too large, bytes appended) is refused with the byte and
/// what was expected, by its name or, when its trailer is near the end, by its bytes alone;
/// never read as the package it begins with (issue 43, item 2).
#[test]
fn a_damaged_umod_is_refused_never_read_as_the_package_it_begins_with() {
    let package = sample_package();
    let manifest = b"[Setup]\r\nProduct=MyMod\r\n".to_vec();
    let files: [(&str, &[u8], u32); 2] =
        [("System\\MyMod.u", &package, 0), ("System\\Manifest.ini", &manifest, 1)];
    let archive = containers::umod(&files);
    let len = archive.len();
    let mut cases: Vec<(String, Vec<u8>)> = Vec::new();
    for cut in [1, 2, 8, 16, 17, 20, 100] {
        cases.push((format!("cut by {cut}"), archive[..len - cut].to_vec()));
    }
    for delta in [1i64, -1, 1000] {
        let mut sized = archive.clone();
        let size = (len as i64 + delta) as u32;
        sized[len - 12..len - 8].copy_from_slice(&size.to_le_bytes());
        cases.push((format!("size field {delta:+}"), sized));
    }
    let mut grown = archive.clone();
    grown.extend([0u8; 3]);
    cases.push(("3 bytes appended".to_owned(), grown));
    let mut out = Vec::new();
    // Cut past the magic and not named as an archive, nothing in the file says it was one:
    // it is read as what it begins with (asserted as it is).
    for (what, bytes) in &cases {
        for name in ["MyMod.umod", "MyMod"] {
            let kind = detect(bytes, name);
            let result = summarize(bytes, name).map(|s| s.to_string());
            let shown = match result {
                Ok(text) => format!("read: {}", text.lines().next().unwrap_or_default()),
                Err(e) => e.to_string(),
            };
            out.push(format!("{what}, named {name}: {kind:?}: {shown}"));
        }
    }
    check(
        out.join("\n"),
        expect![[r#"
        cut by 1, named MyMod.umod: Some(Umod): umod trailer at byte 415: expected the archive magic 0x9fe3c5a3 (the last 20 bytes of a .umod), found 0xe3c5a300; the magic is at byte 416: the file is 1 byte shorter than the archive (its trailer says the archive is 436 bytes), and the engine refuses it as an incomplete download
        cut by 1, named MyMod: Some(Umod): umod trailer at byte 415: expected the archive magic 0x9fe3c5a3 (the last 20 bytes of a .umod), found 0xe3c5a300; the magic is at byte 416: the file is 1 byte shorter than the archive (its trailer says the archive is 436 bytes), and the engine refuses it as an incomplete download
        cut by 2, named MyMod.umod: Some(Umod): umod trailer at byte 414: expected the archive magic 0x9fe3c5a3 (the last 20 bytes of a .umod), found 0xc5a30000; the magic is at byte 416: the file is 2 bytes shorter than the archive (its trailer says the archive is 436 bytes), and the engine refuses it as an incomplete download
        cut by 2, named MyMod: Some(Umod): umod trailer at byte 414: expected the archive magic 0x9fe3c5a3 (the last 20 bytes of a .umod), found 0xc5a30000; the magic is at byte 416: the file is 2 bytes shorter than the archive (its trailer says the archive is 436 bytes), and the engine refuses it as an incomplete download
        cut by 8, named MyMod.umod: Some(Umod): umod trailer at byte 408: expected the archive magic 0x9fe3c5a3 (the last 20 bytes of a .umod), found 0x00000018; the magic is at byte 416: the file is 8 bytes shorter than the archive (its trailer says the archive is 436 bytes), and the engine refuses it as an incomplete download
        cut by 8, named MyMod: Some(Umod): umod trailer at byte 408: expected the archive magic 0x9fe3c5a3 (the last 20 bytes of a .umod), found 0x00000018; the magic is at byte 416: the file is 8 bytes shorter than the archive (its trailer says the archive is 436 bytes), and the engine refuses it as an incomplete download
        cut by 16, named MyMod.umod: Some(Umod): umod trailer at byte 400: expected the archive magic 0x9fe3c5a3 (the last 20 bytes of a .umod), found 0x00696e69; the magic is at byte 416: the file is 16 bytes shorter than the archive, and the engine refuses it as an incomplete download
        cut by 16, named MyMod: Some(Umod): umod trailer at byte 400: expected the archive magic 0x9fe3c5a3 (the last 20 bytes of a .umod), found 0x00696e69; the magic is at byte 416: the file is 16 bytes shorter than the archive, and the engine refuses it as an incomplete download
        cut by 17, named MyMod.umod: Some(Umod): umod trailer at byte 399: expected the archive magic 0x9fe3c5a3 (the last 20 bytes of a .umod), found 0x696e692e
        cut by 17, named MyMod: Some(Package): read: package version 69 (licensee 0), flags 0x00000001
        cut by 20, named MyMod.umod: Some(Umod): umod trailer at byte 396: expected the archive magic 0x9fe3c5a3 (the last 20 bytes of a .umod), found 0x2e747365
        cut by 20, named MyMod: Some(Package): read: package version 69 (licensee 0), flags 0x00000001
        cut by 100, named MyMod.umod: Some(Umod): umod trailer at byte 316: expected the archive magic 0x9fe3c5a3 (the last 20 bytes of a .umod), found 0x00000000
        cut by 100, named MyMod: Some(Package): read: package version 69 (licensee 0), flags 0x00000001
        size field +1, named MyMod.umod: Some(Umod): umod trailer at byte 424: expected the archive's size 437 to be the file's (436 bytes): the engine refuses it as an incomplete download
        size field +1, named MyMod: Some(Umod): umod trailer at byte 424: expected the archive's size 437 to be the file's (436 bytes): the engine refuses it as an incomplete download
        size field -1, named MyMod.umod: Some(Umod): umod trailer at byte 424: expected the archive's size 435 to be the file's (436 bytes): the engine refuses it as an incomplete download
        size field -1, named MyMod: Some(Umod): umod trailer at byte 424: expected the archive's size 435 to be the file's (436 bytes): the engine refuses it as an incomplete download
        size field +1000, named MyMod.umod: Some(Umod): umod trailer at byte 424: expected the archive's size 1436 to be the file's (436 bytes): the engine refuses it as an incomplete download
        size field +1000, named MyMod: Some(Umod): umod trailer at byte 424: expected the archive's size 1436 to be the file's (436 bytes): the engine refuses it as an incomplete download
        3 bytes appended, named MyMod.umod: Some(Umod): umod trailer at byte 419: expected the archive magic 0x9fe3c5a3 (the last 20 bytes of a .umod), found 0x0001629f; the magic is at byte 416: 3 bytes follow the archive's trailer, and the engine refuses it as an incomplete download
        3 bytes appended, named MyMod: Some(Umod): umod trailer at byte 419: expected the archive magic 0x9fe3c5a3 (the last 20 bytes of a .umod), found 0x0001629f; the magic is at byte 416: 3 bytes follow the archive's trailer, and the engine refuses it as an incomplete download"#]],
    );
}
