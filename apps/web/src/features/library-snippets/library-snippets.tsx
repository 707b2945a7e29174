import { useQuery } from "@tanstack/react-query";
import { CodeBlock, codeLanguage } from "../../components/ui/code-block.js";
import { librariesQuery } from "../../lib/api/libraries.js";
import { librarySnippetsQuery } from "../../lib/api/library-snippets.js";
import type { ModelInfo } from "../../lib/api/models.js";
import { repoFilesInfoQuery } from "../../lib/api/repo-files.js";
import { MissingWeights } from "./missing-weights.js";
import { weightFiles } from "./weight-files.js";

const LANGUAGE_NAMES: Record<string, string> = { python: "Python", js: "JavaScript", sh: "Shell" };

/** How to load this model with its library: the catalogue's code, from the hub, and the docs link. */
export function LibrarySnippets({ model, library }: { model: ModelInfo; library: string }) {
  const snippets = useQuery(librarySnippetsQuery(model.id));
  const libraries = useQuery(librariesQuery());
  const entry = libraries.data?.find((candidate) => candidate.id === library);
  const label = entry?.prettyLabel ?? library;
  // The files with their sizes (shared with the header and sidebar): loading code is offered only for a
  // repository that holds weights (issue 38: a demo copy offered from_pretrained).
  const files = useQuery({
    ...repoFilesInfoQuery({ type: "model", id: model.id }),
    enabled: Boolean(model.sha),
  });
  const missingWeights = model.sha
    ? files.data !== undefined && weightFiles(files.data.siblings ?? [], model.gguf?.total).length === 0
    : true;
  /** Code is shown once the files are known to hold weights (never offered, then taken back). */
  const offerCode = !missingWeights && (!model.sha || files.data !== undefined);

  return (
    <section aria-labelledby="library-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="library-heading" className="text-lg font-semibold">
          Use with {label}
        </h2>
        <div className="flex gap-3 text-sm">
          {entry?.docsUrl ? (
            <a href={entry.docsUrl} className="text-accent underline" rel="noopener noreferrer">
              {label} documentation
            </a>
          ) : null}
          {entry?.repoUrl ? (
            <a href={entry.repoUrl} className="text-accent underline" rel="noopener noreferrer">
              Source code
            </a>
          ) : null}
        </div>
      </div>
      {library !== model.library_name ? (
        <p role="status" className="rounded-md bg-warn-soft p-3 text-sm text-warn">
          This model declares the library “{model.library_name ?? "none"}”; the code below is for that
          library.
        </p>
      ) : null}
      {missingWeights ? (
        <MissingWeights
          modelId={model.id}
          label={label}
          demoCopy={files.data?.demoCopy}
          hasRepository={Boolean(model.sha)}
        />
      ) : null}
      {snippets.isPending ? <p className="text-muted">Loading code…</p> : null}
      {snippets.isError ? (
        <p role="alert" className="rounded-md bg-danger-soft p-3 text-danger">
          {snippets.error.message}
        </p>
      ) : null}
      {snippets.data && snippets.data.snippets.length === 0 && !missingWeights ? (
        <p className="text-muted">The catalogue has no loading code for this model.</p>
      ) : null}
      {(offerCode ? (snippets.data?.snippets ?? []) : []).map((snippet, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the catalogue's snippets are an ordered, static list.
        <div key={`${index}-${snippet.language}`} className="flex flex-col gap-1.5">
          <h3 className="text-sm font-medium text-muted">
            {snippet.title ?? `${LANGUAGE_NAMES[snippet.language] ?? snippet.language}`}
          </h3>
          <CodeBlock
            language={codeLanguage(snippet.language)}
            code={snippet.content}
            label={`${label} ${snippet.title ?? LANGUAGE_NAMES[snippet.language] ?? snippet.language} code`}
            testId="library-snippet"
          />
        </div>
      ))}
    </section>
  );
}
