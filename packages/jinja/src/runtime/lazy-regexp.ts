/**
 * A RegExp built from its source on its first use. V8 validates a regex literal's Unicode property escapes
 * (`\p{...}`) while it parses the module, even when the literal sits in a function that never runs: about
 * 0.2 ms per literal in a fresh process, paid by every program that loads the engine. Rarely used regexes
 * are built this way instead. Write the source with String.raw so it reads as the literal would.
 */
export function lazyRegExp(source: string, flags: string): () => RegExp {
  let built: RegExp | undefined;
  return () => {
    built ??= new RegExp(source, flags);
    return built;
  };
}
