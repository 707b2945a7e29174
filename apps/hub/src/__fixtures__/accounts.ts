import { accountsService } from "../accounts/accounts-service.js";
import type { FineGrained } from "../accounts/types.js";
import { issueUserToken } from "../auth/token-service.js";
import type { Store } from "../store/store.js";

/**
 * A small cast of accounts for tests: organization `acme` with an admin (`ada`), a writer (`wes`) and a
 * reader (`rae`); an outsider (`otto`); a site admin (`sam`). Each user gets a token of each kind the
 * authorization tests need. Returns the tokens (the only place they exist).
 */
export async function seedAccounts(store: Store) {
  const service = accountsService(store.accounts);
  for (const name of ["ada", "wes", "rae", "otto", "sam"]) {
    await service.createUser({ name, email: `${name}@example.com`, isAdmin: name === "sam" });
  }
  await service.createOrg({ name: "acme", fullname: "Acme Corp", owner: "ada" });
  await service.setMember("acme", "wes", "write");
  await service.setMember("acme", "rae", "read");
  const token = async (user: string, input: Record<string, unknown>) =>
    (await service.createToken(user, { name: `${user}-${String(input.role)}`, ...input })).token;
  const fineGrained = (scoped: FineGrained["scoped"], global: FineGrained["global"] = []): FineGrained => ({
    canReadGatedRepos: false,
    global,
    scoped,
  });
  const tokens = {
    adaWrite: await token("ada", { role: "write" }),
    wesWrite: await token("wes", { role: "write" }),
    wesRead: await token("wes", { role: "read" }),
    raeRead: await token("rae", { role: "read" }),
    raeWrite: await token("rae", { role: "write" }),
    ottoWrite: await token("otto", { role: "write" }),
    samWrite: await token("sam", { role: "write" }),
    /** wes, fine-grained: may only write to wes's own namespace (not acme's). */
    wesScopedToSelf: await token("wes", {
      role: "fineGrained",
      fineGrained: fineGrained([{ entity: { type: "user", name: "wes" }, permissions: ["repo.write"] }]),
    }),
    /** wes, fine-grained: inference only. */
    wesInferenceOnly: await token("wes", { role: "fineGrained", fineGrained: fineGrained([], ["inference.serverless.write"]) }),
    wesRevoked: "",
    wesExpired: "",
  };
  const wes = await service.user("wes");
  const revoked = await issueUserToken(store.accounts, wes.id, { name: "revoked", role: "write", fineGrained: null, expiresAt: null });
  await store.accounts.tokens.revoke(revoked.id);
  tokens.wesRevoked = revoked.token;
  // Made directly in the store: the API refuses an expiry in the past.
  const expiresAt = new Date(Date.now() - 1000).toISOString();
  tokens.wesExpired = (await issueUserToken(store.accounts, wes.id, { name: "expired", role: "write", fineGrained: null, expiresAt })).token;
  return { service, tokens };
}

/** A user named `name` (created if missing) and a new access token of theirs: for tests that need one caller. */
export async function userToken(store: Store, name: string, role: "read" | "write" = "write"): Promise<string> {
  const service = accountsService(store.accounts);
  if (!(await store.accounts.users.byName(name))) await service.createUser({ name });
  return (await service.createToken(name, { name: `${name}-${role}`, role })).token;
}
