import { createRepo, uploadFiles } from "@huggingface/hub";
import { beforeAll, describe, expect, it } from "vitest";
import { useTwoHubs } from "./__fixtures__/two-hubs.js";

/**
 * A file pulled through the mirror under SCAN_POLICY=block (docs/decisions/scanning.md): the first read
 * fetches the content whole, scans it, and only then serves it, so an unsafe pickle's first pull answers 403
 * with no byte of it; it stays refused until an admin allows it, then is served byte-identical.
 */
const hubs = useTwoHubs({ mirrorHub: { scanning: { policy: "block", pollMs: 100 } } });
const MODEL = "hubco/unsafe-upstream";
// A pickle whose loading runs os.system (protocol 0, as Python's pickle writes it for this object).
const EVIL = Buffer.from("cos\nsystem\n(S'echo pwned'\ntR.", "latin1");

const mirrorGet = (path: string, token: string, method = "GET") =>
  fetch(`${hubs.mirror.url}/${MODEL}/resolve/main/${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}` },
  });

beforeAll(async () => {
  const upstream = { hubUrl: hubs.upstream.directUrl, accessToken: hubs.upstream.tokens.olivia };
  await createRepo({ ...upstream, repo: { type: "model", name: MODEL } });
  await uploadFiles({
    ...upstream,
    repo: { type: "model", name: MODEL },
    files: [{ path: "evil.pkl", content: new Blob([new Uint8Array(EVIL)]) }],
    useXet: false,
    commitTitle: "An unsafe pickle",
  });
}, 60_000);

describe("a mirrored file under SCAN_POLICY=block", () => {
  it("is scanned on its first pull before any byte is served, refused until allowed, then served", async () => {
    // Upstream keeps it as an LFS file: the mirror holds only its pointer until a read pulls the content.
    const [info] = (await (
      await fetch(`${hubs.upstream.directUrl}/api/models/${MODEL}/paths-info/main`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ paths: ["evil.pkl"] }),
      })
    ).json()) as Array<{ lfs?: { oid: string } }>;
    expect(info?.lfs?.oid).toMatch(/^[0-9a-f]{64}$/);
    const sha256 = info!.lfs!.oid;
    expect((await hubs.mirror.store.mirror.content(sha256))?.stored ?? false).toBe(false);

    // The first pull: fetched whole and scanned, then refused (for GET and HEAD alike), no pickle byte out.
    const first = await mirrorGet("evil.pkl", hubs.mirror.tokens.mia);
    const body = Buffer.from(await first.arrayBuffer());
    expect(first.status).toBe(403);
    expect(body.includes(EVIL)).toBe(false);
    expect(JSON.parse(body.toString()).error).toMatch(/found unsafe/);
    expect((await hubs.mirror.store.mirror.content(sha256))?.stored).toBe(true);
    expect((await mirrorGet("evil.pkl", hubs.mirror.tokens.mia, "HEAD")).status).toBe(403);
    const scan = (await (
      await fetch(`${hubs.mirror.url}/api/models/${MODEL}/scan/main/evil.pkl`, {
        headers: { Authorization: `Bearer ${hubs.mirror.tokens.mia}` },
      })
    ).json()) as { verdict: string; scanState: string; downloadable: boolean };
    expect(scan).toMatchObject({ verdict: "unsafe", scanState: "done", downloadable: false });

    // Refused for a site admin too, until one allows it; then served byte-identical.
    expect((await mirrorGet("evil.pkl", hubs.mirror.tokens.sam)).status).toBe(403);
    const allowed = await fetch(`${hubs.mirror.url}/api/models/${MODEL}/scan-allow/main/evil.pkl`, {
      method: "POST",
      headers: { Authorization: `Bearer ${hubs.mirror.tokens.sam}` },
    });
    expect(allowed.status, await allowed.clone().text()).toBe(200);
    const served = await mirrorGet("evil.pkl", hubs.mirror.tokens.mia);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(EVIL)).toBe(true);
  }, 60_000);
});
