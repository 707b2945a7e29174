import { once } from "node:events";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN } from "../../__fixtures__/seeded-app.js";
import { type SimHub, startHubOnSim } from "../../__fixtures__/sim-hub.js";
import { grantGatedModelsToEveryone } from "../__fixtures__/gated-grants.js";
import { type RawAnswer, readAnswer } from "./__fixtures__/raw-answers.js";

/**
 * The same router calls answered by the front (a fresh connection) and by node:http (a connection the front
 * handed over after a request of the app's): the hub must answer them alike, whichever server read them.
 */
let setup: SimHub;
let token: string;

beforeAll(async () => {
  setup = await startHubOnSim();
  const response = await fetch(`${setup.hub.url}/api/admin/tokens`, {
    method: "POST",
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "parity" }),
  });
  token = ((await response.json()) as { token: string }).token;
  // The catalogue's gated models need a grant for inference, as for their files.
  await grantGatedModelsToEveryone(setup.hub.store);
});

afterAll(() => setup?.close());

/** A connection that sends requests one at a time and reads each answer whole. */
class RawConnection {
  /** What arrived and was not read yet, as latin1. */
  private buffered = "";
  private readonly socket: Socket;
  private wake: (() => void) | undefined;
  private closed = false;

  constructor(port: number) {
    this.socket = connect(port, "127.0.0.1");
    this.socket.setEncoding("latin1");
    this.socket.on("data", (chunk: string) => {
      this.buffered += chunk;
      this.wake?.();
    });
    this.socket.on("close", () => {
      this.closed = true;
      this.wake?.();
    });
  }

  async exchange(request: string): Promise<RawAnswer> {
    this.socket.write(request);
    for (;;) {
      const read = readAnswer(this.buffered);
      if (read) {
        this.buffered = this.buffered.slice(read.end);
        return read.answer;
      }
      if (this.closed) throw new Error("the hub closed the connection mid-answer");
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

const MODEL = "meta-llama/Llama-3.1-8B-Instruct";

function post(path: string, body: unknown, credential: string | undefined): string {
  const text = JSON.stringify(body);
  const auth = credential ? `Authorization: Bearer ${credential}\r\n` : "";
  return `POST ${path} HTTP/1.1\r\nHost: hub\r\n${auth}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
}

/** Calls whose answers differ only in per-call ids and times. */
const calls: [string, number, () => string][] = [
  [
    "chat",
    200,
    () => post("/v1/chat/completions", { model: MODEL, messages: [{ role: "user", content: "Hi" }] }, token),
  ],
  [
    "streamed chat",
    200,
    () =>
      post(
        "/v1/chat/completions",
        { model: `${MODEL}:together`, stream: true, messages: [{ role: "user", content: "Hi" }] },
        token,
      ),
  ],
  [
    "per-provider chat",
    200,
    () =>
      post(
        "/router/together/v1/chat/completions",
        { model: "x", messages: [{ role: "user", content: "Hi" }] },
        token,
      ),
  ],
  ["models", 200, () => "GET /v1/models HTTP/1.1\r\nHost: hub\r\n\r\n"],
  ["no token", 401, () => post("/v1/chat/completions", { model: MODEL, messages: [] }, undefined)],
  ["wrong token", 401, () => post("/v1/chat/completions", { model: MODEL, messages: [] }, "hf_wrong")],
  [
    "unknown model",
    404,
    () => post("/v1/chat/completions", { model: "nobody/nothing", messages: [] }, token),
  ],
  [
    "bad path",
    400,
    () => "GET /router/v1/models/%zz HTTP/1.1\r\nHost: hub\r\nOrigin: https://example.com\r\n\r\n",
  ],
];

/** What may differ between two answers to the same call: ids, times, and the per-connection headers. */
function comparable(answer: RawAnswer) {
  const headers = { ...answer.headers };
  for (const name of ["date", "x-request-id", "x-provider-request-id", "connection", "keep-alive"]) {
    delete headers[name];
  }
  const body = answer.body
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>")
    .replace(/"(id|created)":("[^"]*"|\d+)/g, '"$1":<id>')
    .replace(/"(\w+_time)":[\d.e-]+/g, '"$1":<time>');
  return { status: answer.status, headers, body };
}

describe("the router front and node:http", () => {
  it("answer each router call alike", async () => {
    const port = Number(new URL(setup.hub.url).port);
    for (const [name, status, request] of calls) {
      const fresh = new RawConnection(port);
      const handedOver = new RawConnection(port);
      expect((await handedOver.exchange("GET /healthz HTTP/1.1\r\nHost: hub\r\n\r\n")).status).toBe(200);
      const byFront = await fresh.exchange(request());
      const byNode = await handedOver.exchange(request());
      // Which server wrote the head: node:http capitalises the headers it adds, the front does not.
      expect(byFront.rawHead, name).toMatch(/\r\ndate: /);
      expect(byNode.rawHead, name).toMatch(/\r\nDate: /);
      expect(byFront.status, name).toBe(status);
      expect(comparable(byFront), name).toEqual(comparable(byNode));
      // Both connections stay open for the next call.
      expect(byFront.headers.connection, name).toBe("keep-alive");
      expect((await fresh.exchange(request())).status, name).toBe(byFront.status);
      fresh.close();
      handedOver.close();
    }
  });

  it("answers a caller that sends a body in pieces, and one that pipelines calls", async () => {
    const port = Number(new URL(setup.hub.url).port);
    const caller = new RawConnection(port);
    const chat = post(
      "/v1/chat/completions",
      { model: MODEL, messages: [{ role: "user", content: "Hi" }] },
      token,
    );
    const twice = caller.exchange(chat + chat);
    const first = await twice;
    const second = await caller.exchange("");
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.headers["x-request-id"]).not.toBe(first.headers["x-request-id"]);
    const bodyAt = chat.indexOf("\r\n\r\n") + 4;
    const socket = connect(port, "127.0.0.1");
    await once(socket, "connect");
    socket.write(chat.slice(0, bodyAt + 5));
    await new Promise((resolve) => setTimeout(resolve, 20));
    socket.write(chat.slice(bodyAt + 5));
    const [chunk] = (await once(socket, "data")) as [Buffer];
    expect(chunk.toString("latin1")).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\ndate: /);
    socket.destroy();
    caller.close();
  });
});
