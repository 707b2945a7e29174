import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { PagedResults } from "../../components/ui/paged-results.js";
import { SearchField } from "../../components/ui/search-field.js";
import type { SelectOption } from "../../components/ui/select.js";
import { SelectFilters } from "../../components/ui/select-filters.js";
import { repoListQuery } from "../../lib/api/repos.js";
import { cardFilters, optionsOf } from "../../lib/card-filters.js";
import { useListSearchParams } from "../../lib/use-list-search-params.js";
import { isFiltered, readRepoListParams, toRepoApiQuery, writeRepoListParams } from "./list-params.js";
import { RepoRow } from "./repo-row.js";

const SORT_OPTIONS: SelectOption[] = [
  { value: "updated", label: "Recently updated" },
  { value: "created", label: "Recently created" },
  { value: "name", label: "Name" },
];

/** The SDKs a space's card names (`sdk:`), as the public hub offers them. */
const SDKS: Array<[string, string]> = [
  ["gradio", "Gradio"],
  ["streamlit", "Streamlit"],
  ["docker", "Docker"],
  ["static", "Static"],
];

const WORDS = {
  dataset: {
    one: "dataset",
    many: "datasets",
    title: "Datasets",
    example: "e.g. wiki, squad",
    create: "/new-dataset",
  },
  space: { one: "space", many: "spaces", title: "Spaces", example: "e.g. chat, demo", create: "/new-space" },
};

/**
 * Search, sort, card filters (license, language, a space's SDK) and pages over the hub's datasets or spaces,
 * all kept in the URL as the models list does.
 */
export function ReposList({ type }: { type: "dataset" | "space" }) {
  const words = WORDS[type];
  const [params, update] = useListSearchParams(readRepoListParams, writeRepoListParams);
  const query = useQuery({
    ...repoListQuery(toRepoApiQuery(type, params)),
    placeholderData: keepPreviousData,
  });

  const repos = query.data?.items ?? [];
  const count = query.data?.total ?? repos.length;
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[16rem_1fr]">
      <aside aria-label="Filters" className="flex flex-col gap-4">
        <SearchField
          id={`${type}-search`}
          label={`Search ${words.many}`}
          placeholder={words.example}
          value={params.search}
          onSearch={(search) => update({ search }, { replace: true })}
        />
        <SelectFilters
          filters={[
            { key: "sort", label: "Sort", options: SORT_OPTIONS },
            ...(type === "space"
              ? [{ key: "sdk" as const, label: "SDK", options: optionsOf("Any SDK", SDKS, params.sdk) }]
              : []),
            ...cardFilters(params),
          ]}
          values={params}
          onChange={update}
        />
        {params.author ? (
          <p className="text-sm text-muted">
            Owner: <span className="font-medium text-ink">{params.author}</span>{" "}
            <button type="button" className="text-accent underline" onClick={() => update({ author: "" })}>
              Show all owners
            </button>
          </p>
        ) : null}
      </aside>
      <PagedResults
        headingId="repos-heading"
        title={words.title}
        count={`${count.toLocaleString("en")} ${count === 1 ? words.one : words.many}`}
        action={
          <Link
            to={words.create}
            className="rounded-md border border-line bg-surface px-3 py-1.5 text-sm font-medium hover:border-accent"
          >
            New {words.one}
          </Link>
        }
        query={query}
        what={words.many}
        empty={
          isFiltered(params)
            ? `No ${words.one} matches these filters.`
            : `No ${words.many} on this hub yet: create the first one with “New ${words.one}”.`
        }
        listLabel={words.title}
        items={repos}
        itemKey={(repo) => repo.id}
        renderItem={(repo) => <RepoRow repo={repo} type={type} />}
        hasPrevious={params.cursor !== undefined}
        nextCursor={query.data?.nextCursor}
        onPage={(cursor) => update({ cursor })}
      />
    </div>
  );
}
