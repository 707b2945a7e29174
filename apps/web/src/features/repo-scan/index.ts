export { FileScan } from "./file-scan.js";
export { RepoScanNotice } from "./repo-scan-notice.js";
export { ScanBadge } from "./scan-badge.js";
export { ScanPanel } from "./scan-panel.js";
export { useServable } from "./use-servable.js";
