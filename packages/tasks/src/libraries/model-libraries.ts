import { otherHubUrl } from "../hub-endpoint.js";
import type { ModelData } from "../model-data.js";
import { ADAPTERS_LIBRARIES } from "./families/adapters.js";
import { AUDIO_LIBRARIES } from "./families/audio.js";
import { DIFFUSERS_LIBRARIES } from "./families/diffusers.js";
import { FORMATS_LIBRARIES } from "./families/formats.js";
import { FRAMEWORKS_AND_HARDWARE_LIBRARIES } from "./families/frameworks-and-hardware.js";
import { IMAGE_ANALYSIS_LIBRARIES } from "./families/image-analysis.js";
import { IMAGE_GENERATION_LIBRARIES } from "./families/image-generation.js";
import { KERAS_LIBRARIES } from "./families/keras.js";
import { LANGUAGE_MODELS_LIBRARIES } from "./families/language-models.js";
import { LLM_LIBRARIES } from "./families/llm.js";
import { LOCAL_RUNTIME_LIBRARIES } from "./families/local-runtimes.js";
import { MUSIC_AND_SOUND_LIBRARIES } from "./families/music-and-sound.js";
import { NLP_LIBRARIES } from "./families/nlp.js";
import { PEFT_LIBRARIES } from "./families/peft.js";
import { RL_LIBRARIES } from "./families/rl.js";
import { ROBOTICS_LIBRARIES } from "./families/robotics.js";
import { SCIENCE_AND_HEALTH_LIBRARIES } from "./families/science-and-health.js";
import { SENTENCE_TRANSFORMERS_LIBRARIES } from "./families/sentence-transformers.js";
import { SKLEARN_LIBRARIES } from "./families/sklearn.js";
import { SPEECH_UNDERSTANDING_LIBRARIES } from "./families/speech-understanding.js";
import { SPEECHBRAIN_LIBRARIES } from "./families/speechbrain.js";
import { TABULAR_AND_FORECASTING_LIBRARIES } from "./families/tabular-and-forecasting.js";
import { TEXT_AND_EMBEDDING_LIBRARIES } from "./families/text-and-embeddings.js";
import { TEXT_TO_SPEECH_LIBRARIES } from "./families/text-to-speech.js";
import { THREE_D_LIBRARIES } from "./families/three-d.js";
import { TRANSFORMERS_LIBRARIES } from "./families/transformers.js";
import { VIDEO_LIBRARIES } from "./families/video.js";
import { VISION_LIBRARIES } from "./families/vision.js";
import { pointAtHub } from "./point-at-hub.js";
import type { LibrarySnippet, ModelLibrary } from "./types.js";

/**
 * Every model library the hub knows, keyed by the `library_name` value models declare. Each family module
 * holds its libraries' entries beside their loading code: snippets/ for families that share code
 * (transformers, diffusers, audio, vision...), families/ for research code bases and the rest, by domain.
 */
export const MODEL_LIBRARIES = {
  ...FRAMEWORKS_AND_HARDWARE_LIBRARIES,
  ...IMAGE_GENERATION_LIBRARIES,
  ...IMAGE_ANALYSIS_LIBRARIES,
  ...THREE_D_LIBRARIES,
  ...VIDEO_LIBRARIES,
  ...LANGUAGE_MODELS_LIBRARIES,
  ...LOCAL_RUNTIME_LIBRARIES,
  ...ROBOTICS_LIBRARIES,
  ...SCIENCE_AND_HEALTH_LIBRARIES,
  ...MUSIC_AND_SOUND_LIBRARIES,
  ...TEXT_TO_SPEECH_LIBRARIES,
  ...SPEECH_UNDERSTANDING_LIBRARIES,
  ...TABULAR_AND_FORECASTING_LIBRARIES,
  ...TEXT_AND_EMBEDDING_LIBRARIES,
  ...ADAPTERS_LIBRARIES,
  ...AUDIO_LIBRARIES,
  ...DIFFUSERS_LIBRARIES,
  ...FORMATS_LIBRARIES,
  ...KERAS_LIBRARIES,
  ...LLM_LIBRARIES,
  ...NLP_LIBRARIES,
  ...PEFT_LIBRARIES,
  ...RL_LIBRARIES,
  ...SENTENCE_TRANSFORMERS_LIBRARIES,
  ...SKLEARN_LIBRARIES,
  ...SPEECHBRAIN_LIBRARIES,
  ...TRANSFORMERS_LIBRARIES,
  ...VISION_LIBRARIES,
} satisfies Record<string, ModelLibrary>;

export type ModelLibraryKey = keyof typeof MODEL_LIBRARIES;

export const ALL_MODEL_LIBRARY_KEYS = Object.keys(MODEL_LIBRARIES).sort() as ModelLibraryKey[];

/** Libraries the models listing offers as filters. */
export const FILTERABLE_MODEL_LIBRARY_KEYS = ALL_MODEL_LIBRARY_KEYS.filter(
  (key) => (MODEL_LIBRARIES[key] as ModelLibrary).filter,
);

export function isModelLibraryKey(value: string): value is ModelLibraryKey {
  return Object.hasOwn(MODEL_LIBRARIES, value);
}

/** The catalogue entry of a library name, or undefined for a library the hub does not know. */
export function getModelLibrary(name: string | undefined): ModelLibrary | undefined {
  return name !== undefined && isModelLibraryKey(name) ? MODEL_LIBRARIES[name] : undefined;
}

export interface LibrarySnippetOptions {
  /** The hub the page is on; on another hub than huggingface.co, downloading snippets say how to reach it. */
  hubUrl?: string;
}

/**
 * The loading code for a model with its own library (`model.library_name`). Empty when the library is
 * unknown or has no snippets. Pure: reads only the record (and the hub's URL when given).
 */
export function getLibrarySnippets(model: ModelData, options: LibrarySnippetOptions = {}): LibrarySnippet[] {
  const builder = getModelLibrary(model.library_name)?.snippets;
  if (!builder) return [];
  const record = normalizeRecord(model);
  const snippets = builder(record);
  const hubUrl = otherHubUrl(options.hubUrl);
  return hubUrl === undefined ? snippets : snippets.map((snippet) => pointAtHub(snippet, record.id, hubUrl));
}

/** Records are JSON from users: list fields of another type are read as absent so no builder trips on them. */
function normalizeRecord(model: ModelData): ModelData {
  const list = <T>(value: T[] | undefined): T[] | undefined => (Array.isArray(value) ? value : undefined);
  const object = <T>(value: T | undefined): T | undefined =>
    typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;
  return {
    ...model,
    id: typeof model.id === "string" ? model.id : String(model.id),
    tags: (list(model.tags) ?? []).filter((tag): tag is string => typeof tag === "string"),
    widgetData: list(model.widgetData)?.filter((example) => object(example) !== undefined),
    siblings: list(model.siblings)?.filter((file) => typeof object(file)?.rfilename === "string"),
    config: object(model.config),
    cardData: object(model.cardData),
    transformersInfo: object(model.transformersInfo),
  };
}
