/**
 * A CPU profile of the API calls of `api-ab.ts`, one call at a time: the hub of a checkout (`AB_ROOTS`'s
 * first, or this one) under `node --cpu-prof`, `HEAD /resolve` of a small file for BENCH_SECONDS (default 10)
 * at 64 connections, then model info as long; prints each phase's window in seconds since the hub started,
 * for `cpu-profile-summary.ts <profile> [top] <from> <to>`.
 *
 *   BENCH_CPU_PROF=/tmp/prof [AB_ROOTS=/tmp/before] [BENCH_SECONDS=10] node --import tsx repos/api-profile.ts
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { hubSettingsEnvironment, NPM_START_STEPS, REPO_ROOT } from "../npm-start-hub.js";
import { benchToken, createRepo, httpLoad, hubApi } from "./measure.js";

const ROOT = process.env.AB_ROOTS?.split(",")[0] || REPO_ROOT;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PROFILE_DIR = process.env.BENCH_CPU_PROF;
if (!PROFILE_DIR) throw new Error("Set BENCH_CPU_PROF to the directory the profile is written to.");
const ADMIN_TOKEN = `bench-admin-${process.pid}-${Date.now()}`;

execFileSync(process.execPath, [...NPM_START_STEPS.build], { cwd: ROOT, stdio: "inherit" });
const dataDir = mkdtempSync(join(tmpdir(), "modelhub-bench-prof-"));
const started = Date.now();
const child = spawn(
  process.execPath,
  ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`, ...NPM_START_STEPS.server],
  {
    cwd: ROOT,
    env: { ...process.env, ...hubSettingsEnvironment(dataDir, { ADMIN_TOKEN }) },
    stdio: ["ignore", "pipe", "inherit"],
  },
);
const url = await new Promise<string>((resolve, reject) => {
  child.once("exit", (code) => reject(new Error(`the hub exited with ${code} before listening`)));
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const running = /^Modelhub is running at (\S+)/.exec(line);
    if (running) resolve(running[1]!.replace(/\/$/, ""));
  });
});
const token = await benchToken(url, ADMIN_TOKEN);
const api = hubApi(url, token);
await createRepo(api, "bench/small");
const committed = await api("/api/models/bench/small/commit/main", {
  method: "POST",
  headers: { "Content-Type": "application/x-ndjson" },
  body: [
    { key: "header", value: { summary: "small" } },
    {
      key: "file",
      value: {
        path: "config.json",
        content: Buffer.from('{"model_type":"llama"}').toString("base64"),
        encoding: "base64",
      },
    },
  ]
    .map((line) => JSON.stringify(line))
    .join("\n"),
});
if (!committed.ok) throw new Error(`commit failed: ${committed.status}`);
const headers = { Authorization: `Bearer ${token}` };
const calls = {
  head: { method: "HEAD", path: "/bench/small/resolve/main/config.json", headers },
  info: { method: "GET", path: "/api/models/bench/small", headers },
};
for (const [name, call] of Object.entries(calls)) {
  const from = (Date.now() - started) / 1000;
  const result = await httpLoad([url], [call], 64, SECONDS);
  const to = (Date.now() - started) / 1000;
  console.log(`${name}: ${from.toFixed(1)}-${to.toFixed(1)} s`, JSON.stringify(result));
}
child.kill("SIGTERM");
await new Promise((resolve) => child.once("exit", resolve));
rmSync(dataDir, { recursive: true, force: true });
