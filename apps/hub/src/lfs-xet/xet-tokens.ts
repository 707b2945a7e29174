import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * What a Xet access token allows: one repository, read or write, until `expiresAt` (unix seconds). The
 * revision it was asked for (a ref, a commit id, or `refs/pr/*` for a pull request to come) was checked when
 * the token was issued; the CAS is content-addressed, so it is carried for the record, not re-checked there.
 */
export interface XetGrant {
  /** The repository's key, or the bucket's when `bucket` is set. */
  repoKey: number;
  scope: "read" | "write";
  expiresAt: number;
  revision?: string;
  /** The token is a storage bucket's (buckets/), not a repository's. */
  bucket?: true;
}

export const XET_TOKEN_SECONDS = 3600;
/** Lifetime of the presigned xorb range URLs a reconstruction hands out. */
export const FETCH_URL_SECONDS = 900;

export class XetTokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "XetTokenError";
  }
}

/**
 * Signs and checks the CAS's bearer tokens and presigned fetch URLs with one HMAC key. The key lives in the
 * hub's database (`meta`), so tokens outlive a restart; nothing else is stored per token.
 */
export class XetSigner {
  private key: Buffer | undefined;

  constructor(key?: Buffer) {
    this.key = key;
  }

  /**
   * A signer whose key is read from (or, the first time, stored in) the database: usable once `ready`
   * resolves. Every replica reads the same key, so each accepts the tokens another one issued.
   */
  static fromMeta(meta: { getOrCreate(key: string, value: string): Promise<string> }): {
    signer: XetSigner;
    ready: Promise<void>;
  } {
    const signer = new XetSigner();
    const ready = meta.getOrCreate("xet_signing_key", randomBytes(32).toString("hex")).then((hex) => {
      signer.key = Buffer.from(hex, "hex");
    });
    return { signer, ready };
  }

  issue(grant: XetGrant): string {
    const payload = Buffer.from(
      JSON.stringify([
        grant.repoKey,
        grant.scope,
        grant.expiresAt,
        grant.revision ?? null,
        ...(grant.bucket ? ["bucket"] : []),
      ]),
    ).toString("base64url");
    return `xet_${payload}.${this.mac(`token:${payload}`)}`;
  }

  /** The grant of a token; throws XetTokenError when it is forged, malformed or expired. */
  verify(token: string, nowSeconds = Math.floor(Date.now() / 1000)): XetGrant {
    const match = /^xet_([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(token);
    if (!match || !this.sameMac(`token:${match[1]}`, match[2] as string)) {
      throw new XetTokenError("Invalid Xet access token.");
    }
    const [repoKey, scope, expiresAt, revision, target] = JSON.parse(
      Buffer.from(match[1] as string, "base64url").toString(),
    ) as [number, "read" | "write", number, string | null | undefined, "bucket" | undefined];
    if (expiresAt <= nowSeconds)
      throw new XetTokenError("The Xet access token has expired: request a new one.");
    return {
      repoKey,
      scope,
      expiresAt,
      ...(revision ? { revision } : {}),
      ...(target === "bucket" ? { bucket: true as const } : {}),
    };
  }

  /**
   * Query string that lets anyone holding it read bytes `[range.start, range.end]` of one xorb until
   * `expiresAt`: the range is signed, since a xorb may also hold chunks of files the holder may not read.
   */
  fetchQuery(xorbHash: string, range: { start: number; end: number }, expiresAt: number): string {
    const bytes = `${range.start}-${range.end}`;
    return `r=${bytes}&e=${expiresAt}&s=${this.mac(`fetch:${xorbHash}:${bytes}:${expiresAt}`)}`;
  }

  /** The byte range a fetch URL's query grants, or undefined when it is forged, malformed or expired. */
  verifyFetch(
    xorbHash: string,
    query: { r?: string; e?: string; s?: string },
  ): { start: number; end: number } | undefined {
    const expiresAt = Number(query.e);
    const bytes = /^(\d{1,15})-(\d{1,15})$/.exec(query.r ?? "");
    if (!Number.isInteger(expiresAt) || expiresAt <= Date.now() / 1000 || !bytes || !query.s)
      return undefined;
    if (!this.sameMac(`fetch:${xorbHash}:${query.r}:${expiresAt}`, query.s)) return undefined;
    return { start: Number(bytes[1]), end: Number(bytes[2]) };
  }

  private mac(text: string): string {
    if (!this.key) throw new Error("The Xet signing key is not loaded yet.");
    return createHmac("sha256", this.key).update(text).digest("base64url");
  }

  private sameMac(text: string, signature: string): boolean {
    const expected = Buffer.from(this.mac(text));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
