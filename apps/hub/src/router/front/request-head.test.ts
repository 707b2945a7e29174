import { describe, expect, it } from "vitest";
import { INCOMPLETE, MAX_HEAD_BYTES, NOT_MINE, parseRequestHead, type RequestHead } from "./request-head.js";

const routerOnly = (_method: string, target: string) => target.startsWith("/v1/");
const parse = (text: string) => parseRequestHead(Buffer.from(text, "latin1"), 0, routerOnly);

const CHAT = "POST /v1/chat/completions HTTP/1.1\r\nHost: hub\r\nContent-Length: 2\r\n";

describe("parseRequestHead", () => {
  it("reads a router call's head: method, target, lower-case headers, body length and where it starts", () => {
    const text = `${CHAT}Authorization:  Bearer hf_x \t\r\nconnection: Close\r\n\r\n{}`;
    const head = parse(text) as RequestHead;
    expect(head).toMatchObject({
      method: "POST",
      url: "/v1/chat/completions",
      contentLength: 2,
      close: true,
    });
    expect({ ...head.headers }).toEqual({
      host: "hub",
      "content-length": "2",
      authorization: "Bearer hf_x",
      connection: "Close",
    });
    expect(Object.getPrototypeOf(head.headers)).toBe(null);
    expect(text.slice(head.bodyStart)).toBe("{}");
    expect((parse("GET /v1/models HTTP/1.1\r\nHost: hub\r\n\r\n") as RequestHead).contentLength).toBe(0);
  });

  it("reads a head at an offset (a pipelined request), and says when it is not whole yet", () => {
    const bytes = Buffer.from(`xx${CHAT}\r\n{}`, "latin1");
    expect(parseRequestHead(bytes, 2, routerOnly)).toMatchObject({ url: "/v1/chat/completions" });
    expect(parse(CHAT)).toBe(INCOMPLETE);
    expect(parse(`${CHAT}\r`)).toBe(INCOMPLETE);
  });

  it("leaves to node:http every request it is not sure how to read", () => {
    const notMine = [
      // Not the router's, or not a method it answers.
      "GET /api/models HTTP/1.1\r\nHost: hub\r\n\r\n",
      "OPTIONS /v1/models HTTP/1.1\r\nHost: hub\r\n\r\n",
      "PUT /v1/models HTTP/1.1\r\nHost: hub\r\n\r\n",
      "GET http://hub/v1/models HTTP/1.1\r\nHost: hub\r\n\r\n",
      // Another version, or a malformed request line.
      "GET /v1/models HTTP/1.0\r\nHost: hub\r\n\r\n",
      "GET /v1/models HTTP/2.0\r\nHost: hub\r\n\r\n",
      "GET  /v1/models HTTP/1.1\r\nHost: hub\r\n\r\n",
      "GET /v1/mo dels HTTP/1.1\r\nHost: hub\r\n\r\n",
      "GET /v1/m\u00e9 HTTP/1.1\r\nHost: hub\r\n\r\n",
      // Framing another parser could read differently: smuggling material.
      `${CHAT}Transfer-Encoding: chunked\r\n\r\n`,
      `${CHAT}Content-Length: 2\r\n\r\n`,
      `${CHAT}Content-Length: 3\r\n\r\n`,
      "POST /v1/chat/completions HTTP/1.1\r\nHost: hub\r\nContent-Length: +2\r\n\r\n",
      // node:http refuses a tab after the digits (found comparing the two parsers).
      "POST /v1/chat/completions HTTP/1.1\r\nHost: hub\r\nContent-Length: 2\t\r\n\r\n",
      "POST /v1/chat/completions HTTP/1.1\r\nHost: hub\r\nContent-Length: 2, 2\r\n\r\n",
      "POST /v1/chat/completions HTTP/1.1\r\nHost: hub\r\nContent-Length: 1234567890123456\r\n\r\n",
      `${CHAT}Expect: 100-continue\r\n\r\n`,
      `${CHAT}Upgrade: websocket\r\n\r\n`,
      `${CHAT}Connection: upgrade\r\n\r\n`,
      // Header lines that are not plain `name: value`.
      `${CHAT}X-Folded: a\r\n b\r\n\r\n`,
      `${CHAT}Bad Name: v\r\n\r\n`,
      `${CHAT}: no name\r\n\r\n`,
      `${CHAT}no-colon\r\n\r\n`,
      `${CHAT}X-Bare-LF: a\nX-Other: b\r\n\r\n`,
      `${CHAT}X-Bare-CR: a\rb\r\n\r\n`,
      `${CHAT}X-Nul: a\u0000b\r\n\r\n`,
      `${CHAT}X-Latin: caf\u00e9\r\n\r\n`,
      `${CHAT}Authorization: a\r\nauthorization: b\r\n\r\n`,
      // No Host (the hub answers that itself, through node:http).
      "GET /v1/models HTTP/1.1\r\nAccept: */*\r\n\r\n",
      "GET /v1/models HTTP/1.1\r\n\r\n",
      // More header lines than a client sends.
      `GET /v1/models HTTP/1.1\r\nHost: hub\r\n${"X-A: b\r\n".repeat(101)}\r\n`,
      // Not HTTP/1.1 at all (an HTTP/2 preface, TLS).
      "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
      "\u0016\u0003\u0001\u0002\u0000\u0001\r\n\r\n",
    ];
    for (const text of notMine) expect(parse(text), JSON.stringify(text)).toBe(NOT_MINE);
  });

  it("leaves a head longer than node:http's limit to node:http (its 431), whole or not", () => {
    const long = `GET /v1/models HTTP/1.1\r\nHost: hub\r\nX-Big: ${"a".repeat(MAX_HEAD_BYTES)}`;
    expect(parse(long)).toBe(NOT_MINE);
    expect(parse(`${long}\r\n\r\n`)).toBe(NOT_MINE);
  });

  it("takes a `__proto__` header as a plain header", () => {
    const head = parse(`GET /v1/models HTTP/1.1\r\nHost: hub\r\n__proto__: x\r\n\r\n`) as RequestHead;
    expect(Object.entries(head.headers)).toContainEqual(["__proto__", "x"]);
    expect(Object.getPrototypeOf(head.headers)).toBe(null);
  });
});
