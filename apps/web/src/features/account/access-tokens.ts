import { type AccessToken, accountQuery, accountSend } from "./account-api.js";

export interface TokenRequest {
  name: string;
  role: AccessToken["role"];
  fineGrained?: NonNullable<AccessToken["fineGrained"]>;
  expiresAt?: string;
}

export interface IssuedToken extends AccessToken {
  /** The token itself: in this answer only. */
  token: string;
}

export const tokensQuery = accountQuery<AccessToken[]>(["settings-tokens"], "/api/settings/tokens");

export function createAccessToken(request: TokenRequest): Promise<IssuedToken> {
  return accountSend<IssuedToken>("POST", "/api/settings/tokens", request);
}

export function revokeAccessToken(id: number): Promise<AccessToken> {
  return accountSend<AccessToken>("DELETE", `/api/settings/tokens/${id}`);
}

/**
 * The least a copied inference snippet needs: calls to providers through the router, and reading the
 * model (its provider mappings; a private model needs it).
 */
export function inferenceTokenRequest(modelId: string, where: string): TokenRequest {
  return {
    name: `${where}: ${modelId}`.slice(0, 100),
    role: "fineGrained",
    fineGrained: {
      canReadGatedRepos: false,
      global: ["inference.serverless.write"],
      scoped: [{ entity: { type: "model", name: modelId }, permissions: ["repo.content.read"] }],
    },
  };
}

/** A one-line description of what a token may do. */
export function describeToken(token: Pick<AccessToken, "role" | "fineGrained">): string {
  if (token.role !== "fineGrained") return token.role === "read" ? "Read" : "Write";
  const parts: string[] = [];
  if (token.fineGrained?.global.includes("inference.serverless.write")) parts.push("inference");
  for (const scope of token.fineGrained?.scoped ?? [])
    parts.push(
      `${scope.permissions.map((p) => p.replace(/^repo\.(content\.)?/, "")).join("+")} on ${scope.entity.name}`,
    );
  return `Fine-grained${parts.length ? `: ${parts.join(", ")}` : ""}`;
}
