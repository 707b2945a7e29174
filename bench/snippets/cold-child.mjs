// One cold measurement in a fresh `node` process (run.ts and profile.ts spawn it).
// argv: <mode> <module URL or package name> [JSON array of call arguments]
//   ours | theirs: import, first getInferenceSnippets call, then a second identical call;
//   import: import only.
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
} else if (mode !== "import") {
  throw new Error(`unknown mode ${mode}`);
}

process.stdout.write(JSON.stringify(result));
