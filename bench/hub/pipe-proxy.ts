import { Agent, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The floor of any proxy hop, for the benchmark: a node:http server that forwards every request to the same
 * path on `targetUrl` through a keep-alive pool and pipes the answer back, and does nothing else (no
 * authentication, no header filtering, no usage, no logs, no timeouts). Whatever the hub's router costs above
 * this is the router's own work; what this costs above calling the provider directly is the hop itself.
 */
export async function startPipeProxy(targetUrl: string): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(targetUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const server = createServer((incoming, outgoing) => {
    const upstream = request(
      {
        hostname: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: target.host },
        agent,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.setNoDelay(true);
    upstream.once("error", () => outgoing.destroy());
    outgoing.once("close", () => {
      if (!outgoing.writableFinished) upstream.destroy();
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
