import { configDefaults, defineProject } from "vitest/config";

/**
 * Files whose subject does not depend on the database (they run the hub to execute snippets, to parse
 * hostile HTTP, or to generate tokens with llama.cpp), so the PostgreSQL pass skips them: they cost CI
 * minutes there and would test the same code twice. Anything that writes or reads repository, account or
 * queue state stays in both passes. (The local provider's one table has its own test on both databases:
 * router/local-provider-table.test.ts.)
 */
const DIALECT_INDEPENDENT = [
  "src/router/catalogue-snippets.e2e.test.ts",
  "src/http/hostile-requests.test.ts",
  "src/router/local-provider.e2e.test.ts",
  // Pushes of 1,000 files and a large LFS file: its subject is size, and it takes about two minutes on
  // PostgreSQL. Pushes themselves run on both databases in git-push.e2e.test.ts.
  "src/git/git-push-size.e2e.test.ts",
];

export default defineProject({
  resolve: { conditions: ["source"] },
  // Tests run in Vite's SSR environment, which takes its resolve conditions from here.
  ssr: { resolve: { conditions: ["source"], externalConditions: ["source"] } },
  test: {
    name: "hub",
    include: ["src/**/*.test.ts"],
    exclude: [
      ...configDefaults.exclude,
      ...(process.env.HUB_TEST_DATABASE === "postgres" ? DIALECT_INDEPENDENT : []),
    ],
    // HUB_TEST_DATABASE=postgres: one PostgreSQL server for the run, every test on a copy of one migrated
    // database in it (test-store.ts)...
    globalSetup: ["src/__fixtures__/postgres-global-setup.ts"],
    // ... and each file's databases dropped when it ends, so the run does not keep hundreds of copies on disk.
    setupFiles:
      process.env.HUB_TEST_DATABASE === "postgres" ? ["src/__fixtures__/postgres-file-cleanup.ts"] : [],
    // Most files start a hub (and often a client process); with two files running at once on CI's two
    // cores, Vitest's 5 s default cuts tests that only waited their turn for a core.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
