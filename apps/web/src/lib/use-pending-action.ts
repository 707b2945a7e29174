import { useState } from "react";

/**
 * One action at a time behind a form or a button: `busy` while it runs, `error` the message of its failure
 * (cleared when the next one starts).
 */
export function usePendingAction(initialError: string | null = null) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(initialError);
  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}
