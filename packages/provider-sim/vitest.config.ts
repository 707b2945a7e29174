import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { conditions: ["source"] },
  test: { name: "provider-sim", include: ["src/**/*.test.ts"] },
});
