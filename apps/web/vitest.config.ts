import { defineProject } from "vitest/config";

// Unit tests sit beside the code (src/**/*.test.ts). End-to-end tests (e2e/*.test.ts) drive Debian's
// Chromium against a real hub serving the production build, which the global setup builds when stale:
// one file at a time, generous timeouts.
export default defineProject({
  resolve: { conditions: ["source"] },
  ssr: { resolve: { conditions: ["source"], externalConditions: ["source"] } },
  test: {
    name: "web",
    include: ["src/**/*.test.ts", "e2e/**/*.test.ts"],
    environment: "node",
    globalSetup: ["e2e/global-setup.ts"],
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Browser state settles asynchronously; a loaded CI machine needs more than the 1 s default.
    expect: { poll: { timeout: 10_000, interval: 50 } },
  },
});
