import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { accountsService } from "../accounts/accounts-service.js";
import { MAX_CANDIDATES } from "./search-table.js";

/**
 * Search that finds (issue 39), through the hub's HTTP API on the test database (SQLite, or PostgreSQL with
 * HUB_TEST_DATABASE=postgres): the fixture catalogue's 20 models plus a small corpus whose right answer is
 * known, and a private model of acme that matches the same queries better than anything public.
 */
const hub = useTestHub();
let ada: string; // acme's admin: sees acme's private repositories
let otto: string; // an outsider

const card = (title: string, text: string) =>
  `# ${title}\n\n${text}\n\n## Usage\n\nLoad it with the library.\n`;

const CORPUS = [
  {
    id: "geo-lab/sat-segmenter",
    tags: ["image-segmentation", "remote-sensing"],
    cardText: card(
      "Land cover from satellite imagery",
      "Segments land cover classes (water, forest, cropland, urban) in multispectral satellite imagery.",
    ),
  },
  {
    id: "geo-lab/weather-nowcast",
    tags: ["time-series-forecasting"],
    cardText: card(
      "Precipitation nowcasting",
      "Radar sequences in, rain out; trained without satellite data.",
    ),
  },
  {
    id: "verse/tiny-poet",
    tags: ["text-generation", "poetry"],
    cardText: card("A small language model", "Writes short verses in English."),
  },
  {
    id: "verse/story-writer",
    tags: ["text-generation"],
    cardText: card("Stories", "Long-form fiction; it can also attempt poetry, badly."),
  },
  {
    id: "clinic/notes-ner",
    tags: ["token-classification", "medical"],
    cardText: card("Entities in clinical notes", "Finds drugs, doses and symptoms."),
  },
];

/** Better than anything public for the satellite queries: must never reach anyone outside acme. */
const SECRET = {
  id: "acme/orbital-secret",
  tags: ["image-segmentation", "remote-sensing", "poetry"],
  cardText: card(
    "Land cover from satellite imagery, satellite land cover",
    "Satellite imagery land cover segmentation: satellite land cover, satellite imagery, land cover.",
  ),
  private: true,
};

async function get(path: string, token?: string) {
  const response = await fetch(`${hub.url}${path}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
  // biome-ignore lint/suspicious/noExplicitAny: answers of several shapes, checked by each test
  return { body: (await response.json()) as any, total: response.headers.get("X-Total-Count") };
}

async function call(
  path: string,
  token: string,
  init: { method?: string; json?: unknown; ndjson?: unknown[] },
) {
  const response = await fetch(`${hub.url}${path}`, {
    method: init.method ?? "POST",
    headers: {
      Authorization: `Bearer ${token}`,
      "Content-Type": init.ndjson ? "application/x-ndjson" : "application/json",
    },
    body: init.ndjson
      ? init.ndjson.map((line) => JSON.stringify(line)).join("\n")
      : JSON.stringify(init.json),
  });
  expect(response.status, `${path}: ${await response.clone().text()}`).toBeLessThan(300);
}

const commitReadme = (repo: string, text: string) =>
  call(`/api/datasets/${repo}/commit/main`, ada, {
    ndjson: [
      { key: "header", value: { summary: "card" } },
      {
        key: "file",
        value: { path: "README.md", content: Buffer.from(text).toString("base64"), encoding: "base64" },
      },
    ],
  });

const ids = (rows: { id: string }[]) => rows.map((row) => row.id);

beforeAll(async () => {
  ada = await userToken(hub.store, "ada");
  otto = await userToken(hub.store, "otto");
  await accountsService(hub.store.accounts).createOrg({
    name: "acme",
    fullname: "Acme Orbital",
    owner: "ada",
  });
  await hub.store.transaction(async (tx) => {
    for (const model of [...CORPUS, SECRET]) await tx.models.upsert(model);
  });
});

describe("ranking", () => {
  it("puts the right model first for words of its card", async () => {
    const { body } = await get("/api/models?search=satellite%20imagery%20land%20cover", otto);
    expect(ids(body)[0]).toBe("geo-lab/sat-segmenter");
  });

  it("puts the right model first for a misspelt id", async () => {
    const { body } = await get("/api/models?search=bret-base-uncasd", otto);
    expect(ids(body)[0]).toBe("google-bert/bert-base-uncased");
    const typo = await get("/api/models?search=sat-segmentr", otto);
    expect(ids(typo.body)[0]).toBe("geo-lab/sat-segmenter");
  });

  it("puts the right model first for a tag", async () => {
    const { body } = await get("/api/models?search=poetry", otto);
    expect(ids(body)[0]).toBe("verse/tiny-poet");
    expect(ids(body)).toContain("verse/story-writer");
  });

  it("still finds every id containing the search, as huggingface_hub's list_models(search=) expects", async () => {
    const { body, total } = await get("/api/models?search=Instruct&limit=100", otto);
    const expected = [
      "meta-llama/Llama-3.1-8B-Instruct",
      "Qwen/Qwen2.5-7B-Instruct",
      "bartowski/Llama-3.2-3B-Instruct-GGUF",
    ];
    expect(ids(body)).toEqual(expect.arrayContaining(expected));
    expect(ids(body).every((id: string) => id.toLowerCase().includes("instruct"))).toBe(true);
    expect(Number(total)).toBe(body.length);
  });

  it("lists and counts every id containing the search, beyond the candidates' bound too", async () => {
    // More ids contain "zeta-bulk" than a search ranks (MAX_CANDIDATES): the listing looks them all up.
    await hub.store.transaction(async (tx) => {
      for (let i = 0; i < MAX_CANDIDATES + 5; i++) {
        await tx.models.upsert({ id: `bulk-lab/zeta-bulk-${i}`, tags: [] });
      }
    });
    for (const [text, count] of [
      ["zeta-bulk", MAX_CANDIDATES + 5],
      // Fewer than the bound (19 and 190-199): the search's own look-up is the whole answer.
      ["bulk-19", 11],
    ] as const) {
      const seen = new Set<string>();
      let next: string | undefined = `${hub.url}/api/models?search=${text}&limit=100`;
      let total: string | null = null;
      while (next) {
        const response: Response = await fetch(next);
        total ??= response.headers.get("X-Total-Count");
        for (const model of (await response.json()) as { id: string }[]) {
          expect(seen.has(model.id)).toBe(false);
          expect(model.id).toContain(text);
          seen.add(model.id);
        }
        next = /<([^>]+)>; rel="next"/.exec(response.headers.get("Link") ?? "")?.[1];
      }
      expect([text, seen.size, Number(total)]).toEqual([text, count, count]);
    }
  });

  it("keeps filters and an explicit sort, and pages by relevance without overlap", async () => {
    const filtered = await get("/api/models?search=satellite&filter=time-series-forecasting", otto);
    expect(ids(filtered.body)).toEqual(["geo-lab/weather-nowcast"]);
    const sorted = await get("/api/models?search=geo-lab&sort=id&direction=1", otto);
    expect(ids(sorted.body)).toEqual(["geo-lab/sat-segmenter", "geo-lab/weather-nowcast"]);
    const first = await fetch(`${hub.url}/api/models?search=text&limit=1`);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get("Link") ?? "")?.[1];
    expect(next).toBeDefined();
    const second = (await (await fetch(next!)).json()) as { id: string }[];
    expect(second.length).toBe(1);
    expect(second[0]!.id).not.toBe(((await first.json()) as { id: string }[])[0]!.id);
  });
});

describe("private repositories", () => {
  const secretIn = (value: unknown) => JSON.stringify(value).includes("orbital-secret");

  it("are never in another user's results, counts or suggestions", async () => {
    for (const token of [otto, undefined]) {
      const listing = await get("/api/models?search=satellite%20land%20cover", token);
      expect(secretIn(listing.body)).toBe(false);
      const typo = await get("/api/models?search=orbital-secrt", token);
      expect(secretIn(typo.body)).toBe(false);
      expect(typo.total).toBe("0");
      // A part of the id: answered through the index's id trigrams, filtered like the rest.
      const fragment = await get("/api/models?search=BITAL-sec", token);
      expect(secretIn(fragment.body)).toBe(false);
      expect(fragment.total).toBe("0");
      const quick = await get("/api/quicksearch?q=orbital&type=model", token);
      expect(quick.body).toMatchObject({ models: [], modelsCount: 0 });
      const full = await get("/api/search/full-text?q=satellite%20land%20cover", token);
      expect(secretIn(full.body)).toBe(false);
      expect(full.body.numTotalHits).toBe(1);
    }
  });

  it("are found by those who may see them", async () => {
    const listing = await get("/api/models?search=satellite%20land%20cover", ada);
    expect(ids(listing.body)).toEqual(["acme/orbital-secret", "geo-lab/sat-segmenter"]);
    expect(ids((await get("/api/models?search=BITAL-sec", ada)).body)).toEqual(["acme/orbital-secret"]);
    const quick = await get("/api/quicksearch?q=orbital&type=model", ada);
    expect(quick.body.models).toEqual([
      expect.objectContaining({ id: "acme/orbital-secret", private: true }),
    ]);
  });
});

describe("quicksearch and full text", () => {
  it("answers the public hub's quicksearch shape", async () => {
    const { body } = await get("/api/quicksearch?q=acme", otto);
    expect(body).toMatchObject({
      q: "acme",
      models: [],
      datasets: [],
      spaces: [],
      orgs: [{ name: "acme", fullname: "Acme Orbital", avatarUrl: "/api/avatars/acme" }],
      orgsCount: 1,
    });
    const users = await get("/api/quicksearch?q=ott&type=user", otto);
    expect(users.body).toEqual({
      q: "ott",
      users: [expect.objectContaining({ user: "otto" })],
      usersCount: 1,
    });
    const seg = await get("/api/quicksearch?q=segmenter&type=model&type=dataset", otto);
    expect(seg.body.models[0]).toMatchObject({
      id: "geo-lab/sat-segmenter",
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
    });
  });

  it("suggests from the start of an id, tag or heading word while it is typed (quicksearch), whole words elsewhere", async () => {
    // "satelli" begins "satellite", a word of sat-segmenter's heading (weather-nowcast's body holds it too).
    const typed = await get("/api/quicksearch?q=satelli&type=model", otto);
    expect(ids(typed.body.models)).toEqual(["geo-lab/sat-segmenter"]);
    // Suggestions name repositories: a README body's words are not looked for ("multispectral" is in
    // sat-segmenter's body only), whereas the listings and the search page find them whole.
    for (const q of ["multispec", "multispectral"]) {
      const inBody = await get(`/api/quicksearch?q=${q}&type=model`, otto);
      expect([q, inBody.body.models, inBody.body.modelsCount]).toEqual([q, [], 0]);
    }
    const listed = await get("/api/models?search=satelli", otto);
    expect([listed.body, listed.total]).toEqual([[], "0"]);
    expect(ids((await get("/api/models?search=multispectral", otto)).body)).toEqual([
      "geo-lab/sat-segmenter",
    ]);
    const page = await get("/api/search/full-text?q=satelli&type=model", otto);
    expect(page.body.numTotalHits).toBe(0);
  });

  it("gives the search page ranked hits with highlighted passages", async () => {
    const { body } = await get("/api/search/full-text?q=clinical%20notes&type=model", otto);
    expect(body.hits[0]).toMatchObject({
      repoId: "clinic/notes-ner",
      repoType: "model",
      repoOwnerId: "clinic",
    });
    expect(body.hits[0].formatted.text).toContain("<em>clinical</em>");
    // The passage is the card as read, not its Markdown: `# Entities in clinical notes` has no `#`.
    expect(body.hits[0].text).toMatch(/^Entities in clinical notes Finds drugs/);
  });

  it("refuses an unknown type", async () => {
    const response = await fetch(`${hub.url}/api/quicksearch?q=x&type=paper`);
    expect(response.status).toBe(400);
  });
});

describe("keeping current", () => {
  it("follows a dataset's commits, visibility, rename and deletion", async () => {
    await call("/api/repos/create", ada, { json: { type: "dataset", name: "acme/ocean-buoys" } });
    await commitReadme(
      "acme/ocean-buoys",
      "---\ntags: [oceanography]\n---\n# Sea surface temperature\n\nHourly buoy readings.\n",
    );
    const found = await get("/api/datasets?search=sea%20surface%20temperature", otto);
    expect(ids(found.body)).toEqual(["acme/ocean-buoys"]);
    expect(ids((await get("/api/datasets?search=oceanography", otto)).body)).toEqual(["acme/ocean-buoys"]);

    await commitReadme("acme/ocean-buoys", "# Wave heights\n\nSignificant wave height per hour.\n");
    expect(ids((await get("/api/datasets?search=wave%20height", otto)).body)).toEqual(["acme/ocean-buoys"]);
    expect((await get("/api/datasets?search=temperature", otto)).body).toEqual([]);

    await call("/api/datasets/acme/ocean-buoys/settings", ada, { method: "PUT", json: { private: true } });
    expect((await get("/api/datasets?search=wave%20height", otto)).body).toEqual([]);
    expect(ids((await get("/api/datasets?search=wave%20height", ada)).body)).toEqual(["acme/ocean-buoys"]);

    await call("/api/repos/move", ada, {
      json: { type: "dataset", fromRepo: "acme/ocean-buoys", toRepo: "acme/sea-state" },
    });
    expect(ids((await get("/api/datasets?search=wave%20height", ada)).body)).toEqual(["acme/sea-state"]);
    expect(ids((await get("/api/datasets?search=sea-stat", ada)).body)).toEqual(["acme/sea-state"]);

    await call("/api/repos/delete", ada, {
      method: "DELETE",
      json: { type: "dataset", name: "acme/sea-state" },
    });
    expect((await get("/api/datasets?search=wave%20height", ada)).body).toEqual([]);
  });
});
