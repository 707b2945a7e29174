// One cold measurement in a fresh `node` process (run.ts and profile.ts spawn it).
// argv: <mode> <module URL or package name> [JSON array of call arguments]
//   ours | theirs: import, first getInferenceSnippets call, then a second identical call;
//   import: import only;
//   compile: the module exports { Template, TEMPLATES }: compile every template (cold), then again (warm).
const [mode, specifier, argsJson = "[]"] = process.argv.slice(2);
// JSON has no undefined: an absent argument travels as null.
const args = JSON.parse(argsJson).map((value) => (value === null ? undefined : value));

const start = performance.now();
const mod = await import(specifier);
const imported = performance.now();
const result = { importMs: imported - start };

if (mode === "ours" || mode === "theirs") {
  const generate = mode === "ours" ? mod.getInferenceSnippets : mod.snippets.getInferenceSnippets;
  const snippets = generate(...args);
  const first = performance.now();
  generate(...args);
  const second = performance.now();
  Object.assign(result, {
    firstCallMs: first - imported,
    totalMs: first - start,
    secondCallMs: second - first,
    snippets: snippets.length,
  });
} else if (mode === "compile") {
  const sources = Object.values(mod.TEMPLATES);
  for (const source of sources) new mod.Template(source);
  const cold = performance.now();
  for (const source of sources) new mod.Template(source);
  const warm = performance.now();
  Object.assign(result, {
    templates: sources.length,
    compileColdMs: cold - imported,
    compileWarmMs: warm - cold,
  });
} else if (mode !== "import") {
  throw new Error(`unknown mode ${mode}`);
}

process.stdout.write(JSON.stringify(result));
