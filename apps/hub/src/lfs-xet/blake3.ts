import { createRequire } from "node:module";
import { createBLAKE3 } from "hash-wasm";

/** A keyed BLAKE3 of whole messages (32-byte key, 32-byte digest): what every Xet hash is made of. */
export type KeyedBlake3 = (message: Uint8Array) => Uint8Array;

/**
 * Where BLAKE3 comes from: `native` is `@napi-rs/blake-hash` (the reference Rust implementation with its SIMD
 * code, prebuilt per platform), `wasm` is hash-wasm's WebAssembly build, several times slower on the
 * chunks a Xet upload or mirror pull hashes (docs/decisions/xet-blake3.md). The native binding is used
 * wherever its prebuilt package installed; `wasm` remains for a platform without one.
 */
export type Blake3Backend = "native" | "wasm";

export const BLAKE3_KEY_BYTES = 32;

type NativeBinding = typeof import("@napi-rs/blake-hash");

let native: NativeBinding | null | undefined;

/** The native binding, or null when this platform's prebuilt package is not installed or does not load. */
function nativeBinding(): NativeBinding | null {
  if (native === undefined) {
    try {
      native = createRequire(import.meta.url)("@napi-rs/blake-hash") as NativeBinding;
    } catch {
      native = null;
    }
  }
  return native;
}

/** The backend used when none is asked for: the native one where it loads. */
export function defaultBlake3Backend(): Blake3Backend {
  return nativeBinding() ? "native" : "wasm";
}

export class Blake3UnavailableError extends Error {
  constructor() {
    super(
      "The native BLAKE3 binding (@napi-rs/blake-hash) did not load on this platform: reinstall with optional dependencies (npm install without --omit=optional), or use the wasm backend.",
    );
    this.name = "Blake3UnavailableError";
  }
}

/** A keyed BLAKE3 under `key` (32 bytes). Each call hashes one whole message; calls are synchronous. */
export async function keyedBlake3(
  key: Uint8Array,
  backend: Blake3Backend = defaultBlake3Backend(),
): Promise<KeyedBlake3> {
  if (key.byteLength !== BLAKE3_KEY_BYTES) {
    throw new RangeError(`A BLAKE3 key is ${BLAKE3_KEY_BYTES} bytes, not ${key.byteLength}.`);
  }
  if (backend === "wasm") {
    const hasher = await createBLAKE3(256, key);
    return (message) => {
      hasher.init();
      hasher.update(message);
      return hasher.digest("binary");
    };
  }
  const binding = nativeBinding();
  if (!binding) throw new Blake3UnavailableError();
  const hasher = binding.Blake3Hasher.newKeyed(Buffer.from(key));
  return (message) => {
    // `reset` keeps the key. A Buffer view of the caller's bytes: the binding reads them in place.
    hasher.reset();
    hasher.update(Buffer.from(message.buffer, message.byteOffset, message.byteLength));
    const digest = hasher.digestBuffer();
    return new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength);
  };
}
