import { researchRepo } from "../catalogue/define.js";
import type { ModelLibrary } from "../types.js";

/** Robot policies and reinforcement-learning agents added with the late-2026 catalogue. */
export const ROBOTICS_LIBRARIES = {
  laya: researchRepo("Laya", "https://github.com/NandhaKishorM/laya", {
    countDownloads: `path:"rl_agent_config.json"`,
  }),
  // Pollen Robotics' Microduck walking policies, exported to ONNX; offered as a filter like the public hub.
  microduck: researchRepo("Microduck", "https://github.com/pollen-robotics/microduck_rl", {
    filter: true,
    countDownloads: `path_extension:"onnx"`,
  }),
} satisfies Record<string, ModelLibrary>;
