import { modelIdFromParts } from "../catalogue/model-id.js";
import type { RepoType } from "../repos/repos-table.js";

/** Pages of the web app that are not about one model. The web app's router (apps/web) lists the same. */
export const APP_PAGES: readonly string[] = [
  "/",
  "/models",
  "/datasets",
  "/spaces",
  "/new",
  "/new-dataset",
  "/new-space",
  "/widget-builder",
  "/login",
  "/join",
  "/settings",
  "/settings/profile",
  "/settings/tokens",
  "/settings/organizations",
  "/settings/webhooks",
  "/settings/storage",
  "/search",
];

/** Site administration pages: pages for site admins only (anyone else gets the not-found page, 404). */
export const ADMIN_PAGES: readonly string[] = [
  "/admin",
  "/admin/settings",
  "/admin/users",
  "/admin/organizations",
  "/admin/usage",
  "/admin/storage",
  "/admin/providers",
  "/admin/mirror",
  "/admin/audit-log",
];

export const isAdminPage = (path: string): boolean => ADMIN_PAGES.includes(path.replace(/(.)\/$/, "$1"));

/**
 * Account pages with a name in the path: an organization's page, its audit log (the page asks its admins
 * to sign in; the API refuses anyone else) and an invite link. Any well-formed name is
 * a page (the page itself says when the organization does not exist; organizations are public).
 */
const ACCOUNT_PAGES = [
  /^\/organizations\/invites\/[\w-]{1,100}\/?$/,
  /^\/organizations\/[\w.-]{1,96}(?:\/audit-log)?\/?$/,
];

/** What may follow `/{owner}/{name}` on a model's pages: the card, then each section of the model page. */
const MODEL_SECTION =
  /^(?:\/|\/libraries\/[^/]+\/?|\/local-apps(?:\/[^/]+)?\/?|\/inference\/?|\/playground\/?|\/chat-template\/?|\/(?:tree|blob|commits|upload|new|edit)\/[^/]+(?:\/.*)?|\/commit\/[0-9a-f]{7,40}\/?|\/discussions(?:\/\d+)?\/?|\/settings\/?)?$/;

/** What may follow `/datasets/{owner}/{name}` and `/spaces/{owner}/{name}`: the card, files, community, settings. */
const REPO_SECTION =
  /^(?:\/|\/(?:tree|blob|commits|upload|new|edit)\/[^/]+(?:\/.*)?|\/commit\/[0-9a-f]{7,40}\/?|\/discussions(?:\/\d+)?\/?|\/settings\/?)?$/;

/**
 * A space's sections: a repository's, its app, and its card (at `/card` when the space's URL shows its app;
 * docs/decisions/space-app-url.md).
 */
const SPACE_SECTION = new RegExp(`${REPO_SECTION.source}|^\\/(?:app|card)\\/?$`);

/** A user's or an organization's page, `/{name}` as on the public hub (names as accounts/names.ts allows). */
const ACCOUNT_NAME = /^\/([\w.-]{1,96})\/?$/;

/** What the hub knows that decides whether a page exists for the caller. */
export interface PageLookups {
  /** Whether a repository exists and the caller may see it (a private one they may not see: false). */
  repoExists(type: RepoType, id: string): boolean | Promise<boolean>;
  /** Whether a user or an organization has this name. */
  accountExists(name: string): boolean | Promise<boolean>;
}

/**
 * Whether `path` is a page the web app shows: one of APP_PAGES, an account's page, or a section of a
 * model, dataset or space the hub has. Decided by the path, never by the Accept header, so `curl /models`
 * and a browser get the same status.
 */
export async function isAppPage(path: string, lookups: PageLookups): Promise<boolean> {
  if (APP_PAGES.includes(path) || APP_PAGES.includes(path.replace(/\/$/, ""))) return true;
  if (ACCOUNT_PAGES.some((page) => page.test(path))) return true;
  const account = ACCOUNT_NAME.exec(path);
  if (account) return lookups.accountExists(account[1] ?? "");
  const prefixed = /^\/(datasets|spaces)(\/.*)$/.exec(path);
  const type: RepoType = prefixed?.[1] === "datasets" ? "dataset" : prefixed ? "space" : "model";
  const match = /^\/([^/]+)\/([^/]+)(.*)$/.exec(prefixed?.[2] ?? path);
  const sections = type === "model" ? MODEL_SECTION : type === "space" ? SPACE_SECTION : REPO_SECTION;
  if (!match || !sections.test(match[3] ?? "")) return false;
  let id: string;
  try {
    id = modelIdFromParts(match[1] ?? "", match[2] ?? "");
  } catch {
    return false;
  }
  return lookups.repoExists(type, id);
}

/** Pages whose scripts the hub names in a `Link: rel=modulepreload` header (apps/web/build/page-preloads.ts). */
export type PreloadedPage = "home" | "models" | "model";

/**
 * Which of the preloaded pages `path` is, for a path the app shows (isAppPage said so): the landing page,
 * the models list, or a model's card (`/{owner}/{name}`, not one of its sections).
 */
export function preloadedPage(path: string): PreloadedPage | undefined {
  const page = path.replace(/(.)\/$/, "$1");
  if (page === "/") return "home";
  if (page === "/models") return "models";
  if (APP_PAGES.includes(page) || isAdminPage(page) || ACCOUNT_PAGES.some((pattern) => pattern.test(page)))
    return undefined;
  return /^\/(?!datasets\/|spaces\/)[^/]+\/[^/]+$/.test(page) ? "model" : undefined;
}
