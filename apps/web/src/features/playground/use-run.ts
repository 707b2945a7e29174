import { type FormEvent, useCallback, useEffect, useRef, useState } from "react";
import { errorMessage, isAbort } from "./playground-client.js";

export type RunOutcome = { status: "done" | "stopped" | "busy" } | { status: "failed"; error: string };

export interface RunState {
  running: boolean;
  /** The last run's failure, in the client's words; undefined after a success or a stop. */
  error: string | undefined;
  /**
   * Starts `work` with a fresh abort signal unless a run is under way (then "busy"). Resolves to how it
   * ended: done, stopped (the reader pressed Stop) or failed with the reason (also kept in `error`);
   * never rejects.
   */
  run(work: (signal: AbortSignal) => Promise<void>): Promise<RunOutcome>;
  stop(): void;
  setError(message: string | undefined): void;
}

/** The run / stop / error logic every playground shares: one call at a time, abortable, its failure kept. */
export function useRun(): RunState {
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string>();
  const controller = useRef<AbortController | null>(null);
  // A call still running when the playground goes away (provider change, navigation) is cancelled.
  useEffect(() => () => controller.current?.abort(), []);

  const run = useCallback(async (work: (signal: AbortSignal) => Promise<void>): Promise<RunOutcome> => {
    if (controller.current) return { status: "busy" };
    const abort = new AbortController();
    controller.current = abort;
    setRunning(true);
    setError(undefined);
    try {
      await work(abort.signal);
      return { status: "done" };
    } catch (caught) {
      if (abort.signal.aborted || isAbort(caught)) return { status: "stopped" };
      const message = errorMessage(caught);
      setError(message);
      return { status: "failed", error: message };
    } finally {
      controller.current = null;
      setRunning(false);
    }
  }, []);

  const stop = useCallback(() => controller.current?.abort(), []);
  return { running, error, run, stop, setError };
}

/** A playground form's onSubmit: it starts `action` (a run) and keeps the page where it is. */
export function submitTo(action: () => unknown) {
  return (event: FormEvent) => {
    event.preventDefault();
    void action();
  };
}
