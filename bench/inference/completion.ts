/** The bench server's non-streamed answer: the one the server sends and the A/B harness answers from memory. */
export const COMPLETION = JSON.stringify({
  id: "chatcmpl-bench",
  object: "chat.completion",
  created: 1_700_000_000,
  model: "bench-model",
  choices: [
    {
      index: 0,
      message: { role: "assistant", content: "Hello! How can I help you today?" },
      finish_reason: "stop",
    },
  ],
  usage: { prompt_tokens: 9, completion_tokens: 9, total_tokens: 18 },
});

/**
 * The hub's model info for `bench-model` with its provider mapping: what a routed chat (a provider named,
 * through the router) looks up once before its mapping cache answers (ab.ts's routed variants).
 */
export const MAPPING = JSON.stringify({
  id: "bench-model",
  inferenceProviderMapping: {
    together: { status: "live", providerId: "bench-model", task: "conversational" },
  },
});
