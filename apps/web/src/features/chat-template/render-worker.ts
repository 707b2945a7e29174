/// <reference lib="webworker" />
/**
 * Renders chat templates off the page's main thread (render-in-worker.ts starts it and stops it when a
 * render runs past its time limit): templates come from model repositories anyone can push to.
 */
import { renderChatTemplate, Template, TemplateSyntaxError } from "@modelhub/jinja";
import type { RenderReply, RenderRequest } from "./render-protocol.js";

const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.onmessage = (event: MessageEvent<RenderRequest>) => {
  const { id, source, context } = event.data;
  let reply: RenderReply;
  try {
    reply = { id, prompt: renderChatTemplate(new Template(source), context) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    reply = { id, error: message, phase: error instanceof TemplateSyntaxError ? "parse" : "render" };
  }
  scope.postMessage(reply);
};
