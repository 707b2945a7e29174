import { fork } from "node:child_process";

export interface ServerUsage {
  cpuMicros: number;
  connections: number;
}

/** The bench server (server.ts) in its own process, so it does not share the client's event loop. */
export async function startServer(): Promise<{
  base: string;
  stop: () => void;
  /**
   * The server process's CPU time so far (user + system, µs) and the connections it has accepted, asked
   * over IPC, not over the socket.
   */
  serverUsage: () => Promise<ServerUsage>;
}> {
  const child = fork(new URL("./server.ts", import.meta.url).pathname, [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (m) => resolve((m as { port: number }).port));
    child.once("exit", (code) => reject(new Error(`bench server exited (${code})`)));
  });
  const serverUsage = () =>
    new Promise<ServerUsage>((resolve) => {
      child.once("message", (m) => resolve(m as ServerUsage));
      child.send("cpu");
    });
  return { base: `http://127.0.0.1:${port}`, stop: () => child.disconnect(), serverUsage };
}
