//! The command-line mode: each subcommand in its own module, rendering results from
//! `unreal-analysis` for terminals and machines.

pub mod baseline;
pub mod diff;
pub mod export;
pub mod fix;
pub mod info;
pub mod lint;
pub mod map_render;
pub mod output;
pub mod render;
pub mod rules;

/// No error-level finding.
pub const EXIT_CLEAN: u8 = 0;
/// At least one error-level finding (or warnings under `--deny-warnings` or past
/// `--max-warnings`; or an unreadable file for `info`).
pub const EXIT_FINDINGS: u8 = 1;
/// Usage, configuration or I/O failure.
pub const EXIT_USAGE: u8 = 2;

/// Text from a file (an object name in a package, say) made safe for a terminal: control
/// characters other than line breaks and tabs (escape sequences, carriage returns, bells, C1)
/// are written as `\u{1b}`, so a crafted package cannot clear the screen or move the cursor.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(
        text.chars()
            .map(
                |c| {
                    if unsafe_char(c) {
                        format!("\\u{{{:x}}}", u32::from(c))
                    } else {
                        c.to_string()
                    }
                },
            )
            .collect(),
    )
}
