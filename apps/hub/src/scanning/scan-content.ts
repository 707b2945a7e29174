import { PassThrough, Readable } from "node:stream";
import type { CasService } from "../lfs-xet/cas-service.js";
import type { BlobStore } from "../storage/blob-store.js";
import type { ScanSource } from "./scan-report.js";
import type { ScanItem } from "./scan-table.js";

/**
 * Where the scanner reads a content: the blob store when it holds the sha256, else the Xet store (content
 * uploaded through Xet is kept as chunks: reconstructed range by range, never whole in memory).
 */
export function contentReader(deps: { blobs: BlobStore; cas?: CasService }) {
  return {
    async openSource(
      item: Pick<ScanItem, "sha256" | "size" | "repoKey" | "path">,
    ): Promise<ScanSource | undefined> {
      const whole = { start: 0, end: item.size - 1 };
      if (item.size === 0) return { path: item.path, size: 0, open: () => Readable.from([]) };
      if (await deps.blobs.head(item.sha256)) {
        return {
          path: item.path,
          size: item.size,
          open: (range = whole) => lazily(() => deps.blobs.get(item.sha256, range)),
        };
      }
      const xetFile = deps.cas ? await deps.cas.fileOfContent(item.repoKey, item.sha256) : undefined;
      if (!xetFile || !deps.cas) return undefined;
      const cas = deps.cas;
      return {
        path: item.path,
        size: item.size,
        open: (range = whole) => Readable.from(cas.read(xetFile, range.start, range.end)),
      };
    },

    /** Whether this hub holds a content's bytes (blob store or Xet). */
    async held(repoKey: number, sha256: string): Promise<boolean> {
      if (await deps.blobs.head(sha256)) return true;
      return deps.cas ? (await deps.cas.fileOfContent(repoKey, sha256)) !== undefined : false;
    },
  };
}

/** A stream now over one that opens asynchronously (ScanSource.open is synchronous; the blob store is not). */
function lazily(open: () => Promise<Readable>): Readable {
  const out = new PassThrough();
  open().then(
    (stream) => {
      stream.on("error", (error) => out.destroy(error));
      out.on("close", () => stream.destroy());
      stream.pipe(out);
    },
    (error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return out;
}
