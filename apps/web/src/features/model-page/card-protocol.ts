import type { CardTree } from "./card-markdown.js";

/** What the page asks of the card worker, and what it answers (the same `id`). */
export interface CardRequest {
  id: number;
  source: string;
}

export type CardReply = { id: number } & (CardTree | { error: string });
