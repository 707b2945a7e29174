import { createRepo, uploadFiles } from "@huggingface/hub";
import { describe, expect, it } from "vitest";
import { seededRepos, UPSTREAM_IDS, useTwoHubs } from "./__fixtures__/two-hubs.js";

/**
 * The pull-through mirror at the API level, against a real upstream Modelhub: what the clients call (model
 * info, revision, tree, paths-info, refs, commits, resolve) answers as upstream does, names resolve by the
 * rules (local wins, local-only namespaces, TTL), and what the mirror may not do it refuses with the cause.
 */
const TTL_MS = 1_000;
const TIMEOUT_MS = 2_000;
const hubs = useTwoHubs({ mirror: { revisionTtlMs: TTL_MS, upstreamTimeoutMs: TIMEOUT_MS } });
const seeded = seededRepos();

type Json = Record<string, unknown> & { siblings?: { rfilename: string }[] };

async function get(base: string, path: string, token?: string, init: RequestInit = {}) {
  return fetch(`${base}${path}`, {
    ...init,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(init.headers as object) },
  });
}
const onMirror = (path: string, token = hubs.mirror.tokens.mia, init?: RequestInit) =>
  get(hubs.mirror.url, path, token, init);
const onUpstream = (path: string, init?: RequestInit) =>
  get(hubs.upstream.directUrl, path, hubs.upstream.tokens.mirrorBot, init);
const json = async (response: Response) => {
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Json;
};
/** Requests the mirror made upstream for one repository id. */
const upstreamCallsFor = (id: string) =>
  hubs.upstream.proxy.requests.filter((r) => r.url.includes(id)).length;

const PUBLIC = UPSTREAM_IDS.publicModel;

describe("a public upstream model through the mirror", () => {
  it("answers model info as upstream, and is listed once cached", async () => {
    const mirrored = await json(await onMirror(`/api/models/${PUBLIC}`));
    const upstream = await json(await onUpstream(`/api/models/${PUBLIC}`));
    expect(mirrored.id).toBe(PUBLIC);
    expect(mirrored.sha).toBe(upstream.sha);
    expect(mirrored.private).toBe(false);
    expect(mirrored.gated).toBe(false);
    expect((mirrored.cardData as { license?: string }).license).toBe("mit");
    expect(mirrored.pipeline_tag).toBe("text-generation");
    expect(mirrored.siblings!.map((s) => s.rfilename).sort()).toEqual(
      upstream.siblings!.map((s) => s.rfilename).sort(),
    );
    const listed = (await (await onMirror("/api/models?author=hubco")).json()) as { id: string }[];
    expect(listed.map((model) => model.id)).toContain(PUBLIC);
    const searched = (await (await onMirror("/api/models?search=public-model")).json()) as { id: string }[];
    expect(searched.map((model) => model.id)).toContain(PUBLIC);
  });

  it("answers revision with blobs, the recursive tree and paths-info as upstream", async () => {
    const strip = (entries: Record<string, unknown>[]) =>
      entries.map(({ xetHash: _xet, lastCommit: _last, securityFileStatus: _sec, ...rest }) => rest);
    const mirrored = await json(await onMirror(`/api/models/${PUBLIC}/revision/main?blobs=true`));
    const upstream = await json(await onUpstream(`/api/models/${PUBLIC}/revision/main?blobs=true`));
    expect(mirrored.sha).toBe(upstream.sha);
    expect(strip(mirrored.siblings as never)).toEqual(strip(upstream.siblings as never));

    const tree = "/tree/main?recursive=true";
    const mirroredTree = (await (await onMirror(`/api/models/${PUBLIC}${tree}`)).json()) as never;
    const upstreamTree = (await (await onUpstream(`/api/models/${PUBLIC}${tree}`)).json()) as never;
    expect(strip(mirroredTree)).toEqual(strip(upstreamTree));

    const form = () => ({
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "paths=config.json&paths=pytorch_model.bin&paths=nested",
    });
    const expanded = await onMirror(`/api/models/${PUBLIC}/tree/main?recursive=true&expand=true`);
    expect(expanded.status).toBe(200);
    // The Xet-stored file is declared with upstream's Xet hash: its bytes come on first read.
    const xet = seeded.publicModel.files["model.safetensors"]!;
    expect(await hubs.mirror.store.mirror.content(xet.sha256)).toMatchObject({
      size: xet.content.byteLength,
      xetHash: (upstreamTree as { path: string; xetHash?: string }[]).find(
        (e) => e.path === "model.safetensors",
      )?.xetHash,
    });

    const mirroredPaths = (await (
      await onMirror(`/api/models/${PUBLIC}/paths-info/main`, undefined, form())
    ).json()) as never;
    const upstreamPaths = (await (
      await onUpstream(`/api/models/${PUBLIC}/paths-info/main`, form())
    ).json()) as never;
    expect(strip(mirroredPaths)).toEqual(strip(upstreamPaths));
  });

  it("lists upstream's branches and tags", async () => {
    const mirrored = await json(await onMirror(`/api/models/${PUBLIC}/refs`));
    const upstream = await json(await onUpstream(`/api/models/${PUBLIC}/refs`));
    expect(mirrored.branches).toEqual(upstream.branches);
    expect(mirrored.tags).toEqual(upstream.tags);
  });

  it("serves regular files byte-identical, with upstream's ETag and X-Repo-Commit", async () => {
    for (const path of ["config.json", "tokenizer.json", "nested/deeper/notes.txt"]) {
      const mirrored = await onMirror(`/${PUBLIC}/resolve/main/${path}`);
      const upstream = await onUpstream(`/${PUBLIC}/resolve/main/${path}`);
      expect(mirrored.status).toBe(200);
      expect(Buffer.from(await mirrored.arrayBuffer()).equals(seeded.publicModel.files[path]!.content)).toBe(
        true,
      );
      await upstream.arrayBuffer();
      expect(mirrored.headers.get("etag")).toBe(upstream.headers.get("etag"));
      expect(mirrored.headers.get("x-repo-commit")).toBe(upstream.headers.get("x-repo-commit"));
    }
  });

  it("imports another branch and a commit id when asked, and keeps each commit for ever", async () => {
    const dev = await onMirror(`/${PUBLIC}/resolve/dev/dev-only.txt`);
    expect(await dev.text()).toBe("only on dev\n");
    const devCommit = dev.headers.get("x-repo-commit")!;
    const before = upstreamCallsFor(PUBLIC);
    const byId = await onMirror(`/${PUBLIC}/resolve/${devCommit}/dev-only.txt`);
    expect(await byId.text()).toBe("only on dev\n");
    expect(upstreamCallsFor(PUBLIC)).toBe(before);
    expect((await onMirror(`/${PUBLIC}/resolve/v1.0/config.json`)).status).toBe(200);
    expect(
      (await onMirror(`/${PUBLIC}/resolve/no-such-branch/config.json`)).headers.get("x-error-code"),
    ).toBe("RevisionNotFound");
  });

  it("answers list_repo_commits from the commits it holds, newest first", async () => {
    const mirrored = (await (await onMirror(`/api/models/${PUBLIC}/commits/main`)).json()) as {
      id: string;
    }[];
    const upstream = (await (await onUpstream(`/api/models/${PUBLIC}/commits/main`)).json()) as {
      id: string;
      title: string;
    }[];
    expect(mirrored[0]).toEqual(upstream[0]);
  });

  it("marks the repository as a mirror and refuses every write with the upstream named", async () => {
    const lena = hubs.mirror.tokens.lena;
    const commit = await onMirror(`/api/models/${PUBLIC}/commit/main`, lena, {
      method: "POST",
      headers: { "Content-Type": "application/x-ndjson" },
      body: `${JSON.stringify({ key: "header", value: { summary: "nope" } })}\n`,
    });
    expect(commit.status).toBe(403);
    expect(await commit.text()).toContain(`is a read-only mirror of ${hubs.upstream.url}/${PUBLIC}`);
    const sam = hubs.mirror.tokens.sam;
    const branch = await onMirror(`/api/models/${PUBLIC}/branch/mine`, sam, { method: "POST" });
    expect(branch.status).toBe(403);
    const row = await hubs.mirror.store.repos.get("model", PUBLIC);
    expect(row?.mirrorOf).toBe(hubs.upstream.url);
  });
});

describe("names", () => {
  it("a local repository wins over upstream's with the same id, without asking upstream", async () => {
    const before = upstreamCallsFor(UPSTREAM_IDS.shadowed);
    const config = await json(await onMirror(`/${UPSTREAM_IDS.shadowed}/resolve/main/config.json`));
    expect(config.origin).toBe("local");
    expect(upstreamCallsFor(UPSTREAM_IDS.shadowed)).toBe(before);
  });

  it("a write to an id that is not here asks upstream nothing", async () => {
    const response = await onMirror(`/api/models/hubco/write-target/branch/x`, hubs.mirror.tokens.lena, {
      method: "POST",
    });
    expect(response.status).toBe(404);
    expect(upstreamCallsFor("write-target")).toBe(0);
  });

  it("an id upstream renamed leads to the repository under upstream's new name", async () => {
    const upstreamRepo = {
      repo: { type: "model" as const, name: "hubco/old-name" },
      accessToken: hubs.upstream.tokens.olivia,
      hubUrl: hubs.upstream.directUrl,
    };
    await createRepo(upstreamRepo);
    await uploadFiles({
      ...upstreamRepo,
      files: [{ path: "config.json", content: new Blob(['{"renamed":1}']) }],
    });
    const moved = await get(hubs.upstream.directUrl, "/api/repos/move", hubs.upstream.tokens.olivia, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ fromRepo: "hubco/old-name", toRepo: "hubco/new-name", type: "model" }),
    });
    expect(moved.status).toBe(200);
    const file = await onMirror("/hubco/old-name/resolve/main/config.json", undefined, {
      redirect: "manual",
    });
    expect(file.status).toBe(307);
    expect(file.headers.get("location")).toBe("/hubco/new-name/resolve/main/config.json");
    expect(await (await onMirror("/hubco/new-name/resolve/main/config.json")).text()).toBe('{"renamed":1}');
    expect((await hubs.mirror.store.repos.get("model", "hubco/new-name"))?.mirrorOf).toBe(hubs.upstream.url);
  });

  it("a local-only namespace is never looked up upstream", async () => {
    const response = await onMirror(`/api/models/${UPSTREAM_IDS.localNamespace}`);
    expect(response.status).toBe(404);
    expect(response.headers.get("x-error-code")).toBe("RepoNotFound");
    expect(upstreamCallsFor(UPSTREAM_IDS.localNamespace)).toBe(0);
  });

  it("an id upstream does not have, or does not show to the hub's token, is not found", async () => {
    for (const id of ["hubco/no-such-model", UPSTREAM_IDS.secretModel]) {
      const response = await onMirror(`/api/models/${id}`, hubs.mirror.tokens.sam);
      expect(response.status).toBe(404);
      expect(response.headers.get("x-error-code")).toBe("RepoNotFound");
    }
  });
});

describe("single flight", () => {
  it("concurrent first requests for one repository make one import", async () => {
    const id = "hubco/asked-at-once";
    const upstreamRepo = {
      repo: { type: "model" as const, name: id },
      accessToken: hubs.upstream.tokens.olivia,
      hubUrl: hubs.upstream.directUrl,
    };
    await createRepo(upstreamRepo);
    await uploadFiles({ ...upstreamRepo, files: [{ path: "config.json", content: new Blob(['{"a":1}']) }] });
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => onMirror(`/${id}/resolve/main/config.json`)),
    );
    for (const answer of answers) expect(await answer.text()).toBe('{"a":1}');
    const calls = hubs.upstream.proxy.requests.filter((r) => r.url.includes(id));
    expect(calls.filter((r) => r.url.includes("/tree/"))).toHaveLength(1);
    // Each regular file (.gitattributes, config.json) fetched once.
    const files = calls.filter((r) => r.url.includes("/resolve/")).map((r) => r.url);
    expect(files).toHaveLength(2);
    expect(new Set(files).size).toBe(2);
  });
});

describe("datasets and spaces", () => {
  it("serves a dataset's info and files, and a space's", async () => {
    const dataset = await json(await onMirror(`/api/datasets/${UPSTREAM_IDS.dataset}`));
    expect(dataset.id).toBe(UPSTREAM_IDS.dataset);
    const csv = await onMirror(`/datasets/${UPSTREAM_IDS.dataset}/resolve/main/data/train.csv`);
    expect(Buffer.from(await csv.arrayBuffer()).equals(seeded.dataset.files["data/train.csv"]!.content)).toBe(
      true,
    );
    const space = await json(await onMirror(`/api/spaces/${UPSTREAM_IDS.space}`));
    expect(space.sdk).toBe("gradio");
  });
});

describe("access", () => {
  it("a gated upstream model stays gated: files need a local grant", async () => {
    const path = `/${UPSTREAM_IDS.gatedModel}/resolve/main/config.json`;
    const refused = await onMirror(path);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("x-error-code")).toBe("GatedRepo");
    const info = await json(await onMirror(`/api/models/${UPSTREAM_IDS.gatedModel}`));
    expect(info.gated).toBe("manual");
    const grant = await onMirror(
      `/api/models/${UPSTREAM_IDS.gatedModel}/user-access-request/grant`,
      hubs.mirror.tokens.sam,
      {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ user: "mia" }),
      },
    );
    expect(grant.status, await grant.text()).toBe(200);
    const granted = await onMirror(path);
    expect(granted.status).toBe(200);
    expect(
      Buffer.from(await granted.arrayBuffer()).equals(seeded.gatedModel.files["config.json"]!.content),
    ).toBe(true);
  });

  it("a private upstream model the hub's token reads is mirrored private: site admins only", async () => {
    const id = UPSTREAM_IDS.privateModel;
    expect((await onMirror(`/api/models/${id}`)).status).toBe(404);
    // lena administers the local organization of the same name: it gives her nothing over the mirror.
    expect((await onMirror(`/api/models/${id}`, hubs.mirror.tokens.lena)).status).toBe(404);
    const info = await json(await onMirror(`/api/models/${id}`, hubs.mirror.tokens.sam));
    expect(info.private).toBe(true);
    const listed = async (token: string) =>
      ((await (await onMirror("/api/models?author=hubco", token)).json()) as { id: string }[]).map(
        (m) => m.id,
      );
    expect(await listed(hubs.mirror.tokens.lena)).not.toContain(id);
    expect(await listed(hubs.mirror.tokens.sam)).toContain(id);
  });
});

describe("revisions follow upstream", () => {
  it("re-resolves a branch name once its TTL passed; a commit id never changes", async () => {
    const before = (await json(await onMirror(`/api/models/${PUBLIC}/revision/main`))).sha as string;
    await uploadFiles({
      repo: { type: "model", name: PUBLIC },
      accessToken: hubs.upstream.tokens.olivia,
      hubUrl: hubs.upstream.directUrl,
      files: [{ path: "added-later.txt", content: new Blob(["a later commit\n"]) }],
    });
    const upstreamSha = (await json(await onUpstream(`/api/models/${PUBLIC}/revision/main`))).sha;
    await new Promise((resolve) => setTimeout(resolve, TTL_MS + 100));
    const after = await json(await onMirror(`/api/models/${PUBLIC}/revision/main`));
    expect(after.sha).toBe(upstreamSha);
    expect(after.sha).not.toBe(before);
    expect(await (await onMirror(`/${PUBLIC}/resolve/main/added-later.txt`)).text()).toBe("a later commit\n");
    expect((await json(await onMirror(`/api/models/${PUBLIC}`))).siblings!.map((s) => s.rfilename)).toContain(
      "added-later.txt",
    );
    // The old commit is still there, by its id.
    expect((await onMirror(`/${PUBLIC}/resolve/${before}/added-later.txt`)).status).toBe(404);
    expect((await onMirror(`/${PUBLIC}/resolve/${before}/config.json`)).status).toBe(200);
  });
});

describe("settings follow upstream", () => {
  it("a repository gated upstream after it was mirrored is gated here once its TTL passed", async () => {
    const id = UPSTREAM_IDS.dataset;
    const path = `/datasets/${id}/resolve/main/data/test.csv`;
    expect((await onMirror(path)).status).toBe(200);
    const gate = await get(
      hubs.upstream.directUrl,
      `/api/datasets/${id}/settings`,
      hubs.upstream.tokens.olivia,
      {
        method: "PUT",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ gated: "auto" }),
      },
    );
    expect(gate.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, TTL_MS + 100));
    const refused = await onMirror(path);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("x-error-code")).toBe("GatedRepo");
    expect((await json(await onMirror(`/api/datasets/${id}`))).gated).toBe("auto");
  });
});

describe("upstream unreachable", () => {
  it("serves what is cached; a miss fails fast naming the cause", async () => {
    await hubs.upstream.proxy.setMode("down");
    try {
      await new Promise((resolve) => setTimeout(resolve, TTL_MS + 100));
      const cached = await onMirror(`/${PUBLIC}/resolve/main/config.json`);
      expect(cached.status).toBe(200);
      const started = Date.now();
      const miss = await onMirror("/api/models/hubco/never-asked");
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(miss.status).toBe(504);
      expect(await miss.text()).toMatch(/unreachable: .*ECONNREFUSED/);
    } finally {
      await hubs.upstream.proxy.setMode("pass");
    }
  });

  it("an upstream that hangs fails a miss within the upstream timeout", async () => {
    await hubs.upstream.proxy.setMode("hang");
    try {
      const started = Date.now();
      const miss = await onMirror("/api/models/hubco/hanging");
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 2_000);
      expect(miss.status).toBe(504);
      expect(await miss.text()).toContain(`no answer within ${TIMEOUT_MS} ms`);
    } finally {
      await hubs.upstream.proxy.setMode("pass");
    }
  });
});

describe("policy", () => {
  it("a denied id is never asked upstream; a licence off the allow-list is refused, naming it", async () => {
    const upstreamRepo = {
      repo: { type: "model" as const, name: "hubco/mit-model" },
      accessToken: hubs.upstream.tokens.olivia,
      hubUrl: hubs.upstream.directUrl,
    };
    await createRepo(upstreamRepo);
    await uploadFiles({
      ...upstreamRepo,
      files: [{ path: "README.md", content: new Blob(["---\nlicense: mit\n---\n# MIT\n"]) }],
    });
    await hubs.restartMirror({ deny: ["hubco/denied-*"], licenses: ["apache-2.0"] });
    const denied = await onMirror("/api/models/hubco/denied-model");
    expect(denied.status).toBe(404);
    expect(upstreamCallsFor("denied-model")).toBe(0);
    const refused = await onMirror("/api/models/hubco/mit-model");
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("its licence mit is not in MIRROR_LICENSES (apache-2.0)");
    expect(await hubs.mirror.store.repos.get("model", "hubco/mit-model")).toBeUndefined();
  });
});

describe("offline mode", () => {
  it("serves what is cached and makes no upstream call; a miss says the hub is offline", async () => {
    await hubs.restartMirror({ mode: "offline", revisionTtlMs: 0 });
    const calls = hubs.upstream.proxy.requests.length;
    const cached = await onMirror(`/${PUBLIC}/resolve/main/config.json`);
    expect(cached.status).toBe(200);
    expect((await onMirror(`/api/models/${PUBLIC}/revision/main`)).status).toBe(200);
    const miss = await onMirror("/api/models/hubco/not-cached");
    expect(miss.status).toBe(404);
    expect(miss.headers.get("x-error-code")).toBe("RepoNotFound");
    expect(await miss.text()).toContain("the hub is offline (MIRROR_MODE=offline)");
    const commit = await onMirror(`/${PUBLIC}/resolve/${"0".repeat(40)}/config.json`);
    expect(commit.status).toBe(404);
    expect(commit.headers.get("x-error-code")).toBe("RevisionNotFound");
    expect(await commit.text()).toContain("is not cached on this hub, and the hub is offline");
    const branch = await onMirror(`/${PUBLIC}/resolve/never-seen/config.json`);
    expect(branch.status).toBe(404);
    expect(hubs.upstream.proxy.requests.length).toBe(calls);
  });
});
