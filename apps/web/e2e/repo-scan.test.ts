import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ColorScheme, WebHarness } from "./harness.js";
import { horizontalOverflow, severeAxeFindings, watchPage } from "./page-checks.js";
import { hubWithOwner } from "./repo-users.js";

const VENV_PYTHON = fileURLToPath(new URL("../../../.venv/bin/python", import.meta.url));

/**
 * Pickles made by Python's own `pickle`: a malicious one whose `__reduce__` runs a shell command when it is
 * loaded (only made here, never loaded; `os.system` pickles as `posix.system` on Linux), and a benign one.
 */
function pickles(): { malicious: Buffer; benign: Buffer } {
  const script = [
    "import base64, collections, json, os, pickle",
    "class Payload:",
    "    def __reduce__(self):",
    "        return (os.system, ('echo',))",
    "malicious = pickle.dumps({'weights': [1.0, 2.0], 'hook': Payload()}, protocol=4)",
    "benign = pickle.dumps(collections.OrderedDict(weights=[1.0, 2.0]), protocol=2)",
    "print(json.dumps({'malicious': base64.b64encode(malicious).decode(), 'benign': base64.b64encode(benign).decode()}))",
  ].join("\n");
  const made = JSON.parse(execFileSync(VENV_PYTHON, ["-c", script], { encoding: "utf8" })) as Record<
    "malicious" | "benign",
    string
  >;
  return { malicious: Buffer.from(made.malicious, "base64"), benign: Buffer.from(made.benign, "base64") };
}

// One hub and one browser for the file: alice owns alice/pickles, with a malicious pickle and a benign one.
// The hub blocks unsafe files (SCAN_POLICY=block), so the file page also shows the refusal and the opt-in.
let harness: WebHarness;
let page: Page;

beforeAll(async () => {
  let csrf: string;
  ({ harness, page, csrf } = await hubWithOwner("alice", ["pickles"], { scanning: { policy: "block" } }));
  const { malicious, benign } = pickles();
  const files = [
    { path: "model.pkl", content: malicious },
    { path: "safe.pkl", content: benign },
  ];
  const lines = [
    { key: "header", value: { summary: "Add a pickle" } },
    ...files.map((file) => ({
      key: "file",
      value: { path: file.path, content: file.content.toString("base64"), encoding: "base64" },
    })),
  ];
  const response = await page.request.post("/api/models/alice/pickles/commit/main", {
    data: lines.map((line) => JSON.stringify(line)).join("\n"),
    headers: { "X-CSRF-Token": csrf, "Content-Type": "application/x-ndjson" },
  });
  if (!response.ok()) throw new Error(`commit: ${response.status()} ${await response.text()}`);
});
afterAll(async () => {
  await harness?.close();
});

/** The tree's badge of a file, once its scan is done (the page asks again while it is pending). */
async function settledBadge(target: Page, name: string) {
  const row = target
    .getByTestId("file-tree")
    .getByRole("row", { name: new RegExp(name.replace(".", "\\.")) });
  const badge = row.getByTestId("scan-badge");
  await expect.poll(() => badge.getAttribute("data-scan"), { timeout: 30_000 }).not.toBe("pending");
  return badge;
}

describe("scan results on the pages", () => {
  it("marks the malicious pickle unsafe in Files and versions, and the benign one safe", async () => {
    const problems = watchPage(page, { expectedStatus: 200 });
    await page.goto("/alice/pickles/tree/main");
    const unsafe = await settledBadge(page, "model.pkl");
    expect(await unsafe.getAttribute("data-scan")).toBe("unsafe");
    // Words, not colour alone, and the summary with the antivirus line in the title.
    expect(await unsafe.innerText()).toContain("Unsafe");
    expect(await unsafe.getAttribute("title")).toMatch(/can run code.*Antivirus: not scanned/);
    const safe = await settledBadge(page, "safe.pkl");
    expect(await safe.getAttribute("data-scan")).toBe("safe");
    expect(await safe.innerText()).toContain("Safe");
    expect(problems).toEqual([]);
  });

  it("lists the imports with what each level means, and says the antivirus did not run", async () => {
    const problems = watchPage(page, { expectedStatus: 200 });
    await page.goto("/alice/pickles/blob/main/model.pkl");
    const panel = page.getByTestId("scan-panel");
    await expect.poll(() => panel.getByTestId("scan-badge").getAttribute("data-scan")).toBe("unsafe");
    const imports = panel.getByRole("list", { name: "Pickle imports" });
    const system = imports.getByRole("listitem").filter({ hasText: "posix.system" });
    await expect.poll(() => system.textContent()).toContain("Dangerous");
    await panel.getByText("Runs commands, evaluates code or opens files and sockets").waitFor();
    // No clamd on this hub: "not scanned", never "clean".
    await expect
      .poll(() => panel.getByTestId("scan-antivirus").textContent())
      .toMatch(/Antivirus: not scanned/);
    expect(await panel.getByTestId("scan-antivirus").textContent()).not.toMatch(/clean/i);
    expect(await severeAxeFindings(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("shows a text file only the secrets scanner read as safe, and says what was checked", async () => {
    await page.goto("/alice/pickles/tree/main");
    const badge = await settledBadge(page, ".gitattributes");
    expect(await badge.getAttribute("data-scan")).toBe("safe");
    await page.goto("/alice/pickles/blob/main/.gitattributes");
    const panel = page.getByTestId("scan-panel");
    await expect
      .poll(() => panel.textContent(), { timeout: 30_000 })
      .toMatch(/checked for secrets.*none found/);
  });

  it("names the unsafe file in a notice on the repository's page, linking to it", async () => {
    await page.goto("/alice/pickles");
    const notice = page.getByTestId("repo-scan-notice");
    await notice.getByRole("heading", { name: "A file of this repository is unsafe" }).waitFor();
    await notice.getByRole("link", { name: "model.pkl" }).click();
    await page.waitForURL("**/alice/pickles/blob/main/model.pkl");
    await page.getByTestId("scan-panel").waitFor();
  });

  const layouts: Array<{ width: number; colorScheme: ColorScheme }> = [
    { width: 390, colorScheme: "light" },
    { width: 390, colorScheme: "dark" },
    { width: 1366, colorScheme: "dark" },
  ];
  for (const { width, colorScheme } of layouts) {
    it(`fits the badge, the panel and the notice at ${width} px, ${colorScheme}`, async () => {
      const view = await harness.newPage({ colorScheme, viewport: { width, height: 900 } });
      await view.goto("/alice/pickles/tree/main");
      await settledBadge(view, "model.pkl");
      expect(await horizontalOverflow(view)).toBe(0);
      await view.screenshot({ path: `/tmp/repo-scan-tree-${width}-${colorScheme}.png`, fullPage: true });
      await view.goto("/alice/pickles/blob/main/model.pkl");
      await view.getByRole("list", { name: "Pickle imports" }).waitFor();
      expect(await horizontalOverflow(view)).toBe(0);
      if (colorScheme === "dark") expect(await severeAxeFindings(view, "dark")).toEqual([]);
      await view.screenshot({ path: `/tmp/repo-scan-file-${width}-${colorScheme}.png`, fullPage: true });
      await view.goto("/alice/pickles");
      await view.getByTestId("repo-scan-notice").waitFor();
      expect(await horizontalOverflow(view)).toBe(0);
      await view.screenshot({ path: `/tmp/repo-scan-notice-${width}-${colorScheme}.png` });
      await view.context().close();
    });
  }
});

describe("SCAN_POLICY=block", () => {
  it("tells an anonymous reader the downloads are refused, with no opt-in", async () => {
    const reader = await harness.newPage({ viewport: { width: 1366, height: 900 } });
    await reader.goto("/alice/pickles/blob/main/model.pkl");
    await reader.getByTestId("scan-policy").getByText("Downloads of this file are refused").waitFor();
    expect(await reader.getByRole("button", { name: "Allow downloads of this file…" }).count()).toBe(0);
    await reader.context().close();
  });

  it("refuses the unsafe file's downloads until its owner opts in after a confirmation", async () => {
    const download = "/alice/pickles/resolve/main/model.pkl";
    const refused = await page.request.get(download);
    expect(refused.status()).toBe(403);
    expect(await refused.text()).toContain("SCAN_POLICY=block");

    const problems = watchPage(page, { expectedStatus: 200 });
    await page.goto("/alice/pickles/blob/main/model.pkl");
    const policy = page.getByTestId("scan-policy");
    await policy.getByText("Downloads of this file are refused").waitFor();
    await policy.getByRole("button", { name: "Allow downloads of this file…" }).click();
    const confirm = page.getByTestId("scan-allow-confirm");
    await confirm.getByText("can run the code the scanner found on their machine").waitFor();
    // Cancel takes nothing back: still refused.
    await confirm.getByRole("button", { name: "Cancel" }).click();
    expect((await page.request.get(download)).status()).toBe(403);
    await policy.getByRole("button", { name: "Allow downloads of this file…" }).click();
    await confirm.getByRole("button", { name: "Allow downloads" }).click();
    await expect.poll(() => policy.textContent()).toContain("were allowed by alice");
    expect((await page.request.get(download)).status()).toBe(200);
    expect(problems).toEqual([]);
  });
});
