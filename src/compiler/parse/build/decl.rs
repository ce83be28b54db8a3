//! Declarations: one builder method per `*_decl` rule of the grammar, each named after its rule.

use super::flags::FlagPlace;
use super::{children, Builder, Parts, P};
use crate::base::source::Span;
use crate::compiler::ast::*;
use crate::compiler::parse::Rule;

impl Builder<'_> {
    /// Builds one declaration: dispatches on its rule to the method named after that rule.
    pub(super) fn decl(&mut self, pair: P) -> Decl {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let (flags, parts): (Vec<P>, Vec<P>) =
            children(pair).partition(|p| p.as_rule() == Rule::flag_word);
        let interrupt = self
            .flag_words(flags, FlagPlace::of_declaration(rule))
            .contains(&"interrupt");
        let mut it = parts.into_iter().peekable();
        match rule {
            Rule::players_decl => {
                let n = it.next().map(|p| self.integer(p)).unwrap_or(0);
                Decl::Players(n, span)
            }
            Rule::zone_decl => self.zone_decl(it),
            Rule::state_decl => self.state_decl(it),
            Rule::stat_decl => self.stat_decl(it),
            Rule::layer_decl => self.layer_decl(it),
            Rule::counter_decl => {
                let named = self.named_from(&mut it);
                let on = it.map(|p| self.ident(p)).collect();
                Decl::Counter(CounterDecl { named, on })
            }
            Rule::card_type_decl => self.card_type_decl(it),
            Rule::keyword_decl => self.keyword_decl(it),
            Rule::durations_decl => {
                Decl::Durations(self.ident(it.next().expect("grammar: moment")))
            }
            Rule::trigger_order_decl => {
                Decl::TriggerOrder(self.ident(it.next().expect("grammar: who orders")))
            }
            Rule::ability_decl => Decl::AbilityKind(self.mapped_decl(it)),
            Rule::attribute_decl => Decl::Attribute(self.mapped_decl(it)),
            Rule::event_decl => self.event_decl(it),
            Rule::setup_decl => Decl::Setup(word_span(span, "setup"), self.body(it)),
            Rule::turn_decl => Decl::Turn(word_span(span, "turn"), self.body(it)),
            Rule::action_decl => self.action_decl(it),
            Rule::rule_decl => {
                let named = self.named_from(&mut it);
                let body = self.body(it);
                Decl::Rule(RuleDecl {
                    named,
                    interrupt,
                    body,
                })
            }
            Rule::moment_decl => Decl::Moment(self.named_from(&mut it)),
            Rule::verb_decl => Decl::Verb(self.proc_decl(it, span)),
            Rule::procedure_decl => Decl::Procedure(self.proc_decl(it, span)),
            Rule::numbers_decl => Decl::Numbers(self.norm_rules(it), span),
            Rule::names_decl => Decl::Names(self.norm_rules(it), span),
            Rule::deck_decl => {
                let (formats, rules): (Vec<P>, Vec<P>) =
                    it.partition(|p| p.as_rule() == Rule::deck_format);
                let formats = formats.into_iter().map(|f| self.deck_format(f)).collect();
                Decl::Deck(self.deck_rules(rules.into_iter()), formats, span)
            }
            _ => unreachable!("grammar: unexpected declaration rule {rule:?}"),
        }
    }

    /// `zone name "label" props… { slot … relation … group … }`: properties, slots, relations
    /// and groups of slots.
    fn zone_decl(&mut self, mut it: Parts) -> Decl {
        let named = self.named_from(&mut it);
        let mut props = Vec::new();
        let mut slots = Vec::new();
        let mut relations = Vec::new();
        let mut groups = Vec::new();
        for p in it {
            match p.as_rule() {
                Rule::zone_prop => props.push(self.ident(p)),
                Rule::zone_body => {
                    for b in children(p) {
                        match b.as_rule() {
                            Rule::slot_decl => slots.extend(children(b).map(|i| self.ident(i))),
                            Rule::relation_decl => relations.push(self.relation_decl(b)),
                            Rule::group_decl => groups.push(self.group_decl(b)),
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        Decl::Zone(ZoneDecl {
            named,
            props,
            slots,
            relations,
            groups,
        })
    }

    /// `group name "label": a, b, …` inside a zone body.
    fn group_decl(&mut self, pair: P) -> GroupDecl {
        let mut it = children(pair).peekable();
        let named = self.named_from(&mut it);
        let slots = it.map(|i| self.ident(i)).collect();
        GroupDecl { named, slots }
    }

    /// `relation name: a <-> b, …` inside a zone body.
    fn relation_decl(&mut self, pair: P) -> RelationDecl {
        let mut r = children(pair);
        let name = self.ident(r.next().expect("grammar: relation name"));
        let pairs = r
            .map(|sp| {
                let mut s = children(sp);
                let a = self.ident(s.next().expect("grammar: slot"));
                let b = self.ident(s.next().expect("grammar: slot"));
                (a, b)
            })
            .collect();
        RelationDecl { name, pairs }
    }

    /// `state name "label" = a | b`: a state and its named members.
    fn state_decl(&mut self, mut it: Parts) -> Decl {
        let named = self.named_from(&mut it);
        let members = it
            .map(|m| {
                let mut mi = children(m).peekable();
                self.named_from(&mut mi)
            })
            .collect();
        Decl::State(StateDecl { named, members })
    }

    /// `stat name "label" prop n…`, or a composite stat made of other stats.
    fn stat_decl(&mut self, mut it: Parts) -> Decl {
        let named = self.named_from(&mut it);
        let mut components = Vec::new();
        let mut props = Vec::new();
        for p in it {
            match p.as_rule() {
                Rule::stat_composite => components.extend(children(p).map(|i| self.ident(i))),
                Rule::stat_prop => {
                    let mut s = children(p);
                    let name = self.ident(s.next().expect("grammar: prop"));
                    let value = s.next().map(|v| self.integer(v));
                    props.push((name, value));
                }
                _ => {}
            }
        }
        Decl::Stat(StatDecl {
            named,
            components,
            props,
        })
    }

    /// `layer name "…" ops…`: the operators a layer applies, as written.
    fn layer_decl(&mut self, mut it: Parts) -> Decl {
        let named = self.named_from(&mut it);
        let ops = it
            .map(|p| (p.as_str().to_string(), self.span(&p)))
            .collect();
        Decl::Layer(LayerDecl { named, ops })
    }

    /// `card_type name "label" = other on zone unless state { field: type … }`: a card type,
    /// maybe counting as another in one zone, except while in a state.
    fn card_type_decl(&mut self, mut it: Parts) -> Decl {
        let named = self.named_from(&mut it);
        let mut counts_as_unless = None;
        let counts_as = match it.peek().map(|p| p.as_rule()) {
            Some(Rule::counts_as) => {
                let mut ci = children(it.next().expect("grammar: counts_as"));
                let ty = self.ident(ci.next().expect("grammar: counted type"));
                let mut zone = None;
                for p in ci {
                    if p.as_rule() == Rule::counts_unless {
                        let state = children(p).last().expect("grammar: unless state");
                        counts_as_unless = Some(self.ident(state));
                    } else {
                        zone = Some(self.ident(p));
                    }
                }
                Some((ty, zone))
            }
            _ => None,
        };
        let fields = it
            .map(|f| {
                let mut fi = children(f);
                let name = self.ident(fi.next().expect("grammar: field"));
                let ty = self.ident(fi.next().expect("grammar: type"));
                let mult = fi.next().and_then(|m| m.as_str().chars().next());
                FieldDecl { name, ty, mult }
            })
            .collect();
        Decl::CardType(CardTypeDecl {
            named,
            counts_as,
            counts_as_unless,
            fields,
        })
    }

    /// `keyword name(params) "label" = semantics`.
    fn keyword_decl(&mut self, it: Parts) -> Decl {
        let (named, params, semantics) = self.signature_word(it, Rule::ident);
        Decl::Keyword(KeywordDecl {
            named,
            params,
            semantics,
        })
    }

    /// `event name(params) "label" = core`.
    fn event_decl(&mut self, it: Parts) -> Decl {
        let (named, params, core) = self.signature_word(it, Rule::event_core);
        Decl::Event(EventDecl {
            named,
            params,
            core,
        })
    }

    /// A [`signature`](Self::signature) ending in a word of rule `word` (`= semantics`).
    fn signature_word(&mut self, it: Parts, word: Rule) -> (Named, Vec<Param>, Option<Ident>) {
        let (named, params, rest) = self.signature(it);
        let word = rest.filter(|p| p.as_rule() == word).map(|p| self.ident(p));
        (named, params, word)
    }

    /// `verb name(params) "label" { … }` and `procedure name(params) { … }`; a missing body
    /// is an empty block spanning the declaration.
    fn proc_decl(&mut self, it: Parts, span: Span) -> ProcDecl {
        let (named, params, rest) = self.signature(it);
        let body = rest
            .filter(|p| p.as_rule() == Rule::block)
            .map(|p| self.block(p));
        ProcDecl {
            named,
            params,
            body: body.unwrap_or(Block {
                stmts: vec![],
                span,
            }),
        }
    }

    /// The shared head of keywords, events, verbs and procedures: `name (params)? "label"?`,
    /// and the pair after it (semantics, event core or body), left for the caller to build.
    fn signature<'i>(&mut self, mut it: Parts<'i>) -> (Named, Vec<Param>, Option<P<'i>>) {
        let name = self.ident(it.next().expect("grammar: declared name"));
        let mut params = Vec::new();
        let mut label = None;
        let mut phrases = Vec::new();
        let mut rest = None;
        for p in it {
            match p.as_rule() {
                Rule::params => params = self.params(p),
                Rule::string => label = Some(self.string(p)),
                Rule::phrases => phrases = self.phrases(p),
                _ => rest = Some(p),
            }
        }
        (
            Named {
                name,
                label,
                phrases,
            },
            params,
            rest,
        )
    }

    /// `ability name "label" = semantics from zone optional_cost` and `attribute …` of the same
    /// shape.
    fn mapped_decl(&mut self, mut it: Parts) -> MappedDecl {
        let named = self.named_from(&mut it);
        let semantics = self.ident(it.next().expect("grammar: semantics"));
        let (optional, from): (Vec<P>, Vec<P>) =
            it.partition(|p| p.as_rule() == Rule::optional_cost);
        let from_zone = from.into_iter().next().map(|p| self.ident(p));
        let optional_cost = optional.first().map(|p| self.span(p));
        MappedDecl {
            named,
            semantics,
            from_zone,
            optional_cost,
        }
    }

    /// `action name "label" for x in cards if cond { … }`.
    fn action_decl(&mut self, mut it: Parts) -> Decl {
        let named = self.named_from(&mut it);
        let mut each = None;
        let mut condition = None;
        let mut body = None;
        for p in it {
            match p.as_rule() {
                Rule::action_for => {
                    let mut f = children(p);
                    let var = self.ident(f.next().expect("grammar: variable"));
                    let cards = self.expr(f.next().expect("grammar: candidates"));
                    each = Some((var, cards));
                }
                Rule::if_clause => condition = Some(self.inner_expr(p)),
                _ => body = Some(self.block(p)),
            }
        }
        Decl::Action(Box::new(ActionDecl {
            named,
            each,
            condition,
            body: body.expect("grammar: body"),
        }))
    }

    /// `numbers { rule "arg" … }` / `names { … }`: normalization rules with their arguments.
    fn norm_rules(&mut self, it: Parts) -> Vec<NormRule> {
        it.map(|r| {
            let mut ri = children(r);
            let name = self.ident(ri.next().expect("grammar: rule name"));
            let args = ri.map(|s| self.string(s)).collect();
            NormRule { name, args }
        })
        .collect()
    }

    /// `deck { rule n qualifier … }`: deck rules, each with a value and an optional qualifier.
    fn deck_rules<'i>(&mut self, it: impl Iterator<Item = P<'i>>) -> Vec<DeckRule> {
        it.map(|r| {
            let span = self.span(&r);
            let mut ri = children(r);
            let name = self.ident(ri.next().expect("grammar: deck rule"));
            let value = ri.next().map(|v| self.integer(v)).unwrap_or(0);
            let qualifier = ri.next().map(|q| self.ident(q));
            // `deck_and`: `and` then the field.
            let and = ri
                .next()
                .and_then(|a| children(a).find(|p| p.as_rule() == Rule::ident))
                .map(|f| self.ident(f));
            DeckRule {
                name,
                value,
                qualifier,
                and,
                span,
            }
        })
        .collect()
    }

    /// `format name "label"? { distinct field bound N | bound N per field … }`.
    fn deck_format(&mut self, pair: P) -> DeckFormat {
        let mut it = children(pair).peekable();
        let named = self.named_from(&mut it);
        let rules = it
            .map(|r| {
                let rule = r.as_rule();
                let mut ri = children(r);
                let mut next = || ri.next().expect("grammar: format rule");
                if rule == Rule::format_distinct {
                    let field = self.ident(next());
                    let bound = self.ident(next());
                    let value = self.integer(next());
                    FormatRule::Distinct {
                        field,
                        bound,
                        value,
                    }
                } else {
                    let bound = self.ident(next());
                    let value = self.integer(next());
                    let field = self.ident(next());
                    FormatRule::PerValue {
                        bound,
                        value,
                        field,
                    }
                }
            })
            .collect();
        DeckFormat { named, rules }
    }

    /// The block that ends a declaration (`setup`, `turn`, `rule`).
    fn body(&mut self, mut it: Parts) -> Block {
        self.block(it.next().expect("grammar: body"))
    }

    /// `name "label"?`: the name and optional label most declarations start with.
    pub(super) fn named_from<'i>(
        &mut self,
        it: &mut std::iter::Peekable<impl Iterator<Item = P<'i>>>,
    ) -> Named {
        let name = self.ident(it.next().expect("grammar: name"));
        let label = if it.peek().is_some_and(|p| p.as_rule() == Rule::string) {
            it.next().map(|p| self.string(p))
        } else {
            None
        };
        let phrases = match it.next_if(|p| p.as_rule() == Rule::phrases) {
            Some(p) => self.phrases(p),
            None => Vec::new(),
        };
        Named {
            name,
            label,
            phrases,
        }
    }

    /// `reads en "…" / "…", ja "…"`: a name's phrases in printed card text.
    fn phrases(&mut self, pair: P) -> Vec<PhraseDecl> {
        children(pair)
            .map(|p| {
                let mut pi = children(p);
                let lang = self.ident(pi.next().expect("grammar: phrase language"));
                let text = pi.next().map(|t| self.string(t));
                let explicit = pi.next().map(|e| self.string(e));
                PhraseDecl {
                    lang,
                    text,
                    explicit,
                }
            })
            .collect()
    }

    /// `(name: type | type? = default, …)`: a declaration's parameters.
    fn params(&mut self, pair: P) -> Vec<Param> {
        children(pair)
            .map(|p| {
                let mut pi = children(p);
                let name = self.ident(pi.next().expect("grammar: param name"));
                let ty = pi.next().expect("grammar: param type");
                let mut types = Vec::new();
                let mut optional = false;
                for t in children(ty) {
                    match t.as_rule() {
                        Rule::type_name => {
                            types.push(self.ident(t.into_inner().next().expect("grammar: type")))
                        }
                        Rule::opt_mark => optional = true,
                        _ => {}
                    }
                }
                let default = pi.next().map(|e| self.expr(e));
                Param {
                    name,
                    types,
                    optional,
                    default,
                }
            })
            .collect()
    }
}

/// The span of the keyword that opens a `setup` or `turn` declaration.
fn word_span(span: Span, word: &str) -> Span {
    Span::new(span.start, span.start + word.len())
}
