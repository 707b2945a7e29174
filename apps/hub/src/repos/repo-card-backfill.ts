import type { Logger } from "../logger.js";
import type { Store } from "../store/store.js";
import type { RepoService } from "./repo-service.js";
import type { RepoType } from "./repos-table.js";
import { branchRef } from "./revision.js";

/** Left in `meta` by migration 16 when the database held datasets or spaces from before their card index. */
export const REPO_CARDS_PENDING = "repo_cards_pending";

const CARD_TYPES: readonly RepoType[] = ["dataset", "space"];

/**
 * Datasets and spaces committed before migration 15 have no card index (tags, SDK, card data) until their
 * next commit to main. When migration 16 left its note, derives each one's index from its main README, as a
 * commit would, then removes the note: once. A start cut short leaves the note and derives again next time
 * (to the same result); replicas starting together may both derive, which writes the same rows. A repository
 * whose README cannot be read is logged and left for its next commit. Returns how many were derived.
 */
export async function deriveRepoCardsOnce(store: Store, repos: RepoService, logger: Logger): Promise<number> {
  if ((await store.meta.get(REPO_CARDS_PENDING)) === undefined) return 0;
  let derived = 0;
  for (const type of CARD_TYPES) {
    for (const key of await store.repos.keysOfType(type)) {
      const repo = await store.repos.byKey(key);
      const main = repo && (await store.repos.ref(key, branchRef("main")));
      if (!repo || !main) continue;
      try {
        await repos.derive(repo, main);
        derived++;
      } catch (error) {
        logger.log("warn", "card index not derived; the next commit derives it", {
          repo: repo.id,
          type,
          error,
        });
      }
    }
  }
  await store.meta.delete(REPO_CARDS_PENDING);
  return derived;
}
