import { ByteReader } from "./byte-reader.js";
import { CONTENT_SCANNERS } from "./content-scanners.js";
import type {
  AntivirusResult,
  ContentScanner,
  FileScanReport,
  FileVerdict,
  PickleImport,
  ScanFinding,
  ScanSource,
} from "./scan-report.js";
import { SCAN_RULES_DIGEST } from "./scan-rules.js";

/**
 * The dispatcher: reads a file's first bytes, runs every content scanner that applies (registry:
 * content-scanners.ts) and the antivirus, and merges what they say into one report and verdict.
 */

/** Bump when a scanner's code changes what it finds; the rules data file is hashed in on its own. */
export const SCANNER_CODE_VERSION = 3;

/** The stamp stored with each report: a report made under another stamp is stale and the file is re-scanned. */
export const SCANNER_RULES_VERSION = `${SCANNER_CODE_VERSION}-${SCAN_RULES_DIGEST}`;

/** How much of the file the scanners see to decide whether they apply. */
export const HEAD_BYTES = 64 * 1024;

export interface ScanFileOptions {
  /** The antivirus (clamd); without one the report says "not-scanned", never "clean". */
  antivirus?: (source: ScanSource) => Promise<AntivirusResult>;
  /** The scanners to ask (tests); the registry by default. */
  scanners?: ContentScanner[];
}

export async function scanFile(source: ScanSource, options: ScanFileOptions = {}): Promise<FileScanReport> {
  const scanners = options.scanners ?? CONTENT_SCANNERS;
  const [content, antivirus] = await Promise.all([
    runScanners(source, scanners),
    runAntivirus(source, options),
  ]);
  const imports = dedupeImports(content.imports);
  const dangerous =
    imports.some((found) => found.safety === "dangerous") ||
    content.findings.some((finding) => finding.safety === "dangerous") ||
    antivirus.status === "infected";
  const suspicious =
    imports.some((found) => found.safety === "suspicious") ||
    content.findings.some((finding) => finding.safety === "suspicious");
  let verdict: FileVerdict = "safe";
  if (dangerous) verdict = "unsafe";
  else if (content.couldNotScan.length > 0) verdict = "could-not-scan";
  else if (suspicious) verdict = "suspicious";
  const report: FileScanReport = {
    verdict,
    scanners: content.scanners,
    pickleImports: imports,
    findings: content.findings,
    antivirus,
  };
  if (content.couldNotScan.length > 0) report.reason = content.couldNotScan.join("; ");
  return report;
}

async function readHead(source: ScanSource): Promise<Buffer> {
  const length = Math.min(HEAD_BYTES, source.size);
  if (length <= 0) return Buffer.alloc(0);
  const reader = ByteReader.fromStream(source.open({ start: 0, end: length - 1 }));
  try {
    await reader.ensure(length);
    return Buffer.from(reader.take(Math.min(length, reader.available())));
  } finally {
    await reader.close();
  }
}

async function runScanners(
  source: ScanSource,
  scanners: ContentScanner[],
): Promise<{ scanners: string[]; imports: PickleImport[]; findings: ScanFinding[]; couldNotScan: string[] }> {
  const out = {
    scanners: [] as string[],
    imports: [] as PickleImport[],
    findings: [] as ScanFinding[],
    couldNotScan: [] as string[],
  };
  let head: Buffer;
  try {
    head = await readHead(source);
  } catch (error) {
    out.couldNotScan.push(`the file could not be read: ${(error as Error).message}`);
    return out;
  }
  for (const scanner of scanners) {
    let applies = false;
    try {
      applies = scanner.appliesTo(source.path, head);
    } catch (error) {
      out.couldNotScan.push(`${scanner.id}: ${(error as Error).message}`);
      continue;
    }
    if (!applies) continue;
    out.scanners.push(scanner.id);
    try {
      const outcome = await scanner.scan(source);
      out.imports.push(...(outcome.pickleImports ?? []));
      out.findings.push(...outcome.findings);
      if (outcome.couldNotScan) out.couldNotScan.push(`${scanner.id}: ${outcome.couldNotScan}`);
    } catch (error) {
      // Scanners report bad input as couldNotScan; a throw is a scanner bug, still never a "safe".
      out.couldNotScan.push(`${scanner.id}: scanner failed: ${(error as Error).message}`);
    }
  }
  return out;
}

async function runAntivirus(source: ScanSource, options: ScanFileOptions): Promise<AntivirusResult> {
  if (!options.antivirus) {
    return { status: "not-scanned", virusNames: [], reason: "no antivirus is configured (set CLAMD_SOCKET)" };
  }
  try {
    return await options.antivirus(source);
  } catch (error) {
    return { status: "error", virusNames: [], reason: (error as Error).message };
  }
}

function dedupeImports(imports: PickleImport[]): PickleImport[] {
  const seen = new Set<string>();
  return imports.filter((found) => {
    const key = `${found.module}\u0000${found.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
