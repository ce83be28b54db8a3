//! Abilities and statements as printed text: the ability kind's frame around the trigger,
//! condition, cost and effect; each statement a clause, each top-level statement a sentence.

use super::words::{te_form, Lang};
use super::Renderer;
use crate::ir::phrase::{template_pieces, Piece};
use crate::ir::{Ability, Duration, Expr, NegateScope, Position, Stmt, Trigger};

impl Renderer<'_, '_> {
    /// One ability: its kind's frame (`【自動α】{trigger}場合、{effect}`) filled, its use limit
    /// after it.
    pub(crate) fn ability(&mut self, a: &Ability) -> String {
        let mark = self.bound();
        let trigger = a
            .trigger
            .as_ref()
            .map(|t| self.trigger(t))
            .unwrap_or_default();
        let condition = a
            .condition
            .as_ref()
            .or(a.while_condition.as_ref())
            .map(|c| {
                let c = self.cond(c);
                self.w.condition(&c)
            })
            .unwrap_or_default();
        let cost = if a.cost.is_empty() {
            String::new()
        } else {
            let parts: Vec<String> = a.cost.iter().filter_map(|s| self.clause(s)).collect();
            self.w.cost(&parts)
        };
        let effect = self.sentences(&a.effect);
        self.unbind_to(mark);
        let attributes: String = a
            .attributes
            .iter()
            .map(|x| self.noun("attribute", x))
            .collect();
        let frame = self.phrase("ability kind", &a.kind).map(|p| p.text.clone());
        let mut out = attributes;
        match frame {
            Some(f) => {
                for piece in template_pieces(&f) {
                    match piece {
                        Piece::Text(t) => out.push_str(t),
                        Piece::Hole { name, .. } => {
                            let part = match name {
                                "trigger" => &trigger,
                                "condition" => &condition,
                                "costs" => &cost,
                                "effect" => &effect,
                                _ => "",
                            };
                            let part = self.w.cased_after(&out, part);
                            out.push_str(&part);
                        }
                        Piece::Unclosed { .. } | Piece::Stray { .. } => {}
                    }
                }
            }
            None => {
                let kind = self.fallback_kind(&a.kind);
                let when = if trigger.is_empty() {
                    String::new()
                } else {
                    self.w
                        .pick(format!("when {trigger}, "), format!("{trigger}時、"))
                };
                out.push_str(&format!("{kind}{when}{condition}{cost}{effect}"));
            }
        }
        if let Some(l) = &a.limit {
            out.push_str(&self.w.limit(l.count, &l.per));
        }
        out
    }

    /// An ability kind with no frame for the language: its label in brackets.
    fn fallback_kind(&mut self, id: &str) -> String {
        let name = self.noun("ability kind", id);
        self.w.pick(format!("[{name}] "), format!("【{name}】"))
    }

    /// An event pattern: the event's phrase, its parameters filled by the pattern.
    pub(crate) fn trigger(&mut self, t: &Trigger) -> String {
        let args: Vec<(String, String, bool)> = t
            .when
            .iter()
            .map(|(k, v)| (k.to_string(), self.expr(v), false))
            .collect();
        self.filled("event", &t.event, &args)
    }

    /// Statements as sentences.
    pub(crate) fn sentences(&mut self, list: &[Stmt]) -> String {
        let clauses: Vec<String> = list.iter().filter_map(|s| self.clause(s)).collect();
        let parts: Vec<String> = clauses.iter().map(|c| self.w.sentence(c)).collect();
        self.w.join_sentences(&parts)
    }

    /// Statements as one clause (a body inside `may`, `if`, a loop).
    fn body(&mut self, list: &[Stmt]) -> String {
        let parts: Vec<String> = list.iter().filter_map(|s| self.clause(s)).collect();
        match self.w.lang {
            Lang::En => parts.join(", then "),
            Lang::Ja => {
                let n = parts.len();
                parts
                    .into_iter()
                    .enumerate()
                    .map(|(i, p)| if i + 1 < n { te_form(&p) } else { p })
                    .collect::<Vec<_>>()
                    .join("、")
            }
        }
    }

    /// One statement as a clause; `None` when it prints nothing of its own (a `let` of a value
    /// read later where it is used).
    pub(crate) fn clause(&mut self, s: &Stmt) -> Option<String> {
        Some(match s {
            Stmt::Let { var, value } => return self.let_clause(var, value),
            Stmt::If { arms, otherwise } => self.if_clause(arms, otherwise),
            Stmt::ForEach { var, cards, body } => {
                let c = self.cards(cards);
                let mark = self.bound();
                let it = self.w.pick("that card", "そのカード").to_string();
                self.bind(var, it);
                let b = self.body(body);
                self.unbind_to(mark);
                self.w.for_each(&c, &b)
            }
            Stmt::Repeat { times, body } => {
                let t = self.expr(times);
                let b = self.body(body);
                self.w.repeat(&t, &b)
            }
            Stmt::While { cond, body } => {
                let c = self.cond(cond);
                let b = self.body(body);
                self.w.while_loop(&c, &b)
            }
            Stmt::May { players, body } => {
                let who = match players.as_slice() {
                    [Expr::You] | [] => None,
                    ps => Some(
                        ps.iter()
                            .map(|p| self.expr(p))
                            .collect::<Vec<_>>()
                            .join(self.w.pick(" and ", "と")),
                    ),
                };
                let parts: Vec<String> = body.iter().filter_map(|s| self.clause(s)).collect();
                self.w.may(who.as_deref(), &parts)
            }
            Stmt::Call {
                verb,
                args,
                duration,
            } => {
                let c = self.call(verb, args);
                self.with_duration(c, duration.as_ref())
            }
            _ => return self.change_clause(s),
        })
    }

    /// `let v = value`: a choice is said where it is made and read later as "that card";
    /// any other value is read where it is used.
    fn let_clause(&mut self, var: &str, value: &Expr) -> Option<String> {
        match value {
            Expr::Choose {
                kind,
                chooser,
                min,
                max,
                from,
            } => {
                let c = self.choice(*kind, chooser, min, max.as_deref(), from);
                let that = self.w.pick("that card", "そのカード").to_string();
                self.bind(var, that);
                Some(c)
            }
            _ => {
                let v = self.expr(value);
                self.bind(var, v);
                None
            }
        }
    }

    /// `if … else if … else …`.
    fn if_clause(&mut self, arms: &[(Expr, Vec<Stmt>)], otherwise: &[Stmt]) -> String {
        let mut parts = Vec::new();
        for (cond, body) in arms {
            let c = self.cond(cond);
            let b = self.body(body);
            parts.push(self.w.if_then(&c, &b));
        }
        if !otherwise.is_empty() {
            let b = self.body(otherwise);
            parts.push(self.w.otherwise(&b));
        }
        parts.join(self.w.pick("; ", "。"))
    }

    /// A verb or procedure call: its phrase filled, the second form when a player argument is
    /// not its default.
    fn call(&mut self, verb: &str, args: &crate::ir::Map<crate::ir::Id, Expr>) -> String {
        let kind = if self.vocab.get("verb", verb).is_some() {
            "verb"
        } else {
            "procedure"
        };
        let params = self.vocab.get(kind, verb).map(|e| e.params).unwrap_or(&[]);
        let mut filled = Vec::new();
        for p in params {
            let Some(a) = args.get(p.name.as_str()) else {
                continue;
            };
            let is_player = p.types.contains(&crate::ir::Type::Player);
            let v = if p.types.contains(&crate::ir::Type::Card)
                || p.types.contains(&crate::ir::Type::Cards)
            {
                self.cards(a)
            } else {
                self.expr(a)
            };
            // the second form names a player other than the one the text speaks to
            let you = self.w.pick("you", "あなた");
            let not_default = is_player && p.default.as_ref() != Some(a) && v != you;
            filled.push((p.name.to_string(), v, not_default));
        }
        self.filled(kind, verb, &filled)
    }

    /// A clause and how long it lasts: "…until end of turn", 「ターン終了時まで、…」.
    fn with_duration(&mut self, clause: String, d: Option<&Duration>) -> String {
        let Some(d) = self.duration(d) else {
            return clause;
        };
        self.w
            .pick(format!("{clause} {d}"), format!("{d}、{clause}"))
    }

    /// How long: `None` for the default.
    fn duration(&mut self, d: Option<&Duration>) -> Option<String> {
        match d? {
            Duration::Default => None,
            Duration::Until(m) => {
                let m = self.noun("moment", m);
                Some(self.w.pick(format!("until {m}"), format!("{m}まで")))
            }
            Duration::UntilOf { moment, player } => {
                let m = self.noun("moment", moment);
                let p = self.expr(player);
                Some(match (self.w.lang, player) {
                    (Lang::En, Expr::You) => format!("until your next {m}"),
                    (Lang::En, _) => format!("until {p}'s next {m}"),
                    (Lang::Ja, _) => format!("次の{p}の{m}まで"),
                })
            }
            Duration::While(c) => {
                let c = self.cond(c);
                Some(
                    self.w
                        .pick(format!("for as long as {c}"), format!("{c}限り")),
                )
            }
        }
    }

    /// The statements that change the game (moves, states, modifications, keywords…).
    fn change_clause(&mut self, s: &Stmt) -> Option<String> {
        let en = self.w.lang == Lang::En;
        Some(match s {
            Stmt::Move {
                cards,
                to,
                position,
                face,
                state,
                ..
            } => {
                let c = self.cards(cards);
                let z = self.expr(to);
                let mut how = Vec::new();
                if let Some(f) = face {
                    how.push(self.face(*f));
                }
                if let Some(st) = state {
                    how.push(self.noun("state", st));
                }
                let place = match (en, position) {
                    (true, Some(Position::Top)) => format!("on top of {z}"),
                    (true, Some(Position::Bottom)) => format!("at the bottom of {z}"),
                    (true, None) => format!("into {z}"),
                    (false, Some(Position::Top)) => format!("{z}の一番上に"),
                    (false, Some(Position::Bottom)) => format!("{z}の一番下に"),
                    (false, None) => format!("{z}に"),
                };
                if en {
                    let how = if how.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", how.join(", "))
                    };
                    format!("put {c} {place}{how}")
                } else {
                    let how: String = how.iter().map(|h| format!("{h}で")).collect();
                    format!("{c}を{how}{place}置く")
                }
            }
            Stmt::Attach { card, host } => {
                let (c, h) = (self.expr(card), self.expr(host));
                self.w
                    .pick(format!("set {c} on {h}"), format!("{c}を{h}にセットする"))
            }
            Stmt::SetState {
                cards,
                state,
                duration,
            } => {
                let (c, st) = (self.cards(cards), self.noun("state", state));
                let text = self
                    .w
                    .pick(format!("make {c} {st}"), format!("{c}を{st}にする"));
                self.with_duration(text, Some(duration))
            }
            Stmt::ClearState { cards, state } => {
                let (c, st) = (self.cards(cards), self.noun("state", state));
                self.w.pick(
                    format!("{c} is no longer {st}"),
                    format!("{c}の{st}を解除する"),
                )
            }
            Stmt::AliasZone {
                zone,
                becomes,
                duration,
            } => {
                let (z, b) = (self.expr(zone), self.noun("zone", becomes));
                let text = self
                    .w
                    .pick(format!("{z} becomes a {b}"), format!("{z}は{b}になる"));
                self.with_duration(text, Some(duration))
            }
            Stmt::Modify {
                cards,
                stat,
                op,
                value,
                duration,
                ..
            } => {
                let text = self.modify(cards, stat, op, value.as_ref());
                self.with_duration(text, Some(duration))
            }
            Stmt::Count {
                subject,
                counter,
                op,
                value,
            } => {
                let (s, c, v) = (
                    self.expr(subject),
                    self.noun("counter", counter),
                    self.expr(value),
                );
                match (en, op.as_str()) {
                    (true, "+=") => format!("put {v} {c} on {s}"),
                    (true, "-=") => format!("remove {v} {c} from {s}"),
                    (true, _) => format!("the {c} on {s} becomes {v}"),
                    (false, "+=") => format!("{s}に{c}を{v}置く"),
                    (false, "-=") => format!("{s}から{c}を{v}取り除く"),
                    (false, _) => format!("{s}の{c}を{v}にする"),
                }
            }
            Stmt::Grant {
                keyword,
                args,
                cards,
                duration,
            } => {
                let c = self.cards(cards);
                let k = self.keyword(keyword, args);
                let text = self
                    .w
                    .pick(format!("{c} gains {k}"), format!("{c}は{k}を得る"));
                self.with_duration(text, Some(duration))
            }
            Stmt::RemoveKeyword {
                keyword,
                cards,
                duration,
            } => {
                let c = self.cards(cards);
                let k = self.keyword(keyword, &[]);
                let text = self
                    .w
                    .pick(format!("{c} loses {k}"), format!("{c}は{k}を失う"));
                self.with_duration(text, Some(duration))
            }
            Stmt::PlayerKeyword {
                keyword,
                players,
                grant,
                duration,
            } => {
                let p = self.expr(players);
                let k = self.noun("keyword", keyword);
                let text = match (en, grant) {
                    (true, true) => format!("{p} gains “{k}”"),
                    (true, false) => format!("{p} loses “{k}”"),
                    (false, true) => format!("{p}は「{k}」を得る"),
                    (false, false) => format!("{p}は「{k}」を失う"),
                };
                self.with_duration(text, Some(duration))
            }
            _ => return self.other_clause(s),
        })
    }

    /// `x.stat op value`: "that card gets +2 attack", 「それの攻撃力+2」.
    fn modify(&mut self, cards: &Expr, stat: &str, op: &str, value: Option<&Expr>) -> String {
        let mut c = self.cards(cards);
        if self.w.lang == Lang::En && matches!(cards, Expr::Filter { .. } | Expr::Zone { .. }) {
            c = format!("each {c}");
        }
        let st = self.noun("stat", stat);
        let v = value.map(|v| self.expr(v)).unwrap_or_default();
        let signed = v.starts_with(['+', '-', '±']);
        let (plus, minus) = if signed { ("", "") } else { ("+", "-") };
        let en = self.w.lang == Lang::En;
        match (en, op) {
            (true, "+=") => format!("{c} gets {plus}{v} {st}"),
            (true, "-=") => format!("{c} gets {minus}{v} {st}"),
            (true, "=") => format!("{c}'s {st} becomes {v}"),
            (true, _) => format!("swap {c}'s {st}"),
            (false, "+=") => format!("{c}の{st}{plus}{v}"),
            (false, "-=") => format!("{c}の{st}{minus}{v}"),
            (false, "=") => format!("{c}の{st}を{v}にする"),
            (false, _) => format!("{c}の{st}を入れ替える"),
        }
    }

    /// The statements left: visibility, negation, events, the game's end, and the statements
    /// only rulesets use (phases, windows…), which print plainly.
    fn other_clause(&mut self, s: &Stmt) -> Option<String> {
        let en = self.w.lang == Lang::En;
        Some(match s {
            Stmt::Reveal { cards } => {
                let c = self.cards(cards);
                self.w.pick(format!("reveal {c}"), format!("{c}を公開する"))
            }
            Stmt::Look { cards, by } => {
                let (c, b) = (self.cards(cards), self.expr(by));
                match (en, by) {
                    (true, Expr::You) => format!("look at {c}"),
                    (true, _) => format!("{b} looks at {c}"),
                    (false, Expr::You) => format!("{c}を見る"),
                    (false, _) => format!("{b}は{c}を見る"),
                }
            }
            Stmt::Shuffle { zone } => {
                let z = self.expr(zone);
                self.w
                    .pick(format!("shuffle {z}"), format!("{z}をシャッフルする"))
            }
            Stmt::Negate {
                cards,
                scope,
                duration,
                ..
            } => {
                let c = self.cards(cards);
                let text = match (en, scope) {
                    (true, NegateScope::Text) => format!("negate the text of {c}"),
                    (true, NegateScope::Effect) => format!("negate the effect of {c}"),
                    (false, NegateScope::Text) => format!("{c}のテキストを無効にする"),
                    (false, NegateScope::Effect) => format!("{c}の効果を無効にする"),
                };
                self.with_duration(text, Some(duration))
            }
            Stmt::Cancel { event, subject } => {
                let ev = self.filled("event", event, &[]);
                let s = subject.as_ref().map(|s| self.expr(s));
                match (en, s) {
                    (true, Some(s)) => format!("cancel that “{ev}” of {s}"),
                    (true, None) => format!("cancel that “{ev}”"),
                    (false, Some(s)) => format!("{s}の「{ev}」を無効にする"),
                    (false, None) => format!("その「{ev}」を無効にする"),
                }
            }
            Stmt::TreatAs {
                cards, card_type, ..
            } => {
                let (c, t) = (self.cards(cards), self.noun("card type", card_type));
                self.w
                    .pick(format!("treat {c} as a {t}"), format!("{c}を{t}として扱う"))
            }
            Stmt::Script { function, .. } => {
                let f = super::short(function);
                self.w.pick(
                    format!("(the pack's script {f} decides what happens)"),
                    format!("（パックのスクリプト{f}が処理を行う）"),
                )
            }
            Stmt::Emit { event, args } => {
                let filled: Vec<(String, String, bool)> = args
                    .iter()
                    .map(|(k, v)| (k.to_string(), self.expr(v), false))
                    .collect();
                self.filled("event", event, &filled)
            }
            Stmt::ChooseOne { chooser, options } => {
                let who = self.expr(chooser);
                let opts: Vec<String> = options
                    .iter()
                    .map(|(label, body)| {
                        let b = self.body(body);
                        self.w
                            .pick(format!("“{label}”: {b}"), format!("「{label}」：{b}"))
                    })
                    .collect();
                match (en, chooser) {
                    (true, Expr::You) => format!("choose one — {}", opts.join("; or ")),
                    (true, _) => format!("{who} chooses one — {}", opts.join("; or ")),
                    (false, Expr::You) => format!("以下から1つを選ぶ。{}", opts.join("／")),
                    (false, _) => format!("{who}は以下から1つを選ぶ。{}", opts.join("／")),
                }
            }
            Stmt::Win { player } => {
                let p = self.expr(player);
                self.w.subject(&p, "wins the game", "ゲームに勝利する")
            }
            Stmt::Lose { player } => {
                let p = self.expr(player);
                self.w.subject(&p, "loses the game", "ゲームに敗北する")
            }
            Stmt::DrawGame => self
                .w
                .pick("the game is a draw", "ゲームは引き分けになる")
                .into(),
            Stmt::GoesFirst { player } => {
                let p = self.expr(player);
                self.w.subject(&p, "goes first", "先攻になる")
            }
            Stmt::Flip { cards, face } => {
                let c = self.cards(cards);
                match face {
                    Some(f) => {
                        let f = self.face(*f);
                        self.w
                            .pick(format!("turn {c} {f}"), format!("{c}を{f}にする"))
                    }
                    None => self
                        .w
                        .pick(format!("turn {c} over"), format!("{c}を裏返す")),
                }
            }
            Stmt::Simultaneously { body } | Stmt::Chain { body } => self.body(body),
            Stmt::Phase { phase, body } => {
                let p = self.noun("phase", phase);
                let b = self.body(body);
                self.w.pick(format!("{p}: {b}"), format!("{p}：{b}"))
            }
            Stmt::Window { .. } => self
                .w
                .pick("players may act", "プレイヤーは行動できる")
                .into(),
            Stmt::Resolve { kind, cards } => {
                let (k, c) = (self.noun("ability kind", kind), self.cards(cards));
                self.w.pick(
                    format!("resolve the {k} abilities of {c}"),
                    format!("{c}の{k}能力を解決する"),
                )
            }
            Stmt::Check => self.w.pick("check the rules", "ルール処理を行う").into(),
            Stmt::Reach { moment } => {
                let m = self.noun("moment", moment);
                self.w.pick(format!("{m} is reached"), format!("{m}になる"))
            }
            Stmt::ReachOf { moment, player } => {
                let (m, p) = (self.noun("moment", moment), self.expr(player));
                self.w
                    .pick(format!("{m} of {p} is reached"), format!("{p}の{m}になる"))
            }
            _ => return None,
        })
    }
}
