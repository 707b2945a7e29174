/** A file that is not a whole Arrow IPC stream or file (truncated, or something else): the data's error. */
export class ArrowFileError extends Error {
  override name = "ArrowFileError";
}
