import type { Queryable } from "./database.js";

/** Small named values the hub keeps about itself (when the catalogue was seeded, and such). */
export function createMetaTable(q: Queryable) {
  return {
    async get(key: string): Promise<string | undefined> {
      return (await q.get<{ value: string }>("SELECT value FROM meta WHERE key = ?", [key]))?.value;
    },
    /** The value under `key`, storing `value` first when there is none (the first writer wins, on any replica). */
    async getOrCreate(key: string, value: string): Promise<string> {
      await q.run("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", [key, value]);
      return (await q.get<{ value: string }>("SELECT value FROM meta WHERE key = ?", [key]))!.value;
    },
    async delete(key: string): Promise<void> {
      await q.run("DELETE FROM meta WHERE key = ?", [key]);
    },
    async set(key: string, value: string): Promise<void> {
      await q.run(
        "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [key, value],
      );
    },
  };
}

export type MetaTable = ReturnType<typeof createMetaTable>;
