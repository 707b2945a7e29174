export { type BatchEntry, type BatchResult, runSnippetBatch } from "./batch/run-batch.js";
export { HUB_TOKEN, makeWorkDir, OUTPUT_FILES } from "./run-snippet.js";
