import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { conditions: ["source"] },
  // Tests run in Vite's SSR environment, which takes its resolve conditions from here.
  ssr: { resolve: { conditions: ["source"], externalConditions: ["source"] } },
  // Tests run real interpreters (python3, node, bash) as child processes.
  test: { name: "snippets", include: ["src/**/*.test.ts"], testTimeout: 120_000 },
});
