import { NavLink, useParams } from "react-router";
import { PageTitle } from "../../components/ui/page-title.js";
import { RequireSession } from "../../features/account/require-session.js";
import { OrgsAdmin, SiteSettingsForm, UsageAdmin, UsersAdmin } from "../../features/admin/index.js";
import { NotFoundPage } from "./not-found-page.js";

const SECTIONS = {
  settings: "Site settings",
  users: "Users",
  organizations: "Organizations",
  usage: "Usage",
} as const;
type Section = keyof typeof SECTIONS;

const tabClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-1.5 text-sm font-medium ${isActive ? "bg-accent-soft text-accent" : "text-muted hover:text-ink"}`;

/** `/admin/{settings|users|organizations|usage}`: site administration; not found for anyone else. */
export function AdminPage() {
  const section = useParams().section as Section;
  if (!(section in SECTIONS)) return <NotFoundPage />;
  return (
    <RequireSession>
      {(session) =>
        session.isAdmin ? (
          <div className="flex flex-col gap-6">
            <PageTitle>{`${SECTIONS[section]} · Administration`}</PageTitle>
            <header>
              <h1 className="text-xl font-semibold tracking-tight">Site administration</h1>
              <p className="text-sm text-muted">Signed in as {session.name}</p>
            </header>
            <nav aria-label="Administration" className="flex flex-wrap gap-1 border-b border-line pb-2">
              {(Object.keys(SECTIONS) as Section[]).map((key) => (
                <NavLink key={key} to={`/admin/${key}`} className={tabClass}>
                  {SECTIONS[key]}
                </NavLink>
              ))}
            </nav>
            {section === "settings" ? <SiteSettingsForm /> : null}
            {section === "users" ? <UsersAdmin self={session.name} /> : null}
            {section === "organizations" ? <OrgsAdmin /> : null}
            {section === "usage" ? <UsageAdmin /> : null}
          </div>
        ) : (
          <NotFoundPage />
        )
      }
    </RequireSession>
  );
}
