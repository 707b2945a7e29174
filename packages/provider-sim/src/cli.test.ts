import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

it("starts on the given port, prints its URL and serves until stopped", async () => {
  const cli = fileURLToPath(new URL("./cli.ts", import.meta.url));
  const child = spawn(
    process.execPath,
    ["--conditions=source", "--import", "tsx", cli, "--port", "0", "--quiet"],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  try {
    const [firstOutput] = (await once(child.stdout, "data")) as [Buffer];
    const url = firstOutput.toString().trim().split("\n")[0]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = await fetch(`${url}/__sim/health`);
    expect((await health.json()).status).toBe("ok");
  } finally {
    child.kill("SIGTERM");
    await once(child, "exit");
  }
}, 20_000);

it("refuses a --pace it cannot read, saying what it wants, with exit code 2", async () => {
  const cli = fileURLToPath(new URL("./cli.ts", import.meta.url));
  const child = spawn(
    process.execPath,
    ["--conditions=source", "--import", "tsx", cli, "--port", "0", "--quiet", "--pace", "400-150:30"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const [code] = (await once(child, "exit")) as [number];
  expect(code).toBe(2);
  expect(stderr).toMatch(/firstTokenMs must be \[min, max\]/);
}, 20_000);
