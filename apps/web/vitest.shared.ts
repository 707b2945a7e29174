import type { ViteUserConfig } from "vitest/config";

/**
 * What both of the web app's test projects share (vitest.config.ts and vitest.alone.config.ts): unit tests
 * beside the code (src/**), end-to-end tests (e2e/*) that drive Debian's Chromium against a real hub serving
 * the production build, which the global setup builds when stale; generous timeouts.
 */
export const WEB_TEST_CONFIG = {
  resolve: { conditions: ["source"] },
  ssr: { resolve: { conditions: ["source"], externalConditions: ["source"] } },
  test: {
    environment: "node",
    globalSetup: ["e2e/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Browser state settles asynchronously; a loaded CI machine needs more than the 1 s default.
    expect: { poll: { timeout: 10_000, interval: 50 } },
  },
} satisfies ViteUserConfig;

/**
 * End-to-end files that measure time in the page (a longest-task or render budget, a response within a
 * second, the perf runs): they run alone, after every other file, so a neighbour's load cannot fail them.
 * Every other file runs beside the rest of the suite (each starts its own hub and browser).
 */
export const ALONE_FILES = [
  "e2e/hostile-card.test.ts",
  "e2e/chat-template.test.ts",
  "e2e/repo-perf.test.ts",
  "e2e/upload-perf.test.ts",
];
