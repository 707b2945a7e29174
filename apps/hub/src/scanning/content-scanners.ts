import { archiveScanner } from "./archive-scanner.js";
import { ggufScanner } from "./gguf-scanner.js";
import { kerasScanner } from "./keras-scanner.js";
import { numpyScanner } from "./numpy-scanner.js";
import { pickleScanner } from "./pickle-scanner.js";
import { safetensorsScanner } from "./safetensors-scanner.js";
import type { ContentScanner } from "./scan-report.js";
import { secretsScanner } from "./secrets-scanner.js";
import { tarScanner } from "./tar-scanner.js";

/**
 * Every content scanner the dispatcher (scan-file.ts) asks, in order. Add a scanner by appending it here;
 * each decides from the path and the first bytes whether it applies. Changing this list changes what a scan
 * finds: bump SCANNER_CODE_VERSION in scan-file.ts so stored reports are re-made.
 */
export const CONTENT_SCANNERS: ContentScanner[] = [
  pickleScanner,
  archiveScanner,
  tarScanner,
  numpyScanner,
  kerasScanner,
  safetensorsScanner,
  ggufScanner,
  secretsScanner,
];
