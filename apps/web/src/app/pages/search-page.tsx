import { useSearchParams } from "react-router";
import { PageTitle } from "../../components/ui/page-title.js";
import { SearchResults } from "../../features/search/search-results.js";

/** `/search?q=…&type=…`: full-text search over ids, owners, cards, tags and README headings. */
export function SearchPage() {
  const q = useSearchParams()[0].get("q")?.trim() ?? "";
  return (
    <div className="flex flex-col gap-4">
      {/* Unlike the listings' "Models" title: says it is a search, and for what. */}
      <PageTitle>{q ? `Search results for “${q}”` : "Search"}</PageTitle>
      <h1 className="text-xl font-semibold tracking-tight">{q ? `Search results for “${q}”` : "Search"}</h1>
      <SearchResults />
    </div>
  );
}
