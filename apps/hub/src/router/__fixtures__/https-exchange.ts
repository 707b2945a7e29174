/**
 * Run as a script (by https-upstream.e2e.test.ts, in a process of its own so that NODE_EXTRA_CA_CERTS can make
 * the test certificate trusted, as an operator would for a private gateway): an HTTPS provider on loopback with
 * the self-signed pair in ./tls, a pipe hub in front of it, three calls through the hub. Prints one JSON line:
 * each call's status and body, the statuses the hub recorded, and how many TLS connections the provider saw.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { startPipeHub } from "./pipe-hub.js";

const tls = (name: string) => readFileSync(new URL(`./tls/${name}`, import.meta.url));
let connections = 0;
const provider = createServer({ key: tls("provider-key.pem"), cert: tls("provider-cert.pem") }, (req, res) => {
  res.writeHead(200, { "content-type": "application/json" });
  // The key the hub sent, echoed back: the hub must scrub it from the answer.
  res.end(JSON.stringify({ host: req.headers.host, authorization: req.headers.authorization, path: req.url }));
});
provider.on("secureConnection", () => connections++);
await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
const port = (provider.address() as AddressInfo).port;
const recorded: number[] = [];
const hub = await startPipeHub({
  baseUrl: `https://localhost:${port}/base`,
  key: "sk-provider-key",
  publicUrl: "http://hub",
  onDone: (result) => recorded.push(result.status),
});
const calls: { status: number; body: string }[] = [];
for (let i = 0; i < 3; i++) {
  const answer = await fetch(`http://127.0.0.1:${(hub.address() as AddressInfo).port}/`, {
    method: "POST",
    body: "{}",
  });
  calls.push({ status: answer.status, body: await answer.text() });
}
process.stdout.write(`${JSON.stringify({ port, calls, recorded, connections })}\n`);
hub.close();
provider.close();
process.exit(0);
