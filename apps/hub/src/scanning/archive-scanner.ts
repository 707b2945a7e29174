import { ByteReader } from "./byte-reader.js";
import { scanNpy } from "./numpy-scanner.js";
import {
  extensionOf,
  isZipHead,
  looksLikePickle,
  PICKLE_EXTENSIONS,
  scanPickleStream,
} from "./pickle-scanner.js";
import type { ContentScanner, ScannerOutcome } from "./scan-report.js";
import { ZipArchive, type ZipMember } from "./zip-source.js";

/**
 * Zip archives: PyTorch's format (torch.save since 1.6: archive/data.pkl, archive/data/<storage>, byteorder,
 * version...), numpy's .npz (one .npy per array) and any other zip. Every member a loader could unpickle is
 * scanned whatever its name (a pickle named data.txt was a picklescan bypass, GHSA-769v-p64c-89pr): members
 * with a pickle or .npy name, and members whose first bytes are a pickle or a .npy. Tensor storages are raw
 * bytes torch never unpickles: one that happens to start like a pickle is read, but not being one is fine.
 */

const MAX_MEMBERS = 100_000;
const SNIFF_BYTES = 64;
/** torch.save's tensor storages: "<archive>/data/<key>" (raw bytes, never unpickled). */
const STORAGE_MEMBER = /(^|\/)data\/\d+$/;

export const archiveScanner: ContentScanner = {
  id: "archive",
  appliesTo(_path, head) {
    return isZipHead(head);
  },
  async scan(source) {
    let archive: ZipArchive;
    try {
      archive = await ZipArchive.open(source);
    } catch (error) {
      return { findings: [], couldNotScan: `malformed zip archive: ${(error as Error).message}` };
    }
    try {
      if (archive.entryCount > MAX_MEMBERS) {
        return {
          findings: [],
          couldNotScan: `zip archive of ${archive.entryCount} members is over the ${MAX_MEMBERS} limit`,
        };
      }
      const outcome: ScannerOutcome = { pickleImports: [], findings: [] };
      for await (const member of archive.members()) {
        const memberOutcome = await scanMember(member);
        if (!memberOutcome) continue;
        outcome.pickleImports!.push(...(memberOutcome.pickleImports ?? []));
        outcome.findings.push(...memberOutcome.findings);
        if (memberOutcome.couldNotScan && !outcome.couldNotScan)
          outcome.couldNotScan = memberOutcome.couldNotScan;
      }
      return outcome;
    } catch (error) {
      return { findings: [], couldNotScan: `malformed zip archive: ${(error as Error).message}` };
    } finally {
      archive.close();
    }
  },
};

async function sniff(member: ZipMember): Promise<Buffer> {
  const reader = ByteReader.fromStream(await member.open());
  try {
    await reader.ensure(Math.min(SNIFF_BYTES, member.uncompressedSize));
    return Buffer.from(reader.take(Math.min(SNIFF_BYTES, reader.available())));
  } finally {
    await reader.close();
  }
}

/** Scans one member, or undefined when it is neither a pickle nor a .npy. */
async function scanMember(member: ZipMember): Promise<ScannerOutcome | undefined> {
  const extension = extensionOf(member.name);
  const named = PICKLE_EXTENSIONS.includes(extension) || extension === ".npy";
  let head: Buffer;
  try {
    head = member.uncompressedSize === 0 ? Buffer.alloc(0) : await sniff(member);
  } catch (error) {
    if (!named) return undefined;
    return { findings: [], couldNotScan: `${member.name}: ${(error as Error).message}` };
  }
  const open = async () => ByteReader.fromStream(await member.open());
  const isNpy = head.subarray(0, 6).toString("latin1") === "\x93NUMPY";
  if (extension === ".npy" || isNpy) return scanNpy(open, member.name);
  if (!named && !looksLikePickle(head)) return undefined;
  const outcome = await scanPickleStream(open, { location: member.name });
  if (outcome.couldNotScan && !named && STORAGE_MEMBER.test(member.name)) {
    // Raw tensor bytes that start like a pickle: torch reads them raw, so not parsing is expected.
    delete outcome.couldNotScan;
  }
  return outcome;
}
