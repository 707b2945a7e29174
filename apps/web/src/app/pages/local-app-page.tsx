import { useParams } from "react-router";
import { LocalApps } from "../../features/local-apps/index.js";
import { useRouteModel } from "../../lib/route-model.js";

export function LocalAppPage() {
  const { app } = useParams();
  return <LocalApps model={useRouteModel()} appKey={app} hubUrl={window.location.origin} />;
}
