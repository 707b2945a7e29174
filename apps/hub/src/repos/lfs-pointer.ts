/** Git LFS pointer files: what git stores in place of a large file's bytes. */

export const LFS_SPEC_URL = "https://git-lfs.github.com/spec/v1";

export function lfsPointerText(sha256: string, size: number): string {
  return `version ${LFS_SPEC_URL}\noid sha256:${sha256}\nsize ${size}\n`;
}

/** An LFS object id: the sha256 of its bytes, in lowercase hex. */
export function isLfsOid(value: unknown): value is string {
  return typeof value === "string" && /^[0-9a-f]{64}$/.test(value);
}

/** Length of the pointer file, which the public hub reports as `lfs.pointerSize`. */
export function lfsPointerSize(sha256: string, size: number): number {
  return Buffer.byteLength(lfsPointerText(sha256, size));
}

/** Files above this size go to LFS whatever their name (the public hub's threshold). */
export const LFS_SIZE_THRESHOLD = 10 * 1024 * 1024;
