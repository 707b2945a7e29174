import { PIPELINE_DATA } from "@modelhub/tasks";
import { modelIdFromParts } from "../catalogue/model-id.js";
import { cardFirstViewHtml, escapeHtml } from "./first-view-card.js";
import { preloadedPage } from "./web-pages.js";

/**
 * The first view of a page: HTML the hub writes into the page it serves so that the page's largest text paints
 * before the web app's scripts have run (issue 38; docs/decisions/first-view-in-served-html.md). The app
 * hides its own root while the first view is there (styles.css) and removes the first view when it shows the
 * same content (apps/web/src/lib/first-view.ts). Only markup and text: no script, no inline event handler.
 */

/** The element the app looks for and removes; its `data-path` says which page it shows. */
export const FIRST_VIEW_ID = "first-view";

/** What a model's first view shows: the model's public record as the API gives it to the caller. */
export interface FirstViewModel {
  id: string;
  tags?: readonly string[];
  pipeline_tag?: string;
  library_name?: string;
  cardText?: string;
  siblings?: ReadonlyArray<{ rfilename: string }>;
}

export interface FirstViewSite {
  siteName: string;
  /** The hub's origin as the browser sees it: a card's relative images resolve against it. */
  origin: string;
  cardImageOrigins: readonly string[];
}

const MAIN_LINKS = [
  ["/models", "Models"],
  ["/datasets", "Datasets"],
  ["/spaces", "Spaces"],
  ["/widget-builder", "Widget"],
] as const;
const MAX_TAGS = 12;

/** A task's name as the app shows it (apps/web/src/lib/task-labels.ts). */
const taskLabel = (task: string): string =>
  (PIPELINE_DATA as Record<string, { name: string }>)[task]?.name ?? task;
const TAB_CLASS = "-mb-px block whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium";

/** The site's header as AppLayout lays it out (search, theme and account controls come with the app). */
function siteHeader(site: FirstViewSite, current: string): string {
  const links = MAIN_LINKS.map(
    ([to, label]) =>
      `<a href="${to}" class="rounded-md px-2.5 py-1.5 text-sm font-medium ${to === current ? "bg-accent-soft text-accent" : "text-muted hover:text-ink"}">${label}</a>`,
  ).join("");
  const name = escapeHtml(site.siteName);
  return `<header class="relative z-30 border-b border-line bg-surface/90 backdrop-blur md:sticky md:top-0"><div class="mx-auto flex max-w-7xl flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2 sm:h-14 sm:flex-nowrap sm:py-0"><a href="/models" class="flex items-center gap-2 font-semibold tracking-tight" aria-label="${name} home"><svg aria-hidden="true" viewBox="0 0 32 32" class="size-7"><rect width="32" height="32" rx="8" class="fill-accent"></rect><path d="M9 22V10l7 7 7-7v12" class="stroke-accent-ink" stroke-width="3" fill="none"></path></svg><span class="hidden sm:inline">${name}</span></a><nav aria-label="Main" class="order-last flex w-full min-w-0 items-center gap-1 overflow-x-auto sm:order-none sm:w-auto">${links}</nav></div></header>`;
}

/** AppLayout's skip link: a keyboard reader's first stop, before the app takes over as after. */
const SKIP_LINK = `<a href="#main" class="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-surface focus:px-3 focus:py-2">Skip to content</a>`;

/** A page's first view: the site header and `content` in the app's main column. */
function pageView(path: string, site: FirstViewSite, current: string, content: string): string {
  return `<div id="${FIRST_VIEW_ID}" data-path="${escapeHtml(path)}" class="flex min-h-dvh flex-col">${SKIP_LINK}${siteHeader(site, current)}<main id="main" class="mx-auto w-full max-w-7xl flex-1 px-4 py-6">${content}</main></div>`;
}

/**
 * A model's card page (`/{owner}/{name}`) as the app's ModelLayout and ModelCardPage lay it out: id, task,
 * library and tags, the section tabs, the card's opening. Undefined for a model without card text (its page
 * shows an offer to write one, which needs the app).
 */
export function modelFirstView(path: string, model: FirstViewModel, site: FirstViewSite): string | undefined {
  const card = model.cardText
    ? cardFirstViewHtml(model.cardText, site.origin, site.cardImageOrigins)
    : undefined;
  if (!card) return undefined;
  const [owner = "", ...rest] = model.id.split("/");
  const base = `/${model.id.split("/").map(encodeURIComponent).join("/")}`;
  const facts = [
    model.pipeline_tag
      ? `<a href="/models?task=${encodeURIComponent(model.pipeline_tag)}" class="rounded-full bg-accent-soft px-2.5 py-0.5 text-xs font-medium text-accent">${escapeHtml(taskLabel(model.pipeline_tag))}</a>`
      : "",
    model.library_name
      ? `<a href="/models?library=${encodeURIComponent(model.library_name)}" class="rounded-full border border-line px-2.5 py-0.5 text-xs font-medium">${escapeHtml(model.library_name)}</a>`
      : "",
  ].join("");
  const tags = (model.tags ?? []).filter((tag) => tag !== model.pipeline_tag && tag !== model.library_name);
  const tagList =
    tags.length > 0
      ? `<ul aria-label="Tags" class="flex flex-wrap gap-1.5">${tags
          .slice(0, MAX_TAGS)
          .map(
            (tag) =>
              `<li class="rounded border border-line bg-raised px-1.5 py-0.5 text-xs text-muted">${escapeHtml(tag)}</li>`,
          )
          .join(
            "",
          )}${tags.length > MAX_TAGS ? `<li class="px-1.5 py-0.5 text-xs text-muted">+${tags.length - MAX_TAGS} more</li>` : ""}</ul>`
      : "";
  const header = `<header class="flex flex-col gap-3 border-b border-line pb-4"><div class="flex flex-wrap items-start justify-between gap-3"><div class="flex min-w-0 flex-wrap items-center gap-2"><img src="/api/avatars/${encodeURIComponent(owner)}" alt="" width="28" height="28" class="size-7 rounded-full"><span class="rounded border border-line px-1.5 py-0.5 text-xs font-medium text-muted">Model</span><h1 class="min-w-0 break-words text-xl font-semibold tracking-tight sm:text-2xl"><span class="text-muted">${escapeHtml(owner)}/</span>${escapeHtml(rest.join("/"))}</h1></div></div><div class="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">${facts}</div>${tagList}</header>`;
  const tabs = `<nav aria-label="Model sections" class="overflow-x-auto"><ul class="flex border-b border-line"><li><a href="${base}" aria-current="page" class="${TAB_CLASS} border-accent text-ink">Model card</a></li><li><a href="${base}/tree/main" class="${TAB_CLASS} border-transparent text-muted hover:text-ink">Files and versions</a></li><li><a href="${base}/discussions" class="${TAB_CLASS} border-transparent text-muted hover:text-ink">Community</a></li></ul></nav>`;
  const edit = (model.siblings ?? []).some((file) => file.rfilename === "README.md")
    ? `<a href="${base}/edit/main/README.md" class="self-end text-sm text-accent underline">Edit model card</a>`
    : "";
  const article = `<div class="flex min-w-0 flex-col gap-2">${edit}<article aria-label="Model card" class="rounded-lg border border-line bg-surface p-4 sm:p-6"><div class="min-w-0 text-[15px] text-ink [overflow-wrap:anywhere]">${card}</div></article></div>`;
  const content = `<div class="flex flex-col gap-4">${header}${tabs}<div class="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_18rem]">${article}<div></div></div></div>`;
  return pageView(path, site, "/models", content);
}

/** A page's first view: its HTML and the page's title. */
export interface FirstView {
  html: string;
  title: string;
}

/** Writes `view` into the app's page `html`, before the app's root element, and titles the page `title`. */
export function withFirstView(html: string, view: string, title: string): string {
  const root = html.indexOf('<div id="root">');
  if (root < 0) return html;
  const titled = html.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`);
  const at = titled.indexOf('<div id="root">');
  return `${titled.slice(0, at)}${view}${titled.slice(at)}`;
}

/** What the hub knows that a first view shows, for the caller of the request. */
export interface FirstViewLookups {
  /** A model the caller may see (the page's own check, isAppPage, already said so), or undefined. */
  model(id: string): Promise<FirstViewModel | undefined>;
  site(): Promise<FirstViewSite>;
}

/**
 * The first view of the page at `path` (decoded), for a page the app shows to this caller: a model's card
 * page has one; any other page none (the app renders it as before).
 */
export async function firstViewOf(path: string, lookups: FirstViewLookups): Promise<FirstView | undefined> {
  if (preloadedPage(path) !== "model") return undefined;
  const [, owner = "", name = ""] = /^\/([^/]+)\/([^/]+)\/?$/.exec(path) ?? [];
  let id: string;
  try {
    id = modelIdFromParts(owner, name);
  } catch {
    return undefined;
  }
  const model = await lookups.model(id);
  const html = model && modelFirstView(path, model, await lookups.site());
  // The title the app's PageTitle gives the page, so that the tab's title does not change under the reader.
  return html && model ? { html, title: `${model.id} · Modelhub` } : undefined;
}
