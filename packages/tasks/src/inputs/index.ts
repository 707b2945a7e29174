// Which example a model gets (chat messages or the task's input) depends on it.
export { isConversational } from "../model-data.js";
export * from "./constants.js";
export { findModelInputExample, getModelInputExample } from "./model-input.js";
export { DEFAULT_MASK_TOKEN, DEFAULT_TASK_INPUTS, FILL_MASK_TEMPLATE } from "./task-defaults.js";
export type { ChatContentPart, ChatMessage, JsonValue, NoInputExample, TaskInputExample } from "./types.js";
