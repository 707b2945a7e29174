import {
  defaultGgufQuantization,
  downloadFromHub,
  getLocalAppsForModel,
  type LocalApp,
  listGgufQuantizations,
} from "@modelhub/tasks";
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { Link, useSearchParams } from "react-router";
import { CodeBlock } from "../../components/ui/code-block.js";
import { Select } from "../../components/ui/select.js";
import type { ModelInfo } from "../../lib/api/models.js";
import { repoFilesInfoQuery } from "../../lib/api/repo-files.js";
import { modelUrl } from "../../lib/model-url.js";
import { quantOptionLabel } from "./quant-label.js";

/**
 * Apps that run this model on the reader's machine; `/{id}/local-apps/{app}?quant={label}` names the app
 * and the GGUF quantization picked, so each choice can be linked to.
 */
export function LocalApps({ model, appKey, hubUrl }: { model: ModelInfo; appKey?: string; hubUrl: string }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const apps = useMemo(() => getLocalAppsForModel(model), [model]);
  // The repository's files with their sizes (the model record lists names only): each option then shows
  // its files' real size and bits per weight; until they arrive, the names alone.
  const files = useQuery(repoFilesInfoQuery({ type: "model", id: model.id }));
  const quantizations = useMemo(() => listGgufQuantizations(files.data ?? model), [files.data, model]);
  const selected = apps.find((entry) => entry.key === appKey) ?? apps[0];
  const quant =
    quantizations.find((candidate) => candidate.label === searchParams.get("quant")) ??
    defaultGgufQuantization(model);

  if (apps.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-line p-8 text-center text-muted">
        No local app in the catalogue runs this model yet.
      </p>
    );
  }

  const base = modelUrl(model.id, "local-apps");
  const query = quant ? `?quant=${encodeURIComponent(quant.label)}` : "";
  return (
    <div className="grid grid-cols-1 gap-6 md:grid-cols-[14rem_1fr]">
      <nav aria-label="Local apps">
        <ul className="flex flex-wrap gap-1 md:flex-col">
          {apps.map(({ key, app }) => (
            <li key={key}>
              <Link
                to={`${base}/${encodeURIComponent(key)}${query}`}
                aria-current={selected?.key === key ? "page" : undefined}
                className="flex items-center justify-between gap-2 rounded-md px-3 py-1.5 text-sm hover:bg-raised aria-[current=page]:bg-accent-soft aria-[current=page]:font-medium aria-[current=page]:text-accent"
              >
                {app.prettyLabel}
                {app.macOSOnly ? <span className="text-xs text-muted">macOS</span> : null}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {selected ? (
        <section aria-labelledby="local-app-heading" className="flex min-w-0 flex-col gap-4">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 id="local-app-heading" className="text-lg font-semibold">
              Run with {selected.app.prettyLabel}
              {selected.app.macOSOnly ? (
                <span className="ml-2 rounded-full bg-raised px-2 py-0.5 text-xs font-normal text-muted">
                  macOS only
                </span>
              ) : null}
            </h2>
            <a
              href={selected.app.docsUrl}
              className="text-sm text-accent underline"
              rel="noopener noreferrer"
            >
              {selected.app.prettyLabel} documentation
            </a>
          </div>
          {quantizations.length > 0 && quant ? (
            <div className="max-w-md">
              <Select
                label="GGUF quantization"
                value={quant.label}
                options={quantizations.map((candidate) => ({
                  value: candidate.label,
                  label: quantOptionLabel(candidate, model.gguf?.total),
                }))}
                onValueChange={(label) =>
                  setSearchParams(
                    (current) => {
                      current.set("quant", label);
                      return current;
                    },
                    { replace: true },
                  )
                }
                testId="quant-select"
              />
              {quant.description ? <p className="mt-1 text-xs text-muted">{quant.description}</p> : null}
            </div>
          ) : null}
          <AppInstructions app={selected.app} model={model} quantFile={quant?.files[0]} hubUrl={hubUrl} />
        </section>
      ) : null}
    </div>
  );
}

function AppInstructions({
  app,
  model,
  quantFile,
  hubUrl,
}: {
  app: LocalApp;
  model: ModelInfo;
  quantFile: string | undefined;
  hubUrl: string;
}) {
  if (app.kind === "deeplink") {
    // The desktop apps open models from huggingface.co only: on this hub, the files are fetched first.
    const download = downloadFromHub(model, quantFile, { hubUrl });
    if (download) {
      return (
        <div className="flex flex-col gap-2">
          <p role="note" className="rounded-md bg-warn-soft p-3 text-sm text-warn">
            {app.prettyLabel} opens models from huggingface.co only, not from this hub: download the files,
            then open them from disk in {app.prettyLabel}.
          </p>
          {download.setup ? (
            <CodeBlock code={download.setup} label={`${download.title}: install`} language="sh" />
          ) : null}
          {download.content.map((block) => (
            <CodeBlock
              key={block}
              language="sh"
              code={block}
              label={download.title}
              testId="local-app-snippet"
            />
          ))}
        </div>
      );
    }
    const link = app.deeplink(model, quantFile).toString();
    return (
      <div className="flex flex-col gap-2">
        <p className="text-sm text-muted">Opens the model in {app.prettyLabel} if it is installed.</p>
        <a
          href={link}
          className="inline-flex h-9 w-fit items-center rounded-md bg-accent px-3 text-sm font-medium text-accent-ink"
        >
          Open in {app.prettyLabel}
        </a>
        <CodeBlock code={link} label={`${app.prettyLabel} link`} />
      </div>
    );
  }
  const snippets = app.snippet(model, quantFile, { hubUrl });
  return (
    <div className="flex flex-col gap-5">
      {snippets.map((snippet) => (
        <div key={snippet.title} className="flex flex-col gap-2">
          <h3 className="text-sm font-semibold">{snippet.title}</h3>
          {snippet.setup ? (
            <CodeBlock code={snippet.setup} label={`${snippet.title}: install`} language="sh" />
          ) : null}
          {snippet.content.map((block, index) => (
            <CodeBlock
              language="sh"
              // biome-ignore lint/suspicious/noArrayIndexKey: the steps are an ordered, static list.
              key={index}
              code={block}
              label={`${snippet.title}: step ${index + 1}`}
              testId="local-app-snippet"
            />
          ))}
        </div>
      ))}
    </div>
  );
}
