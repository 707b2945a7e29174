import type { Logger } from "../logger.js";
import {
  createLocalEngine,
  DEFAULT_LOCAL_ENGINE_LIMITS,
  type LocalEngine,
  type LocalEngineLimits,
} from "./local-engine.js";
import { LOCAL_PROVIDER_NAME, startLocalProviderServer } from "./local-provider-server.js";
import {
  type LocalProviderRepos,
  localProviderService,
  localServedName,
  type OpenModelFile,
} from "./local-provider-service.js";

/** Default LOCAL_PROVIDER_MAX_MODEL_BYTES: 8 GiB (a 7-8B model at Q4-Q8). */
export const DEFAULT_LOCAL_MAX_MODEL_BYTES = 8 * 1024 ** 3;

/**
 * Starts the built-in llama.cpp provider of this process: the engine (nothing loaded until the first call)
 * behind its loopback server, and what the own providers' registry needs to route to it.
 */
export async function startLocalProvider(
  settings: {
    limits?: Partial<LocalEngineLimits>;
    maxModelBytes?: number;
    expose?(engine: LocalEngine): void;
  },
  deps: {
    db: Parameters<typeof localProviderService>[0]["db"];
    repos: LocalProviderRepos;
    openFile: OpenModelFile;
    cacheDir: string;
    logger: Logger;
  },
) {
  const service = localProviderService({
    db: deps.db,
    repos: () => deps.repos,
    cacheDir: deps.cacheDir,
    openFile: deps.openFile,
    maxModelBytes: settings.maxModelBytes ?? DEFAULT_LOCAL_MAX_MODEL_BYTES,
  });
  const limits = { ...DEFAULT_LOCAL_ENGINE_LIMITS, ...settings.limits };
  const engine = createLocalEngine({
    limits,
    modelPath: (servedName) => service.modelPath(servedName),
    logger: deps.logger,
  });
  settings.expose?.(engine);
  const server = await startLocalProviderServer(engine, deps.logger);
  return {
    engine,
    registryEntry: {
      name: LOCAL_PROVIDER_NAME,
      baseUrl: server.baseUrl,
      secret: server.secret,
      servedName: localServedName,
      answerMs: limits.answerMs,
    },
    async close(): Promise<void> {
      await server.close();
      await engine.close();
    },
  };
}
