import { statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import {
  createSecretBox,
  loadSecretsKey,
  maskedKey,
  SealedSecretError,
  SecretsKeyError,
} from "./own-provider-secrets.js";

const temp = makeTempDir();
afterAll(() => temp.remove());

describe("own providers' keys at rest", () => {
  it("seals a key that only the same secrets key and provider name open", () => {
    const box = createSecretBox(loadSecretsKey("a passphrase of at least thirty-two characters", temp.dir));
    const sealed = box.seal("gpu-1", "sk-the-real-key");
    expect(sealed).not.toContain("sk-the-real-key");
    expect(box.seal("gpu-1", "sk-the-real-key")).not.toBe(sealed); // a fresh IV each time
    expect(box.open("gpu-1", sealed)).toBe("sk-the-real-key");
    // Copied onto another provider's row, or opened under another secrets key: refused, saying what to do.
    expect(() => box.open("gpu-2", sealed)).toThrow(SealedSecretError);
    const other = createSecretBox(loadSecretsKey("another passphrase, also thirty-two characters", temp.dir));
    expect(() => other.open("gpu-1", sealed)).toThrow(/set the key again/);
  });

  it("writes a random key file once, readable by its owner only, when SECRETS_KEY is unset", () => {
    const dir = join(temp.dir, "data");
    const first = loadSecretsKey(undefined, dir);
    expect(loadSecretsKey(undefined, dir).equals(first)).toBe(true);
    expect(statSync(join(dir, "secrets.key")).mode & 0o777).toBe(0o600);
    expect(() => loadSecretsKey("too short", dir)).toThrow(SecretsKeyError);
  });

  it("masks a key to its last four characters, or wholly when short", () => {
    expect(maskedKey("sk-0123456789abcdef")).toBe("****cdef");
    expect(maskedKey("short-key")).toBe("****");
  });
});
