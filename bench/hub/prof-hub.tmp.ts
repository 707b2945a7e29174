import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startHub } from "@modelhub/hub";
import { INFERENCE_PROVIDERS } from "@modelhub/inference";

const simUrl = process.argv[2]!;
const hub = await startHub({
  dataDir: mkdtempSync(join(tmpdir(), "prof-")),
  adminToken: "adhoc-admin-token-123456",
  providerBaseUrls: Object.fromEntries(INFERENCE_PROVIDERS.map((p) => [p, `${simUrl}/${p}`])),
});
process.stdout.write(`${JSON.stringify({ url: hub.url })}\n`);
setTimeout(() => process.exit(0), 16000);
