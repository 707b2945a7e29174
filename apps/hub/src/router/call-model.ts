import { InvalidInputError } from "../errors.js";
import { parseJsonBody } from "../http/body.js";
import type { AllowedCall } from "./inference-routes.js";
import { topLevelKeys } from "./top-level-keys.js";

const COMPACT_MODEL = Buffer.from('{"model":"');
const MODEL_KEY = Buffer.from('"model"');

/**
 * Where the value of `model` lies in a body that starts `{"model":"` exactly (compact JSON, as the JS
 * clients send it), when that value has no escapes and no other `"model"` follows it (a second key of the
 * name would be the one JSON.parse, and most servers, read): its bytes, to read or replace without parsing.
 */
export function compactModelSpan(body: Buffer): { start: number; end: number } | undefined {
  const start = COMPACT_MODEL.byteLength;
  if (body.byteLength <= start || COMPACT_MODEL.compare(body, 0, start, 0, start) !== 0) return undefined;
  const end = body.indexOf(0x22, start);
  if (end === -1) return undefined;
  for (let at = start; at < end; at++) if (body[at] === 0x5c) return undefined;
  if (body.indexOf(MODEL_KEY, end) !== -1) return undefined;
  return { start, end };
}

/** Top-level body keys that name a model to some provider (`model_name`: Hyperbolic's images). */
export const MODEL_KEYS: ReadonlySet<string> = new Set(["model", "model_name"]);

/** The models a per-provider call names, as its provider may read them: what the model checks look at. */
export interface CallModels {
  /** Every model named: in the path and in the body (each case-variant of a model key: some servers match
   * keys without regard to case). */
  named: string[];
  /** The one usage records name: the body's `model`, else the path's, else null. */
  recorded: string | null;
  /** Model versions the body names (Replicate's `version`, with or without `owner/name:`). */
  versions: string[];
}

/**
 * The models a `/router/{provider}/...` call names. The body is parsed as JSON whole (as the provider will
 * parse it: leading whitespace, a byte-order mark or key order change nothing); a body that is not a JSON
 * object is refused, unless the call may carry a file's raw bytes (then the path names the model).
 */
export function modelsOfCall(body: Uint8Array | undefined, call: AllowedCall): CallModels {
  const fromBody: string[] = [];
  const versions: string[] = [];
  if (body !== undefined) {
    const parsed = parsedBody(body, call.rawBody);
    if (parsed !== undefined) {
      refuseRepeatedModelKey(body, call.versionInBody);
      for (const key of Object.keys(parsed)) {
        const value = parsed[key];
        if (MODEL_KEYS.has(key.toLowerCase()) && typeof value === "string")
          fromBody.push(value.slice(0, 200));
        if (call.versionInBody && key.toLowerCase() === "version" && typeof value === "string") {
          // `owner/name:version` names the provider's model id as mappings hold it; a bare version is
          // looked up among the versions of mapped ids.
          if (value.includes(":")) fromBody.push(value.slice(0, 200));
          else versions.push(value.slice(0, 200));
        }
      }
    }
  }
  const named = call.pathModel === null ? fromBody : [call.pathModel, ...fromBody];
  return { named, recorded: fromBody[0] ?? call.pathModel, versions };
}

/** The body as a JSON object; undefined for a raw body where one may be sent; else a 400. */
function parsedBody(body: Uint8Array, rawAllowed: boolean): Record<string, unknown> | undefined {
  let parsed: unknown;
  try {
    parsed = parseJsonBody(body);
  } catch (error) {
    if (rawAllowed) return undefined;
    throw error;
  }
  if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
    return parsed as Record<string, unknown>;
  }
  if (rawAllowed) return undefined;
  throw new InvalidInputError(
    "The request body must be a JSON object (the provider's inference call, with its model).",
  );
}

/** "model" or "version", in any letter case: where a body may name a model more than once. */
const MODEL_WORD = /model|version/gi;

/**
 * A body naming its model under one key twice: JSON.parse (and the check above) reads the last, a server that
 * keeps the first would run another model than the one checked.
 */
function refuseRepeatedModelKey(body: Uint8Array, versionInBody: boolean): void {
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength)
    .toString("utf8")
    .replace(/^\uFEFF/, "");
  // Most bodies name no model twice and escape nothing: no scan (an escaped key is only seen decoded).
  if ((text.match(MODEL_WORD)?.length ?? 0) < 2 && !text.includes("\\u")) return;
  const seen = new Set<string>();
  for (const key of topLevelKeys(text)) {
    const lower = key.toLowerCase();
    if (!MODEL_KEYS.has(lower) && !(versionInBody && lower === "version")) continue;
    if (seen.has(key)) {
      throw new InvalidInputError(`The request body names "${key.slice(0, 40)}" twice: name the model once.`);
    }
    seen.add(key);
  }
}
