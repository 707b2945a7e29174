// Runs many JavaScript snippets in one node process, each imported as its own ES module (fresh module scope),
// from its own directory, with its own console output. Reads a JSON list of {id, dir, file} on stdin; writes
// one JSON line per snippet to stdout: {id, code, stdout, stderr} (code 0: the module finished; 1: it threw or
// timed out). Loading openai and @huggingface/inference once instead of once per snippet keeps thousands of
// snippets to seconds.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { format } from "node:util";

const TIMEOUT_MS = 30_000;
const write = process.stdout.write.bind(process.stdout);
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const entries = JSON.parse(Buffer.concat(chunks).toString("utf8"));

let current;
const capture = (stream) =>
  function captured(chunk, encoding, callback) {
    if (current) current[stream] += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    if (typeof encoding === "function") encoding();
    else if (typeof callback === "function") callback();
    return true;
  };
const print =
  (stream) =>
  (...args) => {
    if (current) current[stream] += `${format(...args)}\n`;
  };
for (const method of ["log", "info", "debug"]) console[method] = print("stdout");
for (const method of ["error", "warn"]) console[method] = print("stderr");
process.stdout.write = capture("stdout");
process.stderr.write = capture("stderr");
// A rejection nobody awaits fails the snippet that caused it rather than the runner.
process.on("unhandledRejection", (error) => {
  if (current) current.failure ??= error;
});

for (const { id, dir, file } of entries) {
  current = { stdout: "", stderr: "", failure: undefined };
  process.chdir(dir);
  const started = performance.now();
  let timer;
  try {
    await Promise.race([
      import(pathToFileURL(join(dir, file)).href),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the snippet did not finish in ${TIMEOUT_MS} ms`)),
          TIMEOUT_MS,
        );
      }),
    ]);
    // Let callbacks the module left behind (stream ends, pending writes) run before its output is taken.
    await new Promise((resolve) => setTimeout(resolve, 0));
  } catch (error) {
    current.failure ??= error;
  } finally {
    clearTimeout(timer);
  }
  const ms = Math.round(performance.now() - started);
  const { stdout, stderr, failure } = current;
  current = undefined;
  const failureText = failure ? `${failure?.stack ?? failure}\n` : "";
  write(`${JSON.stringify({ id, code: failure ? 1 : 0, stdout, stderr: stderr + failureText, ms })}\n`);
}
