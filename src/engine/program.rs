//! A game's compiled packs, indexed for the engine: every declared name gets a small number so
//! that game state is vectors and bit masks, not maps of strings.

use super::names::Names;
use crate::engine::state::{index16, index32, CardId, Value};
use crate::ir::walk::Node;
use crate::ir::{self, Expr, Id, Semantics, Stmt};
use rustc_hash::FxHashMap as HashMap;
use std::sync::OnceLock;

/// Where an ability of a card definition sits: the definition and the ability's index.
pub type AbilityRef = (u32, u16);

/// What the engine needs to know of an ability at every event, computed once.
#[derive(Debug, Clone)]
pub struct AbilityMeta {
    /// Carried by the host of the card it is printed on (6.1.13-like attributes).
    pub carried: bool,
    /// Survives "negate text" (12.4-like attributes).
    pub unnegatable: bool,
    /// The zone it works from; `None`: the in-play zones.
    pub zone: Option<u16>,
    /// Its core semantics.
    pub semantics: Semantics,
    /// The event its trigger answers (its index), if it has a trigger on a declared event.
    pub event: Option<u16>,
    /// The event parameter its trigger wants to be the card itself (a pattern `this`), if any:
    /// an event whose payload names another card there is not answered.
    pub this_param: Option<u16>,
}

impl AbilityMeta {
    /// Whether it works in zone `zone` (`in_play`: whether that zone's cards are in play).
    pub fn works_in(&self, zone: u16, in_play: bool) -> bool {
        match self.zone {
            Some(z) => z == zone,
            None => in_play,
        }
    }
}

/// A state the ruleset declares: a member of an exclusive group, or a flag.
#[derive(Debug, Clone)]
pub struct StateInfo {
    /// Its id.
    pub id: Id,
    /// The other members of its group (cleared when it is set), as bits.
    pub group_mask: u64,
}

/// A stat: plain, or made of plain ones.
#[derive(Debug, Clone)]
pub struct StatInfo {
    /// Its id.
    pub id: Id,
    /// Components (indices of plain stats); empty for a plain stat.
    pub components: Vec<u16>,
    /// Reads as this when below it.
    pub floor: Option<i64>,
}

/// Everything a game declares, with indices, plus its cards.
///
/// Not changed once built: games borrow it, and its maps of names know where its own IR holds
/// each id ([`Names`], learned by [`Program::new`]), which holds only while that IR stays put.
#[derive(Debug)]
pub struct Program {
    /// The merged ruleset.
    pub ruleset: ir::Ruleset,
    /// Every card of the loaded packs, in pack order.
    pub cards: Vec<ir::Card>,
    /// Card id → index into `cards`.
    pub card_index: HashMap<Id, u32>,
    /// Zone id → index.
    pub zones: Names<u16>,
    /// States, by index (at most 64).
    pub states: Vec<StateInfo>,
    /// State id → index.
    pub state_index: Names<u16>,
    /// Stats, by index.
    pub stats: Vec<StatInfo>,
    /// Stat id → index.
    pub stat_index: Names<u16>,
    /// Layer id → position in the application order.
    pub layer_index: Names<u16>,
    /// Counter id → index.
    pub counter_index: Names<u16>,
    /// Keyword id → index into the ruleset's keywords.
    pub keyword_index: Names<u16>,
    /// Event id → index into the ruleset's events.
    pub event_index: Names<u16>,
    /// Moment id → index.
    pub moment_index: Names<u16>,
    /// Phase id → index.
    pub phase_index: Names<u16>,
    /// Action id → index into the ruleset's actions.
    pub action_index: Names<u16>,
    /// Ability kind id → (semantics, the zone it works from).
    pub kinds: Names<(Semantics, Option<u16>)>,
    /// The ability kinds declared `optional_cost`: their controller chooses whether to pay.
    pub optional_cost_kinds: Vec<Id>,
    /// Attribute ids with the unnegatable meaning.
    pub unnegatable: Vec<Id>,
    /// Attribute ids with the carried meaning.
    pub carried: Vec<Id>,
    /// Keyword indices with the untargetable meaning.
    pub untargetable: Vec<u16>,
    /// Verbs and procedures by id.
    pub callables: HashMap<Id, ir::Procedure>,
    /// Events the core emits for its own changes.
    pub core_move: Option<u16>,
    /// See [`Program::core_move`].
    pub core_enter: Option<u16>,
    /// See [`Program::core_move`].
    pub core_leave: Option<u16>,
    /// See [`Program::core_move`].
    pub core_declare: Option<u16>,
    /// Per card definition: each event its abilities (triggered or replacement, its own or
    /// carried) answer, with the parameter every one of them wants to be the card itself (a
    /// trigger pattern `this`), when they are all its own and want the same one: such a card
    /// is looked at for an event only when the payload names it there
    /// (`Game::trigger_candidates`).
    pub listens: Vec<Vec<(u16, Option<u16>)>>,
    /// Per event index: the parameters at which some definition's abilities on it all want
    /// the card itself ([`Program::listens`]): the card a payload names there is looked at.
    pub self_params: Vec<Vec<u16>>,
    /// Per event index: whether some card definition has a replacement ability on it (a
    /// proposed event no card can replace is not looked at per card).
    pub replaceable: Vec<bool>,
    /// Per event index: whether anything can see the event happen — an ability of some
    /// definition answers it ([`Program::listens`]), a `happened` or `happened_cards` of the
    /// ruleset or of a card reads it, or a `cancel` or `cancelled` names it. An event nothing
    /// heeds changes nothing when it happens: it is not dispatched, and its payload is not
    /// built (`Game::emit`).
    pub heeded: Vec<bool>,
    /// Per event index: whether a `happened` or `happened_cards` of the ruleset or of a card
    /// reads it: only such events are kept in the game's history (`Game::dispatch`).
    pub recorded: Vec<bool>,
    /// Per event index: whether a `cancel` or `cancelled` of the ruleset or of a card names it
    /// (such an event happening ends its cancellations: `Game::dispatch`).
    pub cancellable: Vec<bool>,
    /// Zones whose cards are in play.
    pub in_play: Vec<bool>,
    /// Index of each top-level `phase` statement of the turn.
    pub phase_pc: Vec<usize>,
    /// Per card definition, per ability: what the engine checks at every event.
    pub meta: Vec<Vec<AbilityMeta>>,
    /// Card type id → the card type it also counts as, the zone where (`None`: anywhere), and
    /// the state in which it does not (`None`: none).
    pub counts_as: HashMap<Id, (Id, Option<u16>, Option<u16>)>,
    /// Per card definition: its texts after the ruleset's name normalization (12.3.1), made
    /// the first time one is read (`contains` reads them for every card it looks at; most
    /// definitions are never read so) and then shared by every game of the program.
    pub normalized_texts: Vec<OnceLock<NormalizedTexts>>,
    /// Per card definition: its printed stat values by stat index (plain stats; composite
    /// entries unused), what a card reads before any modifier.
    pub printed_stats: Vec<Vec<Option<i64>>>,
    /// Per card definition: the zones (one bit each, by zone index) where one of its own
    /// (not carried) continuous abilities works; every bit when the ruleset has more zones
    /// than bits. A card elsewhere, with no card set on it, gives no continuous effect: the
    /// derivation of continuous effects looks at no other card.
    pub continuous_zones: Vec<u64>,
    /// Per card definition: for each event and semantics its own (not carried) abilities
    /// answer, the zones (one bit each, by zone index) where one of them works and the
    /// parameter all of them want to be the card itself, so that an event passes over a card
    /// that cannot answer it with one test; `None` when the ruleset has more zones than bits
    /// (each ability is then looked at, `AbilityMeta::works_in`).
    pub answer_zones: Option<Vec<Vec<AnswerEntry>>>,
    /// Ability kind id → per card definition, whether it has an ability of that kind (a
    /// window's offers look only at the cards that may have one).
    pub kind_holders: HashMap<Id, Vec<bool>>,
    /// The first member of each exclusive state group, as bits: the states a card takes when
    /// it arrives in an in-play zone with no state stated.
    pub default_states: u64,
    /// The interrupt rules (indices into the ruleset's rules), in declaration order: they run
    /// right after every change, and first at every check timing.
    pub interrupt_rules: Vec<usize>,
    /// The other rules (indices into the ruleset's rules), in declaration order: they run at
    /// check timings only.
    pub check_rules: Vec<usize>,
    /// The packs' scripts, compiled once (`src/engine/script.rs`).
    pub scripts: super::script::Scripts,
    /// The filters' conditions, lowered (learned with the names' addresses).
    pub conds: super::lowered::Conds,
    /// Per rule of the ruleset: the states and counters of cards its runs can read (a memo of
    /// a run outlives a change to any other).
    pub(super) rule_reads: Vec<Option<super::rule_reads::CardReads>>,
    /// The states and counters of cards the derivation of continuous abilities can read.
    pub(super) continuous_reads: Option<super::rule_reads::CardReads>,
}

/// A card definition's texts after the ruleset's name normalization
/// ([`Program::normalized_texts`]).
#[derive(Debug)]
pub struct NormalizedTexts {
    name: Box<str>,
    number: Box<str>,
    /// Its text fields (other fields are not texts).
    fields: Vec<(Id, Box<str>)>,
}

impl Program {
    /// Whether an own continuous ability of a card definition may work in a zone (see
    /// [`Program::continuous_zones`]).
    pub fn continuous_may_work(&self, def: u32, zone: u16) -> bool {
        let bits = self.continuous_zones[def as usize];
        bits != 0 && zone_in(bits, zone)
    }

    /// Whether one of the own (not carried) abilities of card `card`, of definition `def`, of
    /// `semantics` answering `event` works in `zone` and may answer the payload `args`: an
    /// ability whose trigger wants the card itself at a parameter (a pattern `this`) does not
    /// answer a payload naming another card there (see [`Program::answer_zones`]).
    pub fn own_answer_in(
        &self,
        (def, card): (u32, CardId),
        zone: u16,
        (event, semantics): (u16, Semantics),
        args: &[Value],
    ) -> bool {
        let bit = 1u64.checked_shl(u32::from(zone));
        if let (Some(all), Some(bit)) = (&self.answer_zones, bit) {
            return answers_by_bits(&all[def as usize], bit, (event, semantics), (card, args));
        }
        own_answers_in(
            &self.meta[def as usize],
            (&self.in_play, zone),
            (event, semantics),
            (card, args),
        )
    }

    /// A card definition's text `field` (`name`, `number` or a text field, as `Game::field`
    /// reads them from the definition) after the ruleset's name normalization (12.3.1);
    /// `None` when the definition has no such text.
    pub fn normalized_field(&self, def: u32, field: &str) -> Option<&str> {
        let card = self.cards.get(def as usize)?;
        let texts = self.normalized_texts.get(def as usize)?.get_or_init(|| {
            let norm = |t: &str| crate::ir::normalize::apply(&self.ruleset.names, t).into();
            NormalizedTexts {
                name: norm(&card.name),
                number: norm(&card.number),
                fields: card
                    .fields
                    .iter()
                    .filter_map(|(k, v)| match v {
                        ir::Value::Text(t) => Some((*k, norm(t))),
                        _ => None,
                    })
                    .collect(),
            }
        });
        match field {
            "name" => Some(&texts.name),
            "number" => Some(&texts.number),
            _ => texts
                .fields
                .iter()
                .find(|(k, _)| k.as_str() == field)
                .map(|(_, t)| &**t),
        }
    }

    /// Indexes the packs of one game: the game pack (the one with a ruleset) and the packs
    /// built on it. Returns an error text when no pack holds a ruleset.
    pub fn new(packs: &[&ir::Pack]) -> Result<Program, String> {
        let ruleset = merged_ruleset(packs)?;
        let cards: Vec<ir::Card> = packs.iter().flat_map(|p| p.cards.iter().cloned()).collect();
        check_capacities(&ruleset, &cards)?;
        let zones = index(ruleset.zones.iter().map(|z| &z.name.id));
        let states = state_infos(&ruleset);
        let state_index = index(states.iter().map(|s| &s.id));
        let stats = stat_infos(&ruleset);
        let event_index = index(ruleset.events.iter().map(|e| &e.name.id));
        let unnegatable = attributes_meaning(&ruleset, ir::AttributeSemantics::Unnegatable);
        let carried = attributes_meaning(&ruleset, ir::AttributeSemantics::Carried);
        let core = |m: ir::CoreEvent| core_event(&ruleset, m);
        let meta = ability_meta(
            &ruleset,
            &cards,
            (&zones, &event_index),
            &carried,
            &unnegatable,
        );
        let in_play: Vec<bool> = ruleset.zones.iter().map(|z| z.in_play).collect();
        let listens = listens(&meta);
        let self_params = self_params(&listens, ruleset.events.len());
        let replaceable = replaceable(&meta, ruleset.events.len());
        let [heeded, recorded, cancellable] = event_uses(&ruleset, &cards, &listens, &event_index);
        let mut prog = Program {
            conds: super::lowered::Conds::default(),
            rule_reads: Vec::new(),
            continuous_reads: None,
            normalized_texts: cards.iter().map(|_| OnceLock::new()).collect(),
            scripts: super::script::Scripts::new(packs, &ruleset, &states, &stats)?,
            counts_as: counts_as(&ruleset, &zones, &state_index),
            continuous_zones: continuous_zones(&meta, &in_play),
            answer_zones: answer_zones(&meta, &in_play),
            listens,
            self_params,
            meta,
            kind_holders: kind_holders(&cards),
            card_index: cards
                .iter()
                .enumerate()
                .map(|(i, c)| (c.id, index32(i)))
                .collect(),
            in_play,
            kinds: ability_kinds(&ruleset, &zones),
            optional_cost_kinds: ruleset
                .ability_kinds
                .iter()
                .filter(|k| k.optional_cost)
                .map(|k| k.name.id)
                .collect(),
            zones,
            state_index,
            states,
            stat_index: index(stats.iter().map(|s| &s.id)),
            printed_stats: printed_stats(&cards, &stats),
            stats,
            layer_index: index(ruleset.layers.iter().map(|l| &l.name.id)),
            counter_index: index(ruleset.counters.iter().map(|c| &c.name.id)),
            keyword_index: index(ruleset.keywords.iter().map(|k| &k.name.id)),
            moment_index: index(ruleset.moments.iter().map(|m| &m.id)),
            phase_index: index(ruleset.phases.iter().map(|m| &m.id)),
            action_index: index(ruleset.actions.iter().map(|a| &a.name.id)),
            unnegatable,
            carried,
            untargetable: untargetable(&ruleset),
            callables: callables(&ruleset),
            core_move: core(ir::CoreEvent::Move),
            core_enter: core(ir::CoreEvent::Enter),
            core_leave: core(ir::CoreEvent::Leave),
            core_declare: core(ir::CoreEvent::Declare),
            replaceable,
            heeded,
            recorded,
            cancellable,
            event_index,
            phase_pc: phase_pcs(&ruleset),
            default_states: default_states(&ruleset),
            interrupt_rules: rules_where(&ruleset, true),
            check_rules: rules_where(&ruleset, false),
            cards,
            ruleset,
        };
        prog.conds = super::lowered::Conds::of_program(&prog);
        prog.rule_reads = super::rule_reads::of_rules(&prog);
        prog.continuous_reads = super::rule_reads::of_continuous(&prog);
        Ok(prog)
    }

    /// Whether the ruleset has interrupt rules (the one test a game without any pays per
    /// change).
    pub fn has_interrupts(&self) -> bool {
        !self.interrupt_rules.is_empty()
    }

    /// The number of seats.
    pub fn players(&self) -> usize {
        self.ruleset.players.max(1) as usize
    }

    /// Every seat, in turn order (at most [`ir::MAX_PLAYERS`], so each fits a [`Seat`](super::state::Seat)).
    pub fn seats(&self) -> std::ops::Range<super::state::Seat> {
        0..super::state::seat(self.players())
    }

    /// The ability a reference points at.
    pub fn ability(&self, r: AbilityRef) -> &ir::Ability {
        &self.cards[r.0 as usize].abilities[r.1 as usize]
    }

    /// Whether an ability is of `semantics` with a trigger on event `event` (what it answers
    /// is then read from its patterns and its `if`).
    pub fn may_answer(&self, r: AbilityRef, event: u16, semantics: Semantics) -> bool {
        let m = &self.meta[r.0 as usize][r.1 as usize];
        m.semantics == semantics && m.event == Some(event)
    }

    /// Whether an event's payload `args` may be answered by an ability of card `this`: unless
    /// its trigger wants the card itself at a parameter, and another value is there (its
    /// pattern would not match).
    pub fn names_this(&self, r: AbilityRef, this: CardId, args: &[Value]) -> bool {
        names_card(self.meta[r.0 as usize][r.1 as usize].this_param, this, args)
    }

    /// Whether an ability has an attribute of the given meaning list.
    pub fn has_attr(list: &[Id], a: &ir::Ability) -> bool {
        a.attributes.iter().any(|x| list.contains(x))
    }

    /// The short form of an id (`mygame:crypt` → `crypt`), for logs and prompts.
    pub fn short(id: &str) -> &str {
        // a plain scan from the end: this runs for every log line and label built
        match id.bytes().rposition(|b| b == b':') {
            Some(i) => id.get(i.saturating_add(1)..).unwrap_or(id),
            None => id,
        }
    }

    /// Finds cards by printed name, then by number (as printed or normalized).
    pub fn find_card(&self, text: &str) -> Option<u32> {
        let text = text.trim();
        if let Some(i) = self.cards.iter().position(|c| c.name == text) {
            return Some(index32(i));
        }
        let norm = crate::ir::normalize::apply(&self.ruleset.numbers, text);
        self.cards
            .iter()
            .position(|c| c.number == text || c.normalized_number == norm)
            .map(index32)
    }
}

/// The zone an ability kind works from, when it names one.
fn kinds_zone(ruleset: &ir::Ruleset, zones: &HashMap<Id, u16>, kind: &str) -> Option<u16> {
    ruleset
        .ability_kinds
        .iter()
        .find(|k| k.name.id == kind)
        .and_then(|k| k.from_zone.as_ref())
        .and_then(|z| zones.get(z).copied())
}

/// Numbers for ids, in declaration order.
fn index<'a>(ids: impl Iterator<Item = &'a Id>) -> Names<u16> {
    ids.enumerate().map(|(i, id)| (*id, index16(i))).collect()
}

/// What the engine's fixed-size integers hold (the `ir::MAX_*` capacities): the compiler
/// reports a ruleset or card beyond them, so only IR that did not come from a clean check gets
/// here — and then it is an error, never a wrapped index or an overflowing shift.
/// The game's ruleset: that of the game pack (the first pack with one: packs come after the
/// packs they require), with the declarations of every later pack of the game (mod packs)
/// appended to it, so that they work in games exactly as if the game pack had declared them.
/// The ids a mod pack declares are qualified by its own name, so appending never merges two
/// declarations. A mod pack may only add names: the checker refuses a mod pack's `setup`,
/// `turn`, actions, deck rules and the like; should one get here anyway, it is an error, not
/// a silently ignored declaration.
fn merged_ruleset(packs: &[&ir::Pack]) -> Result<ir::Ruleset, String> {
    let mut parts = packs
        .iter()
        .filter_map(|p| p.ruleset.as_ref().map(|r| (p, r)));
    let Some((_, base)) = parts.next() else {
        return Err("no pack holds a ruleset".into());
    };
    let mut ruleset = base.clone();
    for (pack, part) in parts {
        if let Some(what) = game_level_part(part) {
            return Err(format!(
                "pack `{}` declares {what}: only the game pack may",
                pack.name
            ));
        }
        append_declarations(&mut ruleset, part);
    }
    Ok(ruleset)
}

/// What of a ruleset part only a game pack may declare, if the part has any.
fn game_level_part(part: &ir::Ruleset) -> Option<&'static str> {
    [
        (!part.setup.is_empty(), "a setup"),
        (!part.turn.is_empty(), "a turn"),
        (!part.phases.is_empty(), "phases"),
        (!part.actions.is_empty(), "actions"),
        (!part.deck.is_empty(), "deck rules"),
        (!part.numbers.is_empty(), "card-number normalization"),
        (!part.names.is_empty(), "name normalization"),
        (part.default_duration.is_some(), "a default duration"),
        (!part.trigger_order.is_default(), "the trigger order"),
    ]
    .into_iter()
    .find_map(|(declared, what)| declared.then_some(what))
}

/// Appends the names a mod pack's ruleset part declares to the game's ruleset, in pack order
/// (its layers apply after the game's, its rules are checked after the game's).
fn append_declarations(ruleset: &mut ir::Ruleset, part: &ir::Ruleset) {
    ruleset.zones.extend(part.zones.iter().cloned());
    ruleset.states.extend(part.states.iter().cloned());
    ruleset.stats.extend(part.stats.iter().cloned());
    ruleset.layers.extend(part.layers.iter().cloned());
    ruleset.counters.extend(part.counters.iter().cloned());
    ruleset.card_types.extend(part.card_types.iter().cloned());
    ruleset.keywords.extend(part.keywords.iter().cloned());
    ruleset
        .ability_kinds
        .extend(part.ability_kinds.iter().cloned());
    ruleset.attributes.extend(part.attributes.iter().cloned());
    ruleset.events.extend(part.events.iter().cloned());
    ruleset.moments.extend(part.moments.iter().cloned());
    ruleset.verbs.extend(part.verbs.iter().cloned());
    ruleset.procedures.extend(part.procedures.iter().cloned());
    ruleset.rules.extend(part.rules.iter().cloned());
}

fn check_capacities(ruleset: &ir::Ruleset, cards: &[ir::Card]) -> Result<(), String> {
    let players = ruleset.players as usize;
    if players > ir::MAX_PLAYERS {
        return Err(format!(
            "a ruleset may seat at most {} players, not {players}",
            ir::MAX_PLAYERS
        ));
    }
    let states: usize = ruleset.states.iter().map(|g| g.members.len().max(1)).sum();
    if states > ir::MAX_STATE_VALUES {
        return Err(format!(
            "a ruleset may declare at most {} states",
            ir::MAX_STATE_VALUES
        ));
    }
    let indexed = [
        ("zones", ruleset.zones.len()),
        ("stats", ruleset.stats.len()),
        ("layers", ruleset.layers.len()),
        ("counters", ruleset.counters.len()),
        ("keywords", ruleset.keywords.len()),
        ("events", ruleset.events.len()),
        ("moments", ruleset.moments.len()),
        ("phases", ruleset.phases.len()),
        ("actions", ruleset.actions.len()),
    ];
    if let Some((kind, n)) = indexed
        .iter()
        .find(|(_, n)| *n > ir::MAX_INDEXED_DECLARATIONS)
    {
        return Err(format!(
            "a ruleset may declare at most {} {kind}, not {n}",
            ir::MAX_INDEXED_DECLARATIONS
        ));
    }
    if let Some(c) = cards
        .iter()
        .find(|c| c.abilities.len() > ir::MAX_ABILITIES_PER_CARD)
    {
        return Err(format!(
            "card `{}` has more than {} abilities",
            c.id,
            ir::MAX_ABILITIES_PER_CARD
        ));
    }
    Ok(())
}

/// The states, group members in order (a group's other members as each one's mask); within
/// [`ir::MAX_STATE_VALUES`] (checked first), so every shift fits the `u64` mask.
fn state_infos(ruleset: &ir::Ruleset) -> Vec<StateInfo> {
    let mut states = Vec::new();
    for g in &ruleset.states {
        if g.members.is_empty() {
            states.push(StateInfo {
                id: g.name.id,
                group_mask: 0,
            });
        } else {
            let first = states.len();
            let end = first.saturating_add(g.members.len());
            let mask: u64 = (first..end).map(|i| 1u64 << i).sum();
            for (i, m) in g.members.iter().enumerate() {
                states.push(StateInfo {
                    id: m.id,
                    group_mask: mask & !(1u64 << first.saturating_add(i)),
                });
            }
        }
    }
    states
}

/// The first member of each exclusive state group, as bits (states counted as
/// [`state_infos`] numbers them).
fn default_states(ruleset: &ir::Ruleset) -> u64 {
    let mut default_states = 0u64;
    let mut at = 0usize;
    for g in &ruleset.states {
        if !g.members.is_empty() {
            default_states |= 1 << at;
        }
        at = at.saturating_add(g.members.len().max(1));
    }
    default_states
}

/// The stats: plain ones first, then composite ones with their components' indices.
fn stat_infos(ruleset: &ir::Ruleset) -> Vec<StatInfo> {
    let (plain, composite): (Vec<&ir::Stat>, Vec<&ir::Stat>) =
        ruleset.stats.iter().partition(|s| s.components.is_empty());
    let mut stats: Vec<StatInfo> = plain
        .iter()
        .map(|s| StatInfo {
            id: s.name.id,
            components: Vec::new(),
            floor: s.floor,
        })
        .collect();
    let plain_index = index(stats.iter().map(|s| &s.id));
    for s in composite {
        stats.push(StatInfo {
            id: s.name.id,
            components: s
                .components
                .iter()
                .filter_map(|c| plain_index.get(c).copied())
                .collect(),
            floor: s.floor,
        });
    }
    stats
}

/// The event bound to a core change (`= move`), if the ruleset binds one.
fn core_event(ruleset: &ir::Ruleset, m: ir::CoreEvent) -> Option<u16> {
    ruleset
        .events
        .iter()
        .position(|e| e.core == Some(m))
        .map(index16)
}

/// Ability kinds: their semantics and the zone they work from.
fn ability_kinds(
    ruleset: &ir::Ruleset,
    zones: &HashMap<Id, u16>,
) -> Names<(Semantics, Option<u16>)> {
    ruleset
        .ability_kinds
        .iter()
        .map(|k| {
            let zone = k.from_zone.as_ref().and_then(|z| zones.get(z).copied());
            (k.name.id, (k.semantics, zone))
        })
        .collect()
}

/// The attributes declared with a meaning.
fn attributes_meaning(ruleset: &ir::Ruleset, m: ir::AttributeSemantics) -> Vec<Id> {
    ruleset
        .attributes
        .iter()
        .filter(|a| a.semantics == m)
        .map(|a| a.name.id)
        .collect()
}

/// The keywords with the untargetable meaning.
fn untargetable(ruleset: &ir::Ruleset) -> Vec<u16> {
    ruleset
        .keywords
        .iter()
        .enumerate()
        .filter(|(_, k)| k.semantics == Some(ir::KeywordSemantics::Untargetable))
        .map(|(i, _)| index16(i))
        .collect()
}

/// Verbs and procedures by id.
fn callables(ruleset: &ir::Ruleset) -> HashMap<Id, ir::Procedure> {
    ruleset
        .verbs
        .iter()
        .chain(&ruleset.procedures)
        .map(|p| (p.name.id, p.clone()))
        .collect()
}

/// Per card definition, [`Program::listens`]: each event its abilities answer, with the
/// parameter they all want to be the card itself.
fn listens(meta: &[Vec<AbilityMeta>]) -> Vec<Vec<(u16, Option<u16>)>> {
    meta.iter()
        .map(|abilities| {
            let mut out: Vec<(u16, Option<u16>)> = Vec::new();
            for m in abilities {
                let Some(event) = m.event else { continue };
                // a carried ability answers for the host: the card itself is not what it wants
                let wants = m.this_param.filter(|_| !m.carried);
                match out.iter_mut().find(|(e, _)| *e == event) {
                    Some(entry) if entry.1 != wants => entry.1 = None,
                    Some(_) => {}
                    None => out.push((event, wants)),
                }
            }
            out
        })
        .collect()
}

/// Per event index, [`Program::self_params`]: the parameters some definition's abilities on it
/// all want to be the card itself.
fn self_params(listens: &[Vec<(u16, Option<u16>)>], events: usize) -> Vec<Vec<u16>> {
    let mut out = vec![Vec::new(); events];
    for &(event, wants) in listens.iter().flatten() {
        if let (Some(p), Some(params)) = (wants, out.get_mut(usize::from(event))) {
            if !params.contains(&p) {
                params.push(p);
            }
        }
    }
    out
}

/// Per event index, [`Program::heeded`] (an ability answers it, or a history read, a
/// cancellation or a test of one names it, anywhere in the ruleset or the cards),
/// [`Program::recorded`] (a history read names it) and [`Program::cancellable`] (a
/// cancellation or a test of one names it).
fn event_uses(
    ruleset: &ir::Ruleset,
    cards: &[ir::Card],
    listens: &[Vec<(u16, Option<u16>)>],
    event_index: &Names<u16>,
) -> [Vec<bool>; 3] {
    let events = ruleset.events.len();
    let [mut heeded, mut recorded, mut cancellable] = [(); 3].map(|()| vec![false; events]);
    for &(event, _) in listens.iter().flatten() {
        mark(&mut heeded, event);
    }
    let mut visit = |node: Node<'_>| {
        let (event, read) = match node {
            Node::Expr(Expr::Happened { pattern, .. }) => (&pattern.event, true),
            Node::Expr(Expr::Cancelled { event, .. }) | Node::Stmt(Stmt::Cancel { event, .. }) => {
                (event, false)
            }
            _ => return,
        };
        if let Some(&event) = event_index.get(event) {
            mark(&mut heeded, event);
            mark(
                if read {
                    &mut recorded
                } else {
                    &mut cancellable
                },
                event,
            );
        }
    };
    ruleset.each_node(&mut visit);
    for card in cards {
        card.each_node(&mut visit);
    }
    [heeded, recorded, cancellable]
}

/// Sets an event's flag in a list of flags by event index.
fn mark(flags: &mut [bool], event: u16) {
    if let Some(f) = flags.get_mut(usize::from(event)) {
        *f = true;
    }
}

/// Per event index, whether a card definition has a replacement ability on it.
fn replaceable(meta: &[Vec<AbilityMeta>], events: usize) -> Vec<bool> {
    let mut out = vec![false; events];
    for m in meta.iter().flatten() {
        if let (Semantics::Replacement, Some(ev)) = (m.semantics, m.event) {
            if let Some(r) = out.get_mut(usize::from(ev)) {
                *r = true;
            }
        }
    }
    out
}

/// The index of the event parameter a trigger's pattern wants to be `this`, if it has one
/// and the event declares it.
fn this_param(ruleset: &ir::Ruleset, events: &HashMap<Id, u16>, t: &ir::Trigger) -> Option<u16> {
    let ev = events.get(&t.event)?;
    let params = &ruleset.events.get(usize::from(*ev))?.params;
    let (name, _) = t.when.iter().find(|(_, pat)| matches!(pat, Expr::This))?;
    let at = params.iter().position(|p| p.name == *name)?;
    u16::try_from(at).ok()
}

/// Where each top-level `phase` statement of the turn sits.
fn phase_pcs(ruleset: &ir::Ruleset) -> Vec<usize> {
    ruleset
        .turn
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s, Stmt::Phase { .. }))
        .map(|(i, _)| i)
        .collect()
}

/// Per card, per ability: what the engine checks at every event.
fn ability_meta(
    ruleset: &ir::Ruleset,
    cards: &[ir::Card],
    (zones, events): (&HashMap<Id, u16>, &HashMap<Id, u16>),
    carried: &[Id],
    unnegatable: &[Id],
) -> Vec<Vec<AbilityMeta>> {
    cards
        .iter()
        .map(|c| {
            c.abilities
                .iter()
                .map(|a| AbilityMeta {
                    carried: a.attributes.iter().any(|x| carried.contains(x)),
                    unnegatable: a.attributes.iter().any(|x| unnegatable.contains(x)),
                    zone: match &a.zone {
                        Some(z) => zones.get(z).copied(),
                        None => kinds_zone(ruleset, zones, &a.kind),
                    },
                    semantics: a.semantics,
                    event: a
                        .trigger
                        .as_ref()
                        .and_then(|t| events.get(&t.event).copied()),
                    this_param: a
                        .trigger
                        .as_ref()
                        .and_then(|t| this_param(ruleset, events, t)),
                })
                .collect()
        })
        .collect()
}

/// Per card definition: its printed stats by stat index; a composite stat's value fills its
/// components.
fn printed_stats(cards: &[ir::Card], stats: &[StatInfo]) -> Vec<Vec<Option<i64>>> {
    let stat_index = index(stats.iter().map(|s| &s.id));
    cards
        .iter()
        .map(|def| {
            let mut vals: Vec<Option<i64>> = vec![None; stats.len()];
            for (k, v) in &def.stats {
                let Some(&s) = stat_index.get(k) else {
                    continue;
                };
                let info = &stats[s as usize];
                match super::eval::const_value(v) {
                    super::Value::Int(n) if info.components.is_empty() => {
                        vals[s as usize] = Some(n);
                    }
                    super::Value::Pair(p) => {
                        for (comp, x) in info.components.iter().zip(p) {
                            vals[*comp as usize] = x;
                        }
                    }
                    _ => {}
                }
            }
            vals
        })
        .collect()
}

/// Per ability kind: which card definitions have an ability of it.
fn kind_holders(cards: &[ir::Card]) -> HashMap<Id, Vec<bool>> {
    let mut out: HashMap<Id, Vec<bool>> = HashMap::default();
    for (i, c) in cards.iter().enumerate() {
        for a in &c.abilities {
            out.entry(a.kind)
                .or_insert_with(|| vec![false; cards.len()])[i] = true;
        }
    }
    out
}

/// Whether zone `zone` is among the zones `bits` holds (one bit each, by zone index; a zone
/// past the bits is among them, as [`Program::continuous_zones`] sets every bit when the
/// ruleset has more zones than bits).
pub(super) fn zone_in(bits: u64, zone: u16) -> bool {
    1u64.checked_shl(u32::from(zone))
        .is_none_or(|b| bits & b != 0)
}

/// Per card definition: the zones where one of its own continuous abilities works, as bits
/// (see [`Program::continuous_zones`]).
fn continuous_zones(meta: &[Vec<AbilityMeta>], in_play: &[bool]) -> Vec<u64> {
    let all_fit = in_play.len() <= 64;
    meta.iter()
        .map(|metas| {
            let mut bits = 0u64;
            for m in metas {
                if m.carried || m.semantics != Semantics::Continuous {
                    continue;
                }
                if !all_fit {
                    return u64::MAX;
                }
                bits |= match m.zone {
                    Some(z) => 1u64.checked_shl(u32::from(z)).unwrap_or(u64::MAX),
                    None => in_play
                        .iter()
                        .enumerate()
                        .filter(|(_, p)| **p)
                        .fold(0, |b, (z, _)| {
                            let bit = u32::try_from(z).ok().and_then(|z| 1u64.checked_shl(z));
                            b | bit.unwrap_or(u64::MAX)
                        }),
                };
            }
            bits
        })
        .collect()
}

/// One entry of [`Program::answer_zones`]: a definition's own abilities of one semantics
/// answering one event.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AnswerEntry {
    /// The event's index.
    pub event: u16,
    /// The abilities' semantics.
    pub semantics: Semantics,
    /// The zones where one of them works, one bit each.
    pub zones: u64,
    /// The parameter every one of them wants to be the card itself (a pattern `this`), if they
    /// all want the same one: a payload naming another card there is answered by none.
    pub this_param: Option<u16>,
}

/// Whether a payload names card `card` at the parameter an ability wants to be the card itself
/// (always, when it wants none).
#[inline]
fn names_card(this_param: Option<u16>, card: CardId, args: &[Value]) -> bool {
    this_param
        .is_none_or(|i| matches!(args.get(usize::from(i)), Some(Value::Card(c)) if *c == card))
}

/// Per card definition: the zones where its own abilities answering each event work, as bits,
/// and the parameter they all want to be the card itself (see [`Program::answer_zones`]).
fn answer_zones(meta: &[Vec<AbilityMeta>], in_play: &[bool]) -> Option<Vec<Vec<AnswerEntry>>> {
    if in_play.len() > 64 {
        return None;
    }
    let bit = |z: usize| u32::try_from(z).ok().and_then(|z| 1u64.checked_shl(z));
    let in_play_bits = in_play
        .iter()
        .enumerate()
        .filter(|(_, p)| **p)
        .fold(0, |b, (z, _)| b | bit(z).unwrap_or(0));
    let per_def = meta.iter().map(|metas| {
        let mut out: Vec<AnswerEntry> = Vec::new();
        for m in metas.iter().filter(|m| !m.carried) {
            let Some(event) = m.event else { continue };
            let zones = m
                .zone
                .map_or(in_play_bits, |z| bit(usize::from(z)).unwrap_or(0));
            match out
                .iter_mut()
                .find(|e| e.event == event && e.semantics == m.semantics)
            {
                Some(entry) => {
                    entry.zones |= zones;
                    // one ability wanting another parameter, or none: any payload may do
                    if entry.this_param != m.this_param {
                        entry.this_param = None;
                    }
                }
                None => out.push(AnswerEntry {
                    event,
                    semantics: m.semantics,
                    zones,
                    this_param: m.this_param,
                }),
            }
        }
        out
    });
    Some(per_def.collect())
}

/// [`Program::own_answer_in`] from a definition's entries of [`Program::answer_zones`], the
/// zone as its bit.
#[inline]
fn answers_by_bits(
    entries: &[AnswerEntry],
    zone_bit: u64,
    (event, semantics): (u16, Semantics),
    (card, args): (CardId, &[Value]),
) -> bool {
    entries.iter().any(|e| {
        e.event == event
            && e.semantics == semantics
            && e.zones & zone_bit != 0
            && names_card(e.this_param, card, args)
    })
}

/// [`Program::own_answer_in`], each ability looked at.
fn own_answers_in(
    metas: &[AbilityMeta],
    (in_play, zone): (&[bool], u16),
    (event, semantics): (u16, Semantics),
    (card, args): (CardId, &[Value]),
) -> bool {
    let in_play = in_play.get(usize::from(zone)).copied().unwrap_or(false);
    metas.iter().any(|m| {
        !m.carried
            && m.semantics == semantics
            && m.event == Some(event)
            && m.works_in(zone, in_play)
            && names_card(m.this_param, card, args)
    })
}

/// Card types that also count as another, and where.
fn counts_as(
    ruleset: &ir::Ruleset,
    zones: &HashMap<Id, u16>,
    states: &HashMap<Id, u16>,
) -> HashMap<Id, (Id, Option<u16>, Option<u16>)> {
    ruleset
        .card_types
        .iter()
        .filter_map(|t| {
            let c = t.counts_as.as_ref()?;
            let zone = c.zone.as_ref().and_then(|z| zones.get(z).copied());
            let unless = c.unless.as_ref().and_then(|s| states.get(s).copied());
            Some((t.name.id, (c.card_type, zone, unless)))
        })
        .collect()
}

/// The indices of the ruleset's rules that are (`interrupt`) or are not interrupt rules.
fn rules_where(ruleset: &ir::Ruleset, interrupt: bool) -> Vec<usize> {
    (0..ruleset.rules.len())
        .filter(|i| ruleset.rules[*i].interrupt == interrupt)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(carried: bool, zone: Option<u16>, semantics: Semantics, event: u16) -> AbilityMeta {
        AbilityMeta {
            carried,
            unnegatable: false,
            zone,
            semantics,
            event: Some(event),
            this_param: None,
        }
    }

    /// The same ability, wanting the card itself at event parameter `at` (a pattern `this`).
    fn wanting_this(m: AbilityMeta, at: u16) -> AbilityMeta {
        AbilityMeta {
            this_param: Some(at),
            ..m
        }
    }

    #[test]
    fn answer_zones_give_what_each_ability_looked_at_gives() {
        use Semantics::{Replacement, Triggered};
        let in_play = [false, true, false, true];
        let defs = vec![
            vec![
                meta(false, None, Triggered, 0),
                meta(false, Some(2), Triggered, 0),
            ],
            vec![
                meta(true, None, Triggered, 1),
                meta(false, Some(0), Replacement, 1),
            ],
            vec![
                meta(false, Some(3), Triggered, 1),
                meta(false, None, Replacement, 0),
            ],
            Vec::new(),
            // each wants the card itself, at the same parameter or not
            vec![
                wanting_this(meta(false, None, Triggered, 0), 0),
                wanting_this(meta(false, Some(2), Triggered, 0), 0),
                wanting_this(meta(false, None, Triggered, 1), 0),
                wanting_this(meta(false, None, Triggered, 1), 1),
            ],
            // one wants it, one does not
            vec![
                wanting_this(meta(false, None, Triggered, 2), 1),
                meta(false, Some(2), Triggered, 2),
            ],
        ];
        // payloads naming card 7 (the card looked at) or card 8 at parameters 0 and 1
        let card = 7;
        let payloads = [
            vec![Value::Card(7), Value::Card(8)],
            vec![Value::Card(8), Value::Card(7)],
            vec![Value::Card(8)],
            vec![Value::Absent, Value::Card(7)],
        ];
        let bits = answer_zones(&defs, &in_play).expect("four zones fit");
        let mut answering = 0;
        for (metas, entries) in defs.iter().zip(&bits) {
            for zone in 0..4u16 {
                for event in 0..3u16 {
                    for semantics in [Triggered, Replacement] {
                        for args in &payloads {
                            let scanned = own_answers_in(
                                metas,
                                (&in_play, zone),
                                (event, semantics),
                                (card, args),
                            );
                            let by_bits = answers_by_bits(
                                entries,
                                1 << zone,
                                (event, semantics),
                                (card, args),
                            );
                            if by_bits != scanned {
                                // a coarser entry may only let more through, never fewer
                                assert!(by_bits, "{metas:?} zone {zone} event {event} {args:?}");
                            }
                            answering += usize::from(scanned);
                        }
                    }
                }
            }
        }
        // of the first four definitions, whatever the payload: in play (1, 3) or zone 2 for
        // event 0; zone 0 replacing event 1; zone 3 for event 1; in play replacing event 0 (the
        // carried ability answers nothing of its own)
        let plain = (3 + 1 + 1 + 2) * payloads.len();
        // the fifth: event 0 in play or zone 2 with card 7 first (one payload); event 1 in
        // play with card 7 first or second (three); the sixth: event 2 in play with card 7
        // second (two payloads), and zone 2 whatever the payload
        let wanting = 3 + 2 * 3 + 2 * 2 + payloads.len();
        assert_eq!(answering, plain + wanting);
        assert!(answer_zones(&defs, &[false; 65]).is_none());
    }

    /// A definition's abilities: event 0, two wanting the card itself at parameter 0 (one
    /// triggered, one a replacement); event 1, one wanting it at 0, one at 1; event 2, one
    /// wanting it, one not.
    fn wanting_the_card_itself() -> Vec<AbilityMeta> {
        use Semantics::{Replacement, Triggered};
        vec![
            wanting_this(meta(false, None, Triggered, 0), 0),
            wanting_this(meta(false, Some(2), Replacement, 0), 0),
            wanting_this(meta(false, None, Triggered, 1), 0),
            wanting_this(meta(false, None, Triggered, 1), 1),
            wanting_this(meta(false, None, Triggered, 2), 1),
            meta(false, Some(2), Triggered, 2),
        ]
    }

    #[test]
    fn a_definitions_entries_keep_the_parameter_only_when_all_want_it() {
        let defs = vec![wanting_the_card_itself()];
        let bits = answer_zones(&defs, &[false, true, false]).expect("three zones fit");
        let wanted: Vec<Option<u16>> = bits[0].iter().map(|e| e.this_param).collect();
        // event 0 triggered, event 0 replacing (an entry each), events 1 and 2
        assert_eq!(wanted, [Some(0), Some(0), None, None]);
    }

    #[test]
    fn a_card_listens_for_its_own_payloads_only_when_all_its_abilities_want_itself() {
        use Semantics::Triggered;
        let defs = vec![
            // whatever their semantics
            wanting_the_card_itself(),
            // a carried ability answers for its host: any payload may concern it
            vec![
                wanting_this(meta(true, None, Triggered, 0), 0),
                wanting_this(meta(false, None, Triggered, 3), 1),
            ],
        ];
        let listens = listens(&defs);
        assert_eq!(listens[0], [(0, Some(0)), (1, None), (2, None)]);
        assert_eq!(listens[1], [(0, None), (3, Some(1))]);
        assert_eq!(self_params(&listens, 4), [vec![0], vec![], vec![], vec![1]]);
    }
}
