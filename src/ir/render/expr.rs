//! Expressions as printed text: values and players as noun phrases, card sets as described
//! cards ("a sleeping character in your opponent's field", 「相手の場のスリープ状態のキャラクター」),
//! conditions as clauses.

use super::words::Lang;
use super::Renderer;
use crate::ir::{ChoiceKind, Expr, Face, Op};

impl Renderer<'_, '_> {
    /// A value as a noun phrase.
    pub(crate) fn expr(&mut self, e: &Expr) -> String {
        let ja = self.w.lang == Lang::Ja;
        match e {
            Expr::Int(n) => n.to_string(),
            Expr::Text(t) => self.card_name(t).map_or_else(
                || self.w.pick(format!("“{t}”"), format!("「{t}」")),
                |n| self.w.pick(format!("“{n}”"), format!("「{n}」")),
            ),
            Expr::Bool(b) => self
                .w
                .pick(b.to_string(), (if *b { "真" } else { "偽" }).into()),
            Expr::Pair(p) => p
                .iter()
                .map(|c| c.map_or("±0".to_string(), |v| format!("{v:+}")))
                .collect::<Vec<_>>()
                .join("/"),
            Expr::This => self.w.pick("this card", "このカード").into(),
            Expr::It => self.w.pick("it", "それ").into(),
            Expr::You => self.w.pick("you", "あなた").into(),
            Expr::Opponent => self.w.pick("your opponent", "相手").into(),
            Expr::EachPlayer => self.w.pick("each player", "各プレイヤー").into(),
            Expr::RandomPlayer => self.w.pick("a random player", "無作為なプレイヤー").into(),
            Expr::Var(v) => self.var(v),
            Expr::EventParam(p) => self.w.pick(
                format!("the {}", p.replace('_', " ")),
                format!("その{}", self.event_param_ja(p)),
            ),
            Expr::Zone { zone, owner } => self.zone(zone, owner.as_deref()),
            Expr::Stat { of, stat } | Expr::Printed { of, stat } => {
                let printed = matches!(e, Expr::Printed { .. });
                let of = self.expr(of);
                let stat = self.noun("stat", stat);
                match (ja, printed) {
                    (false, false) => format!("{}'s {stat}", of),
                    (false, true) => format!("{}'s printed {stat}", of),
                    (true, false) => format!("{of}の{stat}"),
                    (true, true) => format!("{of}の元々の{stat}"),
                }
            }
            Expr::Counter { of, counter } => {
                let of = self.expr(of);
                let c = self.noun("counter", counter);
                self.w
                    .pick(format!("the {c} on {of}"), format!("{of}の{c}"))
            }
            Expr::Field { of, field } => {
                let of = self.expr(of);
                self.w
                    .pick(format!("{of}'s {field}"), format!("{of}の{field}"))
            }
            Expr::Related { of, relation } => {
                let of = self.expr(of);
                let r = relation
                    .rsplit('.')
                    .next()
                    .unwrap_or(relation)
                    .replace('_', " ");
                self.w
                    .pick(format!("the card {r} {of}"), format!("{of}の{r}のカード"))
            }
            Expr::SlotOf(c) => {
                let c = self.expr(c);
                self.w.pick(format!("the slot of {c}"), format!("{c}の枠"))
            }
            Expr::Count(x) => {
                let outer = std::mem::replace(&mut self.plural_nouns, true);
                let x = self.cards(x);
                self.plural_nouns = outer;
                self.w
                    .pick(format!("the number of {x}"), format!("{x}の数"))
            }
            Expr::Owner(x) => self.of_word(x, "owner", "持ち主"),
            Expr::Controller(x) => self.of_word(x, "controller", "コントローラー"),
            Expr::OpponentOf(x) => self.of_word(x, "opponent", "相手"),
            Expr::Host(x) => self.of_word(x, "host", "セット先"),
            Expr::Min(a, b) => self.two(a, b, "the lower of {a} and {b}", "{a}と{b}の小さい方"),
            Expr::Max(a, b) => self.two(a, b, "the higher of {a} and {b}", "{a}と{b}の大きい方"),
            Expr::Neg(x) => format!("-{}", self.expr(x)),
            Expr::Binary { op, lhs, rhs } if arithmetic(*op) => {
                let (a, b) = (self.expr(lhs), self.expr(rhs));
                let sign = match op {
                    Op::Add => "+",
                    Op::Sub => "-",
                    Op::Mul => "×",
                    _ => "÷",
                };
                format!("{a}{sign}{b}")
            }
            Expr::Coalesce(a, _) => self.expr(a),
            Expr::TurnNumber => self.w.pick("the turn number", "ターン数").into(),
            Expr::DeckFormat => self.w.pick("the deck format", "デッキの形式").into(),
            Expr::KeywordValue { card, keyword } => {
                let c = self.expr(card);
                let k = self.noun("keyword", keyword);
                self.w
                    .pick(format!("{c}'s {k} value"), format!("{c}の【{k}】の値"))
            }
            Expr::Distinct { cards, field } => {
                let c = self.cards(cards);
                self.w.pick(
                    format!("the number of different {field}s among {c}"),
                    format!("{c}の異なる{field}の数"),
                )
            }
            Expr::Total { key, cards } => {
                let c = self.cards(cards);
                let k = self.expr(key);
                self.w
                    .pick(format!("the total {k} of {c}"), format!("{c}の{k}の合計"))
            }
            Expr::Declare(what) => self.w.pick(
                format!("a {} you declare", what.replace('_', " ")),
                format!("宣言した{what}"),
            ),
            Expr::RandomNumber { low, high } => {
                let (l, h) = (self.expr(low), self.expr(high));
                self.w.pick(
                    format!("a random number from {l} to {h}"),
                    format!("{l}から{h}までの無作為な数"),
                )
            }
            Expr::List(items) => {
                let parts: Vec<String> = items.iter().map(|i| self.expr(i)).collect();
                parts.join(self.w.pick(", ", "、"))
            }
            Expr::Happened {
                pattern,
                cards,
                since,
            } => self.happened(pattern, cards.is_some(), since.as_deref()),
            Expr::Candidate(_) | Expr::SlotCandidate(_) => self.w.that_card(),
            Expr::Choose { .. }
            | Expr::Filter { .. }
            | Expr::TopOf { .. }
            | Expr::AtSlot { .. }
            | Expr::RandomCards { .. }
            | Expr::Extreme { .. }
            | Expr::ChooseSlot { .. }
            | Expr::Attached(_) => self.cards(e),
            _ => self.cond(e),
        }
    }

    /// A possessive zone: "your opponent's field", 「相手の場」 (the player's own zones read
    /// bare in Japanese, as printed cards write them).
    fn zone(&mut self, zone: &str, owner: Option<&Expr>) -> String {
        let z = self.noun("zone", zone);
        match owner {
            None => self.w.pick(format!("the {z}"), z),
            Some(Expr::You) if self.w.lang == Lang::Ja => z,
            Some(o) => {
                let o = self.possessive(o);
                self.w.pick(format!("{o} {z}"), format!("{o}{z}"))
            }
        }
    }

    /// "your", "your opponent's", 「相手の」.
    fn possessive(&mut self, e: &Expr) -> String {
        match (self.w.lang, e) {
            (Lang::En, Expr::You) => "your".into(),
            (Lang::En, Expr::EachPlayer) => "each player's".into(),
            (Lang::En, _) => format!("{}'s", self.expr(e)),
            (Lang::Ja, _) => format!("{}の", self.expr(e)),
        }
    }

    /// "x's owner", 「xの持ち主」.
    fn of_word(&mut self, x: &Expr, en: &str, ja: &str) -> String {
        let x = self.expr(x);
        self.w.pick(format!("{x}'s {en}"), format!("{x}の{ja}"))
    }

    /// Two values into a template with `{a}` and `{b}`.
    fn two(&mut self, a: &Expr, b: &Expr, en: &str, ja: &str) -> String {
        let (a, b) = (self.expr(a), self.expr(b));
        self.w.pick(en, ja).replace("{a}", &a).replace("{b}", &b)
    }

    /// An event parameter in Japanese: what its type is.
    fn event_param_ja(&self, p: &str) -> String {
        match p {
            "player" | "recipient_player" => "プレイヤー".into(),
            "amount" | "value" | "count" => "数".into(),
            _ => "カード".into(),
        }
    }

    /// "what happened": a count of events of a kind since a moment.
    fn happened(
        &mut self,
        pattern: &crate::ir::Trigger,
        cards: bool,
        since: Option<&str>,
    ) -> String {
        let event = self.trigger(pattern);
        let since = since.map(|m| self.noun("moment", m));
        match (self.w.lang, cards) {
            (Lang::En, false) => format!(
                "the number of times {event}{}",
                since.map(|s| format!(" since {s}")).unwrap_or_default()
            ),
            (Lang::En, true) => format!(
                "the cards for which {event}{}",
                since.map(|s| format!(" since {s}")).unwrap_or_default()
            ),
            (Lang::Ja, false) => format!(
                "{}{event}回数",
                since.map(|s| format!("{s}以降に")).unwrap_or_default()
            ),
            (Lang::Ja, true) => format!(
                "{}{event}カード",
                since.map(|s| format!("{s}以降に")).unwrap_or_default()
            ),
        }
    }

    /// A condition as a clause: "this card is sleeping", 「このカードがスリープ状態である」.
    pub(crate) fn cond(&mut self, e: &Expr) -> String {
        let ja = self.w.lang == Lang::Ja;
        match e {
            Expr::Binary {
                op: Op::And,
                lhs,
                rhs,
            } => self.two_cond(lhs, rhs, " and ", "、かつ"),
            Expr::Binary {
                op: Op::Or,
                lhs,
                rhs,
            } => self.two_cond(lhs, rhs, " or ", "、または"),
            Expr::Binary { op, lhs, rhs } if !arithmetic(*op) => {
                let (a, b) = (self.expr(lhs), self.expr(rhs));
                let (en, jp) = match op {
                    Op::Eq => ("{a} is {b}", "{a}が{b}である"),
                    Op::Ne => ("{a} is not {b}", "{a}が{b}でない"),
                    Op::Lt => ("{a} is less than {b}", "{a}が{b}未満である"),
                    Op::Le => ("{a} is {b} or less", "{a}が{b}以下である"),
                    Op::Gt => ("{a} is greater than {b}", "{a}が{b}より大きい"),
                    _ => ("{a} is {b} or more", "{a}が{b}以上である"),
                };
                self.w.pick(en, jp).replace("{a}", &a).replace("{b}", &b)
            }
            Expr::Not(x) => {
                let c = self.cond(x);
                self.w
                    .pick(format!("not ({c})"), format!("「{c}」ではない"))
            }
            Expr::Bool(true) => self.w.pick("at all times", "常に").into(),
            Expr::Bool(false) => self.w.pick("never", "決して").into(),
            Expr::Contains { haystack, needle } => {
                let (h, n) = (self.expr(haystack), self.expr(needle));
                self.w
                    .pick(format!("{h} includes {n}"), format!("{h}に{n}が含まれる"))
            }
            Expr::HasKeyword { card, keyword } => {
                let c = self.expr(card);
                let k = self.noun("keyword", keyword);
                let k = self.w.keyword_mark(&k);
                self.w
                    .pick(format!("{c} has {k}"), format!("{c}が{k}を持つ"))
            }
            Expr::PlayerHas { player, keyword } => {
                let p = self.expr(player);
                let k = self.noun("keyword", keyword);
                self.w
                    .pick(format!("{p} has “{k}”"), format!("{p}が「{k}」を持つ"))
            }
            Expr::HasAbility { card, kind } | Expr::Usable { card, kind } => {
                let c = self.expr(card);
                let k = self.noun("ability kind", kind);
                self.w.pick(
                    format!("{c} has a {k} ability"),
                    format!("{c}が{k}能力を持つ"),
                )
            }
            Expr::HasAttribute { card, attribute } => {
                let c = self.expr(card);
                let a = self.noun("attribute", attribute);
                self.w.pick(
                    format!("{c} has a {a} ability"),
                    format!("{c}が{a}能力を持つ"),
                )
            }
            Expr::Modified { of, stat, .. } => {
                let c = self.expr(of);
                let s = self.noun("stat", stat);
                self.w.pick(
                    format!("{c}'s {s} is modified"),
                    format!("{c}の{s}が変更されている"),
                )
            }
            Expr::IsTurnPlayer(p) => {
                let p = self.expr(p);
                match (ja, p.as_str()) {
                    (false, "you") => "it is your turn".into(),
                    (false, _) => format!("it is {p}'s turn"),
                    (true, _) => format!("{p}のターン中"),
                }
            }
            Expr::SameCard(a, b) => self.two(a, b, "{a} is {b}", "{a}が{b}である"),
            Expr::EffectNegated(c) => {
                let c = self.expr(c);
                self.w.pick(
                    format!("{c}'s effect is negated"),
                    format!("{c}の効果が無効にされている"),
                )
            }
            Expr::FaceIs { card, face } => {
                let c = self.expr(card);
                let f = self.face(*face);
                self.w
                    .pick(format!("{c} is {f}"), format!("{c}が{f}である"))
            }
            Expr::InState { card, state } => {
                let c = self.expr(card);
                let s = self.noun("state", state);
                self.w
                    .pick(format!("{c} is {s}"), format!("{c}が{s}である"))
            }
            Expr::OfType { card, card_type } => {
                let c = self.expr(card);
                let t = self.noun("card type", card_type);
                self.w
                    .pick(format!("{c} is a {t}"), format!("{c}が{t}である"))
            }
            Expr::IsKind {
                value,
                kind: crate::ir::Type::Card,
            } => {
                let v = self.expr(value);
                self.w.pick(format!("{v} exists"), format!("{v}が存在する"))
            }
            Expr::IsKind { value, kind } => {
                let v = self.expr(value);
                let k = self.w.type_word(*kind);
                self.w
                    .pick(format!("{v} is a {k}"), format!("{v}が{k}である"))
            }
            Expr::Attached(c) => {
                let c = self.expr(c);
                self.w.pick(
                    format!("{c} is set on a card"),
                    format!("{c}がセットされている"),
                )
            }
            Expr::Cancelled { event, subject } => {
                let s = self.expr(subject);
                let ev = self.noun("event", event);
                self.w.pick(
                    format!("{s}'s {ev} was cancelled"),
                    format!("{s}の{ev}が無効にされた"),
                )
            }
            _ => {
                let v = self.expr(e);
                self.w.pick(format!("{v} holds"), format!("{v}である"))
            }
        }
    }

    /// Two conditions joined.
    fn two_cond(&mut self, a: &Expr, b: &Expr, en: &str, ja: &str) -> String {
        let (a, b) = (self.cond(a), self.cond(b));
        format!("{a}{}{b}", self.w.pick(en, ja))
    }

    /// Face up or down.
    pub(crate) fn face(&self, f: Face) -> String {
        match f {
            Face::Up => self.w.pick("face up", "表向き"),
            Face::Down => self.w.pick("face down", "裏向き"),
        }
        .into()
    }

    /// A set of cards as a noun phrase: the kind of card, where it is, what it must be.
    pub(crate) fn cards(&mut self, e: &Expr) -> String {
        match e {
            Expr::Filter { .. } => {
                let mut d = Described::default();
                let mut base = e;
                while let Expr::Filter { cards, condition } = base {
                    self.describe(condition, &mut d);
                    base = cards;
                }
                let place = self.place(base);
                self.described(d, place)
            }
            Expr::Zone { .. } => {
                let d = Described::default();
                let base = self.place(e);
                self.described(d, base)
            }
            Expr::TopOf { top, count, zone } => {
                let (n, z) = (self.expr(count), self.expr(zone));
                match (self.w.lang, top) {
                    (Lang::En, true) => format!("the top {n} card{} of {z}", plural(&n)),
                    (Lang::En, false) => format!("the bottom {n} card{} of {z}", plural(&n)),
                    (Lang::Ja, true) => format!("{z}の上から{n}枚"),
                    (Lang::Ja, false) => format!("{z}の下から{n}枚"),
                }
            }
            Expr::AtSlot { cards, slot } => {
                let c = self.cards(cards);
                let s = match &**slot {
                    Expr::Text(t) => self.slot_name(t),
                    other => self.expr(other),
                };
                self.w.pick(format!("{c} at {s}"), format!("{s}の{c}"))
            }
            Expr::RandomCards { count, from } => {
                let (n, f) = (self.expr(count), self.cards(from));
                self.w.pick(
                    format!("{n} random card{} of {f}", plural(&n)),
                    format!("{f}から無作為に{n}枚"),
                )
            }
            Expr::Extreme {
                highest,
                key,
                cards,
            } => {
                let (k, c) = (self.expr(key), self.cards(cards));
                match (self.w.lang, highest) {
                    (Lang::En, true) => format!("the card with the highest {k} among {c}"),
                    (Lang::En, false) => format!("the card with the lowest {k} among {c}"),
                    (Lang::Ja, true) => format!("{c}のうち{k}が最も高いカード"),
                    (Lang::Ja, false) => format!("{c}のうち{k}が最も低いカード"),
                }
            }
            Expr::Attached(host) => {
                let h = self.expr(host);
                self.w.pick(
                    format!("the cards set on {h}"),
                    format!("{h}にセットされたカード"),
                )
            }
            Expr::Choose {
                kind,
                min,
                max,
                from,
                ..
            } => self.chosen(*kind, min, max.as_deref(), from),
            Expr::ChooseSlot { zone, .. } => {
                let z = self.expr(zone);
                self.w.pick(
                    format!("an empty slot of {z}"),
                    format!("{z}の空いている枠"),
                )
            }
            Expr::Var(_) | Expr::This | Expr::It | Expr::EventParam(_) => self.expr(e),
            Expr::Happened { .. } => self.expr(e),
            _ => self.expr(e),
        }
    }

    /// Where a described set of cards is: its zone, or the set it is filtered from.
    fn place(&mut self, e: &Expr) -> Option<String> {
        match e {
            Expr::Zone { zone, owner } => Some(self.zone(zone, owner.as_deref())),
            _ => Some(self.cards(e)),
        }
    }

    /// Reads the parts of a filter's condition that describe the card ("a character", "sleeping",
    /// "with pierce"); any other part is kept as a clause.
    fn describe(&mut self, c: &Expr, d: &mut Described) {
        match c {
            Expr::Binary {
                op: Op::And,
                lhs,
                rhs,
            } => {
                self.describe(lhs, d);
                self.describe(rhs, d);
            }
            Expr::OfType { card, card_type } if **card == Expr::It => {
                d.noun = Some(self.noun("card type", card_type));
            }
            Expr::InState { card, state } if **card == Expr::It => {
                d.adjectives.push(self.noun("state", state));
            }
            Expr::Not(inner) if matches!(&**inner, Expr::InState { card, .. } if **card == Expr::It) => {
                if let Expr::InState { state, .. } = &**inner {
                    let st = self.noun("state", state);
                    d.negated.push(st);
                }
            }
            Expr::HasKeyword { card, keyword } if **card == Expr::It => {
                let k = self.noun("keyword", keyword);
                d.with.push(self.w.keyword_mark(&k));
            }
            _ => d.clauses.push(self.cond(c)),
        }
    }

    /// A described set of cards in words.
    fn described(&mut self, d: Described, place: Option<String>) -> String {
        let mut noun = d
            .noun
            .unwrap_or_else(|| self.w.pick("card", "カード").into());
        match self.w.lang {
            Lang::En => {
                if self.plural_nouns {
                    noun = self.w.plural_noun(&noun);
                }
                let mut out = String::new();
                for a in &d.adjectives {
                    out.push_str(a);
                    out.push(' ');
                }
                out.push_str(&noun);
                if !d.with.is_empty() {
                    out.push_str(" with ");
                    out.push_str(&d.with.join(" and "));
                }
                if let Some(p) = place {
                    out.push_str(" in ");
                    out.push_str(&p);
                }
                for n in &d.negated {
                    out.push_str(&format!(" that is not {n}"));
                }
                if !d.clauses.is_empty() {
                    out.push_str(" such that ");
                    out.push_str(&d.clauses.join(" and "));
                }
                out
            }
            Lang::Ja => {
                let mut out = String::new();
                if let Some(p) = place {
                    out.push_str(&p);
                    out.push('の');
                }
                for c in &d.clauses {
                    out.push_str(&format!("「{c}」"));
                }
                for w in &d.with {
                    out.push_str(&format!("{w}を持つ"));
                }
                for n in &d.negated {
                    out.push_str(&format!("{n}でない"));
                }
                for a in &d.adjectives {
                    out.push_str(a);
                    if !a.ends_with(['る', 'た', 'い']) {
                        out.push('の');
                    }
                }
                out.push_str(&noun);
                out
            }
        }
    }

    /// A choice inside another statement, as a noun: "1 character in your hand you choose",
    /// 「手札のキャラ1枚」.
    fn chosen(&mut self, kind: ChoiceKind, min: &Expr, max: Option<&Expr>, from: &Expr) -> String {
        let what = self.cards(from);
        let count = self.choice_count(min, max);
        match (self.w.lang, kind) {
            (Lang::En, ChoiceKind::Target) => format!("{count} target {what}"),
            (Lang::En, _) => format!("{count} {what} of your choice"),
            (Lang::Ja, ChoiceKind::Target) => format!("対象の{what}{count}"),
            (Lang::Ja, _) => format!("{what}{count}"),
        }
    }

    /// How many a choice takes: "up to 2", 「2枚まで」, "1", 「1枚」.
    fn choice_count(&mut self, min: &Expr, max: Option<&Expr>) -> String {
        match (min, max) {
            (Expr::Int(0), Some(m)) => {
                let m = self.expr(m);
                self.w.pick(format!("up to {m}"), format!("{m}枚まで"))
            }
            (n, m) if m.is_none_or(|m| m == n) => {
                let n = self.expr(n);
                self.w.pick(n.clone(), format!("{n}枚"))
            }
            (n, m) => {
                let n = self.expr(n);
                let m = m.map(|m| self.expr(m)).unwrap_or_default();
                self.w
                    .pick(format!("{n} to {m}"), format!("{n}枚以上{m}枚以下"))
            }
        }
    }

    /// A choice: "choose 1 character in your opponent's field", 「相手の場のキャラクター1枚を選ぶ」.
    pub(crate) fn choice(
        &mut self,
        kind: ChoiceKind,
        chooser: &Expr,
        min: &Expr,
        max: Option<&Expr>,
        from: &Expr,
    ) -> String {
        let what = self.cards(from);
        let count = self.choice_count(min, max);
        let who = self.expr(chooser);
        let you = matches!(chooser, Expr::You);
        let (en_verb, en_third, ja_verb) = match kind {
            ChoiceKind::Choose => ("choose", "chooses", "選ぶ"),
            ChoiceKind::Target => ("target", "targets", "対象とする"),
            ChoiceKind::Search => ("search for", "searches for", "探して選ぶ"),
        };
        match self.w.lang {
            Lang::En if you => format!("{en_verb} {count} {what}"),
            Lang::En => format!("{who} {en_third} {count} {what}"),
            Lang::Ja if you => format!("{what}{count}を{ja_verb}"),
            Lang::Ja => format!("{who}は{what}{count}を{ja_verb}"),
        }
    }
}

/// The parts of a described card: "sleeping character with pierce in your field such that …".
#[derive(Default)]
struct Described {
    noun: Option<String>,
    adjectives: Vec<String>,
    negated: Vec<String>,
    with: Vec<String>,
    clauses: Vec<String>,
}

/// Whether an operator is arithmetic (a value) rather than a comparison (a condition).
fn arithmetic(op: Op) -> bool {
    matches!(op, Op::Add | Op::Sub | Op::Mul | Op::Div)
}

/// The English plural ending of a count.
pub(crate) fn plural(n: &str) -> &'static str {
    if n == "1" {
        ""
    } else {
        "s"
    }
}
