//! Text from a file (an object name in a package, a file name, a message that quotes them)
//! made safe to print: what a crafted file could use to act on a terminal or to make the
//! output say something it does not is written as an escape (`\u{1b}`) instead.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Characters that reorder or hide text without being control characters: the
/// bidirectional embeddings, overrides and isolates (U+202E shows what follows reversed),
/// the marks, zero-width characters and the byte-order mark.
fn invisible_or_reordering(c: char) -> bool {
    matches!(
        c,
        '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}'
            | '\u{FEFF}'
    )
}

/// Characters that break a line without being control characters: the line and paragraph
/// separators (some terminals, editors and log viewers start a line at them).
fn line_separator(c: char) -> bool {
    matches!(c, '\u{2028}' | '\u{2029}')
}

fn escaped(text: &str, unsafe_char: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(&unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Text of several lines (a message, a summary): control characters other than line breaks
/// and tabs (escape sequences, carriage returns, bells, C1) and the characters that reorder
/// or hide text are escaped, so a crafted package cannot clear the screen, move the cursor
/// or show a name backwards.
pub fn printable(text: &str) -> Cow<'_, str> {
    escaped(text, |c| (c.is_control() && c != '\n' && c != '\t') || invisible_or_reordering(c))
}

/// One line's worth (a file name, an object name, a table cell, an error message that
/// names them): [`printable`], and line breaks (line feed, carriage return, the Unicode
/// line and paragraph separators) and tabs escaped too, so that a name cannot start a line
/// of its own (a forged ` --> path:line:col`, a table row). The one function every name
/// taken from a file goes through on its way to a terminal or a log.
pub fn printable_line(text: &str) -> Cow<'_, str> {
    escaped(text, |c| c.is_control() || invisible_or_reordering(c) || line_separator(c))
}

/// A one-line message that quotes text from a file (a whole T3D line, which may hold tabs):
/// [`printable_line`], with tabs kept.
pub fn printable_message(text: &str) -> Cow<'_, str> {
    escaped(text, |c| {
        (c.is_control() && c != '\t') || invisible_or_reordering(c) || line_separator(c)
    })
}

#[cfg(test)]
mod tests {
    use super::{printable, printable_line, printable_message};

    #[test]
    fn what_could_act_on_a_terminal_or_forge_a_line_is_escaped() {
        assert_eq!(printable("plain text\nsecond line"), "plain text\nsecond line");
        assert_eq!(printable("\u{1b}[2Jcleared"), "\\u{1b}[2Jcleared");
        assert_eq!(printable("evil\u{202E}txt.t3d"), "evil\\u{202e}txt.t3d");
        assert_eq!(
            printable_line("Map.t3d\n --> other.t3d:1:1"),
            "Map.t3d\\u{a} --> other.t3d:1:1"
        );
        assert_eq!(printable_line("tab\there"), "tab\\u{9}here");
        assert_eq!(printable_line("a\r\nb\u{2028}c\u{85}d"), "a\\u{d}\\u{a}b\\u{2028}c\\u{85}d");
        assert_eq!(printable_message("tab\there\nFORGED"), "tab\there\\u{a}FORGED");
        assert_eq!(printable_line("Café Ünïcode"), "Café Ünïcode");
    }
}
