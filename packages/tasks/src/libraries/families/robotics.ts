import type { ModelData } from "../../model-data.js";
import { researchRepo } from "../define.js";
import { pipInstall } from "../kit.js";
import { py, pythonIdentifier, pythonName, sh } from "../quote.js";
import type { ModelLibrary } from "../types.js";
import { type LibrarySnippet, snippet } from "../types.js";

/** LeRobot policies: the policy type is a tag of the repository (act, diffusion, smolvla, pi0...). */
const LEROBOT_POLICIES: Readonly<Record<string, string>> = {
  act: "ACTPolicy",
  diffusion: "DiffusionPolicy",
  smolvla: "SmolVLAPolicy",
  pi0: "PI0Policy",
  pi05: "PI05Policy",
  tdmpc: "TDMPCPolicy",
  vqbet: "VQBeTPolicy",
};

export function lerobotSnippets(model: ModelData): LibrarySnippet[] {
  const type = model.tags.find((tag) => Object.hasOwn(LEROBOT_POLICIES, tag));
  const out: LibrarySnippet[] = [pipInstall(["lerobot"])];
  if (type !== undefined) {
    const cls = pythonIdentifier(LEROBOT_POLICIES[type], "ACTPolicy");
    out.push(
      snippet(
        py`from ${pythonName(`lerobot.policies.${type}.modeling_${type}`)} import ${cls}

policy = ${cls}.from_pretrained(${model.id})`,
        "Load the policy",
      ),
    );
  }
  out.push(
    snippet(
      sh`lerobot-record --robot.type=so100_follower --dataset.repo_id=your-name/eval_dataset --policy.path=${model.id} --episodes=10`,
      "Run the policy on a robot",
    ),
  );
  return out;
}

/** Robot policies and reinforcement-learning agents. */
export const ROBOTICS_LIBRARIES = {
  laya: researchRepo("Laya", "https://github.com/NandhaKishorM/laya", {
    countDownloads: `path:"rl_agent_config.json"`,
  }),
  // Pollen Robotics' Microduck walking policies, exported to ONNX; offered as a filter like the public hub.
  microduck: researchRepo("Microduck", "https://github.com/pollen-robotics/microduck_rl", {
    filter: true,
    countDownloads: `path_extension:"onnx"`,
  }),
  hermes: researchRepo("HERMES", "https://github.com/LMD0311/HERMES", {
    countDownloads: `path:"ckpt/hermes_final.pth"`,
  }),
  holomotion: researchRepo("HoloMotion", "https://github.com/HorizonRobotics/HoloMotion", {
    countDownloads: `path_extension:"onnx"`,
  }),
  lerobot: researchRepo("LeRobot", "https://github.com/huggingface/lerobot", {
    docsUrl: "https://huggingface.co/docs/lerobot",
    snippets: lerobotSnippets,
  }),
  "mbrl-lib": researchRepo("MBRL-Lib", "https://github.com/facebookresearch/mbrl-lib", {
    docsUrl: "https://facebookresearch.github.io/mbrl-lib/",
  }),
  "robo-orchard-lab": researchRepo("RoboOrchardLab", "https://github.com/HorizonRobotics/RoboOrchardLab", {
    countDownloads: `path_extension:"safetensors"`,
  }),
  same: researchRepo("SAME", "https://github.com/GengzeZhou/SAME", {
    countDownloads: `path:"ckpt/SAME.pt" OR path:"pretrain/Attnq_pretrained_ckpt.pt"`,
  }),
} satisfies Record<string, ModelLibrary>;
