import type { SecurityFileStatus } from "../../lib/api/scan.js";
import { antivirusLine, describeFileStatus, TONE_CLASS } from "./scan-status.js";

/**
 * A file's scan as a small badge: words and a glyph (never colour alone), the plain-words summary and the
 * antivirus line in its title, and "Security scan:" for screen readers.
 */
export function ScanBadge({
  security,
  verdict,
  scanners,
}: {
  security: SecurityFileStatus | undefined | null;
  /** The full report's verdict, when known: it tells "could not scan" from "suspicious". */
  verdict?: string;
  /** The full report's scanners, when known: a safe file's title says what looked at it. */
  scanners?: readonly string[];
}) {
  const description = describeFileStatus(security, verdict, scanners);
  const antivirus = description.kind === "pending" ? null : antivirusLine(security);
  const title = antivirus ? `${description.summary} Antivirus: ${antivirus.text}` : description.summary;
  return (
    <span
      data-testid="scan-badge"
      data-scan={description.kind}
      title={title}
      className={`inline-flex shrink-0 items-center gap-1 rounded border px-1 text-[11px] font-medium ${TONE_CLASS[description.tone]}`}
    >
      <span aria-hidden="true">{description.glyph}</span>
      <span className="sr-only">Security scan: </span>
      {description.label}
    </span>
  );
}
