import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Test support: checks shell snippets with the real bash. `checkSyntax` runs `bash -n` once over many
 * blocks; `runWithStubs` executes blocks with every command they call replaced by a stub that records its
 * arguments, so a test can see exactly which words each command received, and whether anything else ran.
 */

/** Commands snippets call, stubbed on PATH or at the relative paths snippets use. */
const STUBBED_COMMANDS = [
  "llama-server", "llama-cli", "ollama", "docker", "npx", "local-ai", "vllm", "python3", "curl", "chmod",
  "mlx_lm.chat", "mlx_lm.generate", "mlx_lm.server", "lemonade", "pi", "hermes", "openclaw",
];
const STUBBED_PATHS = ["llama-server", "llama-cli", "llamafile", "build/bin/llama-server", "build/bin/llama-cli"];

// Records "C", the command name, the argument count and each argument, NUL-separated (no argument can hold
// a NUL). Shell builtins only: one short bash process per call.
const STUB = `#!/bin/bash
printf 'C\\0%s\\0%d\\0' "\${0##*/}" "$#" >> "$STUB_LOG"
if [ "$#" -gt 0 ]; then printf '%s\\0' "$@" >> "$STUB_LOG"; fi
`;

/** Bash syntax errors of each block, by index; empty when all parse. One bash process for the batch. */
export function checkSyntax(blocks: string[]): Map<number, string> {
  const failures = new Map<number, string>();
  const script = blocks.map((block, i) => `__block_${i}() {\n:\n${block}\n}\n`).join("");
  if (spawnSync("bash", ["-n"], { input: script, encoding: "utf8" }).status === 0) return failures;
  // Only on failure: find the culprits one by one, for a readable message.
  blocks.forEach((block, i) => {
    const result = spawnSync("bash", ["-n"], { input: block, encoding: "utf8" });
    if (result.status !== 0) failures.set(i, result.stderr);
  });
  return failures;
}

export interface StubCall {
  command: string;
  args: string[];
}

export interface StubRun {
  /** Calls per block, in order. */
  calls: StubCall[][];
  /** Files present in the working directory afterwards, besides the stubs. */
  strayFiles: string[];
  stderr: string;
}

export function runWithStubs(blocks: string[]): StubRun {
  const work = mkdtempSync(join(tmpdir(), "local-apps-"));
  try {
    const bin = join(work, ".stub-bin");
    mkdirSync(bin);
    mkdirSync(join(work, "build", "bin"), { recursive: true });
    const stub = join(bin, ".stub");
    writeFileSync(stub, STUB);
    chmodSync(stub, 0o755);
    for (const name of STUBBED_COMMANDS) copyFileSync(stub, join(bin, name));
    for (const name of STUBBED_COMMANDS) chmodSync(join(bin, name), 0o755);
    for (const path of STUBBED_PATHS) {
      copyFileSync(stub, join(work, path));
      chmodSync(join(work, path), 0o755);
    }
    const log = join(work, ".stub-log");
    writeFileSync(log, "");
    const script = blocks.map((block, i) => `printf 'B\\0%s\\0' ${i} >> "$STUB_LOG"\n(\n${block}\n)\n`).join("");
    const result = spawnSync("bash", ["-c", script], {
      cwd: work,
      encoding: "utf8",
      env: { PATH: `${bin}:/usr/bin:/bin`, STUB_LOG: log, HOME: work },
    });
    const calls: StubCall[][] = blocks.map(() => []);
    const tokens = readFileSync(log, "utf8").split("\0");
    let current: StubCall[] | undefined;
    for (let i = 0; i < tokens.length - 1; ) {
      if (tokens[i] === "B") {
        current = calls[Number(tokens[i + 1])];
        i += 2;
      } else if (tokens[i] === "C") {
        const count = Number(tokens[i + 2]);
        current?.push({ command: tokens[i + 1] ?? "", args: tokens.slice(i + 3, i + 3 + count) });
        i += 3 + count;
      } else throw new Error(`Unexpected stub log token ${JSON.stringify(tokens[i])}`);
    }
    const stubs = new Set([".stub-bin", ".stub-log", "build", ...STUBBED_PATHS]);
    return { calls, strayFiles: readdirSync(work).filter((name) => !stubs.has(name)), stderr: result.stderr };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
