const MARKER = Symbol.for("@modelhub/tasks.error");

/**
 * Root of every error this package throws. The `Symbol.for` marker lets `isInstance` recognise errors
 * thrown by a second installed copy of the package, where `instanceof` would fail.
 */
export class TasksError extends Error {
  readonly [MARKER] = true;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }

  static isInstance(value: unknown): value is TasksError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}

/** A task id that is not a known pipeline type. */
export class UnknownTaskError extends TasksError {
  constructor(readonly task: string) {
    super(`Unknown task "${task}": it is not one of the pipeline types this hub knows.`);
  }
}

/** A known task for which the catalogue defines no default model (the wording follows spec §8). */
export class NoDefaultModelError extends TasksError {
  constructor(
    readonly task: string,
    readonly reason: string,
  ) {
    super(`No default model defined for task ${task}, please define the model explicitly (${reason}).`);
  }
}

/** A model whose task has no example input (the wording follows spec §8). */
export class NoInputExampleError extends TasksError {
  constructor(
    readonly modelId: string,
    readonly task: string | undefined,
  ) {
    super("No input example has been defined for this model task.");
  }
}
