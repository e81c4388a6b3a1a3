//! Preprocessors in front of UCC: which lines of a class the compiler really reads.
//!
//! Epic's UCC has no preprocessor: `CompileDirective` knows `exec`, `AlwaysExec`, `ForceExec`,
//! `call`, `AlwaysCall`, `error` and (UE2) `include`, and any other `#word` stops the compile
//! (UT v400 `Editor/Src/UnScrCom.cpp:2982-3047`, UT2004 `:3659-3786`). Real trees still hold
//! other `#` lines, for two reasons:
//!
//! - Irrational's UE2 branch (SWAT 4, Tribes: Vengeance) compiles with a C-like preprocessor
//!   in UCC itself: Core's `Object.uc` defines the build's symbols (`#define IG_SHARED 1`) and
//!   the classes select code with `#if SYM` / `#if !SYM` / `#ifdef` / `#elif` / `#else` /
//!   `#endif`; a class may `#define` symbols of its own. The shipped packages hold only the
//!   selected branches, and an `#error` inside a branch that is not selected never fires.
//! - Mod teams run a preprocessor of their own before UCC (Deus Ex Randomizer: `#ifdef`,
//!   `#compileif`, `#var(prefix)`), with its definitions in a settings file UCC never sees.
//!
//! [`Preprocessed::run`] reads the conditional lines of a file and, where the symbols are
//! known, which byte ranges the preprocessor removes; the directive checks skip those ranges.
//! Where the symbols are not known (a tool's settings, or a tree without Core's `Object.uc`),
//! a branch is undecided: its directives are still checked (they compile in one build or
//! another).

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use unreal_syntax::exec::ScanError;
use unreal_syntax::Span;

/// The words of the C-like preprocessors real trees use. `elseif` is the Deus Ex Randomizer
/// tool's spelling of `elif`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PreprocessorWord {
    If,
    Ifdef,
    Ifndef,
    Elif,
    Else,
    Endif,
    Define,
    Undef,
}

impl PreprocessorWord {
    pub fn from_word(word: &str) -> Option<Self> {
        Some(match word.to_ascii_lowercase().as_str() {
            "if" => Self::If,
            "ifdef" => Self::Ifdef,
            "ifndef" => Self::Ifndef,
            "elif" | "elseif" => Self::Elif,
            "else" => Self::Else,
            "endif" => Self::Endif,
            "define" => Self::Define,
            "undef" => Self::Undef,
            _ => return None,
        })
    }
}

/// One conditional or definition line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PreprocessorLine {
    pub word: PreprocessorWord,
    /// `#` and the word (`#ifdef`).
    pub hash_span: Span,
    /// The rest of the line up to a `//` or `/*` comment, untrimmed.
    pub body: Span,
}

/// What is known of one symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Symbol {
    /// Defined, with its value when that is a number.
    Defined(Option<i64>),
    /// Known not to be defined (`#undef`).
    Undefined,
    /// Defined or not, depending on something not read (a branch that cannot be decided).
    Unknown,
}

/// Symbols and their values (`#define IG_SWAT 1`); names compare ignoring case, as every
/// name in UnrealScript does.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Defines {
    symbols: HashMap<String, Symbol>,
    /// True when every symbol the build defines is here (Core's `Object.uc` was read): a
    /// symbol not here is undefined, 0 in an `#if`. False: a symbol not here is unknown.
    pub complete: bool,
}

impl Defines {
    pub fn complete() -> Self {
        Self { symbols: HashMap::new(), complete: true }
    }

    pub fn define(&mut self, name: &str, value: Option<i64>) {
        self.symbols.insert(name.to_ascii_lowercase(), Symbol::Defined(value));
    }

    pub fn undefine(&mut self, name: &str) {
        self.symbols.insert(name.to_ascii_lowercase(), Symbol::Undefined);
    }

    /// From here on, whether `name` is defined is not known.
    fn forget(&mut self, name: &str) {
        self.symbols.insert(name.to_ascii_lowercase(), Symbol::Unknown);
    }

    fn symbol(&self, name: &str) -> Symbol {
        match self.symbols.get(&name.to_ascii_lowercase()) {
            Some(symbol) => *symbol,
            None if self.complete => Symbol::Undefined,
            None => Symbol::Unknown,
        }
    }

    /// `Some(true)` when defined, `Some(false)` when not, `None` when unknown.
    fn is_defined(&self, name: &str) -> Option<bool> {
        match self.symbol(name) {
            Symbol::Defined(_) => Some(true),
            Symbol::Undefined => Some(false),
            Symbol::Unknown => None,
        }
    }

    /// The value of a symbol in an expression: 0 when undefined (C's rule), `None` when
    /// unknown or not a number.
    fn value(&self, name: &str) -> Option<i64> {
        match self.symbol(name) {
            Symbol::Defined(value) => value,
            Symbol::Undefined => Some(0),
            Symbol::Unknown => None,
        }
    }
}

/// Who runs the preprocessor, and with which symbols.
#[derive(Clone, Debug)]
pub enum Mode {
    /// The game's own UCC (SWAT 4, Tribes: Vengeance), starting from the symbols of Core's
    /// `Object.uc` when it was found (`Defines::complete`), else from nothing known.
    Compiler(Arc<Defines>),
    /// Not the compiler: a tool of the project's own, whose symbols are not known (only
    /// literal conditions, `#if 0`, and the file's own `#define`s decide a branch).
    Tool,
}

/// Whether a stretch of the file is compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Active,
    Inactive,
    Undecided,
}

/// What the preprocessor does to one file.
#[derive(Clone, Debug, Default)]
pub struct Preprocessed {
    /// The conditional and definition lines, in order (those inside removed branches too).
    pub lines: Vec<PreprocessorLine>,
    /// Byte ranges the preprocessor removes (branches whose condition is false). A branch
    /// that cannot be decided is kept: its directives compile in one build or another.
    pub inactive: Vec<Range<usize>>,
    /// True when the game's UCC runs the preprocessor (its lines are the compiler's own).
    pub by_compiler: bool,
}

impl Preprocessed {
    /// Reads the conditional lines among `errors` (the scanner reports every `#word` it does
    /// not know as [`ScanError::UnknownDirective`]) and decides the branches with `mode`'s
    /// symbols. The errors that are conditional lines are taken out of `errors`, and so is
    /// any error inside a removed branch.
    pub fn run(text: &str, errors: &mut Vec<ScanError>, mode: &Mode) -> Self {
        let lines = take_lines(text, errors);
        if lines.is_empty() {
            return Self::default();
        }
        let (mut defines, by_compiler) = match mode {
            Mode::Compiler(base) => (Defines::clone(base), true),
            Mode::Tool => (Defines::default(), false),
        };
        let mut out = Self { lines, by_compiler, ..Self::default() };
        out.decide(text, &mut defines);
        // The lines were taken from the errors in order, so their starts are sorted.
        let starts: Vec<u32> = out.lines.iter().map(|l| l.hash_span.start).collect();
        errors.retain(|error| match *error {
            ScanError::UnknownDirective { span } => {
                starts.binary_search(&span.start).is_err() && !out.removes(span.start as usize)
            }
            _ => true,
        });
        out
    }

    /// The symbols a file defines for the files compiled after it (Core's `Object.uc`): its
    /// `#define`s and `#undef`s outside removed branches, read with nothing defined before.
    pub fn defines_of(text: &str) -> Defines {
        let errors = unreal_syntax::exec::scan(text).errors;
        let mut defines = Defines::complete();
        let mut out = Self { lines: take_lines(text, &errors), ..Self::default() };
        out.decide(text, &mut defines);
        defines
    }

    /// True when the byte at `at` lies in a removed branch.
    pub fn removes(&self, at: usize) -> bool {
        // `inactive` is sorted and without overlaps ([`Self::decide`]).
        let after = self.inactive.partition_point(|r| r.start <= at);
        after > 0 && self.inactive[after - 1].contains(&at)
    }

    fn decide(&mut self, text: &str, defines: &mut Defines) {
        /// One `#if` group: the state around it, whether a branch was taken (`None`: maybe),
        /// and the current branch's state and start.
        struct Group {
            outer: State,
            taken: Option<bool>,
            state: State,
            from: usize,
        }
        let mut stack: Vec<Group> = Vec::new();
        let current = |stack: &[Group]| stack.last().map_or(State::Active, |g| g.state);
        let lines = std::mem::take(&mut self.lines);
        for line in &lines {
            let line_start = line.hash_span.start as usize;
            let next_line = text[line.body.end as usize..]
                .find('\n')
                .map_or(text.len(), |p| line.body.end as usize + p + 1);
            let body = line.body.text(text).trim();
            match line.word {
                PreprocessorWord::If | PreprocessorWord::Ifdef | PreprocessorWord::Ifndef => {
                    let outer = current(&stack);
                    let condition = match line.word {
                        PreprocessorWord::If => evaluate(body, defines).map(|v| v != 0),
                        PreprocessorWord::Ifdef => {
                            first_name(body).and_then(|n| defines.is_defined(n))
                        }
                        _ => first_name(body).and_then(|n| defines.is_defined(n)).map(|d| !d),
                    };
                    let state = branch_state(outer, condition);
                    stack.push(Group { outer, taken: condition, state, from: next_line });
                }
                PreprocessorWord::Elif | PreprocessorWord::Else => {
                    let Some(group) = stack.last_mut() else { continue };
                    self.close(group.state, group.from..line_start);
                    let condition = if line.word == PreprocessorWord::Else {
                        Some(true)
                    } else {
                        evaluate(body, defines).map(|v| v != 0)
                    };
                    // This branch is taken when no branch before it was and its condition
                    // holds.
                    let takes = match group.taken {
                        Some(true) => Some(false),
                        Some(false) => condition,
                        None if condition == Some(false) => Some(false),
                        None => None,
                    };
                    group.state = branch_state(group.outer, takes);
                    group.taken = match (group.taken, condition) {
                        (Some(true), _) | (_, Some(true)) => Some(true),
                        (Some(false), Some(false)) => Some(false),
                        _ => None,
                    };
                    group.from = next_line;
                }
                PreprocessorWord::Endif => {
                    let Some(group) = stack.pop() else { continue };
                    self.close(group.state, group.from..line_start);
                }
                PreprocessorWord::Define | PreprocessorWord::Undef => {
                    if current(&stack) != State::Active {
                        // A definition in a removed or undecided branch: from here on its
                        // symbol is no longer known either way.
                        if current(&stack) == State::Undecided {
                            if let Some(name) = first_name(body) {
                                defines.forget(name);
                            }
                        }
                        continue;
                    }
                    let Some(name) = first_name(body) else { continue };
                    if line.word == PreprocessorWord::Undef {
                        defines.undefine(name);
                    } else {
                        let rest = body[name.len()..].trim();
                        let value = if rest.is_empty() { Some(1) } else { evaluate(rest, defines) };
                        defines.define(name, value);
                    }
                }
            }
        }
        // Unclosed groups run to the end of the file.
        while let Some(group) = stack.pop() {
            self.close(group.state, group.from..text.len());
        }
        self.lines = lines;
        // Ranges close innermost first and nest: sorted and merged, a lookup is a search.
        self.inactive.sort_by_key(|r| r.start);
        let mut merged: Vec<Range<usize>> = Vec::with_capacity(self.inactive.len());
        for range in self.inactive.drain(..) {
            match merged.last_mut() {
                Some(last) if range.start <= last.end => last.end = last.end.max(range.end),
                _ => merged.push(range),
            }
        }
        self.inactive = merged;
    }

    /// Records a branch that ended: removed when its state is inactive.
    fn close(&mut self, state: State, range: Range<usize>) {
        if state == State::Inactive && !range.is_empty() {
            self.inactive.push(range);
        }
    }
}

/// The conditional and definition lines among the scanner's unknown directives.
fn take_lines(text: &str, errors: &[ScanError]) -> Vec<PreprocessorLine> {
    let mut lines = Vec::new();
    for error in errors {
        let ScanError::UnknownDirective { span } = *error else { continue };
        let word = span.text(text).trim_start_matches('#').trim_start();
        let Some(word) = PreprocessorWord::from_word(word) else { continue };
        lines.push(PreprocessorLine { word, hash_span: span, body: body_after(text, span) });
    }
    lines
}

fn branch_state(outer: State, condition: Option<bool>) -> State {
    match (outer, condition) {
        (State::Inactive, _) | (_, Some(false)) => State::Inactive,
        (State::Active, Some(true)) => State::Active,
        _ => State::Undecided,
    }
}

/// The rest of the line after `#word`, up to a `//` or `/*` comment.
fn body_after(text: &str, hash_span: Span) -> Span {
    let start = hash_span.end as usize;
    let rest = &text[start..];
    let line = rest.find(['\n', '\r']).map_or(rest, |p| &rest[..p]);
    let end = [line.find("//"), line.find("/*")].into_iter().flatten().min().unwrap_or(line.len());
    Span::from_range(start..start + end)
}

fn first_name(body: &str) -> Option<&str> {
    let body = body.trim_start();
    let end = body.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(body.len());
    (end > 0 && !body.as_bytes()[0].is_ascii_digit()).then(|| &body[..end])
}

/// Evaluates a condition: numbers, symbols, `defined(SYM)`, `!`, `==`, `!=`, `<`, `>`, `<=`,
/// `>=`, `&&`, `||` and parentheses. `None` when a symbol is unknown or the text is not such an
/// expression.
pub fn evaluate(text: &str, defines: &Defines) -> Option<i64> {
    let tokens = tokenize(text)?;
    let mut parser = Parser { tokens: &tokens, at: 0, defines, depth: 0 };
    let value = parser.or()?;
    (parser.at == tokens.len()).then_some(value)
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token<'a> {
    Number(i64),
    Name(&'a str),
    Op(&'static str),
}

fn tokenize(text: &str) -> Option<Vec<Token<'_>>> {
    const OPS: [&str; 11] = ["&&", "||", "==", "!=", "<=", ">=", "!", "<", ">", "(", ")"];
    let mut tokens = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let first = rest.as_bytes()[0];
        if first.is_ascii_digit() {
            let end = rest.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(rest.len());
            let digits = rest[..end].trim_end_matches(['u', 'U', 'l', 'L']);
            let value = match digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
                Some(hex) => i64::from_str_radix(hex, 16).ok()?,
                None => digits.parse().ok()?,
            };
            tokens.push(Token::Number(value));
            rest = &rest[end..];
        } else if first.is_ascii_alphabetic() || first == b'_' {
            let end =
                rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
            tokens.push(Token::Name(&rest[..end]));
            rest = &rest[end..];
        } else {
            let op = OPS.into_iter().find(|op| rest.starts_with(op))?;
            tokens.push(Token::Op(op));
            rest = &rest[op.len()..];
        }
        rest = rest.trim_start();
    }
    (!tokens.is_empty()).then_some(tokens)
}

/// How deep `!` and parentheses may nest in a condition: a hostile line of a million `(`
/// must not exhaust the stack (real conditions nest two or three deep).
const MAX_NESTING: usize = 64;

struct Parser<'t, 'a> {
    tokens: &'t [Token<'a>],
    at: usize,
    defines: &'t Defines,
    /// `!` and `(` open now.
    depth: usize,
}

impl Parser<'_, '_> {
    fn eat(&mut self, op: &'static str) -> bool {
        let found = self.tokens.get(self.at) == Some(&Token::Op(op));
        if found {
            self.at += 1;
        }
        found
    }

    fn or(&mut self) -> Option<i64> {
        let mut left = self.and();
        while self.eat("||") {
            let right = self.and();
            // `1 || unknown` is 1 whatever the unknown is.
            left = match (left, right) {
                (Some(a), Some(b)) => Some(i64::from(a != 0 || b != 0)),
                (Some(a), None) | (None, Some(a)) if a != 0 => Some(1),
                _ => None,
            };
        }
        left
    }

    fn and(&mut self) -> Option<i64> {
        let mut left = self.comparison();
        while self.eat("&&") {
            let right = self.comparison();
            left = match (left, right) {
                (Some(a), Some(b)) => Some(i64::from(a != 0 && b != 0)),
                (Some(0), None) | (None, Some(0)) => Some(0),
                _ => None,
            };
        }
        left
    }

    fn comparison(&mut self) -> Option<i64> {
        let left = self.unary();
        let op = match self.tokens.get(self.at) {
            Some(Token::Op(op @ ("==" | "!=" | "<" | ">" | "<=" | ">="))) => *op,
            _ => return left,
        };
        self.at += 1;
        let right = self.unary();
        let (a, b) = (left?, right?);
        Some(i64::from(match op {
            "==" => a == b,
            "!=" => a != b,
            "<" => a < b,
            ">" => a > b,
            "<=" => a <= b,
            _ => a >= b,
        }))
    }

    fn unary(&mut self) -> Option<i64> {
        if self.depth >= MAX_NESTING {
            // Not a condition anyone writes: nothing after this is read.
            self.at = usize::MAX / 2;
            return None;
        }
        if self.eat("!") {
            self.depth += 1;
            let value = self.unary().map(|v| i64::from(v == 0));
            self.depth -= 1;
            return value;
        }
        if self.eat("(") {
            self.depth += 1;
            let value = self.or();
            self.depth -= 1;
            if !self.eat(")") {
                // Not an expression: nothing after this is read.
                self.at = usize::MAX / 2;
                return None;
            }
            return value;
        }
        match self.tokens.get(self.at).cloned() {
            Some(Token::Number(n)) => {
                self.at += 1;
                Some(n)
            }
            Some(Token::Name("defined")) => {
                self.at += 1;
                let parenthesized = self.eat("(");
                let Some(Token::Name(symbol)) = self.tokens.get(self.at).cloned() else {
                    self.at = usize::MAX / 2;
                    return None;
                };
                self.at += 1;
                if parenthesized && !self.eat(")") {
                    self.at = usize::MAX / 2;
                    return None;
                }
                self.defines.is_defined(symbol).map(i64::from)
            }
            Some(Token::Name(name)) => {
                self.at += 1;
                self.defines.value(name)
            }
            _ => {
                self.at = usize::MAX / 2;
                None
            }
        }
    }
}

/// What shows that a class passes through a preprocessor of the project's own (not UCC's):
/// its conditional lines. Kept with the class's symbols so that a package says it once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evidence {
    /// The first preprocessor line's `#word`.
    pub first: Span,
    /// How many conditional or definition lines the class has (its other preprocessor words
    /// aside).
    pub lines: usize,
    /// The preprocessor words it uses, as written first (`#ifdef`, `#compileif`), at most
    /// eight.
    pub words: Vec<String>,
}

impl Evidence {
    /// The evidence in a file, `None` when it has no conditional line or when the game's
    /// own UCC runs the preprocessor. `remaining` are the scanner's errors left after the
    /// conditional lines were taken out: the other `#words` of a preprocessed file
    /// (`#compileif`) are named too.
    pub fn of(text: &str, preprocessed: &Preprocessed, remaining: &[ScanError]) -> Option<Self> {
        if preprocessed.by_compiler {
            return None;
        }
        let others = remaining.iter().filter_map(|e| match *e {
            ScanError::UnknownDirective { span } if !near_miss(directive_word(span.text(text))) => {
                Some(span)
            }
            _ => None,
        });
        let mut spans: Vec<Span> =
            preprocessed.lines.iter().map(|l| l.hash_span).chain(others).collect();
        spans.sort_by_key(|s| s.start);
        let first = *spans.first()?;
        let mut words: Vec<String> = Vec::new();
        for span in spans {
            let word = format!("#{}", directive_word(span.text(text)));
            if words.len() < 8 && !words.iter().any(|w| w.eq_ignore_ascii_case(&word)) {
                words.push(word);
            }
        }
        Some(Self { first, lines: preprocessed.lines.len(), words })
    }

    /// True when the class has conditional lines: what shows a preprocessor (a `#word` alone
    /// may be a typo).
    pub fn conditional(&self) -> bool {
        self.lines > 0
    }
}

/// The word of a `#word` span (`# exec` -> `exec`).
pub fn directive_word(hash_word: &str) -> &str {
    hash_word.trim_start_matches('#').trim_start()
}

/// True when `word` is within two edits of a directive UCC knows (`exce`, `ForceExe`): a
/// typo, an error in any tree. Preprocessor words are further away (`else`, `endif`, `if`,
/// `ifdef`, `define`, `var` are all three or more edits from every UCC directive).
pub fn near_miss(word: &str) -> bool {
    const DIRECTIVES: [&str; 7] =
        ["exec", "alwaysexec", "forceexec", "call", "alwayscall", "error", "include"];
    let word = word.to_ascii_lowercase();
    word.len() >= 3 && DIRECTIVES.iter().any(|d| unreal_syntax::text::edit_distance(&word, d) <= 2)
}

#[cfg(test)]
mod tests {
    use super::{evaluate, Defines, Mode, Preprocessed};
    use std::sync::Arc;

    /// Nested removed branches merge into one range, and what follows them stays.
    #[test]
    fn removed_branches_nest_and_end() {
        let text = "#if 0\nA\n#if 1\nB\n#endif\nC\n#endif\nD\n#if 1\nE\n#else\nF\n#endif\nG\n";
        let mut errors = unreal_syntax::exec::scan(text).errors;
        let mode = Mode::Compiler(Arc::new(Defines::complete()));
        let pre = Preprocessed::run(text, &mut errors, &mode);
        let kept: String = text
            .char_indices()
            .filter(|&(at, c)| {
                c.is_ascii_uppercase() && !pre.removes(at) && text[..at].ends_with('\n')
            })
            .map(|(_, c)| c)
            .collect();
        assert_eq!(kept, "DEG");
        assert_eq!(pre.inactive.len(), 2, "{:?}", pre.inactive);
        assert!(errors.is_empty(), "{errors:?}");
    }

    #[test]
    fn conditions_evaluate_as_a_c_preprocessor_would() {
        let mut known = Defines::complete();
        known.define("IG_SWAT", Some(1));
        known.define("IG_TRIBES3", Some(0));
        let mut partial = Defines::default();
        partial.define("MOD", Some(2));
        let cases = [
            ("IG_SWAT", &known, Some(1)),
            ("!IG_SWAT", &known, Some(0)),
            ("IG_TRIBES3 || !IG_SHARED", &known, Some(1)),
            ("defined(IG_TRIBES3) && IG_SWAT == 1", &known, Some(1)),
            ("defined IG_NOPE", &known, Some(0)),
            ("(IG_SWAT && (IG_TRIBES3))", &known, Some(0)),
            ("0x10 >= 16", &known, Some(1)),
            ("MOD == 2", &partial, Some(1)),
            ("UNKNOWN", &partial, None),
            ("UNKNOWN || MOD", &partial, Some(1)),
            ("UNKNOWN && 0", &partial, Some(0)),
            ("UNKNOWN && 1", &partial, None),
            ("(IG_SWAT", &known, None),
            ("IG_SWAT IG_SWAT", &known, None),
            ("\"text\"", &known, None),
            ("", &known, None),
            (&"(".repeat(200_000), &known, None),
            (&"!".repeat(200_000), &known, None),
            (&format!("{}1{}", "(".repeat(64), ")".repeat(64)), &known, None),
            (&format!("{}1{}", "(".repeat(63), ")".repeat(63)), &known, Some(1)),
        ];
        for (text, defines, expected) in cases {
            assert_eq!(evaluate(text, defines), expected, "{text}");
        }
    }
}
