//! Every statement and expression a ruleset or a card holds, at every depth, for the indexes
//! an engine builds once from a whole program and that must miss none of them (the events
//! something can see happen; the filter conditions read card by card).
//!
//! The roots are listed here, once; below them the walk goes through [`Stmt::each_child`] and
//! [`Expr::each_child`], which list every form exhaustively, so a new statement or expression
//! form is walked as soon as it says what it holds.

use super::{Ability, Card, Expr, Param, Procedure, Ruleset, Stmt, StmtChild};

/// A statement or an expression met by a walk.
#[derive(Debug, Clone, Copy)]
pub enum Node<'a> {
    /// A statement (its parts follow it in the walk).
    Stmt(&'a Stmt),
    /// An expression (its sub-expressions follow it in the walk).
    Expr(&'a Expr),
}

impl Ruleset {
    /// Calls `f` with every statement and expression of the ruleset, each before its parts,
    /// in this order: `setup`, `turn`, each action (candidates, `if`, body), each rule, each
    /// verb and procedure (parameter defaults, body), the parameter defaults of keywords and
    /// events.
    pub fn each_node<'a>(&'a self, f: &mut impl FnMut(Node<'a>)) {
        block(&self.setup, f);
        block(&self.turn, f);
        for a in &self.actions {
            for e in a.candidates.iter().chain(&a.condition) {
                expr(e, f);
            }
            block(&a.body, f);
        }
        for r in &self.rules {
            block(&r.body, f);
        }
        for p in self.verbs.iter().chain(&self.procedures) {
            p.each_node(f);
        }
        let keywords = self.keywords.iter().flat_map(|k| &k.params);
        let events = self.events.iter().flat_map(|e| &e.params);
        defaults(keywords.chain(events), f);
    }
}

impl Card {
    /// Calls `f` with every statement and expression of the card, each before its parts:
    /// its keywords' values, then each ability's trigger pattern, `if`, `while`, cost and
    /// effect.
    pub fn each_node<'a>(&'a self, f: &mut impl FnMut(Node<'a>)) {
        for k in &self.keywords {
            for e in &k.args {
                expr(e, f);
            }
        }
        for a in &self.abilities {
            ability(a, f);
        }
    }
}

/// An ability's parts, in the order [`Card::each_node`] gives.
fn ability<'a>(a: &'a Ability, f: &mut impl FnMut(Node<'a>)) {
    let when = a.trigger.iter().flat_map(|t| t.when.values());
    for e in when.chain(&a.condition).chain(&a.while_condition) {
        expr(e, f);
    }
    block(&a.cost, f);
    block(&a.effect, f);
}

impl Procedure {
    /// Calls `f` with every statement and expression of a verb or procedure, each before its
    /// parts: its parameters' defaults, then its body.
    pub fn each_node<'a>(&'a self, f: &mut impl FnMut(Node<'a>)) {
        defaults(&self.params, f);
        block(&self.body, f);
    }
}

/// The default values of parameters.
fn defaults<'a>(params: impl IntoIterator<Item = &'a Param>, f: &mut impl FnMut(Node<'a>)) {
    for p in params {
        if let Some(d) = &p.default {
            expr(d, f);
        }
    }
}

/// Each statement of a block, with its parts.
fn block<'a>(stmts: &'a [Stmt], f: &mut impl FnMut(Node<'a>)) {
    for s in stmts {
        f(Node::Stmt(s));
        s.each_child(&mut |child| match child {
            StmtChild::Expr(e) => expr(e, f),
            StmtChild::Block(b) => block(b, f),
        });
    }
}

/// An expression, then its sub-expressions.
fn expr<'a>(e: &'a Expr, f: &mut impl FnMut(Node<'a>)) {
    f(Node::Expr(e));
    e.each_child(&mut |child| expr(child, f));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_walk_reaches_parameter_defaults_and_nested_blocks() {
        let happened = Expr::Happened {
            pattern: Box::new(crate::ir::Trigger {
                event: "g:drawn".into(),
                when: crate::ir::Map::default(),
            }),
            cards: None,
            since: None,
        };
        let verb: Procedure = Procedure {
            name: crate::ir::Labelled::new("g:draw".into(), None),
            params: vec![Param {
                name: "g:n".into(),
                types: vec![crate::ir::Type::Number],
                optional: true,
                default: Some(happened.clone()),
            }],
            body: vec![Stmt::If {
                arms: vec![(
                    Expr::Bool(true),
                    vec![Stmt::Let {
                        var: "x".into(),
                        value: Expr::Not(Box::new(happened.clone())),
                    }],
                )],
                otherwise: Vec::new(),
            }],
        };
        let mut met = 0;
        let mut count = |n: Node<'_>| {
            if matches!(n, Node::Expr(Expr::Happened { .. })) {
                met += 1;
            }
        };
        verb.each_node(&mut count);
        assert_eq!(met, 2);
    }
}
