import { describe, expect, it } from "vitest";
import { DEV_HUB_URL, defaultWidgetOptions, parseWidgetOptions, WIDGET_OPTIONS } from "./options.js";

describe("parseWidgetOptions", () => {
  it("gives the spec's defaults for an empty query", () => {
    const { options, warnings } = parseWidgetOptions("");
    expect(warnings).toEqual([]);
    expect(options).toMatchObject({
      theme: "auto",
      maxProducts: 6,
      maxColumns: 3,
      direction: "horizontal",
      title: "Top products",
      permanent: [],
      owned: "",
      debug: false,
      noBorder: false,
      devMode: false,
      version: "",
    });
  });

  it("reads every kind of value", () => {
    const { options, warnings } = parseWidgetOptions(
      "theme=Dark&title=%20Our%20picks%20&maxProducts=12&maxColumns=4&direction=vertical" +
        "&permanent=acme/a, acme/b ,,other/c&owned=acme&debug&noBorder=true&noShadow=1&noTitle=yes" +
        "&noCredits=on&noPadding=&openSelf&devMode&hub=http://localhost:3000/&version=1&container=slot",
    );
    expect(warnings).toEqual([]);
    expect(options).toEqual({
      ...defaultWidgetOptions(),
      theme: "dark",
      title: "Our picks",
      maxProducts: 12,
      maxColumns: 4,
      direction: "vertical",
      permanent: ["acme/a", "acme/b", "other/c"],
      owned: "acme",
      debug: true,
      noBorder: true,
      noShadow: true,
      noTitle: true,
      noCredits: true,
      noPadding: true,
      openSelf: true,
      devMode: true,
      hub: "http://localhost:3000",
      version: "1",
      container: "slot",
    });
  });

  it.each([
    ["theme", "purple"],
    ["maxProducts", "0"],
    ["maxProducts", "25"],
    ["maxProducts", "3.5"],
    ["maxProducts", "six"],
    ["maxColumns", "7"],
    ["direction", "diagonal"],
    ["owned", "../etc"],
    ["noBorder", "maybe"],
    ["hub", "javascript:alert(1)"],
    ["version", "latest"],
    ["version", "0"],
    ["container", "two words"],
    ["title", "   "],
  ] as const)("falls back to the default for %s=%s, with a warning", (name, value) => {
    const { options, warnings } = parseWidgetOptions({ [name]: value });
    expect(options[name]).toEqual(WIDGET_OPTIONS[name].default);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(new RegExp(`^${name}: `));
  });

  it("keeps the valid ids of permanent and warns about the rest", () => {
    const { options, warnings } = parseWidgetOptions({ permanent: "a/b,<script>,a/b,noslash,c/d" });
    expect(options.permanent).toEqual(["a/b", "c/d"]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('"<script>" is not a model id');
    expect(warnings[0]).toContain('"a/b" is listed twice');
  });

  it("caps permanent at 24 ids", () => {
    const ids = Array.from({ length: 30 }, (_, index) => `o/m${index}`);
    const { options, warnings } = parseWidgetOptions({ permanent: ids.join(",") });
    expect(options.permanent).toEqual(ids.slice(0, 24));
    expect(warnings[0]).toContain("more than 24 ids");
  });

  it("cuts a long title and warns", () => {
    const { options, warnings } = parseWidgetOptions({ title: "x".repeat(150) });
    expect(options.title).toHaveLength(100);
    expect(warnings[0]).toMatch(/^title: longer than 100/);
  });

  it("keeps markup in the title as plain text (escaping is the renderer's job)", () => {
    expect(parseWidgetOptions({ title: "<img src=x onerror=alert(1)>" }).options.title).toBe(
      "<img src=x onerror=alert(1)>",
    );
  });

  it("reports unknown options and ignores them", () => {
    const { options, warnings } = parseWidgetOptions("maxproducts=2&colour=red");
    expect(options.maxProducts).toBe(6);
    expect(warnings).toEqual(["maxproducts: unknown option; ignored", "colour: unknown option; ignored"]);
  });

  it("does not treat inherited object keys as options", () => {
    const { warnings } = parseWidgetOptions("constructor=1&__proto__=x&toString=y");
    expect(warnings).toHaveLength(3);
  });

  it("documents the dev hub default", () => {
    expect(WIDGET_OPTIONS.devMode.description).toContain(DEV_HUB_URL);
  });

  it("returns fresh arrays so callers cannot change the defaults", () => {
    parseWidgetOptions("").options.permanent.push("x/y");
    expect(parseWidgetOptions("").options.permanent).toEqual([]);
  });
});
