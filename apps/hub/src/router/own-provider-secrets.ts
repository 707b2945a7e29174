import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UnavailableError } from "../errors.js";

/**
 * Own providers' API keys at rest: AES-256-GCM under the hub's secrets key, the provider's name bound in as
 * additional data (a sealed key copied onto another provider's row does not open). The secrets key is
 * SECRETS_KEY when set (every replica and the admin CLI must share it), else a random key the hub writes
 * once to `DATA_DIR/secrets.key` (mode 0600): outside the database, so that a database dump or backup alone
 * does not give the keys away.
 */
export const SECRETS_KEY_FILE = "secrets.key";
const MIN_SECRETS_KEY_LENGTH = 32;
const VERSION = "v1";

/** The hub's secrets key could not be used (too short, unreadable file). */
export class SecretsKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretsKeyError";
  }
}

/** A sealed value that does not open: another secrets key, or a row edited by hand. */
export class SealedSecretError extends Error {
  constructor(provider: string) {
    super(
      `The stored API key of provider ${provider} cannot be decrypted with this hub's secrets key ` +
        "(SECRETS_KEY or DATA_DIR/secrets.key changed?): set the key again.",
    );
    this.name = "SealedSecretError";
  }
}

/**
 * The 32-byte key: SHA-256 of SECRETS_KEY (a passphrase of at least 32 characters), or the key file in
 * `dataDir`, created on first use.
 */
export function loadSecretsKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured !== undefined && configured !== "") {
    if (configured.length < MIN_SECRETS_KEY_LENGTH) {
      throw new SecretsKeyError(`SECRETS_KEY must be at least ${MIN_SECRETS_KEY_LENGTH} characters long.`);
    }
    return createHash("sha256").update(configured).digest();
  }
  const file = join(dataDir, SECRETS_KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    try {
      // "wx": two processes starting at once keep the first one's key.
      writeFileSync(file, `${randomBytes(32).toString("hex")}\n`, { flag: "wx", mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    chmodSync(file, 0o600);
  }
  const hex = readFileSync(file, "utf8").trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) {
    throw new SecretsKeyError(`${file} must hold 64 hex digits (the hub writes it): remove it or fix it.`);
  }
  return Buffer.from(hex, "hex");
}

/** Seals and opens own providers' keys with one secrets key. */
export function createSecretBox(key: Buffer) {
  return {
    seal(provider: string, secret: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(Buffer.from(provider));
      const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
      return [VERSION, ...[iv, cipher.getAuthTag(), sealed].map((part) => part.toString("base64url"))].join(
        ".",
      );
    },
    open(provider: string, sealed: string): string {
      const [version, iv, tag, data] = sealed.split(".");
      if (version !== VERSION || !iv || !tag || data === undefined) {
        throw new SealedSecretError(provider);
      }
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
        decipher.setAAD(Buffer.from(provider));
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString(
          "utf8",
        );
      } catch {
        throw new SealedSecretError(provider);
      }
    },
  };
}

export type SecretBox = ReturnType<typeof createSecretBox>;

/** What an answer may show of a key: its last four characters when it is long enough to spare them. */
export function maskedKey(secret: string): string {
  return secret.length >= 16 ? `****${secret.slice(-4)}` : "****";
}

/** The box of a hub started without a secrets key (an app built in tests): storing a key is refused. */
export function noSecretBox(): SecretBox {
  throw new UnavailableError(
    "This hub was started without a secrets key to seal API keys with: give the key as apiKeyEnv instead.",
  );
}
