//! The checking context shared by expressions and statements: the symbol
//! table, local bindings with their types, and what `this`, `it` and `event`
//! mean where the checker is.

use super::symbols::{Callable, Symbols};
use crate::base::diagnostic::{codes, did_you_mean, Code, Diagnostic};
use crate::base::source::{FileId, Span};
use crate::compiler::ast::Ident;
use crate::ir::Type;
use std::collections::HashMap;

/// A type as the checker tracks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ty {
    /// A value of one IR type; `optional` when it may be absent.
    Of(Type, bool),
    /// A list of texts (a `text*` field).
    TextList,
    /// A set of players (`each`): taken where a statement can be done per player (a verb's or
    /// procedure's player parameter, `for each`, a player's zone, a counter change, a trigger
    /// pattern, `win`/`lose`, a window); anywhere else one player is needed, a diagnostic.
    Players,
    /// An error was already reported: accept anything.
    Unknown,
}

impl Ty {
    /// A present value of `t`.
    pub fn of(t: Type) -> Ty {
        Ty::Of(t, false)
    }
    /// Display form for messages.
    pub fn describe(&self) -> String {
        match self {
            Ty::Of(t, opt) => format!("{}{}", type_name(*t), if *opt { "?" } else { "" }),
            Ty::TextList => "text list".into(),
            Ty::Players => "a set of players".into(),
            Ty::Unknown => "unknown".into(),
        }
    }
    /// Whether a value of this type may be used where one of `expected` is wanted.
    pub fn fits(&self, expected: &[Type]) -> bool {
        match self {
            Ty::Unknown => true,
            Ty::TextList => expected.contains(&Type::Text),
            Ty::Players => false,
            Ty::Of(t, _) => expected.iter().any(|e| coerces(*t, *e)),
        }
    }
}

/// Whether a `from` value can stand where a `to` is expected: a card is a set
/// of one; a zone is the set of its cards; a set of cards given where one card
/// is expected applies to each of them.
pub fn coerces(from: Type, to: Type) -> bool {
    from == to
        || matches!(
            (from, to),
            (Type::Card, Type::Cards) | (Type::Zone, Type::Cards) | (Type::Cards, Type::Card)
        )
}

/// The names of two namespaces of the symbol table, the first's then the second's: the
/// candidates of a did-you-mean for a name that may be either.
pub fn names_in<'t, A, B>(
    first: &'t HashMap<String, A>,
    second: &'t HashMap<String, B>,
) -> impl Iterator<Item = &'t str> {
    first.keys().chain(second.keys()).map(String::as_str)
}

/// The display name of a type.
pub fn type_name(t: Type) -> &'static str {
    match t {
        Type::Number => "number",
        Type::Bool => "bool",
        Type::Text => "text",
        Type::Card => "card",
        Type::Cards => "cards",
        Type::Player => "player",
        Type::Zone => "zone",
        Type::Pair => "pair",
    }
}

/// A local binding.
#[derive(Debug)]
pub struct Local {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: Ty,
    /// Where it was bound.
    pub span: Span,
    /// Read at least once.
    pub used: bool,
    /// Warn when unused (let-bindings only).
    pub warn_unused: bool,
}

/// Where checking happens: what the implicit names mean.
pub struct Ctx<'a> {
    /// The symbol table.
    pub sym: &'a Symbols,
    /// The file being checked.
    pub file: FileId,
    /// Diagnostics found.
    pub diags: &'a mut Vec<Diagnostic>,
    /// Scopes of local bindings, innermost last.
    pub scopes: Vec<Vec<Local>>,
    /// `this` is a card here (in a card's ability, or a verb run for a card).
    pub has_this: bool,
    /// In a continuous ability's body: only statements it can carry out are allowed.
    pub continuous: bool,
    /// The event whose payload `event.x` reads.
    pub event: Option<&'a Callable>,
    /// Depth of `where` filters (inside one, `it` is the candidate).
    pub filter_depth: usize,
    /// Filter candidates named with `where c:`, each with the filter depth inside its filter.
    pub candidates: Vec<(String, usize)>,
    /// The conditions of slot choices being checked, innermost last: the name given to the
    /// candidate slot (`where s:`), and the filter depth where the condition is (not raised:
    /// a slot is no card; `it` is the slot only at that very depth).
    pub slot_candidates: Vec<(Option<String>, usize)>,
    /// Exact names compared against (`name == "…"`), checked once all packs are loaded.
    pub exact_names: Vec<(String, Span)>,
    /// In the ruleset's `setup { … }` (`goes_first` is allowed).
    pub in_setup: bool,
}

impl<'a> Ctx<'a> {
    /// A context for `file`.
    pub fn new(sym: &'a Symbols, file: FileId, diags: &'a mut Vec<Diagnostic>) -> Self {
        Ctx {
            sym,
            file,
            diags,
            scopes: vec![Vec::new()],
            has_this: false,
            continuous: false,
            event: None,
            filter_depth: 0,
            candidates: Vec::new(),
            slot_candidates: Vec::new(),
            exact_names: Vec::new(),
            in_setup: false,
        }
    }

    /// Reports an error.
    pub fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// Opens a scope.
    pub fn push(&mut self) {
        self.scopes.push(Vec::new());
    }

    /// Closes a scope, warning about let-bindings never read.
    pub fn pop(&mut self) {
        if let Some(scope) = self.scopes.pop() {
            for l in scope {
                if l.warn_unused && !l.used && !l.name.starts_with('_') {
                    self.diags.push(
                        Diagnostic::warning(
                            codes::CHECK_UNUSED_BINDING,
                            self.file,
                            l.span,
                            format!("`{}` is bound but never used", l.name),
                            "never read",
                        )
                        .with_help(format!("remove the binding, or name it `_{}`", l.name)),
                    );
                }
            }
        }
    }

    /// Binds a local in the innermost scope.
    pub fn bind(&mut self, name: &str, ty: Ty, span: Span, warn_unused: bool) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.push(Local {
                name: name.to_string(),
                ty,
                span,
                used: false,
                warn_unused,
            });
        }
    }

    /// Whether `it` and bare names are read in a slot choice's condition, outside any card
    /// filter nested in it: `it` is then the candidate slot.
    pub fn in_slot_condition(&self) -> bool {
        self.slot_candidates
            .last()
            .is_some_and(|(_, depth)| *depth == self.filter_depth)
    }

    /// Looks a local up, marking it used.
    pub fn lookup(&mut self, name: &str) -> Option<Ty> {
        for scope in self.scopes.iter_mut().rev() {
            if let Some(l) = scope.iter_mut().rev().find(|l| l.name == name) {
                l.used = true;
                return Some(l.ty.clone());
            }
        }
        None
    }

    /// Names of every local in scope (for suggestions).
    pub fn local_names(&self) -> Vec<String> {
        self.scopes
            .iter()
            .flatten()
            .map(|l| l.name.clone())
            .collect()
    }

    /// Reports a type mismatch unless `ty` fits `expected`; a set of players where one player
    /// is expected has its own diagnostic.
    pub fn expect(&mut self, ty: &Ty, expected: &[Type], span: Span, what: &str) {
        if *ty == Ty::Players && expected.contains(&Type::Player) {
            self.player_set_misplaced(span, what);
            return;
        }
        if !ty.fits(expected) {
            let want: Vec<&str> = expected.iter().map(|t| type_name(*t)).collect();
            self.error(
                Diagnostic::error(
                    codes::RESOLVE_TYPE_MISMATCH,
                    self.file,
                    span,
                    format!(
                        "{what} must be {}, found {}",
                        want.join(" or "),
                        ty.describe()
                    ),
                    format!("this is {}", ty.describe()),
                )
                .with_help_opt(type_help(ty, expected)),
            );
        }
    }

    /// Like [`Ctx::expect`], but a set of players is also taken where `expected` has a player:
    /// the places whose engine semantics apply to each player of a set.
    pub fn expect_player_or_set(&mut self, ty: &Ty, expected: &[Type], span: Span, what: &str) {
        if !(*ty == Ty::Players && expected.contains(&Type::Player)) {
            self.expect(ty, expected, span, what);
        }
    }

    /// Reports a set of players (`each`) at `span` where `what` needs one player.
    pub fn player_set_misplaced(&mut self, span: Span, what: &str) {
        self.error(
            Diagnostic::error(
                codes::RESOLVE_PLAYER_SET,
                self.file,
                span,
                format!("{what} must be one player, found a set of players"),
                "a set of players",
            )
            .with_help(
                "name one player (`you`, `opponent`, `owner(c)`), or repeat it per player: \
                 `for each p in each player { … p … }`",
            ),
        );
    }

    /// Reports an unknown name of some namespace with a did-you-mean.
    pub fn unknown<'n>(
        &mut self,
        code: Code,
        what: &str,
        name: &str,
        span: Span,
        candidates: impl IntoIterator<Item = &'n str>,
    ) {
        let message = format!("unknown {what} `{name}`");
        let label = format!("no {what} of this name");
        self.report_unknown(code, span, name, (message, label), candidates);
    }

    /// Reports a name that `owner` (an event, a verb, a card type) does not have.
    pub fn unknown_in<'n>(
        &mut self,
        code: Code,
        owner: &str,
        what: &str,
        name: &str,
        span: Span,
        candidates: impl IntoIterator<Item = &'n str>,
    ) {
        self.report_unknown(
            code,
            span,
            name,
            (
                format!("{owner} has no {what} `{name}`"),
                format!("no such {what}"),
            ),
            candidates,
        );
    }

    /// The one shape of every unknown-name error: `message` and `label` at `span`, with the
    /// closest of `candidates` as a did-you-mean.
    fn report_unknown<'n>(
        &mut self,
        code: Code,
        span: Span,
        name: &str,
        (message, label): (String, String),
        candidates: impl IntoIterator<Item = &'n str>,
    ) {
        let candidates: Vec<&str> = candidates.into_iter().collect();
        let help =
            did_you_mean(name, candidates.iter().copied()).or_else(|| known_names(candidates));
        self.error(Diagnostic::error(code, self.file, span, message, label).with_help_opt(help));
    }

    /// The entry `id` names in `table` (one namespace of the symbol table), or `None` after
    /// reporting it as an unknown `what` with a did-you-mean among the table's names.
    pub fn declared<'t, V>(
        &mut self,
        table: &'t HashMap<String, V>,
        code: Code,
        what: &str,
        id: &Ident,
    ) -> Option<&'t V> {
        let found = table.get(&id.name);
        if found.is_none() {
            self.unknown(
                code,
                what,
                &id.name,
                id.span,
                table.keys().map(String::as_str),
            );
        }
        found
    }
}

/// How many names an unknown-name help lists at most.
const LISTED_NAMES: usize = 12;

/// When no name is close to an unknown one, what there is: "the names known here: a, b, c" (sorted, at most
/// `LISTED_NAMES`, then how many more); none when there is nothing of the kind.
pub(super) fn known_names(mut names: Vec<&str>) -> Option<String> {
    names.sort_unstable();
    names.dedup();
    if names.is_empty() {
        return None;
    }
    let shown: Vec<String> = names
        .iter()
        .take(LISTED_NAMES)
        .map(|n| format!("`{n}`"))
        .collect();
    let more = names.len().saturating_sub(LISTED_NAMES);
    Some(if more > 0 {
        format!("the names known here: {} and {more} more", shown.join(", "))
    } else {
        format!("the names known here: {}", shown.join(", "))
    })
}

/// A hint for the usual type mismatches (a set for one card, a number in quotes, …).
fn type_help(ty: &Ty, expected: &[Type]) -> Option<String> {
    match (ty, expected) {
        (Ty::Of(Type::Cards, _), [Type::Card]) | (Ty::Of(Type::Cards, _), [Type::Card, ..]) => {
            Some("choose exactly one: `target 1 …`".into())
        }
        (Ty::Of(Type::Text, _), e) if e.contains(&Type::Number) => {
            Some("write the number without quotes".into())
        }
        (Ty::Of(Type::Number, _), e) if e.contains(&Type::Text) => {
            Some("write the text in quotes".into())
        }
        _ => None,
    }
}
