//! The words that change how a rule or a window works (`interrupt` after a rule's name, `once`
//! and `unchecked` after a window's players): taken where they belong, a diagnostic of their own
//! anywhere else the grammar lets them be written (before the body of any declaration or window).

use super::{Builder, P};
use crate::base::diagnostic::{codes, Diagnostic};
use crate::base::source::Span;
use crate::compiler::parse::Rule;

/// Where flag words were written, and so which one is taken there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FlagPlace {
    /// After a rule's name: `interrupt`.
    Rule,
    /// After a window's players: `once`, `unchecked`.
    Window,
    /// Anywhere else (a declaration that is no rule, named for messages): none.
    Other(&'static str),
}

impl FlagPlace {
    /// The place of a declaration's flag words, by the grammar rule of the declaration.
    pub(super) fn of_declaration(rule: Rule) -> FlagPlace {
        match rule {
            Rule::rule_decl => FlagPlace::Rule,
            Rule::action_decl => FlagPlace::Other("an action"),
            Rule::verb_decl => FlagPlace::Other("a verb"),
            Rule::procedure_decl => FlagPlace::Other("a procedure"),
            Rule::setup_decl => FlagPlace::Other("`setup`"),
            Rule::turn_decl => FlagPlace::Other("`turn`"),
            _ => FlagPlace::Other("this declaration"),
        }
    }

    /// The flag words this place takes.
    fn takes(self) -> &'static [&'static str] {
        match self {
            FlagPlace::Rule => &["interrupt"],
            FlagPlace::Window => &["once", "unchecked"],
            FlagPlace::Other(_) => &[],
        }
    }

    /// What the place is, in a message.
    fn what(self) -> &'static str {
        match self {
            FlagPlace::Rule => "a rule",
            FlagPlace::Window => "a window",
            FlagPlace::Other(what) => what,
        }
    }
}

impl Builder<'_> {
    /// Reads the flag words written at `place` (`flag_word` pairs): the ones the place takes
    /// that were written. Any other word, and a taken one written twice, is reported.
    pub(super) fn flag_words(&mut self, flags: Vec<P>, place: FlagPlace) -> Vec<&'static str> {
        let mut taken: Vec<&'static str> = Vec::new();
        for f in flags {
            let span = self.span(&f);
            let word = f.as_str().trim();
            match place.takes().iter().find(|w| **w == word) {
                Some(w) if taken.contains(w) => self.flag_twice(word, span),
                Some(w) => taken.push(w),
                None => self.flag_misplaced(word, span, place),
            }
        }
        taken
    }

    /// Reports a flag word written twice at one place.
    fn flag_twice(&mut self, word: &str, span: Span) {
        self.error(
            Diagnostic::error(
                codes::PARSE_MISPLACED_WORD,
                self.file,
                span,
                format!("`{word}` is written twice"),
                "again here",
            )
            .with_help(format!("write `{word}` once")),
        );
    }

    /// Reports a flag word where it cannot be: `interrupt` anywhere but after a rule's name,
    /// `once` and `unchecked` anywhere but after a window's players.
    fn flag_misplaced(&mut self, word: &str, span: Span, place: FlagPlace) {
        let (message, label, help) = if word == "unchecked" {
            (
                format!("`unchecked` is for windows, not {}", place.what()),
                "only a window can be `unchecked`",
                "`window <players> unchecked { … }` opens no check timing before its decisions"
                    .to_string(),
            )
        } else if word == "interrupt" {
            let mut help = "an interrupt rule runs right after every change the game makes: \
                            write `rule <name> \"label\" interrupt { … }`"
                .to_string();
            if place == FlagPlace::Window {
                help.insert_str(
                    0,
                    "a window takes `once` (each player takes at most one entry); ",
                );
            }
            (
                format!("`interrupt` is for rules, not {}", place.what()),
                "only a rule can be an interrupt",
                help,
            )
        } else {
            let mut help = "`window <players> once { … }` lets each player take at most one \
                            entry of the window"
                .to_string();
            if place == FlagPlace::Rule {
                help.push_str("; a rule that runs after every change is written `interrupt`");
            }
            (
                format!("`once` is for windows, not {}", place.what()),
                "only a window can be `once`",
                help,
            )
        };
        self.error(
            Diagnostic::error(codes::PARSE_MISPLACED_WORD, self.file, span, message, label)
                .with_help(help),
        );
    }
}
