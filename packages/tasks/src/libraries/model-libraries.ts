import type { ModelData } from "../model-data.js";
import { LIBRARIES_A_TO_C } from "./catalogue/a-c.js";
import { LIBRARIES_D } from "./catalogue/d.js";
import { LIBRARIES_E_TO_H } from "./catalogue/e-h.js";
import { LIBRARIES_I_TO_L } from "./catalogue/i-l.js";
import { LIBRARIES_M_TO_O } from "./catalogue/m-o.js";
import { LIBRARIES_P_TO_R } from "./catalogue/p-r.js";
import { LIBRARIES_S } from "./catalogue/s.js";
import { LIBRARIES_T_TO_Z } from "./catalogue/t-z.js";
import { IMAGE_AND_VIDEO_LIBRARIES } from "./families/image-and-video.js";
import { LOCAL_RUNTIME_LIBRARIES } from "./families/local-runtimes.js";
import { ROBOTICS_LIBRARIES } from "./families/robotics.js";
import { SCIENCE_AND_HEALTH_LIBRARIES } from "./families/science-and-health.js";
import { SPEECH_AND_MUSIC_LIBRARIES } from "./families/speech-and-music.js";
import { TABULAR_AND_FORECASTING_LIBRARIES } from "./families/tabular-and-forecasting.js";
import { TEXT_AND_EMBEDDING_LIBRARIES } from "./families/text-and-embeddings.js";
import type { LibrarySnippet, ModelLibrary } from "./types.js";

/**
 * Every model library the hub knows, keyed by the `library_name` value models declare.
 * The older part of the table is split alphabetically in catalogue/; libraries added since live in
 * families/, one module per kind of library with its entries and loading code side by side.
 */
export const MODEL_LIBRARIES = {
  ...LIBRARIES_A_TO_C,
  ...LIBRARIES_D,
  ...LIBRARIES_E_TO_H,
  ...LIBRARIES_I_TO_L,
  ...LIBRARIES_M_TO_O,
  ...LIBRARIES_P_TO_R,
  ...LIBRARIES_S,
  ...LIBRARIES_T_TO_Z,
  ...IMAGE_AND_VIDEO_LIBRARIES,
  ...LOCAL_RUNTIME_LIBRARIES,
  ...ROBOTICS_LIBRARIES,
  ...SCIENCE_AND_HEALTH_LIBRARIES,
  ...SPEECH_AND_MUSIC_LIBRARIES,
  ...TABULAR_AND_FORECASTING_LIBRARIES,
  ...TEXT_AND_EMBEDDING_LIBRARIES,
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

/**
 * The loading code for a model with its own library (`model.library_name`). Empty when the library is
 * unknown or has no snippets. Pure: reads only the record.
 */
export function getLibrarySnippets(model: ModelData): LibrarySnippet[] {
  const builder = getModelLibrary(model.library_name)?.snippets;
  return builder ? builder(normalizeRecord(model)) : [];
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
