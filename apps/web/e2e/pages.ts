import type { Page } from "playwright-core";

/** Models of the built-in catalogue that the browser tests and the screenshots open. */
export const CHAT_MODEL = "meta-llama/Llama-3.1-8B-Instruct";
export const GGUF_MODEL = "bartowski/Llama-3.2-3B-Instruct-GGUF";

/** For each page of the app, a wait for something only its loaded state shows. */
export const PAGE_READY = {
  models: (page: Page) => page.locator("main ul a").first().waitFor(),
  modelCard: (page: Page) => page.getByRole("article", { name: "Model card" }).waitFor(),
  library: (page: Page) => page.getByTestId("library-snippet").first().waitFor(),
  localApps: (page: Page) => page.getByTestId("quant-select").waitFor(),
  inference: (page: Page) => page.getByTestId("inference-snippet").waitFor(),
  playground: (page: Page) => page.getByRole("textbox", { name: "Your message" }).waitFor(),
  chatTemplate: (page: Page) => page.getByTestId("rendered-prompt").waitFor(),
  widgetBuilder: (page: Page) =>
    page
      .frameLocator('iframe[title="Widget preview"]')
      .locator("modelhub-top-products li.item")
      .first()
      .waitFor(),
  notFound: (page: Page) => page.getByRole("heading", { level: 1 }).waitFor(),
} satisfies Record<string, (page: Page) => Promise<unknown>>;
