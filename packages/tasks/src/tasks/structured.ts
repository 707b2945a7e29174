import type { PipelineType } from "../pipelines.js";
import type { TaskDefinition } from "./types.js";

/** Tabular, time-series, reinforcement-learning, graph and catch-all tasks. */
export const STRUCTURED_TASKS = {
  "reinforcement-learning": {
    summary: "Agents that learn to act in an environment by trial, error and reward.",
    models: [
      {
        id: "sb3/dqn-SpaceInvadersNoFrameskip-v4",
        description: "DQN agent playing Space Invaders (Stable-Baselines3).",
      },
      { id: "sb3/ppo-LunarLander-v2", description: "PPO agent landing a lunar module." },
    ],
    io: { inputs: ["actions"], outputs: ["actions"] },
    demo: {
      inputs: [{ type: "video", filename: "environment.mp4" }],
      outputs: [{ type: "video", filename: "agent.mp4" }],
    },
  },
  robotics: {
    summary: "Policies that map a robot's observations to motor actions.",
    models: [
      { id: "lerobot/pi0", description: "Vision-language-action policy." },
      { id: "lerobot/diffusion_pusht", description: "Diffusion policy for the Push-T task." },
    ],
    io: { inputs: ["image", "text"], outputs: ["actions"] },
    demo: {
      inputs: [{ type: "video", filename: "robot-camera.mp4" }],
      outputs: [{ type: "video", filename: "robot-arm.mp4" }],
    },
  },
  "tabular-classification": {
    summary: "Predict a category for each row of a table from its other columns.",
    models: [
      { id: "julien-c/wine-quality", description: "scikit-learn wine quality classifier." },
      { id: "Prior-Labs/TabPFNv2-clf", description: "TabPFN, in-context learning on small tables." },
    ],
    io: { inputs: ["table"], outputs: ["labels"] },
    demo: {
      inputs: [
        {
          type: "table",
          data: [
            ["fixed_acidity", "alcohol", "pH"],
            ["7.4", "9.4", "3.51"],
          ],
        },
      ],
      outputs: [{ type: "table", data: [["quality"], ["5"]] }],
    },
  },
  "tabular-regression": {
    summary: "Predict a number for each row of a table from its other columns.",
    models: [
      { id: "scikit-learn/Fish-Weight", description: "scikit-learn regression of a fish's weight." },
      { id: "Prior-Labs/TabPFNv2-reg", description: "TabPFN for regression." },
    ],
    io: { inputs: ["table"], outputs: ["scores"] },
    demo: {
      inputs: [
        {
          type: "table",
          data: [
            ["Length1", "Height", "Width"],
            ["23.2", "11.52", "4.02"],
          ],
        },
      ],
      outputs: [{ type: "table", data: [["Weight"], ["242.0"]] }],
    },
  },
  "tabular-to-text": {
    summary: "Describe structured records (e.g. RDF triples) in prose.",
    models: [],
    io: { inputs: ["table"], outputs: ["text"] },
    demo: { inputs: [], outputs: [] },
    isPlaceholder: true,
    noDefaultModelReason: "no model is maintained for this hidden task; pick a text-generation model",
  },
  "time-series-forecasting": {
    summary: "Predict the next values of a series from its history.",
    models: [
      { id: "amazon/chronos-t5-small", description: "Chronos, pre-trained probabilistic forecasting." },
      { id: "google/timesfm-2.0-500m-pytorch", description: "TimesFM foundation model for forecasting." },
    ],
    io: { inputs: ["time-series"], outputs: ["time-series"] },
    demo: {
      inputs: [
        {
          type: "table",
          data: [
            ["t", "value"],
            ["1", "112"],
            ["2", "118"],
            ["3", "132"],
          ],
        },
      ],
      outputs: [
        {
          type: "table",
          data: [
            ["t", "forecast"],
            ["4", "129"],
          ],
        },
      ],
    },
  },
  "graph-ml": {
    summary: "Learn from graphs: classify nodes, predict links, score molecules.",
    models: [
      { id: "clefourrier/graphormer-base-pcqm4mv2", description: "Graphormer pre-trained on molecules." },
    ],
    io: { inputs: ["graph"], outputs: ["labels"] },
    demo: { inputs: [], outputs: [] },
    isPlaceholder: true,
  },
  other: {
    summary: "Models whose task fits none of the categories above.",
    models: [],
    io: { inputs: ["any"], outputs: ["any"] },
    demo: { inputs: [], outputs: [] },
    isPlaceholder: true,
    noDefaultModelReason: "'other' gathers unrelated models, so none can stand for the task",
  },
} satisfies Partial<Record<PipelineType, TaskDefinition>>;
