import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { adminHeaders } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { createApp } from "../app.js";
import { issueToken } from "../auth/token-service.js";
import { openStore, type Store } from "../store/store.js";
import { createTokenCache } from "./token-cache.js";

let temp: ReturnType<typeof makeTempDir>;
let store: Store;
let clock: number;
beforeEach(() => {
  temp = makeTempDir();
  store = openStore({ dataDir: temp.dir });
  clock = 1_000_000;
});
afterEach(() => {
  store.close();
  temp.remove();
});

const bearer = (token: string) => `Bearer ${token}`;

describe("the router's token cache", () => {
  it("checks like authenticateHubToken: missing, malformed, unknown and unscoped tokens are refused", () => {
    const cache = createTokenCache(store, { now: () => clock });
    const readOnly = issueToken(store, { name: "read", scopes: ["read"] });
    expect(() => cache.authenticate(undefined, "inference")).toThrow(/hub token is required/);
    expect(() => cache.authenticate("Bearer sk-abc", "inference")).toThrow(/Invalid hub token/);
    expect(() => cache.authenticate(bearer(`hf_${"x".repeat(34)}`), "inference")).toThrow(
      /Invalid hub token/,
    );
    expect(() => cache.authenticate(bearer(readOnly.token), "inference")).toThrow(/lacks the "inference"/);
    expect(cache.size).toBe(1);
  });

  it("remembers a valid token for ttlMs, then reads the store again", () => {
    const cache = createTokenCache(store, { ttlMs: 1000, now: () => clock });
    const issued = issueToken(store, { name: "a", scopes: ["inference"] });
    expect(cache.authenticate(bearer(issued.token), "inference").id).toBe(issued.id);
    // Revoked behind the cache's back (as the admin CLI does from another process).
    store.tokens.revoke(issued.id);
    clock += 999;
    expect(cache.authenticate(bearer(issued.token), "inference").id).toBe(issued.id);
    clock += 2;
    expect(() => cache.authenticate(bearer(issued.token), "inference")).toThrow(/revoked/);
    expect(cache.size).toBe(0);
  });

  it("forgets every token at once when the admin API revokes one", async () => {
    const cache = createTokenCache(store, { ttlMs: 60_000, now: () => clock });
    const app = createApp({ store, adminToken: "test-admin-token-0123456789", tokenCache: cache });
    const issued = issueToken(store, { name: "a", scopes: ["inference"] });
    cache.authenticate(bearer(issued.token), "inference");
    const response = await app.request(`/api/admin/tokens/${issued.id}`, {
      method: "DELETE",
      headers: adminHeaders(),
    });
    expect(response.status).toBe(200);
    expect(() => cache.authenticate(bearer(issued.token), "inference")).toThrow(/revoked/);
  });

  it("keeps at most maxEntries tokens, dropping the least recently used", () => {
    const cache = createTokenCache(store, { maxEntries: 2, now: () => clock });
    const [a, b, c] = ["a", "b", "c"].map((name) => issueToken(store, { name, scopes: ["inference"] }));
    cache.authenticate(bearer(a!.token), "inference");
    cache.authenticate(bearer(b!.token), "inference");
    cache.authenticate(bearer(a!.token), "inference");
    cache.authenticate(bearer(c!.token), "inference");
    expect(cache.size).toBe(2);
    // b was the least recently used: revoking it is seen at once, while a is still served from memory.
    store.tokens.revoke(b!.id);
    store.tokens.revoke(a!.id);
    expect(() => cache.authenticate(bearer(b!.token), "inference")).toThrow(/revoked/);
    expect(cache.authenticate(bearer(a!.token), "inference").id).toBe(a!.id);
  });
});
