import type { ModelData } from "../../model-data.js";
import { readme, researchRepo } from "../define.js";
import { downloadWeights, fromPretrained, pipInstall } from "../kit.js";
import { py, sh } from "../quote.js";
import { type LibrarySnippet, type ModelLibrary, snippet } from "../types.js";

/** Speech understanding: recognition and alignment, separation, speech translation, spoken dialogue. */

const SEAMLESS_CARDS: ReadonlyArray<[string, string, string]> = [
  ["facebook/seamless-m4t-v2-large", "seamlessM4T_v2_large", "vocoder_v2"],
  ["facebook/seamless-m4t-large", "seamlessM4T_large", "vocoder_36langs"],
  ["facebook/seamless-m4t-medium", "seamlessM4T_medium", "vocoder_36langs"],
];

const seamlessDownload = downloadWeights("https://github.com/facebookresearch/seamless_communication#readme");

export function seamlessSnippets(model: ModelData): LibrarySnippet[] {
  const card = SEAMLESS_CARDS.find(
    ([id]) => model.id.startsWith(id) && !/^[\w.-]/.test(model.id.slice(id.length)),
  );
  if (card === undefined) return seamlessDownload(model);
  const [, name, vocoder] = card;
  return [
    pipInstall(["git+https://github.com/facebookresearch/seamless_communication.git"]),
    snippet(
      py`import torch
from seamless_communication.inference import Translator

translator = Translator(${name}, ${vocoder}, torch.device("cuda:0"), dtype=torch.float16)
text_output, speech_output = translator.predict("Hello, world!", "t2st", "fra", src_lang="eng")`,
      "Translate",
    ),
  ];
}

export function miniOmni2Snippets(): LibrarySnippet[] {
  return [
    snippet(
      sh`git clone https://github.com/gpt-omni/mini-omni2
cd mini-omni2
pip install -r requirements.txt
python inference_vision.py`,
      "Run the bundled samples",
    ),
  ];
}

export const SPEECH_UNDERSTANDING_LIBRARIES = {
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
  asteroid: {
    prettyLabel: "Asteroid",
    repoName: "Asteroid",
    repoUrl: "https://github.com/asteroid-team/asteroid",
    docsUrl: "https://asteroid-team.github.io/asteroid/",
    snippets: fromPretrained({ pip: "asteroid", module: "asteroid.models", name: "BaseModel" }),
    filter: true,
    countDownloads: `path:"pytorch_model.bin"`,
  },
  k2: researchRepo("K2", "https://github.com/k2-fsa/k2", {
    repoName: "k2",
    docsUrl: "https://k2-fsa.github.io/k2/",
  }),
  "kimi-audio": {
    prettyLabel: "KimiAudio",
    repoName: "KimiAudio",
    repoUrl: "https://github.com/MoonshotAI/Kimi-Audio",
    docsUrl: readme("https://github.com/MoonshotAI/Kimi-Audio"),
    snippets: fromPretrained({
      pip: "git+https://github.com/MoonshotAI/Kimi-Audio.git",
      module: "kimia_infer.api.kimia",
      name: "KimiAudio",
      method: null,
      idKeyword: "model_path",
      extraArgs: py`load_detokenizer=True`,
    }),
    filter: false,
  },
  "mini-omni2": researchRepo("Mini-Omni2", "https://github.com/gpt-omni/mini-omni2", {
    snippets: miniOmni2Snippets,
    countDownloads: `path:"model_config.yaml"`,
  }),
  pyctcdecode: {
    prettyLabel: "pyctcdecode",
    repoName: "pyctcdecode",
    repoUrl: "https://github.com/kensho-technologies/pyctcdecode",
    docsUrl: readme("https://github.com/kensho-technologies/pyctcdecode"),
    snippets: fromPretrained({
      pip: "pyctcdecode",
      module: "pyctcdecode",
      name: "BeamSearchDecoderCTC",
      method: "load_from_hf_hub",
      variable: "decoder",
    }),
    filter: false,
  },
  reverb: researchRepo("Reverb", "https://github.com/revdotcom/reverb"),
  seamless_communication: researchRepo(
    "Seamless Communication",
    "https://github.com/facebookresearch/seamless_communication",
    { snippets: seamlessSnippets },
  ),
  "ssr-speech": researchRepo("SSR-Speech", "https://github.com/WangHelin1997/SSR-Speech", {
    countDownloads: `path_extension:"pth"`,
  }),
} satisfies Record<string, ModelLibrary>;
