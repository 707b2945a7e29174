import type { CompiledTemplate, TemplateOptions } from "./compiled-template.js";
import { Template } from "./template.js";

export interface ChatTemplateInput {
  messages: unknown[];
  /** Tool JSON schemas; transformers passes None when there are none. */
  tools?: unknown[] | null;
  /** RAG documents; transformers passes None when there are none. */
  documents?: unknown[] | null;
  add_generation_prompt?: boolean;
  bos_token?: string;
  eos_token?: string;
  [extra: string]: unknown;
}

/**
 * Renders a chat template the way transformers' `apply_chat_template(tokenize=False)` does:
 * `tools` and `documents` default to None (not undefined), `add_generation_prompt` to False,
 * and every extra key (special tokens, template kwargs) becomes a template variable.
 */
export function renderChatTemplate(
  template: string | CompiledTemplate,
  input: ChatTemplateInput,
  options?: TemplateOptions,
): string {
  const compiled = typeof template === "string" ? new Template(template, options) : template;
  const { messages, tools, documents, add_generation_prompt, ...extra } = input;
  return compiled.render({
    ...extra,
    messages,
    tools: tools ?? null,
    documents: documents ?? null,
    add_generation_prompt: add_generation_prompt ?? false,
  });
}
