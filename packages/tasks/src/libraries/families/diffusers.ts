import type { ModelData } from "../../model-data.js";
import { baseModel, DEFAULT_IMAGE_PROMPT } from "../examples.js";
import { pipInstall } from "../kit.js";
import { type Code, joinCode, py } from "../quote.js";
import type { ModelLibrary } from "../types.js";
import { type LibrarySnippet, snippet } from "../types.js";

const IMAGE_TO_IMAGE_PROMPT = "Turn this cat into a dog";
const VIDEO_PROMPT = "A man with short gray hair plays a red electric guitar.";
const CAT_IMAGE_URL =
  "https://huggingface.co/datasets/huggingface/documentation-images/resolve/main/diffusers/cat.png";
const GUITAR_IMAGE_URL =
  "https://huggingface.co/datasets/huggingface/documentation-images/resolve/main/diffusers/guitar-man.png";
/** Shown when a LoRA or ControlNet card names no base model: the user has to fill it in. */
export const MISSING_BASE_MODEL = "fill-in-base-model";

/** The prompt: the widget example, else the LoRA's trigger words (instance_prompt), else a default. */
function prompt(model: ModelData, fallback: string): string {
  const widget = model.widgetData?.find((w) => typeof w.text === "string" && w.text.length > 0)?.text;
  const instance = model.cardData?.instance_prompt;
  return widget ?? (typeof instance === "string" && instance.length > 0 ? instance : fallback);
}

type Flavour = "text-to-image" | "image-to-image" | "image-to-video" | "text-to-video";

function flavour(model: ModelData): Flavour {
  const task = model.pipeline_tag;
  return task === "image-to-image" || task === "image-to-video" || task === "text-to-video"
    ? task
    : "text-to-image";
}

function generation(model: ModelData, kind: Flavour): Code<"python"> {
  switch (kind) {
    case "image-to-image":
      return py`prompt = ${prompt(model, IMAGE_TO_IMAGE_PROMPT)}
input_image = load_image(${CAT_IMAGE_URL})

image = pipe(image=input_image, prompt=prompt).images[0]`;
    case "image-to-video":
      return py`prompt = ${prompt(model, VIDEO_PROMPT)}
input_image = load_image(${GUITAR_IMAGE_URL})

frames = pipe(image=input_image, prompt=prompt).frames[0]
export_to_video(frames, "output.mp4")`;
    case "text-to-video":
      return py`prompt = ${prompt(model, VIDEO_PROMPT)}

frames = pipe(prompt=prompt).frames[0]
export_to_video(frames, "output.mp4")`;
    default:
      return py`prompt = ${prompt(model, DEFAULT_IMAGE_PROMPT)}
image = pipe(prompt).images[0]`;
  }
}

function imports(kind: Flavour): Code<"python"> {
  if (kind === "image-to-image") return py`from diffusers.utils import load_image\n`;
  if (kind === "image-to-video") return py`from diffusers.utils import export_to_video, load_image\n`;
  if (kind === "text-to-video") return py`from diffusers.utils import export_to_video\n`;
  return py``;
}

/** diffusers: a pipeline for the model itself, or its base model plus LoRA / textual inversion / ControlNet. */
export function diffusersSnippets(model: ModelData): LibrarySnippet[] {
  const kind = flavour(model);
  const base = baseModel(model) ?? MISSING_BASE_MODEL;
  const head = py`import torch
from diffusers import DiffusionPipeline
${imports(kind)}`;
  let body: Code<"python">;
  let title = "Load the pipeline";
  if (model.tags.includes("controlnet")) {
    title = "Load the ControlNet with its base pipeline";
    body = py`import torch
from diffusers import ControlNetModel, StableDiffusionControlNetPipeline

controlnet = ControlNetModel.from_pretrained(${model.id}, torch_dtype=torch.float16)
pipe = StableDiffusionControlNetPipeline.from_pretrained(${base}, controlnet=controlnet, torch_dtype=torch.float16)`;
  } else if (model.tags.includes("lora")) {
    title = "Load the LoRA on its base model";
    body = joinCode("python", [
      head,
      py`pipe = DiffusionPipeline.from_pretrained(${base}, torch_dtype=torch.bfloat16).to("cuda")
pipe.load_lora_weights(${model.id})
`,
      generation(model, kind),
    ]);
  } else if (model.tags.includes("textual_inversion")) {
    title = "Load the textual inversion on its base model";
    body = py`import torch
from diffusers import DiffusionPipeline

pipe = DiffusionPipeline.from_pretrained(${base}, torch_dtype=torch.bfloat16).to("cuda")
pipe.load_textual_inversion(${model.id})`;
  } else {
    body = joinCode("python", [
      head,
      py`pipe = DiffusionPipeline.from_pretrained(${model.id}, torch_dtype=torch.bfloat16).to("cuda")  # "mps" on Apple silicon
`,
      generation(model, kind),
    ]);
  }
  return [pipInstall(["-U", "diffusers", "transformers", "accelerate"]), snippet(body, title)];
}

/** The libraries of this family, keyed by the `library_name` their models declare. */
export const DIFFUSERS_LIBRARIES = {
  diffusers: {
    prettyLabel: "Diffusers",
    repoName: "🤗/diffusers",
    repoUrl: "https://github.com/huggingface/diffusers",
    docsUrl: "https://huggingface.co/docs/diffusers",
    snippets: diffusersSnippets,
    filter: true,
    // Downloads of diffusers models are counted by the hub's own, more complex rule.
  },
} satisfies Record<string, ModelLibrary>;
