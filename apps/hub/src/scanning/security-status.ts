import type { SecurityFileStatus } from "../repos/scan-port.js";
import type { FileScanReport, SafetyLevel } from "./scan-report.js";
import type { ScanItem } from "./scan-table.js";

/**
 * A report in the public hub's `securityFileStatus` shape. Could-not-scan is "suspicious" (never "safe": the
 * full report says why). A finished scan that found nothing is "safe", also when only the secrets scanner
 * read the file or when no content scanner applies to its kind (the dispatcher read its head: it is no
 * format that runs code when loaded), as the public hub calls `.gitattributes` safe; the full report's
 * `scanners` says which looked, and `avScan` stays null when no antivirus ran. "unscanned" is a file with no
 * queue row at all (the backfill queues those), "queued" one whose scan has not finished.
 */
export function securityFileStatus(item: ScanItem | undefined): SecurityFileStatus {
  const report = item?.status === "done" ? item.report : undefined;
  if (!report) {
    return { status: item ? "queued" : "unscanned", avScan: null, pickleImportScan: null };
  }
  return {
    status: publicStatus(report),
    avScan:
      report.antivirus.status === "clean" || report.antivirus.status === "infected"
        ? {
            virusFound: report.antivirus.status === "infected",
            virusNames: report.antivirus.virusNames.length ? report.antivirus.virusNames : null,
          }
        : null,
    pickleImportScan:
      report.pickleImports.length > 0
        ? {
            highestSafetyLevel: highest(report.pickleImports.map((entry) => entry.safety)),
            imports: report.pickleImports.map(({ module, name, safety }) => ({ module, name, safety })),
          }
        : null,
  };
}

function publicStatus(report: FileScanReport): SecurityFileStatus["status"] {
  switch (report.verdict) {
    case "unsafe":
      return "unsafe";
    case "suspicious":
    case "could-not-scan":
      return "suspicious";
    default:
      return "safe";
  }
}

const RANK: Record<SafetyLevel, number> = { innocuous: 0, suspicious: 1, dangerous: 2 };

function highest(levels: readonly SafetyLevel[]): SafetyLevel {
  return levels.reduce<SafetyLevel>(
    (worst, level) => (RANK[level] > RANK[worst] ? level : worst),
    "innocuous",
  );
}
