import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoApp } from "../__fixtures__/repo-app.js";

/**
 * The route table's matchers (repo-routes.ts): a revision with an encoded slash stays one revision, an id
 * has one or two segments, file downloads answer GET, HEAD and ranges as Hono responses, and a path that is
 * no repository route goes on to the rest of the app.
 */

let hub: Awaited<ReturnType<typeof repoApp>>;
const ID = "alice/routes";
const CONTENT = "0123456789abcdef";

beforeAll(async () => {
  hub = await repoApp();
  await hub.createRepo(ID);
  expect((await hub.commitFiles(ID, { "dir/file.txt": CONTENT })).status).toBe(200);
  const branch = await hub.app.request(`/api/models/${ID}/branch/feature%2Fx`, {
    method: "POST",
    headers: { ...hub.auth, "Content-Type": "application/json" },
    body: JSON.stringify({ startingPoint: "main" }),
  });
  expect(branch.status).toBe(200);
});
afterAll(() => hub.cleanup());

describe("the repository route table", () => {
  it("keeps an encoded slash inside the revision", async () => {
    const refs = (await (await hub.app.request(`/api/models/${ID}/refs`, { headers: hub.auth })).json()) as {
      branches: { name: string }[];
    };
    expect(refs.branches.map((branch) => branch.name).sort()).toEqual(["feature/x", "main"]);
    const info = await hub.app.request(`/api/models/${ID}/revision/feature%2Fx`, { headers: hub.auth });
    expect(info.status).toBe(200);
    const tree = await hub.app.request(`/api/models/${ID}/tree/feature%2Fx/dir`, { headers: hub.auth });
    expect(((await tree.json()) as { path: string }[]).map((entry) => entry.path)).toEqual(["dir/file.txt"]);
    const file = await hub.app.request(`/${ID}/resolve/feature%2Fx/dir/file.txt`, { headers: hub.auth });
    expect(file.status).toBe(200);
    expect(await file.text()).toBe(CONTENT);
    // Unencoded, `feature/x` is the revision `feature` and a path: no such revision.
    const unencoded = await hub.app.request(`/${ID}/resolve/feature/x/dir/file.txt`, { headers: hub.auth });
    expect(unencoded.status).toBe(404);
    expect(unencoded.headers.get("X-Error-Code")).toBe("RevisionNotFound");
  });

  it("answers HEAD without a body and ranges with 206, from a web stream", async () => {
    const head = await hub.app.request(`/${ID}/resolve/main/dir/file.txt`, {
      method: "HEAD",
      headers: hub.auth,
    });
    expect(head.status).toBe(200);
    expect(head.headers.get("Content-Length")).toBe(String(CONTENT.length));
    expect(head.headers.get("X-Repo-Commit")).toMatch(/^[0-9a-f]{40}$/);
    expect(await head.text()).toBe("");
    const range = await hub.app.request(`/${ID}/resolve/main/dir/file.txt`, {
      headers: { ...hub.auth, Range: "bytes=2-5" },
    });
    expect(range.status).toBe(206);
    expect(range.headers.get("Content-Range")).toBe(`bytes 2-5/${CONTENT.length}`);
    expect(await range.text()).toBe("2345");
  });

  it("sends a file over a socket whole and in ranges, its read buffers reused", async () => {
    // 5.25 MiB: more reads than file-response-body.ts's eight 512 KiB buffers, so each is written again;
    // every 4 bytes tell their position. Through a socket as start-hub.ts serves the app.
    const big = Buffer.alloc(5.25 * 2 ** 20);
    for (let i = 0; i < big.length; i += 4) big.writeUInt32BE(i, i);
    expect((await hub.commitFiles(ID, { "weights.bin": big })).status).toBe(200);
    const server = createServer(getRequestListener(hub.app.fetch));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/${ID}/resolve/main/weights.bin`;
      const whole = await fetch(url, { headers: hub.auth });
      expect(whole.status).toBe(200);
      expect(Buffer.from(await whole.arrayBuffer()).equals(big)).toBe(true);
      for (const [start, end] of [
        [2 ** 19 - 3, 4 * 2 ** 20 + 5],
        [0, 0],
        [big.length - 7, big.length - 1],
      ] as const) {
        const part = await fetch(url, { headers: { ...hub.auth, Range: `bytes=${start}-${end}` } });
        expect(part.status).toBe(206);
        expect(part.headers.get("Content-Range")).toBe(`bytes ${start}-${end}/${big.length}`);
        expect(Buffer.from(await part.arrayBuffer()).equals(big.subarray(start, end + 1))).toBe(true);
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("serves a moved repository's API under its former id, and redirects its files", async () => {
    await hub.createRepo("alice/before-move");
    expect((await hub.commitFiles("alice/before-move", { "a.txt": "a" })).status).toBe(200);
    const move = await hub.app.request("/api/repos/move", {
      method: "POST",
      headers: { ...hub.auth, "Content-Type": "application/json" },
      body: JSON.stringify({ fromRepo: "alice/before-move", toRepo: "alice/after-move", type: "model" }),
    });
    expect(move.status).toBe(200);
    const tree = await hub.app.request("/api/models/alice/before-move/tree/main", { headers: hub.auth });
    expect(((await tree.json()) as { path: string }[]).map((entry) => entry.path)).toContain("a.txt");
    const file = await hub.app.request("/alice/before-move/resolve/no-such-branch/a%20b.txt", {
      headers: hub.auth,
    });
    expect(file.status).toBe(307);
    expect(file.headers.get("Location")).toBe("/alice/after-move/resolve/no-such-branch/a%20b.txt");
  });

  it("names a missing repository and a private one alike, and leaves other paths to the app", async () => {
    // Anonymous callers are told 401 (as the public hub answers them), missing or hidden alike.
    const missing = await hub.app.request("/api/models/alice/nothing-here/tree/main");
    expect(missing.status).toBe(401);
    expect(missing.headers.get("X-Error-Code")).toBe("RepoNotFound");
    const settings = await hub.app.request(`/api/models/${ID}/settings`, {
      method: "PUT",
      headers: { ...hub.auth, "Content-Type": "application/json" },
      body: JSON.stringify({ private: true }),
    });
    expect(settings.status).toBe(200);
    const hidden = await hub.app.request(`/api/models/${ID}/tree/main`);
    expect(hidden.status).toBe(401);
    expect(hidden.headers.get("X-Error-Code")).toBe("RepoNotFound");
    const said = async (response: Response, id: string) =>
      JSON.stringify({ ...(await response.json()), requestId: undefined }).replaceAll(id, "{id}");
    expect(await said(hidden, ID)).toBe(await said(missing, "alice/nothing-here"));
    // Not a repository route: the app's own 404 (or the web app's page), not RepoNotFound.
    const other = await hub.app.request("/api/nothing/resolve/main/x");
    expect(other.status).toBe(404);
    expect(other.headers.get("X-Error-Code")).not.toBe("RepoNotFound");
  });
});
