//! The `script`: one line per action or answer, `p<N>: <answer>`. A bad line is reported at
//! the exact characters inside its string (when the string has no escapes).

use super::model::{Answer, AnswerKind, Spanned};
use super::read::{Reader, Value};
use crate::base::diagnostic::codes;
use crate::base::source::Span;
use std::ops::Range;

/// The answer words that take nothing after them.
const BARE: &[(&str, AnswerKind)] = &[
    ("pass", AnswerKind::Pass),
    ("yes", AnswerKind::Yes),
    ("no", AnswerKind::No),
    ("concede", AnswerKind::Concede),
];

/// What `choose` says to choose no option.
const NOTHING: &str = "nothing";

/// Reads `script`.
pub(super) fn script(r: &mut Reader<'_>, v: &Value<'_>) -> Vec<Answer> {
    let Some(items) = r.array(v, "`script`") else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|item| {
            let s = r.string(item, "each line of `script`")?;
            Line { r, s: &s }.parse()
        })
        .collect()
}

/// One line being read.
struct Line<'a, 'r, 's> {
    r: &'a mut Reader<'r>,
    s: &'s Spanned<String>,
}

impl Line<'_, '_, '_> {
    /// The span of bytes `range` of the line (the whole string for an empty range).
    fn at(&self, range: Range<usize>) -> Span {
        if range.is_empty() {
            return self.s.span;
        }
        self.r.inner(self.s.span, &self.s.value, range)
    }

    /// A bad line: `range` is the part at fault.
    fn bad<T>(&mut self, range: Range<usize>, message: &str, label: &str, help: &str) -> Option<T> {
        let span = self.at(range);
        let help = (!help.is_empty()).then(|| help.to_string());
        self.r
            .error(codes::SCENARIO_BAD_ANSWER, span, message, label, help);
        None
    }

    /// The trimmed part of the line within `range`, as a spanned text (`None` when blank).
    fn text(&self, range: Range<usize>) -> Option<Spanned<String>> {
        let part = &self.s.value[range.clone()];
        let start = range.start + (part.len() - part.trim_start().len());
        let trimmed = part.trim();
        (!trimmed.is_empty())
            .then(|| Spanned::new(trimmed.to_string(), self.at(start..start + trimmed.len())))
    }

    /// Reads the line: the seat, then the answer word and what follows it.
    fn parse(mut self) -> Option<Answer> {
        let text = self.s.value.as_str();
        let lead = text.len() - text.trim_start().len();
        let end = text.trim_end().len();
        if lead >= end {
            return self.bad(
                0..text.len(),
                "an empty script line",
                "empty",
                "write who answers and what, such as `p1: pass`",
            );
        }
        let (player, colon) = self.player(lead, end)?;
        let Some(answer) = self.text(colon + 1..end) else {
            return self.bad(
                lead..colon + 1,
                &format!("`{}` is followed by no answer", &text[lead..colon + 1]),
                "no answer after this",
                "write what the player does: `pass`, `yes`, `no`, `choose …`, `option …`, `declare …` or an action",
            );
        };
        let offset = colon + 1 + (text[colon + 1..].len() - text[colon + 1..].trim_start().len());
        let word_len = answer
            .value
            .find(char::is_whitespace)
            .unwrap_or(answer.value.len());
        let word = &answer.value[..word_len];
        let rest_range = offset + word_len..offset + answer.value.len();
        let rest = self.text(rest_range.clone());
        let word_span = self.at(offset..offset + word_len);
        let kind = if let Some((_, kind)) = BARE.iter().find(|(w, _)| *w == word) {
            if let Some(rest) = rest {
                let span = rest.span;
                self.r.error(
                    codes::SCENARIO_BAD_ANSWER,
                    span,
                    format!("`{word}` takes nothing after it"),
                    "unexpected text",
                    Some(format!("write `p{player}: {word}`")),
                );
                return None;
            }
            kind.clone()
        } else {
            match word {
                "choose" => AnswerKind::Choose(self.choices(word_span, rest_range, rest)?),
                "repeat" => match rest.as_ref().and_then(|r| r.value.parse::<u32>().ok()) {
                    Some(n) => AnswerKind::Repeat(n),
                    None => {
                        return self.bad(
                            offset..offset + answer.value.len(),
                            "`repeat` needs a number of repetitions after it",
                            "not `repeat` and a number",
                            "write `repeat 3`",
                        )
                    }
                },
                "option" | "declare" => {
                    let Some(rest) = rest else {
                        let what = if word == "option" {
                            "the option's name"
                        } else {
                            "what is declared"
                        };
                        return self.bad(
                            offset..offset + word_len,
                            &format!("`{word}` needs {what} after it"),
                            "nothing after this",
                            "",
                        );
                    };
                    if word == "option" {
                        AnswerKind::Option(rest)
                    } else {
                        AnswerKind::Declare(rest)
                    }
                }
                _ => AnswerKind::Action {
                    name: Spanned::new(word.to_string(), word_span),
                    card: rest,
                },
            }
        };
        Some(Answer {
            player,
            kind,
            span: self.at(lead..end),
        })
    }

    /// Reads `p<N>:` at `lead`; the seat and the colon's offset.
    fn player(&mut self, lead: usize, end: usize) -> Option<(u32, usize)> {
        let text = self.s.value.as_str();
        let help = "a script line starts with the seat that answers: `p1: pass`";
        // The first word, for a label when the line does not start with `pN:`.
        let first_end = text[lead..end]
            .find(|c: char| c.is_whitespace() || c == ':')
            .map_or(end, |i| lead + i);
        let first = lead..first_end.max(char_end(text, lead));
        if !text[lead..].starts_with('p') {
            let help = if text[lead..].starts_with('P') {
                "seats are written in lower case: `p1:`"
            } else {
                help
            };
            let label = "expected `p1:`, `p2:`, …";
            return self.bad(first, "a script line must start with `p<N>:`", label, help);
        }
        let digits = text[lead + 1..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(text.len(), |i| lead + 1 + i);
        if digits == lead + 1 {
            // `p:` lacks the number; `pass` lacks the whole seat.
            let label = if text[digits..end].starts_with(':') || digits == end {
                "expected a seat number after `p`"
            } else {
                "expected `p1:`, `p2:`, …"
            };
            return self.bad(first, "a script line must start with `p<N>:`", label, help);
        }
        let seat = &text[lead + 1..digits];
        if !text[digits..].starts_with(':') {
            let at = if digits < end {
                digits..char_end(text, digits)
            } else {
                lead..digits
            };
            let message = format!("expected `:` right after `p{seat}`");
            return self.bad(at, &message, "expected `:`", help);
        }
        match seat.parse::<u32>() {
            Ok(n) if n >= 1 => Some((n, digits)),
            _ => self.bad(
                lead..digits,
                &format!("`p{seat}` is no seat"),
                "no such seat",
                "seats count from 1: `p1` is the first player",
            ),
        }
    }

    /// The names after `choose`, split at commas; `choose nothing` is the empty list.
    fn choices(
        &mut self,
        word: Span,
        range: Range<usize>,
        rest: Option<Spanned<String>>,
    ) -> Option<Vec<Spanned<String>>> {
        let Some(rest) = rest else {
            self.r.error(
                codes::SCENARIO_BAD_ANSWER,
                word,
                "`choose` needs the options chosen",
                "nothing after this",
                Some("name them, separated by commas, or write `choose nothing`".into()),
            );
            return None;
        };
        if rest.value == NOTHING {
            return Some(Vec::new());
        }
        let mut out = Vec::new();
        let mut ok = true;
        let mut start = range.start;
        let pieces: Vec<usize> = self.s.value[range].split(',').map(str::len).collect();
        let last = pieces.len() - 1;
        for (i, len) in pieces.into_iter().enumerate() {
            let piece = start..start + len;
            start += len + 1;
            match self.text(piece.clone()) {
                Some(name) => out.push(name),
                None => {
                    // A blank piece (there are two at least): label the comma next to it.
                    let (comma, label) = if i < last {
                        (piece.end..piece.end + 1, "no name before this comma")
                    } else {
                        (piece.start - 1..piece.start, "no name after this comma")
                    };
                    self.bad::<()>(comma, "an empty name in a list of choices", label, "");
                    ok = false;
                }
            }
        }
        ok.then_some(out)
    }
}

/// The end of the character starting at byte `i` of `text` (`i` itself at the end).
fn char_end(text: &str, i: usize) -> usize {
    i + text[i..].chars().next().map_or(0, char::len_utf8)
}
