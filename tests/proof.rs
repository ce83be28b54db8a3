//! `fuda proof` (docs/proofs.md): every shipped card's proof, in both languages, rendered by
//! resvg with only the bundled font keeps each text inside its box — measured on usvg's laid-out
//! glyph outlines, not on the wrapper's own numbers; every character of every shipped card's
//! proof has a glyph in the bundled font; a long text shrinks and wraps to fit, and a text that
//! cannot fit is a warning naming its card; bad layouts are diagnostics; a few proofs are kept
//! as PNGs (`tests/snapshots/proofs/`, compared byte for byte; `PROOF_UPDATE=1` rewrites them).

use fuda::base::diagnostic::codes;
use fuda::ir::render::Lang;
use fuda::packs::Session;
use fuda::tools::proof::{self, text, Proofs};
use resvg::usvg;
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

/// The shipped packs.
const SHIPPED: &[&str] = &[
    "cards/pmv",
    "cards/ws",
    "cards/pm",
    "cards/examples/night-parade",
];

/// A session over `paths`, and the proofs of the packs they name, in `lang`.
fn proofs_of(paths: &[&str], lang: Lang) -> (Session, Proofs) {
    let mut s = Session::new();
    for p in paths {
        s.check_path(Path::new(p));
    }
    s.finish();
    let mut named: Vec<usize> = paths
        .iter()
        .flat_map(|p| s.packs_named_by(Path::new(p)))
        .collect();
    named.sort_unstable();
    named.dedup();
    let proofs = proof::proofs(&mut s, &named, lang);
    (s, proofs)
}

/// usvg's options with the bundled font alone (no system font is loaded).
fn options() -> usvg::Options<'static> {
    let mut db = usvg::fontdb::Database::new();
    db.load_font_data(text::FONT.to_vec());
    db.set_sans_serif_family(text::FAMILY);
    usvg::Options {
        fontdb: Arc::new(db),
        font_family: text::FAMILY.to_string(),
        ..usvg::Options::default()
    }
}

/// The number attribute `name` of the element starting at `at` in `svg`.
fn attr(svg: &str, at: usize, name: &str) -> f32 {
    let rest = &svg[at..];
    let end = rest.find('>').unwrap();
    let key = format!(" {name}=\"");
    let i = rest[..end].find(&key).unwrap() + key.len();
    let j = rest[i..].find('"').unwrap();
    rest[i..i + j].parse().unwrap()
}

/// What in a card's SVG leaves its box: each `<text id="…-text">`'s glyphs, as usvg lays them
/// out, against the `<rect id="…-box">` beside it; a text usvg drew nothing of (no font) is a
/// problem too.
fn overflows(svg: &str, tree: &usvg::Tree) -> Vec<String> {
    let mut problems = Vec::new();
    for (at, _) in svg.match_indices("<text id=\"") {
        let id_start = at + "<text id=\"".len();
        let id = &svg[id_start..id_start + svg[id_start..].find('"').unwrap()];
        let box_id = id.replace("-text", "-box");
        let b = svg.find(&format!("<rect id=\"{box_id}\"")).unwrap();
        let (x, y) = (attr(svg, b, "x"), attr(svg, b, "y"));
        let (w, h) = (attr(svg, b, "width"), attr(svg, b, "height"));
        let Some(usvg::Node::Text(t)) = tree.node_by_id(id) else {
            problems.push(format!("{id}: no text laid out (is the font loaded?)"));
            continue;
        };
        let r = t.flattened().abs_bounding_box();
        if r.width() <= 0.0 {
            problems.push(format!("{id}: an empty text"));
        }
        let tol = 0.5;
        if r.left() < x - tol
            || r.top() < y - tol
            || r.right() > x + w + tol
            || r.bottom() > y + h + tol
        {
            problems.push(format!(
                "{id}: glyphs at ({:.1}, {:.1})–({:.1}, {:.1}) leave the box ({x}, {y})–({}, {})",
                r.left(),
                r.top(),
                r.right(),
                r.bottom(),
                x + w,
                y + h
            ));
        }
    }
    problems
}

/// Every shipped card's proof, in both languages, renders to PNG with resvg and keeps its texts
/// in their boxes, with no overflow warning.
#[test]
fn every_shipped_proof_fits() {
    let opt = options();
    let mut problems = Vec::new();
    let mut checked = 0;
    for &lang in Lang::ALL {
        let (s, proofs) = proofs_of(SHIPPED, lang);
        assert_eq!(s.error_count(), 0);
        for d in &proofs.warnings {
            assert_ne!(d.code, codes::PROOF_OVERFLOW, "{}", d.message);
        }
        for p in &proofs.packs {
            for c in &p.cards {
                let svg = c.svg();
                let tree = usvg::Tree::from_str(&svg, &opt).unwrap();
                let size = tree.size().to_int_size();
                let mut pixmap =
                    resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
                resvg::render(
                    &tree,
                    resvg::tiny_skia::Transform::default(),
                    &mut pixmap.as_mut(),
                );
                assert!(!pixmap.encode_png().unwrap().is_empty());
                for problem in overflows(&svg, &tree) {
                    problems.push(format!("{} ({}): {problem}", c.id, lang.code()));
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 400, "only {checked} proofs");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The lines of the `<tspan>`s of `svg`, unescaped.
fn lines(svg: &str) -> Vec<String> {
    svg.split("<tspan ")
        .skip(1)
        .filter_map(|s| {
            let start = s.find('>')? + 1;
            let end = s.find("</tspan>")?;
            Some(
                s[start..end]
                    .replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&quot;", "\"")
                    .replace("&amp;", "&"),
            )
        })
        .collect()
}

/// Every character a shipped card's proof prints has a glyph in the bundled font.
#[test]
fn the_bundled_font_has_every_glyph() {
    let m = text::Metrics::bundled().unwrap();
    let mut missing = BTreeSet::new();
    for &lang in Lang::ALL {
        let (_, proofs) = proofs_of(SHIPPED, lang);
        for c in proofs.packs.iter().flat_map(|p| &p.cards) {
            for line in lines(&c.svg()) {
                for ch in line.chars().filter(|&ch| ch != ' ' && !m.has_glyph(ch)) {
                    missing.insert(format!(
                        "`{ch}` (U+{:04X}) in {} ({})",
                        ch as u32,
                        c.id,
                        lang.code()
                    ));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "the bundled font lacks glyphs; regenerate it with `python3 fonts/subset.py` (fonts/README.md):\n{}",
        missing.into_iter().collect::<Vec<_>>().join("\n")
    );
}

/// A card's long text shrinks and wraps into its box; a text its box cannot hold even at the
/// smallest size is a warning at the card, naming it, and the proof is still written.
#[test]
fn long_text_shrinks_and_the_overflow_warns() {
    let opt = options();
    for &lang in Lang::ALL {
        let (_, proofs) = proofs_of(&["tests/games/proof_long"], lang);
        let cards = &proofs.packs[0].cards;
        let roomy = &cards[0];
        let svg = roomy.svg();
        assert!(lines(&svg).len() > 10, "the long text is wrapped: {svg}");
        assert!(
            !svg.contains("font-size=\"48\""),
            "the long text shrank: {svg}"
        );
        let tree = usvg::Tree::from_str(&svg, &opt).unwrap();
        assert_eq!(overflows(&svg, &tree), Vec::<String>::new());
        let warned: Vec<&str> = proofs
            .warnings
            .iter()
            .filter(|d| d.code == codes::PROOF_OVERFLOW)
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(warned.len(), 1, "{warned:?}");
        assert!(warned[0].contains("Cramped Card") && warned[0].contains("PL-002"));
        let tree = usvg::Tree::from_str(&cards[1].svg(), &opt).unwrap();
        assert!(
            !overflows(&cards[1].svg(), &tree).is_empty(),
            "the overflow test sees it"
        );
    }
}

/// The codes a bad layout reports (for `diagnostics::every_code_is_covered`): one layout file per
/// code under `tests/errors/proof/`, each read against PMV's card types.
pub fn proof_codes() -> BTreeSet<&'static str> {
    let mut hit = BTreeSet::new();
    for (_, _, diags) in bad_layouts() {
        hit.extend(diags.iter().map(|d| d.code.0));
    }
    let (_, proofs) = proofs_of(&["tests/games/proof_long"], Lang::En);
    hit.extend(proofs.warnings.iter().map(|d| d.code.0));
    hit
}

/// Each file of `tests/errors/proof/` read as a PMV layout: its name, the source map its
/// diagnostics point into, and the diagnostics (each file must fail to read).
type BadLayout = (
    String,
    fuda::base::source::SourceMap,
    Vec<fuda::base::diagnostic::Diagnostic>,
);

fn bad_layouts() -> Vec<BadLayout> {
    let mut s = Session::new();
    s.check_path(Path::new("cards/pmv"));
    s.finish();
    let mut files: Vec<_> = std::fs::read_dir("tests/errors/proof")
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let rulesets: Vec<&fuda::ir::Ruleset> = s
        .packs
        .iter()
        .filter_map(|p| p.pack.ruleset.as_ref())
        .collect();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let mut sources = fuda::base::source::SourceMap::new();
        let id = sources.add(fuda::base::source::SourceFile::new(
            f.display().to_string(),
            text.clone(),
        ));
        let (layout, diags) = proof::layout::read(&text, id, &rulesets);
        assert!(layout.is_none(), "{}: read without error", f.display());
        out.push((f.display().to_string(), sources, diags));
    }
    out
}

/// A bad layout is an error at its token: not TOML or an unknown key, an unknown card type, an
/// unknown field, a wrong value; `fuda proof` exits 1 and writes nothing.
#[test]
fn bad_layouts_are_diagnostics() {
    let mut shown = String::new();
    for (name, sources, diags) in bad_layouts() {
        assert!(!diags.is_empty(), "{name}");
        for d in &diags {
            shown.push_str(&fuda::base::diagnostic::render(
                d,
                &sources,
                fuda::base::diagnostic::RenderOptions::plain(),
            ));
        }
    }
    insta::assert_snapshot!("proof_bad_layouts", shown);
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("pack");
    std::fs::create_dir(&pack).unwrap();
    std::fs::copy("tests/games/proof_long/game.fuda", pack.join("game.fuda")).unwrap();
    std::fs::copy("tests/games/proof_long/pack.toml", pack.join("pack.toml")).unwrap();
    std::fs::write(pack.join("proof.toml"), "[types.nothing]\n").unwrap();
    let out = dir.path().join("out");
    let (code, _, stderr) =
        crate::support::run_fuda(&["proof", pack.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("fuda::proof::unknown_card_type"),
        "{stderr}"
    );
    assert!(!out.exists());
}

/// `fuda proof` writes one SVG per card, named by its number, and the contact sheets.
#[test]
fn the_command_writes_cards_and_sheets() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let (code, stdout, stderr) = crate::support::run_fuda(&[
        "proof",
        "cards/ws",
        "-o",
        out.to_str().unwrap(),
        "--lang",
        "en",
        "--per-page",
        "4",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("wrote"), "{stdout}");
    assert!(out.join("ws/FD_W01-001.svg").is_file());
    assert!(out.join("ws/sheet-1.svg").is_file());
    let svg = std::fs::read_to_string(out.join("ws/FD_W01-001.svg")).unwrap();
    assert!(
        svg.contains("Fuda Sans JP"),
        "the font stack names the bundled font"
    );
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let (code, _, stderr) =
        crate::support::run_fuda(&["proof", "cards/ws", "-o", file.to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("fuda::source::io"), "{stderr}");
}

/// A PNG of `svg` rendered with the bundled font alone.
fn png(svg: &str) -> Vec<u8> {
    let tree = usvg::Tree::from_str(svg, &options()).unwrap();
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().unwrap()
}

/// A few proofs kept as PNGs for review: one card per game per language, one contact sheet and a
/// card in the default layout (a game without a `proof.toml`),
/// compared byte for byte (`PROOF_UPDATE=1 cargo test --test suite proof::` rewrites them).
#[test]
fn review_pngs() {
    let picks = [
        ("pmv", "cards/pmv", "pmv:003"),
        ("ws", "cards/ws", "ws:FD/W01-003"),
        ("pm", "cards/pm", "pm:02-019"),
    ];
    let mut kept = Vec::new();
    for &lang in Lang::ALL {
        for (name, path, id) in picks {
            let (_, proofs) = proofs_of(&[path], lang);
            let card = proofs.packs[0].cards.iter().find(|c| c.id == id).unwrap();
            kept.push((format!("{name}-{}.png", lang.code()), png(&card.svg())));
            if name == "ws" && lang == Lang::Ja {
                let page = proof::sheet::pages(&proofs.packs[0], 9).remove(0);
                kept.push(("ws-sheet-ja.png".to_string(), png(&page)));
            }
        }
    }
    let (_, proofs) = proofs_of(&["tests/games/render_gaps"], Lang::En);
    kept.push((
        "default-en.png".to_string(),
        png(&proofs.packs[0].cards[0].svg()),
    ));
    let update = std::env::var_os("PROOF_UPDATE").is_some();
    for (file, bytes) in kept {
        let path = Path::new("tests/snapshots/proofs").join(&file);
        if update {
            std::fs::write(&path, &bytes).unwrap();
            continue;
        }
        let old = std::fs::read(&path).unwrap_or_default();
        assert!(
            old == bytes,
            "{file} differs from tests/snapshots/proofs/{file}: look at the new one (PROOF_UPDATE=1 cargo test --test suite proof::review_pngs) and keep it if it is right"
        );
    }
}

/// Line breaking: Japanese text breaks between characters but never puts closing punctuation at
/// a line's start nor an opening bracket at its end; Latin text breaks only at spaces; no line is
/// wider than asked, as the bundled font measures it.
#[test]
fn lines_break_by_kinsoku_and_at_spaces() {
    let m = text::Metrics::bundled().unwrap();
    let ja = "【自】このカードがアタックした時、クライマックス置場に「約束の場所」があるなら、そのターン中、このカードのパワーを＋3000。（テスト）";
    let en = "When this card attacks, if \"The Promised Place\" is in your climax area, this card gets +3000 power until end of turn.";
    let mut breaks = 0;
    for width in (120..=600).step_by(7) {
        let w = width as f32;
        let lines = text::wrap(&m, ja, w, 24.0);
        breaks += lines.len();
        assert_eq!(lines.concat(), ja, "no character lost at width {w}");
        for (i, l) in lines.iter().enumerate() {
            let first = l.chars().next().unwrap();
            let last = l.chars().last().unwrap();
            assert!(
                i == 0 || !"、。」）】ー".contains(first),
                "{l:?} starts a line at width {w}"
            );
            assert!(
                i + 1 == lines.len() || !"「（【".contains(last),
                "{l:?} ends a line at width {w}"
            );
            assert!(m.width(l, 24.0) <= w, "{l:?} is wider than {w}");
        }
        let lines = text::wrap(&m, en, w, 24.0);
        assert_eq!(
            lines.join(" "),
            en,
            "Latin text breaks at spaces only, at width {w}"
        );
        for l in &lines {
            assert!(m.width(l, 24.0) <= w, "{l:?} is wider than {w}");
        }
    }
    assert!(breaks > 100, "the widths make the text break");
}

/// A game with no `proof.toml` gets the built-in default layout (`src/tools/proof/default.toml`),
/// which reads without a diagnostic and fits; a name lacking a phrase is one warning, not one
/// per card.
#[test]
fn the_default_layout_serves_a_game_without_one() {
    let (s, proofs) = proofs_of(&["tests/games/render_gaps"], Lang::En);
    let rulesets: Vec<&fuda::ir::Ruleset> = s
        .packs
        .iter()
        .filter_map(|p| p.pack.ruleset.as_ref())
        .collect();
    let mut sources = fuda::base::source::SourceMap::new();
    let id = sources.add(fuda::base::source::SourceFile::new(
        "default.toml",
        proof::layout::DEFAULT,
    ));
    let (layout, diags) = proof::layout::read(proof::layout::DEFAULT, id, &rulesets);
    assert!(layout.is_some() && diags.is_empty(), "{diags:?}");
    let card = &proofs.packs[0].cards[0];
    let svg = card.svg();
    for shown in ["Digger", "R1", "cost 1", "render_gaps"] {
        assert!(svg.contains(shown), "{shown} in {svg}");
    }
    let tree = usvg::Tree::from_str(&svg, &options()).unwrap();
    assert_eq!(overflows(&svg, &tree), Vec::<String>::new());
    let missing: Vec<_> = proofs
        .warnings
        .iter()
        .filter(|d| d.code == codes::RENDER_MISSING_PHRASE)
        .collect();
    assert_eq!(missing.len(), 1, "{missing:?}");
}
