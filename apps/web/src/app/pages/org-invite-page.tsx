import { useParams } from "react-router";
import { PageTitle } from "../../components/ui/page-title.js";
import { OrgInvite } from "../../features/account/org-invite.js";

/** `/organizations/invites/{code}`: an organization's invite link. */
export function OrgInvitePage() {
  return (
    <section className="mx-auto flex w-full max-w-lg flex-col gap-4 py-8">
      <PageTitle>Organization invite</PageTitle>
      <h1 className="text-2xl font-semibold tracking-tight">Organization invite</h1>
      <OrgInvite code={useParams().code ?? ""} />
    </section>
  );
}
