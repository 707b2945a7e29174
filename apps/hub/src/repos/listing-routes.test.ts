import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAccounts } from "../__fixtures__/accounts.js";
import { repoApp } from "../__fixtures__/repo-app.js";

type Hub = Awaited<ReturnType<typeof repoApp>>;
let hub: Hub;
let tokens: Awaited<ReturnType<typeof seedAccounts>>["tokens"];

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function create(token: string, body: Record<string, unknown>) {
  const response = await hub.app.request("/api/repos/create", {
    method: "POST",
    headers: { ...bearer(token), "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

async function list(path: string, token?: string) {
  const response = await hub.app.request(path, { headers: token ? bearer(token) : {} });
  expect(response.status, await response.clone().text()).toBe(200);
  const rows = (await response.json()) as {
    id: string;
    private: boolean;
    author: string;
    lastModified: string;
  }[];
  return {
    ids: rows.map((row) => row.id),
    rows,
    total: response.headers.get("x-total-count"),
    link: response.headers.get("link"),
  };
}

beforeAll(async () => {
  hub = await repoApp();
  ({ tokens } = await seedAccounts(hub.store));
  // Created one after another: each later one is newer (lastModified and createdAt).
  for (const name of ["alpha", "beta", "gamma"]) {
    await create(tokens.adaWrite, { type: "dataset", name: `ada/${name}-set` });
  }
  await create(tokens.adaWrite, { type: "dataset", name: "acme/secret-set", private: true });
  await create(tokens.wesWrite, { type: "space", name: "wes/demo-app", sdk: "gradio" });
  await create(tokens.adaWrite, { type: "model", name: "ada/not-a-dataset" });
});

afterAll(() => hub.cleanup());

describe("GET /api/datasets and /api/spaces", () => {
  it("lists datasets newest first, only datasets, private ones only to those who may see them", async () => {
    const anonymous = await list("/api/datasets");
    expect([...anonymous.ids].sort()).toEqual(["ada/alpha-set", "ada/beta-set", "ada/gamma-set"]);
    // Newest first; rows made within the same millisecond tie, and ties go by id.
    const expected = [...anonymous.rows].sort(
      (a, b) => b.lastModified.localeCompare(a.lastModified) || a.id.localeCompare(b.id),
    );
    expect(anonymous.ids).toEqual(expected.map((row) => row.id));
    expect(anonymous.total).toBe("3");
    const outsider = await list("/api/datasets", tokens.ottoWrite);
    expect(outsider.ids).not.toContain("acme/secret-set");
    const member = await list("/api/datasets", tokens.raeRead);
    expect(member.ids[0]).toBe("acme/secret-set");
    expect(member.rows[0]).toMatchObject({ private: true, author: "acme" });
    expect(member.total).toBe("4");
    expect((await list("/api/spaces")).ids).toEqual(["wes/demo-app"]);
  });

  it("searches, filters by author, sorts by id, and pages through Link", async () => {
    expect((await list("/api/datasets?search=BETA")).ids).toEqual(["ada/beta-set"]);
    expect((await list("/api/datasets?search=%25")).ids).toEqual([]);
    expect((await list("/api/datasets?author=ACME", tokens.samWrite)).ids).toEqual(["acme/secret-set"]);
    const first = await list("/api/datasets?sort=id&direction=1&limit=2");
    expect(first.ids).toEqual(["ada/alpha-set", "ada/beta-set"]);
    expect(first.total).toBe("3");
    const next = /<([^>]+)>; rel="next"/.exec(first.link ?? "")?.[1];
    expect(next).toBeDefined();
    const second = await list(new URL(next ?? "").pathname + new URL(next ?? "").search);
    expect(second.ids).toEqual(["ada/gamma-set"]);
    expect(second.link).toBeNull();
    const byDate = await list("/api/datasets?sort=createdAt&direction=1&limit=1");
    const after = new URL(/<([^>]+)>/.exec(byDate.link ?? "")?.[1] ?? "");
    expect((await list(after.pathname + after.search)).ids).toEqual(["ada/beta-set"]);
  });

  it("refuses what it cannot apply instead of ignoring it", async () => {
    for (const query of ["gated=maybe", "sort=nope", "cursor=bogus"]) {
      const response = await hub.app.request(`/api/datasets?${query}`);
      expect(response.status, query).toBe(400);
    }
    const other = await list("/api/datasets?sort=id&direction=1&limit=1");
    const cursor = new URL(/<([^>]+)>/.exec(other.link ?? "")?.[1] ?? "").searchParams.get("cursor");
    expect((await hub.app.request(`/api/datasets?sort=createdAt&cursor=${cursor}`)).status).toBe(400);
  });
});

describe("dataset and space info", () => {
  it("reads the card: front matter as cardData and tags, the text, and a space's SDK", async () => {
    const readme = "---\nlicense: mit\nlanguage: [en, fr]\ntags: [tabular]\n---\n# Alpha\n\nRows.\n";
    const commit = await hub.app.request("/api/datasets/ada/alpha-set/commit/main", {
      method: "POST",
      headers: { ...bearer(tokens.adaWrite), "Content-Type": "application/x-ndjson" },
      body: hub.ndjson("card", {
        key: "file",
        value: { path: "README.md", content: Buffer.from(readme).toString("base64"), encoding: "base64" },
      }),
    });
    expect(commit.status).toBe(200);
    const dataset = (await (await hub.app.request("/api/datasets/ada/alpha-set")).json()) as Record<
      string,
      unknown
    >;
    expect(dataset.cardData).toEqual({ license: "mit", language: ["en", "fr"], tags: ["tabular"] });
    expect(dataset.cardText).toBe("# Alpha\n\nRows.\n");
    expect(dataset.tags).toEqual(["tabular", "license:mit", "language:en", "language:fr"]);
    const space = (await (await hub.app.request("/api/spaces/wes/demo-app")).json()) as Record<
      string,
      unknown
    >;
    expect(space.sdk).toBe("gradio");
    expect(space.cardData).toMatchObject({ sdk: "gradio", title: "demo-app" });
  });
});

async function commitCard(token: string, repo: string, readme: string, revision = "main") {
  const response = await hub.app.request(`/api/${repo}/commit/${revision}`, {
    method: "POST",
    headers: { ...bearer(token), "Content-Type": "application/x-ndjson" },
    body: hub.ndjson("card", {
      key: "file",
      value: { path: "README.md", content: Buffer.from(readme).toString("base64"), encoding: "base64" },
    }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

describe("listing datasets and spaces by what their cards say", () => {
  beforeAll(async () => {
    // ada/alpha-set has tabular, license:mit, language:en and language:fr from the test above.
    await commitCard(
      tokens.adaWrite,
      "datasets/ada/beta-set",
      "---\nlicense: apache-2.0\nlanguage: de\ntask_categories: [text-classification]\ntags: [tabular]\n---\n",
    );
    await commitCard(tokens.adaWrite, "datasets/ada/gamma-set", "---\nlicense: mit\nlanguage: [en]\n---\n");
    await commitCard(tokens.adaWrite, "datasets/acme/secret-set", "---\ntags: [tabular]\n---\n");
  });

  const sortedIds = async (path: string, token?: string) => {
    const answer = await list(path, token);
    expect(answer.total, path).toBe(String(answer.ids.length));
    return [...answer.ids].sort();
  };

  it("filters by tags, language and license, each combined with AND, and counts what matches", async () => {
    expect(await sortedIds("/api/datasets?filter=tabular")).toEqual(["ada/alpha-set", "ada/beta-set"]);
    expect(await sortedIds("/api/datasets?license=mit")).toEqual(["ada/alpha-set", "ada/gamma-set"]);
    expect(await sortedIds("/api/datasets?language=fr")).toEqual(["ada/alpha-set"]);
    expect(await sortedIds("/api/datasets?filter=language:de")).toEqual(["ada/beta-set"]);
    expect(await sortedIds("/api/datasets?filter=task_categories:text-classification")).toEqual([
      "ada/beta-set",
    ]);
    expect(await sortedIds("/api/datasets?filter=tabular&filter=license:mit")).toEqual(["ada/alpha-set"]);
    expect(await sortedIds("/api/datasets?filter=tabular,language:de")).toEqual(["ada/beta-set"]);
    expect(await sortedIds("/api/datasets?license=mit&language=de")).toEqual([]);
    expect(await sortedIds("/api/datasets?filter=nothing-has-this")).toEqual([]);
    // A private dataset matches only for those who may see it.
    expect(await sortedIds("/api/datasets?filter=tabular", tokens.raeRead)).toEqual([
      "acme/secret-set",
      "ada/alpha-set",
      "ada/beta-set",
    ]);
    expect(await sortedIds("/api/datasets?gated=true")).toEqual([]);
    expect((await sortedIds("/api/datasets?gated=false")).length).toBe(3);
  });

  it("rows carry the card's tags, and a space its SDK", async () => {
    const rows = (await list("/api/datasets?filter=language:de")).rows as unknown as { tags: string[] }[];
    expect(rows[0]?.tags).toEqual([
      "tabular",
      "license:apache-2.0",
      "language:de",
      "task_categories:text-classification",
    ]);
    const spaces = (await list("/api/spaces?filter=gradio")).rows as unknown as { id: string; sdk: string }[];
    expect(spaces.map((space) => [space.id, space.sdk])).toEqual([["wes/demo-app", "gradio"]]);
    expect((await list("/api/spaces?filter=streamlit")).ids).toEqual([]);
  });

  it("follows every commit to main, and only to main", async () => {
    await commitCard(tokens.adaWrite, "datasets/ada/gamma-set", "---\nlicense: cc-by-4.0\n---\n");
    expect(await sortedIds("/api/datasets?license=mit")).toEqual(["ada/alpha-set"]);
    expect(await sortedIds("/api/datasets?license=cc-by-4.0")).toEqual(["ada/gamma-set"]);
    const branch = await hub.app.request("/api/datasets/ada/gamma-set/branch/draft", {
      method: "POST",
      headers: bearer(tokens.adaWrite),
    });
    expect(branch.status).toBe(200);
    await commitCard(tokens.adaWrite, "datasets/ada/gamma-set", "---\nlicense: mit\n---\n", "draft");
    expect(await sortedIds("/api/datasets?license=cc-by-4.0")).toEqual(["ada/gamma-set"]);
    await commitCard(tokens.wesWrite, "spaces/wes/demo-app", "---\nsdk: streamlit\n---\n");
    expect((await list("/api/spaces?filter=streamlit")).ids).toEqual(["wes/demo-app"]);
    expect((await list("/api/spaces?filter=gradio")).ids).toEqual([]);
  });
});

describe("GET /api/users/{name}/overview", () => {
  it("answers a user's public profile with their organizations, 404 for others", async () => {
    const response = await hub.app.request("/api/users/WES/overview");
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      type: "user",
      user: "wes",
      avatarUrl: "/api/avatars/wes",
      orgs: [{ name: "acme", fullname: "Acme Corp" }],
    });
    expect(JSON.stringify(await (await hub.app.request("/api/users/wes/overview")).json())).not.toContain(
      "@example.com",
    );
    expect((await hub.app.request("/api/users/acme/overview")).status).toBe(404);
    expect((await hub.app.request("/api/users/nobody/overview")).status).toBe(404);
  });
});
