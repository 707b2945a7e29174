import { Link, useLocation, useNavigate } from "react-router";
import { DisclosureMenu } from "../../components/ui/disclosure-menu.js";
import { signOut, useSession } from "./account-api.js";

const itemClass = "block w-full rounded px-2 py-1.5 text-left text-sm hover:bg-accent-soft";

/**
 * The header's account corner: "Sign in" for a reader, or the signed-in user's avatar opening a menu
 * (profile, access tokens, organizations, site administration for admins, sign out). A <details> menu: keyboard and screen readers work
 * without script.
 */
export function UserMenu() {
  const { data: session, isPending } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  if (isPending) return <span className="inline-block h-9 w-16" aria-hidden="true" />;
  if (!session) {
    const here = `${location.pathname}${location.search}`;
    const next =
      location.pathname === "/login" || location.pathname === "/join"
        ? ""
        : `?next=${encodeURIComponent(here)}`;
    return (
      <Link
        to={`/login${next}`}
        className="inline-flex h-9 items-center rounded-md border border-line px-3 text-sm font-medium hover:border-accent"
      >
        Sign in
      </Link>
    );
  }
  const out = async () => {
    await signOut();
    navigate("/models");
  };
  return (
    <DisclosureMenu
      hideCaret
      summaryClassName="grid size-9 cursor-pointer list-none place-items-center rounded-full border border-line hover:border-accent"
      summary={
        <>
          <img
            src={`/api/avatars/${encodeURIComponent(session.name)}`}
            alt=""
            className="size-7 rounded-full"
          />
          <span className="sr-only">Account menu of {session.name}</span>
        </>
      }
    >
      <nav aria-label="Account">
        <p className="border-b border-line px-2 pb-2 text-sm">
          Signed in as <strong className="font-semibold">{session.name}</strong>
        </p>
        <ul className="flex flex-col pt-1">
          <li>
            <Link to="/settings/profile" className={itemClass}>
              Profile
            </Link>
          </li>
          <li>
            <Link to="/settings/tokens" className={itemClass}>
              Access tokens
            </Link>
          </li>
          <li>
            <Link to="/settings/organizations" className={itemClass}>
              Organizations
            </Link>
          </li>
          {session.isAdmin ? (
            <li>
              <Link to="/admin/settings" className={itemClass}>
                Site administration
              </Link>
            </li>
          ) : null}
          <li className="mt-1 border-t border-line pt-1">
            <button type="button" onClick={out} className={itemClass}>
              Sign out
            </button>
          </li>
        </ul>
      </nav>
    </DisclosureMenu>
  );
}
