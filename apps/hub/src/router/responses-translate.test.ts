import { describe, expect, it } from "vitest";
import { ResponseEventWriter, translateCompletion, translateRequest } from "./responses-translate.js";

/** The Responses API's translation to and from chat completions, on shapes the clients send and read. */
const events = (sse: string) =>
  sse
    .split("\n\n")
    .filter(Boolean)
    .map((block) => JSON.parse(block.split("\n")[1]!.slice("data: ".length)) as Record<string, unknown>);

describe("translateRequest", () => {
  it("turns items, function calls and their outputs, tools and formats into a chat body", () => {
    const { chat, stream } = translateRequest({
      model: "a/b",
      instructions: "Be brief",
      input: [
        { role: "developer", content: "Use tools" },
        { type: "message", role: "user", content: [{ type: "input_text", text: "Weather?" }] },
        { type: "function_call", call_id: "c1", name: "weather", arguments: '{"city":"Paris"}' },
        { type: "function_call_output", call_id: "c1", output: "sunny" },
      ],
      tools: [{ type: "function", name: "weather", parameters: { type: "object" }, strict: null }],
      tool_choice: { type: "function", name: "weather" },
      text: { format: { type: "json_schema", name: "w", schema: { type: "object" } } },
      max_output_tokens: 9,
    });
    expect(stream).toBe(false);
    expect(chat).toEqual({
      model: "a/b",
      messages: [
        { role: "system", content: "Be brief" },
        { role: "system", content: "Use tools" },
        { role: "user", content: [{ type: "text", text: "Weather?" }] },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "c1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: "tool", tool_call_id: "c1", content: "sunny" },
      ],
      max_tokens: 9,
      tools: [{ type: "function", function: { name: "weather", parameters: { type: "object" } } }],
      tool_choice: { type: "function", function: { name: "weather" } },
      response_format: { type: "json_schema", json_schema: { name: "w", schema: { type: "object" } } },
    });
  });

  it("refuses what needs stored state or OpenAI's own tools, saying why", () => {
    expect(() => translateRequest({ model: "a/b", input: "x", previous_response_id: "r" })).toThrow(
      /does not keep/,
    );
    expect(() => translateRequest({ model: "a/b", input: "x", tools: [{ type: "file_search" }] })).toThrow(
      /Only function tools/,
    );
    expect(() => translateRequest({ model: "a/b", input: [] })).toThrow(/non-empty list/);
    expect(() => translateRequest({ model: "a/b", input: "x", store: true })).toThrow(/does not keep/);
    // A tool's output given as parts reaches the tool message as its text, not as JSON.
    const parts = translateRequest({
      model: "a/b",
      input: [
        {
          type: "function_call_output",
          call_id: "c1",
          output: [
            { type: "input_text", text: "sunny, " },
            { type: "input_text", text: "21 C" },
          ],
        },
      ],
    });
    expect(parts.chat.messages).toEqual([{ role: "tool", tool_call_id: "c1", content: "sunny, 21 C" }]);
    expect(translateRequest({ model: "a/b", input: "x", store: false }).chat).not.toHaveProperty("store");
    expect(() => translateRequest({ model: "a/b", input: "x", frobnicate: 1 })).toThrow(/known keys/);
  });
});

describe("translateCompletion", () => {
  it("gives function calls as items and a cut answer as incomplete", () => {
    const echo = translateRequest({ model: "a/b", input: "x" }).echo;
    const response = translateCompletion(
      {
        created: 5,
        choices: [
          {
            finish_reason: "length",
            message: {
              content: "Let me check",
              tool_calls: [{ id: "c9", type: "function", function: { name: "f", arguments: "{}" } }],
            },
          },
        ],
        usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
      },
      echo,
    );
    expect(response).toMatchObject({
      object: "response",
      created_at: 5,
      status: "incomplete",
      incomplete_details: { reason: "max_output_tokens" },
      output: [
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Let me check" }] },
        { type: "function_call", call_id: "c9", name: "f", arguments: "{}", status: "completed" },
      ],
      usage: { input_tokens: 3, output_tokens: 4, total_tokens: 7 },
    });
    // Held back by the provider's content filter: incomplete too, saying why.
    const filtered = translateCompletion(
      { choices: [{ finish_reason: "content_filter", message: { content: "I" } }] },
      echo,
    );
    expect(filtered).toMatchObject({
      status: "incomplete",
      incomplete_details: { reason: "content_filter" },
    });
  });
});

describe("ResponseEventWriter", () => {
  it("streams a tool call's arguments as deltas, then the done events and the completed response", () => {
    const writer = new ResponseEventWriter(translateRequest({ model: "a/b", input: "x", stream: true }).echo);
    const text =
      writer.start() +
      writer.chunk({
        choices: [
          { delta: { tool_calls: [{ index: 0, id: "c1", function: { name: "f", arguments: '{"a"' } }] } },
        ],
      }) +
      writer.chunk({ choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: ":1}" } }] } }] }) +
      writer.chunk({ choices: [{ delta: {}, finish_reason: "tool_calls" }] }) +
      writer.chunk({ choices: [], usage: { prompt_tokens: 1, completion_tokens: 2 } }) +
      writer.end();
    const all = events(text);
    expect(all.map((event) => event.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(all.map((event) => event.sequence_number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(all.at(-1)?.response).toMatchObject({
      status: "completed",
      output: [{ type: "function_call", call_id: "c1", name: "f", arguments: '{"a":1}' }],
      usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
    });
  });

  it("ends a stream that broke off with an error event and a failed response", () => {
    const writer = new ResponseEventWriter(translateRequest({ model: "a/b", input: "x", stream: true }).echo);
    const text =
      writer.start() + writer.chunk({ choices: [{ delta: { content: "Hel" } }] }) + writer.fail("cut");
    expect(
      events(text)
        .map((event) => event.type)
        .slice(-2),
    ).toEqual(["error", "response.failed"]);
    expect(writer.end()).toBe("");
  });
});
