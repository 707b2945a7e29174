/**
 * The one extraction of the shared provider recording into the repository: every exchange goes to
 * src/__fixtures__/recorded-traffic.json, so nothing reads ../shared at run time. The simulator serves from
 * it, and @modelhub/inference's replay test issues its requests again from the same file.
 *
 *   npm run extract-fixtures -w packages/provider-sim   [-- /work/shared/data/provider-traffic-2025-03.json]
 *
 * What it records beside the original URL: the provider (from the one host-to-provider table below) and
 * the provider-relative path; the content types and the few response headers clients read. What it changes:
 * long base64 (truncated in the recording) becomes a small valid file of the same kind, and a request URL
 * that is a data: URL is shortened. Rewriting media and job URLs to the simulator is done when it loads.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { mediaBytes, mediaKindForBase64, mediaKindForContentType } from "../src/media.js";
import type { RecordingEntry } from "../src/recorded-traffic.js";

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
  return provider ? { provider, path } : undefined;
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
  if (!contentType.includes("json") || body === "") return body;
  try {
    return JSON.stringify(repairBase64(JSON.parse(body)));
  } catch {
    return body;
  }
}

/** data: URLs carry a whole file in the recording; 256 characters keep the type and a valid base64 prefix. */
function shortenDataUrl(url: string): string {
  if (!url.startsWith("data:") || url.length <= 256) return url;
  const keep = 256 - (url.indexOf(",") + 1);
  return url.slice(0, url.indexOf(",") + 1 + keep - (keep % 4));
}

const sourcePath = process.argv[2] ?? "/work/shared/data/provider-traffic-2025-03.json";
const raw = JSON.parse(readFileSync(sourcePath, "utf8")) as Record<string, RawExchange>;
const exchanges: RecordingEntry[] = Object.entries(raw).map(([id, exchange]) => {
  const place = exchange.url.startsWith("https://") ? locate(new URL(exchange.url)) : undefined;
  const responseContentType = exchange.response.headers["content-type"] ?? "";
  const responseHeaders = Object.fromEntries(
    KEPT_RESPONSE_HEADERS.flatMap((name) => {
      const value = exchange.response.headers[name];
      return value === undefined ? [] : [[name, value]];
    }),
  );
  return {
    id,
    url: shortenDataUrl(exchange.url),
    provider: place?.provider ?? null,
    method: exchange.init.method ?? "GET",
    path: place?.path ?? null,
    requestContentType: exchange.init.headers?.["Content-Type"] ?? null,
    requestBody: exchange.init.body ? exchange.init.body : null,
    status: exchange.response.status,
    responseContentType,
    responseHeaders,
    responseBody: cleanBody(exchange.response.body ?? "", responseContentType),
  };
});
const target = new URL("../src/__fixtures__/recorded-traffic.json", import.meta.url);
writeFileSync(target, `${JSON.stringify(exchanges, null, 1)}\n`);
process.stdout.write(`${exchanges.length} exchanges -> ${target.pathname}\n`);
