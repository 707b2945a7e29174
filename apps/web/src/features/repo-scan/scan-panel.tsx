import type { ReactNode } from "react";
import type {
  FileScanView,
  PickleImportView,
  SafetyLevel,
  ScanFindingView,
  SecurityFileStatus,
} from "../../lib/api/scan.js";
import { ScanBadge } from "./scan-badge.js";
import {
  antivirusLine,
  describeFileStatus,
  SAFETY_MEANING,
  SAFETY_ORDER,
  type ScanTone,
  TONE_CLASS,
} from "./scan-status.js";

/**
 * The file page's scan: the verdict in plain words, the imports a pickle makes with what each level means,
 * the other findings, and the antivirus line. `children` is where the download policy's notice goes.
 */
export function ScanPanel({
  security,
  report,
  children,
}: {
  security: SecurityFileStatus | undefined;
  /** The full report, when the hub gives one: findings, the could-not-scan reason, the antivirus's words. */
  report?: FileScanView | null;
  children?: ReactNode;
}) {
  const description = describeFileStatus(security, report?.verdict, report?.scanners);
  const imports = [...(security?.pickleImportScan?.imports ?? [])].sort(
    (a, b) => SAFETY_ORDER[a.safety] - SAFETY_ORDER[b.safety],
  );
  const findings = report?.findings ?? [];
  const antivirus = antivirusOf(security, report, description.kind === "pending");
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
        <ScanBadge security={security} verdict={report?.verdict} scanners={report?.scanners} />
      </div>
      <p>{description.summary}</p>
      {report?.reason && description.kind === "could-not-scan" ? (
        <p data-testid="scan-reason">
          <span className="text-muted">Why: </span>
          {report.reason}
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
      <h4 className="font-medium">Imports the pickle data makes ({imports.length})</h4>
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
          <li key={index} className="min-w-0 break-words">
            <SafetyLabel level={finding.safety} /> {finding.message}
            {finding.location ? <span className="text-muted"> ({finding.location})</span> : null}
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
      className={`inline-block rounded border px-1 text-[11px] font-medium ${TONE_CLASS[meaning.tone]}`}
    >
      {meaning.label}
    </span>
  );
}

function antivirusOf(
  security: SecurityFileStatus | undefined,
  report: FileScanView | null | undefined,
  pending: boolean,
): { text: string; tone: ScanTone } {
  if (pending) return { text: "waiting for the scan.", tone: "neutral" };
  const antivirus = report?.antivirus;
  if (antivirus?.status === "not-scanned") {
    return { text: `not scanned${antivirus.reason ? `: ${antivirus.reason}` : ""}.`, tone: "neutral" };
  }
  if (antivirus?.status === "error") {
    return { text: `the scan failed${antivirus.reason ? `: ${antivirus.reason}` : ""}.`, tone: "warn" };
  }
  return antivirusLine(security);
}

function toneText(tone: ScanTone): string {
  return tone === "danger" ? "text-danger" : tone === "warn" ? "text-warn" : "";
}
