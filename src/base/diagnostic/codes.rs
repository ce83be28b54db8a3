//! Every diagnostic code, one constant each. `ALL` lists them so tests can
//! check that each code is hit by at least one file in `tests/errors/`.

use super::Code;

macro_rules! codes {
    ($($(#[$doc:meta])* $name:ident = $code:literal;)*) => {
        $($(#[$doc])* pub const $name: Code = Code($code);)*
        /// Every code, in declaration order.
        pub const ALL: &[Code] = &[$($name),*];
    };
}

codes! {
    /// A file is not valid UTF-8.
    SOURCE_INVALID_UTF8 = "fuda::source::invalid_utf8";
    /// A file could not be read.
    SOURCE_IO = "fuda::source::io";
    /// A character no token accepts.
    LEX_UNEXPECTED_CHAR = "fuda::lex::unexpected_char";
    /// A string with no closing quote.
    LEX_UNTERMINATED_STRING = "fuda::lex::unterminated_string";
    /// A block comment with no `*/`.
    LEX_UNTERMINATED_COMMENT = "fuda::lex::unterminated_comment";
    /// A bracket never closed.
    LEX_UNCLOSED = "fuda::lex::unclosed";
    /// A closing bracket with nothing to close.
    LEX_UNMATCHED_CLOSE = "fuda::lex::unmatched_close";
    /// Nesting beyond the limits.
    LEX_TOO_DEEP = "fuda::lex::too_deep";
    /// A syntax error.
    PARSE_SYNTAX = "fuda::parse::syntax";
    /// An integer beyond 64 bits.
    PARSE_INTEGER_TOO_LARGE = "fuda::parse::integer_too_large";
    /// Blocks nested too deep.
    PARSE_TOO_DEEP = "fuda::parse::too_deep";
    /// Too many operators in one expression.
    PARSE_TOO_COMPLEX = "fuda::parse::too_complex";
    /// A word that changes how a rule or a window works, where it cannot: `interrupt` on a
    /// declaration that is not a rule, `once` on anything but a window, either one twice.
    PARSE_MISPLACED_WORD = "fuda::parse::misplaced_word";
    /// `pack.toml` is missing or malformed.
    PACK_MANIFEST = "fuda::pack::manifest";
    /// A required pack or the game's ruleset cannot be found.
    PACK_MISSING_REQUIREMENT = "fuda::pack::missing_requirement";
    /// A file has no `game` header, or names another game than its pack.
    PACK_GAME_HEADER = "fuda::pack::game_header";
    /// Two cards of one pack share a (normalized) card number.
    PACK_DUPLICATE_NUMBER = "fuda::pack::duplicate_number";
    /// A path given on the command line does not exist or holds no source.
    PACK_NO_SOURCE = "fuda::pack::no_source";
    /// A pack's version or a version requirement of its `requires` is not semver.
    PACK_VERSION = "fuda::pack::version";
    /// A required pack was found, in a version its requirement excludes.
    PACK_UNMET_REQUIREMENT = "fuda::pack::unmet_requirement";
    /// A `files` glob, a file or a folder of a pack leads outside the pack folder.
    PACK_OUTSIDE = "fuda::pack::outside";
    /// A pack breaks a limit of safe loading: a file too large, too many files or cards.
    PACK_LIMIT = "fuda::pack::limit";
    /// Two pack folders have the same pack name.
    PACK_DUPLICATE_NAME = "fuda::pack::duplicate_name";
    /// Two packs of one game, neither requiring the other, declare the same name.
    PACK_NAME_CLASH = "fuda::pack::name_clash";
    /// A card of a pack has the number of a card of another loaded pack of the same game (a mod
    /// card numbered like a card of the game).
    PACK_NUMBER_CLASH = "fuda::pack::number_clash";
    /// A declaration a mod pack may not make (a second ruleset, a turn, deck rules, …): only
    /// the game pack it builds on may.
    RESOLVE_MOD_PACK_DECLARATION = "fuda::resolve::mod_pack_declaration";
    /// A phrase (`reads en "…"`) that cannot be printed: a hole the declaration has nothing to
    /// fill with, an unclosed hole, a language twice, an ability kind's phrase without its effect.
    RESOLVE_PHRASE = "fuda::resolve::phrase";
    /// A name printed card text needed that has no phrase in the language rendered (`fuda
    /// render`, `explain --lang`): a warning at its declaration; the text shows its label or id.
    RENDER_MISSING_PHRASE = "fuda::render::missing_phrase";
    /// A proof layout (`proof.toml`) that is not TOML, has a key the format does not have, or a
    /// value of the wrong type (`fuda proof`, docs/proofs.md).
    PROOF_SYNTAX = "fuda::proof::syntax";
    /// A proof layout's `[types.<name>]` naming no card type of the game.
    PROOF_UNKNOWN_CARD_TYPE = "fuda::proof::unknown_card_type";
    /// A proof layout's `{hole}` or `accent` naming no field of the card type (nor a card value).
    PROOF_UNKNOWN_FIELD = "fuda::proof::unknown_field";
    /// A proof layout's value of the right type but not allowed: a colour not `#rrggbb`, a size
    /// not positive, a box outside the frame, an unknown language.
    PROOF_BAD_VALUE = "fuda::proof::bad_value";
    /// A card's text that does not fit its box even at the smallest font size allowed (warning).
    PROOF_OVERFLOW = "fuda::proof::overflow";
    /// A name is declared twice.
    RESOLVE_DUPLICATE_DECLARATION = "fuda::resolve::duplicate_declaration";
    /// A declaration's property, type or semantics is not one the core knows.
    RESOLVE_INVALID_DECLARATION = "fuda::resolve::invalid_declaration";
    /// An unknown zone.
    RESOLVE_UNKNOWN_ZONE = "fuda::resolve::unknown_zone";
    /// An unknown stat or counter.
    RESOLVE_UNKNOWN_STAT = "fuda::resolve::unknown_stat";
    /// An unknown state.
    RESOLVE_UNKNOWN_STATE = "fuda::resolve::unknown_state";
    /// An unknown keyword.
    RESOLVE_UNKNOWN_KEYWORD = "fuda::resolve::unknown_keyword";
    /// An unknown event.
    RESOLVE_UNKNOWN_EVENT = "fuda::resolve::unknown_event";
    /// An unknown verb.
    RESOLVE_UNKNOWN_VERB = "fuda::resolve::unknown_verb";
    /// An unknown built-in function.
    RESOLVE_UNKNOWN_FUNCTION = "fuda::resolve::unknown_function";
    /// An unknown ability kind.
    RESOLVE_UNKNOWN_ABILITY_KIND = "fuda::resolve::unknown_ability_kind";
    /// An unknown attribute.
    RESOLVE_UNKNOWN_ATTRIBUTE = "fuda::resolve::unknown_attribute";
    /// An unknown card type.
    RESOLVE_UNKNOWN_CARD_TYPE = "fuda::resolve::unknown_card_type";
    /// A deck rule or format counts cards by a field not every card has once: no card type
    /// declares it, one lacks it, or it is optional, a list or a stat.
    RESOLVE_DECK_FIELD = "fuda::resolve::deck_field";
    /// An unknown moment (in `until`) or period (in `limit`).
    RESOLVE_UNKNOWN_MOMENT = "fuda::resolve::unknown_moment";
    /// A name that is no variable, zone or member in scope.
    RESOLVE_UNKNOWN_NAME = "fuda::resolve::unknown_name";
    /// A member (`x.name`) the value does not have.
    RESOLVE_UNKNOWN_MEMBER = "fuda::resolve::unknown_member";
    /// A named argument the verb or event does not take.
    RESOLVE_UNKNOWN_ARGUMENT = "fuda::resolve::unknown_argument";
    /// An operator no layer of the ruleset declares.
    RESOLVE_UNKNOWN_OPERATOR = "fuda::resolve::unknown_operator";
    /// A move option that is no position, face, state or slot.
    RESOLVE_UNKNOWN_OPTION = "fuda::resolve::unknown_option";
    /// A name that is no slot (or group of slots) of the zone it is read in: in a `group`, after
    /// `at`, in a slot choice; or `at` on a zone without slots.
    RESOLVE_UNKNOWN_SLOT = "fuda::resolve::unknown_slot";
    /// A slot choice that is not `choose 1 …` or `choose up to 1 …`.
    RESOLVE_INVALID_SLOT_CHOICE = "fuda::resolve::invalid_slot_choice";
    /// Too many or too few arguments.
    RESOLVE_WRONG_ARITY = "fuda::resolve::wrong_arity";
    /// A `script` statement names no function of the pack's scripts (or its required packs').
    RESOLVE_UNKNOWN_SCRIPT_FUNCTION = "fuda::resolve::unknown_script_function";
    /// A pack script (`.rhai` file) that does not compile.
    SCRIPT_SYNTAX = "fuda::script::syntax";
    /// A value of the wrong type.
    RESOLVE_TYPE_MISMATCH = "fuda::resolve::type_mismatch";
    /// A pair literal where no composite stat is expected.
    RESOLVE_PAIR_NOT_ALLOWED = "fuda::resolve::pair_not_allowed";
    /// `top`/`bottom … of` a zone not declared `ordered`.
    RESOLVE_TOP_OF_UNORDERED = "fuda::resolve::top_of_unordered";
    /// A set of players (`each`) where one player is needed and nothing repeats per player.
    RESOLVE_PLAYER_SET = "fuda::resolve::player_set";
    /// A clause the ability's kind does not allow, or a missing required one.
    RESOLVE_INVALID_CLAUSE = "fuda::resolve::invalid_clause";
    // ── game flow (setup, turn, actions, rules, windows) ──
    /// A window entry that names no action or ability kind.
    RESOLVE_UNKNOWN_ACTION = "fuda::resolve::unknown_action";
    /// A window entry that cannot be offered: an ability kind that is not activated, or `with`
    /// after an action.
    RESOLVE_INVALID_WINDOW_ENTRY = "fuda::resolve::invalid_window_entry";
    /// A statement where it is not allowed (`phase` outside the top level of `turn`; in a
    /// continuous ability, a statement it cannot carry out, a duration, a choice or a random
    /// pick).
    RESOLVE_MISPLACED_STATEMENT = "fuda::resolve::misplaced_statement";
    /// An event whose payload does not fit the core meaning it is given (`= move`).
    RESOLVE_CORE_EVENT_PAYLOAD = "fuda::resolve::core_event_payload";
    /// More state values than a card's state bit mask holds (`ir::MAX_STATE_VALUES`).
    RESOLVE_TOO_MANY_STATES = "fuda::resolve::too_many_states";
    /// More declarations of one kind (zones, stats, events, phases…) than the engine numbers
    /// (`ir::MAX_INDEXED_DECLARATIONS`).
    RESOLVE_TOO_MANY_DECLARATIONS = "fuda::resolve::too_many_declarations";
    /// More abilities on one card than the engine numbers (`ir::MAX_ABILITIES_PER_CARD`).
    RESOLVE_TOO_MANY_ABILITIES = "fuda::resolve::too_many_abilities";
    /// A field the card type's schema does not have.
    CHECK_UNKNOWN_FIELD = "fuda::check::unknown_field";
    /// A required field is missing.
    CHECK_MISSING_FIELD = "fuda::check::missing_field";
    /// A field given twice.
    CHECK_DUPLICATE_FIELD = "fuda::check::duplicate_field";
    /// A let-binding never read (warning).
    CHECK_UNUSED_BINDING = "fuda::check::unused_binding";
    /// An exact card name no loaded pack has (warning).
    CHECK_UNKNOWN_CARD_NAME = "fuda::check::unknown_card_name";
    /// A scenario file is not valid TOML.
    SCENARIO_SYNTAX = "fuda::scenario::syntax";
    /// A key the scenario format does not have at this place.
    SCENARIO_UNKNOWN_KEY = "fuda::scenario::unknown_key";
    /// A required key of a scenario table is missing.
    SCENARIO_MISSING_KEY = "fuda::scenario::missing_key";
    /// A scenario value of the wrong TOML type (a string where a number goes, say).
    SCENARIO_WRONG_TYPE = "fuda::scenario::wrong_type";
    /// A scenario value of the right type but not allowed (turn 0, an empty name, face "sideways").
    SCENARIO_BAD_VALUE = "fuda::scenario::bad_value";
    /// A card entry that is empty, asks for 0 or too many copies, or nests too deep.
    SCENARIO_BAD_CARD_ENTRY = "fuda::scenario::bad_card_entry";
    /// A script line that is not `p<N>: <answer>`.
    SCENARIO_BAD_ANSWER = "fuda::scenario::bad_answer";
    /// An expected winner that is not `p<N>`, `draw` or `none`.
    SCENARIO_BAD_WINNER = "fuda::scenario::bad_winner";
    /// A deck line that does not start with a count.
    DECK_MISSING_COUNT = "fuda::deck::missing_count";
    /// A deck count that is 0, not a whole number, or too large.
    DECK_INVALID_COUNT = "fuda::deck::invalid_count";
    /// A deck line with a count and no card.
    DECK_MISSING_CARD = "fuda::deck::missing_card";
    /// A deck line naming no card of the game.
    DECK_UNKNOWN_CARD = "fuda::deck::unknown_card";
    /// A deck line whose name fits several cards.
    DECK_AMBIGUOUS_CARD = "fuda::deck::ambiguous_card";
    /// A deck with more or fewer cards than its game allows.
    DECK_SIZE = "fuda::deck::size";
    /// More copies of one card (number or name) than the game allows.
    DECK_TOO_MANY_COPIES = "fuda::deck::too_many_copies";
    /// More cards of one card type than the game allows (`max N <card type>`).
    DECK_TOO_MANY_OF_TYPE = "fuda::deck::too_many_of_type";
    /// The deck's cards take too many or too few different values of a field for the chosen
    /// format (`distinct work exactly 2`).
    DECK_FORMAT_DISTINCT = "fuda::deck::format_distinct";
    /// A value of a field has too many or too few cards for the chosen format
    /// (`at_least 25 per work`).
    DECK_FORMAT_PER_VALUE = "fuda::deck::format_per_value";
    /// A deck file with more wrong lines than are reported.
    DECK_TOO_MANY_ERRORS = "fuda::deck::too_many_errors";
    /// A scenario names a zone, card, state, counter, stat, phase, seat or slot the game lacks
    /// (or gives two cards one slot).
    RUN_UNKNOWN_NAME = "fuda::run::unknown_name";
}
