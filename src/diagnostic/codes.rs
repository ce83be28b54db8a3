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
    /// Too many or too few arguments.
    RESOLVE_WRONG_ARITY = "fuda::resolve::wrong_arity";
    /// A value of the wrong type.
    RESOLVE_TYPE_MISMATCH = "fuda::resolve::type_mismatch";
    /// A pair literal where no composite stat is expected.
    RESOLVE_PAIR_NOT_ALLOWED = "fuda::resolve::pair_not_allowed";
    /// A clause the ability's kind does not allow, or a missing required one.
    RESOLVE_INVALID_CLAUSE = "fuda::resolve::invalid_clause";
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
}
