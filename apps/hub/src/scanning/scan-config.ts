import { type ClamdConfig, clamdConfigFromEnv } from "./clamd-antivirus.js";
import type { ScanPolicy } from "./scan-service.js";

/** SCAN_POLICY, SCAN_CONCURRENCY and the antivirus's CLAMD_* settings (read by clamd-antivirus.ts). */
export interface ScanSettings {
  /** `warn` (default): files are served with their status; `block`: unsafe files' bytes are refused. */
  policy: ScanPolicy;
  /** Scans at once per hub process (default 1): the scanner stays off the uploads' CPU. */
  concurrency: number;
  /** CLAMD_SOCKET (or CLAMD_TCP) and the CLAMD_* limits: the antivirus; unset, reports say "not scanned". */
  clamd?: ClamdConfig;
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
  let clamd: ClamdConfig | undefined;
  try {
    clamd = clamdConfigFromEnv(env);
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error));
  }
  return { policy, concurrency, ...(clamd ? { clamd } : {}) };
}
