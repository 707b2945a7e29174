import { type ChildProcess, spawn } from "node:child_process";

/**
 * Running the real `git` binary: the hub speaks git's protocol and pack format through it (never its own
 * implementation: docs/decisions/git-http.md). Every process gets a clean environment: no user or system
 * configuration, no prompts, only what the caller passes.
 */

/** Thrown when a git command the hub runs fails: its arguments and what git said. */
export class GitCommandError extends Error {
  constructor(args: readonly string[], code: number | null, stderr: string) {
    super(`git ${args.join(" ")} failed (exit ${code}): ${stderr.trim().slice(0, 2000)}`);
    this.name = "GitCommandError";
  }
}

export function gitEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    LANG: "C",
    ...extra,
  };
}

/** Starts `git args...` in `cwd`: stdin, stdout and stderr are pipes for the caller to stream. */
export function spawnGit(
  cwd: string,
  args: readonly string[],
  env: Record<string, string> = {},
): ChildProcess {
  return spawn("git", args, { cwd, env: gitEnvironment(env), stdio: ["pipe", "pipe", "pipe"] });
}

/**
 * Runs `git args...` to completion, writing `input` (bytes or a stream of them) to its stdin, and answers
 * its stdout; a non-zero exit is a GitCommandError with what git wrote to stderr.
 */
export async function runGit(
  cwd: string,
  args: readonly string[],
  input?: Uint8Array | string | AsyncIterable<Uint8Array | string>,
  env: Record<string, string> = {},
): Promise<Buffer> {
  const child = spawnGit(cwd, args, env);
  const stdout: Buffer[] = [];
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => stdout.push(chunk));
  child.stderr!.on("data", (chunk: Buffer) => {
    if (stderr.length < 64 * 1024) stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  // A process that exits early closes its stdin: the write error is reported by the exit code instead.
  child.stdin!.on("error", () => {});
  try {
    if (input === undefined) child.stdin!.end();
    else if (typeof input === "string" || input instanceof Uint8Array) child.stdin!.end(input);
    else {
      for await (const chunk of input) {
        if (!child.stdin!.write(chunk)) {
          await new Promise<void>((resolve) => {
            child.stdin!.once("drain", resolve);
            child.once("close", resolve);
          });
        }
        if (child.exitCode !== null) break;
      }
      child.stdin!.end();
    }
  } catch (error) {
    child.kill();
    await exited.catch(() => {});
    throw error;
  }
  const code = await exited;
  if (code !== 0) throw new GitCommandError(args, code, stderr);
  return Buffer.concat(stdout);
}
