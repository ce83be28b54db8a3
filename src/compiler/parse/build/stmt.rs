//! Statements: one builder method per `*_stmt` rule of the grammar that has more than one
//! part, each named after its rule; one-part statements are built in the dispatch itself.

use super::flags::FlagPlace;
use super::{children, Builder, Parts, P};
use crate::base::diagnostic::{codes, Diagnostic};
use crate::base::source::Span;
use crate::compiler::ast::*;
use crate::compiler::parse::Rule;

impl Builder<'_> {
    /// Builds one statement: dispatches on its rule to the method named after that rule.
    pub(super) fn stmt(&mut self, pair: P) -> Stmt {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        if rule == Rule::may_stmt {
            return Stmt {
                kind: self.may_stmt(pair, span),
                span,
            };
        }
        let parts: Vec<P> = children(pair).collect();
        let mut it = parts.into_iter().peekable();
        let kind = match rule {
            // Control flow.
            Rule::let_stmt => {
                let name = self.ident(it.next().expect("grammar"));
                StmtKind::Let(name, self.next_expr(&mut it))
            }
            Rule::if_stmt => self.if_stmt(it),
            Rule::for_stmt => {
                let var = self.ident(it.next().expect("grammar"));
                let iter = self.next_expr(&mut it);
                StmtKind::ForEach(var, iter, self.next_block(&mut it))
            }
            Rule::repeat_stmt => {
                let n = self.next_expr(&mut it);
                StmtKind::Repeat(n, self.next_block(&mut it))
            }
            Rule::while_stmt => {
                let cond = self.next_expr(&mut it);
                StmtKind::While(cond, self.next_block(&mut it))
            }
            Rule::simultaneously_stmt => StmtKind::Simultaneously(self.next_block(&mut it)),
            Rule::choose_one_stmt => self.choose_one_stmt(it),
            // Cards: where they are, how they lie, what they show.
            Rule::move_stmt => self.move_stmt(it),
            Rule::attach_stmt => {
                let what = self.next_expr(&mut it);
                StmtKind::Attach(what, self.next_expr(&mut it))
            }
            Rule::clear_state_stmt => {
                let what = self.next_expr(&mut it);
                StmtKind::Clear(what, self.ident(it.next().expect("grammar")))
            }
            Rule::reveal_stmt => StmtKind::Reveal(self.next_expr(&mut it)),
            Rule::look_stmt => {
                let what = self.next_expr(&mut it);
                let by = it.next().map(|b| self.inner_expr(b));
                StmtKind::Look(what, by)
            }
            Rule::shuffle_stmt => StmtKind::Shuffle(self.next_expr(&mut it)),
            Rule::flip_stmt => self.flip_stmt(it),
            // Texts: keywords, negation, treating a card as another.
            Rule::grant_stmt => {
                let (kw, target, dur) = self.keyword_change(it);
                StmtKind::Grant(kw, target, dur)
            }
            Rule::remove_stmt => {
                let (kw, target, dur) = self.keyword_change(it);
                StmtKind::Remove(kw, target, dur)
            }
            Rule::negate_stmt => self.negate_stmt(it),
            Rule::treat_stmt => {
                let what = self.next_expr(&mut it);
                let ty = self.ident(it.next().expect("grammar"));
                let fields = it.map(|f| self.field_entry(f)).collect();
                StmtKind::Treat(what, ty, fields)
            }
            // Events and the end of the game.
            Rule::cancel_stmt => {
                let ev = self.ident(it.next().expect("grammar"));
                StmtKind::Cancel(ev, it.next().map(|e| self.expr(e)))
            }
            Rule::emit_stmt => {
                let ev = self.ident(it.next().expect("grammar"));
                StmtKind::Emit(ev, self.call_args(it.next()))
            }
            Rule::script_stmt => {
                let function = self.ident(it.next().expect("grammar"));
                let args = it
                    .next()
                    .map(|a| children(a).map(|e| self.expr(e)).collect())
                    .unwrap_or_default();
                StmtKind::Script(function, args)
            }
            Rule::win_stmt => StmtKind::Win(self.next_expr(&mut it)),
            Rule::goes_first_stmt => StmtKind::GoesFirst(self.next_expr(&mut it)),
            Rule::lose_stmt => StmtKind::Lose(self.next_expr(&mut it)),
            Rule::draw_game_stmt => StmtKind::DrawGame,
            // Game flow: phases, windows, the chain, rule checks, moments.
            Rule::phase_stmt => {
                let named = self.named_from(&mut it);
                StmtKind::Phase(named, self.next_block(&mut it))
            }
            Rule::window_stmt => self.window_stmt(it),
            Rule::chain_stmt => StmtKind::Chain(self.next_block(&mut it)),
            Rule::resolve_stmt => {
                let kind = self.ident(it.next().expect("grammar"));
                StmtKind::Resolve(kind, self.next_expr(&mut it))
            }
            Rule::check_stmt => StmtKind::Check,
            Rule::reach_stmt => {
                let moment = self.ident(it.next().expect("grammar"));
                match it.next() {
                    Some(of) => StmtKind::ReachOf(moment, self.moment_of(of)),
                    None => StmtKind::Reach(moment),
                }
            }
            // Statements led by a name or value: calls, `becomes`, stat changes.
            Rule::subject_stmt => self.subject_stmt(it),
            _ => unreachable!("grammar: unexpected statement rule {rule:?}"),
        };
        Stmt { kind, span }
    }

    /// `if c { … } else if c { … } else { … }`: the arms in order, then the `else` block.
    fn if_stmt(&mut self, mut it: Parts) -> StmtKind {
        let cond = self.next_expr(&mut it);
        let then = self.next_block(&mut it);
        let mut arms = vec![(cond, then)];
        let mut els = None;
        for p in it {
            match p.as_rule() {
                Rule::else_if => {
                    let mut e = children(p);
                    let c = self.expr(e.next().expect("grammar"));
                    let b = self.block(e.next().expect("grammar"));
                    arms.push((c, b));
                }
                _ => els = Some(self.block(children(p).next().expect("grammar"))),
            }
        }
        StmtKind::If(arms, els)
    }

    /// `choose one (who) { option "label" { … } … }`.
    fn choose_one_stmt(&mut self, it: Parts) -> StmtKind {
        let mut who = None;
        let mut options = Vec::new();
        for p in it {
            match p.as_rule() {
                Rule::who => who = Some(self.inner_expr(p)),
                _ => {
                    let mut o = children(p);
                    let label = self.string(o.next().expect("grammar"));
                    let body = self.block(o.next().expect("grammar"));
                    options.push((label, body));
                }
            }
        }
        StmtKind::ChooseOne(who, options)
    }

    /// `move x to z (top|bottom) (face up|down) (state) (at slot)`.
    fn move_stmt(&mut self, mut it: Parts) -> StmtKind {
        let what = self.next_expr(&mut it);
        let to = self.next_expr(&mut it);
        let mut opts = MoveOptions::default();
        for o in it {
            match o.as_rule() {
                Rule::move_pos => {
                    opts.top = o.into_inner().next().map(|w| w.as_rule() == Rule::kw_top)
                }
                Rule::move_face => {
                    opts.face_up = o
                        .into_inner()
                        .next()
                        .map(|w| w.as_rule() == Rule::kw_face_up)
                }
                Rule::move_state => opts.state = children(o).next().map(|i| self.ident(i)),
                _ => opts.slot = children(o).next().map(|e| self.expr(e)),
            }
        }
        // `move c to z at s`: the `at` after the destination is the move's slot, not a filter
        let to = match to.kind {
            ExprKind::Binary(BinOp::At, zone, slot) if opts.slot.is_none() => {
                opts.slot = Some(*slot);
                *zone
            }
            kind => Expr {
                kind,
                span: to.span,
            },
        };
        StmtKind::Move(what, to, opts)
    }

    /// The parts `grant` and `remove` share: `keyword args`, the cards, an optional duration.
    fn keyword_change(&mut self, mut it: Parts) -> (KeywordRef, Expr, Option<Duration>) {
        let kw = self.keyword_arg(it.next().expect("grammar"));
        let target = self.next_expr(&mut it);
        let dur = self.opt_duration(it.next());
        (kw, target, dur)
    }

    /// `negate the text|effect of x (including unnegatable) (duration)`.
    fn negate_stmt(&mut self, mut it: Parts) -> StmtKind {
        let what = self.next_expr(&mut it);
        let mut effect = None;
        let mut all = false;
        let mut dur = None;
        for p in it {
            match p.as_rule() {
                Rule::negate_scope => {
                    effect = p
                        .into_inner()
                        .next()
                        .map(|w| w.as_rule() == Rule::kw_effect)
                }
                Rule::negate_all => all = true,
                _ => dur = Some(self.duration(p)),
            }
        }
        StmtKind::Negate(what, effect, all, dur)
    }

    /// `window (chain) players (once) (unchecked) { entry (with attribute), … }`.
    fn window_stmt(&mut self, mut it: Parts) -> StmtKind {
        let chain = it.next_if(|p| p.as_rule() == Rule::window_chain).is_some();
        let players = self.next_expr(&mut it);
        let (flags, entries): (Vec<P>, Vec<P>) = it.partition(|p| p.as_rule() == Rule::flag_word);
        let flags = self.flag_words(flags, FlagPlace::Window);
        let once = flags.contains(&"once");
        let unchecked = flags.contains(&"unchecked");
        let entries = entries
            .into_iter()
            .map(|e| {
                let mut ei = children(e);
                let name = self.ident(ei.next().expect("grammar"));
                let with = ei.next().map(|w| self.ident(w));
                WindowEntry { name, with }
            })
            .collect();
        StmtKind::Window(Window {
            players,
            chain,
            once,
            unchecked,
            entries,
        })
    }

    /// `may(p) may …`: one entry per `may` word, `None` for the resolving player.
    fn may_stmt(&mut self, pair: P, span: Span) -> StmtKind {
        let mut who: Vec<Option<Expr>> = Vec::new();
        let mut body = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::kw_may => who.push(None),
                Rule::who => {
                    let e = self.inner_expr(p);
                    if let Some(last) = who.last_mut() {
                        *last = Some(e);
                    }
                }
                Rule::block => body = Some(self.block(p)),
                _ => {
                    let s = self.stmt(p);
                    body = Some(Block {
                        span: s.span,
                        stmts: vec![s],
                    });
                }
            }
        }
        StmtKind::May(
            who,
            body.unwrap_or(Block {
                stmts: vec![],
                span,
            }),
        )
    }

    /// A statement led by a name or value: `verb(args) duration`, or a subject and its tail
    /// (`becomes`, a stat change, or a call).
    fn subject_stmt(&mut self, mut it: Parts) -> StmtKind {
        if it.peek().is_some_and(|p| p.as_rule() == Rule::paren_call) {
            let mut call = children(it.next().expect("grammar"));
            let name = self.ident(call.next().expect("grammar"));
            let args = self.call_args(call.next());
            return StmtKind::Call(name, args, self.opt_duration(it.next()));
        }
        let subject = self.postfix(it.next().expect("grammar"));
        let tail = it.next().expect("grammar: statement tail");
        let tail_rule = tail.as_rule();
        let input = tail.get_input();
        let mut t = children(tail);
        match tail_rule {
            Rule::becomes_tail => {
                let name = self.ident(t.next().expect("grammar"));
                StmtKind::Becomes(subject, name, self.opt_duration(t.next()))
            }
            Rule::modify_tail => self.modify_tail(subject, t),
            _ => self.call_tail(subject, t, input),
        }
    }

    /// `x.member op value (duration) (in layer l)`.
    fn modify_tail<'i>(&mut self, subject: Expr, mut t: impl Iterator<Item = P<'i>>) -> StmtKind {
        let member = self.ident(t.next().expect("grammar"));
        let op_pair = t.next().expect("grammar");
        let op = (op_pair.as_str().to_string(), self.span(&op_pair));
        let value = self.expr(t.next().expect("grammar"));
        let mut duration = None;
        let mut layer = None;
        for p in t {
            match p.as_rule() {
                Rule::duration => duration = Some(self.duration(p)),
                _ => layer = Some(self.ident(children(p).next().expect("grammar"))),
            }
        }
        StmtKind::Modify(Modify {
            subject,
            member,
            op,
            value,
            duration,
            layer,
        })
    }

    /// A call: `verb`, `verb arg`, `verb(args)`, each with an optional duration. Any other
    /// subject is a value alone: an error.
    fn call_tail<'i>(
        &mut self,
        subject: Expr,
        t: impl Iterator<Item = P<'i>>,
        input: &str,
    ) -> StmtKind {
        let mut bare = None;
        let mut dur = None;
        for p in t {
            match p.as_rule() {
                Rule::bare_args => bare = Some(self.inner_expr(p)),
                _ => dur = Some(self.duration(p)),
            }
        }
        match (subject.kind, bare) {
            (ExprKind::Name(name), bare) => StmtKind::Call(
                name,
                bare.map(|value| Arg { name: None, value })
                    .into_iter()
                    .collect(),
                dur,
            ),
            (ExprKind::Call(name, args), None) => StmtKind::Call(name, args, dur),
            (_, _) => {
                let follows_slip = self.slip_reported.is_some_and(|end| {
                    let between = input.get(
                        end.saturating_sub(self.offset)
                            ..subject.span.start.saturating_sub(self.offset),
                    );
                    between.is_some_and(|t| !t.contains('\n'))
                });
                if follows_slip {
                    self.failed = true;
                } else {
                    let d = self.value_alone(subject.span, input);
                    self.error(d);
                }
                StmtKind::DrawGame
            }
        }
    }

    /// The error for a value alone at `at` (`input`: the item's text). On the line of a call
    /// without parentheses, it is most often a slip in that call: a misspelt word of the
    /// language (`mayy draw 1` reads as the verb `mayy` given `draw`, then `1` alone), or a
    /// second argument without parentheses (`draw 1 2`).
    fn value_alone(&self, at: Span, input: &str) -> Diagnostic {
        let text = |s: Span| {
            input
                .get(s.start.saturating_sub(self.offset)..s.end.saturating_sub(self.offset))
                .unwrap_or("")
        };
        let same_line = |a: usize, b: usize| a <= b && !text(Span::new(a, b)).contains('\n');
        let slip = self
            .prev_stmt
            .filter(|p| same_line(p.end, at.start))
            .and_then(|p| p.bare_call);
        if let Some((verb_at, arg_at, arg_is_name)) = slip {
            let (verb, arg) = (text(verb_at), text(arg_at));
            let statement_words = crate::compiler::lex::STATEMENT_WORDS.iter().copied();
            let word = crate::base::diagnostic::closest(verb, statement_words)
                .filter(|w| arg_is_name && crate::base::diagnostic::edit_distance(w, verb) <= 1);
            if let Some(word) = word {
                return Diagnostic::error(
                    codes::PARSE_SYNTAX,
                    self.file,
                    verb_at,
                    format!("unknown word `{verb}`"),
                    "not a word of the language",
                )
                .with_help(format!(
                    "did you mean `{word}`? (as written, `{verb} {arg}` reads as a verb `{verb}` given `{arg}`)"
                ));
            }
            return Diagnostic::error(
                codes::PARSE_SYNTAX,
                self.file,
                at,
                format!("a second argument of `{verb}` without parentheses"),
                "a value alone does nothing",
            )
            .with_help(format!(
                "a verb without parentheses takes one argument: write `{verb}({arg}, {})`",
                text(at)
            ));
        }
        Diagnostic::error(
            codes::PARSE_SYNTAX,
            self.file,
            at,
            "expected a statement, found a value",
            "a value alone does nothing",
        )
        .with_help(
            "a statement starts with a verb (`draw 1`), or changes something \
             (`x.might += 1`, `x becomes tapped`)",
        )
    }

    /// The next part of a statement, built as an expression.
    fn next_expr(&mut self, it: &mut Parts) -> Expr {
        self.expr(it.next().expect("grammar"))
    }

    /// The next part of a statement, built as a block.
    fn next_block(&mut self, it: &mut Parts) -> Block {
        self.block(it.next().expect("grammar"))
    }

    /// `flip x (face up|face down)`.
    fn flip_stmt(&mut self, mut it: Parts) -> StmtKind {
        let what = self.next_expr(&mut it);
        let face = it
            .next()
            .and_then(|f| f.into_inner().next())
            .map(|w| w.as_rule() == Rule::kw_face_up);
        StmtKind::Flip(what, face)
    }

    /// `keyword args` after `grant` or `remove`.
    fn keyword_arg(&mut self, pair: P) -> KeywordRef {
        let span = self.span(&pair);
        let mut it = children(pair);
        let name = self.ident(it.next().expect("grammar: keyword"));
        let args = it.map(|e| self.expr(e)).collect();
        KeywordRef { name, args, span }
    }

    /// `until moment`, `until moment of player` or `while condition`.
    fn duration(&mut self, pair: P) -> Duration {
        let mut it = children(pair);
        let inner = it.next().expect("grammar: duration");
        match inner.as_rule() {
            Rule::ident => {
                let moment = self.ident(inner);
                match it.next() {
                    Some(of) => Duration::UntilOf(moment, self.moment_of(of)),
                    None => Duration::Until(moment),
                }
            }
            _ => Duration::While(self.expr(inner)),
        }
    }

    /// `of player` after a moment: the player's expression.
    fn moment_of(&mut self, pair: P) -> Expr {
        let e = children(pair).next().expect("grammar: moment_of");
        self.expr(e)
    }

    /// A duration that may be absent.
    fn opt_duration(&mut self, p: Option<P>) -> Option<Duration> {
        p.map(|d| self.duration(d))
    }
}
