import { readFileSync } from "node:fs";

/** One real exchange from the March 2025 recording, rewritten to be served by the sim (see scripts/). */
export interface RecordedExchange {
  id: string;
  /** Provider name as in the router layout, or "hub" for the hub's own API. */
  provider: string;
  method: string;
  /** Path under the provider's own base URL, with its query string. */
  path: string;
  requestContentType: string | null;
  /** The JSON or text body sent; null for binary uploads (the recording kept none). */
  requestBody: string | null;
  status: number;
  responseContentType: string;
  responseHeaders: Record<string, string>;
  /** `{{SIM_URL}}` stands for the sim's own base URL; empty for binary replies. */
  responseBody: string;
}

export const SIM_URL_PLACEHOLDER = "{{SIM_URL}}";

let loaded: readonly RecordedExchange[] | undefined;

export function recordedExchanges(): readonly RecordedExchange[] {
  loaded ??= JSON.parse(
    readFileSync(new URL("./__fixtures__/recorded-traffic.json", import.meta.url), "utf8"),
  ) as RecordedExchange[];
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
