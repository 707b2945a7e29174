import type { ModelData } from "../../model-data.js";
import { MESSAGE_TITLE, SPEECHBRAIN_INTERFACE_MISSING, SPEECHBRAIN_INTERFACE_UNKNOWN } from "../messages.js";
import { comment, py, pythonIdentifier } from "../quote.js";
import type { ModelLibrary } from "../types.js";
import { type LibrarySnippet, snippet } from "../types.js";

/** SpeechBrain interfaces and the method that runs each on an audio file. */
export const SPEECHBRAIN_METHODS: Readonly<Record<string, string>> = {
  EncoderClassifier: "classify_file",
  EncoderDecoderASR: "transcribe_file",
  EncoderASR: "transcribe_file",
  WhisperASR: "transcribe_file",
  SpectralMaskEnhancement: "enhance_file",
  WaveformEnhancement: "enhance_file",
  SepformerSeparation: "separate_file",
  SpeakerRecognition: "verify_files",
};

/** speechbrain: the interface class named in config.json, loaded with from_hparams and run on a file. */
export function speechbrainSnippets(model: ModelData): LibrarySnippet[] {
  const iface = model.config?.speechbrain?.speechbrain_interface;
  if (!iface) return [snippet(comment("python", SPEECHBRAIN_INTERFACE_MISSING), MESSAGE_TITLE)];
  const method = Object.hasOwn(SPEECHBRAIN_METHODS, iface) ? SPEECHBRAIN_METHODS[iface] : undefined;
  if (method === undefined) return [snippet(comment("python", SPEECHBRAIN_INTERFACE_UNKNOWN), MESSAGE_TITLE)];
  const cls = pythonIdentifier(iface, "EncoderClassifier");
  const call =
    method === "verify_files"
      ? py`score, prediction = model.verify_files("speaker1.wav", "speaker2.wav")`
      : py`model.${pythonIdentifier(method, "classify_file")}("file.wav")`;
  return [
    snippet(
      py`from speechbrain.inference import ${cls}

model = ${cls}.from_hparams(source=${model.id}, savedir=${`pretrained_models/${model.id}`})
${call}`,
      "Load the model",
    ),
  ];
}

/** The libraries of this family, keyed by the `library_name` their models declare. */
export const SPEECHBRAIN_LIBRARIES = {
  speechbrain: {
    prettyLabel: "speechbrain",
    repoName: "speechbrain",
    repoUrl: "https://github.com/speechbrain/speechbrain",
    docsUrl: "https://speechbrain.readthedocs.io/en/latest/",
    snippets: speechbrainSnippets,
    filter: true,
    countDownloads: `path:"hyperparams.yaml"`,
  },
} satisfies Record<string, ModelLibrary>;
