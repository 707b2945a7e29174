import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { conditions: ["source"] },
  test: { name: "tasks", include: ["src/**/*.test.ts"] },
});
