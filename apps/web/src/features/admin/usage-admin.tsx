import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { type RadioChoice, RadioOptions } from "../../components/ui/radio-options.js";
import { errorText, FormMessage, SettingsSection } from "../account/form-parts.js";
import { adminUsageQuery } from "./admin-api.js";

const GROUPINGS: RadioChoice<"user" | "org">[] = [
  { value: "user", label: "Per user" },
  { value: "org", label: "Per organization billed" },
];

const GROUPING_LOOK = { label: "flex items-center gap-2 text-sm" };

const number = new Intl.NumberFormat();

/** Router calls per user, or per organization billed, over the retention period. */
export function UsageAdmin() {
  const [by, setBy] = useState<"user" | "org">("user");
  const usage = useQuery(adminUsageQuery(by));
  return (
    <SettingsSection title="Inference usage">
      <fieldset className="flex flex-wrap gap-4">
        <legend className="sr-only">Group by</legend>
        <RadioOptions options={GROUPINGS} choice={by} onChoose={setBy} look={GROUPING_LOOK} />
      </fieldset>
      {usage.isPending ? <p className="text-sm text-muted">Loading…</p> : null}
      {usage.isError ? <FormMessage error={errorText(usage.error)} /> : null}
      {usage.data ? (
        // Scrolls sideways on a phone: a focusable region, so a keyboard can scroll it too.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
        // biome-ignore lint/a11y/useSemanticElements: a div region is what wraps a scrolling table.
        <div className="overflow-x-auto" role="region" aria-label="Usage table" tabIndex={0}>
          <table className="w-full min-w-[28rem] text-left text-sm">
            <caption className="mb-2 text-left text-muted">
              Since {new Date(usage.data.since).toLocaleDateString()}
            </caption>
            <thead>
              <tr className="border-b border-line">
                <th scope="col" className="py-2 pr-3 font-medium">
                  {by === "user" ? "User" : "Organization"}
                </th>
                <th scope="col" className="py-2 pr-3 text-right font-medium">
                  Requests
                </th>
                <th scope="col" className="py-2 pr-3 text-right font-medium">
                  Errors
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  Bytes out
                </th>
              </tr>
            </thead>
            <tbody>
              {usage.data.usage.length === 0 ? (
                <tr>
                  <td colSpan={4} className="py-3 text-muted">
                    No router calls yet.
                  </td>
                </tr>
              ) : null}
              {usage.data.usage.map((row) => (
                <tr key={String(row.user ?? row.org)} className="border-b border-line">
                  <th scope="row" className="py-2 pr-3 font-normal">
                    {row.user ?? row.org ?? "(deleted)"}
                  </th>
                  <td className="py-2 pr-3 text-right tabular-nums">{number.format(row.requests)}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{number.format(row.errors)}</td>
                  <td className="py-2 text-right tabular-nums">{number.format(row.responseBytes)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </SettingsSection>
  );
}
