import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, adminHeaders, type SeededApp, seededApp } from "../__fixtures__/seeded-app.js";
import { createMemoryLogger } from "../logger.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field.
type Json = any;

let hub: SeededApp;
let logger: ReturnType<typeof createMemoryLogger>;
beforeEach(async () => {
  logger = createMemoryLogger();
  hub = await seededApp({ logger });
});
afterEach(() => hub.cleanup());

const NEW_MODEL = {
  id: "HuggingFaceTB/SmolLM2-135M",
  pipeline_tag: "text-generation",
  library_name: "transformers",
  tags: ["transformers", "safetensors", "llama", "text-generation", "en"],
  downloads: 1200,
  likes: 30,
  config: { architectures: ["LlamaForCausalLM"], model_type: "llama" },
};

async function send(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = adminHeaders(),
) {
  const response = await hub.app.request(path, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return { response, body: (await response.json()) as Json };
}

/** Everything the store holds, to prove that refused requests wrote nothing. */
async function snapshot() {
  return JSON.stringify({
    models: await hub.store.models.list({ sort: "downloads", direction: -1, limit: 1000 }),
    mappings: [...(await hub.store.mappings.forModels(["meta-llama/Llama-3.1-8B-Instruct"]))],
    tokens: await hub.store.accounts.tokens.list(),
  });
}

describe("admin authentication", () => {
  it("refuses missing and wrong admin tokens, and a disabled admin API", async () => {
    const missing = await send("POST", "/api/admin/models", NEW_MODEL, {
      "Content-Type": "application/json",
    });
    expect(missing.response.status).toBe(401);
    const wrong = await send(
      "POST",
      "/api/admin/models",
      NEW_MODEL,
      adminHeaders("not-the-admin-token-at-all"),
    );
    expect(wrong.response.status).toBe(401);
    expect(wrong.body.code).toBe("unauthorized");
    const disabled = await seededApp({ adminToken: null });
    try {
      // Without ADMIN_TOKEN there is no operator: the credential is just an invalid one.
      const response = await disabled.app.request("/api/admin/tokens", { headers: adminHeaders() });
      expect(response.status).toBe(401);
    } finally {
      disabled.cleanup();
    }
    expect(await hub.store.models.get(NEW_MODEL.id)).toBeUndefined();
  });

  it("does not accept the token of a user who is not a site admin", async () => {
    const { body: issued } = await send("POST", "/api/admin/tokens", { name: "ci" });
    const { response } = await send("GET", "/api/admin/tokens", undefined, adminHeaders(issued.token));
    expect(response.status).toBe(403);
  });
});

describe("model writes", () => {
  it("creates a model that the public API then serves, and refuses a duplicate", async () => {
    const created = await send("POST", "/api/admin/models", NEW_MODEL);
    expect(created.response.status).toBe(201);
    const served = (await (await hub.app.request(`/api/models/${NEW_MODEL.id}`)).json()) as Json;
    expect(served).toMatchObject({ id: NEW_MODEL.id, likes: 30, library_name: "transformers" });
    const again = await send("POST", "/api/admin/models", NEW_MODEL);
    expect(again.response.status).toBe(409);
  });

  it("replaces a model with PUT and keeps its creation date", async () => {
    const before = (await hub.store.models.get("dslim/bert-base-NER"))!;
    const { response } = await send("PUT", "/api/admin/models/dslim/bert-base-NER", {
      tags: ["transformers", "token-classification"],
      pipeline_tag: "token-classification",
      likes: 9999,
    });
    expect(response.status).toBe(200);
    const after = (await hub.store.models.get("dslim/bert-base-NER"))!;
    expect(after.likes).toBe(9999);
    expect(after.createdAt).toBe(before.createdAt);
  });

  it("sets and deletes provider mappings", async () => {
    const mapping = {
      status: "staging",
      providerId: "HuggingFaceTB/SmolLM2-135M-fast",
      task: "conversational",
    };
    await send("POST", "/api/admin/models", NEW_MODEL);
    const set = await send("PUT", `/api/admin/models/${NEW_MODEL.id}/mappings/together`, mapping);
    expect(set.response.status).toBe(200);
    expect(await hub.store.mappings.forModel(NEW_MODEL.id)).toEqual({ together: mapping });
    const removed = await send("DELETE", `/api/admin/models/${NEW_MODEL.id}/mappings/together`);
    expect(removed.response.status).toBe(200);
    expect(await hub.store.mappings.forModel(NEW_MODEL.id)).toEqual({});
  });

  it("deletes a model with its mappings", async () => {
    const { response } = await send("DELETE", "/api/admin/models/openai/whisper-large-v3");
    expect(response.status).toBe(200);
    expect(await hub.store.models.get("openai/whisper-large-v3")).toBeUndefined();
    expect(await hub.store.mappings.forModel("openai/whisper-large-v3")).toEqual({});
  });
});

describe("bad admin input writes nothing", () => {
  const cases: Array<[string, string, string, unknown, number, string]> = [
    ["invalid JSON", "POST", "/api/admin/models", "{ not json", 400, "invalid_json"],
    ["JSON array", "POST", "/api/admin/models", [NEW_MODEL], 400, "invalid_input"],
    [
      "malformed id",
      "POST",
      "/api/admin/models",
      { ...NEW_MODEL, id: "../etc/passwd" },
      400,
      "invalid_input",
    ],
    [
      "SQL in id",
      "POST",
      "/api/admin/models",
      { ...NEW_MODEL, id: "x/y'; DROP TABLE models;--" },
      400,
      "invalid_input",
    ],
    [
      "unknown task",
      "POST",
      "/api/admin/models",
      { ...NEW_MODEL, pipeline_tag: "mind-reading" },
      400,
      "invalid_input",
    ],
    ["wrong type", "POST", "/api/admin/models", { ...NEW_MODEL, downloads: "many" }, 400, "invalid_input"],
    ["tags not strings", "POST", "/api/admin/models", { ...NEW_MODEL, tags: [1, 2] }, 400, "invalid_input"],
    [
      "id mismatch",
      "PUT",
      "/api/admin/models/meta-llama/Llama-3.1-8B-Instruct",
      { ...NEW_MODEL },
      400,
      "invalid_input",
    ],
    [
      "unknown provider",
      "PUT",
      "/api/admin/models/meta-llama/Llama-3.1-8B-Instruct/mappings/acme-ai",
      { status: "live", providerId: "x", task: "conversational" },
      400,
      "invalid_input",
    ],
    [
      "bad mapping status",
      "PUT",
      "/api/admin/models/meta-llama/Llama-3.1-8B-Instruct/mappings/together",
      { status: "retired", providerId: "x", task: "conversational" },
      400,
      "invalid_input",
    ],
    [
      "mapping path trick",
      "PUT",
      "/api/admin/models/meta-llama/Llama-3.1-8B-Instruct/mappings/together",
      { status: "live", providerId: "../../admin", task: "conversational" },
      400,
      "invalid_input",
    ],
    [
      "mapping for a missing model",
      "PUT",
      "/api/admin/models/nobody/nothing/mappings/together",
      { status: "live", providerId: "x", task: "conversational" },
      404,
      "not_found",
    ],
    ["token without name", "POST", "/api/admin/tokens", { scopes: ["inference"] }, 400, "invalid_input"],
    ["token bad scope", "POST", "/api/admin/tokens", { name: "x", scopes: ["admin"] }, 400, "invalid_input"],
    ["revoke bad id", "DELETE", "/api/admin/tokens/1%20OR%201=1", undefined, 400, "invalid_input"],
    ["revoke missing", "DELETE", "/api/admin/tokens/999", undefined, 404, "not_found"],
  ];
  it.each(cases)("%s -> %s %s answers %i", async (_name, method, path, body, status, code) => {
    const before = await snapshot();
    const result = await send(method, path, body);
    expect(result.response.status).toBe(status);
    expect(result.body.code).toBe(code);
    expect(result.body.error).toEqual(expect.any(String));
    expect(await snapshot()).toBe(before);
  });

  it("refuses a body over the limit with 413, whatever Content-Length says", async () => {
    const before = await snapshot();
    const huge = { ...NEW_MODEL, cardText: "x".repeat(2 * 1024 * 1024) };
    const declared = await send("POST", "/api/admin/models", huge);
    expect(declared.response.status).toBe(413);
    expect(declared.body.code).toBe("payload_too_large");
    // A streamed body has no Content-Length: the limit still holds while reading.
    const bytes = new TextEncoder().encode(JSON.stringify(huge));
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 65536) controller.enqueue(bytes.slice(i, i + 65536));
        controller.close();
      },
    });
    const streamed = await hub.app.request("/api/admin/models", {
      method: "POST",
      headers: adminHeaders(),
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await snapshot()).toBe(before);
  });

  it("refuses a body that is not declared as JSON with 415", async () => {
    const { response, body } = await send("POST", "/api/admin/models", NEW_MODEL, {
      Authorization: `Bearer ${ADMIN_TOKEN}`,
      "Content-Type": "text/plain",
    });
    expect(response.status).toBe(415);
    expect(body.code).toBe("unsupported_media_type");
  });
});

describe("tokens", () => {
  it("issues an hf_ token once, stores only its hash, lists and revokes it", async () => {
    const { response, body } = await send("POST", "/api/admin/tokens", { name: "playground" });
    expect(response.status).toBe(201);
    expect(body.token).toMatch(/^hf_[A-Za-z0-9]{34}$/);
    expect(body).toMatchObject({ name: "playground", role: "read", revokedAt: null });

    const listed = await send("GET", "/api/admin/tokens");
    expect(JSON.stringify(listed.body)).not.toContain(body.token);
    expect(listed.body[0].hint).toBe(`hf_…${body.token.slice(-4)}`);

    const revoked = await send("DELETE", `/api/admin/tokens/${body.id}`);
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    // Never logged either.
    expect(logger.lines.join("\n")).not.toContain(body.token);
    expect(logger.lines.join("\n")).not.toContain(ADMIN_TOKEN);
  });
});
