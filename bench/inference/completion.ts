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
