import { downloadFile } from "@huggingface/hub";
import { describe, expect, it } from "vitest";
import { UPSTREAM_IDS, useTwoHubs } from "./__fixtures__/two-hubs.js";

/**
 * A mirrored file's content through the mirror hub's `/resolve`, as clients ask for it: fetched on the first
 * read (one upstream transfer for concurrent readers), byte-identical, a cut transfer never served whole nor
 * kept; a Xet file pulled by reconstruction, then offered to Xet clients from the local Xet store.
 */
const hubs = useTwoHubs();
const MODEL = UPSTREAM_IDS.publicModel;
const LFS_PATH = "pytorch_model.bin";
const XET_PATH = "model.safetensors";

const seededFile = (path: string) => hubs.seeded.publicModel.files[path]!.content;
const resolveUrl = (path: string) => `${hubs.mirror.url}/${MODEL}/resolve/main/${path}`;
const get = (path: string, init: RequestInit = {}) =>
  fetch(resolveUrl(path), {
    ...init,
    headers: {
      Authorization: `Bearer ${hubs.mirror.tokens.mia}`,
      ...(init.headers as Record<string, string>),
    },
  });
const upstreamCalls = (pattern: RegExp) =>
  hubs.upstream.proxy.requests.filter((r) => pattern.test(r.url)).length;

describe("mirrored content through /resolve", () => {
  it("answers HEAD from the tree without fetching the content", async () => {
    const answer = await get(LFS_PATH, { method: "HEAD" });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-linked-size")).toBe(String(seededFile(LFS_PATH).length));
    expect(upstreamCalls(new RegExp(`/resolve/[0-9a-f]{40}/${LFS_PATH}`))).toBe(0);
  });

  it("never serves a cut transfer whole, and keeps nothing", async () => {
    const content = seededFile(LFS_PATH);
    hubs.upstream.proxy.intercept = (req, res) => {
      if (!req.url?.includes(`/resolve/`) || !req.url.endsWith(LFS_PATH)) return false;
      res.writeHead(200, { "Content-Length": String(content.length) });
      res.write(content.subarray(0, content.length / 2), () => res.socket?.destroy());
      return true;
    };
    try {
      const answer = await get(LFS_PATH);
      // The status and length went out before the cut: the body then ends short, which clients detect.
      expect(answer.headers.get("content-length")).toBe(String(content.length));
      await expect(answer.arrayBuffer()).rejects.toThrow();
    } finally {
      hubs.upstream.proxy.intercept = undefined;
    }
    const sha256 = hubs.seeded.publicModel.files[LFS_PATH]!.sha256;
    expect((await hubs.mirror.store.mirror.content(sha256))?.stored).toBe(false);
    // The next request is a fresh transfer, served whole: the test below.
  });

  it("fetches an LFS file once for 16 concurrent readers after the cut, byte-identical, then serves it from the cache", async () => {
    const content = seededFile(LFS_PATH);
    const before = upstreamCalls(new RegExp(`/resolve/[0-9a-f]{40}/${LFS_PATH}`));
    const bodies = await Promise.all(
      Array.from({ length: 16 }, async () => Buffer.from(await (await get(LFS_PATH)).arrayBuffer())),
    );
    for (const body of bodies) expect(body.equals(content)).toBe(true);
    expect(upstreamCalls(new RegExp(`/resolve/[0-9a-f]{40}/${LFS_PATH}`)) - before).toBe(1);

    await expect
      .poll(
        async () =>
          (await hubs.mirror.store.mirror.content(hubs.seeded.publicModel.files[LFS_PATH]!.sha256))?.stored,
      )
      .toBe(true);
    const ranged = await get(LFS_PATH, { headers: { Range: "bytes=100-199" } });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(content.subarray(100, 200))).toBe(true);
    expect(upstreamCalls(new RegExp(`/resolve/[0-9a-f]{40}/${LFS_PATH}`)) - before).toBe(1);
  });

  it("pulls a Xet file by reconstruction for a plain client, then offers Xet from its own store", async () => {
    const content = seededFile(XET_PATH);
    const first = await get(XET_PATH);
    // Not here yet: no Xet headers, so every client downloads plain (which is what fetches it).
    expect(first.headers.get("x-xet-hash")).toBeNull();
    expect(Buffer.from(await first.arrayBuffer()).equals(content)).toBe(true);
    expect(upstreamCalls(/\/v1\/reconstructions\//)).toBeGreaterThan(0);
    expect(upstreamCalls(new RegExp(`/resolve/[0-9a-f]{40}/${XET_PATH}`))).toBe(0);

    await expect
      .poll(async () => (await get(XET_PATH, { method: "HEAD" })).headers.get("x-xet-hash"))
      .toMatch(/^[0-9a-f]{64}$/);
    const fetchesBefore = upstreamCalls(/\/v1\/(fetch|reconstructions)\//);
    const viaXet = await downloadFile({
      repo: { type: "model", name: MODEL },
      path: XET_PATH,
      hubUrl: hubs.mirror.url,
      accessToken: hubs.mirror.tokens.mia,
    });
    expect(Buffer.from(await (viaXet as Blob).arrayBuffer()).equals(content)).toBe(true);
    // From the mirror's own Xet store: upstream was not asked again.
    expect(upstreamCalls(/\/v1\/(fetch|reconstructions)\//)).toBe(fetchesBefore);
  });
});
