/**
 * Property test of content-addressed storage (issue 32, "Must show"; docs/security.md): random sequences of
 * LFS uploads (basic and multipart), commits, claims by sha256 alone, plain files holding LFS pointer text,
 * pull requests, merges, deletes, gated-access grants and blob GC by three users, against a real hub on
 * loopback over raw HTTP. After every step:
 *   - every file of every ref (main and each refs/pr/N) of every repository resolves, for its owner, to exactly
 *     the bytes its committer sent (sha256), and the refs and trees list exactly the model's files;
 *   - each user who may not download a repository (another user's private one: 404; gated without a grant:
 *     403) gets no content from /resolve, /raw, a pull request's diff or a compare;
 * and during the whole run no answer to any caller contains a marker of content that caller could never read
 * (each file carries a unique marker string; a marker is readable by its creator and by whoever may download
 * a repository whose history holds it).
 * fast-check prints the seed and the shrunk op list on failure; each failure message ends with the step log.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { collectBlobGarbage } from "../repos/blob-gc.js";
import type { BlobStore } from "../storage/blob-store.js";
import { createFsBlobStore } from "../storage/fs-blob-store.js";

const CHUNK = 64 * 1024;
/** Defaults; CONTENT_PROPERTY_RUNS=n for a longer soak, CONTENT_PROPERTY_SEED (and _PATH) to replay a failure. */
const NUM_RUNS = Number(process.env.CONTENT_PROPERTY_RUNS ?? 25);
const MAX_STEPS = 12;
const hub = useTestHub({ lfsMultipartChunkBytes: CHUNK });

const USERS = ["ann", "bob", "cat"] as const;
const KINDS = ["public", "private", "gated"] as const;
type Kind = (typeof KINDS)[number];
type User = number;

let tokens: string[] = [];
let blobs: BlobStore;
beforeAll(async () => {
  tokens = [];
  for (const name of USERS) tokens.push(await userToken(hub.store, name));
  blobs = await createFsBlobStore(join(hub.dataDir, "blobs"));
});

// ---------------------------------------------------------------------------------------------------------
// The model

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

interface Content {
  bytes: Buffer;
  sha: string;
  /** Committed as an LFS file (lfsFile line) or inline (file line). */
  lfs: boolean;
  creator: User;
  /** Marker strings inside `bytes` (several when a multipart upload reused another content as a part). */
  markers: string[];
}
type Snapshot = Map<string, Content>;
const same = (a: Content | undefined, b: Content | undefined) =>
  a === b || (a !== undefined && b !== undefined && a.sha === b.sha && a.lfs === b.lfs);

interface PullRequest {
  num: number;
  author: User;
  base: Snapshot;
  head: Snapshot;
  open: boolean;
}

interface Repo {
  id: string;
  owner: User;
  kind: Kind;
  main: Snapshot;
  prs: PullRequest[];
  /** Every content any commit of the repository (any ref) ever held. */
  held: Set<Content>;
  /** sha256 of the LFS contents some commit of the repository held (content-claims rule 2). */
  lfsHistory: Set<string>;
  /** LFS uploads for this repository (lfs_objects), and whether a GC since may have pruned them. */
  uploads: Map<string, { maybeGone: boolean }>;
  grants: Set<User>;
}

interface World {
  run: number;
  repos: Repo[];
  contents: Content[];
  /** Uploaded, not committed (yet). */
  staged: { user: User; repo: Repo; content: Content }[];
  /** Contents someone committed pointer text for before their creator uploaded them (class 4). */
  future: Map<User, Content[]>;
  nextName: number;
  /** Requests of non-owners already made (firstTime). */
  asked: Set<string>;
  log: string[];
}

const canDownload = (user: User, repo: Repo) =>
  repo.owner === user || repo.kind === "public" || (repo.kind === "gated" && repo.grants.has(user));

/** Markers `user` may have seen: of contents it created, or held by a repository it may download. */
function visibleMarkers(world: World, user: User): Set<string> {
  const visible = new Set<string>();
  for (const content of world.contents) if (content.creator === user) visible.add(content.markers[0]!);
  for (const repo of world.repos) {
    if (!canDownload(user, repo)) continue;
    for (const content of repo.held) for (const marker of content.markers) visible.add(marker);
  }
  return visible;
}

let markerCount = 0;
const runNonce = Math.random().toString(36).slice(2, 8);
const MARKER_PREFIX = `MRK${runNonce}`;
const MARKER = new RegExp(`${MARKER_PREFIX}x\\d+Q`, "g");

/** Deterministic filler bytes from a seed (mulberry32), so a replayed seed uploads the same sizes. */
function filler(seed: number, length: number): Buffer {
  const out = Buffer.alloc(length);
  let a = seed >>> 0;
  for (let i = 0; i < length; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = (t ^ (t >>> 14)) & 0xff;
  }
  return out;
}

function newContent(
  world: World,
  creator: User,
  body: (marker: string) => Buffer,
  lfs: boolean,
  extra: string[] = [],
) {
  const marker = `${MARKER_PREFIX}x${++markerCount}Q`;
  const bytes = body(marker);
  const content: Content = { bytes, sha: sha256(bytes), lfs, creator, markers: [marker, ...extra] };
  world.contents.push(content);
  return content;
}

type SizeClass = "small" | "chunk" | "multipart";

/** A new LFS content of `creator`: its marker first, then filler (after `reused`'s bytes, as its first part). */
function lfsContent(world: World, creator: User, length: number, seed: number, reused?: Content): Content {
  return newContent(
    world,
    creator,
    (marker) => {
      const head = Buffer.from(`${marker} by ${USERS[creator]}\n`);
      if (reused) return Buffer.concat([reused.bytes, head, filler(seed, length - CHUNK - head.length)]);
      return Buffer.concat([head, filler(seed, length - head.length)]);
    },
    true,
    reused?.markers ?? [],
  );
}

const smallContent = (world: World, creator: User, seed: number) =>
  lfsContent(world, creator, 1000 + (seed % 20_000), seed);

function newLfsContent(
  world: World,
  creator: User,
  size: SizeClass,
  seed: number,
  reused?: Content,
): Content {
  if (size === "small") return world.future.get(creator)?.shift() ?? smallContent(world, creator, seed);
  if (size === "chunk") return lfsContent(world, creator, CHUNK, seed);
  return lfsContent(world, creator, CHUNK * (1 + (seed % 2)) + 200 + (seed % 5000), seed, reused);
}

const pointerText = (content: Content) =>
  `version https://git-lfs.github.com/spec/v1\noid sha256:${content.sha}\nsize ${content.bytes.length}\n`;

// ---------------------------------------------------------------------------------------------------------
// HTTP, every answer scanned for markers its caller may not see

let requests = 0;

interface Answer {
  status: number;
  headers: Headers;
  bytes: Buffer;
  text: string;
}

async function call(
  world: World,
  user: User,
  method: string,
  url: string,
  body?: Uint8Array | string,
  headers: Record<string, string> = {},
  auth = true,
): Promise<Answer> {
  const response = await fetch(url.startsWith("http") ? url : `${hub.url}${url}`, {
    method,
    headers: { ...(auth ? { Authorization: `Bearer ${tokens[user]}` } : {}), ...headers },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : new Uint8Array(body) }),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  requests++;
  const text = bytes.toString("latin1");
  const markers = text.match(MARKER);
  if (markers) {
    const visible = visibleMarkers(world, user);
    for (const marker of markers) {
      if (visible.has(marker)) continue;
      throw new Error(`${USERS[user]} received ${marker} (content it may not read) from ${method} ${url}`);
    }
  }
  return { status: response.status, headers: response.headers, bytes, text };
}

const json = (answer: Answer) => JSON.parse(answer.bytes.toString("utf8"));
const enc = encodeURIComponent;

function commitLines(summary: string, lines: unknown[]): string {
  return [{ key: "header", value: { summary } }, ...lines].map((line) => JSON.stringify(line)).join("\n");
}

const lfsLine = (path: string, content: Content) => ({
  key: "lfsFile",
  value: { path, algo: "sha256", oid: content.sha, size: content.bytes.length },
});
const fileLine = (path: string, content: Content) => ({
  key: "file",
  value: { path, content: content.bytes.toString("base64"), encoding: "base64" },
});
const deleteLine = (path: string) => ({ key: "deletedFile", value: { path } });

/** Where `user`'s commit to `repo` goes: its main branch, a new pull request, or nowhere (not visible). */
type Route = "main" | "pr" | "hidden";
const routeOf = (user: User, repo: Repo): Route =>
  repo.owner === user ? "main" : repo.kind === "private" ? "hidden" : "pr";

async function commit(world: World, user: User, repo: Repo, route: Route, summary: string, lines: unknown[]) {
  const query = route === "pr" ? "?create_pr=1" : "";
  const answer = await call(
    world,
    user,
    "POST",
    `/api/models/${repo.id}/commit/main${query}`,
    commitLines(summary, lines),
    { "Content-Type": "application/x-ndjson" },
  );
  return answer;
}

/** Records a commit of `changes` (content, or null for a deletion) that the hub accepted. */
function applyCommit(
  user: User,
  repo: Repo,
  route: Route,
  answer: Answer,
  changes: [string, Content | null][],
) {
  const apply = (snapshot: Snapshot) => {
    for (const [path, content] of changes) {
      if (content) snapshot.set(path, content);
      else snapshot.delete(path);
    }
  };
  if (route === "main") apply(repo.main);
  else {
    const url = String(json(answer).pullRequestUrl ?? "");
    const num = Number(url.split("/").at(-1));
    expect(Number.isInteger(num), `pull request url ${url}`).toBe(true);
    const head = new Map(repo.main);
    apply(head);
    repo.prs.push({ num, author: user, base: new Map(repo.main), head, open: true });
  }
  for (const [, content] of changes) {
    if (!content) continue;
    repo.held.add(content);
    if (content.lfs) {
      repo.lfsHistory.add(content.sha);
      repo.uploads.set(content.sha, { maybeGone: false });
    }
  }
}

/** Uploads an LFS content through the batch API (a basic PUT, or multipart parts and their completion). */
async function upload(world: World, user: User, repo: Repo, content: Content): Promise<string> {
  const size = content.bytes.length;
  const batch = await call(
    world,
    user,
    "POST",
    `/${repo.id}.git/info/lfs/objects/batch`,
    JSON.stringify({
      operation: "upload",
      transfers: ["basic", "multipart"],
      objects: [{ oid: content.sha, size }],
    }),
    { "Content-Type": "application/vnd.git-lfs+json" },
  );
  expect(batch.status, batch.text).toBe(200);
  const answer = json(batch) as {
    transfer: string;
    objects: { actions?: { upload?: { href: string; header?: Record<string, string> } } }[];
  };
  const action = answer.objects[0]?.actions?.upload;
  expect(action, "a fresh content must be uploaded").toBeDefined();
  if (answer.transfer === "multipart") {
    const parts: { partNumber: number; etag: string }[] = [];
    const keys = Object.keys(action!.header ?? {})
      .filter((key) => /^\d+$/.test(key))
      .sort();
    for (const key of keys) {
      const index = Number(key) - 1;
      const put = await call(
        world,
        user,
        "PUT",
        action!.header![key]!,
        content.bytes.subarray(index * CHUNK, (index + 1) * CHUNK),
        {},
        false,
      );
      expect(put.status, put.text).toBe(200);
      parts.push({ partNumber: index + 1, etag: put.headers.get("ETag") ?? "" });
    }
    const done = await call(
      world,
      user,
      "POST",
      action!.href,
      JSON.stringify({ oid: content.sha, parts }),
      { "Content-Type": "application/vnd.git-lfs+json" },
      false,
    );
    expect(done.status, done.text).toBe(200);
  } else {
    const put = await call(world, user, "PUT", action!.href, content.bytes, action!.header ?? {}, false);
    expect(put.status, put.text).toBeLessThan(300);
  }
  repo.uploads.set(content.sha, { maybeGone: false });
  return answer.transfer;
}

// ---------------------------------------------------------------------------------------------------------
// Operations, as fast-check generates them (indices are taken modulo what exists when the step runs)

/** A commit's target: the caller's own repository of `kind`, or another user's (`other` picks which). */
interface Targeted {
  user: User;
  own: boolean;
  other: number;
  kind: Kind;
}
type Op =
  | ({ t: "upload"; size: SizeClass; commit: boolean; reuse: boolean; pick: number; seed: number } & Targeted)
  | ({ t: "text"; pick: number; seed: number } & Targeted)
  | ({ t: "claim"; pick: number; secret: boolean } & Targeted)
  | ({ t: "pointer"; pick: number; future: boolean } & Targeted)
  | { t: "delete"; user: User; pick: number }
  | { t: "commitStaged"; pick: number }
  | { t: "merge"; pick: number }
  | { t: "grant"; user: User; other: number }
  | { t: "gc" };

/**
 * Plain files whose text is an LFS pointer (classes 3b and 4): such a file serves its own text, and a later LFS
 * file of the content it names serves that content (tree nodes record each file's sha256: see
 * content-binding.attack.test.ts).
 */
const POINTER_TEXT_OPS = true;

const user = fc.nat({ max: 2 });
const targeted = { user, own: fc.boolean(), other: fc.nat({ max: 1 }), kind: fc.constantFrom(...KINDS) };
const pick = fc.nat({ max: 999 });
/** Ops as plain objects, so that a printed counterexample can be pasted back into runOps. */
const plain = { noNullPrototype: true };
const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record(
      {
        t: fc.constant("upload" as const),
        ...targeted,
        size: fc.constantFrom<SizeClass>("small", "chunk", "multipart"),
        commit: fc.boolean(),
        reuse: fc.boolean(),
        pick,
        seed: fc.nat(),
      },
      plain,
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record({ t: fc.constant("text" as const), ...targeted, pick, seed: fc.nat() }, plain),
  },
  {
    weight: 3,
    arbitrary: fc.record(
      { t: fc.constant("claim" as const), ...targeted, pick, secret: fc.boolean() },
      plain,
    ),
  },
  ...(POINTER_TEXT_OPS
    ? [
        {
          weight: 2,
          arbitrary: fc.record(
            {
              t: fc.constant("pointer" as const),
              ...targeted,
              pick,
              future: fc.boolean(),
            },
            plain,
          ),
        },
      ]
    : []),
  { weight: 2, arbitrary: fc.record({ t: fc.constant("delete" as const), user, pick }, plain) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("commitStaged" as const), pick }, plain) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("merge" as const), pick }, plain) },
  {
    weight: 1,
    arbitrary: fc.record({ t: fc.constant("grant" as const), user, other: fc.nat({ max: 1 }) }, plain),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("gc" as const) }, plain) },
);

const otherUser = (user: User, other: number): User => (user + 1 + (other % 2)) % 3;
const repoOf = (world: World, owner: User, kind: Kind) => world.repos[owner * 3 + KINDS.indexOf(kind)]!;
const targetOf = (world: World, op: Targeted) =>
  repoOf(world, op.own ? op.user : otherUser(op.user, op.other), op.kind);

/** A path for a new or changed file: an existing file of that extension now and then, else a new name. */
function choosePath(world: World, repo: Repo, ext: string, pick: number, avoid?: Content): string {
  const existing = [...repo.main.keys()].filter((path) => path.endsWith(ext));
  const path = existing[pick % Math.max(existing.length, 1)];
  if (pick % 3 === 0 && path && !same(repo.main.get(path), avoid)) return path;
  return `${ext === ".bin" ? "w" : "t"}${world.nextName++}${ext}`;
}

/** What the hub must answer to `user` committing `content` by its sha256 alone to `repo` (content-claims.ts). */
function claimExpectation(
  world: World,
  user: User,
  repo: Repo,
  content: Content,
): "accept" | "refuse" | "either" {
  if (repo.lfsHistory.has(content.sha)) return "accept";
  for (const holder of world.repos) {
    if (holder !== repo && canDownload(user, holder) && holder.lfsHistory.has(content.sha)) return "accept";
  }
  const uploaded = repo.uploads.get(content.sha);
  if (uploaded) return uploaded.maybeGone ? "either" : "accept";
  return "refuse";
}

/** A commit to a repository the caller cannot see: refused as if it did not exist, and nothing changes. */
async function hiddenCommit(world: World, user: User, repo: Repo, lines: unknown[]): Promise<string> {
  const answer = await commit(world, user, repo, "pr", "hidden", lines);
  expect(answer.status, answer.text).toBe(404);
  return "404 (hidden)";
}

async function claim(world: World, user: User, repo: Repo, content: Content, pick: number): Promise<string> {
  const route = routeOf(user, repo);
  const path = choosePath(world, repo, ".bin", pick, content);
  if (route === "hidden") return hiddenCommit(world, user, repo, [lfsLine(path, content)]);
  const expected = claimExpectation(world, user, repo, content);
  const answer = await commit(world, user, repo, route, "claim", [lfsLine(path, content)]);
  if (expected === "accept") expect(answer.status, `claim must be accepted: ${answer.text}`).toBe(200);
  if (expected === "refuse") expect(answer.status, `claim must be refused: ${answer.text}`).toBe(400);
  if (answer.status === 200) {
    applyCommit(user, repo, route, answer, [[path, content]]);
  } else {
    expect(answer.status, answer.text).toBe(400);
    repo.uploads.delete(content.sha);
  }
  return `${answer.status} (${expected}) ${route} ${path} = ${content.markers[0]}`;
}

async function step(world: World, op: Op): Promise<string> {
  switch (op.t) {
    case "upload": {
      const repo = targetOf(world, op);
      const route = routeOf(op.user, repo);
      const known = world.contents.filter(
        (c) =>
          c.lfs &&
          c.bytes.length === CHUNK &&
          (c.creator === op.user || world.repos.some((r) => canDownload(op.user, r) && r.held.has(c))),
      );
      const reused =
        op.size === "multipart" && op.reuse ? known[op.pick % Math.max(known.length, 1)] : undefined;
      if (route === "hidden") {
        const batch = await call(
          world,
          op.user,
          "POST",
          `/${repo.id}.git/info/lfs/objects/batch`,
          JSON.stringify({ operation: "upload", objects: [{ oid: sha256(Buffer.from("x")), size: 1 }] }),
          { "Content-Type": "application/vnd.git-lfs+json" },
        );
        expect(batch.status).toBe(404);
        return "404 (hidden)";
      }
      const content = newLfsContent(world, op.user, op.size, op.seed, reused);
      const transfer = await upload(world, op.user, repo, content);
      const note = `${content.markers.join("+")} ${content.bytes.length} bytes (${transfer})`;
      if (!op.commit) {
        world.staged.push({ user: op.user, repo, content });
        return `staged ${note}`;
      }
      const path = choosePath(world, repo, ".bin", op.pick, content);
      const answer = await commit(world, op.user, repo, route, "upload", [lfsLine(path, content)]);
      expect(answer.status, answer.text).toBe(200);
      applyCommit(op.user, repo, route, answer, [[path, content]]);
      return `${route} ${path} = ${note}`;
    }
    case "text": {
      const repo = targetOf(world, op);
      const route = routeOf(op.user, repo);
      const content = newContent(
        world,
        op.user,
        (marker) =>
          Buffer.from(`${marker} text by ${USERS[op.user]} ${filler(op.seed, 16).toString("hex")}\n`),
        false,
      );
      const path = choosePath(world, repo, ".txt", op.pick);
      if (route === "hidden") return hiddenCommit(world, op.user, repo, [fileLine(path, content)]);
      const answer = await commit(world, op.user, repo, route, "text", [fileLine(path, content)]);
      expect(answer.status, answer.text).toBe(200);
      applyCommit(op.user, repo, route, answer, [[path, content]]);
      return `${route} ${path} = ${content.markers[0]}`;
    }
    case "claim": {
      // Any LFS content of the run, or (secret) one the caller may not reference in that repository.
      const repo = targetOf(world, op);
      const candidates = world.contents.filter(
        (c) => c.lfs && (!op.secret || claimExpectation(world, op.user, repo, c) === "refuse"),
      );
      const content = candidates[op.pick % Math.max(candidates.length, 1)];
      if (!content) return "nothing to claim";
      return claim(world, op.user, repo, content, op.pick);
    }
    case "commitStaged": {
      const staged = world.staged.splice(op.pick % Math.max(world.staged.length, 1), 1)[0];
      if (!staged) return "nothing staged";
      return claim(world, staged.user, staged.repo, staged.content, op.pick);
    }
    case "pointer": {
      const repo = targetOf(world, op);
      const route = routeOf(op.user, repo);
      let target: Content | undefined;
      if (op.future) {
        // Pointer text first, the real upload later (class 4): the victim's next small upload is this content.
        const victim = otherUser(op.user, op.pick);
        target = smallContent(world, victim, op.pick);
        world.future.set(victim, [...(world.future.get(victim) ?? []), target]);
      } else {
        const candidates = world.contents.filter((c) => c.lfs);
        target = candidates[op.pick % Math.max(candidates.length, 1)];
      }
      if (!target) return "nothing to point at";
      const text = pointerText(target);
      const content: Content = {
        bytes: Buffer.from(text),
        sha: sha256(Buffer.from(text)),
        lfs: false,
        creator: op.user,
        markers: [],
      };
      const path = choosePath(world, repo, ".txt", op.pick);
      if (route === "hidden") return hiddenCommit(world, op.user, repo, [fileLine(path, content)]);
      const answer = await commit(world, op.user, repo, route, "pointer", [fileLine(path, content)]);
      expect(answer.status, answer.text).toBe(200);
      applyCommit(op.user, repo, route, answer, [[path, content]]);
      return `${route} ${path} = pointer to ${target.markers[0]}${op.future ? " (not uploaded yet)" : ""}`;
    }
    case "delete": {
      // A file of the main branch of any repository the caller can see: its own, or through a pull request.
      const files = world.repos
        .filter((repo) => routeOf(op.user, repo) !== "hidden")
        .flatMap((repo) =>
          [...repo.main.keys()].filter((path) => path !== ".gitattributes").map((path) => ({ repo, path })),
        );
      const chosen = files[op.pick % Math.max(files.length, 1)];
      if (!chosen) return "nothing to delete";
      const { repo, path } = chosen;
      const route = routeOf(op.user, repo);
      const answer = await commit(world, op.user, repo, route, "delete", [deleteLine(path)]);
      expect(answer.status, answer.text).toBe(200);
      applyCommit(op.user, repo, route, answer, [[path, null]]);
      return `${route} deleted ${path}`;
    }
    case "merge": {
      const open = world.repos.flatMap((repo) =>
        repo.prs.filter((pr) => pr.open).map((pr) => ({ repo, pr })),
      );
      const chosen = open[op.pick % Math.max(open.length, 1)];
      if (!chosen) return "no open pull request";
      const { repo, pr } = chosen;
      // pull-requests.ts: the changes base -> head; a path the target changed otherwise since is a conflict.
      const conflicts: string[] = [];
      const toApply: [string, Content | null][] = [];
      for (const path of new Set([...pr.base.keys(), ...pr.head.keys()])) {
        const before = pr.base.get(path);
        const after = pr.head.get(path);
        if (same(before, after)) continue;
        const onTarget = repo.main.get(path);
        if (same(onTarget, after)) continue;
        if (!same(onTarget, before)) conflicts.push(path);
        else toApply.push([path, after ?? null]);
      }
      const answer = await call(
        world,
        repo.owner,
        "POST",
        `/api/models/${repo.id}/discussions/${pr.num}/merge`,
        "{}",
        { "Content-Type": "application/json" },
      );
      if (conflicts.length) {
        expect(answer.status, answer.text).toBe(409);
        return `409 ${repo.id}#${pr.num} conflicts on ${conflicts.join(", ")}`;
      }
      expect(answer.status, answer.text).toBe(200);
      for (const [path, content] of toApply) {
        if (content) repo.main.set(path, content);
        else repo.main.delete(path);
      }
      pr.open = false;
      return `merged ${repo.id}#${pr.num}`;
    }
    case "grant": {
      const repo = repoOf(world, op.user, "gated");
      const who = otherUser(op.user, op.other);
      const answer = await call(
        world,
        op.user,
        "POST",
        `/api/models/${repo.id}/user-access-request/grant`,
        JSON.stringify({ user: USERS[who] }),
        { "Content-Type": "application/json" },
      );
      // Granting twice is refused, as on the public hub.
      expect(answer.status, answer.text).toBe(repo.grants.has(who) ? 400 : 200);
      repo.grants.add(who);
      return `granted ${repo.id} to ${USERS[who]}`;
    }
    case "gc": {
      // Grace 0: every upload not committed to its repository may go; nothing committed may.
      const report = await collectBlobGarbage({ store: hub.store, blobs, graceMs: 0 });
      for (const repo of world.repos) {
        for (const [sha, uploaded] of repo.uploads) if (!repo.lfsHistory.has(sha)) uploaded.maybeGone = true;
      }
      return `deleted ${report.deleted} blobs, pruned ${report.prunedUploads} uploads`;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// The invariant, checked after every step

/**
 * Whether a non-owner's request was not made yet this run. A refusal depends on the repository only, and
 * access only grows (grants), so a refused download or a diff read once need not be asked again every step.
 */
function firstTime(world: World, key: string): boolean {
  if (world.asked.has(key)) return false;
  world.asked.add(key);
  return true;
}

/** Runs `tasks` a few at a time (the hub answers while the next requests are on their way). */
async function inParallel(tasks: (() => Promise<void>)[], width = 6): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: width }, worker));
}

async function checkRepo(world: World, repo: Repo): Promise<void> {
  const owner = repo.owner;
  const refs = await call(world, owner, "GET", `/api/models/${repo.id}/refs?include_prs=1`);
  expect(refs.status, refs.text).toBe(200);
  const listed = json(refs) as { branches: { name: string }[]; pullRequests: { ref: string }[] };
  expect(listed.branches.map((branch) => branch.name)).toEqual(["main"]);
  expect(listed.pullRequests.map((pr) => pr.ref).sort(), repo.id).toEqual(
    repo.prs.map((pr) => `refs/pr/${pr.num}`).sort(),
  );
  const views: [string, Snapshot][] = [
    ["main", repo.main],
    ...repo.prs.map((pr): [string, Snapshot] => [`refs/pr/${pr.num}`, pr.head]),
  ];
  const tasks: (() => Promise<void>)[] = [];
  for (const [ref, snapshot] of views) {
    tasks.push(async () => {
      const tree = await call(world, owner, "GET", `/api/models/${repo.id}/tree/${enc(ref)}?recursive=1`);
      expect(tree.status, tree.text).toBe(200);
      const paths = (json(tree) as { type: string; path: string }[])
        .filter((entry) => entry.type === "file")
        .map((entry) => entry.path)
        .sort();
      expect(paths, `files of ${repo.id}@${ref}`).toEqual([...snapshot.keys()].sort());
    });
    for (const [path, content] of snapshot) {
      tasks.push(async () => {
        const got = await call(world, owner, "GET", `/${repo.id}/resolve/${enc(ref)}/${path}`);
        expect(got.status, `${repo.id}@${ref}/${path}: ${got.text.slice(0, 200)}`).toBe(200);
        const what = `bytes of ${repo.id}@${ref}/${path} (${content.markers[0] ?? (content.lfs ? "initial" : "marker-less text")})`;
        expect(sha256(got.bytes), what).toBe(content.sha);
      });
    }
  }
  for (let user = 0; user < USERS.length; user++) {
    if (user === owner) continue;
    if (canDownload(user, repo)) {
      for (const pr of repo.prs) {
        if (!firstTime(world, `${user} diff ${repo.id}#${pr.num}`)) continue;
        tasks.push(async () => {
          const diff = await call(world, user, "GET", `/api/models/${repo.id}/discussions/${pr.num}?diff=1`);
          expect(diff.status, diff.text).toBe(200);
        });
      }
      continue;
    }
    const refused = repo.kind === "private" ? 404 : 403;
    const attempts: string[] = [];
    for (const [ref, snapshot] of views) {
      for (const [path, content] of snapshot) {
        if (ref !== "main" && same(repo.main.get(path), content)) continue;
        if (!firstTime(world, `${user} ${repo.id}@${ref}/${path} = ${content.sha}`)) continue;
        attempts.push(`/${repo.id}/resolve/${enc(ref)}/${path}`, `/${repo.id}/raw/${enc(ref)}/${path}`);
      }
    }
    for (const pr of repo.prs) {
      if (!firstTime(world, `${user} diff ${repo.id}#${pr.num}`)) continue;
      attempts.push(
        `/api/models/${repo.id}/discussions/${pr.num}?diff=1`,
        `/api/models/${repo.id}/compare/main..${enc(`refs/pr/${pr.num}`)}`,
      );
    }
    for (const url of attempts) {
      tasks.push(async () => {
        const got = await call(world, user, "GET", url);
        expect(got.status, `${USERS[user]} GET ${url}`).toBe(refused);
        expect(got.text.includes(MARKER_PREFIX), `${USERS[user]} GET ${url} answered content`).toBe(false);
      });
    }
  }
  await inParallel(tasks);
}

/** The invariant, after every step: every repository, every ref, every file; every refused caller. */
async function checkAll(world: World): Promise<void> {
  for (const repo of world.repos) await checkRepo(world, repo);
}

// ---------------------------------------------------------------------------------------------------------

let runs = 0;

async function newWorld(): Promise<World> {
  const run = ++runs;
  const world: World = {
    run,
    repos: [],
    contents: [],
    staged: [],
    future: new Map(),
    nextName: 0,
    asked: new Set(),
    log: [],
  };
  for (let owner = 0; owner < USERS.length; owner++) {
    for (const kind of KINDS) {
      const id = `${USERS[owner]}/p${run}-${kind}`;
      const created = await call(
        world,
        owner,
        "POST",
        "/api/repos/create",
        JSON.stringify({ name: id, type: "model", private: kind === "private" }),
        { "Content-Type": "application/json" },
      );
      expect(created.status, created.text).toBe(200);
      if (kind === "gated") {
        const gated = await call(
          world,
          owner,
          "PUT",
          `/api/models/${id}/settings`,
          JSON.stringify({ gated: "manual" }),
          { "Content-Type": "application/json" },
        );
        expect(gated.status, gated.text).toBe(200);
      }
      const repo: Repo = {
        id,
        owner,
        kind,
        main: new Map(),
        prs: [],
        held: new Set(),
        lfsHistory: new Set(),
        uploads: new Map(),
        grants: new Set(),
      };
      // What a new repository starts with (.gitattributes), as served to its owner.
      const tree = await call(world, owner, "GET", `/api/models/${id}/tree/main?recursive=1`);
      for (const entry of json(tree) as { type: string; path: string; lfs?: unknown }[]) {
        if (entry.type !== "file") continue;
        const got = await call(world, owner, "GET", `/${id}/resolve/main/${entry.path}`);
        const content: Content = {
          bytes: got.bytes,
          sha: sha256(got.bytes),
          lfs: !!entry.lfs,
          creator: owner,
          markers: [],
        };
        repo.main.set(entry.path, content);
        repo.held.add(content);
      }
      world.repos.push(repo);
    }
  }
  return world;
}

const describeOp = (op: Op) =>
  Object.entries(op)
    .map(([key, value]) => (key === "t" ? value : `${key}=${value}`))
    .join(" ");

/** How steps ended, over all runs (printed at the end: what the runs exercised). */
const outcomes = new Map<string, number>();

/** One run: fresh repositories, the ops in order, the invariant before and after each. */
async function runOps(ops: Op[]): Promise<void> {
  const world = await newWorld();
  try {
    // Something to claim, copy and delete from the first step: each user's file in its public repository (of
    // one part's size: a multipart upload may reuse it as a part) and in its private one.
    const prelude = [
      ["public", "chunk"],
      ["private", "small"],
    ] as const;
    for (const [index, [kind, size]] of prelude.entries()) {
      for (let owner = 0; owner < USERS.length; owner++) {
        const seed = { t: "upload", user: owner, own: true, other: 0, kind, pick: 1, seed: index } as const;
        const result = await step(world, { ...seed, size, commit: true, reuse: false });
        world.log.push(`0. ${USERS[owner]}'s ${kind} repository: ${result}`);
      }
    }
    await checkAll(world);
    for (const [index, op] of ops.entries()) {
      world.log.push(`${index + 1}. ${describeOp(op)}`);
      const result = await step(world, op);
      world.log.push(`   -> ${result}`);
      const detail = / .*\((accept|refuse|either|basic|multipart)\)/.exec(result)?.[1];
      const outcome = `${op.t} ${result.split(" ")[0]}${detail ? ` ${detail}` : ""}`;
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      await checkAll(world);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${message}\nsteps of run ${world.run}:\n${world.log.join("\n")}`, { cause: error });
  }
}

describe("content property (issue 32): random uploads, commits, pull requests, deletes and GC by 3 users", () => {
  it(`PROPERTY: every ref resolves to its committer's bytes; nobody reads what they may not (${NUM_RUNS} runs x <= ${MAX_STEPS} steps)`, async () => {
    const started = performance.now();
    const [before, runsBefore] = [requests, runs];
    await fc.assert(
      fc.asyncProperty(fc.array(opArbitrary, { minLength: 1, maxLength: MAX_STEPS, size: "max" }), runOps),
      {
        numRuns: NUM_RUNS,
        ...(process.env.CONTENT_PROPERTY_SEED
          ? { seed: Number(process.env.CONTENT_PROPERTY_SEED), path: process.env.CONTENT_PROPERTY_PATH }
          : {}),
        interruptAfterTimeLimit: 240_000,
        markInterruptAsFailure: true,
      },
    );
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const tally = [...outcomes].sort().map(([outcome, count]) => `${outcome}: ${count}`);
    console.log(`content property: ${runs - runsBefore} runs, ${requests - before} requests, ${seconds} s`);
    console.log(`steps: ${tally.join(", ")}`);
  }, 300_000);

  // Classes 3b and 4 of issue 32, as this property found them before tree nodes recorded each file's sha256
  // (fast-check shrank each to two steps, on the caller's own public repository). A run checks every ref of a
  // fresh world over HTTP: about 1 s on a quiet machine, over 5 s (Vitest's default limit) beside the suite.
  const lfsUpload = { size: "small", commit: true, reuse: false, seed: 0 } as const;
  it(
    "3b: a plain file of LFS pointer text serves its text, not the object it names",
    () =>
      runOps([
        { t: "upload", user: 0, own: true, other: 0, kind: "public", pick: 1, ...lfsUpload },
        { t: "pointer", user: 0, own: true, other: 0, kind: "public", pick: 1, future: false },
      ]),
    60_000,
  );
  it(
    "4: pointer text committed first does not change what the owner's later LFS file serves",
    () =>
      runOps([
        { t: "pointer", user: 0, own: true, other: 0, kind: "public", pick: 0, future: true },
        { t: "upload", user: 1, own: true, other: 0, kind: "public", pick: 1, ...lfsUpload },
      ]),
    60_000,
  );
});
