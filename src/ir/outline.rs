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

fn stmt(out: &mut String, s: &Stmt, d: usize) {
    match s {
        Stmt::Let { var, value } => line(out, d, &format!("let {var} = {}", expr(value))),
        Stmt::If { arms, otherwise } => {
            for (i, (c, body)) in arms.iter().enumerate() {
                line(
                    out,
                    d,
                    &format!("{} {}:", if i == 0 { "if" } else { "else if" }, expr(c)),
                );
                stmts(out, body, d + 1);
            }
            if !otherwise.is_empty() {
                line(out, d, "else:");
                stmts(out, otherwise, d + 1);
            }
        }
        Stmt::ForEach { var, cards, body } => {
            line(out, d, &format!("for each {var} in {}:", expr(cards)));
            stmts(out, body, d + 1);
        }
        Stmt::Repeat { times, body } => {
            line(out, d, &format!("repeat {} times:", expr(times)));
            stmts(out, body, d + 1);
        }
        Stmt::May { players, body } => {
            line(
                out,
                d,
                &format!(
                    "{} may:",
                    players.iter().map(expr).collect::<Vec<_>>().join(" and ")
                ),
            );
            stmts(out, body, d + 1);
        }
        Stmt::Move {
            cards,
            to,
            position,
            face,
            state,
            slot,
        } => {
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
            line(out, d, &t.to_lowercase_ascii_words());
        }
        Stmt::Attach { card, host } => {
            line(out, d, &format!("set {} on {}", expr(card), expr(host)))
        }
        Stmt::SetState {
            cards,
            state,
            duration: du,
        } => line(
            out,
            d,
            &format!("{} becomes {}{}", expr(cards), short(state), duration(du)),
        ),
        Stmt::ClearState { cards, state } => line(
            out,
            d,
            &format!("{} is no longer {}", expr(cards), short(state)),
        ),
        Stmt::AliasZone {
            zone,
            becomes,
            duration: du,
        } => line(
            out,
            d,
            &format!("{} becomes {}{}", expr(zone), short(becomes), duration(du)),
        ),
        Stmt::Modify {
            cards,
            stat,
            layer,
            op,
            value,
            duration: du,
        } => {
            let v = value
                .as_ref()
                .map(|v| format!(" {}", expr(v)))
                .unwrap_or_default();
            line(
                out,
                d,
                &format!(
                    "{}.{} {op}{v} [layer {}]{}",
                    expr(cards),
                    short(stat),
                    short(layer),
                    duration(du)
                ),
            );
        }
        Stmt::Count {
            subject,
            counter,
            op,
            value,
        } => line(
            out,
            d,
            &format!("{}.{} {op} {}", expr(subject), short(counter), expr(value)),
        ),
        Stmt::Grant {
            keyword,
            args,
            cards,
            duration: du,
        } => {
            let a = if args.is_empty() {
                String::new()
            } else {
                format!(" {}", args.iter().map(expr).collect::<Vec<_>>().join(", "))
            };
            line(
                out,
                d,
                &format!(
                    "grant {}{a} to {}{}",
                    short(keyword),
                    expr(cards),
                    duration(du)
                ),
            );
        }
        Stmt::RemoveKeyword {
            keyword,
            cards,
            duration: du,
        } => line(
            out,
            d,
            &format!(
                "remove {} from {}{}",
                short(keyword),
                expr(cards),
                duration(du)
            ),
        ),
        Stmt::Reveal { cards } => line(out, d, &format!("reveal {}", expr(cards))),
        Stmt::Look { cards, by } => line(out, d, &format!("{} looks at {}", expr(by), expr(cards))),
        Stmt::Shuffle { zone } => line(out, d, &format!("shuffle {}", expr(zone))),
        Stmt::Negate {
            cards,
            scope,
            include_unnegatable,
            duration: du,
        } => {
            let all = if *include_unnegatable {
                " (including unnegatable)"
            } else {
                ""
            };
            line(
                out,
                d,
                &format!(
                    "negate the {scope:?} of {}{all}{}",
                    expr(cards),
                    duration(du)
                )
                .to_lowercase_ascii_words(),
            );
        }
        Stmt::Phase { phase, body } => {
            line(out, d, &format!("phase {}:", short(phase)));
            stmts(out, body, d + 1);
        }
        Stmt::Window {
            players,
            chain,
            entries,
        } => {
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
            line(
                out,
                d,
                &format!(
                    "{} window for {}: {}",
                    if *chain { "a chain" } else { "a" },
                    expr(players),
                    offers.join(", ")
                ),
            );
        }
        Stmt::Chain { body } => {
            line(out, d, "put on the chain:");
            stmts(out, body, d + 1);
        }
        Stmt::Resolve { kind, cards } => line(
            out,
            d,
            &format!("resolve the {} text of {}", short(kind), expr(cards)),
        ),
        Stmt::Check => line(out, d, "check rules and pending triggers"),
        Stmt::Reach { moment } => line(out, d, &format!("reach {}", short(moment))),
        Stmt::Cancel { event, subject } => line(
            out,
            d,
            &format!(
                "cancel {}{}",
                short(event),
                subject
                    .as_ref()
                    .map(|s| format!(" of {}", expr(s)))
                    .unwrap_or_default()
            ),
        ),
        Stmt::TreatAs {
            cards,
            card_type,
            fields,
        } => {
            let f: Vec<String> = fields
                .iter()
                .map(|(k, v)| format!("{k} {}", expr(v)))
                .collect();
            line(
                out,
                d,
                &format!(
                    "from now on treat {} as {} {}",
                    expr(cards),
                    short(card_type),
                    f.join(", ")
                ),
            );
        }
        Stmt::Emit { event, args } => {
            line(out, d, &format!("emit {}({})", short(event), named(args)))
        }
        Stmt::ChooseOne { chooser, options } => {
            line(out, d, &format!("{} chooses one:", expr(chooser)));
            for (label, body) in options {
                line(out, d + 1, &format!("{label:?}:"));
                stmts(out, body, d + 2);
            }
        }
        Stmt::Win { player } => line(out, d, &format!("{} wins", expr(player))),
        Stmt::Lose { player } => line(out, d, &format!("{} loses", expr(player))),
        Stmt::DrawGame => line(out, d, "the game is a draw"),
        Stmt::Flip { cards, face } => line(
            out,
            d,
            &format!(
                "turn {} {}",
                expr(cards),
                match face {
                    Some(Face::Up) => "face up",
                    Some(Face::Down) => "face down",
                    None => "over",
                }
            ),
        ),
        Stmt::Simultaneously { body } => {
            line(out, d, "at the same time:");
            stmts(out, body, d + 1);
        }
        Stmt::Call {
            verb,
            args,
            duration: du,
        } => line(
            out,
            d,
            &format!(
                "{}({}){}",
                short(verb),
                named(args),
                du.as_ref().map(duration).unwrap_or_default()
            ),
        ),
    }
}

fn named(args: &std::collections::BTreeMap<String, Expr>) -> String {
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

/// An expression in readable form.
pub fn expr(e: &Expr) -> String {
    match e {
        Expr::Int(n) => n.to_string(),
        Expr::Text(t) => format!("{t:?}"),
        Expr::Bool(b) => b.to_string(),
        Expr::Pair(p) => p
            .iter()
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
            .join("/"),
        Expr::This => "this".into(),
        Expr::It => "it".into(),
        Expr::You => "you".into(),
        Expr::Opponent => "opponent".into(),
        Expr::EachPlayer => "each player".into(),
        Expr::Var(v) => v.clone(),
        Expr::EventParam(p) => format!("event.{p}"),
        Expr::Zone { zone, owner } => match owner {
            Some(o) => format!("{}'s {}", expr(o), short(zone)),
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
        Expr::Binary { op, lhs, rhs } => {
            let o = match op {
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
            };
            format!("({} {o} {})", expr(lhs), expr(rhs))
        }
        Expr::Coalesce(a, b) => format!("({} ?? {})", expr(a), expr(b)),
        Expr::Contains { haystack, needle } => {
            format!("{} contains {}", expr(haystack), expr(needle))
        }
        Expr::HasKeyword { card, keyword } => format!("{} has {}", expr(card), short(keyword)),
        Expr::HasAbility { card, kind } => format!("{} has a {} ability", expr(card), short(kind)),
        Expr::HasAttribute { card, attribute } => {
            format!("{} has an ability with {}", expr(card), short(attribute))
        }
        Expr::TurnNumber => "the turn number".to_string(),
        Expr::Cancelled { event, subject } => {
            format!("{} of {} was cancelled", short(event), expr(subject))
        }
        Expr::KeywordValue { card, keyword } => {
            format!("{}'s {} value", expr(card), short(keyword))
        }
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
        } => {
            let verb = match kind {
                ChoiceKind::Target => "targets",
                ChoiceKind::Choose => "chooses",
                ChoiceKind::Search => "searches for",
            };
            let n = match max {
                Some(m) if **m == **min => expr(m),
                Some(m) => format!("{} to {}", expr(min), expr(m)),
                None => "any number".into(),
            };
            format!("({} {verb} {n} of {})", expr(chooser), expr(from))
        }
        Expr::Declare(what) => format!("a declared {what}"),
        Expr::List(xs) => format!("[{}]", xs.iter().map(expr).collect::<Vec<_>>().join(", ")),
    }
}
