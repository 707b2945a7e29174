import type { Logger } from "../logger.js";
import type { Store } from "../store/store.js";
import type { CasService } from "./cas-service.js";

/** Left in `meta` by migration 18 when the database held Xet files registered before sha256s were checked. */
export const XET_SHA256_PENDING = "xet_sha256_pending";

/**
 * Xet files registered before migration 18 carry the sha256 their shard claimed, unchecked: until checked,
 * the hub treats them as having none (no commit may name them by it, /resolve does not serve them by it).
 * When the migration left its note, hashes each one's reconstructed bytes once and records that sha256; a
 * claim that was false is logged (a path committed with it then resolves to the blob store only, never to
 * these bytes). A file whose xorbs are missing is logged and left unchecked. Returns how many were checked.
 */
export async function checkXetSha256sOnce(store: Store, cas: CasService, logger: Logger): Promise<number> {
  if ((await store.meta.get(XET_SHA256_PENDING)) === undefined) return 0;
  let checked = 0;
  const failed = new Set<string>();
  for (;;) {
    const batch = (await store.xet.uncheckedFiles(100 + failed.size)).filter(
      ({ file }) => !failed.has(file.hash),
    );
    if (batch.length === 0) break;
    for (const { file, claimed } of batch) {
      try {
        const actual = await cas.sha256Of(file);
        if (claimed !== undefined && claimed !== actual) {
          logger.log("warn", "a Xet file's shard declared another sha256 than its bytes have", {
            file: file.hash,
            claimed,
            actual,
          });
        }
        await store.xet.setCheckedSha256(file.hash, actual);
        checked++;
      } catch (error) {
        failed.add(file.hash);
        logger.log("warn", "a Xet file could not be read to check its sha256", { file: file.hash, error });
      }
    }
  }
  await store.meta.delete(XET_SHA256_PENDING);
  return checked;
}
