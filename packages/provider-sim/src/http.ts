import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";

/** A request as every handler sees it: body read, JSON parsed, path split from the query. */
export interface SimRequest {
  method: string;
  /** Path under the mount point (the provider's own path), without the query string. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  bodyText: string;
  /** The parsed body when the content type says JSON and it parses; otherwise undefined. */
  json: unknown;
  /** True when the content type says JSON (whether or not it parsed). */
  isJson: boolean;
  /** Set when a JSON body failed to parse. */
  jsonError?: string;
  /** The original request, for disconnect detection. */
  incoming: IncomingMessage;
}

export function readBody(incoming: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    incoming.on("error", reject);
  });
}

export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

export function isJsonContentType(contentType: string | undefined): boolean {
  return contentType !== undefined && /\bjson\b/i.test(contentType);
}

export function toSimRequest(
  incoming: IncomingMessage,
  path: string,
  query: URLSearchParams,
  rawBody: Buffer,
): SimRequest {
  const isJson = isJsonContentType(headerValue(incoming.headers, "content-type"));
  const bodyText = rawBody.toString("utf8");
  const request: SimRequest = {
    method: incoming.method ?? "GET",
    path,
    query,
    headers: incoming.headers,
    rawBody,
    bodyText,
    json: undefined,
    isJson,
    incoming,
  };
  if (isJson && bodyText.length > 0) {
    try {
      request.json = JSON.parse(bodyText);
    } catch (error) {
      request.jsonError = (error as Error).message;
    }
  }
  return request;
}

/** The JSON body as an object, or an empty one, for reading fields. */
export function bodyObject(request: SimRequest): Record<string, unknown> {
  const json = request.json;
  return json && typeof json === "object" && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  sendText(res, status, JSON.stringify(body), { "content-type": "application/json", ...headers });
}

export function sendText(
  res: ServerResponse,
  status: number,
  text: string | Buffer,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const body = typeof text === "string" ? Buffer.from(text) : text;
  res.writeHead(status, {
    "content-type": "text/plain; charset=utf-8",
    ...headers,
    "content-length": body.length,
  });
  res.end(body);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
