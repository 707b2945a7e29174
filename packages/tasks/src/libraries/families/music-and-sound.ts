import type { ModelData } from "../../model-data.js";
import { researchRepo } from "../define.js";
import { fromPretrained, pipInstall } from "../kit.js";
import { py, sh } from "../quote.js";
import { type LibrarySnippet, type ModelLibrary, snippet } from "../types.js";

/** Music and sound libraries: song and music generation, real-time music, MIDI, sound extraction. */

export function acestepSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["git+https://github.com/ace-step/ACE-Step.git"]),
    snippet(
      py`from acestep.pipeline_ace_step import ACEStepPipeline
from huggingface_hub import snapshot_download

pipeline = ACEStepPipeline(checkpoint_dir=snapshot_download(repo_id=${model.id}), dtype="bfloat16")`,
      "Load the pipeline",
    ),
  ];
}

export function magentaRealtimeSnippets(): LibrarySnippet[] {
  return [
    snippet(
      py`from magenta_rt import system

mrt = system.MagentaRT()  # fetches its checkpoints from the Hub
style = system.embed_style("funk")
chunk, state = mrt.generate_chunk(state=None, style=style)`,
      "Generate music",
    ),
  ];
}

/** SongGeneration needs its shared runtime files (ckpt/, third_party/) beside the model folder it is given. */
export function songGenerationSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      sh`git clone https://github.com/tencent-ailab/SongGeneration
cd SongGeneration
pip install -r requirements.txt
hf download lglg666/SongGeneration-Runtime --local-dir .
hf download ${model.id} --local-dir ./songgeneration_model
sh generate.sh ./songgeneration_model sample/lyrics.jsonl sample/output`,
      "Download and run",
    ),
  ];
}

/** The libraries of this family, keyed by the `library_name` their models declare. */
export const MUSIC_AND_SOUND_LIBRARIES = {
  "magenta-realtime-2": researchRepo("Magenta RT 2", "https://github.com/magenta/magenta-realtime", {
    countDownloads: `path:"models/mrt2_base/mrt2_base.mlxfn" OR path:"models/mrt2_small/mrt2_small.mlxfn" OR path:"checkpoints/mrt2_base.safetensors" OR path:"checkpoints/mrt2_small.safetensors"`,
  }),
  "stable-audio-3": researchRepo("Stable Audio 3", "https://github.com/Stability-AI/stable-audio-3", {
    repoName: "stable-audio-3",
    countDownloads: `path:"model_config.json"`,
  }),
  tunejury: researchRepo("TuneJury", "https://github.com/yonghyunk1m/TuneJury", {
    countDownloads: `path_extension:"pt"`,
  }),
  acestep: researchRepo("ACE-Step", "https://github.com/ace-step/ACE-Step", {
    countDownloads: `path:"ace_step_transformer/config.json"`,
    snippets: acestepSnippets,
  }),
  "magenta-realtime": researchRepo("Magenta RT", "https://github.com/magenta/magenta-realtime", {
    countDownloads: `path:"checkpoints/llm_base_x4286_c1860k.tar" OR path:"checkpoints/llm_large_x3047_c1860k.tar"`,
    snippets: magentaRealtimeSnippets,
  }),
  miditok: {
    prettyLabel: "MidiTok",
    repoName: "MidiTok",
    repoUrl: "https://github.com/Natooz/MidiTok",
    docsUrl: "https://miditok.readthedocs.io/en/latest/",
    snippets: fromPretrained({
      pip: "miditok",
      module: "miditok",
      // Load with the tokenizer class the repository was saved with; REMI is the most common one.
      name: "REMI",
      variable: "tokenizer",
    }),
    filter: false,
    countDownloads: `path:"tokenizer.json"`,
  },
  soloaudio: researchRepo("SoloAudio", "https://github.com/WangHelin1997/SoloAudio", {
    countDownloads: `path:"soloaudio_v2.pt"`,
  }),
  songbloom: researchRepo("SongBloom", "https://github.com/Cypress-Yang/SongBloom", {
    countDownloads: `path_extension:"pt"`,
  }),
  "tencent-song-generation": researchRepo(
    "SongGeneration",
    "https://github.com/tencent-ailab/SongGeneration",
    {
      snippets: songGenerationSnippets,
      countDownloads: `path:"ckpt/songgeneration_base/model.pt"`,
    },
  ),
} satisfies Record<string, ModelLibrary>;
