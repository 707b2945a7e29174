// Parses ES modules with Node's own parser, in one process (driven by snippets-compile.test.ts).
// Run with --experimental-vm-modules. stdin: {key: code}; stdout: {key: error} for those that fail.
import vm from "node:vm";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const failures = {};
for (const [key, code] of Object.entries(JSON.parse(input))) {
  try {
    new vm.SourceTextModule(code, { identifier: key });
  } catch (error) {
    failures[key] = String(error);
  }
}
process.stdout.write(JSON.stringify(failures));
