import { describe, expect, it } from "vitest";
import { createWorkerPool } from "./worker-pool.js";

describe("worker pool", () => {
  it("works the queue dry, sleeps, wakes at a kick, and stops after the item under way", async () => {
    const queue = [1, 2, 3];
    const done: number[] = [];
    let release: (() => void) | undefined;
    const pool = createWorkerPool({
      concurrency: 2,
      pollMs: 60_000,
      onError: () => {},
      async workOne() {
        const item = queue.shift();
        if (item === undefined) return false;
        if (item === 4) await new Promise<void>((resolve) => (release = resolve));
        done.push(item);
        return true;
      },
    });
    pool.start();
    await expect.poll(() => done.length).toBe(3);
    // Both workers now sleep for a minute: only a kick brings them back.
    queue.push(4);
    pool.kick();
    await expect.poll(() => release !== undefined).toBe(true);
    const stopped = pool.stop();
    expect(pool.running).toBe(false);
    release!();
    await stopped;
    expect(done).toEqual([1, 2, 3, 4]);
  });

  it("keeps working after workOne throws, and reports the failure", async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const pool = createWorkerPool({
      concurrency: 1,
      pollMs: 5,
      onError: (error) => errors.push(error),
      async workOne() {
        calls++;
        if (calls === 1) throw new Error("database gone for a moment");
        return calls < 3;
      },
    });
    pool.start();
    await expect.poll(() => calls).toBeGreaterThanOrEqual(3);
    await pool.stop();
    expect(errors).toHaveLength(1);
  });
});
