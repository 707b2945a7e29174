import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export const HUB_TOKEN_PREFIX = "hf_";
const TOKEN_BODY_LENGTH = 34;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const HUB_TOKEN_SHAPE = /^hf_[A-Za-z0-9]{34}$/;

/** A new random hub token: `hf_` and 34 letters or digits (about 200 bits of entropy). */
export function generateHubToken(): string {
  let body = "";
  while (body.length < TOKEN_BODY_LENGTH) {
    for (const byte of randomBytes(64)) {
      // Rejection sampling keeps every character equally likely (248 = 4 * 62).
      if (byte < 248 && body.length < TOKEN_BODY_LENGTH) body += ALPHABET[byte % 62];
    }
  }
  return HUB_TOKEN_PREFIX + body;
}

export function looksLikeHubToken(value: string): boolean {
  return HUB_TOKEN_SHAPE.test(value);
}

/** Tokens are random and long, so a fast hash is enough; the store only ever sees this digest. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** What the store keeps to let people recognise a token: its prefix and last four characters. */
export function tokenHint(token: string): string {
  return `${HUB_TOKEN_PREFIX}…${token.slice(-4)}`;
}

/** Compares two secrets in constant time (hashing first makes the lengths equal). */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}

/** The credential of an `Authorization: Bearer …` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1];
}
