import type { PipelineType } from "../pipelines.js";
import type { TaskDefinition } from "./types.js";

const IMAGE_IN = { type: "image", filename: "cats.jpg" } as const;

/** Tasks that mix kinds of input: image and text, audio and text, video and text, any. */
export const MULTIMODAL_TASKS = {
  "audio-text-to-text": {
    summary: "Answer or follow instructions about an audio clip.",
    models: [
      { id: "Qwen/Qwen2-Audio-7B-Instruct", description: "Chat about speech, sounds and music." },
      { id: "fixie-ai/ultravox-v0_5-llama-3_1-8b", description: "Speech-in language model." },
    ],
    io: { inputs: ["audio", "text"], outputs: ["text"] },
    demo: {
      inputs: [
        { type: "audio", filename: "sample1.flac" },
        { type: "text", label: "Prompt", content: "What is said here?" },
      ],
      outputs: [{ type: "text", label: "Answer", content: "A speaker talks about slushy country roads." }],
    },
    isPlaceholder: true,
  },
  "image-to-text": {
    summary: "Describe an image in words (captioning) or read the text it shows (OCR).",
    models: [
      { id: "Salesforce/blip-image-captioning-large", description: "BLIP image captioning." },
      { id: "microsoft/trocr-base-printed", description: "Optical character recognition of printed text." },
    ],
    io: { inputs: ["image"], outputs: ["text"] },
    demo: {
      inputs: [IMAGE_IN],
      outputs: [{ type: "text", label: "Caption", content: "two cats lying on a couch" }],
    },
  },
  "image-text-to-text": {
    summary:
      "Chat about images: answer questions, describe, read and reason over pictures (vision-language models).",
    models: [
      { id: "Qwen/Qwen2.5-VL-7B-Instruct", description: "Vision-language chat, documents and charts." },
      { id: "google/gemma-3-27b-it", description: "Gemma 3, multimodal and multilingual." },
      { id: "meta-llama/Llama-3.2-11B-Vision-Instruct", description: "Llama with image understanding." },
    ],
    io: { inputs: ["image", "text", "chat"], outputs: ["text"] },
    demo: {
      inputs: [IMAGE_IN, { type: "text", label: "Prompt", content: "Describe this image in one sentence." }],
      outputs: [
        {
          type: "text",
          label: "Answer",
          content: "Two cats are sleeping on a pink blanket next to remote controls.",
        },
      ],
    },
  },
  "image-text-to-image": {
    summary: "Edit or generate an image from an input image and a text instruction.",
    models: [
      { id: "black-forest-labs/FLUX.1-Kontext-dev", description: "Instruction-based image editing." },
      { id: "Qwen/Qwen-Image-Edit", description: "Image editing, including text in images." },
    ],
    io: { inputs: ["image", "text"], outputs: ["image"] },
    demo: {
      inputs: [IMAGE_IN, { type: "text", label: "Instruction", content: "Turn the cats into tigers" }],
      outputs: [{ type: "image", filename: "tigers.png" }],
    },
  },
  "image-text-to-video": {
    summary: "Generate a video from an input image and a text prompt.",
    models: [{ id: "Wan-AI/Wan2.2-TI2V-5B", description: "Text and image to 720p video." }],
    io: { inputs: ["image", "text"], outputs: ["video"] },
    demo: {
      inputs: [IMAGE_IN, { type: "text", label: "Prompt", content: "The cats wake up and stretch" }],
      outputs: [{ type: "video", filename: "cats.mp4" }],
    },
  },
  "visual-question-answering": {
    summary: "Answer a short question about an image.",
    models: [
      { id: "dandelin/vilt-b32-finetuned-vqa", description: "ViLT fine-tuned on VQAv2." },
      { id: "Salesforce/blip-vqa-base", description: "BLIP visual question answering." },
    ],
    io: { inputs: ["image", "text"], outputs: ["text", "scores"] },
    demo: {
      inputs: [IMAGE_IN, { type: "text", label: "Question", content: "How many cats are there?" }],
      outputs: [
        {
          type: "chart",
          data: [
            { label: "2", score: 0.94 },
            { label: "3", score: 0.03 },
          ],
        },
      ],
    },
  },
  "document-question-answering": {
    summary: "Answer a question from a scanned document, invoice or form.",
    models: [
      { id: "impira/layoutlm-document-qa", description: "LayoutLM fine-tuned for document QA." },
      { id: "naver-clova-ix/donut-base-finetuned-docvqa", description: "OCR-free document understanding." },
    ],
    io: { inputs: ["image", "text"], outputs: ["text"] },
    demo: {
      inputs: [
        { type: "image", filename: "invoice.png" },
        { type: "text", label: "Question", content: "What is the invoice number?" },
      ],
      outputs: [{ type: "text", label: "Answer", content: "us-001" }],
    },
  },
  "video-text-to-text": {
    summary: "Chat about a video: describe it, answer questions on what happens.",
    models: [
      { id: "llava-hf/LLaVA-NeXT-Video-7B-hf", description: "LLaVA for videos." },
      { id: "Qwen/Qwen2.5-VL-7B-Instruct", description: "Also understands long videos." },
    ],
    io: { inputs: ["video", "text"], outputs: ["text"] },
    demo: {
      inputs: [
        { type: "video", filename: "playing-guitar.mp4" },
        { type: "text", label: "Prompt", content: "What is the person doing?" },
      ],
      outputs: [{ type: "text", label: "Answer", content: "The person is playing an acoustic guitar." }],
    },
  },
  "visual-document-retrieval": {
    summary: "Find the document pages (as images) that answer a text query.",
    models: [
      { id: "vidore/colqwen2-v1.0", description: "ColQwen2 multi-vector page retrieval." },
      { id: "vidore/colpali-v1.3", description: "ColPali page retrieval." },
    ],
    io: { inputs: ["text", "image"], outputs: ["scores"] },
    demo: {
      inputs: [{ type: "text", label: "Query", content: "Which page shows the 2023 revenue?" }],
      outputs: [{ type: "chart", data: [{ label: "page 4", score: 0.91 }] }],
    },
  },
  "any-to-any": {
    summary: "Models that take and produce several kinds of data: text, images, audio, video.",
    models: [
      { id: "Qwen/Qwen2.5-Omni-7B", description: "Text, image, audio and video in; text and speech out." },
      { id: "deepseek-ai/Janus-Pro-7B", description: "Understands and generates images." },
    ],
    io: { inputs: ["any"], outputs: ["any"] },
    demo: {
      inputs: [
        IMAGE_IN,
        { type: "text", label: "Prompt", content: "Describe this picture, then read it aloud." },
      ],
      outputs: [{ type: "audio", filename: "description.wav" }],
    },
  },
} satisfies Partial<Record<PipelineType, TaskDefinition>>;
