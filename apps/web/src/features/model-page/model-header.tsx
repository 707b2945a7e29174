import { useQuery } from "@tanstack/react-query";
import { memo, useMemo } from "react";
import { Link } from "react-router";
import { RepoHeader } from "../../components/repo/repo-header.js";
import type { ModelInfo } from "../../lib/api/models.js";
import { repoFilesInfoQuery } from "../../lib/api/repo-files.js";
import { taskLabel } from "../../lib/task-labels.js";
import { DemoCopyNote } from "./demo-copy-note.js";
import { UseThisModelMenu } from "./use-this-model-menu.js";

const MAX_TAGS = 12;

/** The shared repository header with what a model adds: task, library, tags, "Use this model". */
export const ModelHeader = memo(function ModelHeader({ model }: { model: ModelInfo }) {
  const repo = useMemo(() => ({ type: "model" as const, id: model.id }), [model.id]);
  // The repository's own record (shared with the sidebar's file sizes: one request) says whether it mirrors
  // an upstream hub; a catalogue record without a repository has none.
  const mirror = useQuery({
    ...repoFilesInfoQuery(repo),
    select: (info) => info.mirror,
    enabled: Boolean(model.sha),
  }).data;
  // A demo copy (issue 38): said so, with huggingface.co's figures labelled as that site's.
  const demoCopy = useQuery({
    ...repoFilesInfoQuery(repo),
    select: (info) => info.demoCopy,
    enabled: Boolean(model.sha),
  }).data;
  const tags = model.tags.filter((tag) => tag !== model.pipeline_tag && tag !== model.library_name);
  return (
    <RepoHeader
      repo={repo}
      private={model.private}
      gated={model.gated}
      mirror={mirror}
      downloads={model.downloads}
      likes={model.likes}
      hasCommits={Boolean(model.sha)}
      actions={<UseThisModelMenu model={model} />}
      facts={
        <>
          {model.pipeline_tag ? (
            <div className="flex items-center gap-1">
              <dt className="sr-only">Task</dt>
              <dd>
                <Link
                  to={`/models?task=${model.pipeline_tag}`}
                  className="rounded-full bg-accent-soft px-2.5 py-0.5 text-xs font-medium text-accent"
                >
                  {taskLabel(model.pipeline_tag)}
                </Link>
              </dd>
            </div>
          ) : null}
          {model.library_name ? (
            <div className="flex items-center gap-1">
              <dt className="sr-only">Library</dt>
              <dd>
                <Link
                  to={`/models?library=${encodeURIComponent(model.library_name)}`}
                  className="rounded-full border border-line px-2.5 py-0.5 text-xs font-medium"
                >
                  {model.library_name}
                </Link>
              </dd>
            </div>
          ) : null}
        </>
      }
    >
      {demoCopy ? <DemoCopyNote demoCopy={demoCopy} /> : null}
      {tags.length > 0 ? (
        <ul aria-label="Tags" className="flex flex-wrap gap-1.5">
          {tags.slice(0, MAX_TAGS).map((tag) => (
            <li key={tag} className="rounded border border-line bg-raised px-1.5 py-0.5 text-xs text-muted">
              {tag}
            </li>
          ))}
          {tags.length > MAX_TAGS ? (
            <li className="px-1.5 py-0.5 text-xs text-muted">+{tags.length - MAX_TAGS} more</li>
          ) : null}
        </ul>
      ) : null}
    </RepoHeader>
  );
});
