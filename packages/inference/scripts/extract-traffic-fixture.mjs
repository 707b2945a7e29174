// Copies the recorded provider traffic into this package's fixtures (tests must not read outside the
// repository), shortening long strings (base64 media, embeddings) so the fixture stays small.
// Usage: node packages/inference/scripts/extract-traffic-fixture.mjs [/work/shared/data/provider-traffic-2025-03.json]
import { readFileSync, writeFileSync } from "node:fs";

const source = process.argv[2] ?? "/work/shared/data/provider-traffic-2025-03.json";
const target = new URL("../src/__fixtures__/provider-traffic.json", import.meta.url);
const MAX = 256;

// Keep base64 decodable: a multiple of 4 characters.
const shorten = (s) => {
  if (s.length <= MAX) return s;
  const comma = s.startsWith("data:") ? s.indexOf(",") + 1 : 0;
  const keep = MAX - comma;
  return s.slice(0, comma + keep - (keep % 4));
};
const shrink = (value) => {
  if (typeof value === "string") return shorten(value);
  if (Array.isArray(value)) return value.length > 64 ? value.slice(0, 64).map(shrink) : value.map(shrink);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shrink(v)]));
  return value;
};
const shrinkText = (text) => {
  if (typeof text !== "string" || text.length <= MAX) return text;
  try {
    return JSON.stringify(shrink(JSON.parse(text)));
  } catch {
    // SSE or plain text: shorten each line's long JSON strings
    return text
      .split("\n")
      .map((line) => {
        if (!line.startsWith("data:")) return line;
        try {
          return `data:${JSON.stringify(shrink(JSON.parse(line.slice(5))))}`;
        } catch {
          return line;
        }
      })
      .join("\n");
  }
};

const recorded = JSON.parse(readFileSync(source, "utf8"));
const out = [];
for (const [id, exchange] of Object.entries(recorded)) {
  const url = exchange.url.startsWith("data:") ? shorten(exchange.url) : exchange.url;
  out.push({
    id,
    url,
    method: exchange.init.method ?? "GET",
    requestHeaders: exchange.init.headers ?? {},
    requestBody: exchange.init.body ?? "",
    status: exchange.response.status,
    responseHeaders: exchange.response.headers,
    responseBody: shrinkText(exchange.response.body),
  });
}
writeFileSync(target, `${JSON.stringify(out, null, 1)}\n`);
console.log(`wrote ${out.length} exchanges to ${target.pathname}`);
