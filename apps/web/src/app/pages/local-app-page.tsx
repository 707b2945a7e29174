export function LocalAppPage() {
  return <p className="text-muted">Not built yet.</p>;
}
