// One cold measurement in a fresh `node` process (run.ts and profile.ts spawn it).
// argv: <mode> <module URL or package name> [JSON array of call arguments]
//   ours | theirs: import, first getInferenceSnippets call, then a second identical call;
//   import: import only;
//   compile | compile-source: compile templates cold, then again (see below).
const [mode, specifier, argsJson = "[]"] = process.argv.slice(2);
// JSON has no undefined: an absent argument travels as null.
const args = JSON.parse(argsJson).map((value) => (value === null ? undefined : value));

// CPU time beside wall time: on a shared machine a fresh process often waits for a core, which wall time
// counts and CPU time does not.
const cpuMs = (since) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};
const cpuStart = process.cpuUsage();
const start = performance.now();
const mod = await import(specifier);
const imported = performance.now();
const result = { importMs: imported - start, importCpuMs: cpuMs(cpuStart) };

if (mode === "ours" || mode === "theirs") {
  const generate = mode === "ours" ? mod.getInferenceSnippets : mod.snippets.getInferenceSnippets;
  const snippets = generate(...args);
  const first = performance.now();
  result.totalCpuMs = cpuMs(cpuStart);
  generate(...args);
  const second = performance.now();
  Object.assign(result, {
    firstCallMs: first - imported,
    totalMs: first - start,
    secondCallMs: second - first,
    snippets: snippets.length,
  });
} else if (mode === "compile" || mode === "compile-source") {
  // The module exports { Template, PRECOMPILED_TEMPLATES, SOURCES }: compile the templates named in the
  // arguments (all when none are named) cold, then again: from their precompiled form (as the generator
  // does) or from their source (lexing and parsing as well).
  const table = mode === "compile" ? mod.PRECOMPILED_TEMPLATES : mod.SOURCES;
  const keys = args.length > 0 ? args : Object.keys(table);
  const compile =
    mode === "compile" ? (text) => mod.Template.fromPrecompiled(text) : (text) => new mod.Template(text);
  const cpuBefore = process.cpuUsage();
  for (const key of keys) compile(table[key]);
  const cold = performance.now();
  result.compileCpuMs = cpuMs(cpuBefore);
  for (const key of keys) compile(table[key]);
  const warm = performance.now();
  Object.assign(result, {
    templates: keys.length,
    compileColdMs: cold - imported,
    compileWarmMs: warm - cold,
  });
} else if (mode !== "import") {
  throw new Error(`unknown mode ${mode}`);
}

process.stdout.write(JSON.stringify(result));
