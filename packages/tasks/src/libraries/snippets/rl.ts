import type { ModelData } from "../../model-data.js";
import { modelName } from "../examples.js";
import { py, sh } from "../quote.js";
import { type LibrarySnippet, snippet } from "../types.js";
import { pipInstall } from "./kit.js";

/** Reinforcement-learning libraries. */

/** The agent archive: a .zip file of the repository when listed, else the RL Zoo's naming (<repo name>.zip). */
function agentArchive(model: ModelData): string {
  return (
    model.siblings?.find((file) => file.rfilename.endsWith(".zip"))?.rfilename ?? `${modelName(model)}.zip`
  );
}

export function stableBaselines3Snippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["stable-baselines3", "huggingface-sb3"]),
    snippet(
      py`from huggingface_sb3 import load_from_hub
from stable_baselines3 import PPO  # use the algorithm the agent was trained with

checkpoint = load_from_hub(repo_id=${model.id}, filename=${agentArchive(model)})
model = PPO.load(checkpoint)`,
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
