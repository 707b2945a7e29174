import type { ReactNode } from "react";
import { Link } from "react-router";
import { DisclosureMenu } from "../../components/ui/disclosure-menu.js";
import type { ModelInfo } from "../../lib/api/models.js";
import { modelUrl } from "../../lib/model-url.js";
import { providerLabel } from "../../lib/providers.js";
import { ownProviderLabel, useOwnProviders } from "./use-own-providers.js";

function MenuLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link
      to={to}
      className="flex items-center justify-between gap-2 rounded px-2 py-1.5 text-sm hover:bg-accent-soft"
    >
      {children}
    </Link>
  );
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mb-2">
      <h2 className="px-2 pb-1 text-xs font-semibold uppercase tracking-wide text-muted">{title}</h2>
      <ul>{children}</ul>
    </section>
  );
}

/** "Use this model": every way to use it, each choice a link with its own URL. */
export function UseThisModelMenu({ model }: { model: ModelInfo }) {
  const base = modelUrl(model.id);
  const own = useOwnProviders(model.id);
  return (
    <DisclosureMenu summary="Use this model">
      <nav aria-label="Ways to use this model">
        <Group title="Libraries">
          {model.library_name ? (
            <li>
              <MenuLink to={`${base}/libraries/${encodeURIComponent(model.library_name)}`}>
                {model.library_name}
              </MenuLink>
            </li>
          ) : (
            <li className="px-2 py-1.5 text-sm text-muted">No library declared</li>
          )}
        </Group>
        <Group title="Local apps">
          <li>
            <MenuLink to={`${base}/local-apps`}>Run on your machine</MenuLink>
          </li>
        </Group>
        <Group title="Inference providers">
          {model.inferenceProviderMapping.length === 0 && own.length === 0 ? (
            <li className="px-2 py-1.5 text-sm text-muted">No provider serves this model</li>
          ) : (
            model.inferenceProviderMapping.map((mapping) => (
              <li key={mapping.provider}>
                <MenuLink to={`${base}/inference?provider=${encodeURIComponent(mapping.provider)}`}>
                  <span>{providerLabel(mapping.provider)}</span>
                  {mapping.status === "staging" ? (
                    <span className="rounded bg-warn-soft px-1.5 text-xs text-warn">staging</span>
                  ) : null}
                </MenuLink>
              </li>
            ))
          )}
          {own.map((entry) => (
            <li key={entry.provider}>
              <MenuLink to={`${base}/inference?provider=${encodeURIComponent(entry.provider)}`}>
                <span className="break-all">{ownProviderLabel(entry)}</span>
              </MenuLink>
            </li>
          ))}
        </Group>
      </nav>
    </DisclosureMenu>
  );
}
