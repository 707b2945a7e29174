import { randomBytes } from "node:crypto";
import { createRepo, downloadFile, listFiles, uploadFiles } from "@huggingface/hub";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import type { Logger } from "../logger.js";

let accessToken: string;
const requests: Array<{ method: string; path: string; status: number }> = [];
const logger: Logger = {
  log(_level, message, fields) {
    if (message === "request" && fields) requests.push(fields as (typeof requests)[number]);
  },
};
const calls = (pattern: RegExp) =>
  requests.filter((r) => pattern.test(`${r.method} ${r.path}`) && r.status < 300).length;

const hub = useTestHub({ logger });
beforeAll(async () => {
  accessToken = await userToken(hub.store, "alice");
});

describe("@huggingface/hub with its defaults (Xet) against the hub", () => {
  const repo = { type: "model" as const, name: "alice/js-xet" };
  const weights = randomBytes(3_000_000);

  it("uploads through the CAS (LFS batch answers the xet transfer), then lists the xetHash", async () => {
    const hubUrl = hub.url;
    await createRepo({ repo, accessToken, hubUrl });
    const commit = await uploadFiles({
      repo,
      accessToken,
      hubUrl,
      files: [
        { path: "model.safetensors", content: new Blob([weights]) },
        { path: "config.json", content: new Blob(['{"model_type":"gpt2"}']) },
      ],
    });
    expect(commit?.commit.oid).toMatch(/^[0-9a-f]{40}$/);
    expect(calls(/^POST \/xet-cas\/v1\/xorbs\/default\//)).toBeGreaterThan(0);
    expect(calls(/^POST \/xet-cas\/v1\/shards$/)).toBeGreaterThan(0);
    // Not through the plain LFS upload URLs.
    expect(calls(/^PUT \/api\/lfs-upload\//)).toBe(0);

    const files = [];
    for await (const file of listFiles({ repo, hubUrl, accessToken })) files.push(file);
    const model = files.find((file) => file.path === "model.safetensors");
    // The hub recomputed this hash from the uploaded chunks before registering the file. It need not be
    // hf_xet's hash of the same bytes: @huggingface/hub 2.17 cut this streamed file into chunks elsewhere
    // (42 chunks where hf_xet and the specification's chunker make 41), and any valid chunking is accepted.
    expect(model?.xetHash).toMatch(/^[0-9a-f]{64}$/);
    expect((await hub.store.xet.file(model?.xetHash ?? ""))?.size).toBe(weights.byteLength);
    expect(files.find((file) => file.path === "config.json")?.xetHash).toBeUndefined();
  }, 60_000);

  it("downloads through Xet (v2 reconstruction + xorb ranges), whole and sliced, byte-identical", async () => {
    const hubUrl = hub.url;
    const before = calls(/^GET \/xet-cas\/v2\/reconstructions\//);
    const blob = await downloadFile({ repo, path: "model.safetensors", hubUrl, accessToken });
    expect(blob?.size).toBe(weights.byteLength);
    expect(Buffer.from(await (blob as Blob).arrayBuffer()).equals(weights)).toBe(true);
    const slice = (blob as Blob).slice(1_000_000, 1_200_000);
    expect(Buffer.from(await slice.arrayBuffer()).equals(weights.subarray(1_000_000, 1_200_000))).toBe(true);
    expect(calls(/^GET \/xet-cas\/v2\/reconstructions\//)).toBeGreaterThan(before);
    expect(calls(/^GET \/xet-cas\/v1\/fetch\//)).toBeGreaterThan(0);

    const plain = await downloadFile({ repo, path: "model.safetensors", hubUrl, accessToken, xet: false });
    expect(Buffer.from(await (plain as Blob).arrayBuffer()).equals(weights)).toBe(true);
  }, 60_000);
});
