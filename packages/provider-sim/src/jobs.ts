/**
 * Asynchronous jobs (fal.ai queue, Replicate predictions, Black Forest Labs results, WaveSpeed, Novita
 * video) share one state machine: IN_QUEUE -> IN_PROGRESS -> COMPLETED (or FAILED). It moves one step per
 * status poll, so tests are fast and deterministic; `steps` sets how many polls a job takes.
 */

export type JobState = "IN_QUEUE" | "IN_PROGRESS" | "COMPLETED" | "FAILED";

export type JobOutcome = { kind: "succeed" } | { kind: "fail"; message: string } | { kind: "never" };

export interface Job {
  id: string;
  provider: string;
  model: string;
  input: unknown;
  /** What the job returns when it completes (provider-shaped, media URLs pointing at the sim). */
  result: unknown;
  outcome: JobOutcome;
  steps: number;
  polls: number;
  createdAt: number;
  canceled: boolean;
}

export class JobStore {
  readonly #jobs = new Map<string, Job>();
  #counter = 0;

  create(
    fields: Pick<Job, "provider" | "model" | "input" | "result" | "outcome" | "steps"> & { id?: string },
  ): Job {
    this.#counter += 1;
    const id = fields.id ?? `sim-${Date.now().toString(36)}-${this.#counter.toString(36)}`;
    const job: Job = { ...fields, id, polls: 0, createdAt: Date.now(), canceled: false };
    this.#jobs.set(id, job);
    return job;
  }

  get(id: string): Job | undefined {
    return this.#jobs.get(id);
  }

  /** The state now, without moving the job on. */
  state(job: Job): JobState {
    if (job.outcome.kind === "never") return job.polls === 0 ? "IN_QUEUE" : "IN_PROGRESS";
    if (job.polls === 0 && job.steps > 0) return "IN_QUEUE";
    if (job.polls < job.steps) return "IN_PROGRESS";
    return job.outcome.kind === "fail" || job.canceled ? "FAILED" : "COMPLETED";
  }

  /** The state a status poll reports; each poll moves the job one step on. */
  poll(job: Job): JobState {
    const state = this.state(job);
    job.polls += 1;
    return state;
  }

  /** Runs the job to its end now (Replicate's `Prefer: wait`), unless it never finishes. */
  finish(job: Job): JobState {
    job.polls = job.outcome.kind === "never" ? Math.max(job.polls, 1) : Math.max(job.polls, job.steps);
    return this.state(job);
  }

  clear(): void {
    this.#jobs.clear();
  }
}
