import { useLayoutEffect } from "react";

/**
 * The hub writes a page's first view into the HTML it serves (apps/hub/src/http/first-view.ts): the model card
 * page's header and card opening, painted before any script runs. styles.css hides the app's root while the
 * first view is in the document; the app removes it in the commit that shows the same content (or an error,
 * or another page), before that commit paints, so the reader sees one page or the other, never both.
 */
const FIRST_VIEW_ID = "first-view";

/** Removes the first view, if any, which shows the app's root. */
export function replaceFirstView(): void {
  const view = document.getElementById(FIRST_VIEW_ID);
  if (view) removeKeepingFocus(view);
}

/**
 * A keyboard reader may have tabbed into the first view before the app took over: removing it would drop their
 * focus to the top of the page, so it moves to the app's same element (same tag, target and text), if any.
 */
function removeKeepingFocus(view: HTMLElement): void {
  const focused = document.activeElement;
  const carried = focused instanceof HTMLElement && view.contains(focused) ? focused : undefined;
  view.remove();
  if (carried) counterpartOf(carried)?.focus();
}

function counterpartOf(element: HTMLElement): HTMLElement | undefined {
  const href = element.getAttribute("href");
  const text = element.textContent?.trim();
  const candidates = document.getElementById("root")?.querySelectorAll<HTMLElement>(element.tagName) ?? [];
  return [...candidates].find(
    (candidate) => candidate.getAttribute("href") === href && candidate.textContent?.trim() === text,
  );
}

/** Removes the first view when the calling component commits (layout effect: before the browser paints). */
export function useReplaceFirstView(): void {
  useLayoutEffect(replaceFirstView, []);
}

/** Removes a first view written for another page than `pathname` (the reader went elsewhere, or none matches). */
export function useFirstViewOnlyFor(pathname: string): void {
  useLayoutEffect(() => {
    const view = document.getElementById(FIRST_VIEW_ID);
    if (view && view.dataset.path !== safeDecode(pathname)) removeKeepingFocus(view);
  }, [pathname]);
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
