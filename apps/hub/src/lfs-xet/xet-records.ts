/** A Xet file as the domain speaks of it (the CAS service reads it; xet-table.ts stores it). */
export interface XetTermRow {
  xorb: string;
  start: number;
  end: number;
  size: number;
}

export interface XetFileRow {
  hash: string;
  sha256: string | undefined;
  size: number;
  terms: XetTermRow[];
}
