//! Expressions: a precedence-climbing (Pratt) pass over the flat sequence the
//! grammar's `expr` rule produces (`prefix* primary postfix* (infix …)*`).
//!
//! Loosest first: `where`, `or`, `and`, `not`, comparisons (`== != < <= > >=
//! contains has is`), `??`, `+ -`, `* /`, unary `-`, `.member`. Left-assoc
//! chains are folded in a loop, so only prefix chains (bounded by `lex`) and
//! precedence levels recurse.

use super::build::{children, Builder};
use super::Rule;
use crate::base::diagnostic::{codes, Diagnostic};
use crate::base::source::Span;
use crate::compiler::ast::*;
use pest::iterators::Pair;

type P<'i> = Pair<'i, Rule>;

/// Most binary operators accepted in one expression.
pub const MAX_OPERATORS: usize = 256;

enum Tok {
    Prefix(UnOp, Span),
    Operand(Expr),
    /// An operator; `where c:` carries the name it gives the candidate.
    Infix(BinOp, Option<Ident>),
}

/// Builds an `expr` pair (or any primary-like pair) into an expression.
pub fn build(b: &mut Builder, pair: P) -> Expr {
    if pair.as_rule() != Rule::expr {
        return primary(b, pair);
    }
    let mut toks: Vec<Tok> = Vec::new();
    let mut infix_count = 0;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::not_op => toks.push(Tok::Prefix(UnOp::Not, b.span(&p))),
            Rule::neg_op => toks.push(Tok::Prefix(UnOp::Neg, b.span(&p))),
            Rule::field_access => {
                let name = b.ident(p.into_inner().next().expect("grammar: member"));
                if let Some(Tok::Operand(e)) = toks.pop() {
                    let span = e.span.to(name.span);
                    toks.push(Tok::Operand(Expr {
                        kind: ExprKind::Member(Box::new(e), name),
                        span,
                    }));
                }
            }
            rule => {
                if let Some(op) = binop(rule) {
                    infix_count += 1;
                    if infix_count == MAX_OPERATORS + 1 {
                        let span = b.span(&p);
                        b.error(
                            Diagnostic::error(
                                codes::PARSE_TOO_COMPLEX,
                                b.file,
                                span,
                                format!("more than {MAX_OPERATORS} operators in one expression"),
                                "too many from here on",
                            )
                            .with_help("split it with `let` bindings"),
                        );
                    }
                    let binder = p
                        .into_inner()
                        .find(|x| x.as_rule() == Rule::where_binder)
                        .and_then(|x| x.into_inner().next())
                        .map(|x| b.ident(x));
                    toks.push(Tok::Infix(op, binder));
                } else {
                    toks.push(Tok::Operand(primary(b, p)));
                }
            }
        }
    }
    if infix_count > MAX_OPERATORS {
        return Expr {
            kind: ExprKind::Int(0),
            span: Span::default(),
        };
    }
    let mut it = toks.into_iter().peekable();
    climb(&mut it, 0)
}

fn binop(rule: Rule) -> Option<BinOp> {
    Some(match rule {
        Rule::or_op => BinOp::Or,
        Rule::and_op => BinOp::And,
        Rule::eq_op => BinOp::Eq,
        Rule::ne_op => BinOp::Ne,
        Rule::lt_op => BinOp::Lt,
        Rule::le_op => BinOp::Le,
        Rule::gt_op => BinOp::Gt,
        Rule::ge_op => BinOp::Ge,
        Rule::contains_op => BinOp::Contains,
        Rule::has_op => BinOp::Has,
        Rule::is_op => BinOp::Is,
        Rule::where_op => BinOp::Where,
        Rule::at_op => BinOp::At,
        Rule::coalesce_op => BinOp::Coalesce,
        Rule::add_op => BinOp::Add,
        Rule::sub_op => BinOp::Sub,
        Rule::mul_op => BinOp::Mul,
        Rule::div_op => BinOp::Div,
        _ => return None,
    })
}

fn infix_bp(op: BinOp) -> u8 {
    match op {
        BinOp::Where | BinOp::At => 1,
        BinOp::Or => 2,
        BinOp::And => 3,
        BinOp::Eq
        | BinOp::Ne
        | BinOp::Lt
        | BinOp::Le
        | BinOp::Gt
        | BinOp::Ge
        | BinOp::Contains
        | BinOp::Has
        | BinOp::Is => 5,
        BinOp::Coalesce => 6,
        BinOp::Add | BinOp::Sub => 7,
        BinOp::Mul | BinOp::Div => 8,
    }
}

fn prefix_bp(op: UnOp) -> u8 {
    match op {
        UnOp::Not => 4,
        UnOp::Neg => 9,
    }
}

fn climb(it: &mut std::iter::Peekable<std::vec::IntoIter<Tok>>, min_bp: u8) -> Expr {
    let mut lhs = match it.next() {
        Some(Tok::Prefix(op, span)) => {
            let rhs = climb(it, prefix_bp(op));
            let s = span.to(rhs.span);
            Expr {
                kind: ExprKind::Unary(op, Box::new(rhs)),
                span: s,
            }
        }
        Some(Tok::Operand(e)) => e,
        // The grammar guarantees an operand here.
        _ => Expr {
            kind: ExprKind::Int(0),
            span: Span::default(),
        },
    };
    while let Some(Tok::Infix(op, _)) = it.peek() {
        let op = *op;
        let bp = infix_bp(op);
        if bp < min_bp {
            break;
        }
        let binder = match it.next() {
            Some(Tok::Infix(_, binder)) => binder,
            _ => None,
        };
        let rhs = climb(it, bp + 1);
        let span = lhs.span.to(rhs.span);
        let kind = match binder {
            Some(name) => ExprKind::NamedWhere(name, Box::new(lhs), Box::new(rhs)),
            None => ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
        };
        lhs = Expr { kind, span };
    }
    lhs
}

/// `expr_postfix`: a primary followed by member accesses.
pub fn postfix(b: &mut Builder, pair: P) -> Expr {
    let mut it = pair.into_inner();
    let mut e = primary(b, it.next().expect("grammar: primary"));
    for p in it {
        let name = b.ident(p.into_inner().next().expect("grammar: member"));
        let span = e.span.to(name.span);
        e = Expr {
            kind: ExprKind::Member(Box::new(e), name),
            span,
        };
    }
    e
}

fn pair_part(s: &str) -> PairPart {
    match s {
        "_" | "±0" | "+0" | "-0" => PairPart::Keep,
        _ => {
            let signed = s.starts_with('+') || s.starts_with('-');
            let v = s.trim_start_matches('+').parse::<i64>().unwrap_or(0);
            PairPart::Value(v, signed)
        }
    }
}

/// One operand: a literal, a word, a name, a call, a choice, or a parenthesized expression.
fn primary(b: &mut Builder, pair: P) -> Expr {
    let span = b.span(&pair);
    let kind = match pair.as_rule() {
        Rule::expr => return build(b, pair),
        Rule::expr_postfix => return postfix(b, pair),
        Rule::paren | Rule::expr_atom => {
            return build(b, children(pair).next().expect("grammar: inner"))
        }
        // `expr_zone` has the shape of `expr_postfix`: a base, then member accesses.
        Rule::expr_zone => return postfix(b, pair),
        Rule::pair => pair_lit(b, pair.as_str(), span),
        Rule::integer => ExprKind::Int(b.integer(pair)),
        Rule::string => ExprKind::Str(b.string(pair).value),
        Rule::bool_lit => ExprKind::Bool(pair.as_str().starts_with('t')),
        Rule::this_kw => ExprKind::This,
        Rule::it_kw => ExprKind::It,
        Rule::you_kw => ExprKind::You,
        Rule::opponent_kw => ExprKind::Opponent,
        Rule::each_kw => ExprKind::Each,
        Rule::ident => ExprKind::Name(b.ident(pair)),
        Rule::ident_led => ident_led(b, pair),
        Rule::list_lit => ExprKind::List(children(pair).map(|e| build(b, e)).collect()),
        Rule::call_expr => {
            let mut it = children(pair);
            let name = b.ident(it.next().expect("grammar: callee"));
            ExprKind::Call(name, b.call_args(it.next()))
        }
        Rule::declare_expr => {
            ExprKind::Declare(b.ident(children(pair).next().expect("grammar: declared")))
        }
        Rule::top_expr => top_expr(b, pair),
        Rule::choice_expr => choice_expr(b, pair),
        Rule::random_expr => random_expr(b, pair),
        Rule::extreme_expr => {
            let mut it = children(pair);
            let highest = it.next().expect("grammar: highest").as_rule() == Rule::highest_kw;
            let key = b.ident(it.next().expect("grammar: key"));
            let cards = build(b, it.next().expect("grammar: cards"));
            ExprKind::Extreme(highest, key, Box::new(cards))
        }
        other => unreachable!("grammar: unexpected primary {other:?}"),
    };
    Expr { kind, span }
}

/// `a/b`: a pair of signed values or `_`; a part too large for 64 bits is reported.
fn pair_lit(b: &mut Builder, s: &str, span: Span) -> ExprKind {
    let (a, c) = s.split_once('/').unwrap_or((s, "_"));
    for part in [a, c] {
        if part.trim_start_matches(['+', '-']).parse::<i64>().is_err()
            && !matches!(part, "_" | "±0")
        {
            b.error(Diagnostic::error(
                codes::PARSE_INTEGER_TOO_LARGE,
                b.file,
                span,
                "integer too large",
                "does not fit in 64 bits",
            ));
        }
    }
    ExprKind::Pair(pair_part(a), pair_part(c))
}

/// A name, maybe followed by a typed zone (`name in zone`) or call arguments.
fn ident_led(b: &mut Builder, pair: P) -> ExprKind {
    let mut it = pair.into_inner();
    let name = b.ident(it.next().expect("grammar: name"));
    match it.next() {
        None => ExprKind::Name(name),
        Some(tail) if tail.as_rule() == Rule::typed_tail => {
            let z = build(b, children(tail).next().expect("grammar: zone"));
            ExprKind::Typed(name, Box::new(z))
        }
        Some(args) => ExprKind::Call(name, children(args).map(|x| b.arg(x)).collect()),
    }
}

/// `top n of zone` / `bottom n of zone`.
fn top_expr(b: &mut Builder, pair: P) -> ExprKind {
    let mut it = children(pair);
    let top = it.next().expect("grammar: top").as_rule() == Rule::top_kw;
    let n = build(b, it.next().expect("grammar: count"));
    let z = build(b, it.next().expect("grammar: zone"));
    ExprKind::TopOf(top, Box::new(n), Box::new(z))
}

/// `random N cards`, `random player`, `random number A to B`: a pick the engine makes.
fn random_expr(b: &mut Builder, pair: P) -> ExprKind {
    let what = children(pair).next().expect("grammar: random pick");
    let rule = what.as_rule();
    let mut parts = children(what).map(|p| Box::new(build(b, p)));
    let mut next = || parts.next().expect("grammar: random operand");
    ExprKind::Random(match rule {
        Rule::random_player => RandomPick::Player,
        Rule::random_number => RandomPick::Number(next(), next()),
        _ => RandomPick::Cards(next(), next()),
    })
}

/// `target|choose|search (who) quantity from`: a choice a player makes; with `slot of zone`,
/// a choice of a slot.
fn choice_expr(b: &mut Builder, pair: P) -> ExprKind {
    let mut kind = ChoiceKind::Choose;
    let mut who = None;
    let mut quantity = Quantity::Any;
    let mut from = None;
    let mut slots = false;
    for p in children(pair) {
        match p.as_rule() {
            Rule::target_kw => kind = ChoiceKind::Target,
            Rule::choose_kw => kind = ChoiceKind::Choose,
            Rule::search_kw => kind = ChoiceKind::Search,
            Rule::who => who = Some(Box::new(b.inner_expr(p))),
            Rule::quantity => quantity = quantity_of(b, p),
            Rule::slot_source => {
                slots = true;
                from = Some(Box::new(b.inner_expr(p)));
            }
            _ => from = Some(Box::new(build(b, p))),
        }
    }
    let from = from.expect("grammar: choice source");
    missing_count(b, kind, &quantity, &from);
    if slots {
        return ExprKind::SlotChoice(slot_choice(kind, who, quantity, *from));
    }
    ExprKind::Choice {
        kind,
        who,
        quantity,
        from,
    }
}

/// `choose … slot of <source>`: the source read as a zone, then `at <slot or group>` and
/// `where [s:] <condition>` after it, in either order (each at most once).
fn slot_choice(
    kind: ChoiceKind,
    who: Option<Box<Expr>>,
    quantity: Quantity,
    source: Expr,
) -> SlotChoice {
    let mut zone = source;
    let mut within = None;
    let mut filter = None;
    loop {
        let Expr { kind, span } = zone;
        zone = match kind {
            ExprKind::Binary(BinOp::Where, l, r) if filter.is_none() => {
                filter = Some((None, r));
                *l
            }
            ExprKind::NamedWhere(name, l, r) if filter.is_none() => {
                filter = Some((Some(name), r));
                *l
            }
            ExprKind::Binary(BinOp::At, l, r) if within.is_none() => {
                within = Some(r);
                *l
            }
            kind => {
                zone = Expr { kind, span };
                break;
            }
        };
    }
    SlotChoice {
        kind,
        who,
        quantity,
        zone: Box::new(zone),
        within,
        filter,
    }
}

/// A choice's quantity: `up to n`, `any number`, or exactly `n`.
/// `target unit on your.arena`: the count left out, the card set is read as the
/// count and `on` as the cards chosen. Reported at the card set, and the rest of the line is
/// not reported again (see `Builder::slip_reported`).
fn missing_count(b: &mut Builder, kind: ChoiceKind, quantity: &Quantity, from: &Expr) {
    let (Quantity::Exactly(q), ExprKind::Name(word)) = (quantity, &from.kind) else {
        return;
    };
    let ExprKind::Name(set) = &q.kind else {
        return;
    };
    let (word, set) = (word.name.as_str(), set.name.as_str());
    if !["on", "in", "from"].contains(&word) {
        return;
    }
    let verb = match kind {
        ChoiceKind::Target => "target",
        ChoiceKind::Choose => "choose",
        ChoiceKind::Search => "search",
    };
    b.slip_reported = Some(from.span.end);
    b.error(
        Diagnostic::error(
            codes::PARSE_SYNTAX,
            b.file,
            q.span,
            format!("`{verb}` needs a count before what it chooses"),
            "the count is missing before this",
        )
        .with_help(format!(
            "write how many: `{verb} 1 {set} {word} …`, `{verb} up to 2 {set} {word} …` or `{verb} any number of {set} {word} …`"
        )),
    );
}

fn quantity_of(b: &mut Builder, p: P) -> Quantity {
    let q = p.into_inner().next().expect("grammar: quantity");
    match q.as_rule() {
        Rule::up_to => Quantity::UpTo(Box::new(build(b, children(q).next().expect("grammar: n")))),
        Rule::any_number => Quantity::Any,
        _ => Quantity::Exactly(Box::new(build(b, q))),
    }
}
