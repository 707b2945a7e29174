import { useEffect, useState } from "react";

interface CopyButtonProps {
  text: string;
  /** What is copied, for the accessible name: "Copy {what}". */
  what: string;
  /** The button's text before it is pressed: "Copy" unless it needs to say what, as "Copy link". */
  label?: string;
  className?: string;
}

/** Copies `text` to the clipboard and announces the result to screen readers. */
export function CopyButton({ text, what, label = "Copy", className }: CopyButtonProps) {
  const [status, setStatus] = useState<"idle" | "copied" | "failed">("idle");

  useEffect(() => {
    if (status === "idle") return;
    const timer = setTimeout(() => setStatus("idle"), 1500);
    return () => clearTimeout(timer);
  }, [status]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setStatus("copied");
    } catch {
      setStatus("failed");
    }
  };

  return (
    <button
      type="button"
      onClick={copy}
      aria-label={`Copy ${what}`}
      className={`inline-flex h-7 items-center gap-1 rounded-md border border-line bg-surface px-2 text-xs font-medium text-muted hover:text-ink ${className ?? ""}`}
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="size-3.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        <rect x="9" y="9" width="11" height="11" rx="2" />
        <path d="M5 15V5a2 2 0 0 1 2-2h10" />
      </svg>
      <span aria-live="polite">
        {status === "copied" ? "Copied" : status === "failed" ? "Copy failed" : label}
      </span>
    </button>
  );
}
