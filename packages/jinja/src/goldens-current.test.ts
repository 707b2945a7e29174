import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { hasJinja2 } from "./jinja2-oracle.js";

/** The checked-in goldens must be exactly what scripts/make-goldens.py produces from the fixtures. */

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const fixtures = join(packageDir, "src", "__fixtures__");
const GOLDEN_FILES = ["chat-goldens.json", "semantics-goldens.json"];

describe.skipIf(!hasJinja2)("goldens (skipped: python3 cannot import jinja2)", () => {
  it("are current: regenerating them with Jinja2 gives the checked-in files", () => {
    const out = mkdtempSync(join(tmpdir(), "jinja-goldens-"));
    try {
      execFileSync(
        "python3",
        [
          join(packageDir, "scripts", "make-goldens.py"),
          "--corpus",
          join(fixtures, "chat-templates.json"),
          "--out",
          out,
        ],
        { stdio: ["ignore", "ignore", "pipe"] },
      );
      for (const file of GOLDEN_FILES) {
        // The Jinja2 version that made them is recorded but not compared: the expectations are.
        const load = (dir: string) => {
          const { jinja2: version, ...rest } = JSON.parse(readFileSync(join(dir, file), "utf8"));
          return { version, rest };
        };
        const fresh = load(out);
        const checkedIn = load(fixtures);
        expect(
          fresh.rest,
          `${file} is stale (made with Jinja2 ${checkedIn.version}, this machine has ${fresh.version}): ` +
            "run python3 packages/jinja/scripts/make-goldens.py",
        ).toEqual(checkedIn.rest);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});
