import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { conditions: ["source"] },
  test: { name: "hub", include: ["src/**/*.test.ts"] },
});
