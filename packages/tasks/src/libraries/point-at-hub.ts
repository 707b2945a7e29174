import { PUBLIC_HUB_URL } from "../hub-endpoint.js";
import { type Code, comment, joinCode, js, py, sh } from "./quote.js";
import type { LibrarySnippet } from "./types.js";

/**
 * Library snippets on another hub than huggingface.co. The libraries download through huggingface_hub (or
 * `hf`), which reads `HF_ENDPOINT` when it is imported: Python snippets set it first thing, shell snippets
 * export it, Transformers.js gets its own `env.remoteHost`. Only snippets that name the repository fetch
 * from a hub; an install line or a message is left as it is.
 */

const HEADLINE = "Download from this hub, not huggingface.co";

function pythonPreamble(hubUrl: string): Code<"python"> {
  return joinCode("python", [
    comment("python", `${HEADLINE} (set before huggingface_hub is imported):`),
    py`import os`,
    py``,
    py`os.environ["HF_ENDPOINT"] = ${hubUrl}`,
    py``,
  ]);
}

function shellPreamble(hubUrl: string): Code<"sh"> {
  return joinCode("sh", [comment("sh", `${HEADLINE}:`), sh`export HF_ENDPOINT=${hubUrl}`, sh``]);
}

function jsPreamble(hubUrl: string, content: string): Code<"js"> {
  if (!content.includes('"@huggingface/transformers"')) {
    return joinCode("js", [comment("js", `${HEADLINE}: its address is ${hubUrl}`), js``]);
  }
  return joinCode("js", [
    js`import { env } from "@huggingface/transformers";`,
    js``,
    comment("js", `${HEADLINE}:`),
    js`env.remoteHost = ${`${hubUrl}/`};`,
    js``,
  ]);
}

/** The snippet as it reads on the hub at `hubUrl` (an "other" hub, see otherHubUrl). */
export function pointAtHub(snippet: LibrarySnippet, modelId: string, hubUrl: string): LibrarySnippet {
  if (modelId === "" || !snippet.content.includes(modelId)) return snippet;
  // Direct file URLs on the public hub (a wheel, a config) become this hub's; hubUrl holds no quote.
  const content = snippet.content.replaceAll(`${PUBLIC_HUB_URL}/${modelId}/`, `${hubUrl}/${modelId}/`);
  const preamble =
    snippet.language === "python"
      ? pythonPreamble(hubUrl)
      : snippet.language === "sh"
        ? shellPreamble(hubUrl)
        : jsPreamble(hubUrl, content);
  return { ...snippet, content: `${preamble.text}\n${content}` };
}
