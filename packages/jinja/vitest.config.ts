import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { conditions: ["source"] },
  test: { name: "jinja", include: ["src/**/*.test.ts"] },
});
