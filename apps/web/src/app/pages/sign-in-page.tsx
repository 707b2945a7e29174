import { PageTitle } from "../../components/ui/page-title.js";
import { SignInForm } from "../../features/account/sign-in-form.js";

export function SignInPage() {
  return (
    <section className="mx-auto flex w-full max-w-sm flex-col gap-6 py-8">
      <PageTitle>Sign in</PageTitle>
      <h1 className="text-2xl font-semibold tracking-tight">Sign in</h1>
      <SignInForm />
    </section>
  );
}
