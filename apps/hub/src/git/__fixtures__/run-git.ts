import { execFile } from "node:child_process";
import { join } from "node:path";
import { expect } from "vitest";

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface GitOptions {
  /** Where git runs (default: `dir`). */
  cwd?: string;
  /** Use the HOME where `git lfs install` was run, rather than a plain one. */
  lfs?: boolean;
  env?: Record<string, string>;
}

/**
 * Runs real git asynchronously (the hub under test answers in this very process), with a HOME of its own
 * under `dir` and nothing from the machine's configuration: no system config, no prompts, no askpass.
 */
export function runGit(dir: string, args: string[], options: GitOptions = {}): Promise<GitResult> {
  const home = join(dir, options.lfs ? "home-lfs" : "home-plain");
  return new Promise((resolve) => {
    execFile(
      "git",
      args,
      {
        cwd: options.cwd ?? dir,
        env: {
          PATH: process.env.PATH,
          HOME: home,
          GIT_CONFIG_NOSYSTEM: "1",
          GIT_TERMINAL_PROMPT: "0",
          GIT_ASKPASS: "",
          LANG: "C",
          ...options.env,
        },
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout: stdout.toString(), stderr: stderr.toString() });
      },
    );
  });
}

/** Runs git and expects it to succeed (its stderr in the failure message); answers its stdout. */
export async function runGitOk(dir: string, args: string[], options: GitOptions = {}): Promise<string> {
  const result = await runGit(dir, args, options);
  expect(result.code, `git ${args.join(" ")}\n${result.stderr}`).toBe(0);
  return result.stdout;
}
