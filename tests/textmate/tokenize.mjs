// Tokenise documents with the TextMate engine VS Code uses (vscode-textmate on vscode-oniguruma).
// Reads one JSON object on standard input:
//   {"grammars": {"SCOPE": "PATH", ...}, "injections": {"SCOPE": ["INJECTED SCOPE", ...]},
//    "root": "SCOPE", "documents": ["TEXT", ...]}
// and writes, for each document, its lines' tokens: [[[start, end, [scopes...]], ...], ...].
// Each document is tokenised line by line, the rule stack carried from one line to the next, as an editor does.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import vsctm from "vscode-textmate";
import oniguruma from "vscode-oniguruma";

const require = createRequire(import.meta.url);
const input = JSON.parse(readFileSync(0, "utf-8"));
const wasm = readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer;
await oniguruma.loadWASM(wasm);

const registry = new vsctm.Registry({
  onigLib: Promise.resolve({
    createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
    createOnigString: (s) => new oniguruma.OnigString(s),
  }),
  loadGrammar: async (scope) => {
    const path = input.grammars[scope];
    return path ? vsctm.parseRawGrammar(readFileSync(path, "utf-8"), path) : null;
  },
  getInjections: (scope) => (input.injections || {})[scope],
});

const grammar = await registry.loadGrammar(input.root);
if (!grammar) throw new Error(`no grammar for ${input.root}`);
const out = input.documents.map((text) => {
  let stack = vsctm.INITIAL;
  return text.split("\n").map((line) => {
    const result = grammar.tokenizeLine(line, stack);
    stack = result.ruleStack;
    return result.tokens.map((t) => [t.startIndex, Math.min(t.endIndex, line.length), t.scopes]);
  });
});
process.stdout.write(JSON.stringify(out));
