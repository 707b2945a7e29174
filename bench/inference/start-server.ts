import { fork } from "node:child_process";

/** The bench server (server.ts) in its own process, so it does not share the client's event loop. */
export async function startServer(): Promise<{ base: string; stop: () => void }> {
  const child = fork(new URL("./server.ts", import.meta.url).pathname, [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (m) => resolve((m as { port: number }).port));
    child.once("exit", (code) => reject(new Error(`bench server exited (${code})`)));
  });
  return { base: `http://127.0.0.1:${port}`, stop: () => child.disconnect() };
}
