import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededApp, seededApp } from "../__fixtures__/seeded-app.js";

let hub: SeededApp;
beforeAll(async () => {
  hub = await seededApp();
});
afterAll(() => hub.cleanup());

interface SnippetsBody {
  id: string;
  provider: string;
  providerModelId: string;
  status: string;
  warning?: string;
  snippets: Array<{ language: string; client: string; content: string }>;
}

async function get(path: string) {
  const response = await hub.app.request(`http://hub.test${path}`);
  return { response, body: (await response.json()) as SnippetsBody & { code?: string } };
}

describe("GET /api/models/{id}/snippets", () => {
  it("renders the chat snippets of a provider, pointed at this hub's router", async () => {
    const { response, body } = await get(
      "/api/models/meta-llama/Llama-3.1-8B-Instruct/snippets?provider=together",
    );
    expect(response.status).toBe(200);
    expect(body).toMatchObject({
      id: "meta-llama/Llama-3.1-8B-Instruct",
      provider: "together",
      providerModelId: "meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo",
      status: "live",
    });
    const languages = new Set(body.snippets.map((s) => s.language));
    expect([...languages].sort()).toEqual(["js", "python", "sh"]);
    // Chat goes to the router's OpenAI-compatible /v1 with the provider in `model`, as today's public snippets.
    const curl = body.snippets.find((s) => s.client === "curl")!;
    expect(curl.content).toContain("http://hub.test/router/v1/chat/completions");
    expect(curl.content).toContain('"model": "meta-llama/Llama-3.1-8B-Instruct:together"');
    const openai = body.snippets.find((s) => s.client === "openai" && s.language === "python")!;
    expect(openai.content).toContain('base_url="http://hub.test/router/v1"');
  });

  it("renders the auto provider: the router or the client picks", async () => {
    const { response, body } = await get(
      "/api/models/meta-llama/Llama-3.1-8B-Instruct/snippets?provider=auto",
    );
    expect(response.status).toBe(200);
    expect(body).toMatchObject({ provider: "auto", autoProvider: expect.any(String) });
    const autoBody = body as unknown as { autoProvider: string };
    const openai = body.snippets.find((s) => s.client === "openai" && s.language === "python")!;
    expect(openai.content).toContain('model="meta-llama/Llama-3.1-8B-Instruct",');
    // huggingface_hub sends `auto` chat to the public router whatever hub it is given: it names the provider.
    const hubClient = body.snippets.find((s) => s.client === "huggingface_hub")!;
    expect(hubClient.content).toContain(`provider="${autoBody.autoProvider}"`);
  });

  it("filters by language and client, and applies streaming and parameters", async () => {
    const { body } = await get(
      "/api/models/meta-llama/Llama-3.1-8B-Instruct/snippets?provider=together&language=python&client=openai&streaming=true&temperature=0.5&max_tokens=64&top_p=0.9",
    );
    expect(body.snippets).toHaveLength(1);
    const [snippet] = body.snippets;
    expect(snippet).toMatchObject({ language: "python", client: "openai" });
    expect(snippet!.content).toMatch(/stream=True/);
    expect(snippet!.content).toContain("0.5");
    expect(snippet!.content).toContain("64");
    expect(snippet!.content).toContain("0.9");
  });

  it("defaults to the first live provider, and warns for a staging mapping", async () => {
    const first = await get("/api/models/openai/whisper-large-v3/snippets");
    expect(first.body.provider).toBe("fal-ai");
    const staging = await get("/api/models/Wan-AI/Wan2.1-T2V-14B/snippets?provider=novita");
    expect(staging.body.status).toBe("staging");
    expect(staging.body.warning).toMatch(/staging/);
  });

  it("answers clear 4xx errors for bad input", async () => {
    const cases: Array<[string, number]> = [
      ["/api/models/meta-llama/Llama-3.1-8B-Instruct/snippets?provider=acme-ai", 400],
      ["/api/models/meta-llama/Llama-3.1-8B-Instruct/snippets?provider=replicate", 404],
      ["/api/models/meta-llama/Llama-3.1-8B-Instruct/snippets?language=cobol", 400],
      ["/api/models/meta-llama/Llama-3.1-8B-Instruct/snippets?client=curl%27%3B", 400],
      ["/api/models/meta-llama/Llama-3.1-8B-Instruct/snippets?temperature=9", 400],
      ["/api/models/meta-llama/Llama-3.1-8B-Instruct/snippets?max_tokens=-1", 400],
      ["/api/models/meta-llama/Llama-3.1-8B-Instruct/snippets?streaming=maybe", 400],
      ["/api/models/nobody/nothing/snippets", 401],
      ["/api/models/bad..id/x/snippets", 400],
    ];
    for (const [path, status] of cases) {
      const { response, body } = await get(path);
      expect(response.status, path).toBe(status);
      expect(body.code, path).toEqual(expect.any(String));
    }
  });
});
