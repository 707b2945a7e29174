import type { PendingFile } from "./commit-files.js";

/** Every file of a drop, folders walked recursively, with paths relative to what was dropped. */
export async function filesFromDrop(items: DataTransferItemList): Promise<PendingFile[]> {
  // Entries must be taken synchronously, before the first await: the list empties after the event.
  const entries = [...items]
    .map((item) => item.webkitGetAsEntry?.())
    .filter((entry): entry is FileSystemEntry => Boolean(entry));
  const files: PendingFile[] = [];
  for (const entry of entries) await walk(entry, files);
  return files;
}

async function walk(entry: FileSystemEntry, into: PendingFile[]): Promise<void> {
  const path = entry.fullPath.replace(/^\/+/, "");
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) =>
      (entry as FileSystemFileEntry).file(resolve, reject),
    );
    into.push({ path, file });
    return;
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries answers in batches (100 in Chromium) until it answers an empty one.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) break;
    for (const child of batch) await walk(child, into);
  }
}

/** Files chosen with an `<input type="file">`: a folder pick carries each file's relative path. */
export function filesFromInput(list: FileList): PendingFile[] {
  return [...list].map((file) => ({ path: file.webkitRelativePath || file.name, file }));
}
