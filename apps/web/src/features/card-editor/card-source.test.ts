import { describe, expect, it } from "vitest";
import {
  CARD_FIELDS,
  type CardField,
  parseFieldText,
  readCardMetadata,
  setCardField,
  splitCard,
} from "./card-source.js";

const field = (key: string): CardField => {
  const found = CARD_FIELDS.model.find((candidate) => candidate.key === key);
  if (!found) throw new Error(key);
  return found;
};

const CARD = `---
# chosen with the legal team
license: apache-2.0
language: [en, fr]
model-index:
  - name: tiny
    results: []
tags:
  - text
---

# Tiny

Body text.
`;

describe("card metadata as a form", () => {
  it("reads the common fields and names the keys it keeps as they are", () => {
    const metadata = readCardMetadata(CARD, CARD_FIELDS.model);
    expect(metadata).toEqual({
      ok: true,
      values: {
        license: ["apache-2.0"],
        language: ["en", "fr"],
        tags: ["text"],
        pipeline_tag: undefined,
        base_model: undefined,
        datasets: undefined,
      },
      otherKeys: ["model-index"],
    });
  });

  it("rewrites one key and keeps comments, other keys, list styles and the body byte for byte", () => {
    const changed = setCardField(CARD, field("license"), ["mit"]);
    expect(changed).toBe(CARD.replace("license: apache-2.0", "license: mit"));
    const languages = setCardField(CARD, field("language"), ["en", "de"]);
    expect(languages).toBe(CARD.replace("language: [en, fr]", "language: [en, de]"));
    expect(splitCard(languages).body).toBe(splitCard(CARD).body);
  });

  it("adds a list key, removes an emptied one, and gives the text back when nothing changed", () => {
    const withBase = setCardField(CARD, field("base_model"), ["owner/base"]);
    expect(withBase).toContain("base_model: owner/base\n---\n\n# Tiny");
    const withDatasets = setCardField(CARD, field("datasets"), ["a/b", "c/d"]);
    expect(withDatasets).toContain("datasets:\n  - a/b\n  - c/d\n---");
    expect(setCardField(CARD, field("tags"), [])).not.toContain("tags");
    expect(setCardField(CARD, field("tags"), ["text"])).toBe(CARD);
  });

  it("gives a card without front matter a block, and an empty block its first key", () => {
    expect(setCardField("# Title\n", field("license"), ["mit"])).toBe("---\nlicense: mit\n---\n\n# Title\n");
    expect(setCardField("---\n---\nBody\n", field("license"), ["mit"])).toBe(
      "---\nlicense: mit\n---\nBody\n",
    );
    expect(setCardField("# Title\n", field("license"), [])).toBe("# Title\n");
  });

  it("refuses to show a form for a block that is not a mapping or a field of another shape", () => {
    expect(readCardMetadata("---\nlicense: [unclosed\n---\n", CARD_FIELDS.model).ok).toBe(false);
    expect(readCardMetadata("---\n- a\n---\n", CARD_FIELDS.model).ok).toBe(false);
    const nested = readCardMetadata("---\nlicense:\n  name: x\n---\n", CARD_FIELDS.model);
    expect(nested.ok).toBe(false);
  });

  it("splits a list field's text on commas, dropping blanks and repeats", () => {
    expect(parseFieldText(field("tags"), " a, b,, a ,")).toEqual(["a", "b"]);
    expect(parseFieldText(field("license"), " mit ")).toEqual(["mit"]);
    expect(parseFieldText(field("license"), "  ")).toEqual([]);
  });
});
