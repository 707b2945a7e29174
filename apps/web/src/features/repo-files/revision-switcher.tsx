import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { Select, type SelectOption } from "../../components/ui/select.js";
import { refsQuery } from "../../lib/api/repo-files.js";
import type { RepoRef } from "../../lib/repo-ref.js";

/** Branch and tag picker; choosing one opens the same view at that revision. */
export function RevisionSwitcher({
  repo,
  revision,
  urlFor,
}: {
  repo: RepoRef;
  revision: string;
  urlFor: (revision: string) => string;
}) {
  const refs = useQuery(refsQuery(repo));
  const navigate = useNavigate();
  const options: SelectOption[] = [
    ...(refs.data?.branches ?? []).map((branch) => ({
      value: branch.name,
      label: branch.name,
      hint: <RefKind kind="branch" />,
    })),
    ...(refs.data?.tags ?? []).map((tag) => ({
      value: `tag:${tag.name}`,
      label: tag.name,
      hint: <RefKind kind="tag" />,
    })),
  ];
  const isTag = refs.data?.tags.some((tag) => tag.name === revision) ?? false;
  const value = isTag ? `tag:${revision}` : revision;
  // A commit id or a ref the lists do not have still shows as the current choice.
  if (!options.some((option) => option.value === value))
    options.unshift({ value, label: revision.slice(0, 12) });
  return (
    <Select
      label="Branch or tag"
      showLabel={false}
      value={value}
      options={options}
      testId="revision-switcher"
      onValueChange={(next) => navigate(urlFor(next.replace(/^tag:/, "")))}
    />
  );
}

function RefKind({ kind }: { kind: "branch" | "tag" }) {
  return <span className="rounded border border-line px-1 text-[11px] font-medium text-muted">{kind}</span>;
}
