import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { NavLink, Outlet, ScrollRestoration, useLocation } from "react-router";
import { UserMenu } from "../features/account/user-menu.js";
import { siteQuery } from "../features/admin/admin-api.js";
import { HeaderSearch } from "../features/search/index.js";
import { ThemeSwitcher } from "../features/theme/index.js";
import { useFirstViewOnlyFor } from "../lib/first-view.js";

/** The header's sections. */
const MAIN_LINKS = [
  ["/models", "Models"],
  ["/datasets", "Datasets"],
  ["/spaces", "Spaces"],
  ["/widget-builder", "Widget"],
] as const;

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-2.5 py-1.5 text-sm font-medium ${isActive ? "bg-accent-soft text-accent" : "text-muted hover:text-ink"}`;

/** The site's name (site settings); the default until it arrives. */
function useSiteName(): string {
  return useQuery(siteQuery).data?.siteName ?? "Modelhub";
}

function SiteName() {
  return <span className="hidden sm:inline">{useSiteName()}</span>;
}

function HomeLink({ children }: { children: ReactNode }) {
  return (
    <NavLink
      to="/models"
      className="flex items-center gap-2 font-semibold tracking-tight"
      aria-label={`${useSiteName()} home`}
    >
      {children}
    </NavLink>
  );
}

/** The site's notice above every page (site settings), when there is one. */
function SiteNotice() {
  const notice = useQuery(siteQuery).data?.notice;
  return notice ? (
    <p role="note" className="border-b border-line bg-accent-soft px-4 py-2 text-center text-sm">
      {notice}
    </p>
  ) : null;
}

export function AppLayout() {
  // The page the hub wrote a first view for removes it when it shows its content; any other page at once.
  useFirstViewOnlyFor(useLocation().pathname);
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-surface focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      {/* Sticky from tablets up only: on a phone the header wraps to two rows (nav, search) and would cover a fifth of the screen. */}
      <header className="relative z-30 border-b border-line bg-surface/90 backdrop-blur md:sticky md:top-0">
        {/* On a phone the nav gets its own row: in one row it scrolled, hiding Spaces and Widget off screen. */}
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2 sm:h-14 sm:flex-nowrap sm:py-0">
          <HomeLink>
            <svg aria-hidden="true" viewBox="0 0 32 32" className="size-7">
              <rect width="32" height="32" rx="8" className="fill-accent" />
              <path d="M9 22V10l7 7 7-7v12" className="stroke-accent-ink" strokeWidth="3" fill="none" />
            </svg>
            <SiteName />
          </HomeLink>
          <div className="order-last w-full sm:order-none sm:w-auto">
            <HeaderSearch />
          </div>
          <nav
            aria-label="Main"
            className="order-last flex w-full min-w-0 items-center gap-1 overflow-x-auto sm:order-none sm:w-auto"
          >
            {MAIN_LINKS.map(([to, label]) => (
              <NavLink key={to} to={to} className={navLinkClass}>
                {label}
              </NavLink>
            ))}
          </nav>
          <div className="ml-auto flex shrink-0 items-center gap-2">
            <ThemeSwitcher />
            <UserMenu />
          </div>
        </div>
      </header>
      <SiteNotice />
      <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6">
        <Outlet />
      </main>
      <footer className="border-t border-line py-4 text-center text-xs text-muted">
        Modelhub — a self-hostable hub for machine-learning models
      </footer>
      <ScrollRestoration />
    </div>
  );
}
