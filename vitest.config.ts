import { defineConfig } from "vitest/config";

// One Vitest run over every workspace; each workspace's own vitest.config.ts (if any) is a project, and
// scripts/ one more (the lint checks' own tests).
export default defineConfig({
  resolve: { conditions: ["source"] },
  test: {
    projects: ["packages/*", "apps/*", "scripts"],
  },
});
