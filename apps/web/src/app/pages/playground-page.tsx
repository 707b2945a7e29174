import { PageTitle } from "../../components/ui/page-title.js";
import { Playground } from "../../features/playground/index.js";
import { useRouteModel } from "../../lib/route-model.js";

export function PlaygroundPage() {
  const model = useRouteModel();
  return (
    <>
      <PageTitle>{`Playground for ${model.id}`}</PageTitle>
      <Playground model={model} hubUrl={window.location.origin} />
    </>
  );
}
