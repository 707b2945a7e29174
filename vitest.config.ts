import { defineConfig } from "vitest/config";

// One Vitest run over every workspace; each workspace's own vitest.config.ts (if any) is a project.
export default defineConfig({
  resolve: { conditions: ["source"] },
  test: {
    projects: ["packages/*", "apps/*"],
  },
});
