import { useQuery } from "@tanstack/react-query";
import { useParams } from "react-router";
import { whoamiQuery } from "../../features/account/organizations.js";
import { OrganizationsSettings } from "../../features/account/organizations-settings.js";
import { ProfileSettings } from "../../features/account/profile-settings.js";
import { RequireSession } from "../../features/account/require-session.js";
import { TokensSettings } from "../../features/account/tokens-settings.js";
import { StorageUsage } from "../../features/storage/index.js";
import { WebhooksSettings } from "../../features/webhooks/index.js";
import { NotFoundPage } from "./not-found-page.js";
import { isSection, SectionedPage, type Sections } from "./sectioned-page.js";

const SETTINGS: Sections<"profile" | "tokens" | "organizations" | "webhooks" | "storage"> = {
  heading: "Settings",
  navLabel: "Settings",
  base: "/settings",
  names: {
    profile: "Profile",
    tokens: "Access tokens",
    organizations: "Organizations",
    webhooks: "Webhooks",
    storage: "Storage",
  },
};

function TokensSection() {
  const whoami = useQuery(whoamiQuery);
  return <TokensSettings orgs={(whoami.data?.orgs ?? []).map((org) => org.name)} />;
}

/** `/settings/{profile|tokens|organizations|webhooks|storage}`: the signed-in user's own settings. */
export function SettingsPage() {
  const section = useParams().section;
  if (!isSection(SETTINGS, section)) return <NotFoundPage />;
  return (
    <RequireSession>
      {(session) => (
        <SectionedPage page={SETTINGS} section={section} signedInAs={session.name}>
          {section === "profile" ? <ProfileSettings /> : null}
          {section === "tokens" ? <TokensSection /> : null}
          {section === "organizations" ? <OrganizationsSettings user={session.name} /> : null}
          {section === "webhooks" ? <WebhooksSettings /> : null}
          {section === "storage" ? <StorageUsage owner={session.name} /> : null}
        </SectionedPage>
      )}
    </RequireSession>
  );
}
