import { createHash } from "node:crypto";
import { utimesSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";

/** A hub's address and a caller's token: the HTTP calls of an LFS upload and commit, as a client makes them. */
export interface Caller {
  url: string;
  token: string;
}

export const sha256Hex = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

export function call(caller: Caller, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${caller.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${caller.token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Uploads bytes to a model repository through the LFS batch API (upload, then verify); their sha256. */
export async function lfsUpload(caller: Caller, repo: string, bytes: Uint8Array): Promise<string> {
  const oid = sha256Hex(bytes);
  const answered = await call(caller, "POST", `/${repo}.git/info/lfs/objects/batch`, {
    operation: "upload",
    transfers: ["basic"],
    objects: [{ oid, size: bytes.length }],
  });
  expect(answered.status).toBe(200);
  const { objects } = (await answered.json()) as {
    objects: { actions?: { upload?: { href: string }; verify?: { href: string } } }[];
  };
  const actions = objects[0]?.actions;
  if (actions?.upload) {
    expect((await fetch(actions.upload.href, { method: "PUT", body: bytes as BodyInit })).status).toBe(200);
  }
  if (actions?.verify) {
    const verified = await fetch(actions.verify.href, {
      method: "POST",
      headers: { "Content-Type": "application/vnd.git-lfs+json" },
      body: JSON.stringify({ oid, size: bytes.length }),
    });
    expect(verified.status).toBe(200);
  }
  return oid;
}

/** An NDJSON commit to a model repository's main branch; the response. */
export function commitLines(caller: Caller, repo: string, summary: string, lines: unknown[]): Promise<Response> {
  return fetch(`${caller.url}/api/models/${repo}/commit/main`, {
    method: "POST",
    headers: { Authorization: `Bearer ${caller.token}`, "Content-Type": "application/x-ndjson" },
    body: [{ key: "header", value: { summary } }, ...lines].map((line) => JSON.stringify(line)).join("\n"),
  });
}

/** Commits, expecting success; the new commit's id. */
export async function commit(caller: Caller, repo: string, summary: string, lines: unknown[]): Promise<string> {
  const response = await commitLines(caller, repo, summary, lines);
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return (JSON.parse(text) as { commitOid: string }).commitOid;
}

export const lfsFile = (path: string, oid: string, size: number) => ({
  key: "lfsFile",
  value: { path, algo: "sha256", oid, size },
});

/**
 * Makes a blob of the hub's file-system store an hour old: a permanent deletion leaves bytes stored in the
 * last minutes to blob GC (a commit of the same content may be on its way), so tests of freeing age them.
 */
export function ageBlob(dataDir: string, sha256: string): void {
  const old = new Date(Date.now() - 60 * 60 * 1000);
  utimesSync(join(dataDir, "blobs", "sha256", sha256.slice(0, 2), sha256.slice(2, 4), sha256), old, old);
}
