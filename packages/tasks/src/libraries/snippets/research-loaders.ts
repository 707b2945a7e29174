import type { ModelData } from "../../model-data.js";
import { comment, joinCode, py, sh } from "../quote.js";
import { type LibrarySnippet, snippet } from "../types.js";
import { pipInstall, repoFile } from "./kit.js";

/**
 * Research code bases added with the 2026 catalogue refresh: their checkpoints load with a documented
 * class or command. Facts (class names, flags, folders) come from each project's README, linked from the
 * catalogue.
 */

/** clipscope sparse autoencoders are single `.pt` files inside a repository; the loader takes both names. */
export function clipscopeSnippets(model: ModelData): LibrarySnippet[] {
  const file = model.siblings?.find((s) => s.rfilename.toLowerCase().endsWith(".pt"))?.rfilename;
  const lines = [py`from clipscope import TopKSAE`, py``];
  if (file === undefined)
    lines.push(comment("python", "Name one of the repository's .pt checkpoints as filename"));
  lines.push(
    py`sae = TopKSAE.from_pretrained(repo_id=${model.id}, filename=${file ?? "checkpoint.pt"}, device="cpu")`,
  );
  return [pipInstall(["clipscope"]), snippet(joinCode("python", lines), "Load the sparse autoencoder")];
}

/** Self-Forcing distils Wan2.1-T2V-1.3B: its inference script reads the base model from wan_models/. */
export function selfForcingSnippets(model: ModelData): LibrarySnippet[] {
  const checkpoint = repoFile(model, ["self_forcing_dmd.pt"], "checkpoints/self_forcing_dmd.pt");
  return [
    snippet(
      sh`git clone https://github.com/guandeh17/Self-Forcing
cd Self-Forcing
pip install -r requirements.txt
hf download Wan-AI/Wan2.1-T2V-1.3B --local-dir wan_models/Wan2.1-T2V-1.3B
hf download ${model.id} ${checkpoint} --local-dir .
python inference.py --config_path configs/self_forcing_dmd.yaml --checkpoint_path ${checkpoint} --data_path prompts/MovieGenVideoBench_extended.txt --output_folder videos --use_ema`,
      "Download and run",
    ),
  ];
}

/** Apple's SHARP predicts 3D Gaussians from images with its `sharp` command; `-c` names a local checkpoint. */
export function mlSharpSnippets(model: ModelData): LibrarySnippet[] {
  const checkpoint = repoFile(model, [".pt"], "sharp_2572gikvuh.pt");
  return [
    snippet(
      sh`git clone https://github.com/apple/ml-sharp
cd ml-sharp
pip install -r requirements.txt
hf download ${model.id} ${checkpoint} --local-dir checkpoints
sharp predict -i images/ -o gaussians/ -c checkpoints/${checkpoint}`,
      "Predict Gaussians from images",
    ),
  ];
}
