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

/**
 * What the worker posts once its code (the template engine) is loaded and run: only then does a render's time
 * limit start, so a slow connection or a busy phone is not taken for a template too slow to render.
 */
export interface RenderWorkerReady {
  ready: true;
}

export type RenderWorkerMessage = RenderReply | RenderWorkerReady;
