import { useParams } from "react-router";
import { RequireSession } from "../../features/account/require-session.js";
import {
  MirrorAdmin,
  OrgsAdmin,
  OwnProvidersAdmin,
  SiteSettingsForm,
  UsageAdmin,
  UsersAdmin,
} from "../../features/admin/index.js";
import { AuditLog } from "../../features/audit-log/index.js";
import { StorageAdmin } from "../../features/storage/index.js";
import { NotFoundPage } from "./not-found-page.js";
import { isSection, SectionedPage, type Sections } from "./sectioned-page.js";

const ADMINISTRATION: Sections<
  "settings" | "users" | "organizations" | "usage" | "storage" | "providers" | "mirror" | "audit-log"
> = {
  heading: "Site administration",
  navLabel: "Administration",
  base: "/admin",
  names: {
    settings: "Site settings",
    users: "Users",
    organizations: "Organizations",
    usage: "Usage",
    storage: "Storage",
    providers: "Own providers",
    mirror: "Mirror",
    "audit-log": "Audit log",
  },
};

/** `/admin/{settings|users|organizations|usage|storage|providers|mirror|audit-log}`: site administration; not found for anyone else. */
export function AdminPage() {
  const section = useParams().section;
  if (!isSection(ADMINISTRATION, section)) return <NotFoundPage />;
  return (
    <RequireSession>
      {(session) =>
        session.isAdmin ? (
          <SectionedPage page={ADMINISTRATION} section={section} signedInAs={session.name}>
            {section === "settings" ? <SiteSettingsForm /> : null}
            {section === "users" ? <UsersAdmin self={session.name} /> : null}
            {section === "organizations" ? <OrgsAdmin /> : null}
            {section === "usage" ? <UsageAdmin /> : null}
            {section === "storage" ? <StorageAdmin /> : null}
            {section === "providers" ? <OwnProvidersAdmin /> : null}
            {section === "mirror" ? <MirrorAdmin /> : null}
            {section === "audit-log" ? <AuditLog /> : null}
          </SectionedPage>
        ) : (
          <NotFoundPage />
        )
      }
    </RequireSession>
  );
}
