import { describe, expect, it } from "vitest";
import { AnswerParser, ProviderProtocolError } from "./response-parser.js";

interface Seen {
  heads: { status: number; headers: string[]; bodyLength: number }[];
  body: string;
  ends: boolean[];
}

function parserFor(method = "POST"): { parser: AnswerParser; seen: Seen } {
  const seen: Seen = { heads: [], body: "", ends: [] };
  const parser = new AnswerParser({
    onHead: (status, headers, bodyLength) => seen.heads.push({ status, headers, bodyLength }),
    onBody: (chunk) => {
      seen.body += chunk.toString("latin1");
    },
    onEnd: (reusable) => seen.ends.push(reusable),
  });
  parser.expect(method);
  return { parser, seen };
}

/** Feeds `text` in pieces of `size` bytes. */
function feed(parser: AnswerParser, text: string, size = text.length): void {
  const bytes = Buffer.from(text, "latin1");
  for (let at = 0; at < bytes.length; at += size) parser.feed(bytes.subarray(at, at + size));
}

const CHUNKED =
  "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n" +
  "8;ext=1\r\ndata: a\n\r\n" +
  "10\r\ndata: bcdefghij\n\r\n" +
  "0\r\nX-Trailer: dropped\r\n\r\n";

describe("AnswerParser", () => {
  it("reads a head and a body of known length, whole or byte by byte", () => {
    const answer =
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{"ok":true}';
    for (const size of [answer.length, 1, 7]) {
      const { parser, seen } = parserFor();
      feed(parser, answer, size);
      expect(seen.heads).toEqual([
        {
          status: 200,
          headers: ["content-type", "application/json", "content-length", "11"],
          bodyLength: 11,
        },
      ]);
      expect(seen.body).toBe('{"ok":true}');
      expect(seen.ends).toEqual([true]);
      expect(parser.idle).toBe(true);
    }
  });

  it("decodes chunked bodies cut at every byte, and drops trailers", () => {
    for (const size of [1, 2, 3, 5, 13, CHUNKED.length]) {
      const { parser, seen } = parserFor();
      feed(parser, CHUNKED, size);
      expect(seen.heads[0]).toMatchObject({ status: 200, bodyLength: -1 });
      expect(seen.body).toBe("data: a\ndata: bcdefghij\n");
      expect(seen.ends).toEqual([true]);
    }
  });

  it("skips informational heads (103 Early Hints) before the answer's own", () => {
    const { parser, seen } = parserFor();
    feed(
      parser,
      "HTTP/1.1 103 Early Hints\r\nLink: </a>; rel=preload\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n",
    );
    expect(seen.heads.map((head) => head.status)).toEqual([204]);
    expect(seen.ends).toEqual([true]);
  });

  it("ends bodyless answers at their head: 204, 304 and answers to HEAD", () => {
    const head = parserFor("HEAD");
    feed(head.parser, "HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n");
    expect(head.seen.heads[0]!.bodyLength).toBe(0);
    expect(head.seen.ends).toEqual([true]);
    const notModified = parserFor("GET");
    feed(notModified.parser, "HTTP/1.1 304 Not Modified\r\nETag: x\r\n\r\n");
    expect(notModified.seen.ends).toEqual([true]);
  });

  it("reads a body without framing to the connection's end, and never reuses that connection", () => {
    const { parser, seen } = parserFor();
    feed(parser, "HTTP/1.1 200 OK\r\n\r\npart one, ");
    feed(parser, "part two");
    expect(seen.ends).toEqual([]);
    expect(parser.closed()).toBe(true);
    expect(seen.body).toBe("part one, part two");
    expect(seen.ends).toEqual([false]);
  });

  it("says the connection is done after Connection: close, an HTTP/1.0 answer, or bytes after the end", () => {
    const close = parserFor();
    feed(close.parser, "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx");
    expect(close.seen.ends).toEqual([false]);
    const old = parserFor();
    feed(old.parser, "HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx");
    expect(old.seen.ends).toEqual([false]);
    const extra = parserFor();
    feed(extra.parser, "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxHTTP/1.1 200 OK\r\n\r\n");
    expect(extra.seen.body).toBe("x");
    expect(extra.seen.ends).toEqual([false]);
  });

  it("notes the provider's keep-alive timeout", () => {
    const { parser } = parserFor();
    feed(parser, "HTTP/1.1 200 OK\r\nKeep-Alive: timeout=5, max=100\r\nContent-Length: 0\r\n\r\n");
    expect(parser.keepAliveHintMs).toBe(5000);
  });

  it("reports an incomplete answer at the connection's end", () => {
    const { parser, seen } = parserFor();
    feed(parser, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc");
    expect(parser.closed()).toBe(false);
    expect(seen.ends).toEqual([]);
  });

  it.each([
    ["bytes when no answer is expected", "", "HTTP/1.1 200 OK\r\n\r\n"],
    ["a malformed status line", "HTTP/2 200 OK\r\n\r\n", ""],
    ["both framings", "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", ""],
    ["two lengths", "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n", ""],
    ["a length that is not a number", "HTTP/1.1 200 OK\r\nContent-Length: -3\r\n\r\n", ""],
    ["a folded header line", "HTTP/1.1 200 OK\r\nX-A: 1\r\n  folded\r\n\r\n", ""],
    ["a control character in a value", "HTTP/1.1 200 OK\r\nX-A: a\x01b\r\n\r\n", ""],
    ["a header name that is not a token", "HTTP/1.1 200 OK\r\nX A: 1\r\n\r\n", ""],
    ["a malformed chunk size", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", ""],
    ["a chunk without its line end", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n", ""],
  ])("refuses %s", (_name, answer, afterEnd) => {
    const { parser } = parserFor();
    if (answer === "") {
      feed(parser, "HTTP/1.1 204 No Content\r\n\r\n");
      expect(() => feed(parser, afterEnd)).toThrow(ProviderProtocolError);
      return;
    }
    expect(() => feed(parser, answer)).toThrow(ProviderProtocolError);
  });

  it("refuses a head larger than 64 KiB without waiting for its end", () => {
    const { parser } = parserFor();
    feed(parser, "HTTP/1.1 200 OK\r\n");
    expect(() => feed(parser, `X-Big: ${"a".repeat(70_000)}`)).toThrow(/too large/);
  });

  it("reports nothing more once stopped", () => {
    const { parser, seen } = parserFor();
    feed(parser, "HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nabc");
    parser.stop();
    feed(parser, "def");
    expect(seen.body).toBe("abc");
    expect(seen.ends).toEqual([]);
  });
});
