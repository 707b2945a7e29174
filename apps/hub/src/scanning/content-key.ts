/**
 * The unit the queue scans once: a content (its sha256) under one name class. The dispatcher chooses scanners
 * by the file's name (`.pt` is read as a PyTorch archive, `.txt` for secrets), so the same bytes under another
 * extension may be read by other scanners; under the same extension they are read alike, whatever the path or
 * repository (docs/decisions/scanning.md).
 */

/** The lowercase extension (`model.PT` -> `pt`, `.env` -> `env`), or `name:` and the base name when none. */
export function nameClass(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  const dot = base.lastIndexOf(".");
  return dot >= 0 ? base.slice(dot + 1) : `name:${base}`;
}

export function contentKey(sha256: string, path: string): string {
  return `${sha256}:${nameClass(path)}`;
}
