import { useEffect, useState } from "react";

/** What provider-sim writes into every media file it makes (a PNG text chunk, MP4 metadata, a WAV tag). */
export const SIMULATOR_MARK = "modelhub provider-sim";

/** Whether a result was made by the hub's built-in simulator rather than a real provider. */
export async function isSimulatorOutput(blob: Blob): Promise<boolean> {
  const head = new Uint8Array(await blob.slice(0, 64 * 1024).arrayBuffer());
  return new TextDecoder("latin1").decode(head).includes(SIMULATOR_MARK);
}

/** A badge on a result the simulator made, so nobody takes it for a model's output. */
export function SimulatorBadge({ blob }: { blob: Blob }) {
  const [simulated, setSimulated] = useState(false);
  useEffect(() => {
    let live = true;
    void isSimulatorOutput(blob).then((value) => live && setSimulated(value));
    return () => {
      live = false;
    };
  }, [blob]);
  return simulated ? <SimulatorLabel /> : null;
}

/** The badge itself, for a result known to be the simulator's. */
export function SimulatorLabel() {
  return (
    <span
      data-testid="simulator-badge"
      className="inline-flex w-fit items-center rounded-full bg-warn-soft px-2 py-0.5 text-xs font-medium text-warn"
    >
      From the built-in simulator, not a real model
    </span>
  );
}
