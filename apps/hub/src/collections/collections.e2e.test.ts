import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createCollection, createRepo, deleteCollection, listCollections } from "@huggingface/hub";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { hfClientEnv, runPython } from "../__fixtures__/python-client.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { accountsService } from "../accounts/accounts-service.js";

let alice: string;
let bob: string;
let aliceRead: string;
const hub = useTestHub();
beforeAll(async () => {
  alice = await userToken(hub.store, "alice");
  bob = await userToken(hub.store, "bob");
  aliceRead = await userToken(hub.store, "alice", "read");
  const accounts = accountsService(hub.store.accounts);
  await accounts.createOrg({ name: "acme", owner: "alice" });
  const hubUrl = hub.url;
  await createRepo({ repo: "alice/public-model", accessToken: alice, hubUrl });
  await createRepo({ repo: "alice/private-model", accessToken: alice, hubUrl, visibility: "private" });
  await createRepo({ repo: { type: "dataset", name: "bob/public-data" }, accessToken: bob, hubUrl });
});

async function api(path: string, token: string | undefined, init: { method?: string; body?: unknown } = {}) {
  const response = await fetch(`${hub.url}${path}`, {
    method: init.method ?? "GET",
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(init.body !== undefined ? { "Content-Type": "application/json" } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * The calls of @huggingface/hub's collectionInfo, addCollectionItem and deleteCollectionItem (in its source,
 * not exported by the 2.x package): the same requests, made here.
 */
interface CollectionView {
  slug: string;
  title: string;
  description?: string;
  private: boolean;
  owner: { name: string; type: string };
  items: { _id: string; type: string; id: string; position: number; note?: { text: string; html: string } }[];
}
class ClientError extends Error {
  constructor(readonly statusCode: number) {
    super(`HTTP ${statusCode}`);
  }
}
async function clientCall(url: string, init: RequestInit) {
  const response = await fetch(url, init);
  if (!response.ok) throw new ClientError(response.status);
  return response.json();
}
const headers = (accessToken?: string) => ({
  "Content-Type": "application/json",
  ...(accessToken ? { Authorization: `Bearer ${accessToken}` } : {}),
});
function collectionInfo(params: {
  slug: string;
  hubUrl: string;
  accessToken?: string;
}): Promise<CollectionView> {
  return clientCall(`${params.hubUrl}/api/collections/${params.slug}`, {
    headers: headers(params.accessToken),
  });
}
async function addCollectionItem(params: {
  slug: string;
  item: { type: string; id: string };
  note?: string;
  hubUrl: string;
  accessToken: string;
}): Promise<void> {
  await clientCall(`${params.hubUrl}/api/collections/${params.slug}/items`, {
    method: "POST",
    body: JSON.stringify({ item: params.item, note: params.note }),
    headers: headers(params.accessToken),
  });
}
async function deleteCollectionItem(params: {
  slug: string;
  itemId: string;
  hubUrl: string;
  accessToken: string;
}) {
  await clientCall(`${params.hubUrl}/api/collections/${params.slug}/items/${params.itemId}`, {
    method: "DELETE",
    headers: headers(params.accessToken),
  });
}

async function titles(params: { owner?: string[]; accessToken?: string }) {
  const found: string[] = [];
  for await (const collection of listCollections({
    search: { owner: params.owner },
    hubUrl: hub.url,
    accessToken: params.accessToken,
  })) {
    found.push(collection.title);
  }
  return found.sort();
}

describe("collections through @huggingface/hub", () => {
  it("creates, lists, adds and removes items, deletes", async () => {
    const hubUrl = hub.url;
    const { slug } = await createCollection({
      collection: { title: "Favourite models", namespace: "alice", description: "Mine" },
      accessToken: alice,
      hubUrl,
    });
    expect(slug).toMatch(/^alice\/favourite-models-[0-9a-f]{24}$/);
    await addCollectionItem({
      slug,
      item: { type: "model", id: "alice/public-model" },
      note: "the <best>",
      accessToken: alice,
      hubUrl,
    });
    await addCollectionItem({
      slug,
      item: { type: "dataset", id: "bob/public-data" },
      accessToken: alice,
      hubUrl,
    });
    // An item already there: 409, as on the public hub.
    await expect(
      addCollectionItem({
        slug,
        item: { type: "model", id: "alice/public-model" },
        accessToken: alice,
        hubUrl,
      }),
    ).rejects.toMatchObject({ statusCode: 409 });

    const info = await collectionInfo({ slug, hubUrl });
    expect(info).toMatchObject({ slug, title: "Favourite models", description: "Mine", private: false });
    expect(info.owner).toMatchObject({ name: "alice", type: "user" });
    expect(info.items.map((item) => [item.type, item.id, item.position])).toEqual([
      ["model", "alice/public-model", 0],
      ["dataset", "bob/public-data", 1],
    ]);
    expect(info.items[0]?.note).toEqual({ text: "the <best>", html: "the &#60;best&#62;" });

    await deleteCollectionItem({ slug, itemId: info.items[0]!._id, accessToken: alice, hubUrl });
    expect((await collectionInfo({ slug, hubUrl })).items.map((item) => item.id)).toEqual([
      "bob/public-data",
    ]);

    await createCollection({
      collection: { title: "Org picks", namespace: "acme" },
      accessToken: alice,
      hubUrl,
    });
    expect(await titles({ owner: ["alice"] })).toEqual(["Favourite models"]);
    expect(await titles({ owner: ["acme", "alice"] })).toEqual(["Favourite models", "Org picks"]);

    await deleteCollection({ slug, accessToken: alice, hubUrl });
    await expect(collectionInfo({ slug, hubUrl })).rejects.toMatchObject({ statusCode: 404 });
  });

  it("a private collection is its owner's alone; items are only what the caller may read", async () => {
    const hubUrl = hub.url;
    const { slug } = await createCollection({
      collection: { title: "Secret list", namespace: "alice", private: true },
      accessToken: alice,
      hubUrl,
    });
    await addCollectionItem({
      slug,
      item: { type: "model", id: "alice/private-model" },
      accessToken: alice,
      hubUrl,
    });
    expect((await collectionInfo({ slug, hubUrl, accessToken: alice })).items.map((item) => item.id)).toEqual(
      ["alice/private-model"],
    );
    // Another user and the anonymous: as if it did not exist, in listings too.
    await expect(collectionInfo({ slug, hubUrl, accessToken: bob })).rejects.toMatchObject({
      statusCode: 404,
    });
    await expect(collectionInfo({ slug, hubUrl })).rejects.toMatchObject({ statusCode: 404 });
    expect(await titles({ owner: ["alice"], accessToken: bob })).not.toContain("Secret list");
    expect(await titles({ owner: ["alice"], accessToken: alice })).toContain("Secret list");
    for (const [method, path, body] of [
      ["PATCH", `/api/collections/${slug}`, { title: "Taken" }],
      ["DELETE", `/api/collections/${slug}`, undefined],
      ["POST", `/api/collections/${slug}/items`, { item: { type: "dataset", id: "bob/public-data" } }],
    ] as const) {
      expect((await api(path, bob, { method, body })).status).toBe(404);
    }

    // A public collection: bob may not edit it, nor add alice's private model to his own.
    const { slug: open } = await createCollection({
      collection: { title: "Open list", namespace: "alice" },
      accessToken: alice,
      hubUrl,
    });
    await addCollectionItem({
      slug: open,
      item: { type: "model", id: "alice/private-model" },
      accessToken: alice,
      hubUrl,
    });
    await addCollectionItem({
      slug: open,
      item: { type: "model", id: "alice/public-model" },
      accessToken: alice,
      hubUrl,
    });
    expect(
      (await api(`/api/collections/${open}`, bob, { method: "PATCH", body: { title: "Mine" } })).status,
    ).toBe(403);
    expect((await api(`/api/collections/${open}`, undefined, { method: "DELETE" })).status).toBe(401);
    expect((await api(`/api/collections/${open}`, aliceRead, { method: "DELETE" })).status).toBe(403);
    // The private item is not shown to those who may not read it.
    const seen = await collectionInfo({ slug: open, hubUrl, accessToken: bob });
    expect(seen.items.map((item) => item.id)).toEqual(["alice/public-model"]);
    const { slug: bobs } = await createCollection({
      collection: { title: "Bob's", namespace: "bob" },
      accessToken: bob,
      hubUrl,
    });
    const refused = await api(`/api/collections/${bobs}/items`, bob, {
      method: "POST",
      body: { item: { type: "model", id: "alice/private-model" } },
    });
    expect(refused.status).toBe(404);
    expect((await collectionInfo({ slug: bobs, hubUrl })).items).toEqual([]);
    // Nor in alice's organization, which he is not a member of.
    const inOrg = await api("/api/collections", bob, {
      method: "POST",
      body: { title: "Takeover", namespace: "acme" },
    });
    expect(inOrg.status).toBe(403);
  });

  it("huggingface_hub's collection methods: create, items and notes, metadata, listing, deletion", async () => {
    const suite = fileURLToPath(new URL("../__fixtures__/clients/hf_collections_suite.py", import.meta.url));
    const env = hfClientEnv(hub.url, join(hub.dir, "hf-home"), { HF_TOKEN: alice, BOB_TOKEN: bob });
    const result = await runPython([suite], env, 120_000);
    expect(result.code, `${result.stdout.slice(-2000)}\n${result.stderr.slice(-4000)}`).toBe(0);
    expect(JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "").steps).toHaveLength(3);
  }, 150_000);
});
