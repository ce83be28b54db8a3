//! `fuda lsp` driven as an editor drives it: the built binary spawned, real LSP JSON-RPC
//! messages (Content-Length framing) written to its stdin and read from its stdout. The
//! workspace is the repository itself (`cards/pmv` and the night parade mod pack); documents
//! are opened with unsaved texts, so nothing on disk changes.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// How long to wait for a message before the test fails (a guard against a hung server, not a
/// measured time).
const PATIENCE: Duration = Duration::from_secs(120);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.canonicalize().unwrap().display())
}

fn parade() -> PathBuf {
    root().join("cards/examples/night-parade/sets/parade.fuda")
}

/// A running server and the messages it sent.
struct Client {
    child: Child,
    stdin: ChildStdin,
    inbox: Receiver<Value>,
    next_id: i64,
}

impl Client {
    /// Spawns `fuda lsp` and completes the handshake with these initialization options.
    fn start(options: Value) -> Client {
        let mut c = Client::spawn();
        let init = c.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": uri(&root()),
                "capabilities": {},
                "initializationOptions": options,
            }),
        );
        assert!(
            init["result"]["capabilities"]["hoverProvider"] == json!(true),
            "{init}"
        );
        c.notify("initialized", json!({}));
        c
    }

    /// Spawns `fuda lsp` without a handshake.
    fn spawn() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fuda"))
            .arg("lsp")
            .current_dir(std::env::temp_dir())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let (tx, inbox) = channel();
        std::thread::spawn(move || loop {
            let mut len = None;
            loop {
                let mut line = String::new();
                if out.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                if let Some(n) = line.strip_prefix("Content-Length: ") {
                    len = n.parse::<usize>().ok();
                }
            }
            let mut body = vec![0; len.unwrap()];
            out.read_exact(&mut body).unwrap();
            if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                return;
            }
        });
        Client {
            child,
            stdin,
            inbox,
            next_id: 1,
        }
    }

    fn write_raw(&mut self, body: &str) {
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn send(&mut self, msg: &Value) {
        self.write_raw(&msg.to_string());
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and returns its response (notifications before it are kept aside).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let msg = self.inbox.recv_timeout(PATIENCE).expect("an answer");
            if msg["id"] == json!(id) {
                return msg;
            }
        }
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics_for(&mut self, uri: &str) -> Vec<Value> {
        loop {
            let msg = self.inbox.recv_timeout(PATIENCE).expect("diagnostics");
            if msg["method"] == "textDocument/publishDiagnostics" && msg["params"]["uri"] == uri {
                return msg["params"]["diagnostics"].as_array().unwrap().clone();
            }
        }
    }

    fn open(&mut self, path: &Path, text: &str) -> String {
        let u = uri(path);
        let lang = if path.extension().is_some_and(|x| x == "toml") {
            "toml"
        } else {
            "fuda"
        };
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": u, "languageId": lang, "version": 1, "text": text}}),
        );
        u
    }

    fn change(&mut self, u: &str, version: i64, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": u, "version": version}, "contentChanges": [{"text": text}]}),
        );
    }

    fn at(&mut self, method: &str, u: &str, line: u32, character: u32) -> Value {
        self.request(
            method,
            json!({"textDocument": {"uri": u}, "position": {"line": line, "character": character}}),
        )
    }

    /// Shuts down and exits; the process ends with 0.
    fn stop(mut self) {
        let r = self.request("shutdown", Value::Null);
        assert_eq!(r["result"], Value::Null, "{r}");
        self.notify("exit", Value::Null);
        assert!(self.child.wait().unwrap().success());
    }
}

/// The (line, UTF-16 column) of the first `needle` in `text`, counted independently of the
/// server: UTF-16 units of the characters before it on its line.
fn utf16_at(text: &str, needle: &str) -> (u32, u32) {
    let at = text.find(needle).unwrap();
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = text[..at].matches('\n').count() as u32;
    let col = text[line_start..at].encode_utf16().count() as u32;
    (line, col)
}

fn range(r: &Value) -> ((u64, u64), (u64, u64)) {
    let p = |v: &Value| {
        (
            v["line"].as_u64().unwrap(),
            v["character"].as_u64().unwrap(),
        )
    };
    (p(&r["start"]), p(&r["end"]))
}

/// The parade's first card with an unknown keyword on a line that has Japanese text and an
/// emoji (two UTF-16 units) before it.
fn broken_parade(good: &str) -> String {
    let broken = good.replacen(
        "  race: \"妖怪\"\n  keywords: terrify\n",
        "  race: \"妖怪😀\" keywords: terrifyy\n",
        1,
    );
    assert_ne!(broken, good);
    broken
}

#[test]
fn diagnostics_have_utf16_ranges_and_clear_when_fixed() {
    let mut c = Client::start(json!({}));
    let good = std::fs::read_to_string(parade()).unwrap();
    let broken = broken_parade(&good);
    let u = c.open(&parade(), &broken);
    let diags = c.diagnostics_for(&u);
    assert_eq!(diags.len(), 1, "{diags:?}");
    let d = &diags[0];
    assert_eq!(d["code"], "fuda::resolve::unknown_keyword");
    assert_eq!(d["severity"], 1);
    // `  race: "妖怪😀" keywords: ` is 25 UTF-16 units (24 chars, 31 bytes).
    assert_eq!(utf16_at(&broken, "terrifyy"), (11, 25));
    assert_eq!(range(&d["range"]), ((11, 25), (11, 33)));
    assert!(d["message"]
        .as_str()
        .unwrap()
        .contains("did you mean `terrify`?"));
    // Its quick fix: the suggestion in place of the name.
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": u}, "range": d["range"], "context": {"diagnostics": [d]}}),
    );
    let actions = r["result"].as_array().unwrap();
    assert_eq!(actions.len(), 1, "{r}");
    assert_eq!(actions[0]["title"], "Replace `terrifyy` with `terrify`");
    let edit = &actions[0]["edit"]["changes"][u.as_str()][0];
    assert_eq!(edit["newText"], "terrify");
    assert_eq!(range(&edit["range"]), ((11, 25), (11, 33)));

    c.change(&u, 2, &good);
    assert_eq!(c.diagnostics_for(&u), Vec::<Value>::new());
    c.stop();
}

#[test]
fn diagnostics_of_other_files_of_the_pack_go_to_those_files() {
    let mut c = Client::start(json!({}));
    let words = root().join("cards/examples/night-parade/sets/words.fuda");
    let good = std::fs::read_to_string(&words).unwrap();
    let renamed = good.replacen("keyword terrify ", "keyword terrifx ", 1);
    assert_ne!(renamed, good);
    c.open(&words, &renamed);
    // parade.fuda (not open: read from disk) uses `terrify`.
    let diags = c.diagnostics_for(&uri(&parade()));
    assert!(!diags.is_empty());
    assert!(diags
        .iter()
        .all(|d| d["code"] == "fuda::resolve::unknown_keyword"));
    let text = std::fs::read_to_string(parade()).unwrap();
    assert_eq!(range(&diags[0]["range"]).0, {
        let (l, col) = utf16_at(&text, "terrify");
        (u64::from(l), u64::from(col))
    });
    // Fixed: the other file's diagnostics are cleared too.
    c.change(&uri(&words), 2, &good);
    assert_eq!(c.diagnostics_for(&uri(&parade())), Vec::<Value>::new());
    c.stop();
}

#[test]
fn a_change_to_a_game_rechecks_the_open_packs_built_on_it() {
    let mut c = Client::start(json!({}));
    let text = std::fs::read_to_string(parade()).unwrap();
    let u = c.open(&parade(), &text);
    assert_eq!(c.diagnostics_for(&u), Vec::<Value>::new());
    let ruleset = root().join("cards/pmv/ruleset.fuda");
    let good = std::fs::read_to_string(&ruleset).unwrap();
    let r = c.open(&ruleset, &good);
    assert_eq!(c.diagnostics_for(&r), Vec::<Value>::new());
    // The game's verb renamed: the mod pack's card using it is wrong now.
    let renamed = good.replacen("verb draw(", "verb draw_one(", 1);
    assert_ne!(renamed, good);
    c.change(&r, 2, &renamed);
    let diags = loop {
        let d = c.diagnostics_for(&u);
        if !d.is_empty() {
            break d;
        }
    };
    let (l, _) = utf16_at(&text, "draw 1");
    assert!(
        diags
            .iter()
            .any(|d| range(&d["range"]).0 .0 == u64::from(l)),
        "{diags:?}"
    );
    // Back: cleared.
    c.change(&r, 3, &good);
    assert_eq!(c.diagnostics_for(&u), Vec::<Value>::new());
    c.stop();
}

#[test]
fn a_pack_script_gets_its_syntax_errors_as_it_is_typed() {
    let mut c = Client::start(json!({}));
    let script = root().join("cards/examples/night-parade/scripts/parade.rhai");
    let good = std::fs::read_to_string(&script).unwrap();
    let broken = good.replacen("let revealed = [];", "let revealed = [;", 1);
    assert_ne!(broken, good);
    let u = c.open(&script, &broken);
    let diags = c.diagnostics_for(&u);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "fuda::script::syntax");
    assert_eq!(
        range(&diags[0]["range"]).0 .0,
        u64::from(utf16_at(&broken, "let revealed").0)
    );
    c.change(&u, 2, &good);
    assert_eq!(c.diagnostics_for(&u), Vec::<Value>::new());
    c.stop();
}

fn hover_text(r: &Value) -> String {
    r["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_else(|| panic!("no hover: {r}"))
        .to_string()
}

#[test]
fn hover_shows_a_cards_printed_text_and_a_names_declaration() {
    let mut c = Client::start(json!({"lang": "ja"}));
    let text = std::fs::read_to_string(parade()).unwrap();
    let u = c.open(&parade(), &text);
    // On the card's name in its declaration.
    let (l, col) = utf16_at(&text, "提灯お化け");
    let r = c.at("textDocument/hover", &u, l, col + 2);
    insta::assert_snapshot!("hover_card_ja", hover_text(&r));
    assert_eq!(
        range(&r["result"]["range"]),
        (
            (u64::from(l), u64::from(col) - 1),
            (u64::from(l), u64::from(col) + 6)
        )
    );
    // On a verb of the pack.
    let (l, col) = utf16_at(&text, "frighten 2");
    let r = c.at("textDocument/hover", &u, l, col + 3);
    insta::assert_snapshot!("hover_verb", hover_text(&r));
    // On a verb of the game the pack builds on.
    let (l, col) = utf16_at(&text, "draw 1");
    let r = c.at("textDocument/hover", &u, l, col);
    insta::assert_snapshot!("hover_game_verb", hover_text(&r));
    // On nothing: no hover.
    let (l, _) = utf16_at(&text, "card \"提灯お化け\"");
    let r = c.at("textDocument/hover", &u, l + 1, 0);
    assert_eq!(r["result"], Value::Null, "{r}");
    c.stop();
}

#[test]
fn hover_in_english_by_default() {
    let mut c = Client::start(Value::Null);
    let text = std::fs::read_to_string(parade()).unwrap();
    let u = c.open(&parade(), &text);
    let (l, col) = utf16_at(&text, "百鬼夜行\" {");
    let r = c.at("textDocument/hover", &u, l, col);
    insta::assert_snapshot!("hover_card_en", hover_text(&r));
    c.stop();
}

#[test]
fn definition_jumps_across_packs() {
    let mut c = Client::start(json!({}));
    let text = std::fs::read_to_string(parade()).unwrap();
    let u = c.open(&parade(), &text);
    let ruleset = std::fs::read_to_string(root().join("cards/pmv/ruleset.fuda")).unwrap();
    // A verb of the game: into cards/pmv/ruleset.fuda, at its name.
    let (l, col) = utf16_at(&text, "draw 1");
    let r = c.at("textDocument/definition", &u, l, col + 1);
    let locs = r["result"].as_array().unwrap();
    assert_eq!(
        locs[0]["uri"],
        uri(&root().join("cards/pmv/ruleset.fuda")),
        "{r}"
    );
    let ((sl, sc), (el, ec)) = range(&locs[0]["range"]);
    assert_eq!(sl, el);
    let line = ruleset.lines().nth(sl as usize).unwrap();
    let name: String = line
        .encode_utf16()
        .skip(sc as usize)
        .take((ec - sc) as usize)
        .map(|u| char::from_u32(u32::from(u)).unwrap())
        .collect();
    assert_eq!(name, "draw");
    assert!(line.trim_start().starts_with("verb draw"), "{line}");
    // A keyword of the pack, in the pack's other file.
    let (l, col) = utf16_at(&text, "terrify");
    let r = c.at("textDocument/definition", &u, l, col);
    let words = root().join("cards/examples/night-parade/sets/words.fuda");
    assert_eq!(r["result"][0]["uri"], uri(&words), "{r}");
    let words_text = std::fs::read_to_string(&words).unwrap();
    let (wl, wc) = utf16_at(&words_text, "terrify \"威圧\"");
    assert_eq!(
        range(&r["result"][0]["range"]),
        (
            (u64::from(wl), u64::from(wc)),
            (u64::from(wl), u64::from(wc) + 7)
        )
    );
    // A stat after `.` (the game's), and a card named in a string.
    let (l, col) = utf16_at(&text, "attack += 1 until");
    let r = c.at("textDocument/definition", &u, l, col);
    assert_eq!(
        r["result"][0]["uri"],
        uri(&root().join("cards/pmv/ruleset.fuda")),
        "{r}"
    );
    c.stop();
}

#[test]
fn the_outline_lists_a_files_cards_and_declarations() {
    let mut c = Client::start(json!({}));
    let u = uri(&parade());
    let r = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": u}}),
    );
    let names: Vec<&str> = r["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "提灯お化け",
            "ぬらりひょん",
            "百鬼夜行",
            "見越し入道",
            "祟り神"
        ],
        "{r}"
    );
    let text = std::fs::read_to_string(parade()).unwrap();
    let (l, col) = utf16_at(&text, "\"ぬらりひょん\"");
    assert_eq!(
        range(&r["result"][1]["selectionRange"]),
        (
            (u64::from(l), u64::from(col)),
            (u64::from(l), u64::from(col) + 8)
        )
    );
    let words = root().join("cards/examples/night-parade/sets/words.fuda");
    let r = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri(&words)}}),
    );
    let got: Vec<(String, String)> = r["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_string(),
                s["detail"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    for want in [
        ("fear", "counter"),
        ("terrify", "keyword"),
        ("frighten", "verb"),
        ("frightened", "event"),
    ] {
        assert!(
            got.contains(&(want.0.to_string(), want.1.to_string())),
            "{want:?} in {got:?}"
        );
    }
    c.stop();
}

fn labels(r: &Value) -> Vec<String> {
    r["result"]
        .as_array()
        .unwrap_or_else(|| panic!("no completions: {r}"))
        .iter()
        .map(|i| i["label"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn completion_offers_the_names_the_context_expects() {
    let mut c = Client::start(json!({}));
    let text = std::fs::read_to_string(parade()).unwrap();
    // A keyword list being written.
    let edited = text.replacen("  keywords: terrify\n", "  keywords: \n", 1);
    let u = c.open(&parade(), &edited);
    let (l, col) = utf16_at(&edited, "keywords: \n");
    let r = c.at("textDocument/completion", &u, l, col + 10);
    let got = labels(&r);
    assert!(got.contains(&"terrify".to_string()), "{got:?}");
    assert!(
        r["result"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i["detail"].as_str().unwrap().starts_with("keyword")),
        "{r}"
    );
    // After `opponent.`: the pack's counter, zones, no verbs.
    let (l, col) = utf16_at(&edited, "opponent.fear");
    let r = c.at("textDocument/completion", &u, l, col + 9);
    let got = labels(&r);
    assert!(got.contains(&"fear".to_string()), "{got:?}");
    assert!(!got.contains(&"frighten".to_string()), "{got:?}");
    // Inside a string: the game's cards, replacing the string's content.
    let (l, col) = utf16_at(&edited, "妖怪\"");
    let r = c.at("textDocument/completion", &u, l, col + 1);
    let items = r["result"].as_array().unwrap();
    let names: Vec<&str> = items.iter().map(|i| i["label"].as_str().unwrap()).collect();
    assert!(names.contains(&"百鬼夜行"), "the pack's cards: {names:?}");
    assert!(
        names.contains(&"人里の子供"),
        "the game's cards too: {names:?}"
    );
    let edit = &items[0]["textEdit"];
    assert_eq!(
        range(&edit["range"]),
        (
            (u64::from(l), u64::from(col)),
            (u64::from(l), u64::from(col) + 2)
        )
    );
    // Inside a comment: nothing.
    let (l, col) = utf16_at(&edited, "the keyword and the verb");
    let r = c.at("textDocument/completion", &u, l, col + 4);
    assert_eq!(r["result"], json!([]), "{r}");
    // Anywhere else: every name, with its kind.
    let r = c.at("textDocument/completion", &u, 0, 0);
    let items = r["result"].as_array().unwrap();
    let verb = items
        .iter()
        .find(|i| i["label"] == "frighten")
        .expect("the pack's verb");
    assert!(
        verb["detail"].as_str().unwrap().starts_with("verb"),
        "{verb}"
    );
    c.stop();
}

#[test]
fn formatting_goes_through_fuda_fmt() {
    let mut c = Client::start(json!({}));
    let text = std::fs::read_to_string(parade()).unwrap();
    let messy = text.replacen("  cost: 0\n", "  cost:0\n", 1);
    assert_ne!(messy, text);
    let u = c.open(&parade(), &messy);
    let r = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": u}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    let edits = r["result"].as_array().unwrap();
    assert_eq!(edits.len(), 1, "{r}");
    assert_eq!(edits[0]["newText"], text.as_str());
    assert_eq!(range(&edits[0]["range"]).0, (0, 0));
    // Already canonical: no edit; syntax errors: no edit, no crash.
    c.change(&u, 2, &text);
    let r = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": u}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    assert_eq!(r["result"], json!([]), "{r}");
    c.change(&u, 3, "card \"x\" {{{ \n  cost:");
    let r = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": u}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    assert_eq!(r["result"], json!([]), "{r}");
    c.stop();
}

#[test]
fn a_scenario_file_gets_the_scenario_readers_diagnostics() {
    let mut c = Client::start(json!({}));
    let path =
        root().join("cards/examples/night-parade/scenarios/np-verb-and-counter-frighten.toml");
    let good = std::fs::read_to_string(&path).unwrap();
    let bad = good.replacen("turn = 3", "turn = \"三\"", 1);
    assert_ne!(bad, good);
    let u = c.open(&path, &bad);
    let diags = c.diagnostics_for(&u);
    assert_eq!(diags.len(), 1, "{diags:?}");
    let (l, col) = utf16_at(&bad, "\"三\"");
    assert_eq!(
        range(&diags[0]["range"]),
        (
            (u64::from(l), u64::from(col)),
            (u64::from(l), u64::from(col) + 3)
        )
    );
    // It reads: it is run, and passes.
    c.change(&u, 2, &good);
    assert_eq!(c.diagnostics_for(&u), Vec::<Value>::new());
    // A card the game does not have: the runner's diagnostic, at the name.
    let unknown = good.replacen(
        "deck = [\"人里の子供 x5\"]",
        "deck = [\"人里の子供子 x5\"]",
        1,
    );
    assert_ne!(unknown, good);
    c.change(&u, 3, &unknown);
    let diags = c.diagnostics_for(&u);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(
        range(&diags[0]["range"]).0 .0,
        u64::from(utf16_at(&unknown, "人里の子供子").0)
    );
    // An expectation that does not hold: the failure, at `[expect]`.
    let wrong = good.replacen(
        "\"drawn(人里の自警団, p1)\"",
        "\"drawn(人里の自警団, p2)\"",
        1,
    );
    assert_ne!(wrong, good);
    c.change(&u, 4, &wrong);
    let diags = c.diagnostics_for(&u);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert!(
        diags[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("scenario failed"),
        "{diags:?}"
    );
    let (l, col) = utf16_at(&wrong, "[expect]");
    assert_eq!(range(&diags[0]["range"]).0, (u64::from(l), u64::from(col)));
    c.stop();
}

#[test]
fn garbage_gets_errors_or_empty_answers_never_a_crash() {
    let mut c = Client::start(json!({"lang": 7}));
    let text = std::fs::read_to_string(parade()).unwrap();
    let u = c.open(&parade(), &text);
    // Malformed parameters.
    let r = c.request("textDocument/hover", json!({"textDocument": 3}));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    let r = c.request("textDocument/definition", Value::Null);
    assert_eq!(r["error"]["code"], -32602, "{r}");
    // An unknown method.
    let r = c.request("fuda/teleport", json!({}));
    assert_eq!(r["error"]["code"], -32601, "{r}");
    // Positions past the end of a line and of the file.
    for (line, ch) in [(0, 9999), (9999, 0), (u32::MAX, u32::MAX)] {
        for m in [
            "textDocument/hover",
            "textDocument/definition",
            "textDocument/completion",
        ] {
            let r = c.at(m, &u, line, ch);
            assert!(r.get("error").is_none(), "{m} {line}:{ch}: {r}");
        }
    }
    // A quick-fix request past the end, and one on an unknown file.
    for doc in [
        u.as_str(),
        "file:///no/such/pack/x.fuda",
        "untitled:Untitled-1",
    ] {
        let r = c.request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": doc}, "context": {"diagnostics": []},
                   "range": {"start": {"line": 9999, "character": 5}, "end": {"line": u32::MAX, "character": 0}}}),
        );
        assert_eq!(r["result"], json!([]), "{r}");
    }
    // Unknown files, and URIs that are no file.
    for other in [
        "file:///no/such/pack/x.fuda",
        "untitled:Untitled-1",
        "file:///no/such.toml",
    ] {
        for m in [
            "textDocument/hover",
            "textDocument/definition",
            "textDocument/completion",
        ] {
            let r = c.at(m, other, 0, 0);
            assert!(r.get("error").is_none(), "{m} {other}: {r}");
            assert!(
                r["result"].is_null() || r["result"] == json!([]),
                "{m} {other}: {r}"
            );
        }
        let r = c.request("textDocument/formatting", json!({"textDocument": {"uri": other}, "options": {"tabSize": 2, "insertSpaces": true}}));
        assert_eq!(r["result"], json!([]), "{r}");
    }
    // Notifications with bad parameters, and a change to a document never opened.
    c.notify("textDocument/didOpen", json!({"nope": true}));
    c.notify("textDocument/didChange", json!({"textDocument": {"uri": "file:///never/opened.fuda", "version": 1}, "contentChanges": [{"text": "x"}]}));
    c.notify("$/cancelRequest", json!({"id": 99}));
    // A file of garbage bytes as text.
    let broken = "card \u{0}\u{FFFF}「 {{{{ ]]] 😀\n".repeat(50);
    c.change(&u, 2, &broken);
    let diags = c.diagnostics_for(&u);
    assert!(!diags.is_empty());
    let r = c.at("textDocument/hover", &u, 3, 7);
    assert!(r.get("error").is_none(), "{r}");
    c.stop();
}

#[test]
fn a_message_that_is_not_json_rpc_ends_the_server() {
    let mut c = Client::spawn();
    c.write_raw("{ this is not json");
    let status = c.child.wait().unwrap();
    assert!(!status.success());
}
