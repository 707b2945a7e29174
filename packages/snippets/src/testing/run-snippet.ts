import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type MediaKind, mediaBytes } from "@modelhub/provider-sim";
import type { InferenceSnippet } from "../types.js";

const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));
export const REPO_DIR = join(PACKAGE_DIR, "..", "..");
export const VENV_PYTHON = join(REPO_DIR, ".venv", "bin", "python");
export const HUB_TOKEN = "hf_exec_test_token_0123456789";

/** The local files example inputs name (packages/tasks), as small valid media. */
export const SAMPLE_FILES: Array<[string, MediaKind]> = [
  ["sample1.flac", "flac"],
  ["sample1.wav", "wav"],
  ["cats.jpg", "jpeg"],
  ["invoice.png", "png"],
  ["video.mp4", "mp4"],
];

/** The bytes of a sample file snippets read, as the provider receives them base64-encoded. */
export function sampleBase64(fileName: string): string | undefined {
  const kind = SAMPLE_FILES.find(([name]) => name === fileName)?.[1];
  return kind ? Buffer.from(mediaBytes(kind)).toString("base64") : undefined;
}

/** Files that media snippets save their result to. */
export const OUTPUT_FILES = ["image.png", "speech.flac", "audio.flac", "video.mp4"];

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  dir: string;
}

/**
 * A scratch directory inside the package, so node resolves `openai` and `@huggingface/inference` from the
 * repository's node_modules exactly as a user's project would.
 */
export function makeWorkDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(PACKAGE_DIR, ".exec-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const COMMAND: Record<
  InferenceSnippet["language"],
  { file: string; command: (file: string) => [string, string[]] }
> = {
  python: { file: "snippet.py", command: (file) => [VENV_PYTHON, [file]] },
  js: { file: "snippet.mjs", command: (file) => [process.execPath, [file]] },
  sh: { file: "snippet.sh", command: (file) => ["bash", ["-e", file]] },
};

/** Runs one snippet as a user would paste it, with only the token in its environment. */
export function runSnippet(
  snippet: InferenceSnippet,
  workDir: string,
  name: string,
  env: Record<string, string> = { HF_TOKEN: HUB_TOKEN },
  timeoutMs = 30_000,
): Promise<RunResult> {
  const dir = join(workDir, name);
  mkdirSync(dir, { recursive: true });
  for (const [fileName, kind] of SAMPLE_FILES) writeFileSync(join(dir, fileName), mediaBytes(kind));
  const { file, command } = COMMAND[snippet.language];
  writeFileSync(join(dir, file), snippet.content);
  const [program, args] = command(file);
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, dir });
    });
  });
}
