import type { Queryable } from "../store/database.js";
import { type LocalAppsInput, localAppsOf, localAppsRulesVersion } from "./model-filters.js";

const RULES_KEY = "local_apps_rules";
const BATCH = 500;

/** Writes `models.local_apps` of one row from its stored fields (after a write that changed them). */
export async function refreshLocalAppsOf(q: Queryable, id: string): Promise<void> {
  const row = await q.get<LocalAppsInput>(
    "SELECT pipeline_tag, library_name, tags, config, siblings, gguf FROM models WHERE id = ?",
    [id],
  );
  if (row) await q.run("UPDATE models SET local_apps = ? WHERE id = ?", [localAppsOf(row), id]);
}

/**
 * Fills `models.local_apps` where it is missing (rows from before the column), or everywhere when the local
 * apps' rules changed since it was computed. Run on open; a batch at a time.
 */
export async function refreshLocalApps(q: Queryable): Promise<number> {
  const version = localAppsRulesVersion();
  const stored = await q.get<{ value: string }>("SELECT value FROM meta WHERE key = ?", [RULES_KEY]);
  const all = stored?.value !== version;
  let updated = 0;
  let after = "";
  for (;;) {
    const rows = await q.all<LocalAppsInput & { id: string }>(
      `SELECT id, pipeline_tag, library_name, tags, config, siblings, gguf FROM models
       WHERE id > ? ${all ? "" : "AND local_apps IS NULL"} ORDER BY id LIMIT ?`,
      [after, BATCH],
    );
    if (rows.length === 0) break;
    await q.transaction(async (tx) => {
      for (const row of rows) {
        await tx.run("UPDATE models SET local_apps = ? WHERE id = ?", [localAppsOf(row), row.id]);
      }
    });
    updated += rows.length;
    after = rows[rows.length - 1]!.id;
  }
  if (all) {
    await q.run(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      [RULES_KEY, version],
    );
  }
  return updated;
}
