import type { Page } from "playwright-core";
import { expect } from "vitest";
import { horizontalOverflow, popoversOutsideViewport, severeAxeFindings } from "./page-checks.js";

/** No sideways scroll, popovers inside the viewport, no serious or critical axe finding. */
export async function expectSound(page: Page, colorScheme: "light" | "dark"): Promise<void> {
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  expect(await popoversOutsideViewport(page)).toEqual([]);
  expect(await severeAxeFindings(page, colorScheme)).toEqual([]);
}
