import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { Outlet, useParams } from "react-router";
import { RepoHeader } from "../../components/repo/repo-header.js";
import { type ExtraTab, RepoTabs } from "../../components/repo/repo-tabs.js";
import { GatedAccessPanel } from "../../features/gated-access/index.js";
import { RepoScanNotice } from "../../features/repo-scan/index.js";
import { runsHere } from "../../features/space-app/index.js";
import { repoInfoQuery } from "../../lib/api/repos.js";
import type { RepoRef } from "../../lib/repo-ref.js";
import type { RepoRouteContext } from "../../lib/route-model.js";
import { RepoPageStatus } from "./repo-page-status.js";

/** A space's own tab when this hub does not run it: why (a running space's app is its first tab instead). */
const SPACE_TABS: ExtraTab[] = [{ label: "App", section: "app" }];

/** A dataset's or a space's pages: the header and tabs model pages share, then the section. */
function RepoLayout({ type }: { type: "dataset" | "space" }) {
  const { owner = "", name = "" } = useParams();
  const info = useQuery(repoInfoQuery({ type, id: `${owner}/${name}` }));
  const context = useMemo<RepoRouteContext | undefined>(() => {
    if (!info.data) return undefined;
    const repo: RepoRef = { type, id: info.data.id };
    return { repo, info: info.data };
  }, [info.data, type]);
  if (!info.data || !context) return <RepoPageStatus id={`${owner}/${name}`} error={info.error} />;
  // A space this hub runs opens on its app (space-app-page.tsx): the App tab comes first, at its URL.
  const runs = type === "space" && runsHere(info.data.sdk);
  return (
    <div className="flex flex-col gap-4">
      <RepoHeader
        repo={context.repo}
        private={info.data.private}
        gated={info.data.gated}
        mirror={info.data.mirror}
        likes={info.data.likes}
        downloads={info.data.downloads}
        facts={
          info.data.sdk ? (
            <div className="flex items-center gap-1">
              <dt className="sr-only">SDK</dt>
              <dd className="rounded-full bg-accent-soft px-2.5 py-0.5 text-xs font-medium text-accent">
                {info.data.sdk}
              </dd>
            </div>
          ) : null
        }
      />
      <RepoTabs
        repo={context.repo}
        extra={type === "space" && !runs ? SPACE_TABS : undefined}
        home={runs ? "App" : undefined}
      />
      <RepoScanNotice repo={context.repo} />
      <GatedAccessPanel repo={context.repo} gated={info.data.gated} cardData={info.data.cardData} />
      <Outlet context={context} />
    </div>
  );
}

export function DatasetLayout() {
  return <RepoLayout type="dataset" />;
}

export function SpaceLayout() {
  return <RepoLayout type="space" />;
}
