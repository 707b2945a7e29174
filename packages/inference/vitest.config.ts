import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { conditions: ["source"] },
  // Tests run in Vite's SSR environment, which takes its resolve conditions from here.
  ssr: { resolve: { conditions: ["source"], externalConditions: ["source"] } },
  test: { name: "inference", include: ["src/**/*.test.ts"] },
});
