/** Reading the rendered widget out of a page (through its open shadow root) for browser tests. */
import type { Page } from "playwright-core";

export interface CardBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WidgetState {
  scheme: string | null;
  classes: string[];
  title: string | null;
  names: string[];
  owners: string[];
  tasks: string[];
  links: { href: string; target: string; rel: string }[];
  credits: { href: string; target: string; text: string } | null;
  note: string | null;
  cards: CardBox[];
  /** Computed styles of the widget's root box and first title/card, to prove the page's CSS did not win. */
  style: {
    hostDisplay: string;
    background: string;
    color: string;
    borderTopWidth: string;
    boxShadow: string;
    paddingTop: string;
    titleColor: string | null;
    titleFontSize: string | null;
  };
  /** Tag names of every element in the shadow root. */
  tags: string[];
}

/** Resolves once `count` widgets are on the page and each has rendered its products or its fallback note. */
export async function waitForWidgets(page: Page, count = 1): Promise<void> {
  await page.waitForFunction(
    (expected) => {
      const hosts = Array.from(document.querySelectorAll("modelhub-top-products"));
      return (
        hosts.length === expected &&
        hosts.every((host) => host.shadowRoot?.querySelector(".content:not([aria-busy])"))
      );
    },
    count,
    { timeout: 30_000 },
  );
}

/** The state of the widget whose host element matches `hostSelector`. */
export function readWidget(page: Page, hostSelector = "modelhub-top-products"): Promise<WidgetState> {
  // No named helper functions inside: tsx (esbuild keepNames) would wrap them in a `__name` call that does
  // not exist in the page.
  return page.evaluate((selector) => {
    const host = document.querySelector(selector) as HTMLElement;
    const root = host.shadowRoot!;
    const box = root.querySelector(".mh") as HTMLElement;
    const title = root.querySelector(".title");
    const rootStyle = getComputedStyle(box);
    const creditsLink = root.querySelector(".credits a") as HTMLAnchorElement | null;
    const [names, owners, tasks] = [".name", ".owner", ".task"].map((part) =>
      Array.from(root.querySelectorAll(part), (node) => node.textContent ?? ""),
    );
    const cards = Array.from(root.querySelectorAll<HTMLAnchorElement>(".card"));
    return {
      scheme: box.dataset.scheme ?? null,
      classes: Array.from(box.classList),
      title: title?.textContent ?? null,
      names: names ?? [],
      owners: owners ?? [],
      tasks: tasks ?? [],
      links: cards.map((link) => ({ href: link.href, target: link.target, rel: link.rel })),
      credits: creditsLink
        ? { href: creditsLink.href, target: creditsLink.target, text: creditsLink.textContent ?? "" }
        : null,
      note: root.querySelector(".note")?.textContent ?? null,
      cards: cards.map((card) => {
        const rect = card.getBoundingClientRect();
        return { x: Math.round(rect.x), y: Math.round(rect.y), width: rect.width, height: rect.height };
      }),
      style: {
        hostDisplay: getComputedStyle(host).display,
        background: rootStyle.backgroundColor,
        color: rootStyle.color,
        borderTopWidth: rootStyle.borderTopWidth,
        boxShadow: rootStyle.boxShadow,
        paddingTop: rootStyle.paddingTop,
        titleColor: title ? getComputedStyle(title).color : null,
        titleFontSize: title ? getComputedStyle(title).fontSize : null,
      },
      tags: Array.from(root.querySelectorAll("*"), (node) => node.tagName.toLowerCase()),
    };
  }, hostSelector);
}

/** Distinct left edges of the cards: the number of grid columns in use. */
export function columnCount(cards: CardBox[]): number {
  return new Set(cards.map((card) => card.x)).size;
}
