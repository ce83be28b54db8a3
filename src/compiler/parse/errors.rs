//! Turns pest's errors into positioned diagnostics with readable expectations.

use super::Rule;
use crate::base::diagnostic::{codes, Diagnostic};
use crate::base::source::{FileId, Span};
use crate::compiler::lex::{self, ItemKind};
use pest::error::{ErrorVariant, InputLocation};

/// A syntax error: the label sits on the token where parsing stopped.
pub fn syntax_error(
    e: pest::error::Error<Rule>,
    src: &str,
    offset: usize,
    file: FileId,
    kind: ItemKind,
) -> Diagnostic {
    let pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((a, _)) => a,
    } + offset;
    let found = token_at(src, pos);
    let (expected, unexpected) = match &e.variant {
        ErrorVariant::ParsingError {
            positives,
            negatives,
        } => (describe(positives), describe(negatives)),
        ErrorVariant::CustomError { message } => (message.clone(), String::new()),
    };
    let found_text = if found.is_empty() {
        "end of item".to_string()
    } else {
        format!("`{}`", &src[found.start..found.end])
    };
    let message = if !expected.is_empty() {
        format!("expected {expected}, found {found_text}")
    } else if !unexpected.is_empty() {
        format!("unexpected {unexpected}")
    } else {
        format!("unexpected {found_text}")
    };
    let mut d = Diagnostic::error(codes::PARSE_SYNTAX, file, found, message, "unexpected here");
    if let Some(help) = help_for(src, found, kind) {
        d = d.with_help(help);
    }
    d
}

/// The word just before `pos`, if the token there is a word.
fn previous_word(src: &str, pos: usize) -> Option<&str> {
    let before = src[..pos].trim_end();
    let start = before
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
        .map_or(0, |i| {
            i + before[i..].chars().next().map_or(1, char::len_utf8)
        });
    let word = &before[start..];
    (!word.is_empty()).then_some(word)
}

/// The span of the token that starts at (or after trivia following) `pos`.
fn token_at(src: &str, pos: usize) -> Span {
    let rest = &src[pos.min(src.len())..];
    // Lazily: a file may hold thousands of errors, and the rest of it be long.
    for (tok, span) in lex::token_iter(rest) {
        match tok {
            Ok(lex::Token::Whitespace | lex::Token::LineComment | lex::Token::BlockComment) => {
                continue
            }
            _ => return span.shift(pos),
        }
    }
    Span::new(src.len(), src.len())
}

fn help_for(src: &str, found: Span, kind: ItemKind) -> Option<String> {
    let text = &src[found.start..found.end];
    let before = previous_word(src, found.start);
    let line_start = src[..found.start].rfind('\n').map_or(0, |i| i + 1);
    let line_before = src[line_start..found.start].trim_start();
    if lex::is_keyword(text) {
        if line_before.trim_end().ends_with('.') {
            let dot = src[..found.start].trim_end().len() - 1;
            let of_event = previous_word(src, dot) == Some("event");
            return Some(if of_event {
                format!("`{text}` is a word of the language, not a parameter of the event: `event.<parameter>` names one of the parameters its declaration lists (`event raids(raider: card, victim: card?)`: `event.raider`)")
            } else {
                format!("`{text}` is a word of the language, not a field, stat, counter or parameter: after `.` comes one of those names")
            });
        }
        return Some(format!("`{text}` is a reserved word; pick another name"));
    }
    // `keywords: swift "1"`: a keyword's values are written bare.
    if kind == ItemKind::Card && text.starts_with('"') && line_before.starts_with("keywords") {
        let bare = text.trim_matches('"');
        if let Some(word) = before {
            return Some(format!(
                "a keyword's values are written without quotes: `{word} {bare}`"
            ));
        }
    }
    if let Some(op) = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        if ["=", "+=", "-=", "*=", ":=", "<->"].contains(&op) {
            return Some(format!("layer operators are written bare: `{op}`"));
        }
    }
    if text == "," {
        return Some("a verb without parentheses takes one argument: write `verb(a, b)`".into());
    }
    // `price 2` in a card: a field without its colon.
    let starts_value = text
        .starts_with(|c: char| c.is_ascii_digit() || c == '"' || c == '「' || c == '+' || c == '-');
    if kind == ItemKind::Card && starts_value {
        if let Some(word) = before
            .filter(|w| w.chars().all(|c| c.is_alphanumeric() || c == '_') && !lex::is_keyword(w))
        {
            return Some(format!(
                "fields are written `name: value`: add `:` after `{word}`"
            ));
        }
    }
    match kind {
        ItemKind::Card if text.chars().next().is_some_and(|c| c.is_alphabetic()) => Some(
            "a card holds fields (`name: value`) and abilities (`kind [clauses] { … }`)".into(),
        ),
        _ => None,
    }
}

/// The words that open a ruleset declaration: where pest expects any of them, the message
/// says "a declaration" rather than listing them all.
const DECLARATION_WORDS: &[Rule] = &[
    Rule::kw_zone,
    Rule::kw_state,
    Rule::kw_stat,
    Rule::kw_layer,
    Rule::kw_counter,
    Rule::kw_card_type,
    Rule::kw_keyword,
    Rule::kw_ability,
    Rule::kw_attribute,
    Rule::kw_event,
    Rule::kw_verb,
    Rule::kw_procedure,
    Rule::kw_moment,
    Rule::kw_players,
    Rule::kw_numbers,
    Rule::kw_names,
    Rule::kw_deck,
    Rule::kw_durations,
    Rule::kw_trigger_order,
    Rule::kw_setup,
    Rule::kw_turn,
    Rule::kw_action,
    Rule::kw_rule,
];

fn describe(rules: &[Rule]) -> String {
    let mut names: Vec<String> = Vec::new();
    let mut operator = false;
    let declarations = rules
        .iter()
        .filter(|r| DECLARATION_WORDS.contains(r))
        .count()
        > 3;
    for r in rules {
        if declarations && DECLARATION_WORDS.contains(r) {
            if !names.iter().any(|n| n == "a declaration") {
                names.push("a declaration".into());
            }
            continue;
        }
        let n = rule_name(*r);
        if n.is_empty() {
            continue;
        }
        if n == "an operator" {
            if operator {
                continue;
            }
            operator = true;
        }
        if !names.contains(&n) {
            names.push(n);
        }
    }
    // "an expression" already covers its literal forms.
    if names.iter().any(|n| n == "an expression") {
        names.retain(|n| {
            !matches!(
                n.as_str(),
                "a name" | "a number" | "a string" | "a pair like `3/2`" | "`declare`" | "`search`"
            )
        });
    }
    match names.len() {
        0 => String::new(),
        1 => names.remove(0),
        _ => {
            let last = names.pop().unwrap_or_default();
            format!("{} or {}", names.join(", "), last)
        }
    }
}

fn rule_name(rule: Rule) -> String {
    // The words a declaration or a window may take before its body are not listed in every
    // expectation after its name (`flag_word`: `interrupt`, `once`).
    if matches!(rule, Rule::flag_word | Rule::kw_interrupt | Rule::kw_once) {
        return String::new();
    }
    let debug = format!("{rule:?}");
    if let Some(word) = debug.strip_prefix("kw_") {
        return format!("`{word}`");
    }
    if debug.ends_with("_op") {
        return "an operator".into();
    }
    let fixed = match rule {
        // Lookahead guards, not something to write.
        Rule::keyword
        | Rule::keyword_stmt
        | Rule::keyword_primary
        | Rule::sym_op
        | Rule::word_op => return String::new(),
        Rule::bool_lit
        | Rule::this_kw
        | Rule::it_kw
        | Rule::you_kw
        | Rule::opponent_kw
        | Rule::each_kw
        | Rule::paren
        | Rule::list_lit
        | Rule::choice_expr
        | Rule::declare_expr
        | Rule::top_expr
        | Rule::ident_led
        | Rule::call_expr
        | Rule::not_op
        | Rule::neg_op => "an expression",
        Rule::when_clause => "`when`",
        Rule::instead_clause => "`instead of`",
        Rule::while_clause => "`while`",
        Rule::if_clause => "`if`",
        Rule::cost_clause => "a cost `[…]`",
        Rule::limit_clause => "`limit`",
        Rule::from_clause => "`from`",
        Rule::named_arg => "a named argument (`name: value`)",
        Rule::subject_stmt | Rule::stmt => "a statement",
        Rule::move_pos => "`top` or `bottom`",
        Rule::move_face => "`face_up` or `face_down`",
        Rule::move_state => "`as <state>`",
        Rule::move_slot => "`at <slot>`",
        Rule::slot_source => "`slot of <zone>`",
        Rule::negate_scope => "`text` or `effect`",
        Rule::negate_all => "`all`",
        Rule::layer_override => "`in layer …`",
        Rule::window_chain => "`chain`",
        Rule::window_entry => "an action or ability kind",
        Rule::action_for => "`for`",
        Rule::event_core => "`move`, `enter` or `leave`",
        Rule::who => "`(player)`",
        Rule::quantity | Rule::up_to | Rule::any_number => {
            "a count (`1`, `up to 2`, `any number of`)"
        }
        Rule::field_value | Rule::keyword_ref => "a value",
        Rule::ident | Rule::ability_word | Rule::type_name | Rule::zone_prop => "a name",
        Rule::string | Rule::str_inner | Rule::jstr_inner => "a string",
        Rule::integer => "a number",
        Rule::pair | Rule::pair_part => "a pair like `3/2`",
        Rule::op_token => "an operator (`=`, `+=`, `-=`, `*=`, `:=`, `<->`)",
        Rule::expr | Rule::expr_atom | Rule::expr_postfix | Rule::expr_zone => "an expression",
        Rule::block => "`{`",
        Rule::field_entry => "a field (`name: value`)",
        Rule::ability => "an ability",
        Rule::field_access => "`.`",
        Rule::modify_op => "`=`, `+=` or `-=`",
        Rule::call_args | Rule::trigger_args | Rule::params | Rule::paren_call => "`(`",
        Rule::typed_tail => "`on`, `in` or `from`",
        Rule::EOI => "the end of the item",
        Rule::duration => "`until` or `while`",
        _ => "",
    };
    if !fixed.is_empty() {
        return fixed.to_string();
    }
    let plain = debug
        .trim_end_matches("_decl")
        .trim_end_matches("_stmt")
        .replace('_', " ");
    if debug.ends_with("_decl") {
        format!("a {plain} declaration")
    } else if debug.ends_with("_stmt") {
        format!("a `{plain}` statement")
    } else {
        plain
    }
}
