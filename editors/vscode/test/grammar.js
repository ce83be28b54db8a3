// Tokenizes a shipped card file with the TextMate grammar, as VS Code does (vscode-textmate on
// the Oniguruma regex engine), and checks what a few tokens are highlighted as. Run by
// `npm run check-grammar`; `tests/vscode.rs` runs it after the build.

const fs = require("fs");
const path = require("path");
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const here = __dirname;
const repo = path.join(here, "..", "..", "..");
const sample = process.argv[2] || path.join(repo, "cards/examples/night-parade/sets/parade.fuda");

async function main() {
  const wasm = fs.readFileSync(path.join(here, "..", "node_modules/vscode-oniguruma/release/onig.wasm")).buffer;
  await oniguruma.loadWASM(wasm);
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope) => {
      if (scope !== "source.fuda") return null;
      const file = path.join(here, "..", "syntaxes/fuda.tmLanguage.json");
      return vsctm.parseRawGrammar(fs.readFileSync(file, "utf8"), file);
    },
  });
  const grammar = await registry.loadGrammar("source.fuda");
  const text = fs.readFileSync(sample, "utf8");
  const seen = new Map();
  let state = vsctm.INITIAL;
  for (const line of text.split("\n")) {
    const r = grammar.tokenizeLine(line, state);
    for (const t of r.tokens) {
      const word = line.slice(t.startIndex, t.endIndex);
      if (!seen.has(word)) seen.set(word, t.scopes.join(" "));
    }
    state = r.ruleStack;
  }
  const expect = [
    ["card", "storage.type"],
    ["\"提灯お化け\"", "entity.name.type.card"],
    ["when", "keyword.control"],
    ["this", "constant.language"],
    ["1/1", "constant.numeric"],
    ["{", "punctuation.section.braces"],
    ["// the keyword and the verb: 【威圧】(このキャラクターが攻撃を行う時、相手を1畏れさせる。)", "comment.line"],
  ];
  const wrong = expect.filter(([word, scope]) => !(seen.get(word) || "").includes(scope));
  if (wrong.length > 0) {
    for (const [word, scope] of wrong) {
      console.error(`\`${word}\`: expected ${scope}, got ${seen.get(word) || "no token"}`);
    }
    process.exit(1);
  }
  console.log(`${expect.length} tokens highlighted as expected in ${path.basename(sample)}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
