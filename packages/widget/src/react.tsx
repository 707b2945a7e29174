/**
 * `<TopProductsWidget>` for React hosts: loads the very same script tag a plain page would, with typed
 * options, and reloads it when the options change. React never renders inside the widget; the script owns
 * that subtree (a shadow root), and this component only owns the empty element around it.
 */
import { useEffect, useRef } from "react";
import { buildScriptUrl } from "./embed-code.js";
import type { WidgetOptions } from "./options.js";

export interface TopProductsWidgetProps extends Partial<Omit<WidgetOptions, "container">> {
  /** The hub serving the script, e.g. "https://hub.example.org". */
  hubUrl: string;
  className?: string;
}

export function TopProductsWidget({ hubUrl, className, ...options }: TopProductsWidgetProps) {
  const holder = useRef<HTMLDivElement>(null);
  const src = buildScriptUrl(options, hubUrl);

  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const script = document.createElement("script");
    script.src = src;
    script.async = true;
    element.appendChild(script);
    return () => element.replaceChildren();
  }, [src]);

  return <div ref={holder} className={className} data-modelhub-widget-src={src} />;
}
