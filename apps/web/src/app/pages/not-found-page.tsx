import { Link } from "react-router";
import { PageTitle } from "../../components/ui/page-title.js";

export function NotFoundPage() {
  return (
    <section className="mx-auto max-w-xl py-16 text-center">
      <PageTitle>Page not found</PageTitle>
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="mt-2 text-muted">There is nothing at this address.</p>
      <Link to="/models" className="mt-6 inline-block text-accent underline">
        Browse models
      </Link>
    </section>
  );
}
