import { createHash } from "node:crypto";
import { expect } from "vitest";
import { seedAccounts } from "../../../__fixtures__/accounts.js";
import { orgInvitesService } from "../../../accounts/invites.js";
import type { RunningHub } from "../../../start-hub.js";
import { CALLERS, type Caller } from "./callers.js";

export const PRIVATE = "acme/private-model";
export const GATED = "acme/gated-model";
export const PRIVATE_REPO = "acme/private-repo";
/** The content of an LFS file committed to PRIVATE_REPO: its sha256 is known, its bytes are acme's. */
export const PRIVATE_OBJECT = Buffer.from("acme's private weights, committed through LFS");
export const PRIVATE_OBJECT_OID = createHash("sha256").update(PRIVATE_OBJECT).digest("hex");
export const CHAT = "meta-llama/Llama-3.1-8B-Instruct";
/** A catalogue model only the site admin's calls change (admin model and mapping routes). */
export const SPARE_MODEL = "spare/catalogue-model";
/** A user only the site admin's calls change (disable, make admin, reset password). */
export const SPARE_USER = "zed";
/** zed's password: the sign-in row signs in with it. */
export const SPARE_PASSWORD = "a long enough password";

/**
 * What the rows refer to and beforeAll makes: each caller's credential, and per-caller targets (a token, a
 * branch, a tag, a repository, an invite) so that one caller's successful write never changes what the
 * next caller meets.
 */
export const fixture = {
  tokenOf: {} as Record<Caller, string | undefined>,
  /** The id of a spare token of the caller's own user (revoked by the token-revocation row). */
  spareTokenOf: {} as Record<Caller, number>,
  /** An organization invite per caller (accepted by the invite row). */
  orgInviteOf: {} as Record<Caller, string>,
  /** A token of the spare user (revoked through the admin API). */
  spareUserTokenId: 0,
  /** How many public summarization models the catalogue has (the private one makes one more). */
  publicSummarizers: 0,
};

const USER_OF: Record<Caller, string | undefined> = {
  anonymous: undefined,
  reader: "rae",
  writer: "wes",
  orgAdmin: "ada",
  otherUser: "otto",
  revokedToken: "wes",
  expiredToken: "wes",
  readTokenOnWrite: "wes",
  fineGrainedOutOfScope: "wes",
  siteAdmin: "sam",
};

/** Acme members whose removal is the "remove a member" row's success (one per caller that may). */
export const memberToRemove = (caller: Caller) => (caller === "siteAdmin" ? "mia" : "max");

export async function seedMatrix(hub: RunningHub): Promise<void> {
  const { tokens, service } = await seedAccounts(hub.store);
  fixture.tokenOf = {
    anonymous: undefined,
    reader: tokens.raeRead,
    writer: tokens.wesWrite,
    orgAdmin: tokens.adaWrite,
    otherUser: tokens.ottoWrite,
    revokedToken: tokens.wesRevoked,
    expiredToken: tokens.wesExpired,
    readTokenOnWrite: tokens.wesRead,
    fineGrainedOutOfScope: tokens.wesScopedToSelf,
    siteAdmin: tokens.samWrite,
  };
  await service.createUser({ name: SPARE_USER, password: SPARE_PASSWORD });
  fixture.spareUserTokenId = (await service.createToken(SPARE_USER, { name: "spare", role: "read" })).id;
  for (const name of ["mia", "max"]) {
    await service.createUser({ name });
    await service.setMember("acme", name, "read");
  }
  // Invites to another of ada's organizations: accepting one must not make a caller a member of acme.
  const guild = await service.createOrg({ name: "guild", owner: "ada" });
  const invites = orgInvitesService(hub.store.accounts, hub.store.orgInvites);
  for (const caller of CALLERS) {
    const user = USER_OF[caller];
    fixture.orgInviteOf[caller] = (await invites.create(guild, "read", null)).code;
    if (user)
      fixture.spareTokenOf[caller] = (await service.createToken(user, { name: `spare-${caller}`, role: "read" })).id;
  }

  const summarizer = (await hub.store.models.get("facebook/bart-large-cnn"))!;
  fixture.publicSummarizers = (await hub.store.models.countsByPipeline()).get("summarization") ?? 0;
  await hub.store.models.upsert({ ...summarizer, id: PRIVATE, private: true, gated: false });
  await hub.store.models.upsert({
    ...summarizer,
    id: SPARE_MODEL,
    pipeline_tag: "translation",
    private: false,
    gated: false,
  });
  await hub.store.mappings.set(PRIVATE, "together", {
    status: "live",
    providerId: "acme/private",
    task: "summarization",
  });
  await hub.store.mappings.set(SPARE_MODEL, "together", {
    status: "live",
    providerId: "spare/model",
    task: "summarization",
  });

  // Repositories with files (gated and private), made through the API by the organization's admin, with a
  // branch, a tag and a repository per caller to delete or move, and a discussion to comment on.
  const asAdmin = { Authorization: `Bearer ${tokens.adaWrite}`, "Content-Type": "application/json" };
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${hub.url}${path}`, {
      method,
      headers: asAdmin,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBe(200);
    return response;
  };
  for (const [id, settings] of [
    [GATED, { gated: "manual" }],
    [PRIVATE_REPO, { private: true }],
  ] as const) {
    const [organization, name] = id.split("/");
    await api("POST", "/api/repos/create", { type: "model", name, organization });
    await api("PUT", `/api/models/${id}/settings`, settings);
  }
  // A private dataset and space, for the listings of those types.
  for (const type of ["dataset", "space"]) {
    await api("POST", "/api/repos/create", { type, name: "private-repo", organization: "acme", private: true, sdk: "static" });
  }
  for (const caller of CALLERS) {
    await api("POST", `/api/models/${PRIVATE_REPO}/branch/doomed-${caller}`);
    await api("POST", `/api/models/${PRIVATE_REPO}/branch/squashed-${caller}`);
    await api("POST", `/api/models/${PRIVATE_REPO}/tag/main`, { tag: `doomed-${caller}` });
    for (const name of [`delete-me-${caller}`, `move-me-${caller}`]) {
      await api("POST", "/api/repos/create", { type: "model", name, organization: "acme", private: true });
    }
  }
  // The first upload batch makes the hub's upload-signing secret: the matrix's batches find it there.
  await api("POST", `/${PRIVATE_REPO}.git/info/lfs/objects/batch`, {
    operation: "upload",
    transfers: ["basic"],
    objects: [{ oid: "b".repeat(64), size: 1 }],
  });
  await api("POST", `/api/models/${PRIVATE_REPO}/discussions`, {
    title: "First",
    description: "Hello",
    pullRequest: false,
  });
  // An LFS file of the private repository, whose sha256 the batch rows name from elsewhere.
  const batch = await api("POST", `/${PRIVATE_REPO}.git/info/lfs/objects/batch`, {
    operation: "upload",
    transfers: ["basic"],
    objects: [{ oid: PRIVATE_OBJECT_OID, size: PRIVATE_OBJECT.length }],
  });
  const { objects } = (await batch.json()) as { objects: Array<{ actions: { upload: { href: string } } }> };
  const put = await fetch(objects[0]!.actions.upload.href, { method: "PUT", body: PRIVATE_OBJECT });
  expect(put.status).toBe(200);
  await api("POST", `/api/models/${PRIVATE_REPO}/commit/main`, {
    summary: "Add weights",
    lfsFiles: [{ path: "weights.bin", algo: "sha256", oid: PRIVATE_OBJECT_OID, size: PRIVATE_OBJECT.length }],
  });
  // A pull request on the gated repository whose diff prints a file: #1.
  await api("POST", `/api/models/${GATED}/commit/main?create_pr=1`, {
    summary: "Drop the attributes",
    deletedFiles: [{ path: ".gitattributes" }],
  });
}
