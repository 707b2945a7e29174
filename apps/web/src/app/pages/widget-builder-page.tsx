import { PageTitle } from "../../components/ui/page-title.js";
import { WidgetBuilder } from "../../features/widget-builder/index.js";

export function WidgetBuilderPage() {
  return (
    <div className="flex flex-col gap-4">
      <PageTitle>Widget builder</PageTitle>
      <header>
        <h1 className="text-xl font-semibold tracking-tight">“Top products” widget</h1>
        <p className="text-sm text-muted">Put this hub’s top models on any web page with one script tag.</p>
      </header>
      <WidgetBuilder hubUrl={window.location.origin} />
    </div>
  );
}
