import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { HUB_CLIENT_SUPPORT } from "./client-support.js";
import { REPO_DIR, VENV_PYTHON } from "./testing/run-snippet.js";

const sorted = (table: Record<string, readonly string[]>) =>
  Object.fromEntries(
    Object.entries(table)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([provider, tasks]) => [provider, [...tasks].sort()]),
  );

describe("hub client support tables", () => {
  it("match the installed @huggingface/inference", () => {
    // The table is internal to the package (not in its exports), so a plain node process reads the file.
    const file = join(REPO_DIR, "node_modules/@huggingface/inference/dist/esm/lib/getProviderHelper.js");
    const program = `import(${JSON.stringify(pathToFileURL(file).href)}).then((m) => process.stdout.write(JSON.stringify(Object.fromEntries(Object.entries(m.PROVIDERS).map(([p, t]) => [p, Object.keys(t)])))))`;
    const installed = JSON.parse(execFileSync(process.execPath, ["-e", program]).toString("utf8"));
    expect(sorted(HUB_CLIENT_SUPPORT["huggingface.js"])).toEqual(sorted(installed));
  });

  it.skipIf(!existsSync(VENV_PYTHON))(
    "match the installed huggingface_hub (needs .venv: scripts/setup-python.sh)",
    () => {
      const program =
        "import json\nfrom huggingface_hub.inference._providers import PROVIDERS\nprint(json.dumps({k: list(v) for k, v in PROVIDERS.items()}))";
      const installed = JSON.parse(execFileSync(VENV_PYTHON, ["-c", program]).toString("utf8"));
      expect(sorted(HUB_CLIENT_SUPPORT.huggingface_hub)).toEqual(sorted(installed));
    },
  );
});
