import type { ChatTemplateInput } from "@modelhub/jinja";

/** Messages between the page and the chat-template render worker. */
export interface RenderRequest {
  id: number;
  source: string;
  context: ChatTemplateInput;
}

export type RenderReply =
  | { id: number; prompt: string }
  | { id: number; error: string; phase: "parse" | "render" | "timeout" };

export type RenderOutcome = { prompt: string } | { error: string; phase: "parse" | "render" | "timeout" };
