import { modelIdFromParts } from "../model-id.js";

/** Pages of the web app that are not about one model. The web app's router (apps/web) lists the same. */
export const APP_PAGES: readonly string[] = [
  "/",
  "/models",
  "/widget-builder",
  "/login",
  "/join",
  "/settings",
  "/settings/profile",
  "/settings/tokens",
  "/settings/organizations",
];

/**
 * Account pages with a name in the path: an organization's page and an invite link. Any well-formed name is
 * a page (the page itself says when the organization does not exist; organizations are public).
 */
const ACCOUNT_PAGES = [/^\/organizations\/invites\/[\w-]{1,100}\/?$/, /^\/organizations\/[\w.-]{1,96}\/?$/];

/** What may follow `/{owner}/{name}` on a model's pages: the card, then each section of the model page. */
const MODEL_SECTION =
  /^(?:\/|\/libraries\/[^/]+\/?|\/local-apps(?:\/[^/]+)?\/?|\/inference\/?|\/playground\/?|\/chat-template\/?|\/(?:tree|blob|commits|upload|new|edit)\/[^/]+(?:\/.*)?|\/commit\/[0-9a-f]{7,40}\/?|\/discussions(?:\/\d+)?\/?|\/settings\/?)?$/;

/**
 * Whether `path` is a page the web app shows: one of APP_PAGES, or a section of a model the hub has.
 * Decided by the path, never by the Accept header, so `curl /models` and a browser get the same status.
 */
export async function isAppPage(
  path: string,
  modelExists: (id: string) => boolean | Promise<boolean>,
): Promise<boolean> {
  if (APP_PAGES.includes(path) || APP_PAGES.includes(path.replace(/\/$/, ""))) return true;
  if (ACCOUNT_PAGES.some((page) => page.test(path))) return true;
  const match = /^\/([^/]+)\/([^/]+)(.*)$/.exec(path);
  if (!match || !MODEL_SECTION.test(match[3] ?? "")) return false;
  let id: string;
  try {
    id = modelIdFromParts(match[1] ?? "", match[2] ?? "");
  } catch {
    return false;
  }
  return modelExists(id);
}
