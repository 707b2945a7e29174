import { TemplateNotFoundError } from "./errors.js";
import type { CompiledSnippetTemplate } from "./template-runtime.js";
import { TEMPLATES } from "./templates.generated.js";
import type { SnippetClient, SnippetLanguage } from "./types.js";

/**
 * The templates ship compiled to functions (scripts/build-templates.ts): finding one is a lookup, and
 * nothing is parsed or compiled at run time.
 */

type ByName = Map<string, CompiledSnippetTemplate>;

/** The templates by language, client and name: found without building a key string per lookup. */
let byLanguage: Map<string, Map<string, ByName>> | undefined;

function index(): Map<string, Map<string, ByName>> {
  if (byLanguage) return byLanguage;
  byLanguage = new Map();
  for (const [key, template] of Object.entries(TEMPLATES)) {
    const [language, client, name] = key.split("/") as [string, string, string];
    const byClient = byLanguage.get(language) ?? new Map<string, ByName>();
    byLanguage.set(language, byClient);
    const byName = byClient.get(client) ?? new Map<string, CompiledSnippetTemplate>();
    byClient.set(client, byName);
    byName.set(name, template);
  }
  return byLanguage;
}

export function hasTemplate(language: SnippetLanguage, client: SnippetClient, name: string): boolean {
  return findTemplate(language, client, name) !== undefined;
}

/** The compiled template, or undefined when there is none. */
export function findTemplate(
  language: SnippetLanguage,
  client: SnippetClient,
  name: string,
): CompiledSnippetTemplate | undefined {
  return index().get(language)?.get(client)?.get(name);
}

/** The compiled template, or TemplateNotFoundError. */
export function loadTemplate(
  language: SnippetLanguage,
  client: SnippetClient,
  name: string,
): CompiledSnippetTemplate {
  const template = findTemplate(language, client, name);
  if (!template) throw new TemplateNotFoundError(language, client, name);
  return template;
}
