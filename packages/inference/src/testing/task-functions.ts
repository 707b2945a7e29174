import * as tasks from "../tasks/all.js";
import type { InferenceTask } from "../types.js";

export type TaskFunction = (args: never, options: never) => Promise<unknown>;

/** The non-streaming function of each task, for the suites that call every task the same way. */
export const TASK_FUNCTIONS: Partial<Record<InferenceTask, TaskFunction>> = {
  conversational: tasks.chatCompletion,
  "text-generation": tasks.textGeneration,
  "text-classification": tasks.textClassification,
  "token-classification": tasks.tokenClassification,
  "fill-mask": tasks.fillMask,
  "question-answering": tasks.questionAnswering,
  "table-question-answering": tasks.tableQuestionAnswering,
  summarization: tasks.summarization,
  translation: tasks.translation,
  "zero-shot-classification": tasks.zeroShotClassification,
  "feature-extraction": tasks.featureExtraction,
  "sentence-similarity": tasks.sentenceSimilarity,
  "automatic-speech-recognition": tasks.automaticSpeechRecognition,
  "audio-classification": tasks.audioClassification,
  "audio-to-audio": tasks.audioToAudio,
  "image-classification": tasks.imageClassification,
  "image-segmentation": tasks.imageSegmentation,
  "image-to-text": tasks.imageToText,
  "object-detection": tasks.objectDetection,
  "zero-shot-image-classification": tasks.zeroShotImageClassification,
  "document-question-answering": tasks.documentQuestionAnswering,
  "visual-question-answering": tasks.visualQuestionAnswering,
  "tabular-classification": tasks.tabularClassification,
  "tabular-regression": tasks.tabularRegression,
  "text-to-image": tasks.textToImage,
  "text-to-speech": tasks.textToSpeech,
  "text-to-audio": tasks.textToAudio,
  "image-to-image": tasks.imageToImage,
  "text-to-video": tasks.textToVideo,
  "image-to-video": tasks.imageToVideo,
  "image-text-to-image": tasks.imageTextToImage,
  "image-text-to-video": tasks.imageTextToVideo,
};
