import type { ScanPolicy } from "./scan-service.js";

/** SCAN_POLICY and SCAN_CONCURRENCY (the antivirus's CLAMD_* settings are read by clamd-antivirus.ts). */
export interface ScanSettings {
  /** `warn` (default): files are served with their status; `block`: unsafe files' bytes are refused. */
  policy: ScanPolicy;
  /** Scans at once per hub process (default 1): the scanner stays off the uploads' CPU. */
  concurrency: number;
}

export const DEFAULT_SCAN_CONCURRENCY = 1;

export function parseScanSettings(env: Record<string, string | undefined>, problems: string[]): ScanSettings {
  const policy = (env.SCAN_POLICY?.trim() || "warn") as ScanPolicy;
  if (policy !== "warn" && policy !== "block") {
    problems.push(`SCAN_POLICY must be warn or block, got "${env.SCAN_POLICY}".`);
  }
  let concurrency = DEFAULT_SCAN_CONCURRENCY;
  const raw = env.SCAN_CONCURRENCY?.trim();
  if (raw) {
    if (!/^\d{1,2}$/.test(raw) || Number(raw) < 1 || Number(raw) > 32) {
      problems.push(`SCAN_CONCURRENCY must be a whole number from 1 to 32, got "${raw}".`);
    } else concurrency = Number(raw);
  }
  return { policy, concurrency };
}
