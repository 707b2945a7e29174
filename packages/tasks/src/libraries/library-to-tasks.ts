import type { PipelineType } from "../pipelines.js";

/**
 * The pipeline tasks each library serves through the hub's inference: which (library, task) pairs the
 * hub may run and the snippets may offer a pipeline call for. Libraries missing here serve none.
 * Keyed by library name as a plain string: the catalogue's snippets read this table, so typing the keys
 * with the catalogue's key type would make the two import each other; model-libraries.test.ts checks
 * every key is a catalogue library.
 */
export const LIBRARY_TASK_MAPPING: Readonly<Record<string, readonly PipelineType[]>> = {
  "adapter-transformers": ["question-answering", "text-classification", "token-classification"],
  allennlp: ["question-answering"],
  asteroid: ["audio-to-audio"],
  bertopic: ["text-classification"],
  diffusers: ["image-to-image", "text-to-image"],
  doctr: ["object-detection"],
  espnet: ["text-to-speech", "automatic-speech-recognition"],
  fairseq: ["text-to-speech", "audio-to-audio"],
  fastai: ["image-classification"],
  fasttext: ["feature-extraction", "text-classification"],
  flair: ["token-classification"],
  k2: ["automatic-speech-recognition"],
  keras: ["image-classification"],
  mindspore: ["image-classification"],
  nemo: ["automatic-speech-recognition"],
  open_clip: ["zero-shot-classification", "zero-shot-image-classification"],
  paddlenlp: ["fill-mask", "summarization", "zero-shot-classification"],
  peft: ["text-generation"],
  "pyannote-audio": ["automatic-speech-recognition"],
  "sentence-transformers": ["feature-extraction", "sentence-similarity"],
  setfit: ["text-classification"],
  sklearn: ["tabular-classification", "tabular-regression", "text-classification"],
  spacy: ["token-classification", "text-classification", "sentence-similarity"],
  "span-marker": ["token-classification"],
  speechbrain: ["audio-classification", "audio-to-audio", "automatic-speech-recognition", "text-to-speech"],
  stanza: ["token-classification"],
  timm: ["image-classification", "image-feature-extraction"],
  transformers: [
    "audio-classification",
    "automatic-speech-recognition",
    "depth-estimation",
    "document-question-answering",
    "feature-extraction",
    "fill-mask",
    "image-classification",
    "image-feature-extraction",
    "image-segmentation",
    "image-text-to-text",
    "image-to-image",
    "image-to-text",
    "mask-generation",
    "object-detection",
    "question-answering",
    "summarization",
    "table-question-answering",
    "text-classification",
    "text-generation",
    "text-to-audio",
    "text-to-speech",
    "token-classification",
    "translation",
    "video-classification",
    "visual-question-answering",
    "zero-shot-classification",
    "zero-shot-image-classification",
    "zero-shot-object-detection",
  ],
};

/** Whether `library` serves `task` (see LIBRARY_TASK_MAPPING). */
export function libraryServesTask(library: string, task: PipelineType | undefined): boolean {
  if (task === undefined) return false;
  return (
    Object.hasOwn(LIBRARY_TASK_MAPPING, library) && (LIBRARY_TASK_MAPPING[library]?.includes(task) ?? false)
  );
}
