import type { ServerResponse } from "node:http";
import { sendJson, sendText } from "./http.js";

/**
 * How each provider family writes an error body, as seen in the recorded traffic:
 * - openai:    {"error":{"message","type","param","code"}} (OpenAI, Together, most OpenAI-compatible APIs)
 * - hf:        {"error":"..."} (hf-inference, the router, the hub)
 * - detail:    {"detail":"..."} (fal.ai, Black Forest Labs, Hyperbolic, FastAPI servers)
 * - replicate: application/problem+json {"title","detail","status"}
 */
export type ErrorStyle = "openai" | "hf" | "detail" | "replicate";

export interface ErrorOptions {
  /** OpenAI-style `type`; derived from the status when absent. */
  type?: string;
  code?: string | null;
  param?: string | null;
  headers?: Record<string, string>;
}

function openAiErrorType(status: number): string {
  if (status === 429) return "rate_limit_exceeded";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

const REPLICATE_TITLES: Record<number, string> = {
  401: "Unauthenticated",
  404: "Not found",
  422: "Input validation failed",
  429: "Request was throttled",
  503: "Service unavailable",
};

export function sendProviderError(
  res: ServerResponse,
  style: ErrorStyle,
  status: number,
  message: string,
  options: ErrorOptions = {},
): void {
  const headers = options.headers ?? {};
  switch (style) {
    case "openai":
      sendJson(
        res,
        status,
        {
          error: {
            message,
            type: options.type ?? openAiErrorType(status),
            param: options.param ?? null,
            code: options.code ?? null,
          },
        },
        headers,
      );
      return;
    case "hf":
      sendJson(res, status, { error: message }, headers);
      return;
    case "detail":
      sendJson(res, status, { detail: message }, headers);
      return;
    case "replicate":
      sendText(
        res,
        status,
        JSON.stringify({ title: REPLICATE_TITLES[status] ?? "Error", detail: message, status }),
        {
          "content-type": "application/problem+json",
          ...headers,
        },
      );
      return;
  }
}

/** The in-stream error event each family sends before giving up on a stream. */
export function streamErrorEvent(style: ErrorStyle, message: string): string {
  if (style === "hf") return JSON.stringify({ error: message, error_type: "generation" });
  if (style === "openai")
    return JSON.stringify({ error: { message, type: "server_error", param: null, code: null } });
  return JSON.stringify({ detail: message });
}
