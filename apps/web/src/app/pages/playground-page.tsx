export function PlaygroundPage() {
  return <p className="text-muted">Not built yet.</p>;
}
