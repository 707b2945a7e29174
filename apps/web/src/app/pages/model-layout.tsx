import { useQuery } from "@tanstack/react-query";
import { Outlet, useParams } from "react-router";
import { ModelHeader, ModelNav } from "../../features/model-page/index.js";
import { HubApiError } from "../../lib/api/hub-fetch.js";
import { modelQuery } from "../../lib/api/models.js";
import { NotFoundPage } from "./not-found-page.js";

export function ModelLayout() {
  const { owner = "", name = "" } = useParams();
  const model = useQuery(modelQuery(`${owner}/${name}`));
  if (model.isPending) {
    return (
      <p className="py-12 text-center text-muted" aria-live="polite">
        Loading {owner}/{name}…
      </p>
    );
  }
  if (model.isError) {
    // The hub answered this address with 404 already; the page says the same.
    // (Anonymous callers get 401 for a missing or hidden repository, as on the public hub.)
    if (model.error instanceof HubApiError && [401, 404].includes(model.error.status))
      return <NotFoundPage />;
    return (
      <section className="mx-auto max-w-xl py-12 text-center">
        <h1 className="text-xl font-semibold">
          {owner}/{name}
        </h1>
        <p role="alert" className="mt-2 text-danger">
          {model.error.message}
        </p>
      </section>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <ModelHeader model={model.data} />
      <ModelNav model={model.data} />
      <Outlet context={model.data} />
    </div>
  );
}
