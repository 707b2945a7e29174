import type { ProtocolFactory, TaskSpec } from "../providers/types.js";
import type { ImageToTextOutput } from "../types.js";
import { expectShape, isObject, isString } from "../validate.js";
import { withInputEncoding } from "./input-encoding.js";

/**
 * Z.ai's layout parsing (GLM-OCR; docs.z.ai, "Layout Parsing"): POST /api/paas/v4/layout_parsing with
 * `{model, file}` (the image as a data URL) -> `{md_results, layout_details...}`; the Markdown is the text.
 */
export const zaiLayoutParsing: ProtocolFactory<"zai-layout-parsing"> = (): TaskSpec => ({
  path: () => "/api/paas/v4/layout_parsing",
  ...withInputEncoding(() => "data-url"),
  body: ({ args, providerModelId }) => ({ model: providerModelId, file: args.inputs }),
  parse: (response, ctx): ImageToTextOutput => {
    const text = isObject(response) ? response.md_results : undefined;
    expectShape(response, isString(text), ctx.task, "{md_results: string}");
    return { generated_text: text as string };
  },
});
