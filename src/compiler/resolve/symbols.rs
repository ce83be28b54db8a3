//! The symbol table: every name a ruleset (and the mod packs on top of it)
//! declares, with what the checker needs to know about it.
//!
//! Built in two passes over declarations: names first (so a verb may call one
//! declared after it), then bodies and defaults (in `resolve::mod`).

use crate::base::diagnostic::{codes, did_you_mean, Code, Diagnostic, Label};
use crate::base::source::{FileId, Span};
use crate::compiler::ast::{self, Decl};
use crate::ir::{self, Type};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;

/// Where a symbol was declared: for duplicate-declaration diagnostics.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Origin {
    /// The file.
    pub file: FileId,
    /// The name's span.
    pub span: Span,
}

/// A declared parameter, as the checker sees it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ParamSig {
    /// The parameter's name.
    pub name: String,
    /// Accepted types.
    pub types: Vec<Type>,
    /// May be absent.
    pub optional: bool,
    /// Has a default value.
    pub has_default: bool,
}

/// A callable: verb, procedure, event or keyword.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Callable {
    /// Qualified id.
    pub id: ir::Id,
    /// Parameters in order.
    pub params: Vec<ParamSig>,
}

/// A zone as the checker sees it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ZoneSym {
    /// Qualified id.
    pub id: ir::Id,
    /// Slot names.
    pub slots: Vec<String>,
    /// Names of its groups of slots.
    pub groups: Vec<String>,
    /// Whether its cards are in an order (`ordered`): only then do `top`/`bottom` mean anything.
    pub ordered: bool,
}

/// A stat as the checker sees it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StatSym {
    /// Qualified id.
    pub id: ir::Id,
    /// Number of components (0 for a plain stat).
    pub components: usize,
    /// The components' names as written (`might`, `grit`), for diagnostics.
    pub parts: Vec<String>,
}

/// A counter as the checker sees it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CounterSym {
    /// Qualified id.
    pub id: ir::Id,
    /// Kept on players.
    pub on_players: bool,
    /// Kept on cards.
    pub on_cards: bool,
}

/// A state as the checker sees it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StateSym {
    /// Qualified id of the member (or flag).
    pub id: ir::Id,
    /// A flag (can be cleared) rather than a member of a group.
    pub flag: bool,
}

/// A card type as the checker sees it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CardTypeSym {
    /// Qualified id.
    pub id: ir::Id,
    /// Its schema.
    pub fields: Vec<ir::FieldSchema>,
}

/// An ability kind as the checker sees it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KindSym {
    /// Qualified id.
    pub id: ir::Id,
    /// Core semantics.
    pub semantics: ir::Semantics,
    /// Zone it works from.
    pub from_zone: Option<ir::Id>,
}

/// Every name in scope for a game's cards.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Symbols {
    /// The game's id.
    pub game: String,
    /// Zones by name.
    pub zones: HashMap<String, ZoneSym>,
    /// States (group members and flags) by name.
    pub states: HashMap<String, StateSym>,
    /// State groups by name (not usable as a state themselves).
    pub state_groups: HashMap<String, ir::Id>,
    /// Stats by name.
    pub stats: HashMap<String, StatSym>,
    /// Layer ids by operator.
    pub layer_ops: HashMap<String, ir::Id>,
    /// Layers by name (those applied by name have no operator).
    pub layers: HashMap<String, (ir::Id, bool)>,
    /// Counters by name.
    pub counters: HashMap<String, CounterSym>,
    /// Card types by name.
    pub card_types: HashMap<String, CardTypeSym>,
    /// Keywords by name.
    pub keywords: HashMap<String, Callable>,
    /// The keywords held by players (declared `= player`), by name.
    #[serde(default)]
    pub player_keywords: std::collections::BTreeSet<String>,
    /// Ability kinds by name.
    pub kinds: HashMap<String, KindSym>,
    /// Attributes by name.
    pub attributes: HashMap<String, ir::Id>,
    /// Events by name.
    pub events: HashMap<String, Callable>,
    /// Moments by name.
    pub moments: HashMap<String, ir::Id>,
    /// Verbs by name.
    pub verbs: HashMap<String, Callable>,
    /// Procedures by name.
    pub procedures: HashMap<String, Callable>,
    /// Player actions by name (what windows offer), to their ids.
    pub actions: HashMap<String, String>,
    /// Schema field names of every card type (for filters and declarations).
    pub field_names: HashMap<String, ir::FieldType>,
    /// Slot relations by name (`facing`): a card's related card across the table.
    pub relations: HashMap<String, String>,
    /// Card-number normalization of the game.
    pub number_rules: Vec<ir::NormRule>,
    /// Name normalization of the game.
    pub name_rules: Vec<ir::NormRule>,
    /// Where each name was declared (duplicate checks): (namespace, name) → origin.
    pub origins: HashMap<(String, String), Origin>,
    /// Functions of pack scripts by name: each definition's number of parameters, its id
    /// (`pack:name`) and the script's path (the first script of a pack, by path, defining a
    /// name with a number of parameters is the one called).
    #[serde(default)]
    pub script_functions: BTreeMap<String, Vec<ScriptFnSym>>,
}

/// A function of a pack script, as `script f(…)` calls it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScriptFnSym {
    /// How many arguments it takes.
    pub arity: usize,
    /// Its id: `pack:name`.
    pub id: String,
    /// The script that defines it, inside its pack.
    pub path: String,
}

impl Symbols {
    /// Adds every name of `other` (a pack this one requires).
    pub fn merge(&mut self, other: &Symbols) {
        if self.game.is_empty() {
            self.game = other.game.clone();
        }
        add_all(&mut self.zones, &other.zones);
        add_all(&mut self.states, &other.states);
        add_all(&mut self.state_groups, &other.state_groups);
        add_all(&mut self.stats, &other.stats);
        add_all(&mut self.layer_ops, &other.layer_ops);
        add_all(&mut self.layers, &other.layers);
        add_all(&mut self.counters, &other.counters);
        add_all(&mut self.card_types, &other.card_types);
        add_all(&mut self.keywords, &other.keywords);
        self.player_keywords
            .extend(other.player_keywords.iter().cloned());
        add_all(&mut self.kinds, &other.kinds);
        add_all(&mut self.attributes, &other.attributes);
        add_all(&mut self.events, &other.events);
        add_all(&mut self.moments, &other.moments);
        add_all(&mut self.verbs, &other.verbs);
        add_all(&mut self.procedures, &other.procedures);
        add_all(&mut self.actions, &other.actions);
        add_all(&mut self.field_names, &other.field_names);
        add_all(&mut self.relations, &other.relations);
        add_all(&mut self.origins, &other.origins);
        for (name, defs) in &other.script_functions {
            let into = self.script_functions.entry(name.clone()).or_default();
            for d in defs {
                if !into.iter().any(|x| x.arity == d.arity) {
                    into.push(d.clone());
                }
            }
        }
        if self.number_rules.is_empty() {
            self.number_rules = other.number_rules.clone();
        }
        if self.name_rules.is_empty() {
            self.name_rules = other.name_rules.clone();
        }
    }
}

impl Symbols {
    /// Adds the functions of a pack's scripts (its own come before its requirements': a name
    /// and number of parameters the pack defines again is the pack's).
    pub fn add_script_functions(
        &mut self,
        pack: &str,
        scripts: &[crate::compiler::script::Script],
    ) {
        for s in scripts {
            for (name, arity, _) in &s.functions {
                let defs = self.script_functions.entry(name.clone()).or_default();
                let def = ScriptFnSym {
                    arity: *arity,
                    id: format!("{pack}:{name}"),
                    path: s.path.clone(),
                };
                match defs.iter_mut().find(|d| d.arity == *arity) {
                    Some(d) if d.id != def.id => *d = def,
                    Some(_) => {}
                    None => defs.push(def),
                }
            }
        }
    }
}

/// Adds every entry of `from` to `into`, replacing an entry of the same key.
fn add_all<K: Clone + Eq + Hash, V: Clone>(into: &mut HashMap<K, V>, from: &HashMap<K, V>) {
    into.extend(from.iter().map(|(k, v)| (k.clone(), v.clone())));
}

/// Core zone properties.
pub const ZONE_PROPS: &[&str] = &[
    "public",
    "private",
    "owner_sees",
    "ordered",
    "unordered",
    "per_player",
    "shared",
    "bare_means_every",
    "in_play",
    "to_owner",
    "shuffle_when_seen",
];
/// Core field types of card-type schemas.
pub const FIELD_TYPES: &[&str] = &["number", "text", "bool", "stat"];
/// Core value types of parameters.
pub const VALUE_TYPES: &[&str] = &[
    "number", "bool", "text", "card", "cards", "player", "zone", "pair",
];
/// Core ability semantics.
pub const SEMANTICS: &[&str] = &["activated", "triggered", "continuous", "replacement"];
/// Core keyword meanings.
pub const KEYWORD_MEANINGS: &[&str] = &["untargetable", "player"];
/// Core event meanings (`event relocates(…) = move`).
pub const CORE_EVENTS: &[&str] = &["move", "enter", "leave", "declare"];
/// Core attribute flags.
pub const ATTRIBUTE_FLAGS: &[&str] = &["unnegatable", "carried", "response"];
/// Core normalization rules.
pub const NORM_RULES: &[&str] = &[
    "nfkc",
    "fold_spaces",
    "remove_spaces",
    "trim",
    "uppercase",
    "lowercase",
    "strip_prefix",
    "strip_suffix",
];
/// Core deck rules.
pub const DECK_RULES: &[&str] = &["size", "min_size", "max_size", "copies", "max"];
/// The qualifiers of a `copies` deck rule.
pub const COPIES_PER: &[&str] = &["per_number", "per_name"];
/// The bounds of a deck format's constraints.
pub const FORMAT_BOUNDS: &[&str] = &["exactly", "at_least", "at_most"];
/// Fields every card has.
pub const COMMON_FIELDS: &[&str] = &["number", "type", "keywords", "name"];

/// The core meaning of an event, by its name in `= …`.
pub fn core_event(name: &str) -> Option<ir::CoreEvent> {
    Some(match name {
        "move" => ir::CoreEvent::Move,
        "enter" => ir::CoreEvent::Enter,
        "leave" => ir::CoreEvent::Leave,
        "declare" => ir::CoreEvent::Declare,
        _ => return None,
    })
}

/// Parses a value type name.
pub fn value_type(name: &str) -> Option<Type> {
    Some(match name {
        "number" => Type::Number,
        "bool" => Type::Bool,
        "text" => Type::Text,
        "card" => Type::Card,
        "cards" => Type::Cards,
        "player" => Type::Player,
        "zone" => Type::Zone,
        "pair" => Type::Pair,
        _ => return None,
    })
}

/// Collects declarations into [`Symbols`] and the IR ruleset skeleton
/// (procedure bodies are filled in later by the resolver).
pub struct Declarer<'a> {
    /// The table being built.
    pub sym: &'a mut Symbols,
    /// The IR ruleset being built.
    pub ruleset: &'a mut ir::Ruleset,
    /// Diagnostics.
    pub diags: &'a mut Vec<Diagnostic>,
    /// The qualifier of ids declared here (the pack's name).
    pub pack: String,
    /// The file being read.
    pub file: FileId,
}

impl Declarer<'_> {
    /// `name` qualified by the pack: its id.
    fn qualify(&self, name: &str) -> String {
        format!("{}:{}", self.pack, name)
    }

    /// Records a declaration of `name` in namespace `ns`; false (and a diagnostic) when it is a duplicate.
    fn claim(&mut self, ns: &'static str, name: &ast::Ident) -> bool {
        let key = (ns.to_string(), name.name.clone());
        if let Some(prev) = self.sym.origins.get(&key) {
            self.diags.push(
                Diagnostic::error(
                    codes::RESOLVE_DUPLICATE_DECLARATION,
                    self.file,
                    name.span,
                    format!("{ns} `{}` is declared twice", name.name),
                    "declared again here",
                )
                .with_related(Label::new(prev.file, prev.span, "first declared here"))
                .with_help("remove one of the two declarations, or rename one"),
            );
            return false;
        }
        self.sym.origins.insert(
            key,
            Origin {
                file: self.file,
                span: name.span,
            },
        );
        true
    }

    /// Reports a word that is none of the core's `allowed` words for `what`.
    fn report_invalid(&mut self, span: Span, what: &str, got: &str, allowed: &[&str]) {
        let help = did_you_mean(got, allowed.iter().copied())
            .unwrap_or_else(|| format!("one of: {}", allowed.join(", ")));
        self.diags.push(
            Diagnostic::error(
                codes::RESOLVE_INVALID_DECLARATION,
                self.file,
                span,
                format!(
                    "`{got}` is not {} {what} the core knows",
                    crate::base::diagnostic::article(what)
                ),
                format!("not {} {what}", crate::base::diagnostic::article(what)),
            )
            .with_help(help),
        );
    }

    /// The id and label of a declared name.
    fn labelled(&self, named: &ast::Named) -> ir::Labelled {
        ir::Labelled {
            id: self.qualify(&named.name.name).into(),
            label: named.label.as_ref().map(|l| l.value.clone()),
            phrases: super::phrases::phrases_ir(named),
        }
    }

    /// Parameter signatures, checking type names.
    pub fn params(&mut self, params: &[ast::Param]) -> Vec<ParamSig> {
        params
            .iter()
            .map(|p| {
                let mut types = Vec::new();
                for t in &p.types {
                    match value_type(&t.name) {
                        Some(ty) => types.push(ty),
                        None => self.report_invalid(t.span, "value type", &t.name, VALUE_TYPES),
                    }
                }
                ParamSig {
                    name: p.name.name.clone(),
                    types,
                    optional: p.optional,
                    has_default: p.default.is_some(),
                }
            })
            .collect()
    }

    /// First pass over one declaration: records its name and non-body data. One method per
    /// declaration kind; bodies (verbs, procedures, actions, rules, `setup`, `turn`) are
    /// resolved later, once every name is known.
    pub fn declare(&mut self, decl: &Decl) {
        match decl {
            Decl::Players(n, span) => self.declare_players(*n, *span),
            Decl::Zone(z) => self.declare_zone(z),
            Decl::State(s) => self.declare_state(s),
            Decl::Stat(s) => self.declare_stat(s),
            Decl::Layer(l) => self.declare_layer(l),
            Decl::Counter(c) => self.declare_counter(c),
            Decl::CardType(t) => self.declare_card_type(t),
            Decl::Durations(m) => self.declare_default_duration(m),
            Decl::TriggerOrder(w) => self.declare_trigger_order(w),
            Decl::Keyword(k) => self.declare_keyword(k),
            Decl::AbilityKind(a) => self.declare_ability_kind(a),
            Decl::Attribute(a) => self.declare_attribute(a),
            Decl::Event(e) => self.declare_event(e),
            Decl::Moment(m) => self.declare_moment(m),
            Decl::Verb(v) => self.declare_callable("verb", &v.named, &v.params, |s| &mut s.verbs),
            Decl::Procedure(p) => {
                self.declare_callable("procedure", &p.named, &p.params, |s| &mut s.procedures)
            }
            Decl::Setup(word, _) => self.declare_block("setup", *word),
            Decl::Turn(word, _) => self.declare_block("turn", *word),
            Decl::Action(a) => self.declare_action(a),
            Decl::Rule(r) => {
                self.claim("rule", &r.named.name);
            }
            Decl::Numbers(rules, _) => self.ruleset.numbers = self.norm_rules(rules),
            Decl::Names(rules, _) => self.ruleset.names = self.norm_rules(rules),
            Decl::Deck(rules, formats, _) => {
                self.declare_deck_rules(rules);
                self.declare_deck_formats(formats);
            }
        }
    }

    /// Enters `name → sym` in the table of [`Symbols`] that `table` picks: the tail every
    /// declaration kind ends with once its name is claimed.
    fn enter<S>(
        &mut self,
        table: fn(&mut Symbols) -> &mut HashMap<String, S>,
        name: &ast::Ident,
        sym: S,
    ) {
        table(self.sym).insert(name.name.clone(), sym);
    }

    /// Reports a name that names nothing of the kind expected here: the shared tail of the
    /// "unknown …" diagnostics of declarations (`help` is usually a did-you-mean).
    fn report_unknown(
        &mut self,
        code: Code,
        span: Span,
        message: String,
        label: &str,
        help: Option<String>,
    ) {
        self.diags
            .push(Diagnostic::error(code, self.file, span, message, label).with_help_opt(help));
    }

    /// `players N`: the number of seats, within 1 to [`ir::MAX_PLAYERS`].
    fn declare_players(&mut self, n: i64, span: Span) {
        let max = ir::MAX_PLAYERS as i64;
        if !(1..=max).contains(&n) {
            self.diags.push(Diagnostic::error(
                codes::RESOLVE_INVALID_DECLARATION,
                self.file,
                span,
                format!("a game has 1 to {max} players"),
                "out of range",
            ));
        }
        self.ruleset.players = n.clamp(1, max) as u32;
    }

    /// `zone …`: its properties, slots and relations.
    fn declare_zone(&mut self, z: &ast::ZoneDecl) {
        if !self.claim("zone", &z.named.name) {
            return;
        }
        let mut zone = ir::Zone {
            name: self.labelled(&z.named),
            visibility: ir::Visibility::Public,
            ordered: false,
            per_player: true,
            bare_means_every: false,
            in_play: false,
            to_owner: false,
            shuffle_when_seen: false,
            slots: z.slots.iter().map(|s| s.name.clone()).collect(),
            relations: Vec::new(),
            groups: Vec::new(),
        };
        for p in &z.props {
            self.zone_property(&mut zone, p);
        }
        for r in &z.relations {
            self.declare_relation(&mut zone, &z.named.name.name, r);
        }
        for g in &z.groups {
            self.declare_group(&mut zone, &z.named.name.name, g);
        }
        self.enter(
            |s| &mut s.zones,
            &z.named.name,
            ZoneSym {
                id: zone.name.id,
                slots: zone.slots.clone(),
                groups: zone.groups.iter().map(|g| g.name.clone()).collect(),
                ordered: zone.ordered,
            },
        );
        self.ruleset.zones.push(zone);
    }

    /// Applies one zone property word to `zone`.
    fn zone_property(&mut self, zone: &mut ir::Zone, p: &ast::Ident) {
        match p.name.as_str() {
            "public" => zone.visibility = ir::Visibility::Public,
            "private" => zone.visibility = ir::Visibility::Private,
            "owner_sees" => zone.visibility = ir::Visibility::OwnerSees,
            "ordered" => zone.ordered = true,
            "unordered" => zone.ordered = false,
            "per_player" => zone.per_player = true,
            "shared" => zone.per_player = false,
            "bare_means_every" => zone.bare_means_every = true,
            "in_play" => zone.in_play = true,
            "to_owner" => zone.to_owner = true,
            "shuffle_when_seen" => zone.shuffle_when_seen = true,
            other => self.report_invalid(p.span, "zone property", other, ZONE_PROPS),
        }
    }

    /// `relation facing: a <-> b` in a zone (named `zone_name`): its slots must be the zone's.
    fn declare_relation(&mut self, zone: &mut ir::Zone, zone_name: &str, r: &ast::RelationDecl) {
        for (a, b) in &r.pairs {
            for s in [a, b] {
                if !zone.slots.contains(&s.name) {
                    let help = did_you_mean(&s.name, zone.slots.iter().map(String::as_str));
                    self.report_unknown(
                        codes::RESOLVE_UNKNOWN_NAME,
                        s.span,
                        format!("zone `{zone_name}` has no slot `{}`", s.name),
                        "unknown slot",
                        help,
                    );
                }
            }
        }
        self.sym.relations.insert(
            r.name.name.clone(),
            format!("{}.{}", zone.name.id, r.name.name),
        );
        zone.relations.push(ir::Relation {
            name: r.name.name.clone(),
            pairs: r
                .pairs
                .iter()
                .map(|(a, b)| (a.name.clone(), b.name.clone()))
                .collect(),
        });
    }

    /// `group row "label": a, b` in a zone (named `zone_name`): a new name (no slot's, no other
    /// group's) for slots of the zone.
    fn declare_group(&mut self, zone: &mut ir::Zone, zone_name: &str, g: &ast::GroupDecl) {
        let name = &g.named.name;
        let taken =
            zone.slots.contains(&name.name) || zone.groups.iter().any(|x| x.name == name.name);
        if taken {
            self.diags.push(
                Diagnostic::error(
                    codes::RESOLVE_DUPLICATE_DECLARATION,
                    self.file,
                    name.span,
                    format!(
                        "zone `{zone_name}` already has a slot or group `{}`",
                        name.name
                    ),
                    "declared again here",
                )
                .with_help("a group needs a name of its own: `at <name>` reads either"),
            );
            return;
        }
        for s in &g.slots {
            if !zone.slots.contains(&s.name) {
                let help = did_you_mean(&s.name, zone.slots.iter().map(String::as_str));
                self.report_unknown(
                    codes::RESOLVE_UNKNOWN_SLOT,
                    s.span,
                    format!("zone `{zone_name}` has no slot `{}`", s.name),
                    "unknown slot",
                    help,
                );
            }
        }
        zone.groups.push(ir::SlotGroup {
            name: name.name.clone(),
            label: g.named.label.as_ref().map(|l| l.value.clone()),
            slots: g.slots.iter().map(|s| s.name.clone()).collect(),
        });
    }

    /// `state …`: a flag (no members), or an exclusive group whose members are the states.
    fn declare_state(&mut self, s: &ast::StateDecl) {
        if !self.claim("state", &s.named.name) {
            return;
        }
        let group = self.labelled(&s.named);
        if s.members.is_empty() {
            let flag = StateSym {
                id: group.id,
                flag: true,
            };
            self.enter(|t| &mut t.states, &s.named.name, flag);
        } else {
            self.enter(|t| &mut t.state_groups, &s.named.name, group.id);
        }
        let mut members = Vec::new();
        for m in &s.members {
            if !self.claim("state", &m.name) {
                continue;
            }
            let l = self.labelled(m);
            let member = StateSym {
                id: l.id,
                flag: false,
            };
            self.enter(|t| &mut t.states, &m.name, member);
            members.push(l);
        }
        self.ruleset.states.push(ir::StateGroup {
            name: group,
            members,
        });
    }

    /// `stat …`: plain (with an optional floor), or composite of plain stats declared above.
    fn declare_stat(&mut self, s: &ast::StatDecl) {
        if !self.claim("stat", &s.named.name) {
            return;
        }
        let components = s
            .components
            .iter()
            .filter_map(|c| self.stat_component(c))
            .collect();
        let floor = self.stat_floor(&s.props);
        let stat = ir::Stat {
            name: self.labelled(&s.named),
            components,
            floor,
        };
        // Even with a bad component, the stat stays composite: no cascade of pair errors.
        let sym = StatSym {
            id: stat.name.id,
            components: s.components.len(),
            parts: s.components.iter().map(|c| c.name.clone()).collect(),
        };
        self.enter(|t| &mut t.stats, &s.named.name, sym);
        self.ruleset.stats.push(stat);
    }

    /// The id of a composite stat's component: a plain stat declared above.
    fn stat_component(&mut self, c: &ast::Ident) -> Option<ir::Id> {
        if let Some(st) = self.sym.stats.get(&c.name) {
            if st.components == 0 {
                return Some(st.id);
            }
        }
        let help = did_you_mean(&c.name, self.sym.stats.keys().map(String::as_str))
            .or_else(|| Some("declare the component stats before the composite".into()));
        self.report_unknown(
            codes::RESOLVE_UNKNOWN_STAT,
            c.span,
            format!("unknown stat `{}`", c.name),
            "not a plain stat declared above",
            help,
        );
        None
    }

    /// A stat's properties: only `floor <n>` is one (the last one written counts).
    fn stat_floor(&mut self, props: &[(ast::Ident, Option<i64>)]) -> Option<i64> {
        let mut floor = None;
        for (p, v) in props {
            match (p.name.as_str(), v) {
                ("floor", Some(v)) => floor = Some(*v),
                _ => self.report_invalid(p.span, "stat property", &p.name, &["floor <n>"]),
            }
        }
        floor
    }

    /// `layer …`: a modifier layer and the operators that select it.
    fn declare_layer(&mut self, l: &ast::LayerDecl) {
        if !self.claim("layer", &l.named.name) {
            return;
        }
        let layer = ir::Layer {
            name: self.labelled(&l.named),
            ops: l.ops.iter().map(|(o, _)| o.clone()).collect(),
        };
        for (op, span) in &l.ops {
            self.claim_operator(op, *span, &layer.name.id);
        }
        let sym = (layer.name.id, layer.ops.is_empty());
        self.enter(|t| &mut t.layers, &l.named.name, sym);
        self.ruleset.layers.push(layer);
    }

    /// Makes operator `op` select the layer `layer`; a diagnostic when another layer has it.
    fn claim_operator(&mut self, op: &str, span: Span, layer: &str) {
        // The grammar only accepts the core operators; a second claim is the error.
        let key = ("operator".to_string(), op.to_string());
        if let Some(prev) = self.sym.origins.get(&key).copied() {
            let owner = self
                .sym
                .layer_ops
                .get(op)
                .map(|id| id.rsplit(':').next().unwrap_or(id).to_string())
                .unwrap_or_default();
            self.diags.push(
                Diagnostic::error(
                    codes::RESOLVE_DUPLICATE_DECLARATION,
                    self.file,
                    span,
                    format!("operator `{op}` already selects layer `{owner}`"),
                    "claimed again here",
                )
                .with_related(Label::new(prev.file, prev.span, "first claimed here"))
                .with_help("each operator selects one layer"),
            );
        } else {
            self.sym.origins.insert(
                key,
                Origin {
                    file: self.file,
                    span,
                },
            );
            self.sym
                .layer_ops
                .insert(op.to_string(), ir::Id::from(layer));
        }
    }

    /// `counter … on player, card`: a number kept on players and/or cards.
    fn declare_counter(&mut self, c: &ast::CounterDecl) {
        if !self.claim("counter", &c.named.name) {
            return;
        }
        let mut on_players = false;
        let mut on_cards = false;
        for o in &c.on {
            match o.name.as_str() {
                "player" => on_players = true,
                "card" => on_cards = true,
                other => self.report_invalid(o.span, "counter holder", other, &["player", "card"]),
            }
        }
        let counter = ir::Counter {
            name: self.labelled(&c.named),
            on_players,
            on_cards,
        };
        let sym = CounterSym {
            id: counter.name.id,
            on_players,
            on_cards,
        };
        self.enter(|t| &mut t.counters, &c.named.name, sym);
        self.ruleset.counters.push(counter);
    }

    /// `card_type …`: its field schema, and the card type it also counts as.
    fn declare_card_type(&mut self, t: &ast::CardTypeDecl) {
        if !self.claim("card type", &t.named.name) {
            return;
        }
        let mut fields: Vec<ir::FieldSchema> = Vec::new();
        for f in &t.fields {
            if let Some(field) = self.field_schema(f, &fields) {
                fields.push(field);
            }
        }
        let counts_as = t
            .counts_as
            .as_ref()
            .and_then(|(ty, zone)| self.counts_as(ty, zone.as_ref()))
            .map(|c| ir::CountsAs {
                unless: t
                    .counts_as_unless
                    .as_ref()
                    .and_then(|s| self.counts_as_unless(s)),
                ..c
            });
        let ct = ir::CardType {
            name: self.labelled(&t.named),
            counts_as,
            fields,
        };
        let sym = CardTypeSym {
            id: ct.name.id,
            fields: ct.fields.clone(),
        };
        self.enter(|s| &mut s.card_types, &t.named.name, sym);
        self.ruleset.card_types.push(ct);
    }

    /// One field of a card type's schema (`earlier`: the fields before it); `None` when it
    /// repeats a built-in or earlier field, or its type is unknown.
    fn field_schema(
        &mut self,
        f: &ast::FieldDecl,
        earlier: &[ir::FieldSchema],
    ) -> Option<ir::FieldSchema> {
        if COMMON_FIELDS.contains(&f.name.name.as_str()) {
            self.diags.push(
                Diagnostic::error(
                    codes::RESOLVE_DUPLICATE_DECLARATION,
                    self.file,
                    f.name.span,
                    format!("every card already has a `{}` field", f.name.name),
                    "built in",
                )
                .with_help("remove this line"),
            );
            return None;
        }
        if earlier.iter().any(|g| g.name == f.name.name) {
            self.diags.push(Diagnostic::error(
                codes::RESOLVE_DUPLICATE_DECLARATION,
                self.file,
                f.name.span,
                format!("field `{}` is declared twice", f.name.name),
                "again here",
            ));
            return None;
        }
        let ty = self.field_type(f)?;
        self.sym
            .field_names
            .entry(f.name.name.clone())
            .or_insert_with(|| ty.clone());
        Some(ir::FieldSchema {
            name: f.name.name.clone(),
            ty,
            optional: f.mult.is_some(),
            list: f.mult == Some('*'),
        })
    }

    /// A schema field's type; a `stat` field must be named after a declared stat.
    fn field_type(&mut self, f: &ast::FieldDecl) -> Option<ir::FieldType> {
        Some(match f.ty.name.as_str() {
            "number" => ir::FieldType::Number,
            "text" => ir::FieldType::Text,
            "bool" => ir::FieldType::Bool,
            "stat" => match self.sym.stats.get(&f.name.name) {
                Some(s) => ir::FieldType::Stat(s.id),
                None => {
                    let help =
                        did_you_mean(&f.name.name, self.sym.stats.keys().map(String::as_str));
                    self.report_unknown(
                        codes::RESOLVE_UNKNOWN_STAT,
                        f.name.span,
                        format!(
                            "a `stat` field must be named after a stat; `{}` is none",
                            f.name.name
                        ),
                        "no such stat",
                        help,
                    );
                    return None;
                }
            },
            other => {
                self.report_invalid(f.ty.span, "field type", other, FIELD_TYPES);
                return None;
            }
        })
    }

    /// `counts_as <card type> [in <zone>]`: the card type must be declared before this one.
    fn counts_as(&mut self, ty: &ast::Ident, zone: Option<&ast::Ident>) -> Option<ir::CountsAs> {
        let Some(target) = self.sym.card_types.get(&ty.name).map(|c| c.id) else {
            let help = did_you_mean(&ty.name, self.sym.card_types.keys().map(String::as_str))
                .unwrap_or_else(|| "declare that card type before this one".into());
            self.report_unknown(
                codes::RESOLVE_UNKNOWN_CARD_TYPE,
                ty.span,
                format!("unknown card type `{}`", ty.name),
                "no card type of this name declared before",
                Some(help),
            );
            return None;
        };
        let zone = match zone {
            None => None,
            Some(z) => Some(self.zone_id(z)?),
        };
        Some(ir::CountsAs {
            card_type: target,
            zone,
            unless: None,
        })
    }

    /// `… unless <state>`: a state declared before this card type.
    fn counts_as_unless(&mut self, s: &ast::Ident) -> Option<ir::Id> {
        if let Some(st) = self.sym.states.get(&s.name) {
            return Some(st.id);
        }
        let help = did_you_mean(&s.name, self.sym.states.keys().map(String::as_str))
            .unwrap_or_else(|| "declare that state before this card type".into());
        self.report_unknown(
            codes::RESOLVE_UNKNOWN_STATE,
            s.span,
            format!("unknown state `{}`", s.name),
            "no state of this name declared before",
            Some(help),
        );
        None
    }

    /// `durations until <moment>`: the default duration of effects that name none.
    fn declare_default_duration(&mut self, m: &ast::Ident) {
        match self.sym.moments.get(&m.name) {
            Some(id) => self.ruleset.default_duration = Some(*id),
            None => {
                let help = did_you_mean(&m.name, self.sym.moments.keys().map(String::as_str))
                    .unwrap_or_else(|| "declare it with `moment` first".into());
                self.report_unknown(
                    codes::RESOLVE_UNKNOWN_MOMENT,
                    m.span,
                    format!("unknown moment `{}`", m.name),
                    "no moment of this name",
                    Some(help),
                );
            }
        }
    }

    /// `trigger_order <who>`: who orders triggered abilities waiting at once.
    fn declare_trigger_order(&mut self, w: &ast::Ident) {
        match w.name.as_str() {
            "controller" => self.ruleset.trigger_order = ir::TriggerOrder::Controller,
            "turn_player" => self.ruleset.trigger_order = ir::TriggerOrder::TurnPlayer,
            other => self.report_invalid(
                w.span,
                "trigger order",
                other,
                &["controller", "turn_player"],
            ),
        }
    }

    /// `keyword …`: a callable keyword, with an optional core meaning.
    fn declare_keyword(&mut self, k: &ast::KeywordDecl) {
        if let Some(sem) = &k.semantics {
            if !KEYWORD_MEANINGS.contains(&sem.name.as_str()) {
                self.report_invalid(sem.span, "keyword meaning", &sem.name, KEYWORD_MEANINGS);
            }
            if sem.name == "player" {
                self.declare_player_keyword(k, sem.span);
            }
        }
        self.declare_callable("keyword", &k.named, &k.params, |s| &mut s.keywords);
    }

    /// `keyword k "…" = player`: a keyword held by players; it takes no values.
    fn declare_player_keyword(&mut self, k: &ast::KeywordDecl, span: Span) {
        self.sym.player_keywords.insert(k.named.name.name.clone());
        if !k.params.is_empty() {
            self.diags.push(
                Diagnostic::error(
                    codes::RESOLVE_INVALID_DECLARATION,
                    self.file,
                    span,
                    format!("player keyword `{}` cannot take values", k.named.name.name),
                    "a keyword of players",
                )
                .with_help("a keyword held by players is on or off: remove its parameters"),
            );
        }
    }

    /// `event …`: a callable event, with a core meaning whose payload is checked.
    fn declare_event(&mut self, e: &ast::EventDecl) {
        if let Some(core) = &e.core {
            self.check_core_event(e, core);
        }
        self.declare_callable("event", &e.named, &e.params, |s| &mut s.events);
    }

    /// Claims a callable's name in namespace `ns` and enters its signature in `table`
    /// (keywords, events, verbs, procedures).
    fn declare_callable(
        &mut self,
        ns: &'static str,
        named: &ast::Named,
        params: &[ast::Param],
        table: fn(&mut Symbols) -> &mut HashMap<String, Callable>,
    ) {
        if !self.claim(ns, &named.name) {
            return;
        }
        let params = self.params(params);
        let id = self.qualify(&named.name.name);
        self.enter(
            table,
            &named.name,
            Callable {
                id: id.into(),
                params,
            },
        );
    }

    /// `ability … = <semantics> [from <zone>]`: an ability kind on a core semantics.
    fn declare_ability_kind(&mut self, a: &ast::MappedDecl) {
        if !self.claim("ability kind", &a.named.name) {
            return;
        }
        let semantics = match a.semantics.name.as_str() {
            "activated" => ir::Semantics::Activated,
            "triggered" => ir::Semantics::Triggered,
            "continuous" => ir::Semantics::Continuous,
            "replacement" => ir::Semantics::Replacement,
            other => {
                self.report_invalid(a.semantics.span, "ability semantics", other, SEMANTICS);
                return;
            }
        };
        let from_zone = a.from_zone.as_ref().and_then(|z| self.zone_id(z));
        if let (Some(span), false) = (a.optional_cost, semantics == ir::Semantics::Triggered) {
            self.report_optional_cost(span, &a.named.name.name);
        }
        let kind = ir::AbilityKind {
            name: self.labelled(&a.named),
            semantics,
            from_zone,
            optional_cost: a.optional_cost.is_some() && semantics == ir::Semantics::Triggered,
        };
        let sym = KindSym {
            id: kind.name.id,
            semantics,
            from_zone,
        };
        self.enter(|s| &mut s.kinds, &a.named.name, sym);
        self.ruleset.ability_kinds.push(kind);
    }

    /// `optional_cost` on a kind that is not `triggered`: only a triggered ability's cost is
    /// paid as it resolves, where its controller may decline it.
    fn report_optional_cost(&mut self, span: Span, kind: &str) {
        self.diags.push(
            Diagnostic::error(
                codes::RESOLVE_INVALID_DECLARATION,
                self.file,
                span,
                format!("`optional_cost` is for triggered ability kinds; `{kind}` is not one"),
                "only a triggered ability's cost is paid as it resolves",
            )
            .with_help(
                "an activated ability is used only when its player wants, so its cost is optional \
                 already; remove `optional_cost`",
            ),
        );
    }

    /// `attribute … = <flag>`: an ability attribute on a core flag.
    fn declare_attribute(&mut self, a: &ast::MappedDecl) {
        if !self.claim("attribute", &a.named.name) {
            return;
        }
        let semantics = match a.semantics.name.as_str() {
            "unnegatable" => ir::AttributeSemantics::Unnegatable,
            "carried" => ir::AttributeSemantics::Carried,
            "response" => ir::AttributeSemantics::Response,
            other => {
                self.report_invalid(a.semantics.span, "attribute flag", other, ATTRIBUTE_FLAGS);
                return;
            }
        };
        let attr = ir::Attribute {
            name: self.labelled(&a.named),
            semantics,
        };
        self.enter(|s| &mut s.attributes, &a.named.name, attr.name.id);
        self.ruleset.attributes.push(attr);
    }

    /// `moment …`: a moment durations can end at.
    fn declare_moment(&mut self, m: &ast::Named) {
        if !self.claim("moment", &m.name) {
            return;
        }
        let l = self.labelled(m);
        self.enter(|s| &mut s.moments, &m.name, l.id);
        self.ruleset.moments.push(l);
    }

    /// `action …`: its name (the body is resolved with the other bodies).
    fn declare_action(&mut self, a: &ast::ActionDecl) {
        if !self.claim("action", &a.named.name) {
            return;
        }
        let id = self.qualify(&a.named.name.name);
        self.enter(|s| &mut s.actions, &a.named.name, id);
    }

    /// `setup` or `turn` (`what`), written at `word`: a ruleset has at most one of each.
    fn declare_block(&mut self, what: &'static str, word: Span) {
        let key = ("block".to_string(), what.to_string());
        if let Some(prev) = self.sym.origins.get(&key) {
            self.diags.push(
                Diagnostic::error(
                    codes::RESOLVE_DUPLICATE_DECLARATION,
                    self.file,
                    word,
                    format!("a ruleset has one `{what}` block; this is a second one"),
                    "a second one",
                )
                .with_related(Label::new(prev.file, prev.span, "the first one"))
                .with_help(format!("merge the two into one `{what} {{ … }}`")),
            );
            return;
        }
        self.sym.origins.insert(
            key,
            Origin {
                file: self.file,
                span: word,
            },
        );
    }

    /// `deck { … }`: the deck construction rules.
    fn declare_deck_rules(&mut self, rules: &[ast::DeckRule]) {
        for r in rules {
            if let Some(rule) = self.deck_rule(r) {
                self.ruleset.deck.push(rule);
            }
        }
    }

    /// One deck rule; `None` (and a diagnostic) when its name or qualifier is unknown.
    fn deck_rule(&mut self, r: &ast::DeckRule) -> Option<ir::DeckRule> {
        let value = r.value.clamp(0, u32::MAX as i64) as u32;
        Some(match (r.name.name.as_str(), &r.qualifier) {
            ("size", None) => ir::DeckRule::Size(value),
            ("min_size", None) => ir::DeckRule::MinSize(value),
            ("max_size", None) => ir::DeckRule::MaxSize(value),
            ("copies", Some(q)) if r.and.is_some() && COPIES_PER.contains(&q.name.as_str()) => {
                let per = if q.name == "per_name" {
                    ir::CopiesPer::Name
                } else {
                    ir::CopiesPer::Number
                };
                let field = self.deck_field(r.and.as_ref()?)?;
                ir::DeckRule::CopiesAnd {
                    max: value,
                    per,
                    field,
                }
            }
            (_, _) if r.and.is_some() => {
                let and = r.and.as_ref()?;
                self.diags.push(
                    Diagnostic::error(
                        codes::RESOLVE_INVALID_DECLARATION,
                        self.file,
                        and.span,
                        format!("`and {}` goes only with a `copies` rule", and.name),
                        "not after this rule",
                    )
                    .with_help("write `copies N per_number and <field>`"),
                );
                return None;
            }
            ("copies", Some(q)) if q.name == "per_number" => ir::DeckRule::Copies {
                max: value,
                per: ir::CopiesPer::Number,
            },
            ("copies", Some(q)) if q.name == "per_name" => ir::DeckRule::Copies {
                max: value,
                per: ir::CopiesPer::Name,
            },
            ("max", Some(q)) => ir::DeckRule::MaxOfType {
                max: value,
                card_type: self.card_type_id(q)?,
            },
            ("copies", Some(q)) => {
                self.report_invalid(q.span, "copies qualifier", &q.name, COPIES_PER);
                return None;
            }
            (name, _) => {
                self.report_invalid(r.name.span, "deck rule", name, DECK_RULES);
                return None;
            }
        })
    }

    /// The `format`s of a `deck { … }` block, each name declared once.
    fn declare_deck_formats(&mut self, formats: &[ast::DeckFormat]) {
        for f in formats {
            if !self.claim("deck format", &f.named.name) {
                continue;
            }
            let rules = f.rules.iter().filter_map(|r| self.format_rule(r)).collect();
            self.ruleset.deck.push(ir::DeckRule::Format(ir::DeckFormat {
                name: f.named.name.name.clone(),
                label: f.named.label.as_ref().map(|l| l.value.clone()),
                rules,
            }));
        }
    }

    /// One constraint of a deck format; `None` (and a diagnostic) when a word or field is wrong.
    fn format_rule(&mut self, r: &ast::FormatRule) -> Option<ir::FormatRule> {
        let (ast::FormatRule::Distinct {
            field,
            bound,
            value,
        }
        | ast::FormatRule::PerValue {
            bound,
            value,
            field,
        }) = r;
        let bound = match bound.name.as_str() {
            "exactly" => Some(ir::Bound::Exactly),
            "at_least" => Some(ir::Bound::AtLeast),
            "at_most" => Some(ir::Bound::AtMost),
            other => {
                self.report_invalid(bound.span, "format bound", other, FORMAT_BOUNDS);
                None
            }
        };
        let field = self.deck_field(field);
        let (bound, field) = (bound?, field?);
        let value = (*value).clamp(0, u32::MAX as i64) as u32;
        Some(match r {
            ast::FormatRule::Distinct { .. } => ir::FormatRule::Distinct {
                field,
                bound,
                value,
            },
            ast::FormatRule::PerValue { .. } => ir::FormatRule::PerValue {
                field,
                bound,
                value,
            },
        })
    }

    /// A field a deck rule counts cards by: a required, single, non-stat field of every card
    /// type declared so far (so every card of a deck has one value of it).
    fn deck_field(&mut self, f: &ast::Ident) -> Option<String> {
        let types = &self.ruleset.card_types;
        let short = |id: &str| id.rsplit(':').next().unwrap_or(id).to_string();
        let having: Vec<(String, &ir::FieldSchema)> = types
            .iter()
            .filter_map(|t| {
                let schema = t.fields.iter().find(|s| s.name == f.name)?;
                Some((short(&t.name.id), schema))
            })
            .collect();
        let (message, help) = if having.is_empty() {
            let names = types
                .iter()
                .flat_map(|t| &t.fields)
                .filter(|s| !matches!(s.ty, ir::FieldType::Stat(_)))
                .map(|s| s.name.as_str());
            let help = did_you_mean(&f.name, names).unwrap_or_else(|| {
                "a deck rule counts cards by a field their card types declare (declared above \
                 the `deck` block)"
                    .into()
            });
            (format!("no card type has a field `{}`", f.name), help)
        } else if let Some(t) = types
            .iter()
            .find(|t| !t.fields.iter().any(|s| s.name == f.name))
        {
            (
                format!(
                    "card type `{}` has no field `{}`",
                    short(&t.name.id),
                    f.name
                ),
                format!(
                    "every card of a deck needs a value: declare `{}` on `{}` too",
                    f.name,
                    short(&t.name.id)
                ),
            )
        } else if let Some((t, s)) = having
            .iter()
            .find(|(_, s)| s.optional || s.list || matches!(s.ty, ir::FieldType::Stat(_)))
        {
            let what = if s.optional {
                "optional"
            } else if s.list {
                "a list"
            } else {
                "a stat"
            };
            (
                format!("field `{}` of card type `{t}` is {what}", f.name),
                "a deck rule counts cards by a field holding one value on every card: a \
                 required text, number or bool"
                    .to_string(),
            )
        } else {
            return Some(f.name.clone());
        };
        self.diags.push(
            Diagnostic::error(
                codes::RESOLVE_DECK_FIELD,
                self.file,
                f.span,
                message,
                "no field to count by",
            )
            .with_help(help),
        );
        None
    }

    /// The id of a declared card type (`max N <card type>`).
    fn card_type_id(&mut self, t: &ast::Ident) -> Option<ir::Id> {
        if let Some(ct) = self.sym.card_types.get(&t.name) {
            return Some(ct.id);
        }
        let help = did_you_mean(&t.name, self.sym.card_types.keys().map(String::as_str));
        self.report_unknown(
            codes::RESOLVE_UNKNOWN_CARD_TYPE,
            t.span,
            format!("unknown card type `{}`", t.name),
            "no such card type",
            help,
        );
        None
    }

    /// Checks that an event given a core meaning (`= move`) has the payload the core fills in:
    /// its first parameters by type, and nothing else the core could not give.
    fn check_core_event(&mut self, e: &ast::EventDecl, core: &ast::Ident) {
        let (shape, written): (&[&str], &str) = match core.name.as_str() {
            "move" => (
                &["card", "zone", "zone"],
                "(card: card, from: zone, to: zone)",
            ),
            "enter" | "leave" => (&["card", "zone"], "(card: card, zone: zone)"),
            "declare" => (&["player", "text"], "(player: player, value: text)"),
            other => {
                self.report_invalid(core.span, "event meaning", other, CORE_EVENTS);
                return;
            }
        };
        let name = &e.named.name.name;
        let fits = e.params.len() >= shape.len()
            && shape
                .iter()
                .zip(&e.params)
                .all(|(t, p)| matches!(p.types.as_slice(), [one] if one.name == *t));
        if !fits {
            self.diags.push(
                Diagnostic::error(
                    codes::RESOLVE_CORE_EVENT_PAYLOAD,
                    self.file,
                    core.span,
                    format!(
                        "`= {}` needs a payload that starts with {written}",
                        core.name
                    ),
                    format!("`{name}` does not"),
                )
                .with_help(format!(
                    "the core fills the first parameters in this order (their names are free): \
                     `event {name}{written} = {}`",
                    core.name
                )),
            );
            return;
        }
        if let Some(p) = e
            .params
            .iter()
            .skip(shape.len())
            .find(|p| !p.optional && p.default.is_none())
        {
            let types: Vec<&str> = p.types.iter().map(|t| t.name.as_str()).collect();
            self.diags.push(
                Diagnostic::error(
                    codes::RESOLVE_CORE_EVENT_PAYLOAD,
                    self.file,
                    core.span,
                    format!(
                        "the core emits `{name}` without `{}`, but the parameter is required",
                        p.name.name
                    ),
                    "the core cannot give it",
                )
                .with_related(Label::new(
                    self.file,
                    p.name.span,
                    "not part of the core's payload",
                ))
                .with_help(format!(
                    "make it optional (`{}: {}?`), or remove it",
                    p.name.name,
                    types.join(" | ")
                )),
            );
        }
    }

    /// The id of a declared zone.
    fn zone_id(&mut self, z: &ast::Ident) -> Option<ir::Id> {
        if let Some(zone) = self.sym.zones.get(&z.name) {
            return Some(zone.id);
        }
        let help = did_you_mean(&z.name, self.sym.zones.keys().map(String::as_str));
        self.report_unknown(
            codes::RESOLVE_UNKNOWN_ZONE,
            z.span,
            format!("unknown zone `{}`", z.name),
            "no zone of this name",
            help,
        );
        None
    }

    /// The rules of `numbers { … }` or `names { … }`, unknown ones reported and left out.
    fn norm_rules(&mut self, rules: &[ast::NormRule]) -> Vec<ir::NormRule> {
        let mut out = Vec::new();
        for r in rules {
            let args: Vec<String> = r.args.iter().map(|a| a.value.clone()).collect();
            let rule = match r.name.name.as_str() {
                "nfkc" => ir::NormRule::Nfkc,
                "fold_spaces" => ir::NormRule::FoldSpaces,
                "remove_spaces" => ir::NormRule::RemoveSpaces,
                "trim" => ir::NormRule::Trim,
                "uppercase" => ir::NormRule::Uppercase,
                "lowercase" => ir::NormRule::Lowercase,
                "strip_prefix" => ir::NormRule::StripPrefix(args),
                "strip_suffix" => ir::NormRule::StripSuffix(args),
                other => {
                    self.report_invalid(r.name.span, "normalization rule", other, NORM_RULES);
                    continue;
                }
            };
            out.push(rule);
        }
        out
    }
}
