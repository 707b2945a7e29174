import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { conditions: ["source"] },
  // Tests run in Vite's SSR environment, which takes its resolve conditions from here.
  ssr: { resolve: { conditions: ["source"], externalConditions: ["source"] } },
  // Job protocols poll at the providers' real intervals (1 s for Black Forest Labs): on a loaded machine a
  // case can pass the 5 s default.
  test: { name: "inference", include: ["src/**/*.test.ts"], testTimeout: 20_000 },
});
