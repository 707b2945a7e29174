export function InferencePage() {
  return <p className="text-muted">Not built yet.</p>;
}
