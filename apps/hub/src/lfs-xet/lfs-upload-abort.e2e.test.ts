import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { type Caller, call, sha256Hex } from "../repos/__fixtures__/lfs-commits.js";
import type { BlobStore } from "../storage/blob-store.js";
import { openBlobStore } from "../storage/blob-store-config.js";

/**
 * An LFS upload whose client goes away mid-body, on a real hub on loopback: large enough to be hashed on
 * the worker thread (through the ring shared with it), so that the abandoned stream must give its ring back
 * and leave no temporary file; the next uploads, one of them of the same object, are stored whole.
 */
const hub = useTestHub();
let alice: Caller;
let blobs: BlobStore;
const REPO = "alice/abort";
const SIZE = 24 << 20;

beforeAll(async () => {
  alice = { url: hub.url, token: await userToken(hub.store, "alice") };
  blobs = await openBlobStore({ kind: "fs" }, hub.dataDir);
  expect((await call(alice, "POST", "/api/repos/create", { name: REPO })).status).toBe(200);
});

async function uploadHref(oid: string, size: number): Promise<string> {
  const answered = await call(alice, "POST", `/${REPO}.git/info/lfs/objects/batch`, {
    operation: "upload",
    transfers: ["basic"],
    objects: [{ oid, size }],
  });
  expect(answered.status).toBe(200);
  const { objects } = (await answered.json()) as { objects: { actions?: { upload?: { href: string } } }[] };
  return objects[0]!.actions!.upload!.href;
}

/** PUTs the first `sent` bytes of `bytes` (announcing all of them), then drops the connection. */
function putThenGoAway(href: string, bytes: Buffer, sent: number): Promise<void> {
  return new Promise((resolve) => {
    const put = request(href, { method: "PUT", headers: { "Content-Length": bytes.byteLength } });
    put.on("error", () => resolve());
    put.on("response", (response) => {
      response.resume();
      resolve();
    });
    put.write(bytes.subarray(0, sent), () => {
      // Give the hub time to read and hash what arrived (several ring slots), then go away.
      setTimeout(() => {
        put.destroy();
        resolve();
      }, 300);
    });
  });
}

const tmpFiles = () => {
  const tmpRoot = join(hub.dataDir, "blobs", "tmp");
  return readdirSync(tmpRoot).flatMap((dir) => readdirSync(join(tmpRoot, dir)));
};

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`waited 5 s for ${what}`);
}

describe("an LFS upload whose client goes away mid-body", () => {
  it("keeps no object and no temporary file, and the next uploads are stored whole", async () => {
    const bytes = randomBytes(SIZE);
    const oid = sha256Hex(bytes);
    for (let attempt = 0; attempt < 3; attempt++) {
      await putThenGoAway(await uploadHref(oid, SIZE), bytes, (SIZE / 2) | 0);
    }
    await until(() => tmpFiles().length === 0, "the abandoned uploads' temporary files to go");
    expect(await blobs.head(oid)).toBeUndefined();

    // The abandoned streams' rings are reused: the same object, then another one beside it.
    const other = randomBytes(SIZE + 12345);
    const stored = await Promise.all(
      [bytes, other].map(async (content) => {
        const put = await fetch(await uploadHref(sha256Hex(content), content.byteLength), {
          method: "PUT",
          body: content as BodyInit,
        });
        return put.status;
      }),
    );
    expect(stored).toEqual([200, 200]);
    expect(await blobs.head(oid)).toMatchObject({ size: SIZE });
    expect(await blobs.head(sha256Hex(other))).toMatchObject({ size: other.byteLength });
    expect(tmpFiles()).toEqual([]);
  });
});
