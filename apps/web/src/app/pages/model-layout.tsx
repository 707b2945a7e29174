import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { Outlet, useParams } from "react-router";
import { GatedAccessPanel } from "../../features/gated-access/index.js";
import { ModelHeader, ModelNav } from "../../features/model-page/index.js";
import { RepoScanNotice } from "../../features/repo-scan/index.js";
import { modelQuery } from "../../lib/api/models.js";
import type { RepoRouteContext } from "../../lib/route-model.js";
import { RepoPageStatus } from "./repo-page-status.js";

export function ModelLayout() {
  const { owner = "", name = "" } = useParams();
  const model = useQuery(modelQuery(`${owner}/${name}`));
  const context = useMemo<RepoRouteContext | undefined>(
    () => model.data && { repo: { type: "model", id: model.data.id }, info: model.data, model: model.data },
    [model.data],
  );
  if (!model.data || !context) return <RepoPageStatus id={`${owner}/${name}`} error={model.error} />;
  return (
    <div className="flex flex-col gap-4">
      <ModelHeader model={model.data} />
      <ModelNav model={model.data} />
      <RepoScanNotice repo={context.repo} />
      <GatedAccessPanel repo={context.repo} gated={model.data.gated} cardData={model.data.cardData} />
      <Outlet context={context} />
    </div>
  );
}
