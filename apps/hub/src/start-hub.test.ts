import { mkdirSync, writeFileSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import type { Socket } from "node:net";
import { join } from "node:path";
import { InferenceClient } from "@modelhub/inference";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, FIXTURE_CATALOGUE_DIR } from "./__fixtures__/seeded-app.js";
import { makeTempDir } from "./__fixtures__/temp-dir.js";
import { startTestHub } from "./__fixtures__/test-hub.js";

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  temp = makeTempDir();
});
afterEach(() => temp.remove());

const start = () =>
  startTestHub({
    dataDir: join(temp.dir, "data"),
    adminToken: ADMIN_TOKEN,
    catalogueDir: FIXTURE_CATALOGUE_DIR,
  });
const admin = { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" };

describe("startHub", () => {
  it("serves on loopback, and a restart on the same data dir keeps every write", async () => {
    const hub = await start();
    expect(hub.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const model = {
      id: "acme/tiny-model",
      tags: ["text-generation"],
      pipeline_tag: "text-generation",
      likes: 3,
    };
    const writes = [
      fetch(`${hub.url}/api/admin/models`, { method: "POST", headers: admin, body: JSON.stringify(model) }),
      fetch(`${hub.url}/api/admin/models/dslim/bert-base-NER`, { method: "DELETE", headers: admin }),
    ];
    for (const response of await Promise.all(writes)) expect(response.ok).toBe(true);
    const mapping = { status: "live", providerId: "acme-tiny", task: "text-generation" };
    expect(
      (
        await fetch(`${hub.url}/api/admin/models/acme/tiny-model/mappings/together`, {
          method: "PUT",
          headers: admin,
          body: JSON.stringify(mapping),
        })
      ).status,
    ).toBe(200);
    const token = (await (
      await fetch(`${hub.url}/api/admin/tokens`, { method: "POST", headers: admin, body: '{"name":"keep"}' })
    ).json()) as { id: number };
    await fetch(`${hub.url}/api/admin/tokens/${token.id}`, { method: "DELETE", headers: admin });
    await hub.close();

    const again = await start();
    try {
      const served = (await (
        await fetch(
          `${again.url}/api/models/acme/tiny-model?expand[]=inferenceProviderMapping&expand[]=likes`,
        )
      ).json()) as Record<string, unknown>;
      expect(served).toMatchObject({ likes: 3, inferenceProviderMapping: { together: mapping } });
      // Deleted: RepoNotFound, 401 for an anonymous caller as on the public hub.
      expect((await fetch(`${again.url}/api/models/dslim/bert-base-NER`)).status).toBe(401);
      expect((await again.store.accounts.tokens.byId(token.id))?.revokedAt).toEqual(expect.any(String));
      expect(await again.store.models.count()).toBe(20);
    } finally {
      await again.close();
    }
  });

  it("serves the web app: its pages 200, any other path 404 with the app (its not-found page)", async () => {
    const webDist = join(temp.dir, "dist");
    mkdirSync(join(webDist, "assets"), { recursive: true });
    writeFileSync(join(webDist, "index.html"), "<!doctype html><title>Modelhub</title>");
    writeFileSync(join(webDist, "assets", "app-1234.js"), "console.log(1)");
    writeFileSync(join(temp.dir, "secret.txt"), "do not serve");
    const hub = await startTestHub({
      dataDir: join(temp.dir, "data"),
      catalogueDir: FIXTURE_CATALOGUE_DIR,
      webDist,
    });
    try {
      const html = { Accept: "text/html" };
      const index = await fetch(`${hub.url}/meta-llama/Llama-3.1-8B-Instruct`, { headers: html });
      expect(index.status).toBe(200);
      expect(await index.text()).toContain("<title>Modelhub</title>");
      // The root is the app even for a caller that accepts anything (curl's */*).
      const root = await fetch(`${hub.url}/`, { headers: { Accept: "*/*" } });
      expect(root.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(await root.text()).toContain("<title>Modelhub</title>");
      // Known pages are the app whatever the caller accepts (`curl /models`); unknown ones a 404 page.
      for (const accept of ["*/*", "application/json", "text/html"]) {
        for (const path of [
          "/models",
          "/widget-builder",
          "/meta-llama/Llama-3.1-8B-Instruct",
          "/meta-llama/Llama-3.1-8B-Instruct/playground",
          "/meta-llama/Llama-3.1-8B-Instruct/libraries/transformers",
          "/meta-llama/Llama-3.1-8B-Instruct/local-apps/llama.cpp",
        ]) {
          const page = await fetch(`${hub.url}${path}`, { headers: { Accept: accept } });
          expect(page.status, `${path} ${accept}`).toBe(200);
          expect(await page.text()).toContain("<title>Modelhub</title>");
        }
        for (const path of ["/nobody/no-such-model", "/meta-llama/Llama-3.1-8B-Instruct/nope", "/a/b/c/d"]) {
          const page = await fetch(`${hub.url}${path}`, { headers: { Accept: accept } });
          expect(page.status, `${path} ${accept}`).toBe(404);
          expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
          expect(await page.text()).toContain("<title>Modelhub</title>");
        }
      }
      expect((await fetch(`${hub.url}/assets/missing-1234.js`)).headers.get("content-type")).toContain(
        "application/json",
      );
      const asset = await fetch(`${hub.url}/assets/app-1234.js`);
      expect(asset.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
      expect(asset.headers.get("cache-control")).toContain("immutable");
      for (const path of ["/..%2Fsecret.txt", "/assets/..%2F..%2Fsecret.txt", "/%2e%2e/secret.txt"]) {
        const response = await fetch(`${hub.url}${path}`);
        expect(await response.text(), path).not.toContain("do not serve");
      }
      const api = await fetch(`${hub.url}/api/unknown`, { headers: html });
      expect(api.status).toBe(404);
      expect(api.headers.get("content-type")).toContain("application/json");
    } finally {
      await hub.close();
    }
  });

  it("starts provider-sim in-process for providers without a key, and routes keyed ones to the provider", async () => {
    const hub = await startTestHub({
      dataDir: join(temp.dir, "data"),
      adminToken: ADMIN_TOKEN,
      catalogueDir: FIXTURE_CATALOGUE_DIR,
      providerKeys: { cerebras: "csk-test-key-not-used" },
    });
    try {
      expect(hub.providerSimUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(hub.routing.provider).toEqual(["cerebras"]);
      expect(hub.routing["provider-sim"]).toContain("together");
      const { token } = (await (
        await fetch(`${hub.url}/api/admin/tokens`, { method: "POST", headers: admin, body: '{"name":"sim"}' })
      ).json()) as { token: string };
      const client = new InferenceClient(token, { hubUrl: hub.url, routerUrl: `${hub.url}/router` });
      const output = await client.chatCompletion({
        model: "Qwen/Qwen2.5-7B-Instruct",
        provider: "together",
        messages: [{ role: "user", content: "Hello" }],
      });
      expect(output.choices[0]?.message.content).toEqual(expect.any(String));
      // The simulator knows the hub's own catalogue: hf-inference answers for a model only the hub has.
      const entities = await client.tokenClassification({
        model: "dslim/bert-base-NER",
        provider: "hf-inference",
        inputs: "My name is Clara and I live in Berkeley, California.",
      });
      expect(Array.isArray(entities)).toBe(true);
    } finally {
      await hub.close();
    }
  });

  it("keeps idle connections 65 s by default, and as long as keepAliveSeconds says", async () => {
    // One request on a fresh socket; resolves with the answer's Keep-Alive header and the socket.
    const ask = (url: string) =>
      new Promise<{ keepAlive: string; socket: Socket }>((resolve, reject) => {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        const request = httpRequest(`${url}/api/models?limit=1`, { agent }, (response) => {
          response.resume();
          response.on("end", () =>
            resolve({ keepAlive: String(response.headers["keep-alive"]), socket: request.socket! }),
          );
        });
        request.on("error", reject);
        request.end();
      });
    const hub = await start();
    try {
      const { keepAlive, socket } = await ask(hub.url);
      expect(keepAlive).toBe("timeout=65");
      socket.destroy();
    } finally {
      await hub.close();
    }
    const short = await startTestHub({
      dataDir: join(temp.dir, "short"),
      adminToken: ADMIN_TOKEN,
      catalogueDir: FIXTURE_CATALOGUE_DIR,
      keepAliveSeconds: 1,
    });
    try {
      const { keepAlive, socket } = await ask(short.url);
      expect(keepAlive).toBe("timeout=1");
      const started = Date.now();
      // The hub closes the idle connection after its second, not node's 5 s.
      await new Promise((resolve) => socket.once("close", resolve));
      expect(Date.now() - started).toBeLessThan(4000);
    } finally {
      await short.close();
    }
  });

  it("closes gracefully: an in-flight request completes, then the port is released", async () => {
    const hub = await start();
    // The request's body is held back until close() has begun, so the request is in flight when the hub
    // starts closing, however slowly this machine accepts the connection.
    const body = JSON.stringify({ repoType: "model", content: "---\nlicense: mit\n---\n" });
    const request = httpRequest(`${hub.url}/api/validate-yaml`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Content-Length": String(body.length) },
    });
    const answered = new Promise<number | undefined>((resolve, reject) => {
      request.on("response", (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode));
      });
      request.on("error", reject);
    });
    request.write(body.slice(0, 1));
    await new Promise((resolve) => request.once("socket", (socket) => socket.once("connect", resolve)));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = hub.close();
    request.end(body.slice(1));
    expect(await answered).toBe(200);
    await closed;
    await expect(fetch(`${hub.url}/api/models`)).rejects.toThrow();
  });

  it("says in the log when the store fails to close at shutdown, and still finishes closing", async () => {
    const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
    const hub = await startTestHub({
      dataDir: join(temp.dir, "data"),
      catalogueDir: FIXTURE_CATALOGUE_DIR,
      logger: { log: (level, message, fields) => lines.push({ level, message, fields }) },
    });
    const closeStore = hub.store.close.bind(hub.store);
    hub.store.close = async () => {
      await closeStore();
      throw new Error("the usage queue could not be written");
    };
    await hub.close();
    expect(lines).toContainEqual({
      level: "error",
      message: "shutdown: the store did not close cleanly",
      fields: { error: "Error: the usage queue could not be written" },
    });
  });
});
