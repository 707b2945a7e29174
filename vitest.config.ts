import { defineConfig } from "vitest/config";

// One Vitest run over every workspace; each workspace's own vitest.config.ts (if any) is a project, and
// scripts/ one more (the lint checks' own tests).
export default defineConfig({
  resolve: { conditions: ["source"] },
  test: {
    projects: ["packages/*", "apps/*", "scripts"],
    // Vitest's default in a run is one worker fewer than the cores: one on CI's two. Most files wait on
    // servers, browsers and interpreters they start, so two workers keep both cores busy. The web project's
    // browser tests still run one file at a time (fileParallelism false puts them in their own group).
    maxWorkers: 2,
  },
});
