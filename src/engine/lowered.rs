//! Filter conditions lowered once, when the program is built: the first piece of an
//! engine-private form of the IR.
//!
//! `cards where condition` evaluates its condition once per card, and the check rules filter
//! the cards in play many times a turn. Evaluated as written, every `it is frozen` finds what `it` is
//! and looks the state up by its id, card after card. [`Conds`] holds, for each filter
//! condition of the program's IR, a [`Cond`]: the same condition with the reads of `it` that
//! need no lookup at run time resolved to indices (its states, plain stats, counters and card
//! type), and everything else marked [`Cond::AsWritten`]. A `Cond` is evaluated beside its
//! expression (`Game::cond_true`): each node reads its expression's own fields, so a part
//! evaluated as written is evaluated exactly as before, and a lowered part gives what the
//! expression gives (same values, same reads recorded for the rule memo, same errors).
//!
//! A ruleset action's `if` is read the same way, once per candidate card each time a window
//! reads the action's offers: it and each conjunct of it are lowered too, with the action's
//! variable (`for c in …`) where a filter has `it` (`c is <state>`, `c.<stat>`, `c is <card
//! type>`).
//!
//! A card's printed fields are read the same way: each field a lowered condition reads is a
//! column of [`Printed`] values, one per card definition, made once with the program (a text
//! as a number standing for it, the same for the same text), so `it.<field> == c.<field>`,
//! `it.<field> >= 1` and `same_card(it, c)` compare numbers instead of looking the field up by
//! its name in each card's definition and comparing texts; `it.<field> contains "text"` reads
//! a column of truths (whether the field's text, or a text of its list, contains the text, both
//! normalized), instead of building the field's value and normalizing it. A card some effect
//! treats as another (`treat as`), or a field that is no number or text, is read as written.
//!
//! A filter whose condition is, or starts with, one such read of `it` (`it is <state>`, `it
//! is <type>`, `… and …` after one) is read card by card in place ([`Leaf`]): no `it` bound,
//! no call, the rest of the condition read only when that first read holds.
//!
//! The table is keyed by the condition's address, as [`Names`](super::names::Names) is by an
//! id's: the program's IR is not changed once it is built, so no other expression alive during
//! a game lies where one of its conditions does; an expression the program does not hold (a
//! scenario's) is not found and is evaluated as written.

use super::names::ByAddress;
use super::program::Program;
use crate::ir::walk::Node;
use crate::ir::{self, normalize, Expr, Op};
use rustc_hash::FxHashMap as HashMap;

/// A filter condition (`it` is the card looked at) or an action's `if` (its candidate
/// variable is), lowered beside its expression. `It…` nodes read that card.
#[derive(Debug, Clone, PartialEq)]
pub enum Cond {
    /// Evaluated as written (`Game::eval_true` of the expression).
    AsWritten,
    /// `it is <state>`, the state's index.
    ItInState(u16),
    /// `it is <state>` for a state the game does not declare: never.
    Never,
    /// `it is <card type>`: the type's index among the ruleset's card types (`None`: a type the
    /// ruleset does not declare, compared as written; the id is read from the expression).
    ItOfType(Option<u16>),
    /// `it is <type> or it is <type> …`: types declared by the ruleset, as bits of their
    /// indices (the first 64); a card some effect treats as another type, or of a type the
    /// ruleset does not declare (or counting as one), is read as written.
    ItOfAnyType(u64),
    /// `it has <keyword>` (the keyword's id read from the expression).
    ItHasKeyword,
    /// `it is face up` / `face down` (the face read from the expression).
    ItFaceIs,
    /// `it == x` or `it != x` for a variable `x` (either side; the operator and the name read
    /// from the expression).
    ItSameAsVar,
    /// `<subject>.<field> == <card>.<field>` or `!=`, the card `it`, `this`, a variable or a
    /// filter's candidate (the operator and the card read from the expression): the two
    /// fields' columns, the subject's first; `subject_left`: the subject's field is the left
    /// side. Two printed texts compare as their numbers; anything else is read as written.
    FieldsEqual {
        /// Whether the subject's field is written on the left.
        subject_left: bool,
        /// The subject's field's column.
        mine: u16,
        /// The other card's field's column.
        other: u16,
    },
    /// `<subject>.<field> == "text"` or `!=` (either side): the field's column and the text's
    /// number (a text no card prints has a number of its own).
    FieldIsText {
        /// The field's column.
        column: u16,
        /// The text's number.
        text: u32,
    },
    /// `<subject>.<field> contains "text"`: the column of whether each definition's printed
    /// field (a text, or a list's texts) contains the text, both normalized by the ruleset's
    /// names, as `Game::contains` compares them.
    FieldContains {
        /// The column of truths.
        column: u16,
    },
    /// `same_card(<subject>, <card>)` (either side; the other card as in
    /// [`Cond::FieldsEqual`]): the column of the cards' normalized numbers.
    SameCardAs {
        /// Whether the subject is written on the left.
        subject_left: bool,
        /// The normalized numbers' column.
        column: u16,
    },
    /// `not x`.
    Not(Box<Cond>),
    /// `x and y` (`y` read only when `x` holds).
    And(Box<Cond>, Box<Cond>),
    /// `x or y` (`y` read only when `x` does not hold).
    Or(Box<Cond>, Box<Cond>),
    /// A comparison of numbers: `<`, `<=`, `>`, `>=`, or `==`/`!=` with a number written on a
    /// side (the operator read from the expression).
    Compare(Num, Num),
}

/// A filter condition that starts with one read of the card's own fields, read for each
/// card in place (`Game::leaf`): the whole condition, or the first conjunct of `x and …`,
/// which decides it when it does not hold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Leaf {
    /// The read.
    pub test: Test,
    /// The condition is the read alone (else its first conjunct).
    pub whole: bool,
}

/// One read of a card's own fields (see [`Leaf`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Test {
    /// `it is <state>`, the state's index.
    InState(u16),
    /// `it is <type> or …`, [`Cond::ItOfAnyType`]'s bits.
    OfAnyType(u64),
    /// `it is <type>` of a type the ruleset declares, its index.
    OfType(u16),
}

/// A number in a lowered condition, beside its expression.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// Evaluated as written (`Game::eval_int` of the expression).
    AsWritten,
    /// `it.<stat>` of a plain stat, the stat's index.
    ItStat(u16),
    /// `it.<counter>`, the counter's index.
    ItCounter(u16),
    /// `it.<field>` of a field printed on the card (no stat, no counter): the field's column.
    ItField(u16),
}

/// A card field as a card definition prints it, in a column of [`Conds`]: what
/// `Game::field` gives for a card no effect treats as another.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Printed {
    /// No such field.
    Absent,
    /// A number.
    Number(i64),
    /// A text, as its number: two texts are the same exactly when their numbers are.
    Text(u32),
    /// Another value (a list, a truth value, a pair): read as written.
    Other,
    /// A truth the printed field gives ([`Column::Contains`]): read for a card no effect
    /// treats as another.
    Holds(bool),
}

/// What a column of printed values holds for each card definition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Column<'p> {
    /// The field of that name (`name` and `number` are the card's own, as `Game::field`
    /// reads them).
    Field(&'p str),
    /// The card's normalized number (`same_card`).
    NormalizedNumber,
    /// Whether the field (a text, or any text of a list) contains the text: what
    /// `Game::contains` gives of the printed field and the text written.
    Contains {
        /// The field's name.
        field: &'p str,
        /// The text looked for, as written.
        needle: &'p str,
    },
}

/// The lowered condition of every filter the program's IR holds, and of every action's `if`
/// and conjunct of it, by the condition's address.
#[derive(Debug, Default)]
pub struct Conds {
    by_address: ByAddress<Cond>,
    /// The keys of `total` and `highest … of` (read with `it` bound to each card) that are a
    /// number of the card lowered ([`Num`]), by the key's address.
    keys: ByAddress<Num>,
    /// Per card definition, its printed card type's index among the ruleset's card types
    /// (`None`: one it does not declare): `it is <type>` of a card no effect treats as another
    /// type compares indices, not texts.
    def_types: Vec<Option<u16>>,
    /// Per card definition, the type its printed type counts as (its index, `None`: one the
    /// ruleset does not declare), where (a zone) and unless (a state), if it counts as one.
    def_counts_as: Vec<Option<CountsAs>>,
    /// The printed values of the columns lowered conditions read, card definition by
    /// definition: `printed[def * columns + column]`.
    printed: Vec<Printed>,
    /// How many columns there are.
    columns: usize,
}

/// A card type counting as another (`Program::counts_as`), by indices: the other type's
/// (`None`: undeclared), the zone where it does (`None`: anywhere), the state in which it does
/// not (`None`: none).
pub type CountsAs = (Option<u16>, Option<u16>, Option<u16>);

impl Conds {
    /// Lowers the conditions of the program's filters (those with nothing to lower are left
    /// out: they are evaluated as written), found by one walk over every statement and
    /// expression of the ruleset (its verbs and procedures where calls run them) and of every
    /// card ([`ir::walk`]), and the `if` of each action with a candidate variable, with each
    /// of its conjuncts. A condition the walk does not reach is evaluated as written.
    pub(super) fn of_program(prog: &Program) -> Conds {
        let mut filters = Filters::default();
        let r = &prog.ruleset;
        r.each_node(&mut |n| filters.node(n));
        // calls run the program's own copies of the verbs and procedures: their conditions
        // are known by where those copies hold them
        for p in prog.callables.values() {
            p.each_node(&mut |n| filters.node(n));
        }
        for card in &prog.cards {
            card.each_node(&mut |n| filters.node(n));
        }
        let types: HashMap<&str, u16> = r
            .card_types
            .iter()
            .enumerate()
            .filter_map(|(i, t)| Some((t.name.id.as_str(), u16::try_from(i).ok()?)))
            .collect();
        let mut lowering = Lowering {
            prog,
            types,
            columns: Vec::new(),
            texts: HashMap::default(),
        };
        let def_types = prog
            .cards
            .iter()
            .map(|c| lowering.type_of(&c.card_type))
            .collect();
        let def_counts_as = prog
            .cards
            .iter()
            .map(|c| {
                let (as_type, zone, unless) = prog.counts_as.get(c.card_type.as_str())?;
                Some((lowering.type_of(as_type), *zone, *unless))
            })
            .collect();
        let mut by_address = HashMap::default();
        for e in filters.conditions {
            let c = lowering.lower(Subject::It, e);
            if c != Cond::AsWritten {
                by_address.insert(address(e), c);
            }
        }
        // an action's `if`, and each conjunct of it, of its candidate (read once per candidate
        // while a window's offers are read)
        for a in &r.actions {
            if let (Some(var), Some(condition)) = (&a.var, &a.condition) {
                let subject = Subject::Var(var);
                let mut conjuncts = vec![condition];
                while let Some(e) = conjuncts.pop() {
                    let c = lowering.lower(subject, e);
                    if c != Cond::AsWritten {
                        by_address.insert(address(e), c);
                    }
                    if let Expr::Binary {
                        op: Op::And,
                        lhs,
                        rhs,
                    } = e
                    {
                        conjuncts.extend([&**lhs, &**rhs]);
                    }
                }
            }
        }
        // the keys read card by card, `it` the card
        let keys = filters
            .keys
            .iter()
            .filter_map(|e| match lowering.num(Subject::It, e) {
                Num::AsWritten => None,
                n => Some(((address(e), 0), n)),
            })
            .collect();
        let printed = lowering.printed();
        // (an address is a whole key here: the second half of a text's is its length)
        let entries = by_address.into_iter().map(|(a, c)| ((a, 0), c)).collect();
        Conds {
            by_address: ByAddress::of(entries),
            keys: ByAddress::of(keys),
            def_types,
            def_counts_as,
            printed,
            columns: lowering.columns.len(),
        }
    }

    /// The type a card definition's printed type counts as, if any ([`CountsAs`]).
    #[inline]
    pub fn def_counts_as(&self, def: u32) -> Option<CountsAs> {
        *self.def_counts_as.get(usize::try_from(def).ok()?)?
    }

    /// The printed card type of a card definition, as its index among the ruleset's card
    /// types (`None`: a type the ruleset does not declare, or a definition it does not know).
    #[inline]
    pub fn def_type(&self, def: u32) -> Option<u16> {
        self.def_types
            .get(usize::try_from(def).ok()?)
            .copied()
            .flatten()
    }

    /// The lowered form of a filter condition (or an action's `if`, or a conjunct of it) the
    /// program holds, if it has one.
    #[inline]
    pub fn get(&self, condition: &Expr) -> Option<&Cond> {
        self.by_address.get((address(condition), 0))
    }

    /// The lowered form of a key read card by card (`total`, `highest … of`) the program
    /// holds, if it has one.
    #[inline]
    pub fn key(&self, key: &Expr) -> Option<Num> {
        self.keys.get((address(key), 0)).copied()
    }

    /// What card definition `def` prints in a column (`None`: no such definition or column).
    #[inline]
    pub fn printed(&self, def: u32, column: u16) -> Option<Printed> {
        let def = usize::try_from(def).ok()?;
        let column = usize::from(column);
        if column >= self.columns {
            return None;
        }
        let at = def.checked_mul(self.columns)?.checked_add(column)?;
        self.printed.get(at).copied()
    }

    /// How many conditions are lowered.
    pub fn len(&self) -> usize {
        self.by_address.len()
    }

    /// Whether no condition is lowered.
    pub fn is_empty(&self) -> bool {
        self.by_address.is_empty()
    }
}

/// Where an expression lies.
fn address(e: &Expr) -> usize {
    std::ptr::from_ref(e).addr()
}

/// The conditions of filters (`cards where condition`) a walk over the IR met, and the keys
/// read card by card (`total(cards, key)`, `highest key of cards`).
#[derive(Default)]
struct Filters<'p> {
    conditions: Vec<&'p Expr>,
    keys: Vec<&'p Expr>,
}

impl<'p> Filters<'p> {
    /// Keeps the condition of each filter met, and the key of each `total`, `highest` or
    /// `lowest` (read card by card).
    fn node(&mut self, node: Node<'p>) {
        match node {
            Node::Expr(Expr::Filter { condition, .. }) => self.conditions.push(condition),
            Node::Expr(Expr::Total { key, .. } | Expr::Extreme { key, .. }) => self.keys.push(key),
            _ => {}
        }
    }
}

/// What lowering the program's conditions needs and gathers: the ruleset's card types by
/// name, and the columns of printed values the conditions read, with a number for each text
/// met (in a column or written in a condition).
struct Lowering<'p> {
    prog: &'p Program,
    types: HashMap<&'p str, u16>,
    columns: Vec<Column<'p>>,
    texts: HashMap<&'p str, u32>,
}

impl<'p> Lowering<'p> {
    /// A card type's index among the ruleset's (`None`: one it does not declare).
    fn type_of(&self, id: &str) -> Option<u16> {
        self.types.get(id).copied()
    }

    /// A condition lowered: its reads of the subject resolved where they can be.
    fn lower(&mut self, subject: Subject<'_>, e: &'p Expr) -> Cond {
        let prog = self.prog;
        let cond = match e {
            Expr::InState { card, state } if subject.is(card) => {
                match prog.state_index.get(state) {
                    Some(&s) => Cond::ItInState(s),
                    None => Cond::Never,
                }
            }
            Expr::OfType { card, card_type } if subject.is(card) => {
                Cond::ItOfType(self.type_of(card_type))
            }
            Expr::HasKeyword { card, .. } if subject.is(card) => Cond::ItHasKeyword,
            Expr::FaceIs { card, .. } if subject.is(card) => Cond::ItFaceIs,
            Expr::SameCard(a, b) => match self.subject_side(subject, a, b) {
                Some(subject_left) => match self.column(Column::NormalizedNumber) {
                    Some(column) => Cond::SameCardAs {
                        subject_left,
                        column,
                    },
                    None => Cond::AsWritten,
                },
                None => Cond::AsWritten,
            },
            Expr::Contains { haystack, needle } => match (&**haystack, &**needle) {
                (Expr::Field { of, field }, Expr::Text(needle)) if subject.is(of) => {
                    let column = Column::Contains {
                        field: field.as_str(),
                        needle: needle.as_str(),
                    };
                    match self.column(column) {
                        Some(column) => Cond::FieldContains { column },
                        None => Cond::AsWritten,
                    }
                }
                _ => Cond::AsWritten,
            },
            Expr::Not(x) => Cond::Not(Box::new(self.lower(subject, x))),
            Expr::Binary { op, lhs, rhs } => match op {
                Op::And => Cond::And(
                    Box::new(self.lower(subject, lhs)),
                    Box::new(self.lower(subject, rhs)),
                ),
                Op::Or => Cond::Or(
                    Box::new(self.lower(subject, lhs)),
                    Box::new(self.lower(subject, rhs)),
                ),
                Op::Lt | Op::Le | Op::Gt | Op::Ge => {
                    Cond::Compare(self.num(subject, lhs), self.num(subject, rhs))
                }
                Op::Eq | Op::Ne
                    if matches!(**lhs, Expr::Int(_)) || matches!(**rhs, Expr::Int(_)) =>
                {
                    Cond::Compare(self.num(subject, lhs), self.num(subject, rhs))
                }
                Op::Eq | Op::Ne
                    if matches!(subject, Subject::It) && it_and_var(lhs, rhs).is_some() =>
                {
                    Cond::ItSameAsVar
                }
                Op::Eq | Op::Ne => self.fields_equal(subject, lhs, rhs),
                _ => Cond::AsWritten,
            },
            _ => Cond::AsWritten,
        };
        // a node all of whose parts are evaluated as written is itself evaluated as written, and
        // an `or` of card types is one test of the type's bit
        if let Cond::Or(a, b) = &cond {
            if let (Some(x), Some(y)) = (type_bits(a), type_bits(b)) {
                return Cond::ItOfAnyType(x | y);
            }
        }
        match &cond {
            Cond::Not(x) if **x == Cond::AsWritten => Cond::AsWritten,
            Cond::And(a, b) | Cond::Or(a, b)
                if **a == Cond::AsWritten && **b == Cond::AsWritten =>
            {
                Cond::AsWritten
            }
            Cond::Compare(Num::AsWritten, Num::AsWritten) => Cond::AsWritten,
            _ => cond,
        }
    }

    /// An equality of texts lowered: the subject's field against another card's field
    /// ([`Cond::FieldsEqual`]) or a text written ([`Cond::FieldIsText`]), either side.
    fn fields_equal(&mut self, subject: Subject<'_>, lhs: &'p Expr, rhs: &'p Expr) -> Cond {
        let field_of = |e: &'p Expr| match e {
            Expr::Field { of, field } => Some((&**of, field.as_str())),
            _ => None,
        };
        let (Some((a, f)), Some((b, g))) = (field_of(lhs), field_of(rhs)) else {
            let (field, text) = match (lhs, rhs) {
                (Expr::Field { of, field }, Expr::Text(t))
                | (Expr::Text(t), Expr::Field { of, field })
                    if subject.is(of) =>
                {
                    (field.as_str(), t.as_str())
                }
                _ => return Cond::AsWritten,
            };
            return match self.column(Column::Field(field)) {
                Some(column) => Cond::FieldIsText {
                    column,
                    text: self.text(text),
                },
                None => Cond::AsWritten,
            };
        };
        let Some(subject_left) = self.subject_side(subject, a, b) else {
            return Cond::AsWritten;
        };
        let (mine, other) = if subject_left { (f, g) } else { (g, f) };
        match (
            self.column(Column::Field(mine)),
            self.column(Column::Field(other)),
        ) {
            (Some(mine), Some(other)) => Cond::FieldsEqual {
                subject_left,
                mine,
                other,
            },
            _ => Cond::AsWritten,
        }
    }

    /// Of two card expressions, whether the subject is the left one (`Some(true)`) or the
    /// right one, when the other is read without a call that could ask or draw (`it`,
    /// `this`, a variable, a filter's candidate).
    fn subject_side(&self, subject: Subject<'_>, a: &Expr, b: &Expr) -> Option<bool> {
        let plain =
            |e: &Expr| matches!(e, Expr::It | Expr::This | Expr::Var(_) | Expr::Candidate(_));
        if subject.is(a) && plain(b) {
            Some(true)
        } else if subject.is(b) && plain(a) {
            Some(false)
        } else {
            None
        }
    }

    /// A column's index, added the first time it is read (`None`: past the first 65,535).
    fn column(&mut self, column: Column<'p>) -> Option<u16> {
        let i = match self.columns.iter().position(|c| *c == column) {
            Some(i) => i,
            None => {
                self.columns.push(column);
                self.columns.len().saturating_sub(1)
            }
        };
        u16::try_from(i).ok().filter(|&i| i < u16::MAX)
    }

    /// The number of a text: the same for the same text.
    fn text(&mut self, t: &'p str) -> u32 {
        let next = u32::try_from(self.texts.len()).unwrap_or(u32::MAX);
        *self.texts.entry(t).or_insert(next)
    }

    /// A number of a condition lowered: a plain stat, a counter or a printed field of the
    /// subject.
    fn num(&mut self, subject: Subject<'_>, e: &'p Expr) -> Num {
        let prog = self.prog;
        match e {
            Expr::Stat { of, stat } if subject.is(of) => match prog.stat_index.get(stat) {
                Some(&s) if prog.stats[s as usize].components.is_empty() => Num::ItStat(s),
                _ => Num::AsWritten,
            },
            Expr::Counter { of, counter } if subject.is(of) => {
                match prog.counter_index.get(counter) {
                    Some(&k) => Num::ItCounter(k),
                    None => Num::AsWritten,
                }
            }
            Expr::Field { of, field } if subject.is(of) => {
                match self.column(Column::Field(field.as_str())) {
                    Some(column) => Num::ItField(column),
                    None => Num::AsWritten,
                }
            }
            _ => Num::AsWritten,
        }
    }

    /// The columns' printed values, card definition by definition.
    fn printed(&mut self) -> Vec<Printed> {
        let prog = self.prog;
        let columns = std::mem::take(&mut self.columns);
        let mut out = Vec::with_capacity(prog.cards.len().saturating_mul(columns.len()));
        for (index, def) in (0u32..).zip(&prog.cards) {
            for column in &columns {
                let value = match *column {
                    Column::NormalizedNumber => Printed::Text(self.text(&def.normalized_number)),
                    // as `Game::field` reads them
                    Column::Field("name") => Printed::Text(self.text(&def.name)),
                    Column::Field("number") => Printed::Text(self.text(&def.number)),
                    Column::Field(field) => match def.fields.get(field) {
                        None => Printed::Absent,
                        Some(ir::Value::Number(n)) => Printed::Number(*n),
                        Some(ir::Value::Text(t)) => Printed::Text(self.text(t)),
                        Some(_) => Printed::Other,
                    },
                    Column::Contains { field, needle } => {
                        Printed::Holds(self.printed_contains((index, def), field, needle))
                    }
                };
                out.push(value);
            }
        }
        self.columns = columns;
        out
    }

    /// Whether a definition's printed field contains a text, as `Game::contains` reads a card
    /// no effect treats as another: its text as the program normalizes it
    /// ([`Program::normalized_field`]), or any text of a list normalized, contains the text
    /// normalized; any other value (or none) does not.
    fn printed_contains(&self, (index, def): (u32, &ir::Card), field: &str, needle: &str) -> bool {
        let names = &self.prog.ruleset.names;
        let needle = normalize::apply(names, needle);
        if let Some(text) = self.prog.normalized_field(index, field) {
            return text.contains(needle.as_str());
        }
        match def.fields.get(field) {
            Some(ir::Value::List(items)) => items.iter().any(|v| {
                matches!(v, ir::Value::Text(t) if normalize::apply(names, t).contains(needle.as_str()))
            }),
            _ => false,
        }
    }
}

/// The card types a lowered condition of one or more types tests, as bits (`None`: not such
/// a condition, or a type past the first 64 or not declared).
fn type_bits(c: &Cond) -> Option<u64> {
    match c {
        Cond::ItOfType(Some(t)) => 1u64.checked_shl(u32::from(*t)),
        Cond::ItOfAnyType(bits) => Some(*bits),
        _ => None,
    }
}

/// The variable's name of `it` compared with a variable (either side).
pub(super) fn it_and_var<'e>(lhs: &'e Expr, rhs: &'e Expr) -> Option<&'e str> {
    match (lhs, rhs) {
        (Expr::It, Expr::Var(name)) | (Expr::Var(name), Expr::It) => Some(name),
        _ => None,
    }
}

/// The card a lowered condition reads: `it` (a filter's condition), or the variable an
/// action binds to each of its candidates (its `if`).
#[derive(Debug, Clone, Copy)]
enum Subject<'a> {
    /// `it`.
    It,
    /// The variable of that name.
    Var(&'a str),
}

impl Subject<'_> {
    /// Whether an expression names the subject.
    fn is(self, e: &Expr) -> bool {
        match (self, e) {
            (Subject::It, Expr::It) => true,
            (Subject::Var(var), Expr::Var(name)) => name == var,
            _ => false,
        }
    }
}
