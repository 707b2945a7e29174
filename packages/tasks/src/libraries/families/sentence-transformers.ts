import type { ModelData } from "../../model-data.js";
import { exampleSentences, exampleText } from "../examples.js";
import { comment, py } from "../quote.js";
import type { ModelLibrary } from "../types.js";
import { type LibrarySnippet, snippet } from "../types.js";
import { CUSTOM_CODE_TAG } from "./transformers.js";

const PASSAGES = [
  "Mars, known for its reddish appearance, is often referred to as the Red Planet.",
  "Venus is often called Earth's twin because of its similar size and proximity.",
  "Jupiter, the largest planet in our solar system, has a prominent red spot.",
];

/** sentence-transformers: embeddings and their similarities, or a cross-encoder scoring passages. */
export function sentenceTransformersSnippets(model: ModelData): LibrarySnippet[] {
  const remote = model.tags.includes(CUSTOM_CODE_TAG) ? py`, trust_remote_code=True` : py``;
  if (model.tags.includes("cross-encoder") || model.pipeline_tag === "text-ranking") {
    return [
      snippet(
        py`from sentence_transformers import CrossEncoder

model = CrossEncoder(${model.id}${remote})

query = ${exampleText(model, "Which planet is known as the Red Planet?")}
passages = ${PASSAGES}
scores = model.predict([(query, passage) for passage in passages])
print(scores)`,
        "Score passages",
      ),
    ];
  }
  const sentences = exampleSentences(model);
  return [
    snippet(
      py`from sentence_transformers import SentenceTransformer

model = SentenceTransformer(${model.id}${remote})

sentences = ${sentences}
embeddings = model.encode(sentences)

similarities = model.similarity(embeddings, embeddings)
print(similarities.shape)  ${comment("python", `(${sentences.length}, ${sentences.length})`)}`,
      "Compute embeddings",
    ),
  ];
}

/** The libraries of this family, keyed by the `library_name` their models declare. */
export const SENTENCE_TRANSFORMERS_LIBRARIES = {
  "sentence-transformers": {
    prettyLabel: "sentence-transformers",
    repoName: "sentence-transformers",
    repoUrl: "https://github.com/UKPLab/sentence-transformers",
    docsUrl: "https://sbert.net/",
    snippets: sentenceTransformersSnippets,
    filter: true,
  },
} satisfies Record<string, ModelLibrary>;
