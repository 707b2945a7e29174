import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { runPython } from "../__fixtures__/python-client.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { openTestStore } from "../__fixtures__/test-store.js";
import { createApp } from "../app.js";
import type { Store } from "../store/store.js";
import { PUBLIC_HUB_POLICY, type RateLimitPolicy } from "./rate-limit-policy.js";
import type { RateLimiter } from "./rate-limiter.js";

/**
 * Rate limits end to end: a real hub answers 429 with the public hub's headers after the configured count
 * (and huggingface_hub reads them), the count resets with the window, and two replicas on one database
 * share one count per caller.
 */
const WINDOW_SECONDS = 3;
const policy: RateLimitPolicy = {
  ...PUBLIC_HUB_POLICY,
  windowSeconds: WINDOW_SECONDS,
  anonymous: { api: 4, resolvers: 100, pages: 100 },
  user: { api: 6, resolvers: 100, pages: 100 },
  // The test shares counts itself (replicas below); the hub's own timer would only add noise.
  syncMs: 600_000,
};
const hub = useTestHub({ rateLimits: policy });

/** Waits until a fresh window starts, so that a short run of requests falls in one window. */
async function windowStart(): Promise<void> {
  const windowMs = WINDOW_SECONDS * 1000;
  await sleep(windowMs - (Date.now() % windowMs) + 30);
}

/** `count` calls in one window (retried in the next if the run straddled a boundary), then one more. */
async function spend(
  count: number,
  call: () => Promise<Response>,
): Promise<{ admitted: Response[]; refused: Response }> {
  for (let attempt = 0; ; attempt++) {
    await windowStart();
    const started = Math.floor(Date.now() / (WINDOW_SECONDS * 1000));
    const admitted: Response[] = [];
    for (let i = 0; i < count; i++) admitted.push(await call());
    const refused = await call();
    if (Math.floor(Date.now() / (WINDOW_SECONDS * 1000)) === started || attempt === 3)
      return { admitted, refused };
  }
}

describe("rate limits on a real hub", () => {
  it("answers 429 after the configured count with RateLimit, RateLimit-Policy and Retry-After, then resets", async () => {
    const { admitted, refused } = await spend(4, () => fetch(`${hub.url}/api/models?limit=1`));
    expect(admitted.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    expect(admitted.map((response) => response.headers.get("ratelimit")?.replace(/;t=\d+$/, ""))).toEqual([
      '"api";r=3',
      '"api";r=2',
      '"api";r=1',
      '"api";r=0',
    ]);
    expect(admitted[0]!.headers.get("ratelimit-policy")).toBe(`"fixed window";"api";q=4;w=${WINDOW_SECONDS}`);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
    expect(refused.headers.get("ratelimit")).toBe(`"api";r=0;t=${retryAfter}`);
    expect(refused.headers.get("ratelimit-policy")).toBe(`"fixed window";"api";q=4;w=${WINDOW_SECONDS}`);
    const body = (await refused.json()) as { error: string; code: string };
    expect(body.code).toBe("rate_limited");
    expect(body.error).toMatch(/limit is 4 api requests per 3 s.*Retry after/);

    // The window's end resets the count.
    await sleep(retryAfter * 1000 + 50);
    const again = await fetch(`${hub.url}/api/models?limit=1`);
    expect(again.status).toBe(200);
    expect(again.headers.get("ratelimit")).toMatch(/^"api";r=3;t=\d+$/);
  });

  it("counts a token apart from its address, and huggingface_hub reads the headers", async () => {
    const token = await userToken(hub.store, "rita");
    const { admitted, refused } = await spend(6, () =>
      fetch(`${hub.url}/api/whoami-v2`, { headers: { Authorization: `Bearer ${token}` } }),
    );
    expect(admitted.every((response) => response.status === 200)).toBe(true);
    expect(refused.status).toBe(429);
    // The anonymous address is not charged for the token's calls.
    expect((await fetch(`${hub.url}/api/models?limit=1`)).headers.get("ratelimit")).toMatch(/^"api";r=3;/);
    const script = `
import sys
from huggingface_hub.utils import get_session, hf_raise_for_status, HfHubHTTPError
response = get_session().get(sys.argv[1] + "/api/whoami-v2", headers={"Authorization": "Bearer " + sys.argv[2]})
try:
    hf_raise_for_status(response)
except HfHubHTTPError as error:
    print(str(error))
`;
    const run = await runPython(["-c", script, hub.url, token], { HF_HUB_DISABLE_TELEMETRY: "1" });
    expect(run.stderr).toBe("");
    // Unless the window turned in between (then the call was admitted and printed nothing).
    if (run.stdout !== "") {
      expect(run.stdout).toContain("429 Too Many Requests: you have reached your 'api' rate limit.");
      expect(run.stdout).toMatch(/Retry after \d+ seconds \(0\/6 requests remaining in current 3s window\)/);
    }
  });
});

describe("two replicas on one database", () => {
  let temp: ReturnType<typeof makeTempDir>;
  const stores: Store[] = [];
  const limiters: RateLimiter[] = [];
  let apps: ReturnType<typeof createApp>[];
  let token: string;

  beforeAll(async () => {
    temp = makeTempDir();
    // One database, two stores (two connection pools), two apps: what two hub processes hold.
    for (let i = 0; i < 2; i++) stores.push(await openTestStore({ dataDir: temp.dir }));
    const shared: RateLimitPolicy = {
      ...policy,
      windowSeconds: 600,
      user: { api: 6, resolvers: 100, pages: 100 },
    };
    apps = stores.map((store) =>
      createApp({ store, rateLimits: { policy: shared, expose: (limiter) => limiters.push(limiter) } }),
    );
    token = await userToken(stores[0]!, "rhea");
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    temp?.remove();
  });

  const call = (replica: number) =>
    apps[replica]!.request("/api/whoami-v2", { headers: { Authorization: `Bearer ${token}` } });

  it("share one count per caller: what one admitted, the other counts after a sync", async () => {
    const [a, b] = limiters as [RateLimiter, RateLimiter];
    for (let i = 0; i < 3; i++) expect((await call(0)).status).toBe(200);
    await a.sync();
    for (let i = 0; i < 3; i++) expect((await call(1)).status).toBe(200);
    // b learns a's three at its sync: six in all, the limit.
    await b.sync();
    const refusedByB = await call(1);
    expect(refusedByB.status).toBe(429);
    expect(refusedByB.headers.get("ratelimit")).toMatch(/^"api";r=0;t=\d+$/);
    // a admits within the bounded error (it has not heard of b's calls yet), and refuses after its sync.
    expect((await call(0)).status).toBe(200);
    await a.sync();
    const refusedByA = await call(0);
    expect(refusedByA.status).toBe(429);
    expect(refusedByA.headers.get("ratelimit-policy")).toBe('"fixed window";"api";q=6;w=600');
  });
});
