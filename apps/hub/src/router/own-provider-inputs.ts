import { z } from "zod";

/**
 * Request bodies and queries of the own-provider admin APIs: the site's (`/api/admin/own-providers`) and an
 * organization's (`/api/organizations/{org}/providers`). Only the site's may name an environment variable
 * for the key (an organization's admin could otherwise send the site's keys to their own server).
 */

/** `PUT …/{name}` of an organization: the provider; a key given is stored sealed, one left out is kept. */
export const orgProviderInput = z.strictObject({
  baseUrl: z.string().max(2000),
  apiKey: z.string().max(4096).optional(),
  healthPath: z.string().max(300).optional(),
  headersTimeoutMs: z.number().int().optional(),
  idleTimeoutMs: z.number().int().optional(),
  hostedFailover: z.boolean().optional(),
});

/** `PUT /api/admin/own-providers/{name}`: as an organization's, and the key may come from the environment. */
export const siteProviderInput = orgProviderInput.extend({ apiKeyEnv: z.string().max(100).optional() });

/** `PUT …/{name}/models`: a hub model and the name the server serves it under. */
export const modelInput = z.strictObject({
  model: z.string().max(300),
  kind: z.enum(["chat", "embeddings"]).optional(),
  servedName: z.string().max(300),
});

/** `DELETE …/{name}/models?model=…&kind=…`. */
export const modelQuery = z.object({
  model: z.string().max(300),
  kind: z.enum(["chat", "embeddings"]).optional(),
});

/** `PUT …/{name}/prices` of an organization: a model its provider serves, and what to tell of its offer. */
export const priceInput = z.strictObject({
  model: z.string().max(300),
  inputPrice: z.number().optional(),
  outputPrice: z.number().optional(),
  contextLength: z.number().int().optional(),
});

/** `DELETE …/{name}/prices?model=…`. */
export const priceQuery = z.object({ model: z.string().max(300) });
