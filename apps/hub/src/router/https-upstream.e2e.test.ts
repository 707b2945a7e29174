import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const HUB_DIR = fileURLToPath(new URL("../..", import.meta.url));
const SCRIPT = "src/router/__fixtures__/https-exchange.ts";
const CERTIFICATE = fileURLToPath(new URL("./__fixtures__/tls/provider-cert.pem", import.meta.url));

interface Exchange {
  port: number;
  calls: { status: number; body: string }[];
  recorded: number[];
  connections: number;
}

/** Runs the HTTPS exchange script with `env` over this process's environment. */
function runExchange(env: Record<string, string | undefined>): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--conditions=source", "--import", "tsx", SCRIPT],
      { cwd: HUB_DIR, env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout.trim().split("\n").at(-1)!) as Exchange);
      },
    );
  });
}

describe("the router's calls to an HTTPS provider", () => {
  it("go over TLS on one kept-alive connection, with the key scrubbed from the answer", async () => {
    const { port, calls, recorded, connections } = await runExchange({ NODE_EXTRA_CA_CERTS: CERTIFICATE });
    expect(calls.map((call) => call.status)).toEqual([200, 200, 200]);
    for (const call of calls) {
      expect(JSON.parse(call.body)).toEqual({
        host: `localhost:${port}`,
        authorization: "Bearer [redacted]",
        path: "/base/v1/chat/completions",
      });
    }
    expect(recorded).toEqual([200, 200, 200]);
    expect(connections).toBe(1);
  }, 60_000);

  it("refuse a provider whose certificate is not trusted: 502, nothing forwarded", async () => {
    const { calls, recorded, connections } = await runExchange({ NODE_EXTRA_CA_CERTS: undefined });
    expect(calls.map((call) => call.status)).toEqual([502, 502, 502]);
    expect(recorded).toEqual([502, 502, 502]);
    expect(connections).toBe(0);
  }, 60_000);
});
