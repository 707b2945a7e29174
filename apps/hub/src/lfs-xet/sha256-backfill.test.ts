import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import type { Logger } from "../logger.js";
import { openBlobStore } from "../storage/blob-store-config.js";
import { casRequest, sampleUpload, xetTokenFor } from "./__fixtures__/xet-upload.js";
import { createCasService } from "./cas-service.js";
import { checkXetSha256sOnce, XET_SHA256_PENDING } from "./sha256-backfill.js";
import { serializeShard } from "./shard.js";
import { XetSigner } from "./xet-tokens.js";

const hub = useTestHub();
let token: string;
beforeAll(async () => {
  token = await userToken(hub.store, "alice");
  const created = await fetch(`${hub.url}/api/repos/create`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "alice/old", type: "model" }),
  });
  expect(created.status).toBe(200);
});

describe("checking the sha256 of Xet files registered before migration 18", () => {
  it("replaces a false claim with the bytes' sha256, trusts nothing before, and runs once", async () => {
    const upload = await sampleUpload(7, 100_000);
    const write = (await xetTokenFor(hub.url, token, "alice/old", "write")).body.accessToken;
    const cas = (path: string, body: Uint8Array) => casRequest(hub.url, "POST", path, write, body);
    expect((await cas(`/v1/xorbs/default/${upload.xorbHex}`, upload.xorb)).status).toBe(200);
    expect((await cas("/v1/shards", serializeShard({ files: [upload.file], xorbs: [] }))).status).toBe(200);
    // As a hub before the check left it: the shard's claim, unchecked, and the migration's note.
    const forged = "ab".repeat(32);
    await hub.store.db.run("UPDATE xet_files SET sha256 = ?, sha256_checked = 0 WHERE hash = ?", [
      forged,
      upload.fileHex,
    ]);
    await hub.store.meta.set(XET_SHA256_PENDING, "1");
    expect((await hub.store.xet.file(upload.fileHex))?.sha256).toBeUndefined();
    expect(await hub.store.xet.fileBySha256(forged)).toBeUndefined();

    const warnings: string[] = [];
    const logger: Logger = { log: (level, message) => void (level === "warn" && warnings.push(message)) };
    const reader = createCasService({
      xet: hub.store.xet,
      gc: hub.store.xetGc,
      blobs: await openBlobStore({ kind: "fs" }, hub.dataDir),
      signer: new XetSigner(),
      casUrl: "",
    });
    expect(await checkXetSha256sOnce(hub.store, reader, logger)).toBe(1);
    expect((await hub.store.xet.file(upload.fileHex))?.sha256).toBe(upload.sha256);
    expect(warnings).toHaveLength(1);
    expect(await hub.store.meta.get(XET_SHA256_PENDING)).toBeUndefined();
    expect(await checkXetSha256sOnce(hub.store, reader, logger)).toBe(0);
  });
});
