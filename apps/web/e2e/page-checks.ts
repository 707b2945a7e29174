import type { Locator, Page } from "playwright-core";

function isAnonymousSessionCheck(url: string, text: string): boolean {
  return /\/api\/auth\/session$/.test(url) && /status of 401/.test(text);
}

/** Console errors, uncaught exceptions and failed requests of a page, from the moment this is called. */
export function watchPage(page: Page, { expectedStatus }: { expectedStatus: number }) {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    // The document of a not-found page answers 404 on purpose: Chromium logs that as a console error.
    if (expectedStatus === 404 && /status of 40[14]/.test(message.text())) return;
    // An anonymous visitor's "who is signed in?" is answered 401: that is how the page learns it.
    if (isAnonymousSessionCheck(message.location().url, message.text())) return;
    problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`exception: ${error.message}`));
  page.on("requestfailed", (request) => {
    const failure = request.failure()?.errorText ?? "";
    // A navigation away cancels what the previous page still loaded; that is not a failure.
    if (failure === "net::ERR_ABORTED") return;
    problems.push(`request failed: ${request.url()} ${failure}`);
  });
  page.on("response", (response) => {
    if (response.status() < 400) return;
    if (isAnonymousSessionCheck(response.url(), `status of ${response.status()}`)) return;
    if (response.request().isNavigationRequest() && response.status() === expectedStatus) return;
    // On a not-found model page the app's lookup of the model is what finds that it does not exist.
    // (401 for an anonymous caller, as the public hub answers a missing repository.)
    if (
      expectedStatus === 404 &&
      [401, 404].includes(response.status()) &&
      response.url().includes("/api/models/")
    )
      return;
    problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  return problems;
}

/** How far the page reaches past the viewport's right edge (0: nothing scrolls sideways). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** Elements that open a popover, a menu or a select, visible on the page now. */
// A text box with suggestions (the header search, an <input> combobox) opens nothing on a click: its list is
// checked where it is typed into (org-admin-pages.test.ts).
const TRIGGERS =
  '[aria-haspopup]:not([aria-haspopup="false"]), [role="combobox"]:not(input), details[data-menu] > summary';

/** What an open trigger shows: Radix content in its portal, or the panel of an open <details> menu. */
const OPEN_CONTENT = "[data-radix-popper-content-wrapper] > *, details[data-menu][open] > [data-menu-panel]";

/**
 * Opens every popover, menu and select of the page in turn and returns those whose open content is not
 * wholly inside the viewport horizontally (or starts above it), with where it was.
 */
export async function popoversOutsideViewport(page: Page): Promise<string[]> {
  const outside: string[] = [];
  const triggers = page.locator(TRIGGERS);
  const count = await triggers.count();
  for (let index = 0; index < count; index++) {
    const trigger = triggers.nth(index);
    if (!(await trigger.isVisible())) continue;
    const name =
      (await trigger.getAttribute("aria-label")) ?? (await trigger.textContent())?.trim() ?? `#${index}`;
    await trigger.scrollIntoViewIfNeeded();
    await trigger.click();
    const content = page.locator(OPEN_CONTENT).first();
    await content.waitFor({ state: "visible" });
    // Radix positions its content in the frame after it mounts.
    await page.waitForTimeout(50);
    const box = await content.evaluate((element) => {
      const rect = element.getBoundingClientRect();
      return { left: rect.left, right: rect.right, top: rect.top, width: window.innerWidth };
    });
    if (box.left < 0 || box.right > box.width || box.top < 0) {
      outside.push(`${name}: left ${Math.round(box.left)}, right ${Math.round(box.right)} of ${box.width}`);
    }
    await page.keyboard.press("Escape");
    await content.waitFor({ state: "hidden" });
  }
  return outside;
}

/**
 * Serious and critical axe findings of the page as it is now: in the light theme every WCAG 2.2 AA rule and
 * the best practices; in the dark one (the same DOM, other colours) the colour rules. `include` (a CSS
 * selector) checks only that part of the page, e.g. a panel whose state changed since the whole page was.
 */
export async function severeAxeFindings(
  page: Page,
  colorScheme: "light" | "dark" = "light",
  { include }: { include?: string } = {},
): Promise<string[]> {
  const { AxeBuilder } = await import("@axe-core/playwright");
  const builder = new AxeBuilder({ page });
  if (include) builder.include(include);
  const results = await (colorScheme === "light"
    ? builder.withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
    : builder.withRules(["color-contrast", "link-in-text-block"])
  ).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
    );
}

/** Largest Contentful Paint of a page's load, in ms, read once `ready` says the page shows its content. */
export async function largestContentfulPaint(
  page: Page,
  path: string,
  ready: () => Promise<unknown>,
): Promise<number> {
  await page.goto(path);
  await ready();
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries();
          resolve(entries[entries.length - 1]?.startTime ?? Number.NaN);
        }).observe({ type: "largest-contentful-paint", buffered: true });
      }),
  );
}

/**
 * The text of the option that has keyboard focus in an open list, or null: Radix moves focus into a list a
 * frame after it appears, and a key pressed before that is lost, so keyboard tests wait for it.
 */
export function focusedOption(page: Page): Promise<string | null> {
  return page.evaluate(() =>
    document.activeElement?.getAttribute("role") === "option" ? document.activeElement.textContent : null,
  );
}

/**
 * Contrast ratio (WCAG's, 1 to 21) of an element's colour `property` (e.g. `fill` of a chart's bar, the
 * `outline-color` of a focus ring) against the first opaque background of its ancestors; colours are read
 * through a canvas so that any CSS colour syntax counts (hex, rgb, oklch, color-mix), a translucent one (or
 * one faded by opacity) as seen over that background.
 */
export function contrastWithBackground(target: Locator, property: string): Promise<number> {
  return target.evaluate((element, property) => {
    const context = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
    const rgba = (color: string) => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = color;
      context.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = context.getImageData(0, 0, 1, 1).data;
      return [r!, g!, b!, a! / 255] as const;
    };
    const luminance = (color: readonly number[]) => {
      const linear = (c: number) =>
        c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4;
      return 0.2126 * linear(color[0]!) + 0.7152 * linear(color[1]!) + 0.0722 * linear(color[2]!);
    };
    let background: readonly number[] = [255, 255, 255, 1];
    for (let node = element.parentElement; node; node = node.parentElement) {
      const color = rgba(getComputedStyle(node).backgroundColor);
      if (color[3] >= 0.99) {
        background = color;
        break;
      }
    }
    const own = rgba(getComputedStyle(element).getPropertyValue(property));
    // An element's opacity (and its ancestors') fades its outline and fill too.
    let alpha = own[3];
    for (let node: Element | null = element; node; node = node.parentElement) {
      alpha *= Number(getComputedStyle(node).opacity);
    }
    const seen = [0, 1, 2].map((i) => own[i]! * alpha + background[i]! * (1 - alpha));
    const [light, dark] = [luminance(seen), luminance(background)].sort((a, b) => b - a);
    return Math.round(((light! + 0.05) / (dark! + 0.05)) * 100) / 100;
  }, property);
}

/** How the element with the keyboard focus shows it: its outline, and that outline's contrast. */
export interface FocusIndicator {
  /** The focused element, e.g. `button "Run query"`, for messages. */
  element: string;
  /** Outline width in CSS px (0 when the outline style is none). */
  width: number;
  /** Contrast of the outline against the background around the element (WCAG 2.2 non-text: ≥ 3). */
  contrast: number;
}

/**
 * The focus indicator of `document.activeElement` (null when nothing but the body has focus): the outline
 * that `:focus-visible` draws outside the element, and its contrast against what is around it.
 */
export async function focusIndicator(page: Page): Promise<FocusIndicator | null> {
  const focused = page.locator(":focus").first();
  if ((await focused.count()) === 0) return null;
  const seen = await focused.evaluate((element) => {
    const style = getComputedStyle(element);
    const role = element.getAttribute("role");
    const name = element.getAttribute("aria-label") ?? element.textContent?.trim().slice(0, 40) ?? "";
    return {
      element: `${element.tagName.toLowerCase()}${role ? `[role=${role}]` : ""} "${name}"`,
      width: style.outlineStyle === "none" ? 0 : Number.parseFloat(style.outlineWidth) || 0,
    };
  });
  return { ...seen, contrast: await contrastWithBackground(focused, "outline-color") };
}
