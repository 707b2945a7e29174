import type { Page } from "playwright-core";
import { SEEDED } from "./repo-seed.js";

/** Models of the built-in catalogue that the browser tests and the screenshots open. */
export const CHAT_MODEL = "meta-llama/Llama-3.1-8B-Instruct";
export const GGUF_MODEL = "bartowski/Llama-3.2-3B-Instruct-GGUF";

/** For each page of the app, a wait for something only its loaded state shows. */
export const PAGE_READY = {
  models: (page: Page) => page.locator("main ul a").first().waitFor(),
  modelCard: (page: Page) => page.getByRole("article", { name: "Model card" }).waitFor(),
  /** The loading code, or (a demo copy) what is missing instead of it. */
  library: (page: Page) =>
    page.getByTestId("library-snippet").or(page.getByTestId("missing-weights")).first().waitFor(),
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
  files: (page: Page) => page.getByTestId("file-tree").waitFor(),
  file: (page: Page) => page.getByTestId("file-content").waitFor(),
  history: (page: Page) => page.getByTestId("commit-list").waitFor(),
  community: (page: Page) => page.getByRole("heading", { name: "Community" }).waitFor(),
  repoList: (page: Page) => page.locator("main ul a").first().waitFor(),
  datasetCard: (page: Page) => page.getByRole("article", { name: "Dataset card" }).waitFor(),
  spaceCard: (page: Page) => page.getByRole("article", { name: "Space card" }).waitFor(),
  newRepo: (page: Page) =>
    page
      .getByText(/to create a (model|dataset|space)\.$|^Create (model|dataset|space)$/)
      .first()
      .waitFor(),
  owner: (page: Page) => page.getByTestId("owner-datasets").locator("li a").first().waitFor(),
  notFound: (page: Page) => page.getByRole("heading", { level: 1 }).waitFor(),
  signIn: (page: Page) => page.getByRole("form", { name: "Sign in" }).waitFor(),
  /** The harness's hub keeps the default sign-up policy (closed): the page says so. */
  signUp: (page: Page) => page.getByText("Sign-up is closed on this hub").waitFor(),
} satisfies Record<string, (page: Page) => Promise<unknown>>;

/** Every page of the app: where it is, what shows it loaded, the tab title it must have, its status. */
export const ALL_PAGES: Array<{
  name: string;
  path: string;
  ready: (page: Page) => Promise<unknown>;
  title: string;
  status: 200 | 404;
}> = [
  {
    name: "home",
    path: "/",
    ready: (page: Page) => page.getByRole("heading", { name: "Recently updated" }).waitFor(),
    title: "Modelhub: a self-hosted model hub",
    status: 200,
  },
  { name: "models", path: "/models", ready: PAGE_READY.models, title: "Models · Modelhub", status: 200 },
  {
    name: "model card",
    path: `/${CHAT_MODEL}`,
    ready: PAGE_READY.modelCard,
    title: `${CHAT_MODEL} · Modelhub`,
    status: 200,
  },
  {
    name: "library",
    path: `/${CHAT_MODEL}/libraries/transformers`,
    ready: PAGE_READY.library,
    title: `${CHAT_MODEL} with transformers · Modelhub`,
    status: 200,
  },
  {
    name: "local apps",
    path: `/${GGUF_MODEL}/local-apps`,
    ready: PAGE_READY.localApps,
    title: `Run ${GGUF_MODEL} locally · Modelhub`,
    status: 200,
  },
  {
    name: "inference",
    path: `/${CHAT_MODEL}/inference?provider=together&streaming=true&temperature=0.5`,
    ready: PAGE_READY.inference,
    title: `Inference for ${CHAT_MODEL} · Modelhub`,
    status: 200,
  },
  {
    name: "playground",
    path: `/${CHAT_MODEL}/playground`,
    ready: PAGE_READY.playground,
    title: `Playground for ${CHAT_MODEL} · Modelhub`,
    status: 200,
  },
  {
    name: "chat template",
    path: `/${CHAT_MODEL}/chat-template`,
    ready: PAGE_READY.chatTemplate,
    title: `Chat template of ${CHAT_MODEL} · Modelhub`,
    status: 200,
  },
  {
    name: "files",
    path: `/${GGUF_MODEL}/tree/main`,
    ready: PAGE_READY.files,
    title: `Files of ${GGUF_MODEL} at main · Modelhub`,
    status: 200,
  },
  {
    name: "file",
    path: `/${GGUF_MODEL}/blob/main/README.md`,
    ready: PAGE_READY.file,
    title: `README.md · ${GGUF_MODEL} at main · Modelhub`,
    status: 200,
  },
  {
    name: "history",
    path: `/${GGUF_MODEL}/commits/main`,
    ready: PAGE_READY.history,
    title: `History of ${GGUF_MODEL} at main · Modelhub`,
    status: 200,
  },
  {
    name: "community",
    path: `/${GGUF_MODEL}/discussions`,
    ready: PAGE_READY.community,
    title: `Community of ${GGUF_MODEL} · Modelhub`,
    status: 200,
  },
  {
    name: "widget builder",
    path: "/widget-builder",
    ready: PAGE_READY.widgetBuilder,
    title: "Widget builder · Modelhub",
    status: 200,
  },
  {
    name: "datasets",
    path: "/datasets",
    ready: PAGE_READY.repoList,
    title: "Datasets · Modelhub",
    status: 200,
  },
  {
    name: "spaces",
    path: "/spaces?sort=name",
    ready: PAGE_READY.repoList,
    title: "Spaces · Modelhub",
    status: 200,
  },
  {
    name: "dataset card",
    path: `/datasets/${SEEDED.dataset}`,
    ready: PAGE_READY.datasetCard,
    title: `Dataset ${SEEDED.dataset} · Modelhub`,
    status: 200,
  },
  {
    name: "space card",
    path: `/spaces/${SEEDED.space}`,
    ready: PAGE_READY.spaceCard,
    title: `Space ${SEEDED.space} · Modelhub`,
    status: 200,
  },
  {
    name: "new dataset",
    path: "/new-dataset",
    ready: PAGE_READY.newRepo,
    title: "Create a new dataset · Modelhub",
    status: 200,
  },
  {
    name: "user",
    path: `/${SEEDED.user}`,
    ready: PAGE_READY.owner,
    title: `${SEEDED.user} (Ada Lovelace) · Modelhub`,
    status: 200,
  },
  {
    name: "search",
    path: "/search?q=weather",
    ready: (page: Page) =>
      page.getByRole("list", { name: "Search results" }).getByRole("link").first().waitFor(),
    title: "Search results for “weather” · Modelhub",
    status: 200,
  },
  { name: "sign in", path: "/login", ready: PAGE_READY.signIn, title: "Sign in · Modelhub", status: 200 },
  { name: "sign up", path: "/join", ready: PAGE_READY.signUp, title: "Sign up · Modelhub", status: 200 },
  {
    name: "not found",
    path: "/this/model/does-not-exist/at-all",
    ready: PAGE_READY.notFound,
    title: "Page not found · Modelhub",
    status: 404,
  },
  {
    name: "unknown model",
    path: "/nobody/no-such-model",
    ready: PAGE_READY.notFound,
    title: "Page not found · Modelhub",
    status: 404,
  },
];
