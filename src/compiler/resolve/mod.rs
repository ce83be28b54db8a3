//! Resolution and checking: AST → IR.
//!
//! Every name is looked up in the game's ruleset (and the mod packs on top of
//! it) and turned into a qualified id; every card is checked against its card
//! type's schema; every expression is typed. Problems become diagnostics, and
//! checking goes on so that all errors of a pack are reported at once.
//!
//! # The passes
//!
//! [`compile`] runs them in order over one pack: *collect* (game headers, every declaration of
//! every file, ordered so that what others refer to comes first), *declare* (every name into
//! [`Symbols`], the ruleset's non-body data into the IR), *bodies* (verbs, procedures, actions,
//! rules, `setup`, `turn`, parameter defaults), *capacities* (what the engine's fixed-size
//! numbers hold, see [`ir::MAX_STATE_VALUES`] and its neighbours), *cards* (each card against
//! its card type, each ability against its kind), then the pack is assembled. The span table
//! is filled as the bodies and cards passes go.
//!
//! # Naming conventions
//!
//! - [`Symbols`] is the table of every name a game declares (the pack's own and its required
//!   packs'), with what the checker needs to know of each (`ZoneSym`, `StatSym`, `Callable`…);
//!   the declare pass builds it, every later pass only reads it.
//! - `Declarer` (in `symbols`) reads one declaration at a time into [`Symbols`] and the IR
//!   ruleset's skeleton; `Passes` (here) holds what the passes after it read and build.
//! - `Ctx` (in `scope`) is the context a body or a card is checked in: the symbols, the file,
//!   the diagnostics, and the scopes of local bindings (`Ctx::scopes`, innermost last: one list
//!   of `Local`s per block, opened by `push` and closed by `pop`). `Ty` is the checker's type
//!   of an expression: an IR [`ir::Type`] and whether it may be absent, a list of texts, or
//!   unknown after an error (so that one mistake is reported once).
//! - What a function's name says:
//!   - `declare_*` reads one declaration kind in the declare pass (`declare_names` is the
//!     pass): it claims the declared name, if any (a duplicate is a diagnostic), and enters it
//!     in [`Symbols`] (`enter`) and its data in the ruleset;
//!   - `lower_*` turns a checked body, card or clause into IR and stores it where it belongs
//!     (the ruleset, the ability being built) or returns it;
//!   - a noun (`card`, `ability`, `card_number`, `trigger_clause`, `field_schema`, the `Ctx`
//!     methods `expr`, `stmt`, `block`…) returns what it names, checked (IR, an id, a schema),
//!     or `None` after reporting why it cannot; `*_id` looks a name up and returns its
//!     qualified id;
//!   - `check_*` only reports: it returns nothing and changes nothing but the diagnostics;
//!   - `report_*` pushes one diagnostic: the shared tail of several checks (`Ctx::error` and
//!     `Ctx::unknown` are the checker's own two);
//!   - `record_*` writes the span table; `claim` records where a name was declared.
//! - Ids are qualified by the pack (`pack:name`); the IR never holds an index (the engine
//!   numbers what it needs, within the `ir::MAX_*` capacities).

mod capacity;
mod card;
mod expr;
mod mod_pack;
mod phrases;
mod scope;
mod stmt;
pub mod symbols;

use crate::base::diagnostic::{codes, did_you_mean, Diagnostic, Label};
use crate::base::source::{FileId, SourceMap, Span};
use crate::compiler::ast::{self, Decl, Item};
use crate::compiler::parse::{self, ParsedItem, Unparsed};
use crate::ir::{self, SpanTable};
use scope::{Ctx, Ty};
use std::collections::{BTreeMap, HashMap};
pub use symbols::Symbols;

/// One file of a pack: its items parsed but its cards (`parse::parse_file_but_cards`).
pub struct SourceUnit {
    /// The file.
    pub file: FileId,
    /// Its items but its cards, parsed.
    pub items: Vec<ParsedItem>,
    /// Its cards, not parsed yet: the cards pass parses them a chunk at a time.
    pub cards: Vec<Unparsed>,
}

/// How many cards the cards pass parses at once (in parallel) before lowering them: enough
/// for every core to have work, few enough that their syntax trees are a few megabytes.
const CARDS_PER_CHUNK: usize = 256;

/// What a pack's manifest says.
#[derive(Debug, Clone)]
pub struct PackMeta {
    /// The pack's name (qualifier of its ids).
    pub name: String,
    /// Its version.
    pub version: String,
    /// The game its cards are for.
    pub game: String,
    /// Packs it requires.
    pub requires: Vec<String>,
    /// Where the pack is named (its `pack.toml` name, or a lone file's `game` header): for
    /// diagnostics about the pack as a whole.
    pub manifest: Option<(FileId, Span)>,
    /// Where each requirement is written, in `requires` order.
    pub requires_at: Vec<(FileId, Span)>,
    /// The pack's scripts that compiled, sorted by path (`crate::compiler::script::check`).
    pub scripts: Vec<crate::compiler::script::Script>,
}

/// A compiled pack and what packs that require it need.
#[derive(Debug, Clone)]
pub struct Compiled {
    /// The IR.
    pub pack: ir::Pack,
    /// Every name in scope for the pack's cards (inherited by packs requiring it).
    pub symbols: Symbols,
    /// Source positions of IR nodes.
    pub spans: SpanTable,
    /// Exact card names compared against, to check once every pack is loaded.
    pub exact_names: Vec<(FileId, String, Span)>,
}

/// Compiles a pack's parsed files against the packs it requires (`deps`, already compiled):
/// the passes of the module documentation, in order. The files are consumed: the cards pass
/// frees each card's syntax tree once the card is lowered, so a big pack's syntax trees and
/// its IR are not all held at once.
pub fn compile(
    meta: &PackMeta,
    mut units: Vec<SourceUnit>,
    deps: &[&Compiled],
    sources: &SourceMap,
    diags: &mut Vec<Diagnostic>,
) -> Compiled {
    let mut sym = Symbols::default();
    for d in deps {
        sym.merge(&d.symbols);
    }
    sym.add_script_functions(&meta.name, &meta.scripts);
    let mut ruleset = ir::Ruleset {
        id: meta.game.clone(),
        players: 2,
        ..Default::default()
    };
    let mod_pack = deps.iter().any(|d| !d.symbols.game.is_empty());
    if mod_pack {
        mod_pack::drop_refused(meta, &mut units, diags);
    }
    let collected = collect_declarations(meta, &units, sources, &mut ruleset, diags);
    declare_names(meta, &collected.decls, &mut sym, &mut ruleset, diags);
    let no_ruleset = !collected.has_ruleset && deps.iter().all(|d| d.symbols.game.is_empty());
    if no_ruleset {
        // No cards without a ruleset (every name would be unknown), but their syntax errors
        // are still reported, before the missing ruleset is.
        for unit in &units {
            let text = &sources.get(unit.file).text;
            drop(parse::parse_items(text, unit.file, &unit.cards, diags));
        }
        check_ruleset_loaded(meta, &units, deps, diags);
    }
    if collected.has_ruleset {
        sym.game = meta.game.clone();
    }
    let mut passes = Passes {
        meta,
        sym: &sym,
        sources,
        diags,
        ruleset: &mut ruleset,
        spans: BTreeMap::new(),
        exact_names: Vec::new(),
    };
    passes.lower_bodies(&units);
    passes.check_capacities(&collected.decls);
    let keep_ruleset = collected.has_ruleset || collected.declared_any;
    // No cards without a ruleset: every name would be unknown.
    let cards = if no_ruleset {
        Vec::new()
    } else {
        passes.lower_cards(units)
    };
    let Passes {
        spans, exact_names, ..
    } = passes;
    let ruleset = keep_ruleset.then_some(ruleset);
    Compiled {
        pack: ir::Pack {
            ir_version: ir::IR_VERSION,
            name: meta.name.clone(),
            version: meta.version.clone(),
            game: meta.game.clone(),
            requires: meta.requires.clone(),
            ruleset,
            cards: cards.into(),
            scripts: meta
                .scripts
                .iter()
                .map(|s| ir::Script {
                    path: s.path.clone(),
                    source: s.source.clone(),
                })
                .collect(),
        },
        symbols: sym,
        spans: spans.into_iter().collect(),
        exact_names,
    }
}

/// What the collect pass finds in a pack's files.
struct Collected<'u> {
    /// Every declaration with its file, in the order the declare pass reads them.
    decls: Vec<(FileId, &'u Decl)>,
    /// One of the files holds a `game … { … }` ruleset.
    has_ruleset: bool,
    /// Some file declares something (a mod pack's declarations make a ruleset part too).
    declared_any: bool,
}

/// The collect pass: checks each file's game header and the ruleset's game name, takes the
/// ruleset's title, and gathers every declaration. Declarations that others refer to (zones,
/// states, stats, moments, card types) go first, so order in the source matters only where it
/// means something: layers apply in the order they are written.
fn collect_declarations<'u>(
    meta: &PackMeta,
    units: &'u [SourceUnit],
    sources: &SourceMap,
    ruleset: &mut ir::Ruleset,
    diags: &mut Vec<Diagnostic>,
) -> Collected<'u> {
    let mut out = Collected {
        decls: Vec::new(),
        has_ruleset: false,
        declared_any: false,
    };
    for unit in units {
        check_header(meta, unit, sources, diags);
        for it in &unit.items {
            if let Item::Game(g) = &it.item {
                check_ruleset_game(meta, unit.file, g, diags);
                out.has_ruleset = true;
                ruleset.title = g.title.as_ref().map(|t| t.value.clone());
            }
            let decls = item_decls(&it.item);
            out.declared_any |= !decls.is_empty();
            out.decls.extend(decls.iter().map(|d| (unit.file, d)));
        }
    }
    out.decls.sort_by_key(|(_, d)| declaration_rank(d));
    out
}

/// The declarations an item holds: a ruleset's, or the one a mod pack writes on its own.
fn item_decls(item: &Item) -> &[Decl] {
    match item {
        Item::Game(g) => &g.decls,
        Item::Decl(d) => std::slice::from_ref(d),
        Item::GameHeader(_) | Item::Card(_) => &[],
    }
}

/// Checks that a ruleset (`game <id> "…" { … }`) is for the game its pack is for.
fn check_ruleset_game(
    meta: &PackMeta,
    file: FileId,
    g: &ast::GameDef,
    diags: &mut Vec<Diagnostic>,
) {
    if g.name.name != meta.game {
        diags.push(
            Diagnostic::error(
                codes::PACK_GAME_HEADER,
                file,
                g.name.span,
                format!(
                    "this pack is for game `{}`, but this ruleset is `{}`",
                    meta.game, g.name.name
                ),
                "another game",
            )
            .with_help(format!(
                "set `game = \"{}\"` in pack.toml, or rename the ruleset",
                g.name.name
            )),
        );
    }
}

/// The declare pass: every name into `sym`, the ruleset's non-body data into `ruleset`; then
/// the pack's normalization rules, when it declares some, replace the inherited ones.
fn declare_names(
    meta: &PackMeta,
    decls: &[(FileId, &Decl)],
    sym: &mut Symbols,
    ruleset: &mut ir::Ruleset,
    diags: &mut Vec<Diagnostic>,
) {
    for (file, d) in decls {
        symbols::Declarer {
            sym,
            ruleset,
            diags,
            pack: meta.name.clone(),
            file: *file,
        }
        .declare(d);
    }
    if !ruleset.numbers.is_empty() {
        sym.number_rules = ruleset.numbers.clone();
    }
    if !ruleset.names.is_empty() {
        sym.name_rules = ruleset.names.clone();
    }
}

/// Reports a pack with no ruleset of its game loaded, unless a missing requirement or a
/// broken file was reported already (then it says nothing more).
fn check_ruleset_loaded(
    meta: &PackMeta,
    units: &[SourceUnit],
    deps: &[&Compiled],
    diags: &mut Vec<Diagnostic>,
) {
    let requirement_missing = deps.len() < meta.requires.len();
    let broken = diags
        .iter()
        .any(|d| d.is_error() && units.iter().any(|u| u.file == d.primary.file));
    if requirement_missing || broken {
        return;
    }
    let (file, span) = meta.manifest.unwrap_or((
        units.first().map(|u| u.file).unwrap_or_default(),
        Span::default(),
    ));
    diags.push(
        Diagnostic::error(
            codes::PACK_MISSING_REQUIREMENT,
            file,
            span,
            format!("no ruleset for game `{}` is loaded", meta.game),
            "this pack needs its game's ruleset",
        )
        .with_help(format!(
            "add `requires = [\"{}\"]` to pack.toml, or put a `game {} {{ … }}` ruleset in the pack",
            meta.game, meta.game
        )),
    );
}

/// The passes after the declare pass: what they read (the pack, its symbols, the sources)
/// and what they build (the ruleset's bodies, the cards, the span table).
struct Passes<'a> {
    /// The pack's manifest.
    meta: &'a PackMeta,
    /// Every name in scope, complete.
    sym: &'a Symbols,
    /// The pack's files (for the span table's paths).
    sources: &'a SourceMap,
    /// Diagnostics.
    diags: &'a mut Vec<Diagnostic>,
    /// The ruleset, its bodies filled in by [`Passes::lower_bodies`].
    ruleset: &'a mut ir::Ruleset,
    /// Source positions of IR nodes (a `SpanTable`'s entries once every pass is done: built
    /// here, where they arrive out of order).
    spans: BTreeMap<String, (ir::Id, usize, usize)>,
    /// Exact card names compared against, with their files.
    exact_names: Vec<(FileId, String, Span)>,
}

impl Passes<'_> {
    /// The bodies pass: every declaration with a body or typed parameters, in source order.
    fn lower_bodies(&mut self, units: &[SourceUnit]) {
        for unit in units {
            for it in &unit.items {
                for d in item_decls(&it.item) {
                    self.lower_body(unit.file, d);
                }
            }
        }
    }

    /// Lowers one declaration's body into the ruleset (declarations without one have nothing
    /// left to do).
    fn lower_body(&mut self, file: FileId, d: &Decl) {
        phrases::check(file, d, self.diags);
        match d {
            Decl::Verb(v) => self.lower_procedure(file, v, true),
            Decl::Procedure(p) => self.lower_procedure(file, p, false),
            Decl::Keyword(k) => self.lower_keyword(file, k),
            Decl::Event(e) => self.lower_event(file, e),
            Decl::Setup(word, body) => self.lower_setup(file, *word, body),
            Decl::Turn(word, body) => self.lower_turn(file, *word, body),
            Decl::Action(a) => self.lower_action(file, a),
            Decl::Rule(r) => self.lower_rule(file, r),
            _ => {}
        }
    }

    /// The capacities pass: the ruleset against what the engine's fixed-size numbers hold
    /// (`decls`: the collected declarations, where the phases are written).
    fn check_capacities(&mut self, decls: &[(FileId, &Decl)]) {
        capacity::check_ruleset(self.ruleset, decls, self.sym, &self.meta.name, self.diags);
    }

    /// Keeps the exact card names a context met in `file`, to check once all packs are loaded.
    fn keep_exact_names(&mut self, file: FileId, names: Vec<(String, Span)>) {
        self.exact_names
            .extend(names.into_iter().map(|(n, s)| (file, n, s)));
    }

    /// Records where the IR node at `key` was written.
    fn record_span(&mut self, file: FileId, key: String, span: Span) {
        record_span(&mut self.spans, self.sources, file, key, span);
    }

    /// A keyword: its parameters (defaults typed) and core meaning.
    fn lower_keyword(&mut self, file: FileId, k: &ast::KeywordDecl) {
        let mut ctx = Ctx::new(self.sym, file, self.diags);
        let params = params_ir(&mut ctx, &k.params);
        let semantics = k.semantics.as_ref().and_then(|s| match s.name.as_str() {
            "untargetable" => Some(ir::KeywordSemantics::Untargetable),
            "player" => Some(ir::KeywordSemantics::Player),
            _ => None,
        });
        self.ruleset.keywords.push(ir::Keyword {
            name: labelled(&self.meta.name, &k.named),
            params,
            semantics,
        });
    }

    /// An event: its payload (defaults typed) and core meaning.
    fn lower_event(&mut self, file: FileId, e: &ast::EventDecl) {
        let mut ctx = Ctx::new(self.sym, file, self.diags);
        let params = params_ir(&mut ctx, &e.params);
        self.ruleset.events.push(ir::Event {
            name: labelled(&self.meta.name, &e.named),
            params,
            core: e.core.as_ref().and_then(|c| symbols::core_event(&c.name)),
        });
    }

    /// `setup { … }`, written at `word`.
    fn lower_setup(&mut self, file: FileId, word: Span, body: &ast::Block) {
        let mut ctx = Ctx::new(self.sym, file, self.diags);
        ctx.in_setup = true;
        let stmts = ctx.block(body);
        let names = std::mem::take(&mut ctx.exact_names);
        self.keep_exact_names(file, names);
        self.ruleset.setup.extend(stmts);
        self.record_span(file, "ruleset/setup".into(), word);
    }

    /// `turn { … }`, written at `word`: its statements, and the game's phases it names.
    fn lower_turn(&mut self, file: FileId, word: Span, body: &ast::Block) {
        let mut ctx = Ctx::new(self.sym, file, self.diags);
        let (stmts, phases) = ctx.turn(body, &self.meta.name);
        self.ruleset.phases.extend(phases);
        let names = std::mem::take(&mut ctx.exact_names);
        self.keep_exact_names(file, names);
        self.ruleset.turn.extend(stmts);
        self.record_span(file, "ruleset/turn".into(), word);
    }

    /// An action: its candidates (`for c in …`), condition and body.
    fn lower_action(&mut self, file: FileId, a: &ast::ActionDecl) {
        self.check_action_name(file, a);
        let mut ctx = Ctx::new(self.sym, file, self.diags);
        ctx.push();
        let candidates = a.each.as_ref().map(|(_, cards)| ctx.cards(cards));
        if let Some((var, _)) = &a.each {
            ctx.bind(&var.name, Ty::of(ir::Type::Card), var.span, false);
        }
        let condition = a.condition.as_ref().map(|c| ctx.cond(c));
        let body = ctx.block(&a.body);
        ctx.pop();
        let names = std::mem::take(&mut ctx.exact_names);
        self.keep_exact_names(file, names);
        let action = ir::Action {
            name: labelled(&self.meta.name, &a.named),
            var: a.each.as_ref().map(|(v, _)| ir::Id::from(&v.name)),
            candidates,
            condition,
            body,
        };
        let key = format!("ruleset/actions/{}", action.name.id);
        self.record_span(file, key, a.named.name.span);
        self.ruleset.actions.push(action);
    }

    /// Checks that an action is not named like an ability kind: windows name both by name.
    fn check_action_name(&mut self, file: FileId, a: &ast::ActionDecl) {
        let name = &a.named.name.name;
        if !self.sym.kinds.contains_key(name) {
            return;
        }
        let Some(prev) = self
            .sym
            .origins
            .get(&("ability kind".to_string(), name.clone()))
        else {
            return;
        };
        self.diags.push(
            Diagnostic::error(
                codes::RESOLVE_DUPLICATE_DECLARATION,
                file,
                a.named.name.span,
                format!("`{name}` names both an action and an ability kind"),
                "the action",
            )
            .with_related(Label::new(prev.file, prev.span, "the ability kind"))
            .with_help("windows name both by their names: rename the action"),
        );
    }

    /// A rule action: its body, and whether it is an interrupt rule.
    fn lower_rule(&mut self, file: FileId, r: &ast::RuleDecl) {
        let mut ctx = Ctx::new(self.sym, file, self.diags);
        let body = ctx.block(&r.body);
        let names = std::mem::take(&mut ctx.exact_names);
        self.keep_exact_names(file, names);
        let rule = ir::Rule {
            name: labelled(&self.meta.name, &r.named),
            interrupt: r.interrupt,
            body,
        };
        let key = format!("ruleset/rules/{}", rule.name.id);
        self.record_span(file, key, r.named.name.span);
        self.ruleset.rules.push(rule);
    }

    /// A verb (`this` is the card it runs for) or a procedure: parameters bound, body lowered.
    fn lower_procedure(&mut self, file: FileId, p: &ast::ProcDecl, is_verb: bool) {
        let mut ctx = Ctx::new(self.sym, file, self.diags);
        ctx.has_this = is_verb;
        let params = params_ir(&mut ctx, &p.params);
        for param in &p.params {
            let ty = match (
                param.types.len(),
                param
                    .types
                    .first()
                    .and_then(|t| symbols::value_type(&t.name)),
            ) {
                (1, Some(t)) => Ty::Of(t, param.optional),
                _ => Ty::Unknown,
            };
            ctx.bind(&param.name.name, ty, param.name.span, false);
        }
        let body = ctx.block(&p.body);
        let names = std::mem::take(&mut ctx.exact_names);
        self.keep_exact_names(file, names);
        let procedure = ir::Procedure {
            name: labelled(&self.meta.name, &p.named),
            params,
            body,
        };
        let kind = if is_verb { "verbs" } else { "procedures" };
        let key = format!("ruleset/{kind}/{}", procedure.name.id);
        self.record_span(file, key, p.named.name.span);
        if is_verb {
            self.ruleset.verbs.push(procedure);
        } else {
            self.ruleset.procedures.push(procedure);
        }
    }

    /// The cards pass: every card of the pack, parsed, checked, numbered by the pack, in
    /// source order. Cards are parsed [`CARDS_PER_CHUNK`] at a time, and each card's syntax
    /// tree is freed as soon as its IR is built: a big pack's trees are never all held at once.
    fn lower_cards(&mut self, units: Vec<SourceUnit>) -> Vec<ir::Card> {
        let mut cards = Vec::new();
        let mut numbers: HashMap<String, (FileId, Span)> = HashMap::new();
        for unit in units {
            let text = &self.sources.get(unit.file).text;
            for chunk in unit.cards.chunks(CARDS_PER_CHUNK) {
                let parsed = parse::parse_items(text, unit.file, chunk, self.diags);
                for it in parsed {
                    let Item::Card(c) = it.item else { continue };
                    if let Some(card) = self.lower_card(unit.file, &c, &mut numbers) {
                        cards.push(card);
                    }
                }
            }
        }
        cards
    }

    /// One card: checked against its type, its number unique in the pack (`numbers`: the
    /// normalized numbers seen so far), its id qualified, its spans recorded.
    fn lower_card(
        &mut self,
        file: FileId,
        c: &ast::CardDef,
        numbers: &mut HashMap<String, (FileId, Span)>,
    ) -> Option<ir::Card> {
        capacity::check_abilities(c, file, self.diags);
        let mut ctx = Ctx::new(self.sym, file, self.diags);
        let checked = ctx.card(c, &self.sym.number_rules);
        let names = std::mem::take(&mut ctx.exact_names);
        self.keep_exact_names(file, names);
        let mut card = checked?.card;
        let number_span = c
            .fields
            .iter()
            .find(|f| f.name.name == "number")
            .map(|f| f.span)
            .unwrap_or(c.name.span);
        if let Some(first) = numbers.get(&card.normalized_number) {
            self.report_duplicate_number(file, number_span, &card, *first);
            return None;
        }
        numbers.insert(card.normalized_number.clone(), (file, number_span));
        card.id = format!("{}:{}", self.meta.name, card.number).into();
        self.record_card_spans(file, c, &card.id);
        Some(card)
    }

    /// Reports a card number used twice in the pack (`first`: where it was first used).
    fn report_duplicate_number(
        &mut self,
        file: FileId,
        span: Span,
        card: &ir::Card,
        first: (FileId, Span),
    ) {
        let pack = &self.meta.name;
        let message = if card.number == card.normalized_number {
            format!(
                "card number `{}` is used twice in pack `{pack}`",
                card.number
            )
        } else {
            format!(
                "card number `{}` (normalized `{}`) is used twice in pack `{pack}`",
                card.number, card.normalized_number
            )
        };
        self.diags.push(
            Diagnostic::error(codes::PACK_DUPLICATE_NUMBER, file, span, message, "second use")
                .with_related(Label::new(first.0, first.1, "first used here"))
                .with_help(
                    "every card of a pack needs its own number (promo suffixes count as the base number)",
                ),
        );
    }

    /// Records where a card and each of its abilities were written.
    fn record_card_spans(&mut self, file: FileId, c: &ast::CardDef, id: &str) {
        self.record_span(file, format!("cards/{id}"), c.span);
        for (i, a) in c.abilities.iter().enumerate() {
            self.record_span(file, format!("cards/{id}/abilities/{i}"), a.span);
        }
    }
}

/// Warns about exact card names (`name == "…"`) that no loaded pack has.
pub fn check_exact_names(packs: &[&Compiled], diags: &mut Vec<Diagnostic>) {
    for p in packs {
        let rules = &p.symbols.name_rules;
        let known: Vec<String> = packs
            .iter()
            .filter(|q| q.pack.game == p.pack.game)
            .flat_map(|q| {
                q.pack
                    .cards
                    .iter()
                    .map(|c| crate::ir::normalize::apply(rules, &c.name))
            })
            .collect();
        for (file, name, span) in &p.exact_names {
            let n = crate::ir::normalize::apply(rules, name);
            if !known.contains(&n) {
                let help = did_you_mean(&n, known.iter().map(String::as_str)).or_else(|| {
                    Some("to match names containing this text, use `name contains \"…\"`".into())
                });
                diags.push(
                    Diagnostic::warning(
                        codes::CHECK_UNKNOWN_CARD_NAME,
                        *file,
                        *span,
                        format!("no loaded card is named exactly `{name}`"),
                        "no such card",
                    )
                    .with_help_opt(help),
                );
            }
        }
    }
}

/// Checks that a file opens with the game it is written for, and that it is its pack's game.
fn check_header(
    meta: &PackMeta,
    unit: &SourceUnit,
    sources: &SourceMap,
    diags: &mut Vec<Diagnostic>,
) {
    // The first item written: a parsed one, or a card (cards are parsed later).
    let card = unit.cards.first().map(Unparsed::span);
    let first = match (unit.items.first(), card) {
        (Some(i), Some(c)) if c.start < i.span.start => Err(c),
        (Some(i), _) => Ok(i),
        (None, c) => Err(c.unwrap_or_default()),
    };
    let first_span = match first {
        Ok(i) => i.span,
        Err(c) => c,
    };
    match first.map(|i| &i.item) {
        Ok(Item::GameHeader(g)) if g.name != meta.game => diags.push(
            Diagnostic::error(
                codes::PACK_GAME_HEADER,
                unit.file,
                g.span,
                format!(
                    "this file is written for game `{}`, but its pack is for `{}`",
                    g.name, meta.game
                ),
                "another game",
            )
            .with_help(format!("write `game {}`", meta.game)),
        ),
        Ok(Item::GameHeader(_)) | Ok(Item::Game(_)) => {}
        first => {
            // Complain when the file holds an item (a card counts before it is parsed: the
            // header is missing whether it parses or not) or nothing at all; a file whose
            // other items all failed to parse has had its say in their syntax errors.
            let text = &sources.get(unit.file).text;
            let any = first.is_ok() || card.is_some();
            if any || text.trim().is_empty() {
                // Label the first word of the first item: that is where `game …` belongs.
                let span = if any {
                    let word = text[first_span.start..]
                        .split(|c: char| c.is_whitespace() || c == '"' || c == '{')
                        .next()
                        .unwrap_or("");
                    Span::new(first_span.start, first_span.start + word.len())
                } else {
                    Span::default()
                };
                diags.push(
                    Diagnostic::error(
                        codes::PACK_GAME_HEADER,
                        unit.file,
                        span,
                        "a fuda file starts with the game it is written for",
                        "no `game` line before this",
                    )
                    .with_help(format!("start the file with `game {}`", meta.game)),
                );
            }
        }
    }
}

/// The order declarations are read in: what others refer to comes first (a stable sort keeps
/// source order within a rank, so layers keep theirs).
fn declaration_rank(d: &Decl) -> u8 {
    match d {
        Decl::Players(..) | Decl::Zone(_) => 0,
        Decl::State(_) => 1,
        Decl::Stat(s) if s.components.is_empty() => 2,
        Decl::Stat(_) => 3,
        Decl::Moment(_) => 4,
        Decl::CardType(_) => 5,
        _ => 6,
    }
}

/// The id (qualified by `pack`) and label of a declared name.
fn labelled(pack: &str, named: &ast::Named) -> ir::Labelled {
    ir::Labelled {
        id: format!("{pack}:{}", named.name.name).into(),
        label: named.label.as_ref().map(|l| l.value.clone()),
        phrases: phrases::phrases_ir(named),
    }
}

/// The IR of declared parameters, defaults typed in `ctx`.
fn params_ir(ctx: &mut Ctx, params: &[ast::Param]) -> Vec<ir::Param> {
    params
        .iter()
        .map(|p| ir::Param {
            name: ir::Id::from(&p.name.name),
            types: p
                .types
                .iter()
                .filter_map(|t| symbols::value_type(&t.name))
                .collect(),
            optional: p.optional,
            default: p.default.as_ref().map(|d| ctx.expr(d).0),
        })
        .collect()
}

/// Records in `spans` where the IR node at `key` was written.
fn record_span(
    spans: &mut BTreeMap<String, (ir::Id, usize, usize)>,
    sources: &SourceMap,
    file: FileId,
    key: String,
    span: Span,
) {
    let path = ir::Id::new(&sources.get(file).path);
    spans.insert(key, (path, span.start, span.end));
}
