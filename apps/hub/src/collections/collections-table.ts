import type { Queryable } from "../store/database.js";

/** The collections' rows (migration 24: collections-migration.ts). */

export type CollectionItemType = "model" | "dataset" | "space" | "collection";

export interface CollectionRecord {
  /** 24 hex digits, the tail of the slug. */
  id: string;
  owner: string;
  title: string;
  description: string | undefined;
  private: boolean;
  theme: string;
  position: number;
  createdAt: string;
  updatedAt: string;
}

export interface CollectionItemRecord {
  id: string;
  collectionId: string;
  type: CollectionItemType;
  /** A repository id, or a collection's id (24 hex digits). */
  itemId: string;
  position: number;
  note: string | undefined;
  addedAt: string;
}

interface CollectionRow {
  id: string;
  owner: string;
  title: string;
  description: string | null;
  private: number | string;
  theme: string;
  position: number | string;
  created_at: string;
  updated_at: string;
}

interface ItemRow {
  id: string;
  collection_id: string;
  item_type: CollectionItemType;
  item_id: string;
  position: number | string;
  note: string | null;
  added_at: string;
}

const COLLECTION_COLUMNS = "id, owner, title, description, private, theme, position, created_at, updated_at";
const ITEM_COLUMNS = "id, collection_id, item_type, item_id, position, note, added_at";

const collectionFromRow = (row: CollectionRow): CollectionRecord => ({
  id: row.id,
  owner: row.owner,
  title: row.title,
  description: row.description ?? undefined,
  private: Number(row.private) === 1,
  theme: row.theme,
  position: Number(row.position),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const itemFromRow = (row: ItemRow): CollectionItemRecord => ({
  id: row.id,
  collectionId: row.collection_id,
  type: row.item_type,
  itemId: row.item_id,
  position: Number(row.position),
  note: row.note ?? undefined,
  addedAt: row.added_at,
});

const itemKey = (type: string, id: string) => `${type}:${id.toLowerCase()}`;

export function createCollectionsTable(q: Queryable) {
  return {
    async insert(record: CollectionRecord): Promise<void> {
      await q.run(
        `INSERT INTO collections (id, owner, owner_key, title, description, private, theme, position, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          record.id,
          record.owner,
          record.owner.toLowerCase(),
          record.title,
          record.description ?? null,
          record.private ? 1 : 0,
          record.theme,
          record.position,
          record.createdAt,
          record.updatedAt,
        ],
      );
    },

    async get(id: string): Promise<CollectionRecord | undefined> {
      const row = await q.get<CollectionRow>(`SELECT ${COLLECTION_COLUMNS} FROM collections WHERE id = ?`, [
        id,
      ]);
      return row ? collectionFromRow(row) : undefined;
    },

    /** An owner's collection of that title (creation is refused twice with one title, as on the public hub). */
    async byTitle(owner: string, title: string): Promise<CollectionRecord | undefined> {
      const row = await q.get<CollectionRow>(
        `SELECT ${COLLECTION_COLUMNS} FROM collections WHERE owner_key = ? AND title = ?`,
        [owner.toLowerCase(), title],
      );
      return row ? collectionFromRow(row) : undefined;
    },

    /** The next position at the end of an owner's collections. */
    async nextPosition(owner: string): Promise<number> {
      const row = await q.get<{ last: number | string | null }>(
        "SELECT MAX(position) AS last FROM collections WHERE owner_key = ?",
        [owner.toLowerCase()],
      );
      return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
    },

    /**
     * Collections, newest change first: of the owners given (any when empty), holding an item when given,
     * private ones only of the owners in `privateOf` (lower-cased). Paged by offset.
     */
    async list(filter: {
      owners: readonly string[];
      item?: { type: string; id: string };
      /** Owners whose private collections may be listed (lower-cased), or "all" (a site administrator). */
      privateOf: readonly string[] | "all";
      offset: number;
      limit: number;
    }): Promise<CollectionRecord[]> {
      const where: string[] = [];
      const params: unknown[] = [];
      if (filter.owners.length > 0) {
        where.push(`owner_key IN (${filter.owners.map(() => "?").join(", ")})`);
        params.push(...filter.owners.map((owner) => owner.toLowerCase()));
      }
      if (filter.item) {
        where.push("id IN (SELECT collection_id FROM collection_items WHERE item_key = ?)");
        params.push(itemKey(filter.item.type, filter.item.id));
      }
      if (filter.privateOf !== "all") {
        where.push(
          filter.privateOf.length
            ? `(private = 0 OR owner_key IN (${filter.privateOf.map(() => "?").join(", ")}))`
            : "private = 0",
        );
        params.push(...filter.privateOf);
      }
      const rows = await q.all<CollectionRow>(
        `SELECT ${COLLECTION_COLUMNS} FROM collections ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
         ORDER BY updated_at DESC, id LIMIT ? OFFSET ?`,
        [...params, filter.limit, filter.offset],
      );
      return rows.map(collectionFromRow);
    },

    async update(
      id: string,
      fields: Partial<Pick<CollectionRecord, "title" | "description" | "private" | "theme" | "position">>,
      now: string,
    ): Promise<void> {
      const sets: string[] = ["updated_at = ?"];
      const params: unknown[] = [now];
      if (fields.title !== undefined) sets.push("title = ?") && params.push(fields.title);
      if (fields.description !== undefined) sets.push("description = ?") && params.push(fields.description);
      if (fields.private !== undefined) sets.push("private = ?") && params.push(fields.private ? 1 : 0);
      if (fields.theme !== undefined) sets.push("theme = ?") && params.push(fields.theme);
      if (fields.position !== undefined) sets.push("position = ?") && params.push(fields.position);
      await q.run(`UPDATE collections SET ${sets.join(", ")} WHERE id = ?`, [...params, id]);
    },

    async delete(id: string): Promise<boolean> {
      await q.run("DELETE FROM collection_items WHERE collection_id = ?", [id]);
      return (await q.run("DELETE FROM collections WHERE id = ?", [id])) > 0;
    },

    async items(collectionId: string): Promise<CollectionItemRecord[]> {
      const rows = await q.all<ItemRow>(
        `SELECT ${ITEM_COLUMNS} FROM collection_items WHERE collection_id = ? ORDER BY position, added_at, id`,
        [collectionId],
      );
      return rows.map(itemFromRow);
    },

    async item(collectionId: string, id: string): Promise<CollectionItemRecord | undefined> {
      const row = await q.get<ItemRow>(
        `SELECT ${ITEM_COLUMNS} FROM collection_items WHERE collection_id = ? AND id = ?`,
        [collectionId, id],
      );
      return row ? itemFromRow(row) : undefined;
    },

    async hasItem(collectionId: string, type: string, itemId: string): Promise<boolean> {
      const row = await q.get<{ id: string }>(
        "SELECT id FROM collection_items WHERE collection_id = ? AND item_key = ?",
        [collectionId, itemKey(type, itemId)],
      );
      return row !== undefined;
    },

    async insertItem(record: CollectionItemRecord): Promise<void> {
      await q.run(
        `INSERT INTO collection_items (id, collection_id, item_type, item_id, item_key, position, note, added_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          record.id,
          record.collectionId,
          record.type,
          record.itemId,
          itemKey(record.type, record.itemId),
          record.position,
          record.note ?? null,
          record.addedAt,
        ],
      );
    },

    async updateItem(id: string, fields: { position?: number; note?: string }): Promise<void> {
      const sets: string[] = [];
      const params: unknown[] = [];
      if (fields.position !== undefined) sets.push("position = ?") && params.push(fields.position);
      if (fields.note !== undefined) sets.push("note = ?") && params.push(fields.note);
      if (sets.length === 0) return;
      await q.run(`UPDATE collection_items SET ${sets.join(", ")} WHERE id = ?`, [...params, id]);
    },

    async deleteItem(id: string): Promise<boolean> {
      return (await q.run("DELETE FROM collection_items WHERE id = ?", [id])) > 0;
    },
  };
}

export type CollectionsTable = ReturnType<typeof createCollectionsTable>;
