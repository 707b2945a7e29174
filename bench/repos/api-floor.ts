/**
 * The floors of api-ab.ts (issue 42): a server with no logic that replays the answers a real hub gave, so
 * that the hub's CPU per request can be set beside what the HTTP stack alone costs for the same bytes.
 *
 *   node --max-semi-space-size=64 --import tsx repos/api-floor.ts bare|hono <answers.json>
 *
 * `bare`: node:http alone, one lookup of the request line in a map. `hono`: the hub's HTTP stack alone (Hono
 * and @hono/node-server as resolved from this checkout, the versions the hub runs; `getRequestListener` on a
 * node:http server, as start-hub.ts wires it), one route per call with the hub's parameter shape. Both answer
 * with the recorded status, headers (the hub's names and values, hence sizes; node:http adds `Date`,
 * `Connection` and `Keep-Alive` itself, as it does for the hub) and body. Prints `Floor is running at <url>`.
 */
import { readFileSync } from "node:fs";
import { createServer, type OutgoingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";

/** One recorded answer of the hub: what the floors send back, byte for byte. */
export interface RecordedAnswer {
  method: string;
  path: string;
  status: number;
  /** The hub's headers in its order and spelling, those node:http writes itself left out. */
  headers: [string, string][];
  bodyBase64: string;
}

const [kind, answersFile] = process.argv.slice(2);
if ((kind !== "bare" && kind !== "hono") || !answersFile) {
  throw new Error("usage: api-floor.ts bare|hono <answers.json> (the answers api-ab.ts recorded)");
}
const answers = JSON.parse(readFileSync(answersFile, "utf8")) as RecordedAnswer[];

/** node:http takes repeated header names as one name with an array of values. */
function headerObject(headers: [string, string][]): OutgoingHttpHeaders {
  const object: Record<string, string | string[]> = {};
  for (const [name, value] of headers) {
    const earlier = object[name];
    object[name] = earlier === undefined ? value : [...(Array.isArray(earlier) ? earlier : [earlier]), value];
  }
  return object;
}

function bareListener() {
  const byRequestLine = new Map(
    answers.map((answer) => [
      `${answer.method} ${answer.path}`,
      {
        ...answer,
        headerObject: headerObject(answer.headers),
        body: Buffer.from(answer.bodyBase64, "base64"),
      },
    ]),
  );
  return createServer((request, response) => {
    const answer = byRequestLine.get(`${request.method} ${request.url}`);
    if (!answer) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(answer.status, answer.headerObject);
    if (request.method === "HEAD") response.end();
    else response.end(answer.body);
  });
}

/**
 * The hub's route patterns (repos/resolve-routes.ts, api/model-info): a parameter per path segment, the file
 * path last. A HEAD reaches the GET route, as in the hub, and answers with the handler's own `Response`; a GET
 * answers through `c.body`, as the hub's model info does.
 */
function honoListener() {
  const app = new Hono();
  for (const answer of answers) {
    const body = Buffer.from(answer.bodyBase64, "base64");
    if (answer.method === "HEAD" && /\/resolve\//.test(answer.path)) {
      app.get(
        "/:namespace/:repo/resolve/:revision/:path{.+}",
        () => new Response(null, { status: answer.status, headers: answer.headers }),
      );
    } else if (answer.path.startsWith("/api/models/")) {
      app.get("/api/models/:namespace/:repo", (c) =>
        c.body(body, answer.status as 200, Object.fromEntries(answer.headers)),
      );
    } else {
      throw new Error(`no Hono route for ${answer.method} ${answer.path}: add its pattern here`);
    }
  }
  const listener = getRequestListener(app.fetch, { hostname: "127.0.0.1" });
  return createServer(
    { requireHostHeader: false },
    (incoming, outgoing) => void listener(incoming, outgoing),
  );
}

const server = kind === "bare" ? bareListener() : honoListener();
server.listen(0, "127.0.0.1", () => {
  console.log(`Floor is running at http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
});
