import { JobFailedError, ProviderOutputError } from "../errors.js";
import type { ResponseContext } from "../providers/types.js";
import { isObject } from "../validate.js";
import { followUpOf } from "./follow-up.js";

/**
 * An asynchronous job: the submit answer names a status URL; the one polling loop checks it until the
 * job is done (then the result is read) or reports a failure status.
 */
export interface JobSpec {
  what: string;
  intervalMs: number;
  maxAttempts?: number;
  /** Status URL (on the provider's host; rebased onto the call's base) for the given attempt. */
  statusUrl(submit: Record<string, unknown>, attempt: number, ctx: ResponseContext): string;
  state(status: Record<string, unknown>): "pending" | "done" | "failed";
  /** Reads the final payload once done; default: the last status answer itself. */
  result?(
    status: Record<string, unknown>,
    submit: Record<string, unknown>,
    ctx: ResponseContext,
  ): Promise<unknown>;
  /** The submit answer may already be final (Replicate with `Prefer: wait`). */
  finishedOnSubmit?(submit: Record<string, unknown>): "pending" | "done" | "failed";
}

export async function runJob(submit: unknown, ctx: ResponseContext, spec: JobSpec): Promise<unknown> {
  if (!isObject(submit)) throw new ProviderOutputError(`${spec.what}: malformed submit answer`);
  const initial = spec.finishedOnSubmit?.(submit) ?? "pending";
  if (initial === "failed") throw failure(spec, submit, ctx);
  if (initial === "done") return spec.result ? spec.result(submit, submit, ctx) : submit;
  const followUp = followUpOf(ctx);
  const status = await followUp.poll<Record<string, unknown>>(
    async (attempt) => {
      const body = await followUp.getJson(spec.statusUrl(submit, attempt, ctx));
      if (!isObject(body)) throw new ProviderOutputError(`${spec.what}: malformed status answer`);
      const state = spec.state(body);
      if (state === "failed") throw failure(spec, body, ctx);
      return state === "done" ? { done: true, value: body } : { done: false };
    },
    { intervalMs: spec.intervalMs, maxAttempts: spec.maxAttempts },
  );
  return spec.result ? spec.result(status, submit, ctx) : status;
}

function failure(spec: JobSpec, body: Record<string, unknown>, ctx: ResponseContext): JobFailedError {
  const status = String(body.status ?? body.task_status ?? "failed");
  const detail = body.error ?? body.detail ?? body.message;
  const suffix = detail ? `: ${typeof detail === "string" ? detail : JSON.stringify(detail)}` : "";
  return new JobFailedError(`${spec.what} failed with status ${status}${suffix}`, ctx.provider, status);
}

/**
 * Providers answer with URLs on their own hosts; when the call went through the router (or a base URL
 * override) the follow-up must go there too, so only the path and query are kept.
 */
export function rebase(url: string, ctx: ResponseContext): string {
  if (!ctx.sharedHost) return url;
  const parsed = new URL(url, ctx.base);
  // Already on the shared host (a simulator answers with its own URLs): nothing to rebase.
  if (parsed.origin === new URL(ctx.base).origin) return parsed.href;
  return `${ctx.base}${parsed.pathname}${parsed.search}`;
}
