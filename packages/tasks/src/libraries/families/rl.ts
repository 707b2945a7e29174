import type { ModelData } from "../../model-data.js";
import { modelName } from "../examples.js";
import { pipInstall, repoFile } from "../kit.js";
import { py, pythonIdentifier, pythonName, sh } from "../quote.js";
import type { ModelLibrary } from "../types.js";
import { type LibrarySnippet, snippet } from "../types.js";

/** Reinforcement-learning libraries. */

/** The agent archive: a .zip file of the repository when listed, else the RL Zoo's naming (<repo name>.zip). */
function agentArchive(model: ModelData): string {
  return repoFile(model, [".zip"], `${modelName(model)}.zip`);
}

/** RL Zoo archives are named <algorithm>-<environment>.zip; the algorithm picks the class that loads it. */
const SB3_ALGORITHMS: Readonly<Record<string, { module: string; cls: string }>> = {
  a2c: { module: "stable_baselines3", cls: "A2C" },
  ddpg: { module: "stable_baselines3", cls: "DDPG" },
  dqn: { module: "stable_baselines3", cls: "DQN" },
  ppo: { module: "stable_baselines3", cls: "PPO" },
  sac: { module: "stable_baselines3", cls: "SAC" },
  td3: { module: "stable_baselines3", cls: "TD3" },
  ars: { module: "sb3_contrib", cls: "ARS" },
  qrdqn: { module: "sb3_contrib", cls: "QRDQN" },
  tqc: { module: "sb3_contrib", cls: "TQC" },
  trpo: { module: "sb3_contrib", cls: "TRPO" },
  ppo_lstm: { module: "sb3_contrib", cls: "RecurrentPPO" },
};

export function stableBaselines3Snippets(model: ModelData): LibrarySnippet[] {
  const archive = agentArchive(model);
  const prefix = /^([a-z0-9_]+?)-/.exec(archive.slice(archive.lastIndexOf("/") + 1).toLowerCase())?.[1];
  const known = prefix !== undefined && Object.hasOwn(SB3_ALGORITHMS, prefix);
  const { module, cls } = known ? SB3_ALGORITHMS[prefix]! : SB3_ALGORITHMS.ppo!;
  const algorithm = pythonIdentifier(cls, "PPO");
  return [
    pipInstall(
      module === "sb3_contrib"
        ? ["sb3-contrib", "huggingface-sb3"]
        : ["stable-baselines3", "huggingface-sb3"],
    ),
    snippet(
      py`from huggingface_sb3 import load_from_hub
from ${pythonName(module)} import ${algorithm}${known ? py`` : py`  # use the algorithm the agent was trained with`}

checkpoint = load_from_hub(repo_id=${model.id}, filename=${archive})
model = ${algorithm}.load(checkpoint)`,
      "Load the agent",
    ),
  ];
}

export function mlAgentsSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(sh`mlagents-load-from-hf --repo-id=${model.id} --local-dir=./downloads`, "Download the agent"),
  ];
}

export function sampleFactorySnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      sh`python -m sample_factory.huggingface.load_from_hub -r ${model.id} -d ./train_dir`,
      "Download the agent",
    ),
  ];
}

/** CleanRL repositories are named <env id>-<experiment>-seed<n>, which is what its enjoy script takes. */
export function cleanrlSnippets(model: ModelData): LibrarySnippet[] {
  const parts = /^(.+)-([A-Za-z0-9_]+)-seed(\d+)$/.exec(modelName(model));
  const owner = model.id.includes("/") ? model.id.slice(0, model.id.indexOf("/")) : "cleanrl";
  if (!parts) {
    return [snippet(sh`hf download ${model.id} --local-dir ${modelName(model)}`, "Download the agent")];
  }
  const [, envId = "", experiment = "", seed = "1"] = parts;
  return [
    snippet(
      sh`pip install "cleanrl[jax,atari]"
python -m cleanrl_utils.enjoy --exp-name ${experiment} --env-id ${envId} --hf-entity ${owner} --seed ${seed}`,
      "Watch the agent play",
    ),
  ];
}

/** The libraries of this family, keyed by the `library_name` their models declare. */
export const RL_LIBRARIES = {
  cleanrl: {
    prettyLabel: "CleanRL",
    repoName: "CleanRL",
    repoUrl: "https://github.com/vwxyzjn/cleanrl",
    docsUrl: "https://docs.cleanrl.dev/",
    snippets: cleanrlSnippets,
    filter: false,
    countDownloads: `path_extension:"cleanrl_model"`,
  },
  "ml-agents": {
    prettyLabel: "ml-agents",
    repoName: "ml-agents",
    repoUrl: "https://github.com/Unity-Technologies/ml-agents",
    docsUrl: "https://huggingface.co/docs/hub/ml-agents",
    snippets: mlAgentsSnippets,
    filter: true,
    countDownloads: `path_extension:"onnx"`,
  },
  "sample-factory": {
    prettyLabel: "sample-factory",
    repoName: "sample-factory",
    repoUrl: "https://github.com/alex-petrenko/sample-factory",
    docsUrl: "https://huggingface.co/docs/hub/sample-factory",
    snippets: sampleFactorySnippets,
    filter: true,
    countDownloads: `path:"cfg.json"`,
  },
  "stable-baselines3": {
    prettyLabel: "stable-baselines3",
    repoName: "stable-baselines3",
    repoUrl: "https://github.com/huggingface/huggingface_sb3",
    docsUrl: "https://huggingface.co/docs/hub/stable-baselines3",
    snippets: stableBaselines3Snippets,
    filter: true,
    countDownloads: `path_extension:"zip"`,
  },
} satisfies Record<string, ModelLibrary>;
