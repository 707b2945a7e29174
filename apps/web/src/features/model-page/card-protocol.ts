import type { Root } from "hast";

/** A card is shown up to this length: parsing costs milliseconds per kilobyte, tables far more. */
export const MAX_CARD_CHARACTERS = 100_000;

/** A card as the worker answers it: its sanitized tree, and how it was bounded. */
export interface CardTree {
  tree: Root;
  /** The source was longer than MAX_CARD_CHARACTERS and only its beginning is in `tree`. */
  cut: boolean;
  /** The Markdown could not be parsed (nested too deeply for the parser's stack): its text, shown as is. */
  plainText?: string;
}

/** What the page asks of the card worker, and what it answers (the same `id`). */
export interface CardRequest {
  id: number;
  source: string;
}

export type CardReply = { id: number } & (CardTree | { error: string });

/**
 * What the worker posts once its code (the Markdown parser) is loaded and run: only then does a card's time
 * limit start, so a slow connection or a busy phone is not taken for a card the parser cannot finish.
 */
export interface CardWorkerReady {
  ready: true;
}

export type CardWorkerMessage = CardReply | CardWorkerReady;
