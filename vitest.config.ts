import { defineConfig } from "vitest/config";
import { LongestFirstSequencer } from "./scripts/test-order/longest-first-sequencer.js";

// One Vitest run over every workspace; each workspace's own vitest.config.ts (if any) is a project, and
// scripts/ one more (the lint checks' own tests). The web app has a second project: its timed browser files,
// run one at a time at the end (apps/web/vitest.shared.ts).
export default defineConfig({
  resolve: { conditions: ["source"] },
  test: {
    projects: ["packages/*", "apps/*", "apps/web/vitest.alone.config.ts", "scripts"],
    // Vitest's default in a run is one worker fewer than the cores: one on CI's two. Most files wait on
    // servers, browsers and interpreters they start, so two workers keep both cores busy.
    maxWorkers: 2,
    // Longest files first across projects (Vitest's own order runs project after project, largest file
    // first), so the browser journeys and snippet runs do not end the run alone on one worker.
    sequence: { sequencer: LongestFirstSequencer },
  },
});
