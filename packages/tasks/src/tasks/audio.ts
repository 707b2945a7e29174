import type { PipelineType } from "../pipelines.js";
import type { TaskDefinition } from "./types.js";

/** Speech and sound tasks. */
export const AUDIO_TASKS = {
  "text-to-speech": {
    summary: "Read a text aloud: generate natural speech audio from text.",
    models: [
      { id: "hexgrad/Kokoro-82M", description: "Small, high-quality English speech synthesis." },
      { id: "microsoft/speecht5_tts", description: "SpeechT5 speech synthesis, with speaker embeddings." },
      { id: "suno/bark", description: "Expressive multilingual speech, laughter and sounds." },
    ],
    io: { inputs: ["text"], outputs: ["audio"] },
    demo: {
      inputs: [{ type: "text", label: "Input", content: "I love audio models on the hub!" }],
      outputs: [{ type: "audio", filename: "audio.wav" }],
    },
  },
  "text-to-audio": {
    summary: "Generate music or sound effects from a text description.",
    models: [
      { id: "facebook/musicgen-small", description: "MusicGen, music from a text prompt." },
      { id: "stabilityai/stable-audio-open-1.0", description: "Sound effects and short music clips." },
    ],
    io: { inputs: ["text"], outputs: ["audio"] },
    demo: {
      inputs: [
        { type: "text", label: "Prompt", content: "liquid drum and bass, atmospheric synths, airy sounds" },
      ],
      outputs: [{ type: "audio", filename: "audio.wav" }],
    },
  },
  "automatic-speech-recognition": {
    summary: "Transcribe spoken audio into text.",
    models: [
      { id: "openai/whisper-large-v3", description: "Multilingual speech recognition and translation." },
      { id: "openai/whisper-large-v3-turbo", description: "Faster Whisper with a pruned decoder." },
      { id: "nvidia/parakeet-tdt-0.6b-v2", description: "Fast English transcription with timestamps." },
    ],
    datasets: [
      { id: "mozilla-foundation/common_voice_17_0", description: "Crowd-sourced speech in many languages." },
    ],
    io: { inputs: ["audio"], outputs: ["text"] },
    demo: {
      inputs: [{ type: "audio", filename: "sample1.flac" }],
      outputs: [
        {
          type: "text",
          label: "Transcript",
          content: "Going along slushy country roads and speaking to damp audiences...",
        },
      ],
    },
  },
  "audio-to-audio": {
    summary: "Transform audio into audio: separate speakers, remove noise, enhance speech.",
    models: [
      { id: "speechbrain/sepformer-wham", description: "Separates two overlapping speakers." },
      { id: "speechbrain/metricgan-plus-voicebank", description: "Speech enhancement (noise removal)." },
    ],
    io: { inputs: ["audio"], outputs: ["audio"] },
    demo: {
      inputs: [{ type: "audio", filename: "sample1.flac" }],
      outputs: [{ type: "audio", filename: "enhanced.wav" }],
    },
  },
  "audio-classification": {
    summary: "Assign a label to an audio clip: emotion, language, command, sound event...",
    models: [
      {
        id: "MIT/ast-finetuned-audioset-10-10-0.4593",
        description: "Audio Spectrogram Transformer on AudioSet.",
      },
      { id: "superb/hubert-large-superb-er", description: "Emotion recognition from speech." },
    ],
    io: { inputs: ["audio"], outputs: ["labels"] },
    demo: {
      inputs: [{ type: "audio", filename: "sample1.flac" }],
      outputs: [
        {
          type: "chart",
          data: [
            { label: "Speech", score: 0.93 },
            { label: "Music", score: 0.04 },
          ],
        },
      ],
    },
  },
  "voice-activity-detection": {
    summary: "Find the time ranges of an audio recording where someone speaks.",
    models: [
      { id: "pyannote/segmentation-3.0", description: "Speech activity and overlapped-speech segmentation." },
    ],
    io: { inputs: ["audio"], outputs: ["labels"] },
    demo: {
      inputs: [{ type: "audio", filename: "sample1.flac" }],
      outputs: [{ type: "text", label: "Speech", content: "0.5s - 4.2s, 5.0s - 9.8s" }],
    },
  },
} satisfies Partial<Record<PipelineType, TaskDefinition>>;
