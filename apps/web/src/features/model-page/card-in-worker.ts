import {
  type CardRequest,
  type CardTree,
  type CardWorkerMessage,
  MAX_CARD_CHARACTERS,
} from "./card-protocol.js";

/**
 * How long the worker may spend on one card. Some inputs take the parser minutes (tens of thousands of
 * nested emphasis marks): past this the worker is stopped and the card is shown as plain text. The clock runs
 * from when the worker's code is loaded (its ready message), not from its start: on a slow connection or
 * CPU, loading the parser alone can take longer than this.
 */
export const CARD_TIME_LIMIT_MS = 3000;

interface Waiting {
  source: string;
  resolve: (tree: CardTree) => void;
  reject: (error: Error) => void;
  timer?: ReturnType<typeof setTimeout>;
}

let worker: Worker | undefined;
/** The current worker has loaded its code (it posted CardWorkerReady): cards sent to it can be timed. */
let workerReady = false;
let nextId = 0;
const pending = new Map<number, Waiting>();

const plainText = (source: string): CardTree => ({
  tree: { type: "root", children: [] },
  cut: source.length > MAX_CARD_CHARACTERS,
  plainText: source.slice(0, MAX_CARD_CHARACTERS),
});

function stopWorker(): void {
  worker?.terminate();
  worker = undefined;
  workerReady = false;
}

function cardWorker(): Worker {
  if (worker) return worker;
  worker = new Worker(new URL("./card-worker.ts", import.meta.url), { type: "module", name: "model-card" });
  worker.onmessage = (event: MessageEvent<CardWorkerMessage>) => {
    const reply = event.data;
    if ("ready" in reply) {
      workerReady = true;
      armOldest();
      return;
    }
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    clearTimeout(waiting.timer);
    if ("error" in reply) waiting.reject(new Error(`The card could not be rendered: ${reply.error}`));
    else waiting.resolve({ tree: reply.tree, cut: reply.cut, plainText: reply.plainText });
  };
  worker.onerror = (event) => {
    // A worker that failed to start or crashed answers nothing more: fail what waits, start afresh next time.
    for (const waiting of pending.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(new Error(`The card could not be rendered: ${event.message}`));
    }
    pending.clear();
    stopWorker();
  };
  return worker;
}

function send(id: number, waiting: Waiting): void {
  // The clock starts when the worker is free to take this card (it answers in order).
  const request: CardRequest = { id, source: waiting.source };
  cardWorker().postMessage(request);
}

/** Starts the time limit of the oldest waiting card: the one the worker is parsing now (once it can parse). */
function armOldest(): void {
  if (!workerReady) return;
  const [id, oldest] = pending.entries().next().value ?? [];
  if (id === undefined || !oldest || oldest.timer) return;
  oldest.timer = setTimeout(() => {
    pending.delete(id);
    stopWorker();
    oldest.resolve(plainText(oldest.source));
    // The cards queued behind it go to a fresh worker.
    for (const [otherId, other] of pending) send(otherId, other);
    armOldest();
  }, CARD_TIME_LIMIT_MS);
}

function parseInWorker(source: string): Promise<CardTree> {
  const id = ++nextId;
  return new Promise<CardTree>((resolve, reject) => {
    const waiting: Waiting = { source, resolve, reject };
    pending.set(id, waiting);
    send(id, waiting);
    armOldest();
  }).finally(armOldest);
}

/**
 * Cards asked for lately, by source, with their tree once it is here: the model route's loader asks for the
 * card as soon as the model info arrives, while the page's code still loads, and the page then finds it.
 */
const recent = new Map<string, { tree: Promise<CardTree>; settled?: CardTree }>();
const RECENT_CARDS = 4;

/**
 * The card's sanitized tree, parsed in a shared worker (cards answered in turn). A card the parser cannot
 * finish within CARD_TIME_LIMIT_MS comes back as plain text, and the worker is replaced.
 */
export function cardTreeInWorker(source: string): Promise<CardTree> {
  const known = recent.get(source);
  if (known) return known.tree;
  const entry: { tree: Promise<CardTree>; settled?: CardTree } = { tree: parseInWorker(source) };
  entry.tree.then(
    (tree) => {
      entry.settled = tree;
    },
    // A crashed worker's failure is not kept: the next ask starts a fresh one.
    () => recent.get(source) === entry && recent.delete(source),
  );
  recent.set(source, entry);
  for (const oldest of recent.keys()) {
    if (recent.size <= RECENT_CARDS) break;
    recent.delete(oldest);
  }
  return entry.tree;
}

/** The card's tree when it was parsed already (cardTreeInWorker), so the page shows it in its first render. */
export function parsedCardTree(source: string): CardTree | undefined {
  return recent.get(source)?.settled;
}

/**
 * Starts the worker before there is a card for it: fetching and evaluating its code (the Markdown parser)
 * then overlaps the model info's request and the page's code instead of following them.
 */
export function warmCardWorker(): void {
  cardWorker();
}
