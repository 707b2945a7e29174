import * as RadixPopover from "@radix-ui/react-popover";
import type { ReactNode } from "react";

interface PopoverProps {
  trigger: ReactNode;
  /** Accessible name of the dialog the popover opens. */
  label: string;
  children: ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  align?: "start" | "center" | "end";
}

/** A Radix popover; `trigger` must be a single focusable element (it is used as the trigger). */
export function Popover({ trigger, label, children, open, onOpenChange, align = "end" }: PopoverProps) {
  return (
    <RadixPopover.Root open={open} onOpenChange={onOpenChange}>
      <RadixPopover.Trigger asChild>{trigger}</RadixPopover.Trigger>
      <RadixPopover.Portal>
        <RadixPopover.Content
          aria-label={label}
          align={align}
          sideOffset={6}
          collisionPadding={8}
          className="z-50 max-h-(--radix-popover-content-available-height) w-80 max-w-[calc(100vw-1rem)] overflow-auto rounded-lg border border-line bg-surface p-3 text-ink shadow-xl"
        >
          {children}
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
}

export const PopoverClose = RadixPopover.Close;
