import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { readNodeBody } from "../http/body.js";
import { FrontRequest } from "./front/front-exchange.js";

/**
 * A caller's request as the router reads it: node:http's IncomingMessage, or the router front's own
 * (front/front-exchange.ts) for the calls it parses itself.
 */
export interface CallerRequest {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: IncomingHttpHeaders;
}

/** The answer to a caller, as the router writes it: what node:http's ServerResponse and the front's share. */
export interface CallerResponse {
  statusCode: number;
  readonly headersSent: boolean;
  readonly destroyed: boolean;
  readonly writableFinished: boolean;
  /** The body goes out in HTTP chunks (no Content-Length). */
  readonly chunkedEncoding: boolean;
  readonly socket: Socket | null;
  /** `headers` as a flat `[name, value, ...]` list. */
  writeHead(status: number, headers: string[]): unknown;
  flushHeaders(): void;
  write(data: Buffer | string): boolean;
  end(data?: Buffer | string): unknown;
  destroy(): unknown;
  on(event: "close" | "drain", listener: () => void): unknown;
  off(event: "close" | "drain", listener: () => void): unknown;
}

/** Reads a caller's request body, refusing one over `maxBytes` (PayloadTooLargeError). */
export function readCallerBody(incoming: CallerRequest, maxBytes: number): Promise<Buffer> {
  return incoming instanceof FrontRequest
    ? incoming.readBody(maxBytes)
    : readNodeBody(incoming as IncomingMessage, maxBytes);
}
