export function WidgetBuilderPage() {
  return <p className="text-muted">Not built yet.</p>;
}
