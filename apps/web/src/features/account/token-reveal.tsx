import { CopyButton } from "../../components/ui/copy-button.js";

/** A new secret (a token, an invite link), shown this once with a copy button. */
export function TokenReveal({
  token,
  name,
  label = "New access token",
}: {
  token: string;
  name: string;
  label?: string;
}) {
  return (
    <div role="status" className="flex flex-col gap-2 rounded-md border border-accent bg-accent-soft p-3">
      <p className="text-sm font-medium">
        {label === "New access token"
          ? `Your new token “${name}”. Copy it now: it will not be shown again.`
          : `${label} (${name}). Copy it now: it will not be shown again.`}
      </p>
      <div className="flex min-w-0 items-center gap-2">
        <input
          readOnly
          value={token}
          aria-label={label}
          data-testid={label === "New access token" ? "new-token" : "new-secret"}
          spellCheck={false}
          className="h-8 min-w-0 flex-1 rounded-md border border-line bg-surface px-2 font-mono text-xs"
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton text={token} what={label.toLowerCase()} />
      </div>
    </div>
  );
}
