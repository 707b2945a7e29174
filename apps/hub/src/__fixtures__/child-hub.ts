/**
 * A hub in its own process for tests that need one (a full disk mounted only for it): `child-hub.ts <dataDir>`
 * starts the hub on the fixture catalogue with a user `alice` and her write token, prints one JSON line
 * `{url, token}`, and serves until SIGTERM.
 */
import { accountsService } from "../accounts/accounts-service.js";
import { startHub } from "../start-hub.js";
import { FIXTURE_CATALOGUE_DIR } from "./seeded-app.js";
import { testDatabaseUrl } from "./test-store.js";

const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: child-hub.ts <dataDir>");
// On the suite's database (HUB_TEST_DATABASE, inherited with the environment), as every test hub.
const databaseUrl = await testDatabaseUrl(dataDir);
const hub = await startHub({ dataDir, databaseUrl, providerSim: false, catalogueDir: FIXTURE_CATALOGUE_DIR });
const accounts = accountsService(hub.store.accounts);
await accounts.createUser({ name: "alice" });
const { token } = await accounts.createToken("alice", { name: "alice", role: "write" });
process.stdout.write(`${JSON.stringify({ url: hub.url, token })}\n`);
process.once("SIGTERM", () => void hub.close().then(() => process.exit(0)));
