import { py } from "../quote.js";
import { fromPretrained } from "./kit.js";

/**
 * Libraries whose models load with one call on one imported name, described as data.
 * Facts (module, class, method) come from each library's README or docs; see the catalogue for links.
 */
export const PRETRAINED_SNIPPETS = {
  araclip: fromPretrained({
    pip: "git+https://github.com/Arabic-Clip/Araclip.git",
    module: "araclip",
    name: "AraClip",
  }),
  asteroid: fromPretrained({ pip: "asteroid", module: "asteroid.models", name: "BaseModel" }),
  ben2: fromPretrained({
    pip: "git+https://github.com/PramaLLC/BEN2.git",
    module: "ben2",
    name: "BEN_Base",
    usage: py`model.to("cuda").eval()`,
  }),
  bertopic: fromPretrained({
    pip: "bertopic",
    module: "bertopic",
    name: "BERTopic",
    method: "load",
    variable: "topic_model",
  }),
  cartesiaPytorch: fromPretrained({
    pip: ["--no-binary", ":all:", "cartesia-pytorch"],
    module: "cartesia_pytorch",
    name: "ReneLMHeadModel",
  }),
  chronos: fromPretrained({
    pip: "chronos-forecasting",
    module: "chronos",
    name: "BaseChronosPipeline",
    variable: "pipeline",
    extraArgs: py`device_map="cpu"`,
  }),
  colpali: fromPretrained({ pip: "colpali-engine", module: "colpali_engine.models", name: "ColPali" }),
  dia: fromPretrained({
    pip: "git+https://github.com/nari-labs/dia.git",
    module: "dia.model",
    name: "Dia",
    usage: py`output = model.generate("[S1] Hello from Dia. [S2] Hi there!")`,
  }),
  dia2: fromPretrained({
    pip: "git+https://github.com/nari-labs/dia2.git",
    module: "dia2",
    name: "Dia2",
    method: "from_repo",
    extraArgs: py`device="cuda"`,
  }),
  gliner: fromPretrained({
    pip: "gliner",
    module: "gliner",
    name: "GLiNER",
    usage: py`entities = model.predict_entities("Apple was founded by Steve Jobs in Cupertino.", ["person", "organization", "location"])`,
  }),
  gliner2: fromPretrained({ pip: "gliner2", module: "gliner2", name: "GLiNER2" }),
  hunyuan3d: fromPretrained({
    pip: "git+https://github.com/Tencent/Hunyuan3D-2.git",
    module: "hy3dgen.shapegen",
    name: "Hunyuan3DDiTFlowMatchingPipeline",
    variable: "pipeline",
    usage: py`mesh = pipeline(image="image.png")[0]`,
  }),
  kernels: fromPretrained({
    pip: "kernels",
    module: "kernels",
    name: "get_kernel",
    method: null,
    variable: "kernel",
  }),
  kimiAudio: fromPretrained({
    pip: "git+https://github.com/MoonshotAI/Kimi-Audio.git",
    module: "kimia_infer.api.kimia",
    name: "KimiAudio",
    method: null,
    idKeyword: "model_path",
    extraArgs: py`load_detokenizer=True`,
  }),
  kittentts: fromPretrained({
    pip: "kittentts",
    module: "kittentts",
    name: "KittenTTS",
    method: null,
    usage: py`audio = model.generate("This text is spoken without a GPU.")`,
  }),
  mambaSsm: fromPretrained({
    pip: "mamba-ssm",
    module: "mamba_ssm.models.mixer_seq_simple",
    name: "MambaLMHeadModel",
  }),
  mars5: fromPretrained({ module: "inference", name: "Mars5TTS", variable: "mars5" }),
  matanyone: fromPretrained({
    pip: "git+https://github.com/pq-yang/MatAnyone.git",
    module: "matanyone",
    name: "InferenceCore",
    method: null,
    variable: "processor",
  }),
  miditok: fromPretrained({
    pip: "miditok",
    module: "miditok",
    // Load with the tokenizer class the repository was saved with; REMI is the most common one.
    name: "REMI",
    variable: "tokenizer",
  }),
  model2vec: fromPretrained({
    pip: "model2vec",
    module: "model2vec",
    name: "StaticModel",
    usage: py`embeddings = model.encode(["It's dangerous to go alone!", "It's a secret to everybody."])`,
  }),
  pocketTts: fromPretrained({
    pip: "pocket-tts",
    module: "pocket_tts",
    name: "TTSModel",
    method: "load_model",
    variable: "tts_model",
  }),
  pruna: fromPretrained({ pip: "pruna", module: "pruna", name: "PrunaModel" }),
  pxia: fromPretrained({ pip: "pxia", module: "pxia", name: "AutoModel" }),
  pyctcdecode: fromPretrained({
    pip: "pyctcdecode",
    module: "pyctcdecode",
    name: "BeamSearchDecoderCTC",
    method: "load_from_hf_hub",
    variable: "decoder",
  }),
  pythae: fromPretrained({
    pip: "pythae",
    module: "pythae.models",
    name: "AutoModel",
    method: "load_from_hf_hub",
  }),
  relik: fromPretrained({
    pip: "relik",
    module: "relik",
    name: "Relik",
    variable: "relik",
    usage: py`output = relik("Michael Jordan was one of the best players in the NBA.")`,
  }),
  renderformer: fromPretrained({
    module: "renderformer",
    name: "RenderFormerRenderingPipeline",
    variable: "pipeline",
  }),
  setfit: fromPretrained({
    pip: "setfit",
    module: "setfit",
    name: "SetFitModel",
    usage: py`predictions = model.predict(["I loved the spiderman movie!", "Pineapple on pizza is the worst."])`,
  }),
  spanMarker: fromPretrained({
    pip: "span_marker",
    module: "span_marker",
    name: "SpanMarkerModel",
    usage: py`entities = model.predict("Amelia Earhart flew her single engine Lockheed Vega 5B across the Atlantic to Paris.")`,
  }),
  swarmformer: fromPretrained({ pip: "swarmformer", module: "swarmformer", name: "SwarmFormerModel" }),
  tirex: fromPretrained({ pip: "tirex-ts", module: "tirex", name: "load_model", method: null }),
  trellis: fromPretrained({
    module: "trellis.pipelines",
    name: "TrellisImageTo3DPipeline",
    variable: "pipeline",
    usage: py`pipeline.cuda()`,
  }),
  uni2ts: fromPretrained({
    pip: "uni2ts",
    module: "uni2ts.model.moirai",
    name: "MoiraiModule",
    variable: "module",
  }),
  univa: fromPretrained({
    module: "univa.models.qwen2p5vl.modeling_univa_qwen2p5vl",
    name: "UnivaQwen2p5VLForConditionalGeneration",
  }),
  vfiMamba: fromPretrained({ module: "Trainer_finetune", name: "Model" }),
  vibevoice: fromPretrained({
    pip: "git+https://github.com/microsoft/VibeVoice.git",
    module: "vibevoice.modular.modeling_vibevoice_inference",
    name: "VibeVoiceForConditionalGenerationInference",
  }),
  voicecraft: fromPretrained({ module: "models.voicecraft", name: "VoiceCraft" }),
  voxcpm: fromPretrained({
    pip: "voxcpm",
    module: "voxcpm",
    name: "VoxCPM",
    usage: py`wav = model.generate(text="VoxCPM turns this sentence into speech.")`,
  }),
  zonos: fromPretrained({
    pip: "git+https://github.com/Zyphra/Zonos.git",
    module: "zonos.model",
    name: "Zonos",
    extraArgs: py`device="cuda"`,
  }),
};
