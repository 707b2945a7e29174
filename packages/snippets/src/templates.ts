import { Template } from "@modelhub/jinja";
import { TemplateNotFoundError } from "./errors.js";
import { TEMPLATES } from "./templates.generated.js";
import type { SnippetClient, SnippetLanguage } from "./types.js";

const compiled = new Map<string, Template>();

export function hasTemplate(language: SnippetLanguage, client: SnippetClient, name: string): boolean {
  return Object.hasOwn(TEMPLATES, `${language}/${client}/${name}`);
}

/** The compiled template (parsed once, then cached), or TemplateNotFoundError. */
export function loadTemplate(language: SnippetLanguage, client: SnippetClient, name: string): Template {
  const key = `${language}/${client}/${name}`;
  let template = compiled.get(key);
  if (!template) {
    const source = TEMPLATES[key];
    if (source === undefined) throw new TemplateNotFoundError(language, client, name);
    template = new Template(source);
    compiled.set(key, template);
  }
  return template;
}
