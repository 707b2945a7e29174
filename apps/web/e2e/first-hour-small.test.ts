import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ColorScheme, startWebHarness, type WebHarness } from "./harness.js";
import { horizontalOverflow, severeAxeFindings, watchPage } from "./page-checks.js";
import { CHAT_MODEL, GGUF_MODEL } from "./pages.js";
import { SEED_ADMIN_TOKEN, SEEDED, seedRepoPages } from "./repo-seed.js";
import { signIn } from "./repo-users.js";

// Issue 38, items 6 (loading code for this hub) and 7 (the smaller items), each read at 1366 and 390 px, in
// light and dark. One hub: its dataset list is read empty first, then ada (owner of organization acme) and
// her repositories are seeded.
const SIZES: Array<{ name: string; viewport: { width: number; height: number }; colorScheme: ColorScheme }> =
  [
    { name: "desktop light", viewport: { width: 1366, height: 900 }, colorScheme: "light" },
    { name: "desktop dark", viewport: { width: 1366, height: 900 }, colorScheme: "dark" },
    { name: "phone light", viewport: { width: 390, height: 844 }, colorScheme: "light" },
    { name: "phone dark", viewport: { width: 390, height: 844 }, colorScheme: "dark" },
  ];
/** Each test reads several pages at four sizes on a shared machine. */
const LONG = 240_000;
const VENV_PYTHON = fileURLToPath(new URL("../../../.venv/bin/python", import.meta.url));
const USER_MODEL = `${SEEDED.user}/tiny-llm`;
const PRIVATE_MODEL = `${SEEDED.user}/secret`;
const ASR_MODEL = "openai/whisper-large-v3";

let harness: WebHarness;

/**
 * Runs `code` in the project's Python, without blocking: the hub answering it runs in this process, so a
 * synchronous spawn would leave Python waiting on a hub that cannot answer until its own timeout.
 */
async function runPython(code: string, home: string): Promise<{ stdout: string; stderr: string }> {
  try {
    return await promisify(execFile)(VENV_PYTHON, ["-c", code], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HF_HOME: home },
      timeout: 120_000,
    });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    return { stdout: failed.stdout ?? "", stderr: failed.stderr || failed.message };
  }
}
let adaToken: string;

/** A safetensors file of one small tensor: a repository with it holds weights. */
function tinySafetensors(): Buffer {
  const header = Buffer.from(JSON.stringify({ w: { dtype: "F32", shape: [2], data_offsets: [0, 8] } }));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(header.length));
  return Buffer.concat([length, header, Buffer.alloc(8)]);
}

async function commit(type: string, id: string, files: Record<string, string | Buffer>) {
  const lines = [
    { key: "header", value: { summary: "Add files" } },
    ...Object.entries(files).map(([path, content]) => ({
      key: "file",
      value: { path, content: Buffer.from(content).toString("base64"), encoding: "base64" },
    })),
  ];
  const response = await fetch(`${harness.hub.url}/api/${type}s/${id}/commit/main`, {
    method: "POST",
    headers: { authorization: `Bearer ${adaToken}`, "content-type": "application/x-ndjson" },
    body: lines.map((line) => JSON.stringify(line)).join("\n"),
  });
  if (!response.ok) throw new Error(`commit ${id}: ${response.status} ${await response.text()}`);
}

async function pageAt(size: (typeof SIZES)[number], signedIn = false): Promise<Page> {
  const page = await harness.newPage({ viewport: size.viewport, colorScheme: size.colorScheme });
  if (signedIn) await signIn(page, SEEDED.user);
  return page;
}

async function readable(page: Page) {
  expect(await horizontalOverflow(page)).toBe(0);
  expect(await severeAxeFindings(page)).toEqual([]);
}

beforeAll(async () => {
  harness = await startWebHarness({ adminToken: SEED_ADMIN_TOKEN });
});
afterAll(async () => {
  await harness?.close();
});

describe("an empty list (issue 38, item 7)", () => {
  it(
    "says the hub has none yet, not that nothing matches filters no one set",
    async () => {
      for (const size of SIZES.slice(1, 3)) {
        const page = await pageAt(size);
        await page.goto("/datasets");
        await page.getByText("No datasets on this hub yet").waitFor();
        expect(await page.getByText(/matches/).count()).toBe(0);
        await page.context().close();
      }
      // Then the repositories the other tests read.
      adaToken = (await seedRepoPages(harness)).token;
      for (const [name, isPrivate] of [
        [USER_MODEL, false],
        [PRIVATE_MODEL, true],
      ] as const) {
        const created = await fetch(`${harness.hub.url}/api/repos/create`, {
          method: "POST",
          headers: { authorization: `Bearer ${adaToken}`, "content-type": "application/json" },
          body: JSON.stringify({ type: "model", name, private: isPrivate }),
        });
        expect(created.status).toBe(200);
      }
      await commit("model", USER_MODEL, {
        "README.md": "---\nlibrary_name: transformers\nlicense: mit\n---\n# Tiny LLM\n",
        "config.json": JSON.stringify({ architectures: ["LlamaForCausalLM"], model_type: "llama" }),
        "tokenizer.json": "{}",
        "model.safetensors": tinySafetensors(),
        "notes.md": "first line\n",
      });
    },
    LONG,
  );
});

describe("loading code for this hub (issue 38, item 6)", () => {
  it(
    "knows a user's transformers model and points its loading code at this hub, which Python follows",
    async () => {
      let code = "";
      for (const size of SIZES) {
        const page = await pageAt(size);
        const problems = watchPage(page, { expectedStatus: 200 });
        await page.goto(`/${USER_MODEL}/libraries/transformers`);
        const snippets = page.getByTestId("library-snippet");
        await snippets.first().waitFor();
        code = (await snippets.allTextContents()).join("\n");
        expect(code).not.toMatch(/unknown/i);
        expect(code).toContain(`os.environ["HF_ENDPOINT"] = "${harness.hub.url}"`);
        expect(code).toContain(`AutoModelForCausalLM.from_pretrained("${USER_MODEL}")`);
        await readable(page);
        expect(problems).toEqual([]);
        await page.context().close();
      }
      // The snippet's own first lines, then a load that needs only the config: run by the real transformers.
      const first = code.slice(0, code.indexOf("\n", code.indexOf('os.environ["HF_ENDPOINT"]')));
      const home = mkdtempSync(join(tmpdir(), "first-hour-hf-"));
      try {
        const run = await runPython(
          `${first}\nfrom transformers import AutoConfig\nprint(AutoConfig.from_pretrained("${USER_MODEL}").architectures)`,
          home,
        );
        expect(run.stderr).not.toMatch(/Traceback/);
        expect(run.stdout.trim()).toBe("['LlamaForCausalLM']");
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    },
    LONG,
  );

  it(
    "offers a dataset's loading code for this hub, which 🤗 datasets runs as shown",
    async () => {
      await commit("dataset", SEEDED.dataset, { "data.csv": "station,celsius\nnorth,3.5\nsouth,7.25\n" });
      let python = "";
      for (const size of SIZES) {
        const page = await pageAt(size);
        await page.goto(`/datasets/${SEEDED.dataset}`);
        const snippets = page.getByTestId("dataset-snippet");
        await snippets.first().waitFor();
        const [load = "", download = ""] = await snippets.allTextContents();
        expect(load).toContain(`os.environ["HF_ENDPOINT"] = "${harness.hub.url}"`);
        expect(download).toContain(`export HF_ENDPOINT=${harness.hub.url}`);
        python = load;
        await readable(page);
        await page.context().close();
      }
      const home = mkdtempSync(join(tmpdir(), "first-hour-hf-"));
      try {
        const run = await runPython(python, home);
        expect(run.stderr).not.toMatch(/Traceback/);
        expect(run.stdout).toMatch(/num_rows: 2/);
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    },
    LONG,
  );

  it(
    "gives the local apps this hub's address, or this hub's files when the app only knows huggingface.co",
    async () => {
      for (const size of SIZES) {
        const page = await pageAt(size);
        await page.goto(`/${GGUF_MODEL}/local-apps/llama.cpp?quant=Q4_K_M`);
        await page.getByTestId("local-app-snippet").first().waitFor();
        const llama = (await page.getByTestId("local-app-snippet").allTextContents()).join("\n");
        expect(llama).toContain(
          `HF_ENDPOINT=${harness.hub.url} llama-server --hf-repo ${GGUF_MODEL} --hf-file`,
        );
        await page.goto(`/${GGUF_MODEL}/local-apps/ollama?quant=Q4_K_M`);
        await page.getByTestId("local-app-snippet").first().waitFor();
        const ollama = (await page.getByTestId("local-app-snippet").allTextContents()).join("\n");
        expect(ollama).toContain(`${harness.hub.url}/${GGUF_MODEL}/resolve/main/`);
        expect(ollama).toContain("ollama create ");
        expect(ollama).not.toContain("hf.co/");
        await page.goto(`/${GGUF_MODEL}/local-apps/lmstudio?quant=Q4_K_M`);
        await page.getByRole("note").getByText("opens models from huggingface.co only").waitFor();
        expect(await page.getByTestId("local-app-snippet").first().textContent()).toContain(
          `HF_ENDPOINT=${harness.hub.url} hf download ${GGUF_MODEL}`,
        );
        await readable(page);
        await page.context().close();
      }
    },
    LONG,
  );
});

describe("the smaller items (issue 38, item 7)", () => {
  it(
    "opens an organization's New model form with the organization as owner",
    async () => {
      for (const size of SIZES) {
        const page = await pageAt(size, true);
        await page.goto(`/${SEEDED.org}`);
        await page.getByTestId("owner-models").getByRole("link", { name: "New model" }).click();
        const owner = page.getByRole("combobox", { name: "Owner" });
        await expect.poll(() => owner.textContent()).toMatch(new RegExp(`^${SEEDED.org}▾?$`));
        await readable(page);
        await page.context().close();
      }
    },
    LONG,
  );

  it(
    "shows the current tab of a model page on a phone's tab strip",
    async () => {
      for (const size of SIZES) {
        const page = await pageAt(size);
        await page.goto(`/${CHAT_MODEL}/chat-template`);
        const tab = page
          .getByRole("navigation", { name: "Model sections" })
          .getByRole("link", { name: "Chat template" });
        await expect.poll(() => tab.getAttribute("aria-current")).toBe("page");
        await expect
          .poll(async () => {
            const box = await tab.boundingBox();
            return box !== null && box.x >= 0 && box.x + box.width <= size.viewport.width;
          })
          .toBe(true);
        await page.context().close();
      }
    },
    LONG,
  );

  it(
    "shows the Settings tab current on a phone, though it appears only once the session is known",
    async () => {
      const phone = SIZES.find((size) => size.viewport.width < 500) ?? SIZES[0]!;
      const page = await pageAt(phone, true);
      await page.goto(`/${USER_MODEL}/settings`);
      const tab = page
        .getByRole("navigation", { name: "Model sections" })
        .getByRole("link", { name: "Settings" });
      await expect.poll(() => tab.getAttribute("aria-current")).toBe("page");
      await expect
        .poll(async () => {
          const box = await tab.boundingBox();
          return box !== null && box.x >= 0 && box.x + box.width <= phone.viewport.width;
        })
        .toBe(true);
      await page.context().close();
    },
    LONG,
  );

  // The route's loader asks first; when the hub's 401/404 came before the page's code, the page asked again
  // on mount (react-query's retryOnMount) and said "Loading…" once more (lib/query-client.ts).
  it(
    "says a missing or private repository is not found at once, without retrying the hub's answer",
    async () => {
      for (const size of SIZES.slice(1, 3)) {
        const page = await pageAt(size);
        for (const id of [`${SEEDED.user}/no-such-model`, PRIVATE_MODEL]) {
          const lookups: number[] = [];
          page.on("request", (request) => {
            if (new URL(request.url()).pathname === `/api/models/${id}`) lookups.push(Date.now());
          });
          await page.goto(`/${id}`);
          await page.getByRole("heading", { level: 1, name: "Page not found" }).waitFor();
          await page.waitForTimeout(1_500); // past where a second look-up came
          // A 401 or 404 is the hub's answer, not a failure: the repository is looked up once.
          expect(lookups).toHaveLength(1);
        }
        await page.context().close();
      }
    },
    LONG,
  );

  it(
    "shows the models list with its filters, never before them",
    async () => {
      for (const size of SIZES) {
        const page = await pageAt(size);
        // Records, the moment the first model row is in the page, whether the filters were already there.
        await page.addInitScript(() => {
          const observer = new MutationObserver(() => {
            if (!document.querySelector("section[aria-labelledby='models-heading'] li")) return;
            (window as unknown as { filtersFirst: boolean }).filtersFirst =
              document.querySelector("aside[aria-label='Filters']") !== null;
            observer.disconnect();
          });
          observer.observe(document, { childList: true, subtree: true });
        });
        await page.goto("/models");
        await page.locator("section[aria-labelledby='models-heading'] li").first().waitFor();
        expect(
          await page.evaluate(() => (window as unknown as { filtersFirst?: boolean }).filtersFirst),
        ).toBe(true);
        const filters = await page.getByRole("complementary", { name: "Filters" }).boundingBox();
        const list = await page.locator("section[aria-labelledby='models-heading']").boundingBox();
        // Beside the list on a desktop, above it on a phone.
        expect(size.viewport.width < 1024 ? filters!.y < list!.y : filters!.x < list!.x).toBe(true);
        await page.context().close();
      }
    },
    LONG,
  );

  it(
    "says what max tokens the snippet sends when the reader has not set it",
    async () => {
      for (const size of SIZES.slice(1, 3)) {
        const page = await pageAt(size);
        await page.goto(`/${CHAT_MODEL}/inference?provider=together&language=python&client=openai`);
        const snippet = page.getByTestId("inference-snippet");
        await snippet.waitFor();
        expect(await snippet.textContent()).toMatch(/max_tokens=500/);
        expect(await page.getByTestId("param-max_tokens-value").textContent()).toBe("500 (default)");
        await page.context().close();
      }
    },
    LONG,
  );

  it(
    "names the file page's copy button once: Copy link",
    async () => {
      for (const size of SIZES.slice(1, 3)) {
        const page = await pageAt(size);
        await page.goto(`/${GGUF_MODEL}/blob/main/README.md`);
        const button = page.getByRole("button", { name: "Copy link" });
        await button.waitFor();
        expect(await button.textContent()).toBe("Copy link");
        expect(await page.getByText("Copy link", { exact: true }).count()).toBe(1);
        await readable(page);
        await page.context().close();
      }
    },
    LONG,
  );

  it(
    "labels a pull request form's button for what it does",
    async () => {
      for (const size of SIZES.slice(1, 3)) {
        // bob may not write to ada's repository: his change can only be a pull request.
        await fetch(`${harness.hub.url}/api/admin/users`, {
          method: "POST",
          headers: { authorization: `Bearer ${SEED_ADMIN_TOKEN}`, "content-type": "application/json" },
          body: JSON.stringify({ name: "bob", password: "correct horse battery" }),
        });
        const page = await harness.newPage({ viewport: size.viewport, colorScheme: size.colorScheme });
        await signIn(page, "bob");
        await page.goto(`/${USER_MODEL}/edit/main/notes.md`);
        await page.getByText("your change opens a pull request").waitFor();
        expect(await page.getByRole("button", { name: "Open pull request" }).count()).toBe(1);
        expect(await page.getByRole("button", { name: "Commit changes" }).count()).toBe(0);
        await readable(page);
        await page.context().close();
      }
    },
    LONG,
  );

  it(
    "gives each widget check box help that says more than its label",
    async () => {
      for (const size of SIZES.slice(1, 3)) {
        const page = await pageAt(size);
        await page.goto("/widget-builder");
        const boxes = page.getByRole("checkbox");
        await boxes.first().waitFor();
        const pairs = await boxes.evaluateAll((inputs) =>
          inputs.map((input) => ({
            label: document.querySelector(`label[for="${input.id}"]`)?.textContent ?? "",
            help: document.getElementById(input.getAttribute("aria-describedby") ?? "")?.textContent ?? "",
          })),
        );
        expect(pairs.length).toBeGreaterThan(5);
        const words = (text: string) => new Set(text.toLowerCase().match(/[a-z]+/g) ?? []);
        for (const { label, help } of pairs) {
          const extra = [...words(help)].filter((word) => !words(label).has(word));
          expect(extra.length, `${label}: ${help}`).toBeGreaterThan(1);
        }
        await page.context().close();
      }
    },
    LONG,
  );

  it(
    "shows a transcript as text, badged as the simulator's",
    async () => {
      for (const size of SIZES.slice(1, 3)) {
        const page = await pageAt(size, true);
        await page.goto(`/${ASR_MODEL}/playground?provider=fal-ai`);
        await page.locator('input[type="file"]').setInputFiles({
          name: "speech.wav",
          mimeType: "audio/wav",
          buffer: Buffer.from("RIFF....WAVEfmt "),
        });
        await page.getByRole("button", { name: "Compute" }).click();
        const text = page.getByTestId("result-text");
        await text.waitFor();
        expect(await text.textContent()).toMatch(/transcript/i);
        expect(await page.getByTestId("simulator-badge").count()).toBe(1);
        expect(await page.getByText('"text"').count()).toBe(0);
        await readable(page);
        await page.context().close();
      }
    },
    LONG,
  );

  it(
    "keeps the Use this model menu on screen",
    async () => {
      for (const size of SIZES) {
        const page = await pageAt(size);
        await page.goto(`/${CHAT_MODEL}`);
        await page.locator("details[data-menu] > summary").first().click();
        const panel = page.locator("details[data-menu][open] > [data-menu-panel]");
        await panel.waitFor();
        const box = await panel.boundingBox();
        expect(box).not.toBeNull();
        expect(box!.y + box!.height).toBeLessThanOrEqual(size.viewport.height);
        expect(box!.x).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width).toBeLessThanOrEqual(size.viewport.width);
        await page.context().close();
      }
    },
    LONG,
  );
});
