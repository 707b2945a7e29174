declare module "jsfive" {
  /** An HDF5 file read from a buffer (only what the Keras scanner uses). */
  export class File {
    constructor(buffer: ArrayBuffer, filename?: string);
    /** The root group's attributes, decoded (strings for string attributes). */
    readonly attrs: Record<string, unknown>;
  }
}
