import { listGgufQuantizations } from "@modelhub/tasks";
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import type { ModelInfo } from "../../lib/api/models.js";
import { repoFilesInfoQuery } from "../../lib/api/repo-files.js";
import { formatBytes, formatCount } from "../../lib/format.js";
import { providerLabel } from "../../lib/providers.js";
import { filesUrls, type RepoRef } from "../../lib/repo-ref.js";
import { holdsWeights } from "../local-apps/quant-label.js";
import { OwnProviderItem } from "./own-provider-item.js";
import { useOwnProviders } from "./use-own-providers.js";

function list(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** Facts the files give (license, base model, datasets, parameters, GGUF files, languages) and the providers. */
export function ModelSidebar({ model }: { model: ModelInfo }) {
  const repo: RepoRef = { type: "model", id: model.id };
  const info = useQuery(repoFilesInfoQuery(repo));
  const card = info.data?.cardData ?? model.cardData ?? {};
  const quantizations = info.data ? listGgufQuantizations(info.data) : [];
  const parameters = info.data?.safetensors?.total ?? model.safetensors?.total;
  const own = useOwnProviders(model.id);
  const hasFacts =
    typeof card.license === "string" ||
    Boolean(parameters) ||
    list(card.base_model).length > 0 ||
    list(card.datasets).length > 0 ||
    list(card.language).length > 0;
  const hasProviders = model.inferenceProviderMapping.length > 0 || own.length > 0;
  return (
    <aside aria-label="About this model" className="flex min-w-0 flex-col gap-4 text-sm">
      {hasFacts || quantizations.length > 0 || hasProviders || info.isPending ? null : (
        // Not an empty box: a card without metadata says what this column would show.
        <p className="rounded-lg border border-line bg-surface p-4 text-muted">
          The model card&apos;s metadata names no license, base model, datasets or languages.
        </p>
      )}
      {hasFacts ? (
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-2 rounded-lg border border-line bg-surface p-4">
          {typeof card.license === "string" ? (
            <>
              <dt className="text-muted">License</dt>
              <dd data-testid="license">{card.license}</dd>
            </>
          ) : null}
          {parameters ? (
            <>
              <dt className="text-muted">Parameters</dt>
              <dd data-testid="parameters">{formatCount(parameters)} (safetensors)</dd>
            </>
          ) : null}
          {list(card.base_model).length ? (
            <>
              <dt className="text-muted">Base model</dt>
              <dd className="flex flex-col">
                {list(card.base_model).map((base) => (
                  <Link key={base} to={`/${base}`} className="break-all text-accent underline">
                    {base}
                  </Link>
                ))}
              </dd>
            </>
          ) : null}
          {list(card.datasets).length ? (
            <>
              <dt className="text-muted">Datasets</dt>
              <dd className="break-all">{list(card.datasets).join(", ")}</dd>
            </>
          ) : null}
          {list(card.language).length ? (
            <>
              <dt className="text-muted">Languages</dt>
              <dd>{list(card.language).join(", ")}</dd>
            </>
          ) : null}
        </dl>
      ) : null}
      {quantizations.length > 0 ? (
        <section aria-labelledby="gguf-heading" className="rounded-lg border border-line bg-surface p-4">
          <h2 id="gguf-heading" className="mb-2 font-semibold">
            GGUF quantizations
          </h2>
          <ul className="flex flex-col gap-1" data-testid="gguf-files">
            {quantizations.map((quant) => (
              <li key={quant.label} className="flex justify-between gap-2">
                <Link
                  to={filesUrls.blob(repo, "main", quant.files[0] ?? "")}
                  className="font-mono text-accent underline"
                >
                  {quant.label}
                </Link>
                <span className="tabular-nums text-muted">
                  {quant.size === undefined
                    ? ""
                    : holdsWeights(quant, model.gguf?.total)
                      ? formatBytes(quant.size)
                      : `${formatBytes(quant.size)}, no weights`}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {hasProviders ? (
        <section aria-labelledby="providers-heading" className="rounded-lg border border-line bg-surface p-4">
          <h2 id="providers-heading" className="mb-2 font-semibold">
            Inference providers
          </h2>
          <ul className="flex flex-wrap gap-1.5">
            {model.inferenceProviderMapping.map((mapping) => (
              <li key={mapping.provider} className="rounded border border-line px-1.5 py-0.5 text-xs">
                {providerLabel(mapping.provider)}
              </li>
            ))}
          </ul>
          {own.length > 0 ? (
            <ul className="mt-2 flex flex-col gap-1.5" data-testid="own-providers">
              {own.map((provider) => (
                <OwnProviderItem key={provider.provider} provider={provider} />
              ))}
            </ul>
          ) : null}
        </section>
      ) : null}
    </aside>
  );
}
