import { defineProject } from "vitest/config";
import { ALONE_FILES, WEB_TEST_CONFIG } from "./vitest.shared.js";

// The web app's timed end-to-end files (vitest.shared.ts says which and why): one file at a time, in a group
// of their own that Vitest runs after all other files.
export default defineProject({
  ...WEB_TEST_CONFIG,
  test: {
    ...WEB_TEST_CONFIG.test,
    name: "web-alone",
    include: ALONE_FILES,
    fileParallelism: false,
    maxWorkers: 1,
  },
});
