import { memo } from "react";

/**
 * The embed code running for real: a sandboxed frame loads the hub's widget script with these options.
 * `allow-scripts` without `allow-same-origin` keeps the preview from touching this page.
 */
export const WidgetPreview = memo(function WidgetPreview({ embedCode }: { embedCode: string }) {
  const page = `<!doctype html><html><head><meta charset="utf-8"><meta name="color-scheme" content="light dark">
<style>body{margin:0;padding:16px;font-family:system-ui,sans-serif}</style></head><body>${embedCode}</body></html>`;
  return (
    <iframe
      title="Widget preview"
      srcDoc={page}
      sandbox="allow-scripts allow-popups"
      className="h-[28rem] w-full rounded-lg border border-line bg-transparent"
      data-testid="widget-preview"
    />
  );
});
