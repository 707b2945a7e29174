import { useParams } from "react-router";
import { PageTitle } from "../../components/ui/page-title.js";
import { LocalApps } from "../../features/local-apps/index.js";
import { useRouteModel } from "../../lib/route-model.js";

export function LocalAppPage() {
  const { app } = useParams();
  const model = useRouteModel();
  return (
    <>
      <PageTitle>{`Run ${model.id} locally`}</PageTitle>
      <LocalApps model={model} appKey={app} hubUrl={window.location.origin} />
    </>
  );
}
