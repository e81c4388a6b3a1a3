//! An outline read in pieces and joined equals the outline read in one pass, wherever the
//! pieces are cut: on every fixture and corpus map, and on generated documents made of the
//! lines that change the parser's state (unclosed and stray blocks, maps opened late or
//! closed halfway, clipboard copies, blocks nested past the limit). Pieces parsed in full
//! join into exactly the whole parse, or not at all.

use unreal_syntax::t3d::{self, OutlinePlan};

/// The outline of `text` joined from `plan`'s pieces.
fn joined(text: &str, plan: &OutlinePlan) -> t3d::Parse {
    let pieces = (0..plan.len()).map(|i| plan.piece(text, i)).collect();
    plan.join(text, pieces)
}

/// The whole parse of `text` joined from `plan`'s pieces parsed in full, checking it against
/// one pass; whether they joined.
fn parsed_joins(name: &str, text: &str, plan: &OutlinePlan, expected: &t3d::Parse) -> bool {
    let pieces = (0..plan.len()).map(|i| plan.parse_piece(text, i)).collect();
    match plan.join_parsed(text, pieces) {
        Some(parse) => {
            assert_eq!(&parse, expected, "{name}: pieces parsed in full");
            true
        }
        None => false,
    }
}

/// The starts of every line of `text`.
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect()
}

/// Checks the outline's and the full parse's joins on `text`; whether the full parse's
/// pieces joined when cut at every actor.
fn check(name: &str, text: &str, rng: &mut u64) -> bool {
    let expected = t3d::outline(text);
    let whole = t3d::parse(text);
    let every_line = line_starts(text);
    // Cut at every `Begin Actor` (the plan keeps only those among the candidates).
    let every = OutlinePlan::with_cuts(text, &every_line);
    assert_eq!(joined(text, &every), expected, "{name}: cut at every actor");
    let joins = parsed_joins(name, text, &every, &whole);
    for pieces in [1, 2, 3, 4, 7] {
        let plan = OutlinePlan::new(text, pieces);
        assert!(plan.len() <= pieces, "{name}: {} pieces asked {pieces}", plan.len());
        assert_eq!(joined(text, &plan), expected, "{name}: {pieces} pieces");
        parsed_joins(name, text, &plan, &whole);
    }
    for round in 0..4 {
        let some: Vec<usize> =
            every_line.iter().copied().filter(|_| next(rng).is_multiple_of(3)).collect();
        let plan = OutlinePlan::with_cuts(text, &some);
        assert_eq!(joined(text, &plan), expected, "{name}: random cuts, round {round}");
        parsed_joins(name, text, &plan, &whole);
    }
    joins
}

fn next(state: &mut u64) -> u64 {
    // xorshift64*
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

#[test]
fn joined_pieces_equal_one_pass_on_fixtures_and_corpus() {
    let mut rng = 0x9E37_79B9_7F4A_7C15;
    let texts = super::fixture_and_corpus_texts();
    assert!(texts.len() >= 10);
    let mut joined = 0;
    for (name, text) in &texts {
        joined += usize::from(check(name, text, &mut rng));
    }
    // The real maps and most fixtures are well formed: their pieces join.
    assert!(joined * 2 > texts.len(), "{joined} of {} joined", texts.len());
}

#[test]
fn joined_pieces_equal_one_pass_on_generated_documents() {
    const LINES: &[&str] = &[
        "Begin Map",
        "End Map",
        "Begin Level",
        "End Level",
        "Begin Actor Class=Light Name=Light0",
        "  begin   ACTOR Class=Brush Name=Brush1",
        "\tBegin Actor",
        "Begin Actor Flags=abc",
        "End Actor",
        "End",
        "Begin",
        "Begin Brush Name=Model0",
        "End Brush",
        "Begin PolyList",
        "End PolyList",
        "Begin Polygon Flags=3 Link=x",
        "End Polygon",
        "Vertex +1,+2,+3",
        "Location=(X=1)",
        "",
        "   ",
        "End Actor\r",
        "Begin Actor Class=A\r",
        "Begin Map Name=Inner",
        "End Brush Extra",
        "Begin Actorx",
    ];
    let mut rng = 0x0123_4567_89AB_CDEF;
    let mut joined = 0;
    for case in 0..400 {
        let mut text = String::new();
        let frame = !next(&mut rng).is_multiple_of(4);
        if frame {
            text.push_str("Begin Map\n");
        }
        let count = 5 + next(&mut rng) % 60;
        for _ in 0..count {
            let line = LINES[(next(&mut rng) % LINES.len() as u64) as usize];
            text.push_str(line);
            text.push('\n');
            if next(&mut rng).is_multiple_of(50) {
                // Past the nesting limit now and then.
                for _ in 0..(t3d::MAX_DEPTH + 3) {
                    text.push_str("Begin Brush\n");
                }
            }
        }
        if frame && !next(&mut rng).is_multiple_of(3) {
            text.push_str("End Map\n");
        }
        if next(&mut rng).is_multiple_of(5) {
            text.pop();
        }
        joined += usize::from(check(&format!("generated case {case}:\n{text}"), &text, &mut rng));
    }
    // Some of the generated documents join, some do not: both ways are tested.
    assert!(joined > 10 && joined < 390, "{joined} of 400 joined");
}
