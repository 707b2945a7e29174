import { uploadFiles } from "@huggingface/hub";
import { describe, expect, it } from "vitest";
import { accountsService } from "../accounts/accounts-service.js";
import { pseudoRandomBytes } from "../lfs-xet/__fixtures__/bytes.js";
import { useTwoHubs } from "./__fixtures__/two-hubs.js";

/**
 * With a mirror configured, a demo copy of a catalogue model gives way to the real model upstream has
 * (issue 38, item 1): on the first request for its id, the copy's repository goes and upstream's is mirrored
 * under the id. A demo copy someone committed to stays (a local repository wins), and so does one whose id
 * the mirror's policy refuses. Both hubs seed the built-in catalogue, so each holds demo copies of its models.
 */
const hubs = useTwoHubs({ mirror: { deny: ["meta-llama/*"] } });
const REAL = "Qwen/Qwen2.5-7B-Instruct";
const DENIED = "meta-llama/Llama-3.1-8B-Instruct";
const TOUCHED = "microsoft/phi-4";
const GONE_UPSTREAM = "Qwen/Qwen2.5-72B-Instruct";
const WEIGHTS = Buffer.from(pseudoRandomBytes(64_000, 3));

type Info = {
  mirror?: { upstream: string };
  demoCopy?: { original: string };
  siblings?: { rfilename: string }[];
};

async function info(id: string): Promise<Info> {
  const response = await fetch(`${hubs.mirror.url}/api/models/${id}`, {
    headers: { authorization: `Bearer ${hubs.mirror.tokens.sam}` },
  });
  expect(response.status, `${id}: ${response.status}`).toBe(200);
  return (await response.json()) as Info;
}

describe("a demo copy on a hub with a mirror", () => {
  it("gives way to the real model upstream holds, its weights then downloadable here", async () => {
    // Upstream's copy of the model becomes real: its owner's organization uploads weights to it.
    await accountsService(hubs.upstream.store.accounts).createOrg({
      name: "Qwen",
      fullname: "Qwen",
      owner: "olivia",
    });
    await uploadFiles({
      repo: { type: "model", name: REAL },
      accessToken: hubs.upstream.tokens.olivia,
      hubUrl: hubs.upstream.directUrl,
      files: [{ path: "model.safetensors", content: new Blob([new Uint8Array(WEIGHTS)]) }],
      useXet: false,
      commitTitle: "The weights",
    });
    // Until asked for, the mirror hub holds its own demo copy.
    expect(await hubs.mirror.store.demoCopies.untouchedOfModels([REAL])).toHaveProperty("size", 1);

    const body = await info(REAL);
    expect(body.demoCopy).toBeUndefined();
    expect(body.mirror?.upstream).toBe(hubs.upstream.url);
    expect(body.siblings?.map((file) => file.rfilename)).toContain("model.safetensors");
    const download = await fetch(`${hubs.mirror.url}/${REAL}/resolve/main/model.safetensors`);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(WEIGHTS)).toBe(true);
    // The catalogue record stays the model's: listed once, with its provider mappings.
    const listed = (await (
      await fetch(`${hubs.mirror.url}/api/models?search=Qwen2.5-7B-Instruct`)
    ).json()) as {
      id: string;
    }[];
    expect(listed.filter((model) => model.id === REAL)).toHaveLength(1);
  });

  it("stays when upstream does not have the model", async () => {
    // Upstream loses its repository of the model (and its catalogue record).
    await hubs.upstream.store.db.run("DELETE FROM repos WHERE type = 'model' AND name = ?", [GONE_UPSTREAM]);
    await hubs.upstream.store.db.run("DELETE FROM models WHERE id = ?", [GONE_UPSTREAM]);
    expect((await fetch(`${hubs.upstream.directUrl}/api/models/${GONE_UPSTREAM}`)).status).toBe(401);
    for (let read = 0; read < 2; read++) {
      const body = await info(GONE_UPSTREAM);
      expect(body.demoCopy?.original).toBe(`https://huggingface.co/${GONE_UPSTREAM}`);
      expect(body.mirror).toBeUndefined();
    }
  });

  it("stays when the mirror's policy refuses the id, or once someone committed to it here", async () => {
    const denied = await info(DENIED);
    expect(denied.demoCopy?.original).toBe(`https://huggingface.co/${DENIED}`);
    expect(denied.mirror).toBeUndefined();

    const lines = [
      { key: "header", value: { summary: "Ours now" } },
      {
        key: "file",
        value: {
          path: "NOTES.md",
          content: Buffer.from("kept here\n").toString("base64"),
          encoding: "base64",
        },
      },
    ];
    const commit = await fetch(`${hubs.mirror.url}/api/models/${TOUCHED}/commit/main`, {
      method: "POST",
      headers: { authorization: `Bearer ${hubs.mirror.tokens.sam}`, "content-type": "application/x-ndjson" },
      body: lines.map((line) => JSON.stringify(line)).join("\n"),
    });
    expect(commit.status).toBe(200);
    const touched = await info(TOUCHED);
    expect(touched.mirror).toBeUndefined();
    expect(touched.demoCopy).toBeUndefined();
    expect(touched.siblings?.map((file) => file.rfilename)).toContain("NOTES.md");
  });
});
