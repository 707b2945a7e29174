import { isScanPending, type SafetyLevel, type SecurityFileStatus } from "../../lib/api/scan.js";

/** What the pages show for a file's scan: one of these, never "safe" unless the hub said so. */
export type ScanKind =
  | "safe"
  | "suspicious"
  | "unsafe"
  | "could-not-scan"
  | "pending"
  | "unscanned"
  | "unknown";

/** The tone of a badge; every tone also has its own words and glyph (colour is never the only signal). */
export type ScanTone = "ok" | "warn" | "danger" | "neutral";

export interface ScanDescription {
  kind: ScanKind;
  /** The badge's words: "Unsafe", "Could not scan"... */
  label: string;
  /** A glyph shown beside the words (hidden from screen readers, which read the words). */
  glyph: string;
  tone: ScanTone;
  /** One sentence in plain words for the badge's title and the file page. */
  summary: string;
}

const KINDS: Record<ScanKind, Omit<ScanDescription, "summary"> & { summary: string }> = {
  safe: {
    kind: "safe",
    label: "Safe",
    glyph: "✓",
    tone: "ok",
    summary: "The scan found nothing that runs code or leaks a secret.",
  },
  suspicious: {
    kind: "suspicious",
    label: "Suspicious",
    glyph: "!",
    tone: "warn",
    summary:
      "The file uses something the scanners cannot vouch for: check what it imports before loading it.",
  },
  unsafe: {
    kind: "unsafe",
    label: "Unsafe",
    glyph: "✕",
    tone: "danger",
    summary: "Loading this file can run code on your machine: do not load it unless you trust who made it.",
  },
  "could-not-scan": {
    kind: "could-not-scan",
    label: "Could not scan",
    glyph: "?",
    tone: "warn",
    summary:
      "The scanners could not read this file (malformed, truncated or over a limit), so nothing is known about it.",
  },
  pending: {
    kind: "pending",
    label: "Scanning…",
    glyph: "…",
    tone: "neutral",
    summary: "The file is waiting to be scanned or being scanned now.",
  },
  unscanned: {
    kind: "unscanned",
    label: "Not scanned",
    glyph: "–",
    tone: "neutral",
    summary: "This file has not been scanned: nothing is known about it.",
  },
  unknown: {
    kind: "unknown",
    label: "Unknown",
    glyph: "?",
    tone: "neutral",
    summary: "The hub gave a scan status this page does not know.",
  },
};

/** The scan kind a `securityFileStatus.status` names (the hub's words and the public hub's). */
function kindOf(status: string): ScanKind {
  switch (status.toLowerCase()) {
    case "safe":
    case "innocuous":
      return "safe";
    case "suspicious":
    case "caution":
      return "suspicious";
    case "unsafe":
    case "dangerous":
    case "infected":
      return "unsafe";
    case "could-not-scan":
    case "could_not_scan":
    case "error":
      return "could-not-scan";
    case "unscanned":
    case "not-scanned":
      return "unscanned";
    default:
      return "unknown";
  }
}

/**
 * How to show a file's scan. A virus found makes it unsafe whatever the status says; an import the hub calls
 * dangerous makes it unsafe too (the stricter reading wins). `verdict`, from the file's full report, tells a
 * file that could not be scanned from a suspicious one (`securityFileStatus` calls both "suspicious").
 */
export function describeFileStatus(
  security: SecurityFileStatus | undefined | null,
  verdict?: string,
  /** The full report's scanners, when known: a safe file says what looked at it. */
  scanners?: readonly string[],
): ScanDescription {
  if (!security) return KINDS.unscanned;
  let kind = isScanPending(security) ? "pending" : kindOf(security.status);
  if (verdict === "could-not-scan" && kind !== "pending" && kind !== "unsafe") kind = "could-not-scan";
  const highest = security.pickleImportScan?.highestSafetyLevel;
  if (security.avScan?.virusFound || highest === "dangerous") kind = "unsafe";
  else if (highest === "suspicious" && (kind === "safe" || kind === "unknown")) kind = "suspicious";
  const description = KINDS[kind];
  if (security.avScan?.virusFound) {
    return { ...description, summary: "The antivirus flagged this file: do not download or open it." };
  }
  if (kind === "safe" && scanners) {
    const summary = safeSummary(scanners);
    if (summary) return { ...description, summary };
  }
  return kind === "unknown"
    ? {
        ...description,
        label: `Unknown (${security.status})`,
        summary: `${description.summary} (“${security.status}”)`,
      }
    : description;
}

/**
 * What "safe" rests on when the report says which scanners read the file: none applies to its kind, or only
 * the secrets scanner read it. Undefined when a code scanner read it (the generic words hold).
 */
function safeSummary(scanners: readonly string[]): string | undefined {
  if (scanners.length === 0) {
    return "No scanner applies to this kind of file (it is no pickle, archive, Keras, safetensors, GGUF or text file): nothing in it is loaded as code.";
  }
  if (scanners.length === 1 && scanners[0] === "secrets") {
    return "Text, checked for secrets (access tokens, cloud keys, private keys): none found. Text runs no code when loaded.";
  }
  return undefined;
}

/** What one import's safety level means, in plain words. */
export const SAFETY_MEANING: Record<SafetyLevel, { label: string; meaning: string; tone: ScanTone }> = {
  innocuous: {
    label: "Innocuous",
    meaning:
      "A known data type (tensors, arrays, collections): loading it builds data and runs nothing else.",
    tone: "ok",
  },
  suspicious: {
    label: "Suspicious",
    meaning: "Not on the list of known-safe imports: it may be harmless, but it could run code when loaded.",
    tone: "warn",
  },
  dangerous: {
    label: "Dangerous",
    meaning: "Runs commands, evaluates code or opens files and sockets when the pickle is loaded.",
    tone: "danger",
  },
};

/** The order imports are listed in: the most dangerous first. */
export const SAFETY_ORDER: Record<SafetyLevel, number> = { dangerous: 0, suspicious: 1, innocuous: 2 };

/**
 * The antivirus line, after "Antivirus: ". No antivirus configured is "not scanned", never "clean": `avScan`
 * null or absent on a scanned file means the antivirus did not run.
 */
export function antivirusLine(security: SecurityFileStatus | undefined | null): {
  text: string;
  tone: ScanTone;
} {
  const av = security?.avScan;
  if (!av) return { text: "not scanned: no antivirus is configured on this hub.", tone: "neutral" };
  if (av.virusFound) {
    const names = av.virusNames?.length ? av.virusNames.join(", ") : "an unnamed threat";
    return { text: `found ${names}.`, tone: "danger" };
  }
  return { text: "clean: it found nothing.", tone: "ok" };
}

/** Tailwind classes of each tone (text and border differ too, so the badge's words carry it in any theme). */
export const TONE_CLASS: Record<ScanTone, string> = {
  ok: "border-ok/50 text-ok",
  warn: "border-warn/60 bg-warn-soft text-warn",
  danger: "border-danger/60 bg-danger-soft text-danger",
  neutral: "border-line text-muted",
};
