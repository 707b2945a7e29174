import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  canonicalJson,
  fillSimUrl,
  findRecording,
  type RecordedExchange,
  recordedExchanges,
} from "./recorded-traffic.js";
import { recordedEvents } from "./replay.js";
import { type ProviderSim, startProviderSim } from "./server.js";
import { HUB_TOKEN } from "./test-support/sse.js";

/**
 * Every recorded exchange, replayed through the sim with a hub token (the router layout), gets the recorded
 * response back: same status and content type, same JSON, same stream events; binary replies become small
 * valid media of the recorded type. Replicate and Black Forest Labs run their job state machines instead
 * (their recorded ids and polling URLs belong to jobs the sim never created): checked for shape.
 */

let sim: ProviderSim;
beforeAll(async () => {
  sim = await startProviderSim();
});
afterAll(() => sim.close());

const BINARY_UPLOAD = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]);

function requestFor(exchange: RecordedExchange): RequestInit {
  const headers: Record<string, string> = { authorization: `Bearer ${HUB_TOKEN}` };
  if (exchange.method === "GET") return { method: "GET", headers };
  if (exchange.requestBody === null) {
    return {
      method: exchange.method,
      headers: { ...headers, "content-type": "application/octet-stream" },
      body: BINARY_UPLOAD,
    };
  }
  headers["content-type"] = exchange.requestContentType ?? "application/json";
  return { method: exchange.method, headers, body: exchange.requestBody };
}

function urlFor(exchange: RecordedExchange): string {
  return exchange.provider === "hub"
    ? `${sim.url}${exchange.path}`
    : `${sim.url}/${exchange.provider}${exchange.path}`;
}

/** The exchanges a replay reaches: the first recording of each distinct request. */
function replayable(exchange: RecordedExchange): boolean {
  if (exchange.provider === "replicate" || exchange.provider === "black-forest-labs") return false;
  const isJson =
    exchange.requestBody !== null && /json/.test(exchange.requestContentType ?? "application/json");
  const found = findRecording({
    provider: exchange.provider,
    method: exchange.method,
    path: exchange.path,
    bodyText: exchange.requestBody ?? "binary",
    isJson,
  });
  return found === exchange;
}

const exchanges = recordedExchanges();
const replayed = exchanges.filter(replayable);
const jobs = exchanges.filter(
  (exchange) => exchange.provider === "replicate" || exchange.provider === "black-forest-labs",
);

it("replays most of the recording", () => {
  expect(replayed.length + jobs.length).toBeGreaterThan(170);
  expect(new Set(replayed.map((exchange) => exchange.provider)).size).toBeGreaterThanOrEqual(11);
});

describe.each(
  replayed.map(
    (exchange) =>
      [
        `${exchange.provider} ${exchange.method} ${exchange.path} (${exchange.id.slice(0, 8)})`,
        exchange,
      ] as const,
  ),
)("%s", (_name, exchange) => {
  it("returns the recorded response", async () => {
    const response = await fetch(urlFor(exchange), requestFor(exchange));
    expect(response.status).toBe(exchange.status);
    const contentType = response.headers.get("content-type") ?? "";
    const recordedType = exchange.responseContentType.split(";")[0]!;
    if (exchange.responseBody === "" && /^(image|audio|video)\//.test(recordedType)) {
      expect(contentType).toBe(recordedType);
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
      return;
    }
    expect(contentType.split(";")[0]).toBe(recordedType);
    const text = await response.text();
    const expected = fillSimUrl(exchange.responseBody, sim.url);
    if (recordedType === "text/event-stream") {
      expect(recordedEvents(text).events).toEqual(recordedEvents(expected).events);
    } else if (recordedType.includes("json")) {
      // Canonical text, not deep equality: some recorded bodies are 150 KB of embeddings.
      expect(canonicalJson(text)).toBe(canonicalJson(expected));
    } else {
      expect(text).toBe(expected);
    }
  });
});

describe("job providers keep the recorded shapes", () => {
  it.each(
    jobs
      .filter((exchange) => exchange.method === "POST")
      .map((exchange) => [exchange.path, exchange] as const),
  )("%s", async (_path, exchange) => {
    const response = await fetch(urlFor(exchange), requestFor(exchange));
    expect(response.status).toBe(exchange.status);
    const body = await response.json();
    const recorded = JSON.parse(fillSimUrl(exchange.responseBody, sim.url));
    expect(Object.keys(body).sort()).toEqual(
      expect.arrayContaining(
        Object.keys(recorded)
          .filter((key) => key !== "completed_at")
          .sort(),
      ),
    );
    if (exchange.status >= 400) expect(body).toEqual(recorded);
  });
});
