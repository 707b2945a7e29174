import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { conditions: ["source"] },
  // Tests run real interpreters (python3, node, bash) as child processes.
  test: { name: "snippets", include: ["src/**/*.test.ts"], testTimeout: 60_000 },
});
