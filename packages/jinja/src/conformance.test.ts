import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { expectJinja2Error, thrownBy } from "./__fixtures__/jinja2-errors.js";
import { renderChatTemplate, Template, TemplateError, TemplateSyntaxError } from "./index.js";

/**
 * Every corpus template x every conversation, against the outputs (or errors) Python's Jinja2 produced
 * with transformers' configuration (scripts/make-goldens.py).
 */

interface CorpusEntry {
  id: string;
  template: string;
  bos_token?: string;
  eos_token?: string;
}
interface Conversation {
  id: string;
  messages: unknown[];
  tools?: unknown[];
  documents?: unknown[];
  add_generation_prompt: boolean;
}
interface GoldenCase {
  template: string;
  conversation: string;
  output?: string;
  error?: { type: string; message: string; phase: "parse" | "render" };
}
interface Goldens {
  defaultBosToken: string;
  defaultEosToken: string;
  conversations: Conversation[];
  cases: GoldenCase[];
}

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8"));
const corpus: CorpusEntry[] = fixture("chat-templates.json");
const goldens: Goldens = fixture("chat-goldens.json");
const conversations = new Map(goldens.conversations.map((c) => [c.id, c]));
/** The same wall-clock date-time the golden script gave strftime_now. */
const now = () => new Date(2024, 6, 26, 14, 30, 45);

function compile(entry: CorpusEntry): Template | TemplateError {
  try {
    return new Template(entry.template, { now });
  } catch (error) {
    if (error instanceof TemplateError) return error;
    throw error;
  }
}

describe("conformance with Jinja2 over the chat-template corpus", () => {
  it("covers every corpus template with every conversation", () => {
    expect(goldens.cases.length).toBe(corpus.length * goldens.conversations.length);
  });

  for (const entry of corpus) {
    describe(entry.id, () => {
      const compiled = compile(entry);
      for (const golden of goldens.cases.filter((c) => c.template === entry.id)) {
        it(golden.conversation, () => {
          const conversation = conversations.get(golden.conversation)!;
          if (golden.error?.phase === "parse") {
            expect(compiled).toBeInstanceOf(TemplateSyntaxError);
            return;
          }
          if (compiled instanceof TemplateError) throw compiled;
          const { id: _id, ...variables } = conversation;
          const render = () =>
            renderChatTemplate(compiled, {
              ...variables,
              bos_token: entry.bos_token ?? goldens.defaultBosToken,
              eos_token: entry.eos_token ?? goldens.defaultEosToken,
            });
          if (golden.error) {
            expectJinja2Error(thrownBy(render), golden.error);
            return;
          }
          expect(render()).toBe(golden.output);
        });
      }
    });
  }
});
