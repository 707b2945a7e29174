/// <reference lib="webworker" />
/**
 * Renders chat templates off the page's main thread (render-in-worker.ts starts it and stops it when a
 * render runs past its time limit): templates come from model repositories anyone can push to.
 */
import { renderChatTemplate, Template, TemplateSyntaxError } from "@modelhub/jinja";
import type { RenderReply, RenderRequest, RenderWorkerReady } from "./render-protocol.js";

// The Unicode name table that `\N{...}` escapes need is a chunk of its own, fetched only by a template
// that uses one (no chat template in the corpus does).
let unicodeNames: Promise<void> | undefined;
function loadUnicodeNames(): Promise<void> {
  unicodeNames ??= import("@modelhub/jinja/unicode-names").then((names) => names.installUnicodeNames());
  return unicodeNames;
}

const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.onmessage = async (event: MessageEvent<RenderRequest>) => {
  const { id, source, context } = event.data;
  if (source.includes("\\N{")) await loadUnicodeNames().catch(() => undefined);
  let reply: RenderReply;
  try {
    reply = { id, prompt: renderChatTemplate(new Template(source), context) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    reply = { id, error: message, phase: error instanceof TemplateSyntaxError ? "parse" : "render" };
  }
  scope.postMessage(reply);
};

// The imports above are loaded and run before this line: the page may start timing renders from now on.
const ready: RenderWorkerReady = { ready: true };
scope.postMessage(ready);
