import { join } from "node:path";
import { INFERENCE_PROVIDERS } from "@modelhub/inference";
import { type ProviderSim, startProviderSim } from "@modelhub/provider-sim";
import { type RunningHub, type StartHubOptions, startHub } from "../start-hub.js";
import { ADMIN_TOKEN, FIXTURE_CATALOGUE_DIR } from "./seeded-app.js";
import { makeTempDir } from "./temp-dir.js";

export interface SimHub {
  hub: RunningHub;
  sim: ProviderSim;
  close(): Promise<void>;
}

/**
 * The router's end-to-end setting: a real hub on loopback (a real SQLite file in a temp dir, the fixture
 * catalogue, the admin API on) with provider-sim standing in for every provider.
 */
export async function startHubOnSim(options: Partial<StartHubOptions> = {}): Promise<SimHub> {
  const temp = makeTempDir();
  const sim = await startProviderSim();
  try {
    const hub = await startHub({
      dataDir: join(temp.dir, "data"),
      adminToken: ADMIN_TOKEN,
      catalogueDir: FIXTURE_CATALOGUE_DIR,
      providerBaseUrls: Object.fromEntries(INFERENCE_PROVIDERS.map((p) => [p, sim.providerUrl(p)])),
      ...options,
    });
    return {
      hub,
      sim,
      async close() {
        await hub.close();
        await sim.close();
        temp.remove();
      },
    };
  } catch (error) {
    await sim.close();
    temp.remove();
    throw error;
  }
}
