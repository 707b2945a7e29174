import { PageTitle } from "../../components/ui/page-title.js";
import { SignUpForm } from "../../features/account/sign-in-form.js";

export function SignUpPage() {
  return (
    <section className="mx-auto flex w-full max-w-sm flex-col gap-6 py-8">
      <PageTitle>Sign up</PageTitle>
      <h1 className="text-2xl font-semibold tracking-tight">Create your account</h1>
      <SignUpForm />
    </section>
  );
}
