//! The core language's grammar in each language the renderer speaks: how `may`, `if`, a
//! choice, a move, a modification or a duration reads around the game's own phrases. Only the
//! core's words are here (no game's zone, stat or verb: those come from the rulesets).

use crate::ir::Type;

/// A language of printed text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// English.
    En,
    /// Japanese.
    Ja,
}

impl Lang {
    /// Every language, in the order `--lang` lists them.
    pub const ALL: &'static [Lang] = &[Lang::Ja, Lang::En];

    /// The code rulesets key their phrases by.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ja => "ja",
        }
    }

    /// The language of a code.
    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL.iter().copied().find(|l| l.code() == code)
    }
}

/// The core's words in one language.
#[derive(Debug, Clone, Copy)]
pub struct Words {
    /// The language.
    pub lang: Lang,
}

impl Words {
    /// The words of `lang`.
    pub fn new(lang: Lang) -> Self {
        Words { lang }
    }

    /// Picks the English or the Japanese form.
    pub fn pick<T>(&self, en: T, ja: T) -> T {
        match self.lang {
            Lang::En => en,
            Lang::Ja => ja,
        }
    }

    /// Between two keywords on the keyword line.
    pub fn keyword_separator(&self) -> &'static str {
        self.pick(", ", "")
    }

    /// A keyword as printed in a list or a condition.
    pub fn keyword_mark(&self, k: &str) -> String {
        match self.lang {
            Lang::En => k.to_string(),
            Lang::Ja => format!("【{k}】"),
        }
    }

    /// An argument nobody gave, by its type: "a card", "カード".
    pub fn indefinite(&self, types: Option<&[Type]>) -> String {
        let first = types.and_then(|t| t.first().copied());
        let (en, ja) = match first {
            Some(Type::Player) => ("a player", "プレイヤー"),
            Some(Type::Zone) => ("a zone", "領域"),
            Some(Type::Number) => ("some number", "いくつか"),
            Some(Type::Text) => ("a text", "文字列"),
            Some(Type::Bool) => ("either", "いずれか"),
            Some(Type::Pair) => ("a value", "値"),
            Some(Type::Card) | Some(Type::Cards) | None => ("a card", "カード"),
        };
        self.pick(en, ja).to_string()
    }

    /// A part of an ability placed after `before` in its frame, its first letter cased for
    /// where it stands: lower after a clause ("When …, draw"), upper at the start of a sentence
    /// ("[ACT] Pay 1: Draw"). Japanese has no case.
    pub fn cased_after(&self, before: &str, part: &str) -> String {
        if self.lang == Lang::Ja {
            return part.to_string();
        }
        let lower = before.ends_with(", ") || before.ends_with("instead ");
        let upper = before.trim_end().is_empty()
            || [']', ':', '.']
                .iter()
                .any(|c| before.trim_end().ends_with(*c));
        let mut c = part.chars();
        match c.next() {
            Some(f) if lower => f.to_lowercase().chain(c).collect(),
            Some(f) if upper => f.to_uppercase().chain(c).collect(),
            _ => part.to_string(),
        }
    }

    /// An English plural: "cards", "climaxes".
    pub fn plural_noun(&self, noun: &str) -> String {
        if noun.ends_with(['s', 'x']) || noun.ends_with("ch") || noun.ends_with("sh") {
            format!("{noun}es")
        } else {
            format!("{noun}s")
        }
    }

    /// The last touch on a whole text: English possessives of pronouns ("it's" → "its",
    /// "you's" → "your").
    pub fn tidy(&self, text: &str) -> String {
        match self.lang {
            Lang::En => text
                .replace("it's ", "its ")
                .replace("It's ", "Its ")
                .replace("you's ", "your ")
                .replace("You's ", "Your "),
            Lang::Ja => text.to_string(),
        }
    }

    /// A value's type as a noun: "player", 「プレイヤー」.
    pub fn type_word(&self, t: Type) -> &'static str {
        let (en, ja) = match t {
            Type::Player => ("player", "プレイヤー"),
            Type::Zone => ("zone", "領域"),
            Type::Number => ("number", "数"),
            Type::Text => ("text", "文字列"),
            Type::Bool => ("truth value", "真偽値"),
            Type::Pair => ("pair", "組"),
            Type::Card | Type::Cards => ("card", "カード"),
        };
        self.pick(en, ja)
    }

    /// A chosen card mentioned again.
    pub fn that_card(&self) -> String {
        self.pick("that card", "そのカード").to_string()
    }

    /// A sentence of an effect: English capitalised with a full stop, Japanese with "。".
    pub fn sentence(&self, s: &str) -> String {
        let s = s.trim();
        if s.is_empty() {
            return String::new();
        }
        match self.lang {
            Lang::En => {
                let mut c = s.chars();
                let first: String = c
                    .next()
                    .map(|f| f.to_uppercase().collect())
                    .unwrap_or_default();
                let rest = c.as_str();
                if rest.ends_with('.') {
                    format!("{first}{rest}")
                } else {
                    format!("{first}{rest}.")
                }
            }
            Lang::Ja => {
                if s.ends_with('。') {
                    s.to_string()
                } else {
                    format!("{s}。")
                }
            }
        }
    }

    /// Sentences joined into one text.
    pub fn join_sentences(&self, parts: &[String]) -> String {
        let parts: Vec<&str> = parts
            .iter()
            .map(|p| p.as_str())
            .filter(|p| !p.is_empty())
            .collect();
        parts.join(self.pick(" ", ""))
    }

    /// "you may …", "…てもよい".
    pub fn may(&self, who: Option<&str>, body: &[String]) -> String {
        match self.lang {
            Lang::En => {
                let subject = who.unwrap_or("you");
                format!("{subject} may {}", body.join(", then "))
            }
            Lang::Ja => {
                let subject = who.map(|w| format!("{w}は")).unwrap_or_default();
                let mut parts: Vec<String> = body.iter().map(|b| te_form(b)).collect();
                let last = parts.pop().unwrap_or_default();
                parts.push(format!("{last}もよい"));
                format!("{subject}{}", parts.join("、"))
            }
        }
    }

    /// The body of an ability's `if`, placed by the `{condition}` hole.
    pub fn condition(&self, c: &str) -> String {
        self.pick(format!("if {c}, "), format!("{c}場合、"))
    }

    /// An ability's costs, placed by the `{costs}` hole.
    pub fn cost(&self, parts: &[String]) -> String {
        match self.lang {
            Lang::En => format!("{}: ", parts.join(", ")),
            Lang::Ja => format!("{}：", parts.join("、")),
        }
    }

    /// A use limit: "(once per turn)", "（1ターンに1回）".
    pub fn limit(&self, count: u32, per: &str) -> String {
        match (self.lang, per) {
            (Lang::En, "turn") if count == 1 => " (once per turn)".into(),
            (Lang::En, "game") if count == 1 => " (once per game)".into(),
            (Lang::En, _) => format!(" ({count} times per {per})"),
            (Lang::Ja, "turn") => format!("（1ターンに{count}回）"),
            (Lang::Ja, "game") => format!("（1ゲームに{count}回）"),
            (Lang::Ja, _) => format!("（{per}ごとに{count}回）"),
        }
    }

    /// `if … { … } else { … }`.
    pub fn if_then(&self, cond: &str, body: &str) -> String {
        self.pick(format!("if {cond}, {body}"), format!("{cond}場合、{body}"))
    }

    /// The `else` of an `if`.
    pub fn otherwise(&self, body: &str) -> String {
        self.pick(
            format!("otherwise, {body}"),
            format!("そうでない場合、{body}"),
        )
    }

    /// `for each c in cards { … }`.
    pub fn for_each(&self, cards: &str, body: &str) -> String {
        self.pick(
            format!("for each {cards}, {body}"),
            format!("{cards}それぞれについて、{body}"),
        )
    }

    /// `repeat n { … }`.
    pub fn repeat(&self, times: &str, body: &str) -> String {
        self.pick(
            format!("do the following {times} times: {body}"),
            format!("以下を{times}回行う：{body}"),
        )
    }

    /// `while c { … }`.
    pub fn while_loop(&self, cond: &str, body: &str) -> String {
        self.pick(
            format!("as long as {cond}, repeat: {body}"),
            format!("{cond}間、以下を繰り返す：{body}"),
        )
    }

    /// A subject and its verb phrase: "your opponent draws…" is the ruleset's explicit form;
    /// this is for the core's own statements.
    pub fn subject(&self, who: &str, en_third_person: &str, ja: &str) -> String {
        self.pick(format!("{who} {en_third_person}"), format!("{who}は{ja}"))
    }
}

/// The te-form of a Japanese sentence's final verb (`引く` → `引いて`, `破棄する` → `破棄して`,
/// `加える` → `加えて`), which `…てもよい` and joined clauses need. Only the last verb changes;
/// a sentence that ends in no verb gets `ことにして`-free `…して`.
pub fn te_form(s: &str) -> String {
    let s = s.trim_end_matches('。');
    let endings: &[(&str, &str)] = &[
        ("する", "して"),
        ("来る", "来て"),
        ("行く", "行って"),
        ("える", "えて"),
        ("ける", "けて"),
        ("せる", "せて"),
        ("てる", "てて"),
        ("ねる", "ねて"),
        ("べる", "べて"),
        ("める", "めて"),
        ("れる", "れて"),
        ("げる", "げて"),
        ("じる", "じて"),
        ("びる", "びて"),
        ("見る", "見て"),
        ("いる", "いて"),
        ("く", "いて"),
        ("ぐ", "いで"),
        ("す", "して"),
        ("つ", "って"),
        ("る", "って"),
        ("う", "って"),
        ("ぬ", "んで"),
        ("ぶ", "んで"),
        ("む", "んで"),
    ];
    for (end, te) in endings {
        if let Some(stem) = s.strip_suffix(end) {
            return format!("{stem}{te}");
        }
    }
    format!("{s}して")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn te_forms() {
        for (plain, te) in [
            ("カードを1枚引く", "カードを1枚引いて"),
            ("それを破棄する", "それを破棄して"),
            ("手札に加える", "手札に加えて"),
            ("手札に戻す", "手札に戻して"),
            ("冥界に置く", "冥界に置いて"),
            ("ダメージを与える", "ダメージを与えて"),
            ("場に移る", "場に移って"),
            ("デッキを見る", "デッキを見て"),
            ("読む", "読んで"),
        ] {
            assert_eq!(te_form(plain), te, "{plain}");
        }
    }

    #[test]
    fn sentences() {
        let en = Words::new(Lang::En);
        assert_eq!(en.sentence("draw 1 card"), "Draw 1 card.");
        let ja = Words::new(Lang::Ja);
        assert_eq!(ja.sentence("カードを1枚引く"), "カードを1枚引く。");
        assert_eq!(
            ja.may(None, &["カードを1枚引く".into()]),
            "カードを1枚引いてもよい"
        );
        assert_eq!(en.may(None, &["draw 1 card".into()]), "you may draw 1 card");
    }
}
