import { join } from "node:path";
import type { CasService } from "../lfs-xet/cas-service.js";
import type { Logger } from "../logger.js";
import type { RepoAccess } from "../repos/repo-access.js";
import type { RepoService } from "../repos/repo-service.js";
import { contentReader } from "../scanning/scan-content.js";
import type { BlobStore } from "../storage/blob-store.js";
import { createViewerApi } from "./viewer-api.js";
import { createViewerEngine } from "./viewer-engine.js";
import { viewerRoutes } from "./viewer-routes.js";
import { createViewerService } from "./viewer-service.js";
import type { ViewerTable } from "./viewer-table.js";

/** The dataset viewer put together: its engine over `dir`, the conversion service and the API's routes. */
export function assembleViewer(deps: {
  table: ViewerTable;
  repos: RepoService;
  access: RepoAccess;
  blobs: BlobStore;
  cas?: CasService;
  publicUrl: string;
  /** The viewer's local directory (`dataDir/viewer`): the Parquet cache and conversions' scratch space. */
  dir: string;
  pollMs?: number;
  /** Bytes of a split converted before it is marked partial (the service's default: 5 GB). */
  splitLimitBytes?: number;
  logger?: Logger;
}) {
  const engine = createViewerEngine({
    parquetDir: join(deps.dir, "parquet"),
    workDir: join(deps.dir, "work"),
  });
  const reader = contentReader({ blobs: deps.blobs, cas: deps.cas });
  const service = createViewerService({
    table: deps.table,
    repos: deps.repos,
    engine,
    workDir: join(deps.dir, "work"),
    pollMs: deps.pollMs,
    splitLimitBytes: deps.splitLimitBytes,
    logger: deps.logger,
    async openContent(repoKey, file) {
      const source = await reader.openSource({ ...file, repoKey });
      return source?.open();
    },
  });
  const api = createViewerApi({
    repos: deps.repos,
    access: deps.access,
    viewer: service,
    engine,
    publicUrl: deps.publicUrl,
  });
  return { service, routes: viewerRoutes({ api, access: deps.access }) };
}
