import { randomBytes } from "node:crypto";
import * as client from "openid-client";
import type { SignupPolicy } from "../admin/site-settings.js";
import { hashToken } from "../auth/hub-tokens.js";
import { HubError } from "../errors.js";
import type { AccountsStore } from "./accounts-store.js";
import { parseAccountName } from "./names.js";
import type { OidcIdentitiesTable } from "./oidc-identities-table.js";
import type { User } from "./types.js";

/** OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET: single sign-on through one OpenID Connect provider. */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export class SingleSignOnError extends HubError {
  constructor(message: string) {
    super(401, "unauthorized", `Single sign-on failed: ${message}`);
  }
}

/** What the browser keeps (HttpOnly cookie) between leaving for the provider and coming back. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
  next: string;
  /** A sign-up invite code the person came with (SIGNUP_POLICY=invite). */
  invite?: string;
}

const isLoopback = (url: URL) => ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);

/**
 * Single sign-on with openid-client: the authorization code flow with PKCE, `state` and `nonce` checked,
 * the ID token verified against the provider's keys. The first sign-in of an identity links it to the
 * account with the same verified email, or creates an account named after the person, as the sign-up policy
 * allows: `open` always, `invite` with an unused invite (consumed), `closed` never (an admin makes the
 * account first, with the email the provider vouches for).
 */
export function oidcService(deps: {
  settings: OidcSettings;
  accounts: AccountsStore;
  identities: OidcIdentitiesTable;
  /** Where the provider sends the browser back: `{PUBLIC_URL}/api/auth/oidc/callback`. */
  callbackUrl: () => string;
  /** The sign-up policy in force (SIGNUP_POLICY or the site settings' override). */
  signupPolicy: () => Promise<SignupPolicy>;
}) {
  let configuration: Promise<client.Configuration> | undefined;
  const configure = () => {
    const issuer = new URL(deps.settings.issuer);
    configuration ??= client
      .discovery(
        issuer,
        deps.settings.clientId,
        deps.settings.clientSecret,
        undefined,
        // Plain http only for a provider on this machine (tests, development).
        issuer.protocol === "http:" && isLoopback(issuer)
          ? { execute: [client.allowInsecureRequests] }
          : undefined,
      )
      .catch((error: unknown) => {
        configuration = undefined;
        throw new SingleSignOnError(`cannot reach the provider (${(error as Error).message}).`);
      });
    return configuration;
  };

  async function accountFor(claims: client.IDToken, issuer: string, invite?: string): Promise<User> {
    const linked = await deps.identities.userIdOf(issuer, claims.sub);
    if (linked !== undefined) {
      const user = await deps.accounts.users.byId(linked);
      if (!user || user.disabled) throw new SingleSignOnError("this account is disabled.");
      return user;
    }
    const email = typeof claims.email === "string" ? claims.email : null;
    // Only an address the provider vouches for may take over an existing account.
    const byEmail =
      email && claims.email_verified === true ? await deps.accounts.users.byEmail(email) : undefined;
    if (byEmail) {
      if (byEmail.disabled) throw new SingleSignOnError("this account is disabled.");
      await deps.identities.link(issuer, claims.sub, byEmail.id);
      return byEmail;
    }
    const policy = await deps.signupPolicy();
    if (policy === "closed")
      throw new SingleSignOnError("sign-up is closed on this hub: ask an administrator for an account.");
    if (policy === "invite" && !invite)
      throw new SingleSignOnError("sign-up needs an invite on this hub: open your invite link first.");
    const user = await createNamedAfter(claims, email, policy === "invite" ? invite : undefined);
    await deps.identities.link(issuer, claims.sub, user.id);
    return user;
  }

  async function createNamedAfter(
    claims: client.IDToken,
    email: string | null,
    invite?: string,
  ): Promise<User> {
    const wanted = String(claims.preferred_username ?? email?.split("@")[0] ?? "user")
      .replace(/[^\w.-]+/g, "-")
      .replace(/([-.])\1+/g, "$1")
      .replace(/^[^a-zA-Z0-9]+|[^a-zA-Z0-9]+$/g, "")
      .slice(0, 36);
    const fullname = typeof claims.name === "string" ? claims.name.slice(0, 100) : undefined;
    for (let attempt = 0; attempt < 5; attempt++) {
      const candidate =
        attempt === 0 && wanted ? wanted : `${wanted || "user"}-${randomBytes(2).toString("hex")}`;
      let name: string;
      try {
        name = parseAccountName(candidate, "user name");
      } catch {
        continue;
      }
      if (await deps.accounts.namespace(name)) continue;
      return deps.accounts.users.create({
        name,
        fullname: fullname || name,
        email: email && !(await deps.accounts.users.byEmail(email)) ? email : null,
        passwordHash: null,
        isAdmin: false,
        // Consumed with the account, in one transaction: a used or expired invite creates nothing.
        ...(invite !== undefined ? { inviteCodeHash: hashToken(invite) } : {}),
      });
    }
    throw new SingleSignOnError("could not choose a user name.");
  }

  return {
    /** The provider's sign-in address, and what to keep until the browser comes back. */
    async start(next: string, invite?: string): Promise<{ url: URL; pending: PendingSignIn }> {
      const config = await configure();
      const verifier = client.randomPKCECodeVerifier();
      const pending: PendingSignIn = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        verifier,
        next,
        ...(invite ? { invite } : {}),
      };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: deps.callbackUrl(),
        scope: "openid email profile",
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
        state: pending.state,
        nonce: pending.nonce,
      });
      return { url, pending };
    },

    /** Checks the provider's answer (state, PKCE, nonce, ID token) and returns the account it signs in. */
    async finish(search: string, pending: PendingSignIn): Promise<User> {
      const config = await configure();
      let claims: client.IDToken | undefined;
      try {
        const tokens = await client.authorizationCodeGrant(
          config,
          new URL(`${deps.callbackUrl()}${search}`),
          {
            pkceCodeVerifier: pending.verifier,
            expectedState: pending.state,
            expectedNonce: pending.nonce,
            idTokenExpected: true,
          },
        );
        claims = tokens.claims();
        if (!claims) throw new SingleSignOnError("the provider sent no ID token.");
        // Many providers keep email and profile out of the ID token: ask the userinfo endpoint (for the
        // same subject, which openid-client checks) and let the ID token's own claims win.
        const info = await client
          .fetchUserInfo(config, tokens.access_token, claims.sub)
          .catch(() => undefined);
        if (info) claims = { ...info, ...claims } as client.IDToken;
      } catch (error) {
        if (error instanceof SingleSignOnError) throw error;
        throw new SingleSignOnError(error instanceof Error ? error.message : String(error));
      }
      return accountFor(claims, config.serverMetadata().issuer, pending.invite);
    },
  };
}

export type OidcService = ReturnType<typeof oidcService>;
