/**
 * `\N{NAME}` in string literals, as Python's unicode-escape codec (which Jinja2 uses) decodes it: names are
 * matched without regard to case, aliases included. CJK unified ideographs and Hangul syllables are
 * computed here; every other name is in unicode-names.json (~1 MB, made by scripts/make-unicode-names.py),
 * which is never part of the engine's bundle: it is read only when a template names such a character,
 * synchronously from the package's files under Node, or installed beforehand with
 * `installUnicodeNames()` from "@modelhub/jinja/unicode-names" (a bundler makes that a chunk of its own).
 */

export interface UnicodeNameData {
  unicode: string;
  /** One name a line in code point order; `HEX:NAME` when the code point is not the previous one's + 1. */
  names: string;
}

/** An escape Python's codec refuses (the lexer makes it a TemplateSyntaxError, as Jinja2 does). */
export class EscapeError extends Error {}

let table: Map<string, number> | null = null;

/** Makes `data` the table `\N{...}` looks names up in. */
export function registerUnicodeNames(data: UnicodeNameData): void {
  const names = new Map<string, number>();
  let cp = -1;
  for (const line of data.names.split("\n")) {
    const colon = line.indexOf(":");
    if (colon < 0) {
      cp += 1;
      names.set(line, cp);
    } else {
      cp += Number.parseInt(line.slice(0, colon), 16);
      names.set(line.slice(colon + 1), cp);
    }
  }
  table = names;
}

/** Reads the table from the package's own files where a synchronous require exists (Node). */
function loadFromPackage(): boolean {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  if (typeof proc?.getBuiltinModule !== "function") return false;
  try {
    const { createRequire } = proc.getBuiltinModule("node:module") as {
      createRequire: (from: string) => (id: string) => unknown;
    };
    registerUnicodeNames(createRequire(import.meta.url)("./unicode-names.json") as UnicodeNameData);
    return true;
  } catch {
    // Bundled without the JSON beside it: the caller says how to install the table.
    return false;
  }
}

// Hangul syllables: Unicode's algorithm (chapter 3.12) over the jamo short names.
const JAMO_L = "G GG N D DD R M B BB S SS  J JJ C K T P H".split(" ");
const JAMO_V = "A AE YA YAE EO E YEO YE O WA WAE OE YO U WEO WE WI YU EU YI I".split(" ");
const JAMO_T = " G GG GS N NJ NH D L LG LM LB LS LT LP LH M B BS S SS NG J C K T P H".split(" ");

function hangul(syllable: string): number | undefined {
  // Longest match first for each part: L, then V, then T must consume the rest exactly.
  for (let l = 0; l < JAMO_L.length; l++) {
    if (!syllable.startsWith(JAMO_L[l]!)) continue;
    const afterL = syllable.slice(JAMO_L[l]!.length);
    for (let v = 0; v < JAMO_V.length; v++) {
      if (!afterL.startsWith(JAMO_V[v]!)) continue;
      const t = JAMO_T.indexOf(afterL.slice(JAMO_V[v]!.length));
      if (t >= 0) return 0xac00 + (l * 21 + v) * 28 + t;
    }
  }
  return undefined;
}

/** The CJK unified ideograph blocks of Unicode 14 (Python's is_unified_ideograph). */
const CJK_UNIFIED = [
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0x20000, 0x2a6df],
  [0x2a700, 0x2b738],
  [0x2b740, 0x2b81d],
  [0x2b820, 0x2cea1],
  [0x2ceb0, 0x2ebe0],
  [0x30000, 0x3134a],
] as const;

/** The character `\N{name}` stands for, or undefined for a name Python does not know. */
export function lookupUnicodeName(name: string): string | undefined {
  // Python matches the computed names case-sensitively and the table's without regard to case.
  if (name.startsWith("HANGUL SYLLABLE ")) {
    const cp = hangul(name.slice(16));
    if (cp !== undefined) return String.fromCodePoint(cp);
  }
  const cjk = /^CJK UNIFIED IDEOGRAPH-([0-9A-F]{4,5})$/.exec(name);
  if (cjk !== null) {
    const cp = Number.parseInt(cjk[1]!, 16);
    return CJK_UNIFIED.some(([from, to]) => cp >= from && cp <= to) ? String.fromCodePoint(cp) : undefined;
  }
  if (table === null && !loadFromPackage()) {
    throw new EscapeError(
      `\\N{${name}} needs the Unicode name table: call installUnicodeNames() from "@modelhub/jinja/unicode-names" first`,
    );
  }
  const cp = table!.get(name.toUpperCase());
  return cp === undefined ? undefined : String.fromCodePoint(cp);
}
