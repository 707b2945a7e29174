import { describe, expect, it } from "vitest";
import { type Exchange, messagesFor } from "./chat-history.js";

const exchange = (id: number, status: Exchange["status"], reply: string): Exchange => ({
  id,
  user: `question ${id}`,
  reply,
  status,
});

describe("messagesFor", () => {
  it("sends answered exchanges and the new question, never a failed turn or an empty answer", () => {
    const earlier = [
      exchange(1, "done", "answer 1"),
      exchange(2, "failed", ""),
      exchange(3, "stopped", "half an ans"),
      exchange(4, "stopped", ""),
    ];
    expect(messagesFor("", earlier, "next")).toEqual([
      { role: "user", content: "question 1" },
      { role: "assistant", content: "answer 1" },
      { role: "user", content: "question 3" },
      { role: "assistant", content: "half an ans" },
      { role: "user", content: "next" },
    ]);
  });

  it("puts a system prompt first, and none when it is blank", () => {
    expect(messagesFor("  Be brief. ", [], "hi")[0]).toEqual({ role: "system", content: "Be brief." });
    expect(messagesFor("   ", [], "hi")).toEqual([{ role: "user", content: "hi" }]);
  });
});
