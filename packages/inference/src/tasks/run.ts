import { jsonEvents } from "../http/json-events.js";
import { bodyReadError, isJsonResponse } from "../http/read-body.js";
import { sendRequest } from "../http/request.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, InferenceTask, JsonObject } from "../types.js";
import { NO_OPTIONS, prepare, type RunOptions } from "./prepare.js";

export type { RunOptions } from "./prepare.js";

/** Runs one task call: resolve, build, send (with retries), then the provider's response transform. */
export async function runTask<T>(
  task: InferenceTask,
  protocols: ProtocolTable,
  args: BaseArgs & JsonObject,
  options: RunOptions = NO_OPTIONS,
  raw = false,
): Promise<T> {
  const ready = prepare(task, protocols, args, options, false);
  const prepared = isThenable(ready) ? await ready : ready;
  const { call } = prepared;
  try {
    const response = await sendRequest(call, prepared);
    // Read here rather than in an async helper: its frame and promise were ~380 of the bytes a chat call
    // allocated (bench/inference/allocation.ts).
    let payload: unknown;
    try {
      payload = isJsonResponse(response) ? await response.json() : await response.blob();
    } catch (cause) {
      throw bodyReadError(cause, response);
    }
    if (raw) return payload as T;
    // Media outputs may download or poll (a promise, awaited here so that errors and the call's timeout
    // still apply); chat's parse is a synchronous check, returned without another turn of the queue.
    const output = prepared.spec.parse(payload, prepared);
    return (isThenable(output) ? await output : output) as T;
  } catch (error) {
    throw call.signal.aborted ? call.abortError() : error;
  } finally {
    call.dispose();
  }
}

/** A promise, from this realm or another (a transform may return any thenable). */
const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown> | null)?.then === "function";

/** Runs one streaming task call; the generator yields validated events and ends at `[DONE]`. */
export function runStreamTask<T>(
  task: InferenceTask,
  protocols: ProtocolTable,
  args: BaseArgs & JsonObject,
  options: RunOptions = NO_OPTIONS,
): AsyncGenerator<T> {
  // One generator (jsonEvents) for the whole stream: it opens the call lazily, on the first next().
  return jsonEvents<T>(async () => {
    const request = await prepare(task, protocols, args, options, true);
    const { call, spec } = request;
    try {
      const response = await sendRequest(call, request);
      const validate = (spec.parseEvent ?? ((e: unknown) => e)) as (event: unknown) => T;
      return { response, request, call, validate };
    } catch (error) {
      call.dispose();
      throw call.signal.aborted ? call.abortError() : error;
    }
  });
}
