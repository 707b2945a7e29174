import { randomBytes } from "node:crypto";
import type { Actor } from "../auth/actor.js";
import type { Authorizer, RepoResource } from "../auth/authorize.js";
import { ConflictError, InvalidInputError, NotFoundError } from "../errors.js";
import type { Queryable } from "../store/database.js";
import {
  type CollectionItemRecord,
  type CollectionItemType,
  type CollectionRecord,
  createCollectionsTable,
} from "./collections-table.js";

export const THEMES = ["orange", "blue", "green", "purple", "pink", "indigo"] as const;
const REPO_TYPES = ["model", "dataset", "space"] as const;
type RepoItemType = (typeof REPO_TYPES)[number];
/** At most this many items per collection (the public hub caps collections too). */
const MAX_ITEMS = 1000;

/** A repository as a collection shows it: what the caller may see decides whether it is shown at all. */
export interface CollectionRepo {
  type: RepoItemType;
  id: string;
  private: boolean;
  gated: false | "auto" | "manual";
  lastModified: string;
  resource: RepoResource;
}

export interface CollectionsServiceDeps {
  db: Queryable;
  authorizer: Authorizer;
  /** A repository by type and id (case-insensitive), or undefined. */
  findRepo(type: RepoItemType, id: string): Promise<CollectionRepo | undefined>;
  /** Whether a namespace is a user or an organization (undefined: neither). */
  namespaceKind(name: string): Promise<"user" | "org" | undefined>;
  publicUrl: string;
  now?: () => Date;
}

/** 404 for a collection that does not exist and one the caller may not see alike. */
export class CollectionNotFoundError extends NotFoundError {
  constructor(slug: string) {
    super(`Collection ${JSON.stringify(slug.slice(0, 200))} not found.`);
  }
}

/** The id a slug ends with (`owner/title-words-<24 hex>`), or the slug itself when it is only the id. */
function idOfSlug(slug: string): string | undefined {
  return /(?:^|[-/])([0-9a-f]{24})$/.exec(slug)?.[1];
}

function slugTitle(title: string): string {
  const words = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return words || "collection";
}

export const slugOf = (record: Pick<CollectionRecord, "owner" | "title" | "id">) =>
  `${record.owner}/${slugTitle(record.title)}-${record.id}`;

const newId = () => randomBytes(12).toString("hex");

/**
 * Collections, as huggingface_hub's create_collection & co. and @huggingface/hub's collection functions call
 * them. A collection belongs to a namespace: who may write there (the user, an org's writers) edits it; a
 * private one is seen by the same people as a private repository of that namespace, and is a 404 to others.
 * An item is shown only to those who may read it, and only what the adder may read can be added.
 */
export function createCollectionsService(deps: CollectionsServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const table = createCollectionsTable(deps.db);

  /** Who may see a private collection of `owner`: as a private repository there (members, site admins). */
  const mayReadPrivate = (actor: Actor, owner: string) =>
    deps.authorizer.can(actor, "read", {
      kind: "repo",
      type: "model",
      owner,
      name: "collection",
      private: true,
      gated: false,
    });

  async function visible(actor: Actor, slug: string): Promise<CollectionRecord> {
    const id = idOfSlug(slug);
    const record = id ? await table.get(id) : undefined;
    const owner = slug.includes("/") ? slug.slice(0, slug.indexOf("/")) : undefined;
    if (!record || (owner !== undefined && owner.toLowerCase() !== record.owner.toLowerCase())) {
      throw new CollectionNotFoundError(slug);
    }
    if (record.private && !(await mayReadPrivate(actor, record.owner)))
      throw new CollectionNotFoundError(slug);
    return record;
  }

  /** A collection the caller may edit: seen first (else 404), then write on its namespace (else 403/401). */
  async function editable(actor: Actor, slug: string): Promise<CollectionRecord> {
    const record = await visible(actor, slug);
    await deps.authorizer.authorize(actor, "write", { kind: "namespace", name: record.owner });
    return record;
  }

  /** The item as the caller may see it, or undefined when they may not (or it is gone). */
  async function itemView(
    actor: Actor,
    item: CollectionItemRecord,
  ): Promise<Record<string, unknown> | undefined> {
    const base = {
      _id: item.id,
      position: item.position,
      type: item.type,
      ...(item.note ? { note: { text: item.note, html: escapeHtml(item.note) } } : {}),
    };
    if (item.type === "collection") {
      const inner = await table.get(item.itemId);
      if (!inner || (inner.private && !(await mayReadPrivate(actor, inner.owner)))) return undefined;
      return {
        ...base,
        id: inner.id,
        slug: slugOf(inner),
        title: inner.title,
        description: inner.description,
        lastUpdated: inner.updatedAt,
        theme: inner.theme,
        upvotes: 0,
        isUpvotedByUser: false,
        owner: await ownerView(inner.owner),
        numberItems: (await table.items(inner.id)).length,
        shareUrl: `${deps.publicUrl}/collections/${slugOf(inner)}`,
      };
    }
    const repo = await deps.findRepo(item.type, item.itemId);
    if (!repo || !(await deps.authorizer.can(actor, "read", repo.resource))) return undefined;
    return {
      ...base,
      id: repo.id,
      repoType: repo.type,
      author: repo.resource.owner,
      private: repo.private,
      gated: repo.gated,
      lastModified: repo.lastModified,
      likes: 0,
      downloads: 0,
      isLikedByUser: false,
    };
  }

  async function ownerView(name: string) {
    const kind = (await deps.namespaceKind(name)) ?? "user";
    return { name, type: kind, fullname: name, isPro: false, isEnterprise: false };
  }

  /** The collection as the public hub answers it; `itemLimit` is the listing's (four items each). */
  async function view(actor: Actor, record: CollectionRecord, itemLimit = Number.POSITIVE_INFINITY) {
    const items = [];
    for (const item of await table.items(record.id)) {
      if (items.length >= itemLimit) break;
      const shown = await itemView(actor, item);
      if (shown) items.push(shown);
    }
    const slug = slugOf(record);
    return {
      slug,
      title: record.title,
      ...(record.description ? { description: record.description } : {}),
      owner: await ownerView(record.owner),
      items,
      lastUpdated: record.updatedAt,
      position: record.position,
      private: record.private,
      theme: record.theme,
      upvotes: 0,
      isUpvotedByUser: false,
      gating: false,
      shareUrl: `${deps.publicUrl}/collections/${slug}`,
    };
  }

  /** Checks the item exists and the caller may read it: a 404 naming it otherwise (hidden or missing alike). */
  async function addable(
    actor: Actor,
    type: string,
    id: string,
  ): Promise<{ type: CollectionItemType; id: string }> {
    if (type === "collection") {
      const inner = await visible(actor, id);
      return { type, id: inner.id };
    }
    if (!(REPO_TYPES as readonly string[]).includes(type)) {
      throw new InvalidInputError(
        `An item's type is one of ${[...REPO_TYPES, "collection"].join(", ")} (papers are not on this hub).`,
      );
    }
    const repo = await deps.findRepo(type as RepoItemType, id);
    if (!repo || !(await deps.authorizer.can(actor, "read", repo.resource))) {
      throw new NotFoundError(
        `${type === "model" ? "Model" : type === "dataset" ? "Dataset" : "Space"} ${id} not found.`,
      );
    }
    return { type: repo.type, id: repo.id };
  }

  return {
    async create(
      actor: Actor,
      input: { title: string; namespace: string; description?: string; private?: boolean },
    ): Promise<
      { created: true; collection: Awaited<ReturnType<typeof view>> } | { created: false; slug: string }
    > {
      const kind = await deps.namespaceKind(input.namespace);
      await deps.authorizer.authorize(actor, "write", { kind: "namespace", name: input.namespace });
      if (!kind) throw new NotFoundError(`No user or organization named ${input.namespace}.`);
      const stamp = now().toISOString();
      return deps.db.transaction(
        async (tx) => {
          await tx.lock(`collections:${input.namespace.toLowerCase()}`);
          const inTx = createCollectionsTable(tx);
          const existing = await inTx.byTitle(input.namespace, input.title);
          if (existing) return { created: false as const, slug: slugOf(existing) };
          const record: CollectionRecord = {
            id: newId(),
            owner: input.namespace,
            title: input.title,
            description: input.description,
            private: input.private ?? false,
            theme: THEMES[Math.floor(Math.random() * THEMES.length)]!,
            position: await inTx.nextPosition(input.namespace),
            createdAt: stamp,
            updatedAt: stamp,
          };
          await inTx.insert(record);
          return { created: true as const, collection: await view(actor, record) };
        },
        { immediate: true },
      );
    },

    async get(actor: Actor, slug: string) {
      return view(actor, await visible(actor, slug));
    },

    async list(
      actor: Actor,
      filter: { owners: string[]; item?: { type: string; id: string }; offset: number; limit: number },
    ) {
      // The namespaces whose private collections the caller may see (each is checked again below).
      const privateOf = (await deps.authorizer.can(actor, "manage", { kind: "site" }))
        ? "all"
        : actor.kind === "user"
          ? [actor.user.name, ...actor.memberships.map((m) => m.org.name)].map((name) => name.toLowerCase())
          : [];
      const records = await table.list({ ...filter, privateOf });
      const views = [];
      for (const record of records) {
        if (record.private && !(await mayReadPrivate(actor, record.owner))) continue;
        // A listing has no `position` (huggingface_hub's list_collections numbers them itself).
        const { position: _position, ...listed } = await view(actor, record, 4);
        views.push(listed);
      }
      return views;
    },

    async update(
      actor: Actor,
      slug: string,
      fields: { title?: string; description?: string; private?: boolean; theme?: string; position?: number },
    ) {
      const record = await editable(actor, slug);
      if (fields.theme !== undefined && !(THEMES as readonly string[]).includes(fields.theme)) {
        throw new InvalidInputError(`theme must be one of ${THEMES.join(", ")}.`);
      }
      await table.update(record.id, fields, now().toISOString());
      return view(actor, (await table.get(record.id))!);
    },

    async delete(actor: Actor, slug: string): Promise<void> {
      const record = await editable(actor, slug);
      await table.delete(record.id);
    },

    async addItem(actor: Actor, slug: string, input: { type: string; id: string; note?: string }) {
      const record = await editable(actor, slug);
      const item = await addable(actor, input.type, input.id);
      if (item.type === "collection" && item.id === record.id) {
        throw new InvalidInputError("A collection cannot hold itself.");
      }
      await deps.db.transaction(
        async (tx) => {
          await tx.lock(`collection:${record.id}`);
          const inTx = createCollectionsTable(tx);
          if (await inTx.hasItem(record.id, item.type, item.id)) {
            throw new ConflictError(`${item.id} is already in the collection.`);
          }
          const items = await inTx.items(record.id);
          if (items.length >= MAX_ITEMS)
            throw new InvalidInputError(`A collection holds at most ${MAX_ITEMS} items.`);
          const stamp = now().toISOString();
          await inTx.insertItem({
            id: newId(),
            collectionId: record.id,
            type: item.type,
            itemId: item.id,
            position: items.length === 0 ? 0 : Math.max(...items.map((i) => i.position)) + 1,
            note: input.note,
            addedAt: stamp,
          });
          await inTx.update(record.id, {}, stamp);
        },
        { immediate: true },
      );
      return view(actor, (await table.get(record.id))!);
    },

    async updateItem(
      actor: Actor,
      slug: string,
      itemId: string,
      fields: { position?: number; note?: string },
    ) {
      const record = await editable(actor, slug);
      if (!(await table.item(record.id, itemId)))
        throw new NotFoundError(`No item ${itemId} in the collection.`);
      await table.updateItem(itemId, fields);
      await table.update(record.id, {}, now().toISOString());
    },

    async deleteItem(actor: Actor, slug: string, itemId: string): Promise<void> {
      const record = await editable(actor, slug);
      if (!(await table.item(record.id, itemId)))
        throw new NotFoundError(`No item ${itemId} in the collection.`);
      await table.deleteItem(itemId);
      await table.update(record.id, {}, now().toISOString());
    },
  };
}

export type CollectionsService = ReturnType<typeof createCollectionsService>;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
