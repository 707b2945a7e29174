import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { mediaBytes } from "@modelhub/provider-sim";
import type { InferenceSnippet } from "../../types.js";
import { HUB_TOKEN, SAMPLE_FILES, VENV_PYTHON } from "../run-snippet.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));

/** One snippet to run, under an id the results are keyed by. */
export interface BatchEntry {
  id: string;
  snippet: InferenceSnippet;
}

/** What one snippet did: its exit status (0: ran to its end), its output, and the files it saved. */
export interface BatchResult {
  code: number;
  stdout: string;
  stderr: string;
  /** How long it ran (for shell snippets: not measured, 0). */
  ms: number;
  /** Its own directory (sample inputs in, results out). */
  dir: string;
  /** The files it wrote (any file of its directory other than the snippet and its inputs), with their bytes. */
  saved: Array<{ name: string; bytes: Buffer }>;
}

const FILE_OF: Record<InferenceSnippet["language"], string> = {
  python: "snippet.py",
  js: "snippet.mjs",
  sh: "snippet.sh",
};

/** Files of a snippet's directory that are not its results. */
const RUNNER_FILES = new Set([...Object.values(FILE_OF), "stdout.txt", "stderr.txt", "code.txt"]);
const SAMPLE_NAMES = new Set(SAMPLE_FILES.map(([name]) => name));

/** Whether a snippet reads this sample input: it names it, and not as the file it saves its result to. */
function readsSample(snippet: InferenceSnippet, name: string): boolean {
  const quoted = name.replace(".", "\\.");
  const saves = new RegExp(
    `Saved ${quoted}|-o '?${quoted}|writeFile\\("${quoted}"|open\\("${quoted}", "wb"\\)`,
  );
  return snippet.content.includes(name) && !saves.test(snippet.content);
}

interface Manifest {
  id: string;
  dir: string;
  file: string;
}

/** Runs a child with `input` on stdin; resolves with its stdout, rejects when it fails as a whole. */
function runChild(program: string, args: string[], input: string, cwd: string, env: NodeJS.ProcessEnv) {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(program, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`${program} ${args.join(" ")} exited ${code}:\n${stderr.slice(-3000)}`));
    });
    child.stdin.end(input);
  });
}

type Ran = Pick<BatchResult, "code" | "stdout" | "stderr" | "ms">;

function parseLines(output: string): Map<string, Ran> {
  const results = new Map<string, Ran>();
  for (const line of output.split("\n")) {
    if (!line.trim()) continue;
    const { id, ...result } = JSON.parse(line) as Ran & { id: string };
    results.set(id, result);
  }
  return results;
}

/**
 * The curl snippets, one after the other from one bash script, each in a child shell with `-e` as the
 * single-snippet runner does, its output in files of its own directory.
 */
async function runShell(entries: Manifest[], workDir: string, env: NodeJS.ProcessEnv) {
  const script = entries
    .map(
      ({ dir, file }) =>
        `(cd '${dir}' && timeout 30 bash -e '${file}' >stdout.txt 2>stderr.txt); echo $? >'${dir}/code.txt'`,
    )
    .join("\n");
  await runChild("bash", ["-c", script], "", workDir, env);
  const results = new Map<string, Ran>();
  for (const { id, dir } of entries) {
    results.set(id, {
      code: Number(readFileSync(join(dir, "code.txt"), "utf8")),
      stdout: readFileSync(join(dir, "stdout.txt"), "utf8"),
      stderr: readFileSync(join(dir, "stderr.txt"), "utf8"),
      ms: 0,
    });
  }
  return results;
}

/** Splits `items` into `count` interleaved parts (neighbours, often alike in cost, go to different parts). */
function deal<T>(items: readonly T[], count: number): T[][] {
  const parts = Array.from({ length: Math.min(count, items.length) }, (): T[] => []);
  items.forEach((item, index) => {
    parts[index % parts.length]!.push(item);
  });
  return parts;
}

/**
 * How many runners of each language work side by side. Most of a snippet's time is spent waiting (for the
 * server, and for polled jobs: the clients sleep between status polls), so runners overlap well even on two
 * cores; each costs its interpreter's start-up and imports once.
 */
export const RUNNERS_PER_LANGUAGE: Record<InferenceSnippet["language"], number> = { python: 3, js: 2, sh: 2 };

async function runLanguage(
  language: InferenceSnippet["language"],
  manifest: Manifest[],
  workDir: string,
  env: NodeJS.ProcessEnv,
  runners: number,
): Promise<Map<string, Ran>> {
  const parts = await Promise.all(
    deal(manifest, runners).map((part) => {
      if (language === "sh") return runShell(part, workDir, env);
      const [program, script] =
        language === "python" ? [VENV_PYTHON, "run-python.py"] : [process.execPath, "run-node.mjs"];
      return runChild(program, [join(HERE, script)], JSON.stringify(part), workDir, env).then(parseLines);
    }),
  );
  return new Map(parts.flatMap((part) => [...part]));
}

/**
 * Runs many snippets for real, batched so that thousands take seconds: the Python snippets in a few
 * interpreters (`run-python.py`: each snippet its own `__main__`, its own stdout), the JavaScript ones in a
 * few node processes (`run-node.mjs`: each imported as its own module), the shell ones from a few bash
 * scripts (RUNNERS_PER_LANGUAGE). Each snippet gets its own directory in `workDir` (which must be inside the
 * repository, so that node resolves `openai` and `@huggingface/inference` as a user's project would) holding
 * the sample inputs it reads; only `HF_TOKEN` (and PATH, HOME) is in their environment.
 */
export async function runSnippetBatch(
  entries: readonly BatchEntry[],
  workDir: string,
  env: Record<string, string> = { HF_TOKEN: HUB_TOKEN },
  runners = RUNNERS_PER_LANGUAGE,
): Promise<Map<string, BatchResult>> {
  const samples = SAMPLE_FILES.map(([name, kind]) => [name, mediaBytes(kind)] as const);
  const byLanguage: Record<InferenceSnippet["language"], Manifest[]> = { python: [], js: [], sh: [] };
  entries.forEach(({ id, snippet }, index) => {
    const dir = join(workDir, String(index));
    mkdirSync(dir, { recursive: true });
    // Only the inputs it reads: `video.mp4` is a sample input and a video snippet's output.
    for (const [name, bytes] of samples)
      if (readsSample(snippet, name)) writeFileSync(join(dir, name), bytes);
    const file = FILE_OF[snippet.language];
    writeFileSync(join(dir, file), snippet.content);
    byLanguage[snippet.language].push({ id, dir, file });
  });
  const childEnv = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: workDir,
    PYTHONUNBUFFERED: "1",
    ...env,
  };
  const [python, js, sh] = await Promise.all(
    (["python", "js", "sh"] as const).map((language) =>
      runLanguage(language, byLanguage[language], workDir, childEnv, runners[language]),
    ),
  );
  const results = new Map<string, BatchResult>();
  entries.forEach(({ id, snippet }, index) => {
    const dir = join(workDir, String(index));
    const ran = { python, js, sh }[snippet.language]?.get(id) ?? {
      code: -1,
      stdout: "",
      stderr: "the runner did not report this snippet",
      ms: 0,
    };
    const saved = readdirSync(dir)
      .filter((name) => !RUNNER_FILES.has(name) && !(readsSample(snippet, name) && SAMPLE_NAMES.has(name)))
      .map((name) => ({ name, bytes: readFileSync(join(dir, name)) }))
      .filter((file) => file.bytes.byteLength > 0);
    results.set(id, { ...ran, dir, saved });
  });
  return results;
}
