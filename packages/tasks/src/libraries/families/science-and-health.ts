import type { ModelData } from "../../model-data.js";
import { researchRepo } from "../catalogue/define.js";
import { joinCode, py, sh } from "../quote.js";
import { fromPretrained, pipInstall } from "../snippets/kit.js";
import { type LibrarySnippet, type ModelLibrary, snippet } from "../types.js";

/** Medical imaging, molecules and drug design libraries added with the late-2026 catalogue. */

/** OpenDDE's command fetches its own published checkpoints into $OPENDDE_ROOT_DIR; it takes no repository id. */
function openDdeSnippets(): LibrarySnippet[] {
  return [
    pipInstall(["opendde[gpu]"]),
    snippet(
      sh`opendde doctor
opendde pred -i examples/input.json -o ./output -n opendde_v1`,
      "Check the setup and predict",
    ),
  ];
}

/** Tokenizer and model of a MultiMolecule checkpoint (RNA, DNA and protein language models). */
function multimoleculeSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["multimolecule"]),
    snippet(
      joinCode("python", [
        py`from multimolecule import AutoModel, AutoTokenizer`,
        py``,
        py`tokenizer = AutoTokenizer.from_pretrained(${model.id})`,
        py`model = AutoModel.from_pretrained(${model.id})`,
      ]),
      "Load the model",
    ),
  ];
}

export const SCIENCE_AND_HEALTH_LIBRARIES = {
  chexmix: researchRepo("CheXmix", "https://github.com/StanfordMIMI/CheXmix", {
    countDownloads: `path_extension:"safetensors"`,
  }),
  flexray: {
    prettyLabel: "FleXray",
    repoName: "FleXray",
    repoUrl: "https://github.com/VictorButoi/FleXray",
    docsUrl: "https://github.com/VictorButoi/FleXray#readme",
    snippets: fromPretrained({
      pip: "flexray",
      module: "fxr.inference",
      name: "FleXraySegmenter",
      variable: "segmenter",
      usage: py`prediction = segmenter.predict("image.png", threshold=0.5)
masks = prediction.masks`,
    }),
    filter: false,
    countDownloads: `path_extension:"safetensors" OR path_extension:"onnx"`,
  },
  multimolecule: {
    prettyLabel: "MultiMolecule",
    repoName: "MultiMolecule",
    repoUrl: "https://github.com/MultiMolecule/multimolecule",
    docsUrl: "https://multimolecule.danling.org",
    snippets: multimoleculeSnippets,
    filter: false,
  },
  opendde: {
    prettyLabel: "OpenDDE",
    repoName: "OpenDDE",
    repoUrl: "https://github.com/aurekaresearch/OpenDDE",
    docsUrl: "https://huggingface.co/aurekaresearch/OpenDDE/blob/main/docs/inference_instructions.md",
    snippets: openDdeSnippets,
    filter: false,
    countDownloads: `path_extension:"pt"`,
  },
} satisfies Record<string, ModelLibrary>;
