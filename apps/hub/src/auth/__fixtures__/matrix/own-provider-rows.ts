import { type Expected, everyone, type Row, SITE_ADMIN_ONLY, succeedsWith } from "./callers.js";

/**
 * The own inference providers' admin API (router/own-providers-routes.ts): a site administrator's alone, keys
 * never answered. The rows run in order: the administrator (the last caller) creates the provider the later
 * rows read, map and remove. And `/v1/completions`, which own servers (and hosted text-generation) answer.
 */
const OWN = "/api/admin/own-providers";
const NAME = "matrix-gpu";
// Unreachable: nothing here calls it (a health check finds it down and writes nothing).
const BASE_URL = "http://127.0.0.1:9/v1";

export const OWN_PROVIDER_ROWS: Row[] = [
  {
    route: `PUT ${OWN}/:name`,
    name: "add an own provider (its key sealed)",
    method: "PUT",
    path: `${OWN}/${NAME}`,
    body: { baseUrl: BASE_URL, apiKey: "sk-matrix-own-provider-key" },
    writes: true,
    expected: succeedsWith(SITE_ADMIN_ONLY, 201),
  },
  { route: `GET ${OWN}`, name: "list own providers", method: "GET", path: OWN, expected: SITE_ADMIN_ONLY },
  {
    route: `GET ${OWN}/:name`,
    name: "read an own provider (its key masked)",
    method: "GET",
    path: `${OWN}/${NAME}`,
    outcome: (response, body) =>
      JSON.stringify(body).includes("sk-matrix-own-provider-key") ? "key shown" : String(response.status),
    // The outcome is a string (a key shown would be its own outcome): so are the statuses expected.
    expected: Object.fromEntries(
      Object.entries(SITE_ADMIN_ONLY).map(([caller, status]) => [caller, String(status)]),
    ) as Expected,
  },
  {
    route: `POST ${OWN}/check`,
    name: "check own providers' health now",
    method: "POST",
    path: `${OWN}/check`,
    expected: SITE_ADMIN_ONLY,
  },
  {
    route: `PUT ${OWN}/:name/models`,
    name: "map a hub model to an own provider's model name",
    method: "PUT",
    path: `${OWN}/${NAME}/models`,
    body: { model: "Qwen/Qwen2.5-7B-Instruct", servedName: "qwen-matrix" },
    writes: true,
    expected: SITE_ADMIN_ONLY,
  },
  {
    route: `DELETE ${OWN}/:name/models`,
    name: "unmap a hub model from an own provider",
    method: "DELETE",
    path: `${OWN}/${NAME}/models?model=Qwen/Qwen2.5-7B-Instruct`,
    writes: true,
    expected: SITE_ADMIN_ONLY,
  },
  {
    route: `DELETE ${OWN}/:name`,
    name: "remove an own provider",
    method: "DELETE",
    path: `${OWN}/${NAME}`,
    writes: true,
    expected: SITE_ADMIN_ONLY,
  },
  // The built-in llama.cpp provider's admin API (router/local-provider-routes.ts): the same callers. The model
  // named does not exist, so the administrator's enable answers 404 and the disable 404 too.
  {
    route: "GET /api/admin/local-provider",
    name: "list the local provider's models",
    method: "GET",
    path: "/api/admin/local-provider",
    expected: SITE_ADMIN_ONLY,
  },
  {
    route: "PUT /api/admin/local-provider/models",
    name: "enable a model's quantization on the local provider",
    method: "PUT",
    path: "/api/admin/local-provider/models",
    body: { model: "acme/no-such-model", quantization: "Q4_K_M" },
    writes: true,
    expected: succeedsWith(SITE_ADMIN_ONLY, 404),
  },
  {
    route: "DELETE /api/admin/local-provider/models",
    name: "disable a model's quantization on the local provider",
    method: "DELETE",
    path: "/api/admin/local-provider/models?model=acme/no-such-model&quantization=Q4_K_M",
    writes: true,
    expected: succeedsWith(SITE_ADMIN_ONLY, 404),
  },
  ...["/v1/completions", "/router/v1/completions"].map(
    (path): Row => ({
      route: `POST ${path}`,
      name: `text completion of a model that does not exist (${path})`,
      method: "POST",
      path,
      body: { model: "acme/no-such-model", prompt: "hi" },
      expected: {
        ...everyone(404),
        anonymous: 401,
        revokedToken: 401,
        expiredToken: 401,
        fineGrainedOutOfScope: 403,
      },
    }),
  ),
];
