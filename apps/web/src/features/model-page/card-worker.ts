/// <reference lib="webworker" />
import { cardToTree } from "./card-markdown.js";
import type { CardReply, CardRequest, CardWorkerReady } from "./card-protocol.js";

/** Parses and sanitizes cards off the page's thread: a 100,000-character card takes seconds on a phone. */
self.onmessage = (event: MessageEvent<CardRequest>) => {
  const { id, source } = event.data;
  let reply: CardReply;
  try {
    reply = { id, ...cardToTree(source) };
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  self.postMessage(reply);
};

// The imports above are loaded and run before this line: the page may start timing cards from now on.
const ready: CardWorkerReady = { ready: true };
self.postMessage(ready);
