import { describe, expect, it } from "vitest";
import { formFields, readField, writeField } from "./request-form.js";

describe("the request form", () => {
  it("reads a question-answering request as two text fields and writes them back", () => {
    const request = { inputs: { question: "Who?", context: "Ada wrote it." } };
    const fields = formFields(request);
    expect(fields.map((field) => field.label)).toEqual(["Question", "Context"]);
    const [question] = fields;
    expect(readField(request, question!)).toBe("Who?");
    expect(writeField(request, question!, "Where?")).toEqual({
      inputs: { question: "Where?", context: "Ada wrote it." },
    });
  });

  it("edits zero-shot labels as a comma list and sentences one per line", () => {
    const zeroShot = { inputs: "I love it", parameters: { candidate_labels: ["good", "bad"] } };
    const [text, labels] = formFields(zeroShot);
    expect(text?.kind).toBe("text");
    expect(readField(zeroShot, labels!)).toBe("good, bad");
    expect(writeField(zeroShot, labels!, "a, b ,, c")).toMatchObject({
      parameters: { candidate_labels: ["a", "b", "c"] },
    });
    const similarity = { inputs: { source_sentence: "x", sentences: ["y", "z"] } };
    const sentences = formFields(similarity)[1]!;
    expect(readField(similarity, sentences)).toBe("y\nz");
    expect(writeField(similarity, sentences, "p\n\nq")).toMatchObject({ inputs: { sentences: ["p", "q"] } });
  });

  it("offers no field for what has no form (a table), which stays JSON", () => {
    expect(formFields({ inputs: { query: "How many?", table: { a: ["1"] } } }).map((f) => f.label)).toEqual([
      "Query",
    ]);
  });
});
