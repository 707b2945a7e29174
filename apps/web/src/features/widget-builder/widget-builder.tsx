import {
  buildEmbedCode,
  parseWidgetOptions,
  WIDGET_OPTION_NAMES,
  type WidgetOptions,
} from "@modelhub/widget";
import { useMemo } from "react";
import { useSearchParams } from "react-router";
import { CodeBlock } from "../../components/ui/code-block.js";
import { writeBuilderOptions } from "./builder-state.js";
import { OptionField } from "./option-field.js";
import { WidgetPreview } from "./widget-preview.js";

type Name = keyof WidgetOptions;

const GROUPS: Array<{ title: string; names: Name[] }> = [
  { title: "Appearance", names: ["theme", "title", "direction", "maxProducts", "maxColumns"] },
  { title: "Products", names: ["permanent", "owned"] },
  { title: "Layout", names: ["noBorder", "noShadow", "noTitle", "noCredits", "noPadding", "openSelf"] },
  { title: "Embedding and development", names: ["container", "version", "debug", "devMode", "hub"] },
];

// Any option the widget adds later still gets a control.
const GROUPED = new Set(GROUPS.flatMap((group) => group.names));
const UNGROUPED = WIDGET_OPTION_NAMES.filter((name) => !GROUPED.has(name));
const ALL_GROUPS = UNGROUPED.length ? [...GROUPS, { title: "More", names: UNGROUPED }] : GROUPS;

/** Every option of the "Top products" widget, a live preview and the embed code to copy. */
export function WidgetBuilder({ hubUrl }: { hubUrl: string }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const { options, warnings } = useMemo(() => parseWidgetOptions(searchParams), [searchParams]);
  const embedCode = useMemo(() => buildEmbedCode(options, hubUrl), [options, hubUrl]);

  // Each change starts from the URL as it is now, not as this render saw it: two changes in one event
  // loop turn (a text field's last keystroke, then a checkbox click) both land.
  const change = <K extends Name>(name: K, value: WidgetOptions[K]) => {
    setSearchParams(
      (current) => writeBuilderOptions({ ...parseWidgetOptions(current).options, [name]: value }),
      // Synchronous: a slider's next key step reads the value this one wrote.
      { replace: true, flushSync: true },
    );
  };

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[22rem_1fr]">
      <form
        aria-label="Widget options"
        className="flex flex-col gap-5"
        onSubmit={(event) => event.preventDefault()}
      >
        {ALL_GROUPS.map((group) => (
          <fieldset
            key={group.title}
            className="flex flex-col gap-3 rounded-lg border border-line bg-surface p-4"
          >
            <legend className="px-1 text-sm font-semibold">{group.title}</legend>
            {group.names.map((name) => (
              <OptionField
                key={name}
                name={name}
                value={options[name]}
                onChange={(value) => change(name, value)}
              />
            ))}
          </fieldset>
        ))}
      </form>
      <div className="flex min-w-0 flex-col gap-4">
        <section aria-labelledby="preview-heading" className="flex flex-col gap-2">
          <h2 id="preview-heading" className="text-lg font-semibold">
            Live preview
          </h2>
          {warnings.length > 0 ? (
            <ul role="status" className="rounded-md bg-warn-soft p-3 text-sm text-warn">
              {warnings.map((warning) => (
                <li key={warning}>{warning}</li>
              ))}
            </ul>
          ) : null}
          <WidgetPreview embedCode={embedCode} />
        </section>
        <section aria-labelledby="embed-heading" className="flex flex-col gap-2">
          <h2 id="embed-heading" className="text-lg font-semibold">
            Embed code
          </h2>
          <p className="text-sm text-muted">Paste this where the widget should appear on your page.</p>
          <CodeBlock code={embedCode} label="Widget embed code" wrap testId="embed-code" />
        </section>
      </div>
    </div>
  );
}
