import {
  buildRequest,
  type InferenceProvider,
  type InferenceTask,
  providerTaskPairs,
  providerTaskProtocol,
} from "@modelhub/inference";
import { NotFoundError } from "../errors.js";

/**
 * The only calls `/router/{provider}/...` forwards with the operator's key: each provider's inference calls,
 * as the hub's own client (packages/inference) makes them per provider and task, and the follow-up calls its
 * protocols poll (job status and results). Anything else a provider's API offers with the same key (files,
 * fine-tuning, admin keys, billing) is refused here, before anything is sent.
 */

/** A model id's place in a path: one to four segments (`fal-ai/flux/dev`), no `.`/`..` (refused earlier). */
const SEGMENT = "(?:[A-Za-z0-9_~:+-]|\\.|%[0-9A-Fa-f]{2})+";
const ANY_MODEL = `${SEGMENT}(?:/${SEGMENT}){0,3}`;
/** A job or prediction id in a follow-up path. */
const ID = "[A-Za-z0-9._~:-]+";

/**
 * Where a provider's account API shares the model's place in a path, the model ids its inference takes.
 * Black Forest Labs: `POST /v1/{model}` is inference for its FLUX models, but `/v1/finetune`,
 * `/v1/delete_finetune` and `/v1/credits` are account calls. WaveSpeed: models are `owner/name`, and
 * `/api/v3/predictions/...` and `/api/v3/media/...` are its job and upload APIs.
 */
const MODEL_SHAPE_BY_PROTOCOL: Readonly<Record<string, string>> = {
  "bfl-job": "flux[A-Za-z0-9._-]*",
  "wavespeed-job": `(?!(?:predictions|media)/)${SEGMENT}(?:/${SEGMENT}){1,3}`,
};

/**
 * The calls a protocol's client makes after submitting a job (packages/inference/src/protocols: the
 * `statusUrl` and `result` of each queue job), on the provider's base, and the routes the other real client,
 * huggingface_hub, takes where they differ (provider-sim serves both as recorded). `{model}` and `{id}` as
 * above.
 */
const FOLLOW_UPS_BY_PROTOCOL: Readonly<Record<string, readonly string[]>> = {
  "bfl-job": ["GET /v1/get_result"],
  // huggingface_hub (Python) submits Novita's videos on its `/v3/hf/{model}` route.
  "novita-video": ["GET /v3/async/task-result", "POST /v3/hf/{model}"],
  "wavespeed-job": ["GET /api/v3/predictions/{id}/result"],
  "replicate-prediction": ["GET /v1/predictions/{id}"],
  "zai-image-job": ["GET /api/paas/v4/async-result/{id}"],
  "together-video": ["GET /v2/videos/{id}"],
  "fal-queue": ["GET /{model}/requests/{id}/status", "GET /{model}/requests/{id}"],
  // huggingface_hub's pipeline routes on hf-inference (provider-sim serves them as recorded).
  "hf-pipeline": ["POST /models/{model}/pipeline/{id}", "POST /pipeline/{id}/{model}"],
};

/** Provider model ids the routes are derived with: with and without a version (Replicate routes on it). */
const SAMPLE_IDS = ["mhsampleowner/mhsamplename", "mhsampleowner/mhsamplename:mhsampleversion"];

/** One allowed call: its method, its path as a pattern, whether its body may be raw bytes. */
interface InferenceRoute {
  method: "GET" | "POST";
  /** As written: `/v1/models/{model}/predictions`. */
  template: string;
  source: string;
  pattern: RegExp;
  /** The body may be a file's raw bytes rather than JSON (hf-inference pipelines with a file input). */
  rawBody: boolean;
}

/** What the router needs to know of an allowed call. */
export interface AllowedCall {
  /** The model named in the path (decoded), or null when the path names none. */
  pathModel: string | null;
  /** The body may be raw bytes; otherwise it must be a JSON object. */
  rawBody: boolean;
  /** The body's `version` names a model version (Replicate's predictions): checked as the model. */
  versionInBody: boolean;
}

/** Protocols whose calls may name the model by a version in the body, not by its id. */
const VERSION_IN_BODY_PROTOCOLS = new Set(["replicate-prediction"]);

/** The call is not one of the provider's inference calls: nothing is forwarded. */
export class NotAnInferenceCallError extends NotFoundError {}

const MAX_REMEMBERED = 1000;

/** The inference calls of every provider, derived once from the client's routing rules. */
export class InferenceRoutes {
  private readonly byProvider = new Map<string, InferenceRoute[]>();
  private readonly subdomains = new Map<string, Set<string>>();
  private readonly versionProviders = new Set<string>();
  /** Answers for method + path already checked (the same few come again and again). */
  private readonly remembered = new Map<string, AllowedCall | NotAnInferenceCallError>();

  static fromClient(): InferenceRoutes {
    const routes = new InferenceRoutes();
    for (const { provider, task } of providerTaskPairs()) routes.addTask(provider, task);
    return routes;
  }

  /**
   * The call, when `method path` (the path after `/router/{provider}`, still URL-encoded, and its query) is
   * one of the provider's inference calls; otherwise throws NotAnInferenceCallError (a 404 in the hub's
   * JSON error shape).
   */
  check(provider: string, method: string, path: string, search: string): AllowedCall {
    const key = `${provider} ${method} ${path}${search}`;
    let answer = this.remembered.get(key);
    if (!answer) {
      answer = this.decide(provider, method, path, search);
      if (this.remembered.size >= MAX_REMEMBERED) this.remembered.clear();
      this.remembered.set(key, answer);
    }
    if (answer instanceof NotAnInferenceCallError) throw answer;
    return answer;
  }

  private decide(
    provider: string,
    method: string,
    path: string,
    search: string,
  ): AllowedCall | NotAnInferenceCallError {
    const routes = this.byProvider.get(provider) ?? [];
    const sameMethod = routes.filter((route) => route.method === method);
    for (const route of sameMethod) {
      const match = route.pattern.exec(path);
      if (!match) continue;
      const refusedSubdomain = this.refusedSubdomain(provider, search);
      if (refusedSubdomain !== undefined) {
        return new NotAnInferenceCallError(
          `The router sends ${provider}'s inference calls only to its inference hosts, not to "${refusedSubdomain.slice(0, 40)}".`,
        );
      }
      const model = match.groups?.model;
      return {
        pathModel: model === undefined ? null : decodeModel(model),
        rawBody: route.rawBody,
        versionInBody: method === "POST" && this.versionProviders.has(provider),
      };
    }
    const other = routes.find((route) => route.pattern.test(path));
    if (other) {
      return new NotAnInferenceCallError(
        `${provider} takes this inference call as ${other.method}, not ${method.slice(0, 10)}: the router forwards only providers' inference calls as their clients make them.`,
      );
    }
    return new NotAnInferenceCallError(
      `${method.slice(0, 10)} /router/${provider}${path.slice(0, 200)} is not one of ${provider}'s inference calls: the router forwards only inference calls (for example ${this.example(provider)}), never a provider's other APIs.`,
    );
  }

  /** A `_subdomain` (fal.ai's queue host) the provider's client never uses, or undefined. */
  private refusedSubdomain(provider: string, search: string): string | undefined {
    if (!search.includes("_subdomain")) return undefined;
    const allowed = this.subdomains.get(provider);
    for (const value of new URLSearchParams(search.slice(1)).getAll("_subdomain")) {
      if (!allowed?.has(value)) return value;
    }
    return undefined;
  }

  /** The allowed calls, as `METHOD /template` (tests, and what the router's errors name). */
  list(provider: string): string[] {
    return (this.byProvider.get(provider) ?? []).map((route) => `${route.method} ${route.template}`);
  }

  private example(provider: string): string {
    const route = this.byProvider.get(provider)?.[0];
    return route ? `${route.method} /router/${provider}${route.template}` : "POST /v1/chat/completions";
  }

  private addTask(provider: InferenceProvider, task: InferenceTask): void {
    const protocol = providerTaskProtocol(provider, task) ?? "";
    const model = MODEL_SHAPE_BY_PROTOCOL[protocol] ?? ANY_MODEL;
    const rawBody = takesRawBody(provider, task);
    if (VERSION_IN_BODY_PROTOCOLS.has(protocol)) this.versionProviders.add(provider);
    for (const sample of SAMPLE_IDS) {
      const built = buildRequest({
        provider,
        task,
        providerModelId: sample,
        args: { inputs: "" },
        routerUrl: "http://router",
      });
      const url = new URL(built.url);
      for (const subdomain of url.searchParams.getAll("_subdomain")) this.allowSubdomain(provider, subdomain);
      const template = url.pathname.slice(`/${provider}`.length).replace(sample, "{model}");
      this.add(provider, "POST", template, model, rawBody);
    }
    for (const followUp of FOLLOW_UPS_BY_PROTOCOL[protocol] ?? []) {
      const [method, template] = followUp.split(" ") as ["GET" | "POST", string];
      this.add(provider, method, template, model, false);
    }
  }

  private allowSubdomain(provider: string, subdomain: string): void {
    let allowed = this.subdomains.get(provider);
    if (!allowed) {
      allowed = new Set();
      this.subdomains.set(provider, allowed);
    }
    allowed.add(subdomain);
  }

  private add(
    provider: string,
    method: "GET" | "POST",
    template: string,
    model: string,
    rawBody: boolean,
  ): void {
    const source = `^${template
      .split("/")
      .map((segment) =>
        segment === "{model}"
          ? `(?<model>${model})`
          : segment === "{id}"
            ? ID
            : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
      )
      .join("/")}$`;
    let routes = this.byProvider.get(provider);
    if (!routes) {
      routes = [];
      this.byProvider.set(provider, routes);
    }
    // RegExp#source escapes slashes: compared as built.
    const same = routes.find((route) => route.method === method && route.source === source);
    if (same) same.rawBody ||= rawBody;
    else routes.push({ method, template, source, pattern: new RegExp(source), rawBody });
  }
}

/** Whether the client sends this task's file input as the raw body (hf-inference pipelines). */
function takesRawBody(provider: InferenceProvider, task: InferenceTask): boolean {
  try {
    return (
      buildRequest({
        provider,
        task,
        providerModelId: SAMPLE_IDS[0],
        args: { inputs: new Blob(["x"]) as never },
        routerUrl: "http://router",
      }).bodyKind === "binary"
    );
  } catch {
    return false;
  }
}

function decodeModel(encoded: string): string {
  try {
    return decodeURIComponent(encoded).slice(0, 200);
  } catch {
    return encoded.slice(0, 200);
  }
}
