import { TasksError } from "./errors.js";

/**
 * Which hub a snippet fetches from. Snippets are written for the public hub; on another hub (a self-hosted
 * one) every snippet that downloads says how to point its tool there, or else the tool would fetch from
 * huggingface.co (or fail, for a repository only that hub has).
 */

/** The public hub, where the libraries and tools fetch from unless told otherwise. */
export const PUBLIC_HUB_URL = "https://huggingface.co";

const PUBLIC_HUB_HOSTS = new Set(["huggingface.co", "www.huggingface.co", "hf.co"]);

/**
 * Characters a hub URL may hold to be written into code and shell commands as is (inside the quoting the
 * snippet uses anyway): an origin with an optional path, nothing that could end a string or a word.
 */
const PLAIN_URL = /^https?:\/\/[A-Za-z0-9.\-:[\]]+(\/[A-Za-z0-9._~%\-/]*)?$/;

/** A hub URL that cannot be written into a snippet. */
export class InvalidHubUrlError extends TasksError {
  constructor(readonly hubUrl: string) {
    super(
      `The hub URL ${JSON.stringify(hubUrl)} cannot be written into loading code: give an http(s) URL such as https://hub.example.com.`,
    );
  }
}

/**
 * `hubUrl` without its trailing slashes when it names a hub other than huggingface.co; undefined for the
 * public hub (or none given), whose snippets stay exactly as the public generator writes them.
 */
export function otherHubUrl(hubUrl: string | undefined): string | undefined {
  if (hubUrl === undefined) return undefined;
  const trimmed = hubUrl.replace(/\/+$/, "");
  if (!PLAIN_URL.test(trimmed) || !URL.canParse(trimmed)) throw new InvalidHubUrlError(hubUrl);
  const url = new URL(trimmed);
  return url.protocol === "https:" && PUBLIC_HUB_HOSTS.has(url.hostname) && url.pathname === "/"
    ? undefined
    : trimmed;
}
