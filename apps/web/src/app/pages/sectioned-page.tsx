import type { ReactNode } from "react";
import { NavLink } from "react-router";
import { PageTitle } from "../../components/ui/page-title.js";

/** A page of tabs: its heading, the tabs' accessible name, their path prefix, and each tab's name. */
export interface Sections<Section extends string> {
  heading: string;
  navLabel: string;
  base: string;
  names: Record<Section, string>;
}

const tabClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-1.5 text-sm font-medium ${isActive ? "bg-accent-soft text-accent" : "text-muted hover:text-ink"}`;

/** Whether a path segment names one of the page's tabs. */
export function isSection<Section extends string>(
  page: Sections<Section>,
  name: string | undefined,
): name is Section {
  return name !== undefined && Object.hasOwn(page.names, name);
}

/** A signed-in user's page in tabs (`/base/{section}`): title, heading, who is signed in, the tabs, the open one. */
export function SectionedPage<Section extends string>({
  page,
  section,
  signedInAs,
  children,
}: {
  page: Sections<Section>;
  section: Section;
  signedInAs: string;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-6">
      <PageTitle>{`${page.names[section]} · ${page.navLabel}`}</PageTitle>
      <header>
        <h1 className="text-xl font-semibold tracking-tight">{page.heading}</h1>
        <p className="text-sm text-muted">Signed in as {signedInAs}</p>
      </header>
      <nav aria-label={page.navLabel} className="flex flex-wrap gap-1 border-b border-line pb-2">
        {(Object.keys(page.names) as Section[]).map((key) => (
          <NavLink key={key} to={`${page.base}/${key}`} className={tabClass}>
            {page.names[key]}
          </NavLink>
        ))}
      </nav>
      {children}
    </div>
  );
}
