//! Typed reading of a parsed TOML tree. Each helper checks one value's type and range and, when
//! it is wrong, records a diagnostic at the value's exact span and returns `None`, so that the
//! readers of the tables read like the format's description and go on after a mistake.

use super::model::{Counter, Spanned};
use crate::base::diagnostic::{article, closest, codes, Code, Diagnostic};
use crate::base::source::{FileId, Span};
use std::ops::Range;
use toml::de::{DeArray, DeString, DeTable, DeValue};

/// A TOML value with its span.
pub(super) type Value<'i> = toml::Spanned<DeValue<'i>>;
/// A TOML key with its span.
pub(super) type Key<'i> = toml::Spanned<DeString<'i>>;

/// The reading state: the file, its text, and the diagnostics found so far.
pub(super) struct Reader<'s> {
    /// The scenario file.
    pub file: FileId,
    /// Its text.
    pub text: &'s str,
    /// Every problem found so far.
    pub diags: Vec<Diagnostic>,
    /// Cards the `[[player]]` tables set up so far (bounded by `setup::MAX_SETUP_CARDS`).
    pub setup_cards: u64,
}

/// The span of a TOML key or value.
pub(super) fn span_of<T>(v: &toml::Spanned<T>) -> Span {
    let r = v.span();
    Span::new(r.start, r.end)
}

impl<'s> Reader<'s> {
    /// An error at `span`.
    pub fn error(
        &mut self,
        code: Code,
        span: Span,
        message: impl Into<String>,
        label: impl Into<String>,
        help: Option<String>,
    ) {
        let d = Diagnostic::error(code, self.file, span, message, label).with_help_opt(help);
        self.diags.push(d);
    }

    /// A key no table of this kind has, with the closest known key as a suggestion (or, for a
    /// top-level key written after a table header, the advice to move it up).
    pub fn unknown_key(&mut self, key: &Key<'_>, table: &str, known: &[&str]) {
        let name: &str = key.get_ref();
        if table != TOP_TABLE && is_top_key(name) {
            return self.misplaced_key(key, table, "the top level");
        }
        let help = match closest(name, known.iter().copied()) {
            Some(c) => format!("did you mean `{c}`?"),
            None => format!("{table} takes {}", list(known)),
        };
        self.error(
            codes::SCENARIO_UNKNOWN_KEY,
            span_of(key),
            format!("unknown key `{name}` in {table}"),
            "unknown key",
            Some(help),
        );
    }

    /// A key of `home` written in `table`: written after a table header, a key belongs to that
    /// table, which is a common slip.
    pub fn misplaced_key(&mut self, key: &Key<'_>, table: &str, home: &str) {
        let name: &str = key.get_ref();
        self.error(
            codes::SCENARIO_UNKNOWN_KEY,
            span_of(key),
            format!("`{name}` does not belong in {table}"),
            format!("this is in {table}"),
            Some(format!(
                "`{name}` is a key of {home}: move it above the table header it follows (in \
                 TOML, every key after a `[header]` belongs to that table)"
            )),
        );
    }

    /// A required key a table lacks; `at` is the table's header or inline table.
    pub fn missing(&mut self, at: Span, key: &str, table: &str, example: &str) {
        self.error(
            codes::SCENARIO_MISSING_KEY,
            at,
            format!("{table} has no `{key}`"),
            format!("`{key}` is required here"),
            Some(format!("add `{example}`")),
        );
    }

    /// A value of the wrong TOML type. `what` names it ("`turn`", "each entry of `rules`").
    pub fn wrong_type(&mut self, v: &Value<'_>, what: &str, expected: &str, help: Option<String>) {
        let found = v.get_ref().type_str();
        self.error(
            codes::SCENARIO_WRONG_TYPE,
            span_of(v),
            format!("{what} must be {expected}, not {} {found}", article(found)),
            format!("{} {found}", article(found)),
            help,
        );
    }

    /// A value of the right type whose content is not allowed.
    pub fn bad_value(&mut self, span: Span, message: String, label: &str, help: Option<String>) {
        self.error(codes::SCENARIO_BAD_VALUE, span, message, label, help);
    }

    /// A string; `None` (and a diagnostic) for any other type.
    pub fn string(&mut self, v: &Value<'_>, what: &str) -> Option<Spanned<String>> {
        match v.get_ref() {
            DeValue::String(s) => Some(Spanned::new(s.to_string(), span_of(v))),
            _ => {
                self.wrong_type(v, what, "a string", None);
                None
            }
        }
    }

    /// A non-blank string, trimmed, its span inside the quotes where possible.
    pub fn name(&mut self, v: &Value<'_>, what: &str) -> Option<Spanned<String>> {
        let s = self.string(v, what)?;
        let trimmed = s.value.trim();
        if trimmed.is_empty() {
            self.bad_value(s.span, format!("{what} is empty"), "empty text", None);
            return None;
        }
        let start = s.value.len() - s.value.trim_start().len();
        let span = self.inner(s.span, &s.value, start..start + trimmed.len());
        Some(Spanned::new(trimmed.to_string(), span))
    }

    /// An integer as written, widened so that no TOML integer overflows.
    fn integer(&mut self, v: &Value<'_>, what: &str) -> Option<i128> {
        match v.get_ref() {
            DeValue::Integer(i) => match i128::from_str_radix(i.as_str(), i.radix()) {
                Ok(n) => Some(n),
                Err(_) => {
                    self.bad_value(
                        span_of(v),
                        format!("{what} is too large"),
                        "too large",
                        None,
                    );
                    None
                }
            },
            DeValue::String(s) if s.trim().parse::<i128>().is_ok() => {
                let help = format!("write the number without quotes: `{}`", s.trim());
                self.wrong_type(v, what, "an integer", Some(help));
                None
            }
            _ => {
                self.wrong_type(v, what, "an integer", None);
                None
            }
        }
    }

    /// An integer in `min..=max`.
    pub fn uint(&mut self, v: &Value<'_>, what: &str, min: u64, max: u64) -> Option<Spanned<u64>> {
        let n = self.integer(v, what)?;
        if n < i128::from(min) {
            let message = format!("{what} must be at least {min}, not {n}");
            self.bad_value(span_of(v), message, "too small", None);
            return None;
        }
        if n > i128::from(max) {
            let message = format!("{what} is too large: {n}");
            self.bad_value(span_of(v), message, &format!("at most {max}"), None);
            return None;
        }
        Some(Spanned::new(n as u64, span_of(v)))
    }

    /// A seat, turn or index: an integer from 1 to `u32::MAX`.
    pub fn positive(&mut self, v: &Value<'_>, what: &str) -> Option<Spanned<u32>> {
        let n = self.uint(v, what, 1, u64::from(u32::MAX))?;
        Some(Spanned::new(n.value as u32, n.span))
    }

    /// A signed 64-bit integer.
    pub fn int(&mut self, v: &Value<'_>, what: &str) -> Option<Spanned<i64>> {
        let n = self.integer(v, what)?;
        match i64::try_from(n) {
            Ok(n) => Some(Spanned::new(n, span_of(v))),
            Err(_) => {
                self.bad_value(
                    span_of(v),
                    format!("{what} is out of the 64-bit range"),
                    "too large",
                    None,
                );
                None
            }
        }
    }

    /// An array.
    pub fn array<'v, 'i>(&mut self, v: &'v Value<'i>, what: &str) -> Option<&'v DeArray<'i>> {
        match v.get_ref() {
            DeValue::Array(a) => Some(a),
            found => {
                // One value where a list goes: suggest the list of that one value.
                let raw = self.text.get(v.span()).unwrap_or("");
                let help = (matches!(found, DeValue::String(_)) && !raw.contains('\n'))
                    .then(|| format!("write a list: `[{raw}]`"));
                self.wrong_type(v, what, "a list", help);
                None
            }
        }
    }

    /// How to write zone `key` as a list: with the value itself when it is a one-line string.
    pub fn zone_hint(&self, key: &str, v: &Value<'_>) -> String {
        let raw = self.text.get(v.span()).unwrap_or("");
        let item = if matches!(v.get_ref(), DeValue::String(_)) && !raw.contains('\n') {
            raw
        } else {
            "\"card name x2\""
        };
        format!("a zone's contents are a list of cards: `{key} = [{item}]`")
    }

    /// A table (a `[header]` table or an inline `{ ... }` table).
    pub fn table<'v, 'i>(&mut self, v: &'v Value<'i>, what: &str) -> Option<&'v DeTable<'i>> {
        match v.get_ref() {
            DeValue::Table(t) => Some(t),
            _ => {
                self.wrong_type(v, what, "a table", None);
                None
            }
        }
    }

    /// An array of tables (`[[name]]`); `header` is the form to suggest.
    pub fn tables<'v, 'i>(
        &mut self,
        v: &'v Value<'i>,
        what: &str,
        header: &str,
    ) -> Vec<(Span, &'v DeTable<'i>)> {
        let items = match v.get_ref() {
            DeValue::Array(a) => a,
            _ => {
                let help = Some(format!("write each table under its own `{header}` header"));
                self.wrong_type(v, what, "a list of tables", help);
                return Vec::new();
            }
        };
        let mut out = Vec::new();
        for item in items.iter() {
            match item.get_ref() {
                DeValue::Table(t) => out.push((span_of(item), t)),
                _ => self.wrong_type(item, &format!("each entry of {what}"), "a table", None),
            }
        }
        out
    }

    /// A list of non-blank strings (state names, rule numbers, log texts).
    pub fn names(&mut self, v: &Value<'_>, what: &str) -> Vec<Spanned<String>> {
        let Some(items) = self.array(v, what) else {
            return Vec::new();
        };
        let each = format!("each entry of {what}");
        items.iter().filter_map(|i| self.name(i, &each)).collect()
    }

    /// A table of counters: `{ wounds = 3 }`.
    pub fn counters(&mut self, v: &Value<'_>, what: &str) -> Vec<Counter> {
        let Some(table) = self.table(v, what) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (k, v) in table.iter() {
            let key = self.key(k);
            if let Some(value) = self.int(v, &format!("counter `{}`", key.value)) {
                out.push(Counter { name: key, value });
            }
        }
        out
    }

    /// A key as a spanned name (inside its quotes if it is quoted).
    pub fn key(&self, k: &Key<'_>) -> Spanned<String> {
        let name: &str = k.get_ref();
        let span = self.inner(span_of(k), name, 0..name.len());
        Spanned::new(name.to_string(), span)
    }

    /// The span of bytes `range` of the string `value` written at `span`: exact when the string
    /// (or bare key) is written without escapes, else the whole string with its quotes.
    pub fn inner(&self, span: Span, value: &str, range: Range<usize>) -> Span {
        let Some(raw) = self.text.get(span.start..span.end) else {
            return span;
        };
        let mut body = None;
        if raw == value {
            body = Some(0);
        } else {
            for delim in ["\"\"\"", "'''", "\"", "'"] {
                let d = delim.len();
                if raw.len() >= 2 * d && raw.starts_with(delim) && raw.ends_with(delim) {
                    let mut start = d;
                    if d == 3 {
                        if raw[start..].starts_with("\r\n") {
                            start += 2;
                        } else if raw[start..].starts_with('\n') {
                            start += 1;
                        }
                    }
                    if raw.get(start..raw.len() - d) == Some(value) {
                        body = Some(start);
                    }
                    break;
                }
            }
        }
        match body {
            Some(b) => Span::new(span.start + b + range.start, span.start + b + range.end),
            None => span,
        }
    }
}

/// The keys of the top level of a scenario.
pub(super) const TOP_KEYS: &[&str] = &[
    "name",
    "game",
    "rules",
    "description",
    "seed",
    "max_steps",
    "deck_format",
    "start",
    "player",
    "script",
    "expect",
];

/// How [`Reader::unknown_key`] calls the top level.
pub(super) const TOP_TABLE: &str = "a scenario";

/// True for a top-level key that a `[[player]]` table cannot mean as a zone: written after a
/// table header, it belongs to that table, which is a common slip. (`player` is left out: it
/// names the seat in `[[expect.player]]`.)
pub(super) fn is_top_key(key: &str) -> bool {
    key != "player" && TOP_KEYS.contains(&key)
}

/// "`a`, `b` and `c`".
pub(super) fn list(words: &[&str]) -> String {
    let quoted: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}
