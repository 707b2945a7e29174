/**
 * A CPU profile of the API calls of `api-ab.ts`, one call at a time: the hub of a checkout (`AB_ROOTS`'s
 * first, or this one) under `node --cpu-prof`, `HEAD /resolve` of a small file for BENCH_SECONDS (default 10)
 * at 64 connections, then model info as long; prints each phase's window in seconds since the hub started,
 * for `cpu-profile-summary.ts <profile> [top] <from> <to>`.
 *
 *   BENCH_CPU_PROF=/tmp/prof [AB_ROOTS=/tmp/before] [BENCH_SECONDS=10] node --import tsx repos/api-profile.ts
 */
import { buildAsNpmStart, REPO_ROOT, startNpmStartHub } from "../npm-start-hub.js";
import { benchToken, httpLoad, hubApi, smallRepo } from "./measure.js";

const ROOT = process.env.AB_ROOTS?.split(",")[0] || REPO_ROOT;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PROFILE_DIR = process.env.BENCH_CPU_PROF;
if (!PROFILE_DIR) throw new Error("Set BENCH_CPU_PROF to the directory the profile is written to.");
const ADMIN_TOKEN = `bench-admin-${process.pid}-${Date.now()}`;

// Built first, so that the windows printed count from the hub's own start.
buildAsNpmStart(ROOT);
const started = Date.now();
const hub = await startNpmStartHub({ ADMIN_TOKEN }, { root: ROOT, cpuProfileDir: PROFILE_DIR });
const { url } = hub;
const token = await benchToken(url, ADMIN_TOKEN);
await smallRepo(hubApi(url, token));
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
await hub.stop();
