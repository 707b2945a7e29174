import { describe, expect, it } from "vitest";
import { message, nextRole, starterConversation } from "./conversation.js";

describe("conversation editing helpers", () => {
  it("gives every message its own key", () => {
    const keys = starterConversation().map((entry) => entry.key);
    expect(new Set(keys).size).toBe(keys.length);
  });
  it("alternates speakers for a new message", () => {
    expect(nextRole([message("user", "hi")])).toBe("assistant");
    expect(nextRole([message("assistant", "hello")])).toBe("user");
    expect(nextRole([])).toBe("user");
  });
});
