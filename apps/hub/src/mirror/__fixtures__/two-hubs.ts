import { createHash } from "node:crypto";
import { join } from "node:path";
import { createRepo, uploadFiles } from "@huggingface/hub";
import { afterAll, beforeAll } from "vitest";
import { accountsService } from "../../accounts/accounts-service.js";
import { startTestHub } from "../../__fixtures__/test-hub.js";
import { makeTempDir } from "../../__fixtures__/temp-dir.js";
import { pseudoRandomBytes } from "../../lfs-xet/__fixtures__/bytes.js";
import { gitBlobId } from "../../repos/git-objects.js";
import { tinyTokenizerJson } from "../../repos/tiny-tokenizer.js";
import type { RunningHub, StartHubOptions } from "../../start-hub.js";
import type { Store } from "../../store/store.js";
import { DEFAULT_UPSTREAM_TIMEOUT_SECONDS, type MirrorSettings } from "../mirror-config.js";
import { startUpstreamProxy, type UpstreamProxy } from "./upstream-proxy.js";

/**
 * Two hubs on loopback for the mirror's tests: an upstream Modelhub seeded with the repositories a mirror
 * meets on the public hub, and a mirror hub in front of it (UPSTREAM_URL = a counting proxy before the
 * upstream: upstream-proxy.ts), both in this process on the suite's database.
 *
 * Upstream accounts: `olivia` owns the organization `hubco` and writes every seeded repository; `mirror-bot`
 * is a read member of `hubco` (so it reads hubco's private and gated repositories) and its read token is the
 * mirror's UPSTREAM_TOKEN. Upstream's public URL is the proxy's, so the URLs it writes (Xet CAS) lead through
 * the proxy too.
 *
 * Mirror accounts: `mia` (a reader with no grants), `lena` (owns a local organization `hubco` holding the
 * local `hubco/shadowed`, and her own `lena/local-model`), `sam` (site admin). MIRROR_LOCAL_NAMESPACES is
 * `mia` by default (upstream's `mia/upstream-only` must stay invisible).
 */

export type SeededFileKind = "regular" | "lfs" | "xet";

export interface SeededFile {
  content: Buffer;
  kind: SeededFileKind;
  sha256: string;
  /** The git blob id of a regular file (what upstream lists as its oid). */
  gitOid: string;
}

export interface SeededRepo {
  type: "model" | "dataset" | "space";
  id: string;
  /** Upstream settings. */
  private: boolean;
  gated: false | "auto" | "manual";
  /** The files of main's head commit (besides `.gitattributes`), by path. */
  files: Record<string, SeededFile>;
}

/** The seeded repositories' ids, by role. */
export const UPSTREAM_IDS = {
  /** Regular files (config, tokenizer, card, a nested text file), an LFS file and a Xet-stored file. */
  publicModel: "hubco/public-model",
  /** `gated: "manual"`: a regular and an LFS file. */
  gatedModel: "hubco/gated-model",
  /** Private in hubco: the mirror's token reads it. */
  privateModel: "hubco/private-model",
  /** olivia's private model: the mirror's token cannot read it (upstream answers 404). */
  secretModel: "olivia/secret-model",
  /** CSV splits with a card. */
  dataset: "hubco/public-dataset",
  space: "hubco/demo-space",
  /** Upstream has it, and so has the mirror hub locally (different content): local wins. */
  shadowed: "hubco/shadowed",
  /** In a namespace the mirror keeps local-only. */
  localNamespace: "mia/upstream-only",
} as const;

const CARD = `---
license: mit
language: en
pipeline_tag: text-generation
library_name: transformers
tags:
- mirror-test
---
# Public model

A small model served by the upstream hub for the mirror's tests.
`;

const DATASET_CARD = `---
license: cc-by-4.0
language: en
configs:
- config_name: default
  data_files:
  - split: train
    path: data/train.csv
  - split: test
    path: data/test.csv
---
# Public dataset
`;

const SPACE_CARD = `---
title: Demo
sdk: gradio
sdk_version: 4.0.0
app_file: app.py
---
# Demo space
`;

const CONFIG = { model_type: "gpt2", architectures: ["GPT2LMHeadModel"], n_embd: 8, n_layer: 1, n_head: 1 };
const TOKENIZER_CONFIG = {
  tokenizer_class: "PreTrainedTokenizerFast",
  bos_token: "<|endoftext|>",
  eos_token: "<|endoftext|>",
  model_max_length: 1024,
};

const text = (value: string) => Buffer.from(value);
const json = (value: unknown) => text(`${JSON.stringify(value, null, 2)}\n`);
const sha256Of = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const file = (content: Buffer, kind: SeededFileKind): SeededFile => ({
  content,
  kind,
  sha256: sha256Of(content),
  gitOid: gitBlobId(content),
});

/** What the upstream hub holds once seeded (main's head of each repository). */
export function seededRepos(): Record<keyof typeof UPSTREAM_IDS, SeededRepo> {
  const model = (id: string, files: Record<string, SeededFile>, extra: Partial<SeededRepo> = {}): SeededRepo => ({
    type: "model",
    id,
    private: false,
    gated: false,
    files,
    ...extra,
  });
  return {
    publicModel: model(UPSTREAM_IDS.publicModel, {
      "README.md": file(text(CARD), "regular"),
      "config.json": file(json(CONFIG), "regular"),
      "tokenizer_config.json": file(json(TOKENIZER_CONFIG), "regular"),
      "tokenizer.json": file(text(tinyTokenizerJson(["<|endoftext|>"])), "regular"),
      "nested/deeper/notes.txt": file(text("notes in a nested folder\n"), "regular"),
      // `*.bin` is LFS by the default .gitattributes: uploaded through the plain LFS path.
      "pytorch_model.bin": file(Buffer.from(pseudoRandomBytes(300_000, 7)), "lfs"),
      // Uploaded through Xet (several chunks: a new revision can share most of them).
      "model.safetensors": file(Buffer.from(pseudoRandomBytes(1_500_000, 11)), "xet"),
    }),
    gatedModel: model(
      UPSTREAM_IDS.gatedModel,
      {
        "config.json": file(json(CONFIG), "regular"),
        "weights.bin": file(Buffer.from(pseudoRandomBytes(120_000, 13)), "lfs"),
      },
      { gated: "manual" },
    ),
    privateModel: model(
      UPSTREAM_IDS.privateModel,
      { "config.json": file(json({ ...CONFIG, private_marker: true }), "regular") },
      { private: true },
    ),
    secretModel: model(
      UPSTREAM_IDS.secretModel,
      { "config.json": file(json({ ...CONFIG, secret: true }), "regular") },
      { private: true },
    ),
    dataset: {
      type: "dataset",
      id: UPSTREAM_IDS.dataset,
      private: false,
      gated: false,
      files: {
        "README.md": file(text(DATASET_CARD), "regular"),
        "data/train.csv": file(text("text,label\nhello,1\nworld,0\nmirror,1\n"), "regular"),
        "data/test.csv": file(text("text,label\nupstream,0\n"), "regular"),
      },
    },
    space: {
      type: "space",
      id: UPSTREAM_IDS.space,
      private: false,
      gated: false,
      files: {
        "README.md": file(text(SPACE_CARD), "regular"),
        "app.py": file(text("import gradio as gr\n\ngr.Interface(lambda x: x, 'text', 'text').launch()\n"), "regular"),
      },
    },
    shadowed: model(UPSTREAM_IDS.shadowed, { "config.json": file(json({ ...CONFIG, origin: "upstream" }), "regular") }),
    localNamespace: model(UPSTREAM_IDS.localNamespace, {
      "config.json": file(json({ ...CONFIG, origin: "upstream" }), "regular"),
    }),
  };
}

/** What the mirror hub holds locally from the start. */
export const LOCAL_IDS = {
  /** Same id as upstream's: the local one wins. */
  shadowed: "hubco/shadowed",
  local: "lena/local-model",
} as const;
export const LOCAL_SHADOWED_CONFIG = json({ ...CONFIG, origin: "local" });

export interface TwoHubsOptions {
  /** Mirror settings over the defaults (pull-through, TTL 60 s, local namespace `mia`, timeout 5 s). */
  mirror?: Partial<MirrorSettings>;
  /** Start options of the mirror hub (a logger...). */
  mirrorHub?: Partial<StartHubOptions>;
}

export interface TwoHubs {
  upstream: {
    /** Where the mirror reaches upstream: the proxy. */
    readonly url: string;
    /** The upstream hub itself, bypassing the proxy (seeding more, checking it directly). */
    readonly directUrl: string;
    readonly store: Store;
    readonly proxy: UpstreamProxy;
    /** olivia's write token (owner of hubco) and mirror-bot's read token (the mirror's UPSTREAM_TOKEN). */
    readonly tokens: { olivia: string; mirrorBot: string };
  };
  mirror: {
    readonly url: string;
    readonly store: Store;
    readonly dataDir: string;
    readonly settings: MirrorSettings;
    /** mia reads, lena writes (lena's and the local hubco's repositories), sam is a site admin. */
    readonly tokens: { mia: string; lena: string; sam: string };
  };
  /** What upstream holds. */
  readonly seeded: Record<keyof typeof UPSTREAM_IDS, SeededRepo>;
  /** Restarts the mirror hub on its data and port with other settings (offline mode...). */
  restartMirror(settings?: Partial<MirrorSettings>): Promise<void>;
}

async function call(url: string, token: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const { json: body, ...rest } = init;
  const response = await fetch(url, {
    ...rest,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      ...(rest.headers as Record<string, string> | undefined),
    },
    body: body === undefined ? rest.body : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${init.method ?? "GET"} ${url}: ${response.status} ${await response.text()}`);
  return response;
}

/** Creates one seeded repository upstream and uploads its files (LFS ones without Xet, Xet ones with it). */
async function seedUpstreamRepo(hubUrl: string, token: string, repo: SeededRepo): Promise<void> {
  const designation = { type: repo.type, name: repo.id };
  await createRepo({
    repo: designation,
    accessToken: token,
    hubUrl,
    private: repo.private,
    ...(repo.type === "space" ? { sdk: "gradio" } : {}),
  });
  const entries = Object.entries(repo.files);
  const upload = async (kinds: SeededFileKind[], useXet: boolean, title: string) => {
    const files = entries
      .filter(([, seeded]) => kinds.includes(seeded.kind))
      .map(([path, seeded]) => ({ path, content: new Blob([new Uint8Array(seeded.content)]) }));
    if (files.length === 0) return;
    await uploadFiles({ repo: designation, accessToken: token, hubUrl, files, useXet, commitTitle: title });
  };
  // Separate commits: main's history has several, and each kind travels its own path.
  await upload(["regular"], false, "Add regular files");
  await upload(["lfs"], false, "Add LFS files");
  await upload(["xet"], true, "Add Xet files");
  if (repo.gated) {
    await call(`${hubUrl}/api/${repo.type}s/${repo.id}/settings`, token, {
      method: "PUT",
      json: { gated: repo.gated },
    });
  }
}

/** Upstream's extra refs on the public model: a branch `dev` one commit ahead, and a tag `v1.0` on main. */
async function seedRefs(hubUrl: string, token: string): Promise<void> {
  const id = UPSTREAM_IDS.publicModel;
  await call(`${hubUrl}/api/models/${id}/branch/dev`, token, { method: "POST", json: {} });
  await uploadFiles({
    repo: { type: "model", name: id },
    accessToken: token,
    hubUrl,
    branch: "dev",
    files: [{ path: "dev-only.txt", content: new Blob(["only on dev\n"]) }],
    commitTitle: "A file only on dev",
  });
  await call(`${hubUrl}/api/models/${id}/tag/main`, token, { method: "POST", json: { tag: "v1.0" } });
}

/** The mirror settings a test starts with, over which `overrides` apply. */
export function mirrorSettings(upstreamUrl: string, token: string, overrides: Partial<MirrorSettings> = {}): MirrorSettings {
  return {
    upstreamUrl,
    upstreamToken: token,
    mode: "pull-through",
    revisionTtlMs: 60_000,
    allow: [],
    deny: [],
    licenses: [],
    maxFileSize: undefined,
    maxCacheSize: undefined,
    localNamespaces: ["mia"],
    upstreamTimeoutMs: DEFAULT_UPSTREAM_TIMEOUT_SECONDS * 1000,
    ...overrides,
  };
}

/**
 * The two hubs of one test file: started and seeded in beforeAll, stopped in afterAll. Read them inside tests
 * and hooks.
 */
export function useTwoHubs(options: TwoHubsOptions = {}): TwoHubs {
  const seeded = seededRepos();
  let state:
    | {
        temp: ReturnType<typeof makeTempDir>;
        upstream: RunningHub;
        proxy: UpstreamProxy;
        mirror: RunningHub;
        mirrorPort: number;
        settings: MirrorSettings;
        upstreamTokens: TwoHubs["upstream"]["tokens"];
        mirrorTokens: TwoHubs["mirror"]["tokens"];
      }
    | undefined;
  const mirrorDataDir = () => join(running().temp.dir, "mirror");
  const startMirror = (settings: MirrorSettings, port = 0) =>
    startTestHub({ providerSim: false, ...options.mirrorHub, dataDir: mirrorDataDir(), port, mirror: settings });

  beforeAll(async () => {
    const temp = makeTempDir("modelhub-mirror-");
    let upstreamUrl = "";
    const proxy = await startUpstreamProxy(() => upstreamUrl);
    const upstream = await startTestHub({
      providerSim: false,
      dataDir: join(temp.dir, "upstream"),
      publicUrl: proxy.url,
    });
    upstreamUrl = upstream.url;
    const upAccounts = accountsService(upstream.store.accounts);
    await upAccounts.createUser({ name: "olivia" });
    await upAccounts.createUser({ name: "mirror-bot" });
    await upAccounts.createOrg({ name: "hubco", fullname: "Hub Co", owner: "olivia" });
    await upAccounts.setMember("hubco", "mirror-bot", "read");
    await upAccounts.createUser({ name: "mia" });
    const upstreamTokens = {
      olivia: (await upAccounts.createToken("olivia", { name: "seed", role: "write" })).token,
      mirrorBot: (await upAccounts.createToken("mirror-bot", { name: "mirror", role: "read" })).token,
    };
    const miaUpstream = (await upAccounts.createToken("mia", { name: "seed", role: "write" })).token;
    for (const [role, repo] of Object.entries(seeded)) {
      await seedUpstreamRepo(upstream.url, role === "localNamespace" ? miaUpstream : upstreamTokens.olivia, repo);
    }
    await seedRefs(upstream.url, upstreamTokens.olivia);

    state = {
      temp,
      upstream,
      proxy,
      mirror: undefined as unknown as RunningHub,
      mirrorPort: 0,
      settings: mirrorSettings(proxy.url, upstreamTokens.mirrorBot, options.mirror),
      upstreamTokens,
      mirrorTokens: { mia: "", lena: "", sam: "" },
    };
    const mirror = await startMirror(state.settings);
    state.mirror = mirror;
    state.mirrorPort = Number(new URL(mirror.url).port);
    const accounts = accountsService(mirror.store.accounts);
    await accounts.createUser({ name: "mia" });
    await accounts.createUser({ name: "lena" });
    await accounts.createUser({ name: "sam", isAdmin: true });
    await accounts.createOrg({ name: "hubco", fullname: "Local Hub Co", owner: "lena" });
    state.mirrorTokens = {
      mia: (await accounts.createToken("mia", { name: "mia", role: "read" })).token,
      lena: (await accounts.createToken("lena", { name: "lena", role: "write" })).token,
      sam: (await accounts.createToken("sam", { name: "sam", role: "write" })).token,
    };
    for (const id of Object.values(LOCAL_IDS)) {
      await createRepo({ repo: { type: "model", name: id }, accessToken: state.mirrorTokens.lena, hubUrl: mirror.url });
    }
    await uploadFiles({
      repo: { type: "model", name: LOCAL_IDS.shadowed },
      accessToken: state.mirrorTokens.lena,
      hubUrl: mirror.url,
      files: [{ path: "config.json", content: new Blob([new Uint8Array(LOCAL_SHADOWED_CONFIG)]) }],
    });
    // What seeding asked is not the tests' business: they count from here.
    proxy.requests.length = 0;
  }, 120_000);

  afterAll(async () => {
    if (!state) return;
    await state.mirror?.close();
    await state.proxy.close();
    await state.upstream.close();
    state.temp.remove();
  });

  const running = () => {
    if (!state) throw new Error("The two hubs start in beforeAll: use them inside a test or a hook.");
    return state;
  };
  return {
    upstream: {
      get url() {
        return running().proxy.url;
      },
      get directUrl() {
        return running().upstream.url;
      },
      get store() {
        return running().upstream.store;
      },
      get proxy() {
        return running().proxy;
      },
      get tokens() {
        return running().upstreamTokens;
      },
    },
    mirror: {
      get url() {
        return running().mirror.url;
      },
      get store() {
        return running().mirror.store;
      },
      get dataDir() {
        return mirrorDataDir();
      },
      get settings() {
        return running().settings;
      },
      get tokens() {
        return running().mirrorTokens;
      },
    },
    seeded,
    async restartMirror(overrides = {}) {
      const current = running();
      await current.mirror.close();
      current.settings = mirrorSettings(current.proxy.url, current.upstreamTokens.mirrorBot, {
        ...options.mirror,
        ...overrides,
      });
      current.mirror = await startMirror(current.settings, current.mirrorPort);
    },
  };
}
