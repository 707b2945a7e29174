import { CompiledTemplate } from "@modelhub/jinja/precompiled";
import { TemplateNotFoundError } from "./errors.js";
import { PRECOMPILED_TEMPLATES } from "./templates.generated.js";
import type { SnippetClient, SnippetLanguage } from "./types.js";

/** Compiled templates by language, client and name: found without building a key string per lookup. */
const compiled = new Map<string, Map<string, Map<string, CompiledTemplate>>>();

export function hasTemplate(language: SnippetLanguage, client: SnippetClient, name: string): boolean {
  return Object.hasOwn(PRECOMPILED_TEMPLATES, `${language}/${client}/${name}`);
}

/**
 * The compiled template (compiled once, then cached), or undefined when there is none. Templates ship
 * precompiled (scripts/build-templates.ts): compiling one here needs no lexing or parsing, so this module
 * imports the "@modelhub/jinja/precompiled" entry point, which carries neither the lexer nor the parser.
 */
export function findTemplate(
  language: SnippetLanguage,
  client: SnippetClient,
  name: string,
): CompiledTemplate | undefined {
  let byClient = compiled.get(language);
  if (!byClient) {
    byClient = new Map();
    compiled.set(language, byClient);
  }
  let byName = byClient.get(client);
  if (!byName) {
    byName = new Map();
    byClient.set(client, byName);
  }
  let template = byName.get(name);
  if (!template) {
    // Missing templates are not remembered: names may come from callers, and a miss costs one lookup.
    const key = `${language}/${client}/${name}`;
    if (!Object.hasOwn(PRECOMPILED_TEMPLATES, key)) return undefined;
    template = CompiledTemplate.fromPrecompiled(PRECOMPILED_TEMPLATES[key]!);
    byName.set(name, template);
  }
  return template;
}

/** The compiled template (compiled once, then cached), or TemplateNotFoundError. */
export function loadTemplate(
  language: SnippetLanguage,
  client: SnippetClient,
  name: string,
): CompiledTemplate {
  const template = findTemplate(language, client, name);
  if (!template) throw new TemplateNotFoundError(language, client, name);
  return template;
}
