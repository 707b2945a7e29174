import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createJsonLogger, isoTime, redactSecrets, writeLinesPerTurn } from "./logger.js";

describe("the JSON logger", () => {
  it("writes one JSON record per line with time, level and fields", () => {
    const lines: string[] = [];
    const logger = createJsonLogger({ write: (line) => lines.push(line), now: () => new Date(0) });
    logger.log("info", "request", { requestId: "r1", status: 200 });
    logger.log("debug", "hidden below info");
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { time: "1970-01-01T00:00:00.000Z", level: "info", msg: "request", requestId: "r1", status: 200 },
    ]);
  });

  it("never writes credentials: secret-named fields, hub tokens, bearer values and configured secrets", () => {
    const lines: string[] = [];
    const logger = createJsonLogger({ write: (line) => lines.push(line), secrets: ["provider-key-123"] });
    logger.log("warn", "upstream said: invalid key provider-key-123", {
      authorization: "Bearer abc",
      token: "hf_abcdefghijklmnopqrstuvwxyz01234567",
      nested: { detail: "used hf_abcdefghijklmnopqrstuvwxyz01234567 and Bearer sk-live-1" },
      error: new Error("key provider-key-123 refused"),
      tokenId: 7,
    });
    const text = lines.join("\n");
    expect(text).not.toContain("provider-key-123");
    expect(text).not.toContain("hf_abcdefgh");
    expect(text).not.toContain("sk-live-1");
    expect(text).not.toContain('abc"');
    expect(JSON.parse(text).tokenId).toBe(7);
  });

  it("writes a flat record's fields as the redacted copy would, top-level strings redacted", () => {
    const lines: string[] = [];
    const logger = createJsonLogger({
      write: (line) => lines.push(line),
      now: () => new Date(0),
      secrets: ["provider-key-123"],
    });
    const fields = { requestId: "r1", status: 200, ms: 1.5, billToId: null, ok: true, model: "a/b" };
    logger.log("info", "router call", fields);
    // The same keys with a secret in a plain string (no nested object): redacted, whatever the path.
    logger.log("info", "router call", { ...fields, target: "https://x/provider-key-123" });
    logger.log("info", "router call", { ...fields, requestId: "hf_abcdefghijklmnop" });
    // A field named as the line's own key replaces its value in place, as before.
    logger.log("info", "router call", { msg: "replaced", status: 1 });
    logger.log("info", "no fields");
    expect(lines[0]).toBe(
      '{"time":"1970-01-01T00:00:00.000Z","level":"info","msg":"router call","requestId":"r1","status":200,' +
        '"ms":1.5,"billToId":null,"ok":true,"model":"a/b"}',
    );
    expect(JSON.parse(lines[1]!).target).toBe("https://x/[redacted]");
    expect(JSON.parse(lines[2]!).requestId).toBe("hf_[redacted]");
    expect(lines[3]).toBe('{"time":"1970-01-01T00:00:00.000Z","level":"info","msg":"replaced","status":1}');
    expect(lines[4]).toBe('{"time":"1970-01-01T00:00:00.000Z","level":"info","msg":"no fields"}');
  });

  it("stamps lines with the current time when none is injected", () => {
    const lines: string[] = [];
    const logger = createJsonLogger({ write: (line) => lines.push(line) });
    const before = Date.now();
    logger.log("info", "now");
    const stamped = Date.parse(JSON.parse(lines[0]!).time);
    expect(stamped).toBeGreaterThanOrEqual(before);
    expect(stamped).toBeLessThanOrEqual(Date.now());
  });

  it("formats times as Date's toISOString does, across seconds, years and before 1970", () => {
    const times = [0, 999, 1000, 1001, -1, -1000, -1001, 253402300799999, 253402300800000, Date.now()];
    for (let ms = 1_764_540_000_000 - 2_500; ms < 1_764_540_000_000 + 2_500; ms += 7) times.push(ms);
    for (let i = 0; i < 2000; i++) times.push(Math.floor(Math.random() * 4e12) - 1e12);
    for (const ms of times) expect(isoTime(ms), String(ms)).toBe(new Date(ms).toISOString());
  });

  it("redacts any case of bearer and every configured secret, and leaves other strings as they are", () => {
    // The bearer value runs to the next space, its semicolon too.
    expect(redactSecrets("auth: bearer xyz; key k3y-one, again k3y-one", ["k3y-one", "abc"])).toBe(
      "auth: Bearer [redacted] key [redacted], again [redacted]",
    );
    const plain = "meta-llama/Llama-3.3-70B-Instruct";
    expect(redactSecrets(plain, ["k3y-one"])).toBe(plain);
  });

  it("redacts inside plain strings too", () => {
    expect(redactSecrets("Authorization: Bearer xyz and hf_0123456789abcdef")).toBe(
      "Authorization: Bearer [redacted] and hf_[redacted]",
    );
  });
});

describe("writing log lines per turn of the event loop", () => {
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  it("writes the lines of one turn in one write, in order, and each later turn's in its own", async () => {
    const writes: string[] = [];
    const logger = createJsonLogger({ write: writeLinesPerTurn((text) => writes.push(text)) });
    logger.log("info", "one");
    logger.log("warn", "two");
    logger.log("info", "three");
    expect(writes).toEqual([]);
    await nextTurn();
    logger.log("info", "four");
    await nextTurn();
    expect(writes).toHaveLength(2);
    expect(writes[0]!.endsWith("\n")).toBe(true);
    expect(
      writes[0]!
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line).msg),
    ).toEqual(["one", "two", "three"]);
    expect(JSON.parse(writes[1]!).msg).toBe("four");
  });

  it("writes what is left when the process exits before the turn ends", () => {
    const logger = fileURLToPath(new URL("./logger.ts", import.meta.url));
    const script = `import { createJsonLogger, writeLinesPerTurn } from ${JSON.stringify(logger)};
      const log = createJsonLogger({ write: writeLinesPerTurn((text) => process.stdout.write(text)) });
      log.log("info", "last words");
      process.exit(0);`;
    const output = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    expect(JSON.parse(output).msg).toBe("last words");
  });
});
