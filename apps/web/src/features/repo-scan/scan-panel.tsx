import type { ReactNode } from "react";
import type { PickleImportView, SafetyLevel, SecurityFileStatus } from "../../lib/api/scan.js";
import { ScanBadge } from "./scan-badge.js";
import {
  antivirusLine,
  describeFileStatus,
  SAFETY_MEANING,
  SAFETY_ORDER,
  type ScanTone,
  TONE_CLASS,
} from "./scan-status.js";

/** A finding that is not a pickle import (a Keras Lambda layer, a secret's kind and line, a bad header). */
export interface ScanFindingView {
  scanner: string;
  safety: SafetyLevel;
  message: string;
  location?: string;
}

/** What the file's full report adds to its `securityFileStatus`, when the hub gives it. */
export interface ScanDetails {
  findings: ScanFindingView[];
  /** Why the file could not be scanned. */
  reason?: string;
  /** The antivirus in the report's words: `not-scanned` with its reason is never "clean". */
  antivirus?: {
    status: "clean" | "infected" | "not-scanned" | "error";
    virusNames: string[];
    reason?: string;
  };
}

/**
 * The file page's scan: the verdict in plain words, the imports a pickle makes with what each level means,
 * the other findings, and the antivirus line. `children` is where the download policy's notice goes.
 */
export function ScanPanel({
  security,
  details,
  children,
}: {
  security: SecurityFileStatus | undefined;
  details?: ScanDetails | null;
  children?: ReactNode;
}) {
  const description = describeFileStatus(security);
  const imports = [...(security?.pickleImportScan?.imports ?? [])].sort(
    (a, b) => SAFETY_ORDER[a.safety] - SAFETY_ORDER[b.safety],
  );
  const findings = details?.findings ?? [];
  const antivirus = antivirusOf(security, details, description.kind === "pending");
  return (
    <section
      aria-labelledby="scan-heading"
      data-testid="scan-panel"
      className="flex flex-col gap-3 rounded-lg border border-line bg-surface p-3 text-sm"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h3 id="scan-heading" className="font-semibold">
          Security scan
        </h3>
        <ScanBadge security={security} />
      </div>
      <p>{description.summary}</p>
      {details?.reason && description.kind === "could-not-scan" ? (
        <p data-testid="scan-reason">
          <span className="text-muted">Why: </span>
          {details.reason}
        </p>
      ) : null}
      {imports.length > 0 ? <ImportList imports={imports} /> : null}
      {findings.length > 0 ? <FindingList findings={findings} /> : null}
      <p data-testid="scan-antivirus" className={toneText(antivirus.tone)}>
        <span className="text-muted">Antivirus: </span>
        {antivirus.text}
      </p>
      {children}
    </section>
  );
}

function ImportList({ imports }: { imports: PickleImportView[] }) {
  const levels = [...new Set(imports.map((item) => item.safety))];
  return (
    <div className="flex flex-col gap-2">
      <h4 className="font-medium">
        Imports found in the pickle{imports.length > 1 ? "s" : ""} ({imports.length})
      </h4>
      <ul aria-label="Pickle imports" data-testid="scan-imports" className="flex flex-col gap-1">
        {imports.map((item) => (
          <li key={`${item.module}.${item.name}`} className="flex min-w-0 flex-wrap items-center gap-2">
            <code className="min-w-0 break-all font-mono text-xs">
              {item.module}.{item.name}
            </code>
            <SafetyLabel level={item.safety} />
          </li>
        ))}
      </ul>
      <dl aria-label="What each level means" className="flex flex-col gap-1 text-muted">
        {levels.map((level) => (
          <div key={level}>
            <dt className="inline font-medium text-ink">{SAFETY_MEANING[level].label}: </dt>
            <dd className="inline">{SAFETY_MEANING[level].meaning}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function FindingList({ findings }: { findings: ScanFindingView[] }) {
  return (
    <div className="flex flex-col gap-2">
      <h4 className="font-medium">Findings ({findings.length})</h4>
      <ul aria-label="Findings" data-testid="scan-findings" className="flex flex-col gap-1">
        {findings.map((finding, index) => (
          // Findings carry no id; their order is the report's and never changes while shown.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above.
          <li key={index} className="flex min-w-0 flex-wrap items-baseline gap-2">
            <SafetyLabel level={finding.safety} />
            <span className="min-w-0 break-words">{finding.message}</span>
            {finding.location ? <span className="break-all text-muted">({finding.location})</span> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

function SafetyLabel({ level }: { level: SafetyLevel }) {
  const meaning = SAFETY_MEANING[level] ?? { label: level, meaning: "", tone: "neutral" as const };
  return (
    <span
      title={meaning.meaning}
      className={`shrink-0 rounded border px-1 text-[11px] font-medium ${TONE_CLASS[meaning.tone]}`}
    >
      {meaning.label}
    </span>
  );
}

function antivirusOf(
  security: SecurityFileStatus | undefined,
  details: ScanDetails | null | undefined,
  pending: boolean,
): { text: string; tone: ScanTone } {
  if (pending) return { text: "waiting for the scan.", tone: "neutral" };
  const report = details?.antivirus;
  if (report?.status === "not-scanned") {
    return { text: `not scanned${report.reason ? `: ${report.reason}` : ""}.`, tone: "neutral" };
  }
  if (report?.status === "error") {
    return { text: `the scan failed${report.reason ? `: ${report.reason}` : ""}.`, tone: "warn" };
  }
  return antivirusLine(security);
}

function toneText(tone: ScanTone): string {
  return tone === "danger" ? "text-danger" : tone === "warn" ? "text-warn" : "";
}
