/** Root of the snippet generator's errors. */
export class SnippetError extends Error {
  override name = "SnippetError";
}

/** A template the selection rules asked for is missing from templates/. */
export class TemplateNotFoundError extends SnippetError {
  override name = "TemplateNotFoundError";
  constructor(language: string, client: string, template: string) {
    super(`Template not found: ${language}/${client}/${template}`);
  }
}

/** A value was asked for in a text format the generator does not write. */
export class UnsupportedFormatError extends SnippetError {
  override name = "UnsupportedFormatError";
  constructor(format: string) {
    super(`Unsupported format: ${format}`);
  }
}
