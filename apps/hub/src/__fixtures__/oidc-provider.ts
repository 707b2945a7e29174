import { createSign, generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A minimal OpenID Connect provider on loopback, for tests of the hub's single sign-on: discovery, keys, and a
 * token endpoint that answers any code `authorize()` handed out with an RS256-signed ID token for one person.
 * There is no sign-in page: a test reads `state` and `nonce` from the hub's redirect and calls `authorize`.
 */
export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The code the provider would send the browser back with, after the person signed in. */
  authorize(nonce: string, person: { sub: string; email: string }): string;
  close(): Promise<void>;
}

export async function startOidcProvider(): Promise<TestOidcProvider> {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const kid = "test-key";
  const clientId = "hub";
  const clientSecret = randomBytes(16).toString("hex");
  const codes = new Map<string, { nonce: string; sub: string; email: string }>();
  let issuer = "";
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const idToken = (claims: Record<string, unknown>) => {
    const unsigned = `${b64({ alg: "RS256", typ: "JWT", kid })}.${b64(claims)}`;
    const signature = createSign("RSA-SHA256").update(unsigned).sign(privateKey).toString("base64url");
    return `${unsigned}.${signature}`;
  };

  const server: Server = createServer((req, res) => {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? "/", issuer);
    if (url.pathname === "/.well-known/openid-configuration") {
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
        code_challenge_methods_supported: ["S256"],
      });
    }
    if (url.pathname === "/jwks") {
      return json(200, { keys: [{ ...publicKey.export({ format: "jwk" }), kid, use: "sig", alg: "RS256" }] });
    }
    if (url.pathname === "/token" && req.method === "POST") {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (chunk: string) => {
        body += chunk;
      });
      req.on("end", () => {
        const form = new URLSearchParams(body);
        const grant = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        if (!grant) return json(400, { error: "invalid_grant" });
        const now = Math.floor(Date.now() / 1000);
        return json(200, {
          access_token: randomBytes(16).toString("hex"),
          token_type: "Bearer",
          expires_in: 300,
          id_token: idToken({
            iss: issuer,
            aud: clientId,
            sub: grant.sub,
            email: grant.email,
            email_verified: true,
            nonce: grant.nonce,
            iat: now,
            exp: now + 300,
          }),
        });
      });
      return;
    }
    json(404, { error: "not_found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    clientId,
    clientSecret,
    authorize(nonce, person) {
      const code = randomBytes(12).toString("hex");
      codes.set(code, { nonce, ...person });
      return code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
