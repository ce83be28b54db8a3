//! A readable outline of compiled IR, for `fuda explain`: what the compiler
//! understood, in a form a designer can check against the card text. (The
//! printed-style Japanese and English text comes from phrase templates in a
//! later phase.)

use crate::ir::*;
use std::fmt::Write;

/// The outline of one card.
pub fn card(c: &Card) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} ({}) — {}", c.name, c.id, short(&c.card_type));
    for (k, v) in &c.fields {
        let _ = writeln!(out, "  {k}: {}", value(v));
    }
    for (k, v) in &c.stats {
        let _ = writeln!(out, "  {}: {}", short(k), value(v));
    }
    if !c.keywords.is_empty() {
        let ks: Vec<String> = c
            .keywords
            .iter()
            .map(|k| {
                if k.args.is_empty() {
                    short(&k.keyword).to_string()
                } else {
                    format!(
                        "{} {}",
                        short(&k.keyword),
                        k.args.iter().map(expr).collect::<Vec<_>>().join(", ")
                    )
                }
            })
            .collect();
        let _ = writeln!(out, "  keywords: {}", ks.join(", "));
    }
    for (i, a) in c.abilities.iter().enumerate() {
        let attrs: Vec<&str> = a.attributes.iter().map(|x| short(x)).collect();
        let mut head = format!(
            "  [{}] {}{} ({:?})",
            i + 1,
            if attrs.is_empty() {
                String::new()
            } else {
                format!("{} ", attrs.join(" "))
            },
            short(&a.kind),
            a.semantics
        )
        .to_lowercase();
        if let Some(t) = &a.trigger {
            let word = if a.semantics == Semantics::Replacement {
                "instead of"
            } else {
                "when"
            };
            let _ = write!(head, " {word} {}", trigger(t));
        }
        if let Some(c) = &a.condition {
            let _ = write!(head, " if {}", expr(c));
        }
        if let Some(c) = &a.while_condition {
            let _ = write!(head, " while {}", expr(c));
        }
        if let Some(l) = &a.limit {
            let _ = write!(head, " (limit {} per {})", l.count, l.per);
        }
        if let Some(z) = &a.zone {
            let _ = write!(head, " (works from {})", short(z));
        }
        let _ = writeln!(out, "{head}");
        if !a.cost.is_empty() {
            let _ = writeln!(out, "      cost:");
            stmts(&mut out, &a.cost, 4);
        }
        stmts(&mut out, &a.effect, 3);
    }
    out
}

fn short(id: &str) -> &str {
    id.rsplit(':').next().unwrap_or(id)
}

fn value(v: &Value) -> String {
    match v {
        Value::Number(n) => n.to_string(),
        Value::Text(t) => format!("{t:?}"),
        Value::Bool(b) => b.to_string(),
        Value::Pair(p) => p.iter().map(i64::to_string).collect::<Vec<_>>().join("/"),
        Value::List(l) => format!("[{}]", l.iter().map(value).collect::<Vec<_>>().join(", ")),
    }
}

fn trigger(t: &Trigger) -> String {
    if t.when.is_empty() {
        return short(&t.event).to_string();
    }
    let args: Vec<String> = t
        .when
        .iter()
        .map(|(k, v)| format!("{k} = {}", expr(v)))
        .collect();
    format!("{}({})", short(&t.event), args.join(", "))
}

fn duration(d: &Duration) -> String {
    match d {
        Duration::Default => String::new(),
        Duration::Until(m) => format!(" until {}", short(m)),
        Duration::While(c) => format!(" while {}", expr(c)),
        Duration::UntilOf { moment, player } => {
            format!(" until {} of {}", short(moment), expr(player))
        }
    }
}

/// A readable outline of statements (prompts and logs show their first line).
pub fn outline_stmts(out: &mut String, list: &[Stmt]) {
    stmts(out, list, 0);
}

fn stmts(out: &mut String, list: &[Stmt], depth: usize) {
    for s in list {
        stmt(out, s, depth);
    }
}

fn line(out: &mut String, depth: usize, text: &str) {
    let _ = writeln!(out, "{}{}", "  ".repeat(depth), text);
}

/// One statement, at depth `d`: a statement with a body is a head line and its body one
/// level deeper; any other is one line (see [`line_of`]).
fn stmt(out: &mut String, s: &Stmt, d: usize) {
    match s {
        Stmt::If { arms, otherwise } => if_stmt(out, arms, otherwise, d),
        Stmt::ForEach { var, cards, body } => {
            headed(out, d, &format!("for each {var} in {}:", expr(cards)), body)
        }
        Stmt::Repeat { times, body } => {
            headed(out, d, &format!("repeat {} times:", expr(times)), body)
        }
        Stmt::While { cond, body } => headed(out, d, &format!("while {}:", expr(cond)), body),
        Stmt::May { players, body } => {
            headed(out, d, &format!("{} may:", list(players, " and ")), body)
        }
        Stmt::Phase { phase, body } => headed(out, d, &format!("phase {}:", short(phase)), body),
        Stmt::Chain { body } => headed(out, d, "put on the chain:", body),
        Stmt::Simultaneously { body } => headed(out, d, "at the same time:", body),
        Stmt::ChooseOne { chooser, options } => choose_one(out, chooser, options, d),
        _ => line(out, d, &line_of(s)),
    }
}

/// The one line of a statement without a body, by family.
fn line_of(s: &Stmt) -> String {
    match s {
        // Cards: where they are, how they lie, what they show.
        Stmt::Move {
            cards,
            to,
            position,
            face,
            state,
            slot,
        } => move_line(cards, to, position, face, state, slot),
        Stmt::Attach { card, host } => format!("set {} on {}", expr(card), expr(host)),
        Stmt::SetState {
            cards,
            state,
            duration: du,
        } => becomes(cards, state, du),
        Stmt::ClearState { cards, state } => {
            format!("{} is no longer {}", expr(cards), short(state))
        }
        Stmt::AliasZone {
            zone,
            becomes: alias,
            duration: du,
        } => becomes(zone, alias, du),
        Stmt::Reveal { cards } => format!("reveal {}", expr(cards)),
        Stmt::Look { cards, by } => format!("{} looks at {}", expr(by), expr(cards)),
        Stmt::Shuffle { zone } => format!("shuffle {}", expr(zone)),
        Stmt::Flip { cards, face } => flip(cards, face),
        // Characteristics and texts.
        Stmt::Modify {
            cards,
            stat,
            layer,
            op,
            value,
            duration: du,
        } => modify(cards, stat, layer, op, value, du),
        Stmt::Count {
            subject,
            counter,
            op,
            value,
        } => format!("{}.{} {op} {}", expr(subject), short(counter), expr(value)),
        Stmt::Grant {
            keyword,
            args,
            cards,
            duration: du,
        } => grant(keyword, args, cards, du),
        Stmt::RemoveKeyword {
            keyword,
            cards,
            duration: du,
        } => remove(keyword, cards, du),
        Stmt::PlayerKeyword {
            keyword,
            players,
            grant: true,
            duration: du,
        } => grant(keyword, &[], players, du),
        Stmt::PlayerKeyword {
            keyword, players, ..
        } => format!("remove {} from {}", short(keyword), expr(players)),
        Stmt::Negate {
            cards,
            scope,
            include_unnegatable,
            duration: du,
        } => negate(cards, scope, *include_unnegatable, du),
        Stmt::TreatAs {
            cards,
            card_type,
            fields,
        } => treat_as(cards, card_type, fields),
        // Game flow, events, the end of the game.
        Stmt::Let { var, value } => format!("let {var} = {}", expr(value)),
        Stmt::Window {
            players,
            chain,
            once,
            unchecked,
            entries,
        } => window(players, (*chain, *once, *unchecked), entries),
        Stmt::Resolve { kind, cards } => {
            format!("resolve the {} text of {}", short(kind), expr(cards))
        }
        Stmt::Check => "check rules and pending triggers".into(),
        Stmt::Reach { moment } => format!("reach {}", short(moment)),
        Stmt::ReachOf { moment, player } => {
            format!("reach {} of {}", short(moment), expr(player))
        }
        Stmt::Cancel { event, subject } => cancel(event, subject),
        Stmt::Emit { event, args } => format!("emit {}({})", short(event), named(args)),
        Stmt::Script { function, args } => {
            let args: Vec<String> = args.iter().map(expr).collect();
            format!("run script {}({})", short(function), args.join(", "))
        }
        Stmt::Win { player } => format!("{} wins", expr(player)),
        Stmt::Lose { player } => format!("{} loses", expr(player)),
        Stmt::DrawGame => "the game is a draw".into(),
        Stmt::GoesFirst { player } => format!("{} goes first", expr(player)),
        Stmt::Call {
            verb,
            args,
            duration: du,
        } => call(verb, args, du),
        Stmt::If { .. }
        | Stmt::ForEach { .. }
        | Stmt::Repeat { .. }
        | Stmt::While { .. }
        | Stmt::May { .. }
        | Stmt::Phase { .. }
        | Stmt::Chain { .. }
        | Stmt::Simultaneously { .. }
        | Stmt::ChooseOne { .. } => unreachable!("stmt() outlines statements with a body"),
    }
}

/// `remove keyword from cards duration`.
fn remove(keyword: &str, cards: &Expr, du: &Duration) -> String {
    format!(
        "remove {} from {}{}",
        short(keyword),
        expr(cards),
        duration(du)
    )
}

/// `verb(name: value, …) duration`: a verb or procedure called.
fn call(verb: &str, args: &crate::ir::Map<Id, Expr>, du: &Option<Duration>) -> String {
    let du = du.as_ref().map(duration).unwrap_or_default();
    format!("{}({}){du}", short(verb), named(args))
}

/// `subject becomes what duration`: a state set on cards, or a zone taken as another.
fn becomes(subject: &Expr, what: &str, du: &Duration) -> String {
    format!("{} becomes {}{}", expr(subject), short(what), duration(du))
}

/// A head line, then `body` one level deeper: the shape of every statement with a body.
fn headed(out: &mut String, d: usize, head: &str, body: &[Stmt]) {
    line(out, d, head);
    stmts(out, body, d + 1);
}

/// `if c:` and `else if c:` arms with their bodies, then `else:` when there is one.
fn if_stmt(out: &mut String, arms: &[(Expr, Vec<Stmt>)], otherwise: &[Stmt], d: usize) {
    for (i, (c, body)) in arms.iter().enumerate() {
        let word = if i == 0 { "if" } else { "else if" };
        headed(out, d, &format!("{word} {}:", expr(c)), body);
    }
    if !otherwise.is_empty() {
        headed(out, d, "else:", otherwise);
    }
}

/// `p chooses one:`, then each option's label and body.
fn choose_one(out: &mut String, chooser: &Expr, options: &[(String, Vec<Stmt>)], d: usize) {
    line(out, d, &format!("{} chooses one:", expr(chooser)));
    for (label, body) in options {
        headed(out, d + 1, &format!("{label:?}:"), body);
    }
}

/// `move cards to zone (top) face up state at slot n`.
fn move_line(
    cards: &Expr,
    to: &Expr,
    position: &Option<Position>,
    face: &Option<Face>,
    state: &Option<Id>,
    slot: &Option<Expr>,
) -> String {
    let mut t = format!("move {} to {}", expr(cards), expr(to));
    if let Some(p) = position {
        let _ = write!(t, " ({p:?})");
    }
    if let Some(f) = face {
        let _ = write!(t, " face {f:?}");
    }
    if let Some(s) = state {
        let _ = write!(t, " {}", short(s));
    }
    if let Some(s) = slot {
        let _ = write!(t, " at slot {}", expr(s));
    }
    t.to_lowercase_ascii_words()
}

/// `turn cards face up|face down|over`.
fn flip(cards: &Expr, face: &Option<Face>) -> String {
    let how = match face {
        Some(Face::Up) => "face up",
        Some(Face::Down) => "face down",
        None => "over",
    };
    format!("turn {} {how}", expr(cards))
}

/// `cards.stat op value [layer l] duration`.
fn modify(
    cards: &Expr,
    stat: &str,
    layer: &str,
    op: &str,
    value: &Option<Expr>,
    du: &Duration,
) -> String {
    let v = value
        .as_ref()
        .map(|v| format!(" {}", expr(v)))
        .unwrap_or_default();
    format!(
        "{}.{} {op}{v} [layer {}]{}",
        expr(cards),
        short(stat),
        short(layer),
        duration(du)
    )
}

/// `grant keyword args to cards duration`.
fn grant(keyword: &str, args: &[Expr], cards: &Expr, du: &Duration) -> String {
    let a = if args.is_empty() {
        String::new()
    } else {
        format!(" {}", list(args, ", "))
    };
    format!(
        "grant {}{a} to {}{}",
        short(keyword),
        expr(cards),
        duration(du)
    )
}

/// `negate the text|effect of cards (including unnegatable) duration`.
fn negate(cards: &Expr, scope: &NegateScope, all: bool, du: &Duration) -> String {
    let all = if all { " (including unnegatable)" } else { "" };
    format!(
        "negate the {scope:?} of {}{all}{}",
        expr(cards),
        duration(du)
    )
    .to_lowercase_ascii_words()
}

/// `from now on treat cards as type field value, …`.
fn treat_as(cards: &Expr, card_type: &str, fields: &crate::ir::Map<Id, Expr>) -> String {
    let f: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("{k} {}", expr(v)))
        .collect();
    format!(
        "from now on treat {} as {} {}",
        expr(cards),
        short(card_type),
        f.join(", ")
    )
}

/// `a (chain) window for players: what it offers, …`; `once`: each player takes at most one
/// of its entries; `unchecked`: no check timing opens its decisions.
fn window(
    players: &Expr,
    (chain, once, unchecked): (bool, bool, bool),
    entries: &[WindowEntry],
) -> String {
    let offers: Vec<String> = entries
        .iter()
        .map(|e| match e {
            WindowEntry::Action(a) => short(a).to_string(),
            WindowEntry::Abilities { kind, attribute } => match attribute {
                Some(a) => format!("{} abilities with {}", short(kind), short(a)),
                None => format!("{} abilities", short(kind)),
            },
        })
        .collect();
    format!(
        "{} window for {}{}: {}",
        if chain { "a chain" } else { "a" },
        expr(players),
        match (once, unchecked) {
            (true, true) => " (one entry each, no check timing)",
            (true, false) => " (one entry each)",
            (false, true) => " (no check timing)",
            (false, false) => "",
        },
        offers.join(", ")
    )
}

/// `cancel event (of subject)`.
fn cancel(event: &str, subject: &Option<Expr>) -> String {
    let of = subject
        .as_ref()
        .map(|s| format!(" of {}", expr(s)))
        .unwrap_or_default();
    format!("cancel {}{of}", short(event))
}

/// Expressions in readable form, joined by `sep`.
fn list(xs: &[Expr], sep: &str) -> String {
    xs.iter().map(expr).collect::<Vec<_>>().join(sep)
}

fn named(args: &crate::ir::Map<Id, Expr>) -> String {
    args.iter()
        .map(|(k, v)| format!("{k}: {}", expr(v)))
        .collect::<Vec<_>>()
        .join(", ")
}

trait LowerWords {
    fn to_lowercase_ascii_words(&self) -> String;
}

impl LowerWords for String {
    fn to_lowercase_ascii_words(&self) -> String {
        self.replace("(Top)", "(top)")
            .replace("(Bottom)", "(bottom)")
            .replace("face Up", "face up")
            .replace("face Down", "face down")
            .replace("the Text", "the text")
            .replace("the Effect", "the effect")
    }
}

/// An owner in readable form: `your`, `opponent's`, `each player's`.
fn possessive(e: &Expr) -> String {
    match e {
        Expr::You => "your".into(),
        other => format!("{}'s", expr(other)),
    }
}

/// An expression in readable form.
pub fn expr(e: &Expr) -> String {
    match e {
        Expr::Int(n) => n.to_string(),
        Expr::Text(t) => format!("{t:?}"),
        Expr::Bool(b) => b.to_string(),
        Expr::Pair(p) => pair(p),
        Expr::This => "this".into(),
        Expr::It => "it".into(),
        Expr::You => "you".into(),
        Expr::Opponent => "opponent".into(),
        Expr::EachPlayer => "each player".into(),
        Expr::Var(v) => v.to_string(),
        Expr::EventParam(p) => format!("event.{p}"),
        Expr::Zone { zone, owner } => match owner {
            Some(o) => format!("{} {}", possessive(o), short(zone)),
            None => short(zone).to_string(),
        },
        Expr::Stat { of, stat } => format!("{}.{}", expr(of), short(stat)),
        Expr::Counter { of, counter } => format!("{}.{}", expr(of), short(counter)),
        Expr::Field { of, field } => format!("{}.{field}", expr(of)),
        Expr::Related { of, relation } => format!(
            "{}.{}",
            expr(of),
            relation.rsplit('.').next().unwrap_or(relation)
        ),
        Expr::Count(x) => format!("count({})", expr(x)),
        Expr::Owner(x) => format!("owner({})", expr(x)),
        Expr::Controller(x) => format!("controller({})", expr(x)),
        Expr::OpponentOf(x) => format!("opponent_of({})", expr(x)),
        Expr::Min(a, b) => format!("min({}, {})", expr(a), expr(b)),
        Expr::Max(a, b) => format!("max({}, {})", expr(a), expr(b)),
        Expr::Not(x) => format!("not {}", expr(x)),
        Expr::Neg(x) => format!("-{}", expr(x)),
        Expr::Binary { op, lhs, rhs } => format!("({} {} {})", expr(lhs), op_word(op), expr(rhs)),
        Expr::Coalesce(a, b) => format!("({} ?? {})", expr(a), expr(b)),
        Expr::Contains { haystack, needle } => {
            format!("{} contains {}", expr(haystack), expr(needle))
        }
        Expr::HasKeyword { card, keyword } => format!("{} has {}", expr(card), short(keyword)),
        Expr::Printed { of, stat } => format!("{}'s printed {}", expr(of), short(stat)),
        Expr::Modified { of, stat, layer } => format!(
            "{}'s {} has a modifier{}",
            expr(of),
            short(stat),
            layer
                .as_ref()
                .map(|l| format!(" in layer {}", short(l)))
                .unwrap_or_default()
        ),
        Expr::PlayerHas { player, keyword } => {
            format!("{} has {}", expr(player), short(keyword))
        }
        Expr::HasAbility { card, kind } => format!("{} has a {} ability", expr(card), short(kind)),
        Expr::HasAttribute { card, attribute } => {
            format!("{} has an ability with {}", expr(card), short(attribute))
        }
        Expr::TurnNumber => "the turn number".to_string(),
        Expr::DeckFormat => "the deck format".to_string(),
        Expr::Cancelled { event, subject } => {
            format!("{} of {} was cancelled", short(event), expr(subject))
        }
        Expr::Happened {
            pattern,
            cards,
            since,
        } => {
            let what = match cards {
                Some(p) => format!("the {p}s of past {}", trigger(pattern)),
                None => format!("how many times {} happened", trigger(pattern)),
            };
            match since {
                Some(m) => format!("{what} since {}", short(m)),
                None => format!("{what} this game"),
            }
        }
        Expr::KeywordValue { card, keyword } => {
            format!("{} {} value", possessive(card), short(keyword))
        }
        Expr::EffectNegated(c) => format!("negated({})", expr(c)),
        Expr::SameCard(a, b) => format!("same_card({}, {})", expr(a), expr(b)),
        Expr::IsTurnPlayer(p) => match p.as_ref() {
            Expr::You => "you are the turn player".to_string(),
            p => format!("{} is the turn player", expr(p)),
        },
        Expr::FaceIs { card, face } => format!(
            "{} is face {}",
            expr(card),
            if *face == Face::Up { "up" } else { "down" }
        ),
        Expr::Distinct { cards, field } => format!("distinct({}, {field})", expr(cards)),
        Expr::Total { key, cards } => format!("total({}, {})", expr(cards), expr(key)),
        Expr::Usable { card, kind } => format!("usable({}, {})", expr(card), short(kind)),
        Expr::Attached(x) => format!("attached({})", expr(x)),
        Expr::Host(x) => format!("host({})", expr(x)),
        Expr::InState { card, state } => format!("{} is {}", expr(card), short(state)),
        Expr::OfType { card, card_type } => format!("{} is {}", expr(card), short(card_type)),
        Expr::IsKind { value, kind } => format!("{} is {kind:?}", expr(value)).to_lowercase(),
        Expr::Filter { cards, condition } => format!("[{} where {}]", expr(cards), expr(condition)),
        Expr::TopOf { top, count, zone } => format!(
            "{} {} of {}",
            if *top { "top" } else { "bottom" },
            expr(count),
            expr(zone)
        ),
        Expr::Choose {
            kind,
            chooser,
            min,
            max,
            from,
        } => choose(kind, chooser, min, max, from),
        Expr::Declare(what) => format!("a declared {what}"),
        Expr::RandomCards { count, from } => format!("random {} {}", expr(count), expr(from)),
        Expr::RandomPlayer => "a random player".into(),
        Expr::Extreme {
            highest,
            key,
            cards,
        } => format!(
            "the {} {} of {}",
            if *highest { "highest" } else { "lowest" },
            expr(key),
            expr(cards)
        ),
        Expr::Candidate(0) => "it".into(),
        Expr::Candidate(k) => format!("(it, {k} filter{} out)", if *k == 1 { "" } else { "s" }),
        Expr::RandomNumber { low, high } => {
            format!("random number {} to {}", expr(low), expr(high))
        }
        Expr::List(xs) => format!("[{}]", list(xs, ", ")),
        Expr::SlotOf(_)
        | Expr::AtSlot { .. }
        | Expr::ChooseSlot { .. }
        | Expr::SlotCandidate(_) => slot_expr(e),
    }
}

/// The expressions of slots in readable form: `slot(c)`, `[cards at near]`, `choose 1
/// slot of your lanes …`, the candidate slot.
fn slot_expr(e: &Expr) -> String {
    let name = |x: &Expr| match x {
        Expr::Text(t) => t.clone(),
        other => expr(other),
    };
    match e {
        Expr::SlotOf(x) => format!("slot({})", expr(x)),
        Expr::AtSlot { cards, slot } => format!("[{} at {}]", expr(cards), name(slot)),
        Expr::ChooseSlot {
            chooser,
            optional,
            zone,
            within,
            condition,
        } => {
            let who = match chooser.as_ref() {
                Expr::You => String::new(),
                other => format!("({})", expr(other)),
            };
            let mut t = format!(
                "choose{who} {}1 slot of {}",
                if *optional { "up to " } else { "" },
                expr(zone)
            );
            if let Some(w) = within {
                let _ = write!(t, " at {}", name(w));
            }
            if let Some(c) = condition {
                let _ = write!(t, " where {}", expr(c));
            }
            t
        }
        Expr::SlotCandidate(0) => "the slot".into(),
        Expr::SlotCandidate(k) => format!(
            "(the slot, {k} choice{} out)",
            if *k == 1 { "" } else { "s" }
        ),
        other => expr(other),
    }
}

/// A pair literal: `+1/-2`, a missing part as `±0`.
fn pair(p: &[Option<i64>]) -> String {
    p.iter()
        .map(|x| {
            x.map(|v| {
                if v >= 0 {
                    format!("+{v}")
                } else {
                    v.to_string()
                }
            })
            .unwrap_or_else(|| "±0".into())
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// How a binary operator is written.
fn op_word(op: &Op) -> &'static str {
    match op {
        Op::Or => "or",
        Op::And => "and",
        Op::Eq => "==",
        Op::Ne => "!=",
        Op::Lt => "<",
        Op::Le => "<=",
        Op::Gt => ">",
        Op::Ge => ">=",
        Op::Add => "+",
        Op::Sub => "-",
        Op::Mul => "*",
        Op::Div => "/",
    }
}

/// `(p targets|chooses|searches for n of cards)`; `n` is exact, a range, or any number.
fn choose(
    kind: &ChoiceKind,
    chooser: &Expr,
    min: &Expr,
    max: &Option<Box<Expr>>,
    from: &Expr,
) -> String {
    let verb = match kind {
        ChoiceKind::Target => "targets",
        ChoiceKind::Choose => "chooses",
        ChoiceKind::Search => "searches for",
    };
    let n = match max {
        Some(m) if **m == *min => expr(m),
        Some(m) => format!("{} to {}", expr(min), expr(m)),
        None => "any number".into(),
    };
    format!("({} {verb} {n} of {})", expr(chooser), expr(from))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owners_read_as_possessives() {
        let zone = |owner: Expr| Expr::Zone {
            zone: "g:deck".into(),
            owner: Some(Box::new(owner)),
        };
        assert_eq!(expr(&zone(Expr::You)), "your deck");
        assert_eq!(expr(&zone(Expr::Opponent)), "opponent's deck");
        assert_eq!(expr(&zone(Expr::EachPlayer)), "each player's deck");
    }
}
