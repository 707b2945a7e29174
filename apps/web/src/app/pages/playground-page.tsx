import { Playground } from "../../features/playground/index.js";
import { useRouteModel } from "../../lib/route-model.js";

export function PlaygroundPage() {
  return <Playground model={useRouteModel()} hubUrl={window.location.origin} />;
}
