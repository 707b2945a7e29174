/**
 * Fixed texts snippets fall back to when a record lacks what a library needs (spec §5 "fallback texts").
 * Each is shown as a comment, so the snippet stays valid code in its language.
 */

/** Title of a snippet that only carries one of the messages below. */
export const MESSAGE_TITLE = "No loading code for this model";

/** The library is known but this record does not say which kind of model it is. */
export const UNKNOWN_MODEL_TYPE =
  "⚠️ The type of this model is unknown: no loading code can be generated for it.";

/** peft: `config.peft.task_type` is missing or not one of the mapped task types. */
export const PEFT_INVALID_TASK_TYPE = "Task type is invalid.";

/** peft: `config.peft.base_model_name_or_path` is missing. */
export const PEFT_BASE_MODEL_NOT_FOUND = "Base model is not found.";

/** sklearn (skops): `config.sklearn.model.file` is missing. */
export const SKLEARN_MODEL_FILE_MISSING =
  "⚠️ The model file name is not specified in config.json (sklearn.model.file).";

/** speechbrain: `config.speechbrain.speechbrain_interface` is missing. */
export const SPEECHBRAIN_INTERFACE_MISSING =
  "⚠️ The SpeechBrain interface is not specified in config.json (speechbrain.speechbrain_interface).";

/** speechbrain: the interface is set but is not one this catalogue knows how to call. */
export const SPEECHBRAIN_INTERFACE_UNKNOWN = "⚠️ The SpeechBrain interface in config.json is not a known one.";
