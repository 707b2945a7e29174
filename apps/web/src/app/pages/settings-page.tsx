import { useQuery } from "@tanstack/react-query";
import { NavLink, useParams } from "react-router";
import { PageTitle } from "../../components/ui/page-title.js";
import { whoamiQuery } from "../../features/account/organizations.js";
import { OrganizationsSettings } from "../../features/account/organizations-settings.js";
import { ProfileSettings } from "../../features/account/profile-settings.js";
import { RequireSession } from "../../features/account/require-session.js";
import { TokensSettings } from "../../features/account/tokens-settings.js";
import { NotFoundPage } from "./not-found-page.js";

const SECTIONS = {
  profile: "Profile",
  tokens: "Access tokens",
  organizations: "Organizations",
} as const;
type Section = keyof typeof SECTIONS;

const tabClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-1.5 text-sm font-medium ${isActive ? "bg-accent-soft text-accent" : "text-muted hover:text-ink"}`;

function TokensSection() {
  const whoami = useQuery(whoamiQuery);
  return <TokensSettings orgs={(whoami.data?.orgs ?? []).map((org) => org.name)} />;
}

/** `/settings/{profile|tokens|organizations}`: the signed-in user's own settings. */
export function SettingsPage() {
  const section = useParams().section as Section;
  if (!(section in SECTIONS)) return <NotFoundPage />;
  return (
    <RequireSession>
      {(session) => (
        <div className="flex flex-col gap-6">
          <PageTitle>{`${SECTIONS[section]} · Settings`}</PageTitle>
          <header>
            <h1 className="text-xl font-semibold tracking-tight">Settings</h1>
            <p className="text-sm text-muted">Signed in as {session.name}</p>
          </header>
          <nav aria-label="Settings" className="flex flex-wrap gap-1 border-b border-line pb-2">
            {(Object.keys(SECTIONS) as Section[]).map((key) => (
              <NavLink key={key} to={`/settings/${key}`} className={tabClass}>
                {SECTIONS[key]}
              </NavLink>
            ))}
          </nav>
          {section === "profile" ? <ProfileSettings /> : null}
          {section === "tokens" ? <TokensSection /> : null}
          {section === "organizations" ? <OrganizationsSettings user={session.name} /> : null}
        </div>
      )}
    </RequireSession>
  );
}
