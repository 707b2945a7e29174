import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bytesSource } from "./__fixtures__/scan-sources.js";
import { type ClamdConfig, clamdConfigFromEnv, clamdScan } from "./clamd-antivirus.js";

// The EICAR anti-virus test file: harmless, detected by every antivirus by design.
const EICAR = Buffer.from("X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*");
const dir = mkdtempSync(join(tmpdir(), "clamd-test-"));

/** A fake clamd speaking INSTREAM: it decodes the frames and answers like clamd, or misbehaves on purpose. */
function fakeClamd(
  path: string,
  behaviour: "answer" | "silent" | "error",
  maxLength = 1 << 20,
): Promise<{ server: Server; received: Buffer[] }> {
  const received: Buffer[] = [];
  const server = createServer((socket) => {
    let pending = Buffer.alloc(0);
    let command = false;
    const streamed: Buffer[] = [];
    let total = 0;
    socket.on("data", (data: Buffer) => {
      pending = Buffer.concat([pending, data]);
      if (!command) {
        const end = pending.indexOf(0);
        if (end < 0) return;
        expect(pending.subarray(0, end).toString()).toBe("zINSTREAM");
        pending = pending.subarray(end + 1);
        command = true;
      }
      while (pending.length >= 4) {
        const length = pending.readUInt32BE(0);
        if (length === 0) {
          const content = Buffer.concat(streamed);
          received.push(content);
          if (behaviour === "silent") return;
          if (behaviour === "error") socket.end("Can't allocate memory ERROR\0");
          else socket.end(content.includes(EICAR) ? "stream: Eicar-Signature FOUND\0" : "stream: OK\0");
          return;
        }
        if (pending.length < 4 + length) return;
        streamed.push(pending.subarray(4, 4 + length));
        total += length;
        pending = pending.subarray(4 + length);
        if (total > maxLength) {
          socket.end("INSTREAM size limit exceeded. ERROR\0");
          return;
        }
      }
    });
  });
  return new Promise((resolve) => server.listen(path, () => resolve({ server, received })));
}

const config = (path: string, extra: Partial<ClamdConfig> = {}): ClamdConfig => ({
  address: { path },
  streamMaxLength: 1 << 20,
  timeoutMs: 10_000,
  ...extra,
});

describe("clamd antivirus", () => {
  it("is not-scanned, never clean, without configuration", async () => {
    expect(clamdConfigFromEnv({})).toBeUndefined();
    expect(await clamdScan(bytesSource(EICAR, "eicar.txt"), undefined)).toMatchObject({
      status: "not-scanned",
    });
    expect(clamdConfigFromEnv({ CLAMD_TCP: "localhost:3310" })?.address).toEqual({
      host: "localhost",
      port: 3310,
    });
    expect(() => clamdConfigFromEnv({ CLAMD_TCP: "nohost" })).toThrow(/host:port/);
  });

  it("streams the content in frames and reads the verdict (fake clamd)", { timeout: 30_000 }, async () => {
    const socket = join(dir, "fake.sock");
    const { server, received } = await fakeClamd(socket, "answer");
    try {
      const big = Buffer.alloc(300_000, 7);
      expect(await clamdScan(bytesSource(big, "a.bin"), config(socket))).toEqual({
        status: "clean",
        virusNames: [],
      });
      expect(received[0]?.equals(big)).toBe(true);
      const infected = Buffer.concat([Buffer.alloc(5000), EICAR]);
      expect(await clamdScan(bytesSource(infected, "b.bin"), config(socket))).toEqual({
        status: "infected",
        virusNames: ["Eicar-Signature"],
      });
      // Past StreamMaxLength: only the first part is sent; clean there is still not "clean".
      const long = await clamdScan(bytesSource(big, "c.bin"), config(socket, { streamMaxLength: 100_000 }));
      expect(long).toMatchObject({ status: "not-scanned", reason: expect.stringMatching(/StreamMaxLength/) });
      expect(received[2]?.length).toBe(100_000);
      const empty = await clamdScan(bytesSource(Buffer.alloc(0), "d.bin"), config(socket));
      expect(empty.status).toBe("clean");
    } finally {
      server.close();
    }
  });

  it("reports errors, a silent clamd and a missing socket as error with the reason", {
    timeout: 30_000,
  }, async () => {
    const errorSocket = join(dir, "error.sock");
    const silentSocket = join(dir, "silent.sock");
    const failing = await fakeClamd(errorSocket, "error");
    const silent = await fakeClamd(silentSocket, "silent");
    try {
      expect(await clamdScan(bytesSource(EICAR, "e"), config(errorSocket))).toMatchObject({
        status: "error",
        reason: expect.stringMatching(/Can't allocate memory ERROR/),
      });
      expect(
        await clamdScan(bytesSource(EICAR, "e"), config(silentSocket, { timeoutMs: 300 })),
      ).toMatchObject({
        status: "error",
        reason: expect.stringMatching(/no answer within 300 ms/),
      });
      expect(await clamdScan(bytesSource(EICAR, "e"), config(join(dir, "none.sock")))).toMatchObject({
        status: "error",
        reason: expect.stringMatching(/ENOENT/),
      });
    } finally {
      failing.server.close();
      silent.server.close();
    }
  });

  describe.skipIf(!existsSync("/usr/sbin/clamd"))("with the real clamd (Debian clamav-daemon)", () => {
    let clamd: ChildProcess | undefined;
    afterAll(() => clamd?.kill());

    it("finds the EICAR test file through clamd's socket", async () => {
      // freshclam cannot download here, so the database is ours: one MD5 signature (.hdb) for EICAR.
      const socket = join(dir, "clamd.sock");
      const md5 = createHash("md5").update(EICAR).digest("hex");
      writeFileSync(join(dir, "eicar.hdb"), `${md5}:${EICAR.length}:Eicar-Test-Signature\n`);
      const conf = join(dir, "clamd.conf");
      writeFileSync(
        conf,
        [
          `LocalSocket ${socket}`,
          `DatabaseDirectory ${dir}`,
          "Foreground yes",
          "StreamMaxLength 1M",
          `TemporaryDirectory ${dir}`,
          "",
        ].join("\n"),
      );
      clamd = spawn("/usr/sbin/clamd", ["--config-file", conf], { stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      clamd.stderr?.on("data", (data) => {
        stderr += data;
      });
      const started = Date.now();
      while (!existsSync(socket)) {
        if (clamd.exitCode !== null || Date.now() - started > 60_000)
          throw new Error(`clamd did not start: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const real = config(socket);
      expect(await clamdScan(bytesSource(EICAR, "eicar.com"), real)).toEqual({
        status: "infected",
        virusNames: ["Eicar-Test-Signature.UNOFFICIAL"],
      });
      expect(await clamdScan(bytesSource(Buffer.from("just a model card\n"), "README.md"), real)).toEqual({
        status: "clean",
        virusNames: [],
      });
    }, 90_000);
  });
});
