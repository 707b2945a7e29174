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
  document.getElementById(FIRST_VIEW_ID)?.remove();
}

/** Removes the first view when the calling component commits (layout effect: before the browser paints). */
export function useReplaceFirstView(): void {
  useLayoutEffect(replaceFirstView, []);
}

/** Removes a first view written for another page than `pathname` (the reader went elsewhere, or none matches). */
export function useFirstViewOnlyFor(pathname: string): void {
  useLayoutEffect(() => {
    const view = document.getElementById(FIRST_VIEW_ID);
    if (view && view.dataset.path !== safeDecode(pathname)) view.remove();
  }, [pathname]);
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
