import type { BuiltRequest } from "@modelhub/inference/requests";
import { withFileVariable } from "./fal-queue.js";
import { LazyCodeValue } from "./literals/code-value.js";
import { CodeExpr } from "./literals/expr.js";

/**
 * Template variables of a raw HTTP snippet for a WaveSpeed job (`wavespeed-job` protocol): submit, ask for
 * the prediction's result until it is completed, download `data.outputs[0]`.
 *
 * The result lives at `{base}/api/v3/predictions/{id}/result` on the host the request went to: the router's
 * `/wavespeed` or api.wavespeed.ai; the snippet builds it from `data.id` rather than trusting `data.urls.get`,
 * which names api.wavespeed.ai. A local image travels as plain base64 in `image`.
 */
export interface WavespeedJobVariables {
  /** `{base}/api/v3/predictions/`: a job's result is this, its id, then `/result`. */
  predictionsUrl: LazyCodeValue;
  /** The submit body, the local file (if any) as the variable holding its base64. */
  jobBody: LazyCodeValue;
  hasFile: boolean;
  /** The file goes as plain base64: no data URL prefix (what the execution tests expect on the wire). */
  dataUrlPrefix: LazyCodeValue;
  videoOutput: boolean;
}

/** The variable a snippet keeps the file's base64 in (Python, JavaScript, shell). */
const FILE_BASE64 = new CodeExpr("image_base64", "imageBase64", '"$IMAGE_BASE64"');

export function wavespeedJobVariables(
  request: BuiltRequest,
  body: unknown,
  task: string,
  file: { contentType: string } | undefined,
  filePlaceholder: string,
): WavespeedJobVariables {
  return {
    predictionsUrl: new LazyCodeValue(`${request.base}/api/v3/predictions/`),
    jobBody: new LazyCodeValue(file ? withFileVariable(body, filePlaceholder, FILE_BASE64) : body),
    hasFile: file !== undefined,
    dataUrlPrefix: new LazyCodeValue(""),
    videoOutput: task.endsWith("-to-video"),
  };
}
