//! Card-number and name normalization, as a ruleset declares it
//! (`numbers { … }`, `names { … }`): identity for copy limits, and the form
//! names are compared in for containment (PMV 12.3).

use crate::ir::NormRule;
use unicode_normalization::UnicodeNormalization;

/// Applies `rules` in order.
pub fn apply(rules: &[NormRule], text: &str) -> String {
    let mut s = text.to_string();
    for rule in rules {
        s = match rule {
            NormRule::Nfkc => s.nfkc().collect(),
            NormRule::FoldSpaces => fold_spaces(&s),
            NormRule::RemoveSpaces => s.chars().filter(|c| !is_space(*c)).collect(),
            NormRule::Trim => s.trim_matches(is_space).to_string(),
            NormRule::Uppercase => s.to_uppercase(),
            NormRule::Lowercase => s.to_lowercase(),
            NormRule::StripPrefix(ps) => match ps.iter().find(|p| s.starts_with(p.as_str())) {
                Some(p) => s[p.len()..].to_string(),
                None => s,
            },
            NormRule::StripSuffix(ps) => match ps
                .iter()
                .find(|p| s.len() > p.len() && s.ends_with(p.as_str()))
            {
                Some(p) => s[..s.len() - p.len()].to_string(),
                None => s,
            },
        };
    }
    s
}

fn is_space(c: char) -> bool {
    c == ' ' || c == '\u{3000}' || c == '\t'
}

fn fold_spaces(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_space = false;
    for c in s.chars() {
        if is_space(c) {
            if !in_space {
                out.push(' ');
            }
            in_space = true;
        } else {
            out.push(c);
            in_space = false;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_full_and_half_width_spaces() {
        let rules = [NormRule::Nfkc, NormRule::FoldSpaces];
        assert_eq!(apply(&rules, "博麗\u{3000}\u{3000}霊夢"), "博麗 霊夢");
        assert_eq!(apply(&rules, "ＡＢＣ"), "ABC");
    }

    #[test]
    fn strips_promo_suffix() {
        let rules = [
            NormRule::Uppercase,
            NormRule::StripSuffix(vec!["SP".into(), "P".into()]),
        ];
        assert_eq!(apply(&rules, "01-001p"), "01-001");
        assert_eq!(apply(&rules, "01-001SP"), "01-001");
        assert_eq!(apply(&rules, "P"), "P");
    }
}
