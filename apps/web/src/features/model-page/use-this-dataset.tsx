import { getDatasetSnippets } from "@modelhub/tasks";
import { useMemo } from "react";
import { CodeBlock, codeLanguage } from "../../components/ui/code-block.js";

/** A dataset's loading code: 🤗 datasets and `hf download`, pointed at this hub (HF_ENDPOINT). */
export function UseThisDataset({ datasetId, hubUrl }: { datasetId: string; hubUrl: string }) {
  const snippets = useMemo(() => getDatasetSnippets(datasetId, { hubUrl }), [datasetId, hubUrl]);
  return (
    <section aria-labelledby="use-dataset-heading" className="flex min-w-0 flex-col gap-3">
      <h2 id="use-dataset-heading" className="text-base font-semibold">
        Use this dataset
      </h2>
      {snippets.map((snippet) => (
        <div key={snippet.title} className="flex min-w-0 flex-col gap-1.5">
          <h3 className="text-xs font-medium text-muted">{snippet.title}</h3>
          <CodeBlock
            language={codeLanguage(snippet.language)}
            code={snippet.content}
            label={`${snippet.title} code`}
            testId="dataset-snippet"
          />
        </div>
      ))}
    </section>
  );
}
