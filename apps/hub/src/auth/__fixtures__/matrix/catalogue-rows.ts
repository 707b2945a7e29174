import {
  type Expected,
  everyone,
  listsPrivateId,
  PUBLIC,
  READ_PRIVATE_REPO,
  type Row,
  SEES_PRIVATE,
  SIGNED_IN,
  SITE_ADMIN_ONLY,
  succeedsWith,
} from "./callers.js";
import { CHAT, fixture, PRIVATE } from "./fixture.js";

const listsPrivate = listsPrivateId(PRIVATE);
/** The private model is a summarization model: counted when the summarization count includes it. */
const countsPrivate = (response: Response, body: unknown) =>
  response.status !== 200
    ? String(response.status)
    : (body as Record<string, { modelCount: number }>)["summarization"]!.modelCount ===
        fixture.publicSummarizers + 1
      ? "counted"
      : "not counted";
const mentionsPrivate = (response: Response, body: unknown) =>
  response.status >= 400
    ? String(response.status)
    : JSON.stringify(body).includes(PRIVATE)
      ? "listed"
      : "hidden";

/** A public, ungated chat model of the fixture catalogue, served by together. */
const OPEN_CHAT = "Qwen/Qwen2.5-7B-Instruct";

/** A router call: any valid credential with the inference permission (a token scoped elsewhere has not). */
const SIGNED_IN_INFERENCE = { ...SIGNED_IN, fineGrainedOutOfScope: 403 };

/** The model catalogue, the widget, health and metrics, and the inference router. */
export const CATALOGUE_ROWS: Row[] = [
  {
    route: "GET /api/models/:owner/:name",
    name: "model info of a private model",
    method: "GET",
    path: `/api/models/${PRIVATE}`,
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "GET /api/models/:owner/:name/snippets",
    name: "snippets of a private model",
    method: "GET",
    path: `/api/models/${PRIVATE}/snippets?provider=together`,
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "GET /api/models/:owner/:name/library-snippets",
    name: "library snippets of a private model",
    method: "GET",
    path: `/api/models/${PRIVATE}/library-snippets`,
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "GET /api/models",
    name: "listing of acme's models",
    method: "GET",
    path: "/api/models?author=acme&limit=100",
    outcome: listsPrivate,
    expected: SEES_PRIVATE,
  },
  {
    route: "GET /api/models",
    name: "search for the private model",
    method: "GET",
    path: "/api/models?search=private-model",
    outcome: listsPrivate,
    expected: SEES_PRIVATE,
  },
  {
    route: "GET /api/tasks",
    name: "task counts",
    method: "GET",
    path: "/api/tasks",
    outcome: countsPrivate,
    expected: {
      ...SEES_PRIVATE,
      anonymous: "not counted",
      reader: "counted",
      writer: "counted",
      orgAdmin: "counted",
      otherUser: "not counted",
      readTokenOnWrite: "counted",
      fineGrainedOutOfScope: "not counted",
      siteAdmin: "counted",
    },
  },
  {
    route: "GET /api/libraries",
    name: "library counts",
    method: "GET",
    path: "/api/libraries",
    expected: PUBLIC,
  },
  {
    route: "GET /api/widget/top-products",
    name: "the widget's ranking",
    method: "GET",
    path: "/api/widget/top-products",
    outcome: mentionsPrivate,
    expected: { ...SEES_PRIVATE, reader: "hidden", writer: "hidden", orgAdmin: "hidden", readTokenOnWrite: "hidden", siteAdmin: "hidden" },
  },
  {
    route: "OPTIONS /api/widget/top-products",
    name: "the widget's CORS preflight",
    method: "OPTIONS",
    path: "/api/widget/top-products",
    // Preflights carry no credentials (browsers never send them): CORS answers before the actor is resolved.
    expected: everyone(204),
  },
  {
    route: "GET /widget/top-products.js",
    name: "the widget's script",
    method: "GET",
    path: "/widget/top-products.js",
    expected: PUBLIC,
  },
  {
    route: "GET /api/avatars/:name",
    name: "an avatar",
    method: "GET",
    path: "/api/avatars/ada",
    expected: PUBLIC,
  },
  {
    route: "POST /api/validate-yaml",
    name: "validate a model card",
    method: "POST",
    path: "/api/validate-yaml",
    body: { content: "---\nlicense: mit\n---\n# Card" },
    expected: PUBLIC,
  },
  { route: "GET /healthz", name: "liveness", method: "GET", path: "/healthz", expected: PUBLIC },
  { route: "GET /readyz", name: "readiness", method: "GET", path: "/readyz", expected: PUBLIC },
  // The operator's (ADMIN_TOKEN) or a site administrator's: request counts, object store calls, process figures.
  { route: "GET /metrics", name: "metrics", method: "GET", path: "/metrics", expected: SITE_ADMIN_ONLY },
  {
    route: "POST /router/v1/chat/completions",
    name: "router call billed to the organization",
    method: "POST",
    path: "/router/v1/chat/completions",
    headers: { "X-HF-Bill-To": "acme" },
    // A public, ungated model: this row is about who may bill acme (gated models: the rows below).
    body: { model: `${OPEN_CHAT}:together`, messages: [{ role: "user", content: "hi" }], max_tokens: 4 },
    writes: true,
    expected: {
      anonymous: 401,
      reader: 200,
      writer: 200,
      orgAdmin: 200,
      otherUser: 403,
      revokedToken: 401,
      expiredToken: 401,
      readTokenOnWrite: 200,
      fineGrainedOutOfScope: 403,
      // Billing goes to members only: a site admin outside acme may not spend its money.
      siteAdmin: 403,
    },
  },
  {
    route: "POST /v1/chat/completions",
    name: "router call naming the private model",
    method: "POST",
    path: "/v1/chat/completions",
    body: { model: `${PRIVATE}:together`, messages: [{ role: "user", content: "hi" }], max_tokens: 4 },
    // It is a summarization model: those who may see it learn that it cannot chat (400), others that it
    // does not exist (404, as for a missing model).
    expected: succeedsWith({ ...READ_PRIVATE_REPO, fineGrainedOutOfScope: 403 }, 400),
  },
  {
    route: "POST /v1/responses",
    name: "Responses API call naming the private model",
    method: "POST",
    path: "/v1/responses",
    body: { model: `${PRIVATE}:together`, input: "hi", max_output_tokens: 4 },
    // Routed as a chat call: those who may see the model learn that it cannot chat, others that it is missing.
    expected: succeedsWith({ ...READ_PRIVATE_REPO, fineGrainedOutOfScope: 403 }, 400),
  },
  {
    route: "POST /router/v1/responses",
    name: "Responses API call of a model that does not exist, under /router",
    method: "POST",
    path: "/router/v1/responses",
    body: { model: "acme/no-such-model", input: "hi" },
    expected: { ...everyone(404), anonymous: 401, revokedToken: 401, expiredToken: 401, fineGrainedOutOfScope: 403 },
  },
  {
    route: "POST /v1/embeddings",
    name: "embeddings of a model that does not exist",
    method: "POST",
    path: "/v1/embeddings",
    body: { model: "acme/no-such-model", input: "hi" },
    expected: { ...everyone(404), anonymous: 401, revokedToken: 401, expiredToken: 401, fineGrainedOutOfScope: 403 },
  },
  {
    route: "POST /v1/images/generations",
    name: "images from a model that does not exist",
    method: "POST",
    path: "/v1/images/generations",
    body: { model: "acme/no-such-model", prompt: "a cat" },
    expected: { ...everyone(404), anonymous: 401, revokedToken: 401, expiredToken: 401, fineGrainedOutOfScope: 403 },
  },
  // The OpenAI-compatible API under the router's prefix too (`/router/v1/...`), as the public router has it.
  {
    route: "POST /router/v1/embeddings",
    name: "embeddings of a model that does not exist, under /router",
    method: "POST",
    path: "/router/v1/embeddings",
    body: { model: "acme/no-such-model", input: "hi" },
    expected: { ...everyone(404), anonymous: 401, revokedToken: 401, expiredToken: 401, fineGrainedOutOfScope: 403 },
  },
  {
    route: "POST /router/v1/images/generations",
    name: "images from a model that does not exist, under /router",
    method: "POST",
    path: "/router/v1/images/generations",
    body: { model: "acme/no-such-model", prompt: "a cat" },
    expected: { ...everyone(404), anonymous: 401, revokedToken: 401, expiredToken: 401, fineGrainedOutOfScope: 403 },
  },
  {
    route: "GET /v1/models",
    name: "the router's model list",
    method: "GET",
    path: "/v1/models",
    outcome: mentionsPrivate,
    // The public router's model list: public models only, for everyone; a wrong credential sent with it is
    // refused (clients check their key with this call), one that may not run inference still lists.
    expected: { ...everyone("hidden"), revokedToken: "401", expiredToken: "401" },
  },
  {
    route: "GET /router/v1/models",
    name: "the router's model list, under /router",
    method: "GET",
    path: "/router/v1/models",
    outcome: mentionsPrivate,
    expected: { ...everyone("hidden"), revokedToken: "401", expiredToken: "401" },
  },
  {
    route: "GET /v1/models/:id{.+}",
    name: "the private model, asked of the router's model list",
    method: "GET",
    path: `/v1/models/${PRIVATE}`,
    // Listed models only (public ones), whoever asks; a wrong credential is refused as for the list.
    expected: { ...everyone(404), revokedToken: 401, expiredToken: 401 },
  },
  {
    route: "GET /router/v1/models/:id{.+}",
    name: "the private model, asked of the router's model list under /router",
    method: "GET",
    path: `/router/v1/models/${encodeURIComponent(PRIVATE)}`,
    expected: { ...everyone(404), revokedToken: 401, expiredToken: 401 },
  },
  {
    route: "POST /router/:provider/*",
    name: "per-provider router call naming the private model",
    method: "POST",
    path: "/router/together/v1/chat/completions",
    body: { model: "acme/private", messages: [{ role: "user", content: "hi" }], max_tokens: 4 },
    writes: true,
    outcome: (response, body) =>
      response.status === 404 && JSON.stringify(body).includes("does not exist on this hub")
        ? "hidden"
        : response.status >= 400 && response.status !== 404
          ? String(response.status)
          : "forwarded",
    expected: {
      anonymous: "401",
      reader: "forwarded",
      writer: "forwarded",
      orgAdmin: "forwarded",
      otherUser: "hidden",
      revokedToken: "401",
      expiredToken: "401",
      readTokenOnWrite: "forwarded",
      fineGrainedOutOfScope: "403",
      siteAdmin: "forwarded",
    },
  },
  {
    route: "GET /router/:provider/*",
    name: "per-provider GET through the router",
    method: "GET",
    // One of the GETs a provider's job protocol polls (inference-routes.ts).
    path: "/router/replicate/v1/predictions/p-unknown",
    forwarded: true,
    // The provider's own answer (the simulator knows no such prediction) comes back as it is.
    outcome: (response) => ([401, 403].includes(response.status) ? String(response.status) : "forwarded"),
    expected: Object.fromEntries(
      Object.entries(SIGNED_IN_INFERENCE).map(([caller, status]) => [caller, status === 200 ? "forwarded" : String(status)]),
    ) as Expected,
  },
  {
    route: "GET /router/:provider/*",
    name: "a provider's API other than inference, with the operator's key",
    method: "GET",
    path: "/router/openai/v1/organization/admin_api_keys",
    // Never forwarded: the router reaches only providers' inference calls (404, nothing recorded).
    expected: { ...everyone(404), anonymous: 401, revokedToken: 401, expiredToken: 401, fineGrainedOutOfScope: 403 },
  },
  {
    route: "POST /router/:provider/*",
    name: "a provider's file upload, with the operator's key",
    method: "POST",
    path: "/router/openai/v1/files",
    body: { purpose: "fine-tune" },
    expected: { ...everyone(404), anonymous: 401, revokedToken: 401, expiredToken: 401, fineGrainedOutOfScope: 403 },
  },
  {
    route: "POST /router/:provider/*",
    name: "per-provider router call naming a gated model nobody granted",
    method: "POST",
    path: "/router/together/v1/chat/completions",
    body: { model: CHAT, messages: [{ role: "user", content: "hi" }], max_tokens: 4 },
    writes: true,
    forwarded: true,
    outcome: (response) => (response.status >= 400 ? String(response.status) : "forwarded"),
    // Gated as its files are: nobody here is a member of meta-llama or was granted it; a site admin passes.
    expected: { ...everyone("403"), anonymous: "401", revokedToken: "401", expiredToken: "401", siteAdmin: "forwarded" },
  },
  {
    route: "POST /v1/chat/completions",
    name: "router call naming a gated model nobody granted",
    method: "POST",
    path: "/v1/chat/completions",
    body: { model: `${CHAT}:together`, messages: [{ role: "user", content: "hi" }], max_tokens: 4 },
    writes: true,
    expected: { ...everyone(403), anonymous: 401, revokedToken: 401, expiredToken: 401, siteAdmin: 200 },
  },
];
