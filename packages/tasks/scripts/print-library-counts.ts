/**
 * Prints the catalogue figures for the README:
 *   node --conditions=source --import tsx packages/tasks/scripts/print-library-counts.ts
 */
import { computeLibraryCounts } from "../src/libraries/counts.js";

const counts = computeLibraryCounts();
const pct = (n: number) => `${((100 * n) / counts.libraries).toFixed(1)}%`;
process.stdout.write(
  [
    `libraries:                 ${counts.libraries}`,
    `with snippets:             ${counts.withSnippets} (${pct(counts.withSnippets)})`,
    `with loading code:         ${counts.withLoadingCode} (${pct(counts.withLoadingCode)})`,
    `download-only snippets:    ${counts.downloadOnly} (${pct(counts.downloadOnly)})`,
    `with docs link:            ${counts.withDocs} (${pct(counts.withDocs)})`,
    `  of which README as docs: ${counts.docsAreReadme}`,
    `offered as filters:        ${counts.filters}`,
    `with download query:       ${counts.withDownloadQuery}`,
    "",
  ].join("\n"),
);
