import { defineProject } from "vitest/config";

// Unit tests sit beside the code (src/**/*.test.ts); end-to-end tests drive Chromium against a real hub
// (e2e/*.test.ts): one fork, one at a time, with the app built once by the global setup.
export default defineProject({
  resolve: { conditions: ["source"] },
  ssr: { resolve: { conditions: ["source"], externalConditions: ["source"] } },
  test: {
    name: "web",
    include: ["src/**/*.test.ts", "e2e/**/*.test.ts"],
    environment: "node",
  },
});
