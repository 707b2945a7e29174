import type { ModelData } from "../../model-data.js";
import { readme } from "../define.js";
import { EXAMPLE_AUDIO_FILE, exampleText } from "../examples.js";
import { pipInstall } from "../kit.js";
import { MESSAGE_TITLE, UNKNOWN_MODEL_TYPE } from "../messages.js";
import { comment, py, sh } from "../quote.js";
import type { ModelLibrary } from "../types.js";
import { type LibrarySnippet, snippet } from "../types.js";

/** Speech and audio libraries. */

function unknown(): LibrarySnippet[] {
  return [snippet(comment("python", UNKNOWN_MODEL_TYPE), MESSAGE_TITLE)];
}

function hasTask(model: ModelData, task: string): boolean {
  return model.pipeline_tag === task || model.tags.includes(task);
}

export function espnetSnippets(model: ModelData): LibrarySnippet[] {
  if (hasTask(model, "text-to-speech")) {
    return [
      snippet(
        py`from espnet2.bin.tts_inference import Text2Speech

model = Text2Speech.from_pretrained(${model.id})
speech, *_ = model(${exampleText(model)})`,
        "Synthesize speech",
      ),
    ];
  }
  if (hasTask(model, "automatic-speech-recognition")) {
    return [
      snippet(
        py`import soundfile
from espnet2.bin.asr_inference import Speech2Text

model = Speech2Text.from_pretrained(${model.id})
speech, rate = soundfile.read("speech.wav")
text, *_ = model(speech)[0]`,
        "Transcribe speech",
      ),
    ];
  }
  return unknown();
}

export function nemoSnippets(model: ModelData): LibrarySnippet[] {
  if (!hasTask(model, "automatic-speech-recognition")) return unknown();
  return [
    pipInstall(["nemo_toolkit[asr]"]),
    snippet(
      py`import nemo.collections.asr as nemo_asr

asr_model = nemo_asr.models.ASRModel.from_pretrained(${model.id})
transcriptions = asr_model.transcribe([${EXAMPLE_AUDIO_FILE}])`,
      "Transcribe speech",
    ),
  ];
}

export function pyannoteSnippets(model: ModelData): LibrarySnippet[] {
  if (model.tags.includes("pyannote-audio-pipeline")) {
    return [
      snippet(
        py`from pyannote.audio import Pipeline

pipeline = Pipeline.from_pretrained(${model.id})
output = pipeline("audio.wav")`,
        "Run the pipeline",
      ),
    ];
  }
  return [
    snippet(
      py`from pyannote.audio import Inference, Model

model = Model.from_pretrained(${model.id})
inference = Inference(model)
output = inference("audio.wav")`,
      "Run the model",
    ),
  ];
}

export function audiocraftSnippets(model: ModelData): LibrarySnippet[] {
  const family = model.tags.includes("musicgen")
    ? py`MusicGen`
    : model.tags.includes("audiogen")
      ? py`AudioGen`
      : model.tags.includes("magnet")
        ? py`MAGNeT`
        : undefined;
  if (!family) return unknown();
  return [
    pipInstall(["audiocraft"]),
    snippet(
      py`from audiocraft.models import ${family}

model = ${family}.get_pretrained(${model.id})
model.set_generation_params(duration=8)
wav = model.generate(["happy rock", "energetic EDM"])`,
      "Generate audio",
    ),
  ];
}

export function audiosealSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["audioseal"]),
    snippet(
      py`import torch
from audioseal import AudioSeal

generator = AudioSeal.load_generator(${model.id})
wav = torch.randn(1, 1, 16000)  # (batch, channels, samples) at 16 kHz
watermarked = wav + generator.get_watermark(wav, 16000)`,
      "Watermark audio",
    ),
  ];
}

export function tensorflowttsSnippets(model: ModelData): LibrarySnippet[] {
  if (model.tags.includes("text-to-mel")) {
    return [
      snippet(
        py`from tensorflow_tts.inference import AutoProcessor, TFAutoModel

processor = AutoProcessor.from_pretrained(${model.id})
model = TFAutoModel.from_pretrained(${model.id})`,
        "Load the text-to-mel model",
      ),
    ];
  }
  return [
    snippet(
      py`from tensorflow_tts.inference import TFAutoModel

model = TFAutoModel.from_pretrained(${model.id})`,
      "Load the model",
    ),
  ];
}

/** WhisperKit runs Core ML Whisper models on Apple devices; its CLI picks a variant from its model repository. */
export function whisperkitSnippets(): LibrarySnippet[] {
  return [
    snippet(
      sh`brew install whisperkit-cli
whisperkit-cli transcribe --model large-v3 --audio-path audio.mp3`,
      "Transcribe on macOS",
    ),
  ];
}

export function fairseqSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`from fairseq.checkpoint_utils import load_model_ensemble_and_task_from_hf_hub

models, cfg, task = load_model_ensemble_and_task_from_hf_hub(${model.id})`,
      "Load the model",
    ),
  ];
}

export function chatterboxSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["chatterbox-tts"]),
    snippet(
      py`import torchaudio
from chatterbox.tts import ChatterboxTTS
from huggingface_hub import snapshot_download

model = ChatterboxTTS.from_local(snapshot_download(repo_id=${model.id}), device="cuda")
wav = model.generate(${exampleText(model)})
torchaudio.save("output.wav", wav, model.sr)`,
      "Synthesize speech",
    ),
  ];
}

export function indexTtsSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`from huggingface_hub import snapshot_download
from indextts.infer import IndexTTS

snapshot_download(repo_id=${model.id}, local_dir="checkpoints")
tts = IndexTTS(model_dir="checkpoints", cfg_path="checkpoints/config.yaml")
tts.infer("reference_voice.wav", ${exampleText(model)}, "output.wav")`,
      "Synthesize speech",
    ),
  ];
}

export function stableAudioToolsSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["stable-audio-tools"]),
    snippet(
      py`from stable_audio_tools import get_pretrained_model
from stable_audio_tools.inference.generation import generate_diffusion_cond

model, model_config = get_pretrained_model(${model.id})
output = generate_diffusion_cond(
    model,
    conditioning=[{"prompt": "128 BPM tech house drum loop", "seconds_start": 0, "seconds_total": 10}],
    sample_size=model_config["sample_size"],
    device="cuda",
)`,
      "Generate audio",
    ),
  ];
}

/** Moshi repositories differ by backend, which only their names tell (…-mlx, …-candle, else PyTorch). */
export function moshiSnippets(model: ModelData): LibrarySnippet[] {
  if (model.id.includes("-mlx")) {
    return [
      snippet(
        sh`pip install moshi_mlx\npython -m moshi_mlx.local_web --hf-repo ${model.id}`,
        "Run on Apple silicon",
      ),
    ];
  }
  return [
    snippet(sh`pip install moshi\npython -m moshi.server --hf-repo ${model.id}`, "Run the web server"),
    snippet(
      py`from moshi.models import loaders

checkpoint = loaders.CheckpointInfo.from_hf_repo(${model.id})
mimi = checkpoint.get_mimi(device="cuda")`,
      "Load from Python",
    ),
  ];
}

export function kokoroSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["kokoro", "soundfile"]),
    snippet(
      py`import soundfile as sf
from kokoro import KPipeline

pipeline = KPipeline(lang_code="a", repo_id=${model.id})  # "a": American English
for i, (graphemes, phonemes, audio) in enumerate(pipeline(${exampleText(model)}, voice="af_heart")):
    sf.write(f"output_{i}.wav", audio, 24000)`,
      "Synthesize speech",
    ),
  ];
}

/** The libraries of this family, keyed by the `library_name` their models declare. */
export const AUDIO_LIBRARIES = {
  audiocraft: {
    prettyLabel: "Audiocraft",
    repoName: "audiocraft",
    repoUrl: "https://github.com/facebookresearch/audiocraft",
    docsUrl: "https://facebookresearch.github.io/audiocraft/api_docs/audiocraft/index.html",
    snippets: audiocraftSnippets,
    filter: false,
    countDownloads: `path:"state_dict.bin"`,
  },
  audioseal: {
    prettyLabel: "AudioSeal",
    repoName: "audioseal",
    repoUrl: "https://github.com/facebookresearch/audioseal",
    docsUrl: readme("https://github.com/facebookresearch/audioseal"),
    snippets: audiosealSnippets,
    filter: false,
    countDownloads: `path_extension:"pth"`,
  },
  chatterbox: {
    prettyLabel: "Chatterbox",
    repoName: "Chatterbox",
    repoUrl: "https://github.com/resemble-ai/chatterbox",
    docsUrl: readme("https://github.com/resemble-ai/chatterbox"),
    snippets: chatterboxSnippets,
    filter: false,
    countDownloads: `path:"tokenizer.json"`,
  },
  espnet: {
    prettyLabel: "ESPnet",
    repoName: "ESPnet",
    repoUrl: "https://github.com/espnet/espnet",
    docsUrl: "https://espnet.github.io/espnet/",
    snippets: espnetSnippets,
    filter: true,
  },
  fairseq: {
    prettyLabel: "Fairseq",
    repoName: "fairseq",
    repoUrl: "https://github.com/facebookresearch/fairseq",
    docsUrl: "https://fairseq.readthedocs.io/en/latest/",
    snippets: fairseqSnippets,
    filter: true,
  },
  "index-tts": {
    prettyLabel: "IndexTTS",
    repoName: "IndexTTS",
    repoUrl: "https://github.com/index-tts/index-tts",
    docsUrl: readme("https://github.com/index-tts/index-tts"),
    snippets: indexTtsSnippets,
    filter: false,
  },
  kokoro: {
    prettyLabel: "Kokoro",
    repoName: "kokoro",
    repoUrl: "https://github.com/hexgrad/kokoro",
    docsUrl: readme("https://github.com/hexgrad/kokoro"),
    snippets: kokoroSnippets,
    filter: false,
    countDownloads: `path_extension:"pth"`,
  },
  moshi: {
    prettyLabel: "Moshi",
    repoName: "Moshi",
    repoUrl: "https://github.com/kyutai-labs/moshi",
    docsUrl: readme("https://github.com/kyutai-labs/moshi"),
    snippets: moshiSnippets,
    filter: false,
    countDownloads: `path:"tokenizer-e351c8d8-checkpoint125.safetensors"`,
  },
  nemo: {
    prettyLabel: "NeMo",
    repoName: "NeMo",
    repoUrl: "https://github.com/NVIDIA/NeMo",
    docsUrl: "https://docs.nvidia.com/nemo-framework/user-guide/latest/overview.html",
    snippets: nemoSnippets,
    filter: true,
    countDownloads: `path_extension:"nemo" OR path:"model_config.yaml"`,
  },
  "pyannote-audio": {
    prettyLabel: "pyannote.audio",
    repoName: "pyannote-audio",
    repoUrl: "https://github.com/pyannote/pyannote-audio",
    docsUrl: readme("https://github.com/pyannote/pyannote-audio"),
    snippets: pyannoteSnippets,
    filter: true,
  },
  "stable-audio-tools": {
    prettyLabel: "Stable Audio Tools",
    repoName: "stable-audio-tools",
    repoUrl: "https://github.com/Stability-AI/stable-audio-tools",
    docsUrl: readme("https://github.com/Stability-AI/stable-audio-tools"),
    snippets: stableAudioToolsSnippets,
    filter: false,
    countDownloads: `path:"model.safetensors"`,
  },
  tensorflowtts: {
    prettyLabel: "TensorFlowTTS",
    repoName: "TensorFlowTTS",
    repoUrl: "https://github.com/TensorSpeech/TensorFlowTTS",
    docsUrl: readme("https://github.com/TensorSpeech/TensorFlowTTS"),
    snippets: tensorflowttsSnippets,
    filter: false,
  },
  whisperkit: {
    prettyLabel: "WhisperKit",
    repoName: "WhisperKit",
    repoUrl: "https://github.com/argmaxinc/WhisperKit",
    docsUrl: readme("https://github.com/argmaxinc/WhisperKit"),
    snippets: whisperkitSnippets,
    filter: false,
    countDownloads: `path_filename:"model" AND path_extension:"mil" AND _exists_:"path_prefix"`,
  },
} satisfies Record<string, ModelLibrary>;
