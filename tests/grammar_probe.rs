//! Temporary parse-only probe used while the compiler is being written:
//! `FUDA_FILES="a.fuda b.fuda" cargo test --test grammar_probe -- --nocapture`
use pest::Parser;

fn items(src: &str) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    for (i, line) in src.lines().enumerate() {
        let starts = ["card ", "game ", "verb ", "keyword ", "procedure ", "event ", "zone ", "stat ", "state ", "ability ", "attribute ", "layer ", "counter ", "card_type ", "moment "]
            .iter().any(|k| line.starts_with(k));
        if starts || out.is_empty() {
            out.push((i, String::new()));
        }
        let last = out.last_mut().unwrap();
        last.1.push_str(line);
        last.1.push('\n');
    }
    out
}

#[test]
fn probe() {
    use fuda::parse::{FudaParser, Rule};
    let Ok(files) = std::env::var("FUDA_FILES") else { return };
    let mut bad = 0;
    for f in files.split_whitespace() {
        let src = std::fs::read_to_string(f).unwrap();
        for (line, item) in items(&src) {
            let t = item.trim_start();
            if t.is_empty() || t.starts_with("//") { continue; }
            let rule = if t.starts_with("card ") { Rule::item_card } else if t.starts_with("game ") { Rule::item_game } else { Rule::item_decl };
            if let Err(e) = FudaParser::parse(rule, item.trim_end()) {
                bad += 1;
                println!("{f}: item at line {}:\n{e}\n", line + 1);
            }
        }
    }
    assert_eq!(bad, 0, "{bad} items failed to parse");
    println!("all parsed");
}
