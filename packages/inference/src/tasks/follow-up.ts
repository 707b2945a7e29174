import { dataUrlToBlob } from "../encoding.js";
import type { CallContext } from "../http/call-context.js";
import { pollJob } from "../http/poll-job.js";
import { readJson } from "../http/read-body.js";
import { sendRequest } from "../http/request.js";
import type { FollowUp, PollStep } from "../providers/types.js";
import type { BuiltRequest } from "../routing/request-builder.js";

/**
 * Follow-up calls share the call's retry policy, signal and deadline. A class: most calls (chat) never
 * follow up, so nothing is prepared until a follow-up is made.
 */
export class CallFollowUp implements FollowUp {
  private auth: Record<string, string> | undefined;

  constructor(
    private readonly call: CallContext,
    private readonly built: BuiltRequest,
  ) {}

  get logger() {
    return this.call.logger;
  }

  /** The main request's headers without its content type: auth and provider headers. */
  private authHeaders(): Record<string, string> {
    if (!this.auth) {
      const { "Content-Type": _json, ...auth } = this.built.headers;
      this.auth = auth;
    }
    return this.auth;
  }

  async getJson(url: string): Promise<unknown> {
    const { call, built } = this;
    const response = await sendRequest(call, {
      url,
      method: "GET",
      headers: this.authHeaders(),
      provider: built.provider,
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
      provider: this.built.provider,
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
      provider: this.built.provider,
    });
    return response.blob();
  }

  poll<T>(step: PollStep<T>, schedule: { intervalMs: number; maxAttempts?: number }): Promise<T> {
    return pollJob(this.call, step, { ...schedule, what: `${this.built.provider} job` });
  }
}
