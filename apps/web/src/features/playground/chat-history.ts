/** One question of the reader and the model's answer to it. */
export interface Exchange {
  id: number;
  user: string;
  reply: string;
  status: "streaming" | "done" | "stopped" | "failed";
  /** Why the call failed, in the client's words. */
  error?: string;
}

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/**
 * The messages sent for a new question: the system prompt, then every earlier exchange that produced an
 * answer (a stopped one keeps what arrived), then the question. Failed exchanges and empty answers are
 * never sent: the provider would read them as turns that happened.
 */
export function messagesFor(
  systemPrompt: string,
  earlier: readonly Exchange[],
  question: string,
): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (systemPrompt.trim()) messages.push({ role: "system", content: systemPrompt.trim() });
  for (const exchange of earlier) {
    if (exchange.status === "failed" || exchange.status === "streaming" || !exchange.reply) continue;
    messages.push({ role: "user", content: exchange.user }, { role: "assistant", content: exchange.reply });
  }
  messages.push({ role: "user", content: question });
  return messages;
}
