import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useCallback } from "react";
import { Link, useSearchParams } from "react-router";
import { Pagination } from "../../components/ui/pagination.js";
import { SearchField } from "../../components/ui/search-field.js";
import { Select, type SelectOption } from "../../components/ui/select.js";
import { type RepoSort, repoListQuery } from "../../lib/api/repos.js";
import { CARD_LANGUAGES, optionsOf } from "../../lib/card-filters.js";
import { LICENSES } from "../../lib/licenses.js";
import {
  type RepoListParams,
  readRepoListParams,
  toRepoApiQuery,
  writeRepoListParams,
} from "./list-params.js";
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
  const [searchParams, setSearchParams] = useSearchParams();
  const params = readRepoListParams(searchParams);
  const query = useQuery({
    ...repoListQuery(toRepoApiQuery(type, params)),
    placeholderData: keepPreviousData,
  });

  const update = useCallback(
    (change: Partial<RepoListParams>, options: { replace?: boolean } = {}) => {
      // A new search or sort starts from the first page.
      setSearchParams(
        (current) => writeRepoListParams({ ...readRepoListParams(current), cursor: undefined, ...change }),
        { replace: options.replace ?? false },
      );
    },
    [setSearchParams],
  );

  const repos = query.data?.repos ?? [];
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
        <Select
          label="Sort"
          value={params.sort}
          options={SORT_OPTIONS}
          onValueChange={(sort) => update({ sort: sort as RepoSort })}
        />
        {type === "space" ? (
          <Select
            label="SDK"
            value={params.sdk}
            options={optionsOf("Any SDK", SDKS, params.sdk)}
            onValueChange={(sdk) => update({ sdk })}
          />
        ) : null}
        <Select
          label="License"
          value={params.license}
          options={optionsOf("Any license", LICENSES, params.license)}
          onValueChange={(license) => update({ license })}
        />
        <Select
          label="Language"
          value={params.language}
          options={optionsOf("Any language", CARD_LANGUAGES, params.language)}
          onValueChange={(language) => update({ language })}
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
      <section aria-labelledby="repos-heading" aria-busy={query.isFetching} className="min-w-0">
        <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
          <h1 id="repos-heading" className="text-xl font-semibold tracking-tight">
            {words.title}
          </h1>
          <p className="text-sm text-muted" aria-live="polite">
            {query.isPending
              ? "Loading…"
              : `${count.toLocaleString("en")} ${count === 1 ? words.one : words.many}`}
          </p>
          <Link
            to={words.create}
            className="rounded-md border border-line bg-surface px-3 py-1.5 text-sm font-medium hover:border-accent"
          >
            New {words.one}
          </Link>
        </div>
        {query.isError ? (
          <p role="alert" className="rounded-md bg-danger-soft p-3 text-danger">
            Could not load {words.many}: {query.error.message}
          </p>
        ) : null}
        {!query.isPending && repos.length === 0 && !query.isError ? (
          <p className="rounded-md border border-dashed border-line p-8 text-center text-muted">
            No {words.one} matches.
          </p>
        ) : null}
        <ul
          aria-label={words.title}
          className={`grid grid-cols-1 gap-2 sm:grid-cols-2 ${query.isPlaceholderData ? "opacity-60" : ""}`}
        >
          {repos.map((repo) => (
            <li key={repo.id}>
              <RepoRow repo={repo} type={type} />
            </li>
          ))}
        </ul>
        <Pagination
          hasPrevious={params.cursor !== undefined}
          nextCursor={query.data?.nextCursor}
          onFirst={() => update({})}
          onNext={(cursor) => update({ cursor })}
        />
      </section>
    </div>
  );
}
