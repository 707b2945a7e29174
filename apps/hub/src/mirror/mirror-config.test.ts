import { describe, expect, it } from "vitest";
import { type MirrorSettings, parseMirrorSettings } from "./mirror-config.js";

function parse(env: Record<string, string>): { settings: MirrorSettings | undefined; problems: string[] } {
  const problems: string[] = [];
  return { settings: parseMirrorSettings(env, problems), problems };
}

describe("mirror settings", () => {
  it("are off without UPSTREAM_URL, and a mirror setting alone is a problem", () => {
    expect(parse({})).toEqual({ settings: undefined, problems: [] });
    expect(parse({ MIRROR_MODE: "offline", UPSTREAM_TOKEN: "hf_x" }).problems).toEqual([
      "UPSTREAM_TOKEN, MIRROR_MODE are set but UPSTREAM_URL is not: set it to mirror an upstream hub.",
    ]);
  });

  it("default to pull-through, a 60 s revision TTL and a 5 s upstream timeout", () => {
    const { settings, problems } = parse({ UPSTREAM_URL: "https://huggingface.co/" });
    expect(problems).toEqual([]);
    expect(settings).toEqual({
      upstreamUrl: "https://huggingface.co",
      upstreamToken: undefined,
      mode: "pull-through",
      revisionTtlMs: 60_000,
      allow: [],
      deny: [],
      licenses: [],
      maxFileSize: undefined,
      maxCacheSize: undefined,
      localNamespaces: [],
      upstreamTimeoutMs: 5_000,
    });
  });

  it("read every setting", () => {
    const { settings, problems } = parse({
      UPSTREAM_URL: "http://127.0.0.1:9000",
      UPSTREAM_TOKEN: "hf_secret",
      MIRROR_MODE: "offline",
      MIRROR_REVISION_TTL: "2.5",
      MIRROR_ALLOW: "meta-llama/*, datasets/HuggingFaceFW/*",
      MIRROR_DENY: "*/GGUF-*",
      MIRROR_LICENSES: "MIT,apache-2.0",
      MIRROR_MAX_FILE_SIZE: "20G",
      MIRROR_MAX_CACHE_SIZE: "1T",
      MIRROR_LOCAL_NAMESPACES: "acme,internal",
      MIRROR_UPSTREAM_TIMEOUT: "3",
    });
    expect(problems).toEqual([]);
    expect(settings).toMatchObject({
      upstreamToken: "hf_secret",
      mode: "offline",
      revisionTtlMs: 2_500,
      allow: ["meta-llama/*", "datasets/HuggingFaceFW/*"],
      deny: ["*/GGUF-*"],
      licenses: ["mit", "apache-2.0"],
      maxFileSize: 20 * 1024 ** 3,
      maxCacheSize: 1024 ** 4,
      localNamespaces: ["acme", "internal"],
      upstreamTimeoutMs: 3_000,
    });
  });

  it("list every problem, never echoing the token", () => {
    const { problems } = parse({
      UPSTREAM_URL: "https://user:pass@upstream.example",
      UPSTREAM_TOKEN: "hf_with space",
      MIRROR_MODE: "sometimes",
      MIRROR_REVISION_TTL: "-1",
      MIRROR_ALLOW: "a/b/c",
      MIRROR_MAX_FILE_SIZE: "lots",
      MIRROR_UPSTREAM_TIMEOUT: "0",
    });
    expect(problems).toHaveLength(7);
    expect(problems.join("\n")).not.toContain("hf_with space");
    expect(problems[0]).toBe("UPSTREAM_URL must not carry credentials: put the token in UPSTREAM_TOKEN.");
    expect(problems).toContain(
      'MIRROR_MAX_FILE_SIZE must be a size in bytes (k, M, G, T suffixes ok), got "lots".',
    );
    expect(parse({ UPSTREAM_URL: "ftp://upstream" }).problems).toEqual([
      'UPSTREAM_URL must be an http(s) URL such as https://huggingface.co, got "ftp://upstream".',
    ]);
  });
});
