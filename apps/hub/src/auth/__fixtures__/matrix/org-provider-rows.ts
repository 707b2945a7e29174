import { type Caller, type Expected, ORG_ADMIN_ONLY, type Row, SITE_ADMIN_ONLY, succeedsWith } from "./callers.js";

/**
 * An organization's own inference providers (router/org-own-providers-routes.ts), on acme: its admins (and
 * site administrators) change them; its members whose credential may bill inference to acme read them; to
 * everyone else they answer 403 (401 without credentials) before anything is read, whether a name exists or
 * not. Keys are never answered. Each caller acts on a provider of its own name (the successful writes of one
 * never change what the next meets); reads go to the org admin's, made by the first row.
 */
const ORG = "/api/organizations/acme/providers";
const nameOf = (caller: Caller) => `mx-${caller.toLowerCase()}`;
const KEY = "sk-matrix-org-provider-key";
// Unreachable (a health check finds it down and writes nothing); the matrix hub allows private addresses.
const BASE_URL = "http://127.0.0.1:9/v1";

/** acme's admins and site administrators, and acme's members with a credential that may run inference. */
const MEMBERS_READ: Expected = {
  ...SITE_ADMIN_ONLY,
  reader: 200,
  writer: 200,
  orgAdmin: 200,
  readTokenOnWrite: 200,
};

/** The status as a string, or "key shown" when the answer holds the key: a key shown is its own outcome. */
const keyHidden = (response: Response, body: unknown) =>
  JSON.stringify(body).includes(KEY) ? "key shown" : String(response.status);
const asStrings = (expected: Expected) =>
  Object.fromEntries(Object.entries(expected).map(([caller, status]) => [caller, String(status)])) as Expected;

export const ORG_PROVIDER_ROWS: Row[] = [
  {
    route: "PUT /api/organizations/:org/providers/:name",
    name: "add an organization's provider (its key sealed)",
    method: "PUT",
    path: (caller) => `${ORG}/${nameOf(caller)}`,
    body: { baseUrl: BASE_URL, apiKey: KEY },
    writes: true,
    outcome: keyHidden,
    expected: asStrings(succeedsWith(ORG_ADMIN_ONLY, 201)),
  },
  {
    route: "GET /api/organizations/:org/providers",
    name: "list an organization's providers",
    method: "GET",
    path: ORG,
    outcome: keyHidden,
    expected: asStrings(MEMBERS_READ),
  },
  {
    route: "GET /api/organizations/:org/providers/:name",
    name: "read an organization's provider (its key masked)",
    method: "GET",
    path: `${ORG}/${nameOf("orgAdmin")}`,
    outcome: keyHidden,
    expected: asStrings(MEMBERS_READ),
  },
  {
    route: "POST /api/organizations/:org/providers/check",
    name: "check an organization's providers' health now",
    method: "POST",
    path: `${ORG}/check`,
    expected: ORG_ADMIN_ONLY,
  },
  {
    route: "PUT /api/organizations/:org/providers/:name/models",
    name: "map a hub model to an organization's provider",
    method: "PUT",
    path: (caller) => `${ORG}/${nameOf(caller)}/models`,
    body: { model: "Qwen/Qwen2.5-7B-Instruct", servedName: "qwen-matrix" },
    writes: true,
    expected: ORG_ADMIN_ONLY,
  },
  {
    route: "PUT /api/organizations/:org/providers/:name/prices",
    name: "price a model an organization's provider serves",
    method: "PUT",
    path: (caller) => `${ORG}/${nameOf(caller)}/prices`,
    body: { model: "Qwen/Qwen2.5-7B-Instruct", inputPrice: 0.2, outputPrice: 0.6, contextLength: 32768 },
    writes: true,
    expected: ORG_ADMIN_ONLY,
  },
  {
    route: "GET /api/models/:owner/:name/own-providers",
    name: "a model's own providers, acme's to its members only",
    method: "GET",
    path: "/api/models/Qwen/Qwen2.5-7B-Instruct/own-providers",
    outcome: (response, body) =>
      response.status !== 200
        ? String(response.status)
        : (body as Array<{ provider: string }>).some((entry) => entry.provider === `acme/${nameOf("orgAdmin")}`)
          ? "listed"
          : "hidden",
    expected: {
      anonymous: "hidden",
      reader: "listed",
      writer: "listed",
      orgAdmin: "listed",
      otherUser: "hidden",
      revokedToken: "401",
      expiredToken: "401",
      readTokenOnWrite: "listed",
      fineGrainedOutOfScope: "hidden",
      siteAdmin: "hidden",
    },
  },
  {
    route: "DELETE /api/organizations/:org/providers/:name/prices",
    name: "remove the price of a model an organization's provider serves",
    method: "DELETE",
    path: (caller) => `${ORG}/${nameOf(caller)}/prices?model=Qwen/Qwen2.5-7B-Instruct`,
    writes: true,
    expected: ORG_ADMIN_ONLY,
  },
  {
    route: "DELETE /api/organizations/:org/providers/:name/models",
    name: "unmap a hub model from an organization's provider",
    method: "DELETE",
    path: (caller) => `${ORG}/${nameOf(caller)}/models?model=Qwen/Qwen2.5-7B-Instruct`,
    writes: true,
    expected: ORG_ADMIN_ONLY,
  },
  {
    route: "DELETE /api/organizations/:org/providers/:name",
    name: "remove an organization's provider",
    method: "DELETE",
    path: (caller) => `${ORG}/${nameOf(caller)}`,
    writes: true,
    expected: ORG_ADMIN_ONLY,
  },
];
