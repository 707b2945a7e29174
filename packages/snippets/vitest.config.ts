import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { conditions: ["source"] },
  test: { name: "snippets", include: ["src/**/*.test.ts"] },
});
