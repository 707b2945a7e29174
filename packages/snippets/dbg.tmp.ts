import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { promisify } from "node:util";
import { startProviderSim } from "@modelhub/provider-sim";
import { getInferenceSnippets } from "@modelhub/snippets";

const [id, task, provider, pid, client] = process.argv.slice(2) as [string, any, any, string, string];
const m = { id, tags: [], pipeline_tag: task };
const sim = await startProviderSim({
  jobSteps: 1,
  models: [
    {
      id,
      pipeline_tag: task,
      inferenceProviderMapping: { [provider]: { status: "live", providerId: pid, task } },
    },
  ],
});
const s = getInferenceSnippets(m, undefined, provider, pid, { hubUrl: sim.url, routerUrl: sim.url }).find(
  (x) => x.client === client,
)!;
const file = client.includes("js") ? "dbg-snippet.tmp.mjs" : "dbg-snippet.tmp.py";
writeFileSync(file, s.content);
try {
  const r = await promisify(execFile)(
    client.includes("js") ? process.execPath : "/work/main/.venv/bin/python",
    [file],
    { env: { ...process.env, HF_TOKEN: "hf_x" }, encoding: "utf8", timeout: 20000 },
  );
  console.log("ok", r.stdout.slice(0, 300));
} catch (e: any) {
  console.log("FAIL", e.code, e.stderr?.slice(-1200));
}
for (const q of sim.requests) console.log(q.method, q.path, q.bodyText.slice(0, 150));
await sim.close();
