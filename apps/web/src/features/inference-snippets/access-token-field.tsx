import { memo } from "react";
import { Popover } from "../../components/ui/popover.js";
import { type RadioChoice, RadioOptions } from "../../components/ui/radio-options.js";

export type TokenMode = "env" | "inline";

const TOKEN_MODES: RadioChoice<TokenMode>[] = [
  { value: "env", label: "Read from the environment" },
  { value: "inline", label: "Write my token into the code" },
];
const TOKEN_MODE_LOOK = { label: "flex items-center gap-1.5", input: "accent-accent" };

interface AccessTokenFieldProps {
  mode: TokenMode;
  token: string;
  onModeChange: (mode: TokenMode) => void;
  onTokenChange: (token: string) => void;
}

/**
 * The token is kept in this component's memory only: never in the URL, never in storage, never sent
 * anywhere by the panel. It ends up only in the code the reader copies.
 */
export const AccessTokenField = memo(function AccessTokenField({
  mode,
  token,
  onModeChange,
  onTokenChange,
}: AccessTokenFieldProps) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="flex items-center gap-1.5 text-xs font-medium text-muted">
        Access token
        <Popover
          label="About the access token"
          trigger={
            <button
              type="button"
              aria-label="About the access token"
              className="grid size-5 place-items-center rounded-full border border-line text-[11px] text-muted hover:text-ink"
            >
              ?
            </button>
          }
        >
          <p className="text-sm">
            By default the code reads your token from the <code className="font-mono">HF_TOKEN</code>{" "}
            environment variable, so it is safe to share. If you choose to write your token into the code, it
            stays in this browser tab: it is not put in the address, not stored, and not sent to the hub by
            this panel.
          </p>
        </Popover>
      </legend>
      <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <RadioOptions options={TOKEN_MODES} choice={mode} onChoose={onModeChange} look={TOKEN_MODE_LOOK} />
      </div>
      {mode === "inline" ? (
        <input
          type="password"
          value={token}
          onChange={(event) => onTokenChange(event.target.value)}
          aria-label="Your access token"
          placeholder="hf_…"
          autoComplete="off"
          spellCheck={false}
          className="h-9 w-full max-w-sm rounded-md border border-line bg-surface px-3 font-mono text-sm placeholder:text-muted/70 focus:border-accent"
        />
      ) : null}
    </fieldset>
  );
});
