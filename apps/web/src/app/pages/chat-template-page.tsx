export function ChatTemplatePage() {
  return <p className="text-muted">Not built yet.</p>;
}
