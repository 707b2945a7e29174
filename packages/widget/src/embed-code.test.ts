import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildEmbedCode, buildScriptUrl } from "./embed-code.js";
import { parseWidgetOptions, type WidgetOptions } from "./options.js";

const HUB = "https://hub.example.org";

describe("buildScriptUrl", () => {
  it("is the bare script URL for default options", () => {
    expect(buildScriptUrl({}, `${HUB}/`)).toBe(`${HUB}/widget/top-products.js`);
    expect(buildScriptUrl({ theme: "auto", maxProducts: 6, noBorder: false, permanent: [] }, HUB)).toBe(
      `${HUB}/widget/top-products.js`,
    );
  });

  it("lists changed options in schema order, flags as bare names, commas readable", () => {
    const url = buildScriptUrl(
      { noTitle: true, title: "Our picks & more", theme: "dark", permanent: ["a/b", "c/d"], version: "1" },
      HUB,
    );
    expect(url).toBe(
      `${HUB}/widget/top-products.js?theme=dark&title=Our%20picks%20%26%20more&permanent=a/b,c/d&noTitle&version=1`,
    );
  });

  const optionsArbitrary: fc.Arbitrary<Partial<WidgetOptions>> = fc.record(
    {
      theme: fc.constantFrom("auto", "light", "dark"),
      title: fc
        .string({ minLength: 1, maxLength: 100 })
        .filter((text) => text.trim() === text && text !== ""),
      maxProducts: fc.integer({ min: 1, max: 24 }),
      maxColumns: fc.integer({ min: 1, max: 6 }),
      direction: fc.constantFrom("horizontal", "vertical"),
      permanent: fc.uniqueArray(fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,8}\/[a-z0-9][a-z0-9.]{0,8}$/), {
        maxLength: 5,
      }),
      owned: fc.stringMatching(/^[A-Za-z0-9][\w-]{0,10}$/),
      debug: fc.boolean(),
      noBorder: fc.boolean(),
      noCredits: fc.boolean(),
      openSelf: fc.boolean(),
      version: fc.constantFrom("", "1", "2"),
      container: fc.stringMatching(/^[a-z][\w-]{0,10}$/),
    },
    { requiredKeys: [] },
  );

  it("round-trips through parseWidgetOptions for any valid options", () => {
    fc.assert(
      fc.property(optionsArbitrary, (options) => {
        const query = buildScriptUrl(options, HUB).split("?")[1] ?? "";
        const parsed = parseWidgetOptions(query);
        expect(parsed.warnings).toEqual([]);
        expect(parsed.options).toMatchObject(options);
      }),
    );
  });
});

describe("buildEmbedCode", () => {
  it("escapes the URL for an HTML attribute", () => {
    expect(buildEmbedCode({ title: 'Say "hi" & <b>' }, HUB)).toBe(
      `<script src="${HUB}/widget/top-products.js?title=Say%20%22hi%22%20%26%20%3Cb%3E" async></script>`,
    );
  });

  it("adds the container element when one is named", () => {
    expect(buildEmbedCode({ container: 'x"y' }, HUB)).toBe(
      `<div id="x&quot;y"></div>\n<script src="${HUB}/widget/top-products.js?container=x%22y" async></script>`,
    );
  });
});
