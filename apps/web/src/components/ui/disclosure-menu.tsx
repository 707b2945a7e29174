import { type ReactNode, useEffect, useRef } from "react";

interface DisclosureMenuProps {
  /** Text of the button that opens the menu. */
  summary: ReactNode;
  children: ReactNode;
  className?: string;
  /** Replaces the button's look (the default is the accent-coloured button). */
  summaryClassName?: string;
  /** Hides the ▾ after the summary. */
  hideCaret?: boolean;
}

/**
 * A dropdown built on <details>: keyboard and screen-reader support come from the browser and it costs
 * no script download, which keeps the model page light. Escape and a click outside close it; so does
 * choosing a link inside.
 */
const SUMMARY_CLASS =
  "inline-flex h-9 cursor-pointer list-none items-center gap-1.5 rounded-md bg-accent px-3 text-sm font-medium text-accent-ink hover:opacity-90";

/** Below this much room the panel keeps its height and the page scrolls to it instead. */
const MIN_PANEL_HEIGHT = 160;

export function DisclosureMenu({
  summary,
  children,
  className,
  summaryClassName,
  hideCaret,
}: DisclosureMenuProps) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const close = (event: Event) => {
      if (!details.open) return;
      if (event instanceof KeyboardEvent) {
        if (event.key !== "Escape") return;
        details.open = false;
        details.querySelector("summary")?.focus();
        return;
      }
      const target = event.target as Node;
      const choseLink = target instanceof Element && target.closest("a") && details.contains(target);
      if (!details.contains(target) || choseLink) details.open = false;
    };
    // Anchored to the button's right edge, the panel can start left of the screen on a phone (the button
    // sits at the left): on opening, shift it back inside the viewport with an 8 px margin. Its height is
    // capped to the room below the button as well (70vh alone ran past the bottom of a phone's screen),
    // the rest scrolling inside it.
    const place = () => {
      const panel = details.querySelector<HTMLElement>("[data-menu-panel]");
      if (!panel || !details.open) return;
      panel.style.transform = "";
      panel.style.maxHeight = "";
      const rect = panel.getBoundingClientRect();
      const margin = 8;
      const roomBelow = window.innerHeight - margin - rect.top;
      if (rect.bottom > window.innerHeight - margin && roomBelow >= MIN_PANEL_HEIGHT) {
        panel.style.maxHeight = `${Math.floor(roomBelow)}px`;
      }
      const shift =
        rect.left < margin
          ? margin - rect.left
          : rect.right > window.innerWidth - margin
            ? window.innerWidth - margin - rect.right
            : 0;
      if (shift !== 0) panel.style.transform = `translateX(${shift}px)`;
    };
    details.addEventListener("toggle", place);
    window.addEventListener("resize", place);
    document.addEventListener("keydown", close);
    document.addEventListener("click", close);
    return () => {
      details.removeEventListener("toggle", place);
      window.removeEventListener("resize", place);
      document.removeEventListener("keydown", close);
      document.removeEventListener("click", close);
    };
  }, []);
  return (
    <details ref={ref} data-menu className={`group relative ${className ?? ""}`}>
      <summary className={`${summaryClassName ?? SUMMARY_CLASS} [&::-webkit-details-marker]:hidden`}>
        {summary}
        {hideCaret ? null : (
          <span aria-hidden="true" className="transition-transform group-open:rotate-180">
            ▾
          </span>
        )}
      </summary>
      <div
        data-menu-panel
        className="absolute right-0 z-40 mt-1.5 max-h-[70vh] w-72 max-w-[calc(100vw-1rem)] overflow-auto rounded-lg border border-line bg-surface p-2 text-ink shadow-xl"
      >
        {children}
      </div>
    </details>
  );
}
