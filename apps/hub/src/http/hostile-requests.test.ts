import { fork } from "node:child_process";
import { connect } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN, FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import type { LogFields, LogLevel } from "../logger.js";
import { MAX_JSON_DEPTH } from "./body.js";

/** Requests a hostile or broken client sends, against a real hub on loopback. */

const logged: { level: LogLevel; message: string; fields?: LogFields }[] = [];
const hub = useTestHub({
  adminToken: ADMIN_TOKEN,
  logger: { log: (level, message, fields) => logged.push({ level, message, fields }) },
});

/** Sends raw bytes and returns everything the server wrote back before closing. */
function rawExchange(bytes: string, { endAfterWrite = false } = {}): Promise<string> {
  const { port } = new URL(hub.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => {
      socket.write(bytes);
      if (endAfterWrite) socket.end();
    });
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      answer += chunk;
    });
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}

function jsonOf(answer: string): { status: number; body: Record<string, unknown> } {
  const [head, body = ""] = answer.split("\r\n\r\n");
  return { status: Number(head!.split(" ")[1]), body: JSON.parse(body) as Record<string, unknown> };
}

describe("hostile requests", () => {
  it("answers a JSON body nested 5,000 levels deep with 400 and says why", async () => {
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    const response = await fetch(`${hub.url}/api/admin/models`, {
      method: "POST",
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
      body: `{"id": "a/b", "x": ${deep}}`,
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { code: string; error: string };
    expect(body.code).toBe("invalid_json");
    expect(body.error).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
    // Brackets inside strings are text, not nesting.
    const inString = await fetch(`${hub.url}/api/admin/models`, {
      method: "POST",
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ id: "acme/brackets", tags: ["[".repeat(5000)] }),
    });
    expect(((await inString.json()) as { code?: string }).code).not.toBe("invalid_json");
  });

  it("answers what node:http's parser refuses in the hub's JSON error shape", async () => {
    const cases: [string, number][] = [
      ["GET / HTTP/1.1\r\nHost: x\r\nBad Header: v\r\n\r\n", 400],
      [`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`, 431],
      [
        "POST /api/admin/models HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n",
        400,
      ],
      ["GET /api/models HTTP/1.1\r\n\r\n", 400],
      ["NOT HTTP AT ALL\r\n\r\n", 400],
    ];
    for (const [request, status] of cases) {
      const answer = jsonOf(await rawExchange(request));
      expect(answer.status, request.slice(0, 40)).toBe(status);
      expect(answer.body, request.slice(0, 40)).toMatchObject({
        status,
        code: expect.any(String),
        error: expect.any(String),
      });
    }
    // HTTP/1.0 needs no Host.
    const old = await rawExchange("GET /api/models?limit=1 HTTP/1.0\r\n\r\n");
    expect(old.split(" ")[1]).toBe("200");
  });

  it("does not log a client that aborts mid-body as an error", async () => {
    logged.length = 0;
    const request =
      "POST /api/admin/models HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
      `Authorization: Bearer ${ADMIN_TOKEN}\r\nContent-Length: 1000\r\n\r\n{"id": "a/`;
    await rawExchange(request, { endAfterWrite: true });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(logged.filter((entry) => entry.level === "error")).toEqual([]);
    expect(logged.some((entry) => entry.message === "request")).toBe(true);
  });
});

describe("two hubs started at once on an empty data dir", () => {
  const RUNNER = fileURLToPath(new URL("../__fixtures__/start-and-stop.ts", import.meta.url));

  it("both start (no 'database is locked'), and the catalogue is loaded once", async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const dataDir = join(hub.dir, `race-${attempt}`);
      const children = [0, 1].map(() =>
        fork(RUNNER, [dataDir, FIXTURE_CATALOGUE_DIR], {
          execArgv: ["--conditions=source", "--import", "tsx"],
          stdio: ["ignore", "ignore", "pipe", "ipc"],
        }),
      );
      const messages = children.map((child) => {
        const queue: string[] = [];
        let wake: (() => void) | undefined;
        child.on("message", (message) => {
          queue.push(String(message));
          wake?.();
        });
        child.on("exit", (code) => {
          queue.push(`exit ${code}`);
          wake?.();
        });
        return async (): Promise<string> => {
          while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
          return queue.shift()!;
        };
      });
      // Both load first; then both start at the same moment.
      expect(await Promise.all(messages.map((next) => next()))).toEqual(["ready", "ready"]);
      for (const child of children) child.send("go");
      const outcomes = await Promise.all(messages.map((next) => next()));
      expect(outcomes, `attempt ${attempt}`).toEqual(["started 20", "started 20"]);
    }
  }, 120_000);
});
