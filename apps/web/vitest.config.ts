import { configDefaults, defineProject } from "vitest/config";
import { ALONE_FILES, WEB_TEST_CONFIG } from "./vitest.shared.js";

// The web app's tests but the timed ones (vitest.alone.config.ts): two files at a time, beside the other
// workspaces' files, as the root config's workers allow.
export default defineProject({
  ...WEB_TEST_CONFIG,
  test: {
    ...WEB_TEST_CONFIG.test,
    name: "web",
    include: ["src/**/*.test.ts", "e2e/**/*.test.ts"],
    exclude: [...configDefaults.exclude, ...ALONE_FILES],
  },
});
