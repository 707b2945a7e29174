import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { conditions: ["source"] },
  ssr: { resolve: { conditions: ["source"], externalConditions: ["source"] } },
  test: {
    name: "runtime-matrix",
    include: ["src/**/*.test.ts"],
    // Each case starts a runtime process (or a browser) and runs every check in it.
    testTimeout: 90_000,
    // The cases run concurrently (each in its own process); three at a time keeps 2 shared cores responsive.
    maxConcurrency: 3,
    // beforeAll builds the stale packages (tsc, ~50 s on 2 busy cores in a fresh clone) and packs them.
    hookTimeout: 240_000,
  },
});
