/**
 * Background workers over a queue kept in the database (the scanner's, the dataset viewer's): each worker
 * takes one item at a time; when nothing is left it sleeps for `pollMs` (another replica may queue work)
 * unless `kick()` says this process queued some.
 */
export interface WorkerPool {
  /** Starts `concurrency` workers; a second call while they run does nothing. */
  start(): void;
  /** Wakes sleeping workers: work was just queued here, or the pool is stopping. */
  kick(): void;
  /** Stops taking work and waits for the items under way to end. */
  stop(): Promise<void>;
  readonly running: boolean;
}

export interface WorkerPoolOptions {
  concurrency: number;
  pollMs: number;
  /** Takes and handles one item; false when there was nothing to take. */
  workOne: () => Promise<boolean>;
  /** A failure of `workOne` itself (its own item's failures are its business): logged, then the worker polls. */
  onError: (error: unknown) => void;
}

export function createWorkerPool(options: WorkerPoolOptions): WorkerPool {
  let running = false;
  let wake: (() => void) | undefined;
  const workers: Promise<void>[] = [];

  function kick(): void {
    const current = wake;
    wake = undefined;
    current?.();
  }

  function sleep(): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, options.pollMs);
      timer.unref();
      // Several workers may sleep at once: one kick wakes them all.
      const previous = wake;
      wake = () => {
        clearTimeout(timer);
        previous?.();
        resolve();
      };
    });
  }

  async function workerLoop(): Promise<void> {
    while (running) {
      const worked = await options.workOne().catch((error: unknown) => {
        options.onError(error);
        return false;
      });
      if (!worked && running) await sleep();
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      for (let index = 0; index < Math.max(1, options.concurrency); index++) workers.push(workerLoop());
    },
    kick,
    async stop() {
      running = false;
      kick();
      await Promise.all(workers.splice(0));
    },
    get running() {
      return running;
    },
  };
}
