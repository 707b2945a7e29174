import { useQuery } from "@tanstack/react-query";
import { memo } from "react";
import { NavLink, useLocation } from "react-router";
import type { ModelInfo } from "../../lib/api/models.js";
import { canWrite, viewerQuery } from "../../lib/api/session.js";
import { hasChatTemplate } from "../../lib/chat-template-source.js";
import { modelUrl } from "../../lib/model-url.js";

const tabClass = ({ isActive }: { isActive: boolean }) =>
  `-mb-px block whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium ${
    isActive ? "border-accent text-ink" : "border-transparent text-muted hover:text-ink"
  }`;

// The files tab stays current on every files view: a file, a folder, the history, a commit.
const FILES_SECTION = /\/(tree|blob|commits|commit|upload|new|edit)\//;

/** Sections of a model page; each has its own URL. */
export const ModelNav = memo(function ModelNav({ model }: { model: ModelInfo }) {
  const base = modelUrl(model.id);
  const inFiles = FILES_SECTION.test(useLocation().pathname);
  const viewer = useQuery(viewerQuery());
  const hasProviders = model.inferenceProviderMapping.length > 0;
  return (
    <nav aria-label="Model sections" className="overflow-x-auto">
      <ul className="flex border-b border-line">
        <li>
          <NavLink end to={base} className={tabClass}>
            Model card
          </NavLink>
        </li>
        <li>
          <NavLink
            to={`${base}/tree/main`}
            className={({ isActive }) => tabClass({ isActive: isActive || inFiles })}
          >
            Files and versions
          </NavLink>
        </li>
        <li>
          <NavLink to={`${base}/discussions`} className={tabClass}>
            Community
          </NavLink>
        </li>
        {model.library_name ? (
          <li>
            <NavLink to={`${base}/libraries/${encodeURIComponent(model.library_name)}`} className={tabClass}>
              Library
            </NavLink>
          </li>
        ) : null}
        <li>
          <NavLink to={`${base}/local-apps`} className={tabClass}>
            Local apps
          </NavLink>
        </li>
        {hasProviders ? (
          <li>
            <NavLink to={`${base}/inference`} className={tabClass}>
              Inference
            </NavLink>
          </li>
        ) : null}
        {hasProviders ? (
          <li>
            <NavLink to={`${base}/playground`} className={tabClass}>
              Playground
            </NavLink>
          </li>
        ) : null}
        {hasChatTemplate(model) ? (
          <li>
            <NavLink to={`${base}/chat-template`} className={tabClass}>
              Chat template
            </NavLink>
          </li>
        ) : null}
        {canWrite(viewer.data, model.id) ? (
          <li>
            <NavLink to={`${base}/settings`} className={tabClass}>
              Settings
            </NavLink>
          </li>
        ) : null}
      </ul>
    </nav>
  );
});
