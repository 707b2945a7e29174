import { createHash, randomBytes } from "node:crypto";
import { createRepo, uploadFiles } from "@huggingface/hub";
import { beforeAll, describe, expect, it } from "vitest";
import { gitBlobId } from "../repos/git-objects.js";
import { lfsPointerText } from "../repos/lfs-pointer.js";
import { UPSTREAM_IDS, useTwoHubs } from "./__fixtures__/two-hubs.js";

/**
 * Knowing a hash is never a capability, for a mirror too: an upstream (compromised, or simply another hub with
 * weaker checks) that lists a file whose LFS sha256 is that of a private file on the mirror hub must get
 * nothing but a fetch upstream: the mirror never serves the local bytes for it, and the mirrored repository
 * never makes them claimable by its readers (content-claims.ts rule 3).
 */
const hubs = useTwoHubs();
const MODEL = UPSTREAM_IDS.publicModel;
const SECRET = randomBytes(64 * 1024);
const SECRET_SHA256 = createHash("sha256").update(SECRET).digest("hex");
const LEAK_PATH = "leak.bin";

beforeAll(async () => {
  // sam (a site admin of the mirror hub) keeps a private file that neither mia nor lena may read.
  const repo = { type: "model" as const, name: "sam/secrets" };
  const common = { repo, accessToken: hubs.mirror.tokens.sam, hubUrl: hubs.mirror.url };
  await createRepo({ ...common, private: true });
  await uploadFiles({
    ...common,
    useXet: false,
    files: [{ path: "secret.bin", content: new Blob([SECRET]) }],
  });

  // Upstream's recursive listing of the public model names one more LFS file: the private file's hash.
  hubs.upstream.proxy.intercept = (req, res) => {
    if (!req.url?.startsWith(`/api/models/${MODEL}/tree/`) || !req.url.includes("recursive=true"))
      return false;
    void (async () => {
      const real = await fetch(`${hubs.upstream.directUrl}${req.url}`, {
        headers: { Authorization: `Bearer ${hubs.upstream.tokens.mirrorBot}` },
      });
      const entries = (await real.json()) as unknown[];
      const pointer = Buffer.from(lfsPointerText(SECRET_SHA256, SECRET.length));
      entries.push({
        type: "file",
        path: LEAK_PATH,
        oid: gitBlobId(pointer),
        size: SECRET.length,
        lfs: { oid: SECRET_SHA256, size: SECRET.length, pointerSize: pointer.length },
      });
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify(entries));
    })().catch(() => res.destroy());
    return true;
  };
});

describe("an upstream that declares a local private file's sha256", () => {
  it("gets the mirror to fetch upstream, never to serve the local bytes", async () => {
    const answer = await fetch(`${hubs.mirror.url}/${MODEL}/resolve/main/${LEAK_PATH}`, {
      headers: { Authorization: `Bearer ${hubs.mirror.tokens.mia}` },
    });
    const body = Buffer.from(await answer.arrayBuffer().catch(() => new ArrayBuffer(0)));
    expect(body.includes(SECRET.subarray(0, 4096))).toBe(false);
    expect(answer.status).not.toBe(200);
    // The mirror asked upstream for the bytes (which upstream does not have).
    expect(
      hubs.upstream.proxy.requests.some(
        (r) => r.url.includes(`/resolve/`) && r.url.endsWith(`/${LEAK_PATH}`),
      ),
    ).toBe(true);
    expect((await hubs.mirror.store.mirror.content(SECRET_SHA256))?.stored).toBe(false);
  });

  it("does not make the private file claimable through the mirrored repository", async () => {
    // lena may write her own repository and read the mirrored public model, but not sam's private one: an LFS
    // batch for the private file's hash must ask her for the bytes.
    const answer = await fetch(`${hubs.mirror.url}/lena/local-model.git/info/lfs/objects/batch`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${hubs.mirror.tokens.lena}`,
        Accept: "application/vnd.git-lfs+json",
        "Content-Type": "application/vnd.git-lfs+json",
      },
      body: JSON.stringify({
        operation: "upload",
        transfers: ["basic"],
        objects: [{ oid: SECRET_SHA256, size: SECRET.length }],
      }),
    });
    expect(answer.status).toBe(200);
    const batch = (await answer.json()) as { objects: { oid: string; actions?: { upload?: unknown } }[] };
    expect(batch.objects[0]?.oid).toBe(SECRET_SHA256);
    expect(batch.objects[0]?.actions?.upload).toBeDefined();
  });
});
