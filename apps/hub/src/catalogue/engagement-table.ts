import { placeholders, type Queryable } from "../store/database.js";

/** A repository's downloads to add for one UTC day (`YYYY-MM-DD`), and its model id when it is a model. */
export interface DownloadIncrement {
  repoKey: number;
  day: string;
  downloads: number;
  /** The model's id: its `models.downloads` (what listings sort by) grows too. */
  modelId?: string;
}

/** The figures a catalogue record brought from its source (huggingface.co), shown labelled as such. */
export interface SourceFigures {
  source: string;
  downloads: number;
  likes: number;
}

/**
 * This hub's own likes and download counts (migration 36), and the source figures kept apart from them.
 * `models.likes` / `models.downloads` are kept in step here, since listings sort by them.
 */
export function createEngagementTable(q: Queryable, now: () => Date) {
  const countLikes = async (repoKey: number) =>
    Number(
      (await q.get<{ n: number | string }>("SELECT count(*) AS n FROM repo_likes WHERE repo_id = ?", [
        repoKey,
      ]))!.n,
    );
  return {
    /** Records `userId`'s like; false if they liked it already. `modelId`: the model row to keep in step. */
    async like(userId: number, repoKey: number, modelId?: string): Promise<boolean> {
      const added = await q.run(
        "INSERT INTO repo_likes (user_id, repo_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
        [userId, repoKey, now().toISOString()],
      );
      if (added && modelId) await q.run("UPDATE models SET likes = likes + 1 WHERE id = ?", [modelId]);
      return added > 0;
    },

    /** Withdraws `userId`'s like; false if there was none. */
    async unlike(userId: number, repoKey: number, modelId?: string): Promise<boolean> {
      const removed = await q.run("DELETE FROM repo_likes WHERE user_id = ? AND repo_id = ?", [
        userId,
        repoKey,
      ]);
      if (removed && modelId) {
        await q.run("UPDATE models SET likes = CASE WHEN likes > 0 THEN likes - 1 ELSE 0 END WHERE id = ?", [
          modelId,
        ]);
      }
      return removed > 0;
    },

    likes: countLikes,

    /** Likes of several repositories at once (a listing's page); a repository without likes is absent. */
    async likesOf(repoKeys: readonly number[]): Promise<Map<number, number>> {
      if (!repoKeys.length) return new Map();
      const rows = await q.all<{ repo_id: number | string; n: number | string }>(
        `SELECT repo_id, count(*) AS n FROM repo_likes WHERE repo_id IN (${placeholders(repoKeys)}) GROUP BY repo_id`,
        repoKeys,
      );
      return new Map(rows.map((row) => [Number(row.repo_id), Number(row.n)]));
    },

    async hasLiked(userId: number, repoKey: number): Promise<boolean> {
      return (
        (await q.get("SELECT 1 AS one FROM repo_likes WHERE user_id = ? AND repo_id = ?", [
          userId,
          repoKey,
        ])) !== undefined
      );
    },

    /** Who likes a repository (user ids), newest like first. */
    async likerIds(repoKey: number, limit: number): Promise<number[]> {
      const rows = await q.all<{ user_id: number | string }>(
        "SELECT user_id FROM repo_likes WHERE repo_id = ? ORDER BY created_at DESC, user_id LIMIT ?",
        [repoKey, limit],
      );
      return rows.map((row) => Number(row.user_id));
    },

    /** The repositories `userId` likes, newest like first. */
    async likedBy(userId: number, limit: number): Promise<{ repoKey: number; createdAt: string }[]> {
      const rows = await q.all<{ repo_id: number | string; created_at: string }>(
        "SELECT repo_id, created_at FROM repo_likes WHERE user_id = ? ORDER BY created_at DESC, repo_id LIMIT ?",
        [userId, limit],
      );
      return rows.map((row) => ({ repoKey: Number(row.repo_id), createdAt: row.created_at }));
    },

    /** Adds a batch of counted downloads in one transaction (the download counter's flush). */
    async addDownloads(increments: readonly DownloadIncrement[]): Promise<void> {
      if (!increments.length) return;
      await q.transaction(async (tx) => {
        for (const { repoKey, day, downloads, modelId } of increments) {
          await tx.run(
            `INSERT INTO repo_download_days (repo_id, day, downloads) VALUES (?, ?, ?)
             ON CONFLICT (repo_id, day) DO UPDATE SET downloads = repo_download_days.downloads + excluded.downloads`,
            [repoKey, day, downloads],
          );
          if (modelId)
            await tx.run("UPDATE models SET downloads = downloads + ? WHERE id = ?", [downloads, modelId]);
        }
      });
    },

    /** A repository's downloads since `sinceDay` (inclusive; all of them without it). */
    async downloads(repoKey: number, sinceDay?: string): Promise<number> {
      const row = await q.get<{ n: number | string | null }>(
        `SELECT sum(downloads) AS n FROM repo_download_days WHERE repo_id = ?${sinceDay ? " AND day >= ?" : ""}`,
        sinceDay ? [repoKey, sinceDay] : [repoKey],
      );
      return Number(row?.n ?? 0);
    },

    /**
     * Repositories by recent activity: downloads since `sinceDay` plus `likeWeight` per like since then, the
     * highest first. Every repository, private ones too: the caller filters what the reader may see.
     */
    async trending(
      sinceDay: string,
      likeWeight: number,
      limit: number,
    ): Promise<{ repoKey: number; score: number }[]> {
      const rows = await q.all<{ repo_id: number | string; score: number | string }>(
        `SELECT repo_id, sum(score) AS score FROM (
           SELECT repo_id, downloads AS score FROM repo_download_days WHERE day >= ?
           UNION ALL SELECT repo_id, ${Math.round(likeWeight)} AS score FROM repo_likes WHERE created_at >= ?
         ) recent GROUP BY repo_id ORDER BY sum(score) DESC, repo_id LIMIT ?`,
        [sinceDay, sinceDay, limit],
      );
      return rows.map((row) => ({ repoKey: Number(row.repo_id), score: Number(row.score) }));
    },

    async setSourceFigures(modelId: string, figures: SourceFigures): Promise<void> {
      await q.run(
        `INSERT INTO model_source_figures (model_id, source, downloads, likes) VALUES (?, ?, ?, ?)
         ON CONFLICT (model_id) DO UPDATE SET source = excluded.source, downloads = excluded.downloads,
           likes = excluded.likes`,
        [modelId, figures.source, figures.downloads, figures.likes],
      );
    },

    async sourceFigures(modelId: string): Promise<SourceFigures | undefined> {
      const row = await q.get<{ source: string; downloads: number | string; likes: number | string }>(
        "SELECT source, downloads, likes FROM model_source_figures WHERE model_id = ?",
        [modelId],
      );
      return row
        ? { source: row.source, downloads: Number(row.downloads), likes: Number(row.likes) }
        : undefined;
    },
  };
}

export type EngagementTable = ReturnType<typeof createEngagementTable>;
