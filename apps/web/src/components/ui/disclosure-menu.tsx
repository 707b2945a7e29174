import { type ReactNode, useEffect, useRef } from "react";

interface DisclosureMenuProps {
  /** Text of the button that opens the menu. */
  summary: ReactNode;
  children: ReactNode;
  className?: string;
}

/**
 * A dropdown built on <details>: keyboard and screen-reader support come from the browser and it costs
 * no script download, which keeps the model page light. Escape and a click outside close it; so does
 * choosing a link inside.
 */
export function DisclosureMenu({ summary, children, className }: DisclosureMenuProps) {
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
    document.addEventListener("keydown", close);
    document.addEventListener("click", close);
    return () => {
      document.removeEventListener("keydown", close);
      document.removeEventListener("click", close);
    };
  }, []);
  return (
    <details ref={ref} className={`group relative ${className ?? ""}`}>
      <summary className="inline-flex h-9 cursor-pointer list-none items-center gap-1.5 rounded-md bg-accent px-3 text-sm font-medium text-accent-ink hover:opacity-90 [&::-webkit-details-marker]:hidden">
        {summary}
        <span aria-hidden="true" className="transition-transform group-open:rotate-180">
          ▾
        </span>
      </summary>
      <div className="absolute right-0 z-40 mt-1.5 max-h-[70vh] w-72 max-w-[calc(100vw-2rem)] overflow-auto rounded-lg border border-line bg-surface p-2 text-ink shadow-xl">
        {children}
      </div>
    </details>
  );
}
