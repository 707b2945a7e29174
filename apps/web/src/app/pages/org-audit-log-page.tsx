import { Link, useParams } from "react-router";
import { PageTitle } from "../../components/ui/page-title.js";
import { RequireSession } from "../../features/account/require-session.js";
import { AuditLog } from "../../features/audit-log/index.js";

/** `/organizations/{org}/audit-log`: the organization's audit log, for its admins (the API refuses others). */
export function OrgAuditLogPage() {
  const org = useParams().org ?? "";
  return (
    <RequireSession>
      {() => (
        <div className="flex flex-col gap-6">
          <PageTitle>{`Audit log · ${org}`}</PageTitle>
          <header>
            <h1 className="break-words text-xl font-semibold tracking-tight">Audit log of {org}</h1>
            <p className="text-sm text-muted">
              Who did what to the organization's repositories, tokens and members.{" "}
              <Link to={`/organizations/${encodeURIComponent(org)}`} className="underline">
                Back to {org}
              </Link>
            </p>
          </header>
          <AuditLog org={org} />
        </div>
      )}
    </RequireSession>
  );
}
