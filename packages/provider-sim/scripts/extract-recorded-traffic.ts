/**
 * Copies the exchanges the simulator replays out of the shared recording into
 * src/__fixtures__/recorded-traffic.json, so nothing reads ../shared at run time.
 *
 *   node --import tsx packages/provider-sim/scripts/extract-recorded-traffic.ts \
 *     /work/shared/data/provider-traffic-2025-03.json
 *
 * What it changes on the way: URLs become provider-relative paths; hosts that serve media or job status
 * become `{{SIM_URL}}/...` placeholders (filled with the sim's own URL when served); long base64 (truncated
 * in the recording) becomes a small valid file of the same kind.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { mediaBytes, mediaKindForBase64, mediaKindForContentType } from "../src/media.js";
import type { RecordedExchange } from "../src/recorded-traffic.js";

interface RawExchange {
  url: string;
  init: { method?: string; headers?: Record<string, string>; body?: string | null };
  response: { status: number; headers: Record<string, string>; body: string | null };
}

const PROVIDER_HOSTS: Record<string, string> = {
  "api.cerebras.ai": "cerebras",
  "api.cohere.com": "cohere",
  "api.fireworks.ai": "fireworks-ai",
  "api.hyperbolic.xyz": "hyperbolic",
  "api.novita.ai": "novita",
  "api.openai.com": "openai",
  "api.replicate.com": "replicate",
  "api.sambanova.ai": "sambanova",
  "api.studio.nebius.ai": "nebius",
  "api.together.xyz": "together",
  "api.us1.bfl.ai": "black-forest-labs",
  "fal.run": "fal-ai",
};

const MEDIA_HOSTS = ["fal.media", "v2.fal.media", "replicate.delivery", "delivery-us1.bfl.ai"];
const KEPT_RESPONSE_HEADERS = ["retry-after", "preference-applied", "x-request-id"];

function locate(url: URL): { provider: string; path: string } | undefined {
  const path = url.pathname + url.search;
  if (url.host === "router.huggingface.co") {
    const [, provider, ...rest] = url.pathname.split("/");
    return { provider: provider!, path: `/${rest.join("/")}${url.search}` };
  }
  if (url.host === "huggingface.co" && url.pathname.startsWith("/api/inference-proxy/")) {
    const [provider, ...rest] = url.pathname.slice("/api/inference-proxy/".length).split("/");
    return { provider: provider!, path: `/${rest.join("/")}${url.search}` };
  }
  if (url.host === "huggingface.co") return { provider: "hub", path };
  const provider = PROVIDER_HOSTS[url.host];
  // A bare host (no route) is a recording of a misconfigured client, not of the provider's API.
  if (!provider || url.pathname === "/") return undefined;
  if (provider === "black-forest-labs" && url.pathname.includes("get_result")) return undefined;
  return { provider, path };
}

function pointAtSim(text: string): string {
  let result = text;
  for (const host of MEDIA_HOSTS)
    result = result.replaceAll(`https://${host}/`, `{{SIM_URL}}/media/${host}/`);
  result = result.replaceAll("https://api.replicate.com/", "{{SIM_URL}}/replicate/");
  result = result.replaceAll("https://stream.replicate.com/", "{{SIM_URL}}/replicate/stream/");
  return result.replaceAll("https://api.us1.bfl.ai/", "{{SIM_URL}}/black-forest-labs/");
}

/** Replaces truncated base64 (raw or in a data URL) with a valid small file of the same kind. */
function repairBase64(value: unknown): unknown {
  if (typeof value === "string" && value.length > 256) {
    const dataUrl = /^data:([^;,]+);base64,/.exec(value);
    if (dataUrl) {
      const kind = mediaKindForContentType(dataUrl[1]!) ?? mediaKindForBase64(value.slice(dataUrl[0].length));
      return kind ? `${dataUrl[0]}${mediaBytes(kind).toString("base64")}` : value;
    }
    const kind = /^[A-Za-z0-9+/=]+$/.test(value) ? mediaKindForBase64(value) : undefined;
    return kind ? mediaBytes(kind).toString("base64") : value;
  }
  if (Array.isArray(value)) return value.map(repairBase64);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, repairBase64(item)]));
  }
  return value;
}

function cleanBody(body: string, contentType: string): string {
  if (!contentType.includes("json") || body === "") return pointAtSim(body);
  try {
    return pointAtSim(JSON.stringify(repairBase64(JSON.parse(body))));
  } catch {
    return pointAtSim(body);
  }
}

const sourcePath = process.argv[2] ?? "/work/shared/data/provider-traffic-2025-03.json";
const raw = JSON.parse(readFileSync(sourcePath, "utf8")) as Record<string, RawExchange>;
const seen = new Set<string>();
const exchanges: RecordedExchange[] = [];
for (const [id, exchange] of Object.entries(raw)) {
  if (!exchange.url.startsWith("https://")) continue;
  const place = locate(new URL(exchange.url));
  if (!place) continue;
  const method = exchange.init.method ?? "GET";
  const requestBody = exchange.init.body ? exchange.init.body : null;
  const key = `${place.provider} ${method} ${place.path} ${requestBody}`;
  if (seen.has(key)) continue;
  seen.add(key);
  const responseContentType = exchange.response.headers["content-type"] ?? "";
  const responseHeaders = Object.fromEntries(
    KEPT_RESPONSE_HEADERS.flatMap((name) => {
      const value = exchange.response.headers[name];
      return value === undefined ? [] : [[name, value]];
    }),
  );
  exchanges.push({
    id,
    provider: place.provider,
    method,
    path: place.path,
    requestContentType: exchange.init.headers?.["Content-Type"] ?? null,
    requestBody,
    status: exchange.response.status,
    responseContentType,
    responseHeaders,
    responseBody: cleanBody(exchange.response.body ?? "", responseContentType),
  });
}
const target = new URL("../src/__fixtures__/recorded-traffic.json", import.meta.url);
writeFileSync(target, `${JSON.stringify(exchanges, null, 1)}\n`);
process.stdout.write(`${exchanges.length} exchanges -> ${target.pathname}\n`);
