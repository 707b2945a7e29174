import { connect, type Socket } from "node:net";
import type { AntivirusResult, ScanSource } from "./scan-report.js";

/**
 * The antivirus: ClamAV's clamd over its unix socket (`CLAMD_SOCKET`) or TCP (`CLAMD_TCP=host:port`), with the
 * INSTREAM command: `zINSTREAM\0`, then the content in frames of a 4-byte big-endian length and the bytes,
 * then a zero length; clamd answers `stream: OK` or `stream: <name> FOUND`. The content is streamed with
 * backpressure, never held whole.
 *
 * clamd refuses a stream longer than its StreamMaxLength (default 100 MB here, as in recent clamd.conf). A
 * longer file has its first StreamMaxLength bytes scanned: a signature found there is a real finding
 * (`infected`), but a clean prefix does not make the file clean, so that answer is `not-scanned` with the
 * reason. Without configuration the answer is `not-scanned`, never `clean`.
 */

export interface ClamdConfig {
  /** A unix socket path, or a TCP address. */
  address: { path: string } | { host: string; port: number };
  /** Bytes clamd accepts in one INSTREAM (its StreamMaxLength): keep equal to clamd.conf. */
  streamMaxLength: number;
  /** The whole scan, connect to answer. */
  timeoutMs: number;
}

const DEFAULT_STREAM_MAX_LENGTH = 100 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 120_000;

/** The clamd to use from `CLAMD_SOCKET` or `CLAMD_TCP` (and `CLAMD_STREAM_MAX_LENGTH`, `CLAMD_TIMEOUT_MS`). */
export function clamdConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ClamdConfig | undefined {
  const streamMaxLength =
    positiveNumber(env.CLAMD_STREAM_MAX_LENGTH, "CLAMD_STREAM_MAX_LENGTH") ?? DEFAULT_STREAM_MAX_LENGTH;
  const timeoutMs = positiveNumber(env.CLAMD_TIMEOUT_MS, "CLAMD_TIMEOUT_MS") ?? DEFAULT_TIMEOUT_MS;
  if (env.CLAMD_SOCKET) return { address: { path: env.CLAMD_SOCKET }, streamMaxLength, timeoutMs };
  if (env.CLAMD_TCP) {
    const match = /^(.+):(\d{1,5})$/.exec(env.CLAMD_TCP);
    if (!match?.[1] || !match[2]) throw new Error(`CLAMD_TCP must be host:port, got '${env.CLAMD_TCP}'`);
    return { address: { host: match[1], port: Number(match[2]) }, streamMaxLength, timeoutMs };
  }
  return undefined;
}

function positiveNumber(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === "") return undefined;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number <= 0)
    throw new Error(`${name} must be a positive integer, got '${value}'`);
  return number;
}

/** Scans one file's content with clamd; never throws: failures are `error` with the reason. */
export async function clamdScan(
  source: ScanSource,
  config: ClamdConfig | undefined,
): Promise<AntivirusResult> {
  if (!config)
    return { status: "not-scanned", virusNames: [], reason: "no antivirus configured (CLAMD_SOCKET unset)" };
  const scanned = Math.min(source.size, config.streamMaxLength);
  let reply: string;
  try {
    reply = await instream(source, scanned, config);
  } catch (error) {
    return { status: "error", virusNames: [], reason: `clamd: ${(error as Error).message}` };
  }
  const lines = reply
    .split(/[\0\n]/)
    .map((line) => line.trim())
    .filter(Boolean);
  const virusNames = lines.flatMap((line) => /^stream: (.+) FOUND$/.exec(line)?.[1] ?? []);
  if (virusNames.length > 0) return { status: "infected", virusNames };
  if (lines.length === 0 || !lines.every((line) => line === "stream: OK")) {
    return { status: "error", virusNames: [], reason: `clamd answered '${lines.join("; ") || "nothing"}'` };
  }
  if (scanned < source.size) {
    return {
      status: "not-scanned",
      virusNames: [],
      reason: `the file (${source.size} bytes) is larger than clamd's StreamMaxLength; its first ${scanned} bytes are clean, the rest was not scanned`,
    };
  }
  return { status: "clean", virusNames: [] };
}

/** Sends `length` bytes of the source as one INSTREAM and resolves with clamd's answer. */
function instream(source: ScanSource, length: number, config: ClamdConfig): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(config.address);
    const answer: Buffer[] = [];
    let settled = false;
    const finish = (error: Error | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      content?.destroy();
      socket.destroy();
      if (error) reject(error);
      else resolve(Buffer.concat(answer).toString("utf8"));
    };
    const timer = setTimeout(
      () => finish(new Error(`no answer within ${config.timeoutMs} ms`)),
      config.timeoutMs,
    );
    let content: ReturnType<ScanSource["open"]> | undefined;
    socket.on("data", (data: Buffer) => {
      answer.push(data);
      // The `z` form of the command makes clamd end its answer with a NUL byte.
      if (data.includes(0)) finish(undefined);
    });
    socket.on("error", (error) => finish(error));
    socket.on("close", () =>
      finish(answer.length > 0 ? undefined : new Error("closed the connection without answering")),
    );
    socket.on("connect", async () => {
      try {
        socket.write("zINSTREAM\0");
        if (length > 0) {
          content = source.open({ start: 0, end: length - 1 });
          for await (const chunk of content) {
            if (settled) return;
            const frame = Buffer.alloc(4);
            frame.writeUInt32BE((chunk as Buffer).length);
            socket.write(frame);
            if (!socket.write(chunk as Buffer)) {
              await new Promise((drained) => {
                socket.once("drain", drained);
                socket.once("close", drained);
              });
            }
          }
        }
        if (!settled) socket.write(Buffer.alloc(4));
      } catch (error) {
        finish(new Error(`reading the content failed: ${(error as Error).message}`));
      }
    });
  });
}
