import type { ModelData } from "../../model-data.js";
import { researchRepo } from "../catalogue/define.js";
import { comment, joinCode, py } from "../quote.js";
import { pipInstall } from "../snippets/kit.js";
import { type LibrarySnippet, type ModelLibrary, snippet } from "../types.js";

/** Speech synthesis, alignment, recognition and music libraries added with the late-2026 catalogue. */

/**
 * A Piper voice is an ONNX file with its JSON config beside it (`<voice>.onnx.json`); voice collections hold
 * many, so the snippet names the first `.onnx` of the repository.
 */
function piperSnippets(model: ModelData): LibrarySnippet[] {
  const voice = model.siblings?.find((file) => file.rfilename.toLowerCase().endsWith(".onnx"))?.rfilename;
  return [
    pipInstall(["piper-tts"]),
    snippet(
      joinCode("python", [
        py`import wave`,
        py``,
        py`from huggingface_hub import hf_hub_download`,
        py`from piper import PiperVoice`,
        py``,
        ...(voice === undefined ? [comment("python", "Name one of the repository's .onnx voices")] : []),
        py`voice_file = ${voice ?? "voice.onnx"}`,
        py`model_path = hf_hub_download(${model.id}, voice_file)`,
        py`hf_hub_download(${model.id}, voice_file + ".json")  # the voice's config, read from beside it`,
        py`voice = PiperVoice.load(model_path)`,
        py`with wave.open("speech.wav", "wb") as wav_file:`,
        py`    voice.synthesize_wav("Piper reads this sentence aloud.", wav_file)`,
      ]),
      "Speak a sentence",
    ),
  ];
}

export const SPEECH_AND_MUSIC_LIBRARIES = {
  "magenta-realtime-2": researchRepo("Magenta RT 2", "https://github.com/magenta/magenta-realtime", {
    countDownloads: `path:"models/mrt2_base/mrt2_base.mlxfn" OR path:"models/mrt2_small/mrt2_small.mlxfn" OR path:"checkpoints/mrt2_base.safetensors" OR path:"checkpoints/mrt2_small.safetensors"`,
  }),
  mect: researchRepo("MECT", "https://github.com/ant-research/AntSpeaker", {
    repoName: "AntSpeaker",
    countDownloads: `path_extension:"pt"`,
  }),
  "montreal-forced-aligner": researchRepo(
    "Montreal Forced Aligner",
    "https://github.com/MontrealCorpusTools/Montreal-Forced-Aligner",
    {
      docsUrl: "https://montreal-forced-aligner.readthedocs.io",
      countDownloads: `path:"acoustic/final.mdl" OR path_extension:"zip"`,
    },
  ),
  openasr: researchRepo("OpenASR", "https://github.com/QuintinShaw/openasr", {
    docsUrl: "https://github.com/QuintinShaw/openasr/blob/main/docs/DOCS_INDEX.md",
    countDownloads: `path_extension:"oasr"`,
  }),
  piper: {
    prettyLabel: "Piper",
    repoName: "Piper",
    repoUrl: "https://github.com/OHF-Voice/piper1-gpl",
    docsUrl: "https://github.com/OHF-Voice/piper1-gpl#readme",
    snippets: piperSnippets,
    filter: false,
    countDownloads: `path_extension:"onnx" OR path_extension:"ckpt"`,
  },
  "stable-audio-3": researchRepo("Stable Audio 3", "https://github.com/Stability-AI/stable-audio-3", {
    repoName: "stable-audio-3",
    countDownloads: `path:"model_config.json"`,
  }),
  tunejury: researchRepo("TuneJury", "https://github.com/yonghyunk1m/TuneJury", {
    countDownloads: `path_extension:"pt"`,
  }),
} satisfies Record<string, ModelLibrary>;
