import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { conditions: ["source"] },
  test: { name: "widget", include: ["src/**/*.test.ts"] },
});
