import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { conditions: ["source"] },
  test: { name: "inference", include: ["src/**/*.test.ts"] },
});
