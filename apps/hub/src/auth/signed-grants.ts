import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { UnauthorizedError } from "../errors.js";

/** A grant names what its holder may do until `expires` (epoch ms). */
export interface Grant {
  expires: number;
}

/** What the holder of a forged, malformed or expired token is told (what to do next included). */
export interface GrantRefusals {
  invalid: string;
  expired: string;
}

/**
 * Signs small JSON grants into URL-safe tokens (`{payload}.{signature}`, HMAC-SHA256) and opens them again.
 * The key lives in the hub's settings table under `secretKey`, so every replica accepts every token. It is
 * made (or read) when the signer is created, not on the first use: a read must not be what writes the key.
 */
export function createGrantSigner<T extends Grant>(
  meta: { getOrCreate(key: string, value: string): Promise<string> },
  secretKey: string,
  refusals: GrantRefusals,
) {
  let secret: Promise<Buffer> | undefined;
  const key = () =>
    (secret ??= meta
      .getOrCreate(secretKey, randomBytes(32).toString("hex"))
      .then((hex) => Buffer.from(hex, "hex")));
  key().catch(() => {
    secret = undefined;
  });
  const hmac = async (payload: string) =>
    createHmac("sha256", await key())
      .update(payload)
      .digest("base64url");

  return {
    async sign(grant: T): Promise<string> {
      const payload = Buffer.from(JSON.stringify(grant)).toString("base64url");
      return `${payload}.${await hmac(payload)}`;
    },

    /** The grant a token carries; 401 (with the refusal's words) when forged, malformed or expired. */
    async open(token: string, now: number): Promise<T> {
      const [payload = "", signature = "", extra] = token.split(".");
      const expected = Buffer.from(await hmac(payload));
      const given = Buffer.from(signature);
      if (
        !payload ||
        extra !== undefined ||
        expected.length !== given.length ||
        !timingSafeEqual(expected, given)
      ) {
        throw new UnauthorizedError(refusals.invalid);
      }
      const grant = JSON.parse(Buffer.from(payload, "base64url").toString()) as T;
      if (grant.expires < now) throw new UnauthorizedError(refusals.expired);
      return grant;
    },
  };
}
