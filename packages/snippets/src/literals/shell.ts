import { shellWord } from "@modelhub/tasks/quoting";

/** A JSON document as one shell word (for `curl -d`), pretty-printed with 4-space indentation. */
export function shJson(value: unknown): string {
  return shellWord(JSON.stringify(value, null, 4));
}
