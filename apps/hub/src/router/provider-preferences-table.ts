import type { Queryable } from "../store/database.js";

/** How long a user's order is reused on the router's hot path (other hub processes see a change this late). */
export const PREFERENCES_TTL_MS = 2000;
const MAX_CACHED = 10_000;

/**
 * Each user's order of inference providers (the public hub's Settings > Inference Providers): the router's
 * `auto` choice and the order of the model API's `inferenceProviderMapping` for that user. Asynchronous like
 * every new store method (PostgreSQL). Reads are cached briefly per user, as the router reads the order on
 * every call; a write here clears its user's entry at once.
 */
export function createProviderPreferencesTable(db: Queryable, now = () => performance.now()) {
  const cache = new Map<number, { providers: readonly string[]; expires: number }>();

  return {
    /** The user's providers, most preferred first; empty when they never set an order. */
    async get(userId: number): Promise<readonly string[]> {
      const at = now();
      const cached = cache.get(userId);
      if (cached && cached.expires > at) return cached.providers;
      const rows = await db.all<{ provider: string }>(
        "SELECT provider FROM provider_preferences WHERE user_id = ? ORDER BY position",
        [userId],
      );
      const providers = Object.freeze(rows.map((row) => row.provider));
      if (cache.size >= MAX_CACHED) cache.clear();
      cache.set(userId, { providers, expires: at + PREFERENCES_TTL_MS });
      return providers;
    },

    /** Replaces the user's order (an empty list: back to the hub's default order). */
    async set(userId: number, providers: readonly string[]): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.run("DELETE FROM provider_preferences WHERE user_id = ?", [userId]);
        for (const [position, provider] of providers.entries()) {
          await tx.run("INSERT INTO provider_preferences (user_id, position, provider) VALUES (?, ?, ?)", [
            userId,
            position,
            provider,
          ]);
        }
      });
      cache.delete(userId);
    },
  };
}
