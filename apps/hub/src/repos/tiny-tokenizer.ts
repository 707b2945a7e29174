/**
 * A tiny byte-level BPE tokenizer (`tokenizer.json`, the `tokenizers` library's format) for demo copies: one
 * token per byte (GPT-2's byte-to-character alphabet, no merges) plus the model's special tokens, so that
 * `AutoTokenizer.from_pretrained` loads and round-trips any text. It is not the original's vocabulary.
 */

/** GPT-2's printable stand-ins for the 256 byte values (what the ByteLevel pre-tokenizer emits). */
function byteAlphabet(): string[] {
  const printable = (byte: number) =>
    (byte >= 33 && byte <= 126) || (byte >= 161 && byte <= 172) || (byte >= 174 && byte <= 255);
  const chars: string[] = [];
  let next = 256;
  for (let byte = 0; byte < 256; byte++) chars.push(String.fromCodePoint(printable(byte) ? byte : next++));
  return chars;
}

/** The text of a special token as tokenizer_config.json gives it (a string or `{content}`). */
export function specialTokenText(value: unknown): string | undefined {
  if (typeof value === "string" && value) return value;
  if (value && typeof value === "object" && typeof (value as { content?: unknown }).content === "string") {
    return (value as { content: string }).content || undefined;
  }
  return undefined;
}

export function tinyTokenizerJson(specialTokens: readonly string[]): string {
  const alphabet = byteAlphabet().sort((a, b) => a.codePointAt(0)! - b.codePointAt(0)!);
  const vocab = Object.fromEntries(alphabet.map((char, id) => [char, id]));
  const unique = [...new Set(specialTokens)].filter((token) => !(token in vocab));
  const byteLevel = { add_prefix_space: false, trim_offsets: true, use_regex: true };
  const tokenizer = {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: unique.map((content, index) => ({
      id: alphabet.length + index,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: null,
    pre_tokenizer: { type: "ByteLevel", ...byteLevel },
    post_processor: null,
    decoder: { type: "ByteLevel", ...byteLevel },
    model: {
      type: "BPE",
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      ignore_merges: false,
      vocab,
      merges: [],
    },
  };
  return `${JSON.stringify(tokenizer)}\n`;
}
