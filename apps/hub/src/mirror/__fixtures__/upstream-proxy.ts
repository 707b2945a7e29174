import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** A request the mirror made upstream, as the proxy saw it. */
export interface ProxiedRequest {
  method: string;
  /** Path and query. */
  url: string;
  /** Whether it carried an Authorization header (never its value). */
  authorized: boolean;
}

/**
 * What the proxy does with requests: forwards them (`pass`), accepts them and never answers (`hang`: an upstream
 * that stopped answering), or refuses connections (`down`: the port is closed, as when upstream is stopped).
 */
export type ProxyMode = "pass" | "hang" | "down";

/**
 * Answers a request itself (a fault: a cut transfer, wrong bytes, 429) instead of forwarding it: return true
 * once it handled `res`. Tests set it for the requests they want to break.
 */
export type ProxyIntercept = (req: IncomingMessage, res: ServerResponse, forward: () => void) => boolean;

export interface UpstreamProxy {
  /** Where the mirror reaches upstream (its UPSTREAM_URL). */
  readonly url: string;
  /** Every request that reached the proxy, oldest first (requests refused while `down` never arrive). */
  readonly requests: ProxiedRequest[];
  mode(): ProxyMode;
  setMode(mode: ProxyMode): Promise<void>;
  intercept: ProxyIntercept | undefined;
  close(): Promise<void>;
}

/**
 * A loopback HTTP proxy in front of the upstream hub: counts what the mirror asks (offline mode makes no call)
 * and stands for an upstream that is down or hangs, on the same port throughout (the mirror's UPSTREAM_URL
 * does not change). Requests are forwarded byte for byte, streaming both ways.
 */
export async function startUpstreamProxy(target: () => string): Promise<UpstreamProxy> {
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  let mode: ProxyMode = "pass";
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? "GET", url: req.url ?? "/", authorized: Boolean(req.headers.authorization) });
    if (mode === "hang") return;
    const forward = () => {
      const upstream = new URL(target());
      const outgoing = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
          answer.pipe(res);
          answer.once("error", () => res.destroy());
        },
      );
      outgoing.once("error", () => res.destroy());
      req.pipe(outgoing);
    };
    if (proxy.intercept?.(req, res, forward)) return;
    forward();
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve((server.address() as AddressInfo).port);
      });
    });
  const port = await listen(0);
  const shut = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  const proxy: UpstreamProxy = {
    url: `http://127.0.0.1:${port}`,
    requests,
    mode: () => mode,
    async setMode(next) {
      if (next === "down" && mode !== "down") await shut();
      if (next !== "down" && mode === "down") await listen(port);
      // Connections held open by a hang are cut when it ends: their callers have long given up.
      if (mode === "hang" && next !== "hang") for (const socket of sockets) socket.destroy();
      mode = next;
    },
    intercept: undefined,
    close: shut,
  };
  return proxy;
}
