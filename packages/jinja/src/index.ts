export { type ChatTemplateInput, renderChatTemplate } from "./chat.js";
// Everything the precompiled entry point offers, plus parsing from source.
export * from "./precompiled.js";
export { precompileTemplate, Template } from "./template.js";
