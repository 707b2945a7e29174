export { CardFields } from "./card-fields.js";
export { textFileDiff } from "./text-diff.js";
