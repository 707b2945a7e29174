/**
 * What rate limiting adds to a request (issue 39: ≤ 20 µs). Two Hono apps side by side, the floor without
 * the limiter and the same app with it (the hub's own middleware and limiter, 10,000 callers in one window so
 * the Map is not trivially small), each answering GET /api/x in-process (`app.request`, no sockets: the
 * difference is the limiter's). Rounds alternate between the two; CPU time per request (process.cpuUsage) is
 * the figure to read on a shared machine, wall time is printed beside it.
 *
 *   npm run bench:limits -w bench                 (BENCH_REQUESTS=200000 BENCH_ROUNDS=5 by default)
 */
import { loadavg } from "node:os";
import { Hono } from "hono";
import type { Actor } from "../../apps/hub/src/auth/actor.js";
import type { HubEnv } from "../../apps/hub/src/http/hub-env.js";
import { rateLimitMiddleware } from "../../apps/hub/src/limits/rate-limit-middleware.js";
import { PUBLIC_HUB_POLICY } from "../../apps/hub/src/limits/rate-limit-policy.js";
import { createRateLimiter } from "../../apps/hub/src/limits/rate-limiter.js";
import type { RateLimitsTable } from "../../apps/hub/src/limits/rate-limits-table.js";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CALLERS = 10_000;

/** The database side is off the request path (synced every second): a table that only counts calls. */
let synced = 0;
const table: RateLimitsTable = {
  async add(deltas) {
    synced += deltas.length;
    return [...deltas];
  },
  async pruneBefore() {
    return 0;
  },
};
const policy = { ...PUBLIC_HUB_POLICY, user: { api: 1e9, resolvers: 1e9, pages: 1e9 } };
const limiter = createRateLimiter({ table, windowSeconds: 300, syncMs: 1000 });
limiter.start();

const actors: Actor[] = Array.from({ length: CALLERS }, (_, i) => ({
  kind: "user",
  user: { id: i, kind: "user", name: `u${i}`, isAdmin: false } as never,
  memberships: [],
  credential: { kind: "token", token: { id: i } as never },
}));

function app(limited: boolean) {
  const hono = new Hono<HubEnv>();
  let next = 0;
  hono.use("*", async (c, go) => {
    c.set("actor", actors[next++ % CALLERS]!);
    await go();
  });
  if (limited) hono.use("*", rateLimitMiddleware(policy, limiter));
  hono.get("/api/x", (c) => c.text("ok"));
  return hono;
}

async function measure(hono: Hono<HubEnv>): Promise<{ cpuUs: number; wallUs: number }> {
  const cpu = process.cpuUsage();
  const wall = process.hrtime.bigint();
  for (let i = 0; i < REQUESTS; i++) {
    const response = await hono.request("/api/x");
    if (response.status !== 200) throw new Error(`status ${response.status}`);
  }
  const used = process.cpuUsage(cpu);
  return {
    cpuUs: (used.user + used.system) / REQUESTS,
    wallUs: Number(process.hrtime.bigint() - wall) / 1000 / REQUESTS,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const floorApp = app(false);
const limitedApp = app(true);
await measure(floorApp);
await measure(limitedApp);
const floor: { cpuUs: number; wallUs: number }[] = [];
const limited: { cpuUs: number; wallUs: number }[] = [];
for (let round = 0; round < ROUNDS; round++) {
  floor.push(await measure(floorApp));
  limited.push(await measure(limitedApp));
}
await limiter.stop();

const row = (name: string, runs: { cpuUs: number; wallUs: number }[]) =>
  `| ${name} | ${median(runs.map((r) => r.cpuUs)).toFixed(2)} | ${median(runs.map((r) => r.wallUs)).toFixed(2)} |`;
const addedCpu = median(limited.map((r) => r.cpuUs)) - median(floor.map((r) => r.cpuUs));
const addedWall = median(limited.map((r) => r.wallUs)) - median(floor.map((r) => r.wallUs));
console.log(
  `rate limits: ${REQUESTS} requests x ${ROUNDS} rounds, ${CALLERS} callers, load ${loadavg()[0]!.toFixed(1)}`,
);
console.log("| app | CPU µs/request (median) | wall µs/request (median) |");
console.log("|---|---|---|");
console.log(row("floor (no limiter)", floor));
console.log(row("with rate limits", limited));
console.log(
  `added per request: ${addedCpu.toFixed(2)} µs CPU, ${addedWall.toFixed(2)} µs wall ` +
    `(ratio ${(median(limited.map((r) => r.cpuUs)) / median(floor.map((r) => r.cpuUs))).toFixed(3)}); goal ≤ 20 µs; ` +
    `${synced} caller-rows synced`,
);
