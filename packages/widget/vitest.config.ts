import { defineProject } from "vitest/config";

export default defineProject({
  // Tests run in Vite's SSR environment, which has its own conditions list: both resolve to sources.
  resolve: { conditions: ["source"] },
  ssr: { resolve: { conditions: ["source"] } },
  test: { name: "widget", include: ["src/**/*.test.ts"] },
});
