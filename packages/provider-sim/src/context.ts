import type { ServerResponse } from "node:http";
import type { AuthScheme } from "./auth.js";
import type { ErrorStyle } from "./errors.js";
import type { FaultKind, FaultOf } from "./faults.js";
import type { SimRequest } from "./http.js";
import type { JobStore } from "./jobs.js";
import type { ModelRegistry } from "./models.js";

export interface SimLogger {
  debug?(message: string, details?: Record<string, unknown>): void;
  info?(message: string, details?: Record<string, unknown>): void;
  warn?(message: string, details?: Record<string, unknown>): void;
}

/** What a handler may use besides the request: where the sim lives, its state, this request's faults. */
export interface SimContext {
  /** The sim's base URL, `http://127.0.0.1:PORT`. */
  simUrl: string;
  /** The provider's mount point, `{simUrl}/{provider}`. */
  providerUrl: string;
  provider: ProviderDefinition;
  registry: ModelRegistry;
  jobs: JobStore;
  /** Takes a fault of these kinds for this request (its `x-sim-fault` header first, then the queue). */
  takeFault<K extends FaultKind>(kinds: readonly K[]): FaultOf<K> | undefined;
  /** Events per synthesized stream: `x-sim-stream-chunks` header, else the `streamChunks` option. */
  streamChunks: number | undefined;
  /** Coalesce stream events into writes of this many bytes: `x-sim-stream-batch-bytes`, else the option. */
  streamBatchBytes: number | undefined;
  /** Pause between stream events, like a model producing tokens: `x-sim-stream-interval-ms`, else the option. */
  streamIntervalMs: number | undefined;
  /** The `pace` option's ms per token: a non-streamed chat waits this per completion token before answering. */
  tokenIntervalMs: number | undefined;
  /** Steps a job takes from IN_QUEUE to COMPLETED (one per status poll). */
  jobSteps: number;
  /** Streams being written right now (shared by the whole sim). */
  streams: { active: number };
  logger: SimLogger;
}

export type RouteParams = Record<string, string>;

export type RouteHandler = (
  request: SimRequest,
  res: ServerResponse,
  context: SimContext,
  params: RouteParams,
) => void | Promise<void>;

export interface Route {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** `/v1/chat/completions`, `/v1/predictions/:id`, `/models/*model` (`*` takes the rest of the path). */
  path: string;
  handler: RouteHandler;
}

/** One provider: its auth, its error family and its routes under its own base path. Data, not a class. */
export interface ProviderDefinition {
  name: string;
  /** The provider's real base URL, for documentation and for snippets that want to show it. */
  realBaseUrl: string;
  auth: AuthScheme;
  errors: ErrorStyle;
  routes: Route[];
  /** Replay recorded exchanges for identical requests before the routes run (default true). */
  replay?: boolean;
}
