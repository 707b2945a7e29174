import { Readable } from "node:stream";
import yauzl from "yauzl";
import type { ScanSource } from "./scan-report.js";

/**
 * Zip archives read through yauzl by byte range from a ScanSource: the central directory and each member's
 * local header are read where they are, so a 2 GiB PyTorch archive costs the reads of its pickle members,
 * not of its tensor data.
 */

class SourceRangeReader extends yauzl.RandomAccessReader {
  constructor(private readonly source: ScanSource) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    // yauzl's end is exclusive, ScanSource's inclusive.
    if (end <= start) return Readable.from([]);
    return this.source.open({ start, end: end - 1 });
  }
}

export interface ZipMember {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
  compressionMethod: number;
  open(): Promise<Readable>;
}

export class ZipArchive {
  private constructor(private readonly zip: yauzl.ZipFile) {}

  static async open(source: ScanSource): Promise<ZipArchive> {
    const reader = new SourceRangeReader(source);
    const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.fromRandomAccessReader(
        reader,
        source.size,
        // Sizes are not cross-checked: torch does not check them either (an "encrypted" stored member's
        // sizes differ by design), and members are streamed, so a lying size cannot exhaust memory.
        { lazyEntries: true, autoClose: false, validateEntrySizes: false, strictFileNames: false },
        (error, zipFile) => (error ? reject(error) : resolve(zipFile)),
      ),
    );
    return new ZipArchive(zip);
  }

  get entryCount(): number {
    return this.zip.entryCount;
  }

  /** The members in central-directory order (duplicates included: each one is a member a reader may pick). */
  async *members(): AsyncGenerator<ZipMember> {
    const zip = this.zip;
    for (;;) {
      const entry = await new Promise<yauzl.Entry | undefined>((resolve, reject) => {
        const onEntry = (found: yauzl.Entry) => {
          cleanup();
          resolve(found);
        };
        const onEnd = () => {
          cleanup();
          resolve(undefined);
        };
        const onError = (error: Error) => {
          cleanup();
          reject(error);
        };
        const cleanup = () => {
          zip.off("entry", onEntry);
          zip.off("end", onEnd);
          zip.off("error", onError);
        };
        zip.on("entry", onEntry);
        zip.on("end", onEnd);
        zip.on("error", onError);
        zip.readEntry();
      });
      if (!entry) return;
      if (entry.fileName.endsWith("/")) continue;
      yield {
        name: entry.fileName,
        compressedSize: entry.compressedSize,
        uncompressedSize: entry.uncompressedSize,
        compressionMethod: entry.compressionMethod,
        open: () => this.openMember(entry),
      };
    }
  }

  /**
   * Opens a member's data. The "encrypted" flag is ignored as PyTorch's reader ignores it (a scanner that
   * refuses such members is bypassed: picklescan GHSA-w8jq-xcqf-f792); stored and deflated data only.
   */
  private async openMember(entry: yauzl.Entry): Promise<Readable> {
    if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
      throw new Error(`member compressed with zip method ${entry.compressionMethod}, which is not read`);
    }
    const header = await new Promise<{ fileDataStart: number }>((resolve, reject) =>
      this.zip.readLocalFileHeader(entry, { minimal: true }, (error, found) =>
        error ? reject(error) : resolve(found),
      ),
    );
    return new Promise<Readable>((resolve, reject) =>
      this.zip.openReadStreamLowLevel(
        header.fileDataStart,
        entry.compressedSize,
        0,
        entry.compressedSize,
        entry.compressionMethod === 8,
        entry.uncompressedSize,
        (error, stream) => (error ? reject(error) : resolve(stream)),
      ),
    );
  }

  close(): void {
    this.zip.close();
  }
}
