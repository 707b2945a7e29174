import { memo, useMemo } from "react";
import { type ExtraTab, RepoTabs } from "../../components/repo/repo-tabs.js";
import type { ModelInfo } from "../../lib/api/models.js";
import { hasChatTemplate } from "../../lib/chat-template-source.js";
import { useOwnProviders } from "./use-own-providers.js";

/** Sections of a model page: the shared repository tabs and the model's own; each has its own URL. */
export const ModelNav = memo(function ModelNav({ model }: { model: ModelInfo }) {
  const own = useOwnProviders(model.id);
  const hasProviders = model.inferenceProviderMapping.length > 0 || own.length > 0;
  const extra = useMemo(() => {
    const tabs: ExtraTab[] = [];
    if (model.library_name) {
      tabs.push({ label: "Library", section: `libraries/${encodeURIComponent(model.library_name)}` });
    }
    tabs.push({ label: "Local apps", section: "local-apps" });
    if (hasProviders) {
      tabs.push({ label: "Inference", section: "inference" }, { label: "Playground", section: "playground" });
    }
    if (hasChatTemplate(model)) tabs.push({ label: "Chat template", section: "chat-template" });
    return tabs;
  }, [model, hasProviders]);
  const repo = useMemo(() => ({ type: "model" as const, id: model.id }), [model.id]);
  return <RepoTabs repo={repo} extra={extra} />;
});
