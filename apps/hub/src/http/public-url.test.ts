import { request } from "node:http";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { startTestHub } from "../__fixtures__/test-hub.js";
import type { RunningHub } from "../start-hub.js";
import { normalizePublicUrl } from "./public-url.js";

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  temp = makeTempDir();
});
afterEach(() => temp.remove());

/** A GET with a Host header of the caller's choosing (fetch forbids setting it). */
function getWithHost(hub: RunningHub, path: string, host: string) {
  const { port } = new URL(hub.url);
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path, headers: { Host: host } }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on("error", reject);
      req.end();
    },
  );
}

const PATHS = [
  "/api/models/meta-llama/Llama-3.1-8B-Instruct/snippets?provider=together",
  "/api/models/bartowski/Llama-3.2-3B-Instruct-GGUF/library-snippets",
  "/api/widget/top-products",
  "/api/models?limit=2",
];

describe("URLs the hub writes", () => {
  it("start with the configured public URL, whatever Host the request carries", async () => {
    const hub = await startTestHub({
      dataDir: join(temp.dir, "data"),
      catalogueDir: FIXTURE_CATALOGUE_DIR,
      providerSim: false,
      publicUrl: "https://hub.example.org/mirror/",
    });
    try {
      expect(hub.publicUrl).toBe("https://hub.example.org/mirror");
      for (const path of PATHS) {
        const { status, headers, body } = await getWithHost(hub, path, "evil.example");
        expect(status, path).toBe(200);
        const written = `${body}\n${String(headers.link ?? "")}`;
        expect(written, path).not.toContain("evil.example");
        expect(written, path).toContain("https://hub.example.org/mirror");
      }
      const { headers } = await getWithHost(hub, "/api/models?limit=2", "evil.example");
      expect(String(headers.link)).toMatch(
        /^<https:\/\/hub\.example\.org\/mirror\/api\/models\?limit=2&cursor=/,
      );
    } finally {
      await hub.close();
    }
  });

  it("default to the address the hub listens on", async () => {
    const hub = await startTestHub({
      dataDir: join(temp.dir, "data"),
      catalogueDir: FIXTURE_CATALOGUE_DIR,
      providerSim: false,
    });
    try {
      expect(hub.publicUrl).toBe(hub.url);
      const { body } = await getWithHost(hub, PATHS[0]!, "evil.example");
      expect(body).not.toContain("evil.example");
      expect(body).toContain(`${hub.url}/router/v1/chat/completions`);
    } finally {
      await hub.close();
    }
  });

  it("refuses a public URL that is not an absolute http(s) URL before listening", async () => {
    await expect(
      startTestHub({
        dataDir: join(temp.dir, "data"),
        catalogueDir: FIXTURE_CATALOGUE_DIR,
        publicUrl: "hub.example",
      }),
    ).rejects.toThrow(/PUBLIC_URL/);
    expect(normalizePublicUrl("http://127.0.0.1:8080/")).toBe("http://127.0.0.1:8080");
  });
});
