import type { PipelineType } from "../pipelines.js";
import type { TaskDefinition } from "./types.js";

/** Language tasks: text in, labels, spans, text or vectors out. */
export const NLP_TASKS = {
  "text-classification": {
    summary: "Assign a label (sentiment, topic, intent...) to a whole piece of text.",
    models: [
      {
        id: "distilbert/distilbert-base-uncased-finetuned-sst-2-english",
        description: "Small English sentiment classifier.",
      },
      {
        id: "cardiffnlp/twitter-roberta-base-sentiment-latest",
        description: "Sentiment of social-media posts.",
      },
      { id: "ProsusAI/finbert", description: "Sentiment of financial text." },
    ],
    datasets: [{ id: "stanfordnlp/imdb", description: "Movie reviews labelled positive or negative." }],
    io: { inputs: ["text"], outputs: ["labels"] },
    demo: {
      inputs: [
        { type: "text", label: "Input", content: "I love this new phone, the battery lasts for days!" },
      ],
      outputs: [
        {
          type: "chart",
          data: [
            { label: "POSITIVE", score: 0.99 },
            { label: "NEGATIVE", score: 0.01 },
          ],
        },
      ],
    },
  },
  "token-classification": {
    summary: "Label every word of a text, e.g. to find the people, places and organisations it names.",
    models: [
      {
        id: "dslim/bert-base-NER",
        description: "English named-entity recogniser (persons, places, organisations).",
      },
      {
        id: "FacebookAI/xlm-roberta-large-finetuned-conll03-english",
        description: "Multilingual-capable NER.",
      },
      { id: "flair/ner-english-ontonotes-large", description: "Eighteen entity classes, Flair." },
    ],
    io: { inputs: ["text"], outputs: ["entities"] },
    demo: {
      inputs: [{ type: "text", label: "Input", content: "My name is Sarah and I live in London." }],
      outputs: [{ type: "text", label: "Entities", content: "Sarah: PER, London: LOC" }],
    },
  },
  "table-question-answering": {
    summary: "Answer a question from the cells of a table.",
    models: [
      { id: "google/tapas-base-finetuned-wtq", description: "TAPAS fine-tuned on WikiTableQuestions." },
      {
        id: "microsoft/tapex-large-finetuned-wtq",
        description: "TAPEX, a BART model pre-trained on tables.",
      },
    ],
    io: { inputs: ["table", "text"], outputs: ["text"] },
    demo: {
      inputs: [
        {
          type: "table",
          data: [
            ["Repository", "Stars"],
            ["transformers", "36542"],
            ["datasets", "4512"],
          ],
        },
        { type: "text", label: "Question", content: "How many stars does the transformers repository have?" },
      ],
      outputs: [{ type: "text", label: "Answer", content: "36542" }],
    },
  },
  "question-answering": {
    summary: "Find the answer to a question inside a given context passage.",
    models: [
      {
        id: "deepset/roberta-base-squad2",
        description: "Extractive QA that can also say there is no answer.",
      },
      { id: "distilbert/distilbert-base-cased-distilled-squad", description: "Small, fast extractive QA." },
    ],
    datasets: [{ id: "rajpurkar/squad_v2", description: "Questions over Wikipedia passages." }],
    io: { inputs: ["text"], outputs: ["text", "scores"] },
    demo: {
      inputs: [
        { type: "text", label: "Question", content: "Where do I live?" },
        { type: "text", label: "Context", content: "My name is Wolfgang and I live in Berlin." },
      ],
      outputs: [{ type: "text", label: "Answer", content: "Berlin" }],
    },
  },
  "zero-shot-classification": {
    summary: "Classify text into labels chosen at request time, without training on them.",
    models: [
      { id: "facebook/bart-large-mnli", description: "BART trained on natural-language inference." },
      {
        id: "MoritzLaurer/deberta-v3-large-zeroshot-v2.0",
        description: "Strong DeBERTa zero-shot classifier.",
      },
    ],
    io: { inputs: ["text", "labels"], outputs: ["labels"] },
    demo: {
      inputs: [
        {
          type: "text",
          label: "Text",
          content: "I bought a device that does not work and want my money back.",
        },
        { type: "text", label: "Candidate labels", content: "refund, legal, faq" },
      ],
      outputs: [
        {
          type: "chart",
          data: [
            { label: "refund", score: 0.88 },
            { label: "faq", score: 0.08 },
          ],
        },
      ],
    },
  },
  translation: {
    summary: "Turn text in one language into another.",
    models: [
      { id: "google-t5/t5-base", description: "T5, translates English to French, German and Romanian." },
      { id: "facebook/nllb-200-distilled-600M", description: "Translation between 200 languages." },
      { id: "Helsinki-NLP/opus-mt-en-fr", description: "Compact English to French model." },
    ],
    io: { inputs: ["text"], outputs: ["text"] },
    demo: {
      inputs: [{ type: "text", label: "English", content: "My name is Omar and I live in Zürich." }],
      outputs: [{ type: "text", label: "French", content: "Je m'appelle Omar et je vis à Zürich." }],
    },
  },
  summarization: {
    summary: "Produce a shorter text that keeps the important points of a longer one.",
    models: [
      { id: "facebook/bart-large-cnn", description: "BART fine-tuned on news articles." },
      { id: "google/pegasus-xsum", description: "One-sentence abstractive summaries." },
    ],
    datasets: [{ id: "abisee/cnn_dailymail", description: "News articles with highlights." }],
    io: { inputs: ["text"], outputs: ["text"] },
    demo: {
      inputs: [
        {
          type: "text",
          label: "Article",
          content: "The tower is 324 metres tall, about the same height as an 81-storey building...",
        },
      ],
      outputs: [{ type: "text", label: "Summary", content: "The tower is 324 metres tall." }],
    },
  },
  "feature-extraction": {
    summary: "Turn text into a vector of numbers that captures its meaning (embeddings).",
    models: [
      { id: "intfloat/multilingual-e5-large", description: "Multilingual embedding model." },
      { id: "BAAI/bge-m3", description: "Dense, sparse and multi-vector embeddings in 100+ languages." },
      { id: "sentence-transformers/all-MiniLM-L6-v2", description: "Small, fast English embeddings." },
    ],
    io: { inputs: ["text"], outputs: ["embedding"] },
    demo: {
      inputs: [{ type: "text", label: "Input", content: "Today is a sunny day." }],
      outputs: [
        {
          type: "table",
          data: [
            ["Dimension 1", "Dimension 2", "..."],
            ["0.012", "-0.334", "..."],
          ],
        },
      ],
    },
  },
  "text-generation": {
    summary: "Continue a text or answer in a conversation: the task behind chat models.",
    models: [
      { id: "meta-llama/Llama-3.1-8B-Instruct", description: "Instruction-tuned 8B chat model." },
      { id: "Qwen/Qwen2.5-7B-Instruct", description: "Multilingual chat model, good at code and maths." },
      { id: "deepseek-ai/DeepSeek-R1", description: "Reasoning model that thinks before it answers." },
      { id: "openai-community/gpt2", description: "Small classic base model, for experiments." },
    ],
    io: { inputs: ["text", "chat"], outputs: ["text"] },
    demo: {
      inputs: [{ type: "text", label: "Prompt", content: "Once upon a time," }],
      outputs: [
        {
          type: "text",
          label: "Output",
          content: "Once upon a time, in a valley far away, lived a curious fox.",
        },
      ],
    },
  },
  "fill-mask": {
    summary: "Predict the word hidden behind a mask token in a sentence.",
    models: [
      { id: "google-bert/bert-base-uncased", description: "The original English BERT." },
      { id: "FacebookAI/roberta-base", description: "RoBERTa, BERT trained longer on more data." },
      { id: "answerdotai/ModernBERT-base", description: "Modern encoder with long context." },
    ],
    io: { inputs: ["text"], outputs: ["labels"] },
    demo: {
      inputs: [{ type: "text", label: "Input", content: "The goal of life is [MASK]." }],
      outputs: [
        {
          type: "chart",
          data: [
            { label: "happiness", score: 0.12 },
            { label: "survival", score: 0.05 },
          ],
        },
      ],
    },
  },
  "sentence-similarity": {
    summary: "Score how close in meaning a sentence is to each of several others.",
    models: [
      {
        id: "sentence-transformers/all-MiniLM-L6-v2",
        description: "Small, fast English sentence embeddings.",
      },
      {
        id: "sentence-transformers/all-mpnet-base-v2",
        description: "Higher-quality English sentence embeddings.",
      },
      { id: "BAAI/bge-small-en-v1.5", description: "Compact retrieval-oriented embeddings." },
    ],
    io: { inputs: ["text"], outputs: ["scores"] },
    demo: {
      inputs: [
        { type: "text", label: "Source sentence", content: "Machine learning is so easy." },
        {
          type: "text",
          label: "Sentences",
          content: "Deep learning is so straightforward. / This is so difficult.",
        },
      ],
      outputs: [
        {
          type: "chart",
          data: [
            { label: "Deep learning is so straightforward.", score: 0.62 },
            { label: "This is so difficult.", score: 0.21 },
          ],
        },
      ],
    },
  },
  "table-to-text": {
    summary: "Describe the content of a table in prose.",
    models: [],
    io: { inputs: ["table"], outputs: ["text"] },
    demo: { inputs: [], outputs: [] },
    isPlaceholder: true,
    noDefaultModelReason: "no model is maintained for this hidden task; pick a text-generation model",
  },
  "multiple-choice": {
    summary: "Pick the right answer to a question among given choices.",
    models: [],
    io: { inputs: ["text"], outputs: ["labels"] },
    demo: { inputs: [], outputs: [] },
    isPlaceholder: true,
    noDefaultModelReason: "multiple-choice heads are fine-tuned per benchmark; no general default exists",
  },
  "text-ranking": {
    summary: "Order passages by how relevant they are to a query (rerankers).",
    models: [
      { id: "BAAI/bge-reranker-v2-m3", description: "Multilingual cross-encoder reranker." },
      {
        id: "cross-encoder/ms-marco-MiniLM-L6-v2",
        description: "Small English reranker trained on MS MARCO.",
      },
    ],
    io: { inputs: ["text"], outputs: ["scores"] },
    demo: {
      inputs: [
        { type: "text", label: "Query", content: "How many people live in Berlin?" },
        {
          type: "text",
          label: "Passage",
          content: "Berlin has a population of 3,520,031 registered inhabitants.",
        },
      ],
      outputs: [{ type: "chart", data: [{ label: "Berlin has a population of ...", score: 0.98 }] }],
    },
  },
  "text-retrieval": {
    summary: "Find the documents of a collection that answer a query.",
    models: [
      {
        id: "sentence-transformers/msmarco-MiniLM-L6-cos-v5",
        description: "Bi-encoder trained on MS MARCO queries.",
      },
    ],
    io: { inputs: ["text"], outputs: ["scores"] },
    demo: { inputs: [], outputs: [] },
    isPlaceholder: true,
  },
} satisfies Partial<Record<PipelineType, TaskDefinition>>;
