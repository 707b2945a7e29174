import * as RadixTabs from "@radix-ui/react-tabs";
import type { ReactNode } from "react";

interface TabsProps {
  label: string;
  value: string;
  tabs: ReadonlyArray<{ value: string; label: string }>;
  onValueChange: (value: string) => void;
  children: ReactNode;
}

/** Radix tabs (arrow keys move between tabs); `children` is the one panel of the selected tab. */
export function Tabs({ label, value, tabs, onValueChange, children }: TabsProps) {
  return (
    <RadixTabs.Root value={value} onValueChange={onValueChange} activationMode="automatic">
      <RadixTabs.List aria-label={label} className="flex gap-1 border-b border-line">
        {tabs.map((tab) => (
          <RadixTabs.Trigger
            key={tab.value}
            value={tab.value}
            className="-mb-px border-b-2 border-transparent px-3 py-2 text-sm font-medium text-muted hover:text-ink data-[state=active]:border-accent data-[state=active]:text-ink"
          >
            {tab.label}
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      <RadixTabs.Content value={value} className="pt-3 outline-none">
        {children}
      </RadixTabs.Content>
    </RadixTabs.Root>
  );
}
