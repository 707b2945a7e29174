import { useQuery } from "@tanstack/react-query";
import { memo, useLayoutEffect, useRef } from "react";
import { NavLink, useLocation } from "react-router";
import { canWrite, viewerQuery } from "../../lib/api/session.js";
import { type RepoRef, repoPageUrl } from "../../lib/repo-ref.js";

const tabClass = ({ isActive }: { isActive: boolean }) =>
  `-mb-px block whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium ${
    isActive ? "border-accent text-ink" : "border-transparent text-muted hover:text-ink"
  }`;

// The files tab stays current on every files view: a file, a folder, the history, a commit.
const FILES_SECTION = /\/(tree|blob|commits|commit|upload|new|edit)\//;

const CARD_LABEL: Record<RepoRef["type"], string> = {
  model: "Model card",
  dataset: "Dataset card",
  space: "Space card",
};

/** A tab of a repository page beyond the shared ones: its label and its section path. */
export interface ExtraTab {
  label: string;
  section: string;
}

/** Where the card moves when the repository's own URL shows something else (`home`). */
const CARD_SECTION = "card";

/**
 * The tabs every repository page shares (card, files and versions, community, and settings for those who
 * may write), with a model's own sections (`extra`) between community and settings. `home`: the label of
 * what the repository's own URL shows when that is not the card (a running space's app), its first tab;
 * the card is then at `/card`.
 */
export const RepoTabs = memo(function RepoTabs({
  repo,
  extra = [],
  home,
}: {
  repo: RepoRef;
  extra?: ExtraTab[];
  home?: string;
}) {
  const base = repoPageUrl(repo);
  const { pathname } = useLocation();
  const inFiles = FILES_SECTION.test(pathname);
  const viewer = useQuery(viewerQuery());
  const mayWrite = canWrite(viewer.data, repo.id);
  const label = `${repo.type[0]?.toUpperCase()}${repo.type.slice(1)} sections`;
  const strip = useRef<HTMLElement>(null);
  // On a phone the strip is wider than the screen: the current tab is scrolled into the middle of it, or a
  // page such as the playground would open with its own tab out of sight. Settings, the last tab, appears
  // only once the session says the viewer may write: placed again then.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the current tab changes with the path.
  useLayoutEffect(() => {
    const nav = strip.current;
    const current = nav?.querySelector<HTMLElement>(inFiles ? "[data-tab=files]" : '[aria-current="page"]');
    if (!nav || !current || nav.scrollWidth <= nav.clientWidth) return;
    const navBox = nav.getBoundingClientRect();
    const box = current.getBoundingClientRect();
    if (box.left >= navBox.left && box.right <= navBox.right) return;
    nav.scrollLeft += box.left - navBox.left - (navBox.width - box.width) / 2;
  }, [pathname, inFiles, extra.length, mayWrite]);
  return (
    <nav ref={strip} aria-label={label} className="overflow-x-auto">
      <ul className="flex border-b border-line">
        {home ? (
          <li>
            <NavLink end to={base} className={tabClass}>
              {home}
            </NavLink>
          </li>
        ) : null}
        <li>
          <NavLink end to={home ? `${base}/${CARD_SECTION}` : base} className={tabClass}>
            {CARD_LABEL[repo.type]}
          </NavLink>
        </li>
        <li>
          <NavLink
            data-tab="files"
            to={`${base}/tree/main`}
            className={({ isActive }) => tabClass({ isActive: isActive || inFiles })}
          >
            Files and versions
          </NavLink>
        </li>
        <li>
          <NavLink to={`${base}/discussions`} className={tabClass}>
            Community
          </NavLink>
        </li>
        {extra.map((tab) => (
          <li key={tab.section}>
            <NavLink to={`${base}/${tab.section}`} className={tabClass}>
              {tab.label}
            </NavLink>
          </li>
        ))}
        {mayWrite ? (
          <li>
            <NavLink to={`${base}/settings`} className={tabClass}>
              Settings
            </NavLink>
          </li>
        ) : null}
      </ul>
    </nav>
  );
});
