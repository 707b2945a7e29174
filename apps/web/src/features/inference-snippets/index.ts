export { InferenceSnippetsPanel } from "./inference-snippets-panel.js";
