import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_DIR = fileURLToPath(new URL("../../../../", import.meta.url));
/** The project's virtualenv (huggingface_hub, transformers... from the local index). */
export const VENV_PYTHON = join(REPO_DIR, ".venv", "bin", "python");

export interface PythonResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a Python client script with only PATH and `env` (HF_ENDPOINT, tokens...) in its environment. */
export function runPython(args: string[], env: Record<string, string>, timeoutMs = 170_000): Promise<PythonResult> {
  return new Promise((resolve) => {
    execFile(
      VENV_PYTHON,
      args,
      { env: { PATH: process.env.PATH ?? "", ...env }, maxBuffer: 16 * 1024 * 1024, timeout: timeoutMs },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The environment huggingface_hub runs in against a hub on loopback, through the Git LFS path. */
export function hfClientEnv(hubUrl: string, home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    HF_ENDPOINT: hubUrl,
    HF_HUB_DISABLE_XET: "1",
    HF_HOME: home,
    HF_HUB_DISABLE_TELEMETRY: "1",
    HF_HUB_DISABLE_PROGRESS_BARS: "1",
    ...extra,
  };
}
