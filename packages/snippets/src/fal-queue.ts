import type { BuiltRequest } from "@modelhub/inference/requests";
import { LazyCodeValue } from "./literals/code-value.js";
import { CodeExpr } from "./literals/expr.js";

/**
 * Template variables of a raw HTTP snippet for fal's queue (`fal-queue` protocol: video, and image editing
 * with a prompt): submit, ask for the status until COMPLETED, read the result, download the media.
 *
 * The status and result live at `{queue}/{app}/requests/{request_id}[/status]`, `{app}` being the model id's
 * first two segments (fal's queue API, fal.ai/docs/model-endpoints/queue), on the host the request went to:
 * queue.fal.run directly, the router's `/fal-ai` (with `?_subdomain=queue`) otherwise; so the snippet
 * builds them from `request_id` rather than trusting `response_url`, which names queue.fal.run.
 */
export interface FalQueueVariables {
  /** `{queue}/{app}/requests/`: the job's URL is this followed by its `request_id`. */
  queueRequestsUrl: LazyCodeValue;
  /** Through a shared host (router, simulator) the queue is chosen by `?_subdomain=queue`. */
  queueViaRouter: boolean;
  /** The submit body, the local file (if any) as the variable holding its data URL. */
  queueBody: LazyCodeValue;
  /** The data URL's start for the file's content type (`data:image/png;base64,`). */
  dataUrlPrefix: LazyCodeValue;
  hasFile: boolean;
  /** The answer's media is `video.url` or `audio.url` (else `images[0].url`). */
  videoOutput: boolean;
  audioOutput: boolean;
  /** A segmentation mask at `image.url`, inline as a data URL (`sync_mode`) or a link. */
  maskOutput: boolean;
}

/** The variable a snippet keeps the file's data URL in (Python, JavaScript, shell). */
const FILE_DATA_URL = new CodeExpr("image_url", "imageUrl", '"$IMAGE_URL"');

/** `body` with every `placeholder` string replaced by `variable` (the file's data URL or base64). */
export function withFileVariable(
  body: unknown,
  placeholder: string,
  variable: CodeExpr = FILE_DATA_URL,
): unknown {
  if (body === placeholder) return variable;
  if (Array.isArray(body)) return body.map((item) => withFileVariable(item, placeholder, variable));
  if (body && typeof body === "object" && !(body instanceof CodeExpr)) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(body))
      out[key] = withFileVariable(value, placeholder, variable);
    return out;
  }
  return body;
}

export function falQueueVariables(
  request: BuiltRequest,
  body: unknown,
  task: string,
  file: { contentType: string } | undefined,
  filePlaceholder: string,
): FalQueueVariables {
  const app = request.providerModelId.split("/").slice(0, 2).join("/");
  return {
    queueRequestsUrl: new LazyCodeValue(`${request.base}/${app}/requests/`),
    queueViaRouter: request.sharedHost,
    queueBody: new LazyCodeValue(file ? withFileVariable(body, filePlaceholder) : body),
    dataUrlPrefix: new LazyCodeValue(`data:${file?.contentType ?? "application/octet-stream"};base64,`),
    hasFile: file !== undefined,
    videoOutput: task.endsWith("-to-video"),
    audioOutput: task.endsWith("-to-audio"),
    maskOutput: task === "image-segmentation",
  };
}
