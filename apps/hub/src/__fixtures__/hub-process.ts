import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const HUB_DIR = fileURLToPath(new URL("../..", import.meta.url));

/** A hub in a process of its own: the real server entry (`npm start`'s), configured through its environment. */
export interface HubProcess {
  child: ChildProcess;
  url: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Sends `signal` (default SIGTERM: a graceful shutdown) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts `src/server.ts` (through tsx, as the tests run the sources) with `env` over this process's
 * environment, on a free port; resolves once it prints where it listens.
 */
export async function startHubProcess(env: Record<string, string>): Promise<HubProcess> {
  const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", "src/server.ts"], {
    cwd: HUB_DIR,
    env: { ...process.env, PORT: "0", LOG_LEVEL: "error", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the hub did not start: ${output}`)), 60_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the hub exited: ${output}`));
    });
  });
  return {
    child,
    url,
    output: () => output,
    stop: (signal = "SIGTERM") => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
