import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { seededAccountsPerTest } from "../__fixtures__/seeded-app.js";
import { hashToken, secretsEqual } from "./hub-tokens.js";

const { hub, tokens } = seededAccountsPerTest();

/**
 * Constant-time comparison: a caller's secret is never compared with a stored one byte by byte. Access
 * tokens are looked up by their SHA-256 digest (the database holds only digests; an early mismatch reveals
 * nothing about the token), and the operator's ADMIN_TOKEN and a session's CSRF token are compared with
 * timingSafeEqual over equal-length digests (secretsEqual).
 */
describe("secret comparison", () => {
  it("secretsEqual tells equal secrets from different ones of any length", () => {
    const secret = "a-secret-value-0123456789";
    expect(secretsEqual(secret, secret)).toBe(true);
    for (const other of [
      "b-secret-value-0123456789",
      "a-secret-value-012345678X",
      "a-secret",
      `${secret}!`,
      "",
    ])
      expect(secretsEqual(secret, other)).toBe(false);
  });

  it("keeps only digests of access tokens in the database", async () => {
    const rows = await hub.store.db.all<Record<string, unknown>>("SELECT * FROM tokens");
    expect(rows.length).toBeGreaterThan(0);
    const stored = JSON.stringify(rows);
    for (const token of [tokens.adaWrite, tokens.wesRead, tokens.raeRead])
      expect(stored.includes(token), "a raw token is stored").toBe(false);
    expect(rows.map((row) => row.token_hash)).toContain(hashToken(tokens.adaWrite));
  });

  it("compares the admin token and CSRF tokens only through secretsEqual", () => {
    // A plain comparison of a caller's secret (=== / !==) would stop at the first differing byte.
    for (const file of ["actor-resolver.ts", "middleware.ts"]) {
      const source = readFileSync(new URL(`./${file}`, import.meta.url), "utf8");
      expect(source, file).toMatch(/secretsEqual\(/);
      expect(source, file).not.toMatch(
        // Presence checks (=== undefined) are fine; comparing two values is not.
        /(adminToken|csrfToken|credential|sent)\s*[!=]==(?!\s*(undefined|null))|[!=]==\s*[\w.]*(adminToken|csrfToken)\b/,
      );
    }
  });
});
