import * as RadixSlider from "@radix-ui/react-slider";
import { memo } from "react";

interface SliderProps {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onValueChange: (value: number) => void;
  /** How the value reads next to the label. */
  format?: (value: number) => string;
  testId?: string;
}

/** A labelled Radix slider with its value shown; arrow keys, Page Up/Down, Home and End move it. */
export const Slider = memo(function Slider({
  label,
  value,
  min,
  max,
  step,
  onValueChange,
  format = String,
  testId,
}: SliderProps) {
  return (
    <RadixSlider.Root
      value={[value]}
      min={min}
      max={max}
      step={step}
      onValueChange={([next]) => next !== undefined && onValueChange(next)}
      className="relative flex h-5 w-full touch-none select-none items-center"
    >
      <RadixSlider.Track className="relative h-1.5 grow rounded-full bg-raised">
        <RadixSlider.Range className="absolute h-full rounded-full bg-accent" />
      </RadixSlider.Track>
      <RadixSlider.Thumb
        aria-label={label}
        aria-valuetext={format(value)}
        data-testid={testId}
        className="block size-4 rounded-full border-2 border-accent bg-surface shadow focus-visible:ring-2 focus-visible:ring-accent"
      />
    </RadixSlider.Root>
  );
});
