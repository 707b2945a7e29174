import { describe, expect, it } from "vitest";
import { parseWidgetOptions } from "../options.js";
import { ProductsUnavailableError, productsRequestUrl, readProducts } from "./load-products.js";
import { resolveHubUrl } from "./locate.js";
import { createLogger } from "./logger.js";

const options = (query: string) => parseWidgetOptions(query).options;
const quiet = createLogger(false);

describe("productsRequestUrl", () => {
  it("asks for maxProducts of the live ranking", () => {
    expect(productsRequestUrl("https://hub.example", options("maxProducts=4"))).toBe(
      "https://hub.example/api/widget/top-products?limit=4",
    );
  });

  it("asks for the permanent ids (capped by maxProducts) and the owner", () => {
    expect(
      productsRequestUrl("https://hub.example", options("maxProducts=2&permanent=a/b,c/d,e/f&owned=a")),
    ).toBe("https://hub.example/api/widget/top-products?limit=2&owner=a&ids=a%2Fb%2Cc%2Fd");
  });
});

describe("resolveHubUrl", () => {
  it("is where the script came from, keeping a path prefix", () => {
    const src = "https://cdn.example/hub/widget/top-products.js?theme=dark";
    expect(resolveHubUrl(src, options(""), quiet)).toBe("https://cdn.example/hub");
    expect(resolveHubUrl("http://127.0.0.1:8080/widget/top-products.js", options(""), quiet)).toBe(
      "http://127.0.0.1:8080",
    );
  });

  it("with devMode is the hub option or the local development hub; without it, hub is ignored", () => {
    const src = "https://hub.example/widget/top-products.js";
    expect(resolveHubUrl(src, options("devMode&hub=http://localhost:3000/"), quiet)).toBe(
      "http://localhost:3000",
    );
    expect(resolveHubUrl(src, options("devMode"), quiet)).toBe("http://localhost:5173");
    expect(resolveHubUrl(src, options("hub=http://localhost:3000"), quiet)).toBe("https://hub.example");
  });
});

describe("readProducts", () => {
  it("keeps well-formed products with http(s) links and drops bad counts", () => {
    const products = readProducts({
      products: [
        {
          id: "a/b",
          owner: "a",
          name: "b",
          url: "https://h/a/b",
          pipeline_tag: "fill-mask",
          downloads: 5,
          likes: -1,
        },
        { id: "a/c", owner: "a", name: "c", url: "javascript:alert(1)" },
        { id: "a/d", owner: "a", name: "d", url: "not a url" },
        { id: "a/e", owner: "a", url: "https://h/a/e" },
        null,
        "a/f",
      ],
    });
    expect(products).toEqual([
      { id: "a/b", owner: "a", name: "b", url: "https://h/a/b", pipeline_tag: "fill-mask", downloads: 5 },
    ]);
  });

  it.each([null, {}, { products: "x" }, []])("rejects an answer without a product list: %j", (body) => {
    expect(() => readProducts(body)).toThrow(ProductsUnavailableError);
  });
});
