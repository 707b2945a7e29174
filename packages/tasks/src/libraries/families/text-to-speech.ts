import type { ModelData } from "../../model-data.js";
import { readme, researchRepo } from "../define.js";
import { exampleText } from "../examples.js";
import { cloneDownloadRun, fromPretrained, pipInstall } from "../kit.js";
import { comment, joinCode, py, pythonIdentifier, sh } from "../quote.js";
import { type LibrarySnippet, type ModelLibrary, snippet } from "../types.js";

/** Text-to-speech and voice-cloning libraries. */

/**
 * A Piper voice is an ONNX file with its JSON config beside it (`<voice>.onnx.json`); voice collections hold
 * many, so the snippet names the first `.onnx` of the repository.
 */
function piperSnippets(model: ModelData): LibrarySnippet[] {
  const voice = model.siblings?.find((file) => file.rfilename.toLowerCase().endsWith(".onnx"))?.rfilename;
  return [
    pipInstall(["piper-tts"]),
    snippet(
      joinCode("python", [
        py`import wave`,
        py``,
        py`from huggingface_hub import hf_hub_download`,
        py`from piper import PiperVoice`,
        py``,
        ...(voice === undefined ? [comment("python", "Name one of the repository's .onnx voices")] : []),
        py`voice_file = ${voice ?? "voice.onnx"}`,
        py`model_path = hf_hub_download(${model.id}, voice_file)`,
        py`hf_hub_download(${model.id}, voice_file + ".json")  # the voice's config, read from beside it`,
        py`voice = PiperVoice.load(model_path)`,
        py`with wave.open("speech.wav", "wb") as wav_file:`,
        py`    voice.synthesize_wav("Piper reads this sentence aloud.", wav_file)`,
      ]),
      "Speak a sentence",
    ),
  ];
}

/** CosyVoice 2 and 3 checkpoints load with their own class; the generation is in the repository name. */
export function cosyvoiceSnippets(model: ModelData): LibrarySnippet[] {
  const cls = pythonIdentifier(/CosyVoice2/i.test(model.id) ? "CosyVoice2" : "CosyVoice", "CosyVoice");
  return [
    snippet(
      py`import sys

sys.path.append("third_party/Matcha-TTS")  # run from a clone of the CosyVoice repository
from cosyvoice.cli.cosyvoice import ${cls}
from huggingface_hub import snapshot_download

cosyvoice = ${cls}(snapshot_download(repo_id=${model.id}))`,
      "Load the model",
    ),
  ];
}

/** Libraries whose loader fetches their one official checkpoint by itself. */
export function chatTtsSnippets(): LibrarySnippet[] {
  return [
    pipInstall(["ChatTTS"]),
    snippet(
      py`import ChatTTS

chat = ChatTTS.Chat()
chat.load(compile=False)  # downloads the checkpoint from the Hub
wavs = chat.infer(["Hello from ChatTTS."])`,
      "Synthesize speech",
    ),
  ];
}

export function supertonicSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["supertonic"]),
    snippet(
      py`from supertonic import TTS

tts = TTS(auto_download=True)
style = tts.get_voice_style(voice_name="M1")
wav, duration = tts.synthesize(${exampleText(model)}, voice_style=style)
tts.save_audio(wav, "output.wav")`,
      "Synthesize speech",
    ),
  ];
}

export function coquiSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["coqui-tts"]),
    snippet(
      py`from huggingface_hub import snapshot_download
from TTS.api import TTS

model_dir = snapshot_download(repo_id=${model.id})
tts = TTS(model_path=model_dir, config_path=model_dir + "/config.json")
tts.tts_to_file(text=${exampleText(model)}, speaker_wav="reference.wav", language="en", file_path="output.wav")`,
      "Synthesize speech",
    ),
  ];
}

export function vuiSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["git+https://github.com/fluxions-ai/vui"]),
    snippet(
      py`import torchaudio
from vui.inference import render
from vui.model import Vui

model = Vui.from_pretrained().cuda()
waveform = render(model, ${exampleText(model)})
torchaudio.save("out.opus", waveform[0], 22050)`,
      "Synthesize speech",
    ),
  ];
}

/** OuteTTS picks its checkpoint from a model enum; this is the 1.0 release through the transformers backend. */
export function outettsSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["outetts"]),
    snippet(
      py`import outetts

interface = outetts.Interface(
    config=outetts.ModelConfig.auto_config(model=outetts.Models.VERSION_1_0_SIZE_1B, backend=outetts.Backend.HF)
)
speaker = interface.load_default_speaker("EN-FEMALE-1-NEUTRAL")
output = interface.generate(config=outetts.GenerationConfig(text=${exampleText(model)}, speaker=speaker))
output.save("output.wav")`,
      "Synthesize speech",
    ),
  ];
}

/** IMS Toucan speaks through its inference interface, run from a clone; it fetches its default model. */
export function imsToucanSnippets(): LibrarySnippet[] {
  return [
    snippet(
      py`# Run from a clone of https://github.com/DigitalPhonetics/IMS-Toucan
from InferenceInterfaces.ToucanTTSInterface import ToucanTTSInterface

tts = ToucanTTSInterface(device="cpu")
tts.set_language("eng")
tts.read_to_file(text_list=["Hello, this is IMS Toucan."], file_location="speech.wav")`,
      "Synthesize speech",
    ),
  ];
}

/** Seamless loads models by card name; the cards of the published M4T checkpoints and their vocoders. */

/** Habibi-TTS is F5-TTS with dialect conditioning: F5's loader, Habibi's inference with a dialect id. */
export function habibiTtsSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["habibi-tts"]),
    snippet(
      py`from importlib.resources import files

from f5_tts.infer.utils_infer import load_model, load_vocoder, preprocess_ref_audio_text
from habibi_tts.infer.utils_infer import infer_process
from habibi_tts.model.utils import dialect_id_map
from huggingface_hub import hf_hub_download
from hydra.utils import get_class
from omegaconf import OmegaConf

cfg = OmegaConf.load(str(files("f5_tts").joinpath("configs/F5TTS_v1_Base.yaml")))
model = load_model(
    get_class("f5_tts.model." + cfg.model.backbone),
    cfg.model.arch,
    hf_hub_download(${model.id}, "Unified/model_200000.safetensors"),
    mel_spec_type="vocos",
    vocab_file=hf_hub_download(${model.id}, "Unified/vocab.txt"),
)
vocoder = load_vocoder()
ref_audio, ref_text = preprocess_ref_audio_text("reference.wav", "Transcript of the reference audio.")
wav, sample_rate, _ = infer_process(ref_audio, ref_text, ${exampleText(model, "مرحبا بكم")}, model, vocoder, dialect_id=dialect_id_map["MSA"])`,
      "Synthesize speech",
    ),
  ];
}

export function f5TtsSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      sh`pip install f5-tts
f5-tts_infer-cli --model F5TTS_v1_Base --ref_audio reference.wav --ref_text "Text spoken in the reference." --gen_text ${exampleText(model)}`,
      "Synthesize speech",
    ),
  ];
}

export const glmTtsSnippets = cloneDownloadRun(
  "https://github.com/zai-org/GLM-TTS",
  "ckpt",
  sh`python glmtts_inference.py --data=example_zh --exp_name=_test --use_cache`,
);

/** One library under two library names (`dia`, `dia-tts`). */
const dia = {
  prettyLabel: "Dia",
  repoName: "Dia",
  repoUrl: "https://github.com/nari-labs/dia",
  docsUrl: readme("https://github.com/nari-labs/dia"),
  snippets: fromPretrained({
    pip: "git+https://github.com/nari-labs/dia.git",
    module: "dia.model",
    name: "Dia",
    usage: py`output = model.generate("[S1] Hello from Dia. [S2] Hi there!")`,
  }),
  filter: false,
} satisfies ModelLibrary;

/** One library under two library names (`qwen3-tts`, `qwen3_tts`). */
const qwen3Tts = {
  prettyLabel: "Qwen3-TTS",
  repoName: "Qwen3-TTS",
  repoUrl: "https://github.com/QwenLM/Qwen3-TTS",
  docsUrl: readme("https://github.com/QwenLM/Qwen3-TTS"),
  snippets: fromPretrained({
    pip: "qwen-tts",
    module: "qwen_tts",
    name: "Qwen3TTSModel",
    extraArgs: py`device_map="cuda:0"`,
  }),
  filter: false,
} satisfies ModelLibrary;

/** The libraries of this family, keyed by the `library_name` their models declare. */

export const TEXT_TO_SPEECH_LIBRARIES = {
  piper: {
    prettyLabel: "Piper",
    repoName: "Piper",
    repoUrl: "https://github.com/OHF-Voice/piper1-gpl",
    docsUrl: "https://github.com/OHF-Voice/piper1-gpl#readme",
    snippets: piperSnippets,
    filter: false,
    countDownloads: `path_extension:"onnx" OR path_extension:"ckpt"`,
  },
  chat_tts: researchRepo("ChatTTS", "https://github.com/2noise/ChatTTS", {
    docsUrl: "https://2noise.com/",
    countDownloads: `path:"asset/GPT.pt"`,
    snippets: chatTtsSnippets,
  }),
  coqui: researchRepo("Coqui TTS", "https://github.com/coqui-ai/TTS", {
    docsUrl: "https://docs.coqui.ai/en/latest/",
    countDownloads: `path:"model.pth"`,
    snippets: coquiSnippets,
  }),
  cosyvoice: researchRepo("CosyVoice", "https://github.com/FunAudioLLM/CosyVoice", {
    countDownloads: `path_extension:"onnx" OR path_extension:"pt"`,
    snippets: cosyvoiceSnippets,
  }),
  dia,
  "dia-tts": dia,
  dia2: {
    prettyLabel: "Dia2",
    repoName: "Dia2",
    repoUrl: "https://github.com/nari-labs/dia2",
    docsUrl: readme("https://github.com/nari-labs/dia2"),
    snippets: fromPretrained({
      pip: "git+https://github.com/nari-labs/dia2.git",
      module: "dia2",
      name: "Dia2",
      method: "from_repo",
      extraArgs: py`device="cuda"`,
    }),
    filter: false,
  },
  "f5-tts": researchRepo("F5-TTS", "https://github.com/SWivid/F5-TTS", {
    countDownloads: `path_extension:"safetensors" OR path_extension:"pt"`,
    snippets: f5TtsSnippets,
  }),
  "glm-tts": researchRepo("GLM-TTS", "https://github.com/zai-org/GLM-TTS", {
    snippets: glmTtsSnippets,
    countDownloads: `path:"flow/flow.pt"`,
  }),
  "habibi-tts": researchRepo("Habibi-TTS", "https://github.com/SWivid/Habibi-TTS", {
    snippets: habibiTtsSnippets,
    countDownloads: `path_extension:"safetensors"`,
  }),
  imstoucan: researchRepo("IMS Toucan", "https://github.com/DigitalPhonetics/IMS-Toucan", {
    snippets: imsToucanSnippets,
    repoName: "IMS-Toucan",
    countDownloads: `path:"embedding_gan.pt" OR path:"Vocoder.pt" OR path:"ToucanTTS.pt"`,
  }),
  kittentts: {
    prettyLabel: "KittenTTS",
    repoName: "KittenTTS",
    repoUrl: "https://github.com/KittenML/KittenTTS",
    docsUrl: readme("https://github.com/KittenML/KittenTTS"),
    snippets: fromPretrained({
      pip: "kittentts",
      module: "kittentts",
      name: "KittenTTS",
      method: null,
      usage: py`audio = model.generate("This text is spoken without a GPU.")`,
    }),
    filter: false,
  },
  "mars5-tts": {
    prettyLabel: "MARS5-TTS",
    repoName: "MARS5-TTS",
    repoUrl: "https://github.com/Camb-ai/MARS5-TTS",
    docsUrl: readme("https://github.com/Camb-ai/MARS5-TTS"),
    snippets: fromPretrained({ module: "inference", name: "Mars5TTS", variable: "mars5" }),
    filter: false,
    countDownloads: `path:"mars5_ar.safetensors"`,
  },
  outetts: researchRepo("OuteTTS", "https://github.com/edwko/OuteTTS", { snippets: outettsSnippets }),
  "pocket-tts": {
    prettyLabel: "Pocket TTS",
    repoName: "pocket-tts",
    repoUrl: "https://github.com/kyutai-labs/pocket-tts",
    docsUrl: readme("https://github.com/kyutai-labs/pocket-tts"),
    snippets: fromPretrained({
      pip: "pocket-tts",
      module: "pocket_tts",
      name: "TTSModel",
      method: "load_model",
      variable: "tts_model",
    }),
    filter: false,
  },
  "qwen3-tts": qwen3Tts,
  qwen3_tts: qwen3Tts,
  supertonic: researchRepo("Supertonic", "https://github.com/supertone-inc/supertonic", {
    snippets: supertonicSnippets,
  }),
  vibevoice: {
    prettyLabel: "VibeVoice",
    repoName: "VibeVoice",
    repoUrl: "https://github.com/microsoft/VibeVoice",
    docsUrl: readme("https://github.com/microsoft/VibeVoice"),
    snippets: fromPretrained({
      pip: "git+https://github.com/microsoft/VibeVoice.git",
      module: "vibevoice.modular.modeling_vibevoice_inference",
      name: "VibeVoiceForConditionalGenerationInference",
    }),
    filter: false,
  },
  voicecraft: {
    prettyLabel: "VoiceCraft",
    repoName: "VoiceCraft",
    repoUrl: "https://github.com/jasonppy/VoiceCraft",
    docsUrl: readme("https://github.com/jasonppy/VoiceCraft"),
    snippets: fromPretrained({ module: "models.voicecraft", name: "VoiceCraft" }),
    filter: false,
  },
  voxcpm: {
    prettyLabel: "VoxCPM",
    repoName: "VoxCPM",
    repoUrl: "https://github.com/OpenBMB/VoxCPM",
    docsUrl: readme("https://github.com/OpenBMB/VoxCPM"),
    snippets: fromPretrained({
      pip: "voxcpm",
      module: "voxcpm",
      name: "VoxCPM",
      usage: py`wav = model.generate(text="VoxCPM turns this sentence into speech.")`,
    }),
    filter: false,
  },
  vui: researchRepo("Vui", "https://github.com/fluxions-ai/vui", {
    countDownloads: `path_extension:"pt"`,
    snippets: vuiSnippets,
  }),
  zonos: {
    prettyLabel: "Zonos",
    repoName: "Zonos",
    repoUrl: "https://github.com/Zyphra/Zonos",
    docsUrl: readme("https://github.com/Zyphra/Zonos"),
    snippets: fromPretrained({
      pip: "git+https://github.com/Zyphra/Zonos.git",
      module: "zonos.model",
      name: "Zonos",
      extraArgs: py`device="cuda"`,
    }),
    filter: false,
  },
} satisfies Record<string, ModelLibrary>;
