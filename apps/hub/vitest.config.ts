import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { conditions: ["source"] },
  // Tests run in Vite's SSR environment, which takes its resolve conditions from here.
  ssr: { resolve: { conditions: ["source"], externalConditions: ["source"] } },
  test: {
    name: "hub",
    include: ["src/**/*.test.ts"],
    // HUB_TEST_DATABASE=postgres: one PostgreSQL server for the run, every test on it (test-store.ts).
    globalSetup: ["src/__fixtures__/postgres-global-setup.ts"],
    // Most files start a hub (and often a client process); with two files running at once on CI's two
    // cores, Vitest's 5 s default cuts tests that only waited their turn for a core.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
