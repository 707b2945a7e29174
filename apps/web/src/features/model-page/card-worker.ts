/// <reference lib="webworker" />
import { cardToTree } from "./card-markdown.js";
import type { CardReply, CardRequest } from "./card-protocol.js";

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
