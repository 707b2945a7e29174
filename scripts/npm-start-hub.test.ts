/**
 * The product benchmarks (bench:repos, bench:hub) must measure the hub users run: started as `npm start`
 * starts it (issue 42). This fails when bench/npm-start-hub.ts drifts from the `start` scripts, when it gives
 * the hub a setting that is not one of the hub's environment variables, or when one of those benchmarks
 * starts a hub another way (an in-process `startHub()`), and when any benchmark spawns the hub's server with
 * arguments of its own instead of npm-start-hub.ts's.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { hubSettingsEnvironment, NPM_START_STEPS, REPO_ROOT } from "../bench/npm-start-hub.js";

const readJson = (path: string) =>
  JSON.parse(readFileSync(join(REPO_ROOT, path), "utf8")) as { scripts: Record<string, string> };

/**
 * The benchmark's entry file and every bench module it imports or starts (relative imports and the `.ts`
 * scripts it names, e.g. a server it spawns), transitively.
 */
function modulesOf(entry: string): Map<string, string> {
  const found = new Map<string, string>();
  const visit = (file: string) => {
    if (found.has(file) || !existsSync(file)) return;
    const source = readFileSync(file, "utf8");
    found.set(file, source);
    for (const [, path] of source.matchAll(/from\s+"(\.{1,2}\/[^"]+)"/g)) {
      visit(resolve(dirname(file), path!.replace(/\.js$/, ".ts")));
    }
    for (const [, path] of source.matchAll(/"((?:\.{1,2}\/)?[\w./-]+\.ts)"/g))
      visit(resolve(dirname(file), path!));
  };
  visit(entry);
  return found;
}

describe("the benchmarks' hub is started as npm start starts it", () => {
  it("runs the root package.json's start script, step by step", () => {
    const { build, server } = NPM_START_STEPS;
    expect(readJson("package.json").scripts.start).toBe(
      `node ${build.join(" ")} && node ${server.join(" ")}`,
    );
    const [entry] = server.slice(-1);
    const options = server.slice(0, -1).join(" ");
    expect(readJson("apps/hub/package.json").scripts.start).toBe(
      `node ${options} ${entry!.replace("apps/hub/", "")}`,
    );
  });

  it("sets only the hub's own environment variables", () => {
    const config = readFileSync(join(REPO_ROOT, "apps/hub/src/config.ts"), "utf8");
    const settings = { ADMIN_TOKEN: "x".repeat(16), PROVIDER_BASE_URLS: "", LOG_LEVEL: "warn" } as const;
    const set = Object.keys(hubSettingsEnvironment("/data", settings));
    expect(set.sort()).toEqual([
      "ADMIN_TOKEN",
      "DATA_DIR",
      "HOST",
      "LOG_LEVEL",
      "PORT",
      "PROVIDER_BASE_URLS",
    ]);
    for (const name of set) expect(config, `config.ts reads ${name}`).toContain(`env.${name}`);
  });

  for (const name of ["bench:repos", "bench:hub"]) {
    it(`${name} starts its hub through bench/npm-start-hub.ts only`, () => {
      const command = readJson("bench/package.json").scripts[name]!;
      const entry = join(REPO_ROOT, "bench", command.split(" ").at(-1)!);
      const modules = modulesOf(entry);
      expect([...modules.keys()]).toContain(join(REPO_ROOT, "bench", "npm-start-hub.ts"));
      expect([...modules.keys()], "the servers it spawns are checked too").toContainEqual(
        expect.stringMatching(/serve\.ts$/),
      );
      for (const [file, source] of modules) {
        expect(source, `${file} starts a hub in-process`).not.toMatch(/\bstartHub\s*\(/);
      }
    });
  }

  it("every benchmark that spawns a hub takes npm start's steps from npm-start-hub.ts", () => {
    // Code (not a comment) naming the hub's server entry, built or source: a hub started by hand.
    const byHand = /^(?!\s*(?:\*|\/\/|\/\*)).*(?:dist\/server\.js|src\/server\.ts)/m;
    const benchRoot = join(REPO_ROOT, "bench");
    const files = readdirSync(benchRoot, { recursive: true, encoding: "utf8" }).filter(
      (file) => file.endsWith(".ts") && !file.startsWith("node_modules") && !file.startsWith("results"),
    );
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.filter(
      (file) => file !== "npm-start-hub.ts" && byHand.test(readFileSync(join(benchRoot, file), "utf8")),
    );
    expect(offenders).toEqual([]);
  });
});
