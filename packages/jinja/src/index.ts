export { type ChatTemplateInput, renderChatTemplate } from "./chat.js";
export { CompiledTemplate } from "./compiled-template.js";
export {
  LimitExceededError,
  SecurityError,
  type SyntaxErrorDetails,
  TemplateError,
  TemplateRaisedError,
  TemplateRuntimeError,
  TemplateSyntaxError,
  UndefinedError,
} from "./errors.js";
export { DEFAULT_LIMITS, type Limits } from "./sandbox.js";
export { precompileTemplate, Template, type TemplateOptions } from "./template.js";
