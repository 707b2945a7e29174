import { useState } from "react";

/** Runs one settings action at a time, with its error and a success message for the status line. */
export function useRepoAction() {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const run = async (action: () => Promise<unknown>, success: string) => {
    setBusy(true);
    setMessage(null);
    try {
      await action();
      setMessage({ kind: "ok", text: success });
    } catch (caught) {
      setMessage({ kind: "error", text: caught instanceof Error ? caught.message : String(caught) });
    } finally {
      setBusy(false);
    }
  };
  return { busy, message, run };
}
