import { dataUrlToBlob } from "../encoding.js";
import type { CallContext } from "../http/call-context.js";
import { pollJob } from "../http/poll-job.js";
import { readJson } from "../http/read-body.js";
import { sendRequest } from "../http/request.js";
import type { FollowUp, PollStep, ResponseContext } from "../providers/types.js";

/**
 * The follow-up calls of a response transform (status polls, result and media downloads), imported by the
 * protocols that make them: the call paths (prepare.ts) do not import it, so a program that only chats
 * does not bundle it (bench:inference's chat-only bundle).
 */
export function followUpOf(ctx: ResponseContext): FollowUp {
  return new CallFollowUp(ctx.call, ctx.headers, ctx.provider);
}

/** Follow-up calls share the call's retry policy, signal and deadline. */
class CallFollowUp implements FollowUp {
  private auth: Record<string, string> | undefined;

  constructor(
    private readonly call: CallContext,
    /** The main request's headers. */
    private readonly headers: Record<string, string>,
    private readonly provider: string,
  ) {}

  get logger() {
    return this.call.logger;
  }

  /** The main request's headers without its content type: auth and provider headers. */
  private authHeaders(): Record<string, string> {
    if (!this.auth) {
      const { "Content-Type": _json, ...auth } = this.headers;
      this.auth = auth;
    }
    return this.auth;
  }

  async getJson(url: string): Promise<unknown> {
    const response = await sendRequest(this.call, {
      url,
      method: "GET",
      headers: this.authHeaders(),
      provider: this.provider,
    });
    return readJson(response);
  }

  async postJson(url: string, body: unknown): Promise<unknown> {
    const headers = { ...this.authHeaders(), "Content-Type": "application/json" };
    const response = await sendRequest(this.call, {
      url,
      method: "POST",
      headers,
      body: JSON.stringify(body),
      provider: this.provider,
    });
    return readJson(response);
  }

  async getBlob(url: string): Promise<Blob> {
    if (url.startsWith("data:")) return dataUrlToBlob(url);
    // Media lives on CDNs: never send the provider key there.
    const response = await sendRequest(this.call, {
      url,
      method: "GET",
      headers: {},
      provider: this.provider,
    });
    return response.blob();
  }

  poll<T>(step: PollStep<T>, schedule: { intervalMs: number; maxAttempts?: number }): Promise<T> {
    return pollJob(this.call, step, { ...schedule, what: `${this.provider} job` });
  }
}
