import { CALLERS, type Caller, type Expected, READ_PRIVATE_REPO, type Row, SEES_PRIVATE, WRITE_PRIVATE_REPO } from "./callers.js";
import { fixture, PRIVATE_REPO } from "./fixture.js";

/**
 * The collections API (collections/collections-routes.ts) on private collections of acme: seen by its
 * members and the site admin only (a 404 to everyone else, the anonymous included: a collection has no
 * sign-in prompt), edited by those who may write in acme. Each caller acts on its own collections (seeded by
 * seedCollections), so one caller's success never changes the next one's target.
 */
const SEE: Expected = { ...READ_PRIVATE_REPO, anonymous: 404 };
const EDIT: Expected = { ...WRITE_PRIVATE_REPO, anonymous: 404 };

const seeded = {
  /** A private acme collection per caller, two items in it (one patched, one deleted by the rows). */
  edit: {} as Record<Caller, { slug: string; patched: string; deleted: string }>,
  /** A private acme collection per caller, deleted by the row. */
  doomed: {} as Record<Caller, string>,
};

export async function seedCollections(hubUrl: string): Promise<void> {
  const headers = {
    Authorization: `Bearer ${fixture.tokenOf.siteAdmin}`,
    "Content-Type": "application/json",
  };
  const call = async (path: string, body: unknown) => {
    const response = await fetch(`${hubUrl}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { slug: string; items: { _id: string }[] };
  };
  for (const caller of CALLERS) {
    const edit = await call("/api/collections", { title: `edit ${caller}`, namespace: "acme", private: true });
    await call(`/api/collections/${edit.slug}/items`, { item: { type: "model", id: PRIVATE_REPO } });
    const full = await call(`/api/collections/${edit.slug}/items`, { item: { type: "space", id: PRIVATE_REPO } });
    seeded.edit[caller] = { slug: edit.slug, patched: full.items[0]!._id, deleted: full.items[1]!._id };
    seeded.doomed[caller] = (
      await call("/api/collections", { title: `doomed ${caller}`, namespace: "acme", private: true })
    ).slug;
  }
}

/** Whether the listing shows a private collection of acme. */
const listsPrivateCollection = (response: Response, body: unknown): string =>
  response.status !== 200
    ? String(response.status)
    : (body as { private: boolean }[]).some((collection) => collection.private)
      ? "listed"
      : "hidden";

export const COLLECTION_ROWS: Row[] = [
  {
    route: "GET /api/collections",
    name: "list acme's collections (private ones hidden from outsiders)",
    method: "GET",
    path: "/api/collections?owner=acme",
    outcome: listsPrivateCollection,
    expected: SEES_PRIVATE,
  },
  {
    route: "POST /api/collections",
    name: "create a collection in the organization",
    method: "POST",
    path: "/api/collections",
    body: (caller) => ({ title: `made by ${caller}`, namespace: "acme", private: true }),
    writes: true,
    expected: { ...WRITE_PRIVATE_REPO, otherUser: 403, fineGrainedOutOfScope: 403 },
  },
  {
    route: "GET /api/collections/:namespace/:slug",
    name: "read a private collection",
    method: "GET",
    path: (caller) => `/api/collections/${seeded.edit[caller].slug}`,
    expected: SEE,
  },
  {
    route: "PATCH /api/collections/:namespace/:slug",
    name: "rename a private collection",
    method: "PATCH",
    path: (caller) => `/api/collections/${seeded.edit[caller].slug}`,
    body: { title: "renamed", description: "changed" },
    writes: true,
    expected: EDIT,
  },
  {
    route: "POST /api/collections/:namespace/:slug/items",
    name: "add a private repository to a private collection",
    method: "POST",
    path: (caller) => `/api/collections/${seeded.edit[caller].slug}/items`,
    body: { item: { type: "dataset", id: "acme/private-repo" }, note: "added" },
    writes: true,
    expected: EDIT,
  },
  {
    route: "PATCH /api/collections/:namespace/:slug/items/:itemId",
    name: "move an item of a private collection",
    method: "PATCH",
    path: (caller) => `/api/collections/${seeded.edit[caller].slug}/items/${seeded.edit[caller].patched}`,
    body: { position: 5, note: "moved" },
    writes: true,
    expected: EDIT,
  },
  {
    route: "DELETE /api/collections/:namespace/:slug/items/:itemId",
    name: "remove an item of a private collection",
    method: "DELETE",
    path: (caller) => `/api/collections/${seeded.edit[caller].slug}/items/${seeded.edit[caller].deleted}`,
    writes: true,
    expected: EDIT,
  },
  {
    route: "DELETE /api/collections/:namespace/:slug",
    name: "delete a private collection",
    method: "DELETE",
    path: (caller) => `/api/collections/${seeded.doomed[caller]}`,
    writes: true,
    expected: EDIT,
  },
];
