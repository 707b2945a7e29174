/**
 * Child process of the start race test: loads the hub, says "ready", and on "go" starts a hub on the given
 * data dir (so two children start within the same millisecond), reports, and stops it.
 */
import { startHub } from "../start-hub.js";

const [dataDir, catalogueDir] = process.argv.slice(2) as [string, string];
process.once("message", async () => {
  try {
    const hub = await startHub({ dataDir, catalogueDir, providerSim: false });
    const models = await hub.store.models.count();
    await hub.close();
    process.send!(`started ${models}`, () => process.exit(0));
  } catch (error) {
    process.send!(`failed: ${error instanceof Error ? error.message : String(error)}`, () => process.exit(1));
  }
});
process.send!("ready");
