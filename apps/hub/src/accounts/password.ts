import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";
import { InvalidInputError } from "../errors.js";

/**
 * Passwords are hashed with scrypt (memory-hard, in node:crypto: no native package to build or download).
 * N = 2^15, r = 8, p = 1 takes 32 MiB and ~50-100 ms here: costly to brute-force, cheap for one sign-in.
 * The parameters are stored with each hash so they can be raised later without breaking old hashes.
 */
const PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
export const MIN_PASSWORD_LENGTH = 8;
const MAX_PASSWORD_LENGTH = 1024;

function derive(password: string, salt: Buffer, options: ScryptOptions, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize("NFKC"),
      salt,
      length,
      { ...options, maxmem: 128 * options.N! * options.r! * 2 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

export function checkPasswordStrength(password: unknown): string {
  if (typeof password !== "string" || password.length < MIN_PASSWORD_LENGTH) {
    throw new InvalidInputError(`A password has at least ${MIN_PASSWORD_LENGTH} characters.`);
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw new InvalidInputError(`A password has at most ${MAX_PASSWORD_LENGTH} characters.`);
  }
  return password;
}

/** `scrypt$N$r$p$salt$key` (base64url parts). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS, KEY_LENGTH);
  return ["scrypt", PARAMS.N, PARAMS.r, PARAMS.p, salt.toString("base64url"), key.toString("base64url")].join(
    "$",
  );
}

/** Compares in constant time; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !key) return false;
  const expected = Buffer.from(key, "base64url");
  const actual = await derive(
    password,
    Buffer.from(salt, "base64url"),
    { N: Number(n), r: Number(r), p: Number(p) },
    expected.length,
  );
  return timingSafeEqual(actual, expected);
}

let dummyHash: Promise<string> | undefined;
/**
 * Spends the time of one verification when there is no user to check against, so that "no such user" and
 * "wrong password" take the same time and cannot be told apart.
 */
export async function burnVerification(password: string): Promise<void> {
  dummyHash ??= hashPassword("not-a-password-anyone-has");
  await verifyPassword(password, await dummyHash);
}
