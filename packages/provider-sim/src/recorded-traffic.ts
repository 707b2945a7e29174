import { readFileSync } from "node:fs";

/**
 * One exchange of the March 2025 recording as extracted (scripts/extract-recorded-traffic.ts): the one
 * copy of the recorded traffic in the repository, also read by @modelhub/inference's replay test.
 */
export interface RecordingEntry {
  id: string;
  /** The URL as recorded (a data: URL shortened). */
  url: string;
  /** Provider name as in the router layout, "hub" for the hub's own API; null for hosts of no provider. */
  provider: string | null;
  method: string;
  /** Path under the provider's own base URL, with its query string; null when `provider` is. */
  path: string | null;
  requestContentType: string | null;
  /** The JSON or text body sent; null for binary uploads (the recording kept none). */
  requestBody: string | null;
  status: number;
  responseContentType: string;
  /** The response headers clients read: retry-after, preference-applied, x-request-id. */
  responseHeaders: Record<string, string>;
  /** Empty for binary replies; long base64 replaced by a small valid file of the same kind. */
  responseBody: string;
}

/** An exchange the sim serves: one per distinct request, media and job URLs pointing at the sim. */
export interface RecordedExchange extends Omit<RecordingEntry, "url" | "provider" | "path"> {
  provider: string;
  path: string;
  /** `{{SIM_URL}}` stands for the sim's own base URL. */
  responseBody: string;
}

export const SIM_URL_PLACEHOLDER = "{{SIM_URL}}";

const RECORDING_FILE = new URL("./__fixtures__/recorded-traffic.json", import.meta.url);
const MEDIA_HOSTS = ["fal.media", "v2.fal.media", "replicate.delivery", "delivery-us1.bfl.ai"];

/** Media, job status and stream hosts become the sim's own URL, so clients follow them back to it. */
function pointAtSim(text: string): string {
  if (!text.includes("https://")) return text;
  let result = text;
  for (const host of MEDIA_HOSTS)
    result = result.replaceAll(`https://${host}/`, `${SIM_URL_PLACEHOLDER}/media/${host}/`);
  result = result.replaceAll("https://api.replicate.com/", `${SIM_URL_PLACEHOLDER}/replicate/`);
  result = result.replaceAll("https://stream.replicate.com/", `${SIM_URL_PLACEHOLDER}/replicate/stream/`);
  return result.replaceAll("https://api.us1.bfl.ai/", `${SIM_URL_PLACEHOLDER}/black-forest-labs/`);
}

/** What the sim leaves out: a bare host is a misconfigured client, and it answers BFL polls itself. */
function served(entry: RecordingEntry): entry is RecordingEntry & { provider: string; path: string } {
  if (entry.provider === null || entry.path === null) return false;
  if (entry.path === "/" || entry.path.startsWith("/?")) return false;
  return !(entry.provider === "black-forest-labs" && entry.path.includes("get_result"));
}

let loaded: readonly RecordedExchange[] | undefined;

export function recordedExchanges(): readonly RecordedExchange[] {
  if (!loaded) {
    const entries = JSON.parse(readFileSync(RECORDING_FILE, "utf8")) as RecordingEntry[];
    const seen = new Set<string>();
    const exchanges: RecordedExchange[] = [];
    for (const entry of entries) {
      if (!served(entry)) continue;
      const key = `${entry.provider} ${entry.method} ${entry.path} ${entry.requestBody}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const { url: _url, ...rest } = entry;
      exchanges.push({
        ...rest,
        provider: entry.provider,
        path: entry.path,
        responseBody: pointAtSim(entry.responseBody),
      });
    }
    loaded = exchanges;
  }
  return loaded;
}

/** JSON text with object keys sorted, so two bodies compare equal whatever their key order. */
export function canonicalJson(text: string): string | undefined {
  try {
    return JSON.stringify(sortKeys(JSON.parse(text)));
  } catch {
    return undefined;
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

export interface RecordingQuery {
  provider: string;
  method: string;
  path: string;
  bodyText: string;
  isJson: boolean;
}

interface IndexedExchange {
  exchange: RecordedExchange;
  canonicalBody: string | undefined;
}

let index: Map<string, IndexedExchange[]> | undefined;

/** Recorded exchanges by `provider method path`, bodies canonicalised once (replay lookups are per request). */
function exchangeIndex(): Map<string, IndexedExchange[]> {
  if (!index) {
    index = new Map();
    for (const exchange of recordedExchanges()) {
      const key = `${exchange.provider} ${exchange.method} ${exchange.path}`;
      const canonicalBody = exchange.requestBody === null ? undefined : canonicalJson(exchange.requestBody);
      const list = index.get(key) ?? [];
      list.push({ exchange, canonicalBody });
      index.set(key, list);
    }
  }
  return index;
}

/**
 * The recorded exchange a request replays: same provider, method and path, and the same JSON body (key order
 * ignored); a binary upload matches a recording whose body was not kept.
 */
export function findRecording(query: RecordingQuery): RecordedExchange | undefined {
  const candidates = exchangeIndex().get(`${query.provider} ${query.method} ${query.path}`);
  if (!candidates) return undefined;
  const wanted = query.isJson ? canonicalJson(query.bodyText) : undefined;
  return candidates.find(({ exchange, canonicalBody }) => {
    if (exchange.requestBody === null)
      return !query.isJson && query.method !== "GET" ? true : query.bodyText === "";
    return wanted !== undefined && canonicalBody === wanted;
  })?.exchange;
}

export function fillSimUrl(text: string, simUrl: string): string {
  return text.includes(SIM_URL_PLACEHOLDER) ? text.replaceAll(SIM_URL_PLACEHOLDER, simUrl) : text;
}
