import { createServer } from "node:net";

/**
 * A TCP port free on loopback right now, for servers that need a number in their configuration and cannot
 * listen on port 0 themselves (PostgreSQL, nginx). Another process may take it before the server binds:
 * callers start the server at once.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
