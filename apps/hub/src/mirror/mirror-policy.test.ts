import { describe, expect, it } from "vitest";
import {
  formatBytes,
  mirrorPolicyFrom,
  parseByteSize,
  parseMirrorPolicy,
  parseRepoPattern,
} from "./mirror-policy.js";

function policyOf(env: Record<string, string>) {
  const problems: string[] = [];
  const policy = parseMirrorPolicy(env, problems);
  expect(problems).toEqual([]);
  return policy;
}

describe("mirror policy: repositories", () => {
  it("admits everything when nothing is set", () => {
    const policy = policyOf({});
    expect(policy.admits("model", "meta-llama/Llama-3-8B")).toBe(true);
    expect(policy.admits("dataset", "any/thing")).toBe(true);
    expect(policy.refusal("space", "a/b")).toBeUndefined();
  });

  it("matches `*` within one segment, case-insensitively, for the pattern's type only", () => {
    const policy = policyOf({ MIRROR_ALLOW: "meta-llama/*, datasets/HuggingFaceFW/fine*" });
    expect(policy.admits("model", "meta-llama/Llama-3-8B")).toBe(true);
    expect(policy.admits("model", "Meta-Llama/llama-3-8b")).toBe(true);
    expect(policy.admits("model", "meta-llama-fake/x")).toBe(false);
    expect(policy.admits("dataset", "meta-llama/x")).toBe(false);
    expect(policy.admits("dataset", "HuggingFaceFW/fineweb-edu")).toBe(true);
    expect(policy.admits("dataset", "HuggingFaceFW/other")).toBe(false);
    expect(policy.refusal("model", "gpt2/gpt2")).toBe("gpt2/gpt2 matches no MIRROR_ALLOW pattern");
  });

  it("lets deny win over allow and names the pattern that refused", () => {
    const policy = policyOf({ MIRROR_ALLOW: "*/*", MIRROR_DENY: "*/GGUF-*,spaces/*/*" });
    expect(policy.admits("model", "TheBloke/GGUF-llama")).toBe(false);
    expect(policy.refusal("model", "TheBloke/GGUF-llama")).toBe(
      'TheBloke/GGUF-llama matches MIRROR_DENY pattern "*/GGUF-*"',
    );
    expect(policy.admits("model", "TheBloke/llama-GGUF")).toBe(true);
    expect(policy.refusal("space", "a/b")).toBe('spaces/a/b matches MIRROR_DENY pattern "spaces/*/*"');
    // Only models were allowed: a dataset is refused though no deny pattern names it.
    expect(policy.admits("dataset", "a/b")).toBe(false);
  });

  it("never looks up a local-only namespace, whatever the patterns say", () => {
    const policy = policyOf({ MIRROR_LOCAL_NAMESPACES: "acme, Research", MIRROR_ALLOW: "*/*" });
    expect(policy.isLocalOnly("research/model")).toBe(true);
    expect(policy.isLocalOnly("acme-corp/model")).toBe(false);
    expect(policy.refusal("model", "ACME/x")).toBe(
      'the namespace "acme" is local-only (MIRROR_LOCAL_NAMESPACES)',
    );
  });

  it("takes `.` and `-` literally, not as regular expression syntax", () => {
    const policy = policyOf({ MIRROR_ALLOW: "org/v1.0" });
    expect(policy.admits("model", "org/v1.0")).toBe(true);
    expect(policy.admits("model", "org/v1x0")).toBe(false);
  });

  it("reports every malformed pattern and size at once", () => {
    const problems: string[] = [];
    parseMirrorPolicy(
      { MIRROR_ALLOW: "a b/c, buckets/a/b", MIRROR_DENY: "a/b/c/d", MIRROR_MAX_FILE_SIZE: "ten" },
      problems,
    );
    expect(problems).toEqual([
      'MIRROR_ALLOW: "a b/c" is not a pattern like owner/name, meta-llama/* or datasets/*/GGUF-*.',
      'MIRROR_ALLOW: "buckets/a/b": the prefix must be models/, datasets/ or spaces/.',
      'MIRROR_DENY: "a/b/c/d" is not a pattern like owner/name, meta-llama/* or datasets/*/GGUF-*.',
      'MIRROR_MAX_FILE_SIZE must be a positive size in bytes (k, M, G, T suffixes allowed), got "ten".',
    ]);
  });

  it("reads an explicit models/ prefix as the unprefixed form", () => {
    const pattern = parseRepoPattern("models/org/*");
    expect(typeof pattern !== "string" && pattern.type).toBe("model");
  });

  it("reads an owner alone as all its repositories", () => {
    const policy = policyOf({ MIRROR_ALLOW: "meta-llama, datasets/HuggingFaceFW" });
    expect(policy.admits("model", "meta-llama/x")).toBe(true);
    expect(policy.admits("dataset", "HuggingFaceFW/fineweb")).toBe(true);
    expect(policy.admits("model", "HuggingFaceFW/fineweb")).toBe(false);
    expect(policy.view().allow).toEqual(["meta-llama/*", "datasets/HuggingFaceFW/*"]);
  });

  it("builds from mirror-config's lists and throws on a pattern it cannot read", () => {
    const lists = {
      deny: [],
      licenses: ["MIT"],
      localNamespaces: ["Acme"],
      maxFileSize: 10,
      maxCacheSize: 20,
    };
    const policy = mirrorPolicyFrom({ ...lists, allow: ["spaces/a/*"] });
    expect(policy.admits("space", "a/b")).toBe(true);
    expect(policy.isLocalOnly("acme/x")).toBe(true);
    expect(policy.licenseAllowed({ license: "mit" })).toBe(true);
    expect(() => mirrorPolicyFrom({ ...lists, allow: ["a/b/c"] })).toThrow(/MIRROR_ALLOW: "a\/b\/c"/);
  });
});

describe("mirror policy: licences", () => {
  const policy = policyOf({ MIRROR_LICENSES: "apache-2.0, MIT, llama3" });

  it("admits any card when no licence is listed", () => {
    expect(policyOf({}).licenseAllowed(undefined)).toBe(true);
  });

  it("reads `license` as a string or a list, case-insensitively", () => {
    expect(policy.licenseAllowed({ license: "Apache-2.0" })).toBe(true);
    expect(policy.licenseAllowed({ license: ["cc-by-nc-4.0", "mit"] })).toBe(true);
    expect(policy.licenseRefusal({ license: "cc-by-nc-4.0" })).toBe(
      "its licence cc-by-nc-4.0 is not in MIRROR_LICENSES (apache-2.0, mit, llama3)",
    );
  });

  it("reads `license_name` when the card says `other`", () => {
    expect(policy.licenseAllowed({ license: "other", license_name: "llama3" })).toBe(true);
    expect(policy.licenseAllowed({ license: "other", license_name: "custom" })).toBe(false);
    expect(policy.licenseAllowed({ license: "other" })).toBe(false);
  });

  it("refuses a card that declares no licence when a list is set", () => {
    expect(policy.licenseRefusal(undefined)).toBe(
      "its card declares no licence (MIRROR_LICENSES allows apache-2.0, mit, llama3)",
    );
    expect(policy.licenseAllowed({ tags: ["x"] })).toBe(false);
  });
});

describe("mirror policy: sizes", () => {
  it("parses binary suffixes", () => {
    expect(parseByteSize("512")).toBe(512);
    expect(parseByteSize("10k")).toBe(10 * 1024);
    expect(parseByteSize("1.5M")).toBe(1.5 * 1024 ** 2);
    expect(parseByteSize("2G")).toBe(2 * 1024 ** 3);
    expect(parseByteSize("2GiB")).toBe(2 * 1024 ** 3);
    expect(parseByteSize("1TB")).toBe(1024 ** 4);
    expect(parseByteSize("-1")).toBeUndefined();
    expect(parseByteSize("1P")).toBeUndefined();
  });

  it("caps a file's size and names the cap", () => {
    const policy = policyOf({ MIRROR_MAX_FILE_SIZE: "1M", MIRROR_MAX_CACHE_SIZE: "10G" });
    expect(policy.fileAllowed(1024 ** 2)).toBe(true);
    expect(policy.fileRefusal(3 * 1024 ** 2)).toBe("the file is 3 MiB, over MIRROR_MAX_FILE_SIZE (1 MiB)");
    expect(policy.settings.maxCacheSize).toBe(10 * 1024 ** 3);
    expect(policyOf({}).fileAllowed(Number.MAX_SAFE_INTEGER)).toBe(true);
  });

  it("formats sizes for messages", () => {
    expect(formatBytes(1000)).toBe("1000 B");
    expect(formatBytes(1536)).toBe("1.5 KiB");
  });

  it("shows what it enforces", () => {
    const view = policyOf({ MIRROR_ALLOW: "datasets/a/*", MIRROR_MAX_FILE_SIZE: "1k" }).view();
    expect(view).toEqual({
      allow: ["datasets/a/*"],
      deny: [],
      licenses: [],
      localNamespaces: [],
      maxFileSize: 1024,
      maxCacheSize: null,
    });
  });
});
