import type { ModelData } from "../../model-data.js";
import { DEFAULT_IMAGE_PROMPT, exampleText } from "../examples.js";
import { type Code, comment, isPythonIdentifier, joinCode, py, pythonIdentifier } from "../quote.js";
import type { ModelLibrary } from "../types.js";
import { type LibrarySnippet, snippet } from "../types.js";

/** keras (Keras 3): models saved as .keras load from the hub with an hf:// path. */
export function kerasSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`import os

os.environ["KERAS_BACKEND"] = "jax"  # or "torch", "tensorflow"

import keras

model = keras.saving.load_model(${`hf://${model.id}`})`,
      "Load the model",
    ),
  ];
}

/** tf-keras: legacy Keras 2 SavedModel repositories, loaded through huggingface_hub. */
export function tfKerasSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`# Needs tf-keras (Keras 2): pip install tf-keras
from huggingface_hub import from_pretrained_keras

model = from_pretrained_keras(${model.id})`,
      "Load the model",
    ),
  ];
}

/** keras-hub tasks with a worked example; other tasks get a plain from_preset call. */
const KERAS_HUB_EXAMPLES: Readonly<Record<string, (preset: string, model: ModelData) => Code<"python">>> = {
  CausalLM: (
    preset,
    model,
  ) => py`causal_lm = keras_hub.models.CausalLM.from_preset(${preset}, dtype="bfloat16")
causal_lm.generate(${exampleText(model, "Keras is a")}, max_length=64)`,
  TextToImage: (
    preset,
    model,
  ) => py`text_to_image = keras_hub.models.TextToImage.from_preset(${preset}, dtype="bfloat16")
text_to_image.generate(${exampleText(model, DEFAULT_IMAGE_PROMPT)})`,
  TextClassifier: (
    preset,
    model,
  ) => py`text_classifier = keras_hub.models.TextClassifier.from_preset(${preset}, num_classes=2)
text_classifier.predict([${exampleText(model)}])`,
  ImageClassifier: (preset) => py`import numpy as np

image_classifier = keras_hub.models.ImageClassifier.from_preset(${preset})
image_classifier.predict(np.random.randint(0, 256, size=(1, 224, 224, 3)))`,
};

/** keras-hub: one snippet per task listed in config keras_hub.tasks, then the bare backbone. */
export function kerasHubSnippets(model: ModelData): LibrarySnippet[] {
  const preset = `hf://${model.id}`;
  const declared: unknown = model.config?.keras_hub?.tasks;
  const tasks = Array.isArray(declared) ? declared.filter((t): t is string => typeof t === "string") : [];
  const out: LibrarySnippet[] = [];
  for (const task of tasks) {
    const example = Object.hasOwn(KERAS_HUB_EXAMPLES, task) ? KERAS_HUB_EXAMPLES[task] : undefined;
    if (example) {
      out.push(snippet(joinCode("python", [py`import keras_hub`, py``, example(preset, model)]), `${task}`));
    } else if (isPythonIdentifier(task)) {
      const cls = pythonIdentifier(task, "Backbone");
      out.push(
        snippet(
          joinCode("python", [
            py`import keras_hub`,
            py``,
            comment("python", `Create a ${task} model`),
            py`task = keras_hub.models.${cls}.from_preset(${preset})`,
          ]),
          task,
        ),
      );
    }
  }
  out.push(
    snippet(
      py`import keras_hub

# The backbone alone, without a task head
backbone = keras_hub.models.Backbone.from_preset(${preset})`,
      "Backbone",
    ),
  );
  return out;
}

/** The libraries of this family, keyed by the `library_name` their models declare. */
export const KERAS_LIBRARIES = {
  keras: {
    prettyLabel: "Keras",
    repoName: "Keras",
    repoUrl: "https://github.com/keras-team/keras",
    docsUrl: "https://huggingface.co/docs/hub/keras",
    snippets: kerasSnippets,
    filter: true,
    countDownloads: `path:"config.json" OR path_extension:"keras"`,
  },
  "keras-hub": {
    prettyLabel: "KerasHub",
    repoName: "KerasHub",
    repoUrl: "https://github.com/keras-team/keras-hub",
    docsUrl: "https://keras.io/keras_hub/",
    snippets: kerasHubSnippets,
    filter: true,
  },
  "tf-keras": {
    prettyLabel: "TF-Keras",
    repoName: "TF-Keras",
    repoUrl: "https://github.com/keras-team/tf-keras",
    docsUrl: "https://huggingface.co/docs/hub/tf-keras",
    snippets: tfKerasSnippets,
    filter: true,
    countDownloads: `path:"saved_model.pb"`,
  },
} satisfies Record<string, ModelLibrary>;
