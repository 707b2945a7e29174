import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { casRequest, sampleUpload, xetTokenFor } from "./__fixtures__/xet-upload.js";
import { chunkRanges } from "./chunker.js";
import { hashToHex, hexToHash, loadXetHashing, type XetHash } from "./hashes.js";
import { type ShardFileInfo, serializeShard } from "./shard.js";
import { fileSha256FromUploads } from "./xorb-verify-pool.js";

const hubTokens: Record<string, string> = {};

async function createRepo(token: string, name: string) {
  // name is the full `owner/name`.
  const response = await fetch(`${hub.url}/api/repos/create`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name, type: "model" }),
  });
  expect(response.status).toBe(200);
}

const xetToken = (hubToken: string, repo: string, scope: "read" | "write") =>
  xetTokenFor(hub.url, hubToken, repo, scope);

const hub = useTestHub();
beforeAll(async () => {
  hubTokens.alice = await userToken(hub.store, "alice");
  hubTokens.bob = await userToken(hub.store, "bob");
  await createRepo(hubTokens.alice, "alice/model-a");
  await createRepo(hubTokens.bob, "bob/model-b");
});

/** Every file under the hub's blob directory (blobs and temporary files). */
function storedFiles(): string[] {
  const root = join(hub.dataDir, "blobs");
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

const cas = (method: string, path: string, token: string | undefined, body?: Uint8Array, headers = {}) =>
  casRequest(hub.url, method, path, token, body, headers);

describe("Xet tokens", () => {
  it("are handed out with the CAS address after the repository permission check", async () => {
    const write = await xetToken(hubTokens.alice as string, "alice/model-a", "write");
    expect(write.status).toBe(200);
    expect(write.body.casUrl).toBe(`${hub.url}/xet-cas`);
    expect(write.body.exp).toBeGreaterThan(Date.now() / 1000);
    // bob may read alice's public repository, not write to it.
    expect((await xetToken(hubTokens.bob as string, "alice/model-a", "read")).status).toBe(200);
    expect((await xetToken(hubTokens.bob as string, "alice/model-a", "write")).status).toBe(403);
    expect((await xetToken(hubTokens.alice as string, "alice/missing", "read")).status).toBe(404);
  });

  it("are scoped to a revision that exists, and a write token to one a commit may target", async () => {
    const alice = hubTokens.alice as string;
    const get = (scope: "read" | "write", revision: string) =>
      fetch(`${hub.url}/api/models/alice/model-a/xet-${scope}-token/${revision}`, {
        headers: { Authorization: `Bearer ${alice}` },
      });
    const revisionOf = async (response: Response) => {
      const { accessToken } = (await response.json()) as { accessToken: string };
      const payload = accessToken.slice("xet_".length, accessToken.indexOf("."));
      return (JSON.parse(Buffer.from(payload, "base64url").toString()) as unknown[])[3];
    };
    const tag = await fetch(`${hub.url}/api/models/alice/model-a/tag/main`, {
      method: "POST",
      headers: { Authorization: `Bearer ${alice}`, "Content-Type": "application/json" },
      body: JSON.stringify({ tag: "v1" }),
    });
    expect(tag.status).toBeLessThan(300);
    const info = await fetch(`${hub.url}/api/models/alice/model-a`, {
      headers: { Authorization: `Bearer ${alice}` },
    });
    const head = ((await info.json()) as { sha: string }).sha;
    expect(head).toMatch(/^[0-9a-f]{40}$/);
    const expanded = await fetch(`${hub.url}/api/models/alice/model-a?expand[]=xetEnabled`, {
      headers: { Authorization: `Bearer ${alice}` },
    });
    expect(((await expanded.json()) as { xetEnabled?: boolean }).xetEnabled).toBe(true);

    expect(await revisionOf(await get("read", "main"))).toBe("refs/heads/main");
    expect(await revisionOf(await get("read", "v1"))).toBe("refs/tags/v1");
    expect(await revisionOf(await get("read", head))).toBe(head);
    const missing = await get("read", "no-such-branch");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-error-code")).toBe("RevisionNotFound");

    expect(await revisionOf(await get("write", "main"))).toBe("refs/heads/main");
    // A tag, a commit id or a missing branch cannot take a commit: no write token for them.
    expect((await get("write", "v1")).status).toBe(404);
    expect((await get("write", head)).status).toBe(404);
    expect((await get("write", "no-such-branch")).status).toBe(404);
    // huggingface_hub's create_pr=True asks for `None?create_pr=1`: a token for the pull request to come.
    expect(await revisionOf(await get("write", "None?create_pr=1"))).toBe("refs/pr/*");
    // Reading someone else's public repository at a revision is fine; writing to it is not, at any revision.
    const bob = (scope: "read" | "write", revision: string) =>
      fetch(`${hub.url}/api/models/alice/model-a/xet-${scope}-token/${revision}`, {
        headers: { Authorization: `Bearer ${hubTokens.bob}` },
      });
    expect((await bob("read", "v1")).status).toBe(200);
    expect((await bob("write", "None?create_pr=1")).status).toBe(403);
  });
});

describe("the CAS API refuses bad input and registers nothing", () => {
  it("xorbs: no token, a forged token, a read token, a forged hash, a truncated body", async () => {
    const { xorb, xorbHex } = await sampleUpload(1);
    const before = storedFiles();
    const write = (await xetToken(hubTokens.alice as string, "alice/model-a", "write")).body.accessToken;
    const read = (await xetToken(hubTokens.alice as string, "alice/model-a", "read")).body.accessToken;
    const path = `/v1/xorbs/default/${xorbHex}`;
    expect((await cas("POST", path, undefined, xorb)).status).toBe(401);
    expect((await cas("POST", path, `${write.slice(0, -3)}abc`, xorb)).status).toBe(401);
    expect((await cas("POST", path, read, xorb)).status).toBe(403);
    const otherHash = (await sampleUpload(2)).xorbHex;
    expect((await cas("POST", `/v1/xorbs/default/${otherHash}`, write, xorb)).status).toBe(400);
    expect((await cas("POST", path, write, xorb.subarray(0, xorb.length - 10))).status).toBe(400);
    const flipped = xorb.slice();
    flipped[xorb.length - 100] = (flipped[xorb.length - 100] as number) ^ 1;
    expect((await cas("POST", path, write, flipped)).status).toBe(400);
    expect((await cas("POST", "/v1/xorbs/default/XYZ", write, xorb)).status).toBe(400);
    expect(await hub.store.xet.xorb(xorbHex)).toBeUndefined();
    expect(await hub.store.xet.xorb(otherHash)).toBeUndefined();
    // The refused bodies were streamed to the blob store and dropped there: no blob, no temporary file.
    expect(storedFiles()).toEqual(before);

    const ok = await cas("POST", path, write, xorb);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ was_inserted: true });
    expect(await (await cas("POST", path, write, xorb)).json()).toEqual({ was_inserted: false });
  });

  it("shards: missing xorb, forged file hash, forged verification, truncation, read token", async () => {
    const upload = await sampleUpload(3);
    const write = (await xetToken(hubTokens.alice as string, "alice/model-a", "write")).body.accessToken;
    const read = (await xetToken(hubTokens.alice as string, "alice/model-a", "read")).body.accessToken;
    const shard = serializeShard({ files: [upload.file], xorbs: [] });
    // The xorb was never uploaded.
    expect((await cas("POST", "/v1/shards", write, shard)).status).toBe(400);
    expect((await cas("POST", `/v1/xorbs/default/${upload.xorbHex}`, write, upload.xorb)).status).toBe(200);
    const forgedFile = serializeShard({
      files: [{ ...upload.file, fileHash: new Uint8Array(32).fill(7) }],
      xorbs: [],
    });
    expect((await cas("POST", "/v1/shards", write, forgedFile)).status).toBe(400);
    const forgedCheck = serializeShard({
      files: [{ ...upload.file, verification: [new Uint8Array(32)] }],
      xorbs: [],
    });
    expect((await cas("POST", "/v1/shards", write, forgedCheck)).status).toBe(400);
    const wrongSize = {
      ...upload.file,
      terms: [{ ...(upload.file.terms[0] as ShardFileInfo["terms"][0]), unpackedBytes: 5 }],
    };
    expect(
      (await cas("POST", "/v1/shards", write, serializeShard({ files: [wrongSize], xorbs: [] }))).status,
    ).toBe(400);
    expect((await cas("POST", "/v1/shards", write, shard.subarray(0, 120))).status).toBe(400);
    expect((await cas("POST", "/v1/shards", read, shard)).status).toBe(403);
    expect(await hub.store.xet.file(upload.fileHex)).toBeUndefined();

    expect((await cas("POST", "/v1/shards", write, shard)).status).toBe(200);
    expect((await hub.store.xet.file(upload.fileHex))?.size).toBe(upload.data.length);
  });

  it("shards: a file's sha256 checked from the xorbs' own upload pass, a false one refused", async () => {
    const hashing = await loadXetHashing();
    const write = (await xetToken(hubTokens.alice as string, "alice/model-a", "write")).body.accessToken;
    // One file over two xorbs, uploaded one after the other as a client does.
    const [one, two] = [await sampleUpload(31, 300_000), await sampleUpload(32, 200_000)];
    for (const part of [one, two]) {
      expect((await cas("POST", `/v1/xorbs/default/${part.xorbHex}`, write, part.xorb)).status).toBe(200);
    }
    const leaves = [one, two].flatMap((part) =>
      part.chunkHashes.map((hash, i) => ({ hash, size: part.file.verification ? chunkSize(part, i) : 0 })),
    );
    const sha256 = createHash("sha256").update(one.data).update(two.data).digest("hex");
    const terms = [one, two].map((part) => ({ xorb: part.xorbHex, start: 0, end: part.chunkHashes.length }));
    // The upload's pass answered it: the shard's check reads nothing back.
    expect(
      fileSha256FromUploads(terms, (xorb) => (xorb === one.xorbHex ? one : two).chunkHashes.length),
    ).toBe(sha256);
    const file = (declared: string): ShardFileInfo => ({
      fileHash: hashing.fileHash(leaves),
      terms: [...one.file.terms, ...two.file.terms],
      verification: [...(one.file.verification ?? []), ...(two.file.verification ?? [])],
      sha256: hexToHash(declared),
    });
    const shard = (declared: string) => serializeShard({ files: [file(declared)], xorbs: [] });
    expect((await cas("POST", "/v1/shards", write, shard(one.sha256))).status).toBe(400);
    const fileHex = hashToHex(hashing.fileHash(leaves));
    expect(await hub.store.xet.file(fileHex)).toBeUndefined();
    expect((await cas("POST", "/v1/shards", write, shard(sha256))).status).toBe(200);
    expect((await hub.store.xet.file(fileHex))?.sha256).toBe(sha256);
  });

  it("reconstructions: only for the repository that registered the file; ranges; presigned fetches", async () => {
    const upload = await sampleUpload(3);
    const aliceRead = (await xetToken(hubTokens.alice as string, "alice/model-a", "read")).body.accessToken;
    const bobRead = (await xetToken(hubTokens.bob as string, "bob/model-b", "read")).body.accessToken;
    expect((await cas("GET", `/v1/reconstructions/${upload.fileHex}`, bobRead)).status).toBe(404);
    const ranged = await cas("GET", `/v1/reconstructions/${upload.fileHex}`, aliceRead, undefined, {
      Range: "bytes=100000-100009",
    });
    expect(ranged.status).toBe(200);
    const plan = (await ranged.json()) as {
      offset_into_first_range: number;
      terms: Array<{ hash: string; range: { start: number; end: number } }>;
      fetch_info: Record<string, Array<{ url: string; url_range: { start: number; end: number } }>>;
    };
    expect(plan.terms).toHaveLength(1);
    expect(plan.terms[0]?.range.end).toBe((plan.terms[0]?.range.start ?? 0) + 1);
    const info = plan.fetch_info[upload.xorbHex]?.[0];
    expect(info).toBeDefined();
    const { start, end } = info?.url_range ?? { start: 0, end: 0 };
    const fetched = await fetch(info?.url ?? "", { headers: { Range: `bytes=${start}-${end}` } });
    expect(fetched.status).toBe(206);
    expect((await fetched.arrayBuffer()).byteLength).toBe(end - start + 1);
    const tampered = (info?.url ?? "").replace(/s=[^&]+/, "s=forged");
    expect((await fetch(tampered, { headers: { Range: `bytes=${start}-${end}` } })).status).toBe(403);
    expect(
      (
        await cas("GET", `/v1/reconstructions/${upload.fileHex}`, aliceRead, undefined, {
          Range: "bytes=900000-900001",
        })
      ).status,
    ).toBe(416);
  });

  it("dedup queries answer a shard with keyed chunk hashes for known chunks, 404 for others", async () => {
    const upload = await sampleUpload(3);
    const bobRead = (await xetToken(hubTokens.bob as string, "bob/model-b", "read")).body.accessToken;
    const known = await cas(
      "GET",
      `/v1/chunks/default-merkledb/${hashToHex(upload.chunkHashes[0] as XetHash)}`,
      bobRead,
    );
    expect(known.status).toBe(200);
    const bytes = new Uint8Array(await known.arrayBuffer());
    const { parseShard } = await import("./shard.js");
    const shard = parseShard(bytes);
    expect(shard.xorbs.map((x) => hashToHex(x.xorbHash))).toEqual([upload.xorbHex]);
    expect(shard.hmacKey).toBeDefined();
    // Keyed: the raw chunk hashes are not given away.
    expect(shard.xorbs[0]?.chunks.map((c) => hashToHex(c.hash))).not.toContain(
      hashToHex(upload.chunkHashes[0] as XetHash),
    );
    expect((await cas("GET", `/v1/chunks/default-merkledb/${"ab".repeat(32)}`, bobRead)).status).toBe(404);
  });
});

/** The size of chunk `i` of a sample upload (the chunker's cut, as the data holds it). */
function chunkSize(part: Awaited<ReturnType<typeof sampleUpload>>, i: number): number {
  return chunkRanges(part.data).map((range) => range.end - range.start)[i] as number;
}
