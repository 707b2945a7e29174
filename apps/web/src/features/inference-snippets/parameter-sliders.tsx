import { memo } from "react";
import { Slider } from "../../components/ui/slider.js";
import { PARAMETER_NAMES, PARAMETERS, type ParameterName, parameterDisplay } from "./panel-state.js";

interface ParameterSlidersProps {
  values: Partial<Record<ParameterName, number>>;
  onChange: (name: ParameterName, value: number | undefined) => void;
}

/**
 * A parameter is unset until the reader moves its slider or switches it on: absent from the code, or sent
 * with its default (max tokens), which the panel then shows.
 */
export const ParameterSliders = memo(function ParameterSliders({ values, onChange }: ParameterSlidersProps) {
  return (
    <fieldset className="grid grid-cols-1 gap-4 sm:grid-cols-3">
      <legend className="sr-only">Generation parameters</legend>
      {PARAMETER_NAMES.map((name) => {
        const spec = PARAMETERS[name];
        const value = values[name];
        const isSet = value !== undefined;
        const checkboxId = `param-${name}-set`;
        return (
          <div key={name} className="flex flex-col gap-1.5">
            <div className="flex items-center justify-between gap-2 text-xs font-medium">
              <span className="flex items-center gap-1.5">
                <input
                  id={checkboxId}
                  type="checkbox"
                  checked={isSet}
                  onChange={(event) => onChange(name, event.target.checked ? spec.initial : undefined)}
                  className="accent-accent"
                />
                <label htmlFor={checkboxId}>Set {spec.label.toLowerCase()}</label>
              </span>
              <span className="font-mono text-muted" data-testid={`param-${name}-value`}>
                {parameterDisplay(name, value)}
              </span>
            </div>
            <div className={isSet ? "" : "opacity-50"}>
              <Slider
                label={spec.label}
                value={value ?? spec.initial}
                min={spec.min}
                max={spec.max}
                step={spec.step}
                onValueChange={(next) => onChange(name, next)}
                format={(current) => (isSet ? String(current) : parameterDisplay(name, undefined))}
                testId={`param-${name}`}
              />
            </div>
          </div>
        );
      })}
    </fieldset>
  );
});
