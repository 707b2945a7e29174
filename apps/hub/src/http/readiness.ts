import type { BlobStore } from "../storage/blob-store.js";
import type { Store } from "../store/store.js";

export interface ReadinessDeps {
  store: Pick<Store, "schema">;
  blobs?: BlobStore;
  /** True once the hub has begun shutting down: it finishes what it serves but takes no new work. */
  draining?: () => boolean;
}

export interface Readiness {
  ready: boolean;
  /** Each check by name: "ok …" or why it failed. */
  checks: Record<string, string>;
}

/** A key no blob has: asking for it reads the blob store without finding anything. */
const PROBE_KEY = "0".repeat(64);

/**
 * Whether the hub can serve: the database answers with every migration applied, the blob store answers,
 * and it is not shutting down.
 */
export function readinessService({ store, blobs, draining }: ReadinessDeps) {
  return {
    async check(): Promise<Readiness> {
      const checks: Record<string, string> = {};
      let ready = true;
      const fail = (name: string, reason: string) => {
        checks[name] = reason;
        ready = false;
      };
      try {
        const { applied, known } = await store.schema();
        if (applied === known) checks.database = `ok (schema ${applied})`;
        else fail("database", `schema ${applied} of ${known}: migrations not applied`);
      } catch (error) {
        fail("database", `unreachable: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (blobs) {
        try {
          await blobs.head(PROBE_KEY);
          checks.blobs = "ok";
        } catch (error) {
          fail("blobs", `unreachable: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      if (draining?.()) fail("shutdown", "draining: finishing requests in flight");
      return { ready, checks };
    },
  };
}

export type ReadinessService = ReturnType<typeof readinessService>;
