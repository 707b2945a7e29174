import { Link } from "react-router";

/** What a signed-out visitor sees in place of a form that changes a repository. */
export function SignInTo({ what }: { what: string }) {
  return (
    <p className="rounded-lg border border-dashed border-line p-6 text-center">
      <Link to="/login" className="text-accent underline">
        Sign in
      </Link>{" "}
      to {what}.
    </p>
  );
}
