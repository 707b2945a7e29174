import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { useTestHub } from "../__fixtures__/test-hub.js";

const hub = useTestHub();

/** Writes raw bytes on one connection; resolves with the head of every answer once the server closes it. */
function answerHeads(bytes: string): Promise<string[]> {
  const { port } = new URL(hub.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => socket.write(bytes));
    let answers = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      answers += chunk;
    });
    socket.on("close", () =>
      resolve(
        answers
          .split(/(?=HTTP\/1\.1 \d{3} )/)
          .filter(Boolean)
          .map((answer) => answer.split("\r\n\r\n")[0]!.toLowerCase()),
      ),
    );
    socket.on("error", reject);
  });
}

describe("an answer sent before the request body was read", () => {
  it("says Connection: close, so that no client reuses a connection the server abandons", async () => {
    // An upload URL whose grant is not valid: refused before a byte of the announced 1 MiB is read.
    const heads = await answerHeads(
      `PUT /api/lfs-upload/aaaa.bbbb HTTP/1.1\r\nHost: x\r\nContent-Length: ${1 << 20}\r\n\r\n${"x".repeat(1000)}`,
    );
    expect(heads).toHaveLength(1);
    expect(heads[0]).toMatch(/^http\/1\.1 4\d\d /);
    expect(heads[0]).toContain("connection: close");
  });

  it("keeps the connection alive when the body was read, and for requests without one", async () => {
    const heads = await answerHeads(
      "PUT /api/lfs-upload/aaaa.bbbb HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n" +
        "GET /api/models?limit=1 HTTP/1.1\r\nHost: x\r\n\r\n" +
        "GET /api/models?limit=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    expect(heads).toHaveLength(3);
    expect(heads[0]).toMatch(/^http\/1\.1 4\d\d /);
    expect(heads[0]).toContain("connection: keep-alive");
    expect(heads[1]).toMatch(/^http\/1\.1 200 /);
    expect(heads[1]).toContain("connection: keep-alive");
    expect(heads[2]).toContain("connection: close");
  });
});
