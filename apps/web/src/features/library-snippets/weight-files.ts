import { holdsWeights } from "../local-apps/quant-label.js";

/**
 * Extensions of the files libraries load weights from (safetensors, PyTorch, TensorFlow/Keras, Flax, ONNX,
 * GGUF, Core ML, TFLite, NeMo, scikit-learn/joblib pickles, NumPy archives, llamafiles).
 */
const WEIGHT_EXTENSIONS = new Set([
  "safetensors",
  "bin",
  "pt",
  "pth",
  "ckpt",
  "h5",
  "keras",
  "msgpack",
  "onnx",
  "gguf",
  "ggml",
  "tflite",
  "mlmodel",
  "nemo",
  "pkl",
  "joblib",
  "npz",
  "llamafile",
]);

/** A file of a repository as its info lists it (`blobs=true` gives sizes). */
export interface RepoFile {
  rfilename: string;
  size?: number;
}

function extension(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot + 1).toLowerCase();
}

/**
 * The files of `files` that can hold the model's weights. A GGUF file too small for its parameter count (under
 * a bit a weight: a metadata-only demo copy's) holds none, so it is not one of them.
 */
export function weightFiles(files: readonly RepoFile[], ggufParameters: number | undefined): RepoFile[] {
  return files.filter((file) => {
    const kind = extension(file.rfilename);
    if (!WEIGHT_EXTENSIONS.has(kind)) return false;
    return kind !== "gguf" || holdsWeights({ size: file.size }, ggufParameters);
  });
}
