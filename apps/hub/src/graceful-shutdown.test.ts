import { createHash, randomBytes } from "node:crypto";
import { type IncomingMessage, request } from "node:http";
import { createRepo, uploadFile } from "@huggingface/hub";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "./__fixtures__/accounts.js";
import { useTestHub } from "./__fixtures__/test-hub.js";

const FILE_BYTES = 24 * 1024 * 1024;
// Long enough for the fast download (24 MiB) to finish while another test file shares the cores.
const GRACE_MS = 4000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

let token: string;
const content = randomBytes(FILE_BYTES);
/** What a Prometheus scrape sends: /metrics is the operator's. */
const ADMIN_TOKEN = "graceful-shutdown-admin-token";
const hub = useTestHub({ shutdownGraceMs: GRACE_MS, adminToken: ADMIN_TOKEN });
const scrape = () => fetch(`${hub.url}/metrics`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
beforeAll(async () => {
  token = await userToken(hub.store, "alice");
  const client = { accessToken: token, hubUrl: hub.url };
  await createRepo({ repo: "alice/drain", ...client });
  await uploadFile({
    repo: "alice/drain",
    file: { path: "weights.bin", content: new Blob([content]) },
    useXet: false,
    ...client,
  });
}, 60_000);

/** A GET whose body the caller reads at its own pace. */
function openDownload(path: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, hub.url);
    request(url, { headers: { Authorization: `Bearer ${token}` } }, resolve)
      .on("error", reject)
      .end();
  });
}

/** Reads `response` at most `bytesPerTick` per 20 ms; resolves with what arrived and whether it all did. */
function readSlowly(response: IncomingMessage, bytesPerTick = Number.POSITIVE_INFINITY) {
  return new Promise<{ bytes: Buffer; complete: boolean }>((resolve) => {
    const parts: Buffer[] = [];
    let windowBytes = 0;
    const tick = setInterval(() => {
      windowBytes = 0;
      response.resume();
    }, 20);
    response.on("data", (chunk: Buffer) => {
      parts.push(chunk);
      windowBytes += chunk.length;
      if (windowBytes >= bytesPerTick) response.pause();
    });
    response.on("error", () => undefined);
    // "close" follows "end" on a finished response, and comes alone on a connection cut short.
    response.on("close", () => {
      clearInterval(tick);
      resolve({ bytes: Buffer.concat(parts), complete: response.complete });
    });
  });
}

describe("/metrics on a running hub", () => {
  it("counts the bytes of file uploads and of downloads piped straight to the socket", async () => {
    const metric = async (labels: string) => {
      const text = await (await scrape()).text();
      return Number(new RegExp(`^hub_transfer_bytes_total\\{${labels}\\} (\\d+)$`, "m").exec(text)?.[1] ?? 0);
    };
    expect(await metric('direction="upload",kind="files"')).toBeGreaterThanOrEqual(FILE_BYTES);
    const before = await metric('direction="download",kind="files"');
    const response = await fetch(`${hub.url}/alice/drain/resolve/main/weights.bin`, {
      headers: { Authorization: `Bearer ${token}`, Range: "bytes=0-999" },
    });
    expect((await response.arrayBuffer()).byteLength).toBe(1000);
    expect((await metric('direction="download",kind="files"')) - before).toBe(1000);
    const text = await (await scrape()).text();
    expect(text).toMatch(/hub_http_requests_total\{method="GET",route="[^"]*",status="206"\} 1/);
  });
});

describe("graceful shutdown", () => {
  it("lets a download and an upload in flight finish, refuses new connections, and cuts what outlasts the deadline", async () => {
    const path = "/alice/drain/resolve/main/weights.bin";
    // A client reading ~3 MB/s: 24 MiB would take ~8 s, twice the deadline, so it is cut.
    const tooSlow = await openDownload(path);
    const tooSlowRead = readSlowly(tooSlow, 64 * 1024);
    // A client reading as fast as it can: it finishes well within the deadline.
    const download = await openDownload(path);
    const downloadRead = readSlowly(download);
    // An upload (commit with an inline file) whose body is still arriving when shutdown starts.
    const upload = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const lines = [
        { key: "header", value: { summary: "during shutdown" } },
        {
          key: "file",
          value: { path: "late.txt", content: Buffer.from("late").toString("base64"), encoding: "base64" },
        },
      ].map((line) => JSON.stringify(line));
      const req = request(
        new URL("/api/models/alice/drain/commit/main", hub.url),
        {
          method: "POST",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/x-ndjson" },
        },
        (response) => {
          let body = "";
          response.setEncoding("utf8").on("data", (chunk) => (body += chunk));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
        },
      ).on("error", reject);
      req.write(`${lines[0]}\n`);
      setTimeout(() => req.end(lines[1]), 600);
    });

    await sleep(100);
    const started = performance.now();
    const closed = hub.close();
    await sleep(50);
    // No new connection is accepted once shutdown began.
    await expect(fetch(`${hub.url}/healthz`)).rejects.toThrow();

    const uploaded = await upload;
    expect(uploaded.status, uploaded.body).toBe(200);
    expect(JSON.parse(uploaded.body).commitOid).toMatch(/^[0-9a-f]{40}$/);
    const finished = await downloadRead;
    expect(finished.complete).toBe(true);
    expect(sha256(finished.bytes)).toBe(sha256(content));

    await closed;
    const elapsed = performance.now() - started;
    const cut = await tooSlowRead;
    expect(cut.complete).toBe(false);
    expect(cut.bytes.length).toBeLessThan(FILE_BYTES);
    // Exits at the deadline, not after the slowest client.
    expect(elapsed).toBeGreaterThanOrEqual(GRACE_MS - 50);
    expect(elapsed).toBeLessThan(GRACE_MS + 2500);
  }, 30_000);
});
