import type { PipelineType } from "@modelhub/tasks";

/** huggingface_hub's InferenceClient method per pipeline task (spec §9: about 28 tasks). */
export const HF_PYTHON_METHODS: Partial<Record<PipelineType, string>> = {
  "audio-classification": "audio_classification",
  "audio-to-audio": "audio_to_audio",
  "automatic-speech-recognition": "automatic_speech_recognition",
  "document-question-answering": "document_question_answering",
  "feature-extraction": "feature_extraction",
  "fill-mask": "fill_mask",
  "image-classification": "image_classification",
  "image-segmentation": "image_segmentation",
  "image-to-image": "image_to_image",
  "image-to-text": "image_to_text",
  "image-to-video": "image_to_video",
  "object-detection": "object_detection",
  "question-answering": "question_answering",
  "sentence-similarity": "sentence_similarity",
  summarization: "summarization",
  "table-question-answering": "table_question_answering",
  "tabular-classification": "tabular_classification",
  "tabular-regression": "tabular_regression",
  "text-classification": "text_classification",
  "text-generation": "text_generation",
  "text-to-image": "text_to_image",
  "text-to-speech": "text_to_speech",
  "text-to-video": "text_to_video",
  "token-classification": "token_classification",
  translation: "translation",
  "visual-question-answering": "visual_question_answering",
  "zero-shot-classification": "zero_shot_classification",
  "zero-shot-image-classification": "zero_shot_image_classification",
};

/** @huggingface/inference's client method per pipeline task (spec §9: about 13 tasks). */
export const HF_JS_METHODS: Partial<Record<PipelineType, string>> = {
  "automatic-speech-recognition": "automaticSpeechRecognition",
  "feature-extraction": "featureExtraction",
  "fill-mask": "fillMask",
  "image-classification": "imageClassification",
  // Not in the public generator's map; the client has it (Z.ai's layout parsing; its hf-inference captions
  // fail on the API's list answer: client-support.ts).
  "image-to-text": "imageToText",
  "question-answering": "questionAnswering",
  "sentence-similarity": "sentenceSimilarity",
  summarization: "summarization",
  "table-question-answering": "tableQuestionAnswering",
  "text-classification": "textClassification",
  "text-generation": "textGeneration",
  "token-classification": "tokenClassification",
  "text-to-speech": "textToSpeech",
  translation: "translation",
};
