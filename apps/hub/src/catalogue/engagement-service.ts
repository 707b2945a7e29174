import { avatarPath } from "../accounts/public-shapes.js";
import type { Actor } from "../auth/actor.js";
import { UnauthorizedError } from "../errors.js";
import type { RepoRecord } from "../repos/repo-records.js";
import type { Store } from "../store/store.js";
import type { SourceFigures } from "./engagement-table.js";

/** Whether `actor` may read a repository (the repositories' own decision: repos/repo-access.ts). */
export type CanRead = (actor: Actor, repo: RepoRecord) => Promise<boolean>;

/** One like as the public hub lists a user's likes (huggingface_hub's `list_liked_repos`). */
export interface LikeView {
  createdAt: string;
  repo: { name: string; type: RepoRecord["type"] };
}

/** A repository on the landing page: trending by this hub's own recent downloads and likes. */
export interface TrendingRepo {
  type: RepoRecord["type"];
  id: string;
  score: number;
}

/** How far back "trending" looks, and what one like weighs against one download. */
const TRENDING_DAYS = 7;
const LIKE_WEIGHT = 10;
const MAX_LIKES_LISTED = 10_000;

/**
 * Likes by this hub's users and its own download counts. Reads are filtered through `canRead` for every
 * repository they name: a private repository a reader may not see is never listed, and counts come from the
 * repository's own page, which only its readers reach (no count reveals a hidden repository).
 */
export function engagementService(
  store: Pick<Store, "engagement" | "repos" | "accounts">,
  canRead: CanRead,
  now: () => Date = () => new Date(),
) {
  const signedIn = (actor: Actor) => {
    if (actor.kind !== "user") {
      throw new UnauthorizedError(
        "Sign in to like a repository: send Authorization: Bearer hf_... or use a session.",
      );
    }
    return actor.user;
  };
  const modelIdOf = (repo: RepoRecord) => (repo.type === "model" ? repo.id : undefined);
  /** The repositories of `keys` that `reader` may see, in the keys' order. */
  const readable = async (reader: Actor, keys: readonly number[]) => {
    const repos = new Map<number, RepoRecord>();
    for (const key of new Set(keys)) {
      const repo = await store.repos.byKey(key);
      if (repo && (await canRead(reader, repo))) repos.set(key, repo);
    }
    return repos;
  };

  return {
    /** `actor` (signed in; the caller checked they may read `repo`) likes it. Liking twice is one like. */
    async like(actor: Actor, repo: RepoRecord): Promise<{ likes: number }> {
      await store.engagement.like(signedIn(actor).id, repo.key, modelIdOf(repo));
      return { likes: await store.engagement.likes(repo.key) };
    },

    async unlike(actor: Actor, repo: RepoRecord): Promise<{ likes: number }> {
      await store.engagement.unlike(signedIn(actor).id, repo.key, modelIdOf(repo));
      return { likes: await store.engagement.likes(repo.key) };
    },

    /** A repository's likes, and whether `actor` is among them (the page's like button). */
    async likesOf(actor: Actor, repo: RepoRecord): Promise<{ likes: number; liked: boolean }> {
      return {
        likes: await store.engagement.likes(repo.key),
        liked: actor.kind === "user" ? await store.engagement.hasLiked(actor.user.id, repo.key) : false,
      };
    },

    /** Who likes a repository, as huggingface_hub's `list_repo_likers` reads them (disabled users left out). */
    async likers(
      repo: RepoRecord,
    ): Promise<{ type: "user"; user: string; fullname: string; avatarUrl: string }[]> {
      const users = [];
      for (const id of await store.engagement.likerIds(repo.key, MAX_LIKES_LISTED)) {
        const user = await store.accounts.users.byId(id);
        if (user && !user.disabled) {
          users.push({
            type: "user" as const,
            user: user.name,
            fullname: user.fullname,
            avatarUrl: avatarPath(user.name),
          });
        }
      }
      return users;
    },

    /** Likes of a listing's repositories (those without any are absent). */
    likesOfMany: (keys: readonly number[]) => store.engagement.likesOf(keys),

    /** A repository's downloads: all of them, and those of the last 30 days (the public hub's `downloads`). */
    async downloadsOf(repo: RepoRecord): Promise<{ downloads: number; downloadsAllTime: number }> {
      const since = new Date(now().getTime() - 29 * 86_400_000).toISOString().slice(0, 10);
      return {
        downloads: await store.engagement.downloads(repo.key, since),
        downloadsAllTime: await store.engagement.downloads(repo.key),
      };
    },

    /** What a user likes, as `reader` may see it: liked repositories that are hidden from the reader are left out. */
    async likedBy(reader: Actor, userName: string): Promise<LikeView[] | undefined> {
      const user = await store.accounts.users.byName(userName);
      if (!user || user.disabled) return undefined;
      const likes = await store.engagement.likedBy(user.id, MAX_LIKES_LISTED);
      const repos = await readable(
        reader,
        likes.map((like) => like.repoKey),
      );
      return likes.flatMap((like) => {
        const repo = repos.get(like.repoKey);
        return repo ? [{ createdAt: like.createdAt, repo: { name: repo.id, type: repo.type } }] : [];
      });
    },

    /** The repositories with the most downloads and likes of the last week that `reader` may see. */
    async trending(reader: Actor, limit: number): Promise<TrendingRepo[]> {
      const since = new Date(now().getTime() - TRENDING_DAYS * 86_400_000).toISOString().slice(0, 10);
      const ranked = await store.engagement.trending(since, LIKE_WEIGHT, limit * 4);
      const repos = await readable(
        reader,
        ranked.map((entry) => entry.repoKey),
      );
      return ranked
        .flatMap((entry) => {
          const repo = repos.get(entry.repoKey);
          return repo ? [{ type: repo.type, id: repo.id, score: entry.score }] : [];
        })
        .slice(0, limit);
    },

    /** The figures a catalogue record brought from huggingface.co, if any (a demo copy's, labelled so). */
    sourceFigures: (modelId: string): Promise<SourceFigures | undefined> =>
      store.engagement.sourceFigures(modelId),
  };
}

export type EngagementService = ReturnType<typeof engagementService>;
