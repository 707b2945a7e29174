import * as tasks from "./tasks/all.js";
import type { RunOptions } from "./tasks/run.js";
import type { ImageOutputType, Options } from "./types.js";

export interface ClientDefaults extends Options {
  /** Every call goes to this server (OpenAI-compatible or hf-inference style); no hub call. */
  endpointUrl?: string;
}

/**
 * One method per task, each the tree-shakeable function of the same name with the client's token and
 * default options applied (per-call arguments and options win).
 */
export class InferenceClient {
  /** What every call's arguments start from (token, endpoint) and the default options: made once. */
  private readonly baseArgs: { accessToken?: string; endpointUrl?: string };
  private readonly baseOptions: RunOptions;

  constructor(
    private readonly accessToken?: string,
    private readonly defaults: ClientDefaults = {},
  ) {
    const { endpointUrl, ...options } = defaults;
    this.baseArgs = {};
    if (accessToken) this.baseArgs.accessToken = accessToken;
    if (endpointUrl) this.baseArgs.endpointUrl = endpointUrl;
    // Frozen, with its own copy of the retry settings: nothing can change it after this, so calls without
    // per-call options share one call context (tasks/prepare.ts) instead of making one each.
    if (options.retry) options.retry = Object.freeze({ ...options.retry });
    this.baseOptions = Object.freeze(options);
  }

  /** A client whose calls all go to `endpointUrl` (a TGI, vLLM, llama.cpp, Ollama... server). */
  endpoint(endpointUrl: string): InferenceClient {
    return new InferenceClient(this.accessToken, { ...this.defaults, endpointUrl });
  }

  /** Per-call arguments win over the client's token and endpoint. */
  private args<A extends object>(args: A): A & { accessToken?: string } {
    return Object.assign({}, this.baseArgs, args);
  }

  /** Per-call options win over the client's defaults; without any, the defaults as they are. */
  private options<O extends RunOptions | undefined>(options: O): RunOptions {
    return options ? Object.assign({}, this.baseOptions, options) : this.baseOptions;
  }

  textClassification(args: tasks.TextClassificationArgs, options?: RunOptions) {
    return tasks.textClassification(this.args(args), this.options(options));
  }
  tokenClassification(args: tasks.TokenClassificationArgs, options?: RunOptions) {
    return tasks.tokenClassification(this.args(args), this.options(options));
  }
  fillMask(args: tasks.FillMaskArgs, options?: RunOptions) {
    return tasks.fillMask(this.args(args), this.options(options));
  }
  questionAnswering(args: tasks.QuestionAnsweringArgs, options?: RunOptions) {
    return tasks.questionAnswering(this.args(args), this.options(options));
  }
  tableQuestionAnswering(args: tasks.TableQuestionAnsweringArgs, options?: RunOptions) {
    return tasks.tableQuestionAnswering(this.args(args), this.options(options));
  }
  summarization(args: tasks.SummarizationArgs, options?: RunOptions) {
    return tasks.summarization(this.args(args), this.options(options));
  }
  translation(args: tasks.TranslationArgs, options?: RunOptions) {
    return tasks.translation(this.args(args), this.options(options));
  }
  zeroShotClassification(args: tasks.ZeroShotClassificationArgs, options?: RunOptions) {
    return tasks.zeroShotClassification(this.args(args), this.options(options));
  }
  featureExtraction(args: tasks.FeatureExtractionArgs, options?: RunOptions) {
    return tasks.featureExtraction(this.args(args), this.options(options));
  }
  sentenceSimilarity(args: tasks.SentenceSimilarityArgs, options?: RunOptions) {
    return tasks.sentenceSimilarity(this.args(args), this.options(options));
  }
  automaticSpeechRecognition(args: tasks.AutomaticSpeechRecognitionArgs, options?: RunOptions) {
    return tasks.automaticSpeechRecognition(this.args(args), this.options(options));
  }
  audioClassification(args: tasks.AudioClassificationArgs, options?: RunOptions) {
    return tasks.audioClassification(this.args(args), this.options(options));
  }
  audioToAudio(args: tasks.AudioToAudioArgs, options?: RunOptions) {
    return tasks.audioToAudio(this.args(args), this.options(options));
  }
  imageClassification(args: tasks.ImageClassificationArgs, options?: RunOptions) {
    return tasks.imageClassification(this.args(args), this.options(options));
  }
  imageSegmentation(args: tasks.ImageSegmentationArgs, options?: RunOptions) {
    return tasks.imageSegmentation(this.args(args), this.options(options));
  }
  imageToText(args: tasks.ImageToTextArgs, options?: RunOptions) {
    return tasks.imageToText(this.args(args), this.options(options));
  }
  objectDetection(args: tasks.ObjectDetectionArgs, options?: RunOptions) {
    return tasks.objectDetection(this.args(args), this.options(options));
  }
  zeroShotImageClassification(args: tasks.ZeroShotImageClassificationArgs, options?: RunOptions) {
    return tasks.zeroShotImageClassification(this.args(args), this.options(options));
  }
  documentQuestionAnswering(args: tasks.DocumentQuestionAnsweringArgs, options?: RunOptions) {
    return tasks.documentQuestionAnswering(this.args(args), this.options(options));
  }
  visualQuestionAnswering(args: tasks.VisualQuestionAnsweringArgs, options?: RunOptions) {
    return tasks.visualQuestionAnswering(this.args(args), this.options(options));
  }
  tabularClassification(args: tasks.TabularClassificationArgs, options?: RunOptions) {
    return tasks.tabularClassification(this.args(args), this.options(options));
  }
  tabularRegression(args: tasks.TabularRegressionArgs, options?: RunOptions) {
    return tasks.tabularRegression(this.args(args), this.options(options));
  }
  textGeneration(args: tasks.TextGenerationArgs, options?: RunOptions) {
    return tasks.textGeneration(this.args(args), this.options(options));
  }
  chatCompletion(args: tasks.ChatCompletionArgs, options?: RunOptions) {
    return tasks.chatCompletion(this.args(args), this.options(options));
  }
  textToSpeech(args: tasks.TextToSpeechArgs, options?: RunOptions) {
    return tasks.textToSpeech(this.args(args), this.options(options));
  }
  textToAudio(args: tasks.TextToAudioArgs, options?: RunOptions) {
    return tasks.textToAudio(this.args(args), this.options(options));
  }
  imageTextToImage(args: tasks.ImageTextToImageArgs, options?: RunOptions) {
    return tasks.imageTextToImage(this.args(args), this.options(options));
  }
  imageTextToVideo(args: tasks.ImageTextToVideoArgs, options?: RunOptions) {
    return tasks.imageTextToVideo(this.args(args), this.options(options));
  }
  imageToImage(args: tasks.ImageToImageArgs, options?: RunOptions) {
    return tasks.imageToImage(this.args(args), this.options(options));
  }
  textToVideo(args: tasks.TextToVideoArgs, options?: RunOptions) {
    return tasks.textToVideo(this.args(args), this.options(options));
  }
  imageToVideo(args: tasks.ImageToVideoArgs, options?: RunOptions) {
    return tasks.imageToVideo(this.args(args), this.options(options));
  }
  chatCompletionStream(args: tasks.ChatCompletionArgs, options?: RunOptions) {
    return tasks.chatCompletionStream(this.args(args), this.options(options));
  }
  textGenerationStream(args: tasks.TextGenerationArgs, options?: RunOptions) {
    return tasks.textGenerationStream(this.args(args), this.options(options));
  }
  textToImage<O extends ImageOutputType | undefined = undefined>(
    args: tasks.TextToImageArgs,
    options?: RunOptions & { outputType?: O },
  ) {
    return tasks.textToImage<O>(this.args(args), {
      ...this.options(options),
      outputType: options?.outputType,
    } as RunOptions & { outputType?: O });
  }
  request<T = unknown>(args: tasks.RawRequestArgs, options?: RunOptions) {
    return tasks.request<T>(this.args(args), this.options(options));
  }
  streamingRequest<T = unknown>(args: tasks.RawRequestArgs, options?: RunOptions) {
    return tasks.streamingRequest<T>(this.args(args), this.options(options));
  }
}
