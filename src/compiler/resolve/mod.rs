//! Resolution and checking: AST → IR.
//!
//! Every name is looked up in the game's ruleset (and the mod packs on top of
//! it) and turned into a qualified id; every card is checked against its card
//! type's schema; every expression is typed. Problems become diagnostics, and
//! checking goes on so that all errors of a pack are reported at once.

mod card;
mod expr;
mod scope;
mod stmt;
pub mod symbols;

use crate::base::diagnostic::{codes, did_you_mean, Diagnostic, Label};
use crate::base::source::{FileId, SourceMap, Span};
use crate::compiler::ast::{Decl, Item};
use crate::compiler::parse::ParsedItem;
use crate::ir::{self, SpanTable};
use scope::{Ctx, Ty};
use std::collections::HashMap;
pub use symbols::Symbols;

/// One parsed file of a pack.
pub struct SourceUnit {
    /// The file.
    pub file: FileId,
    /// Its items.
    pub items: Vec<ParsedItem>,
}

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

/// Compiles a pack's parsed files against the packs it requires (`deps`, already compiled).
pub fn compile(
    meta: &PackMeta,
    units: &[SourceUnit],
    deps: &[&Compiled],
    sources: &SourceMap,
    diags: &mut Vec<Diagnostic>,
) -> Compiled {
    let mut sym = Symbols::default();
    for d in deps {
        sym.merge(&d.symbols);
    }
    let mut ruleset = ir::Ruleset {
        id: meta.game.clone(),
        players: 2,
        ..Default::default()
    };
    let mut has_ruleset = false;
    let mut declared_any = false;

    // Pass 0: game headers; pass 1: declare every name. Declarations that others refer to
    // (zones, states, stats, moments, card types) go first, so order in the source matters only
    // where it means something: layers apply in the order they are written.
    let mut all_decls: Vec<(FileId, &Decl)> = Vec::new();
    for unit in units {
        check_header(meta, unit, sources, diags);
        for it in &unit.items {
            let decls: &[Decl] = match &it.item {
                Item::Game(g) => {
                    if g.name.name != meta.game {
                        diags.push(
                            Diagnostic::error(
                                codes::PACK_GAME_HEADER,
                                unit.file,
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
                    has_ruleset = true;
                    ruleset.title = g.title.as_ref().map(|t| t.value.clone());
                    &g.decls
                }
                Item::Decl(d) => std::slice::from_ref(d),
                _ => continue,
            };
            declared_any |= !decls.is_empty();
            all_decls.extend(decls.iter().map(|d| (unit.file, d)));
        }
    }
    all_decls.sort_by_key(|(_, d)| declaration_rank(d));
    for (file, d) in all_decls {
        symbols::Declarer {
            sym: &mut sym,
            ruleset: &mut ruleset,
            diags,
            pack: meta.name.clone(),
            file,
        }
        .declare(d);
    }
    if !ruleset.numbers.is_empty() {
        sym.number_rules = ruleset.numbers.clone();
    }
    if !ruleset.names.is_empty() {
        sym.name_rules = ruleset.names.clone();
    }
    let no_ruleset = !has_ruleset && deps.iter().all(|d| d.symbols.game.is_empty());
    if no_ruleset {
        // A missing requirement or a broken file was reported already: say nothing more.
        let requirement_missing = deps.len() < meta.requires.len();
        let broken = diags
            .iter()
            .any(|d| d.is_error() && units.iter().any(|u| u.file == d.primary.file));
        if !requirement_missing && !broken {
            let (file, span) = meta.manifest.unwrap_or((
                units.first().map(|u| u.file).unwrap_or_default(),
                Span::default(),
            ));
            diags.push(
                Diagnostic::error(codes::PACK_MISSING_REQUIREMENT, file, span, format!("no ruleset for game `{}` is loaded", meta.game), "this pack needs its game's ruleset")
                    .with_help(format!("add `requires = [\"{}\"]` to pack.toml, or put a `game {} {{ … }}` ruleset in the pack", meta.game, meta.game)),
            );
        }
    }
    if has_ruleset {
        sym.game = meta.game.clone();
    }

    // Pass 2: bodies of verbs and procedures, parameter defaults.
    let mut spans = SpanTable::default();
    let mut exact_names = Vec::new();
    for unit in units {
        for it in &unit.items {
            let decls: &[Decl] = match &it.item {
                Item::Game(g) => &g.decls,
                Item::Decl(d) => std::slice::from_ref(d),
                _ => continue,
            };
            for d in decls {
                let (proc_decl, is_verb) = match d {
                    Decl::Verb(v) => (v, true),
                    Decl::Procedure(p) => (p, false),
                    Decl::Keyword(k) => {
                        let mut ctx = Ctx::new(&sym, unit.file, diags);
                        let params = params_ir(&mut ctx, &k.params);
                        let semantics = k.semantics.as_ref().and_then(|s| {
                            (s.name == "untargetable").then_some(ir::KeywordSemantics::Untargetable)
                        });
                        let kw = ir::Keyword {
                            name: labelled(&meta.name, &k.named),
                            params,
                            semantics,
                        };
                        ruleset.keywords.push(kw);
                        continue;
                    }
                    Decl::Event(e) => {
                        let mut ctx = Ctx::new(&sym, unit.file, diags);
                        let params = params_ir(&mut ctx, &e.params);
                        ruleset.events.push(ir::Event {
                            name: labelled(&meta.name, &e.named),
                            params,
                            core: e.core.as_ref().and_then(|c| symbols::core_event(&c.name)),
                        });
                        continue;
                    }
                    Decl::Setup(word, body) | Decl::Turn(word, body) => {
                        let mut ctx = Ctx::new(&sym, unit.file, diags);
                        let (key, list) = if matches!(d, Decl::Setup(..)) {
                            ("ruleset/setup", ctx.block(body))
                        } else {
                            let (stmts, phases) = ctx.turn(body, &meta.name);
                            ruleset.phases.extend(phases);
                            ("ruleset/turn", stmts)
                        };
                        exact_names
                            .extend(ctx.exact_names.drain(..).map(|(n, s)| (unit.file, n, s)));
                        if key == "ruleset/setup" {
                            ruleset.setup.extend(list);
                        } else {
                            ruleset.turn.extend(list);
                        }
                        record_span(&mut spans, sources, unit.file, key.into(), *word);
                        continue;
                    }
                    Decl::Action(a) => {
                        if let Some(prev) = sym
                            .kinds
                            .contains_key(&a.named.name.name)
                            .then(|| {
                                sym.origins
                                    .get(&("ability kind".to_string(), a.named.name.name.clone()))
                            })
                            .flatten()
                        {
                            diags.push(
                                Diagnostic::error(
                                    codes::RESOLVE_DUPLICATE_DECLARATION,
                                    unit.file,
                                    a.named.name.span,
                                    format!(
                                        "`{}` names both an action and an ability kind",
                                        a.named.name.name
                                    ),
                                    "the action",
                                )
                                .with_related(Label::new(prev.file, prev.span, "the ability kind"))
                                .with_help("windows name both by their names: rename the action"),
                            );
                        }
                        let mut ctx = Ctx::new(&sym, unit.file, diags);
                        ctx.push();
                        let candidates = a.each.as_ref().map(|(_, cards)| ctx.cards(cards));
                        if let Some((var, _)) = &a.each {
                            ctx.bind(&var.name, Ty::of(ir::Type::Card), var.span, false);
                        }
                        let condition = a.condition.as_ref().map(|c| ctx.cond(c));
                        let body = ctx.block(&a.body);
                        ctx.pop();
                        exact_names
                            .extend(ctx.exact_names.drain(..).map(|(n, s)| (unit.file, n, s)));
                        let action = ir::Action {
                            name: labelled(&meta.name, &a.named),
                            var: a.each.as_ref().map(|(v, _)| v.name.clone()),
                            candidates,
                            condition,
                            body,
                        };
                        record_span(
                            &mut spans,
                            sources,
                            unit.file,
                            format!("ruleset/actions/{}", action.name.id),
                            a.named.name.span,
                        );
                        ruleset.actions.push(action);
                        continue;
                    }
                    Decl::Rule(r) => {
                        let mut ctx = Ctx::new(&sym, unit.file, diags);
                        let body = ctx.block(&r.body);
                        exact_names
                            .extend(ctx.exact_names.drain(..).map(|(n, s)| (unit.file, n, s)));
                        let rule = ir::Rule {
                            name: labelled(&meta.name, &r.named),
                            body,
                        };
                        record_span(
                            &mut spans,
                            sources,
                            unit.file,
                            format!("ruleset/rules/{}", rule.name.id),
                            r.named.name.span,
                        );
                        ruleset.rules.push(rule);
                        continue;
                    }
                    _ => continue,
                };
                let mut ctx = Ctx::new(&sym, unit.file, diags);
                ctx.has_this = is_verb;
                let params = params_ir(&mut ctx, &proc_decl.params);
                for p in &proc_decl.params {
                    let ty = match (
                        p.types.len(),
                        p.types.first().and_then(|t| symbols::value_type(&t.name)),
                    ) {
                        (1, Some(t)) => Ty::Of(t, p.optional),
                        _ => Ty::Unknown,
                    };
                    ctx.bind(&p.name.name, ty, p.name.span, false);
                }
                let body = ctx.block(&proc_decl.body);
                exact_names.extend(ctx.exact_names.drain(..).map(|(n, s)| (unit.file, n, s)));
                let procedure = ir::Procedure {
                    name: labelled(&meta.name, &proc_decl.named),
                    params,
                    body,
                };
                let kind = if is_verb { "verbs" } else { "procedures" };
                record_span(
                    &mut spans,
                    sources,
                    unit.file,
                    format!("ruleset/{kind}/{}", procedure.name.id),
                    proc_decl.named.name.span,
                );
                if is_verb {
                    ruleset.verbs.push(procedure);
                } else {
                    ruleset.procedures.push(procedure);
                }
            }
        }
    }

    // Pass 3: cards (not without a ruleset: every name would be unknown).
    let mut cards = Vec::new();
    let mut numbers: HashMap<String, (FileId, Span)> = HashMap::new();
    for unit in units.iter().filter(|_| !no_ruleset) {
        for it in &unit.items {
            let Item::Card(c) = &it.item else { continue };
            let mut ctx = Ctx::new(&sym, unit.file, diags);
            let checked = ctx.card(c, &sym.number_rules);
            exact_names.extend(ctx.exact_names.drain(..).map(|(n, s)| (unit.file, n, s)));
            let Some(mut checked) = checked else { continue };
            let number_span = c
                .fields
                .iter()
                .find(|f| f.name.name == "number")
                .map(|f| f.span)
                .unwrap_or(c.name.span);
            if let Some((pf, ps)) = numbers.get(&checked.card.normalized_number) {
                diags.push(
                    Diagnostic::error(
                        codes::PACK_DUPLICATE_NUMBER,
                        unit.file,
                        number_span,
                        if checked.card.number == checked.card.normalized_number {
                            format!("card number `{}` is used twice in pack `{}`", checked.card.number, meta.name)
                        } else {
                            format!("card number `{}` (normalized `{}`) is used twice in pack `{}`", checked.card.number, checked.card.normalized_number, meta.name)
                        },
                        "second use",
                    )
                    .with_related(Label::new(*pf, *ps, "first used here"))
                    .with_help("every card of a pack needs its own number (promo suffixes count as the base number)"),
                );
                continue;
            }
            numbers.insert(
                checked.card.normalized_number.clone(),
                (unit.file, number_span),
            );
            checked.card.id = format!("{}:{}", meta.name, checked.card.number);
            record_span(
                &mut spans,
                sources,
                unit.file,
                format!("cards/{}", checked.card.id),
                c.span,
            );
            for (i, a) in c.abilities.iter().enumerate() {
                record_span(
                    &mut spans,
                    sources,
                    unit.file,
                    format!("cards/{}/abilities/{i}", checked.card.id),
                    a.span,
                );
            }
            cards.push(checked.card);
        }
    }

    let ruleset = if has_ruleset || declared_any {
        Some(ruleset)
    } else {
        None
    };
    Compiled {
        pack: ir::Pack {
            ir_version: ir::IR_VERSION,
            name: meta.name.clone(),
            version: meta.version.clone(),
            game: meta.game.clone(),
            requires: meta.requires.clone(),
            ruleset,
            cards,
        },
        symbols: sym,
        spans,
        exact_names,
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

fn check_header(
    meta: &PackMeta,
    unit: &SourceUnit,
    sources: &SourceMap,
    diags: &mut Vec<Diagnostic>,
) {
    match unit.items.first().map(|i| &i.item) {
        Some(Item::GameHeader(g)) if g.name != meta.game => diags.push(
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
        Some(Item::GameHeader(_)) | Some(Item::Game(_)) => {}
        first => {
            // Only complain when the file parsed at all: a syntax error already said something.
            let text = &sources.get(unit.file).text;
            if first.is_some() || text.trim().is_empty() {
                // Label the first word of the first item: that is where `game …` belongs.
                let span = unit
                    .items
                    .first()
                    .map(|i| {
                        let word = text[i.span.start..]
                            .split(|c: char| c.is_whitespace() || c == '"' || c == '{')
                            .next()
                            .unwrap_or("");
                        Span::new(i.span.start, i.span.start + word.len())
                    })
                    .unwrap_or_default();
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

fn labelled(pack: &str, named: &crate::compiler::ast::Named) -> ir::Labelled {
    ir::Labelled {
        id: format!("{pack}:{}", named.name.name),
        label: named.label.as_ref().map(|l| l.value.clone()),
    }
}

fn params_ir(ctx: &mut Ctx, params: &[crate::compiler::ast::Param]) -> Vec<ir::Param> {
    params
        .iter()
        .map(|p| ir::Param {
            name: p.name.name.clone(),
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

fn record_span(spans: &mut SpanTable, sources: &SourceMap, file: FileId, key: String, span: Span) {
    spans
        .entries
        .insert(key, (sources.get(file).path.clone(), span.start, span.end));
}
